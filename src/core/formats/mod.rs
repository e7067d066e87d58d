//! One parser per input format (docs/formats.md), and detection of the format from the
//! data's shape. Each parser turns `(answer, data)` into a `Draft`.

use crate::core::draft::Draft;
use crate::core::error::ParseError;
use crate::core::json::parse_json;
use crate::core::model::Format;
use crate::core::options::{FormatChoice, Options};
use serde_json::Value;

pub mod ai_sdk;
#[cfg(feature = "providers")]
pub mod anthropic;
#[cfg(feature = "providers")]
pub mod anthropic_stream;
#[cfg(feature = "platforms")]
pub mod azure;
#[cfg(feature = "platforms")]
pub mod bedrock;
pub mod canonical;
pub mod citation_map;
#[cfg(feature = "platforms")]
pub mod cohere;
mod detect_rag;
#[cfg(feature = "providers")]
pub mod gemini;
#[cfg(feature = "providers")]
pub mod gemini_stream;
#[cfg(feature = "platforms")]
pub mod langchain;
#[cfg(feature = "platforms")]
pub mod llamaindex;
pub mod markdown;
#[cfg(feature = "platforms")]
pub mod mistral;
#[cfg(feature = "providers")]
pub mod openai;
#[cfg(feature = "providers")]
pub mod openai_stream;
#[cfg(feature = "payload")]
pub mod payload;
#[cfg(feature = "providers")]
pub mod perplexity;
#[cfg(feature = "providers")]
pub mod perplexity_stream;
pub mod platform_stream;
#[cfg(feature = "posthoc")]
pub mod posthoc;
#[cfg(feature = "platforms")]
mod quoted_span;
pub mod registry;
#[cfg(feature = "scintilla")]
pub mod scintilla;
pub mod sse;
pub mod stored;
pub(crate) mod support;
#[cfg(feature = "platforms")]
pub mod xai;

/// Provider (or posthoc, scintilla, payload) data in a build without those formats: the
/// answer text (the caller's, else the text the data holds, read plainly; its markers
/// unresolved) without citations, and a `format-not-loaded` error saying so. The npm
/// package's first module does this for posthoc, scintilla and payload data until its
/// full module takes over.
fn not_loaded(format: Format, answer: Option<&str>, v: Option<&Value>) -> Draft {
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
            registry::entry(format).feature.name(),
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
    let entry = registry::entry(format);
    // A stream given as text (or as a JSON string holding it).
    let stream = match data {
        Data::Text(t) => Some(t),
        Data::Json(Value::String(t)) if format == Format::Sse || looks_like_sse(t) => {
            Some(t.as_str())
        }
        _ => None,
    };
    let mut draft = match (entry.stream, stream) {
        (registry::Stream::Sse, Some(t)) => sse::parse(t, options)?,
        (registry::Stream::Sse, None) if v.is_none() => {
            return sse::parse(answer.unwrap_or(""), options)
        }
        (registry::Stream::UiMessages, Some(t)) => ai_sdk::parse_stream(t, options)?,
        #[cfg(feature = "platforms")]
        (registry::Stream::Platform { .. }, Some(t)) => {
            platform_stream::parse_stream(format, t, options)?
        }
        _ => {
            return match entry.parse {
                Some(parse) => parse(answer, v, options),
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
pub fn is_platform(format: Format) -> bool {
    matches!(
        registry::entry(format).stream,
        registry::Stream::Platform { .. }
    )
}

/// Whether a platform format's view with no data yet waits for its event stream
/// (Cohere's, Bedrock's: their text is in it) rather than for answer text whose object
/// comes at the end (a LlamaIndex or LangChain app may stream its text and send the
/// response or message last; its stream is appended to data given as `""`).
pub fn streams_without_data(format: Format) -> bool {
    matches!(
        registry::entry(format).stream,
        registry::Stream::Platform {
            waits_for_stream: true,
            ..
        }
    )
}

/// The format of an event stream: a platform's (by its first event), the AI SDK's UI
/// message stream, Anthropic's, Gemini's, OpenAI's or Perplexity's own stream, or
/// `sse`. One pass over the first 16 KB: the first event whose data is JSON and a
/// platform's event, or has a `type` or an `object` (a UI message stream chunk's,
/// Anthropic's, OpenAI's, or another), or is a Gemini chunk, decides; the same rule
/// the stream parser applies to the first event it reads (`stream::events`).
fn stream_format(t: &str) -> Format {
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
pub fn streams_events(format: FormatChoice, data: &CiteData) -> bool {
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
pub fn has_event_stream(format: Format) -> bool {
    cfg!(feature = "providers")
        && matches!(
            registry::entry(format).stream,
            registry::Stream::Anthropic | registry::Stream::Gemini | registry::Stream::Openai
        )
}

/// Whether text data of a format with an event stream is that stream: anything but
/// JSON (an object or array). Decided by the first character, so that a stream cut
/// anywhere (`eve`) stays one as it grows.
pub fn is_stream_text(t: &str) -> bool {
    !t.trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with(['{', '['])
}

/// Whether text looks like a server-sent event stream (`data:` lines).
pub fn looks_like_sse(t: &str) -> bool {
    let t = t.trim_start_matches('\u{feff}').trim_start();
    t.starts_with("data:") || t.starts_with("event:") || t.starts_with(':') || t.starts_with("id:")
}

/// Whether data holds nothing at all: `null`, `[]`, `{}`, or an object whose values are
/// all such (`{"sources": [], "references": []}`). Every format reads it as no sources,
/// so detection reads it as no data, and a stream that starts with it waits for the
/// data to come.
pub fn is_empty_data(v: &Value) -> bool {
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

/// Detects the format from the shape of the data (docs/formats.md, "Detection").
pub fn detect(answer: Option<&str>, data: Data<'_>) -> Result<Format, ParseError> {
    let v = match data {
        Data::None => {
            return Ok(
                if answer.is_some_and(|a| crate::core::bytes::has_char(a, '\u{e200}')) {
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
                    .all(|k| crate::core::bytes::uint(k.trim()).is_some())
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
                .map(|k| format!("\"{}\"", crate::core::sanitize::escape_literal(k)))
                .collect();
            Err(ParseError::Undetected(format!(
                "no format has an object with the keys [{}]",
                crate::core::bytes::join(&mut keys.iter().map(String::as_str), ", ")
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
            crate::core::json::type_name(other)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A provider stream appended in a mounted view stopped being one once its first
    /// chunk (`eve`) did not start with an SSE field: the next chunks went to the
    /// answer as text. Text that is not JSON is the stream however it is cut.
    #[cfg(feature = "providers")]
    #[test]
    fn a_provider_stream_cut_before_its_first_field_stays_a_stream() {
        for f in [Format::Anthropic, Format::Gemini] {
            let given = FormatChoice::Given(f);
            for t in [
                "",
                "e",
                "eve",
                "event: mes",
                "data: {\"candidates\"",
                ": ping\n\n",
            ] {
                assert!(
                    streams_events(given, &CiteData::Text(t.into())),
                    "{f:?} {t:?}"
                );
            }
            for t in ["{\"content\": []}", " [1]"] {
                assert!(
                    !streams_events(given, &CiteData::Text(t.into())),
                    "{f:?} {t:?}"
                );
            }
            assert!(!streams_events(given, &CiteData::Json(Value::Null)));
        }
    }

    /// A platform format given its object as JSON text (a `<cited-answer>`'s `data`
    /// attribute) was taken for its event stream in a live view, and the answer never
    /// showed. Text that is not JSON is the stream; with no data yet, Cohere's and
    /// Bedrock's views wait for their stream, LlamaIndex's and LangChain's for answer
    /// text whose object comes at the end.
    #[test]
    fn a_platform_format_given_json_text_reads_it_as_its_final_object() {
        for f in [
            Format::Cohere,
            Format::BedrockKb,
            Format::Llamaindex,
            Format::Langchain,
        ] {
            let given = FormatChoice::Given(f);
            for t in ["{\"message\": {}}", " [{\"type\": \"text\"}]"] {
                assert!(
                    !streams_events(given, &CiteData::Text(t.into())),
                    "{f:?} {t:?}"
                );
            }
            for t in ["", "da", "data: {\"type\"", "event: messages\n"] {
                assert!(
                    streams_events(given, &CiteData::Text(t.into())),
                    "{f:?} {t:?}"
                );
            }
        }
        assert!(streams_events(
            FormatChoice::Given(Format::Cohere),
            &CiteData::None
        ));
        for f in [Format::Llamaindex, Format::Langchain] {
            assert!(!streams_events(FormatChoice::Given(f), &CiteData::None));
        }
    }

    /// A chat UI's starting value (`{}`, `[]`, `{"sources": []}`) is no data: read as
    /// markdown, not an `undetected-format` error; data that holds something is not.
    #[test]
    fn empty_data_is_no_data() {
        use serde_json::json;
        for v in [
            json!(null),
            json!([]),
            json!({}),
            json!({"sources": []}),
            json!({"sources": [], "citations": null, "extra": {}}),
        ] {
            assert_eq!(
                detect(None, Data::Json(&v)).unwrap(),
                Format::Markdown,
                "{v}"
            );
            assert!(is_empty_data(&v), "{v}");
            let a = crate::core::parse(Some("Hello [1]."), Data::Json(&v), &Options::default())
                .unwrap();
            assert_eq!(a.text, "Hello [1].", "{v}");
            assert!(a.diagnostics.is_empty(), "{v}: {:?}", a.diagnostics);
        }
        for v in [
            json!({"answer": "x"}),
            json!({"sources": [{"title": "T"}]}),
            json!([1]),
            json!(""),
        ] {
            assert!(!is_empty_data(&v), "{v}");
        }
        assert!(detect(None, Data::Json(&json!({"answer": "x"}))).is_err());
        // An empty list under a key that names a format is that format.
        let stored = json!({"sources": [], "references": []});
        assert_eq!(detect(None, Data::Json(&stored)).unwrap(), Format::Stored);
    }

    /// Without the provider formats (`cargo test --no-default-features --lib`, as
    /// `npm test` runs it): each provider's data is still detected, and shows its text
    /// without citations, with a `format-not-loaded` error naming the format.
    #[cfg(not(feature = "providers"))]
    #[test]
    fn provider_data_without_the_provider_formats() {
        use serde_json::json;
        let cases = [
            (
                "anthropic",
                json!({"type": "message", "role": "assistant", "content": [
                    {"type": "text", "text": "The tower is "},
                    {"type": "text", "text": "330 m tall.", "citations": [{"type": "web_search_result_location",
                        "url": "https://t.example/", "title": "T", "cited_text": "330 m"}]}]}),
                "The tower is 330 m tall.",
            ),
            (
                "openai",
                json!({"output": [{"type": "message", "content": [{"type": "output_text",
                    "text": "Rust 1.0 shipped in 2015.", "annotations": [{"type": "url_citation",
                    "start_index": 0, "end_index": 10, "url": "https://r.example/", "title": "R"}]}]}]}),
                "Rust 1.0 shipped in 2015.",
            ),
            (
                "gemini",
                json!({"candidates": [{"content": {"parts": [{"text": "Gemini text."}]},
                    "groundingMetadata": {"groundingChunks": [{"web": {"uri": "https://g.example/", "title": "G"}}],
                    "groundingSupports": []}}]}),
                "Gemini text.",
            ),
            (
                "perplexity",
                json!({"model": "sonar", "citations": ["https://p.example/"],
                    "choices": [{"message": {"role": "assistant", "content": "Sonar says so [1]."}}]}),
                "Sonar says so.",
            ),
        ];
        for (name, data, text) in &cases {
            let a = crate::core::parse_lenient(None, Data::Json(data), &Options::default());
            assert_eq!(a.format.name(), *name);
            assert_eq!(a.text, *text, "{name}");
            assert!(a.citations.is_empty(), "{name}: {:?}", a.citations);
            let d = a
                .diagnostics
                .iter()
                .find(|d| d.code == "format-not-loaded")
                .unwrap_or_else(|| panic!("{name}: {:?}", a.diagnostics));
            assert!(d
                .message
                .starts_with(&format!("{name} data needs the `providers` feature,")));
        }
        // The caller's text wins.
        let a =
            crate::core::parse_lenient(Some("Mine."), Data::Json(&cases[1].1), &Options::default());
        assert_eq!(a.text, "Mine.");
    }

    /// Without the posthoc format (the npm package's first module): its data is still
    /// detected and shows its text, without citations, with a `format-not-loaded` error.
    #[cfg(not(feature = "posthoc"))]
    #[test]
    fn posthoc_data_without_the_posthoc_format() {
        let data = serde_json::json!({"response": "Paris is big.",
            "sources": [{"title": "P", "url": "https://p.example/"}],
            "citations": [{"claim": "Paris is big", "sourceIndex": 1}]});
        let a = crate::core::parse_lenient(None, Data::Json(&data), &Options::default());
        assert_eq!(a.format, Format::Posthoc);
        assert_eq!(a.text, "Paris is big.");
        assert!(a.citations.is_empty());
        assert!(a.diagnostics.iter().any(|d| d.code == "format-not-loaded"
            && d.message
                .starts_with("posthoc data needs the `posthoc` feature,")));
    }

    /// Without the scintilla and payload formats (the npm package's first module): their
    /// data is still detected and shows its text (a payload's `text`; scintilla's tool
    /// metadata holds none), without citations, with a `format-not-loaded` error.
    #[cfg(not(any(feature = "scintilla", feature = "payload")))]
    #[test]
    fn scintilla_and_payload_data_without_their_formats() {
        let scintilla = serde_json::json!([{"urls": ["https://a.example/"], "titles": ["A"]}]);
        let block = serde_json::json!({"text": "Paris is big [1].",
            "sources": [{"title": "P", "url": "https://p.example/", "citedText": "big"}]});
        // The citation event (read as payload when the format is given).
        let event = serde_json::json!({"type": "citation", "value": block.clone()});
        let given = Options {
            format: FormatChoice::Given(Format::Payload),
            ..Options::default()
        };
        let auto = Options::default();
        for (name, data, answer, options, text) in [
            ("scintilla", &scintilla, Some("Paris [1]."), &auto, "Paris."),
            ("scintilla", &scintilla, None, &auto, ""),
            ("payload", &block, None, &auto, "Paris is big."),
            ("payload", &event, None, &given, "Paris is big."),
        ] {
            let a = crate::core::parse_lenient(answer, Data::Json(data), options);
            assert_eq!(a.format.name(), name);
            assert_eq!(a.text, text, "{name}");
            assert!(a.citations.is_empty(), "{name}: {:?}", a.citations);
            assert!(
                a.diagnostics.iter().any(|d| d.code == "format-not-loaded"
                    && d.message
                        .starts_with(&format!("{name} data needs the `{name}` feature,"))),
                "{name}: {:?}",
                a.diagnostics
            );
        }
    }

    /// A Bedrock Converse or Knowledge Bases response has an `output` as OpenAI's
    /// Responses do, and was taken for one, showing an empty answer with no source; a
    /// bare Cohere or Converse message was taken for Anthropic's. Each is its own
    /// format and shows its text (with the `platforms` feature, its sources too).
    #[test]
    fn a_bedrock_response_is_not_taken_for_openai_with_an_empty_answer() {
        use serde_json::json;
        let cases = [
            (
                json!({"output": {"message": {"role": "assistant", "content": [
                    {"citationsContent": {"content": [{"text": "Bees dance."}],
                     "citations": [{"title": "Bee book", "location": {"documentChar": {"documentIndex": 0, "start": 0, "end": 4}}}]}}]}},
                    "stopReason": "end_turn"}),
                Format::BedrockConverse,
                "Bees dance.",
            ),
            (
                json!({"sessionId": "s", "output": {"text": "Thirty days."}, "citations": [
                    {"generatedResponsePart": {"textResponsePart": {"text": "Thirty days.", "span": {"start": 0, "end": 11}}},
                     "retrievedReferences": [{"content": {"text": "30 days"}, "location": {"type": "S3", "s3Location": {"uri": "s3://b/hr.pdf"}}}]}]}),
                Format::BedrockKb,
                "Thirty days.",
            ),
            (
                json!({"role": "assistant", "content": [{"type": "text", "text": "Hi there."}],
                    "citations": [{"start": 3, "end": 8, "text": "there", "sources": [{"type": "document", "id": "d", "document": {"title": "D"}}]}]}),
                Format::Cohere,
                "Hi there.",
            ),
        ];
        for (data, format, text) in cases {
            assert_eq!(detect(None, Data::Json(&data)).unwrap(), format, "{data}");
            let a = crate::core::parse_lenient(None, Data::Json(&data), &Options::default());
            assert_eq!(a.text, text);
            #[cfg(feature = "platforms")]
            assert_eq!(a.citations.len(), 1, "{format}: {:?}", a.diagnostics);
            #[cfg(not(feature = "platforms"))]
            assert!(a.diagnostics.iter().any(|d| d.code == "format-not-loaded"));
        }
        // OpenAI's Responses output (an array) and Anthropic's typed blocks stay theirs.
        let openai = json!({"output": [{"type": "message", "content": [{"type": "output_text", "text": "x"}]}]});
        assert_eq!(detect(None, Data::Json(&openai)).unwrap(), Format::Openai);
        let anthropic = json!({"role": "assistant", "content": [{"type": "text", "text": "x"}]});
        assert_eq!(
            detect(None, Data::Json(&anthropic)).unwrap(),
            Format::Anthropic
        );
    }

    /// Without the platform formats (the npm package's first module): each platform's
    /// data is still detected, shows its text (markers read, `[doc1]` and `[[1]](url)`
    /// too, none raw) without citations, with a `format-not-loaded` error naming the
    /// `platforms` feature.
    #[cfg(not(feature = "platforms"))]
    #[test]
    fn platform_data_without_the_platform_formats() {
        use serde_json::json;
        let cases = [
            (
                "azure",
                json!({"choices": [{"message": {"role": "assistant", "content": "Köln [doc1].",
                    "context": {"citations": [{"title": "K", "url": "https://k.example/"}]}}}]}),
                "Köln.",
            ),
            (
                "xai",
                json!({"model": "grok-3", "choices": [{"message": {"content": "Grok [[1]](https://x.ai/)."}}],
                    "citations": ["https://x.ai/"]}),
                "Grok.",
            ),
            (
                "mistral",
                json!({"choices": [{"message": {"content": [{"type": "text", "text": "Ça"},
                    {"type": "reference", "reference_ids": [0]}]}}]}),
                "Ça",
            ),
            (
                "llamaindex",
                json!({"response": "Rhein [citation:n1].", "source_nodes": [{"node": {"id_": "n1", "text": "R"}}]}),
                "Rhein.",
            ),
            (
                "langchain",
                json!({"type": "ai", "content": [{"type": "text", "text": "Dom.", "annotations": [
                    {"type": "citation", "url": "https://d.example/", "start_index": 0, "end_index": 3}]}]}),
                "Dom.",
            ),
        ];
        for (name, data, text) in &cases {
            let a = crate::core::parse_lenient(None, Data::Json(data), &Options::default());
            assert_eq!(a.format.name(), *name);
            assert_eq!(a.text, *text, "{name}");
            assert!(a.citations.is_empty(), "{name}: {:?}", a.citations);
            assert!(
                a.diagnostics.iter().any(|d| d.code == "format-not-loaded"
                    && d.message
                        .starts_with(&format!("{name} data needs the `platforms` feature,"))),
                "{name}: {:?}",
                a.diagnostics
            );
        }
    }

    /// The caller's text wins over the text of an event stream's tokens; the stream
    /// supplies the sources.
    #[test]
    fn caller_text_wins_over_sse_tokens() {
        let stream = "data: {\"type\":\"token\",\"content\":\"Stream text [1].\"}\n\n\
                      data: {\"type\":\"citations\",\"data\":{\"1\":{\"title\":\"One\",\"source\":\"https://one.example/\"}}}\n\n\
                      data: [DONE]\n\n";
        let options = Options::default();
        let a = crate::core::parse(Some("Caller text [1]."), Data::Text(stream), &options).unwrap();
        assert_eq!(a.text, "Caller text.");
        assert_eq!(a.citations.len(), 1);
        assert_eq!(a.citations[0].sources, vec!["1".to_string()]);
        assert_eq!((a.citations[0].start, a.citations[0].end), (0, 11));
        // An empty answer is no answer: the tokens are the text.
        let a = crate::core::parse(Some(""), Data::Text(stream), &options).unwrap();
        assert_eq!(a.text, "Stream text.");
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
