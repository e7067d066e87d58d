//! The marker scanner over arbitrary UTF-8: the first byte picks the grammar (one bit
//! per syntax, two bits for the text syntax; the newer forms share bits, see `grammar`). Checks the scanner's contract: markers in
//! order, not overlapping, on char boundaries, `syntax` inside `range`.
#![no_main]

use citekit::core::markers::{protected_regions, scan, Grammar, MarkerKind, TextSyntax};
use libfuzzer_sys::fuzz_target;

fn grammar(bits: u8) -> Grammar {
    Grammar {
        numeric: bits & 1 != 0,
        sid: bits & 2 != 0,
        html_sup: bits & 4 != 0,
        openai: bits & 8 != 0,
        footnotes: bits & 16 != 0,
        usage: bits & 32 != 0,
        // The wild and platform forms share bits with the others (`[citation:x]` with
        // numeric, Azure's `[docN]` with openai, xAI's `[[n]](url)` with sid), so a
        // seed's first byte keeps its meaning.
        citation: bits & 1 != 0,
        doc: bits & 8 != 0,
        linked: bits & 2 != 0,
        syntax: match bits >> 6 {
            1 => TextSyntax::Html,
            2 => TextSyntax::Plain,
            _ => TextSyntax::Markdown,
        },
    }
}

fn inside(outer: &std::ops::Range<usize>, inner: &std::ops::Range<usize>) -> bool {
    outer.start <= inner.start && inner.start <= inner.end && inner.end <= outer.end
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let text = text.as_ref();
    let g = grammar(first);
    let result = scan(text, &g);
    let mut last_end = 0;
    for m in &result.markers {
        let r = &m.range;
        assert!(
            r.start >= last_end,
            "markers overlap or are out of order: {result:?}"
        );
        assert!(r.start < r.end && r.end <= text.len(), "bad range {r:?}");
        assert!(
            text.is_char_boundary(r.start) && text.is_char_boundary(r.end),
            "range {r:?} splits a char"
        );
        assert!(
            inside(r, &m.syntax),
            "syntax {:?} outside range {r:?}",
            m.syntax
        );
        if let MarkerKind::FootnoteDef { body } = &m.kind {
            assert!(inside(r, body), "footnote body {body:?} outside {r:?}");
        }
        last_end = r.end;
    }
    for d in &result.diagnostics {
        for b in [d.start, d.end].into_iter().flatten() {
            assert!(
                b <= text.len() && text.is_char_boundary(b),
                "diagnostic at {b}"
            );
        }
    }
    let mut last = 0;
    for r in protected_regions(text, g.syntax) {
        assert!(
            r.start >= last && r.start <= r.end && r.end <= text.len(),
            "region {r:?}"
        );
        last = r.end;
    }
});
