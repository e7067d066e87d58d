//! The pure core: model, format parsers, the CommonMark parser, marker scanner,
//! offsets, resolution, sanitizing, export. Nothing here imports leptos, web-sys or
//! wasm-bindgen; it is tested with plain `cargo test` on the host.
//!
//! What a user calls: [`parse`] and [`parse_lenient`], the model they return
//! ([`model`]), the [`options`], the [`error`], the input [`Data`] and
//! [`formats::detect`], offsets in the caller's unit ([`offsets`]), the model as JSON
//! ([`json_output`]) and export as markdown or plain text ([`export`]). The format
//! parsers, the draft between parsers and resolver, the resolver, sanitizing, JSON
//! reading, limits and sorting are the crate's own. The CommonMark parser
//! ([`commonmark`]), the marker scanner ([`markers`]), the streaming parser
//! ([`stream`]) and the components' streaming step ([`live`]) are the crate's own too,
//! public but hidden from the docs only so that the tests, benches and fuzz targets
//! (separate crates) can reach them.

#[doc(hidden)]
pub mod commonmark;
pub(crate) mod draft;
pub mod error;
pub mod export;
pub mod formats;
pub(crate) mod json_fields;
pub mod json_output;
pub(crate) mod json_reader;
pub(crate) mod limits;
#[doc(hidden)]
pub mod live;
#[doc(hidden)]
pub mod markers;
pub mod model;
pub mod offsets;
pub mod options;
pub(crate) mod ordered_hash;
pub(crate) mod str_ops;
// Read by the npm package's bindings (`js`), and its `Display` by the DOM driver; tested
// on the host without either.
#[cfg_attr(not(feature = "js"), allow(dead_code))]
pub(crate) mod props;
pub(crate) mod resolve;
pub(crate) mod sort;
#[doc(hidden)]
pub mod stream;
pub(crate) mod text_map;
pub(crate) mod unicode;
pub(crate) mod untrusted_text;

use error::ParseError;
use formats::Data;
use model::{Answer, ContentKind, Diagnostic, Format};
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
) -> Result<Answer, ParseError> {
    let draft = formats::parse_draft(answer, data, options)?;
    Ok(resolve_parsed(draft, answer, options))
}

/// A format parser's draft resolved as [`parse`] resolves it (`answer` as given there).
pub(crate) fn resolve_parsed(
    mut draft: draft::Draft,
    answer: Option<&str>,
    options: &Options,
) -> Answer {
    // Sources and no text: a citation map (or stored data) given without its answer
    // would otherwise show nothing and say nothing.
    if draft.text.is_empty() && answer.is_none_or(str::is_empty) && !draft.sources.is_empty() {
        draft.diagnostics.push(Diagnostic::warning(
            "no-answer",
            format!(
                "the answer is empty and the {} data holds no text: pass the answer's text as `answer`",
                draft.format.name()
            ),
        ));
    }
    resolve::resolve(draft, options)
}

/// Like [`parse`], but never fails: on an error the answer text (if any) comes through
/// as plain markdown with the error as an error-level diagnostic.
pub fn parse_lenient(answer: Option<&str>, data: Data<'_>, options: &Options) -> Answer {
    match parse(answer, data, options) {
        Ok(a) => a,
        Err(e) => Answer {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A citation map without its answer said nothing and showed nothing: now a
    /// `no-answer` warning. Data that holds the text, an answer given, or no sources
    /// at all (a stream's start) get none.
    #[test]
    fn sources_without_an_answer_are_reported() {
        let o = Options::default();
        let map = json!({"1": {"title": "A", "source": "https://a.example"}});
        for answer in [None, Some("")] {
            let a = parse(answer, Data::Json(&map), &o).unwrap();
            assert_eq!(a.text, "");
            let d: Vec<_> = a
                .diagnostics
                .iter()
                .filter(|d| d.code == "no-answer")
                .collect();
            assert_eq!(d.len(), 1, "{:?}", a.diagnostics);
            assert!(d[0].message.contains("citation_map"), "{}", d[0].message);
        }
        let with_text = parse(Some("Hi [1]."), Data::Json(&map), &o).unwrap();
        let envelope = json!({"answer": "Hi [1].", "citation_map": map});
        let from_data = parse(None, Data::Json(&envelope), &o).unwrap();
        let empty = parse(None, Data::Json(&json!({})), &o).unwrap();
        for a in [with_text, from_data, empty] {
            assert!(
                a.diagnostics.iter().all(|d| d.code != "no-answer"),
                "{:?}",
                a.diagnostics
            );
        }
    }
}
