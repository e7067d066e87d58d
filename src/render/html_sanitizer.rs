//! HTML answers (canonical format): an allow-list sanitizer.
//!
//! The answer text is HTML whose `<sup class="cite">` markers the resolver already
//! removed; citations are byte ranges of that text. A small tokenizer reads it the way
//! a browser's tokenizer would (tags with any attribute quoting, comments, doctype,
//! CDATA and other bogus comments, raw-text elements, a `<` that starts no tag is
//! text, a tag cut off by the end of the text is dropped). Nothing of the input is
//! copied as markup: citekit writes every tag itself, with the few attributes it
//! allows, and writes text through the `Inline` writer, so markers and cited spans
//! land where the citations say.
//!
//! - Kept elements: `p br hr h1-h6 ul ol li blockquote pre code em strong b i u s del
//!   ins sup sub small mark span div a table thead tbody tfoot tr th td dl dt dd
//!   figure figcaption abbr cite q kbd samp var`.
//! - Kept attributes: `a[href]` (through [`safe_href`], with `rel="noopener
//!   noreferrer nofollow" target="_blank"`), `ol[start]`, `td/th[colspan, rowspan]`
//!   (numbers only), `abbr[title]`. Every other attribute (`class`, `id`, `style`,
//!   `data-*`, `on*` ...) is dropped.
//! - Dropped with their content: `script style template iframe object applet embed
//!   svg math noscript noembed noframes title`. Every other element is dropped but its
//!   text is kept (`textarea`, `xmp`, `plaintext` keep their raw text).
//!
//! Open elements are closed at the end, stray end tags ignored, the usual implied
//! ends applied (`<li>` closes an open `li`, a block closes an open `p`, `<a>` closes
//! an open `a`), nesting is bounded (deeper elements are flattened). Linear time;
//! never panics.

use super::escape::push_escaped;
use super::markdown::safe_href;
use super::writer::Inline;
use super::{Block, MarkerSet};
use crate::core::model::Answer;
use std::ops::Range;

/// Deepest nesting of kept elements; deeper ones are flattened (their text is kept).
const MAX_DEPTH: usize = 256;

/// How a kept element behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// No content, no end tag (`br`, `hr`).
    Void,
    /// A block: closes an open `p`, splits top-level blocks.
    Block,
    /// Phrasing content.
    Inline,
}

/// The kept elements, with their kind.
const ALLOWED: &[(&str, Kind)] = {
    use Kind::*;
    &[
        ("p", Block),
        ("br", Void),
        ("hr", Void),
        ("h1", Block),
        ("h2", Block),
        ("h3", Block),
        ("h4", Block),
        ("h5", Block),
        ("h6", Block),
        ("ul", Block),
        ("ol", Block),
        ("li", Block),
        ("blockquote", Block),
        ("pre", Block),
        ("code", Inline),
        ("em", Inline),
        ("strong", Inline),
        ("b", Inline),
        ("i", Inline),
        ("u", Inline),
        ("s", Inline),
        ("del", Inline),
        ("ins", Inline),
        ("sup", Inline),
        ("sub", Inline),
        ("small", Inline),
        ("mark", Inline),
        ("span", Inline),
        ("div", Block),
        ("a", Inline),
        ("table", Block),
        ("thead", Block),
        ("tbody", Block),
        ("tfoot", Block),
        ("tr", Block),
        ("th", Block),
        ("td", Block),
        ("dl", Block),
        ("dt", Block),
        ("dd", Block),
        ("figure", Block),
        ("figcaption", Block),
        ("abbr", Inline),
        ("cite", Inline),
        ("q", Inline),
        ("kbd", Inline),
        ("samp", Inline),
        ("var", Inline),
    ]
};

/// The kept element called `name` (lowercase), with its kind.
fn allowed(name: &str) -> Option<(&'static str, Kind)> {
    ALLOWED.iter().find(|(n, _)| *n == name).copied()
}

/// The index of kept element `tag` in [`ALLOWED`] (`tag` comes from [`ALLOWED`]).
fn index_of(tag: &str) -> usize {
    ALLOWED
        .iter()
        .position(|(n, _)| *n == tag)
        .unwrap_or(ALLOWED.len())
}

/// Elements whose content is raw text up to their end tag (not parsed as tags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Raw {
    /// Content dropped.
    Drop,
    /// Content shown as text, entities decoded (`textarea`).
    Decoded,
    /// Content shown as text as it is (`xmp`).
    Verbatim,
}

fn raw_kind(name: &str) -> Option<Raw> {
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
fn drops_content(name: &str) -> bool {
    matches!(
        name,
        "template" | "object" | "applet" | "svg" | "math" | "embed"
    )
}

/// A token of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
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

fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0c | b'\r' | b' ')
}

/// The tokenizer.
struct Lexer<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Lexer<'a> {
    fn new(s: &'a str) -> Self {
        Lexer {
            s,
            b: s.as_bytes(),
            i: 0,
        }
    }

    fn next_tok(&mut self) -> Option<Tok> {
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
    fn markup(&mut self, at: usize) -> Option<Tok> {
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
    fn tag(&self, p: usize) -> Option<(String, Vec<(String, String)>, bool, usize)> {
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
    fn raw_end(&self, from: usize, name: &str) -> usize {
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
fn comment_end(b: &[u8], p: usize) -> usize {
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
fn bogus_end(b: &[u8], p: usize) -> usize {
    match crate::core::str_ops::memchr(b'>', b.get(p..).unwrap_or(&[])) {
        Some(k) => p + k + 1,
        None => b.len(),
    }
}

/// Named character references citekit decodes (the common ones; an unknown name is
/// shown as it is written).
const ENTITIES: &[(&str, &str)] = &[
    ("amp", "&"),
    ("lt", "<"),
    ("gt", ">"),
    ("quot", "\""),
    ("apos", "'"),
    ("nbsp", "\u{a0}"),
    ("ensp", "\u{2002}"),
    ("emsp", "\u{2003}"),
    ("thinsp", "\u{2009}"),
    ("zwnj", "\u{200c}"),
    ("zwj", "\u{200d}"),
    ("shy", "\u{ad}"),
    ("copy", "©"),
    ("reg", "®"),
    ("trade", "™"),
    ("hellip", "…"),
    ("mdash", "—"),
    ("ndash", "–"),
    ("hyphen", "‐"),
    ("lsquo", "‘"),
    ("rsquo", "’"),
    ("sbquo", "‚"),
    ("ldquo", "“"),
    ("rdquo", "”"),
    ("bdquo", "„"),
    ("laquo", "«"),
    ("raquo", "»"),
    ("lsaquo", "‹"),
    ("rsaquo", "›"),
    ("bull", "•"),
    ("middot", "·"),
    ("deg", "°"),
    ("times", "×"),
    ("divide", "÷"),
    ("plusmn", "±"),
    ("minus", "−"),
    ("le", "≤"),
    ("ge", "≥"),
    ("ne", "≠"),
    ("asymp", "≈"),
    ("equiv", "≡"),
    ("infin", "∞"),
    ("sum", "∑"),
    ("prod", "∏"),
    ("radic", "√"),
    ("part", "∂"),
    ("int", "∫"),
    ("micro", "µ"),
    ("para", "¶"),
    ("sect", "§"),
    ("dagger", "†"),
    ("Dagger", "‡"),
    ("permil", "‰"),
    ("prime", "′"),
    ("Prime", "″"),
    ("euro", "€"),
    ("pound", "£"),
    ("yen", "¥"),
    ("cent", "¢"),
    ("curren", "¤"),
    ("frac12", "½"),
    ("frac14", "¼"),
    ("frac34", "¾"),
    ("sup1", "¹"),
    ("sup2", "²"),
    ("sup3", "³"),
    ("ordf", "ª"),
    ("ordm", "º"),
    ("iexcl", "¡"),
    ("iquest", "¿"),
    ("larr", "←"),
    ("rarr", "→"),
    ("uarr", "↑"),
    ("darr", "↓"),
    ("harr", "↔"),
    ("lArr", "⇐"),
    ("rArr", "⇒"),
    ("hArr", "⇔"),
    ("check", "✓"),
    ("Tab", "\t"),
    ("NewLine", "\n"),
    ("colon", ":"),
    ("semi", ";"),
    ("comma", ","),
    ("period", "."),
    ("excl", "!"),
    ("quest", "?"),
    ("num", "#"),
    ("dollar", "$"),
    ("percnt", "%"),
    ("plus", "+"),
    ("equals", "="),
    ("lowbar", "_"),
    ("ast", "*"),
    ("commat", "@"),
    ("sol", "/"),
    ("bsol", "\\"),
    ("lpar", "("),
    ("rpar", ")"),
    ("lsqb", "["),
    ("rsqb", "]"),
    ("lcub", "{"),
    ("rcub", "}"),
    ("verbar", "|"),
    ("vert", "|"),
    ("grave", "`"),
    ("Hat", "^"),
    ("alpha", "α"),
    ("beta", "β"),
    ("gamma", "γ"),
    ("delta", "δ"),
    ("epsilon", "ε"),
    ("zeta", "ζ"),
    ("eta", "η"),
    ("theta", "θ"),
    ("iota", "ι"),
    ("kappa", "κ"),
    ("lambda", "λ"),
    ("mu", "μ"),
    ("nu", "ν"),
    ("xi", "ξ"),
    ("omicron", "ο"),
    ("pi", "π"),
    ("rho", "ρ"),
    ("sigma", "σ"),
    ("sigmaf", "ς"),
    ("tau", "τ"),
    ("upsilon", "υ"),
    ("phi", "φ"),
    ("chi", "χ"),
    ("psi", "ψ"),
    ("omega", "ω"),
    ("Alpha", "Α"),
    ("Beta", "Β"),
    ("Gamma", "Γ"),
    ("Delta", "Δ"),
    ("Theta", "Θ"),
    ("Lambda", "Λ"),
    ("Pi", "Π"),
    ("Sigma", "Σ"),
    ("Phi", "Φ"),
    ("Psi", "Ψ"),
    ("Omega", "Ω"),
    ("agrave", "à"),
    ("aacute", "á"),
    ("acirc", "â"),
    ("atilde", "ã"),
    ("auml", "ä"),
    ("aring", "å"),
    ("aelig", "æ"),
    ("ccedil", "ç"),
    ("egrave", "è"),
    ("eacute", "é"),
    ("ecirc", "ê"),
    ("euml", "ë"),
    ("igrave", "ì"),
    ("iacute", "í"),
    ("icirc", "î"),
    ("iuml", "ï"),
    ("ntilde", "ñ"),
    ("ograve", "ò"),
    ("oacute", "ó"),
    ("ocirc", "ô"),
    ("otilde", "õ"),
    ("ouml", "ö"),
    ("oslash", "ø"),
    ("ugrave", "ù"),
    ("uacute", "ú"),
    ("ucirc", "û"),
    ("uuml", "ü"),
    ("yacute", "ý"),
    ("yuml", "ÿ"),
    ("szlig", "ß"),
    ("Agrave", "À"),
    ("Aacute", "Á"),
    ("Acirc", "Â"),
    ("Atilde", "Ã"),
    ("Auml", "Ä"),
    ("Aring", "Å"),
    ("AElig", "Æ"),
    ("Ccedil", "Ç"),
    ("Egrave", "È"),
    ("Eacute", "É"),
    ("Ecirc", "Ê"),
    ("Euml", "Ë"),
    ("Igrave", "Ì"),
    ("Iacute", "Í"),
    ("Icirc", "Î"),
    ("Iuml", "Ï"),
    ("Ntilde", "Ñ"),
    ("Ograve", "Ò"),
    ("Oacute", "Ó"),
    ("Ocirc", "Ô"),
    ("Otilde", "Õ"),
    ("Ouml", "Ö"),
    ("Oslash", "Ø"),
    ("Ugrave", "Ù"),
    ("Uacute", "Ú"),
    ("Ucirc", "Û"),
    ("Uuml", "Ü"),
    ("Yacute", "Ý"),
    ("oelig", "œ"),
    ("OElig", "Œ"),
    ("scaron", "š"),
    ("Scaron", "Š"),
];

/// Names a browser also reads without the closing `;`.
const LEGACY: &[&str] = &["amp", "lt", "gt", "quot", "nbsp", "copy", "reg"];

/// What windows-1252 puts at 0x80..0x9F (numeric references there mean these).
const C1: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž', '\u{8f}',
    '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}', 'ž', 'Ÿ',
];

/// The character reference starting at the `&` at `at` in `s` (not reading past
/// `limit`): its expansion and where it ends. `attr`: inside an attribute value, where
/// a name without `;` followed by a letter, digit or `=` is not a reference.
fn entity(s: &str, at: usize, limit: usize, attr: bool) -> Option<(String, usize)> {
    let b = s.as_bytes().get(..limit)?;
    let mut p = at + 1;
    if b.get(p) == Some(&b'#') {
        p += 1;
        let hex = matches!(b.get(p), Some(b'x' | b'X'));
        if hex {
            p += 1;
        }
        let d0 = p;
        let mut v: u32 = 0;
        while let Some(&c) = b.get(p) {
            let d = match (hex, c) {
                (_, b'0'..=b'9') => u32::from(c - b'0'),
                (true, b'a'..=b'f') => u32::from(c - b'a' + 10),
                (true, b'A'..=b'F') => u32::from(c - b'A' + 10),
                _ => break,
            };
            v = v
                .saturating_mul(if hex { 16 } else { 10 })
                .saturating_add(d);
            p += 1;
        }
        if p == d0 {
            return None;
        }
        if b.get(p) == Some(&b';') {
            p += 1;
        }
        let ch = match v {
            0x80..=0x9f => C1[(v - 0x80) as usize],
            0 => '\u{fffd}',
            _ => char::from_u32(v).unwrap_or('\u{fffd}'),
        };
        return Some((ch.to_string(), p));
    }
    let n0 = p;
    while p < b.len() && p - n0 < 32 && b[p].is_ascii_alphanumeric() {
        p += 1;
    }
    if p == n0 {
        return None;
    }
    let name = s.get(n0..p)?;
    if b.get(p) == Some(&b';') {
        if let Some((_, v)) = ENTITIES.iter().find(|(k, _)| *k == name) {
            return Some((v.to_string(), p + 1));
        }
    }
    // Legacy names without `;` (in text also as a prefix: `&copy2024` is `©2024`).
    for l in LEGACY {
        if name.starts_with(l) {
            let end = n0 + l.len();
            let next = b.get(end).copied();
            if attr && (name.len() > l.len() || next.is_some_and(|c| c == b'=' || c == b';')) {
                continue;
            }
            let v = ENTITIES
                .iter()
                .find(|(k, _)| k == l)
                .map_or("", |(_, v)| *v);
            return Some((v.to_string(), end));
        }
    }
    None
}

/// An attribute value with its character references decoded.
fn decode_attr(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut last = 0;
    let mut i = 0;
    while let Some(k) = crate::core::str_ops::memchr(b'&', v.as_bytes().get(i..).unwrap_or(&[])) {
        let amp = i + k;
        match entity(v, amp, v.len(), true) {
            Some((t, end)) => {
                out.push_str(v.get(last..amp).unwrap_or(""));
                out.push_str(&t);
                last = end;
                i = end;
            }
            None => i = amp + 1,
        }
    }
    out.push_str(v.get(last..).unwrap_or(""));
    out
}

/// Renders an HTML answer as blocks, sanitized.
pub fn blocks(answer: &Answer, markers: &MarkerSet) -> Vec<Block> {
    let text = answer.text.as_str();
    let mut r = Renderer {
        w: Inline::new(text, markers),
        text,
        stack: Vec::new(),
        open: [0; ALLOWED.len() + 1],
        blocks: Vec::new(),
        block_start: 0,
    };
    let mut lx = Lexer::new(text);
    // Inside a dropped element: (its name, nesting, whether raw-text rules apply).
    let mut dropping: Option<(String, usize, bool)> = None;
    while let Some(tok) = lx.next_tok() {
        if let Some((dname, depth, raw_rules)) = dropping.as_mut() {
            match tok {
                Tok::Start {
                    name, self_closing, ..
                } => {
                    if name == *dname {
                        if !(self_closing && (name == "svg" || name == "math")) {
                            *depth += 1;
                        }
                    } else if *raw_rules && raw_kind(&name).is_some() {
                        lx.i = lx.raw_end(lx.i, &name);
                    }
                }
                Tok::End { name, .. } if name == *dname => {
                    *depth = depth.saturating_sub(1);
                    if *depth == 0 {
                        dropping = None;
                    }
                }
                _ => {}
            }
            continue;
        }
        match tok {
            Tok::Text(range) => r.text(range),
            Tok::Skip => {}
            Tok::Start {
                name,
                attrs,
                self_closing,
                range,
            } => {
                if let Some(kind) = raw_kind(&name) {
                    let end = lx.raw_end(lx.i, &name);
                    match kind {
                        Raw::Drop => {}
                        Raw::Decoded => r.text(lx.i..end),
                        Raw::Verbatim => r.w.text(lx.i..end, true),
                    }
                    lx.i = end;
                } else if name == "plaintext" {
                    r.w.text(lx.i..text.len(), true);
                    lx.i = text.len();
                } else if drops_content(&name) {
                    let foreign = name == "svg" || name == "math";
                    let void = name == "embed" || (foreign && self_closing);
                    if !void {
                        dropping = Some((name, 1, !foreign));
                    }
                } else if let Some((tag, kind)) = allowed(&name) {
                    r.open(tag, kind, &attrs, range);
                }
            }
            Tok::End { name, range } => {
                if let Some((tag, kind)) = allowed(&name) {
                    r.close(tag, kind, range);
                }
            }
        }
    }
    r.finish()
}

/// Output state: the writer, the open kept elements, the finished blocks.
struct Renderer<'a> {
    w: Inline<'a>,
    text: &'a str,
    stack: Vec<&'static str>,
    /// How many of each kept element are open (by [`index_of`]), so searches for an
    /// element that is not open cost nothing.
    open: [u32; ALLOWED.len() + 1],
    blocks: Vec<Block>,
    block_start: usize,
}

impl Renderer<'_> {
    /// Text with its character references decoded; verbatim pieces go through the
    /// writer as slices of the answer, so markers and cited spans land inside them.
    fn text(&mut self, r: Range<usize>) {
        let b = self.text.as_bytes();
        let mut last = r.start;
        let mut i = r.start;
        while let Some(k) = crate::core::str_ops::memchr(b'&', b.get(i..r.end).unwrap_or(&[])) {
            let amp = i + k;
            match entity(self.text, amp, r.end, false) {
                Some((t, end)) => {
                    if last < amp {
                        self.w.text(last..amp, true);
                    }
                    self.w.literal(&t, amp);
                    last = end;
                    i = end;
                }
                None => i = amp + 1,
            }
        }
        if last < r.end {
            self.w.text(last..r.end, true);
        }
    }

    /// Closes the open elements from index `i` up.
    fn close_to(&mut self, i: usize) {
        while self.stack.len() > i {
            if let Some(t) = self.stack.pop() {
                if let Some(c) = self.open.get_mut(index_of(t)) {
                    *c = c.saturating_sub(1);
                }
                self.w.raw("</");
                self.w.raw(t);
                self.w.raw(">");
            }
        }
    }

    /// Whether an element `tag` is open.
    fn is_open(&self, tag: &str) -> bool {
        self.open.get(index_of(tag)).is_some_and(|&c| c > 0)
    }

    /// The nearest open element named `tag`, looking no further down than an element
    /// of `stop`.
    fn find(&self, tag: &str, stop: &[&str]) -> Option<usize> {
        if !self.is_open(tag) {
            return None;
        }
        for (i, t) in self.stack.iter().enumerate().rev() {
            if *t == tag {
                return Some(i);
            }
            if stop.contains(t) {
                return None;
            }
        }
        None
    }

    /// The end tags a browser implies before start tag `tag`.
    fn implied_ends(&mut self, tag: &str, kind: Kind) {
        let found = match tag {
            "a" => self.find("a", &[]),
            "li" => self.find_item(&["li"], &["ul", "ol"]),
            "dt" | "dd" => self.find_item(&["dt", "dd"], &["dl"]),
            "tr" => self.find_any(&["tr"], &["table", "thead", "tbody", "tfoot"]),
            "td" | "th" => {
                self.find_any(&["td", "th"], &["tr", "table", "thead", "tbody", "tfoot"])
            }
            "thead" | "tbody" | "tfoot" => self.find_any(&["thead", "tbody", "tfoot"], &["table"]),
            _ => None,
        };
        if let Some(i) = found {
            self.close_to(i);
        }
        if splits(tag, kind) {
            if let Some(i) = self.find("p", &["td", "th", "table"]) {
                self.close_to(i);
            }
        }
        if is_heading(tag) && self.stack.last().is_some_and(|t| is_heading(t)) {
            self.close_to(self.stack.len() - 1);
        }
    }

    /// The nearest open element of `tags`, not past one of `stop`.
    fn find_any(&self, tags: &[&str], stop: &[&str]) -> Option<usize> {
        if !tags.iter().any(|t| self.is_open(t)) {
            return None;
        }
        for (i, t) in self.stack.iter().enumerate().rev() {
            if tags.contains(t) {
                return Some(i);
            }
            if stop.contains(t) {
                return None;
            }
        }
        None
    }

    /// Like [`find_any`](Self::find_any) for list items: passes phrasing elements,
    /// `div` and `p`, stops at any other block or at `stop`.
    fn find_item(&self, tags: &[&str], stop: &[&str]) -> Option<usize> {
        if !tags.iter().any(|t| self.is_open(t)) {
            return None;
        }
        for (i, t) in self.stack.iter().enumerate().rev() {
            if tags.contains(t) {
                return Some(i);
            }
            let passes =
                *t == "div" || *t == "p" || allowed(t).is_some_and(|(_, k)| k == Kind::Inline);
            if stop.contains(t) || !passes {
                return None;
            }
        }
        None
    }

    /// Ends the current top-level block at `end`, unless it holds only whitespace.
    fn end_block(&mut self, end: usize) {
        if self.w.pending().trim().is_empty() {
            return;
        }
        let html = self.w.take();
        self.blocks.push(Block {
            range: self.block_start..end,
            html,
        });
        self.block_start = end;
    }

    fn open(&mut self, tag: &'static str, kind: Kind, attrs: &[(String, String)], r: Range<usize>) {
        self.w.flush_markers(r.start, true);
        self.implied_ends(tag, kind);
        if splits(tag, kind) && self.stack.is_empty() {
            self.end_block(r.start);
        }
        if kind != Kind::Void && self.stack.len() >= MAX_DEPTH {
            return;
        }
        let attr = |name: &str| {
            attrs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
        };
        let mut t = String::with_capacity(48);
        t.push('<');
        t.push_str(tag);
        match tag {
            "a" => match attr("href").map(str::trim) {
                Some(h) if !h.is_empty() => match safe_href(h) {
                    Some(href) => {
                        t.push_str(" href=\"");
                        push_escaped(&mut t, &href);
                        t.push_str("\" rel=\"noopener noreferrer nofollow\" target=\"_blank\"");
                    }
                    None => t.push_str(" class=\"cite-link-blocked\""),
                },
                _ => {}
            },
            "ol" => {
                if let Some(n) = attr("start").and_then(parse_int) {
                    t.push_str(&format!(" start=\"{n}\""));
                }
            }
            "td" | "th" => {
                for (name, max) in [("colspan", 1000u32), ("rowspan", 65534)] {
                    if let Some(n) = attr(name).and_then(|v| parse_count(v, max)) {
                        t.push_str(&format!(" {name}=\"{n}\""));
                    }
                }
            }
            "abbr" => {
                if let Some(title) = attr("title") {
                    t.push_str(" title=\"");
                    push_escaped(&mut t, title);
                    t.push('"');
                }
            }
            _ => {}
        }
        t.push('>');
        self.w.raw(&t);
        match kind {
            Kind::Void => {
                if tag == "hr" && self.stack.is_empty() {
                    self.end_block(r.end);
                }
            }
            _ => {
                self.stack.push(tag);
                if let Some(c) = self.open.get_mut(index_of(tag)) {
                    *c += 1;
                }
            }
        }
    }

    fn close(&mut self, tag: &'static str, kind: Kind, r: Range<usize>) {
        if tag == "br" {
            // `</br>` is read as `<br>`.
            self.open("br", Kind::Void, &[], r);
            return;
        }
        if kind == Kind::Void {
            return;
        }
        let stop: &[&str] = match tag {
            "table" => &[],
            "td" | "th" | "tr" | "thead" | "tbody" | "tfoot" => &["table"],
            "li" => &["ul", "ol", "td", "th", "table"],
            "dt" | "dd" => &["dl", "td", "th", "table"],
            _ => &["td", "th", "table"],
        };
        let Some(i) = self.find(tag, stop) else {
            return;
        };
        self.w.flush_markers(r.start, true);
        if kind == Kind::Block {
            // A marker written right after a block's end tag cites the block: keep it
            // inside.
            let b = self.text.as_bytes();
            let mut e = r.end;
            while b.get(e).is_some_and(|&c| is_ws(c)) {
                e += 1;
            }
            self.w.flush_markers(e, true);
        }
        self.close_to(i);
        if self.stack.is_empty() && kind == Kind::Block {
            self.end_block(r.end);
        }
    }

    fn finish(mut self) -> Vec<Block> {
        self.w.flush_markers(usize::MAX, true);
        self.close_to(0);
        let rest = self.w.take();
        if !rest.is_empty() {
            match self.blocks.last_mut() {
                Some(b) if rest.trim().is_empty() => b.html.push_str(&rest),
                _ => self.blocks.push(Block {
                    range: self.block_start..self.text.len(),
                    html: rest,
                }),
            }
        }
        if let Some(b) = self.blocks.last_mut() {
            b.range.end = self.text.len();
        }
        self.blocks
    }
}

/// Whether start tag `tag` closes an open `p` and starts a new top-level block.
fn splits(tag: &str, kind: Kind) -> bool {
    kind == Kind::Block || tag == "hr"
}

fn is_heading(t: &str) -> bool {
    matches!(t, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// `ol[start]`: an optional sign and digits (what follows them is ignored, as
/// browsers do).
fn parse_int(v: &str) -> Option<i64> {
    let v = v.trim();
    let (neg, digits) = match v.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, v.strip_prefix('+').unwrap_or(v)),
    };
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    let d = digits.get(..end.min(9))?;
    let n: i64 = d.parse().ok()?;
    Some(if neg { -n } else { n })
}

/// `colspan` / `rowspan`: digits only, at most `max`.
fn parse_count(v: &str, max: u32) -> Option<u32> {
    let v = v.trim();
    if v.is_empty() || v.len() > 9 || !v.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    v.parse::<u32>().ok().map(|n| n.min(max))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        let mut lx = Lexer::new(s);
        let mut v = Vec::new();
        while let Some(t) = lx.next_tok() {
            v.push(t);
        }
        v
    }

    #[test]
    fn tags_with_any_quoting() {
        let t = toks("<a HREF=x title='a b' data-x=\"1\" `y`=z checked>t</A >");
        let Tok::Start { name, attrs, .. } = &t[0] else {
            panic!("{t:?}")
        };
        assert_eq!(name, "a");
        assert_eq!(
            attrs,
            &vec![
                ("href".to_string(), "x".to_string()),
                ("title".into(), "a b".into()),
                ("data-x".into(), "1".into()),
                ("`y`".into(), "z".into()),
                ("checked".into(), String::new()),
            ]
        );
        assert_eq!(t[1], Tok::Text(47..48));
        assert!(matches!(&t[2], Tok::End { name, .. } if name == "a"));
    }

    #[test]
    fn comments_and_bogus() {
        assert_eq!(comment_end(b"<!-->x", 4), 5);
        assert_eq!(comment_end(b"<!--->x", 4), 6);
        assert_eq!(comment_end(b"<!-- a -- b --!>x", 4), 16);
        assert_eq!(comment_end(b"<!-- open", 4), 9);
        assert_eq!(toks("a < b"), vec![Tok::Text(0..2), Tok::Text(2..5)]);
        assert_eq!(toks("<p"), vec![Tok::Skip]);
        assert_eq!(toks("</>x"), vec![Tok::Skip, Tok::Text(3..4)]);
    }

    #[test]
    fn entities() {
        assert_eq!(entity("&amp;", 0, 5, false), Some(("&".into(), 5)));
        assert_eq!(entity("&#106;", 0, 6, false), Some(("j".into(), 6)));
        assert_eq!(entity("&#x6A", 0, 5, false), Some(("j".into(), 5)));
        assert_eq!(entity("&#0;", 0, 4, false), Some(("\u{fffd}".into(), 4)));
        assert_eq!(entity("&#x80;", 0, 6, false), Some(("€".into(), 6)));
        assert_eq!(
            entity("&#99999999999;", 0, 14, false),
            Some(("\u{fffd}".into(), 14))
        );
        assert_eq!(entity("&copy2024", 0, 9, false), Some(("©".into(), 5)));
        assert_eq!(entity("&copy2024", 0, 9, true), None);
        assert_eq!(entity("&bogus;", 0, 7, false), None);
        assert_eq!(entity("&amp;", 0, 3, false), None);
        assert_eq!(decode_attr("java&Tab;script&colon;x"), "java\tscript:x");
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_int(" 3x"), Some(3));
        assert_eq!(parse_int("-2"), Some(-2));
        assert_eq!(parse_int("x"), None);
        assert_eq!(parse_count("2", 1000), Some(2));
        assert_eq!(parse_count("2 onclick", 1000), None);
        assert_eq!(parse_count("99999", 1000), Some(1000));
    }
}
