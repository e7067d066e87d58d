//! Streaming in the browser: the answer grows by appends into a mounted CitedAnswer.
#![cfg(all(target_arch = "wasm32", feature = "csr"))]

use citekit::web::{CiteData, CitedAnswer};
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

fn container() -> HtmlElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let el: HtmlElement = doc.create_element("div").unwrap().dyn_into().unwrap();
    doc.body().unwrap().append_child(&el).unwrap();
    el
}

fn all(root: &Element, sel: &str) -> Vec<Element> {
    let list = root.query_selector_all(sel).unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().dyn_into::<Element>().unwrap())
        .collect()
}

fn data() -> serde_json::Value {
    json!({
        "1": {"title": "Paris facts", "source": "https://paris.example/facts"},
        "2": {"title": "Lyon facts", "source": "https://lyon.example/facts"}
    })
}

struct Mounted {
    root: Element,
    answer: RwSignal<String>,
    data: RwSignal<CiteData>,
    streaming: RwSignal<bool>,
}

fn mount(initial_data: CiteData) -> Mounted {
    let host = container();
    let answer = RwSignal::new(String::new());
    let data = RwSignal::new(initial_data);
    let streaming = RwSignal::new(true);
    leptos::mount::mount_to(host.clone(), move || {
        view! { <CitedAnswer answer=answer data=data streaming=streaming/> }
    })
    .forget();
    Mounted {
        root: host.first_element_child().unwrap(),
        answer,
        data,
        streaming,
    }
}

fn body_text(m: &Mounted) -> String {
    m.root
        .query_selector(".cite-answer__body")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap()
}

#[wasm_bindgen_test]
async fn marker_split_across_chunks_renders_once() {
    let m = mount(CiteData::Json(data()));
    for chunk in [
        "Paris is the cap",
        "ital [",
        "1",
        "]",
        ". Lyon",
        " is big [2",
        "].",
    ] {
        m.answer.update(|a| a.push_str(chunk));
        sleep(5).await;
        let t = body_text(&m);
        assert!(
            !t.contains('['),
            "no literal bracket while streaming: {t:?}"
        );
    }
    sleep(10).await;
    let links = all(&m.root, ".cite-marker__link");
    assert_eq!(links.len(), 2, "{}", m.root.inner_html());
    assert_eq!(links[0].text_content().unwrap(), "1");
    m.streaming.set(false);
    sleep(10).await;
    // Marker numbers follow the cited words.
    assert_eq!(body_text(&m).trim(), "Paris is the capital1. Lyon is big2.");
    assert_eq!(all(&m.root, ".cite-marker__link").len(), 2);
}

#[wasm_bindgen_test]
async fn completed_blocks_keep_their_nodes() {
    let m = mount(CiteData::Json(data()));
    m.answer.set("First paragraph about Paris [1].\n\n".into());
    sleep(10).await;
    m.answer.update(|a| a.push_str("Second paragraph"));
    sleep(10).await;
    let first = all(&m.root, ".cite-block")[0].clone();
    let first_p = first.first_element_child().unwrap();
    for chunk in [" grows", " and grows [2", "].\n\n", "Third ", "one."] {
        m.answer.update(|a| a.push_str(chunk));
        sleep(5).await;
        let now = all(&m.root, ".cite-block");
        assert!(now[0].is_same_node(Some(&first)), "block element kept");
        assert!(
            now[0]
                .first_element_child()
                .unwrap()
                .is_same_node(Some(&first_p)),
            "its content nodes kept"
        );
    }
    assert_eq!(all(&m.root, ".cite-block").len(), 3);
}

#[wasm_bindgen_test]
async fn open_card_stays_open_during_appends() {
    let m = mount(CiteData::Json(data()));
    m.answer.set("Paris is the capital [1].\n\nMore".into());
    sleep(10).await;
    let link = all(&m.root, ".cite-marker__link")[0].clone();
    link.dyn_ref::<HtmlElement>().unwrap().focus().unwrap();
    sleep(10).await;
    let card = m.root.query_selector(".cite-card").unwrap().unwrap();
    assert!(!card.has_attribute("hidden"));
    for chunk in [" text", " arrives", " [2].", " And more."] {
        m.answer.update(|a| a.push_str(chunk));
        sleep(5).await;
        assert!(!card.has_attribute("hidden"), "card stays open");
    }
    assert!(
        all(&m.root, ".cite-marker__link")[0].is_same_node(Some(&link)),
        "its marker node is kept"
    );
}

#[wasm_bindgen_test]
async fn late_sources_make_pending_markers_live() {
    let m = mount(CiteData::None);
    m.answer
        .set("Paris is the capital [1].\n\nLyon is big [2].".into());
    sleep(10).await;
    assert_eq!(
        all(&m.root, ".cite-marker--pending").len(),
        2,
        "{}",
        m.root.inner_html()
    );
    assert!(!body_text(&m).contains("[1]"));
    let block0 = all(&m.root, ".cite-block")[0].clone();
    m.data.set(CiteData::Json(data()));
    sleep(10).await;
    assert_eq!(all(&m.root, ".cite-marker--pending").len(), 0);
    assert_eq!(all(&m.root, ".cite-marker__link").len(), 2);
    assert!(
        all(&m.root, ".cite-block")[0].is_same_node(Some(&block0)),
        "blocks stay, markers become live in place"
    );
}

#[wasm_bindgen_test]
async fn sse_stream_cut_anywhere() {
    let host = container();
    let data = RwSignal::new(CiteData::Text(String::new()));
    let streaming = RwSignal::new(true);
    let opts = citekit::Options {
        format: citekit::core::options::FormatChoice::Given(citekit::Format::Sse),
        ..Default::default()
    };
    leptos::mount::mount_to(host.clone(), move || {
        view! { <CitedAnswer data=data options=opts.clone() streaming=streaming/> }
    })
    .forget();
    let stream = "data: {\"type\":\"token\",\"content\":\"AEGIS RAG is agentic \"}\n\ndata: {\"type\":\"token\",\"content\":\"[1].\"}\n\ndata: {\"type\":\"citations\",\"data\":{\"1\":{\"title\":\"CLAUDE.md\",\"source\":\"https://docs.example/claude\"}}}\n\ndata: [DONE]\n\n";
    let bytes: Vec<char> = stream.chars().collect();
    for chunk in bytes.chunks(7) {
        let s: String = chunk.iter().collect();
        data.update(|d| {
            if let CiteData::Text(t) = d {
                t.push_str(&s)
            }
        });
        sleep(1).await;
    }
    streaming.set(false);
    sleep(10).await;
    let root = host.first_element_child().unwrap();
    let t = root
        .query_selector(".cite-answer__body")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap();
    assert!(t.contains("AEGIS RAG is agentic"), "{t}");
    assert!(!t.contains("[1]"));
    assert_eq!(
        all(&root, ".cite-marker__link").len(),
        1,
        "{}",
        root.inner_html()
    );
}

#[wasm_bindgen_test]
async fn unfinished_markdown_does_not_flicker() {
    let m = mount(CiteData::Json(data()));
    // An unclosed emphasis shows as emphasis, never as literal asterisks.
    m.answer.set("Some **bold tex".into());
    sleep(10).await;
    assert!(!body_text(&m).contains("**"), "{}", body_text(&m));
    assert_eq!(all(&m.root, ".cite-answer__body strong").len(), 1);
    // A link whose url is still arriving is not shown as `[text](htt`.
    m.answer
        .update(|a| a.push_str("t**. See [the docs](https://exa"));
    sleep(10).await;
    let t = body_text(&m);
    assert!(!t.contains("](") && !t.contains("[the"), "{t}");
    m.answer.update(|a| a.push_str("mple.org/docs).\n\n"));
    sleep(10).await;
    assert_eq!(
        all(
            &m.root,
            ".cite-answer__body a[href='https://example.org/docs']"
        )
        .len(),
        1
    );
    // A table header without its delimiter row is held back, then becomes a table.
    m.answer.update(|a| a.push_str("| city | note |\n"));
    sleep(10).await;
    assert!(!body_text(&m).contains("| city"), "{}", body_text(&m));
    m.answer
        .update(|a| a.push_str("|---|---|\n| Paris | capital [1] |\n"));
    sleep(10).await;
    assert_eq!(
        all(&m.root, ".cite-answer__body table").len(),
        1,
        "{}",
        m.root.inner_html()
    );
    assert_eq!(all(&m.root, "table .cite-marker__link").len(), 1);
}
