//! The hold-back at the end of a streamed text: what of the last chunk is not shown yet
//! because the next one decides what it is (a partial marker, a complete marker that may
//! still become a link, a link whose destination is still arriving), and the code span
//! still open there, read as code until its block is complete. Nothing shows as a marker
//! that a later chunk turns into link text or code.

use crate::core::commonmark::{parse_document, Event, Tag};
use crate::core::draft::Draft;
use crate::core::markers::{protected_regions, Grammar, TextSyntax};
use crate::core::model::Answer;

/// What of `text` (the end of a streamed answer) is read now: its length without what
/// [`hold_back`] keeps back, and the backtick run that closes a code span still open
/// in what remains ([`unclosed_code_span`]). Text after a backtick run that is not
/// closed yet may still become code: it is read as code for now (the view shows it so),
/// so that no marker shows there that the closing run would turn into text; once its
/// block is complete it is read as it is.
pub(super) fn shown_part(text: &str, grammar: &Grammar) -> (usize, Option<String>) {
    let len = hold_back(text, grammar);
    let closer = unclosed_code_span(&text[..len]).map(|n| format!(" {}", "`".repeat(n)));
    (len, closer)
}

/// Cuts a draft's text to its first `len` bytes (a char boundary): an explicit span
/// that covers only text held back is left for later (as the parsers leave one past
/// the end of the text), one that reaches into it ends at the cut, and diagnostics are
/// clamped to it.
pub(super) fn cut_draft(draft: &mut Draft, len: usize) {
    if len >= draft.text.len() {
        return;
    }
    draft.text.truncate(len);
    draft
        .spans
        .retain(|s| s.start < len || (s.start == len && s.end == len));
    for s in &mut draft.spans {
        s.end = s.end.min(len);
    }
    for d in &mut draft.diagnostics {
        d.start = d.start.map(|p| p.min(len));
        d.end = d.end.map(|p| p.min(len));
    }
}

/// Takes the code span closer that [`shown_part`] added back off the answer's text.
pub(super) fn strip_closer(a: &mut Answer, closer: Option<&str>) {
    if let Some(c) = closer {
        if a.text.ends_with(c) {
            a.text.truncate(a.text.len() - c.len());
        }
    }
}

/// What of a streamed answer a view shows when no [`StreamParser`](super::StreamParser)
/// reads it (its data was refused): the text without a partial marker or a link still
/// arriving at its end, every marker form read ([`hold_back`] with [`Grammar::ALL`]).
pub fn shown_without_parser(text: &str) -> &str {
    &text[..hold_back(text, &Grammar::ALL)]
}

/// The length of `tail` that can be shown: everything but a trailing partial marker,
/// and a link whose destination is still arriving (`[3](https://ex`, `[see [3]](ht`):
/// its label may look like a marker now and turn into link text with the `)`.
pub fn hold_back(tail: &str, grammar: &Grammar) -> usize {
    let n = hold_back_marker(tail, grammar);
    if grammar.numeric || grammar.sid || grammar.footnotes || grammar.usage {
        if let Some(start) = unclosed_link_start(&tail[..n]) {
            return start;
        }
    }
    n
}

/// The length of the backtick run that opens a code span `text` does not close yet, in
/// its last paragraph, outside code blocks and other protected regions; `None` when
/// every code span is closed.
pub fn unclosed_code_span(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let para = crate::core::str_ops::rfind(b, b"\n\n").map_or(0, |i| i + 2);
    let first = crate::core::str_ops::memchr(b'`', &b[para..])? + para;
    let regions = protected_regions(&text[para..], TextSyntax::Markdown);
    let mut i = first;
    while i < b.len() {
        if b[i] != b'`' {
            i += 1;
            continue;
        }
        let run = b[i..].iter().take_while(|&&c| c == b'`').count();
        let rel = i - para;
        let escaped = b[para..i].iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 1;
        if !escaped && !regions.iter().any(|r| r.start <= rel && rel < r.end) {
            return Some(run);
        }
        i += run;
    }
    None
}

/// How far back an unclosed link is looked for: the parse that confirms one reads at
/// most this much of the end of the text (from a line start).
const LINK_LOOKBACK: usize = 4096;

/// The start of a link or image whose destination is not closed yet at the end of
/// `tail` (`[3](https://ex`, `[see [3]](ht`, `![3](u "Ti`): where the parser
/// ([`parse_document`]) reads a link once the destination is closed. A candidate is a
/// `(` after a `]` that no `)` closes; the end of `tail` is parsed with the closers
/// the destination may still be waiting for (`)`, `>)`, `")`, `')`, ` )`, one `)` per open
/// parenthesis), and a link the parser finds reaching into them starts where the text
/// is held back. What the parser reads as code, an escaped bracket, an autolink or raw
/// HTML is no link and is shown. The stream parser holds such a link back from its
/// markers, and the streaming view from what it shows, by this one rule.
pub(crate) fn unclosed_link_start(tail: &str) -> Option<usize> {
    let from = window_start(tail);
    let window = &tail[from..];
    let open = open_destinations(window.as_bytes())?;
    // Unspaced first: a space ends a destination (`[1]([1](u` needs `))`); spaced
    // after a backslash that would escape the `)`.
    let closers = ["", ">", "\"", "'", " "];
    let mut probe = String::with_capacity(window.len() + 8 + open);
    for prefix in closers {
        probe.clear();
        probe.push_str(window);
        probe.push_str(prefix);
        probe.extend(std::iter::repeat_n(')', open));
        let doc = parse_document(&probe);
        let start = doc
            .events
            .iter()
            .filter(|(e, r)| {
                matches!(e, Event::Start(Tag::Link { .. } | Tag::Image { .. }))
                    && r.start < window.len()
                    && r.end > window.len()
            })
            .map(|(_, r)| r.start)
            .min();
        if let Some(s) = start {
            return Some(from + s);
        }
    }
    None
}

/// Where the parse of [`unclosed_link_start`] starts: the whole of `tail` when it is
/// short (its blocks read as they are), else the first line start in its last
/// [`LINK_LOOKBACK`] bytes.
fn window_start(tail: &str) -> usize {
    if tail.len() <= LINK_LOOKBACK {
        return 0;
    }
    let mut cut = tail.len() - LINK_LOOKBACK;
    while !tail.is_char_boundary(cut) {
        cut += 1;
    }
    crate::core::str_ops::memchr(b'\n', &tail.as_bytes()[cut..]).map_or(tail.len(), |i| cut + i + 1)
}

/// How many parentheses are open at the end of `text` when one of them follows a `]`
/// (a destination may still be arriving); `None` when none does. The count is what
/// closes them all (a destination may hold balanced parentheses, even a whole link:
/// `[1]([1](u)`).
fn open_destinations(text: &[u8]) -> Option<usize> {
    let mut open: Vec<usize> = Vec::new();
    for (i, &c) in text.iter().enumerate() {
        match c {
            b'(' => open.push(i),
            b')' => {
                open.pop();
            }
            _ => {}
        }
    }
    open.iter()
        .any(|&i| i > 0 && text[i - 1] == b']')
        .then_some(open.len())
}

/// The length of `tail` without a trailing partial marker: from the first opener of
/// the last line (within a window) whose rest is still a partial marker, so that one
/// partial marker inside another (`<sup class="cite" data-sids="1">[S:`) is held back
/// whole.
fn hold_back_marker(tail: &str, grammar: &Grammar) -> usize {
    let b = tail.as_bytes();
    let n = b.len();
    // Look at most this far back for the opener of a partial marker.
    let window = n.saturating_sub(160);
    let mut held = n;
    let mut i = n;
    while i > window {
        i -= 1;
        if !tail.is_char_boundary(i) {
            continue;
        }
        let rest = &tail[i..];
        let c = rest.chars().next().unwrap_or(' ');
        let partial = match c {
            '[' if grammar.numeric || grammar.sid || grammar.footnotes || grammar.usage => {
                partial_bracket(rest)
            }
            '【' | '［' if grammar.numeric => {
                let close = if c == '【' { '】' } else { '］' };
                !crate::core::str_ops::has_char(rest, close) && rest.chars().count() < 24
            }
            '\u{e200}' if grammar.openai => !crate::core::str_ops::has_char(rest, '\u{e201}'),
            '<' if grammar.html_sup => {
                // Bytes, not a string slice: the rest may hold a multibyte character
                // within its first four bytes (`<む`), and `<sup` is ASCII.
                let lower = rest.to_ascii_lowercase();
                let head = &lower.as_bytes()[..lower.len().min(4)];
                (b"<sup".starts_with(head) || lower.starts_with("<sup"))
                    && !crate::core::str_ops::has(&lower, "</sup>")
            }
            '\n' => break,
            _ => false,
        };
        if partial {
            // An earlier `[` of the same run (`[[S:1`) starts the marker.
            let mut s = i;
            while s > 0 && b[s - 1] == b'[' {
                s -= 1;
            }
            held = s;
            i = s;
        }
    }
    held
}

/// Whether `rest` (starting with `[`) may still become a marker or a link: it has no
/// closing bracket yet and holds only marker characters, or it is a complete bracket
/// group at the very end (`[1]` may still be followed by `(url)` or `:`).
fn partial_bracket(rest: &str) -> bool {
    let body = rest.trim_start_matches('[');
    let close = crate::core::str_ops::find_str(body, "]");
    let inner = &body[..close.unwrap_or(body.len())];
    // A citation label names an id (a LlamaIndex node's UUID is 36 characters).
    let label = inner
        .get(..inner.len().min(9))
        .is_some_and(|head| "citation:"[..head.len()].eq_ignore_ascii_case(head));
    if inner.chars().count() > if label { 120 } else { 40 } {
        return false;
    }
    // `[1#suffix]`: after one number and `#`, any suffix but code or tags.
    let (list, suffix) = match crate::core::str_ops::find_str(inner, "#") {
        Some(h) if h > 0 && inner.as_bytes()[..h].iter().all(u8::is_ascii_digit) => {
            (&inner[..h], &inner[h + 1..])
        }
        _ => (inner, ""),
    };
    let marker_chars = list.chars().all(|c| {
        c.is_ascii_digit()
            || matches!(c, ',' | ' ' | '-' | '–' | '#' | ':' | '^' | '_' | '.')
            || c.is_ascii_alphabetic()
            || (label && matches!(c, '/' | '@'))
    }) && !suffix.contains(['`', '<', '>']);
    if !marker_chars {
        return false;
    }
    match close {
        None => true,
        // `[1]`, `[[S:1]]`, `[1][2` ... at the very end: wait for what follows.
        Some(e) => body[e..].chars().all(|c| c == ']'),
    }
}
