//! The source panel component.

use crate::dom::events::{on_panel_click, on_panel_hover, on_panel_leave, source_detail, Host};
use crate::dom::panel::{bring_into_view, set_expanded};
use crate::render;
use crate::render::class;
use crate::web::context::{take_quiet_selection, CiteContext};
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
        ctx.answer.with_untracked(|a| render::panel_html(a, &r))
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

/// See [`sources_key`].
pub(crate) type SourcesKey = (
    Vec<Vec<String>>,
    Vec<(String, u32, u32, bool, u64)>,
    bool,
    usize,
);

/// What the panel and the footnotes show of an answer, cheap to compare: the
/// citations' sources and every source's number, count, state and a hash of what its
/// entries read (title, url, domain, snippet: new data may keep the ids and change
/// these). The answer text is not in it (it grows on every streamed chunk).
pub(crate) fn sources_key(ctx: CiteContext) -> Memo<SourcesKey> {
    Memo::new(move |_| {
        ctx.answer.with(|a| {
            (
                a.citations.iter().map(|c| c.sources.clone()).collect(),
                a.sources
                    .iter()
                    .map(|s| (s.id.clone(), s.number, s.cite_count, s.cited, shown_hash(s)))
                    .collect(),
                a.show_citations,
                a.text.len().min(48),
            )
        })
    })
}

/// FNV-1a over the texts a source's list entries show.
fn shown_hash(s: &crate::core::model::Source) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [&s.title, &s.url, &s.domain, &s.snippet] {
        // A separator byte that no UTF-8 text holds, so ("ab", "c") and ("a", "bc") differ.
        let bytes = part.as_deref().unwrap_or("").bytes().chain([0xff]);
        for b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}
