//! The source panel component.

use super::dom::{bring_into_view, set_expanded};
use super::html::panel_html;
use crate::components::answer::dom::events::{
    on_panel_click, on_panel_hover, on_panel_leave, source_detail, Host,
};
use crate::components::context::{sources_key, take_quiet_selection, CiteContext};
use crate::render::class;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use std::cell::RefCell;
use std::rc::Rc;

/// Marks that a [`SourcePanel`] is mounted under this context (clicks select in it).
#[derive(Clone, Copy)]
pub(crate) struct PanelPresent;

/// The source panel: every source with number, title, domain and snippet; cited ones
/// first with how often they are cited, uncited ones dimmed or hidden (`uncited`
/// option). Hover or focus a source to highlight its markers and spans; click it to
/// expand its details. A marker click selects its source here. An `<aside>` named by
/// its heading, which carries a hidden excerpt of the answer so that several answers'
/// panels have distinct names.
#[component]
pub fn SourcePanel() -> impl IntoView {
    let ctx = CiteContext::use_or_provide();
    provide_context(PanelPresent);
    // Rebuilt only when what it shows changes (a source cited, a count), not on every
    // chunk of a streaming answer.
    let key = sources_key(ctx);
    let html = Memo::new(move |_| {
        // A read (not `track()`): it brings the lazy memo up to date, so it has its own
        // sources and notifies this one when they change.
        key.with(|_| ());
        let r = ctx.render.get();
        ctx.answer.with_untracked(|a| panel_html(a, &r))
    });
    let prefix = ctx.prefix();
    let panel_id = format!("{prefix}-panel");
    let title_id = format!("{prefix}-panel-title");
    let expanded: Rc<RefCell<Option<u32>>> = Rc::new(RefCell::new(None));
    let expanded = SendWrapper::new(expanded);
    // Selection: expand the selected source, then bring it into view as it is then.
    Effect::new(move |_| {
        let sel = ctx.selected.get();
        let _ = ctx.answer.get();
        let r = ctx.render.get_untracked();
        let mut prev = expanded.borrow_mut();
        let a = ctx.answer.get_untracked();
        if let Some(p) = prev.take() {
            set_expanded(&r, &a, p, false);
        }
        let quiet = take_quiet_selection();
        if let Some(n) = sel {
            ctx.emit("source-select", &source_detail(&ctx, n));
            set_expanded(&r, &a, n, true);
            if !quiet {
                bring_into_view(&r, n);
            }
            *prev = Some(n);
        }
    });
    view! {
        <aside class=class::PANEL id=panel_id aria-labelledby=title_id
            on:pointerover=move |ev: web_sys::PointerEvent| on_panel_hover(&ctx, ev.target())
            on:pointerleave=move |_| on_panel_leave(&ctx)
            on:focusin=move |ev: web_sys::FocusEvent| on_panel_hover(&ctx, ev.target())
            on:focusout=move |_| on_panel_leave(&ctx)
            on:click=move |ev: web_sys::MouseEvent| on_panel_click(&ctx, &ev)
            inner_html=html>
        </aside>
    }
}
