//! The HTML-answer sanitizer (`src/components/answer/html/html_sanitizer.rs`) and the
//! JSON view (`src/components/answer/html/json_view.rs`): hostile HTML never gets through, markers land where the
//! citations say, JSON sidecars render as a key/value view.
#![cfg(not(target_arch = "wasm32"))]

use citekit::components::answer::html::{answer_blocks, answer_html};
use citekit::core::formats::Data;
use citekit::core::model::{
    Answer, Citation, CitationOrigin, ContentKind, Format, Location, Source,
};
use citekit::core::options::Options;
use citekit::render::RenderOptions;
use proptest::prelude::*;

/// An HTML answer without citations.
fn html_answer(text: &str) -> Answer {
    answer(text, ContentKind::Html, &[])
}

/// An answer of `kind` citing one source per citation `(start, end, id, pointer)`.
fn answer(text: &str, kind: ContentKind, cites: &[(usize, usize, &str, Option<&str>)]) -> Answer {
    let mut sources: Vec<Source> = Vec::new();
    for (_, _, id, _) in cites {
        if !sources.iter().any(|s| s.id == *id) {
            sources.push(Source {
                id: id.to_string(),
                number: sources.len() as u32 + 1,
                title: Some(format!("T{id}")),
                cited: true,
                ..Default::default()
            });
        }
    }
    Answer {
        text: text.into(),
        format: Format::Canonical,
        content_kind: kind,
        sources,
        citations: cites
            .iter()
            .map(|(s, e, id, ptr)| Citation {
                start: *s,
                end: *e,
                sources: vec![id.to_string()],
                origin: CitationOrigin::Marker,
                cited_text: None,
                confidence: None,
                location: ptr.map(|p| Location::JsonPointer { path: p.into() }),
                pending: Vec::new(),
            })
            .collect(),
        links: vec![],
        diagnostics: vec![],
        show_citations: true,
        metadata: Default::default(),
    }
}

fn render(a: &Answer) -> String {
    answer_html(a, &RenderOptions::default())
}

/// A tag of the output: name, end tag?, attributes (name, raw value).
type OutTag = (String, bool, Vec<(String, String)>);

/// Reads the tags of citekit's output (which always quotes attribute values with `"`
/// and escapes `<` in text, so this simple reader is exact). Fails on anything else.
fn out_tags(html: &str) -> Result<Vec<OutTag>, String> {
    let mut tags = Vec::new();
    let mut rest = html;
    while let Some(p) = rest.find('<') {
        let after = &rest[p + 1..];
        let end = after
            .find('>')
            .ok_or_else(|| format!("unterminated tag in {html}"))?;
        let inner = &after[..end];
        rest = &after[end + 1..];
        let (closing, inner) = match inner.strip_prefix('/') {
            Some(i) => (true, i),
            None => (false, inner),
        };
        let name_end = inner.find(' ').unwrap_or(inner.len());
        let name = inner[..name_end].to_string();
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(format!("odd tag name {name:?} in {html}"));
        }
        let mut attrs = Vec::new();
        let mut a = inner[name_end..].trim_start();
        while !a.is_empty() {
            let eq = a.find(['=', ' ']).unwrap_or(a.len());
            let an = a[..eq].to_string();
            if a[eq..].starts_with("=\"") {
                let v = &a[eq + 2..];
                let q = v
                    .find('"')
                    .ok_or_else(|| format!("unquoted value in {html}"))?;
                attrs.push((an, v[..q].to_string()));
                a = v[q + 1..].trim_start();
            } else {
                attrs.push((an, String::new()));
                a = a[eq..].trim_start();
            }
        }
        tags.push((name, closing, attrs));
    }
    Ok(tags)
}

/// What the sanitizer may write: our elements, our attributes only.
const OUT_ELEMENTS: &[&str] = &[
    "p",
    "br",
    "hr",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "li",
    "blockquote",
    "pre",
    "code",
    "em",
    "strong",
    "b",
    "i",
    "u",
    "s",
    "del",
    "ins",
    "sup",
    "sub",
    "small",
    "mark",
    "span",
    "div",
    "a",
    "table",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "th",
    "td",
    "dl",
    "dt",
    "dd",
    "figure",
    "figcaption",
    "abbr",
    "cite",
    "q",
    "kbd",
    "samp",
    "var",
];

/// Checks an uncited render: allowed elements, allowed attributes with safe values,
/// balanced tags.
fn check_safe(input: &str, html: &str) -> Result<(), String> {
    let lower = html.to_ascii_lowercase();
    for bad in [
        "<script",
        "<img",
        "<svg",
        "<iframe",
        "<style",
        "<math",
        "<object",
        "<embed",
        "<form",
        "<input",
        "<meta",
        "<link",
        "<base",
        "<template",
        "<textarea",
        "<!--",
        "style=",
        "javascript:",
        "vbscript:",
        "data-",
        "id=",
    ] {
        if lower.contains(bad) {
            return Err(format!("{bad} in output of {input:?}: {html}"));
        }
    }
    let tags = out_tags(html)?;
    let mut stack: Vec<String> = Vec::new();
    for (name, closing, attrs) in tags {
        if !OUT_ELEMENTS.contains(&name.as_str()) {
            return Err(format!("element {name} in output of {input:?}: {html}"));
        }
        for (an, av) in &attrs {
            let ok = match (name.as_str(), an.as_str()) {
                ("a", "href") => {
                    let v = av.to_ascii_lowercase();
                    let scheme = v.find(':').filter(|&c| !v[..c].contains(['/', '?', '#']));
                    match scheme {
                        None => true,
                        Some(c) => matches!(&v[..c], "http" | "https" | "mailto"),
                    }
                }
                ("a", "rel") => av == "noopener noreferrer nofollow",
                ("a", "target") => av == "_blank",
                ("a", "class") => av == "cite-link-blocked",
                ("span", "class") => av == "cite-span",
                ("span", "data-c") => true,
                ("i", "class") => av == "cite-s",
                ("i", "data-s") => av.parse::<usize>().is_ok(),
                ("i", "hidden") => av.is_empty(),
                ("ol", "start") => av.parse::<i64>().is_ok(),
                ("td" | "th", "colspan" | "rowspan") => av.parse::<u32>().is_ok(),
                ("abbr", "title") => true,
                _ => false,
            };
            if !ok {
                return Err(format!(
                    "attribute {an}=\"{av}\" on {name} in output of {input:?}: {html}"
                ));
            }
            if an.starts_with("on") {
                return Err(format!("event handler {an} in output of {input:?}"));
            }
        }
        if closing {
            if stack.pop().as_deref() != Some(name.as_str()) {
                return Err(format!(
                    "unbalanced </{name}> in output of {input:?}: {html}"
                ));
            }
        } else if name != "br" && name != "hr" {
            stack.push(name);
        }
    }
    if !stack.is_empty() {
        return Err(format!("unclosed {stack:?} in output of {input:?}: {html}"));
    }
    Ok(())
}

/// The visible text of an output (tags removed, the few entities we write decoded).
fn visible(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// (hostile input, text that must still be visible).
const HOSTILE: &[(&str, &str)] = &[
    ("<p>Hi <img src=x onerror=alert(1)> there</p>", "Hi  there"),
    ("<IMG SRC=\"javascript:alert('XSS');\">after", "after"),
    (
        "<svg onload=alert(1)>inside svg</svg>after svg",
        "after svg",
    ),
    ("<svg/onload=alert(1)>after", ""),
    ("<svg/>self-closed svg", "self-closed svg"),
    ("<a href=\"jAvAsCrIpT:alert(1)\">click</a>", "click"),
    ("<a href=\" javascript:alert(1)\">click</a>", "click"),
    ("<a href=\"&#106;avascript:alert(1)\">entity</a>", "entity"),
    (
        "<a href=\"&#x6A;&#x61;vascript&#x3A;alert(1)\">hex</a>",
        "hex",
    ),
    (
        "<a href=\"&#0000106&#0000097vascript:alert(1)\">long</a>",
        "long",
    ),
    ("<a href=\"java&#x09;script:alert(1)\">tab</a>", "tab"),
    (
        "<a href=\"java&Tab;script&colon;alert(1)\">named</a>",
        "named",
    ),
    ("<a href=\"jav&#x0A;ascript:alert(1)\">nl</a>", "nl"),
    (
        "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">data</a>",
        "data",
    ),
    ("<a href=vbscript:msgbox(1)>vb</a>", "vb"),
    ("<a href=`javascript:alert(1)`>backtick</a>", "backtick"),
    (
        "<a href=javascript:alert(1) onmouseover=alert(1)>noquote</a>",
        "noquote",
    ),
    (
        "<a href=\"https://ok.example/\" onclick=\"alert(1)\">ok link</a>",
        "ok link",
    ),
    (
        "<iframe src=\"javascript:alert(1)\">frame text</iframe>after",
        "after",
    ),
    ("<iframe src=https://evil.example></iframe>x", "x"),
    (
        "<style>@import 'https://evil.example/x.css';</style>styled",
        "styled",
    ),
    (
        "<STYLE>li {list-style-image: url(\"javascript:alert(1)\");}</STYLE><ul><li>item</li></ul>",
        "item",
    ),
    (
        "<math><mtext><table><mglyph><style><img src onerror=alert(1)>",
        "",
    ),
    (
        "<math><mi xlink:href=\"javascript:alert(1)\">m</mi></math>after math",
        "after math",
    ),
    ("<script>alert(1)</script>visible", "visible"),
    (
        "<SCRIPT SRC=https://evil.example/x.js></SCRIPT>after",
        "after",
    ),
    ("<script>document.write('</scr'+'ipt>')</script>ok", "ok"),
    ("text<script", "text"),
    ("text<script src=x", "text"),
    ("<scr<script>ipt>alert(1)</script>", "ipt>alert(1)"),
    (
        "<div class=\"cite-marker\" data-cite=\"0\">forged</div>",
        "forged",
    ),
    (
        "<span class=\"cite-span\" data-c=\"0\" id=\"cite-ref-0-0\">forged span</span>",
        "forged span",
    ),
    ("<sup class=\"cite\" data-sids=\"1\">[S:1]</sup>", "[S:1]"),
    ("<!--><img src=x onerror=1>-->", "-->"),
    ("<!--->x<img src=x onerror=1>--> tail", "x--> tail"),
    ("<!-- <img src=x onerror=1> -->shown", "shown"),
    ("<!-- never closed <img src=x onerror=1>", ""),
    ("<!DOCTYPE html><p>doc</p>", "doc"),
    ("<![CDATA[<img src=x onerror=1>]]>c", "]]>c"),
    ("<?xml version=\"1.0\"?><p>pi</p>", "pi"),
    (
        "<p title=\"a\" style=\"background:url(javascript:alert(1))\">styled p</p>",
        "styled p",
    ),
    ("<p style=x:expression(alert(1))>ie</p>", "ie"),
    (
        "<div onmouseover=\"alert(1)\" data-x=\"y\">div</div>",
        "div",
    ),
    (
        "<a href=\"https://a.example\"><a href=\"https://b.example\">nested</a></a>",
        "nested",
    ),
    ("<a href=\"/relative\">rel</a>", "rel"),
    (
        "<form action=javascript:alert(1)><button>btn</button></form>",
        "btn",
    ),
    ("<input autofocus onfocus=alert(1) value=v>in", "in"),
    ("<details open ontoggle=alert(1)>det</details>", "det"),
    ("<body onload=alert(1)>body</body>", "body"),
    (
        "<object data=\"javascript:alert(1)\">obj</object>after",
        "after",
    ),
    ("<embed src=\"javascript:alert(1)\">emb", "emb"),
    ("<template><img src=x onerror=1>tpl</template>t", "t"),
    (
        "<noscript><p title=\"</noscript><img src=x onerror=1>\"></noscript>ns",
        "\">ns",
    ),
    (
        "<textarea><img src=x onerror=1></textarea>",
        "<img src=x onerror=1>",
    ),
    (
        "<xmp><script>alert(1)</script></xmp>",
        "<script>alert(1)</script>",
    ),
    (
        "<plaintext><script>alert(1)</script>",
        "<script>alert(1)</script>",
    ),
    ("<p>1 < 2 && 3 > 2</p>", "1 < 2 && 3 > 2"),
    (
        "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>",
        "<script>alert(1)</script>",
    ),
    ("<p>&amp;lt;b&amp;gt;</p>", "&lt;b&gt;"),
    (
        "<table><tr><td colspan=\"2 onclick=x\" rowspan=3 style=x>cell</td></tr></table>",
        "cell",
    ),
    (
        "<ol start=\"3\" type=\"a\" reversed><li>three</li></ol>",
        "three",
    ),
    (
        "<abbr title=\"\" onmouseover=alert(1)//\">WHO</abbr>",
        "WHO",
    ),
    ("<abbr title='x\" onmouseover=\"alert(1)'>t</abbr>", "t"),
    (
        "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">m",
        "m",
    ),
    (
        "<link rel=stylesheet href=https://evil.example/x.css>l",
        "l",
    ),
    ("<base href=\"javascript:/\">b", "b"),
    ("<a href=\"#\" onclick=\"x\">hash</a>", "hash"),
    ("<video><source onerror=\"alert(1)\">vid</video>", "vid"),
    ("<p/onclick=alert(1)>slash</p>", "slash"),
    ("<p\nonclick=alert(1)>newline</p>", "newline"),
    ("<p \"onclick=alert(1)\">quote name</p>", "quote name"),
    ("<ScRiPt>alert(1)</sCrIpT>mixed", "mixed"),
    ("</p></div></a>stray", "stray"),
    ("<p><b><i>unclosed", "unclosed"),
    ("<a href=https://x.example/?a=1&b=2>amp</a>", "amp"),
];

#[test]
fn hostile_html_is_neutralized() {
    for (input, text) in HOSTILE {
        let html = render(&html_answer(input));
        if let Err(e) = check_safe(input, &html) {
            panic!("{e}");
        }
        assert!(
            visible(&html).contains(text),
            "text {text:?} lost from {input:?}: {html}"
        );
    }
}

#[test]
fn hostile_hrefs_are_dropped_and_good_ones_kept() {
    let html = render(&html_answer(
        "<a href=\"&#106;avascript:alert(1)\">x</a><a href=\"https://ok.example/?a=1&amp;b=2\">y</a>",
    ));
    assert!(
        html.contains("<a class=\"cite-link-blocked\">x</a>"),
        "{html}"
    );
    assert!(
        html.contains("<a href=\"https://ok.example/?a=1&amp;b=2\" rel=\"noopener noreferrer nofollow\" target=\"_blank\">y</a>"),
        "{html}"
    );
    // Nested anchors: the second closes the first.
    let html = render(&html_answer(
        "<a href=\"https://a.example\">one<a href=\"https://b.example\">two</a></a>",
    ));
    assert_eq!(html.matches("<a ").count(), 2, "{html}");
    assert!(
        html.contains("one</a><a href=\"https://b.example\""),
        "{html}"
    );
}

#[test]
fn allowed_markup_survives() {
    let input = "<h2 id=x>Title</h2><p>A <em>b</em> <strong>c</strong> <code>d</code> <a href=\"https://e.example/\">e</a>.</p><ul><li>one<li>two</ul><ol start=\"3\"><li>three</li></ol><table><thead><tr><th>h</th></tr></thead><tbody><tr><td colspan=\"2\" rowspan=\"3\">x</td></tr></tbody></table><blockquote>q</blockquote><pre>  pre\n  text</pre><dl><dt>t<dd>d</dl><p>H<sub>2</sub>O, x<sup>2</sup>, <abbr title=\"World Health Organization\">WHO</abbr></p><hr><p>end<br>line</p>";
    let html = render(&html_answer(input));
    check_safe(input, &html).unwrap();
    for part in [
        "<h2>Title</h2>",
        "<p>A <em>b</em> <strong>c</strong> <code>d</code> <a href=\"https://e.example/\" rel=\"noopener noreferrer nofollow\" target=\"_blank\">e</a>.</p>",
        "<ul><li>one</li><li>two</li></ul>",
        "<ol start=\"3\"><li>three</li></ol>",
        "<th>h</th>",
        "<td colspan=\"2\" rowspan=\"3\">x</td>",
        "<blockquote>q</blockquote>",
        "<pre>  pre\n  text</pre>",
        "<dl><dt>t</dt><dd>d</dd></dl>",
        "H<sub>2</sub>O, x<sup>2</sup>",
        "<abbr title=\"World Health Organization\">WHO</abbr>",
        "<hr>",
        "<p>end<br>line</p>",
    ] {
        assert!(html.contains(part), "{part} missing: {html}");
    }
}

#[test]
fn entities_are_decoded_and_escaped_again() {
    let html = render(&html_answer(
        "<p>Tom &amp; Jerry &copy; 2024 &#8212; &eacute;t&eacute; &bogus; &lt;b&gt; &#x1F600;</p>",
    ));
    assert_eq!(
        html,
        "<p>Tom &amp; Jerry © 2024 — été &amp;bogus; &lt;b&gt; 😀</p>"
    );
}

#[test]
fn blocks_split_at_top_level_blocks() {
    let a = html_answer(
        "<h1>T</h1>\n<p>One <b>x</b></p>\n<ul><li>a</li></ul>\nloose <i>text</i><p>last</p>",
    );
    let blocks = answer_blocks(&a, &RenderOptions::default());
    let htmls: Vec<&str> = blocks.iter().map(|b| b.html.as_str()).collect();
    assert_eq!(
        htmls,
        vec![
            "<h1>T</h1>",
            "\n<p>One <b>x</b></p>",
            "\n<ul><li>a</li></ul>",
            "\nloose <i>text</i>",
            "<p>last</p>",
        ]
    );
    let mut pos = 0;
    for b in &blocks {
        assert_eq!(b.range.start, pos, "{blocks:?}");
        pos = b.range.end;
    }
    assert_eq!(pos, a.text.len());
}

#[test]
fn nesting_is_bounded_and_closed() {
    let deep = "<div>".repeat(1000) + "deep" + &"</div>".repeat(3);
    let html = render(&html_answer(&deep));
    check_safe("deep divs", &html).unwrap();
    assert_eq!(html.matches("<div>").count(), 256);
    assert!(html.contains("deep"));
    let unclosed = "<p><b><i><a href=\"https://x.example\">x".to_string();
    let html = render(&html_answer(&unclosed));
    assert!(html.ends_with("x</a></i></b></p>"), "{html}");
}

#[test]
fn pathological_inputs_are_fast() {
    let inputs = [
        "<".repeat(200_000),
        "<!--".repeat(50_000),
        "</".repeat(100_000),
        "<a ".repeat(60_000),
        "<a x=\"".repeat(40_000) + "\">",
        "&".repeat(200_000),
        "&#".repeat(100_000),
        "<div>".repeat(100_000),
        "<li>".repeat(100_000),
        "<p>".repeat(100_000),
        "</div>".repeat(100_000),
        "<script>".to_string() + &"</scrip".repeat(30_000),
        "<svg>".repeat(50_000) + "x",
        "<template>".repeat(50_000) + &"</template>".repeat(50_000) + "after",
        // A full stack of inline elements, then many blocks.
        "<p>".to_string() + &"<span>".repeat(300) + &"<div>x".repeat(50_000),
        "<ul>".to_string() + &"<b>".repeat(300) + &"<li>x".repeat(50_000),
    ];
    let t = std::time::Instant::now();
    for i in &inputs {
        let html = render(&html_answer(i));
        check_safe("pathological", &html).unwrap();
    }
    assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
}

/// The data of the canonical examples: sources 1 and 2.
fn canonical_data() -> serde_json::Value {
    serde_json::json!([
        {"sid": 1, "title": "A", "url": "https://a.example"},
        {"sid": 2, "title": "B", "url": "https://b.example"}
    ])
}

fn parse_canonical(answer: &str) -> Answer {
    let options = Options {
        format: citekit::core::options::FormatChoice::Given(Format::Canonical),
        ..Default::default()
    };
    citekit::parse(Some(answer), Data::Json(&canonical_data()), &options).unwrap()
}

#[test]
fn canonical_html_marker_lands_after_the_claim() {
    let a = parse_canonical("<p>Claim one<sup class=\"cite\" data-sids=\"1\">[S:1]</sup>.</p>");
    assert_eq!(a.content_kind, ContentKind::Html);
    assert_eq!(a.citations.len(), 1, "{a:?}");
    let html = render(&a);
    assert!(
        html.starts_with(
            "<p><i class=\"cite-s\" data-s=\"0\" hidden></i>Claim one<sup class=\"cite-marker"
        ),
        "{html}"
    );
    assert!(html.ends_with("</a></sup>.</p>"), "{html}");
    assert_eq!(
        html.matches("<sup class=\"cite-marker").count(),
        1,
        "{html}"
    );
    assert!(!html.contains("[S:1]"), "{html}");
}

#[test]
fn canonical_html_markers_in_markup() {
    let a = parse_canonical(
        "<h2>Facts</h2><p>Claim <em>one</em> &amp; more.<sup class=\"cite\" data-sids=\"1\">[S:1]</sup> Second <b>two</b><sup class=\"cite\" data-sids=\"2\">[S:2]</sup></p><p>Para.</p><sup class=\"cite\" data-sids=\"1\">[S:1]</sup><p>Next</p>",
    );
    assert_eq!(a.citations.len(), 3, "{a:?}");
    let html = render(&a);
    // Marker after the entity-bearing sentence, inside the paragraph.
    let m0 = html.find("data-cite=\"0\"").unwrap();
    let amp = html.find("&amp;").unwrap();
    assert!(amp < m0, "{html}");
    assert!(
        html.contains(
            "<i class=\"cite-s\" data-s=\"1\" hidden></i>Second <b>two</b><sup class=\"cite-marker"
        ),
        "{html}"
    );
    // A marker written after `</p>` stays in that paragraph.
    let third = html.find("data-cite=\"2\"").unwrap();
    let para = html.find("Para.").unwrap();
    let next = html.find("Next").unwrap();
    assert!(para < third && third < next, "{html}");
    assert!(html[third..next].contains("</p><p>"), "{html}");
    let blocks = answer_blocks(&a, &RenderOptions::default());
    assert_eq!(blocks.len(), 4, "{blocks:?}");
}

#[test]
fn cited_html_stays_safe() {
    // Citations over hostile markup: spans and markers only around text.
    let text =
        "<p onclick=x>Claim <img src=x onerror=alert(1)>one.</p><script>bad</script><p>Two</p>";
    let a = answer(
        text,
        ContentKind::Html,
        &[(0, 54, "a", None), (60, 80, "b", None), (85, 85, "b", None)],
    );
    let html = render(&a);
    assert!(
        !html.contains("<img") && !html.contains("<script") && !html.contains("onclick"),
        "{html}"
    );
    assert_eq!(
        html.matches("<sup class=\"cite-marker").count(),
        3,
        "{html}"
    );
}

#[test]
fn json_sidecar_renders_a_key_value_view() {
    let a = parse_canonical(
        r#"{"title": "Report", "some": {"nested": {"field": "The CPU is <2.5x> faster"}}, "n": 3, "list": ["a", "b"], "_citations": [{"path": "/some/nested/field", "sids": [1]}, {"path": "/list/1", "sids": [2]}, {"path": "/n", "sids": [2]}]}"#,
    );
    assert_eq!(a.content_kind, ContentKind::Json);
    assert_eq!(a.citations.len(), 3, "{a:?}");
    let html = render(&a);
    assert!(
        html.starts_with("<dl class=\"cite-json\"><dt>title</dt><dd>Report</dd>"),
        "{html}"
    );
    assert!(
        html.contains("<dt>field</dt><dd><span class=\"cite-span\" data-c=\"0\">The CPU is &lt;2.5x&gt; faster</span><sup class=\"cite-marker"),
        "{html}"
    );
    let c0 = a
        .citations
        .iter()
        .position(
            |c| matches!(&c.location, Some(Location::JsonPointer { path }) if path == "/list/1"),
        )
        .unwrap();
    assert!(
        html.contains(&format!("<ol class=\"cite-json__list\"><li>a</li><li><span class=\"cite-span\" data-c=\"{c0}\">b</span><sup class=\"cite-marker")),
        "{html}"
    );
    assert!(
        html.contains("<span class=\"cite-json__scalar\">3</span></span><sup class=\"cite-marker"),
        "{html}"
    );
    assert!(!html.contains("_citations"), "{html}");
    assert!(!html.contains("sids"), "{html}");
    assert_eq!(
        html.matches("<sup class=\"cite-marker").count(),
        3,
        "{html}"
    );
}

#[test]
fn json_view_edge_cases() {
    // Keys needing pointer escapes, a root-level cite, a path that names nothing shown.
    let text =
        r#"{"a/b": "slash", "m~n": "tilde", "deep": [[{"x": true}]], "e": {}, "_citations": []}"#;
    let a = answer(
        text,
        ContentKind::Json,
        &[
            (8, 13, "s", Some("/a~1b")),
            (24, 29, "t", Some("/m~0n")),
            (0, 0, "u", Some("/nowhere")),
            (0, 0, "u", Some("/deep/0/0/x")),
        ],
    );
    let html = render(&a);
    assert!(
        html.contains("<dt>a/b</dt><dd><span class=\"cite-span\" data-c=\"0\">slash</span><sup"),
        "{html}"
    );
    assert!(
        html.contains("<dt>m~n</dt><dd><span class=\"cite-span\" data-c=\"1\">tilde</span><sup"),
        "{html}"
    );
    assert!(html.contains("<span class=\"cite-span\" data-c=\"3\"><span class=\"cite-json__scalar\">true</span></span>"), "{html}");
    assert!(
        html.contains("<dt>e</dt><dd><span class=\"cite-json__scalar\">{}</span></dd>"),
        "{html}"
    );
    assert_eq!(
        html.matches("<sup class=\"cite-marker").count(),
        4,
        "{html}"
    );
    assert!(
        html.ends_with("</sup>"),
        "unplaced marker at the end: {html}"
    );

    // Not JSON: plain view with markers at offsets.
    let a = answer("not { json <b>", ContentKind::Json, &[(0, 3, "a", None)]);
    let html = render(&a);
    assert!(
        html.starts_with(
            "<div class=\"cite-plain\"><i class=\"cite-s\" data-s=\"0\" hidden></i>not<sup"
        ),
        "{html}"
    );
    assert!(html.ends_with(" { json &lt;b&gt;</div>"), "{html}");

    // As deep as the JSON limit allows: still a structure; deeper: plain text.
    let deep = "[".repeat(64) + "\"x\"" + &"]".repeat(64);
    let html = render(&answer(&deep, ContentKind::Json, &[]));
    assert!(html.contains("<li>x</li>"), "{html}");
    let deeper = "[".repeat(65) + "\"x\"" + &"]".repeat(65);
    let html = render(&answer(&deeper, ContentKind::Json, &[]));
    assert!(html.starts_with("<div class=\"cite-plain\">"), "{html}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn any_html_soup_renders_safely(parts in proptest::collection::vec(prop_oneof![
        Just("<p>"), Just("</p>"), Just("<div class=x>"), Just("</div>"), Just("<a href=\"javascript:x\">"),
        Just("<a href=https://x.example>"), Just("</a>"), Just("<li>"), Just("<ul>"), Just("</ul>"),
        Just("<table>"), Just("<td colspan=2>"), Just("<tr>"), Just("</table>"), Just("<script>"),
        Just("</script>"), Just("<svg>"), Just("</svg>"), Just("<!--"), Just("-->"), Just("<img src=x onerror=1>"),
        Just("&amp;"), Just("&#106;"), Just("&"), Just("<"), Just(">"), Just("\""), Just("'"), Just("="),
        Just(" "), Just("é"), Just("😀"), Just("text"), Just("<b>"), Just("</i>"), Just("<br>"), Just("<hr/>"),
        Just("<style>"), Just("<template>"), Just("</template>"), Just("<math>"),
        Just("<![CDATA["), Just("]]>"), Just("<!DOCTYPE"), Just("</"), Just("<x y=\"onload=1\">"),
    ], 0..40), cuts in proptest::collection::vec(0usize..400, 0..6)) {
        let text: String = parts.concat();
        // Citations at arbitrary char boundaries.
        let mut bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        bounds.dedup();
        let mut cites = Vec::new();
        for pair in cuts.chunks(2) {
            let a = bounds[pair[0] % bounds.len()];
            let b = bounds[pair.get(1).copied().unwrap_or(0) % bounds.len()];
            cites.push((a.min(b), a.max(b), "s", None));
        }
        let a = answer(&text, ContentKind::Html, &cites);
        let html = render(&a);
        let lower = html.to_ascii_lowercase();
        for bad in ["<script", "<img", "<svg", "<style", "<math", "<template", "<textarea", "javascript:", "onerror", "onload=1\""] {
            prop_assert!(!lower.contains(bad), "{} in {:?}: {}", bad, text, html);
        }
        prop_assert_eq!(html.matches("<sup class=\"cite-marker").count(), cites.len());
        // Balanced tags, only ours.
        let tags = out_tags(&html).map_err(TestCaseError::fail)?;
        let mut stack: Vec<String> = Vec::new();
        for (name, closing, _) in tags {
            if closing {
                prop_assert_eq!(stack.pop(), Some(name.clone()), "{:?} -> {}", text, html);
            } else if name != "br" && name != "hr" {
                stack.push(name);
            }
        }
        prop_assert!(stack.is_empty(), "{:?} -> {}", text, html);
    }
}

#[test]
fn adjacent_marker_links_are_separated_in_copied_text() {
    // `[[S:1,2]]` is one marker with two links: without text between them, copying
    // the answer gives `claim12`.
    let a = parse_canonical("<p>Claim one<sup class=\"cite\" data-sids=\"1,2\">[S:1,2]</sup>.</p>");
    let html = render(&a);
    assert_eq!(
        html.matches("class=\"cite-marker__link\"").count(),
        2,
        "{html}"
    );
    assert!(
        html.contains(&format!(
            "</a>{}<a class=\"cite-marker__link\"",
            citekit::components::answer::html::markers::MARKER_SEPARATOR
        )),
        "{html}"
    );
    assert_eq!(visible(&html), "Claim one1, 2.");
    // A marker of one source has no separator (no node added to most markers).
    let one = render(&parse_canonical(
        "<p>Claim<sup class=\"cite\" data-sids=\"2\">[S:2]</sup>.</p>",
    ));
    assert_eq!(visible(&one), "Claim1.");
}

#[test]
fn titles_domains_and_labels_take_their_own_direction() {
    // In a right-to-left page an English title or label keeps its own order (`cited 2×`,
    // not `×cited 2`): each is an element with `dir="auto"`.
    let a = parse_canonical(
        "<p>نص<sup class=\"cite\" data-sids=\"1\">[S:1]</sup> آخر<sup class=\"cite\" data-sids=\"1,2\">[S:1,2]</sup>.</p>",
    );
    let r = RenderOptions::default();
    let panel = citekit::components::panel::html::panel_html(&a, &r);
    for class in [
        "cite-source__title",
        "cite-source__domain",
        "cite-source__count",
    ] {
        assert!(
            panel.contains(&format!("class=\"{class}\" dir=\"auto\">")),
            "{class}: {panel}"
        );
    }
    assert!(panel.contains("dir=\"auto\">cited 2×</span>"), "{panel}");
    let notes = citekit::components::footnotes::html::footnotes_html(&a, &r);
    assert!(
        notes.contains("class=\"cite-footnote__title\"") && notes.contains("dir=\"auto\""),
        "{notes}"
    );
    assert!(
        notes.contains("<span class=\"cite-footnote__domain\" dir=\"auto\">"),
        "{notes}"
    );
    let card = citekit::components::card::html::card_html(&a, 0, 0, &r);
    for class in ["cite-card__title", "cite-card__domain"] {
        assert!(
            card.contains(&format!("class=\"{class}\" dir=\"auto\">")),
            "{class}: {card}"
        );
    }
}

#[test]
fn footnote_back_links_and_marker_labels() {
    // Written from per-render caches: the same names and targets as one label per link.
    let a = parse_canonical(
        "<p>A<sup class=\"cite\" data-sids=\"1\">[S:1]</sup> b<sup class=\"cite\" data-sids=\"1,2\">[S:1,2]</sup>.</p>",
    );
    let r = RenderOptions::default();
    let html = render(&a);
    assert!(
        html.contains("<a class=\"cite-marker__link\" id=\"cite-ref-1-1\" href=\"#cite-fn-2\" role=\"doc-noteref\" aria-label=\"Source 2: B\">2</a>"),
        "{html}"
    );
    let notes = citekit::components::footnotes::html::footnotes_html(&a, &r);
    assert!(
        notes.contains("<a class=\"cite-footnote__back\" href=\"#cite-ref-0-0\" role=\"doc-backlink\" aria-label=\"Back to citation 1a\">a</a><a class=\"cite-footnote__back\" href=\"#cite-ref-1-0\" role=\"doc-backlink\" aria-label=\"Back to citation 1b\">b</a>"),
        "{notes}"
    );
    assert!(
        notes.contains(
            "href=\"#cite-ref-1-1\" role=\"doc-backlink\" aria-label=\"Back to citation 2\">^</a>"
        ),
        "{notes}"
    );
    // Replaced labels, escaped; a label without `{label}` is written as it is.
    let mut o = Options::default();
    o.labels
        .insert("backToCitation".into(), "<{label}> & back".into());
    o.labels
        .insert("sourceTitled".into(), "“{title}” #{n}".into());
    let r = RenderOptions::from_options(&o, "p");
    let notes = citekit::components::footnotes::html::footnotes_html(&a, &r);
    assert!(
        notes.contains("aria-label=\"&lt;1a&gt; &amp; back\""),
        "{notes}"
    );
    let html = answer_html(&a, &r);
    assert!(html.contains("aria-label=\"“B” #2\""), "{html}");
    o.labels.insert("backToCitation".into(), "Back".into());
    let notes = citekit::components::footnotes::html::footnotes_html(
        &a,
        &RenderOptions::from_options(&o, "p"),
    );
    assert!(notes.contains("aria-label=\"Back\">a</a>"), "{notes}");
}

#[test]
fn footnote_back_links_stop_at_their_limit_and_say_so() {
    // The limit (src/core/limits.rs, crate-private) and its name.
    const MAX_FOOTNOTE_BACKLINKS: usize = 50;
    const MAX_FOOTNOTE_BACKLINKS_NAME: &str = "max_footnote_backlinks";
    // One source cited 60 times: its footnote links back to the first 50 markers and
    // says how many more there are; the diagnostics name the limit.
    let mut text = String::new();
    for i in 0..60 {
        text.push_str(&format!("Claim {i} [1]. "));
    }
    let data = serde_json::json!({"1": {"title": "A", "source": "https://a.example/"}});
    let a = citekit::parse(Some(&text), Data::Json(&data), &Options::default()).unwrap();
    assert_eq!(a.citations.len(), 60);
    let notes = citekit::components::footnotes::html::footnotes_html(&a, &RenderOptions::default());
    assert_eq!(
        notes.matches("role=\"doc-backlink\"").count(),
        MAX_FOOTNOTE_BACKLINKS,
        "{notes}"
    );
    assert!(
        notes.contains("<span class=\"cite-footnote__more\">+10</span>"),
        "{notes}"
    );
    let d = a
        .diagnostics
        .iter()
        .find(|d| d.code == "limit-exceeded")
        .expect("a limit-exceeded diagnostic");
    assert!(
        d.message.contains(MAX_FOOTNOTE_BACKLINKS_NAME),
        "{}",
        d.message
    );
    // Under the limit: every back-link, no diagnostic.
    let b = citekit::parse(
        Some("One [1]. Two [1]."),
        Data::Json(&data),
        &Options::default(),
    )
    .unwrap();
    assert!(b.diagnostics.iter().all(|d| d.code != "limit-exceeded"));
    let notes = citekit::components::footnotes::html::footnotes_html(&b, &RenderOptions::default());
    assert_eq!(notes.matches("role=\"doc-backlink\"").count(), 2);
    assert!(!notes.contains("cite-footnote__more"));
}

/// Identifiers the sources name (scintilla's `MKT-1183`, `PR #123`) render as links to
/// their source's url, in prose and in table cells, never in code or inside an
/// existing link; the identifier's text is unchanged.
#[test]
fn identifiers_render_as_links_outside_code_and_links() {
    let answer = "Tracked in MKT-1183 [1]; merged as PR #123.\n\n\
                  | ticket | pr |\n|---|---|\n| MKT-1183 | PR #123 |\n\n\
                  Code `MKT-1183` and [the MKT-1183 page](https://x.example/).\n\n\
                  ```\nMKT-1183\n```\n";
    let data = serde_json::json!([
        {"urls": ["https://jira.example/browse/MKT-1183"], "titles": ["MKT-1183"],
         "identifiers": {"MKT-1183": "https://jira.example/browse/MKT-1183"}},
        {"urls": ["https://git.example/pull/123"], "titles": ["PR 123"],
         "identifiers": {"PR #123": "https://git.example/pull/123"}}
    ]);
    let a = citekit::parse(Some(answer), Data::Json(&data), &Options::default()).unwrap();
    let html = render(&a);
    let ident = |url: &str, text: &str| {
        format!(
            "<a class=\"cite-ident\" href=\"{url}\" rel=\"noopener noreferrer nofollow\" target=\"_blank\">{text}</a>"
        )
    };
    let jira = ident("https://jira.example/browse/MKT-1183", "MKT-1183");
    let pr = ident("https://git.example/pull/123", "PR #123");
    assert_eq!(
        html.matches(&jira).count(),
        2,
        "prose and table cell: {html}"
    );
    assert_eq!(html.matches(&pr).count(), 2, "prose and table cell: {html}");
    assert!(html.contains(&format!("<td>{jira}</td>")), "{html}");
    assert!(html.contains(&format!("<td>{pr}</td>")), "{html}");
    assert!(html.contains("<code>MKT-1183</code>"), "{html}");
    assert!(html.contains(">the MKT-1183 page</a>"), "{html}");
    assert!(
        html.contains("<pre><code>MKT-1183\n</code></pre>"),
        "{html}"
    );
    assert!(visible(&html).contains("Tracked in MKT-1183"), "{html}");
    assert_eq!(html.matches("<a ").count(), 6, "{html}");
}

/// An AI SDK message citing one of its two source parts with a marker: the other one,
/// which nothing cites, is a source of the whole answer. The footnotes list it after
/// the cited one, with its number (the panel's), title and link, and no back-link; the
/// copy lists it too. Another format's uncited source stays out of the footnotes.
#[test]
fn footnotes_list_the_sources_of_the_whole_answer() {
    let message = serde_json::json!({
        "id": "m1",
        "role": "assistant",
        "parts": [
            {"type": "step-start"},
            {"type": "source-url", "sourceId": "a", "url": "https://a.example/", "title": "Cited A"},
            {"type": "source-url", "sourceId": "b", "url": "https://b.example/page", "title": "Whole <B>"},
            {"type": "text", "text": "Paris is the capital [1].", "state": "done"}
        ]
    });
    let a = citekit::core::parse(None, Data::Json(&message), &Options::default()).unwrap();
    assert_eq!(a.format, Format::AiSdk);
    let b = a.source("b").unwrap();
    assert!(!b.cited && b.of_whole_answer(), "{b:?}");
    assert!(!a.source("a").unwrap().of_whole_answer());
    let r = RenderOptions::default();
    let notes = citekit::components::footnotes::html::footnotes_html(&a, &r);
    let first = notes.find("<li class=\"cite-footnote\" id=\"cite-fn-1\" value=\"1\"");
    let second =
        notes.find("<li class=\"cite-footnote\" id=\"cite-fn-2\" value=\"2\" data-source=\"2\">");
    assert!(
        first.is_some() && second.is_some() && first < second,
        "{notes}"
    );
    let entry = &notes[second.unwrap()..];
    let entry = &entry[..entry.find("</li>").unwrap()];
    assert!(!entry.contains("cite-footnote__back"), "{entry}");
    assert!(entry.contains("href=\"https://b.example/page\""), "{entry}");
    assert!(entry.contains("Whole &lt;B&gt;"), "{entry}");
    assert_eq!(notes.matches("cite-footnote__back").count(), 1, "{notes}");
    // The whole rendering shows the footnotes with both.
    let html = citekit::components::answer::html::render_to_string(&a, &r, true);
    assert!(html.contains("id=\"cite-fn-2\""), "{html}");
    // The copy lists it after the cited one.
    let md = citekit::core::export::to_markdown(&a);
    assert!(
        md.contains("[^2]: [Whole <B>]") || md.contains("[^2]: [Whole \\<B\\>]"),
        "{md}"
    );
    let txt = citekit::core::export::to_plain_text(&a);
    assert!(
        txt.contains("[1] Cited A - https://a.example/\n[2] Whole <B> - https://b.example/page"),
        "{txt}"
    );

    // A citation map's uncited source is not a source of the whole answer.
    let data = serde_json::json!({
        "1": {"title": "One", "source": "https://one.example/"},
        "2": {"title": "Two", "source": "https://two.example/"}
    });
    let c =
        citekit::core::parse(Some("Cited [1]."), Data::Json(&data), &Options::default()).unwrap();
    assert!(!c.source_by_number(2).unwrap().of_whole_answer());
    let notes = citekit::components::footnotes::html::footnotes_html(&c, &r);
    assert!(!notes.contains("cite-fn-2"), "{notes}");
}

/// The panel with `uncited: "hide"` hid an AI SDK message's sources of the whole answer
/// (the provider gave them for the answer, with no position), and `"dim"` dimmed them
/// as if the answer had not used them. They are listed after the cited sources, as the
/// footnotes list them, neither hidden nor dimmed; a truly uncited source still is.
#[test]
fn panel_keeps_the_sources_of_the_whole_answer_when_uncited_are_hidden_or_dimmed() {
    use citekit::core::options::Uncited;
    let message = serde_json::json!({
        "id": "m1",
        "role": "assistant",
        "parts": [
            {"type": "source-url", "sourceId": "a", "url": "https://a.example/", "title": "Cited A"},
            {"type": "source-url", "sourceId": "b", "url": "https://b.example/", "title": "Whole B"},
            {"type": "text", "text": "Paris is the capital [1].", "state": "done"}
        ]
    });
    let a = citekit::core::parse(None, Data::Json(&message), &Options::default()).unwrap();
    assert!(a.source("b").unwrap().of_whole_answer());
    for uncited in [Uncited::Hide, Uncited::Dim, Uncited::Show] {
        let r = RenderOptions {
            uncited,
            ..RenderOptions::default()
        };
        let panel = citekit::components::panel::html::panel_html(&a, &r);
        let one = panel.find("data-source=\"1\"");
        let two = panel.find("data-source=\"2\"");
        assert!(
            one.is_some() && two.is_some() && one < two,
            "{uncited:?}: {panel}"
        );
        assert!(
            !panel.contains("cite-source--uncited"),
            "{uncited:?}: {panel}"
        );
    }
    // A citation map's uncited source is hidden or dimmed as before.
    let data = serde_json::json!({
        "1": {"title": "One", "source": "https://one.example/"},
        "2": {"title": "Two", "source": "https://two.example/"}
    });
    let c =
        citekit::core::parse(Some("Cited [1]."), Data::Json(&data), &Options::default()).unwrap();
    let hide = RenderOptions {
        uncited: Uncited::Hide,
        ..RenderOptions::default()
    };
    assert!(!citekit::components::panel::html::panel_html(&c, &hide).contains("data-source=\"2\""));
    let dim = RenderOptions {
        uncited: Uncited::Dim,
        ..RenderOptions::default()
    };
    assert!(citekit::components::panel::html::panel_html(&c, &dim).contains("cite-source--uncited"));
}

/// Regression (a source with only a url showed "Untitled source"): a Perplexity answer
/// whose `citations` are bare urls shows each source's domain and readable path as its
/// title in the card, the panel, the footnotes, the marker's accessible name and the
/// copies, all the same; a source whose url was refused (`javascript:`) shows the
/// `untitled` label, never the url.
#[test]
fn a_source_with_only_a_url_is_titled_by_its_domain_not_untitled() {
    let completion = serde_json::json!({
        "id": "p1",
        "model": "sonar",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant",
            "content": "The Louvre is closed on Tuesdays [1]. Click here [2]."}}],
        "citations": ["https://www.louvre.fr/en/visit/hours-admission", "javascript:alert(1)"]
    });
    let a = citekit::core::parse(None, Data::Json(&completion), &Options::default()).unwrap();
    assert_eq!(a.format, Format::Perplexity);
    let title = "louvre.fr › hours admission";
    let r = RenderOptions::default();
    let card = citekit::components::card::html::card_html(&a, 0, 0, &r);
    assert!(
        card.contains(&format!(
            "<p class=\"cite-card__title\" dir=\"auto\">{title}</p>"
        )),
        "{card}"
    );
    let panel = citekit::components::panel::html::panel_html(&a, &r);
    assert!(
        panel.contains(&format!(
            "<span class=\"cite-source__title\" dir=\"auto\">{title}</span>"
        )),
        "{panel}"
    );
    let notes = citekit::components::footnotes::html::footnotes_html(&a, &r);
    assert!(notes.contains(&format!("{title}</a>")), "{notes}");
    let body = answer_html(&a, &r);
    assert!(
        body.contains(&format!("aria-label=\"Source 1: {title}\"")),
        "{body}"
    );
    assert!(citekit::core::export::to_markdown(&a).contains(&format!("[^1]: [{title}]")));
    assert!(citekit::core::export::to_plain_text(&a)
        .contains(&format!("[1] {title} - https://www.louvre.fr/")));
    // The refused url: no link, no url text, the untitled label.
    let card = citekit::components::card::html::card_html(&a, 1, 0, &r);
    assert!(card.contains(">Untitled source</p>"), "{card}");
    for html in [&card, &panel, &notes, &body] {
        assert!(!html.contains("javascript"), "{html}");
    }
}

#[test]
fn a_url_only_source_shows_its_domain_once() {
    // A source with no title of its own (Perplexity's citations, a bare url) is titled
    // from its url, which starts with the domain: the card, the panel and the footnotes
    // showed the domain again beside it.
    let mut a = answer("Claim [1].", ContentKind::Markdown, &[(6, 9, "1", None)]);
    a.sources[0].title = None;
    a.sources[0].url = Some("https://example.com/".into());
    a.sources[0].domain = Some("example.com".into());
    let r = RenderOptions::default();
    let panel = citekit::components::panel::html::panel_html(&a, &r);
    let notes = citekit::components::footnotes::html::footnotes_html(&a, &r);
    let card = citekit::components::card::html::card_html(&a, 0, 0, &r);
    for (name, html) in [("panel", &panel), ("footnotes", &notes), ("card", &card)] {
        let shown: String = visible(html);
        assert_eq!(shown.matches("example.com").count(), 1, "{name}: {html}");
        assert!(!html.contains("__domain"), "{name}: {html}");
    }
    // With a title of its own the domain is shown beside it.
    a.sources[0].title = Some("Example Domain".into());
    let panel = citekit::components::panel::html::panel_html(&a, &r);
    assert!(panel.contains("cite-source__domain"), "{panel}");
}
