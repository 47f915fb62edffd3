//! The apps workloads run on, started for one run and stopped after it: a static site (Sphinx
//! or rustdoc output, TodoMVC) from the bench's file server on 127.0.0.1, Jupyter Notebook 7 in
//! a fresh folder, or a desktop app in a private desktop session; Datasette, Gradio, the code
//! editors' pages, Django's admin and phpMyAdmin (with a MariaDB server of its own,
//! [`phpmyadmin`]), each on a free port of 127.0.0.1.

pub mod phpmyadmin;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::arms::Tools;
use crate::desktop_app::DesktopApp;
use crate::error::BenchError;
use crate::serve::StaticServer;
use crate::state_probe::StateProbe;
use crate::workload::App;

pub use phpmyadmin::{PhpMyAdmin, PHPMYADMIN_ENV};

/// Where the Jupyter server comes from (a venv the setup made).
pub const JUPYTER_ENV: &str = "AXSNAP_BENCH_JUPYTER";

/// An app, running.
pub enum RunningApp {
    /// Static files.
    Static(StaticServer),
    /// Jupyter Notebook.
    Jupyter(Jupyter),
    /// A desktop app in its own session.
    Desktop(DesktopApp),
    /// Datasette.
    Datasette(Datasette),
    /// A Gradio app.
    Gradio(Gradio),
    /// A code editor's page.
    Editors(Editors),
    /// The Django admin.
    Django(Django),
    /// phpMyAdmin over its MariaDB server.
    PhpMyAdmin(PhpMyAdmin),
}

impl RunningApp {
    /// Starts `app`; `scratch` is a fresh folder the app may write in. With `probe`, a static
    /// site's pages report the app's stored state (for a check that reads it).
    /// `tools` name the bench's npm packages (`npm:` sites) and the `axsnap` that reads a
    /// desktop app's window (to know it is up).
    pub fn start(
        app: &App,
        start: &str,
        scratch: &Path,
        probe: bool,
        tools: &Tools,
    ) -> Result<RunningApp, BenchError> {
        match app {
            App::Desktop(spec) => {
                Ok(RunningApp::Desktop(DesktopApp::start(spec, &tools.axsnap, scratch, start)?))
            }
            App::Static(root) => {
                let root = site_root(root, &tools.node_modules)?;
                if !root.is_dir() {
                    return Err(BenchError::Workload(format!(
                        "the site {} is not there (scripts/bench installs what the workloads need)",
                        root.display()
                    )));
                }
                let probe = probe.then(StateProbe::default);
                Ok(RunningApp::Static(StaticServer::start_with(root, probe)?))
            }
            App::Jupyter => Ok(RunningApp::Jupyter(Jupyter::start(scratch)?)),
            App::Datasette(sql) => Ok(RunningApp::Datasette(Datasette::start(sql, scratch)?)),
            App::Gradio(script) => Ok(RunningApp::Gradio(Gradio::start(script, scratch)?)),
            App::Editors(page) => Ok(RunningApp::Editors(Editors::start(page, scratch)?)),
            App::Django(project) => Ok(RunningApp::Django(Django::start(project, scratch)?)),
            App::Phpmyadmin(folder) => Ok(RunningApp::PhpMyAdmin(PhpMyAdmin::start(folder, scratch)?)),
        }
    }

    /// The URL of `path` on the app.
    pub fn url(&self, path: &str) -> String {
        match self {
            RunningApp::Static(s) => s.url(path),
            RunningApp::Jupyter(j) => j.server.url(path),
            RunningApp::Desktop(d) => d.program.clone(),
            RunningApp::Datasette(d) => d.server.url(path),
            RunningApp::Gradio(g) => g.server.url(path),
            RunningApp::Editors(e) => e.server.url(path),
            RunningApp::Django(d) => d.server.url(path),
            RunningApp::PhpMyAdmin(p) => p.server.url(path),
        }
    }

    /// The last HTML page the app served (static sites), as requested.
    pub fn last_page(&self) -> Option<String> {
        match self {
            RunningApp::Static(s) => s.pages_served().pop(),
            RunningApp::Datasette(d) => d.last_page(),
            RunningApp::Jupyter(_)
            | RunningApp::Desktop(_)
            | RunningApp::Gradio(_)
            | RunningApp::Editors(_)
            | RunningApp::Django(_)
            | RunningApp::PhpMyAdmin(_) => None,
        }
    }

    /// The state the app's pages last reported (a static site served with the probe, or the
    /// site a browser app shows).
    pub fn state(&self) -> Option<serde_json::Value> {
        match self {
            RunningApp::Static(s) => s.app_state(),
            RunningApp::Desktop(d) => d.app_state(),
            RunningApp::Jupyter(_)
            | RunningApp::Datasette(_)
            | RunningApp::Gradio(_)
            | RunningApp::Editors(_)
            | RunningApp::Django(_)
            | RunningApp::PhpMyAdmin(_) => None,
        }
    }

    /// The desktop app, for a desktop workload.
    pub fn desktop(&self) -> Option<&DesktopApp> {
        match self {
            RunningApp::Desktop(d) => Some(d),
            _ => None,
        }
    }

    /// The folder the app writes in (Jupyter's root, the Gradio app's working folder).
    pub fn folder(&self) -> Option<&Path> {
        match self {
            RunningApp::Static(_) | RunningApp::Desktop(_) | RunningApp::Datasette(_) => None,
            RunningApp::Jupyter(j) => Some(&j.root),
            RunningApp::Gradio(g) => Some(&g.root),
            RunningApp::Editors(e) => Some(&e.root),
            RunningApp::Django(d) => Some(&d.root),
            RunningApp::PhpMyAdmin(p) => Some(&p.root),
        }
    }

    /// What `query` gives on the app's database (the Django app's SQLite file, phpMyAdmin's
    /// MariaDB server): the first column of its first row as text, `""` for no row; the error
    /// says why there is none.
    pub fn query(&self, query: &str) -> Result<String, String> {
        match self {
            RunningApp::Django(d) => d.query(query),
            RunningApp::PhpMyAdmin(p) => p.query(query),
            _ => Err("this app has no database to query".to_string()),
        }
    }
}

/// The folder a static app names: `rust-docs` (the toolchain's docs), `npm:PATH` (inside the
/// bench's npm packages, `node_modules`), or a path.
fn site_root(name: &str, node_modules: &Path) -> Result<PathBuf, BenchError> {
    if name == "rust-docs" {
        return crate::docs::rust_docs();
    }
    Ok(match name.strip_prefix("npm:") {
        Some(path) => node_modules.join(path),
        None => PathBuf::from(name),
    })
}

/// An app's server process on 127.0.0.1, stopped when dropped.
struct Served {
    child: Child,
    port: u16,
}

impl Served {
    /// Starts `cmd` (`what` in messages), both its output streams to `log`, and waits up to
    /// `within` for `GET ready` to answer 200; a server that does not is stopped.
    fn start(
        what: &str,
        mut cmd: Command,
        port: u16,
        log: &Path,
        ready: &str,
        within: Duration,
    ) -> Result<Served, BenchError> {
        let out = std::fs::File::create(log).map_err(BenchError::Serve)?;
        let err = out.try_clone().map_err(BenchError::Serve)?;
        let child = cmd
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| BenchError::Workload(format!("cannot start {what}: {e}")))?;
        let served = Served { child, port };
        wait_http(port, ready, what, within)?;
        Ok(served)
    }

    /// The URL of `path` on it.
    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}/{}", self.port, path.trim_start_matches('/'))
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port on 127.0.0.1 that nothing listens on now.
fn free_port() -> Result<u16, BenchError> {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).map_err(BenchError::Serve)
}

/// A Jupyter Notebook server with no token, serving a folder of its own.
pub struct Jupyter {
    server: Served,
    root: PathBuf,
}

impl Jupyter {
    fn start(scratch: &Path) -> Result<Jupyter, BenchError> {
        let exe = std::env::var_os(JUPYTER_ENV).map(PathBuf::from).unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-venv/bin/jupyter")
        });
        if !exe.is_file() {
            return Err(BenchError::Workload(format!(
                "no Jupyter at {} (scripts/bench installs PyPI `notebook` there; or set {JUPYTER_ENV})",
                exe.display()
            )));
        }
        let port = free_port()?;
        let root = scratch.join("jupyter");
        std::fs::create_dir_all(&root).map_err(BenchError::Serve)?;
        let mut cmd = Command::new(&exe);
        cmd.args(["notebook", "--no-browser", "--allow-root", "--ip=127.0.0.1"])
            .arg(format!("--port={port}"))
            .arg(format!("--ServerApp.root_dir={}", root.display()))
            .args([
                "--IdentityProvider.token=",
                "--ServerApp.password=",
                "--ServerApp.disable_check_xsrf=True",
            ]);
        // `/tree` answers once the server has imported all it needs.
        let log = scratch.join("jupyter.log");
        let server = Served::start("Jupyter", cmd, port, &log, "/tree", Duration::from_secs(60))?;
        Ok(Jupyter { server, root })
    }
}

/// A program of the bench's Python venv (where the setup put Jupyter and Datasette).
fn venv_program(name: &str) -> PathBuf {
    let jupyter = std::env::var_os(JUPYTER_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-venv/bin/jupyter"));
    jupyter.with_file_name(name)
}

/// Datasette serving a SQLite file made fresh from the workload's SQL script; its access log
/// (uvicorn's, on stdout) says which pages the browser loaded.
pub struct Datasette {
    server: Served,
    log: PathBuf,
}

impl Datasette {
    fn start(sql: &str, scratch: &Path) -> Result<Datasette, BenchError> {
        let exe = venv_program("datasette");
        if !exe.is_file() {
            return Err(BenchError::Workload(format!(
                "no Datasette at {} (scripts/bench installs PyPI `datasette` there)",
                exe.display()
            )));
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("apps").join(sql);
        let db = scratch.join("data.db");
        // The venv's Python has sqlite3: the database is made the way Datasette reads it.
        let made = Command::new(exe.with_file_name("python"))
            .args(["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[2]); c.executescript(open(sys.argv[1]).read()); c.commit()"])
            .arg(&script)
            .arg(&db)
            .status()
            .map_err(|e| BenchError::Workload(format!("cannot make {}: {e}", db.display())))?;
        if !made.success() {
            return Err(BenchError::Workload(format!("{} did not load into SQLite", script.display())));
        }
        let port = free_port()?;
        let mut cmd = Command::new(&exe);
        cmd.arg("serve").arg(&db).args(["-h", "127.0.0.1", "-p"]).arg(port.to_string());
        let log = scratch.join("datasette.log");
        let server = Served::start("Datasette", cmd, port, &log, "/", Duration::from_secs(60))?;
        Ok(Datasette { server, log })
    }

    /// The last page (not an asset, not JSON) its log says it served.
    fn last_page(&self) -> Option<String> {
        let text = std::fs::read_to_string(&self.log).ok()?;
        text.lines().rev().find_map(|l| {
            let path = l.split("\"GET ").nth(1)?.split(' ').next()?;
            let asset = path.starts_with("/-/") || path.starts_with("/favicon") || path.contains(".json");
            (!asset && l.contains(" 200")).then(|| path.to_string())
        })
    }
}

/// Where the Gradio app's Python comes from (a venv the setup made).
pub const GRADIO_ENV: &str = "AXSNAP_BENCH_GRADIO";

/// A Gradio app of the bench's (`bench/apps/gradio/app.py`) in a folder of its own, where it
/// appends each event it handled to `gradio-events.jsonl`; its analytics off, nothing but
/// 127.0.0.1.
pub struct Gradio {
    server: Served,
    root: PathBuf,
}

impl Gradio {
    fn start(script: &str, scratch: &Path) -> Result<Gradio, BenchError> {
        let python = std::env::var_os(GRADIO_ENV).map(PathBuf::from).unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-gradio-venv/bin/python")
        });
        if !python.is_file() {
            return Err(BenchError::Workload(format!(
                "no Gradio's Python at {} (scripts/bench installs PyPI `gradio` there; or set {GRADIO_ENV})",
                python.display()
            )));
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("apps").join(script);
        let port = free_port()?;
        let root = scratch.join("gradio");
        std::fs::create_dir_all(&root).map_err(BenchError::Serve)?;
        let mut cmd = Command::new(&python);
        cmd.arg(&script)
            .current_dir(&root)
            .env("GRADIO_SERVER_PORT", port.to_string())
            .env("GRADIO_SERVER_NAME", "127.0.0.1")
            .env("GRADIO_ANALYTICS_ENABLED", "False")
            .env("AXSNAP_BENCH_GRADIO_LOG", root.join("gradio-events.jsonl"));
        // It imports a great deal before it listens.
        let log = scratch.join("gradio.log");
        let server = Served::start("Gradio", cmd, port, &log, "/", Duration::from_secs(90))?;
        Ok(Gradio { server, root })
    }
}

/// A code editor's page of `bench/realapps` served, with the editors npm installed for the MCP
/// tests (`tests/mcp/node/node_modules`: `monaco-editor`, `codemirror`,
/// `@codemirror/lang-python`), by `bench/realapps/editors_server.py`, which writes what the
/// page's Save posts to `saved.txt` in a folder of the run's own.
pub struct Editors {
    server: Served,
    root: PathBuf,
}

impl Editors {
    fn start(page: &str, scratch: &Path) -> Result<Editors, BenchError> {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        if !here.join("realapps").join(page).is_file() {
            return Err(BenchError::Workload(format!("no page {page} in bench/realapps")));
        }
        let modules = here.join("../tests/mcp/node/node_modules");
        if !modules.join("monaco-editor/min/vs/loader.js").is_file() || !modules.join("codemirror").is_dir() {
            return Err(BenchError::Workload(format!(
                "no code editors in {} (scripts/bench installs them: npm ci in tests/mcp/node)",
                modules.display()
            )));
        }
        let root = scratch.join("editors");
        std::fs::create_dir_all(&root).map_err(BenchError::Serve)?;
        let port = free_port()?;
        let mut cmd = Command::new("python3");
        cmd.arg(here.join("realapps/editors_server.py"))
            .arg(port.to_string())
            .arg(root.join("saved.txt"))
            .arg(&modules)
            .env("PYTHONDONTWRITEBYTECODE", "1");
        let log = scratch.join("editors.log");
        let ready = format!("/{page}");
        let server = Served::start("the editors' server", cmd, port, &log, &ready, Duration::from_secs(30))?;
        Ok(Editors { server, root })
    }
}

/// Where the Django app's Python comes from (a venv the setup made).
pub const DJANGO_ENV: &str = "AXSNAP_BENCH_DJANGO";

/// The bench's Django project (`bench/apps/django`) over a SQLite file of the run's own
/// (`db.sqlite3` in its folder): migrated, seeded by its `benchseed` command (the superuser
/// `admin` / `secret123` and the starting rows), then served by `runserver`.
pub struct Django {
    server: Served,
    root: PathBuf,
    python: PathBuf,
}

impl Django {
    fn start(project: &str, scratch: &Path) -> Result<Django, BenchError> {
        let python = std::env::var_os(DJANGO_ENV).map(PathBuf::from).unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-django-venv/bin/python")
        });
        if !python.is_file() {
            return Err(BenchError::Workload(format!(
                "no Django's Python at {} (scripts/bench installs PyPI `Django` there; or set {DJANGO_ENV})",
                python.display()
            )));
        }
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("apps").join(project);
        let root = scratch.join("django");
        std::fs::create_dir_all(&root).map_err(BenchError::Serve)?;
        let db = root.join("db.sqlite3");
        let manage = |args: &[&str]| {
            let mut cmd = Command::new(&python);
            cmd.arg(dir.join("manage.py"))
                .args(args)
                .current_dir(&dir)
                .env("AXSNAP_BENCH_DJANGO_DB", &db)
                .env("PYTHONDONTWRITEBYTECODE", "1");
            cmd
        };
        for step in [&["migrate", "--noinput"][..], &["benchseed"][..]] {
            let out = manage(step)
                .output()
                .map_err(|e| BenchError::Workload(format!("cannot run Django's manage.py: {e}")))?;
            if !out.status.success() {
                let err = String::from_utf8_lossy(&out.stderr);
                return Err(BenchError::Workload(format!(
                    "Django's `manage.py {}` failed: {}",
                    step.join(" "),
                    err.lines().last().unwrap_or_default()
                )));
            }
        }
        let port = free_port()?;
        let cmd = manage(&["runserver", &format!("127.0.0.1:{port}"), "--noreload"]);
        let log = scratch.join("django.log");
        let server = Served::start("Django", cmd, port, &log, "/admin/login/", Duration::from_secs(60))?;
        Ok(Django { server, root, python })
    }

    /// The first column of `query`'s first row, by the venv's Python (its `sqlite3`), as text.
    fn query(&self, query: &str) -> Result<String, String> {
        const SCRIPT: &str = "import sqlite3,sys\nc=sqlite3.connect(sys.argv[1])\n\
            r=c.execute(sys.argv[2]).fetchone()\nsys.stdout.write('' if r is None else str(r[0]))";
        let out = Command::new(&self.python)
            .args(["-c", SCRIPT])
            .arg(self.root.join("db.sqlite3"))
            .arg(query)
            .output()
            .map_err(|e| format!("cannot query the app's database: {e}"))?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            return Err(format!("the query failed: {}", err.lines().last().unwrap_or_default()));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

/// Until `GET path` on `port` answers 200.
fn wait_http(port: u16, path: &str, what: &str, within: Duration) -> Result<(), BenchError> {
    let started = Instant::now();
    while started.elapsed() < within {
        if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            use std::io::{Read, Write};
            let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
            let req = format!("GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n");
            let mut head = [0u8; 12];
            if s.write_all(req.as_bytes()).is_ok()
                && s.read_exact(&mut head).is_ok()
                && head.ends_with(b"200")
            {
                return Ok(());
            }
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    Err(BenchError::Workload(format!("{what} did not answer on port {port} within {} s", within.as_secs())))
}
