//! Caps: every size an input controls has one, enforced in the engine, so that no link,
//! attribute or call can make a single call run long or allocate without bound.
//!
//! An input over a cap is refused with [`Error::TooLarge`] (code `too-large`), naming the
//! input, the cap and what was asked; nothing changes. The caps count items; what the items
//! multiply into (bytes hashed, points walked, pairs compared) the [work meter](crate::work)
//! bounds. The caps are chosen so that each
//! single call at its cap returns well within 250 ms in a browser (wasm runs about 1.5–2× slower
//! than native). `cargo run --release --example caps` times each call at its cap:
//!
//! | call at its cap | native ms |
//! |---|---:|
//! | `Ring::with_nodes`, 500,000 points, xxh3 / sha256 | 46 / 68 |
//! | `Ring::add_node`, 10,000 points onto 490,000 | 18 |
//! | `analysis::vnode_sweep`, 32 steps up to 500,000 points | 57 |
//! | `Cluster::new` / `add` / `remove`, libmemcached-ketama, 300,000 points (3,000 servers) | 85 / 85 / 68 |
//! | the same, cassandra and groupcache, 16,384 nodes, 294,912 points | 49 / 51 / 45 |
//! | the same, redis-cluster, 16,384 masters | 6 / 1 / 5 |
//! | the same, maglev, 16,384 nodes, table 500,009 | 38 / 36 / 34 |
//! | the same, jump, modulo, rendezvous, multi-probe (100 probes), 16,384 nodes | ≤ 7 |
//! | the same, haproxy-map-based, 2,000 servers, 499,751 table entries ([`MAX_MAP_TABLE`]) | 85 / 86 / 85 |
//! | `Session::from_link`, rendezvous, 1,000 nodes × 2,000 keys ([`MAX_SAMPLE_WORK`]) | 77 |
//! | the same, bounded-load, 1,000 nodes, 100,000 points, 50,000 keys, ε = 0 | 14 / 12 / 9 |
//! | keys on two states at [`MAX_LOOKUP_WORK`] (the lead's `generated_between`), worst: multi-probe | 65 |
//! | `compare::compare`, 13 algorithms × 5,000 keys, 10 / 200 nodes | 92 / 87 |
//! | `compare::report`, one algorithm, worst (rendezvous, 10 nodes) | 38 |
//! | `KeySample::generated`, 100,000 keys, 64-byte prefix | 9 |
//!
//! Slowest of three runs, release build, on this project's 2-core AMD EPYC VM while other
//! builds ran (load average 4–5 on 2 cores), so an idle machine is faster; wasm is about 1.5–2×
//! native, which keeps every call under 250 ms in a browser.
//!
//! ```
//! use ringlab::algo::{Algorithm, Cluster, Options};
//! use ringlab::{limits, Error, NodeSpec};
//!
//! let too_many = (0..=limits::MAX_NODES).map(|i| NodeSpec::new(format!("n{i}")));
//! let err = Cluster::new(Options::new(Algorithm::Jump), too_many).unwrap_err();
//! assert_eq!(err.code(), "too-large");
//! # Ok::<(), Error>(())
//! ```

use crate::Error;

pub use crate::error::{MAX_POINTS, MAX_VNODES};
/// Most points on a continuum of a real client (libketama, libmemcached, groupcache,
/// Cassandra): each is an MD5, CRC32 or Murmur3 of a label, rebuilt on every change.
pub const MAX_CONTINUUM_POINTS: u64 = 300_000;
/// Longest node name, in bytes.
pub const MAX_NAME_LEN: usize = 256;
/// Longest zone name, in bytes.
pub const MAX_ZONE_LEN: usize = 256;

/// Most nodes in one placement, for every algorithm: Redis Cluster's own limit (one master
/// per slot at most).
pub const MAX_NODES: usize = 16_384;
/// Most nodes a playground session holds: each is a legend row, a colour and a name in the
/// share link.
pub const MAX_SESSION_NODES: usize = 1_000;
/// The longest preference list a session follows a key through.
pub const MAX_FOLLOW_REPLICAS: usize = 8;
/// Longest prefix of a generated key sample (`"{prefix}{i}"`), in bytes.
pub const MAX_KEY_PREFIX_LEN: usize = 64;
/// Longest point label template of ringlab's ring (the `label` option), in bytes.
pub const MAX_LABEL_TEMPLATE_LEN: usize = 64;
/// Most keys in a generated sample (`keyCount`).
pub const MAX_SAMPLE_KEYS: usize = 100_000;
/// Most keys in a key list given to one `Ring` call (`diffKeys`). A session's own key list
/// (pasted or loaded) holds up to [`keys::MAX_KEY_LIST_KEYS`](crate::keys::MAX_KEY_LIST_KEYS).
pub const MAX_KEY_LIST: usize = 100_000;
/// Longest key in a user key list, in bytes.
pub const MAX_KEY_LEN: usize = 1024;
/// Most characters (UTF-16 units, as they arrive) of all the keys of one key-list argument
/// together (`diffKeys`, `agreement`, `metrics`): the most keys of the longest multiply to
/// 100 MB, which took over a second only to convert in Chromium. 16 Mi characters: 16,384
/// keys of 1,024, or 100,000 of 167.
pub const MAX_KEY_LIST_CHARS: usize = 16 << 20;
/// Widest and tallest chart drawn as SVG (`chartSvg`), in pixels: a 4K screen's width.
pub const MAX_SVG_SIDE: u64 = 4096;
/// Most vnode counts in one [`vnode_sweep`](crate::analysis::vnode_sweep).
pub const MAX_SWEEP_STEPS: usize = 32;
/// Largest Maglev lookup table (a prime).
pub const MAX_MAGLEV_TABLE: u64 = 500_009;
/// Most steps of Envoy's weighted Maglev fill: it runs about `M × (the heaviest host's
/// share)` rounds over every host, so equal weights take `M` steps, and one host far heavier
/// than many others takes long (16,384 hosts at the default 65,537 entries allow one host
/// about 150 times the mean weight).
pub const MAX_MAGLEV_FILL_WORK: u64 = 10_000_000;
/// Most probes per key for multi-probe hashing.
pub const MAX_PROBES: u32 = 100;
/// Most entries in HAProxy's map-based table (the usable servers' weights over their GCD):
/// HAProxy fills one entry per unit of weight, each a choice among every server.
pub const MAX_MAP_TABLE: u64 = 500_000;
/// Most groupcache replicas per node.
pub const MAX_GROUPCACHE_REPLICAS: u32 = MAX_VNODES;
/// Most Cassandra `num_tokens` per node of weight 1.
pub const MAX_NUM_TOKENS: u32 = MAX_VNODES;
/// Most keys bounded-load places.
pub const MAX_BOUNDED_KEYS: usize = 50_000;
/// Most points on a bounded-load ring: each key may walk past every point.
pub const MAX_BOUNDED_POINTS: u64 = 100_000;
/// Most moved arcs an exact migration (`migration::between`) lists; the counts stay exact.
/// (Checked by the migration module and the binding, like the key list and undo caps below;
/// [`check_keys`] and [`check_generated`] are the checks for key lists and samples.)
pub const MAX_MIGRATION_ARCS: usize = 100_000;
/// Most (algorithm, key) pairs in one [`compare`](crate::algo::compare::compare): each
/// algorithm looks every key up five times (loads, then before and after a join and a leave).
/// A page can run [`compare::report`](crate::algo::compare::report) one algorithm at a time.
pub const MAX_COMPARE_WORK: u64 = 65_000;
/// Most nodes in one [`compare`](crate::algo::compare::compare) (rendezvous scores every node
/// for every key).
pub const MAX_COMPARE_NODES: usize = 200;
/// Most (algorithm, key) pairs in one [`metrics`](crate::algo::metrics::metrics) call: each
/// algorithm looks every key up four times (before, after a join, after the removals, after
/// they rejoin). A page can run [`metrics::report`](crate::algo::metrics::report) one
/// algorithm at a time.
pub const MAX_METRICS_WORK: u64 = 60_000;
/// Most nodes one metrics call takes out (and puts back): each is a change of the state,
/// and some algorithms rebuild theirs on every change (Maglev's table, the continuums).
pub const MAX_METRICS_REMOVALS: usize = 8;
/// Most lookup work in one sampled call: the sum over lookups of
/// [`Cluster::lookup_cost`](crate::algo::Cluster::lookup_cost), in units of about 0.1 µs
/// native (a sample looked up on two states counts twice).
pub const MAX_LOOKUP_WORK: u64 = 1_000_000;
/// Most lookup work placing a session's key sample (generated, or the user's key list) on
/// one state, in the units of [`MAX_LOOKUP_WORK`]: a million keys on ringlab's ring. Every
/// change, undo and redo places it once; rendezvous, which scores every node for every
/// key, reaches it at 2,000 keys on 1,000 nodes.
pub const MAX_SAMPLE_WORK: u64 = 4_000_000;
/// The work of one step of opening a link in pieces (`Session::opening`), in points of
/// ringlab's default ring: points hashed, each weighing its label's bytes times its hash's
/// [`work_per_byte`](crate::Hash::work_per_byte) over 16 (so a step hashes 256 KiB of weighted
/// bytes: 16,384 labels of 16 bytes under XXH3, 512 of 64 bytes under SHA-256, 1,024 of 64
/// under MD5), sorted or merged, or key lookups counted by their cost. Measured on a ring of
/// 500 nodes × 1,000 vnodes (`examples/meter.rs`, the 2-core VM under load): the hashing and
/// merging steps take at most 3.4–4.7 ms natively (SHA-256 labels of 60 bytes, MD5 of 124,
/// XXH3 of 10 and 254), within 16 ms with wasm's 2× and a margin. The passes over the whole
/// ring that follow (the tie rule, copying and indexing the sorted points, the exact shares
/// and the circle's points) walk [`OPEN_WALK_PER_WORK`] points per unit: each was one step
/// of 6–18 ms natively at 500,000 points. (Marking a node down is still a pass of its own:
/// about 13 ms at 500,000 points.) A page runs steps while its slowest one so far still fits
/// in its share of a frame.
pub const OPEN_STEP_WORK: usize = 16_384;
/// Points of a ring walked per unit of [`OPEN_STEP_WORK`] while an opening counts the exact
/// shares and lays out the circle's points (one pass, a point a few ns natively).
pub const OPEN_WALK_PER_WORK: usize = 2;
/// Longest configuration text read (`import::from_config`: a `CLUSTER NODES` of 16,384 masters
/// with replicas and fragmented slot lists fits well within it), in bytes.
pub const MAX_CONFIG_BYTES: usize = 8 * 1024 * 1024;
/// Most `server` lines read from one load balancer's config.
pub const MAX_CONFIG_SERVERS: usize = 512;
/// Most undo steps a session keeps.
pub const MAX_UNDO_STEPS: usize = 100;
/// Most heap bytes (`memory_bytes`) the undo steps of a session hold together; the oldest
/// steps go first. One state at the point cap is about 6 MB.
pub const MAX_UNDO_BYTES: usize = 64 << 20;

/// `Err(TooLarge)` if `got > max`.
pub fn check(what: &str, got: u64, max: u64) -> Result<(), Error> {
    if got > max {
        Err(Error::TooLarge { what: what.to_string(), max, got })
    } else {
        Ok(())
    }
}

/// Checks a count of nodes about to be placed.
pub fn check_nodes(count: usize) -> Result<(), Error> {
    check("the number of nodes", count as u64, MAX_NODES as u64)
}

/// Checks a node's zone name.
pub fn check_zone(zone: Option<&str>) -> Result<(), Error> {
    check("a zone name's bytes", zone.map_or(0, str::len) as u64, MAX_ZONE_LEN as u64)
}

/// Checks a list of keys: at most `max` of them, each at most [`MAX_KEY_LEN`] bytes.
pub fn check_keys(what: &str, keys: &[String], max: usize) -> Result<(), Error> {
    check(what, keys.len() as u64, max as u64)?;
    match keys.iter().map(String::len).max() {
        Some(longest) => check("the longest key's bytes", longest as u64, MAX_KEY_LEN as u64),
        None => Ok(()),
    }
}

/// Checks the prefix and count of a generated key sample (`"{prefix}0"` .. `"{prefix}{count-1}"`).
pub fn check_generated(prefix: &str, count: usize) -> Result<(), Error> {
    check("the key prefix's bytes", prefix.len() as u64, MAX_KEY_PREFIX_LEN as u64)?;
    check("keys in a sample", count as u64, MAX_SAMPLE_KEYS as u64)
}

/// Most clients in one propagation ([`rollout`](crate::rollout)).
pub const MAX_ROLLOUT_CLIENTS: usize = 10_000;
/// Longest duration, lag or interval of a propagation: a day, in milliseconds.
pub const MAX_ROLLOUT_MS: f64 = 86_400_000.0;
/// Most times in one timeline (`duration / step + 1`).
pub const MAX_ROLLOUT_TIMES: usize = 2_001;
/// Most clients × times in one timeline (each client's epoch is read at each time).
pub const MAX_ROLLOUT_WORK: u64 = 4_000_000;
/// Most requests per second a propagation counts.
pub const MAX_ROLLOUT_RATE: f64 = 1e9;
/// Most keys in a propagation's or a plan's sample, where the algorithm has no arcs.
pub const MAX_ROLLOUT_KEYS: usize = 50_000;
/// Most steps of a staged change ([`plan`](crate::plan)), and epochs of a propagation.
pub const MAX_PLAN_STEPS: usize = 16;
/// Most points built over all the states of a staged change (each step is a placement).
pub const MAX_STAGE_POINTS: u64 = 1_500_000;
/// Most strategies compared side by side ([`rollout::compare`](crate::rollout::compare)).
pub const MAX_STRATEGIES: usize = 8;
/// Most nodes a sizing ([`plan::vnodes_for`](crate::plan::vnodes_for)) places.
pub const MAX_SIZING_NODES: usize = 200;
