//! The `llamaindex` format: a LlamaIndex answer with the nodes it was built from.
//!
//! - A query engine's `Response` (Python `response.dict()` / JSON, LlamaIndexTS's
//!   `EngineResponse`): `{response, source_nodes: [{node: {id_, text, metadata, ...},
//!   score}], metadata}` (`sourceNodes`, and `message.content` for the text, in
//!   LlamaIndexTS).
//! - What `@llamaindex/chat-ui` takes: a message `{role, content, annotations: [{type:
//!   "sources", data: {nodes: [{id, url?, text, metadata, score?}]}}]}`, the `sources`
//!   annotation alone, or `{sources: {nodes}}`.
//! - What `@llamaindex/chat-ui` 0.6 takes (the AI SDK's `UIMessage`, as `useChat` makes
//!   it of LlamaIndex Server's stream): `{id, role, parts: [{type: "text", text}, {type:
//!   "data-sources", data: {nodes}}, ...]}`. The text parts are the text (a blank line
//!   between two), the nodes of every `data-sources` part the sources, in order; other
//!   parts (`data-event`, `data-suggested_questions`, ...) stay in the metadata as
//!   `other_parts`. Its stream is read by `apply_event` (platform_stream.rs).
//!
//! The text is `answer` when given, else `response` (or the message's `content`).
//! Each node is a source in order: id the node's id (`id_`, `id`, `node_id`), given
//! number its position + 1; `[citation:<node_id>]` markers (chat-ui's form, markers.md)
//! name it by id, `[1]` (the citation query engine's `Source 1`) by position. Title from
//! `metadata.title`, else `file_name`; url from the node's `url` or `metadata.url` /
//! `URL`; snippet the node's `text`; `score`; page from `metadata.page_label`. The
//! node's other fields and metadata stay in the source's metadata. Every marker form is
//! read.

use crate::core::draft::Draft;
use crate::core::error::ParseError;
use crate::core::formats::support;
use crate::core::json_fields::{type_name, wrong_type};
use crate::core::markers::TextSyntax;
use crate::core::model::{Diagnostic, Format, Source};
use crate::core::options::Options;
use serde_json::{Map, Value};

/// Parses `llamaindex` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    _options: &Options,
) -> Result<Draft, ParseError> {
    let not_format = |msg: String| Err(ParseError::not_format(Format::Llamaindex, "$", msg));
    let o = match data {
        Some(Value::Object(o)) => o,
        Some(other) => {
            return not_format(format!(
                "expected a response or message object, found {}",
                type_name(other)
            ))
        }
        None => return not_format("expected a response, found no data".into()),
    };
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut meta = Map::new();
    // Where the nodes are, and which fields of the object they take.
    // Where the nodes are (every `data-sources` part of a message holds some).
    let mut nodes: Vec<(&Value, String)> = Vec::new();
    let mut used: Vec<&str> = Vec::new();
    for key in ["source_nodes", "sourceNodes"] {
        if let Some(v) = o.get(key) {
            nodes.push((v, key.to_string()));
            used.push(key);
        }
    }
    fn sources_of(a: &Value) -> Option<&Value> {
        a.get("data").and_then(|d| d.get("nodes"))
    }
    if nodes.is_empty() && o.get("type").and_then(Value::as_str) == Some("sources") {
        if let Some(n) = sources_of(data.unwrap_or(&Value::Null)) {
            nodes.push((n, "data.nodes".into()));
            used.extend(["type", "data"]);
        }
    }
    if nodes.is_empty() {
        if let Some(n) = o.get("sources").and_then(|s| s.get("nodes")) {
            nodes.push((n, "sources.nodes".into()));
            used.push("sources");
        }
    }
    if nodes.is_empty() {
        if let Some(Value::Array(annotations)) = o.get("annotations") {
            let mut others = Vec::new();
            for (i, a) in annotations.iter().enumerate() {
                match sources_of(a) {
                    Some(n)
                        if nodes.is_empty()
                            && a.get("type").and_then(Value::as_str) == Some("sources") =>
                    {
                        nodes.push((n, format!("annotations[{i}].data.nodes")));
                    }
                    _ => others.push(a.clone()),
                }
            }
            used.push("annotations");
            if !others.is_empty() {
                meta.insert("annotations".into(), Value::Array(others));
            }
        }
    }
    let mut parts_text: Option<String> = None;
    if let (true, Some(Value::Array(parts))) = (nodes.is_empty(), o.get("parts")) {
        let mut text = String::new();
        let mut others = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            match part.get("type").and_then(Value::as_str) {
                Some("text") => {
                    if let Some(t) = part.get("text").and_then(Value::as_str) {
                        if !text.is_empty() && !t.is_empty() {
                            text.push_str("\n\n");
                        }
                        text.push_str(t);
                    }
                }
                Some("data-sources") if sources_of(part).is_some() => {
                    nodes.push((
                        sources_of(part).unwrap_or(&Value::Null),
                        format!("parts[{i}].data.nodes"),
                    ));
                }
                _ => others.push(part.clone()),
            }
        }
        used.push("parts");
        if !others.is_empty() {
            meta.insert("other_parts".into(), Value::Array(others));
        }
        parts_text = Some(text);
    }
    let text_field = ["response", "content", "text"]
        .into_iter()
        .find(|k| o.get(*k).is_some_and(Value::is_string))
        .or_else(|| {
            o.get("message")
                .and_then(|m| m.get("content"))
                .and_then(Value::as_str)
                .map(|_| "message")
        });
    let data_text = match text_field {
        Some("message") => o
            .get("message")
            .and_then(|m| m.get("content"))
            .and_then(Value::as_str),
        Some(k) => o.get(k).and_then(Value::as_str),
        None => None,
    };
    if answer.is_some() || parts_text.is_some() {
        // The caller's text wins; the data's own copy stays in the metadata.
    } else if let Some(k) = text_field {
        used.push(k);
    }
    for (k, v) in o {
        if !used.contains(&k.as_str()) {
            meta.insert(k.clone(), v.clone());
        }
    }
    let text = answer.or(parts_text.as_deref()).or(data_text);
    let mut draft = Draft::new(Format::Llamaindex, text.unwrap_or_default());
    draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
    let mut count = 0;
    for (list, path) in nodes {
        match list {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let p = format!("{path}[{i}]");
                    count += 1;
                    match read_node(item, &p, &mut diags) {
                        Some(mut src) => {
                            if src.id.is_empty() {
                                src.id = format!("node-{count}");
                            }
                            draft
                                .sources
                                .push(support::numbered(src, Some(count as u64)));
                        }
                        None => diags.push(wrong_type(&p, "a node", item)),
                    }
                }
            }
            Value::Null => {}
            other => diags.push(wrong_type(&path, "an array", other)),
        }
    }
    draft.diagnostics = diags;
    draft.metadata = meta;
    support::cap_sources(&mut draft);
    Ok(draft)
}

/// Applies one event of LlamaIndex Server's UI message stream to the `UIMessage` it
/// makes (`useChat`'s rules): a `text-start` opens a text part, a `text-delta` adds to
/// the text part of its `id`, a `data-*` part is added (or replaces the one of the same
/// type and `id`; `transient` ones are not kept), `start` gives the message id. The
/// text appended at the end of the answer, when that is all the event did.
pub(crate) fn apply_event(response: &mut Value, event: &Map<String, Value>) -> Option<String> {
    let Value::Object(message) = response else {
        return None;
    };
    if message.is_empty() {
        message.insert("role".into(), Value::from("assistant"));
    }
    let ty = event.get("type").and_then(Value::as_str).unwrap_or("");
    let id = event.get("id").and_then(Value::as_str);
    if ty == "start" {
        if let Some(m) = event.get("messageId") {
            message.insert("id".into(), m.clone());
        }
        return None;
    }
    let Value::Array(parts) = message
        .entry("parts")
        .or_insert_with(|| Value::Array(Vec::new()))
    else {
        return None;
    };
    // The index of the text part streamed under `id` (kept as `id` on the part).
    let text_part = |parts: &[Value]| {
        parts.iter().rposition(|p| {
            p.get("type").and_then(Value::as_str) == Some("text")
                && p.get("id").and_then(Value::as_str) == id
        })
    };
    match ty {
        "text-start" => {
            let mut part = Map::new();
            part.insert("type".into(), Value::from("text"));
            part.insert("text".into(), Value::from(""));
            if let Some(id) = id {
                part.insert("id".into(), Value::from(id));
            }
            parts.push(Value::Object(part));
            None
        }
        "text-delta" => {
            let delta = event.get("delta").and_then(Value::as_str)?;
            let at = text_part(parts)?;
            let last = at + 1 == parts.len();
            let Some(Value::String(text)) = parts[at].get_mut("text") else {
                return None;
            };
            // A first delta after an earlier text part also adds the blank line.
            let fast = last && (!text.is_empty() || at == 0 || !has_text_before(&parts[..at]));
            if let Some(Value::String(text)) = parts[at].get_mut("text") {
                text.push_str(delta);
            }
            fast.then(|| delta.to_string())
        }
        t if t.starts_with("data-") => {
            if event.get("transient").and_then(Value::as_bool) == Some(true) {
                return None;
            }
            let part: Map<String, Value> = event
                .iter()
                .filter(|(k, _)| k.as_str() != "transient")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let same = id.and_then(|id| {
                parts.iter().position(|p| {
                    p.get("type").and_then(Value::as_str) == Some(t)
                        && p.get("id").and_then(Value::as_str) == Some(id)
                })
            });
            match same {
                Some(i) => parts[i] = Value::Object(part),
                None => parts.push(Value::Object(part)),
            }
            None
        }
        _ => None,
    }
}

/// Whether any of `parts` is a text part with text.
fn has_text_before(parts: &[Value]) -> bool {
    parts.iter().any(|p| {
        p.get("type").and_then(Value::as_str) == Some("text")
            && p.get("text")
                .and_then(Value::as_str)
                .is_some_and(|t| !t.is_empty())
    })
}

/// A `NodeWithScore` (`{node, score}`) or a chat-ui node (`{id, url, text, metadata,
/// score}`).
fn read_node(item: &Value, path: &str, diags: &mut Vec<Diagnostic>) -> Option<Source> {
    let outer = item.as_object()?;
    let (node, node_path) = match outer.get("node") {
        Some(Value::Object(n)) => (n, format!("{path}.node")),
        _ => (outer, path.to_string()),
    };
    let mut src = Source {
        provider: Some("llamaindex".into()),
        ..Source::default()
    };
    let mut rest = Map::new();
    let mut metadata = Map::new();
    for (k, v) in node {
        match (k.as_str(), v) {
            ("id_" | "id" | "node_id", _) if src.id.is_empty() && support::id_text(v).is_some() => {
                src.id = support::id_text(v).unwrap_or_default();
            }
            ("text", Value::String(t)) => support::set_text(&mut src, t),
            ("url", Value::String(u)) => {
                support::apply_url(&mut src, u, &format!("{node_path}.url"), diags)
            }
            ("metadata", Value::Object(m)) => metadata.clone_from(m),
            ("score", Value::Number(n)) => src.score = n.as_f64(),
            ("embedding", Value::Null) | ("class_name", _) => {}
            _ => {
                rest.insert(k.clone(), v.clone());
            }
        }
    }
    if !std::ptr::eq(node, outer) {
        for (k, v) in outer {
            match (k.as_str(), v) {
                ("node" | "class_name", _) => {}
                ("score", Value::Number(n)) => src.score = n.as_f64(),
                _ => {
                    rest.insert(k.clone(), v.clone());
                }
            }
        }
    }
    for key in ["title", "file_name", "filename", "document_title"] {
        if src.title.is_none() {
            if let Some(t) = metadata.get(key).and_then(Value::as_str) {
                src.title = support::title(t);
            }
        }
    }
    if src.url.is_none() {
        if let Some(u) = ["url", "URL", "source"]
            .iter()
            .find_map(|k| metadata.get(*k).and_then(Value::as_str))
        {
            if let support::Link::Url(u) = support::classify_link(u) {
                src.url = Some(u);
            }
        }
    }
    if let Some(p) = metadata.get("page_label").or_else(|| metadata.get("page")) {
        src.page = match p {
            Value::Number(n) => n.as_u64(),
            Value::String(s) => crate::core::str_ops::uint(s.trim()),
            _ => None,
        };
    }
    for (k, v) in metadata {
        rest.entry(k).or_insert(v);
    }
    src.metadata = rest;
    support::finish_source(&mut src, "document");
    Some(src)
}
