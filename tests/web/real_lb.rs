//! The nginx and HAProxy fixtures in the browser: the same key-by-key comparison as
//! tests/native/real_lb.rs (tests/common/lb.rs), through the plain-Rust engine compiled to wasm.

#[path = "../common/lb.rs"]
mod lb;

use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn nginx_matches_on_every_recorded_key() {
    assert!(lb::check_nginx() > 30_000);
}

#[wasm_bindgen_test]
fn haproxy_matches_on_every_recorded_key() {
    assert!(lb::check_haproxy() > 60_000);
}
