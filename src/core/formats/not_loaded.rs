//! Data of a format this build leaves out (its feature off): detected, shown with the
//! text it holds, read plainly, and a `format-not-loaded` error (the npm package's first
//! module does this until its full module takes over).

use crate::core::draft::Draft;
use crate::core::model::Format;
use serde_json::Value;

use super::{registry, support};

/// Provider (or posthoc, scintilla, payload) data in a build without those formats: the
/// answer text (the caller's, else the text the data holds, read plainly; its markers
/// unresolved) without citations, and a `format-not-loaded` error saying so. The npm
/// package's first module does this for posthoc, scintilla and payload data until its
/// full module takes over.
pub(super) fn not_loaded(format: Format, answer: Option<&str>, v: Option<&Value>) -> Draft {
    let text = match answer {
        Some(a) => a.to_string(),
        None => v.map(|v| provider_text(format, v)).unwrap_or_default(),
    };
    let mut d = Draft::new(format, text);
    // Markers are read (and left unresolved), so that none shows as raw text.
    d.grammar = Some(crate::core::markers::Grammar {
        // Azure's `[doc1]` and xAI's `[[1]](url)` are read too, so that they do not
        // show raw (or as links) while the full module loads.
        doc: format == Format::Azure,
        linked: format == Format::Xai,
        ..support::every_marker(crate::core::markers::TextSyntax::Markdown)
    });
    d.diagnostics.push(crate::core::model::Diagnostic::error(
        "format-not-loaded",
        format!(
            "{} data needs the `{}` feature, which this build of citekit does not include",
            format.name(),
            registry::feature(format).name(),
        ),
    ));
    d
}

/// The text of a provider's response, read plainly: Anthropic's text blocks, an OpenAI
/// Responses output's (or a chat completion's) text, Gemini's first candidate's parts,
/// Perplexity's message; posthoc data's `response`, `answer` or `text`; a payload's
/// `text` (or its citation event's `value.text`); nothing of scintilla's tool metadata,
/// which holds no text; the RAG platforms' messages (xAI's as OpenAI's, LlamaIndex's
/// `response` or `content`).
fn provider_text(format: Format, v: &Value) -> String {
    let texts = |items: Option<&Value>, kind: Option<&str>| -> String {
        let mut out = String::new();
        for item in items.and_then(Value::as_array).into_iter().flatten() {
            if kind.is_none_or(|k| item.get("type").and_then(Value::as_str) == Some(k)) {
                if let Some(t) = item.get("text").and_then(Value::as_str) {
                    out.push_str(t);
                }
            }
        }
        out
    };
    // `get` steps rather than `Value::pointer`, which this module would link only here
    // (2 KB of wasm for its path parsing).
    let message = |v: &Value| -> String {
        v.get("choices")
            .and_then(|c| c.get(0))
            .and_then(|c| c.get("message"))
            .and_then(|m| m.get("content"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    match format {
        Format::Anthropic => texts(v.get("content"), Some("text")),
        Format::Openai | Format::Xai => {
            let mut out = String::new();
            for item in v
                .get("output")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                out.push_str(&texts(item.get("content"), Some("output_text")));
            }
            if out.is_empty() {
                out = message(v);
            }
            out
        }
        Format::Gemini => texts(
            v.get("candidates")
                .and_then(|c| c.get(0))
                .and_then(|c| c.get("content"))
                .and_then(|c| c.get("parts")),
            None,
        ),
        Format::Posthoc | Format::Llamaindex => ["response", "answer", "content", "text"]
            .iter()
            .find_map(|k| v.get(k).and_then(Value::as_str))
            .unwrap_or("")
            .to_string(),
        Format::Payload => v
            .get("text")
            .or_else(|| v.get("value").and_then(|x| x.get("text")))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        Format::Scintilla => String::new(),
        Format::Cohere => texts(v.get("message").unwrap_or(v).get("content"), Some("text")),
        // Converse's text blocks and the claims of its `citationsContent` blocks.
        Format::BedrockConverse => {
            let m = v.get("output").and_then(|o| o.get("message")).unwrap_or(v);
            let mut out = String::new();
            for b in m
                .get("content")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                out.push_str(b.get("text").and_then(Value::as_str).unwrap_or(""));
                out.push_str(&texts(
                    b.get("citationsContent").and_then(|c| c.get("content")),
                    None,
                ));
            }
            out
        }
        Format::BedrockKb => v
            .get("output")
            .and_then(|o| o.get("text"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        // A string or text chunks or blocks: a completion's message, a message alone, a
        // LangChain message (`kwargs`) or its blocks, a Mistral history's or
        // conversation's last message.
        Format::Azure | Format::Mistral | Format::Langchain => {
            let v = v.get("kwargs").unwrap_or(v);
            fn last(k: Option<&Value>) -> Option<&Value> {
                k.and_then(Value::as_array).and_then(|a| a.last())
            }
            let item = v
                .get("choices")
                .and_then(|c| c.get(0))
                .and_then(|c| c.get("message"))
                .or_else(|| last(v.get("outputs")))
                .or_else(|| last(v.get("messages")))
                .or_else(|| last(Some(v)).filter(|m| m.get("role").is_some()))
                .unwrap_or(v);
            match item.get("content") {
                Some(Value::String(t)) => t.clone(),
                Some(c) => texts(Some(c), Some("text")),
                None => texts(Some(item), Some("text")),
            }
        }
        _ => message(v),
    }
}
