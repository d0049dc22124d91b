//! Every input-controlled size has a cap (`ringlab::limits`): one past it is refused with
//! `too-large` (naming the input) and nothing is built; at the cap the call is accepted.

use ringlab::algo::stores::redis;
use ringlab::algo::{compare, Algorithm, Cluster, OptionValue, Options};
use ringlab::migration::KeySample;
use ringlab::{analysis, limits, Config, Error, NodeSpec};

fn names(n: usize) -> Vec<NodeSpec> {
    (0..n).map(|i| NodeSpec::new(format!("n{i}"))).collect()
}

fn too_large<T: std::fmt::Debug>(result: Result<T, Error>, what: &str) {
    match result {
        Err(Error::TooLarge { what: got, .. }) => assert!(got.contains(what), "{got:?} should name {what:?}"),
        other => panic!("expected too-large for {what}, got {other:?}"),
    }
}

#[test]
fn nodes_per_placement() {
    for algorithm in [Algorithm::Jump, Algorithm::Modulo, Algorithm::Rendezvous, Algorithm::RedisCluster] {
        let at_cap = Cluster::new(Options::new(algorithm), names(limits::MAX_NODES)).unwrap();
        assert_eq!(at_cap.nodes().len(), limits::MAX_NODES);
        too_large(Cluster::new(Options::new(algorithm), names(limits::MAX_NODES + 1)), "nodes");
        let mut full = at_cap.clone();
        too_large(full.add(NodeSpec::new("one-more")), "nodes");
        assert_eq!(full.nodes().len(), limits::MAX_NODES);
    }
    let mut ring = Options::new(Algorithm::Ring);
    ring.config.vnodes = 1;
    too_large(Cluster::new(ring, names(limits::MAX_NODES + 1)), "nodes");
}

#[test]
fn zone_names() {
    for algorithm in [Algorithm::Ring, Algorithm::Rendezvous, Algorithm::BoundedLoad] {
        let long = NodeSpec::new("a").zone("z".repeat(limits::MAX_ZONE_LEN + 1));
        too_large(Cluster::new(Options::new(algorithm), [long.clone()]), "zone");
        let mut c = Cluster::new(Options::new(algorithm), ["b"]).unwrap();
        too_large(c.add(long), "zone");
        assert!(c.add(NodeSpec::new("a").zone("z".repeat(limits::MAX_ZONE_LEN))).is_ok());
    }
}

#[test]
fn algorithm_options() {
    let mut maglev = Options::new(Algorithm::Maglev);
    maglev.params.insert("tableSize", OptionValue::Whole(limits::MAX_MAGLEV_TABLE));
    assert!(Cluster::new(maglev.clone(), ["a", "b"]).is_ok());
    maglev.params.insert("tableSize", OptionValue::Whole(1_000_003)); // a prime past the cap
    too_large(Cluster::new(maglev, ["a"]), "Maglev table");

    let mut probes = Options::new(Algorithm::MultiProbe);
    probes.params.insert("probes", OptionValue::Whole(u64::from(limits::MAX_PROBES + 1)));
    too_large(Cluster::new(probes, ["a"]), "probes");

    let mut groupcache = Options::new(Algorithm::Groupcache);
    groupcache.params.insert("replicas", OptionValue::Whole(u64::from(limits::MAX_GROUPCACHE_REPLICAS + 1)));
    too_large(Cluster::new(groupcache, ["a"]), "replicas");

    let mut cassandra = Options::new(Algorithm::Cassandra);
    cassandra.params.insert("numTokens", OptionValue::Whole(u64::from(limits::MAX_NUM_TOKENS + 1)));
    too_large(Cluster::new(cassandra.clone(), ["a"]), "num_tokens");
    cassandra.params.insert("numTokens", OptionValue::Whole(16));
    too_large(Cluster::new(cassandra, [NodeSpec::new("a").weight(1e9)]), "tokens");
}

#[test]
fn continuum_points() {
    // 3000 servers × 100 points is the cap; one more server is past it.
    let servers = |n: usize| (0..n).map(|i| NodeSpec::new(format!("10.0.{}.{}:11211", i / 250, i % 250)));
    let n = (limits::MAX_CONTINUUM_POINTS / 100) as usize;
    too_large(Cluster::new(Options::new(Algorithm::LibmemcachedKetama), servers(n + 1)), "points");
}

#[test]
fn proxy_points_and_fills() {
    // twemproxy's ketama: 160 points a server, so 1,875 servers are the 300,000 cap.
    let servers = |n: usize| (0..n).map(|i| NodeSpec::new(format!("10.0.{}.{}:11212", i / 250, i % 250)));
    let n = (limits::MAX_CONTINUUM_POINTS / 160) as usize;
    let mut full = Cluster::new(Options::new(Algorithm::TwemproxyKetama), servers(n)).unwrap();
    too_large(full.add(NodeSpec::new("one-more")), "points");
    assert_eq!(full.nodes().len(), n);
    // Envoy's Maglev fill: 1,000 hosts of weight 1 beside one of weight 200 take 65,537 × 200
    // / 1,200 × 1,001 ≈ 10.9M steps, past the cap; weight 150 (8.2M) is within it.
    let hosts = |heavy: f64| {
        (0..1001).map(move |i| {
            NodeSpec::new(format!("10.1.{}.{}:80", i / 250, i % 250)).weight(if i == 0 { heavy } else { 1.0 })
        })
    };
    assert!(Cluster::new(Options::new(Algorithm::EnvoyMaglev), hosts(150.0)).is_ok());
    too_large(Cluster::new(Options::new(Algorithm::EnvoyMaglev), hosts(200.0)), "Maglev fill");
    // Envoy's ring: weights 1 and 600,000 give the lightest host ⌈1024 / 600,001⌉ = 1 point,
    // so 600,001 in all, past the points cap; 1 and 400,000 are within it.
    let ring = |heavy: f64| [NodeSpec::new("a:1"), NodeSpec::new("b:1").weight(heavy)];
    assert!(Cluster::new(Options::new(Algorithm::EnvoyRingHash), ring(400_000.0)).is_ok());
    let refused = Cluster::new(Options::new(Algorithm::EnvoyRingHash), ring(600_000.0)).err().map(|e| e.code());
    assert_eq!(refused, Some("too-many-points"));
}

#[test]
fn haproxy_map_table_entries() {
    // 2,000 servers, one of weight 1 (so no common factor) and the rest 250: 499,751 entries.
    let servers = |n: usize| (0..n).map(|i| NodeSpec::new(format!("s{i}")).weight(if i == 0 { 1.0 } else { 250.0 }));
    let at_cap = 1 + (limits::MAX_MAP_TABLE as usize - 1) / 250;
    let mut full = Cluster::new(Options::new(Algorithm::HaproxyMapBased), servers(at_cap)).unwrap();
    too_large(Cluster::new(Options::new(Algorithm::HaproxyMapBased), servers(at_cap + 1)), "map-based table");
    too_large(full.add(NodeSpec::new("one-more").weight(250.0)), "map-based table");
    assert_eq!(full.nodes().len(), at_cap);
    // Weight 1 everywhere: 16,384 servers are 16,384 entries.
    assert!(Cluster::new(Options::new(Algorithm::HaproxyMapBased), names(limits::MAX_NODES)).is_ok());
}

#[test]
fn bounded_load_keys_and_points() {
    let mut o = Options::new(Algorithm::BoundedLoad);
    o.set_keys(&KeySample::generated("k", limits::MAX_BOUNDED_KEYS + 1));
    too_large(Cluster::new(o, ["a"]), "keys");

    let mut o = Options::new(Algorithm::BoundedLoad);
    o.config.vnodes = 10_000;
    o.set_keys(&KeySample::generated("k", 10));
    let nodes = (limits::MAX_BOUNDED_POINTS / 10_000) as usize;
    let mut c = Cluster::new(o, names(nodes)).unwrap();
    too_large(c.add(NodeSpec::new("one-more")), "points");
    assert_eq!(c.nodes().len(), nodes);

    let mut o = Options::new(Algorithm::BoundedLoad);
    o.set_keys(&KeySample { keys: vec!["x".repeat(limits::MAX_KEY_LEN + 1)] });
    too_large(Cluster::new(o, ["a"]), "key");
}

#[test]
fn sweep_steps() {
    let steps: Vec<u32> = (1..=limits::MAX_SWEEP_STEPS as u32 + 1).collect();
    too_large(analysis::vnode_sweep(&Config::default(), &names(3), &steps), "sweep");
    assert!(analysis::vnode_sweep(&Config::default(), &names(3), &steps[1..]).is_ok());
}

#[test]
fn compare_work() {
    let base = Options::new(Algorithm::Ring);
    let keys = (limits::MAX_COMPARE_WORK / Algorithm::ALL.len() as u64) as usize + 1;
    let rows = compare::compare(&base, &names(3), &KeySample::generated("k", keys), &Algorithm::ALL);
    assert!(rows.iter().all(|(_, r)| matches!(r, Err(Error::TooLarge { .. }))));
    let rows = compare::compare(
        &base,
        &names(limits::MAX_COMPARE_NODES + 1),
        &KeySample::generated("k", 10),
        &[Algorithm::Jump],
    );
    too_large(rows.into_iter().next().unwrap().1, "nodes");
}

#[test]
fn lookup_work_and_samples() {
    let rendezvous = Cluster::new(Options::new(Algorithm::Rendezvous), names(1000)).unwrap();
    let max = (limits::MAX_LOOKUP_WORK / rendezvous.lookup_cost()) as usize;
    assert!(rendezvous.check_lookups(max).is_ok());
    too_large(rendezvous.check_lookups(max + 1), "lookups");
    too_large(limits::check_generated(&"p".repeat(limits::MAX_KEY_PREFIX_LEN + 1), 10), "prefix");
    too_large(limits::check_generated("p", limits::MAX_SAMPLE_KEYS + 1), "keys");
    assert!(limits::check_generated(&"p".repeat(limits::MAX_KEY_PREFIX_LEN), limits::MAX_SAMPLE_KEYS).is_ok());
}

#[test]
fn redis_masters_past_the_slots_are_refused() {
    too_large(redis::create_ranges(redis::SLOTS + 1), "masters");
}
