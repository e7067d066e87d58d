//! Where a block of the streamed text ends ([`block_boundary`]): at a blank line before
//! a new top-level block, outside every region the marker scanner protects (code
//! fences, HTML comments and blocks). It reads text only, so the parser and the views
//! that settle blocks share one rule.

use crate::core::commonmark::lines::{html_block, line_end, HtmlEnd};
use crate::core::markers::{protected_regions, TextSyntax};

/// The end of the first complete block of `tail`: the start of a line at column 0 that
/// follows a blank line, outside every protected region (code fences, HTML comments).
///
/// The regions are read from a prefix of `tail` that holds the candidate's whole line,
/// doubled as later candidates need more: what covers a candidate started before it
/// and either ends before the prefix does or runs to the prefix's end, so the prefix
/// decides as the whole tail would. A push that brings many blocks at once (an answer
/// appended whole) so costs each block its own length, not the rest of the answer's.
pub fn block_boundary(tail: &str) -> Option<usize> {
    let bytes = tail.as_bytes();
    let mut search = 0;
    // The prefix read so far (it ends at a line start or at the end of `tail`) and
    // what covers its candidates.
    let mut read = 0;
    let mut protected: Vec<std::ops::Range<usize>> = Vec::new();
    let mut html: Vec<std::ops::Range<usize>> = Vec::new();
    while let Some(p) = crate::core::str_ops::find(&bytes[search..], b"\n\n") {
        let mut b = search + p + 2;
        while b < tail.len() && bytes[b] == b'\n' {
            b += 1;
        }
        search = b.min(tail.len());
        if b >= tail.len() {
            return None; // what follows the blank line is not here yet
        }
        let c = bytes[b];
        if c == b' ' || c == b'\t' || c == b'\r' {
            continue;
        }
        let need = line_end(bytes, b).1;
        if need > read {
            read = line_end(bytes, need.max(2 * read).min(tail.len()))
                .1
                .max(need);
            let prefix = &tail[..read];
            protected = protected_regions(prefix, TextSyntax::Markdown);
            html = open_html_ranges(prefix);
        }
        if protected.iter().any(|r| r.start < b && b < r.end) {
            continue;
        }
        let i = html.partition_point(|r| r.end <= b);
        if html.get(i).is_some_and(|r| r.start <= b) {
            continue;
        }
        return Some(b);
    }
    None
}

/// Where a blank line may not end a block because an HTML block that can span blank
/// lines (CommonMark types 1-5: `<script>`, `<pre>`, `<style>`, `<textarea>`,
/// comments, processing instructions, declarations, CDATA) is open there: the byte
/// ranges from just after such a block's first line start to the end of the text that
/// closes it, merged and in order. What starts such a block and what ends it is the
/// parser's rule ([`html_block`]), so a block settles where the renderer ends it.
///
/// One pass over `tail`, and each end pattern is searched for at most once per byte
/// (a later opener reuses the occurrence an earlier one found): a stream whose open
/// tail holds many blank lines costs the tail's length per append, not its square.
fn open_html_ranges(tail: &str) -> Vec<std::ops::Range<usize>> {
    let b = tail.as_bytes();
    // Per end pattern: the position the last search started at and what it found.
    let mut found: Vec<(&'static [u8], usize, Option<usize>)> = Vec::new();
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    let mut ls = 0;
    while ls < b.len() {
        let (le, next) = line_end(b, ls);
        let indent = b[ls..le].iter().take_while(|&&c| c == b' ').count();
        if indent <= 3 {
            let opener = ls + indent;
            if let Some(HtmlEnd::Contains(end)) = html_block(&b[opener..le]) {
                let at = match found.iter_mut().find(|f| f.0 == end) {
                    Some(f) if f.1 <= opener && f.2.is_none_or(|r| r >= opener) => f.2,
                    Some(f) => {
                        *f = (end, opener, find_ci(b, opener, end));
                        f.2
                    }
                    None => {
                        let r = find_ci(b, opener, end);
                        found.push((end, opener, r));
                        r
                    }
                };
                // A blank line at `p` is inside while `ls < p` and the end pattern is
                // not wholly before `p`.
                let range = ls + 1..at.map_or(usize::MAX, |r| r + end.len());
                match out.last_mut() {
                    Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
                    _ => out.push(range),
                }
            }
        }
        ls = next;
    }
    out
}

/// The first place at or after `from` where `pat` occurs in `hay`, ASCII
/// case-insensitively.
fn find_ci(hay: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    hay[from..]
        .windows(pat.len())
        .position(|w| w.eq_ignore_ascii_case(pat))
        .map(|k| from + k)
}

// proptest is a dev-dependency of the host only.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::block_boundary;
    use crate::core::commonmark::lines::{html_block, line_end, HtmlEnd};
    use crate::core::markers::{protected_regions, TextSyntax};
    use proptest::prelude::*;

    /// The rule read the slow way, byte by byte: a candidate is any byte after two line
    /// feeds that is none itself; it is refused when it is blank or inside a region of
    /// the whole tail, or when an HTML block opened before it has not ended by it.
    fn boundary_reading_everything(tail: &str) -> Option<usize> {
        let bytes = tail.as_bytes();
        let regions = protected_regions(tail, TextSyntax::Markdown);
        let html_open_at = |b: usize| {
            let mut ls = 0;
            let mut open = false;
            while ls < b {
                let (le, next) = line_end(&bytes[..b], ls);
                let indent = bytes[ls..le].iter().take_while(|&&c| c == b' ').count();
                if indent <= 3 {
                    if let Some(HtmlEnd::Contains(end)) = html_block(&bytes[ls + indent..le]) {
                        let hay = &bytes[ls + indent..b];
                        open |= !hay.windows(end.len()).any(|w| w.eq_ignore_ascii_case(end));
                    }
                }
                ls = next;
            }
            open
        };
        (2..bytes.len()).find(|&b| {
            &bytes[b - 2..b] == b"\n\n"
                && !matches!(bytes[b], b'\n' | b' ' | b'\t' | b'\r')
                && !regions.iter().any(|r| r.start < b && b < r.end)
                && !html_open_at(b)
        })
    }

    const PIECES: &[&str] = &[
        "Text [1] here.\n\n",
        "```\ncode\n\nmore\n",
        "```\n\n",
        "<!--\nnote\n\n",
        "-->\n\n",
        "<!-- closed -->\n\n",
        "<script>\n\n",
        "</script>\n\n",
        "<?php\n\n",
        "?>\n",
        "<!DOCTYPE x\n\n",
        "<![CDATA[\n\n]]>\n\n",
        "- item\n\n  more\n\n",
        "    indented\n\n",
        "> quote\n\n",
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n",
        "`span\n\n",
        "~~~\n\n",
        "  <pre>\n\n",
        "</PRE>\n\n",
        "\n",
    ];

    proptest! {
        /// Reading a prefix that doubles (and each HTML block's end once) finds the
        /// boundary that reading the whole tail for each candidate finds.
        #[test]
        fn a_boundary_read_from_a_prefix_is_the_whole_tails(
            picks in proptest::collection::vec(0..PIECES.len(), 0..40)
        ) {
            let tail: String = picks.iter().map(|&i| PIECES[i]).collect();
            prop_assert_eq!(block_boundary(&tail), boundary_reading_everything(&tail), "{:?}", tail);
        }
    }

    /// `<scripts>`, `<prefix>` or `<stylesheet>` only begin like a raw HTML block's
    /// tag: the hold-back once read them as one and never settled the block before a
    /// blank line after them, so every chunk re-read the rest of the answer.
    #[test]
    fn a_tag_that_only_begins_like_script_does_not_hold_the_block_open() {
        assert_eq!(block_boundary("<scripts>\n\nnext\n"), Some(11));
        assert_eq!(block_boundary("<prefix>\n\nnext\n"), Some(10));
        assert_eq!(block_boundary("<script>\n\nnext\n"), None);
        assert_eq!(block_boundary("<script>\n\n</script>\n\nnext"), Some(21));
    }
}
