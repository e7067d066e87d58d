//! Sources made from GFM footnote definitions (`[^1]: text <url>`).

use crate::core::draft::DraftSource;
use crate::core::markers::{Marker, SourceKey};
use crate::core::model::Source;
use crate::core::str_ops;
use crate::core::untrusted_text::{clean_text, sanitize_url, UrlContext};

/// A source made from a GFM footnote definition.
pub(super) fn footnote_source(
    raw: &str,
    m: &Marker,
    body: std::ops::Range<usize>,
) -> Option<DraftSource> {
    let key = m.keys.first()?.clone();
    let label = match &key {
        SourceKey::Name(n) => n.trim_start_matches('^').to_string(),
        SourceKey::Num(n) => n.to_string(),
    };
    let body = raw.get(body)?;
    let url = first_url(body);
    let title = clean_text(&strip_link_syntax(body));
    Some(DraftSource {
        source: Source {
            id: format!("fn-{label}"),
            kind: "footnote".into(),
            title: if title.is_empty() { None } else { Some(title) },
            domain: url
                .as_deref()
                .and_then(crate::core::untrusted_text::domain_of),
            url,
            ..Source::default()
        },
        keys: vec![key],
        given_number: crate::core::str_ops::uint_as(&label),
    })
}

/// The first `http(s)://` url in a piece of markdown (inside `(...)`, `<...>` or bare).
pub(super) fn first_url(s: &str) -> Option<String> {
    let i = str_ops::find_str(s, "http://")
        .into_iter()
        .chain(str_ops::find_str(s, "https://"))
        .min()?;
    let end = s[i..]
        .find(|c: char| c.is_whitespace() || matches!(c, ')' | '>' | '"' | '\'' | ']'))
        .map_or(s.len(), |e| i + e);
    let url = s[i..end].trim_end_matches(['.', ',', ';']);
    sanitize_url(url, UrlContext::Source)
}

/// `[label](url)` → `label`, `<url>` → ``; the rest as is.
pub(super) fn strip_link_syntax(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(['[', '<']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(inner) = tail.strip_prefix('<') {
            match str_ops::find_str(inner, ">") {
                Some(e) if str_ops::has(&inner[..e], "://") => {
                    rest = &inner[e + 1..];
                }
                _ => {
                    out.push('<');
                    rest = inner;
                }
            }
        } else if let Some(close) = str_ops::find_str(tail, "](") {
            match str_ops::find_str(&tail[close..], ")") {
                Some(p) => {
                    out.push_str(&tail[1..close]);
                    rest = &tail[close + p + 1..];
                }
                None => {
                    out.push('[');
                    rest = &tail[1..];
                }
            }
        } else {
            out.push('[');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}
