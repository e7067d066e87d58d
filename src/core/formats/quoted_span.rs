//! Spans that come with the text they cover: a Cohere citation's `text`, a Bedrock
//! Knowledge Bases citation's `textResponsePart.text`. Neither platform documents the
//! unit of its offsets (nor, for Bedrock, whether `span.end` is inclusive), so the
//! quote decides: the span is read in the platform's unit first, then in the other
//! units, each with `end` exclusive and then inclusive, and the first reading whose
//! text is the quote wins. A span no reading fits is found by its quote in the text
//! (the occurrence nearest to where it was said to start); one whose quote is not in
//! the text is read as given in the platform's unit, with a `span-not-placed` warning.
//! With the `inputEncoding` option only that unit is tried.

use crate::core::formats::support::byte_span;
use crate::core::model::Diagnostic;
use crate::core::offsets::{OffsetIndex, OffsetProblem, PositionEncoding};

/// Every unit, in the order they are tried after the platform's own.
const UNITS: [PositionEncoding; 3] = [
    PositionEncoding::Utf32,
    PositionEncoding::Utf16,
    PositionEncoding::Utf8,
];

/// The byte range of `text` that the span `start..end` covers, given in `unit` (or
/// in `given`, the caller's `inputEncoding`, which is then the only unit tried), read
/// so that it covers `quote` where it can (module docs). Diagnostics go to `diags`
/// at `path`; `None` when the span cannot be placed at all.
pub(crate) fn quoted_span(
    text: &str,
    (start, end): (u64, u64),
    quote: Option<&str>,
    unit: PositionEncoding,
    given: Option<PositionEncoding>,
    path: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<(usize, usize)> {
    let first = given.unwrap_or(unit);
    let quote = quote.filter(|q| !q.is_empty());
    if let Some(q) = quote {
        let units = std::iter::once(first).chain(UNITS.into_iter().filter(|u| *u != first));
        for enc in units.take(if given.is_some() { 1 } else { 3 }) {
            let ix = OffsetIndex::new(text, enc);
            for end in [end, end.saturating_add(1)] {
                if let Some(range) = exact(&ix, text, start, end) {
                    if &text[range.0..range.1] == q {
                        return Some(range);
                    }
                }
            }
        }
        if let Some(at) = nearest(text, q, &OffsetIndex::new(text, first), start) {
            diags.push(
                Diagnostic::info(
                    "span-moved",
                    format!(
                        "`{path}` spans {start}..{end}, which does not cover its quoted text in any unit; placed where that text is"
                    ),
                )
                .at_path(path)
                .at(at, at + q.len()),
            );
            return Some((at, at + q.len()));
        }
        diags.push(
            Diagnostic::warning(
                "span-not-placed",
                format!(
                    "`{path}`'s quoted text is not in the answer; its span {start}..{end} is read as given ({})",
                    first.name()
                ),
            )
            .at_path(path),
        );
    }
    byte_span(
        &OffsetIndex::new(text, first),
        first,
        start,
        end,
        path,
        diags,
    )
}

/// The span in `ix`'s unit as bytes, when both ends are inside the text and on a
/// character boundary.
fn exact(ix: &OffsetIndex<'_>, text: &str, start: u64, end: u64) -> Option<(usize, usize)> {
    let s = usize::try_from(start).ok()?;
    let e = usize::try_from(end).ok()?;
    if s > e || e > ix.len_units() {
        return None;
    }
    let (sb, ps) = ix.to_byte(s);
    let (eb, pe) = ix.to_byte(e);
    let ok = |p: Option<OffsetProblem>| p.is_none();
    (ok(ps) && ok(pe) && eb <= text.len()).then_some((sb, eb))
}

/// The byte offset of the occurrence of `quote` in `text` nearest to `start` (in
/// `ix`'s unit).
fn nearest(text: &str, quote: &str, ix: &OffsetIndex<'_>, start: u64) -> Option<usize> {
    let target = usize::try_from(start).unwrap_or(usize::MAX);
    let target = ix.to_byte(target.min(ix.len_units())).0;
    let mut best: Option<usize> = None;
    let mut from = 0;
    while let Some(i) = crate::core::str_ops::find_str(&text[from..], quote) {
        let at = from + i;
        if best.is_none_or(|b| at.abs_diff(target) < b.abs_diff(target)) {
            best = Some(at);
        }
        from = at + text[at..].chars().next().map_or(1, char::len_utf8);
        if from > text.len() {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(text: &str, s: u64, e: u64, q: &str, unit: PositionEncoding) -> (usize, usize) {
        let mut d = Vec::new();
        quoted_span(text, (s, e), Some(q), unit, None, "$", &mut d).unwrap()
    }

    /// Code points, UTF-16 and bytes each read right when their quote says so, and an
    /// inclusive end is told from an exclusive one by the quote.
    #[test]
    fn the_quote_decides_the_unit_and_the_end() {
        let text = "Zürich 🚲 hat 40 km Velowege.";
        let q = "40 km";
        let b = text.find(q).unwrap();
        let cp = text[..b].chars().count() as u64;
        let u16 = text[..b].encode_utf16().count() as u64;
        for (s, unit) in [
            (cp, PositionEncoding::Utf32),
            (u16, PositionEncoding::Utf16),
            (b as u64, PositionEncoding::Utf8),
        ] {
            assert_eq!(span(text, s, s + 5, q, unit), (b, b + 5));
            // The same numbers read with another unit first still find the quote.
            assert_eq!(span(text, s, s + 5, q, PositionEncoding::Utf16), (b, b + 5));
            // An inclusive end.
            assert_eq!(span(text, s, s + 4, q, unit), (b, b + 5));
        }
    }

    #[test]
    fn a_quote_elsewhere_is_placed_where_it_is_and_a_missing_one_is_said() {
        let text = "alpha beta gamma beta";
        let mut d = Vec::new();
        let r = quoted_span(
            text,
            (15, 19),
            Some("beta"),
            PositionEncoding::Utf32,
            None,
            "$",
            &mut d,
        );
        assert_eq!(r, Some((17, 21)));
        assert_eq!(d[0].code, "span-moved");
        let mut d = Vec::new();
        let r = quoted_span(
            text,
            (0, 5),
            Some("delta"),
            PositionEncoding::Utf32,
            None,
            "$",
            &mut d,
        );
        assert_eq!(r, Some((0, 5)));
        assert_eq!(d[0].code, "span-not-placed");
    }
}
