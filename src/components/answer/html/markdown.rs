//! Markdown answers (CommonMark + GFM tables, strikethrough, task lists, footnotes) to
//! HTML blocks, from the events of citekit's CommonMark parser (`core::commonmark`) with their source
//! ranges. Raw HTML in the answer is shown as text; links and images only keep safe urls.

use super::markers::MarkerSet;
use super::writer::Inline;
use super::Block;
use crate::core::commonmark::{Alignment, Event, RefDef, Tag, TagEnd};
use crate::core::model::Answer;
use crate::core::untrusted_text::{sanitize_url, UrlContext};

/// A url from the answer as an `href`: absolute urls must be http(s) or mailto;
/// relative ones (no scheme) are kept. Percent-encodes what an href must not hold raw.
pub fn safe_href(dest: &str) -> Option<String> {
    let scheme_end = crate::core::str_ops::find_str(dest, ":");
    let first_sep = dest.find(['/', '?', '#']);
    let has_scheme = match (scheme_end, first_sep) {
        (Some(c), Some(s)) => c < s,
        (Some(_), None) => true,
        _ => false,
    };
    let url = if has_scheme {
        let mut url = sanitize_url(dest, UrlContext::Answer)?;
        // Keep the scheme as written (`MAILTO:`): schemes are case-insensitive, and
        // CommonMark output keeps the url as it is.
        if let Some(c) = crate::core::str_ops::find_str(&url, ":") {
            if let Some(orig) = dest.get(..c).filter(|o| o.eq_ignore_ascii_case(&url[..c])) {
                url.replace_range(..c, orig);
            }
        }
        url
    } else {
        if dest.chars().any(|c| c.is_control()) {
            return None;
        }
        dest.to_string()
    };
    Some(encode_href(&url))
}

/// Percent-encodes bytes outside the set an href keeps as is (like CommonMark renderers).
fn encode_href(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    let b = url.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let keep = c.is_ascii_alphanumeric() || b"-_.!~*'();/?:@&=+$,#".contains(&c);
        if keep {
            out.push(c as char);
        } else if c == b'%'
            && b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            out.push('%');
        } else {
            out.push_str(&format!("%{c:02X}"));
        }
        i += 1;
    }
    out
}

fn is_block(tag: &TagEnd) -> bool {
    !matches!(
        tag,
        TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough | TagEnd::Link | TagEnd::Image
    )
}

fn is_block_start(tag: &Tag) -> bool {
    !matches!(
        tag,
        Tag::Emphasis | Tag::Strong | Tag::Strikethrough | Tag::Link { .. } | Tag::Image { .. }
    )
}

/// Renders a markdown answer as top-level blocks.
pub fn blocks(answer: &Answer, markers: &MarkerSet) -> Vec<Block> {
    render_range(&answer.text, 0..answer.text.len(), markers, true)
}

/// Renders the part `range` of the answer `full` as blocks (the parser sees only that
/// part; positions stay those of the whole answer). `last` says whether markers
/// standing at the very end belong to this call.
pub fn render_range(
    full: &str,
    range: std::ops::Range<usize>,
    markers: &MarkerSet,
    last: bool,
) -> Vec<Block> {
    render_range_after(full, range, markers, last, &[])
}

/// [`render_range`] after blocks that hold the reference definitions `before` (runs
/// sorted by label, in the order of the text:
/// [`StreamDefs`](super::stream_view::StreamDefs)), which apply in the part rendered as
/// they do in a render of the whole answer.
pub fn render_range_after(
    full: &str,
    range: std::ops::Range<usize>,
    markers: &MarkerSet,
    last: bool,
    before: &[Vec<RefDef>],
) -> Vec<Block> {
    let base = range.start;
    let full_end = range.end;
    let text = full.get(range).unwrap_or("");
    let mut w = Inline::new(full, markers);
    w.skip_before(base);
    let mut blocks = Vec::new();
    let mut depth = 0usize;
    let mut block_start = 0usize;
    let mut in_code = false;
    let mut image_alt: Option<(String, String, String)> = None; // (src, title, alt)
    let mut alt_nest = 0usize; // images nested in that alt text: `![a ![b](x)](y)`
    let mut table_align: Vec<Alignment> = Vec::new();
    let mut cell = 0usize;
    let mut in_head = false;
    let mut list_stack: Vec<bool> = Vec::new();
    for (ev, r) in crate::core::commonmark::parse_after(text, before) {
        let r = (r.start + base)..(r.end + base);
        if let Some((_, _, alt)) = image_alt.as_mut() {
            match &ev {
                Event::Start(Tag::Image { .. }) => {
                    alt_nest += 1;
                    continue;
                }
                Event::End(TagEnd::Image) if alt_nest > 0 => {
                    alt_nest -= 1;
                    continue;
                }
                Event::End(TagEnd::Image) => {}
                Event::Text(t) | Event::Code(t) | Event::InlineHtml(t) | Event::Html(t) => {
                    alt.push_str(t);
                    continue;
                }
                Event::SoftBreak | Event::HardBreak => {
                    alt.push(' ');
                    continue;
                }
                _ => continue,
            }
        }
        match ev {
            Event::Start(tag) => {
                if depth == 0 {
                    block_start = r.start;
                }
                depth += 1;
                w.flush_markers(r.start, !is_block_start(&tag));
                match tag {
                    Tag::Paragraph => w.raw("<p>"),
                    Tag::Heading(level) => w.raw(&format!("<h{level}>")),
                    Tag::BlockQuote => w.raw("<blockquote>\n"),
                    Tag::CodeBlock(info) => {
                        in_code = true;
                        let lang = info
                            .as_deref()
                            .and_then(|i| i.split_whitespace().next())
                            .unwrap_or("");
                        if lang.is_empty() {
                            w.raw("<pre><code>");
                        } else {
                            w.raw("<pre><code class=\"language-");
                            w.escaped(lang);
                            w.raw("\">");
                        }
                    }
                    Tag::HtmlBlock => {
                        in_code = true;
                        w.raw("<div class=\"cite-raw-html\">");
                    }
                    Tag::List(start) => {
                        list_stack.push(start.is_some());
                        match start {
                            Some(1) => w.raw("<ol>\n"),
                            Some(n) => w.raw(&format!("<ol start=\"{n}\">\n")),
                            None => w.raw("<ul>\n"),
                        }
                    }
                    Tag::Item => w.raw("<li>"),
                    Tag::FootnoteDefinition(label) => {
                        w.raw("<div class=\"cite-md-footnote\"><sup>");
                        w.escaped(&label);
                        w.raw("</sup> ");
                    }
                    Tag::Table(al) => {
                        table_align = al;
                        w.raw("<table>");
                    }
                    Tag::TableHead => {
                        in_head = true;
                        cell = 0;
                        w.raw("<thead><tr>");
                    }
                    Tag::TableRow => {
                        cell = 0;
                        w.raw("<tr>");
                    }
                    Tag::TableCell => {
                        let t = if in_head { "th" } else { "td" };
                        let style = match table_align.get(cell) {
                            Some(Alignment::Left) => " style=\"text-align: left\"",
                            Some(Alignment::Center) => " style=\"text-align: center\"",
                            Some(Alignment::Right) => " style=\"text-align: right\"",
                            _ => "",
                        };
                        w.raw(&format!("<{t}{style}>"));
                    }
                    Tag::Emphasis => w.raw("<em>"),
                    Tag::Strong => w.raw("<strong>"),
                    Tag::Strikethrough => w.raw("<del>"),
                    Tag::Link { email, dest, title } => match safe_href(&if email {
                        format!("mailto:{dest}")
                    } else {
                        dest.to_string()
                    }) {
                        Some(href) => {
                            w.raw("<a href=\"");
                            w.escaped(&href);
                            w.raw("\"");
                            if !title.is_empty() {
                                w.raw(" title=\"");
                                w.escaped(&title);
                                w.raw("\"");
                            }
                            w.raw(" rel=\"noopener noreferrer nofollow\" target=\"_blank\">");
                        }
                        None => w.raw("<a class=\"cite-link-blocked\">"),
                    },
                    Tag::Image { dest, title } => {
                        image_alt = Some((
                            safe_href(&dest).unwrap_or_default(),
                            title.to_string(),
                            String::new(),
                        ));
                    }
                }
            }
            Event::End(tag) => {
                w.flush_markers(r.end, is_block(&tag));
                match tag {
                    TagEnd::Paragraph => w.raw("</p>\n"),
                    TagEnd::Heading(level) => w.raw(&format!("</h{level}>\n")),
                    TagEnd::BlockQuote => w.raw("</blockquote>\n"),
                    TagEnd::CodeBlock => {
                        in_code = false;
                        w.raw("</code></pre>\n");
                    }
                    TagEnd::HtmlBlock => {
                        in_code = false;
                        w.raw("</div>\n");
                    }
                    TagEnd::List(_) => {
                        let ordered = list_stack.pop().unwrap_or(false);
                        w.raw(if ordered { "</ol>\n" } else { "</ul>\n" });
                    }
                    TagEnd::Item => w.raw("</li>\n"),
                    TagEnd::FootnoteDefinition => w.raw("</div>\n"),
                    TagEnd::Table => w.raw("</tbody></table>\n"),
                    TagEnd::TableHead => {
                        in_head = false;
                        w.raw("</tr></thead><tbody>\n");
                    }
                    TagEnd::TableRow => w.raw("</tr>\n"),
                    TagEnd::TableCell => {
                        cell += 1;
                        w.raw(if in_head { "</th>" } else { "</td>" });
                    }
                    TagEnd::Emphasis => w.raw("</em>"),
                    TagEnd::Strong => w.raw("</strong>"),
                    TagEnd::Strikethrough => w.raw("</del>"),
                    TagEnd::Link => w.raw("</a>"),
                    TagEnd::Image => {
                        if let Some((src, title, alt)) = image_alt.take() {
                            if src.is_empty() {
                                w.raw("<span class=\"cite-image-blocked\">");
                                w.escaped(&alt);
                                w.raw("</span>");
                            } else {
                                w.raw("<img src=\"");
                                w.escaped(&src);
                                w.raw("\" alt=\"");
                                w.escaped(&alt);
                                w.raw("\"");
                                if !title.is_empty() {
                                    w.raw(" title=\"");
                                    w.escaped(&title);
                                    w.raw("\"");
                                }
                                w.raw(" loading=\"lazy\" referrerpolicy=\"no-referrer\">");
                            }
                        }
                    }
                }
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    let html = w.take();
                    blocks.push(Block {
                        range: block_start..r.end,
                        html,
                    });
                }
            }
            Event::Text(t) => {
                let same = w.slice(r.clone()) == Some(&*t);
                if in_code {
                    w.escaped(&t);
                } else if same {
                    w.text(r, true);
                } else {
                    w.literal(&t, r.start);
                }
            }
            Event::Code(t) => {
                w.flush_markers(r.start, true);
                w.raw("<code>");
                w.escaped(&t);
                w.raw("</code>");
            }
            Event::Html(t) => w.escaped(&t),
            Event::InlineHtml(t) => {
                if in_code {
                    w.escaped(&t);
                } else {
                    w.literal(&t, r.start);
                }
            }
            Event::FootnoteReference(label) => {
                w.raw("<sup class=\"cite-md-fnref\">");
                w.escaped(&label);
                w.raw("</sup>");
            }
            // A marker at a line's end goes before the break (not after the next line's
            // indentation: `city¹ that`, not `city ¹that`).
            Event::SoftBreak => {
                w.flush_markers(r.start, true);
                w.raw("\n");
            }
            Event::HardBreak => {
                w.flush_markers(r.start, true);
                w.raw("<br>\n");
            }
            Event::Rule => {
                w.raw("<hr>\n");
                if depth == 0 {
                    let html = w.take();
                    blocks.push(Block {
                        range: r.clone(),
                        html,
                    });
                }
            }
            Event::TaskListMarker(checked) => {
                w.raw(if checked {
                    "<input type=\"checkbox\" disabled checked> "
                } else {
                    "<input type=\"checkbox\" disabled> "
                });
            }
        }
    }
    if last {
        w.flush_markers(usize::MAX, true);
    }
    let rest = w.take();
    if !rest.is_empty() {
        match blocks.last_mut() {
            Some(b) => b.html.push_str(&rest),
            None => blocks.push(Block {
                range: base..full_end,
                html: format!("<p>{rest}</p>"),
            }),
        }
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hrefs() {
        assert_eq!(
            safe_href("https://x.org/a b"),
            Some("https://x.org/a%20b".into())
        );
        assert_eq!(safe_href("javascript:alert(1)"), None);
        assert_eq!(safe_href("/relative?q=1"), Some("/relative?q=1".into()));
        assert_eq!(safe_href("mailto:a@b.c"), Some("mailto:a@b.c".into()));
        assert_eq!(safe_href("%41"), Some("%41".into()));
        assert_eq!(safe_href("a\"b"), Some("a%22b".into()));
        // The scheme keeps its case (CommonMark example 597).
        assert_eq!(
            safe_href("MAILTO:FOO@BAR.BAZ"),
            Some("MAILTO:FOO@BAR.BAZ".into())
        );
        assert_eq!(safe_href("JavaScript:alert(1)"), None);
    }
}

#[cfg(test)]
mod render_tests {
    use crate::components::answer::html::answer_html;
    use crate::core::model::*;
    use crate::render::RenderOptions;

    fn answer(text: &str, cites: &[(usize, usize, &[&str])]) -> Answer {
        let ids: Vec<&str> = cites.iter().flat_map(|c| c.2.iter().copied()).collect();
        let mut sources: Vec<Source> = Vec::new();
        for id in ids {
            if !sources.iter().any(|s| s.id == id) {
                sources.push(Source {
                    id: id.into(),
                    number: sources.len() as u32 + 1,
                    title: Some(format!("T<{id}>")),
                    cited: true,
                    ..Default::default()
                });
            }
        }
        Answer {
            text: text.into(),
            format: Format::Markdown,
            content_kind: ContentKind::Markdown,
            sources,
            citations: cites
                .iter()
                .map(|(s, e, ids)| Citation {
                    start: *s,
                    end: *e,
                    sources: ids.iter().map(|x| x.to_string()).collect(),
                    origin: CitationOrigin::Marker,
                    cited_text: None,
                    confidence: None,
                    location: None,
                    pending: Vec::new(),
                })
                .collect(),
            links: vec![],
            diagnostics: vec![],
            show_citations: true,
            metadata: Default::default(),
        }
    }

    #[test]
    fn markers_land_on_the_right_words() {
        let a = answer(
            "Paris is **big**. Lyon is small.\n\nNext `[1]` para.",
            &[(0, 16, &["a"]), (18, 32, &["b"])],
        );
        let html = answer_html(&a, &RenderOptions::default());
        // One start anchor per cited span, the marker at its end; no wrappers.
        assert!(html.starts_with("<p><i class=\"cite-s\" data-s=\"0\" hidden></i>Paris is <strong>big</strong><sup class=\"cite-marker"), "{html}");
        assert!(
            html.contains("<i class=\"cite-s\" data-s=\"1\" hidden></i>Lyon is small.<sup"),
            "{html}"
        );
        assert_eq!(html.matches("cite-s\"").count(), 2, "{html}");
        assert!(
            html.contains("aria-label=\"Source 1: T&lt;a&gt;\""),
            "{html}"
        );
        assert!(html.contains("<code>[1]</code>"), "{html}");
        let second_p = html.split("</p>").nth(1).unwrap();
        assert!(!second_p.contains("cite-marker"), "{html}");
    }

    #[test]
    fn a_marker_at_a_line_end_stays_before_the_break() {
        // "A quote about the city [1]\n> that continues." with the marker taken out:
        // the marker stands at the end of "city", before the soft break.
        let text = "> A quote about the city\n> that continues.";
        let end = text.find('\n').unwrap();
        let a = answer(text, &[(2, end, &["a"])]);
        let html = answer_html(&a, &RenderOptions::default());
        assert!(html.contains("city<sup class=\"cite-marker"), "{html}");
        assert!(html.contains("</sup>\nthat continues."), "{html}");
        // The same before a hard break.
        let text = "First line  \nsecond line.";
        let a = answer(text, &[(0, 10, &["a"])]);
        let html = answer_html(&a, &RenderOptions::default());
        assert!(
            html.contains("First line<sup class=\"cite-marker"),
            "{html}"
        );
        assert!(html.contains("</sup><br>\nsecond"), "{html}");
    }

    #[test]
    fn nested_image_stays_in_one_block() {
        // CommonMark example 574: the inner image's end must not end the block.
        let a = answer("![foo ![bar](/url)](/url2)\n\nnext", &[]);
        let blocks = crate::components::answer::html::answer_blocks(&a, &RenderOptions::default());
        assert_eq!(blocks.len(), 2, "{blocks:?}");
        assert!(
            blocks[0]
                .html
                .starts_with("<p><img src=\"/url2\" alt=\"foo bar\"")
                && blocks[0].html.ends_with("</p>\n"),
            "{blocks:?}"
        );
        assert_eq!(blocks[1].html, "<p>next</p>\n");
    }

    #[test]
    fn email_autolinks_get_mailto() {
        // CommonMark examples 604 and 605.
        let a = answer("<foo+special@Bar.baz-bar0.com>", &[]);
        let html = answer_html(&a, &RenderOptions::default());
        assert!(
            html.contains("<a href=\"mailto:foo+special@Bar.baz-bar0.com\""),
            "{html}"
        );
    }

    #[test]
    fn raw_html_is_text() {
        let a = answer(
            "<script>alert(1)</script>\n\nHi <img src=x onerror=alert(1)> [x](javascript:alert(1))",
            &[],
        );
        let html = answer_html(&a, &RenderOptions::default());
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(!html.contains("javascript:"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }
}
