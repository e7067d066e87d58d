//! The HTML renderer: turns a [`CitedAnswer`] into HTML strings for the answer (block by
//! block), the hover card, the source panel and the footnotes.
//!
//! Every piece of input text is escaped ([`escape`]); every tag, attribute and class
//! comes from citekit. The Leptos components put these strings into the DOM and add
//! behaviour by event delegation; `renderToString` returns them as they are. Pure Rust,
//! tested on the host.

pub mod class;
pub mod escape;
#[cfg(feature = "answer-kinds")]
pub mod html;
#[cfg(feature = "answer-kinds")]
pub mod json_view;
pub mod markdown;
pub mod stream_view;
mod writer;

use crate::core::limits::MAX_FOOTNOTE_BACKLINKS;
use crate::core::model::{CitedAnswer, ContentKind, Source};
use crate::core::options::{MarkerStyle, Options, Theme, Uncited};
use class::{
    ANSWER, ANSWER_BODY, CARD_NAV, FOOTNOTES, MARKER, MARKER_LINK, PANEL, SOURCE, SOURCE_TOGGLE,
};
use escape::push_escaped;
use std::fmt::Write;
use std::ops::Range;

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
            if crate::core::bytes::has(&s, &placeholder) {
                s = crate::core::bytes::replace(&s, &placeholder, v);
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
    /// The theme class of a static rendering's root ([`render_to_string`]); the live
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

/// Whether an answer shows its footnotes and its panel, given whether each is asked
/// for: footnotes when a source is cited or is a source of the whole answer, the panel
/// when there are sources, neither when citations are hidden.
pub fn lists_shown(answer: &CitedAnswer, footnotes: bool, panel: bool) -> (bool, bool) {
    (
        footnotes
            && answer.show_citations
            && answer
                .sources
                .iter()
                .any(|s| s.cited || s.of_whole_answer()),
        panel && answer.show_citations && !answer.sources.is_empty(),
    )
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

/// Bytes of answer text after which rendered blocks (and the footnote list) are laid
/// out lazily, with `content-visibility: auto`: about a screenful of text.
pub const LAZY_AFTER: usize = 6000;

/// One top-level block of the rendered answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Byte range of the answer text this block comes from.
    pub range: Range<usize>,
    /// The block's HTML.
    pub html: String,
}

/// The answer as HTML blocks, markers inline, cited spans wrapped for highlighting.
pub fn answer_blocks(answer: &CitedAnswer, opts: &RenderOptions) -> Vec<Block> {
    let markers = MarkerSet::new(answer, opts);
    match answer.content_kind {
        ContentKind::Markdown => markdown::blocks(answer, &markers),
        #[cfg(feature = "answer-kinds")]
        ContentKind::Html => html::blocks(answer, &markers),
        #[cfg(feature = "answer-kinds")]
        ContentKind::Json => json_view::blocks(answer, &markers),
        // Without `answer-kinds` the parser makes no HTML or JSON answer (it gives
        // their text as plain text).
        _ => plain_blocks(answer, &markers),
    }
}

/// The answer as one HTML string (`<div class="cite-answer__body">` of its blocks).
pub fn answer_html(answer: &CitedAnswer, opts: &RenderOptions) -> String {
    let mut out = String::new();
    for b in answer_blocks(answer, opts) {
        out.push_str(&b.html);
    }
    out
}

/// Plain text (and YAML): one `<div class="cite-plain">` per paragraph, line breaks
/// kept by CSS (`white-space: pre-wrap`).
fn plain_blocks(answer: &CitedAnswer, markers: &MarkerSet) -> Vec<Block> {
    let text = &answer.text;
    let mut w = writer::Inline::new(text, markers);
    let mut blocks = Vec::new();
    let mut start = 0;
    let class = if answer.content_kind == ContentKind::Yaml {
        "cite-plain cite-plain--yaml"
    } else {
        "cite-plain"
    };
    let push_block = |w: &mut writer::Inline, start: usize, end: usize, last: bool| {
        let mut html = format!("<div class=\"{class}\">");
        w.text(start..end, true);
        w.flush_markers(end, last);
        html.push_str(&w.take());
        html.push_str("</div>");
        Block {
            range: start..end,
            html,
        }
    };
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(p) = crate::core::bytes::find(&bytes[i..], b"\n\n") {
        let end = i + p;
        let mut next = end;
        while next < bytes.len() && bytes[next] == b'\n' {
            next += 1;
        }
        blocks.push(push_block(&mut w, start, end, false));
        start = next;
        i = next;
    }
    if start < text.len() || blocks.is_empty() || !answer.citations.is_empty() {
        blocks.push(push_block(&mut w, start, text.len(), true));
    }
    blocks
}

/// Precomputed marker HTML per citation and the cited-span segments.
pub struct MarkerSet {
    /// (position, citation index), sorted by position.
    pub(crate) at: Vec<(usize, usize)>,
    /// HTML of each citation's marker (of those it was made for).
    pub(crate) html: MarkerHtml,
    /// Elementary segments: (start, `data-c` value or empty), sorted.
    pub(crate) segments: Vec<(usize, String)>,
    /// Identifier links over the text (`MKT-1183`), sorted, disjoint.
    pub(crate) links: Vec<crate::core::model::TextLink>,
}

/// The marker HTML of citations `first..`, by citation index.
pub(crate) struct MarkerHtml {
    first: usize,
    html: Vec<String>,
}

impl MarkerHtml {
    /// The marker HTML of citation `ci`, if it was made.
    #[cfg(any(feature = "answer-kinds", feature = "dom"))]
    pub(crate) fn get(&self, ci: usize) -> Option<&String> {
        self.html.get(ci.checked_sub(self.first)?)
    }

    /// The first citation with marker HTML.
    pub(crate) fn first(&self) -> usize {
        self.first
    }

    /// How many citations have marker HTML.
    pub(crate) fn len(&self) -> usize {
        self.html.len()
    }
}

impl std::ops::Index<usize> for MarkerHtml {
    type Output = String;
    fn index(&self, ci: usize) -> &String {
        &self.html[ci - self.first]
    }
}

impl MarkerSet {
    /// Marker HTML for every citation of `answer`.
    pub fn new(answer: &CitedAnswer, opts: &RenderOptions) -> Self {
        Self::from(answer, opts, 0)
    }

    /// Like [`MarkerSet::new`], for a render that starts at byte `from` (a streaming
    /// render of the open tail): only the citations that end at or after `from` are
    /// looked at (their markers and cited spans are all that text from `from` on can
    /// show), so the cost follows them, not the answer. With `from` above 0,
    /// `answer.citations` must be sorted by end, as every [`CitedAnswer`] the parser
    /// makes is (with 0, any order renders).
    pub fn from(answer: &CitedAnswer, opts: &RenderOptions, from: usize) -> Self {
        let cits = &answer.citations;
        // A citation that ends before `from` shows nothing from there on: neither its
        // marker nor its span (which ends with the marker).
        let first = if from == 0 {
            0
        } else {
            cits.partition_point(|c| c.end < from)
        };
        debug_assert!(from == 0 || cits.windows(2).all(|w| w[0].end <= w[1].end));
        let tail = &cits[first..];
        let mut at: Vec<(usize, usize)> = tail
            .iter()
            .enumerate()
            .map(|(k, c)| (c.end, first + k))
            .collect();
        crate::core::sort::sort_by_key(&mut at, |&(e, i)| (e as u64, i as u64));
        let cache = if first == 0 {
            SourceCache::new(answer, opts)
        } else {
            SourceCache::of_citations(answer, opts, tail)
        };
        let html = tail
            .iter()
            .enumerate()
            .map(|(k, c)| marker_html(&cache, first + k, &c.sources, opts))
            .collect();
        // Segments: every start/end is a boundary; the active set between boundaries.
        let mut events: Vec<(usize, bool, usize)> = Vec::with_capacity(tail.len() * 2);
        for (k, c) in tail.iter().enumerate() {
            if c.start < c.end {
                events.push((c.start, true, first + k));
                events.push((c.end, false, first + k));
            }
        }
        crate::core::sort::sort_by_key(&mut events, |e| (e.0 as u64, u64::from(e.1)));
        let mut segments: Vec<(usize, String)> = vec![(0, String::new())];
        let mut active: Vec<usize> = Vec::new();
        let mut k = 0;
        while k < events.len() {
            let pos = events[k].0;
            while k < events.len() && events[k].0 == pos {
                let (_, open, i) = events[k];
                if open {
                    active.push(i);
                } else {
                    active.retain(|&a| a != i);
                }
                k += 1;
            }
            let mut ids = String::new();
            for (n, a) in active.iter().enumerate() {
                if n > 0 {
                    ids.push(' ');
                }
                let _ = write!(ids, "{a}");
            }
            if segments.last().is_some_and(|s| s.0 == pos) {
                segments.pop();
            }
            segments.push((pos, ids));
        }
        let links_from = answer.links.partition_point(|l| l.end <= from);
        MarkerSet {
            at,
            html: MarkerHtml { first, html },
            segments,
            links: answer.links[links_from..].to_vec(),
        }
    }

    /// The url of the identifier link over byte `pos`, if any.
    pub(crate) fn link_at(&self, pos: usize) -> Option<&str> {
        let i = self.links.partition_point(|l| l.end <= pos);
        self.links
            .get(i)
            .filter(|l| l.start <= pos)
            .map(|l| l.url.as_str())
    }

    /// The next start or end of an identifier link after `pos`.
    pub(crate) fn next_link_boundary(&self, pos: usize) -> Option<usize> {
        let i = self.links.partition_point(|l| l.end <= pos);
        self.links
            .get(i)
            .map(|l| if l.start > pos { l.start } else { l.end })
    }

    /// The `data-c` value at byte `pos`.
    pub(crate) fn active_at(&self, pos: usize) -> &str {
        let i = self.segments.partition_point(|s| s.0 <= pos);
        if i == 0 {
            ""
        } else {
            &self.segments[i - 1].1
        }
    }

    /// The next segment boundary after `pos`.
    pub(crate) fn next_boundary(&self, pos: usize) -> Option<usize> {
        let i = self.segments.partition_point(|s| s.0 <= pos);
        self.segments.get(i).map(|s| s.0)
    }
}

/// Sorted source numbers compressed for display: `1–3`, `2, 5`.
pub fn compress_numbers(nums: &[u32]) -> String {
    let mut v = nums.to_vec();
    crate::core::sort::sort_by_key(&mut v, |&n| (u64::from(n), 0));
    v.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}–{}", v[i], v[j]));
        } else {
            for n in &v[i..=j] {
                parts.push(n.to_string());
            }
        }
        i = j + 1;
    }
    crate::core::bytes::join(&mut parts.iter().map(String::as_str), ", ")
}

fn source_label(s: &Source, opts: &RenderOptions) -> String {
    let n = s.number.to_string();
    match s.display_title() {
        Some(t) => opts
            .labels
            .fill("sourceTitled", &[("n", &n), ("title", &t)]),
        None => opts.labels.fill("source", &[("n", &n)]),
    }
}

/// The title shown for `s` in the card, the panel and the footnotes
/// ([`Source::display_title`]), or the `untitled` label.
fn display_title<'a>(s: &'a Source, opts: &'a RenderOptions) -> std::borrow::Cow<'a, str> {
    s.display_title()
        .unwrap_or(std::borrow::Cow::Borrowed(opts.labels.get("untitled")))
}

/// The id of marker link `k` of citation `ci`.
pub fn ref_id(opts: &RenderOptions, ci: usize, k: usize) -> String {
    format!("{}-ref-{ci}-{k}", opts.id_prefix)
}

/// The id of the footnote of source number `n`.
pub fn footnote_id(opts: &RenderOptions, n: u32) -> String {
    format!("{}-fn-{n}", opts.id_prefix)
}

/// The id of the panel entry of source number `n`.
pub fn panel_item_id(opts: &RenderOptions, n: u32) -> String {
    format!("{}-src-{n}", opts.id_prefix)
}

/// What stands between adjacent links of one marker: the text `, ` in an element the
/// stylesheet gives no room on screen, kept in copied text and in the marker's text
/// content.
pub const MARKER_SEPARATOR: &str = "<span class=\"cite-marker__sep\">, </span>";

/// The answer's sources by id, with what every marker of a source repeats (its
/// escaped accessible name), made once per render: a long answer cites the same few
/// sources thousands of times.
pub(crate) struct SourceCache<'a> {
    by_id: crate::core::map::Map<&'a str, (&'a Source, String)>,
}

impl<'a> SourceCache<'a> {
    pub(crate) fn new(answer: &'a CitedAnswer, opts: &RenderOptions) -> Self {
        let mut by_id = crate::core::map::Map::new();
        for s in &answer.sources {
            by_id.or_insert_with(s.id.as_str(), || {
                let mut label = String::new();
                push_escaped(&mut label, &source_label(s, opts));
                (s, label)
            });
        }
        SourceCache { by_id }
    }

    /// The sources `cits` name, found in one pass over the answer's sources that
    /// stops when all are found (the cited ones come first).
    pub(crate) fn of_citations(
        answer: &'a CitedAnswer,
        opts: &RenderOptions,
        cits: &'a [crate::core::model::Citation],
    ) -> Self {
        let mut wanted: crate::core::map::Map<&'a str, Option<(&'a Source, String)>> =
            crate::core::map::Map::new();
        for c in cits {
            for id in &c.sources {
                wanted.or_insert(id.as_str(), None);
            }
        }
        let mut missing = wanted.len();
        for s in &answer.sources {
            if missing == 0 {
                break;
            }
            if let Some(slot @ None) = wanted.get_mut(s.id.as_str()) {
                let mut label = String::new();
                push_escaped(&mut label, &source_label(s, opts));
                *slot = Some((s, label));
                missing -= 1;
            }
        }
        SourceCache {
            by_id: wanted
                .into_iter()
                .filter_map(|(k, v)| Some((k, v?)))
                .collect(),
        }
    }

    /// The source with this id (the first one, as [`CitedAnswer::source`] finds).
    pub(crate) fn source(&self, id: &str) -> Option<&'a Source> {
        self.by_id.get(id).map(|(s, _)| *s)
    }
}

/// The HTML of citation `ci`'s marker.
fn marker_html(cache: &SourceCache, ci: usize, ids: &[String], opts: &RenderOptions) -> String {
    let sources: Vec<&(&Source, String)> = ids
        .iter()
        .filter_map(|id| cache.by_id.get(id.as_str()))
        .collect();
    let mut out = String::with_capacity(160);
    if sources.is_empty() {
        // Streaming: the marker's sources have not arrived yet. A neutral marker with
        // no card and no link; never the literal `[1]`.
        let _ = write!(
            out,
            "<sup class=\"{MARKER} cite-marker--pending\" data-cite=\"{ci}\" data-state=\"pending\"><span class=\"cite-marker__pending\" role=\"img\" aria-label=\""
        );
        push_escaped(&mut out, opts.labels.get("pending"));
        out.push_str("\">…</span></sup>");
        return out;
    }
    // Lean markup (a long answer has hundreds of markers): no state until a card opens,
    // a style class only when it is not the default; the link's citation and position
    // come from this `<sup>`.
    let _ = write!(
        out,
        "<sup class=\"{MARKER}{}\" data-cite=\"{ci}\">",
        match opts.marker_style {
            MarkerStyle::Number => "",
            MarkerStyle::Grouped => " cite-marker--grouped",
            MarkerStyle::Domain => " cite-marker--domain",
        }
    );
    let prefix = &opts.id_prefix;
    // `data-sources`: the sources a grouped or domain link stands for (a number link
    // stands for the source its `href` names: no attribute, 66,000 fewer in a long
    // answer).
    let link = |out: &mut String,
                k: usize,
                target: u32,
                data_sources: &dyn std::fmt::Display,
                escaped_label: &str,
                text: &str| {
        let _ = write!(
            out,
            "<a class=\"{MARKER_LINK}\" id=\"{prefix}-ref-{ci}-{k}\" href=\"#{prefix}-fn-{target}\" role=\"doc-noteref\" data-sources=\"{data_sources}\" aria-label=\"{escaped_label}\">",
        );
        push_escaped(out, text);
        out.push_str("</a>");
    };
    match opts.marker_style {
        MarkerStyle::Number => {
            for (k, (s, label)) in sources.iter().map(|x| (x.0, &x.1)).enumerate() {
                if k > 0 {
                    // Copied text keeps adjacent numbers apart (`1, 2`, not `12`): the
                    // stylesheet gives the separator no room (a zero font size).
                    out.push_str(MARKER_SEPARATOR);
                }
                let n = s.number;
                let _ = write!(
                    out,
                    "<a class=\"{MARKER_LINK}\" id=\"{prefix}-ref-{ci}-{k}\" href=\"#{prefix}-fn-{n}\" role=\"doc-noteref\" aria-label=\"{label}\">{n}</a>",
                );
            }
        }
        MarkerStyle::Grouped | MarkerStyle::Domain => {
            let sources: Vec<&Source> = sources.iter().map(|x| x.0).collect();
            if let Some(first) = sources.first() {
                let n: Vec<u32> = sources.iter().map(|s| s.number).collect();
                let all_sources = n.iter().map(u32::to_string).collect::<Vec<_>>();
                let all_sources =
                    crate::core::bytes::join(&mut all_sources.iter().map(String::as_str), " ");
                let label = if sources.len() == 1 {
                    source_label(first, opts)
                } else {
                    // The numbers, then the titles of the first three: a screen reader
                    // names the sources as the number style's links do, one by one.
                    let mut label = opts
                        .labels
                        .fill("sourcesList", &[("list", &compress_numbers(&n))]);
                    let mut sep = ": ";
                    for t in sources.iter().take(3).filter_map(|s| s.display_title()) {
                        label.push_str(sep);
                        label.push_str(&crate::core::sanitize::excerpt(&t, 60));
                        sep = "; ";
                    }
                    if sources.len() > 3 && sep == "; " {
                        label.push_str("; …");
                    }
                    label
                };
                let text = if opts.marker_style == MarkerStyle::Grouped {
                    compress_numbers(&n)
                } else {
                    let name = first
                        .domain
                        .clone()
                        .or_else(|| first.title.clone())
                        .unwrap_or_else(|| first.number.to_string());
                    let name = crate::core::sanitize::excerpt(&name, 28);
                    if sources.len() > 1 {
                        format!("{name} +{}", sources.len() - 1)
                    } else {
                        name
                    }
                };
                // The visible text is part of the accessible name (WCAG 2.5.3, label in
                // name): a domain chip's name starts with the domain.
                let label = if opts.marker_style == MarkerStyle::Domain {
                    format!("{text}, {label}")
                } else {
                    label
                };
                link(
                    &mut out,
                    0,
                    first.number,
                    &all_sources,
                    &escape::escape(&label),
                    &text,
                );
            }
        }
    }
    out.push_str("</sup>");
    out
}

/// A link that opens in a new tab. Its accessible name says so: the visible text, then
/// the note (in `aria-label`, not a hidden element: one box less per source).
fn external_link(out: &mut String, class: &str, url: &str, text: &str, opts: &RenderOptions) {
    let _ = write!(out, "<a class=\"{class}\" href=\"");
    push_escaped(out, url);
    out.push_str("\" target=\"_blank\" rel=\"noopener noreferrer\" dir=\"auto\" aria-label=\"");
    push_escaped(out, text);
    out.push(' ');
    push_escaped(out, opts.labels.get("opensInNewTab"));
    out.push_str("\">");
    push_escaped(out, text);
    out.push_str("</a>");
}

/// Page, score and dates of a source as a `<dl>` (empty when it has none).
fn meta_html(s: &Source, opts: &RenderOptions, class: &str) -> String {
    let mut rows: Vec<(&str, String)> = Vec::new();
    if let Some(p) = s.page {
        rows.push(("page", p.to_string()));
    }
    if let Some(sc) = s.score {
        rows.push(("score", decimal3(sc)));
    }
    if let Some(d) = &s.published {
        rows.push(("published", short_date(d)));
    }
    if let Some(d) = &s.modified {
        rows.push(("modified", short_date(d)));
    }
    if rows.is_empty() {
        return String::new();
    }
    let mut out = format!("<dl class=\"{class}\">");
    for (k, v) in rows {
        out.push_str("<div><dt>");
        push_escaped(&mut out, opts.labels.get(k));
        out.push_str("</dt><dd>");
        push_escaped(&mut out, &v);
        out.push_str("</dd></div>");
    }
    out.push_str("</dl>");
    out
}

/// `2025-01-02T12:34:56Z` → `2025-01-02`; other forms as given (cleaned, short).
fn short_date(d: &str) -> String {
    let d = crate::core::sanitize::clean_text(d);
    let b = d.as_bytes();
    if b.len() >= 10 && b[4] == b'-' && b[7] == b'-' && b[..4].iter().all(u8::is_ascii_digit) {
        d[..10].to_string()
    } else {
        crate::core::sanitize::excerpt(&d, 40)
    }
}

/// The body of the hover card for page `index` of citation `ci`.
pub fn card_html(answer: &CitedAnswer, ci: usize, index: usize, opts: &RenderOptions) -> String {
    let Some(c) = answer.citations.get(ci) else {
        return String::new();
    };
    let total = c.sources.len();
    let index = index.min(total.saturating_sub(1));
    let Some(s) = c.sources.get(index).and_then(|id| answer.source(id)) else {
        return String::new();
    };
    let mut out = String::with_capacity(600);
    let _ = write!(
        out,
        "<div class=\"cite-card__body\" data-source=\"{}\"><p class=\"cite-card__head\"><span class=\"cite-card__number\">{}</span>",
        s.number, s.number
    );
    if let Some(d) = &s.domain {
        out.push_str("<span class=\"cite-card__domain\" dir=\"auto\">");
        push_escaped(&mut out, d);
        out.push_str("</span>");
    }
    out.push_str("</p><p class=\"cite-card__title\" dir=\"auto\">");
    push_escaped(&mut out, &display_title(s, opts));
    out.push_str("</p>");
    let quote = if total == 1 {
        c.cited_text.as_deref()
    } else {
        None
    }
    .or(s.snippet.as_deref());
    if let Some(q) = quote {
        out.push_str("<p class=\"cite-card__snippet\" dir=\"auto\">");
        push_escaped(&mut out, &crate::core::sanitize::excerpt200(q));
        out.push_str("</p>");
    }
    out.push_str(&meta_html(s, opts, "cite-card__meta"));
    out.push_str("<div class=\"cite-card__foot\">");
    if let Some(u) = &s.url {
        external_link(
            &mut out,
            "cite-card__link",
            u,
            opts.labels.get("open"),
            opts,
        );
    }
    if total > 1 {
        let _ = write!(
            out,
            "<span class=\"cite-card__pager\"><button type=\"button\" class=\"{CARD_NAV}\" data-nav=\"prev\" aria-label=\"{}\"{}>‹</button><span class=\"cite-card__count\" aria-live=\"polite\">{}</span><button type=\"button\" class=\"{CARD_NAV}\" data-nav=\"next\" aria-label=\"{}\"{}>›</button></span>",
            escape::escape(opts.labels.get("previous")),
            if index == 0 { " disabled" } else { "" },
            escape::escape(&opts.labels.fill(
                "pager",
                &[("i", &(index + 1).to_string()), ("total", &total.to_string())]
            )),
            escape::escape(opts.labels.get("next")),
            if index + 1 == total { " disabled" } else { "" },
        );
    }
    out.push_str("</div></div>");
    out
}

/// A number rounded to at most three decimals, as Rust's `{}` writes the rounded
/// `f64` (`0.5`, `0.123`, `2`, `-0.25`), but through integer formatting: no float
/// formatting code in the wasm. Values past 2^53 thousandths show their integer part.
fn decimal3(x: f64) -> String {
    let m = (x * 1000.0).round();
    if !m.is_finite() || m.abs() >= 9.0e15 {
        return (x.round() as i64).to_string();
    }
    let m = m as i64;
    let (int, frac) = (m.unsigned_abs() / 1000, m.unsigned_abs() % 1000);
    let mut out = String::new();
    if m < 0 {
        out.push('-');
    }
    out.push_str(&int.to_string());
    if frac > 0 {
        let digits = format!("{frac:03}");
        out.push('.');
        out.push_str(digits.trim_end_matches('0'));
    }
    out
}

/// How many panel entries are laid out at once, about a screenful; the ones after skip
/// layout and paint until they scroll near (`cite-source--lazy`, `content-visibility:
/// auto`). Measured on the 20 KB answer of `bench/mount.mjs` (30 sources), three runs:
/// the mount to a forced layout went from 1.10-1.23x marked to 0.90-0.92x, and to the
/// end of the first frame from 1.23x to 1.06-1.15x.
pub const PANEL_EAGER: usize = 8;

/// The source panel's list: cited sources first, uncited after (dimmed or hidden).
pub fn panel_html(answer: &CitedAnswer, opts: &RenderOptions) -> String {
    let p = &opts.id_prefix;
    let mut out = String::with_capacity(256 + answer.sources.len() * 400);
    let _ = write!(
        out,
        "<h2 class=\"cite-panel__title\" id=\"{p}-panel-title\">{}{}</h2><ol class=\"cite-panel__list\">",
        escape::escape(opts.labels.get("sources")),
        about_html(answer, opts)
    );
    // Cited sources first, then the sources of the whole answer (given for the answer,
    // with no position: listed as the footnotes list them, neither dimmed nor hidden),
    // then the uncited ones, dimmed or hidden by the option.
    let cited = answer.sources.iter().filter(|s| s.cited);
    let whole = answer.sources.iter().filter(|s| s.of_whole_answer());
    let uncited = answer
        .sources
        .iter()
        .filter(|s| !s.cited && !s.of_whole_answer());
    let list: Vec<&Source> = if opts.uncited == Uncited::Hide {
        cited.chain(whole).collect()
    } else {
        cited.chain(whole).chain(uncited).collect()
    };
    for (k, s) in list.into_iter().enumerate() {
        let n = s.number;
        let dim = !s.cited && !s.of_whole_answer() && opts.uncited == Uncited::Dim;
        let _ = write!(
            out,
            "<li class=\"{SOURCE}{}{}\" id=\"{}\" data-source=\"{n}\" data-cited=\"{}\" data-state=\"collapsed\"><button type=\"button\" class=\"{SOURCE_TOGGLE}\" data-source=\"{n}\" aria-expanded=\"false\" aria-controls=\"{}-details\"><span class=\"cite-source__number\">{n}</span><span class=\"cite-source__main\"><span class=\"cite-source__title\" dir=\"auto\">",
            if dim { " cite-source--uncited" } else { "" },
            if k >= PANEL_EAGER { " cite-source--lazy" } else { "" },
            panel_item_id(opts, n),
            s.cited,
            panel_item_id(opts, n),
        );
        push_escaped(&mut out, &display_title(s, opts));
        out.push_str("</span>");
        if let Some(d) = &s.domain {
            out.push_str("<span class=\"cite-source__domain\" dir=\"auto\">");
            push_escaped(&mut out, d);
            out.push_str("</span>");
        }
        out.push_str("</span><span class=\"cite-source__count\" dir=\"auto\">");
        if s.cited {
            push_escaped(
                &mut out,
                &opts
                    .labels
                    .fill("citedTimes", &[("n", &s.cite_count.to_string())]),
            );
        } else {
            push_escaped(&mut out, opts.labels.get("uncited"));
        }
        out.push_str("</span></button>");
        if let Some(sn) = &s.snippet {
            out.push_str("<p class=\"cite-source__snippet\" dir=\"auto\">");
            push_escaped(&mut out, &crate::core::sanitize::excerpt200(sn));
            out.push_str("</p>");
        }
        // The details (metadata, the source's link) are made when the entry is first
        // expanded ([`panel_details_html`]): most never are.
        let _ = write!(
            out,
            "<div class=\"cite-source__details\" id=\"{}-details\" hidden></div></li>",
            panel_item_id(opts, n)
        );
    }
    out.push_str("</ol>");
    out
}

/// What an expanded panel entry shows under its title: the source's metadata and a
/// link to it. Empty when there is no source numbered `n`.
pub fn panel_details_html(answer: &CitedAnswer, n: u32, opts: &RenderOptions) -> String {
    let Some(s) = answer.source_by_number(n) else {
        return String::new();
    };
    let mut out = meta_html(s, opts, "cite-source__meta");
    if let Some(u) = &s.url {
        external_link(
            &mut out,
            "cite-source__link",
            u,
            opts.labels.get("open"),
            opts,
        );
    }
    out
}

/// A visually hidden ` for “first words of the answer…”` after a heading, so that the
/// panel and footnotes landmarks of several answers on one page have distinct names.
fn about_html(answer: &CitedAnswer, opts: &RenderOptions) -> String {
    let words = about_words(answer);
    if words.is_empty() {
        return String::new();
    }
    let mut out = String::from("<span class=\"cite-visually-hidden\"> ");
    push_escaped(
        &mut out,
        &opts.labels.fill("forAnswer", &[("excerpt", &words)]),
    );
    out.push_str("</span>");
    out
}

/// The first words of the answer that the panel's and the footnotes' headings quote.
pub(crate) fn about_words(answer: &CitedAnswer) -> String {
    // The first words without markdown's punctuation (`## `, `**`, backticks).
    if answer.content_kind == ContentKind::Markdown {
        let head: String = answer
            .text
            .chars()
            .take(400)
            .filter(|c| !matches!(c, '#' | '*' | '_' | '`' | '>' | '|' | '~'))
            .collect();
        crate::core::sanitize::excerpt(&head, 48)
    } else {
        crate::core::sanitize::excerpt(&answer.text, 48)
    }
}

/// The footnotes: cited sources with back-links to every marker (a, b, c ...), then
/// the sources of the whole answer ([`Source::of_whole_answer`]), without back-links.
pub fn footnotes_html(answer: &CitedAnswer, opts: &RenderOptions) -> String {
    // (source number, citation, link) of each back-link, sorted by number and, within
    // one number, in text order (a stable sort of what is pushed in text order).
    let mut backs: Vec<(u32, usize, usize)> = Vec::new();
    let cache = SourceCache::new(answer, opts);
    for (ci, c) in answer.citations.iter().enumerate() {
        for (k, id) in c.sources.iter().enumerate() {
            if let Some(s) = cache.source(id) {
                let k = if opts.marker_style == MarkerStyle::Number {
                    k
                } else {
                    0
                };
                backs.push((s.number, ci, k));
            }
        }
    }
    crate::core::sort::sort_by_key(&mut backs, |b| (u64::from(b.0), 0));
    // The back-link label around its `{label}`, escaped once (it is written for every
    // marker of the answer).
    let back_label = escape::escape(opts.labels.get("backToCitation"));
    let back_parts = crate::core::bytes::split_once(&back_label, "{label}");
    let prefix = &opts.id_prefix;
    let mut out = String::new();
    let _ = write!(
        out,
        "<h2 class=\"cite-footnotes__title\" id=\"{}-fn-title\">{}{}</h2><ol class=\"cite-footnotes__list{}\">",
        opts.id_prefix,
        escape::escape(opts.labels.get("references")),
        about_html(answer, opts),
        if answer.text.len() >= LAZY_AFTER {
            " cite-footnotes__list--lazy"
        } else {
            ""
        }
    );
    // Cited sources come first in `sources`, by number; the uncited ones after them.
    for s in answer
        .sources
        .iter()
        .filter(|s| s.cited || s.of_whole_answer())
    {
        let n = s.number;
        let _ = write!(
            out,
            "<li class=\"cite-footnote\" id=\"{}\" value=\"{n}\" data-source=\"{n}\">",
            footnote_id(opts, n)
        );
        let from = backs.partition_point(|b| b.0 < n);
        let targets = &backs[from..from + backs[from..].partition_point(|b| b.0 == n)];
        let shown = targets.len().min(MAX_FOOTNOTE_BACKLINKS);
        for (j, (_, ci, k)) in targets[..shown].iter().enumerate() {
            let (letter, suffix) = if targets.len() == 1 {
                ("^".to_string(), String::new())
            } else {
                let l = backlink_letter(j);
                (l.clone(), l)
            };
            let _ = write!(
                out,
                "<a class=\"cite-footnote__back\" href=\"#{prefix}-ref-{ci}-{k}\" role=\"doc-backlink\" aria-label=\""
            );
            match back_parts {
                Some((before, after)) => {
                    let _ = write!(out, "{before}{n}{suffix}{after}");
                }
                None => out.push_str(&back_label),
            }
            let _ = write!(out, "\">{letter}</a>");
        }
        if shown < targets.len() {
            // Past the limit (named in the answer's diagnostics): how many more markers
            // cite this source, as text.
            let _ = write!(
                out,
                "<span class=\"cite-footnote__more\">+{}</span>",
                targets.len() - shown
            );
        }
        out.push(' ');
        let title = &display_title(s, opts);
        match &s.url {
            Some(u) => external_link(&mut out, "cite-footnote__title", u, title, opts),
            None => {
                out.push_str("<span class=\"cite-footnote__title\" dir=\"auto\">");
                push_escaped(&mut out, title);
                out.push_str("</span>");
            }
        }
        if let Some(d) = &s.domain {
            out.push_str(" <span class=\"cite-footnote__domain\" dir=\"auto\">");
            push_escaped(&mut out, d);
            out.push_str("</span>");
        }
        out.push_str("</li>");
    }
    out.push_str("</ol>");
    out
}

/// `a`, `b`, ... `z`, `aa`, `ab` ...
fn backlink_letter(j: usize) -> String {
    let mut j = j;
    let mut s = Vec::new();
    loop {
        s.push(b'a' + (j % 26) as u8);
        if j < 26 {
            break;
        }
        j = j / 26 - 1;
    }
    s.iter().rev().map(|&c| c as char).collect()
}

/// The root's class for a theme: `cite-root`, with `cite-theme-light` or
/// `cite-theme-dark` when one is forced, and `cite-root--with-panel` when the panel
/// sits beside the answer. One spelling for the static rendering and the component.
pub fn root_class(theme: Theme, with_panel: bool) -> String {
    let mut class = String::from("cite-root");
    match theme {
        Theme::Auto => {}
        Theme::Light => class.push_str(" cite-theme-light"),
        Theme::Dark => class.push_str(" cite-theme-dark"),
    }
    if with_panel {
        class.push_str(" cite-root--with-panel");
    }
    class
}

/// A whole static rendering: answer, footnotes and panel, for `renderToString`.
pub fn render_to_string(answer: &CitedAnswer, opts: &RenderOptions, panel: bool) -> String {
    let (notes, with_panel) = lists_shown(answer, true, panel);
    let mut out = String::new();
    let _ = write!(
        out,
        "<div class=\"{}\" id=\"{}\"><div class=\"{ANSWER}\"><div class=\"{ANSWER_BODY}\">",
        root_class(opts.theme, with_panel),
        opts.id_prefix
    );
    out.push_str(&answer_html(answer, opts));
    out.push_str("</div>");
    if notes {
        let _ = write!(
            out,
            "<section class=\"{FOOTNOTES}\" role=\"doc-endnotes\" aria-labelledby=\"{}-fn-title\">",
            opts.id_prefix
        );
        out.push_str(&footnotes_html(answer, opts));
        out.push_str("</section>");
    }
    out.push_str("</div>");
    if with_panel {
        let _ = write!(
            out,
            "<aside class=\"{PANEL}\" aria-labelledby=\"{}-panel-title\">",
            opts.id_prefix
        );
        out.push_str(&panel_html(answer, opts));
        out.push_str("</aside>");
    }
    out.push_str("</div>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_show_as_the_rounded_float_would() {
        for x in [
            0.5,
            0.123_4,
            2.0,
            -0.25,
            0.999_6,
            0.000_4,
            1e-9,
            87.654_321,
            -3.000_1,
            1e12 + 0.5,
        ] {
            assert_eq!(
                decimal3(x),
                format!("{}", (x * 1000.0).round() / 1000.0),
                "{x}"
            );
        }
        assert_eq!(decimal3(f64::NAN), "0");
        assert_eq!(decimal3(1e300), i64::MAX.to_string());
    }

    #[test]
    fn footnote_title_names_the_answer_without_markdown() {
        let data = serde_json::json!({"1": {"title": "A", "source": "https://a.example/"}});
        let a = crate::core::parse_lenient(
            Some("## Part one\n\nThe **bold** `code` claim [1]."),
            crate::core::formats::Data::Json(&data),
            &crate::core::options::Options::default(),
        );
        let html = footnotes_html(&a, &RenderOptions::default());
        assert!(html.contains("Part one The bold code claim"), "{html}");
        assert!(!html.contains("##") && !html.contains("**"), "{html}");
    }

    #[test]
    fn numbers_compress() {
        assert_eq!(compress_numbers(&[1, 2, 3]), "1–3");
        assert_eq!(compress_numbers(&[5, 2]), "2, 5");
        assert_eq!(compress_numbers(&[1, 2, 4, 5, 6]), "1, 2, 4–6");
    }

    #[test]
    fn letters() {
        assert_eq!(backlink_letter(0), "a");
        assert_eq!(backlink_letter(25), "z");
        assert_eq!(backlink_letter(26), "aa");
    }

    #[test]
    fn prefixes_are_safe() {
        assert_eq!(sanitize_prefix("a\"><script>"), "ascript");
        assert_eq!(sanitize_prefix("9x"), "c9x");
    }

    /// A grouped or domain marker standing for several sources is named with their
    /// titles (the first three), not only their numbers.
    #[test]
    fn grouped_marker_names_its_sources_titles() {
        let data = serde_json::json!({
            "1": {"title": "Artemis II", "source": "https://nasa.gov/a"},
            "2": {"title": "Orion capsule", "source": "https://esa.int/o"},
            "3": {"title": "SLS rocket", "source": "https://nasa.gov/s"},
            "4": {"title": "Gateway", "source": "https://nasa.gov/g"}
        });
        for (style, name) in [
            (
                MarkerStyle::Grouped,
                "Sources 1, 2: Artemis II; Orion capsule",
            ),
            (
                MarkerStyle::Domain,
                "nasa.gov +1, Sources 1, 2: Artemis II; Orion capsule",
            ),
        ] {
            let opts = crate::core::options::Options {
                marker_style: style,
                ..Default::default()
            };
            let a = crate::core::parse(
                Some("Claim [1][2]. More [1][2][3][4]."),
                crate::core::formats::Data::Json(&data),
                &opts,
            )
            .unwrap();
            let html = render_to_string(&a, &RenderOptions::from_options(&opts, "t"), false);
            assert!(html.contains(&format!("aria-label=\"{name}\"")), "{html}");
            assert!(
                html.contains("Sources 1–4: Artemis II; Orion capsule; SLS rocket; …\""),
                "{html}"
            );
        }
    }

    /// A render from a block boundary with the markers made from there on gives the
    /// blocks a render with every marker gives (spans crossing the boundary, several
    /// sources per marker, identifier links, grouped markers). Scintilla data: the
    /// format whose sources carry identifiers.
    #[cfg(feature = "scintilla")]
    #[test]
    fn markers_from_a_point_render_as_all_markers_do() {
        let data = serde_json::json!([
            {"urls": ["https://a.example/"], "titles": ["A"], "identifiers": {"MKT-7": "https://jira.example/MKT-7"}},
            {"urls": ["https://b.example/"], "titles": ["B"]},
            {"urls": ["https://c.example/"], "titles": ["C"]}
        ]);
        let text = "Intro claim [1] and MKT-7 here [2][3].\n\n- item one [2]\n- item *two* MKT-7 [1, 3]\n\n| a | b [3] |\n|---|---|\n| x [1] | y |\n\nLast **bold [2]** words [1][2][3].";
        for style in [
            MarkerStyle::Number,
            MarkerStyle::Grouped,
            MarkerStyle::Domain,
        ] {
            let opts = crate::core::options::Options {
                format: crate::core::options::FormatChoice::Given(
                    crate::core::model::Format::Scintilla,
                ),
                marker_style: style,
                ..Default::default()
            };
            let a = crate::core::parse(Some(text), crate::core::formats::Data::Json(&data), &opts)
                .unwrap();
            assert!(!a.links.is_empty() && a.citations.len() >= 8, "{a:?}");
            let r = RenderOptions::from_options(&opts, "t");
            let all = MarkerSet::new(&a, &r);
            let starts: Vec<usize> = markdown::blocks(&a, &all)
                .iter()
                .map(|b| b.range.start)
                .collect();
            for start in starts {
                let some = MarkerSet::from(&a, &r, start);
                assert!(some.html.len() < a.citations.len() || start == 0);
                let end = a.text.len();
                assert_eq!(
                    markdown::render_range(&a.text, start..end, &some, true),
                    markdown::render_range(&a.text, start..end, &all, true),
                    "from {start}"
                );
            }
        }
    }
}
