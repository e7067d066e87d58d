//! The `scintilla` format (docs/formats.md): an answer with `[n]` markers and the numbered
//! list of tool metadata the final LLM call was given,
//! `[{urls, titles, identifiers, source_type, snippet}]`.
//!
//! - Items are numbered by position (1-based) unless one carries `index` or `number`,
//!   which is then preferred. The number is the source's id, its given number and the
//!   key `[n]` names it by. A number already taken by an earlier item leaves the later
//!   one with the id `item-<position>` and no marker key.
//! - The title is the first non-empty title, the url the first safe url; the other
//!   titles and urls are kept as `metadata.titles` / `metadata.urls` (unsafe urls are
//!   dropped everywhere, with a diagnostic). Singular `title`/`url` are read too.
//! - `identifiers` (`{"MKT-1183": "https://..."}`) become the source's identifiers
//!   (urls sanitized); the resolver links their occurrences in the answer. Identifiers
//!   without a url are kept in `metadata.identifiers`.
//! - `source_type` is the kind (`jira`, `github`, ...), else `web` with a url, else
//!   `tool`. Unknown fields go to metadata.
//! - Also accepted: an object holding the list (`sources`, `tool_metadata`,
//!   `metadata`, `results`; its other fields go to the draft's metadata), an object
//!   keyed by number, or a single item.

use crate::core::draft::{Draft, DraftSource};
use crate::core::error::ParseError;
use crate::core::json_fields::{as_uint, type_name, wrong_type};
use crate::core::markers::{SourceKey, TextSyntax};
use crate::core::model::{Diagnostic, Format, Source};
use crate::core::options::Options;
use crate::core::ordered_hash::OrderedHashSet;
use crate::core::untrusted_text::clean_text;
use serde_json::{Map, Value};

use super::support::{cap_sources, classify_link, title, unsafe_url, Link, SourceReader};

/// Parses `scintilla` tool metadata into a draft.
pub fn parse(
    answer: Option<&str>,
    data: Option<&Value>,
    _options: &Options,
) -> Result<Draft, ParseError> {
    let mut draft = Draft::new(Format::Scintilla, answer.unwrap_or(""));
    draft.grammar = Some(super::support::every_marker(TextSyntax::Markdown));
    let not_format = |found: &str| {
        ParseError::not_format(
            Format::Scintilla,
            "$",
            format!("expected the numbered list of tool metadata (`[{{urls, titles, identifiers, source_type, snippet}}]`), found {found}"),
        )
    };
    // (number from the container, item, path)
    let mut items: Vec<(Option<u64>, &Value, String)> = Vec::new();
    match data {
        None | Some(Value::Null) => {}
        Some(Value::Array(a)) => items.extend(
            a.iter()
                .enumerate()
                .map(|(i, v)| (None, v, format!("[{i}]"))),
        ),
        Some(Value::Object(o)) => {
            let list = ["sources", "tool_metadata", "metadata", "results"]
                .iter()
                .find_map(|k| match o.get(*k) {
                    Some(Value::Array(a)) => Some((*k, a)),
                    _ => None,
                });
            if let Some((k, a)) = list {
                items.extend(
                    a.iter()
                        .enumerate()
                        .map(|(i, v)| (None, v, format!("{k}[{i}]"))),
                );
                for (key, v) in o {
                    if key != k {
                        draft.metadata.insert(key.clone(), v.clone());
                    }
                }
            } else if is_item(o) {
                items.push((Some(1), data.unwrap_or(&Value::Null), String::new()));
            } else if !o.is_empty()
                && o.keys()
                    .all(|k| crate::core::str_ops::uint(k.trim()).is_some())
            {
                let mut keyed: Vec<(u64, &Value, String)> = o
                    .iter()
                    .filter_map(|(k, v)| {
                        Some((crate::core::str_ops::uint(k.trim())?, v, k.clone()))
                    })
                    .collect();
                crate::core::sort::sort_by_key(&mut keyed, |(n, _, _)| (*n, 0));
                items.extend(keyed.into_iter().map(|(n, v, k)| (Some(n), v, k)));
            } else {
                return Err(not_format("an object with none of these fields"));
            }
        }
        Some(other) => return Err(not_format(type_name(other))),
    }
    let mut taken: OrderedHashSet<u64> = OrderedHashSet::new();
    for (i, (container_number, v, path)) in items.into_iter().enumerate() {
        let Value::Object(o) = v else {
            draft.diagnostics.push(wrong_type(&path, "an object", v));
            continue;
        };
        let (mut src, own_number) = read_item(o, &path, &mut draft.diagnostics);
        let n = own_number.or(container_number).unwrap_or(i as u64 + 1);
        if taken.insert(n) {
            src.id = n.to_string();
            draft.sources.push(DraftSource {
                source: src,
                keys: vec![SourceKey::Num(n)],
                given_number: u32::try_from(n).ok(),
            });
        } else {
            src.id = format!("item-{}", i + 1);
            draft.sources.push(DraftSource {
                source: src,
                keys: Vec::new(),
                given_number: None,
            });
        }
    }
    cap_sources(&mut draft);
    Ok(draft)
}

/// Whether an object looks like one tool metadata item.
fn is_item(o: &Map<String, Value>) -> bool {
    ["urls", "titles", "identifiers", "source_type"]
        .iter()
        .any(|k| o.contains_key(*k))
}

/// Reads one tool metadata item; returns the source (id not set) and the number it
/// carries (`index` or `number`), if any.
fn read_item(
    o: &Map<String, Value>,
    path: &str,
    diags: &mut Vec<Diagnostic>,
) -> (Source, Option<u64>) {
    let mut r = SourceReader::new(o, path);
    let number = match r.fields.value_any(&["index", "number"]) {
        Some((k, v)) => match as_uint(v) {
            Some(n) => Some(n),
            None => {
                diags.push(wrong_type(&r.path_of(k), "a number", v));
                None
            }
        },
        None => None,
    };
    r.common(diags);
    // urls: the first safe one is the url, the other safe ones are kept.
    if let Some(list) = r.fields.array("urls") {
        let mut others = Vec::new();
        for (j, v) in list.into_iter().enumerate() {
            let p = format!("{}[{j}]", r.path_of("urls"));
            let Value::String(s) = v else {
                diags.push(wrong_type(&p, "a string", v));
                continue;
            };
            match classify_link(s) {
                Link::Url(u) => {
                    if r.src.url.is_none() {
                        r.src.url = Some(u);
                    } else if r.src.url.as_deref() != Some(u.as_str()) && !others.contains(&u) {
                        others.push(u);
                    }
                }
                Link::Unsafe(scheme) => diags.push(unsafe_url(&p, &scheme)),
                Link::Path(p) => others.push(p),
                Link::Empty => {}
            }
        }
        if !others.is_empty() {
            r.keep(
                "urls",
                Value::Array(others.into_iter().map(Value::String).collect()),
            );
        }
    }
    if let Some(list) = r.fields.array("titles") {
        let mut others = Vec::new();
        for (j, v) in list.into_iter().enumerate() {
            let t = match v {
                Value::String(s) => title(s),
                Value::Number(n) => Some(n.to_string()),
                other => {
                    diags.push(wrong_type(
                        &format!("{}[{j}]", r.path_of("titles")),
                        "a string",
                        other,
                    ));
                    None
                }
            };
            let Some(t) = t else { continue };
            if r.src.title.is_none() {
                r.src.title = Some(t);
            } else if r.src.title.as_deref() != Some(t.as_str()) {
                others.push(Value::String(t));
            }
        }
        if !others.is_empty() {
            r.keep("titles", Value::Array(others));
        }
    }
    let ipath = r.path_of("identifiers");
    match r.fields.value("identifiers") {
        None => {}
        Some(Value::Object(ids)) => {
            let mut rest = Map::new();
            for (k, v) in ids {
                let key = clean_text(k);
                let p = format!("{ipath}.{k}");
                if key.is_empty() {
                    continue;
                }
                match v {
                    Value::String(s) => match classify_link(s) {
                        Link::Url(u) => {
                            r.src.identifiers.insert(key, u);
                        }
                        Link::Unsafe(scheme) => diags.push(unsafe_url(&p, &scheme)),
                        Link::Path(_) | Link::Empty => {
                            rest.insert(k.clone(), v.clone());
                        }
                    },
                    Value::Null => {
                        rest.insert(k.clone(), Value::Null);
                    }
                    other => diags.push(wrong_type(&p, "a url", other)),
                }
            }
            if !rest.is_empty() {
                r.keep("identifiers", Value::Object(rest));
            }
        }
        // A list of ids, or one id, without urls: kept as given.
        Some(other) => r.keep("identifiers", other.clone()),
    }
    (r.finish("tool"), number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn draft(data: Value) -> Draft {
        parse(Some("x"), Some(&data), &Options::default()).unwrap()
    }

    #[test]
    fn seed_items() {
        let d = draft(json!([
            {"urls": ["https://mycompany.atlassian.net/browse/MKT-1183"], "titles": ["MKT-1183: Update marketing dashboard"],
             "identifiers": {"MKT-1183": "https://mycompany.atlassian.net/browse/MKT-1183"}, "source_type": "jira",
             "snippet": "Dashboard needs the Q3 numbers"},
            {"urls": ["javascript:alert(1)", "https://github.com/myorg/myrepo/pull/123", "https://github.com/myorg/myrepo"],
             "titles": ["", "Pull Request #123: Fix authentication bug", "PR 123"],
             "identifiers": {"PR #123": "https://github.com/myorg/myrepo/pull/123", "evil": "data:text/html,x"},
             "source_type": "github", "tool": "github_search"}
        ]));
        let a = &d.sources[0].source;
        assert_eq!(a.id, "1");
        assert_eq!(a.kind, "jira");
        assert_eq!(a.domain.as_deref(), Some("mycompany.atlassian.net"));
        assert_eq!(
            a.identifiers["MKT-1183"],
            "https://mycompany.atlassian.net/browse/MKT-1183"
        );
        let b = &d.sources[1].source;
        assert_eq!(
            b.url.as_deref(),
            Some("https://github.com/myorg/myrepo/pull/123")
        );
        assert_eq!(
            b.title.as_deref(),
            Some("Pull Request #123: Fix authentication bug")
        );
        assert_eq!(
            b.metadata["urls"],
            json!(["https://github.com/myorg/myrepo"])
        );
        assert_eq!(b.metadata["titles"], json!(["PR 123"]));
        assert_eq!(b.metadata["tool"], json!("github_search"));
        assert_eq!(b.identifiers.len(), 1);
        let codes: Vec<&str> = d.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["unsafe-url", "unsafe-url"]);
    }

    #[test]
    fn numbers_prefer_index_and_stay_unique() {
        let d = draft(
            json!([{"titles": ["a"], "index": 3}, {"titles": ["b"]}, {"titles": ["c"], "number": 3}, 7]),
        );
        let ids: Vec<&str> = d.sources.iter().map(|s| s.source.id.as_str()).collect();
        assert_eq!(ids, ["3", "2", "item-3"]);
        assert_eq!(d.sources[2].keys, vec![]);
        assert_eq!(d.diagnostics[0].code, "wrong-type");
    }

    #[test]
    fn not_format() {
        assert!(parse(None, Some(&json!(3)), &Options::default()).is_err());
        assert!(parse(None, Some(&json!({"foo": 1})), &Options::default()).is_err());
    }
}
