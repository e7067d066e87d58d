//! Writes the stylesheet that the wasm carries (`src/dom/mod.rs`, `CSS`): the sheets
//! style/sheets.txt lists (the base and each component's), joined, without their
//! comments and layout whitespace: the sheets are written for people to read, and every
//! byte of the embedded copy is downloaded with the npm package (1.3 KB gzip less).
//! Also sets `cfg(browser_tables)` and `cfg(trap_panics)` (below).

use std::{env, fs, path::Path};

fn main() {
    // `cfg(browser_tables)`: the HTML entity and Unicode tables are the browser's (a wasm
    // build with the DOM layer and without the `tables` feature: the npm package's first
    // module). src/core/unicode.rs says what that covers.
    println!("cargo::rustc-check-cfg=cfg(browser_tables)");
    let wasm = env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "wasm32");
    if wasm
        && env::var_os("CARGO_FEATURE_DOM").is_some()
        && env::var_os("CARGO_FEATURE_TABLES").is_none()
    {
        println!("cargo::rustc-cfg=browser_tables");
    }
    // `cfg(trap_panics)`: panics trap at once without running a hook (the npm package
    // built on the pinned nightly with `-Cpanic=immediate-abort`), so the console hook of
    // src/js.rs would never run and is left out.
    println!("cargo::rustc-check-cfg=cfg(trap_panics)");
    if env::var("CARGO_CFG_PANIC").is_ok_and(|p| p.split(',').any(|v| v == "immediate-abort")) {
        println!("cargo::rustc-cfg=trap_panics");
    }
    // The stylesheet: the sheets style/sheets.txt lists, joined in its order with a blank
    // line between (as scripts/stylesheet.sh joins them for the npm package).
    let list = "style/sheets.txt";
    println!("cargo::rerun-if-changed={list}");
    let list = fs::read_to_string(list).expect("style/sheets.txt is readable");
    let mut css = String::new();
    for sheet in list
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        println!("cargo::rerun-if-changed={sheet}");
        if !css.is_empty() {
            css.push('\n');
        }
        let text = fs::read_to_string(sheet)
            .unwrap_or_else(|e| panic!("{sheet}, listed in style/sheets.txt: {e}"));
        css.push_str(&text);
    }
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("citekit.min.css");
    fs::write(out, minify(&css)).expect("OUT_DIR is writable");
}

/// Drops comments, turns each run of whitespace into one space and drops the spaces
/// next to `{`, `}`, `;` and `,` and the `;` before `}`. Quoted strings are kept as
/// they are.
fn minify(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut chars = css.chars().peekable();
    let mut space = false;
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for d in chars.by_ref() {
                    if prev == '*' && d == '/' {
                        break;
                    }
                    prev = d;
                }
                space = true;
            }
            c if c.is_whitespace() => space = true,
            '"' | '\'' => {
                flush_space(&mut out, &mut space);
                out.push(c);
                for d in chars.by_ref() {
                    out.push(d);
                    if d == c {
                        break;
                    }
                }
            }
            '{' | '}' | ';' | ',' => {
                space = false;
                if c == '}' && out.ends_with(';') {
                    out.pop();
                }
                out.push(c);
                while chars.peek().is_some_and(|d| d.is_whitespace()) {
                    chars.next();
                }
            }
            c => {
                flush_space(&mut out, &mut space);
                out.push(c);
            }
        }
    }
    out
}

/// Writes the pending space, unless the output is empty or ends with a character that
/// needs none after it.
fn flush_space(out: &mut String, space: &mut bool) {
    if *space && !out.is_empty() && !out.ends_with(['{', '}', ';', ',']) {
        out.push(' ');
    }
    *space = false;
}
