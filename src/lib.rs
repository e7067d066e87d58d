//! citekit shows which sources support which statements of an LLM answer.
//!
//! [`core`] parses an answer and its citation data (every format in docs/formats.md) into one
//! normalized model; the browser parts sit behind features: `csr`, `ssr` or `hydrate`
//! for the Leptos components in that rendering mode (`web` gives them with no mode, for
//! an app that picks Leptos's mode itself), and `js` for the npm package's bindings.
//!
//! The public API is [`core`] (see there what of it a user calls), the items re-exported
//! here, and [`web`]. The components (`components`: a folder each, with its markup, its
//! DOM behaviour and its Leptos wrapper) and what their markup shares (`render`) are
//! public but hidden from the docs, for the tests, benches and fuzz targets only: their
//! users are the Leptos components of [`web`] and the npm package. The DOM layer the
//! components share (`dom`) and the npm package's bindings are the crate's own.
#![deny(missing_docs)]
// docs.rs (`--cfg docsrs`, Cargo.toml): each item gated by a feature says which.
#![cfg_attr(docsrs, feature(doc_cfg))]

// Public but hidden: the components' markup is read by the tests, benches and fuzz
// targets; and with `web` and without `js`, the npm package's driver in the answer's
// folder is unused, which a public module keeps free of dead-code warnings.
#[doc(hidden)]
pub mod components;
pub mod core;
#[cfg(feature = "dom")]
mod dom;
#[cfg(feature = "js")]
mod js;
#[doc(hidden)]
pub mod render;
#[cfg(feature = "web")]
pub mod web;

pub use crate::core::formats::Data;
pub use crate::core::model::{Answer, Citation, Diagnostic, Format, Severity, Source};
pub use crate::core::options::Options;
pub use crate::core::text_map::TextMap;
pub use crate::core::{parse, parse_lenient};

/// The npm package's allocator: talc instead of std's dlmalloc, 1.6 KB gzip less wasm
/// and as fast (docs/size.md). Rust apps using the components keep their own.
#[cfg(all(feature = "js", target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
