use super::*;
use crate::algo::balancers::haproxy;
use crate::algo::stores::redis;
use crate::algo::{Algorithm, Cluster, Options};

fn five(algorithm: Algorithm) -> Session {
    let settings = Settings { algorithm, keys: 1000, ..Settings::default() };
    Session::new(settings, (1..=5).map(|i| NodeSpec::new(format!("node-{i}")))).unwrap()
}

/// Everything observable about a session's current state.
fn snapshot(s: &Session) -> (Vec<NodeRow>, Scene, String, Vec<String>) {
    let owners = (0..300).map(|i| s.cluster().locate(format!("probe:{i}")).unwrap().to_string()).collect();
    (s.node_rows(), s.scene(), s.link(), owners)
}

#[test]
fn a_change_then_undo_gives_back_the_identical_state() {
    for algorithm in Algorithm::ALL {
        let mut s = five(algorithm);
        let start = snapshot(&s);
        let changes = [
            Change::Add(NodeSpec::new("node-6")),
            Change::Remove("node-5".into()),
            Change::SetWeight { name: "node-1".into(), weight: 2.0 },
            Change::Configure(Settings { vnodes: 64, hash: Hash::Md5, ..s.settings().clone() }),
        ];
        let mut applied = 0;
        for change in changes {
            let before = snapshot(&s);
            match s.apply(change.clone()) {
                Ok(_) => {
                    applied += 1;
                    let after = snapshot(&s);
                    s.undo().unwrap().expect("something to undo");
                    assert_eq!(snapshot(&s), before, "{algorithm:?}: undo of {change:?}");
                    s.redo().unwrap().expect("something to redo");
                    assert_eq!(snapshot(&s), after, "{algorithm:?}: redo of {change:?}");
                    s.undo().unwrap();
                }
                // Refused (jump keeps its buckets, weightless algorithms refuse weight 2):
                // nothing may have changed.
                Err(_) => assert_eq!(snapshot(&s), before, "{algorithm:?}: failed {change:?}"),
            }
        }
        assert!(applied >= 2, "{algorithm:?}: only {applied} changes applied");
        assert_eq!(snapshot(&s), start);
    }
}

#[test]
fn moved_keys_are_exactly_the_keys_whose_owner_changed() {
    for algorithm in Algorithm::ALL {
        for change in [Change::Add(NodeSpec::new("node-6")), Change::Remove("node-5".into())] {
            let mut s = five(algorithm);
            let before = s.cluster().clone();
            let t = s.apply(change.clone()).unwrap();
            let after = s.cluster();
            let moved: Vec<u32> = (0..1000u32)
                .filter(|i| {
                    let key = format!("key:{i}");
                    before.locate(&key).unwrap() != after.locate(&key).unwrap()
                })
                .collect();
            assert_eq!(t.movers.index, moved, "{algorithm:?} {change:?}");
            assert_eq!(t.movers.count, moved.len());
            let sample = t.sample.unwrap();
            assert_eq!(sample.moved_keys, moved.len());
            // Uniform popularity by default: moved traffic is the moved key fraction.
            assert!((sample.moved_traffic_fraction - moved.len() as f64 / 1000.0).abs() < 1e-12);
            // Colours: the mover's old colour is its old owner's, its new one the new owner's.
            for (m, &k) in t.movers.index.iter().enumerate() {
                let key = format!("key:{k}");
                let new_owner = after.locate_index(&key).unwrap();
                assert_eq!(t.movers.to[m], s.node_rows()[new_owner].colour);
            }
        }
    }
}

#[test]
fn exact_arcs_agree_with_the_keys_that_moved() {
    let mut s = five(Algorithm::Ring);
    let before = s.cluster().clone();
    let t = s.apply(Change::Add(NodeSpec::new("node-6"))).unwrap();
    let exact = t.exact.expect("the ring has arcs");
    assert!(exact.arcs.iter().all(|a| a.to == "node-6"));
    assert!(t.text.contains("exactly") && t.text.contains("hash % N would have moved"), "{}", t.text);
    // Every moved key lies inside a moved arc, and every key that did not move outside.
    let ring = s.cluster().as_ring().unwrap();
    let inside =
        |p: u64| exact.arcs.iter().any(|a| a.start.parse::<u64>().unwrap() <= p && p <= a.end.parse::<u64>().unwrap());
    for i in 0..1000 {
        let key = format!("key:{i}");
        let moved = before.locate(&key).unwrap() != s.cluster().locate(&key).unwrap();
        assert_eq!(inside(ring.key_position(&key)), moved, "{key}");
    }
}

#[test]
fn axis_labels_are_in_each_algorithms_own_key_space() {
    let hash32 = ["0", "2³⁰", "2³¹", "3·2³⁰"];
    let hash64 = ["0", "2⁶²", "2⁶³", "3·2⁶²"];
    for algorithm in Algorithm::ALL {
        let expected: [&str; 4] = match algorithm {
            Algorithm::Ring | Algorithm::BoundedLoad => hash32,
            Algorithm::Libketama | Algorithm::LibmemcachedWeighted | Algorithm::LibmemcachedKetama => hash32,
            Algorithm::Groupcache => hash32,
            // nginx hashes keys with CRC32, HAProxy with its 32-bit functions.
            Algorithm::NginxConsistent | Algorithm::NginxHash => hash32,
            Algorithm::HaproxyConsistent | Algorithm::HaproxyMapBased => hash32,
            Algorithm::RedisCluster => ["slot 0", "slot 4096", "slot 8192", "slot 12288"],
            Algorithm::Cassandra => ["−2⁶³", "−2⁶²", "0", "2⁶²"],
            // xxh3 is a 64-bit hash; jump and multi-probe draw keys at their 64-bit XXH3.
            Algorithm::Jump | Algorithm::MultiProbe | Algorithm::Rendezvous | Algorithm::Modulo => hash64,
            // The bucket hashes whose bucket count changes with N draw keys at their XXH3 hash too.
            Algorithm::Memento | Algorithm::JumpBack | Algorithm::Flip | Algorithm::Binomial | Algorithm::Power => {
                hash64
            }
            // AnchorHash and DxHash show their fixed capacity's buckets (256 by default).
            Algorithm::Anchor | Algorithm::Dx => ["bucket 0", "bucket 64", "bucket 128", "bucket 192"],
            // 65537 entries: a quarter is 16384.25, so the first whole entry after it is 16385.
            Algorithm::Maglev | Algorithm::EnvoyMaglev => ["entry 0", "entry 16385", "entry 32769", "entry 49153"],
            // twemproxy's hashes are 32-bit; Envoy's ring is xxHash64's 2^64.
            Algorithm::TwemproxyKetama | Algorithm::TwemproxyModula => hash32,
            Algorithm::EnvoyRingHash => hash64,
            // The cache clients: their own hashes' widths (uhashring's 128-bit MD5 drawn by its
            // top 64 bits, python-memcached's 15 bits of CRC-32, memjs's |i32|).
            Algorithm::Pymemcache | Algorithm::Dalli | Algorithm::RedisRb4 | Algorithm::RedisRb5 => hash32,
            Algorithm::UhashringKetama | Algorithm::SpymemcachedKetama | Algorithm::SpymemcachedNative => hash32,
            Algorithm::NpmHashring => hash32,
            Algorithm::Uhashring => hash64,
            Algorithm::PythonMemcached => ["0", "2¹³", "2¹⁴", "3·2¹³"],
            Algorithm::Memjs => ["0", "2²⁹", "2³⁰", "3·2²⁹"],
        };
        assert_eq!(five(algorithm).scene().axis, expected.map(String::from), "{algorithm:?}");
    }
    // Rendezvous and modulo with a 32-bit hash draw keys on 2^32.
    let mut s = five(Algorithm::Rendezvous);
    s.apply(Change::Configure(Settings { hash: Hash::Crc32, ..s.settings().clone() })).unwrap();
    assert_eq!(s.scene().axis, hash32.map(String::from));
    // A 64-bit ring.
    let mut s = five(Algorithm::Ring);
    s.apply(Change::Configure(Settings { bits: RingBits::B64, ..s.settings().clone() })).unwrap();
    assert_eq!(s.scene().axis, hash64.map(String::from));
}

#[test]
fn cassandra_draws_the_smallest_token_at_the_top() {
    // Murmur3's MIN token sits at position 0, its 0 token half way round.
    let s = five(Algorithm::Cassandra);
    let a = s.cluster().arcs().unwrap();
    assert_eq!(crate::algo::stores::cassandra::position(i64::MIN), 0);
    assert_eq!(crate::algo::stores::cassandra::position(0), 1 << 63);
    assert_eq!(a.size(), 1u128 << 64);
}

#[test]
fn the_description_names_the_actual_parameters() {
    let mut s = five(Algorithm::Ring);
    assert!(s.scene().description.contains("32 points per unit of weight at xxh3"), "{}", s.scene().description);
    s.apply(Change::Configure(Settings { vnodes: 7, hash: Hash::Md5, ..s.settings().clone() })).unwrap();
    assert!(s.scene().description.contains("7 points per unit of weight at md5"), "{}", s.scene().description);
    assert!(five(Algorithm::Maglev).scene().description.contains("65,537-entry"));
}

#[test]
fn a_failed_change_changes_nothing_and_says_why() {
    let mut s = five(Algorithm::Ring);
    let before = snapshot(&s);
    for (change, code) in [
        (Change::Add(NodeSpec::new("node-1")), "duplicate-node"),
        (Change::Add(NodeSpec::new("")), "empty-name"),
        (Change::Remove("ghost".into()), "unknown-node"),
        (Change::SetWeight { name: "node-1".into(), weight: f64::NAN }, "invalid-weight"),
        (Change::Configure(Settings { vnodes: 0, ..Settings::default() }), "invalid-vnodes"),
        (Change::Configure(Settings { keys: MAX_KEYS + 1, ..Settings::default() }), "too-large"),
    ] {
        assert_eq!(s.apply(change).unwrap_err().code(), code);
        assert_eq!(snapshot(&s), before);
    }
    assert_eq!(s.capabilities().undo, None, "failed changes leave no history");
}

#[test]
fn colours_stay_with_their_nodes() {
    let mut s = five(Algorithm::Ring);
    s.apply(Change::Remove("node-2".into())).unwrap();
    let colours: Vec<(String, u32)> = s.node_rows().into_iter().map(|r| (r.name, r.colour)).collect();
    assert_eq!(colours[1], ("node-3".to_string(), 2), "node-3 keeps its colour when node-2 leaves");
    s.apply(Change::Add(NodeSpec::new("node-6"))).unwrap();
    assert_eq!(s.node_rows().last().unwrap().colour, 1, "the freed colour is reused");
    s.apply(Change::SetWeight { name: "node-1".into(), weight: 3.0 }).unwrap();
    assert_eq!(s.node_rows()[0].colour, 0);
}

#[test]
fn capabilities_come_from_the_algorithm() {
    let ring = five(Algorithm::Ring).capabilities();
    assert!(ring.exact_arcs && ring.exact_shares && ring.replicas && ring.weights && ring.hash && ring.vnodes);
    let jump = five(Algorithm::Jump);
    let caps = jump.capabilities();
    assert!(!caps.exact_arcs && !caps.exact_shares && !caps.replicas && !caps.weights && !caps.hash && !caps.vnodes);
    let rules: Vec<bool> = jump.node_rows().iter().map(|r| r.removal_rule.is_some()).collect();
    assert_eq!(rules, [true, true, true, true, false], "only the last bucket may leave");
    let redis = five(Algorithm::RedisCluster).capabilities();
    assert!(redis.exact_arcs && redis.weights && !redis.hash && !redis.replicas);
}

#[test]
fn follow_walks_to_the_owner_then_the_replicas() {
    let mut s = five(Algorithm::Ring);
    s.apply(Change::Configure(Settings { replicas: 3, ..s.settings().clone() })).unwrap();
    let f = s.follow("user:42").unwrap();
    let ring = s.cluster().as_ring().unwrap();
    let expected: Vec<&str> = ring.replicas("user:42", 3).unwrap().into_vec();
    assert_eq!(f.walk.iter().map(|w| w.name.as_str()).collect::<Vec<_>>(), expected);
    assert_eq!(f.owner, ring.locate("user:42").unwrap());
    assert!(f.text.contains(&format!("Preference list (3 replicas): {}.", expected.join(", "))), "{}", f.text);
    // Each stop is a point of that node, reached clockwise from the key.
    let key = ring.key_position("user:42") as f64 / ring.config().bits.size() as f64;
    let first = f.walk[0].fraction;
    assert!(first >= key || first < 0.01, "the owner's point is at or after the key");
    let redis = five(Algorithm::RedisCluster);
    let f = redis.follow("123456789").unwrap();
    assert!(f.description.contains("slot 12739"), "{}", f.description);
    assert_eq!(f.walk.len(), 1);
}

/// With zones the walk takes a new zone first: the nodes it passes over are named, each of
/// a zone it already has, and the plain walk passes over none.
#[test]
fn a_zoned_walk_passes_over_nodes_of_a_zone_it_has() {
    let settings = Settings { vnodes: 32, replicas: 3, ..Settings::default() };
    let plain =
        Session::new(settings.clone(), parse_node_list("node-1, node-2, node-3, node-4, node-5, node-6").unwrap())
            .unwrap();
    let listed = parse_node_list("node-1@a, node-2@a, node-3@b, node-4@b, node-5@c, node-6@c").unwrap();
    assert!(listed.iter().all(|n| n.zone.is_some()));
    let zoned = Session::new(settings, listed).unwrap();
    let ring = zoned.cluster().as_ring().unwrap();
    let expected: Vec<&str> = ring.replicas("user:7", 3).unwrap().into_vec();
    let f = zoned.follow("user:7").unwrap();
    assert_eq!(f.walk.iter().map(|w| w.name.as_str()).collect::<Vec<_>>(), expected);
    let zone = |name: &str| zoned.nodes().iter().find(|n| n.name == name).unwrap().zone.clone().unwrap();
    let zones: std::collections::BTreeSet<String> = expected.iter().map(|n| zone(n)).collect();
    assert_eq!(zones.len(), 3, "one copy a zone");
    assert!(plain.follow("user:7").unwrap().skipped.is_empty());
    // Every node passed over is of a zone already chosen before it, and the text says so.
    for s in &f.skipped {
        assert!(!expected.contains(&s.name.as_str()));
        assert!(zones.contains(&zone(&s.name)));
        assert!(f.text.contains(&format!("{}, whose zone {} already has a copy", s.name, zone(&s.name))), "{}", f.text);
    }
    assert!(f.text.contains(&format!("{} (zone {})", expected[0], zone(expected[0]))), "{}", f.text);
    // The legend names each node's zone.
    assert!(zoned.node_rows().iter().all(|r| r.legend.starts_with(&format!("{} (zone {}) ", r.name, zone(&r.name)))));
}

#[test]
fn hit_tests_answer_what_is_drawn_there() {
    let s = five(Algorithm::Ring);
    let ring = s.cluster().as_ring().unwrap();
    for f in [0.0, 0.1, 0.25, 0.5, 0.999_999, 1.0] {
        let hit = s.arc_at(f).unwrap();
        let position = ((f * 4294967296.0) as u64).min(u32::MAX as u64);
        assert_eq!(hit.owner, ring.nodes()[ring.owner_of(position).unwrap()].name, "at {f}");
        let (start, end): (u64, u64) = (hit.start.parse().unwrap(), hit.end.parse().unwrap());
        assert!(start == end + 1 || (start..=end).contains(&position) || start > end, "{f}: {start}..{end}");
        assert!(hit.label.as_ref().unwrap().starts_with(&hit.owner));
    }
    assert_eq!(s.arc_at(f64::NAN).map(|h| h.start), Some(s.arc_at(0.0).unwrap().start));
    // The key nearest a key's own position is that key.
    let scene = s.scene();
    let hit = s.key_near(scene.keys[17], 1e-9).unwrap();
    assert_eq!(hit.key, "key:17");
    assert!(s.key_near(0.5, -1.0).is_none());
    assert!(five(Algorithm::Jump).arc_at(0.5).is_none(), "jump has no arcs");
}

#[test]
fn history_is_bounded() {
    let mut s = five(Algorithm::Ring);
    for i in 0..(MAX_HISTORY + 20) {
        s.apply(Change::SetWeight { name: "node-1".into(), weight: 1.0 + (i % 7) as f64 }).unwrap();
    }
    let mut undone = 0;
    while s.undo().unwrap().is_some() {
        undone += 1;
    }
    assert_eq!(undone, MAX_HISTORY);
}

#[test]
fn links_reopen_the_exact_state() {
    let mut s = five(Algorithm::Ring);
    s.apply(Change::Add(NodeSpec::new("we*ird,@name%").weight(0.3).zone("z@1"))).unwrap();
    let back = Session::from_link(&s.link()).unwrap();
    assert_eq!(back.node_rows(), s.node_rows());
    assert_eq!(back.settings(), s.settings());
}

#[test]
fn modulo_replay_moves_nearly_everything() {
    let mut s = five(Algorithm::Ring);
    s.set_compare_modulo(true);
    let t = s.apply(Change::Add(NodeSpec::new("node-6"))).unwrap();
    // 5 -> 6 nodes under hash % N keeps a key only when h mod 30 < 5: about 1/6 stay.
    let moved = t.movers.count as f64 / 1000.0;
    assert!((moved - 5.0 / 6.0).abs() < 0.05, "{moved}");
    assert!(t.text.contains("Replayed under hash % N"));
    let replay = s.last_change().unwrap().unwrap();
    assert!(replay.label.ends_with("(replayed)"));
}

const NGINX: &str = "upstream cache {\n    hash $request_uri consistent;\n    server 10.0.0.1:11211;\n    server 10.0.0.2:11211 weight=2;\n    server 10.0.0.3:11211;\n}\n";

#[test]
fn an_imported_config_marks_a_node_down_and_up_exactly() {
    let mut s = Session::from_cluster(crate::import::nginx::from_nginx_upstream(NGINX).unwrap()).unwrap();
    assert_eq!(s.settings().algorithm, Algorithm::NginxConsistent);
    let before = snapshot(&s);
    let owners_before = s.cluster().clone();
    let t = s.apply(Change::SetDown { name: "10.0.0.2:11211".into(), down: true }).unwrap();
    assert!(t.text.starts_with("Marked 10.0.0.2:11211 down: moved"), "{}", t.text);
    assert!(s.node_rows()[1].down);
    assert!(s.scene().summary.contains("(1 down)"), "{}", s.scene().summary);
    // Only the down server's keys moved, each to a healthy server.
    for &k in &t.movers.index {
        let key = format!("key:{k}");
        assert_eq!(owners_before.locate(&key).unwrap(), "10.0.0.2:11211");
        assert_ne!(s.cluster().locate(&key).unwrap(), "10.0.0.2:11211");
    }
    assert!(t.movers.count > 0);
    // hash % N over the servers that answer goes from 3 to 2: h % 3 == h % 2 only for
    // h ≡ 0, 1 (mod 6), so two thirds of the hash values move.
    let modulo = t.exact.as_ref().unwrap().modulo_fraction;
    assert!((modulo - 2.0 / 3.0).abs() < 1e-6, "{modulo}");
    // The link keeps the down mark; up again restores the placement exactly.
    let back = Session::from_link(&s.link()).unwrap();
    assert!(back.node_rows()[1].down);
    assert_eq!(back.node_rows(), s.node_rows());
    let up = s.apply(Change::SetDown { name: "10.0.0.2:11211".into(), down: false }).unwrap();
    assert_eq!(up.movers.count, t.movers.count, "the same keys go back");
    assert_eq!(snapshot(&s).0, before.0);
    assert_eq!(snapshot(&s).3, before.3);
}

#[test]
fn marking_down_where_the_algorithm_cannot_says_so_and_changes_nothing() {
    let mut s = five(Algorithm::Ring);
    let before = snapshot(&s);
    match s.apply(Change::SetDown { name: "node-1".into(), down: true }) {
        Ok(_) => {} // the ring may support it; then undo must restore
        Err(e) => {
            assert!(!e.to_string().is_empty());
            assert_eq!(snapshot(&s), before);
        }
    }
    assert_eq!(s.apply(Change::SetDown { name: "ghost".into(), down: true }).unwrap_err().code(), "unknown-node");
}

#[test]
fn haproxy_settings_ride_in_the_link() {
    let text = "backend web\n    balance hdr(X-Key)\n    hash-type consistent crc32 avalanche\n    server a 10.0.0.1:80\n    server b 10.0.0.2:80 weight 3\n";
    let s = Session::from_cluster(crate::import::haproxy::from_haproxy_backend(text).unwrap()).unwrap();
    let back = Session::from_link(&s.link()).unwrap();
    assert_eq!(back.settings(), s.settings());
    for i in 0..200 {
        let key = format!("k{i}");
        assert_eq!(back.cluster().locate(&key).unwrap(), s.cluster().locate(&key).unwrap());
    }
}

#[test]
fn zipf_popularity_weighs_traffic_by_rank() {
    let mut s = five(Algorithm::Ring);
    let t = s.apply(Change::Configure(Settings { zipf: 1.0, ..s.settings().clone() })).unwrap();
    assert_eq!(t.movers.count, 0, "popularity moves no key");
    let before = s.cluster().clone();
    let t = s.apply(Change::Add(NodeSpec::new("node-6"))).unwrap();
    // Independently: key k weighs 1/(k+1); the moved keys' share of the total.
    let weight = |k: usize| 1.0 / (k + 1) as f64;
    let total: f64 = (0..1000).map(weight).sum();
    let moved: f64 = (0..1000)
        .filter(|k| before.locate(format!("key:{k}")).unwrap() != s.cluster().locate(format!("key:{k}")).unwrap())
        .map(weight)
        .sum();
    let sample = t.sample.unwrap();
    assert!((sample.moved_traffic_fraction - moved / total).abs() < 1e-12);
    assert_eq!(sample.zipf_s, 1.0);
    assert!(t.text.contains("of the requests"), "{}", t.text);
    // Rows' traffic adds up to 1; key:0 (the hottest) belongs to the hottest-listed node's share.
    let rows = s.node_rows();
    assert!((rows.iter().map(|r| r.traffic).sum::<f64>() - 1.0).abs() < 1e-9);
    let owner0 = s.cluster().locate_index("key:0").unwrap();
    assert!(rows[owner0].traffic >= weight(0) / total);
    assert!(s.scene().summary.contains("the hottest node"), "{}", s.scene().summary);
    assert_eq!(
        s.apply(Change::Configure(Settings { zipf: 2.5, ..s.settings().clone() })).unwrap_err().code(),
        "invalid-option"
    );
}

#[test]
fn bounded_load_says_what_its_cap_does_to_the_hottest_node() {
    let mut s = five(Algorithm::BoundedLoad);
    s.apply(Change::Configure(Settings { zipf: 1.0, ..s.settings().clone() })).unwrap();
    let summary = s.scene().summary;
    assert!(summary.contains("On the plain ring (no load bound) the hottest node would serve"), "{summary}");
    // The plain ring's figure, independently: the largest per-node popularity sum.
    let ring = Cluster::new(
        Settings { algorithm: Algorithm::Ring, zipf: 1.0, ..s.settings().clone() }.options(),
        (1..=5).map(|i| NodeSpec::new(format!("node-{i}"))),
    )
    .unwrap();
    let total: f64 = (0..1000).map(|k| 1.0 / (k + 1) as f64).sum();
    let mut per = [0f64; 5];
    for k in 0..1000 {
        per[ring.locate_index(format!("key:{k}")).unwrap()] += 1.0 / (k + 1) as f64 / total;
    }
    let hottest = per.iter().cloned().fold(0.0, f64::max);
    assert!(summary.contains(&format!("would serve {:.1}%", hottest * 100.0)), "{summary} vs {hottest}");
}

#[test]
fn the_legend_says_what_each_node_serves_once_keys_are_popular() {
    let mut s = five(Algorithm::Ring);
    assert!(s.node_rows().iter().all(|r| !r.legend.contains("requests")), "uniform keys: shares alone");
    s.apply(Change::Configure(Settings { zipf: 1.0, ..s.settings().clone() })).unwrap();
    // Independently: each node's sum of 1/(k+1) over the sample keys it owns.
    let total: f64 = (0..1000).map(|k| 1.0 / (k + 1) as f64).sum();
    let mut per = [0f64; 5];
    for k in 0..1000 {
        per[s.cluster().locate_index(format!("key:{k}")).unwrap()] += 1.0 / (k + 1) as f64 / total;
    }
    for (row, served) in s.node_rows().iter().zip(per) {
        let want = format!(" · {:.1}% of requests", served * 100.0);
        assert!(row.legend.starts_with(&row.name) && row.legend.ends_with(&want), "{} vs {want}", row.legend);
    }
}

#[test]
fn every_change_reports_its_cost_beside_modulo() {
    // The issue's tier: 10 nodes going to 11, 10M items of 1 KB.
    let settings = Settings { vnodes: 160, ..Settings::default() };
    let mut s = Session::new(settings, (1..=10).map(|i| NodeSpec::new(format!("node-{i}")))).unwrap();
    s.set_workload(Some(crate::cost::Workload { items: 10_000_000, item_bytes: 1000.0, requests_per_sec: 5000.0 }))
        .unwrap();
    let before = s.cluster().clone();
    let t = s.apply(Change::Add(NodeSpec::new("node-11"))).unwrap();
    let cost = t.cost.expect("a workload gives a cost");
    // Independently: the joiner's exact share of the ring, times the items.
    let joined = s.cluster().exact_shares().unwrap()[10];
    assert_eq!(cost.placement.items_moved, (10_000_000.0 * joined).round() as u64);
    assert!((800_000..1_000_000).contains(&cost.placement.items_moved), "about 0.9M: {}", cost.placement.items_moved);
    // hash % N, 10 → 11: a value stays only when h mod 110 < 10, so 100/110 of the items move.
    assert_eq!(cost.modulo.items_moved, 9_090_909);
    assert!(t.text.contains("for 10,000,000 items of 1.0 KB at 5,000 requests/s"), "{}", t.text);
    // The readout's three lines: what moved, what it cost, what hash % N would have done.
    let l = &t.lines;
    assert!(l.moved.starts_with("Added node-11: moved ") && l.moved.ends_with("% of the key space."), "{}", l.moved);
    let items = crate::decimal::thousands(cost.placement.items_moved);
    assert!(l.cost.as_deref().unwrap().starts_with(&format!("Cost: {items} items (")), "{:?}", l.cost);
    assert_eq!(
        l.modulo.as_deref(),
        Some("hash % N would have moved 90.9%: 9,090,909 items (9.1 GB), 4,545 extra misses/s until warm.")
    );
    assert!(before.nodes().len() == 10);
    // The workload rides in the link.
    let back = Session::from_link(&s.link()).unwrap();
    assert_eq!(back.workload(), s.workload());
    assert_eq!(
        s.set_workload(Some(crate::cost::Workload { items: 1, item_bytes: f64::NAN, requests_per_sec: 1.0 }))
            .unwrap_err()
            .code(),
        "invalid-option"
    );
}

#[test]
fn a_failed_redis_master_loses_its_keys_and_says_what_redis_does() {
    let mut s = five(Algorithm::RedisCluster);
    let before = s.cluster().clone();
    let t = s.apply(Change::SetDown { name: "node-2".into(), down: true }).unwrap();
    let owned: usize = (0..1000).filter(|k| before.locate(format!("key:{k}")).unwrap() == "node-2").count();
    assert_eq!(t.lost, owned, "every key of the failed master, and only those");
    assert!(t.text.contains(&format!("{owned} keys lost their owner")), "{}", t.text);
    assert!(t.text.contains("is promoted"), "{}", t.text);
    assert!(s.scene().summary.contains("have no owner while nodes are down"));
    let up = s.apply(Change::SetDown { name: "node-2".into(), down: false }).unwrap();
    assert_eq!(up.movers.count, owned, "the same keys come back");
}

#[test]
fn a_users_key_list_replaces_the_sample() {
    let mut s = five(Algorithm::Ring);
    let list = crate::keys::parse_key_list("key,count\nuser:1,100\nuser:2,1\nuser:3,1\n\"a,b\",2\n").unwrap();
    s.use_key_list(Some(list)).unwrap();
    let rows = s.node_rows();
    assert_eq!(rows.iter().map(|r| r.keys).sum::<usize>(), 4);
    // Traffic is the counts: user:1's owner serves at least 100 of the 104 requests.
    let hot = s.cluster().locate_index("user:1").unwrap();
    assert!(rows[hot].traffic >= 100.0 / 104.0 - 1e-12);
    assert_eq!(s.key_name(3).as_deref(), Some("a,b"));
    let before = s.cluster().clone();
    let t = s.apply(Change::Remove(before.locate("user:1").unwrap().to_string())).unwrap();
    let moved: Vec<u32> = ["user:1", "user:2", "user:3", "a,b"]
        .iter()
        .enumerate()
        .filter(|(_, k)| before.locate(k).unwrap() != s.cluster().locate(k).unwrap())
        .map(|(i, _)| i as u32)
        .collect();
    assert_eq!(t.movers.index, moved);
    assert!(t.text.contains("of 4 keys") && t.text.contains("of the requests"), "{}", t.text);
    assert!(!s.link().contains("user"), "a key list never goes into a link");
    s.use_key_list(None).unwrap();
    assert_eq!(s.scene().keys.len(), 1000);
}

#[test]
fn a_key_list_built_by_hand_is_checked_and_a_bad_one_changes_nothing() {
    let mut s = five(Algorithm::Ring);
    let before = snapshot(&s);
    let list = |keys: &[&str], counts: &[u64]| KeyList {
        keys: keys.iter().map(|k| k.to_string()).collect(),
        counts: counts.to_vec(),
        csv: true,
    };
    let refusals = [
        (list(&["a", "b", "c"], &[1]), "one count a key"),
        (list(&["a", "b", "a"], &[1, 1, 1]), "holds \"a\" twice"),
        (
            KeyList { keys: vec!["k".repeat(crate::keys::MAX_LIST_KEY_LEN + 1)], counts: vec![1], csv: false },
            "at most 1024",
        ),
    ];
    for (bad, says) in refusals {
        let e = s.use_key_list(Some(bad)).unwrap_err();
        assert!(e.to_string().contains(says), "{e}");
        assert_eq!(snapshot(&s), before);
        // The session goes on: a change works on the sample it had.
        let mut after = s.clone();
        after.apply(Change::Add(NodeSpec::new("x"))).unwrap();
        assert_eq!(after.node_rows().iter().map(|r| r.keys).sum::<usize>(), 1000);
    }
}

/// Rendezvous scores every node for every key: its sample is capped by the work, at open,
/// at a change and at undo, and a refusal changes nothing.
#[test]
fn the_sample_is_refused_where_placing_it_would_take_seconds() {
    let names = (0..1000).map(|i| format!("&n=n{i}")).collect::<String>();
    let e = Session::from_link(&format!("#ringlab=2&a=rendezvous&k=100000{names}")).unwrap_err();
    assert_eq!(e.code(), "too-large", "{e}");
    assert!(
        e.to_string().contains("the sample's keys on rendezvous with 1000 nodes is at most 2000 (got 100000)"),
        "{e}"
    );
    // At 2,000 keys 1,000 nodes are within the cap (2 × 1,000 × 2,000 = MAX_SAMPLE_WORK).
    assert!(Session::from_link(&format!("#ringlab=2&a=rendezvous&k=2000{names}")).is_ok());

    // 50 rendezvous nodes at 100,000 keys: 2 × 50 × 100,000 > MAX_SAMPLE_WORK.
    let mut s = Session::new(
        Settings { keys: 100_000, ..Settings::default() },
        (0..50).map(|i| NodeSpec::new(format!("n{i}"))),
    )
    .unwrap();
    let before = snapshot(&s);
    let to_rendezvous = Change::Configure(Settings { algorithm: Algorithm::Rendezvous, ..s.settings().clone() });
    assert_eq!(s.apply(to_rendezvous).err().map(|e| e.code()), Some("too-large"));
    assert_eq!(snapshot(&s), before);

    // A key list loaded later is placed on each state undo returns to: too large there, the
    // undo is refused and nothing moves.
    let mut s = Session::new(
        Settings { algorithm: Algorithm::Rendezvous, ..Settings::default() },
        (0..50).map(|i| NodeSpec::new(format!("n{i}"))),
    )
    .unwrap();
    s.apply(Change::Remove("n49".into())).unwrap();
    let mut builder = crate::keys::KeyListBuilder::new();
    builder.push(&(0..40_500).map(|i| format!("user:{i}\n")).collect::<String>()).unwrap();
    // 49 nodes: 2 × 49 × 40,500 = 3,969,000, within the cap; 50 nodes are not.
    s.use_key_list(Some(builder.finish())).unwrap();
    let before = snapshot(&s);
    let e = s.undo().err().map(|e| (e.code(), e.to_string()));
    assert_eq!(
        e,
        Some((
            "too-large",
            "cannot undo with these keys: the sample's keys on rendezvous with 50 nodes is at most 40000 (got 40500)"
                .into()
        ))
    );
    assert_eq!(snapshot(&s), before);
    assert_eq!(s.history_labels().0, Some("Removed n49"));
}

#[test]
fn an_imported_cluster_over_the_session_cap_is_refused() {
    let lines = |n: usize| (0..n).map(|i| format!("10.0.{}.{}:11211\n", i / 256, i % 256)).collect::<String>();
    assert_eq!(Session::from_config("memcached", &lines(MAX_SESSION_NODES)).unwrap().nodes().len(), MAX_SESSION_NODES);
    let e = Session::from_config("memcached", &lines(MAX_SESSION_NODES + 1)).unwrap_err();
    assert!(e.to_string().contains("nodes in a session is at most 1000 (got 1001)"), "{e}");
}

#[test]
fn a_key_list_read_in_pieces_is_the_whole_list() {
    let mut s = five(Algorithm::Ring);
    let lines: Vec<String> = (0..500).map(|i| format!("user:{i}")).collect();
    s.begin_keys();
    for piece in lines.chunks(120) {
        s.push_keys(&piece.join("\n")).unwrap();
    }
    assert_eq!(s.end_keys().unwrap().keys.len(), 500);
    assert_eq!(s.node_rows().iter().map(|r| r.keys).sum::<usize>(), 500);
    // A bad piece drops the pending list and leaves the keys in use alone.
    s.begin_keys();
    s.push_keys("key,count\na,1").unwrap();
    assert_eq!(s.push_keys("b,x").unwrap_err().code(), "parse-error");
    assert_eq!(s.end_keys().unwrap_err().code(), "unsupported");
    assert_eq!(s.scene().keys.len(), 500);
}

/// `a` and `b` give the same owner to each of 500 keys.
#[track_caller]
fn assert_same_owners(a: &Session, b: &Session) {
    for k in 0..500 {
        let key = format!("user:{k}");
        assert_eq!(a.cluster().locate(&key).ok(), b.cluster().locate(&key).ok(), "{key}");
    }
}

/// `base` with `&{field}={value}` is refused as an invalid option, for each value.
#[track_caller]
/// Each of `values` as `field` in link `base` is refused, and so is `field` with a `valid`
/// value on a ring link (the field belongs to another algorithm's links).
fn refused(base: &str, field: &str, values: &[&str], valid: &str) {
    let ring = "#ringlab=2&a=ring&h=xxh3&b=32&v=160&k=100&r=2&n=a&n=b";
    for link in values.iter().map(|value| format!("{base}&{field}={value}")).chain([format!("{ring}&{field}={valid}")])
    {
        let err = Session::from_link(&link).unwrap_err();
        assert_eq!(err.code(), "invalid-option", "{link}: {err}");
    }
}

#[test]
fn a_redis_slot_layout_rides_in_the_link_and_survives_other_settings() {
    // `redis-cli cluster nodes` with an uneven split: 1,001 slots and 15,383.
    let text = "07c37dfeb235213a872192d90877d0cd55635b91 10.0.0.1:6379@16379 myself,master - 0 0 1 connected 0-1000\n\
                e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 10.0.0.2:6379@16379 master - 0 0 2 connected 1001-16383\n";
    let s = Session::from_config("redis", text).unwrap();
    let layout = Some(vec![vec![(0, 1000)], vec![(1001, 16383)]]);
    assert_eq!(redis::ranges_of(&s.cluster().layout()), layout);
    assert!(s.link().ends_with("&rs=0-1000,1001-16383"), "{}", s.link());
    let back = Session::from_link(&s.link()).unwrap();
    assert_eq!(redis::ranges_of(&back.cluster().layout()), layout);
    let shares: Vec<Option<f64>> = back.node_rows().iter().map(|r| r.share).collect();
    assert_eq!(shares, vec![Some(1001.0 / 16384.0), Some(15383.0 / 16384.0)]);
    // Settings that do not place keys leave the slots where they are.
    let mut changed = back;
    changed.apply(Change::Configure(Settings { keys: 500, replicas: 1, ..changed.settings().clone() })).unwrap();
    assert_eq!(redis::ranges_of(&changed.cluster().layout()), layout);

    // A rebalanced layout (a join moves some slots, not a fresh split) reopens too, key for key.
    let mut s = five(Algorithm::RedisCluster);
    s.apply(Change::Add(NodeSpec::new("node-6"))).unwrap();
    s.apply(Change::SetDown { name: "node-2".into(), down: true }).unwrap();
    let back = Session::from_link(&s.link()).unwrap();
    assert_eq!(redis::ranges_of(&back.cluster().layout()), redis::ranges_of(&s.cluster().layout()));
    assert_same_owners(&back, &s);
}

#[test]
fn bad_slot_ranges_in_a_link_are_refused() {
    let base = "#ringlab=2&a=redis-cluster&h=xxh3&b=32&v=160&k=100&r=2&n=a&n=b";
    refused(
        base,
        "rs",
        &["0-100", "0-8191,8192-16384", "0-10,5-20", "x,y", "0-8191,8192-16383,1", "10-5,0"],
        "0-8191,8192-16383",
    );
    // Slots no master owns are allowed (the cluster is then down for them).
    let gap = Session::from_link(&format!("{base}&rs=0-99,200-16383")).unwrap();
    assert_eq!(redis::ranges_of(&gap.cluster().layout()), Some(vec![vec![(0, 99)], vec![(200, 16383)]]));
}

#[test]
fn haproxy_server_ids_ride_in_the_link() {
    // Explicit ids move a server's points (`id × 4096 + i`): web1's 7 and web3's 2 must
    // survive the link (web2 is numbered at start-up around them).
    let text = "backend app\n  balance hdr(X-User)\n  hash-type consistent\n  server web1 10.0.0.1:80 id 7\n  server web2 10.0.0.2:80\n  server web3 10.0.0.3:80 id 2\n";
    let s = Session::from_config("haproxy", text).unwrap();
    assert_eq!(haproxy::ids_of(&s.cluster().layout()), Some(vec![Some(7), None, Some(2)]));
    assert!(s.link().ends_with("&ids=7,,2"), "{}", s.link());
    let back = Session::from_link(&s.link()).unwrap();
    assert_eq!(back.cluster().layout(), s.cluster().layout());
    assert_same_owners(&back, &s);
    // Without the ids the same servers place keys differently: the link needs them.
    let plain = link::encode(s.settings(), &s.nodes().iter().map(Node::spec).collect::<Vec<_>>());
    let renumbered = Session::from_link(&plain).unwrap();
    assert!(
        (0..500)
            .any(|k| renumbered.cluster().locate(format!("user:{k}")).ok()
                != s.cluster().locate(format!("user:{k}")).ok())
    );
    // Switching to map-based keeps the ids; a change that adds a server gives it none.
    let mut s = s;
    s.apply(Change::Configure(Settings { algorithm: Algorithm::HaproxyMapBased, ..s.settings().clone() })).unwrap();
    assert_eq!(haproxy::ids_of(&s.cluster().layout()), Some(vec![Some(7), None, Some(2)]));
    s.apply(Change::Add(NodeSpec::new("web4"))).unwrap();
    assert_eq!(haproxy::ids_of(&s.cluster().layout()), Some(vec![Some(7), None, Some(2), None]));
}

#[test]
fn bad_server_ids_in_a_link_are_refused() {
    let base = "#ringlab=2&a=haproxy-consistent&h=xxh3&b=32&v=160&k=100&r=2&n=a&n=b";
    refused(base, "ids", &["7", "7,x", "7,7", "0,", "1,2,3", "-1,"], "7,");
}

#[test]
fn two_clients_of_the_sessions_pool_agree_or_say_why() {
    let pool = ["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"].map(NodeSpec::new);
    let settings = Settings { algorithm: Algorithm::Dalli, ..Settings::default() };
    let s = Session::new(settings, pool.to_vec()).unwrap();
    let a = s.agreement(Algorithm::Pymemcache, Some("user:42"), None).unwrap();
    assert_eq!((a.algorithm, a.with, a.agreement.exact, a.agreement.keys), ("dalli", "pymemcache", false, 10_000));
    let key = a.key.unwrap();
    // Each answer is that placement's own locate.
    let dalli = Cluster::new(Options::new(Algorithm::Dalli), pool.to_vec()).unwrap();
    let pymemcache = Cluster::new(Options::new(Algorithm::Pymemcache), pool.to_vec()).unwrap();
    assert_eq!(
        (key.a.as_str(), key.b.as_str()),
        (dalli.locate("user:42").unwrap(), pymemcache.locate("user:42").unwrap())
    );
    assert!(a.text.starts_with("Dalli") && a.text.contains("of 10,000 keys to different servers"), "{}", a.text);
    // Against itself: everything agrees, exactly, and the words say so.
    let same = s.agreement(Algorithm::Dalli, None, None).unwrap();
    assert!(same.agreement.exact && same.agreement.disagree == 0.0 && same.agreement.reasons.is_empty());
    assert!(same.text.contains("every key of the key space"), "{}", same.text);
    // The matrix offers every cache client that takes these names, itself included.
    let m = s.agreement_matrix().unwrap();
    assert!(m.algorithms.contains(&"dalli") && m.algorithms.contains(&"memjs"));
    let i = m.algorithms.iter().position(|&n| n == "dalli").unwrap();
    let j = m.algorithms.iter().position(|&n| n == "pymemcache").unwrap();
    assert_eq!(m.disagree[i][j], m.disagree[j][i]);
    assert_eq!(m.disagree[i][i], 0.0);
    // Two clients of the pool, neither the session's, side by side.
    let other = s.agreement(Algorithm::Pymemcache, None, Some(Algorithm::Libketama)).unwrap();
    assert_eq!((other.algorithm, other.with), ("libketama", "pymemcache"));
    assert!(other.text.starts_with("libketama"), "{}", other.text);
}

#[test]
fn the_agreement_matrix_groups_the_clients_that_agree_and_suggests_a_pair_that_does_not() {
    let pool = ["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"].map(NodeSpec::new);
    let settings = Settings { algorithm: Algorithm::Dalli, ..Settings::default() };
    let m = Session::new(settings, pool.to_vec()).unwrap().agreement_matrix().unwrap();
    assert_eq!(m.algorithms[0], "dalli", "the session's client first");
    assert_eq!(m.labels.len(), m.algorithms.len());
    let at = |name: &str| m.algorithms.iter().position(|&n| n == name).unwrap();
    let [a, b] = m.pair.unwrap();
    assert_eq!(a, "dalli");
    assert!(m.disagree[0][at(b)] > 0.0, "the suggested pair disagrees somewhere");
    // Within a group every two agree on every key; across groups (or alone) they do not.
    let group_of = |i: usize| m.groups.iter().position(|g| g.algorithms.contains(&m.algorithms[i]));
    for i in 0..m.algorithms.len() {
        for j in 0..m.algorithms.len() {
            let together = i == j || (group_of(i).is_some() && group_of(i) == group_of(j));
            assert_eq!(m.disagree[i][j] == 0.0, together, "{} and {}", m.algorithms[i], m.algorithms[j]);
        }
    }
    // libketama's continuum as spymemcached rebuilds it, and libmemcached's weighted one as
    // npm's hashring does (tests/real/fixtures: the libraries' own answers).
    let ketama = group_of(at("libketama")).expect("libketama has company");
    assert_eq!(group_of(at("spymemcached-ketama")), Some(ketama));
    assert_eq!(group_of(at("npm-hashring")), group_of(at("libmemcached-weighted")));
    assert!(group_of(at("npm-hashring")).is_some() && group_of(at("npm-hashring")) != Some(ketama));
    assert!(m.groups[ketama].exact);
    assert_eq!(
        m.groups[ketama].text,
        "Every key to the same server: libketama (last.fm); spymemcached, ketama (Java)."
    );
}

#[test]
fn balance_is_over_the_serving_nodes_and_says_how_many_are_down() {
    // On ringlab's ring a down node's keys fail over clockwise: the others then own exactly
    // what they would own on a ring without it, so their spread is that ring's.
    let mut s = five(Algorithm::Ring);
    s.apply(Change::SetDown { name: "node-3".into(), down: true }).unwrap();
    let without =
        Cluster::new(s.settings().options(), ["node-1", "node-2", "node-4", "node-5"].into_iter().map(NodeSpec::new))
            .unwrap();
    let (down, alone) = (s.spread().unwrap(), without.spread().unwrap());
    assert!((down.rsd - alone.rsd).abs() < 1e-12, "{down:?} vs {alone:?}");
    assert!((down.max_over_mean - alone.max_over_mean).abs() < 1e-12);
    let summary = s.scene().summary;
    assert!(summary.contains("(1 down)") && summary.contains("of the 4 serving nodes"), "{summary}");
    // Every node down: no balance to speak of, and the summary says why.
    for name in ["node-1", "node-2", "node-4", "node-5"] {
        s.apply(Change::SetDown { name: name.into(), down: true }).unwrap();
    }
    assert_eq!(s.spread(), None);
    assert!(s.scene().summary.contains("Every node is down"), "{}", s.scene().summary);
}

#[test]
fn hash_mod_n_is_named_only_when_the_serving_count_changes() {
    let mut s = five(Algorithm::Ring);
    let vnodes = s.apply(Change::Configure(Settings { vnodes: 64, ..s.settings().clone() })).unwrap();
    assert!(vnodes.text.contains("exactly") && !vnodes.text.contains("hash % N"), "{}", vnodes.text);
    let weight = s.apply(Change::SetWeight { name: "node-1".into(), weight: 2.0 }).unwrap();
    assert!(!weight.text.contains("hash % N"), "{}", weight.text);
    // A join changes N: 5 → 6 servers, hash % N moves 5/6 of the keys (83.3%).
    let join = s.apply(Change::Add(NodeSpec::new("node-6"))).unwrap();
    assert!(join.text.contains("hash % N would have moved 83.3%"), "{}", join.text);
    let down = s.apply(Change::SetDown { name: "node-2".into(), down: true }).unwrap();
    assert!(down.text.contains("hash % N would have moved"), "{}", down.text);
}

#[test]
fn the_reading_says_arcs_only_where_there_are_arcs() {
    assert!(five(Algorithm::Ring).scene().reading.contains("coloured arc"));
    assert!(five(Algorithm::Jump).scene().reading.contains("no arcs"));
}

/// Steps of an opening until it is ready, and how many it took.
fn open_in_steps(link: &str) -> (Session, usize) {
    let mut opening = Session::opening(link).unwrap();
    let mut steps = 1;
    while !opening.step().unwrap() {
        steps += 1;
    }
    (opening.finish().unwrap(), steps)
}

#[test]
fn a_link_opened_in_steps_is_the_state_it_describes() {
    // 40,000 points and 30,000 keys: several steps of each kind.
    let settings = Settings { vnodes: 2000, keys: 30_000, zipf: 0.8, ..Settings::default() };
    let nodes: Vec<NodeSpec> = (1..=20).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
    let mut built = Session::new(settings, nodes).unwrap();
    for name in ["node-3", "node-17"] {
        built.apply(Change::SetDown { name: name.into(), down: true }).unwrap();
    }
    let (opened, steps) = open_in_steps(&built.link());
    let work = 40_000 * 2 + 30_000 * built.cluster().lookup_cost() as usize;
    assert!(steps > work / crate::limits::OPEN_STEP_WORK, "{steps} steps");
    assert_eq!(snapshot(&opened), snapshot(&built));
    assert_eq!(opened.node_rows().iter().filter(|r| r.down).count(), 2);
}

#[test]
fn a_step_of_an_opening_counts_the_bytes_its_labels_hash() {
    // 20 names of 250 bytes × 1,000 points under SHA-256: each label costs as much as about
    // 127 short ones under XXH3, so the points are hashed over many steps, not two.
    let settings = Settings { hash: Hash::Sha256, vnodes: 1000, keys: 100, ..Settings::default() };
    let nodes: Vec<NodeSpec> = (0..20).map(|i| NodeSpec::new(format!("{i:02}-{}", "n".repeat(247)))).collect();
    let built = Session::new(settings, nodes).unwrap();
    let (opened, steps) = open_in_steps(&built.link());
    let work = 20_000 * (254 * 8usize).div_ceil(16);
    assert!(steps > work / crate::limits::OPEN_STEP_WORK, "{steps} steps for {work}");
    assert_eq!(snapshot(&opened), snapshot(&built));
}

/// A link at the caps (500 nodes × 1,000 vnodes, 100,000 keys) opens in steps of bounded
/// work, down to the pass over its 500,000 points that counts the exact shares and lays out
/// the circle (once a single step of tens of ms in a browser): no step walks more than
/// its budget's points, and the session opened is the one built directly, to the bit.
#[test]
fn a_link_at_the_caps_opens_in_steps_of_bounded_work() {
    let settings = Settings { vnodes: 1000, keys: crate::limits::MAX_SAMPLE_KEYS, ..Settings::default() };
    let built = Session::new(settings, (0..500).map(|i| NodeSpec::new(format!("cache-{i}")))).unwrap();
    let points = built.cluster().arcs().unwrap().point_count();
    assert_eq!(points, 500_000);
    let mut opening = Session::opening(&built.link()).unwrap();
    let mut walked = Vec::new();
    while !opening.step().unwrap() {
        walked.extend(opening.walked());
    }
    walked.push(points);
    let most = crate::limits::OPEN_STEP_WORK * crate::limits::OPEN_WALK_PER_WORK;
    let pieces: Vec<usize> = walked.windows(2).map(|w| w[1] - w[0]).collect();
    assert_eq!(walked[0], 0, "the walk starts at the first point");
    assert!(pieces.iter().all(|&p| p <= most), "pieces of the walk: {pieces:?}");
    assert!(pieces.len() >= points / most, "{} steps", pieces.len());
    let opened = opening.finish().unwrap();
    let (a, b) = (opened.cluster(), built.cluster());
    assert_eq!(a.circle_points(), b.circle_points());
    assert_eq!((a.exact_shares(), a.spread()), (b.exact_shares(), b.spread()));
    assert_eq!(snapshot(&opened), snapshot(&built));
}

#[test]
fn every_algorithm_opens_in_steps_as_it_does_at_once() {
    for algorithm in Algorithm::ALL {
        let s = five(algorithm);
        let (opened, _) = open_in_steps(&s.link());
        assert_eq!(snapshot(&opened), snapshot(&s), "{algorithm:?}");
    }
}

#[test]
fn placing_an_expensive_sample_is_split_into_steps() {
    // Rendezvous scores every node for every key: 200 nodes × 2,000 keys.
    let settings = Settings { algorithm: Algorithm::Rendezvous, keys: 2000, ..Settings::default() };
    let s = Session::new(settings, (0..200).map(|i| NodeSpec::new(format!("n{i}")))).unwrap();
    let (opened, steps) = open_in_steps(&s.link());
    let work = 2000 * s.cluster().lookup_cost() as usize;
    assert!(work > 10 * crate::limits::OPEN_STEP_WORK);
    assert!(steps > work / crate::limits::OPEN_STEP_WORK, "{steps} steps for {work}");
    assert_eq!(snapshot(&opened), snapshot(&s));
}

#[test]
fn an_opening_that_fails_midway_keeps_failing_with_the_same_error() {
    // Too many keys for rendezvous on 1,000 nodes: refused when the sample is placed.
    let nodes: Vec<String> = (0..1000).map(|i| format!("n=n{i}")).collect();
    let link = format!("#ringlab=2&a=rendezvous&k=100000&{}", nodes.join("&"));
    let expected = Session::from_link(&link).unwrap_err();
    assert_eq!(expected.code(), "too-large");
    let mut opening = Session::opening(&link).unwrap();
    let err = loop {
        match opening.step() {
            Ok(false) => {}
            Ok(true) => panic!("opened"),
            Err(e) => break e,
        }
    };
    assert_eq!(err, expected);
    assert_eq!(opening.step().unwrap_err(), expected);
    assert_eq!(opening.finish().unwrap_err(), expected);
}

#[test]
fn every_staged_algorithm_opens_a_big_link_in_many_steps_as_it_does_at_once() {
    let staged: Vec<Algorithm> =
        Algorithm::ALL.into_iter().filter(|a| matches!(a.build(), crate::algo::Build::Staged(_))).collect();
    assert!(staged.len() >= 10, "the ring and the continuum clients: {staged:?}");
    for algorithm in staged {
        let mut settings = Settings { algorithm, keys: 2000, vnodes: 500, ..Settings::default() };
        // Each algorithm's own count of points per node, where it has one, at 256.
        for spec in own_options(algorithm).filter(|s| ["numTokens", "replicas"].contains(&s.name)) {
            settings.options.insert(spec.name, OptionValue::Whole(256));
        }
        let nodes = |n: usize| (0..n).map(|i| NodeSpec::new(format!("10.0.{}.{}:11211", i / 200, i % 200)));
        // libketama's continuum holds 18,723 points: 110 servers of 160.
        let s = Session::new(settings.clone(), nodes(300)).or_else(|_| Session::new(settings, nodes(110))).unwrap();
        let points = s.cluster().arcs().map_or(0, |a| a.point_count());
        let (opened, steps) = open_in_steps(&s.link());
        assert!(points > crate::limits::OPEN_STEP_WORK, "{algorithm:?}: {points} points");
        assert!(steps > points / crate::limits::OPEN_STEP_WORK, "{algorithm:?}: {steps} steps for {points} points");
        assert_eq!(snapshot(&opened), snapshot(&s), "{algorithm:?}");
    }
}

#[test]
fn a_weight_is_a_decimal_in_both_languages() {
    for good in ["2", "0.5", ".5", "5.", "+2", "-1", "1e5", "2.5E-1", "1e+308", "007", "0.000"] {
        assert!(crate::decimal::is_decimal(good), "{good}");
    }
    // Rust's float words, JavaScript's, and what neither reads.
    for bad in [
        "", ".", "+", "e5", "1e", "1e+", "inf", "NaN", "infinity", "Infinity", "0x10", "1_0", "1.2.3", " 2", "2 ",
        "2abc", "--2", "1e5.0", "١",
    ] {
        assert!(!crate::decimal::is_decimal(bad), "{bad}");
        // (A list's items are trimmed, spaces around a weight too.)
        if bad.trim() == bad {
            assert_eq!(super::parse_node_list(&format!("a*{bad}")).unwrap_err().code(), "invalid-weight", "{bad}");
        }
    }
    // The message quotes what was written, not the NaN it is not.
    let said = super::parse_node_list("a, b*0x10").unwrap_err().to_string();
    assert_eq!(said, r#"a weight is a decimal number such as 2 or 0.5 (got "0x10")"#);
    // Every number's own text (shortest and exponent forms) reads back as it.
    let mut bits = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..2000 {
        bits = bits.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let x = f64::from_bits(bits);
        if !x.is_finite() {
            continue;
        }
        for text in [format!("{x}"), format!("{x:e}"), format!("{x:E}")] {
            assert!(crate::decimal::is_decimal(&text), "{text}");
            let nodes = super::parse_node_list(&format!("a*{text}")).unwrap();
            assert_eq!(nodes[0].weight.to_bits(), x.to_bits(), "{text}");
        }
    }
}

/// Zipf s = 0 is the uniform traffic the figure computes without `pow`: the general formula
/// (every weight k^-0 = 1, over their sum) gives 1/count exactly.
#[test]
fn zipf_zero_is_uniform_traffic() {
    for count in [1usize, 3, 7, 2000, 100_000] {
        let general: Vec<f64> = (0..count).map(|k| libm::pow((k + 1) as f64, -0.0)).collect();
        let total: f64 = general.iter().sum();
        let want: Vec<f64> = general.iter().map(|w| w / total).collect();
        assert_eq!(super::zipf_traffic(count, 0.0), want, "{count}");
        assert_eq!(super::uniform_traffic(count), want, "{count}");
    }
}

/// The figure reads the playground's nodes from their list; the session makes them: the same
/// five nodes either way.
#[test]
fn the_playground_nodes_read_as_a_list_are_the_sessions() {
    let listed = parse_node_list(PLAYGROUND_NODES).unwrap();
    assert_eq!(listed, playground_nodes());
    let session = Session::playground();
    let names: Vec<&str> = session.nodes().iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["node-1", "node-2", "node-3", "node-4", "node-5"]);
    assert!(listed.iter().all(|n| n.weight == 1.0 && n.zone.is_none()));
}

#[test]
fn two_clients_apart_are_drawn_on_the_ring_where_they_place_keys_on_it() {
    let pool = ["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"].map(NodeSpec::new);
    let settings = Settings { algorithm: Algorithm::Libketama, ..Settings::default() };
    let s = Session::new(settings, pool.to_vec()).unwrap();
    // Two continuums of MD5 points on the session's circle: the arcs apart are exact, and
    // together as wide as the share the two disagree on.
    let a = s.agreement(Algorithm::LibmemcachedWeighted, None, None).unwrap();
    assert!(a.agreement.exact && a.on_ring, "{a:?}");
    assert!(a.agreement.disagree > 0.0);
    let width: f64 = a.apart.iter().map(|s| s.end_fraction - s.start_fraction).sum();
    assert!((width - a.agreement.disagree).abs() < 1e-9, "{width} vs {}", a.agreement.disagree);
    assert!(a.apart.iter().all(|s| s.from != s.to));
    assert!(!a.ring_text.is_empty());
    // Clients that agree on every key: nothing apart, nothing said.
    let same = s.agreement(Algorithm::SpymemcachedKetama, None, None).unwrap();
    assert!(same.on_ring && same.apart.is_empty() && same.ring_text.is_empty(), "{same:?}");
    // A rendezvous client places no keys on a circle: nothing drawn, and the page says why.
    let off = s.agreement(Algorithm::Pymemcache, None, None).unwrap();
    assert!(!off.on_ring && off.apart.is_empty() && off.ring_text.contains("not drawn"), "{off:?}");
}
