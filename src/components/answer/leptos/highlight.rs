//! The components' highlight: `ctx.highlight` applied by an effect.

use crate::components::answer::dom::highlight::{apply_highlight, set_highlight};
use crate::components::context::CiteContext;
use crate::dom::state::Highlight;
use crate::dom::util as dom;
use leptos::prelude::*;

/// Applies `ctx.highlight` to markers and spans, and to panel entries.
pub(crate) fn wire_highlight(ctx: CiteContext) {
    // The highlight lives in the browser's registry: nothing to clear on a server.
    if cfg!(target_arch = "wasm32") {
        let key = ctx.prefix();
        on_cleanup(move || set_highlight(&key, Vec::new()));
    }
    // The effect's value: whether anything is lit now.
    Effect::new(move |lit: Option<bool>| {
        let h = ctx.highlight.get();
        let _ = ctx.answer.get();
        // Nothing lit and nothing to light (a streamed chunk while no marker is
        // hovered): no sweep over the whole answer.
        if h == Highlight::None && lit == Some(false) {
            return false;
        }
        let Some(root) = dom::by_id(&ctx.prefix()) else {
            return false;
        };
        let a = ctx.answer.get_untracked();
        let r = ctx.render.get_untracked();
        apply_highlight(&root, &a, &r, h)
    });
}
