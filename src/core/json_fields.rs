//! JSON input with limits (docs/safety.md, "Limits"), and a lenient field reader for format
//! parsers: missing, null and wrong-typed fields become diagnostics, unknown fields
//! are kept for `metadata`.

use crate::core::error::ParseError;
use crate::core::limits::{
    MAX_DATA_BYTES, MAX_DATA_BYTES_NAME, MAX_JSON_DEPTH, MAX_JSON_DEPTH_NAME,
};
use crate::core::model::Diagnostic;
use serde_json::{Map, Value};

/// Parses JSON text, checking size and nesting first (so a deep document never reaches
/// the recursive parser).
pub fn parse_json(text: &str) -> Result<Value, ParseError> {
    if text.len() > MAX_DATA_BYTES {
        return Err(ParseError::Limit {
            limit: MAX_DATA_BYTES_NAME,
            message: format!(
                "the data is {} bytes, more than the {} allowed",
                text.len(),
                MAX_DATA_BYTES
            ),
        });
    }
    check_depth(text)?;
    crate::core::json_reader::read(text).map_err(|e| {
        let (line, column) = e.line_column(text);
        ParseError::InvalidJson {
            line,
            column,
            message: e.message.to_string(),
        }
    })
}

/// Fails when arrays/objects nest deeper than [`MAX_JSON_DEPTH`] (strings are skipped).
pub fn check_depth(text: &str) -> Result<(), ParseError> {
    let mut depth = 0usize;
    let mut in_str = false;
    let mut escaped = false;
    for &b in text.as_bytes() {
        if in_str {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_str = false;
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_JSON_DEPTH {
                    return Err(ParseError::Limit {
                        limit: MAX_JSON_DEPTH_NAME,
                        message: format!("the data nests deeper than {MAX_JSON_DEPTH} levels"),
                    });
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// The JSON type name of a value, for messages.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads fields of one JSON object leniently. Every field read is marked; the rest
/// comes out of [`Fields::rest`] for `metadata`. Wrong types are reported on `diags`.
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
    path: String,
    taken: Vec<&'a str>,
}

impl<'a> Fields<'a> {
    /// Reader over `map`, which sits at `path` (like `sources[2]`).
    pub fn new(map: &'a Map<String, Value>, path: impl Into<String>) -> Self {
        Fields {
            map,
            path: path.into(),
            taken: Vec::new(),
        }
    }

    /// The path of a field of this object.
    pub fn path_of(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// The raw value of `key` (null counts as missing), marked as taken.
    pub fn value(&mut self, key: &str) -> Option<&'a Value> {
        let (k, v) = self.map.get_key_value(key)?;
        self.taken.push(k.as_str());
        if v.is_null() {
            None
        } else {
            Some(v)
        }
    }

    /// The first of `keys` present (not null).
    pub fn value_any(&mut self, keys: &[&str]) -> Option<(&'a str, &'a Value)> {
        let mut found = None;
        for key in keys {
            if let Some((k, v)) = self.map.get_key_value(*key) {
                self.taken.push(k.as_str());
                if found.is_none() && !v.is_null() {
                    found = Some((k.as_str(), v));
                }
            }
        }
        found
    }

    /// A string field; numbers and booleans are accepted as their text, other types
    /// reported.
    pub fn string(&mut self, key: &str, diags: &mut Vec<Diagnostic>) -> Option<String> {
        let v = self.value(key)?;
        self.as_string(key, v, diags)
    }

    /// The first string field among `keys`.
    pub fn string_any(&mut self, keys: &[&str], diags: &mut Vec<Diagnostic>) -> Option<String> {
        let (k, v) = self.value_any(keys)?;
        self.as_string(k, v, diags)
    }

    fn as_string(&self, key: &str, v: &Value, diags: &mut Vec<Diagnostic>) -> Option<String> {
        match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            other => {
                diags.push(wrong_type(&self.path_of(key), "a string", other));
                None
            }
        }
    }

    /// A number field; numeric strings (`"0.9"`) are accepted.
    pub fn number(&mut self, key: &str, diags: &mut Vec<Diagnostic>) -> Option<f64> {
        let v = self.value(key)?;
        self.as_number(key, v, diags)
    }

    /// The first number field among `keys`.
    pub fn number_any(&mut self, keys: &[&str], diags: &mut Vec<Diagnostic>) -> Option<f64> {
        let (k, v) = self.value_any(keys)?;
        self.as_number(k, v, diags)
    }

    fn as_number(&self, key: &str, v: &Value, diags: &mut Vec<Diagnostic>) -> Option<f64> {
        let n = match v {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => crate::core::json_reader::parse_f64(s.trim()),
            _ => None,
        };
        match n {
            Some(n) if n.is_finite() => Some(n),
            _ => {
                diags.push(wrong_type(&self.path_of(key), "a number", v));
                None
            }
        }
    }

    /// A non-negative integer field; integral floats and numeric strings are accepted.
    pub fn uint(&mut self, key: &str, diags: &mut Vec<Diagnostic>) -> Option<u64> {
        let v = self.value(key)?;
        self.as_uint(key, v, diags)
    }

    /// The first non-negative integer among `keys`.
    pub fn uint_any(&mut self, keys: &[&str], diags: &mut Vec<Diagnostic>) -> Option<u64> {
        let (k, v) = self.value_any(keys)?;
        self.as_uint(k, v, diags)
    }

    fn as_uint(&self, key: &str, v: &Value, diags: &mut Vec<Diagnostic>) -> Option<u64> {
        match as_uint(v) {
            Some(n) => Some(n),
            None => {
                diags.push(wrong_type(&self.path_of(key), "a non-negative integer", v));
                None
            }
        }
    }

    /// An array field (a single non-array value is taken as a one-element array).
    pub fn array(&mut self, key: &str) -> Option<Vec<&'a Value>> {
        let v = self.value(key)?;
        Some(match v {
            Value::Array(a) => a.iter().collect(),
            other => vec![other],
        })
    }

    /// An object field; other types reported.
    #[cfg(feature = "providers")]
    pub fn object(
        &mut self,
        key: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<&'a Map<String, Value>> {
        let v = self.value(key)?;
        match v {
            Value::Object(o) => Some(o),
            other => {
                diags.push(wrong_type(&self.path_of(key), "an object", other));
                None
            }
        }
    }

    /// Every field not read so far.
    pub fn rest(&self) -> Map<String, Value> {
        self.map
            .iter()
            .filter(|(k, _)| !self.taken.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }
}

/// A value as a non-negative integer (integral floats and numeric strings accepted).
pub fn as_uint(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 9.0e15)
                .map(|f| f as u64)
        }),
        Value::String(s) => crate::core::str_ops::uint(s.trim()),
        _ => None,
    }
}

/// A `wrong-type` warning for `path`.
pub fn wrong_type(path: &str, expected: &str, got: &Value) -> Diagnostic {
    Diagnostic::warning(
        "wrong-type",
        format!(
            "`{path}` should be {expected}, found {}; ignored",
            type_name(got)
        ),
    )
    .at_path(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_limit_names_the_limit() {
        let deep = "[".repeat(100) + &"]".repeat(100);
        let err = parse_json(&deep).unwrap_err();
        assert!(err.to_string().contains("max_json_depth"), "{err}");
        let ok = "[".repeat(10) + &"]".repeat(10);
        assert!(parse_json(&ok).is_ok());
        // Brackets in strings do not count.
        let s = format!("[\"{}\"]", "[".repeat(200));
        assert!(parse_json(&s).is_ok());
    }

    #[test]
    fn lenient_fields() {
        let v: Value = serde_json::json!({"a": "x", "b": 3, "c": [1], "d": null, "e": {"k": 1}});
        let map = v.as_object().unwrap();
        let mut diags = vec![];
        let mut f = Fields::new(map, "src[0]");
        assert_eq!(f.string("a", &mut diags), Some("x".into()));
        assert_eq!(f.string("b", &mut diags), Some("3".into()));
        assert_eq!(f.string("c", &mut diags), None);
        assert_eq!(f.string("d", &mut diags), None);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].path.as_deref(), Some("src[0].c"));
        let rest = f.rest();
        assert_eq!(rest.len(), 1);
        assert!(rest.contains_key("e"));
    }
}
