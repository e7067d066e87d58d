//! The builder every shape of an `ai-sdk` answer goes through: a message part by part,
//! a stream chunk by chunk; its text, paragraphs and the provider positions over it.

use crate::core::draft::{Draft, DraftSource, DraftSpan, SourceRef};
use crate::core::formats::support::{self};
use crate::core::json_fields::{wrong_type, Fields};
use crate::core::markers::{SourceKey, TextSyntax};
use crate::core::model::{Diagnostic, Format, Location, MergeWins, Source, SourceScope};
use crate::core::offsets::{OffsetIndex, PositionEncoding};
use crate::core::options::Options;
use crate::core::ordered_hash::OrderedHashMap;
use crate::core::untrusted_text::excerpt200;
#[cfg(feature = "providers")]
use crate::core::untrusted_text::normalize_url;
use serde_json::Value;

#[cfg(feature = "providers")]
use super::object;

/// A text part being read: its text is written to the answer as it comes while it is
/// the first open one; a later one started while it is open waits in `pending`.
#[derive(Debug, Clone)]
pub(super) struct OpenText {
    /// The part's id (the stream's `id`; a message's parts are read one at a time).
    pub(super) id: String,
    /// Gap parts (see [`Builder::gaps`]) before it started.
    pub(super) gaps: u64,
    /// Steps before it started.
    pub(super) steps: u64,
    /// Its text not yet written to the answer.
    pub(super) pending: String,
    /// Where its text starts in the answer, once written.
    pub(super) start: Option<usize>,
    /// `text-end` came.
    pub(super) ended: bool,
    /// The part's `providerMetadata` (the last one given).
    pub(super) provider_metadata: Option<Value>,
    /// The part's `citations` (`ai` 7: `{source, startIndex?, endIndex?, citedText?}`).
    pub(super) citations: Option<Value>,
    /// Anthropic document citations given while it streamed (source-document parts).
    pub(super) document_citations: Vec<DocumentCitation>,
    /// Where it sits in the data, for diagnostics.
    pub(super) path: String,
}

/// An Anthropic document citation read from a `source-document` part.
#[derive(Debug, Clone)]
pub(super) struct DocumentCitation {
    pub(super) source: usize,
    pub(super) cited_text: Option<String>,
    pub(super) location: Option<Location>,
}

/// Builds a draft from the parts of a message, read one at a time in order, or from
/// the chunks of a UI message stream: both read through the same steps, so a stream
/// ends as `parse` of the message it makes.
#[derive(Debug, Clone)]
pub(super) struct Builder {
    pub(super) draft: Draft,
    pub(super) options: Options,
    /// Text parts started and not yet all written, in start order.
    pub(super) open: Vec<OpenText>,
    /// Parts that are not text or sources, so far (a text part after one of them starts
    /// a new paragraph).
    pub(super) gaps: u64,
    /// Gap count the last written text part started after.
    pub(super) gaps_written: u64,
    /// `step-start` parts so far.
    pub(super) steps: u64,
    /// The number of the last step that has text, and where its text starts.
    pub(super) step_text: Option<(u64, usize)>,
    /// The last text part written: its range in the answer.
    pub(super) last_text: Option<(usize, usize)>,
    /// Whether that part's citations were placed from its own data (a document
    /// citation of a source part after it is then one of them).
    pub(super) last_text_placed: bool,
    /// Document sources by title: a provider's citation names its document by title.
    pub(super) doc_titles: OrderedHashMap<String, usize>,
    /// Source lookups: normalized url (or raw link) → index, id → index.
    pub(super) by_url: OrderedHashMap<String, usize>,
    pub(super) by_id: OrderedHashMap<String, usize>,
    /// Distinct source parts so far (the marker numbers), by their dedupe key.
    pub(super) numbered: OrderedHashMap<String, u64>,
    /// The `sourceId` of the first source part of each source, by index: its id
    /// whichever record of it came first (a provider's annotation is read when its text
    /// part ends, which is before its source parts in a message and after them in a
    /// stream).
    pub(super) part_ids: OrderedHashMap<usize, String>,
    /// The message's `metadata` (merged as the stream gives it).
    pub(super) message_metadata: Option<Value>,
    /// Parts that are neither text nor sources, for the metadata.
    pub(super) other: Vec<Value>,
    /// [`Builder::end`] ran.
    pub(super) ended: bool,
    /// Whether provider positions were seen that this build does not read.
    #[cfg(not(feature = "providers"))]
    pub(super) positions_skipped: bool,
}

impl Builder {
    pub(super) fn new(options: &Options) -> Self {
        let mut draft = Draft::new(Format::AiSdk, "");
        draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
        Builder {
            draft,
            options: options.clone(),
            open: Vec::new(),
            gaps: 0,
            gaps_written: 0,
            steps: 0,
            step_text: None,
            last_text: None,
            last_text_placed: false,
            doc_titles: OrderedHashMap::new(),
            by_url: OrderedHashMap::new(),
            by_id: OrderedHashMap::new(),
            numbered: OrderedHashMap::new(),
            part_ids: OrderedHashMap::new(),
            message_metadata: None,
            other: Vec::new(),
            #[cfg(not(feature = "providers"))]
            positions_skipped: false,
            ended: false,
        }
    }

    /// One part of a message.
    pub(super) fn part(&mut self, part: &Value, path: &str) {
        let Value::Object(o) = part else {
            self.draft
                .diagnostics
                .push(wrong_type(path, "a message part", part));
            return;
        };
        match o.get("type").and_then(Value::as_str) {
            Some("text") => {
                let mut f = Fields::new(o, path);
                let text = match f.value("text") {
                    Some(Value::String(s)) => s.as_str(),
                    Some(other) => {
                        self.draft.diagnostics.push(wrong_type(
                            &f.path_of("text"),
                            "a string",
                            other,
                        ));
                        ""
                    }
                    None => "",
                };
                let id = format!("\u{0}{path}");
                self.text_start(&id, path);
                self.text_delta(&id, text, None);
                self.text_end(&id, o.get("providerMetadata"), o.get("citations"));
            }
            Some("source-url") => {
                self.source_url(o, path, true);
            }
            Some("source-document") => {
                self.source_document(o, path, true);
            }
            Some("step-start") => self.step_start(),
            Some(_) => self.other_part(part.clone()),
            None => {
                self.draft.diagnostics.push(
                    Diagnostic::warning(
                        "missing-field",
                        format!("`{path}.type` is missing; the part is kept in the metadata"),
                    )
                    .at_path(format!("{path}.type")),
                );
                self.other_part(part.clone());
            }
        }
    }

    pub(super) fn step_start(&mut self) {
        self.steps += 1;
        self.gaps += 1;
    }

    /// A part that is not text or a source: kept, and the next text starts a new
    /// paragraph.
    pub(super) fn other_part(&mut self, part: Value) {
        self.gaps += 1;
        self.other.push(part);
    }

    pub(super) fn text_start(&mut self, id: &str, path: &str) {
        self.open.push(OpenText {
            id: id.to_string(),
            gaps: self.gaps,
            steps: self.steps,
            pending: String::new(),
            start: None,
            ended: false,
            provider_metadata: None,
            citations: None,
            document_citations: Vec::new(),
            path: path.to_string(),
        });
    }

    /// More text of part `id` (and, as a stream's delta may carry it, its provider
    /// metadata so far).
    pub(super) fn text_delta(&mut self, id: &str, delta: &str, provider_metadata: Option<&Value>) {
        let Some(i) = self.open.iter().position(|t| t.id == id) else {
            return;
        };
        if let Some(m) = provider_metadata.filter(|m| !m.is_null()) {
            self.open[i].provider_metadata = Some(m.clone());
        }
        if i == 0 {
            self.write(0, delta);
        } else {
            self.open[i].pending.push_str(delta);
        }
    }

    /// Writes text of the first open part to the answer (the paragraph break first,
    /// when it is the part's first text).
    pub(super) fn write(&mut self, i: usize, text: &str) {
        if text.is_empty() {
            return;
        }
        let t = &mut self.open[i];
        if t.start.is_none() {
            let answer = &mut self.draft.text;
            if t.gaps > self.gaps_written && !answer.is_empty() && !answer.ends_with("\n\n") {
                answer.push_str(if answer.ends_with('\n') { "\n" } else { "\n\n" });
            }
            self.gaps_written = t.gaps;
            t.start = Some(answer.len());
            if self.step_text.is_none_or(|(step, _)| t.steps > step) {
                self.step_text = Some((t.steps, answer.len()));
            }
        }
        self.draft.text.push_str(text);
    }

    pub(super) fn text_end(
        &mut self,
        id: &str,
        provider_metadata: Option<&Value>,
        citations: Option<&Value>,
    ) {
        let Some(t) = self.open.iter_mut().find(|t| t.id == id) else {
            return;
        };
        t.ended = true;
        if let Some(m) = provider_metadata.filter(|m| !m.is_null()) {
            t.provider_metadata = Some(m.clone());
        }
        if let Some(c) = citations.filter(|c| !c.is_null()) {
            t.citations = Some(c.clone());
        }
        self.flush();
    }

    /// Finishes the ended parts at the head of the open list, and writes the waiting
    /// text of the part that then comes first.
    pub(super) fn flush(&mut self) {
        while self.open.first().is_some_and(|t| t.ended) {
            let t = self.open.remove(0);
            self.finish_text(t);
            if self.open.is_empty() {
                break;
            }
            let pending = std::mem::take(&mut self.open[0].pending);
            self.write(0, &pending);
        }
    }

    /// A text part is complete: its range is known, its positions are read: the
    /// provider's own (its parser places them), else the part's `citations`, else the
    /// document citations of the source parts given while it streamed.
    pub(super) fn finish_text(&mut self, t: OpenText) {
        let Some(start) = t.start else {
            return;
        };
        let end = self.draft.text.len();
        self.last_text = Some((start, end));
        let mut placed = false;
        if let Some(Value::Object(meta)) = &t.provider_metadata {
            for (provider, m) in meta {
                let path = format!("{}.providerMetadata.{provider}", t.path);
                placed |= self.provider_positions(m, start, end, &path);
            }
        }
        if !placed {
            if let Some(Value::Array(citations)) = &t.citations {
                placed =
                    self.part_citations(citations, start, end, &format!("{}.citations", t.path));
            }
        }
        #[cfg(not(feature = "providers"))]
        if !placed {
            if let Some(Value::Object(meta)) = &t.provider_metadata {
                self.positions_skipped |= meta.values().any(|m| {
                    m.get("annotations").is_some_and(Value::is_array)
                        || m.get("citations").is_some_and(Value::is_array)
                });
            }
        }
        if !placed {
            for c in t.document_citations {
                let mut span = DraftSpan::new(start, end, vec![SourceRef::Index(c.source)]);
                span.cited_text = c.cited_text;
                span.location = c.location;
                self.draft.spans.push(span);
            }
        }
        self.last_text_placed = placed;
    }

    /// A text part's provider metadata: OpenAI annotations or Anthropic citations over
    /// `answer[start..end]`. Whether there were any.
    #[cfg(feature = "providers")]
    pub(super) fn provider_positions(
        &mut self,
        m: &Value,
        start: usize,
        end: usize,
        path: &str,
    ) -> bool {
        let text = self.draft.text[start..end].to_string();
        let sub = if let Some(a) = m.get("annotations").filter(|a| a.is_array()) {
            let mut item = object(&[("type", "output_text"), ("text", &text)]);
            item["annotations"] = a.clone();
            crate::core::formats::openai::parse(None, Some(&item), &self.options)
        } else if let Some(c) = m.get("citations").filter(|c| c.is_array()) {
            let mut block = object(&[("type", "text"), ("text", &text)]);
            block["citations"] = c.clone();
            let blocks = Value::Array(vec![block]);
            crate::core::formats::anthropic::parse(None, Some(&blocks), &self.options)
        } else {
            return false;
        };
        match sub {
            Ok(sub) => {
                self.absorb(sub, start, path);
                true
            }
            Err(_) => false,
        }
    }

    /// Without the provider formats, provider positions are not read here (the
    /// part's `citations` still are; [`Builder::finish_text`] says what was skipped).
    #[cfg(not(feature = "providers"))]
    pub(super) fn provider_positions(
        &mut self,
        _m: &Value,
        _start: usize,
        _end: usize,
        _path: &str,
    ) -> bool {
        false
    }

    /// A text part's `citations` (`ai` 7's own, `{source, startIndex?, endIndex?,
    /// citedText?}`): each one a span over `startIndex..endIndex` of the part (UTF-16
    /// code units, JS string offsets; `inputEncoding` overrides), or over the whole
    /// part without them. Whether any was placed.
    pub(super) fn part_citations(
        &mut self,
        citations: &[Value],
        start: usize,
        end: usize,
        path: &str,
    ) -> bool {
        let encoding = self
            .options
            .input_encoding
            .unwrap_or(PositionEncoding::Utf16);
        let text = self.draft.text[start..end].to_string();
        let ix = OffsetIndex::new(&text, encoding);
        let mut placed = false;
        for (j, c) in citations.iter().enumerate() {
            let cpath = format!("{path}[{j}]");
            let Some(o) = c.as_object() else {
                self.draft
                    .diagnostics
                    .push(wrong_type(&cpath, "a citation object", c));
                continue;
            };
            let mut f = Fields::new(o, cpath.as_str());
            let Some(Value::Object(so)) = f.value("source") else {
                self.draft.diagnostics.push(
                    Diagnostic::warning(
                        "missing-field",
                        format!("`{cpath}.source` is missing; the citation is skipped"),
                    )
                    .at_path(format!("{cpath}.source")),
                );
                continue;
            };
            let spath = format!("{cpath}.source");
            let i = match so.get("sourceType").and_then(Value::as_str) {
                Some("document") => self.source_document(so, &spath, false),
                _ => self.source_url(so, &spath, false),
            };
            let diags = &mut self.draft.diagnostics;
            let s = f.uint("startIndex", diags);
            let e = f.uint("endIndex", diags);
            let cited = f
                .string("citedText", diags)
                .filter(|t| !t.trim().is_empty())
                .map(|t| excerpt200(&t));
            let range = match (s, e) {
                (Some(s), Some(e)) => support::byte_span(&ix, encoding, s, e, &cpath, diags)
                    .map(|(a, b)| (start + a, start + b)),
                (None, Some(e)) => support::byte_span(&ix, encoding, 0, e, &cpath, diags)
                    .map(|(a, b)| (start + a, start + b)),
                _ => Some((start, end)),
            };
            let Some((a, b)) = range else {
                continue;
            };
            let mut span = DraftSpan::new(a, b, vec![SourceRef::Index(i)]);
            span.cited_text = cited;
            self.draft.spans.push(span);
            placed = true;
        }
        placed
    }

    /// Takes a provider parser's draft over the text at `offset`: its sources merged
    /// into these (by id, then url), its spans and diagnostics moved by `offset`.
    #[cfg(feature = "providers")]
    pub(super) fn absorb(&mut self, sub: Draft, offset: usize, path: &str) {
        let map: Vec<usize> = sub
            .sources
            .into_iter()
            .map(|ds| {
                let key = ds.source.url.as_deref().map(normalize_url);
                let doc = key
                    .is_none()
                    .then(|| {
                        ds.source
                            .title
                            .as_ref()
                            .and_then(|t| self.doc_titles.get(t))
                            .copied()
                    })
                    .flatten();
                match doc {
                    Some(i) => {
                        self.draft.sources[i]
                            .source
                            .merge(ds.source, MergeWins::Kept);
                        i
                    }
                    None => {
                        let title = ds.source.title.clone().filter(|_| key.is_none());
                        let i = self.add_source(ds.source, key, None);
                        if let Some(t) = title {
                            self.doc_titles.or_insert(t, i);
                        }
                        i
                    }
                }
            })
            .collect();
        for mut span in sub.spans {
            span.start += offset;
            span.end += offset;
            span.sources = span
                .sources
                .into_iter()
                .filter_map(|r| match r {
                    SourceRef::Index(i) => map.get(i).map(|&j| SourceRef::Index(j)),
                    SourceRef::Key(_) => None,
                })
                .collect();
            support::push_span(&mut self.draft, span);
        }
        for mut d in sub.diagnostics {
            if let (Some(s), Some(e)) = (d.start, d.end) {
                d.start = Some(s + offset);
                d.end = Some(e + offset);
            }
            d.path = Some(match d.path.take() {
                Some(p) if p.starts_with('$') || p.is_empty() => path.to_string(),
                Some(p) => format!("{path}.{p}"),
                None => path.to_string(),
            });
            self.draft.diagnostics.push(d);
        }
    }

    /// Adds a source, or merges it into the one with the same id or dedupe key;
    /// `number`: the marker number it answers to. Returns its index.
    pub(super) fn add_source(
        &mut self,
        source: Source,
        key: Option<String>,
        number: Option<u64>,
    ) -> usize {
        let hit = self
            .by_id
            .get(&source.id)
            .or_else(|| key.as_ref().and_then(|k| self.by_url.get(k)))
            .copied();
        let i = match hit {
            Some(i) => {
                self.draft.sources[i].source.merge(source, MergeWins::Kept);
                i
            }
            None => {
                let i = self.draft.sources.len();
                self.by_id.insert(source.id.clone(), i);
                self.draft.sources.push(DraftSource {
                    source,
                    keys: Vec::new(),
                    given_number: None,
                });
                i
            }
        };
        if let Some(k) = key {
            self.by_url.insert(k, i);
        }
        if let Some(n) = number {
            // A source part: given for the answer as a whole (cited or not, the
            // citations say).
            self.draft.sources[i].source.scope = Some(SourceScope::Answer);
            self.add_key(i, n);
        }
        i
    }

    /// Source `i` answers to marker number `n`.
    pub(super) fn add_key(&mut self, i: usize, n: u64) {
        let ds = &mut self.draft.sources[i];
        if !ds.keys.contains(&SourceKey::Num(n)) {
            ds.keys.push(SourceKey::Num(n));
        }
        if ds.given_number.is_none() {
            ds.given_number = u32::try_from(n).ok();
        }
    }

    /// The marker number of a source part with dedupe key `key`: its order among the
    /// distinct source parts.
    pub(super) fn number(&mut self, key: &str) -> u64 {
        let next = self.numbered.len() as u64 + 1;
        *self.numbered.or_insert(key.to_string(), next)
    }
}
