//! The UI message stream's chunks read as they come (see the module above).

use super::{object, Builder};
use crate::core::draft::Draft;
use crate::core::formats::sse::{event_json, SseEvent};
use crate::core::model::Diagnostic;
use crate::core::options::Options;
use crate::core::ordered_hash::{OrderedHashMap, OrderedHashSet};
use crate::core::untrusted_text::{clean_text, excerpt200};
use serde_json::{Map, Value};

/// Reads a UI message stream's events into a draft as they come: text deltas become
/// the answer, sources arrive, other chunks are kept. [`StreamAccumulator::finish`]
/// gives what `parse` of the final message gives.
#[derive(Debug, Clone)]
pub struct StreamAccumulator {
    builder: Builder,
    /// Events read so far (for paths).
    count: usize,
    /// `[DONE]` was seen.
    done: bool,
    /// Tool calls and data parts seen (their later chunks update the same part).
    parts_seen: OrderedHashSet<String>,
    /// Parts that are neither text nor sources, rebuilt from their chunks.
    other: Vec<Value>,
    /// Index in `other` by tool call id, reasoning id or data id.
    other_by_id: OrderedHashMap<String, usize>,
}

impl StreamAccumulator {
    /// An empty accumulator.
    pub fn new(options: &Options) -> Self {
        StreamAccumulator {
            builder: Builder::new(options),
            count: 0,
            done: false,
            parts_seen: OrderedHashSet::new(),
            other: Vec::new(),
            other_by_id: OrderedHashMap::new(),
        }
    }

    /// The draft as far as the events so far make it (the open text parts' text that
    /// is written, no provider positions of parts still open).
    pub fn draft_ref(&self) -> &Draft {
        &self.builder.draft
    }

    /// Reads one event.
    pub fn event(&mut self, ev: &SseEvent) {
        let path = format!("events[{}]", self.count);
        self.count += 1;
        if self.done {
            return;
        }
        if ev.data.trim() == "[DONE]" {
            self.done = true;
            self.end();
            return;
        }
        let Some(value) = event_json(&ev.data, &path, &mut self.builder.draft.diagnostics) else {
            return;
        };
        let Value::Object(o) = &value else {
            return;
        };
        self.chunk(o, &path);
    }

    fn chunk(&mut self, o: &Map<String, Value>, path: &str) {
        let str_of = |k: &str| o.get(k).and_then(Value::as_str).unwrap_or("");
        let b = &mut self.builder;
        let kind = str_of("type");
        match kind {
            "text-start" => b.text_start(&format!("\u{1}{}", str_of("id")), path),
            "text-delta" => {
                let delta = o.get("delta").and_then(Value::as_str).unwrap_or("");
                let id = format!("\u{1}{}", str_of("id"));
                b.text_delta(&id, delta, o.get("providerMetadata"));
            }
            "text-end" => b.text_end(
                &format!("\u{1}{}", str_of("id")),
                o.get("providerMetadata"),
                o.get("citations"),
            ),
            "source-url" => {
                b.source_url(o, path, true);
            }
            "source-document" => {
                b.source_document(o, path, true);
            }
            "start-step" => b.step_start(),
            "start" | "finish" | "message-metadata" => {
                if let Some(m) = o.get("messageMetadata").filter(|m| !m.is_null()) {
                    b.metadata(m);
                }
                if kind == "start" {
                    if let Some(id) = o.get("messageId") {
                        b.draft.metadata.insert("id".into(), id.clone());
                    }
                }
            }
            "finish-step" | "abort" | "reset-step" => {}
            "error" => {
                let text = clean_text(str_of("errorText"));
                b.draft.diagnostics.push(
                    Diagnostic::warning(
                        "stream-error",
                        format!("the stream reported an error: {}", excerpt200(&text)),
                    )
                    .at_path(path),
                );
            }
            "reasoning-start" => {
                let id = format!("reasoning\u{0}{}", str_of("id"));
                self.new_other(id, object(&[("type", "reasoning"), ("text", "")]));
            }
            "reasoning-delta" => {
                let id = format!("reasoning\u{0}{}", str_of("id"));
                if let Some(&i) = self.other_by_id.get(&id) {
                    if let Some(Value::String(t)) = self.other[i].get_mut("text") {
                        t.push_str(str_of("delta"));
                    }
                }
            }
            "reasoning-end" => {}
            t if t.starts_with("tool-") => {
                let call = str_of("toolCallId").to_string();
                let id = format!("tool\u{0}{call}");
                if !self.parts_seen.contains(&id) {
                    self.parts_seen.insert(id.clone());
                    let name = o.get("toolName").and_then(Value::as_str).unwrap_or("");
                    let dynamic = o.get("dynamic").and_then(Value::as_bool) == Some(true);
                    let ty = if dynamic {
                        "dynamic-tool".to_string()
                    } else {
                        format!("tool-{name}")
                    };
                    self.new_other(id.clone(), object(&[("type", &ty), ("toolCallId", &call)]));
                }
                if let Some(&i) = self.other_by_id.get(&id) {
                    if let Value::Object(part) = &mut self.other[i] {
                        for k in ["input", "output", "errorText", "providerExecuted"] {
                            if let Some(v) = o.get(k) {
                                part.insert(k.into(), v.clone());
                            }
                        }
                    }
                }
            }
            t if t.starts_with("data-") => {
                if o.get("transient").and_then(Value::as_bool) == Some(true) {
                    return;
                }
                let part = Value::Object(
                    o.iter()
                        .filter(|(k, _)| k.as_str() != "transient")
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                );
                match o.get("id").and_then(Value::as_str) {
                    Some(did) => {
                        let id = format!("{t}\u{0}{did}");
                        match self.other_by_id.get(&id) {
                            Some(&i) => self.other[i] = part,
                            None => self.new_other(id, part),
                        }
                    }
                    None => {
                        self.builder.gaps += 1;
                        self.other.push(part);
                    }
                }
            }
            _ => {
                // file, reasoning-file, custom and types to come: a part of their own.
                self.builder.gaps += 1;
                let part = Value::Object(o.clone());
                self.other.push(part);
            }
        }
    }

    /// A new part that is not text: a gap before the next text.
    fn new_other(&mut self, id: String, part: Value) {
        self.builder.gaps += 1;
        self.other_by_id.insert(id, self.other.len());
        self.other.push(part);
    }

    /// The draft of the whole stream.
    pub fn finish(mut self) -> Draft {
        self.end();
        self.builder.draft
    }

    /// Ends the stream (at `[DONE]`, or when its reader says so): text parts still
    /// open are written out, the positions of the message metadata read. Later events
    /// are ignored. Whether this call ended it.
    pub fn end(&mut self) -> bool {
        if self.builder.ended {
            return false;
        }
        self.done = true;
        self.builder.other = std::mem::take(&mut self.other);
        self.builder.end();
        true
    }
}
