//! JSON answers with a `_citations` sidecar: a key/value view. Placeholder until the
//! view lands: the JSON is shown as text with markers.

use super::{Block, MarkerSet};
use crate::core::model::CitedAnswer;

/// Renders a JSON answer as blocks.
pub fn blocks(answer: &CitedAnswer, markers: &MarkerSet) -> Vec<Block> {
    super::html::blocks(answer, markers)
}
