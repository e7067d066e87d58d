//! One sort for the whole crate.
//!
//! Every `sort_by_key` call with its own element type and closure gets its own copy of
//! the standard library's sort, 1.5 to 5 KB of wasm each (about 58 KB for 18 call sites).
//! Here each call site only computes keys; the sort itself runs on `(key, index)` pairs,
//! one instantiation shared by all.

/// A sort key: two numbers compared in order (the second breaks ties).
pub type Key = (u64, u64);

/// Sorts `v` by `key`, stably: elements with equal keys keep their order.
pub fn sort_by_key<T>(v: &mut Vec<T>, key: impl Fn(&T) -> Key) {
    if v.len() < 2 {
        return;
    }
    let mut order: Vec<(Key, usize)> = v.iter().enumerate().map(|(i, x)| (key(x), i)).collect();
    if order.is_sorted() {
        return;
    }
    sort_pairs(&mut order);
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(
        order
            .iter()
            .filter_map(|&(_, i)| slots.get_mut(i).and_then(Option::take)),
    );
}

/// The one sort. The pairs are unique (the index), so unstable is stable here.
#[inline(never)]
fn sort_pairs(order: &mut [(Key, usize)]) {
    order.sort_unstable();
}

/// A position as a key part.
pub fn pos(p: usize) -> u64 {
    p as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_stably() {
        let mut v = vec![(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')];
        sort_by_key(&mut v, |&(k, _)| (k, 0));
        assert_eq!(v, vec![(1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]);
    }

    #[test]
    fn second_part_breaks_ties() {
        let mut v = vec![(2, 9), (2, 1), (1, 5)];
        sort_by_key(&mut v, |&(a, b)| (a, b));
        assert_eq!(v, vec![(1, 5), (2, 1), (2, 9)]);
    }

    #[test]
    fn matches_std_on_many_inputs() {
        let mut seed = 7u64;
        for len in 0..60 {
            let mut v: Vec<(u64, usize)> = (0..len)
                .map(|i| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 59), i)
                })
                .collect();
            let mut want = v.clone();
            want.sort_by_key(|&(k, _)| k);
            sort_by_key(&mut v, |&(k, _)| (k, 0));
            assert_eq!(v, want);
        }
    }
}
