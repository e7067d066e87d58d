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
//! [`settle`] compares two snapshots, so that a view patches only the markers that
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

use crate::core::draft::{Draft, DraftSpan};
use crate::core::error::ParseError;
use crate::core::formats::sse::SseReader;
use crate::core::formats::{self, Data};
use crate::core::map::Map;
use crate::core::markers::{protected_regions, Grammar, TextSyntax};
use crate::core::model::{CitedAnswer, ContentKind, Format, Source};
use crate::core::options::{FormatChoice, Options};
use crate::core::resolve::{merge_source, resolve, resolve_pending, resolve_pending_on, BasePool};
use serde_json::Value;

mod events;
mod joined;
use events::EventAcc;
#[cfg(all(test, feature = "providers"))]
mod cost;
#[cfg(test)]
mod scratch;
use joined::Joined;

/// One completed block: its raw range and its resolution (block-local offsets).
#[derive(Debug, Clone)]
struct Block {
    raw_start: usize,
    raw_end: usize,
    answer: CitedAnswer,
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
    base_resolved: CitedAnswer,
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
    snapshot: CitedAnswer,
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
                owned = crate::core::json::parse_json(t)?;
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
                Data::Text(t) => Some(crate::core::json::parse_json(t)?),
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
    pub fn snapshot(&self) -> &CitedAnswer {
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
            Data::Text(t) => Some(crate::core::json::parse_json(t)?),
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
    pub fn finish(&mut self) -> &CitedAnswer {
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

    /// A draft for raw[s..e] with the base's sources.
    fn block_draft(&self, s: usize, e: usize) -> Draft {
        let mut d = Draft::new(self.format, &self.raw[s..e]);
        d.content_kind = self.base.content_kind;
        d.grammar = self.base.grammar;
        d.sources = self.base.sources.clone();
        d.spans = self.spans_in(s, e);
        d
    }

    /// Counts `bytes` of answer text handed to the resolver (in tests).
    fn count_resolved(&self, bytes: usize) {
        #[cfg(test)]
        self.resolved_bytes.set(self.resolved_bytes.get() + bytes);
        #[cfg(not(test))]
        let _ = bytes;
    }

    /// raw[s..e] resolved against the base's sources, pending markers kept.
    fn read_block(&self, draft: Draft) -> CitedAnswer {
        self.count_resolved(draft.text.len());
        resolve_pending_on(&self.pool, draft, &self.options)
    }

    /// A draft for raw[s..e] without sources (they are the pool's).
    fn bare_draft(&self, s: usize, e: usize) -> Draft {
        let mut d = Draft::new(self.format, &self.raw[s..e]);
        d.content_kind = self.base.content_kind;
        d.grammar = self.base.grammar;
        d.spans = self.spans_in(s, e);
        d
    }

    /// Whether the data is a provider's own stream (OpenAI, Anthropic, Gemini,
    /// Perplexity): its reader's draft holds the answer so far, its explicit spans
    /// index that text, which `raw` is.
    fn provider_stream(&self) -> bool {
        matches!(&self.data, Source_::Sse { acc, .. } if acc.provider_draft().is_some())
    }

    /// A provider stream's explicit spans over the answer so far (none for any other
    /// data).
    fn provider_spans(&self) -> &[DraftSpan] {
        match &self.data {
            Source_::Sse { acc, .. } => acc.provider_draft().map_or(&[], |d| &d.spans),
            Source_::Json(_) => &[],
        }
    }

    /// The provider spans that belong to raw[s..e] ([`span_anchor`] in it; the open
    /// tail, whose `e` is the end of the text so far, also takes the ones past it),
    /// with offsets into it. A span that starts in an earlier block starts at `s` here:
    /// blocks are read on their own while streaming, and `finish` reads the spans over
    /// the whole text.
    fn spans_in(&self, s: usize, e: usize) -> Vec<DraftSpan> {
        let tail = e >= self.raw.len();
        self.provider_spans()
            .iter()
            .filter(|span| {
                let at = span_anchor(span);
                s <= at && (at < e || tail)
            })
            .map(|span| {
                let mut span = span.clone();
                span.start = span.start.max(s) - s;
                span.end -= s;
                span
            })
            .collect()
    }

    /// The committed block `i` read again (its spans changed, or its sources' order).
    fn reread_block(&mut self, i: usize) {
        let (s, e) = (self.blocks[i].raw_start, self.blocks[i].raw_end);
        self.blocks[i].answer = self.read_block(self.bare_draft(s, e));
        self.in_place = false;
    }

    /// A provider stream's spans after a push: the committed blocks where they changed
    /// (a span added, replaced or taken out) are read again, and only those; the open
    /// tail reads its own. Most spans arrive while the text they cover is still in the
    /// tail (an OpenAI annotation right after its text, an Anthropic citation when its
    /// text block stops); a late one (a Chat Completion's annotations with its last
    /// text, Gemini's grounding on its last chunk) costs the blocks it lands in.
    fn follow_spans(&mut self) {
        if !self.incremental || !self.provider_stream() {
            return;
        }
        let spans = self.provider_spans();
        if spans == self.spans_read.as_slice() {
            return;
        }
        let same = spans
            .iter()
            .zip(&self.spans_read)
            .take_while(|(a, b)| a == b)
            .count();
        // Per committed block, whether a span changed in it.
        let mut changed = vec![false; self.blocks.len()];
        for span in spans[same..].iter().chain(&self.spans_read[same..]) {
            let at = span_anchor(span);
            if at < self.committed {
                changed[self.blocks.partition_point(|b| b.raw_end <= at)] = true;
            }
        }
        self.spans_read = spans.to_vec();
        let Some(first) = changed.iter().position(|&c| c) else {
            return;
        };
        for (i, _) in changed.into_iter().enumerate().filter(|&(_, c)| c) {
            self.reread_block(i);
        }
        let from: usize = self.blocks[..first]
            .iter()
            .map(|b| b.answer.text.len())
            .sum();
        self.rewritten_from = Some(self.rewritten_from.map_or(from, |r| r.min(from)));
    }

    fn commit_range(&mut self, s: usize, e: usize) {
        let answer = self.read_block(self.bare_draft(s, e));
        if !self.in_place {
            self.rejoin();
        }
        self.joined.restore(&mut self.snapshot);
        self.joined
            .add(&mut self.snapshot, &answer, &self.options, true);
        self.blocks.push(Block {
            raw_start: s,
            raw_end: e,
            answer,
        });
        self.committed = e;
    }

    /// Commits every block of the open tail that is complete.
    fn commit_blocks(&mut self) {
        if !self.incremental {
            return;
        }
        loop {
            let tail = &self.raw[self.committed..];
            let Some(cut) = block_boundary(tail) else {
                break;
            };
            let (s, e) = (self.committed, self.committed + cut);
            self.commit_range(s, e);
        }
    }

    /// Re-reads the open tail (up to a held-back partial marker) and the snapshot.
    fn update_tail(&mut self) {
        if !self.incremental {
            self.snapshot = self.whole_pending();
            self.in_place = false;
            return;
        }
        let tail_answer = self.tail_answer(false);
        if !self.in_place {
            self.rejoin();
        }
        self.joined.restore(&mut self.snapshot);
        if let Some(t) = &tail_answer {
            self.joined.add(&mut self.snapshot, t, &self.options, false);
        }
    }

    /// The open tail (up to a held-back partial marker) read on its own (`full`: with
    /// a copy of every source, as [`resolve_pending`] reads a draft).
    fn tail_answer(&self, full: bool) -> Option<CitedAnswer> {
        let tail = &self.raw[self.committed..];
        let grammar = self.base.grammar.unwrap_or(Grammar::NUMERIC);
        let (shown, closer) = shown_part(tail, &grammar);
        let visible = self.committed + shown;
        if visible > self.committed {
            // Over the whole tail, then cut where it is shown: spans are cut as a whole
            // read cuts them.
            let end = self.raw.len();
            let mut draft = if full {
                self.block_draft(self.committed, end)
            } else {
                self.bare_draft(self.committed, end)
            };
            cut_draft(&mut draft, shown);
            if let Some(c) = &closer {
                draft.text.push_str(c);
            }
            let mut a = if full {
                resolve_pending(draft, &self.options)
            } else {
                self.read_block(draft)
            };
            strip_closer(&mut a, closer.as_deref());
            Some(a)
        } else {
            None
        }
    }

    /// The whole answer parsed at once (fallback for non-incremental formats).
    fn whole(&self) -> CitedAnswer {
        let data_owned;
        let (answer, data) = match &self.data {
            Source_::Sse { acc, .. } if acc.provider_draft().is_some() => {
                return self.provider_answer(false);
            }
            Source_::Sse { .. } => {
                data_owned = self.sse_stream_text();
                (None, Data::Text(&data_owned))
            }
            Source_::Json(Some(v)) => (Some(self.raw.as_str()), Data::Json(v)),
            Source_::Json(None) => (Some(self.raw.as_str()), Data::None),
        };
        self.count_resolved(self.raw.len());
        crate::core::parse_lenient(answer, data, &self.options)
    }

    /// Like [`whole`](Self::whole), but unresolved markers stay pending while the
    /// stream runs (they must not show as literal text), and the end of the streamed
    /// text is held back as an incremental stream's open block is ([`shown_part`]): a
    /// partial marker never shows, whatever the data's format.
    fn whole_pending(&self) -> CitedAnswer {
        let draft = match &self.data {
            Source_::Json(v) => {
                let d = match v {
                    Some(v) => Data::Json(v),
                    None => Data::None,
                };
                formats::parse_draft(Some(&self.raw), d, &self.options)
            }
            Source_::Sse { acc, .. } if acc.provider_draft().is_some() => {
                return self.provider_answer(true);
            }
            Source_::Sse { .. } => {
                let t = self.sse_stream_text();
                formats::parse_draft(None, Data::Text(&t), &self.options)
            }
        };
        let Ok(mut draft) = draft else {
            return self.whole();
        };
        // Only streamed text is still arriving: with none yet, the text is the data's
        // own, complete.
        let closer = match (draft.grammar, draft.content_kind) {
            (Some(g), ContentKind::Markdown | ContentKind::Plain | ContentKind::Html)
                if !self.raw.is_empty() =>
            {
                let (len, closer) = shown_part(&draft.text, &g);
                cut_draft(&mut draft, len);
                closer.filter(|_| draft.content_kind == ContentKind::Markdown)
            }
            _ => None,
        };
        if let Some(c) = &closer {
            draft.text.push_str(c);
        }
        self.count_resolved(draft.text.len());
        let mut a = resolve_pending(draft, &self.options);
        strip_closer(&mut a, closer.as_deref());
        a
    }

    /// A provider stream's answer from its reader's draft, which holds the whole
    /// answer so far (no read of the stream again): as a one-shot parse gives it, or,
    /// while it streams (`pending`), with unresolved markers pending and the end of the
    /// text held back as [`whole_pending`](Self::whole_pending) does.
    fn provider_answer(&self, pending: bool) -> CitedAnswer {
        let Source_::Sse { acc, .. } = &self.data else {
            return self.whole();
        };
        let Some(draft) = acc.provider_draft() else {
            return self.whole();
        };
        let mut draft = draft.clone();
        self.count_resolved(draft.text.len());
        if !pending {
            if draft.text.is_empty() && !draft.sources.is_empty() {
                draft.diagnostics.push(crate::core::model::Diagnostic::warning(
                    "no-answer",
                    format!(
                        "the answer is empty and the {} data holds no text: pass the answer's text as `answer`",
                        draft.format.name()
                    ),
                ));
            }
            return resolve(draft, &self.options);
        }
        let closer = match draft.grammar {
            Some(g) if !draft.text.is_empty() => {
                let (len, closer) = shown_part(&draft.text, &g);
                cut_draft(&mut draft, len);
                closer
            }
            _ => None,
        };
        if let Some(c) = &closer {
            draft.text.push_str(c);
        }
        let mut a = resolve_pending(draft, &self.options);
        strip_closer(&mut a, closer.as_deref());
        a
    }

    fn sse_stream_text(&self) -> String {
        match &self.data {
            Source_::Sse { stream, .. } => stream.clone(),
            Source_::Json(_) => String::new(),
        }
    }

    fn footnote_draft_sources(&self) -> Vec<crate::core::draft::DraftSource> {
        let mut out = Vec::new();
        for b in &self.blocks {
            for s in &b.answer.sources {
                if s.kind == "footnote" && !self.base_resolved.sources.iter().any(|x| x.id == s.id)
                {
                    let mut label = s.id.as_str();
                    while let Some(rest) = label.strip_prefix("fn-") {
                        label = rest;
                    }
                    let label = label.to_string();
                    let mut src = s.clone();
                    src.number = 0;
                    src.cited = false;
                    src.cite_count = 0;
                    if let Some(prev) = out
                        .iter_mut()
                        .find(|d: &&mut crate::core::draft::DraftSource| d.source.id == src.id)
                    {
                        merge_source(&mut prev.source, src);
                        continue;
                    }
                    out.push(crate::core::draft::DraftSource {
                        source: src,
                        keys: vec![crate::core::markers::SourceKey::Name(format!("^{label}"))],
                        given_number: crate::core::bytes::uint_as(&label),
                    });
                }
            }
        }
        out
    }

    /// Joins the committed blocks again from the start (after the base changed or
    /// blocks were resolved anew).
    fn rejoin(&mut self) {
        let (mut joined, mut snapshot) = Joined::start(
            &self.base_resolved,
            (self.format, self.base.content_kind),
            &self.options,
        );
        for b in &self.blocks {
            joined.add(&mut snapshot, &b.answer, &self.options, true);
        }
        self.joined = joined;
        self.snapshot = snapshot;
        self.in_place = true;
    }
}

/// The byte of the text an explicit span belongs to: its last one, or its place when it
/// is empty (a point, such as a `file_citation`'s index).
fn span_anchor(span: &DraftSpan) -> usize {
    if span.end > span.start {
        span.end - 1
    } else {
        span.end
    }
}

/// Whether `raw` may hold a link reference definition (`[label]: ...`) or a footnote
/// definition (`[^label]: ...`), also inside list items and quotes: both reach across
/// blocks (a definition makes `[text][1]` a link; footnotes merge with each other and
/// with data sources). Any `]:` counts; a false alarm costs one one-shot parse.
fn has_reference_definition(raw: &str) -> bool {
    crate::core::bytes::find(raw.as_bytes(), b"]:").is_some()
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

/// The end of the first complete block of `tail`: the start of a line at column 0 that
/// follows a blank line, outside every protected region (code fences, HTML comments).
pub fn block_boundary(tail: &str) -> Option<usize> {
    let mut search = 0;
    let mut protected: Option<Vec<std::ops::Range<usize>>> = None;
    while let Some(p) = crate::core::bytes::find(&tail.as_bytes()[search..], b"\n\n") {
        let mut b = search + p + 2;
        while b < tail.len() && tail.as_bytes()[b] == b'\n' {
            b += 1;
        }
        search = b.min(tail.len());
        if b >= tail.len() {
            return None; // what follows the blank line is not here yet
        }
        let c = tail.as_bytes()[b];
        if c == b' ' || c == b'\t' || c == b'\r' {
            continue;
        }
        let regions =
            protected.get_or_insert_with(|| protected_regions(tail, TextSyntax::Markdown));
        if regions.iter().any(|r| r.start < b && b < r.end) {
            continue;
        }
        if unclosed_html_block(&tail[..b]) {
            continue;
        }
        return Some(b);
    }
    None
}

/// Whether `s` opens an HTML block that can span blank lines (CommonMark types 1-5:
/// `<script>`, `<pre>`, `<style>`, `<textarea>`, comments, processing instructions,
/// declarations, CDATA) and does not close it.
fn unclosed_html_block(s: &str) -> bool {
    let mut open: Option<&'static str> = None;
    let mut offset = 0;
    for line in crate::core::bytes::split_inclusive(s, "\n") {
        let start = offset;
        offset += line.len();
        if open.is_some() {
            continue;
        }
        let t = line.trim_start_matches(' ');
        if line.len() - t.len() > 3 || !t.starts_with('<') {
            continue;
        }
        let lower = t.to_ascii_lowercase();
        let end = if lower.starts_with("<!--") {
            "-->"
        } else if lower.starts_with("<![cdata[") {
            "]]>"
        } else if lower.starts_with("<?") {
            "?>"
        } else if lower.starts_with("<!")
            && lower[2..].starts_with(|c: char| c.is_ascii_alphabetic())
        {
            ">"
        } else if let Some(tag) = ["script", "pre", "style", "textarea"]
            .iter()
            .find(|tag| lower[1..].starts_with(**tag))
        {
            match *tag {
                "script" => "</script>",
                "pre" => "</pre>",
                "style" => "</style>",
                _ => "</textarea>",
            }
        } else {
            continue;
        };
        let body_from = start + (line.len() - t.len()) + 2;
        if !crate::core::bytes::has(&s[body_from.min(s.len())..].to_ascii_lowercase(), end) {
            open = Some(end);
        }
    }
    open.is_some()
}

/// What of `text` (the end of a streamed answer) is read now: its length without what
/// [`hold_back`] keeps back, and the backtick run that closes a code span still open
/// in what remains ([`unclosed_code_span`]). Text after a backtick run that is not
/// closed yet may still become code: it is read as code for now (the view shows it so),
/// so that no marker shows there that the closing run would turn into text; once its
/// block is complete it is read as it is.
fn shown_part(text: &str, grammar: &Grammar) -> (usize, Option<String>) {
    let len = hold_back(text, grammar);
    let closer = unclosed_code_span(&text[..len]).map(|n| format!(" {}", "`".repeat(n)));
    (len, closer)
}

/// Cuts a draft's text to its first `len` bytes (a char boundary): an explicit span
/// that covers only text held back is left for later (as the parsers leave one past
/// the end of the text), one that reaches into it ends at the cut, and diagnostics are
/// clamped to it.
fn cut_draft(draft: &mut Draft, len: usize) {
    if len >= draft.text.len() {
        return;
    }
    draft.text.truncate(len);
    draft
        .spans
        .retain(|s| s.start < len || (s.start == len && s.end == len));
    for s in &mut draft.spans {
        s.end = s.end.min(len);
    }
    for d in &mut draft.diagnostics {
        d.start = d.start.map(|p| p.min(len));
        d.end = d.end.map(|p| p.min(len));
    }
}

/// Takes the code span closer that [`shown_part`] added back off the answer's text.
fn strip_closer(a: &mut CitedAnswer, closer: Option<&str>) {
    if let Some(c) = closer {
        if a.text.ends_with(c) {
            a.text.truncate(a.text.len() - c.len());
        }
    }
}

/// What of a streamed answer a view shows when no [`StreamParser`] reads it (its data
/// was refused): the text without a partial marker or a link still arriving at its end,
/// every marker form read ([`hold_back`] with [`Grammar::ALL`]).
pub fn shown_without_parser(text: &str) -> &str {
    &text[..hold_back(text, &Grammar::ALL)]
}

/// The length of `tail` that can be shown: everything but a trailing partial marker,
/// and a link whose destination is still arriving (`[3](https://ex`, `[see [3]](ht`):
/// its label may look like a marker now and turn into link text with the `)`.
pub fn hold_back(tail: &str, grammar: &Grammar) -> usize {
    let n = hold_back_marker(tail, grammar);
    if grammar.numeric || grammar.sid || grammar.footnotes || grammar.usage {
        if let Some(start) = unclosed_link_start(&tail[..n]) {
            return start;
        }
    }
    n
}

/// The length of the backtick run that opens a code span `text` does not close yet, in
/// its last paragraph, outside code blocks and other protected regions; `None` when
/// every code span is closed.
pub fn unclosed_code_span(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let para = crate::core::bytes::rfind(b, b"\n\n").map_or(0, |i| i + 2);
    let first = crate::core::bytes::memchr(b'`', &b[para..])? + para;
    let regions = protected_regions(&text[para..], TextSyntax::Markdown);
    let mut i = first;
    while i < b.len() {
        if b[i] != b'`' {
            i += 1;
            continue;
        }
        let run = b[i..].iter().take_while(|&&c| c == b'`').count();
        let rel = i - para;
        let escaped = b[para..i].iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 1;
        if !escaped && !regions.iter().any(|r| r.start <= rel && rel < r.end) {
            return Some(run);
        }
        i += run;
    }
    None
}

/// How far back an unclosed link's label is looked for on the last line.
const LINK_LOOKBACK: usize = 4096;

/// The start of a link label whose destination is not closed yet at the end of `tail`:
/// the `[` matching the `]` before the first `(` of the last line that no `)` closes
/// (a destination may hold balanced parentheses, even a whole link: `[1]([1](u))`).
fn unclosed_link_start(tail: &str) -> Option<usize> {
    let from = crate::core::bytes::rfind_str(tail, "\n")
        .map_or(0, |i| i + 1)
        .max(tail.len().saturating_sub(LINK_LOOKBACK));
    // Bytes: every character looked for is ASCII, so `[` is always on a char boundary.
    let line = &tail.as_bytes()[from..];
    let mut open: Vec<usize> = Vec::new();
    for (i, &c) in line.iter().enumerate() {
        match c {
            b'(' => open.push(i),
            b')' => {
                open.pop();
            }
            _ => {}
        }
    }
    let paren = open.into_iter().find(|&i| i > 0 && line[i - 1] == b']')?;
    // The `[` that opens the label, past nested brackets (`[see [3]](`).
    let mut depth = 0usize;
    for i in (0..paren).rev() {
        match line[i] {
            b']' => depth += 1,
            b'[' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(from + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The length of `tail` without a trailing partial marker: from the first opener of
/// the last line (within a window) whose rest is still a partial marker, so that one
/// partial marker inside another (`<sup class="cite" data-sids="1">[S:`) is held back
/// whole.
fn hold_back_marker(tail: &str, grammar: &Grammar) -> usize {
    let b = tail.as_bytes();
    let n = b.len();
    // Look at most this far back for the opener of a partial marker.
    let window = n.saturating_sub(160);
    let mut held = n;
    let mut i = n;
    while i > window {
        i -= 1;
        if !tail.is_char_boundary(i) {
            continue;
        }
        let rest = &tail[i..];
        let c = rest.chars().next().unwrap_or(' ');
        let partial = match c {
            '[' if grammar.numeric || grammar.sid || grammar.footnotes || grammar.usage => {
                partial_bracket(rest)
            }
            '【' | '［' if grammar.numeric => {
                let close = if c == '【' { '】' } else { '］' };
                !crate::core::bytes::has_char(rest, close) && rest.chars().count() < 24
            }
            '\u{e200}' if grammar.openai => !crate::core::bytes::has_char(rest, '\u{e201}'),
            '<' if grammar.html_sup => {
                // Bytes, not a string slice: the rest may hold a multibyte character
                // within its first four bytes (`<む`), and `<sup` is ASCII.
                let lower = rest.to_ascii_lowercase();
                let head = &lower.as_bytes()[..lower.len().min(4)];
                (b"<sup".starts_with(head) || lower.starts_with("<sup"))
                    && !crate::core::bytes::has(&lower, "</sup>")
            }
            '\n' => break,
            _ => false,
        };
        if partial {
            // An earlier `[` of the same run (`[[S:1`) starts the marker.
            let mut s = i;
            while s > 0 && b[s - 1] == b'[' {
                s -= 1;
            }
            held = s;
            i = s;
        }
    }
    held
}

/// Whether `rest` (starting with `[`) may still become a marker or a link: it has no
/// closing bracket yet and holds only marker characters, or it is a complete bracket
/// group at the very end (`[1]` may still be followed by `(url)` or `:`).
fn partial_bracket(rest: &str) -> bool {
    let body = rest.trim_start_matches('[');
    let close = crate::core::bytes::find_str(body, "]");
    let inner = &body[..close.unwrap_or(body.len())];
    // A citation label names an id (a LlamaIndex node's UUID is 36 characters).
    let label = inner
        .get(..inner.len().min(9))
        .is_some_and(|head| "citation:"[..head.len()].eq_ignore_ascii_case(head));
    if inner.chars().count() > if label { 120 } else { 40 } {
        return false;
    }
    // `[1#suffix]`: after one number and `#`, any suffix but code or tags.
    let (list, suffix) = match crate::core::bytes::find_str(inner, "#") {
        Some(h) if h > 0 && inner.as_bytes()[..h].iter().all(u8::is_ascii_digit) => {
            (&inner[..h], &inner[h + 1..])
        }
        _ => (inner, ""),
    };
    let marker_chars = list.chars().all(|c| {
        c.is_ascii_digit()
            || matches!(c, ',' | ' ' | '-' | '–' | '#' | ':' | '^' | '_' | '.')
            || c.is_ascii_alphabetic()
            || (label && matches!(c, '/' | '@'))
    }) && !suffix.contains(['`', '<', '>']);
    if !marker_chars {
        return false;
    }
    match close {
        None => true,
        // `[1]`, `[[S:1]]`, `[1][2` ... at the very end: wait for what follows.
        Some(e) => body[e..].chars().all(|c| c == ']'),
    }
}

/// What changed between two snapshots of one streamed answer, for a view that settles
/// in place (patches the markers that changed) instead of rendering it all again.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Settle {
    /// Citations (same index before and after) whose marker shows differently: other
    /// sources, a source's number, title, domain or link changed, or pending turned live.
    pub markers: Vec<usize>,
    /// Whether a citation among those compared was dropped, added before another or
    /// its span changed: indices or span wrappers differ, not only markers.
    pub moved: bool,
    /// For each citation of the old snapshot, its index in the new one (same span).
    pub map: Vec<Option<usize>>,
}

impl Settle {
    /// Nothing to patch.
    pub fn is_empty(&self) -> bool {
        self.markers.is_empty() && !self.moved
    }
}

/// Compares the citations whose markers stand at or before byte `fixed` in `old` and
/// `new` (both sorted by end, as every [`CitedAnswer`] is); later ones are free to
/// change. Costs one pass over the citations and sources.
pub fn settle(old: &CitedAnswer, new: &CitedAnswer, fixed: usize) -> Settle {
    // What a marker shows of a source (its count may change without touching it).
    fn look(s: &Source) -> (u32, Option<&str>, Option<&str>, Option<&str>) {
        (
            s.number,
            s.title.as_deref(),
            s.domain.as_deref(),
            s.url.as_deref(),
        )
    }
    // Sources whose look changed. Most snapshots of a stream have the same sources in
    // the same order: then nothing is allocated.
    let same_sources = old.sources.len() == new.sources.len()
        && old
            .sources
            .iter()
            .zip(&new.sources)
            .all(|(a, b)| a.id == b.id && look(a) == look(b));
    let index = |a: &'_ CitedAnswer| -> Map<String, usize> {
        if same_sources {
            return Map::new();
        }
        a.sources
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.clone(), i))
            .collect()
    };
    let (before, now) = (index(old), index(new));
    let changed: Vec<bool> = if same_sources {
        Vec::new()
    } else {
        new.sources
            .iter()
            .map(|s| {
                before
                    .get(&s.id)
                    .is_none_or(|&i| look(&old.sources[i]) != look(s))
            })
            .collect()
    };
    let source_changed = |id: &String| !same_sources && now.get(id).is_none_or(|&k| changed[k]);
    // Old citation i and new citation j are one marker when they stand at the same place
    // (their spans may differ: a dropped marker before one widens its span); both lists
    // are sorted by end, so one merge pass pairs them.
    let mut map = vec![None; old.citations.len()];
    let mut j = 0;
    for (i, c) in old.citations.iter().enumerate() {
        while j < new.citations.len() && new.citations[j].end < c.end {
            j += 1;
        }
        if j < new.citations.len() && new.citations[j].end == c.end {
            map[i] = Some(j);
            j += 1;
        }
    }
    let upto = old.citations.partition_point(|c| c.end <= fixed);
    let mut out = Settle {
        moved: new.citations.partition_point(|c| c.end <= fixed) != upto,
        ..Settle::default()
    };
    for (i, c) in old.citations[..upto].iter().enumerate() {
        if map[i] != Some(i) || new.citations[i].start != c.start {
            out.moved = true;
            continue;
        }
        let n = &new.citations[i];
        if n.sources != c.sources || n.pending != c.pending || n.sources.iter().any(source_changed)
        {
            out.markers.push(i);
        }
    }
    out.map = map;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::options::Numbering;
    use serde_json::json;

    fn one_shot(text: &str, data: &Value, opts: &Options) -> CitedAnswer {
        crate::core::parse(Some(text), Data::Json(data), opts).unwrap()
    }

    #[test]
    fn hold_back_partial_markers() {
        let g = Grammar::ALL;
        for t in [
            "Paris [",
            "Paris [1",
            "Paris [1,",
            "Paris [[S:1,",
            "Paris 【1",
            "Paris [1]",
            "Paris [[S:1]",
            "x \u{e200}cite\u{e202}turn0",
            "a <su",
            "Paris [citation:3f2a1c9e-8b7d-4e6f-a5b4-c3d2e1f0a9b8",
            "Paris [[citation:3f2a1c9e-8b7d-4e6f-a5b4-c3d2e1f0a9b8]",
        ] {
            let h = hold_back(t, &g);
            assert!(h < t.len(), "{t:?} held back");
            assert!(t[..h].trim_end() == t[..h].trim_end(), "{t:?}");
        }
        for t in [
            "Paris [1] is",
            "Paris is big.",
            "a [link text that is long and has words like this one in it",
        ] {
            assert_eq!(hold_back(t, &g), t.len(), "{t:?} not held back");
        }
    }

    /// Regression: with a provider's object as data (a Perplexity chunk passed early,
    /// whose delta already holds text; an OpenAI Responses output), a marker still
    /// arriving showed (`Paris is the capital of France [`): data that carries its text
    /// or gives offsets is parsed whole on every chunk, and that parse held nothing
    /// back. With a citation map it never showed.
    #[test]
    fn a_marker_still_arriving_is_held_back_with_provider_data() {
        let url = "https://en.wikipedia.org/wiki/Paris";
        let perplexity_chunk = json!({"id": "p1", "model": "sonar", "object": "chat.completion.chunk",
            "citations": [url], "search_results": [{"title": "Paris", "url": url}],
            "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Paris"}}]});
        let openai = json!({"object": "response", "output": [{"type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": "Paris is the capital of France.",
                "annotations": [{"type": "url_citation", "start_index": 0, "end_index": 30,
                    "url": url, "title": "Paris"}]}]}]});
        let stored = json!({"sources": [{"id": "s1", "title": "Paris", "uri": url}],
            "references": [{"startIndex": 0, "endIndex": 30, "sourceIds": ["s1"]}]});
        let map = json!({"1": {"title": "Paris", "source": url}});
        let opts = Options::default();
        for data in [&perplexity_chunk, &openai, &stored, &map] {
            for partial in [
                "[",
                "[1",
                "[1,",
                "[[S:1,",
                "【1",
                "\u{e200}cite\u{e202}turn0",
                "<su",
            ] {
                let mut p = StreamParser::new(Data::Json(data), &opts).unwrap();
                p.push("Paris is the capital of France ");
                p.push(partial);
                assert_eq!(
                    p.snapshot().text,
                    "Paris is the capital of France ",
                    "{partial:?} with {data}"
                );
            }
            let mut p = StreamParser::new(Data::Json(data), &opts).unwrap();
            for chunk in ["Paris is the capital of France [", "1", "]", ". It is old"] {
                p.push(chunk);
            }
            assert_eq!(
                p.snapshot().text,
                "Paris is the capital of France. It is old",
                "{data}"
            );
            // A link still arriving is held back from its label too.
            let mut p = StreamParser::new(Data::Json(data), &opts).unwrap();
            p.push("Paris is the capital of France [1](https://ex");
            assert_eq!(
                p.snapshot().text,
                "Paris is the capital of France ",
                "{data}"
            );
        }
    }

    #[test]
    fn boundaries() {
        assert_eq!(block_boundary("a\n\nb"), Some(3));
        assert_eq!(block_boundary("a\n\n"), None);
        assert_eq!(block_boundary("- a\n\n  b"), None);
        assert_eq!(block_boundary("```\nx\n\ny"), None);
        assert_eq!(block_boundary("```\nx\n```\n\ny"), Some(11));
    }

    #[test]
    fn chunked_equals_one_shot_simple() {
        let data = json!({"1": {"title": "A", "source": "https://a.example"}, "2": {"title": "B", "source": "https://b.example"}});
        let text =
            "Intro [2] here.\n\n- item [1]\n- two [1][2]\n\n```\nx[1]\n```\n\nEnd [3] and [2].";
        let opts = Options::default();
        let expected = one_shot(text, &data, &opts);
        for size in 1..8 {
            let mut p = StreamParser::new(Data::Json(&data), &opts).unwrap();
            let chars: Vec<char> = text.chars().collect();
            for ch in chars.chunks(size) {
                let s: String = ch.iter().collect();
                p.push(&s);
                // Never a literal marker in the visible text.
                assert!(
                    !p.snapshot().text.replace("x[1]", "").contains("[1]"),
                    "{:?}",
                    p.snapshot().text
                );
            }
            let got = p.finish().clone();
            assert_eq!(got.text, expected.text, "size {size}");
            assert_eq!(got.citations, expected.citations, "size {size}");
            assert_eq!(got.sources, expected.sources, "size {size}");
        }
    }

    #[test]
    fn hold_back_an_unclosed_link_with_a_marker_label() {
        let g = Grammar::ALL;
        for (t, shown) in [
            ("As shown in [3](https://ex", "As shown in "),
            ("As shown in [3](", "As shown in "),
            ("See [see [3]](https://ex", "See "),
            ("A [1] and [3](u \"Ti", "A [1] and "),
            ("x [1]([1](https://e", "x "),
            ("x [1]([1](https://e) (a", "x "),
        ] {
            assert_eq!(&t[..hold_back(t, &g)], shown, "{t:?}");
        }
        for t in [
            "As shown in [3](https://ex.org) and",
            "A (b) [1] c",
            "x](y",
            "[1]([1](u)) and (",
        ] {
            assert_eq!(hold_back(t, &g), t.len(), "{t:?}");
        }
    }

    #[test]
    fn unclosed_code_spans() {
        assert_eq!(unclosed_code_span("a `b [1]"), Some(1));
        assert_eq!(unclosed_code_span("a ``b ` [1]"), Some(2));
        assert_eq!(unclosed_code_span("a `b` [1]"), None);
        assert_eq!(unclosed_code_span("a \\`b [1]"), None);
        assert_eq!(unclosed_code_span("x `a\n\ny [1]"), None);
        assert_eq!(unclosed_code_span("no code [1]"), None);
    }

    #[test]
    fn text_after_an_unclosed_backtick_is_read_as_code_until_its_block_ends() {
        let data = json!({"1": {"title": "A", "source": "https://a.example"}});
        let opts = Options::default();
        let mut p = StreamParser::new(Data::Json(&data), &opts).unwrap();
        p.push("Use `x [1] now");
        assert!(p.snapshot().citations.is_empty(), "{:?}", p.snapshot());
        assert_eq!(p.snapshot().text, "Use `x [1] now");
        // The backtick closes: code it was.
        p.push("` here [1].");
        assert_eq!(p.snapshot().citations.len(), 1);
        // One that never closes: the block, once complete, reads it as text.
        p.push("\n\nA lone ` and [1]");
        p.push(".\n\nNext");
        assert_eq!(p.snapshot().citations.len(), 2, "{:?}", p.snapshot());
    }

    #[test]
    fn settle_names_the_markers_that_changed() {
        let opts = Options::default();
        let mut p = StreamParser::new(Data::None, &opts).unwrap();
        p.push("Paris [1].\n\nLyon [2] and Nice [3].\n\nTail");
        let before = p.snapshot().clone();
        let fixed = p.stable_len();
        let data = json!({"2": {"title": "B", "source": "https://b.example"}});
        p.set_data(Data::Json(&data)).unwrap();
        let after = p.snapshot().clone();
        let s = settle(&before, &after, fixed);
        assert!(!s.moved);
        assert_eq!(s.markers, vec![1]);
        assert_eq!(s.map, vec![Some(0), Some(1), Some(2)]);
        // A source's title changes: its markers show it (their label), nothing else.
        let retitled = json!({"2": {"title": "B2"}});
        p.set_data(Data::Json(&retitled)).unwrap();
        let s = settle(&after, p.snapshot(), fixed);
        assert_eq!((s.markers, s.moved), (vec![1], false));
        let after = p.snapshot().clone();
        // Unresolved markers are dropped at the end: the later ones change index.
        let done = p.finish().clone();
        let s = settle(&after, &done, fixed);
        assert!(s.moved);
        assert_eq!(s.map, vec![None, Some(0), None]);
        assert!(settle(&done, &done, usize::MAX).is_empty());
    }

    #[test]
    fn late_data_turns_markers_live() {
        let opts = Options::default();
        let mut p = StreamParser::new(Data::None, &opts).unwrap();
        p.push("Paris is the capital [1].\n\nLyon [2] too.");
        let s = p.snapshot();
        assert_eq!(s.text, "Paris is the capital.\n\nLyon too.");
        assert_eq!(s.citations.len(), 2);
        assert_eq!(s.citations[0].pending, vec!["1"]);
        let data = json!({"1": {"title": "A", "source": "https://a.example"}});
        p.set_data(Data::Json(&data)).unwrap();
        let s = p.snapshot();
        assert!(s.citations[0].pending.is_empty());
        assert_eq!(s.citations[0].sources, vec!["1"]);
        assert_eq!(s.citations[1].pending, vec!["2"]);
        let done = p.finish();
        assert_eq!(done.citations.len(), 1);
        assert!(done
            .diagnostics
            .iter()
            .any(|d| d.code == "unresolved-marker"));
    }

    /// A stream that starts with empty data (`{}`, `[]`, `{"sources": []}`) shows its
    /// markers pending, as with no data, and the first data decides the format:
    /// regression for `[]` fixing the stream as markdown (`[1]` literal for good) and
    /// `{}` refusing it (`[1]` literal until more data came).
    #[test]
    fn empty_data_at_the_start_is_data_to_come() {
        let opts = Options::default();
        let map = json!({"1": {"title": "A", "source": "https://a.example"}});
        // Arrays: an AI SDK message's parts (a format of every build) and scintilla's
        // tool metadata.
        let parts = json!([{"type": "source-url", "sourceId": "a", "url": "https://a.example", "title": "A"}]);
        let mut late = vec![&map, &parts];
        let scintilla = json!([{"urls": ["https://a.example"], "titles": ["A"]}]);
        if cfg!(feature = "scintilla") {
            late.push(&scintilla);
        }
        for start in [json!({}), json!([]), json!({"sources": []}), json!(null)] {
            for data in late.iter().copied() {
                let mut p = StreamParser::new(Data::Json(&start), &opts).unwrap();
                p.push("Hello [1] world.");
                let s = p.snapshot();
                assert_eq!(s.text, "Hello world.", "{start}");
                assert_eq!(s.citations[0].pending, vec!["1"], "{start}");
                p.set_data(Data::Json(data)).unwrap();
                let s = p.snapshot();
                assert!(s.citations[0].pending.is_empty(), "{start} {data}");
                assert_eq!(s.sources.len(), 1, "{start} {data}");
                assert_eq!(s.sources[0].title.as_deref(), Some("A"));
                let done = p.finish().clone();
                let whole =
                    crate::core::parse(Some("Hello [1] world."), Data::Json(data), &opts).unwrap();
                assert_eq!(done, whole, "{start} {data}");
            }
            // No data by the end: as a one-shot parse without data, `[1]` is text.
            let mut p = StreamParser::new(Data::Json(&start), &opts).unwrap();
            p.push("Hello [1] world.");
            assert_eq!(p.finish().text, "Hello [1] world.", "{start}");
        }
        // Stored data after none: its spans index the text, read as stored.
        let stored = json!({"sources": [{"id": "s1", "title": "S", "uri": "https://s.example"}],
            "references": [{"startIndex": 0, "endIndex": 5, "sourceIds": ["s1"]}]});
        let mut p = StreamParser::new(Data::None, &opts).unwrap();
        p.push("Hello world.");
        p.set_data(Data::Json(&stored)).unwrap();
        assert_eq!(p.format(), Format::Stored);
        assert_eq!(p.snapshot().citations.len(), 1);
        assert_eq!(
            p.finish().clone(),
            crate::core::parse(Some("Hello world."), Data::Json(&stored), &opts).unwrap()
        );
        // A format given stays: `{}` as a citation map is an empty one.
        let given = Options {
            format: FormatChoice::Given(Format::CitationMap),
            ..Options::default()
        };
        let mut p = StreamParser::new(Data::Json(&json!({})), &given).unwrap();
        p.push("Hello [1] world.");
        assert_eq!(p.snapshot().citations[0].pending, vec!["1"]);
    }

    /// Streams `pieces` one push each (with `data` given at push `late`, if any) and
    /// checks after every push that the snapshot kept in place is the one put together
    /// from scratch.
    fn check_in_place(
        pieces: &[String],
        first: &Value,
        late: Option<(usize, &Value)>,
        opts: &Options,
    ) {
        let mut p = StreamParser::new(Data::Json(first), opts).unwrap();
        for (n, piece) in pieces.iter().enumerate() {
            if let Some((at, d)) = late {
                if at == n {
                    p.set_data(Data::Json(d)).unwrap();
                    assert_eq!(p.snapshot(), &scratch::scratch(&p), "after set_data at {n}");
                }
            }
            p.push(piece);
            if p.in_place {
                let text: String = pieces[..=n].concat();
                assert_eq!(p.snapshot(), &scratch::scratch(&p), "after {text:?}");
            }
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn in_place_piece() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        prop_oneof![
            "[a-z]{1,6}".prop_map(|w| format!("{w} ")),
            (1u8..7).prop_map(|n| format!("[{n}]")),
            (1u8..4).prop_map(|n| format!("[{n}][{}]", n + 1)),
            (1u8..4).prop_map(|n| format!("[^{n}]")),
            Just("[^a]".to_string()),
            (1u8..4).prop_map(|n| format!("\n\n[^{n}]: https://f{n}.example/x Note {n}\n\n")),
            Just("\n\n[^a]: https://one.example/a Same as one\n\n".to_string()),
            Just("\n\n[^2]: a note with no link\n\n".to_string()),
            Just("[[USAGE:2]]".to_string()),
            Just("`code [1]`".to_string()),
            Just(". ".to_string()),
            Just("\n\n".to_string()),
            Just("\n- ".to_string()),
            Just("[".to_string()),
            Just("]".to_string()),
            Just("(".to_string()),
            Just("(https://l.example)".to_string()),
            Just("`".to_string()),
        ]
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, .. proptest::prelude::ProptestConfig::default() })]
        #[test]
        fn in_place_snapshot_equals_a_scratch_assembly(
            pieces in proptest::collection::vec(in_place_piece(), 1..40),
            late in proptest::option::of(0usize..40),
            given in proptest::bool::ANY,
            hide in proptest::bool::ANY,
        ) {
            let first = json!({"1": {"title": "One", "source": "https://one.example/a"},
                               "2": {"title": "Two", "source": "https://two.example/b"},
                               "3": {"title": "Three", "source": "docs/three.md"}});
            let more = json!({"4": {"title": "Four", "source": "https://four.example/"},
                              "5": {"title": "Five", "source": "https://one.example/a/"}});
            let opts = Options {
                numbering: if given { Numbering::Given } else { Numbering::FirstCited },
                show_citations: !hide || given,
                ..Options::default()
            };
            check_in_place(&pieces, &first, late.map(|n| (n, &more)), &opts);
        }
    }

    #[test]
    fn in_place_snapshot_equals_a_scratch_assembly_on_footnotes_across_blocks() {
        let data = json!({"1": {"title": "One", "source": "https://one.example/a"},
                          "2": {"title": "Two", "source": "https://two.example/b"}});
        // `[^z]` is defined twice: the second definition (in the open tail, arriving
        // char by char) fills the url the first one lacks, until it commits.
        let text = "Intro [2] and a note [^x].\n\nMore [^y][1] here [3].\n\n- item [^x]\n- two [2]\n\n[^y]: https://y.example/ Why\n[^x]: https://one.example/a Same\n\n[^z]: plain words\n\nAfter [^x] and [[USAGE:2]] end [4] [^z].\n\n[^z]: https://z.example/a/long/path Zed\n\nEnd [1].";
        let more = json!({"3": {"title": "Three", "source": "https://three.example/"}});
        for step in [1, 2, 3, 5, 8] {
            let chars: Vec<char> = text.chars().collect();
            let pieces: Vec<String> = chars.chunks(step).map(|c| c.iter().collect()).collect();
            for numbering in [Numbering::FirstCited, Numbering::Given] {
                let opts = Options {
                    numbering,
                    ..Options::default()
                };
                check_in_place(&pieces, &data, None, &opts);
                check_in_place(&pieces, &data, Some((pieces.len() / 2, &more)), &opts);
            }
        }
    }
}
