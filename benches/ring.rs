//! `cargo xtask bench`'s per-call figures (criterion): ringlab's lookups and replicas side by
//! side with the `hashring` crate and with hashing the key alone; then build, exact shares and
//! the vnode sweep of a big ring. `benches/throughput.rs` has the loop figures; the xtask
//! gathers both into one table. Nothing here asserts a speed.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use ringlab::{analysis, Config, Hash, NodeSpec, Ring};
use std::hint::black_box;

const KEYS: usize = 4096;

fn keys() -> Vec<String> {
    (0..KEYS).map(|i| format!("user:{i}")).collect()
}

fn ten_nodes() -> Vec<NodeSpec> {
    (0..10).map(|i| NodeSpec::new(format!("node-{i}"))).collect()
}

/// hashring 0.3 with the same 10 nodes × 160 virtual nodes.
fn hashring_ring() -> hashring::HashRing<(String, u32)> {
    let mut ring = hashring::HashRing::new();
    for n in 0..10 {
        for v in 0..160 {
            ring.add((format!("node-{n}"), v));
        }
    }
    ring
}

/// The per-call figures of `cargo xtask bench`'s table, in one group: the xtask reads them
/// back from `target/criterion/per call/<id>/new/estimates.json` by these ids.
fn lookups(c: &mut Criterion) {
    let keys = keys();
    let ring = Ring::with_nodes(Config { vnodes: 160, ..Config::default() }, ten_nodes()).unwrap();
    let other = hashring_ring();
    let mut g = c.benchmark_group("per call");
    let mut i = 0;
    g.bench_function("hash alone", |b| {
        b.iter(|| {
            i = (i + 1) % KEYS;
            black_box(Hash::Xxh3.hash(black_box(keys[i].as_bytes())))
        })
    });
    g.bench_function("locate", |b| {
        b.iter(|| {
            i = (i + 1) % KEYS;
            black_box(ring.locate(black_box(&keys[i])).ok())
        })
    });
    let positions: Vec<u64> = keys.iter().map(|k| ring.key_position(k)).collect();
    g.bench_function("owner_of", |b| {
        b.iter(|| {
            i = (i + 1) % KEYS;
            black_box(ring.owner_of(black_box(positions[i])).ok())
        })
    });
    g.bench_function("hashring get", |b| {
        b.iter(|| {
            i = (i + 1) % KEYS;
            black_box(other.get(black_box(&keys[i])))
        })
    });
    g.bench_function("replicas 3", |b| {
        b.iter(|| {
            i = (i + 1) % KEYS;
            black_box(ring.replicas(black_box(&keys[i]), 3).ok())
        })
    });
    let mut out = Vec::with_capacity(3);
    g.bench_function("replicas_into 3", |b| {
        b.iter(|| {
            i = (i + 1) % KEYS;
            let pos = ring.key_position(black_box(&keys[i]));
            black_box(ring.replicas_into(pos, 3, &mut out).ok());
        })
    });
    g.finish();

    let mut g = c.benchmark_group("hashring 0.3 replicas");
    g.sample_size(10);
    g.bench_function("get_with_replicas 2 (clones the ring)", |b| {
        b.iter(|| {
            i = (i + 1) % KEYS;
            black_box(other.get_with_replicas(black_box(&keys[i]), 2))
        })
    });
    g.finish();
}

fn big_ring(c: &mut Criterion) {
    // The largest ring the point cap allows (ringlab::limits::MAX_POINTS).
    let nodes: Vec<NodeSpec> = (0..500).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
    let config = Config { vnodes: 1000, ..Config::default() };
    let ring = Ring::with_nodes(config.clone(), nodes.clone()).unwrap();
    println!(
        "memory, 500 nodes x 1,000 vnodes: {} points, {} bytes, {:.2} bytes per point",
        ring.point_count(),
        ring.memory_bytes(),
        ring.memory_bytes() as f64 / ring.point_count() as f64
    );
    let mut g = c.benchmark_group("500 nodes x 1,000 vnodes (500k points)");
    g.sample_size(10);
    g.bench_function("build", |b| {
        b.iter_batched(|| nodes.clone(), |n| Ring::with_nodes(config.clone(), n).unwrap(), BatchSize::LargeInput)
    });
    g.bench_function("exact shares", |b| b.iter(|| black_box(analysis::shares(&ring))));
    // Onto 499 of those nodes, so the ring reaches the cap and not past it.
    let fewer = Ring::with_nodes(config.clone(), nodes[..499].to_vec()).unwrap();
    g.bench_function("add one node (1,000 points) to 499 of them", |b| {
        b.iter_batched(
            || fewer.clone(),
            |mut r| {
                r.add("one-more").unwrap();
                r
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();

    let counts: Vec<u32> = (0..30).map(|s| (1000f64.powf(s as f64 / 29.0)).round() as u32).collect();
    let mut g = c.benchmark_group("vnode sweep");
    g.bench_function("30 steps, 10 nodes, 1..1000 vnodes", |b| {
        b.iter(|| black_box(analysis::vnode_sweep(&Config::default(), &ten_nodes(), &counts).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, lookups, big_ring);
criterion_main!(benches);
