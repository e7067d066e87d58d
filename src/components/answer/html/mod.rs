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

use crate::components::footnotes::html::{footnotes_html, footnotes_section};
use crate::components::panel::html::{panel_aside, panel_html};
use crate::core::model::{Answer, ContentKind};
use crate::core::options::Theme;
use crate::render::class::{ANSWER, ANSWER_BODY, CARD};
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

/// What an answer's root holds: the markup every host gives it ([`root_html`]). The
/// Leptos component draws the same markup as a view (held to this by its tests).
pub(crate) struct Root<'a> {
    /// `cite-root` with the theme and the panel's place ([`root_class`]).
    pub class: String,
    /// The id prefix, the root's id.
    pub id: &'a str,
    /// `data-marker-style` ([`crate::render::marker_style_name`]).
    pub marker_style: &'a str,
    /// The copy button's label, when it shows.
    pub copy: Option<&'a str>,
    /// The answer's blocks.
    pub body: &'a str,
    /// The footnotes' list, when they show.
    pub notes: Option<&'a str>,
    /// The panel's list, when it shows.
    pub panel: Option<&'a str>,
    /// The card's element (empty and hidden until a card opens): a mounted answer's.
    pub card: bool,
}

/// An answer's root markup: the answer (copy button, body, footnotes), the panel, the
/// card.
pub(crate) fn root_html(root: &Root) -> String {
    let extra = root.notes.map_or(0, str::len) + root.panel.map_or(0, str::len);
    let mut out = String::with_capacity(root.body.len() + extra + 512);
    let _ = write!(
        out,
        "<div class=\"{}\" id=\"{}\" data-marker-style=\"{}\"><div class=\"{ANSWER}\">",
        root.class, root.id, root.marker_style
    );
    if let Some(label) = root.copy {
        out.push_str("<button type=\"button\" class=\"cite-copy\" data-state=\"idle\">");
        crate::render::escape::push_escaped(&mut out, label);
        out.push_str("</button>");
    }
    let _ = write!(out, "<div class=\"{ANSWER_BODY}\">");
    out.push_str(root.body);
    out.push_str("</div>");
    if let Some(notes) = root.notes {
        out.push_str(&footnotes_section(root.id, notes));
    }
    out.push_str("</div>");
    if let Some(panel) = root.panel {
        out.push_str(&panel_aside(root.id, panel));
    }
    if root.card {
        let _ = write!(
            out,
            "<div class=\"{CARD}\" id=\"{}-card\" role=\"tooltip\" data-state=\"closed\" hidden></div>",
            root.id
        );
    }
    out.push_str("</div>");
    out
}

/// A whole static rendering for `renderToString`: the answer, its footnotes and (with
/// `panel`) its panel in the root every host gives them (`root_html`), without the
/// card (nothing opens one).
pub fn render_to_string(answer: &Answer, opts: &RenderOptions, panel: bool) -> String {
    let (notes, with_panel) = lists_shown(answer, true, panel);
    root_html(&Root {
        class: root_class(opts.theme, with_panel),
        id: &opts.id_prefix,
        marker_style: crate::render::marker_style_name(opts.marker_style),
        copy: None,
        body: &answer_html(answer, opts),
        notes: notes.then(|| footnotes_html(answer, opts)).as_deref(),
        panel: with_panel.then(|| panel_html(answer, opts)).as_deref(),
        card: false,
    })
}
