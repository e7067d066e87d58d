//! The stylesheet is joined from the sheets `style/sheets.txt` lists (build.rs for the
//! copy the wasm carries, scripts/stylesheet.sh for the npm package's citekit.css):
//! every sheet in the sources is listed once and exists, so a component's sheet cannot
//! be left out of the stylesheet, and every component folder has its own sheet.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// The sheets `style/sheets.txt` lists, in order.
fn listed() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    fs::read_to_string(root.join("style/sheets.txt"))
        .expect("style/sheets.txt is readable")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// Every `.css` file under `dir`, as a path from the crate root.
fn sheets_under(dir: &str, out: &mut BTreeSet<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for entry in fs::read_dir(root.join(dir)).expect("a readable folder") {
        let path = entry.expect("a directory entry").path();
        let rel = path
            .strip_prefix(root)
            .expect("under the crate")
            .to_string_lossy()
            .into_owned();
        if path.is_dir() {
            sheets_under(&rel, out);
        } else if rel.ends_with(".css") {
            out.insert(rel);
        }
    }
}

#[test]
fn every_sheet_is_joined_once() {
    let listed = listed();
    let unique: BTreeSet<String> = listed.iter().cloned().collect();
    assert_eq!(
        unique.len(),
        listed.len(),
        "a sheet listed twice: {listed:?}"
    );
    let mut present = BTreeSet::new();
    sheets_under("src", &mut present);
    sheets_under("style", &mut present);
    assert_eq!(
        unique, present,
        "style/sheets.txt must list every sheet of src/ and style/, and only those"
    );
    assert_eq!(listed.first().map(String::as_str), Some("style/base.css"));
}

#[test]
fn every_component_folder_has_its_sheet() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/components");
    let mut names = Vec::new();
    for entry in fs::read_dir(&root).expect("src/components is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            let name = path
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            for part in ["mod.rs".to_string(), format!("{name}.css")] {
                assert!(path.join(&part).is_file(), "src/components/{name}/{part}");
            }
            // Its markup: one file, or a folder of them (the answer's).
            assert!(
                path.join("html.rs").is_file() || path.join("html/mod.rs").is_file(),
                "src/components/{name}/html.rs or html/mod.rs"
            );
            names.push(name);
        }
    }
    names.sort();
    assert_eq!(names, ["answer", "card", "footnotes", "panel"]);
}
