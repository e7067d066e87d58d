//! The markers' markup: each citation's marker (a `<sup>` of links, one per source, a
//! group or a domain chip by the `markerStyle` option, or a pending marker while its
//! sources have not arrived) and the cited-span segments, made once per render
//! ([`MarkerSet`]); the renderer writes them into the answer's text.

use crate::core::model::{Answer, Source};
use crate::core::options::MarkerStyle;
use crate::render::class::{MARKER, MARKER_LINK};
use crate::render::escape::{self, push_escaped};
use crate::render::options::RenderOptions;
use crate::render::parts::source_label;
use std::fmt::Write;

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
    pub fn new(answer: &Answer, opts: &RenderOptions) -> Self {
        Self::from(answer, opts, 0)
    }

    /// Like [`MarkerSet::new`], for a render that starts at byte `from` (a streaming
    /// render of the open tail): only the citations that end at or after `from` are
    /// looked at (their markers and cited spans are all that text from `from` on can
    /// show), so the cost follows them, not the answer. With `from` above 0,
    /// `answer.citations` must be sorted by end, as every [`Answer`] the parser
    /// makes is (with 0, any order renders).
    pub fn from(answer: &Answer, opts: &RenderOptions, from: usize) -> Self {
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
    crate::core::str_ops::join(&mut parts.iter().map(String::as_str), ", ")
}

/// The id of marker link `k` of citation `ci`.
pub fn ref_id(opts: &RenderOptions, ci: usize, k: usize) -> String {
    format!("{}-ref-{ci}-{k}", opts.id_prefix)
}

/// What stands between adjacent links of one marker: the text `, ` in an element the
/// stylesheet gives no room on screen, kept in copied text and in the marker's text
/// content.
pub const MARKER_SEPARATOR: &str = "<span class=\"cite-marker__sep\">, </span>";

/// The answer's sources by id, with what every marker of a source repeats (its
/// escaped accessible name), made once per render: a long answer cites the same few
/// sources thousands of times.
pub(crate) struct SourceCache<'a> {
    by_id: crate::core::ordered_hash::OrderedHashMap<&'a str, (&'a Source, String)>,
}

impl<'a> SourceCache<'a> {
    pub(crate) fn new(answer: &'a Answer, opts: &RenderOptions) -> Self {
        let mut by_id = crate::core::ordered_hash::OrderedHashMap::new();
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
        answer: &'a Answer,
        opts: &RenderOptions,
        cits: &'a [crate::core::model::Citation],
    ) -> Self {
        let mut wanted: crate::core::ordered_hash::OrderedHashMap<
            &'a str,
            Option<(&'a Source, String)>,
        > = crate::core::ordered_hash::OrderedHashMap::new();
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

    /// The source with this id (the first one, as [`Answer::source`] finds).
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
                    crate::core::str_ops::join(&mut all_sources.iter().map(String::as_str), " ");
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
                        label.push_str(&crate::core::untrusted_text::excerpt(&t, 60));
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
                    let name = crate::core::untrusted_text::excerpt(&name, 28);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::answer::html::{markdown, render_to_string};

    #[test]
    fn numbers_compress() {
        assert_eq!(compress_numbers(&[1, 2, 3]), "1–3");
        assert_eq!(compress_numbers(&[5, 2]), "2, 5");
        assert_eq!(compress_numbers(&[1, 2, 4, 5, 6]), "1, 2, 4–6");
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
