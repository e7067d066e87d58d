//! The answer's markers: a citation's marker stands where its span ends, a link (or a
//! group, or a domain chip) per source; hovering or focusing it highlights its span
//! and opens its card, clicking it selects its source in the panel. The answer's text
//! itself is the renderer's ([`crate::render`]), which writes the markers into it.
//!
//! - [`html`]: the markers' markup and the cited spans' segments ([`html::MarkerSet`]).
//! - `dom`: lighting a marker's span, or a source's markers and spans.
//! - `leptos`: the Leptos components' effect that applies their highlight.
//! - `answer.css`: the look of the answer's text, its markers and its lit spans.

pub mod html;

#[cfg(feature = "dom")]
pub(crate) mod dom;

#[cfg(feature = "web")]
pub(crate) mod leptos;
