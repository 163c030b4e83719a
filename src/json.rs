//! A small JSON reader and string writer for what a first paint reads: the
//! text files and a few values in local storage (issue 33). The app's other
//! JSON (decks, practice history) goes through serde_json, in the chunks of
//! the pages that need it; this keeps serde_json's deserializer (about a
//! tenth of the main module's code) out of the main module. It accepts and
//! refuses what serde_json does for the shapes read through it (the tests
//! compare the two).

/// A parsed JSON value. Numbers as serde_json classifies them: an integer
/// literal that fits is `U` (non-negative) or `I` (negative), anything else
/// `F`. A string holding a lone surrogate escape, which serde_json skips in
/// a value it ignores but refuses in a value it reads, is `Str(None)`.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    U(u64),
    I(i64),
    F(f64),
    Str(Option<String>),
    Arr(Vec<Value>),
    Obj(Vec<(Option<String>, Value)>),
}

/// serde_json's nesting limit (arrays and objects nest at most 127 deep).
const MAX_DEPTH: usize = 128;

/// Parse a whole JSON text (`None`: not JSON, or nested too deep).
pub fn parse(text: &str) -> Option<Value> {
    let mut p = Parser { s: text, b: text.as_bytes(), i: 0 };
    let v = p.value(0)?;
    p.ws();
    (p.i == p.b.len()).then_some(v)
}

/// `s` as a JSON string, escaped as serde_json escapes it.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl Value {
    /// A string value (serde's `String`).
    pub fn str(&self) -> Option<&str> {
        match self {
            Value::Str(Some(s)) => Some(s),
            _ => None,
        }
    }
    /// serde's `usize`: a non-negative integer literal in range.
    pub fn usize(&self) -> Option<usize> {
        match self {
            Value::U(u) => usize::try_from(*u).ok(),
            _ => None,
        }
    }
    /// serde's `f64`: any number.
    pub fn f64(&self) -> Option<f64> {
        match *self {
            Value::U(u) => Some(u as f64),
            Value::I(i) => Some(i as f64),
            Value::F(f) => Some(f),
            _ => None,
        }
    }
    /// A struct's fields as serde's derive reads them: from an object (each
    /// of `names` at most once, other keys ignored) or from an array (in
    /// order, no more elements than fields). `None`: neither, or a field
    /// twice.
    pub fn fields<'a>(&'a self, names: &[&str]) -> Option<Vec<Option<&'a Value>>> {
        let mut out = vec![None; names.len()];
        match self {
            Value::Obj(pairs) => {
                for (k, v) in pairs {
                    // A key with a lone surrogate is no field name.
                    let Some(k) = k else { continue };
                    if let Some(i) = names.iter().position(|n| n == k) {
                        if out[i].replace(v).is_some() {
                            return None;
                        }
                    }
                }
            }
            Value::Arr(items) if items.len() <= names.len() => {
                for (slot, v) in out.iter_mut().zip(items) {
                    *slot = Some(v);
                }
            }
            _ => return None,
        }
        Some(out)
    }
}

struct Parser<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while matches!(self.b.get(self.i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, word: &str) -> Option<()> {
        self.b[self.i..].starts_with(word.as_bytes()).then(|| self.i += word.len())
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        self.ws();
        match *self.b.get(self.i)? {
            b'n' => self.eat("null").map(|_| Value::Null),
            b't' => self.eat("true").map(|_| Value::Bool(true)),
            b'f' => self.eat("false").map(|_| Value::Bool(false)),
            b'"' => self.string().map(Value::Str),
            b'[' => {
                if depth + 1 >= MAX_DEPTH {
                    return None;
                }
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Some(Value::Arr(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match self.b.get(self.i)? {
                        b',' => self.i += 1,
                        b']' => {
                            self.i += 1;
                            return Some(Value::Arr(items));
                        }
                        _ => return None,
                    }
                }
            }
            b'{' => {
                if depth + 1 >= MAX_DEPTH {
                    return None;
                }
                self.i += 1;
                let mut pairs = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Some(Value::Obj(pairs));
                }
                loop {
                    self.ws();
                    if self.b.get(self.i) != Some(&b'"') {
                        return None;
                    }
                    let k = self.string()?;
                    self.ws();
                    self.eat(":")?;
                    let v = self.value(depth + 1)?;
                    pairs.push((k, v));
                    self.ws();
                    match self.b.get(self.i)? {
                        b',' => self.i += 1,
                        b'}' => {
                            self.i += 1;
                            return Some(Value::Obj(pairs));
                        }
                        _ => return None,
                    }
                }
            }
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while self.b.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        self.i - start
    }

    fn number(&mut self) -> Option<Value> {
        let start = self.i;
        let negative = self.b[self.i] == b'-';
        if negative {
            self.i += 1;
        }
        let int_start = self.i;
        let n = self.digits();
        if n == 0 || (n > 1 && self.b[int_start] == b'0') {
            return None;
        }
        let mut integer = true;
        if self.b.get(self.i) == Some(&b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return None;
            }
            integer = false;
        }
        if matches!(self.b.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.b.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return None;
            }
            integer = false;
        }
        let text = &self.s[start..self.i];
        if integer {
            let digits = &self.s[int_start..self.i];
            if !negative {
                if let Ok(u) = digits.parse::<u64>() {
                    return Some(Value::U(u));
                }
            } else if let Ok(u) = digits.parse::<u64>() {
                // serde_json: -0 and below i64::MIN are floats.
                let neg = (u as i64).wrapping_neg();
                if u != 0 && neg < 0 {
                    return Some(Value::I(neg));
                }
            }
        }
        let f: f64 = text.parse().ok()?;
        f.is_finite().then_some(Value::F(f))
    }

    /// A string at its opening quote: `Some(None)` if it holds a lone
    /// surrogate escape, `None` if it is no JSON string.
    fn string(&mut self) -> Option<Option<String>> {
        self.i += 1;
        let mut out = String::new();
        let mut whole = true;
        loop {
            let start = self.i;
            while self.i < self.b.len() && self.b[self.i] != b'"' && self.b[self.i] != b'\\' {
                if self.b[self.i] < 0x20 {
                    return None;
                }
                self.i += 1;
            }
            out.push_str(&self.s[start..self.i]);
            match *self.b.get(self.i)? {
                b'"' => {
                    self.i += 1;
                    return Some(whole.then_some(out));
                }
                _ => {
                    let c = *self.b.get(self.i + 1)?;
                    self.i += 2;
                    out.push(match c {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) && self.b[self.i..].starts_with(b"\\u") {
                                let save = self.i;
                                self.i += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                                } else {
                                    // serde_json reads the second escape on its own.
                                    self.i = save;
                                    hi
                                }
                            } else {
                                hi
                            };
                            match char::from_u32(code) {
                                Some(c) => c,
                                None => {
                                    whole = false;
                                    '\u{fffd}'
                                }
                            }
                        }
                        _ => return None,
                    });
                }
            }
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let h = self.b.get(self.i..self.i + 4)?;
        if !h.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        self.i += 4;
        u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_quoted_as_serde_json_quotes_them() {
        for s in ["", "en", "zh", "a\"b\\c/d", "tab\tnl\ncr\r\u{8}\u{c}\u{1}\u{1f}\u{7f}", "中文 𝄞 🎉"] {
            assert_eq!(quote(s), serde_json::to_string(s).unwrap(), "{s:?}");
            assert_eq!(parse(&quote(s)).unwrap().str(), Some(s));
        }
    }

    #[test]
    fn it_accepts_and_refuses_what_serde_json_does() {
        let texts = [
            "null",
            "true",
            "false",
            "0",
            "-0",
            "1",
            "-1",
            "1.5",
            "-1.5e3",
            "1E+2",
            "1e-2",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "[]",
            "{}",
            " [ 1 , 2 ] ",
            r#"{"a":[{"b":null}],"c":"d"}"#,
            r#""\u00e9\u4e2d\ud834\udd1e\/""#,
            r#""\uD834\uDD1E""#,
            // refused
            "",
            " ",
            "01",
            "-",
            "1.",
            ".5",
            "1e",
            "+1",
            "[1,]",
            "{\"a\":1,}",
            "[1 2]",
            "{\"a\" 1}",
            "{a:1}",
            "nul",
            "truex",
            "[1]]",
            "\"a",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\\u+123\"",
            "\"tab\there\"",
            "1e400",
            "-1e400",
            "'a'",
        ];
        for t in texts {
            let serde = serde_json::from_str::<serde_json::Value>(t).is_ok();
            assert_eq!(parse(t).is_some(), serde, "{t:?}");
        }
        let deep_ok = format!("{}{}", "[".repeat(MAX_DEPTH - 1), "]".repeat(MAX_DEPTH - 1));
        let deep_bad = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert_eq!(parse(&deep_ok).is_some(), serde_json::from_str::<serde_json::Value>(&deep_ok).is_ok());
        assert_eq!(parse(&deep_bad).is_some(), serde_json::from_str::<serde_json::Value>(&deep_bad).is_ok());
    }

    #[test]
    fn strings_and_numbers_read_as_serde_reads_them() {
        for t in [r#""x""#, r#""\ud800""#, r#""\udc00""#, "1", "null", r#""\u00e9""#, r#""a\ud834\udd1eb""#] {
            assert_eq!(
                parse(t).as_ref().and_then(Value::str).map(String::from),
                serde_json::from_str::<String>(t).ok(),
                "{t}"
            );
        }
        for t in ["0", "7", "-1", "1.0", "1e2", "18446744073709551615", "4294967296", "-0", "null", "\"1\""] {
            assert_eq!(parse(t).as_ref().and_then(Value::usize), serde_json::from_str::<usize>(t).ok(), "{t}");
        }
        for t in ["0", "-3", "2.5", "1e-300", "123456789012345678901234567890", "null", "true"] {
            assert_eq!(parse(t).as_ref().and_then(Value::f64), serde_json::from_str::<f64>(t).ok(), "{t}");
        }
    }
}
