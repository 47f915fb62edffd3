//! `axsnap-atspi`: the Linux desktop backend over AT-SPI (D-Bus).
//!
//! Not built yet: a later stage fills it behind the same `axsnap_core::backend::Backend` trait.
