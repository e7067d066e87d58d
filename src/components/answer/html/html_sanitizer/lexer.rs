//! The tokenizer of HTML answers: tags, text, comments and raw-text elements read the
//! way a browser's tokenizer reads them (module docs of `html_sanitizer`).

use super::entities::decode_attr;
use std::ops::Range;

/// Elements whose content is raw text up to their end tag (not parsed as tags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Raw {
    /// Content dropped.
    Drop,
    /// Content shown as text, entities decoded (`textarea`).
    Decoded,
    /// Content shown as text as it is (`xmp`).
    Verbatim,
}

pub(super) fn raw_kind(name: &str) -> Option<Raw> {
    match name {
        "script" | "style" | "iframe" | "noscript" | "noembed" | "noframes" | "title" => {
            Some(Raw::Drop)
        }
        "textarea" => Some(Raw::Decoded),
        "xmp" => Some(Raw::Verbatim),
        _ => None,
    }
}

/// Elements dropped with everything inside (parsed as markup, so nesting counts).
pub(super) fn drops_content(name: &str) -> bool {
    matches!(
        name,
        "template" | "object" | "applet" | "svg" | "math" | "embed"
    )
}

/// A token of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok {
    /// Text (entities not decoded yet).
    Text(Range<usize>),
    /// A start tag: lowercase name, attributes (lowercase names, decoded values),
    /// self-closing flag, byte range.
    Start {
        name: String,
        attrs: Vec<(String, String)>,
        self_closing: bool,
        range: Range<usize>,
    },
    /// An end tag.
    End { name: String, range: Range<usize> },
    /// A comment, doctype, CDATA section, bogus comment or cut-off tag: nothing shown.
    Skip,
}

pub(super) fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0c | b'\r' | b' ')
}

/// The tokenizer.
pub(super) struct Lexer<'a> {
    pub(super) s: &'a str,
    pub(super) b: &'a [u8],
    pub(super) i: usize,
}

impl<'a> Lexer<'a> {
    pub(super) fn new(s: &'a str) -> Self {
        Lexer {
            s,
            b: s.as_bytes(),
            i: 0,
        }
    }

    pub(super) fn next_tok(&mut self) -> Option<Tok> {
        let n = self.b.len();
        let start = self.i;
        if start >= n {
            return None;
        }
        if self.b[start] == b'<' {
            if let Some(t) = self.markup(start) {
                return Some(t);
            }
            // A `<` that starts nothing is text, up to the next `<`.
            let end = crate::core::str_ops::memchr(b'<', &self.b[start + 1..])
                .map_or(n, |k| start + 1 + k);
            self.i = end;
            return Some(Tok::Text(start..end));
        }
        let end = crate::core::str_ops::memchr(b'<', &self.b[start..]).map_or(n, |k| start + k);
        self.i = end;
        Some(Tok::Text(start..end))
    }

    /// The construct starting with the `<` at `at`, or `None` when it is text.
    pub(super) fn markup(&mut self, at: usize) -> Option<Tok> {
        let b = self.b;
        let n = b.len();
        let rest = &b[at..];
        if rest.starts_with(b"<!--") {
            self.i = comment_end(b, at + 4);
            return Some(Tok::Skip);
        }
        match rest.get(1) {
            Some(b'!') | Some(b'?') => {
                self.i = bogus_end(b, at + 2);
                Some(Tok::Skip)
            }
            Some(b'/') => match rest.get(2) {
                Some(c) if c.is_ascii_alphabetic() => match self.tag(at + 2) {
                    Some((name, _, _, end)) => {
                        self.i = end;
                        Some(Tok::End {
                            name,
                            range: at..end,
                        })
                    }
                    None => {
                        self.i = n;
                        Some(Tok::Skip)
                    }
                },
                Some(b'>') => {
                    self.i = at + 3;
                    Some(Tok::Skip)
                }
                Some(_) => {
                    self.i = bogus_end(b, at + 2);
                    Some(Tok::Skip)
                }
                None => None,
            },
            Some(c) if c.is_ascii_alphabetic() => match self.tag(at + 1) {
                Some((name, attrs, self_closing, end)) => {
                    self.i = end;
                    Some(Tok::Start {
                        name,
                        attrs,
                        self_closing,
                        range: at..end,
                    })
                }
                None => {
                    // Cut off by the end of the text: a browser drops it and the rest.
                    self.i = n;
                    Some(Tok::Skip)
                }
            },
            _ => None,
        }
    }

    /// Reads a tag from its name at `p` to its `>`: (name, attributes, self-closing,
    /// position after `>`). `None` when the text ends first.
    #[allow(clippy::type_complexity)]
    pub(super) fn tag(&self, p: usize) -> Option<(String, Vec<(String, String)>, bool, usize)> {
        let b = self.b;
        let s = self.s;
        let n = b.len();
        let mut j = p;
        while j < n && !is_ws(b[j]) && b[j] != b'/' && b[j] != b'>' {
            j += 1;
        }
        let name = s.get(p..j)?.to_ascii_lowercase();
        let mut attrs = Vec::new();
        let mut self_closing = false;
        loop {
            while j < n && (is_ws(b[j]) || b[j] == b'/') {
                if b[j] == b'/' && b.get(j + 1) == Some(&b'>') {
                    self_closing = true;
                }
                j += 1;
            }
            if j >= n {
                return None;
            }
            if b[j] == b'>' {
                return Some((name, attrs, self_closing, j + 1));
            }
            self_closing = false;
            // Attribute name; its first character may be `=`.
            let a0 = j;
            j += 1;
            while j < n && !is_ws(b[j]) && !matches!(b[j], b'/' | b'>' | b'=') {
                j += 1;
            }
            let aname = s.get(a0..j).unwrap_or("").to_ascii_lowercase();
            while j < n && is_ws(b[j]) {
                j += 1;
            }
            if j >= n {
                return None;
            }
            let mut value = String::new();
            if b[j] == b'=' {
                j += 1;
                while j < n && is_ws(b[j]) {
                    j += 1;
                }
                if j >= n {
                    return None;
                }
                match b[j] {
                    q @ (b'"' | b'\'') => {
                        let v0 = j + 1;
                        let len = crate::core::str_ops::memchr(q, &b[v0..])?;
                        value = decode_attr(s.get(v0..v0 + len).unwrap_or(""));
                        j = v0 + len + 1;
                    }
                    b'>' => {}
                    _ => {
                        let v0 = j;
                        while j < n && !is_ws(b[j]) && b[j] != b'>' {
                            j += 1;
                        }
                        value = decode_attr(s.get(v0..j).unwrap_or(""));
                    }
                }
            }
            attrs.push((aname, value));
        }
    }

    /// Where the raw text of element `name` that starts at `from` ends: at its end
    /// tag `</name` (followed by whitespace, `/` or `>`), or at the end of the text.
    pub(super) fn raw_end(&self, from: usize, name: &str) -> usize {
        let b = self.b;
        let n = b.len();
        let mut k = from;
        while let Some(p) = crate::core::str_ops::find(b.get(k..).unwrap_or(&[]), b"</") {
            let at = k + p;
            let nm = at + 2;
            let after = nm + name.len();
            if b.get(nm..after)
                .is_some_and(|x| x.eq_ignore_ascii_case(name.as_bytes()))
                && b.get(after)
                    .is_some_and(|&c| is_ws(c) || c == b'/' || c == b'>')
            {
                return at;
            }
            k = at + 2;
        }
        n
    }
}

/// End of a comment whose text starts at `p` (after `<!--`): `<!-->`, `<!--->`, the
/// first `-->` or `--!>`, or the end of the text.
pub(super) fn comment_end(b: &[u8], p: usize) -> usize {
    let rest = b.get(p..).unwrap_or(&[]);
    if rest.starts_with(b">") {
        return p + 1;
    }
    if rest.starts_with(b"->") {
        return p + 2;
    }
    let mut k = p;
    while let Some(q) = crate::core::str_ops::find(b.get(k..).unwrap_or(&[]), b"--") {
        let at = k + q;
        match b.get(at + 2) {
            Some(b'>') => return at + 3,
            Some(b'!') if b.get(at + 3) == Some(&b'>') => return at + 4,
            _ => k = at + 1,
        }
    }
    b.len()
}

/// End of a bogus comment (`<!DOCTYPE ...>`, `<![CDATA[...`, `<?...>`): after its
/// first `>`, or the end of the text.
pub(super) fn bogus_end(b: &[u8], p: usize) -> usize {
    match crate::core::str_ops::memchr(b'>', b.get(p..).unwrap_or(&[])) {
        Some(k) => p + k + 1,
        None => b.len(),
    }
}
