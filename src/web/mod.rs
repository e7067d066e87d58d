//! Leptos components: the answer with inline markers and hover cards, the source panel
//! and the footnotes, tied together by a [`CiteContext`].
//!
//! They render in every Leptos mode; the app picks it with this crate's features `csr`
//! (a browser-only app), or `ssr` on the server and `hydrate` in the browser. On a
//! server they write the same markup as in the browser (markers, footnotes, panel), and
//! touch no browser API while a view is built: listeners, the stylesheet and the
//! highlight are set up by effects or only in a browser. A server-rendered page carries
//! [`CSS`] itself.
//!
//! Each is written in its component's folder (`src/components/<name>/`): the HTML comes
//! from the component's markup (every input text escaped, every tag ours); behaviour is
//! added by event delegation on the component roots, with state in signals. This module
//! names them. Usage:
//!
//! ```ignore
//! use citekit::web::{CitedAnswer, CiteData};
//! view! { <CitedAnswer answer="Paris is the capital [1]." data=CiteData::json(map) /> }
//! ```

pub use crate::components::answer::leptos::CitedAnswer;
pub use crate::components::card::dom::place_card;
pub use crate::components::context::{Card, CitationProvider, CiteContext, Highlight};
pub use crate::components::footnotes::leptos::Footnotes;
pub use crate::components::panel::leptos::SourcePanel;
pub use crate::core::formats::CiteData;

/// The stylesheet of every component (`--cite-*` custom properties, light and dark).
pub const CSS: &str = crate::dom::CSS;
