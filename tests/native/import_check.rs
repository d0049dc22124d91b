//! Imports say what they passed over (issue #57): `import::check` lists every non-blank line
//! of a config text, read or passed over and why, or the line refused; its outcome is
//! `from_config`'s (same servers, same error and line) on every real fixture config and every
//! kind's example. The expected statuses below are written from the texts by hand.

use ringlab::import::{check, from_config, ConfigCheck, ImportOptions, LineStatus, CONFIG_KINDS};
use ringlab::Error;
use serde_json::Value;
use LineStatus::{PassedOver as P, Read as R, Refused as X};

fn options() -> ImportOptions {
    ImportOptions::default()
}

fn pick(section: &str) -> ImportOptions {
    ImportOptions { section: Some(section.into()), ..ImportOptions::default() }
}

/// `check`'s lines as (line, status).
fn statuses(report: &ConfigCheck) -> Vec<(usize, LineStatus)> {
    report.lines.iter().map(|n| (n.line, n.status)).collect()
}

/// The report agrees with `from_config`, and accounts for every line exactly once: every
/// non-blank line when the text is read; when it is refused, no line twice and the refused
/// line once, as the error names it.
pub(crate) fn agrees(kind: &str, text: &str, options: &ImportOptions) -> ConfigCheck {
    let report = check(kind, text, options).unwrap_or_else(|e| panic!("{kind}: {e}"));
    let numbers: Vec<usize> = report.lines.iter().map(|n| n.line).collect();
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{kind}: a line noted twice or out of order: {numbers:?}");
    assert!(report.lines.iter().all(|n| !n.why.is_empty()), "{kind}: a note without a why");
    let count = |s: LineStatus| report.lines.iter().filter(|n| n.status == s).count();
    assert_eq!((report.read, report.passed_over), (count(R), count(P)), "{kind}");
    match from_config(kind, text, options) {
        Ok(cluster) => {
            let every: Vec<usize> =
                text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).map(|(i, _)| i + 1).collect();
            assert_eq!(numbers, every, "{kind}: every non-blank line, once:\n{text}\n{:#?}", report.lines);
            assert_eq!(report.error, None, "{kind}");
            let placement = report.placement.as_ref().expect("a placement");
            assert_eq!(placement.servers, cluster.nodes().len(), "{kind}");
            assert_eq!(placement.algorithm, cluster.algorithm().name(), "{kind}");
        }
        Err(e) => {
            let error = report.error.as_ref().unwrap_or_else(|| panic!("{kind}: read, but from_config refuses: {e}"));
            assert_eq!((error.code, error.message.as_str()), (e.code(), e.to_string().as_str()), "{kind}");
            assert_eq!(report.placement, None);
            let refused: Vec<usize> = report.lines.iter().filter(|n| n.status == X).map(|n| n.line).collect();
            match e {
                Error::Parse { line, .. } => {
                    assert_eq!(error.line, Some(line));
                    if text.lines().nth(line - 1).is_some_and(|l| !l.trim().is_empty()) {
                        assert_eq!(refused, [line], "{kind}: {e}");
                    }
                }
                _ => assert_eq!((error.line, refused.len()), (None, 0)),
            }
        }
    }
    report
}

fn fixture(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn configs(json: &Value) -> Vec<String> {
    json["cases"].as_array().unwrap().iter().map(|c| c["config"].as_str().unwrap().to_string()).collect()
}

#[test]
fn every_line_of_every_real_config_and_example_is_accounted_for() {
    let mut checked = 0;
    for kind in CONFIG_KINDS {
        agrees(kind.kind, kind.example, &options());
        checked += 1;
    }
    for (kind, json) in [
        ("nginx", include_str!("../real/fixtures/nginx.json")),
        ("haproxy", include_str!("../real/fixtures/haproxy.json")),
        ("twemproxy", include_str!("../real/fixtures/twemproxy.json")),
        ("envoy", include_str!("../real/fixtures/envoy.json")),
    ] {
        for config in configs(&fixture(json)) {
            agrees(kind, &config, &options());
            checked += 1;
        }
    }
    // The whole nutcracker.yml the real twemproxy ran, each pool read in turn.
    let yml = fixture(include_str!("../real/fixtures/twemproxy.json"))["nutcracker_yml"].as_str().unwrap().to_string();
    for pool in ringlab::import::sections("twemproxy", &yml).unwrap() {
        let report = agrees("twemproxy", &yml, &pick(&pool));
        assert_eq!(report.placement.unwrap().section.as_deref(), Some(pool.as_str()));
        checked += 1;
    }
    agrees("twemproxy", &yml, &options()); // several pools: refused, naming the second
    let redis = fixture(include_str!("../real/fixtures/redis_cluster_nodes.json"));
    for scenario in redis["scenarios"].as_array().unwrap() {
        agrees("redis", scenario["cluster_nodes"].as_str().unwrap(), &options());
        checked += 1;
    }
    // libketama's server files, its quirks and its refusals included.
    let ketama = fixture(include_str!("../real/fixtures/ketama.json"));
    let libketama = ImportOptions { algorithm: Some(ringlab::algo::Algorithm::Libketama), ..options() };
    for file in ketama["files"].as_array().unwrap() {
        agrees("memcached", file["file"].as_str().unwrap(), &libketama);
        checked += 1;
    }
    assert!(checked > 60, "{checked}");
}

#[test]
fn an_nginx_conf_reports_each_line() {
    let conf = "user nginx;\n\
                http {\n\
                \x20   upstream cache {\n\
                \x20       # the key is the URI\n\
                \x20       hash $request_uri consistent;\n\
                \x20       server 10.0.0.1:80 weight=2;\n\
                \n\
                \x20       server 10.0.0.2:80 down;\n\
                \x20       keepalive 16;\n\
                \x20   }\n\
                \x20   server { listen 80; }\n\
                }\n";
    let report = agrees("nginx", conf, &options());
    assert_eq!(
        statuses(&report),
        [(1, P), (2, P), (3, R), (4, P), (5, R), (6, R), (8, R), (9, P), (10, R), (11, P), (12, P)]
    );
    let why = |line: usize| report.lines.iter().find(|n| n.line == line).unwrap().why.clone();
    assert_eq!(why(4), "a comment");
    assert_eq!(why(6), "a server of weight 2");
    assert_eq!(why(8), "a server, down");
    assert!(why(9).starts_with("`keepalive`"), "{}", why(9));
    assert_eq!(why(11), "outside the upstream block read");
    assert_eq!((report.read, report.passed_over), (5, 6));
    assert_eq!(report.summary, "5 lines read, 6 passed over");
    let placement = report.placement.unwrap();
    assert_eq!(
        (placement.algorithm, placement.section.as_deref(), placement.servers, placement.down),
        ("nginx-consistent", Some("cache"), 2, 1)
    );

    // A misspelt `server` on line 7: refused there, the lines before it listed.
    let bad = conf.replace("\n\n", "\n        sever 10.0.0.3:80;\n");
    let report = agrees("nginx", &bad, &options());
    assert_eq!(statuses(&report), [(1, P), (2, P), (3, R), (4, P), (5, R), (6, R), (7, X), (11, P), (12, P)]);
    let error = report.error.unwrap();
    assert_eq!((error.code, error.line), ("parse-error", Some(7)));
    assert_eq!(error.message, "line 7: unknown directive \"sever\" in an upstream block");
    assert_eq!(report.lines[6].why, "unknown directive \"sever\" in an upstream block");
    assert_eq!(report.summary, "3 lines read, 5 passed over, refused at line 7");
}

#[test]
fn a_haproxy_cfg_reports_its_other_sections_as_passed_over() {
    let cfg = "global\n    maxconn 100\ndefaults\n    timeout connect 5s\n    balance uri\nfrontend fe\n    bind :80\nbackend web\n    balance hdr(X-Key) # the key\n    hash-type consistent\n    server w1 10.0.0.1:80 check\n    server w2 10.0.0.2:80 weight 3\n    option httpchk\n";
    let report = agrees("haproxy", cfg, &pick("web"));
    assert_eq!(
        statuses(&report),
        [(1, P), (2, P), (3, R), (4, P), (5, R), (6, P), (7, P), (8, R), (9, R), (10, R), (11, R), (12, R), (13, P)]
    );
    let why = |line: usize| report.lines.iter().find(|n| n.line == line).unwrap().why.clone();
    assert_eq!(why(1), "in the global section, not the backend read");
    assert_eq!(why(7), "in frontend fe, not the backend read");
    assert_eq!(why(12), "a server of weight 3");
    assert_eq!(why(13), "`option`: does not change which server is picked");
    assert_eq!(report.placement.unwrap().algorithm, "haproxy-consistent");
    // An unknown `balance` argument is an error, not a warning.
    let bad = cfg.replace("balance hdr(X-Key)", "balance hdr(X-Key) len 4");
    let report = agrees("haproxy", &bad, &pick("web"));
    assert_eq!(report.error.unwrap().line, Some(9));
}

#[test]
fn yaml_kinds_report_pools_clusters_and_fields() {
    let yml = "# two pools\nalpha:\n  listen: 127.0.0.1:22121\n  hash: fnv1a_64\n  distribution: ketama\n  servers:\n   - 10.0.0.1:11211:1\n   - 10.0.0.2:11211:2\nbeta:\n  distribution: modula\n  servers:\n   - 10.0.0.3:11211:1\n";
    let report = agrees("twemproxy", yml, &pick("alpha"));
    assert_eq!(
        statuses(&report),
        [(1, P), (2, R), (3, P), (4, R), (5, R), (6, R), (7, R), (8, R), (9, P), (10, P), (11, P), (12, P)]
    );
    assert_eq!(report.lines[8].why, "in pool beta, not the one read");

    let envoy = "static_resources:\n  listeners: []\n  clusters:\n  - name: web\n    connect_timeout: 1s\n    lb_policy: ROUND_ROBIN\n  - name: cache\n    connect_timeout: 1s\n    type: STATIC\n    lb_policy: MAGLEV\n    load_assignment:\n      cluster_name: cache\n      endpoints:\n      - lb_endpoints:\n        - endpoint:\n            address:\n              socket_address: { address: 10.0.0.1, port_value: 80 }\n          load_balancing_weight: 2\nadmin: {}\n";
    let report = agrees("envoy", envoy, &options());
    assert_eq!(
        statuses(&report),
        [
            (1, R),
            (2, P),
            (3, R),
            (4, P),
            (5, P),
            (6, P),
            (7, R),
            (8, P),
            (9, R),
            (10, R),
            (11, R),
            (12, P),
            (13, R),
            (14, R),
            (15, R),
            (16, R),
            (17, R),
            (18, R),
            (19, P)
        ]
    );
    assert_eq!(report.lines[7].why, "`connect_timeout`: does not change which host a hash picks");
    assert_eq!(report.placement.as_ref().unwrap().section.as_deref(), Some("cache"));
    // An unknown field is an error on its line.
    let bad = envoy.replace("    type: STATIC\n", "    typ: STATIC\n");
    assert_eq!(agrees("envoy", &bad, &options()).error.unwrap().line, Some(9));
}

#[test]
fn list_kinds_report_replicas_and_comments() {
    let a = "07c37dfeb235213a872192d90877d0cd55635b91";
    let b = "e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca";
    let nodes = format!(
        "{a} 10.0.0.1:6379@16379 myself,master - 0 0 1 connected 0-8191\n\n{b} 10.0.0.2:6379@16379 master - 0 0 2 connected 8192-16383\n292f8b365bb7edb5e285caf0b7e6ddc7265d2f4f 10.0.0.3:6379@16379 slave {a} 0 0 1 connected\n"
    );
    let report = agrees("redis", &nodes, &options());
    assert_eq!(statuses(&report), [(1, R), (3, R), (4, P)]);
    assert_eq!(report.lines[0].why, "a master serving 8192 slots");
    assert_eq!(report.lines[2].why, "a replica: it serves no slots while its master is up");

    let list = "# cache tier\n10.0.0.1:11211\n10.0.0.2:11211 2\n10.0.0.3:11211 0\n";
    let report = agrees("memcached", list, &options());
    assert_eq!(statuses(&report), [(1, P), (2, R), (3, R), (4, X)]);
    assert_eq!(report.lines[2].why, "a server of weight 2");
}

#[test]
fn only_the_arguments_are_errors() {
    let too_big = "#".repeat(ringlab::import::MAX_CONFIG_BYTES + 1);
    assert_eq!(check("nginx", &too_big, &options()).unwrap_err().code(), "too-large");
    assert_eq!(check("nginix", "x", &options()).unwrap_err().code(), "invalid-option");
    let ring = ImportOptions { algorithm: Some(ringlab::algo::Algorithm::Ring), ..options() };
    assert_eq!(check("memcached", "10.0.0.1:11211\n", &ring).unwrap_err().code(), "invalid-option");
    // The text's own faults are in the report: a control character, an empty text.
    let report = agrees("nginx", "upstream u {\n  hash $uri;\n  server 10.0.0.1\x1b:80;\n}\n", &options());
    assert_eq!((report.error.as_ref().unwrap().line, statuses(&report)), (Some(3), vec![(3, X)]));
    let report = agrees("haproxy", "  \n", &options());
    assert_eq!(report.error.unwrap().line, Some(1));
    assert!(report.lines.is_empty());
}

#[test]
fn a_large_text_is_checked_in_linear_time() {
    // 100,000 comment lines around one upstream, and 50,000 twemproxy pools of which one is read.
    let mut conf = "# note\n".repeat(100_000);
    conf.push_str("upstream u {\n  hash $uri;\n  server 10.0.0.1:80;\n}\n");
    let started = std::time::Instant::now();
    let report = check("nginx", &conf, &options()).unwrap();
    assert_eq!((report.read, report.passed_over), (4, 100_000));
    let pools: String = (0..50_000).map(|i| format!("p{i}: {{servers: [\"10.0.0.1:11211:1\"]}}\n")).collect();
    let report = check("twemproxy", &pools, &pick("p49999")).unwrap();
    assert_eq!((report.read, report.passed_over), (1, 49_999));
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}
