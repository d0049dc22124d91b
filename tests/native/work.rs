//! The work meter (`ringlab::work`): calls whose items are each within their caps but whose
//! work multiplies past what a call may do are refused before the work, with `too-large`
//! naming what was too much, and change nothing; the same calls at ordinary sizes go through.

use ringlab::algo::agreement::{self, Keys};
use ringlab::algo::{compare, metrics, Algorithm, Cluster, Options};
use ringlab::keys::KeySample;
use ringlab::work::Cost;
use ringlab::{Config, Hash, Label, NodeSpec, Ring, RingRules};

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
