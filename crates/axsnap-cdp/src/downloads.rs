//! [`Downloads`]: files a session's pages download, saved under a directory with the name the
//! site suggested, never over an existing file.
//!
//! The browser is told (per context, `Browser.setDownloadBehavior` with `allowAndName`) to
//! write each download into a folder of this session's own, named by the download's id; when
//! `Browser.downloadProgress` says it completed, the file is linked into the directory under
//! its suggested name (`name (1).ext` when that is taken: a hard link fails rather than
//! replace), and the half-made one goes. Only files that landed in this session's own folder
//! are its downloads, so sessions sharing a browser and a directory do not see each other's.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::json;
use tokio::sync::broadcast::error::RecvError;

use crate::conn::{str_field, RawCdp};
use crate::error::CdpError;

/// Most downloads remembered per session (the answers name the new ones; old ones go).
const KEPT: usize = 256;

/// One download that ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Download {
    /// Saved: its file name in the directory, its size and its path.
    Saved {
        /// The name it was saved under.
        name: String,
        /// Its size in bytes.
        size: u64,
        /// Where it is.
        path: PathBuf,
    },
    /// Cancelled or failed: the name the site suggested.
    Failed {
        /// The suggested name.
        name: String,
    },
}

#[derive(Debug, Default)]
struct State {
    /// Suggested names of downloads begun, by id.
    names: HashMap<String, String>,
    /// Downloads that ended, numbered from 1 (`ended` counts them all).
    ended: Vec<(u64, Download)>,
    count: u64,
}

/// A session's downloads (see the module docs). Cloning shares them.
#[derive(Clone, Debug)]
pub struct Downloads {
    dir: PathBuf,
    partial: PathBuf,
    state: Arc<Mutex<State>>,
    _cleanup: Arc<Cleanup>,
}

#[derive(Debug)]
struct Cleanup(PathBuf);

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Downloads {
    /// Downloads saved under `dir` (made when missing), through a folder of this session's own
    /// inside it.
    pub fn new(dir: &Path) -> std::io::Result<Downloads> {
        std::fs::create_dir_all(dir)?;
        let dir = dir.canonicalize()?;
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).map_err(std::io::Error::other)?;
        let tag: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let partial = dir.join(format!(".axsnap-downloading-{tag}"));
        std::fs::create_dir_all(&partial)?;
        Ok(Downloads {
            dir,
            partial: partial.clone(),
            state: Arc::new(Mutex::new(State::default())),
            _cleanup: Arc::new(Cleanup(partial)),
        })
    }

    /// The directory downloads are saved in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Lets `context` (`None`: the browser's default one) download into this session's folder,
    /// and follows the downloads on `raw` until the connection closes.
    pub(crate) async fn enable(&self, raw: &RawCdp, context: Option<&str>) -> Result<(), CdpError> {
        let mut params = json!({
            "behavior": "allowAndName",
            "downloadPath": self.partial.to_string_lossy(),
            "eventsEnabled": true,
        });
        if let Some(c) = context {
            params["browserContextId"] = json!(c);
        }
        let events = raw.subscribe();
        raw.call(None, "Browser.setDownloadBehavior", params).await?;
        let me = self.clone();
        tokio::spawn(async move { me.follow(events).await });
        Ok(())
    }

    /// How many downloads have ended so far.
    pub fn ended(&self) -> u64 {
        self.lock().count
    }

    /// The downloads that ended after the first `seen`.
    pub fn ended_after(&self, seen: u64) -> Vec<Download> {
        self.lock().ended.iter().filter(|(n, _)| *n > seen).map(|(_, d)| d.clone()).collect()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    async fn follow(self, mut events: tokio::sync::broadcast::Receiver<Arc<crate::conn::RawEvent>>) {
        loop {
            let ev = match events.recv().await {
                Ok(ev) => ev,
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return,
            };
            if ev.session_id.is_some() {
                continue;
            }
            let p = &ev.params;
            let Some(guid) = str_field(p, "guid") else { continue };
            match ev.method.as_str() {
                "Browser.downloadWillBegin" => {
                    let name = str_field(p, "suggestedFilename").unwrap_or_default().to_string();
                    let mut st = self.lock();
                    if st.names.len() < 4 * KEPT {
                        st.names.insert(guid.to_string(), name);
                    }
                }
                "Browser.downloadProgress" => match str_field(p, "state") {
                    Some("completed") => self.completed(guid),
                    Some("canceled") => self.canceled(guid),
                    _ => {}
                },
                _ => {}
            }
        }
    }

    /// A download that completed: saved under its name when it is this session's.
    fn completed(&self, guid: &str) {
        // Every session hears every download's events: the name goes either way.
        let suggested = self.lock().names.remove(guid).unwrap_or_default();
        let src = self.partial.join(guid);
        if guid.contains(['/', '\\']) || !src.is_file() {
            return; // another session's (or not a file at all)
        }
        let download = match save(&src, &self.dir, &suggested) {
            Ok((name, path)) => {
                let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                Download::Saved { name, size, path }
            }
            Err(e) => {
                tracing::warn!("saving the download {suggested:?}: {e}");
                Download::Failed { name: safe_name(&suggested) }
            }
        };
        let _ = std::fs::remove_file(&src);
        self.push(download);
    }

    /// A download that was cancelled or failed: reported when it is this session's (its
    /// half-made file is in this session's folder).
    fn canceled(&self, guid: &str) {
        let name = self.lock().names.remove(guid).unwrap_or_default();
        let src = self.partial.join(guid);
        if guid.contains(['/', '\\']) || !src.exists() {
            return;
        }
        let _ = std::fs::remove_file(&src);
        self.push(Download::Failed { name: safe_name(&name) });
    }

    fn push(&self, d: Download) {
        let mut st = self.lock();
        st.count += 1;
        let n = st.count;
        st.ended.push((n, d));
        if st.ended.len() > KEPT {
            st.ended.remove(0);
        }
    }
}

/// A file name from what a site suggested: no directories, no leading dots, not empty, at
/// most 120 characters.
fn safe_name(suggested: &str) -> String {
    let base = suggested.rsplit(['/', '\\']).next().unwrap_or_default();
    let cleaned: String = base
        .chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .trim_start_matches('.')
        .chars()
        .take(120)
        .collect();
    if cleaned.is_empty() {
        "download".into()
    } else {
        cleaned
    }
}

/// `name`, then `stem (1).ext`, `stem (2).ext` ... (1,000 in all): the names a file is
/// saved under when the ones before are taken.
pub fn numbered(name: &str) -> impl Iterator<Item = String> + '_ {
    let (stem, ext) = match name.rsplit_once('.') {
        Some((s, e)) if !s.is_empty() => (s, Some(e)),
        _ => (name, None),
    };
    (0..1000).map(move |n| match (n, ext) {
        (0, _) => name.to_string(),
        (n, Some(e)) => format!("{stem} ({n}).{e}"),
        (n, None) => format!("{stem} ({n})"),
    })
}

/// Links `src` into `dir` under `suggested` (or `stem (n).ext`), never replacing a file.
fn save(src: &Path, dir: &Path, suggested: &str) -> std::io::Result<(String, PathBuf)> {
    let name = safe_name(suggested);
    for candidate in numbered(&name) {
        let path = dir.join(&candidate);
        match std::fs::hard_link(src, &path) {
            Ok(()) => return Ok((candidate, path)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other(format!("{name}: a thousand files of that name already")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_and_never_replace_a_file() {
        assert_eq!(safe_name("../../etc/passwd"), "passwd");
        assert_eq!(safe_name(".bashrc"), "bashrc");
        assert_eq!(safe_name(""), "download");
        assert_eq!(safe_name("a\u{7}b.txt"), "ab.txt");
        let dir = std::env::temp_dir().join(format!("axsnap-dl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = dir.join("src");
        std::fs::write(&src, "x").unwrap();
        std::fs::write(dir.join("report.csv"), "old").unwrap();
        let (name, path) = save(&src, &dir, "report.csv").unwrap();
        assert_eq!(name, "report (1).csv");
        assert_eq!(std::fs::read_to_string(dir.join("report.csv")).unwrap(), "old", "never replaced");
        assert_eq!(std::fs::read_to_string(path).unwrap(), "x");
        assert_eq!(save(&src, &dir, "report.csv").unwrap().0, "report (2).csv");
        assert_eq!(save(&src, &dir, "README").unwrap().0, "README");
        assert_eq!(save(&src, &dir, "README").unwrap().0, "README (1)");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
