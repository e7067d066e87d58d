//! Bringing the body from the answer it shows to a new one: markers patched in place,
//! changed blocks morphed, the open tail rendered again.

use crate::components::answer::html::markers::MarkerSet;
use crate::components::answer::html::stream_view::{
    render_tail, stream_view_text, tail_start, StreamDefs,
};
use crate::components::answer::html::{answer_blocks, markdown, Block};
use crate::core::live::StreamInfo;
use crate::core::model::Answer;
use crate::dom::morph;
use crate::dom::util as dom;
use crate::render::class;
use crate::render::{self, RenderOptions};
use wasm_bindgen::JsCast;
use web_sys::Element;

/// The answer the body shows, its render options and the stream state it was shown in.
pub(crate) type Shown<'a> = (&'a Answer, &'a RenderOptions, StreamInfo);

/// Writes a rendered block as its element. Blocks that start past about a
/// screenful of text skip layout and paint until they scroll near
/// (`content-visibility: auto`); the first ones do not, because for content already in
/// view that costs a second layout in the first frame. Each block takes its direction
/// from its own text (`dir="auto"`): an Arabic or Hebrew paragraph reads right to left,
/// its markers at its end, on a left-to-right page.
pub(crate) fn push_block(out: &mut String, b: &Block) {
    out.push_str(if b.range.start >= render::LAZY_AFTER {
        "<div class=\"cite-block cite-block--lazy\" dir=\"auto\">"
    } else {
        "<div class=\"cite-block\" dir=\"auto\">"
    });
    out.push_str(&b.html);
    out.push_str("</div>");
}

/// Brings the body from showing `prev` to showing `a`, settling in place: when the text
/// already shown stays the same (sources arrived, numbers moved, the stream finished),
/// only the markers that changed are patched and only the open tail is rendered again;
/// otherwise every block is rendered and the changed ones are brought in line node by
/// node. `defs` are the reference definitions of the blocks shown while streaming
/// ([`render_stream_tail`]). Returns whether markers already shown changed.
pub(crate) fn show_answer(
    body: &Element,
    blocks: &mut Vec<(Block, Element)>,
    defs: &mut StreamDefs,
    prev: Option<Shown<'_>>,
    a: &Answer,
    r: &RenderOptions,
    info: StreamInfo,
) -> bool {
    use crate::core::model::ContentKind;
    let markdown = a.content_kind == ContentKind::Markdown;
    let same = |i: usize| Some(i);
    if !info.streaming {
        // Rendered otherwise than by `render_stream_tail`: a stream that starts again
        // reads the definitions of the text it keeps anew.
        defs.clear();
    }
    let old = prev.filter(|(old, old_r, _)| {
        *old_r == r && old.content_kind == a.content_kind && old.show_citations == a.show_citations
    });
    let Some((old, _, old_info)) = old else {
        if info.streaming && markdown {
            render_stream_tail(body, blocks, defs, a, r, 0, &same);
        } else {
            patch_blocks(body, blocks, answer_blocks(a, r), &same);
        }
        return true;
    };
    // Text shown before this point was final (the stream's stable part, or all of a
    // finished answer); only its markers may have changed.
    let fixed = if old_info.streaming {
        info.prev_stable
    } else {
        old.text.len()
    }
    .min(old.text.len())
    .min(a.text.len());
    // While text streams in, the stable part is known not to change: no need to compare
    // it (that would cost the whole answer on every chunk).
    let text_same = (info.streaming && old_info.streaming && !info.reread)
        || (old.text.as_bytes()[..fixed] == a.text.as_bytes()[..fixed]
            && old
                .links
                .iter()
                .filter(|l| l.start < fixed)
                .eq(a.links.iter().filter(|l| l.start < fixed)));
    let settle = crate::core::stream::settle(old, a, fixed);
    // A whole-document parse can read the finished blocks differently (a reference
    // definition makes `[text][1]` a link in a block shown before it came; the core
    // reads that `[1]` as link text, not as a marker): then every block is compared.
    let final_render = !info.streaming && old_info.streaming;
    let fast = markdown
        && text_same
        && !settle.moved
        && !(final_render && crate::core::str_ops::find(a.text.as_bytes(), b"]:").is_some());
    if fast {
        patch_markers(body, a, r, &settle.markers);
        if info.streaming {
            render_stream_tail(body, blocks, defs, a, r, fixed, &same);
        } else if final_render || a.text.len() != fixed || old.text.len() != fixed {
            // The text grew, or shrank to a prefix of itself (down to empty: a chat
            // clearing an answer before it is regenerated): the tail is drawn again.
            render_final_tail(body, blocks, a, r, fixed);
        }
        return !settle.markers.is_empty();
    }
    let cite_of = |i: usize| settle.map.get(i).copied().flatten();
    if info.streaming && markdown {
        render_stream_tail(body, blocks, defs, a, r, 0, &cite_of);
    } else {
        patch_blocks(body, blocks, answer_blocks(a, r), &cite_of);
    }
    true
}

/// Patches the markers of citations `cis` in place (number text, link target, label,
/// pending or live): the `<sup>` and its links stay the same nodes.
pub(crate) fn patch_markers(body: &Element, a: &Answer, r: &RenderOptions, cis: &[usize]) {
    let Some(from) = cis
        .iter()
        .filter_map(|&ci| a.citations.get(ci).map(|c| c.end))
        .min()
    else {
        return;
    };
    let markers = MarkerSet::from(a, r, from);
    let mut html = String::new();
    for &ci in cis {
        if let Some(h) = markers.html.get(ci) {
            html.push_str(h);
        }
    }
    let Some(fragment) = morph::parse(&html) else {
        return;
    };
    let Some(fragment) = fragment.dyn_ref::<web_sys::DocumentFragment>() else {
        return;
    };
    let Ok(fresh) = fragment.query_selector_all(&format!("{}[data-cite]", class::MARKER_SEL))
    else {
        return;
    };
    // In the order of `cis` (ascending), so found by binary search.
    let by_cite: Vec<(usize, web_sys::Node)> = (0..fresh.length())
        .filter_map(|i| fresh.item(i))
        .filter_map(|n| Some((dom::data_num::<usize>(n.dyn_ref::<Element>()?, "cite")?, n)))
        .collect();
    for old in dom::query_all(body, &format!("{}[data-cite]", class::MARKER_SEL)) {
        let Some(ci) = dom::data_num::<usize>(&old, "cite") else {
            continue;
        };
        if let Ok(k) = by_cite.binary_search_by_key(&ci, |(c, _)| *c) {
            morph::morph_node(old.as_ref(), &by_cite[k].1, &Some);
        }
    }
}

/// Replaces only the blocks whose HTML changed; unchanged blocks keep their DOM nodes.
pub(crate) fn patch_blocks(
    body: &Element,
    old: &mut Vec<(Block, Element)>,
    new: Vec<Block>,
    cite_of: &dyn Fn(usize) -> Option<usize>,
) {
    patch_from(body, old, 0, new, cite_of);
}

/// Replaces the rendered blocks from index `k` on with `new`: a block whose HTML is
/// unchanged is left alone, a changed one is brought in line node by node (what stays
/// keeps its nodes), extra ones are removed. `cite_of` maps the citation index an old
/// marker has to the one it has now.
pub(crate) fn patch_from(
    body: &Element,
    old: &mut Vec<(Block, Element)>,
    k: usize,
    new: Vec<Block>,
    cite_of: &dyn Fn(usize) -> Option<usize>,
) {
    let count = k + new.len();
    // Blocks past the old ones are added with one HTML string (one parser call).
    let mut added = String::new();
    let mut fresh = Vec::new();
    for (j, b) in new.into_iter().enumerate() {
        let i = k + j;
        if let Some((ob, el)) = old.get_mut(i) {
            if ob.html != b.html && !grow_last_text(el, &ob.html, &b.html) {
                morph::morph_inner(el, &b.html, cite_of);
            }
            *ob = b;
            continue;
        }
        push_block(&mut added, &b);
        fresh.push(b);
    }
    while old.len() > count {
        if let Some((_, el)) = old.pop() {
            el.remove();
        }
    }
    if fresh.is_empty() {
        return;
    }
    let before = body.child_element_count();
    if body.insert_adjacent_html("beforeend", &added).is_err() {
        return;
    }
    let children = body.children();
    for (j, b) in fresh.into_iter().enumerate() {
        match children.item(before + j as u32) {
            Some(el) => old.push((b, el)),
            None => return,
        }
    }
}

/// While streaming: renders again only from the last block that can have changed
/// (the text before `stable`, the stream's stable point, never changes), after the
/// reference definitions of the blocks before it (`defs` reads each part of the text
/// once, as it falls behind): `[text][label]` is a link when an earlier block defines
/// `label`, as in a render of the whole answer.
pub(crate) fn render_stream_tail(
    body: &Element,
    old: &mut Vec<(Block, Element)>,
    defs: &mut StreamDefs,
    a: &Answer,
    r: &RenderOptions,
    stable: usize,
    cite_of: &dyn Fn(usize) -> Option<usize>,
) {
    let (k, start) = tail_start(old, |(b, _)| &b.range, stable);
    let view_text = stream_view_text(&a.text, start);
    let new = render_tail(a, r, &view_text, start, defs);
    patch_from(body, old, k, new, cite_of);
}

/// When the stream ends: renders the blocks from the one holding `fixed` (where the
/// stream's open tail began) as the whole answer shows them; blocks before it stay.
pub(crate) fn render_final_tail(
    body: &Element,
    old: &mut Vec<(Block, Element)>,
    a: &Answer,
    r: &RenderOptions,
    fixed: usize,
) {
    let from = old.last().map_or(0, |(b, _)| b.range.start).min(fixed);
    let k = old.partition_point(|(b, _)| b.range.end <= from);
    let start = old.get(k).map_or(from, |(b, _)| b.range.start.min(from));
    let markers = MarkerSet::from(a, r, start);
    let new = markdown::render_range(&a.text, start..a.text.len(), &markers, true);
    patch_from(body, old, k, new, &Some);
}

/// Where `old` and `new` (a block's HTML before and after a streamed chunk) differ
/// only in the text of the block's last text node
/// ([`text_growth`](crate::components::answer::html::stream_view::text_growth)),
/// changes that node's data in place and returns true: no HTML parsed, no node walked.
pub(crate) fn grow_last_text(el: &Element, old: &str, new: &str) -> bool {
    use crate::components::answer::html::stream_view::{text_growth, Closing};
    let Some(g) = text_growth(old, new) else {
        return false;
    };
    // From the block's end back through what follows the text: each whitespace a text
    // node of its own, each closing tag the element to go into.
    let mut at = el.last_child();
    for c in g.closing.iter().rev() {
        let Some(node) = at else { return false };
        match c {
            Closing::Space(ws) => {
                if node.node_type() != web_sys::Node::TEXT_NODE
                    || node.node_value().as_deref() != Some(*ws)
                {
                    return false;
                }
                at = node.previous_sibling();
            }
            Closing::Tag(name) => {
                let same = node
                    .dyn_ref::<Element>()
                    .is_some_and(|e| e.local_name().eq_ignore_ascii_case(name));
                if !same {
                    return false;
                }
                at = node.last_child();
            }
        }
    }
    let Some(node) = at else { return false };
    if node.node_type() != web_sys::Node::TEXT_NODE {
        return false;
    }
    let Some(text) = node.dyn_ref::<web_sys::CharacterData>() else {
        return false;
    };
    let old_units = g.old_end.encode_utf16().count() as u32;
    let len = text.length();
    if len < old_units {
        return false;
    }
    text.replace_data(len - old_units, old_units, g.new_end)
        .is_ok()
}
