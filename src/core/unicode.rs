//! The Unicode questions the parsers ask beyond ASCII: case folding (reference labels,
//! claims) and letters and digits (word edges); the markdown parser's punctuation
//! (`core::commonmark::punct`) and named character references (`core::commonmark::entities`) work
//! the same way. A host build, and every build with the cargo feature `tables`, answers
//! from tables: unicase's case folding, the punctuation masks, the entity list and
//! core's own. A wasm build with the DOM layer and without `tables`
//! (`cfg(browser_tables)`: the npm package's first module) leaves the tables out (about
//! 14 KB gzip of wasm) and asks the browser, which carries the same data: the DOM layer
//! hands the browser's answers in as `BrowserTables` when it starts, so that neither
//! the core nor the renderer imports the browser. The two give the same answers for
//! what citekit compares (labels with labels, claims with answers): each side of a
//! comparison is folded by the same function.

/// What a build without the tables asks the browser, handed in by the layer that can
/// ask it (`dom::use_browser_tables`, called when the npm package's module loads and
/// when a Leptos component makes its context, before anything is parsed): one static
/// set of plain functions, of which the core keeps a reference.
#[cfg(browser_tables)]
pub(crate) struct BrowserTables {
    /// Case folding of a whole string, as `fold_case` promises.
    pub fold_case: fn(&str) -> String,
    /// Whether a character beyond ASCII is a letter or digit.
    pub is_alphanumeric: fn(char) -> bool,
    /// Whether a character beyond ASCII is punctuation or a symbol (`[\p{P}\p{S}]`,
    /// CommonMark's flanking rules).
    pub is_punct: fn(char) -> bool,
    /// The value of the named character reference `&name;` (`name` without `&` and
    /// `;`), or `None`.
    pub entity: fn(&str) -> Option<&'static str>,
}

#[cfg(browser_tables)]
thread_local! {
    /// The browser's answers once handed in. (A wasm build has one thread: a cell in a
    /// `const` thread-local is a plain static there.)
    static BROWSER: std::cell::Cell<Option<&'static BrowserTables>> = const { std::cell::Cell::new(None) };
}

/// Takes the browser's answers (they are the same at every call).
#[cfg(browser_tables)]
pub(crate) fn use_browser(tables: &'static BrowserTables) {
    BROWSER.with(|b| b.set(Some(tables)));
}

/// The browser's answers, once handed in. Before that, nothing beyond ASCII is folded,
/// a letter, a digit or punctuation, and no named reference is known (it stays text).
#[cfg(browser_tables)]
pub(crate) fn browser() -> Option<&'static BrowserTables> {
    BROWSER.with(std::cell::Cell::get)
}

/// `s` case-folded for comparison (`Straße` and `STRASSE` fold alike).
#[cfg(not(browser_tables))]
pub(crate) fn fold_case(s: &str) -> String {
    unicase::UniCase::new(s).to_folded_case()
}

/// `s` case-folded for comparison (`Straße` and `STRASSE` fold alike).
#[cfg(browser_tables)]
pub(crate) fn fold_case(s: &str) -> String {
    match browser() {
        Some(browser) => (browser.fold_case)(s),
        None => s.to_ascii_lowercase(),
    }
}

/// Whether `c` is a letter or digit (`char::is_alphanumeric`).
pub(crate) fn is_alphanumeric(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    #[cfg(not(browser_tables))]
    return c.is_alphanumeric();
    #[cfg(browser_tables)]
    return browser().is_some_and(|b| (b.is_alphanumeric)(c));
}

#[cfg(test)]
mod tests {
    #[test]
    fn folds_and_classifies_like_std() {
        assert_eq!(super::fold_case("Straße"), super::fold_case("STRASSE"));
        assert_eq!(super::fold_case("ΣΑΣ"), super::fold_case("σας"));
        for c in ['a', 'Z', '7', 'é', 'ß', '日', '٣', 'Ⅻ'] {
            assert!(super::is_alphanumeric(c), "{c}");
        }
        for c in [' ', '-', '_', '。', '€', '\u{301}'] {
            assert!(!super::is_alphanumeric(c), "{c}");
        }
    }
}
