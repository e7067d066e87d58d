//! Where a block of the streamed text ends ([`block_boundary`]): at a blank line before
//! a new top-level block, outside every region the marker scanner protects (code
//! fences, HTML comments and blocks). It reads text only, so the parser and the views
//! that settle blocks share one rule.

use crate::core::commonmark::lines::{contains_ci, html_block, line_end, HtmlEnd};
use crate::core::markers::{protected_regions, TextSyntax};

/// The end of the first complete block of `tail`: the start of a line at column 0 that
/// follows a blank line, outside every protected region (code fences, HTML comments).
pub fn block_boundary(tail: &str) -> Option<usize> {
    let mut search = 0;
    let mut protected: Option<Vec<std::ops::Range<usize>>> = None;
    while let Some(p) = crate::core::str_ops::find(&tail.as_bytes()[search..], b"\n\n") {
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
/// declarations, CDATA) and does not close it. What starts such a block and what ends
/// it is the parser's rule ([`html_block`]), so a block settles where the renderer
/// ends it.
fn unclosed_html_block(s: &str) -> bool {
    let b = s.as_bytes();
    let mut ls = 0;
    while ls < b.len() {
        let (le, next) = line_end(b, ls);
        let indent = b[ls..le].iter().take_while(|&&c| c == b' ').count();
        if indent <= 3 {
            let opener = ls + indent;
            if let Some(HtmlEnd::Contains(end)) = html_block(&b[opener..le]) {
                // The line holding the end closes the block; the opener's own line too.
                if !contains_ci(&b[opener..], end) {
                    return true;
                }
            }
        }
        ls = next;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::block_boundary;

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
