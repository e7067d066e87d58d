//! Where a citation's span starts: back from its marker to the start of the sentence,
//! list item, table cell or line (docs/resolution.md, "Spans").

use crate::core::str_ops;

/// The start of the span a marker at `end` supports: back to the start of its sentence,
/// list item, table cell or line, never before `floor`; then whitespace and `,;:` skipped.
pub fn span_start(text: &str, end: usize, floor: usize) -> usize {
    let floor = floor.min(end);
    let head = &text[floor..end];
    let mut boundary = floor;
    let mut line_start = false;
    // Byte-wise from the end: every boundary character is ASCII or starts with the
    // lead byte of its UTF-8 form (never a continuation byte), so no character needs
    // decoding on the way.
    let b = head.as_bytes();
    let space_after = |at: usize| head[at..].chars().next().is_some_and(char::is_whitespace);
    let mut i = b.len();
    while i > 0 {
        i -= 1;
        let len = match b[i] {
            b'\n' => {
                line_start = true;
                1
            }
            b'|' => 1,
            b'.' if space_after(i + 1) && !abbreviation_at(head, i) => 1,
            b'!' | b'?' if space_after(i + 1) => 1,
            0xD8 if head[i..].starts_with('؟') && space_after(i + 2) => 2,
            0xE3 if head[i..].starts_with('。') => 3,
            0xEF if head[i..].starts_with('！') || head[i..].starts_with('？') => 3,
            0xE2 if head[i..].starts_with('…') && space_after(i + 3) => 3,
            _ => continue,
        };
        boundary = floor + i + len;
        break;
    }
    // No boundary in the head: the span starts at the floor, a line start when the floor
    // is one (a sentence boundary never is, whatever the floor: `www. - it` keeps its `-`).
    if boundary == floor {
        line_start = floor == 0 || text[..floor].ends_with('\n');
    }
    let mut s = boundary;
    if line_start {
        s += line_prefix_len(&text[s..end]);
    }
    let rest = &text[s..end];
    let skip = rest.len()
        - rest
            .trim_start_matches(|c: char| {
                c.is_whitespace() || matches!(c, ',' | ';' | ':' | '、' | '，' | '،' | '؛')
            })
            .len();
    s + skip
}

/// Whether the `.` at `dot` (followed by whitespace) ends an abbreviation or an ordinal
/// rather than a sentence, read as Unicode's sentence rules (UAX #29) read a full stop
/// followed by a lower-case word, plus the cases of real answers those rules leave out:
///
/// - the next word starts in lower case (`e.g. the report`, `am 9. über`);
/// - the word before is an initial or single letters with dots between them (`J. Smith`,
///   `U.S. policy`, `S. 12`, `z. B. Berlin`), or a title or abbreviation that a name or
///   a number follows (`Dr. Smith`, `No. 5`, `Nr. 5`, `ca. 3`, `vgl. Kapitel 2`);
/// - the word before is a number (an ordinal, as German and other languages write
///   them) and the next word is a number (`am 9. 7. 2024`) or, after a day (1 or 2
///   digits), a German month name (`Am 9. Juli 2024`, `3. Okt.`).
///
/// A number ending a longer word (`v1.2. Then`) and a year before a month (`2020.
/// September`) still end a sentence; a list number at a line start (`1. `) is a block
/// start either way ([`line_prefix_len`]).
fn abbreviation_at(text: &str, dot: usize) -> bool {
    let after = text[dot + 1..].trim_start();
    let next = after.chars().next();
    if next.is_some_and(starts_lower_case) {
        return true;
    }
    let before = &text[..dot];
    let digits = before.bytes().rev().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        // A number standing alone: at the start, or after a space or an opening bracket.
        let number_alone = before[..before.len() - digits]
            .chars()
            .next_back()
            .is_none_or(|c| c.is_whitespace() || matches!(c, '(' | '['));
        // Up to the next ASCII byte that is not a letter (month names hold `ä`).
        let word_end = after
            .bytes()
            .position(|b| b.is_ascii() && !b.is_ascii_alphabetic())
            .unwrap_or(after.len());
        let next_word = &after[..word_end];
        return number_alone
            && (next.is_some_and(|c| c.is_ascii_digit())
                || digits <= 2 && listed(GERMAN_MONTHS, next_word));
    }
    // Letters and dots are ASCII: the word starts right after the last other byte.
    let word_start = before
        .bytes()
        .rposition(|b| !(b.is_ascii_alphabetic() || b == b'.'))
        .map_or(0, |k| k + 1);
    // A word that starts right after another letter (`Předtím`, read back to `m`) is
    // no initial nor title.
    let word_alone = before[..word_start].chars().next_back().is_none_or(|c| {
        c.is_whitespace()
            || c.is_ascii_punctuation()
            || matches!(c, '\u{2010}'..='\u{205e}' | '«' | '»' | '¿' | '¡')
    });
    if !word_alone {
        return false;
    }
    let word = &before[word_start..];
    // An initial (`J`, `z`), or single letters with dots between them (`U.S`, `e.g`).
    let w = word.as_bytes();
    let letters_and_dots = w.len() % 2 == 1
        && w.iter()
            .enumerate()
            .all(|(k, b)| (k % 2 == 1) == (*b == b'.'));
    if w.len() == 1 || w.len() > 1 && letters_and_dots {
        return true;
    }
    // Space-separated lists, not arrays of `&str`: no pointer table in the wasm.
    const TITLES: &str = "Mr Mrs Ms Dr Prof Sr Jr St Mt vs cf approx Fig fig No no Vol vol pp \
        Gen ca Nr nr Abb Abs Art Bd Kap Tab bzw ggf vgl Vgl inkl";
    listed(TITLES, word)
}

/// German month names and their abbreviations, as they follow a day's ordinal
/// (`9. Juli`, `3. Okt.`).
const GERMAN_MONTHS: &str = "Januar Jänner Februar Feber März April Mai Juni Juli August \
    September Oktober November Dezember Jan Jän Feb Mär Mrz Apr Jun Jul Aug Sep Sept Okt Nov Dez";

/// Whether `word` is one of the space-separated words of `list`.
fn listed(list: &str, word: &str) -> bool {
    !word.is_empty() && str_ops::split(list, " ").any(|w| w == word)
}

/// Whether `c` is a lower-case letter of ASCII, Latin-1 or Latin Extended-A (the
/// letters of the European languages that write ordinals with a dot: `9. července`).
/// Written out because `char::is_lowercase` would link core's Unicode table into the
/// wasm (the page-load budget of docs/size.md); held to it by a test.
pub(super) fn starts_lower_case(c: char) -> bool {
    let u = c as u32;
    match u {
        0x61..=0x7a => true,
        0xdf..=0xff => u != 0xf7,
        0x100..=0x137 | 0x14a..=0x177 => !u.is_multiple_of(2),
        0x139..=0x148 | 0x179..=0x17e => u.is_multiple_of(2),
        0x138 | 0x149 | 0x17f => true,
        _ => false,
    }
}

/// In HTML text: the position after the tags (and whitespace) that open the span, so
/// `<p>Claim` starts at `Claim`.
pub(super) fn skip_tags(text: &str, mut s: usize, end: usize) -> usize {
    loop {
        let rest = &text[s..end];
        let trimmed = rest.trim_start();
        let ws = rest.len() - trimmed.len();
        match trimmed
            .strip_prefix('<')
            .and_then(|t| str_ops::find_str(t, ">"))
        {
            Some(e) if trimmed[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '/') => {
                s += ws + e + 2;
            }
            _ => return s + ws,
        }
    }
}

/// Length of a markdown line prefix: indentation, blockquote `>`, a list bullet or
/// number, a heading's `#`s, a task box.
fn line_prefix_len(line: &str) -> usize {
    let b = line.as_bytes();
    let mut i = 0;
    loop {
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        if i < b.len() && b[i] == b'>' {
            i += 1;
            continue;
        }
        break;
    }
    if i + 1 < b.len() && matches!(b[i], b'-' | b'*' | b'+') && b[i + 1] == b' ' {
        i += 2;
    } else {
        let d = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if d > 0
            && d <= 9
            && i + d + 1 < b.len()
            && matches!(b[i + d], b'.' | b')')
            && b[i + d + 1] == b' '
        {
            i += d + 2;
        } else {
            let h = b[i..].iter().take_while(|&&c| c == b'#').count();
            if (1..=6).contains(&h) && i + h < b.len() && b[i + h] == b' ' {
                i += h + 1;
            }
        }
    }
    while i < b.len() && b[i] == b' ' {
        i += 1;
    }
    if b.len() >= i + 4
        && b[i] == b'['
        && matches!(b[i + 1], b' ' | b'x' | b'X')
        && b[i + 2] == b']'
        && b[i + 3] == b' '
    {
        i += 4;
    }
    i
}
