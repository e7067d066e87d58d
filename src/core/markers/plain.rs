//! [`TextSyntax::Plain`](super::TextSyntax::Plain): no markdown structure, so nothing
//! is protected; the text is read in paragraphs (lines up to a blank one), and GFM
//! footnote definitions are read as in markdown: `[^label]: text` at the start of a
//! line (indented at most three columns), with the lines after it that are indented
//! four columns, blank, or continue its paragraph.

use super::runs::{scan_runs, RunKind};
use super::{Ctx, FootDef};
use crate::core::commonmark::lines::{footnote_def, line_end, Cursor};
use std::ops::Range;

/// Reads the paragraphs and footnote definitions of the whole text, then its markers.
pub(super) fn run(ctx: &mut Ctx<'_>) {
    let b = ctx.b;
    let mut runs: Vec<(Range<usize>, RunKind)> = Vec::new();
    let mut para: Option<Range<usize>> = None;
    let mut foot: Option<FootDef> = None;
    let close_para = |para: &mut Option<Range<usize>>, runs: &mut Vec<_>| {
        if let Some(r) = para.take() {
            runs.push((r, RunKind::Plain));
        }
    };
    let mut ls = 0;
    while ls < b.len() {
        let (le, next) = line_end(b, ls);
        let mut c = Cursor::new(b, ls, le);
        if c.blank() {
            close_para(&mut para, &mut runs);
            ls = next;
            continue;
        }
        let indent = c.indent();
        let mut d = c;
        d.skip(3);
        if let Some((label, colon)) = (indent <= 3).then(|| footnote_def(&d)).flatten() {
            close_para(&mut para, &mut runs);
            ctx.foot.extend(foot.take());
            let s = d.pos;
            d.advance(colon + 1 - s);
            d.skip(usize::MAX);
            foot = Some(FootDef {
                start: ls,
                syntax: s..colon + 1,
                body_start: d.pos,
                last_end: le,
                top: true,
                label,
            });
            if !d.blank() {
                para = Some(d.pos..le);
            }
        } else if let Some(p) = para.as_mut() {
            // The paragraph goes on (inside a definition, lazily).
            p.end = le;
            if let Some(f) = foot.as_mut() {
                f.last_end = le;
            }
        } else {
            if indent >= 4 {
                if let Some(f) = foot.as_mut() {
                    f.last_end = le;
                }
            } else {
                ctx.foot.extend(foot.take());
            }
            c.skip(usize::MAX);
            para = Some(c.pos..le);
        }
        ls = next;
    }
    close_para(&mut para, &mut runs);
    ctx.foot.extend(foot.take());
    scan_runs(ctx, &runs, &mut []);
}
