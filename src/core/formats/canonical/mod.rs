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
//!   `Draft::metadata`);
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

use crate::core::draft::{Draft, DraftSource};
#[cfg(feature = "answer-kinds")]
use crate::core::draft::{DraftSpan, SourceRef};
use crate::core::error::ParseError;
use crate::core::formats::support::{self, SourceReader};
use crate::core::json_fields::{as_uint, parse_json, type_name, wrong_type, Fields};
#[cfg(feature = "answer-kinds")]
use crate::core::limits::MAX_JSON_DEPTH;
use crate::core::markers::{Grammar, SourceKey, TextSyntax};
#[cfg(feature = "answer-kinds")]
use crate::core::model::Location;
use crate::core::model::{ContentKind, Diagnostic, Format};
use crate::core::options::Options;
use crate::core::ordered_hash::{OrderedHashMap, OrderedHashSet};
use crate::core::untrusted_text::clean_text;
use serde_json::{Map, Value};

#[cfg(feature = "answer-kinds")]
mod pointer;
#[cfg(feature = "answer-kinds")]
mod yaml;

#[cfg(feature = "answer-kinds")]
use pointer::{array_index, parse_pointer, JsonNode, Pointed};

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
                    text = Some(crate::core::json_output::to_pretty_json(v));
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
    #[cfg(not(feature = "answer-kinds"))]
    if matches!(
        kind,
        ContentKind::Html | ContentKind::Json | ContentKind::Yaml
    ) {
        return Ok(kind_not_loaded(kind, &text));
    }
    let mut draft = Draft::new(Format::Canonical, text);
    draft.content_kind = kind;
    draft.grammar = Some(grammar_for(kind));
    draft.metadata = meta;

    let mut by_sid: OrderedHashMap<u64, usize> = OrderedHashMap::new();
    for (items, name) in lists {
        for (i, item) in items.iter().enumerate() {
            let path = format!("{name}[{i}]");
            if let Some((sid, src)) = read_source(item, &path, &mut diags) {
                by_sid.or_insert(sid, draft.sources.len());
                draft.sources.push(src);
            }
        }
    }
    let mut used_seen = OrderedHashSet::new();
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

    #[cfg(feature = "answer-kinds")]
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

/// An HTML, JSON or YAML answer in a build without `answer-kinds` (the npm package's
/// first module, whose full module reads them): its text as plain text (HTML without
/// its tags and markers), no sources or citations, and a `format-not-loaded` error.
#[cfg(not(feature = "answer-kinds"))]
fn kind_not_loaded(kind: ContentKind, text: &str) -> Draft {
    let name = match kind {
        ContentKind::Html => "html",
        ContentKind::Json => "json",
        _ => "yaml",
    };
    let shown = if kind == ContentKind::Html {
        html_text(text)
    } else {
        text.to_string()
    };
    let mut draft = Draft::new(Format::Canonical, shown);
    draft.content_kind = ContentKind::Plain;
    draft.grammar = Some(grammar_for(ContentKind::Plain));
    draft.diagnostics.push(Diagnostic::error(
        "format-not-loaded",
        crate::core::str_ops::join(
            &mut [
                "canonical ",
                name,
                " answers need the `answer-kinds` feature, which this build of citekit does \
                 not include",
            ]
            .into_iter(),
            "",
        ),
    ));
    draft
}

/// The text of an HTML answer for a moment's plain display: tags, comments and the
/// contents of `<sup>` (markers), `<script>` and `<style>` left out; the text is shown
/// escaped, never as markup.
#[cfg(not(feature = "answer-kinds"))]
fn html_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(lt) = crate::core::str_ops::find_str(rest, "<") {
        out.push_str(&rest[..lt]);
        rest = &rest[lt..];
        // As the HTML tokenizer reads it: `<` starts markup only before a letter, `/`,
        // `!` or `?`; otherwise (`a < b`) it is text.
        if !rest
            .as_bytes()
            .get(1)
            .is_some_and(|&b| b.is_ascii_alphabetic() || matches!(b, b'/' | b'!' | b'?'))
        {
            out.push('<');
            rest = &rest[1..];
            continue;
        }
        // `<sup` and the like as a whole tag name (`<supplement>` is another element).
        let starts = |p: &str| {
            rest.as_bytes()
                .get(..p.len())
                .is_some_and(|b| b.eq_ignore_ascii_case(p.as_bytes()))
                && rest
                    .as_bytes()
                    .get(p.len())
                    .is_none_or(|b| !b.is_ascii_alphanumeric())
        };
        let skip_to = if rest.starts_with("<!--") {
            "-->"
        } else if starts("<sup") {
            "</sup>"
        } else if starts("<script") {
            "</script>"
        } else if starts("<style") {
            "</style>"
        } else {
            ">"
        };
        let end = find_ascii_ci(rest, skip_to).map_or(rest.len(), |i| i + skip_to.len());
        // A block's edge keeps words apart (`</p><p>`, `<br>`); an inline tag does not.
        let tag = &rest.as_bytes()[1..];
        if crate::core::commonmark::lines::html_block_6(tag) || starts("<br") || starts("<pre") {
            out.push(' ');
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    crate::core::str_ops::join(&mut out.split_whitespace(), " ")
}

/// Where `needle` (ASCII, lower case) first occurs in `hay`, ignoring ASCII case.
#[cfg(not(feature = "answer-kinds"))]
fn find_ascii_ci(hay: &str, needle: &str) -> Option<usize> {
    hay.as_bytes()
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
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
        Value::String(s) => match crate::core::str_ops::uint(s.trim()) {
            Some(n) => {
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
            None => {
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

#[cfg(feature = "answer-kinds")]
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

#[cfg(feature = "answer-kinds")]
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

#[cfg(feature = "answer-kinds")]
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

#[cfg(feature = "answer-kinds")]
/// A `missing-field` warning.
fn missing(path: &str, what: &str) -> Diagnostic {
    Diagnostic::warning("missing-field", format!("`{path}` is missing; {what}")).at_path(path)
}

#[cfg(feature = "answer-kinds")]
/// Sids from `[3, 5]`, `["3", "5"]`, `3` or `"3, 5"`; others reported.
fn sid_list(v: &Value, path: &str, diags: &mut Vec<Diagnostic>) -> Vec<u64> {
    let mut out = Vec::new();
    let mut seen = OrderedHashSet::new();
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
                match crate::core::str_ops::uint(part.trim()) {
                    Some(n) => push(n),
                    None => {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Without `answer-kinds` (`cargo test --no-default-features --lib`, as `npm test`
    /// runs it): HTML, JSON and YAML answers show their text, without citations, with a
    /// `format-not-loaded` error; markdown answers are read as always.
    #[cfg(not(feature = "answer-kinds"))]
    #[test]
    fn html_json_and_yaml_answers_without_answer_kinds() {
        use serde_json::json;
        let sources = json!([{"sid": 1, "title": "T", "url": "https://t.example/"}]);
        let cases = [
            (
                "html",
                "<p>Paris <b>is</b> big<sup class=\"cite\" data-sids=\"1\">[S:1]</sup>.</p>\
                 <script>alert(1)</script><!-- c --><style>p{}</style><p>Second</p>",
                "Paris is big. Second",
            ),
            ("json", "{\"a\": \"b\"}", "{\"a\": \"b\"}"),
            ("yaml", "a: b", "a: b"),
        ];
        for (kind, content, shown) in cases {
            let data =
                json!({"ok": true, "content": content, "format": kind, "sources_used": sources});
            let d = parse(None, Some(&data), &Options::default()).unwrap();
            assert_eq!(d.text, shown, "{kind}");
            assert_eq!(d.content_kind, ContentKind::Plain, "{kind}");
            assert!(d.spans.is_empty() && d.sources.is_empty(), "{kind}");
            let e = d.diagnostics.iter().find(|d| d.code == "format-not-loaded");
            let message = &e
                .unwrap_or_else(|| panic!("{kind}: {:?}", d.diagnostics))
                .message;
            assert!(
                message.starts_with(&format!("canonical {kind} answers need")),
                "{message}"
            );
        }
        // An unclosed tag or marker ends the text, in linear time.
        assert_eq!(html_text("a <sup>b"), "a");
        assert_eq!(
            html_text("<supplement>kept</supplement> <SUP>1</SUP>."),
            "kept ."
        );
        assert_eq!(html_text(&"<i>".repeat(50_000)), "");
        // A `<` that starts no markup is text, as a browser reads it.
        assert_eq!(
            html_text("<p>1 < 2 and 3 <4, 5 <</p>"),
            "1 < 2 and 3 <4, 5 <"
        );
        assert_eq!(html_text(&"a < ".repeat(20_000)).len(), 79_999);
        let md =
            json!({"content": "Paris [[S:1]].", "format": "markdown", "sources_used": sources});
        let d = parse(None, Some(&md), &Options::default()).unwrap();
        assert!(d.diagnostics.iter().all(|d| d.code != "format-not-loaded"));
        assert_eq!(d.sources.len(), 1);
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
