//! HTML pieces that more than one component writes: what the card, the panel and the
//! footnotes show of a source (its title, its link, its metadata) and the hidden excerpt
//! of the answer that names the panel's and the footnotes' headings.

use super::escape::push_escaped;
use super::options::RenderOptions;
use crate::core::model::{Answer, ContentKind, Source};
use std::fmt::Write;

/// Bytes of answer text after which rendered blocks (and the footnote list) are laid
/// out lazily, with `content-visibility: auto`: about a screenful of text.
pub const LAZY_AFTER: usize = 6000;

/// The accessible name of a link to `s`: `Source 2: Its title`, or `Source 2`.
pub(crate) fn source_label(s: &Source, opts: &RenderOptions) -> String {
    let n = s.number.to_string();
    match s.display_title() {
        Some(t) => opts
            .labels
            .fill("sourceTitled", &[("n", &n), ("title", &t)]),
        None => opts.labels.fill("source", &[("n", &n)]),
    }
}

/// The title shown for `s` in the card, the panel and the footnotes
/// ([`Source::display_title`]), or the `untitled` label.
pub(crate) fn display_title<'a>(
    s: &'a Source,
    opts: &'a RenderOptions,
) -> std::borrow::Cow<'a, str> {
    s.display_title()
        .unwrap_or(std::borrow::Cow::Borrowed(opts.labels.get("untitled")))
}

/// A link that opens in a new tab. Its accessible name says so: the visible text, then
/// the note (in `aria-label`, not a hidden element: one box less per source).
pub(crate) fn external_link(
    out: &mut String,
    class: &str,
    url: &str,
    text: &str,
    opts: &RenderOptions,
) {
    let _ = write!(out, "<a class=\"{class}\" href=\"");
    push_escaped(out, url);
    out.push_str("\" target=\"_blank\" rel=\"noopener noreferrer\" dir=\"auto\" aria-label=\"");
    push_escaped(out, text);
    out.push(' ');
    push_escaped(out, opts.labels.get("opensInNewTab"));
    out.push_str("\">");
    push_escaped(out, text);
    out.push_str("</a>");
}

/// Page, score and dates of a source as a `<dl>` (empty when it has none).
pub(crate) fn meta_html(s: &Source, opts: &RenderOptions, class: &str) -> String {
    let mut rows: Vec<(&str, String)> = Vec::new();
    if let Some(p) = s.page {
        rows.push(("page", p.to_string()));
    }
    if let Some(sc) = s.score {
        rows.push(("score", decimal3(sc)));
    }
    if let Some(d) = &s.published {
        rows.push(("published", short_date(d)));
    }
    if let Some(d) = &s.modified {
        rows.push(("modified", short_date(d)));
    }
    if rows.is_empty() {
        return String::new();
    }
    let mut out = format!("<dl class=\"{class}\">");
    for (k, v) in rows {
        out.push_str("<div><dt>");
        push_escaped(&mut out, opts.labels.get(k));
        out.push_str("</dt><dd>");
        push_escaped(&mut out, &v);
        out.push_str("</dd></div>");
    }
    out.push_str("</dl>");
    out
}

/// `2025-01-02T12:34:56Z` → `2025-01-02`; other forms as given (cleaned, short).
pub(crate) fn short_date(d: &str) -> String {
    let d = crate::core::untrusted_text::clean_text(d);
    let b = d.as_bytes();
    if b.len() >= 10 && b[4] == b'-' && b[7] == b'-' && b[..4].iter().all(u8::is_ascii_digit) {
        d[..10].to_string()
    } else {
        crate::core::untrusted_text::excerpt(&d, 40)
    }
}

/// A number rounded to at most three decimals, as Rust's `{}` writes the rounded
/// `f64` (`0.5`, `0.123`, `2`, `-0.25`), but through integer formatting: no float
/// formatting code in the wasm. Values past 2^53 thousandths show their integer part.
pub(crate) fn decimal3(x: f64) -> String {
    let m = (x * 1000.0).round();
    if !m.is_finite() || m.abs() >= 9.0e15 {
        return (x.round() as i64).to_string();
    }
    let m = m as i64;
    let (int, frac) = (m.unsigned_abs() / 1000, m.unsigned_abs() % 1000);
    let mut out = String::new();
    if m < 0 {
        out.push('-');
    }
    out.push_str(&int.to_string());
    if frac > 0 {
        let digits = format!("{frac:03}");
        out.push('.');
        out.push_str(digits.trim_end_matches('0'));
    }
    out
}

/// A visually hidden ` for “first words of the answer…”` after a heading, so that the
/// panel and footnotes landmarks of several answers on one page have distinct names.
pub(crate) fn about_html(answer: &Answer, opts: &RenderOptions) -> String {
    let words = about_words(answer);
    if words.is_empty() {
        return String::new();
    }
    let mut out = String::from("<span class=\"cite-visually-hidden\"> ");
    push_escaped(
        &mut out,
        &opts.labels.fill("forAnswer", &[("excerpt", &words)]),
    );
    out.push_str("</span>");
    out
}

/// The first words of the answer that the panel's and the footnotes' headings quote.
pub(crate) fn about_words(answer: &Answer) -> String {
    // The first words without markdown's punctuation (`## `, `**`, backticks).
    if answer.content_kind == ContentKind::Markdown {
        let head: String = answer
            .text
            .chars()
            .take(400)
            .filter(|c| !matches!(c, '#' | '*' | '_' | '`' | '>' | '|' | '~'))
            .collect();
        crate::core::untrusted_text::excerpt(&head, 48)
    } else {
        crate::core::untrusted_text::excerpt(&answer.text, 48)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_show_as_the_rounded_float_would() {
        for x in [
            0.5,
            0.123_4,
            2.0,
            -0.25,
            0.999_6,
            0.000_4,
            1e-9,
            87.654_321,
            -3.000_1,
            1e12 + 0.5,
        ] {
            assert_eq!(
                decimal3(x),
                format!("{}", (x * 1000.0).round() / 1000.0),
                "{x}"
            );
        }
        assert_eq!(decimal3(f64::NAN), "0");
        assert_eq!(decimal3(1e300), i64::MAX.to_string());
    }
}
