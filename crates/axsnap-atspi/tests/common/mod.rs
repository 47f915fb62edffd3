//! Test support for the AT-SPI backend's integration tests (`mod common;`).
#![allow(dead_code)] // Each test binary uses its part.

pub mod desktop;
pub mod driver;
