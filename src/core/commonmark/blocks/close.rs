//! Closing a block: what a paragraph's reference definitions take from it, a list's
//! tightness, whether a block ends in a blank line.

use super::*;

impl Parser<'_> {
    /// Closes block `n` whose last line ended before `at` (the start of the line
    /// that does not continue it, or the end of the text).
    pub(super) fn finalize(&mut self, n: usize, at: usize) {
        let _ = at;
        self.nodes[n].open = false;
        let parent = self.nodes[n].parent;
        match self.nodes[n].kind {
            Kind::Para => self.para_defs(n),
            Kind::Indented => {
                // Trailing blank lines are not part of the block.
                while let Some(l) = self.nodes[n].lines.last() {
                    if self.b[l.s..l.e].iter().all(|c| matches!(c, b' ' | b'\t')) {
                        self.nodes[n].lines.pop();
                    } else {
                        break;
                    }
                }
            }
            Kind::List { .. } => self.list_tightness(n),
            _ => {}
        }
        // A container ends where its last child ends, at least.
        if let Some(&last) = self.nodes[n].children.last() {
            let e = self.nodes[last].end;
            if e > self.nodes[n].end {
                self.nodes[n].end = e;
            }
        }
        if n != 0 {
            let e = self.nodes[n].end;
            if e > self.nodes[parent].end {
                self.nodes[parent].end = e;
            }
        }
        self.tip = parent;
    }

    /// Reference definitions at the start of a paragraph: recorded and taken out.
    pub(super) fn para_defs(&mut self, n: usize) {
        loop {
            let lines = &self.nodes[n].lines;
            if lines.is_empty() {
                break;
            }
            // (A paragraph line's leading blanks are not its content, nor a title's.)
            let b = self.b;
            let bare: Vec<Line> = lines
                .iter()
                .map(|&l| {
                    let mut l = l;
                    while l.s < l.e && matches!(b[l.s], b' ' | b'\t') {
                        l.s += 1;
                    }
                    l
                })
                .collect();
            let (virt, map) = inlines::join(self.text, &bare);
            let Some((label, dest, title, used)) = inlines::ref_def(&virt) else {
                break;
            };
            // `used` ends at a line end of the joined text: drop those lines.
            let mut drop = 0;
            for (k, &(vs, _)) in map.iter().enumerate() {
                if vs >= used {
                    break;
                }
                drop = k + 1;
            }
            if let (Some(first), Some(last)) = (lines.first(), lines.get(drop.max(1) - 1)) {
                self.def_ranges.push(first.s..last.e);
            }
            let key = super::super::link_key(&label);
            if !key.is_empty() {
                self.defs.push((key, dest, title));
            }
            self.nodes[n].lines.drain(..drop);
            // The paragraph's text now starts at its first line's first non-blank.
            if let Some(l) = self.nodes[n].lines.first_mut() {
                while l.s < l.e && matches!(self.b[l.s], b' ' | b'\t') {
                    l.s += 1;
                }
                l.pad = 0;
                self.nodes[n].start = l.s;
            }
        }
    }

    /// How many lines of paragraph `n` are text (not reference definitions).
    pub(super) fn text_lines(&self, n: usize) -> usize {
        let lines = &self.nodes[n].lines;
        let (virt, map) = inlines::join(self.text, lines);
        let mut used = 0;
        let mut offset = 0;
        loop {
            // Each line after a definition starts at its first non-blank (as in
            // `para_defs`).
            let rest = virt.get(offset..).unwrap_or("");
            let trimmed = rest.trim_start_matches([' ', '\t']);
            let Some((_, _, _, end)) = inlines::ref_def(trimmed) else {
                break;
            };
            offset += rest.len() - trimmed.len() + end;
            used = map.iter().take_while(|&&(vs, _)| vs < offset).count();
            if offset >= virt.len() {
                break;
            }
        }
        lines.len() - used
    }

    pub(super) fn list_tightness(&mut self, n: usize) {
        let items = self.nodes[n].children.clone();
        let mut tight = true;
        'outer: for (k, &item) in items.iter().enumerate() {
            let more_items = k + 1 < items.len();
            if self.ends_blank(item) && more_items {
                tight = false;
                break;
            }
            let subs = &self.nodes[item].children;
            for (j, &sub) in subs.iter().enumerate() {
                if self.ends_blank(sub) && (more_items || j + 1 < subs.len()) {
                    tight = false;
                    break 'outer;
                }
            }
        }
        if let Kind::List { tight: t, .. } = &mut self.nodes[n].kind {
            *t = tight;
        }
    }

    pub(super) fn ends_blank(&self, mut n: usize) -> bool {
        loop {
            if self.nodes[n].last_blank {
                return true;
            }
            match self.nodes[n].kind {
                Kind::List { .. } | Kind::Item { .. } => match self.nodes[n].children.last() {
                    Some(&c) => n = c,
                    None => return false,
                },
                _ => return false,
            }
        }
    }
}
