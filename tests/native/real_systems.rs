//! The real systems, bit for bit: every answer below was produced by the real implementation
//! (libmemcached 1.1.4, libketama's C code, redis-cli/redis-server 7.0.15, cassandra-driver's
//! Murmur3, a jump-hash C extension, Go groupcache) by `tests/real/generate.sh`, and ringlab
//! must agree on all of them. The comparisons live in `tests/common/real.rs`, which
//! `tests/web/real_systems.rs` runs in Chromium and Firefox too.

#[path = "../common/real.rs"]
mod real;

#[test]
fn libmemcached_matches_on_every_key_and_point() {
    let checked = real::libmemcached();
    assert!(checked > 40_000, "checked {checked} keys and points");
}

#[test]
fn libketama_matches_the_real_c_code() {
    let checked = real::libketama();
    assert!(checked > 20_000, "checked {checked} keys");
}

/// Every published digest, the 1,000,000-key `ketama_test` output included.
#[test]
fn libketama_published_vectors() {
    let checked = real::libketama_published(u64::MAX);
    assert!(checked > 1_101_000, "checked {checked} keys");
}

#[test]
fn redis_key_slots_including_hash_tags() {
    assert!(real::redis_keyslots() > 3000);
}

#[test]
fn redis_cluster_create_add_and_remove_match_redis_cli() {
    assert_eq!(real::redis_topologies(), 20, "4 topologies: add (both master orders) and remove, ranges and moves");
}

/// 2 IPs × 2, 3 × 2, 3 + 1, IPs out of order, ::1 beside 127.0.0.x; 200 keys each.
#[test]
fn redis_cluster_create_interleaves_masters_by_ip_as_redis_cli_does() {
    assert_eq!(real::redis_multi_ip(), 5 * 203);
}

#[test]
fn cassandra_tokens_match_the_driver() {
    assert!(real::cassandra_tokens() > 3000);
}

#[test]
fn jump_matches_the_reference_and_published_vectors() {
    assert!(real::jump() > 6000);
}

#[test]
fn groupcache_matches_go() {
    assert!(real::groupcache() > 10_000);
}
