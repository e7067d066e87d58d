//! The footnotes component.

use super::html::footnotes_html;
use crate::components::context::{sources_key, CiteContext};
use crate::render::class;
use leptos::prelude::*;

/// Footnotes: an ordered list of the cited sources with back-links to every marker
/// (a, b, c when a source is cited more than once), `role="doc-endnotes"`, named by its
/// heading (with a hidden excerpt of the answer, so names differ between answers).
#[component]
pub fn Footnotes() -> impl IntoView {
    let ctx = CiteContext::use_or_provide();
    // As in the panel: the footnotes change only with the citations.
    let key = sources_key(ctx);
    let html = Memo::new(move |_| {
        // A read (not `track()`): it brings the lazy memo up to date, so it has its own
        // sources and notifies this one when they change.
        key.with(|_| ());
        let r = ctx.render.get();
        ctx.answer.with_untracked(|a| footnotes_html(a, &r))
    });
    let title_id = format!("{}-fn-title", ctx.prefix());
    view! { <section class=class::FOOTNOTES role="doc-endnotes" aria-labelledby=title_id inner_html=html></section> }
}
