//! citekit's CommonMark parser: CommonMark with the GFM parts citekit renders (tables,
//! strikethrough, task lists, footnotes), as a list of events with their byte ranges in
//! the text, the events the answer's markdown renderer draws. It reads the text the way
//! pulldown-cmark does (a differential test holds it to pulldown-cmark, which stays a
//! dev-dependency), and weighs a fraction of it in the wasm: no table of pointers for
//! the HTML entities, one pass over lines for blocks, one over each leaf for inlines.
//!
//! It sits at the ground of `core` (it imports only the string, hash-map and Unicode helpers;
//! `tests/layers.rs` holds it there) so that everything else that must know the
//! markdown structure reads it: the marker scanner (`core::markers`) takes its line
//! recognizers (`lines`: fences, list markers, HTML block starts, ...) and span
//! recognizers (`spans`: backtick runs, raw HTML tags, autolinks), the stream's block
//! boundary its HTML block rule, and `tests/scanner_props.rs` holds the scanner's
//! protected ranges to its code and link ranges.

mod blocks;
mod entities;
mod inlines;
pub(crate) mod lines;
mod punct;
pub(crate) mod spans;

use std::borrow::Cow;
use std::ops::Range;

/// A table column's alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alignment {
    /// None given.
    None,
    /// `:--`
    Left,
    /// `:-:`
    Center,
    /// `--:`
    Right,
}

/// The start of an element.
#[derive(Debug, Clone, PartialEq)]
pub enum Tag<'a> {
    /// A paragraph (not drawn in tight lists).
    Paragraph,
    /// A heading of level 1 to 6.
    Heading(u8),
    /// A block quote.
    BlockQuote,
    /// A code block: fenced with its info string, or indented (`None`).
    CodeBlock(Option<Cow<'a, str>>),
    /// An HTML block (its lines come as [`Event::Html`]).
    HtmlBlock,
    /// A list: ordered with its start number, or bulleted.
    List(Option<u64>),
    /// A list item.
    Item,
    /// A footnote definition with its label.
    FootnoteDefinition(Cow<'a, str>),
    /// A table with its columns' alignments.
    Table(Vec<Alignment>),
    /// The header row.
    TableHead,
    /// A body row.
    TableRow,
    /// A cell.
    TableCell,
    /// `*x*`
    Emphasis,
    /// `**x**`
    Strong,
    /// `~~x~~`
    Strikethrough,
    /// A link: `email` for an email autolink (no `mailto:` in `dest`).
    Link {
        /// An email autolink.
        email: bool,
        /// The destination as written (escapes and entities resolved).
        dest: Cow<'a, str>,
        /// The title.
        title: Cow<'a, str>,
    },
    /// An image (its alt text comes as the events inside).
    Image {
        /// The source.
        dest: Cow<'a, str>,
        /// The title.
        title: Cow<'a, str>,
    },
}

/// The end of an element (each as the [`Tag`] it ends).
#[allow(missing_docs)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagEnd {
    Paragraph,
    Heading(u8),
    BlockQuote,
    CodeBlock,
    HtmlBlock,
    /// A list: ordered or not.
    List(bool),
    Item,
    FootnoteDefinition,
    Table,
    TableHead,
    TableRow,
    TableCell,
    Emphasis,
    Strong,
    Strikethrough,
    Link,
    Image,
}

/// One event of a parse.
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq)]
pub enum Event<'a> {
    Start(Tag<'a>),
    End(TagEnd),
    /// Text; borrowed when it is exactly the text of its range.
    Text(Cow<'a, str>),
    /// A code span's content.
    Code(Cow<'a, str>),
    /// A line of an HTML block.
    Html(Cow<'a, str>),
    /// An inline HTML tag.
    InlineHtml(Cow<'a, str>),
    /// `[^label]`
    FootnoteReference(Cow<'a, str>),
    SoftBreak,
    HardBreak,
    /// A thematic break.
    Rule,
    /// `[ ]` or `[x]` at the start of a list item.
    TaskListMarker(bool),
}

/// A reference definition (`[label]: dest "title"`): its normalized label
/// (`link_key`), destination and title. A footnote definition (`[^label]:`)
/// is `\u{1}` and its normalized label, with no destination or title.
pub type RefDef = (String, String, String);

/// The events of `text`, each with its byte range in `text`.
pub fn parse(text: &str) -> Vec<(Event<'_>, Range<usize>)> {
    parse_after(text, &[])
}

/// The events of `text` read as the rest of a document whose earlier blocks hold the
/// definitions `before`: runs, each sorted by label as [`definitions`] gives them, in
/// the order of the text. A link in `text` finds its label in the first run that has
/// it (a label's first definition wins), then in `text`'s own definitions. A
/// streaming view renders only its last blocks, after the definitions of the blocks
/// before them.
pub fn parse_after<'a>(text: &'a str, before: &[Vec<RefDef>]) -> Vec<(Event<'a>, Range<usize>)> {
    let doc = blocks::parse(text);
    let mut out = Vec::new();
    blocks::emit(&doc, before, text, inlines::Shape::Full, &mut out);
    out
}

/// A parse of a whole text for the marker scanner (`core::markers`), so that it finds
/// markers where this parser shows prose: the structure of the events, and what they
/// leave out.
pub(crate) struct Document<'a> {
    /// The block events of [`parse`] with their ranges; in each leaf, one text event
    /// over its content, then its code spans, raw HTML, links and images (start
    /// events with the whole range) and line breaks as [`parse`] finds them; every
    /// string empty, no emphasis. The scanner reads the text itself, and a parse that
    /// builds no strings and no event per word costs a fraction of a full one.
    pub events: Vec<(Event<'a>, Range<usize>)>,
    /// Where the reference definitions stand (runs of them, in the order of the
    /// text): no event covers them, as they are not drawn.
    pub definitions: Vec<Range<usize>>,
    /// Where the first block quote or list item nested past
    /// [`MAX_BLOCK_DEPTH`](crate::core::limits::MAX_BLOCK_DEPTH) was read as text.
    pub too_deep: Option<usize>,
}

/// The structure of `text` ([`Document`]), with the definitions' ranges and the
/// nesting limit's place.
pub(crate) fn parse_document(text: &str) -> Document<'_> {
    let mut doc = blocks::parse(text);
    let mut events = Vec::new();
    blocks::emit(&doc, &[], text, inlines::Shape::Lean, &mut events);
    Document {
        events,
        definitions: std::mem::take(&mut doc.def_ranges),
        too_deep: doc.too_deep,
    }
}

/// The reference and footnote definitions of `text` (read with the block pass only),
/// sorted by label, each label's first.
pub fn definitions(text: &str) -> Vec<RefDef> {
    blocks::parse(text).defs
}

/// Definitions in the order of the text sorted by label, each label's first kept (the
/// sort is stable).
pub(crate) fn sort_definitions(defs: &mut Vec<RefDef>) {
    defs.sort_by(|a, b| a.0.cmp(&b.0));
    defs.dedup_by(|later, first| later.0 == first.0);
}

/// A reference definition's key: its label normalized (`normalize_label`), with a
/// `\u{2}` before one that starts with `\u{1}` or `\u{2}`, so that no link label's
/// key is a footnote's (`\u{1}` and the footnote's label): `[\u{1}1]` is no link to
/// the footnote `[^1]`.
pub(crate) fn link_key(label: &str) -> String {
    let key = normalize_label(label);
    if matches!(key.as_bytes().first(), Some(1 | 2)) {
        format!("\u{2}{key}")
    } else {
        key
    }
}

/// A reference definition's label, normalized for matching: Unicode case folded,
/// inner whitespace runs as one space, trimmed.
pub(crate) fn normalize_label(label: &str) -> String {
    let mut out = String::new();
    for w in label
        .split([' ', '\t', '\n', '\r'])
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&crate::core::unicode::fold_case(w));
    }
    out
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod against_pulldown;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
