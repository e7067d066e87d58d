//! The normalization that compares `core::commonmark`'s events with pulldown-cmark's
//! (adjacent text joined, ranges aside, the blanks both may write differently evened
//! out), and the inputs where the two differ by design. Shared by the parser's tests
//! and the differential fuzz target `fuzz/fuzz_targets/markdown_diff.rs`, which
//! includes this file; the including module brings `parse`, `Event`, `Tag` and
//! `Alignment` of `core::commonmark` into scope.

use super::{parse, Alignment, Event, Tag};
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
    // A raw HTML tag or a link title across a `\r\n` line end: pulldown-cmark keeps the
    // `\r`, CommonMark (commonmark.js, cmark-gfm) and citekit write the line end as `\n`.
    let e = if ["I:", "S:Link", "S:Image"].iter().any(|p| e.starts_with(p)) && e.contains("\r\n") {
        e.replace("\r\n", "\n")
    } else {
        e
    };
    if let (Some(last), Some(t)) = (out.last_mut(), e.strip_prefix("H:")) {
        if let Some(prev) = last.strip_prefix("H:") {
            *last = format!("H:{prev}{t}");
            return;
        }
    }
    out.push(e);
}

pub fn ours(t: &str) -> Vec<String> {
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

pub fn theirs(t: &str) -> Vec<String> {
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

/// Where citekit follows CommonMark and pulldown-cmark does not: after a `]`, it reads
/// an escaped `\[` as a `[` (`[x]\[a]` is a reference link to `a` there, text here);
/// a backslash hard break right before a link text's `]` is a plain backslash there;
/// tabs on a footnote definition's line, or in the blanks after a list marker, count
/// columns differently there (a task box after blanks with a tab that reach indented
/// code's width, `*  \t\t[ ] a`, is a task item there, the code `  [ ] a` in
/// commonmark.js and cmark-gfm, as here), and a tab before `>` continues a block
/// quote there; a
/// vertical tab or form feed is a blank between a link's destination, title and `)`
/// (or a definition's) there, where CommonMark allows spaces, tabs and one line end;
/// a destination in angle brackets followed at once by a title (`[a](<u>"t")`, no blank
/// between) is a link there and text here, as in commonmark.js, since CommonMark asks
/// for spaces or tabs between a destination and its title; U+007F is an ASCII control
/// character to CommonMark, which no link destination holds, and a destination there;
/// a `<!` declaration's (or a comment's, a `<?` instruction's) end may take a block
/// quote's marker on a later line there; the
/// blanks that start a list item's lazy line stay in a raw HTML tag across it there
/// (`- <a b=">"\n c>` keeps its blank in the tag there), and a tab that starts one
/// (`*    a \`\n\tb\``) stays in a code span across it. (cmark-gfm keeps those blanks
/// too; commonmark.js drops them, as the spec's paragraph rule asks: a paragraph's
/// lines lose their initial spaces and tabs.) An escaped character that starts a later
/// line of an inline link's title (after blanks) is read as unescaped there:
/// `[](a "b\n\"y")` is text there (its `"` ends the title), a link titled `b\n"y` in
/// commonmark.js and cmark-gfm, as here; `[](a (b\n\\<y))` is titled `b\n<y` there,
/// `b\n\<y` in both and here (definitions' titles are read right there).
/// A `\|` inside raw HTML in a table cell (`| <a b="\|"> |`) stays `\|` there; GFM takes
/// a table's `\|` to `|` before it reads the cell's inlines (cmark-gfm writes
/// `<a b="|">`), as citekit does, and as pulldown-cmark does in a code span.
/// A definition whose label has blanks before a `^` (`[ ^a]: b`) defines the label
/// `^a`; a reference link `[^a]` to it is text there (footnote syntax, no footnote),
/// a link in commonmark.js and cmark-gfm (footnotes on), as here.
/// A table header line that ends with a backslash (`| a \\` over `|-|`) is no header
/// there (the backslash a hard break), where GFM reads the table with `\\` in its last
/// cell. A paragraph that starts with `[` and holds a table's header and delimiter rows
/// (`[|\n|-\n]: /u`) is a link reference definition there, where GFM has read the
/// table before the paragraph is done. A tab inside an unquoted attribute value
/// (`<a b=c\t!>`) belongs to the value there; CommonMark ends the value at a tab. A
/// tab inside a task box (`- [\t] a`) is an unchecked box there; cmark-gfm, GFM's
/// reference, reads text (only a space or an `x` makes a box), as citekit does. A link
/// label of more than 999 characters (a definition's, `[…]:`) is one there; CommonMark
/// allows 999. A reference link that ends an ATX heading before trailing blanks with a
/// tab (`# [a]\t`) is text there (it keeps the tab in the heading's content), a link
/// in commonmark.js and cmark-gfm, as here. An HTML block of type 1 (`<pre`, `<script`,
/// `<style`, `<textarea`, any case) ends at its end tag in any case (`</PRE>`) in
/// CommonMark; pulldown-cmark ends it only at a lowercase one and keeps the lines after
/// in the block (`end_tag_not_lowercase`).
pub fn pulldown_quirk(t: &str) -> bool {
    let marker_tab = t.as_bytes().windows(3).any(|w| {
        matches!(w[0], b'-' | b'*' | b'+' | b'.' | b')')
            && matches!(w[1], b' ' | b'\t')
            && (w[1] == b'\t' || w[2] == b'\t')
    });
    angle_destination_then_title(t)
        || end_tag_not_lowercase(t)
        || heading_link_then_tab(t)
        || header_ends_with_backslash(t)
        || definition_over_table(t)
        || tab_in_unquoted_value(t)
        || t.contains("[\t]")
        || label_past_999(t)
        || t.contains('\u{7f}')
        || declaration_open_before_quote_line(t)
        || task_box_after_marker_tab(t)
        || pipe_escape_in_table_html(t)
        || blank_before_caret_label(t)
        || tag_open_across_indented_line(t)
        || code_across_tab_line(t)
        || escape_starts_title_line(t)
        || t.contains("]\\[")
        || t.contains("\\\n]")
        || marker_tab
        || t.contains("\t>")
        || t.contains(['\u{b}', '\u{c}'])
        || t.lines().any(|l| l.contains("[^") && l.contains('\t'))
}

/// Whether an end tag of an HTML block of type 1 (`</pre`, `</script`, `</style`,
/// `</textarea`, matched in any case) is written with a capital letter.
fn end_tag_not_lowercase(t: &str) -> bool {
    let b = t.as_bytes();
    b.windows(2).enumerate().any(|(i, w)| {
        w == b"</"
            && ["pre", "script", "style", "textarea"].iter().any(|name| {
                b.get(i + 2..i + 2 + name.len()).is_some_and(|tag| {
                    tag.eq_ignore_ascii_case(name.as_bytes()) && tag != name.as_bytes()
                })
            })
    })
}

/// Whether a line that may be an ATX heading ends with `]` and then blanks with a tab.
fn heading_link_then_tab(t: &str) -> bool {
    t.lines().any(|l| {
        let body = l.trim_end_matches([' ', '\t']);
        l.trim_start_matches(' ').starts_with('#')
            && body.ends_with(']')
            && l[body.len()..].contains('\t')
    })
}

/// Whether a line with a `|` ends with an odd run of backslashes and the next line
/// has a `|` and a `-` (a delimiter row's bytes).
fn header_ends_with_backslash(t: &str) -> bool {
    let lines: Vec<&str> = t.lines().collect();
    lines.windows(2).any(|w| {
        w[0].contains('|')
            && w[0].bytes().rev().take_while(|&c| c == b'\\').count() % 2 == 1
            && w[1].contains(['|'])
            && w[1].contains('-')
    })
}

/// Whether a `]` closes a `[` (no bracket between) over more than 999 characters.
fn label_past_999(t: &str) -> bool {
    let mut open: Option<usize> = None;
    for (i, c) in t.char_indices() {
        match c {
            '[' => open = Some(i),
            ']' => {
                if open.is_some_and(|o| t[o + 1..i].chars().count() > 999) {
                    return true;
                }
                open = None;
            }
            _ => {}
        }
    }
    false
}

/// Whether a line with a `|` that a line with a `|` and a `-` follows comes after a
/// line that starts (after blanks and `>`) with a `[`, or is one, with no blank line
/// between, and a `]:` comes on or after that line.
fn definition_over_table(t: &str) -> bool {
    let lines: Vec<&str> = t.lines().collect();
    let Some(last_def) = lines.iter().rposition(|l| l.contains("]:")) else {
        return false;
    };
    // The first line of the current run of non-blank lines that starts with `[`.
    let mut open: Option<usize> = None;
    for k in 0..lines.len() {
        let bare = lines[k].trim_start_matches([' ', '\t', '>']);
        if bare.is_empty() {
            open = None;
            continue;
        }
        if open.is_none() && bare.starts_with('[') {
            open = Some(k);
        }
        let header = lines[k].contains('|')
            && lines
                .get(k + 1)
                .is_some_and(|n| n.contains('|') && n.contains('-'));
        if header && open.is_some_and(|j| j <= last_def) {
            return true;
        }
    }
    false
}

/// Whether an `=` after a `<` is followed (after blanks, and block quote markers on a
/// later line) by an unquoted attribute value (bytes but blanks, quotes, `=`, `<`, `>`
/// and `` ` ``) that a tab ends, and then (after blanks) by no end of the tag (`>`,
/// `/>`).
fn tab_in_unquoted_value(t: &str) -> bool {
    let b = t.as_bytes();
    let Some(lt) = t.find('<') else {
        return false;
    };
    b.iter().enumerate().skip(lt).any(|(i, &c)| {
        if c != b'=' {
            return false;
        }
        // (Blanks, and past a line end block quote markers too.)
        let mut j = i + 1;
        let mut line_start = false;
        while j < b.len()
            && (matches!(b[j], b' ' | b'\t' | b'\n' | b'\r') || (line_start && b[j] == b'>'))
        {
            line_start |= matches!(b[j], b'\n' | b'\r');
            j += 1;
        }
        let s = j;
        while j < b.len()
            && !matches!(
                b[j],
                b' ' | b'\t' | b'\n' | b'\r' | b'"' | b'\'' | b'=' | b'<' | b'>' | b'`'
            )
        {
            j += 1;
        }
        if j == s || b.get(j) != Some(&b'\t') {
            return false;
        }
        while j < b.len() && matches!(b[j], b' ' | b'\t') {
            j += 1;
        }
        // (Not where the tag ends: a tag both ways.)
        !(b.get(j) == Some(&b'>') || b[j..].starts_with(b"/>"))
    })
}

/// Whether a line ends inside a `<!` or `<?` (one with no `>` after it, `-->` for a
/// comment, `?>` for a processing instruction) and a later line starts (after blanks)
/// with a block quote's `>`, no line between closing it.
fn declaration_open_before_quote_line(t: &str) -> bool {
    let lines: Vec<&str> = t.lines().collect();
    lines.iter().enumerate().any(|(k, l)| {
        // (Any of the line's openers: `<!--<!>` leaves the comment open.)
        l.match_indices("<!")
            .chain(l.match_indices("<?"))
            .any(|(i, _)| {
                let close = if l[i..].starts_with("<!--") {
                    "-->"
                } else if l[i..].starts_with("<?") {
                    "?>"
                } else {
                    ">"
                };
                if l[i + 2..].contains(close) {
                    return false;
                }
                for m in &lines[k + 1..] {
                    if m.trim_start().starts_with('>') {
                        return true;
                    }
                    if m.contains(close) {
                        return false;
                    }
                }
                false
            })
    })
}

/// Whether a line holds a `\|` between a `<` that may open raw HTML (a letter, `/`,
/// `!` or `?` after it) and a later `>`, and a line has a `|` and a `-` (a table's
/// delimiter row's bytes).
fn pipe_escape_in_table_html(t: &str) -> bool {
    let (mut row, mut html) = (false, false);
    t.lines().any(|l| {
        row |= l.contains('|') && l.contains('-');
        html |= l.match_indices('<').any(|(i, _)| {
            l[i + 1..].starts_with(|c: char| c.is_ascii_alphabetic() || "/!?".contains(c))
                && l[i..].find("\\|").is_some_and(|j| l[i + j..].contains('>'))
        });
        row && html
    })
}

/// Whether a line starts (after container prefixes: blanks, `>`, list markers) with a
/// `[`, blanks and a `^`.
fn blank_before_caret_label(t: &str) -> bool {
    t.lines().any(|l| {
        l.trim_start_matches(|c: char| " \t>-*+.)".contains(c) || c.is_ascii_digit())
            .strip_prefix('[')
            .is_some_and(|r| {
                r.starts_with([' ', '\t']) && r.trim_start_matches([' ', '\t']).starts_with('^')
            })
    })
}

/// Whether a task box (`[ ]`, `[x]`, `[X]`) follows blanks that hold a tab after a list
/// marker's byte.
fn task_box_after_marker_tab(t: &str) -> bool {
    ["[ ]", "[x]", "[X]"].iter().any(|b| {
        t.match_indices(b).any(|(i, _)| {
            let before = t[..i].trim_end_matches([' ', '\t']);
            t[before.len()..i].contains('\t') && before.ends_with(['-', '+', '*', '.', ')'])
        })
    })
}

/// Whether a line that starts with a blank comes while a `<` is open: no `>` or `<`
/// after it before the line, but those inside a quoted attribute value (`="…"`,
/// `='…'`, one that closes), and a line inside such a value counts too; or inside a
/// comment, a processing instruction or a CDATA section (`<!--a>\n -->`: a `>` before
/// its end is no end).
fn tag_open_across_indented_line(t: &str) -> bool {
    let b = t.as_bytes();
    let blank_led =
        |k: usize| b[k] == b'\n' && b.get(k + 1).is_some_and(|&c| c == b' ' || c == b'\t');
    b.iter()
        .enumerate()
        .filter(|&(_, &c)| c == b'<')
        .any(|(lt, _)| {
            let closed = [("<!--", "-->"), ("<?", "?>"), ("<![CDATA[", "]]>")]
                .iter()
                .find(|(open, _)| t[lt..].starts_with(open))
                .and_then(|(_, close)| t[lt + 2..].find(close));
            if closed.is_some_and(|n| (lt..lt + 2 + n).any(blank_led)) {
                return true;
            }
            let mut k = lt + 1;
            while k < b.len() {
                match b[k] {
                    b'>' | b'<' => return false,
                    q @ (b'"' | b'\'')
                        if b[lt + 1..k]
                            .iter()
                            .rev()
                            .find(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
                            == Some(&b'=') =>
                    {
                        if let Some(n) = b[k + 1..].iter().position(|&c| c == q) {
                            if (k + 1..k + 1 + n).any(blank_led) {
                                return true;
                            }
                            k += n + 1;
                        }
                    }
                    _ if blank_led(k) => return true,
                    _ => {}
                }
                k += 1;
            }
            false
        })
}

/// Whether a line whose leading blanks hold a tab comes, in a run of non-blank lines,
/// after a line with a `` ` `` and on or before a line with one (a code span may cross
/// it).
fn code_across_tab_line(t: &str) -> bool {
    // (A `` ` `` earlier in the run; a tab-led line after one.)
    let (mut tick, mut tab_line) = (false, false);
    t.lines().any(|l| {
        if l.trim_matches([' ', '\t']).is_empty() {
            (tick, tab_line) = (false, false);
            return false;
        }
        tab_line |= tick
            && l.bytes()
                .take_while(|c| matches!(c, b' ' | b'\t'))
                .any(|c| c == b'\t');
        let has_tick = l.contains('`');
        tick |= has_tick;
        has_tick && tab_line
    })
}

/// Whether a line that starts (after blanks and block quote markers) with an escaped
/// title delimiter (`\"`, `\'`, `\(`, `\)`), or an escaped backslash before
/// punctuation, comes after a `](` in its run of non-blank lines.
fn escape_starts_title_line(t: &str) -> bool {
    let mut link = false;
    t.lines().any(|l| {
        let bare = l.trim_start_matches([' ', '\t', '>']).as_bytes();
        if bare.is_empty() {
            link = false;
            return false;
        }
        let hit = link
            && bare[0] == b'\\'
            && match bare.get(1) {
                Some(b'"' | b'\'' | b'(' | b')') => true,
                Some(b'\\') => bare.get(2).is_some_and(u8::is_ascii_punctuation),
                _ => false,
            };
        link |= l.contains("](");
        hit
    })
}

/// Whether a `<` that may open a link destination (after `(`, or after `:` and blanks)
/// is closed by a `>` on its line that a title opener (`"`, `'`, `(`) follows at once.
fn angle_destination_then_title(t: &str) -> bool {
    let b = t.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        c == b'<'
            && t[..i].trim_end_matches([' ', '\t']).ends_with(['(', ':'])
            && b[i + 1..]
                .iter()
                .position(|&x| matches!(x, b'>' | b'<' | b'\n' | b'\r'))
                .is_some_and(|j| {
                    b[i + 1 + j] == b'>' && matches!(b.get(i + 2 + j), Some(b'"' | b'\'' | b'('))
                })
    })
}

/// The code points whose punctuation status differs from pulldown-cmark's: ours is
/// Unicode 17, pulldown-cmark's an older version (characters assigned since). Probed by
/// `a*Xb*`: emphasis only when X is neither punctuation nor whitespace.
pub fn punct_differs() -> &'static std::collections::HashSet<u32> {
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

/// Where citekit differs from CommonMark and pulldown-cmark, not fixed yet: a carriage
/// return not followed by a line feed ends a line there, and is text in `core::commonmark`
/// (and the marker scanner, whose line ends it shares). The fuzz target leaves such
/// inputs out; `bare_carriage_return_ends_a_line` in the parser's tests is the case.
///
/// A footnote label with blanks (`[^0 ]`, `[^a b]`) or with a byte that starts inline
/// markdown of its own (`` ` ``, `<`, `>`, `^`, `\\`: `lines::is_label_byte`) is a
/// footnote label in pulldown-cmark and GFM and not one in citekit (its markers and
/// footnotes keep to plain labels); `footnote_label_with_blanks_is_an_open_difference`
/// is the case. A table delimiter row with a cell that is not `:?-+:?` (GFM's rule) is
/// read differently by the two (GFM reads no table), also in a block quote.
/// Containers nested past `MAX_BLOCK_DEPTH` (64) are text in citekit, a limit
/// pulldown-cmark does not have (`nested_past_the_limit`). A label with an escaped
/// bracket (`[^a\\[b]:`) is a footnote label there too, and one of more than 100
/// bytes (citekit's footnote labels keep to 100, as its markers' do; GFM's to 999).
/// A link label `[^…]` right after a `]` is footnote syntax to citekit, not the label
/// of a full reference link (`[t][^]` is a shortcut link to `t` here, text there).
/// A task item whose first paragraph a setext underline makes a heading
/// (`- [ ] a\n  -`): the GFM spec asks for a paragraph as a task item's first block,
/// and citekit (and commonmark.js, which has no task items) reads the heading `[ ] a`;
/// pulldown-cmark reads a box inside the heading `a`, cmark-gfm a box before the
/// heading `a`, but in a block quote (`> - [ ] a\n>   -`) the heading `[ ] a`.
/// A list item started after a blank line whose content starts with a block that uses
/// its whole line (a thematic break, an ATX heading, a fence's opening line:
/// `- b\n  - c\n\n  - ***\n- d`) leaves the blank line on the lists around it in
/// citekit, which reads the outer list loose; pulldown-cmark, commonmark.js and cmark-gfm
/// read it tight, the blank line being inside the inner list (`line_item_after_blank`;
/// `a_one_line_block_item_after_a_blank_line_leaves_the_outer_list_tight` is the case).
/// A link destination with parentheses nested more than 32 deep is text in citekit, as
/// in cmark-gfm (the spec lets implementations limit the nesting); pulldown-cmark and
/// commonmark.js read a link.
/// A fenced code block in a block quote whose last line, the text's end with no line end,
/// is blank but for what the quote marker leaves of a tab (`>\`\`\`\n>\t\t`) loses that
/// line in citekit; pulldown-cmark, commonmark.js and cmark-gfm keep `  \t`
/// (`blank_last_line_in_a_quoted_fence_keeps_its_blanks` is the case).
/// A definition whose label holds only Unicode blanks, one of them not a space, tab or
/// line end (`[\u{a0}]: a`), is a definition in CommonMark, pulldown-cmark and cmark-gfm
/// (only those count as blank in a label) and a paragraph in citekit (and commonmark.js),
/// which trims every Unicode blank (`label_of_other_blanks`; the case is
/// `a_label_of_no_break_spaces_is_a_definition`).
pub fn open_difference(t: &str) -> bool {
    t.split("\r\n").any(|p| p.contains('\r'))
        || label_of_other_blanks(t)
        || line_item_after_blank(t)
        || (!t.ends_with('\n')
            && t.contains(['`', '~'])
            && t.lines().last().is_some_and(|l| {
                let l = l.trim_start_matches(' ');
                l.starts_with('>')
                    && l.contains('\t')
                    && l.bytes().all(|c| matches!(c, b'>' | b' ' | b'\t'))
            }))
        || parens_past_32(t)
        || task_box_over_underline(t)
        || t.contains("][^")
        || nested_past_the_limit(t)
        || t.match_indices("[^").any(|(i, _)| {
            let label = &t[i + 2..];
            // (An escaped bracket does not end the label.)
            let b = label.as_bytes();
            let mut end = 0;
            while end < b.len() && !matches!(b[end], b']' | b'[') {
                end += if b[end] == b'\\' && end + 1 < b.len() {
                    2
                } else {
                    1
                };
            }
            let end = end.min(b.len());
            label[end..].starts_with(']')
                && (end > 100
                    || label[..end].contains([' ', '\t', '\n', '\r', '`', '<', '>', '^', '\\']))
        })
        || t.lines().any(|l| {
            // (Also in a block quote: `> |-- -|`.)
            let l = l.trim_start_matches([' ', '\t', '>']);
            l.contains('|')
                && l.contains('-')
                && l.bytes()
                    .all(|c| matches!(c, b'|' | b'-' | b':' | b' ' | b'\t'))
                && l.split('|').map(|c| c.trim_matches([' ', '\t'])).any(|c| {
                    let core = c.strip_prefix(':').unwrap_or(c);
                    let core = core.strip_suffix(':').unwrap_or(core);
                    !c.is_empty() && (core.is_empty() || core.bytes().any(|b| b != b'-'))
                })
        })
}

/// Whether a line with a task box after a list marker (`- [ ] a`) comes before an
/// indented line of `-`s or `=`s alone (after blanks and `>`), no blank line between.
fn task_box_over_underline(t: &str) -> bool {
    let mut task = false;
    t.lines().any(|l| {
        let bare = l
            .trim_start_matches([' ', '\t', '>'])
            .trim_end_matches([' ', '\t']);
        if bare.is_empty() {
            task = false;
            return false;
        }
        let indented =
            l[..l.len() - l.trim_start_matches([' ', '\t', '>']).len()].ends_with([' ', '\t']);
        let underline = task
            && indented
            && (bare.bytes().all(|c| c == b'-') || bare.bytes().all(|c| c == b'='));
        task |= ["[ ]", "[x]", "[X]"].iter().any(|b| {
            l.match_indices(b).any(|(i, _)| {
                l[..i]
                    .trim_end_matches([' ', '\t'])
                    .ends_with(['-', '+', '*', '.', ')'])
            })
        });
        underline
    })
}

/// Whether unescaped `(` nest more than 32 deep in a run of bytes with no blank or line
/// end (as a link destination's are).
fn parens_past_32(t: &str) -> bool {
    let b = t.as_bytes();
    let (mut depth, mut i) = (0usize, 0);
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            c if c <= b' ' => depth = 0,
            _ => {}
        }
        if depth > 32 {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether a line that follows a blank line (or one of blanks and `>`) holds, after
/// container prefixes, one or more list markers and then a thematic break, an ATX
/// heading or a fence's opening line.
fn line_item_after_blank(t: &str) -> bool {
    let mut after_blank = false;
    t.lines().any(|l| {
        let hit = after_blank && marker_then_line_block(l);
        after_blank |= l.bytes().all(|c| matches!(c, b' ' | b'\t' | b'>' | b'\r'));
        hit
    })
}

/// Whether `l`, past blanks and `>`, is list markers and then a thematic break, an ATX
/// heading or a fence's opening line.
fn marker_then_line_block(l: &str) -> bool {
    let line_block = |r: &str| {
        let r = r.trim_matches([' ', '\t', '\r']);
        let hashes = r.bytes().take_while(|&c| c == b'#').count();
        let rule = r.chars().next().is_some_and(|c| {
            matches!(c, '-' | '*' | '_')
                && r.chars().all(|x| x == c || x == ' ' || x == '\t')
                && r.chars().filter(|&x| x == c).count() >= 3
        });
        rule || r.starts_with("```")
            || r.starts_with("~~~")
            || ((1..=6).contains(&hashes)
                && (r.len() == hashes || r[hashes..].starts_with([' ', '\t'])))
    };
    let mut r = l.trim_start_matches([' ', '\t', '>']);
    let mut marker = false;
    loop {
        if marker && line_block(r) {
            return true;
        }
        let digits = r.bytes().take_while(u8::is_ascii_digit).count();
        let m = if digits > 0 && r[digits..].starts_with(['.', ')']) {
            digits + 1
        } else if r.starts_with(['-', '*', '+']) {
            1
        } else {
            return false;
        };
        if !r[m..].starts_with([' ', '\t']) {
            return false;
        }
        r = r[m..].trim_start_matches([' ', '\t']);
        marker = true;
    }
}

/// Whether a `[` and the next `]` hold only Unicode blanks, at least one of them not a
/// space, tab or line end.
fn label_of_other_blanks(t: &str) -> bool {
    t.match_indices('[').any(|(i, _)| {
        t[i + 1..].find(']').is_some_and(|e| {
            let label = &t[i + 1..i + 1 + e];
            label.trim().is_empty() && !label.trim_matches([' ', '\t', '\n', '\r']).is_empty()
        })
    })
}

/// Whether a line's container prefix (`>`, blanks, list markers: a tab four columns)
/// spans 60 columns or more, as a line nested 64 deep needs (with a few to spare). The
/// prefix starts at the line's start or after a footnote definition's `]:` (one more
/// container: `[^a]: >>>…`).
fn nested_past_the_limit(t: &str) -> bool {
    t.lines().any(|l| {
        std::iter::once(0)
            .chain(l.match_indices("]:").map(|(i, _)| i + 2))
            .any(|s| {
                l[s..]
                    .bytes()
                    .take_while(|c| {
                        matches!(c, b'>' | b' ' | b'\t' | b'-' | b'*' | b'+' | b'.' | b')')
                            || c.is_ascii_digit()
                    })
                    .map(|c| if c == b'\t' { 4 } else { 1 })
                    .sum::<usize>()
                    >= 60
            })
    })
}
