//! `CLUSTER NODES` text captured from a real 6-node Redis Cluster (tests/real/gen_redis_nodes.py:
//! healthy, a slot in migration, a failed-over master, a master lost with no replica), and the
//! master the real cluster sent each of 3000 keys to (no redirect or `MOVED`). The imported
//! placement must answer the same master for every key, and "unavailable" exactly where the
//! cluster sent the key to a failed master.

use ringlab::import::redis::{from_redis_cluster_nodes, parse_redis_cluster_nodes};
use serde_json::Value;

fn fixture() -> Value {
    serde_json::from_str(include_str!("../real/fixtures/redis_cluster_nodes.json")).unwrap()
}

fn strs(v: &Value) -> Vec<&str> {
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect()
}

/// Compares the placement built from `text` with the cluster's answers; returns how many
/// keys were unavailable.
fn check(name: &str, text: &str, keys: &[&str], owners: &[&str]) -> usize {
    let cluster = from_redis_cluster_nodes(text).unwrap();
    let failed: Vec<String> = parse_redis_cluster_nodes(text)
        .unwrap()
        .into_iter()
        .filter(|n| n.is_master() && n.is_failed())
        .map(|n| n.address)
        .collect();
    let mut unavailable = 0;
    for (key, &owner) in keys.iter().zip(owners) {
        assert!(owner.starts_with("127.0.0.1:"), "{name}: {key:?} got {owner:?} from the cluster");
        match cluster.locate(key) {
            Ok(ours) => assert_eq!(ours, owner, "{name}: {key:?}"),
            Err(e) => {
                assert_eq!(e.code(), "unavailable", "{name}: {key:?}: {e}");
                assert!(failed.iter().any(|f| f == owner), "{name}: {key:?} is unavailable but {owner} is not failed");
                unavailable += 1;
            }
        }
    }
    unavailable
}

#[test]
fn imported_clusters_answer_like_the_real_one() {
    let f = fixture();
    let keys = strs(&f["keys"]);
    let mut seen = Vec::new();
    for s in f["scenarios"].as_array().unwrap() {
        let name = s["name"].as_str().unwrap();
        let text = s["cluster_nodes"].as_str().unwrap();
        let owners = strs(&s["owners"]);
        let unavailable = check(name, text, &keys, &owners);
        let cluster = from_redis_cluster_nodes(text).unwrap();
        match name {
            "healthy" => {
                assert_eq!(unavailable, 0);
                assert_eq!(cluster.nodes().len(), 3, "three masters; replicas are not nodes");
                // redis-cli --cluster create's split of 16384 slots over 3 masters, by port.
                let shares = cluster.exact_shares().unwrap();
                let mut by_name: Vec<(&str, u32)> = cluster
                    .nodes()
                    .iter()
                    .zip(&shares)
                    .map(|(n, s)| (n.name.as_str(), (s * 16384.0).round() as u32))
                    .collect();
                by_name.sort();
                let counts: Vec<u32> = by_name.iter().map(|p| p.1).collect();
                assert_eq!(counts, [5461, 5462, 5461]);
            }
            "migrating" => {
                assert_eq!(unavailable, 0);
                // The source's and the target's own views carry the markers; owners are the same.
                let slot = s["slot"].as_u64().unwrap() as u16;
                for (view, field) in [("source", "source_cluster_nodes"), ("target", "target_cluster_nodes")] {
                    let text = s[field].as_str().unwrap();
                    let nodes = parse_redis_cluster_nodes(text).unwrap();
                    let marked = nodes.iter().find(|n| n.has_flag("myself")).unwrap();
                    let markers = if view == "source" { &marked.migrating } else { &marked.importing };
                    assert_eq!(markers.iter().map(|m| m.0).collect::<Vec<_>>(), [slot], "{view}");
                    assert_eq!(check(view, text, &keys, &owners), 0);
                }
            }
            "failover" => {
                // The killed master is a failed master with no slots; its replica serves them.
                assert_eq!(unavailable, 0);
                let killed = s["killed"].as_str().unwrap();
                assert!(cluster.is_down(killed).unwrap());
                let i = cluster.nodes().iter().position(|n| n.name == killed).unwrap();
                assert_eq!(cluster.exact_shares().unwrap()[i], 0.0);
            }
            "lost" => {
                // The cluster still sends these keys to the dead master (MOVED to it): no one serves them.
                let killed = s["killed"].as_str().unwrap();
                assert_eq!(unavailable, owners.iter().filter(|&&o| o == killed).count());
                assert!(unavailable > 500);
            }
            other => panic!("unknown scenario {other}"),
        }
        seen.push(name.to_string());
    }
    assert_eq!(seen, ["healthy", "migrating", "failover", "lost"]);
}
