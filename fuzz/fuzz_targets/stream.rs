//! Streaming: arbitrary answer text, cut into chunks at positions the input chooses,
//! through `StreamParser` with a citation map that names sources 1..4 (so markers
//! [5].. stay pending until `finish`). After `finish`, the result must equal the
//! one-shot parse of the whole text: same text, citations and sources.
#![no_main]

use citekit::core::formats::Data;
use citekit::core::stream::StreamParser;
use citekit::Options;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|bytes: &[u8]| {
    if bytes.len() < 2 {
        return;
    }
    let step = (bytes[0] as usize % 13) + 1;
    let Ok(text) = std::str::from_utf8(&bytes[1..]) else {
        return;
    };
    let data = json!({
        "1": {"title": "One", "source": "https://one.example/a"},
        "2": {"title": "Two", "source": "https://two.example/b"},
        "3": {"title": "Three", "source": "docs/three.md"},
        "4": {"title": "Four", "source": "https://one.example/a/"}
    });
    let options = Options::default();
    let Ok(expected) = citekit::parse(Some(text), Data::Json(&data), &options) else {
        return;
    };
    let Ok(mut p) = StreamParser::new(Data::Json(&data), &options) else {
        return;
    };
    let mut i = 0;
    while i < text.len() {
        let mut e = (i + step).min(text.len());
        while !text.is_char_boundary(e) {
            e += 1;
        }
        p.push(&text[i..e]);
        let snap = p.snapshot();
        assert!(snap.text.len() <= text.len());
        for c in &snap.citations {
            assert!(c.start <= c.end && c.end <= snap.text.len());
            assert!(snap.text.is_char_boundary(c.start) && snap.text.is_char_boundary(c.end));
        }
        i = e;
    }
    let got = p.finish();
    assert_eq!(got.text, expected.text, "text differs");
    assert_eq!(got.citations, expected.citations, "citations differ");
    assert_eq!(got.sources, expected.sources, "sources differ");
});
