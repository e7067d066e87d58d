//! [`TextSyntax::Html`](super::TextSyntax::Html): tags are protected, and so are the
//! contents of elements whose text is code or already a link (`<pre>`, `<code>`,
//! `<script>`, `<style>`, `<textarea>`, `<a>`); markers are looked for in the rest.

use super::syntax::{self, Found};
use super::{Ctx, Grammar};
use crate::core::commonmark::spans::{read_attrs, Find};

const SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'<' as usize] = true;
    t[b'[' as usize] = true;
    t[0xe3] = true;
    t[0xef] = true;
    t[0xee] = true;
    t
};

/// Elements whose whole content is protected.
const OPAQUE: [&[u8]; 6] = [b"pre", b"code", b"script", b"style", b"textarea", b"a"];

#[derive(Default)]
struct Finds {
    comment: Find,
    pi: Find,
    decl: Find,
    cdata: Find,
    entity: Find,
    /// `</name` searches, one cache per opaque element.
    close: [CloseFind; 6],
}

/// Where the next `</name` (any case) is, cached like [`Find`].
#[derive(Default, Clone, Copy)]
struct CloseFind {
    from: usize,
    at: Option<usize>,
    valid: bool,
}

impl CloseFind {
    fn get(&mut self, b: &[u8], p: usize, name: &[u8]) -> Option<usize> {
        if self.valid && p >= self.from && self.at.is_none_or(|a| a >= p) {
            return self.at;
        }
        let mut i = p;
        let mut r = None;
        while let Some(k) = b
            .get(i..)
            .and_then(|s| crate::core::str_ops::find(s, b"</"))
        {
            let at = i + k;
            let n = at + 2;
            if b.get(n..n + name.len())
                .is_some_and(|x| x.eq_ignore_ascii_case(name))
                && !b
                    .get(n + name.len())
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'-')
            {
                r = Some(at);
                break;
            }
            i = at + 2;
        }
        self.from = p;
        self.at = r;
        self.valid = true;
        r
    }
}

/// Scans the whole text as HTML.
pub(super) fn run(ctx: &mut Ctx<'_>) {
    let b = ctx.b;
    let e = b.len();
    let mut f = Finds::default();
    let mut i = 0;
    while i < e {
        while i < e && !SPECIAL[b[i] as usize] {
            i += 1;
        }
        if i >= e {
            break;
        }
        i = match b[i] {
            b'<' => tag(ctx, &mut f, i),
            b'[' => {
                // Markers are skipped whole even when not wanted (protected regions).
                let probe = Grammar {
                    html_sup: false,
                    ..Grammar::ALL
                };
                let g = if ctx.want { ctx.g } else { probe };
                if ctx.want || !ctx.limit_hit {
                    match syntax::bracket(ctx.text, i, e, &g) {
                        Found::Marker { end, kind, keys } => {
                            if ctx.want {
                                ctx.push_marker(i..end, kind, keys);
                            }
                            end
                        }
                        Found::Malformed { end, why } => {
                            ctx.push_malformed(i..end, why);
                            i + 1
                        }
                        Found::None => i + 1,
                    }
                } else {
                    i + 1
                }
            }
            0xe3 | 0xef => {
                if ctx.want {
                    match syntax::fullwidth(ctx.text, i, e, &ctx.g) {
                        Found::Marker { end, kind, keys } => {
                            ctx.push_marker(i..end, kind, keys);
                            end
                        }
                        Found::Malformed { end, why } => {
                            ctx.push_malformed(i..end, why);
                            end
                        }
                        Found::None => i + 1,
                    }
                } else {
                    i + 1
                }
            }
            0xee => {
                // Entities are skipped whole even when markers are not wanted.
                if !ctx.want || ctx.g.openai {
                    let finder = &mut f.entity;
                    match syntax::private_use(ctx.text, i, false, |p| {
                        finder.get(b, p, e, "\u{e201}".as_bytes())
                    }) {
                        Found::Marker { end, kind, keys } => {
                            if ctx.want {
                                ctx.push_marker(i..end, kind, keys);
                            }
                            end
                        }
                        _ => i + 1,
                    }
                } else {
                    i + 1
                }
            }
            _ => i + 1,
        };
    }
}

/// A `<` at `i`: the cite marker, a tag (protected), or text.
fn tag(ctx: &mut Ctx<'_>, f: &mut Finds, i: usize) -> usize {
    let b = ctx.b;
    let e = b.len();
    if ctx.want && ctx.g.html_sup {
        match syntax::sup(ctx.text, i, e) {
            Found::Marker { end, kind, keys } => {
                ctx.push_marker(i..end, kind, keys);
                return end;
            }
            Found::Malformed { end, why } => {
                ctx.push_malformed(i..end, why);
            }
            Found::None => {}
        }
    }
    let Some(&c1) = b.get(i + 1) else {
        return i + 1;
    };
    let end = match c1 {
        b'!' if b.get(i + 2..i + 4) == Some(b"--") => f
            .comment
            .get(b, i + 4, e, b"-->")
            .map(|k| k + 3)
            .unwrap_or(e),
        b'!' if b.get(i + 2..i + 9) == Some(b"[CDATA[") => {
            f.cdata.get(b, i + 9, e, b"]]>").map(|k| k + 3).unwrap_or(e)
        }
        b'!' => match f.decl.get(b, i + 2, e, b">") {
            Some(k) => k + 1,
            None => return i + 1,
        },
        b'?' => match f.pi.get(b, i + 2, e, b"?>") {
            Some(k) => k + 2,
            None => return i + 1,
        },
        b'/' => {
            let mut j = i + 2;
            if !b.get(j).is_some_and(u8::is_ascii_alphabetic) {
                return i + 1;
            }
            while j < e && (b[j].is_ascii_alphanumeric() || b[j] == b'-') {
                j += 1;
            }
            while j < e && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if j < e && b[j] == b'>' {
                j + 1
            } else {
                return i + 1;
            }
        }
        c if c.is_ascii_alphabetic() => {
            let ns = i + 1;
            let mut j = ns;
            while j < e && (b[j].is_ascii_alphanumeric() || b[j] == b'-') {
                j += 1;
            }
            let name_end = j;
            let lim = e.min(j + ctx.lookahead());
            let Some((end, self_closing)) = read_attrs(b, j, lim, |_| {}) else {
                ctx.spend(lim - i);
                return i + 1;
            };
            ctx.spend(end - i);
            let name = &b[ns..name_end];
            if !self_closing {
                if let Some(k) = OPAQUE.iter().position(|t| t.eq_ignore_ascii_case(name)) {
                    let close = f.close[k].get(b, end, name);
                    let stop = match close {
                        Some(at) => match crate::core::str_ops::memchr(b'>', &b[at..]) {
                            Some(g) => at + g + 1,
                            None => e,
                        },
                        // An unclosed `<a>` protects only its tag; unclosed code runs on.
                        None if k == OPAQUE.len() - 1 => end,
                        None => e,
                    };
                    ctx.protect(i, stop);
                    return stop;
                }
            }
            end
        }
        _ => return i + 1,
    };
    ctx.protect(i, end);
    end
}
