//! The source panel's expanded entry.

use crate::core::model::CitedAnswer as Model;
use crate::dom::util as dom;
use crate::render::class;
use crate::render::{self, RenderOptions};

/// Expands (or collapses) the panel entry of source number `n`: its details shown
/// (made from `a` the first time), its toggle's `aria-expanded`, the entry marked
/// selected.
pub(crate) fn set_expanded(r: &RenderOptions, a: &Model, n: u32, open: bool) {
    let id = render::panel_item_id(r, n);
    let Some(li) = dom::by_id(&id) else { return };
    let _ = li.set_attribute("data-state", if open { "expanded" } else { "collapsed" });
    let _ = if open {
        li.class_list().add_1(class::SELECTED)
    } else {
        li.class_list().remove_1(class::SELECTED)
    };
    if let Ok(Some(btn)) = li.query_selector(class::SOURCE_TOGGLE_SEL) {
        let _ = btn.set_attribute("aria-expanded", if open { "true" } else { "false" });
    }
    if let Some(d) = dom::by_id(&format!("{id}-details")) {
        if open && d.child_element_count() == 0 {
            d.set_inner_html(&render::panel_details_html(a, n, r));
        }
        let _ = if open {
            d.remove_attribute("hidden")
        } else {
            d.set_attribute("hidden", "")
        };
    }
}
