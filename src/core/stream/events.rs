//! The reader of a raw event stream appended to a [`StreamParser`](super::StreamParser):
//! a chat backend's `sse` stream, the Vercel AI SDK's UI message stream, or a platform's
//! stream (Cohere's, Bedrock's). Which one it is, is decided by the first event whose
//! data is a JSON object with a `type` (`text-delta`, `start`, `source-url`, ... are the
//! AI SDK's; `message-start`, `content-delta`, ... Cohere's) or one of a Bedrock
//! stream's members (`contentBlockDelta`, `output`, `citation`; docs/formats.md),
//! however the stream is cut; until then nothing has been read either way.

use crate::core::draft::Draft;
use crate::core::formats::ai_sdk;
use crate::core::formats::platform_stream::{self, PlatformStream};
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
    },
    /// A UI message stream.
    AiSdk(Box<ai_sdk::StreamAccumulator>),
    /// A platform's stream (`cohere`, `bedrock`, `bedrock-kb`).
    Platform(Box<PlatformStream>),
}

impl EventAcc {
    /// An accumulator for `format` (`ai-sdk`, else `sse` until a typed event says).
    pub(super) fn new(format: Format, options: &Options) -> Self {
        if format == Format::AiSdk {
            EventAcc::AiSdk(Box::new(ai_sdk::StreamAccumulator::new(options)))
        } else if crate::core::formats::is_platform(format) {
            EventAcc::Platform(Box::new(PlatformStream::new(format, options)))
        } else {
            EventAcc::Sse {
                acc: Box::new(SseAccumulator::new()),
                decided: false,
                options: Box::new(options.clone()),
            }
        }
    }

    /// The format the events read as.
    pub(super) fn format(&self) -> Format {
        match self {
            EventAcc::Sse { .. } => Format::Sse,
            EventAcc::AiSdk(_) => Format::AiSdk,
            EventAcc::Platform(acc) => acc.format(),
        }
    }

    /// The draft as far as the events so far make it.
    pub(super) fn draft_ref(&self) -> &Draft {
        match self {
            EventAcc::Sse { acc, .. } => acc.draft_ref(),
            EventAcc::AiSdk(acc) => acc.draft_ref(),
            EventAcc::Platform(acc) => acc.draft_ref(),
        }
    }

    /// Reads one event; the first typed one decides the format.
    pub(super) fn event(&mut self, ev: &SseEvent) {
        if let EventAcc::Sse {
            decided: decided @ false,
            options,
            ..
        } = self
        {
            let value = parse_json(ev.data.trim()).ok();
            let platform = value.as_ref().and_then(platform_stream::event_format);
            let ty = value.and_then(|v| match v {
                Value::Object(o) => o.get("type").and_then(Value::as_str).map(str::to_string),
                _ => None,
            });
            if let Some(f) = platform {
                *self = EventAcc::Platform(Box::new(PlatformStream::new(f, options)));
            } else if let Some(t) = ty {
                if ai_sdk::is_chunk_type(&t) {
                    *self = EventAcc::AiSdk(Box::new(ai_sdk::StreamAccumulator::new(options)));
                } else {
                    *decided = true;
                }
            }
        }
        match self {
            EventAcc::Sse { acc, .. } => acc.event(ev),
            EventAcc::AiSdk(acc) => acc.event(ev),
            EventAcc::Platform(acc) => acc.event(ev),
        }
    }

    /// The stream ended: what is still open is read (text parts, the positions of the
    /// message metadata). Whether anything was.
    pub(super) fn end(&mut self) -> bool {
        match self {
            EventAcc::Sse { .. } => false,
            EventAcc::AiSdk(acc) => acc.end(),
            EventAcc::Platform(acc) => acc.end(),
        }
    }
}
