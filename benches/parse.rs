//! Parse throughput: `cargo bench --bench parse`.
//!
//! Generates a realistic markdown answer (headings, paragraphs, lists, a table, a fenced
//! code block with bracket text, inline code, emoji and CJK, a `[n]` marker about every
//! 130 bytes, 20 sources) of about 20 KB and 1 MB with a citation_map data map, and
//! times `citekit::parse` (format parse + resolution) and `markers::scan` alone; then a
//! 5 MB answer with about 66,000 markers (the size the browser mount benchmark mounts),
//! printing any `limit-exceeded` diagnostic it gets (the limit is named in it). Each
//! measurement runs for at least one second (`CITEKIT_BENCH_SECS` changes that) and
//! prints bytes, iterations, the median time and MB/s. Target: >= 100 MB/s on 1 MB.
//!
//! Then the streaming parser's cost of one append: a 200 KB answer over a 200-source
//! citation map is fed to `StreamParser` up to 4 KB, 40 KB and 160 KB, and 200 appends
//! of 4 characters are timed at each point (the host side of `view.append`; the
//! browser side is `npm run bench:stream`). Each append is timed twice: the parser's
//! push alone, and with what the streaming view does on the host side after it (read
//! the snapshot and its stable length, make the markers from the first block that can
//! still change, render that open tail after the reference definitions before it as
//! `render_stream_tail` does). An append's cost should not grow with the text already
//! received: each median is printed as a ratio to the 4 KB one. Targets: the whole
//! append at 160 KB within 1.3x of the 4 KB one, the push alone under 0.03 ms.
//! `stream_view_text` is timed on its own too: it copies the whole text so far on every
//! append, the one step left that grows with it.
//!
//! Then a provider's own stream: the same 200 KB answer as an Anthropic Messages event
//! stream (a search with 200 results, then text blocks of `text_delta`s, every fourth
//! one cited by a `citations_delta`), appended in 4-character pieces of the event text;
//! 200 appends timed at 4 KB, 40 KB and 160 KB of answer text, all of them and those
//! that complete an event (the open block is resolved then, with its spans:
//! docs/streaming.md).
//! `--provider-stream` runs only this part.
//!
//! Then a stream whose answer links its sources inline as chat answers do (`[title
//! [3]](https://…)` in every sentence, 40 KB): while a link's destination arrives, the
//! hold-back asks the parser whether the end of the text is a link still arriving
//! (`core/stream/hold.rs`). Every 4-character append's push is timed, and the median
//! and p95 are printed beside those of the same sentences without link syntax, as a
//! ratio. `--links` runs only this part.
//!
//! Then one block that stays open while it streams (fenced code, a table, a tight list,
//! an HTML comment that is never closed, 20 KB each): the open tail is read again on
//! every append, so an append inside it costs the block's length; the median push is
//! printed at 2, 10 and 20 KB into the block. Beside them, paragraphs with Windows line
//! ends (`\r\n`), which settle as `\n` ones do, so their push stays flat. And one append of a whole answer (20 KB,
//! 200 KB) beside a one-shot parse of the same text: the blocks it brings are settled
//! one by one, each costing its own length. `--blocks` runs only this part.

use citekit::components::answer::html::answer_blocks;
use citekit::components::answer::html::stream_view::{
    render_tail, stream_view_text, tail_start, StreamDefs,
};
use citekit::core::markers::{scan, Grammar};
use citekit::core::model::Format;
use citekit::core::options::FormatChoice;
use citekit::core::stream::StreamParser;
use citekit::render::RenderOptions;
use citekit::{Data, Options};
use serde_json::{json, Map, Value};
use std::hint::black_box;
use std::ops::Range;
use std::time::{Duration, Instant};

const SOURCES: u64 = 20;

/// A small deterministic generator (xorshift), so every run benches the same text.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

#[rustfmt::skip]
const WORDS: &[&str] = &[
    "the", "system", "uses", "graph", "retrieval", "with", "vector", "search", "and",
    "agents", "that", "combine", "results", "from", "several", "sources", "into", "one",
    "answer", "latency", "is", "measured", "per", "request", "**bold**", "_emphasis_",
    "`inline[2]`", "LangGraph", "Neo4j", "中文文本", "検索", "😀", "naïve", "café", "Qdrant",
    "[a link](https://example.com/docs)", "pipeline", "orchestration", "~~old~~",
];

/// A citation marker: mostly `[n]`, sometimes adjacent or a list.
fn marker(rng: &mut Rng) -> String {
    let n = rng.below(SOURCES) + 1;
    match rng.below(10) {
        0 => format!("[{n}][{}]", rng.below(SOURCES) + 1),
        1 => format!("[{n}, {}]", rng.below(SOURCES) + 1),
        _ => format!("[{n}]"),
    }
}

/// A sentence of about 130 bytes ending in a marker.
fn sentence(rng: &mut Rng, out: &mut String) {
    sentence_of(rng, out, 110);
}

/// A sentence of about `words + 20` bytes ending in a marker.
fn sentence_of(rng: &mut Rng, out: &mut String, words: usize) {
    let start = out.len();
    let mut first = true;
    while out.len() - start < words {
        if !first {
            out.push(' ');
        }
        let w = rng.pick(WORDS);
        if first {
            let mut cs = w.chars();
            if let Some(c) = cs.next() {
                out.extend(c.to_uppercase());
                out.push_str(cs.as_str());
            }
        } else {
            out.push_str(w);
        }
        first = false;
    }
    out.push(' ');
    out.push_str(&marker(rng));
    out.push_str(rng.pick(&[".", ".", ".", "!", ";"]));
}

fn answer(target_bytes: usize) -> String {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut out = String::with_capacity(target_bytes + 4096);
    let mut section = 0;
    while out.len() < target_bytes {
        section += 1;
        out.push_str(&format!("## Section {section}: findings\n\n"));
        for _ in 0..3 {
            for _ in 0..4 {
                sentence(&mut rng, &mut out);
                out.push(' ');
            }
            out.push_str("\n\n");
        }
        for i in 0..4 {
            out.push_str(if i % 2 == 0 { "- " } else { "1. " });
            sentence(&mut rng, &mut out);
            out.push('\n');
        }
        out.push_str("\n| component | role | note |\n|---|---|---|\n");
        for _ in 0..3 {
            out.push_str(&format!(
                "| {} | {} {} | {} {} |\n",
                rng.pick(WORDS),
                rng.pick(WORDS),
                marker(&mut rng),
                rng.pick(WORDS),
                marker(&mut rng)
            ));
        }
        out.push_str(
            "\n```python\nitems = results[1]\nbest = scores[2:4]  # [3] is not a citation\n```\n\n",
        );
        out.push_str("> 引用: ");
        sentence(&mut rng, &mut out);
        out.push_str("\n\n");
    }
    out
}

/// A marker-dense answer: paragraphs and list items of short sentences, each ending in
/// a marker (a marker about every 80 bytes), as a long chat answer that cites every
/// claim; about 66,000 markers in 5 MB.
fn dense_answer(target_bytes: usize) -> String {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut out = String::with_capacity(target_bytes + 4096);
    let mut section = 0;
    while out.len() < target_bytes {
        section += 1;
        out.push_str(&format!("## Part {section}\n\n"));
        for _ in 0..4 {
            for _ in 0..5 {
                sentence_of(&mut rng, &mut out, 74);
                out.push(' ');
            }
            out.push_str("\n\n");
        }
        for _ in 0..4 {
            out.push_str("- ");
            sentence_of(&mut rng, &mut out, 74);
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

fn citation_map() -> Value {
    let mut m = Map::new();
    for i in 1..=SOURCES {
        m.insert(
            i.to_string(),
            json!({
                "text": format!("Source {i}: an excerpt of the retrieved document that supports a statement."),
                "source": format!("docs/part{i}.md"),
                "title": format!("Document {i}"),
                "score": 1.0 - i as f64 / 40.0,
                "metadata": {"page": i, "section": "results"}
            }),
        );
    }
    Value::Object(m)
}

/// Runs `f` for at least `min` (and 5 iterations), returning (iterations, median).
fn time<F: FnMut()>(min: Duration, mut f: F) -> (usize, Duration) {
    f(); // warm-up
    let mut times = Vec::new();
    let t0 = Instant::now();
    while t0.elapsed() < min || times.len() < 5 {
        let t = Instant::now();
        f();
        times.push(t.elapsed());
    }
    times.sort();
    (times.len(), times[times.len() / 2])
}

fn report(what: &str, bytes: usize, iterations: usize, median: Duration) -> f64 {
    let mbs = bytes as f64 / 1e6 / median.as_secs_f64();
    println!(
        "{what:<14} {bytes:>9} bytes {iterations:>7} iterations  median {:>10.3} ms  {mbs:>8.1} MB/s",
        median.as_secs_f64() * 1e3
    );
    mbs
}

fn main() {
    let secs: f64 = std::env::var("CITEKIT_BENCH_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let min = Duration::from_secs_f64(secs);
    if std::env::args().any(|a| a == "--provider-stream") {
        provider_stream_appends();
        return;
    }
    if std::env::args().any(|a| a == "--links") {
        link_appends();
        return;
    }
    if std::env::args().any(|a| a == "--blocks") {
        long_blocks();
        return;
    }
    let data = citation_map();
    let options = Options {
        format: FormatChoice::Given(Format::CitationMap),
        ..Options::default()
    };
    let mut big_mbs = 0.0;
    for (label, size) in [("20 KB", 20 * 1024), ("1 MB", 1024 * 1024)] {
        let text = answer(size);
        match citekit::parse(Some(&text), Data::Json(&data), &options) {
            Ok(a) => println!(
                "{label}: {} bytes, {} sources, {} citations, {} diagnostics",
                text.len(),
                a.sources.len(),
                a.citations.len(),
                a.diagnostics.len()
            ),
            Err(e) => println!("{label}: parse failed ({e}); timing it anyway"),
        }
        let (n, m) = time(min, || {
            let _ = black_box(citekit::parse(
                Some(black_box(&text)),
                Data::Json(&data),
                &options,
            ));
        });
        let mbs = report(&format!("parse {label}"), text.len(), n, m);
        let (n, m) = time(min, || {
            black_box(scan(black_box(&text), &Grammar::NUMERIC));
        });
        report(&format!("scan {label}"), text.len(), n, m);
        if size > 100_000 {
            big_mbs = mbs;
        }
    }
    println!(
        "target: parse >= 100 MB/s on 1 MB: {} ({big_mbs:.1} MB/s)",
        if big_mbs >= 100.0 { "met" } else { "NOT met" }
    );

    // The big answer the browser mount benchmark mounts: 5 MB, about 66,000 markers.
    let text = dense_answer(5 * 1024 * 1024);
    let markers = scan(&text, &Grammar::ALL).markers.len();
    match citekit::parse(Some(&text), Data::Json(&data), &options) {
        Ok(a) => {
            println!(
                "5 MB dense: {} bytes, {markers} markers, {} citations, {} diagnostics",
                text.len(),
                a.citations.len(),
                a.diagnostics.len()
            );
            // A limit reached says so by name; print every such report.
            for d in a.diagnostics.iter().filter(|d| d.code == "limit-exceeded") {
                println!("  limit: {}", d.message);
            }
        }
        Err(e) => println!("5 MB dense: parse failed ({e}); timing it anyway"),
    }
    let (n, m) = time(min, || {
        let _ = black_box(citekit::parse(
            Some(black_box(&text)),
            Data::Json(&data),
            &options,
        ));
    });
    report("parse 5 MB", text.len(), n, m);

    stream_appends();
    provider_stream_appends();
    link_appends();
}

/// How [`linked_answer`] writes its sentences' sources.
#[derive(Clone, Copy, PartialEq)]
enum Links {
    /// The link's label as plain text, the marker after it.
    None,
    /// An inline link, a marker in its label.
    Inline,
    /// No link, no parenthesis, and every paragraph opens with code holding `](` (a
    /// candidate the parser turns down on every append: the dearest case).
    OpenInCode,
}

/// A 40 KB answer of paragraphs whose sentences each cite a source ([`Links`]).
fn linked_answer(links: Links) -> String {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut out = String::new();
    let mut k = 0;
    while out.len() < 40 * 1024 {
        if links == Links::OpenInCode {
            out.push_str("Call `lookup](key` first. ");
        }
        for _ in 0..4 {
            k += 1;
            let (a, b, c) = (rng.pick(WORDS), rng.pick(WORDS), rng.pick(WORDS));
            let n = 1 + k % 20;
            out.push_str(&match links {
                Links::Inline => format!(
                    "The {a} {b} is described in [the {c} guide [{n}]](https://www.example.com/docs/{a}/{b}-{k}?ref=answer&section={c}). "
                ),
                Links::None => format!(
                    "The {a} {b} is described in the {c} guide [{n}] (www.example.com docs {a} {b} {k} ref answer section {c}). "
                ),
                Links::OpenInCode => format!(
                    "The {a} {b} is described in the {c} guide [{n}] at www.example.com docs {a} {b} {k} ref answer section {c}. "
                ),
            });
        }
        out.push_str("\n\n");
    }
    out
}

/// Times every 4-character append of [`linked_answer`] with and without its links.
fn link_appends() {
    let mut map = Map::new();
    for i in 1..=20u64 {
        map.insert(
            i.to_string(),
            json!({"title": format!("Document {i}"), "source": format!("https://example.com/doc/{i}")}),
        );
    }
    let data = Value::Object(map);
    let options = Options::default();
    let mut medians = Vec::new();
    for links in [Links::None, Links::Inline, Links::OpenInCode] {
        let text = linked_answer(links);
        let Ok(mut parser) = StreamParser::new(Data::Json(&data), &options) else {
            println!("links: the parser refused the data");
            return;
        };
        let mut times: Vec<Duration> = timed_appends(&mut parser, &text)
            .into_iter()
            .map(|(_, d)| d)
            .collect();
        let cited = parser.finish().citations.len();
        times.sort();
        let (median, p95) = (times[times.len() / 2], times[times.len() * 95 / 100]);
        println!(
            "links {}: {} bytes, {} appends, {cited} citations: push median {:.4} ms, p95 {:.4} ms",
            match links {
                Links::None => "none        ",
                Links::Inline => "inline      ",
                Links::OpenInCode => "open in code",
            },
            text.len(),
            times.len(),
            median.as_secs_f64() * 1e3,
            p95.as_secs_f64() * 1e3
        );
        medians.push((median, p95));
    }
    let ratio = |x: Duration, y: Duration| x.as_secs_f64() / y.as_secs_f64().max(1e-9);
    println!(
        "links: an answer with inline links streams at {:.2}x the median, {:.2}x the p95 of one without; with `](` open in code, {:.2}x and {:.2}x",
        ratio(medians[1].0, medians[0].0),
        ratio(medians[1].1, medians[0].1),
        ratio(medians[2].0, medians[0].0),
        ratio(medians[2].1, medians[0].1)
    );
}

/// `text` pushed to `parser` in appends of 4 characters, each timed with the snapshot
/// read after it: where each append starts and what it took.
fn timed_appends(parser: &mut StreamParser, text: &str) -> Vec<(usize, Duration)> {
    let mut out = Vec::new();
    let mut it = text.char_indices().map(|(i, _)| i).step_by(4).peekable();
    while let Some(start) = it.next() {
        let end = it.peek().copied().unwrap_or(text.len());
        let t = Instant::now();
        parser.push(&text[start..end]);
        black_box(parser.snapshot());
        out.push((start, t.elapsed()));
    }
    out
}

/// A stream parser over the one-source map of [`long_blocks`].
fn one_source_parser() -> Option<StreamParser> {
    let data = json!({"1": {"title": "One", "source": "https://example.com/one"}});
    StreamParser::new(Data::Json(&data), &Options::default()).ok()
}

/// What one block that stays open costs the appends inside it, and what one append of
/// a whole answer costs beside a one-shot parse of it.
fn long_blocks() {
    let grow = |head: &str, line: &dyn Fn(usize) -> String| {
        let mut out = head.to_string();
        let mut n = 0;
        while out.len() < 20_000 {
            n += 1;
            out.push_str(&line(n));
        }
        out
    };
    let blocks = [
        (
            "fenced code",
            grow("Code [1]:\n\n```rust\n", &|n| {
                format!("let x{n} = f(a[1], b); // [1]\n")
            }),
        ),
        (
            "table",
            grow("| a | b |\n|---|---|\n", &|n| {
                format!("| row {n} [1] | more text here |\n")
            }),
        ),
        (
            "tight list",
            grow("", &|n| {
                format!("{n}. Item {n} says something cited [1].\n")
            }),
        ),
        (
            "open comment",
            grow("<!--\n", &|n| format!("comment line {n} [1]\n\n")),
        ),
        // Not one block: paragraphs, as with `\n`, that must settle one by one.
        (
            "crlf paras",
            grow("", &|n| {
                format!("Paragraph {n} says something cited [1].\r\n\r\n")
            }),
        ),
    ];
    for (name, text) in &blocks {
        let Some(mut parser) = one_source_parser() else {
            println!("blocks: the parser refused the data");
            return;
        };
        // The median push over the 400 bytes before each point.
        let mut at = [
            (2_000, Vec::new()),
            (10_000, Vec::new()),
            (20_000, Vec::new()),
        ];
        for (start, d) in timed_appends(&mut parser, text) {
            if let Some((_, v)) = at.iter_mut().find(|(k, _)| start + 400 >= *k && start < *k) {
                v.push(d);
            }
        }
        let med = |v: &mut Vec<Duration>| {
            v.sort();
            v.get(v.len() / 2).map_or(0.0, |d| d.as_secs_f64() * 1e3)
        };
        let m: Vec<f64> = at.iter_mut().map(|(_, v)| med(v)).collect();
        println!(
            "blocks {name:<12}: {} bytes, push median at 2 KB {:.4} ms, 10 KB {:.4} ms, 20 KB {:.4} ms ({:.1}x the 2 KB one)",
            text.len(), m[0], m[1], m[2], m[2] / m[0].max(1e-9)
        );
    }
    for size in [20 * 1024, 200 * 1024] {
        let text = answer(size);
        let Some(mut parser) = one_source_parser() else {
            return;
        };
        let t = Instant::now();
        parser.push(&text);
        black_box(parser.snapshot());
        let pushed = t.elapsed();
        let data = json!({"1": {"title": "One", "source": "https://example.com/one"}});
        let t = Instant::now();
        black_box(citekit::parse(Some(&text), Data::Json(&data), &Options::default()).ok());
        let parsed = t.elapsed();
        println!(
            "blocks: one append of a {} KB answer {:.2} ms, {:.2}x a one-shot parse of it ({:.2} ms)",
            size / 1024,
            pushed.as_secs_f64() * 1e3,
            pushed.as_secs_f64() / parsed.as_secs_f64().max(1e-9),
            parsed.as_secs_f64() * 1e3
        );
    }
}

/// Times 4-character appends to a stream parser at 4 KB, 40 KB and 200 KB of a 200 KB
/// answer with 200 sources in its data.
fn stream_appends() {
    let text = answer(200 * 1024);
    let mut map = Map::new();
    for i in 1..=200u64 {
        map.insert(
            i.to_string(),
            json!({"title": format!("Document {i}"), "source": format!("https://example.com/doc/{i}"),
                   "text": format!("Source {i}: an excerpt that supports a statement.")}),
        );
    }
    let data = Value::Object(map);
    let options = Options::default();
    let Ok(mut parser) = StreamParser::new(Data::Json(&data), &options) else {
        println!("stream: the parser refused the data");
        return;
    };
    // Char-boundary cuts of the text into 4-character chunks.
    let chunks: Vec<&str> = {
        let mut out = Vec::new();
        let mut it = text.char_indices().map(|(i, _)| i).step_by(4).peekable();
        while let Some(start) = it.next() {
            let end = it.peek().copied().unwrap_or(text.len());
            out.push(&text[start..end]);
        }
        out
    };
    let render_opts = RenderOptions::default();
    // The definitions of the blocks before the open tail, as the view keeps them.
    let mut defs = StreamDefs::default();
    let mut fed = 0usize; // chunks fed so far
    let mut fed_bytes = 0usize;
    let mut first: Option<(Duration, Duration)> = None;
    for at_kb in [4usize, 40, 160] {
        let at = (at_kb * 1024).min(text.len());
        // Untimed: feed up to the point in big pieces (one append each).
        let mut piece = String::new();
        while fed < chunks.len() && fed_bytes < at {
            piece.push_str(chunks[fed]);
            fed_bytes += chunks[fed].len();
            fed += 1;
            if piece.len() >= 4096 {
                parser.push(&piece);
                piece.clear();
            }
        }
        parser.push(&piece);
        // The blocks a view shows so far (their ranges), as the streaming view keeps them.
        let mut shown: Vec<Range<usize>> = answer_blocks(parser.snapshot(), &render_opts)
            .into_iter()
            .map(|b| b.range)
            .collect();
        // Untimed: the definitions of the text fed in big pieces (the view reads them as
        // the text comes, a part once).
        let stable = parser.stable_len();
        let from = shown.last().map_or(0, |r| r.start).min(stable);
        let k = shown.partition_point(|r| r.end <= from);
        defs.before(
            &parser.snapshot().text,
            shown.get(k).map_or(from, |r| r.start.min(from)),
        );
        // Timed: the next 200 appends (or what is left), each the parser's push alone,
        // then with what the view does on the host side per append: read the snapshot
        // and its stable length, make the markers from the first block that can still
        // change, render the open tail after the definitions before it (as
        // `render_stream_tail` does).
        let mut push_times = Vec::new();
        let mut all_times = Vec::new();
        let mut view_times = Vec::new();
        for chunk in chunks.iter().skip(fed).take(200) {
            let t = Instant::now();
            parser.push(chunk);
            let a = black_box(parser.snapshot());
            let stable = parser.stable_len();
            let pushed = t.elapsed();
            let (k, start) = tail_start(&shown, |r| r, stable);
            let tv = Instant::now();
            let view_text = stream_view_text(&a.text, start);
            view_times.push(tv.elapsed());
            let new = render_tail(a, &render_opts, &view_text, start, &mut defs);
            black_box(&new);
            all_times.push(t.elapsed());
            push_times.push(pushed);
            shown.truncate(k);
            shown.extend(new.into_iter().map(|b| b.range));
            fed_bytes += chunk.len();
            fed += 1;
        }
        if push_times.is_empty() {
            break;
        }
        let median = |v: &mut Vec<Duration>| {
            v.sort();
            v[v.len() / 2]
        };
        let (push, all) = (median(&mut push_times), median(&mut all_times));
        let view = median(&mut view_times);
        let (p0, a0) = *first.get_or_insert((push, all));
        let ratio = |x: Duration, y: Duration| x.as_secs_f64() / y.as_secs_f64().max(1e-9);
        println!(
            "stream append at {at_kb:>3} KB: median {:>8.3} ms over {} appends ({:.1}x the 4 KB median)",
            push.as_secs_f64() * 1e3,
            push_times.len(),
            ratio(push, p0)
        );
        println!(
            "  + snapshot, markers, tail render: median {:>8.3} ms ({:.2}x the 4 KB median; of it `stream_view_text`, which copies the text so far: {:.3} ms)",
            all.as_secs_f64() * 1e3,
            ratio(all, a0),
            view.as_secs_f64() * 1e3
        );
    }
    let done = parser.finish();
    println!(
        "stream: {} bytes, {} citations, {} sources when finished",
        done.text.len(),
        done.citations.len(),
        done.sources.len()
    );
}

/// An Anthropic Messages stream of the 200 KB answer: a search with 200 results, then
/// the text in blocks of about 300 bytes sent as 20-byte `text_delta`s, every fourth
/// block cited (one `citations_delta` naming a result before its text).
fn anthropic_stream(text: &str) -> (String, Vec<usize>, Vec<usize>) {
    let mut events = vec![
        json!({"type": "message_start", "message": {"id": "msg_bench", "type": "message",
        "role": "assistant", "model": "claude", "content": [], "stop_reason": null}}),
    ];
    let url = |i: usize| format!("https://example.com/doc/{i}");
    let results: Vec<Value> = (1..=200)
        .map(|i| json!({"type": "web_search_result", "url": url(i), "title": format!("Document {i}")}))
        .collect();
    events.push(
        json!({"type": "content_block_start", "index": 0, "content_block":
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": results}}),
    );
    events.push(json!({"type": "content_block_stop", "index": 0}));
    // Where each event's answer text ends, to find the 4 KB, 40 KB, 160 KB points.
    let mut text_at = vec![0, 0, 0];
    let (mut from, mut index, mut answered) = (0usize, 1usize, 0usize);
    while from < text.len() {
        let mut to = (from + 300).min(text.len());
        while !text.is_char_boundary(to) {
            to += 1;
        }
        let cited = index % 4 == 0;
        let start = if cited {
            json!({"type": "text", "text": "", "citations": []})
        } else {
            json!({"type": "text", "text": ""})
        };
        events.push(json!({"type": "content_block_start", "index": index, "content_block": start}));
        text_at.push(answered);
        if cited {
            events.push(json!({"type": "content_block_delta", "index": index, "delta": {"type": "citations_delta",
                "citation": {"type": "web_search_result_location", "url": url(1 + index % 200),
                "title": "Document", "cited_text": "An excerpt that supports a statement."}}}));
            text_at.push(answered);
        }
        let mut at = from;
        while at < to {
            let mut end = (at + 20).min(to);
            while !text.is_char_boundary(end) {
                end += 1;
            }
            events.push(json!({"type": "content_block_delta", "index": index,
                "delta": {"type": "text_delta", "text": &text[at..end]}}));
            answered += end - at;
            text_at.push(answered);
            at = end;
        }
        events.push(json!({"type": "content_block_stop", "index": index}));
        text_at.push(answered);
        from = to;
        index += 1;
    }
    events.push(json!({"type": "message_stop"}));
    text_at.push(answered);
    let mut stream = String::new();
    let mut ends = Vec::new();
    for e in &events {
        let ty = e["type"].as_str().unwrap_or("");
        stream.push_str(&format!("event: {ty}\ndata: {e}\n\n"));
        ends.push(stream.len());
    }
    // Stream byte → answer bytes before it, per event end.
    let mut points = Vec::new();
    for kb in [4usize, 40, 160] {
        let k = text_at
            .iter()
            .position(|&t| t >= kb * 1024)
            .unwrap_or(text_at.len() - 1);
        points.push(ends[k]);
    }
    (stream, points, ends)
}

/// Times 4-character appends of an Anthropic stream at 4 KB, 40 KB and 160 KB of its
/// 200 KB answer.
fn provider_stream_appends() {
    let text = answer(200 * 1024);
    let (stream, points, ends) = anthropic_stream(&text);
    let options = Options {
        format: FormatChoice::Given(Format::Anthropic),
        ..Options::default()
    };
    let Ok(mut parser) = StreamParser::new(Data::Text(""), &options) else {
        println!("provider stream: the parser refused the stream");
        return;
    };
    let mut fed = 0usize;
    let mut first: Option<Duration> = None;
    for (at_kb, at) in [4usize, 40, 160].into_iter().zip(points) {
        // Untimed: feed up to the point in 4 KB pieces.
        while fed < at {
            let mut end = (fed + 4096).min(at);
            while !stream.is_char_boundary(end) {
                end += 1;
            }
            parser.push(&stream[fed..end]);
            fed = end;
        }
        let mut times = Vec::new();
        // The appends that complete an event (the others only wait for the rest of it).
        let mut event_times = Vec::new();
        for _ in 0..200 {
            let mut end = (fed + 4).min(stream.len());
            while !stream.is_char_boundary(end) {
                end += 1;
            }
            let t = Instant::now();
            parser.push(&stream[fed..end]);
            black_box(parser.snapshot());
            let took = t.elapsed();
            times.push(took);
            let k = ends.partition_point(|&e| e <= fed);
            if ends.get(k).is_some_and(|&e| e <= end) {
                event_times.push(took);
            }
            fed = end;
        }
        times.sort();
        event_times.sort();
        let median = times[times.len() / 2];
        let event_median = event_times
            .get(event_times.len() / 2)
            .copied()
            .unwrap_or_default();
        let m0 = *first.get_or_insert(event_median);
        println!(
            "provider stream (anthropic) append at {at_kb:>3} KB of answer: median {:>8.3} ms over 200 appends; the {} that complete an event: median {:>8.3} ms ({:.1}x the 4 KB one)",
            median.as_secs_f64() * 1e3,
            event_times.len(),
            event_median.as_secs_f64() * 1e3,
            event_median.as_secs_f64() / m0.as_secs_f64().max(1e-9)
        );
    }
    parser.push(&stream[fed..]);
    let done = parser.finish();
    println!(
        "provider stream: {} bytes of events, {} bytes of answer, {} citations, {} sources when finished",
        stream.len(),
        done.text.len(),
        done.citations.len(),
        done.sources.len()
    );
}
