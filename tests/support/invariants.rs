//! What every [`Answer`] must satisfy, whatever the input (docs/formats.md "Offsets", docs/safety.md and
//! docs/resolution.md). Shared by the property tests (`tests/parse_props.rs`) and the
//! fuzz targets (`fuzz/fuzz_targets/*.rs`), which include this file with `#[path]`.
#![allow(dead_code)]

use citekit::core::model::Answer;
use citekit::core::offsets::{OffsetIndex, PositionEncoding};
use citekit::core::options::Numbering;
use serde_json::Value;
use std::collections::HashSet;

/// The offset units of the `positionEncoding` option (utf16, utf32, utf8).
pub const ENCODINGS: [PositionEncoding; 3] = [
    PositionEncoding::Utf8,
    PositionEncoding::Utf16,
    PositionEncoding::Utf32,
];

/// Checks a byte span of `text`: `start <= end <= text.len()`, both on char boundaries.
pub fn check_byte_span(text: &str, start: usize, end: usize, what: &str) -> Result<(), String> {
    if start > end {
        return Err(format!("{what}: start {start} > end {end}"));
    }
    if end > text.len() {
        return Err(format!(
            "{what}: end {end} past the text ({} bytes)",
            text.len()
        ));
    }
    for b in [start, end] {
        if !text.is_char_boundary(b) {
            return Err(format!("{what}: {b} is not a char boundary"));
        }
    }
    Ok(())
}

/// Checks every span of `answer` (citations, links, diagnostics) in bytes.
pub fn check_spans(answer: &Answer) -> Result<(), String> {
    let t = &answer.text;
    for (i, c) in answer.citations.iter().enumerate() {
        check_byte_span(t, c.start, c.end, &format!("citations[{i}]"))?;
    }
    for (i, l) in answer.links.iter().enumerate() {
        check_byte_span(t, l.start, l.end, &format!("links[{i}]"))?;
    }
    for (i, d) in answer.diagnostics.iter().enumerate() {
        let what = format!("diagnostics[{i}] ({})", d.code);
        match (d.start, d.end) {
            (Some(s), Some(e)) => check_byte_span(t, s, e, &what)?,
            (Some(b), None) | (None, Some(b)) => check_byte_span(t, b, b, &what)?,
            (None, None) => {}
        }
    }
    Ok(())
}

/// Checks the model's own consistency: unique source ids, sources sorted by number
/// (numbers 1..k under `first-cited`), citations naming existing sources and sorted by
/// `end` then `start`, no citation when citations are off.
pub fn check_model(answer: &Answer, numbering: Numbering) -> Result<(), String> {
    let mut ids = HashSet::new();
    for s in &answer.sources {
        if !ids.insert(s.id.as_str()) {
            return Err(format!("source id {:?} appears twice", s.id));
        }
    }
    let numbers: Vec<u32> = answer.sources.iter().map(|s| s.number).collect();
    if numbers.windows(2).any(|w| w[0] >= w[1]) {
        return Err(format!(
            "sources not sorted by distinct numbers: {numbers:?}"
        ));
    }
    if numbering == Numbering::FirstCited && numbers.iter().zip(1..).any(|(n, k)| *n != k) {
        return Err(format!("first-cited numbers are not 1..k: {numbers:?}"));
    }
    for (i, c) in answer.citations.iter().enumerate() {
        for id in &c.sources {
            if !ids.contains(id.as_str()) {
                return Err(format!("citations[{i}] names the unknown source {id:?}"));
            }
        }
    }
    if answer
        .citations
        .windows(2)
        .any(|w| (w[0].end, w[0].start) > (w[1].end, w[1].start))
    {
        return Err("citations are not sorted by end, then start".into());
    }
    if !answer.show_citations && !answer.citations.is_empty() {
        return Err("citations are off but the answer has citations".into());
    }
    Ok(())
}

/// Checks that `to_json` under every unit gives offsets within the text's length in
/// that unit, with `start <= end`.
pub fn check_json_offsets(answer: &Answer) -> Result<(), String> {
    ENCODINGS
        .into_iter()
        .try_for_each(|enc| check_json_offsets_in(answer, enc))
}

/// [`check_json_offsets`] for one unit.
pub fn check_json_offsets_in(answer: &Answer, enc: PositionEncoding) -> Result<(), String> {
    let len = OffsetIndex::new(&answer.text, enc).len_units() as u64;
    let json = citekit::core::json_output::to_json(answer, enc);
    // The JSON text the npm package's `parse` hands to `JSON.parse` is the same value,
    // key for key and in order, whatever the text and data hold.
    let text = citekit::core::json_output::to_json_text(answer, enc);
    // (Both texts read by the same reader: serde_json's is not exact for every float,
    // where `JSON.parse` is, so each side's digits go through it alike.)
    let written: Value = serde_json::from_str(&text)
        .map_err(|e| format!("to_json_text is not JSON ({e}): {text}"))?;
    let expected: Value = serde_json::from_str(&serde_json::to_string(&json).unwrap_or_default())
        .map_err(|e| e.to_string())?;
    if serde_json::to_string(&written).ok() != serde_json::to_string(&expected).ok() {
        return Err(format!(
            "to_json_text differs from to_json in {}: {text}",
            enc.name()
        ));
    }
    for list in ["citations", "links", "diagnostics"] {
        let Some(items) = json.get(list).and_then(Value::as_array) else {
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            let start = item.get("start").and_then(Value::as_u64);
            let end = item.get("end").and_then(Value::as_u64);
            for v in [start, end].into_iter().flatten() {
                if v > len {
                    return Err(format!(
                        "{list}[{i}] in {}: offset {v} past the text ({len} units)",
                        enc.name()
                    ));
                }
            }
            if let (Some(s), Some(e)) = (start, end) {
                if s > e {
                    return Err(format!(
                        "{list}[{i}] in {}: start {s} > end {e}",
                        enc.name()
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Every check above.
pub fn check_all(answer: &Answer, numbering: Numbering) -> Result<(), String> {
    check_spans(answer)?;
    check_model(answer, numbering)?;
    check_json_offsets(answer)
}
