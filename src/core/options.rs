//! Parse and render options (README.md, "Options"). JS names are camelCase, Rust names snake_case.

use crate::core::model::Format;
use crate::core::offsets::PositionEncoding;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    /// Follow `prefers-color-scheme`. The default.
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
    pub labels: BTreeMap<String, String>,
    /// Link identifiers (`MKT-1183`) in the answer to their urls (scintilla). Defaults to `true`.
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
            labels: BTreeMap::new(),
            link_identifiers: true,
        }
    }
}
