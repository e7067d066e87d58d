//! Gemini's `streamGenerateContent?alt=sse` stream, read as it comes: one `data:`
//! event per `GenerateContentResponse` chunk (no `type`; `candidates`,
//! `usageMetadata`, `modelVersion`, `responseId` say what it is).
//!
//! - Each chunk's `candidates[0].content.parts[].text` (not `thought` parts) is more
//!   answer text, added to the draft as it comes.
//! - A chunk whose candidate carries `groundingMetadata` gives the sources
//!   (`groundingChunks`) and spans (`groundingSupports`, segments in UTF-8 bytes over
//!   the whole answer so far): the `gemini` parser reads it over the text so far, so
//!   they are read as in the `gemini` format. A later chunk's `groundingMetadata`
//!   replaces an earlier one.
//! - The chunk whose candidate has a `finishReason` is the last: the response the
//!   chunks make (the last chunk, its candidate's parts replaced by one part holding
//!   the whole text, with the last `groundingMetadata`) is read by the `gemini` parser,
//!   so the result equals `parse` of that response. A chunk after it opens the stream
//!   again.

use super::gemini;
use crate::core::draft::Draft;
use crate::core::error::ParseError;
use crate::core::formats::sse::{event_json, whole_stream_events, SseEvent};
use crate::core::model::{Diagnostic, Format};
use crate::core::options::Options;
use serde_json::{Map, Value};

/// Whether a JSON object is a `GenerateContentResponse` chunk (the first such event
/// decides the format).
pub fn is_chunk(o: &Map<String, Value>) -> bool {
    !o.contains_key("type")
        && ["candidates", "usageMetadata", "modelVersion", "responseId"]
            .iter()
            .any(|k| o.contains_key(*k))
}

/// Reads a Gemini stream's chunks into a draft as they come.
#[derive(Debug, Clone)]
pub struct StreamAccumulator {
    options: Options,
    draft: Draft,
    /// Events read so far (for paths).
    count: usize,
    /// The last chunk came (its candidate had a `finishReason`), or the stream ended.
    done: bool,
    /// The last chunk.
    last: Map<String, Value>,
    /// The last `groundingMetadata`.
    grounding: Option<Value>,
    /// Diagnostics of the stream itself (events that are not JSON).
    own: Vec<Diagnostic>,
    /// Diagnostics of the grounding read last.
    read: Vec<Diagnostic>,
}

impl StreamAccumulator {
    /// An empty accumulator.
    pub fn new(options: &Options) -> Self {
        let mut draft = Draft::new(Format::Gemini, "");
        draft.grammar = gemini::grammar();
        StreamAccumulator {
            options: options.clone(),
            draft,
            count: 0,
            done: false,
            last: Map::new(),
            grounding: None,
            own: Vec::new(),
            read: Vec::new(),
        }
    }

    /// The draft as far as the chunks so far make it.
    pub fn draft_ref(&self) -> &Draft {
        &self.draft
    }

    /// Reads one event.
    pub fn event(&mut self, ev: &SseEvent) {
        let path = format!("events[{}]", self.count);
        self.count += 1;
        let Some(Value::Object(o)) = event_json(&ev.data, &path, &mut self.own) else {
            self.sync_diagnostics();
            return;
        };
        // More after the last chunk: the stream goes on.
        self.done = false;
        let mut grounded = false;
        let mut finished = false;
        if let Some(Value::Object(c)) = o
            .get("candidates")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
        {
            if let Some(Value::Array(parts)) = c.get("content").and_then(|x| x.get("parts")) {
                for p in parts {
                    if p.get("thought").and_then(Value::as_bool) == Some(true) {
                        continue;
                    }
                    if let Some(t) = p.get("text").and_then(Value::as_str) {
                        self.draft.text.push_str(t);
                    }
                }
            }
            if let Some(g) = c.get("groundingMetadata").filter(|g| !g.is_null()) {
                self.grounding = Some(g.clone());
                grounded = true;
            }
            finished = c.get("finishReason").is_some_and(|r| !r.is_null());
        }
        self.last = o;
        if finished {
            self.end();
        } else if grounded {
            self.ground();
        }
    }

    /// Reads the grounding over the text so far: its sources and spans.
    fn ground(&mut self) {
        let Some(g) = &self.grounding else {
            return;
        };
        let mut candidate = Map::new();
        candidate.insert("content".into(), content(&self.draft.text));
        candidate.insert("groundingMetadata".into(), g.clone());
        if let Ok(d) = gemini::parse(None, Some(&Value::Object(candidate)), &self.options) {
            self.draft.sources = d.sources;
            self.draft.spans = d.spans;
            self.read = d.diagnostics;
        }
        self.sync_diagnostics();
    }

    fn sync_diagnostics(&mut self) {
        self.draft.diagnostics.clone_from(&self.read);
        self.draft.diagnostics.extend(self.own.iter().cloned());
    }

    /// The response the chunks made so far: the last chunk, its candidate's parts
    /// replaced by one part holding the whole text, with the last `groundingMetadata`.
    pub fn response(&self) -> Value {
        let mut r = self.last.clone();
        // A last chunk without a candidate (usage only): one for the text.
        if !matches!(r.get("candidates"), Some(Value::Array(a)) if a.first().is_some_and(Value::is_object))
        {
            r.insert(
                "candidates".into(),
                Value::Array(vec![Value::Object(Map::new())]),
            );
        }
        if let Some(Value::Object(c)) = r
            .get_mut("candidates")
            .and_then(Value::as_array_mut)
            .and_then(|a| a.first_mut())
        {
            c.insert("content".into(), content(&self.draft.text));
            if let Some(g) = &self.grounding {
                c.insert("groundingMetadata".into(), g.clone());
            }
        }
        Value::Object(r)
    }

    /// Ends the stream (at the last chunk, or when its reader says so): the response
    /// is read whole by the `gemini` parser. Whether this call ended it.
    pub fn end(&mut self) -> bool {
        if self.done {
            return false;
        }
        self.done = true;
        if self.count == 0 {
            return true;
        }
        if let Ok(mut d) = gemini::parse(None, Some(&self.response()), &self.options) {
            if d.text == self.draft.text {
                d.diagnostics.extend(self.own.iter().cloned());
                self.draft = d;
            }
        }
        true
    }
}

/// A candidate's content holding `text` as its one part.
fn content(text: &str) -> Value {
    let mut part = Map::new();
    part.insert("text".into(), Value::String(text.to_string()));
    let mut c = Map::new();
    c.insert("parts".into(), Value::Array(vec![Value::Object(part)]));
    c.insert("role".into(), Value::String("model".into()));
    Value::Object(c)
}

/// Parses a whole stream into a draft (what appending it and finishing gives).
pub fn parse_stream(stream: &str, options: &Options) -> Result<Draft, ParseError> {
    let (events, limit) = whole_stream_events(stream, Format::Gemini)?;
    let mut acc = StreamAccumulator::new(options);
    for ev in &events {
        acc.event(ev);
    }
    acc.end();
    let mut draft = acc.draft;
    if let Some(d) = limit {
        draft.diagnostics.insert(0, d);
    }
    Ok(draft)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::formats::sse::SseReader;

    /// Text shows chunk by chunk; the grounding of the last chunk gives sources and
    /// UTF-8 byte spans over the whole text; the end equals `parse` of the response.
    #[test]
    fn grounding_over_the_whole_text_so_far() {
        let chunks = [
            r#"{"candidates":[{"content":{"parts":[{"text":"Café "}],"role":"model"},"index":0}],"modelVersion":"gemini-2.5-flash"}"#,
            r#"{"candidates":[{"content":{"parts":[{"text":"au lait."}],"role":"model"},"index":0,"finishReason":"STOP","groundingMetadata":{"groundingChunks":[{"web":{"uri":"https://a.example/x","title":"a.example"}}],"groundingSupports":[{"segment":{"endIndex":14,"text":"Café au lait."},"groundingChunkIndices":[0]}]}}],"modelVersion":"gemini-2.5-flash","responseId":"r1"}"#,
        ];
        let mut acc = StreamAccumulator::new(&Options::default());
        let mut r = SseReader::new();
        for ev in r.push(&format!("data: {}\r\n\r\n", chunks[0])) {
            acc.event(&ev);
        }
        assert_eq!(acc.draft_ref().text, "Café ");
        assert!(acc.draft_ref().sources.is_empty());
        for ev in r.push(&format!("data: {}\r\n\r\n", chunks[1])) {
            acc.event(&ev);
        }
        let d = acc.draft_ref();
        assert_eq!(d.text, "Café au lait.");
        assert_eq!((d.spans[0].start, d.spans[0].end), (0, 14));
        let whole = gemini::parse(None, Some(&acc.response()), &Options::default()).unwrap();
        assert_eq!(d, &whole);
        assert_eq!(whole.metadata["responseId"], "r1");
    }
}
