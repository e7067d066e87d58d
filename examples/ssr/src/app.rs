//! The app: the page shell the server renders around it, the root component with its
//! one route, and the answer page.
use citekit::core::options::Options;
use citekit::web::{CitationProvider, CiteData, CitedAnswer, SourcePanel};
use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Title};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::StaticSegment;
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

/// The page's own layout (citekit's stylesheet comes with it in [`shell`]).
const PAGE_CSS: &str = "body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24}\
.page{max-width:62rem;margin:0 auto;padding:1rem}\
.layout{display:grid;grid-template-columns:minmax(0,1fr) 18rem;gap:1.5rem}\
@media (max-width:700px){.layout{grid-template-columns:1fr}}\
.ask{margin:1rem 0;font:inherit}";

/// The whole document, rendered on the server only (leptos_axum renders it for every
/// route and for the 404 page): the head with citekit's stylesheet, which the
/// components cannot add on a server, and Leptos's hydration scripts, which load
/// `/pkg/<output-name>.js` and call [`crate::hydrate`]; the app in the body.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <link rel="icon" href="data:,"/>
                // Raw text: a text child would be HTML-escaped (`>` as `&gt;`).
                <style id="citekit-css" inner_html=citekit::web::CSS></style>
                <style inner_html=PAGE_CSS></style>
                <AutoReload options=options.clone()/>
                <HydrationScripts options/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// The root component: the document's title and the router with the app's one page.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    view! {
        <Title text="citekit: server-rendered answer"/>
        <Router>
            <Routes fallback=|| "Page not found.".into_view()>
                <Route path=StaticSegment("") view=AnswerPage/>
            </Routes>
        </Router>
    }
}

/// The page body: an answer with its footnotes and its source panel beside it, and a
/// follow-up answer that streams in when asked for.
#[component]
pub fn AnswerPage() -> impl IntoView {
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
