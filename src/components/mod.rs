//! The components of an answer, a folder each: the answer with its markers, the hover
//! card, the source panel and the footnotes. A folder holds all of its component:
//!
//! - `html.rs`: its markup, as HTML strings (pure: every input text escaped, every tag
//!   ours; built in every feature set and tested on the host). The static rendering
//!   ([`crate::render`]) and both hosts write these.
//! - `dom.rs`: what it does in a browser once its markup is there (behind `dom`).
//! - `leptos.rs`: its Leptos wrapper (behind `web`).
//! - `<name>.css`: its look; build.rs joins the components' sheets after
//!   `style/base.css` (the custom properties and the root) into the one stylesheet, in
//!   the order `style/sheets.txt` gives.
//!
//! Each file keeps to the layer of what it does (docs/rendering.md, "Layers"): a
//! component's `html.rs` is of the render layer, its `dom.rs` of the DOM layer and its
//! `leptos.rs` of the Leptos components' (tests/layers.rs holds them to it).

pub mod answer;
pub mod card;
#[cfg(feature = "web")]
pub(crate) mod context;
pub mod footnotes;
pub mod panel;
