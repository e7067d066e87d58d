//! The `markdown` format: an answer with no citation data of its own. Only GFM
//! footnotes (`[^1]` with `[^1]: ...` definitions) cite anything. A bare `[1]` stays
//! text, since no source list says it is a citation (it may be an array index or a
//! footnote-less reference the author wants shown); the syntaxes that can only be
//! citation markers (`[[S:1]]`, `<sup class="cite">`, private-use markers,
//! `[[USAGE:...]]`) are read, and with no source to name they are removed as
//! unresolved.

use crate::core::draft::Draft;
use crate::core::error::ParseError;
use crate::core::markers::Grammar;
use crate::core::model::Format;
use crate::core::options::Options;
use serde_json::Value;

/// Parses a plain markdown answer.
pub fn parse(
    answer: Option<&str>,
    _data: Option<&Value>,
    _options: &Options,
) -> Result<Draft, ParseError> {
    let mut draft = Draft::new(Format::Markdown, answer.unwrap_or(""));
    draft.grammar = Some(Grammar {
        numeric: false,
        ..Grammar::ALL
    });
    Ok(draft)
}
