//! JSON answers with a `_citations` sidecar: a readable key/value view.
//!
//! Objects become `<dl class="cite-json">` (`dt` = key, `dd` = value), arrays
//! `<ol class="cite-json__list">`, strings escaped text, numbers, booleans and `null`
//! `<span class="cite-json__scalar">`. The top-level `_citations` member is not shown.
//! A citation located by [`Location::JsonPointer`] wraps the value at its path in a
//! cited span (`data-c`) and puts its marker right after it; a citation whose path
//! names nothing shown gets its marker at the end. Text that is not valid JSON is
//! shown as plain text with the markers at their offsets. Nesting deeper than
//! [`MAX_VIEW_DEPTH`] is shown as compact JSON text.

use super::markers::MarkerSet;
use super::writer::Inline;
use super::Block;
use crate::core::json_fields::parse_json;
use crate::core::model::{Answer, Location};
use crate::core::ordered_hash::OrderedHashMap;
use crate::render::escape::push_escaped;
use serde_json::Value;

/// Deepest nesting shown as a structure.
pub const MAX_VIEW_DEPTH: usize = 64;

/// Renders a JSON answer as blocks.
pub fn blocks(answer: &Answer, markers: &MarkerSet) -> Vec<Block> {
    let text = &answer.text;
    let Ok(root) = parse_json(text) else {
        return plain(answer, markers);
    };
    let mut at: OrderedHashMap<String, Vec<usize>> = OrderedHashMap::new();
    for (ci, c) in answer.citations.iter().enumerate() {
        if let Some(Location::JsonPointer { path }) = &c.location {
            if let Some(p) = normalize_pointer(path) {
                at.or_default(p).push(ci);
            }
        }
    }
    let mut v = View {
        out: String::with_capacity(text.len() * 2),
        markers,
        at,
        placed: vec![false; answer.citations.len()],
        ptr: String::new(),
    };
    v.value(&root, 0);
    // Markers whose path named nothing shown: at the end, in text order.
    for &(_, ci) in &markers.at {
        if !v.placed.get(ci).copied().unwrap_or(true) {
            if let Some(h) = markers.html.get(ci) {
                v.out.push_str(h);
            }
        }
    }
    vec![Block {
        range: 0..text.len(),
        html: v.out,
    }]
}

/// The text as one `<div class="cite-plain">`, markers at their offsets.
fn plain(answer: &Answer, markers: &MarkerSet) -> Vec<Block> {
    let mut w = Inline::new(&answer.text, markers);
    w.raw("<div class=\"cite-plain\">");
    w.text(0..answer.text.len(), true);
    w.flush_markers(usize::MAX, true);
    w.raw("</div>");
    vec![Block {
        range: 0..answer.text.len(),
        html: w.take(),
    }]
}

/// A JSON Pointer in one spelling (tokens unescaped, then escaped again), or `None`
/// when it is not a pointer.
fn normalize_pointer(p: &str) -> Option<String> {
    if p.is_empty() {
        return Some(String::new());
    }
    let rest = p.strip_prefix('/')?;
    let mut out = String::with_capacity(p.len());
    for t in rest.split('/') {
        out.push('/');
        push_token(&mut out, &t.replace("~1", "/").replace("~0", "~"));
    }
    Some(out)
}

/// Appends `t` escaped as a pointer token.
fn push_token(out: &mut String, t: &str) {
    for c in t.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

struct View<'a> {
    out: String,
    markers: &'a MarkerSet,
    /// Normalized pointer → citations located there.
    at: OrderedHashMap<String, Vec<usize>>,
    placed: Vec<bool>,
    /// The pointer of the value being written.
    ptr: String,
}

impl View<'_> {
    fn value(&mut self, v: &Value, depth: usize) {
        let here: Vec<usize> = if self.at.is_empty() {
            Vec::new()
        } else {
            self.at.get(&self.ptr).cloned().unwrap_or_default()
        };
        let ids = here
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        let block = matches!(v, Value::Object(m) if !m.is_empty() && depth < MAX_VIEW_DEPTH)
            || matches!(v, Value::Array(a) if !a.is_empty() && depth < MAX_VIEW_DEPTH);
        if !here.is_empty() {
            self.out.push_str(if block {
                "<div class=\"cite-span\" data-c=\""
            } else {
                "<span class=\"cite-span\" data-c=\""
            });
            self.out.push_str(&ids);
            self.out.push_str("\">");
        }
        match v {
            Value::String(s) => push_escaped(&mut self.out, s),
            Value::Null => self.scalar("null"),
            Value::Bool(b) => self.scalar(if *b { "true" } else { "false" }),
            Value::Number(n) => self.scalar(&n.to_string()),
            Value::Object(m) if m.is_empty() => self.scalar("{}"),
            Value::Array(a) if a.is_empty() => self.scalar("[]"),
            _ if depth >= MAX_VIEW_DEPTH => {
                let compact = crate::core::json_output::to_compact_json(v);
                self.scalar(&compact);
            }
            Value::Object(m) => {
                self.out.push_str("<dl class=\"cite-json\">");
                for (k, val) in m {
                    if depth == 0 && k == "_citations" {
                        continue;
                    }
                    let len = self.ptr.len();
                    self.ptr.push('/');
                    push_token(&mut self.ptr, k);
                    self.out.push_str("<dt>");
                    push_escaped(&mut self.out, k);
                    self.out.push_str("</dt><dd>");
                    self.value(val, depth + 1);
                    self.out.push_str("</dd>");
                    self.ptr.truncate(len);
                }
                self.out.push_str("</dl>");
            }
            Value::Array(a) => {
                self.out.push_str("<ol class=\"cite-json__list\">");
                for (i, val) in a.iter().enumerate() {
                    let len = self.ptr.len();
                    self.ptr.push('/');
                    self.ptr.push_str(&i.to_string());
                    self.out.push_str("<li>");
                    self.value(val, depth + 1);
                    self.out.push_str("</li>");
                    self.ptr.truncate(len);
                }
                self.out.push_str("</ol>");
            }
        }
        if !here.is_empty() {
            self.out.push_str(if block { "</div>" } else { "</span>" });
        }
        for ci in here {
            if let (Some(h), Some(p)) = (self.markers.html.get(ci), self.placed.get_mut(ci)) {
                if !*p {
                    self.out.push_str(h);
                    *p = true;
                }
            }
        }
    }

    fn scalar(&mut self, s: &str) {
        self.out.push_str("<span class=\"cite-json__scalar\">");
        push_escaped(&mut self.out, s);
        self.out.push_str("</span>");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_normalize() {
        assert_eq!(normalize_pointer(""), Some(String::new()));
        assert_eq!(
            normalize_pointer("/a~1b/m~0n/0"),
            Some("/a~1b/m~0n/0".into())
        );
        assert_eq!(normalize_pointer("/~01"), Some("/~01".into()));
        assert_eq!(normalize_pointer("a"), None);
    }
}
