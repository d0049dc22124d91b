//! The slowest call of each export at its caps, natively: each call as the binding makes it
//! (its engine work in one [`work::call`]), at sizes at and near the caps of `ringlab::limits`
//! and their products, timed whole whether it answers or is refused. Prints one
//! `row meter_<export> <ms>` line per export (what `cargo xtask bench` reads) and a table.
//!
//! `cargo run --release --example meter`. Each figure is the slowest of three runs of the
//! slowest call; the bench's budget is 250 ms.

use ringlab::algo::{agreement, compare, metrics, Algorithm, Cluster, OptionValue, Options};
use ringlab::keys::KeySample;
use ringlab::plan::{self, PlanOptions, SizingOptions};
use ringlab::rollout::{self, Rollout, Strategy};
use ringlab::session::{Change, Session, Settings};
use ringlab::{limits, work, Config, Hash, NodeSpec, RingBits};
use std::time::Instant;

/// The slowest of three runs of `f`, in ms, and what the last answered (`ok` or the code).
fn time<T>(mut f: impl FnMut() -> Result<T, ringlab::Error>) -> (f64, String) {
    let mut answer = String::new();
    let ms = (0..3)
        .map(|_| {
            let t = Instant::now();
            let result = work::call(&mut f);
            let ms = t.elapsed().as_secs_f64() * 1e3;
            answer = match result {
                Ok(value) => {
                    std::hint::black_box(value);
                    "ok".into()
                }
                Err(e) => e.code().to_string(),
            };
            ms
        })
        .fold(0.0, f64::max);
    (ms, answer)
}

fn names(n: usize, len: usize) -> Vec<NodeSpec> {
    (0..n).map(|i| NodeSpec::new(format!("{i:05}-{}", "n".repeat(len.saturating_sub(6))))).collect()
}

/// Each export's calls: `(export, call, ms, answer)`.
struct Rows(Vec<(&'static str, String, f64, String)>);

impl Rows {
    fn add<T>(&mut self, export: &'static str, call: impl Into<String>, f: impl FnMut() -> Result<T, ringlab::Error>) {
        let (ms, answer) = time(f);
        let call = call.into();
        eprintln!("{export}: {call}: {ms:.1} ms ({answer})");
        self.0.push((export, call, ms, answer));
    }
}

fn main() {
    let mut rows = Rows(Vec::new());
    let sha = Config { hash: Hash::Sha256, bits: RingBits::B64, vnodes: 1000 };

    // Ring: constructor and changes at the point cap with the longest labels the meter allows.
    rows.add("new Ring", "500 nodes × 1,000 vnodes, SHA-256, 56-byte names", || {
        Cluster::new(Options { config: sha.clone(), ..Options::new(Algorithm::Ring) }, names(500, 56))
    });
    rows.add("new Ring", "500 nodes × 1,000 vnodes, SHA-256, 256-byte names (refused)", || {
        Cluster::new(Options { config: sha.clone(), ..Options::new(Algorithm::Ring) }, names(500, 256))
    });
    let mut maglev = Options::new(Algorithm::Maglev);
    maglev.params.insert("tableSize", OptionValue::Whole(limits::MAX_MAGLEV_TABLE));
    rows.add("new Ring", "maglev, 16,384 nodes, table 500,009", || {
        Cluster::new(maglev.clone(), names(limits::MAX_NODES, 12))
    });
    let big = Cluster::new(Options { config: sha.clone(), ..Options::new(Algorithm::Ring) }, names(499, 56)).unwrap();
    rows.add("Ring.add", "1,000 SHA-256 points onto 499,000", || {
        let mut c = big.clone();
        c.add(NodeSpec::new("x".repeat(56)))
    });
    rows.add("Ring.setWeight", "a node to weight 2 on 499,000 SHA-256 points", || {
        let mut c = big.clone();
        c.set_weight(&big.nodes()[0].name, 2.0)
    });
    let ring = big.as_ring().unwrap();
    let specs: Vec<NodeSpec> = ring.nodes().iter().map(ringlab::Node::spec).collect();
    let counts: Vec<u32> = (1..=limits::MAX_SWEEP_STEPS as u32).map(|i| i * 1000 / 32).collect();
    rows.add("Ring.vnodeSweep", "32 steps up to 499,000 SHA-256 points", || {
        ringlab::analysis::vnode_sweep(ring.config(), &specs, &counts)
    });
    rows.add("Ring.explain", "a preference list of 16,384 on 499,000 points", || {
        big.explain("user:42", limits::MAX_NODES)
    });
    let mut after = big.clone();
    after.remove(&big.nodes()[3].name).unwrap();
    after.add(NodeSpec::new("joiner")).unwrap();
    rows.add("Ring.diff", "two rings of 499,000 points", || {
        ringlab::migration::between(big.arcs().unwrap(), after.arcs().unwrap())
    });
    let long_keys: Vec<String> = (0..limits::MAX_KEY_LIST).map(|i| format!("{i:06}{}", "k".repeat(1018))).collect();
    rows.add("Ring.agreement", "100,000 keys of 1,024 bytes, two rings of 499,000 points", || {
        agreement::agreement(&big, &after, &agreement::Keys::List(long_keys.clone()))
    });

    // The analyses over every algorithm.
    let base = Options::new(Algorithm::Ring);
    let nodes200 = names(limits::MAX_COMPARE_NODES, 12);
    let per = (limits::MAX_COMPARE_WORK as usize / Algorithm::ALL.len()).min(limits::MAX_SAMPLE_KEYS);
    let sample = KeySample::generated("key:", per);
    rows.add("compareAlgorithms", format!("every algorithm, 200 nodes, {per} keys"), || {
        Ok(compare::compare(&base, &nodes200, &sample, &Algorithm::ALL))
    });
    let settings = metrics::MetricsSettings { removals: limits::MAX_METRICS_REMOVALS, ..Default::default() };
    let per = limits::MAX_METRICS_WORK as usize / Algorithm::ALL.len();
    let msample = KeySample::generated("key:", per);
    rows.add("metrics", format!("every algorithm, 200 nodes, {per} keys, 8 removals"), || {
        Ok(metrics::metrics(&base, &nodes200, &msample, &Algorithm::ALL, &settings, &[]))
    });
    let small = KeySample::generated("key:", 1000);
    rows.add("metrics", "maglev table 500,009, 200 nodes, 8 removals", || {
        Ok(metrics::metrics(&maglev, &nodes200, &small, &[Algorithm::Maglev], &settings, &[]))
    });
    rows.add("agreementMatrix", "every client, 200 nodes, as many keys as the cap allows", || {
        let clients: Vec<Algorithm> =
            Algorithm::ALL.into_iter().filter(|a| a.entry().family == ringlab::algo::Family::Client).collect();
        let keys = limits::MAX_COMPARE_WORK as usize / clients.len();
        agreement::matrix(&base, &nodes200, &clients, "key:", keys)
    });

    // Rollouts and plans: ring states of 100,000 points (the stage cap over 16 steps).
    let before =
        Cluster::new(Options::new(Algorithm::Ring), names(100, 12).into_iter().map(|n| n.weight(1000.0 / 160.0)))
            .unwrap();
    let mut grown = before.clone();
    grown.remove(&before.nodes()[0].name).unwrap();
    grown.add(NodeSpec::new("joiner").weight(1000.0 / 160.0)).unwrap();
    let ramp = Strategy::Ramp { steps: limits::MAX_PLAN_STEPS, every_ms: 1000.0 };
    let eight = [ramp; limits::MAX_STRATEGIES];
    rows.add("Ring.compareRollouts", "8 ramps of 16 steps, 100,000 points", || {
        rollout::compare(&before, &grown, &Rollout::default(), &eight)
    });
    // The most points whose eight ramps' tables the Probes budget affords (16,000: 100 nodes
    // × 160 vnodes), each stage a ring built and every pair of stages walked.
    let hundred = Cluster::new(Options::new(Algorithm::Ring), names(100, 8)).unwrap();
    let mut hundred_grown = hundred.clone();
    hundred_grown.add(NodeSpec::new("joiner")).unwrap();
    let every_100_ms = [Strategy::Ramp { steps: limits::MAX_PLAN_STEPS, every_ms: 100.0 }; limits::MAX_STRATEGIES];
    rows.add("Ring.compareRollouts", "8 ramps of 16 steps, 16,000 points", || {
        rollout::compare(&hundred, &hundred_grown, &Rollout::default(), &every_100_ms)
    });
    // Tables a call affords, and timelines at the cap on clients × times × strategies.
    let small = Cluster::new(Options::new(Algorithm::Ring), names(10, 12)).unwrap();
    let mut small_grown = small.clone();
    small_grown.add(NodeSpec::new("joiner")).unwrap();
    let crowded = Rollout { clients: 1_000, duration_ms: 10_000.0, step_ms: 20.0, ..Rollout::default() };
    rows.add("Ring.compareRollouts", "8 ramps of 16 steps, 1,600 points, 1,000 clients × 501 times", || {
        rollout::compare(&small, &small_grown, &crowded, &eight)
    });
    rows.add("Ring.propagate", "100,000 points", || rollout::propagate(&before, &grown, &Rollout::default()));
    let staged = PlanOptions { steps: limits::MAX_PLAN_STEPS, ..PlanOptions::default() };
    rows.add("Ring.plan", "16 steps, 100,000 points", || plan::plan(&before, &grown, &staged));
    for (target, losing) in [(1.08, true), (1.05, false), (1.2, true)] {
        let sizing = SizingOptions {
            nodes: limits::MAX_SIZING_NODES,
            max_over_mean: target,
            after_losing: losing,
            ..SizingOptions::default()
        };
        rows.add("vnodesFor", format!("200 nodes, maxOverMean {target}, afterLosing {losing}"), || {
            plan::vnodes_for(&sizing)
        });
    }

    // The session: charts, and opening a link in steps.
    let mut dx = Settings { algorithm: Algorithm::Dx, ..Settings::default() };
    dx.options.insert("capacity", OptionValue::Whole(limits::MAX_NODES as u64));
    let dx_session = Session::new(dx, names(10, 12)).unwrap();
    rows.add("Session.chartData", "moves, DxHash of capacity 16,384", || dx_session.chart("moves", false, &[]));
    let playground = Session::playground();
    rows.add("Session.chartData", "algorithms, the playground", || playground.chart("algorithms", false, &[]));
    let mut heavy = Session::new(
        Settings { hash: Hash::Sha256, vnodes: 1000, keys: limits::MAX_SAMPLE_KEYS, ..Settings::default() },
        names(500, 56),
    )
    .unwrap();
    rows.add("Session.configure", "500 nodes × 1,000 vnodes to SHA-256 64-bit, 100,000 keys", || {
        let mut s = heavy.clone();
        s.apply(Change::Configure(Settings { bits: RingBits::B64, ..s.settings().clone() }))
    });
    heavy.apply(Change::Remove(heavy.nodes()[0].name.clone())).unwrap();
    let link = heavy.link();
    rows.add("Session.fromLink", "499 nodes × 1,000 SHA-256 vnodes, 100,000 keys", || Session::from_link(&link));
    let mut slowest_step = 0f64;
    let mut steps = 0;
    let mut opening = work::call(|| Session::opening(&link)).unwrap();
    loop {
        let t = Instant::now();
        let done = work::call(|| opening.step()).unwrap();
        slowest_step = slowest_step.max(t.elapsed().as_secs_f64() * 1e3);
        steps += 1;
        if done {
            break;
        }
    }
    eprintln!("opening: {steps} steps, the slowest {slowest_step:.1} ms");
    println!("row meter_opening_step {slowest_step:.2}");

    // The slowest call per export.
    let mut exports: Vec<&str> = rows.0.iter().map(|r| r.0).collect();
    exports.dedup();
    println!("| export | slowest call at its caps | answer | ms |\n|---|---|---|---:|");
    for export in exports {
        let (_, call, ms, answer) = rows.0.iter().filter(|r| r.0 == export).max_by(|a, b| a.2.total_cmp(&b.2)).unwrap();
        println!("| `{export}` | {call} | {answer} | {ms:.1} |");
        println!("row meter_{} {ms:.2}", export.replace(['.', ' '], "_"));
    }
}
