//! [`Host`]: the desktop a server or the CLI works on, the system's own platform (AT-SPI on
//! Linux, UI Automation on Windows; none yet on macOS) or a recording replayed in its place (an
//! `axsnap-desktop-recording`, a Windows tree Accessibility Insights saved, or a macOS tree as
//! an AX recording, `.axjson`).

use std::path::Path;

use axsnap_desktop::{DesktopBackend, DesktopError, Either, RecordedPlatform};

/// The system's own desktop platform.
#[cfg(target_os = "linux")]
pub type Native = axsnap_atspi::Atspi;
/// The system's own desktop platform.
#[cfg(windows)]
pub type Native = axsnap_uia::UiaPlatform;
/// The system's own desktop platform: none yet here.
#[cfg(not(any(target_os = "linux", windows)))]
pub type Native = axsnap_desktop::NoPlatform;

/// A recording replayed: an `axsnap-desktop-recording` or a macOS AX recording by the
/// recorded platform, a Windows
/// tree by the Windows platform itself over a scripted automation (its pattern calls, read-back
/// and change signal run as on Windows).
pub type Replay = Either<RecordedPlatform, axsnap_uia::UiaPlatform>;

/// The desktop: the system's, or a recording's.
pub type Host = Either<Native, Replay>;

/// Connects to the desktop: the recording at `recording` when given (replayed from its start),
/// else the system's own.
pub async fn connect(recording: Option<&Path>) -> Result<DesktopBackend<Host>, DesktopError> {
    let platform = match recording {
        Some(path) if axsnap_ax::is_ax_recording(path) => {
            Either::Right(Either::Left(RecordedPlatform::new(axsnap_ax::open_recording(path)?)))
        }
        Some(path) => Either::Right(match axsnap_uia::open(path)? {
            axsnap_uia::Opened::Windows { elements, app } => {
                let process = format!("{app}.exe");
                let start = move || Ok(axsnap_uia::ScriptedAutomation::new(elements, &process, true).0);
                Either::Right(axsnap_uia::UiaPlatform::start(start).await?)
            }
            axsnap_uia::Opened::Recording(recording) => Either::Left(RecordedPlatform::new(recording)),
        }),
        #[cfg(target_os = "linux")]
        None => Either::Left(axsnap_atspi::Atspi::connect().await?),
        #[cfg(windows)]
        None => Either::Left(axsnap_uia::UiaPlatform::start(axsnap_uia::ComAutomation::new).await?),
        #[cfg(not(any(target_os = "linux", windows)))]
        None => Either::Left(axsnap_desktop::NoPlatform),
    };
    Ok(DesktopBackend::new(platform))
}
