//! The JSON shape `parse` returns (npm/README.md, "parse"), with offsets in the caller's unit.

use crate::core::model::{Answer, CitationOrigin, Location, Severity, Source};
use crate::core::offsets::{OffsetIndex, PositionEncoding};
use serde_json::{Map, Value};

/// The answer as the JSON `parse` returns, offsets converted to `encoding`.
pub fn to_json(answer: &Answer, encoding: PositionEncoding) -> Value {
    let mut converted = answer.clone();
    if encoding != PositionEncoding::Utf8 {
        let ix = OffsetIndex::new(&answer.text, encoding);
        for c in &mut converted.citations {
            c.start = ix.to_unit(c.start);
            c.end = ix.to_unit(c.end);
        }
        for l in &mut converted.links {
            l.start = ix.to_unit(l.start);
            l.end = ix.to_unit(l.end);
        }
        for d in &mut converted.diagnostics {
            d.start = d.start.map(|s| ix.to_unit(s));
            d.end = d.end.map(|s| ix.to_unit(s));
        }
    }
    // The scope is said of uncited sources only (a cited one is placed by its citations).
    for s in &mut converted.sources {
        if s.cited {
            s.scope = None;
        }
    }
    serde_json::to_value(&converted).unwrap_or(Value::Null)
}

/// The answer as JSON text: exactly what [`to_json`] gives, written out (the same keys
/// in the same order, the same values), without building a [`Value`] or going through
/// serde's derived code. The npm package's `parse` hands it to `JSON.parse`: that
/// is about 16 KB less wasm than serializing the model through serde into JS values,
/// and one string crossing into JS instead of a call per property.
pub fn to_json_text(answer: &Answer, encoding: PositionEncoding) -> String {
    let ix = (encoding != PositionEncoding::Utf8).then(|| OffsetIndex::new(&answer.text, encoding));
    let pos = |p: usize| ix.as_ref().map_or(p, |ix| ix.to_unit(p)) as u64;
    let mut w = Writer {
        out: String::with_capacity(answer.text.len() * 2 + 256),
        comma: false,
    };
    w.open('{');
    w.key("text");
    w.str(&answer.text);
    w.key("format");
    w.str(answer.format.name());
    w.key("contentKind");
    w.str(answer.content_kind.name());
    w.key("sources");
    w.list(&answer.sources, Writer::source);
    w.key("citations");
    w.list(&answer.citations, |w, c| {
        w.open('{');
        w.range(pos(c.start), pos(c.end));
        w.key("sources");
        w.strs(&c.sources);
        w.key("origin");
        w.str(match c.origin {
            CitationOrigin::Marker => "marker",
            CitationOrigin::Span => "span",
        });
        w.opt_str("citedText", c.cited_text.as_deref());
        if let Some(v) = &c.confidence {
            w.key("confidence");
            w.value(v);
        }
        if let Some(l) = &c.location {
            w.key("location");
            w.location(l);
        }
        if !c.pending.is_empty() {
            w.key("pending");
            w.strs(&c.pending);
        }
        w.close('}');
    });
    if !answer.links.is_empty() {
        w.key("links");
        w.list(&answer.links, |w, l| {
            w.open('{');
            w.range(pos(l.start), pos(l.end));
            w.key("url");
            w.str(&l.url);
            w.close('}');
        });
    }
    w.key("diagnostics");
    w.list(&answer.diagnostics, |w, d| {
        w.open('{');
        w.key("code");
        w.str(&d.code);
        w.key("message");
        w.str(&d.message);
        w.key("severity");
        w.str(match d.severity {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        });
        w.opt_uint("start", d.start.map(pos));
        w.opt_uint("end", d.end.map(pos));
        w.opt_str("path", d.path.as_deref());
        w.close('}');
    });
    w.key("showCitations");
    w.bool(answer.show_citations);
    if !answer.metadata.is_empty() {
        w.key("metadata");
        w.map(&answer.metadata);
    }
    w.close('}');
    w.out
}

/// `v` as serde_json's `to_string_pretty` writes it, byte for byte (two spaces of
/// indentation, `"key": value`, `[]` and `{}` when empty), without linking serde's
/// writer: a JSON answer stored as a value is shown as this text.
pub fn to_pretty_json(v: &Value) -> String {
    let mut w = Writer {
        out: String::new(),
        comma: false,
    };
    w.pretty(v, 0);
    w.out
}

/// `v` as serde_json's `to_string` writes it, byte for byte, without linking serde's
/// writer (the JSON view shows values nested too deep this way).
pub fn to_compact_json(v: &Value) -> String {
    let mut w = Writer {
        out: String::new(),
        comma: false,
    };
    w.value(v);
    w.out
}

/// JSON text with commas put where they belong: `comma` says whether the next key or
/// item follows another.
struct Writer {
    out: String,
    comma: bool,
}

impl Writer {
    fn open(&mut self, c: char) {
        self.out.push(c);
        self.comma = false;
    }

    fn close(&mut self, c: char) {
        self.out.push(c);
        self.comma = true;
    }

    fn item(&mut self) {
        if self.comma {
            self.out.push(',');
        }
        self.comma = false;
    }

    fn key(&mut self, k: &str) {
        self.item();
        self.str(k);
        self.out.push(':');
    }

    fn str(&mut self, s: &str) {
        self.out.push('"');
        let mut from = 0;
        for (i, b) in s.bytes().enumerate() {
            let esc = match b {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                0x08 => "\\b",
                0x0c => "\\f",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0..=0x1f => "",
                _ => continue,
            };
            self.out.push_str(&s[from..i]);
            if esc.is_empty() {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                self.out.push_str("\\u00");
                self.out.push(HEX[usize::from(b >> 4)] as char);
                self.out.push(HEX[usize::from(b & 15)] as char);
            } else {
                self.out.push_str(esc);
            }
            from = i + 1;
        }
        self.out.push_str(&s[from..]);
        self.out.push('"');
        self.comma = true;
    }

    fn uint(&mut self, mut n: u64) {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.out.extend(digits[i..].iter().map(|&d| d as char));
        self.comma = true;
    }

    fn bool(&mut self, b: bool) {
        self.out.push_str(if b { "true" } else { "false" });
        self.comma = true;
    }

    /// A number as serde_json writes it (a float that is not finite is `null`).
    fn float(&mut self, x: f64) {
        match serde_json::Number::from_f64(x) {
            Some(n) => self.out.push_str(&n.to_string()),
            None => self.out.push_str("null"),
        }
        self.comma = true;
    }

    fn opt_str(&mut self, k: &str, v: Option<&str>) {
        if let Some(v) = v {
            self.key(k);
            self.str(v);
        }
    }

    fn opt_uint(&mut self, k: &str, v: Option<u64>) {
        if let Some(v) = v {
            self.key(k);
            self.uint(v);
        }
    }

    /// `items` as an array, each written by `f`.
    fn list<T>(&mut self, items: &[T], mut f: impl FnMut(&mut Self, &T)) {
        self.open('[');
        for x in items {
            self.item();
            f(self, x);
        }
        self.close(']');
    }

    fn strs(&mut self, v: &[String]) {
        self.list(v, |w, s| w.str(s));
    }

    /// `"start"` and `"end"`.
    fn range(&mut self, start: u64, end: u64) {
        self.key("start");
        self.uint(start);
        self.key("end");
        self.uint(end);
    }

    fn map(&mut self, m: &Map<String, Value>) {
        self.open('{');
        for (k, v) in m {
            self.key(k);
            self.value(v);
        }
        self.close('}');
    }

    fn value(&mut self, v: &Value) {
        match v {
            Value::Null => {
                self.out.push_str("null");
                self.comma = true;
            }
            Value::Bool(b) => self.bool(*b),
            Value::Number(n) => {
                self.out.push_str(&n.to_string());
                self.comma = true;
            }
            Value::String(s) => self.str(s),
            Value::Array(a) => self.list(a, Self::value),
            Value::Object(m) => self.map(m),
        }
    }

    fn pretty(&mut self, v: &Value, depth: usize) {
        let (open, close, items): (char, char, Vec<(Option<&String>, &Value)>) = match v {
            Value::Array(a) if !a.is_empty() => ('[', ']', a.iter().map(|x| (None, x)).collect()),
            Value::Object(m) if !m.is_empty() => {
                ('{', '}', m.iter().map(|(k, x)| (Some(k), x)).collect())
            }
            _ => return self.value(v),
        };
        self.out.push(open);
        for (i, (k, x)) in items.into_iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.out.push('\n');
            for _ in 0..=depth {
                self.out.push_str("  ");
            }
            if let Some(k) = k {
                self.str(k);
                self.out.push_str(": ");
            }
            self.pretty(x, depth + 1);
        }
        self.out.push('\n');
        for _ in 0..depth {
            self.out.push_str("  ");
        }
        self.out.push(close);
    }

    fn source(&mut self, s: &Source) {
        self.open('{');
        self.key("id");
        self.str(&s.id);
        self.key("number");
        self.uint(u64::from(s.number));
        self.key("kind");
        self.str(&s.kind);
        self.opt_str("title", s.title.as_deref());
        self.opt_str("url", s.url.as_deref());
        self.opt_str("domain", s.domain.as_deref());
        self.opt_str("snippet", s.snippet.as_deref());
        self.opt_str("content", s.content.as_deref());
        self.opt_uint("page", s.page);
        for (k, x) in [
            ("score", s.score),
            ("objectiveRelevance", s.objective_relevance),
        ] {
            if let Some(x) = x {
                self.key(k);
                self.float(x);
            }
        }
        if let Some(v) = &s.query_relevance {
            self.key("queryRelevance");
            self.value(v);
        }
        self.opt_str("reasoning", s.reasoning.as_deref());
        self.opt_str("published", s.published.as_deref());
        self.opt_str("modified", s.modified.as_deref());
        self.opt_str("provider", s.provider.as_deref());
        if !s.identifiers.is_empty() {
            self.key("identifiers");
            self.open('{');
            for (k, v) in &s.identifiers {
                self.key(k);
                self.str(v);
            }
            self.close('}');
        }
        self.key("cited");
        self.bool(s.cited);
        self.key("citeCount");
        self.uint(u64::from(s.cite_count));
        if s.of_whole_answer() {
            self.key("scope");
            self.str("answer");
        }
        if s.used {
            self.key("used");
            self.bool(true);
        }
        if !s.metadata.is_empty() {
            self.key("metadata");
            self.map(&s.metadata);
        }
        self.close('}');
    }

    fn location(&mut self, l: &Location) {
        self.open('{');
        self.key("type");
        let (name, start, end, document_index) = match l {
            Location::CharLocation {
                start,
                end,
                document_index,
            } => ("char_location", Some(*start), Some(*end), *document_index),
            Location::PageLocation {
                start,
                end,
                document_index,
            } => ("page_location", Some(*start), Some(*end), *document_index),
            Location::ContentBlockLocation {
                start,
                end,
                document_index,
            } => (
                "content_block_location",
                Some(*start),
                Some(*end),
                *document_index,
            ),
            Location::UrlCitation { start, end } => ("url_citation", *start, *end, None),
            Location::Grounding { chunk_index } => {
                self.str("grounding");
                self.opt_uint("chunk_index", Some(*chunk_index));
                self.close('}');
                return;
            }
            Location::JsonPointer { path } => {
                self.str("json_pointer");
                self.opt_str("path", Some(path));
                self.close('}');
                return;
            }
        };
        self.str(name);
        self.opt_uint("start", start);
        self.opt_uint("end", end);
        self.opt_uint("document_index", document_index);
        self.close('}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::{Citation, ContentKind, Diagnostic, Format};

    /// Escapes, floats (one not finite), every optional field and a Location: the text
    /// is the value `to_json` gives, key for key.
    #[test]
    fn text_is_to_json() {
        let mut meta = Map::new();
        meta.insert(
            "q\"\\\u{1}".into(),
            serde_json::json!([1.5, -2, null, {"a": "é😀"}]),
        );
        let source = Source {
            id: "s\t1".into(),
            number: 3,
            kind: "web".into(),
            title: Some("A \"title\"\n\u{7f}\u{1f}".into()),
            url: Some("https://x.y/é".into()),
            page: Some(4),
            score: Some(0.1 + 0.2),
            objective_relevance: Some(f64::NAN),
            query_relevance: Some(serde_json::json!({"x": 1e300})),
            identifiers: [("MKT".to_string(), "1".to_string())].into_iter().collect(),
            cited: true,
            cite_count: 2,
            used: true,
            // Cited: the scope is not written.
            scope: Some(crate::core::model::SourceScope::Answer),
            metadata: meta.clone(),
            ..Source::default()
        };
        let whole = Source {
            id: "w".into(),
            number: 4,
            kind: "web".into(),
            scope: Some(crate::core::model::SourceScope::Answer),
            ..Source::default()
        };
        let answer = Answer {
            text: "héllo 😀 [x]\r\n\u{0}".into(),
            format: Format::Anthropic,
            content_kind: ContentKind::Plain,
            sources: vec![source, whole],
            citations: vec![Citation {
                start: 1,
                end: 8,
                sources: vec!["s\t1".into()],
                origin: CitationOrigin::Span,
                cited_text: Some("x".into()),
                confidence: Some(serde_json::json!(0.25)),
                location: Some(Location::UrlCitation {
                    start: Some(2),
                    end: None,
                }),
                pending: vec!["p".into()],
            }],
            links: vec![crate::core::model::TextLink {
                start: 6,
                end: 11,
                url: "u".into(),
            }],
            diagnostics: vec![Diagnostic::warning("c", "m \"q\"").at(1, 12).at_path("$.a")],
            show_citations: false,
            metadata: meta,
        };
        let pretty = serde_json::json!({
            "a": [], "b": {}, "c": [1, 2.5, -3e-7, 1e300, -3.273055467427725e46, 5e-324, null, true, {"d": [[], {"e": "\u{8}\u{c}\u{1f}\u{7f}\"\\/é😀"}]}],
            "": "", "f": {"g": {"h": [false]}}
        });
        for v in [
            pretty.clone(),
            pretty["c"].clone(),
            serde_json::json!([]),
            serde_json::json!("x"),
            serde_json::json!(1),
        ] {
            assert_eq!(
                to_pretty_json(&v),
                serde_json::to_string_pretty(&v).unwrap()
            );
            assert_eq!(to_compact_json(&v), serde_json::to_string(&v).unwrap());
        }
        for enc in [
            PositionEncoding::Utf8,
            PositionEncoding::Utf16,
            PositionEncoding::Utf32,
        ] {
            let text = to_json_text(&answer, enc);
            let written: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(written["sources"][0].get("scope"), None, "{text}");
            assert_eq!(written["sources"][1]["scope"], "answer", "{text}");
            assert_eq!(
                serde_json::to_string(&written).unwrap(),
                serde_json::to_string(&to_json(&answer, enc)).unwrap(),
                "{text}"
            );
        }
    }
}
