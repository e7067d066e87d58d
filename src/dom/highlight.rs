//! The highlight of a hovered marker's span or a hovered source's markers (a CSS
//! Custom Highlight from each span's start anchor to its marker).

use crate::core::model::CitedAnswer as Model;
use crate::dom::state::{citations_of, Highlight};
use crate::dom::util as dom;
use crate::render::class;
use crate::render::{self, RenderOptions};
use web_sys::Element;

/// Lights `h` in the answer under `root` (markers and spans, and for a source its
/// footnote and panel links), clearing what was lit before. Returns whether anything
/// is lit now.
pub(crate) fn apply_highlight(root: &Element, a: &Model, r: &RenderOptions, h: Highlight) -> bool {
    for el in dom::query_all(root, class::ACTIVE_SEL) {
        let _ = el.class_list().remove_1(class::ACTIVE);
    }
    let cis: Vec<usize> = match h {
        Highlight::None => Vec::new(),
        Highlight::Citation(ci) => vec![ci],
        Highlight::Source(n) => citations_of(a, n),
    };
    let mut ranges = Vec::new();
    for ci in cis {
        // Markers, and the wrapped spans of the JSON view.
        for el in dom::query_all(
            root,
            &format!(
                "[data-c~=\"{ci}\"], {}[data-cite=\"{ci}\"]",
                class::MARKER_SEL
            ),
        ) {
            let _ = el.class_list().add_1(class::ACTIVE);
        }
        // Text spans: from the span's start anchor to its marker.
        if let Some(range) = span_range(root, ci) {
            ranges.push(range);
        }
    }
    dom::set_highlight(&r.id_prefix, ranges);
    if let Highlight::Source(n) = h {
        let sel = format!(
            "{link}[data-sources~=\"{n}\"], {link}[href=\"#{}\"]",
            render::footnote_id(r, n),
            link = class::MARKER_LINK_SEL,
        );
        for el in dom::query_all(root, &sel) {
            let _ = el.class_list().add_1(class::ACTIVE);
        }
    }
    h != Highlight::None
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
