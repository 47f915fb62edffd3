//! [`Host`]: the desktop a server or the CLI works on, the system's own platform (AT-SPI on
//! Linux; none yet on Windows and macOS) or a recording replayed in its place (an
//! `axsnap-desktop-recording`, or a Windows tree Accessibility Insights saved).

use std::path::Path;

use axsnap_desktop::{DesktopBackend, DesktopError, Either, RecordedPlatform};

/// The system's own desktop platform.
#[cfg(target_os = "linux")]
pub type Native = axsnap_atspi::Atspi;
/// The system's own desktop platform: none yet here.
#[cfg(not(target_os = "linux"))]
pub type Native = axsnap_desktop::NoPlatform;

/// The desktop: the system's, or a recording's.
pub type Host = Either<Native, RecordedPlatform>;

/// Connects to the desktop: the recording at `recording` when given (replayed from its start),
/// else the system's own.
pub async fn connect(recording: Option<&Path>) -> Result<DesktopBackend<Host>, DesktopError> {
    let platform = match recording {
        Some(path) => Either::Right(RecordedPlatform::new(axsnap_uia::open_recording(path)?)),
        #[cfg(target_os = "linux")]
        None => Either::Left(axsnap_atspi::Atspi::connect().await?),
        #[cfg(not(target_os = "linux"))]
        None => Either::Left(axsnap_desktop::NoPlatform),
    };
    Ok(DesktopBackend::new(platform))
}
