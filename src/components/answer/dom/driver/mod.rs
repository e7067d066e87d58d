//! A mounted answer without Leptos: what the npm package's `mount` returns. Its state
//! lives in cells; every change (new inputs, a streamed chunk, a pointer or key event)
//! brings the DOM in line at once, touching only what changed:
//!
//! - the first render is one HTML string (answer, footnotes, panel, card);
//! - a streamed chunk is fed to the [`StreamParser`] and only the open tail's blocks
//!   are rendered again; footnotes and panel are rebuilt only when a source's number,
//!   count or state changed;
//! - new data, new options and the end of a stream settle in place (changed markers
//!   patched, changed blocks morphed, an open card kept on its citation).
//!
//! This file holds the state of a mounted answer, `mount`, `update` and `destroy`;
//! beside it: `stream` (appends, restarts, new data and settling in place), `frame`
//! (the root markup, what is deferred past the first frame, footnotes and panel kept
//! up to date once per frame) and `events` (listeners, card, highlight, copy).

use crate::components::answer::dom::highlight::set_highlight;
use crate::components::answer::html::stream_view::StreamDefs;
use crate::components::answer::html::Block;
use crate::components::panel::dom::PanelLayout;
use crate::core::formats::{CiteData, Data};
use crate::core::live::{change, Change, StreamInfo};
use crate::core::model::Answer;
use crate::core::options::Options;
use crate::core::stream::StreamParser;
use crate::dom::page;
use crate::dom::state::{next_prefix, Card, Highlight, Timeout, Timers};
use crate::render::{self, class, RenderOptions};
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

mod events;
mod frame;
mod stream;

pub use crate::core::props::Display;

/// The elements of a mounted answer.
struct Nodes {
    root: Element,
    answer: Element,
    body: Element,
    card: Element,
}

/// What the footnotes and the panel show of an answer, compared on every change: each
/// source's number, count and state, whether citations show, and what of the text
/// their titles read.
#[derive(Default, PartialEq)]
struct NotesKey {
    sources: Vec<(u32, u32, bool)>,
    show_citations: bool,
    lazy: bool,
    /// The text length while the headings' quote of the answer may still grow, then
    /// `usize::MAX`.
    text: usize,
    about: String,
    /// The data was replaced since the lists were drawn: they are drawn again.
    stale: bool,
}

impl NotesKey {
    /// Whether the sources and the state of `a` are what the lists show (the quote of
    /// the text is [`NotesKey::same_about`]'s).
    fn matches(&self, a: &Answer) -> bool {
        !self.stale
            && self.show_citations == a.show_citations
            && self.lazy == (a.text.len() >= render::LAZY_AFTER)
            && self.sources.len() == a.sources.len()
            && self
                .sources
                .iter()
                .zip(&a.sources)
                .all(|(k, s)| *k == (s.number, s.cite_count, s.cited))
    }

    fn of(a: &Answer) -> NotesKey {
        NotesKey {
            sources: a
                .sources
                .iter()
                .map(|s| (s.number, s.cite_count, s.cited))
                .collect(),
            show_citations: a.show_citations,
            lazy: a.text.len() >= render::LAZY_AFTER,
            text: a.text.len(),
            about: render::parts::about_words(a),
            stale: false,
        }
    }

    /// Takes `a`'s text length: when the headings' quote stays the same, the lists
    /// stay as they are. Once the quote is complete (text well past it), the text is
    /// no longer compared.
    fn same_about(&mut self, a: &Answer) -> bool {
        if self.text == usize::MAX || self.text == a.text.len() {
            return true;
        }
        let about = render::parts::about_words(a);
        let same = about == self.about;
        // The quote reads at most 400 characters of the text.
        self.text = if a.text.len() > 1600 && same {
            usize::MAX
        } else {
            a.text.len()
        };
        self.about = about;
        same
    }
}

/// A listener on the answer's element: its event and callback.
type Listener = (&'static str, page::Listener);

/// A requested animation frame: its id and callback.
type Frame = (i32, Closure<dyn FnMut()>);

struct Inner {
    element: HtmlElement,
    display: Cell<Display>,
    options: RefCell<Options>,
    render: RefCell<Arc<RenderOptions>>,
    /// The answer text so far (for sse, the text is in `data`).
    answer: RefCell<String>,
    /// The data so far (for sse, the event stream so far).
    data: RefCell<CiteData>,
    /// The incremental parser while a stream runs.
    parser: RefCell<Option<StreamParser>>,
    /// Whether a stream runs (appends came and `finish` did not).
    streaming: Cell<bool>,
    /// The answer shown when no parser runs.
    model: RefCell<Arc<Answer>>,
    /// A Vercel AI SDK message given whole on every change ([`Driver::set_message`]),
    /// once one was.
    message: RefCell<Option<MessageSeen>>,
    nodes: RefCell<Option<Nodes>>,
    blocks: RefCell<Vec<(Block, Element)>>,
    /// The reference definitions of the blocks shown while streaming.
    defs: RefCell<StreamDefs>,
    notes_key: RefCell<NotesKey>,
    /// How many sources the markers in the body were drawn with (a footnote defined
    /// in the stream adds one, and markers already shown may turn live).
    shown_sources: Cell<usize>,
    /// The footnotes' and the panel's HTML as shown (compared entry by entry).
    notes_html: RefCell<String>,
    panel_html: RefCell<String>,
    card: Cell<Option<Card>>,
    /// The marker link the card is anchored to.
    card_link: RefCell<Option<Element>>,
    highlight: Cell<Highlight>,
    /// Whether anything is lit (a highlight to redo after a change).
    lit: Cell<bool>,
    selected: Cell<Option<u32>>,
    timers: Rc<Timers>,
    copied: RefCell<Option<Timeout>>,
    /// The animation frame that brings footnotes and panel up to date after appends
    /// (its id and callback), while one is pending.
    notes_frame: RefCell<Option<Frame>>,
    notes_pending: Cell<bool>,
    /// What `build` left out of the first frame, inserted by a task after it.
    deferred: RefCell<Option<Deferred>>,
    listeners: RefCell<Vec<Listener>>,
    /// Marks the root with where the panel is while its width changes.
    layout: RefCell<Option<PanelLayout>>,
}

/// The last Vercel AI SDK message a view was given.
struct MessageSeen {
    /// The message as given.
    value: Value,
    /// The message without its text
    /// ([`split_message`](crate::core::live::split_message)): when a later state has
    /// the same, only its text changed.
    rest: Value,
}

/// The parts of a long answer past the first screenful: the blocks that start after
/// `render::LAZY_AFTER` bytes, the footnote entries below such an answer and the panel
/// entries after the first `panel::html::PANEL_EAGER`. `build` writes the rest and leaves
/// these to a task after the next frame (`Driver::flush_deferred`), so the first frame
/// parses, styles and paints only what can be on screen; an event on the answer or a
/// call that changes it inserts them first.
#[derive(Default)]
struct Deferred {
    blocks: Vec<Block>,
    notes: String,
    panel: String,
}

/// A mounted answer. Cloning it gives another handle to the same answer.
#[derive(Clone)]
pub struct Driver(Rc<Inner>);

impl Driver {
    /// Renders the answer into `element` (replacing its content) and starts listening
    /// to the reader's pointer, focus and keys.
    pub fn mount(
        element: HtmlElement,
        answer: String,
        data: CiteData,
        options: Options,
        display: Display,
    ) -> Driver {
        let render = Arc::new(RenderOptions::live(&options, &next_prefix()));
        let d = Driver(Rc::new(Inner {
            element,
            display: Cell::new(display),
            options: RefCell::new(options),
            render: RefCell::new(render),
            answer: RefCell::new(answer),
            data: RefCell::new(data),
            parser: RefCell::new(None),
            streaming: Cell::new(false),
            model: RefCell::new(Arc::new(crate::core::parse_lenient(
                Some(""),
                Data::None,
                &Options::default(),
            ))),
            message: RefCell::new(None),
            nodes: RefCell::new(None),
            blocks: RefCell::new(Vec::new()),
            defs: RefCell::new(StreamDefs::default()),
            notes_key: RefCell::new(NotesKey::default()),
            shown_sources: Cell::new(0),
            notes_html: RefCell::new(String::new()),
            panel_html: RefCell::new(String::new()),
            card: Cell::new(None),
            card_link: RefCell::new(None),
            highlight: Cell::new(Highlight::None),
            lit: Cell::new(false),
            selected: Cell::new(None),
            timers: Rc::new(Timers::default()),
            copied: RefCell::new(None),
            notes_frame: RefCell::new(None),
            notes_pending: Cell::new(false),
            deferred: RefCell::new(None),
            listeners: RefCell::new(Vec::new()),
            layout: RefCell::new(None),
        }));
        d.parse_whole();
        d.build();
        d.listen();
        d
    }

    /// Changes some inputs: each `Some` replaces it. Text that only grows while a stream
    /// runs is appended; late data keeps the answer so far (pending markers turn live);
    /// a change of what is shown besides the answer renders it anew.
    pub fn update(
        &self,
        answer: Option<String>,
        data: Option<CiteData>,
        options: Option<Options>,
        display: Display,
    ) {
        let i = &self.0;
        self.flush_deferred();
        let options_changed = options.as_ref().is_some_and(|o| *o != *i.options.borrow());
        if display != i.display.get() {
            i.display.set(display);
            if let Some(o) = options {
                self.set_options(o);
            }
            if let Some(a) = answer {
                *i.answer.borrow_mut() = a;
            }
            if let Some(d) = data {
                *i.data.borrow_mut() = d;
            }
            if i.streaming.get() {
                self.restart_stream();
            } else {
                self.parse_whole();
            }
            self.close_card();
            self.build();
            return;
        }
        let old_r = i.render.borrow().clone();
        let old_info = self.info();
        // Only the theme changed (the root's class): the answer, its data and every
        // option the model or the markup depends on stay. Any other option (`numbering`,
        // `showCitations`, `unresolved`, `format`, ...) or a new answer or data in the
        // same call draws the answer again.
        let same_model = options
            .as_ref()
            .is_none_or(|o| o.same_model(&i.options.borrow()));
        if let Some(o) = options.filter(|_| options_changed) {
            self.set_options(o);
        }
        let theme_only = options_changed
            && same_model
            && answer.is_none()
            && data.is_none()
            && *old_r == **i.render.borrow();
        if !i.streaming.get() {
            let old = self.current();
            if let Some(a) = answer {
                *i.answer.borrow_mut() = a;
            }
            if let Some(d) = data {
                if *i.data.borrow() != d {
                    self.data_replaced();
                }
                *i.data.borrow_mut() = d;
            }
            self.parse_whole();
            self.settle(&old, &old_r, old_info, StreamInfo::default(), theme_only);
            return;
        }
        // A stream runs.
        let sse = self.is_sse();
        let mut restart = options_changed && !theme_only;
        let mut reread = false;
        let mut more = String::new();
        if let Some(a) = answer.filter(|_| !sse) {
            match change(&i.answer.borrow(), &a, true, true, false) {
                Change::Same => {}
                Change::Append(grown) => more = grown.to_string(),
                Change::Restart | Change::Replace => restart = true,
            }
            *i.answer.borrow_mut() = a;
        }
        if let Some(d) = data {
            let grown = match (&*i.data.borrow(), &d) {
                (CiteData::Text(o), CiteData::Text(n)) if sse => {
                    match change(o, n, true, true, false) {
                        Change::Same => Some(String::new()),
                        Change::Append(grown) => Some(grown.to_string()),
                        Change::Restart | Change::Replace => None,
                    }
                }
                _ => None,
            };
            match grown {
                Some(g) => more.push_str(&g),
                None if sse => restart = true,
                None => reread = *i.data.borrow() != d,
            }
            if reread || restart {
                self.data_replaced();
            }
            *i.data.borrow_mut() = d;
        }
        // Data after refused data: the stream is tried again with it.
        if reread && i.parser.borrow().is_none() {
            restart = true;
        }
        // Text that only grew is appended and needs nothing of the answer shown before;
        // anything else settles from it (copied now, before the parser changes).
        let old = (restart || reread || options_changed).then(|| self.current());
        let prev_stable = self.stable_len();
        if restart {
            self.restart_stream();
        } else {
            let mut failed = None;
            if let Some(p) = i.parser.borrow_mut().as_mut() {
                if reread {
                    if let Err(e) = p.set_data(i.data.borrow().as_data()) {
                        failed = Some(e);
                    }
                }
                if !more.is_empty() {
                    p.push(&more);
                }
            }
            if let Some(e) = failed {
                self.fall_back(&e);
            } else if i.parser.borrow().is_none() {
                self.parse_whole();
            }
        }
        let info = StreamInfo {
            streaming: true,
            prev_stable: if restart { 0 } else { prev_stable },
            reread: reread || restart,
        };
        match old {
            // Appended to the running parser.
            None => self.show_appended(self.redrawn_from(prev_stable)),
            // Only the theme: the root's class.
            Some(old) if !restart && !reread => self.settle(&old, &old_r, old_info, info, true),
            Some(old) => self.settle(&old, &old_r, old_info, info, false),
        }
    }

    /// Stops listening, cancels the card's timers and empties the element.
    pub fn destroy(&self) {
        let i = &self.0;
        i.deferred.borrow_mut().take();
        i.timers.cancel_open();
        i.timers.cancel_close();
        // No card: the page's listeners leave an answer without one alone.
        i.card.set(None);
        i.copied.borrow_mut().take();
        i.notes_pending.set(false);
        if let Some((id, _)) = i.notes_frame.borrow_mut().take() {
            if let Some(w) = web_sys::window() {
                let _ = w.cancel_animation_frame(id);
            }
        }
        for (name, f) in i.listeners.borrow_mut().drain(..) {
            let _ = i
                .element
                .remove_event_listener_with_callback(name, f.as_ref().unchecked_ref());
        }
        set_highlight(&i.render.borrow().id_prefix, Vec::new());
        i.layout.borrow_mut().take();
        i.nodes.borrow_mut().take();
        i.blocks.borrow_mut().clear();
        i.defs.borrow_mut().clear();
        i.parser.borrow_mut().take();
        i.element.set_inner_html("");
    }

    /// Whether the data is in a format this build leaves out (a `format-not-loaded`
    /// diagnostic: the npm package then mounts the answer again in its second module).
    pub fn needs_formats(&self) -> bool {
        self.with_model(|a| a.diagnostics.iter().any(|d| d.code == "format-not-loaded"))
    }

    /// What the data could not give, for the console: the first error (its code and
    /// message) and how many there are. A format this build leaves out is left out (the
    /// npm package loads its full module).
    pub fn data_errors(&self) -> Option<(String, usize)> {
        use crate::core::model::Severity;
        self.with_model(|a| {
            let mut errors = a
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error && d.code != "format-not-loaded");
            let first = errors.next()?;
            Some((
                format!("{}: {}", first.code, first.message),
                1 + errors.count(),
            ))
        })
    }

    /// The element the answer is mounted in.
    pub fn element(&self) -> &HtmlElement {
        &self.0.element
    }

    fn set_options(&self, o: Options) {
        let prefix = self.0.render.borrow().id_prefix.clone();
        let r = RenderOptions::live(&o, &prefix);
        if r != **self.0.render.borrow() {
            *self.0.render.borrow_mut() = Arc::new(r);
        }
        *self.0.options.borrow_mut() = o;
    }

    /// Calls `f` with the answer shown now.
    fn with_model<T>(&self, f: impl FnOnce(&Answer) -> T) -> T {
        if let Ok(p) = self.0.parser.try_borrow() {
            if let Some(p) = p.as_ref() {
                return f(p.snapshot());
            }
        }
        let m = self.0.model.borrow().clone();
        f(&m)
    }

    /// The answer shown now, as a value that outlives the next change.
    fn current(&self) -> Arc<Answer> {
        match self.0.parser.borrow().as_ref() {
            Some(p) => Arc::new(p.snapshot().clone()),
            None => self.0.model.borrow().clone(),
        }
    }
}

/// The elements `build` wrote into `element`.
fn find_nodes(element: &HtmlElement) -> Option<Nodes> {
    let root = element.first_element_child()?;
    let answer = root.first_element_child()?;
    let body = answer
        .query_selector(&format!(":scope > {}", class::ANSWER_BODY_SEL))
        .ok()??;
    let card = root.last_element_child()?;
    Some(Nodes {
        root,
        answer,
        body,
        card,
    })
}
