//! The server of the SSR example: renders [`App`] to HTML with Leptos's `ssr` renderer
//! and serves it with the browser build (`/pkg/`) that hydrates it.
//!
//! A minimal stand-in for the axum server cargo-leptos generates (one thread, std
//! only, GET only), so the example builds in CI in seconds; the rendering is the same
//! call a leptos_axum handler makes.
//!
//! ```text
//! citekit-ssr-example [--port N] [--pkg DIR]   serve on 127.0.0.1 (port 0: any free one)
//! citekit-ssr-example --print                  print the page and exit
//! ```
use citekit_ssr_example::App;
use hydration_context::{SharedContext, SsrSharedContext};
use leptos::config::LeptosOptions;
use leptos::hydration::HydrationScripts;
use leptos::prelude::*;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// The page's own layout (citekit's stylesheet comes with it).
const PAGE_CSS: &str = "body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24}\
.page{max-width:62rem;margin:0 auto;padding:1rem}\
.layout{display:grid;grid-template-columns:minmax(0,1fr) 18rem;gap:1.5rem}\
@media (max-width:700px){.layout{grid-template-columns:1fr}}\
.ask{margin:1rem 0;font:inherit}";

/// The whole page: the shell with citekit's stylesheet and Leptos's hydration scripts,
/// and the app rendered in its body.
fn render_page() -> String {
    let shared = Arc::new(SsrSharedContext::new());
    let owner = Owner::new_root(Some(shared.clone()));
    let (head, body) = owner.with(|| {
        let options = LeptosOptions::builder()
            .output_name("citekit_ssr_example")
            .build();
        let head = view! { <HydrationScripts options/> }.to_html();
        let body = view! { <App/> }.to_html();
        (head, body)
    });
    // The data the browser's hydration reads (resources, errors): none here but the
    // empty lists, which Leptos's hydration expects on every page.
    let mut resources = String::new();
    if let Some(stream) = shared.pending_data() {
        for chunk in collect_ready(stream) {
            resources.push_str(&chunk);
        }
    }
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>citekit: server-rendered answer</title><link rel=\"icon\" href=\"data:,\">\
         <style id=\"citekit-css\">{css}</style><style>{PAGE_CSS}</style>{head}\
         <script>{resources}</script></head><body>{body}</body></html>",
        css = citekit::web::CSS,
    )
}

/// Collects a stream that is ready at once (the shared context's data after a
/// synchronous render) without an async runtime.
fn collect_ready(
    mut stream: std::pin::Pin<Box<dyn futures::Stream<Item = String> + Send>>,
) -> Vec<String> {
    use futures::StreamExt;
    futures::executor::block_on(async move {
        let mut out = Vec::new();
        while let Some(chunk) = stream.next().await {
            out.push(chunk);
        }
        out
    })
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("js") => "text/javascript",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css",
        _ => "application/octet-stream",
    }
}

fn respond(stream: &mut TcpStream, status: &str, kind: &str, body: &[u8]) {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
}

fn handle(mut stream: TcpStream, pkg: &Path) {
    let mut line = String::new();
    if BufReader::new(&stream).read_line(&mut line).is_err() {
        return;
    }
    let mut parts = line.split_whitespace();
    let (Some("GET"), Some(target)) = (parts.next(), parts.next()) else {
        respond(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"GET only",
        );
        return;
    };
    let path = target.split('?').next().unwrap_or("/");
    if path == "/" {
        let page = render_page();
        respond(
            &mut stream,
            "200 OK",
            "text/html; charset=utf-8",
            page.as_bytes(),
        );
        return;
    }
    // Files of the browser build, without leaving its folder.
    let file = path.strip_prefix("/pkg/").map(PathBuf::from);
    match file {
        Some(rel) if rel.components().all(|c| matches!(c, Component::Normal(_))) => {
            let full = pkg.join(&rel);
            match std::fs::read(&full) {
                Ok(bytes) => respond(&mut stream, "200 OK", content_type(&full), &bytes),
                Err(_) => respond(&mut stream, "404 Not Found", "text/plain", b"not found"),
            }
        }
        _ => respond(&mut stream, "404 Not Found", "text/plain", b"not found"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    if args.iter().any(|a| a == "--print") {
        println!("{}", render_page());
        return;
    }
    let port: u16 = value("--port").and_then(|p| p.parse().ok()).unwrap_or(3000);
    let pkg = PathBuf::from(value("--pkg").unwrap_or_else(|| "target/ssr-example/pkg".into()));
    let listener = match TcpListener::bind(("127.0.0.1", port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("citekit-ssr-example: cannot listen on 127.0.0.1:{port}: {e}");
            std::process::exit(1);
        }
    };
    match listener.local_addr() {
        Ok(addr) => println!("listening on http://{addr}/"),
        Err(e) => eprintln!("citekit-ssr-example: {e}"),
    }
    for stream in listener.incoming().flatten() {
        handle(stream, &pkg);
    }
}
