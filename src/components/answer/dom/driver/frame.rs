//! What a frame draws: the root markup of a whole render (`build`), the parts of a long
//! answer deferred past the first frame, and the footnotes and panel brought up to date
//! once per animation frame after appends, entry by entry, so that a stream does not
//! rebuild its lists on every chunk.

use super::events::upgrade;
use super::{find_nodes, Deferred, Driver, Nodes, NotesKey};
use crate::components::answer::dom::blocks::push_block;
use crate::components::answer::html::{answer_blocks, lists_shown, root_class, root_html, Root};
use crate::components::footnotes::html::{footnotes_html, footnotes_section};
use crate::components::panel::dom::{mark_layout, set_expanded, PanelLayout};
use crate::components::panel::html::{panel_aside, panel_html, PANEL_EAGER};
use crate::core::model::{Answer, ContentKind};
use crate::core::str_ops;
use crate::dom::util as dom;
use crate::render::{self, class, RenderOptions};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::Element;

impl Driver {
    /// Renders the answer into the element: one HTML string, with the parts past the
    /// first screenful of a long answer left to a task after the next frame
    /// ([`Deferred`]).
    pub(super) fn build(&self) {
        let i = &self.0;
        i.deferred.borrow_mut().take();
        let display = i.display.get();
        if display.inject_css {
            dom::inject_css_for(&i.element, crate::dom::CSS);
        } else {
            dom::shadow_root_of(&i.element);
        }
        let r = i.render.borrow().clone();
        let (theme, style) = {
            let o = i.options.borrow();
            (o.theme, render::marker_style_name(o.marker_style))
        };
        let streaming = i.streaming.get();
        // A stream shows its blocks as they come; a selected source must be in the panel.
        let defer = !streaming && i.selected.get().is_none();
        let mut later = Deferred::default();
        let (html, blocks) = self.with_model(|a| {
            let mut blocks = if streaming && a.content_kind == ContentKind::Markdown {
                Vec::new()
            } else {
                answer_blocks(a, &r)
            };
            if defer {
                let first = blocks.partition_point(|b| b.range.start < render::LAZY_AFTER);
                later.blocks = blocks.split_off(first.max(1).min(blocks.len()));
            }
            let (notes, panel) = lists_shown(a, display.footnotes, display.panel);
            let mut body = String::with_capacity(blocks.iter().map(|b| b.html.len() + 32).sum());
            for b in &blocks {
                push_block(&mut body, b);
            }
            let notes_html = if notes {
                footnotes_html(a, &r)
            } else {
                String::new()
            };
            let panel_html = if panel {
                panel_html(a, &r)
            } else {
                String::new()
            };
            let below = defer && a.text.len() >= render::LAZY_AFTER;
            let notes_shown =
                notes.then(|| split_list(&notes_html, below.then_some(0), &mut later.notes));
            let eager = defer.then_some(PANEL_EAGER);
            let panel_shown = panel.then(|| split_list(&panel_html, eager, &mut later.panel));
            let html = root_html(&Root {
                class: root_class(theme, panel),
                id: &r.id_prefix,
                marker_style: style,
                copy: display.copy_button.then(|| r.labels.get("copy")),
                body: &body,
                notes: notes_shown.as_deref(),
                panel: panel_shown.as_deref(),
                card: true,
            });
            *i.notes_html.borrow_mut() = notes_html;
            *i.panel_html.borrow_mut() = panel_html;
            *i.notes_key.borrow_mut() = NotesKey::of(a);
            i.shown_sources.set(a.sources.len());
            (html, blocks)
        });
        i.element.set_inner_html(&html);
        let Some(nodes) = find_nodes(&i.element) else {
            return;
        };
        {
            let mut shown = i.blocks.borrow_mut();
            shown.clear();
            i.defs.borrow_mut().clear();
            let children = nodes.body.children();
            for (k, b) in blocks.into_iter().enumerate() {
                if let Some(el) = children.item(k as u32) {
                    shown.push((b, el));
                }
            }
        }
        *i.layout.borrow_mut() = PanelLayout::watch(&nodes.root);
        *i.nodes.borrow_mut() = Some(nodes);
        i.card_link.borrow_mut().take();
        if streaming {
            self.show_appended(0);
        }
        if let Some(n) = i.selected.get() {
            self.with_model(|a| set_expanded(&r, a, n, true));
        }
        if !(later.blocks.is_empty() && later.notes.is_empty() && later.panel.is_empty()) {
            *i.deferred.borrow_mut() = Some(later);
            let weak = Rc::downgrade(&self.0);
            dom::after_frame(move || {
                if let Some(d) = upgrade(&weak) {
                    d.flush_deferred();
                }
            });
        }
    }

    /// Inserts what `build` left for later (nothing when it is in already).
    pub(super) fn flush_deferred(&self) {
        let i = &self.0;
        let Some(later) = i.deferred.borrow_mut().take() else {
            return;
        };
        let Ok(nodes) = i.nodes.try_borrow() else {
            return;
        };
        let Some(nodes) = nodes.as_ref() else { return };
        if !later.blocks.is_empty() {
            let mut html = String::new();
            for b in &later.blocks {
                push_block(&mut html, b);
            }
            let _ = nodes.body.insert_adjacent_html("beforeend", &html);
            let mut shown = i.blocks.borrow_mut();
            let children = nodes.body.children();
            let first = shown.len();
            for (k, b) in later.blocks.into_iter().enumerate() {
                if let Some(el) = children.item((first + k) as u32) {
                    shown.push((b, el));
                }
            }
        }
        for (items, root, list) in [
            (later.notes, &nodes.answer, class::FOOTNOTES_LIST_SEL),
            (later.panel, &nodes.root, class::PANEL_LIST_SEL),
        ] {
            if items.is_empty() {
                continue;
            }
            if let Ok(Some(ol)) = root.query_selector(list) {
                let _ = ol.insert_adjacent_html("beforeend", &items);
            }
        }
    }

    /// Brings footnotes and panel up to date at the next animation frame (now, where
    /// there are no frames).
    pub(super) fn schedule_notes(&self) {
        let i = &self.0;
        if i.notes_pending.get() {
            return;
        }
        i.notes_pending.set(true);
        // A frame requested before and not needed since (footnotes brought up to date at
        // once by a change in between) is requested again with the same callback: the
        // callback is never dropped while a frame may still call it.
        if let (Some(w), Some((id, callback))) =
            (web_sys::window(), i.notes_frame.borrow_mut().as_mut())
        {
            let _ = w.cancel_animation_frame(*id);
            if let Ok(n) = w.request_animation_frame(callback.as_ref().unchecked_ref()) {
                *id = n;
                return;
            }
        }
        let weak = Rc::downgrade(&self.0);
        let callback = Closure::<dyn FnMut()>::new(move || {
            if let Some(d) = upgrade(&weak) {
                d.flush_notes();
            }
        });
        let id = web_sys::window().and_then(|w| {
            w.request_animation_frame(callback.as_ref().unchecked_ref())
                .ok()
        });
        match id {
            // The callback stays stored (not dropped while it runs); the next one
            // replaces it.
            Some(id) => *i.notes_frame.borrow_mut() = Some((id, callback)),
            None => self.flush_notes(),
        }
    }

    /// Footnotes and panel brought up to date now (a pending frame then finds nothing
    /// to do).
    pub(super) fn flush_notes(&self) {
        let i = &self.0;
        if !i.notes_pending.replace(false) {
            return;
        }
        let Ok(nodes) = i.nodes.try_borrow() else {
            return;
        };
        let Some(nodes) = nodes.as_ref() else { return };
        let r = i.render.borrow().clone();
        self.with_model(|a| self.sync_notes(nodes, a, &r, false));
    }

    /// Brings footnotes and panel in line with `a` when what they show changed.
    pub(super) fn sync_notes(&self, nodes: &Nodes, a: &Answer, r: &RenderOptions, force: bool) {
        let i = &self.0;
        let Ok(mut key) = i.notes_key.try_borrow_mut() else {
            return;
        };
        if !force && key.same_about(a) && key.matches(a) {
            return;
        }
        *key = NotesKey::of(a);
        drop(key);
        let d = i.display.get();
        let (notes, panel) = lists_shown(a, d.footnotes, d.panel);
        sync_list(
            notes.then(|| footnotes_html(a, r)),
            (&nodes.answer, class::FOOTNOTES_SEL),
            &mut i.notes_html.borrow_mut(),
            |inner| footnotes_section(&r.id_prefix, inner),
            (&nodes.answer, "beforeend"),
        );
        sync_list(
            panel.then(|| panel_html(a, r)),
            (&nodes.root, class::PANEL_SEL),
            &mut i.panel_html.borrow_mut(),
            |inner| panel_aside(&r.id_prefix, inner),
            (&nodes.card, "beforebegin"),
        );
        self.set_root_class(nodes, a);
        if let Some(n) = i.selected.get() {
            set_expanded(r, a, n, true);
        }
    }

    /// The root's class: the theme, and whether the panel sits beside the answer.
    pub(super) fn set_root_class(&self, nodes: &Nodes, a: &Answer) {
        let i = &self.0;
        let panel = lists_shown(a, false, i.display.get().panel).1;
        let class = root_class(i.options.borrow().theme, panel);
        if nodes.root.class_name() != class {
            nodes.root.set_class_name(&class);
            // The panel came or went: the root's size may be the same.
            mark_layout(&nodes.root);
        }
    }
}

/// A list's HTML (footnotes, panel) with its entries after the first `keep` moved to
/// `later`; all of it when `keep` is `None`.
pub(super) fn split_list(html: &str, keep: Option<usize>, later: &mut String) -> String {
    let Some(keep) = keep else {
        return html.to_string();
    };
    let (head, items, tail) = list_parts(html);
    if items.len() <= keep {
        return html.to_string();
    }
    later.push_str(&items[keep..].concat());
    let mut out = String::with_capacity(html.len() - later.len());
    out.push_str(head);
    out.push_str(&items[..keep].concat());
    out.push_str(tail);
    out
}

/// The parts of a list's HTML (footnotes, panel): what comes before the first
/// `<li `, each entry, and what follows the last one. Our markup only: every `<` of
/// the text in it is escaped, so each `<li ` opens one of our entries.
pub(super) fn list_parts(html: &str) -> (&str, Vec<&str>, &str) {
    let starts: Vec<usize> = str_ops::offsets(html, "<li ").collect();
    let Some(&first) = starts.first() else {
        return (html, Vec::new(), "");
    };
    let end = str_ops::rfind_str(html, "</ol>")
        .filter(|&e| e > first)
        .unwrap_or(html.len());
    let mut items = Vec::with_capacity(starts.len());
    for (k, &s) in starts.iter().enumerate() {
        let e = starts.get(k + 1).copied().unwrap_or(end);
        items.push(&html[s..e]);
    }
    (&html[..first], items, &html[end..])
}

/// Brings one list section (footnotes or panel) to `html`: patched in place when it is
/// shown (the child of `parent` matching `sel`), written whole (`wrap`ped, at `at`'s
/// position) when it is missing, removed when `html` is `None`. `shown` is the list
/// HTML it shows.
pub(super) fn sync_list(
    html: Option<String>,
    (parent, sel): (&Element, &str),
    shown: &mut String,
    wrap: impl FnOnce(&str) -> String,
    (anchor, position): (&Element, &str),
) {
    let el = parent
        .query_selector(&format!(":scope > {sel}"))
        .ok()
        .flatten();
    match (html, el) {
        (Some(html), Some(el)) => patch_list(&el, shown, html),
        (Some(html), None) => {
            *shown = html;
            let _ = anchor.insert_adjacent_html(position, &wrap(shown));
        }
        (None, Some(el)) => el.remove(),
        (None, None) => {}
    }
}

/// Brings a list section from the HTML it shows (`shown`) to `html`: when its heading
/// is the same, only the entries that changed are replaced and new ones at the end
/// added with one HTML string; otherwise it is written whole.
pub(super) fn patch_list(section: &Element, shown: &mut String, html: String) {
    if *shown == html {
        return;
    }
    let patched = (|| {
        let (old_head, old_items, old_tail) = list_parts(shown);
        let (head, items, tail) = list_parts(&html);
        if old_tail != tail || old_items.is_empty() {
            return None;
        }
        let list = section.query_selector("ol").ok()??;
        if old_head != head {
            // Only the heading (its quote of the answer) changed: that element alone.
            let (old_title, old_open) = old_head.split_at(str_ops::rfind_str(old_head, "<ol")?);
            let (title, open) = head.split_at(str_ops::rfind_str(head, "<ol")?);
            if old_open != open || !title.starts_with("<h2") || !old_title.starts_with("<h2") {
                return None;
            }
            section.first_element_child()?.set_outer_html(title);
        }
        let children = list.children();
        if children.length() as usize != old_items.len() {
            return None;
        }
        let common = old_items.len().min(items.len());
        let changed = (0..common).filter(|&k| old_items[k] != items[k]).count();
        if changed * 2 > common.max(1) && changed > 4 {
            return None;
        }
        for k in 0..common {
            if old_items[k] != items[k] {
                children.item(k as u32)?.set_outer_html(items[k]);
            }
        }
        for _ in common..old_items.len() {
            list.last_element_child()?.remove();
        }
        if items.len() > common {
            let added: String = items[common..].concat();
            list.insert_adjacent_html("beforeend", &added).ok()?;
        }
        Some(())
    })();
    if patched.is_none() {
        section.set_inner_html(&html);
    }
    *shown = html;
}
