//! The `perplexity` format: a chat completion `{id, model, object, created, usage,
//! citations: ["https://..."], search_results: [{title, url, date, last_updated,
//! snippet}], choices: [{index, finish_reason, message: {role, content}}]}`.
//!
//! - The text is `answer` when given (the caller's text wins; the completion's content
//!   then stays in the metadata's `choices`), else `choices[0].message.content` (a
//!   string, or an array of `text` parts; `delta.content` for a streamed chunk). A leading
//!   `<think>...</think>` block (the reasoning models) is taken out of the text and kept
//!   in the answer's metadata as `think`.
//! - `[1]`, `[1][2]` markers are 1-based into `citations`: source id `"1"`, `"2"`, ...,
//!   key `Num(n)`, given number n. Each citation url is matched with the search result
//!   of the same (normalized) url, else with the search result at the same position
//!   when that one has no url; the search result gives `title`, `date` (published),
//!   `last_updated` (modified), `snippet`. A citation that is not a string keeps its
//!   position (markers after it still count right) and is reported.
//! - Without `citations`, the `search_results` themselves are numbered 1, 2, ...;
//!   search results no citation matched are kept as uncited sources (`search-<n>`).
//! - The rest (`id`, `model`, `usage`, other choices, ...) is kept in the answer's
//!   metadata.

use crate::core::draft::{Draft, DraftSource};
use crate::core::error::ParseError;
use crate::core::formats::support;
use crate::core::json_fields::{type_name, wrong_type, Fields};
use crate::core::markers::{SourceKey, TextSyntax};
use crate::core::model::{Diagnostic, Format, Source};
use crate::core::options::Options;
use crate::core::ordered_hash::OrderedHashMap;
use crate::core::untrusted_text::normalize_url;
use serde_json::{Map, Value};
use std::collections::VecDeque;

/// The provider name set on every source.
const PROVIDER: &str = "perplexity";

/// Parses `perplexity` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    options: &Options,
) -> Result<Draft, ParseError> {
    let _ = options;
    let not_format = |msg: String| Err(ParseError::not_format(Format::Perplexity, "$", msg));
    let o = match data {
        Some(Value::Object(o)) => o,
        Some(other) => {
            return not_format(format!(
                "expected a chat completion object, found {}",
                type_name(other)
            ))
        }
        None => return not_format("expected a chat completion, found no data".into()),
    };
    if !["choices", "citations", "search_results"]
        .iter()
        .any(|k| o.contains_key(*k))
    {
        return not_format(
            "expected a chat completion with `choices`, `citations` or `search_results`".into(),
        );
    }
    let mut diags = Vec::new();
    let mut f = Fields::new(o, "");
    let mut meta = Map::new();
    let mut text: Option<String> = None;
    match f.value("choices") {
        Some(Value::Array(choices)) => {
            let mut kept = choices.clone();
            // The caller's text wins; the data's own content then stays in the
            // metadata, untouched.
            if answer.is_none() {
                if let Some(Value::Object(first)) = kept.first_mut() {
                    text = take_content(first, &mut diags);
                }
            }
            meta.insert("choices".into(), Value::Array(kept));
        }
        Some(other) => diags.push(wrong_type("choices", "an array", other)),
        None => {}
    }
    let mut text = answer.map(str::to_string).or(text).unwrap_or_default();
    if let Some((think, rest)) = split_think(&text) {
        meta.insert("think".into(), Value::String(think.to_string()));
        text = rest.to_string();
    }

    // Search results, read once.
    let mut results: Vec<Option<Result_>> = Vec::new();
    match f.value("search_results") {
        Some(Value::Array(a)) => {
            for (j, r) in a.iter().enumerate() {
                results.push(read_result(r, &format!("search_results[{j}]"), &mut diags));
            }
        }
        Some(other) => diags.push(wrong_type("search_results", "an array", other)),
        None => {}
    }
    let mut matched = vec![false; results.len()];
    // normalized url → indices of the search results with it, in order
    let mut by_key: OrderedHashMap<&str, VecDeque<usize>> = OrderedHashMap::new();
    for (j, r) in results.iter().enumerate() {
        if let Some(k) = r.as_ref().and_then(|r| r.key.as_deref()) {
            by_key.or_default(k).push_back(j);
        }
    }
    let mut sources = Vec::new();
    let citations = match f.value("citations") {
        Some(Value::Array(a)) => Some(a),
        Some(other) => {
            diags.push(wrong_type("citations", "an array", other));
            None
        }
        None => None,
    };
    if let Some(cits) = citations.filter(|c| !c.is_empty()) {
        for (i, c) in cits.iter().enumerate() {
            let n = i as u64 + 1;
            let path = format!("citations[{i}]");
            let (raw_url, extra) = match c {
                Value::String(s) => (Some(s.as_str()), None),
                Value::Object(co) => {
                    let u = ["url", "uri", "link"]
                        .iter()
                        .find_map(|k| co.get(*k).and_then(Value::as_str));
                    (u, Some(co))
                }
                other => {
                    diags.push(wrong_type(&path, "a url", other));
                    continue;
                }
            };
            let mut src = new_source(n);
            if let Some(u) = raw_url {
                support::apply_url(&mut src, u, &path, &mut diags);
            }
            if let Some(co) = extra {
                let mut cf = Fields::new(co, path.as_str());
                cf.value_any(&["url", "uri", "link"]);
                if let Some(t) = cf.string("title", &mut diags) {
                    src.title = support::title(&t);
                }
                src.metadata = cf.rest();
            }
            // The search result for this citation: same url, else same position.
            let by_url = src.url.as_deref().map(normalize_url).and_then(|u| {
                let queue = by_key.get_mut(u.as_str())?;
                while let Some(j) = queue.pop_front() {
                    if !matched[j] {
                        return Some(j);
                    }
                }
                None
            });
            let by_pos = || {
                results
                    .get(i)
                    .and_then(|r| r.as_ref())
                    .filter(|r| r.key.is_none() && !matched[i])
                    .map(|_| i)
            };
            if let Some(j) = by_url.or_else(by_pos) {
                matched[j] = true;
                if let Some(r) = results.get(j).and_then(|r| r.as_ref()) {
                    merge(&mut src, &r.source);
                }
            }
            support::finish_source(&mut src, "web");
            sources.push(numbered(src, n));
        }
        for (j, r) in results.into_iter().enumerate() {
            if let Some(r) = r.filter(|_| !matched[j]) {
                let mut src = r.source;
                src.id = format!("search-{}", j + 1);
                support::finish_source(&mut src, "web");
                sources.push(DraftSource {
                    source: src,
                    keys: Vec::new(),
                    given_number: None,
                });
            }
        }
    } else {
        for (j, r) in results.into_iter().enumerate() {
            if let Some(r) = r {
                let n = j as u64 + 1;
                let mut src = r.source;
                src.id = n.to_string();
                support::finish_source(&mut src, "web");
                sources.push(numbered(src, n));
            }
        }
    }
    for (k, v) in f.rest() {
        meta.insert(k, v);
    }

    let mut draft = Draft::new(Format::Perplexity, text);
    draft.grammar = Some(super::support::every_marker(TextSyntax::Markdown));
    draft.sources = sources;
    draft.diagnostics = diags;
    draft.metadata = meta;
    support::cap_sources(&mut draft);
    Ok(draft)
}

/// A search result, read.
struct Result_ {
    /// Its normalized url, for matching.
    key: Option<String>,
    source: Source,
}

/// A source numbered `n` with nothing else yet.
fn new_source(n: u64) -> Source {
    Source {
        id: n.to_string(),
        provider: Some(PROVIDER.to_string()),
        ..Source::default()
    }
}

/// A draft source with key `Num(n)`.
fn numbered(src: Source, n: u64) -> DraftSource {
    DraftSource {
        source: src,
        keys: vec![SourceKey::Num(n)],
        given_number: u32::try_from(n).ok(),
    }
}

/// Fills `dst` from a matched search result.
fn merge(dst: &mut Source, r: &Source) {
    if dst.title.is_none() {
        dst.title.clone_from(&r.title);
    }
    if dst.url.is_none() {
        dst.url.clone_from(&r.url);
    }
    dst.snippet.clone_from(&r.snippet);
    dst.content.clone_from(&r.content);
    dst.published.clone_from(&r.published);
    dst.modified.clone_from(&r.modified);
    if dst.kind.is_empty() {
        dst.kind.clone_from(&r.kind);
    }
    for (k, v) in &r.metadata {
        dst.metadata.entry(k.clone()).or_insert_with(|| v.clone());
    }
}

/// One `search_results` entry.
fn read_result(r: &Value, path: &str, diags: &mut Vec<Diagnostic>) -> Option<Result_> {
    let Value::Object(o) = r else {
        diags.push(wrong_type(path, "a search result", r));
        return None;
    };
    let mut f = Fields::new(o, path);
    let mut src = Source {
        provider: Some(PROVIDER.to_string()),
        ..Source::default()
    };
    if let Some(u) = f.string("url", diags) {
        support::apply_url(&mut src, &u, &f.path_of("url"), diags);
    }
    if let Some(t) = f.string("title", diags) {
        src.title = support::title(&t);
    }
    if let Some(s) = f.string("snippet", diags) {
        support::set_text(&mut src, &s);
    }
    if let Some(d) = f.string("date", diags) {
        src.published = support::title(&d);
    }
    if let Some(d) = f.string("last_updated", diags) {
        src.modified = support::title(&d);
    }
    if let Some(k) = f.string("source", diags) {
        src.kind = support::title(&k).unwrap_or_default();
    }
    for (k, v) in f.rest() {
        src.metadata.entry(k).or_insert(v);
    }
    Some(Result_ {
        key: src.url.as_deref().map(normalize_url),
        source: src,
    })
}

/// The text of the first choice, taken out of it (so the metadata copy of `choices`
/// does not hold the answer twice).
fn take_content(choice: &mut Map<String, Value>, diags: &mut Vec<Diagnostic>) -> Option<String> {
    let key = if choice.get("message").is_some_and(Value::is_object) {
        "message"
    } else {
        "delta"
    };
    let Some(Value::Object(msg)) = choice.get_mut(key) else {
        return None;
    };
    let path = format!("choices[0].{key}.content");
    // `shift_remove` keeps the order of the keys left (metadata shows them).
    match msg.shift_remove("content") {
        Some(Value::String(s)) => Some(s),
        Some(Value::Array(parts)) => Some(
            parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect(),
        ),
        None | Some(Value::Null) => None,
        Some(other) => {
            diags.push(wrong_type(&path, "a string", &other));
            msg.insert("content".into(), other);
            None
        }
    }
}

/// `<think>...</think>` at the start of the text: (its inside, the text after it).
pub(crate) fn split_think(text: &str) -> Option<(&str, &str)> {
    let t = text.trim_start();
    let inner = t.strip_prefix("<think>")?;
    let close = crate::core::str_ops::find_str(inner, "</think>")?;
    Some((
        inner[..close].trim(),
        inner[close + "</think>".len()..].trim_start(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn citations_match_search_results_by_url_then_position() {
        let v = json!({"choices": [{"message": {"role": "assistant", "content": "A [1] B [2] C [3]"}}],
            "citations": ["https://x.example/a", "https://y.example/", 7, "https://z.example"],
            "search_results": [{"title": "Y", "url": "https://Y.example"}, {"title": "no url"},
                               {"title": "X", "url": "https://x.example/a", "date": "2024-01-02"}, {"title": "W", "url": "https://w.example"}]});
        let d = parse(None, Some(&v), &Options::default()).unwrap();
        let titles: Vec<(&str, Option<&str>)> = d
            .sources
            .iter()
            .map(|s| (s.source.id.as_str(), s.source.title.as_deref()))
            .collect();
        assert_eq!(
            titles,
            vec![
                ("1", Some("X")),
                ("2", Some("Y")),
                ("4", None),
                ("search-2", Some("no url")),
                ("search-4", Some("W"))
            ]
        );
        assert_eq!(d.diagnostics.len(), 1);
        assert!(d.metadata["choices"][0]["message"].get("content").is_none());
    }

    #[test]
    fn think_blocks() {
        assert_eq!(
            split_think("<think>\nplan\n</think>\n\nAnswer [1]."),
            Some(("plan", "Answer [1]."))
        );
        assert_eq!(split_think("No think"), None);
        assert_eq!(split_think("<think>unclosed"), None);
    }
}
