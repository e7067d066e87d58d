//! The streaming snapshot, kept in place: the committed blocks stay in it, and each
//! chunk only takes the open tail out again and puts the new one in.
//!
//! A plain [`Answer`] holds the committed blocks followed by the open tail (text,
//! citations, links and diagnostics with global offsets; sources in display order with
//! their numbers and counts). [`Joined`] remembers where the committed part ends and
//! what the committed blocks alone make of every source (its count, number, whether it
//! was used), so that taking the tail out ([`Joined::restore`]) and putting a new one in
//! ([`Joined::add`]) cost what the tail cites, not what the answer holds:
//!
//! - the tail's citations end at or after every committed one (blocks follow each
//!   other), so the citations stay sorted by appending;
//! - numbers in order of first citation: the committed sources keep theirs, a source
//!   the tail cites first gets the next one (then the uncited ones shift: one pass over
//!   the sources, never over the citations);
//! - a committed citation whose footnote key (`[^x]`) is still pending is kept aside
//!   as it came from its block, and resolved again only when the tail defines a
//!   footnote. If that turns it live, the numbering is worked out again over every
//!   citation (the one case that costs the whole answer, while such a tail is open).
//!
//! The result equals putting every block and the tail together from scratch (the test
//! `in_place_snapshot_equals_a_scratch_assembly` in `tests.rs` checks it after every
//! push).

use crate::core::model::{Answer, ContentKind, Format, Source};
use crate::core::options::{Numbering, Options};
use crate::core::ordered_hash::{OrderedHashMap, OrderedHashSet};
use crate::core::resolve::merge_source;

/// A committed citation whose footnote keys are not all resolved: its sources and
/// pending keys as its block gave them.
#[derive(Debug, Clone)]
struct Pend {
    /// Index in the snapshot's citations.
    at: usize,
    sources: Vec<String>,
    pending: Vec<String>,
}

/// What the open tail changed, to be taken out again.
#[derive(Debug, Clone, Default)]
struct Tail {
    /// Sources the tail added (footnote definitions): the last ones of `sources`.
    added: usize,
    /// Committed sources the tail merged a footnote definition into, as they were.
    backups: Vec<(usize, Source)>,
    /// Sources whose count or `used` the tail changed.
    touched: Vec<usize>,
    /// Sources the tail cites first, in order.
    first: Vec<usize>,
    /// The order of every first citation, when it was worked out over all citations.
    all_first: Option<Vec<usize>>,
    /// Counts worked out over all citations (with `all_first`).
    all_counts: Option<Vec<u32>>,
    /// The snapshot's sources were placed again (numbers changed).
    reordered: bool,
    /// Pending committed citations turned (partly) live by the tail.
    gained: bool,
    /// Position-less diagnostics the tail added.
    seen_plain: OrderedHashSet<(String, String)>,
}

/// The committed blocks of a stream, as the snapshot holds them.
#[derive(Debug, Clone, Default)]
pub(super) struct Joined {
    /// Bytes of the snapshot's text the committed blocks make (no chunk changes them).
    pub(super) text_len: usize,
    cit_len: usize,
    links_len: usize,
    diag_len: usize,
    /// Position-less diagnostics already in the snapshot (blocks repeat them).
    seen_plain: OrderedHashSet<(String, String)>,
    /// The base's sources, then footnote definitions found in blocks, uncounted; while
    /// a tail is in, the ones it added follow.
    sources: Vec<Source>,
    /// Where each source id is in `sources`.
    index: OrderedHashMap<String, usize>,
    /// Per committed source: its count, number and `used` in the committed snapshot.
    count: Vec<u32>,
    number: Vec<u32>,
    used_flag: Vec<bool>,
    /// Committed sources in order of first citation.
    first: Vec<usize>,
    /// Where each source is in the snapshot's sources.
    pos: Vec<usize>,
    pend: Vec<Pend>,
    /// The tail's count per source (zero outside `tail.touched`), and its `used`.
    tail_count: Vec<u32>,
    tail_used: Vec<bool>,
    tail: Tail,
}

/// Resolves the footnote keys (`^x`) of a citation's pending keys that `index` defines
/// (`fn-x`), as the one-shot resolver would have.
fn resolve_footnotes(
    sources: &mut Vec<String>,
    pending: &mut Vec<String>,
    index: &OrderedHashMap<String, usize>,
) {
    if pending.is_empty() {
        return;
    }
    let mut still = Vec::new();
    for k in std::mem::take(pending) {
        let fid = k.strip_prefix('^').map(|l| format!("fn-{l}"));
        match fid.filter(|id| index.contains_key(id)) {
            Some(id) if !sources.contains(&id) => sources.push(id),
            Some(_) => {}
            None => still.push(k),
        }
    }
    *pending = still;
}

fn has_footnote_key(pending: &[String]) -> bool {
    pending.iter().any(|k| k.starts_with('^'))
}

impl Joined {
    /// Nothing committed yet: the snapshot holds the base's sources and diagnostics.
    pub(super) fn start(
        base: &Answer,
        (format, content_kind): (Format, ContentKind),
        options: &Options,
    ) -> (Joined, Answer) {
        let diagnostics = base.diagnostics.clone();
        let seen_plain = diagnostics
            .iter()
            .map(|d| (d.code.clone(), d.message.clone()))
            .collect();
        let sources: Vec<Source> = base
            .sources
            .iter()
            .map(|s| {
                let mut s = s.clone();
                s.cited = false;
                s.cite_count = 0;
                s
            })
            .collect();
        let index = sources
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.clone(), i))
            .collect();
        let n = sources.len();
        let mut j = Joined {
            diag_len: diagnostics.len(),
            seen_plain,
            index,
            count: vec![0; n],
            used_flag: sources.iter().map(|s| s.used).collect(),
            tail_count: vec![0; n],
            tail_used: vec![false; n],
            sources,
            ..Joined::default()
        };
        j.number = j.numbers(&[], options.numbering);
        let mut snapshot = Answer {
            text: String::new(),
            format,
            content_kind,
            sources: Vec::new(),
            citations: Vec::new(),
            links: Vec::new(),
            diagnostics,
            show_citations: options.show_citations,
            metadata: base.metadata.clone(),
        };
        let number = j.number.clone();
        j.place(&mut snapshot, &number, &|j, i| j.count[i], &|j, i| {
            j.used_flag[i]
        });
        (j, snapshot)
    }

    /// Display numbers of every source in `sources` for citations that cite them first
    /// in `first` order (the rest after them, in their order), or the numbers they
    /// were given.
    fn numbers(&self, first: &[usize], numbering: Numbering) -> Vec<u32> {
        let n = self.sources.len();
        match numbering {
            Numbering::FirstCited => {
                let mut numbers = vec![0u32; n];
                let mut next = 1;
                for i in first.iter().copied().chain(0..n) {
                    if numbers[i] == 0 {
                        numbers[i] = next;
                        next += 1;
                    }
                }
                numbers
            }
            Numbering::Given => {
                // Numbers given are kept (even twice); sources with none get the next
                // free ones, in order.
                let mut next = self.sources.iter().map(|s| s.number).max().unwrap_or(0) + 1;
                self.sources
                    .iter()
                    .map(|s| {
                        if s.number == 0 {
                            next += 1;
                            next - 1
                        } else {
                            s.number
                        }
                    })
                    .collect()
            }
        }
    }

    /// Puts the snapshot's sources in the order of `number` (ties in `sources`
    /// order), moving the ones it has and copying those it lacks, each with its number,
    /// count and `used`. Sources it has that `sources` no longer holds are dropped.
    fn place(
        &mut self,
        snap: &mut Answer,
        number: &[u32],
        count: &dyn Fn(&Joined, usize) -> u32,
        used: &dyn Fn(&Joined, usize) -> bool,
    ) {
        let n = self.sources.len();
        let mut order: Vec<usize> = (0..n).collect();
        crate::core::sort::sort_by_key(&mut order, |&i| (u64::from(number[i]), i as u64));
        let mut slots: Vec<Option<Source>> = std::mem::take(&mut snap.sources)
            .into_iter()
            .map(Some)
            .collect();
        self.pos.resize(n, usize::MAX);
        let mut out = Vec::with_capacity(n);
        for i in order {
            let mut s = self
                .pos
                .get(i)
                .and_then(|&p| slots.get_mut(p))
                .and_then(Option::take)
                .unwrap_or_else(|| self.sources[i].clone());
            let c = count(self, i);
            s.number = number[i];
            s.cite_count = c;
            s.cited = c > 0;
            s.used = used(self, i);
            self.pos[i] = out.len();
            out.push(s);
        }
        snap.sources = out;
    }

    /// Writes source `i`'s content (after a merge) and live fields into the snapshot.
    fn write_source(&self, snap: &mut Answer, i: usize, number: u32, count: u32, used: bool) {
        let mut s = self.sources[i].clone();
        s.number = number;
        s.cite_count = count;
        s.cited = count > 0;
        s.used = used;
        snap.sources[self.pos[i]] = s;
    }

    /// Takes the open tail out of the snapshot: it holds the committed blocks only.
    pub(super) fn restore(&mut self, snap: &mut Answer) {
        snap.text.truncate(self.text_len);
        snap.citations.truncate(self.cit_len);
        snap.links.truncate(self.links_len);
        snap.diagnostics.truncate(self.diag_len);
        let tail = std::mem::take(&mut self.tail);
        let committed = self.sources.len() - tail.added;
        for s in self.sources.drain(committed..) {
            self.index.remove(&s.id);
        }
        if tail.gained {
            for p in &self.pend {
                let c = &mut snap.citations[p.at];
                c.sources.clone_from(&p.sources);
                c.pending.clone_from(&p.pending);
                resolve_footnotes(&mut c.sources, &mut c.pending, &self.index);
            }
        }
        let merged: Vec<usize> = tail.backups.iter().map(|(i, _)| *i).collect();
        for (i, b) in tail.backups {
            self.sources[i] = b;
        }
        for &i in &tail.touched {
            self.tail_count[i] = 0;
            self.tail_used[i] = false;
        }
        self.tail_count.truncate(committed);
        self.tail_used.truncate(committed);
        if tail.reordered {
            let number = std::mem::take(&mut self.number);
            self.place(snap, &number, &|j, i| j.count[i], &|j, i| j.used_flag[i]);
            self.number = number;
            self.pos.truncate(committed);
        } else {
            for &i in &tail.touched {
                let p = self.pos[i];
                let s = &mut snap.sources[p];
                s.cite_count = self.count[i];
                s.cited = self.count[i] > 0;
                s.used = self.used_flag[i];
            }
        }
        for i in merged {
            self.write_source(snap, i, self.number[i], self.count[i], self.used_flag[i]);
        }
    }

    /// Puts `a` (the open tail, or a block when `commit`) after the committed blocks of
    /// `snap`, which holds no tail ([`restore`](Self::restore) first). A committed
    /// block stays: later calls keep it.
    pub(super) fn add(&mut self, snap: &mut Answer, a: &Answer, options: &Options, commit: bool) {
        debug_assert!(self.tail.added == 0 && self.tail.touched.is_empty());
        let off = self.text_len;
        snap.text.push_str(&a.text);
        if options.show_citations {
            snap.citations.extend(a.citations.iter().map(|c| {
                let mut c = c.clone();
                c.start += off;
                c.end += off;
                c
            }));
        }
        snap.links.extend(a.links.iter().map(|l| {
            let mut l = l.clone();
            l.start += off;
            l.end += off;
            l
        }));
        for d in &a.diagnostics {
            let mut d = d.clone();
            if d.start.is_none() && d.end.is_none() {
                let key = (d.code.clone(), d.message.clone());
                if self.seen_plain.contains(&key) || !self.tail.seen_plain.insert(key) {
                    continue;
                }
            } else {
                d.start = d.start.map(|s| s + off);
                d.end = d.end.map(|s| s + off);
            }
            snap.diagnostics.push(d);
        }
        // Sources: footnote definitions are new, or merge into the one defined first.
        let committed = self.sources.len();
        let mut used_ids: Vec<usize> = Vec::new();
        let mut merged: Vec<usize> = Vec::new();
        for s in &a.sources {
            let i = match self.index.get(&s.id) {
                Some(&i) => {
                    if self.sources[i].kind == "footnote" {
                        if i < committed && !self.tail.backups.iter().any(|(b, _)| *b == i) {
                            self.tail.backups.push((i, self.sources[i].clone()));
                            merged.push(i);
                        }
                        merge_source(&mut self.sources[i], s.clone());
                    }
                    i
                }
                None => {
                    let mut s = s.clone();
                    s.cited = false;
                    s.cite_count = 0;
                    let i = self.sources.len();
                    self.index.insert(s.id.clone(), i);
                    self.sources.push(s);
                    self.tail.added += 1;
                    i
                }
            };
            if s.used {
                used_ids.push(i);
            }
        }
        let n = self.sources.len();
        self.tail_count.resize(n, 0);
        self.tail_used.resize(n, false);
        // Pending footnote keys: the new citations', and (when the tail defines
        // footnotes) the committed ones still waiting.
        for c in &mut snap.citations[self.cit_len..] {
            resolve_footnotes(&mut c.sources, &mut c.pending, &self.index);
        }
        if self.tail.added > 0 {
            for p in &self.pend {
                let (mut s, mut k) = (p.sources.clone(), p.pending.clone());
                resolve_footnotes(&mut s, &mut k, &self.index);
                let c = &mut snap.citations[p.at];
                if c.sources != s || c.pending != k {
                    c.sources = s;
                    c.pending = k;
                    self.tail.gained = true;
                }
            }
        }
        for &i in &used_ids {
            if !self.tail_used[i] {
                self.tail_used[i] = true;
                if self.tail_count[i] == 0 {
                    self.tail.touched.push(i);
                }
            }
        }
        let numbering = options.numbering;
        if self.tail.gained {
            self.recount_all(snap, numbering);
        } else {
            for c in &snap.citations[self.cit_len..] {
                for id in &c.sources {
                    if let Some(&i) = self.index.get(id) {
                        let before = if i < committed { self.count[i] } else { 0 };
                        if self.tail_count[i] == 0 {
                            if !self.tail_used[i] {
                                self.tail.touched.push(i);
                            }
                            if before == 0 {
                                self.tail.first.push(i);
                            }
                        }
                        self.tail_count[i] += 1;
                    }
                }
            }
            let reorder = self.tail.added > 0
                || (numbering == Numbering::FirstCited && !self.tail.first.is_empty());
            if reorder {
                let mut first = self.first.clone();
                first.extend_from_slice(&self.tail.first);
                let number = self.numbers(&first, numbering);
                self.place(snap, &number, &|j, i| j.live_count(i), &|j, i| {
                    j.live_used(i)
                });
                self.tail.reordered = true;
                for &i in &merged {
                    self.write_source(snap, i, number[i], self.live_count(i), self.live_used(i));
                }
            } else {
                for &i in &self.tail.touched {
                    let (c, u) = (self.live_count(i), self.live_used(i));
                    let s = &mut snap.sources[self.pos[i]];
                    s.cite_count = c;
                    s.cited = c > 0;
                    s.used = u;
                }
                for &i in &merged {
                    self.write_source(
                        snap,
                        i,
                        self.number[i],
                        self.live_count(i),
                        self.live_used(i),
                    );
                }
            }
        }
        if commit {
            self.freeze(snap, a, numbering);
        }
    }

    fn live_count(&self, i: usize) -> u32 {
        if let Some(c) = &self.tail.all_counts {
            return c[i];
        }
        self.count.get(i).copied().unwrap_or(0) + self.tail_count[i]
    }

    fn live_used(&self, i: usize) -> bool {
        self.used_flag.get(i).copied().unwrap_or(false) || self.sources[i].used || self.tail_used[i]
    }

    /// Counts and numbers from every citation of the snapshot (a tail turned pending
    /// committed citations live: the order of first citation changed inside).
    fn recount_all(&mut self, snap: &mut Answer, numbering: Numbering) {
        let n = self.sources.len();
        let mut counts = vec![0u32; n];
        let mut first = Vec::new();
        for c in &snap.citations {
            for id in &c.sources {
                if let Some(&i) = self.index.get(id) {
                    if counts[i] == 0 {
                        first.push(i);
                    }
                    counts[i] += 1;
                }
            }
        }
        let number = self.numbers(&first, numbering);
        self.tail.all_counts = Some(counts);
        self.tail.all_first = Some(first);
        // Every source is written again below; the old content of merged ones too.
        self.tail.touched = (0..n).collect();
        self.place(snap, &number, &|j, i| j.live_count(i), &|j, i| {
            j.live_used(i)
        });
        let merged: Vec<usize> = self.tail.backups.iter().map(|(b, _)| *b).collect();
        for i in merged {
            self.write_source(snap, i, number[i], self.live_count(i), self.live_used(i));
        }
        self.tail.reordered = true;
    }

    /// Makes the block just added part of the committed snapshot.
    fn freeze(&mut self, snap: &Answer, a: &Answer, numbering: Numbering) {
        let n = self.sources.len();
        let committed = n - self.tail.added;
        self.count.resize(n, 0);
        self.used_flag.resize(n, false);
        // Live values become the committed ones.
        let changed: Vec<usize> = self
            .tail
            .touched
            .iter()
            .copied()
            .chain(committed..n)
            .chain(self.tail.backups.iter().map(|(i, _)| *i))
            .collect();
        for &i in &changed {
            self.used_flag[i] = self.live_used(i);
        }
        match &self.tail.all_counts {
            Some(all) => self.count.copy_from_slice(all),
            None => {
                for &i in &self.tail.touched {
                    self.count[i] += self.tail_count[i];
                }
            }
        }
        let tail = std::mem::take(&mut self.tail);
        for &i in &tail.touched {
            self.tail_count[i] = 0;
            self.tail_used[i] = false;
        }
        match tail.all_first {
            Some(f) => self.first = f,
            None => self.first.extend_from_slice(&tail.first),
        }
        if tail.reordered {
            self.number = self.numbers(&self.first, numbering);
        }
        self.seen_plain.extend(tail.seen_plain);
        // The committed citations still waiting for a footnote definition, as their
        // blocks gave them.
        let index = &self.index;
        self.pend.retain(|p| {
            let (mut s, mut k) = (p.sources.clone(), p.pending.clone());
            resolve_footnotes(&mut s, &mut k, index);
            has_footnote_key(&k)
        });
        if snap.citations.len() - self.cit_len == a.citations.len() {
            for (j, c) in a.citations.iter().enumerate() {
                let at = self.cit_len + j;
                if has_footnote_key(&snap.citations[at].pending) {
                    self.pend.push(Pend {
                        at,
                        sources: c.sources.clone(),
                        pending: c.pending.clone(),
                    });
                }
            }
        }
        self.text_len = snap.text.len();
        self.cit_len = snap.citations.len();
        self.links_len = snap.links.len();
        self.diag_len = snap.diagnostics.len();
    }
}
