//! The `ai-sdk` builder's sources (`source-url`, `source-document` parts), the message
//! metadata, and the draft it finishes as.

use crate::core::draft::{Draft, DraftSpan, SourceRef};
use crate::core::formats::support::{self, classify_link, Link};
use crate::core::json_fields::Fields;
#[cfg(not(feature = "providers"))]
use crate::core::model::Diagnostic;
use crate::core::model::{DocumentUnit, Location, MergeWins, Source};
use crate::core::untrusted_text::{excerpt200, normalize_url};
use serde_json::{Map, Value};

use super::builder::{Builder, DocumentCitation};

impl Builder {
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
pub(crate) fn object(fields: &[(&str, &str)]) -> Value {
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
    let uint = |k: &str| o.get(k).and_then(crate::core::json_fields::as_uint);
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
        (Some(start), Some(end), _, _) => {
            Some(Location::in_document(DocumentUnit::Char, start, end, None))
        }
        (_, _, Some(start), Some(end)) => {
            Some(Location::in_document(DocumentUnit::Page, start, end, None))
        }
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
