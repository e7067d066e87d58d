//! Recognizers for each marker syntax, called at a candidate byte. Each looks at most a
//! few hundred bytes ahead (the private-use entity search is cached by the caller).

use super::{Grammar, MarkerKind, SourceKey, MAX_MARKER_NUMBER, MAX_RANGE_LEN};
use crate::core::commonmark::lines::is_label_byte;
use crate::core::commonmark::spans::read_attrs;

/// What a recognizer found at a position.
#[derive(Debug)]
pub(super) enum Found {
    /// Nothing marker-like.
    None,
    /// A marker ending at `end`.
    Marker {
        end: usize,
        kind: MarkerKind,
        keys: Vec<SourceKey>,
    },
    /// Marker-like text ending at `end` that is not a marker.
    Malformed { end: usize, why: &'static str },
}

/// Longest bracketed marker looked for.
const MAX_BRACKET: usize = 256;
/// Longest footnote label.
const MAX_LABEL: usize = 100;
/// Longest private-use entity (`\u{e200}...\u{e201}`).
pub(super) const MAX_ENTITY: usize = 64 * 1024;

/// A list of numbers as written in a marker: `1, 2-4`.
enum List {
    Ok(Vec<SourceKey>),
    Bad(&'static str),
    No,
}

/// Options of the list reader.
#[derive(Clone, Copy, Default)]
struct ListOpts {
    /// Full-width digits and separators (inside `【】` / `［］`).
    wide: bool,
    /// Each item may carry an `S:` prefix (sid markers).
    sid: bool,
    /// Whitespace alone separates items (`data-sids="1 3"`).
    space_sep: bool,
}

struct Reader<'a> {
    s: &'a str,
    i: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.i..).and_then(|r| r.chars().next())
    }
    fn bump(&mut self, c: char) {
        self.i += c.len_utf8();
    }
    fn eat(&mut self, f: impl Fn(char) -> bool) -> bool {
        match self.peek() {
            Some(c) if f(c) => {
                self.bump(c);
                true
            }
            _ => false,
        }
    }
    fn spaces(&mut self, wide: bool) -> bool {
        let mut any = false;
        while self.eat(|c| c == ' ' || c == '\t' || (wide && c == '\u{3000}')) {
            any = true;
        }
        any
    }
    /// Digits (ASCII, or full-width when `wide`); saturates instead of overflowing.
    fn number(&mut self, wide: bool) -> Option<u64> {
        let mut n: Option<u64> = None;
        while let Some(c) = self.peek() {
            let d = match c {
                '0'..='9' => c as u64 - '0' as u64,
                '０'..='９' if wide => c as u64 - '０' as u64,
                _ => break,
            };
            n = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(d));
            self.bump(c);
        }
        n
    }
    fn done(&self) -> bool {
        self.i >= self.s.len()
    }
}

fn is_dash(c: char, wide: bool) -> bool {
    matches!(c, '-' | '–' | '—') || (wide && matches!(c, '－' | '〜' | '～' | '~' | '‐' | '−'))
}

fn is_sep(c: char, wide: bool) -> bool {
    matches!(c, ',' | ';') || (wide && matches!(c, '，' | '、' | '；'))
}

/// Reads `1, 2-4` (ranges expanded, repeats dropped), checking the bounds.
fn read_list(s: &str, o: ListOpts) -> List {
    let mut r = Reader { s, i: 0 };
    let mut out: Vec<SourceKey> = Vec::with_capacity(1);
    let mut bad: Option<&'static str> = None;
    if o.space_sep || o.sid {
        r.spaces(o.wide);
    }
    loop {
        if o.sid && (r.eat(|c| c == 'S' || c == 's')) {
            if !r.eat(|c| c == ':') {
                return List::No;
            }
            r.spaces(o.wide);
        }
        let Some(a) = r.number(o.wide) else {
            return List::No;
        };
        let save = r.i;
        r.spaces(o.wide);
        let mut b = a;
        if r.eat(|c| is_dash(c, o.wide)) {
            r.spaces(o.wide);
            if o.sid && r.eat(|c| c == 'S' || c == 's') && !r.eat(|c| c == ':') {
                return List::No;
            }
            match r.number(o.wide) {
                Some(n) => b = n,
                None => return List::No,
            }
        } else {
            r.i = save;
        }
        if bad.is_none() {
            bad = check_range(a, b);
        }
        if bad.is_none() {
            for n in a..=b {
                let n = SourceKey::Num(n);
                if !out.contains(&n) {
                    if out.len() as u64 >= MAX_RANGE_LEN {
                        bad = Some("names more than 100 sources");
                        break;
                    }
                    out.push(n);
                }
            }
        }
        let spaced = r.spaces(o.wide);
        if r.done() {
            break;
        }
        if r.eat(|c| is_sep(c, o.wide)) {
            r.spaces(o.wide);
            if r.done() {
                return List::No;
            }
        } else if !(o.space_sep && spaced) {
            return List::No;
        }
    }
    match bad {
        Some(why) => List::Bad(why),
        None => List::Ok(out),
    }
}

fn check_range(a: u64, b: u64) -> Option<&'static str> {
    if a == 0 || b == 0 {
        Some("has the number 0, which names no source")
    } else if a > MAX_MARKER_NUMBER || b > MAX_MARKER_NUMBER {
        Some("has a number above 9999")
    } else if a > b {
        Some("has a reversed range")
    } else if b - a >= MAX_RANGE_LEN {
        Some("has a range longer than 100")
    } else {
        None
    }
}

fn from_list(l: List, end: usize, kind: MarkerKind) -> Found {
    match l {
        List::Ok(keys) => Found::Marker { end, kind, keys },
        List::Bad(why) => Found::Malformed { end, why },
        List::No => Found::None,
    }
}

fn strip_prefix_ci<'a>(s: &'a str, p: &str) -> Option<&'a str> {
    let head = s.get(..p.len())?;
    if head.eq_ignore_ascii_case(p) {
        s.get(p.len()..)
    } else {
        None
    }
}

/// Marker syntax starting with `[` at `i` (`text.as_bytes()[i] == b'['`), looking no
/// further than `end`.
pub(super) fn bracket(text: &str, i: usize, end: usize, g: &Grammar) -> Found {
    let b = text.as_bytes();
    let lim = end.min(i + MAX_BRACKET).min(b.len());
    if b.get(i + 1) == Some(&b'[') {
        if !(g.usage || g.sid || g.numeric || g.citation) {
            return Found::None;
        }
        let Some(j) = b
            .get(i + 2..lim)
            .and_then(|s| crate::core::str_ops::memchr(b']', s))
        else {
            return Found::None;
        };
        let j = i + 2 + j;
        if b.get(j + 1) != Some(&b']') {
            return Found::None;
        }
        if crate::core::str_ops::memchr2(b'[', b'\n', &b[i + 2..j]).is_some() {
            return Found::None;
        }
        let Some(content) = text.get(i + 2..j) else {
            return Found::None;
        };
        let end = j + 2;
        if g.citation {
            if let Some(found) = label(content, end) {
                return found;
            }
        }
        if g.usage {
            if let Some(rest) = strip_prefix_ci(content, "USAGE:") {
                let l = read_list(
                    rest,
                    ListOpts {
                        space_sep: true,
                        ..ListOpts::default()
                    },
                );
                return from_list(l, end, MarkerKind::Usage);
            }
        }
        if g.sid && content.starts_with(['S', 's']) && content[1..].starts_with(':') {
            let l = read_list(
                content,
                ListOpts {
                    sid: true,
                    ..ListOpts::default()
                },
            );
            return from_list(l, end, MarkerKind::Sid);
        }
        if g.numeric {
            return from_list(
                read_list(content, ListOpts::default()),
                end,
                MarkerKind::Numeric,
            );
        }
        return Found::None;
    }
    if g.footnotes && b.get(i + 1) == Some(&b'^') {
        let start = i + 2;
        let stop = end.min(start + MAX_LABEL + 1).min(b.len());
        let mut j = start;
        while j < stop && is_label_byte(b[j]) {
            j += 1;
        }
        if j > start && j < stop && b[j] == b']' {
            if let Some(label) = text.get(start..j) {
                return Found::Marker {
                    end: j + 1,
                    kind: MarkerKind::FootnoteRef,
                    keys: vec![SourceKey::Name(format!("^{label}"))],
                };
            }
        }
        return Found::None;
    }
    if !(g.sid || g.numeric || g.citation || g.doc) {
        return Found::None;
    }
    let Some(j) = b
        .get(i + 1..lim)
        .and_then(|s| crate::core::str_ops::memchr(b']', s))
    else {
        return Found::None;
    };
    let j = i + 1 + j;
    if j == i + 1 || crate::core::str_ops::memchr2(b'[', b'\n', &b[i + 1..j]).is_some() {
        return Found::None;
    }
    let Some(content) = text.get(i + 1..j) else {
        return Found::None;
    };
    let end = j + 1;
    if g.citation {
        if let Some(found) = label(content, end) {
            return found;
        }
    }
    if g.doc {
        if let Some(n) = strip_prefix_ci(content, "doc").and_then(crate::core::str_ops::uint) {
            return match check_range(n, n) {
                None => Found::Marker {
                    end,
                    kind: MarkerKind::Label,
                    keys: vec![SourceKey::Num(n)],
                },
                Some(why) => Found::Malformed { end, why },
            };
        }
    }
    if content.starts_with(['S', 's']) && content[1..].starts_with(':') {
        if !g.sid {
            return Found::None;
        }
        let l = read_list(
            content,
            ListOpts {
                sid: true,
                ..ListOpts::default()
            },
        );
        return from_list(l, end, MarkerKind::Sid);
    }
    if !g.numeric || !content.as_bytes()[0].is_ascii_digit() {
        return Found::None;
    }
    if let Some(h) = crate::core::str_ops::memchr(b'#', content.as_bytes()) {
        // `[1#suffix]`: one number, the suffix ignored.
        let num = &content[..h];
        if !num.bytes().all(|c| c.is_ascii_digit())
            || num.len() > 18
            || crate::core::str_ops::memchr3(b'`', b'<', b'>', &content.as_bytes()[h..]).is_some()
        {
            return Found::None;
        }
        let n: u64 = crate::core::str_ops::uint(num).unwrap_or(u64::MAX);
        return match check_range(n, n) {
            None => Found::Marker {
                end,
                kind: MarkerKind::Numeric,
                keys: vec![SourceKey::Num(n)],
            },
            Some(why) => Found::Malformed { end, why },
        };
    }
    from_list(
        read_list(content, ListOpts::default()),
        end,
        MarkerKind::Numeric,
    )
}

/// Whether a byte may be part of a citation label: what ids are made of (LlamaIndex's
/// UUIDs, `doc_3`, `turn0search1`, `file.pdf#p2`), nothing that is markdown or space.
fn is_label_id_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.' | b':' | b'#' | b'/' | b'@')
}

/// The inside of a citation label marker (`citation:3`, `citation:1, 2`,
/// `citation:node-id`, the prefix in any case) ending the marker at `end`: a number
/// names a `Num` key (bounded as numeric markers are), any other label a `Name` key.
/// `None` when `content` is no citation label (`citation:` with nothing, or a space
/// inside a label, stays text). Written over bytes, without a list grammar of its own:
/// it is in the npm package's first module (docs/size.md).
fn label(content: &str, end: usize) -> Option<Found> {
    let rest = strip_prefix_ci(content, "citation:")?;
    let mut keys: Vec<SourceKey> = Vec::new();
    for id in crate::core::str_ops::split(rest, ",") {
        let id = id.trim();
        if id.is_empty() || !id.bytes().all(is_label_id_byte) {
            return None;
        }
        let key = match crate::core::str_ops::uint(id) {
            Some(n) => match check_range(n, n) {
                None => SourceKey::Num(n),
                Some(why) => return Some(Found::Malformed { end, why }),
            },
            None => SourceKey::Name(id.to_string()),
        };
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    // At most 128 labels: a bracket is read up to 256 bytes.
    Some(Found::Marker {
        end,
        kind: MarkerKind::Label,
        keys,
    })
}

/// `【` (E3 80 90) and `］`'s opener `［` (EF BC BB).
pub(super) fn fullwidth(text: &str, i: usize, end: usize, g: &Grammar) -> Found {
    if !g.numeric {
        return Found::None;
    }
    let b = text.as_bytes();
    let close: [u8; 3] = match b.get(i..i + 3) {
        Some([0xe3, 0x80, 0x90]) => [0xe3, 0x80, 0x91], // 】
        Some([0xef, 0xbc, 0xbb]) => [0xef, 0xbc, 0xbd], // ］
        _ => return Found::None,
    };
    let lim = end.min(i + 3 + 128).min(b.len());
    let mut j = i + 3;
    loop {
        match b
            .get(j..lim)
            .and_then(|s| crate::core::str_ops::memchr(close[0], s))
        {
            Some(k) if b.get(j + k..j + k + 3) == Some(&close[..]) && j + k + 3 <= lim => {
                j += k;
                break;
            }
            Some(k) => j += k + 1,
            None => return Found::None,
        }
    }
    let Some(content) = text.get(i + 3..j) else {
        return Found::None;
    };
    let first = content.chars().next();
    if !first.is_some_and(|c| c.is_ascii_digit() || ('０'..='９').contains(&c)) {
        return Found::None;
    }
    from_list(
        read_list(
            content,
            ListOpts {
                wide: true,
                ..ListOpts::default()
            },
        ),
        j + 3,
        MarkerKind::Numeric,
    )
}

/// Whether an OpenAI field names a search result or file: `turn0search0`, `turn12news3`.
fn is_ref_id(s: &str) -> bool {
    let Some(rest) = s.strip_prefix("turn") else {
        return false;
    };
    let d1 = rest.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &rest[d1..];
    let letters = rest
        .bytes()
        .take_while(|c| c.is_ascii_alphabetic() || *c == b'_')
        .count();
    let rest = &rest[letters..];
    d1 > 0 && letters > 0 && !rest.is_empty() && rest.bytes().all(|c| c.is_ascii_digit())
}

/// An OpenAI private-use marker at `i` (lead byte 0xEE). `close` is where the next
/// `\u{e201}` at or after `i` is (found by the caller, which caches the search).
pub(super) fn private_use(
    text: &str,
    i: usize,
    md: bool,
    close: impl FnOnce(usize) -> Option<usize>,
) -> Found {
    let b = text.as_bytes();
    match b.get(i..i + 3) {
        Some([0xee, 0x88, 0x83]) => {
            return Found::Marker {
                end: i + 3,
                kind: MarkerKind::OpenaiSpanOpen,
                keys: Vec::new(),
            }
        }
        Some([0xee, 0x88, 0x84]) => {
            return Found::Marker {
                end: i + 3,
                kind: MarkerKind::OpenaiSpanClose,
                keys: Vec::new(),
            }
        }
        Some([0xee, 0x88, 0x80]) => {}
        _ => return Found::None,
    }
    let Some(j) = close(i + 3) else {
        return Found::None;
    };
    if j > i + 3 + MAX_ENTITY {
        return Found::None;
    }
    let Some(content) = text.get(i + 3..j) else {
        return Found::None;
    };
    // In markdown, an entity holding a backtick could end inside a code span.
    if crate::core::str_ops::has_char(content, '\u{e200}')
        || (md && crate::core::str_ops::has_char(content, '`'))
    {
        return Found::None;
    }
    let end = j + 3;
    let mut fields = crate::core::str_ops::split(content, "\u{e202}");
    let name = fields.next().unwrap_or("").trim();
    if name.is_empty()
        || name.len() > 64
        || !name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
    {
        return Found::None;
    }
    if name != "cite" && name != "filecite" {
        return Found::Marker {
            end,
            kind: MarkerKind::OpenaiOther {
                name: name.to_string(),
            },
            keys: Vec::new(),
        };
    }
    let fields: Vec<&str> = fields.map(str::trim).filter(|f| !f.is_empty()).collect();
    let mut locator = None;
    let mut ids: &[&str] = &fields;
    if fields.len() >= 2 {
        if let Some((last, head)) = fields.split_last() {
            if !is_ref_id(last) {
                locator = Some(last.to_string());
                ids = head;
            }
        }
    }
    let mut keys: Vec<SourceKey> = Vec::with_capacity(ids.len());
    for id in ids {
        let k = SourceKey::Name(id.to_string());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    Found::Marker {
        end,
        kind: MarkerKind::OpenaiCite { locator },
        keys,
    }
}

/// `<sup class="cite" data-sids="1,3">[S:1,3]</sup>` at `i` (`b[i] == b'<'`).
pub(super) fn sup(text: &str, i: usize, end: usize) -> Found {
    let b = text.as_bytes();
    let end = end.min(b.len());
    match b.get(i + 1..i + 4) {
        Some(n) if n.eq_ignore_ascii_case(b"sup") => {}
        _ => return Found::None,
    }
    match b.get(i + 4) {
        Some(c) if c.is_ascii_whitespace() || *c == b'>' => {}
        _ => return Found::None,
    }
    let mut is_cite = false;
    let mut sids: Option<std::ops::Range<usize>> = None;
    let Some((open_end, self_closing)) = read_attrs(b, i + 4, end.min(i + 1024), |a| {
        let name = &b[a.name.clone()];
        if name.eq_ignore_ascii_case(b"class") {
            if let Some(v) = a.value.clone().and_then(|v| text.get(v)) {
                is_cite |= v
                    .split_ascii_whitespace()
                    .any(|t| t.eq_ignore_ascii_case("cite"));
            }
        } else if name.eq_ignore_ascii_case(b"data-sids") {
            sids = a.value;
        }
    }) else {
        return Found::None;
    };
    if !is_cite || self_closing {
        return Found::None;
    }
    let lim = end.min(open_end + MAX_BRACKET);
    let Some(lt) = b
        .get(open_end..lim)
        .and_then(|s| crate::core::str_ops::memchr(b'<', s))
    else {
        return Found::None;
    };
    let lt = open_end + lt;
    match b.get(lt + 1..lt + 5) {
        Some(n) if n.eq_ignore_ascii_case(b"/sup") => {}
        _ => return Found::None,
    }
    let mut k = lt + 5;
    while k < end && b[k].is_ascii_whitespace() {
        k += 1;
    }
    if b.get(k) != Some(&b'>') || k >= end {
        return Found::None;
    }
    let close_end = k + 1;
    let list = match sids {
        Some(v) => {
            let v = text.get(v).unwrap_or("").trim();
            read_list(
                v,
                ListOpts {
                    sid: true,
                    space_sep: true,
                    ..ListOpts::default()
                },
            )
        }
        None => {
            let inner = text.get(open_end..lt).unwrap_or("").trim();
            let inner = inner.trim_start_matches('[').trim_end_matches(']');
            read_list(
                inner,
                ListOpts {
                    sid: true,
                    space_sep: true,
                    ..ListOpts::default()
                },
            )
        }
    };
    match list {
        List::No => Found::Malformed {
            end: close_end,
            why: "names no readable sid",
        },
        l => from_list(l, close_end, MarkerKind::HtmlSup),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(s: &str) -> Option<Vec<u64>> {
        match read_list(s, ListOpts::default()) {
            List::Ok(v) => Some(
                v.into_iter()
                    .map(|k| match k {
                        SourceKey::Num(n) => n,
                        SourceKey::Name(_) => 0,
                    })
                    .collect(),
            ),
            _ => None,
        }
    }

    #[test]
    fn lists() {
        assert_eq!(list("1"), Some(vec![1]));
        assert_eq!(list("1, 2"), Some(vec![1, 2]));
        assert_eq!(list("1,2"), Some(vec![1, 2]));
        assert_eq!(list("2-4"), Some(vec![2, 3, 4]));
        assert_eq!(list("2–4, 7"), Some(vec![2, 3, 4, 7]));
        assert_eq!(list("1, 1"), Some(vec![1]));
        assert_eq!(list("1,"), None);
        assert_eq!(list("a"), None);
        assert_eq!(list("1 2"), None);
        assert!(matches!(read_list("0", ListOpts::default()), List::Bad(_)));
        assert!(matches!(
            read_list("3-1", ListOpts::default()),
            List::Bad(_)
        ));
        assert!(matches!(
            read_list("1-500", ListOpts::default()),
            List::Bad(_)
        ));
        assert!(matches!(
            read_list("99999999999999999999999", ListOpts::default()),
            List::Bad(_)
        ));
    }

    #[test]
    fn ref_ids() {
        assert!(is_ref_id("turn0search0"));
        assert!(is_ref_id("turn12news3"));
        assert!(is_ref_id("turn0file1"));
        assert!(!is_ref_id("L8-L12"));
        assert!(!is_ref_id("turn0"));
        assert!(!is_ref_id("turnsearch0"));
    }
}
