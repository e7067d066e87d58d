//! JSON Pointers (RFC 6901) placed in the raw text of a JSON answer: the pointer's
//! tokens, and a walk over the JSON bytes that gives each value's byte range (from the
//! text itself, not from a parsed value, so positions are exact).

use crate::core::limits::MAX_JSON_DEPTH;
use crate::core::ordered_hash::OrderedHashMap;
use std::ops::Range;

/// What a JSON Pointer names inside the raw text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Pointed {
    /// Bytes of the value: inside the quotes for a string, the whole value otherwise.
    pub(super) range: Range<usize>,
    /// `None` for a string, else the type's name (`a number`).
    pub(super) not_string: Option<&'static str>,
}

/// The reference tokens of a JSON Pointer (`/a/b~1c` → `["a", "b/c"]`); `None` when
/// it is not a pointer (non-empty and not starting with `/`).
pub(super) fn parse_pointer(p: &str) -> Option<Vec<String>> {
    if p.is_empty() {
        return Some(Vec::new());
    }
    let rest = p.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

/// An array index token: digits without a leading zero.
pub(super) fn array_index(token: &str) -> Option<usize> {
    if token.is_empty()
        || !token.bytes().all(|b| b.is_ascii_digit())
        || (token.len() > 1 && token.starts_with('0'))
    {
        return None;
    }
    token.parse().ok()
}

/// Finds the value a pointer names inside raw JSON text, with its byte range (for
/// one lookup; [`JsonNode::parse`] once and [`JsonNode::pointer`] for many).
#[cfg(test)]
fn json_pointer(text: &str, tokens: &[String]) -> Option<Pointed> {
    JsonNode::parse(text)?.pointer(tokens)
}

/// A JSON value with the byte range of each part of it in the raw text, built from
/// the text itself (not from a parsed value) so positions are exact.
#[derive(Debug)]
pub(super) enum JsonNode {
    /// A string: the range inside the quotes.
    Str(Range<usize>),
    /// A number, boolean or null, with its type's name.
    Scalar(Range<usize>, &'static str),
    /// An array.
    Arr(Range<usize>, Vec<JsonNode>),
    /// An object: members in order, and key → first member with that key.
    Obj(Range<usize>, Vec<JsonNode>, OrderedHashMap<String, usize>),
}

impl JsonNode {
    /// The tree of `text` (which [`parse_json`] has accepted, so its depth is bounded);
    /// `None` when it is not JSON after all.
    pub(super) fn parse(text: &str) -> Option<JsonNode> {
        let mut w = JsonWalker {
            b: text.as_bytes(),
            pos: if text.starts_with('\u{feff}') { 3 } else { 0 },
            text,
        };
        w.value(0)
    }

    /// The value `tokens` name.
    pub(super) fn pointer(&self, tokens: &[String]) -> Option<Pointed> {
        let mut node = self;
        for t in tokens {
            node = match node {
                JsonNode::Obj(_, members, index) => members.get(*index.get(t.as_str())?)?,
                JsonNode::Arr(_, items) => items.get(array_index(t)?)?,
                _ => return None,
            };
        }
        Some(match node {
            JsonNode::Str(r) => Pointed {
                range: r.clone(),
                not_string: None,
            },
            JsonNode::Scalar(r, ty) => Pointed {
                range: r.clone(),
                not_string: Some(ty),
            },
            JsonNode::Arr(r, _) => Pointed {
                range: r.clone(),
                not_string: Some("an array"),
            },
            JsonNode::Obj(r, _, _) => Pointed {
                range: r.clone(),
                not_string: Some("an object"),
            },
        })
    }
}

/// A cursor over JSON bytes.
struct JsonWalker<'a> {
    b: &'a [u8],
    pos: usize,
    text: &'a str,
}

impl JsonWalker<'_> {
    /// One value and everything in it.
    fn value(&mut self, depth: usize) -> Option<JsonNode> {
        if depth > MAX_JSON_DEPTH {
            return None;
        }
        self.ws();
        let start = self.pos;
        match self.peek()? {
            b'"' => self.string().map(JsonNode::Str),
            b'{' => {
                self.pos += 1;
                let mut members = Vec::new();
                let mut index = OrderedHashMap::new();
                loop {
                    self.ws();
                    if self.peek()? == b'}' {
                        self.pos += 1;
                        break;
                    }
                    let key = self.string()?;
                    let key = decode_json_string(self.text.get(key)?);
                    self.ws();
                    if self.peek()? != b':' {
                        return None;
                    }
                    self.pos += 1;
                    let child = self.value(depth + 1)?;
                    index.or_insert(key, members.len());
                    members.push(child);
                    self.ws();
                    match self.peek()? {
                        b',' => self.pos += 1,
                        b'}' => {
                            self.pos += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
                Some(JsonNode::Obj(start..self.pos, members, index))
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.ws();
                    if self.peek()? == b']' {
                        self.pos += 1;
                        break;
                    }
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match self.peek()? {
                        b',' => self.pos += 1,
                        b']' => {
                            self.pos += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
                Some(JsonNode::Arr(start..self.pos, items))
            }
            first => {
                self.scalar()?;
                let ty = match first {
                    b't' | b'f' => "a boolean",
                    b'n' => "null",
                    _ => "a number",
                };
                Some(JsonNode::Scalar(start..self.pos, ty))
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// At a `"`: the range inside the quotes; the cursor moves past the closing quote.
    fn string(&mut self) -> Option<Range<usize>> {
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.pos + 1;
        let mut i = start;
        loop {
            match *self.b.get(i)? {
                b'\\' => i += 2,
                b'"' => {
                    self.pos = i + 1;
                    return Some(start..i);
                }
                _ => i += 1,
            }
        }
    }

    /// Skips a number or literal.
    fn scalar(&mut self) -> Option<()> {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if matches!(
                c,
                b',' | b'}' | b']' | b'[' | b'{' | b'"' | b':' | b' ' | b'\t' | b'\n' | b'\r'
            ) {
                break;
            }
            self.pos += 1;
        }
        (self.pos > start).then_some(())
    }
}

/// The text of a JSON string's raw content (escapes decoded; bad escapes kept as
/// written, lone surrogates as U+FFFD).
fn decode_json_string(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                let Ok(hi) = u32::from_str_radix(&hex, 16) else {
                    out.push_str("\\u");
                    out.push_str(&hex);
                    continue;
                };
                if (0xd800..0xdc00).contains(&hi) {
                    let rest = chars.as_str();
                    let lo = rest
                        .strip_prefix("\\u")
                        .and_then(|r| r.get(..4))
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .filter(|lo| (0xdc00..0xe000).contains(lo));
                    if let Some(lo) = lo {
                        chars = rest[6..].chars();
                        let c = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
                        out.push(char::from_u32(c).unwrap_or('\u{fffd}'));
                    } else {
                        out.push('\u{fffd}');
                    }
                } else {
                    out.push(char::from_u32(hi).unwrap_or('\u{fffd}'));
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ptr(text: &str, p: &str) -> Option<Pointed> {
        json_pointer(text, &parse_pointer(p)?)
    }

    fn slice<'a>(text: &'a str, p: &Pointed) -> &'a str {
        &text[p.range.clone()]
    }

    #[test]
    fn json_pointer_finds_string_values() {
        let t = r#"{"some": {"nested": {"field": "The CPU is 2.5x faster", "n": 3}},
  "list": ["a", {"x": "deep"}], "a/b": "slash", "m~n": "tilde", "_citations": []}"#;
        let p = ptr(t, "/some/nested/field").unwrap();
        assert_eq!(slice(t, &p), "The CPU is 2.5x faster");
        assert_eq!(p.not_string, None);
        assert_eq!(slice(t, &ptr(t, "/list/1/x").unwrap()), "deep");
        assert_eq!(slice(t, &ptr(t, "/list/0").unwrap()), "a");
        assert_eq!(slice(t, &ptr(t, "/a~1b").unwrap()), "slash");
        assert_eq!(slice(t, &ptr(t, "/m~0n").unwrap()), "tilde");
        let n = ptr(t, "/some/nested/n").unwrap();
        assert_eq!((slice(t, &n), n.not_string), ("3", Some("a number")));
        let o = ptr(t, "/some/nested").unwrap();
        assert!(slice(t, &o).starts_with('{') && slice(t, &o).ends_with('}'));
        assert_eq!(ptr(t, "/some/missing"), None);
        assert_eq!(ptr(t, "/list/2"), None);
        assert_eq!(ptr(t, "/list/01"), None);
        assert_eq!(ptr(t, "/list/-"), None);
        assert_eq!(ptr(t, "some/nested"), None);
        assert_eq!(ptr(t, "/some/nested/field/x"), None);
        assert_eq!(ptr(t, "").unwrap().range, 0..t.len());
    }

    #[test]
    fn json_pointer_handles_escapes_and_unicode() {
        let t = "{\"k\\\"ey\": \"v\", \"\\u00e9t\\u00e9\": \"été ☀\", \"😀\": \"x\\\"y\", \"\\ud83d\\ude00b\": 1}";
        assert_eq!(slice(t, &ptr(t, "/k\"ey").unwrap()), "v");
        assert_eq!(slice(t, &ptr(t, "/été").unwrap()), "été ☀");
        assert_eq!(slice(t, &ptr(t, "/😀").unwrap()), "x\\\"y");
        assert_eq!(slice(t, &ptr(t, "/😀b").unwrap()), "1");
        assert_eq!(decode_json_string("a\\nb\\u0041\\ud800x"), "a\nbA\u{fffd}x");
        assert_eq!(decode_json_string("trailing\\"), "trailing\\");
    }

    #[test]
    fn json_pointer_never_panics_on_broken_text() {
        for t in [
            "",
            "{",
            "{\"a\"",
            "{\"a\":",
            "[1,",
            "\"abc",
            "{\"a\":[}",
            "]]]",
        ] {
            let _ = json_pointer(t, &["a".to_string()]);
            let _ = json_pointer(t, &["0".to_string()]);
            let _ = json_pointer(t, &[]);
        }
    }
}
