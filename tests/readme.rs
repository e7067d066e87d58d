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
