//! HTML answers (canonical format): an allow-list sanitizer. Placeholder until the
//! sanitizer lands: the HTML is shown as escaped text with markers.

use super::writer::Inline;
use super::{Block, MarkerSet};
use crate::core::model::CitedAnswer;

/// Renders an HTML answer as blocks.
pub fn blocks(answer: &CitedAnswer, markers: &MarkerSet) -> Vec<Block> {
    let mut w = Inline::new(&answer.text, markers);
    w.raw("<div class=\"cite-plain\">");
    w.text(0..answer.text.len(), true);
    w.flush_markers(usize::MAX, true);
    w.raw("</div>");
    vec![Block {
        range: 0..answer.text.len(),
        html: w.take(),
    }]
}
