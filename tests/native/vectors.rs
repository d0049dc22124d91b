//! The engine agrees with an independent implementation (Python's hashlib/zlib/xxhash/mmh3
//! and a re-implementation of the ring rule) on every vector.

#[path = "../common/mod.rs"]
mod common;

use ringlab::{analysis, Config, Hash, NodeSpec, Ring, RingBits};

#[test]
fn every_vector_matches() {
    let vectors = common::vectors();
    assert!(vectors.cases.len() >= 9, "one case per hash function at least");
    for case in &vectors.cases {
        let config = Config {
            hash: Hash::from_name(&case.hash).unwrap(),
            bits: RingBits::from_bits(case.bits).unwrap(),
            vnodes: case.vnodes,
        };
        let nodes = case.nodes.iter().map(|n| NodeSpec::new(n.name.as_str()).weight(n.weight));
        let ring = Ring::with_nodes(config, nodes).unwrap();
        assert_eq!(ring.point_count(), case.points, "{} points", case.hash);
        let shares = analysis::shares(&ring);
        for (node, share) in ring.nodes().iter().zip(shares) {
            assert_eq!(share.to_string(), case.shares[&node.name], "{} share of {}", case.hash, node.name);
        }
        for k in &case.keys {
            assert_eq!(ring.key_position(&k.key), common::hex(&k.position), "{} position of {:?}", case.hash, k.key);
            assert_eq!(ring.locate(&k.key).unwrap(), k.owner, "{} owner of {:?}", case.hash, k.key);
        }
    }
}

#[test]
fn rendezvous_matches_the_python_implementation() {
    use ringlab::algo::{Algorithm, Cluster, Options};
    let r = common::vectors().rendezvous;
    let mut options = Options::new(Algorithm::Rendezvous);
    options.config.hash = Hash::from_name(&r.hash).unwrap();
    let nodes = r.nodes.iter().map(|n| NodeSpec::new(n.name.as_str()).weight(n.weight));
    let cluster = Cluster::new(options, nodes).unwrap();
    assert!(r.keys.len() > 2000);
    for k in &r.keys {
        assert_eq!(cluster.locate(&k.key).unwrap(), k.owner, "{:?}", k.key);
    }
}
