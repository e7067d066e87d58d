//! Property tests of `citekit::parse` (docs/markers.md, docs/formats.md "Offsets", docs/safety.md "Limits", docs/resolution.md):
//!
//! - (a) arbitrary answers and data (text, JSON values of depth <= 4) under every format
//!   and under detection: `parse` and `parse_lenient` never panic;
//! - (b) citation_map answers over a markdown-ish alphabet: the output text is the input
//!   with exactly the scanned markers' ranges removed;
//! - (c) every citation, link and diagnostic span lies on char boundaries inside the
//!   text, start <= end (plus the model's own consistency, `support/invariants.rs`);
//! - (d) `to_json` under utf8, utf16 and utf32 gives offsets within the text's length in
//!   that unit, and `to_json_text` (what the npm package's `parse` hands to
//!   `JSON.parse`) is the same value;
//! - (e) the caller's answer wins over the data's own text in every format that carries
//!   one: the output text is the caller's with its markers removed, as in (b).
//!
//! Kept to a few seconds in a debug build: raise `PROPTEST_CASES` to search longer.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/invariants.rs"]
mod invariants;

use citekit::core::formats::Data;
use citekit::core::markers::{scan, Grammar};
use citekit::core::model::{Answer, Format};
use citekit::core::options::{FormatChoice, Numbering, Options};
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{json, Map, Value};

/// Every format given explicitly, then auto detection.
fn choices() -> impl Iterator<Item = FormatChoice> {
    Format::ALL
        .into_iter()
        .map(FormatChoice::Given)
        .chain([FormatChoice::Auto])
}

fn config(cases: u32) -> Config {
    Config {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(cases),
        max_shrink_iters: 512,
        ..Config::default()
    }
}

/// Pieces of real answers: markers of every grammar, code, links, tables, footnotes,
/// CJK and emoji, line breaks, stray brackets.
#[rustfmt::skip]
const TOKENS: &[&str] = &[
    "a", "b", "word", " ", " ", "  ", ".", ",", ";", "!", "?", "…", "。", "\n", "\n\n", "\t",
    "[1]", "[2]", "[3]", "[5]", "[6]", "[0]", "[12]", "[99999]", "[1][2]", "[1] [3]",
    "[1, 2]", "[1,5]", "[1-3]", "[2–4]", "[4-9]", "[1#frag]", "[[1]]", "【2】", "［3］",
    "[x]", "[ ]", "- [x] done", "[", "]", "[[", "]]", "(", ")", "[1](https://e.com)",
    "[text](https://e.com/a)", "<https://e.com>", "`", "`x[1]`", "```", "```\nv[1]\n```\n",
    "~~~\n", "    code [2]\n", "- ", "* ", "1. ", "2) ", "> ", "# ", "## ", "| ", " | ",
    "|---|---|\n", "**", "_", "[^1]", "[^note]", "[^1]: Note https://n.org/x\n",
    "[^note]: text\n", "\n[^2]: two\n", "[[S:1]]", "[[USAGE:1]]", "<sup>1</sup>", "<code>",
    "[[S:1,4]]", "<sup class=\"cite\" data-sids=\"2\">[S:2]</sup>", "\u{e200}cite\u{e202}turn0search0\u{e201}",
    "中文", "検索", "😀", "👩‍👩‍👧", "e\u{301}", "\u{200b}", "\r\n", "\u{e200}", "\u{feff}",
];

fn markdownish(max_tokens: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..max_tokens).prop_map(|v| v.concat())
}

fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => markdownish(40),
        1 => ".{0,60}",
        1 => any::<String>(),
    ]
}

/// Keys real payloads use, so arbitrary JSON often reaches the parsers' inner code.
#[rustfmt::skip]
const KEYS: &[&str] = &[
    "1", "2", "3", "sources", "references", "citations", "text", "title", "url", "uri",
    "sid", "id", "content", "type", "annotations", "candidates", "groundingMetadata",
    "groundingChunks", "groundingSupports", "segment", "choices", "message", "startIndex",
    "endIndex", "start_index", "end_index", "sourceIds", "claim", "sourceIndex", "urls",
    "titles", "identifiers", "source_type", "role", "data", "location", "snippet", "source",
    "score", "metadata", "ok", "format", "sources_used", "_citations", "output", "web",
    "search_results", "cited_text", "document_index", "start_char_index", "end_char_index",
];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..40).prop_map(|n| json!(n)),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        any_text().prop_map(Value::String),
        Just(json!("https://example.com/a")),
        Just(json!("javascript:alert(1)")),
    ];
    let key = prop_oneof![
        3 => prop::sample::select(KEYS).prop_map(String::from),
        1 => ".{0,6}",
    ];
    // Depth <= 4: a leaf plus up to 3 levels of arrays/objects.
    leaf.prop_recursive(3, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Every successful parse of `answer` with `data` (as text, as JSON, and none) under
/// every format and detection, plus the lenient parses. Panics propagate.
fn all_outputs(answer: Option<&str>, text: &str, value: &Value) -> Vec<(FormatChoice, Answer)> {
    let mut out = Vec::new();
    let value_text = value.to_string();
    for choice in choices() {
        let options = Options {
            format: choice,
            ..Options::default()
        };
        for data in [
            Data::None,
            Data::Text(text),
            Data::Text(&value_text),
            Data::Json(value),
        ] {
            if let Ok(a) = citekit::parse(answer, data, &options) {
                out.push((choice, a));
            }
            out.push((choice, citekit::parse_lenient(answer, data, &options)));
        }
    }
    out
}

/// A citation_map covering the numbers 1..=5.
fn citation_map_1_to_5() -> Value {
    let mut m = Map::new();
    for i in 1..=5 {
        m.insert(
            i.to_string(),
            json!({
                "text": format!("Excerpt of source {i}."),
                "source": format!("docs/{i}.md"),
                "title": format!("Source {i}"),
                "score": 0.5 + i as f64 / 10.0,
                "metadata": {"page": i}
            }),
        );
    }
    Value::Object(m)
}

/// `text` with the byte ranges of the markers the citation map format reads (every syntax of the grammar) removed.
fn without_markers(text: &str) -> Result<String, TestCaseError> {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for m in scan(text, &Grammar::ALL).markers {
        let kept = text.get(last..m.range.start);
        prop_assert!(kept.is_some(), "scan gave a bad range {:?}", m.range);
        out.push_str(kept.unwrap_or_default());
        last = m.range.end;
    }
    out.push_str(text.get(last..).unwrap_or_default());
    Ok(out)
}

/// Answers over emoji, CJK and combining marks with explicit spans at arbitrary
/// positions (some past the end, some inside a character), in formats whose spans are
/// UTF-16 (stored, openai), UTF-8 bytes (gemini) or characters (anthropic, payload).
fn explicit_spans() -> impl Strategy<Value = (Option<String>, Value)> {
    const PIECES: &[&str] = &["a", "bc ", "中", "😀", "e\u{301}", ". ", "\n", "[1]"];
    let text = prop::collection::vec(prop::sample::select(PIECES), 0..24).prop_map(|v| v.concat());
    let spans = prop::collection::vec((0u64..80, 0u64..80), 0..5);
    (text, spans, 0..5u8).prop_map(|(text, spans, kind)| {
        let (answer, data) = match kind {
            0 => (
                Some(text.clone()),
                json!({
                    "sources": [{"id": "s1", "uri": "https://a.com", "title": "A"},
                                {"id": "s2", "uri": "https://b.com/", "title": "B"}],
                    "references": spans.iter().enumerate().map(|(i, (s, e))| json!({
                        "index": i + 1, "startIndex": s, "endIndex": e,
                        "sourceIds": [if i % 2 == 0 { "s1" } else { "s2" }]
                    })).collect::<Vec<_>>()
                }),
            ),
            1 => (
                None,
                json!({"type": "output_text", "text": text,
                       "annotations": spans.iter().map(|(s, e)| json!({
                           "type": "url_citation", "start_index": s, "end_index": e,
                           "url": format!("https://x.com/{s}"), "title": "X"
                       })).collect::<Vec<_>>()}),
            ),
            2 => (
                None,
                json!({"candidates": [{"content": {"parts": [{"text": text}]},
                       "groundingMetadata": {
                           "groundingChunks": [{"web": {"uri": "https://g.com", "title": "g.com"}}],
                           "groundingSupports": spans.iter().map(|(s, e)| json!({
                               "segment": {"startIndex": s, "endIndex": e},
                               "groundingChunkIndices": [0]
                           })).collect::<Vec<_>>()}}]}),
            ),
            3 => (
                None,
                json!({"role": "assistant", "content": [{"type": "text", "text": text,
                       "citations": spans.iter().map(|(s, e)| json!({
                           "type": "char_location", "cited_text": "x", "document_index": 0,
                           "document_title": "Doc", "start_char_index": s, "end_char_index": e
                       })).collect::<Vec<_>>()}]}),
            ),
            _ => (
                Some(text.clone()),
                json!({"text": text, "sources": spans.iter().map(|(s, e)| json!({
                    "title": "P", "url": "https://p.com", "citedText": "c",
                    "location": {"type": "char_location", "start": s, "end": e}
                })).collect::<Vec<_>>()}),
            ),
        };
        (answer, data)
    })
}

fn check(a: &Answer, numbering: Numbering) -> Result<(), TestCaseError> {
    invariants::check_spans(a).map_err(TestCaseError::fail)?;
    invariants::check_model(a, numbering).map_err(TestCaseError::fail)?;
    invariants::check_json_offsets(a).map_err(TestCaseError::fail)?;
    Ok(())
}

/// Data of every format that carries its own text, each with a text that is not the
/// caller's (and, for the formats with offsets, a span over it).
fn data_with_text() -> Vec<(Format, Value)> {
    vec![
        (
            Format::Perplexity,
            json!({"citations": ["https://a.com/"],
            "choices": [{"message": {"role": "assistant", "content": "Data text [1]."}}]}),
        ),
        (
            Format::Openai,
            json!({"type": "output_text", "text": "Data text here.", "annotations": [
            {"type": "url_citation", "start_index": 0, "end_index": 9, "url": "https://a.com/", "title": "A"},
            {"type": "file_citation", "index": 15, "file_id": "f1", "filename": "f.pdf"}]}),
        ),
        (
            Format::Anthropic,
            json!({"role": "assistant", "type": "message", "content": [
            {"type": "text", "text": "Data text.", "citations": [{"type": "char_location",
             "document_index": 0, "cited_text": "x", "start_char_index": 0, "end_char_index": 1}]}]}),
        ),
        (
            Format::Gemini,
            json!({"candidates": [{"content": {"parts": [{"text": "Data text."}]},
            "groundingMetadata": {"groundingChunks": [{"web": {"uri": "https://a.com/", "title": "a.com"}}],
            "groundingSupports": [{"segment": {"startIndex": 0, "endIndex": 4}, "groundingChunkIndices": [0]}]}}]}),
        ),
        (
            Format::Canonical,
            json!({"ok": true, "content": "Data text [[S:1]].", "format": "markdown",
            "sources_used": [{"sid": 1, "title": "One", "url": "https://a.com/"}]}),
        ),
        (
            Format::Payload,
            json!({"text": "Data text.", "sources": [{"title": "A", "url": "https://a.com/",
            "location": {"type": "url_citation", "startIndex": 0, "endIndex": 4}}]}),
        ),
        (
            Format::Stored,
            json!({"answer": "Data text.", "sources": [{"id": "a", "uri": "https://a.com/"}],
            "references": [{"startIndex": 0, "endIndex": 4, "sourceIds": ["a"]}]}),
        ),
        (
            Format::CitationMap,
            json!({"answer": "Data text [1].",
            "citation_map": {"1": {"title": "A", "source": "https://a.com/"}}}),
        ),
    ]
}

proptest! {
    #![proptest_config(config(128))]

    /// (e) The caller's answer is the text, whatever text the data carries.
    #[test]
    fn the_callers_text_wins_in_every_format(answer in markdownish(40)) {
        prop_assume!(!answer.is_empty());
        let expected = without_markers(&answer)?;
        for (format, data) in data_with_text() {
            for auto in [false, true] {
                let options = Options {
                    format: if auto { FormatChoice::Auto } else { FormatChoice::Given(format) },
                    ..Options::default()
                };
                let a = citekit::parse(Some(&answer), Data::Json(&data), &options)
                    .map_err(|e| TestCaseError::fail(format!("{format}: {e}")))?;
                prop_assert_eq!(a.format, format);
                prop_assert_eq!(&a.text, &expected, "{}", format);
                check(&a, Numbering::FirstCited)?;
            }
        }
    }

    /// (a) Never a panic, whatever the answer, the data and the format.
    #[test]
    fn parse_never_panics(
        answer in prop::option::of(any_text()),
        data in any_text(),
        value in json_value(),
    ) {
        all_outputs(answer.as_deref(), &data, &value);
    }

    /// (c), (d) on arbitrary input: spans inside the text on char boundaries, JSON
    /// offsets within the text in every unit.
    #[test]
    fn spans_and_offsets_hold_on_any_input(
        answer in prop::option::of(any_text()),
        value in json_value(),
    ) {
        for (_, a) in all_outputs(answer.as_deref(), "", &value) {
            check(&a, Numbering::FirstCited)?;
        }
    }

    /// (c), (d) with explicit spans at arbitrary positions over multi-byte text.
    #[test]
    fn explicit_spans_land_on_char_boundaries((answer, data) in explicit_spans()) {
        for numbering in [Numbering::FirstCited, Numbering::Given] {
            let options = Options { numbering, ..Options::default() };
            let a = citekit::parse_lenient(answer.as_deref(), Data::Json(&data), &options);
            check(&a, numbering)?;
        }
    }

    /// (b) A citation_map answer loses exactly its markers' ranges (with citations shown
    /// or not), and (c), (d) hold on the result.
    #[test]
    fn citation_map_text_is_input_minus_markers(answer in markdownish(60)) {
        let data = citation_map_1_to_5();
        let expected = without_markers(&answer)?;
        for show_citations in [true, false] {
            let options = Options {
                format: FormatChoice::Given(Format::CitationMap),
                show_citations,
                ..Options::default()
            };
            let a = citekit::parse(Some(&answer), Data::Json(&data), &options);
            let a = match a {
                Ok(a) => a,
                Err(e) => return Err(TestCaseError::fail(format!("parse failed: {e}"))),
            };
            prop_assert_eq!(&a.text, &expected, "show_citations: {}", show_citations);
            check(&a, Numbering::FirstCited)?;
            if show_citations {
                for c in &a.citations {
                    prop_assert!(!c.sources.is_empty(), "a citation without sources: {:?}", c);
                }
            }
        }
    }
}
