//! Small DOM helpers over web-sys. Every failure is swallowed: a missing element or
//! a refused call leaves the page as it was, it never panics.

use std::cell::RefCell;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlElement, ShadowRoot};

/// The document, if there is one.
pub fn document() -> Option<Document> {
    web_sys::window()?.document()
}

thread_local! {
    /// The shadow roots answers were mounted in (a chat widget that is a web
    /// component): `document.getElementById` does not see into them.
    static ROOTS: RefCell<Vec<ShadowRoot>> = const { RefCell::new(Vec::new()) };
}

/// The shadow root `el` is in, if any, kept for [`by_id`] and [`active_element`].
pub fn shadow_root_of(el: &Element) -> Option<ShadowRoot> {
    let root: ShadowRoot = el.get_root_node().dyn_into().ok()?;
    ROOTS.with(|r| {
        let mut r = r.borrow_mut();
        // Roots whose widget left the page are let go.
        r.retain(|s| s.host().is_connected());
        if !r.iter().any(|s| s.is_same_node(Some(&root))) {
            r.push(root.clone());
        }
    });
    Some(root)
}

/// The element with this id: in the document, or in a shadow root an answer is in
/// (ids are unique across both: every answer has its own prefix).
pub fn by_id(id: &str) -> Option<Element> {
    if let Some(el) = document()?.get_element_by_id(id) {
        return Some(el);
    }
    ROOTS.with(|r| r.borrow().iter().find_map(|s| s.get_element_by_id(id)))
}

/// The focused element, also inside the shadow roots answers are in (the document's
/// `activeElement` is then their host).
pub fn active_element() -> Option<Element> {
    ROOTS
        .with(|r| r.borrow().iter().find_map(ShadowRoot::active_element))
        .or_else(|| document()?.active_element())
}

/// `el.closest(selector)`.
pub fn closest(target: Option<web_sys::EventTarget>, selector: &str) -> Option<Element> {
    let el: Element = target?.dyn_into().ok()?;
    el.closest(selector).ok().flatten()
}

/// Every element matching `selector` under `root`.
pub fn query_all(root: &Element, selector: &str) -> Vec<Element> {
    let mut out = Vec::new();
    if let Ok(list) = root.query_selector_all(selector) {
        for i in 0..list.length() {
            if let Some(el) = list.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                out.push(el);
            }
        }
    }
    out
}

/// The data attribute `data-<name>` parsed as a number.
pub fn data_num<T: TryFrom<u64>>(el: &Element, name: &str) -> Option<T> {
    crate::core::str_ops::uint_as(&el.get_attribute(&format!("data-{name}"))?)
}

/// Focuses an element.
pub fn focus(el: &Element) {
    if let Some(h) = el.dyn_ref::<HtmlElement>() {
        let _ = h.focus();
    }
}

/// Runs `f` once after the current task (a `setTimeout` of 0).
pub fn defer(f: impl FnOnce() + 'static) {
    defer_boxed(Box::new(f));
}

/// One closure type for every deferred call (not one copy of the glue per caller).
fn defer_boxed(f: Box<dyn FnOnce()>) {
    let Some(w) = web_sys::window() else { return };
    let cb = wasm_bindgen::closure::Closure::once_into_js(f);
    let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), 0);
}

/// Runs `f` once in a task after the next frame is rendered (a `setTimeout` of 0 from
/// a `requestAnimationFrame` callback; a page in a background tab renders no frame
/// until it is shown); in a task at once when no frame can be requested.
pub fn after_frame(f: impl FnOnce() + 'static) {
    after_frame_boxed(Box::new(f));
}

fn after_frame_boxed(f: Box<dyn FnOnce()>) {
    let Some(w) = web_sys::window() else { return };
    let cb = wasm_bindgen::closure::Closure::once_into_js(move || defer_boxed(f));
    if w.request_animation_frame(cb.unchecked_ref()).is_err() {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), 0);
    }
}

/// Whether the user asked for reduced motion.
pub fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// Scrolls `el` into view (nearest edge), smoothly unless reduced motion is asked for.
pub fn scroll_into_view(el: &Element) {
    let opts = web_sys::ScrollIntoViewOptions::new();
    opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
    opts.set_behavior(if reduced_motion() {
        web_sys::ScrollBehavior::Auto
    } else {
        web_sys::ScrollBehavior::Smooth
    });
    el.scroll_into_view_with_scroll_into_view_options(&opts);
}

/// Adds the CSS once to the document head (id `citekit-css`).
pub fn inject_css(css: &str) {
    let Some(doc) = document() else { return };
    if doc.get_element_by_id("citekit-css").is_some() {
        return;
    }
    if let (Some(style), Some(head)) = (style_element(&doc, css), doc.head()) {
        let _ = head.append_child(&style);
    }
}

/// Adds the CSS once where `el` is styled from: the shadow root it is in (a page's
/// stylesheets do not reach inside one), or else the document head.
pub fn inject_css_for(el: &Element, css: &str) {
    let Some(root) = shadow_root_of(el) else {
        inject_css(css);
        return;
    };
    if root.get_element_by_id("citekit-css").is_some() {
        return;
    }
    if let Some(style) = document().and_then(|d| style_element(&d, css)) {
        let _ = root.append_child(&style);
    }
}

fn style_element(doc: &Document, css: &str) -> Option<Element> {
    let style = doc.create_element("style").ok()?;
    style.set_id("citekit-css");
    style.set_text_content(Some(css));
    Some(style)
}

/// `obj[method](...args)`, errors ignored (`undefined` then).
pub(crate) fn call(
    obj: &wasm_bindgen::JsValue,
    method: &str,
    args: &[wasm_bindgen::JsValue],
) -> wasm_bindgen::JsValue {
    let Ok(f) = js_sys::Reflect::get(obj, &method.into()) else {
        return wasm_bindgen::JsValue::UNDEFINED;
    };
    let Ok(f) = f.dyn_into::<js_sys::Function>() else {
        return wasm_bindgen::JsValue::UNDEFINED;
    };
    let list: js_sys::Array = args.iter().collect();
    f.apply(obj, &list)
        .unwrap_or(wasm_bindgen::JsValue::UNDEFINED)
}

/// Copies `text`; false when the page allows no way to. First a selected textarea and
/// `execCommand("copy")`, synchronous, which a click allows on http pages too (where
/// there is no Clipboard API) and in frames without the `clipboard-write` permission
/// (where the API refuses); else the Clipboard API.
pub fn copy_text(text: &str) -> bool {
    if copy_by_selection(text) {
        return true;
    }
    let Some(w) = web_sys::window() else {
        return false;
    };
    let nav = w.navigator();
    if !js_sys::Reflect::get(&nav, &"clipboard".into()).is_ok_and(|c| c.is_object()) {
        return false;
    }
    let _ = nav.clipboard().write_text(text);
    true
}

/// The text in a selected, invisible textarea, `execCommand("copy")`, and the focus put
/// back.
fn copy_by_selection(text: &str) -> bool {
    let Some(doc) = document() else { return false };
    let (Ok(ta), Some(body)) = (doc.create_element("textarea"), doc.body()) else {
        return false;
    };
    ta.set_text_content(Some(text));
    let _ = ta.set_attribute("readonly", "");
    let _ = ta.set_attribute(
        "style",
        "position:fixed;top:0;left:0;width:1px;height:1px;opacity:0",
    );
    let focused = active_element();
    if body.append_child(&ta).is_err() {
        return false;
    }
    call(&ta, "select", &[]);
    let ok = call(&doc, "execCommand", &["copy".into()]).is_truthy();
    ta.remove();
    if let Some(f) = focused {
        focus(&f);
    }
    ok
}
