//! Tests of the stream parser as a whole: hold-back, block boundaries, chunked parses
//! equal to one-shot ones, settling and late data.

use super::*;
use crate::core::options::Numbering;
use serde_json::json;

fn one_shot(text: &str, data: &Value, opts: &Options) -> Answer {
    crate::core::parse(Some(text), Data::Json(data), opts).unwrap()
}

#[test]
fn hold_back_partial_markers() {
    let g = Grammar::ALL;
    for t in [
        "Paris [",
        "Paris [1",
        "Paris [1,",
        "Paris [[S:1,",
        "Paris 【1",
        "Paris [1]",
        "Paris [[S:1]",
        "x \u{e200}cite\u{e202}turn0",
        "a <su",
        "Paris [citation:3f2a1c9e-8b7d-4e6f-a5b4-c3d2e1f0a9b8",
        "Paris [[citation:3f2a1c9e-8b7d-4e6f-a5b4-c3d2e1f0a9b8]",
    ] {
        let h = hold_back(t, &g);
        assert!(h < t.len(), "{t:?} held back");
        assert!(t[..h].trim_end() == t[..h].trim_end(), "{t:?}");
    }
    for t in [
        "Paris [1] is",
        "Paris is big.",
        "a [link text that is long and has words like this one in it",
    ] {
        assert_eq!(hold_back(t, &g), t.len(), "{t:?} not held back");
    }
}

/// Regression: with a provider's object as data (a Perplexity chunk passed early,
/// whose delta already holds text; an OpenAI Responses output), a marker still
/// arriving showed (`Paris is the capital of France [`): data that carries its text
/// or gives offsets is parsed whole on every chunk, and that parse held nothing
/// back. With a citation map it never showed.
#[test]
fn a_marker_still_arriving_is_held_back_with_provider_data() {
    let url = "https://en.wikipedia.org/wiki/Paris";
    let perplexity_chunk = json!({"id": "p1", "model": "sonar", "object": "chat.completion.chunk",
        "citations": [url], "search_results": [{"title": "Paris", "url": url}],
        "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Paris"}}]});
    let openai = json!({"object": "response", "output": [{"type": "message", "role": "assistant",
        "content": [{"type": "output_text", "text": "Paris is the capital of France.",
            "annotations": [{"type": "url_citation", "start_index": 0, "end_index": 30,
                "url": url, "title": "Paris"}]}]}]});
    let stored = json!({"sources": [{"id": "s1", "title": "Paris", "uri": url}],
        "references": [{"startIndex": 0, "endIndex": 30, "sourceIds": ["s1"]}]});
    let map = json!({"1": {"title": "Paris", "source": url}});
    let opts = Options::default();
    for data in [&perplexity_chunk, &openai, &stored, &map] {
        for partial in [
            "[",
            "[1",
            "[1,",
            "[[S:1,",
            "【1",
            "\u{e200}cite\u{e202}turn0",
            "<su",
        ] {
            let mut p = StreamParser::new(Data::Json(data), &opts).unwrap();
            p.push("Paris is the capital of France ");
            p.push(partial);
            assert_eq!(
                p.snapshot().text,
                "Paris is the capital of France ",
                "{partial:?} with {data}"
            );
        }
        let mut p = StreamParser::new(Data::Json(data), &opts).unwrap();
        for chunk in ["Paris is the capital of France [", "1", "]", ". It is old"] {
            p.push(chunk);
        }
        assert_eq!(
            p.snapshot().text,
            "Paris is the capital of France. It is old",
            "{data}"
        );
        // A link still arriving is held back from its label too.
        let mut p = StreamParser::new(Data::Json(data), &opts).unwrap();
        p.push("Paris is the capital of France [1](https://ex");
        assert_eq!(
            p.snapshot().text,
            "Paris is the capital of France ",
            "{data}"
        );
    }
}

#[test]
fn boundaries() {
    assert_eq!(block_boundary("a\n\nb"), Some(3));
    assert_eq!(block_boundary("a\n\n"), None);
    assert_eq!(block_boundary("- a\n\n  b"), None);
    assert_eq!(block_boundary("```\nx\n\ny"), None);
    assert_eq!(block_boundary("```\nx\n```\n\ny"), Some(11));
}

#[test]
fn chunked_equals_one_shot_simple() {
    let data = json!({"1": {"title": "A", "source": "https://a.example"}, "2": {"title": "B", "source": "https://b.example"}});
    let text = "Intro [2] here.\n\n- item [1]\n- two [1][2]\n\n```\nx[1]\n```\n\nEnd [3] and [2].";
    let opts = Options::default();
    let expected = one_shot(text, &data, &opts);
    for size in 1..8 {
        let mut p = StreamParser::new(Data::Json(&data), &opts).unwrap();
        let chars: Vec<char> = text.chars().collect();
        for ch in chars.chunks(size) {
            let s: String = ch.iter().collect();
            p.push(&s);
            // Never a literal marker in the visible text.
            assert!(
                !p.snapshot().text.replace("x[1]", "").contains("[1]"),
                "{:?}",
                p.snapshot().text
            );
        }
        let got = p.finish().clone();
        assert_eq!(got.text, expected.text, "size {size}");
        assert_eq!(got.citations, expected.citations, "size {size}");
        assert_eq!(got.sources, expected.sources, "size {size}");
    }
}

#[test]
fn hold_back_an_unclosed_link_with_a_marker_label() {
    let g = Grammar::ALL;
    for (t, shown) in [
        ("As shown in [3](https://ex", "As shown in "),
        ("As shown in [3](", "As shown in "),
        ("See [see [3]](https://ex", "See "),
        ("A [1] and [3](u \"Ti", "A [1] and "),
        ("x [1]([1](https://e", "x "),
        ("x [1]([1](https://e) (a", "x "),
    ] {
        assert_eq!(&t[..hold_back(t, &g)], shown, "{t:?}");
    }
    for t in [
        "As shown in [3](https://ex.org) and",
        "A (b) [1] c",
        "x](y",
        "[1]([1](u)) and (",
    ] {
        assert_eq!(hold_back(t, &g), t.len(), "{t:?}");
    }
}

/// Whether the end of a streamed text is a link still arriving is the parser's call:
/// a label over two lines is held back whole, an image from its `!`, and what the
/// parser reads as code, an escaped bracket or a tag is shown.
#[test]
fn an_unclosed_link_is_what_the_parser_reads_as_one() {
    let g = Grammar::ALL;
    for (t, shown) in [
        ("See [the\nstudy [3]](https://ex", "See "),
        ("A chart ![3](https://ex", "A chart "),
        ("A [3](<https://ex", "A "),
        ("A [3](u (a", "A "),
        ("`code` then [3](https://ex", "`code` then "),
    ] {
        assert_eq!(&t[..hold_back(t, &g)], shown, "{t:?}");
    }
    for t in [
        "Use `f[3](x` and more",
        "An escaped \\[3](https://ex",
        "A tag <a title=\"[3](x\"> here",
        "```\nv[3](x\n```\nafter",
    ] {
        assert_eq!(hold_back(t, &g), t.len(), "{t:?}");
    }
    // A long answer: the parse reads only the end of the text.
    let long = format!("{}\n\nAs in [3](https://ex", "word ".repeat(2000));
    assert_eq!(&long[hold_back(&long, &g)..], "[3](https://ex");
}

#[test]
fn unclosed_code_spans() {
    assert_eq!(unclosed_code_span("a `b [1]"), Some(1));
    assert_eq!(unclosed_code_span("a ``b ` [1]"), Some(2));
    assert_eq!(unclosed_code_span("a `b` [1]"), None);
    assert_eq!(unclosed_code_span("a \\`b [1]"), None);
    assert_eq!(unclosed_code_span("x `a\n\ny [1]"), None);
    assert_eq!(unclosed_code_span("no code [1]"), None);
}

#[test]
fn text_after_an_unclosed_backtick_is_read_as_code_until_its_block_ends() {
    let data = json!({"1": {"title": "A", "source": "https://a.example"}});
    let opts = Options::default();
    let mut p = StreamParser::new(Data::Json(&data), &opts).unwrap();
    p.push("Use `x [1] now");
    assert!(p.snapshot().citations.is_empty(), "{:?}", p.snapshot());
    assert_eq!(p.snapshot().text, "Use `x [1] now");
    // The backtick closes: code it was.
    p.push("` here [1].");
    assert_eq!(p.snapshot().citations.len(), 1);
    // One that never closes: the block, once complete, reads it as text.
    p.push("\n\nA lone ` and [1]");
    p.push(".\n\nNext");
    assert_eq!(p.snapshot().citations.len(), 2, "{:?}", p.snapshot());
}

#[test]
fn settle_names_the_markers_that_changed() {
    let opts = Options::default();
    let mut p = StreamParser::new(Data::None, &opts).unwrap();
    p.push("Paris [1].\n\nLyon [2] and Nice [3].\n\nTail");
    let before = p.snapshot().clone();
    let fixed = p.stable_len();
    let data = json!({"2": {"title": "B", "source": "https://b.example"}});
    p.set_data(Data::Json(&data)).unwrap();
    let after = p.snapshot().clone();
    let s = settle(&before, &after, fixed);
    assert!(!s.moved);
    assert_eq!(s.markers, vec![1]);
    assert_eq!(s.map, vec![Some(0), Some(1), Some(2)]);
    // A source's title changes: its markers show it (their label), nothing else.
    let retitled = json!({"2": {"title": "B2"}});
    p.set_data(Data::Json(&retitled)).unwrap();
    let s = settle(&after, p.snapshot(), fixed);
    assert_eq!((s.markers, s.moved), (vec![1], false));
    let after = p.snapshot().clone();
    // Unresolved markers are dropped at the end: the later ones change index.
    let done = p.finish().clone();
    let s = settle(&after, &done, fixed);
    assert!(s.moved);
    assert_eq!(s.map, vec![None, Some(0), None]);
    assert!(settle(&done, &done, usize::MAX).is_empty());
}

#[test]
fn late_data_turns_markers_live() {
    let opts = Options::default();
    let mut p = StreamParser::new(Data::None, &opts).unwrap();
    p.push("Paris is the capital [1].\n\nLyon [2] too.");
    let s = p.snapshot();
    assert_eq!(s.text, "Paris is the capital.\n\nLyon too.");
    assert_eq!(s.citations.len(), 2);
    assert_eq!(s.citations[0].pending, vec!["1"]);
    let data = json!({"1": {"title": "A", "source": "https://a.example"}});
    p.set_data(Data::Json(&data)).unwrap();
    let s = p.snapshot();
    assert!(s.citations[0].pending.is_empty());
    assert_eq!(s.citations[0].sources, vec!["1"]);
    assert_eq!(s.citations[1].pending, vec!["2"]);
    let done = p.finish();
    assert_eq!(done.citations.len(), 1);
    assert!(done
        .diagnostics
        .iter()
        .any(|d| d.code == "unresolved-marker"));
}

/// A stream that starts with empty data (`{}`, `[]`, `{"sources": []}`) shows its
/// markers pending, as with no data, and the first data decides the format:
/// regression for `[]` fixing the stream as markdown (`[1]` literal for good) and
/// `{}` refusing it (`[1]` literal until more data came).
#[test]
fn empty_data_at_the_start_is_data_to_come() {
    let opts = Options::default();
    let map = json!({"1": {"title": "A", "source": "https://a.example"}});
    // Arrays: an AI SDK message's parts (a format of every build) and scintilla's
    // tool metadata.
    let parts =
        json!([{"type": "source-url", "sourceId": "a", "url": "https://a.example", "title": "A"}]);
    let mut late = vec![&map, &parts];
    let scintilla = json!([{"urls": ["https://a.example"], "titles": ["A"]}]);
    if cfg!(feature = "scintilla") {
        late.push(&scintilla);
    }
    for start in [json!({}), json!([]), json!({"sources": []}), json!(null)] {
        for data in late.iter().copied() {
            let mut p = StreamParser::new(Data::Json(&start), &opts).unwrap();
            p.push("Hello [1] world.");
            let s = p.snapshot();
            assert_eq!(s.text, "Hello world.", "{start}");
            assert_eq!(s.citations[0].pending, vec!["1"], "{start}");
            p.set_data(Data::Json(data)).unwrap();
            let s = p.snapshot();
            assert!(s.citations[0].pending.is_empty(), "{start} {data}");
            assert_eq!(s.sources.len(), 1, "{start} {data}");
            assert_eq!(s.sources[0].title.as_deref(), Some("A"));
            let done = p.finish().clone();
            let whole =
                crate::core::parse(Some("Hello [1] world."), Data::Json(data), &opts).unwrap();
            assert_eq!(done, whole, "{start} {data}");
        }
        // No data by the end: as a one-shot parse without data, `[1]` is text.
        let mut p = StreamParser::new(Data::Json(&start), &opts).unwrap();
        p.push("Hello [1] world.");
        assert_eq!(p.finish().text, "Hello [1] world.", "{start}");
    }
    // Stored data after none: its spans index the text, read as stored.
    let stored = json!({"sources": [{"id": "s1", "title": "S", "uri": "https://s.example"}],
        "references": [{"startIndex": 0, "endIndex": 5, "sourceIds": ["s1"]}]});
    let mut p = StreamParser::new(Data::None, &opts).unwrap();
    p.push("Hello world.");
    p.set_data(Data::Json(&stored)).unwrap();
    assert_eq!(p.format(), Format::Stored);
    assert_eq!(p.snapshot().citations.len(), 1);
    assert_eq!(
        p.finish().clone(),
        crate::core::parse(Some("Hello world."), Data::Json(&stored), &opts).unwrap()
    );
    // A format given stays: `{}` as a citation map is an empty one.
    let given = Options {
        format: FormatChoice::Given(Format::CitationMap),
        ..Options::default()
    };
    let mut p = StreamParser::new(Data::Json(&json!({})), &given).unwrap();
    p.push("Hello [1] world.");
    assert_eq!(p.snapshot().citations[0].pending, vec!["1"]);
}

/// Streams `pieces` one push each (with `data` given at push `late`, if any) and
/// checks after every push that the snapshot kept in place is the one put together
/// from scratch.
fn check_in_place(pieces: &[String], first: &Value, late: Option<(usize, &Value)>, opts: &Options) {
    let mut p = StreamParser::new(Data::Json(first), opts).unwrap();
    for (n, piece) in pieces.iter().enumerate() {
        if let Some((at, d)) = late {
            if at == n {
                p.set_data(Data::Json(d)).unwrap();
                assert_eq!(p.snapshot(), &scratch::scratch(&p), "after set_data at {n}");
            }
        }
        p.push(piece);
        if p.in_place {
            let text: String = pieces[..=n].concat();
            assert_eq!(p.snapshot(), &scratch::scratch(&p), "after {text:?}");
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn in_place_piece() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    prop_oneof![
        "[a-z]{1,6}".prop_map(|w| format!("{w} ")),
        (1u8..7).prop_map(|n| format!("[{n}]")),
        (1u8..4).prop_map(|n| format!("[{n}][{}]", n + 1)),
        (1u8..4).prop_map(|n| format!("[^{n}]")),
        Just("[^a]".to_string()),
        (1u8..4).prop_map(|n| format!("\n\n[^{n}]: https://f{n}.example/x Note {n}\n\n")),
        Just("\n\n[^a]: https://one.example/a Same as one\n\n".to_string()),
        Just("\n\n[^2]: a note with no link\n\n".to_string()),
        Just("[[USAGE:2]]".to_string()),
        Just("`code [1]`".to_string()),
        Just(". ".to_string()),
        Just("\n\n".to_string()),
        Just("\n- ".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("(".to_string()),
        Just("(https://l.example)".to_string()),
        Just("`".to_string()),
    ]
}

#[cfg(not(target_arch = "wasm32"))]
proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, .. proptest::prelude::ProptestConfig::default() })]
    #[test]
    fn in_place_snapshot_equals_a_scratch_assembly(
        pieces in proptest::collection::vec(in_place_piece(), 1..40),
        late in proptest::option::of(0usize..40),
        given in proptest::bool::ANY,
        hide in proptest::bool::ANY,
    ) {
        let first = json!({"1": {"title": "One", "source": "https://one.example/a"},
                           "2": {"title": "Two", "source": "https://two.example/b"},
                           "3": {"title": "Three", "source": "docs/three.md"}});
        let more = json!({"4": {"title": "Four", "source": "https://four.example/"},
                          "5": {"title": "Five", "source": "https://one.example/a/"}});
        let opts = Options {
            numbering: if given { Numbering::Given } else { Numbering::FirstCited },
            show_citations: !hide || given,
            ..Options::default()
        };
        check_in_place(&pieces, &first, late.map(|n| (n, &more)), &opts);
    }
}

#[test]
fn in_place_snapshot_equals_a_scratch_assembly_on_footnotes_across_blocks() {
    let data = json!({"1": {"title": "One", "source": "https://one.example/a"},
                      "2": {"title": "Two", "source": "https://two.example/b"}});
    // `[^z]` is defined twice: the second definition (in the open tail, arriving
    // char by char) fills the url the first one lacks, until it commits.
    let text = "Intro [2] and a note [^x].\n\nMore [^y][1] here [3].\n\n- item [^x]\n- two [2]\n\n[^y]: https://y.example/ Why\n[^x]: https://one.example/a Same\n\n[^z]: plain words\n\nAfter [^x] and [[USAGE:2]] end [4] [^z].\n\n[^z]: https://z.example/a/long/path Zed\n\nEnd [1].";
    let more = json!({"3": {"title": "Three", "source": "https://three.example/"}});
    for step in [1, 2, 3, 5, 8] {
        let chars: Vec<char> = text.chars().collect();
        let pieces: Vec<String> = chars.chunks(step).map(|c| c.iter().collect()).collect();
        for numbering in [Numbering::FirstCited, Numbering::Given] {
            let opts = Options {
                numbering,
                ..Options::default()
            };
            check_in_place(&pieces, &data, None, &opts);
            check_in_place(&pieces, &data, Some((pieces.len() / 2, &more)), &opts);
        }
    }
}
