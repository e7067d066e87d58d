//! The `sse` format (SPEC section 2).

use crate::core::draft::Draft;
use crate::core::error::ParseError;
use crate::core::model::Format;
use crate::core::options::Options;

/// Parses an event stream into a draft.
pub fn parse(stream: &str, options: &Options) -> Result<Draft, ParseError> {
    let _ = (stream, options);
    Err(ParseError::not_format(
        Format::Sse,
        "$",
        "not implemented yet",
    ))
}
