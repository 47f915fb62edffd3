//! Secrets out of what the recorder shows: request URLs, bodies and console text.
//!
//! Two layers, as for the page itself. By name: a query parameter, a form field, a multipart
//! part or a JSON key whose name says it holds a secret (`password`, `token`, `api_key`, ...)
//! has its value replaced. By value: every secret text the page's captures found (a password
//! field's value) is cut wherever it appears, in its plain, URL-encoded and JSON-escaped forms,
//! so a login posted under a field named `p` is still redacted.

/// What a redacted value reads as.
pub const REDACTED: &str = "[redacted]";

/// Parts of a name (lowercase, letters and digits only) that make its value a secret.
const SECRET_PARTS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "pwd",
    "secret",
    "token",
    "apikey",
    "accesskey",
    "privatekey",
    "credential",
    "authorization",
    "cookie",
    "sessionid",
    "signature",
    "xsrf",
    "csrf",
    "cvv",
    "cvc",
    "cardnumber",
    "ccnumber",
];

/// Whole names that make their value a secret (too short to look for inside names).
const SECRET_NAMES: &[&str] = &["pass", "pin", "otp", "ssn", "sid", "auth", "key", "sig", "code"];

/// Secret texts shorter than this are not cut by value (they would cut ordinary words).
const MIN_SECRET_CHARS: usize = 4;

/// Whether a field, parameter or key named `name` holds a secret.
pub fn is_secret_name(name: &str) -> bool {
    let n: String = name.chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_ascii_lowercase();
    !n.is_empty() && (SECRET_NAMES.contains(&n.as_str()) || SECRET_PARTS.iter().any(|p| n.contains(p)))
}

/// Redacts by name and by value, with the secret texts known so far.
#[derive(Clone, Debug, Default)]
pub struct Redactor {
    known: Vec<String>,
}

impl Redactor {
    /// A redactor that also cuts the texts in `known` (shorter ones are ignored).
    pub fn new<I: IntoIterator<Item = String>>(known: I) -> Redactor {
        let mut known: Vec<String> =
            known.into_iter().filter(|s| s.chars().count() >= MIN_SECRET_CHARS).collect();
        // Longest first, so a secret that contains another is cut whole.
        known.sort_by_key(|s| std::cmp::Reverse(s.len()));
        known.dedup();
        Redactor { known }
    }

    /// Cuts every known secret text out of `text`, in the forms a page sends it in.
    pub fn text(&self, text: &str) -> String {
        let mut out = text.to_string();
        for s in &self.known {
            for form in forms(s) {
                if out.contains(&form) {
                    out = out.replace(&form, REDACTED);
                }
            }
        }
        out
    }

    /// A URL with the values of secret query parameters replaced (and known secrets cut).
    pub fn url(&self, url: &str) -> String {
        let cut = match url.split_once('?') {
            Some((base, rest)) => {
                let (query, fragment) = match rest.split_once('#') {
                    Some((q, f)) => (q, Some(f)),
                    None => (rest, None),
                };
                let mut s = format!("{base}?{}", form_fields(query));
                if let Some(f) = fragment {
                    s.push('#');
                    s.push_str(f);
                }
                s
            }
            None => url.to_string(),
        };
        self.text(&cut)
    }

    /// A request or response body, redacted as its content type says: JSON by key, a form by
    /// field, multipart by part name; any other text by value only.
    pub fn body(&self, content_type: Option<&str>, body: &str) -> String {
        let original = content_type.unwrap_or("");
        let ct = original.to_ascii_lowercase();
        let by_name = if ct.contains("json") || looks_like_json(body) {
            match serde_json::from_str::<serde_json::Value>(body) {
                // Untouched unless a key held a secret (the rewrite is compact, keys sorted).
                Ok(mut v) => {
                    if json_values(&mut v) > 0 {
                        v.to_string()
                    } else {
                        body.to_string()
                    }
                }
                Err(_) => body.to_string(),
            }
        } else if ct.starts_with("application/x-www-form-urlencoded") {
            form_fields(body)
        } else if ct.starts_with("multipart/form-data") {
            multipart(original, body)
        } else {
            body.to_string()
        };
        self.text(&by_name)
    }
}

/// The forms a secret text takes in a request: as typed, URL-encoded (form and query), and
/// escaped in JSON.
fn forms(s: &str) -> Vec<String> {
    let mut v = vec![s.to_string()];
    let encoded: String = url::form_urlencoded::byte_serialize(s.as_bytes()).collect();
    let json = serde_json::to_string(s).unwrap_or_default();
    let json = json.trim_matches('"').to_string();
    for f in [encoded, json] {
        if !v.contains(&f) {
            v.push(f);
        }
    }
    v
}

fn looks_like_json(body: &str) -> bool {
    let t = body.trim_start();
    t.starts_with('{') || t.starts_with('[')
}

/// `a=1&password=x` with each secret field's value replaced; the rest as it was sent.
fn form_fields(query: &str) -> String {
    query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((k, _)) if is_secret_name(&decode(k)) => format!("{k}={REDACTED}"),
            _ => pair.to_string(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

fn decode(s: &str) -> String {
    url::form_urlencoded::parse(format!("k={s}").as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
}

/// Replaces the values of secret keys, and returns how many it replaced.
fn json_values(v: &mut serde_json::Value) -> usize {
    match v {
        serde_json::Value::Object(map) => map
            .iter_mut()
            .map(|(k, val)| {
                if is_secret_name(k) && !val.is_null() {
                    *val = serde_json::Value::String(REDACTED.into());
                    1
                } else {
                    json_values(val)
                }
            })
            .sum(),
        serde_json::Value::Array(items) => items.iter_mut().map(json_values).sum(),
        _ => 0,
    }
}

/// A multipart body with the content of each part named like a secret replaced.
fn multipart(content_type: &str, body: &str) -> String {
    let Some(boundary) = content_type
        .split(';')
        .find_map(|p| p.trim().strip_prefix("boundary=").map(|b| b.trim_matches('"').to_string()))
    else {
        return body.to_string();
    };
    let delimiter = format!("--{boundary}");
    body.split(delimiter.as_str())
        .map(|part| {
            let Some((head, _)) = part.split_once("\r\n\r\n") else { return part.to_string() };
            let named = head
                .to_ascii_lowercase()
                .split("name=\"")
                .nth(1)
                .and_then(|r| r.split('"').next().map(str::to_string))
                .unwrap_or_default();
            if is_secret_name(&named) {
                format!("{head}\r\n\r\n{REDACTED}\r\n")
            } else {
                part.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(&delimiter)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_hold_secrets() {
        for n in ["password", "new-password", "user[password]", "api_key", "X-Auth-Token", "pin", "sessionId"]
        {
            assert!(is_secret_name(n), "{n}");
        }
        for n in ["username", "email", "author", "q", "page", "keyboard_layout", ""] {
            assert!(!is_secret_name(n), "{n}");
        }
    }

    #[test]
    fn urls_lose_secret_parameters() {
        let r = Redactor::default();
        assert_eq!(
            r.url("http://a/b?user=ann&token=abc123&x=1#frag"),
            format!("http://a/b?user=ann&token={REDACTED}&x=1#frag")
        );
        assert_eq!(r.url("http://a/b"), "http://a/b");
    }

    #[test]
    fn bodies_by_type() {
        let r = Redactor::default();
        assert_eq!(
            r.body(Some("application/json"), r#"{"user":"ann","password":"hunter22","nested":{"apiKey":7}}"#),
            format!(r#"{{"nested":{{"apiKey":"{REDACTED}"}},"password":"{REDACTED}","user":"ann"}}"#)
        );
        assert_eq!(
            r.body(Some("application/x-www-form-urlencoded"), "user=ann&password=p%40ss+word"),
            format!("user=ann&password={REDACTED}")
        );
        assert_eq!(r.body(Some("application/json"), r#"{"z": 1, "a": [2]}"#), r#"{"z": 1, "a": [2]}"#);
        let ct = "multipart/form-data; boundary=XyZ";
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"user\"\r\n\r\nann\r\n--XyZ\r\nContent-Disposition: form-data; name=\"Password\"\r\n\r\nhunter22\r\n--XyZ--\r\n";
        let out = r.body(Some(ct), body);
        assert!(out.contains("ann") && !out.contains("hunter22") && out.contains(REDACTED), "{out}");
    }

    #[test]
    fn known_secrets_are_cut_in_every_form() {
        let r = Redactor::new(["p@ss word".to_string(), "ab".to_string()]);
        assert_eq!(r.body(Some("text/plain"), "x p@ss word y"), format!("x {REDACTED} y"));
        assert_eq!(
            r.body(Some("application/x-www-form-urlencoded"), "p=p%40ss+word"),
            format!("p={REDACTED}")
        );
        assert_eq!(r.text(r#"{"p":"p@ss word"}"#), format!(r#"{{"p":"{REDACTED}"}}"#));
        // Too short to cut by value.
        assert_eq!(r.text("ab cd"), "ab cd");
    }
}
