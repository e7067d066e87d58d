//! The CommonMark spec examples (`tests/specs/commonmark/spec.txt`, version 0.31.2,
//! CC BY-SA 4.0: the README beside it says where it comes from) and how a failing
//! example is classified. Shared by `tests/commonmark_host.rs` and the browser test
//! `tests/commonmark.rs`, which include this file with `#[path]`.
#![allow(dead_code)]

use citekit::core::markers::{scan, Grammar};
use pulldown_cmark::{Event, Parser, Tag};

/// One spec example.
#[derive(Debug, Clone)]
pub struct Example {
    /// Its number in the spec (1-based, as on spec.commonmark.org).
    pub number: usize,
    /// The section it stands in.
    pub section: String,
    /// The markdown input (tabs restored).
    pub markdown: String,
    /// The expected HTML.
    pub html: String,
}

/// Where the spec is kept (the browser test compiles in the same file).
pub const SPEC_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/specs/commonmark/spec.txt"
);

const FENCE: &str = "````````````````````````````````";

/// The examples of `spec.txt`, read as the spec's own test tools read them: a line of 32
/// backticks and ` example` opens one, a line `.` separates markdown from HTML, 32
/// backticks close it; `#` lines outside examples name the section; nothing after
/// `<!-- END TESTS -->` counts. `→` stands for a tab in the spec.
pub fn examples(spec: &str) -> Vec<Example> {
    let spec = spec.replace("\r\n", "\n");
    let spec = match spec.find("\n<!-- END TESTS -->") {
        Some(i) => &spec[..i + 1],
        None => &spec[..],
    };
    let open = format!("{FENCE} example");
    let mut out = Vec::new();
    let mut section = String::new();
    // 0: outside, 1: markdown, 2: html.
    let mut state = 0;
    let (mut md, mut html) = (String::new(), String::new());
    for line in spec.split_inclusive('\n') {
        let bare = line.strip_suffix('\n').unwrap_or(line);
        match state {
            0 if bare == open => {
                state = 1;
                md.clear();
                html.clear();
            }
            0 => {
                let hashes = bare.bytes().take_while(|&b| b == b'#').count();
                if (1..=6).contains(&hashes) {
                    section = bare[hashes..].trim_start_matches(' ').to_string();
                }
            }
            1 if bare == "." => state = 2,
            1 => md.push_str(line),
            _ if bare == FENCE => {
                state = 0;
                out.push(Example {
                    number: out.len() + 1,
                    section: section.clone(),
                    markdown: md.replace('→', "\t"),
                    html: html.replace('→', "\t"),
                });
            }
            _ => html.push_str(line),
        }
    }
    out
}

/// True when the example holds a citation marker of the numeric grammar (`[1]`-like
/// text, GFM footnotes): those examples mean something else to citekit.
pub fn has_marker(md: &str) -> bool {
    !scan(md, &Grammar::NUMERIC).markers.is_empty()
}

/// The GFM extensions citekit renders, as pulldown-cmark options.
fn gfm() -> pulldown_cmark::Options {
    use pulldown_cmark::Options;
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
}

/// Why an example may differ from the spec by design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exception {
    /// The markdown holds raw HTML (an HTML block or inline HTML, as pulldown-cmark
    /// reads it): citekit shows raw HTML in answers as text (docs/safety.md, "Untrusted text").
    RawHtml,
    /// A link or image url that citekit drops: a scheme other than http(s)/mailto
    /// (unsafe urls are never links: docs/safety.md, "Url schemes").
    UnsafeUrl,
    /// citekit enables GFM extensions (tables, strikethrough, task lists, footnotes)
    /// and the example parses differently with them.
    GfmExtension,
}

impl Exception {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Exception::RawHtml => "raw HTML",
            Exception::UnsafeUrl => "unsafe url",
            Exception::GfmExtension => "GFM extension",
        }
    }
}

/// The documented reason an example may fail, if any: raw HTML first (the cheap rule of
/// `<` before a letter, `/`, `!` or `?`, confirmed by pulldown-cmark's events), then
/// unsafe urls, then GFM extensions.
pub fn exception(md: &str) -> Option<Exception> {
    let looks_html = md
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b'<' && (w[1].is_ascii_alphabetic() || b"/!?".contains(&w[1])));
    let plain: Vec<Event> = Parser::new(md).collect();
    if looks_html
        && plain.iter().any(|e| {
            matches!(
                e,
                Event::Html(_) | Event::InlineHtml(_) | Event::Start(Tag::HtmlBlock)
            )
        })
    {
        return Some(Exception::RawHtml);
    }
    let unsafe_url = plain.iter().any(|e| match e {
        Event::Start(Tag::Link { dest_url, .. }) | Event::Start(Tag::Image { dest_url, .. }) => {
            citekit::components::answer::html::markdown::safe_href(dest_url).is_none()
        }
        _ => false,
    });
    if unsafe_url {
        return Some(Exception::UnsafeUrl);
    }
    let ext: Vec<Event> = Parser::new_ext(md, gfm()).collect();
    if ext != plain {
        return Some(Exception::GfmExtension);
    }
    None
}

/// Counts of one conformance run.
#[derive(Debug, Default)]
pub struct Counts {
    /// Examples in the spec.
    pub total: usize,
    /// Skipped: they hold a citation marker.
    pub skipped: usize,
    /// Rendered as the spec says.
    pub passed: usize,
    /// Differ, by a documented exception (per class).
    pub expected: Vec<(Exception, usize)>,
    /// Differ with no documented reason: example numbers.
    pub unexpected: Vec<usize>,
}

impl Counts {
    /// Records a failure of `number` with `why`.
    pub fn fail(&mut self, number: usize, why: Option<Exception>) {
        match why {
            Some(e) => match self.expected.iter_mut().find(|(k, _)| *k == e) {
                Some((_, n)) => *n += 1,
                None => self.expected.push((e, 1)),
            },
            None => self.unexpected.push(number),
        }
    }

    /// One line for the log.
    pub fn summary(&self) -> String {
        let failed: usize =
            self.expected.iter().map(|(_, n)| n).sum::<usize>() + self.unexpected.len();
        let classes: Vec<String> = self
            .expected
            .iter()
            .map(|(e, n)| format!("{} {n}", e.name()))
            .collect();
        format!(
            "CommonMark {}: {} examples, {} skipped (citation markers), {} passed, {} failed ({}; unexpected {}: {:?})",
            "0.31.2",
            self.total,
            self.skipped,
            self.passed,
            failed,
            classes.join(", "),
            self.unexpected.len(),
            self.unexpected
        )
    }
}

const BLOCK_TAGS: &[&str] = &[
    "article",
    "header",
    "aside",
    "hgroup",
    "blockquote",
    "hr",
    "iframe",
    "body",
    "li",
    "map",
    "button",
    "object",
    "canvas",
    "ol",
    "caption",
    "output",
    "col",
    "p",
    "colgroup",
    "pre",
    "dd",
    "progress",
    "div",
    "section",
    "dl",
    "table",
    "td",
    "dt",
    "tbody",
    "embed",
    "textarea",
    "fieldset",
    "tfoot",
    "figcaption",
    "th",
    "figure",
    "thead",
    "footer",
    "tr",
    "form",
    "ul",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "video",
    "script",
    "style",
];

/// Attributes citekit adds that CommonMark's reference output has not.
const OURS: &[&str] = &[
    " rel=\"noopener noreferrer nofollow\"",
    " target=\"_blank\"",
    " loading=\"lazy\"",
    " referrerpolicy=\"no-referrer\"",
];

enum Tok<'a> {
    Tag(&'a str),
    Text(&'a str),
}

fn tag_name(tag: &str) -> String {
    tag.trim_start_matches('<')
        .trim_start_matches('/')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase()
}

fn is_block(tok: Option<&Tok>) -> bool {
    match tok {
        Some(Tok::Tag(t)) => BLOCK_TAGS.contains(&tag_name(t).as_str()),
        _ => false,
    }
}

/// The HTML in a comparable form: our attributes removed, `<br />` as `<br>`, `&#39;`
/// as `'`, and outside `<pre>` whitespace runs as one space and none next to block tags.
pub fn normalize(html: &str) -> String {
    let mut s = html.to_string();
    for a in OURS {
        s = s.replace(a, "");
    }
    let s = s.replace(" />", ">").replace("&#39;", "'");
    let mut toks = Vec::new();
    let mut rest = s.as_str();
    while !rest.is_empty() {
        if rest.starts_with('<') {
            let end = rest.find('>').map_or(rest.len(), |i| i + 1);
            toks.push(Tok::Tag(&rest[..end]));
            rest = &rest[end..];
        } else {
            let end = rest.find('<').unwrap_or(rest.len());
            toks.push(Tok::Text(&rest[..end]));
            rest = &rest[end..];
        }
    }
    let mut out = String::new();
    let mut in_pre = 0usize;
    for (i, t) in toks.iter().enumerate() {
        match t {
            Tok::Tag(tag) => {
                let name = tag_name(tag);
                if name == "pre" {
                    if tag.starts_with("</") {
                        in_pre = in_pre.saturating_sub(1);
                    } else {
                        in_pre += 1;
                    }
                }
                out.push_str(tag);
            }
            Tok::Text(text) if in_pre > 0 => out.push_str(text),
            Tok::Text(text) => {
                let mut t: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
                if text.starts_with(char::is_whitespace) && !t.is_empty() {
                    t.insert(0, ' ');
                }
                if text.ends_with(char::is_whitespace) && !t.ends_with(' ') {
                    t.push(' ');
                }
                if t == "  " {
                    t = " ".into();
                }
                if i == 0 || is_block(toks.get(i.wrapping_sub(1))) {
                    t = t.trim_start().to_string();
                }
                if is_block(toks.get(i + 1)) || i + 1 == toks.len() {
                    t = t.trim_end().to_string();
                }
                out.push_str(&t);
            }
        }
    }
    out
}
