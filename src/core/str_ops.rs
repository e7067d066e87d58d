//! String operations written once for the whole crate, in place of generic code that
//! would weigh on the wasm: byte and substring searches and splits (instead of the
//! `memchr` crate, whose searchers weigh about 6 KB, and of `str`'s two-way searcher),
//! one integer reader ([`uint`]) and one [`join`].
//!
//! One byte is looked for eight bytes at a time (the zero-byte test on a `u64`); the
//! needles searched for are short (two to nine bytes), so a substring search is its
//! first byte's search and a comparison.

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// Whether any byte of `x` is zero.
#[inline(always)]
fn has_zero(x: u64) -> bool {
    x.wrapping_sub(LO) & !x & HI != 0
}

/// The first position in `h` of a byte for which `hit` holds, skipping eight bytes at a
/// time while `chunk` says none of them can.
#[inline(always)]
fn scan(h: &[u8], chunk: impl Fn(u64) -> bool, hit: impl Fn(u8) -> bool) -> Option<usize> {
    let mut i = 0;
    while i + 8 <= h.len() {
        let mut w = [0; 8];
        w.copy_from_slice(&h[i..i + 8]);
        if chunk(u64::from_le_bytes(w)) {
            break;
        }
        i += 8;
    }
    h[i..].iter().position(|&b| hit(b)).map(|k| i + k)
}

/// The first `a` in `h`.
pub fn memchr(a: u8, h: &[u8]) -> Option<usize> {
    let x = LO * a as u64;
    scan(h, |w| has_zero(w ^ x), |b| b == a)
}

/// The first `a` or `b` in `h`.
pub fn memchr2(a: u8, b: u8, h: &[u8]) -> Option<usize> {
    let (x, y) = (LO * a as u64, LO * b as u64);
    scan(
        h,
        |w| has_zero(w ^ x) || has_zero(w ^ y),
        |c| c == a || c == b,
    )
}

/// The first `a`, `b` or `c` in `h`.
pub fn memchr3(a: u8, b: u8, c: u8, h: &[u8]) -> Option<usize> {
    let (x, y, z) = (LO * a as u64, LO * b as u64, LO * c as u64);
    scan(
        h,
        |w| has_zero(w ^ x) || has_zero(w ^ y) || has_zero(w ^ z),
        |d| d == a || d == b || d == c,
    )
}

/// The first occurrence of `needle` (not empty) in `h`. A needle of more than eight
/// bytes is searched in time linear in `h` whatever the two hold (Knuth-Morris-Pratt):
/// the scan by first byte would compare the needle again at each of them.
pub fn find(h: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.len() > 8 {
        return find_long(h, needle);
    }
    let (&first, rest) = needle.split_first()?;
    let mut i = 0;
    while i + needle.len() <= h.len() {
        let k = i + memchr(first, &h[i..h.len() - rest.len()])?;
        if h[k + 1..].starts_with(rest) {
            return Some(k);
        }
        i = k + 1;
    }
    None
}

/// Knuth-Morris-Pratt: `fail[i]` is the length of the longest proper border of
/// `needle[..=i]`, so a mismatch never steps back in `h`.
fn find_long(h: &[u8], needle: &[u8]) -> Option<usize> {
    let m = needle.len();
    let mut fail = vec![0usize; m];
    let mut k = 0;
    for i in 1..m {
        while k > 0 && needle[i] != needle[k] {
            k = fail[k - 1];
        }
        if needle[i] == needle[k] {
            k += 1;
        }
        fail[i] = k;
    }
    k = 0;
    for (i, &b) in h.iter().enumerate() {
        while k > 0 && b != needle[k] {
            k = fail[k - 1];
        }
        if b == needle[k] {
            k += 1;
            if k == m {
                return Some(i + 1 - m);
            }
        }
    }
    None
}

/// `h.find(n)`: the byte offset of the first `n` in `h` (0 for an empty `n`). The
/// string searches of the crate go through these instead of `str`'s, whose two-way
/// searcher (with the char searcher's) is about 3 KB of wasm.
pub fn find_str(h: &str, n: &str) -> Option<usize> {
    if n.is_empty() {
        return Some(0);
    }
    find(h.as_bytes(), n.as_bytes())
}

/// `h.rfind(n)` (`h.len()` for an empty `n`). Linear when the last `n` is near the end,
/// as where it is used; the needles are literals.
pub fn rfind_str(h: &str, n: &str) -> Option<usize> {
    if n.is_empty() {
        return Some(h.len());
    }
    rfind(h.as_bytes(), n.as_bytes())
}

/// `h.contains(n)`.
pub fn has(h: &str, n: &str) -> bool {
    find_str(h, n).is_some()
}

/// `s.parse::<u64>().ok()`: an optional `+` and ASCII digits, `None` past `u64::MAX`
/// (one reader for every integer of the crate: std's is one per type).
pub fn uint(s: &str) -> Option<u64> {
    let d = s.strip_prefix('+').unwrap_or(s);
    if d.is_empty() {
        return None;
    }
    d.bytes().try_fold(0u64, |n, b| {
        let v = b.wrapping_sub(b'0');
        (v < 10).then_some(())?;
        n.checked_mul(10)?.checked_add(u64::from(v))
    })
}

/// `s.parse::<T>().ok()` for an unsigned `T` narrower than `u64`.
pub fn uint_as<T: TryFrom<u64>>(s: &str) -> Option<T> {
    uint(s).and_then(|n| T::try_from(n).ok())
}

/// `parts.join(sep)`, one copy for every kind of parts (std's is generic over them and
/// weighs 0.9 KB of wasm each).
pub fn join(parts: &mut dyn Iterator<Item = &str>, sep: &str) -> String {
    let mut out = String::new();
    for (i, p) in parts.enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(p);
    }
    out
}

/// `h.contains(c)` (str's links its two-way searcher for a character beyond ASCII).
pub fn has_char(h: &str, c: char) -> bool {
    has(h, c.encode_utf8(&mut [0; 4]))
}

/// The offsets of the non-overlapping occurrences of `n` (not empty) in `h`, left to
/// right: `h.match_indices(n)`.
pub fn offsets<'a>(h: &'a str, n: &'a str) -> impl Iterator<Item = usize> + 'a {
    let mut at = 0;
    core::iter::from_fn(move || {
        if n.is_empty() {
            return None;
        }
        let i = at + find(&h.as_bytes()[at..], n.as_bytes())?;
        at = i + n.len();
        Some(i)
    })
}

/// `s.split(n)` for a non-empty `n` (a character's text, `","`, or a longer string).
pub fn split<'a>(s: &'a str, n: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    let mut rest = Some(s);
    core::iter::from_fn(move || {
        let r = rest?;
        match find(r.as_bytes(), n.as_bytes()) {
            Some(i) => {
                rest = Some(&r[i + n.len()..]);
                Some(&r[..i])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// The part of `s` before the first `n` (all of it without one): `s.split(n).next()`.
pub fn before<'a>(s: &'a str, n: &str) -> &'a str {
    find_str(s, n).map_or(s, |i| &s[..i])
}

/// `h.replace(from, to)` for a non-empty `from`.
pub fn replace(h: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(h.len());
    let mut last = 0;
    for i in offsets(h, from) {
        out.push_str(&h[last..i]);
        out.push_str(to);
        last = i + from.len();
    }
    out.push_str(&h[last..]);
    out
}

/// `h.split_once(n)`.
pub fn split_once<'a>(h: &'a str, n: &str) -> Option<(&'a str, &'a str)> {
    let i = find_str(h, n)?;
    Some((&h[..i], &h[i + n.len()..]))
}

/// The last occurrence of `needle` (not empty) in `h`.
pub fn rfind(h: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || needle.len() > h.len() {
        return None;
    }
    (0..=h.len() - needle.len())
        .rev()
        .find(|&k| h[k..].starts_with(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(h: &[u8], n: &[u8]) -> Option<usize> {
        h.windows(n.len()).position(|w| w == n)
    }

    #[test]
    fn searches_agree_with_a_naive_scan() {
        // Every position and length around the eight-byte chunks, hits at each place.
        let bytes = b"ab-\n]]>x<li -->\xe2\x80\x94\0\x80\xff";
        for len in 0..40 {
            for seed in 0..60u32 {
                let h: Vec<u8> = (0..len)
                    .map(|i| bytes[((i as u32 * 7 + seed * 13) % bytes.len() as u32) as usize])
                    .collect();
                for &a in bytes {
                    assert_eq!(memchr(a, &h), h.iter().position(|&c| c == a));
                    for &b in b"]\n" {
                        assert_eq!(memchr2(a, b, &h), h.iter().position(|&c| c == a || c == b));
                        assert_eq!(
                            memchr3(a, b, b'<', &h),
                            h.iter().position(|&c| c == a || c == b || c == b'<')
                        );
                    }
                }
                for n in [
                    &b"-->"[..],
                    b"\n\n",
                    b"]]>",
                    b"<li ",
                    b"]:",
                    b"x",
                    b"\x80\xff",
                ] {
                    assert_eq!(find(&h, n), naive(&h, n), "{h:?} {n:?}");
                    assert_eq!(
                        rfind(&h, n),
                        h.windows(n.len()).rposition(|w| w == n),
                        "{h:?} {n:?}"
                    );
                }
            }
        }
        assert_eq!(find(b"abc", b""), None);
        assert_eq!(rfind(b"abc", b""), None);
    }

    #[test]
    fn long_needles_agree_with_a_naive_scan() {
        // Periodic texts and needles, where the borders of the needle matter.
        for text in [
            "abababababcabababababababc",
            "aaaaaaaaaaaaaaaaaaaaaaaaab",
            "xyzxyzxyzxyzxyzxyzxy",
        ] {
            let h = text.as_bytes();
            for start in 0..h.len() {
                for end in start + 9..=h.len() {
                    let n = &h[start..end];
                    assert_eq!(find(h, n), naive(h, n), "{text} {n:?}");
                    let mut other = n.to_vec();
                    *other.last_mut().unwrap() ^= 1;
                    assert_eq!(find(h, &other), naive(h, &other), "{text} {other:?}");
                }
            }
        }
        // Linear whatever the input: 200,000 bytes of `a` with a needle of 10,000 `a`s
        // and a `b` (the first-byte scan would compare about 2e9 bytes).
        let h = vec![b'a'; 200_000];
        let mut n = vec![b'a'; 10_000];
        n.push(b'b');
        assert_eq!(find(&h, &n), None);
    }

    #[test]
    fn uint_reads_as_std_does() {
        for t in [
            "0",
            "7",
            "+7",
            "-7",
            "",
            "+",
            "18446744073709551615",
            "18446744073709551616",
            "00012",
            " 1",
            "1 ",
            "1_0",
            "١",
            "4294967295",
            "4294967296",
        ] {
            assert_eq!(uint(t), t.parse::<u64>().ok(), "{t:?}");
            assert_eq!(uint_as::<u32>(t), t.parse::<u32>().ok(), "{t:?}");
        }
    }

    #[test]
    fn string_searches_are_strs() {
        for (h, n) in [
            ("a, b, c", ", "),
            ("abc", ""),
            ("", "x"),
            ("é{label}é", "{label}"),
            ("aaa", "aa"),
            ("a\nb\n\nc\n", "\n"),
            ("\n", "\n"),
            ("x\u{e202}y\u{e202}", "\u{e202}"),
        ] {
            assert_eq!(find_str(h, n), h.find(n), "{h} {n}");
            assert_eq!(rfind_str(h, n), h.rfind(n), "{h} {n}");
            assert_eq!(has(h, n), h.contains(n));
            assert_eq!(split_once(h, n), h.split_once(n));
            if !n.is_empty() {
                assert_eq!(
                    split(h, n).collect::<Vec<_>>(),
                    h.split(n).collect::<Vec<_>>()
                );
                assert_eq!(before(h, n), h.split(n).next().unwrap());
                assert_eq!(
                    offsets(h, n).collect::<Vec<_>>(),
                    h.match_indices(n).map(|(i, _)| i).collect::<Vec<_>>()
                );
                assert_eq!(replace(h, n, "--"), h.replace(n, "--"));
            }
        }
    }
}
