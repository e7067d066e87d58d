//! The block pass: reads the text line by line, as CommonMark (and pulldown-cmark's GFM
//! tables and footnotes) would, keeping a stack of open containers (block quotes, list
//! items, footnote definitions) and the open leaf block. Code blocks and reference
//! definition lines become protected ranges; paragraphs, headings and table cells become
//! inline runs for the inline pass. In plain text only footnote definitions count.

use super::{Ctx, FootDef};
use crate::core::commonmark::lines::{
    atx_heading, closing_fence, contains_ci, delim_row, fence_open, footnote_def, header_cols,
    html_block, html_block_6, item_width, line_end, list_marker, setext_underline, task_box_only,
    thematic_break, Cursor, HtmlEnd,
};
use std::ops::Range;

use crate::core::limits::{MAX_BLOCK_DEPTH as MAX_DEPTH, MAX_BLOCK_DEPTH_NAME};

/// A piece of text to scan for inline structure.
pub(super) type InlineRun = Range<usize>;

#[derive(Debug)]
enum Cont {
    Quote,
    /// A list item; continuation lines need `width` columns. A blank line belongs to
    /// it only once it holds something (`filled`), as CommonMark says.
    Item {
        width: usize,
        filled: bool,
    },
    /// A footnote definition (index into `Ctx::foot`); continuation lines need 4 columns.
    Foot,
}

#[derive(Debug)]
enum Leaf {
    None,
    /// A paragraph. While `defs`, it holds only reference definitions so far (the
    /// text starts after them, as pulldown-cmark reads them); `dest_pending`: the last
    /// definition (starting there) has its destination on the next line.
    Para {
        start: usize,
        end: usize,
        lines: usize,
        first: (usize, usize),
        defs: bool,
        dest_pending: Option<usize>,
    },
    Table {
        expect_delim: bool,
    },
    Fence {
        ch: u8,
        len: usize,
        start: usize,
        last: usize,
    },
    Indented {
        start: usize,
        end: usize,
    },
    /// An HTML block (CommonMark types 1 to 7): raw HTML, no lazy lines, ends at a
    /// blank line or at its end marker. Its text is still an inline run (markers in it
    /// count; its tags are protected).
    Html {
        start: usize,
        end: usize,
        until: HtmlEnd,
    },
}

struct Blocks<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    md: bool,
    conts: Vec<Cont>,
    /// Indices into `ctx.foot` of the open footnote definitions.
    feet: Vec<usize>,
    leaf: Leaf,
    runs: Vec<InlineRun>,
    /// The label a definition whose destination is on the next line added to
    /// `ctx.defs` (when no earlier definition had it): taken out again when that line
    /// is no destination, for then there was no definition.
    pending_label: Option<String>,
}

impl Blocks<'_, '_> {
    /// At the deepest nesting followed: a block quote or list item opening here is read
    /// as text, which the first time is said in a warning.
    fn depth_reached(&mut self, mut c: Cursor<'_>) {
        if self.ctx.depth_warned {
            return;
        }
        c.skip(3);
        let opens = match c.byte() {
            Some(b'>') => self.md,
            Some(b'-' | b'*' | b'+') => matches!(c.b.get(c.pos + 1), Some(b' ' | b'\t') | None),
            _ => false,
        };
        if opens {
            self.ctx.depth_warned = true;
            self.ctx.diags.push(
                crate::core::model::Diagnostic::warning(
                    "limit-exceeded",
                    format!(
                        "block quotes and list items nested deeper than `{MAX_BLOCK_DEPTH_NAME}` ({MAX_DEPTH}) are read as text"
                    ),
                )
                .at(c.pos, c.pos + 1),
            );
        }
    }
}

/// Reads the block structure of the whole text; returns the inline runs in text order.
pub(super) fn parse(ctx: &mut Ctx<'_>, md: bool) -> Vec<InlineRun> {
    let b = ctx.b;
    let n = b.len();
    let mut p = Blocks {
        ctx,
        md,
        conts: Vec::new(),
        feet: Vec::new(),
        leaf: Leaf::None,
        runs: Vec::new(),
        pending_label: None,
    };
    let mut ls = 0;
    while ls < n {
        let (le, next) = line_end(b, ls);
        p.line(ls, le, next);
        ls = next;
    }
    p.close_leaf();
    p.close_conts(0);
    p.runs
}

impl<'a> Blocks<'_, 'a> {
    fn b(&self) -> &'a [u8] {
        self.ctx.b
    }

    /// Matches the open containers against the line; returns how many matched and the
    /// cursor after their prefixes.
    fn match_conts(&self, ls: usize, le: usize) -> (usize, Cursor<'a>) {
        let mut c = Cursor::new(self.ctx.b, ls, le);
        let mut matched = 0;
        for cont in &self.conts {
            match cont {
                Cont::Quote => {
                    let save = c;
                    if c.indent() <= 3 {
                        c.skip(3);
                        if c.byte() == Some(b'>') {
                            c.advance(1);
                            c.skip(1);
                            matched += 1;
                            continue;
                        }
                    }
                    c = save;
                    break;
                }
                Cont::Item { width, filled } => {
                    if c.blank() {
                        if !filled {
                            break;
                        }
                        matched += 1;
                        continue;
                    }
                    if c.indent() >= *width {
                        c.skip(*width);
                        matched += 1;
                        continue;
                    }
                    break;
                }
                Cont::Foot => {
                    if c.blank() {
                        matched += 1;
                        continue;
                    }
                    if c.indent() >= 4 {
                        c.skip(4);
                        matched += 1;
                        continue;
                    }
                    break;
                }
            }
        }
        (matched, c)
    }

    fn line(&mut self, ls: usize, le: usize, next: usize) {
        let (matched, mut c) = self.match_conts(ls, le);
        let all = matched == self.conts.len();
        let blank = c.blank();

        match self.leaf {
            Leaf::Fence { ch, len, .. } => {
                if all {
                    if closing_fence(&c, ch, len) {
                        if let Leaf::Fence { start, .. } = self.leaf {
                            self.ctx.protect(start, le);
                        }
                        self.leaf = Leaf::None;
                    } else if let Leaf::Fence { last, .. } = &mut self.leaf {
                        *last = le;
                    }
                    if !blank {
                        self.touch(le);
                    }
                    return;
                }
                self.close_leaf();
            }
            Leaf::Indented { .. } => {
                if all && (blank || c.indent() >= 4) {
                    if !blank {
                        if let Leaf::Indented { end, .. } = &mut self.leaf {
                            *end = le;
                        }
                        self.touch(le);
                    }
                    return;
                }
                self.close_leaf();
            }
            Leaf::Html { until, .. } if all && !(blank && until == HtmlEnd::Blank) => {
                if let Leaf::Html { end, .. } = &mut self.leaf {
                    *end = le;
                }
                if !blank {
                    self.touch(le);
                }
                if let HtmlEnd::Contains(pat) = until {
                    if contains_ci(&self.b()[c.pos..le], pat) {
                        self.close_leaf();
                    }
                }
                return;
            }
            Leaf::Table { expect_delim: true } if all => {
                self.leaf = Leaf::Table {
                    expect_delim: false,
                };
                self.touch(le);
                return;
            }
            _ => {}
        }

        if !all {
            if matches!(self.leaf, Leaf::Para { .. }) && !blank && !self.interrupts(&c, false) {
                // A lazy continuation line.
                self.para_append(&c, le);
                self.touch(le);
                return;
            }
            self.close_leaf();
            self.close_conts(matched);
        }

        if blank {
            self.close_leaf();
            return;
        }

        match self.leaf {
            Leaf::Para {
                lines, first, defs, ..
            } => {
                if self.md && !defs {
                    if lines == 1 {
                        if let Some(cols) = delim_row(&c) {
                            if header_cols(self.b(), first.0, first.1) == Some(cols) {
                                self.leaf = Leaf::Table {
                                    expect_delim: false,
                                };
                                self.row(first.0, first.1);
                                self.touch(le);
                                return;
                            }
                        }
                    }
                    if setext_underline(&c) {
                        self.close_leaf();
                        self.touch(le);
                        return;
                    }
                }
                if self.interrupts(&c, true) {
                    self.close_leaf();
                } else if self.md && !defs && self.table_interrupt(&c, next) {
                    self.close_leaf();
                    self.leaf = Leaf::Table { expect_delim: true };
                    self.row(c.pos, le);
                    self.touch(le);
                    return;
                } else {
                    self.para_append(&c, le);
                    self.touch(le);
                    return;
                }
            }
            Leaf::Table { .. } => {
                if self.interrupts(&c, false) {
                    self.close_leaf();
                } else {
                    self.row(c.pos, le);
                    self.touch(le);
                    return;
                }
            }
            _ => {}
        }

        // New containers.
        let mut opened_item = false;
        loop {
            if c.indent() >= 4 {
                break;
            }
            if self.conts.len() >= MAX_DEPTH {
                self.depth_reached(c);
                break;
            }
            let save = c;
            c.skip(3);
            if self.md && c.byte() == Some(b'>') {
                c.advance(1);
                c.skip(1);
                self.fill_items();
                self.conts.push(Cont::Quote);
                continue;
            }
            if let Some((label, colon)) = footnote_def(&c) {
                let s = c.pos;
                c.advance(colon + 1 - s);
                c.skip(usize::MAX);
                let top = self.conts.is_empty();
                self.ctx.foot.push(FootDef {
                    start: if top { ls } else { s },
                    syntax: s..colon + 1,
                    body_start: c.pos,
                    last_end: le,
                    top,
                    label,
                });
                self.feet.push(self.ctx.foot.len() - 1);
                self.fill_items();
                self.conts.push(Cont::Foot);
                continue;
            }
            if self.md && !thematic_break(&c) {
                if let Some(m) = list_marker(&c) {
                    c.advance(m.len);
                    let width = item_width(&mut c, save.indent().min(3), m.len);
                    self.fill_items();
                    self.conts.push(Cont::Item {
                        width,
                        filled: false,
                    });
                    opened_item = true;
                    continue;
                }
            }
            c = save;
            break;
        }

        if c.blank() || (opened_item && task_box_only(&c)) {
            // An empty list item (pulldown-cmark counts `- [ ]` as one too).
            self.touch_feet(le);
            return;
        }
        self.touch(le);
        if c.indent() >= 4 && self.md {
            self.leaf = Leaf::Indented {
                start: c.pos,
                end: le,
            };
            return;
        }
        c.skip(usize::MAX);
        if self.md {
            if let Some((ch, len)) = fence_open(&c) {
                self.leaf = Leaf::Fence {
                    ch,
                    len,
                    start: c.pos,
                    last: le,
                };
                return;
            }
            if let Some(h) = atx_heading(&c) {
                self.runs.push(h..le);
                return;
            }
            if thematic_break(&c) {
                return;
            }
            if let Some(until) = html_block(c.rest()) {
                self.leaf = Leaf::Html {
                    start: c.pos,
                    end: le,
                    until,
                };
                if let HtmlEnd::Contains(pat) = until {
                    if contains_ci(&self.b()[c.pos..le], pat) {
                        self.close_leaf();
                    }
                }
                return;
            }
        }
        let def = self.def_line(&c, le, true);
        self.leaf = match def {
            Some(pending) => Leaf::Para {
                start: le,
                end: le,
                lines: 1,
                first: (le, le),
                defs: true,
                dest_pending: pending.then_some(c.pos),
            },
            None => Leaf::Para {
                start: c.pos,
                end: le,
                lines: 1,
                first: (c.pos, le),
                defs: false,
                dest_pending: None,
            },
        };
    }

    fn para_append(&mut self, c: &Cursor<'_>, le: usize) {
        let (defs, pending) = match &self.leaf {
            Leaf::Para {
                defs, dest_pending, ..
            } => (*defs, *dest_pending),
            _ => return,
        };
        if let (true, Some(ds)) = (defs, pending) {
            // The destination of the definition above, or else that was no definition
            // and the paragraph's text starts with it.
            let ok = matches!(def_rest(&self.ctx.b[c.pos..le]), DefRest::Complete);
            if ok {
                self.ctx.protect(c.pos, le);
                self.pending_label = None;
            } else {
                self.drop_pending_label();
            }
            if let Leaf::Para {
                start,
                end,
                lines,
                first,
                defs,
                dest_pending,
            } = &mut self.leaf
            {
                *end = le;
                *dest_pending = None;
                if ok {
                    *start = le;
                } else {
                    *defs = false;
                    *start = ds;
                    *first = (ds, ds);
                    *lines = 2;
                }
            }
            return;
        }
        let mut d = *c;
        let def = if d.indent() <= 3 {
            d.skip(3);
            // Inside a paragraph's text a definition is text (still protected).
            self.def_line(&d, le, defs)
        } else {
            None
        };
        let Leaf::Para {
            start,
            end,
            lines,
            first,
            defs,
            dest_pending,
        } = &mut self.leaf
        else {
            return;
        };
        *end = le;
        if !*defs {
            *lines += 1;
            return;
        }
        if let Some(p) = def {
            *dest_pending = p.then_some(d.pos);
            *start = le;
        } else {
            // The paragraph's text starts here.
            d.skip(usize::MAX);
            *defs = false;
            *start = d.pos;
            *first = (d.pos, le);
            *lines = 1;
        }
    }

    /// A reference definition line `[label]: dest "title"`: protected, its label
    /// recorded when `real` (it starts a paragraph, so it defines something). Returns
    /// whether the line is one, and whether its destination is on the next line.
    fn def_line(&mut self, c: &Cursor<'_>, le: usize, real: bool) -> Option<bool> {
        if !self.md || c.byte() != Some(b'[') || c.at(1) == Some(b'^') {
            return None;
        }
        let b = self.ctx.b;
        let s = c.pos;
        let lim = le.min(s + 1001);
        let mut j = s + 1;
        while j < lim {
            match b[j] {
                b'\\' => j += 2,
                b'[' => return None,
                b']' => break,
                _ => j += 1,
            }
        }
        if j >= lim || j + 1 >= le || b[j] != b']' || b[j + 1] != b':' {
            return None;
        }
        let label = self.ctx.text.get(s + 1..j)?;
        let dest_pending = match def_rest(&b[j + 2..le]) {
            DefRest::Bad => {
                // Not a definition (`[1]: Smith et al.`), but a sources line: its
                // `[1]` stays text too.
                if matches!(b.get(j + 2), Some(b' ' | b'\t')) {
                    self.ctx.protect(s, le);
                }
                return None;
            }
            DefRest::Complete => false,
            DefRest::DestNext => true,
        };
        let norm = label
            .split_whitespace()
            .map(crate::core::unicode::fold_case)
            .collect::<Vec<_>>();
        let norm = crate::core::str_ops::join(&mut norm.iter().map(String::as_str), " ");
        if norm.is_empty() {
            return None;
        }
        if real {
            let new = self.ctx.defs.insert(norm.clone());
            self.pending_label = (new && dest_pending).then_some(norm);
        }
        self.ctx.protect(s, le);
        Some(dest_pending)
    }

    /// Whether the line (all containers matched, or lazily) starts a block that ends a
    /// paragraph. `same`: the paragraph is in the innermost matched container.
    fn interrupts(&self, c: &Cursor<'_>, same: bool) -> bool {
        if c.blank() {
            return true;
        }
        if c.indent() >= 4 {
            return false;
        }
        let mut d = *c;
        d.skip(3);
        if footnote_def(&d).is_some() {
            return true;
        }
        if !self.md {
            return false;
        }
        match d.byte() {
            Some(b'>') => return true,
            Some(b'`' | b'~') if fence_open(&d).is_some() => return true,
            Some(b'#') if atx_heading(&d).is_some() => return true,
            // Types 1 to 6 interrupt a paragraph; a type 6 tag (`<table>`) may also
            // read as a type 7 one, which does not.
            Some(b'<')
                if html_block(d.rest())
                    .is_some_and(|u| u != HtmlEnd::Blank || html_block_6(&d.rest()[1..])) =>
            {
                return true
            }
            _ => {}
        }
        if thematic_break(&d) {
            return true;
        }
        if let Some(m) = list_marker(&d) {
            if !same {
                return true;
            }
            let mut e = d;
            e.advance(m.len);
            return (m.bullet || m.start == 1) && !e.blank();
        }
        false
    }

    /// pulldown-cmark lets a table whose header starts with `|` interrupt a paragraph.
    fn table_interrupt(&self, c: &Cursor<'_>, next: usize) -> bool {
        let mut d = *c;
        if d.indent() > 3 {
            return false;
        }
        d.skip(3);
        if d.byte() != Some(b'|') {
            return false;
        }
        let b = self.ctx.b;
        if next >= b.len() {
            return false;
        }
        let (le2, _) = line_end(b, next);
        let (m2, c2) = self.match_conts(next, le2);
        if m2 != self.conts.len() {
            return false;
        }
        match delim_row(&c2) {
            Some(cols) => header_cols(b, d.pos, c.end) == Some(cols),
            None => false,
        }
    }

    /// A table row: each cell is an inline run (cells split at unescaped `|`).
    fn row(&mut self, s: usize, le: usize) {
        let b = self.ctx.b;
        let mut i = s;
        while i < le && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        if i < le && b[i] == b'|' {
            i += 1;
        }
        while i < le {
            let cs = i;
            while i < le && !(b[i] == b'|' && (i == 0 || b[i - 1] != b'\\')) {
                i += 1;
            }
            if i > cs {
                self.runs.push(cs..i);
            }
            i += 1;
        }
    }

    /// A non-blank line with content in the open containers: list items hold
    /// something, footnote definitions reach the end of this line.
    fn touch(&mut self, le: usize) {
        self.fill_items();
        self.touch_feet(le);
    }

    /// The open list items hold something now.
    fn fill_items(&mut self) {
        for c in &mut self.conts {
            if let Cont::Item { filled, .. } = c {
                *filled = true;
            }
        }
    }

    /// Marks the open footnote definitions as reaching the end of this line.
    fn touch_feet(&mut self, le: usize) {
        for &f in &self.feet {
            if let Some(d) = self.ctx.foot.get_mut(f) {
                d.last_end = d.last_end.max(le);
            }
        }
    }

    /// Takes the label of a definition whose destination never came out of the
    /// defined labels.
    fn drop_pending_label(&mut self) {
        if let Some(l) = self.pending_label.take() {
            self.ctx.defs.remove(&l);
        }
    }

    fn close_leaf(&mut self) {
        if matches!(
            self.leaf,
            Leaf::Para {
                dest_pending: Some(_),
                ..
            }
        ) {
            self.drop_pending_label();
        }
        match std::mem::replace(&mut self.leaf, Leaf::None) {
            Leaf::Para { start, end, .. } | Leaf::Html { start, end, .. } => {
                if start < end {
                    self.runs.push(start..end)
                }
            }
            Leaf::Fence { start, last, .. } => self.ctx.protect(start, last),
            Leaf::Indented { start, end } => self.ctx.protect(start, end),
            Leaf::Table { .. } | Leaf::None => {}
        }
    }

    fn close_conts(&mut self, keep: usize) {
        while self.conts.len() > keep {
            if let Some(Cont::Foot) = self.conts.pop() {
                self.feet.pop();
            }
        }
    }
}

enum DefRest {
    Bad,
    Complete,
    DestNext,
}

/// What follows `[label]:` on a definition line: a destination and an optional title.
fn def_rest(r: &[u8]) -> DefRest {
    let mut i = 0;
    let ws = |mut i: usize| {
        while i < r.len() && matches!(r[i], b' ' | b'\t') {
            i += 1;
        }
        i
    };
    i = ws(i);
    if i == r.len() {
        return DefRest::DestNext;
    }
    if r[i] == b'<' {
        i += 1;
        loop {
            match r.get(i) {
                None | Some(b'<') => return DefRest::Bad,
                Some(b'>') => break,
                Some(b'\\') => i += 2,
                _ => i += 1,
            }
        }
        i += 1;
    } else {
        let s = i;
        let mut depth = 0usize;
        while i < r.len() && r[i] > b' ' {
            match r[i] {
                b'\\' => i += 1,
                b'(' => depth += 1,
                b')' if depth == 0 => return DefRest::Bad,
                b')' => depth -= 1,
                _ => {}
            }
            i += 1;
        }
        if i == s || depth != 0 {
            return DefRest::Bad;
        }
    }
    let after = ws(i.min(r.len()));
    if after >= r.len() {
        return DefRest::Complete;
    }
    if after == i {
        return DefRest::Bad;
    }
    let close = match r[after] {
        b'"' => b'"',
        b'\'' => b'\'',
        b'(' => b')',
        _ => return DefRest::Bad,
    };
    let mut k = after + 1;
    while k < r.len() && r[k] != close {
        if r[k] == b'\\' {
            k += 1;
        }
        k += 1;
    }
    if k >= r.len() || ws(k + 1) != r.len() {
        return DefRest::Bad;
    }
    DefRest::Complete
}
