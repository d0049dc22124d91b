//! twemproxy's and Envoy's hashing, bit for bit: every answer in tests/real/fixtures/
//! twemproxy.json and envoy.json came from the real nutcracker 0.5.0 and Envoy 1.40
//! (tests/real/gen_twemproxy.py, gen_envoy.py), read from the same config text ringlab
//! imports here. Then the two config parsers: good text, and malformed text naming its line.

#[path = "../common/proxies.rs"]
mod proxies;

use ringlab::algo::{Algorithm, Cluster, OptionValue, Options};
use ringlab::import::{from_config, ImportOptions};
use ringlab::Error;

#[test]
fn twemproxy_matches_on_every_recorded_key() {
    let f = proxies::fixture(proxies::TWEMPROXY_JSON);
    assert!(f.produced_by.starts_with("This is nutcracker-0.5.0"), "{}", f.produced_by);
    assert!(f.keys.iter().any(|k| !k.is_ascii()), "non-ASCII keys");
    let checked = proxies::check_twemproxy();
    assert!(checked > 14_000, "checked {checked}");
}

#[test]
fn twemproxy_options_give_the_imported_answers() {
    // The same pools built from options and node names, as a session builds them.
    let f = proxies::fixture(proxies::TWEMPROXY_JSON);
    for case in f.cases.iter().filter(|c| c.name.starts_with("ketama ") || c.name.starts_with("modula ")) {
        let Some((dist, hash)) = case.name.split_once(' ') else { continue };
        if hash.contains(' ') {
            continue;
        }
        let algorithm = Algorithm::from_name(&format!("twemproxy-{dist}")).unwrap();
        let mut options = Options::new(algorithm);
        options.set("twemproxyHash", OptionValue::Text(hash.into())).unwrap();
        let built = Cluster::new(options, case.servers.iter().map(String::as_str)).unwrap();
        for (key, &answer) in f.keys.iter().zip(&case.answers) {
            assert_eq!(built.locate(key).unwrap(), case.servers[answer], "{} {key:?}", case.name);
        }
    }
}

#[test]
fn twemproxy_quirks_the_real_answers_show() {
    let f = proxies::fixture(proxies::TWEMPROXY_JSON);
    let case = |name: &str| f.cases.iter().find(|c| c.name == name).unwrap_or_else(|| panic!("{name}"));
    // crc32 is 15 bits: on ketama's 2^32 circle every key goes to one server.
    for name in ["ketama crc32", "ketama crc32, weights 1 2 3 5 (15-bit hash)"] {
        let answers = &case(name).answers;
        assert!(answers.iter().all(|&a| a == answers[0]), "{name}");
    }
    let pool = from_config("twemproxy", &case("ketama crc32").config, &ImportOptions::default()).unwrap();
    assert!(pool.describe().contains("15 bits"), "{}", pool.describe());
    // modula picks by name order: the same servers listed in another order answer the same.
    assert_eq!(
        case("modula fnv1a_64").answers.iter().map(|&a| &case("modula fnv1a_64").servers[a]).collect::<Vec<_>>(),
        case("modula fnv1a_64, servers listed out of order")
            .answers
            .iter()
            .map(|&a| &case("modula fnv1a_64, servers listed out of order").servers[a])
            .collect::<Vec<_>>()
    );
    // The default is ketama with fnv1a_64.
    assert_eq!(case("defaults (ketama, fnv1a_64)").answers, case("ketama fnv1a_64").answers);
}

#[test]
fn twemproxy_reads_one_pool_of_several() {
    let f = proxies::fixture(proxies::TWEMPROXY_JSON);
    let err = from_config("twemproxy", &f.nutcracker_yml, &ImportOptions::default()).unwrap_err();
    assert!(matches!(err, Error::Parse { .. }) && err.to_string().contains("choose one with the pool option"), "{err}");
    let options = ImportOptions { pool: Some("pool3".into()), ..ImportOptions::default() };
    let pool = from_config("twemproxy", &f.nutcracker_yml, &options).unwrap();
    let case = &f.cases[3];
    for (key, &answer) in f.keys.iter().zip(&case.answers) {
        assert_eq!(pool.locate(key).unwrap(), case.servers[answer], "{key:?}");
    }
    let options = ImportOptions { pool: Some("nope".into()), ..ImportOptions::default() };
    assert!(from_config("twemproxy", &f.nutcracker_yml, &options).unwrap_err().to_string().contains("no pool named"));
}

/// The line a parse error names.
pub fn parse_line(result: Result<Cluster, Error>) -> usize {
    match result {
        Err(Error::Parse { line, .. }) => line,
        Err(other) => panic!("not a parse error: {other:?}"),
        Ok(c) => panic!("parsed: {:?}", c.nodes()),
    }
}

#[test]
fn twemproxy_refusals_name_their_line() {
    let base = "p:\n  listen: 127.0.0.1:22121\n  distribution: ketama\n  servers:\n   - 10.0.0.1:11211:1\n";
    let cases: &[(&str, usize, &str)] = &[
        ("p:\n  distribution: random\n  servers:\n   - 10.0.0.1:11211:1\n", 2, "no fixed owner"),
        ("p:\n  hash: sha1\n  servers:\n   - 10.0.0.1:11211:1\n", 2, "unknown twemproxy hash"),
        ("p:\n  hash_tag: \"{\"\n  servers:\n   - 10.0.0.1:11211:1\n", 2, "two characters"),
        ("p:\n  servers:\n   - 10.0.0.1:11211:0\n", 3, "zero weight"),
        ("p:\n  servers:\n   - 10.0.0.1:11211\n", 3, "host:port:weight"),
        ("p:\n  servers:\n   - 10.0.0.1:99999:1\n", 3, "invalid port"),
        ("p:\n  servers:\n   - 10.0.0.1:11211:1\n   - 10.0.0.1:11211:2\n", 4, "same name"),
        ("p:\n  servers:\n   - 10.0.0.1:11211:1 a\n   - 10.0.0.2:11211:1 a\n", 4, "same name"),
        ("p:\n  servers:\n   - 10.0.0.1:11211:1 b:11211\n", 3, "reads as an address"),
        ("p:\n  listen: 127.0.0.1:22121\n  colour: blue\n  servers:\n   - a:1:1\n", 3, "unknown directive"),
        ("p:\n  listen: 127.0.0.1:22121\n", 1, "no servers"),
        ("p:\n  servers:\n", 2, "no servers"),
        ("p:\n  servers: &a\n   - a:1:1\n", 2, "anchors"),
    ];
    for (text, line, words) in cases {
        let result = from_config("twemproxy", text, &ImportOptions::default());
        let message = result.as_ref().map(|_| String::new()).unwrap_or_else(|e| e.to_string());
        assert_eq!(parse_line(result), *line, "{text:?}: {message}");
        assert!(message.contains(words), "{text:?}: {message}");
    }
    assert!(from_config("twemproxy", base, &ImportOptions::default()).is_ok());
    // A pool's body alone is read too, and the unix-socket form names the node "path:".
    let body = "hash: md5\nservers:\n - /tmp/mc.sock:1\n - 10.0.0.2:11212:1\n";
    let pool = from_config("twemproxy", body, &ImportOptions::default()).unwrap();
    assert_eq!(pool.nodes()[0].name, "/tmp/mc.sock:");
}

#[test]
fn envoy_matches_on_every_recorded_key() {
    let f = proxies::fixture(proxies::ENVOY_JSON);
    assert!(f.produced_by.starts_with("envoy 9e5580933739775e8bce696a57a2e1bc99368f23/1.40.0"), "{}", f.produced_by);
    assert!(f.keys.iter().any(|k| !k.is_ascii()), "non-ASCII keys");
    let checked = proxies::check_envoy();
    assert!(checked > 5_000, "checked {checked}");
}

#[test]
fn envoy_refusals_name_their_line() {
    let hosts = "load_assignment:\n  endpoints:\n  - lb_endpoints:\n    - endpoint:\n        address:\n          socket_address: { address: 10.0.0.1, port_value: 80 }\n";
    let ok = format!("name: c\nlb_policy: RING_HASH\n{hosts}");
    assert!(from_config("envoy", &ok, &ImportOptions::default()).is_ok());
    let cases: Vec<(String, usize, &str)> = vec![
        (format!("name: c\nlb_policy: ROUND_ROBIN\n{hosts}"), 2, "does not hash"),
        (format!("name: c\n{hosts}"), 1, "no lb_policy"),
        (format!("name: c\nlb_policy: RING_HASH\ncommon_lb_config:\n  consistent_hashing_lb_config:\n    hash_balance_factor: 150\n{hosts}"), 5, "hash_balance_factor"),
        (format!("name: c\ntype: STATIC\nlb_policy: RING_HASH\ncommon_lb_config:\n  consistent_hashing_lb_config:\n    use_hostname_for_hashing: true\n{hosts}"), 2, "envoy.cluster.static"),
        (format!("name: c\nlb_policy: RING_HASH\nring_hash_lb_config:\n  minimum_ring_size: 2048\n  maximum_ring_size: 1024\n{hosts}"), 2, "minimum_ring_size (2048) > maximum_ring_size (1024)"),
        (format!("name: c\nlb_policy: RING_HASH\nring_hash_lb_config:\n  hash_function: SHA1\n{hosts}"), 4, "XX_HASH or MURMUR_HASH_2"),
        (format!("name: c\nlb_policy: RING_HASH\nring_hash_lb_confg:\n  minimum_ring_size: 2\n{hosts}"), 3, "unknown cluster field"),
        (format!("name: c\nlb_policy: MAGLEV\nmaglev_lb_config:\n  table_size: 65536\n{hosts}"), 4, "prime"),
        (format!("name: c\nlb_policy: RING_HASH\ncommon_lb_config:\n  locality_weighted_lb_config: {{}}\n{hosts}"), 4, "locality_weighted"),
        ("name: c\nlb_policy: RING_HASH\n".to_string(), 1, "no load_assignment"),
        (format!("name: c\nlb_policy: RING_HASH\n{}", hosts.replace("10.0.0.1", "web.internal")), 8, "not an IP address"),
        (format!("name: c\nlb_policy: RING_HASH\n{}", hosts.replace("port_value: 80", "port_value: 80000")), 8, "past 65535"),
        (format!("name: c\nlb_policy: RING_HASH\n{hosts}      health_status: UNHEALTHY\n"), 9, "health_status"),
        (format!("name: c\nlb_policy: RING_HASH\n{hosts}      load_balancing_weight: 0\n"), 9, "from 1"),
        (format!("name: c\nlb_policy: RING_HASH\n{}", hosts.replace("  - lb_endpoints:", "  - priority: 1\n    lb_endpoints:")), 5, "priority"),
        (format!("name: c\nlb_policy: RING_HASH\n{hosts}{}", &hosts[hosts.find("    - endpoint").unwrap()..]), 9, "a second host"),
        ("clusters:\n- name: a\n  lb_policy: MAGLEV\n- name: b\n  lb_policy: MAGLEV\n".to_string(), 1, "choose one with the cluster option"),
        ("name: c\nlb_policy: RING_HASH\nload_assignment: *x\n".to_string(), 3, "aliases"),
    ];
    for (text, line, words) in &cases {
        let result = from_config("envoy", text, &ImportOptions::default());
        let message = result.as_ref().map(|_| String::new()).unwrap_or_else(|e| e.to_string());
        assert_eq!(parse_line(result), *line, "{text}\n{message}");
        assert!(message.contains(words), "{text}\n{message}");
    }
    // Several clusters, one named; a DNS cluster hashed by hostname, else by its DNS name.
    let two = format!("static_resources:\n  clusters:\n  - name: a\n    lb_policy: MAGLEV\n{}  - name: b\n    lb_policy: RING_HASH\n{}", indent(hosts, 4), indent(hosts, 4));
    let options = ImportOptions { cluster: Some("b".into()), ..ImportOptions::default() };
    assert_eq!(from_config("envoy", &two, &options).unwrap().algorithm(), Algorithm::EnvoyRingHash);
    let dns = "name: c\ntype: STRICT_DNS\nlb_policy: RING_HASH\ncommon_lb_config:\n  consistent_hashing_lb_config:\n    use_hostname_for_hashing: true\nload_assignment:\n  endpoints:\n  - lb_endpoints:\n    - endpoint:\n        address: { socket_address: { address: web-1.internal, port_value: 80 } }\n    - endpoint:\n        hostname: cache-b\n        address: { socket_address: { address: 10.0.0.2, port_value: 80 } }\n";
    let c = from_config("envoy", dns, &ImportOptions::default()).unwrap();
    let names: Vec<&str> = c.nodes().iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["web-1.internal", "cache-b"]);
}

fn indent(text: &str, by: usize) -> String {
    text.lines().map(|l| format!("{}{l}\n", " ".repeat(by))).collect()
}

#[test]
fn deep_long_and_huge_yaml_is_refused_not_a_crash() {
    for kind in ["twemproxy", "envoy"] {
        // Nesting by indentation and by brackets, far past any config.
        let deep: String = (0..1000).map(|i| format!("{}k{i}:\n", " ".repeat(i))).collect();
        let flow = format!("a: {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
        let items = format!("a:\n{}x\n", "- ".repeat(50_000));
        for text in [deep, flow, items] {
            let err = from_config(kind, &text, &ImportOptions::default()).unwrap_err();
            assert_eq!(err.code(), "parse-error", "{kind}: {err}");
            assert!(err.to_string().contains("levels deep"), "{kind}: {err}");
        }
        let huge = "#".repeat(ringlab::import::MAX_CONFIG_BYTES + 1);
        assert_eq!(from_config(kind, &huge, &ImportOptions::default()).unwrap_err().code(), "too-large");
    }
    let many: String = (0..600).map(|i| format!(" - 10.0.{}.{}:11212:1\n", i / 250, i % 250)).collect();
    let err = from_config("twemproxy", &format!("servers:\n{many}"), &ImportOptions::default()).unwrap_err();
    assert!(err.to_string().contains("at most 512"), "{err}");
}

mod hostile {
    use super::proxies;
    use proptest::prelude::*;
    use ringlab::import::{from_config, ImportOptions};

    fn configs() -> Vec<(&'static str, String)> {
        let t = proxies::fixture(proxies::TWEMPROXY_JSON);
        let e = proxies::fixture(proxies::ENVOY_JSON);
        let mut out: Vec<(&'static str, String)> = t.cases.into_iter().map(|c| ("twemproxy", c.config)).collect();
        out.extend(e.cases.into_iter().map(|c| ("envoy", c.config)));
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        #[test]
        fn junk_is_an_error_or_a_placement_never_a_panic(text in "[ -~\n\t:\\-\\[\\]{}'\"#&*|>]{0,400}") {
            for kind in ["twemproxy", "envoy"] {
                let _ = from_config(kind, &text, &ImportOptions::default());
            }
        }

        #[test]
        fn damaged_real_configs_are_an_error_or_a_placement(which in 0usize..53, cut in 0usize..3000, byte in 0u8..128) {
            let configs = configs();
            let (kind, text) = &configs[which % configs.len()];
            let mut bytes = text.clone().into_bytes();
            if !bytes.is_empty() {
                let at = cut % bytes.len();
                bytes[at] = byte;
                let damaged = String::from_utf8_lossy(&bytes).into_owned();
                if let Err(e) = from_config(kind, &damaged, &ImportOptions::default()) {
                    prop_assert!(matches!(e.code(), "parse-error" | "too-large"), "{}: {}", kind, e);
                }
                let _ = from_config(kind, &text[..cut.min(text.len())], &ImportOptions::default());
            }
        }
    }
}
