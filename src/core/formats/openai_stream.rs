//! OpenAI's own event streams, read as they come (docs/formats.md, "openai"): the
//! Responses API's stream and a streamed Chat Completion. Both end as `parse` of the
//! final object they make, in the `openai` format ([`super::openai`]).
//!
//! **Responses** (`stream: true`; each event's data has a `type` starting `response.`):
//! - `response.output_text.delta` (and `response.refusal.delta`) `{output_index,
//!   content_index, delta}`: text of one part, written to the answer at once. Parts of
//!   different output items are separated by a blank line, as the parser joins them.
//! - `response.output_text.annotation.added` `{output_index, content_index,
//!   annotation_index, annotation}`: read by the parser's own annotation reader
//!   (`openai::Builder::add_annotation`) against the part's text so far, with the
//!   parser's path (`output[i].content[j].annotations[k]`). An annotation whose offset
//!   lies past the part's text so far waits for that text (or for the part's
//!   `response.output_text.done`).
//! - `response.completed` (also `response.incomplete`, `response.failed`) carries the
//!   final response: the last word. The answer becomes `parse` of it (its text is the
//!   streamed text when nothing was lost).
//! - `error` `{code, message}`: a `stream-error` warning. Every other event
//!   (`response.created`, `response.output_item.added/done`, reasoning, tool calls)
//!   changes nothing shown: the final response carries them.
//!
//! **Chat Completions** (`object: "chat.completion.chunk"`): `choices[0].delta.content`
//! is text, `delta.annotations` (web search `url_citation`, nested as in the completion)
//! are read as the parser reads the completion's (`openai::flat_chat_annotation`), over
//! the text so far. The chunks are put together into the final completion as the
//! `openai` SDK's `finalChatCompletion()` does (content and refusal concatenated, the
//! other fields of the latest chunk; annotations appended, where the SDK keeps the last
//! delta's), and at `[DONE]` (or the end) the answer becomes `parse` of it.

use super::openai::{self, flat_chat_annotation};
use super::perplexity_stream::PerplexitySources;
use super::sse::{event_json, SseEvent};
use super::support;
use crate::core::draft::Draft;
use crate::core::markers::TextSyntax;
use crate::core::model::{Diagnostic, Format};
use crate::core::offsets::{OffsetIndex, PositionEncoding};
use crate::core::options::{FormatChoice, Options};
use crate::core::untrusted_text::{clean_text, excerpt200};
use serde_json::{Map, Value};

/// The kind of a provider stream, told by its first typed event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamKind {
    /// OpenAI's Responses API stream (`response.*` events).
    Responses,
    /// A Chat Completions stream (`chat.completion.chunk`) without Perplexity's fields.
    Chat,
    /// A Perplexity chat completions stream: chunks with `citations` /
    /// `search_results`, or a `sonar` model.
    Perplexity,
}

/// The kind of stream an event's JSON starts, if it is one of OpenAI's or Perplexity's.
pub fn stream_kind(v: &Value) -> Option<StreamKind> {
    let o = v.as_object()?;
    if o.get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.starts_with("response."))
    {
        return Some(StreamKind::Responses);
    }
    if o.get("object").and_then(Value::as_str) != Some("chat.completion.chunk") {
        return None;
    }
    let has = |k: &str| o.get(k).is_some_and(|v| !v.is_null());
    let sonar = o
        .get("model")
        .and_then(Value::as_str)
        .is_some_and(|m| m.starts_with("sonar") || m.starts_with("perplexity/"));
    Some(if has("citations") || has("search_results") || sonar {
        StreamKind::Perplexity
    } else {
        StreamKind::Chat
    })
}

/// The length of `s` in `encoding`'s units.
fn units(s: &str, encoding: PositionEncoding) -> usize {
    match encoding {
        PositionEncoding::Utf8 => s.len(),
        PositionEncoding::Utf16 => s.encode_utf16().count(),
        PositionEncoding::Utf32 => s.chars().count(),
    }
}

/// The furthest offset an annotation names (`end_index`, else `index`, else
/// `start_index`), in its own units; `None` when it names none (read at once: the
/// parser reports it).
fn furthest(a: &Value) -> Option<u64> {
    ["end_index", "index", "start_index"]
        .iter()
        .find_map(|k| a.get(*k).and_then(Value::as_u64))
}

/// The `stream-error` warning of an `error` event (or a failed response).
pub(crate) fn stream_error(message: &str, path: &str) -> Diagnostic {
    Diagnostic::warning(
        "stream-error",
        format!(
            "the stream reported an error: {}",
            excerpt200(&clean_text(message))
        ),
    )
    .at_path(path)
}

/// One text part of a Responses stream.
#[derive(Debug, Clone)]
struct StreamPart {
    output_index: u64,
    content_index: u64,
    /// Where its text starts in the answer (set by its first text).
    base: Option<usize>,
    /// Its text so far.
    text: String,
    /// Its length in the input's units.
    units: usize,
    /// Annotations whose offsets lie past its text so far: (path, annotation).
    waiting: Vec<(String, Value)>,
}

/// Reads a Responses API event stream into a draft as it comes (module docs).
#[derive(Debug, Clone)]
pub struct ResponsesAccumulator {
    draft: Draft,
    options: Options,
    encoding: PositionEncoding,
    annotations: openai::Builder,
    parts: Vec<StreamPart>,
    /// The output item of the last part with text (a new item's text starts after a
    /// blank line).
    last_item: Option<u64>,
    /// Events read so far (for paths).
    count: usize,
    /// The final response (or the stream's end) was read.
    ended: bool,
}

impl ResponsesAccumulator {
    /// An empty accumulator.
    pub fn new(options: &Options) -> Self {
        let mut draft = Draft::new(Format::Openai, "");
        draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
        let mut options = options.clone();
        options.format = FormatChoice::Given(Format::Openai);
        ResponsesAccumulator {
            draft,
            encoding: options.input_encoding.unwrap_or(PositionEncoding::Utf16),
            options,
            annotations: openai::Builder::default(),
            parts: Vec::new(),
            last_item: None,
            count: 0,
            ended: false,
        }
    }

    /// The draft as far as the events so far make it.
    pub fn draft_ref(&self) -> &Draft {
        &self.draft
    }

    /// Reads one event.
    pub fn event(&mut self, ev: &SseEvent) {
        let path = format!("events[{}]", self.count);
        self.count += 1;
        if self.ended || ev.data.trim() == "[DONE]" {
            self.end();
            return;
        }
        let Some(Value::Object(o)) = event_json(&ev.data, &path, &mut self.draft.diagnostics)
        else {
            return;
        };
        let index = |k: &str| o.get(k).and_then(Value::as_u64).unwrap_or(0);
        let (item, content) = (index("output_index"), index("content_index"));
        match o.get("type").and_then(Value::as_str).unwrap_or("") {
            "response.output_text.delta" | "response.refusal.delta" => {
                let delta = o.get("delta").and_then(Value::as_str).unwrap_or("");
                self.text(item, content, delta);
            }
            "response.output_text.annotation.added" => {
                let k = index("annotation_index");
                let apath = format!("output[{item}].content[{content}].annotations[{k}]");
                let at = self.part(item, content);
                if let Some(a) = o.get("annotation") {
                    self.parts[at].waiting.push((apath, a.clone()));
                    self.annotate(at, false);
                }
            }
            "response.output_text.done" | "response.content_part.done" => {
                let at = self.part(item, content);
                self.annotate(at, true);
            }
            "response.completed" | "response.incomplete" | "response.failed" => {
                if let Some(r) = o.get("response") {
                    self.last_word(r);
                }
            }
            "error" => {
                let message = o.get("message").and_then(Value::as_str).unwrap_or("");
                self.draft.diagnostics.push(stream_error(message, &path));
            }
            _ => {}
        }
    }

    /// The index of the part (`item`, `content`), added when new.
    fn part(&mut self, item: u64, content: u64) -> usize {
        if let Some(at) = self
            .parts
            .iter()
            .rposition(|p| p.output_index == item && p.content_index == content)
        {
            return at;
        }
        self.parts.push(StreamPart {
            output_index: item,
            content_index: content,
            base: None,
            text: String::new(),
            units: 0,
            waiting: Vec::new(),
        });
        self.parts.len() - 1
    }

    /// Text of a part, written to the answer.
    fn text(&mut self, item: u64, content: u64, delta: &str) {
        if delta.is_empty() {
            return;
        }
        let at = self.part(item, content);
        if self.parts[at].base.is_none() {
            if self.last_item.is_some_and(|i| i != item) && !self.draft.text.is_empty() {
                self.draft.text.push_str("\n\n");
            }
            self.parts[at].base = Some(self.draft.text.len());
            self.last_item = Some(item);
        }
        let part = &mut self.parts[at];
        part.text.push_str(delta);
        part.units += units(delta, self.encoding);
        self.draft.text.push_str(delta);
        if !part.waiting.is_empty() {
            self.annotate(at, false);
        }
    }

    /// Reads the part's waiting annotations whose offsets its text reaches (`all`:
    /// every one, the part is complete).
    fn annotate(&mut self, at: usize, all: bool) {
        let part = &mut self.parts[at];
        let units = part.units as u64;
        let (ready, wait): (Vec<_>, Vec<_>) = std::mem::take(&mut part.waiting)
            .into_iter()
            .partition(|(_, a)| all || furthest(a).is_none_or(|n| n <= units));
        part.waiting = wait;
        if ready.is_empty() {
            return;
        }
        let part = &self.parts[at];
        let base = part.base.unwrap_or(self.draft.text.len());
        let ix = OffsetIndex::new(&part.text, self.encoding);
        for (path, a) in &ready {
            self.annotations.add_annotation(
                a,
                path,
                &ix,
                base,
                self.encoding,
                &mut self.draft.diagnostics,
            );
        }
        self.draft.sources = self.annotations.sources().to_vec();
        self.draft.spans = self.annotations.spans().to_vec();
    }

    /// The final response: the answer becomes `parse` of it. A response that holds no
    /// text (a failed one) keeps the text streamed so far, with its error.
    fn last_word(&mut self, response: &Value) {
        self.ended = true;
        match openai::parse(None, Some(response), &self.options) {
            Ok(d) if !d.text.is_empty() || self.draft.text.is_empty() => self.draft = d,
            Ok(d) => {
                self.draft.metadata = d.metadata;
                self.close();
            }
            Err(e) => {
                self.draft
                    .diagnostics
                    .push(Diagnostic::warning(e.code(), e.to_string()));
                self.close();
            }
        }
        if let Some(m) = response
            .get("error")
            .and_then(|e| e.get("message"))
            .and_then(Value::as_str)
        {
            self.draft
                .diagnostics
                .push(stream_error(m, "response.error"));
        }
    }

    /// Reads what still waits (the stream ended without its final response).
    fn close(&mut self) {
        for at in 0..self.parts.len() {
            self.annotate(at, true);
        }
        support::cap_sources(&mut self.draft);
        support::cap_spans(&mut self.draft);
    }

    /// Ends the stream (the final response, `[DONE]`, or its reader's end): later
    /// events are ignored. Whether this call ended it.
    pub fn end(&mut self) -> bool {
        if self.ended {
            return false;
        }
        self.ended = true;
        self.close();
        true
    }

    /// Whether the stream ended (its draft is then the final object's).
    pub fn is_ended(&self) -> bool {
        self.ended
    }
}

/// The final chat completion put together from its chunks, as the `openai` SDK's
/// `ChatCompletionStream` does, but for `delta.annotations`: appended here, where the
/// SDK keeps the last delta's (docs/formats.md, "openai streams").
#[derive(Debug, Clone, Default)]
pub(crate) struct ChatChunks {
    /// The chunks' fields other than `choices` (a later chunk's win).
    top: Map<String, Value>,
    /// The choices by index: `{index, message, finish_reason, logprobs, ...}`.
    choices: Vec<Map<String, Value>>,
}

/// What one chunk brought to the first choice.
pub(crate) struct ChoiceDelta<'a> {
    /// Its text.
    pub content: &'a str,
    /// Its annotations.
    pub annotations: &'a [Value],
}

impl ChatChunks {
    /// Adds one chunk; what it brought to the first choice.
    pub(crate) fn chunk<'a>(&mut self, o: &'a Map<String, Value>) -> ChoiceDelta<'a> {
        let mut first = ChoiceDelta {
            content: "",
            annotations: &[],
        };
        for (k, v) in o {
            if !matches!(k.as_str(), "choices" | "obfuscation") {
                self.top.insert(k.clone(), v.clone());
            }
        }
        for c in o
            .get("choices")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(c) = c.as_object() else { continue };
            let Some(index) = c.get("index").and_then(Value::as_u64) else {
                continue;
            };
            // A bound on what a stream can make us allocate (the SDK's is 128).
            let Ok(index) = usize::try_from(index) else {
                continue;
            };
            if index >= 128 {
                continue;
            }
            while self.choices.len() <= index {
                let mut choice = Map::new();
                choice.insert("index".into(), self.choices.len().into());
                choice.insert("message".into(), Value::Object(Map::new()));
                choice.insert("finish_reason".into(), Value::Null);
                choice.insert("logprobs".into(), Value::Null);
                self.choices.push(choice);
            }
            let choice = &mut self.choices[index];
            for (k, v) in c {
                match k.as_str() {
                    "delta" | "index" => {}
                    "finish_reason" | "logprobs" if v.is_null() => {}
                    _ => {
                        choice.insert(k.clone(), v.clone());
                    }
                }
            }
            let Some(Value::Object(delta)) = c.get("delta") else {
                continue;
            };
            let Some(Value::Object(message)) = choice.get_mut("message") else {
                continue;
            };
            for (k, v) in delta {
                match (k.as_str(), v) {
                    ("content" | "refusal", Value::String(s)) => {
                        match message.get_mut(k.as_str()) {
                            Some(Value::String(t)) => t.push_str(s),
                            #[cfg(feature = "platforms")]
                            Some(Value::Array(chunks)) => push_text_chunk(chunks, s),
                            _ => {
                                message.insert(k.clone(), v.clone());
                            }
                        }
                        if index == 0 && k == "content" {
                            first.content = s;
                        }
                    }
                    // Mistral's content chunks (`text`, `reference`): appended, a
                    // text chunk's text to the text chunk before it.
                    #[cfg(feature = "platforms")]
                    ("content", Value::Array(a)) => {
                        let chunks = match message.get_mut("content") {
                            Some(Value::Array(chunks)) => chunks,
                            _ => {
                                let before = match message.remove("content") {
                                    Some(Value::String(t)) if !t.is_empty() => {
                                        vec![serde_json::json!({"type": "text", "text": t})]
                                    }
                                    _ => Vec::new(),
                                };
                                message.insert(k.clone(), Value::Array(before));
                                match message.get_mut("content") {
                                    Some(Value::Array(chunks)) => chunks,
                                    _ => continue,
                                }
                            }
                        };
                        for c in a {
                            match (c.get("type").and_then(Value::as_str), c.get("text")) {
                                (Some("text"), Some(Value::String(t))) => {
                                    push_text_chunk(chunks, t)
                                }
                                _ => chunks.push(c.clone()),
                            }
                        }
                    }
                    ("annotations", Value::Array(a)) => {
                        match message.get_mut("annotations") {
                            Some(Value::Array(all)) => all.extend(a.iter().cloned()),
                            _ => {
                                message.insert(k.clone(), v.clone());
                            }
                        }
                        if index == 0 {
                            first.annotations = a;
                        }
                    }
                    (_, Value::Null) => {}
                    _ => {
                        message.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        first
    }

    /// The completion so far, `object: "chat.completion"`.
    pub(crate) fn completion(&self) -> Value {
        let mut o = self.top.clone();
        o.insert("object".into(), "chat.completion".into());
        o.insert(
            "choices".into(),
            Value::Array(self.choices.iter().cloned().map(Value::Object).collect()),
        );
        Value::Object(o)
    }
}

/// Appends text to content chunks: to the last one when it is a text chunk, else as
/// a new one.
#[cfg(feature = "platforms")]
fn push_text_chunk(chunks: &mut Vec<Value>, text: &str) {
    if let Some(Value::Object(last)) = chunks.last_mut() {
        if last.get("type").and_then(Value::as_str) == Some("text") {
            if let Some(Value::String(t)) = last.get_mut("text") {
                t.push_str(text);
                return;
            }
        }
    }
    chunks.push(serde_json::json!({"type": "text", "text": text}));
}

/// Reads a streamed Chat Completion into a draft as it comes (module docs), OpenAI's or
/// Perplexity's ([`super::perplexity_stream`]: its sources and `<think>` block).
#[derive(Debug, Clone)]
pub struct ChatAccumulator {
    draft: Draft,
    /// Perplexity's stream: `citations` / `search_results` on the chunks are the
    /// sources, a leading `<think>` block is not the answer.
    perplexity: Option<PerplexitySources>,
    /// The first choice's content so far (Perplexity's, with its `<think>` block).
    content: String,
    /// Where the answer starts in `content`, once it is known.
    shown_from: Option<usize>,
    /// Diagnostics of the events and annotations (the sources' own are in
    /// `perplexity`).
    own_diagnostics: Vec<Diagnostic>,
    /// The options of the final parse: the format given, or `auto` when the stream's
    /// first chunk told it (so the end is what `parse` of the completion detects).
    options: Options,
    encoding: PositionEncoding,
    chunks: ChatChunks,
    annotations: openai::Builder,
    /// Annotations read so far (for paths).
    read: usize,
    /// Annotations whose offsets lie past the text so far: (path, annotation).
    waiting: Vec<(String, Value)>,
    /// The text's length in the input's units.
    units: usize,
    count: usize,
    ended: bool,
}

impl ChatAccumulator {
    /// An empty accumulator for a stream of `kind` (`Chat` or `Perplexity`); `format` is
    /// the format given (`None`: detected).
    pub fn new(options: &Options, kind: StreamKind, format: Option<Format>) -> Self {
        let perplexity = (kind == StreamKind::Perplexity || format == Some(Format::Perplexity))
            .then(PerplexitySources::default);
        let shown = if perplexity.is_some() {
            Format::Perplexity
        } else {
            Format::Openai
        };
        let mut draft = Draft::new(shown, "");
        draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
        let mut options = options.clone();
        options.format = format.map_or(FormatChoice::Auto, FormatChoice::Given);
        ChatAccumulator {
            draft,
            perplexity,
            content: String::new(),
            shown_from: None,
            own_diagnostics: Vec::new(),
            encoding: options.input_encoding.unwrap_or(PositionEncoding::Utf16),
            options,
            chunks: ChatChunks::default(),
            annotations: openai::Builder::default(),
            read: 0,
            waiting: Vec::new(),
            units: 0,
            count: 0,
            ended: false,
        }
    }

    /// The draft as far as the chunks so far make it.
    pub fn draft_ref(&self) -> &Draft {
        &self.draft
    }

    /// Reads one event (a chunk, or `[DONE]`).
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
        let Some(Value::Object(o)) = event_json(&ev.data, &path, &mut self.own_diagnostics) else {
            self.sync_diagnostics();
            return;
        };
        if let Some(e) = o.get("error") {
            let message = e.get("message").and_then(Value::as_str).unwrap_or("");
            self.own_diagnostics.push(stream_error(message, &path));
            self.sync_diagnostics();
            return;
        }
        if let Some(p) = &mut self.perplexity {
            if p.read(&o, &self.options) {
                self.draft.sources = p.sources.clone();
                self.sync_diagnostics();
            }
        }
        let delta = self.chunks.chunk(&o);
        if !delta.content.is_empty() {
            self.content.push_str(delta.content);
            self.show();
        }
        for a in delta.annotations {
            let apath = format!("choices[0].message.annotations[{}]", self.read);
            self.read += 1;
            self.waiting.push((apath, flat_chat_annotation(a)));
        }
        if !self.waiting.is_empty() {
            self.annotate(false);
        }
    }

    /// Moves the content that is the answer into the draft (for Perplexity, what
    /// follows a leading `<think>` block, once it is closed).
    fn show(&mut self) {
        let from = match self.shown_from {
            Some(f) => f,
            None if self.perplexity.is_none() => 0,
            None => match super::perplexity_stream::answer_start(&self.content) {
                Some(f) => f,
                None => return,
            },
        };
        self.shown_from = Some(from);
        let new = &self.content[from + self.draft.text.len()..];
        self.units += units(new, self.encoding);
        self.draft.text.push_str(new);
    }

    /// The draft's diagnostics: the events' and annotations', then the sources'.
    fn sync_diagnostics(&mut self) {
        self.draft.diagnostics.clone_from(&self.own_diagnostics);
        if let Some(p) = &self.perplexity {
            self.draft.diagnostics.extend(p.diagnostics.iter().cloned());
        }
    }

    /// Reads the waiting annotations the text reaches (`all`: every one).
    fn annotate(&mut self, all: bool) {
        let units = self.units as u64;
        let (ready, wait): (Vec<_>, Vec<_>) = std::mem::take(&mut self.waiting)
            .into_iter()
            .partition(|(_, a)| all || furthest(a).is_none_or(|n| n <= units));
        self.waiting = wait;
        if ready.is_empty() {
            return;
        }
        let ix = OffsetIndex::new(&self.draft.text, self.encoding);
        for (path, a) in &ready {
            self.annotations.add_annotation(
                a,
                path,
                &ix,
                0,
                self.encoding,
                &mut self.own_diagnostics,
            );
        }
        self.draft.sources = self.annotations.sources().to_vec();
        self.draft.spans = self.annotations.spans().to_vec();
        self.sync_diagnostics();
    }

    /// Whether the stream ended (its draft is then the final object's).
    pub fn is_ended(&self) -> bool {
        self.ended
    }

    /// Ends the stream (`[DONE]`, or its reader's end): the answer becomes `parse` of
    /// the completion the chunks make. Whether this call ended it.
    pub fn end(&mut self) -> bool {
        if self.ended {
            return false;
        }
        self.ended = true;
        self.annotate(true);
        if self.count == 0 {
            return true;
        }
        let completion = self.chunks.completion();
        let events: Vec<Diagnostic> = std::mem::take(&mut self.own_diagnostics)
            .into_iter()
            .filter(|d| {
                matches!(
                    d.code.as_str(),
                    "invalid-event" | "stream-error" | "limit-exceeded"
                )
            })
            .collect();
        match super::parse_draft(None, super::Data::Json(&completion), &self.options) {
            Ok(mut d) => {
                d.diagnostics.splice(0..0, events);
                self.draft = d;
            }
            Err(e) => {
                self.draft.diagnostics = events;
                self.draft
                    .diagnostics
                    .push(Diagnostic::warning(e.code(), e.to_string()));
            }
        }
        true
    }
}

/// Parses a whole Responses or Chat Completions stream (`parse` of the stream text).
pub fn parse_stream(
    stream: &str,
    kind: StreamKind,
    options: &Options,
) -> Result<Draft, crate::core::error::ParseError> {
    let (events, limit) = super::sse::whole_stream_events(stream, Format::Openai)?;
    let mut draft = match kind {
        StreamKind::Responses => {
            let mut acc = ResponsesAccumulator::new(options);
            for ev in &events {
                acc.event(ev);
            }
            acc.end();
            acc.draft
        }
        StreamKind::Chat | StreamKind::Perplexity => {
            let given = match options.format {
                FormatChoice::Given(f @ (Format::Openai | Format::Perplexity)) => Some(f),
                _ => None,
            };
            let mut acc = ChatAccumulator::new(options, kind, given);
            for ev in &events {
                acc.event(ev);
            }
            acc.end();
            acc.draft
        }
    };
    if let Some(d) = limit {
        draft.diagnostics.insert(0, d);
    }
    Ok(draft)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(v: Value) -> SseEvent {
        SseEvent {
            event: v.get("type").and_then(Value::as_str).map(str::to_string),
            data: v.to_string(),
            id: None,
        }
    }

    fn delta(text: &str) -> SseEvent {
        event(
            json!({"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": text}),
        )
    }

    /// An annotation sent before the text it covers waits for that text, then shows.
    #[test]
    fn an_annotation_that_comes_before_its_text_waits_for_it() {
        let mut acc = ResponsesAccumulator::new(&Options::default());
        acc.event(&delta("Paris é "));
        acc.event(&event(
            json!({"type": "response.output_text.annotation.added", "output_index": 0,
            "content_index": 0, "annotation_index": 0, "annotation": {"type": "url_citation",
            "start_index": 0, "end_index": 12, "url": "https://p.example", "title": "P"}}),
        ));
        assert!(acc.draft_ref().spans.is_empty());
        assert!(acc.draft_ref().diagnostics.is_empty());
        acc.event(&delta("is old."));
        let d = acc.draft_ref();
        assert_eq!(d.spans.len(), 1);
        // 12 UTF-16 units: `é` is one unit and two bytes.
        assert_eq!(&d.text[d.spans[0].start..d.spans[0].end], "Paris é is o");
        assert_eq!(
            d.sources[0].source.url.as_deref(),
            Some("https://p.example")
        );
    }

    /// The text of a second output item starts after a blank line, as the parser joins
    /// them; an `error` event is a warning, the text stays.
    #[test]
    fn parts_of_two_items_and_an_error_event() {
        let mut acc = ResponsesAccumulator::new(&Options::default());
        acc.event(&delta("One."));
        acc.event(&event(json!({"type": "response.output_text.delta", "output_index": 2, "content_index": 0, "delta": "Two."})));
        acc.event(&event(
            json!({"type": "error", "code": "server_error", "message": "overloaded"}),
        ));
        assert_eq!(acc.draft_ref().text, "One.\n\nTwo.");
        assert!(acc.end());
        let d = acc.draft_ref();
        assert_eq!(d.diagnostics.len(), 1, "{:?}", d.diagnostics);
        assert_eq!(d.diagnostics[0].code, "stream-error");
        assert!(d.diagnostics[0].message.contains("overloaded"));
    }

    /// Chat annotations in a chunk of their own after the text are added to the ones
    /// before, and the end is `parse` of the completion the chunks make.
    #[test]
    fn chat_annotations_in_several_chunks_are_all_read() {
        let chunk = |delta: Value, finish: Value| {
            event(
                json!({"id": "c1", "object": "chat.completion.chunk", "model": "gpt-4o-search-preview",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}),
            )
        };
        let cite = |s: u64, e: u64, url: &str| json!({"type": "url_citation", "url_citation": {"start_index": s, "end_index": e, "url": url, "title": url}});
        let mut acc = ChatAccumulator::new(&Options::default(), StreamKind::Chat, None);
        acc.event(&chunk(
            json!({"role": "assistant", "content": "Oslo is big. "}),
            Value::Null,
        ));
        acc.event(&chunk(
            json!({"content": "Bergen is wet.", "annotations": [cite(0, 12, "https://o.example")]}),
            Value::Null,
        ));
        assert_eq!(acc.draft_ref().spans.len(), 1);
        acc.event(&chunk(
            json!({"annotations": [cite(13, 27, "https://b.example")]}),
            json!("stop"),
        ));
        assert_eq!(acc.draft_ref().spans.len(), 2);
        acc.event(&SseEvent {
            data: "[DONE]".into(),
            ..SseEvent::default()
        });
        let d = acc.draft_ref().clone();
        let completion = acc.chunks.completion();
        assert_eq!(
            completion["choices"][0]["message"]["annotations"]
                .as_array()
                .map(Vec::len),
            Some(2)
        );
        let whole = openai::parse(None, Some(&completion), &Options::default()).unwrap();
        assert_eq!(d, whole);
        assert_eq!(d.spans.len(), 2);
    }
}
