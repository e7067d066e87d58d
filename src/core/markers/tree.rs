//! [`TextSyntax::Markdown`](super::TextSyntax::Markdown): where markers may stand, read
//! from the events of `core::commonmark`, the parser the renderer draws from, so that
//! the scanner finds markers exactly where the answer shows prose.
//!
//! The events give what is protected (code blocks and spans, links and images with
//! their text and destination, autolinks, inline HTML), the runs of inline content
//! (a paragraph, heading or table cell; an HTML block's lines, between whose tags
//! markers are read too) and the footnote definitions; the parse gives the reference
//! definitions, which no event covers. `runs` then reads the marker grammar in each
//! run, outside what is protected. Two rules are the scanner's own, for what an LLM
//! answer means by them (docs/markers.md): a reference link whose text is itself a
//! marker (`[1][2]`, `[1]` with `[1]: url` defined) is markers, and a paragraph line
//! that starts with `[label]:` (a sources line `[1]: Smith et al., 2020`) stays text.

use super::runs::{Prot, ProtKind, RunKind};
use super::{Ctx, FootDef};
use crate::core::commonmark::{parse_document, Event, Tag, TagEnd};
use crate::core::limits::{MAX_BLOCK_DEPTH, MAX_BLOCK_DEPTH_NAME};
use crate::core::model::Diagnostic;
use std::ops::Range;

/// What holds the inline content being read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Leaf {
    /// A paragraph (also the text of a tight list item).
    Para,
    /// A heading or a table cell.
    Other,
}

/// Reads the text's structure from the parser and scans its runs.
pub(super) fn run(ctx: &mut Ctx<'_>) {
    let text = ctx.text;
    let b = ctx.b;
    let doc = parse_document(text);
    if let Some(at) = doc.too_deep {
        ctx.diags.push(
            Diagnostic::warning(
                "limit-exceeded",
                format!(
                    "markdown blocks nested deeper than `{MAX_BLOCK_DEPTH_NAME}` ({MAX_BLOCK_DEPTH}) are read as text"
                ),
            )
            .at(at, at + 1),
        );
    }
    let mut prot: Vec<Prot> = doc
        .definitions
        .iter()
        .map(|r| Prot::new(r.clone(), ProtKind::Other))
        .collect();
    let mut runs: Vec<(Range<usize>, RunKind)> = Vec::new();
    // The inline content being read: its range.
    let mut group: Option<Range<usize>> = None;
    let mut leaf = Leaf::Para;
    // Open code blocks and HTML blocks (their content is no inline text), and open
    // containers (a footnote definition outside all of them is at the top level).
    let mut in_code = 0usize;
    let mut in_html = 0usize;
    let mut containers = 0usize;
    // The open footnote definition, if any (they do not nest).
    let mut foot: Option<FootDef> = None;

    // The protected range of the indented code block being read, which ends with its
    // last line (its trailing blank lines are not its own).
    let mut indented: Option<usize> = None;

    for (ev, r) in &doc.events {
        if let Some(f) = foot.as_mut() {
            if !matches!(ev, Event::End(TagEnd::FootnoteDefinition)) {
                f.last_end = f.last_end.max(trim_line_end(b, r.end));
            }
        }
        let inline = match ev {
            Event::Start(t) => matches!(
                t,
                Tag::Emphasis
                    | Tag::Strong
                    | Tag::Strikethrough
                    | Tag::Link { .. }
                    | Tag::Image { .. }
            ),
            Event::End(t) => matches!(
                t,
                TagEnd::Emphasis
                    | TagEnd::Strong
                    | TagEnd::Strikethrough
                    | TagEnd::Link
                    | TagEnd::Image
            ),
            Event::Text(_)
            | Event::Code(_)
            | Event::InlineHtml(_)
            | Event::FootnoteReference(_)
            | Event::SoftBreak
            | Event::HardBreak => true,
            Event::Html(_) | Event::Rule | Event::TaskListMarker(_) => false,
        };
        if in_code > 0 || in_html > 0 {
            if let (Some(k), Event::Text(_)) = (indented, ev) {
                prot[k].range.end = prot[k].range.end.max(trim_line_end(b, r.end));
            }
            match ev {
                Event::Start(Tag::CodeBlock(_)) => in_code += 1,
                Event::End(TagEnd::CodeBlock) => {
                    in_code -= 1;
                    indented = None;
                }
                Event::Start(Tag::HtmlBlock) => in_html += 1,
                Event::End(TagEnd::HtmlBlock) => in_html -= 1,
                _ => {}
            }
            continue;
        }
        if inline {
            // A paragraph's line starts with its content, and after each line break.
            let line = match ev {
                Event::SoftBreak | Event::HardBreak => Some(r.end),
                _ if group.is_none() => Some(r.start),
                _ => None,
            };
            if let Some(at) = line.filter(|_| leaf == Leaf::Para) {
                if let Some(end) = sources_line(b, at) {
                    prot.push(Prot::new(at..end, ProtKind::Other));
                }
            }
            let g = group.get_or_insert(r.start..r.end);
            g.end = g.end.max(r.end);
            match ev {
                Event::Code(_) => prot.push(Prot::new(r.clone(), ProtKind::Other)),
                Event::InlineHtml(_) => prot.push(Prot::new(r.clone(), ProtKind::Html)),
                Event::Start(Tag::Image { .. }) => prot.push(Prot::new(r.clone(), ProtKind::Other)),
                Event::Start(Tag::Link { .. }) => {
                    let written = &b[r.clone()];
                    let kind = if written.first() == Some(&b'<') {
                        ProtKind::Other
                    } else if written.last() == Some(&b')') {
                        ProtKind::InlineLink
                    } else {
                        ProtKind::ReferenceLink
                    };
                    prot.push(Prot::new(r.clone(), kind));
                }
                _ => {}
            }
            continue;
        }
        end_group(&mut group, &mut runs);
        match ev {
            Event::Start(Tag::CodeBlock(fenced)) => {
                in_code += 1;
                // A fenced block from its opening fence to its closing one; an indented
                // one to the end of its last line, as its text events come.
                if fenced.is_some() {
                    prot.push(Prot::new(r.start..trim_line_end(b, r.end), ProtKind::Other));
                } else {
                    indented = Some(prot.len());
                    prot.push(Prot::new(r.start..r.start, ProtKind::Other));
                }
            }
            Event::Start(Tag::HtmlBlock) => {
                in_html += 1;
                let end = trim_line_end(b, r.end);
                if r.start < end {
                    runs.push((r.start..end, RunKind::HtmlBlock));
                }
            }
            Event::Start(Tag::Heading(_) | Tag::TableCell) => leaf = Leaf::Other,
            Event::End(TagEnd::Heading(_) | TagEnd::TableCell) => leaf = Leaf::Para,
            Event::Start(Tag::BlockQuote | Tag::List(_) | Tag::Item) => containers += 1,
            Event::End(TagEnd::BlockQuote | TagEnd::List(_) | TagEnd::Item) => {
                containers = containers.saturating_sub(1)
            }
            Event::Start(Tag::FootnoteDefinition(_)) => {
                if let Some(f) = footnote(b, r.clone(), containers == 0) {
                    foot = Some(f);
                }
            }
            Event::End(TagEnd::FootnoteDefinition) => {
                if let Some(f) = foot.take() {
                    ctx.foot.push(f);
                }
            }
            _ => {}
        }
    }
    end_group(&mut group, &mut runs);
    if let Some(f) = foot.take() {
        ctx.foot.push(f);
    }
    // By start, the outer of two ranges that start together first (a sources line
    // before the link at its start): a marker wins over what is protected only where
    // nothing holds both.
    crate::core::sort::sort_by_key(&mut prot, |p| {
        let (start, end) = (
            crate::core::sort::pos(p.range.start),
            crate::core::sort::pos(p.range.end),
        );
        (start, u64::MAX - end)
    });
    super::runs::scan_runs(ctx, &runs, &mut prot);
    for p in prot {
        if p.live {
            ctx.protect(p.range.start, p.range.end);
        }
    }
}

fn end_group(group: &mut Option<Range<usize>>, runs: &mut Vec<(Range<usize>, RunKind)>) {
    if let Some(r) = group.take() {
        runs.push((r, RunKind::Prose));
    }
}

/// `end` moved back before the line break it follows, if one.
fn trim_line_end(b: &[u8], mut end: usize) -> usize {
    if end > 0 && b.get(end - 1) == Some(&b'\n') {
        end -= 1;
    }
    if end > 0 && b.get(end - 1) == Some(&b'\r') {
        end -= 1;
    }
    end
}

/// A footnote definition starting with its `[^label]:` at `r.start`.
fn footnote(b: &[u8], r: Range<usize>, top: bool) -> Option<FootDef> {
    let s = r.start;
    let close = s + 2 + crate::core::str_ops::memchr(b']', b.get(s + 2..r.end)?)?;
    let colon = close + 1;
    let mut body = colon + 1;
    while body < b.len() && matches!(b[body], b' ' | b'\t') {
        body += 1;
    }
    let le = crate::core::str_ops::memchr2(b'\n', b'\r', &b[body..]).map_or(b.len(), |k| body + k);
    let line_start = b[..s]
        .iter()
        .rposition(|&c| c == b'\n' || c == b'\r')
        .map_or(0, |k| k + 1);
    Some(FootDef {
        start: if top { line_start } else { s },
        syntax: s..colon + 1,
        body_start: body.min(le),
        last_end: le,
        top,
        label: s + 2..close,
    })
}

/// A paragraph line starting at `at` with `[label]:` (a reference definition inside a
/// paragraph, which defines nothing, or a sources line such as `[1]: Smith et al.,
/// 2020`, which is no definition): the end of the line, which stays text.
fn sources_line(b: &[u8], mut at: usize) -> Option<usize> {
    while at < b.len() && matches!(b[at], b' ' | b'\t') {
        at += 1;
    }
    // (`\[1]:` is an escaped bracket: its event starts after the backslash.)
    if b.get(at) != Some(&b'[') || b.get(at + 1) == Some(&b'^') || at > 0 && b[at - 1] == b'\\' {
        return None;
    }
    let lim = b.len().min(at + 1001);
    let mut j = at + 1;
    while j < lim {
        match b[j] {
            b'\\' => j += 2,
            b'[' | b'\n' | b'\r' => return None,
            b']' => break,
            _ => j += 1,
        }
    }
    if j >= lim || b.get(j + 1) != Some(&b':') || b[at + 1..j].iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    Some(crate::core::str_ops::memchr2(b'\n', b'\r', &b[j..]).map_or(b.len(), |k| j + k))
}
