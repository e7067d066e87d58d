//! The synchronous first render and its adoption by the render effect.

use crate::components::answer::html::{answer_blocks, Block};
use crate::components::context::CiteContext;
use crate::core::formats::CiteData;
use crate::core::model::Answer;
use crate::core::options::Options;
use crate::render::RenderOptions;
use leptos::prelude::*;
use std::sync::Arc;
use web_sys::Element;

/// The inputs of a synchronous first render (kept to notice a change made before the
/// effects first run).
pub(crate) struct FirstInputs {
    pub(crate) answer: String,
    pub(crate) data: CiteData,
    pub(crate) options: Options,
}

/// What the synchronous first render produced.
pub(crate) struct FirstRender {
    pub(crate) inputs: FirstInputs,
    pub(crate) answer: Arc<Answer>,
    pub(crate) render: Arc<RenderOptions>,
    pub(crate) blocks: Vec<Block>,
}

/// Parses and renders the answer at once when it is not streaming, and puts the result
/// in the context (so the footnotes and the panel are built with the view).
pub(crate) fn first_render(
    ctx: CiteContext,
    answer: Signal<String>,
    data: Signal<CiteData>,
    options: Signal<Options>,
    streaming: Signal<bool>,
) -> Option<FirstRender> {
    if streaming.get_untracked() {
        return None;
    }
    let inputs = FirstInputs {
        answer: answer.get_untracked(),
        data: data.get_untracked(),
        options: options.get_untracked(),
    };
    let new_render = RenderOptions::live(&inputs.options, &ctx.prefix());
    if ctx.render.with_untracked(|r| **r != new_render) {
        ctx.render.set(Arc::new(new_render));
    }
    let render = ctx.render.get_untracked();
    let text = (!inputs.answer.is_empty()).then_some(inputs.answer.as_str());
    let parsed = Arc::new(crate::core::parse_lenient(
        text,
        inputs.data.as_data(),
        &inputs.options,
    ));
    ctx.card.set(None);
    ctx.answer.set(parsed.clone());
    let blocks = answer_blocks(&parsed, &render);
    Some(FirstRender {
        inputs,
        answer: parsed,
        render,
        blocks,
    })
}

/// Takes the block elements the first render put into `body` as the rendered blocks;
/// `false` (and `body` emptied) when they are not what was rendered.
pub(crate) fn adopt_blocks(
    body: &Element,
    old: &mut Vec<(Block, Element)>,
    blocks: Vec<Block>,
) -> bool {
    let children = body.children();
    if !old.is_empty() || children.length() as usize != blocks.len() {
        old.clear();
        body.set_inner_html("");
        return false;
    }
    for (i, b) in blocks.into_iter().enumerate() {
        let Some(el) = children.item(i as u32) else {
            old.clear();
            body.set_inner_html("");
            return false;
        };
        old.push((b, el));
    }
    true
}
