//! The real-system comparisons, shared by the native tests (tests/native/real_systems.rs) and the
//! browser tests (tests/web/real_systems.rs): each reads one fixture written by the real program
//! (tests/real/generate.sh), compares ringlab's plain-Rust engine with every answer in it,
//! and returns how many answers it compared. Fixtures are compiled in, so the browser needs
//! no files.

use md5::Digest as _;
use ringlab::algo::papers::jump::jump_hash;
use ringlab::algo::stores::{cassandra, redis};
use ringlab::algo::{Algorithm, Cluster, OptionValue, Options, Placement};
use ringlab::migration::{self, MovedArc};
use ringlab::NodeSpec;
use serde_json::Value;

pub const LIBMEMCACHED: &str = include_str!("../real/fixtures/libmemcached.json");
pub const LIBMEMCACHED_CONTINUUM: &str = include_str!("../real/fixtures/libmemcached_continuum.json");
pub const KETAMA: &str = include_str!("../real/fixtures/ketama.json");
pub const KETAMA_PUBLISHED: &str = include_str!("../real/fixtures/ketama_published.json");
pub const REDIS: &str = include_str!("../real/fixtures/redis_cluster.json");
pub const CASSANDRA: &str = include_str!("../real/fixtures/cassandra.json");
pub const JUMP: &str = include_str!("../real/fixtures/jump.json");
pub const GROUPCACHE: &str = include_str!("../real/fixtures/groupcache.json");

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("fixture parses")
}

fn s(v: &Value) -> &str {
    v.as_str().expect("a string")
}

fn list(v: &Value) -> &Vec<Value> {
    v.as_array().expect("an array")
}

fn u(v: &Value) -> u64 {
    v.as_u64().expect("a number")
}

/// libketama's `ketama_hashi`: MD5 digest bytes 0..4, little-endian (typed from ketama.c,
/// computed here with the md-5 crate, not by ringlab).
fn ketama_hashi(key: &[u8]) -> u64 {
    u64::from(u32::from_le_bytes(md5::Md5::digest(key)[..4].try_into().unwrap()))
}

/// The first point at or after `hash`, else the first: a binary search over the point list.
fn found_point(cluster: &Cluster, hash: u64) -> u64 {
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

/// libmemcached 1.1.4, weighted and plain ketama: point counts, the whole continuum
/// (position and owner of every point) and the server of every key.
pub fn libmemcached() -> usize {
    let keys_fixture = parse(LIBMEMCACHED);
    let continuum = parse(LIBMEMCACHED_CONTINUUM);
    let mut checked = 0;
    let cases = list(&keys_fixture["cases"]);
    assert_eq!(cases.len(), list(&continuum["cases"]).len(), "one continuum per key case");
    for (case, points) in cases.iter().zip(list(&continuum["cases"])) {
        let algorithm = match s(&case["mode"]) {
            "weighted" => Algorithm::LibmemcachedWeighted,
            "ketama" => Algorithm::LibmemcachedKetama,
            other => panic!("unknown mode {other}"),
        };
        // The servers as given to the library: port 0 as given, a unix socket as its path, a
        // parsed list's weight 0 (none written) as 1.
        let servers: Vec<NodeSpec> = list(&case["servers"])
            .iter()
            .map(|sv| {
                let name = if sv.get("unix").is_some() {
                    s(&sv["host"]).to_string()
                } else {
                    format!("{}:{}", s(&sv["host"]), sv["port"])
                };
                NodeSpec::new(name).weight(sv["weight"].as_f64().unwrap().max(1.0))
            })
            .collect();
        let cluster = Cluster::new(Options::new(algorithm), servers.clone()).unwrap();
        let counts: Vec<u64> = cluster.nodes().iter().map(|n| u64::from(n.points)).collect();
        let expected: Vec<u64> = list(&points["points_per_server"]).iter().map(u).collect();
        assert_eq!(counts, expected, "{algorithm:?} points per server for {servers:?}");
        let arcs = cluster.arcs().unwrap();
        let ours: Vec<(u64, u64)> =
            (0..arcs.point_count()).map(|i| (arcs.point(i).0, arcs.point(i).1 as u64)).collect();
        let theirs: Vec<(u64, u64)> = list(&points["points"]).iter().map(|p| (u(&p[0]), u(&p[1]))).collect();
        assert_eq!(ours, theirs, "{algorithm:?} continuum for {servers:?}");
        checked += theirs.len();
        for k in list(&case["keys"]) {
            let want = u(&k["server"]) as usize;
            assert_eq!(cluster.locate_index(s(&k["key"])).unwrap(), want, "{algorithm:?} key {:?}", k["key"]);
            checked += 1;
        }
    }
    checked
}

/// libketama's C code: point counts per server and the server of every key; its shared-memory
/// limit (a continuum that does not fit is refused).
pub fn libketama() -> usize {
    let f = parse(KETAMA);
    let mut checked = 0;
    let shm = &f["shm"];
    for case in list(&shm["cases"]) {
        let servers: Vec<NodeSpec> = list(&case["servers"])
            .iter()
            .map(|sv| NodeSpec::new(s(&sv["name"])).weight(sv["weight"].as_f64().unwrap()))
            .collect();
        let built = Cluster::new(Options::new(Algorithm::Libketama), servers);
        let fits = u(&shm["header_bytes"]) + u(&shm["entry_bytes"]) * u(&case["points"]) <= u(&shm["segment_bytes"]);
        assert_eq!(case["fits"].as_bool().unwrap(), fits);
        match built {
            Ok(cluster) => {
                assert!(fits, "{} points do not fit libketama's segment", u(&case["points"]));
                assert_eq!(cluster.arcs().unwrap().point_count() as u64, u(&case["points"]));
                for k in list(&case["keys"]) {
                    assert_eq!(cluster.locate(s(&k["key"])).unwrap(), s(&k["server"]), "key {:?}", k["key"]);
                    checked += 1;
                }
            }
            Err(e) => {
                assert!(!fits, "{} points fit, yet: {e}", u(&case["points"]));
                assert_eq!(e.code(), "too-large");
                let text = e.to_string();
                assert!(text.contains(&format!("at most {}", u(&shm["max_points"]))), "{text}");
                assert!(text.contains(&format!("got {}", u(&case["points"]))) && text.contains("MC_SHMSIZE"), "{text}");
                checked += 1;
            }
        }
    }
    for case in list(&f["cases"]) {
        let servers: Vec<NodeSpec> = list(&case["servers"])
            .iter()
            .map(|sv| NodeSpec::new(s(&sv["name"])).weight(sv["weight"].as_f64().unwrap()))
            .collect();
        let cluster = Cluster::new(Options::new(Algorithm::Libketama), servers).unwrap();
        let counts: Vec<u64> = cluster.nodes().iter().map(|n| u64::from(n.points)).collect();
        let expected: Vec<u64> = list(&case["points_per_server"]).iter().map(u).collect();
        assert_eq!(counts, expected);
        for k in list(&case["keys"]) {
            assert_eq!(cluster.locate(s(&k["key"])).unwrap(), s(&k["server"]), "key {:?}", k["key"]);
            checked += 1;
        }
    }
    checked
}

/// libketama's published vectors: hash, point and server per key, and ketama_test's whole
/// output for keys "0".."N-1" compared by its published MD5, for every digest with at most
/// `max_digest_keys` keys.
pub fn libketama_published(max_digest_keys: u64) -> usize {
    let f = parse(KETAMA_PUBLISHED);
    let mut checked = 0;
    for vector in list(&f["vectors"]) {
        let servers: Vec<NodeSpec> = list(&vector["servers"])
            .iter()
            .map(|sv| NodeSpec::new(s(&sv["name"])).weight(sv["weight"].as_f64().unwrap()))
            .collect();
        let cluster = Cluster::new(Options::new(Algorithm::Libketama), servers).unwrap();
        if let Some(total) = vector.get("points_total") {
            assert_eq!(cluster.arcs().unwrap().point_count() as u64, u(total));
        }
        for k in list(&vector["keys"]) {
            let key = s(&k["key"]);
            let hash = ketama_hashi(key.as_bytes());
            assert_eq!(hash, u(&k["hash"]), "ketama_hashi({key:?})");
            assert_eq!(found_point(&cluster, hash), u(&k["point"]), "point for {key:?}");
            assert_eq!(cluster.locate(key).unwrap(), s(&k["server"]), "server for {key:?}");
            checked += 1;
        }
        for digest in vector.get("output_md5").map(list).into_iter().flatten() {
            let n = u(&digest["keys"]);
            if n > max_digest_keys {
                continue;
            }
            let mut out = md5::Md5::new();
            out.update(b"\n");
            let mut line = String::new();
            for i in 0..n {
                let key = i.to_string();
                let hash = ketama_hashi(key.as_bytes());
                line.clear();
                line.push_str(&format!("{hash} {} {}\n", found_point(&cluster, hash), cluster.locate(&key).unwrap()));
                out.update(line.as_bytes());
            }
            let got: String = out.finalize().iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(got, s(&digest["md5"]), "ketama_test output for {n} keys");
            checked += n as usize;
        }
    }
    checked
}

/// `CLUSTER KEYSLOT` of every fixture key, hash tags included.
pub fn redis_keyslots() -> usize {
    let f = parse(REDIS);
    let slots = list(&f["keyslots"]);
    for k in slots {
        assert_eq!(u64::from(redis::key_slot(s(&k["key"]).as_bytes())), u(&k["slot"]), "{:?}", k["key"]);
    }
    assert_eq!(redis::key_slot(b"123456789"), 12739, "the spec's CRC16 check value 0x31C3");
    slots.len()
}

fn ranges_of(slots: &redis::Slots) -> Vec<Vec<(u64, u64)>> {
    slots.ranges().into_iter().map(|r| r.into_iter().map(|(a, b)| (u64::from(a), u64::from(b))).collect()).collect()
}

fn fixture_ranges(v: &Value) -> Vec<Vec<(u64, u64)>> {
    list(v).iter().map(|m| list(m).iter().map(|r| (u(&r[0]), u(&r[1]))).collect()).collect()
}

/// The moved slot ranges `(first, last, from, to)` in slot order, with adjacent ranges of the
/// same move joined.
type Moves = Vec<(u64, u64, String, String)>;

fn joined(mut moves: Moves) -> Moves {
    moves.sort();
    let mut out: Moves = Vec::new();
    for m in moves {
        match out.last_mut() {
            Some(last) if last.1 + 1 == m.0 && last.2 == m.2 && last.3 == m.3 => last.1 = m.1,
            _ => out.push(m),
        }
    }
    out
}

/// redis-cli's moves, `{from, to, ranges}` with master indices into `names`.
fn fixture_moves(v: &Value, names: &[String]) -> Moves {
    let moves = list(v).iter().flat_map(|mv| {
        let (from, to) = (names[u(&mv["from"]) as usize].clone(), names[u(&mv["to"]) as usize].clone());
        list(&mv["ranges"]).iter().map(move |r| (u(&r[0]), u(&r[1]), from.clone(), to.clone()))
    });
    joined(moves.collect())
}

fn exact_moves(arcs: &[MovedArc]) -> Moves {
    joined(arcs.iter().map(|a| (a.start, a.end, a.from.clone(), a.to.clone())).collect())
}

/// redis-cli create, add-node + rebalance and rebalance-to-zero + del-node: the slot ranges
/// of every master after each step, and the exact migration's moved slot ranges (first,
/// last, from, to) against the ranges redis-cli moved.
pub fn redis_topologies() -> usize {
    let f = parse(REDIS);
    let mut checked = 0;
    for topology in list(&f["topologies"]) {
        let n = u(&topology["masters"]) as usize;
        let mut names: Vec<String> = (0..n).map(|i| format!("127.0.0.1:{}", 30001 + i)).collect();
        let created = redis::Slots::create(names.iter().map(|n| NodeSpec::new(n.as_str())).collect()).unwrap();
        assert_eq!(ranges_of(&created), fixture_ranges(&topology["create"]), "create with {n} masters");

        let mut added = created.clone();
        added.add(NodeSpec::new("127.0.0.1:new")).unwrap();
        names.push("127.0.0.1:new".into());
        let step = &topology["after_add"];
        assert_eq!(ranges_of(&added), fixture_ranges(&step["ranges"]), "add to {n} masters");
        let m = migration::between(&created, &added).unwrap();
        assert_eq!(
            exact_moves(&m.arcs),
            fixture_moves(&step["moved"], &names),
            "slots moved by the add to {n} masters"
        );
        // The same, with redis-cli's own master order for that rebalance.
        let order: Vec<usize> = list(&step["cli_node_order"]).iter().map(|i| u(i) as usize).collect();
        let mut in_cli_order = created.clone();
        in_cli_order.add_in_cli_order(NodeSpec::new("127.0.0.1:new"), &order).unwrap();
        assert_eq!(
            ranges_of(&in_cli_order),
            fixture_ranges(&step["ranges"]),
            "add to {n} masters in redis-cli order {order:?}"
        );
        checked += 3;

        if let Some(step) = topology.get("after_remove") {
            let gone = u(&step["removed"]) as usize;
            let order: Vec<usize> = list(&step["cli_node_order"]).iter().map(|i| u(i) as usize).collect();
            let mut removed = added.clone();
            removed.remove_in_cli_order(&names[gone], &order).unwrap();
            let mut expected = fixture_ranges(&step["ranges"]);
            assert_eq!(expected[gone], vec![], "the drained master owns nothing");
            expected.remove(gone);
            assert_eq!(ranges_of(&removed), expected, "remove master {gone} of {} in redis-cli order {order:?}", n + 1);
            let m = migration::between(&added, &removed).unwrap();
            assert_eq!(
                exact_moves(&m.arcs),
                fixture_moves(&step["moved"], &names),
                "slots moved by removing master {gone}"
            );
            checked += 2;
        }
    }
    checked
}

/// redis-cli create with masters on several IPs (it interleaves them by IP), then an
/// add-node + rebalance (which does not): every master's ranges, and the master `GET` reached
/// for each recorded key.
pub fn redis_multi_ip() -> usize {
    let f = parse(REDIS);
    let mut checked = 0;
    for case in list(&f["multi_ip"]) {
        let names: Vec<&str> = list(&case["nodes"]).iter().map(s).collect();
        let created = redis::Slots::create(names.iter().map(|n| NodeSpec::new(*n)).collect()).unwrap();
        assert_eq!(ranges_of(&created), fixture_ranges(&case["ranges"]), "create {names:?}");
        for (i, owner) in list(&case["owners"]).iter().enumerate() {
            let key = format!("user:{i}");
            assert_eq!(names[created.locate_index(key.as_bytes()).unwrap()], s(owner), "{key} in {names:?}");
            checked += 1;
        }
        let step = &case["after_add"];
        let order: Vec<usize> = list(&step["cli_node_order"]).iter().map(|i| u(i) as usize).collect();
        let mut added = created.clone();
        added.add(NodeSpec::new(s(&step["node"]))).unwrap();
        assert_eq!(ranges_of(&added), fixture_ranges(&step["ranges"]), "add to {names:?}");
        let mut in_cli_order = created.clone();
        in_cli_order.add_in_cli_order(NodeSpec::new(s(&step["node"])), &order).unwrap();
        assert_eq!(ranges_of(&in_cli_order), fixture_ranges(&step["ranges"]), "add to {names:?} in order {order:?}");
        checked += 3;
    }
    checked
}

/// cassandra-driver's Murmur3 of every fixture key, and Cassandra's partitioner token.
pub fn cassandra_tokens() -> usize {
    let f = parse(CASSANDRA);
    let tokens = list(&f["tokens"]);
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
    tokens.len()
}

/// The jump-hash reference (C) and the paper's published vectors.
pub fn jump() -> usize {
    let f = parse(JUMP);
    let published = list(&f["published"]).iter().flat_map(|p| list(&p["cases"]));
    let mut checked = 0;
    for c in list(&f["cases"]).iter().chain(published) {
        let key: u64 = s(&c["key"]).parse().unwrap();
        let buckets = u(&c["buckets"]) as u32;
        assert_eq!(u64::from(jump_hash(key, buckets)), u(&c["bucket"]), "jump({key}, {buckets})");
        checked += 1;
    }
    checked
}

/// Go groupcache's consistenthash: the node of every key.
pub fn groupcache() -> usize {
    let f = parse(GROUPCACHE);
    let mut checked = 0;
    for case in list(&f["cases"]) {
        let mut options = Options::new(Algorithm::Groupcache);
        options.set("replicas", OptionValue::Whole(u64::from(u(&case["replicas"]) as u32))).unwrap();
        let cluster = Cluster::new(options, list(&case["nodes"]).iter().map(s)).unwrap();
        for k in list(&case["keys"]) {
            assert_eq!(cluster.locate(s(&k["key"])).unwrap(), s(&k["node"]), "key {:?}", k["key"]);
            checked += 1;
        }
    }
    checked
}
