//! The Vercel AI SDK's UI message stream, appended raw to a stream as an app receives
//! it: every recording of the real SDK (tests/recorded/ai-sdk/) cut at every byte
//! (inside UTF-8 characters too, decoded as a streaming `TextDecoder` does) ends as
//! `parse` of the final `UIMessage` the same stream made: same text, sources, numbers
//! and spans. While it runs, no marker shows as raw text and no text already stable
//! changes.
#![cfg(not(target_arch = "wasm32"))]

use citekit::core::formats::Data;
use citekit::core::options::Options;
use citekit::core::stream::StreamParser;
use citekit::{Answer, Format};
use serde_json::Value;
#[path = "support/recorded_stream.rs"]
#[allow(dead_code)]
mod recorded_stream;
use recorded_stream::{decode_chunks, options};

/// Every recording of the AI SDK: its name, stream text and final `UIMessage`.
fn recorded() -> Vec<(String, String, Value)> {
    let out: Vec<_> = recorded_stream::recorded("ai-sdk", "")
        .into_iter()
        .map(|r| (r.name, r.stream, r.last))
        .collect();
    assert!(out.len() >= 8, "{} recordings", out.len());
    out
}

/// What must be equal ([`recorded_stream::shown`]), a diagnostic by its code and range:
/// its message names where the data said it, a stream event (`events[3].url`) or the
/// final message's part (`parts[2].url`).
fn shown(a: &Answer) -> Value {
    let mut v = recorded_stream::shown(a);
    for d in v["diagnostics"].as_array_mut().unwrap() {
        d[1] = Value::Null;
    }
    v
}

/// A stream as a view starts it: no data yet, then every chunk appended raw.
fn streamed(chunks: &[String], o: &Options) -> (Answer, Vec<Answer>) {
    let mut p = StreamParser::new(Data::Text(""), o).expect("starts");
    let mut snapshots = Vec::new();
    for c in chunks {
        p.push(c);
        snapshots.push(p.snapshot().clone());
    }
    (p.finish().clone(), snapshots)
}

/// Every recording cut in two at every byte, with either format a view may give
/// (`sse`, `ai-sdk`), ends as `parse` of the final message (and of the whole stream).
#[test]
fn a_ui_message_stream_cut_at_every_byte_ends_as_parse_of_its_final_message() {
    for (name, stream, message) in recorded() {
        let whole = citekit::parse(None, Data::Json(&message), &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(whole.format, Format::AiSdk, "{name}");
        let expected = shown(&whole);
        let of_stream = citekit::parse(None, Data::Text(&stream), &Options::default()).unwrap();
        assert_eq!(
            shown(&of_stream),
            expected,
            "{name}: parse of the whole stream"
        );
        let bytes = stream.as_bytes();
        // The format a view gives alternates from one cut to the next (a view says
        // `sse` or `ai-sdk`; both read the same).
        let formats = [options("sse"), options("ai-sdk")];
        for cut in 0..=bytes.len() {
            let o = &formats[cut % 2];
            let chunks = decode_chunks(bytes, &[cut]);
            let (end, _) = streamed(&chunks, o);
            assert_eq!(
                shown(&end),
                expected,
                "{name} as {:?}, cut at byte {cut}",
                o.format
            );
        }
    }
}

/// One byte at a time (characters split across appends): every snapshot keeps the
/// stable text of the one before, shows no marker syntax, and the end is the parse.
#[test]
fn a_ui_message_stream_byte_by_byte_never_shows_raw_markers_nor_rebuilds_stable_text() {
    for (name, stream, message) in recorded() {
        let whole = citekit::parse(None, Data::Json(&message), &Options::default()).unwrap();
        let bytes = stream.as_bytes();
        let cuts: Vec<usize> = (1..bytes.len()).collect();
        let chunks = decode_chunks(bytes, &cuts);
        let o = options("ai-sdk");
        let mut p = StreamParser::new(Data::Text(""), &o).unwrap();
        let mut stable = String::new();
        let mut grew = 0;
        for (i, c) in chunks.iter().enumerate() {
            p.push(c);
            let s = p.snapshot();
            assert_eq!(s.format, Format::AiSdk, "{name} at {i}");
            assert!(
                s.text.starts_with(&stable),
                "{name} at chunk {i}: stable text {stable:?} changed into {:?}",
                s.text
            );
            stable = s.text[..p.stable_len().min(s.text.len())].to_string();
            // Markers outside code (the recorded answers' code holds `[1, 2, 3]` and
            // `v[1]`) never show: `[1]`, `[2]`, `[3]` appear only inside the fence.
            let outside_code = match s.text.find("```") {
                Some(at) => {
                    let after = s.text[at + 3..].find("```").map(|e| at + 3 + e + 3);
                    let mut t = s.text[..at].to_string();
                    if let Some(e) = after {
                        t.push_str(&s.text[e..]);
                    }
                    t
                }
                None => s.text.clone(),
            };
            for m in ["[1]", "[2]", "[3]", "[1", "[2", "[3"] {
                assert!(
                    !outside_code.contains(m),
                    "{name} at chunk {i}: raw marker {m:?} in {outside_code:?}"
                );
            }
            if s.text.len() > grew {
                grew = s.text.len();
            }
        }
        assert!(grew > 0, "{name}: the text never showed while streaming");
        let end = p.finish().clone();
        assert_eq!(shown(&end), shown(&whole), "{name}: one byte at a time");
    }
}

/// Sources become live as they arrive: once a source part is in, the snapshot lists it
/// (before the stream ends), and a marker naming it is live, not pending.
#[test]
fn ui_message_stream_sources_are_live_as_they_arrive() {
    let (_, stream, _) = recorded()
        .into_iter()
        .find(|(n, _, _)| n == "perplexity-citations")
        .unwrap();
    let o = options("ai-sdk");
    let mut p = StreamParser::new(Data::Text(""), &o).unwrap();
    let mut saw_live = false;
    for line in stream.split_inclusive("\n\n") {
        p.push(line);
        if line.contains("\"type\":\"finish\"") {
            break;
        }
        let s = p.snapshot();
        if s.citations
            .iter()
            .any(|c| !c.sources.is_empty() && c.pending.is_empty())
        {
            saw_live = true;
        }
    }
    assert!(saw_live, "no live citation before the stream ended");
    assert_eq!(p.snapshot().sources.len(), 3);
}

/// A view whose `data` is the stream so far, growing (format `auto`, `sse` or
/// `ai-sdk`): each update reads only what is new, and the end is the parse.
#[test]
fn a_view_whose_data_is_the_growing_ui_message_stream() {
    use citekit::core::formats::CiteData;
    use citekit::core::live::stream_step;
    for (name, stream, message) in recorded() {
        let whole = citekit::parse(None, Data::Json(&message), &Options::default()).unwrap();
        for format in ["auto", "sse", "ai-sdk"] {
            let o = options(format);
            let mut live = None;
            let mut last = None;
            let mut at = 0;
            while at < stream.len() {
                at = (at + 97).min(stream.len());
                while !stream.is_char_boundary(at) {
                    at += 1;
                }
                let d = CiteData::Text(stream[..at].to_string());
                let (m, _) = stream_step(&mut live, "", &d, &o, true);
                last = Some(m);
            }
            let d = CiteData::Text(stream.clone());
            let (end, _) = stream_step(&mut live, "", &d, &o, false);
            assert!(last.is_some());
            assert_eq!(shown(&end), shown(&whole), "{name} as {format}");
        }
    }
}
