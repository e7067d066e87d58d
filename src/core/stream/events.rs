//! The reader of a raw event stream appended to a [`StreamParser`](super::StreamParser):
//! a chat backend's `sse` stream, the Vercel AI SDK's UI message stream, or a
//! provider's own stream (OpenAI Responses, Chat Completions, Perplexity). Which one it
//! is, is decided by the first event whose data is a JSON object with a `type`
//! (`text-delta`, `start`, `source-url`, ... are the AI SDK's; `response.*` OpenAI's
//! Responses) or an `object` (`chat.completion.chunk`; docs/formats.md), however the
//! stream is cut; until then nothing has been read either way.

use crate::core::draft::Draft;
use crate::core::formats::ai_sdk;
#[cfg(feature = "providers")]
use crate::core::formats::openai_stream::{
    self, ChatAccumulator, ResponsesAccumulator, StreamKind,
};
use crate::core::formats::sse::{SseAccumulator, SseEvent};
use crate::core::json::parse_json;
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
    /// OpenAI's Responses stream.
    #[cfg(feature = "providers")]
    Responses(Box<ResponsesAccumulator>),
    /// A Chat Completions stream, OpenAI's or Perplexity's.
    #[cfg(feature = "providers")]
    Chat(Box<ChatAccumulator>),
}

impl EventAcc {
    /// An accumulator for `format` (`ai-sdk`, else `sse` until a typed event says).
    pub(super) fn new(format: Format, options: &Options) -> Self {
        if format == Format::AiSdk {
            EventAcc::AiSdk(Box::new(ai_sdk::StreamAccumulator::new(options)))
        } else {
            EventAcc::Sse {
                acc: Box::new(SseAccumulator::new()),
                decided: false,
                options: Box::new(options.clone()),
                given: format,
            }
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
            EventAcc::Responses(_) => Format::Openai,
            #[cfg(feature = "providers")]
            EventAcc::Chat(acc) => acc.draft_ref().format,
        }
    }

    /// The draft as far as the events so far make it.
    pub(super) fn draft_ref(&self) -> &Draft {
        match self {
            EventAcc::Sse { acc, .. } => acc.draft_ref(),
            EventAcc::AiSdk(acc) => acc.draft_ref(),
            #[cfg(feature = "providers")]
            EventAcc::Responses(acc) => acc.draft_ref(),
            #[cfg(feature = "providers")]
            EventAcc::Chat(acc) => acc.draft_ref(),
        }
    }

    /// Whether a provider stream ended: its draft is then `parse` of its final object,
    /// whose text may not be the text streamed.
    pub(super) fn provider_ended(&self) -> bool {
        match self {
            #[cfg(feature = "providers")]
            EventAcc::Responses(acc) => acc.is_ended(),
            #[cfg(feature = "providers")]
            EventAcc::Chat(acc) => acc.is_ended(),
            _ => false,
        }
    }

    /// A provider stream's draft, which is the whole answer so far (the stream need
    /// not be read again to parse it); `None` for `sse` and the AI SDK's.
    pub(super) fn provider_draft(&self) -> Option<&Draft> {
        match self {
            #[cfg(feature = "providers")]
            EventAcc::Responses(_) | EventAcc::Chat(_) => Some(self.draft_ref()),
            _ => None,
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
            let v = parse_json(ev.data.trim()).ok();
            let ty = v
                .as_ref()
                .and_then(|v| v.get("type"))
                .and_then(Value::as_str);
            let object = v.as_ref().and_then(|v| v.get("object")).is_some();
            if ty.is_some() || object {
                if ty.is_some_and(ai_sdk::is_chunk_type) {
                    *self = EventAcc::AiSdk(Box::new(ai_sdk::StreamAccumulator::new(options)));
                } else if let Some(acc) = v.as_ref().and_then(|v| provider(v, *given, options)) {
                    *self = acc;
                } else if ty.is_some() {
                    *decided = true;
                }
            }
        }
        match self {
            EventAcc::Sse { acc, .. } => acc.event(ev),
            EventAcc::AiSdk(acc) => acc.event(ev),
            #[cfg(feature = "providers")]
            EventAcc::Responses(acc) => acc.event(ev),
            #[cfg(feature = "providers")]
            EventAcc::Chat(acc) => acc.event(ev),
        }
    }

    /// The stream ended: what is still open is read (text parts, the positions of the
    /// message metadata). Whether anything was.
    pub(super) fn end(&mut self) -> bool {
        match self {
            EventAcc::Sse { .. } => false,
            EventAcc::AiSdk(acc) => acc.end(),
            #[cfg(feature = "providers")]
            EventAcc::Responses(acc) => acc.end(),
            #[cfg(feature = "providers")]
            EventAcc::Chat(acc) => acc.end(),
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
