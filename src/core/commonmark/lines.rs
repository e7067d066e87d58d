//! Line recognizers of the block structure: a cursor that counts columns as CommonMark
//! does, and what one line can open or close (list markers, thematic breaks, headings,
//! fences, footnote definitions, table rows, HTML block starts and ends). The parser's
//! block pass reads them, and so do the stream's block boundary and the marker scanner
//! in plain text (footnote definitions).

use std::ops::Range;

/// A position in a line, counting columns (tabs to the next multiple of 4) so that
/// indentation works as CommonMark says, including a tab only partly consumed.
#[derive(Clone, Copy)]
pub(crate) struct Cursor<'a> {
    pub(crate) b: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) end: usize,
    col: usize,
    /// Columns left of a tab that was partly consumed.
    pub(crate) partial: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(b: &'a [u8], pos: usize, end: usize) -> Self {
        Cursor {
            b,
            pos,
            end,
            col: 0,
            partial: 0,
        }
    }

    /// Columns of whitespace ahead (not consumed).
    pub(crate) fn indent(&self) -> usize {
        let mut cols = self.partial;
        let mut col = self.col;
        let mut i = self.pos;
        while i < self.end {
            match self.b[i] {
                b' ' => {
                    cols += 1;
                    col += 1;
                }
                b'\t' => {
                    let w = 4 - col % 4;
                    cols += w;
                    col += w;
                }
                _ => break,
            }
            i += 1;
        }
        cols
    }

    /// Consumes up to `n` columns of whitespace; returns how many were consumed.
    pub(crate) fn skip(&mut self, n: usize) -> usize {
        let mut got = self.partial.min(n);
        self.partial -= got;
        while got < n && self.pos < self.end {
            match self.b[self.pos] {
                b' ' => {
                    self.pos += 1;
                    self.col += 1;
                    got += 1;
                }
                b'\t' => {
                    let w = 4 - self.col % 4;
                    self.pos += 1;
                    self.col += w;
                    if got.saturating_add(w) > n {
                        self.partial = got + w - n;
                        got = n;
                    } else {
                        got += w;
                    }
                }
                _ => break,
            }
        }
        got
    }

    /// The byte at the cursor (a space while a tab is partly consumed).
    pub(crate) fn byte(&self) -> Option<u8> {
        if self.partial > 0 {
            Some(b' ')
        } else {
            self.b
                .get(self.pos)
                .copied()
                .filter(|_| self.pos < self.end)
        }
    }

    pub(crate) fn at(&self, k: usize) -> Option<u8> {
        let i = self.pos + k;
        if i < self.end {
            Some(self.b[i])
        } else {
            None
        }
    }

    /// Moves over `n` bytes that are not whitespace.
    pub(crate) fn advance(&mut self, n: usize) {
        self.partial = 0;
        self.pos = (self.pos + n).min(self.end);
        self.col += n;
    }

    pub(crate) fn blank(&self) -> bool {
        self.b[self.pos.min(self.end)..self.end]
            .iter()
            .all(|c| matches!(c, b' ' | b'\t'))
    }

    /// The rest of the line after the indentation.
    pub(crate) fn rest(&self) -> &'a [u8] {
        let mut i = self.pos.min(self.end);
        while i < self.end && matches!(self.b[i], b' ' | b'\t') {
            i += 1;
        }
        &self.b[i..self.end]
    }
}

/// How an HTML block ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HtmlEnd {
    /// At a blank line (types 6 and 7).
    Blank,
    /// After the line containing this (any case; types 1 to 5).
    Contains(&'static [u8]),
}

/// The end of the line starting at `ls` (before `\r\n` / `\n`) and the next line's start.
pub(crate) fn line_end(b: &[u8], ls: usize) -> (usize, usize) {
    let (raw, next) = match crate::core::str_ops::memchr(b'\n', &b[ls..]) {
        Some(k) => (ls + k, ls + k + 1),
        None => (b.len(), b.len()),
    };
    let le = if raw > ls && b[raw - 1] == b'\r' {
        raw - 1
    } else {
        raw
    };
    (le, next)
}

/// Whether the rest of the line is a task box `[ ]`, `[x]` and nothing else.
pub(crate) fn task_box_only(c: &Cursor<'_>) -> bool {
    let r = c.rest();
    r.len() >= 3
        && r[0] == b'['
        && matches!(r[1], b' ' | b'x' | b'X')
        && r[2] == b']'
        && r[3..].iter().all(|x| matches!(x, b' ' | b'\t'))
}

/// A list marker at the cursor.
pub(crate) struct ListMarker {
    pub(crate) len: usize,
    pub(crate) bullet: bool,
    pub(crate) start: u64,
}

/// A list item's content indentation in columns (`before`: the marker's indentation,
/// `len`: its width), with the cursor, just past the marker, moved to the content: one
/// to four blanks after the marker belong to it; five or more, or none before the line
/// end, count as one.
pub(crate) fn item_width(c: &mut Cursor<'_>, before: usize, len: usize) -> usize {
    if c.blank() {
        return before + len + 1;
    }
    let sp = c.indent();
    if sp >= 5 {
        c.skip(1);
        before + len + 1
    } else {
        c.skip(sp);
        before + len + sp
    }
}

pub(crate) fn list_marker(c: &Cursor<'_>) -> Option<ListMarker> {
    let x = c.byte()?;
    if c.partial > 0 {
        return None;
    }
    let m = if matches!(x, b'-' | b'+' | b'*') {
        ListMarker {
            len: 1,
            bullet: true,
            start: 0,
        }
    } else if x.is_ascii_digit() {
        let mut k = 0;
        let mut n: u64 = 0;
        while let Some(d) = c.at(k).filter(u8::is_ascii_digit) {
            n = n * 10 + u64::from(d - b'0');
            k += 1;
            if k > 9 {
                return None;
            }
        }
        if !matches!(c.at(k), Some(b'.' | b')')) {
            return None;
        }
        ListMarker {
            len: k + 1,
            bullet: false,
            start: n,
        }
    } else {
        return None;
    };
    match c.at(m.len) {
        None | Some(b' ' | b'\t') => Some(m),
        _ => None,
    }
}

pub(crate) fn thematic_break(c: &Cursor<'_>) -> bool {
    let r = c.rest();
    let Some(&ch) = r.first() else {
        return false;
    };
    if !matches!(ch, b'*' | b'-' | b'_') {
        return false;
    }
    let mut n = 0;
    for &x in r {
        if x == ch {
            n += 1;
        } else if !matches!(x, b' ' | b'\t') {
            return false;
        }
    }
    n >= 3
}

pub(crate) fn setext_underline(c: &Cursor<'_>) -> bool {
    if c.indent() > 3 {
        return false;
    }
    let r = c.rest();
    let Some(&ch) = r.first() else {
        return false;
    };
    if ch != b'=' && ch != b'-' {
        return false;
    }
    let n = r.iter().take_while(|&&x| x == ch).count();
    r[n..].iter().all(|x| matches!(x, b' ' | b'\t'))
}

pub(crate) fn atx_heading(c: &Cursor<'_>) -> Option<usize> {
    let r = c.rest();
    let n = r.iter().take_while(|&&x| x == b'#').count();
    if !(1..=6).contains(&n) {
        return None;
    }
    match r.get(n) {
        None | Some(b' ' | b'\t') => Some(c.end - r.len() + n),
        _ => None,
    }
}

pub(crate) fn fence_open(c: &Cursor<'_>) -> Option<(u8, usize)> {
    let r = c.rest();
    let ch = *r.first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let n = r.iter().take_while(|&&x| x == ch).count();
    if n < 3 {
        return None;
    }
    if ch == b'`' && r[n..].contains(&b'`') {
        return None;
    }
    Some((ch, n))
}

pub(crate) fn closing_fence(c: &Cursor<'_>, ch: u8, len: usize) -> bool {
    if c.indent() > 3 {
        return false;
    }
    let r = c.rest();
    let n = r.iter().take_while(|&&x| x == ch).count();
    n >= len && r[n..].iter().all(|x| matches!(x, b' ' | b'\t'))
}

/// `[^label]:` at the cursor: the label's range and the position of the `:`.
pub(crate) fn footnote_def(c: &Cursor<'_>) -> Option<(Range<usize>, usize)> {
    if c.byte()? != b'[' || c.at(1)? != b'^' || c.partial > 0 {
        return None;
    }
    let b = c.b;
    let s = c.pos + 2;
    let lim = c.end.min(s + 101);
    let mut j = s;
    while j < lim && is_label_byte(b[j]) {
        j += 1;
    }
    if j == s || j >= lim || b[j] != b']' || j + 1 >= c.end || b[j + 1] != b':' {
        return None;
    }
    Some((s..j, j + 1))
}

/// The column count of a GFM table delimiter row (`|---|:--:|`) at the cursor.
pub(crate) fn delim_row(c: &Cursor<'_>) -> Option<usize> {
    if c.indent() > 3 {
        return None;
    }
    let r = c.rest();
    let mut i = 0;
    let mut cols = 0;
    let mut found_pipe = false;
    let mut found_hyphen = false;
    let mut hyphen_in_col = false;
    let mut start_col = true;
    if r.first() == Some(&b'|') {
        i = 1;
        found_pipe = true;
    }
    for &x in &r[i..] {
        match x {
            b' ' => {}
            b':' => start_col = false,
            b'-' => {
                start_col = false;
                found_hyphen = true;
                hyphen_in_col = true;
            }
            b'|' => {
                if !hyphen_in_col {
                    return None;
                }
                start_col = true;
                found_pipe = true;
                cols += 1;
                hyphen_in_col = false;
            }
            _ => return None,
        }
    }
    if !start_col {
        cols += 1;
    }
    (found_pipe && found_hyphen).then_some(cols)
}

/// The column count of a table header line, as pulldown-cmark counts it: a `|` right
/// after a backslash is escaped, however many backslashes stand before it (GFM's rule:
/// `\\|` is an escaped backslash to inline markdown, and a `\|` to the table).
pub(crate) fn header_cols(b: &[u8], s: usize, e: usize) -> Option<usize> {
    let mut pipes = 0usize;
    let mut last = None;
    for i in s..e {
        if b[i] == b'|' && !(i > s && b[i - 1] == b'\\') {
            pipes += 1;
            last = Some(i);
        }
    }
    let last = last?;
    let mut k = s;
    while k < e && matches!(b[k], b' ' | b'\t') {
        k += 1;
    }
    if k < e && b[k] == b'|' {
        pipes -= 1;
    }
    let trailing = b[last + 1..e].iter().all(|x| matches!(x, b' ' | b'\t'));
    Some(if trailing { pipes } else { pipes + 1 })
}

/// Whether `hay` contains `pat`, ASCII case-insensitively.
pub(crate) fn contains_ci(hay: &[u8], pat: &[u8]) -> bool {
    find_ci(hay, 0, pat).is_some()
}

/// The first place at or after `from` where `pat` occurs in `hay`, ASCII
/// case-insensitively.
pub(crate) fn find_ci(hay: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    hay[from..]
        .windows(pat.len())
        .position(|w| w.eq_ignore_ascii_case(pat))
        .map(|k| from + k)
}

/// The kind of HTML block a line starts (CommonMark types 1 to 7), by how it ends.
pub(crate) fn html_block(r: &[u8]) -> Option<HtmlEnd> {
    const RAW: [(&[u8], &[u8]); 4] = [
        (b"pre", b"</pre>"),
        (b"script", b"</script>"),
        (b"style", b"</style>"),
        (b"textarea", b"</textarea>"),
    ];
    let rest = r.strip_prefix(b"<")?;
    if rest.starts_with(b"!--") {
        return Some(HtmlEnd::Contains(b"-->"));
    }
    if rest.starts_with(b"?") {
        return Some(HtmlEnd::Contains(b"?>"));
    }
    if rest.starts_with(b"![CDATA[") {
        return Some(HtmlEnd::Contains(b"]]>"));
    }
    if rest.first() == Some(&b'!') && rest.get(1).is_some_and(u8::is_ascii_alphabetic) {
        return Some(HtmlEnd::Contains(b">"));
    }
    for (t, end) in RAW {
        if rest.len() >= t.len()
            && rest[..t.len()].eq_ignore_ascii_case(t)
            && matches!(rest.get(t.len()), None | Some(b' ' | b'\t' | b'>'))
        {
            return Some(HtmlEnd::Contains(end));
        }
    }
    if html_block_6(rest) {
        return Some(HtmlEnd::Blank);
    }
    html_block_7(r).then_some(HtmlEnd::Blank)
}

/// Type 6: a block-level tag name (`div`, `table`, ...) opening or closing; `rest` is
/// what follows the `<`. It may interrupt a paragraph, where type 7 may not.
pub(crate) fn html_block_6(rest: &[u8]) -> bool {
    const BLOCK: [&str; 62] = [
        "address",
        "article",
        "aside",
        "base",
        "basefont",
        "blockquote",
        "body",
        "caption",
        "center",
        "col",
        "colgroup",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "frame",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hr",
        "html",
        "iframe",
        "legend",
        "li",
        "link",
        "main",
        "menu",
        "menuitem",
        "nav",
        "noframes",
        "ol",
        "optgroup",
        "option",
        "p",
        "param",
        "search",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "title",
        "tr",
        "track",
        "ul",
    ];
    let name_part = rest.strip_prefix(b"/").unwrap_or(rest);
    let n = name_part
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric())
        .count();
    let name = &name_part[..n];
    let after = name_part.get(n);
    let ends_name = match after {
        None | Some(b' ' | b'\t' | b'>') => true,
        Some(b'/') => name_part.get(n + 1) == Some(&b'>'),
        _ => false,
    };
    n > 0
        && ends_name
        && BLOCK
            .iter()
            .any(|t| t.as_bytes().eq_ignore_ascii_case(name))
}

/// Type 7: a complete open or closing tag alone on its line (it cannot interrupt a
/// paragraph). A closing `</pre>`, `</script>`, `</style>` or `</textarea>` counts, as
/// pulldown-cmark reads it (CommonMark leaves those four names out of type 7; their
/// opening tags start type 1).
pub(crate) fn html_block_7(r: &[u8]) -> bool {
    let Some(rest) = r.strip_prefix(b"<") else {
        return false;
    };
    let closing = rest.first() == Some(&b'/');
    let name_start = usize::from(closing);
    if !rest.get(name_start).is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let mut n = name_start;
    while n < rest.len() && (rest[n].is_ascii_alphanumeric() || rest[n] == b'-') {
        n += 1;
    }
    let name = &rest[name_start..n];
    if !closing
        && ["pre", "script", "style", "textarea"]
            .iter()
            .any(|t| t.as_bytes().eq_ignore_ascii_case(name))
    {
        return false;
    }
    let end = if closing {
        let mut j = n;
        while j < rest.len() && rest[j].is_ascii_whitespace() {
            j += 1;
        }
        if rest.get(j) != Some(&b'>') {
            return false;
        }
        j + 1
    } else {
        match super::spans::read_attrs(rest, n, rest.len(), |_| {}) {
            Some((e, _)) => e,
            None => return false,
        }
    };
    rest[end..].iter().all(|c| matches!(c, b' ' | b'\t'))
}

/// Whether a byte may be part of a footnote label: not whitespace, not a bracket, and
/// nothing that starts inline markdown of its own (code, autolinks, escapes).
pub(crate) fn is_label_byte(c: u8) -> bool {
    !matches!(
        c,
        b']' | b'[' | b'\\' | b'`' | b'<' | b'>' | b'^' | b' ' | b'\t' | b'\n' | b'\r'
    ) && c != 0x0b
        && c != 0x0c
}
