//! The DOM layer, without Leptos: what every component shares in a browser. The
//! page-wide listeners (`page`: the window and shadow-root listeners, added once
//! whatever the number of answers, each event handed to the answer whose card is open),
//! the state a mounted answer keeps (`state`: the open card, the highlight, timers), a
//! changed block's markup brought to the DOM node by node (`morph`), small DOM helpers
//! (`util`), the stylesheet ([`CSS`]) and the entity and Unicode tables the browser hands
//! to the pure layers (`use_browser_tables`).
//!
//! What a component does in a browser is in its folder (`src/components/<name>/dom`),
//! the npm package's mounted answer in the answer's (`components::answer::dom::driver`).

#[cfg(browser_tables)]
mod entity;
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
