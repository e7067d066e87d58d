//! The `payload` format (SPEC section 2).

use crate::core::draft::Draft;
use crate::core::error::ParseError;
use crate::core::model::Format;
use crate::core::options::Options;
use serde_json::Value;

/// Parses `payload` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    options: &Options,
) -> Result<Draft, ParseError> {
    let _ = (answer, data, options);
    Err(ParseError::not_format(
        Format::Payload,
        "$",
        "not implemented yet",
    ))
}
