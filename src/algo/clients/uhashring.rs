//! Python's uhashring 2.1 (`HashRing`), in its two runtimes (`uhashring/ring_meta.py`,
//! `ring_ketama.py`, `ring.py`):
//!
//! - `uhashring` (the default `MetaRing`): `vnodes` (160) × weight points per node, each at
//!   the whole 128-bit MD5 of `"{name}-{w}"` as an integer (`int(md5(..).hexdigest(), 16)`);
//!   a key goes to the first point strictly after its own MD5 (`bisect`, right of an equal
//!   point), wrapping to the first.
//! - `uhashring-ketama` (`hash_fn="ketama"`): `(40 · nodes · weight) // total weight` labels
//!   `"{name}-{w}"` per node, four points a label (the MD5's four little-endian words), the
//!   key at its MD5's first word; the same strict `bisect`; a later node's equal point
//!   overwrites the earlier one in the ring's dict.
//!
//! Nodes are uhashring's node names, any string; weights are whole numbers (the `weight` of a
//! node's conf dict).

use super::about::KeySpace;
use super::continuum::{ketama_counts, md5_quad_label, md5_word, push_md5_quads, Continuum, Lookup, Rules, Share, Tie};
use super::entry::{recipe, Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Recipe, Weights};
use super::libmemcached::check_memcached_weight;
use super::Algorithm;
use md5::Digest as _;

const DOWN: OnDown = OnDown::Unavailable {
    text: "uhashring is a ring and nothing else: it has no health checks, so get_node() still answers the down \
           node until the caller removes it (remove_node), which is a removal.",
    why: "uhashring has no health check and still answers it; remove the node",
};

const STALE: OnStale = OnStale::ClientSide(
    "Each process builds its own uhashring HashRing: one that has not yet added or removed a node sends moved keys to their old node, where reads miss or find stale values and writes leave two copies.",
);

pub(crate) const META: Entry = Entry {
    name: "uhashring",
    label: "uhashring (Python)",
    family: Family::Client,
    source: "uhashring 2.1 ring_meta.py (MetaRing) and ring.py: points, 128-bit MD5 positions, bisect",
    options: &[],
    weights: Weights::Checked(|w| check_memcached_weight(Algorithm::Uhashring, w)),
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 64 },
    describe: |_| {
        "uhashring's default ring: 160 points per node × weight at the MD5 of \"name-i\" (a 128-bit number, drawn \
         by its top 64 bits); a key goes to the first point after its MD5."
            .to_string()
    },
    on_down: DOWN,
    on_stale: STALE,
    leaving: Leaving::Any,
    extras: Extras { recipe: Some(&RECIPE_META), ..Extras::NONE },
};

/// How META picks a server, step by step.
const RECIPE_META: Recipe = Recipe {
    server_label: "\"name-i\", the name as given",
    points: "160 × weight, one per MD5 digest (all 128 bits)",
    key_hash: "MD5 of the key, all 128 bits",
    pick: recipe::FIRST_AFTER,
    order: recipe::ORDER_FREE,
};
pub(crate) const BUILD_META: Build =
    Build::Staged(|o, nodes, _| Ok(Box::new(Continuum::building(&META_RULES, o, nodes)?)));

pub(crate) const KETAMA: Entry = Entry {
    name: "uhashring-ketama",
    label: "uhashring, ketama (Python)",
    family: Family::Client,
    source: "uhashring 2.1 ring_ketama.py (KetamaRing, hash_fn=\"ketama\"): points by weight, MD5 words, bisect",
    options: &[],
    weights: Weights::Checked(|w| check_memcached_weight(Algorithm::UhashringKetama, w)),
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| {
        format!(
            "uhashring's ketama ring: (40 × nodes × weight) // total weight labels \"name-i\" per node, four MD5 \
             points each, on {}; a key goes to the first point after its hash.",
            (KETAMA.key_space)(o).words()
        )
    },
    on_down: DOWN,
    on_stale: STALE,
    leaving: Leaving::Any,
    extras: Extras { recipe: Some(&RECIPE_KETAMA), ..Extras::NONE },
};

/// How KETAMA picks a server, step by step.
const RECIPE_KETAMA: Recipe = Recipe {
    server_label: "\"name-i\", the name as given",
    points: "(40 · servers · weight) // total labels, four points per MD5 digest",
    key_hash: recipe::MD5_WORD0,
    pick: recipe::FIRST_AFTER,
    order: recipe::ORDER_TIES,
};
pub(crate) const BUILD_KETAMA: Build =
    Build::Staged(|o, nodes, _| Ok(Box::new(Continuum::building(&KETAMA_RULES, o, nodes)?)));

/// The top 64 bits of MD5 as a big-endian number: the order of uhashring's 128-bit points
/// (`int(hexdigest, 16)`), except between two values whose top halves are equal (about one
/// point pair or key in 2^64 / points).
fn md5_top64(bytes: &[u8]) -> u64 {
    u64::from_be_bytes(md5::Md5::digest(bytes)[..8].try_into().expect("8 bytes"))
}

static META_RULES: Rules = Rules {
    algorithm: Algorithm::Uhashring,
    bits: 64,
    // A dict keyed by 128-bit values: two points never collide in practice; a later one
    // would overwrite.
    tie: Tie::LaterAdded,
    lookup_cost: 12,
    per_node: |_| Ok(0),
    check: |spec, _| META.weights.check(Algorithm::Uhashring, spec.weight),
    // ring_meta.py `_create_ring`: range(vnodes * weight).
    point_counts: |nodes, _| nodes.iter().map(|n| (160.0 * n.weight).min(f64::from(u32::MAX)) as u32).collect(),
    push_points: |name, count, idx, out| {
        out.extend((0..count).map(|w| (md5_top64(format!("{name}-{w}").as_bytes()), idx)));
    },
    key_position: md5_top64,
    point_label: Some(|name, w| format!("{name}-{w}")),
    describe_key: |_, position| format!("md5 0x{position:016x}…"),
    lookup: Lookup::After,
    weighted_switch: None,
    switch_starts_off: |_| false,
    written_weight: |_| Ok(None),
    explicit: None,
    check_total: |_| Ok(()),
};

static KETAMA_RULES: Rules = Rules {
    algorithm: Algorithm::UhashringKetama,
    bits: 32,
    // `_ring[h] = node_name`: the later node's point overwrites an equal one.
    tie: Tie::LaterAdded,
    check: |spec, _| KETAMA.weights.check(Algorithm::UhashringKetama, spec.weight),
    // ring_ketama.py `_hashi_weight_generator`: `ks = (vnodes * len(nodes) * weight) //
    // weight_sum` in Python integers.
    point_counts: |nodes, _| ketama_counts(nodes, Share::Integer),
    // `"{name}-{w}"`, replicas 0..4: the digest's little-endian words.
    push_points: push_md5_quads,
    key_position: |key| md5_word(key, 0),
    point_label: Some(md5_quad_label),
    describe_key: |_, position| format!("md5 0x{position:08x}"),
    ..META_RULES
};
