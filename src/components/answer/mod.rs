//! The answer: its text with the markers, and everything a mounted answer does. A
//! citation's marker stands where its span ends, a link (or a group, or a domain chip)
//! per source; hovering or focusing it highlights its span and opens its card, clicking
//! it selects its source in the panel.
//!
//! - [`html`]: the answer's markup: its blocks (markdown, plain text, HTML, JSON, a
//!   stream's open tail) with the markers inline, its root, and a whole static
//!   rendering.
//! - `dom`: what it does in a browser: the highlight, the pointer, focus and key
//!   handlers both hosts share, the blocks brought up to date, and the npm package's
//!   view (`dom::driver`).
//! - `leptos`: the Leptos `CitedAnswer` and its highlight effect.
//! - `answer.css`: the look of the answer's text, its markers and its lit spans.

pub mod html;

#[cfg(feature = "dom")]
pub mod dom;

#[cfg(feature = "web")]
pub(crate) mod leptos;
