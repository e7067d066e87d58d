//! Where a block of the streamed text ends ([`block_boundary`]): at a blank line before
//! a new top-level block, outside every region the marker scanner protects (code
//! fences, HTML comments and blocks). It reads text only, so the parser and the views
//! that settle blocks share one rule.

use crate::core::commonmark::lines::{find_ci, html_block, line_end, HtmlEnd};
use crate::core::markers::{protected_regions, TextSyntax};

/// The end of the first complete block of `tail`: the start of a line at column 0 that
/// follows an empty line (`\n` or `\r\n`: an answer with Windows line ends settles
/// its blocks too), outside every protected region (code fences, HTML comments).
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
    while let Some(b) = after_blank_lines(bytes, search) {
        search = b;
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

/// The first line start at or after `from` that follows one or more empty lines (each
/// ended by `\n` or `\r\n`), past all of them; the end of `bytes` when the empty lines
/// run to it.
fn after_blank_lines(bytes: &[u8], from: usize) -> Option<usize> {
    let empty = |at: usize| match bytes.get(at) {
        Some(b'\n') => Some(at + 1),
        Some(b'\r') if bytes.get(at + 1) == Some(&b'\n') => Some(at + 2),
        _ => None,
    };
    let mut at = from;
    while let Some(k) = crate::core::str_ops::memchr(b'\n', &bytes[at..]) {
        let line = at + k + 1;
        if let Some(mut b) = empty(line) {
            while let Some(next) = empty(b) {
                b = next;
            }
            return Some(b);
        }
        at = line;
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

// proptest is a dev-dependency of the host only.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::block_boundary;
    use crate::core::commonmark::lines::{contains_ci, html_block, line_end, HtmlEnd};
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
                        open |= !contains_ci(&bytes[ls + indent..b], end);
                    }
                }
                ls = next;
            }
            open
        };
        // After a line end, one or more empty lines (`\n` or `\r\n` each), and not
        // itself the start of another.
        let after_empty = |b: usize| {
            let mut k = b;
            let mut empties = 0;
            loop {
                if k >= 2 && &bytes[k - 2..k] == b"\n\n" {
                    k -= 1;
                } else if k >= 3 && &bytes[k - 3..k] == b"\n\r\n" {
                    k -= 2;
                } else {
                    break;
                }
                empties += 1;
            }
            empties > 0
        };
        (2..bytes.len()).find(|&b| {
            after_empty(b)
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
        "Line [1].\r\n\r\n",
        "```\r\ncode\r\n\r\n",
        "<!--\r\n\r\n",
        "\r\n",
        "\r",
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
    /// An answer with Windows line ends (`\r\n`) once settled no block while it
    /// streamed (only `\n\n` was a blank line), so every append read the whole answer
    /// again: 20 KB in 4-character appends cost 0.27 ms an append at its end against
    /// 0.0014 ms with `\n`.
    #[test]
    fn an_answer_with_windows_line_ends_settles_its_blocks() {
        assert_eq!(block_boundary("a [1].\r\n\r\nb"), Some(10));
        assert_eq!(block_boundary("a\r\n\r\n\r\n\nb"), Some(8));
        assert_eq!(block_boundary("```\r\nx\r\n\r\ny"), None);
        assert_eq!(block_boundary("a\r\n\r\n"), None);
        assert_eq!(block_boundary("a\r\n\r\n  b"), None);
    }

    #[test]
    fn a_tag_that_only_begins_like_script_does_not_hold_the_block_open() {
        assert_eq!(block_boundary("<scripts>\n\nnext\n"), Some(11));
        assert_eq!(block_boundary("<prefix>\n\nnext\n"), Some(10));
        assert_eq!(block_boundary("<script>\n\nnext\n"), None);
        assert_eq!(block_boundary("<script>\n\n</script>\n\nnext"), Some(21));
    }
}
