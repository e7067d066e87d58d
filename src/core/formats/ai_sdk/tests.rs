//! Tests of the `ai-sdk` format's parts that fixtures do not reach.

use super::*;
use serde_json::json;

fn stream_of(chunks: &[Value]) -> String {
    let mut s = String::new();
    for c in chunks {
        s.push_str("data: ");
        s.push_str(&c.to_string());
        s.push_str("\n\n");
    }
    s.push_str("data: [DONE]\n\n");
    s
}

#[test]
fn steps_are_paragraphs_and_other_parts_are_kept() {
    let msg = json!({"id": "m1", "role": "assistant", "parts": [
        {"type": "step-start"},
        {"type": "reasoning", "text": "thinking", "state": "done"},
        {"type": "text", "text": "I'll look.", "state": "done"},
        {"type": "tool-search", "toolCallId": "c1", "state": "output-available", "input": {}, "output": {}},
        {"type": "step-start"},
        {"type": "text", "text": "Found it.", "state": "done"},
        {"type": "text", "text": " More.", "state": "done"},
        {"type": "data-weather", "data": {"t": 1}},
        {"type": "something-new", "x": 1}
    ]});
    let d = parse(None, Some(&msg), &Options::default()).unwrap();
    assert_eq!(d.text, "I'll look.\n\nFound it. More.");
    let other = d.metadata["other_parts"].as_array().unwrap();
    let types: Vec<&str> = other.iter().map(|p| p["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        ["reasoning", "tool-search", "data-weather", "something-new"]
    );
    assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
    assert_eq!(d.metadata["id"], "m1");
}

#[test]
fn interleaved_text_parts_are_written_in_start_order() {
    let s = stream_of(&[
        json!({"type": "text-start", "id": "a"}),
        json!({"type": "text-start", "id": "b"}),
        json!({"type": "text-delta", "id": "b", "delta": "B"}),
        json!({"type": "text-delta", "id": "a", "delta": "A"}),
        json!({"type": "text-end", "id": "b"}),
        json!({"type": "text-delta", "id": "a", "delta": "a"}),
        json!({"type": "text-end", "id": "a"}),
    ]);
    let d = parse_stream(&s, &Options::default()).unwrap();
    assert_eq!(d.text, "AaB");
}

/// Without the provider formats (a build without `providers`): the text, the
/// sources and ai 7's own part `citations` are read (OpenAI's carry the same
/// offsets as its annotations); positions only a provider's parser reads (Gemini
/// grounding in the metadata) give `format-not-loaded`, the text and sources kept.
#[cfg(not(feature = "providers"))]
#[test]
fn without_the_provider_formats() {
    let openai: Value = serde_json::from_str(include_str!(
        "../../../../tests/recorded/ai-sdk/openai-web-search.message.json"
    ))
    .unwrap();
    let a = crate::core::parse_lenient(
        None,
        crate::core::formats::Data::Json(&openai),
        &Options::default(),
    );
    assert_eq!(a.format, Format::AiSdk);
    assert_eq!(a.sources.len(), 3);
    let cited: Vec<&str> = a
        .citations
        .iter()
        .map(|c| &a.text[c.start..c.end])
        .collect();
    assert_eq!(
        cited,
        [
            "Switzerland’s largest city, with about 447,000 inhabitants in 2024",
            "チューリッヒ",
            "the Zürichsee, is 40 km long",
            "Zürich also hosts ETH"
        ]
    );
    assert!(a.diagnostics.iter().all(|d| d.code != "format-not-loaded"));
    let gemini: Value = serde_json::from_str(include_str!(
        "../../../../tests/recorded/ai-sdk/gemini-grounding.message.json"
    ))
    .unwrap();
    let a = crate::core::parse_lenient(
        None,
        crate::core::formats::Data::Json(&gemini),
        &Options::default(),
    );
    assert!(a.text.starts_with("Le **Mont Blanc**"));
    assert_eq!(a.sources.len(), 3);
    assert!(a.citations.is_empty());
    assert!(a.diagnostics.iter().any(|d| d.code == "format-not-loaded"));
}

/// A UI message stream given as `sse` (what a view that streams raw events is told),
/// as text or as a JSON string, is read as one, not as `sse` tokens (which would
/// give no text).
#[test]
fn a_ui_message_stream_given_as_sse_is_read_as_one() {
    let s = stream_of(&[
        json!({"type": "start"}),
        json!({"type": "source-url", "sourceId": "a", "url": "https://a.example/"}),
        json!({"type": "text-start", "id": "0"}),
        json!({"type": "text-delta", "id": "0", "delta": "Yes [1]."}),
        json!({"type": "text-end", "id": "0"}),
    ]);
    let o = Options {
        format: crate::core::options::FormatChoice::Given(Format::Sse),
        ..Options::default()
    };
    let as_json = Value::String(s.clone());
    for data in [
        crate::core::formats::Data::Text(&s),
        crate::core::formats::Data::Json(&as_json),
    ] {
        let a = crate::core::parse(None, data, &o).unwrap();
        assert_eq!(a.format, Format::AiSdk);
        assert_eq!(a.text, "Yes.");
        assert_eq!(a.citations[0].sources, ["a"]);
    }
}

/// A view streaming the UI message stream starts with no data (`mount(el, {answer:
/// null, data: "", format: "ai-sdk"})`): an empty answer, not a `not-format` error.
#[test]
fn no_data_yet_is_an_empty_answer() {
    let o = Options {
        format: crate::core::options::FormatChoice::Given(Format::AiSdk),
        ..Options::default()
    };
    for data in [
        crate::core::formats::Data::None,
        crate::core::formats::Data::Text(""),
    ] {
        let a = crate::core::parse(None, data, &o).unwrap();
        assert_eq!((a.text.as_str(), a.sources.len()), ("", 0));
        assert!(a.diagnostics.is_empty(), "{:?}", a.diagnostics);
    }
    let a = crate::core::parse(Some("Text [1]."), crate::core::formats::Data::None, &o).unwrap();
    assert_eq!(a.text, "Text.");
}
