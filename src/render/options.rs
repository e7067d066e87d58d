//! How to render: the id prefix, the marker style, what to do with uncited sources, the
//! theme of a static rendering, and the texts shown to users ([`Labels`]).

use crate::core::options::{MarkerStyle, Options, Theme, Uncited};

/// Texts shown to users, replaceable for other languages (`labels` option), in the
/// order of [`DEFAULT_LABELS`] (a list read by position, not a map).
#[derive(Debug, Clone, PartialEq)]
pub struct Labels(Vec<String>);

/// The label keys and their English defaults. `{n}`, `{i}`, `{total}`, `{title}` are
/// filled in where they appear.
pub const DEFAULT_LABELS: &[(&str, &str)] = &[
    ("sources", "Sources"),
    ("references", "References"),
    ("source", "Source {n}"),
    ("sourceTitled", "Source {n}: {title}"),
    ("sourcesList", "Sources {list}"),
    ("opensInNewTab", "(opens in a new tab)"),
    ("open", "Open source"),
    ("previous", "Previous source"),
    ("next", "Next source"),
    ("pager", "{i}/{total}"),
    ("citedTimes", "cited {n}×"),
    ("uncited", "not cited"),
    ("backToCitation", "Back to citation {label}"),
    ("page", "Page"),
    ("score", "Score"),
    ("published", "Published"),
    ("modified", "Updated"),
    ("details", "Details"),
    ("copy", "Copy with citations"),
    ("copied", "Copied"),
    ("pending", "Source not loaded yet"),
    ("untitled", "Untitled source"),
    ("forAnswer", "for “{excerpt}”"),
];

impl Default for Labels {
    fn default() -> Self {
        Labels(DEFAULT_LABELS.iter().map(|(_, v)| v.to_string()).collect())
    }
}

impl Labels {
    /// The defaults with `overrides` replacing some of them (unknown keys ignored).
    pub fn with(overrides: &crate::core::text_map::TextMap) -> Self {
        let mut l = Labels::default();
        for (k, v) in overrides {
            if let Some(i) = DEFAULT_LABELS.iter().position(|(d, _)| d == k) {
                l.0[i] = v.clone();
            }
        }
        l
    }

    /// The text of `key`.
    pub fn get<'a>(&'a self, key: &'a str) -> &'a str {
        DEFAULT_LABELS
            .iter()
            .position(|(d, _)| *d == key)
            .and_then(|i| self.0.get(i))
            .map_or(key, String::as_str)
    }

    /// The text of `key` with `{name}` placeholders filled.
    pub fn fill(&self, key: &str, vars: &[(&str, &str)]) -> String {
        let mut s = self.get(key).to_string();
        for (k, v) in vars {
            let mut placeholder = String::with_capacity(k.len() + 2);
            placeholder.push('{');
            placeholder.push_str(k);
            placeholder.push('}');
            if crate::core::str_ops::has(&s, &placeholder) {
                s = crate::core::str_ops::replace(&s, &placeholder, v);
            }
        }
        s
    }
}

/// How to render.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderOptions {
    /// Prefix of every element id, unique per answer on a page. Defaults to `cite`.
    pub id_prefix: String,
    /// Marker look. Defaults to numbers.
    pub marker_style: MarkerStyle,
    /// Uncited sources in the panel. Defaults to dimmed.
    pub uncited: Uncited,
    /// Texts.
    pub labels: Labels,
    /// The theme class of a static rendering's root
    /// ([`render_to_string`](crate::components::answer::html::render_to_string)); the live
    /// component sets its root's class itself, so that a theme change re-renders
    /// nothing. Defaults to auto (no class: the page's colour scheme decides).
    pub theme: Theme,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            id_prefix: "cite".into(),
            marker_style: MarkerStyle::Number,
            uncited: Uncited::Dim,
            labels: Labels::default(),
            theme: Theme::Auto,
        }
    }
}

impl RenderOptions {
    /// Render options from parse options, with an id prefix.
    pub fn from_options(options: &Options, id_prefix: &str) -> Self {
        RenderOptions {
            id_prefix: sanitize_prefix(id_prefix),
            marker_style: options.marker_style,
            uncited: options.uncited,
            labels: Labels::with(&options.labels),
            theme: options.theme,
        }
    }

    /// The render options of a live answer (the Leptos component, the npm driver): as
    /// the options say, but with the theme left to the root's class, so that a theme
    /// change re-renders nothing and an open card and the panel's selection stay.
    pub fn live(options: &Options, id_prefix: &str) -> Self {
        RenderOptions {
            theme: Theme::Auto,
            ..RenderOptions::from_options(options, id_prefix)
        }
    }
}

/// The root's `data-marker-style` value of a live answer (`number`, `domain`, ...).
pub fn marker_style_name(style: MarkerStyle) -> &'static str {
    match style {
        MarkerStyle::Number => "number",
        MarkerStyle::Grouped => "grouped",
        MarkerStyle::Domain => "domain",
    }
}

/// An id prefix reduced to `[A-Za-z0-9_-]`, starting with a letter.
pub fn sanitize_prefix(p: &str) -> String {
    let s: String = p
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(40)
        .collect();
    if s.starts_with(|c: char| c.is_ascii_alphabetic()) {
        s
    } else {
        format!("c{s}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_are_safe() {
        assert_eq!(sanitize_prefix("a\"><script>"), "ascript");
        assert_eq!(sanitize_prefix("9x"), "c9x");
    }
}
