//! The Anthropic Messages API's event stream (`stream: true`), read as it comes: the
//! body a chat backend forwards unchanged (`event: <type>` + `data: <json>` per event).
//!
//! - `message_start` brings the message without content; `message_delta` its
//!   `stop_reason`, `stop_sequence` and `usage` (each field given replaces the one
//!   before, as the SDKs accumulate it); `message_stop` ends it.
//! - `content_block_start` opens block `index`. A `text` block's `text_delta`s are
//!   answer text, added to the draft as they come (text after a block that is not text
//!   starts a new paragraph, as in the `anthropic` format). Its `citations_delta`s
//!   (each one citation object) belong to the block: when the block stops
//!   (`content_block_stop`) its text is known, and the block becomes one explicit span
//!   naming its sources, exactly as the `anthropic` format reads a cited block.
//! - A `web_search_tool_result` block comes whole with its `content_block_start`: its
//!   results are sources at once. `server_tool_use` / `tool_use` input arrives as
//!   `input_json_delta` pieces, `thinking` as `thinking_delta` and `signature_delta`:
//!   kept for the final message, not text.
//! - `ping` is a keep-alive; `error` (`{"type":"error","error":{type, message}}`) is a
//!   `stream-error` warning.
//!
//! At `message_stop` (or when the stream ends without one) the message the events make
//! (what the SDKs' `finalMessage()` gives) is read by the `anthropic` parser, so the
//! result equals `parse` of that message.

use super::anthropic::{self, Parser};
use crate::core::draft::Draft;
use crate::core::error::ParseError;
use crate::core::formats::sse::{event_json, whole_stream_events, SseEvent};
use crate::core::json_fields::parse_json;
use crate::core::model::{Diagnostic, Format};
use crate::core::options::Options;
use crate::core::untrusted_text::{clean_text, excerpt200};
use serde_json::{Map, Value};

/// The event types of the Messages stream (the first typed event decides the format).
pub fn is_event_type(t: &str) -> bool {
    matches!(
        t,
        "message_start"
            | "message_delta"
            | "message_stop"
            | "content_block_start"
            | "content_block_delta"
            | "content_block_stop"
            | "ping"
    )
}

/// Reads a Messages stream's events into a draft as they come.
#[derive(Debug, Clone)]
pub struct StreamAccumulator {
    options: Options,
    /// The blocks read so far: the draft.
    parser: Parser,
    /// Events read so far (for paths).
    count: usize,
    /// `message_stop` came, or the stream ended.
    done: bool,
    /// The message of `message_start` and `message_delta` (its content is `blocks`).
    message: Map<String, Value>,
    /// The content blocks, as the events make them.
    blocks: Vec<Value>,
    /// The text block open now: its index and where its text starts in the answer
    /// (`None` until its first text).
    open: Option<(usize, Option<usize>)>,
    /// Tool input JSON still arriving, by block index.
    inputs: Vec<(usize, String)>,
    /// Diagnostics of the stream itself (events that are not JSON, errors).
    own: Vec<Diagnostic>,
}

impl StreamAccumulator {
    /// An empty accumulator.
    pub fn new(options: &Options) -> Self {
        StreamAccumulator {
            options: options.clone(),
            parser: Parser::new(),
            count: 0,
            done: false,
            message: Map::new(),
            blocks: Vec::new(),
            open: None,
            inputs: Vec::new(),
            own: Vec::new(),
        }
    }

    /// The draft as far as the events so far make it.
    pub fn draft_ref(&self) -> &Draft {
        &self.parser.draft
    }

    /// Reads one event.
    pub fn event(&mut self, ev: &SseEvent) {
        let path = format!("events[{}]", self.count);
        self.count += 1;
        if self.done {
            return;
        }
        let Some(Value::Object(mut o)) = event_json(&ev.data, &path, &mut self.own) else {
            self.sync_diagnostics();
            return;
        };
        let kind = o
            .get("type")
            .and_then(Value::as_str)
            .or(ev.event.as_deref())
            .unwrap_or("");
        let index = o.get("index").and_then(Value::as_u64).map(|i| i as usize);
        match kind {
            "message_start" => {
                if let Some(Value::Object(m)) = o.remove("message") {
                    self.message = m;
                }
            }
            "message_delta" => self.message_delta(&o),
            "message_stop" => {
                self.end();
            }
            "content_block_start" => {
                if let (Some(i), Some(block)) = (index, o.get("content_block")) {
                    self.block_start(i, block);
                }
            }
            "content_block_delta" => {
                if let (Some(i), Some(Value::Object(d))) = (index, o.get("delta")) {
                    self.block_delta(i, d);
                }
            }
            "content_block_stop" => {
                if let Some(i) = index {
                    self.block_stop(i);
                }
            }
            "error" => {
                let e = o.get("error");
                let text = e
                    .and_then(|e| e.get("message"))
                    .and_then(Value::as_str)
                    .unwrap_or("");
                let ty = e
                    .and_then(|e| e.get("type"))
                    .and_then(Value::as_str)
                    .unwrap_or("error");
                self.own.push(
                    Diagnostic::warning(
                        "stream-error",
                        format!(
                            "the stream reported an error (`{ty}`): {}",
                            excerpt200(&clean_text(text))
                        ),
                    )
                    .at_path(path),
                );
                self.sync_diagnostics();
            }
            // `ping` and event types to come.
            _ => {}
        }
    }

    fn message_delta(&mut self, o: &Map<String, Value>) {
        if let Some(Value::Object(d)) = o.get("delta") {
            for (k, v) in d {
                self.message.insert(k.clone(), v.clone());
            }
        }
        if let Some(Value::Object(u)) = o.get("usage") {
            let usage = self
                .message
                .entry("usage")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(to) = usage {
                for (k, v) in u.iter().filter(|(_, v)| !v.is_null()) {
                    to.insert(k.clone(), v.clone());
                }
            }
        }
    }

    fn block_start(&mut self, index: usize, block: &Value) {
        self.close_open();
        while self.blocks.len() <= index {
            self.blocks.push(Value::Null);
        }
        self.blocks[index] = block.clone();
        match block.get("type").and_then(Value::as_str) {
            Some("text") => {
                self.open = Some((index, None));
                if let Some(t) = block.get("text").and_then(Value::as_str) {
                    if !t.is_empty() {
                        let t = t.to_string();
                        self.text(index, &t, false);
                    }
                }
            }
            Some("web_search_tool_result") => {
                self.parser.gap = true;
                self.parser
                    .search_results(block, &format!("content[{index}]"));
            }
            _ => self.parser.gap = true,
        }
    }

    /// Text of the open block `index`; `record`: also into the block itself.
    fn text(&mut self, index: usize, delta: &str, record: bool) {
        let Some((open, start)) = &mut self.open else {
            return;
        };
        if *open != index {
            return;
        }
        if start.is_none() {
            self.parser.text_block_starts(delta);
            *start = Some(self.parser.draft.text.len());
        }
        self.parser.draft.text.push_str(delta);
        if record {
            if let Some(Value::String(t)) = self.blocks[index].get_mut("text") {
                t.push_str(delta);
            }
        }
    }

    fn block_delta(&mut self, index: usize, d: &Map<String, Value>) {
        if index >= self.blocks.len() {
            return;
        }
        let str_of = |k: &str| d.get(k).and_then(Value::as_str).unwrap_or("");
        match str_of("type") {
            "text_delta" => {
                let t = str_of("text").to_string();
                self.text(index, &t, true);
            }
            "citations_delta" => {
                if let (Value::Object(b), Some(c)) = (&mut self.blocks[index], d.get("citation")) {
                    match b
                        .entry("citations")
                        .or_insert_with(|| Value::Array(Vec::new()))
                    {
                        Value::Array(a) => a.push(c.clone()),
                        other => *other = Value::Array(vec![c.clone()]),
                    }
                }
            }
            "input_json_delta" => {
                let piece = str_of("partial_json");
                match self.inputs.iter_mut().find(|(i, _)| *i == index) {
                    Some((_, s)) => s.push_str(piece),
                    None => self.inputs.push((index, piece.to_string())),
                }
            }
            kind @ ("thinking_delta" | "signature_delta") => {
                let key = if kind == "thinking_delta" {
                    "thinking"
                } else {
                    "signature"
                };
                if let Value::Object(b) = &mut self.blocks[index] {
                    let piece = str_of(key);
                    match b.get_mut(key) {
                        Some(Value::String(s)) => s.push_str(piece),
                        _ => {
                            b.insert(key.into(), Value::String(piece.to_string()));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn block_stop(&mut self, index: usize) {
        if matches!(self.open, Some((i, _)) if i == index) {
            self.close_open();
        }
        // Tool input, whole now: parsed as the SDKs do (an empty one is `{}`).
        if let Some(at) = self.inputs.iter().position(|(i, _)| *i == index) {
            let (_, json) = self.inputs.swap_remove(at);
            if let Some(Value::Object(b)) = self.blocks.get_mut(index) {
                let input = if json.trim().is_empty() {
                    Ok(Value::Object(Map::new()))
                } else {
                    parse_json(&json)
                };
                if let Ok(v) = input {
                    b.insert("input".into(), v);
                }
            }
        }
    }

    /// The open text block is complete: its citations become its span.
    fn close_open(&mut self) {
        let Some((index, start)) = self.open.take() else {
            return;
        };
        let start = match start {
            Some(s) => s,
            None => {
                // No text came: as the parser reads an empty block.
                self.parser.text_block_starts("");
                self.parser.draft.text.len()
            }
        };
        let end = self.parser.draft.text.len();
        if let Some(Value::Array(c)) = self.blocks[index].get("citations") {
            if !c.is_empty() {
                let c = c.clone();
                self.parser
                    .block_citations(start, end, &c, &format!("content[{index}]"));
            }
        }
    }

    /// The stream's own diagnostic last added goes to the draft too.
    fn sync_diagnostics(&mut self) {
        if let Some(d) = self.own.last() {
            self.parser.draft.diagnostics.push(d.clone());
        }
    }

    /// The message the events made so far (what the SDKs' `finalMessage()` gives).
    pub fn message(&self) -> Value {
        let mut m = self.message.clone();
        // In place of the empty `content` of `message_start`, if it had one.
        m.insert(
            "content".into(),
            Value::Array(
                self.blocks
                    .iter()
                    .filter(|b| !b.is_null())
                    .cloned()
                    .collect(),
            ),
        );
        Value::Object(m)
    }

    /// Ends the stream (at `message_stop`, or when its reader says so): the message is
    /// read whole by the `anthropic` parser. Later events are ignored. Whether this call
    /// ended it.
    pub fn end(&mut self) -> bool {
        if self.done {
            return false;
        }
        self.done = true;
        self.close_open();
        if self.blocks.is_empty() && self.message.is_empty() {
            return true;
        }
        let message = self.message();
        if let Ok(mut d) = anthropic::parse(None, Some(&message), &self.options) {
            // The same text by construction (one paragraph rule); kept as streamed
            // should the two ever differ, so the text shown only grows.
            if d.text == self.parser.draft.text {
                d.diagnostics.extend(self.own.iter().cloned());
                self.parser.draft = d;
            }
        }
        true
    }
}

/// Parses a whole stream into a draft (what appending it and finishing gives).
pub fn parse_stream(stream: &str, options: &Options) -> Result<Draft, ParseError> {
    let (events, limit) = whole_stream_events(stream, Format::Anthropic)?;
    let mut acc = StreamAccumulator::new(options);
    for ev in &events {
        acc.event(ev);
    }
    acc.end();
    let mut draft = acc.parser.draft;
    if let Some(d) = limit {
        draft.diagnostics.insert(0, d);
    }
    Ok(draft)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::formats::sse::SseReader;

    fn read(stream: &str) -> StreamAccumulator {
        let mut acc = StreamAccumulator::new(&Options::default());
        let mut r = SseReader::new();
        for ev in r.push(stream).into_iter().chain(r.finish()) {
            acc.event(&ev);
        }
        acc
    }

    /// A cited block's span covers its text once the block stops; the final draft is
    /// the parser's reading of the message the events make.
    #[test]
    fn a_cited_block_becomes_a_span_when_it_stops() {
        let events = [
            r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"m"}}"#,
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Intro:"}}"#,
            r#"{"type":"content_block_stop","index":0}"#,
            r#"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"","citations":[]}}"#,
            r#"{"type":"content_block_delta","index":1,"delta":{"type":"citations_delta","citation":{"type":"char_location","cited_text":"Sky is blue.","document_index":0,"document_title":"Notes","start_char_index":0,"end_char_index":12}}}"#,
            r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":" the sky "}}"#,
            r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"is blue"}}"#,
        ];
        let mut stream: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
        let acc = read(&stream);
        assert_eq!(acc.draft_ref().text, "Intro: the sky is blue");
        assert!(acc.draft_ref().spans.is_empty(), "the block is still open");
        stream.push_str("data: {\"type\":\"content_block_stop\",\"index\":1}\n\n");
        let acc = read(&stream);
        let spans = &acc.draft_ref().spans;
        assert_eq!((spans[0].start, spans[0].end), (6, 22));
        stream.push_str("data: {\"type\":\"message_stop\"}\n\n");
        let acc = read(&stream);
        let whole = anthropic::parse(None, Some(&acc.message()), &Options::default()).unwrap();
        assert_eq!(acc.draft_ref(), &whole);
        assert_eq!(whole.metadata["id"], "msg_1");
    }

    /// An `error` event is a warning, not silence; the text so far stays.
    #[test]
    fn a_stream_error_is_reported() {
        let acc = read(concat!(
            "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
            "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n",
            "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n",
        ));
        assert_eq!(acc.draft_ref().text, "Hi");
        let d = &acc.draft_ref().diagnostics;
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].code, "stream-error");
        assert!(d[0].message.contains("overloaded_error"));
    }
}
