//! The answer's markup: its text block by block (markdown, plain text, and with
//! `answer-kinds` HTML and JSON answers) with its markers inline ([`answer_blocks`]),
//! the root an answer stands in, and a whole static rendering ([`render_to_string`]).
//!
//! - `markers`: the markers' markup and the cited spans' segments
//!   ([`markers::MarkerSet`]).
//! - `writer`: answer text written with the markers and span anchors at their offsets.
//! - `markdown`: a markdown answer, drawn from `core::commonmark`'s events.
//! - `stream_view`: the blocks of an answer still streaming.
//! - `html_sanitizer`, `json_view`: an HTML answer through an allow list, a JSON answer
//!   as a key/value view.
//!
//! Every piece of input text is escaped ([`crate::render::escape`]); every tag,
//! attribute and class comes from citekit. The hosts put these strings into the DOM and
//! add behaviour by event delegation; `renderToString` returns them as they are. Pure
//! Rust, tested on the host.

#[cfg(feature = "answer-kinds")]
pub mod html_sanitizer;
#[cfg(feature = "answer-kinds")]
pub mod json_view;
pub mod markdown;
pub mod markers;
pub mod stream_view;
mod writer;

use crate::components::footnotes::html::footnotes_html;
use crate::components::panel::html::panel_html;
use crate::core::model::{Answer, ContentKind};
use crate::core::options::Theme;
use crate::render::class::{ANSWER, ANSWER_BODY, FOOTNOTES, PANEL};
use crate::render::RenderOptions;
use markers::MarkerSet;
use std::fmt::Write;
use std::ops::Range;

/// Whether an answer shows its footnotes and its panel, given whether each is asked
/// for: footnotes when a source is cited or is a source of the whole answer, the panel
/// when there are sources, neither when citations are hidden.
pub fn lists_shown(answer: &Answer, footnotes: bool, panel: bool) -> (bool, bool) {
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

/// One top-level block of the rendered answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Byte range of the answer text this block comes from.
    pub range: Range<usize>,
    /// The block's HTML.
    pub html: String,
}

/// The answer as HTML blocks, markers inline, cited spans wrapped for highlighting.
pub fn answer_blocks(answer: &Answer, opts: &RenderOptions) -> Vec<Block> {
    let markers = MarkerSet::new(answer, opts);
    match answer.content_kind {
        ContentKind::Markdown => markdown::blocks(answer, &markers),
        #[cfg(feature = "answer-kinds")]
        ContentKind::Html => html_sanitizer::blocks(answer, &markers),
        #[cfg(feature = "answer-kinds")]
        ContentKind::Json => json_view::blocks(answer, &markers),
        // Without `answer-kinds` the parser makes no HTML or JSON answer (it gives
        // their text as plain text).
        _ => plain_blocks(answer, &markers),
    }
}

/// The answer as one HTML string (`<div class="cite-answer__body">` of its blocks).
pub fn answer_html(answer: &Answer, opts: &RenderOptions) -> String {
    let mut out = String::new();
    for b in answer_blocks(answer, opts) {
        out.push_str(&b.html);
    }
    out
}

/// Plain text (and YAML): one `<div class="cite-plain">` per paragraph, line breaks
/// kept by CSS (`white-space: pre-wrap`).
fn plain_blocks(answer: &Answer, markers: &MarkerSet) -> Vec<Block> {
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
    while let Some(p) = crate::core::str_ops::find(&bytes[i..], b"\n\n") {
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
pub fn render_to_string(answer: &Answer, opts: &RenderOptions, panel: bool) -> String {
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
