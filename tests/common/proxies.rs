//! The twemproxy and Envoy fixtures (tests/real/fixtures/twemproxy.json, envoy.json, answered
//! by the real nutcracker 0.5.0 and Envoy 1.40 on loopback), compared key by key through the
//! same config text ringlab imports. Shared by the native test (tests/native/real_proxies.rs) and
//! the browser test (tests/web/real_proxies.rs): plain Rust, no files read at run time.
#![allow(dead_code)]

use ringlab::algo::Cluster;
use ringlab::import::{from_config, ImportOptions};
use serde::Deserialize;

pub const TWEMPROXY_JSON: &str = include_str!("../real/fixtures/twemproxy.json");
pub const ENVOY_JSON: &str = include_str!("../real/fixtures/envoy.json");

#[derive(Deserialize)]
pub struct Fixture {
    pub produced_by: String,
    pub keys: Vec<String>,
    #[serde(default)]
    pub nutcracker_yml: String,
    pub cases: Vec<Case>,
}

#[derive(Deserialize)]
pub struct Case {
    pub name: String,
    pub config: String,
    pub servers: Vec<String>,
    pub answers: Vec<usize>,
}

pub fn fixture(json: &str) -> Fixture {
    serde_json::from_str(json).expect("fixture parses")
}

/// Every key of every case: ringlab's answer is the server the real program chose. Where the
/// placement has exact arcs, the arc owning the key's position agrees too. Returns the number
/// of keys compared.
pub fn check(json: &str, kind: &str) -> usize {
    let fixture = fixture(json);
    let mut checked = 0;
    for case in &fixture.cases {
        let cluster: Cluster = from_config(kind, &case.config, &ImportOptions::default())
            .unwrap_or_else(|e| panic!("case {:?}: {e}", case.name));
        let names: Vec<&str> = cluster.nodes().iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, case.servers, "case {:?}: servers", case.name);
        assert_eq!(fixture.keys.len(), case.answers.len(), "case {:?}", case.name);
        for (key, &answer) in fixture.keys.iter().zip(&case.answers) {
            let want = case.servers[answer].as_str();
            assert_eq!(cluster.locate(key).ok(), Some(want), "case {:?} key {key:?}", case.name);
            if let Some(arcs) = cluster.arcs() {
                let size = arcs.size() as f64;
                let position = (cluster.key_fraction(key) * size) as u64;
                let position = if arcs.size() == 1u128 << 64 { ringlab_hash64(key) } else { position };
                assert_eq!(
                    arcs.node_name(arcs.owner_of(position).unwrap()),
                    want,
                    "case {:?} arcs, key {key:?}",
                    case.name
                );
            }
            checked += 1;
        }
    }
    checked
}

/// An Envoy request's position on its 2^64 ring (f64 cannot carry it): the header policy's
/// xxHash64.
fn ringlab_hash64(key: &str) -> u64 {
    ringlab::algo::balancers::envoy::request_hash(key.as_bytes())
}

pub fn check_twemproxy() -> usize {
    check(TWEMPROXY_JSON, "twemproxy")
}

pub fn check_envoy() -> usize {
    check(ENVOY_JSON, "envoy")
}
