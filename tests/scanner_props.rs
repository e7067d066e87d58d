//! Properties of the marker scanner (docs/markers.md) on generated input: it never
//! panics, its markers are sorted, disjoint and on char boundaries, taking them out and
//! putting them back gives the input again, no marker stands where pulldown-cmark
//! sees code or a link, and the scanner's protected ranges agree with citekit's own
//! markdown parser (`core::commonmark`): no marker where the parser sees code, a link or
//! HTML, and no protected range over text the parser shows as prose.
#![cfg(not(target_arch = "wasm32"))]

use citekit::core::commonmark as md;
use citekit::core::markers::{
    protected_regions, scan, Grammar, Marker, MarkerKind, Scan, TextSyntax,
};
use proptest::prelude::*;
use pulldown_cmark::{Event, LinkType, Options, Parser, Tag};
use std::ops::Range;

/// Pieces of markdown-ish text, chosen to collide: brackets, markers, code, containers.
const TOKENS: &[&str] = &[
    "[",
    "]",
    "[1]",
    "[2]",
    "1",
    "2",
    "12",
    "0",
    "S:",
    "[[S:1]]",
    "[[S:2-3]]",
    "^",
    "[^1]",
    "[^n]:",
    "[1]:",
    "[a]:",
    "`",
    "``",
    "```",
    "~~~",
    " ",
    "  ",
    "    ",
    "\t",
    "\n",
    "\n\n",
    "\r\n",
    "> ",
    "- ",
    "* ",
    "1. ",
    "2) ",
    "|",
    "|---|",
    "---",
    "===",
    "(",
    ")",
    "(x)",
    "http://x.example",
    "<",
    ">",
    "<b>",
    "</b>",
    "<!--",
    "-->",
    "!",
    "*",
    "_",
    "\\",
    "#",
    "## ",
    "【",
    "】",
    "【1】",
    "［2］",
    "🎉",
    "東京",
    "é",
    ",",
    "-",
    "–",
    ".",
    "a",
    "word",
    "\u{e200}cite\u{e202}turn0search0\u{e201}",
    "\u{e200}",
    "\u{e201}",
    "\u{e202}",
    "\u{e203}",
    "\u{e204}",
    "[[USAGE:1]]",
    "<sup class=\"cite\" data-sids=\"1\">x</sup>",
    "#",
    "x",
];

fn token_text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..max).prop_map(|v| v.concat())
}

fn syntaxes() -> [TextSyntax; 3] {
    [TextSyntax::Markdown, TextSyntax::Html, TextSyntax::Plain]
}

fn grammar(syntax: TextSyntax) -> Grammar {
    Grammar {
        syntax,
        ..Grammar::ALL
    }
}

/// The invariants of one scan.
fn check_scan(text: &str, s: &Scan) -> Result<(), String> {
    let mut last = 0usize;
    for (i, m) in s.markers.iter().enumerate() {
        let Marker { range, syntax, .. } = m;
        if range.start > range.end || syntax.start >= syntax.end {
            return Err(format!("marker {i}: bad ranges {range:?} {syntax:?}"));
        }
        if range.start < last {
            return Err(format!(
                "marker {i}: {range:?} overlaps or precedes the previous"
            ));
        }
        if syntax.start < range.start || syntax.end > range.end {
            return Err(format!(
                "marker {i}: syntax {syntax:?} outside range {range:?}"
            ));
        }
        if range.end > text.len() {
            return Err(format!("marker {i}: {range:?} past the end"));
        }
        for p in [range.start, range.end, syntax.start, syntax.end] {
            if !text.is_char_boundary(p) {
                return Err(format!("marker {i}: {p} not a char boundary"));
            }
        }
        if let MarkerKind::FootnoteDef { body } = &m.kind {
            if body.start < range.start || body.end > range.end || body.start > body.end {
                return Err(format!("marker {i}: body {body:?} outside {range:?}"));
            }
        }
        last = range.end;
    }
    // Out and back in.
    let mut out = String::new();
    let mut pieces = Vec::new();
    let mut at = 0;
    for m in &s.markers {
        out.push_str(&text[at..m.range.start]);
        pieces.push((out.len(), &text[m.range.clone()]));
        at = m.range.end;
    }
    out.push_str(&text[at..]);
    let mut back = String::new();
    let mut k = 0;
    for (pos, piece) in pieces {
        back.push_str(&out[k..pos]);
        back.push_str(piece);
        k = pos;
    }
    back.push_str(&out[k..]);
    if back != text {
        return Err("re-inserting the markers does not give the input".into());
    }
    for d in &s.diagnostics {
        if let (Some(a), Some(b)) = (d.start, d.end) {
            if a > b || b > text.len() || !text.is_char_boundary(a) || !text.is_char_boundary(b) {
                return Err(format!("diagnostic {} at bad {a}..{b}", d.code));
            }
        }
    }
    Ok(())
}

fn check_regions(text: &str, r: &[Range<usize>], s: &Scan) -> Result<(), String> {
    for w in r.windows(2) {
        if w[0].end > w[1].start {
            return Err(format!("regions {:?} and {:?} overlap", w[0], w[1]));
        }
    }
    for x in r {
        if x.start >= x.end || x.end > text.len() {
            return Err(format!("bad region {x:?}"));
        }
    }
    for m in &s.markers {
        // Footnote definitions hold code; a cite `<sup>` is a tag when markers are off.
        if matches!(m.kind, MarkerKind::FootnoteDef { .. } | MarkerKind::HtmlSup) {
            continue;
        }
        if let Some(x) = r
            .iter()
            .find(|x| x.start < m.syntax.end && m.syntax.start < x.end)
        {
            return Err(format!(
                "marker {:?} ({:?}) inside protected {x:?} ({:?})",
                m.syntax,
                &text[m.syntax.clone()],
                &text[x.clone()]
            ));
        }
    }
    Ok(())
}

fn check_all(text: &str) -> Result<(), String> {
    for syn in syntaxes() {
        let s = scan(text, &grammar(syn));
        check_scan(text, &s).map_err(|e| format!("{syn:?}: {e}"))?;
        let r = protected_regions(text, syn);
        check_regions(text, &r, &s).map_err(|e| format!("{syn:?}: {e}"))?;
    }
    let s = scan(text, &Grammar::NUMERIC);
    check_scan(text, &s)
}

/// Ranges where pulldown-cmark sees code, or a link whose label is not itself a marker
/// (`[1]` stays a citation marker even when `[1]: url` is defined, by design).
fn pulldown_forbidden(md: &str, markers: &[Marker]) -> Vec<(Range<usize>, &'static str)> {
    let opts = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_STRIKETHROUGH;
    let mut v = Vec::new();
    for (ev, r) in Parser::new_ext(md, opts).into_offset_iter() {
        match ev {
            Event::Code(_) => v.push((r, "code")),
            Event::Start(Tag::CodeBlock(_)) => v.push((r, "code block")),
            Event::Start(Tag::Link { link_type, .. } | Tag::Image { link_type, .. }) => {
                let by_reference = matches!(
                    link_type,
                    LinkType::Reference
                        | LinkType::ReferenceUnknown
                        | LinkType::Collapsed
                        | LinkType::CollapsedUnknown
                        | LinkType::Shortcut
                        | LinkType::ShortcutUnknown
                );
                let label_is_marker = markers
                    .iter()
                    .any(|m| m.syntax.start <= r.start && r.start < m.syntax.end);
                if !(by_reference && label_is_marker) {
                    v.push((r, "link"));
                }
            }
            _ => {}
        }
    }
    v
}

fn check_pulldown(md: &str) -> Result<(), String> {
    let s = scan(md, &Grammar::ALL);
    let forbidden = pulldown_forbidden(md, &s.markers);
    for m in &s.markers {
        // Private-use entities and cite `<sup>`s are opaque: one that starts first wraps
        // whatever markdown-looking text it holds (pulldown-cmark knows neither).
        let opaque = matches!(
            m.kind,
            MarkerKind::OpenaiCite { .. } | MarkerKind::OpenaiOther { .. } | MarkerKind::HtmlSup
        );
        if let Some((r, what)) = forbidden.iter().find(|(r, _)| {
            r.start < m.syntax.end
                && m.syntax.start < r.end
                && !(opaque && r.start >= m.syntax.start)
        }) {
            return Err(format!(
                "marker {:?} {:?} is inside a {what} {r:?} {:?}",
                m.syntax,
                &md[m.syntax.clone()],
                &md[r.clone()]
            ));
        }
    }
    Ok(())
}

/// What `core::commonmark` reads in `md`: the ranges of code (spans and blocks), links and
/// images (text and destination: the scanner reads no marker in a link's text either)
/// and inline HTML; and the ranges of prose, the text events outside all of those and
/// outside HTML blocks, each run of adjacent text joined. An HTML block's lines are
/// neither: markers between its tags are read (docs/markers.md), and the parser's
/// events give the block's lines, not its tags.
struct ParserRegions {
    forbidden: Vec<(Range<usize>, &'static str)>,
    prose: Vec<Range<usize>>,
}

fn parser_regions(text: &str) -> ParserRegions {
    let mut forbidden = Vec::new();
    let mut prose: Vec<Range<usize>> = Vec::new();
    // Open code blocks, links, images and HTML blocks: (tag end, start).
    let mut open: Vec<(md::TagEnd, usize)> = Vec::new();
    for (e, r) in md::parse(text) {
        match e {
            md::Event::Start(tag) => {
                let end = match tag {
                    md::Tag::CodeBlock(_) => md::TagEnd::CodeBlock,
                    md::Tag::HtmlBlock => md::TagEnd::HtmlBlock,
                    md::Tag::Link { .. } => md::TagEnd::Link,
                    md::Tag::Image { .. } => md::TagEnd::Image,
                    _ => continue,
                };
                open.push((end, r.start));
            }
            md::Event::End(end) => {
                if let Some(k) = open.iter().rposition(|(t, _)| *t == end) {
                    let (t, start) = open.remove(k);
                    let r = start..r.end.max(start);
                    // A link or image written `[text][ref]`, `[ref][]` or `[ref]`.
                    let by_reference =
                        !text[r.clone()].ends_with(')') && !text[r.clone()].starts_with('<');
                    let what = match t {
                        md::TagEnd::CodeBlock => "code block",
                        md::TagEnd::HtmlBlock => continue,
                        _ if by_reference => "reference link",
                        _ => "link",
                    };
                    forbidden.push((r, what));
                }
            }
            md::Event::Code(_) => forbidden.push((r, "code")),
            md::Event::InlineHtml(_) => forbidden.push((r, "inline HTML")),
            md::Event::Text(_)
                if open
                    .last()
                    .is_some_and(|(t, _)| *t == md::TagEnd::CodeBlock) =>
            {
                forbidden.push((r, "code block text"))
            }
            md::Event::Text(_) if open.is_empty() && !r.is_empty() => match prose.last_mut() {
                Some(last) if last.end == r.start => last.end = r.end,
                _ => prose.push(r),
            },
            _ => {}
        }
    }
    ParserRegions { forbidden, prose }
}

/// Whether the line holding `at` reads `[label]:` after its container marks: a
/// definition line, or one shaped like it (a sources line `[1]: Smith et al.`, or a
/// definition inside a paragraph), whose text the scanner keeps by design
/// (docs/markers.md) where the parser may show it as prose.
fn definition_line(md: &str, at: usize) -> bool {
    let start = md[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let end = md[at..].find(['\n', '\r']).map_or(md.len(), |i| at + i);
    let line =
        md[start..end].trim_start_matches(|c: char| " \t>-*+.)".contains(c) || c.is_ascii_digit());
    line.starts_with('[') && line.contains("]:")
}

/// Holds the scanner to the renderer's parser on `md`: no marker the scanner reads
/// stands where the parser sees code, a link or inline HTML (but a reference link
/// whose label is itself a marker, and opaque markers that wrap what they hold, as in
/// [`check_pulldown`]), and no range the scanner protects covers text the parser shows
/// as prose, and the scanner protects all of the parser's code, inline links and
/// inline HTML (but what an opaque marker wraps); and a `[[S:n]]` or `【n】` the parser
/// shows as prose is a marker.
fn check_parser(md: &str) -> Result<(), String> {
    let p = parser_regions(md);
    let s = scan(md, &Grammar::ALL);
    for m in &s.markers {
        let opaque = matches!(
            m.kind,
            MarkerKind::OpenaiCite { .. }
                | MarkerKind::OpenaiOther { .. }
                | MarkerKind::HtmlSup
                | MarkerKind::FootnoteDef { .. }
        );
        if let Some((r, what)) = p.forbidden.iter().find(|(r, what)| {
            r.start < m.syntax.end
                && m.syntax.start < r.end
                && !(opaque && r.start >= m.syntax.start)
                // `[1]` stays a marker when `[1]: url` is defined, and `[1][2]` two
                // markers when `[2]` is, by design (docs/markers.md).
                && !(*what == "reference link"
                    && s.markers.iter().any(|k| k.syntax.start <= r.start && r.start < k.syntax.end))
        }) {
            return Err(format!(
                "marker {:?} {:?} is inside the parser's {what} {r:?} {:?}",
                m.syntax,
                &md[m.syntax.clone()],
                &md[r.clone()]
            ));
        }
    }
    // A whole `[[S:n]]` or `【n】` the parser shows as prose is a marker.
    for t in &p.prose {
        for (open, close) in [("[[S:", "]]"), ("【", "】")] {
            let mut from = t.start;
            while let Some(k) = md[from..t.end].find(open) {
                let at = from + k;
                from = at + open.len();
                let Some(len) = md[at..t.end].find(close).map(|e| e + close.len()) else {
                    continue;
                };
                let inner = &md[at + open.len()..at + len - close.len()];
                // (Source numbers start at 1: `[0]` is no marker.)
                if inner.is_empty()
                    || inner.starts_with('0')
                    || !inner.bytes().all(|b| b.is_ascii_digit())
                    || md[..at].ends_with('\\')
                    || definition_line(md, at)
                {
                    continue;
                }
                if !s
                    .markers
                    .iter()
                    .any(|m| m.range.start <= at && at + len <= m.range.end)
                {
                    return Err(format!(
                        "the parser shows {:?} at {at} as prose, but the scanner reads no marker there",
                        &md[at..at + len]
                    ));
                }
            }
        }
    }
    let protected = protected_regions(md, TextSyntax::Markdown);
    for (r, what) in &p.forbidden {
        // (A code block's range may reach into the next line's container prefixes: its
        // text stands for it here.)
        if matches!(*what, "reference link" | "code block") || r.is_empty() {
            continue;
        }
        // An opaque marker holds what it wraps.
        if s.markers
            .iter()
            .any(|m| m.syntax.start <= r.start && r.end <= m.syntax.end)
        {
            continue;
        }
        // A code line's text ends with its line end, the scanner's range before it.
        let r = r.start..r.start + md[r.clone()].trim_end().len();
        // (`-     [ ]`: the scanner takes an item's lone `[ ]` for a task box, where
        // the parser sees indented code; neither holds a marker.)
        if r.is_empty() || matches!(md[r.clone()].trim_start(), "[ ]" | "[x]" | "[X]") {
            continue;
        }
        // The scanner's ranges are merged: one of them holds all of `r`.
        if !protected
            .iter()
            .any(|x| x.start <= r.start && r.end <= x.end)
        {
            return Err(format!(
                "the parser's {what} {r:?} {:?} is not protected by the scanner ({protected:?})",
                &md[r.clone()]
            ));
        }
    }
    for x in protected {
        // `[1][t][r]`: the scanner reads the marker `[1]` by design where the parser
        // reads the reference link `[1][t]`, so it reads `[t][r]` as the link after.
        if md[x.clone()].starts_with('[') && s.markers.iter().any(|m| m.syntax.end == x.start) {
            continue;
        }
        if let Some(t) = p.prose.iter().find(|t| {
            t.start < x.end && x.start < t.end && !definition_line(md, t.start.max(x.start))
        }) {
            let o = t.start.max(x.start)..t.end.min(x.end);
            return Err(format!(
                "the scanner protects {x:?} {:?}, but the parser shows {o:?} {:?} as prose",
                &md[x.clone()],
                &md[o.clone()]
            ));
        }
    }
    Ok(())
}

// ---- a generator of markdown documents ----

fn inline_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "word", "Paris", "is", "big", "東京", "🎉", "é", "a.", "b,", "**bold**", "_it_",
            "~~del~~", "x*y", "(", ")", "[", "]", "!", "\\[1]", "\\`", "<", ">", "|",
        ])
        .prop_map(str::to_string),
        3 => prop::sample::select(vec![
            "[1]", "[2]", "[1][2]", "[1, 2]", "[1-3]", "[2–3]", "[1#p4]", "[[3]]", "【1】",
            "［2］", "[[S:1]]", "[[S:1,3]]", "[S:2]", "[^1]", "[^note]", "[[USAGE:1]]",
            "\u{e200}cite\u{e202}turn0search0\u{e201}", "\u{e203}", "\u{e204}", "[0]",
            "[12345]",
        ])
        .prop_map(str::to_string),
        2 => prop::sample::select(vec![
            "`code [1]`", "`` a ` [2] ``", "`", "``", "`[1]", "[1]`", "` [3] `",
        ])
        .prop_map(str::to_string),
        2 => prop::sample::select(vec![
            "[1](https://a.example)", "[see [2]](https://b.example)", "![1](img.png)",
            "[x](https://c.example/[3])", "<https://d.example/[4]>", "<a href=\"[5]\">",
            "</a>", "<!-- [6] -->", "[t][r]", "[r]", "[x] (y)", "[a](<b c> \"t [7]\")",
            "[a](b 'c')", "[a]( b )", "[a](b(c)d)", "<x@y.example>",
        ])
        .prop_map(str::to_string),
    ]
}

fn inline_line() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            inline_piece(),
            prop::sample::select(vec![" ", "", " ", "  "]),
        ),
        1..8,
    )
    .prop_map(|v| v.into_iter().map(|(a, b)| a + b).collect())
}

fn block() -> impl Strategy<Value = String> {
    let para = prop::collection::vec(inline_line(), 1..4).prop_map(|v| v.join("\n"));
    let fence = (
        prop::sample::select(vec!["```", "~~~", "````", "```rust", "~~~~"]),
        prop::collection::vec(inline_line(), 0..3),
        prop::sample::select(vec!["```", "~~~", "````", "", "``` x", "~~~~~"]),
    )
        .prop_map(|(o, body, c)| {
            let mut s = format!("{o}\n");
            for l in body {
                s.push_str(&l);
                s.push('\n');
            }
            s.push_str(c);
            s
        });
    let indented = prop::collection::vec(inline_line(), 1..3).prop_map(|v| {
        v.iter()
            .map(|l| format!("    {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    });
    let heading = (
        prop::sample::select(vec!["# ", "## ", "###### "]),
        inline_line(),
    )
        .prop_map(|(h, l)| format!("{h}{l}"));
    let table = prop::collection::vec((inline_line(), inline_line()), 1..3).prop_map(|rows| {
        let mut s = String::from("| a | b |\n|---|:--|\n");
        for (a, b) in rows {
            s.push_str(&format!(
                "| {} | {} |\n",
                a.replace('|', "/"),
                b.replace('|', "/")
            ));
        }
        s
    });
    let foot = inline_line().prop_map(|l| format!("[^1]: {l}"));
    let refdef = prop::sample::select(vec![
        "[r]: https://r.example",
        "[t]: <https://t.example> \"T\"",
    ])
    .prop_map(str::to_string);
    let html = (
        prop::sample::select(vec!["<div>", "<!-- ", "<pre>", "<table>", "<x-y a=\"1\">"]),
        inline_line(),
        prop::sample::select(vec!["</div>", " -->", "</pre>", "", "\n"]),
    )
        .prop_map(|(o, body, c)| format!("{o}\n{body}\n{c}"));
    let leaf = prop_oneof![
        5 => para,
        1 => html,
        2 => fence,
        2 => indented,
        1 => heading,
        1 => table,
        1 => foot,
        1 => refdef,
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            // A list item with nested blocks.
            (
                prop::sample::select(vec!["- ", "* ", "1. ", "2) ", "-   "]),
                prop::collection::vec(inner.clone(), 1..3),
            )
                .prop_map(|(m, blocks)| {
                    let pad = " ".repeat(m.len());
                    let body = blocks.join("\n\n");
                    let mut out = String::new();
                    for (i, l) in body.lines().enumerate() {
                        if i == 0 {
                            out.push_str(m);
                        } else if !l.is_empty() {
                            out.push_str(&pad);
                        }
                        out.push_str(l);
                        out.push('\n');
                    }
                    out
                }),
            // A block quote, sometimes with lazy lines.
            (prop::collection::vec(inner, 1..3), any::<bool>()).prop_map(|(blocks, lazy)| {
                let body = blocks.join("\n\n");
                let mut out = String::new();
                for (i, l) in body.lines().enumerate() {
                    if !(lazy && i % 3 == 2) {
                        out.push_str("> ");
                    }
                    out.push_str(l);
                    out.push('\n');
                }
                out
            }),
        ]
    })
}

fn document() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (block(), prop::sample::select(vec!["\n\n", "\n", "\n\n\n"])),
        1..6,
    )
    .prop_map(|v| v.into_iter().map(|(b, sep)| b + sep).collect())
}

/// Cases per property: `PROPTEST_CASES`, or a few hundred (a few seconds in all).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn arbitrary_strings(text in any::<String>()) {
        check_all(&text).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn markdownish_strings(text in token_text(60)) {
        check_all(&text).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn token_soup_against_pulldown(text in token_text(40)) {
        check_pulldown(&text).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn token_soup_against_the_parser(text in token_text(40)) {
        check_parser(&text).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn documents_against_the_parser(doc in document()) {
        check_parser(&doc).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn documents_against_pulldown(doc in document()) {
        check_all(&doc).map_err(TestCaseError::fail)?;
        check_pulldown(&doc).map_err(TestCaseError::fail)?;
    }
}

/// Regressions found by the generators above.
#[test]
fn regressions() {
    for md in [
        "[1](x)",
        "`[1]`",
        // An empty list item ends at a blank line: the indented line after it is code.
        "- <b>\n- \n\n    【1】",
        "-   [ ] \n\n    [1] \n",
        // An HTML block takes no lazy continuation lines.
        "- <b>\n|\n\n    【1】",
        // A definition's destination may follow the colon directly, or the next line.
        "[1]:``\n[``[[S:1]]``[",
        "[1]:\n``\n[``[[S:1]]``[",
        // ...but a next line that is no destination makes it paragraph text.
        "[1]:\r\n2) ``\r\n[1]``",
        // A definition inside a paragraph defines nothing.
        "[\n[a]:\r\n[1]](x)",
        // A definition block followed by a list item that cannot interrupt a paragraph.
        "[r]: https://r.example\n2) | a | b |\n   |---|:--|\n   | `  | [1] `code [1]`  |\n",
        // A link destination after a line break inside a block quote.
        "> - [1]( \n>   word ) \n",
        // A list item holding a block quote is not empty.
        "- > \n\n  ~~~\n  ````\n\n\n> ```\n> word \n~~~~~\n\n\n[1] \n\n",
        // Footnote labels and suffixes hold no backticks; entities neither.
        " [^``~~~``]",
        "[[1#``]``",
        "\u{e200}-\u{e202}``\u{e201}[^1]``",
        "> [r]: https://r.example\n\n\n> > ![1, 2][r] \n",
    ] {
        check_all(md).unwrap();
        check_pulldown(md).unwrap();
    }
}

/// Regression: the scanner read `[t]` of `[t][r]` as a shortcut link to a defined `t`
/// when `r` was undefined, and protected it; a shortcut reference is never followed by
/// a link label, so CommonMark (and the renderer) read `[t][r]` as text.
#[test]
fn shortcut_reference_before_an_undefined_label_is_text() {
    let md = "[t][r] [1]\n\n[t]: /u\n";
    assert_eq!(protected_regions(md, TextSyntax::Markdown), vec![(12..19)]);
    check_parser(md).unwrap();
    check_parser("- [t][r] \n\n\n> [t]: <https://t.example> \"T\"\n\n\n").unwrap();
}

/// Regressions found by holding the scanner to the renderer's parser.
#[test]
fn parser_regressions() {
    for md in [
        // A table takes no lazy line: an indented line after one in a block quote is
        // indented code (the parser read it as a paragraph).
        "> -   | a | b |\n>     |---|:--|\n    | word  | word  |\n\n\n",
        // `[[1]]` is a marker though `[1]` inside it is a defined reference.
        "[1]:[\n[[[1]]",
        // Markers between an HTML block's tags are read (docs/markers.md).
        "- <div>\n  [1] \n  </div>\n\n\n",
        // A closing `</pre>` alone on its line starts an HTML block (type 7, as
        // pulldown-cmark reads it) that runs to a blank line: no fence in it.
        "</pre>\n> \n```\n\n# word\n",
        "> > <div>\n> > word \n</pre>\n> \n> \n```\n> ```\n\n\n# word \n\n",
        // A type 6 tag (`<table>`) interrupts a paragraph, though it reads as a type 7
        // tag too: the backtick before it is text, not a code span across it.
        "` \n<table>\n`code [1]` \n</div>\n\n",
        // A sources line stays text.
        "[1]:  ",
        // A definition's destination on the next line that is none: no definition,
        // and `[a]` no link (the scanner kept the label as defined).
        "[a]:\n[a]:(",
        "[a]:\n\n[a]",
        "> [a]:\n\n[a]",
    ] {
        check_parser(md).unwrap();
    }
}

/// Regression: in a block quote, the scanner read a paragraph's lines with their quote
/// marks, so the `>` starting the second line of `> a <b c="[1]"\n> [2]` closed the
/// tag `<b c="[1]"` for it, where the parser (which reads the lines without their
/// marks) sees no tag: both markers stand in prose.
#[test]
fn a_quote_mark_closes_no_raw_html_tag() {
    let md = "> a <b c=\"[1]\"\n> [2]";
    let s = scan(md, &Grammar::ALL);
    let found: Vec<&str> = s.markers.iter().map(|m| &md[m.syntax.clone()]).collect();
    assert_eq!(found, vec!["[1]", "[2]"]);
    assert!(protected_regions(md, TextSyntax::Markdown).is_empty());
    check_parser(md).unwrap();
}

/// Regression: the scanner read reference definitions line by line, apart from the
/// parser, so a definition's title on the next line was paragraph text to it (and a
/// marker there stood in text the renderer does not draw), and a label broken over two
/// lines defined nothing (so a marker inside the link text was read, where the
/// renderer draws a link). The definitions are the parser's now.
#[test]
fn definitions_are_read_as_the_parser_reads_them() {
    for (md, want) in [
        // The title on the next line belongs to the definition.
        (
            "Paris [1].\n\n[a]: https://a.example\n\"Title [2]\"\n",
            vec!["[1]"],
        ),
        // A label over two lines.
        (
            "[see [1]][a b] [2]\n\n[a\nb]: https://a.example\n",
            vec!["[2]"],
        ),
    ] {
        let s = scan(md, &Grammar::ALL);
        let found: Vec<&str> = s.markers.iter().map(|m| &md[m.syntax.clone()]).collect();
        assert_eq!(found, want, "{md:?}");
        check_parser(md).unwrap();
    }
}

/// Regression: the scanner stopped following block quotes and list items at 32 levels
/// (and warned), where the parser follows 64, so an indented code block 40 quotes
/// deep was prose to the scanner (its `[1]` a marker) and code to the renderer. One
/// limit now: the parser's, and the warning says where it is met.
#[test]
fn the_nesting_limit_is_the_parsers() {
    let md = format!("{}    [1] code\n", "> ".repeat(40));
    let s = scan(&md, &Grammar::ALL);
    assert!(s.markers.is_empty(), "{:?}", s.markers);
    assert!(s.diagnostics.is_empty(), "{:?}", s.diagnostics);
    check_parser(&md).unwrap();
    let deep = format!("{}[1] text\n", "> ".repeat(70));
    let s = scan(&deep, &Grammar::ALL);
    assert_eq!(s.markers.len(), 1);
    let warned: Vec<_> = s
        .diagnostics
        .iter()
        .filter(|d| d.code == "limit-exceeded")
        .collect();
    assert_eq!(warned.len(), 1, "{:?}", s.diagnostics);
    assert!(warned[0].message.contains("`max_block_depth` (64)"));
    assert_eq!(warned[0].start, Some(2 * 64));
    check_parser(&deep).unwrap();
}

/// A sources line (a paragraph line that starts with `[label]:`, no reference
/// definition) stays text whole, as the renderer shows it: also with no space after
/// the colon (`[1]:Smith, 2020`, whose `[1]` the scanner read as a marker, leaving
/// `:Smith, 2020`). A valid definition is not drawn, and holds no marker either.
#[test]
fn a_sources_line_stays_text_as_the_renderer_shows_it() {
    use citekit::core::formats::Data;
    use citekit::core::options::Options;
    let md = "Paris [1].\n\nSources:\n[1]:Smith, 2020\n[2]: Jones et al., 2021\n\n[3]: https://c.example\n";
    let s = scan(md, &Grammar::ALL);
    let found: Vec<(usize, &str)> = s
        .markers
        .iter()
        .map(|m| (m.syntax.start, &md[m.syntax.clone()]))
        .collect();
    assert_eq!(found, vec![(6, "[1]")]);
    check_parser(md).unwrap();
    let data = serde_json::json!({"1": {"title": "A", "source": "https://a.example/"}});
    let a = citekit::parse(Some(md), Data::Json(&data), &Options::default()).unwrap();
    assert_eq!(a.citations.len(), 1);
    let html = citekit::components::answer::html::answer_html(
        &a,
        &citekit::render::RenderOptions::default(),
    );
    assert!(
        html.contains("Sources:\n[1]:Smith, 2020\n[2]: Jones et al., 2021"),
        "{html}"
    );
    assert!(!html.contains("c.example"), "{html}");
}
