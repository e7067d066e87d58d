//! Link syntax: a label, a destination, a title, an inline link's tail and a reference
//! definition, with backslash escapes and entities resolved.

use super::*;

/// Backslash escapes and entities resolved.
pub(in super::super) fn unescape(s: &str) -> Cow<'_, str> {
    if !s.contains(['\\', '&']) {
        return Cow::Borrowed(s);
    }
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let mut last = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if i + 1 < b.len() && b[i + 1].is_ascii_punctuation() => {
                out.push_str(&s[last..i]);
                out.push(b[i + 1] as char);
                i += 2;
                last = i;
            }
            b'&' => {
                if let Some((end, val)) = entity_at(s, i) {
                    out.push_str(&s[last..i]);
                    out.push_str(&val);
                    i = end;
                    last = i;
                } else {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    out.push_str(&s[last..]);
    Cow::Owned(out)
}

/// An entity or numeric character reference at `i` (`s[i] == '&'`): its end and value.
pub(super) fn entity_at(s: &str, i: usize) -> Option<(usize, Cow<'static, str>)> {
    let b = s.as_bytes();
    let mut j = i + 1;
    if b.get(j) == Some(&b'#') {
        j += 1;
        let hex = matches!(b.get(j), Some(b'x' | b'X'));
        if hex {
            j += 1;
        }
        let ds = j;
        let mut n: u32 = 0;
        while j < b.len() && j - ds < if hex { 6 } else { 7 } {
            let d = match (hex, b[j]) {
                (_, c @ b'0'..=b'9') => u32::from(c - b'0'),
                (true, c @ b'a'..=b'f') => u32::from(c - b'a' + 10),
                (true, c @ b'A'..=b'F') => u32::from(c - b'A' + 10),
                _ => break,
            };
            n = n * if hex { 16 } else { 10 } + d;
            j += 1;
        }
        if j == ds || b.get(j) != Some(&b';') {
            return None;
        }
        let c = if n == 0 {
            '\u{FFFD}'
        } else {
            char::from_u32(n).unwrap_or('\u{FFFD}')
        };
        return Some((j + 1, Cow::Owned(c.to_string())));
    }
    let ns = j;
    while j < b.len() && j - ns < 32 && b[j].is_ascii_alphanumeric() {
        j += 1;
    }
    if j == ns || b.get(j) != Some(&b';') {
        return None;
    }
    let v = super::super::entities::entity(&s[ns..j])?;
    Some((j + 1, Cow::Borrowed(v)))
}

/// A reference definition at the start of `v` (a paragraph's joined lines): label,
/// destination, title, and where it ends (after its last line's end).
pub(in super::super) fn ref_def(v: &str) -> Option<(String, String, String, usize)> {
    let b = v.as_bytes();
    let mut i = 0;
    while i < b.len() && i < 3 && b[i] == b' ' {
        i += 1;
    }
    if b.get(i) != Some(&b'[') {
        return None;
    }
    let le = link_label(v, i)?;
    let label = &v[i + 1..le - 1];
    if label.trim().is_empty() || b.get(le) != Some(&b':') {
        return None;
    }
    let mut j = skip_ws_nl(b, le + 1)?;
    let (dest, de) = link_dest(v, j)?;
    if de == j && !b[j..].starts_with(b"<>") {
        return None;
    }
    j = de;
    // The title: on this line or the next, after whitespace; else none.
    let before_title = j;
    let line_end_after = |p: usize| -> Option<usize> {
        let mut k = p;
        while k < b.len() && matches!(b[k], b' ' | b'\t') {
            k += 1;
        }
        match b.get(k) {
            None => Some(k),
            Some(b'\n') => Some(k + 1),
            _ => None,
        }
    };
    let ws = {
        let mut k = j;
        while k < b.len() && matches!(b[k], b' ' | b'\t' | b'\n') {
            k += 1;
        }
        k
    };
    if ws > j && b[j..ws].iter().filter(|&&c| c == b'\n').count() <= 1 {
        if let Some((title, te)) = link_title(v, ws) {
            if let Some(end) = line_end_after(te) {
                return Some((
                    label.to_string(),
                    unescape(dest).into_owned(),
                    unescape(title).into_owned(),
                    end,
                ));
            }
        }
    }
    let end = line_end_after(before_title)?;
    Some((
        label.to_string(),
        unescape(dest).into_owned(),
        String::new(),
        end,
    ))
}

/// A label holds something besides blanks.
pub(super) fn has_content(l: &str) -> bool {
    l.bytes().any(|c| !matches!(c, b' ' | b'\t' | b'\n'))
}

pub(super) fn skip_ws_nl(b: &[u8], mut j: usize) -> Option<usize> {
    let mut nl = 0;
    while j < b.len() && matches!(b[j], b' ' | b'\t' | b'\n') {
        if b[j] == b'\n' {
            nl += 1;
            if nl > 1 {
                return None;
            }
        }
        j += 1;
    }
    Some(j)
}

/// A link label `[...]` at `i`: the position after `]`. At most 999 characters, no
/// unescaped brackets inside.
pub(super) fn link_label(v: &str, i: usize) -> Option<usize> {
    let b = v.as_bytes();
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' if j + 1 < b.len() && b[j + 1].is_ascii_punctuation() => j += 2,
            b'[' => return None,
            b']' => {
                if j - i - 1 > 999 {
                    return None;
                }
                return Some(j + 1);
            }
            _ => j += 1,
        }
    }
    None
}

/// A link destination at `j`: its text (still escaped) and end.
pub(super) fn link_dest(v: &str, j: usize) -> Option<(&str, usize)> {
    let b = v.as_bytes();
    if b.get(j) == Some(&b'<') {
        let mut k = j + 1;
        while k < b.len() {
            match b[k] {
                b'\\' if k + 1 < b.len() && b[k + 1].is_ascii_punctuation() => k += 2,
                b'>' => return Some((&v[j + 1..k], k + 1)),
                b'<' | b'\n' => return None,
                _ => k += 1,
            }
        }
        return None;
    }
    let mut k = j;
    let mut depth = 0usize;
    while k < b.len() {
        match b[k] {
            b'\\' if k + 1 < b.len() && b[k + 1].is_ascii_punctuation() => k += 2,
            b'(' => {
                depth += 1;
                if depth > 32 {
                    return None;
                }
                k += 1;
            }
            b')' => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
                k += 1;
            }
            c if c <= b' ' || c == 0x7f => break,
            _ => k += 1,
        }
    }
    if depth != 0 {
        return None;
    }
    Some((&v[j..k], k))
}

/// A link title at `j`: its text (still escaped) and end.
pub(super) fn link_title(v: &str, j: usize) -> Option<(&str, usize)> {
    let b = v.as_bytes();
    let close = match b.get(j)? {
        b'"' => b'"',
        b'\'' => b'\'',
        b'(' => b')',
        _ => return None,
    };
    let mut k = j + 1;
    while k < b.len() {
        match b[k] {
            b'\\' if k + 1 < b.len() && b[k + 1].is_ascii_punctuation() => k += 2,
            c if c == close => return Some((&v[j + 1..k], k + 1)),
            b'(' if close == b')' => return None,
            b'\n' if b.get(k + 1) == Some(&b'\n') => return None,
            _ => k += 1,
        }
    }
    None
}

/// An inline link tail `(dest "title")` at `p` (`b[p] == b'('`): destination, title
/// (resolved) and the position after `)`.
pub(super) fn inline_tail(v: &str, p: usize) -> Option<(String, String, usize)> {
    let b = v.as_bytes();
    let mut j = skip_ws_nl(b, p + 1)?;
    if b.get(j) == Some(&b')') {
        return Some((String::new(), String::new(), j + 1));
    }
    let (dest, de) = link_dest(v, j)?;
    j = de;
    let k = skip_ws_nl(b, j)?;
    let mut title = String::new();
    if k > j {
        if let Some((t, te)) = link_title(v, k) {
            title = unescape(t).into_owned();
            // (A later line's leading blanks are the paragraph's, not the title's.)
            if crate::core::str_ops::memchr(b'\n', title.as_bytes()).is_some() {
                let mut kept = String::with_capacity(title.len());
                let mut line_start = false;
                for c in title.chars() {
                    if line_start && matches!(c, ' ' | '\t') {
                        continue;
                    }
                    line_start = c == '\n';
                    kept.push(c);
                }
                title = kept;
            }
            j = skip_ws_nl(b, te)?;
        } else {
            j = k;
        }
    }
    if b.get(j) != Some(&b')') {
        return None;
    }
    Some((unescape(dest).into_owned(), title, j + 1))
}
