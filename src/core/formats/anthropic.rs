//! The `anthropic` format: a Messages API response `{id, type: "message", role,
//! content: [...], model, stop_reason, usage}`, or just its `content` array.
//!
//! The text is `answer` when the caller gives one (each cited block is then found in
//! it by its text; see `support::use_caller_text`), else every `text` block's `text`,
//! concatenated in order; other blocks
//! (`tool_use`, `server_tool_use`, `thinking`, ...) are not text, and text after one of
//! them starts a new paragraph (`\n\n` is put between when neither side has
//! whitespace: `I'll search.` + tool use + `Based on...`). A text block with
//! `citations` becomes one explicit span over that block, naming one source per cited
//! document:
//! - `char_location`, `page_location`, `content_block_location`: the document at
//!   `document_index` (id `doc-<index>`, kind `document`, title `document_title`,
//!   given number index + 1), one source however often it is cited;
//! - `web_search_result_location`: the page at `url` (id = the normalized url, kind
//!   `web`), merged with the `web_search_tool_result` entry for the same url, which also
//!   makes every search result a source (cited or not, titles and `page_age` from it);
//!   a url that cannot be linked is reported and the page kept without a link;
//! - `search_result_location`: the search result's `source` (a url or a name).
//!
//! `cited_text` becomes the citation's `citedText` (several joined with ` … `, then
//! cut to 200 characters) and the snippet of a source that has none. The first
//! citation's location becomes the citation's `location`. Fields citekit does not read
//! go to the source's `metadata`; the message's own fields to the answer's.

use super::support::missing;
use crate::core::draft::{Draft, DraftSource, DraftSpan, SourceRef};
use crate::core::error::ParseError;
use crate::core::formats::support::{self, classify_link, Link};
use crate::core::json_fields::{type_name, wrong_type, Fields};
use crate::core::markers::TextSyntax;
use crate::core::model::{Diagnostic, DocumentUnit, Format, Location, Source};
use crate::core::options::Options;
use crate::core::ordered_hash::{OrderedHashMap, OrderedHashSet};
use crate::core::untrusted_text::{domain_of, excerpt200, normalize_url};
use serde_json::{Map, Value};

/// The provider name set on every source.
const PROVIDER: &str = "anthropic";

/// Parses `anthropic` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    options: &Options,
) -> Result<Draft, ParseError> {
    let _ = options;
    let not_format = |msg: String| Err(ParseError::not_format(Format::Anthropic, "$", msg));
    let mut meta = Map::new();
    let (blocks, prefix): (Vec<&Value>, &str) = match data {
        None | Some(Value::Null) => {
            return not_format(
                "expected a Messages API response or its content array, found no data".into(),
            )
        }
        Some(Value::Array(a)) => {
            if !a.is_empty() && !a.iter().any(is_block) {
                return not_format("expected content blocks with a `type`, found none".into());
            }
            (a.iter().collect(), "content")
        }
        Some(whole @ Value::Object(o)) => {
            if let Some(content) = o.get("content") {
                let mut f = Fields::new(o, "");
                f.value("content");
                meta = f.rest();
                match content {
                    Value::Array(a) => (a.iter().collect(), "content"),
                    Value::String(s) => {
                        // A plain string content (as in requests): text, no citations.
                        let mut draft = Draft::new(Format::Anthropic, answer.unwrap_or(s));
                        draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
                        draft.metadata = meta;
                        return Ok(draft);
                    }
                    other => {
                        return not_format(format!(
                            "expected `content` to be an array of blocks, found {}",
                            type_name(other)
                        ))
                    }
                }
            } else if is_block(whole) {
                (vec![whole], "")
            } else {
                return not_format(
                    "expected a message with `content` blocks, or a text block".into(),
                );
            }
        }
        Some(other) => {
            return not_format(format!(
                "expected a message object or a content array, found {}",
                type_name(other)
            ))
        }
    };

    let mut p = Parser::new();
    let path_of = |i: usize| {
        if prefix.is_empty() {
            "$".to_string()
        } else {
            format!("{prefix}[{i}]")
        }
    };
    // Search results first, so citations of their pages merge into them.
    for (i, block) in blocks.iter().enumerate() {
        if block.get("type").and_then(Value::as_str) == Some("web_search_tool_result") {
            p.search_results(block, &path_of(i));
        }
    }
    for (i, block) in blocks.iter().enumerate() {
        p.block(block, &path_of(i));
    }
    let mut draft = p.draft;
    draft.metadata = meta;
    // The blocks that are neither text nor search results (tool calls and their
    // queries, thinking): kept, not thrown away.
    if !p.other.is_empty() {
        draft
            .metadata
            .insert("other_blocks".into(), Value::Array(p.other));
    }
    if let Some(a) = answer {
        support::use_caller_text(&mut draft, a);
    }
    support::cap_sources(&mut draft);
    support::cap_spans(&mut draft);
    Ok(draft)
}

/// Whether a value looks like a content block.
fn is_block(v: &Value) -> bool {
    v.as_object().is_some_and(|o| {
        o.get("type").is_some_and(Value::is_string) || o.get("text").is_some_and(Value::is_string)
    })
}

/// What the blocks read so far make: the text, sources, spans and diagnostics. The
/// streamed reader (`anthropic_stream`) feeds it block by block as the events come.
#[derive(Debug, Clone)]
pub(super) struct Parser {
    /// The text, sources, spans and diagnostics so far.
    pub(super) draft: Draft,
    /// document_index → index into the draft's sources.
    by_doc: OrderedHashMap<u64, usize>,
    /// source id → index into the draft's sources.
    by_id: OrderedHashMap<String, usize>,
    /// A block that is not text came since the last text block.
    pub(super) gap: bool,
    /// Blocks that are neither text nor search results, for the metadata.
    other: Vec<Value>,
}

impl Parser {
    pub(super) fn new() -> Self {
        let mut draft = Draft::new(Format::Anthropic, "");
        draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
        Parser {
            draft,
            by_doc: OrderedHashMap::new(),
            by_id: OrderedHashMap::new(),
            gap: false,
            other: Vec::new(),
        }
    }

    /// A text block starting with `first` follows: after a block that is not text, a
    /// paragraph break goes between when neither side has whitespace.
    pub(super) fn text_block_starts(&mut self, first: &str) {
        if std::mem::take(&mut self.gap)
            && !self.draft.text.is_empty()
            && !self.draft.text.ends_with(char::is_whitespace)
            && !first.starts_with(char::is_whitespace)
        {
            self.draft.text.push_str("\n\n");
        }
    }

    /// The citations of the text block at `start..end` of the text: one explicit span
    /// over the block, naming one source per cited document or page.
    pub(super) fn block_citations(
        &mut self,
        start: usize,
        end: usize,
        citations: &[Value],
        path: &str,
    ) {
        let mut refs: Vec<SourceRef> = Vec::new();
        let mut ref_seen = OrderedHashSet::new();
        let mut cited: Vec<String> = Vec::new();
        let mut cited_seen = OrderedHashSet::new();
        let mut location = None;
        for (j, c) in citations.iter().enumerate() {
            let cpath = format!("{path}.citations[{j}]");
            let Some((idx, cited_text, loc)) = self.citation(c, &cpath) else {
                continue;
            };
            if ref_seen.insert(idx) {
                refs.push(SourceRef::Index(idx));
            }
            if let Some(t) = cited_text {
                if cited_seen.insert(t.clone()) {
                    cited.push(t);
                }
            }
            if location.is_none() {
                location = loc;
            }
        }
        if refs.is_empty() {
            return;
        }
        let mut span = DraftSpan::new(start, end, refs);
        if !cited.is_empty() {
            span.cited_text = Some(excerpt200(&crate::core::str_ops::join(
                &mut cited.iter().map(String::as_str),
                " … ",
            )));
        }
        span.location = location;
        self.draft.spans.push(span);
    }

    fn block(&mut self, block: &Value, path: &str) {
        let Value::Object(o) = block else {
            self.draft
                .diagnostics
                .push(wrong_type(path, "a content block", block));
            return;
        };
        match o.get("type").and_then(Value::as_str) {
            Some("text") => {}
            None if o.get("text").is_some_and(Value::is_string) => {}
            // tool_use, server_tool_use, web_search_tool_result, thinking, ...: not text,
            // but what comes after them starts a new paragraph.
            Some(ty) => {
                if ty != "web_search_tool_result" {
                    self.other.push(block.clone());
                }
                self.gap = true;
                return;
            }
            None => {
                self.other.push(block.clone());
                self.gap = true;
                return;
            }
        }
        let mut f = Fields::new(o, path);
        let text = match f.value("text") {
            Some(Value::String(s)) => s.as_str(),
            Some(other) => {
                self.draft
                    .diagnostics
                    .push(wrong_type(&f.path_of("text"), "a string", other));
                return;
            }
            None => {
                let p = f.path_of("text");
                self.draft.diagnostics.push(
                    Diagnostic::warning(
                        "missing-field",
                        format!("`{p}` is missing; the block is skipped"),
                    )
                    .at_path(p),
                );
                return;
            }
        };
        self.text_block_starts(text);
        let start = self.draft.text.len();
        self.draft.text.push_str(text);
        let end = self.draft.text.len();
        let citations = match f.value("citations") {
            None => return,
            Some(Value::Array(a)) => a,
            Some(other) => {
                self.draft
                    .diagnostics
                    .push(wrong_type(&f.path_of("citations"), "an array", other));
                return;
            }
        };
        self.block_citations(start, end, citations, path);
    }

    /// One citation object: the source it names, its cited text, its location.
    fn citation(
        &mut self,
        c: &Value,
        path: &str,
    ) -> Option<(usize, Option<String>, Option<Location>)> {
        let Value::Object(o) = c else {
            self.draft
                .diagnostics
                .push(wrong_type(path, "a citation object", c));
            return None;
        };
        let mut f = Fields::new(o, path);
        let ty = f.string("type", &mut self.draft.diagnostics);
        let cited_text = f
            .string("cited_text", &mut self.draft.diagnostics)
            .filter(|t| !t.trim().is_empty());
        let (idx, location) = match ty.as_deref() {
            Some(ty @ ("char_location" | "page_location" | "content_block_location")) => {
                let Some(doc) = f.uint("document_index", &mut self.draft.diagnostics) else {
                    if o.get("document_index").is_none_or(Value::is_null) {
                        self.draft
                            .diagnostics
                            .push(missing(&f.path_of("document_index")));
                    }
                    return None;
                };
                let title = f.string("document_title", &mut self.draft.diagnostics);
                let (unit, sk, ek) = match ty {
                    "char_location" => (DocumentUnit::Char, "start_char_index", "end_char_index"),
                    "page_location" => (DocumentUnit::Page, "start_page_number", "end_page_number"),
                    _ => (DocumentUnit::Block, "start_block_index", "end_block_index"),
                };
                let s = f.uint(sk, &mut self.draft.diagnostics);
                let e = f.uint(ek, &mut self.draft.diagnostics);
                let location = s
                    .zip(e)
                    .map(|(start, end)| Location::in_document(unit, start, end, Some(doc)));
                let idx = self.document(doc, title.as_deref());
                // A page citation gives the document its page (the first one cited),
                // which its card and panel entry show.
                if let (Some(Location::PageLocation { start, .. }), None) =
                    (&location, self.draft.sources[idx].source.page)
                {
                    self.draft.sources[idx].source.page = Some(*start);
                }
                (idx, location)
            }
            Some("web_search_result_location") => {
                let title = f.string("title", &mut self.draft.diagnostics);
                let url = f.string("url", &mut self.draft.diagnostics);
                let idx = match url {
                    Some(u) => self.web(&u, title.as_deref(), &f.path_of("url"))?,
                    None => {
                        self.draft.diagnostics.push(missing(&f.path_of("url")));
                        return None;
                    }
                };
                (
                    idx,
                    Some(Location::UrlCitation {
                        start: None,
                        end: None,
                    }),
                )
            }
            Some("search_result_location") => {
                let title = f.string("title", &mut self.draft.diagnostics);
                let source = f.string("source", &mut self.draft.diagnostics);
                let index = f.uint("search_result_index", &mut self.draft.diagnostics);
                let s = f.uint("start_block_index", &mut self.draft.diagnostics);
                let e = f.uint("end_block_index", &mut self.draft.diagnostics);
                let idx = match (&source, index) {
                    (Some(src), _) if matches!(classify_link(src), Link::Url(_)) => {
                        self.web(src, title.as_deref(), &f.path_of("source"))?
                    }
                    (Some(src), _) => self.named(
                        format!("search-{}", src.trim()),
                        "search_result",
                        title.as_deref(),
                        Some(("source", src)),
                    ),
                    (None, Some(n)) => self.named(
                        format!("search-{n}"),
                        "search_result",
                        title.as_deref(),
                        None,
                    ),
                    (None, None) => {
                        self.draft.diagnostics.push(missing(&f.path_of("source")));
                        return None;
                    }
                };
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
            Some(other) => {
                self.draft.diagnostics.push(
                    Diagnostic::info(
                        "unsupported-item",
                        format!("`{path}` is a `{other}` citation, which citekit does not read; skipped"),
                    )
                    .at_path(path),
                );
                return None;
            }
            None => {
                self.draft.diagnostics.push(missing(&f.path_of("type")));
                return None;
            }
        };
        let src = &mut self.draft.sources[idx].source;
        if let Some(t) = &cited_text {
            if src.snippet.is_none() {
                src.snippet = Some(excerpt200(t)).filter(|s| !s.is_empty());
            }
        }
        for (k, v) in f.rest() {
            src.metadata.entry(k).or_insert(v);
        }
        Some((idx, cited_text, location))
    }

    /// The source of document `doc`, created on first sight.
    fn document(&mut self, doc: u64, title: Option<&str>) -> usize {
        if let Some(&i) = self.by_doc.get(&doc) {
            let src = &mut self.draft.sources[i].source;
            if src.title.is_none() {
                src.title = title.and_then(support::title);
            }
            return i;
        }
        let src = Source {
            id: format!("doc-{doc}"),
            kind: "document".to_string(),
            title: title.and_then(support::title),
            provider: Some(PROVIDER.to_string()),
            ..Source::default()
        };
        let i = self.draft.sources.len();
        self.draft.sources.push(DraftSource {
            source: src,
            keys: Vec::new(),
            given_number: doc.checked_add(1).and_then(|n| u32::try_from(n).ok()),
        });
        self.by_doc.insert(doc, i);
        self.by_id.insert(format!("doc-{doc}"), i);
        i
    }

    /// A source that is not a url, by id.
    fn named(
        &mut self,
        id: String,
        kind: &str,
        title: Option<&str>,
        keep: Option<(&str, &str)>,
    ) -> usize {
        if let Some(&i) = self.by_id.get(&id) {
            let src = &mut self.draft.sources[i].source;
            if src.title.is_none() {
                src.title = title.and_then(support::title);
            }
            return i;
        }
        let mut src = Source {
            id: id.clone(),
            kind: kind.to_string(),
            title: title.and_then(support::title),
            provider: Some(PROVIDER.to_string()),
            ..Source::default()
        };
        if let Some((k, v)) = keep {
            src.metadata
                .insert(k.to_string(), Value::String(v.to_string()));
        }
        let i = self.draft.sources.len();
        self.draft.sources.push(DraftSource {
            source: src,
            keys: Vec::new(),
            given_number: None,
        });
        self.by_id.insert(id, i);
        i
    }

    /// The web source for `raw_url`, created on first sight; `None` (with a
    /// diagnostic) when the url is empty. A url that cannot be linked (`javascript:`, a
    /// path) is reported and left out, and the page is kept without a link (id
    /// `unlinked-<n>`, one per raw url).
    fn web(&mut self, raw_url: &str, title: Option<&str>, path: &str) -> Option<usize> {
        let url = match classify_link(raw_url) {
            Link::Url(u) => u,
            Link::Empty => {
                self.draft.diagnostics.push(
                    Diagnostic::warning("wrong-type", format!("`{path}` is not a url; ignored"))
                        .at_path(path),
                );
                return None;
            }
            bad => {
                self.draft.diagnostics.push(match bad {
                    Link::Unsafe(scheme) => support::unsafe_url(path, &scheme),
                    _ => Diagnostic::warning(
                        "wrong-type",
                        format!("`{path}` is not a url; the source is kept without a link"),
                    )
                    .at_path(path),
                });
                let key = format!("unlinked:{}", raw_url.trim());
                if let Some(&i) = self.by_id.get(&key) {
                    return Some(i);
                }
                let n = self
                    .by_id
                    .keys()
                    .filter(|k| k.starts_with("unlinked:"))
                    .count()
                    + 1;
                let i = self.named(format!("unlinked-{n}"), "web", title, None);
                self.by_id.insert(key, i);
                return Some(i);
            }
        };
        let id = normalize_url(&url);
        if let Some(&i) = self.by_id.get(&id) {
            let src = &mut self.draft.sources[i].source;
            if src.title.is_none() {
                src.title = title.and_then(support::title);
            }
            return Some(i);
        }
        let src = Source {
            id: id.clone(),
            kind: "web".to_string(),
            title: title.and_then(support::title),
            domain: domain_of(&url),
            url: Some(url),
            provider: Some(PROVIDER.to_string()),
            ..Source::default()
        };
        let i = self.draft.sources.len();
        self.draft.sources.push(DraftSource {
            source: src,
            keys: Vec::new(),
            given_number: None,
        });
        self.by_id.insert(id, i);
        Some(i)
    }

    /// The results of a `web_search_tool_result` block become web sources.
    pub(super) fn search_results(&mut self, block: &Value, path: &str) {
        let Some(Value::Array(results)) = block.get("content") else {
            // An error result (`web_search_tool_result_error`): no sources, and a
            // warning with its code (the answer may say it could not search).
            if let Some(code) = block
                .get("content")
                .and_then(|c| c.get("error_code"))
                .and_then(Value::as_str)
            {
                self.draft.diagnostics.push(
                    Diagnostic::warning(
                        "tool-error",
                        [
                            "the web search failed (`error_code` ",
                            code,
                            "): it gave no sources",
                        ]
                        .concat(),
                    )
                    .at_path(format!("{path}.content.error_code")),
                );
            }
            return;
        };
        for (i, r) in results.iter().enumerate() {
            let rpath = format!("{path}.content[{i}]");
            let Value::Object(o) = r else {
                self.draft
                    .diagnostics
                    .push(wrong_type(&rpath, "a search result", r));
                continue;
            };
            let mut f = Fields::new(o, rpath.as_str());
            f.value("type");
            let title = f.string("title", &mut self.draft.diagnostics);
            let Some(url) = f.string("url", &mut self.draft.diagnostics) else {
                self.draft.diagnostics.push(missing(&f.path_of("url")));
                continue;
            };
            let Some(idx) = self.web(&url, title.as_deref(), &f.path_of("url")) else {
                continue;
            };
            let page_age = f.string("page_age", &mut self.draft.diagnostics);
            let src = &mut self.draft.sources[idx].source;
            if src.published.is_none() {
                src.published = page_age.as_deref().and_then(support::title);
            }
            for (k, v) in f.rest() {
                src.metadata.entry(k).or_insert(v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn draft(v: Value) -> Draft {
        parse(None, Some(&v), &Options::default()).unwrap()
    }

    #[test]
    fn blocks_concatenate_and_cited_blocks_become_spans() {
        let d = draft(json!({"type": "message", "role": "assistant", "content": [
            {"type": "text", "text": "According to the report, "},
            {"type": "text", "text": "revenue grew 12%", "citations": [
                {"type": "char_location", "cited_text": "Revenue grew 12% year over year.",
                 "document_index": 0, "document_title": "Q3 report", "start_char_index": 10, "end_char_index": 42},
                {"type": "page_location", "cited_text": "12%", "document_index": 0,
                 "document_title": "Q3 report", "start_page_number": 2, "end_page_number": 3}]},
            {"type": "text", "text": "."}], "model": "claude-sonnet-4-5"}));
        assert_eq!(d.text, "According to the report, revenue grew 12%.");
        assert_eq!(d.sources.len(), 1);
        assert_eq!(d.sources[0].source.id, "doc-0");
        assert_eq!(d.sources[0].given_number, Some(1));
        assert_eq!(d.spans.len(), 1);
        assert_eq!((d.spans[0].start, d.spans[0].end), (25, 41));
        assert_eq!(
            d.spans[0].cited_text.as_deref(),
            Some("Revenue grew 12% year over year. … 12%")
        );
        assert_eq!(d.metadata.get("model"), Some(&json!("claude-sonnet-4-5")));
        // Its page citation gives the document its page.
        assert_eq!(d.sources[0].source.page, Some(2));
    }

    /// A failed web search is a warning with its code, not silence.
    #[test]
    fn a_failed_search_is_reported() {
        let d = draft(json!({"role": "assistant", "content": [
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "x"}},
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1",
             "content": {"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}},
            {"type": "text", "text": "I could not search."}]}));
        assert_eq!(d.text, "I could not search.");
        // The tool call (its query) is kept in the metadata.
        assert_eq!(d.metadata["other_blocks"][0]["input"]["query"], json!("x"));
        assert_eq!(d.diagnostics.len(), 1, "{:?}", d.diagnostics);
        assert_eq!(d.diagnostics[0].code, "tool-error");
        assert!(d.diagnostics[0].message.contains("max_uses_exceeded"));
    }

    #[test]
    fn not_anthropic() {
        for v in [
            json!(3),
            json!({"role": "user"}),
            json!([1, 2]),
            json!({"content": 3}),
        ] {
            let e = parse(None, Some(&v), &Options::default()).unwrap_err();
            assert_eq!(e.code(), "not-format", "{v}");
        }
        assert!(parse(None, None, &Options::default()).is_err());
    }
}
