//! The real systems, bit for bit: every answer below was produced by the real implementation
//! (libmemcached 1.1.4, libketama's C code, redis-cli/redis-server 7.0.15, cassandra-driver's
//! Murmur3, a jump-hash C extension, Go groupcache) by `tests/real/generate.sh`, and ringlab
//! must agree on all of them.

use md5::Digest as _;
use ringlab::algo::{cassandra, jump::jump_hash, redis, Algorithm, Cluster, Options};
use ringlab::NodeSpec;
use serde_json::Value;

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/real/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("fixture exists")).expect("fixture parses")
}

fn s(v: &Value) -> &str {
    v.as_str().expect("a string")
}

fn list(v: &Value) -> &Vec<Value> {
    v.as_array().expect("an array")
}

/// The first point at or after `hash`, else the first: read straight off the point list.
fn found_point(cluster: &Cluster, hash: u64) -> u64 {
    let arcs = cluster.arcs().unwrap();
    let points: Vec<u64> = (0..arcs.point_count()).map(|i| arcs.point(i).0).collect();
    points.iter().copied().find(|&p| p >= hash).unwrap_or(points[0])
}

#[test]
fn libmemcached_matches_on_every_key_and_point() {
    let keys_fixture = fixture("libmemcached.json");
    let continuum = fixture("libmemcached_continuum.json");
    let mut checked = 0;
    for (case, points) in list(&keys_fixture["cases"]).iter().zip(list(&continuum["cases"])) {
        let algorithm = match s(&case["mode"]) {
            "weighted" => Algorithm::LibmemcachedWeighted,
            "ketama" => Algorithm::LibmemcachedKetama,
            other => panic!("unknown mode {other}"),
        };
        let servers: Vec<NodeSpec> = list(&case["servers"])
            .iter()
            .map(|sv| {
                NodeSpec::new(format!("{}:{}", s(&sv["host"]), sv["port"])).weight(sv["weight"].as_f64().unwrap())
            })
            .collect();
        let cluster = Cluster::new(Options::new(algorithm), servers.clone()).unwrap();
        let counts: Vec<u64> = cluster.nodes().iter().map(|n| u64::from(n.points)).collect();
        let expected: Vec<u64> = list(&points["points_per_server"]).iter().map(|c| c.as_u64().unwrap()).collect();
        assert_eq!(counts, expected, "{algorithm:?} points per server for {servers:?}");
        let arcs = cluster.arcs().unwrap();
        let ours: Vec<(u64, u64)> = (0..arcs.point_count()).map(|i| (arcs.point(i).0, arcs.point(i).1 as u64)).collect();
        let theirs: Vec<(u64, u64)> =
            list(&points["points"]).iter().map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap())).collect();
        assert_eq!(ours, theirs, "{algorithm:?} continuum for {servers:?}");
        for k in list(&case["keys"]) {
            let want = k["server"].as_u64().unwrap() as usize;
            assert_eq!(cluster.locate_index(s(&k["key"])).unwrap(), want, "{algorithm:?} key {:?}", k["key"]);
            checked += 1;
        }
    }
    assert!(checked > 40_000, "checked {checked} keys");
}

#[test]
fn libketama_matches_the_real_c_code() {
    let f = fixture("ketama.json");
    let mut checked = 0;
    for case in list(&f["cases"]) {
        let servers: Vec<NodeSpec> = list(&case["servers"])
            .iter()
            .map(|sv| NodeSpec::new(s(&sv["name"])).weight(sv["weight"].as_f64().unwrap()))
            .collect();
        let cluster = Cluster::new(Options::new(Algorithm::Libketama), servers).unwrap();
        let counts: Vec<u64> = cluster.nodes().iter().map(|n| u64::from(n.points)).collect();
        let expected: Vec<u64> = list(&case["points_per_server"]).iter().map(|c| c.as_u64().unwrap()).collect();
        assert_eq!(counts, expected);
        for k in list(&case["keys"]) {
            assert_eq!(cluster.locate(s(&k["key"])).unwrap(), s(&k["server"]), "key {:?}", k["key"]);
            checked += 1;
        }
    }
    assert!(checked > 20_000, "checked {checked} keys");
}

#[test]
fn libketama_published_vectors() {
    let f = fixture("ketama_published.json");
    for vector in list(&f["vectors"]) {
        let servers: Vec<NodeSpec> = list(&vector["servers"])
            .iter()
            .map(|sv| NodeSpec::new(s(&sv["name"])).weight(sv["weight"].as_f64().unwrap()))
            .collect();
        let cluster = Cluster::new(Options::new(Algorithm::Libketama), servers).unwrap();
        if let Some(total) = vector.get("points_total") {
            assert_eq!(cluster.arcs().unwrap().point_count() as u64, total.as_u64().unwrap());
        }
        for k in list(&vector["keys"]) {
            let key = s(&k["key"]);
            let hash = u64::from(u32::from_le_bytes(md5::Md5::digest(key.as_bytes())[..4].try_into().unwrap()));
            assert_eq!(hash, k["hash"].as_u64().unwrap(), "ketama_hashi({key:?})");
            assert_eq!(found_point(&cluster, hash), k["point"].as_u64().unwrap(), "point for {key:?}");
            assert_eq!(cluster.locate(key).unwrap(), s(&k["server"]), "server for {key:?}");
        }
        // ketama_test's whole output for keys "0".."N-1", compared by its published MD5.
        for digest in vector.get("output_md5").map(list).into_iter().flatten() {
            let n = digest["keys"].as_u64().unwrap();
            if n > 100_000 {
                continue; // the 1,000,000-key digest is checked by tests/real/generate.sh
            }
            let mut out = String::from("\n");
            for i in 0..n {
                let key = i.to_string();
                let hash = u64::from(u32::from_le_bytes(md5::Md5::digest(key.as_bytes())[..4].try_into().unwrap()));
                let point = found_point_fast(&cluster, hash);
                out.push_str(&format!("{hash} {point} {}\n", cluster.locate(&key).unwrap()));
            }
            let got: String = md5::Md5::digest(out.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(got, s(&digest["md5"]), "ketama_test output for {n} keys");
        }
    }
}

/// `found_point`, with a binary search for the 100,000-key digest.
fn found_point_fast(cluster: &Cluster, hash: u64) -> u64 {
    let arcs = cluster.arcs().unwrap();
    let n = arcs.point_count();
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if arcs.point(mid).0 < hash {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    arcs.point(if lo == n { 0 } else { lo }).0
}

#[test]
fn redis_key_slots_including_hash_tags() {
    let f = fixture("redis_cluster.json");
    let slots = list(&f["keyslots"]);
    assert!(slots.len() > 3000);
    for k in slots {
        assert_eq!(u64::from(redis::key_slot(s(&k["key"]).as_bytes())), k["slot"].as_u64().unwrap(), "{:?}", k["key"]);
    }
    assert_eq!(redis::key_slot(b"123456789"), 12739, "the spec's CRC16 check value 0x31C3");
}

fn ranges(cluster: &Cluster) -> Vec<Vec<(u64, u64)>> {
    // Read ranges off the exact arcs: each point ends a run of slots.
    let arcs = cluster.arcs().unwrap();
    let mut out = vec![Vec::new(); cluster.nodes().len()];
    let mut start = 0;
    for i in 0..arcs.point_count() {
        let (end, owner) = arcs.point(i);
        out[owner].push((start, end));
        start = end + 1;
    }
    out
}

fn fixture_ranges(v: &Value) -> Vec<Vec<(u64, u64)>> {
    list(v)
        .iter()
        .map(|m| list(m).iter().map(|r| (r[0].as_u64().unwrap(), r[1].as_u64().unwrap())).collect())
        .collect()
}

#[test]
fn redis_cluster_create_add_and_remove_match_redis_cli() {
    let f = fixture("redis_cluster.json");
    for topology in list(&f["topologies"]) {
        let n = topology["masters"].as_u64().unwrap() as usize;
        let names: Vec<String> = (0..n).map(|i| format!("127.0.0.1:{}", 30001 + i)).collect();
        let mut cluster = Cluster::new(Options::new(Algorithm::RedisCluster), names.iter().map(String::as_str)).unwrap();
        assert_eq!(ranges(&cluster), fixture_ranges(&topology["create"]), "create with {n} masters");

        let before = cluster.clone();
        cluster.add(NodeSpec::new("127.0.0.1:new")).unwrap();
        let added = &topology["after_add"];
        assert_eq!(ranges(&cluster), fixture_ranges(&added["ranges"]), "add to {n} masters");
        // The exact migration lists the same slot ranges redis-cli moved.
        let m = ringlab::migration::between(before.arcs().unwrap(), cluster.arcs().unwrap()).unwrap();
        let moved: u64 = list(&added["moved"])
            .iter()
            .flat_map(|mv| list(&mv["ranges"]).iter().map(|r| r[1].as_u64().unwrap() - r[0].as_u64().unwrap() + 1))
            .sum();
        assert_eq!(m.moved, u128::from(moved));
        assert!(m.arcs.iter().all(|a| a.to == "127.0.0.1:new"));

        if let Some(removed) = topology.get("after_remove") {
            let gone = removed["removed"].as_u64().unwrap() as usize;
            let order: Vec<usize> = list(&removed["cli_node_order"]).iter().map(|i| i.as_u64().unwrap() as usize).collect();
            let mut slots = redis::Slots::create(names.iter().map(|n| NodeSpec::new(n.as_str())).collect()).unwrap();
            ringlab::algo::Placement::add(&mut slots, NodeSpec::new("127.0.0.1:new")).unwrap();
            slots.remove_in_cli_order(&names[gone], &order).unwrap();
            let mut expected = fixture_ranges(&removed["ranges"]);
            expected.remove(gone);
            let ours: Vec<Vec<(u64, u64)>> = slots
                .ranges()
                .into_iter()
                .map(|r| r.into_iter().map(|(a, b)| (u64::from(a), u64::from(b))).collect())
                .collect();
            assert_eq!(ours, expected, "remove master {gone} of {} in redis-cli order {order:?}", n + 1);
        }
    }
}

#[test]
fn cassandra_tokens_match_the_driver() {
    let f = fixture("cassandra.json");
    let tokens = list(&f["tokens"]);
    assert!(tokens.len() > 3000);
    for t in tokens {
        let key = s(&t["key"]).as_bytes();
        let want: i64 = s(&t["token"]).parse().unwrap();
        assert_eq!(cassandra::murmur3_h1(key), want, "murmur3 of {:?}", t["key"]);
        if key.is_empty() {
            // The driver hashes b"" to 0; Cassandra's partitioner never hashes it: MINIMUM.
            assert_eq!(cassandra::token(key), i64::MIN);
        } else {
            assert_eq!(cassandra::token(key), want);
        }
    }
}

#[test]
fn jump_matches_the_reference_and_published_vectors() {
    let f = fixture("jump.json");
    let published = list(&f["published"]).iter().flat_map(|p| list(&p["cases"]));
    let mut checked = 0;
    for c in list(&f["cases"]).iter().chain(published) {
        let key: u64 = s(&c["key"]).parse().unwrap();
        let buckets = c["buckets"].as_u64().unwrap() as u32;
        assert_eq!(u64::from(jump_hash(key, buckets)), c["bucket"].as_u64().unwrap(), "jump({key}, {buckets})");
        checked += 1;
    }
    assert!(checked > 6000);
}

#[test]
fn groupcache_matches_go() {
    let f = fixture("groupcache.json");
    for case in list(&f["cases"]) {
        let mut options = Options::new(Algorithm::Groupcache);
        options.replicas = case["replicas"].as_u64().unwrap() as u32;
        let cluster = Cluster::new(options, list(&case["nodes"]).iter().map(s)).unwrap();
        for k in list(&case["keys"]) {
            assert_eq!(cluster.locate(s(&k["key"])).unwrap(), s(&k["node"]), "key {:?}", k["key"]);
        }
    }
}
