//! Resolution (docs/resolution.md): markers come out of the text and
//! name sources; sources are deduplicated and numbered; every citation gets its span.

use crate::core::draft::{Draft, DraftSource, SourceRef};
use crate::core::limits::{
    MAX_ANSWER_BYTES, MAX_ANSWER_BYTES_NAME, MAX_CITATIONS, MAX_CITATIONS_NAME, MAX_SOURCES,
    MAX_SOURCES_NAME,
};
use crate::core::markers::{self, Marker, MarkerKind, SourceKey, TextSyntax};
use crate::core::model::{
    Answer, Citation, CitationOrigin, ContentKind, Diagnostic, Severity, Source, TextLink,
};
use crate::core::options::{Numbering, Options, Unresolved};
use crate::core::ordered_hash::OrderedHashMap;
use crate::core::unicode;
use crate::core::untrusted_text::{clean_text, normalize_url, sanitize_url, UrlContext};
use crate::core::{sort, str_ops};

mod shared;
pub(crate) use shared::BasePool;

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

/// The start of the span a marker at `end` supports: back to the start of its sentence,
/// list item, table cell or line, never before `floor`; then whitespace and `,;:` skipped.
pub fn span_start(text: &str, end: usize, floor: usize) -> usize {
    let floor = floor.min(end);
    let head = &text[floor..end];
    let mut boundary = floor;
    let mut line_start = false;
    // Byte-wise from the end: every boundary character is ASCII or starts with the
    // lead byte of its UTF-8 form (never a continuation byte), so no character needs
    // decoding on the way.
    let b = head.as_bytes();
    let space_after = |at: usize| head[at..].chars().next().is_some_and(char::is_whitespace);
    let mut i = b.len();
    while i > 0 {
        i -= 1;
        let len = match b[i] {
            b'\n' => {
                line_start = true;
                1
            }
            b'|' => 1,
            b'.' if space_after(i + 1) && !abbreviation_at(head, i) => 1,
            b'!' | b'?' if space_after(i + 1) => 1,
            0xD8 if head[i..].starts_with('؟') && space_after(i + 2) => 2,
            0xE3 if head[i..].starts_with('。') => 3,
            0xEF if head[i..].starts_with('！') || head[i..].starts_with('？') => 3,
            0xE2 if head[i..].starts_with('…') && space_after(i + 3) => 3,
            _ => continue,
        };
        boundary = floor + i + len;
        break;
    }
    // No boundary in the head: the span starts at the floor, a line start when the floor
    // is one (a sentence boundary never is, whatever the floor: `www. - it` keeps its `-`).
    if boundary == floor {
        line_start = floor == 0 || text[..floor].ends_with('\n');
    }
    let mut s = boundary;
    if line_start {
        s += line_prefix_len(&text[s..end]);
    }
    let rest = &text[s..end];
    let skip = rest.len()
        - rest
            .trim_start_matches(|c: char| {
                c.is_whitespace() || matches!(c, ',' | ';' | ':' | '、' | '，' | '،' | '؛')
            })
            .len();
    s + skip
}

/// Whether the `.` at `dot` (followed by whitespace) ends an abbreviation or an ordinal
/// rather than a sentence, read as Unicode's sentence rules (UAX #29) read a full stop
/// followed by a lower-case word, plus the cases of real answers those rules leave out:
///
/// - the next word starts in lower case (`e.g. the report`, `am 9. über`);
/// - the word before is an initial or single letters with dots between them (`J. Smith`,
///   `U.S. policy`, `S. 12`, `z. B. Berlin`), or a title or abbreviation that a name or
///   a number follows (`Dr. Smith`, `No. 5`, `Nr. 5`, `ca. 3`, `vgl. Kapitel 2`);
/// - the word before is a number (an ordinal, as German and other languages write
///   them) and the next word is a number (`am 9. 7. 2024`) or, after a day (1 or 2
///   digits), a German month name (`Am 9. Juli 2024`, `3. Okt.`).
///
/// A number ending a longer word (`v1.2. Then`) and a year before a month (`2020.
/// September`) still end a sentence; a list number at a line start (`1. `) is a block
/// start either way ([`line_prefix_len`]).
fn abbreviation_at(text: &str, dot: usize) -> bool {
    let after = text[dot + 1..].trim_start();
    let next = after.chars().next();
    if next.is_some_and(starts_lower_case) {
        return true;
    }
    let before = &text[..dot];
    let digits = before.bytes().rev().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        // A number standing alone: at the start, or after a space or an opening bracket.
        let number_alone = before[..before.len() - digits]
            .chars()
            .next_back()
            .is_none_or(|c| c.is_whitespace() || matches!(c, '(' | '['));
        // Up to the next ASCII byte that is not a letter (month names hold `ä`).
        let word_end = after
            .bytes()
            .position(|b| b.is_ascii() && !b.is_ascii_alphabetic())
            .unwrap_or(after.len());
        let next_word = &after[..word_end];
        return number_alone
            && (next.is_some_and(|c| c.is_ascii_digit())
                || digits <= 2 && listed(GERMAN_MONTHS, next_word));
    }
    // Letters and dots are ASCII: the word starts right after the last other byte.
    let word_start = before
        .bytes()
        .rposition(|b| !(b.is_ascii_alphabetic() || b == b'.'))
        .map_or(0, |k| k + 1);
    // A word that starts right after another letter (`Předtím`, read back to `m`) is
    // no initial nor title.
    let word_alone = before[..word_start].chars().next_back().is_none_or(|c| {
        c.is_whitespace()
            || c.is_ascii_punctuation()
            || matches!(c, '\u{2010}'..='\u{205e}' | '«' | '»' | '¿' | '¡')
    });
    if !word_alone {
        return false;
    }
    let word = &before[word_start..];
    // An initial (`J`, `z`), or single letters with dots between them (`U.S`, `e.g`).
    let w = word.as_bytes();
    let letters_and_dots = w.len() % 2 == 1
        && w.iter()
            .enumerate()
            .all(|(k, b)| (k % 2 == 1) == (*b == b'.'));
    if w.len() == 1 || w.len() > 1 && letters_and_dots {
        return true;
    }
    // Space-separated lists, not arrays of `&str`: no pointer table in the wasm.
    const TITLES: &str = "Mr Mrs Ms Dr Prof Sr Jr St Mt vs cf approx Fig fig No no Vol vol pp \
        Gen ca Nr nr Abb Abs Art Bd Kap Tab bzw ggf vgl Vgl inkl";
    listed(TITLES, word)
}

/// German month names and their abbreviations, as they follow a day's ordinal
/// (`9. Juli`, `3. Okt.`).
const GERMAN_MONTHS: &str = "Januar Jänner Februar Feber März April Mai Juni Juli August \
    September Oktober November Dezember Jan Jän Feb Mär Mrz Apr Jun Jul Aug Sep Sept Okt Nov Dez";

/// Whether `word` is one of the space-separated words of `list`.
fn listed(list: &str, word: &str) -> bool {
    !word.is_empty() && str_ops::split(list, " ").any(|w| w == word)
}

/// Whether `c` is a lower-case letter of ASCII, Latin-1 or Latin Extended-A (the
/// letters of the European languages that write ordinals with a dot: `9. července`).
/// Written out because `char::is_lowercase` would link core's Unicode table into the
/// wasm (the page-load budget of docs/size.md); held to it by a test.
fn starts_lower_case(c: char) -> bool {
    let u = c as u32;
    match u {
        0x61..=0x7a => true,
        0xdf..=0xff => u != 0xf7,
        0x100..=0x137 | 0x14a..=0x177 => !u.is_multiple_of(2),
        0x139..=0x148 | 0x179..=0x17e => u.is_multiple_of(2),
        0x138 | 0x149 | 0x17f => true,
        _ => false,
    }
}

/// In HTML text: the position after the tags (and whitespace) that open the span, so
/// `<p>Claim` starts at `Claim`.
fn skip_tags(text: &str, mut s: usize, end: usize) -> usize {
    loop {
        let rest = &text[s..end];
        let trimmed = rest.trim_start();
        let ws = rest.len() - trimmed.len();
        match trimmed
            .strip_prefix('<')
            .and_then(|t| str_ops::find_str(t, ">"))
        {
            Some(e) if trimmed[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '/') => {
                s += ws + e + 2;
            }
            _ => return s + ws,
        }
    }
}

/// Length of a markdown line prefix: indentation, blockquote `>`, a list bullet or
/// number, a heading's `#`s, a task box.
fn line_prefix_len(line: &str) -> usize {
    let b = line.as_bytes();
    let mut i = 0;
    loop {
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        if i < b.len() && b[i] == b'>' {
            i += 1;
            continue;
        }
        break;
    }
    if i + 1 < b.len() && matches!(b[i], b'-' | b'*' | b'+') && b[i + 1] == b' ' {
        i += 2;
    } else {
        let d = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if d > 0
            && d <= 9
            && i + d + 1 < b.len()
            && matches!(b[i + d], b'.' | b')')
            && b[i + d + 1] == b' '
        {
            i += d + 2;
        } else {
            let h = b[i..].iter().take_while(|&&c| c == b'#').count();
            if (1..=6).contains(&h) && i + h < b.len() && b[i + h] == b' ' {
                i += h + 1;
            }
        }
    }
    while i < b.len() && b[i] == b' ' {
        i += 1;
    }
    if b.len() >= i + 4
        && b[i] == b'['
        && matches!(b[i + 1], b' ' | b'x' | b'X')
        && b[i + 2] == b']'
        && b[i + 3] == b' '
    {
        i += 4;
    }
    i
}

/// A source made from a GFM footnote definition.
fn footnote_source(raw: &str, m: &Marker, body: std::ops::Range<usize>) -> Option<DraftSource> {
    let key = m.keys.first()?.clone();
    let label = match &key {
        SourceKey::Name(n) => n.trim_start_matches('^').to_string(),
        SourceKey::Num(n) => n.to_string(),
    };
    let body = raw.get(body)?;
    let url = first_url(body);
    let title = clean_text(&strip_link_syntax(body));
    Some(DraftSource {
        source: Source {
            id: format!("fn-{label}"),
            kind: "footnote".into(),
            title: if title.is_empty() { None } else { Some(title) },
            domain: url
                .as_deref()
                .and_then(crate::core::untrusted_text::domain_of),
            url,
            ..Source::default()
        },
        keys: vec![key],
        given_number: crate::core::str_ops::uint_as(&label),
    })
}

/// The first `http(s)://` url in a piece of markdown (inside `(...)`, `<...>` or bare).
fn first_url(s: &str) -> Option<String> {
    let i = str_ops::find_str(s, "http://")
        .into_iter()
        .chain(str_ops::find_str(s, "https://"))
        .min()?;
    let end = s[i..]
        .find(|c: char| c.is_whitespace() || matches!(c, ')' | '>' | '"' | '\'' | ']'))
        .map_or(s.len(), |e| i + e);
    let url = s[i..end].trim_end_matches(['.', ',', ';']);
    sanitize_url(url, UrlContext::Source)
}

/// `[label](url)` → `label`, `<url>` → ``; the rest as is.
fn strip_link_syntax(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(['[', '<']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(inner) = tail.strip_prefix('<') {
            match str_ops::find_str(inner, ">") {
                Some(e) if str_ops::has(&inner[..e], "://") => {
                    rest = &inner[e + 1..];
                }
                _ => {
                    out.push('<');
                    rest = inner;
                }
            }
        } else if let Some(close) = str_ops::find_str(tail, "](") {
            match str_ops::find_str(&tail[close..], ")") {
                Some(p) => {
                    out.push_str(&tail[1..close]);
                    rest = &tail[close + p + 1..];
                }
                None => {
                    out.push('[');
                    rest = &tail[1..];
                }
            }
        } else {
            out.push('[');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// A draft source as the pool takes it: named `source-{n}` when it has no id, with its
/// url normalized for finding duplicates.
pub(crate) fn to_pool(mut ds: DraftSource, n: usize) -> (DraftSource, Option<String>) {
    if ds.source.id.is_empty() {
        ds.source.id = format!("source-{n}");
    }
    let url_key = ds.source.url.as_deref().map(normalize_url);
    (ds, url_key)
}

/// The info that source `id` was merged into `kept` (the same id, or else the same
/// url `url`).
pub(crate) fn duplicate_source(id: &str, kept: &str, url: Option<&str>) -> Diagnostic {
    let why = if kept == id {
        format!("id `{id}`")
    } else {
        format!("url {}", url.unwrap_or(""))
    };
    Diagnostic::new(
        Severity::Info,
        "duplicate-source",
        format!("source `{id}` is the same as `{kept}` (same {why}); merged"),
    )
}

/// What resolution asks of the sources: a whole [`SourcePool`], or a block's
/// footnote definitions over a shared base ([`shared::Overlay`]). Sources are item
/// indices.
trait Pool {
    /// The source a key names.
    fn find(&self, key: &SourceKey) -> Option<usize>;
    /// The item a draft source went into.
    fn canon(&self, draft_index: usize) -> Option<usize>;
    /// Counts one citation of item `i`.
    fn cite(&mut self, i: usize);
    /// How many items are cited more than `limit` times.
    fn cited_over(&self, limit: usize) -> usize;
    /// Marks item `i` as used.
    fn set_used(&mut self, i: usize);
    /// Assigns display numbers; `order` lists item indices in citation order.
    fn number(&mut self, order: &[usize], numbering: Numbering);
    /// Item `i`'s id.
    fn id(&self, i: usize) -> &str;
    /// (identifier, url) of every source, in source order.
    fn identifier_pairs(&self) -> Vec<(&str, &str)>;
    /// The sources of the answer.
    fn take_sources(&mut self) -> Vec<Source>;
}

impl Pool for SourcePool {
    fn find(&self, key: &SourceKey) -> Option<usize> {
        SourcePool::find(self, key)
    }
    fn canon(&self, draft_index: usize) -> Option<usize> {
        self.canon.get(draft_index).copied()
    }
    fn cite(&mut self, i: usize) {
        self.items[i].source.cited = true;
        self.items[i].source.cite_count += 1;
    }
    fn cited_over(&self, limit: usize) -> usize {
        self.items
            .iter()
            .filter(|s| s.source.cite_count as usize > limit)
            .count()
    }
    fn set_used(&mut self, i: usize) {
        self.items[i].source.used = true;
    }
    fn number(&mut self, order: &[usize], numbering: Numbering) {
        SourcePool::number(self, order, numbering)
    }
    fn id(&self, i: usize) -> &str {
        &self.items[i].source.id
    }
    fn identifier_pairs(&self) -> Vec<(&str, &str)> {
        pairs_of(self.items.iter().map(|it| &it.source))
    }
    fn take_sources(&mut self) -> Vec<Source> {
        std::mem::take(&mut self.items)
            .into_iter()
            .map(|s| s.source)
            .collect()
    }
}

/// The (identifier, url) pairs of `sources` with a non-blank identifier.
fn pairs_of<'a>(sources: impl Iterator<Item = &'a Source>) -> Vec<(&'a str, &'a str)> {
    sources
        .flat_map(|s| s.identifiers.iter())
        .filter(|(k, _)| !k.trim().is_empty())
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

#[derive(Debug, Clone, Default)]
struct PoolItem {
    source: Source,
    keys: Vec<SourceKey>,
    given_number: Option<u32>,
}

impl PoolItem {
    /// Merges a duplicate of this source into it: its fields where this one has none,
    /// its keys this one lacks, its number when this one has none. Returns the keys
    /// added and the number taken, for the lookups that index them.
    fn absorb(
        &mut self,
        source: Source,
        keys: Vec<SourceKey>,
        given_number: Option<u32>,
    ) -> (Vec<SourceKey>, Option<u32>) {
        merge_source(&mut self.source, source);
        let mut added = Vec::new();
        for k in keys {
            if !self.keys.contains(&k) {
                self.keys.push(k.clone());
                added.push(k);
            }
        }
        let mut took = None;
        if self.given_number.is_none() {
            self.given_number = given_number;
            took = given_number;
        }
        (added, took)
    }
}

/// The deduplicated sources, with lookups by key and by draft index.
#[derive(Debug, Clone, Default)]
struct SourcePool {
    items: Vec<PoolItem>,
    /// Draft index → item index.
    canon: Vec<usize>,
    by_key: OrderedHashMap<SourceKey, usize>,
    /// Source id → item index, for keys no source claims.
    by_id: OrderedHashMap<String, usize>,
    /// Number the input gave → item index, for keys no source claims.
    by_number: OrderedHashMap<u32, usize>,
    /// Normalized url → item index.
    by_url: OrderedHashMap<String, usize>,
}

impl SourcePool {
    fn build(sources: Vec<DraftSource>, diags: &mut Vec<Diagnostic>) -> Self {
        let mut items: Vec<PoolItem> = Vec::with_capacity(sources.len());
        let mut canon = Vec::with_capacity(sources.len());
        let mut by_id: OrderedHashMap<String, usize> = OrderedHashMap::new();
        let mut by_url: OrderedHashMap<String, usize> = OrderedHashMap::new();
        for (n, ds) in sources.into_iter().enumerate() {
            let (
                DraftSource {
                    source,
                    keys,
                    given_number,
                },
                url_key,
            ) = to_pool(ds, n + 1);
            let hit = by_id
                .get(&source.id)
                .or_else(|| url_key.as_ref().and_then(|u| by_url.get(u)))
                .copied();
            match hit {
                Some(i) => {
                    diags.push(duplicate_source(
                        &source.id,
                        &items[i].source.id,
                        url_key.as_deref(),
                    ));
                    by_id.or_insert(source.id.clone(), i);
                    // The lookups are built from the items afterwards.
                    items[i].absorb(source, keys, given_number);
                    canon.push(i);
                }
                None => {
                    let i = items.len();
                    by_id.insert(source.id.clone(), i);
                    if let Some(u) = url_key {
                        by_url.insert(u, i);
                    }
                    items.push(PoolItem {
                        source,
                        keys,
                        given_number,
                    });
                    canon.push(i);
                }
            }
        }
        let mut by_key = OrderedHashMap::new();
        let mut by_number = OrderedHashMap::new();
        for (i, item) in items.iter().enumerate() {
            for k in &item.keys {
                by_key.or_insert(k.clone(), i);
            }
            if let Some(n) = item.given_number {
                by_number.or_insert(n, i);
            }
        }
        SourcePool {
            items,
            canon,
            by_key,
            by_id,
            by_number,
            by_url,
        }
    }

    /// The source a key names: the one that has the key, else (models mix marker
    /// syntaxes, so `[[S:4]]` turns up where the data numbers its sources `"1"`..`"5"`,
    /// and `[2]` where it keys them by name) the one whose id is the key's text, else
    /// for a number the one the input gave that number.
    fn find(&self, key: &SourceKey) -> Option<usize> {
        if let Some(&i) = self.by_key.get(key) {
            return Some(i);
        }
        match key {
            SourceKey::Num(n) => self
                .by_id
                .get(&n.to_string())
                .or_else(|| u32::try_from(*n).ok().and_then(|n| self.by_number.get(&n)))
                .copied(),
            SourceKey::Name(name) => self.by_id.get(name).copied(),
        }
    }

    /// Assigns display numbers. `order` lists item indices in citation order.
    fn number(&mut self, order: &[usize], numbering: Numbering) {
        let n = self.items.len();
        let mut numbers: Vec<u32> = vec![0; n];
        match numbering {
            Numbering::FirstCited => {
                let mut next = 1u32;
                for i in order.iter().copied().chain(0..n) {
                    if numbers[i] == 0 {
                        numbers[i] = next;
                        next += 1;
                    }
                }
            }
            Numbering::Given => {
                let mut taken = crate::core::ordered_hash::OrderedHashSet::new();
                for (i, item) in self.items.iter().enumerate() {
                    let given = item.given_number.or_else(|| {
                        item.keys.iter().find_map(|k| match k {
                            SourceKey::Num(n) => u32::try_from(*n).ok(),
                            _ => None,
                        })
                    });
                    if let Some(g) = given.filter(|g| *g > 0) {
                        if taken.insert(g) {
                            numbers[i] = g;
                        }
                    }
                }
                let mut next = taken.iter().max().copied().unwrap_or(0) + 1;
                for num in numbers.iter_mut() {
                    if *num == 0 {
                        *num = next;
                        next += 1;
                    }
                }
            }
        }
        for (item, num) in self.items.iter_mut().zip(numbers) {
            item.source.number = num;
        }
    }
}

/// Fills what `into` lacks from `from` (two records found to be one source: the first
/// one seen wins).
pub(crate) fn merge_source(into: &mut Source, from: Source) {
    into.merge(from, crate::core::model::MergeWins::Kept);
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
