//! Sanitizing of untrusted text (docs/safety.md): url schemes, control characters,
//! excerpts cut on a character boundary.

use crate::core::limits::MAX_EXCERPT_CHARS;

/// Which schemes a url may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlContext {
    /// A source's url: `http:` and `https:` only.
    Source,
    /// A link inside answer markdown: also `mailto:`.
    Answer,
}

/// The url if it is safe to link, else `None`. Tabs and line breaks inside the url are
/// removed first (browsers do the same, so `java\nscript:` is `javascript:`); leading
/// and trailing control characters and spaces are trimmed. Only `http:`, `https:` (and
/// `mailto:` in answer context) with a host are accepted; scheme-relative urls
/// (`//host`) and relative paths are not links.
pub fn sanitize_url(raw: &str, context: UrlContext) -> Option<String> {
    let cleaned: String = raw
        .trim_matches(|c: char| c <= ' ' || c == '\u{7f}')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    if cleaned
        .chars()
        .any(|c| c.is_control() || is_bidi_control(c))
    {
        return None;
    }
    let colon = crate::core::str_ops::find_str(&cleaned, ":")?;
    let scheme = cleaned[..colon].to_ascii_lowercase();
    let rest = &cleaned[colon + 1..];
    match scheme.as_str() {
        "http" | "https" => {
            let host = host_of_rest(rest)?;
            if host.is_empty() {
                return None;
            }
            Some(format!("{scheme}:{rest}"))
        }
        "mailto" if context == UrlContext::Answer && !rest.is_empty() => {
            Some(format!("mailto:{rest}"))
        }
        _ => None,
    }
}

/// After `scheme:`, the authority of `//host...`; `None` without `//`.
fn host_of_rest(rest: &str) -> Option<&str> {
    let after = rest
        .strip_prefix("//")
        .or_else(|| rest.strip_prefix("\\\\"))?;
    let end = after.find(['/', '?', '#', '\\']).unwrap_or(after.len());
    let authority = &after[..end];
    let host_port =
        crate::core::str_ops::rfind_str(authority, "@").map_or(authority, |i| &authority[i + 1..]);
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        crate::core::str_ops::before(v6, "]")
    } else {
        crate::core::str_ops::before(host_port, ":")
    };
    Some(host)
}

/// The display domain of a url: its host, lowercased, without `www.` and port.
pub fn domain_of(url: &str) -> Option<String> {
    let colon = crate::core::str_ops::find_str(url, ":")?;
    let host = host_of_rest(&url[colon + 1..])?;
    if host.is_empty() {
        return None;
    }
    let host = host.to_ascii_lowercase();
    Some(host.strip_prefix("www.").unwrap_or(&host).to_string())
}

/// A title for a source that has only a url (docs/rendering.md#titles): its domain
/// ([`domain_of`]), then ` › ` and the url path's last segment when that segment reads
/// as words (`louvre.fr › hours admission` for `https://www.louvre.fr/en/visit/hours-admission`):
/// percent-decoded, `-`, `_` and `+` read as spaces, a web page's extension (`.html`,
/// `.php`, ...) dropped, and left out when it is an id (`s41586-024-07421-0`,
/// `e3052.html`), a hash, or a page name that says nothing (`index.html`). `None` for
/// a url without a `scheme://host`: a `javascript:` or `data:` url never shows. Read
/// byte by byte, without str's pattern searchers (the page-load budget, docs/size.md).
pub fn title_from_url(url: &str) -> Option<String> {
    let domain = domain_of(url)?;
    let after_scheme = &url[crate::core::str_ops::find_str(url, "//")? + 2..];
    let b = after_scheme.as_bytes();
    let stop = |c: &u8| matches!(c, b'?' | b'#');
    let path_start = b
        .iter()
        .position(|c| matches!(c, b'/' | b'\\') || stop(c))
        .unwrap_or(b.len());
    let path_end = path_start
        + b[path_start..]
            .iter()
            .position(stop)
            .unwrap_or(b.len() - path_start);
    let path = &b[path_start..path_end];
    let is_slash = |c: &u8| matches!(c, b'/' | b'\\');
    let end = path.iter().rposition(|c| !is_slash(c)).map_or(0, |k| k + 1);
    let start = path[..end].iter().rposition(is_slash).map_or(0, |k| k + 1);
    let mut title = domain;
    if let Some(words) = readable_segment(&path[start..end]) {
        title.push_str(" › ");
        title.push_str(&words);
    }
    Some(title)
}

/// The words of a url path segment, or `None` when it does not read as words.
fn readable_segment(segment: &[u8]) -> Option<String> {
    // `%XX` decoded, `-`, `_`, `+` as spaces; a web page's extension dropped.
    let mut out = Vec::with_capacity(segment.len());
    let mut i = 0;
    while i < segment.len() {
        let hex = |k: usize| segment.get(k).and_then(|c| (*c as char).to_digit(16));
        match (segment[i], hex(i + 1), hex(i + 2)) {
            (b'%', Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
            (b'-' | b'_' | b'+', _, _) => out.push(b' '),
            (c, _, _) => out.push(c),
        }
        i += 1;
    }
    if let Some(dot) = out.iter().rposition(|c| *c == b'.') {
        const PAGES: [&[u8]; 8] = [
            b"html", b"htm", b"shtml", b"php", b"asp", b"aspx", b"jsp", b"cfm",
        ];
        if PAGES
            .iter()
            .any(|e| e.eq_ignore_ascii_case(&out[dot + 1..]))
        {
            out.truncate(dot);
        }
    }
    let words = clean_text(&String::from_utf8(out).ok()?);
    const NOTHING: [&str; 4] = ["index", "default", "home", "main"];
    if NOTHING.iter().any(|n| n.eq_ignore_ascii_case(&words)) {
        return None;
    }
    // Letters outnumber digits, and a run of three letters makes a word: `e3052`,
    // `s41586 024 07421 0` and hashes (`9f86d081884c7d65`) are ids.
    let (mut letters, mut digits, mut run, mut longest, mut hex) = (0, 0, 0, 0, true);
    for c in words.bytes() {
        let letter = c.is_ascii_alphabetic() || !c.is_ascii();
        letters += usize::from(letter);
        digits += usize::from(c.is_ascii_digit());
        run = if letter { run + 1 } else { 0 };
        longest = longest.max(run);
        hex &= c.is_ascii_hexdigit();
    }
    // Non-ASCII letters were counted per byte: enough to tell words from ids. A long
    // run with no space is a token (a redirect's, a session's), not a name.
    let hash = hex && digits > 0 && words.len() >= 8;
    let token = words.len() > 40 && !crate::core::str_ops::has_char(&words, ' ');
    (letters > digits && longest >= 3 && !hash && !token).then(|| excerpt(&words, 60))
}

/// The url as a dedupe key: lowercase scheme and host, no fragment, no trailing slash.
pub fn normalize_url(url: &str) -> String {
    let no_fragment = crate::core::str_ops::before(url, "#");
    let (scheme, rest) = match crate::core::str_ops::find_str(no_fragment, "://") {
        Some(i) => (&no_fragment[..i], &no_fragment[i + 3..]),
        None => return no_fragment.trim_end_matches('/').to_string(),
    };
    let host_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let mut out = String::with_capacity(no_fragment.len());
    out.push_str(&scheme.to_ascii_lowercase());
    out.push_str("://");
    out.push_str(&rest[..host_end].to_ascii_lowercase());
    out.push_str(&rest[host_end..]);
    while out.ends_with('/') && out.len() > scheme.len() + 3 {
        out.pop();
    }
    out
}

/// Bidirectional-override and isolate controls, which can make text display in an
/// order other than its own.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

/// Text quoted in a message (a marker's literal, a key), with what would not show
/// escaped: quotes, backslash and the usual control escapes as `\n`, `\"`, ...; other
/// control, invisible-format (zero-width, bidi), separator and private-use characters
/// as `\u{hex}`. Like Rust's `escape_debug`, without core's printable tables (3 KB of
/// the npm package's wasm).
pub fn escape_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            '\0' => out.push_str("\\0"),
            '\\' | '\'' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control()
                || is_bidi_control(c)
                || matches!(c, '\u{ad}' | '\u{180e}' | '\u{200b}'..='\u{200d}' | '\u{2028}'..='\u{2029}'
                    | '\u{2060}'..='\u{2064}' | '\u{206a}'..='\u{206f}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}'
                    | '\u{e000}'..='\u{f8ff}' | '\u{f0000}'..) =>
            {
                let _ = std::fmt::Write::write_fmt(&mut out, format_args!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// A title or excerpt fit for display: line breaks and tabs become spaces, other
/// control characters (C0, DEL, C1) and bidi controls are removed, runs of spaces fold
/// into one, ends trimmed.
pub fn clean_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        let c = match c {
            '\t' | '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}' => ' ',
            c if c.is_control() || is_bidi_control(c) => continue,
            c => c,
        };
        if c == ' ' {
            if !space && !out.is_empty() {
                out.push(' ');
            }
            space = true;
        } else {
            out.push(c);
            space = false;
        }
    }
    while out.ends_with(' ') {
        out.pop();
    }
    out
}

/// Whether `c` attaches to the character before it (combining marks, joiners,
/// variation selectors, emoji modifiers and tags): an excerpt is never cut before one.
pub fn is_continuation(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036f}'
        | '\u{1ab0}'..='\u{1aff}'
        | '\u{1dc0}'..='\u{1dff}'
        | '\u{20d0}'..='\u{20ff}'
        | '\u{fe20}'..='\u{fe2f}'
        | '\u{200c}' | '\u{200d}'
        | '\u{fe00}'..='\u{fe0f}'
        | '\u{1f3fb}'..='\u{1f3ff}'
        | '\u{e0020}'..='\u{e007f}'
        | '\u{e0100}'..='\u{e01ef}')
}

/// [`clean_text`], then cut to at most `max` characters plus `…` when longer. The cut
/// never splits a character nor separates a character from its combining marks or a
/// ZWJ emoji sequence from its parts.
pub fn excerpt(s: &str, max: usize) -> String {
    let clean = clean_text(s);
    let Some((mut cut, _)) = clean.char_indices().nth(max) else {
        return clean;
    };
    // Back off so the character after the cut does not attach to the one before it.
    loop {
        let next = clean[cut..].chars().next();
        let prev = clean[..cut].chars().next_back();
        match (prev, next) {
            (Some(p), Some(n)) if is_continuation(n) || p == '\u{200d}' => {
                cut -= p.len_utf8();
            }
            _ => break,
        }
        if cut == 0 {
            break;
        }
    }
    let mut out = clean[..cut].trim_end().to_string();
    out.push('…');
    out
}

/// [`excerpt`] at the default 200 characters.
pub fn excerpt200(s: &str) -> String {
    excerpt(s, MAX_EXCERPT_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_escape_as_escape_debug_does() {
        for s in [
            "[1]",
            "a\nb\r\tc\0",
            "q\"'\\",
            "\u{202e}x\u{2066}",
            "\u{e200}cite\u{e202}turn0search0\u{e201}",
            "zero\u{200b}width\u{feff}",
            "soft\u{ad}hyphen \u{2028}",
            "\u{1b}[31m\u{7f}\u{85}",
            "【4:0†source】 日本語 ✓",
        ] {
            assert_eq!(escape_literal(s), s.escape_debug().to_string(), "{s}");
        }
    }

    #[test]
    fn urls() {
        let s = |u| sanitize_url(u, UrlContext::Source);
        assert_eq!(
            s("https://example.com/a"),
            Some("https://example.com/a".into())
        );
        assert_eq!(s("HTTPS://Example.com"), Some("https://Example.com".into()));
        assert_eq!(s("  http://x.org  "), Some("http://x.org".into()));
        assert_eq!(s("javascript:alert(1)"), None);
        assert_eq!(s("java\nscript:alert(1)"), None);
        assert_eq!(s("JaVaScRiPt:alert(1)"), None);
        assert_eq!(s("\u{1}javascript:alert(1)"), None);
        assert_eq!(s("data:text/html,<script>"), None);
        assert_eq!(s("vbscript:x"), None);
        assert_eq!(s("//evil.com"), None);
        assert_eq!(s("docs/CLAUDE.md"), None);
        assert_eq!(s("http:///path"), None);
        assert_eq!(s("mailto:a@b.c"), None);
        assert_eq!(
            sanitize_url("mailto:a@b.c", UrlContext::Answer),
            Some("mailto:a@b.c".into())
        );
        assert_eq!(s("ht\ttps://x.org"), Some("https://x.org".into()));
    }

    #[test]
    fn domains_and_normalization() {
        assert_eq!(
            domain_of("https://www.Example.com:8080/x"),
            Some("example.com".into())
        );
        assert_eq!(
            domain_of("https://user@react.dev/blog"),
            Some("react.dev".into())
        );
        assert_eq!(
            normalize_url("HTTPS://Example.COM/Path/#frag"),
            "https://example.com/Path"
        );
        assert_eq!(normalize_url("https://example.com/"), "https://example.com");
    }

    #[test]
    fn a_url_only_source_is_titled_by_its_domain_and_readable_path() {
        let title = |u: &str| title_from_url(u);
        assert_eq!(
            title("https://www.louvre.fr/en/visit/hours-admission").as_deref(),
            Some("louvre.fr › hours admission")
        );
        assert_eq!(
            title("https://en.parisinfo.com/paris-museum-monument/71148/Musee-du-Louvre?x=1#top")
                .as_deref(),
            Some("en.parisinfo.com › Musee du Louvre")
        );
        assert_eq!(
            title("https://de.wikipedia.org/wiki/K%C3%B6ln").as_deref(),
            Some("de.wikipedia.org › Köln")
        );
        assert_eq!(
            title("https://example.com/reports/annual_report_2024.html").as_deref(),
            Some("example.com › annual report 2024")
        );
        // Ids, hashes, page names that say nothing and bare hosts: the domain alone.
        for (u, d) in [
            (
                "https://www.nature.com/articles/s41586-024-07421-0",
                "nature.com",
            ),
            (
                "https://www.japan-guide.com/e/e3052.html",
                "japan-guide.com",
            ),
            ("https://example.com/blob/9f86d081884c7d65", "example.com"),
            ("https://example.com/docs/index.html", "example.com"),
            ("https://Example.COM:8080/", "example.com"),
            ("https://example.com?q=a/b-c-d", "example.com"),
            (
                "https://example.com/a/%E2%80%AEevil%0Aname",
                "example.com › evil name",
            ),
        ] {
            assert_eq!(title(u).as_deref(), Some(d), "{u}");
        }
        // A url that is not a link never shows.
        for u in [
            "javascript:alert(1)",
            "data:text/html,<b>x</b>",
            "/relative/path",
            "",
        ] {
            assert_eq!(title(u), None, "{u}");
        }
        // A long slug is cut as an excerpt is.
        let long = format!("https://example.com/{}", "word-".repeat(30));
        assert!(title(&long).unwrap().ends_with('…'));
    }

    #[test]
    fn clean_and_excerpt() {
        assert_eq!(clean_text(" a\n\tb\u{0}c\u{202e}d  "), "a bcd");
        let long = "é".repeat(300);
        let e = excerpt(&long, 200);
        assert_eq!(e.chars().count(), 201);
        assert!(e.ends_with('…'));
        // A family emoji (ZWJ sequence) is not cut in the middle.
        let fam = format!("{}👨\u{200d}👩\u{200d}👧 end", "x".repeat(198));
        let e = excerpt(&fam, 200);
        assert!(
            !e.contains('\u{200d}') || e.contains("👨\u{200d}👩\u{200d}👧"),
            "{e:?}"
        );
        let combining = format!("{}e\u{301}xyz", "x".repeat(199));
        let e = excerpt(&combining, 200);
        assert!(e.ends_with("x…"), "{e:?}");
        assert_eq!(excerpt("short", 200), "short");
    }
}
