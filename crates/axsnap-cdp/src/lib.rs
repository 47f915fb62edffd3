//! `axsnap-cdp`: the Chromium backend over the Chrome DevTools Protocol.
