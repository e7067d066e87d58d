//! The `llamaindex` format: a LlamaIndex answer with the nodes it was built from.
//!
//! - A query engine's `Response` (Python `response.dict()` / JSON, LlamaIndexTS's
//!   `EngineResponse`): `{response, source_nodes: [{node: {id_, text, metadata, ...},
//!   score}], metadata}` (`sourceNodes`, and `message.content` for the text, in
//!   LlamaIndexTS).
//! - What `@llamaindex/chat-ui` takes: a message `{role, content, annotations: [{type:
//!   "sources", data: {nodes: [{id, url?, text, metadata, score?}]}}]}`, the `sources`
//!   annotation alone, or `{sources: {nodes}}`.
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
use crate::core::json::{type_name, wrong_type};
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
    let mut nodes: Option<(&Value, String)> = None;
    let mut used: Vec<&str> = Vec::new();
    for key in ["source_nodes", "sourceNodes"] {
        if let Some(v) = o.get(key) {
            nodes = Some((v, key.to_string()));
            used.push(key);
        }
    }
    fn sources_of(a: &Value) -> Option<&Value> {
        a.get("data").and_then(|d| d.get("nodes"))
    }
    if nodes.is_none() && o.get("type").and_then(Value::as_str) == Some("sources") {
        if let Some(n) = sources_of(data.unwrap_or(&Value::Null)) {
            nodes = Some((n, "data.nodes".into()));
            used.extend(["type", "data"]);
        }
    }
    if nodes.is_none() {
        if let Some(n) = o.get("sources").and_then(|s| s.get("nodes")) {
            nodes = Some((n, "sources.nodes".into()));
            used.push("sources");
        }
    }
    if nodes.is_none() {
        if let Some(Value::Array(annotations)) = o.get("annotations") {
            let mut others = Vec::new();
            for (i, a) in annotations.iter().enumerate() {
                match sources_of(a) {
                    Some(n)
                        if nodes.is_none()
                            && a.get("type").and_then(Value::as_str) == Some("sources") =>
                    {
                        nodes = Some((n, format!("annotations[{i}].data.nodes")));
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
    if answer.is_some() {
        // The caller's text wins; the data's own copy stays in the metadata.
    } else if let Some(k) = text_field {
        used.push(k);
    }
    for (k, v) in o {
        if !used.contains(&k.as_str()) {
            meta.insert(k.clone(), v.clone());
        }
    }
    let mut draft = Draft::new(Format::Llamaindex, answer.or(data_text).unwrap_or_default());
    draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
    match nodes {
        Some((Value::Array(items), path)) => {
            for (i, item) in items.iter().enumerate() {
                let p = format!("{path}[{i}]");
                match read_node(item, &p, &mut diags) {
                    Some(mut src) => {
                        if src.id.is_empty() {
                            src.id = format!("node-{}", i + 1);
                        }
                        draft
                            .sources
                            .push(support::numbered(src, Some(i as u64 + 1)));
                    }
                    None => diags.push(wrong_type(&p, "a node", item)),
                }
            }
        }
        Some((Value::Null, _)) | None => {}
        Some((other, path)) => diags.push(wrong_type(&path, "an array", other)),
    }
    draft.diagnostics = diags;
    draft.metadata = meta;
    support::cap_sources(&mut draft);
    Ok(draft)
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
            Value::String(s) => crate::core::bytes::uint(s.trim()),
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
