//! [`Host`]: the desktop a server or the CLI works on, the system's own platform (AT-SPI on
//! Linux, UI Automation on Windows; none yet on macOS) or a recording replayed in its place (an
//! `axsnap-desktop-recording`, a Windows tree Accessibility Insights saved, or a macOS tree as
//! an AX recording, `.axjson`).

use std::path::Path;

use axsnap_desktop::{DesktopBackend, DesktopError, Either, RecordedPlatform, Recording};

/// The system's own desktop platform.
#[cfg(target_os = "linux")]
pub type Native = axsnap_atspi::Atspi;
/// The system's own desktop platform.
#[cfg(windows)]
pub type Native = axsnap_uia::UiaPlatform;
/// The system's own desktop platform: none yet here.
#[cfg(not(any(target_os = "linux", windows)))]
pub type Native = axsnap_desktop::NoPlatform;

/// The desktop: the system's, or a recording's.
pub type Host = Either<Native, RecordedPlatform>;

/// Connects to the desktop: the recording at `recording` when given (replayed from its start),
/// else the system's own.
pub async fn connect(recording: Option<&Path>) -> Result<DesktopBackend<Host>, DesktopError> {
    let platform = match recording {
        Some(path) => Either::Right(RecordedPlatform::new(open_recording(path)?)),
        #[cfg(target_os = "linux")]
        None => Either::Left(axsnap_atspi::Atspi::connect().await?),
        #[cfg(windows)]
        None => Either::Left(axsnap_uia::UiaPlatform::start(axsnap_uia::ComAutomation::new).await?),
        #[cfg(not(any(target_os = "linux", windows)))]
        None => Either::Left(axsnap_desktop::NoPlatform),
    };
    Ok(DesktopBackend::new(platform))
}

/// The recording at `path`: a macOS AX recording by its extension or `format`, else whatever
/// [`axsnap_uia::open_recording`] reads (Accessibility Insights' files, an
/// `axsnap-desktop-recording`).
pub fn open_recording(path: &Path) -> Result<Recording, DesktopError> {
    if axsnap_ax::is_ax_recording(path) {
        axsnap_ax::open_recording(path)
    } else {
        axsnap_uia::open_recording(path)
    }
}
