//! The marker scanner (SPEC section 3): finds citation markers in answer text, outside
//! code, and yields them with byte ranges. It borrows its input and never fails.

use crate::core::model::Diagnostic;
use std::ops::Range;

/// How a marker names a source. Numeric markers and sids share `Num`: `[3]` and
/// `[[S:3]]` both name the source keyed `Num(3)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SourceKey {
    /// A number or sid.
    Num(u64),
    /// A name: an OpenAI ref id (`turn0search0`) or a footnote label (`^note`).
    Name(String),
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
    /// A GFM footnote reference `[^label]`; its key is `Name("^label")` (or `Num(n)` when
    /// the label is a number).
    FootnoteRef,
    /// A GFM footnote definition `[^label]: text` (with continuation lines); the range
    /// covers the whole definition including its line break.
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

/// Finds every marker of `grammar` in `text`, outside code.
pub fn scan(text: &str, grammar: &Grammar) -> Scan {
    let _ = (text, grammar);
    Scan::default()
}

/// Byte ranges of `text` where nothing may be rewritten: code (blocks and inline),
/// link labels and destinations, autolinks, HTML tags, per `syntax`. Sorted, disjoint.
pub fn protected_regions(text: &str, syntax: TextSyntax) -> Vec<Range<usize>> {
    let _ = (text, syntax);
    Vec::new()
}
