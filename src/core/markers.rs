//! The marker scanner (docs/markers.md): finds citation markers in answer text, outside
//! code, and yields them with byte ranges. It borrows its input and never fails.
//!
//! # What is a marker
//!
//! Each syntax counts only when its [`Grammar`] flag is on:
//!
//! - numeric: `[1]`, `[1][2]` (one [`Marker`] per bracket), `[1, 2]`, `[1,2]`, `[1-3]`,
//!   `[1–3]`, `[1#suffix]` (the suffix is ignored), `[[1]]`, and full-width `【1】`, `［1］`
//!   (lists and ranges inside them too, full-width digits and `，`/`、` allowed);
//! - sid: `[[S:1]]`, `[[S:1,3]]`, `[[S:2-4]]`, and the single-bracket `[S:1]` (generators
//!   that cite by sid also write `[S:n]` in a sources section, so it is read the same way);
//! - HTML: the whole `<sup class="cite" data-sids="1,3">[S:1,3]</sup>` element (any
//!   attribute order and quoting; keys from `data-sids`, else from the element's text);
//! - OpenAI private use: `\u{e200}cite\u{e202}turn0search0\u{e202}turn0news1\u{e201}`
//!   (also `filecite`; a trailing field that is not an id like `turn0search0`, such as
//!   `L8-L12`, is the locator), `\u{e203}` / `\u{e204}` span markers, and any other
//!   `\u{e200}name...\u{e201}` entity as [`MarkerKind::OpenaiOther`];
//! - GFM footnote references `[^label]` (key `Name("^label")`) and definitions
//!   `[^label]: text` at the start of a block, with their continuation lines (indented
//!   by four columns, or lazy paragraph lines), as in pulldown-cmark;
//! - citation labels: `[citation:3]`, `[citation:1, 2]` (numbers, key `Num`; no ranges),
//!   `[citation:node-id]` (any other label, key `Name`, which names the source with
//!   that id: LlamaIndex's node ids), doubled `[[citation:x]]`, the prefix in any
//!   case, several labels separated by commas; no whitespace or brackets inside a label;
//! - with [`Grammar::doc`] (the `azure` format only): `[doc1]` (key `Num(1)`, any case);
//! - with [`Grammar::linked`] (the `xai` format only): `[[1]](https://...)`, a doubled
//!   numeric marker with a link destination after it, is one marker (key `Num(1)`)
//!   whose range covers the destination; elsewhere it is a link labelled `[1]`;
//! - `[[USAGE:1,3,5]]`. When it stands alone on its line, the whole line (with its line
//!   break) is its range, so no empty line is left behind.
//!
//! A number that is 0 or above `MAX_MARKER_NUMBER`, a reversed range, a range longer
//! than `MAX_RANGE_LEN` or a marker naming more than `MAX_RANGE_LEN` sources is not a
//! marker: it stays text, with a `malformed-marker` info diagnostic (at most
//! [`MAX_MALFORMED_REPORTS`] of them). After `MAX_MARKERS` markers the rest stay text,
//! with one `limit-exceeded` diagnostic naming `max_markers`.
//!
//! # Where markers are not
//!
//! With [`TextSyntax::Markdown`] the text's structure is read by `core::commonmark`, the
//! CommonMark + GFM parser the renderer draws the answer from, so that markers stand
//! exactly where the answer shows prose (`tree.rs` walks its events). Not in: fenced
//! and indented code blocks, code spans, inline links and images `[1](url)`,
//! `[text [1]](url)`, `![1](x)` (text and destination), full, collapsed and shortcut
//! reference links whose reference is defined, autolinks `<https://...>`, inline HTML
//! tags, reference definitions (which the renderer does not draw), backslash-escaped
//! brackets `\[1]`. Two rules are the scanner's own, for what an LLM answer means: a
//! reference link whose text is itself a marker is markers (`[1]` stays a citation
//! marker even when `[1]: url` is defined, and `[1][2]` is two markers even when `[2]`
//! is; only `[text][ref]`, and an image `![1][ref]`, is a reference link), and a
//! paragraph line that starts with `[label]:` stays text (a sources line like
//! `[1]: Smith et al., 2020`, which is no definition, as the renderer shows it). Markers
//! in bold, italics, list items, table cells, block quotes, headings and HTML blocks
//! (between their tags, read with the parser's tag rule) are markers. Blocks nest at
//! most `MAX_BLOCK_DEPTH` (`core::limits`) deep (the parser's
//! limit); deeper ones are text of the innermost one, with one `limit-exceeded`
//! warning. A differential property test (`tests/scanner_props.rs`) holds the
//! scanner to the parser and to pulldown-cmark.
//!
//! With [`TextSyntax::Html`]: the inside of tags (except the `<sup class="cite">` marker
//! itself), and the contents of `<pre>`, `<code>`, `<script>`, `<style>`, `<textarea>`
//! and `<a>` elements. With [`TextSyntax::Plain`]: nowhere is code; footnote
//! definitions are read line by line (`plain.rs`).
//!
//! # Whitespace
//!
//! A marker's `range` takes the spaces and tabs before it when it follows a non-space
//! character on its line and is followed by the end of the text, a line break,
//! whitespace, punctuation (ASCII, general, CJK and full-width) or another marker
//! (docs/resolution.md section 1). `syntax` is the marker alone.
//!
//! # Cost
//!
//! A markdown scan parses the text once with `core::commonmark` (linear, one pass over
//! the lines and one over each leaf), then reads each run of prose once, jumping
//! between the few bytes that may start a marker; look-ahead (a marker's brackets, an
//! HTML block's tags, a private-use entity's end) is bounded or cached, so hostile
//! input stays linear.

use crate::core::limits::{MAX_MARKERS, MAX_MARKERS_NAME, MAX_MARKER_NUMBER, MAX_RANGE_LEN};
use crate::core::model::Diagnostic;
use crate::core::ordered_hash::{hash_bytes, mix, Key};
use crate::core::sort;
use std::ops::Range;

mod html;
mod plain;
mod runs;
pub(crate) mod syntax;
mod tree;

/// How a marker names a source. Numeric markers and sids share `Num`: `[3]` and
/// `[[S:3]]` both name the source keyed `Num(3)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SourceKey {
    /// A number or sid.
    Num(u64),
    /// A name: an OpenAI ref id (`turn0search0`) or a footnote label (`^note`).
    Name(String),
}

/// A key of the crate's maps: a number and a name never hash alike (`Num(3)` and
/// `Name("3")` are different sources).
impl Key for SourceKey {
    fn hash(&self) -> u64 {
        match self {
            SourceKey::Num(n) => mix(1, *n),
            SourceKey::Name(s) => mix(2, hash_bytes(s.as_bytes())),
        }
    }
}

/// Which marker syntaxes a scan looks for, and how the text is structured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grammar {
    /// `[1]`, `[1][2]`, `[1, 2]`, `[1-3]`, `[1–3]`, `[1#suffix]`, `[[1]]`, `【1】`, `［1］`.
    pub numeric: bool,
    /// `[[S:1]]`, `[[S:1,3]]`, `[[S:2-4]]`.
    pub sid: bool,
    /// `<sup class="cite" data-sids="1,3">[S:1,3]</sup>`.
    pub html_sup: bool,
    /// OpenAI private-use markers `\u{e200}cite\u{e202}turn0search0\u{e201}` and the span
    /// form `\u{e203}...\u{e204}`.
    pub openai: bool,
    /// GFM footnote references `[^1]` and definitions `[^1]: ...`.
    pub footnotes: bool,
    /// `[[USAGE:1,3,5]]`.
    pub usage: bool,
    /// `[citation:3]`, `[citation:node-id]`, `[[citation:x]]`: the label form models
    /// write when a prompt or a framework (LlamaIndex, DeepSeek-style prompts) asks
    /// for it.
    pub citation: bool,
    /// Azure OpenAI On Your Data's `[doc1]` (key `Num(1)`). Only the `azure` format
    /// reads it: elsewhere `[doc1]` may be the author's own text.
    pub doc: bool,
    /// xAI's inline citation `[[1]](https://...)`: a doubled numeric marker followed by
    /// a link destination is one marker (key `Num(1)`), not a link. Only the `xai`
    /// format reads it: elsewhere it is a link whose label is `[1]`.
    pub linked: bool,
    /// How code is recognized: markdown code, HTML `<code>`/`<pre>`, or none.
    pub syntax: TextSyntax,
}

/// The syntax of the text being scanned, which decides what counts as code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextSyntax {
    /// CommonMark + GFM: fenced and indented code blocks, inline code, links.
    Markdown,
    /// HTML: `<pre>`, `<code>`, `<script>`, `<style>` content and tags themselves.
    Html,
    /// Plain text: no code regions.
    Plain,
}

impl Grammar {
    /// Every syntax, markdown text.
    pub const ALL: Grammar = Grammar {
        numeric: true,
        sid: true,
        html_sup: true,
        openai: true,
        footnotes: true,
        usage: true,
        citation: true,
        doc: false,
        linked: false,
        syntax: TextSyntax::Markdown,
    };

    /// No syntax at all (used to build others).
    pub const NONE: Grammar = Grammar {
        numeric: false,
        sid: false,
        html_sup: false,
        openai: false,
        footnotes: false,
        usage: false,
        citation: false,
        doc: false,
        linked: false,
        syntax: TextSyntax::Markdown,
    };

    /// Numeric markers and footnotes in markdown.
    pub const NUMERIC: Grammar = Grammar {
        numeric: true,
        footnotes: true,
        ..Grammar::NONE
    };
}

/// What a marker is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MarkerKind {
    /// A numeric marker (`[1]`, `[1-3]`, `【1】`, ...).
    Numeric,
    /// A sid marker (`[[S:1,3]]`).
    Sid,
    /// An HTML `<sup class="cite" data-sids>` element.
    HtmlSup,
    /// A citation label (`[citation:3]`, `[[citation:node-id]]`).
    Label,
    /// An OpenAI private-use citation (`cite` or `filecite`), with its optional locator.
    OpenaiCite {
        /// Locator text after the ids (`L8-L12`), if any.
        locator: Option<String>,
    },
    /// Start of an OpenAI span (`\u{e203}`).
    OpenaiSpanOpen,
    /// End of an OpenAI span (`\u{e204}`).
    OpenaiSpanClose,
    /// Another private-use entity (`\u{e200}navlist...\u{e201}`): removed, no citation.
    OpenaiOther {
        /// The entity's name.
        name: String,
    },
    /// A GFM footnote reference `[^label]`; its key is `Name("^label")`, whatever the
    /// label (so `[^1]` and `[1]` never name the same source).
    FootnoteRef,
    /// A GFM footnote definition `[^label]: text` (with continuation lines); its key is
    /// `Name("^label")`, its `syntax` is `[^label]:`, and its range covers the whole
    /// definition including its line break (inside a block quote or list item, up to the
    /// end of its last line, so the container's next line keeps its prefix).
    FootnoteDef {
        /// Byte range of the definition's text (after `]:`), inside the marker range.
        body: Range<usize>,
    },
    /// `[[USAGE:...]]`: removed; its keys are recorded as used sources.
    Usage,
}

/// One marker found in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    /// Bytes removed from the text for this marker: the marker itself plus the
    /// horizontal whitespace it takes with it (`Paris [1].` removes ` [1]`).
    pub range: Range<usize>,
    /// Bytes of the marker syntax alone (`[1]`), inside `range`.
    pub syntax: Range<usize>,
    /// What it is.
    pub kind: MarkerKind,
    /// The sources it names, in order (ranges expanded).
    pub keys: Vec<SourceKey>,
}

/// The result of a scan.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Scan {
    /// Markers in text order, non-overlapping.
    pub markers: Vec<Marker>,
    /// Diagnostics (malformed markers, limits), byte positions in the scanned text.
    pub diagnostics: Vec<Diagnostic>,
}

/// Most `malformed-marker` diagnostics one scan reports; past it, one more says how many
/// were left out.
pub const MAX_MALFORMED_REPORTS: usize = 100;

/// Finds every marker of `grammar` in `text`, outside code.
pub fn scan(text: &str, grammar: &Grammar) -> Scan {
    let mut ctx = Ctx::new(text, *grammar, true);
    ctx.run();
    ctx.finish()
}

/// Byte ranges of `text` where nothing may be rewritten: code (blocks and inline),
/// link labels and destinations, autolinks, HTML tags, per `syntax`. Sorted, disjoint.
pub fn protected_regions(text: &str, syntax: TextSyntax) -> Vec<Range<usize>> {
    let mut ctx = Ctx::new(
        text,
        Grammar {
            syntax,
            ..Grammar::NONE
        },
        false,
    );
    ctx.run();
    merge_ranges(std::mem::take(&mut ctx.protected))
}

/// A GFM footnote definition found in the text's structure.
#[derive(Debug)]
struct FootDef {
    /// Where its removal starts (the line start at top level, else the `[`).
    start: usize,
    /// `[^label]:`.
    syntax: Range<usize>,
    /// Start of its text.
    body_start: usize,
    /// End of its last non-blank line.
    last_end: usize,
    /// Whether it is outside any block quote or list item.
    top: bool,
    /// The label, without `^`.
    label: Range<usize>,
}

/// The state of one scan.
struct Ctx<'a> {
    text: &'a str,
    b: &'a [u8],
    g: Grammar,
    /// Whether any marker syntax is looked for (false for [`protected_regions`], and
    /// once the marker limit is reached).
    want: bool,
    /// Whether footnote definitions become markers.
    want_defs: bool,
    protected: Vec<Range<usize>>,
    /// Markers found so far (their `range` still just their syntax), not yet checked
    /// against code found later.
    markers: Vec<Marker>,
    /// Marker-like text that is not a marker, and why.
    malformed: Vec<(Range<usize>, &'static str)>,
    diags: Vec<Diagnostic>,
    limit_hit: bool,
    /// End of the last malformed marker reported.
    malformed_until: usize,
    /// Bytes of look-ahead left before link tails and tags are only looked for nearby.
    budget: usize,
    foot: Vec<FootDef>,
}

impl<'a> Ctx<'a> {
    fn new(text: &'a str, g: Grammar, want_markers: bool) -> Self {
        let want = want_markers
            && (g.numeric || g.sid || g.html_sup || g.openai || g.footnotes || g.usage);
        Ctx {
            text,
            b: text.as_bytes(),
            g,
            want,
            want_defs: want_markers,
            protected: Vec::new(),
            markers: Vec::new(),
            malformed: Vec::new(),
            diags: Vec::new(),
            limit_hit: false,
            malformed_until: 0,
            budget: text.len().saturating_mul(4).saturating_add(1 << 16),
            foot: Vec::new(),
        }
    }

    fn run(&mut self) {
        match self.g.syntax {
            TextSyntax::Markdown => tree::run(self),
            TextSyntax::Plain => plain::run(self),
            TextSyntax::Html => html::run(self),
        }
    }

    fn protect(&mut self, start: usize, end: usize) {
        if start < end {
            self.protected.push(start..end);
        }
    }

    /// Records a marker, unless the limit is reached (then marker syntax stops counting).
    fn push_marker(&mut self, syntax: Range<usize>, kind: MarkerKind, keys: Vec<SourceKey>) {
        if self.limit_hit {
            return;
        }
        if self.markers.len() >= MAX_MARKERS {
            self.limit_hit = true;
            self.want = false;
            self.diags.push(
                Diagnostic::warning(
                    "limit-exceeded",
                    format!(
                        "more than `{MAX_MARKERS_NAME}` ({MAX_MARKERS}) markers; the rest stay text"
                    ),
                )
                .at(syntax.start, syntax.end),
            );
            return;
        }
        self.markers.push(Marker {
            range: syntax.clone(),
            syntax,
            kind,
            keys,
        });
    }

    fn push_malformed(&mut self, syntax: Range<usize>, why: &'static str) {
        // `[[S:0]]` is reported once, not again for its inner `[S:0]`.
        if syntax.start < self.malformed_until {
            return;
        }
        self.malformed_until = syntax.end;
        if self.malformed.len() < MAX_MARKERS {
            self.malformed.push((syntax, why));
        }
    }

    /// Takes `n` bytes of look-ahead from the budget; returns the look-ahead allowed
    /// for the next scan.
    fn lookahead(&self) -> usize {
        if self.budget > 0 {
            4096
        } else {
            128
        }
    }

    fn spend(&mut self, n: usize) {
        self.budget = self.budget.saturating_sub(n);
    }

    fn finish(mut self) -> Scan {
        let protected = merge_ranges(std::mem::take(&mut self.protected));
        let mut markers = std::mem::take(&mut self.markers);
        // Footnote definitions are markers even past the marker limit: they are sources.
        if self.g.footnotes && self.want_defs && !self.foot.is_empty() {
            for f in std::mem::take(&mut self.foot) {
                let end = f.last_end.max(f.body_start);
                let range_end = if f.top {
                    line_break_end(self.b, end)
                } else {
                    end
                };
                let label = self.text.get(f.label.clone()).unwrap_or("");
                markers.push(Marker {
                    range: f.start..range_end,
                    syntax: f.syntax,
                    kind: MarkerKind::FootnoteDef {
                        body: f.body_start..end,
                    },
                    keys: vec![SourceKey::Name(format!("^{label}"))],
                });
            }
        }
        if !markers.is_sorted_by_key(|m| m.syntax.start) {
            sort::sort_by_key(&mut markers, |m| (sort::pos(m.syntax.start), 0));
        }

        // Drop what overlaps code or an earlier marker (a footnote definition covers the
        // markers in its text).
        let mut pi = 0usize;
        let mut last_end = 0usize;
        markers.retain(|m| {
            let (s, e) = (m.syntax.start, m.syntax.end);
            while pi < protected.len() && protected[pi].end <= s {
                pi += 1;
            }
            if protected.get(pi).is_some_and(|p| p.start < e) || s < last_end {
                return false;
            }
            last_end = m.range.end.max(e);
            true
        });

        let mut malformed = std::mem::take(&mut self.malformed);
        sort::sort_by_key(&mut malformed, |m| (sort::pos(m.0.start), 0));
        let mut pi = 0usize;
        let mut mi = 0usize;
        let mut reported = 0usize;
        let mut skipped = 0usize;
        for (r, why) in malformed {
            while pi < protected.len() && protected[pi].end <= r.start {
                pi += 1;
            }
            while mi < markers.len() && markers[mi].range.end.max(markers[mi].syntax.end) <= r.start
            {
                mi += 1;
            }
            if protected.get(pi).is_some_and(|p| p.start < r.end)
                || markers.get(mi).is_some_and(|m| m.range.start < r.end)
            {
                continue;
            }
            if reported == MAX_MALFORMED_REPORTS {
                skipped += 1;
                continue;
            }
            reported += 1;
            let lit = self.text.get(r.clone()).unwrap_or("");
            self.diags.push(
                Diagnostic::info(
                    "malformed-marker",
                    format!(
                        "`{}` looks like a citation marker but {why}; kept as text",
                        crate::core::untrusted_text::escape_literal(lit)
                    ),
                )
                .at(r.start, r.end),
            );
        }
        if skipped > 0 {
            self.diags.push(Diagnostic::info(
                "malformed-marker",
                format!("{skipped} more malformed markers were not reported"),
            ));
        }
        absorb_whitespace(self.b, &mut markers);
        let mut diagnostics = self.diags;
        sort::sort_by_key(&mut diagnostics, |d| {
            (d.start.map_or(u64::MAX, sort::pos), 0)
        });
        Scan {
            markers,
            diagnostics,
        }
    }
}

/// Sorts ranges and merges the ones that overlap or touch.
fn merge_ranges(mut v: Vec<Range<usize>>) -> Vec<Range<usize>> {
    v.retain(|r| r.start < r.end);
    sort::sort_by_key(&mut v, |r| (sort::pos(r.start), 0));
    let mut out: Vec<Range<usize>> = Vec::with_capacity(v.len());
    for r in v {
        match out.last_mut() {
            Some(l) if r.start <= l.end => l.end = l.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// `end` moved past the line break that follows it, if one does.
fn line_break_end(b: &[u8], end: usize) -> usize {
    match b.get(end) {
        Some(b'\n') => end + 1,
        Some(b'\r') if b.get(end + 1) == Some(&b'\n') => end + 2,
        Some(b'\r') => end + 1,
        _ => end,
    }
}

/// The char starting at byte `i` (which must be a boundary), if any.
fn char_at(b: &[u8], i: usize) -> Option<char> {
    let lead = *b.get(i)?;
    let len = match lead {
        0x00..=0x7f => return Some(lead as char),
        0x80..=0xbf | 0xf8..=0xff => return None,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    };
    // Decoded by hand (the text is valid UTF-8): no `str::from_utf8` linked for it.
    let mut c = u32::from(lead & (0x7f >> len));
    for &x in b.get(i + 1..i + len)? {
        c = (c << 6) | u32::from(x & 0x3f);
    }
    char::from_u32(c)
}

/// Whether `c` ends a marker's word: punctuation after which the marker's leading space
/// can go (`Paris [1].` → `Paris.`).
pub(crate) fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation()
        || matches!(c,
            '\u{a1}'..='\u{bf}'
            | '\u{2010}'..='\u{2027}'
            | '\u{2030}'..='\u{205e}'
            | '\u{3001}'..='\u{303f}'
            | '\u{ff01}'..='\u{ff0f}'
            | '\u{ff1a}'..='\u{ff20}'
            | '\u{ff3b}'..='\u{ff40}'
            | '\u{ff5b}'..='\u{ff65}'
            | '\u{fe10}'..='\u{fe19}'
            | '\u{fe30}'..='\u{fe6b}')
}

/// Widens each marker's `range` over the spaces before it (and pandoc's superscript
/// carets around it), per docs/resolution.md 1.
fn absorb_whitespace(b: &[u8], markers: &mut [Marker]) {
    let mut prev_end = 0usize;
    for i in 0..markers.len() {
        let next_start = markers.get(i + 1).map(|m| m.syntax.start);
        let m = &mut markers[i];
        match m.kind {
            MarkerKind::FootnoteDef { .. } | MarkerKind::OpenaiSpanOpen => {}
            MarkerKind::Usage => {
                if let Some(r) = standalone_line(b, m.syntax.clone(), prev_end) {
                    m.range = r;
                } else {
                    absorb_one(b, m, prev_end, next_start);
                }
            }
            _ => absorb_one(b, m, prev_end, next_start),
        }
        prev_end = m.range.end;
    }
}

fn absorb_one(b: &[u8], m: &mut Marker, floor: usize, next_start: Option<usize>) {
    // Pandoc's superscript around a marker (`claim^[1]^`) goes with it: no `^^` left.
    if m.syntax.start > floor
        && b[m.syntax.start - 1] == b'^'
        && b.get(m.syntax.end) == Some(&b'^')
        && next_start != Some(m.syntax.end)
    {
        m.range = m.syntax.start - 1..m.syntax.end + 1;
    }
    let end = m.range.end;
    let followed = end >= b.len()
        || next_start == Some(end)
        || char_at(b, end).is_some_and(|c| c.is_whitespace() || is_punct(c));
    if !followed {
        return;
    }
    let mut s = m.range.start;
    while s > floor && matches!(b[s - 1], b' ' | b'\t') {
        s -= 1;
    }
    if s == m.range.start || s == 0 {
        return;
    }
    // The char before the spaces must be on the same line and not a space.
    let mut k = s - 1;
    while k > 0 && (b[k] & 0xc0) == 0x80 {
        k -= 1;
    }
    if char_at(b, k).is_some_and(|c| !c.is_whitespace()) {
        m.range.start = s;
    }
}

/// The whole line (with its line break) when `syntax` is alone on it.
fn standalone_line(b: &[u8], syntax: Range<usize>, floor: usize) -> Option<Range<usize>> {
    let mut s = syntax.start;
    while s > floor && matches!(b[s - 1], b' ' | b'\t') {
        s -= 1;
    }
    if s > 0 && b[s - 1] != b'\n' {
        return None;
    }
    let mut e = syntax.end;
    while e < b.len() && matches!(b[e], b' ' | b'\t') {
        e += 1;
    }
    if e < b.len() && !matches!(b[e], b'\n' | b'\r') {
        return None;
    }
    Some(s..line_break_end(b, e))
}

#[cfg(test)]
mod tests;
