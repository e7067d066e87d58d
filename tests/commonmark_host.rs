//! CommonMark conformance of the markdown renderer, on the host: every example of the
//! CommonMark spec (version 0.31.2, kept in `tests/specs/commonmark/` with its licence
//! note, read at run time) that holds no citation marker goes through `parse_lenient`
//! (citation map data, one source) and `components::answer::html::answer_blocks`; every
//! block must be tag-balanced (the components put each block in its own element), and
//! their concatenation must give
//! the spec's HTML after a string normalization (our link/image attributes dropped,
//! whitespace next to block tags ignored). Differences are allowed only for the
//! documented exceptions of `support/commonmark_spec.rs` (raw HTML shown as text,
//! unsafe urls dropped, GFM extensions). `CITEKIT_CM_VERBOSE=1 cargo test --test
//! commonmark_host -- --nocapture` prints every difference, expected ones included.
//! The browser twin is `tests/commonmark.rs`.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/commonmark_spec.rs"]
mod spec;

use citekit::components::answer::html::answer_blocks;
use citekit::core::formats::Data;
use citekit::render::RenderOptions;
use citekit::Options;
use serde_json::json;

#[test]
fn normalize_ignores_layout_and_our_attributes() {
    assert_eq!(
        spec::normalize("<p>a\n b  </p>\n<hr />\n<a href=\"x\" rel=\"noopener noreferrer nofollow\" target=\"_blank\">it&#39;s</a>"),
        spec::normalize("<p>a b</p><hr><a href=\"x\">it's</a>")
    );
    assert_eq!(
        spec::normalize("<pre><code>a\n  b\n</code></pre>\n"),
        "<pre><code>a\n  b\n</code></pre>"
    );
}

/// True when every tag `html` opens is closed in order (void elements aside). Valid on
/// citekit's output only, where every `<` of input text is escaped.
fn balanced(html: &str) -> bool {
    const VOID: &[&str] = &["br", "hr", "img", "input", "col", "wbr"];
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let end = rest.find(['>', ' ']).unwrap_or(rest.len());
        let name = &rest[..end];
        if let Some(closing) = name.strip_prefix('/') {
            if stack.pop() != Some(closing) {
                return false;
            }
        } else if !VOID.contains(&name) {
            stack.push(name);
        }
    }
    stack.is_empty()
}

#[test]
fn balance_check() {
    assert!(balanced(
        "<p><img src=\"x\" alt=\"a\"><a href=\"y\">b</a><br>\n</p>\n"
    ));
    assert!(!balanced("<p><img src=\"x\">"));
    assert!(!balanced("</p>\n"));
}

fn spec_text() -> String {
    std::fs::read_to_string(spec::SPEC_PATH)
        .unwrap_or_else(|e| panic!("cannot read {} ({e})", spec::SPEC_PATH))
}

/// Regression: `cargo test` failed in a fresh clone until `npm install` had run, because
/// the CommonMark spec was read from the npm package `commonmark-spec` in
/// `node_modules`. The spec is kept in the repository, with its licence note beside
/// it, and no Rust test reads the CommonMark spec from `node_modules`, nor does any
/// host test read anything there (only browser tests may, for browser tools).
#[test]
fn cargo_test_needs_no_npm_install() {
    let dir = std::path::Path::new(spec::SPEC_PATH).parent().unwrap();
    let spec = std::fs::read_to_string(spec::SPEC_PATH)
        .unwrap_or_else(|e| panic!("the CommonMark spec is not in the repository ({e})"));
    assert!(spec.contains("\nversion: '0.31.2'\n"), "spec version");
    assert_eq!(spec::examples(&spec).len(), 652, "spec examples");
    let note =
        std::fs::read_to_string(dir.join("README.md")).expect("licence note beside the spec");
    for needed in [
        "CC BY-SA 4.0",
        "John MacFarlane",
        "0.31.2",
        "commonmark-spec",
    ] {
        assert!(note.contains(needed), "the licence note names {needed:?}");
    }
    // Every Rust file of the crate's tests, benches and sources, but this test, which
    // names what it looks for.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("build.rs")];
    let mut dirs = vec![root.join("src"), root.join("tests"), root.join("benches")];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && !path.ends_with("node_modules") {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with(file!()) {
                files.push(path);
            }
        }
    }
    let mut offenders = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let browser_only = text.contains("#![cfg(all(target_arch = \"wasm32\"")
            || text.contains("#![cfg(target_arch = \"wasm32\")]");
        if text.contains("node_modules/commonmark-spec")
            || (!browser_only && text.contains("node_modules/"))
        {
            offenders.push(f.strip_prefix(root).unwrap().display().to_string());
        }
    }
    assert!(
        offenders.is_empty(),
        "Rust tests that need npm: {offenders:?}"
    );
}

#[test]
fn commonmark_spec_examples() {
    let examples = spec::examples(&spec_text());
    assert!(
        examples.len() > 600,
        "only {} examples found",
        examples.len()
    );
    let data = json!({"1": {"title": "A", "source": "https://a.example"}});
    let opts = Options::default();
    let mut counts = spec::Counts {
        total: examples.len(),
        ..Default::default()
    };
    let mut report = String::new();
    for ex in &examples {
        if spec::has_marker(&ex.markdown) {
            counts.skipped += 1;
            continue;
        }
        let answer = citekit::parse_lenient(Some(&ex.markdown), Data::Json(&data), &opts);
        let blocks = answer_blocks(&answer, &RenderOptions::default());
        // Each block goes into its own element in the browser: it must be balanced.
        if let Some(b) = blocks.iter().find(|b| !balanced(&b.html)) {
            counts.unexpected.push(ex.number);
            report.push_str(&format!(
                "\n--- example {}: unbalanced block {:?}\nmarkdown: {:?}\n",
                ex.number, b.html, ex.markdown
            ));
            continue;
        }
        let got: String = blocks.iter().map(|b| b.html.as_str()).collect();
        let (want_n, got_n) = (spec::normalize(&ex.html), spec::normalize(&got));
        if want_n == got_n {
            counts.passed += 1;
            continue;
        }
        let why = spec::exception(&ex.markdown);
        counts.fail(ex.number, why);
        if why.is_none() || std::env::var_os("CITEKIT_CM_VERBOSE").is_some() {
            report.push_str(&format!(
                "\n--- example {} ({}) {:?}\nmarkdown: {:?}\nexpected: {:?}\ngot:      {:?}\n",
                ex.number,
                ex.section,
                why.map(spec::Exception::name),
                ex.markdown,
                want_n,
                got_n
            ));
        }
    }
    println!("{}", counts.summary());
    if std::env::var_os("CITEKIT_CM_VERBOSE").is_some() {
        println!("{report}");
    }
    assert!(
        counts.unexpected.is_empty(),
        "{}\n{report}",
        counts.summary()
    );
}
