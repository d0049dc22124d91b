//! The five rings of tutorials and homegrown code (issue 29), bit for bit: Go `hash/fnv`,
//! Python `md5` + `bisect`, Go `crypto/sha256` with weights, a Python simulation's
//! `sha256`, and Java's `TreeMap<Long, String>`. Every answer was given by that code itself
//! (tests/real/gen_tutorial.py); ringlab's ring with the fixture's options must agree on every
//! key after every step, including keys on a point and positions two nodes share.

#[path = "common/tutorial.rs"]
mod tutorial;

use ringlab::algo::{ring::PRESETS, Cluster};
use ringlab::session::{link, Session};
use serde_json::Value;

#[test]
fn every_tutorial_ring_matches_its_code() {
    for (name, text) in tutorial::ALL {
        let (checked, on_points) = tutorial::replay(text);
        assert!(checked > 25_000, "{name}: checked {checked} keys");
        assert!(on_points > 1_000, "{name}: {on_points} keys on points");
    }
}

/// A collision case's two labels share a position, and the fixture saw the map's rule: the
/// later node holds it, and after the earlier node's removal neither does.
#[test]
fn collisions_are_where_the_fixtures_say() {
    for (name, text) in tutorial::ALL {
        let fixture: Value = serde_json::from_str(text).unwrap();
        for case in fixture["cases"].as_array().unwrap().iter().filter(|c| c.get("collision").is_some()) {
            let labels: Vec<&str> = case["collision"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
            let options = tutorial::options(&fixture, 40);
            let cluster = Cluster::new(options, ["x"].map(ringlab::NodeSpec::new)).unwrap();
            let ring = cluster.as_ring().unwrap();
            assert_eq!(ring.hash_position(labels[0]), ring.hash_position(labels[1]), "{name}");
        }
    }
}

/// Each preset opens as the ring of its fixture: the same options, and the fixture's answers.
#[test]
fn presets_are_the_fixtures_rings() {
    assert_eq!(PRESETS.len(), tutorial::ALL.len());
    for (preset, (name, text)) in PRESETS.iter().zip(tutorial::ALL) {
        let fixture: Value = serde_json::from_str(text).unwrap();
        let session = Session::from_link(preset.link).unwrap_or_else(|e| panic!("{}: {e}", preset.name));
        let (settings, _) = link::decode(preset.link).unwrap();
        let want = tutorial::options(&fixture, u64::from(settings.vnodes));
        let got = session.cluster().options();
        for option in ["hash", "bits", "label", "position", "lookup", "ties"] {
            assert_eq!(got.get(option), want.get(option), "{} ({name}): {option}", preset.name);
        }
        assert!(!preset.differs.is_empty());
    }
}
