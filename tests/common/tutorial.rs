//! The rings of tutorials and homegrown code (issue 29), replayed from what the code itself
//! answered (tests/real/gen_tutorial.py ran Go, Python and Java): ringlab's ring with the
//! fixture's `label`, `position`, `lookup` and `ties` options must give every key's owner
//! after every step. Shared by tests/native/real_tutorial.rs (native) and tests/web/real_systems.rs (browsers).

use ringlab::algo::{Algorithm, Cluster, OptionValue, Options};
use ringlab::NodeSpec;
use serde_json::Value;

pub const GO_FNV: &str = include_str!("../real/fixtures/tutorial_go_fnv.json");
pub const PY_MD5_BISECT: &str = include_str!("../real/fixtures/tutorial_py_md5_bisect.json");
pub const GO_SHA256: &str = include_str!("../real/fixtures/tutorial_go_sha256.json");
pub const PY_SIMULATION: &str = include_str!("../real/fixtures/tutorial_py_simulation.json");
pub const JAVA_TREEMAP: &str = include_str!("../real/fixtures/tutorial_java_treemap.json");

/// Every fixture, by name.
pub const ALL: [(&str, &str); 5] = [
    ("go-fnv", GO_FNV),
    ("py-md5-bisect", PY_MD5_BISECT),
    ("go-sha256", GO_SHA256),
    ("py-simulation", PY_SIMULATION),
    ("java-treemap", JAVA_TREEMAP),
];

fn s(v: &Value) -> &str {
    v.as_str().expect("a string")
}

fn list(v: &Value) -> &Vec<Value> {
    v.as_array().expect("an array")
}

/// The ring options a fixture names, at `vnodes`.
pub fn options(fixture: &Value, vnodes: u64) -> Options {
    let mut options = Options::new(Algorithm::Ring);
    let o = &fixture["options"];
    options.set("vnodes", OptionValue::Whole(vnodes)).unwrap();
    options.set("hash", OptionValue::Text(s(&o["hash"]).into())).unwrap();
    options.set("bits", OptionValue::Whole(o["bits"].as_u64().unwrap())).unwrap();
    for name in ["label", "position", "lookup", "ties"] {
        options.set(name, OptionValue::Text(s(&o[name]).into())).unwrap();
    }
    options
}

/// Replays one fixture: every key's owner after every step. Returns the answers compared and
/// how many of them were keys that land exactly on a point (labels).
pub fn replay(text: &str) -> (usize, usize) {
    let fixture: Value = serde_json::from_str(text).expect("fixture parses");
    let shared: Vec<&str> = list(&fixture["keys"]).iter().map(s).collect();
    let (mut checked, mut on_points) = (0, 0);
    for case in list(&fixture["cases"]) {
        let name = s(&case["name"]);
        let names: Vec<&str> = list(&case["names"]).iter().map(s).collect();
        let extra: Vec<&str> = list(&case["extra_keys"]).iter().map(s).collect();
        let keys: Vec<&str> = shared.iter().chain(&extra).copied().collect();
        let options = options(&fixture, case["vnodes"].as_u64().unwrap());
        let mut cluster: Option<Cluster> = None;
        for (n, step) in list(&case["steps"]).iter().enumerate() {
            match s(&step["op"]) {
                "create" => {
                    let nodes = list(&step["nodes"])
                        .iter()
                        .map(|pair| NodeSpec::new(s(&pair[0])).weight(pair[1].as_f64().unwrap()));
                    cluster = Some(Cluster::new(options.clone(), nodes).unwrap());
                }
                "add" => {
                    let spec = NodeSpec::new(s(&step["node"])).weight(step["weight"].as_f64().unwrap());
                    cluster.as_mut().unwrap().add(spec).unwrap();
                }
                "remove" => cluster.as_mut().unwrap().remove(s(&step["node"])).unwrap(),
                other => panic!("unknown step {other}"),
            }
            let cluster = cluster.as_ref().unwrap();
            let owners = s(&step["owners"]).as_bytes();
            assert_eq!(owners.len(), keys.len());
            for (key, &want) in keys.iter().zip(owners) {
                let got = cluster.locate(key).ok();
                let want = (want != b'-').then(|| names[usize::from(want - b'0')]);
                assert_eq!(got, want, "{name}, step {n} ({}): key {key:?}", s(&step["op"]));
                checked += 1;
            }
            on_points += extra.len();
        }
    }
    (checked, on_points)
}
