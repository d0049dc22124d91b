//! npm `hashring` 3.2 as the npm `memcached` client 2.2 configures it (`new HashRing(servers,
//! 'md5', { compatibility: 'ketama', 'default port': 11211 })`, lib/memcached.js): per
//! server `⌊weight / total · 40 · servers⌋` labels in double precision (`continuum`), four
//! points a label (the MD5's little-endian words); the label is `"{host}-{i}"` when the port
//! is 11211, else `"{server}-{i}"` as written; a key goes to the first point at or after its
//! MD5's first word (`find`), wrapping; the earlier server wins a tie (a stable sort).
//! Servers are `host:port` strings, weights those of the `{ "host:port": weight }` form
//! (connection-parse).

use super::about::KeySpace;
use super::continuum::{ketama_counts, md5_quad_label, md5_word, push_md5_quads, Continuum, Lookup, Rules, Share, Tie};
use super::entry::{recipe, Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Recipe, Weights};
use super::Algorithm;

pub(crate) const ENTRY: Entry = Entry {
    name: "npm-hashring",
    label: "hashring (npm memcached)",
    family: Family::Client,
    source: "hashring 3.2.0 index.js (continuum, find, hashValue) as memcached 2.2.2 lib/memcached.js configures it; connection-parse",
    options: &[],
    weights: Weights::Any,
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| {
        format!(
            "npm hashring in the memcached client: 160 MD5 points per server (scaled by weight, in doubles), labels \
             without the port when it is 11211, on {}.",
            (ENTRY.key_space)(o).words()
        )
    },
    on_down: OnDown::Unavailable {
        text: "The memcached client retries a failing server and, after `failures` (5), marks it dead: its requests \
               fail until it reconnects (`reconnect`). Only with remove: true is it taken out of the ring \
               (HashRing.remove rebuilds the continuum from the others).",
        why: "the memcached client fails its requests until it reconnects (remove: false, the default)",
    },
    on_stale: OnStale::ClientSide(
        "Each Node.js process has its own ring: until it has the new server list, it sends moved keys to their old servers, where reads miss or find stale values and writes leave two copies.",
    ),
    leaving: Leaving::Any,
    extras: Extras { recipe: Some(&RECIPE), ..Extras::NONE },
};

/// How it picks a server, step by step.
const RECIPE: Recipe = Recipe {
    server_label: recipe::LABEL_WITHOUT_DEFAULT_PORT,
    points: "⌊weight / total · 40 · servers⌋ labels (doubles), four points per MD5 digest",
    key_hash: recipe::MD5_WORD0,
    pick: recipe::FIRST_AT_OR_AFTER,
    order: recipe::ORDER_TIES,
};
pub(crate) const BUILD: Build = Build::Staged(|o, nodes, _| Ok(Box::new(Continuum::building(&RULES, o, nodes)?)));

static RULES: Rules = Rules {
    algorithm: Algorithm::NpmHashring,
    bits: 32,
    // V8's Array.prototype.sort is stable, and `find` stops at the first of equal values.
    tie: Tie::EarlierAdded,
    lookup_cost: 12,
    per_node: |_| Ok(0),
    check: |spec, _| ENTRY.weights.check(Algorithm::NpmHashring, spec.weight),
    // `Math.floor(percentage * vnodes * servers.length)`, left to right in doubles.
    point_counts: |nodes, _| ketama_counts(nodes, Share::Double),
    push_points: |name, count, idx, out| push_md5_quads(label_prefix(name), count, idx, out),
    key_position: |key| md5_word(key, 0),
    point_label: Some(|name, k| md5_quad_label(label_prefix(name), k)),
    describe_key: |_, position| format!("md5 0x{position:08x}"),
    lookup: Lookup::AtOrAfter,
    weighted_switch: None,
    switch_starts_off: |_| false,
    written_weight: |_| Ok(None),
    explicit: None,
    check_total: |_| Ok(()),
};

/// connection-parse: `host = split(':')[0]`, `port = +split(':')[1]` (JavaScript's Number());
/// the label is the host when that port is 11211, else the server as written.
fn label_prefix(name: &str) -> &str {
    let mut parts = name.split(':');
    let host = parts.next().unwrap_or("");
    match parts.next() {
        Some(port) if crate::decimal::js_number_is_11211(port) => host,
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_drop_the_default_port_as_connection_parse_reads_it() {
        assert_eq!(label_prefix("10.0.0.1:11211"), "10.0.0.1");
        assert_eq!(label_prefix("10.0.0.1:0x2bcb"), "10.0.0.1");
        assert_eq!(label_prefix("10.0.0.1: 11211"), "10.0.0.1");
        assert_eq!(label_prefix("10.0.0.1:11211:9"), "10.0.0.1");
        assert_eq!(label_prefix("10.0.0.1:11212"), "10.0.0.1:11212");
        assert_eq!(label_prefix("cache"), "cache");
        assert_eq!(label_prefix("[::1]:11211"), "[::1]:11211");
    }
}
