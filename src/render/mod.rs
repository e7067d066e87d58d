//! What every component's markup shares: escaping ([`escape`]: every piece of input
//! text goes through it), the class names ([`class`]), the render options
//! ([`RenderOptions`]: id prefix, marker style, labels) and the pieces several
//! components write (`parts`: a source's title, domain and link, and `parts.css`).
//!
//! Each component's own markup is in its folder under `src/components/`: the answer
//! with its blocks and markers, the hover card, the source panel and the footnotes.
//! Every tag, attribute and class comes from citekit. Pure Rust, tested on the host.

pub mod class;
pub mod escape;
pub(crate) mod options;
pub(crate) mod parts;

pub use options::{marker_style_name, sanitize_prefix, Labels, RenderOptions, DEFAULT_LABELS};
pub use parts::LAZY_AFTER;
