//! Resolution (docs/resolution.md): markers come out of the text and
//! name sources; sources are deduplicated and numbered; every citation gets its span.

use crate::core::draft::{Draft, DraftSource, SourceRef};
use crate::core::limits::{
    MAX_ANSWER_BYTES, MAX_ANSWER_BYTES_NAME, MAX_CITATIONS, MAX_CITATIONS_NAME, MAX_SOURCES,
    MAX_SOURCES_NAME,
};
use crate::core::markers::{self, MarkerKind, SourceKey, TextSyntax};
use crate::core::model::{
    Answer, Citation, CitationOrigin, ContentKind, Diagnostic, Source, TextLink,
};
use crate::core::options::{Options, Unresolved};
use crate::core::unicode;
use crate::core::{sort, str_ops};

mod footnote;
mod pool;
mod shared;
mod span;

use footnote::footnote_source;
pub(crate) use pool::merge_source;
use pool::{duplicate_source, pairs_of, to_pool, Pool, PoolItem, SourcePool};
pub(crate) use shared::BasePool;
use span::skip_tags;
pub(crate) use span::span_start;

/// Turns a draft into the normalized model.
pub fn resolve(draft: Draft, options: &Options) -> Answer {
    resolve_mode(draft, options, false)
}

/// Like [`resolve`], for a streaming answer whose sources may still arrive: a marker
/// naming an unknown key is taken out of the text as usual but becomes a citation
/// with those keys in [`Citation::pending`](crate::core::model::Citation::pending)
/// (no diagnostic yet).
pub fn resolve_pending(draft: Draft, options: &Options) -> Answer {
    resolve_mode(draft, options, true)
}

fn resolve_mode(draft: Draft, options: &Options, pending_mode: bool) -> Answer {
    resolve_with(draft, options, pending_mode, None)
}

/// Like [`resolve_pending`], for a draft without sources of its own (a block of a
/// streamed answer): its markers name the sources of `base`, built once for all
/// blocks, instead of a copy of them each. The answer's `sources` are only those the
/// block adds (footnote definitions), changes (a definition merged into one) or
/// reports as used; everything else is what [`resolve_pending`] gives for the draft
/// with `base`'s sources.
pub(crate) fn resolve_pending_on(base: &BasePool, draft: Draft, options: &Options) -> Answer {
    resolve_with(draft, options, true, Some(base))
}

fn resolve_with(
    draft: Draft,
    options: &Options,
    pending_mode: bool,
    base: Option<&BasePool>,
) -> Answer {
    let Draft {
        format,
        content_kind,
        text: raw,
        grammar,
        sources: draft_sources,
        spans,
        diagnostics: mut raw_diags,
        used,
        metadata,
    } = draft;

    // 1. Scan for markers (unless the answer is too large to scan).
    let scan = match grammar {
        Some(_) if raw.len() > MAX_ANSWER_BYTES => {
            raw_diags.push(Diagnostic::warning(
                "limit-exceeded",
                format!(
                    "the answer is {} bytes, more than `{MAX_ANSWER_BYTES_NAME}` ({MAX_ANSWER_BYTES}); its markers were not read",
                    raw.len()
                ),
            ));
            markers::Scan::default()
        }
        Some(g) => markers::scan(&raw, &g),
        None => markers::Scan::default(),
    };
    raw_diags.extend(scan.diagnostics);
    let syntax = grammar.map(|g| g.syntax).unwrap_or(match content_kind {
        ContentKind::Html => TextSyntax::Html,
        ContentKind::Markdown => TextSyntax::Markdown,
        _ => TextSyntax::Plain,
    });

    let mut diags: Vec<Diagnostic> = Vec::new();
    // An answer full of bad references gets the first reports and one count of the rest.
    let mut unresolved_reports = Capped::default();
    let mut unknown_reports = Capped::default();

    // 2. Sources: footnote definitions join the draft's sources; limit; dedupe.
    let mut all_sources = draft_sources;
    for m in &scan.markers {
        if let MarkerKind::FootnoteDef { body } = &m.kind {
            if let Some(fs) = footnote_source(&raw, m, body.clone()) {
                all_sources.push(fs);
            }
        }
    }
    let mut pool: Box<dyn Pool + '_> = match base {
        Some(b) if b.len() + all_sources.len() <= MAX_SOURCES => {
            Box::new(shared::Overlay::build(b, all_sources, &mut diags))
        }
        _ => {
            if let Some(b) = base {
                let mut v = b.drafts().to_vec();
                v.extend(all_sources);
                all_sources = v;
            }
            full_pool(all_sources, &mut diags)
        }
    };

    // 3. Take the markers out of the text.
    let mut out = String::with_capacity(raw.len());
    let mut removals = Removals::default();
    let mut groups: Vec<Group> = Vec::new();
    let mut last = 0usize;
    let mut span_open: Option<usize> = None;
    let mut span_close: Option<usize> = None;
    let mut used_keys: Vec<SourceKey> = used;
    for m in &scan.markers {
        if m.range.start < last || m.range.end > raw.len() {
            continue; // defensive: the scanner promises sorted, disjoint ranges
        }
        let (remove, cite) = match &m.kind {
            MarkerKind::FootnoteDef { .. } | MarkerKind::OpenaiOther { .. } => (true, None),
            MarkerKind::Usage => {
                used_keys.extend(m.keys.iter().cloned());
                (true, None)
            }
            MarkerKind::OpenaiSpanOpen | MarkerKind::OpenaiSpanClose => (true, None),
            _ => {
                let mut resolved = Vec::new();
                let mut missing = Vec::new();
                for k in &m.keys {
                    match pool.find(k) {
                        Some(i) => {
                            if !resolved.contains(&i) {
                                resolved.push(i)
                            }
                        }
                        None => missing.push(k),
                    }
                }
                if pending_mode {
                    let pending: Vec<String> = missing.iter().map(|k| key_name(k)).collect();
                    if resolved.is_empty() && pending.is_empty() {
                        (true, None)
                    } else {
                        (true, Some((resolved, pending)))
                    }
                } else {
                    if !missing.is_empty() && unresolved_reports.room() {
                        let literal = &raw[m.syntax.clone()];
                        let names: Vec<String> = missing.iter().map(|k| key_name(k)).collect();
                        let kept = resolved.is_empty() && options.unresolved == Unresolved::Keep;
                        let what = if kept {
                            "kept as text"
                        } else if resolved.is_empty() {
                            "removed"
                        } else {
                            "cites the others"
                        };
                        raw_diags.push(
                            Diagnostic::warning(
                                "unresolved-marker",
                                format!(
                                    "marker `{}` names no source ({}); {what}",
                                    crate::core::untrusted_text::escape_literal(literal),
                                    str_ops::join(&mut names.iter().map(String::as_str), ", ")
                                ),
                            )
                            .at(m.syntax.start, m.syntax.end),
                        );
                    }
                    if resolved.is_empty() {
                        (options.unresolved == Unresolved::Drop, None)
                    } else {
                        (true, Some((resolved, Vec::new())))
                    }
                }
            }
        };
        if !remove {
            continue;
        }
        out.push_str(&raw[last..m.range.start]);
        removals.push(m.range.start, m.range.end, out.len());
        last = m.range.end;
        match &m.kind {
            MarkerKind::OpenaiSpanOpen => span_open = Some(out.len()),
            MarkerKind::OpenaiSpanClose => span_close = Some(out.len()),
            _ => {}
        }
        if let Some((resolved, pending)) = cite {
            let pos = out.len();
            match groups.last_mut() {
                Some(g) if g.end == pos => {
                    for i in resolved {
                        if !g.sources.contains(&i) {
                            g.sources.push(i);
                        }
                    }
                    for k in pending {
                        if !g.pending.contains(&k) {
                            g.pending.push(k);
                        }
                    }
                }
                _ => {
                    let start = match (span_open, span_close) {
                        (Some(o), Some(c)) if c == pos && o <= c => Some(o),
                        _ => None,
                    };
                    if start.is_some() {
                        span_open = None;
                        span_close = None;
                    }
                    groups.push(Group {
                        end: pos,
                        start,
                        sources: resolved,
                        pending,
                    })
                }
            }
        }
    }
    out.push_str(&raw[last..]);
    drop(raw);

    // 4. Citations: marker groups, then explicit spans.
    let mut citations: Vec<(Citation, Vec<usize>)> = Vec::new();
    // Citations that stand at a place in the text, in the order they come: marker
    // groups, and explicit spans that are points (`index` only, or empty). Those
    // without a start of their own cover the text before them (section 2 of
    // docs/resolution.md); each one's end is the floor of the next one's start.
    let mut placed: Vec<(usize, bool)> = Vec::new();
    for g in groups {
        placed.push((citations.len(), g.start.is_none()));
        citations.push((
            Citation {
                start: g.start.unwrap_or(g.end),
                end: g.end,
                sources: Vec::new(),
                origin: CitationOrigin::Marker,
                cited_text: None,
                confidence: None,
                location: None,
                pending: g.pending,
            },
            g.sources,
        ));
    }
    for (n, span) in spans.into_iter().enumerate() {
        let mut start = removals.map(span.start).min(out.len());
        let mut end = removals.map(span.end).min(out.len());
        if start > end {
            diags.push(
                Diagnostic::warning(
                    "span-empty",
                    format!("citation {n} has its start after its end; swapped"),
                )
                .at(end, start),
            );
            std::mem::swap(&mut start, &mut end);
        }
        let mut idx = Vec::new();
        for r in &span.sources {
            let hit = match r {
                SourceRef::Index(i) => pool.canon(*i),
                SourceRef::Key(k) => pool.find(k),
            };
            match hit {
                Some(i) => {
                    if !idx.contains(&i) {
                        idx.push(i)
                    }
                }
                None if !unknown_reports.room() => {}
                None => diags.push(
                    Diagnostic::warning(
                        "unknown-source",
                        format!(
                            "citation {n} names a source that does not exist ({})",
                            match r {
                                SourceRef::Index(i) => format!("#{i}"),
                                SourceRef::Key(k) => key_name(k),
                            }
                        ),
                    )
                    .at(start, end),
                ),
            }
        }
        if idx.is_empty() {
            continue;
        }
        if start == end {
            placed.push((citations.len(), true));
        }
        citations.push((
            Citation {
                start,
                end,
                sources: Vec::new(),
                origin: CitationOrigin::Span,
                cited_text: span.cited_text,
                confidence: span.confidence,
                location: span.location,
                pending: Vec::new(),
            },
            idx,
        ));
    }
    sort::sort_by_key(&mut placed, |&(i, _)| (sort::pos(citations[i].0.end), 0));
    let mut floor = 0usize;
    let mut last_end: Option<usize> = None;
    for (i, widen) in placed {
        let end = citations[i].0.end;
        // Citations at the same place share their floor.
        if let Some(prev) = last_end.filter(|&p| p != end) {
            floor = prev;
        }
        last_end = Some(end);
        if widen {
            let s = span_start(&out, end, floor);
            citations[i].0.start = if syntax == TextSyntax::Html {
                skip_tags(&out, s, end)
            } else {
                s
            };
        }
    }
    sort::sort_by_key(&mut citations, |(c, _)| {
        (sort::pos(c.end), sort::pos(c.start))
    });
    if citations.len() > MAX_CITATIONS {
        diags.push(Diagnostic::warning(
            "limit-exceeded",
            format!(
                "{} citations, more than `{MAX_CITATIONS_NAME}` ({MAX_CITATIONS}); the rest were dropped",
                citations.len()
            ),
        ));
        citations.truncate(MAX_CITATIONS);
    }
    if !options.show_citations {
        citations.clear();
    }

    // 5. Cited, counts, used, numbers.
    for (_, idx) in &citations {
        for &i in idx {
            pool.cite(i);
        }
    }
    {
        use crate::core::limits::{MAX_FOOTNOTE_BACKLINKS, MAX_FOOTNOTE_BACKLINKS_NAME};
        let over = pool.cited_over(MAX_FOOTNOTE_BACKLINKS);
        if over > 0 {
            diags.push(Diagnostic::info(
                "limit-exceeded",
                format!(
                    "{over} sources are cited more than `{MAX_FOOTNOTE_BACKLINKS_NAME}` ({MAX_FOOTNOTE_BACKLINKS}) times: their footnotes link back to the first {MAX_FOOTNOTE_BACKLINKS} markers"
                ),
            ));
        }
    }
    for k in &used_keys {
        if let Some(i) = pool.find(k) {
            pool.set_used(i);
        }
    }
    let order: Vec<usize> = citations
        .iter()
        .flat_map(|(_, idx)| idx.iter().copied())
        .collect();
    pool.number(&order, options.numbering);
    let citations: Vec<Citation> = citations
        .into_iter()
        .map(|(mut c, idx)| {
            c.sources = idx.iter().map(|&i| pool.id(i).to_string()).collect();
            c
        })
        .collect();

    // 6. Identifier links (scintilla's identifiers), outside code and existing links.
    // Only scintilla gives sources identifiers: a build without it links none.
    let links = if cfg!(feature = "scintilla") && options.link_identifiers {
        identifier_links(&out, &pool.identifier_pairs(), syntax)
    } else {
        Vec::new()
    };

    // 7. Diagnostics from the raw text get output positions.
    let mut all_diags: Vec<Diagnostic> = raw_diags
        .into_iter()
        .map(|mut d| {
            d.start = d.start.map(|s| removals.map(s).min(out.len()));
            d.end = d.end.map(|s| removals.map(s).min(out.len()));
            d
        })
        .collect();
    all_diags.extend(diags);
    all_diags.extend(unresolved_reports.summary("unresolved-marker", "markers naming no source"));
    all_diags
        .extend(unknown_reports.summary("unknown-source", "citations naming a missing source"));

    let mut sources: Vec<Source> = pool.take_sources();
    sort::sort_by_key(&mut sources, |s| (u64::from(s.number), 0));
    Answer {
        text: out,
        format,
        content_kind,
        sources,
        citations,
        links,
        diagnostics: all_diags,
        show_citations: options.show_citations,
        metadata,
    }
}

/// The sources deduplicated, at most [`MAX_SOURCES`] of them.
fn full_pool(mut all_sources: Vec<DraftSource>, diags: &mut Vec<Diagnostic>) -> Box<SourcePool> {
    if all_sources.len() > MAX_SOURCES {
        diags.push(Diagnostic::warning(
            "limit-exceeded",
            format!(
                "{} sources, more than `{MAX_SOURCES_NAME}` ({MAX_SOURCES}); the rest were dropped",
                all_sources.len()
            ),
        ));
        all_sources.truncate(MAX_SOURCES);
    }
    Box::new(SourcePool::build(all_sources, diags))
}

/// A run of touching markers, which makes one citation.
struct Group {
    end: usize,
    start: Option<usize>,
    sources: Vec<usize>,
    pending: Vec<String>,
}

fn key_name(k: &SourceKey) -> String {
    match k {
        SourceKey::Num(n) => n.to_string(),
        SourceKey::Name(s) => s.clone(),
    }
}

/// Byte ranges removed from the raw text, to map raw positions to output positions.
#[derive(Default)]
struct Removals {
    /// (raw start, raw end, output position, bytes removed up to and including this one)
    cuts: Vec<(usize, usize, usize, usize)>,
}

impl Removals {
    fn push(&mut self, start: usize, end: usize, out_pos: usize) {
        let before = self.cuts.last().map_or(0, |c| c.3);
        self.cuts
            .push((start, end, out_pos, before + (end - start)));
    }

    /// The output position of raw position `p`; a position inside a removed range maps to
    /// where that range was.
    fn map(&self, p: usize) -> usize {
        let i = self.cuts.partition_point(|c| c.0 <= p);
        if i == 0 {
            return p;
        }
        let (_, end, out_pos, removed) = self.cuts[i - 1];
        if p < end {
            out_pos
        } else {
            p - removed
        }
    }
}

/// Links every occurrence of a source identifier (`MKT-1183`) outside protected regions.
fn identifier_links(text: &str, pairs: &[(&str, &str)], syntax: TextSyntax) -> Vec<TextLink> {
    let mut pairs = pairs.to_vec();
    if pairs.is_empty() {
        return Vec::new();
    }
    // Longer identifiers first, so `PR #123` wins over `#123`.
    sort::sort_by_key(&mut pairs, |(k, _)| (u64::MAX - sort::pos(k.len()), 0));
    let protected = markers::protected_regions(text, syntax);
    let is_word = |c: char| unicode::is_alphanumeric(c) || c == '_' || c == '-';
    let mut links: Vec<TextLink> = Vec::new();
    for (ident, url) in pairs {
        for i in str_ops::offsets(text, ident) {
            let end = i + ident.len();
            if text[..i].chars().next_back().is_some_and(is_word)
                || text[end..].chars().next().is_some_and(is_word)
            {
                continue;
            }
            let inside = |r: &std::ops::Range<usize>| r.start < end && i < r.end;
            let pi = protected.partition_point(|r| r.end <= i);
            if protected.get(pi).is_some_and(inside) {
                continue;
            }
            if links.iter().any(|l| l.start < end && i < l.end) {
                continue;
            }
            links.push(TextLink {
                start: i,
                end,
                url: (*url).to_string(),
            });
        }
    }
    sort::sort_by_key(&mut links, |l| (sort::pos(l.start), 0));
    links
}

/// Most reports of one kind per answer (unresolved markers, unknown sources).
pub const MAX_REPORTS: usize = 100;

/// Counts reports of one kind: the first [`MAX_REPORTS`] are made, the rest counted.
#[derive(Default)]
struct Capped {
    reported: usize,
    skipped: usize,
}

impl Capped {
    /// Whether there is room for one more report (if not, it is counted).
    fn room(&mut self) -> bool {
        if self.reported < MAX_REPORTS {
            self.reported += 1;
            true
        } else {
            self.skipped += 1;
            false
        }
    }

    /// One warning for the reports that were not made.
    fn summary(&self, code: &str, what: &str) -> Option<Diagnostic> {
        (self.skipped > 0).then(|| {
            Diagnostic::warning(
                code,
                format!("{} more {what} were not reported", self.skipped),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::footnote::{first_url, strip_link_syntax};
    use super::span::starts_lower_case;
    use super::*;

    #[test]
    fn span_start_rules() {
        let t = "The capital of France is Paris, which is located in northern France.";
        assert_eq!(span_start(t, 30, 0), 0);
        assert_eq!(
            &t[span_start(t, 67, 30)..67],
            "which is located in northern France"
        );
        let t = "First. Second one";
        assert_eq!(&t[span_start(t, t.len(), 0)..], "Second one");
        let t = "Intro\n- item one\n- item two";
        assert_eq!(&t[span_start(t, t.len(), 0)..], "item two");
        let t = "| a | b cell |";
        assert_eq!(&t[span_start(t, 12, 0)..12], "b cell");
        let t = "東京は首都です。大阪は都市です";
        assert_eq!(&t[span_start(t, t.len(), 0)..], "大阪は都市です");
        let t = "v3.5 is out.";
        assert_eq!(span_start(t, t.len(), 0), 0);
        let t = "> ## Heading here";
        assert_eq!(&t[span_start(t, t.len(), 0)..], "Heading here");
        let t = "- [x] done thing";
        assert_eq!(&t[span_start(t, t.len(), 0)..], "done thing");
    }

    #[test]
    fn abbreviations_do_not_end_the_span() {
        let whole = |t: &str| t[span_start(t, t.len(), 0)..].to_string();
        assert_eq!(whole("Dr. Smith said so"), "Dr. Smith said so");
        assert_eq!(whole("Before. See e.g. the report"), "See e.g. the report");
        assert_eq!(
            whole("Before. Written by J. R. Smith"),
            "Written by J. R. Smith"
        );
        assert_eq!(
            whole("Before. The U.S. Senate voted"),
            "The U.S. Senate voted"
        );
        assert_eq!(
            whole("Before. See Fig. 3 and No. 5"),
            "See Fig. 3 and No. 5"
        );
        assert_eq!(
            whole("It was approx. 5 km long"),
            "It was approx. 5 km long"
        );
        // Sentence ends stay ends.
        assert_eq!(whole("It rained. Then it stopped"), "Then it stopped");
        assert_eq!(whole("Costs rose 5%. Prices fell"), "Prices fell");
        // Arabic: the question mark ends a sentence, a comma does not open a span.
        let t = "هل هو هنا؟ نعم، هو هنا";
        assert_eq!(span_start(t, t.len(), 0), t.find("نعم").unwrap());
        let t = "المدينة كبيرة، وهو اليوم";
        assert_eq!(
            &t[span_start(t, t.len(), t.find('،').unwrap())..],
            "وهو اليوم"
        );
        // Ambiguous, read as an abbreviation (`U.S. Senate` is the common case).
        assert_eq!(whole("In the U.S. The law"), "In the U.S. The law");
    }

    #[test]
    fn german_ordinals_do_not_end_the_sentence() {
        let whole = |t: &str| t[span_start(t, t.len(), 0)..].to_string();
        // A day's ordinal before a month name, a number or a lower-case word.
        assert_eq!(
            whole("Vorher. Am 9. Juli 2024 wurde das Gesetz beschlossen"),
            "Am 9. Juli 2024 wurde das Gesetz beschlossen"
        );
        assert_eq!(
            whole("Vorher. Ab dem 3. Okt. gilt es"),
            "Ab dem 3. Okt. gilt es"
        );
        assert_eq!(
            whole("Vorher. Am 9. 7. 2024 kam es"),
            "Am 9. 7. 2024 kam es"
        );
        assert_eq!(
            whole("Předtím. Dne 9. července 2024 vláda schválila"),
            "Dne 9. července 2024 vláda schválila"
        );
        assert_eq!(
            whole("Vorher. Der 2. öffentliche Termin"),
            "Der 2. öffentliche Termin"
        );
        // Abbreviations of real answers.
        assert_eq!(
            whole("Vorher. Siehe Nr. 5 auf S. 12"),
            "Siehe Nr. 5 auf S. 12"
        );
        assert_eq!(
            whole("Vorher. Es kostet ca. 3 Euro"),
            "Es kostet ca. 3 Euro"
        );
        assert_eq!(
            whole("Vorher. Große Städte, z. B. Berlin, wachsen"),
            "Große Städte, z. B. Berlin, wachsen"
        );
        assert_eq!(
            whole("Vorher. Das gilt, d. h. Verträge enden"),
            "Das gilt, d. h. Verträge enden"
        );
        assert_eq!(
            whole("Before. Big cities, e.g. Berlin, grow"),
            "Big cities, e.g. Berlin, grow"
        );
        assert_eq!(
            whole("Before. The U.S. Senate voted"),
            "The U.S. Senate voted"
        );
        // Sentence ends stay ends: a version, a year, a number before a capital.
        assert_eq!(whole("Update to v1.2. Then restart it"), "Then restart it");
        assert_eq!(
            whole("Es begann 2020. September war ruhig"),
            "September war ruhig"
        );
        assert_eq!(
            whole("Die Zahl war 9. Danach stieg sie"),
            "Danach stieg sie"
        );
        assert_eq!(whole("It grew by 12. Then it fell"), "Then it fell");
        // A list number at a line start is a block start.
        assert_eq!(
            whole("Termine:\n1. Juli: Start\n2. August war heiß"),
            "August war heiß"
        );
        assert_eq!(whole("Intro\n3. Third item"), "Third item");
        // CJK is unchanged.
        let t = "会議は9.5時間でした。次は7月です";
        assert_eq!(&t[span_start(t, t.len(), 0)..], "次は7月です");
    }

    #[test]
    fn lower_case_letters_are_those_of_char_is_lowercase() {
        for c in ('\u{0}'..='\u{24f}').chain(['€', 'α', 'Ж', '東']) {
            let expected =
                c.is_lowercase() && (c.is_ascii() || ('\u{c0}'..='\u{17f}').contains(&c));
            assert_eq!(starts_lower_case(c), expected, "{c:?} (U+{:04X})", c as u32);
        }
    }

    #[test]
    fn removals_map_positions() {
        let mut r = Removals::default();
        r.push(5, 9, 5); // "Paris [1]." → " [1]" removed at 5..9
        assert_eq!(r.map(3), 3);
        assert_eq!(r.map(6), 5);
        assert_eq!(r.map(9), 5);
        assert_eq!(r.map(10), 6);
    }

    #[test]
    fn footnote_link_syntax() {
        assert_eq!(
            strip_link_syntax("See [the docs](https://x.org) now"),
            "See the docs now"
        );
        assert_eq!(
            first_url("See <https://x.org/a>."),
            Some("https://x.org/a".into())
        );
        assert_eq!(first_url("no url"), None);
    }

    #[test]
    fn unresolved_and_unknown_reports_are_capped() {
        let answer: String = (0..150)
            .map(|i| format!("Claim {i} [{}]. ", 1000 + i))
            .collect();
        let data = serde_json::json!({"1": {"title": "A", "source": "https://a.example/"}});
        let a = crate::core::parse_lenient(
            Some(&answer),
            crate::core::formats::Data::Json(&data),
            &crate::core::options::Options::default(),
        );
        let unresolved: Vec<_> = a
            .diagnostics
            .iter()
            .filter(|d| d.code == "unresolved-marker")
            .collect();
        assert_eq!(unresolved.len(), MAX_REPORTS + 1);
        assert!(unresolved[..MAX_REPORTS].iter().all(|d| d.start.is_some()));
        assert_eq!(
            unresolved[MAX_REPORTS].message,
            "50 more markers naming no source were not reported"
        );
        assert!(a.text.starts_with("Claim 0. Claim 1."), "{}", &a.text[..40]);
    }
}
