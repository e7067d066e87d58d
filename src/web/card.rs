//! The hover card: filled and placed when it opens, kept inside the viewport.

use crate::render::class;
use crate::render::{self};
use crate::web::cited_answer::events::{Timers, REPLACING};
use crate::web::context::CiteContext;
use crate::web::dom;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::Element;

/// Keeps the card element in step with `ctx.card`: content, visibility, position,
/// `data-state` of the marker and its `aria-describedby`.
pub(crate) fn wire_card(ctx: CiteContext, _t: Rc<Timers>) {
    let last: Rc<RefCell<Option<Element>>> = Rc::new(RefCell::new(None));
    let last = SendWrapper::new(last);
    Effect::new(move |_| {
        let card = ctx.card.get();
        let a = ctx.answer.get_untracked();
        let r = ctx.render.get_untracked();
        let card_id = format!("{}-card", r.id_prefix);
        let Some(el) = dom::by_id(&card_id) else {
            return;
        };
        if let Some(prev) = last.borrow_mut().take() {
            let _ = prev.remove_attribute("aria-describedby");
            if let Ok(Some(sup)) = prev.closest(class::MARKER_SEL) {
                let _ = sup.set_attribute("data-state", "closed");
            }
        }
        let Some(c) = card else {
            let _ = el.set_attribute("hidden", "");
            let _ = el.set_attribute("data-state", "closed");
            el.set_inner_html("");
            return;
        };
        // Replacing the content would blur a focused pager button and close the card:
        // remember what had focus, ignore that blur, and focus its twin afterwards.
        let focused = dom::document()
            .and_then(|d| d.active_element())
            .filter(|f| el.contains(Some(f)));
        let nav = focused.as_ref().and_then(|f| f.get_attribute("data-nav"));
        REPLACING.with(|r| r.set(true));
        el.set_inner_html(&render::card_html(&a, c.ci, c.page, &r));
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
        let Some(link) = dom::by_id(&render::ref_id(&r, c.ci, c.k)) else {
            return;
        };
        let _ = link.set_attribute("aria-describedby", &card_id);
        if let Ok(Some(sup)) = link.closest(class::MARKER_SEL) {
            let _ = sup.set_attribute("data-state", "open");
        }
        position_card(&el, &link);
        *last.borrow_mut() = Some(link);
    });
}

pub(crate) fn position_card(card: &Element, anchor: &Element) {
    let Some(w) = web_sys::window() else { return };
    let vw = w
        .inner_width()
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(1024.0);
    let vh = w
        .inner_height()
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(768.0);
    let a = anchor.get_bounding_client_rect();
    let c = card.get_bounding_client_rect();
    let (left, top, above) = dom::place_card(
        (a.left(), a.top(), a.width(), a.height()),
        (c.width(), c.height()),
        (vw, vh),
    );
    if let Some(h) = card.dyn_ref::<web_sys::HtmlElement>() {
        let s = h.style();
        let _ = s.set_property("left", &format!("{left:.0}px"));
        let _ = s.set_property("top", &format!("{top:.0}px"));
    }
    let _ = card.set_attribute("data-side", if above { "top" } else { "bottom" });
}
