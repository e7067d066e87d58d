//! The normalized model every input format is parsed into (docs/formats.md, docs/resolution.md).
//!
//! Offsets inside Rust are byte ranges into [`Answer::text`]; they are converted
//! to the caller's unit only at the edges ([`crate::core::offsets`]).

use crate::core::text_map::TextMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The input formats citekit understands (docs/formats.md, a section each). Their
/// names, the list of them and what reads each are the format registry's
/// (`core::formats::registry`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// `{sources, references}` with UTF-16 spans over the plain answer.
    Stored,
    /// A fast LLM's `{citations:[{claim,sourceIndex,confidence}]}` plus sources.
    Posthoc,
    /// `[1]` markers with `{"1": {text, source, title, score, metadata}}`.
    CitationMap,
    /// A server-sent event stream of tokens, sources and a citation map.
    Sse,
    /// `[n]` markers with a numbered list of tool metadata.
    Scintilla,
    /// `sid` sources with `[[S:n]]`, `<sup class="cite">` or a `_citations` sidecar.
    Canonical,
    /// A citation block `{text, sources:[{title,url,citedText,provider,location}]}`.
    Payload,
    /// Anthropic Messages API content blocks with `citations`.
    Anthropic,
    /// OpenAI Responses API `output_text` annotations, or the private-use marker grammar.
    Openai,
    /// Gemini `groundingMetadata` (UTF-8 byte offsets).
    Gemini,
    /// Perplexity chat completion with `citations` and `search_results`.
    Perplexity,
    /// The Vercel AI SDK's `UIMessage` (or its parts), or its UI message stream.
    #[serde(rename = "ai-sdk")]
    AiSdk,
    /// Cohere Chat v2: `message.content` text with `message.citations` spans.
    Cohere,
    /// AWS Bedrock Converse: content blocks with `citationsContent` (the claim is the span).
    #[serde(rename = "bedrock")]
    BedrockConverse,
    /// AWS Bedrock Knowledge Bases `RetrieveAndGenerate`: `output.text` with citation spans.
    #[serde(rename = "bedrock-kb")]
    BedrockKb,
    /// Azure OpenAI "On Your Data": `[doc1]` markers naming `message.context.citations`.
    Azure,
    /// Mistral: `text` and `reference` content chunks, or the Conversations API's
    /// `tool_reference` chunks.
    Mistral,
    /// xAI (Grok): inline `[[1]](url)` citations and the response's `citations` urls.
    Xai,
    /// LlamaIndex: `[citation:<node_id>]` markers with `source_nodes` or chat-ui's
    /// `sources` annotation.
    Llamaindex,
    /// LangChain message content blocks with `citation` annotations.
    Langchain,
    /// A markdown answer with no citation data of its own (GFM footnotes still work).
    Markdown,
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What kind of document the answer text is, which decides how it is rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContentKind {
    /// CommonMark + GFM (the default).
    #[default]
    Markdown,
    /// Plain text: shown as is, line breaks kept.
    Plain,
    /// HTML, shown through the allow-list sanitizer.
    Html,
    /// A JSON document, shown as a key/value view.
    Json,
    /// A YAML document, shown as a key/value view.
    Yaml,
}

impl ContentKind {
    /// The name `parse` gives it (`contentKind`), as serde writes it.
    pub fn name(self) -> &'static str {
        match self {
            ContentKind::Markdown => "markdown",
            ContentKind::Plain => "plain",
            ContentKind::Html => "html",
            ContentKind::Json => "json",
            ContentKind::Yaml => "yaml",
        }
    }
}

/// What the input gave a source for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceScope {
    /// The answer as a whole, not a span of it (an AI SDK `source-url` or
    /// `source-document` part): when no citation names the source, it is listed, in
    /// the panel and after the cited ones in the footnotes, as a source of the whole
    /// answer.
    Answer,
}

/// A source that supports statements of the answer.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    /// Stable key, unique within one answer.
    pub id: String,
    /// Display number: the same on the marker, the card, the panel and the footnotes.
    pub number: u32,
    /// Open string: `web`, `file`, `api`, `mcp`, `jira`, `github`, `document`, ...
    pub kind: String,
    /// Title, control characters stripped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Sanitized url (`http:`/`https:` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Host of the url without `www.`, or as the input gave it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// Short preview, at most 200 characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippet: Option<String>,
    /// Full text, when the input carried it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Page number (PDF sources).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<u64>,
    /// Relevance score as the input gave it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// Objective relevance, as a canonical source's reconciler scored it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective_relevance: Option<f64>,
    /// Query relevance (canonical sources): a number or per-query details.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query_relevance: Option<Value>,
    /// Why the source is relevant (canonical sources' `reasoning`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    /// Publication time as given (ISO 8601 when the input used it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published: Option<String>,
    /// Last modification time as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<String>,
    /// Provider or tool that produced the source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// Identifiers (ticket, PR ids) mapped to urls.
    #[serde(skip_serializing_if = "TextMap::is_empty")]
    pub identifiers: TextMap,
    /// Whether any citation names this source.
    pub cited: bool,
    /// How many citations name this source.
    pub cite_count: u32,
    /// What the input gave it for, when it says ([`SourceScope`]). `parse`'s JSON
    /// writes it (`"scope": "answer"`) only on an uncited source: see
    /// [`Source::of_whole_answer`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<SourceScope>,
    /// Whether the answer's producer reported using it (`[[USAGE:...]]`, `sources_used`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub used: bool,
    /// Every other field the input carried, untouched.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub metadata: Map<String, Value>,
}

/// Which record's fields win when two records of one source are merged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MergeWins {
    /// The record already there: the other only fills what it lacks. Two records that
    /// turn out to be one source (same id or url): the first one seen is the source.
    Kept,
    /// The incoming record: every field it has replaces the kept one's. Later data for
    /// the same key of one stream (an sse `citations` event naming a number again).
    Incoming,
}

impl Source {
    /// Whether this is an uncited source of the whole answer: no citation names it and
    /// the input gave it for the answer as a whole. The footnotes list it after the
    /// cited sources, without back-links (no marker to go back to).
    pub fn of_whole_answer(&self) -> bool {
        !self.cited && self.scope == Some(SourceScope::Answer)
    }

    /// The domain to show beside the title: none when the title shown is made from the
    /// url or is the domain itself (a source with no title of its own), which already
    /// starts with the domain.
    pub fn domain_beside_title(&self) -> Option<&str> {
        self.domain
            .as_deref()
            .filter(|_| self.own_title().is_some())
    }

    /// The source's own title: not empty (titles come cleaned and trimmed,
    /// `support::title`) and not its url.
    fn own_title(&self) -> Option<&str> {
        self.title
            .as_deref()
            .filter(|t| !t.is_empty() && Some(*t) != self.url.as_deref())
    }

    /// The title every view shows (card, panel, footnotes, marker names, exports): the
    /// source's title; for a source without one (or whose title is its url), a title
    /// made from its url (`untrusted_text::title_from_url`:
    /// `louvre.fr › hours admission`), else its domain. `None` when there is nothing a
    /// reader could use: the views then show their `untitled` label.
    pub fn display_title(&self) -> Option<std::borrow::Cow<'_, str>> {
        if let Some(t) = self.own_title() {
            return Some(t.into());
        }
        // A title that is the url is shown when nothing better is made from it.
        let title = self.title.as_deref().filter(|t| !t.is_empty());
        self.url
            .as_deref()
            .and_then(crate::core::untrusted_text::title_from_url)
            .map(Into::into)
            .or_else(|| self.domain.as_deref().or(title).map(Into::into))
    }

    /// Merges `other`, a record of the same source, into this one: every optional
    /// field, the kind, identifiers and metadata by the one rule `wins` says; `used`
    /// when either was used. The id, number and citation counts stay this record's.
    pub(crate) fn merge(&mut self, other: Source, wins: MergeWins) {
        fn field<T>(kept: &mut Option<T>, incoming: Option<T>, wins: MergeWins) {
            let replace = match wins {
                MergeWins::Kept => kept.is_none(),
                MergeWins::Incoming => incoming.is_some(),
            };
            if replace {
                *kept = incoming;
            }
        }
        field(&mut self.title, other.title, wins);
        field(&mut self.url, other.url, wins);
        field(&mut self.domain, other.domain, wins);
        field(&mut self.snippet, other.snippet, wins);
        field(&mut self.content, other.content, wins);
        field(&mut self.page, other.page, wins);
        field(&mut self.score, other.score, wins);
        field(
            &mut self.objective_relevance,
            other.objective_relevance,
            wins,
        );
        field(&mut self.query_relevance, other.query_relevance, wins);
        field(&mut self.reasoning, other.reasoning, wins);
        field(&mut self.published, other.published, wins);
        field(&mut self.modified, other.modified, wins);
        field(&mut self.provider, other.provider, wins);
        field(&mut self.scope, other.scope, wins);
        // A parser always sets a kind, `document` when the input named none: a kept
        // record takes one only where it has none, an incoming one replaces only that
        // default.
        let take_kind = match wins {
            MergeWins::Kept => self.kind.is_empty(),
            MergeWins::Incoming => self.kind == "document" && !other.kind.is_empty(),
        };
        if take_kind {
            self.kind = other.kind;
        }
        match wins {
            MergeWins::Kept => {
                for (k, v) in other.identifiers {
                    self.identifiers.insert_if_absent(k, v);
                }
                for (k, v) in other.metadata {
                    self.metadata.entry(k).or_insert(v);
                }
            }
            MergeWins::Incoming => {
                self.identifiers.extend(other.identifiers);
                self.metadata.extend(other.metadata);
            }
        }
        self.used |= other.used;
    }
}

/// What a location inside a request's document counts: characters, pages or content
/// blocks (Anthropic's `char_location`, `page_location`, `content_block_location`, and
/// Bedrock's `documentChar`, `documentPage`, `documentChunk`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DocumentUnit {
    /// Characters.
    Char,
    /// Pages.
    Page,
    /// Content blocks (chunks). Read only by the providers' and platforms' parsers.
    #[cfg_attr(
        not(any(feature = "providers", feature = "platforms")),
        allow(dead_code)
    )]
    Block,
}

/// Provider-specific location of a citation inside its source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Location {
    /// Characters of a plain-text document (Anthropic).
    CharLocation {
        /// First character.
        start: u64,
        /// One past the last character.
        end: u64,
        /// Which document of the request.
        #[serde(skip_serializing_if = "Option::is_none")]
        document_index: Option<u64>,
    },
    /// Pages of a PDF document (1-based, end exclusive as Anthropic sends it).
    PageLocation {
        /// First page.
        start: u64,
        /// End page.
        end: u64,
        /// Which document of the request.
        #[serde(skip_serializing_if = "Option::is_none")]
        document_index: Option<u64>,
    },
    /// Content blocks of a custom-content document.
    ContentBlockLocation {
        /// First block.
        start: u64,
        /// End block.
        end: u64,
        /// Which document of the request.
        #[serde(skip_serializing_if = "Option::is_none")]
        document_index: Option<u64>,
    },
    /// A web page (OpenAI url_citation, Anthropic web search results).
    UrlCitation {
        /// Start as the provider gave it.
        #[serde(skip_serializing_if = "Option::is_none")]
        start: Option<u64>,
        /// End as the provider gave it.
        #[serde(skip_serializing_if = "Option::is_none")]
        end: Option<u64>,
    },
    /// A Gemini grounding chunk.
    Grounding {
        /// Index into `groundingChunks`.
        chunk_index: u64,
    },
    /// A field of a JSON/YAML answer, by JSON Pointer.
    JsonPointer {
        /// The pointer, e.g. `/some/nested/field`.
        path: String,
    },
}

impl Location {
    /// The location `start..end` in `unit` of the request's document `document_index`.
    pub(crate) fn in_document(
        unit: DocumentUnit,
        start: u64,
        end: u64,
        document_index: Option<u64>,
    ) -> Self {
        match unit {
            DocumentUnit::Char => Location::CharLocation {
                start,
                end,
                document_index,
            },
            DocumentUnit::Page => Location::PageLocation {
                start,
                end,
                document_index,
            },
            DocumentUnit::Block => Location::ContentBlockLocation {
                start,
                end,
                document_index,
            },
        }
    }
}

/// How a citation was written in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CitationOrigin {
    /// A marker in the text (`[1]`, `[[S:1]]`, `<sup class="cite">`, ...).
    Marker,
    /// An explicit span given by the data (offsets, a located claim, a JSON Pointer).
    Span,
}

/// One statement of the answer and the sources that support it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Citation {
    /// Start of the supported span (bytes in Rust; the caller's unit in JSON).
    pub start: usize,
    /// End of the supported span; the marker stands here.
    pub end: usize,
    /// Ids of the supporting sources, in the order given.
    pub sources: Vec<String>,
    /// Where this came from.
    pub origin: CitationOrigin,
    /// The quoted text of the source, as the provider gave it (sanitized, 200 characters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cited_text: Option<String>,
    /// Confidence as the input gave it (`"full"`, `0.9`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Value>,
    /// Provider-specific location.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// While streaming: keys (`3`, `turn0search1`) the marker names whose sources have
    /// not arrived yet. Rendered as a pending marker. Always empty after `finish`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<String>,
}

/// A link citekit adds over a piece of the answer text (never inside code or links).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextLink {
    /// Start of the linked text.
    pub start: usize,
    /// End of the linked text.
    pub end: usize,
    /// Sanitized target.
    pub url: String,
}

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Something was normalized; nothing lost.
    Info,
    /// Something was dropped or repaired.
    Warning,
    /// Something could not be used at all.
    Error,
}

/// Everything that was dropped, repaired or could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Stable kebab-case code, e.g. `unresolved-marker`.
    pub code: String,
    /// Human-readable explanation.
    pub message: String,
    /// How serious it is.
    pub severity: Severity,
    /// Start in the output text, when it has a position there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<usize>,
    /// End in the output text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<usize>,
    /// Where in the data it was (a JSON path like `sources[2].url`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with no position.
    pub fn new(severity: Severity, code: &str, message: impl Into<String>) -> Self {
        Diagnostic {
            code: code.to_string(),
            message: message.into(),
            severity,
            start: None,
            end: None,
            path: None,
        }
    }

    /// A warning with no position.
    pub fn warning(code: &str, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message)
    }

    /// An informational diagnostic with no position.
    pub fn info(code: &str, message: impl Into<String>) -> Self {
        Self::new(Severity::Info, code, message)
    }

    /// An error-level diagnostic with no position.
    pub fn error(code: &str, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message)
    }

    /// Sets the data path.
    pub fn at_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Sets the byte range (in the raw text until resolution maps it to the output).
    pub fn at(mut self, start: usize, end: usize) -> Self {
        self.start = Some(start);
        self.end = Some(end);
        self
    }
}

/// A parsed answer: text without markers, its sources, citations and diagnostics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    /// The answer text with the markers taken out.
    pub text: String,
    /// The format the input was read as.
    pub format: Format,
    /// How the text is to be rendered.
    pub content_kind: ContentKind,
    /// Sources in display order (cited first, by number), numbers 1..k.
    pub sources: Vec<Source>,
    /// Citations sorted by `end`, then `start`.
    pub citations: Vec<Citation>,
    /// Links citekit adds to the text (scintilla identifiers like `MKT-1183`), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<TextLink>,
    /// What was dropped, repaired or unresolved.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether citations are shown (the `showCitations` option). When false,
    /// `citations` is empty and every source is uncited.
    pub show_citations: bool,
    /// Fields of the input about the answer as a whole (an envelope's `stats`, a
    /// response's `id`, `model`, `usage`), kept untouched.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub metadata: Map<String, Value>,
}

impl Answer {
    /// The source with this id.
    pub fn source(&self, id: &str) -> Option<&Source> {
        self.sources.iter().find(|s| s.id == id)
    }

    /// The source with this display number.
    pub fn source_by_number(&self, number: u32) -> Option<&Source> {
        self.sources.iter().find(|s| s.number == number)
    }

    /// Whether any diagnostic is of error level.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_title_is_the_title_then_one_made_from_the_url_then_the_domain() {
        let url = "https://www.louvre.fr/en/visit/hours-admission";
        let source = |title: Option<&str>, url: Option<&str>, domain: Option<&str>| Source {
            title: title.map(Into::into),
            url: url.map(Into::into),
            domain: domain.map(Into::into),
            ..Source::default()
        };
        let shown = |s: &Source| s.display_title().map(|t| t.into_owned());
        assert_eq!(
            shown(&source(Some("Hours"), Some(url), None)).as_deref(),
            Some("Hours")
        );
        // A title that is the url itself says no more than the url.
        for title in [None, Some(""), Some(url)] {
            assert_eq!(
                shown(&source(title, Some(url), Some("louvre.fr"))).as_deref(),
                Some("louvre.fr › hours admission"),
                "{title:?}"
            );
        }
        assert_eq!(
            shown(&source(None, None, Some("example.org"))).as_deref(),
            Some("example.org")
        );
        assert_eq!(shown(&source(None, None, None)), None);
        // The domain is shown beside a title of the source's own, not beside one that
        // starts with it already (url-only sources showed it twice).
        let beside = |s: &Source| s.domain_beside_title().map(str::to_owned);
        assert_eq!(
            beside(&source(Some("Hours"), Some(url), Some("louvre.fr"))).as_deref(),
            Some("louvre.fr")
        );
        for title in [None, Some(""), Some(url)] {
            assert_eq!(beside(&source(title, Some(url), Some("louvre.fr"))), None);
        }
        assert_eq!(beside(&source(None, None, Some("example.org"))), None);
    }
}
