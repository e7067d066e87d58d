//! The Unicode questions the parsers ask beyond ASCII: case folding (reference labels,
//! claims) and letters and digits (word edges); the markdown parser's punctuation
//! (`render::md::punct`) works the same way. A host build, and every build with the
//! cargo feature `tables`, answers from tables: unicase's case folding, the
//! punctuation masks and core's own. A wasm build with the DOM layer and without `tables`
//! (`cfg(browser_tables)`: the npm package's first module) asks the browser's
//! JavaScript engine instead ([`crate::dom::unicode`]), which carries the same Unicode
//! data: the wasm is about 4 KB gzip lighter. The two give the same answers for what
//! citekit compares (labels with labels, claims with answers): each side of a
//! comparison is folded by the same function.

/// `s` case-folded for comparison (`Straße` and `STRASSE` fold alike).
#[cfg(not(browser_tables))]
pub(crate) fn fold_case(s: &str) -> String {
    unicase::UniCase::new(s).to_folded_case()
}

#[cfg(browser_tables)]
pub(crate) use crate::dom::unicode::fold_case;

/// Whether `c` is a letter or digit (`char::is_alphanumeric`).
pub(crate) fn is_alphanumeric(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    #[cfg(not(browser_tables))]
    return c.is_alphanumeric();
    #[cfg(browser_tables)]
    return crate::dom::unicode::is_alphanumeric(c);
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
