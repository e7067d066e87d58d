//! The hover card: the sources a marker cites, one page at a time. Hover or focus on a
//! marker opens it, Escape or leaving it closes it; one is open at a time, placed next
//! to its marker inside the viewport, and its marker link names it with
//! `aria-describedby` while it is open.
//!
//! - [`html`]: its body ([`html::card_html`]).
//! - `dom`: filling, placing and following its marker (`dom::show_card`).
//! - `leptos`: the Leptos components' effect that keeps it in step with their state.
//! - `card.css`: its look.

pub mod html;

#[cfg(feature = "dom")]
pub(crate) mod dom;

#[cfg(feature = "web")]
pub(crate) mod leptos;
