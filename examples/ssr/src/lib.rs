//! A cited answer rendered on the server and hydrated in the browser: the app of the
//! SSR example. The server (`src/main.rs`, feature `ssr`) renders [`App`] to HTML, so
//! the markers, footnotes and source panel are in the page before any wasm runs; the
//! browser build (feature `hydrate`) calls [`hydrate`], which takes over that markup:
//! hover cards, panel selection and a streamed follow-up answer then work as in a
//! client-side app.
use citekit::core::options::Options;
use citekit::web::{CitationProvider, CiteData, CitedAnswer, SourcePanel};
use leptos::prelude::*;
use serde_json::{json, Value};
use std::time::Duration;

/// The first answer, rendered on the server.
pub const ANSWER: &str = "Paris is the capital of France [1], on the Seine [2]. \
The Eiffel Tower was completed in 1889 [3][1].\n\n\
- It is the most visited paid monument in the world [3].\n\
- The Louvre is the most visited museum [4].";

/// The follow-up answer, streamed in the browser after a click.
pub const FOLLOW_UP: &str = "The Seine flows through Paris for 13 km [2], \
and its banks are a World Heritage Site [4].";

/// The citation data of both answers (a citation map keyed by marker number).
pub fn data() -> Value {
    json!({
        "1": {"title": "Paris - Wikipedia", "source": "https://en.wikipedia.org/wiki/Paris",
              "text": "Paris is the capital and largest city of France."},
        "2": {"title": "Seine - Wikipedia", "source": "https://en.wikipedia.org/wiki/Seine",
              "text": "The Seine is a 777-kilometre-long river in northern France."},
        "3": {"title": "Eiffel Tower history", "source": "https://www.toureiffel.paris/en/the-monument/history",
              "text": "The tower was completed on 31 March 1889."},
        "4": {"title": "Louvre - Wikipedia", "source": "https://en.wikipedia.org/wiki/Louvre"}
    })
}

/// The page body: an answer with its footnotes and its source panel beside it, and a
/// follow-up answer that streams in when asked for.
#[component]
pub fn App() -> impl IntoView {
    // Set by an effect, which runs in the browser only: the page says when it is live.
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    let follow_up = RwSignal::new(String::new());
    let streaming = RwSignal::new(false);
    let ask = move |_| {
        if streaming.get_untracked() || !follow_up.with_untracked(String::is_empty) {
            return;
        }
        streaming.set(true);
        let chars: Vec<char> = FOLLOW_UP.chars().collect();
        let sent = std::cell::Cell::new(0usize);
        let handle = StoredValue::new_local(None::<IntervalHandle>);
        let tick = move || {
            let from = sent.get();
            let to = (from + 4).min(chars.len());
            let chunk: String = chars[from..to].iter().collect();
            follow_up.update(|a| a.push_str(&chunk));
            sent.set(to);
            if to == chars.len() {
                streaming.set(false);
                if let Some(h) = handle.get_value() {
                    h.clear();
                }
            }
        };
        if let Ok(h) = set_interval_with_handle(tick, Duration::from_millis(15)) {
            handle.set_value(Some(h));
        }
    };
    view! {
        <main class="page" data-hydrated=move || hydrated.get().then_some("true")>
            <h1>"Paris, with sources"</h1>
            <CitationProvider>
                <div class="layout">
                    <article>
                        <CitedAnswer answer=ANSWER data=CiteData::Json(data()) options=Options::default()/>
                    </article>
                    <SourcePanel/>
                </div>
            </CitationProvider>
            <button type="button" class="ask" on:click=ask>"Ask a follow-up"</button>
            <section class="follow-up">
                <CitedAnswer answer=follow_up data=CiteData::Json(data()) streaming=streaming/>
            </section>
        </main>
    }
}

/// The browser's entry point: hydrates the server-rendered page.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    leptos::mount::hydrate_body(App);
}
