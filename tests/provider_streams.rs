//! Providers' own event streams (Anthropic Messages, Gemini `alt=sse`), appended raw
//! to a stream as a page receives them from a chat backend that forwards them: each
//! recording (tests/recorded/provider-streams/, made with the real SDKs) cut at every
//! byte (inside UTF-8 characters too, decoded as a streaming `TextDecoder` does), with
//! LF and CRLF line ends and keep-alive comments between events, ends as `parse` of the
//! final object the SDK made of the same stream: the whole model (text, sources,
//! numbers, spans, diagnostics, metadata). While it runs, no marker shows as raw text,
//! nothing partial shows at the end of the text, and no text already stable changes.
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

struct Case {
    name: &'static str,
    format: Format,
    stream: String,
    final_object: Value,
}

fn cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recorded/provider-streams");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect(f);
    [
        ("anthropic-web-search", Format::Anthropic),
        ("gemini-grounding", Format::Gemini),
    ]
    .into_iter()
    .map(|(name, format)| Case {
        name,
        format,
        stream: read(&format!("{name}.stream.txt")),
        final_object: serde_json::from_str(&read(&format!("{name}.final.json"))).unwrap(),
    })
    .collect()
}

/// The stream with LF line ends, with CRLF ones, and with a keep-alive comment
/// (`: ping`) and an empty comment after every event.
fn variants(stream: &str) -> Vec<(&'static str, String)> {
    let lf = stream.replace("\r\n", "\n");
    let crlf = lf.replace('\n', "\r\n");
    let comments = lf.replace("\n\n", "\n\n: ping\n\n:\n");
    vec![("LF", lf), ("CRLF", crlf), ("comments", comments)]
}

fn model(a: &Answer) -> Value {
    serde_json::to_value(a).unwrap()
}

fn options(format: Format) -> Options {
    Options {
        format: FormatChoice::Given(format),
        ..Options::default()
    }
}

/// The text outside fenced code (the recorded answers hold `tickets[1]` and
/// `sommets[1]` in a code block).
fn outside_code(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("```") {
        out.push_str(&rest[..at]);
        match rest[at + 3..].find("```") {
            Some(e) => rest = &rest[at + 3 + e + 3..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// Each recording cut in two at every byte, with the provider's format given or `sse`
/// (detected from the first event), ends as `parse` of the SDK's final object.
#[test]
fn a_provider_stream_cut_at_every_byte_ends_as_parse_of_its_final_object() {
    for case in cases() {
        let whole = citekit::parse(None, Data::Json(&case.final_object), &Options::default())
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(whole.format, case.format, "{}", case.name);
        assert!(!whole.citations.is_empty(), "{}: cited", case.name);
        let expected = model(&whole);
        // The whole stream parsed at once with its format named reads the same.
        let of_stream = citekit::parse(None, Data::Text(&case.stream), &options(case.format))
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(
            model(&of_stream),
            expected,
            "{}: parse of the stream",
            case.name
        );
        let given = [options(case.format), options(Format::Sse)];
        for (kind, stream) in variants(&case.stream) {
            let bytes = stream.as_bytes();
            for cut in 0..=bytes.len() {
                let o = &given[cut % 2];
                let mut p = StreamParser::new(Data::Text(""), o).expect("starts");
                for c in decode_chunks(bytes, &[cut]) {
                    p.push(&c);
                }
                let end = p.finish();
                assert_eq!(
                    model(end),
                    expected,
                    "{} ({kind}) as {:?}, cut at byte {cut}",
                    case.name,
                    o.format
                );
            }
        }
    }
}

/// Regression (`parse` of a provider stream without a format): the whole recorded
/// stream given as text with no format is detected as the provider's, as `append`
/// detects it, and reads as `parse` of the final object.
#[test]
fn parse_of_a_whole_anthropic_or_gemini_stream_without_a_format_detects_it() {
    for case in cases() {
        let whole = citekit::parse(None, Data::Json(&case.final_object), &Options::default())
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        for (kind, stream) in variants(&case.stream) {
            let of_stream = citekit::parse(None, Data::Text(&stream), &Options::default())
                .unwrap_or_else(|e| panic!("{} ({kind}): {e}", case.name));
            assert_eq!(of_stream.format, case.format, "{} ({kind})", case.name);
            assert_eq!(
                model(&of_stream),
                model(&whole),
                "{} ({kind}): parse of the stream with no format",
                case.name
            );
        }
    }
}

/// One byte at a time (characters split across appends): every snapshot keeps the
/// text of the one before, shows no marker syntax outside code and nothing partial at
/// its end, its citations inside its text; citations show before `finish()` (Gemini's
/// with the last chunk, which carries the grounding).
#[test]
fn a_provider_stream_byte_by_byte_never_shows_raw_or_partial_text() {
    for case in cases() {
        let whole =
            citekit::parse(None, Data::Json(&case.final_object), &Options::default()).unwrap();
        for (kind, stream) in variants(&case.stream) {
            let bytes = stream.as_bytes();
            let cuts: Vec<usize> = (1..bytes.len()).collect();
            let chunks = decode_chunks(bytes, &cuts);
            let mut p = StreamParser::new(Data::Text(""), &options(Format::Sse)).unwrap();
            let mut before = String::new();
            let mut cited_early = false;
            for (i, c) in chunks.iter().enumerate() {
                p.push(c);
                let s = p.snapshot();
                let at = format!("{} ({kind}) at chunk {i}", case.name);
                if !s.text.is_empty() {
                    assert_eq!(s.format, case.format, "{at}");
                }
                assert!(
                    s.text.starts_with(&before) || before.starts_with(&s.text),
                    "{at}: text {before:?} changed into {:?}",
                    s.text
                );
                // The text shown is the final text's start: nothing raw ever shows.
                assert!(whole.text.starts_with(&s.text), "{at}: {:?} shown", s.text);
                let plain = outside_code(&s.text);
                for m in [
                    "[1]", "[2]", "[3]", "[1", "[2", "[3", "event:", "data:", "{\"",
                ] {
                    assert!(!plain.contains(m), "{at}: raw {m:?} in {:?}", s.text);
                }
                for c in &s.citations {
                    assert!(c.end <= s.text.len(), "{at}: citation past the text");
                    cited_early |= !c.sources.is_empty();
                }
                if s.text.len() >= before.len() {
                    before = s.text.clone();
                }
            }
            assert!(
                cited_early,
                "{} ({kind}): no citation before finish()",
                case.name
            );
            assert_eq!(
                model(p.finish()),
                model(&whole),
                "{} ({kind}): one byte at a time",
                case.name
            );
        }
    }
}

/// The text shown grows with the text deltas (not only at the end), and an Anthropic
/// citation shows once its block has stopped, before the message ends.
#[test]
fn anthropic_citations_show_when_their_block_stops() {
    let case = cases().into_iter().next().unwrap();
    let stop = "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":3}\n\n";
    let at = case.stream.find(stop).unwrap();
    let mut p = StreamParser::new(Data::Text(""), &options(Format::Anthropic)).unwrap();
    p.push(&case.stream[..at]);
    let s = p.snapshot().clone();
    assert!(s.text.contains("every day except Tuesday"), "{:?}", s.text);
    assert!(s.citations.is_empty(), "the cited block is still open");
    p.push(stop);
    let s = p.snapshot();
    assert_eq!(s.citations.len(), 1, "{:?}", s.citations);
    let c = &s.citations[0];
    assert_eq!(
        &s.text[c.start..c.end],
        "The Louvre is open every day except Tuesday, from 9 a.m. to 6 p.m."
    );
    let src = s.sources.iter().find(|x| x.id == c.sources[0]).unwrap();
    assert_eq!(src.number, 1);
    assert_eq!(
        src.url.as_deref(),
        Some("https://www.louvre.fr/en/visit/hours-admission")
    );
    // Every search result is a source at once (the uncited ones after the cited).
    assert_eq!(s.sources.len(), 3);
}
