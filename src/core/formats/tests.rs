//! The format dispatch's and detection's tests.

use super::*;

/// A provider stream appended in a mounted view stopped being one once its first
/// chunk (`eve`) did not start with an SSE field: the next chunks went to the
/// answer as text. Text that is not JSON is the stream however it is cut.
#[cfg(feature = "providers")]
#[test]
fn a_provider_stream_cut_before_its_first_field_stays_a_stream() {
    for f in [Format::Anthropic, Format::Gemini] {
        let given = FormatChoice::Given(f);
        for t in [
            "",
            "e",
            "eve",
            "event: mes",
            "data: {\"candidates\"",
            ": ping\n\n",
        ] {
            assert!(
                streams_events(given, &CiteData::Text(t.into())),
                "{f:?} {t:?}"
            );
        }
        for t in ["{\"content\": []}", " [1]"] {
            assert!(
                !streams_events(given, &CiteData::Text(t.into())),
                "{f:?} {t:?}"
            );
        }
        assert!(!streams_events(given, &CiteData::Json(Value::Null)));
    }
}

/// A platform format given its object as JSON text (a `<cited-answer>`'s `data`
/// attribute) was taken for its event stream in a live view, and the answer never
/// showed. Text that is not JSON is the stream; with no data yet, Cohere's and
/// Bedrock's views wait for their stream, LlamaIndex's and LangChain's for answer
/// text whose object comes at the end.
#[test]
fn a_platform_format_given_json_text_reads_it_as_its_final_object() {
    for f in [
        Format::Cohere,
        Format::BedrockKb,
        Format::Llamaindex,
        Format::Langchain,
    ] {
        let given = FormatChoice::Given(f);
        for t in ["{\"message\": {}}", " [{\"type\": \"text\"}]"] {
            assert!(
                !streams_events(given, &CiteData::Text(t.into())),
                "{f:?} {t:?}"
            );
        }
        for t in ["", "da", "data: {\"type\"", "event: messages\n"] {
            assert!(
                streams_events(given, &CiteData::Text(t.into())),
                "{f:?} {t:?}"
            );
        }
    }
    assert!(streams_events(
        FormatChoice::Given(Format::Cohere),
        &CiteData::None
    ));
    for f in [Format::Llamaindex, Format::Langchain] {
        assert!(!streams_events(FormatChoice::Given(f), &CiteData::None));
    }
}

/// A chat UI's starting value (`{}`, `[]`, `{"sources": []}`) is no data: read as
/// markdown, not an `undetected-format` error; data that holds something is not.
#[test]
fn empty_data_is_no_data() {
    use serde_json::json;
    for v in [
        json!(null),
        json!([]),
        json!({}),
        json!({"sources": []}),
        json!({"sources": [], "citations": null, "extra": {}}),
    ] {
        assert_eq!(
            detect(None, Data::Json(&v)).unwrap(),
            Format::Markdown,
            "{v}"
        );
        assert!(is_empty_data(&v), "{v}");
        let a =
            crate::core::parse(Some("Hello [1]."), Data::Json(&v), &Options::default()).unwrap();
        assert_eq!(a.text, "Hello [1].", "{v}");
        assert!(a.diagnostics.is_empty(), "{v}: {:?}", a.diagnostics);
    }
    for v in [
        json!({"answer": "x"}),
        json!({"sources": [{"title": "T"}]}),
        json!([1]),
        json!(""),
    ] {
        assert!(!is_empty_data(&v), "{v}");
    }
    assert!(detect(None, Data::Json(&json!({"answer": "x"}))).is_err());
    // An empty list under a key that names a format is that format.
    let stored = json!({"sources": [], "references": []});
    assert_eq!(detect(None, Data::Json(&stored)).unwrap(), Format::Stored);
}

/// Without the provider formats (`cargo test --no-default-features --lib`, as
/// `npm test` runs it): each provider's data is still detected, and shows its text
/// without citations, with a `format-not-loaded` error naming the format.
#[cfg(not(feature = "providers"))]
#[test]
fn provider_data_without_the_provider_formats() {
    use serde_json::json;
    let cases = [
        (
            "anthropic",
            json!({"type": "message", "role": "assistant", "content": [
                {"type": "text", "text": "The tower is "},
                {"type": "text", "text": "330 m tall.", "citations": [{"type": "web_search_result_location",
                    "url": "https://t.example/", "title": "T", "cited_text": "330 m"}]}]}),
            "The tower is 330 m tall.",
        ),
        (
            "openai",
            json!({"output": [{"type": "message", "content": [{"type": "output_text",
                "text": "Rust 1.0 shipped in 2015.", "annotations": [{"type": "url_citation",
                "start_index": 0, "end_index": 10, "url": "https://r.example/", "title": "R"}]}]}]}),
            "Rust 1.0 shipped in 2015.",
        ),
        (
            "gemini",
            json!({"candidates": [{"content": {"parts": [{"text": "Gemini text."}]},
                "groundingMetadata": {"groundingChunks": [{"web": {"uri": "https://g.example/", "title": "G"}}],
                "groundingSupports": []}}]}),
            "Gemini text.",
        ),
        (
            "perplexity",
            json!({"model": "sonar", "citations": ["https://p.example/"],
                "choices": [{"message": {"role": "assistant", "content": "Sonar says so [1]."}}]}),
            "Sonar says so.",
        ),
    ];
    for (name, data, text) in &cases {
        let a = crate::core::parse_lenient(None, Data::Json(data), &Options::default());
        assert_eq!(a.format.name(), *name);
        assert_eq!(a.text, *text, "{name}");
        assert!(a.citations.is_empty(), "{name}: {:?}", a.citations);
        let d = a
            .diagnostics
            .iter()
            .find(|d| d.code == "format-not-loaded")
            .unwrap_or_else(|| panic!("{name}: {:?}", a.diagnostics));
        assert!(d
            .message
            .starts_with(&format!("{name} data needs the `providers` feature,")));
    }
    // The caller's text wins.
    let a = crate::core::parse_lenient(Some("Mine."), Data::Json(&cases[1].1), &Options::default());
    assert_eq!(a.text, "Mine.");
}

/// Without the posthoc format (the npm package's first module): its data is still
/// detected and shows its text, without citations, with a `format-not-loaded` error.
#[cfg(not(feature = "posthoc"))]
#[test]
fn posthoc_data_without_the_posthoc_format() {
    let data = serde_json::json!({"response": "Paris is big.",
        "sources": [{"title": "P", "url": "https://p.example/"}],
        "citations": [{"claim": "Paris is big", "sourceIndex": 1}]});
    let a = crate::core::parse_lenient(None, Data::Json(&data), &Options::default());
    assert_eq!(a.format, Format::Posthoc);
    assert_eq!(a.text, "Paris is big.");
    assert!(a.citations.is_empty());
    assert!(a.diagnostics.iter().any(|d| d.code == "format-not-loaded"
        && d.message
            .starts_with("posthoc data needs the `posthoc` feature,")));
}

/// Without the scintilla and payload formats (the npm package's first module): their
/// data is still detected and shows its text (a payload's `text`; scintilla's tool
/// metadata holds none), without citations, with a `format-not-loaded` error.
#[cfg(not(any(feature = "scintilla", feature = "payload")))]
#[test]
fn scintilla_and_payload_data_without_their_formats() {
    let scintilla = serde_json::json!([{"urls": ["https://a.example/"], "titles": ["A"]}]);
    let block = serde_json::json!({"text": "Paris is big [1].",
        "sources": [{"title": "P", "url": "https://p.example/", "citedText": "big"}]});
    // The citation event (read as payload when the format is given).
    let event = serde_json::json!({"type": "citation", "value": block.clone()});
    let given = Options {
        format: FormatChoice::Given(Format::Payload),
        ..Options::default()
    };
    let auto = Options::default();
    for (name, data, answer, options, text) in [
        ("scintilla", &scintilla, Some("Paris [1]."), &auto, "Paris."),
        ("scintilla", &scintilla, None, &auto, ""),
        ("payload", &block, None, &auto, "Paris is big."),
        ("payload", &event, None, &given, "Paris is big."),
    ] {
        let a = crate::core::parse_lenient(answer, Data::Json(data), options);
        assert_eq!(a.format.name(), name);
        assert_eq!(a.text, text, "{name}");
        assert!(a.citations.is_empty(), "{name}: {:?}", a.citations);
        assert!(
            a.diagnostics.iter().any(|d| d.code == "format-not-loaded"
                && d.message
                    .starts_with(&format!("{name} data needs the `{name}` feature,"))),
            "{name}: {:?}",
            a.diagnostics
        );
    }
}

/// A Bedrock Converse or Knowledge Bases response has an `output` as OpenAI's
/// Responses do, and was taken for one, showing an empty answer with no source; a
/// bare Cohere or Converse message was taken for Anthropic's. Each is its own
/// format and shows its text (with the `platforms` feature, its sources too).
#[test]
fn a_bedrock_response_is_not_taken_for_openai_with_an_empty_answer() {
    use serde_json::json;
    let cases = [
        (
            json!({"output": {"message": {"role": "assistant", "content": [
                {"citationsContent": {"content": [{"text": "Bees dance."}],
                 "citations": [{"title": "Bee book", "location": {"documentChar": {"documentIndex": 0, "start": 0, "end": 4}}}]}}]}},
                "stopReason": "end_turn"}),
            Format::BedrockConverse,
            "Bees dance.",
        ),
        (
            json!({"sessionId": "s", "output": {"text": "Thirty days."}, "citations": [
                {"generatedResponsePart": {"textResponsePart": {"text": "Thirty days.", "span": {"start": 0, "end": 11}}},
                 "retrievedReferences": [{"content": {"text": "30 days"}, "location": {"type": "S3", "s3Location": {"uri": "s3://b/hr.pdf"}}}]}]}),
            Format::BedrockKb,
            "Thirty days.",
        ),
        (
            json!({"role": "assistant", "content": [{"type": "text", "text": "Hi there."}],
                "citations": [{"start": 3, "end": 8, "text": "there", "sources": [{"type": "document", "id": "d", "document": {"title": "D"}}]}]}),
            Format::Cohere,
            "Hi there.",
        ),
    ];
    for (data, format, text) in cases {
        assert_eq!(detect(None, Data::Json(&data)).unwrap(), format, "{data}");
        let a = crate::core::parse_lenient(None, Data::Json(&data), &Options::default());
        assert_eq!(a.text, text);
        #[cfg(feature = "platforms")]
        assert_eq!(a.citations.len(), 1, "{format}: {:?}", a.diagnostics);
        #[cfg(not(feature = "platforms"))]
        assert!(a.diagnostics.iter().any(|d| d.code == "format-not-loaded"));
    }
    // OpenAI's Responses output (an array) and Anthropic's typed blocks stay theirs.
    let openai =
        json!({"output": [{"type": "message", "content": [{"type": "output_text", "text": "x"}]}]});
    assert_eq!(detect(None, Data::Json(&openai)).unwrap(), Format::Openai);
    let anthropic = json!({"role": "assistant", "content": [{"type": "text", "text": "x"}]});
    assert_eq!(
        detect(None, Data::Json(&anthropic)).unwrap(),
        Format::Anthropic
    );
}

/// Without the platform formats (the npm package's first module): each platform's
/// data is still detected, shows its text (markers read, `[doc1]` and `[[1]](url)`
/// too, none raw) without citations, with a `format-not-loaded` error naming the
/// `platforms` feature.
#[cfg(not(feature = "platforms"))]
#[test]
fn platform_data_without_the_platform_formats() {
    use serde_json::json;
    let cases = [
        (
            "azure",
            json!({"choices": [{"message": {"role": "assistant", "content": "Köln [doc1].",
                "context": {"citations": [{"title": "K", "url": "https://k.example/"}]}}}]}),
            "Köln.",
        ),
        (
            "xai",
            json!({"model": "grok-3", "choices": [{"message": {"content": "Grok [[1]](https://x.ai/)."}}],
                "citations": ["https://x.ai/"]}),
            "Grok.",
        ),
        (
            "mistral",
            json!({"choices": [{"message": {"content": [{"type": "text", "text": "Ça"},
                {"type": "reference", "reference_ids": [0]}]}}]}),
            "Ça",
        ),
        (
            "llamaindex",
            json!({"response": "Rhein [citation:n1].", "source_nodes": [{"node": {"id_": "n1", "text": "R"}}]}),
            "Rhein.",
        ),
        (
            "langchain",
            json!({"type": "ai", "content": [{"type": "text", "text": "Dom.", "annotations": [
                {"type": "citation", "url": "https://d.example/", "start_index": 0, "end_index": 3}]}]}),
            "Dom.",
        ),
    ];
    for (name, data, text) in &cases {
        let a = crate::core::parse_lenient(None, Data::Json(data), &Options::default());
        assert_eq!(a.format.name(), *name);
        assert_eq!(a.text, *text, "{name}");
        assert!(a.citations.is_empty(), "{name}: {:?}", a.citations);
        assert!(
            a.diagnostics.iter().any(|d| d.code == "format-not-loaded"
                && d.message
                    .starts_with(&format!("{name} data needs the `platforms` feature,"))),
            "{name}: {:?}",
            a.diagnostics
        );
    }
}

/// The caller's text wins over the text of an event stream's tokens; the stream
/// supplies the sources.
#[test]
fn caller_text_wins_over_sse_tokens() {
    let stream = "data: {\"type\":\"token\",\"content\":\"Stream text [1].\"}\n\n\
                  data: {\"type\":\"citations\",\"data\":{\"1\":{\"title\":\"One\",\"source\":\"https://one.example/\"}}}\n\n\
                  data: [DONE]\n\n";
    let options = Options::default();
    let a = crate::core::parse(Some("Caller text [1]."), Data::Text(stream), &options).unwrap();
    assert_eq!(a.text, "Caller text.");
    assert_eq!(a.citations.len(), 1);
    assert_eq!(a.citations[0].sources, vec!["1".to_string()]);
    assert_eq!((a.citations[0].start, a.citations[0].end), (0, 11));
    // An empty answer is no answer: the tokens are the text.
    let a = crate::core::parse(Some(""), Data::Text(stream), &options).unwrap();
    assert_eq!(a.text, "Stream text.");
}
