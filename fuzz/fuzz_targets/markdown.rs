//! The markdown parser and renderer on arbitrary text: no panic, every event's range
//! inside the text on character boundaries and in order of starts for text, and the
//! rendered answer's blocks balanced (each goes into its own element).
#![no_main]

use citekit::components::answer::html::answer_blocks;
use citekit::core::commonmark::{parse, Event};
use citekit::core::formats::Data;
use citekit::render::RenderOptions;
use citekit::Options;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|text: &str| {
    for (e, r) in parse(text) {
        assert!(r.start <= r.end && r.end <= text.len(), "{e:?} {r:?}");
        assert!(
            text.is_char_boundary(r.start) && text.is_char_boundary(r.end),
            "{e:?} {r:?}"
        );
        if let Event::Text(t) = &e {
            assert!(!t.is_empty() || r.is_empty(), "{r:?}");
        }
    }
    let data = json!({"1": {"title": "One", "source": "https://one.example/"}});
    let answer = citekit::parse_lenient(Some(text), Data::Json(&data), &Options::default());
    for b in answer_blocks(&answer, &RenderOptions::default()) {
        let opens = b.html.matches("<p>").count();
        let closes = b.html.matches("</p>").count();
        assert_eq!(opens, closes, "{:?}", b.html);
    }
});
