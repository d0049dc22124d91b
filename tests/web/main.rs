//! The wasm-bindgen tests, in one test binary that `cargo xtask test` runs in headless
//! Chromium and Firefox: the JS binding as JavaScript sees it (`binding`; `answers`: answers
//! that agree, and calls on freed objects), and every real-system fixture checked in the
//! browser with the same comparisons as the native tests (`real_systems`, `real_lb`,
//! `real_proxies`, `real_clients`: the shared checks in tests/common/).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::wasm_bindgen_test_configure;

wasm_bindgen_test_configure!(run_in_browser);

mod answers;
mod binding;
mod real_clients;
mod real_lb;
mod real_proxies;
mod real_systems;
