//! CommonMark conformance of `<CitedAnswer>` in headless Chromium: every example of the
//! CommonMark spec (version 0.31.2, compiled in from `tests/specs/commonmark/`) that
//! holds no citation marker is mounted as an answer with citation map data (one
//! source, citations on); the rendered `.cite-answer__body` and the spec's HTML are both
//! parsed by the browser into a `<template>`, our block wrappers (`div.cite-block`)
//! unwrapped and our own attributes (`rel`, `target` on links, `loading`,
//! `referrerpolicy` on images) dropped, then compared after whitespace normalization.
//! Differences are allowed only for the documented exceptions of
//! `support/commonmark_spec.rs` (raw HTML shown as text, unsafe urls dropped, GFM
//! extensions). The host twin is `tests/commonmark_host.rs`.
#![cfg(all(target_arch = "wasm32", feature = "csr"))]

#[path = "support/commonmark_spec.rs"]
mod spec;

use citekit::web::{CiteData, CitedAnswer};
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlTemplateElement};

wasm_bindgen_test_configure!(run_in_browser);

const SPEC: &str = include_str!("specs/commonmark/spec.txt");

async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

fn doc() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn all(root: &web_sys::DocumentFragment, sel: &str) -> Vec<Element> {
    let list = root.query_selector_all(sel).unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().dyn_into::<Element>().unwrap())
        .collect()
}

/// Removes the comment nodes under `node` (Leptos' placeholders; citekit's own markup
/// never holds a comment, answer text is escaped).
fn remove_comments(node: &web_sys::Node) {
    let kids = node.child_nodes();
    let list: Vec<web_sys::Node> = (0..kids.length()).filter_map(|i| kids.item(i)).collect();
    for k in list {
        if k.node_type() == web_sys::Node::COMMENT_NODE {
            let _ = node.remove_child(&k);
        } else {
            remove_comments(&k);
        }
    }
}

/// `html` as the browser parses and serializes it, without our wrappers and attributes
/// (and, for `ours`, without Leptos' comment placeholders), then whitespace-normalized.
fn browser_normalize(html: &str, ours: bool) -> String {
    let t: HtmlTemplateElement = doc()
        .create_element("template")
        .unwrap()
        .dyn_into()
        .unwrap();
    t.set_inner_html(html);
    let frag = t.content();
    if ours {
        remove_comments(&frag);
    }
    for block in all(&frag, "div.cite-block") {
        let parent = block.parent_node().unwrap();
        while let Some(child) = block.first_child() {
            parent.insert_before(&child, Some(&block)).unwrap();
        }
        block.remove();
    }
    for a in all(&frag, "a") {
        let _ = a.remove_attribute("rel");
        let _ = a.remove_attribute("target");
    }
    for img in all(&frag, "img") {
        let _ = img.remove_attribute("loading");
        let _ = img.remove_attribute("referrerpolicy");
    }
    spec::normalize(&t.inner_html())
}

#[wasm_bindgen_test]
async fn commonmark_spec_examples_in_the_browser() {
    let examples = spec::examples(SPEC);
    assert!(examples.len() > 600, "only {} examples", examples.len());
    let mut counts = spec::Counts {
        total: examples.len(),
        ..Default::default()
    };
    // Mount every example at once, each in its own container, then let the effects run.
    let mut mounted: Vec<(&spec::Example, HtmlElement)> = Vec::new();
    let mut handles = Vec::new();
    for ex in &examples {
        if spec::has_marker(&ex.markdown) {
            counts.skipped += 1;
            continue;
        }
        let host: HtmlElement = doc().create_element("div").unwrap().dyn_into().unwrap();
        doc().body().unwrap().append_child(&host).unwrap();
        let md = ex.markdown.clone();
        let data = json!({"1": {"title": "A", "source": "https://a.example"}});
        handles.push(leptos::mount::mount_to(host.clone(), move || {
            view! { <CitedAnswer answer=md data=CiteData::Json(data) /> }
        }));
        mounted.push((ex, host));
    }
    sleep(100).await;
    let mut report = String::new();
    for (ex, host) in &mounted {
        let body = host
            .query_selector(".cite-answer__body")
            .unwrap()
            .expect("mounted");
        let got = browser_normalize(&body.inner_html(), true);
        let want = browser_normalize(&ex.html, false);
        if got == want {
            counts.passed += 1;
            continue;
        }
        let why = spec::exception(&ex.markdown);
        counts.fail(ex.number, why);
        if why.is_none() {
            report.push_str(&format!(
                "\n--- example {} ({})\nmarkdown: {:?}\nexpected: {:?}\ngot:      {:?}\n",
                ex.number, ex.section, ex.markdown, want, got
            ));
        }
    }
    drop(handles);
    for (_, host) in &mounted {
        host.remove();
    }
    console_log!("{}", counts.summary());
    assert!(
        counts.unexpected.is_empty(),
        "{}\n{report}",
        counts.summary()
    );
}
