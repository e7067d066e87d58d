//! A small hash map and set for the crate's lookups (sources by id, url, key or number;
//! counts per source; claim words), in place of `std::collections::HashMap`.
//!
//! Why: each `HashMap<K, V>` instantiation brings its own copy of hashbrown's table code
//! and std's SipHash; with a dozen key/value pairs that is about 22 KB of wasm. Here the
//! probing and growing are written once, over the keys' hashes (`probe`, `Slots::grow`);
//! only the key comparison is per type. Entries keep their insertion order, are never
//! removed, and the table is open addressing over `u32` entry numbers.
//!
//! The hash is not keyed (FxHash-style multiply-rotate over the key's bytes): the maps
//! hold at most `limits::MAX_SOURCES` sources or an answer's words, and a crafted set of
//! colliding keys costs time, not correctness.

use std::borrow::Borrow;

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// One step of a hash: `x` mixed into `h` (for a [`Key`] written elsewhere).
pub(crate) fn mix(h: u64, x: u64) -> u64 {
    (h.rotate_left(5) ^ x).wrapping_mul(SEED)
}

/// The hash of some bytes.
pub(crate) fn hash_bytes(b: &[u8]) -> u64 {
    let mut h = b.len() as u64;
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0; 8];
        w.copy_from_slice(c);
        h = mix(h, u64::from_le_bytes(w));
    }
    for &x in chunks.remainder() {
        h = mix(h, x as u64);
    }
    h
}

/// A key that can be hashed (its bytes or its number).
pub(crate) trait Key: Eq {
    fn hash(&self) -> u64;
}

impl Key for str {
    fn hash(&self) -> u64 {
        hash_bytes(self.as_bytes())
    }
}
impl Key for String {
    fn hash(&self) -> u64 {
        hash_bytes(self.as_bytes())
    }
}
impl Key for &str {
    fn hash(&self) -> u64 {
        hash_bytes(self.as_bytes())
    }
}
impl Key for u32 {
    fn hash(&self) -> u64 {
        mix(0, *self as u64)
    }
}
impl Key for u64 {
    fn hash(&self) -> u64 {
        mix(0, *self)
    }
}
impl Key for usize {
    fn hash(&self) -> u64 {
        mix(0, *self as u64)
    }
}
impl<A: Key, B: Key> Key for (A, B) {
    fn hash(&self) -> u64 {
        mix(self.0.hash(), self.1.hash())
    }
}

/// The open-addressing table: entry number + 1 per slot (0 is free), and each entry's
/// hash for growing. Not generic: every map shares this code.
#[derive(Debug, Clone, Default)]
struct Slots {
    slots: Vec<u32>,
    hashes: Vec<u64>,
}

impl Slots {
    /// The entry whose hash is `h` and for which `eq` holds, or the free slot where it
    /// would go.
    fn probe(&self, h: u64, eq: &mut dyn FnMut(usize) -> bool) -> Result<usize, usize> {
        let mask = self.slots.len().wrapping_sub(1);
        let mut i = (h >> 32) as usize & mask;
        loop {
            match self.slots[i] {
                0 => return Err(i),
                e => {
                    let e = e as usize - 1;
                    if self.hashes[e] == h && eq(e) {
                        return Ok(e);
                    }
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Makes room for one more entry (at most half the slots used).
    fn reserve_one(&mut self) {
        if (self.hashes.len() + 1) * 2 <= self.slots.len() {
            return;
        }
        let n = (self.slots.len() * 2).max(8);
        self.slots.clear();
        self.slots.resize(n, 0);
        for (e, &h) in self.hashes.iter().enumerate() {
            let mut i = (h >> 32) as usize & (n - 1);
            while self.slots[i] != 0 {
                i = (i + 1) & (n - 1);
            }
            self.slots[i] = e as u32 + 1;
        }
    }

    /// The slot that holds entry `e`.
    fn slot_of(&self, e: usize) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (self.hashes[e] >> 32) as usize & mask;
        while self.slots[i] as usize != e + 1 {
            i = (i + 1) & mask;
        }
        i
    }

    /// Takes entry `e` out of the table; the last entry takes its number (as the
    /// entries' `swap_remove` moves it).
    fn remove(&mut self, e: usize) {
        let mask = self.slots.len() - 1;
        // Backward-shift deletion: later slots of the run move up unless they sit at or
        // after their home slot.
        let mut i = self.slot_of(e);
        let mut j = i;
        loop {
            j = (j + 1) & mask;
            let Some(f) = (self.slots[j] as usize).checked_sub(1) else {
                break;
            };
            let home = (self.hashes[f] >> 32) as usize & mask;
            let stays = if i <= j {
                i < home && home <= j
            } else {
                i < home || home <= j
            };
            if !stays {
                self.slots[i] = self.slots[j];
                i = j;
            }
        }
        self.slots[i] = 0;
        let last = self.hashes.len() - 1;
        if e != last {
            let s = self.slot_of(last);
            self.slots[s] = e as u32 + 1;
        }
        self.hashes.swap_remove(e);
    }

    fn find(&self, h: u64, eq: &mut dyn FnMut(usize) -> bool) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        self.probe(h, eq).ok()
    }
}

/// A hash map whose entries keep their insertion order and are never removed.
#[derive(Debug, Clone)]
pub(crate) struct OrderedHashMap<K, V> {
    index: Slots,
    entries: Vec<(K, V)>,
}

impl<K, V> Default for OrderedHashMap<K, V> {
    fn default() -> Self {
        OrderedHashMap {
            index: Slots::default(),
            entries: Vec::new(),
        }
    }
}

impl<K: Key, V> OrderedHashMap<K, V> {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    fn position<Q: Key + ?Sized>(&self, k: &Q) -> Option<usize>
    where
        K: Borrow<Q>,
    {
        let entries = &self.entries;
        self.index
            .find(k.hash(), &mut |e| entries[e].0.borrow() == k)
    }

    pub(crate) fn get<Q: Key + ?Sized>(&self, k: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.position(k).map(|e| &self.entries[e].1)
    }

    pub(crate) fn get_mut<Q: Key + ?Sized>(&mut self, k: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.position(k).map(|e| &mut self.entries[e].1)
    }

    pub(crate) fn contains_key<Q: Key + ?Sized>(&self, k: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.position(k).is_some()
    }

    /// The value of `k`, made by `f` first if `k` has none.
    pub(crate) fn or_insert_with(&mut self, k: K, f: impl FnOnce() -> V) -> &mut V {
        self.index.reserve_one();
        let h = k.hash();
        let entries = &self.entries;
        let e = match self.index.probe(h, &mut |e| entries[e].0 == k) {
            Ok(e) => e,
            Err(slot) => {
                let e = self.entries.len();
                self.index.slots[slot] = e as u32 + 1;
                self.index.hashes.push(h);
                self.entries.push((k, f()));
                e
            }
        };
        &mut self.entries[e].1
    }

    /// The value of `k`, `v` first if `k` has none.
    pub(crate) fn or_insert(&mut self, k: K, v: V) -> &mut V {
        self.or_insert_with(k, || v)
    }

    /// Sets the value of `k`.
    pub(crate) fn insert(&mut self, k: K, v: V) {
        match self.position(&k) {
            Some(e) => self.entries[e].1 = v,
            None => {
                self.or_insert(k, v);
            }
        }
    }

    /// Takes `k` out; the last entry takes its place in the order.
    pub(crate) fn remove<Q: Key + ?Sized>(&mut self, k: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let e = self.position(k)?;
        self.index.remove(e);
        Some(self.entries.swap_remove(e).1)
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    // (Read only by the JSON answer view.)
    #[cfg_attr(not(feature = "answer-kinds"), allow(dead_code))]
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(crate) fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter().map(|(_, v)| v)
    }

    pub(crate) fn keys(&self) -> impl Iterator<Item = &K> {
        self.entries.iter().map(|(k, _)| k)
    }
}

/// Entries in insertion order.
impl<K, V> IntoIterator for OrderedHashMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

/// Equal when they hold the same entries, in any order.
impl<K: Key, V: PartialEq> PartialEq for OrderedHashMap<K, V> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self
                .entries
                .iter()
                .all(|(k, v)| other.get(k).is_some_and(|w| w == v))
    }
}

/// Later entries of a key replace earlier ones, as with `HashMap`.
impl<K: Key, V> FromIterator<(K, V)> for OrderedHashMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut m = OrderedHashMap::new();
        for (k, v) in iter {
            m.insert(k, v);
        }
        m
    }
}

impl<K: Key, V: Default> OrderedHashMap<K, V> {
    /// The value of `k`, the default first if `k` has none.
    pub(crate) fn or_default(&mut self, k: K) -> &mut V {
        self.or_insert_with(k, V::default)
    }
}

/// A hash set: a map to nothing.
#[derive(Debug, Clone)]
pub(crate) struct OrderedHashSet<K>(OrderedHashMap<K, ()>);

impl<K> Default for OrderedHashSet<K> {
    fn default() -> Self {
        OrderedHashSet(OrderedHashMap::default())
    }
}

impl<K: Key> OrderedHashSet<K> {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Adds `k`; whether it was not there yet.
    pub(crate) fn insert(&mut self, k: K) -> bool {
        let n = self.0.len();
        self.0.or_insert(k, ());
        self.0.len() > n
    }

    pub(crate) fn contains<Q: Key + ?Sized>(&self, k: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.0.contains_key(k)
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &K> {
        self.0.keys()
    }
}

impl<K> IntoIterator for OrderedHashSet<K> {
    type Item = K;
    type IntoIter = std::iter::Map<std::vec::IntoIter<(K, ())>, fn((K, ())) -> K>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.entries.into_iter().map(|(k, ())| k)
    }
}

impl<K: Key> Extend<K> for OrderedHashSet<K> {
    fn extend<I: IntoIterator<Item = K>>(&mut self, iter: I) {
        for k in iter {
            self.insert(k);
        }
    }
}

impl<K: Key> FromIterator<K> for OrderedHashSet<K> {
    fn from_iter<I: IntoIterator<Item = K>>(iter: I) -> Self {
        let mut s = OrderedHashSet::new();
        s.extend(iter);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn behaves_as_std_hash_map() {
        let mut ours: OrderedHashMap<String, usize> = OrderedHashMap::new();
        let mut std: HashMap<String, usize> = HashMap::new();
        let mut order = Vec::new();
        for i in 0..5000usize {
            let k = format!("k{}", (i * 7919) % 1777);
            if i % 3 == 0 {
                ours.insert(k.clone(), i);
                std.insert(k.clone(), i);
            } else {
                *ours.or_insert(k.clone(), 0) += 1;
                *std.entry(k.clone()).or_insert(0) += 1;
            }
            if !order.contains(&k) {
                order.push(k);
            }
        }
        assert_eq!(ours.len(), std.len());
        for (k, v) in &std {
            assert_eq!(ours.get(k.as_str()), Some(v));
            assert!(ours.contains_key(k));
        }
        assert_eq!(ours.get("absent"), None);
        assert_eq!(ours.keys().cloned().collect::<Vec<_>>(), order);

        // Removing keeps every other key findable (runs of the table shift back).
        let all: Vec<String> = std.keys().cloned().collect();
        for (n, k) in all.iter().enumerate() {
            if n % 3 != 1 {
                assert_eq!(ours.remove(k.as_str()), std.remove(k));
            }
        }
        assert_eq!(ours.remove("absent"), None);
        assert_eq!(ours.len(), std.len());
        for (k, v) in &std {
            assert_eq!(ours.get(k.as_str()), Some(v), "{k}");
        }
        for k in &all {
            assert_eq!(ours.contains_key(k), std.contains_key(k));
        }
        ours.insert("again".into(), 1);
        assert_eq!(ours.get("again"), Some(&1));
        assert!(ours == ours.clone());

        let mut nums: OrderedHashMap<u32, Vec<usize>> = OrderedHashMap::new();
        for i in 0..300usize {
            nums.or_default((i % 37) as u32).push(i);
        }
        assert_eq!(nums.len(), 37);
        assert_eq!(
            nums.get(&5).map(Vec::len),
            Some((0..300).filter(|i| i % 37 == 5).count())
        );

        let mut set: OrderedHashSet<usize> = OrderedHashSet::new();
        assert!(set.insert(4) && !set.insert(4) && set.insert(0));
        assert!(set.contains(&0) && !set.contains(&1));
        assert_eq!(set.iter().copied().collect::<Vec<_>>(), [4, 0]);
    }
}
