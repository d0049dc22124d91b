//! The twemproxy and Envoy fixtures in the browser: the same key-by-key comparison as
//! tests/native/real_proxies.rs (tests/common/proxies.rs), through the plain-Rust engine compiled to
//! wasm.

#[path = "../common/proxies.rs"]
mod proxies;

use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn twemproxy_matches_on_every_recorded_key() {
    assert!(proxies::check_twemproxy() > 14_000);
}

#[wasm_bindgen_test]
fn envoy_matches_on_every_recorded_key() {
    assert!(proxies::check_envoy() > 5_000);
}
