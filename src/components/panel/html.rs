//! The source panel's markup: its heading and its list, cited sources first, and the
//! details of an entry, made when it is first expanded.

use crate::core::model::{Answer, Source};
use crate::core::options::Uncited;
use crate::render::class::{SOURCE, SOURCE_TOGGLE};
use crate::render::escape::{self, push_escaped};
use crate::render::options::RenderOptions;
use crate::render::parts::{about_html, display_title, external_link, meta_html};
use std::fmt::Write;

/// The panel's `<aside>` around its list (`inner`), named by its heading.
pub(crate) fn panel_aside(id_prefix: &str, inner: &str) -> String {
    format!(
        "<aside class=\"{}\" id=\"{id_prefix}-panel\" aria-labelledby=\"{id_prefix}-panel-title\">{inner}</aside>",
        crate::render::class::PANEL
    )
}

/// The id of the panel entry of source number `n`.
pub fn panel_item_id(opts: &RenderOptions, n: u32) -> String {
    format!("{}-src-{n}", opts.id_prefix)
}

/// How many panel entries are laid out at once, about a screenful; the ones after skip
/// layout and paint until they scroll near (`cite-source--lazy`, `content-visibility:
/// auto`). Measured on the 20 KB answer of `bench/mount.mjs` (30 sources), three runs:
/// the mount to a forced layout went from 1.10-1.23x marked to 0.90-0.92x, and to the
/// end of the first frame from 1.23x to 1.06-1.15x.
pub const PANEL_EAGER: usize = 8;

/// The source panel's list: cited sources first, uncited after (dimmed or hidden).
pub fn panel_html(answer: &Answer, opts: &RenderOptions) -> String {
    let p = &opts.id_prefix;
    let mut out = String::with_capacity(256 + answer.sources.len() * 400);
    let _ = write!(
        out,
        "<h2 class=\"cite-panel__title\" id=\"{p}-panel-title\">{}{}</h2><ol class=\"cite-panel__list\">",
        escape::escape(opts.labels.get("sources")),
        about_html(answer, opts)
    );
    // Cited sources first, then the sources of the whole answer (given for the answer,
    // with no position: listed as the footnotes list them, neither dimmed nor hidden),
    // then the uncited ones, dimmed or hidden by the option.
    let cited = answer.sources.iter().filter(|s| s.cited);
    let whole = answer.sources.iter().filter(|s| s.of_whole_answer());
    let uncited = answer
        .sources
        .iter()
        .filter(|s| !s.cited && !s.of_whole_answer());
    let list: Vec<&Source> = if opts.uncited == Uncited::Hide {
        cited.chain(whole).collect()
    } else {
        cited.chain(whole).chain(uncited).collect()
    };
    for (k, s) in list.into_iter().enumerate() {
        let n = s.number;
        let dim = !s.cited && !s.of_whole_answer() && opts.uncited == Uncited::Dim;
        let _ = write!(
            out,
            "<li class=\"{SOURCE}{}{}\" id=\"{}\" data-source=\"{n}\" data-cited=\"{}\" data-state=\"collapsed\"><button type=\"button\" class=\"{SOURCE_TOGGLE}\" data-source=\"{n}\" aria-expanded=\"false\" aria-controls=\"{}-details\"><span class=\"cite-source__number\">{n}</span><span class=\"cite-source__main\"><span class=\"cite-source__title\" dir=\"auto\">",
            if dim { " cite-source--uncited" } else { "" },
            if k >= PANEL_EAGER { " cite-source--lazy" } else { "" },
            panel_item_id(opts, n),
            s.cited,
            panel_item_id(opts, n),
        );
        push_escaped(&mut out, &display_title(s, opts));
        out.push_str("</span>");
        if let Some(d) = s.domain_beside_title() {
            out.push_str("<span class=\"cite-source__domain\" dir=\"auto\">");
            push_escaped(&mut out, d);
            out.push_str("</span>");
        }
        out.push_str("</span><span class=\"cite-source__count\" dir=\"auto\">");
        if s.cited {
            push_escaped(
                &mut out,
                &opts
                    .labels
                    .fill("citedTimes", &[("n", &s.cite_count.to_string())]),
            );
        } else {
            push_escaped(&mut out, opts.labels.get("uncited"));
        }
        out.push_str("</span></button>");
        if let Some(sn) = &s.snippet {
            out.push_str("<p class=\"cite-source__snippet\" dir=\"auto\">");
            push_escaped(&mut out, &crate::core::untrusted_text::excerpt200(sn));
            out.push_str("</p>");
        }
        // The details (metadata, the source's link) are made when the entry is first
        // expanded ([`panel_details_html`]): most never are.
        let _ = write!(
            out,
            "<div class=\"cite-source__details\" id=\"{}-details\" hidden></div></li>",
            panel_item_id(opts, n)
        );
    }
    out.push_str("</ol>");
    out
}

/// What an expanded panel entry shows under its title: the source's metadata and a
/// link to it. Empty when there is no source numbered `n`.
pub fn panel_details_html(answer: &Answer, n: u32, opts: &RenderOptions) -> String {
    let Some(s) = answer.source_by_number(n) else {
        return String::new();
    };
    let mut out = meta_html(s, opts, "cite-source__meta");
    if let Some(u) = &s.url {
        external_link(
            &mut out,
            "cite-source__link",
            u,
            opts.labels.get("open"),
            opts,
        );
    }
    out
}
