//! Every format parser: the first byte picks the format (or auto detection), the second
//! the options; the rest is `answer NUL data`. The data goes in as text and, when it is
//! JSON, as a parsed value too. `parse` may fail but never panics; what it returns must
//! keep the model's invariants.
#![no_main]

#[path = "common.rs"]
mod common;

use citekit::core::formats::Data;
use citekit::core::model::Format;
use citekit::core::options::FormatChoice;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let [pick, bits, rest @ ..] = bytes else {
        return;
    };
    let mut options = common::options_from(*bits);
    let n = Format::ALL.len();
    options.format = match Format::ALL.get(*pick as usize % (n + 1)) {
        Some(f) => FormatChoice::Given(*f),
        None => FormatChoice::Auto,
    };
    let (answer, data) = common::split_nul(rest);
    let answer = String::from_utf8_lossy(answer);
    let data = String::from_utf8_lossy(data);
    let answer = if bits & 64 != 0 {
        None
    } else {
        Some(answer.as_ref())
    };
    let json: Option<serde_json::Value> = serde_json::from_str(&data).ok();
    let mut inputs = vec![Data::Text(&data)];
    if let Some(v) = &json {
        inputs.push(Data::Json(v));
    }
    if data.is_empty() {
        inputs.push(Data::None);
    }
    for d in inputs {
        if let Ok(a) = citekit::parse(answer, d, &options) {
            common::check(&a, &options);
        }
        let a = citekit::parse_lenient(answer, d, &options);
        common::check(&a, &options);
    }
});
