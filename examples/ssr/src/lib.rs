//! A cited answer rendered on the server and hydrated in the browser: a Leptos app laid
//! out as cargo-leptos's start-axum template lays one out. The library is built twice:
//! as the server's (feature `ssr`, used by the axum server in `src/main.rs`, which
//! renders [`app::App`] into [`app::shell`]), so the markers, footnotes and source panel
//! are in the page before any wasm runs; and as the browser's wasm (feature `hydrate`),
//! whose [`hydrate`] takes over that markup: hover cards, panel selection and a
//! streamed follow-up answer then work as in a client-side app.
pub mod app;

/// The browser's entry point, called by the script [`leptos::hydration::HydrationScripts`]
/// puts in the page: hydrates the server-rendered body.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(app::App);
}
