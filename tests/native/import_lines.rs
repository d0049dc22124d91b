//! Imports never drop a line (issue #57): every line of a config text is read, through the
//! one door (`import::from_config`, `import::sections`). A line a reader does not know that
//! could change the placement is refused with its line; a control character is refused at
//! the door for every kind; an Envoy cluster is read as it is pasted; and the YAML readers
//! are linear in the number of keys.

use ringlab::algo::{Algorithm, Cluster};
use ringlab::import::{from_config, sections, ImportOptions, CONFIG_KINDS};
use ringlab::Error;

/// `from_config`, after `check` agrees with it on the same text (`import_check.rs`).
fn read(kind: &str, text: &str) -> Result<Cluster, Error> {
    crate::import_check::agrees(kind, text, &ImportOptions::default());
    from_config(kind, text, &ImportOptions::default())
}

fn pick(section: &str) -> ImportOptions {
    ImportOptions { section: Some(section.into()), ..ImportOptions::default() }
}

/// The line and the message of a parse error.
fn refusal(result: Result<Cluster, Error>) -> (usize, String) {
    match result {
        Err(e) => match &e {
            Error::Parse { line, .. } => (*line, e.to_string()),
            other => panic!("not a parse error: {other:?}"),
        },
        Ok(c) => panic!("read: {:?}", c.nodes().iter().map(|n| &n.name).collect::<Vec<_>>()),
    }
}

fn servers(cluster: &Cluster) -> Vec<(String, f64)> {
    cluster.nodes().iter().map(|n| (n.name.clone(), n.weight)).collect()
}

fn owners(cluster: &Cluster) -> Vec<String> {
    (0..500).map(|i| cluster.locate(format!("user:{i}")).unwrap().to_string()).collect()
}

#[test]
fn haproxy_refuses_a_line_it_does_not_know() {
    let cases: &[(&str, usize, &str)] = &[
        // `sever`: a typo of `server` silently dropped c1 once.
        (
            "backend b\n balance hdr(X)\n server c0 10.0.0.0:80\n sever c1 10.0.0.1:80\n server c2 10.0.0.2:80",
            4,
            "unknown keyword \"sever\" (`server`?)",
        ),
        ("backend b\n balance hdr(X)\n Server c1 10.0.0.1:80", 3, "(`server`?)"),
        ("backend b\n balanse uri\n server a a:1", 2, "(`balance`?)"),
        ("backend b\n balance hdr(X)\n hash_type consistent\n server a a:1", 3, "(`hash-type`?)"),
        ("backend b\n balance hdr(X)\n frobnicate 3\n server a a:1", 3, "unknown keyword \"frobnicate\""),
        ("backend b\n balance hdr(X)\n no frobnicate\n server a a:1", 3, "unknown keyword \"no\""),
        // Unknown `balance` algorithms and arguments, `hash-type` arguments.
        ("backend b\n balance consistent\n server a a:1", 2, "unsupported `balance`"),
        ("backend b\n balance hash req.hdr(X) lower\n server a a:1", 2, "unsupported `balance`"),
        ("backend b\n balance uri depth 3\n server a a:1", 2, "unsupported `balance`"),
        ("backend b\n balance hdr(X)\n hash-type consistent sdbm avalanche fast\n server a a:1", 3, "avalanche"),
        ("backend b\n balance hdr(X)\n hash-type consistant\n server a a:1", 3, "`consistent` and `map-based`"),
        // Known, and changing which server is picked in ways not modelled.
        ("backend b\n balance hdr(X)\n cookie SRV insert indirect\n server a a:1 cookie a", 3, "`cookie` persistence"),
        ("backend b\n balance hdr(X)\n server a a:1 hash-key addr-port", 3, "`hash-key`"),
        ("backend b\n balance hdr(X)\n hash-preserve-affinity maxconn\n server a a:1", 3, "`hash-preserve-affinity`"),
        ("backend b\n balance hdr(X)\n dispatch 10.0.0.9:80\n server a a:1", 3, "`dispatch`"),
        ("backend b\n balance hdr(X)\n persist rdp-cookie\n server a a:1", 3, "`persist`"),
        (
            "listen l\n bind :80\n use_backend web if { path_beg /w }\n balance hdr(X)\n server a a:1",
            3,
            "`use_backend`",
        ),
        ("listen l\n bind :80\n default_backend web\n balance hdr(X)\n server a a:1", 3, "`default_backend`"),
        ("backend b\n balance hdr(X)\n disabled now\n server a a:1", 3, "no argument"),
    ];
    for (text, line, words) in cases {
        let (got, message) = refusal(read("haproxy", text));
        assert_eq!(got, *line, "{text}\n{message}");
        assert!(message.contains(words), "{text}\n{message}");
    }
}

#[test]
fn haproxy_accepts_the_lines_that_do_not_change_the_choice() {
    let bare = "backend cache\n    balance hdr(X-Key)\n    hash-type consistent\n    server c1 10.0.0.1:80\n    server c2 10.0.0.2:80 weight 2\n    server c3 10.0.0.3:80\n";
    let busy = "backend cache\n    mode http\n    description the cache tier\n    option httpchk GET /health\n    option redispatch\n    no option http-buffer-request\n    http-check expect status 200\n    timeout connect 5s\n    timeout server 30s\n    timeout queue 10s\n    retries 3\n    retry-on conn-failure empty-response\n    log global\n    acl is_static path_beg /static\n    http-request set-header X-Forwarded-Proto https\n    http-response del-header Server\n    tcp-request content accept\n    default-server inter 3s fall 3 rise 2\n    fullconn 1000\n    compression algo gzip\n    stick-table type ip size 1m expire 30m\n    http-reuse safe\n    errorfile 503 /etc/haproxy/errors/503.http\n    balance hdr(X-Key)\n    hash-type consistent\n    hash-preserve-affinity always\n    hash-balance-factor 0\n    load-server-state-from-file global\n    server c1 10.0.0.1:80 check hash-key id\n    server c2 10.0.0.2:80 check weight 2\n    server c3 10.0.0.3:80 check\n";
    let (bare, busy) = (read("haproxy", bare).unwrap(), read("haproxy", busy).unwrap());
    assert_eq!(busy.algorithm(), Algorithm::HaproxyConsistent);
    assert_eq!(owners(&busy), owners(&bare));
}

#[test]
fn haproxy_backends_inherit_their_defaults() {
    // `hash-type consistent` in `defaults` applies to the backend: read alone, the backend
    // was map-based, and every key could land elsewhere than HAProxy sends it.
    let cfg = "global\n    maxconn 100\ndefaults\n    mode http\n    timeout client 30s\n    option httplog\n    log global\n    hash-type consistent\n    default_backend cache\nfrontend fe\n    bind :80\nbackend cache\n    balance uri\n    server c1 10.0.0.1:80\n    server c2 10.0.0.2:80\n    server c3 10.0.0.3:80\n";
    let written = "backend cache\n    balance uri\n    hash-type consistent\n    server c1 10.0.0.1:80\n    server c2 10.0.0.2:80\n    server c3 10.0.0.3:80\n";
    let inherited = read("haproxy", cfg).unwrap();
    assert_eq!(inherited.algorithm(), Algorithm::HaproxyConsistent);
    assert_eq!(owners(&inherited), owners(&read("haproxy", written).unwrap()));
    // `balance` from the defaults too; the backend's own line wins over the defaults'.
    let both = "defaults\n    balance hdr(X)\n    hash-type consistent crc32\nbackend a\n    server s1 a:1\n    server s2 b:1\nbackend b\n    hash-type map-based\n    server s1 a:1\n    server s2 b:1\n";
    let a = from_config("haproxy", both, &pick("a")).unwrap();
    assert!(a.describe_key("k").starts_with("crc32"), "{}", a.describe_key("k"));
    assert_eq!(from_config("haproxy", both, &pick("b")).unwrap().algorithm(), Algorithm::HaproxyMapBased);
    // Named defaults: `from` picks one, else the last before the section.
    let named = "defaults hashed\n    balance hdr(X)\n    hash-type consistent\ndefaults plain\n    balance hdr(X)\nbackend a from hashed\n    server s1 a:1\nbackend b\n    server s1 a:1\nbackend c from nope\n    server s1 a:1\n";
    assert_eq!(from_config("haproxy", named, &pick("a")).unwrap().algorithm(), Algorithm::HaproxyConsistent);
    assert_eq!(from_config("haproxy", named, &pick("b")).unwrap().algorithm(), Algorithm::HaproxyMapBased);
    let (line, message) = refusal(from_config("haproxy", named, &pick("c")));
    assert_eq!(line, 10, "{message}");
    assert!(message.contains("no `defaults` section named \"nope\""), "{message}");
    // What the defaults say is read as strictly as the backend's own lines.
    let cases: &[(&str, usize, &str)] = &[
        ("defaults\n    mode tcp\nbackend b\n    balance hdr(X)\n    server a a:1\n", 2, "`mode tcp`"),
        ("defaults\n    sever a a:1\nbackend b\n    balance hdr(X)\n    server a a:1\n", 2, "(`server`?)"),
        ("defaults\n    server a a:1\nbackend b\n    balance hdr(X)\n", 2, "`defaults` section"),
        ("defaults\n    cookie SRV insert\nbackend b\n    balance hdr(X)\n    server a a:1\n", 2, "`cookie`"),
        (
            "defaults\n    default-server weight 5\nbackend b\n    balance hdr(X)\n    server a a:1\n",
            2,
            "default-server",
        ),
        (
            "defaults\n    default_backend web\nlisten l\n    bind :80\n    balance hdr(X)\n    server a a:1\n",
            2,
            "default_backend",
        ),
    ];
    for (text, line, words) in cases {
        let (got, message) = refusal(read("haproxy", text));
        assert_eq!(got, *line, "{text}\n{message}");
        assert!(message.contains(words), "{text}\n{message}");
    }
    // A line before the first section belongs to none.
    let (line, _) = refusal(from_config(
        "haproxy",
        "hash-type consistent\nbackend a\n balance uri\n server s a:1\nbackend b\n balance uri\n server s b:1\n",
        &pick("a"),
    ));
    assert_eq!(line, 1);
    // The backend's own `mode http` wins over the defaults' `mode tcp`.
    assert!(read(
        "haproxy",
        "defaults\n    mode tcp\nbackend b\n    mode http\n    balance hdr(X)\n    server a a:1\n"
    )
    .is_ok());
}

#[test]
fn nginx_refuses_a_line_it_does_not_know() {
    let cases: &[(&str, usize, &str)] = &[
        (
            "upstream u {\n  hash $k consistent;\n  sever 10.0.0.1:80;\n  server 10.0.0.2:80;\n}",
            3,
            "unknown directive \"sever\"",
        ),
        ("upstream u {\n  hash $k consistant;\n  server 10.0.0.1:80;\n}", 2, "only `consistent`"),
        ("upstream u {\n  hash $k consistent 1;\n  server 10.0.0.1:80;\n}", 2, "`hash` needs a key"),
        ("upstream u {\n  hash $k consistent;\n  server 10.0.0.1:80 wieght=2;\n}", 3, "\"wieght=2\""),
        // A backup before `hash` is never picked, but nginx refuses its line all the same.
        (
            "upstream u {\n  server 10.0.0.9:80 backup wieght=2;\n  hash $k consistent;\n  server 10.0.0.1:80;\n}",
            2,
            "\"wieght=2\"",
        ),
    ];
    for (text, line, words) in cases {
        let (got, message) = refusal(read("nginx", text));
        assert_eq!(got, *line, "{text}\n{message}");
        assert!(message.contains(words), "{text}\n{message}");
    }
    let backup = read(
        "nginx",
        "upstream u {\n  server 10.0.0.9:80 backup max_fails=2;\n  hash $k consistent;\n  server 10.0.0.1:80;\n}",
    );
    assert_eq!(backup.unwrap().nodes().len(), 1);
    // In a whole nginx.conf, the chosen block's lines, with the whole text's numbers.
    let conf = "http {\n  upstream a {\n    hash $k;\n    server 10.0.0.1:80;\n  }\n  upstream b {\n    hash $k;\n    sever 10.0.0.2:80;\n    server 10.0.0.3:80;\n  }\n}\n";
    let (line, _) = refusal(from_config("nginx", conf, &pick("b")));
    assert_eq!(line, 8);
}

#[test]
fn control_characters_are_refused_at_the_door_for_every_kind() {
    for kind in CONFIG_KINDS {
        let lines: Vec<&str> = kind.example.lines().collect();
        for c in ['\0', '\u{7}', '\u{8}', '\u{b}', '\u{c}', '\u{1b}', '\u{1f}', '\u{7f}'] {
            // At the end of the second line, where a reader might take it as part of a word.
            let mut damaged: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            damaged[1].push(c);
            let text = damaged.join("\n");
            let column = lines[1].chars().count() + 1;
            for result in [read(kind.kind, &text).map(|_| ()), sections(kind.kind, &text).map(|_| ())] {
                let e = result.unwrap_err();
                assert_eq!(e.code(), "parse-error", "{}: {c:?}", kind.kind);
                let message = e.to_string();
                let want = format!("line 2: a control character (U+{:04X}) at column {column}", c as u32);
                assert!(message.starts_with(&want), "{}: {message}", kind.kind);
            }
        }
        // In a comment, on the first line, in the middle of a word: the same.
        let text = format!("#\u{1b}[0m\n{}", kind.example);
        assert!(read(kind.kind, &text)
            .unwrap_err()
            .to_string()
            .starts_with("line 1: a control character (U+001B) at column 2"));
        // Tabs, CR LF line ends and non-ASCII text stay accepted.
        let crlf = kind.example.replace('\n', "\r\n");
        assert!(read(kind.kind, &crlf).is_ok(), "{}", kind.kind);
        if kind.kind != "redis" {
            // (`CLUSTER NODES` has no comments.)
            assert!(read(kind.kind, &format!("# café ✓\n{}", kind.example)).is_ok(), "{}", kind.kind);
        }
    }
    for (kind, tabbed) in [
        ("haproxy", "backend b\n\tbalance hdr(X)\n\tserver a a:1\t weight 2\n"),
        ("nginx", "upstream u {\n\thash $k;\n\tserver a:1\tweight=2;\n}\n"),
        ("memcached", "10.0.0.1:11211\t2\n"),
    ] {
        assert!(read(kind, tabbed).is_ok(), "{kind}");
    }
}

const CACHE: &str = "- name: cache
  connect_timeout: 0.25s
  type: STATIC
  lb_policy: RING_HASH
  ring_hash_lb_config:
    minimum_ring_size: 1024
  load_assignment:
    cluster_name: cache
    endpoints:
    - lb_endpoints:
      - endpoint:
          address:
            socket_address: { address: 10.0.0.1, port_value: 8080 }
      - endpoint:
          address:
            socket_address: { address: 10.0.0.2, port_value: 8080 }
        load_balancing_weight: 2
";

const WEB: &str = "- name: web
  connect_timeout: 0.25s
  type: STATIC
  lb_policy: ROUND_ROBIN
  load_assignment:
    cluster_name: web
    endpoints:
    - lb_endpoints:
      - endpoint:
          address:
            socket_address: { address: 10.0.1.1, port_value: 80 }
";

/// An Envoy bootstrap file as the docs write one: an admin listener, a listener routing to
/// two clusters (one with a hash policy), and the clusters.
fn bootstrap(clusters: &[&str]) -> String {
    let head = "admin:
  address:
    socket_address: { address: 127.0.0.1, port_value: 9901 }
static_resources:
  listeners:
  - name: listener_0
    address:
      socket_address: { address: 0.0.0.0, port_value: 10000 }
    filter_chains:
    - filters:
      - name: envoy.filters.network.http_connection_manager
        typed_config:
          \"@type\": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
          stat_prefix: ingress_http
          route_config:
            name: local_route
            virtual_hosts:
            - name: backend
              domains: [\"*\"]
              routes:
              - match: { prefix: \"/cache/\" }
                route:
                  cluster: cache
                  hash_policy:
                  - header:
                      header_name: x-user
              - match: { prefix: \"/\" }
                route: { cluster: web }
          http_filters:
          - name: envoy.filters.http.router
            typed_config:
              \"@type\": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router
  clusters:
";
    let body: String = clusters.iter().flat_map(|c| c.lines()).map(|l| format!("  {l}\n")).collect();
    format!("{head}{body}")
}

#[test]
fn an_envoy_cluster_is_read_as_it_is_pasted() {
    // The cluster alone, its fields at the top: how it was read before.
    let alone: String = CACHE.lines().map(|l| format!("{}\n", &l[2..])).collect();
    let want = read("envoy", &alone).unwrap();
    assert_eq!(want.algorithm(), Algorithm::EnvoyRingHash);
    let pasted = [
        // One item of a `clusters:` list, as it stands, at the list's indentation or deeper.
        CACHE.to_string(),
        CACHE.lines().map(|l| format!("    {l}\n")).collect(),
        // Items of a list, one of them hashing.
        format!("{WEB}{CACHE}"),
        format!("clusters:\n{WEB}{CACHE}"),
        // A whole bootstrap file.
        bootstrap(&[WEB, CACHE]),
        bootstrap(&[CACHE]),
    ];
    for text in &pasted {
        let got = read("envoy", text).unwrap_or_else(|e| panic!("{text}\n{e}"));
        assert_eq!(servers(&got), servers(&want), "{text}");
        assert_eq!(owners(&got), owners(&want), "{text}");
    }
    assert_eq!(sections("envoy", &format!("{WEB}{CACHE}")).unwrap(), ["web", "cache"]);
    assert_eq!(sections("envoy", &bootstrap(&[WEB, CACHE])).unwrap(), ["web", "cache"]);
    assert_eq!(sections("envoy", &alone).unwrap(), Vec::<String>::new());
    // Named, a cluster that does not hash is read, and refused in its own words.
    let (line, message) = refusal(from_config("envoy", &format!("{WEB}{CACHE}"), &pick("web")));
    assert_eq!(line, 4, "{message}");
    assert!(message.contains("lb_policy ROUND_ROBIN does not hash"), "{message}");
    // Two that hash, or none: the clusters found are named.
    let maglev = CACHE
        .replace("name: cache", "name: cache-b")
        .replace("RING_HASH", "MAGLEV")
        .replace("  ring_hash_lb_config:\n    minimum_ring_size: 1024\n", "");
    let three = bootstrap(&[WEB, CACHE, &maglev]);
    let (line, message) = refusal(read("envoy", &three));
    assert_eq!(line, three.lines().position(|l| l == "  clusters:").unwrap() + 1, "{message}");
    assert!(
        message.contains("2 clusters hash requests (cache, cache-b): choose one with the cluster option (the clusters: web, cache, cache-b)"),
        "{message}"
    );
    let (line, message) = refusal(read("envoy", &format!("{WEB}{}", WEB.replace("name: web", "name: api"))));
    assert_eq!(line, 1, "{message}");
    assert!(message.contains("2 clusters (web, api), and none with lb_policy RING_HASH or MAGLEV"), "{message}");
    // A bootstrap file without clusters says where they were looked for.
    let (line, message) = refusal(read("envoy", "static_resources:\n  listeners: []\n"));
    assert_eq!(line, 1, "{message}");
    assert!(message.contains("no `clusters:` under static_resources"), "{message}");
}

#[test]
fn fifty_thousand_twemproxy_pools_are_read() {
    // One line a pool: the YAML reader's duplicate check once scanned every key before each
    // key (5 to 8 s here); now a set. No timing is asserted, only the reading.
    let pools = 50_000;
    let text: String =
        (0..pools).map(|i| format!("p{i}: {{hash: md5, servers: [10.{}.{}.1:11211:1]}}\n", i / 250, i % 250)).collect();
    let names = sections("twemproxy", &text).unwrap();
    assert_eq!(names.len(), pools);
    assert_eq!((names[0].as_str(), names[pools - 1].as_str()), ("p0", "p49999"));
    let last = ImportOptions { pool: Some("p49999".into()), ..ImportOptions::default() };
    let pool = from_config("twemproxy", &text, &last).unwrap();
    assert_eq!(pool.nodes().len(), 1);
    assert_eq!(pool.nodes()[0].name, "10.199.249.1:11211");
    let (line, message) = refusal(read("twemproxy", &text));
    assert_eq!(line, 2, "{message}");
    assert!(message.contains("50000 pools"), "{message}");
    // A duplicate key is refused as before, on its line, at the end of the text too.
    let (line, message) = refusal(read("twemproxy", &format!("{text}p7: {{servers: [10.0.0.1:11211:1]}}\n")));
    assert_eq!((line, message.as_str()), (pools + 1, format!("line {}: \"p7\" is given twice", pools + 1).as_str()));
    let (line, message) = refusal(read("twemproxy", "p: {hash: md5, servers: [a:1:1], hash: crc32}\n"));
    assert_eq!((line, message.as_str()), (1, "line 1: \"hash\" is given twice"));
}
