//! Inline recognizers: code span backtick runs, raw HTML tags (with their attributes)
//! and autolinks, each bounded so that hostile input stays linear. The parser's
//! inline pass reads them, and so does the marker scanner between an HTML block's tags.

use crate::core::ordered_hash::OrderedHashMap;
use crate::core::str_ops;

/// The first occurrence of a pattern at or after some position, remembered so that a
/// later search from a position before it costs nothing (searches move forward).
#[derive(Default)]
pub(crate) struct Find {
    from: usize,
    at: Option<usize>,
    valid: bool,
}

impl Find {
    pub(crate) fn get(&mut self, hay: &[u8], p: usize, end: usize, pat: &[u8]) -> Option<usize> {
        if self.valid && p >= self.from && self.at.is_none_or(|a| a >= p) {
            return self.at;
        }
        let r = hay
            .get(p..end)
            .and_then(|s| str_ops::find(s, pat))
            .map(|x| x + p);
        self.from = p;
        self.at = r;
        self.valid = true;
        r
    }
}

/// Backtick runs of a paragraph by length, to find a code span's closer in O(1)
/// (amortized: lookups for one length move forward).
#[derive(Default)]
pub(crate) struct Ticks {
    pub(crate) built: bool,
    /// Runs of length 1..=SMALL, by length - 1: (positions, index of the first not passed).
    small: Vec<(Vec<usize>, usize)>,
    /// Longer runs.
    big: OrderedHashMap<usize, (Vec<usize>, usize)>,
}

const SMALL: usize = 8;

impl Ticks {
    pub(crate) fn build(&mut self, b: &[u8], from: usize, end: usize) {
        self.built = true;
        self.small.resize_with(SMALL, Default::default);
        let mut i = from;
        while let Some(k) = b
            .get(i..end)
            .and_then(|s| crate::core::str_ops::memchr(b'`', s))
        {
            let s = i + k;
            let mut e = s;
            while e < end && b[e] == b'`' {
                e += 1;
            }
            let len = e - s;
            match self.small.get_mut(len - 1) {
                Some(v) => v.0.push(s),
                None => self.big.or_default(len).0.push(s),
            }
            i = e;
        }
    }

    /// The first run of exactly `len` backticks starting at or after `p`.
    pub(crate) fn closer(&mut self, len: usize, p: usize) -> Option<usize> {
        let (v, k) = match self.small.get_mut(len.wrapping_sub(1)) {
            Some(x) => x,
            None => self.big.get_mut(&len)?,
        };
        while *k < v.len() && v[*k] < p {
            *k += 1;
        }
        v.get(*k).copied()
    }
}

/// Where the ends of raw HTML constructs were found: `-->`, `?>`, `]]>` and `>`, each
/// searched once per run (unclosed ones stay linear).
#[derive(Default)]
pub(crate) struct HtmlEnds {
    comment: Find,
    pi: Find,
    cdata: Find,
    /// The next `>` (a declaration's end; also a bound for open tags).
    pub(crate) gt: Find,
}

/// A raw HTML tag at `i` in `b[..e]` (open, closing, comment, processing instruction,
/// declaration, CDATA), per CommonMark: its end. `open_tag(ends, j)` reads an open
/// tag's attributes from `j`, just after its name, to its end.
pub(crate) fn html_tag(
    b: &[u8],
    i: usize,
    e: usize,
    ends: &mut HtmlEnds,
    open_tag: impl FnOnce(&mut HtmlEnds, usize) -> Option<usize>,
) -> Option<usize> {
    let c1 = *b.get(i + 1)?;
    match c1 {
        b'!' => {
            if b.get(i + 2..i + 4) == Some(b"--") {
                if b.get(i + 4) == Some(&b'>') {
                    return Some(i + 5);
                }
                if b.get(i + 4..i + 6) == Some(b"->") {
                    return Some(i + 6);
                }
                return ends.comment.get(b, i + 4, e, b"-->").map(|k| k + 3);
            }
            if b.get(i + 2..i + 9) == Some(b"[CDATA[") {
                return ends.cdata.get(b, i + 9, e, b"]]>").map(|k| k + 3);
            }
            if b.get(i + 2).is_some_and(u8::is_ascii_alphabetic) {
                return ends.gt.get(b, i + 2, e, b">").map(|k| k + 1);
            }
            None
        }
        b'?' => ends.pi.get(b, i + 2, e, b"?>").map(|k| k + 2),
        b'/' => {
            let mut j = i + 2;
            if !b.get(j).is_some_and(u8::is_ascii_alphabetic) {
                return None;
            }
            while j < e && (b[j].is_ascii_alphanumeric() || b[j] == b'-') {
                j += 1;
            }
            while j < e && b[j].is_ascii_whitespace() {
                j += 1;
            }
            (j < e && b[j] == b'>').then_some(j + 1)
        }
        c if c.is_ascii_alphabetic() => {
            let mut j = i + 2;
            while j < e && (b[j].is_ascii_alphanumeric() || b[j] == b'-') {
                j += 1;
            }
            open_tag(ends, j)
        }
        _ => None,
    }
}

/// An autolink `<scheme:...>` or `<user@host>` at `i`.
pub(crate) fn autolink(b: &[u8], i: usize, e: usize) -> Option<usize> {
    let mut j = i + 1;
    // URI: scheme of 2..=32 chars, then no spaces, `<`, `>` or controls.
    if b.get(j).is_some_and(u8::is_ascii_alphabetic) {
        let s = j;
        while j < e && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'+' | b'.' | b'-')) {
            j += 1;
        }
        if (2..=32).contains(&(j - s)) && j < e && b[j] == b':' {
            j += 1;
            while j < e && b[j] > b' ' && b[j] != b'<' && b[j] != b'>' && b[j] != 0x7f {
                j += 1;
            }
            return (j < e && b[j] == b'>').then_some(j + 1);
        }
    }
    // Email.
    j = i + 1;
    let s = j;
    while j < e && (b[j].is_ascii_alphanumeric() || b".!#$%&'*+/=?^_`{|}~-".contains(&b[j])) {
        j += 1;
    }
    if j == s || j >= e || b[j] != b'@' {
        return None;
    }
    // The domain: labels of 1 to 63 letters, digits and `-`, each starting and ending
    // with a letter or digit, joined by single dots.
    loop {
        j += 1;
        let l = j;
        while j < e && (b[j].is_ascii_alphanumeric() || b[j] == b'-') {
            j += 1;
        }
        if j == l || j - l > 63 || b[l] == b'-' || b[j - 1] == b'-' {
            return None;
        }
        match b.get(j) {
            Some(b'.') if j < e => {}
            Some(b'>') if j < e => return Some(j + 1),
            _ => return None,
        }
    }
}

/// One attribute of a tag: name range and value range (without quotes).
pub(crate) struct Attr {
    pub name: std::ops::Range<usize>,
    pub value: Option<std::ops::Range<usize>>,
}

/// Reads the attributes of a tag from `i` (just after the tag name) to its `>`,
/// looking no further than `lim`. Returns the position after `>` and whether the tag
/// ended with `/>`.
pub(crate) fn read_attrs(
    b: &[u8],
    mut i: usize,
    lim: usize,
    mut each: impl FnMut(Attr),
) -> Option<(usize, bool)> {
    let lim = lim.min(b.len());
    loop {
        let ws_start = i;
        while i < lim && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let had_ws = i > ws_start;
        match b.get(i) {
            _ if i >= lim => return None,
            Some(b'>') => return Some((i + 1, false)),
            Some(b'/') if b.get(i + 1) == Some(&b'>') && i + 1 < lim => return Some((i + 2, true)),
            Some(c) if had_ws && (c.is_ascii_alphabetic() || *c == b'_' || *c == b':') => {}
            _ => return None,
        }
        let ns = i;
        while i < lim && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'.' | b':' | b'-'))
        {
            i += 1;
        }
        let name = ns..i;
        let save = i;
        while i < lim && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < lim && b[i] == b'=' {
            i += 1;
            while i < lim && b[i].is_ascii_whitespace() {
                i += 1;
            }
            let value = match b.get(i) {
                _ if i >= lim => return None,
                Some(&q @ (b'"' | b'\'')) => {
                    let vs = i + 1;
                    let ve = vs + crate::core::str_ops::memchr(q, b.get(vs..lim)?)?;
                    i = ve + 1;
                    vs..ve
                }
                _ => {
                    let vs = i;
                    while i < lim
                        && !b[i].is_ascii_whitespace()
                        && !matches!(b[i], b'"' | b'\'' | b'=' | b'<' | b'>' | b'`')
                    {
                        i += 1;
                    }
                    if i == vs {
                        return None;
                    }
                    vs..i
                }
            };
            each(Attr {
                name,
                value: Some(value),
            });
        } else {
            i = save;
            each(Attr { name, value: None });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autolinks() {
        let a = |s: &str| autolink(s.as_bytes(), 0, s.len());
        assert_eq!(a("<https://a.example/x>"), Some(21));
        assert_eq!(a("<a@b.example>"), Some(13));
        assert_eq!(a("<b>"), None);
        assert_eq!(a("<https://a b>"), None);
        // A domain label starts and ends with a letter or digit, and none is empty.
        assert_eq!(a("<a@b-c.d-e>"), Some(11));
        for no in [
            "<A-@->", "<a@-b>", "<a@b-.c>", "<a@.b>", "<a@b.>", "<a@b..c>", "<a@>",
        ] {
            assert_eq!(a(no), None, "{no}");
        }
        let long = format!("<a@{}>", "b".repeat(64));
        assert_eq!(a(&long), None);
        assert_eq!(a(&long.replacen('b', "", 1)), Some(long.len() - 1));
    }
}
