//! The engine without its `catalog` feature, as the `<hash-ring>` element's first wasm module
//! is built: ringlab's own ring (every hash, both widths) answers exactly as the independent
//! vectors say, and everything the build leaves out is refused with `not-built-in`, naming
//! it, with the state unchanged. `cargo xtask test` runs this file alone in that build:
//! `cargo test --no-default-features --test first_build` (with the catalog it is empty).
#![cfg(not(feature = "catalog"))]

mod common;

use ringlab::algo::{Algorithm, Cluster, Options};
use ringlab::session::{Change, Session, SessionChart, Settings};
use ringlab::{Error, Hash, NodeSpec, RingBits};

fn not_built_in<T: std::fmt::Debug>(result: Result<T, Error>, names: &str) {
    match result {
        Err(e @ Error::NotBuiltIn(_)) => {
            assert_eq!(e.code(), "not-built-in");
            assert!(e.to_string().contains(names), "{e} should name {names}");
        }
        other => panic!("expected not-built-in naming {names}, got {other:?}"),
    }
}

#[test]
fn the_ring_matches_every_independent_vector() {
    let vectors = common::vectors();
    for case in &vectors.cases {
        let mut options = Options::new(Algorithm::Ring);
        options.config.hash = Hash::from_name(&case.hash).unwrap();
        options.config.bits = RingBits::from_bits(case.bits).unwrap();
        options.config.vnodes = case.vnodes;
        let nodes = case.nodes.iter().map(|n| NodeSpec::new(n.name.as_str()).weight(n.weight));
        let cluster = Cluster::new(options, nodes).unwrap();
        for k in &case.keys {
            assert_eq!(cluster.locate(&k.key).unwrap(), k.owner, "{} owner of {:?}", case.hash, k.key);
        }
        // Arc lengths, as integers: exact.
        let shares = ringlab::analysis::shares(cluster.as_ring().unwrap());
        for (node, share) in cluster.nodes().iter().zip(shares) {
            assert_eq!(share.to_string(), case.shares[&node.name], "{} share of {}", case.hash, node.name);
        }
    }
}

#[test]
fn exactly_the_algorithms_that_need_the_catalog_are_refused_by_name() {
    // `needs_catalog` is what the build writes beside the first module for the element to
    // pick a build by: it must say exactly what this build refuses.
    for algorithm in Algorithm::ALL {
        let made = Cluster::new(Options::new(algorithm), ["a", "b"]);
        if algorithm.needs_catalog() {
            not_built_in(made, algorithm.name());
        } else {
            assert_eq!(made.unwrap().nodes().len(), 2, "{}", algorithm.name());
        }
    }
}

#[test]
fn a_session_of_the_ring_works_and_refuses_the_rest_unchanged() {
    let settings = Settings { vnodes: 16, keys: 300, ..Settings::default() };
    let mut s = Session::new(settings, ["a", "b", "c"].map(NodeSpec::new)).unwrap();
    let t = s.apply(Change::Add(NodeSpec::new("d"))).unwrap();
    assert!(t.text.contains('d'), "{}", t.text);
    let link = s.link();
    let scene = s.scene();
    // A change to an algorithm the build lacks: refused, nothing changed.
    let to_jump = Settings { algorithm: Algorithm::Jump, ..s.settings().clone() };
    not_built_in(s.apply(Change::Configure(to_jump)), "jump");
    assert_eq!(s.link(), link);
    assert_eq!(s.scene().key_owners, scene.key_owners);
    // The ring's own link reopens; a link of another algorithm is refused.
    assert_eq!(Session::from_link(&link).unwrap().link(), link);
    let redis = link.replacen("a=ring", "a=redis-cluster", 1) + "&rs=0-100,101-200,201-300,301-16383";
    not_built_in(Session::from_link(&redis), "redis-cluster");
    not_built_in(Session::from_link(&link.replacen("a=ring", "a=haproxy-map-based", 1)), "haproxy-map-based");
    // A hostile link is still read and refused as one, not as a missing algorithm.
    assert_eq!(Session::from_link(&link.replacen("a=ring", "a=<b>", 1)).unwrap_err().code(), "invalid-option");
    not_built_in(
        Session::new(Settings { algorithm: Algorithm::Libketama, ..Settings::default() }, ["a"].map(NodeSpec::new)),
        "libketama",
    );
}

#[test]
fn the_element_views_charts_are_here_and_the_others_are_refused() {
    let s =
        Session::new(Settings { vnodes: 16, keys: 300, ..Settings::default() }, ["a", "b"].map(NodeSpec::new)).unwrap();
    assert!(matches!(s.chart("shares", false, &[]), Ok(SessionChart::Shares(_))));
    assert!(matches!(s.chart("spread", true, &[]), Ok(SessionChart::Spread(_))));
    not_built_in(s.chart("moves", false, &[]), "moves");
    not_built_in(s.chart("algorithms", false, &[]), "algorithms");
    // An unknown kind is still the caller's mistake, not the build's.
    assert_eq!(s.chart("pie", false, &[]).unwrap_err().code(), "invalid-option");
}
