//! Offset units (docs/formats.md, "Offsets"): inputs give spans in UTF-16 code units (JS), Unicode
//! scalar values (Python) or UTF-8 bytes (Gemini). Inside Rust every offset is a byte
//! offset on a character boundary; conversion happens here, at the edges.

use serde::{Deserialize, Serialize};

/// The unit of an offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PositionEncoding {
    /// UTF-8 bytes.
    Utf8,
    /// UTF-16 code units (JavaScript string indices). The default.
    #[default]
    Utf16,
    /// Unicode scalar values (Python string indices).
    Utf32,
}

impl PositionEncoding {
    /// Units of `c` in this encoding.
    #[inline]
    pub fn units(self, c: char) -> usize {
        match self {
            PositionEncoding::Utf8 => c.len_utf8(),
            PositionEncoding::Utf16 => c.len_utf16(),
            PositionEncoding::Utf32 => 1,
        }
    }

    /// The name used in options and diagnostics.
    pub fn name(self) -> &'static str {
        match self {
            PositionEncoding::Utf8 => "utf8",
            PositionEncoding::Utf16 => "utf16",
            PositionEncoding::Utf32 => "utf32",
        }
    }
}

/// What was wrong with an offset that had to be repaired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OffsetProblem {
    /// Past the end of the text; clamped to the end.
    OutOfRange,
    /// Inside a character (or between the halves of a surrogate pair); moved back to the
    /// start of that character.
    NotOnBoundary,
}

/// Converts offsets between a unit and bytes for one text, in O(log n) per lookup
/// after an O(n) build (a checkpoint every [`OffsetIndex::STRIDE`] characters).
#[derive(Debug, Clone)]
pub struct OffsetIndex<'a> {
    text: &'a str,
    encoding: PositionEncoding,
    /// (byte, unit) at every STRIDE-th character boundary, starting with (0, 0).
    marks: Vec<(usize, usize)>,
    total_units: usize,
}

impl<'a> OffsetIndex<'a> {
    /// Characters between checkpoints.
    pub const STRIDE: usize = 64;

    /// Builds the index of `text` for `encoding`.
    pub fn new(text: &'a str, encoding: PositionEncoding) -> Self {
        let mut marks = Vec::with_capacity(text.len() / Self::STRIDE + 2);
        marks.push((0, 0));
        let mut units = 0usize;
        if encoding == PositionEncoding::Utf8 {
            return OffsetIndex {
                text,
                encoding,
                marks,
                total_units: text.len(),
            };
        }
        for (n, (byte, c)) in text.char_indices().enumerate() {
            if n > 0 && n % Self::STRIDE == 0 {
                marks.push((byte, units));
            }
            units += encoding.units(c);
        }
        OffsetIndex {
            text,
            encoding,
            marks,
            total_units: units,
        }
    }

    /// Length of the text in this unit.
    pub fn len_units(&self) -> usize {
        self.total_units
    }

    /// The byte offset of `unit`, repaired if needed: a position past the end is clamped
    /// to the end, a position inside a character moves back to its start.
    pub fn to_byte(&self, unit: usize) -> (usize, Option<OffsetProblem>) {
        if unit > self.total_units {
            return (self.text.len(), Some(OffsetProblem::OutOfRange));
        }
        if self.encoding == PositionEncoding::Utf8 {
            if self.text.is_char_boundary(unit) {
                return (unit, None);
            }
            let mut b = unit;
            while !self.text.is_char_boundary(b) {
                b -= 1;
            }
            return (b, Some(OffsetProblem::NotOnBoundary));
        }
        let i = match self.marks.binary_search_by_key(&unit, |m| m.1) {
            Ok(i) => return (self.marks[i].0, None),
            Err(i) => i - 1,
        };
        let (mut byte, mut u) = self.marks[i];
        for c in self.text[byte..].chars() {
            let w = self.encoding.units(c);
            if u + w > unit {
                return (byte, Some(OffsetProblem::NotOnBoundary));
            }
            u += w;
            byte += c.len_utf8();
            if u == unit {
                return (byte, None);
            }
        }
        (self.text.len(), None)
    }

    /// The unit offset of `byte` (which must be a char boundary; otherwise the start of
    /// its character is used).
    pub fn to_unit(&self, byte: usize) -> usize {
        let mut byte = byte.min(self.text.len());
        while !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        if self.encoding == PositionEncoding::Utf8 {
            return byte;
        }
        let i = match self.marks.binary_search_by_key(&byte, |m| m.0) {
            Ok(i) => return self.marks[i].1,
            Err(i) => i - 1,
        };
        let (b0, u0) = self.marks[i];
        u0 + self.text[b0..byte]
            .chars()
            .map(|c| self.encoding.units(c))
            .sum::<usize>()
    }
}

/// Byte offset → unit offset, for one position (builds no index).
pub fn byte_to_unit(text: &str, byte: usize, encoding: PositionEncoding) -> usize {
    OffsetIndex::new(&text[..floor_boundary(text, byte)], encoding).len_units()
}

/// The largest char boundary of `text` at or before `byte` (clamped to the length).
pub fn floor_boundary(text: &str, byte: usize) -> usize {
    let mut b = byte.min(text.len());
    while !text.is_char_boundary(b) {
        b -= 1;
    }
    b
}

/// The smallest char boundary of `text` at or after `byte` (clamped to the length).
pub fn ceil_boundary(text: &str, byte: usize) -> usize {
    let mut b = byte.min(text.len());
    while !text.is_char_boundary(b) {
        b += 1;
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_surrogate_pairs_and_cjk() {
        let t = "a😀b中c";
        let ix = OffsetIndex::new(t, PositionEncoding::Utf16);
        assert_eq!(ix.len_units(), 6);
        assert_eq!(ix.to_byte(1), (1, None));
        assert_eq!(ix.to_byte(2), (1, Some(OffsetProblem::NotOnBoundary)));
        assert_eq!(ix.to_byte(3), (5, None));
        assert_eq!(ix.to_byte(4), (6, None));
        assert_eq!(ix.to_byte(5), (9, None));
        assert_eq!(ix.to_byte(6), (10, None));
        assert_eq!(ix.to_byte(7), (10, Some(OffsetProblem::OutOfRange)));
        assert_eq!(ix.to_unit(5), 3);
        assert_eq!(ix.to_unit(10), 6);
    }

    #[test]
    fn utf32_and_utf8() {
        let t = "é😀x";
        let ix = OffsetIndex::new(t, PositionEncoding::Utf32);
        assert_eq!(ix.to_byte(2), (6, None));
        assert_eq!(ix.to_unit(6), 2);
        let ix = OffsetIndex::new(t, PositionEncoding::Utf8);
        assert_eq!(ix.to_byte(1), (0, Some(OffsetProblem::NotOnBoundary)));
        assert_eq!(ix.to_byte(2), (2, None));
    }

    #[test]
    fn long_text_uses_checkpoints() {
        let t: String = "ab😀中".repeat(500);
        for enc in [PositionEncoding::Utf16, PositionEncoding::Utf32] {
            let ix = OffsetIndex::new(&t, enc);
            let mut units = 0;
            for (b, c) in t.char_indices() {
                assert_eq!(ix.to_byte(units), (b, None));
                assert_eq!(ix.to_unit(b), units);
                units += enc.units(c);
            }
            assert_eq!(ix.len_units(), units);
        }
    }
}
