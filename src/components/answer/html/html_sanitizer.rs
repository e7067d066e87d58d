//! HTML answers (canonical format): an allow-list sanitizer.
//!
//! The answer text is HTML whose `<sup class="cite">` markers the resolver already
//! removed; citations are byte ranges of that text. A small tokenizer reads it the way
//! a browser's tokenizer would (tags with any attribute quoting, comments, doctype,
//! CDATA and other bogus comments, raw-text elements, a `<` that starts no tag is
//! text, a tag cut off by the end of the text is dropped). Nothing of the input is
//! copied as markup: citekit writes every tag itself, with the few attributes it
//! allows, and writes text through the `Inline` writer, so markers and cited spans
//! land where the citations say.
//!
//! - Kept elements: `p br hr h1-h6 ul ol li blockquote pre code em strong b i u s del
//!   ins sup sub small mark span div a table thead tbody tfoot tr th td dl dt dd
//!   figure figcaption abbr cite q kbd samp var`.
//! - Kept attributes: `a[href]` (through [`safe_href`], with `rel="noopener
//!   noreferrer nofollow" target="_blank"`), `ol[start]`, `td/th[colspan, rowspan]`
//!   (numbers only), `abbr[title]`. Every other attribute (`class`, `id`, `style`,
//!   `data-*`, `on*` ...) is dropped.
//! - Dropped with their content: `script style template iframe object applet embed
//!   svg math noscript noembed noframes title`. Every other element is dropped but its
//!   text is kept (`textarea`, `xmp`, `plaintext` keep their raw text).
//!
//! Open elements are closed at the end, stray end tags ignored, the usual implied
//! ends applied (`<li>` closes an open `li`, a block closes an open `p`, `<a>` closes
//! an open `a`), nesting is bounded (deeper elements are flattened). Linear time;
//! never panics.

mod entities;
mod lexer;

use super::markdown::safe_href;
use super::markers::MarkerSet;
use super::writer::Inline;
use super::Block;
use crate::core::model::Answer;
use crate::render::escape::push_escaped;
use entities::entity;
use lexer::{drops_content, is_ws, raw_kind, Lexer, Raw, Tok};
use std::ops::Range;

/// Deepest nesting of kept elements; deeper ones are flattened (their text is kept).
const MAX_DEPTH: usize = 256;

/// How a kept element behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// No content, no end tag (`br`, `hr`).
    Void,
    /// A block: closes an open `p`, splits top-level blocks.
    Block,
    /// Phrasing content.
    Inline,
}

/// The kept elements, with their kind.
const ALLOWED: &[(&str, Kind)] = {
    use Kind::*;
    &[
        ("p", Block),
        ("br", Void),
        ("hr", Void),
        ("h1", Block),
        ("h2", Block),
        ("h3", Block),
        ("h4", Block),
        ("h5", Block),
        ("h6", Block),
        ("ul", Block),
        ("ol", Block),
        ("li", Block),
        ("blockquote", Block),
        ("pre", Block),
        ("code", Inline),
        ("em", Inline),
        ("strong", Inline),
        ("b", Inline),
        ("i", Inline),
        ("u", Inline),
        ("s", Inline),
        ("del", Inline),
        ("ins", Inline),
        ("sup", Inline),
        ("sub", Inline),
        ("small", Inline),
        ("mark", Inline),
        ("span", Inline),
        ("div", Block),
        ("a", Inline),
        ("table", Block),
        ("thead", Block),
        ("tbody", Block),
        ("tfoot", Block),
        ("tr", Block),
        ("th", Block),
        ("td", Block),
        ("dl", Block),
        ("dt", Block),
        ("dd", Block),
        ("figure", Block),
        ("figcaption", Block),
        ("abbr", Inline),
        ("cite", Inline),
        ("q", Inline),
        ("kbd", Inline),
        ("samp", Inline),
        ("var", Inline),
    ]
};

/// The kept element called `name` (lowercase), with its kind.
fn allowed(name: &str) -> Option<(&'static str, Kind)> {
    ALLOWED.iter().find(|(n, _)| *n == name).copied()
}

/// The index of kept element `tag` in [`ALLOWED`] (`tag` comes from [`ALLOWED`]).
fn index_of(tag: &str) -> usize {
    ALLOWED
        .iter()
        .position(|(n, _)| *n == tag)
        .unwrap_or(ALLOWED.len())
}

/// Renders an HTML answer as blocks, sanitized.
pub fn blocks(answer: &Answer, markers: &MarkerSet) -> Vec<Block> {
    let text = answer.text.as_str();
    let mut r = Renderer {
        w: Inline::new(text, markers),
        text,
        stack: Vec::new(),
        open: [0; ALLOWED.len() + 1],
        blocks: Vec::new(),
        block_start: 0,
    };
    let mut lx = Lexer::new(text);
    // Inside a dropped element: (its name, nesting, whether raw-text rules apply).
    let mut dropping: Option<(String, usize, bool)> = None;
    while let Some(tok) = lx.next_tok() {
        if let Some((dname, depth, raw_rules)) = dropping.as_mut() {
            match tok {
                Tok::Start {
                    name, self_closing, ..
                } => {
                    if name == *dname {
                        if !(self_closing && (name == "svg" || name == "math")) {
                            *depth += 1;
                        }
                    } else if *raw_rules && raw_kind(&name).is_some() {
                        lx.i = lx.raw_end(lx.i, &name);
                    }
                }
                Tok::End { name, .. } if name == *dname => {
                    *depth = depth.saturating_sub(1);
                    if *depth == 0 {
                        dropping = None;
                    }
                }
                _ => {}
            }
            continue;
        }
        match tok {
            Tok::Text(range) => r.text(range),
            Tok::Skip => {}
            Tok::Start {
                name,
                attrs,
                self_closing,
                range,
            } => {
                if let Some(kind) = raw_kind(&name) {
                    let end = lx.raw_end(lx.i, &name);
                    match kind {
                        Raw::Drop => {}
                        Raw::Decoded => r.text(lx.i..end),
                        Raw::Verbatim => r.w.text(lx.i..end, true),
                    }
                    lx.i = end;
                } else if name == "plaintext" {
                    r.w.text(lx.i..text.len(), true);
                    lx.i = text.len();
                } else if drops_content(&name) {
                    let foreign = name == "svg" || name == "math";
                    let void = name == "embed" || (foreign && self_closing);
                    if !void {
                        dropping = Some((name, 1, !foreign));
                    }
                } else if let Some((tag, kind)) = allowed(&name) {
                    r.open(tag, kind, &attrs, range);
                }
            }
            Tok::End { name, range } => {
                if let Some((tag, kind)) = allowed(&name) {
                    r.close(tag, kind, range);
                }
            }
        }
    }
    r.finish()
}

/// Output state: the writer, the open kept elements, the finished blocks.
struct Renderer<'a> {
    w: Inline<'a>,
    text: &'a str,
    stack: Vec<&'static str>,
    /// How many of each kept element are open (by [`index_of`]), so searches for an
    /// element that is not open cost nothing.
    open: [u32; ALLOWED.len() + 1],
    blocks: Vec<Block>,
    block_start: usize,
}

impl Renderer<'_> {
    /// Text with its character references decoded; verbatim pieces go through the
    /// writer as slices of the answer, so markers and cited spans land inside them.
    fn text(&mut self, r: Range<usize>) {
        let b = self.text.as_bytes();
        let mut last = r.start;
        let mut i = r.start;
        while let Some(k) = crate::core::str_ops::memchr(b'&', b.get(i..r.end).unwrap_or(&[])) {
            let amp = i + k;
            match entity(self.text, amp, r.end, false) {
                Some((t, end)) => {
                    if last < amp {
                        self.w.text(last..amp, true);
                    }
                    self.w.literal(&t, amp);
                    last = end;
                    i = end;
                }
                None => i = amp + 1,
            }
        }
        if last < r.end {
            self.w.text(last..r.end, true);
        }
    }

    /// Closes the open elements from index `i` up.
    fn close_to(&mut self, i: usize) {
        while self.stack.len() > i {
            if let Some(t) = self.stack.pop() {
                if let Some(c) = self.open.get_mut(index_of(t)) {
                    *c = c.saturating_sub(1);
                }
                self.w.raw("</");
                self.w.raw(t);
                self.w.raw(">");
            }
        }
    }

    /// Whether an element `tag` is open.
    fn is_open(&self, tag: &str) -> bool {
        self.open.get(index_of(tag)).is_some_and(|&c| c > 0)
    }

    /// The nearest open element named `tag`, looking no further down than an element
    /// of `stop`.
    fn find(&self, tag: &str, stop: &[&str]) -> Option<usize> {
        if !self.is_open(tag) {
            return None;
        }
        for (i, t) in self.stack.iter().enumerate().rev() {
            if *t == tag {
                return Some(i);
            }
            if stop.contains(t) {
                return None;
            }
        }
        None
    }

    /// The end tags a browser implies before start tag `tag`.
    fn implied_ends(&mut self, tag: &str, kind: Kind) {
        let found = match tag {
            "a" => self.find("a", &[]),
            "li" => self.find_item(&["li"], &["ul", "ol"]),
            "dt" | "dd" => self.find_item(&["dt", "dd"], &["dl"]),
            "tr" => self.find_any(&["tr"], &["table", "thead", "tbody", "tfoot"]),
            "td" | "th" => {
                self.find_any(&["td", "th"], &["tr", "table", "thead", "tbody", "tfoot"])
            }
            "thead" | "tbody" | "tfoot" => self.find_any(&["thead", "tbody", "tfoot"], &["table"]),
            _ => None,
        };
        if let Some(i) = found {
            self.close_to(i);
        }
        if splits(tag, kind) {
            if let Some(i) = self.find("p", &["td", "th", "table"]) {
                self.close_to(i);
            }
        }
        if is_heading(tag) && self.stack.last().is_some_and(|t| is_heading(t)) {
            self.close_to(self.stack.len() - 1);
        }
    }

    /// The nearest open element of `tags`, not past one of `stop`.
    fn find_any(&self, tags: &[&str], stop: &[&str]) -> Option<usize> {
        if !tags.iter().any(|t| self.is_open(t)) {
            return None;
        }
        for (i, t) in self.stack.iter().enumerate().rev() {
            if tags.contains(t) {
                return Some(i);
            }
            if stop.contains(t) {
                return None;
            }
        }
        None
    }

    /// Like [`find_any`](Self::find_any) for list items: passes phrasing elements,
    /// `div` and `p`, stops at any other block or at `stop`.
    fn find_item(&self, tags: &[&str], stop: &[&str]) -> Option<usize> {
        if !tags.iter().any(|t| self.is_open(t)) {
            return None;
        }
        for (i, t) in self.stack.iter().enumerate().rev() {
            if tags.contains(t) {
                return Some(i);
            }
            let passes =
                *t == "div" || *t == "p" || allowed(t).is_some_and(|(_, k)| k == Kind::Inline);
            if stop.contains(t) || !passes {
                return None;
            }
        }
        None
    }

    /// Ends the current top-level block at `end`, unless it holds only whitespace.
    fn end_block(&mut self, end: usize) {
        if self.w.pending().trim().is_empty() {
            return;
        }
        let html = self.w.take();
        self.blocks.push(Block {
            range: self.block_start..end,
            html,
        });
        self.block_start = end;
    }

    fn open(&mut self, tag: &'static str, kind: Kind, attrs: &[(String, String)], r: Range<usize>) {
        self.w.flush_markers(r.start, true);
        self.implied_ends(tag, kind);
        if splits(tag, kind) && self.stack.is_empty() {
            self.end_block(r.start);
        }
        if kind != Kind::Void && self.stack.len() >= MAX_DEPTH {
            return;
        }
        let attr = |name: &str| {
            attrs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
        };
        let mut t = String::with_capacity(48);
        t.push('<');
        t.push_str(tag);
        match tag {
            "a" => match attr("href").map(str::trim) {
                Some(h) if !h.is_empty() => match safe_href(h) {
                    Some(href) => {
                        t.push_str(" href=\"");
                        push_escaped(&mut t, &href);
                        t.push_str("\" rel=\"noopener noreferrer nofollow\" target=\"_blank\"");
                    }
                    None => t.push_str(" class=\"cite-link-blocked\""),
                },
                _ => {}
            },
            "ol" => {
                if let Some(n) = attr("start").and_then(parse_int) {
                    t.push_str(&format!(" start=\"{n}\""));
                }
            }
            "td" | "th" => {
                for (name, max) in [("colspan", 1000u32), ("rowspan", 65534)] {
                    if let Some(n) = attr(name).and_then(|v| parse_count(v, max)) {
                        t.push_str(&format!(" {name}=\"{n}\""));
                    }
                }
            }
            "abbr" => {
                if let Some(title) = attr("title") {
                    t.push_str(" title=\"");
                    push_escaped(&mut t, title);
                    t.push('"');
                }
            }
            _ => {}
        }
        t.push('>');
        self.w.raw(&t);
        match kind {
            Kind::Void => {
                if tag == "hr" && self.stack.is_empty() {
                    self.end_block(r.end);
                }
            }
            _ => {
                self.stack.push(tag);
                if let Some(c) = self.open.get_mut(index_of(tag)) {
                    *c += 1;
                }
            }
        }
    }

    fn close(&mut self, tag: &'static str, kind: Kind, r: Range<usize>) {
        if tag == "br" {
            // `</br>` is read as `<br>`.
            self.open("br", Kind::Void, &[], r);
            return;
        }
        if kind == Kind::Void {
            return;
        }
        let stop: &[&str] = match tag {
            "table" => &[],
            "td" | "th" | "tr" | "thead" | "tbody" | "tfoot" => &["table"],
            "li" => &["ul", "ol", "td", "th", "table"],
            "dt" | "dd" => &["dl", "td", "th", "table"],
            _ => &["td", "th", "table"],
        };
        let Some(i) = self.find(tag, stop) else {
            return;
        };
        self.w.flush_markers(r.start, true);
        if kind == Kind::Block {
            // A marker written right after a block's end tag cites the block: keep it
            // inside.
            let b = self.text.as_bytes();
            let mut e = r.end;
            while b.get(e).is_some_and(|&c| is_ws(c)) {
                e += 1;
            }
            self.w.flush_markers(e, true);
        }
        self.close_to(i);
        if self.stack.is_empty() && kind == Kind::Block {
            self.end_block(r.end);
        }
    }

    fn finish(mut self) -> Vec<Block> {
        self.w.flush_markers(usize::MAX, true);
        self.close_to(0);
        let rest = self.w.take();
        if !rest.is_empty() {
            match self.blocks.last_mut() {
                Some(b) if rest.trim().is_empty() => b.html.push_str(&rest),
                _ => self.blocks.push(Block {
                    range: self.block_start..self.text.len(),
                    html: rest,
                }),
            }
        }
        if let Some(b) = self.blocks.last_mut() {
            b.range.end = self.text.len();
        }
        self.blocks
    }
}

/// Whether start tag `tag` closes an open `p` and starts a new top-level block.
fn splits(tag: &str, kind: Kind) -> bool {
    kind == Kind::Block || tag == "hr"
}

fn is_heading(t: &str) -> bool {
    matches!(t, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// `ol[start]`: an optional sign and digits (what follows them is ignored, as
/// browsers do).
fn parse_int(v: &str) -> Option<i64> {
    let v = v.trim();
    let (neg, digits) = match v.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, v.strip_prefix('+').unwrap_or(v)),
    };
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    let d = digits.get(..end.min(9))?;
    let n: i64 = d.parse().ok()?;
    Some(if neg { -n } else { n })
}

/// `colspan` / `rowspan`: digits only, at most `max`.
fn parse_count(v: &str, max: u32) -> Option<u32> {
    let v = v.trim();
    if v.is_empty() || v.len() > 9 || !v.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    v.parse::<u32>().ok().map(|n| n.min(max))
}

#[cfg(test)]
mod tests {
    use super::entities::decode_attr;
    use super::lexer::comment_end;
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        let mut lx = Lexer::new(s);
        let mut v = Vec::new();
        while let Some(t) = lx.next_tok() {
            v.push(t);
        }
        v
    }

    #[test]
    fn tags_with_any_quoting() {
        let t = toks("<a HREF=x title='a b' data-x=\"1\" `y`=z checked>t</A >");
        let Tok::Start { name, attrs, .. } = &t[0] else {
            panic!("{t:?}")
        };
        assert_eq!(name, "a");
        assert_eq!(
            attrs,
            &vec![
                ("href".to_string(), "x".to_string()),
                ("title".into(), "a b".into()),
                ("data-x".into(), "1".into()),
                ("`y`".into(), "z".into()),
                ("checked".into(), String::new()),
            ]
        );
        assert_eq!(t[1], Tok::Text(47..48));
        assert!(matches!(&t[2], Tok::End { name, .. } if name == "a"));
    }

    #[test]
    fn comments_and_bogus() {
        assert_eq!(comment_end(b"<!-->x", 4), 5);
        assert_eq!(comment_end(b"<!--->x", 4), 6);
        assert_eq!(comment_end(b"<!-- a -- b --!>x", 4), 16);
        assert_eq!(comment_end(b"<!-- open", 4), 9);
        assert_eq!(toks("a < b"), vec![Tok::Text(0..2), Tok::Text(2..5)]);
        assert_eq!(toks("<p"), vec![Tok::Skip]);
        assert_eq!(toks("</>x"), vec![Tok::Skip, Tok::Text(3..4)]);
    }

    #[test]
    fn entities() {
        assert_eq!(entity("&amp;", 0, 5, false), Some(("&".into(), 5)));
        assert_eq!(entity("&#106;", 0, 6, false), Some(("j".into(), 6)));
        assert_eq!(entity("&#x6A", 0, 5, false), Some(("j".into(), 5)));
        assert_eq!(entity("&#0;", 0, 4, false), Some(("\u{fffd}".into(), 4)));
        assert_eq!(entity("&#x80;", 0, 6, false), Some(("€".into(), 6)));
        assert_eq!(
            entity("&#99999999999;", 0, 14, false),
            Some(("\u{fffd}".into(), 14))
        );
        assert_eq!(entity("&copy2024", 0, 9, false), Some(("©".into(), 5)));
        assert_eq!(entity("&copy2024", 0, 9, true), None);
        assert_eq!(entity("&bogus;", 0, 7, false), None);
        assert_eq!(entity("&amp;", 0, 3, false), None);
        assert_eq!(decode_attr("java&Tab;script&colon;x"), "java\tscript:x");
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_int(" 3x"), Some(3));
        assert_eq!(parse_int("-2"), Some(-2));
        assert_eq!(parse_int("x"), None);
        assert_eq!(parse_count("2", 1000), Some(2));
        assert_eq!(parse_count("2 onclick", 1000), None);
        assert_eq!(parse_count("99999", 1000), Some(1000));
    }
}
