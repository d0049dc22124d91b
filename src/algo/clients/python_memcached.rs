//! python-memcached 1.59 (`memcache.Client`): the servers in order, each repeated by its
//! weight, make the bucket list (`_init_buckets`); a key goes to bucket
//! `cmemcache_hash(key) % len(buckets)` (`_get_server`), where `cmemcache_hash` is
//! `((crc32(key) & 0xffffffff) >> 16) & 0x7fff`, or 1 where that is 0: 15 bits of the CRC.
//! A key is hashed as its UTF-8 bytes (`_encode_key`). Servers are `host:port` strings (the
//! port defaults to 11211; `inet6:[::1]:port`, `unix:/path`), weights whole numbers (the
//! `("host:port", weight)` tuple); the names do not change the placement.

use super::about::KeySpace;
use super::continuum::crc32;
use super::entry::{recipe, Build, Entry, Extras, Family, Leaving, OnDown, Recipe, Weights};
use super::hash_mod::{self, Buckets};
use super::libmemcached::check_memcached_weight;
use super::Algorithm;
use crate::{Error, NodeSpec};

pub(crate) const ENTRY: Entry = Entry {
    name: "python-memcached",
    label: "python-memcached",
    family: Family::Client,
    source: "python-memcached 1.59 memcache.py (cmemcache_hash, _init_buckets, _get_server, _Host)",
    options: &[],
    weights: Weights::Checked(|w| check_memcached_weight(Algorithm::PythonMemcached, w)),
    arcs: false,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 15 },
    describe: |_| {
        "python-memcached: 15 bits of the key's CRC-32 modulo the bucket list (each server repeated by its weight): \
         not consistent, nearly every key moves when a server joins."
            .to_string()
    },
    on_down: OnDown::Unavailable {
        text: "python-memcached marks a server dead for dead_retry (30 s) and re-hashes its keys, \
               cmemcache_hash(str(hash) + str(i)), up to 10 times for a live bucket (_get_server); ringlab does \
               not reproduce that failover: the key is shown without its server.",
        why: "python-memcached would re-hash it to another bucket, which ringlab does not reproduce",
    },
    on_stale: hash_mod::STALE,
    leaving: Leaving::Any,
    extras: Extras { recipe: Some(&RECIPE), ..Extras::NONE },
};

/// How it picks a server, step by step.
const RECIPE: Recipe = Recipe {
    server_label: recipe::NO_LABEL,
    points: "a bucket per unit of weight",
    key_hash: "15 bits of CRC-32 of the key (0 taken as 1)",
    pick: "bucket hash % buckets",
    order: recipe::ORDER_MODULO,
};
pub(crate) const BUILD: Build = Build::Whole(|_, nodes, _| Ok(Box::new(Buckets::new(&RULES, nodes)?)));

/// `cmemcache_hash`.
fn cmemcache_hash(key: &[u8]) -> u64 {
    match (crc32(key) >> 16) & 0x7fff {
        0 => 1,
        h => h,
    }
}

/// `_Host.__init__`'s patterns: `unix:path`, `inet6:[host](:port)?`, `(inet:)?host(:port)?`
/// (a host without ':'; the port digits).
fn check_server(spec: &NodeSpec) -> Result<(), Error> {
    let name = spec.name.as_str();
    if name.starts_with("unix:") {
        return Ok(());
    }
    let host_port = |text: &str| {
        let (host, port) = text.split_once(':').map_or((text, None), |(h, p)| (h, Some(p)));
        !host.is_empty() && port.is_none_or(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    let ok = match name.strip_prefix("inet6:[") {
        Some(rest) => rest.split_once(']').is_some_and(|(host, tail)| {
            !host.is_empty()
                && !host.contains('[')
                && (tail.is_empty()
                    || tail.strip_prefix(':').is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())))
        }),
        None => host_port(name.strip_prefix("inet:").unwrap_or(name)),
    };
    if ok {
        Ok(())
    } else {
        Err(Error::node_refused(name, format!("python-memcached cannot parse the server {name:?} (host:port)")))
    }
}

static RULES: hash_mod::Rules = hash_mod::Rules {
    algorithm: Algorithm::PythonMemcached,
    hash: cmemcache_hash,
    max_hash: 0x7fff,
    // Of the CRC's 2^15 values of bits 16..31, 0 counts as 1.
    common: 1,
    special: &[(0, 0), (1, 2)],
    buckets: |weight| weight as u64,
    check: check_server,
    next_in_list: false,
    describe_hash: "cmemcache_hash",
};
