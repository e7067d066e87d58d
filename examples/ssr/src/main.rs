//! The server of the SSR example (feature `ssr`): axum with leptos_axum, as in
//! cargo-leptos's start-axum template. It renders [`App`] into [`shell`] for each of the
//! app's routes (`generate_route_list`, `LeptosRoutes`) and serves the browser build
//! from the site root (`/pkg/...`, leptos_axum's file and error handler, which also
//! renders the app's "Page not found." for any other path).
//!
//! The options come from the environment when cargo-leptos runs the server (it sets
//! `LEPTOS_OUTPUT_NAME`, `LEPTOS_SITE_ROOT`, `LEPTOS_SITE_ADDR`, ...), otherwise from
//! `[package.metadata.leptos]` in this example's Cargo.toml, with the same variables
//! overriding single settings: `LEPTOS_SITE_ADDR=127.0.0.1:0` listens on any free port.
//! It prints `listening on http://ADDR/` once it accepts connections.
// The type of the rendered page (the shell around citekit's components) is deeper than
// rustc's default limit of 128 when leptos_axum's handler future is laid out.
#![recursion_limit = "256"]
use axum::Router;
use citekit_ssr_example::app::{shell, App};
use leptos::config::get_configuration;
use leptos_axum::{generate_route_list, LeptosRoutes};

/// This example's manifest, read for `[package.metadata.leptos]` when the server runs
/// without cargo-leptos.
const MANIFEST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");

#[tokio::main]
async fn main() {
    // cargo-leptos sets LEPTOS_OUTPUT_NAME with the rest when it runs the server; a
    // binary it built, run by hand, reads the manifest like any other.
    let from_cargo_leptos = std::env::var_os("LEPTOS_OUTPUT_NAME").is_some();
    let conf = match get_configuration((!from_cargo_leptos).then_some(MANIFEST)) {
        Ok(conf) => conf,
        Err(e) => {
            eprintln!("citekit-ssr-example: cannot read the Leptos options: {e}");
            std::process::exit(1);
        }
    };
    let leptos_options = conf.leptos_options;
    let addr = leptos_options.site_addr;
    let routes = generate_route_list(App);

    let app = Router::new()
        .leptos_routes(&leptos_options, routes, {
            let leptos_options = leptos_options.clone();
            move || shell(leptos_options.clone())
        })
        .fallback(leptos_axum::file_and_error_handler(shell))
        .with_state(leptos_options);

    let listener = match tokio::net::TcpListener::bind(&addr).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("citekit-ssr-example: cannot listen on {addr}: {e}");
            std::process::exit(1);
        }
    };
    match listener.local_addr() {
        Ok(bound) => println!("listening on http://{bound}/"),
        Err(e) => eprintln!("citekit-ssr-example: {e}"),
    }
    if let Err(e) = axum::serve(listener, app.into_make_service()).await {
        eprintln!("citekit-ssr-example: {e}");
        std::process::exit(1);
    }
}
