//! Browser tests of the Leptos components in headless Chromium: mount, act as a user
//! (hover, focus, keys, click, tap), assert on the DOM.
#![cfg(all(target_arch = "wasm32", feature = "csr"))]

use citekit::core::options::Options;
use citekit::web::{CiteData, CitedAnswer};
use leptos::prelude::*;
use serde_json::json;
use std::time::Duration;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Waits `ms` milliseconds (lets Leptos effects and timers run).
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

/// A fresh container in the body.
fn container() -> HtmlElement {
    let el: HtmlElement = doc().create_element("div").unwrap().dyn_into().unwrap();
    doc().body().unwrap().append_child(&el).unwrap();
    el
}

fn all(root: &Element, sel: &str) -> Vec<Element> {
    let list = root.query_selector_all(sel).unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().dyn_into::<Element>().unwrap())
        .collect()
}

fn one(root: &Element, sel: &str) -> Element {
    root.query_selector(sel)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {sel}"))
}

fn pointer(el: &Element, kind: &str, pointer_type: &str, related: Option<&Element>) {
    let init = web_sys::PointerEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_pointer_type(pointer_type);
    if let Some(r) = related {
        init.set_related_target(Some(r));
    }
    let ev = web_sys::PointerEvent::new_with_event_init_dict(kind, &init).unwrap();
    el.dispatch_event(&ev).unwrap();
}

fn click(el: &Element) -> bool {
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    let ev = web_sys::MouseEvent::new_with_mouse_event_init_dict("click", &init).unwrap();
    el.dispatch_event(&ev).unwrap();
    ev.default_prevented()
}

fn key(el: &Element, k: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_key(k);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    el.dispatch_event(&ev).unwrap();
}

/// The text of every range in `CSS.highlights.get("cite-active")`, joined by `|`.
fn highlighted_text() -> String {
    let css = js_sys::Reflect::get(&js_sys::global(), &"CSS".into()).unwrap();
    let reg = js_sys::Reflect::get(&css, &"highlights".into()).unwrap();
    let get: js_sys::Function = js_sys::Reflect::get(&reg, &"get".into())
        .unwrap()
        .dyn_into()
        .unwrap();
    let h = get.call1(&reg, &"cite-active".into()).unwrap();
    if h.is_undefined() {
        return String::new();
    }
    let ranges = js_sys::Array::from(&h);
    ranges
        .iter()
        .map(|r| r.dyn_into::<web_sys::Range>().unwrap().to_string().into())
        .collect::<Vec<String>>()
        .join("|")
}

fn focus(el: &Element) {
    el.dyn_ref::<HtmlElement>().unwrap().focus().unwrap();
}

fn sample_data() -> serde_json::Value {
    json!({
        "1": {"title": "CLAUDE.md", "source": "https://docs.example.com/claude", "text": "AEGIS RAG is an agentic enterprise RAG system.", "score": 0.95},
        "2": {"title": "Architecture Overview", "source": "https://docs.example.com/arch", "text": "The system uses LangGraph for orchestration.", "score": 0.88},
        "3": {"title": "Uncited notes", "source": "https://notes.example.com/x", "text": "Never cited."}
    })
}

const SAMPLE: &str = "AEGIS RAG is an agentic enterprise RAG system [1] that uses LangGraph for multi-agent orchestration [2].\n\nBoth together [1][2]. Code stays: `[1]`\n\n```\nlet x = a[1];\n```\n";

fn mount_sample(panel: bool) -> (HtmlElement, Element) {
    let host = container();
    let handle = leptos::mount::mount_to(host.clone(), move || {
        view! { <CitedAnswer answer=SAMPLE.to_string() data=CiteData::Json(sample_data()) panel=panel/> }
    });
    handle.forget();
    let root: Element = host.first_element_child().expect("mounted");
    (host, root)
}

#[wasm_bindgen_test]
async fn renders_markers_panel_and_footnotes() {
    let (_host, root) = mount_sample(true);
    sleep(20).await;
    let links = all(&root, ".cite-answer__body .cite-marker__link");
    // [1], [2], then the group [1][2] = two links in one marker.
    assert_eq!(links.len(), 4, "{}", root.inner_html());
    assert_eq!(links[0].text_content().unwrap(), "1");
    assert_eq!(links[1].text_content().unwrap(), "2");
    assert_eq!(
        links[0].get_attribute("role").as_deref(),
        Some("doc-noteref")
    );
    assert!(links[0].get_attribute("href").unwrap().ends_with("-fn-1"));
    assert_eq!(links[0].parent_element().unwrap().tag_name(), "SUP");
    // Code is literal.
    let code = all(&root, ".cite-answer__body code");
    assert_eq!(code[0].text_content().unwrap(), "[1]");
    assert!(code[1].text_content().unwrap().contains("a[1]"));
    // Footnotes: two cited sources; source 1 is cited twice: back-links a, b.
    let notes = all(&root, ".cite-footnotes[role=doc-endnotes] li");
    assert_eq!(notes.len(), 2);
    let backs = all(&notes[0], "a[role=doc-backlink]");
    assert_eq!(
        backs
            .iter()
            .map(|b| b.text_content().unwrap())
            .collect::<Vec<_>>(),
        ["a", "b"]
    );
    // Panel: cited first, uncited dimmed last.
    let items = all(&root, "aside.cite-panel li.cite-source");
    assert_eq!(items.len(), 3);
    assert!(items[2].class_list().contains("cite-source--uncited"));
    assert!(one(&items[0], ".cite-source__count")
        .text_content()
        .unwrap()
        .contains('2'));
}

#[wasm_bindgen_test]
async fn focus_opens_card_and_escape_closes_it() {
    let (_host, root) = mount_sample(false);
    sleep(20).await;
    let link = one(&root, ".cite-marker__link");
    focus(&link);
    sleep(20).await;
    let card = one(&root, ".cite-card");
    assert!(!card.has_attribute("hidden"), "card opens on focus");
    assert_eq!(card.get_attribute("role").as_deref(), Some("tooltip"));
    assert_eq!(link.get_attribute("aria-describedby"), Some(card.id()));
    assert!(card.text_content().unwrap().contains("CLAUDE.md"));
    assert_eq!(
        link.parent_element()
            .unwrap()
            .get_attribute("data-state")
            .as_deref(),
        Some("open")
    );
    // The span of the focused marker is highlighted: the text from its anchor to its
    // marker is in the CSS highlight.
    let hl = highlighted_text();
    assert!(hl.contains("agentic enterprise RAG system"), "{hl:?}");
    assert!(!hl.contains("LangGraph"), "{hl:?}");
    key(&link, "Escape");
    sleep(20).await;
    assert!(card.has_attribute("hidden"), "Escape closes the card");
    assert_eq!(link.get_attribute("aria-describedby"), None);
}

/// A reader who reached a marker by keyboard, then presses on the card's text (to
/// select it, say): the press takes the focus to nothing, and the card stays open. A
/// press outside still closes it.
#[wasm_bindgen_test]
async fn a_press_on_the_card_keeps_the_card_of_a_focused_marker() {
    let (_host, root) = mount_sample(false);
    sleep(20).await;
    let link = one(&root, ".cite-marker__link");
    // A mouse press on `target` while `link` has the focus: pointerdown, then the
    // focus leaves for nothing (as a press on text does).
    let press = |target: &Element| {
        pointer(target, "pointerdown", "mouse", None);
        link.dyn_ref::<HtmlElement>().unwrap().blur().unwrap();
    };
    focus(&link);
    sleep(20).await;
    let card = one(&root, ".cite-card");
    assert!(!card.has_attribute("hidden"), "card opens on focus");
    press(&card);
    sleep(20).await;
    assert!(
        !card.has_attribute("hidden"),
        "a press on the card keeps it"
    );
    focus(&link);
    sleep(20).await;
    press(&doc().body().unwrap().into());
    sleep(20).await;
    assert!(card.has_attribute("hidden"), "a press outside closes it");
}

#[wasm_bindgen_test]
async fn enter_moves_focus_into_card_and_pager_pages() {
    let (_host, root) = mount_sample(false);
    sleep(20).await;
    // The group marker [1][2]: its second link has a 2-page card.
    let links = all(&root, ".cite-marker__link");
    let group_first = &links[2];
    focus(group_first);
    key(group_first, "Enter");
    sleep(50).await;
    let card = one(&root, ".cite-card");
    assert!(!card.has_attribute("hidden"));
    assert!(card.text_content().unwrap().contains("1/2"));
    let active = doc().active_element().unwrap();
    assert!(
        active.closest(".cite-card").unwrap().is_some(),
        "focus moved into the card"
    );
    let next = one(&card, "[data-nav=next]");
    click(&next);
    sleep(20).await;
    let card = one(&root, ".cite-card");
    assert!(
        card.text_content().unwrap().contains("2/2"),
        "{}",
        card.inner_html()
    );
    assert!(card
        .text_content()
        .unwrap()
        .contains("Architecture Overview"));
}

#[wasm_bindgen_test]
async fn hover_opens_after_delay_and_closes_on_leave() {
    let (_host, root) = mount_sample(false);
    sleep(20).await;
    let link = one(&root, ".cite-marker__link");
    pointer(&link, "pointerover", "mouse", None);
    let card = one(&root, ".cite-card");
    assert!(card.has_attribute("hidden"), "not before the delay");
    sleep(200).await;
    assert!(!card.has_attribute("hidden"), "open after the delay");
    // Moving into the card keeps it open.
    pointer(&link, "pointerout", "mouse", Some(&card));
    pointer(&card, "pointerover", "mouse", None);
    sleep(300).await;
    assert!(
        !card.has_attribute("hidden"),
        "stays open while the pointer is in it"
    );
    // Leaving the card closes it.
    let body: Element = doc().body().unwrap().into();
    pointer(&card, "pointerout", "mouse", Some(&body));
    sleep(300).await;
    assert!(card.has_attribute("hidden"), "closes after leaving");
}

#[wasm_bindgen_test]
async fn one_card_at_a_time() {
    let (_host, root) = mount_sample(false);
    sleep(20).await;
    let links = all(&root, ".cite-marker__link");
    focus(&links[0]);
    sleep(20).await;
    focus(&links[1]);
    sleep(20).await;
    let open: Vec<_> = all(&root, ".cite-marker[data-state=open]");
    assert_eq!(open.len(), 1);
    assert_eq!(links[0].get_attribute("aria-describedby"), None);
    assert!(links[1].get_attribute("aria-describedby").is_some());
}

#[wasm_bindgen_test]
async fn click_selects_source_in_panel_and_source_hover_highlights() {
    let (_host, root) = mount_sample(true);
    sleep(20).await;
    let links = all(&root, ".cite-marker__link");
    let prevented = click(&links[1]);
    assert!(
        prevented,
        "with a panel, a click selects instead of jumping"
    );
    sleep(30).await;
    let item = one(&root, "li.cite-source[data-source=\"2\"]");
    assert_eq!(
        item.get_attribute("data-state").as_deref(),
        Some("expanded")
    );
    assert_eq!(
        one(&item, "button")
            .get_attribute("aria-expanded")
            .as_deref(),
        Some("true")
    );
    let details = one(&item, ".cite-source__details");
    assert!(!details.has_attribute("hidden"));
    // The details are made when the entry is first expanded: the source's link.
    assert!(
        details
            .query_selector("a.cite-source__link")
            .unwrap()
            .is_some(),
        "{}",
        details.inner_html()
    );
    // Entries never expanded carry none (less to build on the first render).
    let other = one(
        &root,
        "li.cite-source[data-source=\"1\"] .cite-source__details",
    );
    assert_eq!(other.child_element_count(), 0);
    // Hovering source 1 in the panel highlights both of its markers' spans.
    let first = one(&root, "li.cite-source[data-source=\"1\"]");
    pointer(&first, "pointerover", "mouse", None);
    sleep(20).await;
    let markers = all(&root, ".cite-marker__link.cite-active");
    assert_eq!(markers.len(), 2, "both markers citing source 1");
    // Keyboard: focusing a panel entry does the same.
    pointer(&first, "pointerleave", "mouse", None);
    sleep(10).await;
    focus(&one(&root, "li.cite-source[data-source=\"2\"] button"));
    sleep(20).await;
    assert_eq!(all(&root, ".cite-marker__link.cite-active").len(), 2);
}

#[wasm_bindgen_test]
async fn tap_toggles_card_and_tap_outside_closes() {
    let (_host, root) = mount_sample(false);
    sleep(20).await;
    let link = one(&root, ".cite-marker__link");
    let card = one(&root, ".cite-card");
    pointer(&link, "pointerdown", "touch", None);
    assert!(click(&link), "a tap does not follow the link");
    sleep(20).await;
    assert!(!card.has_attribute("hidden"), "tap opens");
    pointer(&link, "pointerdown", "touch", None);
    click(&link);
    sleep(20).await;
    assert!(card.has_attribute("hidden"), "second tap closes");
    pointer(&link, "pointerdown", "touch", None);
    click(&link);
    sleep(20).await;
    assert!(!card.has_attribute("hidden"));
    let outside: Element = doc().body().unwrap().into();
    pointer(&outside, "pointerdown", "touch", None);
    sleep(20).await;
    assert!(card.has_attribute("hidden"), "tap outside closes");
}

#[wasm_bindgen_test]
async fn hostile_input_never_executes() {
    let host = container();
    let data = json!({
        "1": {"title": "<img src=x onerror=\"window.__pwned=1\">", "source": "javascript:window.__pwned=1", "text": "<script>window.__pwned=1</script>"},
        "2": {"title": "\" onmouseover=\"window.__pwned=1", "source": "JaVa\nScRiPt:window.__pwned=1"},
        "3": {"title": "cite-marker\" class=\"cite-active", "source": "data:text/html,<script>window.__pwned=1</script>"}
    });
    let answer = "Hi <script>window.__pwned=1</script> <img src=x onerror=window.__pwned=1> [a](javascript:window.__pwned=1) [1][2][3]\n\n<div class=\"cite-marker\" data-cite=\"0\">forged</div>";
    let h = leptos::mount::mount_to(host.clone(), move || {
        view! { <CitedAnswer answer=answer.to_string() data=CiteData::Json(data) panel=true/> }
    });
    h.forget();
    sleep(30).await;
    let root = host.first_element_child().unwrap();
    for link in all(&root, ".cite-marker__link") {
        focus(&link);
        sleep(10).await;
    }
    let html = host.inner_html();
    let pwned = js_sys::Reflect::get(&web_sys::window().unwrap(), &"__pwned".into()).unwrap();
    assert!(pwned.is_undefined(), "script ran");
    assert!(all(&root, "script").is_empty());
    assert!(all(&root, "img").is_empty());
    assert!(all(&root, "[onerror], [onmouseover]").is_empty(), "{html}");
    for a in all(&root, "a[href]") {
        let href = a.get_attribute("href").unwrap().to_lowercase();
        assert!(
            !href.contains("javascript") && !href.starts_with("data:"),
            "{href}"
        );
    }
    // The forged div is text, not an element with our classes.
    assert!(all(&root, "div.cite-marker").is_empty(), "{html}");
    assert!(root.text_content().unwrap().contains("forged"));
}

#[wasm_bindgen_test]
async fn citations_off_renders_plain_answer() {
    let host = container();
    let opts = Options {
        show_citations: false,
        ..Options::default()
    };
    let h = leptos::mount::mount_to(host.clone(), move || {
        view! { <CitedAnswer answer=SAMPLE.to_string() data=CiteData::Json(sample_data()) options=opts panel=true/> }
    });
    h.forget();
    sleep(20).await;
    let root = host.first_element_child().unwrap();
    assert!(all(&root, ".cite-marker").is_empty());
    assert!(all(&root, ".cite-panel").is_empty());
    assert!(all(&root, ".cite-footnotes").is_empty());
    let text = one(&root, ".cite-answer__body").text_content().unwrap();
    assert!(
        text.contains("system that uses LangGraph for multi-agent orchestration."),
        "{text}"
    );
    assert!(text.contains("a[1]"), "code untouched");
}

#[wasm_bindgen_test]
async fn reactive_update_keeps_unchanged_blocks() {
    let host = container();
    let answer = RwSignal::new("First para [1].\n\nSecond para.".to_string());
    let h = leptos::mount::mount_to(host.clone(), move || {
        view! { <CitedAnswer answer=answer data=CiteData::Json(sample_data())/> }
    });
    h.forget();
    sleep(20).await;
    let root = host.first_element_child().unwrap();
    let first = one(&root, ".cite-block");
    answer.set("First para [1].\n\nSecond para, longer [2].".to_string());
    sleep(20).await;
    let blocks = all(&root, ".cite-block");
    assert_eq!(blocks.len(), 2);
    assert!(
        blocks[0].is_same_node(Some(&first)),
        "the unchanged block is the same node"
    );
    assert!(blocks[1].text_content().unwrap().contains("longer"));
    let _ = Duration::from_millis(0);
}

#[wasm_bindgen_test]
async fn first_render_is_synchronous_and_later_effects_adopt_it() {
    let host = container();
    let answer = RwSignal::new(SAMPLE.to_string());
    let h = leptos::mount::mount_to(host.clone(), move || {
        view! { <CitedAnswer answer=answer data=CiteData::Json(sample_data())/> }
    });
    h.forget();
    // No await yet: the answer, its markers and footnotes are already there.
    let root = host.first_element_child().unwrap();
    assert_eq!(
        all(&root, ".cite-answer__body .cite-marker__link").len(),
        4,
        "{}",
        root.inner_html()
    );
    assert_eq!(all(&root, ".cite-footnotes li").len(), 2);
    let first = one(&root, ".cite-block");
    sleep(20).await;
    // The effects' first run keeps the nodes of the first render.
    assert!(one(&root, ".cite-block").is_same_node(Some(&first)));
    assert_eq!(all(&root, ".cite-block").len(), 3);
    assert_eq!(all(&root, ".cite-footnotes li").len(), 2);
    // A later change reaches the footnotes.
    answer.set("Only [2].".to_string());
    sleep(20).await;
    let notes = all(&root, ".cite-footnotes .cite-footnote");
    assert_eq!(notes.len(), 1);
    assert!(notes[0].text_content().unwrap().contains("Architecture"));
    // A change made before the effects first ran is not lost.
    let host2 = container();
    let answer2 = RwSignal::new("Old text [1].".to_string());
    let h2 = leptos::mount::mount_to(host2.clone(), move || {
        view! { <CitedAnswer answer=answer2 data=CiteData::Json(sample_data())/> }
    });
    h2.forget();
    answer2.set("New text [2].\n\nMore.".to_string());
    sleep(20).await;
    let root2 = host2.first_element_child().unwrap();
    let text = one(&root2, ".cite-answer__body").text_content().unwrap();
    assert!(text.contains("New text") && !text.contains("Old"), "{text}");
    assert_eq!(all(&root2, ".cite-block").len(), 2);
    let links = all(&root2, ".cite-answer__body .cite-marker__link");
    assert_eq!(links.len(), 1);
    assert!(links[0]
        .get_attribute("aria-label")
        .unwrap()
        .contains("Architecture"));
    // The footnotes follow too: one cited source now.
    let notes = all(&root2, ".cite-footnotes .cite-footnote");
    assert_eq!(notes.len(), 1, "{}", root2.inner_html());
    assert!(notes[0].text_content().unwrap().contains("Architecture"));
}

/// Calls method `name` of `target` with `args`.
fn call(
    target: &wasm_bindgen::JsValue,
    name: &str,
    args: &[&wasm_bindgen::JsValue],
) -> wasm_bindgen::JsValue {
    let f: js_sys::Function = js_sys::Reflect::get(target, &name.into())
        .unwrap()
        .dyn_into()
        .unwrap();
    let list = js_sys::Array::new();
    for a in args {
        list.push(a);
    }
    f.apply(target, &list).unwrap()
}

/// Selects everything in `el` (as a reader dragging over it would) and returns what
/// the selection would copy: `window.getSelection().toString()`.
fn select_and_copy_text(el: &Element) -> String {
    let range = doc().create_range().unwrap();
    range.select_node_contents(el).unwrap();
    let window: wasm_bindgen::JsValue = web_sys::window().unwrap().into();
    let selection = call(&window, "getSelection", &[]);
    call(&selection, "removeAllRanges", &[]);
    call(&selection, "addRange", &[&range.into()]);
    let text = call(&selection, "toString", &[]).as_string().unwrap();
    call(&selection, "removeAllRanges", &[]);
    text
}

#[wasm_bindgen_test]
async fn tap_focus_then_click_keeps_the_card_open() {
    // A finger's tap on a phone: pointerdown, then the focus, then the click. The focus
    // opens the card; the click of the same tap must not toggle it shut.
    let (_host, root) = mount_sample(false);
    sleep(20).await;
    let link = one(&root, ".cite-marker__link");
    let card = one(&root, ".cite-card");
    pointer(&link, "pointerdown", "touch", None);
    focus(&link);
    assert!(click(&link), "a tap does not follow the link");
    sleep(20).await;
    assert!(
        !card.has_attribute("hidden"),
        "the tap closed the card its focus opened"
    );
    assert!(card.text_content().unwrap().contains("CLAUDE.md"));
    // The second tap on the focused marker (no new focus) closes it.
    pointer(&link, "pointerdown", "touch", None);
    click(&link);
    sleep(20).await;
    assert!(card.has_attribute("hidden"), "second tap closes");
    // A tap on another marker (its focus closes the first card, opens its own).
    let other = all(&root, ".cite-marker__link")[1].clone();
    pointer(&link, "pointerdown", "touch", None);
    click(&link);
    sleep(20).await;
    pointer(&other, "pointerdown", "touch", None);
    focus(&other);
    click(&other);
    sleep(20).await;
    assert!(
        !card.has_attribute("hidden"),
        "a tap on another marker shows its card"
    );
    assert!(card
        .text_content()
        .unwrap()
        .contains("Architecture Overview"));
}

#[wasm_bindgen_test]
async fn copied_text_keeps_adjacent_markers_apart() {
    let (_host, root) = mount_sample(false);
    sleep(20).await;
    let body = one(&root, ".cite-answer__body");
    let copied = select_and_copy_text(&body);
    assert!(copied.contains("Both together1, 2."), "copied: {copied:?}");
    assert!(!copied.contains("12"), "copied: {copied:?}");
    // The separator is an element inside the marker's <sup>, and takes no room on screen:
    // the two links of the group sit as close as the links of one marker always did.
    let links = all(&root, ".cite-answer__body .cite-marker__link");
    let sup = links[2].parent_element().unwrap();
    assert!(links[3].parent_element().unwrap().is_same_node(Some(&sup)));
    assert_eq!(sup.text_content().unwrap(), "1, 2");
    let a = links[2].get_bounding_client_rect();
    let b = links[3].get_bounding_client_rect();
    let gap = b.left() - a.right();
    assert!((0.0..3.0).contains(&gap), "gap between the links: {gap}px");
    // The links keep their size: 0.72 of the text around them.
    let size = |el: &Element| {
        let s = web_sys::window()
            .unwrap()
            .get_computed_style(el)
            .unwrap()
            .unwrap()
            .get_property_value("font-size")
            .unwrap();
        s.trim_end_matches("px").parse::<f64>().unwrap()
    };
    let ratio = size(&links[2]) / size(&sup.parent_element().unwrap());
    assert!((ratio - 0.72).abs() < 0.01, "marker size ratio {ratio}");
    let separator = one(&sup, ".cite-marker__sep");
    assert_eq!(size(&separator), 0.0, "the separator takes no room");
}

const RTL_ANSWER: &str = "باريس هي عاصمة فرنسا [1][2]. يقع برج إيفل في باريس [2].";

#[wasm_bindgen_test]
async fn right_to_left_answers_keep_markers_and_labels_apart() {
    let host = container();
    host.set_attribute("dir", "rtl").unwrap();
    host.set_attribute("lang", "ar").unwrap();
    let data = json!({
        "1": {"title": "Paris - Wikipedia", "source": "https://en.wikipedia.org/wiki/Paris", "text": "Paris is the capital of France."},
        "2": {"title": "برج إيفل", "source": "https://ar.wikipedia.org/wiki/Eiffel", "text": "برج إيفل في باريس."}
    });
    leptos::mount::mount_to(host.clone(), move || {
        view! { <CitedAnswer answer=RTL_ANSWER.to_string() data=CiteData::Json(data.clone()) panel=true/> }
    })
    .forget();
    sleep(20).await;
    let root = host.first_element_child().unwrap();
    let links = all(&root, ".cite-answer__body .cite-marker__link");
    assert_eq!(links.len(), 3, "{}", root.inner_html());
    // [1][2] in right-to-left text: 1 first, so on the right, then 2 to its left (not
    // one left-to-right run reading `12`).
    let first = links[0].get_bounding_client_rect();
    let second = links[1].get_bounding_client_rect();
    assert!(
        first.left() > second.right() - 0.5,
        "marker 1 at {}..{}, marker 2 at {}..{}",
        first.left(),
        first.right(),
        second.left(),
        second.right()
    );
    // The English label `cited 2×` is one element of its own direction: `×` ends it
    // on the right, after `cited`, instead of jumping to the left end.
    let count = all(&root, ".cite-source__count")
        .into_iter()
        .find(|c| c.text_content().unwrap().contains('2'))
        .expect("a count of 2");
    assert_eq!(count.text_content().unwrap(), "cited 2×");
    let style = web_sys::window()
        .unwrap()
        .get_computed_style(&count)
        .unwrap()
        .unwrap();
    assert_eq!(style.get_property_value("direction").unwrap(), "ltr");
    let text_node = count.first_child().unwrap();
    let char_left = |i: u32| {
        let r = doc().create_range().unwrap();
        r.set_start(&text_node, i).unwrap();
        r.set_end(&text_node, i + 1).unwrap();
        r.get_bounding_client_rect().left()
    };
    let times = "cited 2".encode_utf16().count() as u32;
    assert!(char_left(times) > char_left(0), "`×` is left of `cited`");
    // An English title in the panel and the footnotes reads left to right.
    for sel in [".cite-source__title", ".cite-footnote__title"] {
        let el = one(&root, sel);
        assert_eq!(el.get_attribute("dir").as_deref(), Some("auto"), "{sel}");
    }
}

/// An answer citing `n` sources (each with a title, a url and a snippet), source `n`
/// last, and its citation map.
fn many_sources(n: u32) -> (String, serde_json::Value) {
    let mut answer = String::from("A survey of the city.");
    let mut data = serde_json::Map::new();
    for k in 1..=n {
        answer.push_str(&format!(" Fact {k} holds [{k}]."));
        data.insert(
            k.to_string(),
            json!({
                "title": format!("Source number {k} on the history of the city"),
                "source": format!("https://s{k}.example.com/page"),
                "text": format!("Excerpt {k}: a passage long enough to take two lines in the panel, as a real snippet does."),
                "score": 0.5
            }),
        );
    }
    (answer, serde_json::Value::Object(data))
}

/// Waits until the page and `scroller` have stopped scrolling (smooth scrolls run for
/// a few hundred milliseconds), for at most two seconds.
async fn scrolled(scroller: &Element) {
    let window = web_sys::window().unwrap();
    let at = || (window.scroll_y().unwrap(), scroller.scroll_top());
    let mut last = at();
    let mut still = 0;
    for _ in 0..40 {
        sleep(50).await;
        let now = at();
        still = if now == last { still + 1 } else { 0 };
        last = now;
        if still >= 4 {
            return;
        }
    }
}

/// Whether `inner`'s box lies inside `outer`'s (a pixel of rounding allowed).
fn inside(inner: &web_sys::DomRect, outer: (f64, f64)) -> bool {
    inner.top() >= outer.0 - 1.0 && inner.bottom() <= outer.1 + 1.0
}

/// The part of `el`'s box on screen, top and bottom.
fn on_screen(el: &Element) -> (f64, f64) {
    let r = el.get_bounding_client_rect();
    let height = web_sys::window()
        .unwrap()
        .inner_height()
        .unwrap()
        .as_f64()
        .unwrap();
    (r.top().max(0.0), r.bottom().min(height))
}

/// Regression: a click on the marker of a source low in a long panel scrolled the page
/// (the answer left the screen) and still left the entry below the fold, measured
/// before it was laid out expanded. Beside the answer the panel keeps to the viewport
/// and scrolls itself to the entry, the page stays; Enter does the same; below the
/// answer the page scrolls to the entry.
#[wasm_bindgen_test]
async fn marker_click_left_its_panel_entry_out_of_sight() {
    let host: HtmlElement = doc().create_element("div").unwrap().dyn_into().unwrap();
    host.style().set_property("width", "1100px").unwrap();
    let body = doc().body().unwrap();
    body.insert_before(&host, body.first_child().as_ref())
        .unwrap();
    let (answer, data) = many_sources(30);
    leptos::mount::mount_to(host.clone(), move || {
        view! { <CitedAnswer answer=answer.clone() data=CiteData::Json(data.clone()) panel=true/> }
    })
    .forget();
    let window = web_sys::window().unwrap();
    window.scroll_to_with_x_and_y(0.0, 0.0);
    sleep(50).await;
    let root: Element = host.first_element_child().expect("mounted");
    let panel = one(&root, ".cite-panel");
    assert_eq!(root.get_attribute("data-panel").as_deref(), Some("beside"));
    let links = all(&root, ".cite-answer__body .cite-marker__link");
    assert_eq!(links.len(), 30);

    click(&links[29]);
    scrolled(&panel).await;
    let entry = one(&root, "li.cite-source[data-source=\"30\"]");
    assert_eq!(
        entry.get_attribute("data-state").as_deref(),
        Some("expanded")
    );
    assert_eq!(window.scroll_y().unwrap(), 0.0, "the page scrolled");
    let shown = on_screen(&panel);
    let r = entry.get_bounding_client_rect();
    assert!(
        inside(&r, shown),
        "entry 30 at {}..{}, the panel shows {}..{}",
        r.top(),
        r.bottom(),
        shown.0,
        shown.1
    );

    // Enter on the first marker brings source 1 back.
    focus(&links[0]);
    key(&links[0], "Enter");
    scrolled(&panel).await;
    let first = one(&root, "li.cite-source[data-source=\"1\"]");
    assert_eq!(
        first.get_attribute("data-state").as_deref(),
        Some("expanded")
    );
    assert_eq!(
        window.scroll_y().unwrap(),
        0.0,
        "the page scrolled on Enter"
    );
    let r = first.get_bounding_client_rect();
    assert!(
        inside(&r, on_screen(&panel)),
        "entry 1 at {}..{}",
        r.top(),
        r.bottom()
    );
    key(&links[0], "Escape");

    // Below the answer (a narrow column) the page scrolls to the entry.
    host.style().set_property("width", "500px").unwrap();
    // The resize observer reports after a layout: on a loaded machine later than 50 ms.
    for _ in 0..40 {
        sleep(25).await;
        if root.get_attribute("data-panel").as_deref() == Some("below") {
            break;
        }
    }
    assert_eq!(root.get_attribute("data-panel").as_deref(), Some("below"));
    click(&links[29]);
    scrolled(&panel).await;
    let r = entry.get_bounding_client_rect();
    let height = window.inner_height().unwrap().as_f64().unwrap();
    assert!(
        inside(&r, (0.0, height)),
        "entry 30 at {}..{} in a window {height} high",
        r.top(),
        r.bottom()
    );
    assert_eq!(
        entry.get_attribute("data-state").as_deref(),
        Some("expanded")
    );
    host.remove();
    window.scroll_to_with_x_and_y(0.0, 0.0);
}

/// Starts counting the listeners added to `window` (each event, function and phase
/// once, as the browser keeps them); the returned function stops counting and gives
/// the count.
fn count_window_listeners() -> js_sys::Function {
    let start = js_sys::Function::new_no_args(
        r#"
        const add = EventTarget.prototype.addEventListener;
        const seen = [];
        EventTarget.prototype.addEventListener = function (type, f, options) {
          if (this === window) {
            const capture = typeof options === 'boolean' ? options : Boolean(options && options.capture);
            if (!seen.some(([t, g, c]) => t === type && g === f && c === capture)) seen.push([type, f, capture]);
          }
          return add.call(this, type, f, options);
        };
        return () => { EventTarget.prototype.addEventListener = add; return seen.length; };
        "#,
    );
    start.call0(&wasm_bindgen::JsValue::NULL).unwrap().into()
}

/// Regression: every answer added its own window listeners (a press, a key, a scroll
/// and a resize: 800 for the 200 answers of a long conversation), and every scroll ran
/// each answer's handler. The page's listeners are added once, whatever the number of
/// answers, and reach the answer whose card is open.
#[wasm_bindgen_test]
async fn two_hundred_answers_add_the_page_listeners_once() {
    let stop = count_window_listeners();
    let mut handles = Vec::new();
    let roots: Vec<Element> = (0..200)
        .map(|_| {
            let host = container();
            handles.push(leptos::mount::mount_to(host.clone(), move || {
                view! { <CitedAnswer answer=SAMPLE.to_string() data=CiteData::Json(sample_data())/> }
            }));
            host.first_element_child().expect("mounted")
        })
        .collect();
    sleep(50).await;
    let added = stop.call0(&wasm_bindgen::JsValue::NULL).unwrap();
    let added = added.as_f64().unwrap();
    assert!(
        added <= 4.0,
        "200 answers added {added} listeners to the window"
    );
    // The page's listeners serve the answer whose card is open: Escape anywhere closes
    // the last answer's card, and opening a card in one answer closes another's.
    let last = roots.last().unwrap();
    let link = one(last, ".cite-marker__link");
    focus(&link);
    sleep(20).await;
    let card = one(last, ".cite-card");
    assert!(!card.has_attribute("hidden"), "card opens on focus");
    key(&doc().body().unwrap().into(), "Escape");
    sleep(20).await;
    assert!(card.has_attribute("hidden"), "Escape on the page closes it");
    let first_link = one(&roots[0], ".cite-marker__link");
    pointer(&link, "pointerdown", "touch", None);
    click(&link);
    sleep(20).await;
    assert!(
        !card.has_attribute("hidden"),
        "a tap opens the last answer's card"
    );
    pointer(&first_link, "pointerdown", "touch", None);
    click(&first_link);
    sleep(20).await;
    assert!(
        !one(&roots[0], ".cite-card").has_attribute("hidden"),
        "a tap opens the first answer's card"
    );
    assert!(card.has_attribute("hidden"), "one card on the page");
    // Unmounted with a card open: the page's events leave the answers alone (their
    // signals are gone; reading one would panic).
    let hosts: Vec<Element> = roots.iter().map(|r| r.parent_element().unwrap()).collect();
    drop(handles);
    sleep(20).await;
    let body: Element = doc().body().unwrap().into();
    pointer(&body, "pointerdown", "mouse", None);
    key(&body, "Escape");
    web_sys::window()
        .unwrap()
        .dispatch_event(&web_sys::Event::new("resize").unwrap())
        .unwrap();
    sleep(20).await;
    for host in hosts {
        assert!(host.first_element_child().is_none(), "unmounted");
        host.remove();
    }
}
