//! HAProxy's hash balancing (`balance hdr(...)`, `url_param`, `uri`, `hash`; HAProxy 2.6),
//! bit for bit: `hash-type consistent` (`lb_chash.c`) and `hash-type map-based` (`lb_map.c`,
//! the default). Nodes are `server` lines: the name is the server's name, the weight
//! HAProxy's `weight` (1 to 256).
//!
//! - The key's hash is `sdbm`, `djb2`, `wt6` or `crc32` of its bytes, then, with `avalanche`,
//!   Bob Jenkins' `full_hash` of that. A bare `hash-type consistent` line means
//!   **sdbm with avalanche**; a bare `map-based` line (or none) means sdbm without.
//! - `haproxy-consistent`: a server of id `puid` has `16 × weight` points at
//!   `full_hash(puid × 4096 + i)`. A key goes to the **closest** point on either side
//!   (`chash_get_server_hash`): distances `dp` back to the point before and `dn` on to the
//!   point at or after the hash; `dp <= dn` picks the point before.
//! - `haproxy-map-based`: weights are divided by their GCD (over every server, disabled ones
//!   too), a table of `Σ weight` entries is filled by smooth weighted round robin over the
//!   usable servers (`recalc_server_map`), and the key goes to entry `hash % Σ weight`.
//! - Servers without an `id` get one as HAProxy numbers them at start-up: walking the
//!   servers in order with a counter from 1, each takes the first unused id at or above the
//!   counter, and the counter steps past every server, with or without an explicit id. So
//!   adding a server at the end keeps the others' ids, but removing one renumbers every
//!   implicit id after it (and moves their points): that is what a config edit and reload does.
//! - A `disabled` server (set with [`set_down`](super::Placement::set_down)) has no points
//!   and no map entries. An empty key is balanced round robin, so `locate` answers it with
//!   an [`Error::Unsupported`]; with one usable server that server is the answer.
//!
//! ```
//! use ringlab::algo::balancers::haproxy::{HaproxyFunction, HaproxyHash};
//! use ringlab::algo::{Algorithm, Cluster, OptionValue, Options};
//! let mut options = Options::new(Algorithm::HaproxyConsistent);
//! options.set("haproxyHash", OptionValue::Text("crc32".into()))?;
//! assert_eq!(HaproxyHash::of(&options), Some(HaproxyHash { function: HaproxyFunction::Crc32, avalanche: false }));
//! let haproxy = Cluster::new(options, ["web1", "web2", "web3"])?;
//! println!("{}", haproxy.describe_key("user:42"));
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::about::KeySpace;
use super::entry::{Build, Entry, Extras, Family, LayoutSpec, Leaving, OnDown, OnStale, Weights};
use super::explain::{hex, Chain, Step, StepKind};
use super::lines::{line_nodes, Lines};
use super::options::{OptionKind, OptionSpec, OptionValue, Scope};
use super::{Algorithm, Layout, Options, Placement};
use crate::analysis::Arcs;
use crate::order::{self, Tie};
use crate::points::Points;
use crate::{Error, Node, NodeSpec};
use std::collections::BTreeSet;

const DOWN: OnDown = OnDown::Rebuild(
    "A disabled server leaves HAProxy's tree or map: the structure is rebuilt from the servers that are up.",
);

pub(crate) const CONSISTENT: Entry = Entry {
    name: "haproxy-consistent",
    label: "HAProxy, hash-type consistent",
    family: Family::Balancer,
    source: "HAProxy 2.6 lb_chash.c (chash_get_server_hash), ids as cfgparse.c assigns them",
    options: &[&HAPROXY_HASH, &HAPROXY_AVALANCHE],
    weights: Weights::Any,
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| {
        format!(
            "HAProxy `hash-type consistent`: points per server by weight from its numeric id, the key's hash ({}) \
             goes to the nearest point ({}).",
            HaproxyHash::of(o).unwrap_or(HaproxyHash::bare(true)).label(),
            (CONSISTENT.key_space)(o).words()
        )
    },
    on_down: DOWN,
    on_stale: OnStale::Proxy(
        "Each HAProxy process rebuilds its tree or map on reload or a runtime change; until one has, it sends moved keys to their old server.",
    ),
    leaving: Leaving::Any,
    extras: Extras { layout: Some(&LAYOUT), ..Extras::NONE },
};

/// How [`CONSISTENT`] is built.
pub(crate) const BUILD_CONSISTENT: Build = Build::Whole(|o, nodes, layout| with_layout(true, o, nodes, layout));

pub(crate) const MAP_BASED: Entry = Entry {
    name: "haproxy-map-based",
    label: "HAProxy, hash-type map-based",
    family: Family::Balancer,
    source: "HAProxy 2.6 lb_map.c (recalc_server_map), HAProxy's default hash-type",
    options: &[&HAPROXY_HASH, &HAPROXY_AVALANCHE],
    weights: Weights::Any,
    arcs: false,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| {
        format!(
            "HAProxy `hash-type map-based`: a table of servers by weight (reduced by their GCD), indexed by the \
             key's hash ({}) modulo its size ({}).",
            HaproxyHash::of(o).unwrap_or(HaproxyHash::bare(false)).label(),
            (MAP_BASED.key_space)(o).words()
        )
    },
    on_down: DOWN,
    on_stale: OnStale::Proxy(
        "Each HAProxy process rebuilds its tree or map on reload or a runtime change; until one has, it sends moved keys to their old server.",
    ),
    leaving: Leaving::Any,
    extras: Extras { layout: Some(&LAYOUT), ..Extras::NONE },
};

/// How [`MAP_BASED`] is built.
pub(crate) const BUILD_MAP_BASED: Build = Build::Whole(|o, nodes, layout| with_layout(false, o, nodes, layout));

/// `hash-type consistent` or `map-based`, with a link's explicit server ids.
fn with_layout(
    consistent: bool,
    o: &Options,
    nodes: Vec<NodeSpec>,
    layout: &Layout,
) -> Result<Box<dyn Placement>, Error> {
    let extra = match layout.parts_for(&LAYOUT) {
        Some(ids) => ids
            .iter()
            .map(|id| {
                Ok(ServerExtra { id: read_id(id).map_err(|e| Error::invalid_option(LAYOUT.key, e))?, disabled: false })
            })
            .collect::<Result<_, Error>>()?,
        None => vec![ServerExtra::default(); nodes.len()],
    };
    Ok(Box::new(Haproxy::with_extra(consistent, HaproxyHash::of(o), nodes, extra)?))
}

/// The servers' explicit `id`s, an import's, which the nodes alone do not give (the others
/// are numbered at start-up). A link carries them in `ids`, empty for a server without one:
/// `ids=7,,2`.
pub(crate) const LAYOUT: LayoutSpec =
    LayoutSpec { key: "ids", what: "server ids", check: |part| read_id(part).map(drop), of_owners: None };

/// The explicit server ids by server a layout holds, if it is HAProxy's and reads.
pub fn ids_of(layout: &Layout) -> Option<Vec<Option<u32>>> {
    layout.parts_for(&LAYOUT)?.iter().map(|part| read_id(part).ok()).collect()
}

/// A server's id as [`LAYOUT`] writes it (empty: none).
fn read_id(text: &str) -> Result<Option<u32>, String> {
    match text {
        "" => Ok(None),
        id => id.parse().map(Some).map_err(|_| format!("{id:?} is not a server id")),
    }
}

/// The placement of a `backend` section: `hash-type consistent` or `map-based`, its `hash-type`
/// function (`None`: a bare line) and its servers in order with their ids and `disabled` marks.
pub(crate) fn backend(
    consistent: bool,
    hash: Option<HaproxyHash>,
    servers: Vec<NodeSpec>,
    extra: Vec<ServerExtra>,
) -> Result<super::Cluster, Error> {
    let mut options = Options::new(if consistent { Algorithm::HaproxyConsistent } else { Algorithm::HaproxyMapBased });
    HaproxyHash::put(hash, &mut options);
    let haproxy = Haproxy::with_extra(consistent, hash, servers, extra)?;
    Ok(super::Cluster::from_placement(Box::new(haproxy), options))
}

fn function_names() -> Vec<&'static str> {
    HaproxyFunction::ALL.iter().map(|f| f.name()).collect()
}

/// The `hash-type` line's function.
pub(crate) const HAPROXY_HASH: OptionSpec = OptionSpec {
    name: "haproxyHash",
    kind: OptionKind::Choice { choices: function_names, default: None },
    help: "hash-type's function; unset is a bare hash-type line (sdbm, with avalanche for consistent)",
    scope: Scope::Everywhere,
    link: "hh",
    refused: Some(|v| {
        HaproxyFunction::from_name(v.name())
            .err()
            .unwrap_or_else(|| Error::invalid_option("haproxyHash", String::new()))
    }),
    get: |o| HaproxyHash::of(o).map(|h| OptionValue::Text(h.function.name().to_string())),
    set: |o, v| {
        let function = HaproxyFunction::from_name(v.name())?;
        let avalanche = HaproxyHash::of(o).is_some_and(|h| h.avalanche);
        HaproxyHash::put(Some(HaproxyHash { function, avalanche }), o);
        Ok(())
    },
};

/// The `hash-type` line's `avalanche` modifier.
pub(crate) const HAPROXY_AVALANCHE: OptionSpec = OptionSpec {
    name: "haproxyAvalanche",
    kind: OptionKind::Flag { default: false },
    help: "hash-type's avalanche modifier (with haproxyHash)",
    scope: Scope::Everywhere,
    link: "hv",
    refused: None,
    get: |o| Some(OptionValue::Flag(HaproxyHash::of(o).is_some_and(|h| h.avalanche))),
    set: |o, v| match HaproxyHash::of(o) {
        Some(h) => {
            HaproxyHash::put(Some(HaproxyHash { avalanche: v.flag(), ..h }), o);
            Ok(())
        }
        None if !v.flag() => Ok(()),
        None => Err(Error::invalid_option(
            "haproxyAvalanche",
            "haproxyAvalanche (a link's hv) needs hh (haproxyHash, the hash function)",
        )),
    },
};

const CRC32: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);
/// `SRV_UWGHT_MAX`: the largest `weight`.
pub const MAX_WEIGHT: u32 = 256;
/// `BE_WEIGHT_SCALE`: points per unit of weight.
const WEIGHT_SCALE: u32 = 16;
/// `SRV_EWGHT_RANGE`: the spacing of server ids in a point's input.
const ID_RANGE: u32 = MAX_WEIGHT * WEIGHT_SCALE;
/// The largest server id whose points' inputs (`id × 4096 + i`) stay within HAProxy's int.
pub const MAX_ID: u32 = (i32::MAX as u32) / ID_RANGE;

/// HAProxy's hash functions (`hash-type ... <function>`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HaproxyFunction {
    #[default]
    Sdbm,
    Djb2,
    Wt6,
    Crc32,
}

impl HaproxyFunction {
    pub const ALL: [HaproxyFunction; 4] =
        [HaproxyFunction::Sdbm, HaproxyFunction::Djb2, HaproxyFunction::Wt6, HaproxyFunction::Crc32];

    pub fn name(self) -> &'static str {
        match self {
            HaproxyFunction::Sdbm => "sdbm",
            HaproxyFunction::Djb2 => "djb2",
            HaproxyFunction::Wt6 => "wt6",
            HaproxyFunction::Crc32 => "crc32",
        }
    }

    pub fn from_name(name: &str) -> Result<HaproxyFunction, Error> {
        HaproxyFunction::ALL.into_iter().find(|f| f.name() == name).ok_or_else(|| {
            Error::unknown_choice(
                "haproxyHash",
                name,
                format!("HAProxy's hash functions are sdbm, djb2, wt6 and crc32 (got {name:?})"),
            )
        })
    }

    /// The function over the key's bytes (`hash.c`).
    pub fn hash(self, key: &[u8]) -> u32 {
        match self {
            HaproxyFunction::Sdbm => {
                key.iter().fold(0u32, |h, &c| u32::from(c).wrapping_add(h << 6).wrapping_add(h << 16).wrapping_sub(h))
            }
            HaproxyFunction::Djb2 => {
                key.iter().fold(5381u32, |h, &c| (h << 5).wrapping_add(h).wrapping_add(u32::from(c)))
            }
            HaproxyFunction::Wt6 => wt6(key),
            HaproxyFunction::Crc32 => CRC32.checksum(key),
        }
    }
}

fn wt6(key: &[u8]) -> u32 {
    let (mut h0, mut h1) = (0xa53c_965au32, 0x5ca6_953au32);
    let (mut step0, mut step1) = (6u32, 18u32);
    for &byte in key {
        let t = u32::from(byte);
        h0 = !(h0 ^ t);
        h1 = !(h1.wrapping_add(t));
        // C's `x >> 32` is undefined; HAProxy's steps 0 and 32 never make it so in
        // practice, and rotate_left is what both shifts together mean.
        let t = h1.rotate_left(step0);
        h1 = h0.rotate_left(step1);
        h0 = t;
        let t = ((h0 >> 16) ^ h1) & 0xffff;
        step0 = t & 0x1f;
        step1 = t >> 11;
    }
    h0 ^ h1
}

/// Bob Jenkins' integer hash with HAProxy's final multiply (`full_hash`, `intops.h`).
pub fn full_hash(a: u32) -> u32 {
    let mut a = a;
    a = a.wrapping_add(0x7ed5_5d16).wrapping_add(a << 12);
    a = (a ^ 0xc761_c23c) ^ (a >> 19);
    a = a.wrapping_add(0x1656_67b1).wrapping_add(a << 5);
    a = a.wrapping_add(0xd3a2_646c) ^ (a << 9);
    a = a.wrapping_add(0xfd70_46c5).wrapping_add(a << 3);
    a = (a ^ 0xb55a_4f09) ^ (a >> 16);
    a.wrapping_mul(3_221_225_473)
}

/// A `hash-type` line's function and modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HaproxyHash {
    pub function: HaproxyFunction,
    pub avalanche: bool,
}

impl HaproxyHash {
    /// What a `hash-type` line without a function means: sdbm, with avalanche only for
    /// `consistent` (`cfgparse-listen.c`).
    pub fn bare(consistent: bool) -> HaproxyHash {
        HaproxyHash { function: HaproxyFunction::Sdbm, avalanche: consistent }
    }

    /// The hash HAProxy balances `key` by.
    pub fn hash(self, key: &[u8]) -> u32 {
        let h = self.function.hash(key);
        if self.avalanche {
            full_hash(h)
        } else {
            h
        }
    }

    pub fn label(self) -> String {
        format!("{}{}", self.function.name(), if self.avalanche { " avalanche" } else { "" })
    }

    /// The `hash-type` line `options` hold (`None`: a bare line), kept in their
    /// [`params`](Options::params) under its two options' names (the modifier only when on).
    pub fn of(options: &Options) -> Option<HaproxyHash> {
        let function = HaproxyFunction::from_name(options.params.get(HAPROXY_HASH.name)?.name()).ok()?;
        Some(HaproxyHash { function, avalanche: options.params.get(HAPROXY_AVALANCHE.name).is_some_and(|v| v.flag()) })
    }

    /// Makes `hash` the `hash-type` line `options` hold ([`HaproxyHash::of`]).
    fn put(hash: Option<HaproxyHash>, options: &mut Options) {
        options.params.remove(HAPROXY_AVALANCHE.name);
        match hash {
            None => {
                options.params.remove(HAPROXY_HASH.name);
            }
            Some(hash) => {
                options.params.insert(HAPROXY_HASH.name, OptionValue::Text(hash.function.name().to_string()));
                if hash.avalanche {
                    options.params.insert(HAPROXY_AVALANCHE.name, OptionValue::Flag(true));
                }
            }
        }
    }
}

/// One server line's HAProxy-only settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ServerExtra {
    pub(crate) id: Option<u32>,
    pub(crate) disabled: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct Haproxy {
    consistent: bool,
    hash: HaproxyHash,
    nodes: Vec<Node>,
    extra: Vec<ServerExtra>,
    /// The id each server has (explicit or assigned).
    puids: Vec<u32>,
    /// Consistent: the usable servers' points, deduplicated, as HAProxy's tree holds them.
    tree: Points,
    /// Consistent: the same circle as "first point at or after" arcs, with a boundary at
    /// each midpoint between two points, so shares and migrations are exact.
    arcs: Points,
    /// Map-based: the table, as server indices.
    table: Vec<u32>,
    /// The servers not disabled, in order (each lookup asks how many).
    usable: Vec<usize>,
}

impl Haproxy {
    pub(crate) fn with_extra(
        consistent: bool,
        hash: Option<HaproxyHash>,
        specs: Vec<NodeSpec>,
        extra: Vec<ServerExtra>,
    ) -> Result<Haproxy, Error> {
        let mut haproxy = Haproxy {
            consistent,
            hash: hash.unwrap_or(HaproxyHash::bare(consistent)),
            nodes: Vec::new(),
            extra: Vec::new(),
            puids: Vec::new(),
            tree: Points::new(32),
            arcs: Points::new(32),
            table: Vec::new(),
            usable: Vec::new(),
        };
        haproxy.rebuild(specs, extra)?;
        Ok(haproxy)
    }
}

/// Server lines, each with its HAProxy-only settings.
impl Lines for Haproxy {
    type Extra = ServerExtra;

    fn lines(&self) -> (&[Node], &[ServerExtra]) {
        (&self.nodes, &self.extra)
    }

    fn rebuild(&mut self, specs: Vec<NodeSpec>, extra: Vec<ServerExtra>) -> Result<(), Error> {
        let consistent = self.consistent;
        let mut nodes =
            line_nodes(specs, "HAProxy", Some(MAX_WEIGHT), |w| if consistent { w as u32 * WEIGHT_SCALE } else { 0 })?;
        let puids = assign_ids(&extra)?;
        let weights: Vec<u32> = nodes.iter().map(|n| n.weight as u32).collect();
        let usable: Vec<usize> = (0..nodes.len()).filter(|&i| !extra[i].disabled).collect();
        let (mut tree, mut arcs, mut table) = (Points::new(32), Points::new(32), Vec::new());
        if self.consistent {
            let mut entries: Vec<(u64, u32)> = Vec::new();
            for &i in &usable {
                let base = puids[i] * ID_RANGE;
                entries.extend((0..weights[i] * WEIGHT_SCALE).map(|j| (u64::from(full_hash(base + j)), i as u32)));
            }
            // ebtree keeps equal keys in insertion order and finds the first: servers in
            // order (the earlier index), each server's points in order.
            order::sort_points(&mut entries, Tie::Earlier);
            entries.dedup_by_key(|e| e.0);
            arcs.set(&closest_as_arcs(&entries));
            tree.set(&entries);
        } else {
            table = map_table(&weights, &usable)?;
        }
        // Points actually placed: none for a disabled server; table entries when map-based.
        let mut entries = vec![0u32; nodes.len()];
        table.iter().for_each(|&t| entries[t as usize] += 1);
        for (i, node) in nodes.iter_mut().enumerate() {
            if !self.consistent {
                node.points = entries[i];
            } else if extra[i].disabled {
                node.points = 0;
            }
        }
        self.nodes = nodes;
        self.extra = extra;
        self.puids = puids;
        self.tree = tree;
        self.arcs = arcs;
        self.table = table;
        self.usable = usable;
        Ok(())
    }
}

impl Haproxy {
    fn usable_count(&self) -> usize {
        self.usable.len()
    }

    /// `chash_get_server_hash`: the closest point's server, the one before on a tie.
    fn closest(&self, hash: u32) -> usize {
        self.tree.owner(self.nearest(hash).chosen()) as usize
    }

    /// The points either side of `hash` and how far each is (the tree is not empty).
    fn nearest(&self, hash: u32) -> Nearest {
        let next = self.tree.successor(u64::from(hash));
        let prev = if next == 0 { self.tree.len() - 1 } else { next - 1 };
        let dp = hash.wrapping_sub(self.tree.position(prev) as u32);
        let dn = (self.tree.position(next) as u32).wrapping_sub(hash);
        Nearest { prev, next, dp, dn }
    }

    /// What HAProxy hashed to put server `owner`'s point at `position`: `id × 4096 + i`.
    fn point_label(&self, owner: usize, position: u64) -> Option<String> {
        let (id, count) = (self.puids[owner], self.nodes[owner].weight as u32 * WEIGHT_SCALE);
        let i = (0..count).find(|&i| u64::from(full_hash(id * ID_RANGE + i)) == position)?;
        Some(format!("full_hash({id} × {ID_RANGE} + {i}): {}'s point {i} (server id {id})", self.nodes[owner].name))
    }
}

/// The two points around a key's hash on HAProxy's tree and their distances.
struct Nearest {
    prev: usize,
    next: usize,
    dp: u32,
    dn: u32,
}

impl Nearest {
    /// The closer point, the one before on a tie (`dp <= dn`).
    fn chosen(&self) -> usize {
        if self.dp <= self.dn {
            self.prev
        } else {
            self.next
        }
    }
}

/// HAProxy's start-up numbering (`check_config_validity`): a counter from 1 steps past every
/// server; a server without an id takes the first unused id at or above the counter.
fn assign_ids(extra: &[ServerExtra]) -> Result<Vec<u32>, Error> {
    let mut used = BTreeSet::new();
    for id in extra.iter().filter_map(|e| e.id) {
        if id == 0 || id > MAX_ID {
            return Err(Error::out_of_range(
                "id",
                f64::from(id),
                (1.0, f64::from(MAX_ID)),
                format!("server ids are from 1 to {MAX_ID} (got {id})"),
            ));
        }
        if !used.insert(id) {
            return Err(Error::invalid_option("id", format!("server id {id} is used twice")));
        }
    }
    let mut next = 1u32;
    let mut out = Vec::with_capacity(extra.len());
    for e in extra {
        let id = match e.id {
            Some(id) => id,
            None => {
                while used.contains(&next) {
                    next += 1;
                }
                used.insert(next);
                next
            }
        };
        if id > MAX_ID {
            return Err(Error::out_of_range(
                "id",
                f64::from(id),
                (1.0, f64::from(MAX_ID)),
                format!("server ids are from 1 to {MAX_ID} (one would get {id})"),
            ));
        }
        out.push(id);
        next += 1;
    }
    Ok(out)
}

/// The closest-point rule as "first point at or after" arcs: between points `a` and `b`,
/// hashes up to `a + ⌊(b - a) / 2⌋` are nearer `a` (or tied, which goes to `a`).
fn closest_as_arcs(points: &[(u64, u32)]) -> Vec<(u64, u32)> {
    let n = points.len();
    let mut out = Vec::with_capacity(2 * n);
    for k in 0..n {
        let (b, owner) = points[k];
        let (a, before) = points[(k + n - 1) % n];
        let gap = (b as u32).wrapping_sub(a as u32);
        if n > 1 && gap / 2 > 0 {
            out.push((u64::from((a as u32).wrapping_add(gap / 2)), before));
        }
        out.push((b, owner));
    }
    // No ties: the points are distinct and each midpoint lies strictly between two of them.
    order::sort_points(&mut out, Tie::Earlier);
    out
}

/// `init_server_map` + `recalc_server_map`: weights over their GCD (all servers), then each
/// entry goes to the usable server whose score, raised by its weight, is highest
/// (`(score + total) / total`, the earliest on a tie), which then pays `total`.
///
/// HAProxy rescans every server for every entry (`Σ weight × servers`: minutes at 16,384
/// servers). The same choices come here in `O(Σ weight × log servers)`: a server's
/// `(score + total) / total` changes only when its score crosses a multiple of `total` (known
/// in advance: the score grows by the weight each entry) or when it is chosen, so a heap of
/// those entries and a tree of the values (the earliest maximum at its root) replace the scan.
/// Past [`MAX_MAP_TABLE`](crate::limits::MAX_MAP_TABLE) entries it is refused.
fn map_table(weights: &[u32], usable: &[usize]) -> Result<Vec<u32>, Error> {
    let eweight = reduced_weights(weights);
    let total: i64 = usable.iter().map(|&i| eweight[i]).sum();
    let what = "entries in HAProxy's map-based table (the weights over their GCD)";
    crate::limits::check(what, total as u64, crate::limits::MAX_MAP_TABLE)?;
    if total <= 1 {
        // One entry: the first usable server, unscored (HAProxy's divide-overflow guard).
        return Ok(usable.iter().take(total as usize).map(|&i| i as u32).collect());
    }
    let weight: Vec<i64> = usable.iter().map(|&i| eweight[i]).collect();
    let mut chosen = vec![0i64; usable.len()];
    // The value at `entry` (1-based): by then every usable score was raised `entry` times.
    let value = |p: usize, chosen: i64, entry: i64| (entry * weight[p] - total * chosen + total) / total;
    // The first entry after `entry` at which the raises alone change that value.
    let next_change = |p: usize, chosen: i64, entry: i64| -> Option<i64> {
        let w = weight[p];
        if w == 0 {
            return None;
        }
        let n = entry * w - total * chosen + total;
        let v = n / total; // Rust and C both truncate toward zero.
        let threshold = if v >= 0 { (v + 1) * total } else { v * total + 1 };
        Some(entry + (threshold - n + w - 1) / w).filter(|&at| at <= total)
    };
    let mut tree = EarliestMax::new((0..usable.len()).map(|p| value(p, 0, 1)).collect());
    // (entry, position, version): a position's older entries are stale once it is chosen.
    let mut due = std::collections::BinaryHeap::new();
    let mut version = vec![0u32; usable.len()];
    for p in 0..usable.len() {
        if let Some(at) = next_change(p, 0, 1) {
            due.push(std::cmp::Reverse((at, p, 0u32)));
        }
    }
    let mut table = Vec::with_capacity(total as usize);
    for entry in 1..=total {
        while let Some(&std::cmp::Reverse((at, p, v))) = due.peek() {
            if at > entry {
                break;
            }
            due.pop();
            if v != version[p] {
                continue;
            }
            tree.set(p, value(p, chosen[p], entry));
            if let Some(at) = next_change(p, chosen[p], entry) {
                due.push(std::cmp::Reverse((at, p, v)));
            }
        }
        let p = tree.earliest_max();
        table.push(usable[p] as u32);
        chosen[p] += 1;
        // It paid `total`: its value is looked at again at the next entry.
        version[p] += 1;
        due.push(std::cmp::Reverse((entry + 1, p, version[p])));
    }
    Ok(table)
}

/// The weights over their GCD (of all servers' non-zero weights), as `init_server_map`.
fn reduced_weights(weights: &[u32]) -> Vec<i64> {
    let gcd = weights.iter().copied().filter(|&w| w > 0).reduce(|mut g, mut w| {
        while w != 0 {
            (g, w) = (w, g % w);
        }
        g
    });
    let gcd = gcd.unwrap_or(1);
    weights.iter().map(|&w| i64::from(w.div_ceil(gcd))).collect()
}

/// Values by position, with the earliest position of the largest value at hand: a tree of
/// maxima over a power-of-two number of leaves (the earlier one wins a tie).
struct EarliestMax {
    leaves: usize,
    /// `(value, position)`; node `k`'s children are `2k` and `2k + 1`, the leaves from `leaves`.
    nodes: Vec<(i64, usize)>,
}

impl EarliestMax {
    fn new(values: Vec<i64>) -> EarliestMax {
        let leaves = values.len().next_power_of_two();
        let mut nodes = vec![(i64::MIN, usize::MAX); 2 * leaves];
        for (p, v) in values.into_iter().enumerate() {
            nodes[leaves + p] = (v, p);
        }
        let mut tree = EarliestMax { leaves, nodes };
        for k in (1..leaves).rev() {
            tree.pull(k);
        }
        tree
    }

    fn pull(&mut self, k: usize) {
        let (left, right) = (self.nodes[2 * k], self.nodes[2 * k + 1]);
        self.nodes[k] = if right.0 > left.0 { right } else { left };
    }

    fn set(&mut self, p: usize, value: i64) {
        let mut k = self.leaves + p;
        self.nodes[k].0 = value;
        while k > 1 {
            k /= 2;
            self.pull(k);
        }
    }

    fn earliest_max(&self) -> usize {
        self.nodes[1].1
    }
}

impl Placement for Haproxy {
    /// The explicit ids, where a server has one.
    fn layout(&self) -> Option<Vec<String>> {
        let id = |e: &ServerExtra| e.id.map_or(String::new(), |id| id.to_string());
        self.extra.iter().any(|e| e.id.is_some()).then(|| self.extra.iter().map(id).collect())
    }
    fn algorithm(&self) -> Algorithm {
        if self.consistent {
            Algorithm::HaproxyConsistent
        } else {
            Algorithm::HaproxyMapBased
        }
    }
    fn nodes(&self) -> &[Node] {
        &self.nodes
    }
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        self.add_line(spec)
    }
    fn remove(&mut self, name: &str) -> Result<(), Error> {
        self.remove_line(name)
    }
    fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
        if index >= self.nodes.len() {
            return Err(Error::NoNodeNumber { index, nodes: self.nodes.len() });
        }
        let (specs, mut extra) = self.edited();
        extra[index].disabled = down;
        self.rebuild(specs, extra)
    }
    fn is_down(&self, index: usize) -> bool {
        self.extra.get(index).is_some_and(|e| e.disabled)
    }
    /// The `weight` of a server line changed in place: the order, and so the ids, stay.
    fn set_weight_at(&mut self, index: usize, weight: f64) -> Option<Result<(), Error>> {
        self.reweigh_line(index, weight)
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        match self.usable_count() {
            _ if self.nodes.is_empty() => return Err(Error::EmptyRing),
            0 => return Err(Error::Unsupported("every server is disabled: HAProxy answers 503".into())),
            // `tot_used == 1`: the only usable server, whatever the key.
            1 => return Ok(self.usable[0]),
            _ if key.is_empty() => {
                return Err(Error::Unsupported(
                    "HAProxy balances an empty key round robin, so no hash decides its server".into(),
                ))
            }
            _ => {}
        }
        let hash = self.hash.hash(key);
        Ok(if self.consistent {
            self.closest(hash)
        } else {
            self.table[(hash % self.table.len() as u32) as usize] as usize
        })
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        f64::from(self.hash.hash(key)) / 4_294_967_296.0
    }
    fn describe_key(&self, key: &[u8]) -> String {
        let hash = self.hash.hash(key);
        if self.consistent && !self.nodes.is_empty() {
            let ids: Vec<String> = self.puids.iter().map(u32::to_string).collect();
            format!("{} 0x{hash:08x} (server ids {})", self.hash.label(), ids.join(", "))
        } else if self.table.is_empty() {
            format!("{} 0x{hash:08x}", self.hash.label())
        } else {
            format!(
                "{} 0x{hash:08x}, entry {} of {}",
                self.hash.label(),
                hash % self.table.len() as u32,
                self.table.len()
            )
        }
    }
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        chain.bytes("the bytes hashed: the sample's value (the header, url_param, …), as is", key);
        match self.usable.as_slice() {
            [] => {
                chain.push(Step::new(StepKind::Position, "every server is disabled", "no hash"));
                return None;
            }
            &[only] => {
                let label = "one usable server: HAProxy picks it without hashing";
                chain.push(Step::new(StepKind::Candidate, label, &self.nodes[only].name).at_node(only));
                return Some(only);
            }
            _ if key.is_empty() => {
                chain.push(Step::new(StepKind::Position, "an empty key: HAProxy balances it round robin", "no hash"));
                return None;
            }
            _ => {}
        }
        let raw = self.hash.function.hash(key);
        let hash = self.hash.hash(key);
        let fraction = f64::from(hash) / 4_294_967_296.0;
        let label = format!("{} of the key", self.hash.function.name());
        let step = Step::new(StepKind::Hash, label, hex(u64::from(raw), 32));
        chain.push(if self.hash.avalanche { step } else { step.at_fraction(fraction) });
        if self.hash.avalanche {
            let label = "avalanche: full_hash of it (Bob Jenkins' integer hash)";
            chain.push(Step::new(StepKind::Hash, label, hex(u64::from(hash), 32)).at_fraction(fraction));
        }
        if !self.consistent {
            let (size, entry) = (self.table.len() as u32, hash % self.table.len() as u32);
            let owner = self.table[entry as usize] as usize;
            let label = format!("its entry in the map of {size} (weights over their GCD, round robin by weight)");
            let value = format!("{hash} % {size} = {entry}");
            chain.push(Step::new(StepKind::Entry, label, value).at_fraction(fraction).at_node(owner));
            return Some(owner);
        }
        let near = self.nearest(hash);
        for (label, i, distance) in
            [("the point before it", near.prev, near.dp), ("the point at or after it", near.next, near.dn)]
        {
            let (at, owner) = self.tree.point(i);
            let value = format!("point {i} of {} at {}, distance {distance}", self.tree.len(), hex(at, 32));
            let fraction = at as f64 / 4_294_967_296.0;
            chain.push(Step::new(StepKind::Point, label, value).at_fraction(fraction).at_node(owner));
        }
        let chosen = near.chosen();
        let (at, owner) = (self.tree.position(chosen), self.tree.owner(chosen) as usize);
        let label = "the closer one (the one before on a tie); its label";
        let text = self.point_label(owner, at).unwrap_or_else(|| self.nodes[owner].name.clone());
        chain.push(Step::new(StepKind::Label, label, text).at_fraction(at as f64 / 4_294_967_296.0).at_node(owner));
        Some(owner)
    }
    fn arcs(&self) -> Option<&dyn Arcs> {
        (self.consistent && !self.arcs.is_empty()).then_some(self as &dyn Arcs)
    }
    fn exact_shares_are_arcs(&self) -> bool {
        false
    }
    /// Map-based: of the `2^32` hash values, `⌊(2^32 - 1 - e) / T⌋ + 1` fall on entry `e`.
    fn exact_shares(&self) -> Option<Vec<f64>> {
        if self.consistent {
            let arcs = self.arcs()?;
            return Some(crate::analysis::shares(arcs).into_iter().map(|s| s as f64 / 4_294_967_296.0).collect());
        }
        if self.table.is_empty() {
            return None;
        }
        let size = 1u64 << 32;
        let t = self.table.len() as u64;
        let mut shares = vec![0f64; self.nodes.len()];
        for (e, &owner) in self.table.iter().enumerate() {
            shares[owner as usize] += ((size - 1 - e as u64) / t + 1) as f64 / size as f64;
        }
        Some(shares)
    }
    fn memory_bytes(&self) -> usize {
        self.tree.memory_bytes()
            + self.arcs.memory_bytes()
            + self.table.capacity() * 4
            + self.nodes.iter().map(Node::memory_bytes).sum::<usize>()
    }
    fn boxed_clone(&self) -> Box<dyn Placement> {
        Box::new(self.clone())
    }
}

impl Arcs for Haproxy {
    fn size(&self) -> u128 {
        1 << 32
    }
    fn key_mapping(&self) -> String {
        format!("haproxy/{}", self.hash.label())
    }
    fn point_count(&self) -> usize {
        self.arcs.len()
    }
    fn point(&self, i: usize) -> (u64, usize) {
        self.arcs.point(i)
    }
    fn owner_of(&self, position: u64) -> Result<usize, Error> {
        self.arcs.owner_of(position).ok_or(Error::EmptyRing)
    }
    fn node_list(&self) -> &[Node] {
        &self.nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extra(ids: &[Option<u32>]) -> Vec<ServerExtra> {
        ids.iter().map(|&id| ServerExtra { id, disabled: false }).collect()
    }

    #[test]
    fn implicit_ids_skip_used_ones_and_the_counter_steps_past_every_server() {
        // Worked by hand from check_config_validity: s1 takes 2 (1 is used), the counter is
        // then 3, s2 (id 1) moves it to 4, s3 takes 4, s4 (id 7) moves it to 6, s5 takes 6.
        let ids = assign_ids(&extra(&[None, Some(1), None, Some(7), None])).unwrap();
        assert_eq!(ids, vec![2, 1, 4, 7, 6]);
        assert!(assign_ids(&extra(&[Some(3), Some(3)])).is_err());
    }

    #[test]
    fn hash_functions_match_their_definitions_on_small_inputs() {
        // sdbm("a") = 97; djb2("a") = 5381 * 33 + 97; crc32 check value.
        assert_eq!(HaproxyFunction::Sdbm.hash(b"a"), 97);
        assert_eq!(HaproxyFunction::Sdbm.hash(b"ab"), 98 + 97 * 65599);
        assert_eq!(HaproxyFunction::Djb2.hash(b"a"), 5381 * 33 + 97);
        assert_eq!(HaproxyFunction::Crc32.hash(b"123456789"), 0xCBF4_3926);
        assert_eq!(HaproxyFunction::Wt6.hash(b""), 0xa53c_965a ^ 0x5ca6_953a);
    }

    #[test]
    fn map_table_is_smooth_weighted_round_robin() {
        // Weights 2 4 6 reduce to 1 2 3; worked by hand from recalc_server_map.
        assert_eq!(map_table(&[2, 4, 6], &[0, 1, 2]).unwrap(), vec![0, 2, 1, 2, 1, 2]);
        // A disabled weight-3 server still takes part in the GCD (1), not in the table.
        assert_eq!(map_table(&[2, 4, 6, 3], &[0, 1, 2]).unwrap().len(), 12);
    }

    /// `recalc_server_map` as HAProxy writes it: every server rescanned for every entry.
    fn map_table_by_scan(weights: &[u32], usable: &[usize]) -> Vec<u32> {
        let eweight = reduced_weights(weights);
        let total: i64 = usable.iter().map(|&i| eweight[i]).sum();
        let mut score = vec![0i64; weights.len()];
        let mut table = Vec::new();
        for _ in 0..total {
            let mut best: Option<(usize, i64)> = None;
            for &i in usable {
                if total == 1 {
                    best = Some((i, 0));
                    break;
                }
                score[i] += eweight[i];
                let v = (score[i] + total) / total;
                if best.is_none_or(|(_, max)| v > max) {
                    best = Some((i, v));
                }
            }
            if let Some((i, _)) = best {
                score[i] -= total;
                table.push(i as u32);
            }
        }
        table
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// The event-driven table is HAProxy's scan, entry for entry: any weights (0, and
        /// common factors, included) and any servers left out.
        #[test]
        fn map_table_is_the_scan(
            weights in proptest::collection::vec(proptest::prop_oneof![0u32..=3, 1u32..=256, proptest::strategy::Just(256u32)], 1..40),
            out in proptest::collection::vec(proptest::bool::weighted(0.2), 40),
        ) {
            let usable: Vec<usize> = (0..weights.len()).filter(|&i| !out[i]).collect();
            proptest::prop_assert_eq!(map_table(&weights, &usable).unwrap(), map_table_by_scan(&weights, &usable));
        }
    }

    #[test]
    fn map_table_is_the_scan_for_big_backends() {
        let weights: Vec<u32> = (0..300).map(|i| if i % 2 == 0 { 255 } else { 256 }).collect();
        let usable: Vec<usize> = (0..300).filter(|i| i % 7 != 3).collect();
        assert_eq!(map_table(&weights, &usable).unwrap(), map_table_by_scan(&weights, &usable));
    }

    #[test]
    fn closest_rule_as_arcs_agrees_with_the_direct_rule() {
        let specs = vec![NodeSpec::new("a"), NodeSpec::new("b").weight(2.0), NodeSpec::new("c")];
        let h = Haproxy::with_extra(true, None, specs.clone(), vec![ServerExtra::default(); specs.len()]).unwrap();
        let mut probes: Vec<u32> = Vec::new();
        for i in 0..h.tree.len() {
            let p = h.tree.position(i) as u32;
            probes.extend([p, p.wrapping_sub(1), p.wrapping_add(1)]);
        }
        for i in 0..h.arcs.len() {
            let p = h.arcs.position(i) as u32;
            probes.extend([p, p.wrapping_add(1)]);
        }
        probes.extend([0, u32::MAX]);
        for p in probes {
            assert_eq!(h.owner_of(u64::from(p)).unwrap(), h.closest(p), "hash 0x{p:08x}");
        }
    }
}
