//! The `ai-sdk` format (docs/formats.md): what the Vercel AI SDK (`ai`, `useChat`)
//! hands an app. Three shapes of one thing:
//!
//! - a `UIMessage` `{id, role, metadata?, parts: [...]}`;
//! - its `parts` array;
//! - an array of `UIMessage`s: the last assistant message is the answer;
//!
//! and its **UI message stream**, the server-sent events `toUIMessageStream` writes
//! (`data: {"type":"text-delta","id":"0","delta":"Paris"}`, ..., `data: [DONE]`),
//! given whole to `parse` or appended raw to a stream ([`StreamAccumulator`]).
//!
//! Parts, by `type`:
//! - `text` `{text, state?, providerMetadata?}`: the answer is every text part's text,
//!   in order. A text part that follows a `step-start` or any other part that is not
//!   text or a source (reasoning, a tool call, a file, data) since the last text starts
//!   a new paragraph: a blank line is put between, unless the text so far already ends
//!   with one;
//! - `source-url` `{sourceId, url, title?, providerMetadata?}` and `source-document`
//!   `{sourceId, mediaType, title, filename?, providerMetadata?}`: the sources, in
//!   order, one per url (or, for a document, per `fileId` its provider gave, else per
//!   title and file name); a url that cannot be linked is reported (`unsafe-url`) and
//!   the source kept without a link. Markers in the text (every form of the grammar,
//!   `[1]`, `[1][2]`, `[1, 2]`, `【1】`, ...) name them by that order, 1-based, as
//!   Perplexity answers through the AI SDK carry them;
//! - `step-start`, `reasoning`, `tool-<name>`, `dynamic-tool`, `file`, `data-<name>`
//!   and any other type: not text; kept in the answer's metadata as `other_parts`.
//!
//! Where a provider left its own positions, the citations are placed from them by that
//! provider's parser (`openai`, `anthropic`, `gemini`), with its offset unit, over the
//! text part (or the step's text) they index:
//! - a text part's `providerMetadata.<provider>.annotations` (`@ai-sdk/openai`'s
//!   Responses models copy the `output_text` annotations there): `url_citation`
//!   `start_index..end_index` in UTF-16 units of that part, `file_citation` points;
//! - a text part's `providerMetadata.anthropic.citations` (`@ai-sdk/anthropic` copies a
//!   text block's citations there: web search results, and with `ai` 7 document
//!   locations too): the part is the span, `cited_text` its quote;
//! - a `groundingMetadata` object in the message's `metadata` (`@ai-sdk/google` reports
//!   it as the step's provider metadata, which an app forwards with `messageMetadata`):
//!   its supports index the last step's text in UTF-8 bytes;
//! - without those, a text part's own `citations` (`ai` 7: `{source, startIndex?,
//!   endIndex?, citedText?}`): spans in UTF-16 units of the part, or the whole part;
//! - without any of those, a `source-document` part's
//!   `providerMetadata.anthropic.citedText` (with `startCharIndex`/`endCharIndex` or
//!   `startPageNumber`/`endPageNumber`), which `@ai-sdk/anthropic` emits for a document
//!   citation while the cited text block streams: the span is that text part (the last
//!   one started before the source).
//!
//! Sources with neither a marker nor a position stay sources of the whole answer:
//! `cited: false`, `scope: "answer"`, listed in the panel and, after the cited ones,
//! in the footnotes. Without the `providers` feature the provider parsers are not
//! there: the text, the sources, the markers and the parts' own `citations` are read,
//! and positions only a provider's parser reads give a `format-not-loaded` error.
//!
//! Both shapes are read by one `Builder`, a message part by part and a stream chunk
//! by chunk ([`StreamAccumulator`], `stream.rs`), so a stream ends as `parse` of the
//! message it makes.

use crate::core::draft::{Draft, DraftSource, DraftSpan, SourceRef};
use crate::core::error::ParseError;
use crate::core::formats::sse::{whole_stream_events, SseReader};
use crate::core::formats::support::{self, classify_link, Link};
use crate::core::json::{parse_json, type_name, wrong_type, Fields};
use crate::core::map::Map as HMap;
use crate::core::markers::{SourceKey, TextSyntax};
use crate::core::model::{
    Diagnostic, DocumentUnit, Format, Location, MergeWins, Source, SourceScope,
};
use crate::core::offsets::{floor_boundary, OffsetIndex, PositionEncoding};
use crate::core::options::Options;
use crate::core::sanitize::{excerpt200, normalize_url};
use serde_json::{Map, Value};

mod stream;
pub use stream::StreamAccumulator;

/// The chunk types of the UI message stream (`ui-message-chunks.ts`); `tool-*` and
/// `data-*` are matched by prefix.
const CHUNK_TYPES: [&str; 18] = [
    "start",
    "start-step",
    "text-start",
    "text-delta",
    "text-end",
    "reasoning-start",
    "reasoning-delta",
    "reasoning-end",
    "source-url",
    "source-document",
    "finish-step",
    "finish",
    "abort",
    "message-metadata",
    "reasoning-file",
    "custom",
    "file",
    "reset-step",
];

/// Part types only a `UIMessage` has (`text` and `reasoning` parts are told by `state`
/// or `providerMetadata`; `tool-*` and `data-*` by prefix).
const PART_TYPES: [&str; 5] = [
    "source-url",
    "source-document",
    "step-start",
    "dynamic-tool",
    "reasoning-file",
];

/// Whether `t` is a chunk type of the UI message stream.
pub fn is_chunk_type(t: &str) -> bool {
    CHUNK_TYPES.contains(&t) || t.starts_with("tool-") || t.starts_with("data-")
}

/// Whether a JSON value is one part of a `UIMessage` that no other format has.
fn is_distinct_part(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    let Some(t) = o.get("type").and_then(Value::as_str) else {
        return false;
    };
    PART_TYPES.contains(&t)
        || (t.starts_with("tool-") && o.contains_key("toolCallId"))
        || (t.starts_with("data-") && o.contains_key("data"))
        || (matches!(t, "text" | "reasoning")
            && o.get("text").is_some_and(Value::is_string)
            && (o.get("state").is_some_and(Value::is_string)
                || o.get("providerMetadata").is_some_and(Value::is_object)))
}

/// Whether a JSON value is a `UIMessage`: `parts` an array whose items have a string
/// `type` (Gemini's `Content` has `parts` without types), or an empty one with a role.
pub fn is_message(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    let Some(parts) = o.get("parts").and_then(Value::as_array) else {
        return false;
    };
    if parts.is_empty() {
        return matches!(
            o.get("role").and_then(Value::as_str),
            Some("assistant" | "user" | "system")
        ) && o.contains_key("id");
    }
    parts
        .iter()
        .any(|p| p.get("type").is_some_and(Value::is_string))
}

/// Whether JSON data is AI SDK data: a message, an array of messages, or a parts array
/// with at least one part no other format has.
pub fn detect(v: &Value) -> bool {
    match v {
        Value::Object(_) => is_message(v),
        Value::Array(a) => {
            a.iter().any(is_message)
                || (a.iter().any(is_distinct_part)
                    && a.iter()
                        .all(|p| p.get("type").is_some_and(Value::is_string)))
        }
        _ => false,
    }
}

/// Whether an event stream is a UI message stream: its first event whose data is a
/// JSON object with a `type` has a chunk type of the AI SDK. Only the first events are
/// read (at most 16 KB).
pub fn is_ui_message_stream(stream: &str) -> bool {
    let head = &stream[..floor_boundary(stream, 16 * 1024)];
    let mut reader = SseReader::new();
    let mut events = reader.push(head);
    events.extend(reader.finish());
    events
        .iter()
        .find_map(|ev| {
            let v = parse_json(ev.data.trim()).ok()?;
            v.get("type").and_then(Value::as_str).map(is_chunk_type)
        })
        .unwrap_or(false)
}

/// Parses a `UIMessage`, its parts or an array of messages into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    options: &Options,
) -> Result<Draft, ParseError> {
    let not_format = |msg: String| Err(ParseError::not_format(Format::AiSdk, "$", msg));
    let (message, prefix): (Option<&Map<String, Value>>, String) = match data {
        // No data yet (a view that streams the UI message stream starts so, as `sse`
        // does): no text, no sources, no error.
        None | Some(Value::Null) => {
            let mut draft = Builder::new(options).finish();
            if let Some(a) = answer {
                draft.text = a.to_string();
            }
            return Ok(draft);
        }
        Some(Value::Object(o)) => (Some(o), String::new()),
        Some(Value::Array(a)) => {
            // An array of messages (useChat's `messages`): the last assistant one. Before
            // the first answer there is none: no text yet (not the user's question).
            if a.iter().any(is_message) {
                let last = a.iter().enumerate().rev().find(|(_, m)| {
                    is_message(m) && m.get("role").and_then(Value::as_str) == Some("assistant")
                });
                match last {
                    Some((i, Value::Object(o))) => (Some(o), format!("[{i}]")),
                    _ => {
                        let mut draft = Builder::new(options).finish();
                        if let Some(a) = answer {
                            support::use_caller_text(&mut draft, a);
                        }
                        return Ok(draft);
                    }
                }
            } else {
                (None, String::new())
            }
        }
        Some(other) => {
            return not_format(format!(
                "expected a UIMessage, its parts or an array of messages, found {}",
                type_name(other)
            ))
        }
    };
    let mut b = Builder::new(options);
    let parts: Vec<&Value> = match (message, data) {
        (Some(o), _) => {
            let mut f = Fields::new(o, prefix.clone());
            let parts = match f.value("parts") {
                Some(Value::Array(a)) => a.iter().collect(),
                Some(other) => {
                    return not_format(format!(
                        "expected `parts` to be an array, found {}",
                        type_name(other)
                    ))
                }
                None => return not_format("expected a UIMessage with `parts`".into()),
            };
            if let Some(m) = f.value("metadata") {
                b.message_metadata = Some(m.clone());
            }
            b.draft.metadata = f.rest();
            parts
        }
        (None, Some(Value::Array(a))) => a.iter().collect(),
        _ => Vec::new(),
    };
    let part_path = |i: usize| {
        if prefix.is_empty() && message.is_none() {
            format!("[{i}]")
        } else if prefix.is_empty() {
            format!("parts[{i}]")
        } else {
            format!("{prefix}.parts[{i}]")
        }
    };
    for (i, part) in parts.iter().enumerate() {
        b.part(part, &part_path(i));
    }
    let mut draft = b.finish();
    if let Some(a) = answer {
        support::use_caller_text(&mut draft, a);
    }
    Ok(draft)
}

/// The answer text of a message, its parts or an array of messages, as [`parse`] reads
/// it (raw: markers still in): its text parts joined, a paragraph break where a step
/// or another part came between. Empty when the value is not such data. A view given
/// the message again on every render (`useChat`) compares it with the text it shows.
pub fn answer_text(v: &Value) -> String {
    parse(None, Some(v), &Options::default())
        .map(|d| d.text)
        .unwrap_or_default()
}

/// Parses a whole UI message stream into a draft.
pub fn parse_stream(stream: &str, options: &Options) -> Result<Draft, ParseError> {
    let (events, limit) = whole_stream_events(stream, Format::AiSdk)?;
    let mut acc = StreamAccumulator::new(options);
    for ev in &events {
        acc.event(ev);
    }
    let mut draft = acc.finish();
    if let Some(d) = limit {
        draft.diagnostics.insert(0, d);
    }
    Ok(draft)
}

/// A text part being read: its text is written to the answer as it comes while it is
/// the first open one; a later one started while it is open waits in `pending`.
#[derive(Debug, Clone)]
struct OpenText {
    /// The part's id (the stream's `id`; a message's parts are read one at a time).
    id: String,
    /// Gap parts (see [`Builder::gaps`]) before it started.
    pub(super) gaps: u64,
    /// Steps before it started.
    steps: u64,
    /// Its text not yet written to the answer.
    pending: String,
    /// Where its text starts in the answer, once written.
    start: Option<usize>,
    /// `text-end` came.
    pub(super) ended: bool,
    /// The part's `providerMetadata` (the last one given).
    provider_metadata: Option<Value>,
    /// The part's `citations` (`ai` 7: `{source, startIndex?, endIndex?, citedText?}`).
    citations: Option<Value>,
    /// Anthropic document citations given while it streamed (source-document parts).
    document_citations: Vec<DocumentCitation>,
    /// Where it sits in the data, for diagnostics.
    path: String,
}

/// An Anthropic document citation read from a `source-document` part.
#[derive(Debug, Clone)]
struct DocumentCitation {
    source: usize,
    cited_text: Option<String>,
    location: Option<Location>,
}

/// Builds a draft from the parts of a message, read one at a time in order, or from
/// the chunks of a UI message stream: both read through the same steps, so a stream
/// ends as `parse` of the message it makes.
#[derive(Debug, Clone)]
pub(super) struct Builder {
    pub(super) draft: Draft,
    options: Options,
    /// Text parts started and not yet all written, in start order.
    open: Vec<OpenText>,
    /// Parts that are not text or sources, so far (a text part after one of them starts
    /// a new paragraph).
    pub(super) gaps: u64,
    /// Gap count the last written text part started after.
    gaps_written: u64,
    /// `step-start` parts so far.
    steps: u64,
    /// The number of the last step that has text, and where its text starts.
    step_text: Option<(u64, usize)>,
    /// The last text part written: its range in the answer.
    last_text: Option<(usize, usize)>,
    /// Whether that part's citations were placed from its own data (a document
    /// citation of a source part after it is then one of them).
    last_text_placed: bool,
    /// Document sources by title: a provider's citation names its document by title.
    doc_titles: HMap<String, usize>,
    /// Source lookups: normalized url (or raw link) → index, id → index.
    by_url: HMap<String, usize>,
    by_id: HMap<String, usize>,
    /// Distinct source parts so far (the marker numbers), by their dedupe key.
    numbered: HMap<String, u64>,
    /// The `sourceId` of the first source part of each source, by index: its id
    /// whichever record of it came first (a provider's annotation is read when its text
    /// part ends, which is before its source parts in a message and after them in a
    /// stream).
    part_ids: HMap<usize, String>,
    /// The message's `metadata` (merged as the stream gives it).
    pub(super) message_metadata: Option<Value>,
    /// Parts that are neither text nor sources, for the metadata.
    pub(super) other: Vec<Value>,
    /// [`Builder::end`] ran.
    pub(super) ended: bool,
    /// Whether provider positions were seen that this build does not read.
    #[cfg(not(feature = "providers"))]
    positions_skipped: bool,
}

impl Builder {
    pub(super) fn new(options: &Options) -> Self {
        let mut draft = Draft::new(Format::AiSdk, "");
        draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
        Builder {
            draft,
            options: options.clone(),
            open: Vec::new(),
            gaps: 0,
            gaps_written: 0,
            steps: 0,
            step_text: None,
            last_text: None,
            last_text_placed: false,
            doc_titles: HMap::new(),
            by_url: HMap::new(),
            by_id: HMap::new(),
            numbered: HMap::new(),
            part_ids: HMap::new(),
            message_metadata: None,
            other: Vec::new(),
            #[cfg(not(feature = "providers"))]
            positions_skipped: false,
            ended: false,
        }
    }

    /// One part of a message.
    pub(super) fn part(&mut self, part: &Value, path: &str) {
        let Value::Object(o) = part else {
            self.draft
                .diagnostics
                .push(wrong_type(path, "a message part", part));
            return;
        };
        match o.get("type").and_then(Value::as_str) {
            Some("text") => {
                let mut f = Fields::new(o, path);
                let text = match f.value("text") {
                    Some(Value::String(s)) => s.as_str(),
                    Some(other) => {
                        self.draft.diagnostics.push(wrong_type(
                            &f.path_of("text"),
                            "a string",
                            other,
                        ));
                        ""
                    }
                    None => "",
                };
                let id = format!("\u{0}{path}");
                self.text_start(&id, path);
                self.text_delta(&id, text, None);
                self.text_end(&id, o.get("providerMetadata"), o.get("citations"));
            }
            Some("source-url") => {
                self.source_url(o, path, true);
            }
            Some("source-document") => {
                self.source_document(o, path, true);
            }
            Some("step-start") => self.step_start(),
            Some(_) => self.other_part(part.clone()),
            None => {
                self.draft.diagnostics.push(
                    Diagnostic::warning(
                        "missing-field",
                        format!("`{path}.type` is missing; the part is kept in the metadata"),
                    )
                    .at_path(format!("{path}.type")),
                );
                self.other_part(part.clone());
            }
        }
    }

    pub(super) fn step_start(&mut self) {
        self.steps += 1;
        self.gaps += 1;
    }

    /// A part that is not text or a source: kept, and the next text starts a new
    /// paragraph.
    fn other_part(&mut self, part: Value) {
        self.gaps += 1;
        self.other.push(part);
    }

    pub(super) fn text_start(&mut self, id: &str, path: &str) {
        self.open.push(OpenText {
            id: id.to_string(),
            gaps: self.gaps,
            steps: self.steps,
            pending: String::new(),
            start: None,
            ended: false,
            provider_metadata: None,
            citations: None,
            document_citations: Vec::new(),
            path: path.to_string(),
        });
    }

    /// More text of part `id` (and, as a stream's delta may carry it, its provider
    /// metadata so far).
    pub(super) fn text_delta(&mut self, id: &str, delta: &str, provider_metadata: Option<&Value>) {
        let Some(i) = self.open.iter().position(|t| t.id == id) else {
            return;
        };
        if let Some(m) = provider_metadata.filter(|m| !m.is_null()) {
            self.open[i].provider_metadata = Some(m.clone());
        }
        if i == 0 {
            self.write(0, delta);
        } else {
            self.open[i].pending.push_str(delta);
        }
    }

    /// Writes text of the first open part to the answer (the paragraph break first,
    /// when it is the part's first text).
    fn write(&mut self, i: usize, text: &str) {
        if text.is_empty() {
            return;
        }
        let t = &mut self.open[i];
        if t.start.is_none() {
            let answer = &mut self.draft.text;
            if t.gaps > self.gaps_written && !answer.is_empty() && !answer.ends_with("\n\n") {
                answer.push_str(if answer.ends_with('\n') { "\n" } else { "\n\n" });
            }
            self.gaps_written = t.gaps;
            t.start = Some(answer.len());
            if self.step_text.is_none_or(|(step, _)| t.steps > step) {
                self.step_text = Some((t.steps, answer.len()));
            }
        }
        self.draft.text.push_str(text);
    }

    pub(super) fn text_end(
        &mut self,
        id: &str,
        provider_metadata: Option<&Value>,
        citations: Option<&Value>,
    ) {
        let Some(t) = self.open.iter_mut().find(|t| t.id == id) else {
            return;
        };
        t.ended = true;
        if let Some(m) = provider_metadata.filter(|m| !m.is_null()) {
            t.provider_metadata = Some(m.clone());
        }
        if let Some(c) = citations.filter(|c| !c.is_null()) {
            t.citations = Some(c.clone());
        }
        self.flush();
    }

    /// Finishes the ended parts at the head of the open list, and writes the waiting
    /// text of the part that then comes first.
    fn flush(&mut self) {
        while self.open.first().is_some_and(|t| t.ended) {
            let t = self.open.remove(0);
            self.finish_text(t);
            if self.open.is_empty() {
                break;
            }
            let pending = std::mem::take(&mut self.open[0].pending);
            self.write(0, &pending);
        }
    }

    /// A text part is complete: its range is known, its positions are read: the
    /// provider's own (its parser places them), else the part's `citations`, else the
    /// document citations of the source parts given while it streamed.
    fn finish_text(&mut self, t: OpenText) {
        let Some(start) = t.start else {
            return;
        };
        let end = self.draft.text.len();
        self.last_text = Some((start, end));
        let mut placed = false;
        if let Some(Value::Object(meta)) = &t.provider_metadata {
            for (provider, m) in meta {
                let path = format!("{}.providerMetadata.{provider}", t.path);
                placed |= self.provider_positions(m, start, end, &path);
            }
        }
        if !placed {
            if let Some(Value::Array(citations)) = &t.citations {
                placed =
                    self.part_citations(citations, start, end, &format!("{}.citations", t.path));
            }
        }
        #[cfg(not(feature = "providers"))]
        if !placed {
            if let Some(Value::Object(meta)) = &t.provider_metadata {
                self.positions_skipped |= meta.values().any(|m| {
                    m.get("annotations").is_some_and(Value::is_array)
                        || m.get("citations").is_some_and(Value::is_array)
                });
            }
        }
        if !placed {
            for c in t.document_citations {
                let mut span = DraftSpan::new(start, end, vec![SourceRef::Index(c.source)]);
                span.cited_text = c.cited_text;
                span.location = c.location;
                self.draft.spans.push(span);
            }
        }
        self.last_text_placed = placed;
    }

    /// A text part's provider metadata: OpenAI annotations or Anthropic citations over
    /// `answer[start..end]`. Whether there were any.
    #[cfg(feature = "providers")]
    fn provider_positions(&mut self, m: &Value, start: usize, end: usize, path: &str) -> bool {
        let text = self.draft.text[start..end].to_string();
        let sub = if let Some(a) = m.get("annotations").filter(|a| a.is_array()) {
            let mut item = object(&[("type", "output_text"), ("text", &text)]);
            item["annotations"] = a.clone();
            crate::core::formats::openai::parse(None, Some(&item), &self.options)
        } else if let Some(c) = m.get("citations").filter(|c| c.is_array()) {
            let mut block = object(&[("type", "text"), ("text", &text)]);
            block["citations"] = c.clone();
            let blocks = Value::Array(vec![block]);
            crate::core::formats::anthropic::parse(None, Some(&blocks), &self.options)
        } else {
            return false;
        };
        match sub {
            Ok(sub) => {
                self.absorb(sub, start, path);
                true
            }
            Err(_) => false,
        }
    }

    /// Without the provider formats, provider positions are not read here (the
    /// part's `citations` still are; [`Builder::finish_text`] says what was skipped).
    #[cfg(not(feature = "providers"))]
    fn provider_positions(&mut self, _m: &Value, _start: usize, _end: usize, _path: &str) -> bool {
        false
    }

    /// A text part's `citations` (`ai` 7's own, `{source, startIndex?, endIndex?,
    /// citedText?}`): each one a span over `startIndex..endIndex` of the part (UTF-16
    /// code units, JS string offsets; `inputEncoding` overrides), or over the whole
    /// part without them. Whether any was placed.
    fn part_citations(
        &mut self,
        citations: &[Value],
        start: usize,
        end: usize,
        path: &str,
    ) -> bool {
        let encoding = self
            .options
            .input_encoding
            .unwrap_or(PositionEncoding::Utf16);
        let text = self.draft.text[start..end].to_string();
        let ix = OffsetIndex::new(&text, encoding);
        let mut placed = false;
        for (j, c) in citations.iter().enumerate() {
            let cpath = format!("{path}[{j}]");
            let Some(o) = c.as_object() else {
                self.draft
                    .diagnostics
                    .push(wrong_type(&cpath, "a citation object", c));
                continue;
            };
            let mut f = Fields::new(o, cpath.as_str());
            let Some(Value::Object(so)) = f.value("source") else {
                self.draft.diagnostics.push(
                    Diagnostic::warning(
                        "missing-field",
                        format!("`{cpath}.source` is missing; the citation is skipped"),
                    )
                    .at_path(format!("{cpath}.source")),
                );
                continue;
            };
            let spath = format!("{cpath}.source");
            let i = match so.get("sourceType").and_then(Value::as_str) {
                Some("document") => self.source_document(so, &spath, false),
                _ => self.source_url(so, &spath, false),
            };
            let diags = &mut self.draft.diagnostics;
            let s = f.uint("startIndex", diags);
            let e = f.uint("endIndex", diags);
            let cited = f
                .string("citedText", diags)
                .filter(|t| !t.trim().is_empty())
                .map(|t| excerpt200(&t));
            let range = match (s, e) {
                (Some(s), Some(e)) => support::byte_span(&ix, encoding, s, e, &cpath, diags)
                    .map(|(a, b)| (start + a, start + b)),
                (None, Some(e)) => support::byte_span(&ix, encoding, 0, e, &cpath, diags)
                    .map(|(a, b)| (start + a, start + b)),
                _ => Some((start, end)),
            };
            let Some((a, b)) = range else {
                continue;
            };
            let mut span = DraftSpan::new(a, b, vec![SourceRef::Index(i)]);
            span.cited_text = cited;
            self.draft.spans.push(span);
            placed = true;
        }
        placed
    }

    /// Takes a provider parser's draft over the text at `offset`: its sources merged
    /// into these (by id, then url), its spans and diagnostics moved by `offset`.
    #[cfg(feature = "providers")]
    fn absorb(&mut self, sub: Draft, offset: usize, path: &str) {
        let map: Vec<usize> = sub
            .sources
            .into_iter()
            .map(|ds| {
                let key = ds.source.url.as_deref().map(normalize_url);
                let doc = key
                    .is_none()
                    .then(|| {
                        ds.source
                            .title
                            .as_ref()
                            .and_then(|t| self.doc_titles.get(t))
                            .copied()
                    })
                    .flatten();
                match doc {
                    Some(i) => {
                        self.draft.sources[i]
                            .source
                            .merge(ds.source, MergeWins::Kept);
                        i
                    }
                    None => {
                        let title = ds.source.title.clone().filter(|_| key.is_none());
                        let i = self.add_source(ds.source, key, None);
                        if let Some(t) = title {
                            self.doc_titles.or_insert(t, i);
                        }
                        i
                    }
                }
            })
            .collect();
        for mut span in sub.spans {
            span.start += offset;
            span.end += offset;
            span.sources = span
                .sources
                .into_iter()
                .filter_map(|r| match r {
                    SourceRef::Index(i) => map.get(i).map(|&j| SourceRef::Index(j)),
                    SourceRef::Key(_) => None,
                })
                .collect();
            support::push_span(&mut self.draft, span);
        }
        for mut d in sub.diagnostics {
            if let (Some(s), Some(e)) = (d.start, d.end) {
                d.start = Some(s + offset);
                d.end = Some(e + offset);
            }
            d.path = Some(match d.path.take() {
                Some(p) if p.starts_with('$') || p.is_empty() => path.to_string(),
                Some(p) => format!("{path}.{p}"),
                None => path.to_string(),
            });
            self.draft.diagnostics.push(d);
        }
    }

    /// Adds a source, or merges it into the one with the same id or dedupe key;
    /// `number`: the marker number it answers to. Returns its index.
    fn add_source(&mut self, source: Source, key: Option<String>, number: Option<u64>) -> usize {
        let hit = self
            .by_id
            .get(&source.id)
            .or_else(|| key.as_ref().and_then(|k| self.by_url.get(k)))
            .copied();
        let i = match hit {
            Some(i) => {
                self.draft.sources[i].source.merge(source, MergeWins::Kept);
                i
            }
            None => {
                let i = self.draft.sources.len();
                self.by_id.insert(source.id.clone(), i);
                self.draft.sources.push(DraftSource {
                    source,
                    keys: Vec::new(),
                    given_number: None,
                });
                i
            }
        };
        if let Some(k) = key {
            self.by_url.insert(k, i);
        }
        if let Some(n) = number {
            // A source part: given for the answer as a whole (cited or not, the
            // citations say).
            self.draft.sources[i].source.scope = Some(SourceScope::Answer);
            self.add_key(i, n);
        }
        i
    }

    /// Source `i` answers to marker number `n`.
    fn add_key(&mut self, i: usize, n: u64) {
        let ds = &mut self.draft.sources[i];
        if !ds.keys.contains(&SourceKey::Num(n)) {
            ds.keys.push(SourceKey::Num(n));
        }
        if ds.given_number.is_none() {
            ds.given_number = u32::try_from(n).ok();
        }
    }

    /// The marker number of a source part with dedupe key `key`: its order among the
    /// distinct source parts.
    fn number(&mut self, key: &str) -> u64 {
        let next = self.numbered.len() as u64 + 1;
        *self.numbered.or_insert(key.to_string(), next)
    }

    /// A `source-url` part (`numbered`: it counts for the marker numbers), or the
    /// source of a text part's citation. Returns its index.
    pub(super) fn source_url(
        &mut self,
        o: &Map<String, Value>,
        path: &str,
        numbered: bool,
    ) -> usize {
        let mut f = Fields::new(o, path);
        f.value("type");
        let diags = &mut self.draft.diagnostics;
        f.value("sourceType");
        let id = f
            .value_any(&["sourceId", "id"])
            .and_then(|(_, v)| support::id_text(v));
        let url = f.string("url", diags);
        let title = f.string("title", diags);
        let meta = f.value("providerMetadata").cloned();
        let mut src = Source {
            kind: "web".into(),
            title: title.as_deref().and_then(support::title),
            ..Source::default()
        };
        let key = match url.as_deref().map(classify_link) {
            Some(Link::Url(u)) => {
                let k = normalize_url(&u);
                src.url = Some(u);
                Some(k)
            }
            Some(Link::Unsafe(scheme)) => {
                diags.push(support::unsafe_url(&f.path_of("url"), &scheme));
                url.as_deref().map(|u| format!("\u{0}{}", u.trim()))
            }
            Some(Link::Path(p)) => {
                src.metadata.insert("url".into(), Value::String(p.clone()));
                src.kind = "file".into();
                Some(format!("\u{0}{p}"))
            }
            Some(Link::Empty) | None => None,
        };
        if let Some(m) = &meta {
            cited_text_snippet(&mut src, m);
            src.metadata.insert("providerMetadata".into(), m.clone());
        }
        for (k, v) in f.rest() {
            src.metadata.entry(k).or_insert(v);
        }
        let key = key
            .or_else(|| id.as_ref().map(|i| format!("\u{1}{i}")))
            .unwrap_or_else(|| format!("\u{4}{}", self.numbered.len()));
        let n = self.draft.sources.len() + 1;
        src.id = id.unwrap_or_else(|| format!("source-{n}"));
        support::finish_source(&mut src, "web");
        let number = numbered.then(|| self.number(&key));
        let part_id = src.id.clone();
        let i = self.add_source(src, Some(key), number);
        if numbered {
            self.part_ids.or_insert(i, part_id);
        }
        i
    }

    /// A `source-document` part (`numbered`: it counts for the marker numbers), or the
    /// source of a text part's citation. Returns its index.
    pub(super) fn source_document(
        &mut self,
        o: &Map<String, Value>,
        path: &str,
        numbered: bool,
    ) -> usize {
        let mut f = Fields::new(o, path);
        f.value("type");
        let diags = &mut self.draft.diagnostics;
        f.value("sourceType");
        let id = f
            .value_any(&["sourceId", "id"])
            .and_then(|(_, v)| support::id_text(v));
        let title = f.string("title", diags);
        let filename = f.string("filename", diags);
        let media_type = f.string("mediaType", diags);
        let meta = f.value("providerMetadata").cloned();
        let mut src = Source {
            kind: "document".into(),
            title: title
                .as_deref()
                .and_then(support::title)
                .or_else(|| filename.as_deref().and_then(support::title)),
            ..Source::default()
        };
        if let Some(m) = &media_type {
            src.metadata
                .insert("mediaType".into(), Value::String(m.clone()));
        }
        if let Some(n) = &filename {
            src.metadata
                .insert("filename".into(), Value::String(n.clone()));
        }
        // A provider's file id names the file whatever part carried it (OpenAI's
        // `file_citation` annotations on the text part name the same file).
        let file_id = meta.as_ref().and_then(|m| {
            m.as_object()?
                .values()
                .find_map(|p| p.get("fileId").and_then(Value::as_str))
                .map(str::to_string)
        });
        let citation = meta
            .as_ref()
            .and_then(|m| m.get("anthropic"))
            .and_then(anthropic_document_citation);
        if let Some(m) = &meta {
            cited_text_snippet(&mut src, m);
            src.metadata.insert("providerMetadata".into(), m.clone());
        }
        if let (Some(Location::PageLocation { start, .. }), None) = (
            citation.as_ref().and_then(|c| c.location.as_ref()),
            src.page,
        ) {
            src.page = Some(*start);
        }
        for (k, v) in f.rest() {
            src.metadata.entry(k).or_insert(v);
        }
        let key = match &file_id {
            Some(fid) => format!("\u{2}{fid}"),
            None => format!(
                "\u{3}{}\u{0}{}",
                title.as_deref().unwrap_or(""),
                filename.as_deref().unwrap_or("")
            ),
        };
        let n = self.draft.sources.len() + 1;
        src.id = file_id
            .clone()
            .or(id)
            .unwrap_or_else(|| format!("source-{n}"));
        support::finish_source(&mut src, "document");
        let number = numbered.then(|| self.number(&key));
        let part_id = src.id.clone();
        let title_key = src.title.clone();
        let i = match title_key
            .as_ref()
            .and_then(|t| self.doc_titles.get(t))
            .copied()
        {
            // The document a provider's citation named by its title.
            Some(i) if !self.by_url.contains_key(&key) => {
                self.draft.sources[i].source.merge(src, MergeWins::Kept);
                self.by_url.insert(key, i);
                if let Some(n) = number {
                    self.add_key(i, n);
                }
                i
            }
            _ => self.add_source(src, Some(key), number),
        };
        if let Some(t) = title_key {
            self.doc_titles.or_insert(t, i);
        }
        if !numbered {
            return i;
        }
        self.part_ids.or_insert(i, part_id);
        if let Some(mut c) = citation {
            c.source = i;
            match self.open.last_mut() {
                // The cited block is streaming: its span is known when it ends.
                Some(t) => t.document_citations.push(c),
                None => {
                    if let (Some((s, e)), false) = (self.last_text, self.last_text_placed) {
                        let mut span = DraftSpan::new(s, e, vec![SourceRef::Index(i)]);
                        span.cited_text = c.cited_text;
                        span.location = c.location;
                        self.draft.spans.push(span);
                    }
                }
            }
        }
        i
    }

    /// The message's `metadata`, merged object by object as the stream gives it.
    pub(super) fn metadata(&mut self, m: &Value) {
        match &mut self.message_metadata {
            Some(old) => merge_objects(old, m),
            None => self.message_metadata = Some(m.clone()),
        }
    }

    /// Gemini grounding in the message metadata, over the last step's text.
    #[cfg(feature = "providers")]
    fn grounding(&mut self) {
        let Some((path, gm)) = self
            .message_metadata
            .as_ref()
            .and_then(|m| find_key(m, "groundingMetadata", 4, "metadata".into()))
        else {
            return;
        };
        if gm.get("groundingSupports").is_none_or(Value::is_null)
            && gm.get("groundingChunks").is_none_or(Value::is_null)
        {
            return;
        }
        let start = self
            .step_text
            .map_or(0, |(_, at)| at)
            .min(self.draft.text.len());
        let text = self.draft.text[start..].to_string();
        let mut candidate = Map::new();
        let parts = Value::Array(vec![object(&[("text", &text)])]);
        let mut content = Map::new();
        content.insert("parts".into(), parts);
        candidate.insert("content".into(), Value::Object(content));
        candidate.insert("groundingMetadata".into(), gm.clone());
        let candidate = Value::Object(candidate);
        if let Ok(sub) = crate::core::formats::gemini::parse(None, Some(&candidate), &self.options)
        {
            let path = path.strip_suffix(".groundingMetadata").unwrap_or(&path);
            self.absorb(sub, start, path);
        }
    }

    #[cfg(not(feature = "providers"))]
    fn grounding(&mut self) {
        if self
            .message_metadata
            .as_ref()
            .and_then(|m| find_key(m, "groundingMetadata", 4, String::new()))
            .is_some()
        {
            self.positions_skipped = true;
        }
    }

    /// The draft: open text parts are written out (a stream cut short), positions of
    /// the message metadata read.
    pub(super) fn finish(mut self) -> Draft {
        self.end();
        self.draft
    }

    /// Ends the message (once): what [`Builder::finish`] does, in place.
    pub(super) fn end(&mut self) {
        if self.ended {
            return;
        }
        self.ended = true;
        for t in &mut self.open {
            t.ended = true;
        }
        self.flush();
        self.grounding();
        for (i, id) in std::mem::take(&mut self.part_ids) {
            if let Some(ds) = self.draft.sources.get_mut(i) {
                ds.source.id = id;
            }
        }
        if let Some(m) = self.message_metadata.take() {
            self.draft.metadata.insert("metadata".into(), m);
        }
        if !self.other.is_empty() {
            self.draft.metadata.insert(
                "other_parts".into(),
                Value::Array(std::mem::take(&mut self.other)),
            );
        }
        #[cfg(not(feature = "providers"))]
        if self.positions_skipped {
            self.draft.diagnostics.push(Diagnostic::error(
                "format-not-loaded",
                "ai-sdk data with provider positions needs the provider formats module, which this build of citekit does not include; its sources are listed without those citations",
            ));
        }
        support::cap_sources(&mut self.draft);
        support::cap_spans(&mut self.draft);
    }
}

/// A JSON object of string fields.
pub(super) fn object(fields: &[(&str, &str)]) -> Value {
    Value::Object(
        fields
            .iter()
            .map(|(k, v)| (k.to_string(), Value::String(v.to_string())))
            .collect(),
    )
}

/// A provider's `citedText` (Anthropic's) as the source's snippet.
fn cited_text_snippet(src: &mut Source, meta: &Value) {
    let Some(t) = meta.as_object().and_then(|m| {
        m.values()
            .find_map(|p| p.get("citedText").and_then(Value::as_str))
    }) else {
        return;
    };
    if src.snippet.is_none() {
        src.snippet = Some(excerpt200(t)).filter(|s| !s.is_empty());
    }
}

/// `@ai-sdk/anthropic`'s document citation on a source-document part: `{citedText,
/// startCharIndex, endCharIndex}` or `{citedText, startPageNumber, endPageNumber}`.
fn anthropic_document_citation(m: &Value) -> Option<DocumentCitation> {
    let o = m.as_object()?;
    let uint = |k: &str| o.get(k).and_then(crate::core::json::as_uint);
    let cited_text = o
        .get("citedText")
        .and_then(Value::as_str)
        .filter(|t| !t.trim().is_empty())
        .map(excerpt200);
    let location = match (
        uint("startCharIndex"),
        uint("endCharIndex"),
        uint("startPageNumber"),
        uint("endPageNumber"),
    ) {
        (Some(start), Some(end), _, _) => {
            Some(Location::in_document(DocumentUnit::Char, start, end, None))
        }
        (_, _, Some(start), Some(end)) => {
            Some(Location::in_document(DocumentUnit::Page, start, end, None))
        }
        _ => None,
    };
    (cited_text.is_some() || location.is_some()).then_some(DocumentCitation {
        source: 0,
        cited_text,
        location,
    })
}

/// The first object under `key` in `v` (which sits at `path`), `depth` objects down
/// at most, with its path.
fn find_key<'a>(
    v: &'a Value,
    key: &str,
    depth: usize,
    path: String,
) -> Option<(String, &'a Value)> {
    let o = v.as_object()?;
    if let Some(x) = o.get(key).filter(|x| x.is_object()) {
        return Some((format!("{path}.{key}"), x));
    }
    if depth == 0 {
        return None;
    }
    o.iter()
        .find_map(|(k, x)| find_key(x, key, depth - 1, format!("{path}.{k}")))
}

/// Merges `new` into `old` as the AI SDK merges message metadata: objects key by key,
/// anything else replaced.
fn merge_objects(old: &mut Value, new: &Value) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(k) {
                    Some(x) => merge_objects(x, v),
                    None => {
                        a.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (o, n) => *o = n.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stream_of(chunks: &[Value]) -> String {
        let mut s = String::new();
        for c in chunks {
            s.push_str("data: ");
            s.push_str(&c.to_string());
            s.push_str("\n\n");
        }
        s.push_str("data: [DONE]\n\n");
        s
    }

    #[test]
    fn steps_are_paragraphs_and_other_parts_are_kept() {
        let msg = json!({"id": "m1", "role": "assistant", "parts": [
            {"type": "step-start"},
            {"type": "reasoning", "text": "thinking", "state": "done"},
            {"type": "text", "text": "I'll look.", "state": "done"},
            {"type": "tool-search", "toolCallId": "c1", "state": "output-available", "input": {}, "output": {}},
            {"type": "step-start"},
            {"type": "text", "text": "Found it.", "state": "done"},
            {"type": "text", "text": " More.", "state": "done"},
            {"type": "data-weather", "data": {"t": 1}},
            {"type": "something-new", "x": 1}
        ]});
        let d = parse(None, Some(&msg), &Options::default()).unwrap();
        assert_eq!(d.text, "I'll look.\n\nFound it. More.");
        let other = d.metadata["other_parts"].as_array().unwrap();
        let types: Vec<&str> = other.iter().map(|p| p["type"].as_str().unwrap()).collect();
        assert_eq!(
            types,
            ["reasoning", "tool-search", "data-weather", "something-new"]
        );
        assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
        assert_eq!(d.metadata["id"], "m1");
    }

    #[test]
    fn interleaved_text_parts_are_written_in_start_order() {
        let s = stream_of(&[
            json!({"type": "text-start", "id": "a"}),
            json!({"type": "text-start", "id": "b"}),
            json!({"type": "text-delta", "id": "b", "delta": "B"}),
            json!({"type": "text-delta", "id": "a", "delta": "A"}),
            json!({"type": "text-end", "id": "b"}),
            json!({"type": "text-delta", "id": "a", "delta": "a"}),
            json!({"type": "text-end", "id": "a"}),
        ]);
        let d = parse_stream(&s, &Options::default()).unwrap();
        assert_eq!(d.text, "AaB");
    }

    /// Without the provider formats (a build without `providers`): the text, the
    /// sources and ai 7's own part `citations` are read (OpenAI's carry the same
    /// offsets as its annotations); positions only a provider's parser reads (Gemini
    /// grounding in the metadata) give `format-not-loaded`, the text and sources kept.
    #[cfg(not(feature = "providers"))]
    #[test]
    fn without_the_provider_formats() {
        let openai: Value = serde_json::from_str(include_str!(
            "../../../../tests/recorded/ai-sdk/openai-web-search.message.json"
        ))
        .unwrap();
        let a = crate::core::parse_lenient(
            None,
            crate::core::formats::Data::Json(&openai),
            &Options::default(),
        );
        assert_eq!(a.format, Format::AiSdk);
        assert_eq!(a.sources.len(), 3);
        let cited: Vec<&str> = a
            .citations
            .iter()
            .map(|c| &a.text[c.start..c.end])
            .collect();
        assert_eq!(
            cited,
            [
                "Switzerland’s largest city, with about 447,000 inhabitants in 2024",
                "チューリッヒ",
                "the Zürichsee, is 40 km long",
                "Zürich also hosts ETH"
            ]
        );
        assert!(a.diagnostics.iter().all(|d| d.code != "format-not-loaded"));
        let gemini: Value = serde_json::from_str(include_str!(
            "../../../../tests/recorded/ai-sdk/gemini-grounding.message.json"
        ))
        .unwrap();
        let a = crate::core::parse_lenient(
            None,
            crate::core::formats::Data::Json(&gemini),
            &Options::default(),
        );
        assert!(a.text.starts_with("Le **Mont Blanc**"));
        assert_eq!(a.sources.len(), 3);
        assert!(a.citations.is_empty());
        assert!(a.diagnostics.iter().any(|d| d.code == "format-not-loaded"));
    }

    /// A UI message stream given as `sse` (what a view that streams raw events is told),
    /// as text or as a JSON string, is read as one, not as `sse` tokens (which would
    /// give no text).
    #[test]
    fn a_ui_message_stream_given_as_sse_is_read_as_one() {
        let s = stream_of(&[
            json!({"type": "start"}),
            json!({"type": "source-url", "sourceId": "a", "url": "https://a.example/"}),
            json!({"type": "text-start", "id": "0"}),
            json!({"type": "text-delta", "id": "0", "delta": "Yes [1]."}),
            json!({"type": "text-end", "id": "0"}),
        ]);
        let o = Options {
            format: crate::core::options::FormatChoice::Given(Format::Sse),
            ..Options::default()
        };
        let as_json = Value::String(s.clone());
        for data in [
            crate::core::formats::Data::Text(&s),
            crate::core::formats::Data::Json(&as_json),
        ] {
            let a = crate::core::parse(None, data, &o).unwrap();
            assert_eq!(a.format, Format::AiSdk);
            assert_eq!(a.text, "Yes.");
            assert_eq!(a.citations[0].sources, ["a"]);
        }
    }

    /// A view streaming the UI message stream starts with no data (`mount(el, {answer:
    /// null, data: "", format: "ai-sdk"})`): an empty answer, not a `not-format` error.
    #[test]
    fn no_data_yet_is_an_empty_answer() {
        let o = Options {
            format: crate::core::options::FormatChoice::Given(Format::AiSdk),
            ..Options::default()
        };
        for data in [
            crate::core::formats::Data::None,
            crate::core::formats::Data::Text(""),
        ] {
            let a = crate::core::parse(None, data, &o).unwrap();
            assert_eq!((a.text.as_str(), a.sources.len()), ("", 0));
            assert!(a.diagnostics.is_empty(), "{:?}", a.diagnostics);
        }
        let a =
            crate::core::parse(Some("Text [1]."), crate::core::formats::Data::None, &o).unwrap();
        assert_eq!(a.text, "Text.");
    }
}
