//! Detection of the format from the data's shape (docs/formats.md, "Detection"), and of
//! an event stream's format from its first events. The order of the checks decides
//! between shapes several formats share.

use crate::core::error::ParseError;
use crate::core::json_fields::parse_json;
use crate::core::model::Format;
use serde_json::Value;

use super::{ai_sdk, detect_rag, is_empty_data, looks_like_sse, platform_stream, sse, Data};
#[cfg(feature = "providers")]
use super::{anthropic_stream, gemini_stream, openai_stream};

/// The format of an event stream: a platform's (by its first event), the AI SDK's UI
/// message stream, Anthropic's, Gemini's, OpenAI's or Perplexity's own stream, or
/// `sse`. One pass over the first 16 KB: the first event whose data is JSON and a
/// platform's event, or has a `type` or an `object` (a UI message stream chunk's,
/// Anthropic's, OpenAI's, or another), or is a Gemini chunk, decides; the same rule
/// the stream parser applies to the first event it reads (`stream::events`).
pub(super) fn stream_format(t: &str) -> Format {
    let head = &t[..crate::core::offsets::floor_boundary(t, 16 * 1024)];
    let mut reader = sse::SseReader::new();
    let mut events = reader.push(head);
    events.extend(reader.finish());
    for ev in &events {
        let Ok(v) = parse_json(ev.data.trim()) else {
            continue;
        };
        if let Some(f) = platform_stream::event_format(&v) {
            return f;
        }
        let ty = v.get("type").and_then(Value::as_str);
        if ty.is_some_and(ai_sdk::is_chunk_type) {
            return Format::AiSdk;
        }
        #[cfg(feature = "providers")]
        match (ty, &v) {
            (Some(t), _) if anthropic_stream::is_event_type(t) => return Format::Anthropic,
            (None, Value::Object(o)) if gemini_stream::is_chunk(o) => return Format::Gemini,
            _ => {}
        }
        if ty.is_some() || v.get("object").is_some() {
            #[cfg(feature = "providers")]
            if let Some(kind) = openai_stream::stream_kind(&v) {
                return match kind {
                    openai_stream::StreamKind::Perplexity => Format::Perplexity,
                    _ => Format::Openai,
                };
            }
            if ty.is_some() {
                return Format::Sse;
            }
        }
    }
    Format::Sse
}

/// Detects the format from the shape of the data (docs/formats.md, "Detection").
pub fn detect(answer: Option<&str>, data: Data<'_>) -> Result<Format, ParseError> {
    let v = match data {
        Data::None => {
            return Ok(
                if answer.is_some_and(|a| crate::core::str_ops::has_char(a, '\u{e200}')) {
                    Format::Openai
                } else {
                    Format::Markdown
                },
            )
        }
        Data::Text(t) if looks_like_sse(t) => return Ok(stream_format(t)),
        Data::Text(_) => {
            return Err(ParseError::Undetected(
                "the data is text but not an event stream".into(),
            ))
        }
        Data::Json(v) => v,
    };
    let has = |o: &serde_json::Map<String, Value>, k: &str| o.get(k).is_some_and(|v| !v.is_null());
    // Before every other shape: a parts array holds `text` items, as Anthropic's content
    // does, and must not be read as that.
    if ai_sdk::detect(v) {
        // @llamaindex/chat-ui's message is one, with `data-sources` parts.
        return Ok(detect_rag::chat_ui_message(v).unwrap_or(Format::AiSdk));
    }
    // Before the providers' shapes, which the platforms' resemble.
    if let Value::Object(o) = v {
        if let Some(f) = platform_object(o) {
            return Ok(f);
        }
    }
    if let Some(f) = detect_rag::detect(v) {
        return Ok(f);
    }
    match v {
        Value::Null => Ok(Format::Markdown),
        Value::String(s) if looks_like_sse(s) => Ok(stream_format(s)),
        Value::Object(o) => {
            if has(o, "candidates")
                || has(o, "groundingMetadata")
                || has(o, "grounding_metadata")
                || has(o, "promptFeedback")
            {
                return Ok(Format::Gemini);
            }
            if has(o, "choices") {
                // OpenAI's Chat Completions with web search annotate the message;
                // Perplexity's completions list `citations` / `search_results`.
                let annotated = o
                    .get("choices")
                    .and_then(|c| c.get(0))
                    .and_then(|c| c.get("message"))
                    .and_then(|m| m.get("annotations"))
                    .and_then(Value::as_array)
                    .is_some_and(|a| !a.is_empty());
                if annotated && !has(o, "citations") && !has(o, "search_results") {
                    return Ok(Format::Openai);
                }
                return Ok(Format::Perplexity);
            }
            if has(o, "output")
                || has(o, "annotations")
                || o.get("object").and_then(Value::as_str) == Some("thread.message")
                || has(o, "search_result_groups")
                || has(o, "content_references")
                || o.get("type").and_then(Value::as_str) == Some("output_text")
                || o.get("object").and_then(Value::as_str) == Some("response")
            {
                return Ok(Format::Openai);
            }
            if o.get("content").is_some_and(Value::is_array)
                && (o.get("role").and_then(Value::as_str) == Some("assistant")
                    || o.get("type").and_then(Value::as_str) == Some("message")
                    || has(o, "stop_reason"))
            {
                return Ok(Format::Anthropic);
            }
            if has(o, "citation_map") || has(o, "citationMap") {
                return Ok(Format::CitationMap);
            }
            if has(o, "references") {
                return Ok(Format::Stored);
            }
            if o.get("citations")
                .and_then(Value::as_array)
                .is_some_and(|a| a.iter().any(|c| c.get("claim").is_some()))
            {
                return Ok(Format::Posthoc);
            }
            // Perplexity's citation urls (or search results) without the completion.
            if has(o, "search_results")
                || o.get("citations")
                    .and_then(Value::as_array)
                    .is_some_and(|a| !a.is_empty() && a.iter().all(Value::is_string))
            {
                return Ok(Format::Perplexity);
            }
            if has(o, "sources_used") || (has(o, "ok") && has(o, "content")) {
                return Ok(Format::Canonical);
            }
            if o.get("sources").is_some()
                && (has(o, "text")
                    || o.get("sources").and_then(Value::as_array).is_some_and(|a| {
                        a.iter().any(|s| {
                            s.get("citedText").is_some()
                                || s.get("location").is_some()
                                || s.get("provider").is_some()
                        })
                    }))
            {
                return Ok(Format::Payload);
            }
            if !o.is_empty()
                && o.keys()
                    .all(|k| crate::core::str_ops::uint(k.trim()).is_some())
            {
                return Ok(Format::CitationMap);
            }
            if o.get("sources")
                .and_then(Value::as_array)
                .is_some_and(|a| a.iter().any(|s| s.get("sid").is_some()))
            {
                return Ok(Format::Canonical);
            }
            if has(o, "sources")
                && o.get("sources")
                    .and_then(Value::as_array)
                    .is_some_and(|a| a.iter().any(|s| s.get("id").is_some()))
            {
                return Ok(Format::Stored);
            }
            // `{}` or `{"sources": []}`: no citation data yet (a chat UI's starting
            // value), whatever format it will be.
            if is_empty_data(v) {
                return Ok(Format::Markdown);
            }
            let keys: Vec<String> = o
                .keys()
                .take(8)
                .map(|k| format!("\"{}\"", crate::core::untrusted_text::escape_literal(k)))
                .collect();
            Err(ParseError::Undetected(format!(
                "no format has an object with the keys [{}]",
                crate::core::str_ops::join(&mut keys.iter().map(String::as_str), ", ")
            )))
        }
        Value::Array(a) => {
            let first = a.iter().find(|x| x.is_object());
            let Some(Value::Object(f)) = first else {
                return if a.is_empty() {
                    Ok(Format::Markdown)
                } else {
                    Err(ParseError::Undetected(
                        "an array with no objects in it".into(),
                    ))
                };
            };
            if f.contains_key("sid") {
                return Ok(Format::Canonical);
            }
            if ["urls", "titles", "identifiers", "source_type"]
                .iter()
                .any(|k| f.contains_key(*k))
            {
                return Ok(Format::Scintilla);
            }
            if f.get("type").and_then(Value::as_str).is_some()
                && (f.contains_key("text") || f.contains_key("citations"))
            {
                if f.get("type").and_then(Value::as_str) == Some("output_text") {
                    return Ok(Format::Openai);
                }
                return Ok(Format::Anthropic);
            }
            if f.contains_key("claim") {
                return Ok(Format::Posthoc);
            }

            // Output items or content blocks whose first item is not text (a
            // `reasoning` item, a `thinking` block): look at every item's type.
            let types = || {
                a.iter()
                    .filter_map(|x| x.get("type").and_then(Value::as_str))
            };
            if types().any(|t| matches!(t, "message" | "output_text")) {
                return Ok(Format::Openai);
            }
            if types().any(|t| t == "text") {
                return Ok(Format::Anthropic);
            }
            Err(ParseError::Undetected(
                "an array whose items match no format".into(),
            ))
        }
        other => Err(ParseError::Undetected(format!(
            "the data is {}",
            crate::core::json_fields::type_name(other)
        ))),
    }
}

/// A platform's response (docs/formats.md, "Detection"): Cohere's (a `message` with
/// `content` or `citations`, or a message whose `citations` have `sources` and
/// `start`), Bedrock Converse's (`output.message`, or a message whose content blocks
/// are Converse's), Bedrock Knowledge Bases' (`output.text`). OpenAI's `output` is an
/// array, Anthropic's blocks have a `type`: neither is taken for these.
fn platform_object(o: &serde_json::Map<String, Value>) -> Option<Format> {
    let output = o.get("output").and_then(Value::as_object);
    if output.is_some_and(|out| out.get("message").is_some_and(Value::is_object)) {
        return Some(Format::BedrockConverse);
    }
    if output.is_some_and(|out| out.get("text").is_some_and(Value::is_string)) {
        return Some(Format::BedrockKb);
    }
    // Cohere's citations carry their `sources` with their offsets (Anthropic's sit in
    // the text blocks); its response has a `finish_reason`.
    let cohere_citations = |citations: Option<&Value>| {
        citations
            .and_then(|c| c.get(0))
            .is_some_and(|c| c.get("sources").is_some() && c.get("start").is_some())
    };
    if let Some(m) = o.get("message").filter(|m| m.is_object()) {
        if cohere_citations(m.get("citations")) || has_any(o, &["finish_reason", "finishReason"]) {
            return Some(Format::Cohere);
        }
    }
    if cohere_citations(o.get("citations")) {
        return Some(Format::Cohere);
    }
    if o.get("content")
        .and_then(Value::as_array)
        .is_some_and(|a| converse_blocks(a))
    {
        return Some(Format::BedrockConverse);
    }
    None
}

/// Whether `o` has any of `keys`.
fn has_any(o: &serde_json::Map<String, Value>, keys: &[&str]) -> bool {
    keys.iter().any(|k| o.contains_key(*k))
}

/// Whether an array is Bedrock Converse content: blocks without a `type`, one of them
/// with a member only Converse has (`citationsContent`, `toolUse`, `reasoningContent`,
/// ...). Blocks that are all plain `{text}` say nothing of their format.
fn converse_blocks(a: &[Value]) -> bool {
    const MEMBERS: [&str; 5] = [
        "citationsContent",
        "toolUse",
        "toolResult",
        "reasoningContent",
        "guardContent",
    ];
    let untyped = |x: &Value| x.as_object().is_some_and(|b| !b.contains_key("type"));
    !a.is_empty()
        && a.iter().all(untyped)
        && a.iter().any(|x| {
            MEMBERS
                .iter()
                .any(|k| x.get(*k).is_some_and(Value::is_object))
        })
}
