//! The `posthoc` format (docs/formats.md): a fast LLM's raw output
//! `{citations: [{claim, sourceIndex, confidence}]}` plus the source list it was shown,
//! over an answer without markers.
//!
//! - `sources` are in the stored shape (`{id, type, uri, title, snippet, ...}`) or
//!   `{title, url, snippet}`; a source without an id gets its position (`"1"`, `"2"`).
//!   Its position (1-based) is also its given number, as the fast LLM saw `[1]`, `[2]`.
//! - `sourceIndex` is 1-based into `sources` (a list of indexes is accepted too, and
//!   `sourceIds` naming sources by id); an index out of range is `unknown-source`.
//! - Each claim is located in the answer by [`ClaimLocator`]: the exact text first (the
//!   first occurrence not already taken by an earlier claim, else the first), then
//!   ignoring case, runs of whitespace, markdown emphasis and typographic quotes and
//!   dashes, then a close match (`claim-fuzzy-match`, info). A claim not found is a
//!   `claim-not-found` warning naming the claim.
//! - `confidence` is kept as given (`"full"`, `"partial"`, `0.9`).
//! - `citations` may also be the LLM's raw output as a string (JSON, possibly in a
//!   fenced block); an array as the data is the citation list alone.
//! - When no answer is given, the data's `response`/`answer`/`text` string is the text;
//!   other fields of the data object are kept in the draft's metadata.

use crate::core::draft::{Draft, DraftSpan, SourceRef};
use crate::core::error::ParseError;
use crate::core::json_fields::{as_uint, type_name, wrong_type, Fields};
use crate::core::markers::TextSyntax;
use crate::core::model::{Diagnostic, Format};
use crate::core::options::Options;
use crate::core::ordered_hash::OrderedHashMap;
use crate::core::sort;
use crate::core::unicode::is_alphanumeric;
use crate::core::untrusted_text::excerpt;
use serde_json::{Map, Value};

use super::support::{cap_sources, cap_spans, id_text};

/// Parses `posthoc` data into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    _options: &Options,
) -> Result<Draft, ParseError> {
    let mut draft = Draft::new(Format::Posthoc, answer.unwrap_or(""));
    // Claims are located in the text; markers a model wrote into it anyway are read
    // too (every format reads every marker form).
    draft.grammar = Some(super::support::every_marker(TextSyntax::Markdown));
    let mut sources: Option<&Value> = None;
    let mut citations: Option<&Value> = None;
    match data {
        None | Some(Value::Null) => {}
        Some(Value::Object(o)) => {
            if !o.contains_key("citations") && !o.contains_key("sources") {
                return Err(ParseError::not_format(
                    Format::Posthoc,
                    "$",
                    "expected an object with `citations` (and `sources`)",
                ));
            }
            super::support::take_text_and_metadata(
                o,
                answer.is_some(),
                &["response", "answer", "text", "content"],
                &["sources", "citations"],
                &mut draft,
            );
            sources = o.get("sources");
            citations = o.get("citations");
            if sources.is_none() {
                draft.diagnostics.push(
                    Diagnostic::warning(
                        "missing-field",
                        "`sources` is missing; no claim can name a source",
                    )
                    .at_path("sources"),
                );
            }
        }
        Some(v @ Value::Array(a)) => {
            if a.iter().any(|x| x.get("claim").is_some()) {
                citations = Some(v);
            } else {
                sources = Some(v);
            }
        }
        Some(other) => {
            return Err(ParseError::not_format(
                Format::Posthoc,
                "$",
                format!(
                    "expected an object with `citations` and `sources`, found {}",
                    type_name(other)
                ),
            ))
        }
    }
    super::stored::read_source_list(&mut draft, sources, true);
    cap_sources(&mut draft);
    let parsed_raw;
    let list: Vec<&Value> = match citations {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a.iter().collect(),
        Some(Value::String(raw)) => match raw_output(raw) {
            Some(v) => {
                parsed_raw = v;
                match &parsed_raw {
                    Value::Array(a) => a.iter().collect(),
                    Value::Object(o) => match o.get("citations") {
                        Some(Value::Array(a)) => a.iter().collect(),
                        _ => Vec::new(),
                    },
                    _ => Vec::new(),
                }
            }
            None => {
                draft.diagnostics.push(
                    Diagnostic::warning(
                        "wrong-type",
                        "`citations` is a string that is not the JSON of a citation list; ignored",
                    )
                    .at_path("citations"),
                );
                Vec::new()
            }
        },
        Some(other) => {
            draft
                .diagnostics
                .push(wrong_type("citations", "an array", other));
            Vec::new()
        }
    };
    let text = std::mem::take(&mut draft.text);
    {
        let ids: OrderedHashMap<&str, usize> = {
            let mut m = OrderedHashMap::new();
            for (i, s) in draft.sources.iter().enumerate() {
                m.or_insert(s.source.id.as_str(), i);
            }
            m
        };
        let n_sources = draft.sources.len();
        let mut locator = ClaimLocator::new(&text);
        let mut spans = Vec::new();
        let mut diags = Vec::new();
        for (i, c) in list.into_iter().enumerate() {
            let path = format!("citations[{i}]");
            let Value::Object(o) = c else {
                diags.push(wrong_type(&path, "an object", c));
                continue;
            };
            if let Some(span) = read_claim(o, &path, n_sources, &ids, &mut locator, &mut diags) {
                spans.push(span);
            }
        }
        draft.spans = spans;
        draft.diagnostics.append(&mut diags);
    }
    draft.text = text;
    cap_spans(&mut draft);
    Ok(draft)
}

/// The fast LLM's raw output as JSON: the text itself, or the JSON inside a fenced
/// block, or the outermost `{...}` in it.
fn raw_output(raw: &str) -> Option<Value> {
    let t = raw.trim();
    if let Ok(v) = crate::core::json_fields::parse_json(t) {
        return Some(v);
    }
    let first = t.find(['{', '['])?;
    let last = t.rfind(['}', ']'])?;
    if last <= first {
        return None;
    }
    crate::core::json_fields::parse_json(&t[first..=last]).ok()
}

/// Reads one `{claim, sourceIndex, confidence}` and locates its claim.
fn read_claim(
    o: &Map<String, Value>,
    path: &str,
    n_sources: usize,
    ids: &OrderedHashMap<&str, usize>,
    locator: &mut ClaimLocator<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<DraftSpan> {
    let mut f = Fields::new(o, path);
    let claim = f
        .string_any(&["claim", "text", "quote"], diags)
        .filter(|c| !c.trim().is_empty());
    let Some(claim) = claim else {
        diags.push(
            Diagnostic::warning(
                "missing-field",
                format!("`{path}.claim` is missing or empty; the citation is skipped"),
            )
            .at_path(format!("{path}.claim")),
        );
        return None;
    };
    let mut refs: Vec<SourceRef> = Vec::new();
    let mut named = false;
    let index_key = [
        "sourceIndex",
        "sourceIndices",
        "source_index",
        "sourceIndexes",
    ]
    .into_iter()
    .find(|k| o.get(*k).is_some_and(|v| !v.is_null()));
    if let Some(key) = index_key {
        named = true;
        let is_list = o.get(key).is_some_and(Value::is_array);
        for (j, v) in f.array(key).unwrap_or_default().into_iter().enumerate() {
            let p = if is_list {
                format!("{path}.{key}[{j}]")
            } else {
                format!("{path}.{key}")
            };
            match as_uint(v) {
                Some(n) if n >= 1 && (n as usize) <= n_sources => {
                    let r = SourceRef::Index(n as usize - 1);
                    if !refs.contains(&r) {
                        refs.push(r);
                    }
                }
                Some(n) => diags.push(
                    Diagnostic::warning(
                        "unknown-source",
                        format!(
                            "`{p}` is {n}, but there are {n_sources} sources (numbered from 1)"
                        ),
                    )
                    .at_path(p),
                ),
                None => diags.push(wrong_type(&p, "a number", v)),
            }
        }
    }
    for key in ["sourceIds", "sourceId"] {
        if let Some(list) = f.array(key) {
            named = true;
            for v in list {
                let p = format!("{path}.{key}");
                match id_text(v).and_then(|id| ids.get(id.as_str()).copied()) {
                    Some(i) => {
                        let r = SourceRef::Index(i);
                        if !refs.contains(&r) {
                            refs.push(r);
                        }
                    }
                    None => diags.push(
                        Diagnostic::warning(
                            "unknown-source",
                            format!("`{p}` names a source that is not in `sources`"),
                        )
                        .at_path(p),
                    ),
                }
            }
        }
    }
    if !named {
        diags.push(
            Diagnostic::warning(
                "missing-field",
                format!("`{path}.sourceIndex` is missing; the citation is skipped"),
            )
            .at_path(format!("{path}.sourceIndex")),
        );
        return None;
    }
    let confidence = f.value("confidence").cloned();
    let shown = excerpt(&claim, 80);
    let (start, end) = match locator.locate(&claim) {
        Located::Exact(s, e) | Located::Normalized(s, e) => (s, e),
        Located::Fuzzy(s, e, similarity) => {
            diags.push(
                Diagnostic::info(
                    "claim-fuzzy-match",
                    format!(
                        "the claim \"{shown}\" is not in the answer word for word; located by a close match ({}% similar)",
                        (similarity * 100.0).round_ties_even() as i64
                    ),
                )
                .at_path(format!("{path}.claim"))
                .at(s, e),
            );
            (s, e)
        }
        Located::NotFound => {
            diags.push(
                Diagnostic::warning(
                    "claim-not-found",
                    format!("the claim \"{shown}\" is not in the answer; its citation is dropped"),
                )
                .at_path(format!("{path}.claim")),
            );
            return None;
        }
    };
    if refs.is_empty() {
        return None;
    }
    let mut span = DraftSpan::new(start, end, refs);
    span.confidence = confidence;
    Some(span)
}

/// Where a claim was found in the answer (byte ranges of the answer).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Located {
    /// The claim word for word.
    Exact(usize, usize),
    /// The claim ignoring case, whitespace runs, emphasis marks, quote and dash styles.
    Normalized(usize, usize),
    /// A close match, with its similarity (0.8 to 1).
    Fuzzy(usize, usize, f64),
    /// Not in the answer.
    NotFound,
}

/// Answers larger than this are only searched word for word.
const MAX_NORMALIZED_BYTES: usize = 8 * 1024 * 1024;
/// Longest claim (in normalized characters) tried by close match.
const MAX_FUZZY_CLAIM_CHARS: usize = 1_000;
/// Shortest claim tried by close match: shorter ones match too easily.
const MIN_FUZZY_CLAIM_CHARS: usize = 10;
/// Occurrences of anchor words tried per claim.
const MAX_ANCHORS: usize = 48;
/// Dynamic-programming cells allowed per answer for close matching, in total.
const FUZZY_BUDGET_CELLS: u64 = 60_000_000;
/// Lowest similarity accepted as a close match.
const MIN_SIMILARITY: f64 = 0.8;

/// Locates claims in an answer, exact first, then normalized, then by close match.
/// The normalized form of the answer and its word index are built once, on the first
/// claim that needs them. Close matching looks only at windows around the rarest
/// words of the claim, under a global cost budget, so it stays linear-ish in the
/// answer size whatever the claims.
pub struct ClaimLocator<'a> {
    text: &'a str,
    used: Vec<(usize, usize)>,
    norm: Option<Normalized>,
    budget: u64,
}

/// The answer folded for matching, with the way back to original byte offsets.
struct Normalized {
    /// Folded text.
    text: String,
    /// Per folded character: (byte in `text`, original start byte, original end byte).
    chars: Vec<(usize, usize, usize)>,
    /// Word → indexes (into `chars`) of its occurrences.
    words: OrderedHashMap<String, Vec<usize>>,
}

/// Folds one character for matching; `None` drops it, `Some(' ')` is whitespace.
fn fold(c: char, out: &mut dyn FnMut(char)) {
    match c {
        c if c.is_whitespace() => out(' '),
        '*' | '_' | '`' => {}
        '\u{2018}' | '\u{2019}' | '\u{201a}' | '\u{201b}' | '\u{2032}' => out('\''),
        '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{201f}' | '\u{2033}' => out('"'),
        '\u{2010}'..='\u{2015}' | '\u{2212}' => out('-'),
        c if c.is_control() => {}
        c if c.is_ascii() => out(c.to_ascii_lowercase()),
        c => {
            // Unicode case folding (`ß` -> `ss`, final sigma -> sigma), as link labels
            // are matched (`core::unicode`).
            let mut buf = [0u8; 4];
            for l in crate::core::unicode::fold_case(c.encode_utf8(&mut buf)).chars() {
                out(l)
            }
        }
    }
}

/// Folds a claim: like the answer, runs of whitespace as one space, ends trimmed.
fn fold_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        fold(c, &mut |f| {
            if f == ' ' && (out.is_empty() || out.ends_with(' ')) {
                return;
            }
            out.push(f);
        });
    }
    while out.ends_with(' ') {
        out.pop();
    }
    out
}

impl Normalized {
    fn new(text: &str) -> Self {
        let mut folded = String::with_capacity(text.len());
        let mut chars: Vec<(usize, usize, usize)> = Vec::with_capacity(text.len());
        for (b, c) in text.char_indices() {
            let end = b + c.len_utf8();
            fold(c, &mut |f| {
                if f == ' ' {
                    if let Some(last) = chars.last_mut() {
                        if folded.ends_with(' ') && last.2 == b {
                            last.2 = end;
                            return;
                        }
                    }
                }
                chars.push((folded.len(), b, end));
                folded.push(f);
            });
        }
        let mut words: OrderedHashMap<String, Vec<usize>> = OrderedHashMap::new();
        let mut start: Option<usize> = None;
        for i in 0..=chars.len() {
            let alnum = chars
                .get(i)
                .and_then(|&(nb, _, _)| folded[nb..].chars().next())
                .is_some_and(char::is_alphanumeric);
            match (alnum, start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    let from = chars[s].0;
                    let to = chars.get(i).map_or(folded.len(), |c| c.0);
                    words.or_default(folded[from..to].to_string()).push(s);
                    start = None;
                }
                _ => {}
            }
        }
        Normalized {
            text: folded,
            chars,
            words,
        }
    }

    /// Original byte range of folded characters `from..to` (char indexes).
    fn original(&self, from: usize, to: usize) -> Option<(usize, usize)> {
        let first = self.chars.get(from)?;
        let last = self.chars.get(to.checked_sub(1)?)?;
        Some((first.1, last.2.max(first.1)))
    }

    /// Char index of folded byte `b` (a char boundary of `text`).
    fn char_at(&self, b: usize) -> usize {
        self.chars.partition_point(|c| c.0 < b)
    }
}

impl<'a> ClaimLocator<'a> {
    /// A locator over `text`.
    pub fn new(text: &'a str) -> Self {
        ClaimLocator {
            text,
            used: Vec::new(),
            norm: None,
            budget: FUZZY_BUDGET_CELLS,
        }
    }

    /// Finds `claim` in the text; a found range is remembered, so the same claim
    /// given twice takes its next occurrence.
    pub fn locate(&mut self, claim: &str) -> Located {
        let trimmed = claim.trim();
        if trimmed.is_empty() {
            return Located::NotFound;
        }
        if let Some((s, e)) = self.exact(trimmed) {
            self.used.push((s, e));
            return Located::Exact(s, e);
        }
        if self.text.len() > MAX_NORMALIZED_BYTES {
            return Located::NotFound;
        }
        if self.norm.is_none() {
            self.norm = Some(Normalized::new(self.text));
        }
        let folded = fold_str(trimmed);
        let stripped = folded
            .trim_end_matches(['.', ',', ';', ':', '!', '?'])
            .trim_matches(['"', '\''])
            .trim();
        for candidate in [folded.as_str(), stripped] {
            if candidate.is_empty() {
                continue;
            }
            if let Some((s, e)) = self.normalized(candidate) {
                self.used.push((s, e));
                return Located::Normalized(s, e);
            }
        }
        match self.fuzzy(&folded) {
            Some((s, e, sim)) => {
                self.used.push((s, e));
                Located::Fuzzy(s, e, sim)
            }
            None => Located::NotFound,
        }
    }

    /// The first occurrence of `claim` not taken yet, else the first.
    fn exact(&self, claim: &str) -> Option<(usize, usize)> {
        let mut first = None;
        for (s, m) in self.text.match_indices(claim) {
            let r = (s, s + m.len());
            if !self.used.contains(&r) {
                return Some(r);
            }
            first.get_or_insert(r);
        }
        first
    }

    /// Like [`Self::exact`] over the folded text.
    fn normalized(&self, folded: &str) -> Option<(usize, usize)> {
        let n = self.norm.as_ref()?;
        let mut first = None;
        for (b, m) in n.text.match_indices(folded) {
            let from = n.char_at(b);
            let to = n.char_at(b + m.len());
            let Some(r) = n.original(from, to) else {
                continue;
            };
            let r = trim_range(self.text, r);
            if r.0 >= r.1 {
                continue;
            }
            if !self.used.contains(&r) {
                return Some(r);
            }
            first.get_or_insert(r);
        }
        first
    }

    /// The best close match of a folded claim, if it is similar enough.
    fn fuzzy(&mut self, folded: &str) -> Option<(usize, usize, f64)> {
        let n = self.norm.as_ref()?;
        let claim: Vec<char> = folded.chars().collect();
        let m = claim.len();
        if !(MIN_FUZZY_CLAIM_CHARS..=MAX_FUZZY_CLAIM_CHARS).contains(&m) {
            return None;
        }
        // Words of the claim with their char offsets, rarest in the answer first.
        let mut words: Vec<(usize, &Vec<usize>)> = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        let mut i = 0;
        while i < m {
            if is_alphanumeric(claim[i]) {
                let s = i;
                while i < m && is_alphanumeric(claim[i]) {
                    i += 1;
                }
                let w: String = claim[s..i].iter().collect();
                if !seen.contains(&w) {
                    if let Some(pos) = n.words.get(&w) {
                        words.push((s, pos));
                    }
                    seen.push(w);
                }
            } else {
                i += 1;
            }
        }
        sort::sort_by_key(&mut words, |(_, pos)| (sort::pos(pos.len()), 0));
        let slack = m / 4 + 4;
        let total = n.chars.len();
        let mut regions: Vec<(usize, usize)> = Vec::new();
        'outer: for (offset, positions) in words.iter().take(3) {
            for &p in positions.iter() {
                if regions.len() >= MAX_ANCHORS {
                    break 'outer;
                }
                let base = p.saturating_sub(*offset);
                regions.push((base.saturating_sub(slack), (base + m + slack).min(total)));
            }
        }
        sort::sort_by_key(&mut regions, |&(a, b)| (sort::pos(a), sort::pos(b)));
        let mut merged: Vec<(usize, usize)> = Vec::new();
        for r in regions {
            match merged.last_mut() {
                Some(last) if r.0 <= last.1 => last.1 = last.1.max(r.1),
                _ => merged.push(r),
            }
        }
        let mut best: Option<(usize, usize, usize)> = None; // (distance, from, to)
        for (from, to) in merged {
            let cells = (m as u64) * ((to - from) as u64 + 1);
            if cells > self.budget {
                break;
            }
            self.budget -= cells;
            let region: Vec<char> = (from..to)
                .filter_map(|k| n.chars.get(k).and_then(|c| n.text[c.0..].chars().next()))
                .collect();
            if let Some((d, s, e)) = best_substring(&claim, &region) {
                if best.is_none_or(|b| d < b.0) {
                    best = Some((d, from + s, from + e));
                }
            }
        }
        let (d, s, e) = best?;
        let similarity = 1.0 - d as f64 / m as f64;
        if similarity < MIN_SIMILARITY || e <= s {
            return None;
        }
        let r = n.original(s, e)?;
        let r = widen_to_words(self.text, trim_range(self.text, r));
        (r.0 < r.1).then_some((r.0, r.1, similarity))
    }
}

/// The substring of `text` closest to `pattern` by edit distance (Sellers'
/// algorithm): `(distance, start, end)` in char indexes of `text`.
fn best_substring(pattern: &[char], text: &[char]) -> Option<(usize, usize, usize)> {
    if pattern.is_empty() || text.is_empty() {
        return None;
    }
    let w = text.len();
    // Row 0: an empty pattern matches anywhere for free; each cell remembers where its
    // alignment started.
    let mut prev: Vec<(usize, usize)> = (0..=w).map(|j| (0, j)).collect();
    let mut cur: Vec<(usize, usize)> = vec![(0, 0); w + 1];
    for (i, &pc) in pattern.iter().enumerate() {
        cur[0] = (i + 1, 0);
        for j in 1..=w {
            let sub = (
                prev[j - 1].0 + usize::from(text[j - 1] != pc),
                prev[j - 1].1,
            );
            let del = (prev[j].0 + 1, prev[j].1);
            let ins = (cur[j - 1].0 + 1, cur[j - 1].1);
            let mut bestc = sub;
            if del.0 < bestc.0 {
                bestc = del;
            }
            if ins.0 < bestc.0 {
                bestc = ins;
            }
            cur[j] = bestc;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    let mut best: Option<(usize, usize, usize)> = None;
    for (j, &(d, s)) in prev.iter().enumerate().skip(1) {
        if best.is_none_or(|b| d < b.0) {
            best = Some((d, s, j));
        }
    }
    best
}

/// `r` without whitespace at either end.
fn trim_range(text: &str, (s, e): (usize, usize)) -> (usize, usize) {
    let Some(slice) = text.get(s..e) else {
        return (s, s);
    };
    let lead = slice.len() - slice.trim_start().len();
    let trail = slice.len() - slice.trim_end().len();
    if lead + trail >= slice.len() {
        return (s, s);
    }
    (s + lead, e - trail)
}

/// `r` widened so it does not start or end inside a word (at most 40 bytes each way).
fn widen_to_words(text: &str, (mut s, mut e): (usize, usize)) -> (usize, usize) {
    let word = is_alphanumeric;
    let limit_s = s.saturating_sub(40);
    while s > limit_s {
        let (Some(before), Some(at)) = (text[..s].chars().next_back(), text[s..].chars().next())
        else {
            break;
        };
        if word(before) && word(at) {
            s -= before.len_utf8();
        } else {
            break;
        }
    }
    let limit_e = e + 40;
    while e < limit_e && e < text.len() {
        let (Some(before), Some(at)) = (text[..e].chars().next_back(), text[e..].chars().next())
        else {
            break;
        };
        if word(before) && word(at) {
            e += at.len_utf8();
        } else {
            break;
        }
    }
    (s, e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ANSWER: &str =
        "React 19 brings significant performance improvements and a new Actions API.";

    fn locate(text: &str, claim: &str) -> Located {
        ClaimLocator::new(text).locate(claim)
    }

    fn slice(text: &str, l: Located) -> &str {
        match l {
            Located::Exact(s, e) | Located::Normalized(s, e) | Located::Fuzzy(s, e, _) => {
                &text[s..e]
            }
            Located::NotFound => "<not found>",
        }
    }

    #[test]
    fn exact_then_next_unused_occurrence() {
        let t = "Paris is big. Paris is big. Lyon is not.";
        let mut l = ClaimLocator::new(t);
        assert_eq!(l.locate("Paris is big"), Located::Exact(0, 12));
        assert_eq!(l.locate("Paris is big"), Located::Exact(14, 26));
        assert_eq!(l.locate("Paris is big"), Located::Exact(0, 12));
    }

    #[test]
    fn normalized_ignores_case_whitespace_and_emphasis() {
        let t = "React 19 brings **Significant**\n  performance improvements.";
        let l = locate(t, "significant performance improvements");
        assert!(matches!(l, Located::Normalized(..)), "{l:?}");
        assert_eq!(slice(t, l), "Significant**\n  performance improvements");
        let t = "It’s the “new” Actions API.";
        let l = locate(t, "it's the \"new\" actions api.");
        assert_eq!(slice(t, l), "It’s the “new” Actions API.");
    }

    #[test]
    fn normalized_maps_back_through_multibyte_text() {
        let t = "😀 Ünïcode  TEXT — here";
        let l = locate(t, "ünïcode text - here");
        assert_eq!(slice(t, l), "Ünïcode  TEXT — here");
        // Case folding, not just lowercasing: `ß` is `ss`, a final sigma is a sigma.
        let t = "Die STRASSE ist lang. ΟΔΟΣ ΜΑΚΡΙΑ.";
        let l = locate(t, "die straße ist lang");
        assert!(matches!(l, Located::Normalized(..)), "{l:?}");
        assert_eq!(slice(t, l), "Die STRASSE ist lang");
        assert_eq!(slice(t, locate(t, "οδος μακρια")), "ΟΔΟΣ ΜΑΚΡΙΑ");
    }

    #[test]
    fn fuzzy_finds_close_paraphrase() {
        let l = locate(ANSWER, "brings signficant performance improvments");
        assert!(matches!(l, Located::Fuzzy(..)), "{l:?}");
        assert_eq!(
            slice(ANSWER, l),
            "brings significant performance improvements"
        );
    }

    #[test]
    fn unrelated_claim_is_not_found() {
        assert_eq!(
            locate(ANSWER, "Vue 3 ships a compiler for templates"),
            Located::NotFound
        );
        assert_eq!(locate(ANSWER, "   "), Located::NotFound);
        assert_eq!(locate("", "anything at all here"), Located::NotFound);
    }

    #[test]
    fn fuzzy_is_bounded_on_large_answers() {
        // 1 MB of repetitive text: the anchor words are frequent, but only a bounded
        // number of windows is tried and the budget caps the work.
        let big = "the cat sat on the mat and the dog ran. ".repeat(26_000);
        let mut l = ClaimLocator::new(&big);
        let t = std::time::Instant::now();
        for _ in 0..50 {
            let _ = l.locate("the cat szt on teh mat and the dgo ran quickly");
        }
        assert!(t.elapsed().as_secs() < 20);
    }

    #[test]
    fn parse_seed_example() {
        let d = parse(
            Some(ANSWER),
            Some(&json!({
                "sources": [
                    {"id": "req-1-0", "type": "web", "title": "React Documentation", "uri": "https://react.dev"},
                    {"title": "Performance Benchmark", "url": "https://bench.example/r19", "snippet": "Tests show 40%..."}
                ],
                "citations": [
                    {"claim": "new Actions API", "sourceIndex": 1, "confidence": "full"},
                    {"claim": "significant performance improvements", "sourceIndex": 2, "confidence": 0.7},
                    {"claim": "Svelte is mentioned", "sourceIndex": 1},
                    {"claim": "React 19", "sourceIndex": 7}
                ]
            })),
            &Options::default(),
        )
        .unwrap();
        assert_eq!(d.sources[1].source.id, "source-2");
        assert_eq!(d.sources[1].given_number, Some(2));
        assert_eq!(d.spans.len(), 2);
        assert_eq!(&ANSWER[d.spans[0].start..d.spans[0].end], "new Actions API");
        assert_eq!(d.spans[0].confidence, Some(json!("full")));
        let codes: Vec<&str> = d.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["claim-not-found", "unknown-source"]);
    }

    #[test]
    fn raw_llm_output_string() {
        let d = parse(
            Some(ANSWER),
            Some(&json!({
                "sources": [{"title": "A"}],
                "citations": "```json\n{\"citations\": [{\"claim\": \"new Actions API\", \"sourceIndex\": 1}]}\n```"
            })),
            &Options::default(),
        )
        .unwrap();
        assert_eq!(d.spans.len(), 1);
    }
}
