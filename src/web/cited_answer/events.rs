//! Pointer, focus, click and key handling of an answer (delegated on its root), and
//! the card's timers.

use crate::render::class;
use crate::render::{self};
use crate::web::context::{emit, source_detail, Card, CiteContext, Highlight};
use crate::web::dom;
use crate::web::source_panel::PanelPresent;
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;
use web_sys::Element;

/// Timers of one answer's hover card (open delay, close grace).
#[derive(Default)]
pub(crate) struct Timers {
    pub(crate) open: RefCell<Option<TimeoutHandle>>,
    pub(crate) close: RefCell<Option<TimeoutHandle>>,
    pub(crate) touch: Cell<bool>,
    /// The card (citation, link) that was open when the current tap began. A tap also
    /// focuses the marker (pointerdown, focus, click), and the focus opens its card:
    /// the click then toggles against the state before the tap, not the one the focus
    /// just made.
    pub(crate) open_at_tap: Cell<Option<(usize, usize)>>,
}

impl Timers {
    pub(crate) fn cancel_open(&self) {
        if let Some(h) = self.open.borrow_mut().take() {
            h.clear();
        }
    }
    pub(crate) fn cancel_close(&self) {
        if let Some(h) = self.close.borrow_mut().take() {
            h.clear();
        }
    }
}

/// Delay before a hovered marker opens its card.
pub(crate) const OPEN_DELAY: Duration = Duration::from_millis(120);
/// Grace time for the pointer to move from the marker into the card.
pub(crate) const CLOSE_DELAY: Duration = Duration::from_millis(180);

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

pub(crate) fn open_card(ctx: CiteContext, ci: usize, k: usize) {
    let page = k.min(ctx.sources_of(ci).len().saturating_sub(1));
    ctx.card.set(Some(Card { ci, page, k }));
}

pub(crate) fn on_pointer_down(ctx: CiteContext, t: &Rc<Timers>, ev: web_sys::PointerEvent) {
    let touch = ev.pointer_type() == "touch";
    t.touch.set(touch);
    t.open_at_tap.set(
        touch
            .then(|| ctx.card.get_untracked().map(|c| (c.ci, c.k)))
            .flatten(),
    );
}

pub(crate) fn on_pointer_over(ctx: CiteContext, t: &Rc<Timers>, ev: web_sys::PointerEvent) {
    if ev.pointer_type() == "touch" {
        return;
    }
    if dom::closest(ev.target(), class::CARD_SEL).is_some() {
        t.cancel_close();
        return;
    }
    if let Some((_, ci, k)) = marker_of(ev.target()) {
        t.cancel_close();
        ctx.highlight.set(Highlight::Citation(ci));
        if ctx
            .card
            .get_untracked()
            .is_some_and(|c| c.ci == ci && c.k == k)
        {
            return;
        }
        t.cancel_open();
        let handle = set_timeout_with_handle(move || open_card(ctx, ci, k), OPEN_DELAY).ok();
        *t.open.borrow_mut() = handle;
    }
}

pub(crate) fn on_pointer_out(ctx: CiteContext, t: &Rc<Timers>, ev: web_sys::PointerEvent) {
    if ev.pointer_type() == "touch" {
        return;
    }
    let from_marker = marker_of(ev.target()).is_some();
    let from_card = dom::closest(ev.target(), class::CARD_SEL).is_some();
    if !from_marker && !from_card {
        return;
    }
    let to = ev.related_target();
    let to_card = dom::closest(to.clone(), class::CARD_SEL).is_some();
    let to_marker = marker_of(to).is_some();
    if to_card || (from_card && to_marker) {
        return;
    }
    if from_marker {
        t.cancel_open();
        ctx.highlight.set(Highlight::None);
    }
    // Keep the card while it or its marker has focus.
    let focused_inside = dom::document()
        .and_then(|d| d.active_element())
        .is_some_and(|el| el.closest(class::CARD_SEL).ok().flatten().is_some());
    if focused_inside {
        return;
    }
    t.cancel_close();
    let handle = set_timeout_with_handle(move || ctx.card.set(None), CLOSE_DELAY).ok();
    *t.close.borrow_mut() = handle;
}

pub(crate) fn on_focus_in(ctx: CiteContext, t: &Rc<Timers>, ev: web_sys::FocusEvent) {
    if dom::closest(ev.target(), class::CARD_SEL).is_some() {
        t.cancel_close();
        return;
    }
    if let Some((_, ci, k)) = marker_of(ev.target()) {
        t.cancel_open();
        t.cancel_close();
        ctx.highlight.set(Highlight::Citation(ci));
        if !ctx
            .card
            .get_untracked()
            .is_some_and(|c| c.ci == ci && c.k == k)
        {
            open_card(ctx, ci, k);
        }
    }
}

thread_local! {
    /// True while the card's content is being replaced (its blur is not a leave).
    pub(crate) static REPLACING: Cell<bool> = const { Cell::new(false) };
}

pub(crate) fn on_focus_out(ctx: CiteContext, t: &Rc<Timers>, ev: web_sys::FocusEvent) {
    if REPLACING.with(Cell::get) {
        return;
    }
    let from_marker = marker_of(ev.target()).is_some();
    let from_card = dom::closest(ev.target(), class::CARD_SEL).is_some();
    if !from_marker && !from_card {
        return;
    }
    let to = ev.related_target();
    if dom::closest(to.clone(), class::CARD_SEL).is_some() || (from_card && marker_of(to).is_some())
    {
        return;
    }
    if from_marker {
        ctx.highlight.set(Highlight::None);
    }
    t.cancel_open();
    ctx.card.set(None);
}

pub(crate) fn on_answer_click(
    ctx: CiteContext,
    t: &Rc<Timers>,
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
        if let Some(mut c) = ctx.card.get_untracked() {
            let total = ctx.sources_of(c.ci).len();
            let next = c.page as isize + step;
            if next >= 0 && (next as usize) < total {
                c.page = next as usize;
                ctx.card.set(Some(c));
            }
        }
        return;
    }
    let Some((_, ci, k)) = marker_of(ev.target()) else {
        return;
    };
    let touch = t.touch.replace(false);
    let sources = ctx.sources_of(ci);
    let n = sources.get(k).copied().or(sources.first().copied());
    let mut detail = vec![("citation", wasm_bindgen::JsValue::from(ci as u32))];
    if let Some(n) = n {
        detail.extend(source_detail(ctx, n));
    }
    emit(ctx, "citation-click", &detail);
    if touch {
        ev.prevent_default();
        if t.open_at_tap.take() == Some((ci, k)) {
            ctx.card.set(None);
            ctx.highlight.set(Highlight::None);
        } else {
            ctx.highlight.set(Highlight::Citation(ci));
            if !ctx
                .card
                .get_untracked()
                .is_some_and(|c| c.ci == ci && c.k == k)
            {
                open_card(ctx, ci, k);
            }
        }
    }
    if panel || use_context::<PanelPresent>().is_some() {
        if !touch {
            ev.prevent_default();
        }
        ctx.selected.set(None);
        ctx.selected.set(n);
    }
}

pub(crate) fn on_key_down(ctx: CiteContext, ev: web_sys::KeyboardEvent) {
    match ev.key().as_str() {
        "Escape" => {
            if let Some(c) = ctx.card.get_untracked() {
                ev.prevent_default();
                ctx.card.set(None);
                let id = render::ref_id(&ctx.render.get_untracked(), c.ci, c.k);
                if let Some(el) = dom::by_id(&id) {
                    dom::focus(&el);
                }
            }
        }
        "Enter" => {
            if let Some((_, ci, k)) = marker_of(ev.target()) {
                ev.prevent_default();
                open_card(ctx, ci, k);
                let card_id = format!("{}-card", ctx.prefix());
                // Focus moves into the card once the effect has filled it.
                set_timeout(
                    move || {
                        if let Some(card) = dom::by_id(&card_id) {
                            if let Ok(Some(first)) =
                                card.query_selector("a, button:not([disabled])")
                            {
                                dom::focus(&first);
                            }
                        }
                    },
                    Duration::ZERO,
                );
            }
        }
        _ => {}
    }
}
