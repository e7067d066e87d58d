//! The text of a streaming answer as it is shown: what the renderer is given while the
//! stream runs, so that syntax still arriving never flashes as literal characters.

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
    let last_line_start = tail.rfind('\n').map_or(0, |i| i + 1);
    let last_line = &tail[last_line_start..];
    if last_line.trim_start().starts_with('|') {
        cut = block_start + last_line_start;
    }
    // A table header with no delimiter row yet.
    let shown = &text[block_start.min(cut)..cut];
    let lines: Vec<&str> = shown.lines().filter(|l| !l.trim().is_empty()).collect();
    if let Some(last) = lines.last() {
        if last.trim_start().starts_with('|') && !shown.contains("---") {
            if let Some(i) = shown.rfind(last) {
                cut = block_start + i;
            }
        }
    }
    // An unfinished link `[text](http...`.
    let shown = &text[block_start.min(cut)..cut];
    if let Some(open) = shown.rfind("](") {
        if !shown[open..].contains(')') {
            if let Some(lb) = shown[..open].rfind('[') {
                cut = block_start + lb;
            }
        }
    }
    let mut out = text[..cut].to_string();
    let shown = &text[block_start.min(cut)..cut];
    if !shown.contains("```") && !shown.contains("~~~") {
        // Closed as the stream parser reads it (as code, so a `[1]` there is text).
        if let Some(run) = crate::core::stream::unclosed_code_span(shown) {
            if out.ends_with('`') {
                out.push(' ');
            }
            out.push_str(&"`".repeat(run));
        }
        if shown.matches("**").count() % 2 == 1 {
            out.push_str("**");
        }
    }
    out
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

    #[test]
    fn nothing_is_added_inside_a_fence_or_before_the_block() {
        assert_eq!(stream_view_text("```\nx **y `z", 0), "```\nx **y `z");
        // Only the open block (from `block_start`) is looked at.
        assert_eq!(stream_view_text("a **b** `c`\n\nd", 13), "a **b** `c`\n\nd");
    }
}
