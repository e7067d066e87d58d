//! The `azure` format: Azure OpenAI "On Your Data" (chat completions with
//! `data_sources`, API versions 2024-02-15-preview and later): a chat completion
//! `{id, model, choices: [{message: {role, content, context: {citations: [{content,
//! title, url, filepath, chunk_id, ...}], intent, all_retrieved_documents}}}], ...}`.
//!
//! - `data` is the completion, one choice's `message` (or a streamed chunk's `delta`),
//!   or the message alone. The text is `answer` when given, else the message's
//!   `content`.
//! - `[doc1]`, `[doc2]` markers in the text (markers.md, `Grammar::doc`) name
//!   `context.citations[n-1]`: source id `doc<n>`, key `Num(n)`, given number n. The
//!   other marker forms are read too.
//! - A citation's `content` is its snippet (the whole text kept as content), `title`
//!   its title, `url` its link. `filepath` is kept in the metadata; a citation without
//!   a url shows it in place of a domain (and as its title when it has none), kind
//!   `file`. `chunk_id` and the other fields (`rerank_score`, ...) stay in its
//!   metadata.
//! - `intent`, `all_retrieved_documents` and the completion's other fields (`id`,
//!   `model`, `usage`, other choices) are kept in the answer's metadata.

use crate::core::draft::Draft;
use crate::core::error::ParseError;
use crate::core::formats::support::{self, SourceReader};
use crate::core::json_fields::{type_name, wrong_type};
use crate::core::markers::{Grammar, TextSyntax};
use crate::core::model::{Diagnostic, Format};
use crate::core::options::Options;
use serde_json::{Map, Value};

/// Parses `azure` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    _options: &Options,
) -> Result<Draft, ParseError> {
    let not_format = |msg: String| Err(ParseError::not_format(Format::Azure, "$", msg));
    let o = match data {
        Some(Value::Object(o)) => o,
        Some(other) => {
            return not_format(format!(
                "expected a chat completion or message object, found {}",
                type_name(other)
            ))
        }
        None => return not_format("expected a chat completion, found no data".into()),
    };
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut meta = Map::new();
    // The message, its path, and the completion's other fields.
    let (message, path): (&Map<String, Value>, String) = match o.get("choices") {
        Some(Value::Array(choices)) => {
            let first = choices.first().and_then(Value::as_object);
            let (key, msg) = match first {
                Some(c) => match (c.get("message"), c.get("delta")) {
                    (Some(Value::Object(m)), _) => ("message", m),
                    (_, Some(Value::Object(m))) => ("delta", m),
                    _ => return not_format("`choices[0]` has no `message`".into()),
                },
                None => return not_format("`choices` holds no choice".into()),
            };
            for (k, v) in o {
                if k != "choices" {
                    meta.insert(k.clone(), v.clone());
                }
            }
            if choices.len() > 1 {
                meta.insert("other_choices".into(), Value::Array(choices[1..].to_vec()));
            }
            if let Some(c) = first {
                for (k, v) in c {
                    if k != key {
                        meta.insert(k.clone(), v.clone());
                    }
                }
            }
            (msg, format!("choices[0].{key}"))
        }
        _ => (o, String::new()),
    };
    let at = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    let text = match (answer, message.get("content")) {
        (Some(a), _) => a.to_string(),
        (None, Some(Value::String(s))) => s.clone(),
        (None, None | Some(Value::Null)) => String::new(),
        (None, Some(other)) => {
            diags.push(wrong_type(&at("content"), "a string", other));
            String::new()
        }
    };
    let mut draft = Draft::new(Format::Azure, text);
    draft.grammar = Some(Grammar {
        doc: true,
        ..support::every_marker(TextSyntax::Markdown)
    });
    for (k, v) in message {
        if !matches!(k.as_str(), "content" | "context") {
            meta.insert(k.clone(), v.clone());
        }
    }
    match message.get("context") {
        Some(Value::Object(context)) => {
            for (k, v) in context {
                if k == "citations" {
                    continue;
                }
                meta.insert(k.clone(), v.clone());
            }
            match context.get("citations") {
                Some(Value::Array(citations)) => {
                    for (i, c) in citations.iter().enumerate() {
                        let p = format!("{}.citations[{i}]", at("context"));
                        let Value::Object(c) = c else {
                            diags.push(wrong_type(&p, "a citation object", c));
                            continue;
                        };
                        let n = i as u64 + 1;
                        let mut src = read_citation(c, &p, &mut diags);
                        src.id = format!("doc{n}");
                        draft.sources.push(support::numbered(src, Some(n)));
                    }
                }
                Some(Value::Null) | None => {}
                Some(other) => diags.push(wrong_type(&at("context.citations"), "an array", other)),
            }
        }
        Some(Value::Null) | None => {}
        Some(other) => diags.push(wrong_type(&at("context"), "an object", other)),
    }
    draft.diagnostics = diags;
    draft.metadata = meta;
    support::cap_sources(&mut draft);
    Ok(draft)
}

/// One `context.citations[i]` entry.
fn read_citation(
    c: &Map<String, Value>,
    path: &str,
    diags: &mut Vec<Diagnostic>,
) -> crate::core::model::Source {
    let mut r = SourceReader::new(c, path);
    let mut filepath = None;
    if let Some(t) = r.fields.string("title", diags) {
        r.src.title = support::title(&t);
    }
    if let Some(u) = r.fields.string("url", diags) {
        r.link("url", &u, diags);
    }
    if let Some(t) = r.fields.string("content", diags) {
        support::set_text(&mut r.src, &t);
    }
    if let Some(f) = r.fields.string("filepath", diags) {
        filepath = support::title(&f);
        if let Some(f) = &filepath {
            r.keep("filepath", Value::String(f.clone()));
        }
    }
    let mut src = r.finish("document");
    if src.url.is_none() {
        if let Some(f) = filepath {
            if src.title.is_none() {
                src.title = support::title(support::file_name(&f));
            }
            src.domain = Some(f);
            src.kind = "file".into();
        }
    }
    src.provider = Some("azure".into());
    src
}
