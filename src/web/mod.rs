//! Leptos components: the answer with inline markers and hover cards, the source panel
//! and the footnotes, tied together by a [`CiteContext`].
//!
//! They render in every Leptos mode; the app picks it with this crate's features `csr`
//! (a browser-only app), or `ssr` on the server and `hydrate` in the browser. On a
//! server they write the same markup as in the browser (markers, footnotes, panel), and
//! touch no browser API while a view is built: listeners, the stylesheet and the
//! highlight are set up by effects or only in a browser. A server-rendered page carries
//! [`CSS`] itself.
//!
//! The HTML comes from [`crate::render`] (every input text escaped, every tag ours);
//! behaviour is added by event delegation on the component roots, with state in
//! signals. Usage:
//!
//! ```ignore
//! use citekit::web::{CitedAnswer, CiteData};
//! view! { <CitedAnswer answer="Paris is the capital [1]." data=CiteData::json(map) /> }
//! ```

mod dom;
mod morph;

use crate::core::formats::Data;
use crate::core::model::CitedAnswer as Model;
use crate::core::options::Options;
use crate::render::{self, RenderOptions};
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use wasm_bindgen::JsCast;
use web_sys::Element;

pub use dom::place_card;

/// The stylesheet of every component (`--cite-*` custom properties, light and dark).
pub const CSS: &str = include_str!("../../style/citekit.css");

/// Citation data for a component: none, JSON, or text (JSON text or an event stream).
#[derive(Debug, Clone, PartialEq, Default)]
pub enum CiteData {
    /// No data.
    #[default]
    None,
    /// Parsed JSON.
    Json(Value),
    /// JSON text or an sse event stream.
    Text(String),
}

impl CiteData {
    /// JSON data.
    pub fn json(v: Value) -> Self {
        CiteData::Json(v)
    }

    fn as_data(&self) -> Data<'_> {
        match self {
            CiteData::None => Data::None,
            CiteData::Json(v) => Data::Json(v),
            CiteData::Text(t) => Data::Text(t),
        }
    }
}

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
fn next_prefix() -> String {
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

    fn prefix(&self) -> String {
        self.render.with_untracked(|r| r.id_prefix.clone())
    }

    /// Citation indices that name source number `n`.
    fn citations_of(&self, n: u32) -> Vec<usize> {
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
    fn sources_of(&self, ci: usize) -> Vec<u32> {
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

/// Timers of one answer's hover card (open delay, close grace).
#[derive(Default)]
struct Timers {
    open: RefCell<Option<TimeoutHandle>>,
    close: RefCell<Option<TimeoutHandle>>,
    touch: Cell<bool>,
    /// The card (citation, link) that was open when the current tap began. A tap also
    /// focuses the marker (pointerdown, focus, click), and the focus opens its card:
    /// the click then toggles against the state before the tap, not the one the focus
    /// just made.
    open_at_tap: Cell<Option<(usize, usize)>>,
}

impl Timers {
    fn cancel_open(&self) {
        if let Some(h) = self.open.borrow_mut().take() {
            h.clear();
        }
    }
    fn cancel_close(&self) {
        if let Some(h) = self.close.borrow_mut().take() {
            h.clear();
        }
    }
}

/// Delay before a hovered marker opens its card.
const OPEN_DELAY: Duration = Duration::from_millis(120);
/// Grace time for the pointer to move from the marker into the card.
const CLOSE_DELAY: Duration = Duration::from_millis(180);

/// An answer with inline citation markers, hover cards, and (by option) its source
/// panel and footnotes.
///
/// Hover or focus a marker to open its card (Escape closes it, Enter moves focus into
/// it); click or tap a marker to select its source in the panel. The markup is built
/// from escaped text only: nothing in the answer or the sources can inject HTML.
#[component]
pub fn CitedAnswer(
    /// The answer text (markdown, plain text, HTML or JSON as the format says).
    /// Defaults to empty (for formats whose data holds the text).
    #[prop(into, optional)]
    answer: Signal<String>,
    /// The citation data stored with the answer. Defaults to none.
    #[prop(into, optional)]
    data: Signal<CiteData>,
    /// Parse and display options. Defaults to [`Options::default`].
    #[prop(into, optional)]
    options: Signal<Options>,
    /// Show the source panel beside the answer. Defaults to `false`.
    #[prop(optional)]
    panel: bool,
    /// Show footnotes under the answer. Defaults to `true`.
    #[prop(default = true)]
    footnotes: bool,
    /// Show a button that copies the answer with its citations as markdown. Defaults
    /// to `false`.
    #[prop(optional)]
    copy_button: bool,
    /// Add citekit's stylesheet to the document head. Defaults to `true`.
    #[prop(default = true)]
    inject_css: bool,
    /// The answer is still arriving: `answer` (or, for sse, `data`) grows by appends.
    /// Each append costs in proportion to the open block; a half-received marker is
    /// held back; markers whose sources have not arrived show as pending. Setting it
    /// back to `false` finishes the stream. Defaults to `false`.
    #[prop(into, optional)]
    streaming: Signal<bool>,
) -> impl IntoView {
    // A child owner: a context this answer provides (when no provider is above it)
    // stays with it instead of leaking to the components after it.
    let owner = Owner::current().map(|p| p.child()).unwrap_or_default();
    let view = owner.with(move || {
        cited_answer_view(
            answer,
            data,
            options,
            panel,
            footnotes,
            copy_button,
            inject_css,
            streaming,
        )
    });
    leptos::tachys::reactive_graph::OwnedView::new_with_owner(view, owner)
}

/// The body of [`CitedAnswer`], run under its own owner.
#[allow(clippy::too_many_arguments)]
fn cited_answer_view(
    answer: Signal<String>,
    data: Signal<CiteData>,
    options: Signal<Options>,
    panel: bool,
    footnotes: bool,
    copy_button: bool,
    inject_css: bool,
    streaming: Signal<bool>,
) -> impl IntoView {
    let ctx = CiteContext::use_or_provide();
    // Only in a browser: on a server the page carries the stylesheet itself
    // (`citekit::web::CSS`), and web-sys calls would panic there.
    if inject_css && cfg!(target_arch = "wasm32") {
        dom::inject_css(CSS);
    }
    let live: Rc<RefCell<Option<Live>>> = Rc::new(RefCell::new(None));
    let stable = Rc::new(Cell::new(StreamInfo::default()));
    // The first render is synchronous (no effect to wait for): parse now, and build the
    // body as one HTML string with the view. The effects' first runs then only adopt
    // what is there, unless the inputs changed in between.
    let (first_inputs, first_blocks) = match first_render(ctx, answer, data, options, streaming) {
        Some(f) => (
            Some((f.inputs, f.answer.clone(), f.render.clone())),
            Some((f.answer, f.render, f.blocks)),
        ),
        None => (None, None),
    };
    let first_inputs = Rc::new(RefCell::new(first_inputs));
    let first_blocks = Rc::new(RefCell::new(first_blocks));
    let initial_html = first_blocks.borrow().as_ref().map(|(_, _, blocks)| {
        let mut html = String::with_capacity(blocks.iter().map(|b| b.html.len() + 32).sum());
        for b in blocks {
            html.push_str(block_open(b));
            html.push_str(&b.html);
            html.push_str("</div>");
        }
        html
    });
    // Parse whenever the inputs change (incrementally while streaming).
    {
        let live = live.clone();
        let stable = stable.clone();
        Effect::new(move |_| {
            let opts = options.get();
            let is_streaming = streaming.get();
            if let Some((inputs, parsed, render)) = first_inputs.borrow_mut().take() {
                // Tracked reads: the effect runs again when an input changes.
                let same = !is_streaming
                    && opts == inputs.options
                    && answer.with(|a| *a == inputs.answer)
                    && data.with(|d| *d == inputs.data);
                // Unless a provider's other answer replaced them meanwhile, the context
                // holds the first render's result: nothing to do.
                let current = Arc::ptr_eq(&parsed, &ctx.answer.get_untracked())
                    && Arc::ptr_eq(&render, &ctx.render.get_untracked());
                if same && current {
                    return;
                }
            }
            let prefix = ctx.prefix();
            let new_render = RenderOptions::from_options(&opts, &prefix);
            let render_changed = ctx.render.with_untracked(|r| **r != new_render);
            if render_changed {
                ctx.render.set(Arc::new(new_render));
            }
            let mut live = live.borrow_mut();
            let result = answer.with(|a| {
                data.with(|d| {
                    if is_streaming || live.is_some() {
                        Some(stream_step(&mut live, a, d, &opts, is_streaming))
                    } else {
                        None
                    }
                })
            });
            match result {
                Some((snapshot, info)) => {
                    stable.set(info);
                    keep_card(ctx, &snapshot);
                    ctx.answer.set(Arc::new(snapshot));
                }
                None => {
                    stable.set(StreamInfo::default());
                    let parsed = answer.with(|a| {
                        // An empty answer: the text is in the data (sse, anthropic, ...).
                        let a = (!a.is_empty()).then_some(a.as_str());
                        data.with(|d| crate::core::parse_lenient(a, d.as_data(), &opts))
                    });
                    // An option that changes neither the answer nor its markup (the
                    // theme) keeps the rendered blocks; a real change keeps an open card
                    // when its citation is still there.
                    if render_changed || ctx.answer.with_untracked(|a| **a != parsed) {
                        keep_card(ctx, &parsed);
                        ctx.answer.set(Arc::new(parsed));
                    }
                }
            }
        });
    }
    let prefix = ctx.prefix();
    let body: NodeRef<leptos::html::Div> = NodeRef::new();
    let blocks: Rc<RefCell<Vec<(render::Block, Element)>>> = Rc::new(RefCell::new(Vec::new()));
    {
        let blocks = blocks.clone();
        let stable = stable.clone();
        // What the body shows now: the answer, its render options and stream state.
        let shown: Rc<RefCell<Option<Shown>>> = Rc::new(RefCell::new(None));
        Effect::new(move |_| {
            let a = ctx.answer.get();
            let r = ctx.render.get();
            let Some(el) = body.get() else { return };
            let info = stable.get();
            if let Some((first_answer, first_render, first)) = first_blocks.borrow_mut().take() {
                if adopt_blocks(&el, &mut blocks.borrow_mut(), first)
                    && Arc::ptr_eq(&first_answer, &a)
                    && Arc::ptr_eq(&first_render, &r)
                {
                    *shown.borrow_mut() = Some((a, r, info));
                    return;
                }
            }
            let prev = shown.borrow_mut().replace((a.clone(), r.clone(), info));
            let settled = show_answer(&el, &mut blocks.borrow_mut(), prev.as_ref(), &a, &r, info);
            // An open card shows what its marker shows now (and finds its marker again).
            if settled {
                if let Some(c) = ctx.card.get_untracked() {
                    ctx.card.set(Some(c));
                }
            }
        });
    }
    let timers = Rc::new(Timers::default());
    {
        // A timer still pending when the component unmounts must not fire on its
        // disposed signals (the open timer reads them).
        let t = SendWrapper::new(timers.clone());
        on_cleanup(move || {
            t.cancel_open();
            t.cancel_close();
        });
    }
    wire_card(ctx, timers.clone());
    wire_highlight(ctx);

    let root_id = prefix.clone();
    let card_id = format!("{prefix}-card");
    let show_notes = move || {
        footnotes
            && ctx
                .answer
                .with(|a| a.show_citations && a.sources.iter().any(|s| s.cited))
    };
    let show_panel = move || {
        panel
            && ctx
                .answer
                .with(|a| a.show_citations && !a.sources.is_empty())
    };
    // One class string (a separate `class:` toggle would be wiped when it changes).
    let theme_class = move || {
        let t = match options.with(|o| o.theme) {
            crate::core::options::Theme::Auto => "cite-root",
            crate::core::options::Theme::Light => "cite-root cite-theme-light",
            crate::core::options::Theme::Dark => "cite-root cite-theme-dark",
        };
        if show_panel() {
            format!("{t} cite-root--with-panel")
        } else {
            t.to_string()
        }
    };
    let copied = RwSignal::new(false);
    let on_copy = move |_| {
        let md = ctx
            .answer
            .with_untracked(|a| crate::core::export::to_markdown(a));
        if let Some(w) = web_sys::window() {
            let _ = w.navigator().clipboard().write_text(&md);
            copied.set(true);
            set_timeout(move || copied.set(false), Duration::from_millis(1500));
        }
    };
    let t = timers.clone();
    let on_over = move |ev: web_sys::PointerEvent| on_pointer_over(ctx, &t, ev);
    let t = timers.clone();
    let on_out = move |ev: web_sys::PointerEvent| on_pointer_out(ctx, &t, ev);
    let t = timers.clone();
    let on_down = move |ev: web_sys::PointerEvent| on_pointer_down(ctx, &t, ev);
    let t = timers.clone();
    let on_click = move |ev: web_sys::MouseEvent| on_answer_click(ctx, &t, panel, ev);
    let t = timers.clone();
    let on_focus_in = move |ev: web_sys::FocusEvent| on_focus_in(ctx, &t, ev);
    let t = timers.clone();
    let on_focus_out = move |ev: web_sys::FocusEvent| on_focus_out(ctx, &t, ev);
    let on_key = move |ev: web_sys::KeyboardEvent| on_key_down(ctx, ev);
    // A tap outside closes the card (touch has no pointer-leave). Added by an effect,
    // which runs in the browser only, so the view also renders on a server.
    Effect::new(move |_| {
        let outside = window_event_listener(leptos::ev::pointerdown, move |ev| {
            if ctx.card.get_untracked().is_none() {
                return;
            }
            let inside = dom::closest(ev.target(), ".cite-marker__link, .cite-card").is_some();
            if !inside {
                ctx.card.set(None);
            }
        });
        on_cleanup(move || outside.remove());
    });

    view! {
        <div class=theme_class id=root_id data-marker-style=move || format!("{:?}", options.with(|o| o.marker_style)).to_lowercase()
            on:pointerover=on_over on:pointerout=on_out on:pointerdown=on_down on:click=on_click
            on:focusin=on_focus_in on:focusout=on_focus_out on:keydown=on_key>
            <div class="cite-answer">
                {copy_button.then(|| view! {
                    <button type="button" class="cite-copy" on:click=on_copy data-state=move || if copied.get() { "copied" } else { "idle" }>
                        {move || {
                            let r = ctx.render.get();
                            if copied.get() { r.labels.get("copied").to_string() } else { r.labels.get("copy").to_string() }
                        }}
                    </button>
                })}
                <div class="cite-answer__body" node_ref=body inner_html=initial_html></div>
                <Show when=show_notes><Footnotes/></Show>
            </div>
            <Show when=show_panel><SourcePanel/></Show>
            <div class="cite-card" id=card_id role="tooltip" data-state="closed" hidden></div>
        </div>
    }
}

/// The opening tag of a rendered block's element. Blocks that start past about a
/// screenful of text skip layout and paint until they scroll near
/// (`content-visibility: auto`); the first ones do not, because for content already in
/// view that costs a second layout in the first frame.
fn block_open(b: &render::Block) -> &'static str {
    if b.range.start >= render::LAZY_AFTER {
        "<div class=\"cite-block cite-block--lazy\">"
    } else {
        "<div class=\"cite-block\">"
    }
}

/// The inputs of a synchronous first render (kept to notice a change made before the
/// effects first run).
struct FirstInputs {
    answer: String,
    data: CiteData,
    options: Options,
}

/// What the synchronous first render produced.
struct FirstRender {
    inputs: FirstInputs,
    answer: Arc<Model>,
    render: Arc<RenderOptions>,
    blocks: Vec<render::Block>,
}

/// Parses and renders the answer at once when it is not streaming, and puts the result
/// in the context (so the footnotes and the panel are built with the view).
fn first_render(
    ctx: CiteContext,
    answer: Signal<String>,
    data: Signal<CiteData>,
    options: Signal<Options>,
    streaming: Signal<bool>,
) -> Option<FirstRender> {
    if streaming.get_untracked() {
        return None;
    }
    let inputs = FirstInputs {
        answer: answer.get_untracked(),
        data: data.get_untracked(),
        options: options.get_untracked(),
    };
    let new_render = RenderOptions::from_options(&inputs.options, &ctx.prefix());
    if ctx.render.with_untracked(|r| **r != new_render) {
        ctx.render.set(Arc::new(new_render));
    }
    let render = ctx.render.get_untracked();
    let text = (!inputs.answer.is_empty()).then_some(inputs.answer.as_str());
    let parsed = Arc::new(crate::core::parse_lenient(
        text,
        inputs.data.as_data(),
        &inputs.options,
    ));
    ctx.card.set(None);
    ctx.answer.set(parsed.clone());
    let blocks = render::answer_blocks(&parsed, &render);
    Some(FirstRender {
        inputs,
        answer: parsed,
        render,
        blocks,
    })
}

/// Takes the block elements the first render put into `body` as the rendered blocks;
/// `false` (and `body` emptied) when they are not what was rendered.
fn adopt_blocks(
    body: &Element,
    old: &mut Vec<(render::Block, Element)>,
    blocks: Vec<render::Block>,
) -> bool {
    let children = body.children();
    if !old.is_empty() || children.length() as usize != blocks.len() {
        old.clear();
        body.set_inner_html("");
        return false;
    }
    for (i, b) in blocks.into_iter().enumerate() {
        let Some(el) = children.item(i as u32) else {
            old.clear();
            body.set_inner_html("");
            return false;
        };
        old.push((b, el));
    }
    true
}

/// The answer the body shows, its render options and the stream state it was shown in.
type Shown = (Arc<Model>, Arc<RenderOptions>, StreamInfo);

/// Brings the body from showing `prev` to showing `a`, settling in place: when the text
/// already shown stays the same (sources arrived, numbers moved, the stream finished),
/// only the markers that changed are patched and only the open tail is rendered again;
/// otherwise every block is rendered and the changed ones are brought in line node by
/// node. Returns whether markers already shown changed.
fn show_answer(
    body: &Element,
    blocks: &mut Vec<(render::Block, Element)>,
    prev: Option<&Shown>,
    a: &Model,
    r: &RenderOptions,
    info: StreamInfo,
) -> bool {
    use crate::core::model::ContentKind;
    let markdown = a.content_kind == ContentKind::Markdown;
    let same = |i: usize| Some(i);
    let old = prev.filter(|(old, old_r, _)| {
        **old_r == *r
            && old.content_kind == a.content_kind
            && old.show_citations == a.show_citations
    });
    let Some((old, _, old_info)) = old else {
        if info.streaming && markdown {
            render_stream_tail(body, blocks, a, r, 0, &same);
        } else {
            patch_blocks(body, blocks, render::answer_blocks(a, r), &same);
        }
        return true;
    };
    // Text shown before this point was final (the stream's stable part, or all of a
    // finished answer); only its markers may have changed.
    let fixed = if old_info.streaming {
        info.prev_stable
    } else {
        old.text.len()
    }
    .min(old.text.len())
    .min(a.text.len());
    // While text streams in, the stable part is known not to change: no need to compare
    // it (that would cost the whole answer on every chunk).
    let text_same = (info.streaming && old_info.streaming && !info.reread)
        || (old.text.as_bytes()[..fixed] == a.text.as_bytes()[..fixed]
            && old
                .links
                .iter()
                .filter(|l| l.start < fixed)
                .eq(a.links.iter().filter(|l| l.start < fixed)));
    let settle = crate::core::stream::settle(old, a, fixed);
    // A whole-document parse can read the finished blocks differently (a reference
    // definition makes `[text][1]` a link): then every block is compared.
    let final_render = !info.streaming && old_info.streaming;
    let fast = markdown
        && text_same
        && !settle.moved
        && !(final_render && memchr::memmem::find(a.text.as_bytes(), b"]:").is_some());
    if fast {
        patch_markers(body, a, r, &settle.markers);
        if info.streaming {
            render_stream_tail(body, blocks, a, r, fixed, &same);
        } else if final_render || a.text.len() != fixed {
            render_final_tail(body, blocks, a, r, fixed);
        }
        return !settle.markers.is_empty();
    }
    let cite_of = |i: usize| settle.map.get(i).copied().flatten();
    if info.streaming && markdown {
        render_stream_tail(body, blocks, a, r, 0, &cite_of);
    } else {
        patch_blocks(body, blocks, render::answer_blocks(a, r), &cite_of);
    }
    true
}

/// Patches the markers of citations `cis` in place (number text, link target, label,
/// pending or live): the `<sup>` and its links stay the same nodes.
fn patch_markers(body: &Element, a: &Model, r: &RenderOptions, cis: &[usize]) {
    let Some(from) = cis
        .iter()
        .filter_map(|&ci| a.citations.get(ci).map(|c| c.end))
        .min()
    else {
        return;
    };
    let markers = render::MarkerSet::from(a, r, from);
    let mut html = String::new();
    for &ci in cis {
        if let Some(h) = markers.html.get(ci) {
            html.push_str(h);
        }
    }
    let Some(fragment) = morph::parse(&html) else {
        return;
    };
    let Some(fragment) = fragment.dyn_ref::<web_sys::DocumentFragment>() else {
        return;
    };
    let Ok(fresh) = fragment.query_selector_all(".cite-marker[data-cite]") else {
        return;
    };
    // In the order of `cis` (ascending), so found by binary search.
    let by_cite: Vec<(usize, web_sys::Node)> = (0..fresh.length())
        .filter_map(|i| fresh.item(i))
        .filter_map(|n| Some((dom::data_num::<usize>(n.dyn_ref::<Element>()?, "cite")?, n)))
        .collect();
    for old in dom::query_all(body, ".cite-marker[data-cite]") {
        let Some(ci) = dom::data_num::<usize>(&old, "cite") else {
            continue;
        };
        if let Ok(k) = by_cite.binary_search_by_key(&ci, |(c, _)| *c) {
            morph::morph_node(old.as_ref(), &by_cite[k].1, &Some);
        }
    }
}

/// Keeps the open card open across a new parse when its citation is still there (its
/// marker at the same place after the same words, with sources), under the index it has
/// now; closes it otherwise.
fn keep_card(ctx: CiteContext, new: &Model) {
    let Some(c) = ctx.card.get_untracked() else {
        return;
    };
    let old = ctx.answer.get_untracked();
    let now = crate::core::stream::settle(&old, new, 0)
        .map
        .get(c.ci)
        .copied()
        .flatten()
        .filter(|&ci| {
            let (o, n) = (old.citations[c.ci].end, new.citations[ci].end);
            !new.citations[ci].sources.is_empty()
                && old.text.get(o.saturating_sub(32)..o) == new.text.get(n.saturating_sub(32)..n)
        });
    match now {
        Some(ci) if ci == c.ci => {}
        Some(ci) => ctx.card.set(Some(Card { ci, ..c })),
        None => ctx.card.set(None),
    }
}

/// Replaces only the blocks whose HTML changed; unchanged blocks keep their DOM nodes.
fn patch_blocks(
    body: &Element,
    old: &mut Vec<(render::Block, Element)>,
    new: Vec<render::Block>,
    cite_of: &dyn Fn(usize) -> Option<usize>,
) {
    patch_from(body, old, 0, new, cite_of);
}

/// Replaces the rendered blocks from index `k` on with `new`: a block whose HTML is
/// unchanged is left alone, a changed one is brought in line node by node (what stays
/// keeps its nodes), extra ones are removed. `cite_of` maps the citation index an old
/// marker has to the one it has now.
fn patch_from(
    body: &Element,
    old: &mut Vec<(render::Block, Element)>,
    k: usize,
    new: Vec<render::Block>,
    cite_of: &dyn Fn(usize) -> Option<usize>,
) {
    let count = k + new.len();
    // Blocks past the old ones are added with one HTML string (one parser call).
    let mut added = String::new();
    let mut fresh = Vec::new();
    for (j, b) in new.into_iter().enumerate() {
        let i = k + j;
        if let Some((ob, el)) = old.get_mut(i) {
            if ob.html != b.html {
                morph::morph_inner(el, &b.html, cite_of);
            }
            *ob = b;
            continue;
        }
        added.push_str(block_open(&b));
        added.push_str(&b.html);
        added.push_str("</div>");
        fresh.push(b);
    }
    while old.len() > count {
        if let Some((_, el)) = old.pop() {
            el.remove();
        }
    }
    if fresh.is_empty() {
        return;
    }
    let before = body.child_element_count();
    if body.insert_adjacent_html("beforeend", &added).is_err() {
        return;
    }
    let children = body.children();
    for (j, b) in fresh.into_iter().enumerate() {
        match children.item(before + j as u32) {
            Some(el) => old.push((b, el)),
            None => return,
        }
    }
}

/// While streaming: renders again only from the last block that can have changed
/// (the text before `stable`, the stream's stable point, never changes).
fn render_stream_tail(
    body: &Element,
    old: &mut Vec<(render::Block, Element)>,
    a: &Model,
    r: &RenderOptions,
    stable: usize,
    cite_of: &dyn Fn(usize) -> Option<usize>,
) {
    let from = old.last().map_or(0, |(b, _)| b.range.start).min(stable);
    let k = old.partition_point(|(b, _)| b.range.end <= from);
    let start = old.get(k).map_or(from, |(b, _)| b.range.start.min(from));
    let view_text = stream_view_text(&a.text, start);
    let markers = render::MarkerSet::from(a, r, start);
    let whole = view_text.len() >= a.text.len();
    let new = render::markdown::render_range(&view_text, start..view_text.len(), &markers, whole);
    patch_from(body, old, k, new, cite_of);
}

/// When the stream ends: renders the blocks from the one holding `fixed` (where the
/// stream's open tail began) as the whole answer shows them; blocks before it stay.
fn render_final_tail(
    body: &Element,
    old: &mut Vec<(render::Block, Element)>,
    a: &Model,
    r: &RenderOptions,
    fixed: usize,
) {
    let from = old.last().map_or(0, |(b, _)| b.range.start).min(fixed);
    let k = old.partition_point(|(b, _)| b.range.end <= from);
    let start = old.get(k).map_or(from, |(b, _)| b.range.start.min(from));
    let markers = render::MarkerSet::from(a, r, start);
    let new = render::markdown::render_range(&a.text, start..a.text.len(), &markers, true);
    patch_from(body, old, k, new, &Some);
}

/// The answer text as shown while streaming: a table line still arriving is held
/// back, and an unclosed `**`, `` ` `` or link at the end does not flash as literal
/// syntax (the emphasis is closed, the link is shown once it is complete).
fn stream_view_text(text: &str, block_start: usize) -> String {
    let tail = &text[block_start.min(text.len())..];
    let mut cut = text.len();
    // A line that is still arriving and looks like a table row.
    let last_line_start = tail.rfind('\n').map_or(0, |i| i + 1);
    let last_line = &tail[last_line_start..];
    if last_line.trim_start().starts_with('|') {
        cut = block_start + last_line_start;
    }
    // A table header with no delimiter row yet.
    let shown = &text[block_start.min(cut)..cut];
    let lines: Vec<&str> = shown.lines().filter(|l| !l.trim().is_empty()).collect();
    if let Some(last) = lines.last() {
        if last.trim_start().starts_with('|') && !shown.contains("---") {
            if let Some(i) = shown.rfind(last) {
                cut = block_start + i;
            }
        }
    }
    // An unfinished link `[text](http...`.
    let shown = &text[block_start.min(cut)..cut];
    if let Some(open) = shown.rfind("](") {
        if !shown[open..].contains(')') {
            if let Some(lb) = shown[..open].rfind('[') {
                cut = block_start + lb;
            }
        }
    }
    let mut out = text[..cut].to_string();
    let shown = &text[block_start.min(cut)..cut];
    if !shown.contains("```") && !shown.contains("~~~") {
        // Closed as the stream parser reads it (as code, so a `[1]` there is text).
        if let Some(run) = crate::core::stream::unclosed_code_span(shown) {
            if out.ends_with('`') {
                out.push(' ');
            }
            out.push_str(&"`".repeat(run));
        }
        if shown.matches("**").count() % 2 == 1 {
            out.push_str("**");
        }
    }
    out
}

/// The streaming state of one answer.
struct Live {
    parser: crate::core::stream::StreamParser,
    answer_len: usize,
    data: CiteData,
    options: Options,
}

/// What the renderer needs to know about the stream.
#[derive(Debug, Clone, Copy, Default)]
struct StreamInfo {
    streaming: bool,
    /// Output bytes before this never change (the previous update's stable length);
    /// when the stream has just finished, where its open tail began.
    prev_stable: usize,
    /// The finished blocks were read again (new data, or the end of the stream): their
    /// text is compared with what is shown. Plain appends never change it.
    reread: bool,
}

/// Feeds what changed since the last call to the stream parser; starts it when
/// needed, finishes it when `streaming` turned off.
fn stream_step(
    live: &mut Option<Live>,
    a: &str,
    d: &CiteData,
    opts: &Options,
    streaming: bool,
) -> (Model, StreamInfo) {
    let sse = matches!(
        opts.format,
        crate::core::options::FormatChoice::Given(crate::core::model::Format::Sse)
    );
    let restart = match live.as_ref() {
        None => true,
        Some(l) => {
            l.options != *opts
                || (!sse && (a.len() < l.answer_len || !a.is_char_boundary(l.answer_len)))
                || (sse
                    && !matches!((&l.data, d), (CiteData::Text(o), CiteData::Text(n)) if n.len() >= o.len() && n.starts_with(o.as_str())))
        }
    };
    let prev_stable = if restart {
        0
    } else {
        live.as_ref().map_or(0, |l| l.parser.stable_len())
    };
    if restart {
        let start = if sse { Data::Text("") } else { d.as_data() };
        match crate::core::stream::StreamParser::new(start, opts) {
            Ok(p) => {
                *live = Some(Live {
                    parser: p,
                    answer_len: 0,
                    data: if sse {
                        CiteData::Text(String::new())
                    } else {
                        d.clone()
                    },
                    options: opts.clone(),
                })
            }
            Err(e) => {
                *live = None;
                let mut m = crate::core::parse_lenient(Some(a), Data::None, opts);
                m.diagnostics.push(crate::core::model::Diagnostic::error(
                    e.code(),
                    e.to_string(),
                ));
                return (m, StreamInfo::default());
            }
        }
    }
    let Some(l) = live.as_mut() else {
        return (
            crate::core::parse_lenient(Some(a), d.as_data(), opts),
            StreamInfo::default(),
        );
    };
    let mut reread = false;
    if sse {
        if let (CiteData::Text(o), CiteData::Text(n)) = (&l.data, d) {
            if n.len() > o.len() {
                l.parser.push(&n[o.len()..]);
            }
        }
        l.data = d.clone();
    } else {
        if l.data != *d {
            let _ = l.parser.set_data(d.as_data());
            l.data = d.clone();
            reread = true;
        }
        if a.len() > l.answer_len {
            l.parser.push(&a[l.answer_len..]);
            l.answer_len = a.len();
        }
    }
    let stable_len = l.parser.stable_len();
    if !streaming {
        let done = l.parser.finish().clone();
        *live = None;
        return (
            done,
            StreamInfo {
                streaming: false,
                prev_stable: prev_stable.min(stable_len),
                reread: true,
            },
        );
    }
    (
        l.parser.snapshot().clone(),
        StreamInfo {
            streaming: true,
            prev_stable: prev_stable.min(stable_len),
            reread,
        },
    )
}

/// Dispatches a bubbling, composed `CustomEvent` named `name` from the answer root
/// with `detail` built from `(key, value)` pairs.
fn emit(ctx: CiteContext, name: &str, detail: &[(&str, wasm_bindgen::JsValue)]) {
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
fn source_detail(ctx: CiteContext, n: u32) -> Vec<(&'static str, wasm_bindgen::JsValue)> {
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

fn marker_of(ev_target: Option<web_sys::EventTarget>) -> Option<(Element, usize, usize)> {
    let link = dom::closest(ev_target, ".cite-marker__link")?;
    // The citation is on the `<sup>`; `k` is the link's place among its links.
    let sup = link.closest(".cite-marker").ok()??;
    let ci = dom::data_num(&sup, "cite")?;
    let links = dom::query_all(&sup, ".cite-marker__link");
    let k = links
        .iter()
        .position(|l| l.is_same_node(Some(&link)))
        .unwrap_or(0);
    Some((link, ci, k))
}

fn open_card(ctx: CiteContext, ci: usize, k: usize) {
    let page = k.min(ctx.sources_of(ci).len().saturating_sub(1));
    ctx.card.set(Some(Card { ci, page, k }));
}

fn on_pointer_down(ctx: CiteContext, t: &Rc<Timers>, ev: web_sys::PointerEvent) {
    let touch = ev.pointer_type() == "touch";
    t.touch.set(touch);
    t.open_at_tap.set(
        touch
            .then(|| ctx.card.get_untracked().map(|c| (c.ci, c.k)))
            .flatten(),
    );
}

fn on_pointer_over(ctx: CiteContext, t: &Rc<Timers>, ev: web_sys::PointerEvent) {
    if ev.pointer_type() == "touch" {
        return;
    }
    if dom::closest(ev.target(), ".cite-card").is_some() {
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

fn on_pointer_out(ctx: CiteContext, t: &Rc<Timers>, ev: web_sys::PointerEvent) {
    if ev.pointer_type() == "touch" {
        return;
    }
    let from_marker = marker_of(ev.target()).is_some();
    let from_card = dom::closest(ev.target(), ".cite-card").is_some();
    if !from_marker && !from_card {
        return;
    }
    let to = ev.related_target();
    let to_card = dom::closest(to.clone(), ".cite-card").is_some();
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
        .is_some_and(|el| el.closest(".cite-card").ok().flatten().is_some());
    if focused_inside {
        return;
    }
    t.cancel_close();
    let handle = set_timeout_with_handle(move || ctx.card.set(None), CLOSE_DELAY).ok();
    *t.close.borrow_mut() = handle;
}

fn on_focus_in(ctx: CiteContext, t: &Rc<Timers>, ev: web_sys::FocusEvent) {
    if dom::closest(ev.target(), ".cite-card").is_some() {
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
    static REPLACING: Cell<bool> = const { Cell::new(false) };
}

fn on_focus_out(ctx: CiteContext, t: &Rc<Timers>, ev: web_sys::FocusEvent) {
    if REPLACING.with(Cell::get) {
        return;
    }
    let from_marker = marker_of(ev.target()).is_some();
    let from_card = dom::closest(ev.target(), ".cite-card").is_some();
    if !from_marker && !from_card {
        return;
    }
    let to = ev.related_target();
    if dom::closest(to.clone(), ".cite-card").is_some() || (from_card && marker_of(to).is_some()) {
        return;
    }
    if from_marker {
        ctx.highlight.set(Highlight::None);
    }
    t.cancel_open();
    ctx.card.set(None);
}

fn on_answer_click(ctx: CiteContext, t: &Rc<Timers>, panel: bool, ev: web_sys::MouseEvent) {
    // Pager buttons in the card.
    if let Some(btn) = dom::closest(ev.target(), ".cite-card__nav") {
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

fn on_key_down(ctx: CiteContext, ev: web_sys::KeyboardEvent) {
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

/// Keeps the card element in step with `ctx.card`: content, visibility, position,
/// `data-state` of the marker and its `aria-describedby`.
fn wire_card(ctx: CiteContext, _t: Rc<Timers>) {
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
            if let Ok(Some(sup)) = prev.closest(".cite-marker") {
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
        if let Ok(Some(sup)) = link.closest(".cite-marker") {
            let _ = sup.set_attribute("data-state", "open");
        }
        position_card(&el, &link);
        *last.borrow_mut() = Some(link);
    });
}

fn position_card(card: &Element, anchor: &Element) {
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

/// Applies `ctx.highlight` to markers and spans, and to panel entries.
fn wire_highlight(ctx: CiteContext) {
    // The highlight lives in the browser's registry: nothing to clear on a server.
    if cfg!(target_arch = "wasm32") {
        let key = ctx.prefix();
        on_cleanup(move || dom::set_highlight(&key, Vec::new()));
    }
    Effect::new(move |_| {
        let h = ctx.highlight.get();
        let _ = ctx.answer.get();
        let Some(doc) = dom::document() else { return };
        let prefix = ctx.prefix();
        let Some(root) = doc.get_element_by_id(&prefix) else {
            return;
        };
        for el in dom::query_all(&root, ".cite-active") {
            let _ = el.class_list().remove_1("cite-active");
        }
        let cis: Vec<usize> = match h {
            Highlight::None => Vec::new(),
            Highlight::Citation(ci) => vec![ci],
            Highlight::Source(n) => ctx.citations_of(n),
        };
        let mut ranges = Vec::new();
        for ci in cis {
            // Markers, and the wrapped spans of the JSON view.
            for el in dom::query_all(
                &root,
                &format!("[data-c~=\"{ci}\"], .cite-marker[data-cite=\"{ci}\"]"),
            ) {
                let _ = el.class_list().add_1("cite-active");
            }
            // Text spans: from the span's start anchor to its marker.
            if let Some(r) = span_range(&root, ci) {
                ranges.push(r);
            }
        }
        dom::set_highlight(&prefix, ranges);
        if let Highlight::Source(n) = h {
            let sel = format!(
                ".cite-marker__link[data-sources~=\"{n}\"], .cite-marker__link[href=\"#{}\"]",
                render::footnote_id(&ctx.render.get_untracked(), n)
            );
            for el in dom::query_all(&root, &sel) {
                let _ = el.class_list().add_1("cite-active");
            }
        }
    });
}

/// The text of citation `ci`'s span: from its start anchor to its marker.
fn span_range(root: &Element, ci: usize) -> Option<web_sys::Range> {
    let start = root
        .query_selector(&format!("i.cite-s[data-s=\"{ci}\"]"))
        .ok()??;
    let end = root
        .query_selector(&format!(".cite-marker[data-cite=\"{ci}\"]"))
        .ok()??;
    let range = web_sys::Range::new().ok()?;
    range.set_start_after(&start).ok()?;
    range.set_end_before(&end).ok()?;
    (!range.collapsed()).then_some(range)
}

/// Marks that a [`SourcePanel`] is mounted under this context (clicks select in it).
#[derive(Clone, Copy)]
struct PanelPresent;

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
        move |target: Option<web_sys::EventTarget>| match dom::closest(target, ".cite-source")
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
        if let Some(btn) = dom::closest(ev.target(), ".cite-source__toggle") {
            let n = dom::data_num::<u32>(&btn, "source");
            if n.is_some() && ctx.selected.get_untracked() == n {
                ctx.selected.set(None);
            } else {
                ctx.selected.set(n);
            }
        }
    };
    view! {
        <aside class="cite-panel" id=panel_id aria-labelledby=title_id
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
type SourcesKey = (Vec<Vec<String>>, Vec<(String, u32, u32, bool)>, bool, usize);

/// What the panel and the footnotes show of an answer, cheap to compare: the
/// citations' sources and every source's number, count and state. The answer text
/// is not in it (it grows on every streamed chunk).
fn sources_key(ctx: CiteContext) -> Memo<SourcesKey> {
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

fn set_expanded(r: &RenderOptions, n: u32, open: bool) {
    let id = render::panel_item_id(r, n);
    let Some(li) = dom::by_id(&id) else { return };
    let _ = li.set_attribute("data-state", if open { "expanded" } else { "collapsed" });
    let _ = if open {
        li.class_list().add_1("cite-selected")
    } else {
        li.class_list().remove_1("cite-selected")
    };
    if let Ok(Some(btn)) = li.query_selector(".cite-source__toggle") {
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

/// Footnotes: an ordered list of the cited sources with back-links to every marker
/// (a, b, c when a source is cited more than once), `role="doc-endnotes"`, named by its
/// heading (with a hidden excerpt of the answer, so names differ between answers).
#[component]
pub fn Footnotes() -> impl IntoView {
    let ctx = CiteContext::use_or_provide();
    // As in the panel: the footnotes change only with the citations.
    let key = sources_key(ctx);
    let html = Memo::new(move |_| {
        // A read (not `track()`): it brings the lazy memo up to date, so it has its own
        // sources and notifies this one when they change.
        key.with(|_| ());
        let r = ctx.render.get();
        ctx.answer.with_untracked(|a| render::footnotes_html(a, &r))
    });
    let title_id = format!("{}-fn-title", ctx.prefix());
    view! { <section class="cite-footnotes" role="doc-endnotes" aria-labelledby=title_id inner_html=html></section> }
}
