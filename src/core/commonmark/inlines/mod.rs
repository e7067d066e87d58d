//! The inline pass over one leaf block (CommonMark's delimiter algorithm): its lines
//! joined into one string, read into tokens (text, code spans, autolinks, raw HTML,
//! entities, escapes, breaks, emphasis delimiters, brackets), links and emphasis matched,
//! then the events, each with its range in the answer text.

use super::spans::{autolink, html_tag, read_attrs, HtmlEnds, Ticks};
use super::RefDef;
use super::{Event, Tag, TagEnd};
use std::borrow::Cow;
use std::ops::Range;

mod emphasis;
mod links;

use links::{entity_at, has_content, inline_tail, link_label};
pub(super) use links::{ref_def, unescape};

/// A line of a leaf, as the block pass hands it over: its content range, and columns
/// of a partly consumed tab before it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line {
    pub s: usize,
    pub e: usize,
    pub pad: usize,
}

/// The reference definitions a leaf's links are looked up in: those of the blocks
/// before the parsed text (a streaming view's earlier blocks, in runs in the order of
/// the text) first, as a label's first definition wins, then the text's own. Each run
/// sorted by label.
#[derive(Clone, Copy)]
pub(super) struct Defs<'d> {
    pub before: &'d [Vec<RefDef>],
    pub own: &'d [RefDef],
}

impl<'d> Defs<'d> {
    /// Whether there is no definition at all (no label needs normalizing then).
    fn is_empty(self) -> bool {
        self.own.is_empty() && self.before.iter().all(Vec::is_empty)
    }

    /// The definition of a normalized label.
    fn get(self, key: &str) -> Option<&'d RefDef> {
        self.before
            .iter()
            .map(Vec::as_slice)
            .chain([self.own])
            .find_map(|d| {
                d.binary_search_by(|x| x.0.as_str().cmp(key))
                    .ok()
                    .map(|i| &d[i])
            })
    }
}

/// The lines joined with `\n` (a partly consumed tab is left out: leading whitespace
/// of a line is not content), and where each line starts: (joined, text).
pub(super) fn join(text: &str, lines: &[Line]) -> (String, Vec<(usize, usize)>) {
    let mut v = String::new();
    let mut map = Vec::with_capacity(lines.len());
    for (k, l) in lines.iter().enumerate() {
        if k > 0 {
            v.push('\n');
        }
        map.push((v.len(), l.s));
        v.push_str(&text[l.s..l.e]);
    }
    (v, map)
}

/// The position in the answer text of position `p` of the joined string.
fn to_src(map: &[(usize, usize)], p: usize) -> usize {
    let k = map.partition_point(|&(vs, _)| vs <= p).saturating_sub(1);
    let (vs, ss) = map[k];
    ss + (p - vs)
}

use super::punct::is_punct;

fn is_ws(c: char) -> bool {
    c.is_whitespace()
}

/// The bytes the tokenizer acts on; every other byte is text.
const SPECIAL: [bool; 256] = special(false);
/// The same without emphasis delimiters and entities (`Shape::Lean`).
const LEAN_SPECIAL: [bool; 256] = special(true);

const fn special(lean: bool) -> [bool; 256] {
    let mut t = [false; 256];
    let mut k = 0;
    let bytes: &[u8] = if lean { b"\n\\`![]<" } else { b"\n\\`*_~![]<&" };
    while k < bytes.len() {
        t[bytes[k] as usize] = true;
        k += 1;
    }
    t
}

#[derive(Debug)]
enum K {
    /// Text as in the joined string.
    Text,
    /// Text that differs from its source (an escape, an entity).
    Str(Cow<'static, str>),
    Code(String),
    Soft,
    Hard,
    Html,
    FnRef(String),
    /// An emphasis delimiter run: its character and how many are left.
    Delim {
        ch: u8,
        n: usize,
        orig: usize,
        can_open: bool,
        can_close: bool,
        opens: Vec<TagEnd>,
        closes: Vec<TagEnd>,
    },
    /// `[` or `![`, until it opens a link.
    Open,
    LinkStart {
        image: bool,
        email: bool,
        dest: String,
        title: String,
        end: usize,
    },
    LinkEnd {
        image: bool,
        start: usize,
    },
}

#[derive(Debug)]
struct Tok {
    k: K,
    s: usize,
    e: usize,
}

struct Bracket {
    tok: usize,
    image: bool,
    /// Delimiter stack height when it was pushed.
    delims: usize,
    /// A bracket was pushed after it.
    bracket_after: bool,
}

struct Inl<'d> {
    v: String,
    toks: Vec<Tok>,
    delims: Vec<usize>,
    brackets: Vec<Bracket>,
    /// Backtick runs and raw HTML ends, each searched for once (unclosed ones stay
    /// linear).
    ticks: Ticks,
    html_ends: HtmlEnds,
    /// Brackets below this height (not images) are inactive: a link was made after
    /// them, and links do not nest.
    link_floor: usize,
    defs: Defs<'d>,
    /// Structure only (`Shape::Lean`).
    lean: bool,
}

/// What a parse keeps of the inline content.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Everything: the events the renderer draws.
    Full,
    /// The structure only, for the marker scanner: the content as one text event,
    /// then its code spans, raw HTML, links and images (each with its whole range, no
    /// end event) and line breaks, every string left empty; no emphasis (its
    /// delimiters are text). Code spans, links, images, autolinks and raw HTML are
    /// found exactly as in a full parse (emphasis decides none of them).
    Lean,
}

/// The events of a leaf's inline content.
/// `trim`: the last line's trailing spaces and tabs are not content (paragraphs; an
/// ATX heading's content is trimmed already).
pub(super) fn parse<'a>(
    text: &'a str,
    lines: &[Line],
    defs: Defs<'_>,
    trim: bool,
    shape: Shape,
    out: &mut Vec<(Event<'a>, Range<usize>)>,
) {
    if lines.is_empty() {
        return;
    }
    let (v, map) = join(text, lines);
    run(text, v, &map, defs, trim, shape, out);
}

/// The events of a table cell (`\|` is a `|`).
pub(super) fn parse_cell<'a>(
    text: &'a str,
    r: Range<usize>,
    defs: Defs<'_>,
    shape: Shape,
    out: &mut Vec<(Event<'a>, Range<usize>)>,
) {
    // A backslash before a `|` is the table's escape, taken out before the inline
    // markdown is read (GFM): `\\|` shows `|`, and `\|` in code is a `|`.
    let mut v = String::with_capacity(r.len());
    let mut map = vec![(0, r.start)];
    let mut from = r.start;
    for k in crate::core::str_ops::offsets(&text[r.clone()], "\\|") {
        let at = r.start + k;
        v.push_str(&text[from..at]);
        from = at + 1;
        map.push((v.len(), from));
    }
    v.push_str(&text[from..r.end]);
    run(text, v, &map, defs, true, shape, out);
}

fn run<'a>(
    text: &'a str,
    v: String,
    map: &[(usize, usize)],
    defs: Defs<'_>,
    trim: bool,
    shape: Shape,
    out: &mut Vec<(Event<'a>, Range<usize>)>,
) {
    // Trailing whitespace of the last line is not content.
    let trimmed = if trim {
        v.trim_end_matches([' ', '\t']).len()
    } else {
        v.len()
    };
    let mut p = Inl {
        v,
        toks: Vec::new(),
        delims: Vec::new(),
        brackets: Vec::new(),
        ticks: Ticks::default(),
        html_ends: HtmlEnds::default(),
        link_floor: 0,
        defs,
        lean: shape == Shape::Lean,
    };
    p.v.truncate(trimmed);
    p.tokenize();
    if !p.lean {
        p.emphasis(0);
    }
    p.emit(text, map, out);
}

impl Inl<'_> {
    fn push(&mut self, k: K, s: usize, e: usize) {
        self.toks.push(Tok { k, s, e });
    }

    fn text(&mut self, s: usize, e: usize) {
        // (A lean parse gives the content as one text: its pieces are not kept.)
        if s < e && !self.lean {
            self.push(K::Text, s, e);
        }
    }

    fn tokenize(&mut self) {
        let v = std::mem::take(&mut self.v);
        let b = v.as_bytes();
        let n = b.len();
        let table = if self.lean { &LEAN_SPECIAL } else { &SPECIAL };
        let mut i = 0;
        let mut t = 0; // start of pending text
        while i < n {
            // Bytes that start nothing are text.
            while i < n && !table[b[i] as usize] {
                i += 1;
            }
            if i >= n {
                break;
            }
            let c = b[i];
            match c {
                b'\n' => {
                    // Trailing spaces before the break: two or more make it hard.
                    // (Tabs count too, as in pulldown-cmark.)
                    let mut ts = i;
                    while ts > t && matches!(b[ts - 1], b' ' | b'\t') {
                        ts -= 1;
                    }
                    let hard = i - ts >= 2;
                    self.text(t, ts);
                    let mut k = i + 1;
                    while k < n && matches!(b[k], b' ' | b'\t') {
                        k += 1;
                    }
                    if hard {
                        self.push(K::Hard, ts, i + 1);
                    } else {
                        self.push(K::Soft, i, i + 1);
                    }
                    i = k;
                    t = i;
                }
                b'\\' => {
                    if i + 1 < n && b[i + 1] == b'\n' {
                        self.text(t, i);
                        self.push(K::Hard, i, i + 2);
                        let mut k = i + 2;
                        while k < n && matches!(b[k], b' ' | b'\t') {
                            k += 1;
                        }
                        i = k;
                        t = i;
                    } else if i + 1 < n && b[i + 1].is_ascii_punctuation() && self.lean {
                        // The escaped character is text (and starts nothing).
                        i += 2;
                    } else if i + 1 < n && b[i + 1].is_ascii_punctuation() {
                        self.text(t, i);
                        let ch = (b[i + 1] as char).to_string();
                        self.push(K::Str(Cow::Owned(ch)), i + 1, i + 2);
                        i += 2;
                        t = i;
                    } else {
                        i += 1;
                    }
                }
                b'`' => {
                    let mut k = i;
                    while k < n && b[k] == b'`' {
                        k += 1;
                    }
                    let len = k - i;
                    if !self.ticks.built {
                        self.ticks.build(b, i, n);
                    }
                    match self.ticks.closer(len, k).map(|c| c + len) {
                        Some(ce) => {
                            self.text(t, i);
                            let content = if self.lean {
                                String::new()
                            } else {
                                code_content(&v[k..ce - len])
                            };
                            self.push(K::Code(content), i, ce);
                            i = ce;
                            t = i;
                        }
                        None => i = k,
                    }
                }
                b'*' | b'_' | b'~' => {
                    let mut k = i;
                    while k < n && b[k] == c {
                        k += 1;
                    }
                    let count = k - i;
                    if c == b'~' && count > 2 {
                        i = k;
                        continue;
                    }
                    self.text(t, i);
                    let (can_open, can_close) = flanks(&v, i, k, c);
                    self.push(
                        K::Delim {
                            ch: c,
                            n: count,
                            orig: count,
                            can_open,
                            can_close,
                            opens: Vec::new(),
                            closes: Vec::new(),
                        },
                        i,
                        k,
                    );
                    if can_open || can_close {
                        self.delims.push(self.toks.len() - 1);
                    }
                    i = k;
                    t = i;
                }
                b'!' if b.get(i + 1) == Some(&b'[') => {
                    self.text(t, i);
                    self.open_bracket(i, true);
                    i += 2;
                    t = i;
                }
                b'[' => {
                    self.text(t, i);
                    self.open_bracket(i, false);
                    i += 1;
                    t = i;
                }
                b']' => {
                    self.text(t, i);
                    i = self.close_bracket(&v, i);
                    t = i;
                }
                b'<' => {
                    if let Some(end) = autolink(b, i, n) {
                        self.text(t, i);
                        let url = v[i + 1..end - 1].to_string();
                        let email = !crate::core::str_ops::has_char(&url, ':');
                        self.push(
                            K::LinkStart {
                                image: false,
                                email,
                                dest: url,
                                title: String::new(),
                                end,
                            },
                            i,
                            end,
                        );
                        self.push(K::Text, i + 1, end - 1);
                        self.push(
                            K::LinkEnd {
                                image: false,
                                start: i,
                            },
                            i,
                            end,
                        );
                        i = end;
                        t = i;
                    } else if let Some(end) = html_tag(b, i, n, &mut self.html_ends, |ends, j| {
                        // No `>` ahead: no tag (and no attributes read to the end again).
                        ends.gt.get(b, j, n, b">")?;
                        read_attrs(b, j, n, |_| {}).map(|(end, _)| end)
                    }) {
                        self.text(t, i);
                        self.push(K::Html, i, end);
                        i = end;
                        t = i;
                    } else {
                        i += 1;
                    }
                }
                b'&' => match entity_at(&v, i) {
                    Some((end, val)) => {
                        self.text(t, i);
                        self.push(K::Str(val), i, end);
                        i = end;
                        t = i;
                    }
                    None => i += 1,
                },
                _ => i += 1,
            }
        }
        self.text(t, n);
        self.v = v;
    }

    fn open_bracket(&mut self, i: usize, image: bool) {
        // (Those below the top were flagged when the one above them came.)
        if let Some(top) = self.brackets.last_mut() {
            top.bracket_after = true;
        }
        self.push(K::Open, i, i + if image { 2 } else { 1 });
        self.brackets.push(Bracket {
            tok: self.toks.len() - 1,
            image,
            delims: self.delims.len(),
            bracket_after: false,
        });
    }

    /// `]` at `i`: a link or image when its opener and what follows make one. Returns
    /// where reading goes on.
    fn close_bracket(&mut self, v: &str, i: usize) -> usize {
        let b = v.as_bytes();
        let Some(br) = self.brackets.last() else {
            self.push(K::Text, i, i + 1);
            return i + 1;
        };
        let inactive = !br.image && self.brackets.len() - 1 < self.link_floor;
        if inactive {
            self.brackets.pop();
            self.link_floor = self.link_floor.min(self.brackets.len());
            self.push(K::Text, i, i + 1);
            return i + 1;
        }
        let open_tok = br.tok;
        let image = br.image;
        let bracket_after = br.bracket_after;
        let delims_at = br.delims;
        let text_start = self.toks[open_tok].e;
        // Inline link `(dest "title")`.
        let mut found: Option<(String, String, usize)> = None;
        if b.get(i + 1) == Some(&b'(') {
            found = inline_tail(v, i + 1);
        }
        // A footnote reference `[^label]` (a defined one, and no `[label]` after it).
        let fn_label = (b.get(text_start) == Some(&b'^'))
            .then(|| &v[text_start + 1..i])
            .filter(|l| !l.is_empty() && !l.contains([' ', '\t', '\n', '[']));
        let label_after = b.get(i + 1) == Some(&b'[')
            && !matches!(b.get(i + 2), Some(b']' | b'^'))
            && link_label(v, i + 1).is_some_and(|le| has_content(&v[i + 2..le - 1]));
        if found.is_none() && !label_after {
            if let Some(l) = fn_label.filter(|_| !self.defs.is_empty()) {
                if self
                    .defs
                    .get(&format!("\u{1}{}", super::normalize_label(l)))
                    .is_some()
                {
                    let label = l.to_string();
                    self.toks.truncate(open_tok + 1);
                    let s = self.toks[open_tok].s;
                    if image {
                        // `![^1]`: the `!` is text before the reference.
                        self.toks[open_tok].k = K::Text;
                        self.toks[open_tok].e = s + 1;
                        self.push(K::FnRef(label), s + 1, i + 1);
                    } else {
                        self.toks[open_tok].k = K::FnRef(label);
                        self.toks[open_tok].e = i + 1;
                    }
                    self.delims.truncate(delims_at);
                    // No link or image may hold it: every opener before it is text.
                    self.brackets.clear();
                    self.link_floor = 0;
                    return i + 1;
                }
            }
        }
        if found.is_none() {
            // Reference link: full `[label]`, collapsed `[]`, or shortcut.
            let mut label: Option<&str> = None;
            let mut after = i + 1;
            // (`[^...]` after it is footnote syntax, not a label.)
            if b.get(i + 1) == Some(&b'[') && b.get(i + 2) != Some(&b'^') {
                if let Some(le) = link_label(v, i + 1) {
                    if le - (i + 1) > 2 && has_content(&v[i + 2..le - 1]) {
                        label = Some(&v[i + 2..le - 1]);
                        after = le;
                    } else if le - (i + 1) == 2 && !bracket_after {
                        label = Some(&v[text_start..i]);
                        after = le;
                    }
                }
            }
            if label.is_none() && !bracket_after {
                label = Some(&v[text_start..i]);
                after = i + 1;
            }
            if let Some(l) = label.filter(|_| !self.defs.is_empty()) {
                let key = super::link_key(l);
                if let Some((_, d, t)) = self.defs.get(&key) {
                    found = Some((d.clone(), t.clone(), after));
                }
            }
        }
        let Some((dest, title, end)) = found else {
            self.brackets.pop();
            self.link_floor = self.link_floor.min(self.brackets.len());
            self.push(K::Text, i, i + 1);
            return i + 1;
        };
        // The link: emphasis inside it first.
        self.emphasis(delims_at);
        self.toks[open_tok].k = K::LinkStart {
            image,
            email: false,
            dest,
            title,
            end,
        };
        self.toks[open_tok].e = end;
        let s = self.toks[open_tok].s;
        self.push(K::LinkEnd { image, start: s }, s, end);
        self.brackets.pop();
        self.link_floor = if image {
            self.link_floor.min(self.brackets.len())
        } else {
            self.brackets.len()
        };
        end
    }
}

/// Whether the delimiter run `v[i..k]` of `c` can open and close emphasis: CommonMark's
/// flanking rules (`*` and `~~` may stand inside a word, `_` and `~` not), written as
/// pulldown-cmark applies them to GFM's tildes.
fn flanks(v: &str, i: usize, k: usize, c: u8) -> (bool, bool) {
    let before = v[..i].chars().next_back();
    let after = v[k..].chars().next();
    let run = k - i;
    let intraword = c == b'*' || (c == b'~' && run > 1);
    let can_open = match after {
        None => false,
        Some(n) if is_ws(n) => false,
        Some(n) => match before {
            None => true,
            Some(p) => {
                (intraword && (c == b'~' || !is_punct(n)))
                    || (c == b'~' && p == '~' && !is_punct(n))
                    || is_ws(p)
                    || is_punct(p)
            }
        },
    };
    let can_close = match before {
        None => false,
        Some(p) if is_ws(p) => false,
        Some(p) => match after {
            None => true,
            Some(n) => {
                (intraword && !is_punct(p)) || (c == b'~' && p == '~') || is_ws(n) || is_punct(n)
            }
        },
    };
    (can_open, can_close)
}

/// A code span's content: line ends as spaces, one space each side taken off when both
/// are there and it is not all spaces.
fn code_content(s: &str) -> String {
    let s = crate::core::str_ops::replace(s, "\n", " ");
    let b = s.as_bytes();
    if b.len() >= 2 && b[0] == b' ' && b[b.len() - 1] == b' ' && b.iter().any(|&c| c != b' ') {
        s[1..s.len() - 1].to_string()
    } else {
        s
    }
}
