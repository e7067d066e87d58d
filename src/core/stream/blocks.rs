//! Block settling: the streamed text cut into blocks (where one ends:
//! [`super::boundary`]), each completed block read once (with the explicit spans of a
//! provider stream that end in it), and the open last block read again on every chunk
//! behind the hold-back ([`super::hold`]). The snapshot
//! is the committed blocks joined ([`super::joined`]) plus that open tail; this is what
//! makes a chunk cost what its open block costs, not what the answer costs.

use super::boundary::block_boundary;
use super::hold::{cut_draft, shown_part, strip_closer};
use super::joined::Joined;
use super::{Block, Source_, StreamParser};
use crate::core::draft::{Draft, DraftSpan};
use crate::core::markers::Grammar;
use crate::core::model::Answer;
use crate::core::resolve::{resolve_pending, resolve_pending_on};

impl StreamParser {
    /// A draft for raw[s..e] with the base's sources.
    pub(super) fn block_draft(&self, s: usize, e: usize) -> Draft {
        let mut d = Draft::new(self.format, &self.raw[s..e]);
        d.content_kind = self.base.content_kind;
        d.grammar = self.base.grammar;
        d.sources = self.base.sources.clone();
        d.spans = self.spans_in(s, e);
        d
    }

    /// Counts `bytes` of answer text handed to the resolver (in tests).
    pub(super) fn count_resolved(&self, bytes: usize) {
        #[cfg(test)]
        self.resolved_bytes.set(self.resolved_bytes.get() + bytes);
        #[cfg(not(test))]
        let _ = bytes;
    }

    /// raw[s..e] resolved against the base's sources, pending markers kept.
    fn read_block(&self, draft: Draft) -> Answer {
        self.count_resolved(draft.text.len());
        resolve_pending_on(&self.pool, draft, &self.options)
    }

    /// A draft for raw[s..e] without sources (they are the pool's).
    fn bare_draft(&self, s: usize, e: usize) -> Draft {
        let mut d = Draft::new(self.format, &self.raw[s..e]);
        d.content_kind = self.base.content_kind;
        d.grammar = self.base.grammar;
        d.spans = self.spans_in(s, e);
        d
    }

    /// Whether the data is a provider's own stream (OpenAI, Anthropic, Gemini,
    /// Perplexity): its reader's draft holds the answer so far, its explicit spans
    /// index that text, which `raw` is.
    pub(super) fn provider_stream(&self) -> bool {
        matches!(&self.data, Source_::Sse { acc, .. } if acc.provider_draft().is_some())
    }

    /// A provider stream's explicit spans over the answer so far (none for any other
    /// data).
    fn provider_spans(&self) -> &[DraftSpan] {
        match &self.data {
            Source_::Sse { acc, .. } => acc.provider_draft().map_or(&[], |d| &d.spans),
            Source_::Json(_) => &[],
        }
    }

    /// The provider spans that belong to raw[s..e] ([`span_anchor`] in it; the open
    /// tail, whose `e` is the end of the text so far, also takes the ones past it),
    /// with offsets into it. A span that starts in an earlier block starts at `s` here:
    /// blocks are read on their own while streaming, and `finish` reads the spans over
    /// the whole text.
    pub(super) fn spans_in(&self, s: usize, e: usize) -> Vec<DraftSpan> {
        let tail = e >= self.raw.len();
        self.provider_spans()
            .iter()
            .filter(|span| {
                let at = span_anchor(span);
                s <= at && (at < e || tail)
            })
            .map(|span| {
                let mut span = span.clone();
                span.start = span.start.max(s) - s;
                span.end -= s;
                span
            })
            .collect()
    }

    /// The committed block `i` read again (its spans changed, or its sources' order).
    pub(super) fn reread_block(&mut self, i: usize) {
        let (s, e) = (self.blocks[i].raw_start, self.blocks[i].raw_end);
        self.blocks[i].answer = self.read_block(self.bare_draft(s, e));
        self.in_place = false;
    }

    /// A provider stream's spans after a push: the committed blocks where they changed
    /// (a span added, replaced or taken out) are read again, and only those; the open
    /// tail reads its own. Most spans arrive while the text they cover is still in the
    /// tail (an OpenAI annotation right after its text, an Anthropic citation when its
    /// text block stops); a late one (a Chat Completion's annotations with its last
    /// text, Gemini's grounding on its last chunk) costs the blocks it lands in.
    pub(super) fn follow_spans(&mut self) {
        if !self.incremental || !self.provider_stream() {
            return;
        }
        let spans = self.provider_spans();
        if spans == self.spans_read.as_slice() {
            return;
        }
        let same = spans
            .iter()
            .zip(&self.spans_read)
            .take_while(|(a, b)| a == b)
            .count();
        // Per committed block, whether a span changed in it.
        let mut changed = vec![false; self.blocks.len()];
        for span in spans[same..].iter().chain(&self.spans_read[same..]) {
            let at = span_anchor(span);
            if at < self.committed {
                changed[self.blocks.partition_point(|b| b.raw_end <= at)] = true;
            }
        }
        self.spans_read = spans.to_vec();
        let Some(first) = changed.iter().position(|&c| c) else {
            return;
        };
        for (i, _) in changed.into_iter().enumerate().filter(|&(_, c)| c) {
            self.reread_block(i);
        }
        let from: usize = self.blocks[..first]
            .iter()
            .map(|b| b.answer.text.len())
            .sum();
        self.rewritten_from = Some(self.rewritten_from.map_or(from, |r| r.min(from)));
    }

    pub(super) fn commit_range(&mut self, s: usize, e: usize) {
        let answer = self.read_block(self.bare_draft(s, e));
        if !self.in_place {
            self.rejoin();
        }
        self.joined.restore(&mut self.snapshot);
        self.joined
            .add(&mut self.snapshot, &answer, &self.options, true);
        self.blocks.push(Block {
            raw_start: s,
            raw_end: e,
            answer,
        });
        self.committed = e;
    }

    /// Commits every block of the open tail that is complete.
    pub(super) fn commit_blocks(&mut self) {
        if !self.incremental {
            return;
        }
        loop {
            let tail = &self.raw[self.committed..];
            let Some(cut) = block_boundary(tail) else {
                break;
            };
            let (s, e) = (self.committed, self.committed + cut);
            self.commit_range(s, e);
        }
    }

    /// Re-reads the open tail (up to a held-back partial marker) and the snapshot.
    pub(super) fn update_tail(&mut self) {
        if !self.incremental {
            self.snapshot = self.whole_pending();
            self.in_place = false;
            return;
        }
        let tail_answer = self.tail_answer(false);
        if !self.in_place {
            self.rejoin();
        }
        self.joined.restore(&mut self.snapshot);
        if let Some(t) = &tail_answer {
            self.joined.add(&mut self.snapshot, t, &self.options, false);
        }
    }

    /// The open tail (up to a held-back partial marker) read on its own (`full`: with
    /// a copy of every source, as [`resolve_pending`] reads a draft).
    pub(super) fn tail_answer(&self, full: bool) -> Option<Answer> {
        let tail = &self.raw[self.committed..];
        let grammar = self.base.grammar.unwrap_or(Grammar::NUMERIC);
        let (shown, closer) = shown_part(tail, &grammar);
        let visible = self.committed + shown;
        if visible > self.committed {
            // Over the whole tail, then cut where it is shown: spans are cut as a whole
            // read cuts them.
            let end = self.raw.len();
            let mut draft = if full {
                self.block_draft(self.committed, end)
            } else {
                self.bare_draft(self.committed, end)
            };
            cut_draft(&mut draft, shown);
            if let Some(c) = &closer {
                draft.text.push_str(c);
            }
            let mut a = if full {
                resolve_pending(draft, &self.options)
            } else {
                self.read_block(draft)
            };
            strip_closer(&mut a, closer.as_deref());
            Some(a)
        } else {
            None
        }
    }

    /// Joins the committed blocks again from the start (after the base changed or
    /// blocks were resolved anew).
    pub(super) fn rejoin(&mut self) {
        let (mut joined, mut snapshot) = Joined::start(
            &self.base_resolved,
            (self.format, self.base.content_kind),
            &self.options,
        );
        for b in &self.blocks {
            joined.add(&mut snapshot, &b.answer, &self.options, true);
        }
        self.joined = joined;
        self.snapshot = snapshot;
        self.in_place = true;
    }
}

/// The byte of the text an explicit span belongs to: its last one, or its place when it
/// is empty (a point, such as a `file_citation`'s index).
fn span_anchor(span: &DraftSpan) -> usize {
    if span.end > span.start {
        span.end - 1
    } else {
        span.end
    }
}
