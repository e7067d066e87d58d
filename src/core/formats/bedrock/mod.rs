//! The AWS Bedrock formats: `bedrock` and `bedrock-kb`.
//!
//! **`bedrock`**: a Converse response (Bedrock Runtime API reference,
//! "Converse", `output.message.content`), as `@aws-sdk/client-bedrock-runtime` hands
//! it back, or its `message`, or its `content` array; also its ConverseStream events
//! (forwarded as `data:` lines of JSON).
//! - The text is every `text` block's text and every `citationsContent` block's
//!   claim (`content[].text`), in order; after a block that is neither (`toolUse`,
//!   `reasoningContent`, ...) the next text starts a new paragraph, as in `anthropic`.
//! - A `citationsContent` block is one explicit span over its claim text, naming the
//!   source of each of its `citations[]` (`{title, source, sourceContent: [{text}],
//!   location}`): by its location, `documentChar`, `documentPage`, `documentChunk`
//!   (the request's document `documentIndex`: id `doc-<n>`, kind `document`, titled
//!   by the citation's `title`), `searchResultLocation` (search result
//!   `searchResultIndex`, its `source` a url or a name), `web` (the page at `url`).
//!   A citation whose location citekit does not know is kept as a source named by
//!   its `title` (or `source`), with an `unsupported-item` info. `sourceContent` is
//!   the citation's quote (`citedText`) and the source's snippet.
//! - The stream: `messageStart`, `contentBlockStart`, `contentBlockDelta`
//!   (`delta.text`, `delta.citation`, `delta.toolUse`, `delta.reasoningContent`),
//!   `contentBlockStop`, `messageStop`, `metadata`, rebuilt into the response: a
//!   block that received a citation is a `citationsContent` block whose claim is the
//!   block's text.
//!
//! **`bedrock-kb`**: a Knowledge Bases `RetrieveAndGenerate` response (Agents for
//! Amazon Bedrock Runtime API reference, "RetrieveAndGenerate"), as
//! `@aws-sdk/client-bedrock-agent-runtime` hands it back; also its
//! RetrieveAndGenerateStream events (`output`, `citation`, `guardrail`).
//! - The text is `output.text`. Each of `citations[]` is an explicit span,
//!   `generatedResponsePart.textResponsePart.span` (`start`, `end`) over the text,
//!   checked against `textResponsePart.text` (the text it covers): the API reference
//!   gives neither the unit nor whether `end` is inclusive, so both are read from
//!   that text (`quoted_span`; UTF-16 code units first, an inclusive `end` is found
//!   so).
//! - Its `retrievedReferences[]` are its sources: one per document location (an
//!   `s3Location.uri`, a `webLocation.url`, a `confluenceLocation` /
//!   `salesforceLocation` / `sharePointLocation` url, a `kendraDocumentLocation.uri`,
//!   a `customDocumentLocation.id`), kind from the location's `type` (`s3`, `web`,
//!   ...), titled by the file name or the url; `content.text` (the retrieved chunk)
//!   is the citation's quote and the source's snippet; `metadata` stays in the
//!   source's metadata (its `x-amz-bedrock-kb-document-page-number` is the page). A
//!   reference with no location citekit can name (an `sqlLocation`, an unknown
//!   type) is kept as a source of its own, with an `unsupported-item` info.

use crate::core::draft::{Draft, DraftSource, DraftSpan, SourceRef};
use crate::core::error::ParseError;
use crate::core::formats::quoted_span::quoted_span;
use crate::core::formats::support::{self, classify_link, Link};
use crate::core::json_fields::{as_uint, type_name, wrong_type};
use crate::core::markers::TextSyntax;
use crate::core::model::{Diagnostic, DocumentUnit, Format, Location, Source};
use crate::core::offsets::PositionEncoding;
use crate::core::options::Options;
use crate::core::ordered_hash::OrderedHashMap;
use crate::core::untrusted_text::{excerpt200, normalize_url};
use serde_json::{Map, Value};

mod stream;

pub(crate) use stream::{apply_converse_event, apply_kb_event, MAX_INDEX_GAP};

/// The sources of one answer, one per key (a document index, a url, a location).
struct Sources {
    list: Vec<DraftSource>,
    by_key: OrderedHashMap<String, usize>,
}

impl Sources {
    fn new() -> Self {
        Sources {
            list: Vec::new(),
            by_key: OrderedHashMap::new(),
        }
    }

    /// The source with `key`, made by `make` on first sight.
    fn get(&mut self, key: String, make: impl FnOnce() -> Source) -> usize {
        if let Some(&i) = self.by_key.get(&key) {
            return i;
        }
        let mut src = make();
        src.id = key.clone();
        if src.provider.is_none() {
            src.provider = Some("bedrock".into());
        }
        let i = self.list.len();
        self.list.push(support::numbered(src, None));
        self.by_key.insert(key, i);
        i
    }

    /// Sets the snippet of source `i` from `quote` when it has none.
    fn quote(&mut self, i: usize, quote: &str) {
        let src = &mut self.list[i].source;
        if src.snippet.is_none() && !quote.trim().is_empty() {
            support::set_text(src, quote);
        }
    }
}

/// The text of `v` at `key`, if a string.
fn str_at<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// A `not-format` error of `format`.
fn not_format(format: Format, msg: String) -> Result<Draft, ParseError> {
    Err(ParseError::not_format(format, "$", msg))
}

/// Parses `bedrock` data into a draft.
pub fn parse_converse(
    answer: Option<&str>,
    data: Option<&Value>,
    options: &Options,
) -> Result<Draft, ParseError> {
    let _ = options;
    let format = Format::BedrockConverse;
    let mut meta = Map::new();
    let (blocks, prefix): (&Vec<Value>, String) = match data {
        Some(Value::Array(a)) => (a, "content".into()),
        Some(Value::Object(o)) => {
            let (message, mprefix) = match o.get("output").and_then(|x| x.get("message")) {
                Some(m) => {
                    for (k, v) in o {
                        if k != "output" {
                            meta.insert(k.clone(), v.clone());
                        }
                    }
                    (m, "output.message.")
                }
                None => (data.unwrap_or(&Value::Null), ""),
            };
            match message.get("content") {
                Some(Value::Array(a)) => {
                    if let Value::Object(m) = message {
                        for (k, v) in m {
                            if k != "content" {
                                meta.insert(k.clone(), v.clone());
                            }
                        }
                    }
                    (a, format!("{mprefix}content"))
                }
                Some(other) => {
                    return not_format(
                        format,
                        format!(
                            "expected `{mprefix}content` to be an array of blocks, found {}",
                            type_name(other)
                        ),
                    )
                }
                None => {
                    return not_format(
                        format,
                        "expected a Converse response with `output.message.content`".into(),
                    )
                }
            }
        }
        other => {
            return not_format(
                format,
                format!(
                    "expected a Converse response, found {}",
                    other.map_or("no data", type_name)
                ),
            )
        }
    };
    let mut draft = Draft::new(format, "");
    draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
    let mut sources = Sources::new();
    let mut gap = false;
    let mut other = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        let path = format!("{prefix}[{i}]");
        let Value::Object(b) = block else {
            draft
                .diagnostics
                .push(wrong_type(&path, "a content block", block));
            continue;
        };
        let (claim, citations) = if let Some(t) = b.get("text").and_then(Value::as_str) {
            (t.to_string(), None)
        } else if let Some(cc) = b.get("citationsContent") {
            let claim: String = cc
                .get("content")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|c| str_at(c, "text"))
                .collect();
            (claim, cc.get("citations"))
        } else {
            other.push(block.clone());
            gap = true;
            continue;
        };
        if std::mem::take(&mut gap)
            && !draft.text.is_empty()
            && !draft.text.ends_with(char::is_whitespace)
            && !claim.starts_with(char::is_whitespace)
        {
            draft.text.push_str("\n\n");
        }
        let start = draft.text.len();
        draft.text.push_str(&claim);
        let end = draft.text.len();
        let Some(citations) = citations else {
            continue;
        };
        let cpath = format!("{path}.citationsContent.citations");
        let Value::Array(cs) = citations else {
            draft
                .diagnostics
                .push(wrong_type(&cpath, "an array", citations));
            continue;
        };
        let mut refs = Vec::new();
        let mut quotes: Vec<String> = Vec::new();
        let mut location = None;
        for (j, c) in cs.iter().enumerate() {
            let p = format!("{cpath}[{j}]");
            let Some((idx, quote, loc)) =
                converse_citation(c, &p, &mut sources, &mut draft.diagnostics)
            else {
                continue;
            };
            if !refs.contains(&SourceRef::Index(idx)) {
                refs.push(SourceRef::Index(idx));
            }
            if let Some(q) = quote {
                sources.quote(idx, &q);
                if !quotes.contains(&q) {
                    quotes.push(q);
                }
            }
            if location.is_none() {
                location = loc;
            }
        }
        let mut span = DraftSpan::new(start, end, refs);
        if !quotes.is_empty() {
            span.cited_text = Some(excerpt200(&quotes.join(" … ")));
        }
        span.location = location;
        support::push_span(&mut draft, span);
    }
    if !other.is_empty() {
        meta.insert("other_blocks".into(), Value::Array(other));
    }
    draft.metadata = meta;
    draft.sources = sources.list;
    if let Some(a) = answer {
        support::use_caller_text(&mut draft, a);
    }
    support::cap_sources(&mut draft);
    support::cap_spans(&mut draft);
    Ok(draft)
}

/// One Converse citation: its source, its quote, its location.
fn converse_citation(
    c: &Value,
    path: &str,
    sources: &mut Sources,
    diags: &mut Vec<Diagnostic>,
) -> Option<(usize, Option<String>, Option<Location>)> {
    let Value::Object(o) = c else {
        diags.push(wrong_type(path, "a citation", c));
        return None;
    };
    let title = str_at(c, "title").and_then(support::title);
    let named = str_at(c, "source").map(str::trim).filter(|s| !s.is_empty());
    let quote: String = o
        .get("sourceContent")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|x| str_at(x, "text"))
        .collect::<Vec<_>>()
        .join(" … ");
    let quote = Some(quote).filter(|q| !q.trim().is_empty());
    let loc = o.get("location").and_then(Value::as_object);
    let range = |v: &Value| {
        (
            v.get("documentIndex").and_then(as_uint),
            v.get("start").and_then(as_uint),
            v.get("end").and_then(as_uint),
        )
    };
    let kind = loc.and_then(|l| l.keys().find(|k| !k.starts_with('$')).cloned());
    let body = kind
        .as_deref()
        .and_then(|k| loc.and_then(|l| l.get(k)))
        .unwrap_or(&Value::Null);
    let titled = |kind: &str| {
        let title = title.clone();
        let kind = kind.to_string();
        move || Source {
            kind,
            title,
            ..Source::default()
        }
    };
    let (idx, location) = match kind.as_deref() {
        Some(k @ ("documentChar" | "documentPage" | "documentChunk")) => {
            let (doc, s, e) = range(body);
            let doc = doc.unwrap_or(0);
            let idx = sources.get(format!("doc-{doc}"), titled("document"));
            if sources.list[idx].source.title.is_none() {
                sources.list[idx].source.title = title.clone();
            }
            let unit = match k {
                "documentChar" => DocumentUnit::Char,
                "documentPage" => DocumentUnit::Page,
                _ => DocumentUnit::Block,
            };
            let location = s
                .zip(e)
                .map(|(start, end)| Location::in_document(unit, start, end, Some(doc)));
            if let (Some(Location::PageLocation { start, .. }), None) =
                (&location, sources.list[idx].source.page)
            {
                sources.list[idx].source.page = Some(*start);
            }
            (idx, location)
        }
        Some("searchResultLocation") => {
            let n = body.get("searchResultIndex").and_then(as_uint);
            let idx = match named.map(|s| (s, classify_link(s))) {
                Some((_, Link::Url(u))) => web(sources, &u, title.clone()),
                Some((s, _)) => sources.get(format!("search-{s}"), titled("search_result")),
                None => sources.get(
                    format!("search-{}", n.unwrap_or(0)),
                    titled("search_result"),
                ),
            };
            let (_, s, e) = range(body);
            let location = match (s, e) {
                (Some(start), Some(end)) => Some(Location::ContentBlockLocation {
                    start,
                    end,
                    document_index: None,
                }),
                _ => None,
            };
            (idx, location)
        }
        Some("web") => {
            let Some(url) = str_at(body, "url") else {
                diags.push(support::missing(&format!("{path}.location.web.url")));
                return None;
            };
            match classify_link(url) {
                Link::Url(u) => (
                    web(sources, &u, title.clone()),
                    Some(Location::UrlCitation {
                        start: None,
                        end: None,
                    }),
                ),
                Link::Unsafe(scheme) => {
                    diags.push(support::unsafe_url(
                        &format!("{path}.location.web.url"),
                        &scheme,
                    ));
                    (
                        sources.get(format!("web-{}", url.trim()), titled("web")),
                        None,
                    )
                }
                _ => {
                    diags.push(support::missing(&format!("{path}.location.web.url")));
                    return None;
                }
            }
        }
        other => {
            let Some(name) = title.clone().or_else(|| named.map(str::to_string)) else {
                diags.push(
                    Diagnostic::warning(
                        "missing-field",
                        format!("`{path}` has no location citekit knows and no title; skipped"),
                    )
                    .at_path(path),
                );
                return None;
            };
            diags.push(
                Diagnostic::info(
                    "unsupported-item",
                    format!(
                        "`{path}` has a {} location, which citekit does not read; its source is kept by its title",
                        other.map_or("missing".to_string(), |k| format!("`{k}`"))
                    ),
                )
                .at_path(path),
            );
            let idx = sources.get(format!("cited-{name}"), titled("document"));
            if let Some(l) = o.get("location") {
                sources.list[idx]
                    .source
                    .metadata
                    .entry("location".to_string())
                    .or_insert_with(|| l.clone());
            }
            (idx, None)
        }
    };
    if let (Some(s), None) = (named, sources.list[idx].source.url.as_ref()) {
        sources.list[idx]
            .source
            .metadata
            .entry("source".to_string())
            .or_insert_with(|| Value::String(s.to_string()));
    }
    Some((idx, quote, location))
}

/// The web source at `url` (one per normalized url).
fn web(sources: &mut Sources, url: &str, title: Option<String>) -> usize {
    let i = sources.get(normalize_url(url), || Source {
        kind: "web".into(),
        url: Some(url.to_string()),
        title: title.clone(),
        ..Source::default()
    });
    let src = &mut sources.list[i].source;
    if src.title.is_none() {
        src.title = title;
    }
    if src.domain.is_none() {
        support::finish_source(src, "web");
    }
    i
}

/// Parses `bedrock-kb` data into a draft.
pub fn parse_kb(
    answer: Option<&str>,
    data: Option<&Value>,
    options: &Options,
) -> Result<Draft, ParseError> {
    let format = Format::BedrockKb;
    let Some(Value::Object(o)) = data else {
        return not_format(
            format,
            format!(
                "expected a RetrieveAndGenerate response, found {}",
                data.map_or("no data", type_name)
            ),
        );
    };
    let mut draft = Draft::new(format, "");
    draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
    match o.get("output") {
        Some(out) => match str_at(out, "text") {
            Some(t) => draft.text.push_str(t),
            None => draft.diagnostics.push(support::missing("output.text")),
        },
        None if o.contains_key("citations") => {}
        None => {
            return not_format(
                format,
                "expected a response with `output.text` and `citations`".into(),
            )
        }
    }
    for (k, v) in o {
        if k != "output" && k != "citations" {
            draft.metadata.insert(k.clone(), v.clone());
        }
    }
    let mut sources = Sources::new();
    match o.get("citations") {
        Some(Value::Array(cs)) => {
            for (i, c) in cs.iter().enumerate() {
                kb_citation(
                    c,
                    &format!("citations[{i}]"),
                    options,
                    &mut draft,
                    &mut sources,
                );
            }
        }
        None | Some(Value::Null) => {}
        Some(other) => draft
            .diagnostics
            .push(wrong_type("citations", "an array", other)),
    }
    draft.sources = sources.list;
    if let Some(a) = answer {
        support::use_caller_text(&mut draft, a);
    }
    support::cap_sources(&mut draft);
    support::cap_spans(&mut draft);
    Ok(draft)
}

/// One Knowledge Bases citation: its span and its references.
fn kb_citation(c: &Value, path: &str, options: &Options, draft: &mut Draft, sources: &mut Sources) {
    if !c.is_object() {
        draft.diagnostics.push(wrong_type(path, "a citation", c));
        return;
    }
    let mut refs = Vec::new();
    let mut quotes: Vec<String> = Vec::new();
    let list = c.get("retrievedReferences").and_then(Value::as_array);
    for (j, r) in list.into_iter().flatten().enumerate() {
        let p = format!("{path}.retrievedReferences[{j}]");
        let Some((idx, quote)) = kb_reference(r, &p, sources, &mut draft.diagnostics) else {
            continue;
        };
        if !refs.contains(&SourceRef::Index(idx)) {
            refs.push(SourceRef::Index(idx));
        }
        if let Some(q) = quote.filter(|q| !quotes.contains(q)) {
            quotes.push(q);
        }
    }
    if refs.is_empty() {
        return;
    }
    let part = c
        .get("generatedResponsePart")
        .and_then(|g| g.get("textResponsePart"));
    let span = part.and_then(|p| p.get("span"));
    let quote = part.and_then(|p| str_at(p, "text"));
    let (start, end) = (
        span.and_then(|s| s.get("start")).and_then(as_uint),
        span.and_then(|s| s.get("end")).and_then(as_uint),
    );
    let spath = format!("{path}.generatedResponsePart.textResponsePart.span");
    let (Some(start), Some(end)) = (start, end) else {
        draft.diagnostics.push(
            Diagnostic::warning(
                "span-not-placed",
                format!("`{spath}` is missing; the citation's sources are kept"),
            )
            .at_path(&spath),
        );
        return;
    };
    let Some((s, e)) = quoted_span(
        &draft.text,
        (start, end),
        quote,
        PositionEncoding::Utf16,
        options.input_encoding,
        &spath,
        &mut draft.diagnostics,
    ) else {
        return;
    };
    let mut span = DraftSpan::new(s, e, refs);
    if !quotes.is_empty() {
        span.cited_text = Some(excerpt200(&quotes.join(" … ")));
    }
    support::push_span(draft, span);
}

/// The location fields that name a document, by location `type`.
const KB_LOCATIONS: [(&str, &str, &str); 7] = [
    ("s3Location", "uri", "s3"),
    ("webLocation", "url", "web"),
    ("confluenceLocation", "url", "confluence"),
    ("salesforceLocation", "url", "salesforce"),
    ("sharePointLocation", "url", "sharepoint"),
    ("kendraDocumentLocation", "uri", "kendra"),
    ("customDocumentLocation", "id", "custom"),
];

/// One retrieved reference: its source and the chunk it retrieved.
fn kb_reference(
    r: &Value,
    path: &str,
    sources: &mut Sources,
    diags: &mut Vec<Diagnostic>,
) -> Option<(usize, Option<String>)> {
    let Value::Object(o) = r else {
        diags.push(wrong_type(path, "a retrieved reference", r));
        return None;
    };
    let chunk = o
        .get("content")
        .and_then(|c| str_at(c, "text"))
        .map(str::to_string)
        .filter(|t| !t.trim().is_empty());
    let loc = o.get("location");
    let found = KB_LOCATIONS.iter().find_map(|(key, field, kind)| {
        loc.and_then(|l| l.get(*key))
            .and_then(|x| str_at(x, field))
            .map(|v| (*key, *field, *kind, v.trim()))
    });
    let meta = o.get("metadata").and_then(Value::as_object);
    let page = meta
        .and_then(|m| m.get("x-amz-bedrock-kb-document-page-number"))
        .and_then(|p| as_uint(p).or_else(|| p.as_f64().map(|f| f as u64)));
    let idx = match found {
        Some((key, field, kind, value)) => match classify_link(value) {
            Link::Url(u) => {
                let i = web(sources, &u, None);
                if kind != "web" {
                    sources.list[i].source.kind = kind.to_string();
                }
                i
            }
            Link::Unsafe(scheme) if scheme != "s3" => {
                diags.push(support::unsafe_url(
                    &format!("{path}.location.{key}.{field}"),
                    &scheme,
                ));
                sources.get(format!("{kind}-{value}"), || Source {
                    kind: kind.to_string(),
                    ..Source::default()
                })
            }
            _ => sources.get(value.to_string(), || {
                let mut src = Source {
                    kind: kind.to_string(),
                    title: support::title(support::file_name(value)),
                    ..Source::default()
                };
                src.metadata
                    .insert(field.to_string(), Value::String(value.to_string()));
                src
            }),
        },
        None => {
            let ty = loc
                .and_then(|l| str_at(l, "type"))
                .unwrap_or("missing")
                .to_string();
            diags.push(
                Diagnostic::info(
                    "unsupported-item",
                    format!("`{path}.location` is of type `{ty}`, which names no document citekit can link; kept as a source of its own"),
                )
                .at_path(path),
            );
            let n = sources.list.len();
            sources.get(format!("reference-{n}"), || Source {
                kind: ty.to_ascii_lowercase(),
                title: Some(format!("{ty} reference")),
                ..Source::default()
            })
        }
    };
    let src = &mut sources.list[idx].source;
    if let Some(m) = meta {
        for (k, v) in m {
            src.metadata.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    if let (Some(l), None) = (loc, found) {
        src.metadata
            .entry("location".to_string())
            .or_insert_with(|| l.clone());
    }
    if src.page.is_none() {
        src.page = page;
    }
    if let Some(q) = &chunk {
        sources.quote(idx, q);
    }
    Some((idx, chunk))
}
