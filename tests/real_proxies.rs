//! twemproxy's and Envoy's hashing, bit for bit: every answer in tests/real/fixtures/
//! twemproxy.json and envoy.json came from the real nutcracker 0.5.0 and Envoy 1.40
//! (tests/real/gen_twemproxy.py, gen_envoy.py), read from the same config text ringlab
//! imports here. Then the two config parsers: good text, and malformed text naming its line.

#[path = "common/proxies.rs"]
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
        ("p:\n  listen: 127.0.0.1:22121\n", 2, "no servers"),
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
