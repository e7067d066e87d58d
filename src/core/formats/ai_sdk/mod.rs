//! The `ai-sdk` format (docs/formats.md): what the Vercel AI SDK (`ai`, `useChat`)
//! hands an app. Three shapes of one thing:
//!
//! - a `UIMessage` `{id, role, metadata?, parts: [...]}`;
//! - its `parts` array;
//! - an array of `UIMessage`s: the last assistant message is the answer;
//!
//! and its **UI message stream**, the server-sent events `toUIMessageStream` writes
//! (`data: {"type":"text-delta","id":"0","delta":"Paris"}`, ..., `data: [DONE]`),
//! given whole to `parse` or appended raw to a stream ([`StreamAccumulator`]).
//!
//! Parts, by `type`:
//! - `text` `{text, state?, providerMetadata?}`: the answer is every text part's text,
//!   in order. A text part that follows a `step-start` or any other part that is not
//!   text or a source (reasoning, a tool call, a file, data) since the last text starts
//!   a new paragraph: a blank line is put between, unless the text so far already ends
//!   with one;
//! - `source-url` `{sourceId, url, title?, providerMetadata?}` and `source-document`
//!   `{sourceId, mediaType, title, filename?, providerMetadata?}`: the sources, in
//!   order, one per url (or, for a document, per `fileId` its provider gave, else per
//!   title and file name); a url that cannot be linked is reported (`unsafe-url`) and
//!   the source kept without a link. Markers in the text (every form of the grammar,
//!   `[1]`, `[1][2]`, `[1, 2]`, `【1】`, ...) name them by that order, 1-based, as
//!   Perplexity answers through the AI SDK carry them;
//! - `step-start`, `reasoning`, `tool-<name>`, `dynamic-tool`, `file`, `data-<name>`
//!   and any other type: not text; kept in the answer's metadata as `other_parts`.
//!
//! Where a provider left its own positions, the citations are placed from them by that
//! provider's parser (`openai`, `anthropic`, `gemini`), with its offset unit, over the
//! text part (or the step's text) they index:
//! - a text part's `providerMetadata.<provider>.annotations` (`@ai-sdk/openai`'s
//!   Responses models copy the `output_text` annotations there): `url_citation`
//!   `start_index..end_index` in UTF-16 units of that part, `file_citation` points;
//! - a text part's `providerMetadata.anthropic.citations` (`@ai-sdk/anthropic` copies a
//!   text block's citations there: web search results, and with `ai` 7 document
//!   locations too): the part is the span, `cited_text` its quote;
//! - a `groundingMetadata` object in the message's `metadata` (`@ai-sdk/google` reports
//!   it as the step's provider metadata, which an app forwards with `messageMetadata`):
//!   its supports index the last step's text in UTF-8 bytes;
//! - without those, a text part's own `citations` (`ai` 7: `{source, startIndex?,
//!   endIndex?, citedText?}`): spans in UTF-16 units of the part, or the whole part;
//! - without any of those, a `source-document` part's
//!   `providerMetadata.anthropic.citedText` (with `startCharIndex`/`endCharIndex` or
//!   `startPageNumber`/`endPageNumber`), which `@ai-sdk/anthropic` emits for a document
//!   citation while the cited text block streams: the span is that text part (the last
//!   one started before the source).
//!
//! Sources with neither a marker nor a position stay sources of the whole answer:
//! `cited: false`, `scope: "answer"`, listed in the panel and, after the cited ones,
//! in the footnotes. Without the `providers` feature the provider parsers are not
//! there: the text, the sources, the markers and the parts' own `citations` are read,
//! and positions only a provider's parser reads give a `format-not-loaded` error.
//!
//! Both shapes are read by one `Builder`, a message part by part and a stream chunk
//! by chunk ([`StreamAccumulator`], `stream.rs`), so a stream ends as `parse` of the
//! message it makes.

use crate::core::draft::Draft;
use crate::core::error::ParseError;
use crate::core::formats::sse::{whole_stream_events, SseReader};
use crate::core::formats::support::{self};
use crate::core::json_fields::{parse_json, type_name, Fields};
use crate::core::model::Format;
use crate::core::offsets::floor_boundary;
use crate::core::options::Options;
use serde_json::{Map, Value};

mod builder;
mod sources;
mod stream;

use builder::Builder;
use sources::object;
pub use stream::StreamAccumulator;

/// The chunk types of the UI message stream (`ui-message-chunks.ts`); `tool-*` and
/// `data-*` are matched by prefix.
const CHUNK_TYPES: [&str; 18] = [
    "start",
    "start-step",
    "text-start",
    "text-delta",
    "text-end",
    "reasoning-start",
    "reasoning-delta",
    "reasoning-end",
    "source-url",
    "source-document",
    "finish-step",
    "finish",
    "abort",
    "message-metadata",
    "reasoning-file",
    "custom",
    "file",
    "reset-step",
];

/// Part types only a `UIMessage` has (`text` and `reasoning` parts are told by `state`
/// or `providerMetadata`; `tool-*` and `data-*` by prefix).
const PART_TYPES: [&str; 5] = [
    "source-url",
    "source-document",
    "step-start",
    "dynamic-tool",
    "reasoning-file",
];

/// Whether `t` is a chunk type of the UI message stream.
pub fn is_chunk_type(t: &str) -> bool {
    CHUNK_TYPES.contains(&t) || t.starts_with("tool-") || t.starts_with("data-")
}

/// Whether a JSON value is one part of a `UIMessage` that no other format has.
fn is_distinct_part(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    let Some(t) = o.get("type").and_then(Value::as_str) else {
        return false;
    };
    PART_TYPES.contains(&t)
        || (t.starts_with("tool-") && o.contains_key("toolCallId"))
        || (t.starts_with("data-") && o.contains_key("data"))
        || (matches!(t, "text" | "reasoning")
            && o.get("text").is_some_and(Value::is_string)
            && (o.get("state").is_some_and(Value::is_string)
                || o.get("providerMetadata").is_some_and(Value::is_object)))
}

/// Whether a JSON value is a `UIMessage`: `parts` an array whose items have a string
/// `type` (Gemini's `Content` has `parts` without types), or an empty one with a role.
pub fn is_message(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    let Some(parts) = o.get("parts").and_then(Value::as_array) else {
        return false;
    };
    if parts.is_empty() {
        return matches!(
            o.get("role").and_then(Value::as_str),
            Some("assistant" | "user" | "system")
        ) && o.contains_key("id");
    }
    parts
        .iter()
        .any(|p| p.get("type").is_some_and(Value::is_string))
}

/// Whether JSON data is AI SDK data: a message, an array of messages, or a parts array
/// with at least one part no other format has.
pub fn detect(v: &Value) -> bool {
    match v {
        Value::Object(_) => is_message(v),
        Value::Array(a) => {
            a.iter().any(is_message)
                || (a.iter().any(is_distinct_part)
                    && a.iter()
                        .all(|p| p.get("type").is_some_and(Value::is_string)))
        }
        _ => false,
    }
}

/// Whether an event stream is a UI message stream: its first event whose data is a
/// JSON object with a `type` has a chunk type of the AI SDK. Only the first events are
/// read (at most 16 KB).
pub fn is_ui_message_stream(stream: &str) -> bool {
    let head = &stream[..floor_boundary(stream, 16 * 1024)];
    let mut reader = SseReader::new();
    let mut events = reader.push(head);
    events.extend(reader.finish());
    events
        .iter()
        .find_map(|ev| {
            let v = parse_json(ev.data.trim()).ok()?;
            v.get("type").and_then(Value::as_str).map(is_chunk_type)
        })
        .unwrap_or(false)
}

/// Parses a `UIMessage`, its parts or an array of messages into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    options: &Options,
) -> Result<Draft, ParseError> {
    let not_format = |msg: String| Err(ParseError::not_format(Format::AiSdk, "$", msg));
    let (message, prefix): (Option<&Map<String, Value>>, String) = match data {
        // No data yet (a view that streams the UI message stream starts so, as `sse`
        // does): no text, no sources, no error.
        None | Some(Value::Null) => {
            let mut draft = Builder::new(options).finish();
            if let Some(a) = answer {
                draft.text = a.to_string();
            }
            return Ok(draft);
        }
        Some(Value::Object(o)) => (Some(o), String::new()),
        Some(Value::Array(a)) => {
            // An array of messages (useChat's `messages`): the last assistant one. Before
            // the first answer there is none: no text yet (not the user's question).
            if a.iter().any(is_message) {
                let last = a.iter().enumerate().rev().find(|(_, m)| {
                    is_message(m) && m.get("role").and_then(Value::as_str) == Some("assistant")
                });
                match last {
                    Some((i, Value::Object(o))) => (Some(o), format!("[{i}]")),
                    _ => {
                        let mut draft = Builder::new(options).finish();
                        if let Some(a) = answer {
                            support::use_caller_text(&mut draft, a);
                        }
                        return Ok(draft);
                    }
                }
            } else {
                (None, String::new())
            }
        }
        Some(other) => {
            return not_format(format!(
                "expected a UIMessage, its parts or an array of messages, found {}",
                type_name(other)
            ))
        }
    };
    let mut b = Builder::new(options);
    let parts: Vec<&Value> = match (message, data) {
        (Some(o), _) => {
            let mut f = Fields::new(o, prefix.clone());
            let parts = match f.value("parts") {
                Some(Value::Array(a)) => a.iter().collect(),
                Some(other) => {
                    return not_format(format!(
                        "expected `parts` to be an array, found {}",
                        type_name(other)
                    ))
                }
                None => return not_format("expected a UIMessage with `parts`".into()),
            };
            if let Some(m) = f.value("metadata") {
                b.message_metadata = Some(m.clone());
            }
            b.draft.metadata = f.rest();
            parts
        }
        (None, Some(Value::Array(a))) => a.iter().collect(),
        _ => Vec::new(),
    };
    let part_path = |i: usize| {
        if prefix.is_empty() && message.is_none() {
            format!("[{i}]")
        } else if prefix.is_empty() {
            format!("parts[{i}]")
        } else {
            format!("{prefix}.parts[{i}]")
        }
    };
    for (i, part) in parts.iter().enumerate() {
        b.part(part, &part_path(i));
    }
    let mut draft = b.finish();
    if let Some(a) = answer {
        support::use_caller_text(&mut draft, a);
    }
    Ok(draft)
}

/// The answer text of a message, its parts or an array of messages, as [`parse`] reads
/// it (raw: markers still in): its text parts joined, a paragraph break where a step
/// or another part came between. Empty when the value is not such data. A view given
/// the message again on every render (`useChat`) compares it with the text it shows.
pub fn answer_text(v: &Value) -> String {
    parse(None, Some(v), &Options::default())
        .map(|d| d.text)
        .unwrap_or_default()
}

/// Parses a whole UI message stream into a draft.
pub fn parse_stream(stream: &str, options: &Options) -> Result<Draft, ParseError> {
    let (events, limit) = whole_stream_events(stream, Format::AiSdk)?;
    let mut acc = StreamAccumulator::new(options);
    for ev in &events {
        acc.event(ev);
    }
    let mut draft = acc.finish();
    if let Some(d) = limit {
        draft.diagnostics.insert(0, d);
    }
    Ok(draft)
}

#[cfg(test)]
mod tests;
