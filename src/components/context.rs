//! The state one answer's components share ([`CiteContext`]), its provider, and the
//! events an answer dispatches.

use crate::components::answer::dom::events::{emit_from, Host};
use crate::core::formats::Data;
use crate::core::model::Answer;
use crate::core::options::Options;
pub use crate::dom::state::{Card, Highlight};
use crate::dom::util as dom;
use crate::render::RenderOptions;
use leptos::prelude::*;
use std::sync::Arc;

/// State shared by the components of one answer: the parsed answer and what is
/// highlighted, selected and open. Provide it with [`CitationProvider`] to place the
/// panel and footnotes anywhere; [`CitedAnswer`](crate::web::CitedAnswer) makes its own when there is none.
#[derive(Clone, Copy)]
pub struct CiteContext {
    /// The parsed answer.
    pub answer: RwSignal<Arc<Answer>>,
    /// Render options (id prefix, marker style, labels).
    pub render: RwSignal<Arc<RenderOptions>>,
    /// What is highlighted.
    pub highlight: RwSignal<Highlight>,
    /// The source selected in the panel (its number).
    pub selected: RwSignal<Option<u32>>,
    /// The open card.
    pub card: RwSignal<Option<Card>>,
}

/// A unique id prefix for one answer's elements (`cite1`, `cite2`, ...). Rendered on a
/// server and hydrated in the browser, both sides must pick the same one: there it
/// comes from the render's shared context, which counts the same way on both sides
/// (`citeh1`, ...); a process-wide counter would differ between requests.
pub(crate) fn next_prefix() -> String {
    #[cfg(any(feature = "ssr", feature = "hydrate"))]
    if let Some(shared) = Owner::current_shared_context() {
        return format!("citeh{}", shared.next_id().into_inner());
    }
    crate::dom::state::next_prefix()
}

impl CiteContext {
    /// A fresh context with an empty answer and a unique id prefix.
    pub fn new() -> Self {
        // Every component makes or finds a context before it parses.
        crate::dom::use_browser_tables();
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

    /// The source numbers of citation `ci`.
    pub(crate) fn sources_of(&self, ci: usize) -> Vec<u32> {
        self.answer
            .with_untracked(|a| crate::dom::state::sources_of(a, ci))
    }
}

/// The components' state, read and changed by the shared event handlers; effects
/// bring the DOM in line.
impl Host for CiteContext {
    fn card(&self) -> Option<Card> {
        self.card.get_untracked()
    }
    fn set_card(&self, card: Option<Card>) {
        self.card.set(card);
    }
    fn highlight(&self) -> Highlight {
        self.highlight.get_untracked()
    }
    fn set_highlight(&self, h: Highlight) {
        self.highlight.set(h);
    }
    fn select(&self, n: Option<u32>) {
        // Set twice, so that selecting the selected source again scrolls to it.
        self.selected.set(None);
        self.selected.set(n);
    }
    fn select_in_place(&self, n: Option<u32>) {
        QUIET.with(|q| q.set(true));
        self.select(n);
    }
    fn selected(&self) -> Option<u32> {
        self.selected.get_untracked()
    }
    fn sources_of(&self, ci: usize) -> Vec<u32> {
        CiteContext::sources_of(self, ci)
    }
    fn source_id(&self, n: u32) -> Option<String> {
        self.answer
            .with_untracked(|a| a.source_by_number(n).map(|s| s.id.clone()))
    }
    fn render(&self) -> Arc<RenderOptions> {
        self.render.get_untracked()
    }
    fn emit(&self, name: &str, detail: &[(&str, wasm_bindgen::JsValue)]) {
        if let Some(root) = dom::by_id(&self.prefix()) {
            emit_from(&root, name, detail);
        }
    }
    fn card_element(&self) -> Option<web_sys::Element> {
        dom::by_id(&format!("{}-card", self.prefix()))
    }
}

thread_local! {
    /// The next selection is made without scrolling the panel to it (a tap on a marker:
    /// its card shows the source where the reader is; a scroll would close it). Set by
    /// [`Host::select_in_place`], taken by the [`SourcePanel`](crate::web::SourcePanel).
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the selection just made is to be made without scrolling (see `QUIET`); the
/// flag is cleared.
pub(crate) fn take_quiet_selection() -> bool {
    QUIET.with(|q| q.replace(false))
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
