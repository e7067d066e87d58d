//! Bringing rendered markup up to date in place. The new HTML is parsed off-document
//! (in a `<template>`) and the live nodes are changed to match it: elements that stay
//! keep their identity, so the reader sees no flash, a focused marker keeps focus, an
//! open card keeps its anchor and a host app's references to the nodes stay valid.
//!
//! Children are paired in order: a new node takes the first old one within a few
//! places that has its tag (text with text), old nodes skipped over are removed, and a
//! new node with no partner is inserted. A marker (`data-cite`) and a span anchor
//! (`data-s`) pair only with the old one of the same citation, which may have had
//! another index (`cite_of`).

use crate::render::class;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlTemplateElement, Node};

/// How far ahead an old node is looked for before a new node is inserted instead.
const WINDOW: usize = 6;

/// Attributes the components set at run time (the open card's anchor and state); the
/// markup never writes these values, so they are kept when the new markup lacks them.
const RUNTIME_ATTRS: &[(&str, &[&str])] = &[
    ("aria-describedby", &[]),
    ("data-state", &["open", "closed"]),
];

/// Classes the components toggle at run time (the highlight).
const RUNTIME_CLASSES: &[&str] = &[class::ACTIVE];

/// Parses `html` into a detached fragment's root (a `<template>`'s content).
pub(crate) fn parse(html: &str) -> Option<Node> {
    let doc = web_sys::window()?.document()?;
    let template: HtmlTemplateElement = doc.create_element("template").ok()?.dyn_into().ok()?;
    template.set_inner_html(html);
    Some(template.content().into())
}

/// Makes the children of `el` match `html`. `cite_of` maps an old marker's citation
/// index to the index it has now (`None`: the citation is gone).
pub(crate) fn morph_inner(el: &Element, html: &str, cite_of: &dyn Fn(usize) -> Option<usize>) {
    match parse(html) {
        Some(fragment) => morph_children(el.as_ref(), &fragment, cite_of),
        None => el.set_inner_html(html),
    }
}

/// Makes `old` (an element or a text node) match `new`, which has its kind and tag.
pub(crate) fn morph_node(old: &Node, new: &Node, cite_of: &dyn Fn(usize) -> Option<usize>) {
    match (old.dyn_ref::<Element>(), new.dyn_ref::<Element>()) {
        (Some(o), Some(n)) => {
            sync_attributes(o, n);
            morph_children(old, new, cite_of);
        }
        _ => {
            if old.node_value() != new.node_value() {
                old.set_node_value(new.node_value().as_deref());
            }
        }
    }
}

fn children(n: &Node) -> Vec<Node> {
    let list = n.child_nodes();
    (0..list.length()).filter_map(|i| list.item(i)).collect()
}

/// Whether `old` can become `new` in place.
fn pairs(old: &Node, new: &Node, cite_of: &dyn Fn(usize) -> Option<usize>) -> bool {
    if old.node_type() != new.node_type() {
        return false;
    }
    let (Some(o), Some(n)) = (old.dyn_ref::<Element>(), new.dyn_ref::<Element>()) else {
        return true;
    };
    if o.tag_name() != n.tag_name() {
        return false;
    }
    CITATION_ATTRS.iter().all(|attr| {
        let cite = |e: &Element| {
            e.get_attribute(attr)
                .and_then(|v| crate::core::str_ops::uint_as(&v))
        };
        match (cite(o), cite(n)) {
            (Some(a), Some(b)) => cite_of(a) == Some(b),
            (None, None) => true,
            _ => false,
        }
    })
}

/// Attributes that name a citation by index: a marker (`data-cite`) and the anchor where
/// its span starts (`data-s`) pair only with the old element of the same citation.
const CITATION_ATTRS: &[&str] = &["data-cite", "data-s"];

fn morph_children(old: &Node, new: &Node, cite_of: &dyn Fn(usize) -> Option<usize>) {
    let olds = children(old);
    let mut next = 0;
    for n in children(new) {
        let found = (next..olds.len().min(next + WINDOW)).find(|&k| pairs(&olds[k], &n, cite_of));
        match found {
            Some(k) => {
                for skipped in &olds[next..k] {
                    let _ = old.remove_child(skipped);
                }
                morph_node(&olds[k], &n, cite_of);
                next = k + 1;
            }
            None => {
                // Moved out of the template into the document, before the next old node.
                let _ = old.insert_before(&n, olds.get(next));
            }
        }
    }
    for rest in &olds[next..] {
        let _ = old.remove_child(rest);
    }
}

fn sync_attributes(old: &Element, new: &Element) {
    let names: Vec<String> = new
        .get_attribute_names()
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    for name in &names {
        let mut value = new.get_attribute(name).unwrap_or_default();
        if name == "class" {
            let had = old.class_list();
            for c in RUNTIME_CLASSES {
                if had.contains(c) && !value.split_whitespace().any(|x| x == *c) {
                    value.push(' ');
                    value.push_str(c);
                }
            }
        }
        if old.get_attribute(name).as_deref() != Some(value.as_str()) {
            let _ = old.set_attribute(name, &value);
        }
    }
    for name in old
        .get_attribute_names()
        .iter()
        .filter_map(|v| v.as_string())
    {
        if names.contains(&name) {
            continue;
        }
        let keep = RUNTIME_ATTRS.iter().any(|(attr, values)| {
            *attr == name
                && (values.is_empty()
                    || old
                        .get_attribute(&name)
                        .is_some_and(|v| values.contains(&v.as_str())))
        });
        if name == "class" {
            let had = old.class_list();
            let kept = crate::core::str_ops::join(
                &mut RUNTIME_CLASSES.iter().copied().filter(|c| had.contains(c)),
                " ",
            );
            if kept.is_empty() {
                let _ = old.remove_attribute("class");
            } else {
                let _ = old.set_attribute("class", &kept);
            }
            continue;
        }
        if !keep {
            let _ = old.remove_attribute(&name);
        }
    }
}
