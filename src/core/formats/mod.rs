//! One parser per input format (docs/formats.md), each turning `(answer, data)` into a
//! `Draft`; the format registry (`registry.rs`: a format's name, feature, parser and
//! stream reader); detection of the format from the data's shape (`detection.rs`); and
//! the dispatch of `(answer, data, options)` to the format's parser or stream reader.

use crate::core::draft::Draft;
use crate::core::error::ParseError;
use crate::core::json_fields::parse_json;
use crate::core::model::Format;
use crate::core::options::{FormatChoice, Options};
use serde_json::Value;

pub use detection::detect;
use detection::stream_format;
use not_loaded::not_loaded;

#[doc(hidden)]
pub mod ai_sdk;
#[cfg(feature = "providers")]
pub(crate) mod anthropic;
#[cfg(feature = "providers")]
pub(crate) mod anthropic_stream;
#[cfg(feature = "platforms")]
pub(crate) mod azure;
#[cfg(feature = "platforms")]
pub(crate) mod bedrock;
pub(crate) mod canonical;
pub(crate) mod citation_map;
#[cfg(feature = "platforms")]
pub(crate) mod cohere;
mod detect_rag;
mod detection;
#[cfg(feature = "providers")]
pub(crate) mod gemini;
#[cfg(feature = "providers")]
pub(crate) mod gemini_stream;
#[cfg(feature = "platforms")]
pub(crate) mod langchain;
#[cfg(feature = "platforms")]
pub(crate) mod llamaindex;
pub(crate) mod markdown;
#[cfg(feature = "platforms")]
pub(crate) mod mistral;
mod not_loaded;
#[cfg(feature = "providers")]
pub(crate) mod openai;
#[cfg(feature = "providers")]
pub(crate) mod openai_stream;
#[cfg(feature = "payload")]
pub(crate) mod payload;
#[cfg(feature = "providers")]
pub(crate) mod perplexity;
#[cfg(feature = "providers")]
pub(crate) mod perplexity_stream;
pub(crate) mod platform_stream;
#[cfg(feature = "posthoc")]
pub(crate) mod posthoc;
#[cfg(feature = "platforms")]
mod quoted_span;
pub(crate) mod registry;
#[cfg(feature = "scintilla")]
pub(crate) mod scintilla;
#[doc(hidden)]
pub mod sse;
pub(crate) mod stored;
pub(crate) mod support;
#[cfg(feature = "platforms")]
pub(crate) mod xai;

/// The citation data that comes with an answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Data<'a> {
    /// No data.
    None,
    /// Parsed JSON.
    Json(&'a Value),
    /// Text: JSON to be parsed, or an event stream (sse).
    Text(&'a str),
}

/// Parses `answer` and `data` as `options.format` (or the detected format) into a draft.
#[doc(hidden)]
pub fn parse_draft(
    answer: Option<&str>,
    data: Data<'_>,
    options: &Options,
) -> Result<Draft, ParseError> {
    // An empty answer is no answer: a stream starts with `answer: ""`, and an empty
    // text never blanks the text the data carries (nor the other way round).
    let answer = answer.filter(|a| !a.is_empty());
    // A provider's own event stream, named by its format.
    #[cfg(feature = "providers")]
    if let (FormatChoice::Given(f), Data::Text(t)) = (options.format, data) {
        if has_event_stream(f) && is_stream_text(t) {
            return provider_stream(f, t, answer, options);
        }
    }
    let owned;
    let data = match data {
        Data::Text(t)
            if !looks_like_sse(t) || options.format == FormatChoice::Given(Format::Markdown) =>
        {
            match options.format {
                FormatChoice::Given(Format::Sse) => data,
                FormatChoice::Given(Format::AiSdk) if looks_like_sse(t) => data,
                _ if t.trim().is_empty() => Data::None,
                _ => {
                    owned = parse_json(t)?;
                    Data::Json(&owned)
                }
            }
        }
        other => other,
    };
    let format = match (options.format, data) {
        // A UI message stream or a platform's stream given as `sse` (a view streaming
        // raw events) is one.
        (FormatChoice::Given(Format::Sse), Data::Text(t)) => stream_format(t),
        (FormatChoice::Given(Format::Sse), Data::Json(Value::String(t))) => stream_format(t),
        (FormatChoice::Given(f), _) => f,
        (FormatChoice::Auto, _) => detect(answer, data)?,
    };
    let json = |d: Data<'_>| -> Result<(), ParseError> {
        match d {
            Data::Text(_) => Err(ParseError::not_format(
                format,
                "$",
                "expected JSON data, found an event stream",
            )),
            _ => Ok(()),
        }
    };
    // A provider's own stream, given as text (or a JSON string holding it) and detected,
    // or named `sse`.
    #[cfg(feature = "providers")]
    if has_event_stream(format) {
        match data {
            Data::Text(t) => return provider_stream(format, t, answer, options),
            Data::Json(Value::String(t)) if looks_like_sse(t) => {
                return provider_stream(format, t, answer, options)
            }
            _ => {}
        }
    }
    if format != Format::Sse && format != Format::AiSdk && !is_platform(format) {
        json(data)?;
    }
    let v = match data {
        Data::Json(v) => Some(v),
        _ => None,
    };
    // A stream given as text, or as a JSON string holding it (any JSON string, for
    // `sse`).
    let stream = match data {
        Data::Text(t) => Some(t),
        Data::Json(Value::String(t)) if format == Format::Sse || looks_like_sse(t) => {
            Some(t.as_str())
        }
        _ => None,
    };
    let mut draft = match (registry::stream(format), stream) {
        (registry::Stream::Sse, Some(t)) => sse::parse(t, options)?,
        // `sse` data that is no stream: none (the answer is the stream), or JSON that
        // is not this format.
        (registry::Stream::Sse, None) => {
            return match v {
                None => sse::parse(answer.unwrap_or(""), options),
                Some(other) => Err(ParseError::not_format(
                    Format::Sse,
                    "$",
                    format!(
                        "expected the event stream as text, found {}",
                        crate::core::json_fields::type_name(other)
                    ),
                )),
            }
        }
        (registry::Stream::UiMessages, Some(t)) => ai_sdk::parse_stream(t, options)?,
        #[cfg(feature = "platforms")]
        (registry::Stream::Platform { .. }, Some(t)) => {
            platform_stream::parse_stream(format, t, options)?
        }
        _ => {
            return match registry::parser(format) {
                Some(parse) => parse(&registry::ParseArgs {
                    answer,
                    data: v,
                    options,
                }),
                None => Ok(not_loaded(format, answer, v)),
            }
        }
    };
    if let Some(a) = answer {
        support::use_caller_text(&mut draft, a);
    }
    Ok(draft)
}

/// Reads `t`, the whole event stream of `format`, a provider's with an event stream
/// ([`has_event_stream`]).
#[cfg(feature = "providers")]
fn provider_stream(
    format: Format,
    t: &str,
    answer: Option<&str>,
    options: &Options,
) -> Result<Draft, ParseError> {
    match format {
        Format::Anthropic => anthropic_stream::parse_stream(t, options),
        Format::Gemini => gemini_stream::parse_stream(t, options),
        _ => {
            let kind = provider_stream_kind(t).unwrap_or(if format == Format::Perplexity {
                openai_stream::StreamKind::Perplexity
            } else {
                openai_stream::StreamKind::Responses
            });
            let mut draft = openai_stream::parse_stream(t, kind, options)?;
            if let Some(a) = answer {
                support::use_caller_text(&mut draft, a);
            }
            Ok(draft)
        }
    }
}

/// Whether `format` is a platform format whose stream is read by
/// [`platform_stream::PlatformStream`].
pub(crate) fn is_platform(format: Format) -> bool {
    matches!(registry::stream(format), registry::Stream::Platform { .. })
}

/// Whether a platform format's view with no data yet waits for its event stream
/// (Cohere's, Bedrock's: their text is in it) rather than for answer text whose object
/// comes at the end (a LlamaIndex or LangChain app may stream its text and send the
/// response or message last; its stream is appended to data given as `""`).
pub(crate) fn streams_without_data(format: Format) -> bool {
    matches!(
        registry::stream(format),
        registry::Stream::Platform {
            waits_for_stream: true,
            ..
        }
    )
}

/// The kind of OpenAI or Perplexity stream `t` is, told by its first event whose data
/// is a JSON object with a `type` or an `object` (within its first 16 KB).
#[cfg(feature = "providers")]
fn provider_stream_kind(t: &str) -> Option<openai_stream::StreamKind> {
    let head = &t[..crate::core::offsets::floor_boundary(t, 16 * 1024)];
    let mut reader = sse::SseReader::new();
    let mut events = reader.push(head);
    events.extend(reader.finish());
    events.iter().find_map(|ev| {
        let v = parse_json(ev.data.trim()).ok()?;
        let o = v.as_object()?;
        if !o.contains_key("type") && !o.contains_key("object") {
            return None;
        }
        Some(openai_stream::stream_kind(&v))
    })?
}

/// Whether data of `format` is a raw event stream, appended as it comes: `sse`, or an
/// `ai-sdk` UI message stream (not yet data, or text) rather than a `UIMessage`.
pub(crate) fn streams_events(format: FormatChoice, data: &CiteData) -> bool {
    match format {
        FormatChoice::Given(Format::Sse) => true,
        FormatChoice::Given(Format::AiSdk) => !matches!(data, CiteData::Json(_)),
        // JSON text is the final object (a LlamaIndex response, a LangChain message).
        FormatChoice::Given(f) if is_platform(f) => match data {
            CiteData::Json(_) => false,
            CiteData::Text(t) => is_stream_text(t),
            CiteData::None => streams_without_data(f),
        },
        FormatChoice::Given(f) if has_event_stream(f) => {
            matches!(data, CiteData::Text(t) if is_stream_text(t))
        }
        _ => false,
    }
}

/// Whether `format` is a provider's whose own event stream is read as it comes
/// (`anthropic`, `gemini`, `openai`, `perplexity`): given as text (an event stream, or empty at its start),
/// such data is that stream; given as JSON, it is the final object.
pub(crate) fn has_event_stream(format: Format) -> bool {
    cfg!(feature = "providers")
        && matches!(
            registry::stream(format),
            registry::Stream::Anthropic | registry::Stream::Gemini | registry::Stream::Openai
        )
}

/// Whether text data of a format with an event stream is that stream: anything but
/// JSON (an object or array). Decided by the first character, so that a stream cut
/// anywhere (`eve`) stays one as it grows.
pub(crate) fn is_stream_text(t: &str) -> bool {
    !t.trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with(['{', '['])
}

/// Whether text looks like a server-sent event stream (`data:` lines).
#[doc(hidden)]
pub fn looks_like_sse(t: &str) -> bool {
    let t = t.trim_start_matches('\u{feff}').trim_start();
    t.starts_with("data:") || t.starts_with("event:") || t.starts_with(':') || t.starts_with("id:")
}

/// Whether data holds nothing at all: `null`, `[]`, `{}`, or an object whose values are
/// all such (`{"sources": [], "references": []}`). Every format reads it as no sources,
/// so detection reads it as no data, and a stream that starts with it waits for the
/// data to come.
pub(crate) fn is_empty_data(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.values().all(|x| match x {
            Value::Null => true,
            Value::Array(a) => a.is_empty(),
            Value::Object(o) => o.is_empty(),
            _ => false,
        }),
        _ => false,
    }
}

/// Citation data held by its owner (a component, a stream): none, JSON, or text (JSON
/// text or an event stream). [`CiteData::as_data`] lends it to [`crate::parse`].
#[derive(Debug, Clone, PartialEq, Default)]
pub enum CiteData {
    /// No data.
    #[default]
    None,
    /// Parsed JSON.
    Json(Value),
    /// JSON text or an sse event stream.
    Text(String),
}

impl CiteData {
    /// JSON data.
    pub fn json(v: Value) -> Self {
        CiteData::Json(v)
    }

    /// The data as [`parse`](crate::parse) takes it.
    pub fn as_data(&self) -> Data<'_> {
        match self {
            CiteData::None => Data::None,
            CiteData::Json(v) => Data::Json(v),
            CiteData::Text(t) => Data::Text(t),
        }
    }
}

#[cfg(test)]
mod tests;
