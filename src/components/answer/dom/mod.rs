//! The answer in a browser, without Leptos: what both hosts share of it, and the npm
//! package's host.
//!
//! - `highlight`: lighting a marker's span, or a source's markers and spans.
//! - `events`: the pointer, focus, click and key handlers of an answer, for any
//!   `events::Host` (the Leptos components' context, or the driver).
//! - `blocks`: the body brought from the answer it shows to a new one (markers patched,
//!   changed blocks morphed, a stream's open tail rendered again).
//! - [`driver`]: a mounted answer without Leptos, the npm package's view.

pub(crate) mod blocks;
pub mod driver;
pub(crate) mod events;
pub(crate) mod highlight;
