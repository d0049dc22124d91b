//! wasm-bindgen tests, run in headless Chromium and Firefox by `cargo xtask test`: the `Ring`
//! and `Session` classes as JavaScript sees them (options objects in, `Error`s with readable
//! messages and codes out, wrong types refused), and the shared vectors giving the same
//! answers in the browser as natively.

#[path = "../common/mod.rs"]
mod common;

use js_sys::{Array, Reflect};
use ringlab::web::{self, Ring, Session};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

/// A JS value from JSON text, as a page would pass it.
fn js(json: &str) -> JsValue {
    js_sys::JSON::parse(json).expect("test JSON parses")
}

/// A JS string.
fn s(text: &str) -> JsValue {
    JsValue::from_str(text)
}

/// A JS number.
fn n(x: f64) -> JsValue {
    JsValue::from_f64(x)
}

/// The message of the `Error` a call threw.
#[track_caller]
fn message<T>(result: Result<T, JsValue>) -> String {
    let value: JsValue = result.err().expect("the call should fail");
    let error: js_sys::Error = value.dyn_into().expect("a JS Error");
    String::from(error.message())
}

/// The `code` of the `Error` a call threw.
#[track_caller]
fn code<T>(result: Result<T, JsValue>) -> String {
    let value: JsValue = result.err().expect("the call should fail");
    assert!(value.is_instance_of::<js_sys::Error>(), "a JS Error");
    get(&value, "code").as_string().expect("a code")
}

fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &JsValue::from_str(key)).unwrap()
}

#[wasm_bindgen_test]
fn options_object_builds_a_ring() {
    let ring =
        Ring::new(js(r#"{"hash": "md5", "vnodes": 10, "nodes": ["a", {"name": "b", "weight": 2, "zone": "z1"}]}"#))
            .unwrap();
    assert_eq!(ring.point_count(), 30);
    assert_eq!(ring.hash(), "md5");
    let nodes: Array = ring.nodes().unwrap().dyn_into().unwrap();
    assert_eq!(nodes.length(), 2);
    let b = nodes.get(1);
    assert_eq!(get(&b, "name").as_string().unwrap(), "b");
    assert_eq!(get(&b, "zone").as_string().unwrap(), "z1");
    assert_eq!(get(&b, "points").as_f64().unwrap(), 20.0);
    let total: f64 = nodes.iter().map(|n| get(&n, "share").as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-12, "shares sum to 1, got {total}");
}

#[wasm_bindgen_test]
fn no_options_means_defaults() {
    let mut ring = Ring::new(JsValue::UNDEFINED).unwrap();
    assert_eq!((ring.hash().as_str(), ring.bits(), ring.vnodes()), ("xxh3", 32, 160));
    ring.add(s("a"), JsValue::UNDEFINED).unwrap();
    assert_eq!(ring.locate(s("anything")).unwrap(), "a");
}

#[wasm_bindgen_test]
fn errors_are_js_errors_with_readable_messages() {
    let mut ring = Ring::new(js(r#"{"nodes": ["a"]}"#)).unwrap();
    assert_eq!(message(ring.add(s("a"), JsValue::UNDEFINED)), "a node named \"a\" is already on the ring");
    assert_eq!(message(ring.remove(s("ghost"))), "there is no node named \"ghost\" on the ring");
    assert!(message(ring.add(s("w"), js(r#"{"weight": 0}"#))).contains("weight must be a positive"));
    assert!(message(ring.set_weight(s("a"), n(f64::NAN))).contains("weight must be a positive"));
    assert!(message(Ring::new(js(r#"{"hash": "djb2"}"#))).contains("unknown hash \"djb2\""));
    assert!(message(Ring::new(js(r#"{"vnodes": 0}"#))).contains("vnodes must be between 1 and"));
    assert!(message(Ring::new(js(r#"{"vnodes": 1e12}"#))).contains("vnodes must be between 1 and"));
    assert!(message(Ring::new(js(r#"{"colour": "red"}"#))).contains("invalid option"));
    assert_eq!(code(Ring::new(js(r#"{"colour": "red"}"#))), "invalid-option");
    assert_eq!(code(ring.add(s("a"), JsValue::UNDEFINED)), "duplicate-node");
    assert_eq!(code(ring.remove(s("ghost"))), "unknown-node");
    assert!(message(Ring::new(js(r#"{"nodes": [{"name": "a", "weight": "heavy"}]}"#)))
        .contains("each node is a name or {name, weight, zone}"));
    assert!(message(ring.add(s("big"), js(r#"{"weight": 100000}"#))).contains("points on the ring"));
    // A stranger's megabyte comes back as its first 80 characters and its length.
    let huge = "h".repeat(1 << 20);
    let said = message(Ring::new(js(&format!(r#"{{"hash": "{huge}"}}"#))));
    assert_eq!(said, format!("unknown hash \"{}…\" (1,048,576 characters): choose one of xxh3, xxh64, xxh32, fnv1a32, fnv1a64, md5, sha256, murmur3, crc32", "h".repeat(80)));
    let said = message(ring.remove(s(&huge)));
    assert!(said.starts_with("there is no node named \"hhh") && said.len() < 200, "{said}");
    let said = message(Session::new(js(&format!(r#"{{"algorithm": "{huge}"}}"#))));
    assert!(
        said.starts_with("invalid option: unknown algorithm \"hhh")
            && said.contains("(1,048,576 characters): choose one of"),
        "{said}"
    );
    // Failed calls left the ring as it was.
    assert_eq!(ring.point_count(), 160);
    ring.remove(s("a")).unwrap();
    assert!(message(ring.locate(s("k"))).contains("the ring is empty"));
}

#[wasm_bindgen_test]
fn diff_reports_a_join_exactly() {
    let before = Ring::new(js(r#"{"nodes": ["a", "b", "c"]}"#)).unwrap();
    let mut after = before.duplicate();
    after.add(s("d"), JsValue::UNDEFINED).unwrap();
    let diff = Ring::diff(&before, &after).unwrap();
    let moved = get(&diff, "movedFraction").as_f64().unwrap();
    let ideal = get(&diff, "idealFraction").as_f64().unwrap();
    assert_eq!(moved, ideal);
    let arcs: Array = get(&diff, "arcs").dyn_into().unwrap();
    assert!(arcs.length() > 0);
    assert!(arcs.iter().all(|arc| get(&arc, "to").as_string().unwrap() == "d"));
    let sample = Ring::diff_sample(&before, &after, s("key:"), n(10_000.0), n(1.0)).unwrap();
    let sampled = get(&sample, "movedFraction").as_f64().unwrap();
    assert!((sampled - moved).abs() < 0.02, "sample {sampled} vs exact {moved}");
}

#[wasm_bindgen_test]
fn rendezvous_matches_the_python_implementation_in_the_browser() {
    let r = common::vectors().rendezvous;
    let nodes = serde_json::to_string(&r.nodes).unwrap();
    let ring =
        Ring::new(js(&format!(r#"{{"algorithm": "rendezvous", "hash": "{}", "nodes": {nodes}}}"#, r.hash))).unwrap();
    for k in &r.keys {
        assert_eq!(ring.locate(s(&k.key)).unwrap(), k.owner, "{:?}", k.key);
    }
}

#[wasm_bindgen_test]
fn vectors_match_in_the_browser() {
    for case in common::vectors().cases {
        let nodes = serde_json::to_string(&case.nodes).unwrap();
        let options = format!(
            r#"{{"hash": "{}", "bits": {}, "vnodes": {}, "nodes": {nodes}}}"#,
            case.hash, case.bits, case.vnodes
        );
        let ring = Ring::new(js(&options)).unwrap();
        assert_eq!(ring.point_count(), case.points);
        for k in &case.keys {
            let position = ring.key_position(s(&k.key)).unwrap();
            assert_eq!(common::hex(&position), common::hex(&k.position), "{} {:?}", case.hash, k.key);
            assert_eq!(ring.locate(s(&k.key)).unwrap(), k.owner, "{} {:?}", case.hash, k.key);
        }
    }
}

#[wasm_bindgen_test]
fn replicas_and_analysis_are_reachable_from_js() {
    let ring = Ring::new(js(
        r#"{"vnodes": 50, "nodes": [{"name": "a1", "zone": "a"}, {"name": "a2", "zone": "a"}, {"name": "b1", "zone": "b"}]}"#,
    ))
    .unwrap();
    let list = ring.replicas(s("user:7"), n(2.0)).unwrap();
    assert_eq!(list[0], ring.locate(s("user:7")).unwrap());
    assert!(list.contains(&"b1".to_string()), "two zones, two replicas: one must be b1, got {list:?}");
    assert_eq!(ring.replicas(s("user:7"), n(10.0)).unwrap().len(), 3);

    let sweep: Array = ring.vnode_sweep(js("[1, 10, 100]")).unwrap().dyn_into().unwrap();
    assert_eq!(sweep.length(), 3);
    let rsd = |i: u32| get(&get(&sweep.get(i), "spread"), "rsd").as_f64().unwrap();
    assert!(rsd(2) < rsd(0), "more vnodes, less spread: {} vs {}", rsd(2), rsd(0));
    let theory = get(&sweep.get(1), "theoreticalRsd").as_f64().unwrap();
    assert_eq!(theory, web::theoretical_rsd(n(3.0), n(10.0)).unwrap());
    assert!((theory - (2.0f64 / 31.0).sqrt()).abs() < 1e-12);

    let mut after = ring.duplicate();
    after.remove(s("a1")).unwrap();
    let keys: Vec<String> = (0..500).map(|i| format!("user:{i}")).collect();
    let owned_by_a1 = keys.iter().filter(|k| ring.locate(s(k)).unwrap() == "a1").count();
    let moved = Ring::diff_keys(&ring, &after, serde_wasm_bindgen::to_value(&keys).unwrap(), n(0.0)).unwrap();
    assert_eq!(get(&moved, "movedKeys").as_f64().unwrap() as usize, owned_by_a1);
}

/// The real-system fixtures (tests/real), checked in the browser: u64/i64 arithmetic, CRC
/// and the float formulas must give the same answers in wasm as the real implementations.
#[wasm_bindgen_test]
fn real_systems_agree_in_the_browser() {
    use serde_json::Value;
    let cassandra: Value = serde_json::from_str(include_str!("../real/fixtures/cassandra.json")).unwrap();
    for t in cassandra["tokens"].as_array().unwrap() {
        let key = t["key"].as_str().unwrap();
        let want: i64 = t["token"].as_str().unwrap().parse().unwrap();
        let want = if key.is_empty() { i64::MIN } else { want }; // Cassandra's MINIMUM for b""
        assert_eq!(web::cassandra_token(s(key)).unwrap(), want, "{key:?}");
    }
    let jump: Value = serde_json::from_str(include_str!("../real/fixtures/jump.json")).unwrap();
    for c in jump["cases"].as_array().unwrap() {
        let key: u64 = c["key"].as_str().unwrap().parse().unwrap();
        let buckets = c["buckets"].as_u64().unwrap() as u32;
        assert_eq!(
            u64::from(web::jump_hash(JsValue::from(key), n(f64::from(buckets))).unwrap()),
            c["bucket"].as_u64().unwrap()
        );
    }
    let redis: Value = serde_json::from_str(include_str!("../real/fixtures/redis_cluster.json")).unwrap();
    for k in redis["keyslots"].as_array().unwrap() {
        assert_eq!(u64::from(web::redis_key_slot(s(k["key"].as_str().unwrap())).unwrap()), k["slot"].as_u64().unwrap());
    }
    let ketama: Value = serde_json::from_str(include_str!("../real/fixtures/ketama_published.json")).unwrap();
    for v in ketama["vectors"].as_array().unwrap() {
        let nodes = serde_json::to_string(&v["servers"]).unwrap();
        let ring = Ring::new(js(&format!(r#"{{"algorithm": "libketama", "nodes": {nodes}}}"#))).unwrap();
        for k in v["keys"].as_array().unwrap() {
            assert_eq!(ring.locate(s(k["key"].as_str().unwrap())).unwrap(), k["server"].as_str().unwrap());
        }
    }
}

#[wasm_bindgen_test]
fn every_algorithm_is_reachable_by_name() {
    let names = web::algorithms();
    assert_eq!(names.len(), ringlab::algo::Algorithm::ALL.len());
    for name in &names {
        let mut ring = Ring::new(js(&format!(r#"{{"algorithm": "{name}", "nodes": ["n1", "n2", "n3"]}}"#))).unwrap();
        assert_eq!(&ring.algorithm(), name);
        let owner = ring.locate(s("user:42")).unwrap();
        assert!(["n1", "n2", "n3"].contains(&owner.as_str()), "{name}: {owner}");
        let before = ring.duplicate();
        ring.add(s("n4"), JsValue::UNDEFINED).unwrap();
        let sample = Ring::diff_sample(&before, &ring, s("key:"), n(2000.0), n(0.0)).unwrap();
        let moved = get(&sample, "movedFraction").as_f64().unwrap();
        // The non-consistent baselines may move nearly everything.
        let baselines = [
            "modulo",
            "nginx-hash",
            "haproxy-map-based",
            "twemproxy-modula",
            "python-memcached",
            "memjs",
            "spymemcached-native",
        ];
        let bound = if baselines.contains(&name.as_str()) { 1.0 } else { 0.45 };
        assert!(moved > 0.0 && moved <= bound, "{name} moved {moved}");
        if ring.point_count() > 0 {
            let exact = get(&Ring::diff(&before, &ring).unwrap(), "movedFraction").as_f64().unwrap();
            assert!((exact - moved).abs() < 0.05, "{name}: exact {exact} vs sampled {moved}");
        }
    }
    assert!(message(Ring::new(js(r#"{"algorithm": "chord"}"#))).contains("unknown algorithm \"chord\""));
    let mut jump = Ring::new(js(r#"{"algorithm": "jump", "nodes": ["a", "b", "c"]}"#)).unwrap();
    assert!(message(jump.remove(s("a"))).contains("jump hash can only remove its last bucket"));
    jump.remove(s("c")).unwrap();
    assert!(message(Ring::new(js(r#"{"algorithm": "maglev", "nodes": [{"name": "a", "weight": 2}]}"#)))
        .contains("maglev has no weights"));
    let redis = Ring::new(js(r#"{"algorithm": "redis-cluster", "nodes": ["m1", "m2", "m3"]}"#)).unwrap();
    assert_eq!(redis.describe_key(s("123456789")).unwrap(), "slot 12739");
    assert!(message(redis.replicas(s("k"), n(2.0))).contains("has no preference lists"));
}

#[wasm_bindgen_test]
fn algorithms_compare_side_by_side() {
    // As many keys as every algorithm together may take (the comparison's cap).
    let keys = (ringlab::limits::MAX_COMPARE_WORK as usize / ringlab::algo::Algorithm::ALL.len()) as f64;
    let rows: Array = web::compare_algorithms(js(r#"{"nodes": ["a", "b", "c", "d", "e"]}"#), s("key:"), n(keys))
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_eq!(rows.length() as usize, ringlab::algo::Algorithm::ALL.len());
    for row in rows.iter() {
        let name = get(&row, "algorithm").as_string().unwrap();
        assert!(get(&row, "error").is_undefined(), "{name}: {:?}", get(&row, "error"));
        let join = get(&row, "movedOnJoin").as_f64().unwrap();
        if name == "modulo" {
            assert!(join > 0.7, "modulo {join}");
        }
    }
}

/// Wrong JS types, NaN, negative and fractional counts get `Error`s with codes, never a trap,
/// and the object still works afterwards.
#[wasm_bindgen_test]
fn wrong_types_and_counts_are_refused_not_trapped() {
    let mut ring = Ring::new(js(r#"{"nodes": ["a", "b"]}"#)).unwrap();
    assert_eq!(code(ring.locate(n(42.0))), "invalid-argument");
    assert_eq!(code(ring.locate(JsValue::NULL)), "invalid-argument");
    assert_eq!(code(ring.add(n(1.0), JsValue::UNDEFINED)), "invalid-argument");
    assert_eq!(code(ring.add(s("c"), s("heavy"))), "invalid-argument");
    assert_eq!(code(ring.key_owners(s("k"), n(-1.0))), "invalid-argument");
    assert_eq!(code(ring.key_owners(s("k"), n(1.5))), "invalid-argument");
    assert_eq!(code(ring.key_owners(s("k"), n(f64::NAN))), "invalid-argument");
    assert_eq!(code(ring.key_owners(s("k"), n(1e12))), "too-large");
    assert_eq!(code(ring.key_owners(s(&"x".repeat(5000)), n(10.0))), "too-large");
    assert_eq!(code(ring.replicas(s("k"), n(-3.0))), "invalid-argument");
    assert_eq!(code(web::compare_algorithms(js(r#"{"nodes": ["a", "b"]}"#), s("k"), n(-1.0))), "invalid-argument");
    assert_eq!(code(web::jump_hash(n(1.0), n(3.0))), "invalid-argument", "the key must be a BigInt");
    assert_eq!(code(web::judge_estimate(s("200"), n(183.0), n(1000.0))), "invalid-argument");
    assert_eq!(code(web::judge_estimate(n(200.0), n(1001.0), n(1000.0))), "too-large", "more counted than sampled");
    assert_eq!(code(web::judge_estimate(n(200.0), n(1.0), n(1e9))), "too-large");
    let judged = web::judge_estimate(n(200.0), n(183.0), n(1000.0)).unwrap();
    assert_eq!(get(&judged, "tolerance").as_f64(), Some(25.0), "⌈2·√(1000 · 0.183 · 0.817)⌉");
    assert_eq!(code(Ring::new(js(r#"{"vnodes": -5}"#))), "invalid-option");
    assert_eq!(code(Ring::new(js("[1, 2]"))), "invalid-argument");
    // `typeof` says "object" for both; the message says what was passed.
    assert_eq!(message(Ring::new(js(r#"["a", "b"]"#))), "options must be an object (got an array)");
    assert_eq!(message(ring.locate(JsValue::NULL)), "the key must be a string (got null)");
    // Lone surrogates arrive replaced, as the browser's encoder does, and work as names.
    let lone = js_sys::JSON::parse(r#""\ud800x""#).unwrap();
    ring.add(lone, JsValue::UNDEFINED).unwrap();
    assert_eq!(ring.point_count(), 480);
    assert!(!ring.locate(s("still works")).unwrap().is_empty());
}

#[wasm_bindgen_test]
fn an_opening_that_failed_says_why_each_time_it_is_asked() {
    // Too many keys for rendezvous on 1,000 nodes: refused when the sample is placed.
    let nodes: Vec<String> = (0..1000).map(|i| format!("n=n{i}")).collect();
    let link = format!("#ringlab=2&a=rendezvous&k=100000&{}", nodes.join("&"));
    let mut failed = Session::opening(s(&link)).unwrap();
    assert_eq!(code(failed.session()), "too-large");
    assert_eq!(code(failed.session()), "too-large", "asked again: its error, not \"already given\"");
    assert_eq!(code(failed.step()), "too-large");
    // A good opening gives its session once.
    let mut good = Session::opening(s("#ringlab=2&a=ring&n=a&n=b")).unwrap();
    let nodes: Array = good.session().unwrap().nodes().unwrap().dyn_into().unwrap();
    assert_eq!(nodes.length(), 2);
    assert!(message(good.session()).contains("already given its session"));
    assert_eq!(code(good.step()), "invalid-argument");
}

/// A frame carries the share link only when asked (the playground writes it to the address
/// bar; the element, whose modules have no link writer, never asks), and a wrong `link` is an
/// error with its code.
#[wasm_bindgen_test]
fn a_frame_carries_the_link_only_when_asked() {
    let session = Session::new(js(r#"{"algorithm": "maglev", "nodes": ["x", "y"]}"#)).unwrap();
    assert!(get(&session.frame(JsValue::UNDEFINED).unwrap(), "link").is_null());
    assert!(get(&session.frame(js(r#"{"link": false}"#)).unwrap(), "link").is_null());
    let link = get(&session.frame(js(r#"{"link": true, "follow": "k"}"#)).unwrap(), "link").as_string().unwrap();
    assert!(link.starts_with("#ringlab=2&a=maglev&"), "{link}");
    // The followed key rides in it, after the state's own link.
    assert_eq!(link, format!("{}&f=k", session.link()));
    assert_eq!(Session::from_link(s(&link)).unwrap().linked_key().as_deref(), Some("k"));
    assert_eq!(code(session.frame(js(r#"{"link": "yes"}"#))), "invalid-argument");
    assert_eq!(code(session.frame(js(r#"{"links": true}"#))), "invalid-option");
}

#[wasm_bindgen_test]
fn rollout_arguments_are_read_by_their_kind() {
    let before = Ring::new(js(r#"{"nodes": ["a", "b", "c"]}"#)).unwrap();
    let after = Ring::new(js(r#"{"nodes": ["a", "b", "c", "d"]}"#)).unwrap();
    let converged = |options: &str| get(&Ring::propagate(&before, &after, js(options)).unwrap(), "convergedAtMs");
    // Fixed: every client at once after the lag; even: the last of 4 clients after it all.
    assert_eq!(converged(r#"{"clients": 4, "lag": {"kind": "fixed", "ms": 300}}"#).as_f64(), Some(300.0));
    assert_eq!(converged(r#"{"clients": 4, "lag": {"kind": "even", "ms": 400}}"#).as_f64(), Some(400.0));
    assert_eq!(converged(r#"{"clients": 4, "lag": {"kind": "even", "ms": 400, "extra": 1}}"#).as_f64(), Some(400.0));
    for lag in [
        r#"{"kind": "exponential", "meanMs": 100, "seed": 7}"#,
        r#"{"kind": "poll", "everyMs": 250}"#,
        r#"{"kind": "on-redirect"}"#,
    ] {
        Ring::propagate(&before, &after, js(&format!(r#"{{"lag": {lag}}}"#))).unwrap();
    }
    Ring::propagate(&before, &after, js(r#"{"traffic": {"kind": "zipf", "s": 1.1}}"#)).unwrap();
    let refused = |options: &str| {
        let result = Ring::propagate(&before, &after, js(options));
        (code(Ring::propagate(&before, &after, js(options))), message(result))
    };
    let (c, m) = refused(r#"{"lag": {"kind": "sometimes"}}"#);
    assert_eq!(c, "invalid-option");
    assert!(m.contains(r#"unknown lag kind "sometimes""#) && m.contains("on-redirect"), "{m}");
    let (c, m) = refused(r#"{"lag": {"kind": "fixed"}}"#);
    assert_eq!(c, "invalid-option");
    assert!(m.contains(r#"the lag "fixed" needs ms"#), "{m}");
    let (_, m) = refused(r#"{"lag": {"kind": "exponential", "meanMs": 5, "seed": 1.5}}"#);
    assert!(m.contains("the seed"), "{m}");
    let (c, m) = refused(r#"{"lag": "even"}"#);
    assert_eq!(c, "invalid-option");
    assert!(m.contains("expected an object {kind, ...}"), "{m}");
    let (c, m) = refused(r#"{"lag": {"ms": 5}}"#);
    assert_eq!(c, "invalid-option");
    assert!(m.contains("kind"), "{m}");
    let (_, m) = refused(r#"{"traffic": {"kind": "zipf"}}"#);
    assert!(m.contains(r#"the traffic "zipf" needs s"#), "{m}");
    let (_, m) = refused(r#"{"traffic": {"kind": "hot"}}"#);
    assert!(m.contains(r#"unknown traffic kind "hot""#), "{m}");

    let all = js(r#"[{"kind": "all-at-once"}, {"kind": "as-given"}, {"kind": "poll", "everyMs": 500},
        {"kind": "on-redirect"}, {"kind": "drain-first"}, {"kind": "ramp", "steps": 3, "everyMs": 200}]"#);
    let compared: Array = Ring::compare_rollouts(&before, &after, JsValue::UNDEFINED, all).unwrap().into();
    let labels: Vec<String> = compared.iter().map(|c| get(&c, "label").as_string().unwrap()).collect();
    assert_eq!(labels.len(), 6);
    assert_eq!(labels[0], "all at once");
    assert_eq!(labels[5], "3 steps, one every 200 ms");
    let strategies = |list: &str| Ring::compare_rollouts(&before, &after, JsValue::UNDEFINED, js(list));
    assert!(message(strategies(r#"[{"kind": "ramp", "everyMs": 200}]"#)).contains(r#"the strategy "ramp" needs steps"#));
    assert!(message(strategies(r#"[{"kind": "later"}]"#)).contains(r#"unknown strategy kind "later""#));
    assert_eq!(code(strategies(r#"[{"kind": "ramp", "steps": 1e9, "everyMs": 1}]"#)), "too-large");
    assert_eq!(code(strategies(r#"[{"kind": 5}]"#)), "invalid-option");
}

#[wasm_bindgen_test]
fn the_session_drives_a_change_and_undo_from_js() {
    let mut session = Session::new(JsValue::UNDEFINED).unwrap();
    let t = session.add(s("node-6"), JsValue::UNDEFINED).unwrap();
    let text = get(&t, "text").as_string().unwrap();
    assert!(text.starts_with("Added node-6: moved"), "{text}");
    let exact = get(&t, "exact");
    let arcs: Array = get(&exact, "arcs").dyn_into().unwrap();
    assert!(arcs.length() > 0 && arcs.iter().all(|a| get(&a, "to").as_string().unwrap() == "node-6"));
    let movers = get(&t, "movers");
    let index: Array = get(&movers, "index").dyn_into().unwrap();
    assert_eq!(index.length() as f64, get(&get(&t, "sample"), "movedKeys").as_f64().unwrap());
    // The scene's arrays are typed arrays, as long as the sample.
    let scene = session.scene().unwrap();
    let keys: js_sys::Float64Array = get(&scene, "keys").dyn_into().unwrap();
    assert_eq!(keys.length(), 2000);
    let axis: Array = get(&scene, "axis").dyn_into().unwrap();
    assert_eq!(axis.get(1).as_string().unwrap(), "2³⁰");
    let undo = session.undo().unwrap();
    assert_eq!(get(&undo, "label").as_string().unwrap(), "Undid: Added node-6");
    let nodes: Array = session.nodes().unwrap().dyn_into().unwrap();
    assert_eq!(nodes.length(), 5);
    assert_eq!(code(session.remove(s("ghost"))), "unknown-node");
    assert_eq!(code(session.configure(js(r#"{"keys": 1e9}"#))), "too-large");
    let link = session.link();
    let back = Session::from_link(s(&link)).unwrap();
    assert_eq!(back.link(), link);
    assert_eq!(code(Session::from_link(s("#ringlab=9"))), "invalid-option");
    // Counts past a 32-bit usize (wasm's) are refused, as natively, not wrapped into range
    // (4,294,969,296 wrapped is 2,000: the default key count).
    assert_eq!(code(Session::from_link(s("#ringlab=2&k=4294969296"))), "too-large");
    assert_eq!(code(Session::from_link(s("#ringlab=2&k=4294967296"))), "too-large");
    assert_eq!(code(Session::from_link(s("#ringlab=2&r=4294967298"))), "invalid-option");
}

/// A Cassandra token layout given as `initial_token` lines: each key goes to the node whose
/// token is the first at or after the key's Murmur3 token (worked out here from the tokens).
#[wasm_bindgen_test]
fn cassandra_takes_explicit_tokens_from_js() {
    let ring = Ring::new(js(
        r#"{"algorithm": "cassandra", "nodes": ["c1", "c2"], "tokens": {"c1": "-9223372036854775808, 0", "c2": "-4611686018427387904, 4611686018427387904"}}"#,
    ))
    .unwrap();
    let tokens = [(i64::MIN, "c1"), (-4611686018427387904, "c2"), (0, "c1"), (4611686018427387904, "c2")];
    for i in 0..200 {
        let key = format!("user:{i}");
        let t = web::cassandra_token(s(&key)).unwrap();
        let owner = tokens.iter().find(|&&(tok, _)| tok >= t).map_or("c1", |&(_, n)| n);
        assert_eq!(ring.locate(s(&key)).unwrap(), owner, "{key} (token {t})");
    }
    assert_eq!(
        code(Ring::new(js(r#"{"algorithm": "cassandra", "nodes": ["c1"], "tokens": {"c1": "zero"}}"#))),
        "parse-error"
    );
}

/// A chart's data prepared one piece per call (as the page does, a task each) draws the same
/// chart as a fresh session that computes it in one go; bad kinds and options are refused.
fn canvas() -> JsValue {
    let make = js_sys::Function::new_no_args(
        "const c = document.createElement('canvas'); c.width = 900; c.height = 560; return c;",
    );
    make.call0(&JsValue::UNDEFINED).unwrap()
}

#[wasm_bindgen_test]
fn charts_prepared_in_pieces_draw_what_one_call_draws() {
    let options = r#"{"nodes": ["a", "b", "c", "d"], "vnodes": 50}"#;
    for kind in ["spread", "moves", "algorithms", "shares"] {
        let mut pieces = Session::new(js(options)).unwrap();
        let mut calls = 0;
        while !pieces.prepare_chart(s(kind), JsValue::UNDEFINED).unwrap() {
            calls += 1;
            assert!(calls < 1000, "{kind}: prepareChart never finishes");
        }
        let data = pieces.chart_data(s(kind), JsValue::UNDEFINED).unwrap();
        assert_eq!(get(&data, "kind").as_string().unwrap(), kind);
        let drawn = web::draw_chart(canvas(), data.clone(), JsValue::UNDEFINED).unwrap();
        let fresh = Session::new(js(options)).unwrap().chart_data(s(kind), JsValue::UNDEFINED).unwrap();
        // The data is a plain object: a JSON copy of it draws the same chart.
        let copied = js_sys::JSON::parse(&js_sys::JSON::stringify(&fresh).unwrap().as_string().unwrap()).unwrap();
        let fresh = web::draw_chart(canvas(), copied, js(r#"{"dark": true}"#)).unwrap();
        let csv = get(&drawn, "csv").as_string().unwrap();
        assert!(csv.lines().count() > 1, "{kind}: {csv}");
        assert_eq!(csv, get(&fresh, "csv").as_string().unwrap(), "{kind}");
        assert_eq!(
            get(&drawn, "table").is_null(),
            kind != "algorithms",
            "{kind}: a table for the algorithms chart only"
        );
    }
    let mut session = Session::new(js(options)).unwrap();
    assert_eq!(code(session.prepare_chart(s("pie"), JsValue::UNDEFINED)), "invalid-option");
    assert_eq!(code(session.prepare_chart(n(1.0), JsValue::UNDEFINED)), "invalid-argument");
    assert_eq!(code(session.prepare_chart(s("spread"), js(r#"{"dark": true}"#))), "invalid-option");
    assert_eq!(code(session.chart_data(s("pie"), JsValue::UNDEFINED)), "invalid-option");
    assert_eq!(code(session.chart_data(s("spread"), js(r#"{"dpr": 2}"#))), "invalid-option");
}

#[wasm_bindgen_test]
fn draw_chart_refuses_what_is_not_a_chart() {
    let session = Session::new(js(r#"{"nodes": ["a", "b", "c"]}"#)).unwrap();
    let shares = session.chart_data(s("shares"), JsValue::UNDEFINED).unwrap();
    let junk = [
        js("{}"),
        n(3.0),
        s("shares"),
        JsValue::NULL,
        JsValue::UNDEFINED,
        js(r#"{"kind": "pie", "data": {}}"#),
        js(r#"{"kind": "spread", "data": {"nodes": 3}}"#),
        js(r#"{"kind": "shares", "data": {"algorithm": "ring", "exact": true, "sampleKeys": "many", "nodes": []}}"#),
        js(r#"{"data": {}}"#),
        js(r#"{"kind": 5, "data": {}}"#),
        js(r#"{"kind": "spread"}"#),
    ];
    for chart in junk {
        let why = format!("{chart:?}");
        let got = web::draw_chart(canvas(), chart, JsValue::UNDEFINED);
        assert!(["invalid-argument", "invalid-option"].contains(&code(got).as_str()), "{why}");
    }
    // The shares data with no nodes: nothing to draw, said so.
    let empty = js(r#"{"kind": "shares", "data": {"algorithm": "ring", "exact": true, "sampleKeys": 0, "nodes": []}}"#);
    assert_eq!(code(web::draw_chart(canvas(), empty, JsValue::UNDEFINED)), "invalid-option");
    assert_eq!(code(web::draw_chart(n(1.0), shares.clone(), JsValue::UNDEFINED)), "invalid-argument", "not a canvas");
    assert_eq!(
        code(web::draw_chart(canvas(), shares.clone(), js(r#"{"band": true}"#))),
        "invalid-option",
        "band is chartData's"
    );
    let tiny = js_sys::Function::new_no_args(
        "const c = document.createElement('canvas'); c.width = 20; c.height = 20; return c;",
    )
    .call0(&JsValue::UNDEFINED)
    .unwrap();
    assert_eq!(
        code(web::draw_chart(tiny, shares.clone(), JsValue::UNDEFINED)),
        "invalid-option",
        "too small to lay out"
    );
    // Another field beside kind and data is refused; data before kind is the same chart.
    let extra = js_sys::Object::assign(&js_sys::Object::new(), shares.unchecked_ref());
    Reflect::set(&extra, &s("colour"), &s("red")).unwrap();
    let why = message(web::draw_chart(canvas(), extra.into(), JsValue::UNDEFINED));
    assert!(why.contains(r#"unknown field "colour""#), "{why}");
    let reordered = js_sys::Object::new();
    Reflect::set(&reordered, &s("data"), &get(&shares, "data")).unwrap();
    Reflect::set(&reordered, &s("kind"), &get(&shares, "kind")).unwrap();
    let (a, b) =
        (web::chart_svg(shares.clone(), JsValue::UNDEFINED), web::chart_svg(reordered.into(), JsValue::UNDEFINED));
    assert_eq!(get(&a.unwrap(), "svg").as_string(), get(&b.unwrap(), "svg").as_string());
    assert!(web::draw_chart(canvas(), shares, JsValue::UNDEFINED).is_ok());
}

/// Made by JavaScript source (getters and Proxies have no JSON form).
fn made_by(source: &str) -> JsValue {
    js_sys::Function::new_no_args(source).call0(&JsValue::UNDEFINED).unwrap()
}

/// A getter or Proxy trap that throws inside a call, or an array-like that claims a billion
/// items, is a coded error; the object stays usable, and a thousand of them do not wear the
/// module's stack away (each used to unwind through the wasm frames: the object stayed
/// borrowed for good, and at about 840 the module trapped).
#[wasm_bindgen_test]
fn hostile_objects_are_refused_and_leave_everything_usable() {
    let mut ring = Ring::new(js(r#"{"nodes": ["a", "b"]}"#)).unwrap();
    let throwing = made_by("return { get weight() { throw new Error('boom'); } }");
    for _ in 0..1000 {
        assert_eq!(code(ring.add(s("c"), throwing.clone())), "invalid-argument");
    }
    ring.add(s("c"), JsValue::UNDEFINED).unwrap();
    assert_eq!(ring.nodes().map(|n| js_sys::Array::from(&n).length()).unwrap(), 3);
    let revoked = made_by("const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy;");
    assert_eq!(code(Ring::new(revoked.clone()).map(|_| ())), "invalid-argument");
    let billion = made_by(
        "return { nodes: new Proxy(['a'], { get(t, k) { return k === 'length' ? 1e9 : /^[0-9]+$/.test(k) ? 'n' + k : Reflect.get(t, k); } }) }",
    );
    assert_eq!(code(Ring::new(billion).map(|_| ())), "invalid-argument");
    let too_many = made_by("return { nodes: Array.from({ length: 20000 }, (_, i) => 'n' + i) }");
    assert_eq!(code(Ring::new(too_many).map(|_| ())), "too-large");
    let mut session = Session::new(JsValue::UNDEFINED).unwrap();
    assert_eq!(code(session.configure(throwing)), "invalid-argument");
    assert!(session.add(s("x"), JsValue::UNDEFINED).is_ok());
    assert_eq!(ring.locate(s("k")).map(|o| !o.is_empty()), Ok(true));
}

#[wasm_bindgen_test]
fn two_placements_agree_or_say_where_and_why_from_js() {
    let pool = r#"["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"]"#;
    let dalli = Ring::new(js(&format!(r#"{{"algorithm": "dalli", "nodes": {pool}}}"#))).unwrap();
    let pymemcache = Ring::new(js(&format!(r#"{{"algorithm": "pymemcache", "nodes": {pool}}}"#))).unwrap();
    // Different key hashes: on 10,000 generated keys.
    let a = Ring::agreement(&dalli, &pymemcache, JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&a, "exact").as_bool(), Some(false));
    assert_eq!(get(&a, "keys").as_f64(), Some(10_000.0));
    let disagree = get(&a, "disagree").as_f64().unwrap();
    assert!(disagree > 0.5 && disagree < 0.8, "three servers, unrelated hashes: about 2/3 apart ({disagree})");
    let steps: Vec<String> =
        Array::from(&get(&a, "reasons")).iter().map(|r| get(&r, "step").as_string().unwrap()).collect();
    assert!(steps.contains(&"key hash".to_string()) && steps.contains(&"pick".to_string()), "{steps:?}");
    // The same keys as a list give the same count; a ring against itself, exactly, agrees.
    let keys = Array::new();
    for i in 0..200 {
        keys.push(&s(&format!("key:{i}")));
    }
    let listed = Ring::agreement(&dalli, &pymemcache, keys.into()).unwrap();
    assert_eq!(get(&listed, "keys").as_f64(), Some(200.0));
    let same = Ring::agreement(&dalli, &dalli, JsValue::UNDEFINED).unwrap();
    assert_eq!((get(&same, "disagree").as_f64(), get(&same, "exact").as_bool()), (Some(0.0), Some(true)));
    // Bad keys are refused with a code.
    assert_eq!(code(Ring::agreement(&dalli, &pymemcache, s("key:1"))), "invalid-argument");
    assert_eq!(code(Ring::agreement(&dalli, &pymemcache, n(1e6))), "too-large");
    // The matrix over every cache client: square, zero on the diagonal, symmetric.
    let m =
        web::agreement_matrix(js(&format!(r#"{{"nodes": {pool}}}"#)), JsValue::UNDEFINED, JsValue::UNDEFINED).unwrap();
    let names = Array::from(&get(&m, "algorithms"));
    assert!(names.length() >= 10, "the cache clients accept a memcached pool");
    let rows = Array::from(&get(&m, "disagree"));
    for i in 0..names.length() {
        let row = Array::from(&rows.get(i));
        assert_eq!(row.length(), names.length());
        assert_eq!(row.get(i).as_f64(), Some(0.0));
        for j in 0..names.length() {
            assert_eq!(row.get(j).as_f64(), Array::from(&rows.get(j)).get(i).as_f64());
        }
    }
    assert_eq!(code(web::agreement_matrix(js(r#"{"nodes": ["a"]}"#), n(1e6), JsValue::UNDEFINED)), "too-large");
    assert_eq!(
        code(web::agreement_matrix(js(r#"{"nodes": ["a"]}"#), JsValue::UNDEFINED, js(r#"{"algorithms": ["nope"]}"#))),
        "invalid-option"
    );
}

/// "Explain this key" from JS: on every algorithm, with a node down too, the chain's owner is
/// what `locate` answers (or its error code), and a ring's replicas are `replicas`'.
#[wasm_bindgen_test]
fn explain_agrees_with_locate_on_every_algorithm() {
    let pool = r#"["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211", "10.0.0.4:11211"]"#;
    let mut checked = 0;
    for algorithm in ringlab::algo::Algorithm::ALL {
        let Ok(mut ring) = Ring::new(js(&format!(r#"{{"algorithm": "{}", "nodes": {pool}}}"#, algorithm.name())))
        else {
            continue;
        };
        for down in [false, true] {
            if down && ring.set_down(s("10.0.0.2:11211"), JsValue::TRUE).is_err() {
                continue;
            }
            for i in 0..60 {
                let key = format!("user:{i}");
                let chain = ring.explain(s(&key), js(r#"{"replicas": 2}"#)).unwrap();
                let steps = Array::from(&get(&chain, "steps"));
                assert!(steps.length() >= 2, "{} {key}", algorithm.name());
                match ring.locate(s(&key)) {
                    Ok(owner) => {
                        assert_eq!(get(&chain, "owner").as_string(), Some(owner), "{} {key}", algorithm.name())
                    }
                    Err(e) => {
                        let code = Reflect::get(&e, &s("code")).unwrap().as_string();
                        assert_eq!(get(&chain, "error").as_string(), code, "{} {key}", algorithm.name());
                        assert!(get(&chain, "owner").is_null());
                    }
                }
                if algorithm == ringlab::algo::Algorithm::Ring {
                    let listed: Vec<String> =
                        Array::from(&get(&chain, "replicas")).iter().map(|v| v.as_string().unwrap()).collect();
                    assert_eq!(listed, ring.replicas(s(&key), n(2.0)).unwrap());
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 30 * 60, "checked {checked}");
    // A pair parts at the first differing step; bad arguments are refused with codes.
    let a = Ring::new(js(&format!(r#"{{"algorithm": "libketama", "nodes": {pool}}}"#))).unwrap();
    let b = Ring::new(js(&format!(r#"{{"algorithm": "groupcache", "nodes": {pool}}}"#))).unwrap();
    let pair = Ring::explain_pair(&a, &b, s("user:1"), JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&pair, "partsAt").as_f64(), Some(1.0), "MD5 and CRC-32 part at the position");
    let same = Ring::explain_pair(&a, &a, s("user:1"), JsValue::UNDEFINED).unwrap();
    assert!(get(&same, "partsAt").is_null());
    assert_eq!(code(a.explain(n(1.0), JsValue::UNDEFINED)), "invalid-argument");
    assert_eq!(code(a.explain(s(&"k".repeat(2000)), JsValue::UNDEFINED)), "too-large");
    assert_eq!(code(a.explain(s("k"), js(r#"{"replicas": -1}"#))), "invalid-option");
    assert_eq!(code(a.explain(s("k"), js(r#"{"nope": 1}"#))), "invalid-option");
}

/// A node list's weights are read by JavaScript's own number reader in the wasm modules
/// (`src/web/mod.rs`'s `decimal`): each weight the value Rust's reader gives natively (the
/// literals below), in every browser. The longest are past the 20 significant digits
/// ECMAScript requires to be rounded correctly: the first rounds up only when every digit is
/// read (truncated after 20 digits it is below the halfway point between 2 and the next
/// number), the second is the same halfway point less a little.
#[wasm_bindgen_test]
fn node_list_weights_are_the_values_rust_reads() {
    let list = "a*0.1, b*.5, c*5., d*+2.5E-1, e*1e1, \
                f*2.0000000000000002220446049250313080847263336181640625001, \
                g*2.0000000000000002220446049250313080847263336181640624999";
    let session = Session::new(js(&format!(r#"{{"nodes": "{list}", "vnodes": 8}}"#))).unwrap();
    let frame = session.frame(JsValue::UNDEFINED).unwrap();
    let nodes: Array = get(&frame, "nodes").dyn_into().unwrap();
    let weights: Vec<f64> = nodes.iter().map(|n| get(&n, "weight").as_f64().unwrap()).collect();
    let expected: [f64; 7] = [0.1, 0.5, 5.0, 0.25, 10.0, 2.000_000_000_000_000_4, 2.0];
    assert_eq!(weights.len(), expected.len());
    for (got, want) in weights.iter().zip(expected) {
        assert_eq!(got.to_bits(), want.to_bits(), "{got} against {want}");
    }
    // What is not a decimal in both languages is refused, whichever reader would take it.
    for bad in ["a*0x10", "a*Infinity", "a*inf", "a*NaN", "a*1_0", "a*", "a*.", "a*1e", "a* 2 2", "a*2abc"] {
        let got = Session::new(js(&format!(r#"{{"nodes": "{bad}"}}"#)));
        assert_eq!(code(got), "invalid-weight", "{bad}");
    }
}

/// A link's decimals are read by JavaScript's reader too: a link's weights and Zipf exponent
/// (written by Rust, shortest) come back to the bit, and what is not a decimal is refused.
#[wasm_bindgen_test]
fn link_decimals_come_back_to_the_bit() {
    let weights = [0.1 + 0.2, 1.0 / 3.0, 1e-3, 2.5, 12_345.678_901_234_567];
    let nodes: Vec<String> =
        weights.iter().enumerate().map(|(i, w)| format!(r#"{{"name": "n{i}", "weight": {w:e}}}"#)).collect();
    let options = format!(r#"{{"nodes": [{}], "vnodes": 4, "zipf": 0.7000000000000001}}"#, nodes.join(", "));
    let link = Session::new(js(&options)).unwrap().link();
    let back = Session::from_link(s(&link)).unwrap();
    let frame = back.frame(JsValue::UNDEFINED).unwrap();
    let rows: Array = get(&frame, "nodes").dyn_into().unwrap();
    let got: Vec<u64> = rows.iter().map(|n| get(&n, "weight").as_f64().unwrap().to_bits()).collect();
    assert_eq!(got, weights.map(f64::to_bits), "{link}");
    let zipf = get(&get(&frame, "settings"), "zipf").as_f64().unwrap();
    assert_eq!(zipf.to_bits(), 0.700_000_000_000_000_1f64.to_bits(), "{link}");
    for bad in ["n=a*0x10", "n=a*inf", "n=a*Infinity", "n=a*1_0", "z=NaN", "z=0x1"] {
        let got = Session::from_link(s(&format!("#ringlab=2&{bad}")));
        assert_eq!(code(got), "invalid-option", "{bad}");
    }
}
