//! Writes answer text with markers and cited-span anchors inserted at byte positions.
//!
//! A cited span is not wrapped: an empty hidden `<i class="cite-s" data-s="{ci}">` marks
//! where it starts, and its marker where it ends. The components highlight the text
//! between the two with the CSS Custom Highlight API (no extra boxes to lay out).

use super::markers::MarkerSet;
use crate::render::escape::push_escaped;
use std::ops::Range;

/// An output buffer over the answer text that knows where markers and spans go.
pub(crate) struct Inline<'a> {
    text: &'a str,
    m: &'a MarkerSet,
    next: usize,
    out: String,
    /// Citations whose start anchor is written (from the marker set's first one).
    started: Vec<bool>,
}

impl<'a> Inline<'a> {
    pub(crate) fn new(text: &'a str, m: &'a MarkerSet) -> Self {
        Inline {
            text,
            m,
            next: 0,
            // Grown as written: a streaming render writes only the open tail of a long
            // answer.
            out: String::new(),
            started: vec![false; m.html.len()],
        }
    }

    /// Skips the markers standing before `pos` (rendering starts there).
    pub(crate) fn skip_before(&mut self, pos: usize) {
        self.next = self.m.at.partition_point(|&(p, _)| p < pos);
    }

    /// The answer text of `r`, if `r` is a valid range.
    pub(crate) fn slice(&self, r: Range<usize>) -> Option<&'a str> {
        self.text.get(r)
    }

    /// Writes every marker standing before `pos` (or at it, when `inclusive`).
    pub(crate) fn flush_markers(&mut self, pos: usize, inclusive: bool) {
        while let Some(&(p, ci)) = self.m.at.get(self.next) {
            if p < pos || (inclusive && p == pos) {
                self.out.push_str(&self.m.html[ci]);
                self.next += 1;
            } else {
                break;
            }
        }
    }

    /// Writes `text[r]` escaped. When `splittable`, markers standing inside the range
    /// are inserted where they stand and cited spans are wrapped for highlighting;
    /// otherwise (code, or event text that differs from the source) it is written whole.
    pub(crate) fn text(&mut self, r: Range<usize>, splittable: bool) {
        let Some(s) = self.text.get(r.clone()) else {
            return;
        };
        if !splittable {
            self.cited(r.start, s);
            return;
        }
        self.flush_markers(r.start, true);
        let mut a = r.start;
        while a < r.end {
            let mut b = r.end;
            if let Some(&(p, _)) = self.m.at.get(self.next) {
                if p > a && p < b {
                    b = p;
                }
            }
            for nb in [self.m.next_boundary(a), self.m.next_link_boundary(a)]
                .into_iter()
                .flatten()
            {
                if nb > a && nb < b {
                    b = nb;
                }
            }
            while !self.text.is_char_boundary(b) {
                b += 1;
            }
            self.piece(a..b);
            a = b;
            if a < r.end {
                self.flush_markers(a, true);
            }
        }
    }

    /// Writes `s` (not a slice of the answer, e.g. an entity's expansion) escaped, inside
    /// the cited span active at `at`.
    pub(crate) fn literal(&mut self, s: &str, at: usize) {
        self.flush_markers(at, true);
        self.cited(at, s);
    }

    fn piece(&mut self, r: Range<usize>) {
        let s = &self.text[r.clone()];
        match self.m.link_at(r.start) {
            // An identifier the sources link (`MKT-1183`): its text, as a link.
            Some(url) => {
                let url = url.to_string();
                self.cited_link(r.start, s, Some(&url));
            }
            None => self.cited(r.start, s),
        }
    }

    /// Writes `s` (text at byte `pos`) escaped, after the start anchor of every cited
    /// span active there that has none yet (anchors go before visible text only).
    fn cited(&mut self, pos: usize, s: &str) {
        self.cited_link(pos, s, None);
    }

    /// [`cited`](Self::cited), the text inside a link to `url` when given.
    fn cited_link(&mut self, pos: usize, s: &str, url: Option<&str>) {
        let active = self.m.active_at(pos);
        if active.is_empty() || s.trim().is_empty() {
            self.push_text(s, url);
            return;
        }
        for id in crate::core::str_ops::split(active, " ") {
            let Some(ci) = crate::core::str_ops::uint_as::<usize>(id) else {
                continue;
            };
            let k = ci.checked_sub(self.m.html.first());
            if let Some(done) = k.and_then(|k| self.started.get_mut(k)) {
                if !*done {
                    *done = true;
                    self.out.push_str("<i class=\"");
                    self.out.push_str(crate::render::class::SPAN_START);
                    self.out.push_str("\" data-s=\"");
                    self.out.push_str(id);
                    self.out.push_str("\" hidden></i>");
                }
            }
        }
        self.push_text(s, url);
    }

    fn push_text(&mut self, s: &str, url: Option<&str>) {
        match url {
            Some(url) => {
                self.out.push_str("<a class=\"cite-ident\" href=\"");
                push_escaped(&mut self.out, url);
                self.out
                    .push_str("\" rel=\"noopener noreferrer nofollow\" target=\"_blank\">");
                push_escaped(&mut self.out, s);
                self.out.push_str("</a>");
            }
            None => push_escaped(&mut self.out, s),
        }
    }

    /// Appends HTML that citekit made (tags, attributes from citekit only).
    pub(crate) fn raw(&mut self, html: &str) {
        self.out.push_str(html);
    }

    /// Appends escaped text that is not part of the answer's cited spans.
    pub(crate) fn escaped(&mut self, s: &str) {
        push_escaped(&mut self.out, s);
    }

    /// What was written since the last [`take`](Self::take).
    #[cfg(feature = "answer-kinds")]
    pub(crate) fn pending(&self) -> &str {
        &self.out
    }

    /// Takes what was written so far.
    pub(crate) fn take(&mut self) -> String {
        std::mem::take(&mut self.out)
    }
}
