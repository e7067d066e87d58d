//! `core::commonmark` against pulldown-cmark on arbitrary text: the same events, normalized
//! as the parser's tests compare them (src/core/commonmark/against_pulldown.rs), but on the
//! inputs where the two differ by design (see `pulldown_quirk`, and characters whose
//! punctuation status differs between their Unicode versions) or by a known gap
//! (`open_difference`).
#![no_main]

use citekit::core::commonmark::{parse, Alignment, Event, Tag};
use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../src/core/commonmark/against_pulldown.rs"]
mod against_pulldown;

fuzz_target!(
    // The table of code points is built once, before the first input, so that no input's
    // time includes it (it parses every code point twice).
    init: {
        against_pulldown::punct_differs();
    },
    |text: &str| {
        if against_pulldown::pulldown_quirk(text)
            || against_pulldown::open_difference(text)
            || text
                .chars()
                .any(|c| against_pulldown::punct_differs().contains(&(c as u32)))
        {
            return;
        }
        let (ours, theirs) = (against_pulldown::ours(text), against_pulldown::theirs(text));
        assert_eq!(ours, theirs, "{text:?}");
    }
);
