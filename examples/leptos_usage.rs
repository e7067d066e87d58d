//! Using citekit from a Leptos app (this file is compiled by the test suite and shown
//! on the demo page).
use citekit::core::options::Options;
use citekit::web::{CitationProvider, CiteData, CitedAnswer, SourcePanel};
use leptos::prelude::*;
use serde_json::json;

#[component]
fn Chat() -> impl IntoView {
    let answer = "Paris is the capital of France [1], on the Seine [2].";
    let data = json!({
        "1": {"title": "France", "source": "https://en.wikipedia.org/wiki/France"},
        "2": {"title": "Seine", "source": "https://en.wikipedia.org/wiki/Seine"}
    });
    view! {
        // One answer with its footnotes, and its source panel in a side column.
        <CitationProvider>
            <main><CitedAnswer answer=answer data=CiteData::Json(data) options=Options::default()/></main>
            <aside><SourcePanel/></aside>
        </CitationProvider>
    }
}

fn main() {
    leptos::mount::mount_to_body(Chat);
}
