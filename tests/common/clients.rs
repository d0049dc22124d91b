//! The cache-client comparisons, shared by the native tests (tests/native/real_clients.rs) and the
//! browser tests (tests/web/real_clients.rs): each fixture was written by the real library
//! (tests/real/gen_clients.py, tests/real/gen_libmemcached_order.py); ringlab places every
//! key of every case and must answer the library's server. Fixtures are compiled in.

use ringlab::algo::{Algorithm, Cluster, OptionValue, Options};
use ringlab::NodeSpec;
use serde_json::Value;

pub const PYMEMCACHE: &str = include_str!("../real/fixtures/pymemcache.json");
pub const PYTHON_MEMCACHED: &str = include_str!("../real/fixtures/python_memcached.json");
pub const UHASHRING: &str = include_str!("../real/fixtures/uhashring.json");
pub const DALLI: &str = include_str!("../real/fixtures/dalli.json");
pub const REDIS_RB: &str = include_str!("../real/fixtures/redis_rb.json");
pub const SPYMEMCACHED: &str = include_str!("../real/fixtures/spymemcached.json");
pub const NPM_HASHRING: &str = include_str!("../real/fixtures/npm_hashring.json");
pub const MEMJS: &str = include_str!("../real/fixtures/memjs.json");
pub const LIBMEMCACHED_ORDER: &str = include_str!("../real/fixtures/libmemcached_order.json");

/// Every case of one fixture: `(algorithm, cases, keys compared)`, per algorithm named in it.
pub fn check(fixture: &str) -> Vec<(Algorithm, usize, usize)> {
    let f: Value = serde_json::from_str(fixture).expect("fixture parses");
    let keys: Vec<&str> = f["keys"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect();
    let mut out: Vec<(Algorithm, usize, usize)> = Vec::new();
    for case in f["cases"].as_array().unwrap() {
        let algorithm = Algorithm::from_name(case["algorithm"].as_str().unwrap()).unwrap();
        let nodes = specs(&case["nodes"]);
        let cluster = Cluster::new(Options::new(algorithm), nodes.clone())
            .unwrap_or_else(|e| panic!("{}: {nodes:?}: {e}", algorithm.name()));
        let owners = case["owners"].as_array().unwrap();
        assert_eq!(owners.len(), keys.len());
        let mut compared = 0;
        for (key, owner) in keys.iter().zip(owners) {
            let Some(want) = owner.as_u64() else { continue };
            let got = cluster.locate_index(key).unwrap();
            assert_eq!(got, want as usize, "{} {:?}: key {key:?}", algorithm.name(), case["config"]);
            compared += 1;
        }
        match out.iter_mut().find(|(a, ..)| *a == algorithm) {
            Some(entry) => {
                entry.1 += 1;
                entry.2 += compared;
            }
            None => out.push((algorithm, 1, compared)),
        }
    }
    out
}

fn specs(nodes: &Value) -> Vec<NodeSpec> {
    nodes
        .as_array()
        .unwrap()
        .iter()
        .map(|n| NodeSpec::new(n[0].as_str().unwrap()).weight(n[1].as_f64().unwrap()))
        .collect()
}

/// libmemcached's KETAMA mode, with the order of calls the case says: `ketamaWeighted` true
/// (the distribution set first) or false (the servers first), then the servers added after,
/// one by one (`Cluster::add`). Point counts and every key's server. Returns keys compared.
pub fn libmemcached_order() -> usize {
    let f: Value = serde_json::from_str(LIBMEMCACHED_ORDER).expect("fixture parses");
    let keys: Vec<&str> = f["keys"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect();
    let mut compared = 0;
    for case in f["cases"].as_array().unwrap() {
        let mut options = Options::new(Algorithm::LibmemcachedKetama);
        options.set("ketamaWeighted", OptionValue::Flag(case["ketama_weighted"].as_bool().unwrap())).unwrap();
        let mut cluster = Cluster::new(options, specs(&case["nodes"])).unwrap();
        for spec in specs(&case["added"]) {
            cluster.add(spec).unwrap();
        }
        let points: Vec<u64> = cluster.nodes().iter().map(|n| u64::from(n.points)).collect();
        let want: Vec<u64> =
            case["points_per_server"].as_array().unwrap().iter().map(|p| p.as_u64().unwrap()).collect();
        assert_eq!(points, want, "points per server: {}", case["calls"]);
        for (key, owner) in keys.iter().zip(case["owners"].as_array().unwrap()) {
            assert_eq!(
                cluster.locate_index(key).unwrap(),
                owner.as_u64().unwrap() as usize,
                "{} {key:?}",
                case["calls"]
            );
            compared += 1;
        }
    }
    compared
}

/// Two real clients given the same pool, and how far they agree, as the real libraries
/// answered (keys placed on different servers) and as `agreement` computes it.
pub struct Agreed {
    pub a: Algorithm,
    pub b: Algorithm,
    pub servers: usize,
    pub keys: usize,
    pub real: f64,
    pub ringlab: f64,
}

/// One fixture case: its algorithm, nodes, keys, and each key's server as the real library
/// named it (`None` where it placed none).
type Case = (Algorithm, Value, Vec<String>, Vec<Option<String>>);

/// Every pair of fixture cases, across the client fixtures, that placed the same keys on the
/// same pool (the same servers with the same weights, in the same order): the share of keys
/// the two real libraries sent to different servers, beside `agreement`'s answer.
pub fn agreements() -> Vec<Agreed> {
    use ringlab::algo::agreement::{agreement, Keys};
    let fixtures = [PYMEMCACHE, PYTHON_MEMCACHED, UHASHRING, DALLI, REDIS_RB, SPYMEMCACHED, NPM_HASHRING, MEMJS];
    let mut cases: Vec<Case> = Vec::new();
    for fixture in fixtures {
        let f: Value = serde_json::from_str(fixture).expect("fixture parses");
        let keys: Vec<String> = f["keys"].as_array().unwrap().iter().map(|k| k.as_str().unwrap().to_string()).collect();
        for case in f["cases"].as_array().unwrap() {
            let algorithm = Algorithm::from_name(case["algorithm"].as_str().unwrap()).unwrap();
            let nodes = case["nodes"].clone();
            let owners = case["owners"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o.as_u64().map(|i| nodes[i as usize][0].as_str().unwrap().to_string()))
                .collect();
            cases.push((algorithm, nodes, keys.clone(), owners));
        }
    }
    let mut out = Vec::new();
    for (i, (a, nodes_a, keys_a, owners_a)) in cases.iter().enumerate() {
        for (b, nodes_b, keys_b, owners_b) in &cases[i + 1..] {
            if a == b || nodes_a != nodes_b || keys_a != keys_b {
                continue;
            }
            // The keys both real libraries placed.
            let both: Vec<usize> =
                (0..keys_a.len()).filter(|&k| owners_a[k].is_some() && owners_b[k].is_some()).collect();
            let apart = both.iter().filter(|&&k| owners_a[k] != owners_b[k]).count();
            let pool = specs(nodes_a);
            let ca = Cluster::new(Options::new(*a), pool.clone()).unwrap();
            let cb = Cluster::new(Options::new(*b), pool).unwrap();
            let keys = Keys::List(both.iter().map(|&k| keys_a[k].clone()).collect());
            let got = agreement(&ca, &cb, &keys).unwrap();
            out.push(Agreed {
                a: *a,
                b: *b,
                servers: nodes_a.as_array().unwrap().len(),
                keys: both.len(),
                real: apart as f64 / both.len() as f64,
                ringlab: got.disagree,
            });
        }
    }
    out
}
