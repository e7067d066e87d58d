//! `TextMap`: a small map of strings to strings, sorted by key, for the few such maps of
//! the public API (a source's `identifiers`, the `labels` option).
//!
//! Why not `BTreeMap<String, String>`: its node code (insertion with splits, cloning and
//! dropping subtrees, the iterators) is about 5 KB of the npm package's wasm, for maps
//! that hold a handful of entries. This is a sorted list searched by bisection, with the
//! calls of a `BTreeMap` that citekit and its users make (`get`, `insert`, `iter`,
//! `extend`, `collect`, `from([...])`), the same iteration order and the same JSON
//! (an object, keys in sorted order).

use serde::{Deserialize, Serialize};
use std::fmt;

/// Strings by string key, sorted by key.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct TextMap(Vec<(String, String)>);

impl TextMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    fn at(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    /// The text of `key`.
    pub fn get(&self, key: &str) -> Option<&String> {
        self.at(key).ok().map(|i| &self.0[i].1)
    }

    /// Whether `key` has a text.
    pub fn contains_key(&self, key: &str) -> bool {
        self.at(key).is_ok()
    }

    /// Sets the text of `key`, returning the one it replaces.
    pub fn insert(&mut self, key: String, text: String) -> Option<String> {
        match self.at(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, text)),
            Err(i) => {
                self.0.insert(i, (key, text));
                None
            }
        }
    }

    /// Sets the text of `key` unless it has one (`entry(key).or_insert(text)`).
    pub fn insert_if_absent(&mut self, key: String, text: String) {
        if let Err(i) = self.at(&key) {
            self.0.insert(i, (key, text));
        }
    }

    /// Takes the text of `key` out.
    pub fn remove(&mut self, key: &str) -> Option<String> {
        self.at(key).ok().map(|i| self.0.remove(i).1)
    }

    /// The keys and their texts, by key.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &String)> {
        self.0.iter().map(|(k, t)| (k, t))
    }

    /// The keys, sorted.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }

    /// The texts, by key.
    pub fn values(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(_, t)| t)
    }

    /// How many keys have a text.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no key has a text.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl std::ops::Index<&str> for TextMap {
    type Output = String;
    /// The text of `key`; panics when it has none, as `BTreeMap`'s does.
    fn index(&self, key: &str) -> &String {
        self.get(key).expect("no entry found for key")
    }
}

impl fmt::Debug for TextMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Into<String>, T: Into<String>> Extend<(K, T)> for TextMap {
    fn extend<I: IntoIterator<Item = (K, T)>>(&mut self, iter: I) {
        for (k, t) in iter {
            self.insert(k.into(), t.into());
        }
    }
}

impl<K: Into<String>, T: Into<String>> FromIterator<(K, T)> for TextMap {
    fn from_iter<I: IntoIterator<Item = (K, T)>>(iter: I) -> Self {
        let mut m = TextMap::new();
        m.extend(iter);
        m
    }
}

impl<K: Into<String>, T: Into<String>, const N: usize> From<[(K, T); N]> for TextMap {
    fn from(pairs: [(K, T); N]) -> Self {
        pairs.into_iter().collect()
    }
}

/// From and to a `BTreeMap` (same keys, same order), so code that builds one for these
/// fields converts it with `.into()`.
impl From<std::collections::BTreeMap<String, String>> for TextMap {
    fn from(m: std::collections::BTreeMap<String, String>) -> Self {
        TextMap(m.into_iter().collect())
    }
}

impl From<TextMap> for std::collections::BTreeMap<String, String> {
    fn from(m: TextMap) -> Self {
        m.0.into_iter().collect()
    }
}

impl PartialEq<std::collections::BTreeMap<String, String>> for TextMap {
    fn eq(&self, other: &std::collections::BTreeMap<String, String>) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl IntoIterator for TextMap {
    type Item = (String, String);
    type IntoIter = std::vec::IntoIter<(String, String)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a TextMap {
    type Item = (&'a String, &'a String);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (String, String)>,
        fn(&'a (String, String)) -> (&'a String, &'a String),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, t)| (k, t))
    }
}

impl Serialize for TextMap {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for TextMap {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Texts;
        impl<'de> serde::de::Visitor<'de> for Texts {
            type Value = TextMap;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of strings")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<TextMap, A::Error> {
                let mut out = TextMap::new();
                while let Some((k, t)) = m.next_entry::<String, String>()? {
                    out.insert(k, t);
                }
                Ok(out)
            }
        }
        d.deserialize_map(Texts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn behaves_as_a_btree_map() {
        let ops = [
            ("b", "1"),
            ("a", "2"),
            ("c", "3"),
            ("a", "4"),
            ("", "5"),
            ("b", "6"),
            ("ä", "7"),
        ];
        let mut ours = TextMap::new();
        let mut theirs = BTreeMap::new();
        for (k, t) in ops {
            assert_eq!(
                ours.insert(k.into(), t.into()),
                theirs.insert(k.to_string(), t.to_string())
            );
            assert_eq!(ours.len(), theirs.len());
            assert!(ours.iter().eq(theirs.iter()));
        }
        for k in ["a", "b", "z", ""] {
            assert_eq!(ours.get(k), theirs.get(k));
            assert_eq!(ours.contains_key(k), theirs.contains_key(k));
        }
        ours.insert_if_absent("a".into(), "kept?".into());
        theirs.entry("a".to_string()).or_insert("kept?".to_string());
        ours.insert_if_absent("d".into(), "new".into());
        theirs.entry("d".to_string()).or_insert("new".to_string());
        assert!(ours.iter().eq(theirs.iter()));
        assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
        assert_eq!(
            serde_json::to_string(&ours).unwrap(),
            serde_json::to_string(&theirs).unwrap()
        );
        let back: TextMap = serde_json::from_str(r#"{"z": "1", "y": "2"}"#).unwrap();
        assert_eq!(back, TextMap::from([("y", "2"), ("z", "1")]));
        assert!(serde_json::from_str::<TextMap>(r#"{"z": 1}"#).is_err());
        assert_eq!(ours, theirs);
        assert_eq!(TextMap::from(theirs.clone()), ours);
        assert_eq!(BTreeMap::from(ours.clone()), theirs);
        assert!(ours.keys().eq(theirs.keys()));
        assert!(ours.values().eq(theirs.values()));
        assert_eq!(ours.remove("b"), theirs.remove("b"));
        assert_eq!(ours.remove("nope"), theirs.remove("nope"));
        assert_eq!(ours, theirs);
        assert!(ours.clone().into_iter().eq(theirs.into_iter()));
    }
}
