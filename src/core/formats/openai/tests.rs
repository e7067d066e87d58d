//! Tests of the `openai` format's parts that fixtures do not reach.

use super::private_use::{ref_id, unix_to_iso};
use super::*;
use crate::core::markers::SourceKey;
use serde_json::json;

#[test]
fn unix_dates() {
    assert_eq!(unix_to_iso(0.0).as_deref(), Some("1970-01-01T00:00:00Z"));
    assert_eq!(
        unix_to_iso(1_727_740_800.0).as_deref(),
        Some("2024-10-01T00:00:00Z")
    );
    assert_eq!(
        unix_to_iso(951_782_400.0).as_deref(),
        Some("2000-02-29T00:00:00Z")
    );
    assert_eq!(
        unix_to_iso(1_711_843_261.5).as_deref(),
        Some("2024-03-31T00:01:01Z")
    );
    assert_eq!(unix_to_iso(-1.0), None);
    assert_eq!(unix_to_iso(f64::NAN), None);
}

#[test]
fn ref_ids() {
    assert_eq!(
        ref_id(&json!({"turn_index": 0, "ref_type": "search", "ref_index": 3})),
        Some("turn0search3".into())
    );
    assert_eq!(ref_id(&json!("turn2news11")), Some("turn2news11".into()));
    assert_eq!(
        ref_id(&json!({"turn_index": 0, "ref_type": "Se arch", "ref_index": 1})),
        None
    );
    assert_eq!(
        ref_id(&json!({"turn_index": -1, "ref_type": "search", "ref_index": 1})),
        None
    );
    assert_eq!(ref_id(&json!("turn0\u{e201}")), None);
    assert_eq!(ref_id(&json!(3)), None);
}

#[test]
fn utf16_annotations_shift_per_part() {
    let v = json!({"output": [
        {"type": "message", "content": [{"type": "output_text", "text": "😀 ab", "annotations": [
            {"type": "url_citation", "start_index": 3, "end_index": 5, "url": "https://a.example/", "title": "A"}]}]},
        {"type": "message", "content": [{"type": "output_text", "text": "中x", "annotations": [
            {"type": "url_citation", "start_index": 1, "end_index": 2, "url": "https://a.example", "title": "A"},
            {"type": "file_citation", "file_id": "file-1", "filename": "f.pdf", "index": 2}]}]}]});
    let d = parse(None, Some(&v), &Options::default()).unwrap();
    assert_eq!(d.text, "😀 ab\n\n中x");
    assert!(d.metadata.get("other_output").is_none());
    assert_eq!(d.sources.len(), 2);
    let spans: Vec<(usize, usize)> = d.spans.iter().map(|s| (s.start, s.end)).collect();
    assert_eq!(spans, vec![(5, 7), (12, 13), (13, 13)]);
    assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
}

/// Output items that are not text (a web search call with its query) are kept in
/// the metadata.
#[test]
fn other_output_items_are_kept() {
    let v = json!({"object": "response", "output": [
        {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "artemis"}},
        {"type": "message", "content": [{"type": "output_text", "text": "Hi.", "annotations": []}]}]});
    let d = parse(None, Some(&v), &Options::default()).unwrap();
    assert_eq!(d.text, "Hi.");
    assert_eq!(
        d.metadata["other_output"][0]["action"]["query"],
        json!("artemis")
    );
}

/// Chat Completions with web search (`gpt-4o-search-preview`): the message's
/// content and its nested `url_citation` annotations, as a whole completion and as
/// the message alone; detected as openai (not perplexity, whose completions list
/// `citations`).
#[test]
fn chat_completions_annotations() {
    let message = json!({"role": "assistant", "content": "Le ciel est bleu 😀 à Paris.",
        "annotations": [{"type": "url_citation", "url_citation": {
            "start_index": 0, "end_index": 16, "url": "https://meteo.example/ciel", "title": "Météo"}}]});
    let completion = json!({"id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-4o-search-preview",
        "choices": [{"index": 0, "message": message.clone(), "finish_reason": "stop"}]});
    for v in [&completion, &message] {
        assert_eq!(
            crate::core::formats::detect(None, crate::core::formats::Data::Json(v)).unwrap(),
            Format::Openai
        );
        let d = parse(None, Some(v), &Options::default()).unwrap();
        assert_eq!(d.text, "Le ciel est bleu 😀 à Paris.");
        assert_eq!(d.sources.len(), 1);
        assert_eq!(d.sources[0].source.title.as_deref(), Some("Météo"));
        let spans: Vec<&str> = d.spans.iter().map(|s| &d.text[s.start..s.end]).collect();
        assert_eq!(spans, vec!["Le ciel est bleu"]);
        assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
    }
    // A Perplexity completion stays perplexity.
    let pplx =
        json!({"choices": [{"message": {"content": "x [1]"}}], "citations": ["https://a.example"]});
    assert_eq!(
        crate::core::formats::detect(None, crate::core::formats::Data::Json(&pplx)).unwrap(),
        Format::Perplexity
    );
}

/// An Assistants message: its text kept, the `【4:0†source】` markers taken out,
/// each a point citation of its file (the sentence before it); detected as openai.
#[test]
fn assistants_message_file_citations() {
    let v = json!({"id": "msg_1", "object": "thread.message", "role": "assistant", "content": [
        {"type": "text", "text": {"value": "Revenue grew 12% 😀【4:0†source】. Costs fell【4:1†source】.",
         "annotations": [
            {"type": "file_citation", "text": "【4:0†source】", "start_index": 19, "end_index": 31,
             "file_citation": {"file_id": "file-a"}},
            {"type": "file_citation", "text": "【4:1†source】", "start_index": 43, "end_index": 55,
             "file_citation": {"file_id": "file-b"}}]}}]});
    assert_eq!(
        crate::core::formats::detect(None, crate::core::formats::Data::Json(&v)).unwrap(),
        Format::Openai
    );
    let d = parse(None, Some(&v), &Options::default()).unwrap();
    assert_eq!(d.text, "Revenue grew 12% 😀. Costs fell.");
    let ids: Vec<&str> = d.sources.iter().map(|s| s.source.id.as_str()).collect();
    assert_eq!(ids, vec!["file-a", "file-b"]);
    let points: Vec<usize> = d.spans.iter().map(|s| s.end).collect();
    assert_eq!(
        points,
        vec![
            "Revenue grew 12% 😀".len(),
            "Revenue grew 12% 😀. Costs fell".len()
        ]
    );
    assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
    // The same points with offsets read as code points or bytes.
    for enc in [PositionEncoding::Utf32, PositionEncoding::Utf8] {
        let o = Options {
            input_encoding: Some(enc),
            ..Options::default()
        };
        let e = parse(None, Some(&v), &o).unwrap();
        let at: Vec<usize> = e.spans.iter().map(|s| s.end).collect();
        assert_eq!(at, points, "{enc:?}");
    }
}

#[test]
fn private_use_sources_merge_by_url_and_key() {
    let meta = json!({"search_result_groups": [{"domain": "example.com", "entries": [
        {"url": "https://example.com/a", "title": "A", "ref_id": {"turn_index": 0, "ref_type": "search", "ref_index": 0}},
        {"url": "https://example.com/a/", "title": "A again", "ref_id": {"turn_index": 0, "ref_type": "news", "ref_index": 1}}]}],
        "content_references": [{"type": "grouped_webpages", "items": [
            {"url": "https://example.com/a", "title": "A", "refs": [{"turn_index": 0, "ref_type": "search", "ref_index": 0}]}]}],
        "model_slug": "gpt-4o"});
    let d = parse(
        Some("x \u{e200}cite\u{e202}turn0search0\u{e201}"),
        Some(&meta),
        &Options::default(),
    )
    .unwrap();
    assert_eq!(d.sources.len(), 1);
    assert_eq!(d.sources[0].source.id, "turn0search0");
    assert_eq!(
        d.sources[0].keys,
        vec![
            SourceKey::Name("turn0search0".into()),
            SourceKey::Name("turn0news1".into())
        ]
    );
    assert_eq!(d.metadata.get("model_slug"), Some(&json!("gpt-4o")));
}
