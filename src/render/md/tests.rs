//! The parser against pulldown-cmark: the same events (adjacent text joined, ranges
//! aside) for the CommonMark spec's examples and for generated markdown.

use super::*;
use pulldown_cmark as pd;

fn show(out: &mut Vec<String>, e: String) {
    // Runs of blanks in a code span that crosses lines differ from pulldown-cmark's
    // in places (how much of a continuation line's indentation is content); a browser
    // shows a run of spaces in inline code as one.
    let e = match e.strip_prefix("C:") {
        Some(c) if c.contains("  ") || c.ends_with(' ') || c.starts_with(' ') => {
            format!(
                "C:{}",
                c.split(' ')
                    .filter(|w| !w.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        }
        _ => e,
    };
    // The indentation before an HTML block's line (pulldown-cmark writes a tab there
    // as the spaces it spans).
    if e.starts_with("H:") {
        if let Some(last) = out.last_mut() {
            if last.starts_with("T:") && last[2..].bytes().all(|c| c == b' ' || c == b'\t') {
                *last = "T: ".to_string();
            }
        }
    }
    // A heading's trailing blanks (pulldown-cmark keeps a tab after plain text).
    if e.starts_with("E:Heading") {
        if let Some(last) = out.last_mut() {
            if last.starts_with("T:") {
                let t = last.trim_end_matches([' ', '\t']).to_string();
                if t == "T:" {
                    out.pop();
                } else {
                    *last = t;
                }
            }
        }
    }
    if let (Some(last), Some(t)) = (out.last_mut(), e.strip_prefix("T:")) {
        if let Some(prev) = last.strip_prefix("T:") {
            *last = format!("T:{prev}{t}");
            return;
        }
    }
    if let (Some(last), Some(t)) = (out.last_mut(), e.strip_prefix("H:")) {
        if let Some(prev) = last.strip_prefix("H:") {
            *last = format!("H:{prev}{t}");
            return;
        }
    }
    out.push(e);
}

pub(crate) fn ours(t: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (e, _) in parse(t) {
        let s = match e {
            Event::Start(tag) => format!("S:{}", tag_name(&tag)),
            Event::End(tag) => format!("E:{tag:?}"),
            Event::Text(t) => format!("T:{t}"),
            Event::Code(t) => format!("C:{t}"),
            Event::Html(t) => format!("H:{t}"),
            Event::InlineHtml(t) => format!("I:{t}"),
            Event::FootnoteReference(t) => format!("F:{t}"),
            Event::SoftBreak => "soft".into(),
            Event::HardBreak => "hard".into(),
            Event::Rule => "rule".into(),
            Event::TaskListMarker(c) => format!("task:{c}"),
        };
        show(&mut out, s);
    }
    out
}

fn tag_name(t: &Tag) -> String {
    match t {
        Tag::CodeBlock(k) => format!("CodeBlock({:?})", k.as_deref()),
        Tag::Link { email, dest, title } => format!("Link({email},{dest},{title})"),
        Tag::Image { dest, title } => format!("Image({dest},{title})"),
        Tag::FootnoteDefinition(l) => format!("FootnoteDefinition({l})"),
        other => format!("{other:?}"),
    }
}

pub(crate) fn theirs(t: &str) -> Vec<String> {
    let o = pd::Options::ENABLE_TABLES
        | pd::Options::ENABLE_FOOTNOTES
        | pd::Options::ENABLE_STRIKETHROUGH
        | pd::Options::ENABLE_TASKLISTS;
    let mut out = Vec::new();
    for e in pd::Parser::new_ext(t, o) {
        let s = match e {
            pd::Event::Start(tag) => format!(
                "S:{}",
                match tag {
                    pd::Tag::Paragraph => "Paragraph".to_string(),
                    pd::Tag::Heading { level, .. } => format!("Heading({})", level as u8),
                    pd::Tag::BlockQuote(_) => "BlockQuote".into(),
                    pd::Tag::CodeBlock(pd::CodeBlockKind::Fenced(i)) =>
                        format!("CodeBlock({:?})", Some(&*i)),
                    pd::Tag::CodeBlock(pd::CodeBlockKind::Indented) => "CodeBlock(None)".into(),
                    pd::Tag::HtmlBlock => "HtmlBlock".into(),
                    pd::Tag::List(s) => format!("List({s:?})"),
                    pd::Tag::Item => "Item".into(),
                    pd::Tag::FootnoteDefinition(l) => format!("FootnoteDefinition({l})"),
                    pd::Tag::Table(a) => format!(
                        "Table({:?})",
                        a.iter()
                            .map(|x| match x {
                                pd::Alignment::None => Alignment::None,
                                pd::Alignment::Left => Alignment::Left,
                                pd::Alignment::Center => Alignment::Center,
                                pd::Alignment::Right => Alignment::Right,
                            })
                            .collect::<Vec<_>>()
                    ),
                    pd::Tag::TableHead => "TableHead".into(),
                    pd::Tag::TableRow => "TableRow".into(),
                    pd::Tag::TableCell => "TableCell".into(),
                    pd::Tag::Emphasis => "Emphasis".into(),
                    pd::Tag::Strong => "Strong".into(),
                    pd::Tag::Strikethrough => "Strikethrough".into(),
                    pd::Tag::Link {
                        link_type,
                        dest_url,
                        title,
                        ..
                    } => format!(
                        "Link({},{dest_url},{title})",
                        link_type == pd::LinkType::Email
                    ),
                    pd::Tag::Image {
                        dest_url, title, ..
                    } => format!("Image({dest_url},{title})"),
                    other => format!("{other:?}"),
                }
            ),
            pd::Event::End(tag) => format!(
                "E:{}",
                match tag {
                    pd::TagEnd::Heading(l) => format!("Heading({})", l as u8),
                    pd::TagEnd::BlockQuote(_) => "BlockQuote".into(),
                    pd::TagEnd::List(o) => format!("List({o})"),
                    other => format!("{other:?}"),
                }
            ),
            pd::Event::Text(t) => format!("T:{t}"),
            pd::Event::Code(t) => format!("C:{t}"),
            pd::Event::Html(t) => format!("H:{t}"),
            pd::Event::InlineHtml(t) => format!("I:{t}"),
            pd::Event::FootnoteReference(t) => format!("F:{t}"),
            pd::Event::SoftBreak => "soft".into(),
            pd::Event::HardBreak => "hard".into(),
            pd::Event::Rule => "rule".into(),
            pd::Event::TaskListMarker(c) => format!("task:{c}"),
            other => format!("{other:?}"),
        };
        show(&mut out, s);
    }
    out
}

/// The markdown of every example of the CommonMark spec kept in the repository
/// (tests/specs/commonmark/).
fn spec_examples() -> Vec<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/specs/commonmark/spec.txt"
    );
    let spec = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let fence = "````````````````````````````````";
    let open = format!("{fence} example");
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    let mut in_md = false;
    for line in spec.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n');
        if bare == open {
            cur = Some(String::new());
            in_md = true;
        } else if in_md && bare == "." {
            in_md = false;
        } else if in_md {
            if let Some(c) = cur.as_mut() {
                c.push_str(line);
            }
        } else if bare == fence {
            if let Some(c) = cur.take() {
                out.push(c.replace('→', "\t"));
            }
        }
    }
    out
}

#[test]
fn spec_examples_match_pulldown() {
    let ex = spec_examples();
    assert_eq!(ex.len(), 652, "examples read from the spec");
    let mut bad = Vec::new();
    for (k, md) in ex.iter().enumerate() {
        let (a, b) = (ours(md), theirs(md));
        if a != b {
            bad.push((k + 1, md.clone(), a, b));
        }
    }
    let verbose = std::env::var_os("CITEKIT_MD_VERBOSE").is_some();
    let mut report = String::new();
    for (n, md, a, b) in bad.iter().take(if verbose { 1000 } else { 5 }) {
        report.push_str(&format!(
            "\n--- example {n}: {md:?}\nours:   {a:?}\ntheirs: {b:?}\n"
        ));
    }
    assert!(
        bad.is_empty(),
        "{} of {} examples differ{}",
        bad.len(),
        ex.len(),
        report
    );
}

/// Where citekit follows CommonMark and pulldown-cmark does not: after a `]`, it reads
/// an escaped `\[` as a `[` (`[x]\[a]` is a reference link to `a` there, text here);
/// a backslash hard break right before a link text's `]` is a plain backslash there;
/// tabs on a footnote definition's line, or in the blanks after a list marker, count
/// columns differently there, and a tab before `>` continues a block quote there.
fn pulldown_quirk(t: &str) -> bool {
    let marker_tab = t.as_bytes().windows(3).any(|w| {
        matches!(w[0], b'-' | b'*' | b'+' | b'.' | b')')
            && matches!(w[1], b' ' | b'\t')
            && (w[1] == b'\t' || w[2] == b'\t')
    });
    t.contains("]\\[")
        || t.contains("\\\n]")
        || marker_tab
        || t.contains("\t>")
        || t.lines().any(|l| l.contains("[^") && l.contains('\t'))
}

/// Markdown made of pieces that start and end blocks and inlines.
fn soup(max: usize) -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    const PIECES: &[&str] = &[
        "\n",
        "\n",
        "\n\n",
        "- ",
        "* ",
        "+ ",
        "1. ",
        "2) ",
        "> ",
        "    ",
        "  ",
        " ",
        "\t",
        "# ",
        "## ",
        "###### ",
        "#",
        "```",
        "~~~",
        "```rs\n",
        "*",
        "**",
        "***",
        "_",
        "__",
        "~",
        "~~",
        "~~~",
        "`",
        "``",
        "[",
        "]",
        "(",
        ")",
        "![",
        "<",
        ">",
        "&amp;",
        "&#35;",
        "&copy;",
        "&nope;",
        "\\",
        "\\*",
        "\\[",
        "|",
        "| a | b |\n",
        "|---|:-:|\n",
        "a | b\n",
        "--|--\n",
        "---",
        "===",
        "***",
        ":",
        "[^1]",
        "[^1]: ",
        "[^n]: note\n",
        "[a]: /url\n",
        "[a]: /url \"t\"\n",
        "[a]",
        "[a][]",
        "[x][a]",
        "](/u)",
        "](/u \"t\")",
        "\"",
        "'",
        "http://x.y",
        "<http://x.y>",
        "<a@b.c>",
        "<div>",
        "</div>",
        "<b>",
        "</b>",
        "<!-- c -->",
        "[ ] ",
        "[x] ",
        "word",
        "two words",
        "é",
        "日本",
        "😀",
        "x",
        "y",
        "foo bar",
        "1",
        ".",
        "-",
        "+",
        "=",
        "  \n",
        "\\\n",
        "<br/>",
        "<pre>",
        "</pre>",
    ];
    proptest::collection::vec(proptest::sample::select(PIECES), 1..max).prop_map(|v| v.concat())
}

proptest::proptest! {
    // A fixed seed (`PROPTEST_RNG_SEED` sets another): `npm test` runs the same 2,000
    // cases every time. Longer runs (`PROPTEST_CASES=30000`, other seeds) still find
    // rare inputs where pulldown-cmark reads tabs, lazy lines in list items next to
    // tables, and the like differently; see docs/rendering.md.
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000),
        max_global_rejects: 1_000_000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(
            std::env::var("PROPTEST_RNG_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(2026),
        ),
        ..Default::default()
    })]

    #[test]
    fn soup_matches_pulldown(t in soup(40)) {
        proptest::prop_assume!(!pulldown_quirk(&t));
        proptest::prop_assert_eq!(ours(&t), theirs(&t), "{:?}", t);
    }

    /// The blocks after a blank line, parsed on their own after the definitions of the
    /// text before them (as a streaming view renders its last blocks), read as in the
    /// whole text: where the blocks are the same, so are their inlines (links found
    /// through the earlier blocks' definitions, a label's first definition winning).
    #[test]
    fn blocks_after_earlier_definitions_read_as_in_the_whole(t in soup(40)) {
        let whole: Vec<_> = parse(&t)
            .into_iter()
            .map(|(e, r)| (format!("{e:?}"), r))
            .collect();
        let mut depth = 0usize;
        let mut starts = Vec::new();
        for (e, r) in parse(&t) {
            match e {
                Event::Start(_) => {
                    if depth == 0 && t[..r.start].ends_with("\n\n") {
                        starts.push(r.start);
                    }
                    depth += 1;
                }
                Event::End(_) => depth -= 1,
                _ => {}
            }
        }
        for s in starts {
            let defs = [definitions(&t[..s])];
            let rest: Vec<_> = parse_after(&t[s..], &defs)
                .into_iter()
                .map(|(e, r)| (format!("{e:?}"), r.start + s..r.end + s))
                .collect();
            let tail: Vec<_> = whole.iter().filter(|(_, r)| r.start >= s).cloned().collect();
            // The events but links, images, text and footnote references.
            let blocks = |v: &[(String, std::ops::Range<usize>)]| {
                v.iter()
                    .map(|(e, _)| e.clone())
                    .filter(|e| {
                        !["Text", "FootnoteRef", "Start(Link", "End(Link", "Start(Image", "End(Image"]
                            .iter()
                            .any(|p| e.starts_with(p))
                    })
                    .collect::<Vec<_>>()
            };
            proptest::prop_assume!(blocks(&rest) == blocks(&tail));
            proptest::prop_assert_eq!(&rest, &tail, "{:?} from {}", t, s);
        }
    }

    #[test]
    fn any_string_matches_pulldown(t in "\\PC{0,60}") {
        proptest::prop_assume!(!t.chars().any(|c| punct_differs().contains(&(c as u32))));
        proptest::prop_assume!(!pulldown_quirk(&t));
        proptest::prop_assert_eq!(ours(&t), theirs(&t), "{:?}", t);
    }
}

/// The code points whose punctuation status differs from pulldown-cmark's: ours is
/// Unicode 17, pulldown-cmark's an older version (characters assigned since). Probed by
/// `a*Xb*`: emphasis only when X is neither punctuation nor whitespace.
fn punct_differs() -> &'static std::collections::HashSet<u32> {
    static SET: std::sync::OnceLock<std::collections::HashSet<u32>> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        let mut differ = std::collections::HashSet::new();
        for cp in 0x80..=0x3FFFFu32 {
            let Some(c) = char::from_u32(cp) else {
                continue;
            };
            let t = format!("a*{c}b*");
            let a = ours(&t).iter().any(|e| e == "S:Emphasis");
            let b = theirs(&t).iter().any(|e| e == "S:Emphasis");
            if a != b {
                differ.insert(cp);
            }
        }
        differ
    })
}

#[test]
fn punctuation_agrees_with_pulldown_but_for_new_characters() {
    let d = punct_differs();
    // All are characters pulldown-cmark's table does not know yet (none of them is
    // older than Unicode 15): a change here means one of the tables changed.
    assert!(d.len() <= 856, "{} differ", d.len());
    for cp in [0x2014u32, 0x201c, 0x3001, 0xff01, 0x00a1, 0x2e3a] {
        assert!(!d.contains(&cp), "{cp:x}");
    }
}

#[test]
fn definitions_before_the_text_come_first() {
    let before = [
        definitions("[^n]: A note.\n\n[A]: /first\n\n[a]: /again"),
        definitions("[a]: /third"),
    ];
    let ev = parse_after("[a]: /second\n\n[x][A] [^n] [b]", &before);
    let dests: Vec<&str> = ev
        .iter()
        .filter_map(|(e, _)| match e {
            Event::Start(Tag::Link { dest, .. }) => Some(&**dest),
            _ => None,
        })
        .collect();
    assert_eq!(dests, ["/first"], "{ev:?}");
    assert!(
        ev.iter()
            .any(|(e, _)| matches!(e, Event::FootnoteReference(l) if l == "n")),
        "{ev:?}"
    );
}
