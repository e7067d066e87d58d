//! Table-driven fixture test (like CommonMark's spec examples): every
//! `tests/fixtures/<folder>/*.json` holds one case, or `{"cases": [...]}` with several.
//! A case is `{description, answer, data, options, expected}`; `data` is JSON, or a
//! string (an event stream, or JSON text); `data_file` instead names a file holding it
//! (a recording under `tests/recorded/`; `.json` read as JSON, else as text). `expected` is matched against the output of
//! `parse` as JSON (npm/README.md, "parse"; offsets in `options.positionEncoding`, UTF-16 by
//! default): every key given must match, arrays must have the same length and match
//! item by item; keys not given are not checked. `"error": "<code>"` instead of
//! `expected` asserts that parsing fails with that error code.
//!
//! Set `CITEKIT_FIXTURE=<substring>` to run only matching files.
#![cfg(not(target_arch = "wasm32"))]

use citekit::core::formats::Data;
use citekit::core::json_output::{to_json, to_json_text};
use citekit::core::options::Options;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn matches(expected: &Value, actual: &Value, path: &str, errors: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, ev) in e {
                let p = format!("{path}.{k}");
                match a.get(k) {
                    Some(av) => matches(ev, av, &p, errors),
                    None if ev.is_null() => {}
                    None => errors.push(format!("{p}: missing, expected {ev}")),
                }
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                errors.push(format!(
                    "{path}: expected {} items, found {}: {}",
                    e.len(),
                    a.len(),
                    serde_json::to_string(actual).unwrap()
                ));
                return;
            }
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                matches(ev, av, &format!("{path}[{i}]"), errors);
            }
        }
        (Value::Number(e), Value::Number(a)) => {
            if e.as_f64() != a.as_f64() {
                errors.push(format!("{path}: expected {e}, found {a}"));
            }
        }
        (e, a) => {
            if e != a {
                errors.push(format!("{path}: expected {e}, found {a}"));
            }
        }
    }
}

fn run_case(case: &Value, name: &str) -> Result<(), String> {
    let answer = case.get("answer").and_then(Value::as_str);
    let options: Options = match case.get("options") {
        Some(o) => {
            serde_json::from_value(o.clone()).map_err(|e| format!("{name}: bad options: {e}"))?
        }
        None => Options::default(),
    };
    let loaded;
    let data = match (case.get("data"), case.get("data_file")) {
        (_, Some(Value::String(f))) => {
            loaded = load_data_file(f);
            match &loaded {
                Value::String(s) => Data::Text(s),
                v => Data::Json(v),
            }
        }
        (None | Some(Value::Null), _) => Data::None,
        (Some(Value::String(s)), _) => Data::Text(s),
        (Some(v), _) => Data::Json(v),
    };
    let result = citekit::parse(answer, data, &options);
    if let Some(code) = case.get("error").and_then(Value::as_str) {
        return match result {
            Err(e) if e.code() == code => Ok(()),
            Err(e) => Err(format!(
                "{name}: expected error {code}, got {} ({e})",
                e.code()
            )),
            Ok(a) => Err(format!(
                "{name}: expected error {code}, parsed: {}",
                serde_json::to_string(&to_json(&a, options.position_encoding)).unwrap()
            )),
        };
    }
    let answer = result.map_err(|e| format!("{name}: parse failed: {e}"))?;
    let actual = to_json(&answer, options.position_encoding);
    // The JSON text the npm package's `parse` hands to `JSON.parse` is this same
    // value, key for key and in the same order.
    let text = to_json_text(&answer, options.position_encoding);
    let written: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{name}: to_json_text is not JSON ({e}): {text}"))?;
    if serde_json::to_string(&written).unwrap() != serde_json::to_string(&actual).unwrap() {
        return Err(format!(
            "{name}: to_json_text differs from to_json:\n  text:    {text}\n  to_json: {}",
            serde_json::to_string(&actual).unwrap()
        ));
    }
    let expected = case
        .get("expected")
        .ok_or_else(|| format!("{name}: no `expected`"))?;
    let mut errors = Vec::new();
    matches(expected, &actual, "$", &mut errors);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{name}:\n  {}\n  actual: {}",
            errors.join("\n  "),
            serde_json::to_string(&actual).unwrap()
        ))
    }
}

/// A case's `data_file` (a path from the crate root, e.g. a recording under
/// `tests/recorded/`): `.json` files as JSON, anything else as text.
fn load_data_file(path: &str) -> Value {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let text = std::fs::read_to_string(&full)
        .unwrap_or_else(|e| panic!("data_file {}: {e}", full.display()));
    if path.ends_with(".json") {
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("data_file {path}: {e}"))
    } else {
        Value::String(text)
    }
}

fn fixture_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).expect("tests/fixtures") {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "json") {
                files.push(f);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn fixtures() {
    let filter = std::env::var("CITEKIT_FIXTURE").ok();
    let mut failures = Vec::new();
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    for file in fixture_files() {
        let rel = file
            .strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"))
            .unwrap()
            .display()
            .to_string();
        if filter.as_ref().is_some_and(|f| !rel.contains(f.as_str())) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let v: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{rel}: invalid fixture JSON: {e}"));
                continue;
            }
        };
        let folder = rel.split('/').next().unwrap().to_string();
        let cases: Vec<&Value> = match v.get("cases").and_then(Value::as_array) {
            Some(c) => c.iter().collect(),
            None => vec![&v],
        };
        for (i, case) in cases.iter().enumerate() {
            let name = match case.get("description").and_then(Value::as_str) {
                Some(d) if cases.len() > 1 => format!("{rel}#{i} ({d})"),
                _ => rel.clone(),
            };
            *counts.entry(folder.clone()).or_default() += 1;
            if let Err(e) = run_case(case, &name) {
                failures.push(e);
            }
        }
    }
    for (folder, n) in &counts {
        println!("fixtures/{folder}: {n} cases");
    }
    if !failures.is_empty() {
        panic!(
            "{} fixture case(s) failed:\n\n{}",
            failures.len(),
            failures.join("\n\n")
        );
    }
}

/// Every fixture case's data is detected as its folder's format (or, when the case
/// names a format in its options, possibly as that one), never as `ai-sdk`; the
/// `ai-sdk` cases are detected as nothing else. A parts array read as Anthropic
/// content lost every `source-url` part in silence: detection is held against every
/// folder, so that no format's shape is taken for another's.
#[test]
fn detection_holds_across_every_format_folder() {
    use citekit::core::formats::detect;
    use citekit::Format;
    let mut failures = Vec::new();
    let mut checked = 0usize;
    for file in fixture_files() {
        let rel = file
            .strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"))
            .unwrap()
            .display()
            .to_string();
        let folder = rel.split('/').next().unwrap().to_string();
        // Every folder but the marker grammar's is a format's: none escapes the check.
        let Some(own) = Format::from_name(&folder) else {
            assert_eq!(folder, "grammar", "fixture folder {folder} names no format");
            continue;
        };
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let cases: Vec<&Value> = match v.get("cases").and_then(Value::as_array) {
            Some(c) => c.iter().collect(),
            None => vec![&v],
        };
        for (i, case) in cases.iter().enumerate() {
            let loaded;
            let data = match (case.get("data"), case.get("data_file")) {
                (_, Some(Value::String(f))) => {
                    loaded = load_data_file(f);
                    match &loaded {
                        Value::String(s) => Data::Text(s),
                        v => Data::Json(v),
                    }
                }
                (None | Some(Value::Null), _) => continue,
                (Some(Value::String(s)), _) => Data::Text(s),
                (Some(v), _) => Data::Json(v),
            };
            let answer = case.get("answer").and_then(Value::as_str);
            let named = case
                .pointer("/options/format")
                .and_then(Value::as_str)
                .and_then(Format::from_name);
            let detected = detect(answer, data);
            checked += 1;
            let ok = match (&detected, own) {
                (Ok(f), Format::AiSdk) => *f == Format::AiSdk || named == Some(*f),
                // A stream in the AI SDK's own protocol (LlamaIndex Server's) is the AI
                // SDK's until the case names its format.
                (Ok(Format::AiSdk), _) => named == Some(own) && matches!(data, Data::Text(_)),
                (Ok(f), _) => *f == own || named.is_some() || case.get("error").is_some(),
                // Data that is no format's shape is named by the case, or an error case.
                (Err(_), _) => named.is_some() || case.get("error").is_some(),
            };
            if !ok {
                failures.push(format!("{rel}#{i}: detected {detected:?}"));
            }
        }
    }
    assert!(checked > 100, "only {checked} cases checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
