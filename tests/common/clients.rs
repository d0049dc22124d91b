//! The cache-client comparisons, shared by the native tests (tests/real_clients.rs) and the
//! browser tests (tests/web_clients.rs): each fixture was written by the real library
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
