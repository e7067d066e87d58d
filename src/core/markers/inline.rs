//! The inline pass over one paragraph, heading, table cell or footnote text: code spans,
//! links, autolinks and raw HTML are protected (left to right, as CommonMark's
//! precedence says), markers are recorded. In plain text only markers are looked for.

use super::syntax::{self, Found};
use super::{Ctx, Grammar, MarkerKind};
use crate::core::bytes;
use crate::core::map::Map;

/// Bytes that may start something in markdown inline text.
const MD_SPECIAL: [bool; 256] = special(true);
/// Bytes that may start a marker in plain text.
const PLAIN_SPECIAL: [bool; 256] = special(false);

const fn special(md: bool) -> [bool; 256] {
    let mut t = [false; 256];
    t[b'[' as usize] = true;
    t[b'<' as usize] = true;
    t[0xe3] = true; // 【
    t[0xef] = true; // ［
    t[0xee] = true; // U+E200..U+E204
    if md {
        t[b']' as usize] = true;
        t[b'`' as usize] = true;
        t[b'\\' as usize] = true;
    }
    t
}

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
            .and_then(|s| bytes::find(s, pat))
            .map(|x| x + p);
        self.from = p;
        self.at = r;
        self.valid = true;
        r
    }
}

/// A `[` waiting for its `]`.
struct Opener {
    /// Where the link would start (`!` for an image).
    start: usize,
    /// The `[`.
    pos: usize,
    image: bool,
    /// Markers and malformed markers recorded before it (dropped if it becomes a link).
    markers: usize,
    malformed: usize,
}

/// Backtick runs of a paragraph by length, to find a code span's closer in O(1)
/// (amortized: lookups for one length move forward).
#[derive(Default)]
pub(crate) struct Ticks {
    pub(crate) built: bool,
    /// Runs of length 1..=SMALL, by length - 1: (positions, index of the first not passed).
    small: Vec<(Vec<usize>, usize)>,
    /// Longer runs.
    big: Map<usize, (Vec<usize>, usize)>,
}

const SMALL: usize = 8;

impl Ticks {
    pub(crate) fn build(&mut self, b: &[u8], from: usize, end: usize) {
        self.built = true;
        self.small.resize_with(SMALL, Default::default);
        let mut i = from;
        while let Some(k) = b
            .get(i..end)
            .and_then(|s| crate::core::bytes::memchr(b'`', s))
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

/// Per-run state.
struct Run<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    s: usize,
    e: usize,
    md: bool,
    openers: Vec<Opener>,
    /// Openers below this index are inactive (a link formed after them).
    floor: usize,
    ticks: Ticks,
    html_ends: HtmlEnds,
    entity_end: Find,
}

/// Scans `[s, e)` of `ctx.text` as inline content (`md`: markdown, else plain text).
pub(super) fn run(ctx: &mut Ctx<'_>, s: usize, e: usize, md: bool) {
    let e = e.min(ctx.b.len());
    if s >= e || (!md && !ctx.want) {
        return;
    }
    let mut r = Run {
        ctx,
        s,
        e,
        md,
        openers: Vec::new(),
        floor: 0,
        ticks: Ticks::default(),
        html_ends: HtmlEnds::default(),
        entity_end: Find::default(),
    };
    r.go();
}

impl Run<'_, '_> {
    fn go(&mut self) {
        let b = self.ctx.b;
        let table = if self.md { &MD_SPECIAL } else { &PLAIN_SPECIAL };
        let e = self.e;
        let mut i = self.s;
        while i < e {
            while i < e && !table[b[i] as usize] {
                i += 1;
            }
            if i >= e {
                break;
            }
            i = match b[i] {
                b'\\' => {
                    if i + 1 < e && b[i + 1].is_ascii_punctuation() {
                        if b[i + 1] == b'`' {
                            self.ticks(i + 1, true)
                        } else {
                            i + 2
                        }
                    } else {
                        i + 1
                    }
                }
                b'`' => self.ticks(i, false),
                b'[' => self.open_bracket(i),
                b']' => self.close_bracket(i),
                b'<' => self.angle(i),
                0xe3 | 0xef => self.wide(i),
                0xee => self.private_use(i),
                _ => i + 1,
            };
        }
    }

    /// A backtick run at `i` (`escaped`: its first backtick is escaped by a backslash).
    fn ticks(&mut self, i: usize, escaped: bool) -> usize {
        let b = self.ctx.b;
        let mut j = i;
        while j < self.e && b[j] == b'`' {
            j += 1;
        }
        let open = if escaped { i + 1 } else { i };
        let len = j - open;
        if len == 0 {
            return j;
        }
        if !self.ticks.built {
            self.ticks.build(b, i, self.e);
        }
        match self.ticks.closer(len, j) {
            Some(c) => {
                self.ctx.protect(open, c + len);
                c + len
            }
            None => j,
        }
    }

    fn image_start(&self, i: usize) -> Option<usize> {
        let b = self.ctx.b;
        if self.md && i > self.s && b[i - 1] == b'!' && !(i >= 2 + self.s && b[i - 2] == b'\\') {
            Some(i - 1)
        } else {
            None
        }
    }

    fn open_bracket(&mut self, i: usize) -> usize {
        let image = self.image_start(i);
        let mut malformed = None;
        // Without markers wanted (protected regions), bracketed markers are still read,
        // so that `[1][ref]` is a marker and not a link either way.
        let g = if self.ctx.want {
            self.ctx.g
        } else {
            Grammar::ALL
        };
        if self.ctx.want || self.md {
            match syntax::bracket(self.ctx.text, i, self.e, &g) {
                Found::Marker { end, kind, keys } => {
                    if self.md {
                        let mut t = self.link_tail(end);
                        // xAI's `[[1]](url)`: the link is the marker.
                        if let Some(t) = t.filter(|_| {
                            g.linked
                                && image.is_none()
                                && kind == MarkerKind::Numeric
                                && self.ctx.b.get(i + 1) == Some(&b'[')
                        }) {
                            if self.ctx.want {
                                self.ctx.push_marker(i..t, kind, keys);
                            }
                            return t;
                        }
                        if t.is_none() && image.is_some() {
                            // `![1][ref]`, `![1]` with a definition: an image.
                            t = self.reference_tail(i, end - 1);
                        }
                        if let Some(t) = t {
                            self.ctx.protect(image.unwrap_or(i), t);
                            if image.is_none() {
                                self.floor = self.openers.len();
                            }
                            return t;
                        }
                    }
                    if self.ctx.want {
                        self.ctx.push_marker(i..end, kind, keys);
                    }
                    return end;
                }
                Found::Malformed { end, why } => {
                    if self.ctx.want {
                        malformed = Some((end, why));
                    }
                }
                Found::None => {}
            }
        }
        if self.md {
            // Openers below `floor` stay inactive; the new one is active.
            self.floor = self.floor.min(self.openers.len());
            self.openers.push(Opener {
                start: image.unwrap_or(i),
                pos: i,
                image: image.is_some(),
                markers: self.ctx.markers.len(),
                malformed: self.ctx.malformed.len(),
            });
        }
        if let Some((end, why)) = malformed {
            self.ctx.push_malformed(i..end, why);
        }
        i + 1
    }

    fn close_bracket(&mut self, i: usize) -> usize {
        let Some(op) = self.openers.pop() else {
            return i + 1;
        };
        if self.openers.len() < self.floor {
            return i + 1;
        }
        let b = self.ctx.b;
        let mut end = None;
        if b.get(i + 1) == Some(&b'(') && i + 1 < self.e {
            end = self.link_tail(i + 1);
        }
        if end.is_none() {
            end = self.reference_tail(op.pos, i);
        }
        let Some(end) = end else {
            return i + 1;
        };
        self.ctx.protect(op.start, end);
        self.ctx.markers.truncate(op.markers);
        self.ctx.malformed.truncate(op.malformed);
        if !op.image {
            self.floor = self.openers.len();
        }
        end
    }

    /// The end of a reference link whose label is `[open, close]`: full `[text][ref]`,
    /// collapsed `[text][]` or shortcut `[text]` (one followed by no link label), when
    /// the reference is defined.
    fn reference_tail(&mut self, open: usize, close: usize) -> Option<usize> {
        if self.ctx.defs.is_empty() {
            return None;
        }
        let b = self.ctx.b;
        let i = close;
        if b.get(i + 1) == Some(&b'[') && i + 1 < self.e {
            if let Some(re) = self.ref_label_end(i + 1) {
                let label = if re == i + 3 {
                    self.label(open + 1, i) // collapsed `[text][]`
                } else {
                    self.label(i + 2, re - 1)
                };
                if label.is_some_and(|l| self.ctx.defs.contains(&l)) {
                    return Some(re);
                }
                // A shortcut reference is never followed by `[]` or a link label
                // (CommonMark 6.3): `[t][r]` with `r` undefined is text, `t` defined
                // or not.
                return None;
            }
        }
        self.label(open + 1, i)
            .filter(|l| self.ctx.defs.contains(l))
            .map(|_| i + 1)
    }

    /// The normalized reference label of `[s, e)`: case-folded, whitespace collapsed.
    fn label(&self, s: usize, e: usize) -> Option<String> {
        if e <= s || e - s > 999 {
            return None;
        }
        let t = self.ctx.text.get(s..e)?;
        let mut out = String::with_capacity(t.len());
        for w in t.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&crate::core::unicode::fold_case(w));
        }
        if out.is_empty() {
            None
        } else {
            Some(out)
        }
    }

    /// The end of a `[ref]` starting at `p`, if it is a well-formed label.
    fn ref_label_end(&mut self, p: usize) -> Option<usize> {
        let b = self.ctx.b;
        let lim = self.e.min(p + 1001);
        let mut j = p + 1;
        while j < lim {
            match b[j] {
                b'\\' => j += 2,
                b'[' => return None,
                b']' => {
                    self.ctx.spend(j - p);
                    return Some(j + 1);
                }
                _ => j += 1,
            }
        }
        self.ctx.spend(j - p);
        None
    }

    /// The end of an inline link tail `(dest "title")` starting with `(` at `p`.
    fn link_tail(&mut self, p: usize) -> Option<usize> {
        let b = self.ctx.b;
        if b.get(p) != Some(&b'(') {
            return None;
        }
        let lim = self.e.min(p + self.ctx.lookahead());
        let r = tail(b, p, lim);
        self.ctx.spend(r.1 - p);
        r.0
    }

    fn angle(&mut self, i: usize) -> usize {
        let b = self.ctx.b;
        if self.ctx.want && self.ctx.g.html_sup {
            if let Found::Marker { end, kind, keys } = syntax::sup(self.ctx.text, i, self.e) {
                self.ctx.push_marker(i..end, kind, keys);
                return end;
            }
        }
        if !self.md || b.get(i + 1) == Some(&b'\\') {
            return i + 1;
        }
        if let Some(end) = autolink(b, i, self.e) {
            self.ctx.spend(end - i);
            self.ctx.protect(i, end);
            return end;
        }
        if let Some(end) = self.html_tag(i) {
            self.ctx.protect(i, end);
            return end;
        }
        i + 1
    }

    /// A raw HTML tag at `i`, per CommonMark; an open tag's attributes are read within
    /// the scan's lookahead budget.
    fn html_tag(&mut self, i: usize) -> Option<usize> {
        let b = self.ctx.b;
        let e = self.e;
        let ctx = &mut self.ctx;
        html_tag(b, i, e, &mut self.html_ends, |_, j| {
            let lim = e.min(j + ctx.lookahead());
            let end = syntax::read_attrs(b, j, lim, |_| {}).map(|(end, _)| end);
            ctx.spend(end.unwrap_or(j) - i);
            end
        })
    }

    /// `【1】` or `［1］`.
    fn wide(&mut self, i: usize) -> usize {
        if self.ctx.want {
            match syntax::fullwidth(self.ctx.text, i, self.e, &self.ctx.g) {
                Found::Marker { end, kind, keys } => {
                    self.ctx.push_marker(i..end, kind, keys);
                    return end;
                }
                Found::Malformed { end, why } => {
                    self.ctx.push_malformed(i..end, why);
                    return end;
                }
                Found::None => {}
            }
        }
        i + 1
    }

    fn private_use(&mut self, i: usize) -> usize {
        // Without markers wanted (protected regions), entities are still skipped whole,
        // as a scan would.
        let want = self.ctx.want && self.ctx.g.openai;
        if self.ctx.want && !self.ctx.g.openai {
            return i + 1;
        }
        let b = self.ctx.b;
        let e = self.e;
        let finder = &mut self.entity_end;
        match syntax::private_use(self.ctx.text, i, self.md, |p| {
            finder.get(b, p, e, "\u{e201}".as_bytes())
        }) {
            Found::Marker { end, kind, keys } => {
                if want {
                    self.ctx.push_marker(i..end, kind, keys);
                }
                end
            }
            _ => i + 1,
        }
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
    j += 1;
    let d = j;
    while j < e && (b[j].is_ascii_alphanumeric() || b[j] == b'.' || b[j] == b'-') {
        j += 1;
    }
    (j > d && j < e && b[j] == b'>').then_some(j + 1)
}

/// An inline link tail `(dest "title")` at `p` (`b[p] == b'('`), looking no further than
/// `lim`. Returns its end, if any, and how far it looked.
fn tail(b: &[u8], p: usize, lim: usize) -> (Option<usize>, usize) {
    let lim = lim.min(b.len());
    let mut j = p + 1;
    // Whitespace with at most one line break; after it, the next line's container
    // prefix (`>` of a block quote) is not text either.
    let skip_ws = |mut j: usize| {
        let mut newlines = 0;
        while j < lim && matches!(b[j], b' ' | b'\t' | b'\n' | b'\r') {
            if b[j] == b'\n' {
                newlines += 1;
                if newlines > 1 {
                    break;
                }
                while j + 1 < lim && matches!(b[j + 1], b' ' | b'\t' | b'>') {
                    j += 1;
                }
            }
            j += 1;
        }
        j
    };
    j = skip_ws(j);
    if j >= lim {
        return (None, j);
    }
    if b[j] == b')' {
        return (Some(j + 1), j);
    }
    // Destination.
    if b[j] == b'<' {
        j += 1;
        loop {
            if j >= lim {
                return (None, j);
            }
            match b[j] {
                b'>' => {
                    j += 1;
                    break;
                }
                b'\\' if j + 1 < lim && b[j + 1].is_ascii_punctuation() => j += 2,
                b'<' | b'\n' | b'\r' => return (None, j),
                _ => j += 1,
            }
        }
    } else {
        let mut depth = 0usize;
        let s = j;
        while j < lim {
            match b[j] {
                b'\\' if j + 1 < lim && b[j + 1].is_ascii_punctuation() => {
                    j += 2;
                    continue;
                }
                b'(' => {
                    depth += 1;
                    if depth > 32 {
                        return (None, j);
                    }
                }
                b')' => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                }
                c if c <= b' ' || c == 0x7f => break,
                _ => {}
            }
            j += 1;
        }
        if j >= lim || depth != 0 || j == s {
            return (None, j);
        }
    }
    let before = j;
    j = skip_ws(j);
    if j >= lim {
        return (None, j);
    }
    if b[j] == b')' {
        return (Some(j + 1), j);
    }
    if j == before {
        return (None, j);
    }
    // Title.
    let close = match b[j] {
        b'"' => b'"',
        b'\'' => b'\'',
        b'(' => b')',
        _ => return (None, j),
    };
    j += 1;
    let mut line_blank = false;
    loop {
        if j >= lim {
            return (None, j);
        }
        let c = b[j];
        if c == b'\\' && j + 1 < lim && b[j + 1].is_ascii_punctuation() {
            j += 2;
            line_blank = false;
            continue;
        }
        if c == close {
            j += 1;
            break;
        }
        if close == b')' && c == b'(' {
            return (None, j);
        }
        if c == b'\n' {
            if line_blank {
                return (None, j);
            }
            line_blank = true;
        } else if !matches!(c, b' ' | b'\t' | b'\r') {
            line_blank = false;
        }
        j += 1;
    }
    j = skip_ws(j);
    if j < lim && b[j] == b')' {
        (Some(j + 1), j)
    } else {
        (None, j)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Option<usize> {
        tail(s.as_bytes(), 0, s.len()).0
    }

    #[test]
    fn link_tails() {
        assert_eq!(t("(url)"), Some(5));
        assert_eq!(t("()"), Some(2));
        assert_eq!(t("(url \"t\") x"), Some(9));
        assert_eq!(t("(<a b>)"), Some(7));
        assert_eq!(t("(a(b)c)"), Some(7));
        assert_eq!(t("(see below)"), None);
        assert_eq!(t("(a"), None);
        assert_eq!(t("(a \"t)"), None);
    }

    #[test]
    fn autolinks() {
        let a = |s: &str| autolink(s.as_bytes(), 0, s.len());
        assert_eq!(a("<https://a.example/x>"), Some(21));
        assert_eq!(a("<a@b.example>"), Some(13));
        assert_eq!(a("<b>"), None);
        assert_eq!(a("<https://a b>"), None);
    }
}
