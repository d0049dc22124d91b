//! Cassandra with explicit tokens (the `tokens` option, as `initial_token` sets them): a real
//! token layout is reproduced exactly. Owners are checked against tokens computed by
//! cassandra-driver (tests/real/fixtures/cassandra.json) and Cassandra's ownership rule,
//! applied here by brute force: a token `t` belongs to the node with the smallest token
//! ≥ `t`, wrapping past the largest token to the smallest.

use ringlab::algo::stores::cassandra::parse_initial_token;
use ringlab::algo::{Algorithm, Cluster, OptionValue, Options};
use ringlab::{migration, NodeSpec};
use std::collections::BTreeMap;

/// (token, key) pairs from cassandra-driver's Murmur3, the empty key left out (Cassandra's
/// partitioner gives it the minimum token, not the driver's 0).
fn driver_tokens() -> Vec<(i64, String)> {
    let f: serde_json::Value = serde_json::from_str(include_str!("../real/fixtures/cassandra.json")).unwrap();
    f["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["token"].as_str().unwrap().parse().unwrap(), t["key"].as_str().unwrap().to_string()))
        .filter(|(_, k): &(i64, String)| !k.is_empty())
        .collect()
}

/// Cassandra's rule by brute force over every node's tokens.
fn owner(layout: &BTreeMap<String, Vec<i64>>, token: i64) -> String {
    let all = layout.iter().flat_map(|(n, ts)| ts.iter().map(move |&t| (t, n)));
    let successor = all.clone().filter(|&(t, _)| t >= token).min();
    successor.or_else(|| all.min()).unwrap().1.clone()
}

fn cluster(layout: &BTreeMap<String, Vec<i64>>, extra: &[&str]) -> Cluster {
    let mut options = Options::new(Algorithm::Cassandra);
    options.set("tokens", OptionValue::Tokens(layout.clone())).unwrap();
    let names = layout.keys().map(String::as_str).chain(extra.iter().copied());
    Cluster::new(options, names).unwrap()
}

/// The `initial_token` values DataStax documents for a 4-node Murmur3 cluster with one token
/// each: `i·2^64/4 − 2^63`. Each node owns exactly a quarter of the token range.
#[test]
fn evenly_spaced_initial_tokens_own_exact_quarters() {
    let yaml = [
        ("10.0.0.1", "-9223372036854775808"),
        ("10.0.0.2", "-4611686018427387904"),
        ("10.0.0.3", "0"),
        ("10.0.0.4", "4611686018427387904"),
    ];
    let layout: BTreeMap<String, Vec<i64>> =
        yaml.iter().map(|(n, t)| (n.to_string(), parse_initial_token(t).unwrap())).collect();
    let c = cluster(&layout, &[]);
    assert_eq!(c.exact_shares().unwrap(), vec![0.25; 4]);
    for (token, key) in driver_tokens() {
        assert_eq!(c.locate(&key).unwrap(), owner(&layout, token), "{key:?} (token {token})");
    }
}

/// A `nodetool ring`-style listing of three nodes with four vnode tokens each (tokens chosen
/// unevenly, as a real cluster's random allocation leaves them), parsed here.
const NODETOOL_RING: &str = "\
Address      Rack   Status State   Load       Owns    Token
                                                      8907213371930165270
10.1.0.11    rack1  Up     Normal  1.2 GiB    ?       -8804165297372380811
10.1.0.12    rack1  Up     Normal  1.1 GiB    ?       -6112345678901234567
10.1.0.13    rack1  Up     Normal  1.3 GiB    ?       -4200000000000000000
10.1.0.11    rack1  Up     Normal  1.2 GiB    ?       -1000000000000000001
10.1.0.12    rack1  Up     Normal  1.1 GiB    ?       -17
10.1.0.13    rack1  Up     Normal  1.3 GiB    ?       0
10.1.0.11    rack1  Up     Normal  1.2 GiB    ?       1234567890123456789
10.1.0.13    rack1  Up     Normal  1.3 GiB    ?       3000000000000000000
10.1.0.12    rack1  Up     Normal  1.1 GiB    ?       4611686018427387904
10.1.0.11    rack1  Up     Normal  1.2 GiB    ?       6000000000000000000
10.1.0.13    rack1  Up     Normal  1.3 GiB    ?       7777777777777777777
10.1.0.12    rack1  Up     Normal  1.1 GiB    ?       8907213371930165270
";

fn nodetool_layout() -> BTreeMap<String, Vec<i64>> {
    let mut layout: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for line in NODETOOL_RING.lines().skip(2) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        layout.entry(cols[0].to_string()).or_default().push(cols[cols.len() - 1].parse().unwrap());
    }
    layout
}

#[test]
fn a_nodetool_ring_layout_is_reproduced() {
    let layout = nodetool_layout();
    assert_eq!(layout.values().map(Vec::len).sum::<usize>(), 12);
    let c = cluster(&layout, &[]);
    assert!(c.nodes().iter().all(|n| n.points == 4));
    for (token, key) in driver_tokens() {
        assert_eq!(c.locate(&key).unwrap(), owner(&layout, token), "{key:?} (token {token})");
    }
    // Exact shares from the listed tokens, by u128 arithmetic here: a node owns
    // (previous token, its token] for each of its tokens.
    let mut sorted: Vec<(i64, &String)> = layout.iter().flat_map(|(n, ts)| ts.iter().map(move |&t| (t, n))).collect();
    sorted.sort();
    let mut owned: BTreeMap<&String, u128> = BTreeMap::new();
    for (i, &(t, n)) in sorted.iter().enumerate() {
        let prev = if i == 0 { sorted[sorted.len() - 1].0 } else { sorted[i - 1].0 };
        let width = (t as i128 - prev as i128).rem_euclid(1i128 << 64) as u128;
        *owned.entry(n).or_default() += width;
    }
    let shares = c.exact_shares().unwrap();
    for (node, share) in c.nodes().iter().zip(shares) {
        assert_eq!(share, owned[&node.name] as f64 / 2f64.powi(64), "{}", node.name);
    }
}

/// A node bootstrapping with explicit tokens takes exactly `(predecessor token, t]` for each
/// of its tokens `t`: the exact migration's arcs are those ranges and nothing else. Nodes
/// without explicit tokens keep their generated `name#i` tokens alongside.
#[test]
fn a_join_with_explicit_tokens_takes_exactly_the_ranges_below_them() {
    let mut layout = nodetool_layout();
    let before = cluster(&layout, &["generated-node"]);
    let joining = vec![-5_000_000_000_000_000_000, 2_000_000_000_000_000_000];
    layout.insert("10.1.0.14".into(), joining.clone());
    let mut options = Options::new(Algorithm::Cassandra);
    options.set("tokens", OptionValue::Tokens(layout)).unwrap();
    let mut after = Cluster::new(options.clone(), before.nodes().iter().map(|n| n.name.as_str())).unwrap();
    assert_eq!(after.nodes().len(), 4, "tokens for a node not yet added are only read when it is added");
    after.add(NodeSpec::new("10.1.0.14")).unwrap();
    let m = migration::between(before.arcs().unwrap(), after.arcs().unwrap()).unwrap();
    let arcs = before.arcs().unwrap();
    let old: Vec<u64> = (0..arcs.point_count()).map(|i| arcs.point(i).0).collect();
    let mut expected: Vec<(u64, u64)> = joining
        .iter()
        .map(|&t| {
            let p = (t as u64) ^ (1 << 63);
            let below = old.iter().copied().filter(|&q| q < p).max().expect("a token below");
            (below + 1, p)
        })
        .collect();
    expected.sort();
    let got: Vec<(u64, u64)> = m.arcs.iter().map(|a| (a.start, a.end)).collect();
    assert_eq!(got, expected);
    assert!(m.arcs.iter().all(|a| a.to == "10.1.0.14"));
}

#[test]
fn bad_token_lists_are_refused_and_change_nothing() {
    let mut layout = BTreeMap::new();
    layout.insert("a".to_string(), vec![1, 2]);
    layout.insert("b".to_string(), vec![3]);
    layout.insert("clash".to_string(), vec![2]);
    layout.insert("empty".to_string(), vec![]);
    let mut options = Options::new(Algorithm::Cassandra);
    options.set("tokens", OptionValue::Tokens(layout)).unwrap();
    let mut c = Cluster::new(options.clone(), ["a", "b"]).unwrap();
    let before = format!("{c:?}");
    let err = c.add(NodeSpec::new("clash")).unwrap_err();
    assert_eq!(err.code(), "invalid-option");
    assert!(err.to_string().contains("token 2 is given twice"), "{err}");
    assert_eq!(c.add(NodeSpec::new("empty")).unwrap_err().code(), "invalid-option");
    assert!(c.set_weight("a", 2.0).unwrap_err().to_string().contains("weight must be 1"));
    assert_eq!(format!("{c:?}"), before);
    assert!(Cluster::new(options, ["a", "clash"]).is_err());
    let e = parse_initial_token("1,2,,3").unwrap_err();
    assert_eq!(e.code(), "parse-error");
    assert!(e.to_string().contains("token 3"), "{e}");
    assert!(parse_initial_token("9223372036854775808").is_err(), "above i64::MAX");
}
