//! Where a block of the streamed text ends ([`block_boundary`]): at a blank line before
//! a new top-level block, outside every region the marker scanner protects (code
//! fences, HTML comments and blocks). It reads text only, so the parser and the views
//! that settle blocks share one rule.

use crate::core::markers::{protected_regions, TextSyntax};

/// The end of the first complete block of `tail`: the start of a line at column 0 that
/// follows a blank line, outside every protected region (code fences, HTML comments).
pub fn block_boundary(tail: &str) -> Option<usize> {
    let mut search = 0;
    let mut protected: Option<Vec<std::ops::Range<usize>>> = None;
    while let Some(p) = crate::core::bytes::find(&tail.as_bytes()[search..], b"\n\n") {
        let mut b = search + p + 2;
        while b < tail.len() && tail.as_bytes()[b] == b'\n' {
            b += 1;
        }
        search = b.min(tail.len());
        if b >= tail.len() {
            return None; // what follows the blank line is not here yet
        }
        let c = tail.as_bytes()[b];
        if c == b' ' || c == b'\t' || c == b'\r' {
            continue;
        }
        let regions =
            protected.get_or_insert_with(|| protected_regions(tail, TextSyntax::Markdown));
        if regions.iter().any(|r| r.start < b && b < r.end) {
            continue;
        }
        if unclosed_html_block(&tail[..b]) {
            continue;
        }
        return Some(b);
    }
    None
}

/// Whether `s` opens an HTML block that can span blank lines (CommonMark types 1-5:
/// `<script>`, `<pre>`, `<style>`, `<textarea>`, comments, processing instructions,
/// declarations, CDATA) and does not close it.
fn unclosed_html_block(s: &str) -> bool {
    let mut open: Option<&'static str> = None;
    let mut offset = 0;
    for line in crate::core::bytes::split_inclusive(s, "\n") {
        let start = offset;
        offset += line.len();
        if open.is_some() {
            continue;
        }
        let t = line.trim_start_matches(' ');
        if line.len() - t.len() > 3 || !t.starts_with('<') {
            continue;
        }
        let lower = t.to_ascii_lowercase();
        let end = if lower.starts_with("<!--") {
            "-->"
        } else if lower.starts_with("<![cdata[") {
            "]]>"
        } else if lower.starts_with("<?") {
            "?>"
        } else if lower.starts_with("<!")
            && lower[2..].starts_with(|c: char| c.is_ascii_alphabetic())
        {
            ">"
        } else if let Some(tag) = ["script", "pre", "style", "textarea"]
            .iter()
            .find(|tag| lower[1..].starts_with(**tag))
        {
            match *tag {
                "script" => "</script>",
                "pre" => "</pre>",
                "style" => "</style>",
                _ => "</textarea>",
            }
        } else {
            continue;
        };
        let body_from = start + (line.len() - t.len()) + 2;
        if !crate::core::bytes::has(&s[body_from.min(s.len())..].to_ascii_lowercase(), end) {
            open = Some(end);
        }
    }
    open.is_some()
}
