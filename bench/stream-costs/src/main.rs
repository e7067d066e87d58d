//! What one streamed append costs in each step of today's path, natively (no wasm, no
//! DOM), after 4 KB, 40 KB and ~200 KB of the bench's 200 KB answer (200 sources, 1,500
//! markers). The steps are the ones `view.append` runs (src/js.rs, src/web/mod.rs):
//! the stream parser's `push` (blocks committed, the open tail parsed and resolved, the
//! snapshot assembled), the snapshot clone handed to the component, the data
//! comparison, the marker signature, the two `sources_key` memos (panel and footnotes),
//! the view text copy, the marker set and the open block's HTML. The private helpers
//! of src/web are re-implemented here line for line (they are a few lines each); the
//! rest calls citekit itself. Native code runs roughly 1.5 to 3 times faster than the
//! same code in wasm: read the ratios between sizes, not the absolute values.
//!
//! Usage: bash bench/stream-costs/run.sh [--chunks 200]

use citekit::core::formats::Data;
use citekit::core::model::CitedAnswer;
use citekit::core::stream::StreamParser;
use citekit::render::{self, RenderOptions};
use citekit::Options;
use std::hint::black_box;
use std::time::Instant;

type SourcesKey = (Vec<Vec<String>>, Vec<(String, u32, u32, bool)>, bool, usize);

// As src/web/mod.rs `marker_sig`.
fn marker_sig(a: &CitedAnswer) -> Vec<(u32, bool)> {
    a.citations
        .iter()
        .map(|c| {
            (
                c.sources
                    .first()
                    .and_then(|id| a.source(id))
                    .map_or(0, |s| s.number),
                c.pending.is_empty(),
            )
        })
        .collect()
}

// As src/web/mod.rs `sources_key`.
fn sources_key(a: &CitedAnswer) -> SourcesKey {
    (
        a.citations.iter().map(|c| c.sources.clone()).collect(),
        a.sources
            .iter()
            .map(|s| (s.id.clone(), s.number, s.cite_count, s.cited))
            .collect(),
        a.show_citations,
        a.text.len().min(48),
    )
}

#[derive(Default, Clone, Copy)]
struct Step {
    push: f64,
    clone: f64,
    drop_old: f64,
    data_eq: f64,
    tail_count: f64,
    render_opts: f64,
    sig: f64,
    keys: f64,
    view_text: f64,
    marker_set: f64,
    render_tail: f64,
    panel: f64,
    footnotes: f64,
    key_changes: usize,
}

fn us(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e6
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args.get(1).cloned().unwrap_or("target/bench-stream".into());
    let chunks: usize = args
        .iter()
        .position(|a| a == "--chunks")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let answer = std::fs::read_to_string(format!("{dir}/answer-200.md")).expect("answer-200.md");
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/data-200.json")).unwrap())
            .unwrap();
    let data_copy = data.clone();
    let opts = Options::default();
    // The answer in 4-character chunks (characters, as the browser's UTF-16 slices
    // are, give or take surrogate pairs).
    let mut cuts: Vec<usize> = answer.char_indices().map(|(i, _)| i).step_by(4).collect();
    cuts.push(answer.len());
    let at_bytes = [4_000usize, 40_000, answer.len() - chunks * 4 - 64];
    println!(
        "stream-costs: the 200 KB answer ({} bytes), {chunks} appends of 4 characters measured after each point; microseconds per append, native",
        answer.len()
    );
    println!(
        "{:>9} {:>6} {:>5} {:>8} {:>7} {:>7} {:>7} {:>7} {:>7} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}  (panel+fn: per rebuild, rebuilds in the window)",
        "after",
        "cites",
        "srcs",
        "push",
        "clone",
        "drop",
        "dataEq",
        "tailCnt",
        "rOpts",
        "sig",
        "keys x2",
        "viewTxt",
        "markSet",
        "tailHtml",
        "panel+fn"
    );
    for &at in &at_bytes {
        let mut p = StreamParser::new(Data::Json(&data), &opts).expect("stream parser");
        // Fed up to `at` in 4 KB pieces (the state does not depend on the chunking).
        let start = cuts.iter().position(|&c| c >= at).unwrap();
        let mut pos = 0;
        while pos < cuts[start] {
            let next = (pos + 4096).min(cuts[start]);
            let next = (next..=cuts[start])
                .find(|&i| answer.is_char_boundary(i))
                .unwrap();
            p.push(&answer[pos..next]);
            pos = next;
        }
        let r = RenderOptions::from_options(&opts, "cite");
        let mut prev: CitedAnswer = p.snapshot().clone();
        let mut prev_key = sources_key(&prev);
        let mut sum = Step::default();
        let n = chunks.min(cuts.len() - start - 1);
        for k in start..start + n {
            let chunk = &answer[cuts[k]..cuts[k + 1]];
            let t = Instant::now();
            p.push(chunk);
            sum.push += us(t);
            let t = Instant::now();
            let snap = p.snapshot().clone();
            sum.clone += us(t);
            let stable = p.stable_len();
            let t = Instant::now();
            black_box(data == data_copy);
            sum.data_eq += us(t);
            let t = Instant::now();
            black_box(snap.citations.iter().filter(|c| c.end >= stable).count());
            sum.tail_count += us(t);
            let t = Instant::now();
            black_box(RenderOptions::from_options(&opts, "cite") == r);
            sum.render_opts += us(t);
            let t = Instant::now();
            black_box(marker_sig(&snap));
            sum.sig += us(t);
            let t = Instant::now();
            let key = sources_key(&snap);
            let key2 = sources_key(&snap);
            let changed = key != prev_key;
            black_box(key2 == prev_key);
            sum.keys += us(t);
            let t = Instant::now();
            let view = snap.text[..].to_string();
            sum.view_text += us(t);
            let t = Instant::now();
            let markers = render::MarkerSet::from(&snap, &r, stable);
            sum.marker_set += us(t);
            let t = Instant::now();
            black_box(render::markdown::render_range(
                &view,
                stable.min(view.len())..view.len(),
                &markers,
                false,
            ));
            sum.render_tail += us(t);
            if changed {
                sum.key_changes += 1;
                let t = Instant::now();
                black_box(render::panel_html(&snap, &r));
                sum.panel += us(t);
                let t = Instant::now();
                black_box(render::footnotes_html(&snap, &r));
                sum.footnotes += us(t);
            }
            prev_key = key;
            let t = Instant::now();
            drop(std::mem::replace(&mut prev, snap));
            sum.drop_old += us(t);
        }
        let f = n as f64;
        let rebuild = if sum.key_changes > 0 {
            (sum.panel + sum.footnotes) / sum.key_changes as f64
        } else {
            0.0
        };
        println!(
            "{:>7} B {:>6} {:>5} {:>8.1} {:>7.1} {:>7.1} {:>7.1} {:>7.1} {:>7.1} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>8.1}  ({} of {n})",
            cuts[start],
            prev.citations.len(),
            prev.sources.len(),
            sum.push / f,
            sum.clone / f,
            sum.drop_old / f,
            sum.data_eq / f,
            sum.tail_count / f,
            sum.render_opts / f,
            sum.sig / f,
            sum.keys / f,
            sum.view_text / f,
            sum.marker_set / f,
            sum.render_tail / f,
            rebuild,
            sum.key_changes,
        );
    }
}
