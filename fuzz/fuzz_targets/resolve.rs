//! Resolution over arbitrary answer text whose markers do resolve: the first byte says
//! how many sources the generated data has, which format reads the rest (citation_map,
//! canonical with `[[S:n]]` or `<sup class="cite">`, markdown with footnotes) and the
//! options; the rest is the answer. The same bytes also drive `OffsetIndex` conversions
//! at arbitrary positions.
#![no_main]

#[path = "common.rs"]
mod common;

use citekit::core::formats::Data;
use citekit::core::model::Format;
use citekit::core::offsets::{OffsetIndex, OffsetProblem};
use citekit::core::options::FormatChoice;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Map, Value};

fn citation_map(n: usize) -> Value {
    let mut m = Map::new();
    for i in 1..=n {
        m.insert(
            i.to_string(),
            json!({
                "text": format!("Source text {i} with some words."),
                "source": format!("docs/file{}.md", i % 4),
                "title": format!("Title {i}"),
                "score": 1.0 / i as f64,
                "metadata": {"page": i}
            }),
        );
    }
    Value::Object(m)
}

fn canonical(n: usize) -> Value {
    Value::Array(
        (1..=n)
            .map(|i| {
                json!({
                    "sid": i,
                    "title": format!("Page {i}"),
                    "url": format!("https://example.com/{}", i % 5),
                    "text": format!("Snippet {i}")
                })
            })
            .collect(),
    )
}

fn offsets(text: &str, positions: &[u8]) {
    for enc in common::invariants::ENCODINGS {
        let ix = OffsetIndex::new(text, enc);
        let len = ix.len_units();
        for p in positions.chunks(2).take(48) {
            let unit = p.iter().fold(0usize, |a, b| a * 256 + *b as usize) % (len + 8);
            let (byte, problem) = ix.to_byte(unit);
            assert!(
                byte <= text.len() && text.is_char_boundary(byte),
                "to_byte({unit}) = {byte}"
            );
            let back = ix.to_unit(byte);
            match problem {
                None => assert_eq!(back, unit, "{enc:?}: to_unit(to_byte({unit}))"),
                Some(OffsetProblem::OutOfRange) => assert!(unit > len && back == len),
                Some(OffsetProblem::NotOnBoundary) => assert!(back < unit),
            }
            let b = unit.min(text.len() + 3);
            assert!(ix.to_unit(b) <= len);
        }
    }
}

fuzz_target!(|bytes: &[u8]| {
    let Some((&first, rest)) = bytes.split_first() else {
        return;
    };
    // Bits 0-2: how many sources; bits 3-4: which format; bits 5-7: options.
    let n = (first & 7) as usize + 1;
    let options = common::options_from(first >> 5);
    let text = String::from_utf8_lossy(rest);
    let text = text.as_ref();
    let map;
    let (format, data) = match (first >> 3) & 3 {
        0 | 3 => {
            map = citation_map(n);
            (Format::CitationMap, Data::Json(&map))
        }
        1 => {
            map = canonical(n);
            (Format::Canonical, Data::Json(&map))
        }
        _ => (Format::Markdown, Data::None),
    };
    let o = citekit::Options {
        format: FormatChoice::Given(format),
        ..options
    };
    if let Ok(a) = citekit::parse(Some(text), data, &o) {
        common::check(&a, &o);
    }
    offsets(text, rest);
});
