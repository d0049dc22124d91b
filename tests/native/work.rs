//! The work meter (`ringlab::work`): calls whose items are each within their caps but whose
//! work multiplies past what a call may do are refused before the work, with `too-large`
//! naming what was too much, and change nothing; the same calls at ordinary sizes go through.

use ringlab::algo::agreement::{self, Keys};
use ringlab::algo::{compare, metrics, Algorithm, Cluster, OptionValue, Options};
use ringlab::keys::KeySample;
use ringlab::plan::{self, SizingOptions};
use ringlab::rollout::{self, Rollout, Strategy};
use ringlab::session::{Session, Settings};
use ringlab::work::{self, Cost};
use ringlab::{Config, Hash, Label, NodeSpec, Ring, RingRules};
use std::time::{Duration, Instant};

/// Twenty nodes with names of 250 bytes.
fn long_names() -> Vec<NodeSpec> {
    (0..20).map(|i| NodeSpec::new(format!("{i:02}-{}", "n".repeat(247)))).collect()
}

fn refused_for(err: ringlab::Error, cost: Cost) {
    assert_eq!(err.code(), "too-large", "{err}");
    assert!(err.to_string().contains(cost.name()), "{err}");
}

/// A label template repeating `{name}` nine times, on 250-byte names under SHA-256: 20,000
/// points of 2,253-byte labels are 45 MB of SHA-256, refused; the default template on the
/// same nodes, and the long template under XXH3, are built.
#[test]
fn labels_that_multiply_the_bytes_hashed_are_refused_before_hashing() {
    let nine = Label::parse(&format!("{}{{i}}", "{name}".repeat(9))).unwrap();
    let sha = Config { hash: Hash::Sha256, vnodes: 1000, ..Config::default() };
    let rules = RingRules { label: nine.clone(), ..RingRules::default() };
    refused_for(Ring::with_rules(sha.clone(), rules.clone(), long_names()).unwrap_err(), Cost::HashedBytes);
    assert_eq!(Ring::with_rules(sha.clone(), RingRules::default(), long_names()).unwrap().point_count(), 20_000);
    let xxh3 = Config { vnodes: 1000, ..Config::default() };
    assert_eq!(Ring::with_rules(xxh3, rules.clone(), long_names()).unwrap().point_count(), 20_000);

    // A call's own work: a node of weight 15 hashes 15,000 such labels (270 MB weighted),
    // refused, the ring as it was; of weight 5, added.
    let mut ring = Ring::with_rules(sha.clone(), rules.clone(), long_names().into_iter().take(5)).unwrap();
    let before = ring.point_count();
    refused_for(ring.add_node(NodeSpec::new("x".repeat(250)).weight(15.0)).unwrap_err(), Cost::HashedBytes);
    assert_eq!((ring.point_count(), ring.nodes().len()), (before, 5));
    refused_for(ring.set_weight(&long_names()[0].name, 15.0).unwrap_err(), Cost::HashedBytes);
    assert_eq!(ring.point_count(), before);
    ring.add_node(NodeSpec::new("x".repeat(250)).weight(5.0)).unwrap();
    assert_eq!(ring.point_count(), before + 5000);
}

/// Two placements compared on a list of keys hash every key twice: 65,000 keys of 1,024
/// bytes (each within the caps) are 133 MB hashed by two clients, refused; the same count
/// of short keys is measured.
#[test]
fn an_agreement_on_long_keys_is_refused_by_their_bytes() {
    let nodes: Vec<NodeSpec> = (0..5).map(|i| NodeSpec::new(format!("10.0.0.{i}:11211"))).collect();
    let a = Cluster::new(Options::new(Algorithm::Libketama), nodes.clone()).unwrap();
    let b = Cluster::new(Options::new(Algorithm::Dalli), nodes).unwrap();
    let long: Vec<String> = (0..65_000).map(|i| format!("{i:06}{}", "k".repeat(1018))).collect();
    refused_for(agreement::agreement(&a, &b, &Keys::List(long)).unwrap_err(), Cost::HashedBytes);
    let short: Vec<String> = (0..65_000).map(|i| format!("user:{i}")).collect();
    assert_eq!(agreement::agreement(&a, &b, &Keys::List(short)).unwrap().keys, 65_000);
}

/// The same algorithm named twice in the lists that measure algorithms side by side is
/// refused, naming it; each named once is measured.
#[test]
fn an_algorithm_listed_twice_is_refused() {
    let nodes: Vec<NodeSpec> = (0..5).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
    let base = Options::new(Algorithm::Ring);
    let twice = [Algorithm::Jump, Algorithm::Ring, Algorithm::Jump];
    let err = agreement::matrix(&base, &nodes, &twice, "key:", 1000).unwrap_err();
    assert_eq!(err.code(), "invalid-option");
    assert!(err.to_string().contains("jump twice"), "{err}");
    assert!(agreement::matrix(&base, &nodes, &twice[..2], "key:", 1000).is_ok());

    let sample = KeySample::generated("user:", 1000);
    for (_, row) in compare::compare(&base, &nodes, &sample, &twice) {
        assert!(row.unwrap_err().to_string().contains("jump twice"));
    }
    let settings = metrics::MetricsSettings::default();
    for (_, row) in metrics::metrics(&base, &nodes, &sample, &twice, &settings, &[]) {
        assert!(row.unwrap_err().to_string().contains("jump twice"));
    }
    assert!(metrics::metrics(&base, &nodes, &sample, &twice[..2], &settings, &[]).iter().all(|(_, r)| r.is_ok()));
}

/// One call's pieces add up: two charges each within the budget but together over it, in
/// one [`work::call`], are refused at the second, which adds nothing; outside a call each is
/// checked alone; a call inside a call counts toward the outer one; the count ends with the
/// outermost call, even when it panics.
#[test]
fn one_call_adds_up_what_its_pieces_charge() {
    let half = Cost::Probes.budget() / 2 + 1;
    assert!(work::charge(Cost::Probes, half).is_ok() && work::charge(Cost::Probes, half).is_ok());
    work::call(|| {
        work::charge(Cost::Probes, half).unwrap();
        refused_for(work::charge(Cost::Probes, half).unwrap_err(), Cost::Probes);
        assert_eq!(work::spent(Cost::Probes), half);
        // The other costs share what is left: just under half of theirs.
        refused_for(work::charge(Cost::HashedBytes, Cost::HashedBytes.budget() / 2).unwrap_err(), Cost::HashedBytes);
        work::charge(Cost::HashedBytes, Cost::HashedBytes.budget() / 4).unwrap();
        // An inner call is part of this one.
        work::call(|| refused_for(work::charge(Cost::Probes, half).unwrap_err(), Cost::Probes));
        work::call(|| work::charge(Cost::Probes, 10)).unwrap();
        assert_eq!(work::spent(Cost::Probes), half + 10);
    });
    assert_eq!(work::spent(Cost::Probes), 0);
    let panicked = std::panic::catch_unwind(|| {
        work::call(|| -> () {
            work::charge(Cost::Probes, half).unwrap();
            panic!("mid-call");
        })
    });
    assert!(panicked.is_err());
    assert_eq!(work::spent(Cost::Probes), 0);
    work::call(|| work::charge(Cost::Probes, half)).unwrap();
}

/// A ring's change in one call whose two pieces are each within the budget: a node of
/// SHA-256 labels 150 MB weighted, then another, is refused at the second and leaves the
/// ring as it was; each alone, in a call of its own, is made.
#[test]
fn a_call_of_two_changes_each_within_the_budget_is_refused_and_changes_nothing() {
    let nine = Label::parse(&format!("{}{{i}}", "{name}".repeat(9))).unwrap();
    let sha = Config { hash: Hash::Sha256, vnodes: 1000, ..Config::default() };
    let rules = RingRules { label: nine, ..RingRules::default() };
    let ring = Ring::with_rules(sha, rules, long_names().into_iter().take(2)).unwrap();
    // A weight-8 node hashes 8,000 labels of about 2,253 bytes under SHA-256 (weight 8): 144 MB.
    let joiner = |i: usize| NodeSpec::new(format!("{i}{}", "j".repeat(249))).weight(8.0);
    let mut kept = ring.clone();
    let err = work::call(|| {
        let mut next = kept.clone();
        next.add_node(joiner(0))?;
        next.add_node(joiner(1))?;
        kept = next;
        Ok::<(), ringlab::Error>(())
    })
    .unwrap_err();
    refused_for(err, Cost::HashedBytes);
    assert_eq!((kept.point_count(), kept.nodes().len()), (ring.point_count(), 2));
    for i in 0..2 {
        work::call(|| kept.add_node(joiner(i))).unwrap();
    }
    assert_eq!(kept.nodes().len(), 4);
}

/// A refusal comes before the work: well within a second, even in a debug build.
fn quickly<T>(f: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let answer = f();
    assert!(started.elapsed() < Duration::from_secs(1), "took {:?}", started.elapsed());
    answer
}

/// A sizing's search builds a bounded number of rings: doubling, then halving until the
/// last miss is within 1/32 of the answer (not walking to 1), each build charged to the
/// meter, the whole search one call. 50 nodes near the tightest target (and after losing the worst node)
/// walk at most (13 + 5 + 4 + 1) builds × 10,000 vnodes' points, twice.
#[test]
fn a_sizing_search_is_one_bounded_call_that_stops_at_its_precision() {
    let options = SizingOptions { nodes: 50, max_over_mean: 1.08, after_losing: true, ..SizingOptions::default() };
    let (sizing, walked) = work::call(|| (plan::vnodes_for(&options).unwrap(), work::spent(Cost::Probes)));
    assert!(sizing.vnodes.is_some());
    assert!(sizing.max_over_mean.max(sizing.after_losing.unwrap()) <= 1.08);
    assert!(walked <= 23 * 50 * 10_000 * 2, "{walked}");
    // In a call that has walked most of its budget already, it is refused, naming it.
    let err = work::call(|| {
        work::charge(Cost::Probes, Cost::Probes.budget() - 1000).unwrap();
        quickly(|| plan::vnodes_for(&options)).unwrap_err()
    });
    refused_for(err, Cost::Probes);
}

/// Eight ramps of 16 steps on rings of 100,000 points would walk 8 × 16 × 17 × 100,000
/// points to fill their moved tables: refused before any table is walked; two ramps on
/// rings of 10,000 points are compared.
#[test]
fn strategies_whose_tables_together_walk_too_far_are_refused_first() {
    let ring = |names: usize, vnodes: u32| {
        let mut o = Options::new(Algorithm::Ring);
        o.config.vnodes = vnodes;
        let before = Cluster::new(o, (0..names).map(|i| NodeSpec::new(format!("node-{i}")))).unwrap();
        let mut after = before.clone();
        after.add(NodeSpec::new("joiner")).unwrap();
        (before, after)
    };
    let (before, after) = ring(100, 1000);
    let (points, ramp) = (before.arcs().unwrap().point_count(), Strategy::Ramp { steps: 16, every_ms: 100.0 });
    let err = quickly(|| rollout::compare(&before, &after, &Rollout::default(), &[ramp; 8])).unwrap_err();
    refused_for(err, Cost::Probes);
    assert_eq!(before.arcs().unwrap().point_count(), points);
    let (before, after) = ring(10, 1000);
    assert_eq!(rollout::compare(&before, &after, &Rollout::default(), &[ramp; 2]).unwrap().len(), 2);
}

/// Maglev refills its table on every change: metrics at the largest table (500,009) with 8
/// removals would fill 17 tables after the first, refused (that row) before the first
/// change, naming the table cells; the default table (65,537) is measured.
#[test]
fn metrics_refuse_maglev_tables_they_would_refill_too_often() {
    let nodes: Vec<NodeSpec> = (0..20).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
    let settings = metrics::MetricsSettings { removals: 8, ..metrics::MetricsSettings::default() };
    let sample = ringlab::keys::KeySample::generated("key:", 1000);
    let mut big = Options::new(Algorithm::Maglev);
    big.params.insert("tableSize", OptionValue::Whole(ringlab::limits::MAX_MAGLEV_TABLE));
    // Refused after its first table (built to know what a change refills), before a second.
    let started = Instant::now();
    let one = Cluster::new(big.clone(), nodes.clone()).unwrap();
    let table = started.elapsed();
    let started = Instant::now();
    let rows = metrics::metrics(&big, &nodes, &sample, &[Algorithm::Maglev], &settings, &[]);
    assert!(started.elapsed() < 2 * table + Duration::from_millis(100), "{:?} (a table: {table:?})", started.elapsed());
    refused_for(rows[0].1.clone().unwrap_err(), Cost::Cells);
    drop(one);
    let rows =
        metrics::metrics(&Options::new(Algorithm::Maglev), &nodes, &sample, &[Algorithm::Maglev], &settings, &[]);
    assert!(rows[0].1.is_ok());
    // A change of the largest table (a session's) is one table.
    let cluster = Cluster::new(big, nodes).unwrap();
    assert_eq!(cluster.change_cells(), ringlab::limits::MAX_MAGLEV_TABLE);
}

/// DxHash at its largest capacity probes thousands of buckets per lookup on a few nodes:
/// the moves chart's lookups at once (2 to 48 nodes, each joined and left, 2,000 keys) are
/// refused naming the lookups, and the session is as it was; the page's way, one size per
/// call, is drawn whole.
#[test]
fn the_moves_chart_of_dxhash_at_its_capacity_is_refused_at_once_and_drawn_in_pieces() {
    let mut dx = Settings { algorithm: Algorithm::Dx, ..Settings::default() };
    dx.options.insert("capacity", OptionValue::Whole(ringlab::limits::MAX_NODES as u64));
    let mut session = Session::new(dx, (0..5).map(|i| NodeSpec::new(format!("node-{i}")))).unwrap();
    let link = session.link();
    let err = work::call(|| session.chart("moves", false, &[])).unwrap_err();
    refused_for(err, Cost::Lookups);
    assert_eq!(session.link(), link);
    while !work::call(|| session.prepare_chart("moves", false)).unwrap() {}
    assert!(session.chart("moves", false, &[]).is_ok());
}

/// A preference list's walk is charged as the points it may pass: in a call with no
/// probes left, `explain` with replicas is refused, naming them; without, it answers.
#[test]
fn an_explained_preference_list_is_charged_its_walk() {
    let cluster = Cluster::new(Options::new(Algorithm::Ring), (0..5).map(|i| NodeSpec::new(format!("n{i}")))).unwrap();
    let err = work::call(|| {
        work::charge(Cost::Probes, Cost::Probes.budget() - 100).unwrap();
        cluster.explain("user:42", 3).unwrap_err()
    });
    refused_for(err, Cost::Probes);
    assert_eq!(work::call(|| cluster.explain("user:42", 3)).unwrap().replicas.unwrap().len(), 3);
}

/// A client's continuum is rebuilt whole on every change, a digest and a sort a point: each
/// rebuild is charged as table cells, so a call that has filled most of its cells already is
/// refused the change, and the continuum is as it was.
#[test]
fn a_continuum_rebuild_is_charged_and_refused_past_the_budget() {
    let nodes = (0..50).map(|i| NodeSpec::new(format!("10.0.0.{i}:11211")));
    let mut ketama = Cluster::new(Options::new(Algorithm::LibmemcachedKetama), nodes).unwrap();
    let points = ketama.arcs().unwrap().point_count();
    let err = work::call(|| {
        work::charge(Cost::Cells, Cost::Cells.budget() - 1000).unwrap();
        ketama.add(NodeSpec::new("10.0.1.1:11211")).unwrap_err()
    });
    refused_for(err, Cost::Cells);
    assert_eq!((ketama.nodes().len(), ketama.arcs().unwrap().point_count()), (50, points));
    work::call(|| ketama.add(NodeSpec::new("10.0.1.1:11211"))).unwrap();
}

/// Every export of the binding runs in one metered call: the body of each `#[wasm_bindgen]`
/// function, and of each `pub fn` of a `#[wasm_bindgen] impl`, in `src/web/` is one
/// `crate::work::call(…)`, so that what its pieces charge adds up to one budget.
#[test]
fn every_export_of_the_binding_runs_in_one_metered_call() {
    let dir = format!("{}/src/web", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let (mut count, mut bare) = (0, Vec::new());
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "rs")) {
        let code = super::layers::strip(&std::fs::read_to_string(path).unwrap());
        for (name, body) in exports(&code) {
            count += 1;
            if !body.trim_start().starts_with("crate::work::call(") {
                bare.push(format!("{}: {name}", path.display()));
            }
        }
    }
    // Ring, Session, Opening and the free functions: about a hundred exports.
    assert!(count > 90, "the scan found only {count} exports");
    assert!(bare.is_empty(), "exports not run in crate::work::call (src/web/mod.rs says why):\n{}", bare.join("\n"));
}

/// The scan itself: an export outside the meter is found, in an impl and as a function;
/// what is not exported (a private helper, an `impl` without the attribute) is not.
#[test]
fn the_export_scan_finds_an_unmetered_export() {
    let code = "#[wasm_bindgen]\nimpl R {\n    pub fn a(&self) -> u32 { crate::work::call(|| 1) }\n    \
                pub fn b(&self, x: Vec<(u8, u8)>) -> u32 { 2 }\n    fn c() {}\n}\nimpl R { pub fn d() {} }\n\
                #[wasm_bindgen(js_name = eF)]\n/// docs\npub fn e_f() -> Result<(), JsValue> { Ok(()) }\npub fn g() {}";
    let found: Vec<(String, String)> = exports(&super::layers::strip(code));
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a", "b", "e_f"]);
    assert_eq!(found[0].1.trim(), "crate::work::call(|| 1)");
    assert_eq!(found[1].1.trim(), "2");
}

/// The exported functions of a stripped source, with their bodies.
fn exports(code: &str) -> Vec<(String, String)> {
    let matching = |open: usize| {
        let mut depth = 0;
        for (i, c) in code[open..].char_indices() {
            match c {
                '{' | '[' | '(' => depth += 1,
                '}' | ']' | ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return open + i;
                    }
                }
                _ => {}
            }
        }
        panic!("unbalanced from {open}")
    };
    // A function at `at` (its `pub fn`): its name, its body and where the body closes.
    let function = |at: usize| {
        let rest = &code[at + "pub fn".len()..];
        let name: String = rest.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let (mut depth, mut open) = (0, at);
        for (i, c) in code[at..].char_indices() {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                '{' if depth == 0 => {
                    open = at + i;
                    break;
                }
                _ => {}
            }
        }
        let close = matching(open);
        (name, code[open + 1..close].to_string(), close)
    };
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(i) = code[from..].find("#[wasm_bindgen") {
        let attribute = from + i;
        let mut next = matching(attribute + 1) + 1;
        // Doc comments are stripped; further attributes are skipped.
        loop {
            let rest = code[next..].trim_start();
            next = code.len() - rest.len();
            if rest.starts_with("#[") {
                next = matching(next + 1) + 1;
            } else {
                break;
            }
        }
        let rest = &code[next..];
        if rest.starts_with("impl") {
            let open = next + rest.find('{').unwrap();
            let close = matching(open);
            let mut at = open + 1;
            while at < close {
                let item = code[at..close].trim_start();
                at = close - item.len();
                at = if item.starts_with("pub fn") {
                    let (name, body, end) = function(at);
                    found.push((name, body));
                    end + 1
                } else {
                    // Another item: past its body, or its line.
                    match item.find(['{', ';', '\n']) {
                        Some(j) if item[j..].starts_with('{') => matching(at + j) + 1,
                        Some(j) => at + j + 1,
                        None => close,
                    }
                };
            }
            from = close;
        } else {
            if rest.starts_with("pub fn") {
                let (name, body, _) = function(next);
                found.push((name, body));
            }
            from = next;
        }
    }
    found
}
