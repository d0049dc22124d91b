//! The nginx and HAProxy fixtures (tests/real/fixtures/nginx.json, haproxy.json, answered by
//! real nginx 1.22 and HAProxy 2.6 on loopback), compared key by key. Shared by the native
//! test (tests/native/real_lb.rs) and the browser test (tests/web/real_lb.rs): plain Rust, no files read
//! at run time.
#![allow(dead_code)]

use ringlab::algo::Cluster;
use ringlab::import::haproxy::from_haproxy_backend;
use ringlab::import::nginx::from_nginx_upstream;
use ringlab::Error;
use serde::Deserialize;

pub const NGINX_JSON: &str = include_str!("../real/fixtures/nginx.json");
pub const HAPROXY_JSON: &str = include_str!("../real/fixtures/haproxy.json");

#[derive(Deserialize)]
pub struct Fixture {
    pub produced_by: String,
    pub keys: Vec<String>,
    pub cases: Vec<Case>,
}

#[derive(Deserialize)]
pub struct Case {
    pub name: String,
    pub config: String,
    pub servers: Vec<String>,
    pub answers: Vec<usize>,
    pub extra: Vec<(String, usize)>,
    #[serde(default)]
    pub fallback: Vec<String>,
    #[serde(default)]
    pub puids: Vec<u32>,
}

pub fn fixture(json: &str) -> Fixture {
    serde_json::from_str(json).expect("fixture parses")
}

/// What the fixture's case says about every key: ringlab must give the recorded server, or,
/// for keys nginx balanced round robin, say so (and the real answer must be a server that is up).
/// Where the placement has exact arcs, the arc owning the key's hash must agree too.
/// Returns the number of keys compared.
pub fn check(fixture: &Fixture, build: fn(&str) -> Result<Cluster, Error>) -> usize {
    let mut checked = 0;
    for case in &fixture.cases {
        let cluster = build(&case.config).unwrap_or_else(|e| panic!("case {:?}: {e}", case.name));
        let names: Vec<&str> = cluster.nodes().iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, case.servers, "case {:?}: servers", case.name);
        let keys = fixture.keys.iter().zip(&case.answers).map(|(k, &a)| (k.as_str(), a));
        let extra = case.extra.iter().map(|(k, a)| (k.as_str(), *a));
        for (key, answer) in keys.chain(extra) {
            let want = case.servers[answer].as_str();
            if case.fallback.iter().any(|f| f == key) {
                assert!(
                    matches!(cluster.locate(key), Err(Error::Unsupported(_))),
                    "case {:?} key {key:?}: nginx went round robin",
                    case.name
                );
                assert!(!cluster.is_down(want).unwrap(), "case {:?}: round robin picked a down server", case.name);
                checked += 1;
                continue;
            }
            assert_eq!(cluster.locate(key).ok(), Some(want), "case {:?} key {key:?}", case.name);
            if let Some(arcs) = cluster.arcs() {
                let position = (cluster.key_fraction(key) * 4_294_967_296.0) as u64;
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

pub fn check_nginx() -> usize {
    check(&fixture(NGINX_JSON), from_nginx_upstream)
}

pub fn check_haproxy() -> usize {
    check(&fixture(HAPROXY_JSON), from_haproxy_backend)
}
