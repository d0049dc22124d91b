//! Memcached server lists, written out as the real clients read them, give the same
//! placement the real libketama and libmemcached computed (tests/real/fixtures), on every key.

use ringlab::algo::import::from_memcached_servers;
use ringlab::algo::Algorithm;
use serde_json::Value;

fn fixture(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn libketama_server_files() {
    let f = fixture(include_str!("real/fixtures/ketama.json"));
    let mut checked = 0;
    for case in f["cases"].as_array().unwrap() {
        // libketama's server file: `address<TAB>memory` lines.
        let text: String = case["servers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| format!("{}\t{}\n", s["name"].as_str().unwrap(), s["weight"]))
            .collect();
        let cluster = from_memcached_servers(&format!("# ketama.servers\n{text}"), Algorithm::Libketama).unwrap();
        for k in case["keys"].as_array().unwrap() {
            assert_eq!(cluster.locate(k["key"].as_str().unwrap()).unwrap(), k["server"].as_str().unwrap());
            checked += 1;
        }
    }
    assert!(checked > 20_000, "{checked}");
}

#[test]
fn libmemcached_server_lists() {
    let f = fixture(include_str!("real/fixtures/libmemcached.json"));
    let mut checked = 0;
    for (i, case) in f["cases"].as_array().unwrap().iter().enumerate() {
        let algorithm = match case["mode"].as_str().unwrap() {
            "weighted" => Algorithm::LibmemcachedWeighted,
            _ => Algorithm::LibmemcachedKetama,
        };
        // Alternate the spellings: `host:port weight` and twemproxy's `- host:port:weight`.
        let text: String = case["servers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let (host, port, weight) = (s["host"].as_str().unwrap(), &s["port"], &s["weight"]);
                if i % 2 == 0 { format!("{host}:{port} {weight}\n") } else { format!("  - {host}:{port}:{weight}\n") }
            })
            .collect();
        let cluster = from_memcached_servers(&text, algorithm).unwrap();
        for k in case["keys"].as_array().unwrap() {
            let want = k["server"].as_u64().unwrap() as usize;
            assert_eq!(cluster.locate_index(k["key"].as_str().unwrap()).unwrap(), want);
            checked += 1;
        }
    }
    assert!(checked > 50_000, "{checked}");
}
