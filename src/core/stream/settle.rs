//! What changed between two snapshots of one streamed answer ([`settle`]): the markers a
//! view patches in place when sources arrive or the stream finishes, instead of
//! rendering the answer again.

use crate::core::model::{Answer, Source};
use crate::core::ordered_hash::OrderedHashMap;

/// What changed between two snapshots of one streamed answer, for a view that settles
/// in place (patches the markers that changed) instead of rendering it all again.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Settle {
    /// Citations (same index before and after) whose marker shows differently: other
    /// sources, a source's number, title, domain or link changed, or pending turned live.
    pub markers: Vec<usize>,
    /// Whether a citation among those compared was dropped, added before another or
    /// its span changed: indices or span wrappers differ, not only markers.
    pub moved: bool,
    /// For each citation of the old snapshot, its index in the new one (same span).
    pub map: Vec<Option<usize>>,
}

impl Settle {
    /// Nothing to patch.
    pub fn is_empty(&self) -> bool {
        self.markers.is_empty() && !self.moved
    }
}

/// Compares the citations whose markers stand at or before byte `fixed` in `old` and
/// `new` (both sorted by end, as every [`Answer`] is); later ones are free to
/// change. Costs one pass over the citations and sources.
pub fn settle(old: &Answer, new: &Answer, fixed: usize) -> Settle {
    // What a marker shows of a source (its count may change without touching it).
    fn look(s: &Source) -> (u32, Option<&str>, Option<&str>, Option<&str>) {
        (
            s.number,
            s.title.as_deref(),
            s.domain.as_deref(),
            s.url.as_deref(),
        )
    }
    // Sources whose look changed. Most snapshots of a stream have the same sources in
    // the same order: then nothing is allocated.
    let same_sources = old.sources.len() == new.sources.len()
        && old
            .sources
            .iter()
            .zip(&new.sources)
            .all(|(a, b)| a.id == b.id && look(a) == look(b));
    let index = |a: &'_ Answer| -> OrderedHashMap<String, usize> {
        if same_sources {
            return OrderedHashMap::new();
        }
        a.sources
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.clone(), i))
            .collect()
    };
    let (before, now) = (index(old), index(new));
    let changed: Vec<bool> = if same_sources {
        Vec::new()
    } else {
        new.sources
            .iter()
            .map(|s| {
                before
                    .get(&s.id)
                    .is_none_or(|&i| look(&old.sources[i]) != look(s))
            })
            .collect()
    };
    let source_changed = |id: &String| !same_sources && now.get(id).is_none_or(|&k| changed[k]);
    // Old citation i and new citation j are one marker when they stand at the same place
    // (their spans may differ: a dropped marker before one widens its span); both lists
    // are sorted by end, so one merge pass pairs them.
    let mut map = vec![None; old.citations.len()];
    let mut j = 0;
    for (i, c) in old.citations.iter().enumerate() {
        while j < new.citations.len() && new.citations[j].end < c.end {
            j += 1;
        }
        if j < new.citations.len() && new.citations[j].end == c.end {
            map[i] = Some(j);
            j += 1;
        }
    }
    let upto = old.citations.partition_point(|c| c.end <= fixed);
    let mut out = Settle {
        moved: new.citations.partition_point(|c| c.end <= fixed) != upto,
        ..Settle::default()
    };
    for (i, c) in old.citations[..upto].iter().enumerate() {
        if map[i] != Some(i) || new.citations[i].start != c.start {
            out.moved = true;
            continue;
        }
        let n = &new.citations[i];
        if n.sources != c.sources || n.pending != c.pending || n.sources.iter().any(source_changed)
        {
            out.markers.push(i);
        }
    }
    out.map = map;
    out
}
