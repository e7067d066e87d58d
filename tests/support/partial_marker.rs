//! What a streamed answer must never show: a marker still arriving at the end of its
//! text. Shared by the host stream tests (`tests/stream_props.rs`) and the browser ones
//! (`tests/stream_browser.rs`), which include this file with `#[path]`.
#![allow(dead_code)]

use citekit::core::formats::Data;
use citekit::core::options::Options;
use serde_json::Value;

/// The partial marker `text` ends in, if any: the forms SPEC section 7 says a stream
/// holds back (`[`, `[1`, `[1,`, `[[S:1,`, `[^no`, `[[USAGE:1`, `【1`, an OpenAI
/// private-use marker without its `\u{e201}`, a `<sup` not yet closed). Written from
/// the marker grammar (docs/markers.md), not from the stream's own hold-back.
pub fn partial_marker_at_end(text: &str) -> Option<&str> {
    let line = &text[text.rfind('\n').map_or(0, |i| i + 1)..];
    if let Some(i) = line.rfind('\u{e200}') {
        if !line[i..].contains('\u{e201}') {
            return Some(&line[i..]);
        }
    }
    if let Some(i) = line.rfind('<') {
        let rest = line[i..].to_ascii_lowercase();
        if "<sup".starts_with(rest.as_str())
            || (rest.starts_with("<sup") && !rest.contains("</sup>"))
        {
            return Some(&line[i..]);
        }
    }
    // A number list, or one number and a `#suffix` (anything but code or tags).
    let numeric = |s: &str| match s.split_once('#') {
        Some((n, suffix)) => {
            !n.is_empty()
                && n.chars().all(|c| c.is_ascii_digit())
                && !suffix.contains(['`', '<', '>'])
        }
        None => s
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ',' | ' ' | '-' | '–')),
    };
    let i = line.rfind(['[', '【', '［'])?;
    let opener = line[i..].chars().next()?;
    let body = &line[i + opener.len_utf8()..];
    let whole = &line[line[..i].trim_end_matches('[').len()..];
    if opener != '[' {
        return (!body.contains(['】', '］']) && numeric(body)).then_some(whole);
    }
    // A bracket run longer than any marker is text (docs/streaming.md, Hold-back).
    if body.contains(']') || body.chars().count() > 40 {
        return None;
    }
    let sid = body.strip_prefix("S:").map(numeric).unwrap_or(body == "S");
    let usage = "USAGE:".starts_with(body) || body.strip_prefix("USAGE:").is_some_and(numeric);
    let footnote = body
        .strip_prefix('^')
        .is_some_and(|b| !b.contains(char::is_whitespace));
    (numeric(body) || sid || usage || footnote).then_some(whole)
}

/// The text a stream of `answer` and `data` appends: the answer, else the text the
/// data holds (markers still in it), as an app streams a provider's answer while the
/// data it passed early already carries that text or a first piece of it. `None` when
/// there is none (or the data is not its claimed format).
pub fn streamed_text(
    answer: Option<&str>,
    data: Option<&Value>,
    options: &Options,
) -> Option<String> {
    if let Some(a) = answer.filter(|a| !a.is_empty()) {
        return Some(a.to_string());
    }
    let data = data.filter(|d| !d.is_string())?;
    let draft = citekit::core::formats::parse_draft(None, Data::Json(data), options).ok()?;
    Some(draft.text).filter(|t| !t.is_empty())
}
