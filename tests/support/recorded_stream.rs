//! Checks shared by the tests of the providers' own streams (tests/openai_streams.rs,
//! tests/perplexity_stream.rs): a recorded stream (tests/recorded/<provider>/) appended
//! raw as an app receives it, cut anywhere, ends as `parse` of the final object the real
//! SDK made of it; while it runs nothing raw or partial shows.

use citekit::core::formats::Data;
use citekit::core::options::{FormatChoice, Options};
use citekit::core::stream::StreamParser;
use citekit::{Answer, Format};
use serde_json::Value;
use std::path::Path;
#[path = "utf8_chunks.rs"]
mod utf8_chunks;
pub use utf8_chunks::decode_chunks;

/// One recording: its name, the stream text and the SDK's final object (`.final.json`;
/// for the AI SDK, the final `UIMessage`, `.message.json`).
pub struct Recording {
    pub name: String,
    pub stream: String,
    pub last: Value,
}

/// The recordings of `provider` whose names start with `prefix`.
pub fn recorded(provider: &str, prefix: &str) -> Vec<Recording> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/recorded")
        .join(provider);
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".stream.txt"))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for p in names {
        let name = p
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".stream.txt", "");
        if !name.starts_with(prefix) {
            continue;
        }
        let stream = std::fs::read_to_string(&p).unwrap();
        // The provider SDKs' final object, or the AI SDK's final `UIMessage`.
        let final_file = ["final", "message"]
            .map(|kind| dir.join(format!("{name}.{kind}.json")))
            .into_iter()
            .find(|f| f.exists())
            .unwrap_or_else(|| panic!("{}: no {name}.final.json", dir.display()));
        let last: Value =
            serde_json::from_str(&std::fs::read_to_string(final_file).unwrap()).unwrap();
        out.push(Recording { name, stream, last });
    }
    assert!(!out.is_empty(), "no recording {provider}/{prefix}*");
    out
}

/// The stream with LF line ends, and with CRLF ones.
pub fn line_ends(stream: &str) -> [(String, &'static str); 2] {
    let lf = stream.replace("\r\n", "\n");
    let crlf = lf.replace('\n', "\r\n");
    [(lf, "LF"), (crlf, "CRLF")]
}

/// What must be equal: the text, each source's and citation's fields, the diagnostics.
pub fn shown(a: &Answer) -> Value {
    let sources: Vec<Value> = a
        .sources
        .iter()
        .map(|s| {
            serde_json::json!([
                s.id,
                s.number,
                s.url,
                s.title,
                s.domain,
                s.kind,
                s.snippet,
                s.published,
                s.cited,
                s.cite_count
            ])
        })
        .collect();
    let citations: Vec<Value> = a
        .citations
        .iter()
        .map(|c| serde_json::json!([c.start, c.end, c.sources, c.cited_text, c.pending]))
        .collect();
    let diagnostics: Vec<Value> = a
        .diagnostics
        .iter()
        .map(|d| serde_json::json!([d.code, d.message, d.start, d.end]))
        .collect();
    serde_json::json!({"format": a.format.name(), "text": a.text, "sources": sources,
        "citations": citations, "diagnostics": diagnostics})
}

/// Options with `format` given (`auto` for none).
pub fn options(format: &str) -> Options {
    let mut o = Options::default();
    if let Some(f) = Format::from_name(format) {
        o.format = FormatChoice::Given(f);
    }
    o
}

/// A stream as a view starts it, finished: with a format given, no data yet and every
/// chunk appended raw; with `auto`, the stream so far given as the view's data on every
/// chunk (a `<cited-answer>` whose `data` grows), detected from its first events.
pub fn streamed(chunks: &[String], o: &Options) -> Answer {
    if o.format == FormatChoice::Auto {
        use citekit::core::formats::CiteData;
        use citekit::core::live::stream_step;
        let mut live = None;
        let mut so_far = String::new();
        for c in chunks {
            so_far.push_str(c);
            stream_step(&mut live, "", &CiteData::Text(so_far.clone()), o, true);
        }
        return stream_step(&mut live, "", &CiteData::Text(so_far), o, false).0;
    }
    let mut p = StreamParser::new(Data::Text(""), o).expect("starts");
    for c in chunks {
        p.push(c);
    }
    p.finish().clone()
}

/// `parse` of the SDK's final object, checked to be `format`.
pub fn parse_final(r: &Recording, format: Format) -> Answer {
    let whole = citekit::parse(None, Data::Json(&r.last), &Options::default())
        .unwrap_or_else(|e| panic!("{}: {e}", r.name));
    assert_eq!(whole.format, format, "{}", r.name);
    assert!(!whole.text.is_empty(), "{}", r.name);
    whole
}

/// The stream cut at every byte, with LF and CRLF line ends and each format a view may
/// give (`formats`, the first the provider's own; `auto` is the view's data growing),
/// ends as `parse` of the final object; so does `parse` of the whole stream text.
///
/// Every byte is a cut in one run each (appended one byte at a time: characters split
/// across appends, `\r` and `\n` apart), and every snapshot on the way is checked
/// ([`check_snapshot`]); the stream cut in two (one large append, then the rest) is
/// checked at every byte of its first two events (where the stream's kind is decided)
/// and at every 29th byte after.
pub fn every_cut_ends_as_the_final_object(r: &Recording, format: Format, formats: &[&str]) {
    let whole = parse_final(r, format);
    let expected = shown(&whole);
    for (stream, ends) in line_ends(&r.stream) {
        for f in formats {
            let once = citekit::parse(None, Data::Text(&stream), &options(f))
                .unwrap_or_else(|e| panic!("{} {ends} as {f}: {e}", r.name));
            assert_eq!(
                shown(&once),
                expected,
                "{} {ends}: parse of the whole stream as {f}",
                r.name
            );
        }
        let bytes = stream.as_bytes();
        let every: Vec<usize> = (1..bytes.len()).collect();
        let one_by_one = decode_chunks(bytes, &every);
        // LF as the provider's format, CRLF as the others.
        let runs: Vec<&str> = if ends == "LF" {
            formats[..1].to_vec()
        } else {
            formats[1..].to_vec()
        };
        for f in runs {
            let name = format!("{} {ends} as {f}, one byte at a time", r.name);
            let end = checked_run(&name, &one_by_one, &options(f), &whole);
            assert_eq!(shown(&end), expected, "{name}");
        }
        let second = stream
            .match_indices("\n\n")
            .nth(1)
            .map_or(0, |(at, _)| at + 2);
        for cut in (0..=bytes.len()).filter(|c| *c <= second || c % 29 == 0) {
            let f = formats[cut % formats.len()];
            let end = streamed(&decode_chunks(bytes, &[cut]), &options(f));
            assert_eq!(
                shown(&end),
                expected,
                "{} {ends} as {f}, cut at byte {cut}",
                r.name
            );
        }
    }
}

/// Streams `chunks` as `o` says ([`streamed`]'s two ways), checking every snapshot
/// against the final answer ([`check_snapshot`]); the finished answer.
fn checked_run(name: &str, chunks: &[String], o: &Options, whole: &Answer) -> Answer {
    let mut stable = String::new();
    if o.format == FormatChoice::Auto {
        use citekit::core::formats::CiteData;
        use citekit::core::live::stream_step;
        let mut live = None;
        let mut so_far = String::new();
        for (i, c) in chunks.iter().enumerate() {
            so_far.push_str(c);
            let (s, info) = stream_step(&mut live, "", &CiteData::Text(so_far.clone()), o, true);
            check_snapshot(
                &format!("{name} at chunk {i}"),
                &s,
                &mut stable,
                info.prev_stable,
                whole,
            );
        }
        return stream_step(&mut live, "", &CiteData::Text(so_far), o, false).0;
    }
    let mut p = StreamParser::new(Data::Text(""), o).expect("starts");
    for (i, c) in chunks.iter().enumerate() {
        p.push(c);
        let fixed = p.stable_len();
        check_snapshot(
            &format!("{name} at chunk {i}"),
            p.snapshot(),
            &mut stable,
            fixed,
            whole,
        );
    }
    p.finish().clone()
}

/// One snapshot while streaming: it keeps the stable text of the one before (`stable`,
/// then set to its first `fixed` bytes), shows text the final answer starts with
/// (nothing raw from the stream, no partial marker, no half of a link still arriving),
/// no marker syntax outside code, and citations inside its text.
pub fn check_snapshot(at: &str, s: &Answer, stable: &mut String, fixed: usize, whole: &Answer) {
    assert!(
        s.text.starts_with(stable.as_str()),
        "{at}: stable text {stable:?} changed into {:?}",
        s.text
    );
    *stable = s.text[..fixed.min(s.text.len())].to_string();
    assert!(
        whole.text.starts_with(s.text.trim_end()),
        "{at}: {:?} is not how the answer starts",
        s.text
    );
    for raw in ["data:", "event:", "\"type\"", "{\"", "response.", "[DONE]"] {
        assert!(!s.text.contains(raw), "{at}: {raw:?} in {:?}", s.text);
    }
    let plain = outside_code(&s.text);
    for m in ["[1", "[2", "[3", "[4"] {
        assert!(!plain.contains(m), "{at}: {m:?} in {plain:?}");
    }
    for c in &s.citations {
        assert!(
            c.end <= s.text.len() && s.text.is_char_boundary(c.end),
            "{at}: {c:?}"
        );
    }
}

/// The text outside fenced code and code spans (where `[1]` is text).
fn outside_code(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    loop {
        match rest.find("```") {
            Some(at) => {
                out.push_str(&rest[..at]);
                match rest[at + 3..].find("```") {
                    Some(e) => rest = &rest[at + 3 + e + 3..],
                    None => break,
                }
            }
            None => {
                out.push_str(rest);
                break;
            }
        }
    }
    let mut plain = String::new();
    for (k, piece) in out.split('`').enumerate() {
        if k % 2 == 0 {
            plain.push_str(piece);
        }
    }
    plain
}

/// One byte at a time (characters split across appends), as `given`: every snapshot
/// passes [`check_snapshot`], the text shows before the end, and the end is the parse.
/// Returns the snapshots that differ from the one before.
pub fn byte_by_byte_shows_nothing_raw(r: &Recording, format: Format, given: &str) -> Vec<Answer> {
    let whole = parse_final(r, format);
    let bytes = r.stream.as_bytes();
    let cuts: Vec<usize> = (1..bytes.len()).collect();
    let chunks = decode_chunks(bytes, &cuts);
    let o = options(given);
    let mut p = StreamParser::new(Data::Text(""), &o).unwrap();
    let mut stable = String::new();
    let mut snapshots: Vec<Answer> = Vec::new();
    for (i, c) in chunks.iter().enumerate() {
        p.push(c);
        let s = p.snapshot();
        let at = format!("{} at chunk {i}", r.name);
        check_snapshot(&at, s, &mut stable, p.stable_len(), &whole);
        if snapshots
            .last()
            .is_none_or(|l| l.text != s.text || l.citations != s.citations)
        {
            snapshots.push(s.clone());
        }
    }
    assert!(
        snapshots
            .iter()
            .any(|s| !s.text.is_empty() && s.text.len() < whole.text.len()),
        "{}: the text never showed while streaming",
        r.name
    );
    let end = p.finish().clone();
    assert_eq!(shown(&end), shown(&whole), "{}: one byte at a time", r.name);
    snapshots
}

/// The stream appended one event at a time up to (not including) the first line holding
/// `before`: the snapshot then.
pub fn snapshot_before(r: &Recording, before: &str, given: &str) -> Answer {
    let at = r.stream.find(before).expect("the marker event");
    let at = r.stream[..at].rfind('\n').map_or(0, |n| n + 1);
    let mut p = StreamParser::new(Data::Text(""), &options(given)).unwrap();
    for event in r.stream[..at].split_inclusive("\n\n") {
        p.push(event);
    }
    p.snapshot().clone()
}
