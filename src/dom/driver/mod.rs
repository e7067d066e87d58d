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

use crate::core::bytes;
use crate::core::export::copy_text;
use crate::core::formats::{CiteData, Data};
use crate::core::live::{split_message, StreamInfo};
use crate::core::model::{CitedAnswer as Model, ContentKind};
use crate::core::options::Options;
use crate::core::stream::StreamParser;
use crate::dom::blocks::{patch_markers, push_block, render_stream_tail, show_answer};
use crate::dom::card::show_card;
use crate::dom::events::{
    emit_from, on_answer_click, on_focus_in, on_focus_out, on_key_down, on_panel_click,
    on_panel_hover, on_panel_leave, on_pointer_down, on_pointer_out, on_pointer_over,
    on_window_key_down, source_detail, Host,
};
use crate::dom::highlight::apply_highlight;
use crate::dom::page;
use crate::dom::panel::{bring_into_view, mark_layout, set_expanded, PanelLayout};
use crate::dom::state::{kept_card, next_prefix, sources_of, Card, Highlight, Timeout, Timers};
use crate::dom::util as dom;
use crate::render::stream_view::StreamDefs;
use crate::render::{self, class, RenderOptions};
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::rc::{Rc, Weak};
use std::sync::Arc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, EventTarget, HtmlElement};

/// What is shown besides the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Display {
    /// The source panel beside the answer.
    pub panel: bool,
    /// Footnotes under the answer.
    pub footnotes: bool,
    /// A button that copies the answer with its citations as markdown.
    pub copy_button: bool,
    /// citekit's stylesheet added to the document head.
    pub inject_css: bool,
}

impl Default for Display {
    fn default() -> Self {
        Display {
            panel: false,
            footnotes: true,
            copy_button: false,
            inject_css: true,
        }
    }
}

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
    fn matches(&self, a: &Model) -> bool {
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

    fn of(a: &Model) -> NotesKey {
        NotesKey {
            sources: a
                .sources
                .iter()
                .map(|s| (s.number, s.cite_count, s.cited))
                .collect(),
            show_citations: a.show_citations,
            lazy: a.text.len() >= render::LAZY_AFTER,
            text: a.text.len(),
            about: render::about_words(a),
            stale: false,
        }
    }

    /// Takes `a`'s text length: when the headings' quote stays the same, the lists
    /// stay as they are. Once the quote is complete (text well past it), the text is
    /// no longer compared.
    fn same_about(&mut self, a: &Model) -> bool {
        if self.text == usize::MAX || self.text == a.text.len() {
            return true;
        }
        let about = render::about_words(a);
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
    model: RefCell<Arc<Model>>,
    /// A Vercel AI SDK message given whole on every change ([`Driver::set_message`]),
    /// once one was.
    message: RefCell<Option<MessageSeen>>,
    nodes: RefCell<Option<Nodes>>,
    blocks: RefCell<Vec<(render::Block, Element)>>,
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
    /// The last pointer press that went through the answer, and whether it was on a
    /// marker or the card: the window's listener tells a press outside from it (in a
    /// shadow root the window sees the press retargeted to the root's host).
    last_press: RefCell<Option<(web_sys::Event, bool)>>,
}

/// The last Vercel AI SDK message a view was given.
struct MessageSeen {
    /// The message as given.
    value: Value,
    /// The message without its text ([`split_message`]): when a later state has the
    /// same, only its text changed.
    rest: Value,
}

/// The parts of a long answer past the first screenful: the blocks that start after
/// `render::LAZY_AFTER` bytes, the footnote entries below such an answer and the panel
/// entries after the first `render::PANEL_EAGER`. `build` writes the rest and leaves
/// these to a task after the next frame (`Driver::flush_deferred`), so the first frame
/// parses, styles and paints only what can be on screen; an event on the answer or a
/// call that changes it inserts them first.
#[derive(Default)]
struct Deferred {
    blocks: Vec<render::Block>,
    notes: String,
    panel: String,
}

thread_local! {
    /// The answer whose card is open (the page shows one card at a time).
    static OPEN_CARD: RefCell<Weak<Inner>> = const { RefCell::new(Weak::new()) };
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
            last_press: RefCell::new(None),
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
            let old_a = i.answer.borrow();
            if a.len() >= old_a.len() && a.starts_with(old_a.as_str()) {
                more = a[old_a.len()..].to_string();
            } else {
                restart = true;
            }
            drop(old_a);
            *i.answer.borrow_mut() = a;
        }
        if let Some(d) = data {
            let grown = match (&*i.data.borrow(), &d) {
                (CiteData::Text(o), CiteData::Text(n)) if sse && n.starts_with(o.as_str()) => {
                    Some(n[o.len()..].to_string())
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

    /// New data: the lists are drawn again even where the sources' numbers, counts and
    /// states stay (the same ids with new titles, urls or snippets).
    fn data_replaced(&self) {
        if let Ok(mut key) = self.0.notes_key.try_borrow_mut() {
            key.stale = true;
        }
    }

    /// Adds streamed text: to the answer, or (format `sse`) to the event stream. The
    /// first append starts the stream.
    pub fn append(&self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.flush_deferred();
        let i = &self.0;
        if self.is_sse() {
            match &mut *i.data.borrow_mut() {
                CiteData::Text(t) => t.push_str(text),
                other => *other = CiteData::Text(text.to_string()),
            }
        } else {
            i.answer.borrow_mut().push_str(text);
        }
        if !i.streaming.get() {
            self.start_stream();
            return;
        }
        let prev_stable = self.stable_len();
        let pushed = match i.parser.borrow_mut().as_mut() {
            Some(p) => {
                p.push(text);
                true
            }
            None => false,
        };
        if !pushed {
            // No parser (the data was refused): the whole text parsed again.
            self.parse_whole();
        }
        self.show_appended(self.redrawn_from(prev_stable));
    }

    /// Starts a stream over the answer and data held now (shown from the start when
    /// nothing showed, else settled from what showed).
    fn start_stream(&self) {
        let i = &self.0;
        i.streaming.set(true);
        let old = self.current();
        let old_r = i.render.borrow().clone();
        let shown_before = !old.text.is_empty();
        self.restart_stream();
        let info = StreamInfo {
            streaming: true,
            prev_stable: 0,
            reread: true,
        };
        if shown_before {
            self.settle(&old, &old_r, StreamInfo::default(), info, false);
        } else {
            self.show_appended(0);
        }
    }

    /// Shows a Vercel AI SDK message (format `ai-sdk`: a `UIMessage`, its parts or the
    /// messages array) given whole on every change, as `useChat` hands it.
    ///
    /// While `live`, each message is a later state of the one before: when its answer
    /// text extends the text so far, only the new tail is appended (the blocks shown
    /// stay), and its data is read again only when something besides the text changed
    /// (a new source, a part's provider metadata, the message metadata); text that is
    /// not an extension (another message) starts the stream again. The first live
    /// message starts the stream, even with no text yet (Perplexity's sources come
    /// first). Not `live`: a running stream ends with this message (the answer then
    /// equals a one-shot parse of it); otherwise the message is shown whole. The same
    /// message again changes nothing, whatever `live` says, but ends a running stream
    /// when it is false.
    pub fn set_message(&self, message: Value, live: bool, display: Display) {
        self.flush_deferred();
        let i = &self.0;
        let unchanged = i
            .message
            .borrow()
            .as_ref()
            .is_some_and(|m| m.value == message);
        if unchanged {
            // The same message again: only the end of its stream is news. (A chat page
            // passes `streaming` to every message while the last one streams: the
            // others stay as they are.)
            if !live {
                self.finish();
            }
            return;
        }
        let (text, rest) = split_message(&message);
        let same_rest = i.message.borrow().as_ref().is_some_and(|m| m.rest == rest);
        let grows = text.starts_with(i.answer.borrow().as_str());
        *i.message.borrow_mut() = Some(MessageSeen {
            value: message.clone(),
            rest,
        });
        let data = CiteData::Json(message);
        if !live {
            let running = i.streaming.get();
            // The stream ends with the whole message as data (the running parser may
            // hold an earlier state of its parts' text).
            self.update(Some(text), Some(data), None, display);
            if running {
                self.finish();
            }
            return;
        }
        if !i.streaming.get() {
            *i.answer.borrow_mut() = text;
            self.data_replaced();
            *i.data.borrow_mut() = data;
            self.start_stream();
            return;
        }
        // Only text that grew: appended, the data kept. Anything else is read again.
        let data = (!same_rest || !grows).then_some(data);
        self.update(Some(text), data, None, display);
    }

    /// Forgets the message of [`Driver::set_message`]: an answer or data given from now
    /// on is the view's input, and the end of a stream reads no message.
    pub fn leave_message(&self) {
        self.0.message.borrow_mut().take();
    }

    /// Ends the stream: what was held back is read, and the answer shows as a one-shot
    /// parse of the whole text would.
    pub fn finish(&self) {
        self.flush_deferred();
        let i = &self.0;
        if !i.streaming.get() {
            return;
        }
        // A message's last state may differ from the data the parser holds by its
        // parts' text only: the parser reads the last one before it resolves.
        let latest = i
            .message
            .borrow()
            .as_ref()
            .map(|m| CiteData::Json(m.value.clone()))
            .filter(|d| *d != *i.data.borrow());
        if let Some(d) = latest {
            let display = i.display.get();
            self.update(None, Some(d), None, display);
        }
        let old = self.current();
        let old_r = i.render.borrow().clone();
        let prev_stable = self.stable_len();
        i.streaming.set(false);
        let done = i.parser.borrow_mut().take().map(|mut p| p.finish().clone());
        match done {
            Some(m) => *i.model.borrow_mut() = Arc::new(m),
            None => self.parse_whole(),
        }
        let old_info = StreamInfo {
            streaming: true,
            prev_stable,
            reread: false,
        };
        let info = StreamInfo {
            streaming: false,
            prev_stable,
            reread: true,
        };
        self.settle(&old, &old_r, old_info, info, false);
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
        dom::set_highlight(&i.render.borrow().id_prefix, Vec::new());
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

    /// Whether the data is a raw event stream that `append` adds to (`sse`, an `ai-sdk`
    /// UI message stream).
    fn is_sse(&self) -> bool {
        crate::core::formats::streams_events(self.0.options.borrow().format, &self.0.data.borrow())
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
    fn with_model<T>(&self, f: impl FnOnce(&Model) -> T) -> T {
        if let Ok(p) = self.0.parser.try_borrow() {
            if let Some(p) = p.as_ref() {
                return f(p.snapshot());
            }
        }
        let m = self.0.model.borrow().clone();
        f(&m)
    }

    /// The answer shown now, as a value that outlives the next change.
    fn current(&self) -> Arc<Model> {
        match self.0.parser.borrow().as_ref() {
            Some(p) => Arc::new(p.snapshot().clone()),
            None => self.0.model.borrow().clone(),
        }
    }

    fn stable_len(&self) -> usize {
        self.0
            .parser
            .borrow()
            .as_ref()
            .map_or(0, |p| p.stable_len())
    }

    /// Where the body is rendered again after a push: from the stable length before it,
    /// or from an earlier completed block the push read again (a provider's span that
    /// came after the text it covers: `StreamParser::rewritten_from`).
    fn redrawn_from(&self, prev_stable: usize) -> usize {
        self.0
            .parser
            .borrow()
            .as_ref()
            .and_then(|p| p.rewritten_from())
            .map_or(prev_stable, |from| from.min(prev_stable))
    }

    fn info(&self) -> StreamInfo {
        StreamInfo {
            streaming: self.0.streaming.get(),
            prev_stable: self.stable_len(),
            reread: false,
        }
    }

    /// Parses the whole answer at once (no stream, or a stream whose data was refused:
    /// then without a marker still arriving at its end).
    fn parse_whole(&self) {
        let i = &self.0;
        let answer = i.answer.borrow();
        let data = i.data.borrow();
        let opts = i.options.borrow();
        let sse = crate::core::formats::streams_events(opts.format, &data);
        // An empty answer: the text is in the data (sse, anthropic, ...).
        let text = (!answer.is_empty() && !sse).then(|| self.shown_answer(&answer));
        let m = crate::core::parse_lenient(text, data.as_data(), &opts);
        *i.model.borrow_mut() = Arc::new(m);
    }

    /// Starts the stream again over everything received so far.
    fn restart_stream(&self) {
        let i = &self.0;
        let sse = self.is_sse();
        let made = {
            let data = i.data.borrow();
            let start = if sse { Data::Text("") } else { data.as_data() };
            StreamParser::new(start, &i.options.borrow())
        };
        match made {
            Ok(mut p) => {
                if sse {
                    if let CiteData::Text(t) = &*i.data.borrow() {
                        p.push(t);
                    }
                } else {
                    p.push(&i.answer.borrow());
                }
                *i.parser.borrow_mut() = Some(p);
            }
            Err(e) => self.fall_back(&e),
        }
    }

    /// The data could not start a stream: the answer is parsed whole on every change,
    /// with the data's error as a diagnostic.
    fn fall_back(&self, e: &crate::core::error::ParseError) {
        let i = &self.0;
        i.parser.borrow_mut().take();
        let answer = i.answer.borrow();
        let m = crate::core::live::refused(self.shown_answer(&answer), &i.options.borrow(), e);
        *i.model.borrow_mut() = Arc::new(m);
    }

    /// What of `answer` a view without a stream parser shows: while it streams, the text
    /// without a marker or link still arriving at its end, as a parser would hold back.
    fn shown_answer<'a>(&self, answer: &'a str) -> &'a str {
        if self.0.streaming.get() {
            crate::core::stream::shown_without_parser(answer)
        } else {
            answer
        }
    }

    /// Renders the answer into the element: one HTML string, with the parts past the
    /// first screenful of a long answer left to a task after the next frame
    /// ([`Deferred`]).
    fn build(&self) {
        let i = &self.0;
        i.deferred.borrow_mut().take();
        let display = i.display.get();
        if display.inject_css {
            dom::inject_css_for(&i.element, crate::dom::CSS);
        } else {
            dom::shadow_root_of(&i.element);
        }
        let r = i.render.borrow().clone();
        let (theme, style) = {
            let o = i.options.borrow();
            (o.theme, render::marker_style_name(o.marker_style))
        };
        let streaming = i.streaming.get();
        // A stream shows its blocks as they come; a selected source must be in the panel.
        let defer = !streaming && i.selected.get().is_none();
        let mut later = Deferred::default();
        let (html, blocks) = self.with_model(|a| {
            let mut blocks = if streaming && a.content_kind == ContentKind::Markdown {
                Vec::new()
            } else {
                render::answer_blocks(a, &r)
            };
            if defer {
                let first = blocks.partition_point(|b| b.range.start < render::LAZY_AFTER);
                later.blocks = blocks.split_off(first.max(1).min(blocks.len()));
            }
            let (notes, panel) = render::lists_shown(a, display.footnotes, display.panel);
            let mut html = String::with_capacity(blocks.iter().map(|b| b.html.len() + 32).sum());
            let _ = write!(
                html,
                "<div class=\"{}\" id=\"{}\" data-marker-style=\"{style}\"><div class=\"{}\">",
                render::root_class(theme, panel),
                r.id_prefix,
                class::ANSWER
            );
            if display.copy_button {
                let _ = write!(
                    html,
                    "<button type=\"button\" class=\"cite-copy\" data-state=\"idle\">{}</button>",
                    crate::render::escape::escape(r.labels.get("copy"))
                );
            }
            let _ = write!(html, "<div class=\"{}\">", class::ANSWER_BODY);
            for b in &blocks {
                push_block(&mut html, b);
            }
            html.push_str("</div>");
            let notes_html = if notes {
                render::footnotes_html(a, &r)
            } else {
                String::new()
            };
            if notes {
                let below = defer && a.text.len() >= render::LAZY_AFTER;
                html.push_str(&notes_section(&r, &split_list(&notes_html, below.then_some(0), &mut later.notes)));
            }
            *i.notes_html.borrow_mut() = notes_html;
            html.push_str("</div>");
            let panel_html = if panel {
                render::panel_html(a, &r)
            } else {
                String::new()
            };
            if panel {
                let eager = defer.then_some(render::PANEL_EAGER);
                html.push_str(&panel_aside(&r, &split_list(&panel_html, eager, &mut later.panel)));
            }
            *i.panel_html.borrow_mut() = panel_html;
            let _ = write!(
                html,
                "<div class=\"{}\" id=\"{}-card\" role=\"tooltip\" data-state=\"closed\" hidden></div></div>",
                class::CARD,
                r.id_prefix
            );
            *i.notes_key.borrow_mut() = NotesKey::of(a);
            i.shown_sources.set(a.sources.len());
            (html, blocks)
        });
        i.element.set_inner_html(&html);
        let Some(nodes) = find_nodes(&i.element) else {
            return;
        };
        {
            let mut shown = i.blocks.borrow_mut();
            shown.clear();
            i.defs.borrow_mut().clear();
            let children = nodes.body.children();
            for (k, b) in blocks.into_iter().enumerate() {
                if let Some(el) = children.item(k as u32) {
                    shown.push((b, el));
                }
            }
        }
        *i.layout.borrow_mut() = PanelLayout::watch(&nodes.root);
        *i.nodes.borrow_mut() = Some(nodes);
        i.card_link.borrow_mut().take();
        if streaming {
            self.show_appended(0);
        }
        if let Some(n) = i.selected.get() {
            self.with_model(|a| set_expanded(&r, a, n, true));
        }
        if !(later.blocks.is_empty() && later.notes.is_empty() && later.panel.is_empty()) {
            *i.deferred.borrow_mut() = Some(later);
            let weak = Rc::downgrade(&self.0);
            dom::after_frame(move || {
                if let Some(d) = upgrade(&weak) {
                    d.flush_deferred();
                }
            });
        }
    }

    /// Inserts what `build` left for later (nothing when it is in already).
    fn flush_deferred(&self) {
        let i = &self.0;
        let Some(later) = i.deferred.borrow_mut().take() else {
            return;
        };
        let Ok(nodes) = i.nodes.try_borrow() else {
            return;
        };
        let Some(nodes) = nodes.as_ref() else { return };
        if !later.blocks.is_empty() {
            let mut html = String::new();
            for b in &later.blocks {
                push_block(&mut html, b);
            }
            let _ = nodes.body.insert_adjacent_html("beforeend", &html);
            let mut shown = i.blocks.borrow_mut();
            let children = nodes.body.children();
            let first = shown.len();
            for (k, b) in later.blocks.into_iter().enumerate() {
                if let Some(el) = children.item((first + k) as u32) {
                    shown.push((b, el));
                }
            }
        }
        for (items, root, list) in [
            (later.notes, &nodes.answer, class::FOOTNOTES_LIST_SEL),
            (later.panel, &nodes.root, class::PANEL_LIST_SEL),
        ] {
            if items.is_empty() {
                continue;
            }
            if let Ok(Some(ol)) = root.query_selector(list) {
                let _ = ol.insert_adjacent_html("beforeend", &items);
            }
        }
    }

    /// After a plain append: the open tail rendered again, footnotes and panel when
    /// their sources changed, the card re-anchored when its marker was redrawn.
    fn show_appended(&self, prev_stable: usize) {
        let i = &self.0;
        let r = i.render.borrow().clone();
        let Ok(nodes) = i.nodes.try_borrow() else {
            return;
        };
        let Some(nodes) = nodes.as_ref() else { return };
        let Ok(parser) = i.parser.try_borrow() else {
            return;
        };
        // Without a parser (the data was refused) the answer so far is parsed whole.
        let whole;
        let a = match parser.as_ref() {
            Some(p) => p.snapshot(),
            None => {
                whole = i.model.borrow().clone();
                &*whole
            }
        };
        let Ok(mut blocks) = i.blocks.try_borrow_mut() else {
            return;
        };
        if a.content_kind != ContentKind::Markdown || parser.is_none() {
            // HTML or JSON answers are not block-structured, nor is a whole parse's
            // answer: rendered whole, unchanged blocks kept.
            crate::dom::blocks::patch_blocks(
                &nodes.body,
                &mut blocks,
                render::answer_blocks(a, &r),
                &Some,
            );
        } else {
            let stable = prev_stable.min(a.text.len());
            // New sources (footnote definitions) can turn markers already shown live.
            if i.shown_sources.replace(a.sources.len()) != a.sources.len() {
                let fixed: Vec<usize> =
                    (0..a.citations.partition_point(|c| c.end < stable)).collect();
                patch_markers(&nodes.body, a, &r, &fixed);
            }
            if let Ok(mut defs) = i.defs.try_borrow_mut() {
                render_stream_tail(&nodes.body, &mut blocks, &mut defs, a, &r, stable, &Some);
            }
        }
        drop(blocks);
        // Footnotes and panel follow once per frame: a frame shows them up to date,
        // and the chunks between two frames (many, when text arrives fast) pay once.
        self.schedule_notes();
        // The card's marker was in the redrawn tail: anchor it again.
        if let Some(c) = i.card.get() {
            let gone = i
                .card_link
                .borrow()
                .as_ref()
                .is_none_or(|l| !l.is_connected());
            if gone {
                let c = (c.ci < a.citations.len() && !a.citations[c.ci].sources.is_empty())
                    .then_some(c);
                i.card.set(c);
                if let Ok(mut last) = i.card_link.try_borrow_mut() {
                    show_card(&nodes.card, &mut last, a, &r, c);
                }
            }
        }
        if i.lit.get() {
            i.lit
                .set(apply_highlight(&nodes.root, a, &r, i.highlight.get()));
        }
    }

    /// After new data, options or the end of a stream: the body settles from `old` to
    /// the answer now, the card stays on its citation, the rest follows.
    fn settle(
        &self,
        old: &Model,
        old_r: &RenderOptions,
        old_info: StreamInfo,
        info: StreamInfo,
        theme_only: bool,
    ) {
        let i = &self.0;
        let r = i.render.borrow().clone();
        let Ok(nodes) = i.nodes.try_borrow() else {
            return;
        };
        let Some(nodes) = nodes.as_ref() else { return };
        let style = render::marker_style_name(i.options.borrow().marker_style);
        if nodes.root.get_attribute("data-marker-style").as_deref() != Some(style) {
            let _ = nodes.root.set_attribute("data-marker-style", style);
        }
        self.with_model(|a| {
            if !theme_only {
                i.shown_sources.set(a.sources.len());
                if let (Ok(mut blocks), Ok(mut defs)) =
                    (i.blocks.try_borrow_mut(), i.defs.try_borrow_mut())
                {
                    show_answer(
                        &nodes.body,
                        &mut blocks,
                        &mut defs,
                        Some((old, old_r, old_info)),
                        a,
                        &r,
                        info,
                    );
                }
            }
            // The theme changes nothing the lists show: the root's class here.
            self.set_root_class(nodes, a);
            i.notes_pending.set(false);
            self.sync_notes(nodes, a, &r, !theme_only && *old_r != *r);
            if let Some(c) = i.card.get().filter(|_| !theme_only) {
                let now = kept_card(old, a, c);
                i.card.set(now);
                if let Ok(mut last) = i.card_link.try_borrow_mut() {
                    show_card(&nodes.card, &mut last, a, &r, now);
                }
            }
            if i.lit.get() {
                i.lit
                    .set(apply_highlight(&nodes.root, a, &r, i.highlight.get()));
            }
        });
    }

    /// Brings footnotes and panel up to date at the next animation frame (now, where
    /// there are no frames).
    fn schedule_notes(&self) {
        let i = &self.0;
        if i.notes_pending.get() {
            return;
        }
        i.notes_pending.set(true);
        // A frame requested before and not needed since (footnotes brought up to date at
        // once by a change in between) is requested again with the same callback: the
        // callback is never dropped while a frame may still call it.
        if let (Some(w), Some((id, callback))) =
            (web_sys::window(), i.notes_frame.borrow_mut().as_mut())
        {
            let _ = w.cancel_animation_frame(*id);
            if let Ok(n) = w.request_animation_frame(callback.as_ref().unchecked_ref()) {
                *id = n;
                return;
            }
        }
        let weak = Rc::downgrade(&self.0);
        let callback = Closure::<dyn FnMut()>::new(move || {
            if let Some(d) = upgrade(&weak) {
                d.flush_notes();
            }
        });
        let id = web_sys::window().and_then(|w| {
            w.request_animation_frame(callback.as_ref().unchecked_ref())
                .ok()
        });
        match id {
            // The callback stays stored (not dropped while it runs); the next one
            // replaces it.
            Some(id) => *i.notes_frame.borrow_mut() = Some((id, callback)),
            None => self.flush_notes(),
        }
    }

    /// Footnotes and panel brought up to date now (a pending frame then finds nothing
    /// to do).
    fn flush_notes(&self) {
        let i = &self.0;
        if !i.notes_pending.replace(false) {
            return;
        }
        let Ok(nodes) = i.nodes.try_borrow() else {
            return;
        };
        let Some(nodes) = nodes.as_ref() else { return };
        let r = i.render.borrow().clone();
        self.with_model(|a| self.sync_notes(nodes, a, &r, false));
    }

    /// Brings footnotes and panel in line with `a` when what they show changed.
    fn sync_notes(&self, nodes: &Nodes, a: &Model, r: &RenderOptions, force: bool) {
        let i = &self.0;
        let Ok(mut key) = i.notes_key.try_borrow_mut() else {
            return;
        };
        if !force && key.same_about(a) && key.matches(a) {
            return;
        }
        *key = NotesKey::of(a);
        drop(key);
        let d = i.display.get();
        let (notes, panel) = render::lists_shown(a, d.footnotes, d.panel);
        sync_list(
            notes.then(|| render::footnotes_html(a, r)),
            (&nodes.answer, class::FOOTNOTES_SEL),
            &mut i.notes_html.borrow_mut(),
            |inner| notes_section(r, inner),
            (&nodes.answer, "beforeend"),
        );
        sync_list(
            panel.then(|| render::panel_html(a, r)),
            (&nodes.root, class::PANEL_SEL),
            &mut i.panel_html.borrow_mut(),
            |inner| panel_aside(r, inner),
            (&nodes.card, "beforebegin"),
        );
        self.set_root_class(nodes, a);
        if let Some(n) = i.selected.get() {
            set_expanded(r, a, n, true);
        }
    }

    /// The root's class: the theme, and whether the panel sits beside the answer.
    fn set_root_class(&self, nodes: &Nodes, a: &Model) {
        let i = &self.0;
        let panel = render::lists_shown(a, false, i.display.get().panel).1;
        let class = render::root_class(i.options.borrow().theme, panel);
        if nodes.root.class_name() != class {
            nodes.root.set_class_name(&class);
            // The panel came or went: the root's size may be the same.
            mark_layout(&nodes.root);
        }
    }

    fn close_card(&self) {
        self.0.card.set(None);
        self.0.card_link.borrow_mut().take();
    }

    /// The card element in line with the card state.
    fn show_card_now(&self) {
        let i = &self.0;
        let Ok(nodes) = i.nodes.try_borrow() else {
            return;
        };
        let Some(nodes) = nodes.as_ref() else { return };
        let Ok(mut last) = i.card_link.try_borrow_mut() else {
            return;
        };
        let r = i.render.borrow().clone();
        let c = i.card.get();
        self.with_model(|a| show_card(&nodes.card, &mut last, a, &r, c));
    }

    fn light(&self) {
        let i = &self.0;
        let h = i.highlight.get();
        if h == Highlight::None && !i.lit.get() {
            return;
        }
        let Ok(nodes) = i.nodes.try_borrow() else {
            return;
        };
        let Some(nodes) = nodes.as_ref() else { return };
        let r = i.render.borrow().clone();
        let lit = self.with_model(|a| apply_highlight(&nodes.root, a, &r, h));
        i.lit.set(lit);
    }

    fn copy(&self) {
        let i = &self.0;
        if !dom::copy_text(&self.with_model(copy_text)) {
            web_sys::console::warn_1(
                &"citekit: the answer could not be copied (this page has no clipboard access)"
                    .into(),
            );
            return;
        }
        let r = i.render.borrow().clone();
        let Some(btn) = i
            .nodes
            .borrow()
            .as_ref()
            .and_then(|n| n.answer.query_selector(".cite-copy").ok().flatten())
        else {
            return;
        };
        let _ = btn.set_attribute("data-state", "copied");
        btn.set_text_content(Some(r.labels.get("copied")));
        let back = btn.clone();
        let t = Timeout::new(1500, move || {
            let _ = back.set_attribute("data-state", "idle");
            back.set_text_content(Some(r.labels.get("copy")));
        });
        *i.copied.borrow_mut() = t;
    }

    /// Delegated listeners on the element (they outlive re-renders of its content); the
    /// window's (a press outside, Escape, a scroll close the card) are the page's, once
    /// for every answer ([`page`]).
    fn listen(&self) {
        for name in [
            "pointerover",
            "pointerout",
            "pointerdown",
            "click",
            "focusin",
            "focusout",
            "keydown",
            "pointerleave",
        ] {
            self.listen_to(name);
        }
        let root = dom::shadow_root_of(&self.0.element).map(EventTarget::from);
        page::join(root, page_listener);
    }

    /// Listens to `event` on the answer's element, handled by
    /// [`on_event`](Self::on_event) under the same name: one closure type for every
    /// listener (the page's are of the same type).
    fn listen_to(&self, event: &'static str) {
        let f = listener(Some(Rc::downgrade(&self.0)), event);
        let _ = self
            .0
            .element
            .add_event_listener_with_callback(event, f.as_ref().unchecked_ref());
        self.0.listeners.borrow_mut().push((event, f));
    }

    fn on_outside_pointer(&self, ev: &web_sys::Event) {
        let press = self.0.last_press.borrow_mut().take();
        if self.0.card.get().is_none() {
            return;
        }
        // A press the answer saw was told apart there (the window sees it retargeted
        // when the answer is in a shadow root); any other one is outside.
        let inside = press.is_some_and(|(p, on)| on && p == *ev);
        if !inside {
            self.set_card(None);
        }
    }

    fn in_panel(target: Option<EventTarget>) -> bool {
        dom::closest(target, class::PANEL_SEL).is_some()
    }

    fn on_event(&self, name: &str, ev: web_sys::Event) {
        // On the window (or the shadow root): a press anywhere, a scroll (or a new
        // window size) anywhere.
        if name == "outside" {
            return self.on_outside_pointer(&ev);
        }
        if name == "escape" {
            if let Some(k) = ev.dyn_ref::<web_sys::KeyboardEvent>() {
                on_window_key_down(self, &self.0.timers, k);
            }
            return;
        }
        if name == "scroll" {
            // The card is placed at its marker (fixed): opened by the keyboard it follows
            // the marker while that is on screen (a focused marker scrolled into view
            // keeps its card), else it closes. A scroll that cannot move the marker (in
            // the card, in the panel) changes nothing.
            if let Some(c) = self.0.card.get() {
                let r = self.0.render.borrow().clone();
                let link = dom::by_id(&render::ref_id(&r, c.ci, c.k));
                if crate::dom::card::scroll_moves(ev.target(), link.as_ref()) {
                    let follows = match self.0.nodes.try_borrow() {
                        Ok(n) => n
                            .as_ref()
                            .is_some_and(|n| crate::dom::card::follow_marker(&n.card, link)),
                        Err(_) => false,
                    };
                    if !follows {
                        self.set_card(None);
                    }
                }
            }
            return;
        }
        // A reader reached the answer before the task that completes it: completed now.
        self.flush_deferred();
        let t = self.0.timers.clone();
        let panel = self.0.display.get().panel;
        match name {
            "pointerover" => {
                if Self::in_panel(ev.target()) {
                    on_panel_hover(self, ev.target());
                } else if let Ok(ev) = ev.dyn_into() {
                    on_pointer_over(self, &t, ev);
                }
            }
            "pointerout" => {
                let related = ev
                    .dyn_ref::<web_sys::MouseEvent>()
                    .and_then(|m| m.related_target());
                if Self::in_panel(ev.target()) && !Self::in_panel(related) {
                    on_panel_leave(self);
                }
                if let Ok(ev) = ev.dyn_into() {
                    on_pointer_out(self, &t, ev);
                }
            }
            "pointerdown" => {
                let on = dom::closest(ev.target(), class::MARKER_LINK_SEL).is_some()
                    || dom::closest(ev.target(), class::CARD_SEL).is_some();
                *self.0.last_press.borrow_mut() = Some((ev.clone(), on));
                if let Ok(ev) = ev.dyn_into() {
                    on_pointer_down(self, &t, ev);
                }
            }
            "click" => {
                if dom::closest(ev.target(), ".cite-copy").is_some() {
                    self.copy();
                    return;
                }
                if Self::in_panel(ev.target()) {
                    if let Some(m) = ev.dyn_ref::<web_sys::MouseEvent>() {
                        on_panel_click(self, m);
                    }
                }
                let link = dom::closest(ev.target(), "a[href^=\"#\"]");
                if let Ok(m) = ev.clone().dyn_into() {
                    on_answer_click(self, &t, panel, m);
                }
                if let Some(a) = link.filter(|_| !ev.default_prevented()) {
                    follow_in_shadow_root(&a, &ev);
                }
            }
            "focusin" => {
                if Self::in_panel(ev.target()) {
                    on_panel_hover(self, ev.target());
                } else if let Ok(ev) = ev.dyn_into() {
                    on_focus_in(self, &t, ev);
                }
            }
            "focusout" => {
                if Self::in_panel(ev.target()) {
                    on_panel_leave(self);
                } else if let Ok(ev) = ev.dyn_into() {
                    on_focus_out(self, &t, ev);
                }
            }
            "keydown" => {
                if let Ok(ev) = ev.dyn_into() {
                    on_key_down(self, &t, panel, ev);
                }
            }
            _ => {}
        }
    }
}

/// The footnotes' section around their list.
fn notes_section(r: &RenderOptions, inner: &str) -> String {
    format!(
        "<section class=\"{}\" role=\"doc-endnotes\" aria-labelledby=\"{}-fn-title\">{inner}</section>",
        class::FOOTNOTES,
        r.id_prefix
    )
}

/// The panel's `<aside>` around its list.
fn panel_aside(r: &RenderOptions, inner: &str) -> String {
    format!(
        "<aside class=\"{}\" id=\"{p}-panel\" aria-labelledby=\"{p}-panel-title\">{inner}</aside>",
        class::PANEL,
        p = r.id_prefix
    )
}

/// A list's HTML (footnotes, panel) with its entries after the first `keep` moved to
/// `later`; all of it when `keep` is `None`.
fn split_list(html: &str, keep: Option<usize>, later: &mut String) -> String {
    let Some(keep) = keep else {
        return html.to_string();
    };
    let (head, items, tail) = list_parts(html);
    if items.len() <= keep {
        return html.to_string();
    }
    later.push_str(&items[keep..].concat());
    let mut out = String::with_capacity(html.len() - later.len());
    out.push_str(head);
    out.push_str(&items[..keep].concat());
    out.push_str(tail);
    out
}

/// The parts of a list's HTML (footnotes, panel): what comes before the first
/// `<li `, each entry, and what follows the last one. Our markup only: every `<` of
/// the text in it is escaped, so each `<li ` opens one of our entries.
fn list_parts(html: &str) -> (&str, Vec<&str>, &str) {
    let starts: Vec<usize> = bytes::offsets(html, "<li ").collect();
    let Some(&first) = starts.first() else {
        return (html, Vec::new(), "");
    };
    let end = bytes::rfind_str(html, "</ol>")
        .filter(|&e| e > first)
        .unwrap_or(html.len());
    let mut items = Vec::with_capacity(starts.len());
    for (k, &s) in starts.iter().enumerate() {
        let e = starts.get(k + 1).copied().unwrap_or(end);
        items.push(&html[s..e]);
    }
    (&html[..first], items, &html[end..])
}

/// Brings one list section (footnotes or panel) to `html`: patched in place when it is
/// shown (the child of `parent` matching `sel`), written whole (`wrap`ped, at `at`'s
/// position) when it is missing, removed when `html` is `None`. `shown` is the list
/// HTML it shows.
fn sync_list(
    html: Option<String>,
    (parent, sel): (&Element, &str),
    shown: &mut String,
    wrap: impl FnOnce(&str) -> String,
    (anchor, position): (&Element, &str),
) {
    let el = parent
        .query_selector(&format!(":scope > {sel}"))
        .ok()
        .flatten();
    match (html, el) {
        (Some(html), Some(el)) => patch_list(&el, shown, html),
        (Some(html), None) => {
            *shown = html;
            let _ = anchor.insert_adjacent_html(position, &wrap(shown));
        }
        (None, Some(el)) => el.remove(),
        (None, None) => {}
    }
}

/// Brings a list section from the HTML it shows (`shown`) to `html`: when its heading
/// is the same, only the entries that changed are replaced and new ones at the end
/// added with one HTML string; otherwise it is written whole.
fn patch_list(section: &Element, shown: &mut String, html: String) {
    if *shown == html {
        return;
    }
    let patched = (|| {
        let (old_head, old_items, old_tail) = list_parts(shown);
        let (head, items, tail) = list_parts(&html);
        if old_tail != tail || old_items.is_empty() {
            return None;
        }
        let list = section.query_selector("ol").ok()??;
        if old_head != head {
            // Only the heading (its quote of the answer) changed: that element alone.
            let (old_title, old_open) = old_head.split_at(bytes::rfind_str(old_head, "<ol")?);
            let (title, open) = head.split_at(bytes::rfind_str(head, "<ol")?);
            if old_open != open || !title.starts_with("<h2") || !old_title.starts_with("<h2") {
                return None;
            }
            section.first_element_child()?.set_outer_html(title);
        }
        let children = list.children();
        if children.length() as usize != old_items.len() {
            return None;
        }
        let common = old_items.len().min(items.len());
        let changed = (0..common).filter(|&k| old_items[k] != items[k]).count();
        if changed * 2 > common.max(1) && changed > 4 {
            return None;
        }
        for k in 0..common {
            if old_items[k] != items[k] {
                children.item(k as u32)?.set_outer_html(items[k]);
            }
        }
        for _ in common..old_items.len() {
            list.last_element_child()?.remove();
        }
        if items.len() > common {
            let added: String = items[common..].concat();
            list.insert_adjacent_html("beforeend", &added).ok()?;
        }
        Some(())
    })();
    if patched.is_none() {
        section.set_inner_html(&html);
    }
    *shown = html;
}

/// A footnote link or back-link (`#cite1-fn-1`) in an answer inside a shadow root: the
/// browser looks for the id in the document only and goes nowhere, so it is followed
/// here (scrolled to and focused). In the document the browser follows it (and
/// `:target` styles its footnote).
fn follow_in_shadow_root(link: &Element, ev: &web_sys::Event) {
    let Some(id) = link.get_attribute("href") else {
        return;
    };
    let id = id.get(1..).unwrap_or_default();
    if id.is_empty() || dom::document().is_some_and(|d| d.get_element_by_id(id).is_some()) {
        return;
    }
    let Some(root) = dom::shadow_root_of(link) else {
        return;
    };
    let Some(target) = root.get_element_by_id(id) else {
        return;
    };
    ev.prevent_default();
    if !target.has_attribute("tabindex") && target.closest("a, button").ok().flatten().is_none() {
        let _ = target.set_attribute("tabindex", "-1");
    }
    dom::scroll_into_view(&target);
    dom::focus(&target);
}

/// A listener handled by [`Driver::on_event`] as `what`: of the answer `view`, or with
/// `None` one of the page's ([`page`]), which only matters to the answer whose card is
/// open (or was last). One closure type for every listener.
fn listener(view: Option<Weak<Inner>>, what: &'static str) -> page::Listener {
    Closure::new(move |ev: web_sys::Event| {
        let d = match &view {
            Some(w) => w.upgrade(),
            None => OPEN_CARD.with(|o| o.borrow().upgrade()),
        };
        if let Some(d) = d {
            Driver(d).on_event(what, ev);
        }
    })
}

/// The callback of a page-wide listener ([`page::join`]).
fn page_listener(what: &'static str) -> page::Listener {
    listener(None, what)
}

fn upgrade(w: &Weak<Inner>) -> Option<Driver> {
    w.upgrade().map(Driver)
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

impl Host for Driver {
    fn card(&self) -> Option<Card> {
        self.0.card.get()
    }
    fn set_card(&self, card: Option<Card>) {
        if self.0.card.get() == card {
            return;
        }
        // One card on the page: opening one closes another answer's.
        if card.is_some() {
            let other = OPEN_CARD.with(|o| o.replace(Rc::downgrade(&self.0)).upgrade());
            if let Some(other) = other.filter(|o| !Rc::ptr_eq(o, &self.0)) {
                Driver(other).set_card(None);
            }
        }
        self.0.card.set(card);
        self.show_card_now();
    }
    fn select_in_place(&self, n: Option<u32>) {
        let r = self.0.render.borrow().clone();
        if let Some(p) = self.0.selected.replace(n) {
            self.with_model(|a| set_expanded(&r, a, p, false));
        }
        if let Some(n) = n {
            self.emit("source-select", &source_detail(self, n));
            self.with_model(|a| set_expanded(&r, a, n, true));
        }
    }
    fn highlight(&self) -> Highlight {
        self.0.highlight.get()
    }
    fn set_highlight(&self, h: Highlight) {
        // Already so: nothing to sweep (pointerover fires on every move within a marker).
        if self.0.highlight.get() == h && self.0.lit.get() == (h != Highlight::None) {
            return;
        }
        self.0.highlight.set(h);
        self.light();
    }
    fn select(&self, n: Option<u32>) {
        self.select_in_place(n);
        if let Some(n) = n {
            bring_into_view(&self.0.render.borrow(), n);
        }
    }
    fn selected(&self) -> Option<u32> {
        self.0.selected.get()
    }
    fn sources_of(&self, ci: usize) -> Vec<u32> {
        self.with_model(|a| sources_of(a, ci))
    }
    fn source_id(&self, n: u32) -> Option<String> {
        self.with_model(|a| a.source_by_number(n).map(|s| s.id.clone()))
    }
    fn render(&self) -> Arc<RenderOptions> {
        self.0.render.borrow().clone()
    }
    fn emit(&self, name: &str, detail: &[(&str, wasm_bindgen::JsValue)]) {
        let root = self
            .0
            .nodes
            .try_borrow()
            .ok()
            .and_then(|n| n.as_ref().map(|n| n.root.clone()));
        if let Some(root) = root {
            emit_from(&root, name, detail);
        }
    }
}
