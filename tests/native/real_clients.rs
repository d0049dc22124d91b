//! The cache-client libraries, bit for bit: every answer below was produced by the real library
//! (pymemcache, python-memcached, uhashring, Dalli, redis-rb 4 and 5, spymemcached, the npm
//! memcached client's hashring, memjs; libmemcached's KETAMA mode in both orders of calls) by
//! `tests/real/generate.sh clients libmemcached_order`, and ringlab must agree on every key.
//! The comparisons live in `tests/common/clients.rs`, which `tests/web/real_clients.rs` runs in
//! Chromium and Firefox too.

#[path = "../common/clients.rs"]
mod clients;

use ringlab::algo::Algorithm;

/// Each fixture's algorithms, cases and keys compared.
fn checked(fixture: &str) -> Vec<(&'static str, usize, usize)> {
    clients::check(fixture).into_iter().map(|(a, cases, keys)| (a.name(), cases, keys)).collect()
}

#[test]
fn pymemcache_hashclient() {
    assert_eq!(checked(clients::PYMEMCACHE), [("pymemcache", 5, 5 * 979)]);
}

#[test]
fn python_memcached() {
    assert_eq!(checked(clients::PYTHON_MEMCACHED), [("python-memcached", 4, 4 * 979)]);
}

#[test]
fn uhashring_both_runtimes() {
    assert_eq!(checked(clients::UHASHRING), [("uhashring", 5, 5 * 979), ("uhashring-ketama", 5, 5 * 979)]);
}

/// The empty key is refused by Dalli (`key cannot be blank`): not compared.
#[test]
fn dalli() {
    assert_eq!(checked(clients::DALLI), [("dalli", 5, 5 * 978)]);
}

#[test]
fn redis_rb_4_and_5() {
    assert_eq!(checked(clients::REDIS_RB), [("redis-rb-4", 4, 4 * 979), ("redis-rb-5", 4, 4 * 979)]);
}

#[test]
fn spymemcached_both_locators() {
    assert_eq!(
        checked(clients::SPYMEMCACHED),
        [("spymemcached-ketama", 5, 5 * 979), ("spymemcached-native", 4, 4 * 979)]
    );
}

#[test]
fn npm_memcached_hashring() {
    assert_eq!(checked(clients::NPM_HASHRING), [("npm-hashring", 5, 5 * 979)]);
}

#[test]
fn memjs() {
    assert_eq!(checked(clients::MEMJS), [("memjs", 4, 4 * 979)]);
}

#[test]
fn libmemcached_ketama_weighted_follows_the_order_of_calls() {
    assert_eq!(clients::libmemcached_order(), 7 * 635);
    assert!(Algorithm::LibmemcachedKetama.entry().options.iter().any(|o| o.name == "ketamaWeighted"));
}

/// Where two real libraries were given the same pool, ringlab's agreement is what they
/// answered, key by key: Dalli against pymemcache, spymemcached's two locators against each
/// other and against memjs, and so on.
#[test]
fn two_clients_of_one_pool_disagree_as_the_real_ones_do() {
    let pairs = clients::agreements();
    for p in &pairs {
        assert_eq!(p.ringlab, p.real, "{} vs {} on {} servers, {} keys", p.a.name(), p.b.name(), p.servers, p.keys);
        eprintln!(
            "{} vs {}: {} servers, {} keys, {:.1}% apart",
            p.a.name(),
            p.b.name(),
            p.servers,
            p.keys,
            p.real * 100.0
        );
    }
    // The pools the fixtures share: the three-server memcached pool (pymemcache, Dalli, both
    // spymemcached locators, npm hashring, memjs, in two orders) and uhashring's two modes'.
    assert!(pairs.len() >= 20, "{} pairs", pairs.len());
    assert!(pairs.iter().any(|p| p.real > 0.5), "unrelated hashes disagree on most keys");
}
