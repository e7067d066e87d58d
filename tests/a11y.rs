//! Accessibility of every component in headless Chromium, checked by axe-core (npm
//! package `axe-core`, compiled in from `node_modules`): a page with answers in the
//! dark and the light theme, marker styles number, grouped and domain, an Arabic answer
//! in a right-to-left section, the source
//! panel with a selected entry, footnotes, the copy button, open hover cards (one by
//! focus, one by hover), and a `CitationProvider` placing the panel and the footnotes
//! apart from the answer. `axe.run` over the whole document with the WCAG 2.0/2.1 A and
//! AA rules and axe's best practices must report no violation.
//!
//! The wasm-bindgen-test page itself has no `<title>`, no `lang` and no main landmark or
//! `<h1>`: the test sets the title and `lang` and mounts everything in a `<main>` under
//! an `<h1>`, as a host page would. Nothing of citekit is excluded.
#![cfg(all(target_arch = "wasm32", feature = "csr"))]

use citekit::core::options::{MarkerStyle, Options, Theme};
use citekit::web::{CitationProvider, CiteData, CitedAnswer, Footnotes, SourcePanel};
use js_sys::{Array, Reflect};
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

const AXE: &str = include_str!("../node_modules/axe-core/axe.min.js");

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

fn one(root: &Element, sel: &str) -> Element {
    root.query_selector(sel)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {sel}"))
}

fn all(root: &Element, sel: &str) -> Vec<Element> {
    let list = root.query_selector_all(sel).unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().dyn_into::<Element>().unwrap())
        .collect()
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

fn text(v: &JsValue, key: &str) -> String {
    let x = get(v, key);
    x.as_string().unwrap_or_else(|| {
        js_sys::JSON::stringify(&x)
            .map(String::from)
            .unwrap_or_default()
    })
}

fn data() -> serde_json::Value {
    json!({
        "1": {"title": "Annual report 2024", "source": "https://reports.example.com/2024",
              "text": "Revenue grew by twelve percent over the year.", "score": 0.93,
              "metadata": {"page": 4}},
        "2": {"title": "Market overview", "source": "https://www.markets.example.org/overview",
              "text": "The market expanded in every region.", "score": 0.81},
        "3": {"title": "Board minutes", "source": "https://minutes.example.net/q3",
              "text": "The board approved the plan."},
        "4": {"title": "Never cited", "source": "https://uncited.example.com/x",
              "text": "This source is listed but not cited."}
    })
}

const ANSWER: &str = "## Results\n\nRevenue grew by **twelve percent** [1] as the market expanded [2][3].\n\n- The board approved the plan [3].\n- Growth held in every region [1][2].\n\nSee `config[1]` and [the report](https://reports.example.com/2024) [1].\n";

fn opts(theme: Theme, style: MarkerStyle) -> Options {
    Options {
        theme,
        marker_style: style,
        ..Options::default()
    }
}

/// A `<section>` under `main` with a heading, holding a fresh mount point.
fn section(main: &Element, title: &str) -> HtmlElement {
    let s = doc().create_element("section").unwrap();
    let h = doc().create_element("h2").unwrap();
    h.set_text_content(Some(title));
    let id = format!("s-{}", main.child_element_count());
    h.set_id(&id);
    s.set_attribute("aria-labelledby", &id).unwrap();
    s.append_child(&h).unwrap();
    let host: HtmlElement = doc().create_element("div").unwrap().dyn_into().unwrap();
    s.append_child(&host).unwrap();
    main.append_child(&s).unwrap();
    host
}

fn pointer(el: &Element, kind: &str) {
    let init = web_sys::PointerEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_pointer_type("mouse");
    let ev = web_sys::PointerEvent::new_with_event_init_dict(kind, &init).unwrap();
    el.dispatch_event(&ev).unwrap();
}

fn click(el: &Element) {
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    let ev = web_sys::MouseEvent::new_with_mouse_event_init_dict("click", &init).unwrap();
    el.dispatch_event(&ev).unwrap();
}

/// axe's WCAG 2.0/2.1 A and AA rules and its best practices.
const TAGS: &str = r#"{"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}, "resultTypes": ["violations", "incomplete"]}"#;

/// Runs axe-core (injected once) over `context` with `options` (JSON); its results.
async fn run_axe(context: &JsValue, options: &str) -> JsValue {
    let window = web_sys::window().unwrap();
    if !get(&window, "axe").is_object() {
        let script = doc().create_element("script").unwrap();
        script.set_text_content(Some(AXE));
        doc().head().unwrap().append_child(&script).unwrap();
    }
    let axe = get(&window, "axe");
    assert!(axe.is_object(), "axe-core did not load");
    let run: js_sys::Function = get(&axe, "run").dyn_into().unwrap();
    let options = js_sys::JSON::parse(options).unwrap();
    let promise: js_sys::Promise = run
        .call2(&axe, context, &options)
        .unwrap()
        .dyn_into()
        .unwrap();
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .expect("axe.run failed")
}

/// axe's violations in `results`: how many, and a report (each rule, then its nodes).
fn violations(results: &JsValue) -> (u32, String) {
    let violations: Array = get(results, "violations").dyn_into().unwrap();
    let mut report = String::new();
    for v in violations.iter() {
        report.push_str(&format!(
            "\n{} [{}] {} ({})",
            text(&v, "id"),
            text(&v, "impact"),
            text(&v, "help"),
            text(&v, "helpUrl")
        ));
        let nodes: Array = get(&v, "nodes").dyn_into().unwrap();
        report.push_str(&format!(" — {} node(s)", nodes.length()));
        for n in nodes.iter().take(12) {
            report.push_str(&format!(
                "\n    {}: {}",
                text(&n, "target"),
                text(&n, "failureSummary").replace('\n', " | ")
            ));
        }
    }
    (violations.length(), report)
}

#[wasm_bindgen_test]
async fn every_component_passes_axe() {
    // What a host page provides: title, language, a main landmark with a heading.
    doc().set_title("citekit accessibility test");
    doc()
        .document_element()
        .unwrap()
        .set_attribute("lang", "en")
        .unwrap();
    let main = doc().create_element("main").unwrap();
    let h1 = doc().create_element("h1").unwrap();
    h1.set_text_content(Some("Answers with citations"));
    main.append_child(&h1).unwrap();
    doc().body().unwrap().append_child(&main).unwrap();

    // 1. Dark theme, number markers, panel, footnotes, copy button, on a background
    // the host sets through `--cite-bg` (a forced theme otherwise paints its own).
    let a = section(&main, "Dark, numbers");
    a.style().set_property("--cite-bg", "#0d1117").unwrap();
    let o = opts(Theme::Dark, MarkerStyle::Number);
    leptos::mount::mount_to(a.clone(), move || {
        view! { <CitedAnswer answer=format!("Answer 1: {ANSWER}") data=CiteData::Json(data()) options=o panel=true copy_button=true/> }
    })
    .forget();
    // 2. Light theme, grouped markers, panel, footnotes, copy button.
    let b = section(&main, "Light, grouped");
    let o = opts(Theme::Light, MarkerStyle::Grouped);
    leptos::mount::mount_to(b.clone(), move || {
        view! { <CitedAnswer answer=format!("Answer 2: {ANSWER}") data=CiteData::Json(data()) options=o panel=true copy_button=true/> }
    })
    .forget();
    // 3. Dark theme, domain markers.
    let c = section(&main, "Dark, domains");
    c.style().set_property("--cite-bg", "#0d1117").unwrap();
    let o = opts(Theme::Dark, MarkerStyle::Domain);
    leptos::mount::mount_to(c.clone(), move || {
        view! { <CitedAnswer answer=format!("Answer 3: {ANSWER}") data=CiteData::Json(data()) options=o panel=true/> }
    })
    .forget();
    // 4. Light theme, domain markers, panel and footnotes placed by a provider.
    let d = section(&main, "Light, provider");
    let o = opts(Theme::Light, MarkerStyle::Domain);
    leptos::mount::mount_to(d.clone(), move || {
        view! {
            <CitationProvider>
                <CitedAnswer answer=format!("Answer 4: {ANSWER}") data=CiteData::Json(data()) options=o footnotes=false/>
                <SourcePanel/>
                <Footnotes/>
            </CitationProvider>
        }
    })
    .forget();
    // 5. A right-to-left (Arabic) answer, light theme, number markers, panel.
    let e = section(&main, "Right to left");
    e.set_attribute("dir", "rtl").unwrap();
    e.set_attribute("lang", "ar").unwrap();
    let o = opts(Theme::Light, MarkerStyle::Number);
    leptos::mount::mount_to(e.clone(), move || {
        view! { <CitedAnswer answer="باريس هي عاصمة فرنسا [1][2]. برج إيفل في باريس [2].".to_string() data=CiteData::Json(data()) options=o panel=true/> }
    })
    .forget();
    sleep(50).await;
    for host in [&a, &b, &c, &d, &e] {
        assert!(
            !all(host, ".cite-marker__link").is_empty(),
            "{}",
            host.inner_html()
        );
    }

    // A selected panel entry (marker click) and a card opened by focus in answer 1.
    let link = one(&a, ".cite-marker__link");
    click(&all(&a, ".cite-marker__link")[1]);
    sleep(20).await;
    assert!(one(&a, "li.cite-source[data-state=expanded]").is_connected());
    link.dyn_ref::<HtmlElement>().unwrap().focus().unwrap();
    sleep(30).await;
    assert!(
        !one(&a, ".cite-card").has_attribute("hidden"),
        "card 1 open"
    );
    // A card opened by hover in answer 2 (the group marker: a card with a pager).
    let group = all(&b, ".cite-marker__link")[1].clone();
    pointer(&group, "pointerover");
    sleep(250).await;
    assert!(
        !one(&b, ".cite-card").has_attribute("hidden"),
        "card 2 open"
    );
    // Panel entries hovered in answers 3 and 4: markers and spans highlighted, a link
    // inside a highlighted span.
    pointer(&one(&c, "li.cite-source"), "pointerover");
    pointer(&one(&d, "li.cite-source"), "pointerover");
    sleep(20).await;
    assert!(!all(&d, ".cite-active").is_empty());
    // Text spans are a CSS Custom Highlight: no elements, so axe cannot check their
    // colours (`--cite-highlight`: the values axe passed on span elements, before
    // b3c0819 drew spans as a highlight).
    let css = js_sys::Reflect::get(&js_sys::global(), &"CSS".into()).unwrap();
    let reg = js_sys::Reflect::get(&css, &"highlights".into()).unwrap();
    let has: js_sys::Function = js_sys::Reflect::get(&reg, &"has".into())
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_eq!(
        has.call1(&reg, &"cite-active".into()).unwrap().as_bool(),
        Some(true),
        "{}",
        c.inner_html()
    );

    // Let transitions (120 ms) finish so colours are final.
    sleep(300).await;

    let window = web_sys::window().unwrap();
    let results = run_axe(&doc().into(), TAGS).await;
    let axe = get(&window, "axe");
    let (count, report) = violations(&results);
    console_log!("axe-core {}: {} violation(s)", text(&axe, "version"), count);
    let incomplete: Array = get(&results, "incomplete").dyn_into().unwrap();
    for v in incomplete.iter() {
        let nodes: Array = get(&v, "nodes").dyn_into().unwrap();
        console_log!(
            "needs review: {} — {} node(s)",
            text(&v, "id"),
            nodes.length()
        );
        for n in nodes.iter().take(3) {
            console_log!(
                "    {}: {}",
                text(&n, "target"),
                text(&n, "failureSummary").replace('\n', " | ")
            );
        }
    }
    assert_eq!(count, 0, "axe violations:{report}");
}

/// Regression: a forced theme left the root transparent, so the dark theme's light text
/// sat on a white page (1.18:1) and the light theme's dark text on a dark one. Each
/// forced theme on a page of the opposite colour without `--cite-bg`, and on pages
/// that set it (a colour, or `transparent` over a page of the theme's colour), passes
/// axe's `color-contrast` with the card closed and open; the root's background is the
/// theme's own, or the one `--cite-bg` names.
#[wasm_bindgen_test]
async fn forced_dark_theme_was_unreadable_on_a_light_page() {
    let body = doc().body().unwrap();
    let cases = [
        // (theme, the page's style)
        (Theme::Dark, "background: #ffffff; color: #000000"),
        (
            Theme::Light,
            "background: #0d1117; color: #e6edf3; color-scheme: dark",
        ),
        (Theme::Dark, "background: #22272e; --cite-bg: #22272e"),
        (Theme::Light, "background: #f6f8fa; --cite-bg: #f6f8fa"),
        (Theme::Dark, "background: #0d1117; --cite-bg: transparent"),
    ];
    let mut pages = Vec::new();
    for (k, (theme, style)) in cases.into_iter().enumerate() {
        let page: HtmlElement = doc().create_element("div").unwrap().dyn_into().unwrap();
        page.set_attribute("style", style).unwrap();
        body.append_child(&page).unwrap();
        let o = opts(theme, MarkerStyle::Number);
        leptos::mount::mount_to(page.clone(), move || {
            view! { <CitedAnswer answer=format!("Themed {k}: {ANSWER}") data=CiteData::Json(data()) options=o panel=true/> }
        })
        .forget();
        pages.push(page);
    }
    sleep(300).await;
    // Failures are collected and the pages removed before any assertion: the other
    // test audits the whole document.
    let contrast = r#"{"runOnly": {"type": "rule", "values": ["color-contrast"]}}"#;
    let mut failures = String::new();
    for (k, page) in pages.iter().enumerate() {
        let (count, report) = violations(&run_axe(&page.clone().into(), contrast).await);
        if count > 0 {
            failures.push_str(&format!("\ncase {k}, card closed:{report}"));
        }
        let link = one(page, ".cite-marker__link");
        link.dyn_ref::<HtmlElement>().unwrap().focus().unwrap();
        sleep(300).await;
        if one(page, ".cite-card").has_attribute("hidden") {
            failures.push_str(&format!("\ncase {k}: the card did not open"));
        }
        let (count, report) = violations(&run_axe(&page.clone().into(), contrast).await);
        if count > 0 {
            failures.push_str(&format!("\ncase {k}, card open:{report}"));
        }
        link.dyn_ref::<HtmlElement>().unwrap().blur().unwrap();
    }
    let backgrounds: Vec<String> = pages
        .iter()
        .map(|p| {
            web_sys::window()
                .unwrap()
                .get_computed_style(&one(p, ".cite-root"))
                .unwrap()
                .unwrap()
                .get_property_value("background-color")
                .unwrap()
        })
        .collect();
    for page in pages {
        page.remove();
    }
    assert_eq!(failures, "", "color-contrast violations");
    assert_eq!(
        backgrounds,
        [
            "rgb(15, 20, 25)",
            "rgb(255, 255, 255)",
            "rgb(34, 39, 46)",
            "rgb(246, 248, 250)",
            "rgba(0, 0, 0, 0)"
        ]
    );
}
