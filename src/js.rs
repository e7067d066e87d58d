//! JavaScript bindings for the npm package (npm/README.md): a thin wasm-bindgen layer
//! over [`crate::parse`], [`crate::render`] and the plain DOM driver
//! ([`crate::components::answer::dom::driver`], no Leptos). Only type conversions live here: JS values in, JS values out, every
//! failure a `js_sys::Error` with a message that starts with `citekit:`, never a panic.
//!
//! The JS names are camelCase: `parse`, `renderToString`, `mount` (returning a
//! [`View`]) and `version`. `init` is wasm-bindgen's default export, wrapped by the
//! package's `index.js` so it also works under Node.

use crate::components::answer::dom::driver::Driver;
use crate::components::answer::html::render_to_string;
use crate::core::formats::CiteData;
use crate::core::formats::Data;
use crate::core::json_fields::parse_json;
use crate::core::json_output::to_json_text;
use crate::core::model::{Answer, Diagnostic};
use crate::core::props::{
    fix_lone_surrogate_escapes, lone_surrogates, options_of, DataWarning, PropError, Props,
    RenderProps, CONTENT_KEYS,
};
use crate::render::RenderOptions;
use js_sys::{Array, Error, Function, JsString, Object, Reflect, JSON};
use serde_json::{Map, Value};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

mod follow;
use follow::follow;

type JsResult<T> = Result<T, Error>;

/// The one way errors leave this module: a JS `Error` whose message names citekit.
fn js_error(message: impl std::fmt::Display) -> Error {
    Error::new(&format!("citekit: {message}"))
}

/// The message of a thrown JS value (an `Error`'s message, or the value as a string).
fn thrown_message(v: &JsValue) -> String {
    if let Some(e) = v.dyn_ref::<Error>() {
        return String::from(e.message());
    }
    v.as_string().unwrap_or_else(|| "unknown error".into())
}

/// A JS string as Rust text; lone surrogates become U+FFFD and set the flag.
fn js_text(s: &JsString) -> (String, bool) {
    let text = String::from(s);
    // The conversion replaces each lone surrogate by U+FFFD; only then is the exact
    // (slower) check needed.
    let replaced = crate::core::str_ops::has_char(&text, '\u{fffd}') && !s.is_valid_utf16();
    (text, replaced)
}

/// `answer`: a string, null or undefined.
fn answer_arg(v: &JsValue) -> JsResult<(Option<String>, bool)> {
    if v.is_null() || v.is_undefined() {
        return Ok((None, false));
    }
    match v.dyn_ref::<JsString>() {
        Some(s) => {
            let (t, bad) = js_text(s);
            Ok((Some(t), bad))
        }
        None => Err(js_error(format!(
            "`answer` must be a string, null or undefined, not {}",
            js_type(v)
        ))),
    }
}

/// `typeof v`, with null and arrays told apart.
fn js_type(v: &JsValue) -> String {
    if v.is_null() {
        "null".into()
    } else if Array::is_array(v) {
        "an array".into()
    } else {
        v.js_typeof().as_string().unwrap_or_else(|| "?".into())
    }
}

/// Citation data converted from JS.
enum DataArg {
    /// null or undefined.
    None,
    /// A string: JSON text or an event stream.
    Text(String),
    /// An object, already parsed (size and depth limits applied).
    Json(Value),
    /// An object whose JSON text the core refused (too large, too deep): kept as text
    /// so that parsing reports the same error.
    BadJson(String),
}

/// `data`: null, undefined, a string, or a JSON-serializable value. The flag says
/// whether lone surrogates were replaced.
fn data_arg(v: &JsValue) -> JsResult<(DataArg, bool)> {
    if v.is_null() || v.is_undefined() {
        return Ok((DataArg::None, false));
    }
    if let Some(s) = v.dyn_ref::<JsString>() {
        let (t, bad) = js_text(s);
        return Ok((DataArg::Text(t), bad));
    }
    if v.is_function() || v.is_symbol() || v.is_bigint() {
        return Err(js_error(format!(
            "`data` must be a string, an object, null or undefined, not {}",
            js_type(v)
        )));
    }
    let text = stringify(v, "`data`")?;
    let (text, bad) = match fix_lone_surrogate_escapes(&text) {
        Some(fixed) => (fixed, true),
        None => (text, false),
    };
    Ok(match parse_json(&text) {
        Ok(json) => (DataArg::Json(json), bad),
        Err(_) => (DataArg::BadJson(text), bad),
    })
}

impl DataArg {
    fn as_data(&self) -> Data<'_> {
        match self {
            DataArg::None => Data::None,
            DataArg::Text(t) | DataArg::BadJson(t) => Data::Text(t),
            DataArg::Json(v) => Data::Json(v),
        }
    }

    fn into_cite_data(self) -> CiteData {
        match self {
            DataArg::None => CiteData::None,
            DataArg::Text(t) | DataArg::BadJson(t) => CiteData::Text(t),
            DataArg::Json(v) => CiteData::Json(v),
        }
    }
}

/// `JSON.stringify(v)` as Rust text; cycles, BigInts and values with no JSON form are
/// errors naming `what`.
fn stringify(v: &JsValue, what: &str) -> JsResult<String> {
    match JSON::stringify(v) {
        Ok(s) if s.is_string() => Ok(String::from(s)),
        Ok(_) => Err(js_error(format!(
            "{what} has no JSON form ({})",
            js_type(v)
        ))),
        Err(e) => Err(js_error(format!(
            "{what} could not be converted to JSON: {}",
            thrown_message(&e)
        ))),
    }
}

/// The own enumerable keys of `obj` (not in `skip`) with their values as JSON; an
/// `undefined` or `null` value (or one with no JSON form) is `Value::Null`, meaning
/// "unset". `what` names the object in errors.
fn js_map(obj: &JsValue, skip: &[&str], what: &str) -> JsResult<Map<String, Value>> {
    let mut map = Map::new();
    if obj.is_null() || obj.is_undefined() {
        return Ok(map);
    }
    if !obj.is_object() || Array::is_array(obj) || obj.is_function() {
        return Err(js_error(format!(
            "{what} must be an object, not {}",
            js_type(obj)
        )));
    }
    let object: &Object = obj.unchecked_ref();
    for key in Object::keys(object).iter() {
        let Some(k) = key.as_string() else { continue };
        if skip.contains(&k.as_str()) {
            continue;
        }
        let v = Reflect::get(obj, &key).map_err(|e| {
            js_error(format!(
                "{what}: reading `{k}` failed: {}",
                thrown_message(&e)
            ))
        })?;
        let json = if v.is_null() || v.is_undefined() || v.is_function() || v.is_symbol() {
            Value::Null
        } else {
            let text = stringify(&v, &format!("option `{k}`"))?;
            crate::core::json_fields::parse_json(&text)
                .map_err(|e| js_error(format!("option `{k}` is not valid: {e}")))?
        };
        map.insert(k, json);
    }
    Ok(map)
}

/// A bad prop value as a JS error.
fn prop_error(e: PropError) -> Error {
    js_error(e.0)
}

/// Appends the `invalid-utf16` diagnostic when an input string had lone surrogates.
fn note_surrogates(model: &mut Answer, answer_bad: bool, data_bad: bool) {
    model
        .diagnostics
        .extend(lone_surrogates(answer_bad, data_bad));
}

/// The model as a plain JS value: its JSON text (written by
/// [`to_json_text`](crate::core::json_output::to_json_text), without serde) through
/// `JSON.parse`. serde-wasm-bindgen is 1.8x faster than serde_json's text and
/// `JSON.parse`, but this writer goes straight from the model to the text (no `Value` in
/// between), is faster than either, and takes about 10 KB less wasm (2.8 KB gzip;
/// docs/size.md, "The JS boundary"). (Data coming in also goes through
/// `JSON.stringify`, which reports cycles and too deep nesting as errors where walking
/// the object from Rust overflows the stack.)
fn model_to_js(text: &str) -> JsResult<JsValue> {
    JSON::parse(text).map_err(|_| js_error("parse: the model's JSON did not parse"))
}

/// Parses an answer and its citation data into the normalized model (npm/README.md, "parse")
/// (a plain object: `text`, `format`, `sources`, `citations`, `diagnostics`, ...), with
/// offsets in `options.positionEncoding` units (UTF-16 by default).
///
/// Throws when the data is not the claimed (or detected) format at all (the error has
/// a `code`: `not-format`, `invalid-json`, `limit-exceeded`, `undetected-format`; and
/// `format-not-loaded` for data in a format the module leaves out), and
/// for arguments of the wrong type or a bad option value.
#[wasm_bindgen(js_name = parse)]
pub fn js_parse(answer: JsValue, data: JsValue, options: JsValue) -> Result<JsValue, Error> {
    let options = options_of(&js_map(&options, CONTENT_KEYS, "`options`")?).map_err(prop_error)?;
    let (answer, answer_bad) = answer_arg(&answer)?;
    let (data, data_bad) = data_arg(&data)?;
    let mut model =
        crate::core::parse(answer.as_deref(), data.as_data(), &options).map_err(|e| {
            let err = js_error(&e);
            let _ = Reflect::set(&err, &"code".into(), &e.code().into());
            err
        })?;
    if let Some(err) = not_loaded(&model) {
        return Err(err);
    }
    note_surrogates(&mut model, answer_bad, data_bad);
    model_to_js(&to_json_text(&model, options.position_encoding))
}

/// Data in a format the module leaves out (a `format-not-loaded`
/// diagnostic): an error with that code, which npm/core.js turns into what to do.
fn not_loaded(model: &Answer) -> Option<Error> {
    let d = model
        .diagnostics
        .iter()
        .find(|d| d.code == "format-not-loaded")?;
    let err = js_error(&d.message);
    let _ = Reflect::set(&err, &"code".into(), &d.code.as_str().into());
    Some(err)
}

/// Renders an answer to static HTML (answer with markers, footnotes, and the source
/// panel when `options.panel` is true), with no DOM: works under Node. Never throws on
/// bad data (the answer text comes through); throws for a bad option value.
/// `options.idPrefix` sets the prefix of every id (default `cite`).
#[wasm_bindgen(js_name = renderToString)]
pub fn js_render_to_string(
    answer: JsValue,
    data: JsValue,
    options: JsValue,
) -> Result<String, Error> {
    let RenderProps {
        options: opts,
        panel,
        id_prefix: prefix,
    } = RenderProps::of(&js_map(&options, CONTENT_KEYS, "`options`")?).map_err(prop_error)?;
    let (answer, _) = answer_arg(&answer).unwrap_or((None, false));
    let model = match data_arg(&data) {
        Ok((data, _)) => crate::core::parse_lenient(answer.as_deref(), data.as_data(), &opts),
        Err(e) => {
            let mut m = crate::core::parse_lenient(answer.as_deref(), Data::None, &opts);
            m.diagnostics
                .push(Diagnostic::error("invalid-data", String::from(e.message())));
            m
        }
    };
    if let Some(err) = not_loaded(&model) {
        return Err(err);
    }
    let r = RenderOptions::from_options(&opts, &prefix);
    Ok(render_to_string(&model, &r, panel))
}

/// Runs when the module is loaded, before anything is parsed: hands the browser's entity
/// and Unicode answers to the parsers of a build without the tables
/// (`dom::use_browser_tables`), and sets a panic hook, so that a panic (a bug in citekit)
/// is reported on the console with its message instead of a bare `RuntimeError:
/// unreachable`. (The hook is not in the npm package built on the pinned nightly by
/// scripts/build-pkg.sh: its panics trap at once, without a message, which is what keeps
/// the formatting code out of it; there the hook is left out, `cfg(trap_panics)` from
/// build.rs.)
#[wasm_bindgen(start)]
pub fn js_start() {
    crate::dom::use_browser_tables();
    #[cfg(not(trap_panics))]
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&JsValue::from_str(&format!(
            "citekit: internal error (please report it): {info}"
        )));
    }));
}

/// The crate version, for bug reports.
#[wasm_bindgen(js_name = version)]
pub fn js_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Whether `data` of `format` is a raw event stream that grows by `append` (format
/// `sse`, an `ai-sdk` UI message stream, a provider's or platform's own stream), not
/// the answer text: the registry's rule (`core::formats::streams_events`). An unknown
/// `format` is none, and so is none given: a stream cut before its first field (`da`)
/// cannot be told from answer text, so what streams would change as it grows and the
/// view start again; a growing stream given with no format is read whole on every
/// change (detection finds it), and streams held back as it arrives with its format.
///
/// In the module with every format only (`platforms`): scripts/build-pkg.sh writes
/// npm/core.js's table from it (the element keeps appended text in `data` or `answer`
/// by it, before the module has loaded too), and the first module, which a page
/// loads, does without it.
#[cfg(feature = "platforms")]
#[wasm_bindgen(js_name = streamsEvents)]
pub fn js_streams_events(format: JsValue, data: JsValue) -> bool {
    let format = match format.as_string() {
        None => crate::core::options::FormatChoice::Auto,
        Some(name) => match crate::core::model::Format::from_name(&name) {
            Some(f) => crate::core::options::FormatChoice::Given(f),
            None => return false,
        },
    };
    // Only the kind of data counts: none, text (read here), or a value.
    let data = if data.is_null() || data.is_undefined() {
        CiteData::None
    } else if let Some(text) = data.as_string() {
        CiteData::Text(text)
    } else {
        CiteData::Json(Value::Null)
    };
    crate::core::formats::streams_events(format, &data)
}

/// One mounted answer.
struct Mounted {
    driver: Driver,
    /// The options and display settings as given, merged by `update`.
    props: Props,
    /// The high surrogate that ended the last appended chunk, waiting for its pair.
    pending_high: Option<JsString>,
    listeners: Vec<(String, Function)>,
    /// The data errors reported to the console (each new one once).
    warned: DataWarning,
    /// `finish()` was called and nothing was appended since: an answer given whole
    /// that grew is a new answer then, unless it is `streaming` (`live::change`).
    ended: bool,
    /// The answer is `null` (none was given, or `null` was): a first text given whole is
    /// a new answer, not growth (`live::change_first`).
    no_answer: bool,
}

/// Says on the console why citations are missing when the data could not all be read
/// (`mount` never throws on bad data): once per new first error.
fn warn_data_errors(m: &mut Mounted) {
    if let Some(message) = m.warned.next(m.driver.data_errors()) {
        web_sys::console::warn_1(&JsValue::from_str(&message));
    }
}

thread_local! {
    /// The mounted views by id (a list: a page mounts tens of answers, not thousands).
    static VIEWS: RefCell<Vec<(u32, Mounted)>> = const { RefCell::new(Vec::new()) };
    static NEXT_VIEW: std::cell::Cell<u32> = const { std::cell::Cell::new(1) };
}

/// Runs `f` on the mounted view `id`; `None` when it was destroyed. The registry is not
/// borrowed while `f` runs (events it dispatches may reach other views).
fn with_view<T>(id: u32, f: impl FnOnce(&mut Mounted) -> T) -> Option<T> {
    let mut m = take_view(id)?;
    let out = f(&mut m);
    VIEWS.with(|v| v.borrow_mut().push((id, m)));
    Some(out)
}

/// Takes view `id` out of the registry.
fn take_view(id: u32) -> Option<Mounted> {
    VIEWS.with(|v| {
        let mut v = v.borrow_mut();
        let at = v.iter().position(|(k, _)| *k == id)?;
        Some(v.swap_remove(at).1)
    })
}

/// A mounted answer, returned by `mount`. Its methods change the inputs in place;
/// `destroy()` unmounts it. Dropping the JS object (or `free()`) does not unmount.
#[wasm_bindgen]
pub struct View {
    id: u32,
    element: web_sys::HtmlElement,
}

/// Mounts an interactive answer into `element` (its previous content is replaced).
///
/// `props` is `{answer, data, panel, footnotes, copyButton, injectCss, ...options}`,
/// or `{message, streaming, ...}` with a Vercel AI SDK message in place of `answer`
/// and `data` (a stream starts at once when `streaming` is true).
/// Never throws on bad data: the answer text is shown. Throws when `element` is not
/// an HTML element, `props` not an object, or an option value is bad.
#[wasm_bindgen(js_name = mount)]
pub fn js_mount(element: JsValue, props: JsValue) -> Result<View, Error> {
    let element: web_sys::HtmlElement = element.dyn_into().map_err(|v| {
        js_error(format!(
            "mount: `element` must be an HTML element, not {}",
            js_type(&v)
        ))
    })?;
    let (view_props, options) =
        Props::mount(&js_map(&props, CONTENT_KEYS, "`props`")?).map_err(prop_error)?;
    let display = view_props.display;
    let Content {
        answer,
        data,
        message,
        streaming,
    } = content_of(&props)?;
    // One view per element: mounting again replaces the previous one.
    let previous: Vec<u32> = VIEWS.with(|v| {
        v.borrow()
            .iter()
            .filter(|(_, m)| same(m.driver.element().as_ref(), element.as_ref()))
            .map(|(id, _)| *id)
            .collect()
    });
    for id in previous {
        destroy(id);
    }
    let no_answer = answer.as_ref().is_none_or(Option::is_none);
    let mut answer = answer.flatten().unwrap_or_default();
    let mut data = data.unwrap_or_default();
    // Mounted streaming: empty, then the streamed input appended (a marker still
    // arriving at its end is held back).
    let mut streamed = String::new();
    if message.is_none() && streaming == Some(true) {
        if !crate::core::formats::streams_events(options.format, &data) {
            if !no_answer {
                streamed = std::mem::take(&mut answer);
            }
        } else if let CiteData::Text(t) = &mut data {
            streamed = std::mem::take(t);
        }
    }
    let driver = Driver::mount(element.clone(), answer, data, options, display);
    if let Some((message, streaming)) = message {
        driver.set_message(message, streaming, display);
    }
    driver.append(&streamed);
    let mut m = Mounted {
        driver,
        props: view_props,
        pending_high: None,
        listeners: Vec::new(),
        warned: DataWarning::default(),
        ended: false,
        no_answer,
    };
    warn_data_errors(&mut m);
    let id = NEXT_VIEW.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1).max(1));
        id
    });
    VIEWS.with(|v| v.borrow_mut().push((id, m)));
    Ok(View { id, element })
}

/// `a === b`.
fn same(a: &JsValue, b: &JsValue) -> bool {
    a == b
}

/// What props give besides options: each `None` when its key is absent.
struct Content {
    /// The answer; `Some(None)` for `null` (or a value that is not a string, logged).
    answer: Option<Option<String>>,
    data: Option<CiteData>,
    /// A Vercel AI SDK message (`null` is an empty one) and whether it is streaming.
    message: Option<(Value, bool)>,
    /// `streaming`, when given: whether the answer (or the event stream) is still arriving.
    streaming: Option<bool>,
}

/// The `answer`, `data` and `message` (with `streaming`) of props. Bad data never
/// throws: it is logged and left out.
fn content_of(props: &JsValue) -> JsResult<Content> {
    if !props.is_object() {
        return Ok(Content {
            answer: None,
            data: None,
            message: None,
            streaming: None,
        });
    }
    let get = |key: &str| -> Option<JsValue> {
        let k = JsValue::from_str(key);
        if Reflect::has(props, &k).unwrap_or(false) {
            Reflect::get(props, &k).ok()
        } else {
            None
        }
    };
    let answer = match get("answer") {
        None => None,
        Some(v) => match answer_arg(&v) {
            Ok((a, _)) => Some(a),
            Err(e) => {
                warn(&e);
                Some(None)
            }
        },
    };
    let data = match get("data") {
        None => None,
        Some(v) => match data_arg(&v) {
            Ok((d, _)) => Some(d.into_cite_data()),
            Err(e) => {
                warn(&e);
                Some(CiteData::None)
            }
        },
    };
    let streaming = get("streaming").map(|s| s.is_truthy());
    let message = get("message").map(|v| (message_arg(&v), streaming.unwrap_or(false)));
    Ok(Content {
        answer,
        data,
        message,
        streaming,
    })
}

/// `message`: a Vercel AI SDK message as JSON; `null` is an empty message. Anything
/// that is not one is logged and read as an empty message (the format says what it
/// found when the value is JSON of another shape).
fn message_arg(v: &JsValue) -> Value {
    // Built by hand: `json!` would link serde_json's value serializer.
    let empty = || {
        Value::Object(Map::from_iter([(
            "parts".to_string(),
            Value::Array(Vec::new()),
        )]))
    };
    match data_arg(v) {
        Ok((DataArg::None, _)) => empty(),
        Ok((DataArg::Json(json), _)) => json,
        Ok((DataArg::Text(t) | DataArg::BadJson(t), _)) => match parse_json(&t) {
            Ok(json) => json,
            Err(e) => {
                warn(&js_error(format!("`message` is not a message: {e}")));
                empty()
            }
        },
        Err(e) => {
            warn(&e);
            empty()
        }
    }
}

fn warn(e: &Error) {
    web_sys::console::warn_1(e);
}

fn destroy(id: u32) {
    let Some(mut m) = take_view(id) else {
        return;
    };
    for (name, f) in m.listeners.drain(..) {
        let _ = m
            .driver
            .element()
            .remove_event_listener_with_callback(&name, &f);
    }
    m.driver.destroy();
}

#[wasm_bindgen]
impl View {
    /// Changes some inputs: the keys present replace `answer`, `data`, the display
    /// settings and single options (an option set to `undefined` or `null` goes back
    /// to its default). Late `data` keeps the answer so far.
    ///
    /// `message` (with `streaming`) is a Vercel AI SDK message given whole again, as
    /// `useChat` hands it on every render: what of its text grew is appended and its
    /// other parts are read again only when they changed (`Driver::set_message`);
    /// `streaming: false` ends its stream.
    ///
    /// `answer` with `streaming` (true or false) is the answer given whole again as it
    /// grows, as a framework hands it on every render (for a raw event stream, `data`
    /// with `streaming`): `live::change_first` decides what it is (see [`follow`]).
    pub fn update(&self, props: JsValue) -> Result<(), Error> {
        let map = js_map(&props, CONTENT_KEYS, "`props`")?;
        let Content {
            answer,
            data,
            message,
            streaming,
        } = content_of(&props)?;
        with_view(self.id, |m| {
            let options = m.props.update(&map).map_err(prop_error)?;
            let display = m.props.display;
            if answer.is_some() {
                m.pending_high = None;
            }
            let data_given = data.is_some() || message.is_some();
            // A message alone (every render of a streaming chat) goes only to
            // `set_message`, which tells what of it changed.
            if message.is_none() && (answer.is_some() || data.is_some()) {
                m.driver.leave_message();
            }
            let null = matches!(answer, Some(None));
            let mut answer = answer.map(Option::unwrap_or_default);
            let mut data = data;
            let then = follow(
                m,
                options.format,
                (&mut answer, null),
                &mut data,
                streaming.filter(|_| message.is_none()),
            );
            if answer.is_some() || data.is_some() || !map.is_empty() {
                m.driver.update(answer, data, Some(options), display);
            }
            if let Some((text, finish)) = then {
                m.driver.append(&text);
                if finish {
                    m.driver.finish();
                }
            }
            if let Some((message, streaming)) = message {
                m.driver.set_message(message, streaming, display);
            }
            if data_given {
                warn_data_errors(m);
            }
            Ok(())
        })
        .unwrap_or(Ok(()))
    }

    /// Replaces every option (keys absent go back to their defaults). Display keys
    /// (`panel`, `footnotes`, `copyButton`, `injectCss`) change only when present.
    #[wasm_bindgen(js_name = setOptions)]
    pub fn set_options(&self, options: JsValue) -> Result<(), Error> {
        let map = js_map(&options, CONTENT_KEYS, "`options`")?;
        with_view(self.id, |m| {
            let options = m.props.replace(&map).map_err(prop_error)?;
            let display = m.props.display;
            m.driver.update(None, None, Some(options), display);
            Ok(())
        })
        .unwrap_or(Ok(()))
    }

    /// Adds streamed text: to the answer, or (format `sse`) to the raw event stream.
    /// The first append starts the stream (incremental parsing, partial markers held
    /// back, markers pending until their sources arrive) until `finish`. A chunk may
    /// end in the middle of a surrogate pair. Non-string chunks are ignored (with a
    /// console warning).
    pub fn append(&self, text: JsValue) {
        let Some(chunk) = text.dyn_ref::<JsString>() else {
            if !text.is_null() && !text.is_undefined() {
                warn(&js_error(format!(
                    "append: expected a string, not {}",
                    js_type(&text)
                )));
            }
            return;
        };
        with_view(self.id, |m| {
            if chunk.length() > 0 {
                m.ended = false;
                m.no_answer = false;
            }
            let mut chunk = match m.pending_high.take() {
                Some(high) => high.concat(chunk),
                None => chunk.clone(),
            };
            let len = chunk.length();
            if len > 0 && (55296.0..56320.0).contains(&chunk.char_code_at(len - 1)) {
                // A high surrogate (0xD800..0xDC00): its low half comes with the next chunk.
                m.pending_high = Some(chunk.slice(len - 1, len));
                chunk = chunk.slice(0, len - 1);
            }
            let (text, _) = js_text(&chunk);
            m.driver.append(&text);
        });
    }

    /// Ends the stream: what was held back is resolved.
    pub fn finish(&self) {
        with_view(self.id, |m| {
            m.ended = true;
            if let Some(high) = m.pending_high.take() {
                let (text, _) = js_text(&high);
                m.driver.append(&text);
            }
            m.driver.finish();
        });
    }

    /// Listens to `citation-click` or `source-select` (any DOM event name works) on the
    /// mounted element; the callback gets the `CustomEvent`. Returns a function that
    /// removes the listener.
    pub fn on(&self, event_name: &str, callback: JsValue) -> Result<Function, Error> {
        let callback: Function = callback.dyn_into().map_err(|v| {
            js_error(format!(
                "on: `callback` must be a function, not {}",
                js_type(&v)
            ))
        })?;
        let live = with_view(self.id, |m| {
            m.listeners.push((event_name.to_string(), callback.clone()));
        })
        .is_some();
        if live {
            self.element
                .add_event_listener_with_callback(event_name, &callback)
                .map_err(|e| js_error(format!("on: {}", thrown_message(&e))))?;
        }
        let remove: Function = Reflect::get(&self.element, &"removeEventListener".into())
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .ok_or_else(|| js_error("on: the element has no removeEventListener"))?;
        let unsubscribe = remove.bind2(&self.element, &event_name.into(), &callback);
        Ok(unsubscribe.unchecked_into())
    }

    /// Unmounts the answer, removes the listeners added with `on` and empties the
    /// element. Calling it again does nothing.
    pub fn destroy(&self) {
        destroy(self.id);
    }

    /// Whether the view is still mounted.
    #[wasm_bindgen(getter)]
    pub fn mounted(&self) -> bool {
        VIEWS.with(|v| v.borrow().iter().any(|(k, _)| *k == self.id))
    }

    /// Whether its data is in a format this module leaves out (npm/core.js
    /// then mounts the answer again in the module that has them).
    #[wasm_bindgen(getter, js_name = needsFormats)]
    pub fn needs_formats(&self) -> bool {
        with_view(self.id, |m| m.driver.needs_formats()).unwrap_or(false)
    }
}
