//! The hover card's markup: the source a marker cites (one page of a pager when it
//! cites several), its title, domain, quote, metadata and a link to it.

use crate::core::model::Answer;
use crate::render::class::CARD_NAV;
use crate::render::escape::{self, push_escaped};
use crate::render::options::RenderOptions;
use crate::render::parts::{display_title, external_link, meta_html};
use std::fmt::Write;

/// The body of the hover card for page `index` of citation `ci`.
pub fn card_html(answer: &Answer, ci: usize, index: usize, opts: &RenderOptions) -> String {
    let Some(c) = answer.citations.get(ci) else {
        return String::new();
    };
    let total = c.sources.len();
    let index = index.min(total.saturating_sub(1));
    let Some(s) = c.sources.get(index).and_then(|id| answer.source(id)) else {
        return String::new();
    };
    let mut out = String::with_capacity(600);
    let _ = write!(
        out,
        "<div class=\"cite-card__body\" data-source=\"{}\"><p class=\"cite-card__head\"><span class=\"cite-card__number\">{}</span>",
        s.number, s.number
    );
    if let Some(d) = s.domain_beside_title() {
        out.push_str("<span class=\"cite-card__domain\" dir=\"auto\">");
        push_escaped(&mut out, d);
        out.push_str("</span>");
    }
    out.push_str("</p><p class=\"cite-card__title\" dir=\"auto\">");
    push_escaped(&mut out, &display_title(s, opts));
    out.push_str("</p>");
    let quote = if total == 1 {
        c.cited_text.as_deref()
    } else {
        None
    }
    .or(s.snippet.as_deref());
    if let Some(q) = quote {
        out.push_str("<p class=\"cite-card__snippet\" dir=\"auto\">");
        push_escaped(&mut out, &crate::core::untrusted_text::excerpt200(q));
        out.push_str("</p>");
    }
    out.push_str(&meta_html(s, opts, "cite-card__meta"));
    out.push_str("<div class=\"cite-card__foot\">");
    if let Some(u) = &s.url {
        external_link(
            &mut out,
            "cite-card__link",
            u,
            opts.labels.get("open"),
            opts,
        );
    }
    if total > 1 {
        let _ = write!(
            out,
            "<span class=\"cite-card__pager\"><button type=\"button\" class=\"{CARD_NAV}\" data-nav=\"prev\" aria-label=\"{}\"{}>‹</button><span class=\"cite-card__count\" aria-live=\"polite\">{}</span><button type=\"button\" class=\"{CARD_NAV}\" data-nav=\"next\" aria-label=\"{}\"{}>›</button></span>",
            escape::escape(opts.labels.get("previous")),
            if index == 0 { " disabled" } else { "" },
            escape::escape(&opts.labels.fill(
                "pager",
                &[("i", &(index + 1).to_string()), ("total", &total.to_string())]
            )),
            escape::escape(opts.labels.get("next")),
            if index + 1 == total { " disabled" } else { "" },
        );
    }
    out.push_str("</div></div>");
    out
}
