//! Resolution (SPEC section 4): markers to sources, dedupe, numbering, spans.

use crate::core::draft::Draft;
use crate::core::model::CitedAnswer;
use crate::core::options::Options;

/// Turns a draft into the normalized model.
pub fn resolve(draft: Draft, options: &Options) -> CitedAnswer {
    let _ = options;
    CitedAnswer {
        text: draft.text,
        format: draft.format,
        content_kind: draft.content_kind,
        sources: Vec::new(),
        citations: Vec::new(),
        links: Vec::new(),
        diagnostics: draft.diagnostics,
        show_citations: options.show_citations,
    }
}
