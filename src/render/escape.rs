//! HTML escaping: every piece of input text goes through here before it reaches the
//! output.

/// Appends `s` escaped for text content and for double-quoted attribute values.
pub fn push_escaped(out: &mut String, s: &str) {
    let bytes = s.as_bytes();
    let mut last = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let rep = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        out.push_str(&s[last..i]);
        out.push_str(rep);
        last = i + 1;
    }
    out.push_str(&s[last..]);
}

/// `s` escaped.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    push_escaped(&mut out, s);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_everything_that_matters() {
        assert_eq!(
            super::escape(r#"<script>"a"&'b'</script>"#),
            "&lt;script&gt;&quot;a&quot;&amp;&#39;b&#39;&lt;/script&gt;"
        );
        assert_eq!(super::escape("日本😀"), "日本😀");
    }
}
