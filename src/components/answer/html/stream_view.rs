//! The text of a streaming answer as it is shown: what the renderer is given while the
//! stream runs, so that syntax still arriving never flashes as literal characters.

use super::markdown::render_range_after;
use super::markers::MarkerSet;
use super::Block;
use crate::core::commonmark::{self, RefDef};
use crate::core::model::Answer;
use crate::core::str_ops;
use crate::render::RenderOptions;
use std::ops::Range;

/// The reference definitions (`[label]: url`, and footnote definitions) in a streaming
/// answer's text before the blocks a view renders again, so that a later block renders
/// `[text][label]` as a render of the whole answer does
/// ([`render_range_after`]). The text before the
/// point a view renders again from no longer changes while the stream runs: each part
/// of it is read once, as it falls behind that point (the parser's block pass, and only
/// for a part that holds a `]:`), not on every chunk.
///
/// A definition that comes after a block already shown does not change that block
/// while streaming (the view renders only its last blocks again); when the stream
/// ends, a view renders every block again if the answer holds a `]:` (the answer's
/// `dom::blocks::show_answer`), and shows what a render of the whole answer shows.
#[derive(Debug, Clone, Default)]
pub struct StreamDefs {
    /// Runs of definitions, each sorted by label (a label once), in the order of the
    /// text: a label's definition is the one in the first run that has it. A new run is
    /// merged into the one before it while that one is not over twice as long, so there
    /// are few runs (about the logarithm of the definitions) and a definition is moved a
    /// few times, not once for every definition that comes after it.
    runs: Vec<Vec<RefDef>>,
    /// Bytes of the text read.
    read: usize,
}

impl StreamDefs {
    /// The definitions in `text[..start]`, `start` being where a streaming view renders
    /// its blocks again from (the text before it no longer changes). Reads only the text
    /// after what the calls before read; `start` 0 (everything rendered again: a new
    /// text) starts over. When `start` went back (the text after it is read again),
    /// definitions after `start` are in the runs too: the render reads them the same.
    pub fn before(&mut self, text: &str, start: usize) -> &[Vec<RefDef>] {
        if start == 0 {
            self.clear();
        }
        if start > self.read {
            let part = text.get(self.read..start).or_else(|| {
                self.clear();
                text.get(..start)
            });
            if let Some(part) = part {
                if crate::core::str_ops::find(part.as_bytes(), b"]:").is_some() {
                    self.add(commonmark::definitions(part));
                }
                self.read = start;
            }
        }
        &self.runs
    }

    /// Adds the definitions of the next part of the text (sorted by label).
    fn add(&mut self, run: Vec<RefDef>) {
        if run.is_empty() {
            return;
        }
        self.runs.push(run);
        while let [.., a, b] = &self.runs[..] {
            if a.len() > 2 * b.len() {
                break;
            }
            let later = self.runs.pop().unwrap_or_default();
            if let Some(a) = self.runs.last_mut() {
                // The earlier run's definitions first: the stable sort keeps them.
                a.extend(later);
                commonmark::sort_definitions(a);
            }
        }
    }

    /// Forgets what was read (the view showed a text rendered otherwise).
    pub fn clear(&mut self) {
        self.runs.clear();
        self.read = 0;
    }
}

/// Where a streaming view renders again after a chunk: how many of the `shown` blocks
/// (each by its byte range, in order) stay as they are, and the byte the render starts
/// from. The last block shown can still change, and so can every block from the
/// stream's `stable` point on.
pub fn tail_start<T>(
    shown: &[T],
    range: impl Fn(&T) -> &Range<usize>,
    stable: usize,
) -> (usize, usize) {
    let from = shown.last().map_or(0, |b| range(b).start).min(stable);
    let k = shown.partition_point(|b| range(b).end <= from);
    let start = shown.get(k).map_or(from, |b| range(b).start.min(from));
    (k, start)
}

/// The blocks of a streaming answer from `start` ([`tail_start`]), its text there as
/// shown (`view_text`, from [`stream_view_text`]), after the reference definitions of
/// the text before `start`.
pub fn render_tail(
    a: &Answer,
    r: &RenderOptions,
    view_text: &str,
    start: usize,
    defs: &mut StreamDefs,
) -> Vec<Block> {
    let markers = MarkerSet::from(a, r, start);
    let whole = view_text.len() >= a.text.len();
    let before = defs.before(&a.text, start);
    render_range_after(view_text, start..view_text.len(), &markers, whole, before)
}

/// The answer text as shown while streaming: a table line still arriving is held
/// back, and an unclosed `**`, `` ` `` or link at the end does not flash as literal
/// syntax (the emphasis is closed, the link is shown once it is complete).
pub fn stream_view_text(text: &str, block_start: usize) -> String {
    // Only the open block (after the last block boundary) is still arriving: look from
    // its start, wherever the render starts, so that a chunk read as many at once shows
    // what the same text shows when it arrives in small chunks.
    let mut block_start = block_start.min(text.len());
    while let Some(cut) = crate::core::stream::block_boundary(&text[block_start..]) {
        if cut == 0 {
            break;
        }
        block_start += cut;
    }
    let tail = &text[block_start..];
    let mut cut = text.len();
    // A line that is still arriving and looks like a table row.
    let last_line_start = str_ops::rfind_str(tail, "\n").map_or(0, |i| i + 1);
    let last_line = &tail[last_line_start..];
    if last_line.trim_start().starts_with('|') {
        cut = block_start + last_line_start;
    }
    // A table header with no delimiter row yet.
    let shown = &text[block_start.min(cut)..cut];
    let lines: Vec<&str> = shown.lines().filter(|l| !l.trim().is_empty()).collect();
    if let Some(last) = lines.last() {
        if last.trim_start().starts_with('|') && !str_ops::has(shown, "---") {
            // `last` is a line of `shown`: where it starts, without searching for it.
            cut = block_start + (last.as_ptr() as usize - shown.as_ptr() as usize);
        }
    }
    // An unfinished link `[text](http...`, as the stream parser holds it back from its
    // markers.
    let shown = &text[block_start.min(cut)..cut];
    if let Some(lb) = crate::core::stream::unclosed_link_start(shown) {
        cut = block_start + lb;
    }
    let shown = &text[block_start.min(cut)..cut];
    let fenced = str_ops::has(shown, "```") || str_ops::has(shown, "~~~");
    if fenced {
        // A closing fence still arriving (one or two of its backticks or tildes on the
        // last line) would show inside the code: left out until it is whole.
        let line = &shown.as_bytes()[str_ops::rfind_str(shown, "\n").map_or(0, |i| i + 1)..];
        let indent = line.iter().take_while(|&&b| b == b' ').count();
        let run = &line[indent..];
        if indent < 4 && matches!(run, b"`" | b"``" | b"~" | b"~~") && shown.len() > line.len() {
            cut -= line.len();
        }
    } else {
        // Delimiters at the very end that open nothing yet (`the **`, `a *`, `` a ` ``)
        // would show as literal text or an empty span: left out until their text
        // comes. A half-arrived closer (`**bold*`, `~~del~`) likewise.
        let run = shown
            .bytes()
            .rev()
            .take_while(|b| matches!(b, b'*' | b'_' | b'~' | b'`'))
            .count();
        let body = &shown[..shown.len() - run];
        if run > 0 {
            let opens = body
                .as_bytes()
                .last()
                .is_none_or(|b| b.is_ascii_whitespace());
            let closes_half =
                (str_ops::offsets(body, "**").count() % 2 == 1 && shown.ends_with('*') && run == 1)
                    || (str_ops::offsets(body, "~~").count() % 2 == 1
                        && shown.ends_with('~')
                        && run == 1);
            if opens || closes_half {
                cut -= run;
            }
        }
    }
    let mut out = text[..cut].to_string();
    let shown = &text[block_start.min(cut)..cut];
    if !fenced {
        // Closed as the stream parser reads it (as code, so a `[1]` there is text).
        if let Some(run) = crate::core::stream::unclosed_code_span(shown) {
            if out.ends_with('`') {
                out.push(' ');
            }
            out.push_str(&"`".repeat(run));
        }
        if str_ops::offsets(shown, "**").count() % 2 == 1 {
            out.push_str("**");
        }
        if str_ops::offsets(shown, "~~").count() % 2 == 1 {
            out.push_str("~~");
        }
    }
    out
}

/// Where a block's HTML `old` becomes `new` only in the text of its last text node
/// (a streamed chunk adding words to the open paragraph, item or code block): that
/// node's old end and its new end, so a view can change the node's data in place
/// instead of parsing HTML. It is so when the differing parts hold no markup (`<`,
/// `>`, `&`), the common start neither ends a tag (the new text would be a node of its
/// own) nor stops inside a character reference, and the common end is only closing
/// tags.
pub fn text_growth<'a>(old: &'a str, new: &'a str) -> Option<TextGrowth<'a>> {
    let (o, n) = (old.as_bytes(), new.as_bytes());
    let mut pre = o.iter().zip(n).take_while(|(a, b)| a == b).count();
    // Back to a character boundary of both.
    while pre > 0 && !(old.is_char_boundary(pre) && new.is_char_boundary(pre)) {
        pre -= 1;
    }
    let max_suf = o.len().min(n.len()) - pre;
    let mut suf = o
        .iter()
        .rev()
        .zip(n.iter().rev())
        .take(max_suf)
        .take_while(|(a, b)| a == b)
        .count();
    // The common end starts at a closing tag.
    while suf > 0 && !o[o.len() - suf..].starts_with(b"</") {
        suf -= 1;
    }
    if suf == 0 || pre == 0 || o[pre - 1] == b'>' {
        return None;
    }
    // Not inside a character reference (`&am|p;`).
    if let Some(amp) = str_ops::rfind_str(&old[..pre], "&") {
        if !crate::core::str_ops::has_char(&old[amp..pre], ';') {
            return None;
        }
    }
    let old_mid = &old[pre..o.len() - suf];
    let new_mid = &new[pre..n.len() - suf];
    let plain = |s: &str| !s.bytes().any(|b| matches!(b, b'<' | b'>' | b'&'));
    if !plain(old_mid) || !plain(new_mid) {
        return None;
    }
    let closing = closing_tokens(&old[o.len() - suf..])?;
    Some(TextGrowth {
        old_end: old_mid,
        new_end: new_mid,
        closing,
    })
}

/// What follows the changed text in a block's HTML, in order: closing tags (their
/// names) and the whitespace text between them (`</p>\n`).
#[derive(Debug, PartialEq, Eq)]
pub enum Closing<'a> {
    /// `</name>`.
    Tag(&'a str),
    /// Whitespace between or after closing tags.
    Space(&'a str),
}

/// See [`text_growth`].
#[derive(Debug, PartialEq, Eq)]
pub struct TextGrowth<'a> {
    /// The end of the last text node before the chunk (may be empty).
    pub old_end: &'a str,
    /// What it is now.
    pub new_end: &'a str,
    /// What follows it.
    pub closing: Vec<Closing<'a>>,
}

/// `s` as closing tags and whitespace only, or `None`.
fn closing_tokens(mut s: &str) -> Option<Vec<Closing<'_>>> {
    let mut out = Vec::new();
    while !s.is_empty() {
        if let Some(r) = s.strip_prefix("</") {
            let e = str_ops::find_str(r, ">")?;
            let name = &r[..e];
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric()) {
                return None;
            }
            out.push(Closing::Tag(name));
            s = &r[e + 1..];
        } else {
            let ws = s.len() - s.trim_start_matches([' ', '\n', '\t', '\r']).len();
            if ws == 0 {
                return None;
            }
            out.push(Closing::Space(&s[..ws]));
            s = &s[ws..];
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::stream_view_text;

    #[test]
    fn a_table_row_still_arriving_is_held_back() {
        let t = "Intro.\n\n| a | b |\n|---|---|\n| 1 | 2";
        assert_eq!(stream_view_text(t, 8), "Intro.\n\n| a | b |\n|---|---|\n");
    }

    #[test]
    fn a_table_header_without_its_delimiter_row_is_held_back() {
        let t = "Intro.\n\n| a | b |\n";
        assert_eq!(stream_view_text(t, 8), "Intro.\n\n");
    }

    #[test]
    fn an_unfinished_link_is_held_back_from_its_label() {
        assert_eq!(stream_view_text("See [docs](https://ex", 0), "See ");
        assert_eq!(
            stream_view_text("See [docs](https://ex.com) now", 0),
            "See [docs](https://ex.com) now"
        );
    }

    /// The view had an "unfinished link" rule of its own: from the last `](` without a
    /// `)` back to the nearest `[`. A nested label (`[see [3]](ht`) then showed `[see `
    /// as literal text until the link closed, and a `](` that no `)` follows on its
    /// line (`[a](b c`) hid the rest of its paragraph. It takes the stream parser's
    /// hold-back rule now, so the view and the markers hold back the same text.
    #[test]
    fn an_unfinished_link_is_held_back_as_the_stream_parser_holds_it() {
        assert_eq!(stream_view_text("x [see [3]](https://ex", 0), "x ");
        assert_eq!(
            stream_view_text("[a](b c\nmore text", 0),
            "[a](b c\nmore text"
        );
        assert_eq!(stream_view_text("[1]([1](https://u", 0), "");
        assert_eq!(stream_view_text("[1]([1](https://u)", 0), "");
        assert_eq!(
            stream_view_text("[1]([1](https://u))", 0),
            "[1]([1](https://u))"
        );
    }

    #[test]
    fn only_the_open_block_is_read_wherever_the_render_starts() {
        // A fence in an earlier block does not stop the open block's code span from
        // being closed (as it is when the render starts at the open block).
        let t = "```js\nconst a = 1;\n```\n\nInline `x";
        assert_eq!(stream_view_text(t, 0), stream_view_text(t, 24));
        assert!(stream_view_text(t, 0).ends_with("`x`"));
    }

    #[test]
    fn unclosed_emphasis_and_code_are_closed() {
        assert_eq!(stream_view_text("a **bold", 0), "a **bold**");
        assert_eq!(stream_view_text("a `code [1]", 0), "a `code [1]`");
        assert_eq!(stream_view_text("a ``x", 0), "a ``x``");
    }

    /// A chunk ending in delimiters that open nothing yet (LLM streams send `**` as one
    /// token) shows no `****`, literal `*` or empty code; half a closer waits too.
    #[test]
    fn delimiters_at_the_end_wait_for_their_text() {
        assert_eq!(stream_view_text("Paris is the **", 0), "Paris is the ");
        assert_eq!(stream_view_text("Paris is the *", 0), "Paris is the ");
        assert_eq!(stream_view_text("**", 0), "");
        assert_eq!(stream_view_text("A `", 0), "A ");
        assert_eq!(
            stream_view_text("Paris is the **capital*", 0),
            "Paris is the **capital**"
        );
        assert_eq!(stream_view_text("a ~~del~", 0), "a ~~del~~");
        assert_eq!(stream_view_text("a ~~del", 0), "a ~~del~~");
        // Closed ones and text stay.
        assert_eq!(stream_view_text("a **b**", 0), "a **b**");
        assert_eq!(stream_view_text("a *b*", 0), "a *b*");
        assert_eq!(stream_view_text("2 * 3", 0), "2 * 3");
        // A closing fence arriving.
        assert_eq!(stream_view_text("```js\nx\n`", 0), "```js\nx\n");
        assert_eq!(stream_view_text("```js\nx\n``", 0), "```js\nx\n");
        assert_eq!(stream_view_text("```js\nx\n```", 0), "```js\nx\n```");
        assert_eq!(stream_view_text("```js\nx = `a`", 0), "```js\nx = `a`");
    }

    #[test]
    fn nothing_is_added_inside_a_fence_or_before_the_block() {
        assert_eq!(stream_view_text("```\nx **y `z", 0), "```\nx **y `z");
        // Only the open block (from `block_start`) is looked at.
        assert_eq!(stream_view_text("a **b** `c`\n\nd", 13), "a **b** `c`\n\nd");
    }
}

#[cfg(test)]
mod growth_tests {
    use super::{render_tail, stream_view_text, tail_start, text_growth, Closing, StreamDefs};
    use crate::components::answer::html::markdown::render_range;
    use crate::components::answer::html::markers::MarkerSet;
    use crate::components::answer::html::{answer_blocks, Block};
    use crate::core::formats::Data;
    use crate::core::model::Answer;
    use crate::core::options::Options;
    use crate::core::stream::StreamParser;
    use crate::render::RenderOptions;

    #[test]
    fn text_growth_is_only_the_last_text() {
        let g = |o, n| text_growth(o, n).map(|g| (g.old_end, g.new_end, g.closing.len()));
        assert_eq!(
            g("<p>Paris is</p>\n", "<p>Paris is old</p>\n"),
            Some(("", " old", 2))
        );
        assert_eq!(
            g(
                "<li><p>a <em>b</em> c</p></li>",
                "<li><p>a <em>b</em> cd</p></li>"
            ),
            Some(("", "d", 2))
        );
        // A new text node after an element, a tag or a reference: not this path.
        assert_eq!(
            text_growth("<p><code>x</code></p>", "<p><code>x</code>y</p>"),
            None
        );
        assert_eq!(text_growth("<p>a</p>", "<p>a<sup>1</sup></p>"), None);
        assert_eq!(text_growth("<p>a &am</p>", "<p>a &amp;</p>"), None);
        assert_eq!(text_growth("<p>&lt;</p>", "<p>&gt;</p>"), None);
        assert_eq!(
            text_growth("<p class=\"a\">x</p>", "<p class=\"ab\">x</p>"),
            None
        );
        // Multibyte text.
        assert_eq!(g("<p>結</p>", "<p>結果 🚀</p>"), Some(("", "果 🚀", 1)));
        assert_eq!(
            text_growth(
                "<pre><code>a\n</code></pre>\n",
                "<pre><code>a\nb\n</code></pre>\n"
            )
            .map(|g| g.closing),
            Some(vec![
                Closing::Tag("code"),
                Closing::Tag("pre"),
                Closing::Space("\n")
            ])
        );
    }

    /// Streams a report like `npm run bench:stream`'s in 4-character chunks, rendering
    /// the open block as a view does after each one: most chunks that change the open
    /// block only add text to its last text node.
    #[test]
    fn most_streamed_chunks_only_grow_the_last_text() {
        let words: Vec<&str> = "the model grounds each claim in retrieved sources so that readers can check every statement quickly and trust the answer".split(' ').collect();
        let mut text = String::from("## Findings 🚀 and 結果\n\n");
        for k in 0..120usize {
            for i in 0..(6 + k % 9) {
                text.push_str(words[(k * 7 + i * 3) % words.len()]);
                text.push(' ');
            }
            text.push_str(&format!("[{}]. ", 1 + k % 20));
            match k % 15 {
                4 => text.push_str("\n\n- a list item with `arr[1]` code\n- another one [2]\n\n"),
                9 => text.push_str("\n\n| a | b |\n|---|---|\n| one [3] | two |\n\n"),
                14 => text.push_str("\n\n```js\nconst a = m[2][3];\n```\n\n"),
                _ if k % 5 == 2 => text.push_str("\n\n"),
                _ => {}
            }
        }
        let mut data = serde_json::Map::new();
        for i in 1..=20 {
            data.insert(
                i.to_string(),
                serde_json::json!({"title": format!("Source {i}"), "source": format!("https://s{i}.example/")}),
            );
        }
        let data = serde_json::Value::Object(data);
        let opts = Options::default();
        let mut p = StreamParser::new(Data::Json(&data), &opts).unwrap();
        let r = RenderOptions::default();
        let (mut shown, mut changed, mut grown) = (String::new(), 0usize, 0usize);
        let mut start = 0usize;
        let chunks: Vec<&str> = {
            let idx: Vec<usize> = text
                .char_indices()
                .map(|(i, _)| i)
                .step_by(4)
                .chain([text.len()])
                .collect();
            idx.windows(2).map(|w| &text[w[0]..w[1]]).collect()
        };
        for c in chunks {
            p.push(c);
            let a = p.snapshot();
            let view = stream_view_text(&a.text, start.min(a.text.len()));
            let markers = MarkerSet::from(a, &r, start.min(a.text.len()));
            let blocks = render_range(&view, start.min(view.len())..view.len(), &markers, false);
            let Some(last) = blocks.last() else { continue };
            if blocks.len() > 1 || last.range.start != start {
                // A block completed: the next chunk starts a fresh one.
                start = last.range.start;
                shown = last.html.clone();
                continue;
            }
            if last.html != shown {
                changed += 1;
                if text_growth(&shown, &last.html).is_some() {
                    grown += 1;
                }
                shown = last.html.clone();
            }
        }
        assert!(changed > 1000, "{changed} chunks changed the open block");
        assert!(
            grown * 10 >= changed * 8,
            "{grown} of {changed} chunks only grew the last text"
        );
    }

    /// What a streaming view shows (the answer's `dom::blocks`, without a DOM): `text`
    /// fed to a stream in chunks of `step` bytes; after each, the blocks from the first
    /// that can have changed are rendered again, after the definitions of the blocks
    /// before them
    /// (`render_stream_tail`), and `each` is given the blocks shown and the answer as
    /// the view shows it (its text cut or closed at the end); then the stream finishes
    /// and the blocks are brought to the whole answer as `show_answer` does: all of
    /// them rendered again when the text holds a `]:`, else the tail
    /// (`render_final_tail`). Returns the blocks shown at the end and the answer.
    fn stream_blocks(
        text: &str,
        data: Data<'_>,
        step: usize,
        each: &mut dyn FnMut(&[Block], &Answer),
    ) -> (Vec<Block>, Answer) {
        let r = RenderOptions::default();
        let mut p = StreamParser::new(data, &Options::default()).unwrap();
        let mut old: Vec<Block> = Vec::new();
        let mut defs = StreamDefs::default();
        let mut i = 0;
        while i < text.len() {
            let mut j = (i + step).min(text.len());
            while !text.is_char_boundary(j) {
                j += 1;
            }
            p.push(&text[i..j]);
            i = j;
            let a = p.snapshot();
            let stable = p.stable_len();
            let (k, start) = tail_start(&old, |b| &b.range, stable);
            let view = stream_view_text(&a.text, start);
            let new = render_tail(a, &r, &view, start, &mut defs);
            old.truncate(k);
            old.extend(new);
            let mut shown = a.clone();
            shown.text = view;
            each(&old, &shown);
        }
        let fixed = p.stable_len();
        let a = p.finish().clone();
        if a.text.contains("]:") {
            return (answer_blocks(&a, &r), a);
        }
        let from = old.last().map_or(0, |b| b.range.start).min(fixed);
        let k = old.partition_point(|b| b.range.end <= from);
        let start = old.get(k).map_or(from, |b| b.range.start.min(from));
        let markers = MarkerSet::from(&a, &r, start);
        let new = render_range(&a.text, start..a.text.len(), &markers, true);
        old.truncate(k);
        old.extend(new);
        (old, a)
    }

    fn html(blocks: &[Block]) -> String {
        blocks.iter().map(|b| b.html.as_str()).collect()
    }

    /// While an answer streams, the blocks a view shows are the one-shot render of the
    /// text shown so far: a reference link (full, collapsed or shortcut) or image whose
    /// definition is in an earlier block (at the top level, before a paragraph's text,
    /// or in a quote) is a link in a later block after every chunk, not `[text][label]`.
    /// So is the paragraph after the definitions it starts with (the view renders it
    /// again from its text, after them).
    #[test]
    fn streamed_blocks_use_the_definitions_of_earlier_blocks() {
        let text = "[docs]: https://docs.example/ \"The docs\"\n[Spec  Page]: </spec url>\nIntro with [docs].\n\nA second block.\n\n> [q]: /quoted\n> A quote.\n\nSee [the docs][DOCS], [spec page][], [Spec Page], ![logo][docs], [q] and [none][].\n\n- an item with [the spec][spec page]\n\n| a |\n|---|\n| [docs] |\n\n# Heading [q]\n\n[docs]: https://other.example/\n[late]: /late\nThe end [docs] [late].";
        let r = RenderOptions::default();
        for step in 1..=7 {
            let mut check = |blocks: &[Block], shown: &Answer| {
                assert_eq!(
                    html(blocks),
                    html(&answer_blocks(shown, &r)),
                    "step {step}: {:?}",
                    shown.text
                );
            };
            let (blocks, a) = stream_blocks(text, Data::None, step, &mut check);
            let end = html(&blocks);
            assert_eq!(end, html(&answer_blocks(&a, &r)), "step {step}");
            for used in [
                "[docs]",
                "[the docs]",
                "[spec page]",
                "[Spec Page]",
                "[logo]",
                "[q]",
                "[late]",
            ] {
                assert!(!end.contains(used), "step {step}: {used} in {end}");
            }
            assert!(end.contains("[none][]"), "{end}");
            assert!(!end.contains("other.example"), "{end}");
        }
    }

    /// A definition that arrives after a block is shown does not change that block while
    /// streaming (only the last blocks are rendered again); the blocks after it use it;
    /// when the stream ends every block is as a one-shot render shows it.
    #[test]
    fn a_later_definition_links_earlier_blocks_when_the_stream_ends() {
        let text = "Use [late] here.\n\nA second block.\n\n[late]: https://late.example/\n\nThen [late].\n\nThe end.";
        let r = RenderOptions::default();
        for step in 1..=7 {
            let mut last = String::new();
            let mut check = |blocks: &[Block], _: &Answer| last = html(blocks);
            let (blocks, a) = stream_blocks(text, Data::None, step, &mut check);
            let (first, rest) = last.split_once("</p>").unwrap();
            assert!(first.contains("[late]"), "step {step}: {last}");
            assert!(!rest.contains("[late]"), "step {step}: {last}");
            let end = html(&blocks);
            assert_eq!(end, html(&answer_blocks(&a, &r)), "step {step}");
            assert!(!end.contains("[late]"), "{end}");
        }
    }

    /// The definitions collected: each part of the text read once (a part read again
    /// after `start` went back is not added twice), a label's first definition found,
    /// footnote definitions too; start 0 starts over. Many definitions, each in a part
    /// of its own, stay in a few runs.
    #[test]
    fn stream_definitions_are_read_once_in_order() {
        use crate::core::commonmark::RefDef;
        // The destination and title of a label: from the first run that has it.
        fn get(runs: &[Vec<RefDef>], key: &str) -> Option<String> {
            runs.iter()
                .find_map(|r| {
                    r.binary_search_by(|d| d.0.as_str().cmp(key))
                        .ok()
                        .map(|i| &r[i])
                })
                .map(|d| format!("{}{}", d.1, d.2))
        }
        let count = |runs: &[Vec<RefDef>]| runs.iter().map(Vec::len).sum::<usize>();
        let text = "[a]: /one\n\n[^n]: A note.\n\n[A]: /two\n[b]: /b \"B\"\n\nx\n\ny";
        let mut d = StreamDefs::default();
        let (n, x, y) = (
            text.find("[^").unwrap(),
            text.find('x').unwrap(),
            text.len() - 1,
        );
        assert_eq!(get(d.before(text, n), "a").as_deref(), Some("/one"));
        assert_eq!(count(d.before(text, n)), 1);
        let runs = d.before(text, x);
        assert_eq!(get(runs, "a").as_deref(), Some("/one"));
        assert_eq!(get(runs, "b").as_deref(), Some("/bB"));
        assert_eq!(get(runs, "\u{1}n").as_deref(), Some(""));
        assert_eq!(count(runs), 3, "{runs:?}");
        assert_eq!(count(d.before(text, n)), 3);
        assert_eq!(count(d.before(text, y)), 3);
        assert!(d.before("fresh", 0).is_empty());
        assert_eq!(count(d.before(text, x)), 3);
        // 3,000 blocks, each with a definition (every label twice: the first wins).
        let mut long = String::new();
        let mut starts = Vec::new();
        for i in 0..3000 {
            long.push_str(&format!("[L{}]: /{i}\nText.\n\n", (i * 7919) % 1500));
            starts.push(long.len());
        }
        let mut d = StreamDefs::default();
        for s in starts {
            d.before(&long, s);
        }
        let runs = d.before(&long, long.len());
        assert!(runs.len() <= 12, "{} runs", runs.len());
        assert!((1500..=3000).contains(&count(runs)));
        for i in 0..1500 {
            assert_eq!(
                get(runs, &format!("l{}", (i * 7919) % 1500)),
                Some(format!("/{i}"))
            );
        }
    }

    /// The block bookkeeping of a streaming view ([`stream_blocks`]): after every 1 to 7
    /// bytes the blocks from the first that can have changed are rendered again; the
    /// blocks shown at the end are the one-shot render's. Over answers with lists,
    /// empty items, tables, code, quotes and headings, with `\n` and `\r\n` line ends,
    /// cut at every size.
    #[test]
    fn streamed_blocks_end_as_the_one_shot_render() {
        let texts = [
            "# Report on **cities** & <towns>\n\nParis is the capital of France [1]. It has 2.1 million people [2][3] \u{2014} \u{1f5fc} and \u{5df4}\u{9ece} [1].\n\n- Lyon [2] is *second* & old\n- Marseille\n\n> a quote [3]\n> that goes on\n\n1. one\n2. two\n\n```js\nconst a = m[1];\n```\n\n| a | b |\n|---|---|\n| x [1] | y |\n\nThe end [2].",
            "- a\n-\n- b [1]\n\n  more b\n\n* c\n\n---\n\nSetext\n===\n\n    code\n\n[link](https://x.example) and [1].",
            "Text\n\n- [ ] todo [1]\n- [x] done\n\n> - quoted item\n>   continued [2]\n\n~~gone~~ and `code`.\n",
        ];
        let data = serde_json::json!({
            "1": {"title": "One", "source": "https://one.example/"},
            "2": {"title": "Two", "source": "https://two.example/"},
            "3": {"title": "Three", "source": "https://three.example/"}
        });
        let r = RenderOptions::default();
        // Each with `\n` and with Windows line ends (whose blocks settle too).
        let texts = texts
            .iter()
            .flat_map(|t| [t.to_string(), t.replace('\n', "\r\n")]);
        for text in texts {
            let text = text.as_str();
            for step in 1..=7 {
                let (blocks, a) = stream_blocks(text, Data::Json(&data), step, &mut |_, _| {});
                assert_eq!(
                    html(&blocks),
                    html(&answer_blocks(&a, &r)),
                    "step {step}: {text:?}"
                );
            }
        }
    }
}
