//! The footnotes: an ordered list of the cited sources at the end of the answer, like
//! Wikipedia's, with back-links to every marker that cites a source (a, b, c when it is
//! cited more than once); a marker's link leads to its source's footnote.
//!
//! - [`html`]: the list ([`html::footnotes_html`]).
//! - `leptos`: the `Footnotes` component.
//! - `footnotes.css`: its look.
//!
//! Its DOM behaviour is the answer's: a footnote lights with its source's markers
//! (the answer's `dom`), and a long answer's list is written after the first frame by
//! the host.

pub mod html;

#[cfg(feature = "web")]
pub(crate) mod leptos;
