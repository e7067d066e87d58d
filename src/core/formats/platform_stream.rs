//! The event streams of the platform formats (`cohere`, `bedrock`, `bedrock-kb`,
//! `azure`, `xai`, `mistral`, `llamaindex`, `langchain`), as a backend forwards them:
//! one `data:` line of JSON per event. Their events are told apart by shape
//! ([`event_format`]); each is applied to the response the same stream makes (the
//! format's `apply_*event`; for the chat completions chunks of Azure, xAI and Mistral,
//! the OpenAI reader's `ChatChunks`, as the `openai` SDK puts them together), and the
//! draft is that response parsed: text deltas at the end of the text are added to the
//! draft as they come, anything else (a citation, a new block, the sources, text that
//! may close an xAI `[[n]](url)` link) parses the rebuilt response again, and the end of
//! the stream parses it once more, so that the end state equals `parse` of the final
//! response.
//!
//! - Cohere's `chatStream` and Bedrock's ConverseStream / RetrieveAndGenerateStream:
//!   the SDK's stream events.
//! - Azure On Your Data, xAI and Mistral chat: chat completions chunks; Mistral's
//!   Conversations API: its `message.output.delta`, ... events.
//! - LlamaIndex: the UI message stream LlamaIndex Server writes for
//!   `@llamaindex/chat-ui` (`text-start`, `text-delta`, `data-sources` with `nodes`,
//!   other `data-*` parts); the response is the `UIMessage` `useChat` makes of it.
//! - LangChain: the `AIMessageChunk`s of a chat model's `.stream()`, each serialized
//!   (`toJSON()`: `{lc, type: "constructor", id: [..., "AIMessageChunk"], kwargs}`, or
//!   the plain fields with `type: "AIMessageChunk"`), alone or as LangGraph's
//!   `messages-tuple` stream mode sends them (`[chunk, metadata]`); the response is the
//!   chunks concatenated as `@langchain/core` does.
//!
//! Without the `platforms` feature the events are recognized but not read: the draft
//! is empty, with a `format-not-loaded` error (the npm package's first module then
//! mounts the answer again in its second).

use crate::core::draft::Draft;
#[cfg(feature = "platforms")]
use crate::core::formats::openai_stream::ChatChunks;
#[cfg(feature = "platforms")]
use crate::core::formats::sse::event_json;
use crate::core::formats::sse::SseEvent;
use crate::core::model::Format;
use crate::core::options::Options;
use serde_json::{Map, Value};

/// The members of a ConverseStream event (the SDK's union: one key per event).
const CONVERSE_EVENTS: [&str; 5] = [
    "messageStart",
    "contentBlockStart",
    "contentBlockDelta",
    "contentBlockStop",
    "messageStop",
];

/// The event types of Mistral's Conversations stream, by their prefix.
const MISTRAL_EVENTS: [&str; 5] = [
    "conversation.response.",
    "message.output.",
    "tool.execution.",
    "agent.handoff.",
    "function.call.",
];

/// The event itself, or the `data` of the Mistral SDK's event wrapper (`{data}` for a
/// chat chunk, `{event, data}` for a Conversations event), as an app forwards what
/// the SDK's stream yields.
pub(crate) fn unwrap_event(o: &Map<String, Value>) -> &Map<String, Value> {
    match o.get("data") {
        Some(Value::Object(inner)) if o.keys().all(|k| k == "data" || k == "event") => inner,
        _ => o,
    }
}

/// The platform format one stream event belongs to, if any: a Cohere event by its
/// `type`, a Bedrock event by its only member (`contentBlockDelta`, ... for Converse;
/// `output` with `text`, or `citation` with `generatedResponsePart` /
/// `retrievedReferences` / `citation`, for Knowledge Bases), a Mistral Conversations
/// event by its `type` (`message.output.delta`, ...); a chat completions chunk by its
/// first choice's `delta` (Azure's `context`, Mistral's content chunks) or its model
/// (`grok-*` for xAI, a name with `stral` for Mistral); a LlamaIndex `data-sources` part
/// by its `nodes`, a LangChain message chunk by its class name. Chunks without these
/// (Azure's before its `context`, a Mistral model with another name) are not told from
/// OpenAI's: the format is then named (docs/streaming.md).
pub fn event_format(v: &Value) -> Option<Format> {
    if let Value::Array(tuple) = v {
        // LangGraph's `messages-tuple`: `[chunk, metadata]`.
        return tuple
            .first()
            .filter(|_| tuple.len() == 2)
            .and_then(Value::as_object)
            .filter(|m| is_message_chunk(m))
            .map(|_| Format::Langchain);
    }
    let o = v.as_object()?;
    if is_message_chunk(o) {
        return Some(Format::Langchain);
    }
    if o.get("type").and_then(Value::as_str) == Some("data-sources") {
        return o
            .get("data")
            .and_then(|d| d.get("nodes"))
            .is_some_and(Value::is_array)
            .then_some(Format::Llamaindex);
    }
    let o = unwrap_event(o);
    // Cohere's `message-start`, `content-delta`, `citation-start`, `tool-plan-delta`,
    // `tool-call-end`, ... (the AI SDK's chunks are `message-metadata`, `text-*`,
    // `tool-input-*`, `tool-output-*`, ...: none of these).
    if let Some(t) = o.get("type").and_then(Value::as_str) {
        let cohere = matches!(t, "message-start" | "message-end")
            || ["content-", "citation-", "tool-plan-", "tool-call-"]
                .iter()
                .any(|p| t.starts_with(p));
        if MISTRAL_EVENTS.iter().any(|p| t.starts_with(p)) {
            return Some(Format::Mistral);
        }
        return cohere.then_some(Format::Cohere);
    }
    if let Some(choice) = o.get("choices").and_then(|c| c.get(0)) {
        let delta = choice.get("delta")?;
        let model = o.get("model").and_then(Value::as_str).unwrap_or("");
        return if delta.get("context").is_some_and(Value::is_object) {
            Some(Format::Azure)
        } else if model.starts_with("grok") {
            Some(Format::Xai)
        } else if delta.get("content").is_some_and(Value::is_array)
            || crate::core::str_ops::has(model, "stral")
        {
            Some(Format::Mistral)
        } else {
            None
        };
    }
    // The SDK's union: one member per event.
    let (key, body) = o.iter().next().filter(|_| o.len() == 1)?;
    let body = body.as_object()?;
    if CONVERSE_EVENTS.contains(&key.as_str()) {
        return Some(Format::BedrockConverse);
    }
    let kb = match key.as_str() {
        "output" => body.get("text").is_some_and(Value::is_string),
        "citation" => ["generatedResponsePart", "retrievedReferences", "citation"]
            .iter()
            .any(|k| body.contains_key(*k)),
        _ => false,
    };
    kb.then_some(Format::BedrockKb)
}

/// A serialized LangChain `AIMessageChunk`: `toJSON()`'s `{lc, id: [..., class], kwargs}`
/// or the fields with `type: "AIMessageChunk"` (Python's `model_dump()`).
fn is_message_chunk(o: &Map<String, Value>) -> bool {
    let class = match o.get("lc") {
        Some(_) => o
            .get("id")
            .and_then(Value::as_array)
            .and_then(|id| id.last())
            .and_then(Value::as_str),
        None => o.get("type").and_then(Value::as_str),
    };
    class == Some("AIMessageChunk")
}

/// Reads a platform stream's events into a draft as they come.
#[cfg(feature = "platforms")]
#[derive(Debug, Clone)]
pub struct PlatformStream {
    format: Format,
    /// The response rebuilt from the events so far (not chat completions chunks).
    response: Value,
    /// The completion rebuilt from chat completions chunks (Azure's, xAI's, Mistral's
    /// chat stream), once one came.
    chat: Option<Box<ChatChunks>>,
    draft: Draft,
    options: Options,
    /// Events read so far (for paths).
    count: usize,
    /// `[DONE]` came, or the stream was ended.
    ended: bool,
}

#[cfg(feature = "platforms")]
impl PlatformStream {
    /// An empty stream of `format` (one of the platform formats).
    pub fn new(format: Format, options: &Options) -> Self {
        let mut s = PlatformStream {
            format,
            response: Value::Object(Map::new()),
            chat: None,
            draft: Draft::new(format, ""),
            options: options.clone(),
            count: 0,
            ended: false,
        };
        s.reparse();
        s
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The draft as far as the events so far make it.
    pub fn draft_ref(&self) -> &Draft {
        &self.draft
    }

    /// Reads one event.
    pub fn event(&mut self, ev: &SseEvent) {
        let path = format!("events[{}]", self.count);
        self.count += 1;
        if self.ended {
            return;
        }
        if ev.data.trim() == "[DONE]" {
            self.end();
            return;
        }
        let Some(value) = event_json(&ev.data, &path, &mut self.draft.diagnostics) else {
            return;
        };
        let o = match &value {
            Value::Object(o) => o,
            // LangGraph's `[chunk, metadata]`: the chunk.
            Value::Array(tuple) => match tuple.first() {
                Some(Value::Object(o)) => o,
                _ => return,
            },
            _ => return,
        };
        let o = unwrap_event(o);
        if o.get("type").and_then(Value::as_str) == Some("conversation.response.error") {
            let message = o.get("message").and_then(Value::as_str).unwrap_or("");
            let error = crate::core::formats::openai_stream::stream_error(message, &path);
            self.draft.diagnostics.push(error);
        }
        let applied = if o.contains_key("choices") {
            let chat = self.chat.get_or_insert_with(Box::default);
            chat_chunk(self.format, chat, o)
        } else {
            apply(self.format, &mut self.response, o)
        };
        match applied {
            // Text at the end of the text: the parse would give the same draft with
            // it appended (spans index text before it).
            Some(t) => {
                self.draft.text.push_str(&t);
            }
            // The end of a block or of a citation changes nothing the draft shows.
            None if inert(o) => {}
            None => self.reparse(),
        }
    }

    /// Ends the stream: the response is parsed once more. Whether this call ended it.
    pub fn end(&mut self) -> bool {
        if self.ended {
            return false;
        }
        self.ended = true;
        self.reparse();
        true
    }

    /// The draft of the whole stream.
    pub fn finish(mut self) -> Draft {
        self.end();
        self.draft
    }

    fn reparse(&mut self) {
        let kept: Vec<_> = self
            .draft
            .diagnostics
            .iter()
            .filter(|d| d.path.as_deref().is_some_and(|p| p.starts_with("events[")))
            .cloned()
            .collect();
        self.draft = match &self.chat {
            Some(chat) => parse_response(self.format, &chat.completion(), &self.options),
            None => parse_response(self.format, &self.response, &self.options),
        };
        self.draft.diagnostics.splice(0..0, kept);
    }
}

/// Without the `platforms` feature: the stream is recognized, not read (an empty
/// draft with a `format-not-loaded` error from the start).
#[cfg(not(feature = "platforms"))]
#[derive(Debug, Clone)]
pub struct PlatformStream {
    draft: Draft,
}

#[cfg(not(feature = "platforms"))]
impl PlatformStream {
    /// An empty stream of `format` (one of the platform formats).
    pub fn new(format: Format, _options: &Options) -> Self {
        PlatformStream {
            draft: super::not_loaded(format, None, None),
        }
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.draft.format
    }

    /// The draft (empty).
    pub fn draft_ref(&self) -> &Draft {
        &self.draft
    }

    /// Reads one event: nothing to read in this build.
    pub fn event(&mut self, _ev: &SseEvent) {}

    /// Ends the stream: nothing changes.
    pub fn end(&mut self) -> bool {
        false
    }
}

#[cfg(feature = "platforms")]
/// Whether an event only closes something (`content-end`, `citation-end`, `text-end`,
/// `contentBlockStop`): the response it leaves parses as before.
fn inert(event: &Map<String, Value>) -> bool {
    matches!(
        event.get("type").and_then(Value::as_str),
        Some("content-end" | "citation-end" | "text-end")
    ) || (event.len() == 1 && event.contains_key("contentBlockStop"))
}

/// Applies one event to the rebuilt response (the format's rules, from the registry;
/// Azure's and xAI's streams are chat completions chunks only).
#[cfg(feature = "platforms")]
fn apply(format: Format, response: &mut Value, event: &Map<String, Value>) -> Option<String> {
    match super::registry::stream(format) {
        super::registry::Stream::Platform {
            apply_event: Some(apply_event),
            ..
        } => apply_event(response, event),
        _ => None,
    }
}

/// Adds one chat completions chunk to the completion; the text it appends to the
/// answer when that is all it changes: a string delta (or Mistral's text chunks) of
/// the first choice and nothing else, and for xAI no `)` that could close an inline
/// `[[n]](url)` citation (whose source the parse then reads).
#[cfg(feature = "platforms")]
fn chat_chunk(format: Format, chat: &mut ChatChunks, chunk: &Map<String, Value>) -> Option<String> {
    chat.chunk(chunk);
    let choices = chunk.get("choices")?.as_array()?;
    let [choice] = choices.as_slice() else {
        return None;
    };
    let only_delta = choice.as_object()?.iter().all(|(k, v)| {
        matches!(k.as_str(), "delta" | "index") || v.is_null() || (k == "end_turn" && v == false)
    });
    let delta = choice.get("delta")?.as_object()?;
    if !only_delta
        || choice.get("index").and_then(Value::as_u64) != Some(0)
        || chunk.get("citations").is_some_and(|c| !c.is_null())
        || delta.keys().any(|k| k != "content" && k != "role")
    {
        return None;
    }
    let text = match delta.get("content")? {
        Value::String(s) => s.clone(),
        Value::Array(chunks) => {
            let mut text = String::new();
            for c in chunks {
                match (c.get("type").and_then(Value::as_str), c.get("text")) {
                    (Some("text"), Some(Value::String(t))) => text.push_str(t),
                    _ => return None,
                }
            }
            text
        }
        _ => return None,
    };
    (format != Format::Xai || !text.contains(')')).then_some(text)
}

/// The draft of a rebuilt response (an empty one before any event).
#[cfg(feature = "platforms")]
fn parse_response(format: Format, response: &Value, options: &Options) -> Draft {
    {
        // Nothing yet, or only chunks without a choice (Azure's first, with its
        // `prompt_filter_results`).
        let empty = response.as_object().is_some_and(|o| {
            o.is_empty()
                || o.get("choices")
                    .and_then(Value::as_array)
                    .is_some_and(Vec::is_empty)
        });
        if empty {
            let mut d = Draft::new(format, "");
            d.grammar = Some(crate::core::formats::support::every_marker(
                crate::core::markers::TextSyntax::Markdown,
            ));
            return d;
        }
        let parsed = match super::registry::parser(format) {
            Some(parse) => parse(&super::registry::ParseArgs {
                answer: None,
                data: Some(response),
                options,
            }),
            None => Ok(Draft::new(format, "")),
        };
        parsed.unwrap_or_else(|e| {
            let mut d = Draft::new(format, "");
            d.diagnostics.push(crate::core::model::Diagnostic::warning(
                e.code(),
                format!("the stream's response cannot be read: {e}"),
            ));
            d
        })
    }
}

/// Parses a whole platform event stream.
#[cfg(feature = "platforms")]
pub fn parse_stream(
    format: Format,
    stream: &str,
    options: &Options,
) -> Result<Draft, crate::core::error::ParseError> {
    let (events, limit) = crate::core::formats::sse::whole_stream_events(stream, format)?;
    let mut acc = PlatformStream::new(format, options);
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
mod tests {
    use super::*;
    use serde_json::json;

    /// Chat completions chunks are told apart by what only one platform sends; an
    /// OpenAI, Perplexity or AI SDK chunk is none of them.
    #[test]
    fn event_format_tells_the_platforms_chat_chunks_apart() {
        let chunk = |model: &str, delta: Value| json!({"object": "chat.completion.chunk", "model": model, "choices": [{"index": 0, "delta": delta}]});
        let cases = [
            (
                chunk(
                    "gpt-4o",
                    json!({"role": "assistant", "context": {"citations": []}}),
                ),
                Some(Format::Azure),
            ),
            (
                chunk("grok-3", json!({"content": "Die"})),
                Some(Format::Xai),
            ),
            (
                chunk("mistral-large-latest", json!({"content": ""})),
                Some(Format::Mistral),
            ),
            (
                chunk(
                    "open-mixtral-8x22b",
                    json!({"content": [{"type": "reference", "reference_ids": [0]}]}),
                ),
                Some(Format::Mistral),
            ),
            (
                json!({"data": chunk("magistral-medium-latest", json!({"content": "A"}))}),
                Some(Format::Mistral),
            ),
            (
                json!({"event": "message.output.delta", "data": {"type": "message.output.delta", "content": "A"}}),
                Some(Format::Mistral),
            ),
            (
                json!({"type": "conversation.response.started", "conversation_id": "c"}),
                Some(Format::Mistral),
            ),
            // Azure's first chunk, before any choice: not told yet.
            (
                json!({"choices": [], "object": "", "prompt_filter_results": []}),
                None,
            ),
            (
                chunk("gpt-4o", json!({"role": "assistant", "content": ""})),
                None,
            ),
            (chunk("sonar-pro", json!({"content": "A [1]"})), None),
            (json!({"type": "text-delta", "id": "0", "delta": "A"}), None),
            (
                json!({"type": "response.output_text.delta", "delta": "A"}),
                None,
            ),
            (json!({"data": {"type": "text-delta"}, "id": "x"}), None),
        ];
        for (event, format) in cases {
            assert_eq!(event_format(&event), format, "{event}");
        }
    }

    /// A Conversations stream's error event is a `stream-error` warning that stays
    /// through the parses after it; the text before it still shows.
    #[cfg(feature = "platforms")]
    #[test]
    fn a_mistral_conversation_error_event_is_a_stream_error() {
        let mut s = PlatformStream::new(Format::Mistral, &Options::default());
        for data in [
            json!({"type": "message.output.delta", "output_index": 0, "id": "m", "content": "Hallo"}),
            json!({"type": "conversation.response.error", "message": "upstream timeout", "code": 3000}),
            json!({"type": "message.output.delta", "output_index": 0, "id": "m", "content": " Welt"}),
        ] {
            s.event(&SseEvent {
                data: data.to_string(),
                ..SseEvent::default()
            });
        }
        let d = s.finish();
        assert_eq!(d.text, "Hallo Welt");
        let errors: Vec<_> = d
            .diagnostics
            .iter()
            .filter(|d| d.code == "stream-error")
            .collect();
        assert_eq!(errors.len(), 1, "{:?}", d.diagnostics);
        assert!(errors[0].message.contains("upstream timeout"));
    }
}
