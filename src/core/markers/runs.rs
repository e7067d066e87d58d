//! Reading the marker grammar (`syntax`) in runs of text, outside what is protected:
//! a markdown paragraph, heading or table cell (protected: what the parser reads as
//! code, links, images, autolinks and inline HTML), a markdown HTML block's lines (its
//! tags and autolinks are protected, read with the parser's span rules), or plain text.

use super::syntax::{self, Found};
use super::{Ctx, Grammar, MarkerKind};
use crate::core::commonmark::spans::{autolink, html_tag, read_attrs, Find, HtmlEnds};
use std::ops::Range;

/// Bytes that may start something in a markdown run.
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
        t[b'\\' as usize] = true;
    }
    t
}

/// What a protected range is, for the markers that win over it where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ProtKind {
    /// Code, an image, an autolink, a reference definition, a sources line.
    Other,
    /// An inline HTML tag (a cite `<sup>` marker starting there is read).
    Html,
    /// An inline link `[text](url)` (xAI's `[[1]](url)` starting there is a marker).
    InlineLink,
    /// A full, collapsed or shortcut reference link (a marker as its text is read).
    ReferenceLink,
}

/// A protected range; `live` until a marker that starts before it or with it takes it.
#[derive(Debug)]
pub(super) struct Prot {
    pub range: Range<usize>,
    pub kind: ProtKind,
    pub live: bool,
}

impl Prot {
    pub fn new(range: Range<usize>, kind: ProtKind) -> Prot {
        Prot {
            range,
            kind,
            live: true,
        }
    }
}

/// How a run is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RunKind {
    /// Markdown inline content: what is protected comes from the parser.
    Prose,
    /// A markdown HTML block: raw HTML, whose tags and autolinks are protected here.
    HtmlBlock,
    /// Plain text: markers only.
    Plain,
}

/// Reads each run (in text order) for markers; `prot` is sorted by start.
pub(super) fn scan_runs(ctx: &mut Ctx<'_>, runs: &[(Range<usize>, RunKind)], prot: &mut [Prot]) {
    let mut pi = 0usize;
    for (r, kind) in runs {
        let md = *kind != RunKind::Plain;
        let e = r.end.min(ctx.b.len());
        if r.start >= e || (!md && !ctx.want) {
            continue;
        }
        let mut run = Run {
            ctx: &mut *ctx,
            e,
            md,
            html_block: *kind == RunKind::HtmlBlock,
            html_ends: HtmlEnds::default(),
            entity_end: Find::default(),
        };
        run.go(r.start, prot, &mut pi);
    }
}

/// Per-run state.
struct Run<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    e: usize,
    md: bool,
    html_block: bool,
    html_ends: HtmlEnds,
    entity_end: Find,
}

/// A marker read at a position: where it ends, what it is, what it names.
type Read = (usize, MarkerKind, Vec<super::SourceKey>);

impl Run<'_, '_> {
    fn go(&mut self, start: usize, prot: &mut [Prot], pi: &mut usize) {
        let b = self.ctx.b;
        let table = if self.md { &MD_SPECIAL } else { &PLAIN_SPECIAL };
        let e = self.e;
        let mut i = start;
        while i < e {
            while i < e && !table[b[i] as usize] {
                i += 1;
            }
            if i >= e {
                break;
            }
            while *pi < prot.len() && (prot[*pi].range.end <= i || !prot[*pi].live) {
                *pi += 1;
            }
            if let Some(p) = prot.get(*pi).filter(|p| p.range.start <= i) {
                let p_end = p.range.end;
                if p.range.start < i {
                    i = p_end;
                    continue;
                }
                // Something protected starts here: a marker may win over it.
                let over = self.over(p, i);
                i = match over {
                    Some((end, kind, keys)) => self.found(i, end, kind, keys, prot, *pi),
                    None => p_end,
                };
                continue;
            }
            i = match b[i] {
                b'\\' => {
                    if i + 1 < e && b[i + 1].is_ascii_punctuation() {
                        i + 2
                    } else {
                        i + 1
                    }
                }
                b'[' => self.bracket(i, prot, *pi),
                b'<' => self.angle(i, prot, *pi),
                0xe3 | 0xef => self.wide(i),
                0xee => self.private_use(i, prot, *pi),
                _ => i + 1,
            };
        }
    }

    /// The grammar bracketed markers are read with: without markers wanted
    /// (protected regions), every form, so that `[1][ref]` is a marker and not a link
    /// either way.
    fn probe(&self) -> Grammar {
        if self.ctx.want {
            self.ctx.g
        } else {
            Grammar::ALL
        }
    }

    /// A marker at `i` that wins over the protected `p` starting there: a cite
    /// `<sup>` over its tag, a marker over the reference link it is the text of,
    /// xAI's `[[1]](url)` over the link it is.
    fn over(&mut self, p: &Prot, i: usize) -> Option<Read> {
        let b = self.ctx.b;
        match p.kind {
            ProtKind::Html if self.ctx.want && self.ctx.g.html_sup => {
                match syntax::sup(self.ctx.text, i, self.e) {
                    Found::Marker { end, kind, keys } => Some((end, kind, keys)),
                    _ => None,
                }
            }
            ProtKind::ReferenceLink => {
                match syntax::bracket(self.ctx.text, i, self.e, &self.probe()) {
                    Found::Marker { end, kind, keys } => Some((end, kind, keys)),
                    _ => None,
                }
            }
            ProtKind::InlineLink if self.ctx.want && self.ctx.g.linked => {
                match syntax::bracket(self.ctx.text, i, self.e, &self.ctx.g) {
                    Found::Marker { end, kind, keys }
                        if kind == MarkerKind::Numeric
                            && b.get(i + 1) == Some(&b'[')
                            && b.get(end) == Some(&b'(') =>
                    {
                        Some((p.range.end, kind, keys))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Records the marker `i..end` (when markers are wanted): what is protected and
    /// starts inside it is its own text now. Returns where reading goes on.
    fn found(
        &mut self,
        i: usize,
        end: usize,
        kind: MarkerKind,
        keys: Vec<super::SourceKey>,
        prot: &mut [Prot],
        pi: usize,
    ) -> usize {
        if self.ctx.want {
            self.ctx.push_marker(i..end, kind, keys);
        }
        for p in prot[pi..].iter_mut() {
            if p.range.start >= end {
                break;
            }
            if p.range.start >= i {
                p.live = false;
            }
        }
        end
    }

    fn bracket(&mut self, i: usize, prot: &mut [Prot], pi: usize) -> usize {
        if !(self.ctx.want || self.md) {
            return i + 1;
        }
        match syntax::bracket(self.ctx.text, i, self.e, &self.probe()) {
            Found::Marker { end, kind, keys } => self.found(i, end, kind, keys, prot, pi),
            Found::Malformed { end, why } => {
                if self.ctx.want {
                    self.ctx.push_malformed(i..end, why);
                }
                i + 1
            }
            Found::None => i + 1,
        }
    }

    fn angle(&mut self, i: usize, prot: &mut [Prot], pi: usize) -> usize {
        let b = self.ctx.b;
        if self.ctx.want && self.ctx.g.html_sup {
            if let Found::Marker { end, kind, keys } = syntax::sup(self.ctx.text, i, self.e) {
                return self.found(i, end, kind, keys, prot, pi);
            }
        }
        if !self.html_block || b.get(i + 1) == Some(&b'\\') {
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

    /// A raw HTML tag at `i` in an HTML block, per CommonMark; an open tag's
    /// attributes are read within the scan's lookahead budget.
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

    fn private_use(&mut self, i: usize, prot: &mut [Prot], pi: usize) -> usize {
        // Without markers wanted (protected regions), entities are still skipped whole,
        // as a scan would.
        if self.ctx.want && !self.ctx.g.openai {
            return i + 1;
        }
        let b = self.ctx.b;
        let e = self.e;
        let finder = &mut self.entity_end;
        match syntax::private_use(self.ctx.text, i, self.md, |p| {
            finder.get(b, p, e, "\u{e201}".as_bytes())
        }) {
            Found::Marker { end, kind, keys } => self.found(i, end, kind, keys, prot, pi),
            _ => i + 1,
        }
    }
}
