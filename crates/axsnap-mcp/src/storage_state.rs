//! Storage state files (`--storage-state`, `storage load`): read, checked, and cut to what the
//! server's URL policy lets sessions reach.

use axsnap_cdp::storage::StorageState;

use crate::url_policy::UrlPolicy;

/// Most cookies and origins a state file may hold.
const MAX_ENTRIES: usize = 10_000;

/// A storage state from a file's bytes (Playwright's `storageState` JSON: `cookies` and
/// `origins`), or what is wrong with it.
pub fn parse(bytes: &[u8]) -> Result<StorageState, String> {
    // Where it is wrong, never what it holds: the file may be anyone's JSON, secrets and all.
    let not = |e: serde_json::Error| {
        let at =
            if e.line() > 0 { format!(" (line {}, column {})", e.line(), e.column()) } else { String::new() };
        format!("not a storage state (a JSON object with cookies and origins): {:?} error{at}", e.classify())
    };
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(not)?;
    if !value.is_object() {
        return Err(
            "not a storage state (a JSON object with cookies and origins): the file holds no object".into()
        );
    }
    let state: StorageState = serde_json::from_value(value).map_err(not)?;
    if state.cookies.len() + state.origins.len() > MAX_ENTRIES {
        return Err(format!("more than {MAX_ENTRIES} cookies and origins"));
    }
    Ok(state)
}

/// The part of `state` whose sites `urls` allows (a cookie's domain over http or https, an
/// origin as it is), and the domains and origins left out.
pub fn allowed(state: &StorageState, urls: &UrlPolicy) -> (StorageState, Vec<String>) {
    let mut skipped = Vec::new();
    let site_ok =
        |host: &str| ["http", "https"].iter().any(|s| urls.check(&format!("{s}://{host}/")).is_ok());
    let cookies = state
        .cookies
        .iter()
        .filter(|c| {
            let ok = site_ok(c.domain.trim_start_matches('.'));
            if !ok && !skipped.contains(&c.domain) {
                skipped.push(c.domain.clone());
            }
            ok
        })
        .cloned()
        .collect();
    let origins = state
        .origins
        .iter()
        .filter(|o| {
            let ok = urls.check(&format!("{}/", o.origin.trim_end_matches('/'))).is_ok();
            if !ok {
                skipped.push(o.origin.clone());
            }
            ok
        })
        .cloned()
        .collect();
    (StorageState { cookies, origins }, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_checked_and_cut_to_the_policy() {
        for bad in [&b"[1, 2]"[..], b"[]", b"{\"cookies\": 5}", b"not json", b"{\"cookies\": \"s3cr3t\"}"] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains("not a storage state") && !e.contains("s3cr3t"), "{bad:?}: {e}");
        }
        let state = parse(
            br#"{"cookies": [{"name": "a", "value": "1", "domain": "127.0.0.1"},
                             {"name": "b", "value": "2", "domain": ".example.com"}],
                 "origins": [{"origin": "http://127.0.0.1:8000", "localStorage": []}]}"#,
        )
        .unwrap();
        let (kept, skipped) = allowed(&state, &UrlPolicy::default());
        assert_eq!((kept.cookies.len(), kept.origins.len()), (2, 1));
        assert!(skipped.is_empty());
        let blocked = UrlPolicy { blocked_origins: vec!["127.0.0.1".into()], ..UrlPolicy::default() };
        let (kept, skipped) = allowed(&state, &blocked);
        assert_eq!((kept.cookies.len(), kept.origins.len()), (1, 0));
        assert_eq!(skipped, ["127.0.0.1", "http://127.0.0.1:8000"]);
    }
}
