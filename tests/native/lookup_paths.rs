//! `Ring`'s lookups take a fast path on the common ring (32 bits, XXH3, no node down, and
//! for replica lists no zones and at most 4 replicas) and a general path otherwise. Both
//! must answer what the module docs' rule says, on every kind of ring and after every kind
//! of change (the path is chosen once per change).
//!
//! The expected answers come from a brute-force model built here from the rule alone: each
//! node's point labels `"{name}#{i}"` hashed, sorted by position then name, a key's owner
//! found by a linear scan, down nodes skipped clockwise, replica lists walked point by point.

use proptest::prelude::*;
use ringlab::{Config, Error, Hash, NodeSpec, Ring, RingBits};

/// The brute-force model of a ring.
struct Model {
    bits: RingBits,
    hash: Hash,
    /// (position, node index), sorted by position then name.
    points: Vec<(u64, usize)>,
    names: Vec<String>,
    zones: Vec<Option<String>>,
    down: Vec<bool>,
}

impl Model {
    fn of(ring: &Ring) -> Model {
        let config = ring.config();
        let nodes = ring.nodes();
        let mut points = Vec::new();
        for (idx, node) in nodes.iter().enumerate() {
            for i in 0..node.points {
                let label = format!("{}#{i}", node.name);
                points.push((config.bits.position(config.hash.hash(label.as_bytes())), idx));
            }
        }
        points.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| nodes[a.1].name.cmp(&nodes[b.1].name)));
        Model {
            bits: config.bits,
            hash: config.hash,
            points,
            names: nodes.iter().map(|n| n.name.clone()).collect(),
            zones: nodes.iter().map(|n| n.zone.clone()).collect(),
            down: (0..nodes.len()).map(|i| ring.is_down_at(i)).collect(),
        }
    }

    fn position(&self, key: &str) -> u64 {
        self.bits.position(self.hash.hash(key.as_bytes()))
    }

    /// The points' owners clockwise from the key's point, once round.
    fn walk(&self, position: u64) -> impl Iterator<Item = usize> + '_ {
        let start = self.points.iter().position(|&(p, _)| p >= position).unwrap_or(0);
        let n = self.points.len();
        (0..n).map(move |k| self.points[(start + k) % n].1)
    }

    fn owner_of(&self, position: u64) -> Result<usize, &'static str> {
        if self.points.is_empty() {
            return Err("empty-ring");
        }
        self.walk(position).find(|&o| !self.down[o]).ok_or("unavailable")
    }

    fn replicas(&self, position: u64, want: usize) -> Result<Vec<usize>, &'static str> {
        if self.points.is_empty() {
            return Err("empty-ring");
        }
        let mut distinct: Vec<usize> = Vec::new();
        for o in self.walk(position) {
            if !self.down[o] && !distinct.contains(&o) {
                distinct.push(o);
            }
        }
        // Nodes of zones not yet on the list first, in walk order; then the rest.
        let (mut chosen, mut deferred) = (Vec::new(), Vec::new());
        for o in distinct {
            let zone_taken = self.zones[o].is_some() && chosen.iter().any(|&c: &usize| self.zones[c] == self.zones[o]);
            if zone_taken {
                deferred.push(o);
            } else {
                chosen.push(o);
            }
        }
        chosen.truncate(want);
        let missing = want - chosen.len();
        chosen.extend(deferred.into_iter().take(missing));
        Ok(chosen)
    }
}

fn code<T>(r: Result<T, Error>) -> Result<T, &'static str> {
    r.map_err(|e| e.code())
}

/// Every lookup of `ring` agrees with the model, on `keys` and on edge positions.
fn check(ring: &Ring, keys: &[String]) -> Result<(), TestCaseError> {
    let model = Model::of(ring);
    let mut out = Vec::new();
    // The batch of generated keys (the fast path decided once for the batch).
    let mut batch = Vec::new();
    ring.locate_generated("key:", 300, |i, owner| batch.push((i, code(owner))));
    prop_assert_eq!(batch.len(), 300);
    for (n, (i, owner)) in batch.into_iter().enumerate() {
        prop_assert_eq!(i, n);
        let key = format!("key:{i}");
        prop_assert_eq!(owner, model.owner_of(model.position(&key)), "locate_generated {}", key);
    }
    let top = if model.bits == RingBits::B32 { u64::from(u32::MAX) } else { u64::MAX };
    // Around the first and last points, and some between (at most about 100).
    let step = (model.points.len() / 32).max(1);
    let some = model.points.iter().step_by(step).chain(model.points.iter().rev().take(3));
    let edges = some.flat_map(|&(p, _)| [p.saturating_sub(1), p, p.saturating_add(1).min(top)]);
    // Positions past a 32-bit ring's space (a caller's u64) wrap to the first point.
    let positions: Vec<u64> =
        keys.iter().map(|k| model.position(k)).chain(edges).chain([0, top, top / 2, 1 << 32, u64::MAX]).collect();
    for key in keys {
        let expected = model.owner_of(model.position(key)).map(|o| model.names[o].as_str());
        prop_assert_eq!(code(ring.locate(key)), expected, "locate {}", key);
        for n in 0..6 {
            let expected = model.replicas(model.position(key), n);
            let names = expected.map(|list| list.iter().map(|&o| model.names[o].as_str()).collect::<Vec<_>>());
            prop_assert_eq!(
                code(ring.replicas(key, n).map(ringlab::Replicas::into_vec)),
                names,
                "replicas {} {}",
                key,
                n
            );
        }
    }
    for &position in &positions {
        prop_assert_eq!(code(ring.owner_of(position)), model.owner_of(position), "owner_of {}", position);
        for n in [1, 3, 4, 5] {
            let got = code(ring.replicas_into(position, n, &mut out)).map(|()| out.clone());
            prop_assert_eq!(got, model.replicas(position, n), "replicas_into {} {}", position, n);
        }
    }
    Ok(())
}

#[derive(Clone, Debug)]
enum Change {
    Add { weight: f64, zone: Option<u8> },
    Remove(usize),
    Weight(usize, f64),
    Down(usize, bool),
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        (prop_oneof![Just(1.0), 0.01f64..3.0], prop::option::of(0u8..3))
            .prop_map(|(weight, zone)| Change::Add { weight, zone }),
        any::<usize>().prop_map(Change::Remove),
        (any::<usize>(), 0.01f64..3.0).prop_map(|(i, w)| Change::Weight(i, w)),
        (any::<usize>(), any::<bool>()).prop_map(|(i, d)| Change::Down(i, d)),
    ]
}

fn apply(ring: &mut Ring, change: &Change, fresh: &mut usize) {
    let len = ring.nodes().len();
    let name = |i: usize| ring.nodes()[i % len].name.clone();
    match change {
        Change::Add { weight, zone } => {
            let mut spec = NodeSpec::new(format!("node-{fresh}")).weight(*weight);
            *fresh += 1;
            if let Some(zone) = zone {
                spec = spec.zone(format!("zone-{zone}"));
            }
            ring.add_node(spec).unwrap();
        }
        Change::Remove(i) if len > 0 => drop(ring.remove(&name(*i)).unwrap()),
        Change::Weight(i, w) if len > 0 => ring.set_weight(&name(*i), *w).unwrap(),
        Change::Down(i, d) if len > 0 => ring.set_down(&name(*i), *d).unwrap(),
        _ => {}
    }
}

/// A ring's settings: every hash, both widths (64 bits only with a 64-bit hash), few or
/// many points per node (1 vnode makes rings of fewer points than a lookup window).
fn config() -> impl Strategy<Value = Config> {
    (0..Hash::ALL.len(), any::<bool>(), prop_oneof![Just(1u32), 1u32..8, Just(160u32)]).prop_map(|(h, wide, vnodes)| {
        let hash = Hash::ALL[h];
        let bits = if wide && hash.bits() == 64 { RingBits::B64 } else { RingBits::B32 };
        Config { hash, bits, vnodes }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn lookups_match_the_brute_force_model_after_every_change(
        config in config(),
        changes in prop::collection::vec(change(), 1..10),
        keys in prop::collection::vec("[a-z:0-9]{0,20}", 20),
    ) {
        let mut ring = Ring::new(config).unwrap();
        let mut fresh = 0;
        check(&ring, &keys)?;
        for change in &changes {
            apply(&mut ring, change, &mut fresh);
            check(&ring, &keys)?;
        }
    }
}

/// The bench's ring (the fast path's target): 10 nodes × 160 vnodes, XXH3, 32-bit, with
/// the keys `user:{i}`; then the same with a node down, and with zones (general paths).
#[test]
fn the_common_ring_matches_the_brute_force_model() {
    let keys: Vec<String> = (0..500).map(|i| format!("user:{i}")).collect();
    let nodes = (0..10).map(|i| NodeSpec::new(format!("node-{i}")));
    let mut ring = Ring::with_nodes(Config::default(), nodes).unwrap();
    check(&ring, &keys).unwrap();
    ring.set_down("node-3", true).unwrap();
    check(&ring, &keys).unwrap();
    ring.set_down("node-3", false).unwrap();
    check(&ring, &keys).unwrap();
    let zoned = (0..10).map(|i| NodeSpec::new(format!("node-{i}")).zone(format!("z{}", i % 3)));
    let zoned = Ring::with_nodes(Config::default(), zoned).unwrap();
    check(&zoned, &keys).unwrap();
}
