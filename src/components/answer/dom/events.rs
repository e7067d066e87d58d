//! Pointer, focus, click and key handling of an answer (delegated on its root), for
//! any [`Host`]: the Leptos components (state in signals, DOM brought in line by
//! effects) and the plain driver (state in cells, DOM changed at once).

use crate::components::answer::html::markers::ref_id;
use crate::components::card::dom::{follow_marker, scroll_moves, REPLACING};
use crate::dom::page::PageEvent;
use crate::dom::state::{Card, Highlight, Timeout, Timers, CLOSE_DELAY_MS, OPEN_DELAY_MS};
use crate::dom::util as dom;
use crate::render::class;
use crate::render::RenderOptions;
use std::cell::Cell;
use wasm_bindgen::JsCast;
use web_sys::Element;

/// The state an answer's event handlers read and change.
pub(crate) trait Host: Clone + 'static {
    /// The open card.
    fn card(&self) -> Option<Card>;
    /// Opens, moves or (with `None`) closes the card.
    fn set_card(&self, card: Option<Card>);
    /// What is lit.
    fn highlight(&self) -> Highlight;
    /// Lights a citation or a source, or nothing.
    fn set_highlight(&self, h: Highlight);
    /// Selects source number `n` in the panel (again, when it is selected already),
    /// or clears the selection.
    fn select(&self, n: Option<u32>);
    /// Selects as `select` does, without scrolling the panel: after a tap the card
    /// shows the source at its marker, and the reader keeps their place.
    fn select_in_place(&self, n: Option<u32>) {
        self.select(n);
    }
    /// The selected source's number.
    fn selected(&self) -> Option<u32>;
    /// The source numbers of citation `ci`.
    fn sources_of(&self, ci: usize) -> Vec<u32>;
    /// The id of source number `n`.
    fn source_id(&self, n: u32) -> Option<String>;
    /// The render options (id prefix, labels).
    fn render(&self) -> std::sync::Arc<RenderOptions>;
    /// Dispatches a bubbling, composed `CustomEvent` from the answer's root.
    fn emit(&self, name: &str, detail: &[(&str, wasm_bindgen::JsValue)]);
    /// The card's element.
    fn card_element(&self) -> Option<Element>;
}

/// `detail` fields of a source: its id and display number.
pub(crate) fn source_detail<H: Host>(
    host: &H,
    n: u32,
) -> Vec<(&'static str, wasm_bindgen::JsValue)> {
    vec![
        (
            "sourceId",
            host.source_id(n)
                .map(Into::into)
                .unwrap_or(wasm_bindgen::JsValue::NULL),
        ),
        ("number", n.into()),
    ]
}

/// Dispatches `name` with `detail` from `root`.
pub(crate) fn emit_from(root: &Element, name: &str, detail: &[(&str, wasm_bindgen::JsValue)]) {
    let obj = js_sys::Object::new();
    for (k, v) in detail {
        let _ = js_sys::Reflect::set(&obj, &(*k).into(), v);
    }
    let init = web_sys::CustomEventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    init.set_detail(&obj);
    if let Ok(ev) = web_sys::CustomEvent::new_with_event_init_dict(name, &init) {
        let _ = root.dispatch_event(&ev);
    }
}

pub(crate) fn marker_of(
    ev_target: Option<web_sys::EventTarget>,
) -> Option<(Element, usize, usize)> {
    let link = dom::closest(ev_target, class::MARKER_LINK_SEL)?;
    // The citation is on the `<sup>`; `k` is the link's place among its links.
    let sup = link.closest(class::MARKER_SEL).ok()??;
    let ci = dom::data_num(&sup, "cite")?;
    let links = dom::query_all(&sup, class::MARKER_LINK_SEL);
    let k = links
        .iter()
        .position(|l| l.is_same_node(Some(&link)))
        .unwrap_or(0);
    Some((link, ci, k))
}

/// The source of link `k` of citation `ci`'s marker (its first source when there is no
/// such link).
fn source_at<H: Host>(host: &H, ci: usize, k: usize) -> Option<u32> {
    let sources = host.sources_of(ci);
    sources.get(k).or(sources.first()).copied()
}

pub(crate) fn open_card<H: Host>(host: &H, ci: usize, k: usize) {
    let page = k.min(host.sources_of(ci).len().saturating_sub(1));
    host.set_card(Some(Card { ci, page, k }));
}

pub(crate) fn on_pointer_down<H: Host>(
    host: &H,
    t: &std::rc::Rc<Timers>,
    ev: web_sys::PointerEvent,
) {
    let on = pressed_on_card(ev.target());
    *t.last_press.borrow_mut() = Some((AsRef::<web_sys::Event>::as_ref(&ev).clone(), on));
    let touch = ev.pointer_type() == "touch";
    t.touch.set(touch);
    t.open_at_tap
        .set(touch.then(|| host.card().map(|c| (c.ci, c.k))).flatten());
}

pub(crate) fn on_pointer_over<H: Host>(
    host: &H,
    t: &std::rc::Rc<Timers>,
    ev: web_sys::PointerEvent,
) {
    if ev.pointer_type() == "touch" {
        return;
    }
    if dom::closest(ev.target(), class::CARD_SEL).is_some() {
        t.cancel_close();
        return;
    }
    if let Some((_, ci, k)) = marker_of(ev.target()) {
        t.cancel_close();
        host.set_highlight(Highlight::Citation(ci));
        if host.card().is_some_and(|c| c.ci == ci && c.k == k) {
            return;
        }
        t.cancel_open();
        let h = host.clone();
        let handle = Timeout::new(OPEN_DELAY_MS, move || open_card(&h, ci, k));
        *t.open.borrow_mut() = handle;
    }
}

/// Whether a pointer or focus moving from `from` to `to` leaves a marker and its card:
/// `Some(true)` when it leaves a marker, `Some(false)` when it leaves the card, `None`
/// when it stays (into the card, or from the card back to a marker) or was in neither.
fn leaving(from: Option<web_sys::EventTarget>, to: Option<web_sys::EventTarget>) -> Option<bool> {
    let from_marker = marker_of(from.clone()).is_some();
    let from_card = dom::closest(from, class::CARD_SEL).is_some();
    if !from_marker && !from_card {
        return None;
    }
    let to_card = dom::closest(to.clone(), class::CARD_SEL).is_some();
    if to_card || (from_card && marker_of(to).is_some()) {
        return None;
    }
    Some(from_marker)
}

pub(crate) fn on_pointer_out<H: Host>(
    host: &H,
    t: &std::rc::Rc<Timers>,
    ev: web_sys::PointerEvent,
) {
    if ev.pointer_type() == "touch" {
        return;
    }
    let Some(from_marker) = leaving(ev.target(), ev.related_target()) else {
        return;
    };
    if from_marker {
        t.cancel_open();
        host.set_highlight(Highlight::None);
    }
    // Keep the card while it or its marker has focus.
    let focused_inside = dom::active_element()
        .is_some_and(|el| el.closest(class::CARD_SEL).ok().flatten().is_some());
    if focused_inside {
        return;
    }
    t.cancel_close();
    let h = host.clone();
    let handle = Timeout::new(CLOSE_DELAY_MS, move || h.set_card(None));
    *t.close.borrow_mut() = handle;
}

pub(crate) fn on_focus_in<H: Host>(host: &H, t: &std::rc::Rc<Timers>, ev: web_sys::FocusEvent) {
    if dom::closest(ev.target(), class::CARD_SEL).is_some() {
        t.cancel_close();
        return;
    }
    if let Some((_, ci, k)) = marker_of(ev.target()) {
        t.cancel_open();
        t.cancel_close();
        host.set_highlight(Highlight::Citation(ci));
        // Focus given back by Escape: the reader closed this card.
        if t.escaped.take() == Some((ci, k)) {
            return;
        }
        if !host.card().is_some_and(|c| c.ci == ci && c.k == k) {
            open_card(host, ci, k);
        }
    }
}

pub(crate) fn on_focus_out<H: Host>(host: &H, t: &std::rc::Rc<Timers>, ev: web_sys::FocusEvent) {
    if REPLACING.with(Cell::get) {
        return;
    }
    if marker_of(ev.target()).is_some() {
        t.escaped.set(None);
    }
    // A press on the card's text (or a marker) takes the focus to nothing: the reader
    // is in the card (selecting its text, say), not leaving it.
    let related = ev.related_target();
    if related.is_none() && t.last_press.borrow().as_ref().is_some_and(|(_, on)| *on) {
        return;
    }
    let Some(from_marker) = leaving(ev.target(), related) else {
        return;
    };
    if from_marker {
        host.set_highlight(Highlight::None);
    }
    t.cancel_open();
    host.set_card(None);
}

pub(crate) fn on_answer_click<H: Host>(
    host: &H,
    t: &std::rc::Rc<Timers>,
    panel: bool,
    ev: web_sys::MouseEvent,
) {
    // Pager buttons in the card.
    if let Some(btn) = dom::closest(ev.target(), class::CARD_NAV_SEL) {
        let step: isize = if btn.get_attribute("data-nav").as_deref() == Some("prev") {
            -1
        } else {
            1
        };
        if let Some(mut c) = host.card() {
            let total = host.sources_of(c.ci).len();
            let next = c.page as isize + step;
            if next >= 0 && (next as usize) < total {
                c.page = next as usize;
                host.set_card(Some(c));
            }
        }
        return;
    }
    let Some((_, ci, k)) = marker_of(ev.target()) else {
        return;
    };
    let touch = t.touch.replace(false);
    let n = source_at(host, ci, k);
    let mut detail = vec![("citation", wasm_bindgen::JsValue::from(ci as u32))];
    if let Some(n) = n {
        detail.extend(source_detail(host, n));
    }
    host.emit("citation-click", &detail);
    if touch {
        ev.prevent_default();
        if t.open_at_tap.take() == Some((ci, k)) {
            host.set_card(None);
            host.set_highlight(Highlight::None);
        } else {
            host.set_highlight(Highlight::Citation(ci));
            if !host.card().is_some_and(|c| c.ci == ci && c.k == k) {
                open_card(host, ci, k);
            }
        }
    }
    if panel {
        if touch {
            host.select_in_place(n);
        } else {
            ev.prevent_default();
            host.select(n);
        }
    }
}

/// Whether a press on `target` is on a marker or a card (it keeps the card open).
fn pressed_on_card(target: Option<web_sys::EventTarget>) -> bool {
    dom::closest(target.clone(), class::MARKER_LINK_SEL).is_some()
        || dom::closest(target, class::CARD_SEL).is_some()
}

/// An event of the page while the answer's card is open ([`crate::dom::page`]), for
/// either host: a press outside closes the card (touch has no pointer-leave), Escape
/// closes it ([`on_window_key_down`]), and on a scroll of the page or of a container
/// around the answer, or a new window size, a card opened by the keyboard follows its
/// marker while that is on screen and any other closes (a scroll that cannot move the
/// marker, in the card or the panel, changes nothing).
pub(crate) fn on_page_event<H: Host>(host: &H, t: &Timers, what: PageEvent, ev: web_sys::Event) {
    match what {
        PageEvent::Press => {
            // A press the answer saw was told apart there (the window sees it
            // retargeted when the answer is in a shadow root); any other by its target.
            let seen = match &*t.last_press.borrow() {
                Some((p, on)) if *p == ev => Some(*on),
                _ => None,
            };
            if seen.is_none() {
                // Pressed outside the answer: an earlier press there is over.
                t.last_press.borrow_mut().take();
            }
            let inside = seen.unwrap_or_else(|| pressed_on_card(ev.target()));
            if !inside && host.card().is_some() {
                host.set_card(None);
            }
        }
        PageEvent::Key => {
            if let Some(k) = ev.dyn_ref::<web_sys::KeyboardEvent>() {
                on_window_key_down(host, t, k);
            }
        }
        PageEvent::Scroll => {
            let Some(c) = host.card() else { return };
            let link = dom::by_id(&ref_id(&host.render(), c.ci, c.k));
            if !scroll_moves(ev.target(), link.as_ref()) {
                return;
            }
            if !host
                .card_element()
                .is_some_and(|card| follow_marker(&card, link))
            {
                host.set_card(None);
            }
        }
    }
}

/// Escape anywhere on the page while the card is open (a card opened by hovering has
/// no focus inside the answer; WCAG 1.4.13 wants it dismissible without moving the
/// pointer): it closes. Focus that was in the card goes back to its marker, which does
/// not open the card again; focus elsewhere stays where it is.
pub(crate) fn on_window_key_down<H: Host>(host: &H, t: &Timers, ev: &web_sys::KeyboardEvent) {
    if ev.key() != "Escape" || ev.default_prevented() {
        return;
    }
    let Some(c) = host.card() else { return };
    // Read before the card hides (its focused control then loses the focus).
    let in_card = dom::active_element()
        .is_some_and(|el| el.closest(class::CARD_SEL).ok().flatten().is_some());
    t.cancel_open();
    t.cancel_close();
    host.set_card(None);
    let id = ref_id(&host.render(), c.ci, c.k);
    let Some(marker) = dom::by_id(&id) else {
        return;
    };
    let on_marker = dom::active_element().is_some_and(|el| el.is_same_node(Some(&marker)));
    if in_card {
        ev.prevent_default();
        t.escaped.set(Some((c.ci, c.k)));
        dom::focus(&marker);
    } else if on_marker {
        ev.prevent_default();
    }
}

/// A key on the answer. `panel`: a source panel shows this answer's sources (Enter on a
/// marker selects its source there, as a click does).
pub(crate) fn on_key_down<H: Host>(host: &H, t: &Timers, panel: bool, ev: web_sys::KeyboardEvent) {
    match ev.key().as_str() {
        "Escape" => on_window_key_down(host, t, &ev),
        "Tab" => {
            // Tab past the card's last control (or Shift+Tab before its first): the
            // card is at the end of the answer's markup, so focus would jump past the
            // whole answer. It closes and focus goes back to its marker, where the next
            // Tab goes on to the next marker.
            let Some(c) = host.card() else { return };
            let Some(card) = dom::closest(ev.target(), class::CARD_SEL) else {
                return;
            };
            let Ok(controls) = card.query_selector_all("a[href], button:not([disabled])") else {
                return;
            };
            let edge = if ev.shift_key() {
                controls.item(0)
            } else {
                controls.item(controls.length().saturating_sub(1))
            };
            let at_edge = edge.is_some_and(|n| {
                ev.target()
                    .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Node>(t).ok())
                    .is_some_and(|t| t.is_same_node(Some(&n)))
            });
            if at_edge {
                ev.prevent_default();
                host.set_card(None);
                let id = ref_id(&host.render(), c.ci, c.k);
                if let Some(el) = dom::by_id(&id) {
                    dom::focus(&el);
                }
            }
        }
        "Enter" => {
            if let Some((_, ci, k)) = marker_of(ev.target()) {
                ev.prevent_default();
                open_card(host, ci, k);
                if panel {
                    host.select(source_at(host, ci, k));
                }
                let card_id = format!("{}-card", host.render().id_prefix);
                // Focus moves into the card once the effect has filled it.
                dom::defer(move || {
                    if let Some(card) = dom::by_id(&card_id) {
                        if let Ok(Some(first)) = card.query_selector("a, button:not([disabled])") {
                            dom::focus(&first);
                        }
                    }
                });
            }
        }
        _ => {}
    }
}

/// A pointer or focus over the source panel: lights the source under it (or clears a
/// source's light when it is over no source).
pub(crate) fn on_panel_hover<H: Host>(host: &H, target: Option<web_sys::EventTarget>) {
    match dom::closest(target, class::SOURCE_SEL).and_then(|el| dom::data_num::<u32>(&el, "source"))
    {
        Some(n) => host.set_highlight(Highlight::Source(n)),
        None => on_panel_leave(host),
    }
}

/// The pointer or focus left the source panel: a source's light goes out.
pub(crate) fn on_panel_leave<H: Host>(host: &H) {
    if matches!(host.highlight(), Highlight::Source(_)) {
        host.set_highlight(Highlight::None);
    }
}

/// A click in the source panel: a source's toggle selects it (expanded), or
/// deselects it when it is selected.
pub(crate) fn on_panel_click<H: Host>(host: &H, ev: &web_sys::MouseEvent) {
    if let Some(btn) = dom::closest(ev.target(), class::SOURCE_TOGGLE_SEL) {
        let n = dom::data_num::<u32>(&btn, "source");
        if n.is_some() && host.selected() == n {
            host.select(None);
        } else {
            host.select(n);
        }
    }
}
