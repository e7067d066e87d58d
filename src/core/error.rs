//! Errors: only input that is not the claimed format at all is an error; everything
//! else is a diagnostic on a successful parse.

use crate::core::model::Format;
use thiserror::Error;

/// Why a parse failed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// The data is not the format it was claimed (or detected) to be.
    #[error("not {format} data: at `{path}`: {message}")]
    NotFormat {
        /// The claimed format.
        format: Format,
        /// JSON path of what was wrong (`$` for the whole document).
        path: String,
        /// What was expected there.
        message: String,
    },
    /// The data is not valid JSON (or not an event stream).
    #[error("invalid JSON at line {line}, column {column}: {message}")]
    InvalidJson {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The JSON parser's message.
        message: String,
    },
    /// A size or nesting limit was exceeded so the data cannot be read at all.
    #[error("limit `{limit}` exceeded: {message}")]
    Limit {
        /// The limit's name, as in src/core/limits.rs.
        limit: &'static str,
        /// What was found.
        message: String,
    },
    /// No format matches the data's shape.
    #[error("cannot detect the format: {0}")]
    Undetected(String),
}

impl ParseError {
    /// A [`ParseError::NotFormat`].
    pub fn not_format(format: Format, path: impl Into<String>, message: impl Into<String>) -> Self {
        ParseError::NotFormat {
            format,
            path: path.into(),
            message: message.into(),
        }
    }

    /// Stable kebab-case code for the error.
    pub fn code(&self) -> &'static str {
        match self {
            ParseError::NotFormat { .. } => "not-format",
            ParseError::InvalidJson { .. } => "invalid-json",
            ParseError::Limit { .. } => "limit-exceeded",
            ParseError::Undetected(_) => "undetected-format",
        }
    }
}
