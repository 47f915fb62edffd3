//! phpMyAdmin (Debian's `phpmyadmin`, in `/usr/share/phpmyadmin`) over a MariaDB server of the
//! run's own, both started fresh per run and stopped after it; no system service is used.
//!
//! - MariaDB: a data folder made by `mariadb-install-db` in the run's folder, `mariadbd` on a
//!   free port of 127.0.0.1 (its socket in a short folder of its own: a socket's path must
//!   stay under about 100 bytes), loaded with the workload's SQL script as its root user (which
//!   has no password and is reached on 127.0.0.1 only).
//! - phpMyAdmin: PHP's built-in server on another free port, with the bench's router
//!   (`bench/apps/phpmyadmin/router.php`) running the app from a copy of its folder made of
//!   links but for `libraries/vendor_config.php`, which names the run's own `config.inc.php`
//!   (cookie login, the server above) and temporary folder. `/etc/phpmyadmin` is not read.
//!
//! A check's query runs through the `mariadb` client as root against that server.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::{free_port, Served};
use crate::error::BenchError;

/// Where phpMyAdmin is (default: Debian's `/usr/share/phpmyadmin`).
pub const PHPMYADMIN_ENV: &str = "AXSNAP_BENCH_PHPMYADMIN";

/// Debian's phpMyAdmin folder.
const DEBIAN_PHPMYADMIN: &str = "/usr/share/phpmyadmin";

/// The key phpMyAdmin encrypts its login cookie with: 32 bytes, as it wants (a longer one is
/// a warning on every page). Only this run's server on 127.0.0.1 uses it.
const BLOWFISH_SECRET: &str = "axsnap-bench-phpmyadmin-key-0032";

/// What the setup installs, for the messages.
const INSTALL_HINT: &str =
    "scripts/bench installs Debian's phpmyadmin, mariadb-server-core, mariadb-client-core and php-cli";

/// phpMyAdmin served on 127.0.0.1 over a MariaDB server of its own.
pub struct PhpMyAdmin {
    /// PHP's server (declared first: stopped before the database).
    pub(super) server: Served,
    /// The database server.
    db: Mariadb,
    /// The run's folder for the app (config, data, logs).
    pub(super) root: PathBuf,
}

impl PhpMyAdmin {
    /// Starts MariaDB in `scratch/phpmyadmin`, loads `bench/apps/<folder>/seed.sql` into it and
    /// serves phpMyAdmin through `bench/apps/<folder>/router.php`.
    pub(super) fn start(folder: &str, scratch: &Path) -> Result<PhpMyAdmin, BenchError> {
        let app = Path::new(env!("CARGO_MANIFEST_DIR")).join("apps").join(folder);
        let (seed, router) = (app.join("seed.sql"), app.join("router.php"));
        for file in [&seed, &router] {
            if !file.is_file() {
                return Err(BenchError::Workload(format!(
                    "no {} (the workload's app files)",
                    file.display()
                )));
            }
        }
        let pma =
            std::env::var_os(PHPMYADMIN_ENV).map(PathBuf::from).unwrap_or_else(|| DEBIAN_PHPMYADMIN.into());
        if !pma.join("index.php").is_file() || !pma.join("libraries/vendor_config.php").is_file() {
            return Err(BenchError::Workload(format!(
                "no phpMyAdmin at {} ({INSTALL_HINT}; or set {PHPMYADMIN_ENV})",
                pma.display()
            )));
        }
        let php = program("php")?;
        // Absolute: MariaDB's programs and PHP resolve their paths from folders of their own.
        let root = std::path::absolute(scratch.join("phpmyadmin")).map_err(BenchError::Serve)?;
        for dir in ["tmp", "sessions"] {
            std::fs::create_dir_all(root.join(dir)).map_err(BenchError::Serve)?;
        }
        let db = Mariadb::start(&root)?;
        db.load(&seed)?;

        let site = root.join("site");
        overlay(&pma, &site, &root)?;
        write(&root.join("config.inc.php"), &config(db.port))?;
        let port = free_port()?;
        let mut cmd = Command::new(php);
        cmd.arg("-d")
            .arg(format!("session.save_path={}", root.join("sessions").display()))
            .arg("-S")
            .arg(format!("127.0.0.1:{port}"))
            .arg("-t")
            .arg(&pma)
            .arg(&router)
            .env("AXSNAP_BENCH_PMA_ROOT", &site)
            // Several workers: a page asks for its scripts, styles and an AJAX call or two at once.
            .env("PHP_CLI_SERVER_WORKERS", "4");
        let log = root.join("php.log");
        let server = Served::start("phpMyAdmin", cmd, port, &log, "/index.php", Duration::from_secs(30))?;
        Ok(PhpMyAdmin { server, db, root })
    }

    /// The first column of `query`'s first row, as the `mariadb` client prints it in batch mode
    /// (`NULL` for NULL), `""` for no row.
    pub(super) fn query(&self, query: &str) -> Result<String, String> {
        self.db.query(query)
    }
}

/// A `mariadbd` of the run's own, killed when dropped.
struct Mariadb {
    child: Child,
    port: u16,
    /// The `mariadb` client.
    client: PathBuf,
    /// The short folder its socket is in, removed when it stops.
    socket_dir: PathBuf,
}

impl Mariadb {
    /// Makes a data folder in `root/mariadb` and starts the server on a free port of 127.0.0.1;
    /// returns once it answers a query.
    fn start(root: &Path) -> Result<Mariadb, BenchError> {
        let install = program("mariadb-install-db")?;
        let server = program("mariadbd")?;
        let client = program("mariadb")?;
        let data = root.join("mariadb");
        let as_root = running_as_root();
        let mut init = Command::new(install);
        init.arg("--no-defaults")
            .arg(format!("--datadir={}", data.display()))
            .args(["--auth-root-authentication-method=normal", "--skip-test-db"]);
        if as_root {
            init.arg("--user=root");
        }
        let out =
            init.output().map_err(|e| BenchError::Workload(format!("cannot run mariadb-install-db: {e}")))?;
        if !out.status.success() {
            let said = [&out.stderr, &out.stdout].map(|b| String::from_utf8_lossy(b).into_owned()).join("\n");
            // Its last line is `[ERROR] Aborting`; the error before it says why.
            let why = said
                .lines()
                .rev()
                .find(|l| l.contains("[ERROR]") && !l.ends_with("Aborting"))
                .or_else(|| said.lines().rev().find(|l| !l.trim().is_empty()))
                .unwrap_or_default();
            return Err(BenchError::Workload(format!("mariadb-install-db failed: {why}")));
        }
        let socket_dir = short_dir()?;
        let port = free_port()?;
        let log = root.join("mariadb.log");
        let mut cmd = Command::new(server);
        cmd.arg("--no-defaults")
            .arg(format!("--datadir={}", data.display()))
            .arg(format!("--socket={}", socket_dir.join("mariadb.sock").display()))
            .arg(format!("--pid-file={}", root.join("mariadb.pid").display()))
            .arg(format!("--log-error={}", log.display()))
            .arg(format!("--port={port}"))
            .args(["--bind-address=127.0.0.1", "--skip-name-resolve", "--innodb-buffer-pool-size=32M"]);
        if as_root {
            cmd.arg("--user=root");
        }
        let child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| BenchError::Workload(format!("cannot start mariadbd: {e}")))?;
        let mut db = Mariadb { child, port, client, socket_dir };
        db.wait_ready(&log, Duration::from_secs(60))?;
        Ok(db)
    }

    /// Until the server answers `SELECT 1`; an error (with the end of its log) when it stopped
    /// or did not answer within `within`.
    fn wait_ready(&mut self, log: &Path, within: Duration) -> Result<(), BenchError> {
        let started = Instant::now();
        let log_end = || {
            std::fs::read(log).ok().and_then(|b| last_line(&b)).map(|l| format!(": {l}")).unwrap_or_default()
        };
        while started.elapsed() < within {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(BenchError::Workload(format!("mariadbd stopped ({status}){}", log_end())));
            }
            if self.query("SELECT 1").is_ok_and(|v| v == "1") {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        Err(BenchError::Workload(format!(
            "mariadbd did not answer on port {} within {} s{}",
            self.port,
            within.as_secs(),
            log_end()
        )))
    }

    /// The `mariadb` client as root on this server, in batch mode.
    fn client(&self) -> Command {
        let mut cmd = Command::new(&self.client);
        cmd.args(["--no-defaults", "--protocol=tcp", "-h", "127.0.0.1", "-u", "root", "--batch", "--raw"])
            .arg(format!("--port={}", self.port));
        cmd
    }

    /// Runs the SQL script `script` as root.
    fn load(&self, script: &Path) -> Result<(), BenchError> {
        let file = std::fs::File::open(script)
            .map_err(|e| BenchError::Workload(format!("cannot read {}: {e}", script.display())))?;
        let out = self
            .client()
            .stdin(file)
            .output()
            .map_err(|e| BenchError::Workload(format!("cannot run the mariadb client: {e}")))?;
        if !out.status.success() {
            return Err(BenchError::Workload(format!(
                "{} did not load into MariaDB: {}",
                script.display(),
                last_line(&out.stderr).unwrap_or_default()
            )));
        }
        Ok(())
    }

    /// The first column of `query`'s first row as text, `""` for no row.
    fn query(&self, query: &str) -> Result<String, String> {
        let out = self
            .client()
            .arg("--skip-column-names")
            .arg("-e")
            .arg(query)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run the mariadb client: {e}"))?;
        if !out.status.success() {
            return Err(format!("the query failed: {}", last_line(&out.stderr).unwrap_or_default()));
        }
        let text = String::from_utf8_lossy(&out.stdout);
        Ok(text.lines().next().and_then(|l| l.split('\t').next()).unwrap_or_default().to_string())
    }
}

impl Drop for Mariadb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.socket_dir);
    }
}

/// The run's `config.inc.php`: cookie login to the server on `port` of 127.0.0.1, nothing that
/// reaches beyond this machine (no version check, no error reports).
fn config(port: u16) -> String {
    format!(
        "<?php\n\
         // Written by the bench for one run of the phpMyAdmin workload (bench/src/apps/phpmyadmin.rs).\n\
         declare(strict_types=1);\n\
         $cfg['blowfish_secret'] = '{BLOWFISH_SECRET}';\n\
         $cfg['Servers'][1]['auth_type'] = 'cookie';\n\
         $cfg['Servers'][1]['host'] = '127.0.0.1';\n\
         $cfg['Servers'][1]['port'] = '{port}';\n\
         $cfg['Servers'][1]['connect_type'] = 'tcp';\n\
         $cfg['Servers'][1]['AllowNoPassword'] = false;\n\
         $cfg['VersionCheck'] = false;\n\
         $cfg['SendErrorReports'] = 'never';\n"
    )
}

/// Makes `site`: a link to each entry of phpMyAdmin's folder `pma`, and for `libraries` a folder
/// of links to its entries but `vendor_config.php`, written anew to take Debian's settings
/// with the run's own config file and temporary folder (both under `root`).
fn overlay(pma: &Path, site: &Path, root: &Path) -> Result<(), BenchError> {
    let libraries = site.join("libraries");
    std::fs::create_dir_all(&libraries).map_err(BenchError::Serve)?;
    link_entries(pma, site, "libraries")?;
    link_entries(&pma.join("libraries"), &libraries, "vendor_config.php")?;
    let vendor = format!(
        "<?php\n\
         // Written by the bench: Debian's settings, with this run's config file and temporary folder.\n\
         declare(strict_types=1);\n\
         if (! defined('PHPMYADMIN')) {{\n    exit;\n}}\n\
         return array_merge(require {}, [\n    'configFile' => {},\n    'tempDir' => {},\n]);\n",
        php_string(&pma.join("libraries/vendor_config.php").display()),
        php_string(&root.join("config.inc.php").display()),
        php_string(&format!("{}/", root.join("tmp").display())),
    );
    write(&libraries.join("vendor_config.php"), &vendor)
}

/// Links each entry of `from` into `to` under its own name, but `except`.
fn link_entries(from: &Path, to: &Path, except: &str) -> Result<(), BenchError> {
    let entries = std::fs::read_dir(from)
        .map_err(|e| BenchError::Workload(format!("cannot list {}: {e}", from.display())))?;
    for entry in entries {
        let entry = entry.map_err(BenchError::Serve)?;
        let name = entry.file_name();
        if name != except {
            symlink(&entry.path(), &to.join(&name)).map_err(|e| {
                BenchError::Workload(format!(
                    "cannot link {} into {}: {e}",
                    entry.path().display(),
                    to.display()
                ))
            })?;
        }
    }
    Ok(())
}

/// `text` as a single-quoted PHP string.
fn php_string(text: &dyn std::fmt::Display) -> String {
    format!("'{}'", text.to_string().replace('\\', "\\\\").replace('\'', "\\'"))
}

/// Writes `text` to `path`.
fn write(path: &Path, text: &str) -> Result<(), BenchError> {
    std::fs::write(path, text)
        .map_err(|e| BenchError::Workload(format!("cannot write {}: {e}", path.display())))
}

/// The last line of a program's output that says something.
fn last_line(bytes: &[u8]) -> Option<String> {
    String::from_utf8_lossy(bytes).lines().rev().find(|l| !l.trim().is_empty()).map(str::to_string)
}

/// `name` on PATH or in the system's program folders (`mariadbd` is in `/usr/sbin`, which a
/// user's PATH may lack).
fn program(name: &str) -> Result<PathBuf, BenchError> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/bin", "/sbin"].map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| BenchError::Workload(format!("no {name} ({INSTALL_HINT})")))
}

/// A new folder with a short path for the server's socket (`/tmp/axsnap-pma-PID-N`).
fn short_dir() -> Result<PathBuf, BenchError> {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = PathBuf::from("/tmp").join(format!("axsnap-pma-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(BenchError::Serve)?;
    Ok(dir)
}

/// Whether this process runs as root (MariaDB then has to be told it may).
#[cfg(unix)]
fn running_as_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// Whether this process runs as root: never, off Unix.
#[cfg(not(unix))]
fn running_as_root() -> bool {
    false
}

/// A symbolic link `link` to `target`.
#[cfg(unix)]
fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

/// No links off Unix: the workload runs on Debian.
#[cfg(not(unix))]
fn symlink(_target: &Path, _link: &Path) -> std::io::Result<()> {
    Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "the phpMyAdmin workload runs on Debian only"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn php_strings_are_quoted_and_the_key_is_32_bytes() {
        assert_eq!(php_string(&"/tmp/a'b\\c"), "'/tmp/a\\'b\\\\c'");
        assert_eq!(BLOWFISH_SECRET.len(), 32);
        let c = config(3306);
        assert!(c.contains("['port'] = '3306';") && c.starts_with("<?php\n"), "{c}");
    }
}
