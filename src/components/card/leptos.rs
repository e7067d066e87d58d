//! The hover card of the components: kept in step with `ctx.card` by an effect.

use super::dom::show_card;
use crate::components::context::CiteContext;
use crate::dom::util as dom;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use std::cell::RefCell;
use web_sys::Element;

/// Keeps the card element in step with `ctx.card`: content, visibility, position,
/// `data-state` of the marker and its `aria-describedby`.
pub(crate) fn wire_card(ctx: CiteContext) {
    let last = SendWrapper::new(RefCell::new(None::<Element>));
    Effect::new(move |_| {
        let card = ctx.card.get();
        let a = ctx.answer.get_untracked();
        let r = ctx.render.get_untracked();
        let Some(el) = dom::by_id(&format!("{}-card", r.id_prefix)) else {
            return;
        };
        show_card(&el, &mut last.borrow_mut(), &a, &r, card);
    });
}
