//! The marker scanner's unit tests.

use super::*;

/// A number and a name with the same digits are two keys of a map.
#[test]
fn source_keys_as_map_keys() {
    let mut keys: crate::core::ordered_hash::OrderedHashMap<SourceKey, usize> = Default::default();
    keys.or_insert(SourceKey::Num(3), 1);
    keys.or_insert(SourceKey::Name("3".into()), 2);
    assert_eq!(keys.or_insert(SourceKey::Num(3), 9), &mut 1);
    assert_eq!(keys.get(&SourceKey::Name("3".into())), Some(&2));
}

#[test]
fn char_at_decodes_as_str_does() {
    let s = "a\u{7f}\u{80}é\u{7ff}\u{800}€\u{ffff}\u{10000}😀\u{10ffff}z";
    for i in 0..=s.len() {
        let want = s
            .is_char_boundary(i)
            .then(|| s[i..].chars().next())
            .flatten();
        assert_eq!(char_at(s.as_bytes(), i), want, "at {i}");
    }
}

/// A marker in pandoc's superscript (`^[1]^`) takes its carets with it.
#[test]
fn superscript_carets_go_with_the_marker() {
    let text = "Claim^[1]^. Another ^[2]^ here. Bare ^[3] stays.";
    let s = scan(text, &Grammar::ALL);
    assert_eq!(removed(text, &s), "Claim. Another here. Bare ^ stays.");
}

/// Nesting past `max_block_depth` (the CommonMark parser's limit, which counts a list
/// and its item as two) is said once, in a warning naming the limit; the text (and a
/// marker in it) is still read.
#[test]
fn nesting_past_the_limit_is_reported_once() {
    for text in [
        format!(
            "{} deep [1]\n\n{} again [2]",
            "> ".repeat(70),
            "> ".repeat(70)
        ),
        format!("{}deep [1]", "- ".repeat(70)),
    ] {
        let s = scan(&text, &Grammar::ALL);
        let limits: Vec<_> = s
            .diagnostics
            .iter()
            .filter(|d| d.code == "limit-exceeded")
            .collect();
        assert_eq!(limits.len(), 1, "{text}: {:?}", s.diagnostics);
        assert!(
            limits[0].message.contains("`max_block_depth` (64)"),
            "{:?}",
            limits[0]
        );
        assert!(!s.markers.is_empty(), "{text}");
    }
    let shallow = format!("{} fine [1]", "> ".repeat(60));
    assert!(scan(&shallow, &Grammar::ALL).diagnostics.is_empty());
}

/// The text with every marker range removed.
fn removed(text: &str, s: &Scan) -> String {
    let mut out = String::new();
    let mut last = 0;
    for m in &s.markers {
        out.push_str(&text[last..m.range.start]);
        last = m.range.end;
    }
    out.push_str(&text[last..]);
    out
}

/// (marker syntax text, keys as strings) for each marker.
fn found(text: &str, g: &Grammar) -> Vec<(String, Vec<String>)> {
    scan(text, g)
        .markers
        .iter()
        .map(|m| {
            let keys = m
                .keys
                .iter()
                .map(|k| match k {
                    SourceKey::Num(n) => n.to_string(),
                    SourceKey::Name(s) => s.clone(),
                })
                .collect();
            (text[m.syntax.clone()].to_string(), keys)
        })
        .collect()
}

fn syntaxes(text: &str) -> Vec<String> {
    found(text, &Grammar::ALL)
        .into_iter()
        .map(|f| f.0)
        .collect()
}

fn stripped(text: &str) -> String {
    removed(text, &scan(text, &Grammar::ALL))
}

fn keys(text: &str) -> Vec<Vec<String>> {
    found(text, &Grammar::ALL)
        .into_iter()
        .map(|f| f.1)
        .collect()
}

fn codes(text: &str) -> Vec<String> {
    scan(text, &Grammar::ALL)
        .diagnostics
        .into_iter()
        .map(|d| d.code)
        .collect()
}

// --- syntaxes ---

#[test]
fn numeric_forms() {
    assert_eq!(keys("A [1]."), vec![vec!["1"]]);
    assert_eq!(keys("A [1][2]."), vec![vec!["1"], vec!["2"]]);
    assert_eq!(
        keys("A [1, 2] b [3,4]"),
        vec![vec!["1", "2"], vec!["3", "4"]]
    );
    assert_eq!(keys("A [2-4]."), vec![vec!["2", "3", "4"]]);
    assert_eq!(keys("A [2–4]."), vec![vec!["2", "3", "4"]]);
    assert_eq!(keys("A [1-3, 7]."), vec![vec!["1", "2", "3", "7"]]);
    assert_eq!(keys("A [3#page=2]."), vec![vec!["3"]]);
    assert_eq!(keys("A [[5]]."), vec![vec!["5"]]);
    assert_eq!(syntaxes("A [[5]]."), vec!["[[5]]"]);
    assert_eq!(keys("東京【1】。"), vec![vec!["1"]]);
    assert_eq!(keys("東京［2］。"), vec![vec!["2"]]);
    assert_eq!(keys("東京【１，３】"), vec![vec!["1", "3"]]);
    assert_eq!(keys("東京【1-3】"), vec![vec!["1", "2", "3"]]);
    assert_eq!(keys("東京【１－２】"), vec![vec!["1", "2"]]);
    assert!(keys("A [a] [1a] [ 1] [1,] [-1] [1.5]").is_empty());
}

#[test]
fn numeric_only_when_enabled() {
    let g = Grammar {
        sid: true,
        ..Grammar::NONE
    };
    assert!(found("A [1] 【2】", &g).is_empty());
    assert_eq!(found("A [[S:1]] [1]", &g).len(), 1);
    assert!(found("A [1]", &Grammar::NONE).is_empty());
}

#[test]
fn sid_forms() {
    assert_eq!(keys("A [[S:1]]."), vec![vec!["1"]]);
    assert_eq!(keys("A [[S:1,3]]."), vec![vec!["1", "3"]]);
    assert_eq!(keys("A [[S:2-4]]."), vec![vec!["2", "3", "4"]]);
    assert_eq!(keys("A [[S: 1, 3]]."), vec![vec!["1", "3"]]);
    assert_eq!(keys("A [[S:1, S:3]]."), vec![vec!["1", "3"]]);
    assert_eq!(keys("A [S:7]."), vec![vec!["7"]]);
    let s = scan("A [[S:1]].", &Grammar::ALL);
    assert_eq!(s.markers[0].kind, MarkerKind::Sid);
    assert!(keys("A [[S:]] [[S:x]]").is_empty());
}

/// `[citation:x]` and `[[citation:x]]` (DeepSeek-style prompts, LlamaIndex's
/// `CitationQueryEngine` variants) stayed raw text on the page.
#[test]
fn citation_labels_were_raw_text() {
    assert_eq!(keys("A [citation:1]."), vec![vec!["1"]]);
    assert_eq!(
        keys("A [citation:1][citation:3]."),
        vec![vec!["1"], vec!["3"]]
    );
    assert_eq!(keys("A [Citation: 2, 4]."), vec![vec!["2", "4"]]);
    // No ranges: `2-3` is a label like a node id's.
    assert_eq!(keys("A [citation:2-3]."), vec![vec!["2-3"]]);
    assert_eq!(keys("A [[citation:5]]."), vec![vec!["5"]]);
    let id = "3f2a1c9e-8b7d-4e6f-a5b4-c3d2e1f0a9b8";
    assert_eq!(keys(&format!("A [citation:{id}].")), vec![vec![id]]);
    assert_eq!(keys(&format!("A [[citation:{id}]].")), vec![vec![id]]);
    assert_eq!(keys("A [citation:doc_2, 7]."), vec![vec!["doc_2", "7"]]);
    let t = format!("A [citation:{id}].");
    let s = scan(&t, &Grammar::ALL);
    assert_eq!(s.markers[0].kind, MarkerKind::Label);
    assert_eq!(&t[s.markers[0].range.clone()], format!(" [citation:{id}]"));
    assert!(matches!(s.markers[0].keys[0], SourceKey::Name(_)));
    assert_eq!(
        scan("A [citation:1].", &Grammar::ALL).markers[0].keys,
        vec![SourceKey::Num(1)]
    );
    // Not labels: nothing after the prefix, a space inside a label, code, a link.
    for t in [
        "A [citation:] b",
        "A [citation:two words] b",
        "A `[citation:1]` b",
        "A [citation:1](https://x.example/) b",
    ] {
        assert!(keys(t).is_empty(), "{t}");
    }
    // Bounded as numeric markers are.
    assert!(keys("A [citation:0].").is_empty());
    // Only when the grammar asks for them.
    let g = Grammar {
        citation: false,
        ..Grammar::ALL
    };
    assert!(scan("A [citation:x1].", &g).markers.is_empty());
}

/// Azure's `[doc1]` and xAI's `[[1]](url)` are read only where their formats ask.
#[test]
fn doc_and_linked_markers_only_when_asked() {
    let g = Grammar {
        doc: true,
        ..Grammar::ALL
    };
    let s = scan("Paris is big [doc1][DOC2]. See [doc] and `[doc3]`.", &g);
    let keys: Vec<&[SourceKey]> = s.markers.iter().map(|m| m.keys.as_slice()).collect();
    assert_eq!(
        keys,
        vec![&[SourceKey::Num(1)][..], &[SourceKey::Num(2)][..]]
    );
    assert!(keys_of("Paris [doc1].", &Grammar::ALL).is_empty());
    let g = Grammar {
        linked: true,
        ..Grammar::ALL
    };
    let t = "Grok is by xAI [[1]](https://x.ai/company). A [link](https://a.example/).";
    let s = scan(t, &g);
    assert_eq!(s.markers.len(), 1);
    assert_eq!(
        &t[s.markers[0].range.clone()],
        " [[1]](https://x.ai/company)"
    );
    assert_eq!(s.markers[0].keys, vec![SourceKey::Num(1)]);
    // Elsewhere it is a link labelled `[1]`.
    assert!(scan(t, &Grammar::ALL).markers.is_empty());
}

fn keys_of(text: &str, g: &Grammar) -> Vec<Vec<SourceKey>> {
    scan(text, g).markers.into_iter().map(|m| m.keys).collect()
}

#[test]
fn html_sup() {
    let t = r#"Paris<sup class="cite" data-sids="1,3">[S:1,3]</sup> is big."#;
    let s = scan(t, &Grammar::ALL);
    assert_eq!(s.markers.len(), 1);
    assert_eq!(s.markers[0].kind, MarkerKind::HtmlSup);
    assert_eq!(
        &t[s.markers[0].syntax.clone()],
        r#"<sup class="cite" data-sids="1,3">[S:1,3]</sup>"#
    );
    assert_eq!(keys(t), vec![vec!["1", "3"]]);
    let t = "A <SUP data-sids='2-3' class='x cite'>x</SUP>.";
    assert_eq!(keys(t), vec![vec!["2", "3"]]);
    let t = "A <sup class=cite>[S:4]</sup>.";
    assert_eq!(keys(t), vec![vec!["4"]]);
    assert!(keys("A <sup>1</sup> <sup class=\"note\" data-sids=\"1\">1</sup>").is_empty());
    // In HTML text too.
    let g = Grammar {
        html_sup: true,
        syntax: TextSyntax::Html,
        ..Grammar::NONE
    };
    let t = r#"<p>Paris <sup class="cite" data-sids="2">[S:2]</sup>.</p>"#;
    let s = scan(t, &g);
    assert_eq!(s.markers.len(), 1);
    assert_eq!(removed(t, &s), "<p>Paris.</p>");
}

#[test]
fn openai_private_use() {
    let t = "Paris \u{e200}cite\u{e202}turn0search0\u{e202}turn0news1\u{e201}.";
    let s = scan(t, &Grammar::ALL);
    assert_eq!(s.markers.len(), 1);
    assert_eq!(s.markers[0].kind, MarkerKind::OpenaiCite { locator: None });
    assert_eq!(keys(t), vec![vec!["turn0search0", "turn0news1"]]);
    assert_eq!(removed(t, &s), "Paris.");
    let t = "See \u{e200}filecite\u{e202}turn0file0\u{e202}L8-L12\u{e201} now";
    let s = scan(t, &Grammar::ALL);
    assert_eq!(
        s.markers[0].kind,
        MarkerKind::OpenaiCite {
            locator: Some("L8-L12".into())
        }
    );
    assert_eq!(keys(t), vec![vec!["turn0file0"]]);
    let t = "\u{e203}Paris is big\u{e204}\u{e200}cite\u{e202}turn0search1\u{e201}.";
    let s = scan(t, &Grammar::ALL);
    let kinds: Vec<_> = s.markers.iter().map(|m| m.kind.clone()).collect();
    assert_eq!(kinds[0], MarkerKind::OpenaiSpanOpen);
    assert_eq!(kinds[1], MarkerKind::OpenaiSpanClose);
    assert_eq!(removed(t, &s), "Paris is big.");
    let t = "Go \u{e200}navlist\u{e202}Cities\u{e202}turn0search0\u{e201} now";
    let s = scan(t, &Grammar::ALL);
    assert_eq!(
        s.markers[0].kind,
        MarkerKind::OpenaiOther {
            name: "navlist".into()
        }
    );
    assert!(s.markers[0].keys.is_empty());
    // Unclosed: text.
    assert!(keys("A \u{e200}cite\u{e202}turn0search0 and more").is_empty());
    assert!(keys("A \u{e200}cite\u{e200}cite\u{e202}x\u{e201}").len() == 1);
}

#[test]
fn footnotes() {
    let t = "Paris is big[^note].\n\n[^note]: The atlas, https://a.example/x\n";
    let s = scan(t, &Grammar::ALL);
    assert_eq!(s.markers.len(), 2);
    assert_eq!(s.markers[0].kind, MarkerKind::FootnoteRef);
    assert_eq!(s.markers[0].keys, vec![SourceKey::Name("^note".into())]);
    let d = &s.markers[1];
    assert_eq!(d.keys, vec![SourceKey::Name("^note".into())]);
    assert_eq!(&t[d.syntax.clone()], "[^note]:");
    assert_eq!(
        &t[d.range.clone()],
        "[^note]: The atlas, https://a.example/x\n"
    );
    match &d.kind {
        MarkerKind::FootnoteDef { body } => {
            assert_eq!(&t[body.clone()], "The atlas, https://a.example/x")
        }
        k => panic!("{k:?}"),
    }
    assert_eq!(removed(t, &s), "Paris is big.\n\n");
}

#[test]
fn footnote_continuation_lines() {
    let t = "A[^1].\n\n[^1]: First line\n    second line\nlazy line\n\n    more para\n\nAfter [2].";
    let s = scan(t, &Grammar::ALL);
    let d = s
        .markers
        .iter()
        .find(|m| matches!(m.kind, MarkerKind::FootnoteDef { .. }))
        .unwrap();
    assert_eq!(
        &t[d.range.clone()],
        "[^1]: First line\n    second line\nlazy line\n\n    more para\n"
    );
    assert_eq!(removed(t, &s), "A.\n\n\nAfter.");
    // A marker inside a definition belongs to it.
    let t = "[^a]: See [1] and `[2]`\n";
    let s = scan(t, &Grammar::ALL);
    assert_eq!(s.markers.len(), 1);
}

#[test]
fn usage() {
    let t = "Answer.\n[[USAGE:1,3,5]]\nMore.";
    let s = scan(t, &Grammar::ALL);
    assert_eq!(s.markers[0].kind, MarkerKind::Usage);
    assert_eq!(keys(t), vec![vec!["1", "3", "5"]]);
    assert_eq!(removed(t, &s), "Answer.\nMore.");
    assert_eq!(stripped("Answer [[USAGE:2]]."), "Answer.");
    assert_eq!(stripped("Answer.\n\n[[USAGE:2]]"), "Answer.\n\n");
}

// --- ranges and malformed ---

#[test]
fn malformed_numbers_stay_text() {
    for t in [
        "A [0].",
        "A [12345].",
        "A [3-1].",
        "A [1-200].",
        "A [[S:0]].",
    ] {
        assert!(syntaxes(t).is_empty(), "{t}");
        assert_eq!(codes(t), vec!["malformed-marker"], "{t}");
        assert_eq!(stripped(t), t);
    }
    assert_eq!(keys("A [9999]"), vec![vec!["9999"]]);
    assert_eq!(keys("A [1-100]")[0].len(), 100);
}

#[test]
fn malformed_in_link_is_silent() {
    assert!(codes("See [12345](https://x.example).").is_empty());
}

#[test]
fn marker_limit() {
    let t = "[1]".repeat(MAX_MARKERS + 5);
    let s = scan(&t, &Grammar::ALL);
    assert_eq!(s.markers.len(), MAX_MARKERS);
    let lim: Vec<_> = s
        .diagnostics
        .iter()
        .filter(|d| d.code == "limit-exceeded")
        .collect();
    assert_eq!(lim.len(), 1);
    assert!(lim[0].message.contains("max_markers"));
}

#[test]
fn malformed_reports_are_capped() {
    let t = "[0] ".repeat(500);
    let s = scan(&t, &Grammar::ALL);
    assert_eq!(s.diagnostics.len(), MAX_MALFORMED_REPORTS + 1);
}

// --- whitespace ---

#[test]
fn whitespace_absorption() {
    assert_eq!(stripped("Paris [1]."), "Paris.");
    assert_eq!(stripped("Paris [1] is"), "Paris is");
    assert_eq!(stripped("Paris [1][2],"), "Paris,");
    assert_eq!(stripped("Paris [1] [2]."), "Paris.");
    assert_eq!(stripped("Paris [1]"), "Paris");
    assert_eq!(stripped("Paris [1]\nNext"), "Paris\nNext");
    assert_eq!(stripped("Paris\t[1]!"), "Paris!");
    assert_eq!(stripped("Paris [1]is"), "Paris is");
    assert_eq!(stripped("Paris[1] is"), "Paris is");
    assert_eq!(stripped("  [1] Paris"), "   Paris");
    assert_eq!(stripped("[1] Paris"), " Paris");
    assert_eq!(stripped("東京 【1】。"), "東京。");
    assert_eq!(stripped("東京 【1】」"), "東京」");
    assert_eq!(stripped("Paris [1]”"), "Paris”");
    assert_eq!(stripped("Paris 🎉 [1]."), "Paris 🎉.");
    assert_eq!(stripped("**Paris [1]**"), "**Paris**");
    let s = scan("Paris [1].", &Grammar::ALL);
    assert_eq!(s.markers[0].range, 5..9);
    assert_eq!(s.markers[0].syntax, 6..9);
}

// --- code and links ---

#[test]
fn fenced_code() {
    let t = "A [1].\n\n```\nx [2]\n```\n\nB [3].";
    assert_eq!(syntaxes(t), vec!["[1]", "[3]"]);
    let t = "~~~~\n[1]\n~~~\n[2]\n~~~~\nB [3]";
    assert_eq!(syntaxes(t), vec!["[3]"]);
    let t = "```\n[1]\n"; // unclosed runs to the end
    assert!(syntaxes(t).is_empty());
    let t = "- item\n  ```\n  [1]\n  ```\n- [2] item";
    assert_eq!(syntaxes(t), vec!["[2]"]);
    let t = "> ```\n> [1]\n> ```\n> B [2]";
    assert_eq!(syntaxes(t), vec!["[2]"]);
    // The quote ends, and so does its fence.
    let t = "> ```\n> [1]\n\nB [2]";
    assert_eq!(syntaxes(t), vec!["[2]"]);
    // Backtick fence info may not hold backticks: this is inline code.
    let t = "``` a`b [1]";
    assert_eq!(syntaxes(t), vec!["[1]"]);
    let t = "```rust\nlet a = v[1];\n```\nDone [2].";
    assert_eq!(syntaxes(t), vec!["[2]"]);
}

#[test]
fn indented_code() {
    let t = "Text [1].\n\n    code [2]\n\nMore [3].";
    assert_eq!(syntaxes(t), vec!["[1]", "[3]"]);
    let t = "\tcode [2]\nMore [3].";
    assert_eq!(syntaxes(t), vec!["[3]"]);
    // A lazy paragraph continuation is not code.
    let t = "Text [1]\n    still text [2]";
    assert_eq!(syntaxes(t), vec!["[1]", "[2]"]);
    // List item content is not code.
    let t = "- item\n\n    para [2]";
    assert_eq!(syntaxes(t), vec!["[2]"]);
    let t = "- item\n\n        code [2]";
    assert!(syntaxes(t).is_empty());
}

#[test]
fn inline_code() {
    assert_eq!(syntaxes("Use `a[1]` here [2]."), vec!["[2]"]);
    assert_eq!(syntaxes("Use ``a ` [1]`` here [2]."), vec!["[2]"]);
    assert_eq!(syntaxes("Odd ` tick [1]."), vec!["[1]"]);
    assert_eq!(syntaxes("Multi `line\n[1]` end [2]"), vec!["[2]"]);
    assert_eq!(syntaxes("Esc \\`[1]` x"), vec!["[1]"]);
    assert_eq!(syntaxes("`a` [1] `b`"), vec!["[1]"]);
}

#[test]
fn links_and_images() {
    assert!(syntaxes("[1](https://x.example)").is_empty());
    assert!(syntaxes("[see [1]](https://x.example)").is_empty());
    assert!(syntaxes("![1](x.png)").is_empty());
    assert_eq!(syntaxes("Wow![1]"), vec!["[1]"]);
    assert_eq!(syntaxes("A [1] (see below)"), vec!["[1]"]);
    assert_eq!(syntaxes("[x](https://a.example/[1]) [2]"), vec!["[2]"]);
    assert!(syntaxes("<https://a.example/[1]>").is_empty());
    assert!(syntaxes("<a title=\"[1]\">x</a>").is_empty());
    assert_eq!(syntaxes("<b>bold [1]</b>"), vec!["[1]"]);
    assert_eq!(syntaxes("\\[1] and [2]"), vec!["[2]"]);
    assert_eq!(syntaxes("[[1]](u)"), Vec::<String>::new());
}

#[test]
fn reference_definitions() {
    // The definition line stays text; `[1]` elsewhere stays a citation marker.
    let t = "Paris [1].\n\n[1]: https://a.example\n";
    assert_eq!(syntaxes(t), vec!["[1]"]);
    assert_eq!(stripped(t), "Paris.\n\n[1]: https://a.example\n");
    // `[1][2]` stays two markers even when both are defined.
    let t = "Paris [1][2].\n\n[1]: https://a.example\n[2]: https://b.example\n";
    assert_eq!(syntaxes(t), vec!["[1]", "[2]"]);
    // A full reference link with a defined reference is a link.
    let t = "See [the atlas][1] now [2].\n\n[1]: https://a.example\n";
    assert_eq!(syntaxes(t), vec!["[2]"]);
    // Undefined: text, and the `[1]` is a marker.
    let t = "See [the atlas][1] now.";
    assert_eq!(syntaxes(t), vec!["[1]"]);
    let t = "See [atlas] [2].\n\n[atlas]: https://a.example\n";
    assert_eq!(syntaxes(t), vec!["[2]"]);
    // A sources line that is not a valid definition stays text too.
    let t = "Paris [1].\n\nSources:\n[1]: Smith et al., 2020\n[2]: https://b.example\n";
    assert_eq!(syntaxes(t), vec!["[1]"]);
    // A definition ends its paragraph's start: code spans begin after it.
    let t = "[r]: https://r.example\n`[1]` [2]";
    assert_eq!(syntaxes(t), vec!["[2]"]);
    // Labels match under Unicode case folding, as in CommonMark and pulldown-cmark
    // (`Straße` and `STRASSE` are one label; lowercasing alone keeps them apart).
    let t = "[see [1]][STRASSE] [2]\n\n[Straße]: https://a.example\n";
    assert_eq!(syntaxes(t), vec!["[2]"]);
    let links = crate::core::commonmark::parse(t)
        .iter()
        .filter(|(e, _)| {
            matches!(
                e,
                crate::core::commonmark::Event::Start(crate::core::commonmark::Tag::Link { .. })
            )
        })
        .count();
    assert_eq!(links, 1, "the renderer's parser reads it as a link too");
}

#[test]
fn task_lists() {
    let t = "- [ ] todo [1]\n- [x] done [2]";
    assert_eq!(syntaxes(t), vec!["[1]", "[2]"]);
}

#[test]
fn markers_in_markup() {
    assert_eq!(syntaxes("**bold [1]** _it [2]_"), vec!["[1]", "[2]"]);
    assert_eq!(syntaxes("# Head [1]"), vec!["[1]"]);
    assert_eq!(syntaxes("> quote [1]"), vec!["[1]"]);
    assert_eq!(syntaxes("1. item [1]\n2. item [2]"), vec!["[1]", "[2]"]);
    let t = "| a | b |\n|---|---|\n| x [1] | `[2]` |\n| y [3] | z |";
    assert_eq!(syntaxes(t), vec!["[1]", "[3]"]);
}

#[test]
fn table_cells_split_code_spans() {
    // A pipe ends a cell even inside backticks, as in GFM.
    let t = "| a | b |\n|---|---|\n| `x | `[1]` |";
    assert!(syntaxes(t).is_empty());
}

#[test]
fn html_text_syntax() {
    let g = Grammar {
        numeric: true,
        syntax: TextSyntax::Html,
        ..Grammar::NONE
    };
    let t = "<p>A [1]</p><pre>[2]</pre><code>[3]</code><script>x[4]</script>\
             <style>[5]</style><a href=\"#\">[6]</a><p title=\"[7]\">B [8]</p>";
    let got: Vec<_> = found(t, &g).into_iter().map(|f| f.0).collect();
    assert_eq!(got, vec!["[1]", "[8]"]);
    let r = protected_regions(t, TextSyntax::Html);
    assert!(r.windows(2).all(|w| w[0].end < w[1].start));
}

#[test]
fn plain_text_syntax() {
    let g = Grammar {
        numeric: true,
        syntax: TextSyntax::Plain,
        ..Grammar::NONE
    };
    let t = "Code `x[1]` and\n    [2] and [3](u)";
    assert_eq!(found(t, &g).len(), 3);
    assert!(protected_regions(t, TextSyntax::Plain).is_empty());
}

#[test]
fn protected_regions_markdown() {
    let t =
        "Use `MKT-1` or [MKT-2](https://x.example) or <https://y.example>.\n\n```\nMKT-3\n```\n";
    let r = protected_regions(t, TextSyntax::Markdown);
    let texts: Vec<&str> = r.iter().map(|r| &t[r.clone()]).collect();
    assert_eq!(
        texts,
        vec![
            "`MKT-1`",
            "[MKT-2](https://x.example)",
            "<https://y.example>",
            "```\nMKT-3\n```"
        ]
    );
}

#[test]
fn crlf_lines() {
    let t = "A [1].\r\n\r\n```\r\n[2]\r\n```\r\nB [3].\r\n";
    assert_eq!(syntaxes(t), vec!["[1]", "[3]"]);
    let t = "A[^1].\r\n\r\n[^1]: Note\r\n\r\nB";
    let s = scan(t, &Grammar::ALL);
    assert_eq!(removed(t, &s), "A.\r\n\r\n\r\nB");
}

#[test]
fn hostile_inputs_are_fast_and_safe() {
    let n = 20_000;
    for t in [
        "[".repeat(n),
        "]".repeat(n),
        "`".repeat(n),
        "` ``".repeat(n / 4),
        "[a](".repeat(n),
        "[a](x".repeat(n),
        "<a b=\"".repeat(n),
        "<!--".repeat(n),
        "\u{e200}cite".repeat(n),
        "【1".repeat(n),
        "> - ".repeat(n),
        "- ".repeat(n) + "x",
        "[^a]:\n".repeat(n),
        "|-".repeat(n),
        "[[".repeat(n) + &"]]".repeat(n),
        "![[".repeat(n),
    ] {
        let start = std::time::Instant::now();
        let s = scan(&t, &Grammar::ALL);
        let _ = protected_regions(&t, TextSyntax::Markdown);
        let _ = protected_regions(&t, TextSyntax::Html);
        assert!(
            start.elapsed().as_secs_f64() < 5.0,
            "slow on {:?}",
            &t[..20.min(t.len())]
        );
        drop(s);
    }
}
