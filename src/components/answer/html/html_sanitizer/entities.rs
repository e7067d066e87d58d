//! Character references in HTML answers: the named ones citekit decodes, numeric ones,
//! and attribute values with their references decoded.

/// Named character references citekit decodes (the common ones; an unknown name is
/// shown as it is written).
pub(super) const ENTITIES: &[(&str, &str)] = &[
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
pub(super) const LEGACY: &[&str] = &["amp", "lt", "gt", "quot", "nbsp", "copy", "reg"];

/// What windows-1252 puts at 0x80..0x9F (numeric references there mean these).
pub(super) const C1: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž', '\u{8f}',
    '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}', 'ž', 'Ÿ',
];

/// The character reference starting at the `&` at `at` in `s` (not reading past
/// `limit`): its expansion and where it ends. `attr`: inside an attribute value, where
/// a name without `;` followed by a letter, digit or `=` is not a reference.
pub(super) fn entity(s: &str, at: usize, limit: usize, attr: bool) -> Option<(String, usize)> {
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
pub(super) fn decode_attr(v: &str) -> String {
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
