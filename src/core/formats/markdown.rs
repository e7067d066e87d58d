//! The `markdown` format: an answer with no citation data of its own. Only GFM
//! footnotes (`[^1]` with `[^1]: ...` definitions) cite anything; a bare `[1]` stays
//! text, since no source list says what it would name.

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
        footnotes: true,
        ..Grammar::NONE
    });
    Ok(draft)
}
