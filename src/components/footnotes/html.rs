//! The footnotes' markup: the cited sources in order, each with back-links to every
//! marker that cites it (a, b, c ...), then the sources of the whole answer.

use crate::components::answer::html::markers::SourceCache;
use crate::core::limits::MAX_FOOTNOTE_BACKLINKS;
use crate::core::model::Answer;
use crate::core::options::MarkerStyle;
use crate::render::escape::{self, push_escaped};
use crate::render::options::RenderOptions;
use crate::render::parts::{about_html, display_title, external_link, LAZY_AFTER};
use std::fmt::Write;

/// The footnotes' `<section>` around their list (`inner`), named by its heading.
pub(crate) fn footnotes_section(id_prefix: &str, inner: &str) -> String {
    format!(
        "<section class=\"{}\" role=\"doc-endnotes\" aria-labelledby=\"{id_prefix}-fn-title\">{inner}</section>",
        crate::render::class::FOOTNOTES
    )
}

/// The id of the footnote of source number `n`.
pub fn footnote_id(opts: &RenderOptions, n: u32) -> String {
    format!("{}-fn-{n}", opts.id_prefix)
}

/// The footnotes: cited sources with back-links to every marker (a, b, c ...), then
/// the sources of the whole answer
/// ([`Source::of_whole_answer`](crate::core::model::Source::of_whole_answer)), without
/// back-links.
pub fn footnotes_html(answer: &Answer, opts: &RenderOptions) -> String {
    // (source number, citation, link) of each back-link, sorted by number and, within
    // one number, in text order (a stable sort of what is pushed in text order).
    let mut backs: Vec<(u32, usize, usize)> = Vec::new();
    let cache = SourceCache::new(answer, opts);
    for (ci, c) in answer.citations.iter().enumerate() {
        for (k, id) in c.sources.iter().enumerate() {
            if let Some(s) = cache.source(id) {
                let k = if opts.marker_style == MarkerStyle::Number {
                    k
                } else {
                    0
                };
                backs.push((s.number, ci, k));
            }
        }
    }
    crate::core::sort::sort_by_key(&mut backs, |b| (u64::from(b.0), 0));
    // The back-link label around its `{label}`, escaped once (it is written for every
    // marker of the answer).
    let back_label = escape::escape(opts.labels.get("backToCitation"));
    let back_parts = crate::core::str_ops::split_once(&back_label, "{label}");
    let prefix = &opts.id_prefix;
    let mut out = String::new();
    let _ = write!(
        out,
        "<h2 class=\"cite-footnotes__title\" id=\"{}-fn-title\">{}{}</h2><ol class=\"cite-footnotes__list{}\">",
        opts.id_prefix,
        escape::escape(opts.labels.get("references")),
        about_html(answer, opts),
        if answer.text.len() >= LAZY_AFTER {
            " cite-footnotes__list--lazy"
        } else {
            ""
        }
    );
    // Cited sources come first in `sources`, by number; the uncited ones after them.
    for s in answer
        .sources
        .iter()
        .filter(|s| s.cited || s.of_whole_answer())
    {
        let n = s.number;
        let _ = write!(
            out,
            "<li class=\"cite-footnote\" id=\"{}\" value=\"{n}\" data-source=\"{n}\">",
            footnote_id(opts, n)
        );
        let from = backs.partition_point(|b| b.0 < n);
        let targets = &backs[from..from + backs[from..].partition_point(|b| b.0 == n)];
        let shown = targets.len().min(MAX_FOOTNOTE_BACKLINKS);
        for (j, (_, ci, k)) in targets[..shown].iter().enumerate() {
            let (letter, suffix) = if targets.len() == 1 {
                ("^".to_string(), String::new())
            } else {
                let l = backlink_letter(j);
                (l.clone(), l)
            };
            let _ = write!(
                out,
                "<a class=\"cite-footnote__back\" href=\"#{prefix}-ref-{ci}-{k}\" role=\"doc-backlink\" aria-label=\""
            );
            match back_parts {
                Some((before, after)) => {
                    let _ = write!(out, "{before}{n}{suffix}{after}");
                }
                None => out.push_str(&back_label),
            }
            let _ = write!(out, "\">{letter}</a>");
        }
        if shown < targets.len() {
            // Past the limit (named in the answer's diagnostics): how many more markers
            // cite this source, as text.
            let _ = write!(
                out,
                "<span class=\"cite-footnote__more\">+{}</span>",
                targets.len() - shown
            );
        }
        out.push(' ');
        let title = &display_title(s, opts);
        match &s.url {
            Some(u) => external_link(&mut out, "cite-footnote__title", u, title, opts),
            None => {
                out.push_str("<span class=\"cite-footnote__title\" dir=\"auto\">");
                push_escaped(&mut out, title);
                out.push_str("</span>");
            }
        }
        if let Some(d) = s.domain_beside_title() {
            out.push_str(" <span class=\"cite-footnote__domain\" dir=\"auto\">");
            push_escaped(&mut out, d);
            out.push_str("</span>");
        }
        out.push_str("</li>");
    }
    out.push_str("</ol>");
    out
}

/// `a`, `b`, ... `z`, `aa`, `ab` ...
fn backlink_letter(j: usize) -> String {
    let mut j = j;
    let mut s = Vec::new();
    loop {
        s.push(b'a' + (j % 26) as u8);
        if j < 26 {
            break;
        }
        j = j / 26 - 1;
    }
    s.iter().rev().map(|&c| c as char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn footnote_title_names_the_answer_without_markdown() {
        let data = serde_json::json!({"1": {"title": "A", "source": "https://a.example/"}});
        let a = crate::core::parse_lenient(
            Some("## Part one\n\nThe **bold** `code` claim [1]."),
            crate::core::formats::Data::Json(&data),
            &crate::core::options::Options::default(),
        );
        let html = footnotes_html(&a, &RenderOptions::default());
        assert!(html.contains("Part one The bold code claim"), "{html}");
        assert!(!html.contains("##") && !html.contains("**"), "{html}");
    }

    #[test]
    fn letters() {
        assert_eq!(backlink_letter(0), "a");
        assert_eq!(backlink_letter(25), "z");
        assert_eq!(backlink_letter(26), "aa");
    }
}
