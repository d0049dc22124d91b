//! Answers that never contradict each other, and freed objects (issue #57), as JavaScript
//! sees them: `keyOwners` names no owner where `locate` has none, a rollout's numbers too
//! small or too large for its integers are refused with codes, and a call on a freed object
//! answers the coded `freed` error from JavaScript, however many times, with the module
//! working on after.

use js_sys::{Function, Object, Reflect, Uint32Array};
use ringlab::web::{self, Ring, Session};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

fn js(json: &str) -> JsValue {
    js_sys::JSON::parse(json).expect("test JSON parses")
}

fn s(text: &str) -> JsValue {
    JsValue::from_str(text)
}

fn get(obj: &JsValue, key: &str) -> Result<JsValue, JsValue> {
    Reflect::get(obj, &s(key))
}

/// The `code` of a thrown JS `Error`.
#[track_caller]
fn code_of(thrown: &JsValue) -> String {
    assert!(thrown.is_instance_of::<js_sys::Error>(), "a JS Error: {thrown:?}");
    get(thrown, "code").unwrap().as_string().unwrap_or_else(|| panic!("a code: {thrown:?}"))
}

#[track_caller]
fn code<T>(result: Result<T, JsValue>) -> String {
    code_of(&result.err().expect("the call should fail"))
}

/// `object[name]` as a function (a method of the JS class, as a page calls it).
fn method(object: &JsValue, name: &str) -> Function {
    get(object, name).unwrap().dyn_into().unwrap_or_else(|_| panic!("{name} is a function"))
}

/// The JS class of `object` (its constructor), for its static functions.
fn class_of(object: &JsValue) -> JsValue {
    let proto = Object::get_prototype_of(object);
    get(&proto, "constructor").unwrap()
}

#[wasm_bindgen_test]
fn key_owners_name_no_owner_where_locate_has_none() {
    let mut ring = Ring::new(js(r#"{"nodes": ["a", "b", "c"]}"#)).unwrap();
    let before = ring.key_owners(s("key:"), JsValue::from(50)).unwrap().to_vec();
    assert!(before.iter().all(|&o| o < 3), "{before:?}");
    for name in ["a", "b", "c"] {
        ring.set_down(s(name), JsValue::TRUE).unwrap();
    }
    let owners: Uint32Array = ring.key_owners(s("key:"), JsValue::from(50)).unwrap();
    assert_eq!(owners.to_vec(), vec![0xFFFF_FFFF; 50], "the scene's NO_OWNER, never node 0");
    for k in 0..50 {
        assert_eq!(code(ring.locate(s(&format!("key:{k}")))), "unavailable");
    }
    // One node back: the keys it serves name it, and only those.
    ring.set_down(s("b"), JsValue::FALSE).unwrap();
    let owners = ring.key_owners(s("key:"), JsValue::from(50)).unwrap().to_vec();
    for (k, &o) in owners.iter().enumerate() {
        assert_eq!(o, 1, "key:{k}: b serves every key");
        assert_eq!(ring.locate(s(&format!("key:{k}"))).unwrap(), "b");
    }
}

#[wasm_bindgen_test]
fn rollout_numbers_past_their_integers_are_refused_with_codes() {
    let before = Ring::new(js(r#"{"nodes": ["a", "b", "c"]}"#)).unwrap();
    let after = Ring::new(js(r#"{"nodes": ["a", "b", "c", "d"]}"#)).unwrap();
    // A step of 1e-300 ms: 2e303 times, which as an integer overflowed to none.
    let err = Ring::propagate(&before, &after, js(r#"{"stepMs": 1e-300}"#)).unwrap_err();
    assert_eq!(code_of(&err), "invalid-option");
    let message = String::from(err.dyn_into::<js_sys::Error>().unwrap().message());
    assert!(message.starts_with("invalid option: stepMs must be above 0.99950024987506"), "{message}");
    let strategies = js(r#"[{"kind": "all-at-once"}]"#);
    assert_eq!(
        code(Ring::compare_rollouts(&before, &after, js(r#"{"stepMs": 1e-300}"#), strategies)),
        "invalid-option"
    );
    // Counts past 2^32 are not cut to their low bits on wasm32 (2^32 + 1 clients is not 1).
    assert_eq!(code(Ring::propagate(&before, &after, js(r#"{"clients": 4294967297}"#))), "too-large");
    assert_eq!(code(Ring::propagate(&before, &after, js(r#"{"sampleKeys": 4294977296}"#))), "too-large");
    for options in [r#"{"clients": 1e300}"#, r#"{"durationMs": 1e300}"#, r#"{"clients": 0.5}"#] {
        assert_eq!(code(Ring::propagate(&before, &after, js(options))), "invalid-option", "{options}");
    }
    // What is in range still answers.
    let t = Ring::propagate(&before, &after, js(r#"{"stepMs": 1}"#)).unwrap();
    assert_eq!(get(&get(&t, "times").unwrap(), "length").unwrap().as_f64(), Some(2001.0));
}

#[wasm_bindgen_test]
fn an_envoy_ring_of_minimum_size_zero_is_refused_by_the_import() {
    let yaml = "name: cache\ntype: STATIC\nlb_policy: RING_HASH\nring_hash_lb_config:\n  minimum_ring_size: 0\n\
                load_assignment:\n  cluster_name: cache\n  endpoints:\n  - lb_endpoints:\n    - endpoint:\n        \
                address:\n          socket_address: { address: 10.0.0.1, port_value: 8080 }\n";
    let err = Ring::from_config(s("envoy"), s(yaml), JsValue::UNDEFINED).err().expect("refused");
    assert_eq!(code_of(&err), "parse-error");
    let message = String::from(err.dyn_into::<js_sys::Error>().unwrap().message());
    assert!(message.starts_with("line 5: minimum_ring_size must be from 1 to 8388608 (got 0)"), "{message}");
    assert_eq!(code(Ring::new(js(r#"{"algorithm": "envoy-ring-hash", "minimumRingSize": 0}"#))), "invalid-option");
    let ok = Ring::from_config(
        s("envoy"),
        s(&yaml.replace("minimum_ring_size: 0", "minimum_ring_size: 1")),
        JsValue::UNDEFINED,
    );
    assert_eq!(ok.unwrap().locate(s("k")).unwrap(), "10.0.0.1:8080");
}

/// 100,000 calls on a freed `Ring`, each answered with the coded `freed` error before it
/// enters wasm (a throw from inside wasm leaks the module's stack: some 20,000 of them killed
/// the module), then a fresh `Ring` at work.
#[wasm_bindgen_test]
fn a_freed_ring_answers_freed_every_time_and_the_module_lives_on() {
    // The test runner runs no start function: the guard the module's start installs.
    web::freed::guard();
    let ring: JsValue = Ring::new(js(r#"{"nodes": ["a", "b"]}"#)).unwrap().into();
    assert_eq!(method(&ring, "locate").call1(&ring, &s("k")).unwrap().as_string().map(|o| o.len()), Some(1));
    method(&ring, "free").call0(&ring).unwrap();
    let locate = method(&ring, "locate");
    let key = s("user:42");
    for i in 0..100_000 {
        let thrown = locate.call1(&ring, &key).expect_err("a freed ring refuses");
        if i % 10_000 == 0 {
            assert_eq!(code_of(&thrown), "freed");
            let message = String::from(thrown.dyn_into::<js_sys::Error>().unwrap().message());
            assert_eq!(message, "this Ring was freed (its free() was called): make a new one");
        } else {
            assert_eq!(get(&thrown, "code").unwrap().as_string().as_deref(), Some("freed"));
        }
    }
    // Getters, and a freed ring passed to a static function, too; a second free() does nothing.
    assert_eq!(code(get(&ring, "pointCount")), "freed");
    let fresh: JsValue = Ring::new(js(r#"{"nodes": ["a", "b"]}"#)).unwrap().into();
    let diff = method(&class_of(&fresh), "diff");
    assert_eq!(code(diff.call2(&class_of(&fresh), &ring, &fresh)), "freed");
    assert_eq!(code(diff.call2(&class_of(&fresh), &fresh, &ring)), "freed");
    assert!(method(&ring, "free").call0(&ring).unwrap().is_undefined());
    // The module works on: the fresh ring, through JS and natively.
    let owner = method(&fresh, "locate").call1(&fresh, &key).unwrap().as_string().unwrap();
    assert!(owner == "a" || owner == "b", "{owner}");
    let owners: Uint32Array =
        method(&fresh, "keyOwners").call2(&fresh, &s("key:"), &JsValue::from(10_000)).unwrap().dyn_into().unwrap();
    assert_eq!(owners.length(), 10_000);
    let native = Ring::new(js(r#"{"nodes": ["a", "b", "c"], "vnodes": 100}"#)).unwrap();
    assert_eq!(native.point_count(), 300);
    assert!(diff.call2(&class_of(&fresh), &fresh, &fresh).is_ok());
    method(&fresh, "free").call0(&fresh).unwrap();
}

#[wasm_bindgen_test]
fn a_freed_session_or_opening_answers_freed() {
    web::freed::guard();
    let session: JsValue = Session::new(JsValue::UNDEFINED).unwrap().into();
    let link = method(&session, "link").call0(&session).unwrap();
    method(&session, "free").call0(&session).unwrap();
    for name in ["link", "nodes", "undo"] {
        let thrown = method(&session, name).call0(&session).expect_err(name);
        assert_eq!(code_of(&thrown), "freed", "{name}");
    }
    let message = String::from(
        method(&session, "scene").call0(&session).unwrap_err().dyn_into::<js_sys::Error>().unwrap().message(),
    );
    assert_eq!(message, "this Session was freed (its free() was called): make a new one");
    let opening: JsValue = Session::opening(link).unwrap().into();
    method(&opening, "free").call0(&opening).unwrap();
    assert_eq!(code(method(&opening, "step").call0(&opening)), "freed");
    // A fresh session works.
    let fresh: JsValue = Session::new(JsValue::UNDEFINED).unwrap().into();
    assert!(method(&fresh, "link").call0(&fresh).unwrap().as_string().unwrap().starts_with("#ringlab="));
    method(&fresh, "free").call0(&fresh).unwrap();
}

/// `checkConfig` answers a refused text with the report (the error and its line in it), and
/// throws coded errors only for its arguments.
#[wasm_bindgen_test]
fn check_config_reports_lines_and_throws_only_for_its_arguments() {
    let text = "upstream u {\n  # the key\n  hash $uri consistent;\n  server 10.0.0.1:80;\n  keepalive 8;\n}\n";
    let report = web::check_config(s("nginx"), s(text), JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&report, "summary").unwrap().as_string().unwrap(), "4 lines read, 2 passed over");
    let lines = js_sys::Array::from(&get(&report, "lines").unwrap());
    let status = |i: u32| get(&lines.get(i), "status").unwrap().as_string().unwrap();
    let got: Vec<String> = (0..lines.length()).map(status).collect();
    assert_eq!(got, ["read", "passed-over", "read", "read", "passed-over", "read"]);
    assert_eq!(get(&lines.get(1), "why").unwrap().as_string().unwrap(), "a comment");
    assert!(get(&report, "error").unwrap().is_null());
    let placement = get(&report, "placement").unwrap();
    assert_eq!(get(&placement, "servers").unwrap().as_f64(), Some(1.0));
    assert_eq!(get(&placement, "section").unwrap().as_string().as_deref(), Some("u"));

    // A misspelt `server` on line 4: in the report, not thrown.
    let bad = text.replace("server 10.0.0.1", "sever 10.0.0.1");
    let report = web::check_config(s("nginx"), s(&bad), js(r#"{"section": "u"}"#)).unwrap();
    let error = get(&report, "error").unwrap();
    assert_eq!(get(&error, "code").unwrap().as_string().unwrap(), "parse-error");
    assert_eq!(get(&error, "line").unwrap().as_f64(), Some(4.0));
    assert!(get(&report, "placement").unwrap().is_null());

    // The arguments: a kind that is no kind, a text that is no string, a text too long,
    // options of the wrong type, an algorithm that reads no server list.
    assert_eq!(code(web::check_config(s("nginix"), s(text), JsValue::UNDEFINED)), "invalid-option");
    assert_eq!(code(web::check_config(s("nginx"), JsValue::from(42), JsValue::UNDEFINED)), "invalid-argument");
    let long = "#".repeat(ringlab::import::MAX_CONFIG_BYTES + 1);
    assert_eq!(code(web::check_config(s("nginx"), s(&long), JsValue::UNDEFINED)), "too-large");
    assert_eq!(code(web::check_config(s("nginx"), s(text), s("u"))), "invalid-argument");
    let ring = js(r#"{"algorithm": "ring"}"#);
    assert_eq!(code(web::check_config(s("memcached"), s("10.0.0.1:11211\n"), ring)), "invalid-option");
}
