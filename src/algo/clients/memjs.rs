//! memjs 1.3 (Node.js, `Client.create`): a key goes to server `hashCode(key) %
//! servers.length` (`Client.prototype.getServer`), where `hashCode` is Java's string hash
//! over the key's UTF-16 code units in 32-bit signed arithmetic, then `Math.abs`
//! (`lib/memjs/utils.js`); one server takes every key. Servers are the `host:port` items of
//! the comma-separated list (`user:pass@` allowed, the port defaults to 11211); the names
//! do not change the placement; memjs has no weights.

use super::about::KeySpace;
use super::entry::{recipe, Build, Entry, Extras, Family, Leaving, OnDown, Recipe, Weights};
use super::hash_mod::{self, Buckets};
use super::spymemcached::java_hash_code;
use super::Algorithm;
use crate::Error;

pub(crate) const ENTRY: Entry = Entry {
    name: "memjs",
    label: "memjs (Node.js)",
    family: Family::Client,
    source: "memjs 1.3.2 lib/memjs/memjs.js (Client.create, getServer, server), utils.js (hashCode)",
    options: &[],
    weights: Weights::One,
    arcs: false,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 31 },
    describe: |_| {
        "memjs: |Java string hash| of the key modulo the number of servers: not consistent, nearly every key moves \
         when a server joins."
            .to_string()
    },
    on_down: OnDown::Unavailable {
        text: "memjs retries a failed server (retries: 2) and then fails the request; only with failover: true does \
               it skip the server for failoverTime (60 s) and take the next one in list order. ringlab shows the \
               default: the key has no server.",
        why: "memjs fails the request (failover is off by default)",
    },
    on_stale: hash_mod::STALE,
    leaving: Leaving::Any,
    extras: Extras { recipe: Some(&RECIPE), ..Extras::NONE },
};

/// How it picks a server, step by step.
const RECIPE: Recipe = Recipe {
    server_label: recipe::NO_LABEL,
    points: "a bucket per server (no weights)",
    key_hash: "|Java's String.hashCode()| of the key, 32-bit",
    pick: "bucket hash % servers",
    order: recipe::ORDER_MODULO,
};
pub(crate) const BUILD: Build = Build::Whole(|_, nodes, _| Ok(Box::new(Buckets::new(&RULES, nodes)?)));

/// `Math.abs(hash | 0)`: from 0 to 2^31.
fn hash_code(key: &[u8]) -> u64 {
    u64::from((java_hash_code(key) as i32).unsigned_abs())
}

static RULES: hash_mod::Rules = hash_mod::Rules {
    algorithm: Algorithm::Memjs,
    hash: hash_code,
    max_hash: 1 << 31,
    // |h| of a uniform 32-bit h: two values each, but 0 and 2^31 one.
    common: 2,
    special: &[(0, 1), (1 << 31, 1)],
    buckets: |_| 1,
    check: |spec| {
        if spec.name.contains(',') {
            return Err(Error::node_refused(
                &spec.name,
                format!("{:?}: memjs splits its server list at ','", spec.name),
            ));
        }
        Ok(())
    },
    next_in_list: false,
    describe_hash: "|hashCode|",
};
