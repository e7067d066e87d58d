//! The source panel: its expanded entry, where the layout put it (beside the answer or
//! below it), and bringing a selected entry into view.

use super::html::{panel_details_html, panel_item_id};
use crate::core::model::Answer;
use crate::dom::util as dom;
use crate::render::class;
use crate::render::RenderOptions;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::Element;

/// Expands (or collapses) the panel entry of source number `n`: its details shown
/// (made from `a` the first time), its toggle's `aria-expanded`, the entry marked
/// selected.
pub(crate) fn set_expanded(r: &RenderOptions, a: &Answer, n: u32, open: bool) {
    let id = panel_item_id(r, n);
    let Some(li) = dom::by_id(&id) else { return };
    let _ = li.set_attribute("data-state", if open { "expanded" } else { "collapsed" });
    let _ = if open {
        li.class_list().add_1(class::SELECTED)
    } else {
        li.class_list().remove_1(class::SELECTED)
    };
    if let Ok(Some(btn)) = li.query_selector(class::SOURCE_TOGGLE_SEL) {
        let _ = btn.set_attribute("aria-expanded", if open { "true" } else { "false" });
    }
    if let Some(d) = dom::by_id(&format!("{id}-details")) {
        if open && d.child_element_count() == 0 {
            d.set_inner_html(&panel_details_html(a, n, r));
        }
        let _ = if open {
            d.remove_attribute("hidden")
        } else {
            d.set_attribute("hidden", "")
        };
    }
}

/// The root's attribute that says where the panel is: `beside` the answer or `below`
/// it (absent without a panel). The flex layout wraps the panel below the answer when
/// the root is narrow, which CSS cannot see; beside the answer the stylesheet keeps
/// the panel to the viewport with a scroll of its own.
const LAYOUT_ATTR: &str = "data-panel";

/// Sets the root's [`LAYOUT_ATTR`] from where the panel is now: beside the answer when
/// the two do not overlap horizontally (a panel wrapped to a line of its own spans the
/// answer's width; stickiness moves a panel only vertically).
pub(crate) fn mark_layout(root: &Element) {
    let child = |sel: &str| {
        root.query_selector(&format!(":scope > {sel}"))
            .ok()
            .flatten()
    };
    let place = match (child(class::ANSWER_SEL), child(class::PANEL_SEL)) {
        (Some(answer), Some(panel)) => {
            let (a, p) = (
                answer.get_bounding_client_rect(),
                panel.get_bounding_client_rect(),
            );
            // Not laid out (hidden, detached): nothing to tell.
            if a.width() == 0.0 && p.width() == 0.0 {
                return;
            }
            let apart = p.left() >= a.right() - 0.5 || p.right() <= a.left() + 0.5;
            Some(if apart { "beside" } else { "below" })
        }
        _ => None,
    };
    if root.get_attribute(LAYOUT_ATTR).as_deref() == place {
        return;
    }
    let _ = match place {
        Some(p) => root.set_attribute(LAYOUT_ATTR, p),
        None => root.remove_attribute(LAYOUT_ATTR),
    };
}

/// Keeps a root's [`LAYOUT_ATTR`] up to date while its width changes (a window
/// resized, a chat column opened); the answer's owner calls [`mark_layout`] itself
/// when the panel comes or goes. Stops when dropped.
pub(crate) struct PanelLayout {
    observer: web_sys::ResizeObserver,
    _on_resize: Closure<dyn FnMut()>,
}

impl PanelLayout {
    /// Watches `root` (marked at once, and whenever its answer column changes size).
    /// The answer column is observed, not the root: the attribute changes the panel's
    /// height and so the root's, and a size an observer's callback changes is reported
    /// again in the same frame, which the browser reports as an error ("ResizeObserver
    /// loop completed with undelivered notifications"). The answer's width follows the
    /// root's in both layouts.
    pub(crate) fn watch(root: &Element) -> Option<PanelLayout> {
        let answer = root
            .query_selector(&format!(":scope > {}", class::ANSWER_SEL))
            .ok()??;
        let target = root.clone();
        let on_resize = Closure::<dyn FnMut()>::new(move || mark_layout(&target));
        let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
        observer.observe(&answer);
        mark_layout(root);
        Some(PanelLayout {
            observer,
            _on_resize: on_resize,
        })
    }
}

impl Drop for PanelLayout {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// Brings the panel entry of source number `n` into view, as it is laid out now
/// (expanded, with every entry before it laid out: see `.cite-source--lazy` in
/// panel.css). When the panel scrolls on its own (beside the answer) only the panel
/// scrolls, so that the entry is in the part of the panel on screen and the answer
/// stays where the reader is; otherwise, or when that is not enough, the page scrolls
/// to it as well.
pub(crate) fn bring_into_view(r: &RenderOptions, n: u32) {
    let Some(entry) = dom::by_id(&panel_item_id(r, n)) else {
        return;
    };
    let own_scroll = entry
        .closest(class::PANEL_SEL)
        .ok()
        .flatten()
        .filter(scrolls_itself);
    if let Some(panel) = own_scroll {
        if scroll_within(&panel, &entry) {
            return;
        }
    }
    dom::scroll_into_view(&entry);
}

/// Whether `el` has content hidden below its box that it scrolls itself.
fn scrolls_itself(el: &Element) -> bool {
    el.scroll_height() > el.client_height()
        && matches!(overflow_y(el).as_deref(), Some("auto" | "scroll"))
}

/// `el`'s computed `overflow-y`.
fn overflow_y(el: &Element) -> Option<String> {
    web_sys::window()?
        .get_computed_style(el)
        .ok()??
        .get_property_value("overflow-y")
        .ok()
}

/// The top and bottom of the part of `el`'s inside (its padding box) that is on
/// screen: inside the window and inside every box around it that clips (a chat's
/// scrolled message list), also across shadow roots.
fn shown_part(el: &Element) -> Option<(f64, f64)> {
    let inside = |el: &Element| {
        let top = el.get_bounding_client_rect().top() + f64::from(el.client_top());
        (top, top + f64::from(el.client_height()))
    };
    let height = web_sys::window()?.inner_height().ok()?.as_f64()?;
    let (mut top, mut bottom) = inside(el);
    bottom = bottom.min(height);
    top = top.max(0.0);
    let mut node = el.parent_node();
    while let Some(n) = node {
        let next = match n.dyn_ref::<web_sys::ShadowRoot>() {
            Some(shadow) => Some(shadow.host().into()),
            None => n.parent_node(),
        };
        if let Some(up) = n.dyn_ref::<Element>() {
            if overflow_y(up).is_some_and(|o| o != "visible") {
                let (t, b) = inside(up);
                top = top.max(t);
                bottom = bottom.min(b);
            }
        }
        node = next;
    }
    (bottom > top).then_some((top, bottom))
}

/// Scrolls `panel` so that `entry` is in the part of the panel on screen, the least
/// that does it (a taller entry shows its top). False when the panel cannot scroll
/// that far, or none of it is on screen.
fn scroll_within(panel: &Element, entry: &Element) -> bool {
    let Some(shown) = shown_part(panel) else {
        return false;
    };
    let e = entry.get_bounding_client_rect();
    let by = scroll_by((e.top(), e.bottom()), shown);
    if by == 0.0 {
        return true;
    }
    let from = f64::from(panel.scroll_top());
    let most = f64::from(panel.scroll_height() - panel.client_height());
    let to = (from + by).clamp(0.0, most);
    if (to - from - by).abs() > 1.0 {
        return false;
    }
    let opts = web_sys::ScrollToOptions::new();
    opts.set_top(to);
    opts.set_behavior(if dom::reduced_motion() {
        web_sys::ScrollBehavior::Auto
    } else {
        web_sys::ScrollBehavior::Smooth
    });
    panel.scroll_to_with_scroll_to_options(&opts);
    true
}

/// How far to scroll for a box spanning `item` (top, bottom) to be inside `view`
/// (top, bottom): the least distance, positive to move the content up; a box taller
/// than the view gets its top in view.
fn scroll_by(item: (f64, f64), view: (f64, f64)) -> f64 {
    let (top, bottom) = item;
    let (view_top, view_bottom) = view;
    if top < view_top {
        top - view_top
    } else if bottom > view_bottom {
        (bottom - view_bottom).min(top - view_top)
    } else {
        0.0
    }
}
