//! The DOM layer, without Leptos: what an answer does in a browser once its markup is
//! there. The markup comes from [`crate::render`] (every input text escaped, every tag
//! ours); this layer brings it up to date in place (`blocks`, `morph`), fills and
//! places the hover card (`card`), lights spans (`highlight`), expands panel entries
//! (`panel`) and handles the user's pointer, focus and keys by delegation on the answer
//! root (`events`); the npm package's window and shadow-root listeners are the page's,
//! added once whatever the number of answers (`page`). The Leptos components
//! (`crate::web`) keep their state in signals and call it from effects; the npm
//! package's [`driver`] keeps it in cells and calls it at once.

pub(crate) mod blocks;
pub(crate) mod card;
pub mod driver;
#[cfg(browser_tables)]
mod entity;
pub(crate) mod events;
pub(crate) mod highlight;
pub(crate) mod morph;
pub(crate) mod page;
pub(crate) mod panel;
pub mod state;
#[cfg(browser_tables)]
pub(crate) mod unicode;
pub(crate) mod util;

#[cfg(browser_tables)]
pub(crate) use entity::entity;
pub use state::{Card, Highlight};
pub use util::place_card;

/// The stylesheet of every answer (`--cite-*` custom properties, light and dark):
/// style/citekit.css without comments and layout whitespace (build.rs).
pub const CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/citekit.min.css"));
