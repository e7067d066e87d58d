//! The `langchain` format: a LangChain chat message whose content blocks carry
//! `citation` annotations, LangChain's standard form of every provider's citations.
//!
//! - `data` is the message as an app keeps it: JavaScript's `message.toJSON()` (`{lc:
//!   1, type: "constructor", id: [..., "AIMessage"], kwargs: {content, ...}}`),
//!   Python's `message.model_dump()` (`{type: "ai", content, ...}`), any object with
//!   `content` / `contentBlocks` / `content_blocks` (the standard blocks win over the
//!   provider's own `content`), or the content blocks array itself.
//! - The text is `answer` when given, else the `text` blocks joined (a string `content`
//!   is the text); after a block that is not text, a blank line separates paragraphs.
//!   Other blocks (`reasoning`, tool calls, ...) stay in the answer's metadata as
//!   `other_blocks`, the message's own fields (`id`, `response_metadata`, ...) too.
//! - Each `{type: "citation", url?, title?, cited_text | citedText?, start_index |
//!   startIndex?, end_index | endIndex?, source?}` annotation of a text block is a
//!   citation (JavaScript names are camelCase, Python's snake_case; both are read).
//!   `start`/`end` are offsets into that block's text in the provider's unit, which
//!   LangChain copies unchanged (`url_citation`, `container_file_citation` from OpenAI:
//!   UTF-16 code units, as the `openai` format; `inputEncoding` overrides). A citation
//!   whose `source` is `char`, `page`, `block`, `url` or `search` (LangChain's
//!   translation of Anthropic's document and search citations) gives positions in the
//!   cited document, not the answer: it covers its whole text block, as Anthropic's do.
//!   So does a citation without offsets. An empty span (`file_citation`'s `index`) is a
//!   point and covers the text before it.
//! - Sources: one per url, else per title (or file id); `cited_text` is the citation's
//!   quote and the source's snippet. Other annotation types are `unsupported-item`.
//! - A chat model's stream (`.stream()`'s `AIMessageChunk`s, platform_stream.rs) is
//!   read by `apply_event`, which concatenates the chunks as `@langchain/core` does.

use crate::core::draft::{Draft, DraftSource, DraftSpan, SourceRef};
use crate::core::error::ParseError;
use crate::core::formats::support;
use crate::core::json_fields::type_name;
use crate::core::markers::TextSyntax;
use crate::core::model::{Diagnostic, Format, Source};
use crate::core::offsets::{OffsetIndex, PositionEncoding};
use crate::core::options::Options;
use crate::core::untrusted_text::normalize_url;
use serde_json::{Map, Value};

/// Parses `langchain` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    options: &Options,
) -> Result<Draft, ParseError> {
    let not_format = |msg: String| Err(ParseError::not_format(Format::Langchain, "$", msg));
    let encoding = options.input_encoding.unwrap_or(PositionEncoding::Utf16);
    let mut draft = Draft::new(Format::Langchain, "");
    draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
    let (blocks, path): (&Value, String) = match data {
        Some(v @ Value::Array(_)) => (v, String::new()),
        Some(Value::Object(o)) => {
            // `kwargs` of a serialized message (some versions nest them in `lc_kwargs`).
            let mut message = o;
            let mut prefix = String::new();
            for _ in 0..4 {
                match message.get("kwargs").or_else(|| message.get("lc_kwargs")) {
                    Some(Value::Object(k)) if !message.contains_key("content") => {
                        prefix.push_str(if message.contains_key("kwargs") {
                            "kwargs."
                        } else {
                            "lc_kwargs."
                        });
                        message = k;
                    }
                    _ => break,
                }
            }
            let key = ["contentBlocks", "content_blocks", "content"]
                .into_iter()
                .find(|k| message.get(*k).is_some_and(|v| !v.is_null()));
            let Some(key) = key else {
                return not_format("expected a message with `content`".into());
            };
            for (k, v) in message {
                if !matches!(k.as_str(), "content" | "contentBlocks" | "content_blocks") {
                    draft.metadata.insert(k.clone(), v.clone());
                }
            }
            (&message[key], format!("{prefix}{key}"))
        }
        Some(other) => {
            return not_format(format!(
                "expected a message or its content blocks, found {}",
                type_name(other)
            ))
        }
        None => return not_format("expected a message, found no data".into()),
    };
    let mut sources: Vec<DraftSource> = Vec::new();
    // What each source is one per: its normalized url, file id or title.
    let mut identities: Vec<String> = Vec::new();
    let mut other_blocks = Vec::new();
    let mut diags: Vec<Diagnostic> = Vec::new();
    match blocks {
        Value::String(s) => draft.text.push_str(s),
        Value::Array(items) => {
            let mut after_other = false;
            for (i, block) in items.iter().enumerate() {
                let p = if path.is_empty() {
                    format!("[{i}]")
                } else {
                    format!("{path}[{i}]")
                };
                let text = match (block.get("type").and_then(Value::as_str), block) {
                    (Some("text"), _) => block.get("text").and_then(Value::as_str),
                    (_, Value::String(s)) => Some(s.as_str()),
                    _ => None,
                };
                let Some(text) = text else {
                    other_blocks.push(block.clone());
                    after_other = true;
                    continue;
                };
                if after_other && !draft.text.is_empty() && !draft.text.ends_with("\n\n") {
                    draft.text.push_str("\n\n");
                }
                after_other = false;
                let base = draft.text.len();
                draft.text.push_str(text);
                let ix = OffsetIndex::new(text, encoding);
                for (j, a) in block
                    .get("annotations")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    let ap = format!("{p}.annotations[{j}]");
                    let kind = a.get("type").and_then(Value::as_str);
                    if !matches!(kind, Some("citation" | "url_citation")) {
                        diags.push(
                            Diagnostic::info(
                                "unsupported-item",
                                format!(
                                    "`{ap}` is a `{}` annotation, which cites nothing",
                                    kind.unwrap_or("?")
                                ),
                            )
                            .at_path(&ap),
                        );
                        continue;
                    }
                    let Some(index) = source_of(a, &ap, &mut sources, &mut identities, &mut diags)
                    else {
                        continue;
                    };
                    let field = |names: [&str; 2]| names.iter().find_map(|n| a.get(*n));
                    let start = field(["startIndex", "start_index"]).and_then(Value::as_u64);
                    let end = field(["endIndex", "end_index"]).and_then(Value::as_u64);
                    let in_document = matches!(
                        a.get("source").and_then(Value::as_str),
                        Some("char" | "page" | "block" | "url" | "search")
                    );
                    let (s, e) = match (start, end) {
                        (Some(s), e) if !in_document => {
                            match support::byte_span(
                                &ix,
                                encoding,
                                s,
                                e.unwrap_or(s),
                                &ap,
                                &mut diags,
                            ) {
                                Some(span) => span,
                                None => continue,
                            }
                        }
                        _ => (0, text.len()),
                    };
                    let mut span =
                        DraftSpan::new(base + s, base + e, vec![SourceRef::Index(index)]);
                    span.cited_text = field(["citedText", "cited_text"])
                        .and_then(Value::as_str)
                        .map(str::to_string);
                    support::push_span(&mut draft, span);
                }
            }
        }
        other => {
            return Err(ParseError::not_format(
                Format::Langchain,
                &path,
                format!("expected content blocks, found {}", type_name(other)),
            ))
        }
    }
    if !other_blocks.is_empty() {
        draft
            .metadata
            .insert("other_blocks".into(), Value::Array(other_blocks));
    }
    draft.sources = sources;
    draft.diagnostics.extend(diags);
    if let Some(a) = answer {
        support::use_caller_text(&mut draft, a);
    }
    support::cap_sources(&mut draft);
    support::cap_spans(&mut draft);
    Ok(draft)
}

/// The source a citation names: the one with its url (else title, else file id), or a
/// new one.
fn source_of(
    a: &Value,
    path: &str,
    sources: &mut Vec<DraftSource>,
    identities: &mut Vec<String>,
    diags: &mut Vec<Diagnostic>,
) -> Option<usize> {
    let url = a.get("url").and_then(Value::as_str);
    let title = a
        .get("title")
        .and_then(Value::as_str)
        .and_then(support::title);
    let file = ["fileId", "file_id"]
        .iter()
        .find_map(|k| a.get(*k).and_then(Value::as_str));
    let key = match (url, &title, file) {
        (Some(u), _, _) => format!("url:{}", normalize_url(u)),
        (None, _, Some(f)) => format!("file:{f}"),
        (None, Some(t), None) => format!("title:{t}"),
        (None, None, None) => {
            diags.push(support::missing(&format!("{path}.url")));
            return None;
        }
    };
    if let Some(i) = identities.iter().position(|k| *k == key) {
        return Some(i);
    }
    identities.push(key);
    let mut src = Source {
        id: format!("src-{}", sources.len() + 1),
        title,
        provider: Some("langchain".into()),
        ..Source::default()
    };
    if let Some(u) = url {
        support::apply_url(&mut src, u, &format!("{path}.url"), diags);
    }
    if let Some(q) = ["citedText", "cited_text"]
        .iter()
        .find_map(|k| a.get(*k).and_then(Value::as_str))
    {
        support::set_text(&mut src, q);
    }
    let mut meta = Map::new();
    if let Some(o) = a.as_object() {
        for (k, v) in o {
            if !matches!(
                k.as_str(),
                "type"
                    | "url"
                    | "title"
                    | "citedText"
                    | "cited_text"
                    | "startIndex"
                    | "start_index"
                    | "endIndex"
                    | "end_index"
            ) {
                meta.insert(k.clone(), v.clone());
            }
        }
    }
    src.metadata = meta;
    support::finish_source(&mut src, "document");
    sources.push(DraftSource {
        source: src,
        keys: Vec::new(),
        given_number: None,
    });
    Some(sources.len() - 1)
}

/// Applies one serialized `AIMessageChunk` (`toJSON()`'s `{lc, kwargs}`, or the fields
/// themselves) to the message the stream makes, concatenating as `@langchain/core`'s
/// `concat` does: string contents are joined; content blocks with the same `index` are
/// merged (their strings joined, their arrays, such as `annotations`, appended), others
/// added; the message's other fields keep their first value. The text appended at the
/// end of the answer, when that is all the chunk did.
pub(crate) fn apply_event(response: &mut Value, event: &Map<String, Value>) -> Option<String> {
    let Value::Object(message) = response else {
        return None;
    };
    let fields = match event.get("kwargs") {
        Some(Value::Object(k)) if event.contains_key("lc") => k,
        _ => event,
    };
    for (k, v) in fields {
        if !matches!(k.as_str(), "content" | "type") && !v.is_null() {
            message.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    let chunk = fields.get("content")?;
    let content = message
        .entry("content")
        .or_insert_with(|| Value::String(String::new()));
    match (content, chunk) {
        (Value::String(text), Value::String(more)) => {
            text.push_str(more);
            Some(more.clone())
        }
        (Value::Array(blocks), Value::Array(more)) => {
            let fast = match more.as_slice() {
                [one] => appends_text(blocks, one),
                _ => None,
            };
            merge_lists(blocks, more);
            fast
        }
        (content, Value::Array(more)) => {
            let mut blocks = match content {
                Value::String(t) if !t.is_empty() => vec![text_block(t)],
                _ => Vec::new(),
            };
            merge_lists(&mut blocks, more);
            *content = Value::Array(blocks);
            None
        }
        (Value::Array(blocks), Value::String(more)) => {
            if !more.is_empty() {
                blocks.push(text_block(more));
            }
            None
        }
        _ => None,
    }
}

/// The text `block` adds at the end of the answer when merged into `blocks`: it only
/// carries text, for the last block, a text block.
fn appends_text(blocks: &[Value], block: &Value) -> Option<String> {
    let o = block.as_object()?;
    let last = blocks.last()?;
    let only_text = o
        .keys()
        .all(|k| matches!(k.as_str(), "type" | "text" | "index"));
    (only_text
        && o.get("index").is_some()
        && last.get("index") == o.get("index")
        && last.get("type").and_then(Value::as_str) == Some("text"))
    .then(|| o.get("text").and_then(Value::as_str).map(str::to_string))
    .flatten()
}

fn text_block(text: &str) -> Value {
    let mut b = Map::new();
    b.insert("type".into(), Value::from("text"));
    b.insert("text".into(), Value::from(text));
    Value::Object(b)
}

/// `@langchain/core`'s list merge: an item with an `index` merges into the item of the
/// same index, any other is added.
fn merge_lists(left: &mut Vec<Value>, right: &[Value]) {
    for item in right {
        let at = item.get("index").and_then(|i| {
            left.iter()
                .position(|l| l.get("index") == Some(i) && l.is_object())
        });
        match (at, item) {
            (Some(at), Value::Object(more)) => {
                if let Value::Object(into) = &mut left[at] {
                    merge_dicts(into, more);
                }
            }
            _ => left.push(item.clone()),
        }
    }
}

/// `@langchain/core`'s dict merge: strings joined (not `type`), arrays merged as lists,
/// objects merged, anything else kept from the left when set there.
fn merge_dicts(left: &mut Map<String, Value>, right: &Map<String, Value>) {
    for (k, v) in right {
        match (left.get_mut(k), v) {
            (None | Some(Value::Null), _) => {
                left.insert(k.clone(), v.clone());
            }
            (Some(Value::String(l)), Value::String(r)) if k != "type" => l.push_str(r),
            (Some(Value::Array(l)), Value::Array(r)) => merge_lists(l, r),
            (Some(Value::Object(l)), Value::Object(r)) => merge_dicts(l, r),
            _ => {}
        }
    }
}
