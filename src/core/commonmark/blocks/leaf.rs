//! What a leaf's lines hold: where a block starts, a heading's content, a table's
//! alignments and cells.

use super::*;

/// Whether a block other than a paragraph, indented code or a type 7 HTML block starts
/// at the cursor.
pub(super) fn starts_block(d: &Cursor<'_>) -> bool {
    match d.byte() {
        Some(b'>') => true,
        Some(b'<') => html_block(d.rest())
            .is_some_and(|u| u != HtmlEnd::Blank || html_block_6(&d.rest()[1..])),
        _ => {
            footnote_def(d).is_some()
                || atx_heading(d).is_some()
                || fence_open(d).is_some()
                || thematic_break(d)
                || list_marker(d).is_some()
        }
    }
}

/// The content of an ATX heading after its `#`s: leading and trailing blanks and a
/// closing sequence (after a space) out. (pulldown-cmark keeps a trailing tab after
/// plain text; the tests compare headings without trailing blanks.)
pub(super) fn atx_content(b: &[u8], mut s: usize, mut e: usize) -> (usize, usize) {
    while s < e && matches!(b[s], b' ' | b'\t') {
        s += 1;
    }
    // (Only spaces may follow a closing sequence, as pulldown-cmark reads it.)
    while e > s && b[e - 1] == b' ' {
        e -= 1;
    }
    let mut k = e;
    while k > s && b[k - 1] == b'#' {
        k -= 1;
    }
    if k < e && (k == s || b[k - 1] == b' ') {
        e = k;
    }
    while e > s && matches!(b[e - 1], b' ' | b'\t') {
        e -= 1;
    }
    (s, e)
}

pub(super) fn trim_range(b: &[u8], mut s: usize, mut e: usize) -> Range<usize> {
    while s < e && matches!(b[s], b' ' | b'\t') {
        s += 1;
    }
    while e > s && matches!(b[e - 1], b' ' | b'\t') {
        e -= 1;
    }
    s..e
}

/// The alignments of a delimiter row.
pub(super) fn aligns(r: &[u8]) -> Vec<Alignment> {
    // Bytes: a delimiter row is `|`, `:`, `-` and spaces or tabs only.
    let s = r.trim_ascii();
    let s = s.strip_prefix(b"|").unwrap_or(s);
    let s = s.strip_suffix(b"|").unwrap_or(s);
    s.split(|&c| c == b'|')
        .map(|c| {
            let c = c.trim_ascii();
            match (c.starts_with(b":"), c.ends_with(b":") && c.len() > 1) {
                (true, true) => Alignment::Center,
                (true, false) => Alignment::Left,
                (false, true) => Alignment::Right,
                _ => Alignment::None,
            }
        })
        .collect()
}

/// The cells of a table row: ranges between unescaped `|`, trimmed.
pub(super) fn cells(b: &[u8], s: usize, e: usize) -> Vec<Range<usize>> {
    let mut i = s;
    while i < e && matches!(b[i], b' ' | b'\t') {
        i += 1;
    }
    if i < e && b[i] == b'|' {
        i += 1;
    }
    let mut out = Vec::new();
    let mut cs = i;
    while i <= e {
        if i == e || (b[i] == b'|' && !(i > s && b[i - 1] == b'\\')) {
            let r = trim_range(b, cs, i);
            if i < e || cs < e {
                out.push(r);
            }
            cs = i + 1;
        }
        i += 1;
    }
    // A trailing `|` leaves no empty last cell.
    if let Some(last) = out.last() {
        if last.is_empty() && e > s && {
            let mut k = e;
            while k > s && matches!(b[k - 1], b' ' | b'\t') {
                k -= 1;
            }
            k > s && b[k - 1] == b'|' && !(k >= s + 2 && b[k - 2] == b'\\')
        } {
            out.pop();
        }
    }
    out
}
