//! What a mounted answer remembers between events: the open card, what is lit, and
//! the card's timers. Shared by the Leptos components (in signals) and the plain
//! driver (in cells).

use crate::core::model::Answer;
use std::cell::{Cell, RefCell};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

static NEXT_ID: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(1);

/// A unique id prefix for one answer's elements in this page (`cite1`, `cite2`, ...).
/// A prefix already on the page (an answer's root element has it as its id) is
/// skipped: the npm package's two modules each count their own answers.
pub(crate) fn next_prefix() -> String {
    loop {
        let p = format!(
            "cite{}",
            NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        if crate::dom::util::by_id(&p).is_none() {
            return p;
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

/// A pending `setTimeout`: cleared when dropped, so its callback never runs after its
/// owner is gone.
pub struct Timeout {
    id: i32,
    _callback: Closure<dyn FnMut()>,
}

impl Timeout {
    /// Runs `f` once after `ms` milliseconds; `None` where there is no window.
    pub fn new(ms: i32, f: impl FnOnce() + 'static) -> Option<Timeout> {
        Self::boxed(ms, Box::new(f))
    }

    /// One closure type for every timeout (not one copy of the glue per caller).
    fn boxed(ms: i32, f: Box<dyn FnOnce()>) -> Option<Timeout> {
        let mut f = Some(f);
        let callback = Closure::<dyn FnMut()>::new(move || {
            if let Some(f) = f.take() {
                f();
            }
        });
        let id = web_sys::window()?
            .set_timeout_with_callback_and_timeout_and_arguments_0(
                callback.as_ref().unchecked_ref(),
                ms,
            )
            .ok()?;
        Some(Timeout {
            id,
            _callback: callback,
        })
    }
}

impl Drop for Timeout {
    fn drop(&mut self) {
        if let Some(w) = web_sys::window() {
            w.clear_timeout_with_handle(self.id);
        }
    }
}

/// Timers of one answer's hover card (open delay, close grace) and the state of a tap.
#[derive(Default)]
pub struct Timers {
    pub(crate) open: RefCell<Option<Timeout>>,
    pub(crate) close: RefCell<Option<Timeout>>,
    pub(crate) touch: Cell<bool>,
    /// The card (citation, link) that was open when the current tap began. A tap also
    /// focuses the marker (pointerdown, focus, click), and the focus opens its card:
    /// the click then toggles against the state before the tap, not the one the focus
    /// just made.
    pub(crate) open_at_tap: Cell<Option<(usize, usize)>>,
    /// The marker (citation, link) whose card Escape closed and which then got the
    /// focus back: that focus does not open the card again (until the marker loses it).
    pub(crate) escaped: Cell<Option<(usize, usize)>>,
    /// The last press the answer saw, and whether it was on a marker or the card: the
    /// page's listener tells a press inside from one outside by it (it sees a press in
    /// a shadow root retargeted to the host), and the focus the press takes from a
    /// marker does not close the card.
    pub(crate) last_press: RefCell<Option<(web_sys::Event, bool)>>,
}

impl Timers {
    /// Cancels a pending open.
    pub fn cancel_open(&self) {
        // Taken out before it is dropped: a callback that runs now may cancel again.
        let t = self.open.borrow_mut().take();
        drop(t);
    }
    /// Cancels a pending close.
    pub fn cancel_close(&self) {
        let t = self.close.borrow_mut().take();
        drop(t);
    }
}

/// Delay before a hovered marker opens its card, in milliseconds.
pub(crate) const OPEN_DELAY_MS: i32 = 120;
/// Grace time for the pointer to move from the marker into the card, in milliseconds.
pub(crate) const CLOSE_DELAY_MS: i32 = 180;

/// The source numbers of citation `ci`.
pub(crate) fn sources_of(a: &Answer, ci: usize) -> Vec<u32> {
    a.citations
        .get(ci)
        .map(|c| {
            c.sources
                .iter()
                .filter_map(|id| a.source(id).map(|s| s.number))
                .collect()
        })
        .unwrap_or_default()
}

/// Citation indices that name source number `n`.
pub(crate) fn citations_of(a: &Answer, n: u32) -> Vec<usize> {
    let Some(id) = a.source_by_number(n).map(|s| &s.id) else {
        return Vec::new();
    };
    a.citations
        .iter()
        .enumerate()
        .filter(|(_, c)| c.sources.contains(id))
        .map(|(i, _)| i)
        .collect()
}

/// The card to keep open after the answer changed from `old` to `new`: the same
/// citation when it is still there (its marker at the same place after the same
/// words, with sources), under the index it has now; `None` closes it.
pub(crate) fn kept_card(old: &Answer, new: &Answer, c: Card) -> Option<Card> {
    let ci = crate::core::stream::settle(old, new, 0)
        .map
        .get(c.ci)
        .copied()
        .flatten()
        .filter(|&ci| {
            let (o, n) = (old.citations[c.ci].end, new.citations[ci].end);
            !new.citations[ci].sources.is_empty()
                && old.text.get(o.saturating_sub(32)..o) == new.text.get(n.saturating_sub(32)..n)
        })?;
    Some(Card { ci, ..c })
}
