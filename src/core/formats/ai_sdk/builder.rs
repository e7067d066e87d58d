//! The builder both shapes of the `ai-sdk` format are read through: a message's parts
//! one at a time, or a UI message stream's chunks as they come (see the module above).

use crate::core::draft::{Draft, DraftSource, DraftSpan, SourceRef};
use crate::core::formats::support::{self, classify_link, Link};
use crate::core::json::{wrong_type, Fields};
use crate::core::map::Map as HMap;
use crate::core::markers::{SourceKey, TextSyntax};
use crate::core::model::{Diagnostic, Format, Location, MergeWins, Source};
use crate::core::offsets::{OffsetIndex, PositionEncoding};
use crate::core::options::Options;
use crate::core::sanitize::{excerpt200, normalize_url};
use serde_json::{Map, Value};

/// A text part being read: its text is written to the answer as it comes while it is
/// the first open one; a later one started while it is open waits in `pending`.
#[derive(Debug, Clone)]
struct OpenText {
    /// The part's id (the stream's `id`; a message's parts are read one at a time).
    id: String,
    /// Gap parts (see [`Builder::gaps`]) before it started.
    pub(super) gaps: u64,
    /// Steps before it started.
    steps: u64,
    /// Its text not yet written to the answer.
    pending: String,
    /// Where its text starts in the answer, once written.
    start: Option<usize>,
    /// `text-end` came.
    pub(super) ended: bool,
    /// The part's `providerMetadata` (the last one given).
    provider_metadata: Option<Value>,
    /// The part's `citations` (`ai` 7: `{source, startIndex?, endIndex?, citedText?}`).
    citations: Option<Value>,
    /// Anthropic document citations given while it streamed (source-document parts).
    document_citations: Vec<DocumentCitation>,
    /// Where it sits in the data, for diagnostics.
    path: String,
}

/// An Anthropic document citation read from a `source-document` part.
#[derive(Debug, Clone)]
struct DocumentCitation {
    source: usize,
    cited_text: Option<String>,
    location: Option<Location>,
}

/// Builds a draft from the parts of a message, read one at a time in order, or from
/// the chunks of a UI message stream: both read through the same steps, so a stream
/// ends as `parse` of the message it makes.
#[derive(Debug, Clone)]
pub(super) struct Builder {
    pub(super) draft: Draft,
    options: Options,
    /// Text parts started and not yet all written, in start order.
    open: Vec<OpenText>,
    /// Parts that are not text or sources, so far (a text part after one of them starts
    /// a new paragraph).
    pub(super) gaps: u64,
    /// Gap count the last written text part started after.
    gaps_written: u64,
    /// `step-start` parts so far.
    steps: u64,
    /// The number of the last step that has text, and where its text starts.
    step_text: Option<(u64, usize)>,
    /// The last text part written: its range in the answer.
    last_text: Option<(usize, usize)>,
    /// Whether that part's citations were placed from its own data (a document
    /// citation of a source part after it is then one of them).
    last_text_placed: bool,
    /// Document sources by title: a provider's citation names its document by title.
    doc_titles: HMap<String, usize>,
    /// Source lookups: normalized url (or raw link) → index, id → index.
    by_url: HMap<String, usize>,
    by_id: HMap<String, usize>,
    /// Distinct source parts so far (the marker numbers), by their dedupe key.
    numbered: HMap<String, u64>,
    /// The `sourceId` of the first source part of each source, by index: its id
    /// whichever record of it came first (a provider's annotation is read when its text
    /// part ends, which is before its source parts in a message and after them in a
    /// stream).
    part_ids: HMap<usize, String>,
    /// The message's `metadata` (merged as the stream gives it).
    pub(super) message_metadata: Option<Value>,
    /// Parts that are neither text nor sources, for the metadata.
    pub(super) other: Vec<Value>,
    /// [`Builder::end`] ran.
    pub(super) ended: bool,
    /// Whether provider positions were seen that this build does not read.
    #[cfg(not(feature = "providers"))]
    positions_skipped: bool,
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
            doc_titles: HMap::new(),
            by_url: HMap::new(),
            by_id: HMap::new(),
            numbered: HMap::new(),
            part_ids: HMap::new(),
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
    fn other_part(&mut self, part: Value) {
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
    fn write(&mut self, i: usize, text: &str) {
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
    fn flush(&mut self) {
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
    fn finish_text(&mut self, t: OpenText) {
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
    fn provider_positions(&mut self, m: &Value, start: usize, end: usize, path: &str) -> bool {
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
    fn provider_positions(&mut self, _m: &Value, _start: usize, _end: usize, _path: &str) -> bool {
        false
    }

    /// A text part's `citations` (`ai` 7's own, `{source, startIndex?, endIndex?,
    /// citedText?}`): each one a span over `startIndex..endIndex` of the part (UTF-16
    /// code units, JS string offsets; `inputEncoding` overrides), or over the whole
    /// part without them. Whether any was placed.
    fn part_citations(
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
    fn absorb(&mut self, sub: Draft, offset: usize, path: &str) {
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
    fn add_source(&mut self, source: Source, key: Option<String>, number: Option<u64>) -> usize {
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
            self.add_key(i, n);
        }
        i
    }

    /// Source `i` answers to marker number `n`.
    fn add_key(&mut self, i: usize, n: u64) {
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
    fn number(&mut self, key: &str) -> u64 {
        let next = self.numbered.len() as u64 + 1;
        *self.numbered.or_insert(key.to_string(), next)
    }

    /// A `source-url` part (`numbered`: it counts for the marker numbers), or the
    /// source of a text part's citation. Returns its index.
    pub(super) fn source_url(
        &mut self,
        o: &Map<String, Value>,
        path: &str,
        numbered: bool,
    ) -> usize {
        let mut f = Fields::new(o, path);
        f.value("type");
        let diags = &mut self.draft.diagnostics;
        f.value("sourceType");
        let id = f
            .value_any(&["sourceId", "id"])
            .and_then(|(_, v)| support::id_text(v));
        let url = f.string("url", diags);
        let title = f.string("title", diags);
        let meta = f.value("providerMetadata").cloned();
        let mut src = Source {
            kind: "web".into(),
            title: title.as_deref().and_then(support::title),
            ..Source::default()
        };
        let key = match url.as_deref().map(classify_link) {
            Some(Link::Url(u)) => {
                let k = normalize_url(&u);
                src.url = Some(u);
                Some(k)
            }
            Some(Link::Unsafe(scheme)) => {
                diags.push(support::unsafe_url(&f.path_of("url"), &scheme));
                url.as_deref().map(|u| format!("\u{0}{}", u.trim()))
            }
            Some(Link::Path(p)) => {
                src.metadata.insert("url".into(), Value::String(p.clone()));
                src.kind = "file".into();
                Some(format!("\u{0}{p}"))
            }
            Some(Link::Empty) | None => None,
        };
        if let Some(m) = &meta {
            cited_text_snippet(&mut src, m);
            src.metadata.insert("providerMetadata".into(), m.clone());
        }
        for (k, v) in f.rest() {
            src.metadata.entry(k).or_insert(v);
        }
        let key = key
            .or_else(|| id.as_ref().map(|i| format!("\u{1}{i}")))
            .unwrap_or_else(|| format!("\u{4}{}", self.numbered.len()));
        let n = self.draft.sources.len() + 1;
        src.id = id.unwrap_or_else(|| format!("source-{n}"));
        support::finish_source(&mut src, "web");
        let number = numbered.then(|| self.number(&key));
        let part_id = src.id.clone();
        let i = self.add_source(src, Some(key), number);
        if numbered {
            self.part_ids.or_insert(i, part_id);
        }
        i
    }

    /// A `source-document` part (`numbered`: it counts for the marker numbers), or the
    /// source of a text part's citation. Returns its index.
    pub(super) fn source_document(
        &mut self,
        o: &Map<String, Value>,
        path: &str,
        numbered: bool,
    ) -> usize {
        let mut f = Fields::new(o, path);
        f.value("type");
        let diags = &mut self.draft.diagnostics;
        f.value("sourceType");
        let id = f
            .value_any(&["sourceId", "id"])
            .and_then(|(_, v)| support::id_text(v));
        let title = f.string("title", diags);
        let filename = f.string("filename", diags);
        let media_type = f.string("mediaType", diags);
        let meta = f.value("providerMetadata").cloned();
        let mut src = Source {
            kind: "document".into(),
            title: title
                .as_deref()
                .and_then(support::title)
                .or_else(|| filename.as_deref().and_then(support::title)),
            ..Source::default()
        };
        if let Some(m) = &media_type {
            src.metadata
                .insert("mediaType".into(), Value::String(m.clone()));
        }
        if let Some(n) = &filename {
            src.metadata
                .insert("filename".into(), Value::String(n.clone()));
        }
        // A provider's file id names the file whatever part carried it (OpenAI's
        // `file_citation` annotations on the text part name the same file).
        let file_id = meta.as_ref().and_then(|m| {
            m.as_object()?
                .values()
                .find_map(|p| p.get("fileId").and_then(Value::as_str))
                .map(str::to_string)
        });
        let citation = meta
            .as_ref()
            .and_then(|m| m.get("anthropic"))
            .and_then(anthropic_document_citation);
        if let Some(m) = &meta {
            cited_text_snippet(&mut src, m);
            src.metadata.insert("providerMetadata".into(), m.clone());
        }
        if let (Some(Location::PageLocation { start, .. }), None) = (
            citation.as_ref().and_then(|c| c.location.as_ref()),
            src.page,
        ) {
            src.page = Some(*start);
        }
        for (k, v) in f.rest() {
            src.metadata.entry(k).or_insert(v);
        }
        let key = match &file_id {
            Some(fid) => format!("\u{2}{fid}"),
            None => format!(
                "\u{3}{}\u{0}{}",
                title.as_deref().unwrap_or(""),
                filename.as_deref().unwrap_or("")
            ),
        };
        let n = self.draft.sources.len() + 1;
        src.id = file_id
            .clone()
            .or(id)
            .unwrap_or_else(|| format!("source-{n}"));
        support::finish_source(&mut src, "document");
        let number = numbered.then(|| self.number(&key));
        let part_id = src.id.clone();
        let title_key = src.title.clone();
        let i = match title_key
            .as_ref()
            .and_then(|t| self.doc_titles.get(t))
            .copied()
        {
            // The document a provider's citation named by its title.
            Some(i) if !self.by_url.contains_key(&key) => {
                self.draft.sources[i].source.merge(src, MergeWins::Kept);
                self.by_url.insert(key, i);
                if let Some(n) = number {
                    self.add_key(i, n);
                }
                i
            }
            _ => self.add_source(src, Some(key), number),
        };
        if let Some(t) = title_key {
            self.doc_titles.or_insert(t, i);
        }
        if !numbered {
            return i;
        }
        self.part_ids.or_insert(i, part_id);
        if let Some(mut c) = citation {
            c.source = i;
            match self.open.last_mut() {
                // The cited block is streaming: its span is known when it ends.
                Some(t) => t.document_citations.push(c),
                None => {
                    if let (Some((s, e)), false) = (self.last_text, self.last_text_placed) {
                        let mut span = DraftSpan::new(s, e, vec![SourceRef::Index(i)]);
                        span.cited_text = c.cited_text;
                        span.location = c.location;
                        self.draft.spans.push(span);
                    }
                }
            }
        }
        i
    }

    /// The message's `metadata`, merged object by object as the stream gives it.
    pub(super) fn metadata(&mut self, m: &Value) {
        match &mut self.message_metadata {
            Some(old) => merge_objects(old, m),
            None => self.message_metadata = Some(m.clone()),
        }
    }

    /// Gemini grounding in the message metadata, over the last step's text.
    #[cfg(feature = "providers")]
    fn grounding(&mut self) {
        let Some((path, gm)) = self
            .message_metadata
            .as_ref()
            .and_then(|m| find_key(m, "groundingMetadata", 4, "metadata".into()))
        else {
            return;
        };
        if gm.get("groundingSupports").is_none_or(Value::is_null)
            && gm.get("groundingChunks").is_none_or(Value::is_null)
        {
            return;
        }
        let start = self
            .step_text
            .map_or(0, |(_, at)| at)
            .min(self.draft.text.len());
        let text = self.draft.text[start..].to_string();
        let mut candidate = Map::new();
        let parts = Value::Array(vec![object(&[("text", &text)])]);
        let mut content = Map::new();
        content.insert("parts".into(), parts);
        candidate.insert("content".into(), Value::Object(content));
        candidate.insert("groundingMetadata".into(), gm.clone());
        let candidate = Value::Object(candidate);
        if let Ok(sub) = crate::core::formats::gemini::parse(None, Some(&candidate), &self.options)
        {
            let path = path.strip_suffix(".groundingMetadata").unwrap_or(&path);
            self.absorb(sub, start, path);
        }
    }

    #[cfg(not(feature = "providers"))]
    fn grounding(&mut self) {
        if self
            .message_metadata
            .as_ref()
            .and_then(|m| find_key(m, "groundingMetadata", 4, String::new()))
            .is_some()
        {
            self.positions_skipped = true;
        }
    }

    /// The draft: open text parts are written out (a stream cut short), positions of
    /// the message metadata read.
    pub(super) fn finish(mut self) -> Draft {
        self.end();
        self.draft
    }

    /// Ends the message (once): what [`Builder::finish`] does, in place.
    pub(super) fn end(&mut self) {
        if self.ended {
            return;
        }
        self.ended = true;
        for t in &mut self.open {
            t.ended = true;
        }
        self.flush();
        self.grounding();
        for (i, id) in std::mem::take(&mut self.part_ids) {
            if let Some(ds) = self.draft.sources.get_mut(i) {
                ds.source.id = id;
            }
        }
        if let Some(m) = self.message_metadata.take() {
            self.draft.metadata.insert("metadata".into(), m);
        }
        if !self.other.is_empty() {
            self.draft.metadata.insert(
                "other_parts".into(),
                Value::Array(std::mem::take(&mut self.other)),
            );
        }
        #[cfg(not(feature = "providers"))]
        if self.positions_skipped {
            self.draft.diagnostics.push(Diagnostic::error(
                "format-not-loaded",
                "ai-sdk data with provider positions needs the provider formats module, which this build of citekit does not include; its sources are listed without those citations",
            ));
        }
        support::cap_sources(&mut self.draft);
        support::cap_spans(&mut self.draft);
    }
}

/// A JSON object of string fields.
pub(super) fn object(fields: &[(&str, &str)]) -> Value {
    Value::Object(
        fields
            .iter()
            .map(|(k, v)| (k.to_string(), Value::String(v.to_string())))
            .collect(),
    )
}

/// A provider's `citedText` (Anthropic's) as the source's snippet.
fn cited_text_snippet(src: &mut Source, meta: &Value) {
    let Some(t) = meta.as_object().and_then(|m| {
        m.values()
            .find_map(|p| p.get("citedText").and_then(Value::as_str))
    }) else {
        return;
    };
    if src.snippet.is_none() {
        src.snippet = Some(excerpt200(t)).filter(|s| !s.is_empty());
    }
}

/// `@ai-sdk/anthropic`'s document citation on a source-document part: `{citedText,
/// startCharIndex, endCharIndex}` or `{citedText, startPageNumber, endPageNumber}`.
fn anthropic_document_citation(m: &Value) -> Option<DocumentCitation> {
    let o = m.as_object()?;
    let uint = |k: &str| o.get(k).and_then(crate::core::json::as_uint);
    let cited_text = o
        .get("citedText")
        .and_then(Value::as_str)
        .filter(|t| !t.trim().is_empty())
        .map(excerpt200);
    let location = match (
        uint("startCharIndex"),
        uint("endCharIndex"),
        uint("startPageNumber"),
        uint("endPageNumber"),
    ) {
        (Some(start), Some(end), _, _) => Some(Location::CharLocation {
            start,
            end,
            document_index: None,
        }),
        (_, _, Some(start), Some(end)) => Some(Location::PageLocation {
            start,
            end,
            document_index: None,
        }),
        _ => None,
    };
    (cited_text.is_some() || location.is_some()).then_some(DocumentCitation {
        source: 0,
        cited_text,
        location,
    })
}

/// The first object under `key` in `v` (which sits at `path`), `depth` objects down
/// at most, with its path.
fn find_key<'a>(
    v: &'a Value,
    key: &str,
    depth: usize,
    path: String,
) -> Option<(String, &'a Value)> {
    let o = v.as_object()?;
    if let Some(x) = o.get(key).filter(|x| x.is_object()) {
        return Some((format!("{path}.{key}"), x));
    }
    if depth == 0 {
        return None;
    }
    o.iter()
        .find_map(|(k, x)| find_key(x, key, depth - 1, format!("{path}.{k}")))
}

/// Merges `new` into `old` as the AI SDK merges message metadata: objects key by key,
/// anything else replaced.
fn merge_objects(old: &mut Value, new: &Value) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(k) {
                    Some(x) => merge_objects(x, v),
                    None => {
                        a.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (o, n) => *o = n.clone(),
    }
}
