//! The page-wide listeners of the mounted answers, for both hosts (the npm package's
//! driver and the Leptos components): one set on the window (a press or Escape
//! anywhere, a scroll anywhere, a new window size) and one scroll listener on each
//! shadow root that holds answers, however many answers are mounted. They only matter
//! to the answer whose card is open (the page shows one card at a time), so each event
//! goes to that answer alone: 200 answers of a long conversation add 4 listeners to the
//! window, not 800, and a scroll runs one handler, not 200.
//!
//! Each listener is one function for the page, made when the first answer mounts and
//! kept for the page's life: adding it again (the next answer, the next answer in the
//! same shadow root) is a no-op for the browser, which keeps one listener per event,
//! function and phase. Nothing holds a shadow root, so a removed one goes with its
//! listener; the window's stay, doing nothing while no card is open.

use std::cell::{OnceCell, RefCell};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::EventTarget;

/// A listener's callback. The driver's own listeners are of the same closure type, so
/// wasm-bindgen's glue for it is written once.
pub(crate) type Listener = Closure<dyn FnMut(web_sys::Event)>;

/// An event of the page, for the answer whose card is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PageEvent {
    /// A pointer press anywhere (the answer tells one outside it from its own).
    Press,
    /// A key anywhere (Escape closes the card wherever the focus is).
    Key,
    /// A scroll anywhere (captured: scrolls do not bubble), or a new window size.
    Scroll,
}

/// The answer whose card is open, as the page sees it: a handle that lets go of the
/// answer (a weak reference, or one that ends with the answer's view).
pub(crate) trait OpenAnswer {
    /// Handles a page event while this answer's card is open.
    fn on_page_event(&self, what: PageEvent, ev: web_sys::Event);
    /// Closes the card (another answer opened its own).
    fn close_card(&self);
    /// What tells this answer from another (the address of its state).
    fn id(&self) -> usize;
}

thread_local! {
    /// The page's callbacks: a press, a key, a scroll (or a new window size).
    static PAGE: OnceCell<[Listener; 3]> = const { OnceCell::new() };
    /// The answer whose card is open (or was last).
    static OPEN: RefCell<Option<Box<dyn OpenAnswer>>> = const { RefCell::new(None) };
}

/// Listens to the window and to `root` (the shadow root an answer is in) for the
/// page, once.
pub(crate) fn join(root: Option<EventTarget>) {
    PAGE.with(|p| {
        let [press, key, scroll] = p.get_or_init(|| {
            [
                listener(PageEvent::Press),
                listener(PageEvent::Key),
                listener(PageEvent::Scroll),
            ]
        });
        let on = |target: &EventTarget, event: &str, f: &Listener| {
            // Captured: scroll events do not bubble.
            let _ = target.add_event_listener_with_callback_and_bool(
                event,
                f.as_ref().unchecked_ref(),
                event == "scroll",
            );
        };
        if let Some(win) = web_sys::window() {
            let win: EventTarget = win.into();
            on(&win, "pointerdown", press);
            // Escape closes the card wherever the focus is (a hovered card has none).
            on(&win, "keydown", key);
            // The card is placed at its marker when it opens: a scroll of the page or of
            // any container around the answer would leave it behind; so would a new
            // window size (a phone turned, a window resized).
            on(&win, "scroll", scroll);
            on(&win, "resize", scroll);
        }
        // Scrolls inside a shadow root (a chat widget's message list) do not reach the
        // window.
        if let Some(root) = root {
            on(&root, "scroll", scroll);
        }
    });
}

/// The page's listener for `what`: it hands the event to the answer whose card is open.
fn listener(what: PageEvent) -> Listener {
    Closure::new(move |ev: web_sys::Event| {
        // Taken out while it runs: the handler may open or close cards.
        let open = OPEN.with(|o| o.borrow_mut().take());
        if let Some(open) = open {
            open.on_page_event(what, ev);
            OPEN.with(|o| {
                let mut o = o.borrow_mut();
                if o.is_none() {
                    *o = Some(open);
                }
            });
        }
    })
}

/// Records `answer` as the one whose card is open; the answer that had it before (when
/// another) closes its card: the page shows one card at a time.
pub(crate) fn opened(answer: Box<dyn OpenAnswer>) {
    let id = answer.id();
    let before = OPEN.with(|o| o.borrow_mut().replace(answer));
    if let Some(before) = before.filter(|b| b.id() != id) {
        before.close_card();
    }
}

/// Forgets the answer `id` (its view ends) when it is the one recorded as open. The
/// driver's handle is a weak reference, which lets go by itself; a Leptos view's signals
/// end with it.
#[cfg(feature = "web")]
pub(crate) fn left(id: usize) {
    let gone = OPEN.with(|o| {
        let mut o = o.borrow_mut();
        if o.as_ref().is_some_and(|a| a.id() == id) {
            o.take()
        } else {
            None
        }
    });
    drop(gone);
}
