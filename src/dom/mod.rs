//! The DOM layer, without Leptos: what an answer does in a browser once its markup is
//! there. The markup comes from [`crate::render`] (every input text escaped, every tag
//! ours); this layer brings it up to date in place (`blocks`, `morph`), fills and
//! places the hover card (`card`), lights spans (`highlight`), expands panel entries
//! (`panel`) and handles the user's pointer, focus and keys by delegation on the answer
//! root (`events`); the window and shadow-root listeners are the page's, added once
//! whatever the number of answers and shared by both hosts (`page`). The Leptos components
//! (`crate::web`) keep their state in signals and call it from effects; the npm
//! package's [`driver`] keeps it in cells and calls it at once.

pub(crate) mod blocks;
pub mod driver;
#[cfg(browser_tables)]
mod entity;
pub(crate) mod events;
pub(crate) mod morph;
pub(crate) mod page;
pub mod state;
#[cfg(browser_tables)]
mod unicode;
pub(crate) mod util;

#[cfg(browser_tables)]
use entity::entity;

/// Hands the browser's answers to the core and the markdown parser in a build without
/// the entity and Unicode tables (`cfg(browser_tables)`: src/core/unicode.rs says which
/// builds), which ask for them instead of importing this layer. Called when the npm
/// package's module loads and whenever a Leptos component makes its context, before
/// anything is parsed; a later call hands in the same answers again. Does nothing in
/// a build with the tables.
pub(crate) fn use_browser_tables() {
    #[cfg(browser_tables)]
    crate::core::unicode::use_browser(&BROWSER_TABLES);
}

/// The browser's answers to the questions of `core::unicode::BrowserTables`.
#[cfg(browser_tables)]
static BROWSER_TABLES: crate::core::unicode::BrowserTables = crate::core::unicode::BrowserTables {
    fold_case: unicode::fold_case,
    is_alphanumeric: unicode::is_alphanumeric,
    is_punct: unicode::is_punct,
    entity,
};

/// The stylesheet of every answer (`--cite-*` custom properties, light and dark):
/// the sheets style/sheets.txt lists, joined without comments and layout whitespace
/// (build.rs).
pub const CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/citekit.min.css"));
