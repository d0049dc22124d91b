//! What a change costs, with the numbers, and a user's key list on real changes.

use ringlab::algo::loads::{list_loads, list_moved};
use ringlab::algo::{Algorithm, Cluster, Options};
use ringlab::cost::{self, Workload};
use ringlab::keys::parse_key_list;
use ringlab::{analysis, migration, Config, Ring};

fn tier() -> Workload {
    Workload { items: 10_000_000, item_bytes: 1024.0, requests_per_sec: 100_000.0 }
}

#[test]
fn ten_nodes_to_eleven_ring_against_modulo() {
    let names: Vec<String> = (0..10).map(|i| format!("cache-{i}")).collect();
    let before = Ring::with_nodes(Config::default(), names.iter().map(String::as_str)).unwrap();
    let mut after = before.clone();
    after.add("cache-10").unwrap();
    let m = migration::between(&before, &after).unwrap();
    // A join moves exactly the newcomer's share (counted from the arcs).
    let newcomer = analysis::shares(&after)[10] as f64 / (1u64 << 32) as f64;
    assert_eq!(m.moved_fraction, newcomer);
    let c = cost::compare(&tier(), m.moved_fraction, m.moved_fraction, cost::modulo_fraction(10, 11)).unwrap();
    // About 0.9M for the ring (1/11 = 909,091 on a perfectly even ring; 160 vnodes are within
    // a few percent), against 9.1M for hash % N: of every 110 hash values 100 move.
    assert!((800_000..=1_050_000).contains(&c.placement.items_moved), "{}", c.placement.items_moved);
    eprintln!(
        "10 -> 11 nodes, 10M items of 1 KB: ring moves {} items, hash % N {}",
        c.placement.items_moved, c.modulo.items_moved
    );
    assert_eq!(c.modulo.items_moved, 9_090_909);
    assert_eq!(c.modulo.bytes_moved, 9_090_909.0 * 1024.0);
    assert_eq!(c.placement.items_moved, (10_000_000.0 * newcomer).round() as u64);
    assert!((c.modulo.extra_misses_per_sec - 100_000.0 * 10.0 / 11.0).abs() < 1e-6);
}

#[test]
fn a_failure_costs_the_down_nodes_share() {
    let names: Vec<String> = (0..10).map(|i| format!("cache-{i}")).collect();
    let before = Cluster::new(Options::new(Algorithm::Ring), names.iter().map(String::as_str)).unwrap();
    let mut after = before.clone();
    after.set_down("cache-3", true).unwrap();
    let m = migration::between(before.arcs().unwrap(), after.arcs().unwrap()).unwrap();
    assert_eq!(m.moved_fraction, before.exact_shares().unwrap()[3]);
    // hash % N drops to 9 servers.
    let c = cost::compare(&tier(), m.moved_fraction, m.moved_fraction, cost::modulo_fraction(10, 9)).unwrap();
    assert_eq!(c.modulo.items_moved, 9_000_000);
    assert!(c.placement.items_moved < 1_300_000);
}

#[test]
fn key_lists_measure_a_change_on_the_users_keys() {
    let mut text = String::from("key,count\n");
    for i in 0..20_000 {
        // A few hot keys: key i is asked 1 + (1000 / (i + 1)) times.
        text.push_str(&format!("user:{i},{}\n", 1 + 1000 / (i + 1)));
    }
    let list = parse_key_list(&text).unwrap();
    let before = Cluster::new(Options::new(Algorithm::Ring), ["a", "b", "c", "d"]).unwrap();
    let mut after = before.clone();
    after.add("e".into()).unwrap();

    // Independent tallies, key by key.
    let (mut moved, mut moved_traffic, mut traffic) = (0u64, 0u128, 0u128);
    let mut per_node = [0u64; 4];
    for (key, &count) in list.keys.iter().zip(&list.counts) {
        let (a, b) = (before.locate(key).unwrap(), after.locate(key).unwrap());
        per_node[before.nodes().iter().position(|n| n.name == a).unwrap()] += 1;
        traffic += u128::from(count);
        if a != b {
            assert_eq!(b, "e", "a join moves keys only onto the new node");
            moved += 1;
            moved_traffic += u128::from(count);
        }
    }
    let loads = list_loads(&before, &list).unwrap();
    assert_eq!(loads.keys, per_node);
    assert_eq!(loads.traffic.iter().sum::<u128>(), traffic);
    let m = list_moved(&before, &after, &list).unwrap();
    assert_eq!((m.keys, m.moved_keys, m.lost_keys), (20_000, moved, 0));
    assert_eq!(m.moved_traffic_fraction, moved_traffic as f64 / traffic as f64);

    // A Redis master fails: its keys are lost, not moved.
    let redis = Cluster::new(Options::new(Algorithm::RedisCluster), ["m1", "m2", "m3"]).unwrap();
    let mut failed = redis.clone();
    failed.set_down("m1", true).unwrap();
    let m = list_moved(&redis, &failed, &list).unwrap();
    let on_m1 = list.keys.iter().filter(|k| redis.locate(k).unwrap() == "m1").count() as u64;
    assert_eq!((m.moved_keys, m.lost_keys), (0, on_m1));
    assert_eq!(list_loads(&failed, &list).unwrap().unavailable_keys, on_m1);
}

#[test]
fn of_change_is_exact_with_arcs_and_counted_without() {
    let w = tier();
    // Ring join: exact, equal to the migration's fraction.
    let names: Vec<String> = (0..10).map(|i| format!("cache-{i}")).collect();
    let before = Cluster::new(Options::new(Algorithm::Ring), names.iter().map(String::as_str)).unwrap();
    let mut after = before.clone();
    after.add("cache-10".into()).unwrap();
    let r = cost::of_change(&before, &after, &w, None).unwrap();
    let m = migration::between(before.arcs().unwrap(), after.arcs().unwrap()).unwrap();
    assert!(r.exact);
    assert_eq!((r.placement.moved_fraction, r.lost_fraction), (m.moved_fraction, 0.0));
    assert_eq!(r.modulo.items_moved, 9_090_909);

    // Jump has no arcs: counted on key:0..key:9999, here by hand too.
    let before = Cluster::new(Options::new(Algorithm::Jump), ["b0", "b1", "b2", "b3"]).unwrap();
    let mut after = before.clone();
    after.set_down("b2", true).unwrap();
    let r = cost::of_change(&before, &after, &w, None).unwrap();
    let on_b2 = (0..10_000).filter(|i| before.locate(format!("key:{i}")).unwrap() == "b2").count();
    assert!(!r.exact);
    assert_eq!(r.lost_fraction, on_b2 as f64 / 10_000.0);
    assert_eq!(r.placement.items_moved, (10_000_000.0 * on_b2 as f64 / 10_000.0).round() as u64);
    // hash % N from 4 healthy servers to 3: 3/4 of the keys move (exact over 2^64 values).
    assert_eq!(r.modulo.moved_fraction, cost::modulo_fraction(4, 3));
    assert!((r.modulo.moved_fraction - 0.75).abs() < 1e-12);
}
