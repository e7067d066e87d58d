//! The reader of a raw event stream appended to a [`StreamParser`](super::StreamParser):
//! a chat backend's `sse` stream, the Vercel AI SDK's UI message stream, a provider's own
//! stream (Anthropic Messages, Gemini `alt=sse`) or a platform's stream (Cohere's,
//! Bedrock's), or OpenAI's (Responses, Chat Completions) and Perplexity's. Which one it
//! is, is decided by the first event whose data is a JSON object with a `type`
//! (`text-delta`, `start`, `source-url`, ... are the AI SDK's; `response.*` OpenAI's
//! Responses; `message_start`, `content_block_*`, `ping`, ... Anthropic's; `message-start`,
//! `content-delta`, ... Cohere's), with one of a Bedrock stream's members
//! (`contentBlockDelta`, `output`, `citation`), an `object` (`chat.completion.chunk`),
//! or with no `type` but a Gemini chunk's fields (`candidates`, `usageMetadata`, `modelVersion`, `responseId`);
//! docs/formats.md. However the stream is cut, until then nothing has been read either
//! way.

use crate::core::draft::Draft;
use crate::core::formats::ai_sdk;
#[cfg(feature = "providers")]
use crate::core::formats::openai_stream::{
    self, ChatAccumulator, ResponsesAccumulator, StreamKind,
};
use crate::core::formats::platform_stream::{self, PlatformStream};
use crate::core::formats::sse::{SseAccumulator, SseEvent};
#[cfg(feature = "providers")]
use crate::core::formats::{anthropic_stream, gemini_stream};
use crate::core::json_fields::parse_json;
use crate::core::model::Format;
use crate::core::options::Options;
use serde_json::Value;

/// The accumulator of one event stream.
#[derive(Debug, Clone)]
pub(super) enum EventAcc {
    /// Not decided yet (read as `sse` so far), or `sse`.
    Sse {
        acc: Box<SseAccumulator>,
        /// Whether a typed event decided it is `sse`.
        decided: bool,
        /// For the AI SDK reader, should the stream turn out to be one.
        options: Box<Options>,
        /// The format given (`openai`, `perplexity`: their streams are waited for).
        given: Format,
    },
    /// A UI message stream.
    AiSdk(Box<ai_sdk::StreamAccumulator>),
    /// An Anthropic Messages stream.
    #[cfg(feature = "providers")]
    Anthropic(Box<anthropic_stream::StreamAccumulator>),
    /// A Gemini `streamGenerateContent?alt=sse` stream.
    #[cfg(feature = "providers")]
    Gemini(Box<gemini_stream::StreamAccumulator>),
    /// OpenAI's Responses stream.
    #[cfg(feature = "providers")]
    Responses(Box<ResponsesAccumulator>),
    /// A Chat Completions stream, OpenAI's or Perplexity's.
    #[cfg(feature = "providers")]
    Chat(Box<ChatAccumulator>),
    /// A platform's stream (`cohere`, `bedrock`, `bedrock-kb`).
    Platform(Box<PlatformStream>),
}

impl EventAcc {
    /// An accumulator for `format`'s stream, as the format registry says (a UI message
    /// stream, Anthropic's, Gemini's, a platform's; else `sse` until a typed event says).
    pub(super) fn new(format: Format, options: &Options) -> Self {
        use crate::core::formats::registry::{stream, Stream};
        match stream(format) {
            Stream::UiMessages => {
                EventAcc::AiSdk(Box::new(ai_sdk::StreamAccumulator::new(options)))
            }
            #[cfg(feature = "providers")]
            Stream::Anthropic => {
                EventAcc::Anthropic(Box::new(anthropic_stream::StreamAccumulator::new(options)))
            }
            #[cfg(feature = "providers")]
            Stream::Gemini => {
                EventAcc::Gemini(Box::new(gemini_stream::StreamAccumulator::new(options)))
            }
            Stream::Platform { .. } => {
                EventAcc::Platform(Box::new(PlatformStream::new(format, options)))
            }
            _ => EventAcc::Sse {
                acc: Box::new(SseAccumulator::new()),
                decided: false,
                options: Box::new(options.clone()),
                given: format,
            },
        }
    }

    /// The format the events read as.
    pub(super) fn format(&self) -> Format {
        match self {
            EventAcc::Sse {
                given: f @ (Format::Openai | Format::Perplexity),
                ..
            } => *f,
            EventAcc::Sse { .. } => Format::Sse,
            EventAcc::AiSdk(_) => Format::AiSdk,
            #[cfg(feature = "providers")]
            EventAcc::Anthropic(_) => Format::Anthropic,
            #[cfg(feature = "providers")]
            EventAcc::Gemini(_) => Format::Gemini,
            #[cfg(feature = "providers")]
            EventAcc::Responses(_) => Format::Openai,
            #[cfg(feature = "providers")]
            EventAcc::Chat(acc) => acc.draft_ref().format,
            EventAcc::Platform(acc) => acc.format(),
        }
    }

    /// For a provider's stream, the draft of the answer so far: what a one-shot read
    /// of the stream gives (its events are not a format `parse` reads).
    pub(super) fn provider_draft(&self) -> Option<&Draft> {
        match self {
            #[cfg(feature = "providers")]
            EventAcc::Anthropic(acc) => Some(acc.draft_ref()),
            #[cfg(feature = "providers")]
            EventAcc::Gemini(acc) => Some(acc.draft_ref()),
            #[cfg(feature = "providers")]
            EventAcc::Responses(acc) => Some(acc.draft_ref()),
            #[cfg(feature = "providers")]
            EventAcc::Chat(acc) => Some(acc.draft_ref()),
            _ => None,
        }
    }

    /// Whether an OpenAI or Perplexity stream ended: its draft is then `parse` of its
    /// final object, whose text may not be the text streamed.
    pub(super) fn provider_ended(&self) -> bool {
        match self {
            #[cfg(feature = "providers")]
            EventAcc::Responses(acc) => acc.is_ended(),
            #[cfg(feature = "providers")]
            EventAcc::Chat(acc) => acc.is_ended(),
            _ => false,
        }
    }

    /// The draft as far as the events so far make it.
    pub(super) fn draft_ref(&self) -> &Draft {
        match self {
            EventAcc::Sse { acc, .. } => acc.draft_ref(),
            EventAcc::AiSdk(acc) => acc.draft_ref(),
            #[cfg(feature = "providers")]
            EventAcc::Anthropic(acc) => acc.draft_ref(),
            #[cfg(feature = "providers")]
            EventAcc::Gemini(acc) => acc.draft_ref(),
            #[cfg(feature = "providers")]
            EventAcc::Responses(acc) => acc.draft_ref(),
            #[cfg(feature = "providers")]
            EventAcc::Chat(acc) => acc.draft_ref(),
            EventAcc::Platform(acc) => acc.draft_ref(),
        }
    }

    /// Reads one event; the first typed one decides the format.
    pub(super) fn event(&mut self, ev: &SseEvent) {
        if let EventAcc::Sse {
            decided: decided @ false,
            options,
            given,
            ..
        } = self
        {
            let value = parse_json(ev.data.trim()).ok();
            if let Some(f) = value.as_ref().and_then(platform_stream::event_format) {
                *self = EventAcc::Platform(Box::new(PlatformStream::new(f, options)));
            } else if let Some(Value::Object(o)) = value {
                match o.get("type").and_then(Value::as_str) {
                    Some(t) if ai_sdk::is_chunk_type(t) => {
                        *self = EventAcc::AiSdk(Box::new(ai_sdk::StreamAccumulator::new(options)));
                    }
                    #[cfg(feature = "providers")]
                    Some(t) if anthropic_stream::is_event_type(t) => {
                        *self = EventAcc::Anthropic(Box::new(
                            anthropic_stream::StreamAccumulator::new(options),
                        ));
                    }
                    Some(_) => {
                        let v = Value::Object(o);
                        match provider(&v, *given, options) {
                            Some(acc) => *self = acc,
                            None => *decided = true,
                        }
                    }
                    #[cfg(feature = "providers")]
                    None if gemini_stream::is_chunk(&o) => {
                        *self = EventAcc::Gemini(Box::new(gemini_stream::StreamAccumulator::new(
                            options,
                        )));
                    }
                    None if o.contains_key("object") => {
                        if let Some(acc) = provider(&Value::Object(o), *given, options) {
                            *self = acc;
                        }
                    }
                    None => {}
                }
            }
        }
        match self {
            EventAcc::Sse { acc, .. } => acc.event(ev),
            EventAcc::AiSdk(acc) => acc.event(ev),
            #[cfg(feature = "providers")]
            EventAcc::Anthropic(acc) => acc.event(ev),
            #[cfg(feature = "providers")]
            EventAcc::Gemini(acc) => acc.event(ev),
            #[cfg(feature = "providers")]
            EventAcc::Responses(acc) => acc.event(ev),
            #[cfg(feature = "providers")]
            EventAcc::Chat(acc) => acc.event(ev),
            EventAcc::Platform(acc) => acc.event(ev),
        }
    }

    /// The stream ended: what is still open is read (text parts, the positions of the
    /// message metadata). Whether anything was.
    pub(super) fn end(&mut self) -> bool {
        match self {
            EventAcc::Sse { .. } => false,
            EventAcc::AiSdk(acc) => acc.end(),
            #[cfg(feature = "providers")]
            EventAcc::Anthropic(acc) => acc.end(),
            #[cfg(feature = "providers")]
            EventAcc::Gemini(acc) => acc.end(),
            #[cfg(feature = "providers")]
            EventAcc::Responses(acc) => acc.end(),
            #[cfg(feature = "providers")]
            EventAcc::Chat(acc) => acc.end(),
            EventAcc::Platform(acc) => acc.end(),
        }
    }
}

/// The reader of the provider stream whose first event is `v`, if it is one.
#[cfg(feature = "providers")]
fn provider(v: &Value, given: Format, options: &Options) -> Option<EventAcc> {
    let kind = openai_stream::stream_kind(v)?;
    let format = matches!(given, Format::Openai | Format::Perplexity).then_some(given);
    Some(match kind {
        StreamKind::Responses => EventAcc::Responses(Box::new(ResponsesAccumulator::new(options))),
        k => EventAcc::Chat(Box::new(ChatAccumulator::new(options, k, format))),
    })
}

/// Without the provider formats their streams are read as `sse`.
#[cfg(not(feature = "providers"))]
fn provider(_: &Value, _: Format, _: &Options) -> Option<EventAcc> {
    None
}
