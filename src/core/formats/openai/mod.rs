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

use crate::core::draft::Draft;
use crate::core::error::ParseError;
use crate::core::formats::support::{self};
use crate::core::json_fields::{type_name, wrong_type, Fields};
use crate::core::markers::TextSyntax;
use crate::core::model::{Diagnostic, Format};
use crate::core::offsets::{OffsetIndex, PositionEncoding};
use crate::core::options::Options;
use serde_json::{Map, Value};

mod builder;
mod private_use;

pub(crate) use builder::Builder;
use private_use::private_use;

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
                || answer.is_some_and(|a| crate::core::str_ops::has_char(a, '\u{e200}'))
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
                .then(|| crate::core::str_ops::find_str(&value[from..], marker))
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

#[cfg(test)]
mod tests;
