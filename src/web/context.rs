//! The state one answer's components share ([`CiteContext`]), its provider, and the
//! events an answer dispatches.

use crate::core::formats::Data;
use crate::core::model::CitedAnswer as Model;
use crate::core::options::Options;
use crate::render::RenderOptions;
use crate::web::dom;
use leptos::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// What is highlighted in the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Highlight {
    /// Nothing.
    #[default]
    None,
    /// One citation's marker and span (marker hovered or focused).
    Citation(usize),
    /// Every marker and span of one source (panel entry hovered or focused).
    Source(u32),
}

/// The open hover card: citation `ci`, showing its source at `page`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Card {
    /// Citation index.
    pub ci: usize,
    /// Which of the citation's sources is shown.
    pub page: usize,
    /// Which marker link opened it (its place among its marker's links).
    pub k: usize,
}

/// State shared by the components of one answer: the parsed answer and what is
/// highlighted, selected and open. Provide it with [`CitationProvider`] to place the
/// panel and footnotes anywhere; [`CitedAnswer`] makes its own when there is none.
#[derive(Clone, Copy)]
pub struct CiteContext {
    /// The parsed answer.
    pub answer: RwSignal<Arc<Model>>,
    /// Render options (id prefix, marker style, labels).
    pub render: RwSignal<Arc<RenderOptions>>,
    /// What is highlighted.
    pub highlight: RwSignal<Highlight>,
    /// The source selected in the panel (its number).
    pub selected: RwSignal<Option<u32>>,
    /// The open card.
    pub card: RwSignal<Option<Card>>,
}

static NEXT_ID: AtomicUsize = AtomicUsize::new(1);

/// A unique id prefix for one answer's elements (`cite1`, `cite2`, ...). Rendered on a
/// server and hydrated in the browser, both sides must pick the same one: there it
/// comes from the render's shared context, which counts the same way on both sides
/// (`citeh1`, ...); a process-wide counter would differ between requests.
pub(crate) fn next_prefix() -> String {
    #[cfg(any(feature = "ssr", feature = "hydrate"))]
    if let Some(shared) = Owner::current_shared_context() {
        return format!("citeh{}", shared.next_id().into_inner());
    }
    format!("cite{}", NEXT_ID.fetch_add(1, Ordering::Relaxed))
}

impl CiteContext {
    /// A fresh context with an empty answer and a unique id prefix.
    pub fn new() -> Self {
        let opts = RenderOptions {
            id_prefix: next_prefix(),
            ..RenderOptions::default()
        };
        let empty = crate::core::parse_lenient(Some(""), Data::None, &Options::default());
        CiteContext {
            answer: RwSignal::new(Arc::new(empty)),
            render: RwSignal::new(Arc::new(opts)),
            highlight: RwSignal::new(Highlight::None),
            selected: RwSignal::new(None),
            card: RwSignal::new(None),
        }
    }

    /// The context of the enclosing provider, or a new one provided here.
    pub fn use_or_provide() -> Self {
        match use_context::<CiteContext>() {
            Some(c) => c,
            None => {
                let c = CiteContext::new();
                provide_context(c);
                c
            }
        }
    }

    pub(crate) fn prefix(&self) -> String {
        self.render.with_untracked(|r| r.id_prefix.clone())
    }

    /// Citation indices that name source number `n`.
    pub(crate) fn citations_of(&self, n: u32) -> Vec<usize> {
        self.answer.with_untracked(|a| {
            let Some(id) = a.source_by_number(n).map(|s| s.id.clone()) else {
                return Vec::new();
            };
            a.citations
                .iter()
                .enumerate()
                .filter(|(_, c)| c.sources.contains(&id))
                .map(|(i, _)| i)
                .collect()
        })
    }

    /// The source numbers of citation `ci`.
    pub(crate) fn sources_of(&self, ci: usize) -> Vec<u32> {
        self.answer.with_untracked(|a| {
            a.citations
                .get(ci)
                .map(|c| {
                    c.sources
                        .iter()
                        .filter_map(|id| a.source(id).map(|s| s.number))
                        .collect()
                })
                .unwrap_or_default()
        })
    }
}

impl Default for CiteContext {
    fn default() -> Self {
        Self::new()
    }
}

/// Provides one [`CiteContext`] to its children, so a [`CitedAnswer`], a
/// [`SourcePanel`] and [`Footnotes`] placed anywhere inside share one answer.
#[component]
pub fn CitationProvider(
    /// The components to connect.
    children: Children,
) -> impl IntoView {
    // A child owner, so the context reaches the children only (not later siblings).
    let owner = Owner::current().map(|p| p.child()).unwrap_or_default();
    let view = owner.with(|| {
        provide_context(CiteContext::new());
        children()
    });
    leptos::tachys::reactive_graph::OwnedView::new_with_owner(view, owner)
}

/// Dispatches a bubbling, composed `CustomEvent` named `name` from the answer root
/// with `detail` built from `(key, value)` pairs.
pub(crate) fn emit(ctx: CiteContext, name: &str, detail: &[(&str, wasm_bindgen::JsValue)]) {
    let Some(root) = dom::by_id(&ctx.prefix()) else {
        return;
    };
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

/// `detail` fields of a source: its id and display number.
pub(crate) fn source_detail(
    ctx: CiteContext,
    n: u32,
) -> Vec<(&'static str, wasm_bindgen::JsValue)> {
    let id = ctx
        .answer
        .with_untracked(|a| a.source_by_number(n).map(|s| s.id.clone()));
    vec![
        (
            "sourceId",
            id.map(Into::into).unwrap_or(wasm_bindgen::JsValue::NULL),
        ),
        ("number", n.into()),
    ]
}
