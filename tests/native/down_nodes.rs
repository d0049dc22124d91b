//! A node goes down (it is not removed): the invariants, on every algorithm, with proptest.
//!
//! Expected owners come from the same algorithm with the node *removed* (the real systems'
//! removal is checked against their own code in `real_systems.rs`): skipping a down node on a
//! ring, or rebuilding without it, must answer exactly what removing it answers.

use crate::every_entry::{names, options};
use proptest::prelude::*;
use ringlab::algo::down::{self, DownKind};
use ringlab::algo::{Algorithm, Cluster, Options};
use ringlab::{analysis, migration, Config, NodeSpec, Ring};

fn keys() -> Vec<String> {
    (0..300).map(|i| format!("user:{i}")).collect()
}

/// Each key's owner, or the error's code.
fn owners(cluster: &Cluster) -> Vec<Result<String, &'static str>> {
    keys().iter().map(|k| cluster.locate(k).map(str::to_string).map_err(|e| e.code())).collect()
}

fn points(cluster: &Cluster) -> Option<Vec<(u64, usize)>> {
    cluster.arcs().map(|a| (0..a.point_count()).map(|i| a.point(i)).collect())
}

/// Removing gives the same owners as down for these (nginx retries 21 points, bounded-load
/// recomputes its capacity, HAProxy's map keeps ids: those are checked on their own terms).
fn down_equals_removed(algorithm: Algorithm) -> bool {
    matches!(
        algorithm,
        Algorithm::Ring
            | Algorithm::Cassandra
            | Algorithm::LibmemcachedWeighted
            | Algorithm::LibmemcachedKetama
            | Algorithm::Rendezvous
            | Algorithm::Maglev
            | Algorithm::MultiProbe
    )
}

/// nginx and HAProxy answer keys no hash decides (round robin, 502, 503) as unsupported.
fn load_balancer(algorithm: Algorithm) -> bool {
    matches!(
        algorithm,
        Algorithm::NginxConsistent | Algorithm::NginxHash | Algorithm::HaproxyConsistent | Algorithm::HaproxyMapBased
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn down_nodes_follow_the_real_rule(n in 2usize..7, down_mask in 1u32..64) {
      for algorithm in Algorithm::ALL {
        let names = names(n);
        let down: Vec<usize> = (0..n).filter(|i| down_mask & (1 << i) != 0).collect();
        if down.is_empty() {
            continue;
        }
        let before = Cluster::new(options(algorithm), names.iter().map(|s| s.as_str())).unwrap();
        let mut cluster = before.clone();
        for &d in &down {
            cluster.set_down(&names[d], true).unwrap();
            prop_assert!(cluster.is_down(&names[d]).unwrap());
        }
        let all_down = down.len() == n;
        let (old, new) = (owners(&before), owners(&cluster));
        let rule = down::rule(algorithm);
        for (key, (o, w)) in keys().iter().zip(old.iter().zip(&new)) {
            let owner = o.as_ref().expect("all up");
            let owner_down = down.iter().any(|&d| &names[d] == owner);
            match (rule.kind, w) {
                // nginx balances a key round robin after 21 down points or rehashes.
                (_, Err(code)) if load_balancer(algorithm) && *code == "unsupported" => {}
                (_, Err(code)) => {
                    prop_assert_eq!(*code, "unavailable", "{} {}", algorithm.name(), key);
                    let unavailable_owner = rule.kind == DownKind::Unavailable && owner_down;
                    prop_assert!(unavailable_owner || all_down, "{} {}", algorithm.name(), key);
                }
                (DownKind::Unavailable, Ok(w)) => {
                    prop_assert!(!owner_down, "{}: {key} of a down owner has no owner", algorithm.name());
                    prop_assert_eq!(w, owner);
                }
                (DownKind::Skip, Ok(w)) => {
                    prop_assert!(!down.iter().any(|&d| &names[d] == w), "{} sent {key} to a down node", algorithm.name());
                    if !owner_down {
                        prop_assert_eq!(w, owner, "{}: {} moved though its owner is up", algorithm.name(), key);
                    }
                }
                (DownKind::Rebuild, Ok(w)) => {
                    prop_assert!(!down.iter().any(|&d| &names[d] == w), "{} sent {key} to a down node", algorithm.name());
                }
            }
        }
        // Down as removed, where the real client does exactly that.
        if down_equals_removed(algorithm) && !all_down {
            let mut removed = before.clone();
            for &d in down.iter().rev() {
                removed.remove(&names[d]).unwrap();
            }
            prop_assert_eq!(&new, &owners(&removed), "{}", algorithm.name());
            if let (Some(with_down), Some(without)) = (cluster.exact_shares(), removed.exact_shares()) {
                let live: Vec<f64> = (0..n).filter(|i| !down.contains(i)).map(|i| with_down[i]).collect();
                prop_assert_eq!(live, without, "{}", algorithm.name());
                prop_assert!(down.iter().all(|&d| with_down[d] == 0.0));
            }
        }
        // Up again: exactly the state before.
        for &d in &down {
            cluster.set_down(&names[d], false).unwrap();
        }
        prop_assert_eq!(owners(&cluster), old);
        prop_assert_eq!(points(&cluster), points(&before));
        prop_assert_eq!(cluster.exact_shares(), before.exact_shares());
        prop_assert!((0..n).all(|i| !cluster.is_down(&names[i]).unwrap()));
      }
    }

    #[test]
    fn failed_set_down_changes_nothing(alg in 0usize..Algorithm::ALL.len()) {
        let algorithm = Algorithm::ALL[alg];
        let mut cluster = Cluster::new(options(algorithm), names(4).iter().map(|s| s.as_str())).unwrap();
        cluster.set_down("10.0.0.1:11211", true).unwrap();
        let (owners_before, points_before) = (owners(&cluster), points(&cluster));
        prop_assert_eq!(cluster.set_down("nobody:1", true).unwrap_err().code(), "unknown-node");
        prop_assert_eq!(owners(&cluster), owners_before);
        prop_assert_eq!(points(&cluster), points_before);
    }

    /// With R replicas and at most R − 1 of a key's replicas down, the key keeps a healthy
    /// replica, and the list is the healthy nodes of the old list, topped up with the next
    /// healthy distinct nodes.
    #[test]
    fn replicas_skip_down_nodes(n in 3usize..9, r in 2usize..5, seed in 0u32..1000, zoned in any::<bool>()) {
        let specs: Vec<NodeSpec> = (0..n)
            .map(|i| {
                let spec = NodeSpec::new(format!("n{i}-{seed}"));
                if zoned { spec.zone(format!("z{}", i % 3)) } else { spec }
            })
            .collect();
        let ring = Ring::with_nodes(Config { vnodes: 30, ..Config::default() }, specs).unwrap();
        for key in keys().iter().take(60) {
            let all: Vec<String> = ring.replicas(key, r).unwrap().into_iter().map(str::to_string).collect();
            // Take down up to R − 1 of the key's replicas, chosen by the seed.
            let mut downed = ring.clone();
            let count = 1 + (seed as usize) % (r.min(all.len()) - 1).max(1);
            let victims: Vec<&String> = all.iter().skip(seed as usize % all.len()).chain(all.iter()).take(count.min(r - 1)).collect();
            for v in &victims {
                downed.set_down(v, true).unwrap();
            }
            let list = downed.replicas(key, r).unwrap();
            let up = n - victims.len();
            prop_assert_eq!(list.len(), r.min(up));
            prop_assert!(list.iter().all(|name| !victims.iter().any(|v| v == name)));
            let healthy_old: Vec<&String> = all.iter().filter(|name| !victims.contains(name)).collect();
            prop_assert!(!healthy_old.is_empty(), "a key lost every replica");
            prop_assert!(healthy_old.iter().all(|name| list.contains(&name.as_str())), "{list:?} lost a healthy replica of {all:?}");
            prop_assert_eq!(list[0], downed.locate(key).unwrap());
        }
    }
}

#[test]
fn ring_failover_arcs_are_exactly_the_down_nodes_arcs() {
    let before = Ring::with_nodes(Config::default(), ["a", "b", "c", "d"]).unwrap();
    let mut after = before.clone();
    after.set_down("c", true).unwrap();
    let m = migration::between(&before, &after).unwrap();
    let shares = analysis::shares(&before);
    assert!(m.arcs.iter().all(|arc| arc.from == "c" && arc.to != "c"));
    assert_eq!(m.moved, shares[2]);
    let down_shares = analysis::shares(&after);
    assert_eq!(down_shares[2], 0);
    // Each survivor gains exactly what it takes of c's arcs.
    for (i, name) in ["a", "b", "d"].iter().enumerate() {
        let j = [0, 1, 3][i];
        let gained: u128 = m.arcs.iter().filter(|a| a.to == *name).map(|a| u128::from(a.end - a.start) + 1).sum();
        assert_eq!(down_shares[j], shares[j] + gained, "{name}");
    }
}

#[test]
fn every_node_down_is_unavailable_not_a_panic() {
    for algorithm in Algorithm::ALL {
        let names = names(3);
        let mut cluster = Cluster::new(options(algorithm), names.iter().map(|s| s.as_str())).unwrap();
        for name in &names {
            cluster.set_down(name, true).unwrap();
        }
        for key in ["a", "b", "user:7"] {
            let err = cluster.locate(key).unwrap_err();
            // nginx answers 502 or balances round robin, HAProxy 503: in their own words.
            let want = if load_balancer(algorithm) { "unsupported" } else { "unavailable" };
            assert_eq!(err.code(), want, "{}: {err}", algorithm.name());
        }
        let _ = (cluster.arcs().map(|a| a.point_count()), cluster.exact_shares());
    }
}

#[test]
fn unavailable_keys_say_why() {
    let mut redis = Cluster::new(Options::new(Algorithm::RedisCluster), ["m1", "m2", "m3"]).unwrap();
    let key = (0..).map(|i| format!("k{i}")).find(|k| redis.locate(k).unwrap() == "m2").unwrap();
    redis.set_down("m2", true).unwrap();
    let err = redis.locate(&key).unwrap_err();
    assert_eq!(err.code(), "unavailable");
    assert!(err.to_string().contains("replica"), "{err}");
    // The failed master keeps its slots: shares do not change.
    assert_eq!(redis.exact_shares().unwrap()[1], 5462.0 / 16384.0);

    let mut jump = Cluster::new(Options::new(Algorithm::Jump), ["b0", "b1", "b2"]).unwrap();
    let key = (0..).map(|i| format!("k{i}")).find(|k| jump.locate(k).unwrap() == "b0").unwrap();
    jump.set_down("b0", true).unwrap();
    assert!(jump.locate(&key).unwrap_err().to_string().contains("remap"));
}

#[test]
fn changes_while_a_node_is_down_keep_it_down_and_end_where_they_would() {
    for algorithm in Algorithm::ALL {
        let names = names(4);
        let all_up = Cluster::new(options(algorithm), names.iter().map(|s| s.as_str())).unwrap();
        let mut with_down = all_up.clone();
        with_down.set_down(&names[1], true).unwrap();
        // A join while node 1 is down: node 1 stays down; up again equals the join alone.
        let (mut a, mut b) = (all_up.clone(), with_down.clone());
        a.add("10.0.0.9:11211".into()).unwrap();
        b.add("10.0.0.9:11211".into()).unwrap();
        assert!(b.is_down(&names[1]).unwrap(), "{}", algorithm.name());
        assert!(!b.is_down("10.0.0.9:11211").unwrap());
        b.set_down(&names[1], false).unwrap();
        assert_eq!(owners(&a), owners(&b), "{}", algorithm.name());
        assert_eq!(points(&a), points(&b), "{}", algorithm.name());
        // Removing the down node equals removing it when up (jump only drops its last bucket).
        let last = &names[3];
        let (mut a, mut b) = (all_up.clone(), all_up.clone());
        b.set_down(last, true).unwrap();
        a.remove(last).unwrap();
        b.remove(last).unwrap();
        assert_eq!(owners(&a), owners(&b), "{}", algorithm.name());
        assert_eq!(points(&a), points(&b), "{}", algorithm.name());
        assert!(b.nodes().iter().all(|n| !b.is_down(&n.name).unwrap()));
    }
}
