//! What an app's name stands for on a Linux desktop: its desktop entry (`org.gnome.Calculator`,
//! `libreoffice-calc`, or the entry's `Name`, "LibreOffice Calc"), a command on `PATH`
//! (`gtk3-widget-factory`), or a path. Launching and waiting for the window is
//! `axsnap-desktop`'s.

use std::path::{Path, PathBuf};

use axsnap_desktop::DesktopError;

/// The command line `app` names: a path, a desktop entry, or a command on `PATH`.
pub fn resolve(app: &str) -> Result<Vec<String>, DesktopError> {
    let app = app.trim();
    let missing = |reason: String| DesktopError::LaunchFailed { app: app.to_string(), reason };
    if app.is_empty() {
        return Err(missing("no app named".into()));
    }
    if app.contains('/') {
        let p = Path::new(app);
        return if p.is_file() {
            Ok(vec![app.to_string()])
        } else {
            Err(missing(format!("{app} is not a file")))
        };
    }
    if let Some(exec) = desktop_entry(app) {
        return Ok(exec);
    }
    if let Some(p) = on_path(app) {
        return Ok(vec![p.display().to_string()]);
    }
    Err(missing(
        "no desktop entry (in the XDG data dirs' applications folders) and no command on PATH has that name; \
         name a desktop entry (libreoffice-calc), its Name (LibreOffice Calc), or a command"
            .into(),
    ))
}

/// The folders desktop entries live in, by the XDG base directory rules.
fn entry_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    match std::env::var_os("XDG_DATA_HOME") {
        Some(d) if !d.is_empty() => dirs.push(PathBuf::from(d)),
        _ => {
            if let Some(home) = std::env::var_os("HOME") {
                dirs.push(PathBuf::from(home).join(".local/share"));
            }
        }
    }
    let data = std::env::var("XDG_DATA_DIRS").ok().filter(|d| !d.is_empty());
    let data = data.unwrap_or_else(|| "/usr/local/share:/usr/share".into());
    dirs.extend(data.split(':').filter(|d| !d.is_empty()).map(PathBuf::from));
    dirs.into_iter().map(|d| d.join("applications")).collect()
}

/// The `Exec` line of the desktop entry `app` names (its file id, or its `Name`), split.
fn desktop_entry(app: &str) -> Option<Vec<String>> {
    let id = app.strip_suffix(".desktop").unwrap_or(app);
    let dirs = entry_dirs();
    for d in &dirs {
        if let Ok(text) = std::fs::read_to_string(d.join(format!("{id}.desktop"))) {
            if let Some(exec) = parse_entry(&text).map(|(_, exec)| exec) {
                return Some(exec);
            }
        }
    }
    // By the name people see, in any case.
    for d in &dirs {
        let Ok(entries) = std::fs::read_dir(d) else { continue };
        for e in entries.flatten() {
            let Ok(text) = std::fs::read_to_string(e.path()) else { continue };
            if let Some((name, exec)) = parse_entry(&text) {
                if name.eq_ignore_ascii_case(app) {
                    return Some(exec);
                }
            }
        }
    }
    None
}

/// A desktop entry's `Name` and its `Exec` split into words, field codes left out.
fn parse_entry(text: &str) -> Option<(String, Vec<String>)> {
    let mut in_entry = false;
    let (mut name, mut exec) = (None, None);
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_entry = line == "[Desktop Entry]";
            continue;
        }
        if !in_entry {
            continue;
        }
        if let Some(v) = line.strip_prefix("Name=") {
            name.get_or_insert_with(|| v.trim().to_string());
        } else if let Some(v) = line.strip_prefix("Exec=") {
            exec.get_or_insert_with(|| split_exec(v));
        }
    }
    let exec = exec.filter(|e: &Vec<String>| !e.is_empty())?;
    Some((name.unwrap_or_default(), exec))
}

/// An `Exec` value's words: double quotes group, `\` escapes within them, field codes (`%f`,
/// `%U`, ...) go, and `%%` is a `%`.
fn split_exec(v: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut any) = (false, false);
    let mut chars = v.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            '\\' if quoted => {
                if let Some(n) = chars.next() {
                    word.push(n);
                }
            }
            c if c.is_whitespace() && !quoted => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            // A field code (`%f`, `%U`) stands for files or URLs the caller passes: none here.
            '%' => {
                if chars.next() == Some('%') {
                    word.push('%');
                }
            }
            c => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    words.retain(|w| !w.is_empty());
    words
}

/// `name` found on `PATH`, if it is an executable file there.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        }
        #[cfg(not(unix))]
        {
            p.is_file()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_lines_split_as_the_spec_says() {
        assert_eq!(split_exec("libreoffice --calc %U"), ["libreoffice", "--calc"]);
        assert_eq!(split_exec("\"/opt/My App/run\" --flag=\"a b\" %f"), ["/opt/My App/run", "--flag=a b"]);
        assert_eq!(split_exec("echo 100%% done"), ["echo", "100%", "done"]);
        assert_eq!(split_exec("  "), Vec::<String>::new());
    }

    #[test]
    fn an_entry_gives_its_name_and_command() {
        let text = "# c\n[Desktop Entry]\nName=LibreOffice Calc\nName[fr]=Calc\nExec=libreoffice --calc %U\n\
                    [Desktop Action New]\nExec=libreoffice --calc private:factory/scalc\n";
        let (name, exec) = parse_entry(text).expect("an entry");
        assert_eq!(name, "LibreOffice Calc");
        assert_eq!(exec, ["libreoffice", "--calc"]);
        assert!(parse_entry("[Desktop Entry]\nName=Nothing\n").is_none());
    }

    #[test]
    fn names_resolve_to_commands_or_say_what_to_name() {
        assert!(resolve("sh").expect("sh is on PATH")[0].ends_with("/sh"));
        assert_eq!(resolve("/bin/sh").unwrap(), ["/bin/sh"]);
        for bad in ["", "no-such-app-anywhere-here", "/no/such/file"] {
            let e = resolve(bad).expect_err(bad);
            assert!(matches!(e, DesktopError::LaunchFailed { .. }), "{e}");
        }
        let e = resolve("no-such-app-anywhere-here").unwrap_err().to_string();
        assert!(e.contains("desktop entry") && e.contains("PATH"), "{e}");
    }
}
