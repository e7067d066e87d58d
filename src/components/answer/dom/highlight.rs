//! The highlight of a hovered marker's span or a hovered source's markers (a CSS
//! Custom Highlight from each span's start anchor to its marker), and the page's
//! registry of what each answer has lit.

use crate::components::footnotes::html::footnote_id;
use crate::core::model::Answer;
use crate::dom::state::{citations_of, Highlight};
use crate::dom::util as dom;
use crate::render::class;
use crate::render::RenderOptions;
use web_sys::Element;

/// Lights `h` in the answer under `root` (markers and spans, and for a source its
/// footnote and panel links), clearing what was lit before. Returns whether anything
/// is lit now.
pub(crate) fn apply_highlight(root: &Element, a: &Answer, r: &RenderOptions, h: Highlight) -> bool {
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
    set_highlight(&r.id_prefix, ranges);
    if let Highlight::Source(n) = h {
        let sel = format!(
            "{link}[data-sources~=\"{n}\"], {link}[href=\"#{}\"]",
            footnote_id(r, n),
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

/// The name of citekit's highlight in `CSS.highlights` (styled by
/// `::highlight(cite-active)`).
pub const HIGHLIGHT: &str = crate::render::class::ACTIVE;

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The CSS Custom Highlight API's `Highlight` (a set of ranges).
    #[wasm_bindgen(js_name = Highlight)]
    type CssHighlight;
    #[wasm_bindgen(constructor, js_class = "Highlight", catch)]
    fn new() -> Result<CssHighlight, wasm_bindgen::JsValue>;
    #[wasm_bindgen(method, js_class = "Highlight", js_name = add)]
    fn add(this: &CssHighlight, range: &web_sys::Range);
}

thread_local! {
    /// The highlighted ranges of each answer (by id prefix): one `Highlight` holds them
    /// all, so one answer clearing its own leaves the others'.
    /// (A list, not a map: a page shows a few answers.)
    static RANGES: std::cell::RefCell<Vec<(String, Vec<web_sys::Range>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Sets the highlighted ranges of answer `key` (none clears them) and puts every
/// answer's ranges into `CSS.highlights`. Without the API (older browsers) nothing
/// is highlighted; nothing fails.
pub fn set_highlight(key: &str, ranges: Vec<web_sys::Range>) {
    let all: Vec<web_sys::Range> = RANGES.with(|r| {
        let mut r = r.borrow_mut();
        r.retain(|(k, _)| k != key);
        if !ranges.is_empty() {
            r.push((key.to_string(), ranges));
        }
        r.iter().flat_map(|(_, v)| v).cloned().collect()
    });
    let Some(registry) = highlight_registry() else {
        return;
    };
    let name = wasm_bindgen::JsValue::from_str(HIGHLIGHT);
    if all.is_empty() {
        dom::call(&registry, "delete", &[name]);
        return;
    }
    let Ok(h) = CssHighlight::new() else { return };
    for range in &all {
        h.add(range);
    }
    dom::call(&registry, "set", &[name, h.into()]);
}

/// `CSS.highlights`, when the browser has it.
fn highlight_registry() -> Option<wasm_bindgen::JsValue> {
    let css = js_sys::Reflect::get(&js_sys::global(), &"CSS".into()).ok()?;
    let reg = js_sys::Reflect::get(&css, &"highlights".into()).ok()?;
    (!reg.is_undefined() && !reg.is_null()).then_some(reg)
}
