//! Events of a mounted answer: the listeners on its element and the page's, what a
//! pointer, key or focus event does (through the answer's shared handlers,
//! `dom::events`, to which the driver is a [`Host`]), the card shown and placed at its
//! marker, the highlight, and the copy button.

use super::{Driver, Inner};
use crate::components::answer::dom::events::{
    emit_from, on_answer_click, on_focus_in, on_focus_out, on_key_down, on_page_event,
    on_panel_click, on_panel_hover, on_panel_leave, on_pointer_down, on_pointer_out,
    on_pointer_over, source_detail, Host,
};
use crate::components::answer::dom::highlight::apply_highlight;
use crate::components::card::dom::show_card;
use crate::components::panel::dom::{bring_into_view, set_expanded};
use crate::core::export::copy_text;
use crate::dom::page::{self, PageEvent};
use crate::dom::state::{sources_of, Card, Highlight, Timeout};
use crate::dom::util as dom;
use crate::render::{class, RenderOptions};
use std::rc::{Rc, Weak};
use std::sync::Arc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, EventTarget};

impl Driver {
    pub(super) fn close_card(&self) {
        self.0.card.set(None);
        self.0.card_link.borrow_mut().take();
    }

    /// The card element in line with the card state.
    pub(super) fn show_card_now(&self) {
        let i = &self.0;
        let Ok(nodes) = i.nodes.try_borrow() else {
            return;
        };
        let Some(nodes) = nodes.as_ref() else { return };
        let Ok(mut last) = i.card_link.try_borrow_mut() else {
            return;
        };
        let r = i.render.borrow().clone();
        let c = i.card.get();
        self.with_model(|a| show_card(&nodes.card, &mut last, a, &r, c));
    }

    pub(super) fn light(&self) {
        let i = &self.0;
        let h = i.highlight.get();
        if h == Highlight::None && !i.lit.get() {
            return;
        }
        let Ok(nodes) = i.nodes.try_borrow() else {
            return;
        };
        let Some(nodes) = nodes.as_ref() else { return };
        let r = i.render.borrow().clone();
        let lit = self.with_model(|a| apply_highlight(&nodes.root, a, &r, h));
        i.lit.set(lit);
    }

    pub(super) fn copy(&self) {
        let i = &self.0;
        if !dom::copy_text(&self.with_model(copy_text)) {
            web_sys::console::warn_1(
                &"citekit: the answer could not be copied (this page has no clipboard access)"
                    .into(),
            );
            return;
        }
        let r = i.render.borrow().clone();
        let Some(btn) = i
            .nodes
            .borrow()
            .as_ref()
            .and_then(|n| n.answer.query_selector(".cite-copy").ok().flatten())
        else {
            return;
        };
        let _ = btn.set_attribute("data-state", "copied");
        btn.set_text_content(Some(r.labels.get("copied")));
        let back = btn.clone();
        let t = Timeout::new(1500, move || {
            let _ = back.set_attribute("data-state", "idle");
            back.set_text_content(Some(r.labels.get("copy")));
        });
        *i.copied.borrow_mut() = t;
    }

    /// Delegated listeners on the element (they outlive re-renders of its content); the
    /// window's (a press outside, Escape, a scroll close the card) are the page's, once
    /// for every answer ([`page`]).
    pub(super) fn listen(&self) {
        for name in [
            "pointerover",
            "pointerout",
            "pointerdown",
            "click",
            "focusin",
            "focusout",
            "keydown",
            "pointerleave",
        ] {
            self.listen_to(name);
        }
        let root = dom::shadow_root_of(&self.0.element).map(EventTarget::from);
        page::join(root);
    }

    /// Listens to `event` on the answer's element, handled by
    /// [`on_event`](Self::on_event) under the same name: one closure type for every
    /// listener (the page's are of the same type).
    pub(super) fn listen_to(&self, event: &'static str) {
        let f = listener(Rc::downgrade(&self.0), event);
        let _ = self
            .0
            .element
            .add_event_listener_with_callback(event, f.as_ref().unchecked_ref());
        self.0.listeners.borrow_mut().push((event, f));
    }

    pub(super) fn in_panel(target: Option<EventTarget>) -> bool {
        dom::closest(target, class::PANEL_SEL).is_some()
    }

    pub(super) fn on_event(&self, name: &str, ev: web_sys::Event) {
        // A reader reached the answer before the task that completes it: completed now.
        self.flush_deferred();
        let t = self.0.timers.clone();
        let panel = self.0.display.get().panel;
        match name {
            "pointerover" => {
                if Self::in_panel(ev.target()) {
                    on_panel_hover(self, ev.target());
                } else if let Ok(ev) = ev.dyn_into() {
                    on_pointer_over(self, &t, ev);
                }
            }
            "pointerout" => {
                let related = ev
                    .dyn_ref::<web_sys::MouseEvent>()
                    .and_then(|m| m.related_target());
                if Self::in_panel(ev.target()) && !Self::in_panel(related) {
                    on_panel_leave(self);
                }
                if let Ok(ev) = ev.dyn_into() {
                    on_pointer_out(self, &t, ev);
                }
            }
            "pointerdown" => {
                if let Ok(ev) = ev.dyn_into() {
                    on_pointer_down(self, &t, ev);
                }
            }
            "click" => {
                if dom::closest(ev.target(), ".cite-copy").is_some() {
                    self.copy();
                    return;
                }
                if Self::in_panel(ev.target()) {
                    if let Some(m) = ev.dyn_ref::<web_sys::MouseEvent>() {
                        on_panel_click(self, m);
                    }
                }
                let link = dom::closest(ev.target(), "a[href^=\"#\"]");
                if let Ok(m) = ev.clone().dyn_into() {
                    on_answer_click(self, &t, panel, m);
                }
                if let Some(a) = link.filter(|_| !ev.default_prevented()) {
                    follow_in_shadow_root(&a, &ev);
                }
            }
            "focusin" => {
                if Self::in_panel(ev.target()) {
                    on_panel_hover(self, ev.target());
                } else if let Ok(ev) = ev.dyn_into() {
                    on_focus_in(self, &t, ev);
                }
            }
            "focusout" => {
                if Self::in_panel(ev.target()) {
                    on_panel_leave(self);
                } else if let Ok(ev) = ev.dyn_into() {
                    on_focus_out(self, &t, ev);
                }
            }
            "keydown" => {
                if let Ok(ev) = ev.dyn_into() {
                    on_key_down(self, &t, panel, ev);
                }
            }
            _ => {}
        }
    }
}

/// A footnote link or back-link (`#cite1-fn-1`) in an answer inside a shadow root: the
/// browser looks for the id in the document only and goes nowhere, so it is followed
/// here (scrolled to and focused). In the document the browser follows it (and
/// `:target` styles its footnote).
pub(super) fn follow_in_shadow_root(link: &Element, ev: &web_sys::Event) {
    let Some(id) = link.get_attribute("href") else {
        return;
    };
    let id = id.get(1..).unwrap_or_default();
    if id.is_empty() || dom::document().is_some_and(|d| d.get_element_by_id(id).is_some()) {
        return;
    }
    let Some(root) = dom::shadow_root_of(link) else {
        return;
    };
    let Some(target) = root.get_element_by_id(id) else {
        return;
    };
    ev.prevent_default();
    if !target.has_attribute("tabindex") && target.closest("a, button").ok().flatten().is_none() {
        let _ = target.set_attribute("tabindex", "-1");
    }
    dom::scroll_into_view(&target);
    dom::focus(&target);
}

/// A listener on the answer `view`'s element, handled by [`Driver::on_event`] as
/// `what`. One closure type for every listener (the page's are of the same type).
pub(super) fn listener(view: Weak<Inner>, what: &'static str) -> page::Listener {
    Closure::new(move |ev: web_sys::Event| {
        if let Some(d) = view.upgrade() {
            Driver(d).on_event(what, ev);
        }
    })
}

/// The page's handle of an answer whose card is open: it lets go of the answer.
impl page::OpenAnswer for Weak<Inner> {
    fn on_page_event(&self, what: PageEvent, ev: web_sys::Event) {
        if let Some(d) = upgrade(self) {
            let t = d.0.timers.clone();
            on_page_event(&d, &t, what, ev);
        }
    }
    fn close_card(&self) {
        if let Some(d) = upgrade(self) {
            d.set_card(None);
        }
    }
    fn id(&self) -> usize {
        self.as_ptr() as usize
    }
}

pub(super) fn upgrade(w: &Weak<Inner>) -> Option<Driver> {
    w.upgrade().map(Driver)
}

impl Host for Driver {
    fn card(&self) -> Option<Card> {
        self.0.card.get()
    }
    fn set_card(&self, card: Option<Card>) {
        if self.0.card.get() == card {
            return;
        }
        self.0.card.set(card);
        // One card on the page: opening one closes another answer's.
        if card.is_some() {
            page::opened(Box::new(Rc::downgrade(&self.0)));
        }
        self.show_card_now();
    }
    fn select_in_place(&self, n: Option<u32>) {
        let r = self.0.render.borrow().clone();
        if let Some(p) = self.0.selected.replace(n) {
            self.with_model(|a| set_expanded(&r, a, p, false));
        }
        if let Some(n) = n {
            self.emit("source-select", &source_detail(self, n));
            self.with_model(|a| set_expanded(&r, a, n, true));
        }
    }
    fn highlight(&self) -> Highlight {
        self.0.highlight.get()
    }
    fn set_highlight(&self, h: Highlight) {
        // Already so: nothing to sweep (pointerover fires on every move within a marker).
        if self.0.highlight.get() == h && self.0.lit.get() == (h != Highlight::None) {
            return;
        }
        self.0.highlight.set(h);
        self.light();
    }
    fn select(&self, n: Option<u32>) {
        self.select_in_place(n);
        if let Some(n) = n {
            bring_into_view(&self.0.render.borrow(), n);
        }
    }
    fn selected(&self) -> Option<u32> {
        self.0.selected.get()
    }
    fn sources_of(&self, ci: usize) -> Vec<u32> {
        self.with_model(|a| sources_of(a, ci))
    }
    fn source_id(&self, n: u32) -> Option<String> {
        self.with_model(|a| a.source_by_number(n).map(|s| s.id.clone()))
    }
    fn render(&self) -> Arc<RenderOptions> {
        self.0.render.borrow().clone()
    }
    fn emit(&self, name: &str, detail: &[(&str, wasm_bindgen::JsValue)]) {
        let root = self
            .0
            .nodes
            .try_borrow()
            .ok()
            .and_then(|n| n.as_ref().map(|n| n.root.clone()));
        if let Some(root) = root {
            emit_from(&root, name, detail);
        }
    }
    fn card_element(&self) -> Option<Element> {
        let nodes = self.0.nodes.try_borrow().ok()?;
        nodes.as_ref().map(|n| n.card.clone())
    }
}
