//! The pure core: model, format parsers, marker scanner, offsets, resolution,
//! sanitizing, export. Nothing here imports leptos, web-sys or wasm-bindgen; it is
//! tested with plain `cargo test` on the host.
//!
//! The public modules are the model, the options, the format parsers (and their
//! detection), the marker scanner, offsets, the JSON output, export and the streaming
//! parser; the draft between parsers and resolver, the resolver itself, sanitizing,
//! JSON reading, limits and sorting are the crate's own.

pub(crate) mod bytes;
pub(crate) mod draft;
pub mod error;
pub mod export;
pub mod formats;
pub(crate) mod json;
pub(crate) mod json_text;
pub(crate) mod limits;
pub mod live;
pub(crate) mod map;
pub mod markers;
pub mod model;
pub mod offsets;
pub mod options;
pub mod output;
pub(crate) mod resolve;
pub(crate) mod sanitize;
pub(crate) mod sort;
pub mod stream;
pub mod text_map;
pub(crate) mod unicode;

use error::ParseError;
use formats::Data;
use model::{CitedAnswer, ContentKind, Diagnostic, Format};
use options::{FormatChoice, Options};

/// Parses an answer and its citation data into the normalized model.
///
/// `answer` may be `None` when the data holds the text (sse, anthropic, gemini, ...).
/// Errors only when the data is not the claimed (or detected) format at all; every
/// other problem is a diagnostic on the result.
pub fn parse(
    answer: Option<&str>,
    data: Data<'_>,
    options: &Options,
) -> Result<CitedAnswer, ParseError> {
    let draft = formats::parse_draft(answer, data, options)?;
    Ok(resolve::resolve(draft, options))
}

/// Like [`parse`], but never fails: on an error the answer text (if any) comes through
/// as plain markdown with the error as an error-level diagnostic.
pub fn parse_lenient(answer: Option<&str>, data: Data<'_>, options: &Options) -> CitedAnswer {
    match parse(answer, data, options) {
        Ok(a) => a,
        Err(e) => CitedAnswer {
            text: answer.unwrap_or("").to_string(),
            format: match options.format {
                FormatChoice::Given(f) => f,
                FormatChoice::Auto => Format::Markdown,
            },
            content_kind: ContentKind::Markdown,
            sources: Vec::new(),
            citations: Vec::new(),
            links: Vec::new(),
            diagnostics: vec![Diagnostic::error(e.code(), e.to_string())],
            show_citations: options.show_citations,
            metadata: Default::default(),
        },
    }
}
