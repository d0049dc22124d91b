//! Times each input-controlled call at its cap (`ringlab::limits`) and prints a markdown table.
//!
//! `cargo run --release --example caps`. Each row is the slowest of three runs; nothing here
//! asserts a speed (the numbers go in `limits.rs` and README).

use ringlab::algo::stores::redis;
use ringlab::algo::{compare, metrics, Algorithm, Cluster, OptionValue, Options};
use ringlab::migration::{generated_between, sample_between, KeySample};
use ringlab::{analysis, limits, Config, Hash, NodeSpec, Ring, RingBits};
use std::time::Instant;

fn names(n: usize) -> Vec<NodeSpec> {
    (0..n).map(|i| NodeSpec::new(format!("10.0.{}.{}:11211", i / 250, i % 250))).collect()
}

/// The slowest of three runs of `f`, in ms.
fn time<T>(mut f: impl FnMut() -> T) -> f64 {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(0.0, f64::max)
}

fn options(algorithm: Algorithm) -> Options {
    Options::new(algorithm)
}

fn main() {
    let mut rows: Vec<(String, String, f64)> = Vec::new();
    let mut row = |call: &str, at: String, ms: f64| {
        eprintln!("{call}: {ms:.1} ms");
        rows.push((call.to_string(), at, ms));
    };
    let max_points = limits::MAX_POINTS as usize;
    let vnodes = limits::MAX_VNODES;
    let per_node_nodes = max_points / vnodes as usize;
    let ring_config = Config { hash: Hash::Xxh3, bits: RingBits::B64, vnodes };

    // ringlab's ring at the point cap.
    let specs = names(per_node_nodes);
    row(
        "Ring::with_nodes",
        format!("{} points ({per_node_nodes} nodes × {vnodes} vnodes, xxh3, 64-bit)", max_points),
        time(|| Ring::with_nodes(ring_config.clone(), specs.clone()).unwrap()),
    );
    let md5 = Config { hash: Hash::Sha256, ..ring_config.clone() };
    row(
        "Ring::with_nodes",
        format!("{} points, sha256 (the slowest hash)", max_points),
        time(|| Ring::with_nodes(md5.clone(), specs.clone()).unwrap()),
    );
    let mut near = Ring::with_nodes(ring_config.clone(), names(per_node_nodes - 1)).unwrap();
    row(
        "Ring::add_node",
        format!("{vnodes} points onto {} points", max_points - vnodes as usize),
        time(|| {
            let mut r = near.clone();
            r.add_node(NodeSpec::new("joiner")).unwrap();
            r
        }),
    );
    near.add_node(NodeSpec::new("joiner")).unwrap();
    row("Ring::remove", format!("one node of {max_points} points"), time(|| near.clone().remove("joiner").unwrap()));
    row("Ring::clone", format!("{max_points} points (an undo step)"), time(|| near.clone()));
    let full = Ring::with_nodes(ring_config.clone(), specs.clone()).unwrap();
    row("analysis::shares", format!("{max_points} points"), time(|| analysis::shares(&full)));
    let one_vnode = Config { vnodes: 1, ..ring_config.clone() };
    let many = names(limits::MAX_NODES);
    row(
        "Ring::with_nodes",
        format!("{} nodes × 1 vnode", limits::MAX_NODES),
        time(|| Ring::with_nodes(one_vnode.clone(), many.clone()).unwrap()),
    );
    let changed = {
        let mut r = full.clone();
        r.set_weight(&specs[0].name, 0.5).unwrap();
        r.remove(&specs[1].name).unwrap();
        r.add_node(NodeSpec::new("joiner")).unwrap();
        r
    };
    row(
        "migration::between (lead's)",
        format!("two rings of {max_points} points"),
        time(|| ringlab::migration::between(&full, &changed).unwrap()),
    );

    // The sweep: one ring at the point cap, then every step.
    let sweep_counts: Vec<u32> = (1..=limits::MAX_SWEEP_STEPS as u32).map(|i| i * vnodes / 64).collect();
    row(
        "analysis::vnode_sweep",
        format!("{} steps up to {max_points} points", limits::MAX_SWEEP_STEPS),
        time(|| analysis::vnode_sweep(&ring_config, &specs, &sweep_counts).unwrap()),
    );

    // Every algorithm at its node cap (or the point cap, whichever binds first).
    for algorithm in Algorithm::ALL {
        let mut o = options(algorithm);
        let nodes = match algorithm {
            Algorithm::Libketama => {
                (0..limits::MAX_NODES).map(|i| NodeSpec::new(format!("10.{}.{}:1", i / 250, i % 250))).collect()
            }
            _ => names(limits::MAX_NODES),
        };
        let at = match algorithm {
            Algorithm::Ring => {
                o.config = Config { vnodes: 100, ..ring_config.clone() };
                format!("{} nodes × 100 vnodes", limits::MAX_NODES)
            }
            Algorithm::LibmemcachedKetama => {
                format!("{} nodes × 100 points", limits::MAX_CONTINUUM_POINTS / 100)
            }
            Algorithm::Groupcache => {
                let replicas = limits::MAX_CONTINUUM_POINTS / limits::MAX_NODES as u64;
                o.params.insert("replicas", OptionValue::Whole(replicas));
                format!("{} nodes × {replicas} replicas", limits::MAX_NODES)
            }
            Algorithm::Cassandra => {
                let tokens = limits::MAX_CONTINUUM_POINTS / limits::MAX_NODES as u64;
                o.params.insert("numTokens", OptionValue::Whole(tokens));
                format!("{} nodes × {tokens} tokens", limits::MAX_NODES)
            }
            Algorithm::Maglev => {
                o.params.insert("tableSize", OptionValue::Whole(limits::MAX_MAGLEV_TABLE));
                format!("{} nodes, table {}", limits::MAX_NODES, limits::MAX_MAGLEV_TABLE)
            }
            Algorithm::MultiProbe => {
                o.params.insert("probes", OptionValue::Whole(u64::from(limits::MAX_PROBES)));
                format!("{} nodes, {} probes", limits::MAX_NODES, limits::MAX_PROBES)
            }
            Algorithm::HaproxyMapBased => format!("2000 servers, {} table entries", 1 + 1999 * 250),
            Algorithm::BoundedLoad => {
                o.config = Config { vnodes: (limits::MAX_BOUNDED_POINTS / 1000) as u32, ..ring_config.clone() };
                o.params.insert("epsilon", OptionValue::Number(0.0));
                o.set_keys(&KeySample::generated("key:", limits::MAX_BOUNDED_KEYS));
                format!("1000 nodes, {} points, {} keys, ε = 0", limits::MAX_BOUNDED_POINTS, limits::MAX_BOUNDED_KEYS)
            }
            _ => format!("{} nodes", limits::MAX_NODES),
        };
        let nodes: Vec<NodeSpec> = match algorithm {
            Algorithm::BoundedLoad => nodes[..1000].to_vec(),
            // HAProxy's table at its cap: one server of weight 1 leaves no common factor.
            Algorithm::HaproxyMapBased => nodes[..2000]
                .iter()
                .enumerate()
                .map(|(i, n)| n.clone().weight(if i == 0 { 1.0 } else { 250.0 }))
                .collect(),
            Algorithm::LibmemcachedKetama => nodes[..(limits::MAX_CONTINUUM_POINTS / 100) as usize].to_vec(),
            _ => nodes,
        };
        let built = Cluster::new(o.clone(), nodes.clone());
        let ms = time(|| Cluster::new(o.clone(), nodes.clone()));
        let refused = built.as_ref().err().map(|e| format!(" → refused: {}", e.code())).unwrap_or_default();
        row(&format!("Cluster::new {}", algorithm.name()), format!("{at}{refused}"), ms);
        let Ok(cluster) = built else { continue };
        let last = nodes.last().unwrap().name.clone();
        let mut less = cluster.clone();
        less.remove(&last).unwrap();
        row(
            &format!("add {}", algorithm.name()),
            format!("the {}th node", nodes.len()),
            time(|| {
                let mut c = less.clone();
                c.add(NodeSpec::new(last.as_str())).unwrap();
                c
            }),
        );
        let middle = nodes[nodes.len() / 2].name.clone();
        if algorithm != Algorithm::Jump {
            row(
                &format!("remove {}", algorithm.name()),
                format!("one of {} nodes", nodes.len()),
                time(|| {
                    let mut c = cluster.clone();
                    c.remove(&middle).unwrap();
                    c
                }),
            );
        }
        let keys = ((limits::MAX_LOOKUP_WORK / cluster.lookup_cost() / 2) as usize).min(limits::MAX_SAMPLE_KEYS);
        cluster.check_lookups(2 * keys).unwrap();
        row(
            &format!("generated_between {} (lead's)", algorithm.name()),
            format!("{keys} keys (lookup work cap)"),
            time(|| generated_between(&cluster, &less, "key:", keys, 1.0).unwrap()),
        );
    }

    // Redis with the most masters create accepts, then adds and drains with extreme weights.
    let masters = (1..=redis::SLOTS).rev().find(|&n| redis::create_ranges(n).is_ok()).unwrap();
    let rnodes = names(masters);
    row(
        "Cluster::new redis-cluster",
        format!("{masters} masters (the largest create accepts)"),
        time(|| Cluster::new(options(Algorithm::RedisCluster), rnodes.clone()).unwrap()),
    );
    let mut skewed = Cluster::new(options(Algorithm::RedisCluster), names(3)).unwrap();
    for (i, w) in [redis::MAX_WEIGHT, redis::MIN_WEIGHT, redis::MAX_WEIGHT].into_iter().enumerate() {
        skewed.add(NodeSpec::new(format!("w{i}")).weight(w)).unwrap();
    }
    row(
        "set_weight redis-cluster",
        "1e30 ↔ 1e-30 on 6 masters".into(),
        time(|| {
            let mut c = skewed.clone();
            c.set_weight("w0", redis::MIN_WEIGHT).unwrap();
            c
        }),
    );

    // Compare at its caps, one algorithm a call and all at once.
    let keys = (limits::MAX_COMPARE_WORK / Algorithm::ALL.len() as u64) as usize;
    let sample = KeySample::generated("key:", keys);
    let mut base = options(Algorithm::Ring);
    base.set_keys(&KeySample::generated("key:", 10_000));
    for count in [10, limits::MAX_COMPARE_NODES] {
        let nodes = names(count);
        for algorithm in Algorithm::ALL {
            let ms = time(|| compare::report(&base, algorithm, &nodes, &sample));
            let refused = compare::report(&base, algorithm, &nodes, &sample)
                .err()
                .map(|e| format!(" → refused: {}", e.code()))
                .unwrap_or_default();
            row(&format!("compare::report {}", algorithm.name()), format!("{keys} keys, {count} nodes{refused}"), ms);
        }
        row(
            "compare::compare",
            format!("{} algorithms × {keys} keys, {count} nodes", Algorithm::ALL.len()),
            time(|| compare::compare(&base, &nodes, &sample, &Algorithm::ALL)),
        );
    }

    // The papers' metrics at their caps: every algorithm, 8 removals in each order.
    let keys = (limits::MAX_METRICS_WORK / Algorithm::ALL.len() as u64) as usize;
    let sample = KeySample::generated("key:", keys);
    for count in [10, limits::MAX_COMPARE_NODES] {
        let nodes = names(count);
        for order in metrics::RemovalOrder::ALL {
            let settings =
                metrics::MetricsSettings { removal_order: order, removals: limits::MAX_METRICS_REMOVALS, seed: 1 };
            let mut slowest = (0.0, "");
            for algorithm in Algorithm::ALL {
                let ms = time(|| metrics::report(&base, algorithm, &nodes, &sample, &settings));
                if ms > slowest.0 {
                    slowest = (ms, algorithm.name());
                }
            }
            row(
                &format!("metrics::report, slowest ({})", slowest.1),
                format!("{keys} keys, {count} nodes, 8 {} removals", order.name()),
                slowest.0,
            );
            row(
                "metrics::metrics",
                format!(
                    "{} algorithms × {keys} keys, {count} nodes, 8 {} removals",
                    Algorithm::ALL.len(),
                    order.name()
                ),
                time(|| metrics::metrics(&base, &nodes, &sample, &Algorithm::ALL, &settings, &[])),
            );
        }
    }

    // Samples at their caps.
    let prefix = "k".repeat(limits::MAX_KEY_PREFIX_LEN);
    row(
        "KeySample::generated",
        format!("{} keys, {}-byte prefix", limits::MAX_SAMPLE_KEYS, limits::MAX_KEY_PREFIX_LEN),
        time(|| KeySample::generated(&prefix, limits::MAX_SAMPLE_KEYS)),
    );
    let list =
        KeySample { keys: (0..limits::MAX_KEY_LIST).map(|i| format!("{i:0>w$}", w = limits::MAX_KEY_LEN)).collect() };
    let ring = Cluster::new(options(Algorithm::Ring), names(10)).unwrap();
    let mut ring2 = ring.clone();
    ring2.add(NodeSpec::new("joiner")).unwrap();
    row(
        "sample_between ring (lead's)",
        format!("{} keys of {} bytes", limits::MAX_KEY_LIST, limits::MAX_KEY_LEN),
        time(|| sample_between(&ring, &ring2, &list, 1.0).unwrap()),
    );

    // A session's sample at its cap: rendezvous scores 1,000 nodes for each of 2,000 keys.
    let nodes: String = (0..1000).map(|i| format!("&n=n{i}")).collect();
    let link = format!("#ringlab=2&a=rendezvous&k=2000{nodes}");
    row(
        "Session::from_link rendezvous",
        format!("1000 nodes × 2000 keys ({} units of work)", limits::MAX_SAMPLE_WORK),
        time(|| ringlab::session::Session::from_link(&link).unwrap()),
    );

    println!("| call | at the cap | slowest of 3, ms (native, release) |");
    println!("|---|---|---:|");
    for (call, at, ms) in rows {
        println!("| {call} | {at} | {ms:.1} |");
    }
}
