//! nginx's and HAProxy's hash balancing, bit for bit: every answer in
//! tests/real/fixtures/nginx.json and haproxy.json came from the real nginx 1.22.1 and
//! HAProxy 2.6.12 (tests/real/generate.sh), read from the same config text ringlab parses
//! here. Then the config parsers: good text, and each malformed form naming its line.

#[path = "../common/lb.rs"]
mod lb;

use ringlab::algo::{Algorithm, Cluster, Options};
use ringlab::import::haproxy::from_haproxy_backend;
use ringlab::import::nginx::from_nginx_upstream;
use ringlab::Error;

#[test]
fn nginx_matches_on_every_recorded_key() {
    let f = lb::fixture(lb::NGINX_JSON);
    assert!(f.produced_by.starts_with("nginx/1.22"), "{}", f.produced_by);
    let checked = lb::check_nginx();
    assert!(checked > 30_000, "checked {checked}");
}

#[test]
fn haproxy_matches_on_every_recorded_key() {
    let f = lb::fixture(lb::HAPROXY_JSON);
    assert!(f.produced_by.starts_with("HAProxy version 2.6"), "{}", f.produced_by);
    let checked = lb::check_haproxy();
    assert!(checked > 60_000, "checked {checked}");
}

#[test]
fn the_fixtures_cover_what_they_claim() {
    let nginx = lb::fixture(lb::NGINX_JSON);
    assert!(nginx.cases.iter().any(|c| !c.fallback.is_empty()), "a case where nginx falls back to round robin");
    assert!(nginx.cases.iter().filter(|c| !c.extra.is_empty()).count() >= 5, "keys on points");
    let haproxy = lb::fixture(lb::HAPROXY_JSON);
    // HAProxy's own ids, recorded in the fixture, as the answers confirm: s1 gets 2 and s3 gets
    // 4 because the counter steps past the explicit ids' servers too.
    let ids = haproxy.cases.iter().find(|c| c.name.contains("explicit and implicit")).unwrap();
    assert_eq!(ids.puids, vec![2, 1, 4, 7, 6]);
    let cluster = from_haproxy_backend(&ids.config).unwrap();
    assert!(cluster.describe_key("k").ends_with("(server ids 2, 1, 4, 7, 6)"));
}

/// The bare-line trap: `hash-type consistent` alone is sdbm *with* avalanche, so it differs
/// from `hash-type consistent sdbm` (the real answers say so) and equals `... sdbm avalanche`.
#[test]
fn bare_hash_type_consistent_means_sdbm_with_avalanche() {
    let f = lb::fixture(lb::HAPROXY_JSON);
    let answers = |name: &str| &f.cases.iter().find(|c| c.name == name).unwrap().answers;
    let bare = answers("bare hash-type consistent (sdbm + avalanche)");
    assert_eq!(bare, answers("consistent sdbm avalanche"));
    let differ = bare.iter().zip(answers("consistent sdbm")).filter(|(a, b)| a != b).count();
    assert!(differ > 1000, "{differ}");
    // The same default through Options.
    let text = "backend b\n balance hdr(X)\n hash-type consistent\n server s1 a:1\n server s2 b:1\n server s3 c:1\n server s4 d:1";
    let parsed = from_haproxy_backend(text).unwrap();
    let built = Cluster::new(Options::new(Algorithm::HaproxyConsistent), ["s1", "s2", "s3", "s4"]).unwrap();
    for key in f.keys.iter().take(500) {
        assert_eq!(parsed.locate(key).unwrap(), built.locate(key).unwrap());
    }
}

#[test]
fn marking_down_matches_the_recorded_down_config() {
    // The "2nd of 4 down" case, reached from the all-up config by set_down.
    for (fixture, build) in [
        (lb::fixture(lb::NGINX_JSON), from_nginx_upstream as fn(&str) -> Result<Cluster, Error>),
        (lb::fixture(lb::HAPROXY_JSON), from_haproxy_backend),
    ] {
        let down = fixture.cases.iter().find(|c| c.name.contains("2nd of 4")).unwrap();
        let text = down.config.replace(" down;", ";").replace(" disabled", "");
        let mut cluster = build(&text).unwrap();
        assert!(cluster.nodes().iter().all(|n| !cluster.is_down(&n.name).unwrap()));
        cluster.set_down(&down.servers[1], true).unwrap();
        for (key, &answer) in fixture.keys.iter().zip(&down.answers) {
            assert_eq!(cluster.locate(key).unwrap(), down.servers[answer], "{} key {key:?}", down.name);
        }
        cluster.set_down(&down.servers[1], false).unwrap();
        assert_eq!(cluster.locate("x").unwrap(), build(&text).unwrap().locate("x").unwrap());
    }
}

#[test]
fn exact_shares_add_up_and_follow_weights() {
    for text in [
        "upstream u { hash $k consistent; server a:1 weight=1; server b:1 weight=3; }",
        "upstream u { hash $k; server a:1 weight=1; server b:1 weight=3; }",
    ] {
        let shares = from_nginx_upstream(text).unwrap().exact_shares().unwrap();
        assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(shares[1] > 2.0 * shares[0], "{text}: {shares:?}");
    }
    // nginx-hash: 32768 first-try values over total weight 4, a value of 0 mod 4 to a, so
    // exactly a quarter.
    let hash = from_nginx_upstream("upstream u { hash $k; server a:1 weight=1; server b:1 weight=3; }").unwrap();
    assert_eq!(hash.exact_shares().unwrap()[0], 0.25);
    for text in [
        "backend b\n balance hdr(X)\n hash-type consistent\n server a a:1\n server b b:1 weight 3",
        "backend b\n balance hdr(X)\n server a a:1\n server b b:1 weight 3\n server c c:1 disabled",
    ] {
        let shares = from_haproxy_backend(text).unwrap().exact_shares().unwrap();
        assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{shares:?}");
        assert!(shares[1] > 2.0 * shares[0], "{text}: {shares:?}");
    }
}

#[test]
fn algorithms_that_cannot_skip_a_down_node_say_so() {
    // Jump hash has no skip: a down bucket's keys are unavailable (tests/native/down_nodes.rs).
    let mut ring = Cluster::new(Options::new(Algorithm::Jump), ["a", "b"]).unwrap();
    ring.set_down("a", true).unwrap();
    let key = (0..).map(|i| format!("k{i}")).find(|k| ring.locate_index(k).is_err()).unwrap();
    assert_eq!(ring.locate(&key).unwrap_err().code(), "unavailable");
    assert_eq!(ring.set_down("zz", true).unwrap_err().code(), "unknown-node");
}

#[test]
fn keys_no_hash_decides_are_errors_not_guesses() {
    let nginx = from_nginx_upstream("upstream u { hash $k; server a:1; server b:1; }").unwrap();
    assert_eq!(nginx.locate("").unwrap_err().code(), "unsupported");
    let one = from_nginx_upstream("upstream u { hash $k consistent; server a:1; }").unwrap();
    assert_eq!(one.locate("").unwrap(), "a:1");
    let haproxy = from_haproxy_backend("backend b\n balance hdr(X)\n server a a:1\n server b b:1").unwrap();
    assert_eq!(haproxy.locate("").unwrap_err().code(), "unsupported");
    let all_off = from_haproxy_backend("backend b\n balance hdr(X)\n server a a:1 disabled").unwrap();
    assert_eq!(all_off.locate("k").unwrap_err().code(), "unsupported");
}

// ------------------------------------------------------------------------------ parsers

fn parse_line(result: Result<Cluster, Error>) -> usize {
    match result {
        Err(Error::Parse { line, .. }) => line,
        Err(other) => panic!("not a parse error: {other:?}"),
        Ok(c) => panic!("parsed: {:?}", c.nodes()),
    }
}

#[test]
fn nginx_upstream_reads_the_parameters_that_matter() {
    let text = "# cache tier\nupstream cache {\n    zone cache 64k;\n    hash $request_uri consistent; # ketama-like\n    server 10.0.0.1:11211 weight=2 max_fails=3 fail_timeout=10s;\n    server \"10.0.0.2:11211\" down;\n    server unix:/run/c.sock max_conns=10;\n    keepalive 16;\n}\n";
    let c = from_nginx_upstream(text).unwrap();
    assert_eq!(c.algorithm(), Algorithm::NginxConsistent);
    let names: Vec<&str> = c.nodes().iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["10.0.0.1:11211", "10.0.0.2:11211", "unix:/run/c.sock"]);
    assert_eq!(c.nodes()[0].weight, 2.0);
    assert_eq!(c.nodes()[0].points, 320);
    assert!(c.is_down("10.0.0.2:11211").unwrap());
    // The body alone works too, and without `consistent` it is nginx-hash.
    let body = from_nginx_upstream("hash $arg_id;\nserver a:1;\nserver b:1;").unwrap();
    assert_eq!(body.algorithm(), Algorithm::NginxHash);
}

#[test]
fn nginx_upstream_errors_name_the_line() {
    let cases: [(&str, usize); 14] = [
        ("upstream u {\n  hash $k consistent;\n  server a:1 weight=0;\n}", 3),
        ("upstream u {\n  hash $k consistent;\n  server a:1 weight=x;\n}", 3),
        ("upstream u {\n  hash $k consistent;\n  server a:1 backup;\n}", 3),
        ("upstream u {\n  hash $k consistent;\n  server a:1 resolve;\n}", 3),
        ("upstream u {\n  hash $k consistent;\n  server a:1;\n  server a:1;\n}", 4),
        ("upstream u {\n  hash $k consistent;\n  least_conn;\n  server a:1;\n}", 3),
        ("upstream u {\n  hash $k fast;\n  server a:1;\n}", 2),
        ("upstream u {\n  hash;\n  server a:1;\n}", 2),
        ("upstream u {\n  hash $k;\n  hash $k;\n  server a:1;\n}", 3),
        ("upstream u {\n  hash $k;\n  server a:1\n}", 3),
        ("upstream u {\n  hash $k;\n  server a:1;\n", 3),
        ("upstream u {\n  hash $k;\n}", 3),
        ("upstream u {\n  server a:1;\n}", 1),
        ("upstream u {\n  hash $k;\n  server a:1;\n  proxy_pass http://u;\n}", 4),
    ];
    for (text, line) in cases {
        assert_eq!(parse_line(from_nginx_upstream(text)), line, "{text}");
    }
    // What nginx 1.22's `nginx -t` refuses (found against the real nginx): signed numbers, a
    // bad `fail_timeout`, ports out of range, a URL, an unclosed bracket, a stray `#`,
    // `ntlm` (commercial only).
    let refused = [
        "server a:1 weight=+2;",
        "server a:1 max_fails=+1;",
        "server a:1 max_conns=+5;",
        "server a:1 fail_timeout=abc;",
        "server 127.0.0.1:99999;",
        "server 127.0.0.1:0;",
        "server http://127.0.0.1:31001;",
        "server [::1:31001;",
        "server 127.0.0.1:31001#x;",
        "ntlm;",
    ];
    for line in refused {
        assert_eq!(parse_line(from_nginx_upstream(&format!("upstream u {{\n  hash $k;\n  {line}\n}}"))), 3, "{line}");
    }
    for fine in
        ["server [::1];", "server [::1]:80 fail_timeout=1m30s;", "server unix:/run/a.sock;", "server cache-1.internal;"]
    {
        assert!(from_nginx_upstream(&format!("hash $k;\n{fine}")).is_ok(), "{fine}");
    }
    // `backup` before `hash` stays a backup, which the hash never picks; after it nginx refuses it.
    let before = from_nginx_upstream("upstream u {\n server b:1 backup;\n hash $k;\n server a:1;\n}").unwrap();
    assert_eq!(before.nodes().iter().map(|n| n.name.as_str()).collect::<Vec<_>>(), ["a:1"]);
    assert_eq!(parse_line(from_nginx_upstream("upstream u {\n hash $k;\n server b:1 backup;\n}")), 3);
    assert_eq!(parse_line(from_nginx_upstream("upstream u {\n  hash $k;\n  server \"a:1;\n}")), 3);
    assert_eq!(parse_line(from_nginx_upstream("upstream {\n")), 1);
    assert_eq!(parse_line(from_nginx_upstream("upstream u {\n hash $k;\n server a:1;\n}\nserver b:1;")), 5);
    // Too many points for one tab: the weight line's `hash` is named.
    assert_eq!(parse_line(from_nginx_upstream("upstream u {\n hash $k consistent;\n server a:1 weight=20000;\n}")), 2);
}

#[test]
fn haproxy_backend_reads_the_parameters_that_matter() {
    let text = "backend app # the web tier\n    mode http\n    option httpchk GET /health\n    balance url_param userid\n    hash-type consistent wt6 avalanche\n    default-server inter 3s fall 3\n    timeout server 30s\n    server web1 10.0.0.1:80 check weight 20 cookie w1\n    server web2 10.0.0.2:80 check id 9 disabled\n    server web3 10.0.0.3:80 maxconn 100\n";
    let c = from_haproxy_backend(text).unwrap();
    assert_eq!(c.algorithm(), Algorithm::HaproxyConsistent);
    let names: Vec<&str> = c.nodes().iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["web1", "web2", "web3"]);
    assert_eq!(c.nodes()[0].points, 320);
    assert!(c.is_down("web2").unwrap());
    assert_eq!(c.nodes()[1].points, 0, "a disabled server has no points");
    assert!(c.describe_key("k").starts_with("wt6 avalanche"));
    // No hash-type line: map-based.
    let map = from_haproxy_backend("balance hdr(Host)\nserver a 1.2.3.4:80\nserver b 1.2.3.5:80").unwrap();
    assert_eq!(map.algorithm(), Algorithm::HaproxyMapBased);
}

#[test]
fn haproxy_backend_errors_name_the_line() {
    let cases: [(&str, usize); 22] = [
        ("backend b\n balance roundrobin\n server a a:1", 2),
        ("backend b\n balance hdr(X) use_domain_only\n server a a:1", 2),
        ("backend b\n balance hdr(X)\n hash-type consistent md5\n server a a:1", 3),
        ("backend b\n balance hdr(X)\n hash-type consistent sdbm fast\n server a a:1", 3),
        ("backend b\n balance hdr(X)\n hash-type ring\n server a a:1", 3),
        ("backend b\n balance hdr(X)\n server a a:1 weight 300", 3),
        ("backend b\n balance hdr(X)\n server a a:1 weight 0", 3),
        ("backend b\n balance hdr(X)\n server a a:1 id 0", 3),
        ("backend b\n balance hdr(X)\n server a a:1 id 4\n server b b:1 id 4", 4),
        ("backend b\n balance hdr(X)\n server a a:1\n server a b:1", 4),
        ("backend b\n balance hdr(X)\n server a a:1 backup", 3),
        ("backend b\n balance hdr(X)\n server a a:1 frobnicate", 3),
        ("backend b\n balance hdr(X)\n server a", 3),
        ("backend b\n balance hdr(X)\n server a a:1\nbackend c", 4),
        ("backend b\n server a a:1", 1),
        // What HAProxy 2.6 does differently (found against the real HAProxy): a Layer 7 key in
        // `mode tcp` goes round robin; a disabled backend answers 503; a `ring` section's server
        // is not the backend's; keywords are lower case; ports stop at 65535; `ws` takes a mode.
        ("backend b\n mode tcp\n balance hdr(X)\n server a a:1", 2),
        ("backend b\n disabled\n balance url_param k\n server a a:1", 2),
        ("backend b\n balance hdr(X)\n server a a:1\n\nring logbuf\n server logsrv 127.0.0.1:31009", 5),
        ("Backend b\n balance hdr(X)\n server a a:1", 1),
        ("backend b\n balance hdr(X)\n server a 127.0.0.1:99999", 3),
        ("backend b\n balance hdr(X)\n server a a:1 ws", 3),
        ("backend b\n balance hdr(X)\n server a a:1 no-verifyhost", 3),
    ];
    for (text, line) in cases {
        assert_eq!(parse_line(from_haproxy_backend(text)), line, "{text}");
    }
    assert_eq!(parse_line(from_haproxy_backend("frontend f\n balance hdr(X)")), 1);
    assert_eq!(
        parse_line(from_haproxy_backend("backend b\n balance hdr(X)\n hash-balance-factor 150\n server a a:1")),
        3
    );
    assert_eq!(
        parse_line(from_haproxy_backend("backend b\n balance hdr(X)\n default-server weight 5\n server a a:1")),
        3
    );
    assert_eq!(parse_line(from_haproxy_backend("backend b\n balance hdr(X)\n")), 2);
    for fine in [
        "backend b\n mode http\n balance hdr(X)\n server a a:1 ws h1",
        "backend b\n mode tcp\n balance hash src\n server a a:1",
    ] {
        assert!(from_haproxy_backend(fine).is_ok(), "{fine}");
    }
}

#[test]
fn config_text_and_servers_are_capped() {
    // Every config kind has one cap on its text (ringlab::import::MAX_CONFIG_BYTES).
    let lines = ringlab::import::MAX_CONFIG_BYTES / 13 + 1;
    let big = format!("upstream u {{\n hash $k;\n{}}}", " server a:1;\n".repeat(lines));
    assert_eq!(from_nginx_upstream(&big).unwrap_err().code(), "too-large");
    let a_little_less = format!("upstream u {{\n hash $k;\n{}}}", " server a:1;\n".repeat(6000));
    assert_eq!(from_nginx_upstream(&a_little_less).unwrap_err().code(), "parse-error", "past 512 servers");
    let many: String = (0..600).map(|i| format!(" server s{i} h:{i}\n")).collect();
    let text = format!("backend b\n balance hdr(X)\n{many}");
    assert_eq!(parse_line(from_haproxy_backend(&text)), 3 + 512);
}

#[test]
fn a_weight_change_keeps_the_line_in_place() {
    // HAProxy: s1 and s3 have implicit ids 1 and 3; re-adding s1 at the end would renumber
    // them. Changing s1's weight in place must equal the config with the new weight.
    let text = |w: u32| {
        format!("backend b\n balance hdr(X)\n hash-type consistent\n server s1 a:1 weight {w}\n server s2 b:1\n server s3 c:1\n server s4 d:1 disabled")
    };
    let mut c = from_haproxy_backend(&text(1)).unwrap();
    c.set_weight("s1", 5.0).unwrap();
    let want = from_haproxy_backend(&text(5)).unwrap();
    assert!(c.is_down("s4").unwrap());
    assert_eq!(c.describe_key("k"), want.describe_key("k"));
    // nginx-hash walks weights in line order.
    let text = |w: u32| format!("upstream u {{ hash $k; server a:1 weight={w}; server b:1 down; server c:1; }}");
    let mut c = from_nginx_upstream(&text(1)).unwrap();
    c.set_weight("a:1", 4.0).unwrap();
    let want = from_nginx_upstream(&text(4)).unwrap();
    let keys: Vec<String> = (0..2000).map(|i| format!("user:{i}")).collect();
    for key in &keys {
        assert_eq!(c.locate(key).unwrap(), want.locate(key).unwrap(), "{key}");
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn build(algorithm: Algorithm, weights: &[u8]) -> Cluster {
        let specs: Vec<ringlab::NodeSpec> = weights
            .iter()
            .enumerate()
            .map(|(i, &w)| ringlab::NodeSpec::new(format!("10.0.0.{i}:80")).weight(f64::from(w)))
            .collect();
        Cluster::new(Options::new(algorithm), specs).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// In the consistent variants a down server's keys move and no others: nginx keeps
        /// the points and skips to the next; HAProxy drops the points, and a key's closest
        /// remaining point is still its own. Up again, everything is back.
        #[test]
        fn down_moves_only_the_down_servers_keys(
            weights in prop::collection::vec(1u8..4, 3..6),
            down in 0usize..6,
            seed in 0u32..1000,
        ) {
            for algorithm in [Algorithm::NginxConsistent, Algorithm::HaproxyConsistent] {
                let before = build(algorithm, &weights);
                let victim = before.nodes()[down % weights.len()].name.clone();
                let mut after = before.clone();
                after.set_down(&victim, true).unwrap();
                for i in 0..300 {
                    let key = format!("k{seed}:{i}");
                    let (b, a) = (before.locate(&key).unwrap(), after.locate(&key));
                    if b != victim {
                        prop_assert_eq!(a.unwrap(), b);
                    } else if let Ok(a) = a {
                        prop_assert_ne!(a, victim.as_str());
                    }
                }
                after.set_down(&victim, false).unwrap();
                for i in 0..100 {
                    let key = format!("k{seed}:{i}");
                    prop_assert_eq!(after.locate(&key).unwrap(), before.locate(&key).unwrap());
                }
            }
        }

        /// Any text, and any one-character damage to a good config, gets a result or an
        /// error, never a panic; an error from a parser always names a line inside the text.
        #[test]
        fn parsers_never_panic(
            junk in "[ -~\n]{0,200}",
            at in 0usize..200,
            ch in prop::sample::select(vec![';', '{', '}', '#', '"', '=', ' ', '\n', 'x', '0']),
        ) {
            let nginx = "upstream u {\n hash $k consistent;\n server a:1 weight=2;\n server b:1 down;\n}";
            let haproxy = "backend b\n balance hdr(X)\n hash-type consistent crc32\n server a a:1 id 3\n server b b:1 disabled";
            let damage = |text: &str| {
                let mut t: Vec<char> = text.chars().collect();
                let i = at % t.len();
                t[i] = ch;
                t.into_iter().collect::<String>()
            };
            for text in [junk.clone(), damage(nginx), damage(haproxy)] {
                let lines = text.lines().count().max(1);
                for result in [from_nginx_upstream(&text), from_haproxy_backend(&text)] {
                    if let Err(Error::Parse { line, .. }) = result {
                        prop_assert!((1..=lines).contains(&line), "line {} of {}: {:?}", line, lines, text);
                    }
                }
            }
        }

        /// Exact shares are a distribution, and a server that is down has none.
        #[test]
        fn exact_shares_sum_to_one(weights in prop::collection::vec(1u8..5, 2..6), down in 0usize..6) {
            for algorithm in [Algorithm::NginxConsistent, Algorithm::NginxHash, Algorithm::HaproxyConsistent, Algorithm::HaproxyMapBased] {
                let mut c = build(algorithm, &weights);
                if algorithm != Algorithm::NginxHash {
                    let victim = c.nodes()[down % weights.len()].name.clone();
                    c.set_down(&victim, true).unwrap();
                    let idx = down % weights.len();
                    if let Some(shares) = c.exact_shares() {
                        prop_assert_eq!(shares[idx], 0.0);
                    }
                }
                if let Some(shares) = c.exact_shares() {
                    prop_assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{:?} {:?}", algorithm, shares);
                }
            }
        }
    }
}

/// The exact migration (arcs) between two recorded configs must contain exactly the keys the
/// real program moved: a server added, a server marked down.
#[test]
fn exact_migrations_contain_exactly_the_keys_the_real_programs_moved() {
    let pairs = [
        (lb::NGINX_JSON, "consistent, 3 equal", "consistent, a 4th server added"),
        (lb::NGINX_JSON, "consistent, a 4th server added", "consistent, 2nd of 4 down"),
        (lb::HAPROXY_JSON, "bare hash-type consistent (sdbm + avalanche)", "consistent, a 5th server added"),
        (lb::HAPROXY_JSON, "bare hash-type consistent (sdbm + avalanche)", "consistent, 2nd of 4 disabled"),
    ];
    for (json, from, to) in pairs {
        let f = lb::fixture(json);
        let case = |name: &str| f.cases.iter().find(|c| c.name == name).unwrap();
        let build = if json == lb::NGINX_JSON { from_nginx_upstream } else { from_haproxy_backend };
        let (a, b) = (case(from), case(to));
        let (before, after) = (build(&a.config).unwrap(), build(&b.config).unwrap());
        let m = ringlab::migration::between(before.arcs().unwrap(), after.arcs().unwrap()).unwrap();
        assert!(m.moved_fraction > 0.1 && m.moved_fraction < 0.4, "{to}: {}", m.moved_fraction);
        let mut moved = 0;
        for (i, key) in f.keys.iter().enumerate() {
            let (was, is) = (&a.servers[a.answers[i]], &b.servers[b.answers[i]]);
            let position = (before.key_fraction(key) * 4_294_967_296.0) as u64;
            let arc = m.arcs.iter().find(|arc| arc.start <= position && position <= arc.end);
            match arc {
                Some(arc) => {
                    assert_eq!((&arc.from, &arc.to), (was, is), "{to}: key {key:?}");
                    moved += 1;
                }
                None => assert_eq!(was, is, "{to}: key {key:?} moved outside the moved arcs"),
            }
        }
        let sampled = moved as f64 / f.keys.len() as f64;
        assert!((sampled - m.moved_fraction).abs() < 0.05, "{to}: {sampled} vs {}", m.moved_fraction);
    }
}
