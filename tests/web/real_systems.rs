//! Every real-system fixture (tests/real/fixtures), checked in the browser with the same
//! comparisons as tests/native/real_systems.rs (tests/common/real.rs), on the plain-Rust engine
//! compiled to wasm: u64/i64 arithmetic, CRC, MD5, libketama's and libmemcached's float
//! point counts, Redis's float slot split and rebalance, and Murmur3's signed tail bytes must
//! give the real programs' answers in every browser `cargo xtask test` runs. Nothing is left
//! out: every key, point, slot range and published digest (1,000,000 keys included).

#[path = "../common/real.rs"]
mod real;
#[path = "../common/tutorial.rs"]
mod tutorial;

use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn libmemcached_every_key_and_point() {
    assert!(real::libmemcached() > 40_000);
}

#[wasm_bindgen_test]
fn libketama_every_key() {
    assert!(real::libketama() > 20_000);
}

#[wasm_bindgen_test]
fn libketama_published_vectors_and_digests() {
    assert!(real::libketama_published(u64::MAX) > 1_101_000);
}

#[wasm_bindgen_test]
fn redis_key_slots() {
    assert!(real::redis_keyslots() > 3000);
}

#[wasm_bindgen_test]
fn redis_topologies_ranges_and_moved_slots() {
    assert_eq!(real::redis_topologies(), 20);
}

#[wasm_bindgen_test]
fn redis_multi_ip_create() {
    assert_eq!(real::redis_multi_ip(), 5 * 203);
}

#[wasm_bindgen_test]
fn cassandra_tokens() {
    assert!(real::cassandra_tokens() > 3000);
}

#[wasm_bindgen_test]
fn jump_buckets() {
    assert!(real::jump() > 6000);
}

#[wasm_bindgen_test]
fn groupcache_every_key() {
    assert!(real::groupcache() > 10_000);
}

/// The five tutorial rings (Go, Python, Java), every key after every step, as natively
/// (tests/native/real_tutorial.rs).
#[wasm_bindgen_test]
fn tutorial_rings_every_key() {
    for (name, text) in tutorial::ALL {
        let (checked, on_points) = tutorial::replay(text);
        assert!(checked > 25_000 && on_points > 1_000, "{name}: {checked} keys, {on_points} on points");
    }
}
