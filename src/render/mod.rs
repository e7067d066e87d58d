//! The HTML renderer: turns a [`CitedAnswer`] into HTML strings for the answer (block by
//! block), the hover card, the source panel and the footnotes.
//!
//! Every piece of input text is escaped ([`escape`]); every tag, attribute and class
//! comes from citekit. The Leptos components put these strings into the DOM and add
//! behaviour by event delegation; `renderToString` returns them as they are. Pure Rust,
//! tested on the host.

pub mod class;
pub mod escape;
#[cfg(feature = "answer-kinds")]
pub mod html;
#[cfg(feature = "answer-kinds")]
pub mod json_view;
pub mod markdown;
pub mod md;
pub(crate) mod options;
pub(crate) mod parts;
pub mod stream_view;
mod writer;

use crate::components::answer::html::SourceCache;
pub use crate::components::answer::html::{compress_numbers, ref_id, MarkerSet, MARKER_SEPARATOR};
pub use crate::components::card::html::card_html;
pub use crate::components::panel::html::{
    panel_details_html, panel_html, panel_item_id, PANEL_EAGER,
};
use crate::core::limits::MAX_FOOTNOTE_BACKLINKS;
use crate::core::model::{CitedAnswer, ContentKind};
use crate::core::options::{MarkerStyle, Theme};
use class::{ANSWER, ANSWER_BODY, FOOTNOTES, PANEL};
use escape::push_escaped;
pub use options::{marker_style_name, sanitize_prefix, Labels, RenderOptions, DEFAULT_LABELS};
use parts::{about_html, display_title, external_link};
use std::fmt::Write;
use std::ops::Range;

/// Whether an answer shows its footnotes and its panel, given whether each is asked
/// for: footnotes when a source is cited or is a source of the whole answer, the panel
/// when there are sources, neither when citations are hidden.
pub fn lists_shown(answer: &CitedAnswer, footnotes: bool, panel: bool) -> (bool, bool) {
    (
        footnotes
            && answer.show_citations
            && answer
                .sources
                .iter()
                .any(|s| s.cited || s.of_whole_answer()),
        panel && answer.show_citations && !answer.sources.is_empty(),
    )
}

/// Bytes of answer text after which rendered blocks (and the footnote list) are laid
/// out lazily, with `content-visibility: auto`: about a screenful of text.
pub const LAZY_AFTER: usize = 6000;

/// One top-level block of the rendered answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Byte range of the answer text this block comes from.
    pub range: Range<usize>,
    /// The block's HTML.
    pub html: String,
}

/// The answer as HTML blocks, markers inline, cited spans wrapped for highlighting.
pub fn answer_blocks(answer: &CitedAnswer, opts: &RenderOptions) -> Vec<Block> {
    let markers = MarkerSet::new(answer, opts);
    match answer.content_kind {
        ContentKind::Markdown => markdown::blocks(answer, &markers),
        #[cfg(feature = "answer-kinds")]
        ContentKind::Html => html::blocks(answer, &markers),
        #[cfg(feature = "answer-kinds")]
        ContentKind::Json => json_view::blocks(answer, &markers),
        // Without `answer-kinds` the parser makes no HTML or JSON answer (it gives
        // their text as plain text).
        _ => plain_blocks(answer, &markers),
    }
}

/// The answer as one HTML string (`<div class="cite-answer__body">` of its blocks).
pub fn answer_html(answer: &CitedAnswer, opts: &RenderOptions) -> String {
    let mut out = String::new();
    for b in answer_blocks(answer, opts) {
        out.push_str(&b.html);
    }
    out
}

/// Plain text (and YAML): one `<div class="cite-plain">` per paragraph, line breaks
/// kept by CSS (`white-space: pre-wrap`).
fn plain_blocks(answer: &CitedAnswer, markers: &MarkerSet) -> Vec<Block> {
    let text = &answer.text;
    let mut w = writer::Inline::new(text, markers);
    let mut blocks = Vec::new();
    let mut start = 0;
    let class = if answer.content_kind == ContentKind::Yaml {
        "cite-plain cite-plain--yaml"
    } else {
        "cite-plain"
    };
    let push_block = |w: &mut writer::Inline, start: usize, end: usize, last: bool| {
        let mut html = format!("<div class=\"{class}\">");
        w.text(start..end, true);
        w.flush_markers(end, last);
        html.push_str(&w.take());
        html.push_str("</div>");
        Block {
            range: start..end,
            html,
        }
    };
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(p) = crate::core::bytes::find(&bytes[i..], b"\n\n") {
        let end = i + p;
        let mut next = end;
        while next < bytes.len() && bytes[next] == b'\n' {
            next += 1;
        }
        blocks.push(push_block(&mut w, start, end, false));
        start = next;
        i = next;
    }
    if start < text.len() || blocks.is_empty() || !answer.citations.is_empty() {
        blocks.push(push_block(&mut w, start, text.len(), true));
    }
    blocks
}

/// The id of the footnote of source number `n`.
pub fn footnote_id(opts: &RenderOptions, n: u32) -> String {
    format!("{}-fn-{n}", opts.id_prefix)
}

/// The footnotes: cited sources with back-links to every marker (a, b, c ...), then
/// the sources of the whole answer ([`Source::of_whole_answer`]), without back-links.
pub fn footnotes_html(answer: &CitedAnswer, opts: &RenderOptions) -> String {
    // (source number, citation, link) of each back-link, sorted by number and, within
    // one number, in text order (a stable sort of what is pushed in text order).
    let mut backs: Vec<(u32, usize, usize)> = Vec::new();
    let cache = SourceCache::new(answer, opts);
    for (ci, c) in answer.citations.iter().enumerate() {
        for (k, id) in c.sources.iter().enumerate() {
            if let Some(s) = cache.source(id) {
                let k = if opts.marker_style == MarkerStyle::Number {
                    k
                } else {
                    0
                };
                backs.push((s.number, ci, k));
            }
        }
    }
    crate::core::sort::sort_by_key(&mut backs, |b| (u64::from(b.0), 0));
    // The back-link label around its `{label}`, escaped once (it is written for every
    // marker of the answer).
    let back_label = escape::escape(opts.labels.get("backToCitation"));
    let back_parts = crate::core::bytes::split_once(&back_label, "{label}");
    let prefix = &opts.id_prefix;
    let mut out = String::new();
    let _ = write!(
        out,
        "<h2 class=\"cite-footnotes__title\" id=\"{}-fn-title\">{}{}</h2><ol class=\"cite-footnotes__list{}\">",
        opts.id_prefix,
        escape::escape(opts.labels.get("references")),
        about_html(answer, opts),
        if answer.text.len() >= LAZY_AFTER {
            " cite-footnotes__list--lazy"
        } else {
            ""
        }
    );
    // Cited sources come first in `sources`, by number; the uncited ones after them.
    for s in answer
        .sources
        .iter()
        .filter(|s| s.cited || s.of_whole_answer())
    {
        let n = s.number;
        let _ = write!(
            out,
            "<li class=\"cite-footnote\" id=\"{}\" value=\"{n}\" data-source=\"{n}\">",
            footnote_id(opts, n)
        );
        let from = backs.partition_point(|b| b.0 < n);
        let targets = &backs[from..from + backs[from..].partition_point(|b| b.0 == n)];
        let shown = targets.len().min(MAX_FOOTNOTE_BACKLINKS);
        for (j, (_, ci, k)) in targets[..shown].iter().enumerate() {
            let (letter, suffix) = if targets.len() == 1 {
                ("^".to_string(), String::new())
            } else {
                let l = backlink_letter(j);
                (l.clone(), l)
            };
            let _ = write!(
                out,
                "<a class=\"cite-footnote__back\" href=\"#{prefix}-ref-{ci}-{k}\" role=\"doc-backlink\" aria-label=\""
            );
            match back_parts {
                Some((before, after)) => {
                    let _ = write!(out, "{before}{n}{suffix}{after}");
                }
                None => out.push_str(&back_label),
            }
            let _ = write!(out, "\">{letter}</a>");
        }
        if shown < targets.len() {
            // Past the limit (named in the answer's diagnostics): how many more markers
            // cite this source, as text.
            let _ = write!(
                out,
                "<span class=\"cite-footnote__more\">+{}</span>",
                targets.len() - shown
            );
        }
        out.push(' ');
        let title = &display_title(s, opts);
        match &s.url {
            Some(u) => external_link(&mut out, "cite-footnote__title", u, title, opts),
            None => {
                out.push_str("<span class=\"cite-footnote__title\" dir=\"auto\">");
                push_escaped(&mut out, title);
                out.push_str("</span>");
            }
        }
        if let Some(d) = &s.domain {
            out.push_str(" <span class=\"cite-footnote__domain\" dir=\"auto\">");
            push_escaped(&mut out, d);
            out.push_str("</span>");
        }
        out.push_str("</li>");
    }
    out.push_str("</ol>");
    out
}

/// `a`, `b`, ... `z`, `aa`, `ab` ...
fn backlink_letter(j: usize) -> String {
    let mut j = j;
    let mut s = Vec::new();
    loop {
        s.push(b'a' + (j % 26) as u8);
        if j < 26 {
            break;
        }
        j = j / 26 - 1;
    }
    s.iter().rev().map(|&c| c as char).collect()
}

/// The root's class for a theme: `cite-root`, with `cite-theme-light` or
/// `cite-theme-dark` when one is forced, and `cite-root--with-panel` when the panel
/// sits beside the answer. One spelling for the static rendering and the component.
pub fn root_class(theme: Theme, with_panel: bool) -> String {
    let mut class = String::from("cite-root");
    match theme {
        Theme::Auto => {}
        Theme::Light => class.push_str(" cite-theme-light"),
        Theme::Dark => class.push_str(" cite-theme-dark"),
    }
    if with_panel {
        class.push_str(" cite-root--with-panel");
    }
    class
}

/// A whole static rendering: answer, footnotes and panel, for `renderToString`.
pub fn render_to_string(answer: &CitedAnswer, opts: &RenderOptions, panel: bool) -> String {
    let (notes, with_panel) = lists_shown(answer, true, panel);
    let mut out = String::new();
    let _ = write!(
        out,
        "<div class=\"{}\" id=\"{}\"><div class=\"{ANSWER}\"><div class=\"{ANSWER_BODY}\">",
        root_class(opts.theme, with_panel),
        opts.id_prefix
    );
    out.push_str(&answer_html(answer, opts));
    out.push_str("</div>");
    if notes {
        let _ = write!(
            out,
            "<section class=\"{FOOTNOTES}\" role=\"doc-endnotes\" aria-labelledby=\"{}-fn-title\">",
            opts.id_prefix
        );
        out.push_str(&footnotes_html(answer, opts));
        out.push_str("</section>");
    }
    out.push_str("</div>");
    if with_panel {
        let _ = write!(
            out,
            "<aside class=\"{PANEL}\" aria-labelledby=\"{}-panel-title\">",
            opts.id_prefix
        );
        out.push_str(&panel_html(answer, opts));
        out.push_str("</aside>");
    }
    out.push_str("</div>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn footnote_title_names_the_answer_without_markdown() {
        let data = serde_json::json!({"1": {"title": "A", "source": "https://a.example/"}});
        let a = crate::core::parse_lenient(
            Some("## Part one\n\nThe **bold** `code` claim [1]."),
            crate::core::formats::Data::Json(&data),
            &crate::core::options::Options::default(),
        );
        let html = footnotes_html(&a, &RenderOptions::default());
        assert!(html.contains("Part one The bold code claim"), "{html}");
        assert!(!html.contains("##") && !html.contains("**"), "{html}");
    }

    #[test]
    fn letters() {
        assert_eq!(backlink_letter(0), "a");
        assert_eq!(backlink_letter(25), "z");
        assert_eq!(backlink_letter(26), "aa");
    }
}
