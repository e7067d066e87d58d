//! The `cohere` format: a Cohere Chat v2 response (`POST /v2/chat`, API reference
//! "Chat"), as the `cohere-ai` SDK hands it back (camelCase keys: `finishReason`,
//! `contentIndex`, `toolOutput`) or as the raw JSON (snake_case), or just its
//! `message`; also its stream (`chatStream`'s events, forwarded as `data:` lines).
//!
//! - The text is every `text` item of `message.content`, in order (other items, such
//!   as `thinking`, are kept in the answer's metadata as `other_content`).
//! - Each of `message.citations[]` (`{start, end, text, sources, type, content_index}`)
//!   is an explicit span over the content item `content_index` (0 when absent). The
//!   unit of `start`/`end` is not documented; citekit reads them as Unicode code
//!   points (Cohere's API is served from Python) and lets the citation's `text`, the
//!   answer text it covers, decide when another unit fits (`quoted_span`). Citations of
//!   type `PLAN` or `THINKING_CONTENT` index the tool plan or the thinking, not the
//!   answer: their sources are kept, uncited by them, with a `span-not-placed` info.
//! - Each source (`{type: "document", id, document}` or `{type: "tool", id,
//!   tool_output}`) is one source per `id` however often it is cited: kind `document`
//!   or `tool`; the document's `title`, `url`, `snippet` / `text` are read as any
//!   source's, its other fields kept in `metadata`; a tool output's `title`, `url`,
//!   `text` likewise.
//! - The stream: `message-start`, `content-start`, `content-delta` (text),
//!   `citation-start` (one citation), `citation-end`, `tool-plan-delta`,
//!   `tool-call-*`, `message-end`, rebuilt into the response the same stream makes;
//!   at its end the draft equals `parse` of that response.

use crate::core::draft::{Draft, DraftSource, DraftSpan, SourceRef};
use crate::core::error::ParseError;
use crate::core::formats::quoted_span::quoted_span;
use crate::core::formats::support::{self, SourceReader};
use crate::core::json_fields::{type_name, wrong_type, Fields};
use crate::core::markers::TextSyntax;
use crate::core::model::{Diagnostic, Format};
use crate::core::offsets::PositionEncoding;
use crate::core::options::Options;
use crate::core::ordered_hash::OrderedHashMap;
use serde_json::{Map, Value};

/// Parses `cohere` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    options: &Options,
) -> Result<Draft, ParseError> {
    let not_format = |msg: String| Err(ParseError::not_format(Format::Cohere, "$", msg));
    let Some(Value::Object(o)) = data else {
        return not_format(format!(
            "expected a Chat v2 response or its `message`, found {}",
            data.map_or("no data", type_name)
        ));
    };
    let mut meta = Map::new();
    let (message, prefix) = match o.get("message") {
        Some(Value::Object(m)) => {
            for (k, v) in o {
                if k != "message" {
                    meta.insert(k.clone(), v.clone());
                }
            }
            (m, "message.")
        }
        Some(other) => {
            return not_format(format!(
                "expected `message` to be an object, found {}",
                type_name(other)
            ))
        }
        None if o.contains_key("content") || o.contains_key("citations") => (o, ""),
        None => return not_format("expected a response with a `message`".into()),
    };
    let mut draft = Draft::new(Format::Cohere, "");
    draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
    let mut f = Fields::new(message, prefix.trim_end_matches('.'));
    // Content items: where each text item starts in the text.
    let mut starts: Vec<Option<(usize, usize)>> = Vec::new();
    let mut other = Vec::new();
    match f.value("content") {
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                let text = match item {
                    Value::Object(io)
                        if io
                            .get("type")
                            .and_then(Value::as_str)
                            .is_none_or(|t| t == "text") =>
                    {
                        io.get("text").and_then(Value::as_str)
                    }
                    _ => None,
                };
                match text {
                    Some(t) => {
                        let s = draft.text.len();
                        draft.text.push_str(t);
                        starts.push(Some((s, draft.text.len())));
                    }
                    None => {
                        if !item.is_object() {
                            draft.diagnostics.push(wrong_type(
                                &format!("{prefix}content[{i}]"),
                                "a content item",
                                item,
                            ));
                        } else {
                            other.push(item.clone());
                        }
                        starts.push(None);
                    }
                }
            }
        }
        // A plain string content (as in requests).
        Some(Value::String(s)) => {
            draft.text.push_str(s);
            starts.push(Some((0, s.len())));
        }
        Some(Value::Null) | None => {}
        Some(v) => draft.diagnostics.push(wrong_type(
            &format!("{prefix}content"),
            "an array of content items",
            v,
        )),
    }
    let mut sources = Sources::default();
    if let Some(v) = f.value("citations") {
        match v {
            Value::Array(cs) => {
                for (i, c) in cs.iter().enumerate() {
                    let path = format!("{prefix}citations[{i}]");
                    citation(c, &path, &starts, options, &mut draft, &mut sources);
                }
            }
            Value::Null => {}
            other => {
                draft
                    .diagnostics
                    .push(wrong_type(&format!("{prefix}citations"), "an array", other))
            }
        }
    }
    for (k, v) in f.rest() {
        meta.insert(k, v);
    }
    if !other.is_empty() {
        meta.insert("other_content".into(), Value::Array(other));
    }
    draft.metadata = meta;
    draft.sources = sources.list;
    if let Some(a) = answer {
        support::use_caller_text(&mut draft, a);
    }
    support::cap_sources(&mut draft);
    support::cap_spans(&mut draft);
    Ok(draft)
}

/// The sources read so far, one per `id`.
#[derive(Default)]
struct Sources {
    list: Vec<DraftSource>,
    by_id: OrderedHashMap<String, usize>,
}

/// Reads one citation into a span (or, when it cannot be placed, its sources only).
fn citation(
    c: &Value,
    path: &str,
    starts: &[Option<(usize, usize)>],
    options: &Options,
    draft: &mut Draft,
    sources: &mut Sources,
) {
    let Value::Object(o) = c else {
        draft.diagnostics.push(wrong_type(path, "a citation", c));
        return;
    };
    let diags = &mut draft.diagnostics;
    let mut f = Fields::new(o, path);
    let start = f.uint("start", diags);
    let end = f.uint("end", diags);
    let quote = f.string("text", diags);
    let ty = f.string("type", diags);
    let index = f
        .uint_any(&["content_index", "contentIndex"], diags)
        .unwrap_or(0);
    let mut refs = Vec::new();
    match f.value("sources") {
        Some(Value::Array(list)) => {
            for (j, s) in list.iter().enumerate() {
                if let Some(i) = source(s, &format!("{path}.sources[{j}]"), diags, sources) {
                    let r = SourceRef::Index(i);
                    if !refs.contains(&r) {
                        refs.push(r);
                    }
                }
            }
        }
        Some(other) => diags.push(wrong_type(&f.path_of("sources"), "an array", other)),
        None => {}
    }
    if refs.is_empty() {
        diags.push(
            Diagnostic::warning(
                "missing-field",
                format!("`{path}` names no source; skipped"),
            )
            .at_path(path),
        );
        return;
    }
    if let Some(t) = ty.as_deref().filter(|t| *t != "TEXT_CONTENT") {
        diags.push(
            Diagnostic::info(
                "span-not-placed",
                format!("`{path}` is a `{t}` citation, which cites the tool plan or the thinking, not the answer; its sources are kept"),
            )
            .at_path(path),
        );
        return;
    }
    let block = usize::try_from(index)
        .ok()
        .and_then(|i| starts.get(i).copied().flatten());
    let (Some(start), Some(end), Some((base, block_end))) = (start, end, block) else {
        let what = if block.is_none() {
            format!("its content item {index} is not a text item")
        } else {
            "it has no `start`/`end`".to_string()
        };
        diags.push(
            Diagnostic::warning(
                "span-not-placed",
                format!("`{path}` cannot be placed: {what}; its sources are kept"),
            )
            .at_path(path),
        );
        return;
    };
    let text = &draft.text[base..block_end];
    let Some((s, e)) = quoted_span(
        text,
        (start, end),
        quote.as_deref(),
        PositionEncoding::Utf32,
        options.input_encoding,
        path,
        diags,
    ) else {
        return;
    };
    support::push_span(draft, DraftSpan::new(base + s, base + e, refs));
}

/// One cited source: its index, created on first sight of its `id`.
fn source(
    s: &Value,
    path: &str,
    diags: &mut Vec<Diagnostic>,
    sources: &mut Sources,
) -> Option<usize> {
    let Value::Object(o) = s else {
        diags.push(wrong_type(path, "a source", s));
        return None;
    };
    let kind = o.get("type").and_then(Value::as_str).unwrap_or("document");
    let (key, body) = match kind {
        "tool" => (
            "tool_output",
            o.get("tool_output").or_else(|| o.get("toolOutput")),
        ),
        _ => ("document", o.get("document")),
    };
    let id = o
        .get("id")
        .and_then(support::id_text)
        .or_else(|| body.and_then(|b| b.get("id")).and_then(support::id_text));
    let Some(id) = id else {
        diags.push(support::missing(&format!("{path}.id")));
        return None;
    };
    if let Some(&i) = sources.by_id.get(&id) {
        return Some(i);
    }
    let empty = Map::new();
    let body_map = match body {
        Some(Value::Object(b)) => b,
        Some(other) => {
            diags.push(wrong_type(&format!("{path}.{key}"), "an object", other));
            &empty
        }
        None => &empty,
    };
    let mut r = SourceReader::new(body_map, format!("{path}.{key}"));
    r.fields.value("id");
    r.common(diags);
    let mut src = r.finish(if kind == "tool" { "tool" } else { "document" });
    if src.url.is_none() {
        src.kind = if kind == "tool" { "tool" } else { "document" }.to_string();
    }
    src.id = id.clone();
    src.provider = src.provider.or_else(|| Some("cohere".to_string()));
    let i = sources.list.len();
    sources.list.push(support::numbered(src, None));
    sources.by_id.insert(id, i);
    Some(i)
}

/// Applies one stream event to the response it rebuilds (`{id, message: {role,
/// content, citations, tool_plan, tool_calls}, finish_reason, usage}`). Returns the
/// text a `content-delta` added at the end of the text, when that is all it did.
pub(crate) fn apply_event(response: &mut Value, event: &Map<String, Value>) -> Option<String> {
    let Value::Object(r) = response else {
        return None;
    };
    let ty = event.get("type").and_then(Value::as_str).unwrap_or("");
    let delta_message = event
        .get("delta")
        .and_then(|d| d.get("message"))
        .and_then(Value::as_object);
    let index = event
        .get("index")
        .and_then(crate::core::json_fields::as_uint)
        .and_then(|i| usize::try_from(i).ok());
    match ty {
        "message-start" => {
            if let Some(id) = event.get("id") {
                r.insert("id".into(), id.clone());
            }
        }
        "message-end" => {
            if let Some(Value::Object(d)) = event.get("delta") {
                for (k, v) in d {
                    r.insert(k.clone(), v.clone());
                }
            }
            return None;
        }
        _ => {}
    }
    let Value::Object(m) = r
        .entry("message")
        .or_insert_with(|| Value::Object(Map::new()))
    else {
        return None;
    };
    match ty {
        "message-start" => {
            for (k, v) in delta_message.into_iter().flatten() {
                if !matches!(v, Value::Array(a) if a.is_empty()) {
                    m.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
        }
        "content-start" | "content-delta" => {
            let item = delta_message.and_then(|d| d.get("content"))?;
            let i = index?;
            let content = array(m, "content")?;
            if i > content.len() + super::bedrock::MAX_INDEX_GAP {
                return None;
            }
            while content.len() <= i {
                content.push(Value::Object(Map::new()));
            }
            let last = i + 1 == content.len();
            let Value::Object(slot) = &mut content[i] else {
                return None;
            };
            let mut added = None;
            if let Value::Object(it) = item {
                for (k, v) in it {
                    match (slot.get_mut(k), v) {
                        (Some(Value::String(old)), Value::String(more))
                            if ty == "content-delta" =>
                        {
                            old.push_str(more);
                            if k == "text" {
                                added = Some(more.clone());
                            }
                        }
                        _ => {
                            slot.insert(k.clone(), v.clone());
                            if ty == "content-delta" && k == "text" {
                                added = v.as_str().map(str::to_string);
                            }
                        }
                    }
                }
            }
            let is_text = slot
                .get("type")
                .and_then(Value::as_str)
                .is_none_or(|t| t == "text");
            return added.filter(|_| last && is_text && ty == "content-delta");
        }
        "citation-start" => {
            if let Some(c) = delta_message.and_then(|d| d.get("citations")) {
                array(m, "citations")?.push(c.clone());
            }
        }
        "tool-plan-delta" => {
            if let Some(t) = delta_message
                .and_then(|d| d.get("tool_plan").or_else(|| d.get("toolPlan")))
                .and_then(Value::as_str)
            {
                match m.get_mut("tool_plan") {
                    Some(Value::String(p)) => p.push_str(t),
                    _ => {
                        m.insert("tool_plan".into(), Value::String(t.to_string()));
                    }
                }
            }
        }
        "tool-call-start" | "tool-call-delta" => {
            let call = delta_message
                .and_then(|d| d.get("tool_calls").or_else(|| d.get("toolCalls")))
                .cloned()?;
            let calls = array(m, "tool_calls")?;
            if ty == "tool-call-start" {
                calls.push(call);
            } else if let Some(Value::Object(last)) = calls.last_mut() {
                let more = call
                    .get("function")
                    .and_then(|f| f.get("arguments"))
                    .and_then(Value::as_str)
                    .unwrap_or("");
                if let Some(Value::String(args)) = last
                    .get_mut("function")
                    .and_then(|f| f.get_mut("arguments"))
                {
                    args.push_str(more);
                }
            }
        }
        _ => {}
    }
    None
}

/// The array at `key` of `m`, made when missing (or not an array).
fn array<'a>(m: &'a mut Map<String, Value>, key: &str) -> Option<&'a mut Vec<Value>> {
    let slot = m
        .entry(key.to_string())
        .or_insert_with(|| Value::Array(Vec::new()));
    if !slot.is_array() {
        *slot = Value::Array(Vec::new());
    }
    slot.as_array_mut()
}
