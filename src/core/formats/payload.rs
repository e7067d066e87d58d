//! The `payload` format (`CitationPayload`, docs/formats.md):
//! `{text, sources: [{title, url, citedText, provider, location}]}`.
//!
//! A payload is a citation block: a list of sources a chat client shows after a text, with
//! no markers in it. So:
//!
//! - The answer is `answer` when given (the payload's own `text`, a summary line, is
//!   then kept in the draft's metadata, as are unknown fields of the payload), else
//!   the payload's `text`.
//! - Every source is listed, numbered by position (1-based, its given number, as the
//!   citation block numbers them); its id is that number.
//! - A source whose `location` is a `url_citation` with `startIndex`/`endIndex` cites
//!   that span of the text (UTF-16 code units unless `options.input_encoding` says
//!   otherwise), with `citedText` as the cited text and the location kept on the
//!   citation. Other sources are listed uncited.
//! - `citedText` gives the snippet; `provider` the provider; a `page_location` gives
//!   the page. Any other location (`char_location`, `content_block_location`,
//!   `grounding`, or a `url_citation` without offsets) is kept as given in
//!   `metadata.location`, as are unknown fields.
//! - Should the text carry `[n]` markers after all (Gemini's search tool writes them),
//!   they name the n-th source.
//! - Also accepted: the citation event `{type: "citation", value: {text, sources}}` and
//!   a bare array of sources.

use crate::core::draft::{Draft, DraftSpan, SourceRef};
use crate::core::error::ParseError;
use crate::core::json_fields::{type_name, wrong_type, Fields};
use crate::core::markers::TextSyntax;
use crate::core::model::{Diagnostic, Format, Location};
use crate::core::offsets::{OffsetIndex, PositionEncoding};
use crate::core::options::Options;
use crate::core::untrusted_text::excerpt200;
use serde_json::{Map, Value};

use super::support::{byte_span, cap_sources, cap_spans, numbered, set_text, SourceReader};

/// Parses `payload` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    options: &Options,
) -> Result<Draft, ParseError> {
    let mut draft = Draft::new(Format::Payload, answer.unwrap_or(""));
    draft.grammar = Some(super::support::every_marker(TextSyntax::Markdown));
    let not_format = |found: &str| {
        ParseError::not_format(
            Format::Payload,
            "$",
            format!("expected `{{text, sources: [...]}}`, found {found}"),
        )
    };
    let (text, sources, prefix): (Option<&Value>, Option<&Value>, &str) = match data {
        None | Some(Value::Null) => (None, None, ""),
        Some(v @ Value::Array(_)) => (None, Some(v), ""),
        Some(Value::Object(o)) => {
            let (o, prefix) = match o.get("value") {
                Some(Value::Object(inner)) if !o.contains_key("sources") => (inner, "value."),
                _ => (o, ""),
            };
            if !o.contains_key("sources") && !o.contains_key("text") {
                return Err(not_format("an object without `text` or `sources`"));
            }
            for (k, v) in o {
                if !matches!(k.as_str(), "text" | "sources") {
                    draft.metadata.insert(k.clone(), v.clone());
                }
            }
            (o.get("text"), o.get("sources"), prefix)
        }
        Some(other) => return Err(not_format(type_name(other))),
    };
    match text {
        None => {}
        Some(Value::String(t)) => {
            if answer.is_none() {
                draft.text = t.clone();
            } else if !t.trim().is_empty() && t != &draft.text {
                draft
                    .metadata
                    .insert("text".into(), Value::String(t.clone()));
            }
        }
        Some(Value::Null) => {}
        Some(other) => {
            draft
                .diagnostics
                .push(wrong_type(&format!("{prefix}text"), "a string", other))
        }
    }
    let list: Vec<&Value> = match sources {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a.iter().collect(),
        Some(other) => {
            draft
                .diagnostics
                .push(wrong_type(&format!("{prefix}sources"), "an array", other));
            Vec::new()
        }
    };
    let encoding = options.input_encoding.unwrap_or(PositionEncoding::Utf16);
    let text = std::mem::take(&mut draft.text);
    {
        let ix = OffsetIndex::new(&text, encoding);
        for (i, v) in list.into_iter().enumerate() {
            let path = format!("{prefix}sources[{i}]");
            let Value::Object(o) = v else {
                draft.diagnostics.push(wrong_type(&path, "an object", v));
                continue;
            };
            let n = i as u64 + 1;
            let k = draft.sources.len();
            let (mut src, span) = read_source(o, &path, &ix, encoding, k, &mut draft.diagnostics);
            src.id = n.to_string();
            draft.sources.push(numbered(src, Some(n)));
            if let Some(span) = span {
                draft.spans.push(span);
            }
        }
    }
    draft.text = text;
    cap_sources(&mut draft);
    let kept = draft.sources.len();
    draft
        .spans
        .retain(|s| matches!(s.sources.first(), Some(SourceRef::Index(i)) if *i < kept));
    cap_spans(&mut draft);
    Ok(draft)
}

/// Reads one `CitationSource`, and its span when its location is a `url_citation`
/// with offsets. `k` is the index the source will have in the draft.
fn read_source(
    o: &Map<String, Value>,
    path: &str,
    ix: &OffsetIndex<'_>,
    encoding: PositionEncoding,
    k: usize,
    diags: &mut Vec<Diagnostic>,
) -> (crate::core::model::Source, Option<DraftSpan>) {
    let mut r = SourceReader::new(o, path);
    let cited = r.fields.string_any(&["citedText", "cited_text"], diags);
    let location = r.fields.value("location");
    r.common(diags);
    let mut span = None;
    let mut keep_location = location.is_some();
    match location {
        None => {}
        Some(Value::Object(loc)) => {
            let lpath = r.path_of("location");
            let mut f = Fields::new(loc, lpath.as_str());
            let kind = f.string("type", diags).unwrap_or_default();
            match kind.as_str() {
                "url_citation" => {
                    let start = f.uint_any(&["startIndex", "start_index"], diags);
                    let end = f.uint_any(&["endIndex", "end_index"], diags);
                    if let (Some(s), Some(e)) = (start, end) {
                        if let Some((bs, be)) = byte_span(ix, encoding, s, e, &lpath, diags) {
                            let mut sp = DraftSpan::new(bs, be, vec![SourceRef::Index(k)]);
                            sp.location = Some(Location::UrlCitation {
                                start: Some(s),
                                end: Some(e),
                            });
                            sp.cited_text =
                                cited.as_deref().map(excerpt200).filter(|t| !t.is_empty());
                            span = Some(sp);
                        }
                        keep_location = false;
                    }
                }
                "page_location" => {
                    if let Some(p) = f.uint_any(&["startPageNumber", "start_page_number"], diags) {
                        r.src.page = r.src.page.or(Some(p));
                    }
                }
                _ => {}
            }
        }
        Some(other) => diags.push(wrong_type(&r.path_of("location"), "an object", other)),
    }
    if let Some(loc) = location.filter(|_| keep_location) {
        r.keep("location", loc.clone());
    }
    let mut src = r.finish("document");
    if src.snippet.is_none() {
        if let Some(c) = &cited {
            set_text(&mut src, c);
        }
    }
    (src, span)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn url_citation_becomes_a_span_others_are_listed() {
        let text = "🌍 Paris is the capital of France.";
        let d = parse(
            None,
            Some(&json!({
                "text": text,
                "sources": [
                    {"title": "Paris", "url": "https://en.wikipedia.org/wiki/Paris", "provider": "openai-responses",
                     "citedText": "Paris is the capital...", "location": {"type": "url_citation", "startIndex": 3, "endIndex": 33}},
                    {"title": "Doc", "citedText": "x", "location": {"type": "page_location", "startPageNumber": 4, "endPageNumber": 5, "documentIndex": 0}},
                    {"title": "G", "url": "javascript:alert(1)", "location": {"type": "grounding", "groundingChunkIndex": 2}}
                ]
            })),
            &Options::default(),
        )
        .unwrap();
        assert_eq!(d.text, text);
        assert_eq!(d.spans.len(), 1);
        assert_eq!(
            &text[d.spans[0].start..d.spans[0].end],
            "Paris is the capital of France"
        );
        assert_eq!(
            d.sources[0].source.provider.as_deref(),
            Some("openai-responses")
        );
        assert_eq!(d.sources[1].source.page, Some(4));
        assert_eq!(d.sources[1].source.snippet.as_deref(), Some("x"));
        assert!(d.sources[1].source.metadata.contains_key("location"));
        assert_eq!(d.sources[2].source.url, None);
        assert_eq!(d.diagnostics.len(), 1);
        assert_eq!(d.diagnostics[0].code, "unsafe-url");
    }

    #[test]
    fn event_wrapper_and_not_format() {
        let d = parse(
            Some("Answer."),
            Some(&json!({"type": "citation", "value": {"text": "Sources:", "sources": [{"title": "A"}]}})),
            &Options::default(),
        )
        .unwrap();
        assert_eq!(d.text, "Answer.");
        assert_eq!(d.metadata["text"], json!("Sources:"));
        assert_eq!(d.sources.len(), 1);
        assert!(parse(None, Some(&json!("x")), &Options::default()).is_err());
        assert!(parse(None, Some(&json!({"a": 1})), &Options::default()).is_err());
    }
}
