//! Finding an app by the name a user gives it, and one of its windows by title.

use crate::error::DesktopError;
use crate::platform::{AppInfo, WindowInfo};

/// Finds the app named `name` (exactly, else case-insensitively, else the one name that holds
/// it).
pub fn find_app<'a, W>(apps: &'a [AppInfo<W>], name: &str) -> Result<&'a AppInfo<W>, DesktopError> {
    let lower = name.to_lowercase();
    let exact = apps.iter().find(|a| a.name == name);
    let folded = || apps.iter().find(|a| a.name.to_lowercase() == lower);
    let holding = || one(apps.iter().filter(|a| a.name.to_lowercase().contains(&lower)));
    exact.or_else(folded).or_else(holding).ok_or_else(|| DesktopError::NoSuchApp {
        name: name.to_string(),
        known: names(apps.iter().map(|a| a.name.as_str())),
    })
}

/// Finds a window of `app`: the one titled `title` (exactly, else the one title that holds
/// it), or without a title the active window, else the first one showing, else the first.
pub fn find_window<'a, W>(
    app: &'a AppInfo<W>,
    title: Option<&str>,
) -> Result<&'a WindowInfo<W>, DesktopError> {
    if !app.answering {
        return Err(DesktopError::NotAnswering(app.name.clone()));
    }
    let found = match title {
        Some(t) => app.windows.iter().find(|w| w.title == t).or_else(|| {
            let lower = t.to_lowercase();
            one(app.windows.iter().filter(|w| w.title.to_lowercase().contains(&lower)))
        }),
        None => app
            .windows
            .iter()
            .find(|w| w.active)
            .or_else(|| app.windows.iter().find(|w| w.showing))
            .or(app.windows.first()),
    };
    found.ok_or_else(|| DesktopError::NoSuchWindow {
        app: app.name.clone(),
        wanted: title.map(|t| format!("{t:?} ")).unwrap_or_default(),
        known: names(app.windows.iter().map(|w| w.title.as_str())),
    })
}

/// The only item of `it`, if it has exactly one.
fn one<T>(mut it: impl Iterator<Item = T>) -> Option<T> {
    match (it.next(), it.next()) {
        (Some(x), None) => Some(x),
        _ => None,
    }
}

fn names<'a>(it: impl Iterator<Item = &'a str>) -> String {
    let all: Vec<String> = it.map(|n| format!("{n:?}")).collect();
    if all.is_empty() {
        "none".into()
    } else {
        all.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(name: &str, titles: &[(&str, bool)]) -> AppInfo<u32> {
        AppInfo {
            name: name.into(),
            key: name.into(),
            answering: true,
            windows: titles
                .iter()
                .enumerate()
                .map(|(i, (t, active))| WindowInfo {
                    title: t.to_string(),
                    role: "frame".into(),
                    active: *active,
                    showing: true,
                    handle: i as u32,
                })
                .collect(),
        }
    }

    #[test]
    fn apps_and_windows_are_found_by_the_names_people_use() {
        let apps = [
            app("gnome-calculator", &[("Calculator", false)]),
            app("soffice", &[("a.ods", false), ("b.ods", true)]),
        ];
        assert_eq!(find_app(&apps, "GNOME-Calculator").unwrap().name, "gnome-calculator");
        assert_eq!(find_app(&apps, "calc").unwrap().name, "gnome-calculator");
        let e = find_app(&apps, "gedit").unwrap_err().to_string();
        assert!(e.contains("\"gnome-calculator\", \"soffice\""), "{e}");
        // No title: the active window; a title: exact, else the one that holds it.
        assert_eq!(find_window(&apps[1], None).unwrap().handle, 1);
        assert_eq!(find_window(&apps[1], Some("a.ods")).unwrap().handle, 0);
        assert_eq!(find_window(&apps[1], Some("B.")).unwrap().handle, 1);
        // Two titles hold it: neither is guessed.
        let e = find_window(&apps[1], Some(".ods")).unwrap_err().to_string();
        assert!(e.contains("no window \".ods\""), "{e}");
        let mut hung = app("gedit", &[]);
        hung.answering = false;
        assert!(matches!(find_window(&hung, None), Err(DesktopError::NotAnswering(_))));
    }
}
