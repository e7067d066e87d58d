//! The source panel: every source with its number, title, domain and snippet, cited
//! ones first with how often they are cited, uncited ones dimmed or hidden. Hovering or
//! focusing an entry highlights its markers and spans; clicking it expands its
//! details; a marker's click selects its source here and brings it into view. Beside
//! the answer when there is room, below it otherwise.
//!
//! - [`html`]: its list and an entry's details ([`html::panel_html`]).
//! - `dom`: expanding an entry, bringing it into view, telling where the layout put it.
//! - `leptos`: the `SourcePanel` component.
//! - `panel.css`: its look, and its place beside or below the answer.

pub mod html;

#[cfg(feature = "dom")]
pub(crate) mod dom;

#[cfg(feature = "web")]
pub(crate) mod leptos;
