//! The browser's answers to [`crate::core::unicode`]'s questions, for a build without
//! the Unicode tables (`cfg(browser_tables)`): JavaScript's own case mappings and
//! Unicode property escapes, which carry the same data as the tables left out.

use js_sys::{JsString, RegExp};
use std::thread::LocalKey;

thread_local! {
    /// `[\p{P}\p{S}]`: punctuation and symbols, CommonMark's "Unicode punctuation".
    static PUNCT: RegExp = RegExp::new(r"^[\p{P}\p{S}]$", "u");
    /// `char::is_alphanumeric`: the Alphabetic property or a number (Nd, Nl, No).
    static ALNUM: RegExp = RegExp::new(r"^[\p{Alphabetic}\p{N}]$", "u");
}

/// `s` case-folded for comparison: lower, upper, then lower case again, so that `ß`,
/// `ẞ` and `SS` all come out `ss` (JavaScript has no case folding of its own; this is
/// what its full case mappings give for every character that folds to more than one).
pub fn fold_case(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    let js = JsString::from(s);
    String::from(js.to_lower_case().to_upper_case().to_lower_case())
}

/// Whether `c` is Unicode punctuation or a symbol.
pub fn is_punct(c: char) -> bool {
    matches(&PUNCT, c)
}

/// Whether `c` is a letter or digit, as `char::is_alphanumeric` says.
pub fn is_alphanumeric(c: char) -> bool {
    matches(&ALNUM, c)
}

/// Whether the one-character pattern `re` matches `c`.
fn matches(re: &'static LocalKey<RegExp>, c: char) -> bool {
    let mut buf = [0u8; 4];
    let s: &str = c.encode_utf8(&mut buf);
    re.with(|re| re.test(s))
}
