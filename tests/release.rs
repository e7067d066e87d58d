//! One version for the crate and the npm package, and a changelog that starts at it.
//! (The built package takes the crate's version, scripts/build-pkg.sh; the npm package
//! test checks the tarball's.)
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;

const VERSION: &str = env!("CARGO_PKG_VERSION");

#[test]
fn package_json_and_cargo_toml_carry_one_version() {
    let package: Value =
        serde_json::from_str(include_str!("../package.json")).expect("package.json is JSON");
    assert_eq!(
        package["version"].as_str(),
        Some(VERSION),
        "package.json's version differs from Cargo.toml's: bump both"
    );
}

/// A `## [x.y.z] - YYYY-MM-DD` release heading: its version, or None.
fn release_version(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("## [")?;
    let (version, date) = rest.split_once("] - ")?;
    let date_ok = date.len() == 10
        && date.char_indices().all(|(i, c)| match i {
            4 | 7 => c == '-',
            _ => c.is_ascii_digit(),
        });
    date_ok.then_some(version)
}

#[test]
fn changelog_is_keep_a_changelog_and_starts_at_this_version() {
    let changelog = include_str!("../CHANGELOG.md");
    let lines: Vec<&str> = changelog.lines().collect();
    assert_eq!(lines.first(), Some(&"# Changelog"), "CHANGELOG.md's title");
    assert!(
        changelog.contains("https://keepachangelog.com/"),
        "CHANGELOG.md says it follows Keep a Changelog"
    );
    let headings: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("## "))
        .collect();
    assert_eq!(
        headings.first(),
        Some(&"## [Unreleased]"),
        "the first section is [Unreleased]"
    );
    let releases: Vec<&str> = headings[1..]
        .iter()
        .map(|h| release_version(h).unwrap_or_else(|| panic!("not `## [x.y.z] - YYYY-MM-DD`: {h}")))
        .collect();
    assert_eq!(
        releases.first(),
        Some(&VERSION),
        "the latest release in CHANGELOG.md is Cargo.toml's version"
    );
    // Each release's entries are grouped under Keep a Changelog's kinds of change, and
    // each release heading has its link at the bottom.
    const KINDS: [&str; 6] = [
        "Added",
        "Changed",
        "Deprecated",
        "Removed",
        "Fixed",
        "Security",
    ];
    for line in lines.iter().filter(|l| l.starts_with("### ")) {
        assert!(
            KINDS.contains(&&line[4..]),
            "{line}: not a Keep a Changelog kind of change"
        );
    }
    for version in std::iter::once("Unreleased").chain(releases.iter().copied()) {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("[{version}]: https://"))),
            "no link for [{version}] at the bottom of CHANGELOG.md"
        );
    }
}

#[test]
fn release_heading_needs_a_date() {
    assert_eq!(release_version("## [0.1.0] - 2026-11-27"), Some("0.1.0"));
    assert_eq!(release_version("## [0.1.0]"), None);
    assert_eq!(release_version("## [0.1.0] - soon"), None);
}
