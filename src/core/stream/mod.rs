//! Streaming (docs/streaming.md): an answer that arrives chunk by chunk, cut anywhere,
//! with its citation data before, during or after the text.
//!
//! The text is split into **blocks** at blank lines that start a new top-level
//! markdown block (a line at column 0 after a blank line, outside code fences, HTML
//! comments and every other region the scanner protects). A completed block is
//! scanned and resolved once; only the open last block is scanned again on each
//! chunk, so the cost of a chunk is proportional to the open block, not to the answer.
//! A partial marker at the end (`[`, `[1`, `[[S:1,`, `【`, a private-use marker, a
//! `<sup` not yet closed, a complete `[1]` that may still turn into a link `[1](...)`)
//! is held back until the next chunk says what it is; so is a link whose destination is
//! still arriving (`[3](https://ex`, `[see [3]](ht`), and text after a backtick run that
//! is not closed yet is read as code until its block is complete: nothing shows as a
//! marker that a later chunk turns into link text or code.
//!
//! `settle` compares two snapshots, so that a view patches only the markers that
//! changed when sources arrive or the stream finishes.
//!
//! A marker whose source is not known yet becomes a pending citation
//! ([`Citation::pending`](crate::core::model::Citation::pending)); it turns live when the data arrives ([`StreamParser::set_data`]).
//! [`StreamParser::finish`] resolves what is left exactly as a one-shot [`parse`](crate::core::parse)
//! of the whole text would.
//!
//! A provider's own event stream (OpenAI, Anthropic, Gemini, Perplexity) is read block
//! by block too, its explicit spans with the block they end in; a span that comes after
//! its block was completed has that block read again
//! ([`StreamParser::rewritten_from`]), and `finish` reads the spans over the whole text.
//! Formats whose JSON data gives explicit offsets over the whole text (stored, posthoc,
//! payload, anthropic, openai annotations, gemini), data that carries the text itself
//! and non-markdown answers (HTML, JSON) are parsed whole on each chunk instead:
//! correct, not incremental, with the same hold-back at the end of the streamed text.
//!
//! This file holds the parser's state and what a caller does with it (`new`, `push`,
//! `set_data`, `finish`, a change of base data); beside it: `boundary` (where a block
//! ends), `blocks` (reading each completed block once, the open tail), `hold` (the
//! hold-back of partial markers, links and code spans), `whole` (the whole-text parse of formats read at
//! once), `joined` (the snapshot assembled in place from the blocks), `events` (an event
//! stream's reader) and `settle` (what changed between two snapshots).

use crate::core::draft::{Draft, DraftSpan};
use crate::core::error::ParseError;
use crate::core::formats::sse::SseReader;
use crate::core::formats::{self, Data};
use crate::core::markers::{Grammar, TextSyntax};
use crate::core::model::{Answer, ContentKind, Format};
use crate::core::options::{FormatChoice, Options};
use crate::core::resolve::{resolve, BasePool};
use serde_json::Value;

mod blocks;
mod boundary;
mod events;
mod hold;
mod joined;
mod settle;
mod whole;
use events::EventAcc;
#[cfg(all(test, feature = "providers"))]
mod cost;
#[cfg(test)]
mod scratch;
#[cfg(test)]
mod tests;
use joined::Joined;

pub use boundary::block_boundary;
pub(crate) use hold::unclosed_link_start;
pub use hold::{hold_back, shown_without_parser, unclosed_code_span};
pub use settle::{settle, Settle};

/// One completed block: its raw range and its resolution (block-local offsets).
#[derive(Debug, Clone)]
struct Block {
    raw_start: usize,
    raw_end: usize,
    answer: Answer,
}

/// Where the citation data comes from.
#[derive(Debug, Clone)]
enum Source_ {
    /// JSON (or nothing), replaced or merged by [`StreamParser::set_data`].
    Json(Option<Value>),
    /// An event stream (`sse`, or the AI SDK's UI message stream): events give the
    /// text, sources and citation data.
    Sse {
        reader: SseReader,
        acc: EventAcc,
        /// Bytes of the accumulated token text already moved into the answer.
        taken: usize,
        /// The raw stream so far (for a one-shot parse when one is needed).
        stream: String,
    },
}

/// An incremental parser for a streaming answer.
#[derive(Debug, Clone)]
pub struct StreamParser {
    options: Options,
    /// The options as given (the format may be `auto`).
    given: Options,
    format: Format,
    /// The format is `auto` and no data has come yet: `format` is a stand-in
    /// (`citation_map`), the first data decides.
    format_open: bool,
    data: Source_,
    /// The data parsed with an empty answer: sources, grammar, content kind.
    base: Draft,
    /// `base` resolved: its sources (deduplicated, input order) and diagnostics.
    base_resolved: Answer,
    /// `base`'s sources deduplicated once, for every block to resolve against.
    pool: BasePool,
    /// Whether blocks can be resolved one by one for this format.
    incremental: bool,
    raw: String,
    blocks: Vec<Block>,
    /// Raw bytes covered by `blocks`.
    committed: usize,
    /// What of `snapshot` the committed blocks make: an append takes only the open
    /// tail out of it and puts the new one in (see [`joined`]).
    joined: Joined,
    snapshot: Answer,
    /// Whether `snapshot` is `joined`'s (not a whole parse of a non-incremental
    /// format, or the finished answer).
    in_place: bool,
    finished: bool,
    /// A provider stream's explicit spans as the committed blocks were read with them:
    /// a push that changes them reads again only the blocks where they changed.
    spans_read: Vec<DraftSpan>,
    /// Where the last push changed text that was stable before it (see
    /// [`StreamParser::rewritten_from`]).
    rewritten_from: Option<usize>,
    /// Bytes of answer text handed to the resolver so far (tests hold what a push
    /// resolves to what it adds: `stream/cost.rs`).
    #[cfg(test)]
    resolved_bytes: std::cell::Cell<usize>,
}

impl StreamParser {
    /// Whether the data is a Responses output whose annotations index the text.
    #[cfg(feature = "providers")]
    fn openai_offsets(&self) -> bool {
        matches!(&self.data, Source_::Json(Some(v)) if formats::openai::carries_offsets(v))
    }

    /// Without the provider formats openai data does not parse at all.
    #[cfg(not(feature = "providers"))]
    fn openai_offsets(&self) -> bool {
        false
    }

    /// A stream over `data` (which may be empty and grow later). The format is the
    /// option's, or detected from the data; with no data yet and `auto`, markers are
    /// read as numeric markers whose sources are still to come (`citation_map`).
    pub fn new(data: Data<'_>, options: &Options) -> Result<Self, ParseError> {
        let given = options.clone();
        let mut options = options.clone();
        let auto = options.format == FormatChoice::Auto;
        // JSON given as text is read once here; an event stream stays text.
        let owned;
        // A provider's own event stream (or its start, empty) given as text.
        let provider_stream = matches!(options.format, FormatChoice::Given(f) if formats::has_event_stream(f))
            && matches!(data, Data::Text(t) if formats::is_stream_text(t));
        let data = match data {
            Data::Text(t)
                if !t.trim().is_empty()
                    && !provider_stream
                    && match options.format {
                        FormatChoice::Given(f) => {
                            f != Format::Sse
                                && !((f == Format::AiSdk || formats::is_platform(f))
                                    && formats::looks_like_sse(t))
                        }
                        FormatChoice::Auto => !formats::looks_like_sse(t),
                    } =>
            {
                owned = crate::core::json_fields::parse_json(t)?;
                Data::Json(&owned)
            }
            d => d,
        };
        // Text still (an event stream, or `""` at its start).
        let text_given = matches!(data, Data::Text(_));
        // Empty data (`{}`, `[]`, `{"sources": []}`) is data still to come.
        let data = match data {
            Data::Json(v) if auto && formats::is_empty_data(v) => Data::None,
            Data::Text(t) if t.trim().is_empty() => Data::None,
            d => d,
        };
        let format_open = auto && matches!(data, Data::None);
        let format = match options.format {
            FormatChoice::Given(f) => f,
            FormatChoice::Auto => match data {
                Data::None => Format::CitationMap,
                d => formats::detect(None, d)?,
            },
        };
        options.format = FormatChoice::Given(format);
        // An AI SDK stream is events too; a `UIMessage` (JSON) is data like any other.
        let events = format == Format::Sse
            || ((format == Format::AiSdk || formats::is_platform(format))
                && match data {
                    Data::Json(_) => false,
                    // `""`: the stream's start; no data: a LlamaIndex or LangChain answer
                    // may stream as text, its object given at the end.
                    Data::None => {
                        text_given
                            || format == Format::AiSdk
                            || formats::streams_without_data(format)
                    }
                    _ => true,
                })
            || provider_stream
            // A provider's own stream detected from the text (no format given).
            || (formats::has_event_stream(format) && matches!(data, Data::Text(_)));
        let data = if events {
            let mut s = Source_::Sse {
                reader: SseReader::new(),
                acc: EventAcc::new(format, &options),
                taken: 0,
                stream: String::new(),
            };
            if let Data::Text(t) = data {
                if let Source_::Sse {
                    reader,
                    acc,
                    stream,
                    ..
                } = &mut s
                {
                    stream.push_str(t);
                    for ev in reader.push(t) {
                        acc.event(&ev);
                    }
                }
            }
            s
        } else {
            Source_::Json(match data {
                Data::None => None,
                Data::Json(v) => Some(v.clone()),
                // Read above unless it is an event stream with another format given.
                Data::Text(t) => Some(crate::core::json_fields::parse_json(t)?),
            })
        };
        let empty = crate::core::parse_lenient(Some(""), Data::None, &options);
        let mut p = StreamParser {
            options,
            given,
            format,
            format_open,
            data,
            base: Draft::new(format, ""),
            base_resolved: empty.clone(),
            pool: BasePool::default(),
            incremental: false,
            raw: String::new(),
            blocks: Vec::new(),
            committed: 0,
            joined: Joined::default(),
            snapshot: empty,
            in_place: false,
            finished: false,
            spans_read: Vec::new(),
            rewritten_from: None,
            #[cfg(test)]
            resolved_bytes: std::cell::Cell::new(0),
        };
        p.follow_events();
        p.rebase()?;
        p.pull_sse_text();
        p.update_tail();
        Ok(p)
    }

    /// An event stream's first typed event decides whether it is `sse` or the AI SDK's
    /// UI message stream: the parser takes that format (before any text is read).
    fn follow_events(&mut self) {
        if let Source_::Sse { acc, .. } = &self.data {
            let f = acc.format();
            if f != self.format {
                self.format = f;
                self.options.format = FormatChoice::Given(f);
                self.base.format = f;
            }
        }
    }

    /// The format the stream is read as.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The answer as far as it is stable: held-back text is not in it, pending
    /// markers are citations with [`Citation::pending`](crate::core::model::Citation::pending) keys.
    pub fn snapshot(&self) -> &Answer {
        &self.snapshot
    }

    /// Bytes at the start of the snapshot's text that no later chunk can change.
    pub fn stable_len(&self) -> usize {
        self.joined.text_len
    }

    /// Where the last [`push`](Self::push) changed text that was stable before it: the
    /// snapshot's byte offset of the first completed block it read again (a provider's
    /// explicit span that arrives after the text it covers was completed, or a final
    /// object whose text is not the text streamed). `None` when the push changed only
    /// what followed the stable part, as most pushes do. A view renders again from here
    /// (or from the stable length it had before the push, whichever is less).
    pub fn rewritten_from(&self) -> Option<usize> {
        self.rewritten_from
    }

    /// Whether [`StreamParser::finish`] was called.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Adds a chunk: answer text, or for sse the raw event stream text.
    pub fn push(&mut self, chunk: &str) {
        self.rewritten_from = None;
        if self.finished || chunk.is_empty() {
            return;
        }
        match &mut self.data {
            Source_::Sse {
                reader,
                acc,
                stream,
                ..
            } => {
                stream.push_str(chunk);
                let events = reader.push(chunk);
                if events.is_empty() {
                    // No event is complete yet: neither the text nor the data changed.
                    return;
                }
                // Sources or metadata came, or the first typed event decided the format.
                if feed_events(acc, events) || acc.format() != self.format {
                    self.follow_events();
                    let _ = self.rebase();
                }
                self.pull_sse_text();
                self.follow_spans();
            }
            Source_::Json(_) => self.raw.push_str(chunk),
        }
        if self.incremental && self.format == Format::Canonical && looks_structured(&self.raw) {
            // A JSON or HTML answer: not block-structured markdown.
            self.incremental = false;
            self.blocks.clear();
            self.committed = 0;
            self.rewritten_from = Some(0);
            self.rejoin();
        }
        self.commit_blocks();
        self.update_tail();
    }

    /// New or more citation data: JSON objects are merged into what came before (the
    /// later value wins per key), anything else replaces it. For sse, the text is
    /// more of the stream. The answer so far is kept; pending markers turn live.
    pub fn set_data(&mut self, data: Data<'_>) -> Result<(), ParseError> {
        if let Source_::Sse { stream, .. } = &self.data {
            if let Data::Text(t) = data {
                // The whole stream so far given again (a view's `data` that grows):
                // only what is new; else more of the stream.
                let rest = t.strip_prefix(stream.as_str()).unwrap_or(t).to_string();
                self.push(&rest);
            }
            return Ok(());
        }
        let new = match data {
            Data::None => None,
            Data::Json(v) => Some(v.clone()),
            Data::Text(t) if t.trim().is_empty() => None,
            Data::Text(t) => Some(crate::core::json_fields::parse_json(t)?),
        };
        if let Source_::Json(old) = &mut self.data {
            match (old.as_mut(), new) {
                (Some(o), Some(n)) => merge_json(o, n),
                (None, Some(n)) => *old = Some(n),
                (_, None) => {}
            }
        }
        // The first data of an `auto` stream decides its format (the stand-in was
        // `citation_map`): markers shown pending turn live in the data's own format.
        if self.format_open {
            if let Source_::Json(Some(v)) = &self.data {
                if !formats::is_empty_data(v) {
                    let f = formats::detect(None, Data::Json(v))?;
                    if f != Format::Sse {
                        self.format = f;
                        self.options.format = FormatChoice::Given(f);
                        self.format_open = false;
                    }
                }
            }
        }
        self.rebase()?;
        // Blocks resolved against the old sources are resolved again.
        let blocks = std::mem::take(&mut self.blocks);
        self.rejoin();
        for b in blocks {
            self.commit_range(b.raw_start, b.raw_end);
        }
        if self.finished {
            self.finish_now();
        } else {
            self.update_tail();
        }
        Ok(())
    }

    /// Ends the stream: held-back text is read, pending markers are resolved (or
    /// dropped/kept as the `unresolved` option says), and the result equals a one-shot
    /// parse of the whole answer.
    pub fn finish(&mut self) -> &Answer {
        if !self.finished {
            if let Source_::Sse { reader, acc, .. } = &mut self.data {
                let mut other = feed_events(acc, reader.finish());
                other |= acc.end();
                if other || acc.format() != self.format {
                    self.follow_events();
                    let _ = self.rebase();
                }
            }
            self.pull_sse_text();
            self.finished = true;
            self.finish_now();
        }
        &self.snapshot
    }

    fn finish_now(&mut self) {
        // A provider stream ends as `parse` of its final object: its explicit spans read
        // over the whole text (a span may reach across blocks), once.
        if !self.incremental || self.provider_stream() {
            self.snapshot = self.whole();
            self.in_place = false;
            return;
        }
        let end = self.raw.len();
        if self.committed < end {
            self.commit_range(self.committed, end);
        }
        // Context that spans blocks is settled by one one-shot parse of the whole text:
        // reference definitions (`[1]: url` makes `[text][1]` a link), and an answer
        // whose data never came (with format `auto` that is plain markdown, where a
        // bare `[1]` is text).
        let no_data = matches!(&self.data, Source_::Json(v) if v.as_ref().is_none_or(formats::is_empty_data))
            && self.given.format == FormatChoice::Auto;
        if no_data || has_reference_definition(&self.raw) {
            self.snapshot = if no_data {
                crate::core::parse_lenient(Some(&self.raw), Data::None, &self.given)
            } else {
                self.whole()
            };
            self.in_place = false;
            return;
        }
        // A footnote referenced in one block and defined in another can merge with a
        // data source (same url); the one-shot resolver settles that exactly, once.
        let cross_footnotes = self.blocks.iter().any(|b| {
            b.answer
                .citations
                .iter()
                .any(|c| c.pending.iter().any(|k| k.starts_with('^')))
        });
        if cross_footnotes {
            self.snapshot = self.whole();
            self.in_place = false;
            return;
        }
        // Blocks with pending markers are resolved again, now for good, against every
        // source (footnote definitions of other blocks included).
        let footnotes: Vec<crate::core::draft::DraftSource> = self.footnote_draft_sources();
        for i in 0..self.blocks.len() {
            if self.blocks[i]
                .answer
                .citations
                .iter()
                .any(|c| !c.pending.is_empty())
            {
                let (s, e) = (self.blocks[i].raw_start, self.blocks[i].raw_end);
                let mut d = self.block_draft(s, e);
                for f in &footnotes {
                    if !d.sources.iter().any(|x| x.source.id == f.source.id) {
                        d.sources.push(f.clone());
                    }
                }
                self.count_resolved(d.text.len());
                self.blocks[i].answer = resolve(d, &self.options);
            }
        }
        self.rejoin();
    }

    /// Re-reads the data with an empty answer: sources, grammar, content kind.
    fn rebase(&mut self) -> Result<(), ParseError> {
        let by_blocks = self.provider_stream();
        let draft = match &self.data {
            Source_::Sse { acc, .. } => {
                let d = acc.draft_ref();
                // A provider stream's event that changed nothing of the base (a text
                // block's start or stop, a span): nothing to read or join again, and no
                // copy of the text so far.
                let base = &self.base;
                if by_blocks
                    && self.incremental
                    && self.snapshot.format == self.format
                    && d.format == base.format
                    && d.sources == base.sources
                    && d.diagnostics == base.diagnostics
                    && d.metadata == base.metadata
                    && d.used == base.used
                {
                    return Ok(());
                }
                let mut d = d.clone();
                d.text.clear();
                // A provider stream's spans are read block by block (`spans_in`).
                if by_blocks {
                    d.spans.clear();
                }
                d
            }
            Source_::Json(v) => {
                let d = match v {
                    Some(v) => Data::Json(v),
                    None => Data::None,
                };
                match formats::parse_draft(Some(""), d, &self.options) {
                    Ok(d) => d,
                    Err(e) if v.is_none() => {
                        let _ = e;
                        let mut d = Draft::new(self.format, "");
                        d.grammar = Some(Grammar::NUMERIC);
                        d
                    }
                    Err(e) => return Err(e),
                }
            }
        };
        let answer_from_data = !draft.text.is_empty();
        let was_incremental = self.incremental;
        // Sources that are no longer those before with more after them (the final
        // object's, in another order): the spans' source indices changed meaning.
        let reindexed = by_blocks
            && (draft.sources.len() < self.base.sources.len()
                || draft
                    .sources
                    .iter()
                    .zip(&self.base.sources)
                    .any(|(a, b)| a.source.id != b.source.id));
        self.incremental = draft.spans.is_empty()
            && draft.content_kind == ContentKind::Markdown
            && draft
                .grammar
                .is_some_and(|g| g.syntax == TextSyntax::Markdown)
            && !answer_from_data
            && !(self.format == Format::Canonical && looks_structured(&self.raw))
            // Annotations of a Responses output whose text was streamed separately
            // index the appended text: parsed whole.
            && !(self.format == Format::Openai && self.openai_offsets())
            // A provider stream's spans are read block by block (`spans_in`); the
            // other formats with explicit offsets are read whole.
            && (by_blocks
                || !matches!(
                    self.format,
                    Format::Stored
                        | Format::Posthoc
                        | Format::Payload
                        | Format::Anthropic
                        | Format::Gemini
                ));
        if was_incremental && !self.incremental {
            // Spans came after blocks were read (an AI SDK or a platform stream's): the
            // answer is read whole from now on, and no block counts as stable any more,
            // so that a view renders the blocks again with their citations (keeping the
            // nodes that did not change).
            self.blocks.clear();
            self.committed = 0;
            self.rewritten_from = Some(0);
        }
        let mut for_base = draft.clone();
        for_base.text.clear();
        self.base_resolved = resolve(for_base, &self.options);
        self.pool = BasePool::new(draft.sources.clone());
        self.base = draft;
        if reindexed && self.incremental && !self.blocks.is_empty() {
            for i in 0..self.blocks.len() {
                self.reread_block(i);
            }
            self.rewritten_from = Some(0);
        }
        // The committed blocks are joined again onto the new base (its sources and
        // diagnostics); a block's own resolution stays as it was.
        self.rejoin();
        Ok(())
    }

    /// For sse: moves newly received token text into the answer.
    fn pull_sse_text(&mut self) {
        if let Source_::Sse { acc, taken, .. } = &mut self.data {
            let text = &acc.draft_ref().text;
            // A provider's final object is the last word: when its text is not the text
            // streamed (an event was lost), the answer starts again from it (compared
            // once the stream ended, not on every chunk).
            let rewritten = acc.provider_ended()
                && (text.len() < *taken
                    || !text.is_char_boundary(*taken)
                    || text[..*taken] != self.raw[self.raw.len() - *taken..]);
            if rewritten {
                self.raw.clear();
                *taken = 0;
                self.blocks.clear();
                self.committed = 0;
                self.in_place = false;
                self.spans_read.clear();
                self.rewritten_from = Some(0);
            }
            if text.len() > *taken {
                self.raw.push_str(&text[*taken..]);
                *taken = text.len();
            }
        }
    }
}

/// Whether `raw` may hold a link reference definition (`[label]: ...`) or a footnote
/// definition (`[^label]: ...`), also inside list items and quotes: both reach across
/// blocks (a definition makes `[text][1]` a link; footnotes merge with each other and
/// with data sources). Any `]:` counts; a false alarm costs one one-shot parse.
fn has_reference_definition(raw: &str) -> bool {
    crate::core::str_ops::find(raw.as_bytes(), b"]:").is_some()
}

/// Whether an answer starts like JSON or HTML (canonical answers may be either).
fn looks_structured(raw: &str) -> bool {
    let t = raw.trim_start();
    match t.chars().next() {
        Some('{') | Some('<') => true,
        Some('[') => t[1..].trim_start().starts_with(['{', '"', ']']),
        _ => false,
    }
}

/// Feeds events to the accumulator; true when any of them was not a text token (a
/// source, a citation map, metadata: the sources must be read again), or brought
/// sources, spans or diagnostics with its text, or decided the stream's format.
fn feed_events(acc: &mut EventAcc, events: Vec<crate::core::formats::sse::SseEvent>) -> bool {
    let mut other = false;
    let counts = |d: &Draft| (d.sources.len(), d.spans.len(), d.diagnostics.len());
    for ev in events {
        let before = acc.draft_ref().text.len();
        let (format, data) = (acc.format(), counts(acc.draft_ref()));
        acc.event(&ev);
        // A provider stream's event can bring text together with its format (the first
        // one), sources (a Perplexity chunk's `citations`) or spans (a Chat Completions
        // chunk's `annotations`).
        other |= acc.draft_ref().text.len() == before
            || acc.format() != format
            || counts(acc.draft_ref()) != data;
    }
    other
}

/// Merges JSON `n` into `o`: objects key by key (recursively), anything else replaced.
fn merge_json(o: &mut Value, n: Value) {
    match (o, n) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(&k) {
                    Some(x) => merge_json(x, v),
                    None => {
                        a.insert(k, v);
                    }
                }
            }
        }
        (o, n) => *o = n,
    }
}
