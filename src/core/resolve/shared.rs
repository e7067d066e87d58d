//! Resolving the blocks of a streamed answer against one set of sources built once:
//! each block (and the open tail, on every chunk) brings only its footnote
//! definitions, laid over the shared base ([`Overlay`]), instead of copying and
//! deduplicating every source of the data again.
//!
//! An overlay answers every question exactly as a [`SourcePool`] built from the base's
//! sources followed by the block's definitions would: the same item indices (base
//! items first), the same merges and lookups, the same numbers for the sources it
//! hands back.

use super::{pairs_of, Pool, PoolItem, SourcePool};
use crate::core::draft::DraftSource;
use crate::core::markers::SourceKey;
use crate::core::model::{Diagnostic, Source};
use crate::core::options::Numbering;
use crate::core::ordered_hash::{OrderedHashMap, OrderedHashSet};

/// The sources of a stream's data, deduplicated once for all of its blocks.
#[derive(Debug, Clone, Default)]
pub(crate) struct BasePool {
    pool: SourcePool,
    drafts: Vec<DraftSource>,
    /// With numbers as given: the number each item takes (0 when it has none, or its
    /// number was taken by an earlier one), the numbers taken, the largest, and each
    /// numberless item's place among the numberless ones.
    given: Vec<u32>,
    taken: OrderedHashSet<u32>,
    max_taken: u32,
    zero_rank: Vec<u32>,
    zeros: u32,
    has_identifiers: bool,
}

/// The number a pool item says it was given: its own, or its first numeric key.
fn given_number(item: &PoolItem) -> Option<u32> {
    item.given_number
        .or_else(|| {
            item.keys.iter().find_map(|k| match k {
                SourceKey::Num(n) => u32::try_from(*n).ok(),
                _ => None,
            })
        })
        .filter(|g| *g > 0)
}

impl BasePool {
    /// Deduplicates `drafts` (their diagnostics are the base answer's, not repeated).
    pub(crate) fn new(drafts: Vec<DraftSource>) -> Self {
        let mut diags = Vec::new();
        let pool = SourcePool::build(drafts.clone(), &mut diags);
        let mut taken = OrderedHashSet::new();
        let mut given = Vec::with_capacity(pool.items.len());
        let mut zero_rank = Vec::with_capacity(pool.items.len());
        let mut zeros = 0;
        for item in &pool.items {
            match given_number(item).filter(|g| taken.insert(*g)) {
                Some(g) => {
                    given.push(g);
                    zero_rank.push(0);
                }
                None => {
                    given.push(0);
                    zero_rank.push(zeros);
                    zeros += 1;
                }
            }
        }
        let has_identifiers = cfg!(feature = "scintilla")
            && !pairs_of(pool.items.iter().map(|it| &it.source)).is_empty();
        BasePool {
            max_taken: taken.iter().max().copied().unwrap_or(0),
            pool,
            drafts,
            given,
            taken,
            zero_rank,
            zeros,
            has_identifiers,
        }
    }

    /// Draft sources it was built from.
    pub(crate) fn len(&self) -> usize {
        self.drafts.len()
    }

    /// The draft sources it was built from.
    pub(crate) fn drafts(&self) -> &[DraftSource] {
        &self.drafts
    }
}

/// Inserts `k → i` unless a lower index has `k` already (a pool's lookups find the
/// first item that has a key).
fn insert_min<K: crate::core::ordered_hash::Key>(
    map: &mut OrderedHashMap<K, usize>,
    k: K,
    i: usize,
) {
    let e = map.or_insert(k, i);
    *e = (*e).min(i);
}

fn min_of(a: Option<&usize>, b: Option<&usize>) -> Option<usize> {
    match (a, b) {
        (Some(&a), Some(&b)) => Some(a.min(b)),
        (a, b) => a.or(b).copied(),
    }
}

/// A block's sources: the base's items (those a definition merged into copied on
/// write), then the block's new ones.
pub(super) struct Overlay<'b> {
    base: &'b BasePool,
    /// Base items.
    n: usize,
    extra: Vec<PoolItem>,
    patched: OrderedHashMap<usize, PoolItem>,
    by_key: OrderedHashMap<SourceKey, usize>,
    by_id: OrderedHashMap<String, usize>,
    by_url: OrderedHashMap<String, usize>,
    by_number: OrderedHashMap<u32, usize>,
    /// Item of each of the block's draft sources.
    canon: Vec<usize>,
    counts: OrderedHashMap<usize, u32>,
    used: OrderedHashSet<usize>,
    numbers: OrderedHashMap<usize, u32>,
    /// A base item without a number took one (or a numeric key) from a definition:
    /// numbers as given are worked out over every item.
    renumber_base: bool,
}

impl<'b> Overlay<'b> {
    /// `base` with the block's sources `extra` (footnote definitions) merged in, as
    /// [`SourcePool::build`] does.
    pub(super) fn build(
        base: &'b BasePool,
        extra: Vec<DraftSource>,
        diags: &mut Vec<Diagnostic>,
    ) -> Self {
        let n = base.pool.items.len();
        let mut o = Overlay {
            base,
            n,
            extra: Vec::new(),
            patched: OrderedHashMap::new(),
            by_key: OrderedHashMap::new(),
            by_id: OrderedHashMap::new(),
            by_url: OrderedHashMap::new(),
            by_number: OrderedHashMap::new(),
            canon: Vec::new(),
            counts: OrderedHashMap::new(),
            used: OrderedHashSet::new(),
            numbers: OrderedHashMap::new(),
            renumber_base: false,
        };
        for (k, ds) in extra.into_iter().enumerate() {
            let (
                DraftSource {
                    source,
                    keys,
                    given_number,
                },
                url_key,
            ) = super::to_pool(ds, base.drafts.len() + k + 1);
            let hit = base
                .pool
                .by_id
                .get(&source.id)
                .or_else(|| o.by_id.get(&source.id))
                .or_else(|| {
                    url_key
                        .as_ref()
                        .and_then(|u| base.pool.by_url.get(u).or_else(|| o.by_url.get(u)))
                })
                .copied();
            match hit {
                Some(i) => {
                    let kept = o.item(i).source.id.clone();
                    diags.push(super::duplicate_source(
                        &source.id,
                        &kept,
                        url_key.as_deref(),
                    ));
                    if !base.pool.by_id.contains_key(&source.id) {
                        o.by_id.or_insert(source.id.clone(), i);
                    }
                    let n = o.n;
                    let item = o.item_mut(i);
                    let numberless = item.given_number.is_none();
                    let (new_keys, took) = item.absorb(source, keys, given_number);
                    if i < n && numberless && (took.is_some() || !new_keys.is_empty()) {
                        o.renumber_base = true;
                    }
                    for k in new_keys {
                        insert_min(&mut o.by_key, k, i);
                    }
                    if let Some(g) = took {
                        insert_min(&mut o.by_number, g, i);
                    }
                    o.canon.push(i);
                }
                None => {
                    let i = n + o.extra.len();
                    o.by_id.insert(source.id.clone(), i);
                    if let Some(u) = url_key {
                        o.by_url.insert(u, i);
                    }
                    for k in &keys {
                        insert_min(&mut o.by_key, k.clone(), i);
                    }
                    if let Some(g) = given_number {
                        insert_min(&mut o.by_number, g, i);
                    }
                    o.extra.push(PoolItem {
                        source,
                        keys,
                        given_number,
                    });
                    o.canon.push(i);
                }
            }
        }
        o
    }

    fn item(&self, i: usize) -> &PoolItem {
        if i < self.n {
            self.patched.get(&i).unwrap_or(&self.base.pool.items[i])
        } else {
            &self.extra[i - self.n]
        }
    }

    fn item_mut(&mut self, i: usize) -> &mut PoolItem {
        if i < self.n {
            let base = &self.base.pool.items[i];
            self.patched.or_insert_with(i, || base.clone())
        } else {
            &mut self.extra[i - self.n]
        }
    }

    /// Items the answer hands back: new, changed or used ones.
    fn handed_back(&self) -> Vec<usize> {
        let mut out: Vec<usize> = self.patched.keys().copied().collect();
        out.extend(
            self.used
                .iter()
                .copied()
                .filter(|i| *i < self.n && !self.patched.contains_key(i)),
        );
        out.extend(self.n..self.n + self.extra.len());
        out
    }
}

impl Pool for Overlay<'_> {
    fn find(&self, key: &SourceKey) -> Option<usize> {
        if let Some(i) = min_of(self.base.pool.by_key.get(key), self.by_key.get(key)) {
            return Some(i);
        }
        let by_id = |name: &str| {
            self.base
                .pool
                .by_id
                .get(name)
                .or_else(|| self.by_id.get(name))
                .copied()
        };
        match key {
            SourceKey::Num(n) => by_id(&n.to_string()).or_else(|| {
                let n = u32::try_from(*n).ok()?;
                min_of(self.base.pool.by_number.get(&n), self.by_number.get(&n))
            }),
            SourceKey::Name(name) => by_id(name),
        }
    }

    fn canon(&self, draft_index: usize) -> Option<usize> {
        match draft_index.checked_sub(self.base.drafts.len()) {
            None => self.base.pool.canon.get(draft_index).copied(),
            Some(k) => self.canon.get(k).copied(),
        }
    }

    fn cite(&mut self, i: usize) {
        *self.counts.or_insert(i, 0) += 1;
    }

    fn cited_over(&self, limit: usize) -> usize {
        self.counts
            .values()
            .filter(|&&c| c as usize > limit)
            .count()
    }

    fn set_used(&mut self, i: usize) {
        self.used.insert(i);
    }

    fn number(&mut self, order: &[usize], numbering: Numbering) {
        let wanted = self.handed_back();
        if wanted.is_empty() {
            return;
        }
        let total = self.n + self.extra.len();
        let mut numbers = OrderedHashMap::new();
        match numbering {
            Numbering::FirstCited => {
                // Cited items in order of first citation, then the others in order.
                let mut rank: OrderedHashMap<usize, u32> = OrderedHashMap::new();
                for &i in order {
                    let next = rank.len() as u32 + 1;
                    rank.or_insert(i, next);
                }
                let cited = rank.len() as u32;
                let mut cited_items: Vec<usize> = rank.keys().copied().collect();
                cited_items.sort_unstable();
                for i in wanted {
                    let num = match rank.get(&i) {
                        Some(&r) => r,
                        None => {
                            let before = cited_items.partition_point(|&c| c < i) as u32;
                            cited + 1 + i as u32 - before
                        }
                    };
                    numbers.insert(i, num);
                }
            }
            Numbering::Given if self.renumber_base => {
                let mut taken = OrderedHashSet::new();
                let mut all = vec![0u32; total];
                for (i, num) in all.iter_mut().enumerate() {
                    if let Some(g) = given_number(self.item(i)).filter(|g| taken.insert(*g)) {
                        *num = g;
                    }
                }
                let next = taken.iter().max().copied().unwrap_or(0) + 1;
                for (num, free) in all.iter_mut().filter(|n| **n == 0).zip(next..) {
                    *num = free;
                }
                for i in wanted {
                    numbers.insert(i, all[i]);
                }
            }
            Numbering::Given => {
                let mut taken_here = OrderedHashSet::new();
                let extra_given: Vec<u32> = self
                    .extra
                    .iter()
                    .map(|item| {
                        given_number(item)
                            .filter(|g| !self.base.taken.contains(g) && taken_here.insert(*g))
                            .unwrap_or(0)
                    })
                    .collect();
                let next = taken_here
                    .iter()
                    .copied()
                    .chain([self.base.max_taken])
                    .max()
                    .unwrap_or(0)
                    + 1;
                let mut extra_numbers = Vec::with_capacity(extra_given.len());
                let mut zero = next + self.base.zeros;
                for g in extra_given {
                    if g > 0 {
                        extra_numbers.push(g);
                    } else {
                        extra_numbers.push(zero);
                        zero += 1;
                    }
                }
                for i in wanted {
                    let num = if i < self.n {
                        match self.base.given[i] {
                            0 => next + self.base.zero_rank[i],
                            g => g,
                        }
                    } else {
                        extra_numbers[i - self.n]
                    };
                    numbers.insert(i, num);
                }
            }
        }
        self.numbers = numbers;
    }

    fn id(&self, i: usize) -> &str {
        &self.item(i).source.id
    }

    fn identifier_pairs(&self) -> Vec<(&str, &str)> {
        let changed = self
            .patched
            .values()
            .chain(&self.extra)
            .any(|it| !it.source.identifiers.is_empty());
        if !self.base.has_identifiers && !changed {
            return Vec::new();
        }
        pairs_of((0..self.n + self.extra.len()).map(|i| &self.item(i).source))
    }

    fn take_sources(&mut self) -> Vec<Source> {
        let wanted = self.handed_back();
        let mut out = Vec::with_capacity(wanted.len());
        for i in wanted {
            let mut s = self.item(i).source.clone();
            let c = self.counts.get(&i).copied().unwrap_or(0);
            s.cite_count = c;
            s.cited = c > 0;
            s.used |= self.used.contains(&i);
            s.number = self.numbers.get(&i).copied().unwrap_or(0);
            out.push(s);
        }
        out
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::core::draft::Draft;
    use crate::core::markers::Grammar;
    use crate::core::model::{Answer, Format};
    use crate::core::options::Options;
    use crate::core::resolve::{resolve_pending, resolve_pending_on};
    use proptest::prelude::*;

    fn source(
        id: &str,
        url: Option<&str>,
        keys: Vec<SourceKey>,
        given: Option<u32>,
    ) -> DraftSource {
        DraftSource {
            source: Source {
                id: id.into(),
                kind: "web".into(),
                title: Some(format!("Title {id}")),
                url: url.map(str::to_string),
                ..Source::default()
            },
            keys,
            given_number: given,
        }
    }

    /// Base sources with numbers, names without numbers (`x`, `y`), one the same as
    /// another by url, and one with an identifier.
    fn base(which: u8) -> Vec<DraftSource> {
        let mut v = vec![
            source(
                "1",
                Some("https://one.example/a"),
                vec![SourceKey::Num(1)],
                Some(1),
            ),
            source(
                "x",
                Some("https://x.example/"),
                vec![SourceKey::Name("x".into())],
                None,
            ),
            source("3", Some("docs/three.md"), vec![SourceKey::Num(3)], Some(3)),
            source("y", None, vec![SourceKey::Name("y".into())], None),
            source(
                "5",
                Some("https://one.example/a/"),
                vec![SourceKey::Num(5)],
                Some(5),
            ),
        ];
        v[2].source
            .identifiers
            .insert("MKT-7".into(), "https://jira.example/MKT-7".into());
        // Drop some, so that sometimes no base source has a number or an identifier.
        let mut k = 0;
        v.retain(|_| {
            k += 1;
            which & (1 << (k - 1)) == 0
        });
        v
    }

    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z]{1,5}".prop_map(|w| format!("{w} ")),
            (1u8..7).prop_map(|n| format!("[{n}]")),
            Just("[[S:3]]".to_string()),
            (1u8..4).prop_map(|n| format!("[^{n}]")),
            Just("[^x]".to_string()),
            Just("[^y]".to_string()),
            (1u8..4).prop_map(|n| format!("\n[^{n}]: https://f{n}.example/ Note {n}\n")),
            Just("\n[^x]: https://one.example/a same as one\n".to_string()),
            Just("\n[^y]: a note with no link\n".to_string()),
            Just("\n[^2]: https://x.example/ same as x\n".to_string()),
            Just("\n[^9]: see MKT-7 there\n".to_string()),
            Just("[[USAGE:3,y]]".to_string()),
            Just(" MKT-7 ".to_string()),
            Just(". ".to_string()),
        ]
    }

    fn both(text: &str, sources: &[DraftSource], opts: &Options) -> (Answer, Answer) {
        let mut d = Draft::new(Format::CitationMap, text);
        d.grammar = Some(Grammar::ALL);
        let mut full = d.clone();
        full.sources = sources.to_vec();
        let pool = BasePool::new(sources.to_vec());
        (
            resolve_pending(full, opts),
            resolve_pending_on(&pool, d, opts),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]
        /// Resolving over the shared base gives what resolving with a copy of every
        /// source gives: the same text, citations, links and diagnostics (but the
        /// base's own, which the stream has already), and each source it hands back
        /// exactly as the full answer has it, new ones in the same order.
        #[test]
        fn an_overlay_resolves_as_a_copy_of_every_source_would(
            pieces in proptest::collection::vec(piece(), 0..16),
            which in 0u8..32,
            given in proptest::bool::ANY,
            links in proptest::bool::ANY,
        ) {
            let text = pieces.concat();
            let sources = base(which);
            let opts = Options {
                numbering: if given { crate::core::options::Numbering::Given } else { crate::core::options::Numbering::FirstCited },
                link_identifiers: links,
                ..Options::default()
            };
            let (full, part) = both(&text, &sources, &opts);
            let (base_only, _) = both("", &sources, &opts);
            prop_assert_eq!(&part.text, &full.text);
            prop_assert_eq!(&part.citations, &full.citations);
            prop_assert_eq!(&part.links, &full.links);
            let own: Vec<_> = full
                .diagnostics
                .iter()
                .filter(|d| !base_only.diagnostics.contains(d))
                .collect();
            let part_diags: Vec<_> = part.diagnostics.iter().collect();
            prop_assert_eq!(part_diags, own);
            for s in &part.sources {
                prop_assert_eq!(Some(s), full.source(&s.id), "{}", s.id);
            }
            let base_ids: Vec<&str> = base_only.sources.iter().map(|s| s.id.as_str()).collect();
            let new_full: Vec<&str> = full.sources.iter().map(|s| s.id.as_str()).filter(|id| !base_ids.contains(id)).collect();
            let new_part: Vec<&str> = part.sources.iter().map(|s| s.id.as_str()).filter(|id| !base_ids.contains(id)).collect();
            prop_assert_eq!(new_part, new_full);
            for s in full.sources.iter().filter(|s| s.used) {
                prop_assert!(part.source(&s.id).is_some() || base_only.source(&s.id).is_some_and(|b| b.used), "{} used", s.id);
            }
        }
    }
}
