//! Every cache-client fixture (tests/real/fixtures), checked in the browser with the same
//! comparisons as tests/native/real_clients.rs (tests/common/clients.rs), on the plain-Rust engine
//! compiled to wasm: SHA-1, MD5 and CRC-32 points, 64-bit and 32-bit circles, predecessor
//! and strict-successor lookups, Java's and JavaScript's UTF-16 string hashes, pymemcache's
//! murmur3 over code points, and the single- and double-precision point counts must give
//! the real libraries' answers in every browser `cargo xtask test` runs.

#[path = "../common/clients.rs"]
mod clients;

use wasm_bindgen_test::*;

fn keys(fixture: &str) -> usize {
    clients::check(fixture).iter().map(|(_, _, keys)| keys).sum()
}

#[wasm_bindgen_test]
fn pymemcache_python_memcached_and_uhashring() {
    assert_eq!(keys(clients::PYMEMCACHE), 5 * 979);
    assert_eq!(keys(clients::PYTHON_MEMCACHED), 4 * 979);
    assert_eq!(keys(clients::UHASHRING), 10 * 979);
}

#[wasm_bindgen_test]
fn dalli_and_redis_rb() {
    assert_eq!(keys(clients::DALLI), 5 * 978);
    assert_eq!(keys(clients::REDIS_RB), 8 * 979);
}

#[wasm_bindgen_test]
fn spymemcached_npm_hashring_and_memjs() {
    assert_eq!(keys(clients::SPYMEMCACHED), 9 * 979);
    assert_eq!(keys(clients::NPM_HASHRING), 5 * 979);
    assert_eq!(keys(clients::MEMJS), 4 * 979);
}

#[wasm_bindgen_test]
fn libmemcached_ketama_weighted_in_both_orders() {
    assert_eq!(clients::libmemcached_order(), 7 * 635);
}

#[wasm_bindgen_test]
fn two_clients_of_one_pool_disagree_as_the_real_ones_do() {
    let pairs = clients::agreements();
    assert!(pairs.len() >= 20);
    for p in &pairs {
        assert_eq!(p.ringlab, p.real, "{} vs {} on {} servers, {} keys", p.a.name(), p.b.name(), p.servers, p.keys);
    }
}
