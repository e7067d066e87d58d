//! The components of an answer, a folder each: the answer with its markers, the hover
//! card, the source panel and the footnotes. A folder holds all of its component:
//!
//! - `html.rs` (or `html/`): its markup, as HTML strings (pure: every input text
//!   escaped, every tag ours; built in every feature set and tested on the host), over
//!   what every component's markup shares ([`crate::render`]). The static rendering
//!   (the answer's `html::render_to_string`) and both hosts write these.
//! - `dom.rs` (or `dom/`): what it does in a browser once its markup is there (behind
//!   `dom`), over what every component shares there (`crate::dom`). The answer's holds
//!   the npm package's view (`answer::dom::driver`).
//! - `leptos.rs` (or `leptos/`): its Leptos wrapper (behind `web`); `context` is the
//!   Leptos context they share.
//! - `<name>.css`: its look; build.rs joins the components' sheets after
//!   `style/base.css` (the custom properties and the root) into the one stylesheet, in
//!   the order `style/sheets.txt` gives.
//!
//! Each file keeps to the layer of what it does (docs/architecture.md, "Layers"): a
//! component's `html` is of the render layer, its `dom` of the DOM layer and its
//! `leptos` and the `context` of the Leptos host's. Only the hosts (`crate::web`, the
//! npm package's bindings) import the components, and the components import neither
//! (tests/layers.rs holds them to it).

pub mod answer;
pub mod card;
#[cfg(feature = "web")]
pub(crate) mod context;
pub mod footnotes;
pub mod panel;
