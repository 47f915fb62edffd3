//! A workload's check, read from the app itself at the end of a run: the page the site last
//! served, a file the app wrote, or the state a browser app stored (through the bench's
//! [`StateProbe`](crate::state_probe::StateProbe)). No arm's answers are trusted, so no arm
//! wins by failing quietly.

use serde_json::Value;

use crate::apps::RunningApp;
use crate::desktop_app::normalized;
use crate::workload::Check;

/// Whether `check` holds on `app`; the error says what the app showed instead. `axsnap`
/// reads a desktop app's window.
pub fn check(check: &Check, app: &RunningApp, axsnap: &std::path::Path) -> Result<(), String> {
    if let Some(end) = &check.url_ends_with {
        let last = app.last_page().unwrap_or_default();
        if !last.ends_with(end.as_str()) {
            return Err(format!("the last page the app served is {last:?}, not one ending in {end:?}"));
        }
    }
    if let Some(file) = &check.file_exists {
        let folder = app.folder().ok_or_else(|| "this app has no folder to check".to_string())?;
        if !folder.join(file).exists() {
            return Err(format!("the app did not write {file}"));
        }
    }
    for want in &check.file_contains {
        let folder = app.folder().ok_or_else(|| "this app has no folder to check".to_string())?;
        let text = std::fs::read_to_string(folder.join(&want.file))
            .map_err(|e| format!("the app did not write {}: {e}", want.file))?;
        if !text.contains(&want.text) {
            return Err(format!("{} does not hold {:?}", want.file, want.text));
        }
    }
    if let Some(want) = &check.storage {
        let state = app.state().ok_or_else(|| "the app reported no stored state".to_string())?;
        let raw = state
            .get(&want.key)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("the app stored nothing under {:?}", want.key))?;
        let stored: Value =
            serde_json::from_str(raw).map_err(|e| format!("the app's {:?} is not JSON: {e}", want.key))?;
        let at = stored
            .pointer(&want.pointer)
            .ok_or_else(|| format!("the app's {:?} has nothing at {:?}: {stored}", want.key, want.pointer))?;
        if !matches(&want.matches, at) {
            return Err(format!(
                "the app stored {at} at {:?}, which does not match {}",
                want.pointer, want.matches
            ));
        }
    }
    for want in &check.sql {
        let got = app.query(&want.query)?;
        if got != want.equals {
            return Err(format!(
                "the app's database gives {got:?} for {:?}, not {:?}",
                want.query, want.equals
            ));
        }
    }
    if !check.desktop_shows.is_empty() {
        let d = app.desktop().ok_or_else(|| "this app is not a desktop app".to_string())?;
        let shows = normalized(&d.window_text(axsnap)?);
        if let Some(want) = check.desktop_shows.iter().find(|w| !shows.contains(w.as_str())) {
            return Err(format!("{}'s window does not show {want:?}", d.program));
        }
    }
    Ok(())
}

/// Whether `actual` has what `expected` says: an object's named fields (others may be there
/// too, such as ids the app made up), an array's items one for one, a scalar equal.
pub fn matches(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            e.iter().all(|(k, v)| a.get(k).is_some_and(|x| matches(v, x)))
        }
        (Value::Array(e), Value::Array(a)) => {
            e.len() == a.len() && e.iter().zip(a).all(|(x, y)| matches(x, y))
        }
        (e, a) => e == a,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_may_be_extra_items_may_not() {
        let stored = json!([{"id": 1, "title": "milk", "completed": false}, {"id": 2, "title": "eggs", "completed": true}]);
        assert!(matches(&json!([{"title": "milk"}, {"title": "eggs", "completed": true}]), &stored));
        assert!(!matches(&json!([{"title": "milk"}]), &stored), "one item short");
        assert!(!matches(&json!([{"title": "milk"}, {"completed": false}]), &stored));
        assert!(!matches(&json!([{"title": "milk", "due": 1}, {}]), &stored), "a field it lacks");
        assert!(matches(&json!(3), &json!(3)) && !matches(&json!("3"), &json!(3)));
    }
}
