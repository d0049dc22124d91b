//! Lookups over 100,000 distinct keys, side by side with hashing the keys alone and with the
//! `hashring` crate: the throughput figures of `cargo xtask bench`.
//!
//! Each round times every loop once, in turn, so the ratios compare loops that ran moments
//! apart on the same (shared, noisy) machine; the figures are the medians over the rounds.
//! Under `--instructions LOOP PASSES` it runs one loop only, for `valgrind` to count
//! instructions: the difference between 1 and 3 passes, over the keys, is per lookup.
//! Under `--key-owners-rounds` it times the page's batch natively once per line read from
//! stdin, printing nanoseconds per key: `tests/e2e/bench.mjs` interleaves these rounds with
//! the same batch in wasm, so the wasm ratios compare rounds moments apart too.
//!
//! Then every algorithm of the catalog on the same 10 nodes, side by side: nanoseconds per
//! `Cluster::locate_index` over the same keys (rounds interleaved, every algorithm once per
//! round) and the state's heap bytes.
//!
//! Output: one `row <name> <value>` line per figure, for the xtask to read.

use ringlab::algo::{Algorithm, Cluster, Options};
use ringlab::{Config, Hash, NodeSpec, Ring};
use std::hint::black_box;
use std::process::Command;
use std::time::Instant;

const KEYS: usize = 100_000;
const ROUNDS: usize = 31;
/// Rounds of the per-algorithm loops (one pass over the keys each).
const ALGORITHM_ROUNDS: usize = 11;
/// Passes over the keys per timed loop (about 2 ms).
const PASSES: usize = 4;

/// The loops, by name: hash alone, ringlab locate, hashring get, ringlab replicas(key, 3)
/// (its list as the API returns it: inline, up to four names), replicas_into (node indices
/// into a reused `Vec`), and locate on a
/// 500-node × 1,000-vnode ring (500,000 points, the cap: the index and points no longer fit in cache),
/// and the page's batch (`Ring.keyOwners("user:", 100000)` natively: the same keys generated
/// in one buffer, the same `Cluster::locate_generated`, the same list of owners): the native side
/// of the wasm figures.
const LOOPS: [&str; 7] = ["hash", "locate", "hashring", "replicas", "replicas_into", "locate_1m", "key_owners"];

struct Subject {
    keys: Vec<String>,
    ring: Ring,
    other: hashring::HashRing<(String, u32)>,
    big: Ring,
    /// The binding's ring: a `Cluster` of the `ring` algorithm, as `new Ring({vnodes: 160, nodes})` makes.
    cluster: Cluster,
}

impl Subject {
    fn new() -> Subject {
        let keys = (0..KEYS).map(|i| format!("user:{i}")).collect();
        let nodes = (0..10).map(|i| NodeSpec::new(format!("node-{i}")));
        let ring = Ring::with_nodes(Config { vnodes: 160, ..Config::default() }, nodes).unwrap();
        let mut other = hashring::HashRing::new();
        for n in 0..10 {
            for v in 0..160 {
                other.add((format!("node-{n}"), v));
            }
        }
        let nodes = (0..500).map(|i| NodeSpec::new(format!("node-{i}")));
        let big = Ring::with_nodes(Config { vnodes: 1000, ..Config::default() }, nodes).unwrap();
        Subject { keys, ring, other, big, cluster: binding_ring() }
    }

    /// Runs loop `name` `passes` times over the keys.
    fn run(&self, name: &str, passes: usize) {
        let keys = &self.keys;
        for _ in 0..passes {
            match name {
                "hash" => hash_loop(keys),
                "locate" => locate_loop(&self.ring, keys),
                "hashring" => hashring_loop(&self.other, keys),
                "replicas" => replicas_loop(&self.ring, keys),
                "replicas_into" => replicas_into_loop(&self.ring, keys),
                "locate_1m" => locate_loop(&self.big, keys),
                "key_owners" => drop(black_box(key_owners(&self.cluster, "user:", KEYS))),
                other => panic!("unknown loop {other}"),
            }
        }
    }

    /// Nanoseconds per key of one timed run of loop `name`.
    fn time(&self, name: &str) -> f64 {
        let start = Instant::now();
        self.run(name, PASSES);
        start.elapsed().as_nanos() as f64 / (PASSES * KEYS) as f64
    }
}

// Each loop is its own function, so that one loop's code never shapes another's.

#[inline(never)]
fn hash_loop(keys: &[String]) {
    keys.iter().for_each(|k| {
        black_box(Hash::Xxh3.hash(black_box(k.as_bytes())));
    })
}

#[inline(never)]
fn locate_loop(ring: &Ring, keys: &[String]) {
    keys.iter().for_each(|k| {
        black_box(ring.locate(black_box(k)).ok());
    })
}

#[inline(never)]
fn hashring_loop(ring: &hashring::HashRing<(String, u32)>, keys: &[String]) {
    keys.iter().for_each(|k| {
        black_box(ring.get(black_box(k)));
    })
}

/// `replicas` as the API returns it (a `Replicas`, dropped here).
#[inline(never)]
fn replicas_loop(ring: &Ring, keys: &[String]) {
    keys.iter().for_each(|k| drop(black_box(ring.replicas(black_box(k), 3))))
}

#[inline(never)]
fn replicas_into_loop(ring: &Ring, keys: &[String]) {
    let mut out = Vec::with_capacity(3);
    keys.iter().for_each(|k| {
        let position = ring.key_position(black_box(k));
        black_box(ring.replicas_into(position, 3, &mut out).ok());
    })
}

/// The ring `new Ring({vnodes: 160, nodes: ["node-0", …, "node-9"]})` makes in the binding.
fn binding_ring() -> Cluster {
    let options = Options { config: Config { vnodes: 160, ..Config::default() }, ..Options::new(Algorithm::Ring) };
    Cluster::new(options, (0..10).map(|i| NodeSpec::new(format!("node-{i}")))).unwrap()
}

/// `--key-owners-rounds`: one timed round of [`key_owners`] ([`PASSES`] calls over [`KEYS`]
/// keys) per line of stdin, each answered with nanoseconds per key on its own line.
fn key_owner_rounds() {
    let cluster = binding_ring();
    (0..3).for_each(|_| drop(black_box(key_owners(&cluster, "user:", KEYS))));
    for line in std::io::stdin().lines() {
        if line.is_err() {
            break;
        }
        let start = Instant::now();
        (0..PASSES).for_each(|_| drop(black_box(key_owners(&cluster, black_box("user:"), KEYS))));
        // stdout is line-buffered: each answer goes out at once.
        println!("{:.4}", start.elapsed().as_nanos() as f64 / (PASSES * KEYS) as f64);
    }
}

/// What `Ring.keyOwners(prefix, count)` does in src/web/ring.rs, without the JS array: the
/// owner's index of each generated key, in a list.
#[inline(never)]
fn key_owners(cluster: &Cluster, prefix: &str, count: usize) -> Vec<u32> {
    let mut owners = Vec::with_capacity(count);
    cluster.locate_generated(black_box(prefix), count, |_, owner| owners.push(owner.map_or(0, |o| o as u32)));
    owners
}

/// Every algorithm that accepts 10 nodes of weight 1, built with its defaults.
fn catalog_clusters() -> Vec<(Algorithm, Cluster)> {
    let nodes: Vec<NodeSpec> = (0..10).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
    Algorithm::ALL.iter().filter_map(|&a| Cluster::new(Options::new(a), nodes.clone()).ok().map(|c| (a, c))).collect()
}

#[inline(never)]
fn cluster_loop(cluster: &Cluster, keys: &[String]) {
    keys.iter().for_each(|k| {
        black_box(cluster.locate_index(black_box(k)).ok());
    })
}

/// `row algorithm_ns_<i>_<name>` and `row algorithm_bytes_<i>_<name>` for each algorithm, `i`
/// its place in the catalog: the median over rounds of nanoseconds per lookup, every
/// algorithm timed once per round in turn.
fn algorithm_rows(keys: &[String]) {
    let clusters = catalog_clusters();
    clusters.iter().for_each(|(_, c)| cluster_loop(c, keys));
    let mut ns: Vec<Vec<f64>> = vec![Vec::new(); clusters.len()];
    for round in 0..ALGORITHM_ROUNDS {
        for k in 0..clusters.len() {
            let k = (k + round) % clusters.len();
            let start = Instant::now();
            cluster_loop(&clusters[k].1, keys);
            ns[k].push(start.elapsed().as_nanos() as f64 / keys.len() as f64);
        }
    }
    for (i, ((algorithm, cluster), times)) in clusters.iter().zip(ns).enumerate() {
        let name = algorithm.name();
        println!("row algorithm_ns_{i:02}_{name} {:.3}", median(times));
        println!("row algorithm_bytes_{i:02}_{name} {}", cluster.memory_bytes());
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Instructions per key of loop `name`, by valgrind's callgrind (None without valgrind).
fn instructions(name: &str) -> Option<f64> {
    let exe = std::env::current_exe().ok()?;
    let count = |passes: usize| -> Option<f64> {
        let out = Command::new("valgrind")
            .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
            .arg(&exe)
            .args(["--instructions", name, &passes.to_string()])
            .output()
            .ok()?;
        let text = String::from_utf8_lossy(&out.stderr);
        let line = text.lines().find(|l| l.contains("Collected :"))?;
        line.rsplit(':').next()?.trim().parse::<f64>().ok()
    };
    let (one, three) = (count(1)?, count(3)?);
    Some((three - one) / (2 * KEYS) as f64)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--key-owners-rounds") {
        return key_owner_rounds();
    }
    let subject = Subject::new();
    if let Some(at) = args.iter().position(|a| a == "--instructions") {
        let passes = args.get(at + 2).and_then(|p| p.parse().ok()).unwrap_or(1);
        subject.run(&args[at + 1], passes);
        return;
    }
    // Warm up, then interleave the loops round by round.
    LOOPS.iter().for_each(|name| subject.run(name, 2));
    let mut ns: Vec<Vec<f64>> = vec![Vec::new(); LOOPS.len()];
    for round in 0..ROUNDS {
        for k in 0..LOOPS.len() {
            let k = (k + round) % LOOPS.len(); // rotate who goes first
            ns[k].push(subject.time(LOOPS[k]));
        }
    }
    let at = |name: &str| LOOPS.iter().position(|n| *n == name).unwrap();
    let ratio = |a: &str, b: &str| median(ns[at(a)].iter().zip(&ns[at(b)]).map(|(x, y)| x / y).collect());
    for (name, times) in LOOPS.iter().zip(&ns) {
        println!("row loop_ns_{name} {:.3}", median(times.clone()));
    }
    println!("row loop_ratio_locate_over_hash {:.3}", ratio("locate", "hash"));
    println!("row loop_ratio_hashring_over_locate {:.3}", ratio("hashring", "locate"));
    println!("row loop_ratio_replicas_over_locate {:.3}", ratio("replicas", "locate"));
    println!("row loop_ratio_replicas_into_over_locate {:.3}", ratio("replicas_into", "locate"));
    println!("row rounds {ROUNDS}");
    // key_owners is compared with wasm by time; its instructions would only repeat locate's.
    for name in LOOPS.iter().filter(|n| **n != "key_owners") {
        if let Some(n) = instructions(name) {
            println!("row instructions_{name} {n:.1}");
        }
    }
    println!("row loop_ratio_key_owners_over_locate {:.3}", ratio("key_owners", "locate"));
    println!("row loop_ratio_locate_1m_over_hash {:.3}", ratio("locate_1m", "hash"));
    println!("row bytes_per_point_1m {:.3}", subject.big.memory_bytes() as f64 / subject.big.point_count() as f64);
    algorithm_rows(&subject.keys);
}
