//! The `openai` format, in two shapes (and two more read as the first: Chat
//! Completions with `url_citation` annotations, `chat_as_responses`, and Assistants
//! messages, `assistants_as_responses`).
//!
//! **Responses API.** `data` is a response `{id, object: "response", output: [...],
//! usage, ...}`, an array of output items, one `message` item, or one `output_text`
//! part. The text is every `output_text` part's `text` (and a `refusal` part's
//! `refusal`), concatenated; parts of different output items are separated by a blank
//! line. Annotations give explicit spans in UTF-16 code units of their part by default
//! (`inputEncoding` overrides), shifted to the joined text:
//! - `url_citation` `{start_index, end_index, url, title}`: a web source, id = the
//!   normalized url, one per url; location `url_citation` with the given indices. A
//!   url that cannot be linked (`javascript:`, a path) is reported and left out; the
//!   source keeps its title and citation under the id `unlinked-<n>`;
//! - `file_citation` `{file_id, filename, index}` and `file_path` `{file_id, index}`: a
//!   file source (id = `file_id`); the citation is a point (`start == end == index`),
//!   which the resolver widens as it would a marker there (back to the start of the
//!   sentence, list item or cell);
//! - `container_file_citation` `{container_id, file_id, filename, start_index,
//!   end_index}`: a file source with a span (or, with `index` only, a point);
//! - any other type: `unsupported-item` (info).
//!
//! When the caller gives `answer`, that is the text (the caller's text wins): the
//! annotations index it when the output's own text is empty (streamed separately),
//! else each is placed by the text it covers (`support::use_caller_text`). Markers of
//! every syntax in the text are read too.
//!
//! Note that web search answers usually carry the link itself in the text (`…
//! ([example.com](https://example.com/?utm_source=openai))`) and the annotation covers
//! that link; the span is kept exactly as given.
//!
//! **Private-use markers** (ChatGPT). `answer` is the message text with markers like
//! `\u{e200}cite\u{e202}turn0search0\u{e201}`; `data` is the message's `metadata` with
//! `search_result_groups[{domain, entries[{ref_id: {turn_index, ref_type, ref_index},
//! url, title, snippet, pub_date, attribution}]}]` and/or `content_references[{type:
//! "grouped_webpages", items[{url, title, snippet, refs}]}]` (`sources_footnote`
//! references add their `sources`). A source's key is the ref id as written in the
//! markers, `Name("turn0search0")`, and so is its id; entries for the same url are one
//! source with every key. The other metadata fields go to the answer's metadata.

use crate::core::draft::{Draft, DraftSource, DraftSpan, SourceRef};
use crate::core::error::ParseError;
use crate::core::formats::support::{self, classify_link, Link};
use crate::core::json::{type_name, wrong_type, Fields};
use crate::core::map::{Map as HMap, Set as HSet};
use crate::core::markers::{SourceKey, TextSyntax};
use crate::core::model::{Diagnostic, Format, Location, Source};
use crate::core::offsets::{OffsetIndex, OffsetProblem, PositionEncoding};
use crate::core::options::Options;
use crate::core::sanitize::{clean_text, domain_of, normalize_url};
use serde_json::{Map, Value};

/// The provider name set on every source.
const PROVIDER: &str = "openai";

/// Keys of the private-use marker metadata citekit reads.
const PUA_KEYS: [&str; 2] = ["search_result_groups", "content_references"];

/// Parses `openai` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    options: &Options,
) -> Result<Draft, ParseError> {
    let encoding = options.input_encoding.unwrap_or(PositionEncoding::Utf16);
    let not_format = |msg: String| Err(ParseError::not_format(Format::Openai, "$", msg));
    let chat =
        data.and_then(|d| chat_as_responses(d).or_else(|| assistants_as_responses(d, encoding)));
    let data = chat.as_ref().or(data);
    match data {
        None | Some(Value::Null) => Ok(private_use(answer, None)),
        Some(v @ Value::Object(o)) => {
            if is_responses(o) {
                Ok(responses(v, answer, encoding))
            } else if o.is_empty()
                || PUA_KEYS.iter().any(|k| o.contains_key(*k))
                || answer.is_some_and(|a| crate::core::bytes::has_char(a, '\u{e200}'))
            {
                Ok(private_use(answer, Some(o)))
            } else {
                not_format(
                    "expected a Responses API output (`output`, `output_text` with `annotations`) or message metadata with `search_result_groups` / `content_references`".into(),
                )
            }
        }
        Some(v @ Value::Array(a)) => {
            if !a.is_empty() && !a.iter().any(|x| x.as_object().is_some_and(is_responses)) {
                return not_format(
                    "expected an array of Responses API output items, found none".into(),
                );
            }
            Ok(responses(v, answer, encoding))
        }
        Some(other) => not_format(format!(
            "expected a Responses API object or array, found {}",
            type_name(other)
        )),
    }
}

/// A Chat Completions answer read as the Responses API output it amounts to: a
/// completion `{choices: [{message: {content, annotations}}], ...}` (the first choice;
/// the other fields go to the answer's metadata, other choices too) or one message
/// `{role, content, annotations}` whose `content` is a string. Its `url_citation`
/// annotations nest their fields (`{type, url_citation: {start_index, end_index, url,
/// title}}`), lifted here to the Responses shape. `None` for anything else.
fn chat_as_responses(data: &Value) -> Option<Value> {
    let o = data.as_object()?;
    let (message, mut meta) = match o.get("choices") {
        Some(Value::Array(choices)) => {
            let message = choices.first()?.get("message")?.as_object()?;
            let mut meta: Map<String, Value> = o
                .iter()
                .filter(|(k, _)| k.as_str() != "choices")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if choices.len() > 1 {
                meta.insert("other_choices".into(), Value::Array(choices[1..].to_vec()));
            }
            (message, meta)
        }
        _ if o.get("content").is_some_and(Value::is_string) => (o, Map::new()),
        _ => return None,
    };
    let text = message.get("content").and_then(Value::as_str).unwrap_or("");
    let annotations: Vec<Value> = match message.get("annotations") {
        Some(Value::Array(a)) => a.iter().map(flat_chat_annotation).collect(),
        _ => Vec::new(),
    };
    for (k, v) in message {
        if !matches!(k.as_str(), "content" | "annotations") {
            meta.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    let mut part = Map::new();
    part.insert("type".into(), "output_text".into());
    part.insert("text".into(), text.into());
    part.insert("annotations".into(), Value::Array(annotations));
    let mut item = Map::new();
    item.insert("type".into(), "message".into());
    item.insert("content".into(), Value::Array(vec![Value::Object(part)]));
    meta.insert("output".into(), Value::Array(vec![Value::Object(item)]));
    Some(Value::Object(meta))
}

/// A Chat Completions annotation in the Responses shape: `{type, url_citation: {start_index,
/// end_index, url, title}}` with the inner object's fields lifted to the top (the
/// completion's `message.annotations`, and a streamed chunk's `delta.annotations`).
pub(crate) fn flat_chat_annotation(ann: &Value) -> Value {
    match ann {
        Value::Object(a) => {
            let mut flat = Map::new();
            for (k, v) in a {
                match v {
                    Value::Object(inner) if k.as_str() == "url_citation" => {
                        for (ik, iv) in inner {
                            flat.insert(ik.clone(), iv.clone());
                        }
                    }
                    _ => {
                        flat.insert(k.clone(), v.clone());
                    }
                }
            }
            Value::Object(flat)
        }
        other => other.clone(),
    }
}

/// An Assistants API message (`{object: "thread.message", content: [{type: "text",
/// text: {value, annotations}}]}`) read as a Responses output: its `file_citation` and
/// `file_path` annotations stand for marker text in the value (`【4:0†source】`), which
/// is taken out of the text, each becoming a point citation of its file where its
/// marker was (its `index` in `encoding`'s units, as the Responses path reads it).
/// `None` for anything else.
fn assistants_as_responses(data: &Value, encoding: PositionEncoding) -> Option<Value> {
    let units = |s: &str| match encoding {
        PositionEncoding::Utf8 => s.len(),
        PositionEncoding::Utf16 => s.encode_utf16().count(),
        PositionEncoding::Utf32 => s.chars().count(),
    };
    let o = data.as_object()?;
    let content = o.get("content")?.as_array()?;
    let is_assistants = o.get("object").and_then(Value::as_str) == Some("thread.message")
        || content.iter().any(|c| {
            c.get("text")
                .and_then(|t| t.get("value"))
                .is_some_and(Value::is_string)
        });
    if !is_assistants {
        return None;
    }
    let mut parts = Vec::new();
    for c in content {
        let Some(t) = c.get("text").filter(|t| t.is_object()) else {
            continue;
        };
        let value = t.get("value").and_then(Value::as_str).unwrap_or("");
        let mut text = String::with_capacity(value.len());
        // `text`'s length in `encoding`'s units, kept as it grows.
        let mut len = 0;
        let mut anns = Vec::new();
        let mut from = 0;
        for a in t
            .get("annotations")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let kind = a.get("type").and_then(Value::as_str).unwrap_or("");
            let marker = a.get("text").and_then(Value::as_str).unwrap_or("");
            let file = a
                .get(kind)
                .and_then(|f| f.get("file_id"))
                .cloned()
                .unwrap_or(Value::Null);
            let at = (!marker.is_empty())
                .then(|| crate::core::bytes::find_str(&value[from..], marker))
                .flatten();
            if let Some(at) = at {
                let kept = &value[from..from + at];
                text.push_str(kept);
                len += units(kept);
                from += at + marker.len();
            }
            let mut ann = Map::new();
            ann.insert("type".into(), kind.into());
            ann.insert("file_id".into(), file);
            ann.insert("index".into(), len.into());
            anns.push(Value::Object(ann));
        }
        text.push_str(&value[from..]);
        let mut part = Map::new();
        part.insert("type".into(), "output_text".into());
        part.insert("text".into(), text.into());
        part.insert("annotations".into(), Value::Array(anns));
        parts.push(Value::Object(part));
    }
    let mut meta: Map<String, Value> = o
        .iter()
        .filter(|(k, _)| k.as_str() != "content")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut item = Map::new();
    item.insert("type".into(), "message".into());
    item.insert("content".into(), Value::Array(parts));
    meta.insert("output".into(), Value::Array(vec![Value::Object(item)]));
    Some(Value::Object(meta))
}

/// Whether `data` is a Responses API output (whose annotations give offsets), not the
/// metadata of a message with private-use markers.
pub fn carries_offsets(data: &Value) -> bool {
    match data {
        Value::Object(o) => is_responses(o),
        Value::Array(a) => a.iter().any(|x| x.as_object().is_some_and(is_responses)),
        _ => false,
    }
}

/// Whether an object is (part of) a Responses API output.
fn is_responses(o: &Map<String, Value>) -> bool {
    if PUA_KEYS.iter().any(|k| o.contains_key(*k)) {
        return false;
    }
    o.contains_key("output")
        || o.contains_key("annotations")
        || o.get("object").and_then(Value::as_str) == Some("response")
        || matches!(
            o.get("type").and_then(Value::as_str),
            Some("output_text" | "message" | "refusal")
        )
        || o.get("text").is_some_and(Value::is_string)
}

/// A text part of the output.
struct Part<'a> {
    text: &'a str,
    annotations: Option<&'a Value>,
    path: String,
    /// Which output item it belongs to (parts of different items get a blank line).
    item: usize,
}

/// Builds the draft of a Responses API output. With `answer` (the caller's text), that
/// is the text: the annotations index it when the output's own text is empty (its
/// text was streamed to the caller separately), else they are placed by the text they
/// cover ([`support::use_caller_text`]).
fn responses(data: &Value, answer: Option<&str>, encoding: PositionEncoding) -> Draft {
    let mut diags = Vec::new();
    let mut parts = Vec::new();
    let mut meta = Map::new();
    match data {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                collect_item(item, format!("[{i}]"), i, &mut parts, &mut diags);
            }
        }
        Value::Object(o) if o.contains_key("output") => {
            let mut f = Fields::new(o, "");
            match f.value("output") {
                Some(Value::Array(items)) => {
                    for (i, item) in items.iter().enumerate() {
                        collect_item(item, format!("output[{i}]"), i, &mut parts, &mut diags);
                    }
                }
                Some(other) => diags.push(wrong_type("output", "an array", other)),
                None => {}
            }
            meta = f.rest();
        }
        Value::Object(o) => {
            collect_item(data, String::new(), 0, &mut parts, &mut diags);
            meta = o
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "type" | "text" | "annotations" | "content"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
        }
        _ => {}
    }

    // The output's text was streamed to the caller separately: its offsets index the
    // caller's text.
    let offsets_in_answer = answer.filter(|_| parts.iter().all(|p| p.text.is_empty()));
    if let Some(a) = offsets_in_answer {
        for part in &mut parts {
            part.text = a;
            part.item = 0;
        }
    }
    let mut b = Builder::default();
    let mut text = String::new();
    let mut last_item = None;
    for part in &parts {
        if offsets_in_answer.is_some() {
            // Every part's annotations index the one text.
            text.clear();
        }
        if last_item.is_some_and(|i| i != part.item) && !text.is_empty() && !part.text.is_empty() {
            text.push_str("\n\n");
        }
        if !part.text.is_empty() {
            last_item = Some(part.item);
        }
        let base = text.len();
        text.push_str(part.text);
        let Some(anns) = part.annotations else {
            continue;
        };
        let Value::Array(anns) = anns else {
            diags.push(wrong_type(
                &join(&part.path, "annotations"),
                "an array",
                anns,
            ));
            continue;
        };
        let ix = OffsetIndex::new(part.text, encoding);
        for (k, a) in anns.iter().enumerate() {
            let path = format!("{}[{k}]", join(&part.path, "annotations"));
            b.add_annotation(a, &path, &ix, base, encoding, &mut diags);
        }
    }
    let mut draft = Draft::new(Format::Openai, text);
    draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
    draft.sources = b.sources;
    draft.spans = b.spans;
    draft.diagnostics = diags;
    // Output items that are not text (web_search_call with its query and sources,
    // reasoning, function calls): kept, not thrown away.
    let items: &[Value] = match data {
        Value::Array(a) => a,
        Value::Object(o) => o
            .get("output")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice),
        _ => &[],
    };
    let others: Vec<Value> = items
        .iter()
        .filter(|it| {
            !matches!(
                it.get("type").and_then(Value::as_str),
                Some("message" | "output_text" | "refusal") | None
            )
        })
        .cloned()
        .collect();
    if !others.is_empty() {
        meta.insert("other_output".into(), Value::Array(others));
    }
    draft.metadata = meta;
    if let Some(a) = answer {
        support::use_caller_text(&mut draft, a);
    }
    support::cap_sources(&mut draft);
    support::cap_spans(&mut draft);
    draft
}

/// `a.b`, or `b` at the top.
fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The text parts of one output item (a `message`, or a bare part).
fn collect_item<'a>(
    item: &'a Value,
    path: String,
    index: usize,
    parts: &mut Vec<Part<'a>>,
    diags: &mut Vec<Diagnostic>,
) {
    let Value::Object(o) = item else {
        diags.push(wrong_type(
            if path.is_empty() { "$" } else { &path },
            "an output item",
            item,
        ));
        return;
    };
    match o.get("type").and_then(Value::as_str) {
        Some("message") => match o.get("content") {
            Some(Value::Array(content)) => {
                for (j, p) in content.iter().enumerate() {
                    let ppath = format!("{}[{j}]", join(&path, "content"));
                    if let Value::Object(po) = p {
                        if let Some(part) = text_part(po, ppath, index, diags) {
                            parts.push(part);
                        }
                    } else {
                        diags.push(wrong_type(&ppath, "a content part", p));
                    }
                }
            }
            Some(Value::String(s)) => parts.push(Part {
                text: s,
                annotations: None,
                path: join(&path, "content"),
                item: index,
            }),
            Some(other) => diags.push(wrong_type(&join(&path, "content"), "an array", other)),
            None => {}
        },
        Some("output_text" | "refusal") | None => {
            if let Some(part) = text_part(o, path, index, diags) {
                parts.push(part);
            }
        }
        // reasoning, web_search_call, file_search_call, function_call, ...: not text.
        Some(_) => {}
    }
}

/// An `output_text` (or `refusal`) part.
fn text_part<'a>(
    o: &'a Map<String, Value>,
    path: String,
    item: usize,
    diags: &mut Vec<Diagnostic>,
) -> Option<Part<'a>> {
    let key = match o.get("type").and_then(Value::as_str) {
        Some("refusal") => "refusal",
        Some("output_text") | None => "text",
        Some(_) => return None,
    };
    match o.get(key) {
        Some(Value::String(s)) => Some(Part {
            text: s,
            annotations: o.get("annotations").filter(|a| !a.is_null()),
            path,
            item,
        }),
        None | Some(Value::Null) => {
            if o.get("type").is_some() {
                let p = join(&path, key);
                diags.push(
                    Diagnostic::warning(
                        "missing-field",
                        format!("`{p}` is missing; the part is skipped"),
                    )
                    .at_path(p),
                );
            }
            None
        }
        Some(other) => {
            diags.push(wrong_type(&join(&path, key), "a string", other));
            None
        }
    }
}

/// Sources and spans being built, sources deduplicated by id.
#[derive(Debug, Clone, Default)]
pub(crate) struct Builder {
    sources: Vec<DraftSource>,
    spans: Vec<DraftSpan>,
    by_id: HMap<String, usize>,
    by_url: HMap<String, usize>,
    /// (source index, key) pairs already given.
    keys_seen: HSet<(usize, SourceKey)>,
    /// Span range → index into `spans`.
    span_at: HMap<(usize, usize), usize>,
    /// (span index, source index) pairs already in a span.
    span_refs: HSet<(usize, usize)>,
    /// Urls that cannot be linked → the number in their source's id (`unlinked-1`).
    unlinked: HMap<String, usize>,
}

impl Builder {
    /// One annotation of a part whose text starts at byte `base` of the answer (`ix`
    /// indexes the part's text): its source added, its span placed (annotations over
    /// the same range are one citation with every source), its diagnostics shifted to
    /// the answer. The Responses parser and its event stream
    /// ([`openai_stream`](super::openai_stream)) both read annotations here.
    pub(crate) fn add_annotation(
        &mut self,
        a: &Value,
        path: &str,
        ix: &OffsetIndex<'_>,
        base: usize,
        encoding: PositionEncoding,
        diags: &mut Vec<Diagnostic>,
    ) {
        let mut local = Vec::new();
        if let Some(mut span) = self.annotation(a, path, ix, encoding, &mut local) {
            span.start += base;
            span.end += base;
            let range = (span.start, span.end);
            match self.span_at.get(&range).copied() {
                Some(at) => {
                    for r in span.sources {
                        let SourceRef::Index(i) = r else { continue };
                        if self.span_refs.insert((at, i)) {
                            if let Some(same) = self.spans.get_mut(at) {
                                same.sources.push(r);
                            }
                        }
                    }
                }
                None => {
                    let at = self.spans.len();
                    for r in &span.sources {
                        if let SourceRef::Index(i) = r {
                            self.span_refs.insert((at, *i));
                        }
                    }
                    self.span_at.insert(range, at);
                    self.spans.push(span);
                }
            }
        }
        for mut d in local {
            d.start = d.start.map(|s| s + base);
            d.end = d.end.map(|s| s + base);
            diags.push(d);
        }
    }

    /// The sources so far, in the order they came.
    pub(crate) fn sources(&self) -> &[DraftSource] {
        &self.sources
    }

    /// The spans so far.
    pub(crate) fn spans(&self) -> &[DraftSpan] {
        &self.spans
    }

    /// The index of the source `src` (merged into an earlier one with the same id or
    /// url), with `keys` added.
    fn add(&mut self, src: Source, keys: Vec<SourceKey>) -> usize {
        let url_key = src.url.as_deref().map(normalize_url);
        let hit = self
            .by_id
            .get(&src.id)
            .or_else(|| url_key.as_ref().and_then(|u| self.by_url.get(u)))
            .copied();
        let i = match hit {
            Some(i) => {
                if let Some(ds) = self.sources.get_mut(i) {
                    crate::core::resolve::merge_source(&mut ds.source, src);
                }
                i
            }
            None => {
                let i = self.sources.len();
                self.by_id.insert(src.id.clone(), i);
                if let Some(u) = url_key {
                    self.by_url.insert(u, i);
                }
                self.sources.push(DraftSource {
                    source: src,
                    keys: Vec::new(),
                    given_number: None,
                });
                i
            }
        };
        if let Some(ds) = self.sources.get_mut(i) {
            for k in keys {
                if self.keys_seen.insert((i, k.clone())) {
                    ds.keys.push(k);
                }
            }
        }
        i
    }

    /// One annotation: adds its source, returns its span (bytes of the part's text).
    fn annotation(
        &mut self,
        a: &Value,
        path: &str,
        ix: &OffsetIndex<'_>,
        encoding: PositionEncoding,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<DraftSpan> {
        let Value::Object(o) = a else {
            diags.push(wrong_type(path, "an annotation object", a));
            return None;
        };
        let mut f = Fields::new(o, path);
        let ty = f.string("type", diags);
        match ty.as_deref() {
            Some("url_citation") => {
                let url = f.string("url", diags);
                let title = f.string("title", diags);
                let s = f.uint("start_index", diags);
                let e = f.uint("end_index", diags);
                let Some(url) = url else {
                    diags.push(missing(&f.path_of("url")));
                    return None;
                };
                let url_text = url.trim().to_string();
                // A url that cannot be linked loses the link only: the page keeps its
                // title and its citation (same raw url, same source).
                let url = match classify_link(&url) {
                    Link::Url(u) => Some(u),
                    Link::Unsafe(scheme) => {
                        diags.push(support::unsafe_url(&f.path_of("url"), &scheme));
                        None
                    }
                    Link::Path(_) | Link::Empty => {
                        diags.push(
                            Diagnostic::warning(
                                "wrong-type",
                                format!(
                                    "`{}` is not a url; the source is kept without a link",
                                    f.path_of("url")
                                ),
                            )
                            .at_path(f.path_of("url")),
                        );
                        None
                    }
                };
                let id = match &url {
                    Some(u) => normalize_url(u),
                    None => {
                        let next = self.unlinked.len() + 1;
                        let n = *self.unlinked.or_insert(url_text, next);
                        format!("unlinked-{n}")
                    }
                };
                let mut src = Source {
                    id,
                    kind: "web".to_string(),
                    title: title.as_deref().and_then(support::title),
                    domain: url.as_deref().and_then(domain_of),
                    url,
                    provider: Some(PROVIDER.to_string()),
                    ..Source::default()
                };
                src.metadata = f.rest();
                let idx = self.add(src, Vec::new());
                let (Some(s), Some(e)) = (s, e) else {
                    // The source stays (listed, uncited): only the citation goes.
                    for key in ["start_index", "end_index"] {
                        if o.get(key).is_none_or(Value::is_null) {
                            let path = f.path_of(key);
                            diags.push(
                                Diagnostic::warning(
                                    "missing-field",
                                    format!("`{path}` is missing; the source is kept without this citation"),
                                )
                                .at_path(path),
                            );
                        }
                    }
                    return None;
                };
                let (bs, be) = support::byte_span(ix, encoding, s, e, path, diags)?;
                let mut span = DraftSpan::new(bs, be, vec![SourceRef::Index(idx)]);
                span.location = Some(Location::UrlCitation {
                    start: Some(s),
                    end: Some(e),
                });
                Some(span)
            }
            Some(ty @ ("file_citation" | "file_path" | "container_file_citation")) => {
                let file_id = f.string("file_id", diags);
                let filename = f.string("filename", diags);
                let Some(id) = file_id
                    .or(filename.clone())
                    .map(|s| clean_text(&s))
                    .filter(|s| !s.is_empty())
                else {
                    diags.push(missing(&f.path_of("file_id")));
                    return None;
                };
                // Any of the three may come with a span or with a point `index`.
                let range = f.uint("start_index", diags).zip(f.uint("end_index", diags));
                let index = f.uint("index", diags);
                let mut src = Source {
                    id,
                    kind: "file".to_string(),
                    title: filename.as_deref().and_then(support::title),
                    provider: Some(PROVIDER.to_string()),
                    ..Source::default()
                };
                src.metadata = f.rest();
                let idx = self.add(src, Vec::new());
                if let Some((s, e)) = range {
                    let (bs, be) = support::byte_span(ix, encoding, s, e, path, diags)?;
                    return Some(DraftSpan::new(bs, be, vec![SourceRef::Index(idx)]));
                }
                let Some(at) = index else {
                    let keys: &[&str] = if ty == "container_file_citation" {
                        &["start_index", "end_index"]
                    } else {
                        &["index"]
                    };
                    for key in keys {
                        if o.get(*key).is_none_or(Value::is_null) {
                            diags.push(missing(&f.path_of(key)));
                        }
                    }
                    return None;
                };
                let p = point(ix, encoding, at, path, diags);
                Some(DraftSpan::new(p, p, vec![SourceRef::Index(idx)]))
            }
            Some(other) => {
                diags.push(
                    Diagnostic::info(
                        "unsupported-item",
                        format!("`{path}` is a `{other}` annotation, which citekit does not read; skipped"),
                    )
                    .at_path(path),
                );
                None
            }
            None => {
                diags.push(missing(&f.path_of("type")));
                None
            }
        }
    }
}

/// A point (file citation `index`) in bytes of `ix`'s text, repaired and reported.
fn point(
    ix: &OffsetIndex<'_>,
    encoding: PositionEncoding,
    at: u64,
    path: &str,
    diags: &mut Vec<Diagnostic>,
) -> usize {
    let (b, problem) = ix.to_byte(usize::try_from(at).unwrap_or(usize::MAX));
    let unit = encoding.name();
    match problem {
        Some(OffsetProblem::OutOfRange) => diags.push(
            Diagnostic::warning(
                "span-out-of-range",
                format!(
                    "`{path}` is at {at} but the text is {} {unit} units long; clamped",
                    ix.len_units()
                ),
            )
            .at_path(path)
            .at(b, b),
        ),
        Some(OffsetProblem::NotOnBoundary) => diags.push(
            Diagnostic::warning(
                "span-not-on-boundary",
                format!("`{path}` is at {at} ({unit}), inside a character; moved to its start"),
            )
            .at_path(path)
            .at(b, b),
        ),
        None => {}
    }
    b
}

/// A `missing-field` warning for a skipped item.
fn missing(path: &str) -> Diagnostic {
    Diagnostic::warning(
        "missing-field",
        format!("`{path}` is missing; the item is skipped"),
    )
    .at_path(path)
}

/// Builds the draft of a ChatGPT message with private-use markers.
fn private_use(answer: Option<&str>, meta: Option<&Map<String, Value>>) -> Draft {
    let mut draft = Draft::new(Format::Openai, answer.unwrap_or(""));
    draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
    let Some(o) = meta else {
        return draft;
    };
    let mut diags = Vec::new();
    let mut b = Builder::default();
    let mut f = Fields::new(o, "");
    match f.value("search_result_groups") {
        Some(Value::Array(groups)) => {
            for (g, group) in groups.iter().enumerate() {
                let gpath = format!("search_result_groups[{g}]");
                let Value::Object(go) = group else {
                    diags.push(wrong_type(&gpath, "a result group", group));
                    continue;
                };
                let domain = go
                    .get("domain")
                    .and_then(Value::as_str)
                    .map(|d| clean_text(d).to_ascii_lowercase())
                    .map(|d| d.strip_prefix("www.").map(str::to_string).unwrap_or(d))
                    .filter(|d| !d.is_empty());
                match go.get("entries") {
                    Some(Value::Array(entries)) => {
                        for (e, entry) in entries.iter().enumerate() {
                            let epath = format!("{gpath}.entries[{e}]");
                            web_entry(&mut b, entry, &epath, domain.as_deref(), &mut diags);
                        }
                    }
                    None | Some(Value::Null) => {}
                    Some(other) => {
                        diags.push(wrong_type(&format!("{gpath}.entries"), "an array", other))
                    }
                }
            }
        }
        Some(other) => diags.push(wrong_type("search_result_groups", "an array", other)),
        None => {}
    }
    match f.value("content_references") {
        Some(Value::Array(refs)) => {
            for (r, cr) in refs.iter().enumerate() {
                let rpath = format!("content_references[{r}]");
                let Value::Object(ro) = cr else {
                    diags.push(wrong_type(&rpath, "a content reference", cr));
                    continue;
                };
                let ty = ro.get("type").and_then(Value::as_str).unwrap_or("");
                let list = match ty {
                    "sources_footnote" => "sources",
                    t if t.starts_with("grouped_webpages") || t == "webpage" => "items",
                    _ => continue,
                };
                let Some(Value::Array(items)) = ro.get(list) else {
                    continue;
                };
                for (i, item) in items.iter().enumerate() {
                    let ipath = format!("{rpath}.{list}[{i}]");
                    web_entry(&mut b, item, &ipath, None, &mut diags);
                    if let Some(Value::Array(more)) = item.get("supporting_websites") {
                        for (m, w) in more.iter().enumerate() {
                            let wpath = format!("{ipath}.supporting_websites[{m}]");
                            web_entry(&mut b, w, &wpath, None, &mut diags);
                        }
                    }
                }
            }
        }
        Some(other) => diags.push(wrong_type("content_references", "an array", other)),
        None => {}
    }
    draft.metadata = f.rest();
    draft.sources = b.sources;
    draft.diagnostics = diags;
    support::cap_sources(&mut draft);
    draft
}

/// Unix seconds (ChatGPT's `pub_date`) as an ISO 8601 UTC time, `2024-10-01T00:00:00Z`.
fn unix_to_iso(secs: f64) -> Option<String> {
    if !secs.is_finite() || !(0.0..=253_402_300_799.0).contains(&secs) {
        return None;
    }
    let secs = secs as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60
    ))
}

/// The ref id of `{turn_index, ref_type, ref_index}` (or a string already written
/// `turn0search0`).
fn ref_id(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => {
            let s = s.trim();
            let ok = !s.is_empty()
                && s.len() <= 64
                && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            ok.then(|| s.to_string())
        }
        Value::Object(o) => {
            let turn = o.get("turn_index").and_then(crate::core::json::as_uint)?;
            let ty = o.get("ref_type").and_then(Value::as_str)?;
            let index = o.get("ref_index").and_then(crate::core::json::as_uint)?;
            let ty_ok = !ty.is_empty()
                && ty.len() <= 32
                && ty.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
            ty_ok.then(|| format!("turn{turn}{ty}{index}"))
        }
        _ => None,
    }
}

/// One search result entry (or content reference item) as a source.
fn web_entry(
    b: &mut Builder,
    entry: &Value,
    path: &str,
    group_domain: Option<&str>,
    diags: &mut Vec<Diagnostic>,
) {
    let Value::Object(o) = entry else {
        diags.push(wrong_type(path, "a search result", entry));
        return;
    };
    let mut f = Fields::new(o, path);
    f.value("type");
    f.value("supporting_websites");
    let mut keys: Vec<String> = Vec::new();
    let mut key_seen = HSet::new();
    let mut ref_type = None;
    if let Some(v) = f.value("ref_id") {
        match ref_id(v) {
            Some(id) => {
                key_seen.insert(id.clone());
                keys.push(id);
            }
            None => diags.push(wrong_type(&f.path_of("ref_id"), "a ref id", v)),
        }
        ref_type = v.get("ref_type").and_then(Value::as_str);
    }
    if let Some(v) = f.value("refs") {
        let list: Vec<&Value> = match v {
            Value::Array(a) => a.iter().collect(),
            other => vec![other],
        };
        for (i, r) in list.into_iter().enumerate() {
            match ref_id(r) {
                Some(id) => {
                    if key_seen.insert(id.clone()) {
                        keys.push(id)
                    }
                }
                None => diags.push(wrong_type(
                    &format!("{}[{i}]", f.path_of("refs")),
                    "a ref id",
                    r,
                )),
            }
            if ref_type.is_none() {
                ref_type = r.get("ref_type").and_then(Value::as_str);
            }
        }
    }
    let mut src = Source {
        kind: if ref_type == Some("file") {
            "file"
        } else {
            "web"
        }
        .to_string(),
        provider: Some(PROVIDER.to_string()),
        ..Source::default()
    };
    if let Some(u) = f.string("url", diags) {
        match classify_link(&u) {
            Link::Url(u) => src.url = Some(u),
            Link::Unsafe(scheme) => diags.push(support::unsafe_url(&f.path_of("url"), &scheme)),
            Link::Path(p) => {
                src.metadata.insert("url".into(), Value::String(p));
            }
            Link::Empty => {}
        }
    }
    if let Some(t) = f.string("title", diags) {
        src.title = support::title(&t);
    }
    if let Some(s) = f.string("snippet", diags) {
        support::set_text(&mut src, &s);
    }
    match f.value("pub_date") {
        Some(Value::Number(n)) => src.published = n.as_f64().and_then(unix_to_iso),
        Some(Value::String(d)) => src.published = support::title(d),
        Some(other) => diags.push(wrong_type(&f.path_of("pub_date"), "a date", other)),
        None => {}
    }
    src.domain = group_domain
        .map(str::to_string)
        .or_else(|| src.url.as_deref().and_then(domain_of));
    for (k, v) in f.rest() {
        src.metadata.entry(k).or_insert(v);
    }
    src.id = match (keys.first(), &src.url) {
        (Some(k), _) => k.clone(),
        (None, Some(u)) => normalize_url(u),
        (None, None) => {
            if src.title.is_none() {
                // Nothing to show and nothing names it.
                return;
            }
            format!("ref-{}", b.sources.len() + 1)
        }
    };
    // An entry whose key is known already is that source, whatever its url.
    let existing = keys.iter().find_map(|k| b.by_id.get(k).copied());
    let keys: Vec<SourceKey> = keys.into_iter().map(SourceKey::Name).collect();
    match existing {
        Some(i) => {
            if let Some(ds) = b.sources.get_mut(i) {
                crate::core::resolve::merge_source(&mut ds.source, src);
                for k in keys {
                    if let SourceKey::Name(n) = &k {
                        b.by_id.or_insert(n.clone(), i);
                    }
                    if b.keys_seen.insert((i, k.clone())) {
                        ds.keys.push(k);
                    }
                }
            }
        }
        None => {
            let names: Vec<String> = keys
                .iter()
                .filter_map(|k| match k {
                    SourceKey::Name(n) => Some(n.clone()),
                    SourceKey::Num(_) => None,
                })
                .collect();
            let i = b.add(src, keys);
            for n in names {
                b.by_id.or_insert(n, i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unix_dates() {
        assert_eq!(unix_to_iso(0.0).as_deref(), Some("1970-01-01T00:00:00Z"));
        assert_eq!(
            unix_to_iso(1_727_740_800.0).as_deref(),
            Some("2024-10-01T00:00:00Z")
        );
        assert_eq!(
            unix_to_iso(951_782_400.0).as_deref(),
            Some("2000-02-29T00:00:00Z")
        );
        assert_eq!(
            unix_to_iso(1_711_843_261.5).as_deref(),
            Some("2024-03-31T00:01:01Z")
        );
        assert_eq!(unix_to_iso(-1.0), None);
        assert_eq!(unix_to_iso(f64::NAN), None);
    }

    #[test]
    fn ref_ids() {
        assert_eq!(
            ref_id(&json!({"turn_index": 0, "ref_type": "search", "ref_index": 3})),
            Some("turn0search3".into())
        );
        assert_eq!(ref_id(&json!("turn2news11")), Some("turn2news11".into()));
        assert_eq!(
            ref_id(&json!({"turn_index": 0, "ref_type": "Se arch", "ref_index": 1})),
            None
        );
        assert_eq!(
            ref_id(&json!({"turn_index": -1, "ref_type": "search", "ref_index": 1})),
            None
        );
        assert_eq!(ref_id(&json!("turn0\u{e201}")), None);
        assert_eq!(ref_id(&json!(3)), None);
    }

    #[test]
    fn utf16_annotations_shift_per_part() {
        let v = json!({"output": [
            {"type": "message", "content": [{"type": "output_text", "text": "😀 ab", "annotations": [
                {"type": "url_citation", "start_index": 3, "end_index": 5, "url": "https://a.example/", "title": "A"}]}]},
            {"type": "message", "content": [{"type": "output_text", "text": "中x", "annotations": [
                {"type": "url_citation", "start_index": 1, "end_index": 2, "url": "https://a.example", "title": "A"},
                {"type": "file_citation", "file_id": "file-1", "filename": "f.pdf", "index": 2}]}]}]});
        let d = parse(None, Some(&v), &Options::default()).unwrap();
        assert_eq!(d.text, "😀 ab\n\n中x");
        assert!(d.metadata.get("other_output").is_none());
        assert_eq!(d.sources.len(), 2);
        let spans: Vec<(usize, usize)> = d.spans.iter().map(|s| (s.start, s.end)).collect();
        assert_eq!(spans, vec![(5, 7), (12, 13), (13, 13)]);
        assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
    }

    /// Output items that are not text (a web search call with its query) are kept in
    /// the metadata.
    #[test]
    fn other_output_items_are_kept() {
        let v = json!({"object": "response", "output": [
            {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "artemis"}},
            {"type": "message", "content": [{"type": "output_text", "text": "Hi.", "annotations": []}]}]});
        let d = parse(None, Some(&v), &Options::default()).unwrap();
        assert_eq!(d.text, "Hi.");
        assert_eq!(
            d.metadata["other_output"][0]["action"]["query"],
            json!("artemis")
        );
    }

    /// Chat Completions with web search (`gpt-4o-search-preview`): the message's
    /// content and its nested `url_citation` annotations, as a whole completion and as
    /// the message alone; detected as openai (not perplexity, whose completions list
    /// `citations`).
    #[test]
    fn chat_completions_annotations() {
        let message = json!({"role": "assistant", "content": "Le ciel est bleu 😀 à Paris.",
            "annotations": [{"type": "url_citation", "url_citation": {
                "start_index": 0, "end_index": 16, "url": "https://meteo.example/ciel", "title": "Météo"}}]});
        let completion = json!({"id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-4o-search-preview",
            "choices": [{"index": 0, "message": message.clone(), "finish_reason": "stop"}]});
        for v in [&completion, &message] {
            assert_eq!(
                crate::core::formats::detect(None, crate::core::formats::Data::Json(v)).unwrap(),
                Format::Openai
            );
            let d = parse(None, Some(v), &Options::default()).unwrap();
            assert_eq!(d.text, "Le ciel est bleu 😀 à Paris.");
            assert_eq!(d.sources.len(), 1);
            assert_eq!(d.sources[0].source.title.as_deref(), Some("Météo"));
            let spans: Vec<&str> = d.spans.iter().map(|s| &d.text[s.start..s.end]).collect();
            assert_eq!(spans, vec!["Le ciel est bleu"]);
            assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
        }
        // A Perplexity completion stays perplexity.
        let pplx = json!({"choices": [{"message": {"content": "x [1]"}}], "citations": ["https://a.example"]});
        assert_eq!(
            crate::core::formats::detect(None, crate::core::formats::Data::Json(&pplx)).unwrap(),
            Format::Perplexity
        );
    }

    /// An Assistants message: its text kept, the `【4:0†source】` markers taken out,
    /// each a point citation of its file (the sentence before it); detected as openai.
    #[test]
    fn assistants_message_file_citations() {
        let v = json!({"id": "msg_1", "object": "thread.message", "role": "assistant", "content": [
            {"type": "text", "text": {"value": "Revenue grew 12% 😀【4:0†source】. Costs fell【4:1†source】.",
             "annotations": [
                {"type": "file_citation", "text": "【4:0†source】", "start_index": 19, "end_index": 31,
                 "file_citation": {"file_id": "file-a"}},
                {"type": "file_citation", "text": "【4:1†source】", "start_index": 43, "end_index": 55,
                 "file_citation": {"file_id": "file-b"}}]}}]});
        assert_eq!(
            crate::core::formats::detect(None, crate::core::formats::Data::Json(&v)).unwrap(),
            Format::Openai
        );
        let d = parse(None, Some(&v), &Options::default()).unwrap();
        assert_eq!(d.text, "Revenue grew 12% 😀. Costs fell.");
        let ids: Vec<&str> = d.sources.iter().map(|s| s.source.id.as_str()).collect();
        assert_eq!(ids, vec!["file-a", "file-b"]);
        let points: Vec<usize> = d.spans.iter().map(|s| s.end).collect();
        assert_eq!(
            points,
            vec![
                "Revenue grew 12% 😀".len(),
                "Revenue grew 12% 😀. Costs fell".len()
            ]
        );
        assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
        // The same points with offsets read as code points or bytes.
        for enc in [PositionEncoding::Utf32, PositionEncoding::Utf8] {
            let o = Options {
                input_encoding: Some(enc),
                ..Options::default()
            };
            let e = parse(None, Some(&v), &o).unwrap();
            let at: Vec<usize> = e.spans.iter().map(|s| s.end).collect();
            assert_eq!(at, points, "{enc:?}");
        }
    }

    #[test]
    fn private_use_sources_merge_by_url_and_key() {
        let meta = json!({"search_result_groups": [{"domain": "example.com", "entries": [
            {"url": "https://example.com/a", "title": "A", "ref_id": {"turn_index": 0, "ref_type": "search", "ref_index": 0}},
            {"url": "https://example.com/a/", "title": "A again", "ref_id": {"turn_index": 0, "ref_type": "news", "ref_index": 1}}]}],
            "content_references": [{"type": "grouped_webpages", "items": [
                {"url": "https://example.com/a", "title": "A", "refs": [{"turn_index": 0, "ref_type": "search", "ref_index": 0}]}]}],
            "model_slug": "gpt-4o"});
        let d = parse(
            Some("x \u{e200}cite\u{e202}turn0search0\u{e201}"),
            Some(&meta),
            &Options::default(),
        )
        .unwrap();
        assert_eq!(d.sources.len(), 1);
        assert_eq!(d.sources[0].source.id, "turn0search0");
        assert_eq!(
            d.sources[0].keys,
            vec![
                SourceKey::Name("turn0search0".into()),
                SourceKey::Name("turn0news1".into())
            ]
        );
        assert_eq!(d.metadata.get("model_slug"), Some(&json!("gpt-4o")));
    }
}
