//! The format registry (src/core/formats/registry.rs) against the lists of formats
//! outside the crate: the npm package's `FormatName` type.

use citekit::Format;

/// The npm package's `FormatName` type (npm/index.d.ts) names every format, and only
/// those: a format added to the registry and not to the package's type (or the other
/// way round) fails here.
#[test]
fn the_npm_format_type_names_every_format() {
    let dts = include_str!("../npm/index.d.ts");
    let start = dts
        .find("export type FormatName =")
        .expect("npm/index.d.ts has `export type FormatName`");
    let body = &dts[start..];
    let body = &body[..body.find(';').expect("the type ends with `;`")];
    let mut named: Vec<&str> = body
        .lines()
        .filter_map(|l| l.trim().strip_prefix("| '")?.split('\'').next())
        .collect();
    named.sort_unstable();
    let mut names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
    names.sort_unstable();
    assert_eq!(named, names);
}
