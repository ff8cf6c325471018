//! The browser-facing engine handle (WebAssembly only); see `www/worker.js`.
