//! The Leptos `CitedAnswer`: its view and the two effects that parse and render, with
//! the first render adopted (`adopt`), streamed and settled updates brought to the DOM
//! (the answer's `dom::blocks`; the stream itself is driven by [`crate::core::live`])
//! and the user's pointer, focus and keys (the answer's `dom::events`, shared with the
//! npm package's driver), and its highlight effect (`highlight`).

mod adopt;
mod highlight;
#[cfg(all(test, feature = "ssr"))]
mod tests;

use crate::components::answer::dom::blocks::{push_block, show_answer};
use crate::components::answer::dom::events::{
    on_answer_click, on_focus_in, on_focus_out, on_key_down, on_page_event, on_pointer_down,
    on_pointer_out, on_pointer_over,
};
use crate::components::answer::html::stream_view::StreamDefs;
use crate::components::answer::html::{lists_shown, root_class, Block};
use crate::components::card::leptos::wire_card;
use crate::components::context::CiteContext;
use crate::components::footnotes::leptos::Footnotes;
use crate::components::panel::dom::{mark_layout, PanelLayout};
use crate::components::panel::leptos::{PanelPresent, SourcePanel};
use crate::core::formats::CiteData;
use crate::core::live::{stream_step, Live, StreamInfo};
use crate::core::model::Answer;
use crate::core::options::Options;
use crate::dom::page::{self, OpenAnswer, PageEvent};
use crate::dom::state::{kept_card, Timers};
use crate::dom::util as dom;
use crate::dom::CSS;
use crate::render;
use crate::render::class;
use crate::render::RenderOptions;
use adopt::{adopt_blocks, first_render};
use highlight::wire_highlight;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;
use web_sys::Element;

/// An answer with inline citation markers, hover cards, and (by option) its source
/// panel and footnotes.
///
/// Hover or focus a marker to open its card (Escape closes it, Enter moves focus into
/// it); click a marker or press Enter on it to select its source in the panel and
/// bring it into view (beside the answer the panel keeps to the viewport and scrolls
/// on its own); a tap selects it and keeps the card in view. The markup is built
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
pub(crate) fn cited_answer_view(
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
            push_block(&mut html, b);
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
            let new_render = RenderOptions::live(&opts, &prefix);
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
    let blocks: Rc<RefCell<Vec<(Block, Element)>>> = Rc::new(RefCell::new(Vec::new()));
    {
        let blocks = blocks.clone();
        // The reference definitions of the blocks shown while streaming.
        let mut defs = StreamDefs::default();
        let stable = stable.clone();
        // What the body shows now: the answer, its render options and stream state.
        type Shown = (Arc<Answer>, Arc<RenderOptions>, StreamInfo);
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
            let prev = prev.as_ref().map(|(m, r, i)| (&**m, &**r, *i));
            let settled = show_answer(&el, &mut blocks.borrow_mut(), &mut defs, prev, &a, &r, info);
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
    wire_card(ctx);
    wire_highlight(ctx);

    let root_id = prefix.clone();
    let card_id = format!("{prefix}-card");
    let show_notes = move || ctx.answer.with(|a| lists_shown(a, footnotes, panel).0);
    let show_panel = move || ctx.answer.with(|a| lists_shown(a, footnotes, panel).1);
    // One class string (a separate `class:` toggle would be wiped when it changes).
    let theme_class = move || root_class(options.with(|o| o.theme), show_panel());
    let copied = RwSignal::new(false);
    let on_copy = move |_| {
        let md = ctx
            .answer
            .with_untracked(|a| crate::core::export::copy_text(a));
        if dom::copy_text(&md) {
            copied.set(true);
            set_timeout(move || copied.set(false), Duration::from_millis(1500));
        }
    };
    let t = timers.clone();
    let on_over = move |ev: web_sys::PointerEvent| on_pointer_over(&ctx, &t, ev);
    let t = timers.clone();
    let on_out = move |ev: web_sys::PointerEvent| on_pointer_out(&ctx, &t, ev);
    let t = timers.clone();
    let on_down = move |ev: web_sys::PointerEvent| on_pointer_down(&ctx, &t, ev);
    let t = timers.clone();
    let on_click = move |ev: web_sys::MouseEvent| {
        let panel = panel || use_context::<PanelPresent>().is_some();
        on_answer_click(&ctx, &t, panel, ev)
    };
    let t = timers.clone();
    let on_focus_in = move |ev: web_sys::FocusEvent| on_focus_in(&ctx, &t, ev);
    let t = timers.clone();
    let on_focus_out = move |ev: web_sys::FocusEvent| on_focus_out(&ctx, &t, ev);
    let t = timers.clone();
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let panel = panel || use_context::<PanelPresent>().is_some();
        on_key_down(&ctx, &t, panel, ev)
    };
    // The page's listeners (a press outside, Escape, a scroll or a new window size),
    // once for every answer on the page, hand their events to the answer whose card
    // is open ([`crate::dom::page`]): this one, from when its card opens. Effects run in
    // the browser only, so the view also renders on a server.
    let root_ref = NodeRef::<leptos::html::Div>::new();
    let open_id = Rc::as_ptr(&timers) as usize;
    Effect::new(move |_| {
        let Some(root) = root_ref.get() else { return };
        // Scrolls inside a shadow root do not reach the window: the page listens there too.
        page::join(dom::shadow_root_of(&root).map(web_sys::EventTarget::from));
    });
    let t = timers.clone();
    Effect::new(move |_| {
        if ctx.card.get().is_some() {
            page::opened(Box::new(OpenView {
                ctx,
                timers: t.clone(),
            }));
        }
    });
    on_cleanup(move || page::left(open_id));

    // Where the panel is (beside the answer or below it) marked on the root, while the
    // root's width changes and when the panel comes or goes.
    let layout: SendWrapper<RefCell<Option<PanelLayout>>> = SendWrapper::new(RefCell::new(None));
    Effect::new(move |_| {
        // Run again when the panel comes or goes (the root's size may stay the same).
        show_panel();
        let Some(root) = root_ref.get() else { return };
        let mut watch = layout.borrow_mut();
        match watch.as_ref() {
            None => *watch = PanelLayout::watch(&root),
            Some(_) => mark_layout(&root),
        }
    });
    view! {
        <div class=theme_class id=root_id node_ref=root_ref data-marker-style=move || render::marker_style_name(options.with(|o| o.marker_style))
            on:pointerover=on_over on:pointerout=on_out on:pointerdown=on_down on:click=on_click
            on:focusin=on_focus_in on:focusout=on_focus_out on:keydown=on_key>
            <div class=class::ANSWER>
                {copy_button.then(|| view! {
                    <button type="button" class="cite-copy" on:click=on_copy data-state=move || if copied.get() { "copied" } else { "idle" }>
                        {move || {
                            let r = ctx.render.get();
                            if copied.get() { r.labels.get("copied").to_string() } else { r.labels.get("copy").to_string() }
                        }}
                    </button>
                })}
                <div class=class::ANSWER_BODY node_ref=body inner_html=initial_html></div>
                <Show when=show_notes><Footnotes/></Show>
            </div>
            <Show when=show_panel><SourcePanel/></Show>
            <div class=class::CARD id=card_id role="tooltip" data-state="closed" hidden></div>
        </div>
    }
}

/// The page's handle of an answer whose card is open ([`crate::dom::page`]): its
/// context and its card's timers. It is forgotten when the answer's view ends (its
/// signals go with it).
struct OpenView {
    ctx: CiteContext,
    timers: Rc<Timers>,
}

impl OpenAnswer for OpenView {
    fn on_page_event(&self, what: PageEvent, ev: web_sys::Event) {
        // Its signals may be gone (the answer left the page in this event's handlers).
        if self.ctx.card.try_get_untracked().is_none() {
            return;
        }
        on_page_event(&self.ctx, &self.timers, what, ev);
    }
    fn close_card(&self) {
        if self.ctx.card.try_get_untracked().flatten().is_some() {
            self.ctx.card.set(None);
        }
    }
    fn id(&self) -> usize {
        Rc::as_ptr(&self.timers) as usize
    }
}

/// Keeps the open card open across a new parse when its citation is still there, under
/// the index it has now; closes it otherwise.
fn keep_card(ctx: CiteContext, new: &Answer) {
    let Some(c) = ctx.card.get_untracked() else {
        return;
    };
    let now = ctx.answer.with_untracked(|old| kept_card(old, new, c));
    if now != Some(c) {
        ctx.card.set(now);
    }
}
