//! Perplexity's streamed chat completions, read as they come (docs/formats.md,
//! "perplexity"). The chunks are OpenAI's Chat Completions chunks
//! ([`super::openai_stream::ChatAccumulator`] puts them together and writes
//! `choices[0].delta.content` to the answer); what is Perplexity's is here:
//! - `citations` (urls) and `search_results` sent on the chunks (on every chunk, in
//!   the recorded streams): whenever they differ from the last ones read, the sources
//!   are read again by the `perplexity` parser itself, so `[1]` turns live as soon as
//!   the first chunk with them has come;
//! - a reasoning model's leading `<think>...</think>` block is not the answer: the
//!   text is held back until the block is closed, and the answer starts after it (as
//!   the parser takes it out).
//!
//! At `[DONE]` (or the end) the answer is `parse` of the completion the chunks make.

use super::perplexity;
use crate::core::draft::DraftSource;
use crate::core::model::Diagnostic;
use crate::core::options::Options;
use serde_json::{Map, Value};

/// The sources a Perplexity stream's chunks carry.
#[derive(Debug, Clone, Default)]
pub(crate) struct PerplexitySources {
    /// The sources, as the parser reads them.
    pub sources: Vec<DraftSource>,
    /// The parser's diagnostics about them.
    pub diagnostics: Vec<Diagnostic>,
    /// The `citations` and `search_results` last read.
    last: Map<String, Value>,
}

impl PerplexitySources {
    /// Reads a chunk's `citations` / `search_results` when they changed; whether they
    /// did.
    pub(crate) fn read(&mut self, chunk: &Map<String, Value>, options: &Options) -> bool {
        let mut changed = false;
        for key in ["citations", "search_results"] {
            if let Some(v) = chunk.get(key).filter(|v| !v.is_null()) {
                if self.last.get(key) != Some(v) {
                    self.last.insert(key.into(), v.clone());
                    changed = true;
                }
            }
        }
        if !changed {
            return false;
        }
        let data = Value::Object(self.last.clone());
        match perplexity::parse(Some(""), Some(&data), options) {
            Ok(d) => {
                self.sources = d.sources;
                self.diagnostics = d.diagnostics;
            }
            Err(e) => {
                self.sources.clear();
                self.diagnostics = vec![Diagnostic::warning(e.code(), e.to_string())];
            }
        }
        true
    }
}

/// Where the answer starts in the content so far, or `None` while that is not known:
/// the content is blank or could still be (or is) an unclosed leading `<think>` block.
/// After a closed block the answer starts at its first non-blank character, as the
/// parser's `split_think` takes it.
pub(crate) fn answer_start(content: &str) -> Option<usize> {
    let t = content.trim_start();
    if t.is_empty() || ("<think>".starts_with(t) && t.len() < "<think>".len()) {
        return None;
    }
    if t.starts_with("<think>") {
        let (_, rest) = perplexity::split_think(content)?;
        if rest.is_empty() {
            return None;
        }
        return Some(content.len() - rest.len());
    }
    Some(0)
}

#[cfg(test)]
mod tests {
    use super::answer_start;

    #[test]
    fn the_answer_starts_after_a_closed_think_block() {
        assert_eq!(answer_start("Hello"), Some(0));
        assert_eq!(answer_start("  Hello"), Some(0));
        assert_eq!(answer_start("<thi"), None);
        assert_eq!(answer_start("<think>why"), None);
        assert_eq!(answer_start("<think>why</think>\n\n"), None);
        let c = "<think>why</think>\n\nHello";
        assert_eq!(&c[answer_start(c).unwrap()..], "Hello");
        // Text that only starts like the tag is the answer.
        assert_eq!(answer_start("<b>x"), Some(0));
    }
}
