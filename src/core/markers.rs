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
//! With [`TextSyntax::Markdown`] (CommonMark + GFM, block structure read line by line as
//! pulldown-cmark does): fenced code blocks (``` and ~~~, also in list items and block
//! quotes; an unclosed fence runs to the end of its container), indented code blocks,
//! code spans (an unmatched backtick run is text), inline links and images `[1](url)`,
//! `[text [1]](url)`, `![1](x)` (label and destination), full and collapsed reference
//! links whose reference is defined, autolinks `<https://...>`, the inside of raw HTML
//! tags, backslash-escaped brackets `\[1]`, and reference definition lines
//! `[1]: https://...` (the whole line stays text; so does a sources line like
//! `[1]: Smith et al., 2020` that is no valid definition). A `[1]` elsewhere in the text
//! stays a citation marker even when `[1]: url` is defined: in an LLM answer `[1]` means
//! a citation. For the same reason `[1][2]` is two markers even when `[2]` is defined;
//! only `[text][ref]` (and an image `![1][ref]`) is a reference link. Markers in bold,
//! italics, list items, table cells (split at `|` first, as GFM does), block quotes,
//! headings and HTML blocks are markers. Containers nest at most 32 deep; deeper
//! markers are read as text of the innermost one. The block structure follows
//! pulldown-cmark (tables, task lists, footnotes), checked by a differential property
//! test (`tests/scanner_props.rs`).
//!
//! With [`TextSyntax::Html`]: the inside of tags (except the `<sup class="cite">` marker
//! itself), and the contents of `<pre>`, `<code>`, `<script>`, `<style>`, `<textarea>`
//! and `<a>` elements. With [`TextSyntax::Plain`]: nowhere is code.
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
//! One pass over the lines for the block structure, one over each paragraph for the
//! inline structure, jumping between the few bytes that matter; look-ahead (link tails,
//! HTML tags, closing fences and backticks) is bounded or cached, so hostile input stays
//! linear.

use crate::core::limits::{MAX_MARKERS, MAX_MARKERS_NAME, MAX_MARKER_NUMBER, MAX_RANGE_LEN};
use crate::core::map::{hash_bytes, mix, Key, Set as HSet};
use crate::core::model::Diagnostic;
use crate::core::sort;
use std::ops::Range;

pub(crate) mod block;
mod html;
pub(crate) mod inline;
pub(crate) mod syntax;

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

/// A GFM footnote definition found by the block pass.
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

/// State shared by the block and inline passes.
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
    /// The block nesting limit was reported.
    depth_warned: bool,
    /// End of the last malformed marker reported.
    malformed_until: usize,
    /// Bytes of look-ahead left before link tails and tags are only looked for nearby.
    budget: usize,
    /// Normalized labels of reference definitions (`[foo]: url`).
    defs: HSet<String>,
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
            depth_warned: false,
            malformed_until: 0,
            budget: text.len().saturating_mul(4).saturating_add(1 << 16),
            defs: HSet::new(),
            foot: Vec::new(),
        }
    }

    fn run(&mut self) {
        match self.g.syntax {
            TextSyntax::Markdown => {
                let runs = block::parse(self, true);
                for r in runs {
                    inline::run(self, r.start, r.end, true);
                }
            }
            TextSyntax::Plain => {
                let runs = block::parse(self, false);
                for r in runs {
                    inline::run(self, r.start, r.end, false);
                }
            }
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
                        crate::core::sanitize::escape_literal(lit)
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
mod tests {
    use super::*;

    /// A number and a name with the same digits are two keys of a map.
    #[test]
    fn source_keys_as_map_keys() {
        let mut keys: crate::core::map::Map<SourceKey, usize> = Default::default();
        keys.or_insert(SourceKey::Num(3), 1);
        keys.or_insert(SourceKey::Name("3".into()), 2);
        assert_eq!(keys.or_insert(SourceKey::Num(3), 9), &mut 1);
        assert_eq!(keys.get(&SourceKey::Name("3".into())), Some(&2));
    }

    #[test]
    fn char_at_decodes_as_str_does() {
        let s = "a\u{7f}\u{80}é\u{7ff}\u{800}€\u{ffff}\u{10000}😀\u{10ffff}z";
        for i in 0..=s.len() {
            let want = s
                .is_char_boundary(i)
                .then(|| s[i..].chars().next())
                .flatten();
            assert_eq!(char_at(s.as_bytes(), i), want, "at {i}");
        }
    }

    /// A marker in pandoc's superscript (`^[1]^`) takes its carets with it.
    #[test]
    fn superscript_carets_go_with_the_marker() {
        let text = "Claim^[1]^. Another ^[2]^ here. Bare ^[3] stays.";
        let s = scan(text, &Grammar::ALL);
        assert_eq!(removed(text, &s), "Claim. Another here. Bare ^ stays.");
    }

    /// Nesting past `max_block_depth` is said once, in a warning naming the limit; the
    /// text (and a marker in it) is still read.
    #[test]
    fn nesting_past_the_limit_is_reported_once() {
        for text in [
            format!(
                "{} deep [1]\n\n{} again [2]",
                "> ".repeat(50),
                "> ".repeat(50)
            ),
            format!("{}deep [1]", "- ".repeat(50)),
        ] {
            let s = scan(&text, &Grammar::ALL);
            let limits: Vec<_> = s
                .diagnostics
                .iter()
                .filter(|d| d.code == "limit-exceeded")
                .collect();
            assert_eq!(limits.len(), 1, "{text}: {:?}", s.diagnostics);
            assert!(
                limits[0].message.contains("`max_block_depth` (32)"),
                "{:?}",
                limits[0]
            );
            assert!(!s.markers.is_empty(), "{text}");
        }
        let shallow = format!("{} fine [1]", "> ".repeat(10));
        assert!(scan(&shallow, &Grammar::ALL).diagnostics.is_empty());
    }

    /// The text with every marker range removed.
    fn removed(text: &str, s: &Scan) -> String {
        let mut out = String::new();
        let mut last = 0;
        for m in &s.markers {
            out.push_str(&text[last..m.range.start]);
            last = m.range.end;
        }
        out.push_str(&text[last..]);
        out
    }

    /// (marker syntax text, keys as strings) for each marker.
    fn found(text: &str, g: &Grammar) -> Vec<(String, Vec<String>)> {
        scan(text, g)
            .markers
            .iter()
            .map(|m| {
                let keys = m
                    .keys
                    .iter()
                    .map(|k| match k {
                        SourceKey::Num(n) => n.to_string(),
                        SourceKey::Name(s) => s.clone(),
                    })
                    .collect();
                (text[m.syntax.clone()].to_string(), keys)
            })
            .collect()
    }

    fn syntaxes(text: &str) -> Vec<String> {
        found(text, &Grammar::ALL)
            .into_iter()
            .map(|f| f.0)
            .collect()
    }

    fn stripped(text: &str) -> String {
        removed(text, &scan(text, &Grammar::ALL))
    }

    fn keys(text: &str) -> Vec<Vec<String>> {
        found(text, &Grammar::ALL)
            .into_iter()
            .map(|f| f.1)
            .collect()
    }

    fn codes(text: &str) -> Vec<String> {
        scan(text, &Grammar::ALL)
            .diagnostics
            .into_iter()
            .map(|d| d.code)
            .collect()
    }

    // --- syntaxes ---

    #[test]
    fn numeric_forms() {
        assert_eq!(keys("A [1]."), vec![vec!["1"]]);
        assert_eq!(keys("A [1][2]."), vec![vec!["1"], vec!["2"]]);
        assert_eq!(
            keys("A [1, 2] b [3,4]"),
            vec![vec!["1", "2"], vec!["3", "4"]]
        );
        assert_eq!(keys("A [2-4]."), vec![vec!["2", "3", "4"]]);
        assert_eq!(keys("A [2–4]."), vec![vec!["2", "3", "4"]]);
        assert_eq!(keys("A [1-3, 7]."), vec![vec!["1", "2", "3", "7"]]);
        assert_eq!(keys("A [3#page=2]."), vec![vec!["3"]]);
        assert_eq!(keys("A [[5]]."), vec![vec!["5"]]);
        assert_eq!(syntaxes("A [[5]]."), vec!["[[5]]"]);
        assert_eq!(keys("東京【1】。"), vec![vec!["1"]]);
        assert_eq!(keys("東京［2］。"), vec![vec!["2"]]);
        assert_eq!(keys("東京【１，３】"), vec![vec!["1", "3"]]);
        assert_eq!(keys("東京【1-3】"), vec![vec!["1", "2", "3"]]);
        assert_eq!(keys("東京【１－２】"), vec![vec!["1", "2"]]);
        assert!(keys("A [a] [1a] [ 1] [1,] [-1] [1.5]").is_empty());
    }

    #[test]
    fn numeric_only_when_enabled() {
        let g = Grammar {
            sid: true,
            ..Grammar::NONE
        };
        assert!(found("A [1] 【2】", &g).is_empty());
        assert_eq!(found("A [[S:1]] [1]", &g).len(), 1);
        assert!(found("A [1]", &Grammar::NONE).is_empty());
    }

    #[test]
    fn sid_forms() {
        assert_eq!(keys("A [[S:1]]."), vec![vec!["1"]]);
        assert_eq!(keys("A [[S:1,3]]."), vec![vec!["1", "3"]]);
        assert_eq!(keys("A [[S:2-4]]."), vec![vec!["2", "3", "4"]]);
        assert_eq!(keys("A [[S: 1, 3]]."), vec![vec!["1", "3"]]);
        assert_eq!(keys("A [[S:1, S:3]]."), vec![vec!["1", "3"]]);
        assert_eq!(keys("A [S:7]."), vec![vec!["7"]]);
        let s = scan("A [[S:1]].", &Grammar::ALL);
        assert_eq!(s.markers[0].kind, MarkerKind::Sid);
        assert!(keys("A [[S:]] [[S:x]]").is_empty());
    }

    /// `[citation:x]` and `[[citation:x]]` (DeepSeek-style prompts, LlamaIndex's
    /// `CitationQueryEngine` variants) stayed raw text on the page.
    #[test]
    fn citation_labels_were_raw_text() {
        assert_eq!(keys("A [citation:1]."), vec![vec!["1"]]);
        assert_eq!(
            keys("A [citation:1][citation:3]."),
            vec![vec!["1"], vec!["3"]]
        );
        assert_eq!(keys("A [Citation: 2, 4]."), vec![vec!["2", "4"]]);
        // No ranges: `2-3` is a label like a node id's.
        assert_eq!(keys("A [citation:2-3]."), vec![vec!["2-3"]]);
        assert_eq!(keys("A [[citation:5]]."), vec![vec!["5"]]);
        let id = "3f2a1c9e-8b7d-4e6f-a5b4-c3d2e1f0a9b8";
        assert_eq!(keys(&format!("A [citation:{id}].")), vec![vec![id]]);
        assert_eq!(keys(&format!("A [[citation:{id}]].")), vec![vec![id]]);
        assert_eq!(keys("A [citation:doc_2, 7]."), vec![vec!["doc_2", "7"]]);
        let t = format!("A [citation:{id}].");
        let s = scan(&t, &Grammar::ALL);
        assert_eq!(s.markers[0].kind, MarkerKind::Label);
        assert_eq!(&t[s.markers[0].range.clone()], format!(" [citation:{id}]"));
        assert!(matches!(s.markers[0].keys[0], SourceKey::Name(_)));
        assert_eq!(
            scan("A [citation:1].", &Grammar::ALL).markers[0].keys,
            vec![SourceKey::Num(1)]
        );
        // Not labels: nothing after the prefix, a space inside a label, code, a link.
        for t in [
            "A [citation:] b",
            "A [citation:two words] b",
            "A `[citation:1]` b",
            "A [citation:1](https://x.example/) b",
        ] {
            assert!(keys(t).is_empty(), "{t}");
        }
        // Bounded as numeric markers are.
        assert!(keys("A [citation:0].").is_empty());
        // Only when the grammar asks for them.
        let g = Grammar {
            citation: false,
            ..Grammar::ALL
        };
        assert!(scan("A [citation:x1].", &g).markers.is_empty());
    }

    /// Azure's `[doc1]` and xAI's `[[1]](url)` are read only where their formats ask.
    #[test]
    fn doc_and_linked_markers_only_when_asked() {
        let g = Grammar {
            doc: true,
            ..Grammar::ALL
        };
        let s = scan("Paris is big [doc1][DOC2]. See [doc] and `[doc3]`.", &g);
        let keys: Vec<&[SourceKey]> = s.markers.iter().map(|m| m.keys.as_slice()).collect();
        assert_eq!(
            keys,
            vec![&[SourceKey::Num(1)][..], &[SourceKey::Num(2)][..]]
        );
        assert!(keys_of("Paris [doc1].", &Grammar::ALL).is_empty());
        let g = Grammar {
            linked: true,
            ..Grammar::ALL
        };
        let t = "Grok is by xAI [[1]](https://x.ai/company). A [link](https://a.example/).";
        let s = scan(t, &g);
        assert_eq!(s.markers.len(), 1);
        assert_eq!(
            &t[s.markers[0].range.clone()],
            " [[1]](https://x.ai/company)"
        );
        assert_eq!(s.markers[0].keys, vec![SourceKey::Num(1)]);
        // Elsewhere it is a link labelled `[1]`.
        assert!(scan(t, &Grammar::ALL).markers.is_empty());
    }

    fn keys_of(text: &str, g: &Grammar) -> Vec<Vec<SourceKey>> {
        scan(text, g).markers.into_iter().map(|m| m.keys).collect()
    }

    #[test]
    fn html_sup() {
        let t = r#"Paris<sup class="cite" data-sids="1,3">[S:1,3]</sup> is big."#;
        let s = scan(t, &Grammar::ALL);
        assert_eq!(s.markers.len(), 1);
        assert_eq!(s.markers[0].kind, MarkerKind::HtmlSup);
        assert_eq!(
            &t[s.markers[0].syntax.clone()],
            r#"<sup class="cite" data-sids="1,3">[S:1,3]</sup>"#
        );
        assert_eq!(keys(t), vec![vec!["1", "3"]]);
        let t = "A <SUP data-sids='2-3' class='x cite'>x</SUP>.";
        assert_eq!(keys(t), vec![vec!["2", "3"]]);
        let t = "A <sup class=cite>[S:4]</sup>.";
        assert_eq!(keys(t), vec![vec!["4"]]);
        assert!(keys("A <sup>1</sup> <sup class=\"note\" data-sids=\"1\">1</sup>").is_empty());
        // In HTML text too.
        let g = Grammar {
            html_sup: true,
            syntax: TextSyntax::Html,
            ..Grammar::NONE
        };
        let t = r#"<p>Paris <sup class="cite" data-sids="2">[S:2]</sup>.</p>"#;
        let s = scan(t, &g);
        assert_eq!(s.markers.len(), 1);
        assert_eq!(removed(t, &s), "<p>Paris.</p>");
    }

    #[test]
    fn openai_private_use() {
        let t = "Paris \u{e200}cite\u{e202}turn0search0\u{e202}turn0news1\u{e201}.";
        let s = scan(t, &Grammar::ALL);
        assert_eq!(s.markers.len(), 1);
        assert_eq!(s.markers[0].kind, MarkerKind::OpenaiCite { locator: None });
        assert_eq!(keys(t), vec![vec!["turn0search0", "turn0news1"]]);
        assert_eq!(removed(t, &s), "Paris.");
        let t = "See \u{e200}filecite\u{e202}turn0file0\u{e202}L8-L12\u{e201} now";
        let s = scan(t, &Grammar::ALL);
        assert_eq!(
            s.markers[0].kind,
            MarkerKind::OpenaiCite {
                locator: Some("L8-L12".into())
            }
        );
        assert_eq!(keys(t), vec![vec!["turn0file0"]]);
        let t = "\u{e203}Paris is big\u{e204}\u{e200}cite\u{e202}turn0search1\u{e201}.";
        let s = scan(t, &Grammar::ALL);
        let kinds: Vec<_> = s.markers.iter().map(|m| m.kind.clone()).collect();
        assert_eq!(kinds[0], MarkerKind::OpenaiSpanOpen);
        assert_eq!(kinds[1], MarkerKind::OpenaiSpanClose);
        assert_eq!(removed(t, &s), "Paris is big.");
        let t = "Go \u{e200}navlist\u{e202}Cities\u{e202}turn0search0\u{e201} now";
        let s = scan(t, &Grammar::ALL);
        assert_eq!(
            s.markers[0].kind,
            MarkerKind::OpenaiOther {
                name: "navlist".into()
            }
        );
        assert!(s.markers[0].keys.is_empty());
        // Unclosed: text.
        assert!(keys("A \u{e200}cite\u{e202}turn0search0 and more").is_empty());
        assert!(keys("A \u{e200}cite\u{e200}cite\u{e202}x\u{e201}").len() == 1);
    }

    #[test]
    fn footnotes() {
        let t = "Paris is big[^note].\n\n[^note]: The atlas, https://a.example/x\n";
        let s = scan(t, &Grammar::ALL);
        assert_eq!(s.markers.len(), 2);
        assert_eq!(s.markers[0].kind, MarkerKind::FootnoteRef);
        assert_eq!(s.markers[0].keys, vec![SourceKey::Name("^note".into())]);
        let d = &s.markers[1];
        assert_eq!(d.keys, vec![SourceKey::Name("^note".into())]);
        assert_eq!(&t[d.syntax.clone()], "[^note]:");
        assert_eq!(
            &t[d.range.clone()],
            "[^note]: The atlas, https://a.example/x\n"
        );
        match &d.kind {
            MarkerKind::FootnoteDef { body } => {
                assert_eq!(&t[body.clone()], "The atlas, https://a.example/x")
            }
            k => panic!("{k:?}"),
        }
        assert_eq!(removed(t, &s), "Paris is big.\n\n");
    }

    #[test]
    fn footnote_continuation_lines() {
        let t =
            "A[^1].\n\n[^1]: First line\n    second line\nlazy line\n\n    more para\n\nAfter [2].";
        let s = scan(t, &Grammar::ALL);
        let d = s
            .markers
            .iter()
            .find(|m| matches!(m.kind, MarkerKind::FootnoteDef { .. }))
            .unwrap();
        assert_eq!(
            &t[d.range.clone()],
            "[^1]: First line\n    second line\nlazy line\n\n    more para\n"
        );
        assert_eq!(removed(t, &s), "A.\n\n\nAfter.");
        // A marker inside a definition belongs to it.
        let t = "[^a]: See [1] and `[2]`\n";
        let s = scan(t, &Grammar::ALL);
        assert_eq!(s.markers.len(), 1);
    }

    #[test]
    fn usage() {
        let t = "Answer.\n[[USAGE:1,3,5]]\nMore.";
        let s = scan(t, &Grammar::ALL);
        assert_eq!(s.markers[0].kind, MarkerKind::Usage);
        assert_eq!(keys(t), vec![vec!["1", "3", "5"]]);
        assert_eq!(removed(t, &s), "Answer.\nMore.");
        assert_eq!(stripped("Answer [[USAGE:2]]."), "Answer.");
        assert_eq!(stripped("Answer.\n\n[[USAGE:2]]"), "Answer.\n\n");
    }

    // --- ranges and malformed ---

    #[test]
    fn malformed_numbers_stay_text() {
        for t in [
            "A [0].",
            "A [12345].",
            "A [3-1].",
            "A [1-200].",
            "A [[S:0]].",
        ] {
            assert!(syntaxes(t).is_empty(), "{t}");
            assert_eq!(codes(t), vec!["malformed-marker"], "{t}");
            assert_eq!(stripped(t), t);
        }
        assert_eq!(keys("A [9999]"), vec![vec!["9999"]]);
        assert_eq!(keys("A [1-100]")[0].len(), 100);
    }

    #[test]
    fn malformed_in_link_is_silent() {
        assert!(codes("See [12345](https://x.example).").is_empty());
    }

    #[test]
    fn marker_limit() {
        let t = "[1]".repeat(MAX_MARKERS + 5);
        let s = scan(&t, &Grammar::ALL);
        assert_eq!(s.markers.len(), MAX_MARKERS);
        let lim: Vec<_> = s
            .diagnostics
            .iter()
            .filter(|d| d.code == "limit-exceeded")
            .collect();
        assert_eq!(lim.len(), 1);
        assert!(lim[0].message.contains("max_markers"));
    }

    #[test]
    fn malformed_reports_are_capped() {
        let t = "[0] ".repeat(500);
        let s = scan(&t, &Grammar::ALL);
        assert_eq!(s.diagnostics.len(), MAX_MALFORMED_REPORTS + 1);
    }

    // --- whitespace ---

    #[test]
    fn whitespace_absorption() {
        assert_eq!(stripped("Paris [1]."), "Paris.");
        assert_eq!(stripped("Paris [1] is"), "Paris is");
        assert_eq!(stripped("Paris [1][2],"), "Paris,");
        assert_eq!(stripped("Paris [1] [2]."), "Paris.");
        assert_eq!(stripped("Paris [1]"), "Paris");
        assert_eq!(stripped("Paris [1]\nNext"), "Paris\nNext");
        assert_eq!(stripped("Paris\t[1]!"), "Paris!");
        assert_eq!(stripped("Paris [1]is"), "Paris is");
        assert_eq!(stripped("Paris[1] is"), "Paris is");
        assert_eq!(stripped("  [1] Paris"), "   Paris");
        assert_eq!(stripped("[1] Paris"), " Paris");
        assert_eq!(stripped("東京 【1】。"), "東京。");
        assert_eq!(stripped("東京 【1】」"), "東京」");
        assert_eq!(stripped("Paris [1]”"), "Paris”");
        assert_eq!(stripped("Paris 🎉 [1]."), "Paris 🎉.");
        assert_eq!(stripped("**Paris [1]**"), "**Paris**");
        let s = scan("Paris [1].", &Grammar::ALL);
        assert_eq!(s.markers[0].range, 5..9);
        assert_eq!(s.markers[0].syntax, 6..9);
    }

    // --- code and links ---

    #[test]
    fn fenced_code() {
        let t = "A [1].\n\n```\nx [2]\n```\n\nB [3].";
        assert_eq!(syntaxes(t), vec!["[1]", "[3]"]);
        let t = "~~~~\n[1]\n~~~\n[2]\n~~~~\nB [3]";
        assert_eq!(syntaxes(t), vec!["[3]"]);
        let t = "```\n[1]\n"; // unclosed runs to the end
        assert!(syntaxes(t).is_empty());
        let t = "- item\n  ```\n  [1]\n  ```\n- [2] item";
        assert_eq!(syntaxes(t), vec!["[2]"]);
        let t = "> ```\n> [1]\n> ```\n> B [2]";
        assert_eq!(syntaxes(t), vec!["[2]"]);
        // The quote ends, and so does its fence.
        let t = "> ```\n> [1]\n\nB [2]";
        assert_eq!(syntaxes(t), vec!["[2]"]);
        // Backtick fence info may not hold backticks: this is inline code.
        let t = "``` a`b [1]";
        assert_eq!(syntaxes(t), vec!["[1]"]);
        let t = "```rust\nlet a = v[1];\n```\nDone [2].";
        assert_eq!(syntaxes(t), vec!["[2]"]);
    }

    #[test]
    fn indented_code() {
        let t = "Text [1].\n\n    code [2]\n\nMore [3].";
        assert_eq!(syntaxes(t), vec!["[1]", "[3]"]);
        let t = "\tcode [2]\nMore [3].";
        assert_eq!(syntaxes(t), vec!["[3]"]);
        // A lazy paragraph continuation is not code.
        let t = "Text [1]\n    still text [2]";
        assert_eq!(syntaxes(t), vec!["[1]", "[2]"]);
        // List item content is not code.
        let t = "- item\n\n    para [2]";
        assert_eq!(syntaxes(t), vec!["[2]"]);
        let t = "- item\n\n        code [2]";
        assert!(syntaxes(t).is_empty());
    }

    #[test]
    fn inline_code() {
        assert_eq!(syntaxes("Use `a[1]` here [2]."), vec!["[2]"]);
        assert_eq!(syntaxes("Use ``a ` [1]`` here [2]."), vec!["[2]"]);
        assert_eq!(syntaxes("Odd ` tick [1]."), vec!["[1]"]);
        assert_eq!(syntaxes("Multi `line\n[1]` end [2]"), vec!["[2]"]);
        assert_eq!(syntaxes("Esc \\`[1]` x"), vec!["[1]"]);
        assert_eq!(syntaxes("`a` [1] `b`"), vec!["[1]"]);
    }

    #[test]
    fn links_and_images() {
        assert!(syntaxes("[1](https://x.example)").is_empty());
        assert!(syntaxes("[see [1]](https://x.example)").is_empty());
        assert!(syntaxes("![1](x.png)").is_empty());
        assert_eq!(syntaxes("Wow![1]"), vec!["[1]"]);
        assert_eq!(syntaxes("A [1] (see below)"), vec!["[1]"]);
        assert_eq!(syntaxes("[x](https://a.example/[1]) [2]"), vec!["[2]"]);
        assert!(syntaxes("<https://a.example/[1]>").is_empty());
        assert!(syntaxes("<a title=\"[1]\">x</a>").is_empty());
        assert_eq!(syntaxes("<b>bold [1]</b>"), vec!["[1]"]);
        assert_eq!(syntaxes("\\[1] and [2]"), vec!["[2]"]);
        assert_eq!(syntaxes("[[1]](u)"), Vec::<String>::new());
    }

    #[test]
    fn reference_definitions() {
        // The definition line stays text; `[1]` elsewhere stays a citation marker.
        let t = "Paris [1].\n\n[1]: https://a.example\n";
        assert_eq!(syntaxes(t), vec!["[1]"]);
        assert_eq!(stripped(t), "Paris.\n\n[1]: https://a.example\n");
        // `[1][2]` stays two markers even when both are defined.
        let t = "Paris [1][2].\n\n[1]: https://a.example\n[2]: https://b.example\n";
        assert_eq!(syntaxes(t), vec!["[1]", "[2]"]);
        // A full reference link with a defined reference is a link.
        let t = "See [the atlas][1] now [2].\n\n[1]: https://a.example\n";
        assert_eq!(syntaxes(t), vec!["[2]"]);
        // Undefined: text, and the `[1]` is a marker.
        let t = "See [the atlas][1] now.";
        assert_eq!(syntaxes(t), vec!["[1]"]);
        let t = "See [atlas] [2].\n\n[atlas]: https://a.example\n";
        assert_eq!(syntaxes(t), vec!["[2]"]);
        // A sources line that is not a valid definition stays text too.
        let t = "Paris [1].\n\nSources:\n[1]: Smith et al., 2020\n[2]: https://b.example\n";
        assert_eq!(syntaxes(t), vec!["[1]"]);
        // A definition ends its paragraph's start: code spans begin after it.
        let t = "[r]: https://r.example\n`[1]` [2]";
        assert_eq!(syntaxes(t), vec!["[2]"]);
        // Labels match under Unicode case folding, as in CommonMark and pulldown-cmark
        // (`Straße` and `STRASSE` are one label; lowercasing alone keeps them apart).
        let t = "[see [1]][STRASSE] [2]\n\n[Straße]: https://a.example\n";
        assert_eq!(syntaxes(t), vec!["[2]"]);
        let links = crate::core::commonmark::parse(t)
            .iter()
            .filter(|(e, _)| {
                matches!(
                    e,
                    crate::core::commonmark::Event::Start(
                        crate::core::commonmark::Tag::Link { .. }
                    )
                )
            })
            .count();
        assert_eq!(links, 1, "the renderer's parser reads it as a link too");
    }

    #[test]
    fn task_lists() {
        let t = "- [ ] todo [1]\n- [x] done [2]";
        assert_eq!(syntaxes(t), vec!["[1]", "[2]"]);
    }

    #[test]
    fn markers_in_markup() {
        assert_eq!(syntaxes("**bold [1]** _it [2]_"), vec!["[1]", "[2]"]);
        assert_eq!(syntaxes("# Head [1]"), vec!["[1]"]);
        assert_eq!(syntaxes("> quote [1]"), vec!["[1]"]);
        assert_eq!(syntaxes("1. item [1]\n2. item [2]"), vec!["[1]", "[2]"]);
        let t = "| a | b |\n|---|---|\n| x [1] | `[2]` |\n| y [3] | z |";
        assert_eq!(syntaxes(t), vec!["[1]", "[3]"]);
    }

    #[test]
    fn table_cells_split_code_spans() {
        // A pipe ends a cell even inside backticks, as in GFM.
        let t = "| a | b |\n|---|---|\n| `x | `[1]` |";
        assert!(syntaxes(t).is_empty());
    }

    #[test]
    fn html_text_syntax() {
        let g = Grammar {
            numeric: true,
            syntax: TextSyntax::Html,
            ..Grammar::NONE
        };
        let t = "<p>A [1]</p><pre>[2]</pre><code>[3]</code><script>x[4]</script>\
                 <style>[5]</style><a href=\"#\">[6]</a><p title=\"[7]\">B [8]</p>";
        let got: Vec<_> = found(t, &g).into_iter().map(|f| f.0).collect();
        assert_eq!(got, vec!["[1]", "[8]"]);
        let r = protected_regions(t, TextSyntax::Html);
        assert!(r.windows(2).all(|w| w[0].end < w[1].start));
    }

    #[test]
    fn plain_text_syntax() {
        let g = Grammar {
            numeric: true,
            syntax: TextSyntax::Plain,
            ..Grammar::NONE
        };
        let t = "Code `x[1]` and\n    [2] and [3](u)";
        assert_eq!(found(t, &g).len(), 3);
        assert!(protected_regions(t, TextSyntax::Plain).is_empty());
    }

    #[test]
    fn protected_regions_markdown() {
        let t = "Use `MKT-1` or [MKT-2](https://x.example) or <https://y.example>.\n\n```\nMKT-3\n```\n";
        let r = protected_regions(t, TextSyntax::Markdown);
        let texts: Vec<&str> = r.iter().map(|r| &t[r.clone()]).collect();
        assert_eq!(
            texts,
            vec![
                "`MKT-1`",
                "[MKT-2](https://x.example)",
                "<https://y.example>",
                "```\nMKT-3\n```"
            ]
        );
    }

    #[test]
    fn crlf_lines() {
        let t = "A [1].\r\n\r\n```\r\n[2]\r\n```\r\nB [3].\r\n";
        assert_eq!(syntaxes(t), vec!["[1]", "[3]"]);
        let t = "A[^1].\r\n\r\n[^1]: Note\r\n\r\nB";
        let s = scan(t, &Grammar::ALL);
        assert_eq!(removed(t, &s), "A.\r\n\r\n\r\nB");
    }

    #[test]
    fn hostile_inputs_are_fast_and_safe() {
        let n = 20_000;
        for t in [
            "[".repeat(n),
            "]".repeat(n),
            "`".repeat(n),
            "` ``".repeat(n / 4),
            "[a](".repeat(n),
            "[a](x".repeat(n),
            "<a b=\"".repeat(n),
            "<!--".repeat(n),
            "\u{e200}cite".repeat(n),
            "【1".repeat(n),
            "> - ".repeat(n),
            "- ".repeat(n) + "x",
            "[^a]:\n".repeat(n),
            "|-".repeat(n),
            "[[".repeat(n) + &"]]".repeat(n),
            "![[".repeat(n),
        ] {
            let start = std::time::Instant::now();
            let s = scan(&t, &Grammar::ALL);
            let _ = protected_regions(&t, TextSyntax::Markdown);
            let _ = protected_regions(&t, TextSyntax::Html);
            assert!(
                start.elapsed().as_secs_f64() < 5.0,
                "slow on {:?}",
                &t[..20.min(t.len())]
            );
            drop(s);
        }
    }
}
