//! The events of the block tree, each leaf's inline content parsed by `inlines`.

use super::*;

/// The events of the tree; links are looked up in the definitions `before` the text
/// first (runs sorted by label, in the order of the text), then in its own.
pub(in super::super) fn emit<'a>(
    doc: &Doc,
    before: &[Vec<RefDef>],
    text: &'a str,
    shape: Shape,
    out: &mut Vec<(Event<'a>, Range<usize>)>,
) {
    let defs = Defs {
        before,
        own: &doc.defs,
    };
    let mut e = Emitter {
        doc,
        defs,
        text,
        shape,
        out,
    };
    for &c in &doc.nodes[0].children {
        e.node(c, false);
    }
}

struct Emitter<'d, 'a, 'o> {
    doc: &'d Doc,
    defs: Defs<'d>,
    text: &'a str,
    shape: Shape,
    out: &'o mut Vec<(Event<'a>, Range<usize>)>,
}

impl<'a> Emitter<'_, 'a, '_> {
    fn push(&mut self, ev: Event<'a>, r: Range<usize>) {
        self.out.push((ev, r));
    }

    fn inline(&mut self, lines: &[Line], trim: bool) {
        inlines::parse(self.text, lines, self.defs, trim, self.shape, self.out);
    }

    fn node(&mut self, n: usize, tight: bool) {
        let node = &self.doc.nodes[n];
        let r = node.start..node.end;
        let b = self.text.as_bytes();
        match &node.kind {
            Kind::Doc => {}
            Kind::Para => {
                if node.lines.is_empty() {
                    return;
                }
                if tight {
                    self.inline(&node.lines, true);
                } else {
                    let r = para_range(b, &node.lines);
                    self.push(Event::Start(Tag::Paragraph), r.clone());
                    self.inline(&node.lines, true);
                    self.push(Event::End(TagEnd::Paragraph), r);
                }
            }
            Kind::Heading(level) => {
                self.push(Event::Start(Tag::Heading(*level)), r.clone());
                let lines: Vec<Line> = node.lines.clone();
                self.inline(&lines, true);
                self.push(Event::End(TagEnd::Heading(*level)), r);
            }
            Kind::Rule => self.push(Event::Rule, r),
            Kind::Quote => {
                self.push(Event::Start(Tag::BlockQuote), r.clone());
                for &c in &node.children {
                    self.node(c, false);
                }
                self.push(Event::End(TagEnd::BlockQuote), r);
            }
            Kind::List { start, tight, .. } => {
                self.push(Event::Start(Tag::List(*start)), r.clone());
                for &c in &node.children {
                    self.item(c, *tight);
                }
                self.push(Event::End(TagEnd::List(start.is_some())), r);
            }
            Kind::Item { .. } => self.item(n, tight),
            Kind::Foot(label) => {
                let l = Cow::Borrowed(&self.text[label.clone()]);
                self.push(Event::Start(Tag::FootnoteDefinition(l)), r.clone());
                for &c in &node.children {
                    self.node(c, false);
                }
                self.push(Event::End(TagEnd::FootnoteDefinition), r);
            }
            Kind::Fenced { info, .. } => {
                let info = inlines::unescape(&self.text[info.clone()]);
                self.push(Event::Start(Tag::CodeBlock(Some(info))), r.clone());
                for l in &node.lines {
                    self.code_line(*l);
                }
                self.push(Event::End(TagEnd::CodeBlock), r);
            }
            Kind::Indented => {
                self.push(Event::Start(Tag::CodeBlock(None)), r.clone());
                for l in &node.lines {
                    self.code_line(*l);
                }
                self.push(Event::End(TagEnd::CodeBlock), r);
            }
            Kind::Html(_) => {
                self.push(Event::Start(Tag::HtmlBlock), r.clone());
                for (k, l) in node.lines.iter().enumerate() {
                    let mut l = *l;
                    if k == 0 {
                        // The first line's indentation comes as text.
                        let b = self.text.as_bytes();
                        let mut i = l.s;
                        while i < l.e && matches!(b[i], b' ' | b'\t') {
                            i += 1;
                        }
                        if i > l.s || l.pad > 0 {
                            let mut sp: String = std::iter::repeat_n(' ', l.pad).collect();
                            sp.push_str(&self.text[l.s..i]);
                            self.push(Event::Text(Cow::Owned(sp)), l.s..i);
                        }
                        l.s = i;
                        l.pad = 0;
                    }
                    let end = (l.e + 1).min(self.text.len());
                    if l.pad > 0 {
                        // The rest of a tab the container took half of, as text.
                        let sp: String = std::iter::repeat_n(' ', l.pad).collect();
                        self.push(Event::Text(Cow::Owned(sp)), l.s..l.s);
                    }
                    let mut s = String::new();
                    s.push_str(&self.text[l.s..l.e]);
                    if l.e < self.text.len() {
                        s.push('\n');
                    }
                    self.push(Event::Html(Cow::Owned(s)), l.s..end);
                }
                self.push(Event::End(TagEnd::HtmlBlock), r);
            }
            Kind::Table(aligns) => self.table(n, aligns),
        }
    }

    fn code_line(&mut self, l: Line) {
        let end = (l.e + 1).min(self.text.len());
        if self.shape == Shape::Lean {
            self.push(Event::Text(Cow::Borrowed("")), l.s..end);
            return;
        }
        let mut s: String = std::iter::repeat_n(' ', l.pad).collect();
        s.push_str(&self.text[l.s..l.e]);
        // The last line of the text may have no line end.
        if l.e < self.text.len() {
            s.push('\n');
        }
        self.push(Event::Text(Cow::Owned(s)), l.s..end);
    }

    fn item(&mut self, n: usize, tight: bool) {
        let node = &self.doc.nodes[n];
        let r = node.start..node.end;
        self.push(Event::Start(Tag::Item), r.clone());
        if let Kind::Item {
            task: Some((at, checked)),
            ..
        } = node.kind
        {
            self.push(Event::TaskListMarker(checked), at..at + 3);
        }
        let boxed = matches!(node.kind, Kind::Item { task: Some(_), .. });
        for (k, &c) in node.children.iter().enumerate() {
            if k == 0 {
                let first_line = self.doc.nodes[c].lines.first().is_some_and(|l| {
                    !crate::core::str_ops::has_char(&self.text[node.start.min(l.s)..l.s], '\n')
                });
                if let (Kind::Para, true, false) = (&self.doc.nodes[c].kind, first_line, boxed) {
                    if let Some((checked, rest)) = task_box(self.text, &self.doc.nodes[c].lines) {
                        let p = &self.doc.nodes[c];
                        let s = p.lines[0].s;
                        // In a loose list the box stands inside the item's paragraph, as
                        // GFM renders it (`<li><p><input …> done</p></li>`).
                        if tight {
                            self.push(Event::TaskListMarker(checked), s..s + 3);
                            self.inline(&rest, true);
                        } else {
                            let pr = para_range(self.text.as_bytes(), &p.lines);
                            self.push(Event::Start(Tag::Paragraph), pr.clone());
                            self.push(Event::TaskListMarker(checked), s..s + 3);
                            self.inline(&rest, true);
                            self.push(Event::End(TagEnd::Paragraph), pr);
                        }
                        continue;
                    }
                }
            }
            self.node(c, tight);
        }
        self.push(Event::End(TagEnd::Item), r);
    }

    fn table(&mut self, n: usize, aligns: &[Alignment]) {
        let node = &self.doc.nodes[n];
        let b = self.text.as_bytes();
        let r = node.start..node.end;
        self.push(Event::Start(Tag::Table(aligns.to_vec())), r.clone());
        let cols = aligns.len();
        for (k, l) in node.lines.iter().enumerate() {
            let cs = cells(b, l.s, l.e);
            let row = l.s..l.e;
            if k == 0 {
                self.push(Event::Start(Tag::TableHead), row.clone());
            } else {
                self.push(Event::Start(Tag::TableRow), row.clone());
            }
            for i in 0..cols {
                match cs.get(i) {
                    Some(c) => {
                        self.push(Event::Start(Tag::TableCell), c.clone());
                        inlines::parse_cell(self.text, c.clone(), self.defs, self.shape, self.out);
                        self.push(Event::End(TagEnd::TableCell), c.clone());
                    }
                    None => {
                        self.push(Event::Start(Tag::TableCell), l.e..l.e);
                        self.push(Event::End(TagEnd::TableCell), l.e..l.e);
                    }
                }
            }
            if k == 0 {
                self.push(Event::End(TagEnd::TableHead), row);
            } else {
                self.push(Event::End(TagEnd::TableRow), row);
            }
        }
        self.push(Event::End(TagEnd::Table), r);
    }
}

/// A paragraph's range: its first line's content to the end of its last line.
fn para_range(b: &[u8], lines: &[Line]) -> Range<usize> {
    let s = lines.first().map_or(0, |l| l.s);
    let e = lines.last().map_or(s, |l| l.e);
    let _ = b;
    s..e
}

/// `[ ]`, `[x]` or `[X]` and whitespace at the start of an item's first paragraph:
/// whether checked, and the lines without it.
fn task_box(text: &str, lines: &[Line]) -> Option<(bool, Vec<Line>)> {
    let b = text.as_bytes();
    let l = *lines.first()?;
    let r = &b[l.s..l.e];
    if r.len() < 3 || r[0] != b'[' || !matches!(r[1], b' ' | b'x' | b'X') || r[2] != b']' {
        return None;
    }
    let mut k = 3;
    // A blank or a line end follows the box (nothing at the text's end).
    if (k < r.len() && !matches!(r[k], b' ' | b'\t')) || l.s + k == b.len() {
        return None;
    }
    while k < r.len() && matches!(r[k], b' ' | b'\t') {
        k += 1;
    }
    let mut rest = lines.to_vec();
    rest[0].s = l.s + k;
    Some((r[1] != b' ', rest))
}
