//! Byte searches: the few the scanners and renderers need, in place of the `memchr`
//! crate (whose searchers weigh about 6 KB of wasm). One byte is looked for eight bytes
//! at a time (the zero-byte test on a `u64`); the needles searched for are short (two
//! to nine bytes), so a substring search is its first byte's search and a comparison.

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

/// The first occurrence of `needle` (not empty) in `h`.
pub fn find(h: &[u8], needle: &[u8]) -> Option<usize> {
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
}
