//! The `mistral` format: Mistral answers that cite. Two APIs:
//!
//! - Chat Completions with citations (docs.mistral.ai, "Citations & References"): the
//!   app's tool returns references `{"0": {url, title, snippets: [[...]], description,
//!   date, source}, ...}` as a `tool` message's JSON content; the assistant message's
//!   `content` is an array of chunks, `{type: "text", text}` and `{type: "reference",
//!   reference_ids: [0, 1]}` (`referenceIds` as the TypeScript SDK gives it), a reference chunk standing after the text it cites. `data`
//!   is the message history (an array, or `{messages}`) whose last assistant message is
//!   the answer and whose tool messages hold the references; or a completion (or its
//!   message) with the references beside it as `references`; or a completion alone
//!   (each id then is a bare source, `unknown-source`).
//! - The Conversations / Agents API (`client.beta.conversations.start`): a response
//!   `{object: "conversation.response", conversation_id, outputs: [{type:
//!   "tool.execution", ...}, {type: "message.output", content: [{type: "text", text},
//!   {type: "tool_reference", tool, title, url, favicon, description}]}], usage}`; each
//!   `tool_reference` is a source cited where it stands.
//!
//! The text is `answer` when given (the chunks' citations are placed in it by the text
//! before them), else the text chunks joined. A citation stands where its chunk stands
//! and covers the text before it as a marker there would (no offsets: the unit question
//! does not arise). Markers in the text are read too. Other chunks (`thinking`, ...) and
//! output items are kept in the answer's metadata (`other_chunks`, `other_outputs`), as
//! are the completion's or response's own fields.

use crate::core::draft::{Draft, DraftSource, DraftSpan, SourceRef};
use crate::core::error::ParseError;
use crate::core::formats::support;
use crate::core::json_fields::{type_name, wrong_type};
use crate::core::markers::TextSyntax;
use crate::core::model::{Diagnostic, Format, Source};
use crate::core::options::Options;
use serde_json::{Map, Value};

/// Parses `mistral` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    _options: &Options,
) -> Result<Draft, ParseError> {
    let not_format = |msg: String| Err(ParseError::not_format(Format::Mistral, "$", msg));
    let mut draft = Draft::new(Format::Mistral, "");
    draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
    let mut reader = Reader {
        draft: &mut draft,
        refs: Vec::new(),
        other_chunks: Vec::new(),
    };
    match data {
        Some(Value::Array(messages)) => reader.messages(messages, "")?,
        Some(Value::Object(o)) => {
            let mut meta = Map::new();
            if let Some(Value::Array(messages)) = o.get("messages") {
                reader.messages(messages, "messages.")?;
            } else if let Some(outputs) = o.get("outputs") {
                reader.conversation(outputs)?;
            } else {
                if let Some(refs) = o.get("references") {
                    reader.references(refs, "references");
                }
                let (message, path) =
                    match o.get("choices").and_then(|c| c.get(0)) {
                        Some(c) => match c.get("message").or_else(|| c.get("delta")) {
                            Some(m) => (m, "choices[0].message"),
                            None => return not_format("`choices[0]` has no `message`".into()),
                        },
                        None if o.contains_key("content") => (data.unwrap_or(&Value::Null), ""),
                        None => return not_format(
                            "expected a completion, a message, messages or a conversation response"
                                .into(),
                        ),
                    };
                reader.message_content(message.get("content"), path);
            }
            for (k, v) in o {
                if !matches!(
                    k.as_str(),
                    "messages" | "outputs" | "references" | "content"
                ) {
                    meta.insert(k.clone(), v.clone());
                }
            }
            reader.draft.metadata.extend(meta);
        }
        Some(other) => {
            return not_format(format!(
                "expected messages or a completion, found {}",
                type_name(other)
            ))
        }
        None => return not_format("expected messages or a completion, found no data".into()),
    }
    let Reader { other_chunks, .. } = reader;
    if !other_chunks.is_empty() {
        draft
            .metadata
            .insert("other_chunks".into(), Value::Array(other_chunks));
    }
    if let Some(a) = answer {
        support::use_caller_text(&mut draft, a);
    }
    support::cap_sources(&mut draft);
    support::cap_spans(&mut draft);
    Ok(draft)
}

struct Reader<'d> {
    draft: &'d mut Draft,
    /// Reference id → index into the draft's sources.
    refs: Vec<(u64, usize)>,
    other_chunks: Vec<Value>,
}

impl Reader<'_> {
    /// A message history: every tool message's references, then the last assistant
    /// message's content.
    fn messages(&mut self, messages: &[Value], prefix: &str) -> Result<(), ParseError> {
        for (i, m) in messages.iter().enumerate() {
            if m.get("role").and_then(Value::as_str) != Some("tool") {
                continue;
            }
            let path = format!("{prefix}[{i}].content");
            match m.get("content") {
                // A tool result that is not a references object cites nothing.
                Some(Value::String(s)) => {
                    if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(s) {
                        self.references(&v, &path);
                    }
                }
                Some(v @ Value::Object(_)) => self.references(v, &path),
                _ => {}
            }
        }
        let last = messages
            .iter()
            .enumerate()
            .rev()
            .find(|(_, m)| m.get("role").and_then(Value::as_str) == Some("assistant"));
        if let Some((i, m)) = last {
            self.message_content(m.get("content"), &format!("{prefix}[{i}]"));
        }
        self.draft.metadata.insert(
            "messages".into(),
            Value::Array(
                messages
                    .iter()
                    .take(last.map_or(messages.len(), |(i, _)| i))
                    .cloned()
                    .collect(),
            ),
        );
        Ok(())
    }

    /// `{"0": {url, title, snippets, description, date, source}, ...}`.
    fn references(&mut self, refs: &Value, path: &str) {
        let Value::Object(refs) = refs else {
            self.draft
                .diagnostics
                .push(wrong_type(path, "a references object", refs));
            return;
        };
        for (key, r) in refs {
            let Some(id) = crate::core::str_ops::uint(key.trim()) else {
                continue;
            };
            let p = format!("{path}.{key}");
            let Value::Object(r) = r else {
                self.draft
                    .diagnostics
                    .push(wrong_type(&p, "a reference object", r));
                continue;
            };
            let mut src = Source {
                id: format!("ref-{id}"),
                provider: Some("mistral".into()),
                ..Source::default()
            };
            let mut meta = Map::new();
            for (k, v) in r {
                match (k.as_str(), v) {
                    ("url", Value::String(u)) => {
                        support::apply_url(&mut src, u, &p, &mut self.draft.diagnostics)
                    }
                    ("title", Value::String(t)) => src.title = support::title(t),
                    ("snippets", Value::Array(_)) => {
                        let mut parts = Vec::new();
                        flatten_strings(v, &mut parts);
                        support::set_text(&mut src, &parts.join(" … "));
                    }
                    ("description", Value::String(d)) if src.snippet.is_none() => {
                        support::set_text(&mut src, d)
                    }
                    ("date", Value::String(d)) => src.published = support::title(d),
                    (_, Value::Null) => {}
                    _ => {
                        meta.insert(k.clone(), v.clone());
                    }
                }
            }
            src.metadata = meta;
            support::finish_source(&mut src, "document");
            self.refs.push((id, self.draft.sources.len()));
            self.draft
                .sources
                .push(support::numbered(src, Some(id + 1)));
        }
    }

    /// A message's `content`: a string, or text and reference chunks.
    fn message_content(&mut self, content: Option<&Value>, path: &str) {
        match content {
            Some(Value::String(s)) => self.draft.text.push_str(s),
            Some(Value::Array(chunks)) => {
                for (i, c) in chunks.iter().enumerate() {
                    self.chunk(c, &format!("{path}.content[{i}]"));
                }
            }
            None | Some(Value::Null) => {}
            Some(other) => self.draft.diagnostics.push(wrong_type(
                &format!("{path}.content"),
                "a string or chunks",
                other,
            )),
        }
    }

    fn chunk(&mut self, c: &Value, path: &str) {
        let at = self.draft.text.len();
        match c.get("type").and_then(Value::as_str) {
            Some("text") => {
                if let Some(t) = c.get("text").and_then(Value::as_str) {
                    self.draft.text.push_str(t);
                }
            }
            Some("reference") => {
                let mut sources = Vec::new();
                // The TypeScript SDK gives camelCase (`referenceIds`), the wire snake_case.
                for id in c
                    .get("reference_ids")
                    .or_else(|| c.get("referenceIds"))
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_u64)
                {
                    let index = match self.refs.iter().find(|(r, _)| *r == id) {
                        Some((_, index)) => *index,
                        None => {
                            self.draft.diagnostics.push(
                                Diagnostic::warning(
                                    "unknown-source",
                                    format!(
                                        "`{path}` names reference {id}, which no tool result lists; it is shown without details"
                                    ),
                                )
                                .at_path(path),
                            );
                            let src = Source {
                                id: format!("ref-{id}"),
                                kind: "document".into(),
                                provider: Some("mistral".into()),
                                ..Source::default()
                            };
                            self.refs.push((id, self.draft.sources.len()));
                            self.draft
                                .sources
                                .push(support::numbered(src, Some(id + 1)));
                            self.draft.sources.len() - 1
                        }
                    };
                    if !sources.contains(&SourceRef::Index(index)) {
                        sources.push(SourceRef::Index(index));
                    }
                }
                support::push_span(self.draft, DraftSpan::new(at, at, sources));
            }
            Some("tool_reference") => {
                let Value::Object(o) = c else { return };
                let mut src = Source {
                    id: format!("tool-ref-{}", self.draft.sources.len() + 1),
                    provider: Some("mistral".into()),
                    ..Source::default()
                };
                let mut meta = Map::new();
                for (k, v) in o {
                    match (k.as_str(), v) {
                        ("type", _) | (_, Value::Null) => {}
                        ("url", Value::String(u)) => {
                            support::apply_url(&mut src, u, path, &mut self.draft.diagnostics)
                        }
                        ("title", Value::String(t)) => src.title = support::title(t),
                        ("description", Value::String(d)) => support::set_text(&mut src, d),
                        ("tool", Value::String(t)) => {
                            meta.insert("tool".into(), Value::String(t.clone()));
                        }
                        _ => {
                            meta.insert(k.clone(), v.clone());
                        }
                    }
                }
                src.metadata = meta;
                support::finish_source(&mut src, "web");
                let index = self.draft.sources.len();
                self.draft.sources.push(DraftSource {
                    source: src,
                    keys: Vec::new(),
                    given_number: None,
                });
                support::push_span(
                    self.draft,
                    DraftSpan::new(at, at, vec![SourceRef::Index(index)]),
                );
            }
            _ => self.other_chunks.push(c.clone()),
        }
    }

    /// A Conversations response's `outputs`.
    fn conversation(&mut self, outputs: &Value) -> Result<(), ParseError> {
        let Value::Array(items) = outputs else {
            return Err(ParseError::not_format(
                Format::Mistral,
                "outputs",
                format!("expected an array, found {}", type_name(outputs)),
            ));
        };
        let mut others = Vec::new();
        for (i, item) in items.iter().enumerate() {
            if item.get("type").and_then(Value::as_str) != Some("message.output") {
                others.push(item.clone());
                continue;
            }
            if !self.draft.text.is_empty() && !self.draft.text.ends_with("\n\n") {
                self.draft.text.push_str("\n\n");
            }
            self.message_content(item.get("content"), &format!("outputs[{i}]"));
        }
        if !others.is_empty() {
            self.draft
                .metadata
                .insert("other_outputs".into(), Value::Array(others));
        }
        Ok(())
    }
}

/// Applies one event of a Conversations stream (`beta.conversations.startStream`,
/// wire snake_case or the SDK's camelCase) to the `conversation.response` it rebuilds:
/// `conversation.response.started` gives its id, `message.output.delta` adds its
/// `content` (text, or a chunk such as `tool_reference`) to the output at
/// `output_index`, `tool.execution.*` and the other items' events are kept as those
/// outputs, `conversation.response.done` gives the usage, `conversation.response.error`
/// the error. The text the event appends at the end of the answer, when that is all
/// it changes.
pub(crate) fn apply_conversation_event(
    response: &mut Value,
    event: &Map<String, Value>,
) -> Option<String> {
    let Value::Object(r) = response else {
        return None;
    };
    let ty = event.get("type").and_then(Value::as_str).unwrap_or("");
    let field = |snake: &str, camel: &str| event.get(snake).or_else(|| event.get(camel));
    r.insert("object".into(), "conversation.response".into());
    match ty {
        "conversation.response.started" => {
            if let Some(id) = field("conversation_id", "conversationId") {
                r.insert("conversation_id".into(), id.clone());
            }
            return None;
        }
        "conversation.response.done" => {
            if let Some(u) = event.get("usage") {
                r.insert("usage".into(), u.clone());
            }
            return None;
        }
        "conversation.response.error" => {
            r.insert("error".into(), Value::Object(event.clone()));
            return None;
        }
        _ => {}
    }
    let index = field("output_index", "outputIndex")
        .and_then(crate::core::json_fields::as_uint)
        .unwrap_or(0);
    // A bound on what a stream can make us allocate.
    let index = usize::try_from(index).ok().filter(|i| *i < 1024)?;
    let Value::Array(outputs) = r
        .entry("outputs")
        .or_insert_with(|| Value::Array(Vec::new()))
    else {
        return None;
    };
    let last = index + 1 >= outputs.len();
    while outputs.len() <= index {
        outputs.push(Value::Object(Map::new()));
    }
    let Value::Object(item) = &mut outputs[index] else {
        return None;
    };
    if ty != "message.output.delta" {
        // A tool execution, a handoff, a function call: an output item of its own kind.
        let kind = ty.rsplit_once('.').map_or(ty, |(k, _)| k);
        item.insert("type".into(), kind.into());
        for (k, v) in event {
            if k != "type" {
                item.insert(k.clone(), v.clone());
            }
        }
        return None;
    }
    item.insert("type".into(), "message.output".into());
    for k in ["id", "role", "model", "agent_id", "agentId"] {
        if let Some(v) = event.get(k) {
            item.insert(k.into(), v.clone());
        }
    }
    let Value::Array(content) = item
        .entry("content")
        .or_insert_with(|| Value::Array(Vec::new()))
    else {
        return None;
    };
    let had_text = !content.is_empty();
    match event.get("content") {
        Some(Value::String(s)) => {
            match content.last_mut() {
                Some(Value::Object(c)) if c.get("type").and_then(Value::as_str) == Some("text") => {
                    match c.get_mut("text") {
                        Some(Value::String(t)) => t.push_str(s),
                        _ => return None,
                    }
                }
                _ => content.push(serde_json::json!({"type": "text", "text": s})),
            }
            // Text after text already read of the last output: the answer's end (a
            // new output's first text may start a paragraph instead).
            (last && had_text).then(|| s.clone())
        }
        Some(Value::Array(chunks)) => {
            content.extend(chunks.iter().cloned());
            None
        }
        Some(c @ Value::Object(_)) => {
            content.push(c.clone());
            None
        }
        _ => None,
    }
}

/// Every string in nested arrays (`snippets: [["a", "b"]]`), in order.
fn flatten_strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| flatten_strings(x, out)),
        _ => {}
    }
}
