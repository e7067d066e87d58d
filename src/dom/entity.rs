//! Named character references (`&copy;`) decoded by the browser's HTML parser, for the
//! markdown parser of a build without the entity table (`cfg(browser_tables)`: the npm
//! package's first module). The browser knows the same WHATWG list, so the
//! table need not ship twice.
//!
//! The browser also reads a legacy name without `;` as a prefix (`&notit;` is `¬it;`,
//! `&ampx;` is `&x;`, in attribute values too in Chromium), where CommonMark wants the
//! whole name or nothing. Such a reading leaves the rest of the name and its `;` after
//! the value, and no value of a whole name ends in a letter or digit and `;` (the only
//! one ending in `;` is `&semi;`), so that tells the two apart.

use crate::core::ordered_hash::OrderedHashMap;
use std::cell::RefCell;
use web_sys::Element;

/// How many names that are not references are remembered (hostile text can hold any
/// number of distinct ones; past this they are asked again, which stays linear).
const MAX_MISSES: usize = 1024;

#[derive(Default)]
struct Cache {
    /// A detached `<div>` whose `innerHTML` the names are parsed into, made on first use.
    probe: Option<Element>,
    /// Names read so far: their value, or `None` for a name that is not a reference.
    known: OrderedHashMap<String, Option<&'static str>>,
    misses: usize,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// The value of `&name;` (`name` without `&` and `;`), or `None` when it is not a named
/// character reference or there is no document to ask (a worker: the reference then
/// stays literal text).
pub fn entity(name: &str) -> Option<&'static str> {
    // Names are ASCII letters and digits (the markdown parser only asks for such).
    if name.is_empty() || name.len() > 32 || !name.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(known) = cache.known.get(name) {
            return *known;
        }
        if cache.probe.is_none() {
            cache.probe = super::util::document().and_then(|d| d.create_element("div").ok());
        }
        let probe = cache.probe.as_ref()?;
        let literal = ["&", name, ";"].concat();
        probe.set_inner_html(&["<a title=\"", &literal, "\"></a>"].concat());
        let value = probe
            .first_element_child()
            .and_then(|a| a.get_attribute("title"))
            .filter(|v| *v != literal && (v == ";" || !v.ends_with(';')));
        // A value is one of at most 2,125 names' values: kept for the page's life.
        let value: Option<&'static str> = value.map(|v| &*Box::leak(v.into_boxed_str()));
        if value.is_some() || cache.misses < MAX_MISSES {
            cache.misses += usize::from(value.is_none());
            cache.known.insert(name.to_string(), value);
        }
        value
    })
}
