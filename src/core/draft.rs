//! What a format parser hands to the resolver: the raw answer text (markers still in
//! it), the sources with the keys markers use for them, explicit spans, diagnostics.
//!
//! Every format parser in [`crate::core::formats`] builds a [`Draft`]; the resolver
//! ([`crate::core::resolve`]) turns it into an [`Answer`](crate::core::model::Answer).

use crate::core::markers::{Grammar, SourceKey};
use crate::core::model::{ContentKind, Diagnostic, Format, Location, Source};
use serde_json::{Map, Value};

/// A source as a format parser found it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DraftSource {
    /// The source; `number`, `cited` and `cite_count` are set by the resolver.
    pub source: Source,
    /// The keys markers use to name this source (`[3]` → `Num(3)`, a ref id → `Name`).
    pub keys: Vec<SourceKey>,
    /// The number the input gave it (kept with `numbering: "given"`).
    pub given_number: Option<u32>,
}

/// How an explicit span names a source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceRef {
    /// Index into [`Draft::sources`].
    Index(usize),
    /// A key, resolved like a marker's.
    Key(SourceKey),
}

/// A citation with explicit offsets: byte range into [`Draft::text`] (the parser has
/// already converted the input's unit with [`crate::core::offsets`]).
#[derive(Debug, Clone, PartialEq)]
pub struct DraftSpan {
    /// Start byte in the raw text.
    pub start: usize,
    /// End byte in the raw text (the marker stands here).
    pub end: usize,
    /// The supporting sources.
    pub sources: Vec<SourceRef>,
    /// Quoted source text, as given.
    pub cited_text: Option<String>,
    /// Confidence, as given.
    pub confidence: Option<Value>,
    /// Provider-specific location.
    pub location: Option<Location>,
}

impl DraftSpan {
    /// A span with just a range and sources.
    pub fn new(start: usize, end: usize, sources: Vec<SourceRef>) -> Self {
        DraftSpan {
            start,
            end,
            sources,
            cited_text: None,
            confidence: None,
            location: None,
        }
    }
}

/// The result of a format parser.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// Which format produced it.
    pub format: Format,
    /// How the text is rendered.
    pub content_kind: ContentKind,
    /// The raw answer text, markers still in it.
    pub text: String,
    /// The marker syntaxes to scan the text for; `None` when the format has no markers.
    pub grammar: Option<Grammar>,
    /// Sources in input order.
    pub sources: Vec<DraftSource>,
    /// Explicit citations.
    pub spans: Vec<DraftSpan>,
    /// Diagnostics; positions, if any, are byte ranges of the raw text.
    pub diagnostics: Vec<Diagnostic>,
    /// Sources the producer reported as used (`sources_used`, `[[USAGE:...]]`).
    pub used: Vec<SourceKey>,
    /// Fields of the input that belong to the answer as a whole (an envelope's `ok`,
    /// `stats`; a response's `id`, `model`, `usage`), kept untouched.
    pub metadata: Map<String, Value>,
}

impl Draft {
    /// An empty draft for `format` over `text`.
    pub fn new(format: Format, text: impl Into<String>) -> Self {
        Draft {
            format,
            content_kind: ContentKind::Markdown,
            text: text.into(),
            grammar: None,
            sources: Vec::new(),
            spans: Vec::new(),
            diagnostics: Vec::new(),
            used: Vec::new(),
            metadata: Map::new(),
        }
    }
}
