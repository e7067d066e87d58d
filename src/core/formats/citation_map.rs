//! The `citation_map` format (docs/formats.md): an answer with `[1]`, `[1][2]` markers and a
//! map from marker number to source,
//! `{"1": {"text", "source", "title", "score", "metadata"}}`.
//!
//! - Keys are numbers written as JSON strings; surrounding spaces are accepted
//!   (`" 1"`). A key that is not a number is reported (`wrong-type`) and skipped.
//!   The source's id is the number as decimal text; markers name it by `Num(n)`, and
//!   `n` is its given number.
//! - `source` is a url (→ `url`, kind `web`) or a path (→ `metadata.source`, kind
//!   `file`, its file name as the title fallback); an unsafe url is dropped.
//! - `text` gives the snippet (200 characters) and the full `content`; `metadata` is
//!   flattened into the source's metadata, its `page` becomes `page`. Unknown fields
//!   go to metadata too.
//! - The whole `ChatResponse` (`{answer, citation_map, sources, ...}`) is accepted:
//!   its `answer` is the text when no answer is given, its `citation_map` the map, and
//!   its `sources` that the map does not already hold are listed as uncited sources;
//!   its other fields (`query`, `session_id`, ...) are kept in the draft's metadata.
//! - An array instead of a map is numbered by position (1-based).

use crate::core::draft::{Draft, DraftSource};
use crate::core::error::ParseError;
use crate::core::json_fields::{type_name, wrong_type};
use crate::core::markers::TextSyntax;
use crate::core::model::{Diagnostic, Format, Source};
use crate::core::options::Options;
use crate::core::untrusted_text::normalize_url;
use serde_json::{Map, Value};

use super::support::{cap_sources, numbered, title, unsafe_url, Link, SourceReader};

/// Parses `citation_map` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    _options: &Options,
) -> Result<Draft, ParseError> {
    let mut draft = Draft::new(Format::CitationMap, answer.unwrap_or(""));
    draft.grammar = Some(super::support::every_marker(TextSyntax::Markdown));
    let Some(data) = data else {
        return Ok(draft);
    };
    match data {
        Value::Null => {}
        Value::Object(o) if is_chat_response(o) => {
            if answer.is_none() {
                match o.get("answer") {
                    Some(Value::String(s)) => draft.text = s.clone(),
                    None | Some(Value::Null) => {}
                    Some(other) => draft
                        .diagnostics
                        .push(wrong_type("answer", "a string", other)),
                }
            }
            let map = o.get("citation_map").or_else(|| o.get("citationMap"));
            let path = if o.contains_key("citation_map") {
                "citation_map"
            } else {
                "citationMap"
            };
            match map {
                None | Some(Value::Null) => {}
                Some(m @ (Value::Object(_) | Value::Array(_))) => {
                    draft.sources = read_map(m, path, &mut draft.diagnostics);
                }
                Some(other) => draft.diagnostics.push(wrong_type(path, "an object", other)),
            }
            if let Some(Value::Array(extra)) = o.get("sources") {
                add_listed(&mut draft, extra);
            }
            for (k, v) in o {
                if !matches!(
                    k.as_str(),
                    "answer" | "citation_map" | "citationMap" | "sources"
                ) {
                    draft.metadata.insert(k.clone(), v.clone());
                }
            }
        }
        Value::Object(o) => {
            if !o.is_empty()
                && !o
                    .keys()
                    .any(|k| crate::core::str_ops::uint(k.trim()).is_some())
            {
                return Err(ParseError::not_format(
                    Format::CitationMap,
                    "$",
                    "expected an object keyed by citation numbers (`{\"1\": {...}}`) or a response with `citation_map`",
                ));
            }
            draft.sources = read_map(data, "", &mut draft.diagnostics);
        }
        Value::Array(_) => draft.sources = read_map(data, "", &mut draft.diagnostics),
        other => {
            return Err(ParseError::not_format(
                Format::CitationMap,
                "$",
                format!(
                    "expected an object keyed by citation numbers, found {}",
                    type_name(other)
                ),
            ))
        }
    }
    cap_sources(&mut draft);
    Ok(draft)
}

/// Whether an object is a whole chat response holding a citation map.
fn is_chat_response(o: &Map<String, Value>) -> bool {
    (o.contains_key("citation_map") || o.contains_key("citationMap"))
        && !o
            .keys()
            .all(|k| crate::core::str_ops::uint(k.trim()).is_some())
}

/// Reads a citation map: an object keyed by number (sorted by number) or an array
/// numbered by position. `path` is where the map sits in the data (`""` at the root).
pub(crate) fn read_map(map: &Value, path: &str, diags: &mut Vec<Diagnostic>) -> Vec<DraftSource> {
    let join = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    let mut out: Vec<(u64, DraftSource)> = Vec::new();
    match map {
        Value::Object(o) => {
            for (k, v) in o {
                let p = join(k);
                let Some(n) = crate::core::str_ops::uint(k.trim()) else {
                    diags.push(
                        Diagnostic::warning(
                            "wrong-type",
                            format!("`{p}`: a citation map key should be a number; skipped"),
                        )
                        .at_path(p),
                    );
                    continue;
                };
                if let Some(src) = read_entry(n, v, &p, diags) {
                    out.push((n, numbered(src, Some(n))));
                }
            }
            crate::core::sort::sort_by_key(&mut out, |(n, _)| (*n, 0));
        }
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                let n = i as u64 + 1;
                let p = format!("{path}[{i}]");
                if let Some(src) = read_entry(n, v, &p, diags) {
                    out.push((n, numbered(src, Some(n))));
                }
            }
        }
        other => diags.push(wrong_type(path, "an object", other)),
    }
    out.into_iter().map(|(_, s)| s).collect()
}

/// Reads one entry of a citation map (number `n`, at `path`) into a source with id
/// `n`. An object is read field by field; a string is a url or a path; anything else
/// is reported and skipped.
pub(crate) fn read_entry(
    n: u64,
    v: &Value,
    path: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Source> {
    let mut src = match v {
        Value::Object(o) => read_object(o, path, diags),
        Value::String(s) => {
            let mut src = Source::default();
            match super::support::classify_link(s) {
                Link::Url(u) => src.url = Some(u),
                Link::Path(p) => {
                    src.metadata.insert("source".into(), Value::String(p));
                }
                Link::Unsafe(scheme) => diags.push(unsafe_url(path, &scheme)),
                Link::Empty => {}
            }
            super::support::finish_source(&mut src, "document");
            src
        }
        other => {
            diags.push(wrong_type(path, "an object", other));
            return None;
        }
    };
    src.id = n.to_string();
    Some(src)
}

/// Reads a citation map entry object.
fn read_object(o: &Map<String, Value>, path: &str, diags: &mut Vec<Diagnostic>) -> Source {
    let mut r = SourceReader::new(o, path);
    match r.fields.value("source") {
        Some(Value::String(s)) => r.link("source", s, diags),
        Some(other) => diags.push(wrong_type(&r.path_of("source"), "a string", other)),
        None => {}
    }
    r.common(diags);
    r.finish("document")
}

/// Adds the sources of a whole chat response that the citation map does not hold as
/// uncited sources (ids `source-1`, ... by position).
fn add_listed(draft: &mut Draft, listed: &[Value]) {
    for (i, v) in listed.iter().enumerate() {
        let path = format!("sources[{i}]");
        let Value::Object(o) = v else {
            draft.diagnostics.push(wrong_type(&path, "an object", v));
            continue;
        };
        let mut diags = Vec::new();
        let mut src = read_object(o, &path, &mut diags);
        if draft.sources.iter().any(|d| same_document(&d.source, &src)) {
            continue;
        }
        draft.diagnostics.append(&mut diags);
        src.id = format!("source-{}", i + 1);
        draft.sources.push(DraftSource {
            source: src,
            keys: Vec::new(),
            given_number: None,
        });
    }
}

/// Whether two sources describe the same retrieved chunk: the same url or the same
/// path and title, and texts of which one starts with the other (the map truncates).
fn same_document(a: &Source, b: &Source) -> bool {
    let same_place = match (&a.url, &b.url) {
        (Some(x), Some(y)) => normalize_url(x) == normalize_url(y),
        (None, None) => {
            let path = |s: &Source| s.metadata.get("source").and_then(Value::as_str).map(title);
            path(a) == path(b) && a.title == b.title
        }
        _ => false,
    };
    if !same_place {
        return false;
    }
    let (x, y) = (start_of(a), start_of(b));
    x.starts_with(&y) || y.starts_with(&x)
}

/// A source's text without a trailing ellipsis, for comparing truncated copies.
fn start_of(s: &Source) -> String {
    s.content
        .as_deref()
        .or(s.snippet.as_deref())
        .unwrap_or("")
        .trim_end()
        .trim_end_matches(['.', '…'])
        .chars()
        .take(500)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::markers::SourceKey;
    use serde_json::json;

    fn draft(answer: Option<&str>, data: Value) -> Draft {
        parse(answer, Some(&data), &Options::default()).unwrap()
    }

    #[test]
    fn seed_example() {
        let d = draft(
            Some("AEGIS RAG is an agentic system [1] using LangGraph [2]."),
            json!({
                "1": {"text": "AEGIS RAG is an agentic enterprise RAG system...", "source": "docs/CLAUDE.md",
                      "title": "CLAUDE.md", "score": 0.95, "metadata": {"page": 1}},
                "2": {"text": "The system uses LangGraph for orchestration...", "source": "docs/architecture.md",
                      "title": "Architecture Overview", "score": 0.88, "metadata": {"section": "orchestration"}}
            }),
        );
        assert_eq!(d.sources.len(), 2);
        let a = &d.sources[0];
        assert_eq!(a.source.id, "1");
        assert_eq!(a.keys, vec![SourceKey::Num(1)]);
        assert_eq!(a.given_number, Some(1));
        assert_eq!(a.source.kind, "file");
        assert_eq!(a.source.page, Some(1));
        assert_eq!(a.source.score, Some(0.95));
        assert_eq!(a.source.metadata["source"], json!("docs/CLAUDE.md"));
        let b = &d.sources[1];
        assert_eq!(b.source.metadata["section"], json!("orchestration"));
        assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
    }

    #[test]
    fn keys_sorted_trimmed_and_bad_keys_reported() {
        let d = draft(
            None,
            json!({"10": {"title": "ten"}, " 2": "https://example.com/x", "x": {}, "3": null}),
        );
        let ids: Vec<&str> = d.sources.iter().map(|s| s.source.id.as_str()).collect();
        assert_eq!(ids, ["2", "10"]);
        assert_eq!(d.sources[0].source.domain.as_deref(), Some("example.com"));
        assert_eq!(d.diagnostics.len(), 2);
    }

    #[test]
    fn chat_response_and_listed_sources() {
        let d = draft(
            None,
            json!({
                "answer": "Graph reasoning [1].",
                "citation_map": {"1": {"text": "Graph reasoning combines...", "source": "docs/a.md", "title": "A"}},
                "sources": [
                    {"text": "Graph reasoning combines...", "source": "docs/a.md", "title": "A"},
                    {"text": "Other chunk", "source": "docs/b.md", "title": "B"}
                ]
            }),
        );
        assert_eq!(d.text, "Graph reasoning [1].");
        assert_eq!(d.sources.len(), 2);
        assert_eq!(d.sources[1].source.id, "source-2");
        assert!(d.sources[1].keys.is_empty());
    }

    #[test]
    fn not_format() {
        let e = parse(None, Some(&json!(42)), &Options::default()).unwrap_err();
        assert_eq!(e.code(), "not-format");
        let e = parse(None, Some(&json!({"foo": 1})), &Options::default()).unwrap_err();
        assert_eq!(e.code(), "not-format");
    }
}
