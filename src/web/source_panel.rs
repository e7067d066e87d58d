//! The source panel component.

use crate::render::class;
use crate::render::{self, RenderOptions};
use crate::web::context::{emit, source_detail, CiteContext, Highlight};
use crate::web::dom;
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
    // Selection: expand and scroll to the selected source.
    Effect::new(move |_| {
        let sel = ctx.selected.get();
        let _ = ctx.answer.get();
        let r = ctx.render.get_untracked();
        let mut prev = expanded.borrow_mut();
        if let Some(p) = prev.take() {
            set_expanded(&r, p, false);
        }
        if let Some(n) = sel {
            emit(ctx, "source-select", &source_detail(ctx, n));
            set_expanded(&r, n, true);
            if let Some(el) = dom::by_id(&render::panel_item_id(&r, n)) {
                dom::scroll_into_view(&el);
            }
            *prev = Some(n);
        }
    });
    let hover =
        move |target: Option<web_sys::EventTarget>| match dom::closest(target, class::SOURCE_SEL)
            .and_then(|el| dom::data_num::<u32>(&el, "source"))
        {
            Some(n) => ctx.highlight.set(Highlight::Source(n)),
            None => {
                if matches!(ctx.highlight.get_untracked(), Highlight::Source(_)) {
                    ctx.highlight.set(Highlight::None)
                }
            }
        };
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(btn) = dom::closest(ev.target(), class::SOURCE_TOGGLE_SEL) {
            let n = dom::data_num::<u32>(&btn, "source");
            if n.is_some() && ctx.selected.get_untracked() == n {
                ctx.selected.set(None);
            } else {
                ctx.selected.set(n);
            }
        }
    };
    view! {
        <aside class=class::PANEL id=panel_id aria-labelledby=title_id
            on:pointerover=move |ev: web_sys::PointerEvent| hover(ev.target())
            on:pointerleave=move |_| if matches!(ctx.highlight.get_untracked(), Highlight::Source(_)) { ctx.highlight.set(Highlight::None) }
            on:focusin=move |ev: web_sys::FocusEvent| hover(ev.target())
            on:focusout=move |_| if matches!(ctx.highlight.get_untracked(), Highlight::Source(_)) { ctx.highlight.set(Highlight::None) }
            on:click=on_click
            inner_html=html>
        </aside>
    }
}

/// See [`sources_key`].
pub(crate) type SourcesKey = (Vec<Vec<String>>, Vec<(String, u32, u32, bool)>, bool, usize);

/// What the panel and the footnotes show of an answer, cheap to compare: the
/// citations' sources and every source's number, count and state. The answer text
/// is not in it (it grows on every streamed chunk).
pub(crate) fn sources_key(ctx: CiteContext) -> Memo<SourcesKey> {
    Memo::new(move |_| {
        ctx.answer.with(|a| {
            (
                a.citations.iter().map(|c| c.sources.clone()).collect(),
                a.sources
                    .iter()
                    .map(|s| (s.id.clone(), s.number, s.cite_count, s.cited))
                    .collect(),
                a.show_citations,
                a.text.len().min(48),
            )
        })
    })
}

pub(crate) fn set_expanded(r: &RenderOptions, n: u32, open: bool) {
    let id = render::panel_item_id(r, n);
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
        let _ = if open {
            d.remove_attribute("hidden")
        } else {
            d.set_attribute("hidden", "")
        };
    }
}
