//! The `gemini` format: a `generateContent` response `{candidates: [{content: {parts:
//! [{text}]}, groundingMetadata: {...}}], usageMetadata, modelVersion}`, or one
//! candidate. Field names may be camelCase (REST) or snake_case (the Python SDK's
//! `to_dict`).
//!
//! - The text is `answer` when given (the caller's text wins), else the first
//!   candidate's text parts concatenated (`thought` parts are left out). When the
//!   data's text is empty the offsets index `answer` (as part 0); when it differs from
//!   `answer`, each span is found in `answer` by its text (`support::use_caller_text`).
//! - Each `groundingChunks[i]` (`web`, `retrievedContext` or `maps`) is one source: id
//!   `chunk-<i>`, given number i + 1, kind `web` / `document` / `maps`. A grounding
//!   redirect uri (`https://vertexaisearch.cloud.google.com/grounding-api-redirect/...`)
//!   is kept as the url, but the domain comes from `web.domain`, or from the title when
//!   the title is a domain (Gemini titles web chunks with their domain).
//! - Each `groundingSupports[k]` is an explicit span: `segment.startIndex..endIndex`
//!   in UTF-8 bytes of part `segment.partIndex` (both default 0; `inputEncoding`
//!   overrides the unit), naming the sources at `groundingChunkIndices`, with the
//!   matching `confidenceScores` entry as confidence (the highest when several chunks
//!   are named) and a `grounding` location. When `segment.text` is not the text at the
//!   offsets, it is looked for in the part and the span moved to the occurrence nearest
//!   the offsets (`span-mismatch`, info), or the offsets are kept (`span-mismatch`,
//!   warning).
//! - The rest (`webSearchQueries`, `searchEntryPoint`, `usageMetadata`, other
//!   candidates, ...) is kept in the answer's metadata.

use super::support::missing;
use crate::core::draft::{Draft, DraftSource, DraftSpan, SourceRef};
use crate::core::error::ParseError;
use crate::core::formats::support::{self, classify_link, Link};
use crate::core::json_fields::{as_uint, type_name, wrong_type, Fields};
use crate::core::markers::TextSyntax;
use crate::core::model::{Diagnostic, Format, Location, Source};
use crate::core::offsets::{OffsetIndex, PositionEncoding};
use crate::core::options::Options;
use crate::core::ordered_hash::OrderedHashSet;
use crate::core::untrusted_text::domain_of;
use serde_json::{Map, Value};

/// The provider name set on every source.
const PROVIDER: &str = "gemini";

/// Parses `gemini` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    options: &Options,
) -> Result<Draft, ParseError> {
    let encoding = options.input_encoding.unwrap_or(PositionEncoding::Utf8);
    let not_format = |msg: String| Err(ParseError::not_format(Format::Gemini, "$", msg));
    let o = match data {
        Some(Value::Object(o)) => o,
        Some(other) => {
            return not_format(format!(
                "expected a generateContent response object, found {}",
                type_name(other)
            ))
        }
        None => return not_format("expected a generateContent response, found no data".into()),
    };
    let mut diags = Vec::new();
    let mut meta = Map::new();
    let (candidate, cpath): (Option<&Map<String, Value>>, String) = if o.contains_key("candidates")
    {
        let mut f = Fields::new(o, "");
        let cands = f.value("candidates");
        meta = f.rest();
        match cands {
            Some(Value::Array(a)) => {
                if a.len() > 1 {
                    meta.insert("candidates".into(), Value::Array(a[1..].to_vec()));
                }
                match a.first() {
                    Some(Value::Object(c)) => (Some(c), "candidates[0]".to_string()),
                    Some(other) => {
                        diags.push(wrong_type("candidates[0]", "a candidate object", other));
                        (None, String::new())
                    }
                    None => (None, String::new()),
                }
            }
            None => (None, String::new()),
            Some(other) => {
                return not_format(format!(
                    "expected `candidates` to be an array, found {}",
                    type_name(other)
                ))
            }
        }
    } else if ["content", "groundingMetadata", "grounding_metadata"]
        .iter()
        .any(|k| o.contains_key(*k))
    {
        (Some(o), String::new())
    } else if o.contains_key("promptFeedback") || o.contains_key("prompt_feedback") {
        // A blocked prompt: no candidates, the reason in `promptFeedback`.
        meta = o.clone();
        (None, String::new())
    } else {
        return not_format(
            "expected `candidates`, or a candidate with `content` and `groundingMetadata`".into(),
        );
    };

    // Text parts, by part index.
    let mut text = String::new();
    let mut parts: Vec<Option<(usize, &str)>> = Vec::new();
    let mut grounding = None;
    let mut gkey = "groundingMetadata";
    if let Some(c) = candidate {
        let mut f = Fields::new(c, cpath.as_str());
        if let Some(content) = f.object("content", &mut diags) {
            let mut cf = Fields::new(content, f.path_of("content"));
            match cf.value("parts") {
                Some(Value::Array(ps)) => {
                    for p in ps {
                        let part = p
                            .as_object()
                            .filter(|po| po.get("thought").and_then(Value::as_bool) != Some(true))
                            .and_then(|po| po.get("text"))
                            .and_then(Value::as_str);
                        parts.push(part.map(|t| {
                            let base = text.len();
                            text.push_str(t);
                            (base, t)
                        }));
                    }
                }
                Some(other) => diags.push(wrong_type(&cf.path_of("parts"), "an array", other)),
                None => {}
            }
            let rest = cf.rest();
            if !rest.is_empty() {
                meta.insert("content".into(), Value::Object(rest));
            }
        }
        if let Some((k, v)) = f.value_any(&["groundingMetadata", "grounding_metadata"]) {
            gkey = k;
            match v {
                Value::Object(g) => grounding = Some(g),
                other => diags.push(wrong_type(&f.path_of(k), "an object", other)),
            }
        }
        for (k, v) in f.rest() {
            meta.entry(k).or_insert(v);
        }
    }
    // The text was streamed to the caller separately: the offsets index the caller's.
    if parts.iter().all(|p| p.is_none_or(|(_, t)| t.is_empty())) {
        if let Some(a) = answer {
            text = a.to_string();
            parts = vec![Some((0, a))];
        }
    }

    let mut draft_sources = Vec::new();
    let mut spans = Vec::new();
    if let Some(g) = grounding {
        let gpath = if cpath.is_empty() {
            gkey.to_string()
        } else {
            format!("{cpath}.{gkey}")
        };
        let mut gf = Fields::new(g, gpath.as_str());
        // chunk index → index into draft_sources
        let mut chunk_src: Vec<Option<usize>> = Vec::new();
        if let Some((k, v)) = gf.value_any(&["groundingChunks", "grounding_chunks"]) {
            match v {
                Value::Array(chunks) => {
                    for (i, chunk) in chunks.iter().enumerate() {
                        let path = format!("{gpath}.{k}[{i}]");
                        let src = read_chunk(chunk, i, &path, &mut diags);
                        chunk_src.push(src.map(|s| {
                            draft_sources.push(s);
                            draft_sources.len() - 1
                        }));
                    }
                }
                other => diags.push(wrong_type(&gf.path_of(k), "an array", other)),
            }
        }
        if let Some((k, v)) = gf.value_any(&["groundingSupports", "grounding_supports"]) {
            match v {
                Value::Array(supports) => {
                    let mut ixs: Vec<Option<OffsetIndex<'_>>> = vec![None; parts.len()];
                    for (n, s) in supports.iter().enumerate() {
                        let path = format!("{gpath}.{k}[{n}]");
                        let ctx = Ctx {
                            parts: &parts,
                            chunk_src: &chunk_src,
                            encoding,
                        };
                        if let Some(span) = ctx.support(s, &path, &mut ixs, &mut diags) {
                            spans.push(span);
                        }
                    }
                }
                other => diags.push(wrong_type(&gf.path_of(k), "an array", other)),
            }
        }
        let rest = gf.rest();
        if !rest.is_empty() {
            meta.insert(gkey.to_string(), Value::Object(rest));
        }
    }

    // No text: say why when the response does (a blocked prompt, a candidate stopped
    // for safety or recitation), as a chat shows it instead of an empty answer.
    if text.is_empty() && answer.is_none_or(str::is_empty) {
        let reason = |v: Option<&Value>, key: &str| {
            v.and_then(|x| x.get(key))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        let feedback = o.get("promptFeedback").or_else(|| o.get("prompt_feedback"));
        let why = reason(feedback, "blockReason")
            .or_else(|| reason(feedback, "block_reason"))
            .map(|r| ["the prompt was blocked (`blockReason` ", &r, ")"].concat())
            .or_else(|| {
                candidate
                    .and_then(|c| c.get("finishReason").or_else(|| c.get("finish_reason")))
                    .and_then(Value::as_str)
                    .filter(|r| *r != "STOP")
                    .map(|r| ["the candidate stopped with `finishReason` ", r].concat())
            });
        if let Some(why) = why {
            diags.push(Diagnostic::warning(
                "no-answer",
                [&why, "; there is no answer text"].concat(),
            ));
        }
    }
    let mut draft = Draft::new(Format::Gemini, text);
    draft.grammar = grammar();
    draft.sources = draft_sources;
    draft.spans = spans;
    draft.diagnostics = diags;
    draft.metadata = meta;
    if let Some(a) = answer {
        support::use_caller_text(&mut draft, a);
    }
    support::cap_sources(&mut draft);
    support::cap_spans(&mut draft);
    Ok(draft)
}

/// The marker grammar of gemini text (every marker form, in markdown).
pub(super) fn grammar() -> Option<crate::core::markers::Grammar> {
    Some(support::every_marker(TextSyntax::Markdown))
}

/// One grounding chunk as a source; `None` (with a diagnostic) when it has no
/// `web`, `retrievedContext` or `maps` object.
fn read_chunk(
    chunk: &Value,
    i: usize,
    path: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<DraftSource> {
    let Value::Object(o) = chunk else {
        diags.push(wrong_type(path, "a grounding chunk", chunk));
        return None;
    };
    let mut outer = Fields::new(o, path);
    let found = outer.value_any(&["web", "retrievedContext", "retrieved_context", "maps"]);
    let Some((key, Value::Object(inner))) = found else {
        match found {
            Some((key, other)) => {
                diags.push(wrong_type(&outer.path_of(key), "an object", other));
            }
            None => diags.push(
                Diagnostic::warning(
                    "missing-field",
                    format!("`{path}` has no `web` or `retrievedContext`; the chunk is skipped"),
                )
                .at_path(path),
            ),
        }
        return None;
    };
    let kind = match key {
        "web" => "web",
        "maps" => "maps",
        _ => "document",
    };
    let mut f = Fields::new(inner, outer.path_of(key));
    let mut src = Source {
        id: format!("chunk-{i}"),
        kind: kind.to_string(),
        provider: Some(PROVIDER.to_string()),
        ..Source::default()
    };
    if let Some(t) = f.string("title", diags) {
        src.title = support::title(&t);
    }
    let mut redirect = false;
    if let Some(u) = f.string("uri", diags) {
        match classify_link(&u) {
            Link::Url(url) => {
                redirect = url.starts_with(support::GROUNDING_REDIRECT);
                src.url = Some(url);
            }
            // A Cloud Storage object of a retrieved document: a name, not a link.
            Link::Unsafe(scheme) if scheme == "gs" => {
                src.metadata
                    .insert("uri".into(), Value::String(u.trim().to_string()));
            }
            Link::Unsafe(scheme) => diags.push(support::unsafe_url(&f.path_of("uri"), &scheme)),
            Link::Path(p) => {
                src.metadata.insert("uri".into(), Value::String(p));
            }
            Link::Empty => {}
        }
    }
    src.domain = f
        .string("domain", diags)
        .and_then(|d| support::title(&d))
        .map(|d| d.to_ascii_lowercase())
        // Web chunks are titled with their domain; a retrieved document's title is a
        // file name (`policy.pdf`), not one.
        .or_else(|| {
            (kind == "web")
                .then(|| src.title.as_deref().and_then(support::title_domain))
                .flatten()
        })
        .or_else(|| {
            if redirect {
                None
            } else {
                src.url.as_deref().and_then(domain_of)
            }
        });
    if let Some(t) = f.string("text", diags) {
        support::set_text(&mut src, &t);
    }
    for (k, v) in f.rest() {
        src.metadata.entry(k).or_insert(v);
    }
    for (k, v) in outer.rest() {
        src.metadata.entry(k).or_insert(v);
    }
    let n = i.checked_add(1).and_then(|n| u32::try_from(n).ok());
    Some(DraftSource {
        source: src,
        keys: Vec::new(),
        given_number: n,
    })
}

/// What a support needs to become a span.
struct Ctx<'a, 'b> {
    parts: &'b [Option<(usize, &'a str)>],
    chunk_src: &'b [Option<usize>],
    encoding: PositionEncoding,
}

impl<'a> Ctx<'a, '_> {
    /// One grounding support as a span.
    fn support(
        &self,
        s: &Value,
        path: &str,
        ixs: &mut [Option<OffsetIndex<'a>>],
        diags: &mut Vec<Diagnostic>,
    ) -> Option<DraftSpan> {
        let Value::Object(o) = s else {
            diags.push(wrong_type(path, "a grounding support", s));
            return None;
        };
        let mut f = Fields::new(o, path);
        let seg = match f.value("segment") {
            Some(Value::Object(seg)) => seg,
            Some(other) => {
                diags.push(wrong_type(&f.path_of("segment"), "an object", other));
                return None;
            }
            None => {
                diags.push(missing(&f.path_of("segment")));
                return None;
            }
        };
        let spath = f.path_of("segment");
        let mut sf = Fields::new(seg, spath.as_str());
        let part_index = sf
            .uint_any(&["partIndex", "part_index"], diags)
            .unwrap_or(0);
        let start = sf
            .uint_any(&["startIndex", "start_index"], diags)
            .unwrap_or(0);
        let end = sf.uint_any(&["endIndex", "end_index"], diags);
        let seg_text = sf.string("text", diags).filter(|t| !t.is_empty());

        // Sources, with the confidence of each.
        let indices = f.value_any(&["groundingChunkIndices", "grounding_chunk_indices"]);
        let scores = f
            .value_any(&["confidenceScores", "confidence_scores"])
            .and_then(|(_, v)| v.as_array());
        let mut refs = Vec::new();
        let mut ref_seen = OrderedHashSet::new();
        let mut first_chunk = None;
        let mut confidence: Option<(usize, f64)> = None;
        let mut best: Option<f64> = None;
        match indices {
            Some((k, Value::Array(list))) => {
                for (j, v) in list.iter().enumerate() {
                    let Some(ci) = as_uint(v) else {
                        diags.push(wrong_type(
                            &format!("{}[{j}]", f.path_of(k)),
                            "a chunk index",
                            v,
                        ));
                        continue;
                    };
                    let hit = usize::try_from(ci)
                        .ok()
                        .and_then(|c| self.chunk_src.get(c).copied().flatten());
                    let Some(src) = hit else {
                        diags.push(
                            Diagnostic::warning(
                                "unknown-source",
                                format!(
                                    "`{}[{j}]` is {ci}, which names no grounding chunk",
                                    f.path_of(k)
                                ),
                            )
                            .at_path(format!("{}[{j}]", f.path_of(k))),
                        );
                        continue;
                    };
                    first_chunk.get_or_insert(ci);
                    if ref_seen.insert(src) {
                        refs.push(SourceRef::Index(src));
                    }
                    if let Some(score) = scores.and_then(|a| a.get(j)).and_then(Value::as_f64) {
                        confidence.get_or_insert((src, score));
                        best = Some(best.map_or(score, |b: f64| b.max(score)));
                    }
                }
            }
            Some((k, other)) => {
                diags.push(wrong_type(&f.path_of(k), "an array", other));
                return None;
            }
            None => {
                diags.push(missing(&f.path_of("groundingChunkIndices")));
                return None;
            }
        }
        if refs.is_empty() {
            return None;
        }

        // The part and its offsets.
        let part = usize::try_from(part_index)
            .ok()
            .and_then(|p| self.parts.get(p).copied().flatten());
        let Some((base, ptext)) = part else {
            diags.push(
                Diagnostic::warning(
                    "span-out-of-range",
                    format!("`{spath}` is in part {part_index}, which is not a text part; skipped"),
                )
                .at_path(spath.as_str()),
            );
            return None;
        };
        let slot = usize::try_from(part_index)
            .ok()
            .and_then(|p| ixs.get_mut(p))?;
        let ix = slot.get_or_insert_with(|| OffsetIndex::new(ptext, self.encoding));
        let mut local = Vec::new();
        let mut range = match end {
            Some(end) => support::byte_span(ix, self.encoding, start, end, &spath, &mut local),
            None => {
                if seg_text.is_none() {
                    diags.push(missing(&format!("{spath}.endIndex")));
                    return None;
                }
                None
            }
        };
        if let Some(want) = &seg_text {
            let here = range.and_then(|(s, e)| ptext.get(s..e));
            if here != Some(want.as_str()) && here.map(str::trim) != Some(want.trim()) {
                let near = range.map_or(0, |r| r.0);
                match nearest(ptext, want, near) {
                    Some(s) => {
                        // The quoted text is the better witness: drop the offset
                        // complaints it makes moot.
                        local.clear();
                        local.push(
                            Diagnostic::info(
                                "span-mismatch",
                                format!("`{spath}.text` is not at its offsets; found it nearby and moved the span there"),
                            )
                            .at_path(spath.as_str())
                            .at(s, s + want.len()),
                        );
                        range = Some((s, s + want.len()));
                    }
                    None if range.is_some() => local.push(
                        Diagnostic::warning(
                            "span-mismatch",
                            format!("`{spath}.text` is not at its offsets nor elsewhere in the text; the offsets are kept"),
                        )
                        .at_path(spath.as_str()),
                    ),
                    None => local.push(missing(&format!("{spath}.endIndex"))),
                }
            }
        }
        for mut d in local {
            d.start = d.start.map(|x| x + base);
            d.end = d.end.map(|x| x + base);
            diags.push(d);
        }
        let (s, e) = range?;
        let mut span = DraftSpan::new(base + s, base + e, refs);
        span.location = first_chunk.map(|c| Location::Grounding { chunk_index: c });
        let score = if span.sources.len() == 1 {
            confidence.map(|c| c.1)
        } else {
            best
        };
        span.confidence = score
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number);
        Some(span)
    }
}

/// The byte offset of the occurrence of `needle` in `hay` nearest to `near`.
fn nearest(hay: &str, needle: &str, near: usize) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    crate::core::str_ops::offsets(hay, needle).min_by_key(|&i| i.abs_diff(near))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn draft(v: Value) -> Draft {
        parse(None, Some(&v), &Options::default()).unwrap()
    }

    /// A retrieved document titled with its file name has no domain (a web chunk's
    /// title is its domain).
    #[test]
    fn a_document_title_is_not_a_domain() {
        let d = draft(
            json!({"candidates": [{"content": {"parts": [{"text": "Policy says so."}]},
            "groundingMetadata": {"groundingChunks": [
                {"retrievedContext": {"uri": "gs://b/policy.pdf", "title": "policy.pdf"}},
                {"web": {"uri": "https://example.org/a", "title": "example.org"}}]}}]}),
        );
        let domains: Vec<Option<&str>> = d
            .sources
            .iter()
            .map(|s| s.source.domain.as_deref())
            .collect();
        assert_eq!(domains, vec![None, Some("example.org")]);
    }

    /// A blocked prompt (no candidates) and a candidate stopped for safety: no text,
    /// and a `no-answer` warning saying why (not an error, not silence).
    #[test]
    fn blocked_responses_say_why() {
        let blocked = json!({"promptFeedback": {"blockReason": "SAFETY"}, "modelVersion": "gemini-2.5-flash"});
        assert_eq!(
            crate::core::formats::detect(None, crate::core::formats::Data::Json(&blocked)).unwrap(),
            Format::Gemini
        );
        let d = draft(blocked);
        assert_eq!(d.text, "");
        assert_eq!(d.diagnostics.len(), 1, "{:?}", d.diagnostics);
        assert_eq!(d.diagnostics[0].code, "no-answer");
        assert!(d.diagnostics[0].message.contains("`blockReason` SAFETY"));
        assert_eq!(
            d.metadata.get("modelVersion"),
            Some(&json!("gemini-2.5-flash"))
        );
        let d = draft(json!({"candidates": [{"finishReason": "RECITATION"}]}));
        assert!(
            d.diagnostics
                .iter()
                .any(|x| x.code == "no-answer" && x.message.contains("RECITATION")),
            "{:?}",
            d.diagnostics
        );
        // A normal answer says nothing of the kind.
        let d = draft(
            json!({"candidates": [{"content": {"parts": [{"text": "Hi."}]}, "finishReason": "STOP"}]}),
        );
        assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
    }

    #[test]
    fn byte_offsets_per_part() {
        // "héllo 😀 " is 12 bytes; the segment "world" starts at byte 12 of part 1.
        let d = draft(json!({"candidates": [{"content": {"parts": [
            {"text": "Intro. "}, {"text": "héllo 😀 world"}]},
            "groundingMetadata": {"groundingChunks": [{"web": {"uri": "https://a.example/x", "title": "a.example"}}],
                "groundingSupports": [{"segment": {"partIndex": 1, "startIndex": 12, "endIndex": 17, "text": "world"},
                    "groundingChunkIndices": [0], "confidenceScores": [0.9]}]}}]}));
        assert_eq!(d.text, "Intro. héllo 😀 world");
        assert_eq!(&d.text[d.spans[0].start..d.spans[0].end], "world");
        assert_eq!(d.spans[0].confidence, Some(json!(0.9)));
        assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
    }

    #[test]
    fn start_index_defaults_to_zero_and_text_relocates() {
        let d = draft(
            json!({"content": {"parts": [{"text": "Alpha beta. Gamma delta."}]},
            "groundingMetadata": {"groundingChunks": [{"web": {"uri": "https://b.example", "title": "B"}}],
                "groundingSupports": [
                    {"segment": {"endIndex": 11, "text": "Alpha beta."}, "groundingChunkIndices": [0]},
                    {"segment": {"startIndex": 10, "endIndex": 22, "text": "Gamma delta."}, "groundingChunkIndices": [0, 7]}]}}),
        );
        assert_eq!((d.spans[0].start, d.spans[0].end), (0, 11));
        assert_eq!(&d.text[d.spans[1].start..d.spans[1].end], "Gamma delta.");
        let codes: Vec<&str> = d.diagnostics.iter().map(|x| x.code.as_str()).collect();
        assert_eq!(codes, vec!["unknown-source", "span-mismatch"]);
    }

    #[test]
    fn domains_from_titles() {
        assert_eq!(
            support::title_domain("www.Nasa.gov"),
            Some("nasa.gov".into())
        );
        assert_eq!(
            support::title_domain("en.wikipedia.org"),
            Some("en.wikipedia.org".into())
        );
        assert_eq!(support::title_domain("The Moon - NASA"), None);
        assert_eq!(support::title_domain("v1.2"), None);
        assert_eq!(support::title_domain("a..b"), None);
    }
}
