//! What a host hands a mounted answer besides its text and data: its props as a JSON map
//! (the npm package's `mount`, `update`, `setOptions` and `renderToString` read a JS
//! object into one), the display settings among them, and how a later call changes them:
//! `update` replaces the keys present, `setOptions` replaces every option and the display
//! settings present. Also what the JS boundary's input needs before it is parsed: JSON
//! text whose lone surrogate escapes serde_json refuses, and the diagnostic that says a
//! string had lone surrogates; and the console warning of data that could not be read.
//!
//! These are decisions about options and text, so they live in the pure core and are
//! tested on the host; the bindings (`src/js.rs`) only turn JS values into the map and
//! these errors into JS errors.

use crate::core::json_fields::type_name;
use crate::core::model::Diagnostic;
use crate::core::options::Options;
use serde_json::{Map, Value};
use thiserror::Error;

/// Keys of `mount` and `update` props that are the content (not options).
pub(crate) const CONTENT_KEYS: &[&str] = &["answer", "data", "message", "streaming"];

/// Keys of props that choose what is shown (not parse options).
pub(crate) const DISPLAY_KEYS: &[&str] = &["panel", "footnotes", "copyButton", "injectCss"];

/// The code of the diagnostic for lone surrogates in input strings.
pub(crate) const INVALID_UTF16: &str = "invalid-utf16";

/// What is shown besides the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Display {
    /// The source panel beside the answer.
    pub panel: bool,
    /// Footnotes under the answer.
    pub footnotes: bool,
    /// A button that copies the answer with its citations as markdown.
    pub copy_button: bool,
    /// citekit's stylesheet added to the document head.
    pub inject_css: bool,
}

impl Default for Display {
    fn default() -> Self {
        Display {
            panel: false,
            footnotes: true,
            copy_button: false,
            inject_css: true,
        }
    }
}

/// A prop whose value is not valid: the message, which names it (`invalid option
/// \`numbering\`: ...`, `option \`panel\` must be true or false, not a string`). Written
/// where the error is found, as one string, so that the npm module links one formatting
/// path for it (an enum with a `Display` per kind cost 0.3 KB of wasm more).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub(crate) struct PropError(pub(crate) String);

/// The options of a props map: null values are left at their defaults, unknown keys (the
/// display settings among them) are ignored.
pub(crate) fn options_of(map: &Map<String, Value>) -> Result<Options, PropError> {
    Options::from_json(map)
        .map_err(|(key, message)| PropError(format!("invalid option `{key}`: {message}")))
}

/// A boolean display setting: `true`/`false`, or `default` when unset (absent or null).
fn flag(map: &Map<String, Value>, key: &'static str, default: bool) -> Result<bool, PropError> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(PropError(format!(
            "option `{key}` must be true or false, not {}",
            type_name(other)
        ))),
    }
}

impl Display {
    /// These settings with the ones `map` sets replaced (a null one goes back to its
    /// default only through the default given: `self`).
    pub(crate) fn merged(self, map: &Map<String, Value>) -> Result<Display, PropError> {
        Ok(Display {
            panel: flag(map, "panel", self.panel)?,
            footnotes: flag(map, "footnotes", self.footnotes)?,
            copy_button: flag(map, "copyButton", self.copy_button)?,
            inject_css: flag(map, "injectCss", self.inject_css)?,
        })
    }
}

/// Whether a prop is an option (not a display setting).
fn is_option(key: &str) -> bool {
    !DISPLAY_KEYS.contains(&key)
}

/// The entries of `map` that are options. (One function for `mount` and `setOptions`:
/// each collecting closure is its own copy of the map's `from_iter` in the wasm.)
fn options_only(map: &Map<String, Value>) -> Map<String, Value> {
    map.iter()
        .filter(|(k, _)| is_option(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The props of a mounted answer besides its content: the options as given (JSON, so
/// that `update` can replace single ones) and the display settings.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Props {
    options: Map<String, Value>,
    /// What is shown besides the answer.
    pub(crate) display: Display,
}

impl Props {
    /// The props `mount` was given (`map`: every prop but the content keys), with the
    /// options they make. Unset display settings take their defaults.
    pub(crate) fn mount(map: &Map<String, Value>) -> Result<(Props, Options), PropError> {
        let options = options_of(map)?;
        let display = Display::default().merged(map)?;
        let props = Props {
            options: options_only(map),
            display,
        };
        Ok((props, options))
    }

    /// `update(map)`: each key present replaces its value (an option set to null goes
    /// back to its default); the others stay. Returns the options they make now; a bad
    /// value changes nothing.
    pub(crate) fn update(&mut self, map: &Map<String, Value>) -> Result<Options, PropError> {
        let mut option_map = self.options.clone();
        for (k, v) in map {
            if is_option(k) {
                option_map.insert(k.clone(), v.clone());
            }
        }
        let options = options_of(&option_map)?;
        self.display = self.display.merged(map)?;
        self.options = option_map;
        Ok(options)
    }

    /// `setOptions(map)`: every option is replaced (one absent goes back to its
    /// default); the display settings change only when present. Returns the options
    /// they make now; a bad value changes nothing.
    pub(crate) fn replace(&mut self, map: &Map<String, Value>) -> Result<Options, PropError> {
        let option_map = options_only(map);
        let options = options_of(&option_map)?;
        self.display = self.display.merged(map)?;
        self.options = option_map;
        Ok(options)
    }
}

/// What `renderToString` reads of its options.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RenderProps {
    /// The parse and display options.
    pub(crate) options: Options,
    /// Whether the source panel is rendered. Defaults to `false`.
    pub(crate) panel: bool,
    /// The prefix of every id (`idPrefix`). Defaults to `cite` (also when not a string).
    pub(crate) id_prefix: String,
}

impl RenderProps {
    /// The render props of an options map.
    pub(crate) fn of(map: &Map<String, Value>) -> Result<RenderProps, PropError> {
        let options = options_of(map)?;
        let panel = flag(map, "panel", false)?;
        let id_prefix = match map.get("idPrefix") {
            Some(Value::String(p)) => p.clone(),
            _ => "cite".to_string(),
        };
        Ok(RenderProps {
            options,
            panel,
            id_prefix,
        })
    }
}

/// The warning diagnostic for input strings whose lone UTF-16 surrogates were replaced
/// by U+FFFD; `None` when neither had any.
pub(crate) fn lone_surrogates(answer: bool, data: bool) -> Option<Diagnostic> {
    let which = match (answer, data) {
        (true, true) => "the answer and the data",
        (true, false) => "the answer",
        (false, true) => "the data",
        (false, false) => return None,
    };
    Some(Diagnostic::warning(
        INVALID_UTF16,
        format!("{which} contained lone UTF-16 surrogates; each was replaced by U+FFFD"),
    ))
}

/// Replaces every `\uD800`–`\uDFFF` escape of JSON text that is not half of a valid
/// surrogate pair by `\uFFFD` (`JSON.stringify` escapes lone surrogates that way, and
/// serde_json refuses them). `None` when there was nothing to replace.
pub(crate) fn fix_lone_surrogate_escapes(json: &str) -> Option<String> {
    fn hex4(b: &[u8], at: usize) -> Option<u32> {
        b.get(at..at.checked_add(4)?)?
            .iter()
            .try_fold(0, |n, &c| Some(n * 16 + (c as char).to_digit(16)?))
    }
    let b = json.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0usize;
    let mut i = 0usize;
    while let Some(p) = b
        .get(i..)
        .and_then(|rest| crate::core::str_ops::memchr(b'\\', rest))
    {
        let at = i + p;
        if b.get(at + 1) != Some(&b'u') {
            // Any other escape: skip the backslash and the escaped character.
            i = at + 2;
            continue;
        }
        let Some(unit) = hex4(b, at + 2) else {
            i = at + 2;
            continue;
        };
        if !(0xD800..=0xDFFF).contains(&unit) {
            i = at + 6;
            continue;
        }
        let paired = unit < 0xDC00
            && b.get(at + 6) == Some(&b'\\')
            && b.get(at + 7) == Some(&b'u')
            && hex4(b, at + 8).is_some_and(|low| (0xDC00..=0xDFFF).contains(&low));
        if paired {
            i = at + 12;
            continue;
        }
        let o = out.get_or_insert_with(|| String::with_capacity(json.len()));
        // `at` is a backslash and `at + 6` follows four ASCII digits: both are
        // character boundaries.
        o.push_str(json.get(copied..at).unwrap_or(""));
        o.push_str("\\ufffd");
        copied = at + 6;
        i = at + 6;
    }
    out.map(|mut o| {
        o.push_str(json.get(copied..).unwrap_or(""));
        o
    })
}

/// The console warning of a mounted answer whose data could not all be read (`mount`
/// never throws on bad data): said once per new first error, so a stream that keeps
/// failing the same way does not fill the console.
#[derive(Debug, Default)]
pub(crate) struct DataWarning {
    /// The first error last warned about.
    last: Option<String>,
}

impl DataWarning {
    /// The warning to give now for the data's errors (the first and how many), if any:
    /// the console line as written, `citekit: ` first (one `format!` for the whole line).
    pub(crate) fn next(&mut self, errors: Option<(String, usize)>) -> Option<String> {
        let Some((first, n)) = errors else {
            self.last = None;
            return None;
        };
        if self.last.as_deref() == Some(first.as_str()) {
            return None;
        }
        let more = match n {
            0 | 1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        let message = format!(
            "citekit: the citation data could not be read as given: {first}{more}; the answer shows without those citations"
        );
        self.last = Some(first);
        Some(message)
    }
}

#[cfg(test)]
mod tests;
