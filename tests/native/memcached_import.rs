//! Memcached server lists, written out as the real clients read them, give the same
//! placement the real libketama and libmemcached computed (tests/real/fixtures), on every key.

use ringlab::algo::Algorithm;
use ringlab::import::memcached::from_memcached_servers;
use serde_json::Value;

fn fixture(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn libketama_server_files() {
    let f = fixture(include_str!("../real/fixtures/ketama.json"));
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

/// Server files written with libketama's quirks (a last line without a newline, a trailing
/// comment or space, CRLF, long lines, lines libketama refuses): ringlab reads each as the
/// real library did, or refuses it naming the line the real library named.
#[test]
fn libketama_server_file_quirks() {
    let f = fixture(include_str!("../real/fixtures/ketama.json"));
    let mut checked = 0;
    for case in f["files"].as_array().unwrap() {
        let text = case["file"].as_str().unwrap();
        let got = from_memcached_servers(text, Algorithm::Libketama);
        if let Some(line) = case.get("error_line") {
            let err = got.expect_err(text);
            match &err {
                ringlab::Error::Parse { line: l, .. } => {
                    assert_eq!(*l as u64, line.as_u64().unwrap().max(1), "{text:?}: {err}")
                }
                other => panic!("{text:?}: {other}"),
            }
            checked += 1;
            continue;
        }
        let cluster = got.unwrap_or_else(|e| panic!("{text:?}: {e}"));
        let per: Vec<(String, u64)> = cluster.nodes().iter().map(|n| (n.name.clone(), u64::from(n.points))).collect();
        let want: Vec<(String, u64)> = case["points_per_server"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_str().unwrap().to_string(), p[1].as_u64().unwrap()))
            .collect();
        assert_eq!(per, want, "{text:?}");
        for k in case["keys"].as_array().unwrap() {
            assert_eq!(cluster.locate(k["key"].as_str().unwrap()).unwrap(), k["server"].as_str().unwrap(), "{text:?}");
            checked += 1;
        }
    }
    assert!(checked > 5_000, "{checked}");
}

#[test]
fn libmemcached_server_lists() {
    let f = fixture(include_str!("../real/fixtures/libmemcached.json"));
    let mut checked = 0;
    for (i, case) in f["cases"].as_array().unwrap().iter().enumerate() {
        let algorithm = match case["mode"].as_str().unwrap() {
            "weighted" => Algorithm::LibmemcachedWeighted,
            _ => Algorithm::LibmemcachedKetama,
        };
        // Alternate the spellings: `host:port weight` and twemproxy's `- host:port:weight`; a
        // unix socket as its path; a list the library parsed, one item a line.
        let text: String = match case.get("parse") {
            Some(list) => list.as_str().unwrap().split(',').map(|item| format!("{}\n", item.trim_start())).collect(),
            None => case["servers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    let (host, port, weight) = (s["host"].as_str().unwrap(), &s["port"], &s["weight"]);
                    match (s.get("unix").is_some(), i % 2) {
                        (true, _) => format!("{host} {weight}\n"),
                        (false, 0) => format!("{host}:{port} {weight}\n"),
                        _ => format!("  - {host}:{port}:{weight}\n"),
                    }
                })
                .collect(),
        };
        let cluster = from_memcached_servers(&text, algorithm).unwrap();
        for k in case["keys"].as_array().unwrap() {
            let want = k["server"].as_u64().unwrap() as usize;
            assert_eq!(cluster.locate_index(k["key"].as_str().unwrap()).unwrap(), want);
            checked += 1;
        }
    }
    assert!(checked > 50_000, "{checked}");
}

/// A server the algorithm refuses is named by its line wherever it is in a long list; a list
/// past the continuum's cap is refused as a whole.
#[test]
fn a_refused_server_is_named_by_its_line_in_a_long_list() {
    let mut lines: Vec<String> = (0..2_500).map(|i| format!("10.0.{}.{}:11211", i / 250, i % 250)).collect();
    lines[2_400] = lines[17].clone();
    match from_memcached_servers(&lines.join("\n"), Algorithm::LibmemcachedWeighted) {
        Err(ringlab::Error::Parse { line, message }) => {
            assert_eq!((line, message.contains("10.0.0.17:11211")), (2_401, true), "{message}")
        }
        other => panic!("{:?}", other.map(|c| c.nodes().len())),
    }
    let many: String = (0..16_384).map(|i| format!("10.{}.{}.1:11211\n", i / 256, i % 256)).collect();
    let e = from_memcached_servers(&many, Algorithm::LibmemcachedKetama).err().map(|e| e.code());
    assert_eq!(e, Some("too-large"));
}
