//! The sources and spans of an `openai` draft being built: sources deduplicated by id
//! and url, annotations over one range made one citation.

use crate::core::draft::{DraftSource, DraftSpan, SourceRef};
use crate::core::formats::support::{self, classify_link, Link};
use crate::core::json_fields::{wrong_type, Fields};
use crate::core::markers::SourceKey;
use crate::core::model::{Diagnostic, Location, Source};
use crate::core::offsets::{OffsetIndex, OffsetProblem, PositionEncoding};
use crate::core::ordered_hash::{OrderedHashMap, OrderedHashSet};
use crate::core::untrusted_text::{clean_text, domain_of, normalize_url};
use serde_json::Value;

use super::PROVIDER;

/// Sources and spans being built, sources deduplicated by id.
#[derive(Debug, Clone, Default)]
pub(crate) struct Builder {
    pub(super) sources: Vec<DraftSource>,
    pub(super) spans: Vec<DraftSpan>,
    pub(super) by_id: OrderedHashMap<String, usize>,
    pub(super) by_url: OrderedHashMap<String, usize>,
    /// (source index, key) pairs already given.
    pub(super) keys_seen: OrderedHashSet<(usize, SourceKey)>,
    /// Span range → index into `spans`.
    pub(super) span_at: OrderedHashMap<(usize, usize), usize>,
    /// (span index, source index) pairs already in a span.
    pub(super) span_refs: OrderedHashSet<(usize, usize)>,
    /// Urls that cannot be linked → the number in their source's id (`unlinked-1`).
    pub(super) unlinked: OrderedHashMap<String, usize>,
}

impl Builder {
    /// One annotation of a part whose text starts at byte `base` of the answer (`ix`
    /// indexes the part's text): its source added, its span placed (annotations over
    /// the same range are one citation with every source), its diagnostics shifted to
    /// the answer. The Responses parser and its event stream
    /// ([`openai_stream`](super::openai_stream)) both read annotations here.
    pub(crate) fn add_annotation(
        &mut self,
        a: &Value,
        path: &str,
        ix: &OffsetIndex<'_>,
        base: usize,
        encoding: PositionEncoding,
        diags: &mut Vec<Diagnostic>,
    ) {
        let mut local = Vec::new();
        if let Some(mut span) = self.annotation(a, path, ix, encoding, &mut local) {
            span.start += base;
            span.end += base;
            let range = (span.start, span.end);
            match self.span_at.get(&range).copied() {
                Some(at) => {
                    for r in span.sources {
                        let SourceRef::Index(i) = r else { continue };
                        if self.span_refs.insert((at, i)) {
                            if let Some(same) = self.spans.get_mut(at) {
                                same.sources.push(r);
                            }
                        }
                    }
                }
                None => {
                    let at = self.spans.len();
                    for r in &span.sources {
                        if let SourceRef::Index(i) = r {
                            self.span_refs.insert((at, *i));
                        }
                    }
                    self.span_at.insert(range, at);
                    self.spans.push(span);
                }
            }
        }
        for mut d in local {
            d.start = d.start.map(|s| s + base);
            d.end = d.end.map(|s| s + base);
            diags.push(d);
        }
    }

    /// The sources so far, in the order they came.
    pub(crate) fn sources(&self) -> &[DraftSource] {
        &self.sources
    }

    /// The spans so far.
    pub(crate) fn spans(&self) -> &[DraftSpan] {
        &self.spans
    }

    /// The index of the source `src` (merged into an earlier one with the same id or
    /// url), with `keys` added.
    pub(super) fn add(&mut self, src: Source, keys: Vec<SourceKey>) -> usize {
        let url_key = src.url.as_deref().map(normalize_url);
        let hit = self
            .by_id
            .get(&src.id)
            .or_else(|| url_key.as_ref().and_then(|u| self.by_url.get(u)))
            .copied();
        let i = match hit {
            Some(i) => {
                if let Some(ds) = self.sources.get_mut(i) {
                    crate::core::resolve::merge_source(&mut ds.source, src);
                }
                i
            }
            None => {
                let i = self.sources.len();
                self.by_id.insert(src.id.clone(), i);
                if let Some(u) = url_key {
                    self.by_url.insert(u, i);
                }
                self.sources.push(DraftSource {
                    source: src,
                    keys: Vec::new(),
                    given_number: None,
                });
                i
            }
        };
        if let Some(ds) = self.sources.get_mut(i) {
            for k in keys {
                if self.keys_seen.insert((i, k.clone())) {
                    ds.keys.push(k);
                }
            }
        }
        i
    }

    /// One annotation: adds its source, returns its span (bytes of the part's text).
    pub(super) fn annotation(
        &mut self,
        a: &Value,
        path: &str,
        ix: &OffsetIndex<'_>,
        encoding: PositionEncoding,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<DraftSpan> {
        let Value::Object(o) = a else {
            diags.push(wrong_type(path, "an annotation object", a));
            return None;
        };
        let mut f = Fields::new(o, path);
        let ty = f.string("type", diags);
        match ty.as_deref() {
            Some("url_citation") => {
                let url = f.string("url", diags);
                let title = f.string("title", diags);
                let s = f.uint("start_index", diags);
                let e = f.uint("end_index", diags);
                let Some(url) = url else {
                    diags.push(missing(&f.path_of("url")));
                    return None;
                };
                let url_text = url.trim().to_string();
                // A url that cannot be linked loses the link only: the page keeps its
                // title and its citation (same raw url, same source).
                let url = match classify_link(&url) {
                    Link::Url(u) => Some(u),
                    Link::Unsafe(scheme) => {
                        diags.push(support::unsafe_url(&f.path_of("url"), &scheme));
                        None
                    }
                    Link::Path(_) | Link::Empty => {
                        diags.push(
                            Diagnostic::warning(
                                "wrong-type",
                                format!(
                                    "`{}` is not a url; the source is kept without a link",
                                    f.path_of("url")
                                ),
                            )
                            .at_path(f.path_of("url")),
                        );
                        None
                    }
                };
                let id = match &url {
                    Some(u) => normalize_url(u),
                    None => {
                        let next = self.unlinked.len() + 1;
                        let n = *self.unlinked.or_insert(url_text, next);
                        format!("unlinked-{n}")
                    }
                };
                let mut src = Source {
                    id,
                    kind: "web".to_string(),
                    title: title.as_deref().and_then(support::title),
                    domain: url.as_deref().and_then(domain_of),
                    url,
                    provider: Some(PROVIDER.to_string()),
                    ..Source::default()
                };
                src.metadata = f.rest();
                let idx = self.add(src, Vec::new());
                let (Some(s), Some(e)) = (s, e) else {
                    // The source stays (listed, uncited): only the citation goes.
                    for key in ["start_index", "end_index"] {
                        if o.get(key).is_none_or(Value::is_null) {
                            let path = f.path_of(key);
                            diags.push(
                                Diagnostic::warning(
                                    "missing-field",
                                    format!("`{path}` is missing; the source is kept without this citation"),
                                )
                                .at_path(path),
                            );
                        }
                    }
                    return None;
                };
                let (bs, be) = support::byte_span(ix, encoding, s, e, path, diags)?;
                let mut span = DraftSpan::new(bs, be, vec![SourceRef::Index(idx)]);
                span.location = Some(Location::UrlCitation {
                    start: Some(s),
                    end: Some(e),
                });
                Some(span)
            }
            Some(ty @ ("file_citation" | "file_path" | "container_file_citation")) => {
                let file_id = f.string("file_id", diags);
                let filename = f.string("filename", diags);
                let Some(id) = file_id
                    .or(filename.clone())
                    .map(|s| clean_text(&s))
                    .filter(|s| !s.is_empty())
                else {
                    diags.push(missing(&f.path_of("file_id")));
                    return None;
                };
                // Any of the three may come with a span or with a point `index`.
                let range = f.uint("start_index", diags).zip(f.uint("end_index", diags));
                let index = f.uint("index", diags);
                let mut src = Source {
                    id,
                    kind: "file".to_string(),
                    title: filename.as_deref().and_then(support::title),
                    provider: Some(PROVIDER.to_string()),
                    ..Source::default()
                };
                src.metadata = f.rest();
                let idx = self.add(src, Vec::new());
                if let Some((s, e)) = range {
                    let (bs, be) = support::byte_span(ix, encoding, s, e, path, diags)?;
                    return Some(DraftSpan::new(bs, be, vec![SourceRef::Index(idx)]));
                }
                let Some(at) = index else {
                    let keys: &[&str] = if ty == "container_file_citation" {
                        &["start_index", "end_index"]
                    } else {
                        &["index"]
                    };
                    for key in keys {
                        if o.get(*key).is_none_or(Value::is_null) {
                            diags.push(missing(&f.path_of(key)));
                        }
                    }
                    return None;
                };
                let p = point(ix, encoding, at, path, diags);
                Some(DraftSpan::new(p, p, vec![SourceRef::Index(idx)]))
            }
            Some(other) => {
                diags.push(
                    Diagnostic::info(
                        "unsupported-item",
                        format!("`{path}` is a `{other}` annotation, which citekit does not read; skipped"),
                    )
                    .at_path(path),
                );
                None
            }
            None => {
                diags.push(missing(&f.path_of("type")));
                None
            }
        }
    }
}

/// A point (file citation `index`) in bytes of `ix`'s text, repaired and reported.
pub(super) fn point(
    ix: &OffsetIndex<'_>,
    encoding: PositionEncoding,
    at: u64,
    path: &str,
    diags: &mut Vec<Diagnostic>,
) -> usize {
    let (b, problem) = ix.to_byte(usize::try_from(at).unwrap_or(usize::MAX));
    let unit = encoding.name();
    match problem {
        Some(OffsetProblem::OutOfRange) => diags.push(
            Diagnostic::warning(
                "span-out-of-range",
                format!(
                    "`{path}` is at {at} but the text is {} {unit} units long; clamped",
                    ix.len_units()
                ),
            )
            .at_path(path)
            .at(b, b),
        ),
        Some(OffsetProblem::NotOnBoundary) => diags.push(
            Diagnostic::warning(
                "span-not-on-boundary",
                format!("`{path}` is at {at} ({unit}), inside a character; moved to its start"),
            )
            .at_path(path)
            .at(b, b),
        ),
        None => {}
    }
    b
}

/// A `missing-field` warning for a skipped item.
pub(super) fn missing(path: &str) -> Diagnostic {
    Diagnostic::warning(
        "missing-field",
        format!("`{path}` is missing; the item is skipped"),
    )
    .at_path(path)
}
