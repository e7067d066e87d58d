//! The streaming snapshot put together from scratch, the reference the in-place snapshot
//! is held to: every block resolved again and joined with the tail, then numbered and
//! counted over every citation. Tests compare [`StreamParser`]'s in-place snapshot
//! with it after every push.

use super::StreamParser;
use crate::core::model::{Answer, Citation, Diagnostic, Source, TextLink};
use crate::core::options::Numbering;
use crate::core::ordered_hash::{OrderedHashMap, OrderedHashSet};
use crate::core::resolve::{merge_source, resolve_pending};

pub(super) fn scratch(p: &StreamParser) -> Answer {
    let tail = p.tail_answer(true);
    let tail = tail.as_ref();
    let mut all = Joined::new(&p.base_resolved);
    for b in &p.blocks {
        all.add(&resolve_pending(
            p.block_draft(b.raw_start, b.raw_end),
            &p.options,
        ));
    }
    if let Some(t) = tail {
        all.add(t);
    }
    let Joined {
        text,
        mut citations,
        links,
        diagnostics,
        mut sources,
        index,
        used,
        ..
    } = all;
    // Pending keys that name a footnote defined in another block turn live.
    for c in &mut citations {
        if c.pending.is_empty() {
            continue;
        }
        let mut still = Vec::new();
        for k in std::mem::take(&mut c.pending) {
            let fid = k.strip_prefix('^').map(|l| format!("fn-{l}"));
            match fid.filter(|id| index.contains_key(id)) {
                Some(id) if !c.sources.contains(&id) => c.sources.push(id),
                Some(_) => {}
                None => still.push(k),
            }
        }
        c.pending = still;
    }
    crate::core::sort::sort_by_key(&mut citations, |c| (c.end as u64, c.start as u64));
    if !p.options.show_citations {
        citations.clear();
    }
    // Counts and numbers.
    for s in &mut sources {
        s.cited = false;
        s.cite_count = 0;
        s.used |= used.contains(&s.id);
    }
    let mut order: Vec<usize> = Vec::new();
    for c in &citations {
        for id in &c.sources {
            if let Some(&i) = index.get(id) {
                sources[i].cited = true;
                sources[i].cite_count += 1;
                order.push(i);
            }
        }
    }
    if p.options.numbering == Numbering::FirstCited {
        let mut numbers = vec![0u32; sources.len()];
        let mut next = 1;
        for i in order.into_iter().chain(0..sources.len()) {
            if numbers[i] == 0 {
                numbers[i] = next;
                next += 1;
            }
        }
        for (s, n) in sources.iter_mut().zip(numbers) {
            s.number = n;
        }
    } else {
        let mut taken: OrderedHashSet<u32> = sources
            .iter()
            .filter(|s| s.number > 0)
            .map(|s| s.number)
            .collect();
        let mut next = taken.iter().max().copied().unwrap_or(0) + 1;
        for s in &mut sources {
            if s.number == 0 || !taken.contains(&s.number) {
                s.number = next;
                taken.insert(next);
                next += 1;
            }
        }
    }
    crate::core::sort::sort_by_key(&mut sources, |s| (u64::from(s.number), 0));
    Answer {
        text,
        format: p.format,
        content_kind: p.base.content_kind,
        sources,
        citations,
        links,
        diagnostics,
        show_citations: p.options.show_citations,
        metadata: p.base_resolved.metadata.clone(),
    }
}

/// Completed blocks put together: the text, and the citations, links and diagnostics
/// with global offsets; the base's sources, then footnote definitions found in blocks
/// (uncounted: numbers and counts are set when the whole is assembled).
#[derive(Debug, Clone, Default)]
struct Joined {
    text: String,
    citations: Vec<Citation>,
    links: Vec<TextLink>,
    diagnostics: Vec<Diagnostic>,
    /// Position-less diagnostics already in `diagnostics` (blocks repeat them).
    seen_plain: OrderedHashSet<(String, String)>,
    sources: Vec<Source>,
    /// Where each source id is in `sources`.
    index: OrderedHashMap<String, usize>,
    /// Sources a block reported as used.
    used: OrderedHashSet<String>,
}

impl Joined {
    /// Nothing joined yet: the base's diagnostics (the data's, and the sources'
    /// dedupe) and sources.
    fn new(base: &Answer) -> Self {
        let diagnostics = base.diagnostics.clone();
        let seen_plain = diagnostics
            .iter()
            .map(|d| (d.code.clone(), d.message.clone()))
            .collect();
        let sources = base.sources.clone();
        let index = sources
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.clone(), i))
            .collect();
        Joined {
            diagnostics,
            seen_plain,
            sources,
            index,
            ..Joined::default()
        }
    }

    /// Adds one block (or the open tail) after what is joined.
    fn add(&mut self, a: &Answer) {
        let off = self.text.len();
        self.text.push_str(&a.text);
        for c in &a.citations {
            let mut c = c.clone();
            c.start += off;
            c.end += off;
            self.citations.push(c);
        }
        for l in &a.links {
            let mut l = l.clone();
            l.start += off;
            l.end += off;
            self.links.push(l);
        }
        for d in &a.diagnostics {
            let mut d = d.clone();
            if d.start.is_none() && d.end.is_none() {
                if !self.seen_plain.insert((d.code.clone(), d.message.clone())) {
                    continue;
                }
            } else {
                d.start = d.start.map(|s| s + off);
                d.end = d.end.map(|s| s + off);
            }
            self.diagnostics.push(d);
        }
        for s in &a.sources {
            if s.used {
                self.used.insert(s.id.clone());
            }
            match self.index.get(&s.id) {
                // The same footnote defined again: the first wins, gaps are filled
                // (as the one-shot resolver merges duplicates).
                Some(&i) => {
                    if self.sources[i].kind == "footnote" {
                        merge_source(&mut self.sources[i], s.clone());
                    }
                }
                None => {
                    let mut s = s.clone();
                    s.cited = false;
                    s.cite_count = 0;
                    self.index.insert(s.id.clone(), self.sources.len());
                    self.sources.push(s);
                }
            }
        }
    }
}
