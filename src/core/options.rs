//! Parse and render options (README.md, "Options"). JS names are camelCase, Rust names snake_case.

use crate::core::json_fields::type_name;
use crate::core::model::Format;
use crate::core::offsets::PositionEncoding;
use crate::core::text_map::TextMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Which format to read the input as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FormatChoice {
    /// Detect the format from the shape of the data. The default.
    #[default]
    Auto,
    /// Read the input as this format.
    Given(Format),
}

impl Serialize for FormatChoice {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            FormatChoice::Auto => s.serialize_str("auto"),
            FormatChoice::Given(f) => s.serialize_str(f.name()),
        }
    }
}

impl<'de> Deserialize<'de> for FormatChoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        if name == "auto" {
            return Ok(FormatChoice::Auto);
        }
        Format::from_name(&name)
            .map(FormatChoice::Given)
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                serde::de::Error::custom(format!(
                    "unknown format `{name}`: expected \"auto\" or one of {}",
                    names.join(", ")
                ))
            })
    }
}

/// How sources are numbered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Numbering {
    /// 1..k in order of first citation, uncited sources after. The default.
    #[default]
    FirstCited,
    /// Keep the numbers the input gave (marker numbers, sids, list positions).
    Given,
}

/// What happens to a marker whose number or sid names no source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unresolved {
    /// Remove it from the text (with a diagnostic). The default.
    #[default]
    Drop,
    /// Keep it as literal text (with a diagnostic).
    Keep,
}

/// How uncited sources show in the panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Uncited {
    /// Listed after the cited ones, dimmed. The default.
    #[default]
    Dim,
    /// Listed after the cited ones, not dimmed.
    Show,
    /// Not listed.
    Hide,
}

/// How a marker is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MarkerStyle {
    /// One number per source. The default.
    #[default]
    Number,
    /// One marker per group: `1–3`, `2, 5`.
    Grouped,
    /// A domain chip: `example.com +2`.
    Domain,
}

/// Colour theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    /// Follow the page's `color-scheme` (light unless it declares dark; `light dark` follows
    /// the system), with the prose in the page's text colour. The default.
    #[default]
    Auto,
    /// Light.
    Light,
    /// Dark.
    Dark,
}

/// Every option of `parse`, `mount` and the components.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Options {
    /// Input format, or `auto`. Defaults to `auto`.
    pub format: FormatChoice,
    /// Unit of the offsets in the output JSON. Defaults to `utf16`.
    pub position_encoding: PositionEncoding,
    /// Unit of the offsets in the input, overriding the format's own default
    /// (UTF-16 for stored and openai, UTF-8 for gemini). Defaults to the format's.
    pub input_encoding: Option<PositionEncoding>,
    /// Numbering of sources. Defaults to `first-cited`.
    pub numbering: Numbering,
    /// Unresolved markers: drop or keep. Defaults to `drop`.
    pub unresolved: Unresolved,
    /// Show citations at all (a chat client's citations on/off setting). Defaults to `true`.
    pub show_citations: bool,
    /// Uncited sources in the panel. Defaults to `dim`.
    pub uncited: Uncited,
    /// Marker look. Defaults to `number`.
    pub marker_style: MarkerStyle,
    /// Theme. Defaults to `auto`.
    pub theme: Theme,
    /// Replaced label texts (i18n), by label key. Defaults to none.
    pub labels: TextMap,
    /// Link identifiers (`MKT-1183`) in the answer to their urls (scintilla). Defaults to `true`.
    /// Only the scintilla format gives sources identifiers: a build without the
    /// `scintilla` feature has none to link, and leaves the linking code out.
    pub link_identifiers: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            format: FormatChoice::Auto,
            position_encoding: PositionEncoding::Utf16,
            input_encoding: None,
            numbering: Numbering::FirstCited,
            unresolved: Unresolved::Drop,
            show_citations: true,
            uncited: Uncited::Dim,
            marker_style: MarkerStyle::Number,
            theme: Theme::Auto,
            labels: TextMap::new(),
            link_identifiers: true,
        }
    }
}

impl Options {
    /// Whether `self` and `other` give the same model of an answer: they differ at most
    /// in how it is drawn (`uncited`, `marker_style`, `theme`, `labels`). Every field is
    /// named, so a new option must be sorted here.
    pub fn same_model(&self, other: &Options) -> bool {
        let Options {
            format,
            position_encoding,
            input_encoding,
            numbering,
            unresolved,
            show_citations,
            uncited: _,
            marker_style: _,
            theme: _,
            labels: _,
            link_identifiers,
        } = self;
        *format == other.format
            && *position_encoding == other.position_encoding
            && *input_encoding == other.input_encoding
            && *numbering == other.numbering
            && *unresolved == other.unresolved
            && *show_citations == other.show_citations
            && *link_identifiers == other.link_identifiers
    }

    /// Options from the fields of a JSON object, as `parse`, `mount` and
    /// `<cited-answer>` take them: camelCase keys, a null field keeps its default, an
    /// unknown key is ignored (as serde's derive reads them, for Rust callers). Read by
    /// hand for the npm package: the derive's visitors and messages are 4.4 KB gzip of
    /// its wasm (docs/size.md). A bad value fails with its key and what is wrong with
    /// it.
    pub fn from_json(map: &Map<String, Value>) -> Result<Options, (String, String)> {
        use MarkerStyle as M;
        use PositionEncoding as E;
        const ENCODINGS: &[(&str, E)] =
            &[("utf8", E::Utf8), ("utf16", E::Utf16), ("utf32", E::Utf32)];
        let mut o = Options::default();
        for (k, v) in map {
            if v.is_null() {
                continue;
            }
            let read = match k.as_str() {
                "format" => format_choice(v).map(|f| o.format = f),
                "positionEncoding" => choice(v, ENCODINGS).map(|e| o.position_encoding = e),
                "inputEncoding" => choice(v, ENCODINGS).map(|e| o.input_encoding = Some(e)),
                "numbering" => choice(
                    v,
                    &[
                        ("first-cited", Numbering::FirstCited),
                        ("given", Numbering::Given),
                    ],
                )
                .map(|n| o.numbering = n),
                "unresolved" => {
                    choice(v, &[("drop", Unresolved::Drop), ("keep", Unresolved::Keep)])
                        .map(|u| o.unresolved = u)
                }
                "showCitations" => boolean(v).map(|b| o.show_citations = b),
                "uncited" => choice(
                    v,
                    &[
                        ("dim", Uncited::Dim),
                        ("show", Uncited::Show),
                        ("hide", Uncited::Hide),
                    ],
                )
                .map(|u| o.uncited = u),
                "markerStyle" => choice(
                    v,
                    &[
                        ("number", M::Number),
                        ("grouped", M::Grouped),
                        ("domain", M::Domain),
                    ],
                )
                .map(|m| o.marker_style = m),
                "theme" => choice(
                    v,
                    &[
                        ("auto", Theme::Auto),
                        ("light", Theme::Light),
                        ("dark", Theme::Dark),
                    ],
                )
                .map(|t| o.theme = t),
                "labels" => labels(v).map(|l| o.labels = l),
                "linkIdentifiers" => boolean(v).map(|b| o.link_identifiers = b),
                _ => Ok(()),
            };
            read.map_err(|m| (k.clone(), m))?;
        }
        Ok(o)
    }
}

/// The `format` option: `"auto"` or a format's name.
fn format_choice(v: &Value) -> Result<FormatChoice, String> {
    let names = || crate::core::str_ops::join(&mut Format::ALL.iter().map(|f| f.name()), ", ");
    match v.as_str() {
        Some("auto") => Ok(FormatChoice::Auto),
        Some(name) => Format::from_name(name)
            .map(FormatChoice::Given)
            .ok_or_else(|| {
                format!(
                    "unknown format `{name}`: expected \"auto\" or one of {}",
                    names()
                )
            }),
        None => Err(format!(
            "expected \"auto\" or one of {}, found {}",
            names(),
            type_name(v)
        )),
    }
}

/// One of `choices` by its name.
fn choice<T: Copy>(v: &Value, choices: &[(&str, T)]) -> Result<T, String> {
    let expected = || {
        let names: Vec<String> = choices.iter().map(|(n, _)| format!("`{n}`")).collect();
        crate::core::str_ops::join(&mut names.iter().map(String::as_str), ", ")
    };
    match v.as_str() {
        Some(s) => choices
            .iter()
            .find(|(n, _)| *n == s)
            .map(|(_, c)| *c)
            .ok_or_else(|| format!("unknown value `{s}`, expected one of {}", expected())),
        None => Err(format!(
            "expected one of {}, found {}",
            expected(),
            type_name(v)
        )),
    }
}

fn boolean(v: &Value) -> Result<bool, String> {
    v.as_bool()
        .ok_or_else(|| format!("expected true or false, found {}", type_name(v)))
}

/// Replaced label texts: an object of strings.
fn labels(v: &Value) -> Result<TextMap, String> {
    let Some(o) = v.as_object() else {
        return Err(format!(
            "expected an object of label texts, found {}",
            type_name(v)
        ));
    };
    let mut labels = TextMap::new();
    for (k, t) in o {
        let Some(t) = t.as_str() else {
            return Err(format!(
                "label `{k}` must be a string, found {}",
                type_name(t)
            ));
        };
        labels.insert(k.clone(), t.to_string());
    }
    Ok(labels)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> Result<Options, (String, String)> {
        Options::from_json(v.as_object().unwrap())
    }

    #[test]
    fn reads_every_option_as_the_derive_does() {
        let all = json!({
            "format": "citation_map", "positionEncoding": "utf8", "inputEncoding": "utf32",
            "numbering": "given", "unresolved": "keep", "showCitations": false,
            "uncited": "hide", "markerStyle": "domain", "theme": "dark",
            "labels": {"copy": "Kopieren"}, "linkIdentifiers": false, "unknownKey": 3
        });
        let o = read(all.clone()).unwrap();
        assert_eq!(o, serde_json::from_value::<Options>(all).unwrap());
        assert_eq!(o.format, FormatChoice::Given(Format::CitationMap));
        assert_eq!(o.input_encoding, Some(PositionEncoding::Utf32));
        assert_eq!(o.labels.get("copy").map(String::as_str), Some("Kopieren"));
        assert!(!o.show_citations && !o.link_identifiers);
        for v in [
            json!({}),
            json!({"format": "auto", "theme": null}),
            json!({"numbering": "first-cited", "uncited": "show", "markerStyle": "grouped"}),
            json!({"theme": "light", "positionEncoding": "utf16", "unresolved": "drop"}),
        ] {
            let derived = serde_json::from_value::<Options>(Value::Object(
                v.as_object()
                    .unwrap()
                    .iter()
                    .filter(|(_, x)| !x.is_null())
                    .map(|(k, x)| (k.clone(), x.clone()))
                    .collect(),
            ))
            .unwrap();
            assert_eq!(read(v).unwrap(), derived);
        }
    }

    #[test]
    fn a_bad_value_names_its_option() {
        let (k, m) = read(json!({"theme": "dark", "format": "nope"})).unwrap_err();
        assert_eq!(k, "format");
        assert!(
            m.starts_with("unknown format `nope`: expected \"auto\" or one of stored,"),
            "{m}"
        );
        let (k, m) = read(json!({"markerStyle": 3})).unwrap_err();
        assert_eq!(k, "markerStyle");
        assert_eq!(
            m,
            "expected one of `number`, `grouped`, `domain`, found a number"
        );
        let (_, m) = read(json!({"numbering": "last"})).unwrap_err();
        assert_eq!(
            m,
            "unknown value `last`, expected one of `first-cited`, `given`"
        );
        let (k, m) = read(json!({"showCitations": "yes"})).unwrap_err();
        assert_eq!(
            (k.as_str(), m.as_str()),
            ("showCitations", "expected true or false, found a string")
        );
        let (_, m) = read(json!({"labels": {"copy": 1}})).unwrap_err();
        assert_eq!(m, "label `copy` must be a string, found a number");
        let (_, m) = read(json!({"labels": []})).unwrap_err();
        assert_eq!(m, "expected an object of label texts, found an array");
    }
}
