//! The `canonical` format (docs/formats.md): sources `{sid, title, url, text, content,
//! objective_relevance, query_relevance, reasoning, published_time_iso,
//! modified_time_iso}` with an answer in one of the formats `generate_content_llm`
//! writes.
//!
//! `data` is one of
//! - the `sources_list` array (the answer comes as `answer`);
//! - the envelope `{ok, content, format, finished, retries, reason, stats,
//!   sources_used}` (`answer` null: the text is `content`; `sources_used` are the
//!   sources and are marked used; every other envelope field goes to
//!   [`Draft::metadata`]);
//! - an object `{sources: [...]}` or `{sources_list: [...]}` (with or without
//!   `content`, `sources_used`).
//!
//! A source is `id` = its sid as decimal text (`"3"`), key `Num(sid)`, given number =
//! sid. `text` is the snippet (kept whole as `content` when longer than 200
//! characters and no `content` is given), `o_relevance`/`q_relevance` (the
//! reconciler's names) are read as `objective_relevance`/`query_relevance`. A sid given
//! as a numeric string is read with an info diagnostic; a source without a usable sid
//! is skipped. `sources_used` may also be plain sids (`[3, 5, 8]`).
//!
//! The answer's kind comes from the envelope's `format` (`markdown`, `text`, `html`,
//! `json`, `yaml`; `xml` and `mermaid` are shown as plain text), else from the text:
//! HTML when it starts with `<`, JSON when it parses as a JSON object or array,
//! markdown otherwise.
//! - markdown / text / HTML: `[[S:1]]`, `[[S:1,3]]`, `[[S:2-4]]`, `<sup class="cite"
//!   data-sids="1,3">`, and, since models drift, every other marker of the grammar
//!   (numeric `[1]`, footnotes, private-use); `[[USAGE:...]]` is removed.
//! - JSON / YAML: the `_citations` sidecar `[{path, sids}]` at the top level. Each
//!   entry becomes an explicit span over the pointed value in the raw text (inside the
//!   quotes for a string) with a [`Location::JsonPointer`]. The sidecar itself stays
//!   in the text, untouched, so every offset stays honest; the renderer hides it.
//!   A path that does not exist is an `unknown-path` warning; one that points at a
//!   non-string value cites the whole value with a `wrong-type` warning. YAML is read
//!   for the common block subset (nested `key: value` maps, `- ` lists, plain, quoted
//!   and block scalars, one-line flow lists); anything beyond is an
//!   `invalid-content` info diagnostic and the text is still shown.

use crate::core::draft::{Draft, DraftSource, DraftSpan, SourceRef};
use crate::core::error::ParseError;
use crate::core::formats::support::{self, SourceReader};
use crate::core::json::{as_uint, parse_json, type_name, wrong_type, Fields};
use crate::core::limits::MAX_JSON_DEPTH;
use crate::core::markers::{Grammar, SourceKey, TextSyntax};
use crate::core::model::{ContentKind, Diagnostic, Format, Location};
use crate::core::options::Options;
use crate::core::sanitize::clean_text;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// Keys of an object that make it canonical data.
const OBJECT_KEYS: [&str; 4] = ["content", "sources_list", "sources", "sources_used"];

/// Parses `canonical` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    options: &Options,
) -> Result<Draft, ParseError> {
    let _ = options;
    let mut diags = Vec::new();
    let mut meta = Map::new();
    let mut text = answer.map(str::to_string);
    let mut declared: Option<String> = None;
    let mut lists: Vec<(&[Value], &str)> = Vec::new();
    let mut used_list: Option<&[Value]> = None;
    match data {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            if !items.is_empty() && !items.iter().any(Value::is_object) {
                return Err(ParseError::not_format(
                    Format::Canonical,
                    "$",
                    "expected an array of source objects with a `sid`, found no object in it",
                ));
            }
            lists.push((items.as_slice(), "sources_list"));
        }
        Some(Value::Object(o)) => {
            if !OBJECT_KEYS.iter().any(|k| o.contains_key(*k)) {
                return Err(ParseError::not_format(
                    Format::Canonical,
                    "$",
                    "expected a `sources_list` array or an envelope with `content` and `sources_used`",
                ));
            }
            let mut f = Fields::new(o, "");
            if let Some(Value::String(fmt)) = o.get("format") {
                declared = Some(fmt.clone());
            }
            match f.value("content") {
                None => {}
                Some(Value::String(s)) if text.is_none() => text = Some(s.clone()),
                Some(v @ (Value::Object(_) | Value::Array(_))) if text.is_none() => {
                    // A JSON answer stored as a value rather than as text.
                    text = Some(serde_json::to_string_pretty(v).unwrap_or_default());
                    declared = Some("json".to_string());
                }
                Some(v @ (Value::String(_) | Value::Object(_) | Value::Array(_))) => {
                    // The answer was given separately: keep the envelope's copy.
                    meta.insert("content".to_string(), v.clone());
                }
                Some(other) => diags.push(wrong_type("content", "a string", other)),
            }
            for key in ["sources_list", "sources"] {
                match f.value(key) {
                    None => {}
                    Some(Value::Array(a)) => lists.push((a.as_slice(), key)),
                    Some(other) => diags.push(wrong_type(key, "an array", other)),
                }
            }
            match f.value("sources_used") {
                None => {}
                Some(Value::Array(a)) => used_list = Some(a.as_slice()),
                Some(other) => diags.push(wrong_type("sources_used", "an array", other)),
            }
            for (k, v) in f.rest() {
                meta.insert(k, v);
            }
        }
        Some(other) => {
            return Err(ParseError::not_format(
                Format::Canonical,
                "$",
                format!(
                    "expected an array of sources or an envelope object, found {}",
                    type_name(other)
                ),
            ))
        }
    }

    let text = text.unwrap_or_default();
    let kind = content_kind(declared.as_deref(), &text, &mut diags);
    let mut draft = Draft::new(Format::Canonical, text);
    draft.content_kind = kind;
    draft.grammar = Some(grammar_for(kind));
    draft.metadata = meta;

    let mut by_sid: HashMap<u64, usize> = HashMap::new();
    for (items, name) in lists {
        for (i, item) in items.iter().enumerate() {
            let path = format!("{name}[{i}]");
            if let Some((sid, src)) = read_source(item, &path, &mut diags) {
                by_sid.entry(sid).or_insert(draft.sources.len());
                draft.sources.push(src);
            }
        }
    }
    let mut used_seen = HashSet::new();
    for (i, item) in used_list.unwrap_or(&[]).iter().enumerate() {
        let path = format!("sources_used[{i}]");
        let sid = match item {
            Value::Object(_) => match read_source(item, &path, &mut diags) {
                Some((sid, src)) => {
                    match by_sid.get(&sid) {
                        Some(&at) => {
                            if let Some(existing) = draft.sources.get_mut(at) {
                                crate::core::resolve::merge_source(
                                    &mut existing.source,
                                    src.source,
                                );
                            }
                        }
                        None => {
                            by_sid.insert(sid, draft.sources.len());
                            draft.sources.push(src);
                        }
                    }
                    sid
                }
                None => continue,
            },
            other => match read_sid(other, &path, &mut diags) {
                Some(sid) => sid,
                None => continue,
            },
        };
        if used_seen.insert(sid) {
            draft.used.push(SourceKey::Num(sid));
        }
    }

    match kind {
        ContentKind::Json => json_sidecar(&mut draft, &mut diags),
        ContentKind::Yaml => yaml_sidecar(&mut draft, &mut diags),
        _ => {}
    }
    draft.diagnostics.extend(diags);
    support::cap_sources(&mut draft);
    support::cap_spans(&mut draft);
    Ok(draft)
}

/// The marker syntaxes scanned for each kind of answer.
fn grammar_for(kind: ContentKind) -> Grammar {
    match kind {
        ContentKind::Markdown => support::every_marker(TextSyntax::Markdown),
        ContentKind::Plain => support::every_marker(TextSyntax::Plain),
        ContentKind::Html => support::every_marker(TextSyntax::Html),
        // Numeric markers would match JSON arrays (`[1, 2]`) and footnote references
        // YAML flow lists; the other syntaxes cannot be JSON or YAML syntax.
        ContentKind::Json | ContentKind::Yaml => Grammar {
            numeric: false,
            footnotes: false,
            ..support::every_marker(TextSyntax::Plain)
        },
    }
}

/// The kind of the answer: the declared `format` when known, else sniffed.
fn content_kind(declared: Option<&str>, text: &str, diags: &mut Vec<Diagnostic>) -> ContentKind {
    let declared = declared.map(|d| d.trim().to_ascii_lowercase());
    match declared.as_deref() {
        Some("markdown" | "md" | "gfm") => ContentKind::Markdown,
        Some("text" | "plain" | "txt" | "xml" | "mermaid" | "csv") => ContentKind::Plain,
        Some("html" | "htm") => ContentKind::Html,
        Some("json") => {
            if is_json_document(text) {
                ContentKind::Json
            } else {
                diags.push(
                    Diagnostic::warning(
                        "invalid-content",
                        "the answer is declared `json` but is not a JSON document; shown as markdown",
                    )
                    .at_path("format"),
                );
                ContentKind::Markdown
            }
        }
        Some("yaml" | "yml") => ContentKind::Yaml,
        _ => sniff(text),
    }
}

/// HTML when the text starts with `<`, JSON when it is a JSON object or array,
/// markdown otherwise.
fn sniff(text: &str) -> ContentKind {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with('<') {
        ContentKind::Html
    } else if (t.starts_with('{') || t.starts_with('[')) && is_json_document(t) {
        ContentKind::Json
    } else {
        ContentKind::Markdown
    }
}

/// Whether `text` is a JSON object, or an array holding an object or array.
fn is_json_document(text: &str) -> bool {
    match parse_json(text) {
        Ok(Value::Object(_)) => true,
        Ok(Value::Array(a)) => a.iter().any(|v| v.is_object() || v.is_array()),
        _ => false,
    }
}

/// A sid from a JSON value: an integer, or a numeric string (info diagnostic).
fn read_sid(v: &Value, path: &str, diags: &mut Vec<Diagnostic>) -> Option<u64> {
    match v {
        Value::Number(_) => {
            let n = as_uint(v);
            if n.is_none() {
                diags.push(wrong_type(path, "a non-negative integer sid", v));
            }
            n
        }
        Value::String(s) => match s.trim().parse::<u64>() {
            Ok(n) => {
                diags.push(
                    Diagnostic::info(
                        "wrong-type",
                        format!(
                            "`{path}` is the string \"{}\"; read as the sid {n}",
                            s.trim()
                        ),
                    )
                    .at_path(path),
                );
                Some(n)
            }
            Err(_) => {
                diags.push(wrong_type(path, "an integer sid", v));
                None
            }
        },
        other => {
            diags.push(wrong_type(path, "an integer sid", other));
            None
        }
    }
}

/// One canonical source object; `None` (with a diagnostic) when it has no usable sid.
fn read_source(
    item: &Value,
    path: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<(u64, DraftSource)> {
    let Value::Object(map) = item else {
        diags.push(wrong_type(path, "a source object", item));
        return None;
    };
    let mut r = SourceReader::new(map, path);
    let sid_path = r.path_of("sid");
    let sid = match r.fields.value("sid") {
        None => {
            diags.push(
                Diagnostic::warning(
                    "missing-field",
                    format!("`{sid_path}` is missing; the source is skipped"),
                )
                .at_path(&sid_path),
            );
            return None;
        }
        Some(v) => read_sid(v, &sid_path, diags)?,
    };
    if let Some(v) = r.fields.value("url") {
        match v {
            Value::String(s) => r.link("url", s, diags),
            other => diags.push(wrong_type(&r.path_of("url"), "a string", other)),
        }
    }
    if let Some(t) = r.fields.string("title", diags) {
        r.src.title = support::title(&t);
    }
    if let Some(d) = r.fields.string("domain", diags) {
        r.src.domain = support::title(&d).map(|d| d.to_ascii_lowercase());
    }
    let snippet = r.fields.string("text", diags);
    let content = r.fields.string("content", diags);
    if let Some(c) = content.as_ref().filter(|c| !c.trim().is_empty()) {
        r.src.content = Some(c.clone());
    }
    match (snippet.filter(|s| !s.trim().is_empty()), content) {
        (Some(s), _) => support::set_text(&mut r.src, &s),
        (None, Some(c)) => support::set_text(&mut r.src, &c),
        _ => {}
    }
    if let Some(n) = r
        .fields
        .number_any(&["objective_relevance", "o_relevance"], diags)
    {
        r.src.objective_relevance = Some(n);
    }
    if let Some((_, v)) = r.fields.value_any(&["query_relevance", "q_relevance"]) {
        r.src.query_relevance = Some(v.clone());
    }
    if let Some(s) = r.fields.string("reasoning", diags) {
        r.src.reasoning = Some(clean_text(&s)).filter(|s| !s.is_empty());
    }
    if let Some(s) = r.fields.string("published_time_iso", diags) {
        r.src.published = support::title(&s);
    }
    if let Some(s) = r.fields.string("modified_time_iso", diags) {
        r.src.modified = support::title(&s);
    }
    let mut src = r.finish("document");
    src.id = sid.to_string();
    Some((sid, support::numbered(src, Some(sid))))
}

/// What a JSON Pointer names inside the raw text.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pointed {
    /// Bytes of the value: inside the quotes for a string, the whole value otherwise.
    range: Range<usize>,
    /// `None` for a string, else the type's name (`a number`).
    not_string: Option<&'static str>,
}

/// Reads the `_citations` sidecar of a JSON answer.
fn json_sidecar(draft: &mut Draft, diags: &mut Vec<Diagnostic>) {
    let Ok(doc) = parse_json(&draft.text) else {
        return;
    };
    let Some(sidecar) = doc.get("_citations") else {
        return;
    };
    let Some(tree) = JsonNode::parse(&draft.text) else {
        return;
    };
    let spans = read_sidecar(sidecar, |tokens| tree.pointer(tokens), diags);
    draft.spans.extend(spans);
}

/// Reads the `_citations` sidecar of a YAML answer.
fn yaml_sidecar(draft: &mut Draft, diags: &mut Vec<Diagnostic>) {
    let (root, problems) = yaml::parse(&draft.text);
    if let Some(p) = problems.first() {
        let more = if problems.len() > 1 {
            format!(" (and {} more)", problems.len() - 1)
        } else {
            String::new()
        };
        diags.push(Diagnostic::info(
            "invalid-content",
            format!(
                "the YAML answer uses syntax citekit does not read: {p}{more}; citations inside it may not be placed"
            ),
        ));
    }
    let Some(root) = root else {
        return;
    };
    let Some(sidecar) = root.get("_citations") else {
        return;
    };
    let sidecar = sidecar.to_value();
    let spans = read_sidecar(&sidecar, |tokens| root.pointer(tokens), diags);
    draft.spans.extend(spans);
}

/// Turns sidecar entries `[{path, sids}]` into spans, locating each path with
/// `locate` (pointer tokens → the pointed value).
fn read_sidecar(
    sidecar: &Value,
    locate: impl Fn(&[String]) -> Option<Pointed>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<DraftSpan> {
    let Value::Array(entries) = sidecar else {
        diags.push(wrong_type("_citations", "an array", sidecar));
        return Vec::new();
    };
    let mut spans = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let at = format!("_citations[{i}]");
        let Value::Object(map) = entry else {
            diags.push(wrong_type(&at, "an object", entry));
            continue;
        };
        let mut f = Fields::new(map, at.clone());
        let path = match f.value("path") {
            Some(Value::String(p)) => p.clone(),
            Some(other) => {
                diags.push(wrong_type(
                    &f.path_of("path"),
                    "a JSON Pointer string",
                    other,
                ));
                continue;
            }
            None => {
                diags.push(missing(&f.path_of("path"), "the entry is skipped"));
                continue;
            }
        };
        let sids = match f.value("sids") {
            Some(v) => sid_list(v, &f.path_of("sids"), diags),
            None => Vec::new(),
        };
        if sids.is_empty() {
            diags.push(missing(&f.path_of("sids"), "the entry is skipped"));
            continue;
        }
        let Some(found) = parse_pointer(&path).and_then(|t| locate(&t)) else {
            diags.push(
                Diagnostic::warning(
                    "unknown-path",
                    format!(
                        "`{at}.path` is `{}`, which names no value of the answer; the entry is skipped",
                        clean_text(&path)
                    ),
                )
                .at_path(format!("{at}.path")),
            );
            continue;
        };
        if let Some(ty) = found.not_string {
            diags.push(
                Diagnostic::warning(
                    "wrong-type",
                    format!(
                        "`{at}.path` points at {ty}, not a string field; the whole value is cited"
                    ),
                )
                .at_path(format!("{at}.path"))
                .at(found.range.start, found.range.end),
            );
        }
        let mut span = DraftSpan::new(
            found.range.start,
            found.range.end,
            sids.into_iter()
                .map(|n| SourceRef::Key(SourceKey::Num(n)))
                .collect(),
        );
        span.location = Some(Location::JsonPointer { path });
        spans.push(span);
    }
    spans
}

/// A `missing-field` warning.
fn missing(path: &str, what: &str) -> Diagnostic {
    Diagnostic::warning("missing-field", format!("`{path}` is missing; {what}")).at_path(path)
}

/// Sids from `[3, 5]`, `["3", "5"]`, `3` or `"3, 5"`; others reported.
fn sid_list(v: &Value, path: &str, diags: &mut Vec<Diagnostic>) -> Vec<u64> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut push = |n: u64| {
        if seen.insert(n) {
            out.push(n);
        }
    };
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                match as_uint(item) {
                    Some(n) => push(n),
                    None => diags.push(wrong_type(&format!("{path}[{i}]"), "a sid", item)),
                }
            }
        }
        Value::String(s) => {
            for part in s.split(',') {
                match part.trim().parse::<u64>() {
                    Ok(n) => push(n),
                    Err(_) => {
                        diags.push(wrong_type(path, "an array of sids", v));
                        break;
                    }
                }
            }
        }
        other => match as_uint(other) {
            Some(n) => push(n),
            None => diags.push(wrong_type(path, "an array of sids", other)),
        },
    }
    out
}

/// The reference tokens of a JSON Pointer (`/a/b~1c` → `["a", "b/c"]`); `None` when
/// it is not a pointer (non-empty and not starting with `/`).
fn parse_pointer(p: &str) -> Option<Vec<String>> {
    if p.is_empty() {
        return Some(Vec::new());
    }
    let rest = p.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

/// An array index token: digits without a leading zero.
fn array_index(token: &str) -> Option<usize> {
    if token.is_empty()
        || !token.bytes().all(|b| b.is_ascii_digit())
        || (token.len() > 1 && token.starts_with('0'))
    {
        return None;
    }
    token.parse().ok()
}

/// Finds the value a pointer names inside raw JSON text, with its byte range (for
/// one lookup; [`JsonNode::parse`] once and [`JsonNode::pointer`] for many).
#[cfg(test)]
fn json_pointer(text: &str, tokens: &[String]) -> Option<Pointed> {
    JsonNode::parse(text)?.pointer(tokens)
}

/// A JSON value with the byte range of each part of it in the raw text, built from
/// the text itself (not from a parsed value) so positions are exact.
#[derive(Debug)]
enum JsonNode {
    /// A string: the range inside the quotes.
    Str(Range<usize>),
    /// A number, boolean or null, with its type's name.
    Scalar(Range<usize>, &'static str),
    /// An array.
    Arr(Range<usize>, Vec<JsonNode>),
    /// An object: members in order, and key → first member with that key.
    Obj(Range<usize>, Vec<JsonNode>, HashMap<String, usize>),
}

impl JsonNode {
    /// The tree of `text` (which [`parse_json`] has accepted, so its depth is bounded);
    /// `None` when it is not JSON after all.
    fn parse(text: &str) -> Option<JsonNode> {
        let mut w = JsonWalker {
            b: text.as_bytes(),
            pos: if text.starts_with('\u{feff}') { 3 } else { 0 },
            text,
        };
        w.value(0)
    }

    /// The value `tokens` name.
    fn pointer(&self, tokens: &[String]) -> Option<Pointed> {
        let mut node = self;
        for t in tokens {
            node = match node {
                JsonNode::Obj(_, members, index) => members.get(*index.get(t.as_str())?)?,
                JsonNode::Arr(_, items) => items.get(array_index(t)?)?,
                _ => return None,
            };
        }
        Some(match node {
            JsonNode::Str(r) => Pointed {
                range: r.clone(),
                not_string: None,
            },
            JsonNode::Scalar(r, ty) => Pointed {
                range: r.clone(),
                not_string: Some(ty),
            },
            JsonNode::Arr(r, _) => Pointed {
                range: r.clone(),
                not_string: Some("an array"),
            },
            JsonNode::Obj(r, _, _) => Pointed {
                range: r.clone(),
                not_string: Some("an object"),
            },
        })
    }
}

/// A cursor over JSON bytes.
struct JsonWalker<'a> {
    b: &'a [u8],
    pos: usize,
    text: &'a str,
}

impl JsonWalker<'_> {
    /// One value and everything in it.
    fn value(&mut self, depth: usize) -> Option<JsonNode> {
        if depth > MAX_JSON_DEPTH {
            return None;
        }
        self.ws();
        let start = self.pos;
        match self.peek()? {
            b'"' => self.string().map(JsonNode::Str),
            b'{' => {
                self.pos += 1;
                let mut members = Vec::new();
                let mut index = HashMap::new();
                loop {
                    self.ws();
                    if self.peek()? == b'}' {
                        self.pos += 1;
                        break;
                    }
                    let key = self.string()?;
                    let key = decode_json_string(self.text.get(key)?);
                    self.ws();
                    if self.peek()? != b':' {
                        return None;
                    }
                    self.pos += 1;
                    let child = self.value(depth + 1)?;
                    index.entry(key).or_insert(members.len());
                    members.push(child);
                    self.ws();
                    match self.peek()? {
                        b',' => self.pos += 1,
                        b'}' => {
                            self.pos += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
                Some(JsonNode::Obj(start..self.pos, members, index))
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.ws();
                    if self.peek()? == b']' {
                        self.pos += 1;
                        break;
                    }
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match self.peek()? {
                        b',' => self.pos += 1,
                        b']' => {
                            self.pos += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
                Some(JsonNode::Arr(start..self.pos, items))
            }
            first => {
                self.scalar()?;
                let ty = match first {
                    b't' | b'f' => "a boolean",
                    b'n' => "null",
                    _ => "a number",
                };
                Some(JsonNode::Scalar(start..self.pos, ty))
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// At a `"`: the range inside the quotes; the cursor moves past the closing quote.
    fn string(&mut self) -> Option<Range<usize>> {
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.pos + 1;
        let mut i = start;
        loop {
            match *self.b.get(i)? {
                b'\\' => i += 2,
                b'"' => {
                    self.pos = i + 1;
                    return Some(start..i);
                }
                _ => i += 1,
            }
        }
    }

    /// Skips a number or literal.
    fn scalar(&mut self) -> Option<()> {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if matches!(
                c,
                b',' | b'}' | b']' | b'[' | b'{' | b'"' | b':' | b' ' | b'\t' | b'\n' | b'\r'
            ) {
                break;
            }
            self.pos += 1;
        }
        (self.pos > start).then_some(())
    }
}

/// The text of a JSON string's raw content (escapes decoded; bad escapes kept as
/// written, lone surrogates as U+FFFD).
fn decode_json_string(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                let Ok(hi) = u32::from_str_radix(&hex, 16) else {
                    out.push_str("\\u");
                    out.push_str(&hex);
                    continue;
                };
                if (0xd800..0xdc00).contains(&hi) {
                    let rest = chars.as_str();
                    let lo = rest
                        .strip_prefix("\\u")
                        .and_then(|r| r.get(..4))
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .filter(|lo| (0xdc00..0xe000).contains(lo));
                    if let Some(lo) = lo {
                        chars = rest[6..].chars();
                        let c = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
                        out.push(char::from_u32(c).unwrap_or('\u{fffd}'));
                    } else {
                        out.push('\u{fffd}');
                    }
                } else {
                    out.push(char::from_u32(hi).unwrap_or('\u{fffd}'));
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// The YAML subset citekit reads: enough to place JSON Pointers in a YAML answer and
/// to read a `_citations` sidecar written in YAML.
mod yaml {
    use super::{array_index, Pointed, MAX_JSON_DEPTH};
    use serde_json::{Map, Number, Value};
    use std::collections::HashMap;
    use std::ops::Range;

    /// A node with the byte range of its value in the text.
    #[derive(Debug, Clone, PartialEq)]
    pub(super) enum Node {
        /// A scalar; `quoted` for quoted and block scalars (always strings).
        Scalar {
            value: String,
            range: Range<usize>,
            quoted: bool,
        },
        /// A block mapping; `index` maps a key to its first entry.
        Map {
            entries: Vec<(String, Node)>,
            index: HashMap<String, usize>,
            range: Range<usize>,
        },
        /// A block sequence or a one-line flow sequence.
        Seq {
            items: Vec<Node>,
            range: Range<usize>,
        },
    }

    impl Node {
        fn range(&self) -> Range<usize> {
            match self {
                Node::Scalar { range, .. } | Node::Map { range, .. } | Node::Seq { range, .. } => {
                    range.clone()
                }
            }
        }

        /// The value of `key` in a mapping.
        pub(super) fn get(&self, key: &str) -> Option<&Node> {
            match self {
                Node::Map { entries, index, .. } => entries.get(*index.get(key)?).map(|e| &e.1),
                _ => None,
            }
        }

        /// The node a JSON Pointer names.
        pub(super) fn pointer(&self, tokens: &[String]) -> Option<Pointed> {
            let mut node = self;
            for t in tokens {
                node = match node {
                    Node::Map { .. } => node.get(t)?,
                    Node::Seq { items, .. } => items.get(array_index(t)?)?,
                    Node::Scalar { .. } => return None,
                };
            }
            let not_string = match node {
                Node::Map { .. } => Some("an object"),
                Node::Seq { .. } => Some("an array"),
                Node::Scalar { .. } => match node.to_value() {
                    Value::String(_) => None,
                    Value::Null => Some("null"),
                    Value::Bool(_) => Some("a boolean"),
                    _ => Some("a number"),
                },
            };
            Some(Pointed {
                range: node.range(),
                not_string,
            })
        }

        /// The node as JSON (plain scalars typed as YAML 1.2's core schema does).
        pub(super) fn to_value(&self) -> Value {
            match self {
                Node::Scalar {
                    value,
                    quoted: true,
                    ..
                } => Value::String(value.clone()),
                Node::Scalar { value, .. } => plain_value(value),
                Node::Map { entries, .. } => {
                    let mut m = Map::new();
                    for (k, v) in entries {
                        m.insert(k.clone(), v.to_value());
                    }
                    Value::Object(m)
                }
                Node::Seq { items, .. } => Value::Array(items.iter().map(Node::to_value).collect()),
            }
        }
    }

    /// A plain scalar's JSON value.
    fn plain_value(s: &str) -> Value {
        match s {
            "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
            "true" | "True" | "TRUE" => return Value::Bool(true),
            "false" | "False" | "FALSE" => return Value::Bool(false),
            _ => {}
        }
        let numeric = s
            .strip_prefix(['-', '+'])
            .unwrap_or(s)
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_digit() || b == b'.');
        if numeric {
            if let Ok(n) = s.parse::<i64>() {
                return Value::Number(n.into());
            }
            if let Some(n) = s.parse::<f64>().ok().and_then(Number::from_f64) {
                return Value::Number(n);
            }
        }
        Value::String(s.to_string())
    }

    /// One line: `start..end` without the line break, `col` = bytes of indentation
    /// (moved past `- ` when a sequence item holds a mapping).
    #[derive(Debug, Clone, Copy)]
    struct Line {
        start: usize,
        end: usize,
        col: usize,
    }

    struct Parser<'a> {
        text: &'a str,
        lines: Vec<Line>,
        i: usize,
        problems: Vec<String>,
        /// Set on a problem that stops the structure from being read further.
        broken: bool,
    }

    /// Parses the first document of `text`; returns the root (if any) and the
    /// unsupported constructs met, each with its line number.
    pub(super) fn parse(text: &str) -> (Option<Node>, Vec<String>) {
        let mut lines = Vec::new();
        let mut start = 0;
        for piece in text.split_inclusive('\n') {
            let body = piece.trim_end_matches('\n').trim_end_matches('\r');
            let col = body.len() - body.trim_start_matches(' ').len();
            lines.push(Line {
                start,
                end: start + body.len(),
                col,
            });
            start += piece.len();
        }
        let mut p = Parser {
            text,
            lines,
            i: 0,
            problems: Vec::new(),
            broken: false,
        };
        p.skip_blank();
        while p.i < p.lines.len() {
            let c = p.content(p.i);
            if c.starts_with('%') {
                p.i += 1;
                p.skip_blank();
            } else {
                if c == "---" || c.starts_with("--- ") {
                    p.i += 1;
                }
                break;
            }
        }
        let root = p.node(0, 0);
        p.skip_blank();
        if !p.broken && p.i < p.lines.len() {
            let c = p.content(p.i);
            if c == "---" || c == "..." || c.starts_with("--- ") {
                if p.lines[p.i + 1..]
                    .iter()
                    .any(|l| !p.text[l.start + l.col..l.end].trim().is_empty())
                {
                    let n = p.i + 1;
                    p.problem(n, "only the first document is read");
                }
            } else {
                let n = p.i + 1;
                p.problem(n, "unexpected indentation");
            }
        }
        (root, p.problems)
    }

    impl<'a> Parser<'a> {
        fn content(&self, i: usize) -> &'a str {
            let l = self.lines[i];
            self.text.get(l.start + l.col..l.end).unwrap_or("")
        }

        fn is_blank(&self, i: usize) -> bool {
            let c = self.content(i).trim_start();
            c.is_empty() || c.starts_with('#')
        }

        fn skip_blank(&mut self) {
            while self.i < self.lines.len() && self.is_blank(self.i) {
                self.i += 1;
            }
        }

        fn problem(&mut self, line: usize, what: &str) {
            self.problems.push(format!("line {line}: {what}"));
        }

        fn stop(&mut self, line: usize, what: &str) {
            self.problem(line, what);
            self.broken = true;
        }

        /// A block node at indentation `min` or more.
        fn node(&mut self, min: usize, depth: usize) -> Option<Node> {
            self.skip_blank();
            if self.broken || self.i >= self.lines.len() {
                return None;
            }
            let line = self.lines[self.i];
            if line.col < min {
                return None;
            }
            if depth > MAX_JSON_DEPTH {
                let n = self.i + 1;
                self.stop(n, "nested too deep");
                return None;
            }
            let c = self.content(self.i);
            if is_seq_item(c) {
                Some(self.seq(line.col, depth))
            } else if split_key(c).is_some() {
                Some(self.map(line.col, depth))
            } else {
                let abs = line.start + line.col;
                self.i += 1;
                Some(self.value(abs..line.end, line.col.saturating_sub(1), depth))
            }
        }

        fn map(&mut self, indent: usize, depth: usize) -> Node {
            let mut entries = Vec::new();
            let mut index = HashMap::new();
            let start = self.lines[self.i].start + indent;
            let mut end = start;
            loop {
                self.skip_blank();
                if self.broken || self.i >= self.lines.len() {
                    break;
                }
                let line = self.lines[self.i];
                if line.col < indent {
                    break;
                }
                if line.col > indent {
                    let n = self.i + 1;
                    self.stop(n, "unexpected indentation");
                    break;
                }
                let c = self.content(self.i);
                let Some((key, rest)) = split_key(c) else {
                    if !is_seq_item(c) {
                        let n = self.i + 1;
                        self.stop(n, "expected `key: value`");
                    }
                    break;
                };
                let abs = line.start + line.col;
                self.i += 1;
                let value = self.value(abs + rest..line.end, indent, depth + 1);
                end = end.max(value.range().end).max(abs + rest);
                index.entry(key.clone()).or_insert(entries.len());
                entries.push((key, value));
            }
            Node::Map {
                entries,
                index,
                range: start..end,
            }
        }

        fn seq(&mut self, indent: usize, depth: usize) -> Node {
            let mut items = Vec::new();
            let start = self.lines[self.i].start + indent;
            let mut end = start;
            loop {
                self.skip_blank();
                if self.broken || self.i >= self.lines.len() {
                    break;
                }
                let line = self.lines[self.i];
                let c = self.content(self.i);
                if line.col != indent || !is_seq_item(c) {
                    if line.col > indent {
                        let n = self.i + 1;
                        self.stop(n, "unexpected indentation");
                    }
                    break;
                }
                let after = &c[1..];
                let pad = after.len() - after.trim_start_matches(' ').len();
                let rest = &after[pad..];
                let item = if rest.is_empty() || rest.starts_with('#') {
                    self.i += 1;
                    self.node(indent + 1, depth + 1)
                        .unwrap_or_else(|| empty(line.start + indent + 1))
                } else if is_seq_item(rest) || split_key(rest).is_some() {
                    // `- key: v` / `- - x`: the item's block starts after the dash.
                    self.lines[self.i].col = indent + 1 + pad;
                    self.node(indent + 1 + pad, depth + 1)
                        .unwrap_or_else(|| empty(line.start + indent + 1))
                } else {
                    self.i += 1;
                    let abs = line.start + indent + 1 + pad;
                    self.value(abs..line.end, indent, depth + 1)
                };
                end = end.max(item.range().end);
                items.push(item);
            }
            Node::Seq {
                items,
                range: start..end,
            }
        }

        /// The value after `key:` or `- ` (`span` = the rest of that line); the lines
        /// of a nested block are those indented more than `owner`.
        fn value(&mut self, span: Range<usize>, owner: usize, depth: usize) -> Node {
            let raw = self.text.get(span.clone()).unwrap_or("");
            let lead = raw.len() - raw.trim_start().len();
            let at = span.start + lead;
            let rest = raw.trim_start();
            let line_no = self.i; // the line just consumed, 1-based
            if rest.is_empty() || rest.starts_with('#') {
                self.skip_blank();
                if self.i < self.lines.len() {
                    let next = self.lines[self.i];
                    let c = self.content(self.i);
                    if next.col > owner {
                        return self.node(owner + 1, depth).unwrap_or_else(|| empty(at));
                    }
                    if next.col == owner && is_seq_item(c) {
                        return self.seq(owner, depth);
                    }
                }
                return empty(at);
            }
            match rest.as_bytes()[0] {
                b'|' | b'>' => self.block_scalar(rest, at, owner),
                b'"' => match double_quoted(rest) {
                    Some((value, len)) => Node::Scalar {
                        value,
                        range: at + 1..at + 1 + len,
                        quoted: true,
                    },
                    None => {
                        self.stop(line_no, "a quoted scalar over several lines");
                        plain(rest, at)
                    }
                },
                b'\'' => match single_quoted(rest) {
                    Some((value, len)) => Node::Scalar {
                        value,
                        range: at + 1..at + 1 + len,
                        quoted: true,
                    },
                    None => {
                        self.stop(line_no, "a quoted scalar over several lines");
                        plain(rest, at)
                    }
                },
                b'[' => match flow_seq(rest, at) {
                    Some(node) => node,
                    None => {
                        self.problem(line_no, "a flow sequence citekit cannot read");
                        plain(rest, at)
                    }
                },
                b'{' => {
                    self.problem(line_no, "flow mappings are not supported");
                    plain(rest, at)
                }
                b'&' | b'*' | b'!' => {
                    self.problem(line_no, "anchors, aliases and tags are not supported");
                    plain(rest, at)
                }
                _ => {
                    let mut node = plain(rest, at);
                    // Continuation lines of a multi-line plain scalar.
                    while self.i < self.lines.len()
                        && !self.is_blank(self.i)
                        && self.lines[self.i].col > owner
                    {
                        let c = self.content(self.i);
                        if split_key(c).is_some() || is_seq_item(c) {
                            break;
                        }
                        let l = self.lines[self.i];
                        if let Node::Scalar { value, range, .. } = &mut node {
                            let piece = strip_comment(c).trim_end();
                            value.push(' ');
                            value.push_str(piece);
                            range.end = l.start + l.col + piece.len();
                        }
                        self.i += 1;
                    }
                    node
                }
            }
        }

        /// `|` or `>` block scalar: the following lines indented more than `owner`.
        fn block_scalar(&mut self, header: &str, at: usize, owner: usize) -> Node {
            let folded = header.starts_with('>');
            let mut block_col = None;
            let mut first = None;
            let mut last_end = at + header.len();
            let mut lines: Vec<&'a str> = Vec::new();
            while self.i < self.lines.len() {
                let l = self.lines[self.i];
                let body = self.text.get(l.start..l.end).unwrap_or("");
                if body.trim().is_empty() {
                    lines.push("");
                    self.i += 1;
                    continue;
                }
                let col = *block_col.get_or_insert(l.col);
                if l.col < col || l.col <= owner {
                    break;
                }
                first.get_or_insert(l.start + col);
                last_end = l.end;
                lines.push(body.get(col..).unwrap_or(""));
                self.i += 1;
            }
            while lines.last() == Some(&"") {
                lines.pop();
            }
            let value = if folded {
                lines.join(" ")
            } else {
                let mut v = lines.join("\n");
                v.push('\n');
                v
            };
            let start = first.unwrap_or(last_end);
            Node::Scalar {
                value,
                range: start..last_end.max(start),
                quoted: true,
            }
        }
    }

    fn empty(at: usize) -> Node {
        Node::Scalar {
            value: String::new(),
            range: at..at,
            quoted: false,
        }
    }

    /// A plain scalar starting at byte `at`; a ` #` comment ends it.
    fn plain(rest: &str, at: usize) -> Node {
        let v = strip_comment(rest).trim_end();
        Node::Scalar {
            value: v.to_string(),
            range: at..at + v.len(),
            quoted: false,
        }
    }

    fn strip_comment(s: &str) -> &str {
        match s.find(" #") {
            Some(i) => &s[..i],
            None => s,
        }
    }

    fn is_seq_item(c: &str) -> bool {
        c == "-" || c.starts_with("- ")
    }

    /// `key: rest` → the key and the byte offset (in `c`) of what follows the colon.
    fn split_key(c: &str) -> Option<(String, usize)> {
        if is_seq_item(c) || c.starts_with('#') {
            return None;
        }
        let (key, after) = match c.as_bytes().first()? {
            b'"' => {
                let (k, len) = double_quoted(c)?;
                (k, len + 2)
            }
            b'\'' => {
                let (k, len) = single_quoted(c)?;
                (k, len + 2)
            }
            b'[' | b'{' | b'&' | b'*' | b'!' | b'|' | b'>' | b'%' | b'@' | b'`' => return None,
            _ => {
                let bytes = c.as_bytes();
                let mut i = 0;
                loop {
                    if i >= bytes.len() {
                        return None;
                    }
                    if bytes[i] == b'#' && i > 0 && bytes[i - 1] == b' ' {
                        return None;
                    }
                    if bytes[i] == b':' && matches!(bytes.get(i + 1), None | Some(b' ')) {
                        break;
                    }
                    i += 1;
                }
                (c[..i].trim_end().to_string(), i)
            }
        };
        let tail = &c[after..];
        let gap = tail.len() - tail.trim_start_matches(' ').len();
        let tail = &tail[gap..];
        if tail == ":" {
            return Some((key, c.len()));
        }
        if tail.starts_with(':') && tail.as_bytes().get(1) == Some(&b' ') {
            return Some((key, after + gap + 1));
        }
        None
    }

    /// `"..."` at the start of `s`: the decoded value and the byte length inside the
    /// quotes; `None` when it does not close on this line.
    fn double_quoted(s: &str) -> Option<(String, usize)> {
        let inner = s.strip_prefix('"')?;
        let mut out = String::new();
        let mut chars = inner.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => return Some((out, i)),
                '\\' => {
                    let (_, e) = chars.next()?;
                    match e {
                        'n' => out.push('\n'),
                        't' => out.push('\t'),
                        'r' => out.push('\r'),
                        '0' => out.push('\0'),
                        '"' | '\\' | '/' | ' ' => out.push(e),
                        'x' | 'u' | 'U' => {
                            let n = match e {
                                'x' => 2,
                                'u' => 4,
                                _ => 8,
                            };
                            let hex: String = chars.by_ref().take(n).map(|p| p.1).collect();
                            let c = u32::from_str_radix(&hex, 16)
                                .ok()
                                .and_then(char::from_u32)
                                .unwrap_or('\u{fffd}');
                            out.push(c);
                        }
                        other => {
                            out.push('\\');
                            out.push(other);
                        }
                    }
                }
                c => out.push(c),
            }
        }
        None
    }

    /// `'...'` at the start of `s` (`''` is a quote).
    fn single_quoted(s: &str) -> Option<(String, usize)> {
        let inner = s.strip_prefix('\'')?;
        let mut out = String::new();
        let mut chars = inner.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c == '\'' {
                if chars.peek().map(|p| p.1) == Some('\'') {
                    chars.next();
                    out.push('\'');
                } else {
                    return Some((out, i));
                }
            } else {
                out.push(c);
            }
        }
        None
    }

    /// A one-line flow sequence of scalars, `[3, "a", b]`.
    fn flow_seq(s: &str, at: usize) -> Option<Node> {
        let mut items = Vec::new();
        let mut i = 1;
        let b = s.as_bytes();
        loop {
            while b.get(i) == Some(&b' ') {
                i += 1;
            }
            match *b.get(i)? {
                b']' => break,
                b'[' | b'{' => return None,
                b'"' | b'\'' => {
                    let q = &s[i..];
                    let (value, len) = if b[i] == b'"' {
                        double_quoted(q)?
                    } else {
                        single_quoted(q)?
                    };
                    items.push(Node::Scalar {
                        value,
                        range: at + i + 1..at + i + 1 + len,
                        quoted: true,
                    });
                    i += len + 2;
                }
                _ => {
                    let end = s[i..].find([',', ']'])? + i;
                    let v = s[i..end].trim_end();
                    items.push(Node::Scalar {
                        value: v.to_string(),
                        range: at + i..at + i + v.len(),
                        quoted: false,
                    });
                    i = end;
                }
            }
            while b.get(i) == Some(&b' ') {
                i += 1;
            }
            match *b.get(i)? {
                b',' => i += 1,
                b']' => break,
                _ => return None,
            }
        }
        let tail = s[i + 1..].trim_start();
        if !(tail.is_empty() || tail.starts_with('#')) {
            return None;
        }
        Some(Node::Seq {
            items,
            range: at..at + i + 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ptr(text: &str, p: &str) -> Option<Pointed> {
        json_pointer(text, &parse_pointer(p)?)
    }

    fn slice<'a>(text: &'a str, p: &Pointed) -> &'a str {
        &text[p.range.clone()]
    }

    #[test]
    fn json_pointer_finds_string_values() {
        let t = r#"{"some": {"nested": {"field": "The CPU is 2.5x faster", "n": 3}},
  "list": ["a", {"x": "deep"}], "a/b": "slash", "m~n": "tilde", "_citations": []}"#;
        let p = ptr(t, "/some/nested/field").unwrap();
        assert_eq!(slice(t, &p), "The CPU is 2.5x faster");
        assert_eq!(p.not_string, None);
        assert_eq!(slice(t, &ptr(t, "/list/1/x").unwrap()), "deep");
        assert_eq!(slice(t, &ptr(t, "/list/0").unwrap()), "a");
        assert_eq!(slice(t, &ptr(t, "/a~1b").unwrap()), "slash");
        assert_eq!(slice(t, &ptr(t, "/m~0n").unwrap()), "tilde");
        let n = ptr(t, "/some/nested/n").unwrap();
        assert_eq!((slice(t, &n), n.not_string), ("3", Some("a number")));
        let o = ptr(t, "/some/nested").unwrap();
        assert!(slice(t, &o).starts_with('{') && slice(t, &o).ends_with('}'));
        assert_eq!(ptr(t, "/some/missing"), None);
        assert_eq!(ptr(t, "/list/2"), None);
        assert_eq!(ptr(t, "/list/01"), None);
        assert_eq!(ptr(t, "/list/-"), None);
        assert_eq!(ptr(t, "some/nested"), None);
        assert_eq!(ptr(t, "/some/nested/field/x"), None);
        assert_eq!(ptr(t, "").unwrap().range, 0..t.len());
    }

    #[test]
    fn json_pointer_handles_escapes_and_unicode() {
        let t = "{\"k\\\"ey\": \"v\", \"\\u00e9t\\u00e9\": \"été ☀\", \"😀\": \"x\\\"y\", \"\\ud83d\\ude00b\": 1}";
        assert_eq!(slice(t, &ptr(t, "/k\"ey").unwrap()), "v");
        assert_eq!(slice(t, &ptr(t, "/été").unwrap()), "été ☀");
        assert_eq!(slice(t, &ptr(t, "/😀").unwrap()), "x\\\"y");
        assert_eq!(slice(t, &ptr(t, "/😀b").unwrap()), "1");
        assert_eq!(decode_json_string("a\\nb\\u0041\\ud800x"), "a\nbA\u{fffd}x");
        assert_eq!(decode_json_string("trailing\\"), "trailing\\");
    }

    #[test]
    fn json_pointer_never_panics_on_broken_text() {
        for t in [
            "",
            "{",
            "{\"a\"",
            "{\"a\":",
            "[1,",
            "\"abc",
            "{\"a\":[}",
            "]]]",
        ] {
            let _ = json_pointer(t, &["a".to_string()]);
            let _ = json_pointer(t, &["0".to_string()]);
            let _ = json_pointer(t, &[]);
        }
    }

    #[test]
    fn yaml_subset_maps_lists_and_scalars() {
        let t = "# answer\n---\ntitle: Fast CPUs\nsome:\n  nested:\n    field: \"The CPU is 2.5x faster\"\n    other: 'it''s'\n  plain: just text # comment\nitems:\n- first\n-   second\n- name: x\n  value: y\n_citations:\n  - path: /some/nested/field\n    sids: [3, 5]\n  - path: \"/items/1\"\n    sids:\n      - 2\n";
        let (root, problems) = yaml::parse(t);
        assert!(problems.is_empty(), "{problems:?}");
        let root = root.unwrap();
        let at = |p: &str| root.pointer(&parse_pointer(p).unwrap()).unwrap();
        assert_eq!(
            slice(t, &at("/some/nested/field")),
            "The CPU is 2.5x faster"
        );
        assert_eq!(slice(t, &at("/some/nested/other")), "it''s");
        assert_eq!(slice(t, &at("/some/plain")), "just text");
        assert_eq!(slice(t, &at("/items/1")), "second");
        assert_eq!(slice(t, &at("/items/2/value")), "y");
        assert_eq!(at("/items/2").not_string, Some("an object"));
        let side = root.get("_citations").unwrap().to_value();
        assert_eq!(
            side,
            serde_json::json!([
                {"path": "/some/nested/field", "sids": [3, 5]},
                {"path": "/items/1", "sids": [2]}
            ])
        );
    }

    #[test]
    fn yaml_block_scalars_and_continuations() {
        let t = "summary: |\n  Line one.\n  Line two.\n\nnote: >\n  folded\n  text\nlong: a plain\n  scalar over lines\nn: 42\n";
        let (root, problems) = yaml::parse(t);
        assert!(problems.is_empty(), "{problems:?}");
        let root = root.unwrap();
        let at = |p: &str| root.pointer(&parse_pointer(p).unwrap()).unwrap();
        assert_eq!(slice(t, &at("/summary")), "Line one.\n  Line two.");
        assert_eq!(slice(t, &at("/note")), "folded\n  text");
        assert_eq!(slice(t, &at("/long")), "a plain\n  scalar over lines");
        assert_eq!(at("/n").not_string, Some("a number"));
        assert_eq!(
            root.to_value(),
            serde_json::json!({"summary": "Line one.\nLine two.\n", "note": "folded text",
                "long": "a plain scalar over lines", "n": 42})
        );
    }

    #[test]
    fn yaml_unsupported_is_reported_not_fatal() {
        let (root, problems) = yaml::parse("a: {x: 1}\nb: &anchor text\nc: ok\n");
        assert_eq!(problems.len(), 2, "{problems:?}");
        let root = root.unwrap();
        assert!(root.get("c").is_some());
        let (_, problems) = yaml::parse("a: 1\n   b: 2\n");
        assert_eq!(problems, vec!["line 2: unexpected indentation".to_string()]);
        let (_, problems) = yaml::parse("a: \"open\n  quote\"\n");
        assert_eq!(problems.len(), 1);
        for t in [
            "",
            "-",
            "- - - x",
            ":",
            "a:",
            "[",
            "a: [1, [2]]",
            "- a: 1\n  - b",
            "\"k\": v",
        ] {
            let _ = yaml::parse(t);
        }
    }

    #[test]
    fn kinds_are_declared_or_sniffed() {
        let mut d = vec![];
        assert_eq!(content_kind(None, "  <p>x</p>", &mut d), ContentKind::Html);
        assert_eq!(content_kind(None, "{\"a\": 1}", &mut d), ContentKind::Json);
        assert_eq!(content_kind(None, "[1]", &mut d), ContentKind::Markdown);
        assert_eq!(
            content_kind(None, "[[S:1]] x", &mut d),
            ContentKind::Markdown
        );
        assert_eq!(
            content_kind(Some("YAML"), "a: b", &mut d),
            ContentKind::Yaml
        );
        assert_eq!(
            content_kind(Some("text"), "<p>", &mut d),
            ContentKind::Plain
        );
        assert!(d.is_empty());
        assert_eq!(
            content_kind(Some("json"), "```json\n{}\n```", &mut d),
            ContentKind::Markdown
        );
        assert_eq!(d[0].code, "invalid-content");
    }
}
