//! The block pass: the text line by line into a tree of blocks (CommonMark's
//! algorithm: match the open containers, start new blocks, add the line to the open
//! leaf, lazily to a paragraph), then the events of that tree, inline content parsed
//! by `inlines`.

use super::inlines::{self, Defs, Line, Shape};
use super::lines::{
    atx_heading, closing_fence, contains_ci, delim_row, fence_open, footnote_def, header_cols,
    html_block, html_block_6, item_width, line_end, list_marker, setext_underline, task_box_only,
    thematic_break, Cursor, HtmlEnd,
};
use super::{Alignment, Event, RefDef, Tag, TagEnd};
use std::borrow::Cow;
use std::ops::Range;

mod close;
mod emit;
mod leaf;

pub(super) use emit::emit;
use leaf::{aligns, atx_content, cells, starts_block, trim_range};

use crate::core::limits::MAX_BLOCK_DEPTH as MAX_DEPTH;

#[derive(Debug)]
enum Kind {
    Doc,
    Quote,
    List {
        /// `-`, `+`, `*`, or `.`/`)` for ordered lists.
        marker: u8,
        start: Option<u64>,
        tight: bool,
    },
    Item {
        /// Columns of content indentation (marker offset and padding).
        width: usize,
        /// A task box alone on the item's first line (`- [ ]`): where, and whether
        /// checked. The item then starts as an empty one.
        task: Option<(usize, bool)>,
    },
    Foot(Range<usize>),
    Para,
    Heading(u8),
    Rule,
    Fenced {
        ch: u8,
        len: usize,
        indent: usize,
        info: Range<usize>,
    },
    Indented,
    Html(HtmlEnd),
    Table(Vec<Alignment>),
}

#[derive(Debug)]
struct Node {
    kind: Kind,
    start: usize,
    end: usize,
    parent: usize,
    children: Vec<usize>,
    open: bool,
    last_blank: bool,
    /// A paragraph that has text before its last line (it can no longer become a
    /// table's header): checked once, not again on every later line.
    no_table: bool,
    lines: Vec<Line>,
}

pub(super) struct Doc {
    nodes: Vec<Node>,
    /// The reference and footnote definitions, sorted by label, the first of a label.
    pub defs: Vec<RefDef>,
    /// Where each run of reference definitions stands in the text (no event covers
    /// them: they are not drawn), in the order of the text.
    pub def_ranges: Vec<Range<usize>>,
    /// Where the first block quote or list item past [`MAX_DEPTH`] was read as text.
    pub too_deep: Option<usize>,
}

struct Parser<'a> {
    b: &'a [u8],
    text: &'a str,
    nodes: Vec<Node>,
    tip: usize,
    /// The definitions in the order they are read (the document's).
    defs: Vec<RefDef>,
    def_ranges: Vec<Range<usize>>,
    too_deep: Option<usize>,
}

enum Cont {
    Match,
    Fail,
    /// The line is used up (a closing fence).
    Done,
}

/// The blocks of `text`.
pub(super) fn parse(text: &str) -> Doc {
    let mut p = Parser {
        b: text.as_bytes(),
        text,
        nodes: vec![Node::new(Kind::Doc, 0, 0)],
        tip: 0,
        defs: Vec::new(),
        def_ranges: Vec::new(),
        too_deep: None,
    };
    let mut ls = 0;
    while ls < p.b.len() {
        let (le, next) = line_end(p.b, ls);
        p.line(ls, le, next);
        p.extend(next);
        ls = next;
    }
    while p.tip != 0 {
        let t = p.tip;
        p.finalize(t, p.b.len());
    }
    p.finalize(0, p.b.len());
    super::sort_definitions(&mut p.defs);
    Doc {
        nodes: p.nodes,
        defs: p.defs,
        def_ranges: p.def_ranges,
        too_deep: p.too_deep,
    }
}

impl Node {
    fn new(kind: Kind, start: usize, parent: usize) -> Node {
        Node {
            kind,
            start,
            end: start,
            parent,
            children: Vec::new(),
            open: true,
            last_blank: false,
            no_table: false,
            lines: Vec::new(),
        }
    }
}

fn can_contain(parent: &Kind, child: &Kind) -> bool {
    match parent {
        Kind::Doc | Kind::Quote | Kind::Item { .. } => !matches!(child, Kind::Item { .. }),
        Kind::Foot(_) => !matches!(child, Kind::Item { .. } | Kind::Foot(_)),
        Kind::List { .. } => matches!(child, Kind::Item { .. }),
        _ => false,
    }
}

impl<'a> Parser<'a> {
    fn depth(&self, mut n: usize) -> usize {
        let mut d = 0;
        while n != 0 {
            n = self.nodes[n].parent;
            d += 1;
        }
        d
    }

    fn add_child(&mut self, kind: Kind, start: usize, line_start: usize) -> usize {
        while !can_contain(&self.nodes[self.tip].kind, &kind) {
            let t = self.tip;
            self.finalize(t, line_start);
        }
        let id = self.nodes.len();
        self.nodes.push(Node::new(kind, start, self.tip));
        self.nodes[self.tip].children.push(id);
        self.tip = id;
        id
    }

    fn cont(&mut self, n: usize, c: &mut Cursor<'a>, le: usize) -> Cont {
        match self.nodes[n].kind {
            Kind::Quote => {
                if c.indent() <= 3 {
                    let save = *c;
                    c.skip(3);
                    if c.byte() == Some(b'>') {
                        c.advance(1);
                        c.skip(1);
                        return Cont::Match;
                    }
                    *c = save;
                }
                Cont::Fail
            }
            Kind::Item { width, .. } => {
                if c.blank() {
                    if self.nodes[n].children.is_empty() {
                        return Cont::Fail;
                    }
                    // Blanks past the item's indentation stay (a code block keeps them).
                    c.skip(width);
                    Cont::Match
                } else if c.indent() >= width {
                    c.skip(width);
                    Cont::Match
                } else {
                    Cont::Fail
                }
            }
            Kind::Foot(_) => {
                if c.blank() || c.indent() >= 4 {
                    c.skip(4);
                    Cont::Match
                } else {
                    Cont::Fail
                }
            }
            Kind::Doc | Kind::List { .. } => Cont::Match,
            Kind::Heading(_) | Kind::Rule => Cont::Fail,
            Kind::Fenced {
                ch, len, indent, ..
            } => {
                // (A tab after the closing fence makes it text, as in pulldown-cmark.)
                if closing_fence(c, ch, len) && !c.rest().contains(&b'\t') {
                    self.nodes[n].end = c.end + usize::from(c.end < self.b.len());
                    self.finalize(n, le);
                    return Cont::Done;
                }
                c.skip(indent);
                Cont::Match
            }
            Kind::Indented => {
                if c.indent() >= 4 {
                    c.skip(4);
                    Cont::Match
                } else if c.blank() {
                    c.skip(usize::MAX);
                    Cont::Match
                } else {
                    Cont::Fail
                }
            }
            Kind::Html(until) => {
                if c.blank() && until == HtmlEnd::Blank {
                    Cont::Fail
                } else {
                    Cont::Match
                }
            }
            Kind::Para => {
                if c.blank() {
                    Cont::Fail
                } else {
                    Cont::Match
                }
            }
            Kind::Table(_) => {
                if c.blank() {
                    Cont::Fail
                } else {
                    Cont::Match
                }
            }
        }
    }

    /// The open blocks (and a block the line just closed, a code fence) reach to the
    /// end of this line, its line end included, as pulldown-cmark's ranges do: the
    /// streaming view keeps blocks that end before what may still change.
    fn extend(&mut self, next: usize) {
        let mut n = self.tip;
        loop {
            if self.nodes[n].end < next {
                self.nodes[n].end = next;
            }
            if n == 0 {
                break;
            }
            n = self.nodes[n].parent;
        }
    }

    fn line(&mut self, ls: usize, le: usize, next: usize) {
        let b = self.b;
        let mut c = Cursor::new(b, ls, le);
        let old_tip = self.tip;
        // 1. The open blocks this line continues.
        let mut container = 0;
        let mut all_matched = true;
        // The indentation of the list item whose continuation failed, if one did: a
        // lazy line's blanks up to it are not content (pulldown-cmark takes them).
        let mut failed_width = 0;
        while let Some(&last) = self.nodes[container].children.last() {
            if !self.nodes[last].open {
                break;
            }
            container = last;
            match self.cont(last, &mut c, le) {
                Cont::Match => {}
                Cont::Fail => {
                    if let Kind::Item { width, .. } = self.nodes[last].kind {
                        failed_width = width;
                    }
                    container = self.nodes[last].parent;
                    all_matched = false;
                    break;
                }
                Cont::Done => return,
            }
        }
        let _ = all_matched;
        let mut all_closed = container == old_tip;
        let last_matched = container;
        let mut line_used = false;
        let matched_leaf = matches!(
            self.nodes[container].kind,
            Kind::Fenced { .. } | Kind::Indented | Kind::Html(_)
        );
        // A table: a delimiter row under a paragraph's only line makes it the header.
        if all_closed {
            if let Kind::Para = self.nodes[container].kind {
                let maybe = !self.nodes[container].no_table;
                if let Some(cols) = delim_row(&c).filter(|_| maybe) {
                    // The paragraph's only line after its reference definitions.
                    let text = self.text_lines(container);
                    if text > 1 {
                        self.nodes[container].no_table = true;
                    }
                    if text == 1 {
                        let l = *self.nodes[container].lines.last().unwrap_or(&Line {
                            s: 0,
                            e: 0,
                            pad: 0,
                        });
                        let mut s = l.s;
                        while s < l.e && matches!(b[s], b' ' | b'\t') {
                            s += 1;
                        }
                        if header_cols(b, s, l.e) == Some(cols) {
                            self.para_defs(container);
                            let aligns = aligns(&b[c.pos..le]);
                            self.nodes[container].kind = Kind::Table(aligns);
                            self.nodes[container].end = le;
                            return;
                        }
                    }
                }
            }
        }
        // 2. New blocks.
        let mut opened = 0usize;
        let depth = self.depth(container);
        if !matched_leaf {
            loop {
                let indent = c.indent();
                let indented = indent >= 4;
                let tip_para =
                    matches!(self.nodes[self.tip].kind, Kind::Para) && self.tip == container;
                let mut d = c;
                d.skip(3.min(indent));
                let first = d.byte();
                if !indented && depth + opened >= MAX_DEPTH && self.too_deep.is_none() {
                    // A container that would open here is read as text: said once.
                    if first == Some(b'>') || list_marker(&d).is_some() {
                        self.too_deep = Some(d.pos);
                    }
                }
                if !indented && depth + opened < MAX_DEPTH {
                    // Block quote.
                    if first == Some(b'>') {
                        let s = d.pos;
                        d.advance(1);
                        d.skip(1);
                        c = d;
                        self.close_unmatched(&mut all_closed, last_matched, ls);
                        container = self.add_child(Kind::Quote, s, ls);
                        opened += 1;
                        continue;
                    }
                    // Footnote definition.
                    if let Some((label, colon)) = footnote_def(&d) {
                        let key =
                            format!("\u{1}{}", super::normalize_label(&self.text[label.clone()]));
                        self.defs.push((key, String::new(), String::new()));
                        let s = d.pos;
                        d.advance(colon + 1 - d.pos);
                        d.skip(usize::MAX);
                        c = d;
                        self.close_unmatched(&mut all_closed, last_matched, ls);
                        container = self.add_child(Kind::Foot(label), s, ls);
                        opened += 1;
                        continue;
                    }
                }
                if !indented {
                    // ATX heading.
                    if let Some(h) = atx_heading(&d) {
                        let s = d.pos;
                        self.close_unmatched(&mut all_closed, last_matched, ls);
                        let level = (h - s) as u8;
                        let id = self.add_child(Kind::Heading(level), s, ls);
                        let (cs, ce) = atx_content(b, h, le);
                        self.nodes[id].lines.push(Line {
                            s: cs,
                            e: ce,
                            pad: 0,
                        });
                        self.nodes[id].end = le;
                        container = id;
                        line_used = true;
                        break;
                    }
                    // Fenced code.
                    if let Some((ch, len)) = fence_open(&d) {
                        let s = d.pos;
                        self.close_unmatched(&mut all_closed, last_matched, ls);
                        let info = trim_range(b, s + len, le);
                        let id = self.add_child(
                            Kind::Fenced {
                                ch,
                                len,
                                indent: indent.min(3),
                                info,
                            },
                            s,
                            ls,
                        );
                        self.nodes[id].end = le;
                        container = id;
                        line_used = true;
                        break;
                    }
                    // HTML block.
                    if first == Some(b'<') {
                        let until = html_block(d.rest());
                        if let Some(until) = until {
                            let seven = until == HtmlEnd::Blank && !html_block_6(&d.rest()[1..]);
                            let lazy_para =
                                !all_closed && matches!(self.nodes[self.tip].kind, Kind::Para);
                            let table = matches!(self.nodes[self.tip].kind, Kind::Table(_));
                            if !(seven && (tip_para || lazy_para || table)) {
                                self.close_unmatched(&mut all_closed, last_matched, ls);
                                let id = self.add_child(Kind::Html(until), c.pos, ls);
                                container = id;
                                break;
                            }
                        }
                    }
                    // Setext heading underline.
                    if tip_para && setext_underline(&d) {
                        let level = if d.byte() == Some(b'=') { 1 } else { 2 };
                        self.close_unmatched(&mut all_closed, last_matched, ls);
                        let t = self.tip;
                        self.para_defs(t);
                        if !self.nodes[t].lines.is_empty() {
                            self.nodes[t].kind = Kind::Heading(level);
                            self.nodes[t].end = le;
                            self.finalize(t, next);
                            return;
                        }
                        // All definitions: the line starts a paragraph, its leading
                        // blanks no content.
                        c = d;
                    }
                    // Thematic break.
                    if thematic_break(&d) {
                        self.close_unmatched(&mut all_closed, last_matched, ls);
                        let id = self.add_child(Kind::Rule, d.pos, ls);
                        self.nodes[id].end = le;
                        container = id;
                        line_used = true;
                        break;
                    }
                }
                // List item.
                if (!indented || matches!(self.nodes[container].kind, Kind::List { .. }))
                    && depth + opened < MAX_DEPTH
                {
                    if let Some(m) = list_marker(&d) {
                        let mut e = d;
                        e.advance(m.len);
                        let interrupts_ok = !tip_para || (!e.blank() && (m.bullet || m.start == 1));
                        if interrupts_ok {
                            let s = d.pos;
                            // The item and a new list start with the line's indentation
                            // (a view that renders again from there reads it the same).
                            let line_start = c.pos;
                            let width = item_width(&mut e, indent.min(3), m.len);
                            // `- [ ]` alone: an empty item with a task box (a blank or
                            // a line end must follow it: at the text's end it is text).
                            let boxed = e.rest().len() > 3 || e.end < b.len();
                            let task = (e.indent() < 4 && task_box_only(&e) && boxed).then(|| {
                                let at = e.end - e.rest().len();
                                (at, matches!(b[at + 1], b'x' | b'X'))
                            });
                            c = if task.is_some() {
                                Cursor::new(b, le, le)
                            } else {
                                e
                            };
                            self.close_unmatched(&mut all_closed, last_matched, ls);
                            let marker = if m.bullet { b[s] } else { b[s + m.len - 1] };
                            let start = (!m.bullet).then_some(m.start);
                            let same = match &self.nodes[self.tip].kind {
                                Kind::List {
                                    marker: mk,
                                    start: st,
                                    ..
                                } => *mk == marker && st.is_some() == start.is_some(),
                                _ => false,
                            };
                            if !same {
                                self.add_child(
                                    Kind::List {
                                        marker,
                                        start,
                                        tight: true,
                                    },
                                    line_start,
                                    ls,
                                );
                            }
                            container = self.add_child(Kind::Item { width, task }, line_start, ls);
                            opened += 1;
                            continue;
                        }
                    }
                }
                // Indented code.
                // (After a table, only a line that would start a block if it were not
                // indented ends the table, as pulldown-cmark reads it; a table takes no
                // lazy lines, so one outside the table's containers ends it too.)
                let table_ends = matches!(self.nodes[self.tip].kind, Kind::Table(_))
                    && (!all_closed || {
                        let mut a = c;
                        a.skip(usize::MAX);
                        starts_block(&a)
                    });
                if indented
                    && (!matches!(self.nodes[self.tip].kind, Kind::Para | Kind::Table(_))
                        || table_ends)
                    && !c.blank()
                {
                    // (The block starts with its indentation, as its range should.)
                    let s = c.pos;
                    c.skip(4);
                    self.close_unmatched(&mut all_closed, last_matched, ls);
                    let id = self.add_child(Kind::Indented, s, ls);
                    container = id;
                    break;
                }
                // A table whose header starts with `|` interrupts a paragraph, also
                // one this line would continue lazily (the delimiter row below is
                // read in the containers open now, as pulldown-cmark reads it).
                let lazy_para = !all_closed && matches!(self.nodes[self.tip].kind, Kind::Para);
                if (tip_para || lazy_para)
                    && first == Some(b'|')
                    && !indented
                    && self.table_ahead(&d, le, next)
                {
                    // The paragraph ends; this line starts one that the next line
                    // (the delimiter row) makes a table header.
                    self.close_unmatched(&mut all_closed, last_matched, ls);
                    if matches!(self.nodes[self.tip].kind, Kind::Para) {
                        let t = self.tip;
                        self.finalize(t, ls);
                    }
                    self.start_para(d, ls, le);
                    return;
                }
                break;
            }
        }
        // 3. The rest of the line.
        if line_used {
            return;
        }
        let blank = c.blank();
        if !all_closed && !blank && matches!(self.nodes[self.tip].kind, Kind::Para) {
            // A lazy continuation line (its blanks stay, but those a list item's
            // indentation took).
            let t = self.tip;
            let mut d = c;
            d.skip(failed_width);
            self.nodes[t].lines.push(Line {
                s: d.pos,
                e: le,
                pad: 0,
            });
            self.nodes[t].end = le;
            return;
        }
        self.close_unmatched(&mut all_closed, last_matched, ls);
        // Blank lines at the end of blocks.
        if blank {
            if let Some(&lc) = self.nodes[container].children.last() {
                self.nodes[lc].last_blank = true;
            }
        }
        // (A blank line that an HTML block holds, as types 1 to 5 do, leaves a list
        // tight: commonmark.js 0.31 asks whether blocks' lines touch, not whether a
        // line was blank.)
        let last_blank = blank
            && !(matches!(
                self.nodes[container].kind,
                Kind::Quote | Kind::Fenced { .. } | Kind::Html(_)
            ) || (matches!(self.nodes[container].kind, Kind::Item { .. })
                && self.nodes[container].children.is_empty()
                && self.nodes[container].start >= ls));
        self.mark_blank(container, last_blank);
        // A blank last line with no line end adds nothing to a fenced code block (unless
        // indented like code, as pulldown-cmark reads it).
        if blank
            && le == b.len()
            && matches!(self.nodes[container].kind, Kind::Fenced { .. })
            && Cursor::new(b, ls, le).indent() < 4 + self.content_indent(container)
        {
            return;
        }
        match self.nodes[container].kind {
            Kind::Para => {
                // Leading blanks stay (the inline pass skips them, but not in a code
                // span, as in pulldown-cmark).
                let d = c;
                self.nodes[container].lines.push(Line {
                    s: d.pos,
                    e: le,
                    pad: 0,
                });
                self.nodes[container].end = le;
            }
            Kind::Fenced { .. } | Kind::Indented => {
                let pad = c.partial;
                self.nodes[container].lines.push(Line {
                    s: c.pos,
                    e: le,
                    pad,
                });
                self.nodes[container].end = le;
            }
            Kind::Html(until) => {
                self.nodes[container].lines.push(Line {
                    s: c.pos,
                    e: le,
                    pad: c.partial,
                });
                self.nodes[container].end = le;
                if let HtmlEnd::Contains(pat) = until {
                    if contains_ci(&b[c.pos..le], pat) {
                        self.finalize(container, next);
                    }
                }
            }
            Kind::Table(_) => {
                let r = c.rest();
                let lone_pipe = r.iter().filter(|&&x| x == b'|').count() == 1
                    && r.iter().all(|x| matches!(x, b'|' | b' ' | b'\t'));
                if lone_pipe {
                    // A lone `|` is no row: the table ends, and the line starts a
                    // paragraph (indented code when indented four columns).
                    self.finalize(container, ls);
                    if c.indent() >= 4 {
                        let s = c.pos;
                        c.skip(4);
                        let id = self.add_child(Kind::Indented, s, ls);
                        self.nodes[id].lines.push(Line {
                            s: c.pos,
                            e: le,
                            pad: c.partial,
                        });
                        self.nodes[id].end = le;
                    } else {
                        self.start_para(c, ls, le);
                    }
                } else if !blank {
                    self.nodes[container].lines.push(Line {
                        s: c.pos,
                        e: le,
                        pad: 0,
                    });
                    self.nodes[container].end = le;
                }
            }
            Kind::Heading(_) | Kind::Rule => {}
            _ => {
                if !blank {
                    self.start_para(c, ls, le);
                }
            }
        }
    }

    /// A paragraph starting with the rest of this line (its leading blanks left out).
    fn start_para(&mut self, mut c: Cursor<'a>, ls: usize, le: usize) {
        c.skip(usize::MAX);
        let id = self.add_child(Kind::Para, c.pos, ls);
        self.nodes[id].lines.push(Line {
            s: c.pos,
            e: le,
            pad: 0,
        });
        self.nodes[id].end = le;
    }

    /// Columns of indentation the containers of `n` take (list items, footnotes).
    fn content_indent(&self, mut n: usize) -> usize {
        let mut cols = 0;
        while n != 0 {
            match self.nodes[n].kind {
                Kind::Item { width, .. } => cols += width,
                Kind::Foot(_) => cols += 4,
                _ => {}
            }
            n = self.nodes[n].parent;
        }
        cols
    }

    fn mark_blank(&mut self, n: usize, blank: bool) {
        let mut k = n;
        loop {
            self.nodes[k].last_blank = blank;
            if k == 0 {
                break;
            }
            k = self.nodes[k].parent;
        }
    }

    fn close_unmatched(&mut self, all_closed: &mut bool, last_matched: usize, ls: usize) {
        if *all_closed {
            return;
        }
        while self.tip != last_matched {
            let t = self.tip;
            self.finalize(t, ls);
        }
        *all_closed = true;
    }

    /// A table starting at this line: its next line (in the same containers) is a
    /// delimiter row with as many columns as this header.
    fn table_ahead(&self, d: &Cursor<'a>, le: usize, next: usize) -> bool {
        if next >= self.b.len() {
            return false;
        }
        let (le2, _) = line_end(self.b, next);
        let mut c2 = Cursor::new(self.b, next, le2);
        // The same containers must continue on the next line.
        let mut n = 0;
        while let Some(&last) = self.nodes[n].children.last() {
            if !self.nodes[last].open || matches!(self.nodes[last].kind, Kind::Para) {
                break;
            }
            let ok = match self.nodes[last].kind {
                Kind::Quote => {
                    if c2.indent() <= 3 {
                        c2.skip(3);
                        if c2.byte() == Some(b'>') {
                            c2.advance(1);
                            c2.skip(1);
                            true
                        } else {
                            false
                        }
                    } else {
                        false
                    }
                }
                Kind::Item { width, .. } => {
                    if c2.indent() >= width {
                        c2.skip(width);
                        true
                    } else {
                        false
                    }
                }
                Kind::Foot(_) => {
                    if c2.indent() >= 4 {
                        c2.skip(4);
                        true
                    } else {
                        false
                    }
                }
                _ => true,
            };
            if !ok {
                return false;
            }
            n = last;
        }
        delim_row(&c2).is_some_and(|cols| header_cols(self.b, d.pos, le) == Some(cols))
    }
}
