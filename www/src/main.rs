//! The citekit demo page: a gallery of every input format, a playground, a streaming
//! demo, the options, and how to use citekit from JS, a custom element and Leptos.

use citekit::core::model::{Format, Severity};
use citekit::core::options::{FormatChoice, MarkerStyle, Numbering, Options, Theme, Uncited};
use citekit::web::{CiteData, CitedAnswer};
use leptos::prelude::*;
use serde_json::Value;
use std::time::Duration;

/// One gallery example: a fixture of the test suite (real-shaped payloads).
struct Example {
    format: Format,
    label: &'static str,
    blurb: &'static str,
    fixture: &'static str,
    /// The file is the data itself (a recorded message), not a fixture case.
    whole_data: bool,
}

const EXAMPLES: &[Example] = &[
    Example {
        format: Format::CitationMap,
        label: "citation_map",
        blurb: "Perplexity-style [1] markers with a citation map, as a RAG chat backend returns them.",
        fixture: include_str!("../../tests/fixtures/citation_map/seed.json"),
        whole_data: false,
    },
    Example {
        format: Format::Stored,
        label: "stored",
        blurb: "Post-hoc citations stored as UTF-16 spans over the plain answer.",
        fixture: include_str!("../../tests/fixtures/stored/seed.json"),
        whole_data: false,
    },
    Example {
        format: Format::Posthoc,
        label: "posthoc",
        blurb: "A fast LLM's post-hoc claims, located in the answer.",
        fixture: include_str!("../../tests/fixtures/posthoc/seed.json"),
        whole_data: false,
    },
    Example {
        format: Format::Sse,
        label: "sse",
        blurb: "A server-sent event stream: tokens, then the citation map.",
        fixture: include_str!("../../tests/fixtures/sse/seed.json"),
        whole_data: false,
    },
    Example {
        format: Format::Scintilla,
        label: "scintilla",
        blurb: "An agent's numbered tool metadata; identifiers like MKT-1183 become links.",
        fixture: include_str!("../../tests/fixtures/scintilla/seed.json"),
        whole_data: false,
    },
    Example {
        format: Format::Canonical,
        label: "canonical",
        blurb: "[[S:n]] sid markers in the generate_content_llm envelope.",
        fixture: include_str!("../../tests/fixtures/canonical/envelope_markdown.json"),
        whole_data: false,
    },
    Example {
        format: Format::Canonical,
        label: "canonical html",
        blurb: "An HTML answer with <sup class=\"cite\" data-sids> sid markers.",
        fixture: include_str!("../../tests/fixtures/canonical/envelope_html.json"),
        whole_data: false,
    },
    Example {
        format: Format::Canonical,
        label: "canonical json",
        blurb: "A JSON answer with a _citations sidecar of JSON Pointers.",
        fixture: include_str!("../../tests/fixtures/canonical/json_sidecar.json"),
        whole_data: false,
    },
    Example {
        format: Format::Payload,
        label: "payload",
        blurb: "A chat client's unified citation payload with provider locations.",
        fixture: include_str!("../../tests/fixtures/payload/url_citations.json"),
        whole_data: false,
    },
    Example {
        format: Format::Anthropic,
        label: "anthropic",
        blurb: "Anthropic Messages API text blocks with document citations.",
        fixture: include_str!("../../tests/fixtures/anthropic/documents.json"),
        whole_data: false,
    },
    Example {
        format: Format::Openai,
        label: "openai",
        blurb: "OpenAI Responses API url_citation annotations (UTF-16 offsets).",
        fixture: include_str!("../../tests/fixtures/openai/responses_web_search.json"),
        whole_data: false,
    },
    Example {
        format: Format::Gemini,
        label: "gemini",
        blurb: "Gemini grounding metadata with UTF-8 byte offsets.",
        fixture: include_str!("../../tests/fixtures/gemini/google_search.json"),
        whole_data: false,
    },
    Example {
        format: Format::Perplexity,
        label: "perplexity",
        blurb: "A Perplexity sonar completion with citations and search results.",
        fixture: include_str!("../../tests/fixtures/perplexity/sonar_completion.json"),
        whole_data: false,
    },
    Example {
        format: Format::AiSdk,
        label: "ai-sdk",
        blurb: "A Vercel AI SDK UIMessage as useChat holds it (recorded with the real SDK over Anthropic web search): citations placed from the provider's own data, an uncited search result listed as a source of the whole answer.",
        fixture: include_str!("../../tests/recorded/ai-sdk/anthropic-web-search.message.json"),
        whole_data: true,
    },
    Example {
        format: Format::CitationMap,
        label: "right to left",
        blurb: "An Arabic answer on a right-to-left page: adjacent markers stay apart, English titles keep their order.",
        fixture: include_str!("../../tests/fixtures/citation_map/rtl_arabic.json"),
        whole_data: false,
    },
];

/// The direction of a text, from its first strong letter (what `dir="auto"` does, but
/// for the whole rendering: the panel moves to the left too).
fn text_dir(text: &str) -> &'static str {
    for c in text.chars() {
        let rtl = matches!(c,
            '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}');
        if rtl {
            return "rtl";
        }
        if c.is_alphabetic() {
            return "ltr";
        }
    }
    "ltr"
}

/// (answer, data, options) of an example's file.
fn example_parts(ex: &Example) -> (Option<String>, CiteData, Value) {
    if ex.whole_data {
        let data = serde_json::from_str(ex.fixture).map_or(CiteData::None, CiteData::Json);
        return (None, data, Value::Null);
    }
    fixture_parts(ex.fixture)
}

/// (answer, data, options) of a fixture file.
fn fixture_parts(text: &str) -> (Option<String>, CiteData, Value) {
    let v: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    let case = match v.get("cases").and_then(Value::as_array) {
        Some(c) => c.first().cloned().unwrap_or(Value::Null),
        None => v,
    };
    let answer = case
        .get("answer")
        .and_then(Value::as_str)
        .map(str::to_string);
    let data = match case.get("data") {
        None | Some(Value::Null) => CiteData::None,
        Some(Value::String(s)) => CiteData::Text(s.clone()),
        Some(d) => CiteData::Json(d.clone()),
    };
    let opts = case.get("options").cloned().unwrap_or(Value::Null);
    (answer, data, opts)
}

fn data_text(d: &CiteData) -> String {
    match d {
        CiteData::None => String::new(),
        CiteData::Json(v) => serde_json::to_string_pretty(v).unwrap_or_default(),
        CiteData::Text(t) => t.clone(),
    }
}

fn with_fixture_options(base: &Options, fixture_opts: &Value) -> Options {
    let mut o = base.clone();
    if let Some(f) = fixture_opts
        .get("format")
        .and_then(Value::as_str)
        .and_then(Format::from_name)
    {
        o.format = FormatChoice::Given(f);
    }
    if let Some(e) = fixture_opts.get("inputEncoding") {
        o.input_encoding = serde_json::from_value(e.clone()).ok();
    }
    o
}

fn theme_name(t: Theme) -> &'static str {
    match t {
        Theme::Auto => "auto",
        Theme::Light => "light",
        Theme::Dark => "dark",
    }
}

#[derive(Clone, Copy)]
struct Settings {
    options: RwSignal<Options>,
    panel_beside: RwSignal<bool>,
}

fn main() {
    leptos::mount::mount_to_body(App);
}

#[component]
fn App() -> impl IntoView {
    let settings = Settings {
        options: RwSignal::new(Options::default()),
        panel_beside: RwSignal::new(true),
    };
    provide_context(settings);
    // The page follows the components' theme: `auto` follows prefers-color-scheme here, as
    // demo.css declares `color-scheme: dark` on a dark system.
    let theme = move || settings.options.with(|o| theme_name(o.theme));
    Effect::new(move |_| {
        let t = theme();
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = el.set_attribute("data-theme", t);
        }
    });
    view! {
        <header class="demo-header">
            <div class="demo-wrap">
                <p class="demo-brand">"citekit"</p>
                <h1>"Show which source supports which statement."</h1>
                <p class="demo-lede">"citekit parses an LLM answer and the citation data stored with it, in every common format, and renders inline markers, hover cards, a source panel and footnotes: Rust + Leptos compiled to WebAssembly, usable from any web chat UI."</p>
                <nav class="demo-nav" aria-label="Sections">
                    <a href="#gallery">"Gallery"</a>
                    <a href="#playground">"Playground"</a>
                    <a href="#streaming">"Streaming"</a>
                    <a href="#usage">"Use it"</a>
                </nav>
            </div>
        </header>
        <main class="demo-wrap">
            <OptionsBar/>
            <Gallery/>
            <Playground/>
            <Streaming/>
            <Usage/>
        </main>
        <footer class="demo-footer demo-wrap"><p>"citekit: MIT OR Apache-2.0. Every example on this page is a fixture of the test suite."</p></footer>
    }
}

#[component]
fn OptionsBar() -> impl IntoView {
    let s = expect_context::<Settings>();
    let o = s.options;
    let select = |label: &'static str,
                  id: &'static str,
                  choices: &'static [(&'static str, &'static str)],
                  get: fn(&Options) -> &'static str,
                  set: fn(&mut Options, &str)| {
        view! {
            <label class="demo-field" for=id>
                <span>{label}</span>
                <select id=id on:change=move |ev| {
                    let v = event_target_value(&ev);
                    o.update(|o| set(o, &v));
                } prop:value=move || o.with(get)>
                    {choices.iter().map(|(v, t)| view! { <option value=*v>{*t}</option> }).collect_view()}
                </select>
            </label>
        }
    };
    view! {
        <section class="demo-options" aria-label="Options">
            {select("Numbering", "opt-numbering", &[("first-cited", "First cited"), ("given", "As given")],
                |o| if o.numbering == Numbering::Given { "given" } else { "first-cited" },
                |o, v| o.numbering = if v == "given" { Numbering::Given } else { Numbering::FirstCited })}
            {select("Markers", "opt-markers", &[("number", "Numbers"), ("grouped", "Grouped"), ("domain", "Domain chip")],
                |o| match o.marker_style { MarkerStyle::Number => "number", MarkerStyle::Grouped => "grouped", MarkerStyle::Domain => "domain" },
                |o, v| o.marker_style = match v { "grouped" => MarkerStyle::Grouped, "domain" => MarkerStyle::Domain, _ => MarkerStyle::Number })}
            {select("Uncited sources", "opt-uncited", &[("dim", "Dimmed"), ("show", "Shown"), ("hide", "Hidden")],
                |o| match o.uncited { Uncited::Dim => "dim", Uncited::Show => "show", Uncited::Hide => "hide" },
                |o, v| o.uncited = match v { "show" => Uncited::Show, "hide" => Uncited::Hide, _ => Uncited::Dim })}
            {select("Theme", "opt-theme", &[("auto", "System"), ("light", "Light"), ("dark", "Dark")],
                |o| theme_name(o.theme),
                |o, v| o.theme = match v { "light" => Theme::Light, "dark" => Theme::Dark, _ => Theme::Auto })}
            <label class="demo-check"><input type="checkbox" id="opt-citations" prop:checked=move || o.with(|o| o.show_citations)
                on:change=move |ev| { let c = event_target_checked(&ev); o.update(|o| o.show_citations = c) }/>"Citations"</label>
            <label class="demo-check"><input type="checkbox" id="opt-panel" prop:checked=move || s.panel_beside.get()
                on:change=move |ev| s.panel_beside.set(event_target_checked(&ev))/>"Panel beside"</label>
        </section>
    }
}

#[component]
fn Gallery() -> impl IntoView {
    let s = expect_context::<Settings>();
    let current = RwSignal::new(0usize);
    let raw = RwSignal::new(false);
    let parts = Memo::new(move |_| {
        let ex = &EXAMPLES[current.get()];
        let (a, d, o) = example_parts(ex);
        (a, d, o.to_string())
    });
    let answer = Signal::derive(move || parts.with(|p| p.0.clone().unwrap_or_default()));
    let data = Signal::derive(move || parts.with(|p| p.1.clone()));
    let options = Signal::derive(move || {
        let fo: Value = parts.with(|p| serde_json::from_str(&p.2).unwrap_or(Value::Null));
        let mut o = with_fixture_options(&s.options.get(), &fo);
        if o.format == FormatChoice::Auto {
            o.format = FormatChoice::Given(EXAMPLES[current.get()].format);
        }
        o
    });
    // Error-level diagnostics of the current example, for the end-to-end tests (the
    // gallery itself shows none): parsed the same way as the playground does.
    let gallery_errors = Memo::new(move |_| {
        let o = options.get();
        parts.with(|p| {
            let input = match &p.1 {
                CiteData::None => citekit::Data::None,
                CiteData::Json(v) => citekit::Data::Json(v),
                CiteData::Text(t) => citekit::Data::Text(t),
            };
            citekit::parse_lenient(p.0.as_deref(), input, &o)
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .count()
        })
    });
    view! {
        <section id="gallery" class="demo-section" aria-labelledby="gallery-title">
            <output id="gallery-errors" hidden>{move || gallery_errors.get().to_string()}</output>
            <h2 id="gallery-title">"Every format"</h2>
            <p class="demo-sub">"One real-shaped payload per input format. Hover or focus a marker, tap it on a phone, click it to find its source in the panel."</p>
            <div class="demo-tabs" role="tablist" aria-label="Formats"
                on:keydown=move |ev| if let Some(i) = tab_key(&ev, EXAMPLES.len(), current.get_untracked(), |i| format!("tab-{i}")) {
                    current.set(i);
                    raw.set(false);
                }>
                {EXAMPLES.iter().enumerate().map(|(i, ex)| view! {
                    <button role="tab" type="button" class="demo-tab" id=format!("tab-{i}") data-format=ex.format.name()
                        aria-controls="gallery-panel"
                        aria-selected=move || (current.get() == i).to_string()
                        tabindex=move || if current.get() == i { "0" } else { "-1" }
                        on:click=move |_| { current.set(i); raw.set(false); }>{ex.label}</button>
                }).collect_view()}
            </div>
            <div class="demo-card" role="tabpanel" id="gallery-panel" aria-labelledby=move || format!("tab-{}", current.get())>
                <div class="demo-card__bar">
                    <p class="demo-blurb">{move || EXAMPLES[current.get()].blurb}</p>
                    <button type="button" class="demo-toggle" aria-pressed=move || raw.get().to_string() on:click=move |_| raw.update(|r| *r = !*r)>
                        {move || if raw.get() { "Show rendered" } else { "Show raw input" }}
                    </button>
                </div>
                <Show when=move || raw.get() fallback=move || view! {
                    <div class="demo-render" class:demo-panel-below=move || !s.panel_beside.get()
                        dir=move || answer.with(|a| text_dir(a))>
                        <CitedAnswer answer=answer data=data options=options panel=true copy_button=true/>
                    </div>
                }>
                    <div class="demo-raw">
                        <h3>"Answer"</h3>
                        <pre><code>{move || answer.get()}</code></pre>
                        <h3>"Citation data"</h3>
                        <pre><code>{move || data.with(data_text)}</code></pre>
                    </div>
                </Show>
            </div>
        </section>
    }
}

#[component]
fn Playground() -> impl IntoView {
    let s = expect_context::<Settings>();
    let (a0, d0, _) = example_parts(&EXAMPLES[0]);
    let answer = RwSignal::new(a0.unwrap_or_default());
    let data = RwSignal::new(data_text(&d0));
    let format = RwSignal::new("auto".to_string());
    let options = Signal::derive(move || {
        let mut o = s.options.get();
        o.format = Format::from_name(&format.get())
            .map(FormatChoice::Given)
            .unwrap_or(FormatChoice::Auto);
        o
    });
    let cite_data = Signal::derive(move || {
        let d = data.get();
        if d.trim().is_empty() {
            CiteData::None
        } else {
            CiteData::Text(d)
        }
    });
    let parsed = Memo::new(move |_| {
        let o = options.get();
        let a = answer.get();
        let d = data.get();
        let input = if d.trim().is_empty() {
            citekit::Data::None
        } else {
            citekit::Data::Text(&d)
        };
        let res = citekit::parse_lenient(Some(&a), input, &o);
        let json = citekit::core::json_output::to_json(&res, o.position_encoding);
        (
            serde_json::to_string_pretty(&json).unwrap_or_default(),
            res.diagnostics.clone(),
            res.format.name().to_string(),
        )
    });
    view! {
        <section id="playground" class="demo-section" aria-labelledby="playground-title">
            <h2 id="playground-title">"Playground"</h2>
            <p class="demo-sub">"Edit the answer and its citation data; pick a format or let citekit detect it. The rendering, the diagnostics and the normalized JSON follow as you type."</p>
            <div class="demo-play">
                <div class="demo-play__inputs">
                    <label class="demo-field" for="play-format"><span>"Format"</span>
                        <select id="play-format" on:change=move |ev| format.set(event_target_value(&ev))>
                            <option value="auto">"auto-detect"</option>
                            {Format::ALL.iter().map(|f| view! { <option value=f.name()>{f.name()}</option> }).collect_view()}
                        </select>
                    </label>
                    <label class="demo-field demo-field--block" for="play-answer"><span>"Answer"</span>
                        <textarea id="play-answer" rows="7" spellcheck="false" prop:value=move || answer.get() on:input=move |ev| answer.set(event_target_value(&ev))></textarea>
                    </label>
                    <label class="demo-field demo-field--block" for="play-data"><span>"Citation data"</span>
                        <textarea id="play-data" rows="9" spellcheck="false" prop:value=move || data.get() on:input=move |ev| data.set(event_target_value(&ev))></textarea>
                    </label>
                </div>
                <div class="demo-play__out">
                    <p class="demo-detected">"Read as "<code id="play-detected">{move || parsed.with(|p| p.2.clone())}</code></p>
                    <div class="demo-render demo-panel-below">
                        <CitedAnswer answer=answer data=cite_data options=options panel=true/>
                    </div>
                    <h3>"Diagnostics"</h3>
                    <ul class="demo-diags" id="play-diags">
                        {move || {
                            let d = parsed.with(|p| p.1.clone());
                            if d.is_empty() {
                                view! { <li class="demo-diag demo-diag--none">"None."</li> }.into_any()
                            } else {
                                d.into_iter().map(|d| {
                                    let sev = match d.severity { Severity::Error => "error", Severity::Warning => "warning", Severity::Info => "info" };
                                    view! { <li class=format!("demo-diag demo-diag--{sev}")><code>{d.code.clone()}</code>" "{d.message.clone()}</li> }
                                }).collect_view().into_any()
                            }
                        }}
                    </ul>
                    <details class="demo-json"><summary>"Normalized JSON"</summary><pre><code id="play-json">{move || parsed.with(|p| p.0.clone())}</code></pre></details>
                </div>
            </div>
        </section>
    }
}

#[component]
fn Streaming() -> impl IntoView {
    let s = expect_context::<Settings>();
    let (stream_answer, stream_data, _) =
        fixture_parts(include_str!("../../tests/fixtures/citation_map/seed.json"));
    let full = stream_answer.unwrap_or_default();
    let total = full.chars().count();
    let shown = RwSignal::new(String::new());
    let data = RwSignal::new(CiteData::None);
    let running = RwSignal::new(false);
    let speed = RwSignal::new(40u32);
    let status = RwSignal::new(
        "Press Start to stream the answer token by token; its sources arrive at the end."
            .to_string(),
    );
    let full_c = full.clone();
    let start = move |_| {
        if running.get_untracked() {
            return;
        }
        running.set(true);
        shown.set(String::new());
        data.set(CiteData::None);
        status.set("Streaming…".into());
        let chars: Vec<char> = full_c.chars().collect();
        let sd = stream_data.clone();
        fn tick(
            chars: std::rc::Rc<Vec<char>>,
            at: usize,
            shown: RwSignal<String>,
            data: RwSignal<CiteData>,
            running: RwSignal<bool>,
            speed: RwSignal<u32>,
            status: RwSignal<String>,
            sd: CiteData,
        ) {
            if at >= chars.len() {
                // The sources arrive after the text, as an sse stream sends them (docs/streaming.md, "Late sources").
                data.set(sd);
                running.set(false);
                status.set("Done: the sources arrived and the markers became live.".into());
                return;
            }
            let step = 4.min(chars.len() - at);
            let chunk: String = chars[at..at + step].iter().collect();
            shown.update(|s| s.push_str(&chunk));
            let delay = Duration::from_millis((1000 / speed.get_untracked().max(1)) as u64);
            set_timeout(
                move || tick(chars, at + step, shown, data, running, speed, status, sd),
                delay,
            );
        }
        tick(
            std::rc::Rc::new(chars),
            0,
            shown,
            data,
            running,
            speed,
            status,
            sd,
        );
    };
    let options = Signal::derive(move || {
        let mut o = s.options.get();
        o.format = FormatChoice::Given(Format::CitationMap);
        o
    });
    view! {
        <section id="streaming" class="demo-section" aria-labelledby="streaming-title">
            <h2 id="streaming-title">"Streaming"</h2>
            <p class="demo-sub">"Chat UIs stream answers. citekit holds back a half-received marker, never shows a literal [1], and turns markers live when their sources arrive."</p>
            <div class="demo-stream-bar">
                <button type="button" class="demo-button" id="stream-start" on:click=start prop:disabled=move || running.get()>"Start"</button>
                <label class="demo-field demo-field--inline" for="stream-speed"><span>"Speed"</span>
                    <input type="range" id="stream-speed" min="5" max="200" prop:value=move || speed.get().to_string()
                        on:input=move |ev| speed.set(event_target_value(&ev).parse().unwrap_or(40))/>
                </label>
                <p class="demo-status" id="stream-status" role="status">{move || status.get()}</p>
            </div>
            <p class="demo-progress">{move || format!("{} of {} characters", shown.with(|s| s.chars().count()), total)}</p>
            <div class="demo-render demo-panel-below" id="stream-render">
                <CitedAnswer answer=shown data=data options=options panel=false streaming=running/>
            </div>
        </section>
    }
}

/// Usage snippets: whole files of the repository that the test suite runs. The two
/// pages are served as they are and checked in Chromium by `tests/npm/run.mjs`; the
/// Leptos app is compiled by `npm test`. `tests/e2e/demo.mjs` checks that the page shows
/// each file as it is on disk.
const SNIPPET_JS: &str = include_str!("../../examples/js/mount.html");
const SNIPPET_ELEMENT: &str = include_str!("../../examples/js/element.html");
const SNIPPET_REACT: &str = include_str!("../../examples/js/react.jsx");
const SNIPPET_LEPTOS: &str = include_str!("../../examples/leptos_usage.rs");

/// One tab of the "Use it" section.
struct Snippet {
    id: &'static str,
    label: &'static str,
    file: &'static str,
    /// What the file shows; `backticks` mark code.
    note: &'static str,
    code: &'static str,
}

/// `note` as text with its `backticked` parts in `<code>`.
fn note_view(note: &'static str) -> impl IntoView {
    note.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                view! { <code>{part}</code> }.into_any()
            } else {
                part.into_any()
            }
        })
        .collect_view()
}

const SNIPPETS: &[Snippet] = &[
    Snippet {
        id: "js",
        label: "JavaScript",
        file: "examples/js/mount.html",
        note: "`mount()` in a plain page, after `npm install cited-answer` (with a bundler, drop the import map). The npm package test serves this file as it is and checks it in Chromium.",
        code: SNIPPET_JS,
    },
    Snippet {
        id: "element",
        label: "Custom element",
        file: "examples/js/element.html",
        note: "`<cited-answer>`: options as attributes, the answer and its data as properties. The npm package test serves this file as it is and checks it in Chromium.",
        code: SNIPPET_ELEMENT,
    },
    Snippet {
        id: "react",
        label: "React",
        file: "examples/js/react.jsx",
        note: "`<CitedAnswer>` from `cited-answer/react`: pass the whole answer so far on every render and `streaming` while it grows; only the new text is sent. The npm package test builds this file into a Vite + React 19 app and checks it in Chromium.",
        code: SNIPPET_REACT,
    },
    Snippet {
        id: "leptos",
        label: "Leptos",
        file: "examples/leptos_usage.rs",
        note: "The components in a client-side Leptos app, after `cargo add citekit --features csr`. `npm test` compiles this file for `wasm32-unknown-unknown`.",
        code: SNIPPET_LEPTOS,
    },
];

/// The keys of a tab list (WAI-ARIA tabs, selection follows focus): Left and Right
/// move to the previous and next tab (wrapping), Home and End to the first and last.
/// Focuses that tab (its id from `id`) and returns its index.
fn tab_key(
    ev: &web_sys::KeyboardEvent,
    len: usize,
    at: usize,
    id: impl Fn(usize) -> String,
) -> Option<usize> {
    let next = match ev.key().as_str() {
        "ArrowRight" => (at + 1) % len,
        "ArrowLeft" => (at + len - 1) % len,
        "Home" => 0,
        "End" => len - 1,
        _ => return None,
    };
    ev.prevent_default();
    let tab = web_sys::window()?
        .document()?
        .get_element_by_id(&id(next))?;
    let _ = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlElement>(&tab)?.focus();
    Some(next)
}

#[component]
fn Usage() -> impl IntoView {
    let current = RwSignal::new(0usize);
    view! {
        <section id="usage" class="demo-section" aria-labelledby="usage-title">
            <h2 id="usage-title">"Use it"</h2>
            <p class="demo-sub">"From JavaScript, as a custom element, from React, or from Leptos. Each snippet is a whole file of the repository that the tests run."</p>
            <div class="demo-tabs" role="tablist" aria-label="Ways to use citekit"
                on:keydown=move |ev| if let Some(i) = tab_key(&ev, SNIPPETS.len(), current.get_untracked(), |i| format!("usage-tab-{}", SNIPPETS[i].id)) {
                    current.set(i);
                }>
                {SNIPPETS.iter().enumerate().map(|(i, sn)| view! {
                    <button role="tab" type="button" class="demo-tab" id=format!("usage-tab-{}", sn.id)
                        aria-controls=format!("usage-{}", sn.id)
                        aria-selected=move || (current.get() == i).to_string()
                        tabindex=move || if current.get() == i { "0" } else { "-1" }
                        on:click=move |_| current.set(i)>{sn.label}</button>
                }).collect_view()}
            </div>
            {SNIPPETS.iter().enumerate().map(|(i, sn)| view! {
                <div class="demo-usage" role="tabpanel" id=format!("usage-{}", sn.id)
                    aria-labelledby=format!("usage-tab-{}", sn.id) hidden=move || current.get() != i>
                    <p class="demo-usage__note"><code class="demo-usage__file">{sn.file}</code>": "{note_view(sn.note)}</p>
                    <pre><code>{sn.code}</code></pre>
                </div>
            }).collect_view()}
        </section>
    }
}
