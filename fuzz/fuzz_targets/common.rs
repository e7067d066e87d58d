//! Helpers shared by the fuzz targets: input splitting and the model's invariants.
#![allow(dead_code)]

#[path = "../../tests/support/invariants.rs"]
pub mod invariants;

use citekit::core::model::Answer;
use citekit::core::offsets::PositionEncoding;
use citekit::core::options::{Numbering, Options, Unresolved};

/// Splits `bytes` at the first NUL into (before, after); after is empty without a NUL.
pub fn split_nul(bytes: &[u8]) -> (&[u8], &[u8]) {
    match bytes.iter().position(|&b| b == 0) {
        Some(i) => (&bytes[..i], &bytes[i + 1..]),
        None => (bytes, &[]),
    }
}

/// Options varied by the bits of one byte.
pub fn options_from(bits: u8) -> Options {
    Options {
        numbering: if bits & 1 != 0 {
            Numbering::Given
        } else {
            Numbering::FirstCited
        },
        unresolved: if bits & 2 != 0 {
            Unresolved::Keep
        } else {
            Unresolved::Drop
        },
        show_citations: bits & 4 == 0,
        input_encoding: match (bits >> 3) & 3 {
            1 => Some(PositionEncoding::Utf8),
            2 => Some(PositionEncoding::Utf16),
            3 => Some(PositionEncoding::Utf32),
            _ => None,
        },
        link_identifiers: bits & 32 == 0,
        ..Options::default()
    }
}

/// Panics with the broken invariant, so libFuzzer records the input as a crash. The
/// JSON offsets are checked in one unit per call (picked by the text's length), since
/// `to_json` costs more than the parse itself.
pub fn check(answer: &Answer, options: &Options) {
    let enc = invariants::ENCODINGS[answer.text.len() % 3];
    let result = invariants::check_spans(answer)
        .and_then(|()| invariants::check_model(answer, options.numbering))
        .and_then(|()| invariants::check_json_offsets_in(answer, enc));
    if let Err(e) = result {
        panic!("invariant broken: {e}\ntext: {:?}", answer.text);
    }
}
