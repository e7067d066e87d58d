//! The `sse` format (docs/formats.md): a chat backend's raw server-sent event stream.
//!
//! ```text
//! data: {"type": "metadata", "session_id": "...", "timestamp": "..."}
//! data: {"type": "token", "content": "AEGIS"}
//! data: {"type": "source", "source": {...}}
//! data: {"type": "citations", "data": {"1": {...}, "2": {...}}}
//! data: [DONE]
//! ```
//!
//! [`SseReader`] splits the stream into events as the SSE standard says (LF, CRLF or
//! CR line ends; `:` comments; `event:`, `id:`, `retry:` fields; several `data:` lines
//! of one event joined with `\n`; an event ends at a blank line), fed in chunks cut
//! anywhere. Streams that put no blank line between `data:` lines are common; a
//! `data:` or `event:` line that follows a complete one-line JSON value (or `[DONE]`)
//! starts a new event.
//!
//! Each event's data is JSON, read by its `type` (or the `event:` name):
//!
//! - `token`: its `content` is appended to the answer (tokens may split anywhere,
//!   markers included; the text is scanned for `[n]` markers once complete);
//! - `source`: its `source` (citation map shaped `{text, source, title, score,
//!   metadata}` or generic `{title, url, snippet, ...}`) is a source, numbered by
//!   arrival unless it carries `index`, `number` or `sid`; that number is its id and
//!   marker key, so a citation map entry with the same number merges with it;
//!   `sources` carries several;
//! - `citations`: its `data` is a citation map (see `citation_map.rs`); data for
//!   a key seen in an earlier `citations` event is merged into that source (later
//!   fields win);
//! - `metadata`: its fields go to the draft's metadata; other types are ignored.
//!
//! Data that is not valid JSON is an `invalid-event` warning, skipped. Everything
//! after `data: [DONE]` is ignored.

use crate::core::draft::{Draft, DraftSource};
use crate::core::error::ParseError;
use crate::core::json_fields::{parse_json, wrong_type, Fields};
use crate::core::limits::{MAX_DATA_BYTES, MAX_DATA_BYTES_NAME};
use crate::core::markers::{SourceKey, TextSyntax};
use crate::core::model::{Diagnostic, Format, MergeWins};
use crate::core::offsets::floor_boundary;
use crate::core::options::Options;
use crate::core::ordered_hash::OrderedHashMap;
use serde_json::Value;

use super::citation_map::{read_entry, read_map};
use super::support::{cap_sources, numbered};

/// One event of a server-sent event stream.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event:` name, when the event had one.
    pub event: Option<String>,
    /// The `data:` lines, joined with `\n`.
    pub data: String,
    /// The last `id:` seen in the stream up to this event.
    pub id: Option<String>,
}

/// Splits a server-sent event stream into events. Feed it text with
/// [`SseReader::push`], cut anywhere (inside a line, between `\r` and `\n`); each
/// call returns the events completed so far. [`SseReader::finish`] returns the last
/// event when the stream did not end with a blank line.
#[derive(Debug, Clone, Default)]
pub struct SseReader {
    /// The current line, not yet ended.
    line: String,
    /// The previous chunk ended with `\r`: a `\n` starting the next one is part of
    /// that line end.
    skip_lf: bool,
    /// Whether the first line (and its byte order mark) is behind us.
    started: bool,
    /// Data lines of the pending event.
    data: Vec<String>,
    /// `event:` name of the pending event.
    event: Option<String>,
    /// Last `id:`.
    id: Option<String>,
    /// Whether any line was an SSE field or comment.
    fields_seen: bool,
}

impl SseReader {
    /// An empty reader.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether any line so far was an SSE field (`data:`, `event:`, `id:`, `retry:`)
    /// or a comment.
    pub fn saw_fields(&self) -> bool {
        self.fields_seen
    }

    /// Reads `chunk`; returns the events it completed.
    pub fn push(&mut self, chunk: &str) -> Vec<SseEvent> {
        let mut out = Vec::new();
        let mut rest = chunk;
        if self.skip_lf && !rest.is_empty() {
            rest = rest.strip_prefix('\n').unwrap_or(rest);
            self.skip_lf = false;
        }
        while let Some(i) = crate::core::str_ops::memchr2(b'\r', b'\n', rest.as_bytes()) {
            self.line.push_str(&rest[..i]);
            let crlf = rest.as_bytes()[i] == b'\r';
            rest = &rest[i + 1..];
            if crlf {
                if rest.is_empty() {
                    self.skip_lf = true;
                } else if let Some(r) = rest.strip_prefix('\n') {
                    rest = r;
                }
            }
            let line = std::mem::take(&mut self.line);
            self.line_done(&line, &mut out);
        }
        self.line.push_str(rest);
        out
    }

    /// Ends the stream: the unfinished line and the pending event, if any.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.line_done(&line, &mut out);
        }
        self.dispatch(&mut out);
        self.skip_lf = false;
        out
    }

    fn line_done(&mut self, line: &str, out: &mut Vec<SseEvent>) {
        let line = if self.started {
            line
        } else {
            self.started = true;
            line.strip_prefix('\u{feff}').unwrap_or(line)
        };
        if line.is_empty() {
            self.dispatch(out);
            return;
        }
        if line.starts_with(':') {
            self.fields_seen = true;
            return;
        }
        let (field, value) = match crate::core::str_ops::find_str(line, ":") {
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(' ').unwrap_or(v))
            }
            None => (line, ""),
        };
        match field {
            "data" => {
                self.fields_seen = true;
                if self.data.len() == 1 && self.data.first().is_some_and(|d| complete(d)) {
                    self.dispatch(out);
                }
                self.data.push(value.to_string());
            }
            "event" => {
                self.fields_seen = true;
                if self.data.len() == 1 && self.data.first().is_some_and(|d| complete(d)) {
                    self.dispatch(out);
                }
                self.event = Some(value.to_string());
            }
            "id" => {
                self.fields_seen = true;
                if !crate::core::str_ops::has_char(value, '\0') {
                    self.id = Some(value.to_string());
                }
            }
            "retry" => self.fields_seen = true,
            _ => {}
        }
    }

    fn dispatch(&mut self, out: &mut Vec<SseEvent>) {
        let event = self.event.take();
        if self.data.is_empty() {
            return;
        }
        let data = crate::core::str_ops::join(&mut self.data.iter().map(String::as_str), "\n");
        self.data.clear();
        out.push(SseEvent {
            event,
            data,
            id: self.id.clone(),
        });
    }
}

/// Whether one data line is a whole event by itself: `[DONE]` or a complete JSON value.
fn complete(data: &str) -> bool {
    let t = data.trim();
    t == "[DONE]" || (!t.is_empty() && crate::core::json_reader::read(t).is_ok())
}

/// The events of a whole stream given as `format`, read up to the data limit: the
/// events, and the `limit-exceeded` warning when the stream was cut there. Text that
/// has no SSE field at all is not such a stream.
pub(crate) fn whole_stream_events(
    stream: &str,
    format: Format,
) -> Result<(Vec<SseEvent>, Option<Diagnostic>), ParseError> {
    let mut stream = stream;
    let mut limit = None;
    if stream.len() > MAX_DATA_BYTES {
        limit = Some(Diagnostic::warning(
            "limit-exceeded",
            format!(
                "the event stream is {} bytes; the limit `{MAX_DATA_BYTES_NAME}` reads the first {MAX_DATA_BYTES}",
                stream.len()
            ),
        ));
        stream = &stream[..floor_boundary(stream, MAX_DATA_BYTES)];
    }
    let mut reader = SseReader::new();
    let mut events = reader.push(stream);
    events.extend(reader.finish());
    if !reader.saw_fields() && !stream.trim().is_empty() {
        return Err(ParseError::not_format(
            format,
            "$",
            "expected an event stream (`data: ...` lines), found no SSE field",
        ));
    }
    Ok((events, limit))
}

/// An event's data read as JSON, or `None` after a warning at `path` (`invalid-event`,
/// or `limit-exceeded` for JSON past the nesting or size limits): such an event is
/// skipped.
pub(crate) fn event_json(
    data: &str,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Value> {
    match parse_json(data) {
        Ok(v) => Some(v),
        Err(e) => {
            let code = if e.code() == "limit-exceeded" {
                "limit-exceeded"
            } else {
                "invalid-event"
            };
            diagnostics.push(
                Diagnostic::warning(code, format!("`{path}` is not valid JSON ({e}); skipped"))
                    .at_path(path),
            );
            None
        }
    }
}

/// Parses an event stream into a draft.
pub fn parse(stream: &str, _options: &Options) -> Result<Draft, ParseError> {
    let mut acc = SseAccumulator::new();
    let (events, limit) = whole_stream_events(stream, Format::Sse)?;
    acc.draft.diagnostics.extend(limit);
    for ev in &events {
        if acc.done {
            break;
        }
        acc.event(ev);
    }
    // Events, but none with text: most likely a provider's own stream (Anthropic's
    // `content_block_delta`, OpenAI's `response.output_text.delta`), which this format
    // does not read.
    if acc.draft.text.is_empty() && !acc.unread.is_empty() {
        let names: Vec<String> = acc.unread.iter().map(|k| ["`", k, "`"].concat()).collect();
        acc.draft.diagnostics.push(Diagnostic::warning(
            "no-answer",
            format!(
                "the event stream has no `token` events with text (its events: {}); a provider's own stream is read from its final message, in that provider's format",
                names.join(", ")
            ),
        ));
    }
    Ok(acc.into_draft())
}

/// Builds a draft from events, one at a time.
#[derive(Debug, Clone)]
pub(crate) struct SseAccumulator {
    draft: Draft,
    /// Source events so far (their arrival numbers).
    arrivals: u64,
    /// Citation map key → index in `draft.sources`, for merging later data.
    by_key: OrderedHashMap<u64, usize>,
    /// Events read so far (for paths).
    count: usize,
    /// `[DONE]` was seen.
    done: bool,
    /// The first few event types not read (`content_block_delta`, ...), for the
    /// warning of a stream that gave no text.
    unread: Vec<String>,
}

impl SseAccumulator {
    /// An empty accumulator.
    pub(crate) fn new() -> Self {
        let mut draft = Draft::new(Format::Sse, "");
        draft.grammar = Some(super::support::every_marker(TextSyntax::Markdown));
        SseAccumulator {
            draft,
            arrivals: 0,
            by_key: OrderedHashMap::new(),
            count: 0,
            done: false,
            unread: Vec::new(),
        }
    }

    /// The draft as far as the events so far make it.
    pub(crate) fn draft_ref(&self) -> &Draft {
        &self.draft
    }

    /// Reads one event.
    pub(crate) fn event(&mut self, ev: &SseEvent) {
        let path = format!("events[{}]", self.count);
        self.count += 1;
        if self.done {
            return;
        }
        if ev.data.trim() == "[DONE]" {
            self.done = true;
            return;
        }
        let Some(value) = event_json(&ev.data, &path, &mut self.draft.diagnostics) else {
            return;
        };
        let Value::Object(o) = &value else {
            return;
        };
        let kind = match o.get("type").and_then(Value::as_str) {
            Some(t) => t.to_string(),
            None => ev.event.clone().unwrap_or_default(),
        };
        let diags = &mut self.draft.diagnostics;
        match kind.as_str() {
            "token" | "content" | "delta" | "text" => {
                let mut f = Fields::new(o, path.as_str());
                match f.string_any(&["content", "token", "text", "delta"], diags) {
                    Some(t) => self.draft.text.push_str(&t),
                    None if ["content", "token", "text", "delta"]
                        .iter()
                        .all(|k| o.get(*k).is_none()) =>
                    {
                        diags.push(
                            Diagnostic::warning(
                                "missing-field",
                                format!("`{path}.content` is missing; the token is skipped"),
                            )
                            .at_path(format!("{path}.content")),
                        )
                    }
                    None => {}
                }
            }
            "metadata" => {
                for (k, v) in o {
                    if k != "type" {
                        self.draft.metadata.insert(k.clone(), v.clone());
                    }
                }
            }
            "source" => match o.get("source") {
                Some(s) => self.source(s, &format!("{path}.source")),
                None => {
                    // The source's fields may sit on the event itself.
                    // (Filtered rather than `remove`d: serde_json's `remove` moves
                    // the last key into the gap, and metadata keeps the input's order.)
                    let inner = o
                        .iter()
                        .filter(|(k, _)| *k != "type")
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect();
                    self.source(&Value::Object(inner), &path)
                }
            },
            "sources" => match o.get("sources").or_else(|| o.get("data")) {
                Some(Value::Array(list)) => {
                    let key = if o.contains_key("sources") {
                        "sources"
                    } else {
                        "data"
                    };
                    for (j, s) in list.iter().enumerate() {
                        self.source(s, &format!("{path}.{key}[{j}]"));
                    }
                }
                Some(other) => {
                    diags.push(wrong_type(&format!("{path}.sources"), "an array", other))
                }
                None => {}
            },
            "citations" | "citation_map" | "citationMap" => {
                let key = ["data", "citation_map", "citations", "citationMap"]
                    .into_iter()
                    .find(|k| o.get(*k).is_some_and(|v| !v.is_null()));
                match key.and_then(|k| o.get(k).map(|v| (k, v))) {
                    Some((k, map @ (Value::Object(_) | Value::Array(_)))) => {
                        let p = format!("{path}.{k}");
                        let list = read_map(map, &p, &mut self.draft.diagnostics);
                        for s in list {
                            self.merge(s);
                        }
                    }
                    Some((k, other)) => {
                        diags.push(wrong_type(&format!("{path}.{k}"), "an object", other))
                    }
                    None => {}
                }
            }
            _ => {
                if self.unread.len() < 4 && !self.unread.contains(&kind) {
                    self.unread.push(kind);
                }
            }
        }
    }

    /// Adds a `source` event's source.
    fn source(&mut self, v: &Value, path: &str) {
        self.arrivals += 1;
        let given = match v {
            Value::Object(o) => ["index", "number", "sid"]
                .iter()
                .find_map(|k| o.get(*k).and_then(crate::core::json_fields::as_uint)),
            _ => None,
        };
        let n = given.unwrap_or(self.arrivals);
        let Some(mut src) = read_entry(n, v, path, &mut self.draft.diagnostics) else {
            return;
        };
        if given.is_some() {
            // In the input's order (see `source` above).
            src.metadata = std::mem::take(&mut src.metadata)
                .into_iter()
                .filter(|(k, _)| !matches!(k.as_str(), "index" | "number" | "sid"))
                .collect();
        }
        self.draft.sources.push(numbered(src, Some(n)));
    }

    /// Adds a citation map entry, merging it into an earlier one with the same key.
    fn merge(&mut self, new: DraftSource) {
        let Some(SourceKey::Num(n)) = new.keys.first().cloned() else {
            self.draft.sources.push(new);
            return;
        };
        match self.by_key.get(&n) {
            Some(&i) => {
                if let Some(old) = self.draft.sources.get_mut(i) {
                    old.source.merge(new.source, MergeWins::Incoming);
                }
            }
            None => {
                self.by_key.insert(n, self.draft.sources.len());
                self.draft.sources.push(new);
            }
        }
    }

    /// The draft.
    pub(crate) fn into_draft(mut self) -> Draft {
        cap_sources(&mut self.draft);
        self.draft
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(chunks: &[&str]) -> Vec<SseEvent> {
        let mut r = SseReader::new();
        let mut out = Vec::new();
        for c in chunks {
            out.extend(r.push(c));
        }
        out.extend(r.finish());
        out
    }

    fn data(events: &[SseEvent]) -> Vec<&str> {
        events.iter().map(|e| e.data.as_str()).collect()
    }

    const STREAM: &str = ": keep-alive\r\nevent: token\r\nid: 7\r\ndata: {\"a\":1}\r\n\r\ndata: line1\r\ndata: line2\r\n\r\nretry: 100\r\ndata: [DONE]\r\n\r\n";

    #[test]
    fn reads_fields_comments_and_multiline_data() {
        let ev = read_all(&[STREAM]);
        assert_eq!(data(&ev), ["{\"a\":1}", "line1\nline2", "[DONE]"]);
        assert_eq!(ev[0].event.as_deref(), Some("token"));
        assert_eq!(ev[0].id.as_deref(), Some("7"));
        assert_eq!(ev[1].event, None);
    }

    #[test]
    fn any_chunk_cut_gives_the_same_events() {
        let whole = read_all(&[STREAM]);
        let cuts: Vec<usize> = (0..=STREAM.len())
            .filter(|&i| STREAM.is_char_boundary(i))
            .collect();
        for &a in &cuts {
            for &b in cuts.iter().filter(|&&b| b >= a) {
                let ev = read_all(&[&STREAM[..a], &STREAM[a..b], &STREAM[b..]]);
                assert_eq!(ev, whole, "cut at {a}, {b}");
            }
        }
        // One character at a time, also with LF and lone CR line ends.
        for s in [STREAM.replace("\r\n", "\n"), STREAM.replace("\r\n", "\r")] {
            let chars: Vec<String> = s.chars().map(String::from).collect();
            let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
            assert_eq!(read_all(&refs), whole);
        }
    }

    #[test]
    fn data_lines_without_blank_lines_are_separate_events() {
        let ev = read_all(&["data: {\"type\":\"token\",\"content\":\"A\"}\ndata: {\"type\":\"token\",\"content\":\"B\"}\ndata: [DONE]\n"]);
        assert_eq!(ev.len(), 3);
        // But a JSON value split over data lines stays one event.
        let ev = read_all(&["data: {\"a\":\ndata: 1}\n\n"]);
        assert_eq!(data(&ev), ["{\"a\":\n1}"]);
    }

    #[test]
    fn bom_and_no_final_newline() {
        let ev = read_all(&["\u{feff}data: x"]);
        assert_eq!(data(&ev), ["x"]);
        assert!(read_all(&["", "\n\n"]).is_empty());
    }

    #[test]
    fn source_metadata_keeps_the_input_order() {
        let stream = concat!(
            "data: {\"type\": \"source\", \"title\": \"A\", \"z\": 1, \"a\": 2, \"m\": 3}\n\n",
            "data: {\"type\": \"source\", \"source\": {\"number\": 4, \"title\": \"B\", \"z\": 1, \"a\": 2, \"m\": 3}}\n\n",
        );
        let d = parse(stream, &Options::default()).unwrap();
        for s in &d.sources {
            let keys: Vec<&str> = s.source.metadata.keys().map(String::as_str).collect();
            assert_eq!(keys, ["z", "a", "m"], "{:?}", s.source.title);
        }
    }

    #[test]
    fn a_provider_stream_gives_a_warning_not_silence() {
        let stream = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        let d = parse(stream, &Options::default()).unwrap();
        assert_eq!(d.text, "");
        assert_eq!(d.diagnostics.len(), 1, "{:?}", d.diagnostics);
        assert_eq!(d.diagnostics[0].code, "no-answer");
        assert!(d.diagnostics[0]
            .message
            .contains("`content_block_delta`, `message_stop`"));
    }

    #[test]
    fn parse_tokens_sources_citations() {
        let stream = concat!(
            "data: {\"type\": \"metadata\", \"session_id\": \"s1\"}\n\n",
            "data: {\"type\": \"token\", \"content\": \"Paris [\"}\n\n",
            "data: {\"type\": \"token\", \"content\": \"1].\"}\n\n",
            "data: {not json\n\n",
            "data: {\"type\": \"source\", \"source\": {\"title\": \"A\", \"source\": \"https://a.example/x\"}}\n\n",
            "data: {\"type\": \"citations\", \"data\": {\"1\": {\"text\": \"Paris...\", \"title\": \"A\"}}}\n\n",
            "data: {\"type\": \"citations\", \"data\": {\"1\": {\"score\": 0.5}}}\n\n",
            "data: [DONE]\n\n",
            "data: {\"type\": \"token\", \"content\": \"ignored\"}\n\n",
        );
        let d = parse(stream, &Options::default()).unwrap();
        assert_eq!(d.text, "Paris [1].");
        assert_eq!(d.metadata["session_id"], "s1");
        assert_eq!(d.sources.len(), 2);
        assert_eq!(d.sources[0].source.id, "1");
        assert_eq!(
            d.sources[0].source.url.as_deref(),
            Some("https://a.example/x")
        );
        assert_eq!(d.sources[1].source.score, Some(0.5));
        assert_eq!(d.sources[1].source.title.as_deref(), Some("A"));
        assert_eq!(d.diagnostics.len(), 1);
        assert_eq!(d.diagnostics[0].code, "invalid-event");
    }

    #[test]
    fn not_an_event_stream() {
        assert!(parse("hello world", &Options::default()).is_err());
        assert!(parse("", &Options::default()).is_ok());
    }
}
