//! The event stream parsers with arbitrary text (the `sse` format's and the AI SDK's
//! UI message stream's), given as the sse format and through detection.
#![no_main]

#[path = "common.rs"]
mod common;

use citekit::core::formats::{looks_like_sse, sse, Data};
use citekit::core::model::Format;
use citekit::core::options::{FormatChoice, Options};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let text = String::from_utf8_lossy(bytes);
    let text = text.as_ref();
    let options = Options {
        format: FormatChoice::Given(Format::Sse),
        ..Options::default()
    };
    let _ = sse::parse(text, &options);
    let _ = citekit::core::formats::ai_sdk::parse_stream(text, &options);
    let _ = citekit::core::formats::ai_sdk::is_ui_message_stream(text);
    let _ = looks_like_sse(text);
    if let Ok(a) = citekit::parse(None, Data::Text(text), &options) {
        common::check(&a, &options);
    }
    let auto = Options::default();
    if let Ok(a) = citekit::parse(None, Data::Text(text), &auto) {
        common::check(&a, &auto);
    }
});
