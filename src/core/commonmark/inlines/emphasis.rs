//! The delimiter stack matched into emphasis, strong and strikethrough, and the events
//! of a parsed leaf.

use super::*;

impl Inl<'_> {
    /// Matches emphasis delimiters above `bottom` of the delimiter stack, then drops them.
    pub(super) fn emphasis(&mut self, bottom: usize) {
        if self.delims.len() <= bottom {
            return;
        }
        // The delimiters above `bottom` as a doubly linked list (removing one is O(1)).
        const NONE: usize = usize::MAX;
        let list: Vec<usize> = self.delims[bottom..].to_vec();
        let m = list.len();
        let mut prev: Vec<usize> = (0..m).map(|i| i.checked_sub(1).unwrap_or(NONE)).collect();
        let mut next: Vec<usize> = (1..=m).collect();
        let unlink = |i: usize, prev: &mut Vec<usize>, next: &mut Vec<usize>| {
            let (p, n) = (prev[i], next[i]);
            if p != NONE {
                next[p] = n;
            }
            if n < m {
                prev[n] = p;
            }
        };
        // openers_bottom per (char, closer can open, orig % 3), as the token from which
        // openers may be found: `*` 0..6, `_` 6..12, `~` 12.
        let mut floor = [0usize; 13];
        let mut ci = if m > 0 { 0 } else { m };
        while ci < m {
            let closer = list[ci];
            let K::Delim {
                ch: cch,
                n: cn,
                orig: corig,
                can_open: c_open,
                can_close: c_close,
                ..
            } = self.toks[closer].k
            else {
                ci = next[ci];
                continue;
            };
            if !c_close || cn == 0 {
                ci = next[ci];
                continue;
            }
            // (One bound for every tilde closer, as pulldown-cmark keeps it.)
            let key = match cch {
                b'~' => 12,
                c => usize::from(c == b'_') * 6 + usize::from(c_open) * 3 + corig % 3,
            };
            let lo_tok = floor[key];
            let mut found = None;
            let mut oi = prev[ci];
            while oi != NONE {
                let opener = list[oi];
                if opener < lo_tok {
                    break;
                }
                if let K::Delim {
                    ch,
                    n,
                    orig,
                    can_open,
                    can_close,
                    ..
                } = self.toks[opener].k
                {
                    if ch == cch && can_open && n > 0 {
                        let ok = if cch == b'~' {
                            n == cn
                        } else {
                            // The rule of three.
                            !((c_open || can_close) && corig % 3 != 0 && (orig + corig) % 3 == 0)
                        };
                        if ok {
                            found = Some(oi);
                            break;
                        }
                    }
                }
                oi = prev[oi];
            }
            let Some(oi) = found else {
                floor[key] = closer;
                let nx = next[ci];
                if !c_open {
                    unlink(ci, &mut prev, &mut next);
                }
                ci = nx;
                continue;
            };
            let opener = list[oi];
            let on = match &self.toks[opener].k {
                K::Delim { n, .. } => *n,
                _ => 0,
            };
            let (used, tag) = if cch == b'~' {
                (cn, TagEnd::Strikethrough)
            } else if cn >= 2 && on >= 2 {
                (2, TagEnd::Strong)
            } else {
                (1, TagEnd::Emphasis)
            };
            if let K::Delim { n, opens, .. } = &mut self.toks[opener].k {
                *n -= used;
                opens.push(tag);
            }
            if let K::Delim { n, closes, .. } = &mut self.toks[closer].k {
                *n -= used;
                closes.push(tag);
            }
            // Delimiters between them are text now.
            next[oi] = ci;
            prev[ci] = oi;
            if on == used {
                unlink(oi, &mut prev, &mut next);
            }
            if cn == used {
                let nx = next[ci];
                unlink(ci, &mut prev, &mut next);
                ci = nx;
            }
        }
        self.delims.truncate(bottom);
    }

    pub(super) fn emit<'a>(
        self,
        text: &'a str,
        map: &[(usize, usize)],
        out: &mut Vec<(Event<'a>, Range<usize>)>,
    ) {
        let src = |p: usize| to_src(map, p);
        let range = |s: usize, e: usize| src(s)..src(e);
        // The source text of a joined range, when it is one piece of the text.
        if self.lean {
            // The whole content as one text, then what is not prose in it.
            out.push((Event::Text(Cow::Borrowed("")), range(0, self.v.len())));
            for tok in &self.toks {
                let ev = match &tok.k {
                    K::Code(_) => Event::Code(Cow::Borrowed("")),
                    K::Html => Event::InlineHtml(Cow::Borrowed("")),
                    K::Soft => Event::SoftBreak,
                    K::Hard => Event::HardBreak,
                    K::LinkStart { image: true, .. } => Event::Start(Tag::Image {
                        dest: Cow::Borrowed(""),
                        title: Cow::Borrowed(""),
                    }),
                    K::LinkStart { email, end, .. } => {
                        let tag = Tag::Link {
                            email: *email,
                            dest: Cow::Borrowed(""),
                            title: Cow::Borrowed(""),
                        };
                        out.push((Event::Start(tag), range(tok.s, *end)));
                        continue;
                    }
                    _ => continue,
                };
                let r = match &tok.k {
                    K::LinkStart { end, .. } => range(tok.s, *end),
                    _ => range(tok.s, tok.e),
                };
                out.push((ev, r));
            }
            return;
        }
        let borrowed = |s: usize, e: usize| -> Cow<'a, str> {
            let (a, b) = (src(s), src(e));
            match text.get(a..b) {
                Some(t) if t.len() == e - s && t == &self.v[s..e] => Cow::Borrowed(t),
                _ => Cow::Owned(self.v[s..e].to_string()),
            }
        };
        // Open emphasis per opener: its closing positions, to give Start its range.
        for (idx, tok) in self.toks.iter().enumerate() {
            let _ = idx;
            match &tok.k {
                K::Text => out.push((Event::Text(borrowed(tok.s, tok.e)), range(tok.s, tok.e))),
                K::Str(s) => {
                    out.push((Event::Text(Cow::Owned(s.to_string())), range(tok.s, tok.e)))
                }
                K::Code(c) => out.push((Event::Code(Cow::Owned(c.clone())), range(tok.s, tok.e))),
                K::Soft => out.push((Event::SoftBreak, range(tok.s, tok.e))),
                K::Hard => out.push((Event::HardBreak, range(tok.s, tok.e))),
                K::Html => out.push((
                    Event::InlineHtml(borrowed(tok.s, tok.e)),
                    range(tok.s, tok.e),
                )),
                K::FnRef(l) => out.push((
                    Event::FootnoteReference(Cow::Owned(l.clone())),
                    range(tok.s, tok.e),
                )),
                K::Open => out.push((Event::Text(borrowed(tok.s, tok.e)), range(tok.s, tok.e))),
                K::Delim {
                    n,
                    orig,
                    opens,
                    closes,
                    ..
                } => {
                    // Closers first use the inner delimiters: ends, then what is left;
                    // openers: what is left, then the starts (outer first).
                    let used_close: usize = closes.iter().map(|t| tag_len(*t)).sum();
                    let mut p = tok.s;
                    for t in closes {
                        let l = tag_len(*t);
                        out.push((Event::End(*t), range(p, p + l)));
                        p += l;
                    }
                    let left_start = tok.s + used_close;
                    let left_end = left_start + n;
                    if *n > 0 {
                        out.push((
                            Event::Text(borrowed(left_start, left_end)),
                            range(left_start, left_end),
                        ));
                    }
                    let mut q = tok.e;
                    let mut starts = Vec::new();
                    for t in opens {
                        let l = tag_len(*t);
                        starts.push((*t, q - l, q));
                        q -= l;
                    }
                    for (t, a, z) in starts.into_iter().rev() {
                        out.push((Event::Start(start_tag(t)), range(a, z)));
                    }
                    let _ = orig;
                }
                K::LinkStart {
                    image,
                    email,
                    dest,
                    title,
                    end,
                } => {
                    let owned = |s: &String| Cow::Owned(s.clone());
                    let tag = if *image {
                        Tag::Image {
                            dest: owned(dest),
                            title: owned(title),
                        }
                    } else {
                        Tag::Link {
                            email: *email,
                            dest: owned(dest),
                            title: owned(title),
                        }
                    };
                    out.push((Event::Start(tag), range(tok.s, *end)));
                }
                K::LinkEnd { image, start } => out.push((
                    Event::End(if *image { TagEnd::Image } else { TagEnd::Link }),
                    range(*start, tok.e),
                )),
            }
        }
    }
}

pub(super) fn tag_len(t: TagEnd) -> usize {
    match t {
        TagEnd::Strong => 2,
        _ => 1,
    }
}

pub(super) fn start_tag(t: TagEnd) -> Tag<'static> {
    match t {
        TagEnd::Strong => Tag::Strong,
        TagEnd::Strikethrough => Tag::Strikethrough,
        _ => Tag::Emphasis,
    }
}
