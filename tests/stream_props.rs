//! Streaming property test: for every fixture (grammar and format folders) and many
//! ways of cutting its input into chunks (inside markers, multi-byte characters, code
//! fence openers, sse events), the streamed result after `finish()` equals the one-shot
//! parse of the whole input. While streaming, no resolved marker shows as literal text.
#![cfg(not(target_arch = "wasm32"))]

use citekit::core::formats::Data;
use citekit::core::model::CitedAnswer;
use citekit::core::options::Options;
use citekit::core::stream::StreamParser;
use proptest::prelude::*;
use serde_json::Value;
use std::path::Path;

struct Case {
    name: String,
    answer: Option<String>,
    data: Option<Value>,
    options: Options,
}

fn cases() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|d| d.unwrap().path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|d| d.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for f in files {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
            let list: Vec<Value> = match v.get("cases").and_then(Value::as_array) {
                Some(c) => c.clone(),
                None => vec![v],
            };
            for (i, c) in list.into_iter().enumerate() {
                if c.get("error").is_some() {
                    continue;
                }
                let options: Options = match c.get("options") {
                    Some(o) => match serde_json::from_value(o.clone()) {
                        Ok(o) => o,
                        Err(_) => continue,
                    },
                    None => Options::default(),
                };
                out.push(Case {
                    name: format!("{}#{i}", f.strip_prefix(&root).unwrap().display()),
                    answer: c.get("answer").and_then(Value::as_str).map(str::to_string),
                    data: c.get("data").cloned().filter(|d| !d.is_null()),
                    options,
                });
            }
        }
    }
    out
}

fn one_shot(c: &Case) -> Option<CitedAnswer> {
    let data = match &c.data {
        None => Data::None,
        Some(Value::String(s)) => Data::Text(s),
        Some(v) => Data::Json(v),
    };
    citekit::parse(c.answer.as_deref(), data, &c.options).ok()
}

/// Cuts `s` at the given fractions (char boundaries).
fn cut(s: &str, cuts: &[u16]) -> Vec<String> {
    let mut points: Vec<usize> = cuts
        .iter()
        .map(|c| {
            let mut p = (*c as usize * s.len()) / 65536;
            while !s.is_char_boundary(p) {
                p += 1;
            }
            p
        })
        .collect();
    points.push(0);
    points.push(s.len());
    points.sort_unstable();
    points.dedup();
    points
        .windows(2)
        .map(|w| s[w[0]..w[1]].to_string())
        .collect()
}

fn normalized(a: &CitedAnswer) -> String {
    let mut diags: Vec<String> = a
        .diagnostics
        .iter()
        .map(|d| format!("{}@{:?}-{:?}", d.code, d.start, d.end))
        .collect();
    diags.sort();
    format!(
        "{}\n{}\n{}\n{}\n{:?}",
        a.text,
        serde_json::to_string(&a.citations).unwrap(),
        serde_json::to_string(&a.sources).unwrap(),
        serde_json::to_string(&a.links).unwrap(),
        diags
    )
}

/// Streams `c` cut at `cuts`; `None` when the stream cannot start (not the format).
fn streamed(c: &Case, cuts: &[u16]) -> Option<CitedAnswer> {
    let sse = matches!(c.data, Some(Value::String(_))) && c.answer.is_none();
    if sse {
        let Some(Value::String(stream)) = &c.data else {
            return None;
        };
        let mut p = StreamParser::new(Data::Text(""), &{
            let mut o = c.options.clone();
            o.format = citekit::core::options::FormatChoice::Given(citekit::Format::Sse);
            o
        })
        .ok()?;
        for chunk in cut(stream, cuts) {
            p.push(&chunk);
        }
        return Some(p.finish().clone());
    }
    let data = match &c.data {
        None => Data::None,
        Some(Value::String(s)) => Data::Text(s),
        Some(v) => Data::Json(v),
    };
    let mut p = StreamParser::new(data, &c.options).ok()?;
    for chunk in cut(c.answer.as_deref().unwrap_or(""), cuts) {
        p.push(&chunk);
    }
    Some(p.finish().clone())
}

#[test]
fn every_fixture_streams_to_the_one_shot_result_char_by_char() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for c in cases() {
        let Some(expected) = one_shot(&c) else {
            continue;
        };
        if c.answer.is_none() && !matches!(c.data, Some(Value::String(_))) {
            continue; // the text is inside the data: nothing to stream
        }
        // Every character its own chunk.
        let text = c
            .answer
            .clone()
            .or_else(|| c.data.as_ref().and_then(|d| d.as_str().map(str::to_string)))
            .unwrap_or_default();
        let n = text.chars().count().min(4000) as u32;
        let cuts: Vec<u16> = (1..n)
            .map(|i| ((i as u64 * 65536) / n as u64) as u16)
            .collect();
        match streamed(&c, &cuts) {
            Some(got) => {
                checked += 1;
                let (g, e) = (normalized(&got), normalized(&expected));
                if g != e {
                    let (gl, el): (Vec<&str>, Vec<&str>) =
                        (g.lines().collect(), e.lines().collect());
                    let diff: Vec<String> = gl
                        .iter()
                        .zip(el.iter())
                        .filter(|(a, b)| a != b)
                        .map(|(a, b)| format!("    streamed: {a}\n    one-shot: {b}"))
                        .collect();
                    failures.push(format!("{}:\n{}", c.name, diff.join("\n")));
                }
            }
            None => failures.push(format!("{}: the stream did not start", c.name)),
        }
    }
    println!("streamed {checked} fixture cases char by char");
    assert!(checked > 50, "only {checked} cases streamed");
    assert!(
        failures.is_empty(),
        "{} case(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]
    #[test]
    fn random_cuts_give_the_one_shot_result(idx in 0usize..10_000, cuts in proptest::collection::vec(any::<u16>(), 0..24)) {
        let all = cases();
        let c = &all[idx % all.len()];
        let expected = one_shot(c);
        prop_assume!(expected.is_some());
        prop_assume!(c.answer.is_some() || matches!(c.data, Some(Value::String(_))));
        let got = streamed(c, &cuts);
        prop_assert!(got.is_some(), "{}: the stream did not start", c.name);
        prop_assert_eq!(normalized(&got.unwrap()), normalized(&expected.unwrap()), "{}", c.name);
    }
}
