//! The highlight of a hovered marker's span or a hovered source's markers (a CSS
//! Custom Highlight from each span's start anchor to its marker).

use crate::render::class;
use crate::render::{self};
use crate::web::context::{CiteContext, Highlight};
use crate::web::dom;
use leptos::prelude::*;
use web_sys::Element;

/// Applies `ctx.highlight` to markers and spans, and to panel entries.
pub(crate) fn wire_highlight(ctx: CiteContext) {
    // The highlight lives in the browser's registry: nothing to clear on a server.
    if cfg!(target_arch = "wasm32") {
        let key = ctx.prefix();
        on_cleanup(move || dom::set_highlight(&key, Vec::new()));
    }
    // The effect's value: whether anything is lit now.
    Effect::new(move |lit: Option<bool>| {
        let h = ctx.highlight.get();
        let _ = ctx.answer.get();
        // Nothing lit and nothing to light (a streamed chunk while no marker is
        // hovered): no sweep over the whole answer.
        if h == Highlight::None && lit == Some(false) {
            return false;
        }
        let Some(doc) = dom::document() else {
            return false;
        };
        let prefix = ctx.prefix();
        let Some(root) = doc.get_element_by_id(&prefix) else {
            return false;
        };
        for el in dom::query_all(&root, class::ACTIVE_SEL) {
            let _ = el.class_list().remove_1(class::ACTIVE);
        }
        let cis: Vec<usize> = match h {
            Highlight::None => Vec::new(),
            Highlight::Citation(ci) => vec![ci],
            Highlight::Source(n) => ctx.citations_of(n),
        };
        let mut ranges = Vec::new();
        for ci in cis {
            // Markers, and the wrapped spans of the JSON view.
            for el in dom::query_all(
                &root,
                &format!(
                    "[data-c~=\"{ci}\"], {}[data-cite=\"{ci}\"]",
                    class::MARKER_SEL
                ),
            ) {
                let _ = el.class_list().add_1(class::ACTIVE);
            }
            // Text spans: from the span's start anchor to its marker.
            if let Some(r) = span_range(&root, ci) {
                ranges.push(r);
            }
        }
        dom::set_highlight(&prefix, ranges);
        if let Highlight::Source(n) = h {
            let sel = format!(
                "{link}[data-sources~=\"{n}\"], {link}[href=\"#{}\"]",
                render::footnote_id(&ctx.render.get_untracked(), n),
                link = class::MARKER_LINK_SEL,
            );
            for el in dom::query_all(&root, &sel) {
                let _ = el.class_list().add_1(class::ACTIVE);
            }
        }
        h != Highlight::None
    });
}

/// The text of citation `ci`'s span: from its start anchor to its marker.
pub(crate) fn span_range(root: &Element, ci: usize) -> Option<web_sys::Range> {
    let start = root
        .query_selector(&format!("i{}[data-s=\"{ci}\"]", class::SPAN_START_SEL))
        .ok()??;
    let end = root
        .query_selector(&format!("{}[data-cite=\"{ci}\"]", class::MARKER_SEL))
        .ok()??;
    let range = web_sys::Range::new().ok()?;
    range.set_start_after(&start).ok()?;
    range.set_end_before(&end).ok()?;
    (!range.collapsed()).then_some(range)
}
