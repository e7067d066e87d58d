//! Perplexity's streamed chat completions appended raw, as a chat backend forwards
//! them: recorded with the real `openai` SDK pointed at Perplexity's base url
//! (tests/recorded/perplexity/, scripts/record-openai-streams.mjs). Cut at every byte
//! (inside UTF-8 characters too, CRLF and LF), the stream ends as `parse` of the
//! completion the SDK's `finalChatCompletion()` made: same text, sources, numbers,
//! spans and diagnostics. While it runs no `[n]` marker shows raw (whole or partial)
//! and the sources on the chunks make the markers live as they come.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/recorded_stream.rs"]
mod recorded_stream;

use citekit::Format;
use recorded_stream::*;

#[test]
fn a_perplexity_stream_cut_at_every_byte_ends_as_parse_of_its_final_completion() {
    for r in recorded("perplexity", "") {
        every_cut_ends_as_the_final_object(&r, Format::Perplexity, &["perplexity", "auto", "sse"]);
    }
}

#[test]
fn a_perplexity_stream_byte_by_byte_never_shows_a_raw_marker_nor_rebuilds_stable_text() {
    for r in recorded("perplexity", "") {
        byte_by_byte_shows_nothing_raw(&r, Format::Perplexity, "perplexity");
    }
}

/// The sources come with the first chunk: markers are live (numbered, not pending)
/// while the answer streams, not only at the end.
#[test]
fn perplexity_markers_are_live_while_the_answer_streams() {
    for r in recorded("perplexity", "") {
        let whole = parse_final(&r, Format::Perplexity);
        for given in ["sse", "perplexity"] {
            let s = snapshot_before(&r, "\"finish_reason\":\"stop\"", given);
            assert_eq!(s.format, Format::Perplexity, "{}", r.name);
            assert_eq!(s.sources.len(), whole.sources.len(), "{}", r.name);
            assert!(s.citations.len() >= 3, "{}: {:?}", r.name, s.citations);
            assert!(
                s.citations
                    .iter()
                    .all(|c| c.pending.is_empty() && !c.sources.is_empty()),
                "{}: {:?}",
                r.name,
                s.citations
            );
            assert!(whole.text.starts_with(s.text.trim_end()), "{}", r.name);
        }
    }
}
