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

fn object(o: &Map<String, Value>) -> Option<Format> {
    // The first choice's message (or a streamed chunk's delta) of a completion.
    let first_choice = o
        .get("choices")
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("message").or_else(|| c.get("delta")));
    // A completion, or a message on its own.
    let is_message = first_choice.is_some() || o.contains_key("role");
    // A field of the message: the first choice's, else the object's own.
    let of_message = |k: &str| first_choice.and_then(|m| m.get(k)).or_else(|| o.get(k));
    // Azure: the assistant message's `context` with `citations` (or the retrieval).
    if is_message
        && of_message("context").is_some_and(|c| {
            c.get("citations").is_some() || c.get("all_retrieved_documents").is_some()
        })
    {
        return Some(Format::Azure);
    }
    // Mistral: content chunks of type `reference`; a Conversations response.
    if is_message && of_message("content").is_some_and(has_mistral_chunk)
        || o.get("object").and_then(Value::as_str) == Some("conversation.response")
        || o.get("outputs").and_then(Value::as_array).is_some_and(|a| {
            a.iter()
                .any(|x| x.get("type").and_then(Value::as_str) == Some("message.output"))
        })
        || o.get("messages")
            .and_then(Value::as_array)
            .is_some_and(|a| array(a) == Some(Format::Mistral))
    {
        return Some(Format::Mistral);
    }
    // xAI: a Grok model's completion or Responses output, or inline `[[1]](url)` links
    // with a `citations` url list.
    let grok = o
        .get("model")
        .and_then(Value::as_str)
        .is_some_and(|m| m.starts_with("grok"));
    if (o.contains_key("choices") || o.contains_key("output"))
        && (grok
            || o.get("citations")
                .and_then(Value::as_array)
                .is_some_and(|c| c.iter().all(Value::is_string))
                && of_message("content")
                    .and_then(Value::as_str)
                    .is_some_and(has_inline_link_citation))
    {
        return Some(Format::Xai);
    }
    // LlamaIndex: a `Response` with `source_nodes`; chat-ui's `sources` annotation.
    if o.contains_key("source_nodes")
        || o.contains_key("sourceNodes")
        || is_sources_annotation(o)
        || o.get("annotations")
            .and_then(Value::as_array)
            .is_some_and(|a| {
                a.iter()
                    .any(|x| x.as_object().is_some_and(is_sources_annotation))
            })
        || o.get("sources")
            .and_then(|s| s.get("nodes"))
            .is_some_and(Value::is_array)
    {
        return Some(Format::Llamaindex);
    }
    // LangChain: a serialized message (`lc` constructor, `type: "ai"`), or content
    // blocks with `citation` annotations.
    let lc_message = o.get("lc").is_some()
        && o.get("id").and_then(Value::as_array).is_some_and(|id| {
            id.last()
                .and_then(Value::as_str)
                .is_some_and(|n| n.starts_with("AIMessage"))
        });
    if lc_message
        || matches!(
            o.get("type").and_then(Value::as_str),
            Some("ai" | "AIMessage" | "AIMessageChunk")
        ) && o.contains_key("content")
        || o.contains_key("contentBlocks")
        || o.contains_key("content_blocks")
        || o.get("content")
            .and_then(Value::as_array)
            .is_some_and(|a| array(a) == Some(Format::Langchain))
    {
        return Some(Format::Langchain);
    }
    None
}

fn array(a: &[Value]) -> Option<Format> {
    if a.iter().any(|x| {
        matches!(
            x.get("type").and_then(Value::as_str),
            Some("reference" | "tool_reference")
        ) || x.get("content").is_some_and(has_mistral_chunk)
    }) {
        return Some(Format::Mistral);
    }
    if a.iter().any(|x| {
        x.get("annotations")
            .and_then(Value::as_array)
            .is_some_and(|n| {
                n.iter()
                    .any(|c| c.get("type").and_then(Value::as_str) == Some("citation"))
            })
    }) {
        return Some(Format::Langchain);
    }
    None
}

/// `{type: "sources", data: {nodes: [...]}}`.
fn is_sources_annotation(o: &Map<String, Value>) -> bool {
    o.get("type").and_then(Value::as_str) == Some("sources")
        && o.get("data")
            .and_then(|d| d.get("nodes"))
            .is_some_and(Value::is_array)
}

/// Content chunks holding a Mistral `reference` or `tool_reference` chunk.
fn has_mistral_chunk(content: &Value) -> bool {
    content.as_array().is_some_and(|a| {
        a.iter().any(|x| {
            matches!(
                x.get("type").and_then(Value::as_str),
                Some("reference" | "tool_reference")
            )
        })
    })
}

/// Whether `text` holds an xAI inline citation `[[1]](http...`.
fn has_inline_link_citation(text: &str) -> bool {
    let mut rest = text;
    while let Some(i) = crate::core::bytes::find_str(rest, "[[") {
        let after = &rest[i + 2..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && after[digits..].starts_with("]](http") {
            return true;
        }
        rest = after;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn inline_link_citations() {
        assert!(has_inline_link_citation("Grok [[1]](https://x.ai/)."));
        assert!(!has_inline_link_citation("A [[1]] b [[x]](https://x.ai/)"));
    }

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
