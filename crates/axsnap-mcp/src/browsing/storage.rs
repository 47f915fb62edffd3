//! The `storage` group (`storage {action: save|load, path}`, `cookies {action, …}`) and the
//! start state (`--storage-state`) every session's context is given before its first page.
//! Cookie values are secrets: no answer shows one.

use axsnap_cdp::storage::Cookie;
use rmcp::model::JsonObject;
use serde_json::{json, Map, Value};

use super::Browsing;
use crate::args::Args;
use crate::code::Code;
use crate::failure::{clip, Failure};
use crate::reply::Reply;
use crate::tool_name::ToolName;

/// Most cookies one `cookies list` names.
const MAX_LISTED: usize = 100;

impl Browsing {
    /// Loads `--storage-state` into a context made since the last load (once per context).
    pub(super) async fn load_start_state(&mut self) -> Result<(), Failure> {
        let (Some(state), true) = (self.options.storage_state.clone(), self.state_pending) else {
            return Ok(());
        };
        let Some(agent) = self.agent.as_mut() else { return Ok(()) };
        // Tried once per context: a file the browser refuses is said once, then the session
        // goes on without it.
        self.state_pending = false;
        agent.backend().load_storage_state(&state).await.map(|_| ()).map_err(|e| {
            Failure::tool(
                Code::StorageStateFailed,
                format!("--storage-state could not be loaded into this session's browser ({e}); it goes on without it"),
            )
        })
    }

    /// `storage {action: save|load, path}`.
    pub(super) async fn storage(&mut self, args: Option<&JsonObject>) -> Result<Reply, Failure> {
        let a = Args::new(ToolName::Storage.as_str(), args, &["action", "path"])?;
        let action = a.choice("action", &["save", "load"])?;
        let path = a.str("path")?.to_string();
        let Some(dir) = self.options.browser.output_dir.clone() else {
            return Err(Failure::tool(
                Code::NoOutputDir,
                "this server keeps no files: start it with --output-dir DIR (storage files are saved and read there)",
            ));
        };
        if action == "save" {
            let state = self.agent().await?.backend().storage_state().await?;
            let bytes = serde_json::to_vec_pretty(&state).unwrap_or_default();
            let (name, written) = crate::output::write_private(&dir, &path, &bytes)?;
            let items: usize = state.origins.iter().map(|o| o.local_storage.len()).sum();
            let mut reply = Reply::message(
                "storage",
                format!(
                    "saved {} cookie{} and {items} local storage item{} of {} origin{} to {name} ({})",
                    state.cookies.len(),
                    plural(state.cookies.len()),
                    plural(items),
                    state.origins.len(),
                    plural(state.origins.len()),
                    written.display()
                ),
            );
            reply.structured.insert("path".into(), json!(written.to_string_lossy()));
            reply.structured.insert("cookies".into(), json!(state.cookies.len()));
            reply.structured.insert("origins".into(), json!(state.origins.len()));
            return Ok(reply);
        }
        let (read, bytes) = crate::output::read_under(&dir, &path)?;
        let state = crate::storage_state::parse(&bytes)
            .map_err(|e| Failure::tool(Code::BadStorageFile, format!("{}: {e}", read.display())))?;
        let (state, skipped) = crate::storage_state::allowed(&state, &self.options.urls);
        let has_page = self.agent.as_ref().is_some_and(|a| a.target().is_some());
        let items = self.agent().await?.backend().load_storage_state(&state).await?;
        let mut text = format!(
            "loaded {} cookie{} and {items} local storage item{} of {} origin{} from {}",
            state.cookies.len(),
            plural(state.cookies.len()),
            plural(items),
            state.origins.len(),
            plural(state.origins.len()),
            read.display()
        );
        if !skipped.is_empty() {
            let names: Vec<String> = skipped.iter().take(5).map(|s| clip(s)).collect();
            text.push_str(&format!(
                "; left out what the server's URL policy refuses: {}{}",
                names.join(", "),
                if skipped.len() > 5 { format!(" and {} more", skipped.len() - 5) } else { String::new() }
            ));
        }
        if has_page {
            text.push_str("; the open page sees them once it loads again (reload)");
        }
        let mut reply = Reply::message("storage", text);
        reply.structured.insert("cookies".into(), json!(state.cookies.len()));
        reply.structured.insert("items".into(), json!(items));
        reply.structured.insert("skipped".into(), json!(skipped));
        Ok(reply)
    }

    /// `cookies {action: list|set|delete|clear, name?, value?, url?, domain?, path?, expires?,
    /// http_only?, secure?}`.
    pub(super) async fn cookies(&mut self, args: Option<&JsonObject>) -> Result<Reply, Failure> {
        let a = Args::new(
            ToolName::Cookies.as_str(),
            args,
            &["action", "name", "value", "url", "domain", "path", "expires", "http_only", "secure"],
        )?;
        let action = a.choice("action", &["list", "set", "delete", "clear"])?;
        let name = a.opt_str("name")?.map(str::to_string);
        let site = self.site(a.opt_str("url")?, a.opt_str("domain")?, a.opt_str("path")?)?;
        match action {
            "list" => {
                let all = self.agent().await?.backend().cookies().await?;
                let matched: Vec<&Cookie> = all
                    .iter()
                    .filter(|c| name.as_deref().is_none_or(|n| c.name == n))
                    .filter(|c| {
                        site.as_ref().is_none_or(|s| c.matches_host(&s.host) && s.path.starts_with(&c.path))
                    })
                    .collect();
                let mut text =
                    format!("{} cookie{} in {}", all.len(), plural(all.len()), self.cookie_scope());
                if matched.len() != all.len() {
                    text.push_str(&format!(" ({} match)", matched.len()));
                }
                text.push_str(if matched.is_empty() { "." } else { " (values are never shown):" });
                for c in matched.iter().take(MAX_LISTED) {
                    text.push('\n');
                    text.push_str(&cookie_line(c));
                }
                if matched.len() > MAX_LISTED {
                    text.push_str(&format!(
                        "\n… and {} more (name or url narrows the list)",
                        matched.len() - MAX_LISTED
                    ));
                }
                let list: Vec<Value> = matched.iter().take(MAX_LISTED).map(|c| cookie_json(c)).collect();
                let mut s = Map::new();
                s.insert("kind".into(), json!("cookies"));
                s.insert("total".into(), json!(all.len()));
                s.insert("cookies".into(), Value::Array(list));
                Ok(Reply { text, structured: s, image: None })
            }
            "set" => {
                let (Some(name), Some(site)) = (name, site) else {
                    return Err(Failure::tool(
                        Code::BadArgument,
                        "cookies set needs name, value, and url (or domain): the site the cookie is for",
                    ));
                };
                let value = a.str("value")?.to_string();
                let expires = a.opt_number("expires", 0.0, 1e11)?;
                let cookie = Cookie {
                    name,
                    value,
                    domain: site.host.clone(),
                    path: site.path.clone(),
                    expires: expires.unwrap_or(-1.0),
                    http_only: a.opt_bool("http_only")?.unwrap_or(false),
                    secure: a.opt_bool("secure")?.unwrap_or(site.secure),
                    same_site: "Lax".into(),
                };
                self.agent().await?.backend().set_cookies(std::slice::from_ref(&cookie)).await?;
                let mut reply = Reply::message("cookies", format!("set {}", cookie_line(&cookie)));
                reply.structured.insert("cookie".into(), cookie_json(&cookie));
                Ok(reply)
            }
            "delete" => {
                let Some(name) = name else {
                    return Err(Failure::tool(
                        Code::BadArgument,
                        "cookies delete needs the cookie's name (and url or domain to pick one site's)",
                    ));
                };
                let backend = self.agent().await?.backend();
                let all = backend.cookies().await?;
                let gone: Vec<Cookie> = all
                    .into_iter()
                    .filter(|c| c.name == name)
                    .filter(|c| site.as_ref().is_none_or(|s| c.matches_host(&s.host)))
                    .map(|c| Cookie { expires: 1.0, ..c })
                    .collect();
                // A cookie set again with a date long past is removed.
                backend.set_cookies(&gone).await?;
                let left = backend.cookies().await?;
                let stuck = gone
                    .iter()
                    .filter(|g| {
                        left.iter().any(|c| c.name == g.name && c.domain == g.domain && c.path == g.path)
                    })
                    .count();
                if stuck > 0 {
                    return Err(Failure::tool(
                        Code::NotDeleted,
                        format!("{stuck} cookie(s) named {name:?} could not be removed"),
                    ));
                }
                Ok(Reply::message(
                    "cookies",
                    format!("deleted {} cookie{} named {:?}", gone.len(), plural(gone.len()), clip(&name)),
                ))
            }
            _ => {
                let backend = self.agent().await?.backend();
                let n = backend.cookies().await?.len();
                backend.clear_cookies().await?;
                Ok(Reply::message(
                    "cookies",
                    format!("cleared {n} cookie{} of {}", plural(n), self.cookie_scope()),
                ))
            }
        }
    }

    /// Whose cookies these are: the session's own, or those of a browser others use too (a
    /// persistent profile's, or the default context of a browser this server connected to).
    fn cookie_scope(&self) -> &'static str {
        let shared =
            self.agent.as_ref().is_some_and(|a| a.backend_ref().isolation() == axsnap_cdp::Isolation::Shared);
        let others =
            self.options.browser.user_data_dir.is_some() || self.options.browser.cdp_endpoint.is_some();
        if shared && others {
            "the browser's default context (its other tabs and clients share them)"
        } else {
            "this session"
        }
    }

    /// The site a cookie call names: `url`, or `domain` (and `path`), checked against the
    /// server's URL policy.
    fn site(
        &self,
        url: Option<&str>,
        domain: Option<&str>,
        path: Option<&str>,
    ) -> Result<Option<Site>, Failure> {
        let refuse = |e: crate::url_policy::UrlRefused| Failure::tool(Code::UrlRefused, format!("{e}"));
        if let Some(u) = url {
            self.options.urls.check(u).map_err(refuse)?;
            let parsed = url::Url::parse(u.trim())
                .map_err(|_| Failure::tool(Code::BadArgument, format!("url {:?} is not a URL", clip(u))))?;
            let host = parsed.host_str().unwrap_or_default().to_string();
            let path = path.map(str::to_string).unwrap_or_else(|| "/".into());
            return Ok(Some(Site { host, path, secure: parsed.scheme() == "https" }));
        }
        let Some(d) = domain.map(str::trim).filter(|d| !d.is_empty()) else { return Ok(None) };
        let bare = d.trim_start_matches('.');
        let check = |scheme: &str| self.options.urls.check(&format!("{scheme}://{bare}/"));
        if let (Err(e), Err(_)) = (check("http"), check("https")) {
            return Err(refuse(e));
        }
        Ok(Some(Site { host: d.to_string(), path: path.unwrap_or("/").to_string(), secure: false }))
    }
}

/// Where a cookie goes.
struct Site {
    host: String,
    path: String,
    secure: bool,
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `sid for 127.0.0.1/ (session, httpOnly; value 24 chars)`: everything but the value.
fn cookie_line(c: &Cookie) -> String {
    let mut flags =
        vec![if c.expires > 0.0 { format!("expires {}", c.expires.round()) } else { "session".into() }];
    if c.http_only {
        flags.push("httpOnly".into());
    }
    if c.secure {
        flags.push("secure".into());
    }
    format!(
        "{} for {}{} ({}; value {} chars)",
        clip(&c.name),
        c.domain,
        c.path,
        flags.join(", "),
        c.value.chars().count()
    )
}

fn cookie_json(c: &Cookie) -> Value {
    json!({
        "name": c.name, "domain": c.domain, "path": c.path,
        "expires": (c.expires > 0.0).then_some(c.expires), "http_only": c.http_only, "secure": c.secure,
        "same_site": c.same_site, "value_chars": c.value.chars().count(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookie_lines_never_show_values() {
        let c = Cookie {
            name: "sid".into(),
            value: "s3cr3t-value".into(),
            domain: "127.0.0.1".into(),
            path: "/".into(),
            expires: -1.0,
            http_only: true,
            secure: false,
            same_site: "Lax".into(),
        };
        let line = cookie_line(&c);
        assert_eq!(line, "sid for 127.0.0.1/ (session, httpOnly; value 12 chars)");
        assert!(!cookie_json(&c).to_string().contains("s3cr3t"));
    }
}
