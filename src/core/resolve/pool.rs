//! The deduplicated sources of an answer ([`SourcePool`]) and what resolution asks of
//! them ([`Pool`]): lookups by key, id, number and url; numbering; merging duplicates.

use crate::core::draft::DraftSource;
use crate::core::markers::SourceKey;
use crate::core::model::{Diagnostic, Severity, Source};
use crate::core::options::Numbering;
use crate::core::ordered_hash::OrderedHashMap;
use crate::core::untrusted_text::normalize_url;

/// A draft source as the pool takes it: named `source-{n}` when it has no id, with its
/// url normalized for finding duplicates.
pub(crate) fn to_pool(mut ds: DraftSource, n: usize) -> (DraftSource, Option<String>) {
    if ds.source.id.is_empty() {
        ds.source.id = format!("source-{n}");
    }
    let url_key = ds.source.url.as_deref().map(normalize_url);
    (ds, url_key)
}

/// The info that source `id` was merged into `kept` (the same id, or else the same
/// url `url`).
pub(crate) fn duplicate_source(id: &str, kept: &str, url: Option<&str>) -> Diagnostic {
    let why = if kept == id {
        format!("id `{id}`")
    } else {
        format!("url {}", url.unwrap_or(""))
    };
    Diagnostic::new(
        Severity::Info,
        "duplicate-source",
        format!("source `{id}` is the same as `{kept}` (same {why}); merged"),
    )
}

/// What resolution asks of the sources: a whole [`SourcePool`], or a block's
/// footnote definitions over a shared base ([`Overlay`](super::shared::Overlay)).
/// Sources are item indices.
pub(super) trait Pool {
    /// The source a key names.
    fn find(&self, key: &SourceKey) -> Option<usize>;
    /// The item a draft source went into.
    fn canon(&self, draft_index: usize) -> Option<usize>;
    /// Counts one citation of item `i`.
    fn cite(&mut self, i: usize);
    /// How many items are cited more than `limit` times.
    fn cited_over(&self, limit: usize) -> usize;
    /// Marks item `i` as used.
    fn set_used(&mut self, i: usize);
    /// Assigns display numbers; `order` lists item indices in citation order.
    fn number(&mut self, order: &[usize], numbering: Numbering);
    /// Item `i`'s id.
    fn id(&self, i: usize) -> &str;
    /// (identifier, url) of every source, in source order.
    fn identifier_pairs(&self) -> Vec<(&str, &str)>;
    /// The sources of the answer.
    fn take_sources(&mut self) -> Vec<Source>;
}

impl Pool for SourcePool {
    fn find(&self, key: &SourceKey) -> Option<usize> {
        SourcePool::find(self, key)
    }
    fn canon(&self, draft_index: usize) -> Option<usize> {
        self.canon.get(draft_index).copied()
    }
    fn cite(&mut self, i: usize) {
        self.items[i].source.cited = true;
        self.items[i].source.cite_count += 1;
    }
    fn cited_over(&self, limit: usize) -> usize {
        self.items
            .iter()
            .filter(|s| s.source.cite_count as usize > limit)
            .count()
    }
    fn set_used(&mut self, i: usize) {
        self.items[i].source.used = true;
    }
    fn number(&mut self, order: &[usize], numbering: Numbering) {
        SourcePool::number(self, order, numbering)
    }
    fn id(&self, i: usize) -> &str {
        &self.items[i].source.id
    }
    fn identifier_pairs(&self) -> Vec<(&str, &str)> {
        pairs_of(self.items.iter().map(|it| &it.source))
    }
    fn take_sources(&mut self) -> Vec<Source> {
        std::mem::take(&mut self.items)
            .into_iter()
            .map(|s| s.source)
            .collect()
    }
}

/// The (identifier, url) pairs of `sources` with a non-blank identifier.
pub(super) fn pairs_of<'a>(sources: impl Iterator<Item = &'a Source>) -> Vec<(&'a str, &'a str)> {
    sources
        .flat_map(|s| s.identifiers.iter())
        .filter(|(k, _)| !k.trim().is_empty())
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

#[derive(Debug, Clone, Default)]
pub(super) struct PoolItem {
    pub(super) source: Source,
    pub(super) keys: Vec<SourceKey>,
    pub(super) given_number: Option<u32>,
}

impl PoolItem {
    /// Merges a duplicate of this source into it: its fields where this one has none,
    /// its keys this one lacks, its number when this one has none. Returns the keys
    /// added and the number taken, for the lookups that index them.
    pub(super) fn absorb(
        &mut self,
        source: Source,
        keys: Vec<SourceKey>,
        given_number: Option<u32>,
    ) -> (Vec<SourceKey>, Option<u32>) {
        merge_source(&mut self.source, source);
        let mut added = Vec::new();
        for k in keys {
            if !self.keys.contains(&k) {
                self.keys.push(k.clone());
                added.push(k);
            }
        }
        let mut took = None;
        if self.given_number.is_none() {
            self.given_number = given_number;
            took = given_number;
        }
        (added, took)
    }
}

/// The deduplicated sources, with lookups by key and by draft index.
#[derive(Debug, Clone, Default)]
pub(super) struct SourcePool {
    pub(super) items: Vec<PoolItem>,
    /// Draft index → item index.
    pub(super) canon: Vec<usize>,
    pub(super) by_key: OrderedHashMap<SourceKey, usize>,
    /// Source id → item index, for keys no source claims.
    pub(super) by_id: OrderedHashMap<String, usize>,
    /// Number the input gave → item index, for keys no source claims.
    pub(super) by_number: OrderedHashMap<u32, usize>,
    /// Normalized url → item index.
    pub(super) by_url: OrderedHashMap<String, usize>,
}

impl SourcePool {
    pub(super) fn build(sources: Vec<DraftSource>, diags: &mut Vec<Diagnostic>) -> Self {
        let mut items: Vec<PoolItem> = Vec::with_capacity(sources.len());
        let mut canon = Vec::with_capacity(sources.len());
        let mut by_id: OrderedHashMap<String, usize> = OrderedHashMap::new();
        let mut by_url: OrderedHashMap<String, usize> = OrderedHashMap::new();
        for (n, ds) in sources.into_iter().enumerate() {
            let (
                DraftSource {
                    source,
                    keys,
                    given_number,
                },
                url_key,
            ) = to_pool(ds, n + 1);
            let hit = by_id
                .get(&source.id)
                .or_else(|| url_key.as_ref().and_then(|u| by_url.get(u)))
                .copied();
            match hit {
                Some(i) => {
                    diags.push(duplicate_source(
                        &source.id,
                        &items[i].source.id,
                        url_key.as_deref(),
                    ));
                    by_id.or_insert(source.id.clone(), i);
                    // The lookups are built from the items afterwards.
                    items[i].absorb(source, keys, given_number);
                    canon.push(i);
                }
                None => {
                    let i = items.len();
                    by_id.insert(source.id.clone(), i);
                    if let Some(u) = url_key {
                        by_url.insert(u, i);
                    }
                    items.push(PoolItem {
                        source,
                        keys,
                        given_number,
                    });
                    canon.push(i);
                }
            }
        }
        let mut by_key = OrderedHashMap::new();
        let mut by_number = OrderedHashMap::new();
        for (i, item) in items.iter().enumerate() {
            for k in &item.keys {
                by_key.or_insert(k.clone(), i);
            }
            if let Some(n) = item.given_number {
                by_number.or_insert(n, i);
            }
        }
        SourcePool {
            items,
            canon,
            by_key,
            by_id,
            by_number,
            by_url,
        }
    }

    /// The source a key names: the one that has the key, else (models mix marker
    /// syntaxes, so `[[S:4]]` turns up where the data numbers its sources `"1"`..`"5"`,
    /// and `[2]` where it keys them by name) the one whose id is the key's text, else
    /// for a number the one the input gave that number.
    pub(super) fn find(&self, key: &SourceKey) -> Option<usize> {
        if let Some(&i) = self.by_key.get(key) {
            return Some(i);
        }
        match key {
            SourceKey::Num(n) => self
                .by_id
                .get(&n.to_string())
                .or_else(|| u32::try_from(*n).ok().and_then(|n| self.by_number.get(&n)))
                .copied(),
            SourceKey::Name(name) => self.by_id.get(name).copied(),
        }
    }

    /// Assigns display numbers. `order` lists item indices in citation order.
    pub(super) fn number(&mut self, order: &[usize], numbering: Numbering) {
        let n = self.items.len();
        let mut numbers: Vec<u32> = vec![0; n];
        match numbering {
            Numbering::FirstCited => {
                let mut next = 1u32;
                for i in order.iter().copied().chain(0..n) {
                    if numbers[i] == 0 {
                        numbers[i] = next;
                        next += 1;
                    }
                }
            }
            Numbering::Given => {
                let mut taken = crate::core::ordered_hash::OrderedHashSet::new();
                for (i, item) in self.items.iter().enumerate() {
                    let given = item.given_number.or_else(|| {
                        item.keys.iter().find_map(|k| match k {
                            SourceKey::Num(n) => u32::try_from(*n).ok(),
                            _ => None,
                        })
                    });
                    if let Some(g) = given.filter(|g| *g > 0) {
                        if taken.insert(g) {
                            numbers[i] = g;
                        }
                    }
                }
                let mut next = taken.iter().max().copied().unwrap_or(0) + 1;
                for num in numbers.iter_mut() {
                    if *num == 0 {
                        *num = next;
                        next += 1;
                    }
                }
            }
        }
        for (item, num) in self.items.iter_mut().zip(numbers) {
            item.source.number = num;
        }
    }
}

/// Fills what `into` lacks from `from` (two records found to be one source: the first
/// one seen wins).
pub(crate) fn merge_source(into: &mut Source, from: Source) {
    into.merge(from, crate::core::model::MergeWins::Kept);
}
