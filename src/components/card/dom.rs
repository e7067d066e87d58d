//! The hover card: filled and placed when it opens, kept inside the viewport.

use crate::components::answer::html::markers::ref_id;
use crate::core::model::Answer;
use crate::dom::state::Card;
use crate::dom::util as dom;
use crate::render::class;
use crate::render::RenderOptions;
use wasm_bindgen::JsCast;
use web_sys::Element;

thread_local! {
    /// True while the card's content is being replaced (its blur is not a leave).
    pub(crate) static REPLACING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Brings the card element `el` in line with `card`: content, visibility, position,
/// the `data-state` of its marker and the marker link's `aria-describedby`. `last` is
/// the marker link the card was last anchored to.
pub(crate) fn show_card(
    el: &Element,
    last: &mut Option<Element>,
    a: &Answer,
    r: &RenderOptions,
    card: Option<Card>,
) {
    if let Some(prev) = last.take() {
        let _ = prev.remove_attribute("aria-describedby");
        if let Ok(Some(sup)) = prev.closest(class::MARKER_SEL) {
            let _ = sup.set_attribute("data-state", "closed");
        }
    }
    let Some(c) = card else {
        if !el.has_attribute("hidden") {
            let _ = el.set_attribute("hidden", "");
            let _ = el.set_attribute("data-state", "closed");
            el.set_inner_html("");
        }
        return;
    };
    // Replacing the content would blur a focused pager button and close the card:
    // remember what had focus, ignore that blur, and focus its twin afterwards.
    let focused = dom::active_element().filter(|f| el.contains(Some(f)));
    let nav = focused.as_ref().and_then(|f| f.get_attribute("data-nav"));
    REPLACING.with(|r| r.set(true));
    el.set_inner_html(&super::html::card_html(a, c.ci, c.page, r));
    REPLACING.with(|r| r.set(false));
    if focused.is_some() {
        let sel = match &nav {
            Some(n) => format!("[data-nav=\"{n}\"]:not([disabled]), button:not([disabled]), a"),
            None => "a, button:not([disabled])".to_string(),
        };
        if let Ok(Some(f)) = el.query_selector(&sel) {
            dom::focus(&f);
        }
    }
    let _ = el.remove_attribute("hidden");
    let _ = el.set_attribute("data-state", "open");
    let Some(link) = dom::by_id(&ref_id(r, c.ci, c.k)) else {
        return;
    };
    let _ = link.set_attribute("aria-describedby", &el.id());
    if let Ok(Some(sup)) = link.closest(class::MARKER_SEL) {
        let _ = sup.set_attribute("data-state", "open");
    }
    position_card(el, &link);
    *last = Some(link);
}

/// Whether a scroll whose event is at `target` can have moved the marker link `anchor`:
/// a scroll of the page (or a new window size), or of an element around the marker
/// (also across shadow roots). A scroll inside the card or the source panel cannot: the
/// card stays where it is (a marker click scrolls the panel to its source).
pub(crate) fn scroll_moves(target: Option<web_sys::EventTarget>, anchor: Option<&Element>) -> bool {
    let Some(scrolled) = target.and_then(|t| t.dyn_into::<Element>().ok()) else {
        return true;
    };
    let Some(anchor) = anchor else {
        return true;
    };
    let mut node: web_sys::Node = anchor.clone().into();
    loop {
        if scrolled.contains(Some(&node)) {
            return true;
        }
        match node.get_root_node().dyn_into::<web_sys::ShadowRoot>() {
            Ok(shadow) => node = shadow.host().into(),
            Err(_) => return false,
        }
    }
}

/// After a scroll or a new window size, the open card is at the place its marker link
/// (`anchor`) had. Opened by the keyboard (the focus on the marker or in the card: a
/// marker that gets the focus is scrolled into view, and a reader paging down keeps
/// it) it follows the link, placed again next to it while the link is in the viewport.
/// Returns `false` when it does not (the pointer opened it, or the link scrolled away):
/// the card is then to close.
pub(crate) fn follow_marker(card: &Element, anchor: Option<Element>) -> bool {
    let Some(anchor) = anchor else {
        return false;
    };
    let focused = dom::active_element()
        .is_some_and(|f| f.is_same_node(Some(&anchor)) || card.contains(Some(&f)));
    if !focused {
        return false;
    }
    let Some((_, vh)) = viewport() else {
        return false;
    };
    let a = anchor.get_bounding_client_rect();
    if a.height() == 0.0 || a.bottom() < 0.0 || a.top() > vh {
        return false;
    }
    position_card(card, &anchor);
    true
}

/// The window's inner width and height (1024 x 768 where it does not say).
fn viewport() -> Option<(f64, f64)> {
    let w = web_sys::window()?;
    let size = |v: Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>, dflt: f64| {
        v.ok().and_then(|v| v.as_f64()).unwrap_or(dflt)
    };
    Some((size(w.inner_width(), 1024.0), size(w.inner_height(), 768.0)))
}

/// Places the card next to its marker link, inside the viewport.
pub(crate) fn position_card(card: &Element, anchor: &Element) {
    let Some((vw, vh)) = viewport() else { return };
    let a = anchor.get_bounding_client_rect();
    let c = card.get_bounding_client_rect();
    let (left, top, above) = place_card(
        (a.left(), a.top(), a.width(), a.height()),
        (c.width(), c.height()),
        (vw, vh),
    );
    if let Some(h) = card.dyn_ref::<web_sys::HtmlElement>() {
        let s = h.style();
        // Whole pixels, formatted as integers (no float formatting in the wasm).
        let _ = s.set_property("left", &format!("{}px", left.round_ties_even() as i64));
        let _ = s.set_property("top", &format!("{}px", top.round_ties_even() as i64));
    }
    let _ = card.set_attribute("data-side", if above { "top" } else { "bottom" });
}

/// Where a card of size `card` (w, h) goes next to an anchor rect, inside a viewport of
/// `view` (w, h): below the anchor, or above when there is no room below; shifted
/// sideways to stay inside. Returns (left, top, placed above).
pub fn place_card(
    anchor: (f64, f64, f64, f64),
    card: (f64, f64),
    view: (f64, f64),
) -> (f64, f64, bool) {
    let (ax, ay, aw, ah) = anchor;
    let (cw, ch) = card;
    let (vw, vh) = view;
    let gap = 6.0;
    let margin = 8.0;
    let below = ay + ah + gap;
    let above = ay - gap - ch;
    let (top, flipped) = if below + ch <= vh - margin || above < margin {
        (below, false)
    } else {
        (above, true)
    };
    let mut left = ax + aw / 2.0 - cw / 2.0;
    if left + cw > vw - margin {
        left = vw - margin - cw;
    }
    if left < margin {
        left = margin;
    }
    (left, top, flipped)
}
