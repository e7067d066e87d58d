//! The `xai` format: xAI (Grok) answers with inline citations. Two shapes, as the
//! `openai` client gives them with xAI's `baseURL`:
//!
//! - the Responses API: `{object: "response", model: "grok-…", output: [{type:
//!   "message", content: [{type: "output_text", text, annotations: [{type:
//!   "url_citation", url, title?, start_index?, end_index?}]}]}, ...], citations?:
//!   ["https://…"]}`;
//! - Chat Completions (Live Search): `{object: "chat.completion", model: "grok-…",
//!   choices: [{message: {content}}], citations: ["https://…"]}`.
//!
//! The text is `answer` when given, else the `output_text` parts joined (a blank line
//! between message items), or `choices[0].message.content`. Inline citations
//! `[[1]](https://x.ai/news)` (markers.md, `Grammar::linked`) are the markers: each
//! number is a source (id and key `n`, given number n) whose url is the link's; the
//! annotation with the same url gives its title (unless that is only the number, as
//! xAI writes some). xAI's annotations' `start_index` /
//! `end_index` cover the inline citation itself, so the markers are read rather than
//! the offsets (whose unit xAI does not document). The response's `citations` (every
//! url the search saw) and annotations whose url no marker cites are uncited sources
//! (`citation-<i>`, `annotation-<i>`). The other marker forms are read too. The rest
//! of the response (`id`, `model`, `usage`, output items that are not messages as
//! `other_output`) is kept in the answer's metadata.

use crate::core::draft::{Draft, DraftSource};
use crate::core::error::ParseError;
use crate::core::formats::support;
use crate::core::json_fields::{type_name, wrong_type};
use crate::core::markers::{scan, Grammar, MarkerKind, SourceKey, TextSyntax};
use crate::core::model::{Diagnostic, Format, Source};
use crate::core::options::Options;
use crate::core::untrusted_text::normalize_url;
use serde_json::{Map, Value};

/// Parses `xai` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    _options: &Options,
) -> Result<Draft, ParseError> {
    let not_format = |msg: String| Err(ParseError::not_format(Format::Xai, "$", msg));
    let o = match data {
        Some(Value::Object(o)) => o,
        Some(other) => {
            return not_format(format!(
                "expected a response or chat completion object, found {}",
                type_name(other)
            ))
        }
        None => return not_format("expected a response, found no data".into()),
    };
    if !o.contains_key("output") && !o.contains_key("choices") {
        return not_format("expected a response with `output` or `choices`".into());
    }
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut meta = Map::new();
    let mut text = String::new();
    // (url, title) of every annotation, in order.
    let mut annotations: Vec<(String, Option<String>)> = Vec::new();
    let mut other_output = Vec::new();
    match o.get("output") {
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if item.get("type").and_then(Value::as_str) != Some("message") {
                    other_output.push(item.clone());
                    continue;
                }
                let mut item_text = String::new();
                for (j, part) in item
                    .get("content")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    if let Some(t) = part.get("text").and_then(Value::as_str) {
                        item_text.push_str(t);
                    }
                    for (k, a) in part
                        .get("annotations")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .enumerate()
                    {
                        match a.get("url").and_then(Value::as_str) {
                            Some(u) => annotations.push((
                                u.to_string(),
                                a.get("title").and_then(Value::as_str).map(str::to_string),
                            )),
                            None => diags.push(support::missing(&format!(
                                "output[{i}].content[{j}].annotations[{k}].url"
                            ))),
                        }
                    }
                }
                if !item_text.is_empty() {
                    if !text.is_empty() {
                        text.push_str("\n\n");
                    }
                    text.push_str(&item_text);
                }
            }
        }
        Some(other) => diags.push(wrong_type("output", "an array", other)),
        None => {}
    }
    if let Some(choices) = o.get("choices") {
        let content = choices
            .get(0)
            .and_then(|c| c.get("message").or_else(|| c.get("delta")))
            .and_then(|m| m.get("content"));
        match content {
            Some(Value::String(s)) => text.push_str(s),
            None | Some(Value::Null) => {}
            Some(other) => diags.push(wrong_type("choices[0].message.content", "a string", other)),
        }
    }
    for (k, v) in o {
        if !matches!(k.as_str(), "output" | "citations") {
            meta.insert(k.clone(), v.clone());
        }
    }
    if !other_output.is_empty() {
        meta.insert("other_output".into(), Value::Array(other_output));
    }
    let text = answer.map(str::to_string).unwrap_or(text);
    let grammar = Grammar {
        linked: true,
        ..support::every_marker(TextSyntax::Markdown)
    };
    let title_of = |url: &str| -> Option<String> {
        let key = normalize_url(url);
        annotations
            .iter()
            .find(|(u, t)| t.is_some() && normalize_url(u) == key)
            .and_then(|(_, t)| t.as_deref())
            // xAI titles some annotations with the citation's number alone.
            .filter(|t| !t.bytes().all(|b| b.is_ascii_digit()))
            .and_then(support::title)
    };
    let mut sources: Vec<DraftSource> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    // The inline citations, in text order: number → url.
    for m in scan(&text, &grammar).markers {
        let (MarkerKind::Numeric, [SourceKey::Num(n)]) = (&m.kind, m.keys.as_slice()) else {
            continue;
        };
        let syntax = &text[m.syntax.clone()];
        let Some(url) = link_destination(syntax) else {
            continue;
        };
        if sources.iter().any(|s| s.keys.contains(&SourceKey::Num(*n))) {
            continue;
        }
        let mut src = Source {
            id: n.to_string(),
            provider: Some("xai".into()),
            ..Source::default()
        };
        support::apply_url(
            &mut src,
            url,
            &format!("inline citation [[{n}]]"),
            &mut diags,
        );
        src.title = title_of(url);
        support::finish_source(&mut src, "web");
        seen.push(normalize_url(url));
        sources.push(support::numbered(src, Some(*n)));
    }
    // Every url the search saw, and annotations no marker cites: uncited sources.
    let mut listed: Vec<(String, String)> = Vec::new();
    match o.get("citations") {
        Some(Value::Array(urls)) => {
            for (i, u) in urls.iter().enumerate() {
                match u {
                    Value::String(u) => listed.push((format!("citation-{}", i + 1), u.clone())),
                    other => diags.push(wrong_type(&format!("citations[{i}]"), "a url", other)),
                }
            }
        }
        Some(Value::Null) | None => {}
        Some(other) => diags.push(wrong_type("citations", "an array", other)),
    }
    for (i, (u, _)) in annotations.iter().enumerate() {
        listed.push((format!("annotation-{}", i + 1), u.clone()));
    }
    for (id, u) in listed {
        let key = normalize_url(&u);
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let mut src = Source {
            id,
            provider: Some("xai".into()),
            ..Source::default()
        };
        support::apply_url(&mut src, &u, "citations", &mut diags);
        src.title = title_of(&u);
        support::finish_source(&mut src, "web");
        sources.push(DraftSource {
            source: src,
            keys: Vec::new(),
            given_number: None,
        });
    }
    let mut draft = Draft::new(Format::Xai, text);
    draft.grammar = Some(grammar);
    draft.sources = sources;
    draft.diagnostics = diags;
    draft.metadata = meta;
    support::cap_sources(&mut draft);
    Ok(draft)
}

/// The destination of an inline citation `[[1]](url)` or `[[1]](<url> "title")`.
fn link_destination(syntax: &str) -> Option<&str> {
    let open = crate::core::str_ops::find_str(syntax, "](")?;
    let inner = syntax[open + 2..].strip_suffix(')')?.trim();
    let inner = match inner.strip_prefix('<') {
        Some(rest) => rest.split('>').next()?,
        None => inner.split([' ', '\t', '\n']).next()?,
    };
    (!inner.is_empty()).then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destinations() {
        assert_eq!(
            link_destination("[[1]](https://x.ai/)"),
            Some("https://x.ai/")
        );
        assert_eq!(
            link_destination("[[2]](<https://x.ai/a b> \"T\")"),
            Some("https://x.ai/a b")
        );
        assert_eq!(link_destination("[[3]]"), None);
    }
}
