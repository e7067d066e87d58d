//! The page-wide listeners of the mounted answers: one set on the window (a press or
//! Escape anywhere, a scroll anywhere, a new window size) and one scroll listener on
//! each shadow root that holds answers, however many answers are mounted. They only
//! matter to the answer whose card is open (the page shows one card at a time), so each
//! event goes to that answer alone: 200 answers of a long conversation add 4 listeners
//! to the window, not 800, and a scroll runs one handler, not 200.
//!
//! Each listener is one function for the page, made when the first answer mounts and
//! kept for the page's life: adding it again (the next answer, the next answer in the
//! same shadow root) is a no-op for the browser, which keeps one listener per event,
//! function and phase. Nothing holds a shadow root, so a removed one goes with its
//! listener; the window's stay, doing nothing while no card is open.

use std::cell::OnceCell;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::EventTarget;

/// A listener's callback: what the driver makes for a handler's name (`outside`,
/// `escape`, `scroll`). The driver's own listeners are of the same closure type, so
/// wasm-bindgen's glue for it is written once.
pub(crate) type Listener = Closure<dyn FnMut(web_sys::Event)>;

thread_local! {
    /// The page's callbacks: a press outside, Escape, a scroll (or a new window size).
    static PAGE: OnceCell<[Listener; 3]> = const { OnceCell::new() };
}

/// Listens to the window and to `root` (the shadow root an answer is in) for the
/// page, once; `make` gives the callback for a handler's name.
pub(crate) fn join(root: Option<EventTarget>, make: fn(&'static str) -> Listener) {
    PAGE.with(|p| {
        let [outside, escape, scroll] =
            p.get_or_init(|| [make("outside"), make("escape"), make("scroll")]);
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
            on(&win, "pointerdown", outside);
            // Escape closes the card wherever the focus is (a hovered card has none).
            on(&win, "keydown", escape);
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
