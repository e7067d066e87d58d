//! The component's server rendering against the root every other host writes
//! ([`root_html`]): the same markup, so that a page rendered by Leptos and one mounted
//! by the npm package look and behave alike. Run with Leptos's `ssr`
//! (`cargo test --features ssr --lib components::answer::leptos`).

use super::CitedAnswer;
use crate::components::answer::html::{
    answer_blocks, lists_shown, root_class, root_html, Block, Root,
};
use crate::components::footnotes::html::footnotes_html;
use crate::components::panel::html::panel_html;
use crate::core::formats::CiteData;
use crate::core::options::{MarkerStyle, Options, Theme};
use crate::render::RenderOptions;
use leptos::prelude::*;

/// The markup without the comments Leptos leaves for its views' boundaries.
fn without_comments(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find("<!") {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let end = if after.starts_with("<!--") {
            after.find("-->").map_or(after.len(), |e| e + 3)
        } else {
            after.find('>').map_or(after.len(), |e| e + 1)
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The markup with each start tag's attributes in name order (Leptos writes a
/// `class` after the other attributes). Attribute values come escaped: no `"` or `>`
/// inside them.
fn attributes_sorted(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        let tag = &rest[i..];
        let end = tag.find('>').expect("a tag ends") + 1;
        let inner = &tag[1..end - 1];
        if inner.starts_with('/') {
            out.push_str(&tag[..end]);
        } else {
            let (name, attrs) = inner.split_once(' ').unwrap_or((inner, ""));
            let mut list: Vec<&str> = Vec::new();
            let mut a = attrs.trim();
            while !a.is_empty() {
                let stop = match (a.find('"'), a.find(' ')) {
                    (Some(q), sp) if sp.is_none_or(|sp| q < sp) => {
                        q + 1 + a[q + 1..].find('"').expect("a value ends") + 1
                    }
                    (_, Some(sp)) => sp,
                    (_, None) => a.len(),
                };
                list.push(&a[..stop]);
                a = a[stop..].trim_start();
            }
            list.sort_unstable();
            out.push('<');
            out.push_str(name);
            for at in list {
                out.push(' ');
                out.push_str(at);
            }
            out.push('>');
        }
        rest = &tag[end..];
    }
    out.push_str(rest);
    out
}

/// What [`root_html`] writes for `answer` with `options`, as a mounted answer shows it.
fn expected(
    answer: &str,
    data: &serde_json::Value,
    options: &Options,
    id: &str,
    (footnotes, panel, copy): (bool, bool, bool),
) -> String {
    let r = RenderOptions::live(options, id);
    let data = CiteData::Json(data.clone());
    let a = crate::core::parse_lenient(Some(answer), data.as_data(), options);
    let (notes, with_panel) = lists_shown(&a, footnotes, panel);
    let body: String = answer_blocks(&a, &r)
        .iter()
        .map(|b: &Block| {
            let mut s = String::new();
            crate::components::answer::dom::blocks::push_block(&mut s, b);
            s
        })
        .collect();
    root_html(&Root {
        class: root_class(options.theme, with_panel),
        id,
        marker_style: crate::render::marker_style_name(options.marker_style),
        copy: copy.then(|| r.labels.get("copy")),
        body: &body,
        notes: notes.then(|| footnotes_html(&a, &r)).as_deref(),
        panel: with_panel.then(|| panel_html(&a, &r)).as_deref(),
        card: true,
    })
}

#[test]
fn the_server_rendering_is_the_root_every_host_writes() {
    let data = serde_json::json!({
        "1": {"title": "Louvre <hours>", "source": "https://www.louvre.fr/hours"},
        "2": {"title": "Paris guide", "source": "https://paris.example/guide"},
        "3": {"title": "Never cited", "source": "https://uncited.example/"}
    });
    let answer =
        "The Louvre opens at **9am** [1][2].\n\n- Closed on Tuesdays [1]\n\n`[3]` is code.";
    for (options, lists) in [
        (Options::default(), (true, false, false)),
        (
            Options {
                theme: Theme::Dark,
                marker_style: MarkerStyle::Grouped,
                ..Options::default()
            },
            (true, true, true),
        ),
        (Options::default(), (false, true, false)),
    ] {
        // As a Leptos server renders a request (the ids come from its context).
        let owner = Owner::new_root(Some(std::sync::Arc::new(
            hydration_context::SsrSharedContext::new(),
        )));
        let html = owner.with(|| {
            let (footnotes, panel, copy_button) = lists;
            let data = CiteData::Json(data.clone());
            let options = options.clone();
            view! {
                <CitedAnswer answer=answer.to_string() data=data options=options
                    footnotes=footnotes panel=panel copy_button=copy_button inject_css=false/>
            }
            .to_html()
        });
        let got = without_comments(&html);
        let id_at = got.find(" id=\"").expect("the root has an id") + 5;
        let id = &got[id_at..id_at + got[id_at..].find('"').unwrap()];
        let want = expected(answer, &data, &options, id, lists);
        assert_eq!(
            attributes_sorted(&got),
            attributes_sorted(&want),
            "{options:?} {lists:?}"
        );
    }
}
