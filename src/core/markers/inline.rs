//! The inline pass over one paragraph, heading, table cell or footnote text: code spans,
//! links, autolinks and raw HTML are protected (left to right, as CommonMark's
//! precedence says), markers are recorded. In plain text only markers are looked for.

use super::syntax::{self, Found};
use super::{Ctx, Grammar, MarkerKind};
use crate::core::commonmark::spans::{autolink, html_tag, read_attrs, Find, HtmlEnds, Ticks};

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
            let end = read_attrs(b, j, lim, |_| {}).map(|(end, _)| end);
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
}
