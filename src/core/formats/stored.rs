//! The `stored` format (`StoredCitationData`, docs/formats.md): a plain answer without
//! markers and `{sources: [...], references: [...]}`.
//!
//! - A source is `{id, type, toolName, toolRequestId, uri, title, domain, snippet,
//!   fullContent, pageNumber}`: `type` is the kind, `toolName` the provider, `uri` a
//!   url (or a file path, kept as `metadata.uri`), `fullContent` the content,
//!   `pageNumber` the page; unknown fields (`toolRequestId`, ...) go to metadata. A
//!   source without an id is kept under a generated id (`source-3`) and reported.
//! - A reference `{index, startIndex, endIndex, citedText?, sourceIds}` is an explicit
//!   span in UTF-16 code units (JavaScript string indices) unless
//!   `options.input_encoding` says otherwise. Its `sourceIds` are looked up among the
//!   sources (`unknown-source` for the others); its `index` is the display number of
//!   its first source when that source has none yet.
//! - Fallback: when there are no references at all, the answer is scanned for numeric
//!   markers and `[n]` names the n-th source (1-based), which is then also its given
//!   number. With references, markers in the text are still read (a model may add
//!   them anyway); they name sources by id or by given number.
//! - When no answer is given, the data's `answer`/`text`/`content`/`response` string is
//!   the text. Other fields of the data object are kept in the draft's metadata. An
//!   array as the data is the source list alone.

use crate::core::draft::{Draft, DraftSource, DraftSpan, SourceRef};
use crate::core::error::ParseError;
use crate::core::json_fields::{type_name, wrong_type, Fields};
use crate::core::markers::{SourceKey, TextSyntax};
use crate::core::model::{Diagnostic, Format, Source};
use crate::core::offsets::{OffsetIndex, PositionEncoding};
use crate::core::options::Options;
use crate::core::ordered_hash::OrderedHashMap;
use crate::core::untrusted_text::excerpt200;
use serde_json::{Map, Value};

use super::support::{byte_span, cap_sources, cap_spans, id_text, push_span, SourceReader};

/// Parses `stored` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    options: &Options,
) -> Result<Draft, ParseError> {
    let mut draft = Draft::new(Format::Stored, answer.unwrap_or(""));
    let (sources, references): (Option<&Value>, Option<&Value>) = match data {
        None | Some(Value::Null) => (None, None),
        Some(v @ Value::Array(_)) => (Some(v), None),
        Some(Value::Object(o)) => {
            if !o.contains_key("sources") && !o.contains_key("references") {
                return Err(ParseError::not_format(
                    Format::Stored,
                    "$",
                    "expected an object with `sources` and `references`",
                ));
            }
            super::support::take_text_and_metadata(
                o,
                answer.is_some(),
                &["answer", "text", "content", "response"],
                &["sources", "references"],
                &mut draft,
            );
            (o.get("sources"), o.get("references"))
        }
        Some(other) => {
            return Err(ParseError::not_format(
                Format::Stored,
                "$",
                format!(
                    "expected an object with `sources` and `references`, found {}",
                    type_name(other)
                ),
            ))
        }
    };
    read_source_list(&mut draft, sources, false);
    cap_sources(&mut draft);
    let refs: Vec<&Value> = match references {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a.iter().collect(),
        Some(other) => {
            draft
                .diagnostics
                .push(wrong_type("references", "an array", other));
            Vec::new()
        }
    };
    // With references the answer should have no markers, but models add them anyway;
    // read, they cannot show as raw text.
    draft.grammar = Some(super::support::every_marker(TextSyntax::Markdown));
    if refs.is_empty() {
        // No spans: fall back to `[n]` markers naming sources by position.
        for (i, s) in draft.sources.iter_mut().enumerate() {
            let n = i as u64 + 1;
            s.keys.push(SourceKey::Num(n));
            s.given_number = s.given_number.or(u32::try_from(n).ok());
        }
        return Ok(draft);
    }
    let encoding = options.input_encoding.unwrap_or(PositionEncoding::Utf16);
    let text = std::mem::take(&mut draft.text);
    {
        let ix = OffsetIndex::new(&text, encoding);
        let ids: OrderedHashMap<&str, usize> = {
            let mut m = OrderedHashMap::new();
            for (i, s) in draft.sources.iter().enumerate() {
                m.or_insert(s.source.id.as_str(), i);
            }
            m
        };
        let mut numbers: Vec<(usize, u32)> = Vec::new();
        let mut spans = Vec::new();
        let mut diags = Vec::new();
        for (i, r) in refs.iter().enumerate() {
            let path = format!("references[{i}]");
            let Value::Object(o) = r else {
                diags.push(wrong_type(&path, "an object", r));
                continue;
            };
            if let Some((span, number)) = read_reference(o, &path, &ix, encoding, &ids, &mut diags)
            {
                if let (Some(n), Some(SourceRef::Index(first))) = (number, span.sources.first()) {
                    numbers.push((*first, n));
                }
                spans.push(span);
            }
        }
        for (i, n) in numbers {
            if let Some(s) = draft.sources.get_mut(i) {
                s.given_number = s.given_number.or(Some(n));
            }
        }
        for span in spans {
            push_span(&mut draft, span);
        }
        draft.diagnostics.append(&mut diags);
    }
    draft.text = text;
    cap_spans(&mut draft);
    Ok(draft)
}

/// Reads a list of sources in the stored shape into the draft: `stored` and `posthoc`
/// data share it. A source without an id is kept as `source-<n>` (its place in the
/// list, from 1). `numbered`: the data names its sources by their place (posthoc's
/// `sourceIndex`), so each keeps that number and a missing id is no loss; otherwise
/// (stored's references name sources by id) a missing id is warned about.
pub(crate) fn read_source_list(draft: &mut Draft, sources: Option<&Value>, numbered: bool) {
    let list: Vec<&Value> = match sources {
        None | Some(Value::Null) => return,
        Some(Value::Array(a)) => a.iter().collect(),
        Some(other) => {
            draft
                .diagnostics
                .push(wrong_type("sources", "an array", other));
            return;
        }
    };
    for (i, v) in list.into_iter().enumerate() {
        let path = format!("sources[{i}]");
        let n = i + 1;
        let Value::Object(o) = v else {
            draft.diagnostics.push(wrong_type(&path, "an object", v));
            continue;
        };
        let (mut src, id) = read_source(o, &path, &mut draft.diagnostics);
        src.id = id.unwrap_or_else(|| {
            let id = format!("source-{n}");
            if !numbered {
                draft.diagnostics.push(
                    Diagnostic::warning(
                        "missing-field",
                        format!("`{path}.id` is missing; the source is kept as `{id}`"),
                    )
                    .at_path(format!("{path}.id")),
                );
            }
            id
        });
        draft.sources.push(DraftSource {
            source: src,
            keys: Vec::new(),
            given_number: if numbered {
                u32::try_from(n).ok()
            } else {
                None
            },
        });
    }
}

/// Reads one source object in the stored (`CitationSource`) shape, also accepting
/// the common aliases (`url`, `content`, ...). Returns the source (its id not set) and
/// the id it gave, if any.
pub(crate) fn read_source(
    o: &Map<String, Value>,
    path: &str,
    diags: &mut Vec<Diagnostic>,
) -> (Source, Option<String>) {
    let mut r = SourceReader::new(o, path);
    let id = match r.fields.value("id") {
        Some(v) => match id_text(v) {
            Some(id) => Some(id),
            None => {
                diags.push(wrong_type(&r.path_of("id"), "a string", v));
                None
            }
        },
        None => None,
    };
    r.common(diags);
    (r.finish("document"), id)
}

/// Reads one reference into a span and its display index.
fn read_reference(
    o: &Map<String, Value>,
    path: &str,
    ix: &OffsetIndex<'_>,
    encoding: PositionEncoding,
    ids: &OrderedHashMap<&str, usize>,
    diags: &mut Vec<Diagnostic>,
) -> Option<(DraftSpan, Option<u32>)> {
    let mut f = Fields::new(o, path);
    let index = f.uint("index", diags).and_then(|n| u32::try_from(n).ok());
    let start = offset(
        &mut f,
        o,
        &["startIndex", "start_index", "start"],
        path,
        diags,
    );
    let end = offset(&mut f, o, &["endIndex", "end_index", "end"], path, diags);
    let (start, end) = (start?, end?);
    let mut refs = Vec::new();
    match f.array("sourceIds").or_else(|| f.array("sourceId")) {
        Some(list) => {
            for (j, v) in list.into_iter().enumerate() {
                let p = format!("{path}.sourceIds[{j}]");
                let Some(id) = id_text(v) else {
                    diags.push(wrong_type(&p, "a string", v));
                    continue;
                };
                match ids.get(id.as_str()) {
                    Some(&k) => {
                        let r = SourceRef::Index(k);
                        if !refs.contains(&r) {
                            refs.push(r);
                        }
                    }
                    None => diags.push(
                        Diagnostic::warning(
                            "unknown-source",
                            format!("`{p}` names the source `{id}`, which is not in `sources`"),
                        )
                        .at_path(p),
                    ),
                }
            }
        }
        None => {
            diags.push(
                Diagnostic::warning(
                    "missing-field",
                    format!("`{path}.sourceIds` is missing; the reference is skipped"),
                )
                .at_path(format!("{path}.sourceIds")),
            );
            return None;
        }
    }
    if refs.is_empty() {
        return None;
    }
    let (s, e) = byte_span(ix, encoding, start, end, path, diags)?;
    let mut span = DraftSpan::new(s, e, refs);
    span.cited_text = f
        .string_any(&["citedText", "cited_text"], diags)
        .map(|t| excerpt200(&t))
        .filter(|t| !t.is_empty());
    span.confidence = f.value("confidence").cloned();
    Some((span, index))
}

/// A required offset field (first of `keys`); missing → `missing-field`.
fn offset(
    f: &mut Fields<'_>,
    o: &Map<String, Value>,
    keys: &[&str],
    path: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<u64> {
    let present = keys.iter().any(|k| o.get(*k).is_some_and(|v| !v.is_null()));
    let v = f.uint_any(keys, diags);
    if !present {
        diags.push(
            Diagnostic::warning(
                "missing-field",
                format!("`{path}.{}` is missing; the reference is skipped", keys[0]),
            )
            .at_path(format!("{path}.{}", keys[0])),
        );
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn draft(answer: &str, data: Value) -> Draft {
        parse(Some(answer), Some(&data), &Options::default()).unwrap()
    }

    #[test]
    fn seed_example() {
        let answer = "React 19 brings significant performance improvements and a new Actions API.";
        let d = draft(
            answer,
            json!({
                "sources": [
                    {"id": "req-1-0", "type": "web", "toolName": "web_search", "toolRequestId": "req-1",
                     "uri": "https://react.dev/blog/2024/12/05/react-19", "title": "React 19", "domain": "react.dev",
                     "snippet": "React 19 introduces the new Actions API..."},
                    {"id": "req-2-0", "type": "web", "toolName": "web_search", "uri": "https://bench.dev/r19"}
                ],
                "references": [
                    {"id": "ref-0", "index": 1, "startIndex": 59, "endIndex": 74, "sourceIds": ["req-1-0"]},
                    {"id": "ref-1", "index": 2, "startIndex": 16, "endIndex": 52, "sourceIds": ["req-2-0", "nope"]}
                ]
            }),
        );
        assert_eq!(
            d.grammar,
            Some(crate::core::formats::support::every_marker(
                TextSyntax::Markdown
            ))
        );
        assert_eq!(d.sources[0].source.provider.as_deref(), Some("web_search"));
        assert_eq!(
            d.sources[0].source.metadata["toolRequestId"],
            json!("req-1")
        );
        assert_eq!(d.sources[1].given_number, Some(2));
        assert_eq!(&answer[d.spans[0].start..d.spans[0].end], "new Actions API");
        assert_eq!(
            &answer[d.spans[1].start..d.spans[1].end],
            "significant performance improvements"
        );
        assert_eq!(d.diagnostics.len(), 1);
        assert_eq!(d.diagnostics[0].code, "unknown-source");
    }

    #[test]
    fn utf16_offsets_after_emoji() {
        let answer = "😀 中文 claim here.";
        let d = draft(
            answer,
            json!({"sources": [{"id": "a"}], "references": [{"startIndex": 6, "endIndex": 16, "sourceIds": ["a"]}]}),
        );
        assert_eq!(&answer[d.spans[0].start..d.spans[0].end], "claim here");
    }

    #[test]
    fn no_references_falls_back_to_markers() {
        let d = draft("A [1].", json!({"sources": [{"id": "x"}, {"id": "y"}]}));
        assert_eq!(
            d.grammar,
            Some(crate::core::formats::support::every_marker(
                TextSyntax::Markdown
            ))
        );
        assert_eq!(d.sources[1].keys, vec![SourceKey::Num(2)]);
    }
}
