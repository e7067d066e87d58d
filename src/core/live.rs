//! Driving a [`StreamParser`] from the inputs a view holds (the answer text so far, the
//! data, the options, whether the stream still runs): what changed since the last call
//! is fed to the parser, and the view learns what it may keep. The components call
//! this on every change of their inputs; it does no DOM work, so it is tested here.
//!
//! [`change`] is the one rule for a streamed input given whole again (the answer text,
//! or for format `sse` the event stream so far): text that only grew is appended,
//! anything else starts the stream again (or, with no stream, reads the answer again).
//! The Leptos components ([`stream_step`]), the npm package's driver and its
//! JavaScript hosts (`<cited-answer>` and the React wrapper, which hand each new value
//! to the view's `update` with `streaming`: `src/js.rs`) all follow it.

use crate::core::formats::{CiteData, Data};
use crate::core::model::Answer;
use crate::core::options::Options;
use crate::core::stream::StreamParser;
use serde_json::Value;

/// The streaming state of one answer.
pub struct Live {
    parser: StreamParser,
    /// The answer as fed to the parser.
    answer: String,
    /// The data as last fed (for sse: the stream text so far).
    data: CiteData,
    options: Options,
}

/// What the renderer needs to know about the stream.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StreamInfo {
    /// The stream is still running.
    pub streaming: bool,
    /// Output bytes before this never change (the previous update's stable length);
    /// when the stream has just finished, where its open tail began.
    pub prev_stable: usize,
    /// The finished blocks were read again (new data, or the end of the stream): their
    /// text is compared with what is shown. Plain appends never change it.
    pub reread: bool,
}

/// What a view does with a new value of its streamed input (see [`change`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change<'a> {
    /// The input is the same: nothing to do.
    Same,
    /// The input grew by this text: it is appended to the stream (one starts when none
    /// runs).
    Append(&'a str),
    /// Another input while a stream runs or is about to (a regenerated answer): the
    /// stream starts again from it; nothing shown is kept.
    Restart,
    /// Another input and no stream: the answer is read again whole.
    Replace,
}

/// Decides from the streamed input shown (`prev`) and the one given now (`next`):
/// - the same text: [`Change::Same`];
/// - `next` is `prev` plus more, and the view's stream has not `ended` (or the answer
///   is `streaming` again): [`Change::Append`] of what grew;
/// - anything else (a shorter text, another text, growth after the stream ended):
///   [`Change::Restart`] when a stream is `running` or the answer is `streaming`,
///   [`Change::Replace`] otherwise.
///
/// `running`: the view has a stream (appends came and it was not finished).
/// `streaming`: the host says the answer is still arriving. `ended`: the view's stream
/// was finished (text that grows after that is a new answer, unless it streams).
pub fn change<'a>(
    prev: &str,
    next: &'a str,
    running: bool,
    streaming: bool,
    ended: bool,
) -> Change<'a> {
    if next == prev {
        return Change::Same;
    }
    // `next` starts with the whole of `prev`, so `prev.len()` is a char boundary.
    if next.starts_with(prev) && (!ended || streaming) {
        return Change::Append(&next[prev.len()..]);
    }
    if running || streaming {
        Change::Restart
    } else {
        Change::Replace
    }
}

/// [`change`] for a host whose streamed input may have had no value yet (`prev` is
/// `None`: JavaScript's `null` before a first answer): a first value is a new answer,
/// as after a finished stream, so it starts a stream only while the answer is
/// `streaming`; an empty text growing is growth.
pub fn change_first<'a>(
    prev: Option<&str>,
    next: &'a str,
    running: bool,
    streaming: bool,
    ended: bool,
) -> Change<'a> {
    match prev {
        Some(prev) => change(prev, next, running, streaming, ended),
        None => change("", next, running, streaming, true),
    }
}

/// The answer shown when the data cannot start a stream: the text parsed whole
/// without data, with the data's error as a diagnostic.
pub fn refused(answer: &str, opts: &Options, e: &crate::core::error::ParseError) -> Answer {
    let mut m = crate::core::parse_lenient(Some(answer), Data::None, opts);
    m.diagnostics.push(crate::core::model::Diagnostic::error(
        e.code(),
        e.to_string(),
    ));
    m
}

/// Feeds what changed since the last call to the stream parser; starts it when
/// needed (first call, other options, an answer that did not grow, sse data that is not
/// the old stream plus more), finishes it when `streaming` turned off. Returns the
/// answer to show and what the renderer needs to know about the stream.
pub fn stream_step(
    live: &mut Option<Live>,
    a: &str,
    d: &CiteData,
    opts: &Options,
    streaming: bool,
) -> (Answer, StreamInfo) {
    let sse = crate::core::formats::streams_events(opts.format, d);
    // The streamed input: the answer, or for sse the event stream so far.
    let grows = |l: &Live| {
        let (prev, next) = match (sse, &l.data, d) {
            (false, ..) => (l.answer.as_str(), a),
            (true, CiteData::Text(o), CiteData::Text(n)) => (o.as_str(), n.as_str()),
            (true, ..) => return false,
        };
        matches!(
            change(prev, next, true, streaming, false),
            Change::Same | Change::Append(_)
        )
    };
    let restart = match live.as_ref() {
        None => true,
        Some(l) => l.options != *opts || !grows(l),
    };
    let prev_stable = if restart {
        0
    } else {
        live.as_ref().map_or(0, |l| l.parser.stable_len())
    };
    if restart {
        let start = if sse { Data::Text("") } else { d.as_data() };
        match StreamParser::new(start, opts) {
            Ok(p) => {
                *live = Some(Live {
                    parser: p,
                    answer: String::new(),
                    data: if sse {
                        CiteData::Text(String::new())
                    } else {
                        d.clone()
                    },
                    options: opts.clone(),
                })
            }
            Err(e) => {
                *live = None;
                // While it streams, a marker still arriving is held back all the same.
                let shown = if streaming {
                    crate::core::stream::shown_without_parser(a)
                } else {
                    a
                };
                return (refused(shown, opts, &e), StreamInfo::default());
            }
        }
    }
    let Some(l) = live.as_mut() else {
        return (
            crate::core::parse_lenient(Some(a), d.as_data(), opts),
            StreamInfo::default(),
        );
    };
    let mut reread = false;
    if sse {
        if let (CiteData::Text(o), CiteData::Text(n)) = (&l.data, d) {
            if n.len() > o.len() {
                l.parser.push(&n[o.len()..]);
            }
        }
        l.data = d.clone();
    } else {
        if l.data != *d {
            let _ = l.parser.set_data(d.as_data());
            l.data = d.clone();
            reread = true;
        }
        if let Change::Append(more) = change(&l.answer, a, true, streaming, false) {
            l.parser.push(more);
            l.answer.push_str(more);
        }
    }
    let stable_len = l.parser.stable_len();
    if !streaming {
        let done = l.parser.finish().clone();
        *live = None;
        return (
            done,
            StreamInfo {
                streaming: false,
                prev_stable: prev_stable.min(stable_len),
                reread: true,
            },
        );
    }
    (
        l.parser.snapshot().clone(),
        StreamInfo {
            streaming: true,
            prev_stable: prev_stable.min(stable_len),
            reread,
        },
    )
}

/// A Vercel AI SDK message (format `ai-sdk`: a `UIMessage`, its parts or the messages
/// array) split for a view that gets it whole again on every change, as `useChat`
/// hands it: its answer text, as the format reads it, and the message without the
/// text of its text and reasoning parts. Two states of a streaming message whose rest
/// is the same differ only by text: the view appends what of the text grew and keeps
/// the data it has; a different rest (a new source, provider metadata, a tool result)
/// is new data.
pub fn split_message(message: &Value) -> (String, Value) {
    (
        crate::core::formats::ai_sdk::answer_text(message),
        without_text(message),
    )
}

/// `v` with the `text` of its text and reasoning parts taken out (a message, an array
/// of messages, or a parts array).
fn without_text(v: &Value) -> Value {
    match v {
        Value::Array(items) => Value::Array(items.iter().map(without_text).collect()),
        Value::Object(o) => match o.get("parts") {
            Some(Value::Array(parts)) => {
                let mut m = o.clone();
                m.insert(
                    "parts".into(),
                    Value::Array(parts.iter().map(without_text).collect()),
                );
                Value::Object(m)
            }
            _ if matches!(
                o.get("type").and_then(Value::as_str),
                Some("text" | "reasoning")
            ) =>
            {
                let mut part = o.clone();
                part.remove("text");
                Value::Object(part)
            }
            _ => v.clone(),
        },
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_message_that_only_grew_text_has_the_same_rest() {
        let early = json!({"id": "m", "role": "assistant", "parts": [
            {"type": "step-start"},
            {"type": "reasoning", "text": "Look", "state": "done"},
            {"type": "text", "text": "Paris is", "state": "streaming"}]});
        let later = json!({"id": "m", "role": "assistant", "parts": [
            {"type": "step-start"},
            {"type": "reasoning", "text": "Looking it up", "state": "done"},
            {"type": "text", "text": "Paris is the capital [1]", "state": "streaming"}]});
        let (t1, r1) = split_message(&early);
        let (t2, r2) = split_message(&later);
        assert_eq!(t1, "Paris is");
        assert_eq!(t2, "Paris is the capital [1]");
        assert_eq!(r1, r2, "more text is not new data");
        let mut sourced = later.clone();
        sourced["parts"]
            .as_array_mut()
            .unwrap()
            .push(json!({"type": "source-url", "sourceId": "s1", "url": "https://one.example/"}));
        let (t3, r3) = split_message(&sourced);
        assert_eq!(t3, t2);
        assert_ne!(r3, r2, "a new source is new data");
        // The messages array and a parts array split the same way.
        let (_, ra) = split_message(
            &json!([{"id": "u", "role": "user", "parts": [{"type": "text", "text": "Hi"}]}, early]),
        );
        assert_eq!(ra[1], r1);
        assert_eq!(without_text(&early["parts"]), r1["parts"]);
    }

    fn data() -> CiteData {
        CiteData::Json(
            json!({"1": {"title": "One", "source": "https://one.example/"},
                               "2": {"title": "Two", "source": "https://two.example/"}}),
        )
    }

    #[test]
    fn appends_feed_only_the_new_text_and_hold_back_a_partial_marker() {
        let mut live = None;
        let o = Options::default();
        let (m, info) = stream_step(&mut live, "Paris is the capital [", &data(), &o, true);
        assert!(info.streaming && !info.reread);
        // The `[` may start a marker: it is held back (the space before it shows).
        assert_eq!(m.text, "Paris is the capital ");
        let (m, info) = stream_step(
            &mut live,
            "Paris is the capital [1]. It is old",
            &data(),
            &o,
            true,
        );
        assert_eq!(m.text, "Paris is the capital. It is old");
        assert_eq!(m.citations.len(), 1);
        assert!(info.prev_stable <= m.text.len());
        assert!(live.is_some());
    }

    #[test]
    fn late_data_rereads_and_the_end_finishes() {
        let mut live = None;
        let o = Options::default();
        let text = "Paris is the capital [1].\n\nIt is old [2].";
        let (m, _) = stream_step(&mut live, text, &CiteData::None, &o, true);
        assert!(m.citations.iter().all(|c| !c.pending.is_empty()));
        let (m, info) = stream_step(&mut live, text, &data(), &o, true);
        assert!(info.reread, "new data rereads the finished blocks");
        assert!(m
            .citations
            .iter()
            .all(|c| c.pending.is_empty() && !c.sources.is_empty()));
        let (done, info) = stream_step(&mut live, text, &data(), &o, false);
        assert!(!info.streaming && info.reread);
        assert!(live.is_none(), "a finished stream lets go of its parser");
        let one_shot = crate::core::parse(Some(text), data().as_data(), &o).unwrap();
        assert_eq!(done.text, one_shot.text);
        assert_eq!(done.citations, one_shot.citations);
    }

    #[test]
    fn change_appends_growth_and_restarts_or_replaces_anything_else() {
        use Change::*;
        assert_eq!(change("Paris", "Paris", true, true, false), Same);
        assert_eq!(
            change("Paris", "Paris is", true, true, false),
            Append(" is")
        );
        // Growth with no stream yet starts one; after the end, only while streaming.
        assert_eq!(
            change("Paris", "Paris is", false, false, false),
            Append(" is")
        );
        assert_eq!(change("Paris", "Paris is", false, false, true), Replace);
        assert_eq!(
            change("Paris", "Paris is", false, true, true),
            Append(" is")
        );
        assert_eq!(change("", "Paris", false, true, false), Append("Paris"));
        // Another or a shorter text: a running or coming stream starts again.
        assert_eq!(change("Paris is", "Paris", true, false, false), Restart);
        assert_eq!(
            change("Paris", "Lyon is a city", true, true, false),
            Restart
        );
        assert_eq!(
            change("Paris", "Lyon is a city", false, true, false),
            Restart
        );
        assert_eq!(
            change("Paris", "Lyon is a city", false, false, false),
            Replace
        );
        // A text that grew inside a character is another text.
        assert_eq!(
            change("caf\u{e9}", "cafe\u{301}", true, true, false),
            Restart
        );
        assert_eq!(
            change("caf\u{e9}", "caf\u{e9}!", true, true, false),
            Append("!")
        );
    }

    #[test]
    fn a_first_value_is_growth_only_while_streaming() {
        use Change::*;
        assert_eq!(change_first(None, "Paris", false, false, false), Replace);
        assert_eq!(
            change_first(None, "Paris", false, true, false),
            Append("Paris")
        );
        assert_eq!(change_first(None, "", false, false, false), Same);
        assert_eq!(change_first(None, "", false, true, false), Same);
        assert_eq!(
            change_first(Some(""), "Paris", false, false, false),
            Append("Paris")
        );
        assert_eq!(
            change_first(Some("Paris"), "Lyon", true, false, false),
            Restart
        );
    }

    /// Regression: a regenerated answer longer than the one streaming had its end
    /// appended to the old text (only the length was compared), so the view showed
    /// the old answer's start with the new one's end.
    #[test]
    fn a_regenerated_longer_answer_starts_again() {
        let mut live = None;
        let o = Options::default();
        stream_step(&mut live, "Paris is old [1].", &data(), &o, true);
        let (m, info) = stream_step(
            &mut live,
            "Lyon is a city on two rivers [2].",
            &data(),
            &o,
            true,
        );
        assert_eq!(m.text, "Lyon is a city on two rivers.");
        assert_eq!(info.prev_stable, 0, "a restart keeps nothing shown");
    }

    #[test]
    fn a_shrunk_answer_or_new_options_start_again() {
        let mut live = None;
        let o = Options::default();
        stream_step(&mut live, "Paris is the capital [1].", &data(), &o, true);
        let (m, info) = stream_step(&mut live, "Lyon [2].", &data(), &o, true);
        assert_eq!(m.text, "Lyon.");
        assert_eq!(info.prev_stable, 0, "a restart keeps nothing shown");
        let keep = Options {
            unresolved: crate::core::options::Unresolved::Keep,
            ..Options::default()
        };
        let (_, info) = stream_step(&mut live, "Lyon [2]. More", &data(), &keep, true);
        assert_eq!(info.prev_stable, 0);
    }

    /// Regression: data the stream refuses (JSON that does not parse) left the answer to
    /// a whole parse, which showed a marker still arriving (`Paris [`).
    #[test]
    fn refused_data_still_holds_back_a_marker_still_arriving() {
        let mut live = None;
        let o = Options::default();
        let bad = CiteData::Text("{\"not json".into());
        let (m, _) = stream_step(&mut live, "Paris is the capital [", &bad, &o, true);
        assert_eq!(m.text, "Paris is the capital ");
        assert!(
            m.diagnostics.iter().any(|d| d.code == "invalid-json"),
            "{:?}",
            m.diagnostics
        );
        let (m, _) = stream_step(&mut live, "Paris is the capital [[S:1,", &bad, &o, true);
        assert_eq!(m.text, "Paris is the capital ");
        // The end of the stream shows everything.
        let (m, _) = stream_step(&mut live, "Paris is the capital [", &bad, &o, false);
        assert_eq!(m.text, "Paris is the capital [");
    }

    #[test]
    fn sse_data_feeds_the_new_part_of_the_stream() {
        let mut live = None;
        let o = Options {
            format: crate::core::options::FormatChoice::Given(crate::core::model::Format::Sse),
            ..Options::default()
        };
        let first = "data: {\"type\":\"token\",\"content\":\"Paris \"}\n\n";
        let (m, _) = stream_step(&mut live, "", &CiteData::Text(first.into()), &o, true);
        assert_eq!(m.text, "Paris ");
        let more = format!("{first}data: {{\"type\":\"token\",\"content\":\"is old.\"}}\n\n");
        let (m, _) = stream_step(&mut live, "", &CiteData::Text(more), &o, true);
        assert_eq!(m.text, "Paris is old.");
    }
}
