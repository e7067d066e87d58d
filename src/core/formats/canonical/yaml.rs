//! The YAML subset citekit reads: enough to place JSON Pointers in a YAML answer and
//! to read a `_citations` sidecar written in YAML.

use super::{array_index, Pointed, MAX_JSON_DEPTH};
use crate::core::ordered_hash::OrderedHashMap;
use serde_json::{Map, Number, Value};
use std::ops::Range;

/// A node with the byte range of its value in the text.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Node {
    /// A scalar; `quoted` for quoted and block scalars (always strings).
    Scalar {
        value: String,
        range: Range<usize>,
        quoted: bool,
    },
    /// A block mapping; `index` maps a key to its first entry.
    Map {
        entries: Vec<(String, Node)>,
        index: OrderedHashMap<String, usize>,
        range: Range<usize>,
    },
    /// A block sequence or a one-line flow sequence.
    Seq {
        items: Vec<Node>,
        range: Range<usize>,
    },
}

impl Node {
    fn range(&self) -> Range<usize> {
        match self {
            Node::Scalar { range, .. } | Node::Map { range, .. } | Node::Seq { range, .. } => {
                range.clone()
            }
        }
    }

    /// The value of `key` in a mapping.
    pub(super) fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Map { entries, index, .. } => entries.get(*index.get(key)?).map(|e| &e.1),
            _ => None,
        }
    }

    /// The node a JSON Pointer names.
    pub(super) fn pointer(&self, tokens: &[String]) -> Option<Pointed> {
        let mut node = self;
        for t in tokens {
            node = match node {
                Node::Map { .. } => node.get(t)?,
                Node::Seq { items, .. } => items.get(array_index(t)?)?,
                Node::Scalar { .. } => return None,
            };
        }
        let not_string = match node {
            Node::Map { .. } => Some("an object"),
            Node::Seq { .. } => Some("an array"),
            Node::Scalar { .. } => match node.to_value() {
                Value::String(_) => None,
                Value::Null => Some("null"),
                Value::Bool(_) => Some("a boolean"),
                _ => Some("a number"),
            },
        };
        Some(Pointed {
            range: node.range(),
            not_string,
        })
    }

    /// The node as JSON (plain scalars typed as YAML 1.2's core schema does).
    pub(super) fn to_value(&self) -> Value {
        match self {
            Node::Scalar {
                value,
                quoted: true,
                ..
            } => Value::String(value.clone()),
            Node::Scalar { value, .. } => plain_value(value),
            Node::Map { entries, .. } => {
                let mut m = Map::new();
                for (k, v) in entries {
                    m.insert(k.clone(), v.to_value());
                }
                Value::Object(m)
            }
            Node::Seq { items, .. } => Value::Array(items.iter().map(Node::to_value).collect()),
        }
    }
}

/// A plain scalar's JSON value.
fn plain_value(s: &str) -> Value {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    let numeric = s
        .strip_prefix(['-', '+'])
        .unwrap_or(s)
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_digit() || b == b'.');
    if numeric {
        if let Ok(n) = s.parse::<i64>() {
            return Value::Number(n.into());
        }
        if let Some(n) = crate::core::json_reader::parse_f64(s).and_then(Number::from_f64) {
            return Value::Number(n);
        }
    }
    Value::String(s.to_string())
}

/// One line: `start..end` without the line break, `col` = bytes of indentation
/// (moved past `- ` when a sequence item holds a mapping).
#[derive(Debug, Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
    col: usize,
}

struct Parser<'a> {
    text: &'a str,
    lines: Vec<Line>,
    i: usize,
    problems: Vec<String>,
    /// Set on a problem that stops the structure from being read further.
    broken: bool,
}

/// Parses the first document of `text`; returns the root (if any) and the
/// unsupported constructs met, each with its line number.
pub(super) fn parse(text: &str) -> (Option<Node>, Vec<String>) {
    let mut lines = Vec::new();
    let mut start = 0;
    for piece in text.split_inclusive('\n') {
        let body = piece.trim_end_matches('\n').trim_end_matches('\r');
        let col = body.len() - body.trim_start_matches(' ').len();
        lines.push(Line {
            start,
            end: start + body.len(),
            col,
        });
        start += piece.len();
    }
    let mut p = Parser {
        text,
        lines,
        i: 0,
        problems: Vec::new(),
        broken: false,
    };
    p.skip_blank();
    while p.i < p.lines.len() {
        let c = p.content(p.i);
        if c.starts_with('%') {
            p.i += 1;
            p.skip_blank();
        } else {
            if c == "---" || c.starts_with("--- ") {
                p.i += 1;
            }
            break;
        }
    }
    let root = p.node(0, 0);
    p.skip_blank();
    if !p.broken && p.i < p.lines.len() {
        let c = p.content(p.i);
        if c == "---" || c == "..." || c.starts_with("--- ") {
            if p.lines[p.i + 1..]
                .iter()
                .any(|l| !p.text[l.start + l.col..l.end].trim().is_empty())
            {
                let n = p.i + 1;
                p.problem(n, "only the first document is read");
            }
        } else {
            let n = p.i + 1;
            p.problem(n, "unexpected indentation");
        }
    }
    (root, p.problems)
}

impl<'a> Parser<'a> {
    fn content(&self, i: usize) -> &'a str {
        let l = self.lines[i];
        self.text.get(l.start + l.col..l.end).unwrap_or("")
    }

    fn is_blank(&self, i: usize) -> bool {
        let c = self.content(i).trim_start();
        c.is_empty() || c.starts_with('#')
    }

    fn skip_blank(&mut self) {
        while self.i < self.lines.len() && self.is_blank(self.i) {
            self.i += 1;
        }
    }

    fn problem(&mut self, line: usize, what: &str) {
        self.problems.push(format!("line {line}: {what}"));
    }

    fn stop(&mut self, line: usize, what: &str) {
        self.problem(line, what);
        self.broken = true;
    }

    /// A block node at indentation `min` or more.
    fn node(&mut self, min: usize, depth: usize) -> Option<Node> {
        self.skip_blank();
        if self.broken || self.i >= self.lines.len() {
            return None;
        }
        let line = self.lines[self.i];
        if line.col < min {
            return None;
        }
        if depth > MAX_JSON_DEPTH {
            let n = self.i + 1;
            self.stop(n, "nested too deep");
            return None;
        }
        let c = self.content(self.i);
        if is_seq_item(c) {
            Some(self.seq(line.col, depth))
        } else if split_key(c).is_some() {
            Some(self.map(line.col, depth))
        } else {
            let abs = line.start + line.col;
            self.i += 1;
            Some(self.value(abs..line.end, line.col.saturating_sub(1), depth))
        }
    }

    fn map(&mut self, indent: usize, depth: usize) -> Node {
        let mut entries = Vec::new();
        let mut index = OrderedHashMap::new();
        let start = self.lines[self.i].start + indent;
        let mut end = start;
        loop {
            self.skip_blank();
            if self.broken || self.i >= self.lines.len() {
                break;
            }
            let line = self.lines[self.i];
            if line.col < indent {
                break;
            }
            if line.col > indent {
                let n = self.i + 1;
                self.stop(n, "unexpected indentation");
                break;
            }
            let c = self.content(self.i);
            let Some((key, rest)) = split_key(c) else {
                if !is_seq_item(c) {
                    let n = self.i + 1;
                    self.stop(n, "expected `key: value`");
                }
                break;
            };
            let abs = line.start + line.col;
            self.i += 1;
            let value = self.value(abs + rest..line.end, indent, depth + 1);
            end = end.max(value.range().end).max(abs + rest);
            index.or_insert(key.clone(), entries.len());
            entries.push((key, value));
        }
        Node::Map {
            entries,
            index,
            range: start..end,
        }
    }

    fn seq(&mut self, indent: usize, depth: usize) -> Node {
        let mut items = Vec::new();
        let start = self.lines[self.i].start + indent;
        let mut end = start;
        loop {
            self.skip_blank();
            if self.broken || self.i >= self.lines.len() {
                break;
            }
            let line = self.lines[self.i];
            let c = self.content(self.i);
            if line.col != indent || !is_seq_item(c) {
                if line.col > indent {
                    let n = self.i + 1;
                    self.stop(n, "unexpected indentation");
                }
                break;
            }
            let after = &c[1..];
            let pad = after.len() - after.trim_start_matches(' ').len();
            let rest = &after[pad..];
            let item = if rest.is_empty() || rest.starts_with('#') {
                self.i += 1;
                self.node(indent + 1, depth + 1)
                    .unwrap_or_else(|| empty(line.start + indent + 1))
            } else if is_seq_item(rest) || split_key(rest).is_some() {
                // `- key: v` / `- - x`: the item's block starts after the dash.
                self.lines[self.i].col = indent + 1 + pad;
                self.node(indent + 1 + pad, depth + 1)
                    .unwrap_or_else(|| empty(line.start + indent + 1))
            } else {
                self.i += 1;
                let abs = line.start + indent + 1 + pad;
                self.value(abs..line.end, indent, depth + 1)
            };
            end = end.max(item.range().end);
            items.push(item);
        }
        Node::Seq {
            items,
            range: start..end,
        }
    }

    /// The value after `key:` or `- ` (`span` = the rest of that line); the lines
    /// of a nested block are those indented more than `owner`.
    fn value(&mut self, span: Range<usize>, owner: usize, depth: usize) -> Node {
        let raw = self.text.get(span.clone()).unwrap_or("");
        let lead = raw.len() - raw.trim_start().len();
        let at = span.start + lead;
        let rest = raw.trim_start();
        let line_no = self.i; // the line just consumed, 1-based
        if rest.is_empty() || rest.starts_with('#') {
            self.skip_blank();
            if self.i < self.lines.len() {
                let next = self.lines[self.i];
                let c = self.content(self.i);
                if next.col > owner {
                    return self.node(owner + 1, depth).unwrap_or_else(|| empty(at));
                }
                if next.col == owner && is_seq_item(c) {
                    return self.seq(owner, depth);
                }
            }
            return empty(at);
        }
        match rest.as_bytes()[0] {
            b'|' | b'>' => self.block_scalar(rest, at, owner),
            b'"' => match double_quoted(rest) {
                Some((value, len)) => Node::Scalar {
                    value,
                    range: at + 1..at + 1 + len,
                    quoted: true,
                },
                None => {
                    self.stop(line_no, "a quoted scalar over several lines");
                    plain(rest, at)
                }
            },
            b'\'' => match single_quoted(rest) {
                Some((value, len)) => Node::Scalar {
                    value,
                    range: at + 1..at + 1 + len,
                    quoted: true,
                },
                None => {
                    self.stop(line_no, "a quoted scalar over several lines");
                    plain(rest, at)
                }
            },
            b'[' => match flow_seq(rest, at) {
                Some(node) => node,
                None => {
                    self.problem(line_no, "a flow sequence citekit cannot read");
                    plain(rest, at)
                }
            },
            b'{' => {
                self.problem(line_no, "flow mappings are not supported");
                plain(rest, at)
            }
            b'&' | b'*' | b'!' => {
                self.problem(line_no, "anchors, aliases and tags are not supported");
                plain(rest, at)
            }
            _ => {
                let mut node = plain(rest, at);
                // Continuation lines of a multi-line plain scalar.
                while self.i < self.lines.len()
                    && !self.is_blank(self.i)
                    && self.lines[self.i].col > owner
                {
                    let c = self.content(self.i);
                    if split_key(c).is_some() || is_seq_item(c) {
                        break;
                    }
                    let l = self.lines[self.i];
                    if let Node::Scalar { value, range, .. } = &mut node {
                        let piece = strip_comment(c).trim_end();
                        value.push(' ');
                        value.push_str(piece);
                        range.end = l.start + l.col + piece.len();
                    }
                    self.i += 1;
                }
                node
            }
        }
    }

    /// `|` or `>` block scalar: the following lines indented more than `owner`.
    fn block_scalar(&mut self, header: &str, at: usize, owner: usize) -> Node {
        let folded = header.starts_with('>');
        let mut block_col = None;
        let mut first = None;
        let mut last_end = at + header.len();
        let mut lines: Vec<&'a str> = Vec::new();
        while self.i < self.lines.len() {
            let l = self.lines[self.i];
            let body = self.text.get(l.start..l.end).unwrap_or("");
            if body.trim().is_empty() {
                lines.push("");
                self.i += 1;
                continue;
            }
            let col = *block_col.get_or_insert(l.col);
            if l.col < col || l.col <= owner {
                break;
            }
            first.get_or_insert(l.start + col);
            last_end = l.end;
            lines.push(body.get(col..).unwrap_or(""));
            self.i += 1;
        }
        while lines.last() == Some(&"") {
            lines.pop();
        }
        let value = if folded {
            lines.join(" ")
        } else {
            let mut v = lines.join("\n");
            v.push('\n');
            v
        };
        let start = first.unwrap_or(last_end);
        Node::Scalar {
            value,
            range: start..last_end.max(start),
            quoted: true,
        }
    }
}

fn empty(at: usize) -> Node {
    Node::Scalar {
        value: String::new(),
        range: at..at,
        quoted: false,
    }
}

/// A plain scalar starting at byte `at`; a ` #` comment ends it.
fn plain(rest: &str, at: usize) -> Node {
    let v = strip_comment(rest).trim_end();
    Node::Scalar {
        value: v.to_string(),
        range: at..at + v.len(),
        quoted: false,
    }
}

fn strip_comment(s: &str) -> &str {
    match s.find(" #") {
        Some(i) => &s[..i],
        None => s,
    }
}

fn is_seq_item(c: &str) -> bool {
    c == "-" || c.starts_with("- ")
}

/// `key: rest` → the key and the byte offset (in `c`) of what follows the colon.
fn split_key(c: &str) -> Option<(String, usize)> {
    if is_seq_item(c) || c.starts_with('#') {
        return None;
    }
    let (key, after) = match c.as_bytes().first()? {
        b'"' => {
            let (k, len) = double_quoted(c)?;
            (k, len + 2)
        }
        b'\'' => {
            let (k, len) = single_quoted(c)?;
            (k, len + 2)
        }
        b'[' | b'{' | b'&' | b'*' | b'!' | b'|' | b'>' | b'%' | b'@' | b'`' => return None,
        _ => {
            let bytes = c.as_bytes();
            let mut i = 0;
            loop {
                if i >= bytes.len() {
                    return None;
                }
                if bytes[i] == b'#' && i > 0 && bytes[i - 1] == b' ' {
                    return None;
                }
                if bytes[i] == b':' && matches!(bytes.get(i + 1), None | Some(b' ')) {
                    break;
                }
                i += 1;
            }
            (c[..i].trim_end().to_string(), i)
        }
    };
    let tail = &c[after..];
    let gap = tail.len() - tail.trim_start_matches(' ').len();
    let tail = &tail[gap..];
    if tail == ":" {
        return Some((key, c.len()));
    }
    if tail.starts_with(':') && tail.as_bytes().get(1) == Some(&b' ') {
        return Some((key, after + gap + 1));
    }
    None
}

/// `"..."` at the start of `s`: the decoded value and the byte length inside the
/// quotes; `None` when it does not close on this line.
fn double_quoted(s: &str) -> Option<(String, usize)> {
    let inner = s.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = inner.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, i)),
            '\\' => {
                let (_, e) = chars.next()?;
                match e {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    '0' => out.push('\0'),
                    '"' | '\\' | '/' | ' ' => out.push(e),
                    'x' | 'u' | 'U' => {
                        let n = match e {
                            'x' => 2,
                            'u' => 4,
                            _ => 8,
                        };
                        let hex: String = chars.by_ref().take(n).map(|p| p.1).collect();
                        let c = u32::from_str_radix(&hex, 16)
                            .ok()
                            .and_then(char::from_u32)
                            .unwrap_or('\u{fffd}');
                        out.push(c);
                    }
                    other => {
                        out.push('\\');
                        out.push(other);
                    }
                }
            }
            c => out.push(c),
        }
    }
    None
}

/// `'...'` at the start of `s` (`''` is a quote).
fn single_quoted(s: &str) -> Option<(String, usize)> {
    let inner = s.strip_prefix('\'')?;
    let mut out = String::new();
    let mut chars = inner.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\'' {
            if chars.peek().map(|p| p.1) == Some('\'') {
                chars.next();
                out.push('\'');
            } else {
                return Some((out, i));
            }
        } else {
            out.push(c);
        }
    }
    None
}

/// A one-line flow sequence of scalars, `[3, "a", b]`.
fn flow_seq(s: &str, at: usize) -> Option<Node> {
    let mut items = Vec::new();
    let mut i = 1;
    let b = s.as_bytes();
    loop {
        while b.get(i) == Some(&b' ') {
            i += 1;
        }
        match *b.get(i)? {
            b']' => break,
            b'[' | b'{' => return None,
            b'"' | b'\'' => {
                let q = &s[i..];
                let (value, len) = if b[i] == b'"' {
                    double_quoted(q)?
                } else {
                    single_quoted(q)?
                };
                items.push(Node::Scalar {
                    value,
                    range: at + i + 1..at + i + 1 + len,
                    quoted: true,
                });
                i += len + 2;
            }
            _ => {
                let end = s[i..].find([',', ']'])? + i;
                let v = s[i..end].trim_end();
                items.push(Node::Scalar {
                    value: v.to_string(),
                    range: at + i..at + i + v.len(),
                    quoted: false,
                });
                i = end;
            }
        }
        while b.get(i) == Some(&b' ') {
            i += 1;
        }
        match *b.get(i)? {
            b',' => i += 1,
            b']' => break,
            _ => return None,
        }
    }
    let tail = s[i + 1..].trim_start();
    if !(tail.is_empty() || tail.starts_with('#')) {
        return None;
    }
    Some(Node::Seq {
        items,
        range: at..at + i + 1,
    })
}

#[cfg(test)]
mod tests {
    use super::super::pointer::parse_pointer;
    use super::*;

    fn slice<'a>(text: &'a str, p: &Pointed) -> &'a str {
        &text[p.range.clone()]
    }

    #[test]
    fn yaml_subset_maps_lists_and_scalars() {
        let t = "# answer\n---\ntitle: Fast CPUs\nsome:\n  nested:\n    field: \"The CPU is 2.5x faster\"\n    other: 'it''s'\n  plain: just text # comment\nitems:\n- first\n-   second\n- name: x\n  value: y\n_citations:\n  - path: /some/nested/field\n    sids: [3, 5]\n  - path: \"/items/1\"\n    sids:\n      - 2\n";
        let (root, problems) = parse(t);
        assert!(problems.is_empty(), "{problems:?}");
        let root = root.unwrap();
        let at = |p: &str| root.pointer(&parse_pointer(p).unwrap()).unwrap();
        assert_eq!(
            slice(t, &at("/some/nested/field")),
            "The CPU is 2.5x faster"
        );
        assert_eq!(slice(t, &at("/some/nested/other")), "it''s");
        assert_eq!(slice(t, &at("/some/plain")), "just text");
        assert_eq!(slice(t, &at("/items/1")), "second");
        assert_eq!(slice(t, &at("/items/2/value")), "y");
        assert_eq!(at("/items/2").not_string, Some("an object"));
        let side = root.get("_citations").unwrap().to_value();
        assert_eq!(
            side,
            serde_json::json!([
                {"path": "/some/nested/field", "sids": [3, 5]},
                {"path": "/items/1", "sids": [2]}
            ])
        );
    }

    #[test]
    fn yaml_block_scalars_and_continuations() {
        let t = "summary: |\n  Line one.\n  Line two.\n\nnote: >\n  folded\n  text\nlong: a plain\n  scalar over lines\nn: 42\n";
        let (root, problems) = parse(t);
        assert!(problems.is_empty(), "{problems:?}");
        let root = root.unwrap();
        let at = |p: &str| root.pointer(&parse_pointer(p).unwrap()).unwrap();
        assert_eq!(slice(t, &at("/summary")), "Line one.\n  Line two.");
        assert_eq!(slice(t, &at("/note")), "folded\n  text");
        assert_eq!(slice(t, &at("/long")), "a plain\n  scalar over lines");
        assert_eq!(at("/n").not_string, Some("a number"));
        assert_eq!(
            root.to_value(),
            serde_json::json!({"summary": "Line one.\nLine two.\n", "note": "folded text",
                "long": "a plain scalar over lines", "n": 42})
        );
    }

    #[test]
    fn yaml_unsupported_is_reported_not_fatal() {
        let (root, problems) = parse("a: {x: 1}\nb: &anchor text\nc: ok\n");
        assert_eq!(problems.len(), 2, "{problems:?}");
        let root = root.unwrap();
        assert!(root.get("c").is_some());
        let (_, problems) = parse("a: 1\n   b: 2\n");
        assert_eq!(problems, vec!["line 2: unexpected indentation".to_string()]);
        let (_, problems) = parse("a: \"open\n  quote\"\n");
        assert_eq!(problems.len(), 1);
        for t in [
            "",
            "-",
            "- - - x",
            ":",
            "a:",
            "[",
            "a: [1, [2]]",
            "- a: 1\n  - b",
            "\"k\": v",
        ] {
            let _ = parse(t);
        }
    }
}
