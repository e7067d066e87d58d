//! Detection of the RAG platforms' shapes (docs/formats.md, "Detection"): Azure OpenAI
//! On Your Data, Mistral, xAI, LlamaIndex and LangChain. Always compiled, also where the
//! `platforms` feature leaves their parsers out, so that such data is recognized (and
//! shows its text with a `format-not-loaded` error) instead of being taken for the
//! provider format it resembles: an Azure completion is a chat completion, as
//! Perplexity's is; an xAI completion lists `citations` urls, as Perplexity's does.

use crate::core::model::Format;
use serde_json::{Map, Value};

/// The platform whose shape `v` has, if any. Asked before the providers' shapes.
pub(super) fn detect(v: &Value) -> Option<Format> {
    match v {
        Value::Object(o) => object(o),
        Value::Array(a) => array(a),
        _ => None,
    }
}

// Written to be small: it is in the npm package's first module (docs/size.md), so each
// platform is told by the fewest fields that tell it.
fn object(o: &Map<String, Value>) -> Option<Format> {
    let key = |k: &str| o.contains_key(k);
    // The message: a completion's first choice's (or a streamed chunk's delta), else
    // the object itself.
    let message = o
        .get("choices")
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("message").or_else(|| c.get("delta")));
    let field = |k: &str| message.and_then(|m| m.get(k)).or_else(|| o.get(k));
    let is_message = message.is_some() || key("role");
    // Azure: the assistant message's `context` (citations, intent, retrieval).
    if is_message && field("context").is_some_and(Value::is_object) {
        return Some(Format::Azure);
    }
    // Mistral: `reference` chunks; a Conversations response's `outputs`; a history.
    if is_message && field("content").is_some_and(has_mistral_chunk)
        || key("outputs")
        || o.get("messages")
            .and_then(Value::as_array)
            .is_some_and(|a| array(a) == Some(Format::Mistral))
    {
        return Some(Format::Mistral);
    }
    // xAI: a Grok model's answer, or inline `[[1]](url)` links with `citations` urls.
    if (key("choices") || key("output"))
        && (o
            .get("model")
            .and_then(Value::as_str)
            .is_some_and(|m| m.starts_with("grok"))
            || key("citations")
                && field("content")
                    .and_then(Value::as_str)
                    .is_some_and(|t| crate::core::str_ops::has(t, "]](http")))
    {
        return Some(Format::Xai);
    }
    // LlamaIndex: `source_nodes`; chat-ui's `sources` annotation (or `sources.nodes`).
    let sources = |a: &Value| a.get("type").and_then(Value::as_str) == Some("sources");
    if key("source_nodes")
        || key("sourceNodes")
        || o.get("type").and_then(Value::as_str) == Some("sources")
        || o.get("annotations")
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(sources))
        || o.get("sources").and_then(|s| s.get("nodes")).is_some()
    {
        return Some(Format::Llamaindex);
    }
    // LangChain: a serialized message (`lc` with `kwargs`, `type: "ai"`), standard
    // content blocks, or content blocks with `citation` annotations.
    if key("lc") && key("kwargs")
        || o.get("type").and_then(Value::as_str) == Some("ai")
        || key("contentBlocks")
        || key("content_blocks")
        || o.get("content")
            .and_then(Value::as_array)
            .is_some_and(|a| array(a) == Some(Format::Langchain))
    {
        return Some(Format::Langchain);
    }
    None
}

/// `llamaindex` for a `UIMessage` holding a `data-sources` part with
/// `nodes`: what `@llamaindex/chat-ui` shows, made by `useChat` of LlamaIndex Server's
/// stream.
pub(super) fn chat_ui_message(v: &Value) -> Option<Format> {
    let parts = v.get("parts")?.as_array()?;
    parts
        .iter()
        .any(|p| {
            p.get("type").and_then(Value::as_str) == Some("data-sources")
                && p.get("data").and_then(|d| d.get("nodes")).is_some()
        })
        .then_some(Format::Llamaindex)
}

/// Mistral chunks (or messages holding them), or LangChain blocks with a `citation`
/// annotation, whichever comes first.
fn array(a: &[Value]) -> Option<Format> {
    a.iter().find_map(|x| {
        if is_mistral_chunk(x) || x.get("content").is_some_and(has_mistral_chunk) {
            Some(Format::Mistral)
        } else if x
            .get("annotations")
            .and_then(Value::as_array)
            .is_some_and(|n| {
                n.iter()
                    .any(|c| c.get("type").and_then(Value::as_str) == Some("citation"))
            })
        {
            Some(Format::Langchain)
        } else {
            None
        }
    })
}

/// A Mistral `reference` or `tool_reference` chunk.
fn is_mistral_chunk(x: &Value) -> bool {
    matches!(
        x.get("type").and_then(Value::as_str),
        Some("reference" | "tool_reference")
    )
}

/// Content chunks holding a Mistral `reference` or `tool_reference` chunk.
fn has_mistral_chunk(content: &Value) -> bool {
    content
        .as_array()
        .is_some_and(|a| a.iter().any(is_mistral_chunk))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Shapes that resemble the platforms' but are not theirs stay undetected here.
    #[test]
    fn near_misses() {
        for v in [
            json!({"choices": [{"message": {"content": "A [1]."}}], "citations": ["https://a.example/"]}),
            json!({"role": "assistant", "content": [{"type": "text", "text": "A"}]}),
            json!({"output": [], "annotations": []}),
            json!([{"type": "text", "text": "A", "citations": []}]),
        ] {
            assert_eq!(detect(&v), None, "{v}");
        }
    }
}
