//! libmemcached 1.1.4's two ketama distributions: `MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA`
//! weighted (`KETAMA_WEIGHTED`: points by weight, single-precision arithmetic) and plain
//! (`KETAMA`: 100 points per server, MD5 word 0 of each label). Labels leave the port out when
//! it is 11211 (hosts.cc `update_continuum`); the earlier server wins a tie
//! (`continuum_item_cmp`).

use super::about::KeySpace;
use super::continuum::{ketama_counts, md5_quad_label, md5_word, push_md5_quads, Continuum, Lookup, Rules, Share, Tie};
use super::entry::{recipe, Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Recipe, ServerList, Weights};
use super::members::whole_weight;
use super::options::{OptionKind, OptionSpec, OptionValue, Scope};
use super::Algorithm;
use crate::decimal::shortest;
use crate::{Error, NodeSpec};

const DOWN: OnDown = OnDown::Rebuild(
    "With MEMCACHED_BEHAVIOR_AUTO_EJECT_HOSTS, libmemcached marks a server dead after server_failure_limit \
     failures and rebuilds the continuum from the live servers only (update_continuum skips servers whose \
     next_retry is in the future); point counts are recomputed over the live servers and weights. Without \
     auto-eject, requests for its keys fail.",
);

const STALE: OnStale = OnStale::ClientSide(
    "Each libmemcached client keeps its own server list: until it is updated, moved keys go to their old servers, where reads miss or find stale values and writes leave two copies.",
);

pub(crate) const WEIGHTED: Entry = Entry {
    name: "libmemcached-weighted",
    label: "libmemcached, weighted ketama",
    family: Family::Client,
    source: "libmemcached 1.1.4 (hosts.cc update_continuum): every point and every key's server",
    options: &[],
    weights: Weights::Any,
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| {
        format!(
            "libmemcached's weighted ketama: MD5 points per server by weight (the port left out of labels when it \
             is 11211), on {}.",
            (WEIGHTED.key_space)(o).words()
        )
    },
    on_down: DOWN,
    on_stale: STALE,
    leaving: Leaving::Any,
    extras: Extras { server_list: Some(ServerList::Libmemcached), recipe: Some(&RECIPE_WEIGHTED), ..Extras::NONE },
};

/// How WEIGHTED picks a server, step by step.
const RECIPE_WEIGHTED: Recipe = Recipe {
    server_label: recipe::LABEL_WITHOUT_DEFAULT_PORT,
    points: "by weight (its single-precision formula), four per MD5 digest",
    key_hash: recipe::MD5_WORD0,
    pick: recipe::FIRST_AT_OR_AFTER,
    order: recipe::ORDER_TIES,
};

/// How [`WEIGHTED`] is built.
pub(crate) const BUILD_WEIGHTED: Build =
    Build::Staged(|o, nodes, _| Ok(Box::new(Continuum::building(&WEIGHTED_RULES, o, nodes)?)));

pub(crate) const KETAMA: Entry = Entry {
    name: "libmemcached-ketama",
    label: "libmemcached, ketama",
    family: Family::Client,
    source: "libmemcached 1.1.4 (hosts.cc, behavior.cc): 100 points per server; a server of weight > 1 added \
             after the distribution is set turns weighted ketama on",
    options: &[&KETAMA_WEIGHTED],
    weights: Weights::Any,
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| {
        format!(
            "libmemcached's ketama: 100 MD5 points per server on {}; {}.",
            (KETAMA.key_space)(o).words(),
            if ketama_weighted(o) {
                "a server of weight > 1 switches libmemcached to weighted ketama (the distribution was set first)"
            } else {
                "weights do not count (the distribution was set after the servers), until a server of weight > 1 is \
                 added"
            }
        )
    },
    on_down: DOWN,
    on_stale: STALE,
    leaving: Leaving::Any,
    extras: Extras { server_list: Some(ServerList::Libmemcached), recipe: Some(&RECIPE_KETAMA), ..Extras::NONE },
};

/// How KETAMA picks a server, step by step.
const RECIPE_KETAMA: Recipe = Recipe {
    server_label: recipe::LABEL_WITHOUT_DEFAULT_PORT,
    points: "100 per server, one per MD5 digest (a weight > 1 switches to the weighted points)",
    key_hash: recipe::MD5_WORD0,
    pick: recipe::FIRST_AT_OR_AFTER,
    order: recipe::ORDER_TIES,
};

/// How [`KETAMA`] is built.
pub(crate) const BUILD_KETAMA: Build =
    Build::Staged(|o, nodes, _| Ok(Box::new(Continuum::building(&KETAMA_RULES, o, nodes)?)));

/// Whether weights count in `KETAMA` mode: libmemcached's own `ketama.weighted` flag, which
/// the order of calls decides. `memcached_server_add_with_weight` of a weight > 1 turns it on
/// once the distribution is consistent (hosts.cc `server_add`), and
/// `memcached_behavior_set_distribution(KETAMA)` turns it off (behavior.cc). `true`: the
/// distribution is set first (PHP's `Memcached::setOption` before `addServers`), so a server
/// of weight > 1 switches to weighted ketama; `false`: the servers are added first (pylibmc
/// passes its servers to the constructor, then sets `ketama`), so weights do not count until
/// a server of weight > 1 is added later.
pub(crate) const KETAMA_WEIGHTED: OptionSpec = OptionSpec {
    name: "ketamaWeighted",
    kind: OptionKind::Flag { default: true },
    help: "libmemcached KETAMA: whether the distribution was set before the servers were added, so a server of \
           weight > 1 turns weighted ketama on (false: servers first, as pylibmc does; weights do not count)",
    scope: Scope::Everywhere,
    link: "kw",
    refused: None,
    get: |o| Some(OptionSpec::param(o, "ketamaWeighted").unwrap_or(OptionValue::Flag(true))),
    set: |o, v| {
        o.params.insert("ketamaWeighted", v);
        Ok(())
    },
};

fn ketama_weighted(o: &super::Options) -> bool {
    (KETAMA_WEIGHTED.get)(o).is_none_or(|v| v.flag())
}

static WEIGHTED_RULES: Rules = Rules {
    algorithm: Algorithm::LibmemcachedWeighted,
    bits: 32,
    tie: Tie::EarlierAdded,
    lookup_cost: 12,
    per_node: |_| Ok(0),
    check: |spec, _| check(Algorithm::LibmemcachedWeighted, spec),
    // hosts.cc: every step in float, plus 1e-10F, floor, then × 4.
    point_counts: |nodes, _| ketama_counts(nodes, Share::Float),
    push_points: |name, count, idx, out| push_md5_quads(&label_prefix(name), count, idx, out),
    // libmemcached skips hashing with one server; the answer is the same.
    key_position: |key| md5_word(key, 0),
    point_label: Some(|name, k| md5_quad_label(&label_prefix(name), k)),
    describe_key: |_, position| format!("md5 0x{position:08x}"),
    lookup: Lookup::AtOrAfter,
    weighted_switch: None,
    switch_starts_off: |_| false,
    written_weight: |_| Ok(None),
    explicit: None,
    check_total: |_| Ok(()),
};

static KETAMA_RULES: Rules = Rules {
    algorithm: Algorithm::LibmemcachedKetama,
    per_node: |_| Ok(0),
    check: |spec, _| check(Algorithm::LibmemcachedKetama, spec),
    point_counts: |nodes, _| vec![100; nodes.len()],
    push_points: |name, count, idx, out| {
        let prefix = label_prefix(name);
        out.extend((0..count).map(|i| (md5_word(format!("{prefix}-{i}").as_bytes(), 0), idx)));
    },
    point_label: Some(|name, k| format!("{}-{k}", label_prefix(name))),
    // A weight > 1 switches libmemcached to weighted ketama (hosts.cc `server_add`).
    weighted_switch: Some(&WEIGHTED_RULES),
    switch_starts_off: |o| !ketama_weighted(o),
    ..WEIGHTED_RULES
};

const MEMCACHED_DEFAULT_PORT: u16 = 11211;

fn check(algorithm: Algorithm, spec: &NodeSpec) -> Result<(), Error> {
    crate::node::check_weight(spec.weight)?;
    // libmemcached-ketama too: its uint32 weights switch it to weighted ketama above 1.
    check_memcached_weight(algorithm, spec.weight)?;
    host_port(&spec.name).map(drop)
}

/// libketama's and libmemcached's weights: whole numbers that fit a `uint32_t`.
pub(crate) fn check_memcached_weight(algorithm: Algorithm, weight: f64) -> Result<(), Error> {
    whole_weight(algorithm.name(), None, weight)?;
    if weight > f64::from(u32::MAX) {
        return Err(Error::weight_refused(
            weight,
            format!(
                "{} weights are whole numbers up to {} (libmemcached keeps a weight in a uint32_t; got {})",
                algorithm.name(),
                u32::MAX,
                shortest(weight)
            ),
        ));
    }
    Ok(())
}

/// `host:port` as libmemcached stores it: no port or port 0 is 11211
/// (`memcached_server_add_with_weight`); a unix socket, a host starting with '/', is port 0
/// whatever port follows (`memcached_server_add_unix_socket`; server_list.cc
/// `memcached_server_list_append_with_weight`).
fn host_port(name: &str) -> Result<(&str, u16), Error> {
    let (host, port) = match name.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() => (
            host,
            port.parse().map_err(|_| {
                Error::node_refused(name, format!("{name:?}: the port after ':' must be a number from 0 to 65535"))
            })?,
        ),
        _ => (name, MEMCACHED_DEFAULT_PORT),
    };
    Ok(match port {
        _ if host.starts_with('/') => (host, 0),
        0 => (host, MEMCACHED_DEFAULT_PORT),
        port => (host, port),
    })
}

/// libmemcached's point label without the `-i` (hosts.cc `update_continuum`): `host` on
/// port 11211, else `host:port` (`/path:0` for a unix socket).
fn label_prefix(name: &str) -> String {
    match host_port(name) {
        Ok((host, MEMCACHED_DEFAULT_PORT)) => host.to_string(),
        Ok((host, port)) => format!("{host}:{port}"),
        Err(_) => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Node;

    #[test]
    fn memcached_labels_drop_the_default_port() {
        assert_eq!(label_prefix("10.0.1.1:11211"), "10.0.1.1");
        assert_eq!(label_prefix("10.0.1.1"), "10.0.1.1");
        assert_eq!(label_prefix("10.0.1.2:11212"), "10.0.1.2:11212");
        assert!(host_port("cache:port").is_err());
        assert_eq!(label_prefix("10.0.1.1:0"), "10.0.1.1");
        assert_eq!(label_prefix("/tmp/a.sock"), "/tmp/a.sock:0");
        assert_eq!(label_prefix("/tmp/a.sock:11212"), "/tmp/a.sock:0");
    }

    #[test]
    fn libmemcached_weighted_counts_use_single_precision() {
        // 25 equal servers: 0.04f * 160 / 4 * 25 = 39.99999 in float, so 39 labels, 156 points.
        let nodes: Vec<Node> =
            (0..25).map(|i| Node { name: format!("s{i}"), weight: 1.0, zone: None, points: 0 }).collect();
        assert!(ketama_counts(&nodes, Share::Float).iter().all(|&c| c == 156));
    }
}
