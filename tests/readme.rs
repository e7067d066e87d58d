//! The README's Rust example is `examples/quickstart.rs` (which `cargo test` compiles),
//! word for word, so the README cannot show code that no longer builds.
#![cfg(not(target_arch = "wasm32"))]

#[test]
fn readme_example_is_examples_quickstart() {
    let readme = include_str!("../README.md");
    let example = include_str!("../examples/quickstart.rs");
    let block = format!("```rust\n{example}```\n");
    assert!(
        readme.contains(&block),
        "README.md's ```rust block differs from examples/quickstart.rs: copy the file into it"
    );
}

#[test]
fn readme_leptos_example_is_examples_leptos_usage() {
    let readme = include_str!("../README.md");
    let example = include_str!("../examples/leptos_usage.rs");
    let block = format!("```rust\n{example}```\n");
    assert!(
        readme.contains(&block),
        "README.md's Leptos block differs from examples/leptos_usage.rs: copy the file into it"
    );
}

/// The README's one `cargo add` line: this crate, with features that exist and that
/// pick a Leptos rendering mode (without one, a client-side app renders nothing).
#[test]
fn readme_cargo_add_line_adds_this_crate_with_a_leptos_mode() {
    let readme = include_str!("../README.md");
    let manifest = include_str!("../Cargo.toml");
    let lines: Vec<&str> = readme
        .lines()
        .filter(|l| l.starts_with("cargo add "))
        .collect();
    assert_eq!(lines.len(), 1, "README.md's `cargo add` lines: {lines:?}");
    let words: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(words.get(2), Some(&env!("CARGO_PKG_NAME")), "{}", lines[0]);
    let features = match words.iter().position(|w| *w == "--features" || *w == "-F") {
        Some(i) => words.get(i + 1).copied().unwrap_or_default(),
        None => panic!("{}: no --features", lines[0]),
    };
    let mut modes = 0;
    for feature in features.split(',') {
        let line = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{feature} = [")))
            .unwrap_or_else(|| panic!("{}: no feature `{feature}` in Cargo.toml", lines[0]));
        if ["leptos/csr", "leptos/ssr", "leptos/hydrate"]
            .iter()
            .any(|mode| line.contains(mode))
        {
            modes += 1;
        }
    }
    assert_eq!(modes, 1, "{}: one Leptos rendering mode", lines[0]);
}
