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

    /// Free text (a console message, an HTML page, a body of no known type): the values that
    /// `name=value`, `"name": "value"` and `name="…" value="…"` give secret names, and every
    /// known secret text.
    pub fn text(&self, text: &str) -> String {
        self.known_texts(&by_name_in_text(text))
    }

    /// Cuts every known secret text out of `text`, in the forms a page sends it in.
    fn known_texts(&self, text: &str) -> String {
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
        self.known_texts(&cut)
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
                // Not whole (cut) or not JSON after all: its "name": "value" pairs.
                Err(_) => by_name_in_text(body),
            }
        } else if ct.starts_with("application/x-www-form-urlencoded") {
            form_fields(body)
        } else if ct.starts_with("multipart/form-data") {
            multipart(original, body)
        } else {
            by_name_in_text(body)
        };
        self.known_texts(&by_name)
    }
}

/// The forms a secret text takes in a request: as typed, URL-encoded (form and query), and
/// escaped in JSON.
fn forms(s: &str) -> Vec<String> {
    let mut v = vec![s.to_string()];
    let encoded: String = url::form_urlencoded::byte_serialize(s.as_bytes()).collect();
    let json = serde_json::to_string(s).unwrap_or_default();
    let json = json.trim_matches('"').to_string();
    // encodeURIComponent's form: a space is %20, not +.
    let component = encoded.replace('+', "%20");
    for f in [encoded, component, json] {
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

/// Characters of a name in `name=value` or `"name":`.
fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '[' | ']')
}

/// Where a value after `=` or `:` ends in free text.
fn value_end(rest: &str) -> usize {
    match rest.chars().next() {
        Some(q @ ('"' | '\'')) => rest[1..].find(q).map_or(rest.len(), |i| i + 2),
        _ => rest
            .find(|c: char| {
                c.is_whitespace() || matches!(c, '&' | '"' | '\'' | '<' | '>' | ';' | ',' | ')' | '}' | ']')
            })
            .unwrap_or(rest.len()),
    }
}

/// Free text with the values of secret names replaced: `name=value` (a query, a form, a
/// header-like line), `"name": "value"` (JSON, whole or cut), and an HTML input's
/// `name="secret" … value="…"`.
fn by_name_in_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // After an HTML `name="secret"`: the next `value=` is the secret's.
    let mut html_secret = false;
    while i < text.len() {
        let rest = &text[i..];
        let Some(c) = rest.chars().next() else { break };
        if !(name_char(c) || c == '"') || (i > 0 && text[..i].chars().next_back().is_some_and(name_char)) {
            if c == '>' {
                html_secret = false;
            }
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        // A name: bare, or quoted (JSON keys, HTML attribute values).
        let quoted = c == '"';
        let body = if quoted { &rest[1..] } else { rest };
        let len = body.find(|ch: char| !name_char(ch)).unwrap_or(body.len());
        let name = &body[..len];
        let mut after = &body[len..];
        if quoted {
            match after.strip_prefix('"') {
                Some(a) => after = a,
                None => {
                    out.push(c);
                    i += 1;
                    continue;
                }
            }
        }
        let name_end = i + usize::from(quoted) * 2 + len;
        let sep = after.len() - after.trim_start().len();
        let trimmed = after.trim_start();
        let is_value_of = name.eq_ignore_ascii_case("value") && html_secret && trimmed.starts_with('=');
        if name.eq_ignore_ascii_case("name") && trimmed.starts_with('=') {
            // `name="_xsrf"`: read the attribute's value as a name.
            let v = trimmed[1..].trim_start();
            let v = v.trim_start_matches(['"', '\'']);
            let n = v.find(|ch: char| !name_char(ch)).unwrap_or(v.len());
            html_secret = is_secret_name(&v[..n]);
        }
        let opens_value =
            (trimmed.starts_with('=') && !trimmed.starts_with("==")) || (quoted && trimmed.starts_with(':'));
        if (is_secret_name(name) || is_value_of) && !name.is_empty() && opens_value {
            let value_start = name_end + sep + 1;
            let after_sep = &text[value_start..];
            let pad = after_sep.len() - after_sep.trim_start().len();
            let v_start = value_start + pad;
            let v_len = value_end(&text[v_start..]);
            if v_len > 0 {
                out.push_str(&text[i..v_start]);
                let v = &text[v_start..v_start + v_len];
                match v.chars().next() {
                    Some(q @ ('"' | '\'')) => {
                        out.push(q);
                        out.push_str(REDACTED);
                        if v.len() > 1 && v.ends_with(q) {
                            out.push(q);
                        }
                    }
                    _ => out.push_str(REDACTED),
                }
                if is_value_of {
                    html_secret = false;
                }
                i = v_start + v_len;
                continue;
            }
        }
        out.push_str(&text[i..name_end]);
        i = name_end;
    }
    out
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
    fn free_text_loses_values_of_secret_names() {
        let r = Redactor::default();
        assert_eq!(
            r.text("GET https://s3/x.js?X-Amz-Signature=abc123&v=2 failed"),
            format!("GET https://s3/x.js?X-Amz-Signature={REDACTED}&v=2 failed")
        );
        assert_eq!(
            r.text(r#"sent {"user": "ann", "password": "hunter22", "n": 3}"#),
            format!(r#"sent {{"user": "ann", "password": "{REDACTED}", "n": 3}}"#)
        );
        assert_eq!(
            r.text(r#"<input type=hidden name="_xsrf" value="2|abc|def"><input name=q value="cats">"#),
            format!(r#"<input type=hidden name="_xsrf" value="{REDACTED}"><input name=q value="cats">"#)
        );
        assert_eq!(r.text("token: abc, a == b, x=1"), "token: abc, a == b, x=1");
        // A cut JSON body (too long to parse) still loses its secret values.
        let cut = r#"{"token":"t0k3n","blob":"aaaa"#;
        assert_eq!(r.body(Some("application/json"), cut), format!(r#"{{"token":"{REDACTED}","blob":"aaaa"#));
        assert_eq!(r.text("ünïcode password=é€ done"), format!("ünïcode password={REDACTED} done"));
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
        assert_eq!(r.url("http://a/?q=p%40ss%20word"), format!("http://a/?q={REDACTED}"));
        // Too short to cut by value.
        assert_eq!(r.text("ab cd"), "ab cd");
    }
}
