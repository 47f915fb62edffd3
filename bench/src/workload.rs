//! Workloads as data: what an agent does on an app, step by step, and how the bench checks on
//! the app itself that it was done. One JSON file per workload in `bench/workloads/`; more can
//! be added without code.
//!
//! ```json
//! {
//!   "name": "python-docs-next",
//!   "about": "Python's docs (Debian python3-doc): a page, then \"next\" three times",
//!   "app": {"static": "/usr/share/doc/python3-doc/html"},
//!   "start": "/library/constants.html",
//!   "steps": [
//!     {"click": {"role": "link", "name": "next"}},
//!     {"type": {"role": "textbox", "name": "Quick search", "text": "len", "submit": true}},
//!     "back",
//!     {"wait": {"ms": 2000}}
//!   ],
//!   "check": {"url_ends_with": "/search.html?q=len"}
//! }
//! ```
//!
//! A step names its target by role and name as the agent would read them; each arm resolves
//! that against what it has shown, with its own refs (`view`). A target no answer of the arm
//! showed is that arm's failure.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::BenchError;

/// One workload.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    /// Short name, used in reports and on the command line.
    pub name: String,
    /// What it does, in a line.
    #[serde(default)]
    pub about: String,
    /// The app it runs on.
    pub app: App,
    /// The path (on the app's origin) the agent opens first.
    pub start: String,
    /// The agent's steps after opening `start`.
    pub steps: Vec<Step>,
    /// What must hold at the end.
    pub check: Check,
}

/// Where the app comes from.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum App {
    /// A folder served as static files on 127.0.0.1 (`rust-docs`: the toolchain's docs).
    Static(String),
    /// Jupyter Notebook 7 (PyPI `notebook`), started by the bench in a fresh folder.
    Jupyter,
    /// Datasette (PyPI `datasette`) over a SQLite file the bench makes from this SQL script
    /// (relative to `bench/apps`).
    Datasette(String),
    /// A Gradio app (PyPI `gradio`): this Python file (relative to `bench/apps`), run in a
    /// fresh folder where it records what it did.
    Gradio(String),
    /// A desktop app, started in a private desktop session (`scripts/desktop-session`);
    /// `start` is unused.
    Desktop(DesktopSpec),
    /// A code editor's page of `bench/realapps` (`monaco.html`, `codemirror.html`), served with
    /// the editors npm installed (`tests/mcp/node/node_modules`) by
    /// `bench/realapps/editors_server.py`, which writes what the page's Save posts to
    /// `saved.txt` in the run's folder.
    Editors(String),
    /// The Django project in this folder of `bench/apps` (`django`), started fresh per run:
    /// migrated into a new SQLite file (`db.sqlite3` in the run's folder), its `benchseed`
    /// command run (the superuser and the starting rows), then `runserver`.
    Django(String),
    /// phpMyAdmin (Debian's `phpmyadmin`) over a MariaDB server of the run's own, started
    /// fresh per run with this folder of `bench/apps` (`phpmyadmin`): its `seed.sql` loaded as
    /// the server's root user (the database and the user phpMyAdmin logs in as), its
    /// `router.php` in front of PHP's built-in server.
    Phpmyadmin(String),
}

/// A desktop app: its program (`"gtk4-widget-factory"`), or a command line and the name the
/// app goes by on the accessibility bus (`{"command": ["soffice", "--writer"], "app": "soffice"}`),
/// with, for a browser shown as a desktop app, a site of the bench's to serve: `{url}` in the
/// command is then the workload's start page on it, `{scratch}` the run's own folder.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum DesktopSpec {
    /// A program that names itself after its file.
    Program(String),
    /// A command line and the app's name on the bus.
    Command {
        /// The program and its arguments.
        command: Vec<String>,
        /// The app's name on the accessibility bus.
        app: String,
        /// A folder under `bench/apps` served on 127.0.0.1 for the app to show (with the
        /// bench's state probe, so a `storage` check reads what the page stored).
        #[serde(default)]
        site: Option<String>,
    },
}

impl DesktopSpec {
    /// The app's name on the accessibility bus.
    pub fn app(&self) -> &str {
        match self {
            DesktopSpec::Program(p) => p,
            DesktopSpec::Command { app, .. } => app,
        }
    }

    /// The command line that starts it, `{url}` and `{scratch}` replaced.
    pub fn command(&self, url: &str, scratch: &str) -> Vec<String> {
        match self {
            DesktopSpec::Program(p) => vec![p.clone()],
            DesktopSpec::Command { command, .. } => {
                command.iter().map(|a| a.replace("{url}", url).replace("{scratch}", scratch)).collect()
            }
        }
    }

    /// The site it shows, if it is a browser on one of the bench's sites.
    pub fn site(&self) -> Option<&str> {
        match self {
            DesktopSpec::Command { site, .. } => site.as_deref(),
            DesktopSpec::Program(_) => None,
        }
    }
}

impl App {
    /// The desktop app, for a desktop workload.
    pub fn desktop(&self) -> Option<&DesktopSpec> {
        match self {
            App::Desktop(spec) => Some(spec),
            _ => None,
        }
    }
}

/// An element as the agent names it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// Role as the snapshots say it (`link`, `button`, `menuitem`, `textbox`).
    pub role: String,
    /// Accessible name, exactly (empty for a nameless element); ending in `…`, the start of
    /// the name (a search result whose name runs on into its summary).
    pub name: String,
    /// Text the arm showed beside it (on its line or just after): for a nameless element, the
    /// checkbox of the todo "Walk the dog".
    #[serde(default)]
    pub near: Option<String>,
    /// A text of the table row it is in: the `Edit` link of the row whose cells say
    /// `Lantern` (it is ten lines before that cell, too far to be beside it).
    #[serde(default)]
    pub row: Option<String>,
    /// What the agent acts on instead when the arm did not show this one: the same thing as
    /// another arm shows it (Monaco's editor is a textbox with a ref in one arm's view, only
    /// its lines' text in another's).
    #[serde(default)]
    pub or: Option<Box<Target>>,
}

/// One step.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    /// Click the element.
    Click(Target),
    /// Type into the element, optionally pressing Enter after.
    Type {
        /// Role, as in [`Target`].
        role: String,
        /// Name, as in [`Target`].
        name: String,
        /// Near, as in [`Target`].
        #[serde(default)]
        near: Option<String>,
        /// The text.
        text: String,
        /// Press Enter after.
        #[serde(default)]
        submit: bool,
        /// Replace the field's text rather than add to it.
        #[serde(default)]
        replace: bool,
        /// Or, as in [`Target`].
        #[serde(default)]
        or: Option<Box<Target>>,
        /// Type key by key where the caret is (after keys moved it), as into a code editor,
        /// rather than set the field's text (Playwright's `slowly`).
        #[serde(default)]
        at_caret: bool,
    },
    /// Press keys on the focused element, one after another (`["Control+g"]`,
    /// `["1", "2", "0", "Enter"]`).
    Press {
        /// The keys, in Playwright's names (`End`, `Control+End`, `a`).
        keys: Vec<String>,
    },
    /// Read a text: the arm must have shown it (it looks again, as for a target, until it
    /// has); runs of white space count as one space.
    Read {
        /// The text.
        text: String,
    },
    /// Pick an option of a list box (`<select>`) by its label.
    Select {
        /// Role, as in [`Target`].
        role: String,
        /// Name, as in [`Target`].
        name: String,
        /// Near, as in [`Target`].
        #[serde(default)]
        near: Option<String>,
        /// The option's label.
        option: String,
    },
    /// Go back in the tab's history.
    Back,
    /// Wait, then look again (an app that works in the background: a kernel starting).
    Wait {
        /// Milliseconds.
        ms: u64,
    },
}

/// What must hold at the end, read from the app (its URL, its files).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// The page's URL at the end ends with this.
    #[serde(default)]
    pub url_ends_with: Option<String>,
    /// A file the app wrote, relative to its folder.
    #[serde(default)]
    pub file_exists: Option<String>,
    /// Files the app wrote and a text each holds (a saved notebook and its cell's output):
    /// one, or a list.
    #[serde(default, deserialize_with = "one_or_more")]
    pub file_contains: Vec<FileContains>,
    /// What a browser app stored in its `localStorage` (the site is served with the bench's
    /// state probe when a workload checks this).
    #[serde(default)]
    pub storage: Option<StorageCheck>,
    /// What a desktop app's window shows at the end, each a run of lines read from its
    /// accessibility tree by the bench itself (`axsnap desktop snapshot`), refs left out and
    /// each line trimmed: e.g. `tab "Tab" [selected]\nlabel "page 2"`.
    #[serde(default)]
    pub desktop_shows: Vec<String>,
    /// Queries of the app's database (the Django app's SQLite file, phpMyAdmin's MariaDB
    /// server) and the value each must give: one, or a list.
    #[serde(default, deserialize_with = "one_or_more")]
    pub sql: Vec<SqlCheck>,
}

/// A query of the app's database and what it must give: the first column of its first row as
/// text (`""` for no row; NULL is `"None"` in SQLite's, `"NULL"` in MariaDB's).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SqlCheck {
    /// The query (one `SELECT`).
    pub query: String,
    /// The value.
    pub equals: String,
}

/// One item or a list of them.
fn one_or_more<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either<T> {
        One(T),
        More(Vec<T>),
    }
    Ok(match Either::deserialize(d)? {
        Either::One(t) => vec![t],
        Either::More(v) => v,
    })
}

/// A file and a text it must hold.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileContains {
    /// The file, relative to the app's folder.
    pub file: String,
    /// The text.
    pub text: String,
}

/// A stored value the app must hold at the end: the JSON under `key`, at `pointer`, matches
/// `matches` (an object's named fields, an array's items one for one, scalars equal).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StorageCheck {
    /// The `localStorage` key (TodoMVC's `todos-vanillajs`).
    pub key: String,
    /// A JSON pointer into the stored value (`/todos`); empty for all of it.
    #[serde(default)]
    pub pointer: String,
    /// What must be there.
    pub matches: serde_json::Value,
}

impl Workload {
    /// Reads one workload file.
    pub fn load(path: &Path) -> Result<Workload, BenchError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| BenchError::Workload(format!("cannot read {}: {e}", path.display())))?;
        serde_json::from_str(&text).map_err(|e| BenchError::Workload(format!("{}: {e}", path.display())))
    }

    /// The workloads in `dir` (`*.json`), by name.
    pub fn all_in(dir: &Path) -> Result<Vec<Workload>, BenchError> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| BenchError::Workload(format!("cannot list {}: {e}", dir.display())))?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        paths.sort();
        paths.iter().map(|p| Workload::load(p)).collect()
    }
}

impl Step {
    /// The element the step acts on, if any.
    pub fn target(&self) -> Option<Target> {
        match self {
            Step::Click(t) => Some(t.clone()),
            Step::Type { role, name, near, or, .. } => Some(Target {
                role: role.clone(),
                name: name.clone(),
                near: near.clone(),
                row: None,
                or: or.clone(),
            }),
            Step::Select { role, name, near, .. } => Some(Target {
                role: role.clone(),
                name: name.clone(),
                near: near.clone(),
                row: None,
                or: None,
            }),
            Step::Back | Step::Wait { .. } | Step::Press { .. } | Step::Read { .. } => None,
        }
    }

    /// A short label for reports: `click link "next"`.
    pub fn label(&self) -> String {
        match self {
            Step::Click(t) => match (&t.near, &t.row) {
                (_, Some(r)) => format!("click {} {:?} in the row of {r:?}", t.role, t.name),
                (Some(n), None) => format!("click {} {:?} by {n:?}", t.role, t.name),
                (None, None) => format!("click {} {:?}", t.role, t.name),
            },
            Step::Type { role, name, text, .. } => format!("type {text:?} into {role} {name:?}"),
            Step::Select { role, name, option, .. } => format!("select {option:?} in {role} {name:?}"),
            Step::Press { keys } => format!("press {}", keys.join(" ")),
            Step::Read { text } => format!("read {text:?}"),
            Step::Back => "back".to_string(),
            Step::Wait { ms } => format!("wait {ms} ms"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_workloads_parse() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("workloads");
        let all = Workload::all_in(&dir).unwrap();
        assert!(all.len() >= 2, "{all:?}");
        for w in &all {
            assert!(!w.steps.is_empty(), "{}", w.name);
            assert!(
                w.check.url_ends_with.is_some()
                    || w.check.file_exists.is_some()
                    || !w.check.file_contains.is_empty()
                    || w.check.storage.is_some()
                    || !w.check.desktop_shows.is_empty()
                    || !w.check.sql.is_empty(),
                "{} checks nothing",
                w.name
            );
        }
    }

    #[test]
    fn keys_reads_typing_at_the_caret_and_queries_parse() {
        let w: Workload = serde_json::from_str(
            r#"{"name":"x","app":{"editors":"monaco.html"},"start":"/monaco.html","steps":[
                {"press":{"keys":["Control+g"]}},
                {"read":{"text":"def greet(name):"}},
                {"type":{"role":"textbox","name":"Editor content","text":"return name","at_caret":true,
                  "or":{"role":"generic","name":"def greet(name): # line 120"}}}],
              "check":{"sql":{"query":"SELECT 1","equals":"1"}}}"#,
        )
        .unwrap();
        assert!(matches!(&w.app, App::Editors(p) if p == "monaco.html"));
        assert_eq!(w.steps[0].label(), "press Control+g");
        assert!(w.steps[0].target().is_none() && w.steps[1].target().is_none());
        assert_eq!(w.steps[1].label(), "read \"def greet(name):\"");
        assert!(matches!(&w.steps[2], Step::Type { at_caret: true, replace: false, .. }));
        let or = w.steps[2].target().and_then(|t| t.or).unwrap();
        assert_eq!((or.role.as_str(), or.name.as_str()), ("generic", "def greet(name): # line 120"));
        assert_eq!(w.check.sql.len(), 1);
        assert_eq!(w.check.sql[0].equals, "1");
        let two = r#"{"name":"x","app":{"django":"django"},"start":"/","steps":[],
            "check":{"sql":[{"query":"a","equals":"1"},{"query":"b","equals":""}]}}"#;
        assert_eq!(serde_json::from_str::<Workload>(two).unwrap().check.sql.len(), 2);
        let bad = r#"{"name":"x","app":"jupyter","start":"/","steps":[],"check":{"sql":{"query":"a"}}}"#;
        assert!(serde_json::from_str::<Workload>(bad).is_err(), "a query with no value");
    }

    #[test]
    fn unknown_fields_are_refused() {
        let bad = r#"{"name":"x","app":"jupyter","start":"/","steps":[],"check":{},"stpes":[]}"#;
        assert!(serde_json::from_str::<Workload>(bad).is_err());
    }
}
