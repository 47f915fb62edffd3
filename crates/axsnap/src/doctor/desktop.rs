//! The desktop check: whether the desktop `axsnap mcp --desktop` would work on can be reached
//! (connected as the server connects: AT-SPI on Linux, no platform yet elsewhere) and which
//! apps are on it.

use std::time::Duration;

use serde_json::json;

use super::{Check, Status};

/// Most time connecting and listing the apps may take (a hung app is listed, not waited for).
const WITHIN: Duration = Duration::from_secs(20);

/// Most app names the summary shows.
const NAMES_SHOWN: usize = 10;

/// The `desktop` check; `required` (`--desktop`): out of reach is a failure, not a warning.
pub async fn check(required: bool) -> Check {
    let bad = if required { Status::Fail } else { Status::Warn };
    let listed = tokio::time::timeout(WITHIN, async {
        let mut backend = axsnap_mcp::host::connect(None).await?;
        backend.apps().await
    })
    .await;
    let c = match listed {
        Ok(Ok(apps)) => {
            let names: Vec<String> = apps
                .iter()
                .map(|a| if a.answering { a.name.clone() } else { format!("{} (not answering)", a.name) })
                .collect();
            let summary = match names.len() {
                0 => "the accessibility bus answers; no app on it exposes accessibility yet".to_string(),
                n => {
                    let more = n.saturating_sub(NAMES_SHOWN);
                    let shown = names.iter().take(NAMES_SHOWN).cloned().collect::<Vec<_>>().join(", ");
                    let more = if more > 0 { format!(", and {more} more") } else { String::new() };
                    format!("the accessibility bus answers; {n} app(s) on it: {shown}{more}")
                }
            };
            let c = Check::new("desktop", Status::Ok, summary).field("reachable", true).field("apps", names);
            match display() {
                Some(_) => c,
                None => c.detail(
                    "no DISPLAY or WAYLAND_DISPLAY: apps launched from here have no screen, and windows cannot be \
                     moved or closed",
                ),
            }
        }
        Ok(Err(e)) => Check::new("desktop", bad, format!("cannot reach the desktop: {e}"))
            .field("reachable", false)
            .field("error", e.to_string())
            .fix(fix()),
        Err(_) => Check::new(
            "desktop",
            bad,
            format!("the accessibility bus did not answer within {} s", WITHIN.as_secs()),
        )
        .field("reachable", false)
        .field("error", "timeout")
        .fix(fix()),
    };
    let c = c.field("required", required).field("platform", PLATFORM).field("display", json!(display()));
    environment().into_iter().fold(c, Check::detail)
}

/// The desktop platform axsnap has on this system.
#[cfg(target_os = "linux")]
const PLATFORM: Option<&str> = Some("AT-SPI");
/// The desktop platform axsnap has on this system.
#[cfg(windows)]
const PLATFORM: Option<&str> = Some("UI Automation");
/// The desktop platform axsnap has on this system: none yet.
#[cfg(not(any(target_os = "linux", windows)))]
const PLATFORM: Option<&str> = None;

/// The display apps show on, as the environment names it.
fn display() -> Option<String> {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()).map(|s| format!("{v}={s}")))
}

/// What the environment says about the buses, a line each (Linux: where AT-SPI is looked for).
#[cfg(target_os = "linux")]
fn environment() -> Vec<String> {
    ["DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS"]
        .iter()
        .map(|v| match std::env::var(v) {
            Ok(s) if !s.is_empty() => format!("{v}={}", axsnap_core::caps::cap(&s, 200)),
            _ => format!("{v} is not set"),
        })
        .collect()
}

/// What the environment says about the buses: nothing to say where there is no AT-SPI.
#[cfg(not(target_os = "linux"))]
fn environment() -> Vec<String> {
    Vec::new()
}

/// What to do when the desktop cannot be reached.
#[cfg(target_os = "linux")]
fn fix() -> String {
    "install at-spi2-core (Debian/Ubuntu: `apt install at-spi2-core`) and run axsnap inside a desktop session: \
     DBUS_SESSION_BUS_ADDRESS must name the session bus (a desktop login sets it; `dbus-run-session -- COMMAND` \
     starts one) and DISPLAY the screen the apps show on (`--desktop` needs one; a virtual one, Xvfb, will do); or \
     replay a recording anywhere with `axsnap mcp --desktop --recording FILE`; the browser tools do not need any \
     of this"
        .to_string()
}

/// What to do when the desktop cannot be reached on Windows: UI Automation is part of the
/// system, so it is a session matter.
#[cfg(windows)]
fn fix() -> String {
    "UI Automation is part of Windows: run axsnap in the signed-in user's desktop session (not as a service or \
     over SSH, which have no desktop), at the same integrity level as the apps it reads (an app run as \
     administrator is read only by an axsnap run as administrator); or replay a recording anywhere with \
     `axsnap mcp --desktop --recording FILE`; the browser tools do not need any of this"
        .to_string()
}

/// What to do when the desktop cannot be reached: there is nothing to install here yet.
#[cfg(not(any(target_os = "linux", windows)))]
fn fix() -> String {
    "nothing to install: there is no desktop platform backend for this system yet, so the desktop tools replay \
     recordings only (`axsnap mcp --desktop --recording FILE`); the browser tools do not need one"
        .to_string()
}
