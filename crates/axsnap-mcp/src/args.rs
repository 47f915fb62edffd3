//! Tool arguments: read from the call's JSON object with errors that name the bad field and
//! say what it must be. A bad argument is a protocol error (JSON-RPC invalid params), not a
//! tool result: the call never reached the browser.

use rmcp::model::JsonObject;
use serde_json::Value;
use thiserror::Error;

/// Longest string argument accepted, in bytes (a 10 MB `text` is a mistake, not a form).
pub const MAX_STRING_BYTES: usize = 1 << 20;

/// A bad argument.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ArgError {
    /// A required argument is missing.
    #[error("{tool}: missing argument `{field}` ({expected})")]
    Missing {
        /// The tool.
        tool: &'static str,
        /// The argument.
        field: &'static str,
        /// What it must be.
        expected: String,
    },
    /// An argument has the wrong type or value.
    #[error("{tool}: argument `{field}` must be {expected}, got {got}")]
    Invalid {
        /// The tool.
        tool: &'static str,
        /// The argument.
        field: String,
        /// What it must be.
        expected: String,
        /// What was given, shortened.
        got: String,
    },
    /// An argument the tool does not take.
    #[error("{tool}: unknown argument `{field}`; it takes {known}")]
    Unknown {
        /// The tool.
        tool: &'static str,
        /// The argument given.
        field: String,
        /// The arguments it takes.
        known: String,
    },
    /// A string argument over [`MAX_STRING_BYTES`].
    #[error("{tool}: argument `{field}` is {bytes} bytes; at most {MAX_STRING_BYTES} are accepted")]
    TooLong {
        /// The tool.
        tool: &'static str,
        /// The argument.
        field: &'static str,
        /// Its size.
        bytes: usize,
    },
}

impl ArgError {
    /// The argument the error is about.
    pub fn field(&self) -> &str {
        match self {
            ArgError::Missing { field, .. } | ArgError::TooLong { field, .. } => field,
            ArgError::Invalid { field, .. } | ArgError::Unknown { field, .. } => field,
        }
    }
}

/// The arguments of one call.
pub struct Args<'a> {
    tool: &'static str,
    map: Option<&'a JsonObject>,
}

impl<'a> Args<'a> {
    /// The arguments of a call to `tool` (`None`: none given). Arguments not in `known` are
    /// refused.
    pub fn new(
        tool: &'static str,
        map: Option<&'a JsonObject>,
        known: &[&str],
    ) -> Result<Args<'a>, ArgError> {
        if let Some(m) = map {
            if let Some(k) = m.keys().find(|k| !known.contains(&k.as_str())) {
                let known = if known.is_empty() {
                    "no arguments".to_string()
                } else {
                    known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                };
                return Err(ArgError::Unknown { tool, field: shorten(k), known });
            }
        }
        Ok(Args { tool, map })
    }

    /// One optional string argument of a call, read before the tool's own reading of its
    /// arguments (which refuses unknown ones): where the call is to go.
    pub fn peek_str(
        tool: &'static str,
        map: Option<&'a JsonObject>,
        field: &'static str,
    ) -> Result<Option<&'a str>, ArgError> {
        Args { tool, map }.opt_str(field)
    }

    fn get(&self, field: &str) -> Option<&'a Value> {
        // `null` reads as absent: clients send it for optional arguments left out.
        self.map.and_then(|m| m.get(field)).filter(|v| !v.is_null())
    }

    /// `field` is missing: it must be `expected` (for arguments required only with others).
    pub fn missing(&self, field: &'static str, expected: &str) -> ArgError {
        ArgError::Missing { tool: self.tool, field, expected: expected.to_string() }
    }

    /// `field`'s value `got` is not `expected`.
    pub fn invalid(&self, field: &str, expected: impl Into<String>, got: &Value) -> ArgError {
        ArgError::Invalid {
            tool: self.tool,
            field: field.to_string(),
            expected: expected.into(),
            got: describe(got),
        }
    }

    /// An optional string.
    pub fn opt_str(&self, field: &'static str) -> Result<Option<&'a str>, ArgError> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::String(s)) if s.len() > MAX_STRING_BYTES => {
                Err(ArgError::TooLong { tool: self.tool, field, bytes: s.len() })
            }
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(v) => Err(self.invalid(field, "a string", v)),
        }
    }

    /// A required string.
    pub fn str(&self, field: &'static str) -> Result<&'a str, ArgError> {
        self.opt_str(field)?.ok_or(ArgError::Missing { tool: self.tool, field, expected: "a string".into() })
    }

    /// An optional boolean.
    pub fn opt_bool(&self, field: &'static str) -> Result<Option<bool>, ArgError> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(self.invalid(field, "true or false", v)),
        }
    }

    /// A required boolean.
    pub fn bool(&self, field: &'static str) -> Result<bool, ArgError> {
        self.opt_bool(field)?.ok_or(ArgError::Missing {
            tool: self.tool,
            field,
            expected: "true or false".into(),
        })
    }

    /// An optional whole number in `min..=max`.
    pub fn opt_int(&self, field: &'static str, min: i64, max: i64) -> Result<Option<i64>, ArgError> {
        match self.get(field) {
            None => Ok(None),
            Some(v) => {
                // Clients may send 5.0 for 5.
                let n = v
                    .as_i64()
                    .or_else(|| v.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 1e15).map(|f| f as i64));
                match n {
                    Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
                    _ => Err(self.invalid(field, whole_number_range(min, max), v)),
                }
            }
        }
    }

    /// An optional number in `min..=max`.
    pub fn opt_number(&self, field: &'static str, min: f64, max: f64) -> Result<Option<f64>, ArgError> {
        match self.get(field) {
            None => Ok(None),
            Some(v) => match v.as_f64() {
                Some(n) if n >= min && n <= max => Ok(Some(n)),
                _ => Err(self.invalid(field, format!("a number from {min} to {max}"), v)),
            },
        }
    }

    /// An optional string among `choices`.
    pub fn opt_choice(
        &self,
        field: &'static str,
        choices: &'static [&'static str],
    ) -> Result<Option<&'static str>, ArgError> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::String(s)) => match choices.iter().find(|c| c.eq_ignore_ascii_case(s)) {
                Some(c) => Ok(Some(c)),
                None => Err(self.invalid(field, choice_text(choices), &Value::String(s.clone()))),
            },
            Some(v) => Err(self.invalid(field, choice_text(choices), v)),
        }
    }

    /// A required string among `choices`.
    pub fn choice(
        &self,
        field: &'static str,
        choices: &'static [&'static str],
    ) -> Result<&'static str, ArgError> {
        self.opt_choice(field, choices)?.ok_or_else(|| ArgError::Missing {
            tool: self.tool,
            field,
            expected: choice_text(choices),
        })
    }

    /// A required list of strings (a single string is read as a list of one).
    pub fn strings(&self, field: &'static str) -> Result<Vec<String>, ArgError> {
        let expected = "a list of strings";
        match self.get(field) {
            None => Err(ArgError::Missing { tool: self.tool, field, expected: expected.into() }),
            Some(Value::String(s)) => Ok(vec![s.clone()]),
            Some(Value::Array(items)) => {
                let mut out = Vec::with_capacity(items.len());
                let mut bytes = 0;
                for (i, item) in items.iter().enumerate() {
                    let Value::String(s) = item else {
                        return Err(ArgError::Invalid {
                            tool: self.tool,
                            field: format!("{field}[{i}]"),
                            expected: "a string".into(),
                            got: describe(item),
                        });
                    };
                    bytes += s.len();
                    if bytes > MAX_STRING_BYTES {
                        return Err(ArgError::TooLong { tool: self.tool, field, bytes });
                    }
                    out.push(s.clone());
                }
                if out.is_empty() {
                    return Err(self.invalid(field, "a list of at least one string", &Value::Array(vec![])));
                }
                Ok(out)
            }
            Some(v) => Err(self.invalid(field, expected, v)),
        }
    }
}

fn whole_number_range(min: i64, max: i64) -> String {
    if max == i64::MAX {
        format!("a whole number, {min} or more")
    } else {
        format!("a whole number from {min} to {max}")
    }
}

fn choice_text(choices: &[&str]) -> String {
    let list = choices.iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(", ");
    format!("one of {list}")
}

/// A value as it may appear in an error: its type and a short form.
fn describe(v: &Value) -> String {
    let kind = match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    };
    let text = v.to_string();
    format!("{kind} {}", shorten(&text))
}

fn shorten(s: &str) -> String {
    let n = s.chars().count();
    if n <= 60 {
        return s.to_string();
    }
    let head: String = s.chars().take(60).collect();
    format!("{head}…+{} chars", n - 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> JsonObject {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn reads_and_names_bad_fields() {
        let m = obj(json!({"ref": "e1", "limit": "five", "double": true}));
        let a = Args::new("find", Some(&m), &["ref", "limit", "double"]).unwrap();
        assert_eq!(a.str("ref").unwrap(), "e1");
        assert_eq!(a.opt_bool("double").unwrap(), Some(true));
        let e = a.opt_int("limit", 1, i64::MAX).unwrap_err();
        assert_eq!(e.field(), "limit");
        assert!(
            e.to_string().contains("`limit` must be a whole number, 1 or more, got a string \"five\""),
            "{e}"
        );
        let e = a.str("query").unwrap_err();
        assert_eq!(e.to_string(), "find: missing argument `query` (a string)");
    }

    #[test]
    fn unknown_fields_are_named() {
        let m = obj(json!({"url": "x", "uri": "y"}));
        let e = Args::new("navigate", Some(&m), &["url"]).err().unwrap();
        assert_eq!(e.to_string(), "navigate: unknown argument `uri`; it takes `url`");
    }

    #[test]
    fn choices_and_lists() {
        let m = obj(json!({"mode": "FULL", "values": ["a", 3], "one": "x"}));
        let a = Args::new("t", Some(&m), &["mode", "values", "one"]).unwrap();
        assert_eq!(a.opt_choice("mode", &["auto", "full", "reset"]).unwrap(), Some("full"));
        assert_eq!(a.strings("values").unwrap_err().field(), "values[1]");
        assert_eq!(a.strings("one").unwrap(), vec!["x".to_string()]);
        let e = a.choice("format", &["text", "json"]).unwrap_err();
        assert!(e.to_string().contains("one of \"text\", \"json\""), "{e}");
    }

    #[test]
    fn huge_strings_are_refused() {
        let m = obj(json!({"text": "x".repeat(MAX_STRING_BYTES + 1)}));
        let a = Args::new("type", Some(&m), &["text"]).unwrap();
        assert!(matches!(a.str("text"), Err(ArgError::TooLong { .. })));
    }

    #[test]
    fn null_is_absent() {
        let m = obj(json!({"ref": null}));
        let a = Args::new("screenshot", Some(&m), &["ref"]).unwrap();
        assert_eq!(a.opt_str("ref").unwrap(), None);
    }
}
