//! JSON text (RFC 8259) to `serde_json::Value`, read by hand: the npm package reads
//! every data object and option value through here, and serde_json's own reader (its
//! `Deserializer`, visitors, float tables and messages) is about 6.5 KB gzip of its wasm.
//! The values are serde_json's, so the rest of the crate and the public model are
//! unchanged: objects keep their key order (a repeated key keeps its first place and
//! its last value, as serde_json's map does), integers that fit are `u64`/`i64`, other
//! numbers `f64`.

use crate::core::limits::MAX_JSON_DEPTH;
use serde_json::{Map, Number, Value};

/// Where reading failed: the byte offset and what was wrong.
pub struct JsonError {
    /// Byte offset into the text.
    pub at: usize,
    /// What was expected or wrong there.
    pub message: &'static str,
}

impl JsonError {
    /// 1-based line and column (in bytes) of the error in `text`.
    pub fn line_column(&self, text: &str) -> (usize, usize) {
        let before = text.as_bytes().get(..self.at).unwrap_or(text.as_bytes());
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        (line, 1 + before.len() - start)
    }
}

/// Reads one JSON value that is the whole of `text` (whitespace around it allowed).
/// Arrays and objects nest at most [`MAX_JSON_DEPTH`] deep.
pub fn read(text: &str) -> Result<Value, JsonError> {
    let mut r = Reader {
        s: text,
        b: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    let v = r.value()?;
    r.ws();
    if r.i < r.b.len() {
        return Err(r.fail("trailing characters after the value"));
    }
    Ok(v)
}

struct Reader<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    depth: usize,
}

impl Reader<'_> {
    fn fail(&self, message: &'static str) -> JsonError {
        JsonError {
            at: self.i,
            message,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn value(&mut self) -> Result<Value, JsonError> {
        self.ws();
        match self.peek() {
            None => Err(self.fail("the data ends where a value should be")),
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string().map(Value::String),
            Some(b't') => self.word("true", Value::Bool(true)),
            Some(b'f') => self.word("false", Value::Bool(false)),
            Some(b'n') => self.word("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.fail("expected a value")),
        }
    }

    fn word(&mut self, w: &str, v: Value) -> Result<Value, JsonError> {
        if self.b[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(v)
        } else {
            Err(self.fail("expected a value"))
        }
    }

    fn enter(&mut self) -> Result<(), JsonError> {
        self.depth += 1;
        if self.depth > MAX_JSON_DEPTH {
            return Err(self.fail("arrays and objects nest too deep"));
        }
        self.i += 1;
        self.ws();
        Ok(())
    }

    fn object(&mut self) -> Result<Value, JsonError> {
        self.enter()?;
        let mut m = Map::new();
        if self.peek() == Some(b'}') {
            self.i += 1;
            self.depth -= 1;
            return Ok(Value::Object(m));
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(self.fail("expected a key in double quotes"));
            }
            let k = self.string()?;
            self.ws();
            if self.peek() != Some(b':') {
                return Err(self.fail("expected `:` after the key"));
            }
            self.i += 1;
            let v = self.value()?;
            m.insert(k, v);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    self.depth -= 1;
                    return Ok(Value::Object(m));
                }
                _ => return Err(self.fail("expected `,` or `}`")),
            }
        }
    }

    fn array(&mut self) -> Result<Value, JsonError> {
        self.enter()?;
        let mut a = Vec::new();
        if self.peek() == Some(b']') {
            self.i += 1;
            self.depth -= 1;
            return Ok(Value::Array(a));
        }
        loop {
            a.push(self.value()?);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    self.depth -= 1;
                    return Ok(Value::Array(a));
                }
                _ => return Err(self.fail("expected `,` or `]`")),
            }
        }
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(c) = self.peek() {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
            // The scan stops only at ASCII bytes: both ends are character boundaries.
            out.push_str(self.s.get(start..self.i).unwrap_or(""));
            match self.peek() {
                None => return Err(self.fail("a string is not closed")),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let c = self.escape()?;
                    out.push(c);
                }
                Some(_) => return Err(self.fail("a control character in a string (escape it)")),
            }
        }
    }

    fn escape(&mut self) -> Result<char, JsonError> {
        let c = self.peek();
        self.i += 1;
        Ok(match c {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let at = self.i - 2;
                let unit = self.hex4()?;
                let lone = JsonError {
                    at,
                    message: "a lone surrogate in a \\u escape",
                };
                match unit {
                    0xD800..=0xDBFF => {
                        if self.b.get(self.i..self.i + 2) != Some(b"\\u") {
                            return Err(lone);
                        }
                        self.i += 2;
                        let low = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return Err(lone);
                        }
                        char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                            .unwrap_or('\u{fffd}')
                    }
                    0xDC00..=0xDFFF => return Err(lone),
                    u => char::from_u32(u).unwrap_or('\u{fffd}'),
                }
            }
            _ => {
                self.i -= 1;
                return Err(self.fail("an invalid escape in a string"));
            }
        })
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut v = 0u32;
        for k in 0..4 {
            let d = self
                .b
                .get(self.i + k)
                .and_then(|&c| (c as char).to_digit(16))
                .ok_or(JsonError {
                    at: self.i + k,
                    message: "a \\u escape needs four hex digits",
                })?;
            v = v * 16 + d;
        }
        self.i += 4;
        Ok(v)
    }

    fn digits(&mut self) -> Result<(), JsonError> {
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.fail("expected a digit"));
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        Ok(())
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            _ => self.digits()?,
        }
        let mut float = false;
        if self.peek() == Some(b'.') {
            self.i += 1;
            self.digits()?;
            float = true;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            self.digits()?;
            float = true;
        }
        let t = self.s.get(start..self.i).unwrap_or("");
        if !float {
            if let Some(u) = crate::core::str_ops::uint(t) {
                return Ok(Value::Number(u.into()));
            }
            if let Ok(n) = t.parse::<i64>() {
                // `-0` is the float -0.0, as serde_json reads it.
                return Ok(Value::Number(if n == 0 {
                    Number::from_f64(-0.0).unwrap_or(0.into())
                } else {
                    n.into()
                }));
            }
        }
        parse_f64(t)
            .and_then(Number::from_f64)
            .map(Value::Number)
            .ok_or(JsonError {
                at: start,
                message: "a number out of range",
            })
    }
}

/// The value of a decimal number, `[+-]digits[.digits][(e|E)[+-]digits]` (digits on at
/// least one side of the point); `None` for anything else or a value that is not finite.
///
/// Read without core's `f64::from_str`, whose Eisel-Lemire tables do not compress: with
/// it the npm package's wasm is 12 KB gzip bigger (docs/size.md). The result is
/// correctly rounded (the same bits as `str::parse::<f64>`) when the number has at most
/// 19 significant digits and at most 21 digits after the point once its exponent is
/// applied: every number JavaScript writes for a value between 1e-5 and 1e21, scores,
/// relevances and timestamps among them. Past that it is within a few units in the last
/// place.
pub fn parse_f64(t: &str) -> Option<f64> {
    let b = t.as_bytes();
    let mut i = 0;
    let neg = match b.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    // The value is m * 10^exp; digits past the 19th only move the exponent (and mark
    // `dropped` when not zero).
    let (mut m, mut taken, mut exp, mut any, mut dropped) = (0u64, 0u32, 0i64, false, false);
    let mut point = false;
    while let Some(&c) = b.get(i) {
        match c {
            b'0'..=b'9' => {
                any = true;
                let d = u64::from(c - b'0');
                if m == 0 && d == 0 {
                    exp -= i64::from(point);
                } else if taken < 19 {
                    m = m * 10 + d;
                    taken += 1;
                    exp -= i64::from(point);
                } else {
                    exp += i64::from(!point);
                    dropped |= d != 0;
                }
            }
            b'.' if !point => point = true,
            _ => break,
        }
        i += 1;
    }
    if !any {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        let sign = match b.get(i) {
            Some(b'-') => {
                i += 1;
                -1
            }
            Some(b'+') => {
                i += 1;
                1
            }
            _ => 1,
        };
        let mut e = 0i64;
        let from = i;
        while let Some(c) = b.get(i).filter(|c| c.is_ascii_digit()) {
            e = (e * 10 + i64::from(c - b'0')).min(100_000);
            i += 1;
        }
        if i == from {
            return None;
        }
        exp += sign * e;
    }
    if i != b.len() {
        return None;
    }
    let v = if m == 0 {
        0.0
    } else if dropped {
        approx(m, exp)
    } else {
        exact(m, exp).unwrap_or_else(|| approx(m, exp))
    };
    let v = if neg { -v } else { v };
    v.is_finite().then_some(v)
}

/// m * 10^e correctly rounded, when the arithmetic fits in 128 bits.
fn exact(m: u64, e: i64) -> Option<f64> {
    if e >= 0 {
        // An integer: exact in u128, and `as f64` rounds to nearest, ties to even.
        let mut n = u128::from(m);
        for _ in 0..e {
            n = n.checked_mul(10)?;
        }
        return Some(n as f64);
    }
    let k = u32::try_from(-e).ok().filter(|&k| k <= 21)?;
    // m shifted to the top of 128 bits, divided by 10^k: the quotient has at least 56
    // bits (2^126 / 10^21 > 2^56), so its lowest bit is below the rounding position and
    // a non-zero remainder can be marked there; then one rounding to 53 bits is exact,
    // and the power of two scales without rounding (the result is at least 1e-21).
    let s = u128::from(m).leading_zeros();
    let n = u128::from(m) << s;
    let d = 10u128.pow(k);
    let q = (n / d) | u128::from(n % d != 0);
    Some(q as f64 * f64::from_bits(u64::from(1023 - s) << 52))
}

/// m * 10^e by steps of exact powers of ten (each step rounds once).
fn approx(m: u64, e: i64) -> f64 {
    const P22: f64 = 1e22;
    let mut v = m as f64;
    let mut e = e;
    while e > 0 && v.is_finite() {
        let k = e.min(22);
        v *= 10f64.powi(k as i32);
        e -= k;
    }
    while e < 0 && v != 0.0 {
        let k = (-e).min(22);
        v /= if k == 22 { P22 } else { 10f64.powi(k as i32) };
        e += k;
    }
    v
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Equal, floats within a few units in the last place (serde_json's reader,
    /// without its `float_roundtrip` feature, can be one off; ours past 1e21 a few).
    fn close(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
                let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
                x == y || (x - y).abs() <= 4e-15 * x.abs().max(y.abs())
            }
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(a, b)| close(a, b))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|((k, a), (l, b))| k == l && close(a, b))
            }
            _ => a == b,
        }
    }

    fn same(t: &str) -> bool {
        match (read(t).ok(), serde_json::from_str::<Value>(t).ok()) {
            (Some(a), Some(b)) => close(&a, &b),
            (a, b) => a.is_none() && b.is_none(),
        }
    }

    fn err(t: &str) -> (usize, usize, &'static str) {
        let e = read(t).expect_err(t);
        let (l, c) = e.line_column(t);
        (l, c, e.message)
    }

    #[test]
    fn reads_what_serde_json_reads() {
        for t in [
            r#"{"b": [1, -2, 3.5, 1e3, -0.25E-2, 18446744073709551615, -9223372036854775808, 1e400x]}"#,
            r#"{"s": "a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00 ✓", "n": null, "t": true, "f": false}"#,
            r#"[{"k": 1, "k": 2, "a": {}}, [], [[]], ""]"#,
            " \n\t 42 \r\n",
            "123456789012345678901234567890",
            r#"{"z": 1, "a": 2, "m": 3}"#,
            "-0",
        ] {
            assert!(same(t), "{t}");
        }
        assert!(read("[1e400x]").is_err() && read(r#"{"a": 1}"#).is_ok());
    }

    #[test]
    fn refuses_what_is_not_json_and_says_where() {
        assert_eq!(err("{not json"), (1, 2, "expected a key in double quotes"));
        assert_eq!(err("[1, 2,]"), (1, 7, "expected a value"));
        assert_eq!(err("{\"a\" 1}"), (1, 6, "expected `:` after the key"));
        assert_eq!(err("{\"a\": 1\n  \"b\": 2}"), (2, 3, "expected `,` or `}`"));
        assert_eq!(err("[1] 2"), (1, 5, "trailing characters after the value"));
        assert_eq!(err("\"abc"), (1, 5, "a string is not closed"));
        assert_eq!(
            err("\"a\tb\""),
            (1, 3, "a control character in a string (escape it)")
        );
        assert_eq!(err(r#""\x""#), (1, 3, "an invalid escape in a string"));
        assert_eq!(
            err(r#""\ud800x""#),
            (1, 2, "a lone surrogate in a \\u escape")
        );
        assert_eq!(
            err(r#""\udc00""#),
            (1, 2, "a lone surrogate in a \\u escape")
        );
        assert_eq!(
            err(r#""\u12g4""#),
            (1, 6, "a \\u escape needs four hex digits")
        );
        assert_eq!(err("01"), (1, 2, "trailing characters after the value"));
        assert_eq!(err("-"), (1, 2, "expected a digit"));
        assert_eq!(err("1."), (1, 3, "expected a digit"));
        assert_eq!(err("1e400"), (1, 1, "a number out of range"));
        assert_eq!(err("tru"), (1, 1, "expected a value"));
        assert_eq!(err(""), (1, 1, "the data ends where a value should be"));
        assert_eq!(err("\u{feff}{}"), (1, 1, "expected a value"));
        let deep = "[".repeat(MAX_JSON_DEPTH + 1);
        assert_eq!(err(&deep).2, "arrays and objects nest too deep");
        assert!(read(&format!(
            "{}{}",
            "[".repeat(MAX_JSON_DEPTH),
            "]".repeat(MAX_JSON_DEPTH)
        ))
        .is_ok());
    }

    #[test]
    fn decimals_read_as_core_reads_them() {
        for t in [
            "0",
            "-0.0",
            "1",
            "0.5",
            "90.33333333333333",
            "0.1",
            "0.30000000000000004",
            "123456789012345678",
            "1e21",
            "1.7976931348623157e308",
            "5e-324",
            "2.2250738585072014e-308",
            "1e-7",
            "-1.234e-5",
            "9007199254740993",
            "0.12345678901234567",
            "1.5",
            ".5",
            "5.",
            "+2",
            "1E+2",
            "4.35",
            "0.000001",
            "3.0000000000000004e-10",
            "12345678901234567890123",
            "0.1234567890123456789012345",
            "1e-400",
            "18446744073709551615.5",
        ] {
            let ours = parse_f64(t);
            let core = t.parse::<f64>().ok().filter(|f| f.is_finite());
            match (ours, core) {
                (Some(a), Some(b)) => assert!(
                    a.to_bits() == b.to_bits() || (a - b).abs() <= 4e-15 * b.abs(),
                    "{t}: {a:e} against {b:e}"
                ),
                (a, b) => assert_eq!(a, b, "{t}"),
            }
        }
        for t in [
            "", "-", ".", "e5", "1e", "1.2.3", "1e+", "0x10", "inf", "NaN", "1 ", " 1", "1e400",
        ] {
            assert_eq!(parse_f64(t), None, "{t}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        // What JavaScript and Rust write for a double reads back as the same double
        // (both write at most 17 significant digits), between 1e-5 and 1e21 bit for bit.
        #[test]
        fn shortest_forms_read_back_exactly(bits in any::<u64>()) {
            let f = f64::from_bits(bits).abs();
            prop_assume!(f.is_finite());
            for t in [format!("{f}"), format!("{f:e}")] {
                let back = parse_f64(&t).unwrap();
                if (1e-5..1e21).contains(&f) || f == 0.0 {
                    prop_assert_eq!(back.to_bits(), f.to_bits(), "{}", t);
                } else {
                    prop_assert!((back - f).abs() <= 4e-15 * f, "{} read as {:e}", t, back);
                }
            }
        }

        // Any decimal with up to 19 digits and a point within 21 places: bit for bit.
        #[test]
        fn short_decimals_are_exact(m in 1u64..10_000_000_000_000_000_000, k in 0u32..=21, e in 0u32..=19) {
            for t in [format!("{m}e-{k}"), format!("{m}e{e}")] {
                prop_assert_eq!(parse_f64(&t).map(f64::to_bits), t.parse::<f64>().ok().map(f64::to_bits), "{}", t);
            }
        }
        // Any text: the same verdict as serde_json, and the same value when both read
        // it (depth within the limit).
        #[test]
        fn agrees_with_serde_json(t in r#"[\[\]{}:,"\\ a-f0-9.eE+\-tnrul]{0,40}"#) {
            prop_assert!(same(&t), "{}", t);
        }

        // Any value serde_json writes, read back the same.
        #[test]
        fn reads_back_what_serde_json_writes(s in any::<String>(), n in any::<i64>(), f in -1e300f64..1e300, u in any::<u64>()) {
            let v = serde_json::json!({"s": s, "n": n, "u": u, "f": f, "a": [s.clone(), null, true]});
            let t = serde_json::to_string(&v).unwrap();
            // Floats past 1e21 are read within a few units in the last place.
            prop_assert!(read(&t).ok().is_some_and(|r| close(&r, &v)), "{}", t);
        }
    }
}
