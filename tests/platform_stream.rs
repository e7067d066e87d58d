//! The platforms' streams (Cohere's `chatStream`, Bedrock's ConverseStream and
//! RetrieveAndGenerateStream, Azure On Your Data's and xAI's streamed chat completions,
//! Mistral's `chat.stream` and `beta.conversations.startStream`, LlamaIndex Server's UI
//! message stream, LangChain's `AIMessageChunk`s alone or in LangGraph's
//! `messages-tuple`), forwarded as `data:` lines, appended raw to a stream as an app
//! receives them: every recording in
//! tests/fixtures/{cohere,bedrock,bedrock-kb,azure,xai,mistral,llamaindex,langchain}/recorded.json
//! cut at every byte
//! (inside UTF-8 characters too, decoded as a streaming `TextDecoder` does) ends as
//! `parse` of the response the plain call returned: same text, sources, numbers and
//! spans. While it runs, text already stable never changes.
#![cfg(not(target_arch = "wasm32"))]

use citekit::core::formats::Data;
use citekit::core::options::{FormatChoice, Options};
use citekit::core::stream::StreamParser;
use citekit::{Answer, Format};
use serde_json::Value;
use std::path::Path;
#[path = "support/utf8_chunks.rs"]
mod utf8_chunks;
use utf8_chunks::decode_chunks;

/// `(name, format, stream text, response, named)` for every recorded stream; `named`
/// when the case names its format (`options.format`: LlamaIndex Server's stream starts
/// as any AI SDK stream may, and is read as `llamaindex` only when named).
fn recorded() -> Vec<(String, Format, String, Value, bool)> {
    let mut out = Vec::new();
    for folder in [
        "cohere",
        "bedrock",
        "bedrock-kb",
        "azure",
        "xai",
        "mistral",
        "llamaindex",
        "langchain",
    ] {
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(folder)
            .join("recorded.json");
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let cases = v["cases"].as_array().unwrap();
        for c in cases {
            let Some(of) = c.get("stream_of").and_then(Value::as_str) else {
                continue;
            };
            let response = cases
                .iter()
                .find(|o| o["description"] == of)
                .unwrap_or_else(|| panic!("{folder}: no case {of}"))["data"]
                .clone();
            out.push((
                c["description"].as_str().unwrap().to_string(),
                Format::from_name(folder).unwrap(),
                c["data"].as_str().unwrap().to_string(),
                response,
                c.pointer("/options/format").is_some(),
            ));
        }
    }
    assert_eq!(
        out.len(),
        10,
        "the recorded streams of the platform formats (two for Mistral, two for LangChain)"
    );
    out
}

/// What must be equal: the text, and each source's and citation's fields that show.
fn shown(a: &Answer) -> Value {
    let sources: Vec<Value> = a
        .sources
        .iter()
        .map(|s| serde_json::json!([s.id, s.number, s.url, s.title, s.kind, s.snippet, s.cited]))
        .collect();
    let citations: Vec<Value> = a
        .citations
        .iter()
        .map(|c| serde_json::json!([c.start, c.end, c.sources, c.cited_text, c.pending]))
        .collect();
    serde_json::json!({"format": a.format.name(), "text": a.text, "sources": sources, "citations": citations})
}

fn given(format: Format) -> Options {
    Options {
        format: FormatChoice::Given(format),
        ..Options::default()
    }
}

/// Every recording cut in two at every byte, given as its own format or as `sse`
/// (the first event tells; a recording that names its format only as that), ends as
/// `parse` of the response; so does `parse` of the whole stream text, with the format
/// given or detected.
#[test]
fn a_platform_stream_cut_at_every_byte_ends_as_parse_of_its_response() {
    for (name, format, stream, response, named) in recorded() {
        let whole = citekit::parse(None, Data::Json(&response), &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(whole.format, format, "{name}");
        assert!(!whole.citations.is_empty(), "{name}: no citations");
        let expected = shown(&whole);
        let told = if named {
            vec![given(format)]
        } else {
            vec![Options::default(), given(format)]
        };
        for o in told {
            let of_stream = citekit::parse(None, Data::Text(&stream), &o).unwrap();
            assert_eq!(
                shown(&of_stream),
                expected,
                "{name}: parse of the whole stream"
            );
        }
        let bytes = stream.as_bytes();
        let formats = [
            given(if named { format } else { Format::Sse }),
            given(format),
        ];
        for cut in 0..=bytes.len() {
            let o = &formats[cut % 2];
            let mut p = StreamParser::new(Data::Text(""), o).expect("starts");
            for c in decode_chunks(bytes, &[cut]) {
                p.push(&c);
            }
            assert_eq!(
                shown(p.finish()),
                expected,
                "{name} as {:?}, cut at byte {cut}",
                o.format
            );
        }
    }
}

/// One byte at a time: the text shows while it streams, every snapshot keeps the
/// stable text of the one before and shows nothing raw (a LlamaIndex
/// `[citation:<node_id>]` marker is held back while partial), citations turn up before
/// the end, and the end is the parse.
#[test]
fn a_platform_stream_byte_by_byte_shows_its_text_and_citations_as_they_come() {
    for (name, format, stream, response, _) in recorded() {
        let whole = citekit::parse(None, Data::Json(&response), &Options::default()).unwrap();
        let bytes = stream.as_bytes();
        let cuts: Vec<usize> = (1..bytes.len()).collect();
        let mut p = StreamParser::new(Data::Text(""), &given(format)).unwrap();
        let mut stable = String::new();
        let mut cited_early = false;
        let mut grew = 0;
        for (i, c) in decode_chunks(bytes, &cuts).iter().enumerate() {
            p.push(c);
            let s = p.snapshot();
            assert_eq!(s.format, format, "{name} at {i}");
            assert!(
                s.text.starts_with(&stable),
                "{name} at chunk {i}: stable text {stable:?} changed into {:?}",
                s.text
            );
            stable = s.text[..p.stable_len().min(s.text.len())].to_string();
            // Nothing raw: no event syntax, no marker (whole or partial), only text the
            // answer starts with.
            for raw in [
                "data:",
                "event:",
                "{\"",
                "\"type\"",
                "[citation",
                "citation:",
            ] {
                assert!(
                    !s.text.contains(raw),
                    "{name} at {i}: {raw:?} in {:?}",
                    s.text
                );
            }
            assert!(
                whole.text.starts_with(s.text.trim_end()),
                "{name} at chunk {i}: {:?} is not how the answer starts",
                s.text
            );
            grew = grew.max(s.text.len());
            cited_early |= s.citations.iter().any(|c| !c.sources.is_empty())
                && s.text.len() < whole.text.len();
        }
        assert!(grew > 0, "{name}: the text never showed while streaming");
        assert!(
            cited_early,
            "{name}: no citation before the text was complete"
        );
        assert_eq!(
            shown(p.finish()),
            shown(&whole),
            "{name}: one byte at a time"
        );
    }
}
