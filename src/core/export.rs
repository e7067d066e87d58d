//! Export (docs/rendering.md): the answer with its citations as markdown with GFM
//! footnotes, and as plain text with a `Sources` block (the citation block chat clients print),
//! for a copy button.

use crate::core::markers::{protected_regions, TextSyntax};
use crate::core::model::{Answer, ContentKind};
use std::fmt::Write;

/// Where to insert what, in the answer text: (position, order, text).
fn insertions(answer: &Answer, footnotes: bool) -> Vec<(usize, u8, String)> {
    let syntax = match answer.content_kind {
        ContentKind::Markdown => TextSyntax::Markdown,
        ContentKind::Html => TextSyntax::Html,
        _ => TextSyntax::Plain,
    };
    let protected = protected_regions(&answer.text, syntax);
    // A citation ending inside code gets its reference after the code.
    let outside = |p: usize| {
        protected
            .iter()
            .find(|r| r.start < p && p < r.end)
            .map_or(p, |r| r.end)
    };
    let mut ins = Vec::new();
    for c in &answer.citations {
        let mut refs = String::new();
        for id in &c.sources {
            if let Some(s) = answer.source(id) {
                if footnotes {
                    let _ = write!(refs, "[^{}]", s.number);
                } else {
                    let _ = write!(refs, "[{}]", s.number);
                }
            }
        }
        ins.push((outside(c.end), 1, refs));
    }
    if footnotes {
        for l in &answer.links {
            ins.push((l.start, 0, "[".to_string()));
            ins.push((l.end, 0, format!("]({})", l.url)));
        }
    }
    crate::core::sort::sort_by_key(&mut ins, |(p, o, _)| (*p as u64, *o as u64));
    ins
}

fn apply(text: &str, ins: &[(usize, u8, String)]) -> String {
    let mut out = String::with_capacity(text.len() + ins.len() * 6);
    let mut last = 0;
    for (p, _, s) in ins {
        let p = (*p).min(text.len());
        if p < last || !text.is_char_boundary(p) {
            continue;
        }
        out.push_str(&text[last..p]);
        out.push_str(s);
        last = p;
    }
    out.push_str(&text[last..]);
    out
}

/// The sources the exports list: the cited ones, then the sources of the whole answer
/// (no citation names them; listed as the footnotes list them).
fn listed(answer: &Answer) -> Vec<&crate::core::model::Source> {
    answer
        .sources
        .iter()
        .filter(|s| s.cited || s.of_whole_answer())
        .collect()
}

/// The answer as markdown with `[^n]` references and footnote definitions for the cited
/// sources and the sources of the whole answer (`[^n]: [Title](url)`), identifier
/// links as markdown links.
pub fn to_markdown(answer: &Answer) -> String {
    let mut out = apply(&answer.text, &insertions(answer, true));
    let cited = listed(answer);
    if !cited.is_empty() {
        out.truncate(out.trim_end().len());
        out.push_str("\n\n");
        for s in cited {
            let title = s.display_title().unwrap_or(s.id.as_str().into());
            let title = escape_md(&title);
            match &s.url {
                Some(u) => {
                    let _ = writeln!(
                        out,
                        "[^{}]: [{title}](<{}>)",
                        s.number,
                        crate::core::str_ops::replace(u, ">", "%3E")
                    );
                }
                None => {
                    let _ = writeln!(out, "[^{}]: {title}", s.number);
                }
            }
        }
    }
    out
}

/// What the copy button copies: [`to_markdown`], except for an answer that is JSON or
/// YAML, copied as it is shown (references written into its values would make it
/// invalid; neither has a place for footnote definitions that JSON would keep).
pub fn copy_text(answer: &Answer) -> String {
    match answer.content_kind {
        crate::core::model::ContentKind::Json | crate::core::model::ContentKind::Yaml => {
            answer.text.clone()
        }
        _ => to_markdown(answer),
    }
}

/// The answer as plain text with `[n]` after each cited statement and a `Sources`
/// block listing the cited sources with their urls and quoted text, then the sources
/// of the whole answer.
pub fn to_plain_text(answer: &Answer) -> String {
    let mut out = apply(&answer.text, &insertions(answer, false));
    let cited = listed(answer);
    if !cited.is_empty() {
        out.truncate(out.trim_end().len());
        out.push_str("\n\nSources:\n");
        for s in cited {
            let title = s.display_title().unwrap_or(s.id.as_str().into());
            let _ = write!(out, "[{}] {title}", s.number);
            if let Some(u) = &s.url {
                let _ = write!(out, " - {u}");
            }
            out.push('\n');
            let quote = answer
                .citations
                .iter()
                .filter(|c| c.sources.contains(&s.id))
                .find_map(|c| c.cited_text.as_deref());
            if let Some(q) = quote {
                let _ = writeln!(out, "    > \"{q}\"");
            }
        }
    }
    out
}

/// Escapes the characters that would make a title into markdown syntax.
fn escape_md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '[' | ']' | '\\' | '*' | '_' | '`' | '<' | '>') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::formats::Data;
    use crate::core::options::Options;

    /// A JSON answer is copied as it is shown: valid JSON, no `[^n]` in its values.
    #[cfg(feature = "answer-kinds")]
    #[test]
    fn copy_of_a_json_answer_stays_json() {
        let fixture: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string("tests/fixtures/canonical/json_sidecar.json").unwrap(),
        )
        .unwrap();
        let data = &fixture["cases"][0]["data"];
        let a = crate::core::parse(None, Data::Json(data), &Options::default()).unwrap();
        assert_eq!(a.content_kind, crate::core::model::ContentKind::Json);
        assert!(!a.citations.is_empty());
        assert!(to_markdown(&a).contains("[^"));
        let copied = copy_text(&a);
        assert_eq!(copied, a.text);
        serde_json::from_str::<serde_json::Value>(&copied).expect("valid JSON");
    }

    #[test]
    fn markdown_and_plain_export() {
        let data = serde_json::json!({
            "1": {"title": "CLAUDE.md", "source": "https://a.example/claude", "text": "AEGIS RAG is agentic"},
            "2": {"title": "Architecture [draft]", "source": "https://b.example/arch"}
        });
        let a = crate::core::parse(
            Some("AEGIS RAG is an agentic system [1] using LangGraph [2]."),
            Data::Json(&data),
            &Options::default(),
        )
        .unwrap();
        let md = to_markdown(&a);
        assert!(
            md.starts_with("AEGIS RAG is an agentic system[^1] using LangGraph[^2]."),
            "{md}"
        );
        assert!(
            md.contains("[^2]: [Architecture \\[draft\\]](<https://b.example/arch>)"),
            "{md}"
        );
        let txt = to_plain_text(&a);
        assert!(txt.contains("system[1] using LangGraph[2]."), "{txt}");
        assert!(
            txt.contains("Sources:\n[1] CLAUDE.md - https://a.example/claude"),
            "{txt}"
        );
    }
}
