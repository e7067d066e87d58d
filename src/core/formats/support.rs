//! Helpers shared by the format parsers: reading a loosely typed source object,
//! telling urls from file paths, converting explicit spans from the input's unit to
//! bytes, and the source/citation limits.

use crate::core::draft::{Draft, DraftSource, DraftSpan};
use crate::core::json_fields::Fields;
use crate::core::limits::{MAX_CITATIONS, MAX_CITATIONS_NAME, MAX_SOURCES, MAX_SOURCES_NAME};
use crate::core::markers::{Grammar, TextSyntax};
use crate::core::model::{Diagnostic, Source};
use crate::core::offsets::{OffsetIndex, OffsetProblem, PositionEncoding};
use crate::core::untrusted_text::{clean_text, domain_of, excerpt200, sanitize_url, UrlContext};
use serde_json::{Map, Value};

/// What a url-like field (`url`, `uri`, `source`) held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Link {
    /// A safe `http(s)` url, sanitized.
    Url(String),
    /// A file path or another scheme-less name (`docs/CLAUDE.md`).
    Path(String),
    /// A url with a scheme other than http(s) (`javascript:`, `data:`); the scheme.
    Unsafe(String),
    /// Nothing usable (empty, or a placeholder like `Unknown`).
    Empty,
}

/// The scheme of `s` (`https`, `javascript`), if it starts with one. A single letter
/// before `:` is a Windows drive (`C:\docs`), not a scheme.
fn scheme_of(s: &str) -> Option<&str> {
    let colon = crate::core::str_ops::find_str(s, ":")?;
    let scheme = &s[..colon];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    if !first.is_ascii_alphabetic() || scheme.len() < 2 {
        return None;
    }
    chars
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        .then_some(scheme)
}

/// Tells a url from a path. Control characters and tabs inside the value are ignored
/// when looking for the scheme, as browsers do (`java\tscript:` is `javascript:`).
pub(crate) fn classify_link(raw: &str) -> Link {
    let trimmed = raw.trim_matches(|c: char| c <= ' ' || c == '\u{7f}');
    if trimmed.is_empty() || trimmed.eq_ignore_ascii_case("unknown") {
        return Link::Empty;
    }
    if let Some(url) = sanitize_url(trimmed, UrlContext::Source) {
        return Link::Url(url);
    }
    // Invisible characters around or inside the scheme (a no-break space, a zero-width
    // space, a bidi mark) must not turn `javascript:` into an innocent-looking path.
    let squeezed: String = trimmed
        .trim_start_matches(|c: char| c.is_whitespace() || invisible(c))
        .chars()
        .filter(|c| !c.is_control() && !invisible(*c))
        .collect();
    // `\u{a0}https://example.com` is an http(s) url behind an invisible character.
    if let Some(url) = sanitize_url(&squeezed, UrlContext::Source) {
        return Link::Url(url);
    }
    if let Some(scheme) = scheme_of(&squeezed) {
        return Link::Unsafe(scheme.to_ascii_lowercase());
    }
    if squeezed.starts_with("//") || squeezed.starts_with("\\\\") {
        return Link::Unsafe("//".to_string());
    }
    Link::Path(clean_text(trimmed))
}

/// Characters that show as nothing: zero-width spaces and joiners, the byte order
/// mark, bidi controls.
fn invisible(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}')
        || crate::core::untrusted_text::is_bidi_control(c)
}

/// Every marker syntax of the grammar, over text of `syntax`: models mix syntaxes
/// (`[[S:1,4]]` in an answer whose data numbers its sources `[1]`), and a marker that
/// is not read would reach the reader as raw text.
pub(crate) fn every_marker(syntax: TextSyntax) -> Grammar {
    Grammar {
        syntax,
        ..Grammar::ALL
    }
}

/// Sets `src.url` from a url-like value, or keeps a path in its metadata (`url`), or
/// reports an unsafe url at `path`.
#[cfg(any(feature = "providers", feature = "platforms"))]
pub(crate) fn apply_url(src: &mut Source, raw: &str, path: &str, diags: &mut Vec<Diagnostic>) {
    match classify_link(raw) {
        Link::Url(u) => src.url = Some(u),
        Link::Unsafe(scheme) => diags.push(unsafe_url(path, &scheme)),
        Link::Path(p) => {
            src.metadata.insert("url".into(), Value::String(p));
        }
        Link::Empty => {}
    }
}

/// The `unsafe-url` warning; the message names the scheme, never the url itself.
pub(crate) fn unsafe_url(path: &str, scheme: &str) -> Diagnostic {
    let what = if scheme == "//" {
        "a scheme-relative url".to_string()
    } else {
        format!("a `{scheme}:` url")
    };
    Diagnostic::warning(
        "unsafe-url",
        format!("`{path}` is {what}; only http and https are linked; the link is dropped, the source kept"),
    )
    .at_path(path)
}

/// The last segment of a path (`docs/CLAUDE.md` → `CLAUDE.md`).
pub(crate) fn file_name(path: &str) -> &str {
    let trimmed = path.trim_end_matches(['/', '\\']);
    trimmed.rsplit(['/', '\\']).next().unwrap_or(trimmed)
}

/// A cleaned, non-empty title.
pub(crate) fn title(raw: &str) -> Option<String> {
    Some(clean_text(raw)).filter(|t| !t.is_empty())
}

/// Sets `snippet` from `text` (an excerpt of 200 characters at most) and, when the
/// excerpt had to be cut, keeps the whole text as `content` (unless set already).
pub(crate) fn set_text(src: &mut Source, text: &str) {
    let snippet = excerpt200(text);
    if snippet.is_empty() {
        return;
    }
    if snippet != clean_text(text) && src.content.is_none() {
        src.content = Some(text.to_string());
    }
    src.snippet = Some(snippet);
}

/// The id a source gets from a JSON id value (strings trimmed, numbers as text).
pub(crate) fn id_text(v: &Value) -> Option<String> {
    let s = match v {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    (!s.is_empty()).then_some(s)
}

/// Reads one source object leniently: the fields many formats share, each under the
/// names they go by, plus the nested `metadata` object (flattened into
/// `Source::metadata`). Whatever is not read ends up in `metadata`.
pub(crate) struct SourceReader<'a> {
    map: &'a Map<String, Value>,
    /// The field reader; callers read their format's own fields through it.
    pub fields: Fields<'a>,
    /// The source being built.
    pub src: Source,
    /// Fields to add to `metadata` besides the unread ones.
    extra: Map<String, Value>,
}

impl<'a> SourceReader<'a> {
    /// A reader over `map`, which sits at `path` (`sources[2]`).
    pub fn new(map: &'a Map<String, Value>, path: impl Into<String>) -> Self {
        SourceReader {
            map,
            fields: Fields::new(map, path),
            src: Source::default(),
            extra: Map::new(),
        }
    }

    /// The path of a field of this object.
    pub fn path_of(&self, key: &str) -> String {
        self.fields.path_of(key)
    }

    /// Keeps `value` in `metadata` under `key`.
    #[cfg(any(feature = "scintilla", feature = "payload", feature = "platforms"))]
    pub fn keep(&mut self, key: &str, value: Value) {
        self.extra.insert(key.to_string(), value);
    }

    /// Applies a url-like value read from `key`: a safe url sets `url` (and kind
    /// `web`), a path is kept in `metadata[key]` (kind `file`, the file name as title
    /// fallback), an unsafe url is dropped with a diagnostic.
    pub fn link(&mut self, key: &str, raw: &str, diags: &mut Vec<Diagnostic>) {
        match classify_link(raw) {
            Link::Url(u) => {
                if self.src.url.is_none() {
                    self.src.url = Some(u);
                } else {
                    self.extra.insert(key.to_string(), Value::String(u));
                }
            }
            Link::Path(p) => {
                self.extra.insert(key.to_string(), Value::String(p));
            }
            Link::Unsafe(scheme) => diags.push(unsafe_url(&self.path_of(key), &scheme)),
            Link::Empty => {}
        }
    }

    /// Reads the fields most source shapes share: `url`/`uri`/`link`/`href`,
    /// `title`/`name`, `domain`, `snippet`, `fullContent`/`content`/`text`,
    /// `pageNumber`/`page`, `score`, `provider`/`toolName`, `type`/`kind`/`source_type`,
    /// publication and modification times, and a nested `metadata` object.
    pub fn common(&mut self, diags: &mut Vec<Diagnostic>) {
        for key in ["url", "uri", "link", "href"] {
            if let Some(v) = self.fields.value(key) {
                match v {
                    Value::String(s) => self.link(key, s, diags),
                    other => diags.push(crate::core::json_fields::wrong_type(
                        &self.path_of(key),
                        "a string",
                        other,
                    )),
                }
            }
        }
        if let Some(t) = self.fields.string_any(&["title", "name"], diags) {
            self.src.title = title(&t);
        }
        if let Some(d) = self.fields.string("domain", diags) {
            self.src.domain = Some(clean_text(&d).to_ascii_lowercase()).filter(|d| !d.is_empty());
        }
        let snippet = self
            .fields
            .string_any(&["snippet", "excerpt", "summary"], diags);
        let content = self
            .fields
            .string_any(&["fullContent", "full_content", "content", "text"], diags);
        if let Some(c) = &content {
            if !c.is_empty() {
                self.src.content = Some(c.clone());
            }
        }
        match (&snippet, &content) {
            (Some(s), _) if !s.trim().is_empty() => set_text(&mut self.src, s),
            (_, Some(c)) => set_text(&mut self.src, c),
            _ => {}
        }
        if let Some(p) = self
            .fields
            .uint_any(&["pageNumber", "page_number", "page"], diags)
        {
            self.src.page = Some(p);
        }
        if let Some(s) = self.fields.number("score", diags) {
            self.src.score = Some(s);
        }
        if let Some(p) = self
            .fields
            .string_any(&["provider", "toolName", "tool_name"], diags)
        {
            self.src.provider = title(&p);
        }
        if let Some(k) = self
            .fields
            .string_any(&["type", "kind", "source_type"], diags)
        {
            let k = clean_text(&k);
            if !k.is_empty() {
                self.src.kind = k;
            }
        }
        if let Some(p) = self.fields.string_any(
            &["published", "publishedDate", "published_time_iso", "date"],
            diags,
        ) {
            self.src.published = title(&p);
        }
        if let Some(m) = self.fields.string_any(
            &[
                "modified",
                "last_updated",
                "lastUpdated",
                "modified_time_iso",
            ],
            diags,
        ) {
            self.src.modified = title(&m);
        }
        if let Some(Value::Object(meta)) = self.map.get("metadata") {
            self.fields.value("metadata");
            let path = self.path_of("metadata");
            let mut inner = Fields::new(meta, path);
            if self.src.page.is_none() {
                if let Some(p) = inner.uint_any(&["page", "pageNumber", "page_number"], diags) {
                    self.src.page = Some(p);
                }
            }
            for (k, v) in inner.rest() {
                self.extra.entry(k).or_insert(v);
            }
        }
    }

    /// The source: `metadata` holds every field not read, `domain` comes from the url
    /// when not given, `kind` is `web` with a url, `file` with a path, else `default_kind`.
    pub fn finish(self, default_kind: &str) -> Source {
        let mut src = self.src;
        let mut meta = self.fields.rest();
        for (k, v) in self.extra {
            meta.entry(k).or_insert(v);
        }
        src.metadata = meta;
        finish_source(&mut src, default_kind);
        src
    }
}

/// Fills `domain` from the url, `kind` when empty, and the title of a file source
/// from its path (`metadata.source`, `metadata.uri`, ...).
pub(crate) fn finish_source(src: &mut Source, default_kind: &str) {
    if src.domain.is_none() {
        src.domain = match src.url.as_deref() {
            // A Gemini grounding chunk forwarded by another format (an AI SDK source part).
            Some(u) if u.starts_with(GROUNDING_REDIRECT) => {
                src.title.as_deref().and_then(title_domain)
            }
            u => u.and_then(domain_of),
        };
    }
    let path = ["source", "uri", "path", "file", "url", "link"]
        .iter()
        .find_map(|k| src.metadata.get(*k).and_then(Value::as_str))
        .filter(|p| !matches!(classify_link(p), Link::Url(_)))
        .map(str::to_string);
    if src.kind.is_empty() {
        src.kind = if src.url.is_some() {
            "web".to_string()
        } else if path.is_some() {
            "file".to_string()
        } else {
            default_kind.to_string()
        };
    }
    if src.title.is_none() {
        if let Some(p) = &path {
            src.title = title(file_name(p));
        }
    }
}

/// Where Vertex AI grounding sends readers through a redirect: such a url's host says
/// nothing of the page; its chunk is titled with the page's domain instead.
pub(crate) const GROUNDING_REDIRECT: &str =
    "https://vertexaisearch.cloud.google.com/grounding-api-redirect/";

/// The title as a domain when it is one (`en.wikipedia.org`, `www.nasa.gov`).
pub(crate) fn title_domain(t: &str) -> Option<String> {
    let t = t.trim().to_ascii_lowercase();
    let labels: Vec<&str> = crate::core::str_ops::split(&t, ".").collect();
    let ok = t.len() <= 253
        && labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
        && labels
            .last()
            .is_some_and(|l| l.len() >= 2 && l.bytes().all(|b| b.is_ascii_alphabetic()));
    ok.then(|| t.strip_prefix("www.").unwrap_or(&t).to_string())
}

/// Keeps the first [`MAX_SOURCES`] sources, with a `limit-exceeded` warning when more
/// were given.
/// For a data object that may also carry the answer: when no answer was given, the
/// first string among `text_keys` becomes the draft's text; every field that is not
/// in `known` (nor that text) goes to the draft's answer-level metadata.
pub(crate) fn take_text_and_metadata(
    o: &Map<String, Value>,
    answer_given: bool,
    text_keys: &[&str],
    known: &[&str],
    draft: &mut Draft,
) {
    let mut text_key = None;
    if !answer_given {
        if let Some((k, t)) = text_keys
            .iter()
            .find_map(|k| o.get(*k).and_then(Value::as_str).map(|t| (*k, t)))
        {
            draft.text = t.to_string();
            text_key = Some(k);
        }
    }
    for (k, v) in o {
        if !known.contains(&k.as_str()) && Some(k.as_str()) != text_key {
            draft.metadata.insert(k.clone(), v.clone());
        }
    }
}

/// Makes the caller's answer text the draft's text (the caller's text wins over the
/// text the data carries; docs/resolution.md, "Whose text"). The draft's spans index
/// the data's text: they stay when it is the same text; otherwise each one is looked
/// up by the text it covers (a point by the text before it, back to the start of its
/// sentence), after the previous one placed, and placed there; one whose text
/// is not in the caller's answer is dropped with a `span-not-placed` warning (its
/// sources stay, uncited by it). Diagnostics that pointed into the data's text lose
/// their positions (they keep their data path).
pub(crate) fn use_caller_text(draft: &mut Draft, caller: &str) {
    if draft.text == caller {
        return;
    }
    let data_text = std::mem::replace(&mut draft.text, caller.to_string());
    for d in &mut draft.diagnostics {
        d.start = None;
        d.end = None;
    }
    // The previous span placed: where its text starts and ends in the data's text and
    // in the caller's. The next one is looked for after it (a repeated phrase cited
    // twice is two places, not the first one twice), or at the same distance into it
    // when the two overlap in the data.
    let mut prev: Option<(usize, usize, usize, usize)> = None;
    let spans = std::mem::take(&mut draft.spans);
    let mut unplaced = 0usize;
    let mut budget = caller
        .len()
        .max(1024)
        .saturating_mul(crate::core::limits::MAX_SPAN_SEARCH_FACTOR);
    let total = spans.len();
    for (n, mut span) in spans.into_iter().enumerate() {
        if budget == 0 {
            draft.diagnostics.push(Diagnostic::warning(
                "limit-exceeded",
                format!(
                    "re-placing the data's spans in the answer given searched more than `{}` ({}x the answer's length); {} spans were dropped",
                    crate::core::limits::MAX_SPAN_SEARCH_NAME,
                    crate::core::limits::MAX_SPAN_SEARCH_FACTOR,
                    total - n
                ),
            ));
            break;
        }
        let (s, e) = (
            span.start.min(data_text.len()),
            span.end.min(data_text.len()),
        );
        let point = s == e;
        let from = if !data_text.is_char_boundary(s) || !data_text.is_char_boundary(e) {
            e
        } else if point {
            crate::core::resolve::span_start(&data_text, e, 0)
        } else {
            s
        };
        let quote = data_text.get(from..e).unwrap_or("");
        let cursor = crate::core::offsets::floor_boundary(
            caller,
            match prev {
                Some((_, data_end, _, caller_end)) if from >= data_end => caller_end,
                Some((data_start, _, at, _)) if from >= data_start => at + (from - data_start),
                _ => 0,
            },
        );
        let found = (!quote.trim().is_empty())
            .then(|| {
                let after = caller
                    .get(cursor..)
                    .and_then(|rest| crate::core::str_ops::find_str(rest, quote))
                    .map(|i| cursor + i);
                let scanned = after.map_or(caller.len() - cursor, |at| at - cursor);
                budget = budget.saturating_sub(scanned + quote.len());
                after.or_else(|| {
                    budget = budget.saturating_sub(cursor + quote.len());
                    crate::core::str_ops::find_str(caller, quote)
                })
            })
            .flatten();
        match found {
            Some(at) => {
                let end = at + quote.len();
                span.start = if point { end } else { at };
                span.end = end;
                prev = Some((from, e, at, end));
                draft.spans.push(span);
            }
            None => {
                unplaced += 1;
                if unplaced <= 100 {
                    let shown: String = quote.chars().take(60).collect();
                    let more = if shown.len() < quote.len() { "…" } else { "" };
                    let what = if quote.trim().is_empty() {
                        "a citation covers no text of the data's own".to_string()
                    } else {
                        format!(
                            "a citation covers \"{}{more}\" of the data's own text, which is not in the answer given",
                            clean_text(&shown)
                        )
                    };
                    draft.diagnostics.push(Diagnostic::warning(
                        "span-not-placed",
                        format!("{what}; its span is dropped, its sources kept"),
                    ));
                }
            }
        }
    }
    if unplaced > 100 {
        draft.diagnostics.push(Diagnostic::warning(
            "span-not-placed",
            format!(
                "{} more citations whose text is not in the answer given were not reported",
                unplaced - 100
            ),
        ));
    }
}

/// A `missing-field` warning for `path`: the item is skipped.
#[cfg(feature = "providers")]
pub(crate) fn missing(path: &str) -> Diagnostic {
    Diagnostic::warning(
        "missing-field",
        format!("`{path}` is missing; the item is skipped"),
    )
    .at_path(path)
}

pub(crate) fn cap_sources(draft: &mut Draft) {
    if draft.sources.len() > MAX_SOURCES {
        let n = draft.sources.len();
        draft.sources.truncate(MAX_SOURCES);
        draft.diagnostics.push(Diagnostic::warning(
            "limit-exceeded",
            format!(
                "{n} sources given; the limit `{MAX_SOURCES_NAME}` keeps the first {MAX_SOURCES}"
            ),
        ));
    }
}

/// Keeps the first [`MAX_CITATIONS`] spans, with a `limit-exceeded` warning.
pub(crate) fn cap_spans(draft: &mut Draft) {
    if draft.spans.len() > MAX_CITATIONS {
        let n = draft.spans.len();
        draft.spans.truncate(MAX_CITATIONS);
        draft.diagnostics.push(Diagnostic::warning(
            "limit-exceeded",
            format!(
                "{n} citations given; the limit `{MAX_CITATIONS_NAME}` keeps the first {MAX_CITATIONS}"
            ),
        ));
    }
}

/// A draft source with `keys`, `given_number` set from `number`.
pub(crate) fn numbered(source: Source, number: Option<u64>) -> DraftSource {
    DraftSource {
        source,
        keys: number
            .map(crate::core::markers::SourceKey::Num)
            .into_iter()
            .collect(),
        given_number: number.and_then(|n| u32::try_from(n).ok()),
    }
}

/// Converts a span given in `ix`'s unit to bytes of its text. Out-of-range ends are
/// clamped (`span-out-of-range`), ends inside a character move to its start
/// (`span-not-on-boundary`), a reversed span is swapped; an empty one is a point (the
/// resolver widens it as it would a marker there), unless it is empty only because it
/// lay past the end of the text: then it is dropped (`span-empty`). Diagnostics carry `path` and the repaired byte range.
pub(crate) fn byte_span(
    ix: &OffsetIndex<'_>,
    encoding: PositionEncoding,
    start: u64,
    end: u64,
    path: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<(usize, usize)> {
    let unit = encoding.name();
    let len = ix.len_units();
    let to_usize = |u: u64| usize::try_from(u).unwrap_or(usize::MAX);
    let (mut s, ps) = ix.to_byte(to_usize(start));
    let (mut e, pe) = ix.to_byte(to_usize(end));
    let mut out: Vec<Diagnostic> = Vec::new();
    if ps == Some(OffsetProblem::OutOfRange) || pe == Some(OffsetProblem::OutOfRange) {
        out.push(Diagnostic::warning(
            "span-out-of-range",
            format!(
                "`{path}` spans {start}..{end} but the text is {len} {unit} units long; clamped"
            ),
        ));
    }
    if ps == Some(OffsetProblem::NotOnBoundary) || pe == Some(OffsetProblem::NotOnBoundary) {
        out.push(Diagnostic::warning(
            "span-not-on-boundary",
            format!(
                "`{path}` spans {start}..{end} ({unit}), which splits a character; moved to its start"
            ),
        ));
    }
    if s > e {
        std::mem::swap(&mut s, &mut e);
        out.push(Diagnostic::warning(
            "span-empty",
            format!("`{path}` is reversed ({start}..{end}); swapped"),
        ));
    } else if s == e {
        let out_of_range = out.iter().any(|d| d.code == "span-out-of-range");
        // A point inside the text stands where a marker would; one that only exists
        // because the span fell off the end of the text says nothing about where.
        out.push(if out_of_range {
            Diagnostic::warning(
                "span-empty",
                format!("`{path}` is empty ({start}..{end}) past the end of the text; dropped"),
            )
        } else {
            Diagnostic::info(
                "span-empty",
                format!(
                    "`{path}` is empty ({start}..{end}); it covers the text before it, as a marker there would"
                ),
            )
        });
        diags.extend(out.into_iter().map(|d| d.at_path(path).at(s, e)));
        return (!out_of_range).then_some((s, s));
    }
    diags.extend(out.into_iter().map(|d| d.at_path(path).at(s, e)));
    Some((s, e))
}

/// Pushes a span unless its sources are empty.
pub(crate) fn push_span(draft: &mut Draft, span: DraftSpan) {
    if !span.sources.is_empty() {
        draft.spans.push(span);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links() {
        assert_eq!(
            classify_link("https://react.dev/blog"),
            Link::Url("https://react.dev/blog".into())
        );
        assert_eq!(
            classify_link("docs/CLAUDE.md"),
            Link::Path("docs/CLAUDE.md".into())
        );
        assert_eq!(
            classify_link("C:\\docs\\a.pdf"),
            Link::Path("C:\\docs\\a.pdf".into())
        );
        assert_eq!(
            classify_link("javascript:alert(1)"),
            Link::Unsafe("javascript".into())
        );
        assert_eq!(
            classify_link("java\tscript:alert(1)"),
            Link::Unsafe("javascript".into())
        );
        assert_eq!(
            classify_link("data:text/html,x"),
            Link::Unsafe("data".into())
        );
        assert_eq!(classify_link("//evil.com"), Link::Unsafe("//".into()));
        assert_eq!(
            classify_link("\u{a0}\u{200b}JavaScript:alert(1)"),
            Link::Unsafe("javascript".into())
        );
        assert_eq!(
            classify_link("\u{1}\u{7f} data:text/html,x"),
            Link::Unsafe("data".into())
        );
        assert_eq!(
            classify_link("\u{a0}https://a.example/x"),
            Link::Url("https://a.example/x".into())
        );
        assert_eq!(classify_link("Unknown"), Link::Empty);
        assert_eq!(classify_link("  "), Link::Empty);
        assert_eq!(file_name("docs/core/CLAUDE.md"), "CLAUDE.md");
        assert_eq!(file_name("C:\\a\\b.pdf"), "b.pdf");
        assert_eq!(file_name("plain"), "plain");
    }

    #[test]
    fn spans_are_repaired() {
        let t = "😀 abc";
        let ix = OffsetIndex::new(t, PositionEncoding::Utf16);
        let mut d = vec![];
        assert_eq!(
            byte_span(&ix, PositionEncoding::Utf16, 3, 6, "r", &mut d),
            Some((5, 8))
        );
        assert!(d.is_empty());
        assert_eq!(
            byte_span(&ix, PositionEncoding::Utf16, 1, 6, "r", &mut d),
            Some((0, 8))
        );
        assert_eq!(d[0].code, "span-not-on-boundary");
        d.clear();
        assert_eq!(
            byte_span(&ix, PositionEncoding::Utf16, 3, 60, "r", &mut d),
            Some((5, 8))
        );
        assert_eq!(d[0].code, "span-out-of-range");
        d.clear();
        assert_eq!(
            byte_span(&ix, PositionEncoding::Utf16, 6, 3, "r", &mut d),
            Some((5, 8))
        );
        assert_eq!(d[0].code, "span-empty");
        d.clear();
        assert_eq!(
            byte_span(&ix, PositionEncoding::Utf16, 4, 4, "r", &mut d),
            Some((6, 6))
        );
        assert_eq!(d[0].code, "span-empty");
        assert_eq!(d[0].severity, crate::core::model::Severity::Info);
        d.clear();
        assert_eq!(
            byte_span(
                &ix,
                PositionEncoding::Utf16,
                u64::MAX,
                u64::MAX,
                "r",
                &mut d
            ),
            None
        );
        assert_eq!(d.len(), 2);
    }

    #[test]
    fn spans_follow_the_callers_text() {
        use crate::core::draft::{DraftSpan, SourceRef};
        use crate::core::model::Format;
        let mut d = Draft::new(Format::Openai, "One two. Three four.");
        d.spans = vec![
            DraftSpan::new(9, 19, vec![SourceRef::Index(0)]),
            DraftSpan::new(8, 8, vec![SourceRef::Index(0)]),
            DraftSpan::new(0, 3, vec![SourceRef::Index(0)]),
        ];
        d.diagnostics.push(Diagnostic::warning("x", "y").at(1, 2));
        let caller = "Intro. One two. Three four. Nothing else.";
        use_caller_text(&mut d, caller);
        assert_eq!(d.text, caller);
        let placed: Vec<&str> = d.spans.iter().map(|s| &caller[s.start..s.end]).collect();
        assert_eq!(placed, vec!["Three four", "", "One"]);
        // The point stands after the sentence it followed in the data's text.
        assert_eq!(d.spans[1].end, 15);
        assert_eq!(d.diagnostics[0].start, None);
    }

    /// A phrase cited twice in the data is placed twice in the caller's text, each
    /// after the one before (both landed on its first copy); spans that overlap in the
    /// data overlap in the caller's text.
    #[test]
    fn repeated_text_is_placed_in_order() {
        use crate::core::draft::{DraftSpan, SourceRef};
        use crate::core::model::Format;
        let mut d = Draft::new(Format::Openai, "Yes. Then again: Yes. And Yes.");
        d.spans = vec![
            DraftSpan::new(0, 3, vec![SourceRef::Index(0)]),
            DraftSpan::new(17, 20, vec![SourceRef::Index(1)]),
            DraftSpan::new(17, 21, vec![SourceRef::Index(1)]),
            DraftSpan::new(26, 29, vec![SourceRef::Index(0)]),
        ];
        let caller = "# Title\n\nYes. Then again: Yes. And Yes.";
        use_caller_text(&mut d, caller);
        let placed: Vec<(usize, usize)> = d.spans.iter().map(|s| (s.start, s.end)).collect();
        assert_eq!(placed, vec![(9, 12), (26, 29), (26, 30), (35, 38)]);
    }

    #[test]
    fn replacing_spans_is_bounded() {
        use crate::core::draft::{DraftSpan, SourceRef};
        use crate::core::model::Format;
        let data_text = "b".repeat(2_000);
        let mut d = Draft::new(Format::Openai, data_text);
        d.spans = (0..20_000)
            .map(|i| DraftSpan::new(i % 1_000, i % 1_000 + 1_000, vec![SourceRef::Index(0)]))
            .collect();
        let caller = "a".repeat(200_000);
        let t = std::time::Instant::now();
        use_caller_text(&mut d, &caller);
        assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
        assert!(d.spans.is_empty());
        let limit = d
            .diagnostics
            .iter()
            .find(|x| x.code == "limit-exceeded")
            .expect("the search limit is reported");
        assert!(
            limit.message.contains("max_span_search"),
            "{}",
            limit.message
        );
        let not_placed = d
            .diagnostics
            .iter()
            .filter(|x| x.code == "span-not-placed")
            .count();
        assert!(not_placed <= 101, "{not_placed}");
    }

    #[test]
    fn text_keeps_content_when_cut() {
        let mut s = Source::default();
        set_text(&mut s, "short");
        assert_eq!(s.snippet.as_deref(), Some("short"));
        assert_eq!(s.content, None);
        let long = "word ".repeat(100);
        let mut s = Source::default();
        set_text(&mut s, &long);
        assert!(s.snippet.as_deref().unwrap().ends_with('…'));
        assert_eq!(s.content.as_deref(), Some(long.as_str()));
    }
}
