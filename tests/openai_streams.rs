//! OpenAI's own event streams appended raw, as a chat backend forwards them: the
//! Responses API's stream and a streamed Chat Completion, recorded with the real `openai`
//! SDK (tests/recorded/openai/, scripts/record-openai-streams.mjs). Cut at every byte
//! (inside UTF-8 characters too, LF and CRLF, keep-alive comments), each ends as `parse`
//! of the final object the SDK made (`finalResponse()`, `finalChatCompletion()`): same
//! text, sources, numbers, spans and diagnostics. While it runs nothing raw or partial
//! shows, stable text never changes, and a citation shows once its annotation is in.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/recorded_stream.rs"]
mod recorded_stream;

use citekit::Format;
use recorded_stream::*;

#[test]
fn a_responses_stream_cut_at_every_byte_ends_as_parse_of_its_final_response() {
    for r in recorded("openai", "responses-") {
        every_cut_ends_as_the_final_object(&r, Format::Openai, &["openai", "auto", "sse"]);
    }
}

#[test]
fn a_responses_stream_byte_by_byte_never_shows_raw_text_nor_rebuilds_stable_text() {
    for r in recorded("openai", "responses-") {
        let snapshots = byte_by_byte_shows_nothing_raw(&r, Format::Openai, "openai");
        // Citations come one by one as their annotations arrive, not all at the end.
        let counts: Vec<usize> = snapshots.iter().map(|s| s.citations.len()).collect();
        assert!(
            counts.windows(2).all(|w| w[0] <= w[1]),
            "{}: {counts:?}",
            r.name
        );
        let distinct = counts
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        assert!(distinct >= 3, "{}: citation counts {counts:?}", r.name);
    }
}

/// Before `response.completed` comes, every annotation has been read: the citations
/// shown are the final ones (same spans, same sources), live.
#[test]
fn responses_citations_show_before_the_final_response() {
    for r in recorded("openai", "responses-") {
        let whole = parse_final(&r, Format::Openai);
        let s = snapshot_before(&r, "event: response.completed", "sse");
        assert_eq!(s.format, Format::Openai, "{}", r.name);
        assert_eq!(s.text, whole.text, "{}", r.name);
        assert_eq!(s.citations, whole.citations, "{}", r.name);
        assert_eq!(s.sources, whole.sources, "{}", r.name);
    }
}

#[test]
fn a_chat_completions_stream_cut_at_every_byte_ends_as_parse_of_its_final_completion() {
    for r in recorded("openai", "chat-") {
        every_cut_ends_as_the_final_object(&r, Format::Openai, &["openai", "auto", "sse"]);
    }
}

#[test]
fn a_chat_completions_stream_byte_by_byte_never_shows_raw_text_nor_rebuilds_stable_text() {
    for r in recorded("openai", "chat-") {
        byte_by_byte_shows_nothing_raw(&r, Format::Openai, "sse");
    }
}

/// The web search annotations of a streamed completion show with the delta that
/// carries them, before `[DONE]`.
#[test]
fn chat_completions_citations_show_before_done() {
    for r in recorded("openai", "chat-") {
        let whole = parse_final(&r, Format::Openai);
        assert_eq!(whole.citations.len(), 3, "{}", r.name);
        for given in ["openai", "sse"] {
            let s = snapshot_before(&r, "\"finish_reason\":\"stop\"", given);
            assert_eq!(s.text, whole.text, "{}", r.name);
            assert_eq!(s.citations, whole.citations, "{} as {given}", r.name);
        }
    }
}

/// A text delta lost on the way (a proxy dropped an event): `response.completed` is the
/// last word, and the answer after it is `parse` of the final response, not the text
/// that streamed.
#[test]
fn a_responses_stream_that_lost_a_delta_ends_as_its_final_response() {
    for r in recorded("openai", "responses-") {
        let whole = parse_final(&r, Format::Openai);
        let mut events: Vec<&str> = r.stream.split_inclusive("\n\n").collect();
        let lost = (0..events.len())
            .filter(|&k| events[k].contains("response.output_text.delta"))
            .nth(2)
            .unwrap();
        events.remove(lost);
        check_lost_delta(&r.name, &events, &whole);
        // Without annotations the answer is read block by block (blocks shown kept):
        // the final response's text replaces the blocks read from the streamed text.
        let mut last = r.last.clone();
        for item in last["output"].as_array_mut().unwrap() {
            for part in item["content"].as_array_mut().into_iter().flatten() {
                part["annotations"] = serde_json::json!([]);
            }
        }
        let plain: Vec<String> = events
            .iter()
            .filter(|e| !e.contains("annotation.added"))
            .map(|e| match e.find("data: {\"type\":\"response.completed\"") {
                Some(at) => {
                    let mut v: serde_json::Value =
                        serde_json::from_str(e[at + 6..].trim()).unwrap();
                    v["response"] = last.clone();
                    format!("{}data: {v}\n\n", &e[..at])
                }
                None => e.to_string(),
            })
            .collect();
        let whole = citekit::parse(
            None,
            citekit::core::formats::Data::Json(&last),
            &options("auto"),
        )
        .unwrap();
        assert!(whole.citations.is_empty());
        let plain: Vec<&str> = plain.iter().map(String::as_str).collect();
        check_lost_delta(&format!("{} without annotations", r.name), &plain, &whole);
    }
}

fn check_lost_delta(name: &str, events: &[&str], whole: &citekit::Answer) {
    use citekit::core::formats::Data;
    use citekit::core::stream::StreamParser;
    let mut p = StreamParser::new(Data::Text(""), &options("openai")).unwrap();
    let mut before_end = None;
    for e in events {
        if e.contains("event: response.completed") {
            before_end = Some(p.snapshot().text.clone());
        }
        p.push(e);
    }
    let shown_before = before_end.unwrap();
    assert!(
        !whole.text.starts_with(&shown_before),
        "{name}: no delta was lost"
    );
    assert_eq!(
        shown(p.snapshot()),
        shown(whole),
        "{name}: at response.completed"
    );
    assert_eq!(shown(p.finish()), shown(whole), "{name}: finished");
}
