//! The JSON shape `parse` returns (npm/README.md, "parse"), with offsets in the caller's unit.

use crate::core::model::CitedAnswer;
use crate::core::offsets::{OffsetIndex, PositionEncoding};
use serde_json::Value;

/// The answer as the JSON `parse` returns, offsets converted to `encoding`.
pub fn to_json(answer: &CitedAnswer, encoding: PositionEncoding) -> Value {
    let mut converted = answer.clone();
    if encoding != PositionEncoding::Utf8 {
        let ix = OffsetIndex::new(&answer.text, encoding);
        for c in &mut converted.citations {
            c.start = ix.to_unit(c.start);
            c.end = ix.to_unit(c.end);
        }
        for l in &mut converted.links {
            l.start = ix.to_unit(l.start);
            l.end = ix.to_unit(l.end);
        }
        for d in &mut converted.diagnostics {
            d.start = d.start.map(|s| ix.to_unit(s));
            d.end = d.end.map(|s| ix.to_unit(s));
        }
    }
    serde_json::to_value(&converted).unwrap_or(Value::Null)
}
