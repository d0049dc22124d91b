//! Properties of the ring, checked with proptest on random node sets, weights, zones and keys.

use proptest::prelude::*;
use ringlab::{analysis, migration, Config, Hash, NodeSpec, Ring, RingBits};
use std::collections::BTreeSet;

fn config(vnodes: u32, wide: bool) -> Config {
    if wide {
        Config { hash: Hash::Xxh3, bits: RingBits::B64, vnodes }
    } else {
        Config { hash: Hash::Xxh3, bits: RingBits::B32, vnodes }
    }
}

/// 1 to 8 distinct node names with weights in [0.25, 4) and zones z0..z2 (or none).
fn node_set() -> impl Strategy<Value = Vec<NodeSpec>> {
    prop::collection::btree_set("[a-z]{1,6}", 1..8).prop_flat_map(|names| {
        let n = names.len();
        (
            Just(names.into_iter().collect::<Vec<_>>()),
            prop::collection::vec(0.25f64..4.0, n),
            prop::collection::vec(prop::option::of(0u8..3), n),
        )
            .prop_map(|(names, weights, zones)| {
                names
                    .into_iter()
                    .zip(weights)
                    .zip(zones)
                    .map(|((name, w), z)| NodeSpec { name, weight: w, zone: z.map(|z| format!("z{z}")) })
                    .collect()
            })
    })
}

fn keys() -> Vec<String> {
    (0..300).map(|i| format!("user:{i}")).collect()
}

fn mapping(ring: &Ring) -> Vec<String> {
    keys().iter().map(|k| ring.locate(k).unwrap().to_string()).collect()
}

/// The preference list by the rule in `Ring::replicas`'s docs, walking every point from the
/// key's owner: nodes in zones not yet listed first (zoneless nodes are their own zone), then
/// the skipped nodes in walk order.
fn walk_by_hand(ring: &Ring, position: u64, n: usize) -> Vec<usize> {
    let len = ring.point_count();
    let start = (0..len).find(|&i| ring.point(i).0 >= position).unwrap_or(0);
    let mut seen = Vec::new();
    for step in 0..len {
        let owner = ring.point((start + step) % len).1;
        if !seen.contains(&owner) {
            seen.push(owner);
        }
    }
    let zone = |i: usize| ring.nodes()[i].zone.clone().unwrap_or_else(|| format!("node:{i}"));
    let (mut list, mut skipped) = (Vec::new(), Vec::new());
    for owner in seen {
        if list.len() < n && !list.iter().any(|&c| zone(c) == zone(owner)) {
            list.push(owner);
        } else {
            skipped.push(owner);
        }
    }
    let missing = n.min(ring.nodes().len()) - list.len();
    list.extend(skipped.into_iter().take(missing));
    list
}

fn points(ring: &Ring) -> Vec<(u64, String)> {
    (0..ring.point_count()).map(|i| (ring.point(i).0, ring.nodes()[ring.point(i).1].name.clone())).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_join_moves_keys_only_onto_the_new_node(nodes in node_set(), vnodes in 1u32..64, wide: bool) {
        let before = Ring::with_nodes(config(vnodes, wide), nodes).unwrap();
        let mut after = before.clone();
        after.add("newcomer-9").unwrap();
        for (old, new) in mapping(&before).iter().zip(mapping(&after)) {
            prop_assert!(new == *old || new == "newcomer-9");
        }
    }

    #[test]
    fn a_leave_moves_only_the_leavers_keys(nodes in node_set(), vnodes in 1u32..64, pick in any::<prop::sample::Index>()) {
        prop_assume!(nodes.len() > 1);
        let leaver = nodes[pick.index(nodes.len())].name.clone();
        let before = Ring::with_nodes(config(vnodes, false), nodes).unwrap();
        let mut after = before.clone();
        after.remove(&leaver).unwrap();
        for (old, new) in mapping(&before).iter().zip(mapping(&after)) {
            prop_assert!(*old == new || *old == leaver, "{old} -> {new}");
        }
    }

    #[test]
    fn remove_after_add_restores_the_exact_ring(nodes in node_set(), vnodes in 1u32..64, weight in 0.1f64..3.0) {
        let before = Ring::with_nodes(config(vnodes, false), nodes).unwrap();
        let mut ring = before.clone();
        ring.add_node(NodeSpec::new("visitor").weight(weight)).unwrap();
        ring.remove("visitor").unwrap();
        prop_assert_eq!(points(&ring), points(&before));
        prop_assert_eq!(mapping(&ring), mapping(&before));
    }

    #[test]
    fn insertion_order_never_changes_a_mapping(nodes in node_set(), vnodes in 1u32..64, seed in any::<u64>()) {
        let built = Ring::with_nodes(config(vnodes, false), nodes.clone()).unwrap();
        // Add the same nodes one by one in a shuffled order.
        let mut order = nodes;
        let mut state = seed | 1;
        for i in (1..order.len()).rev() {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17;
            order.swap(i, (state % (i as u64 + 1)) as usize);
        }
        let mut added = Ring::new(config(vnodes, false)).unwrap();
        for spec in order {
            added.add_node(spec).unwrap();
        }
        prop_assert_eq!(points(&added), points(&built));
        prop_assert_eq!(mapping(&added), mapping(&built));
    }

    #[test]
    fn replicas_are_distinct_start_with_the_owner_and_spread_over_zones(nodes in node_set(), vnodes in 1u32..32, n in 1usize..10) {
        let ring = Ring::with_nodes(config(vnodes, false), nodes.clone()).unwrap();
        // Zones a list could cover: every zone, plus each zoneless node counts as its own.
        let all_zones: BTreeSet<String> = nodes.iter().map(|s| s.zone.clone().unwrap_or_else(|| format!("node:{}", s.name))).collect();
        for key in keys().iter().take(50) {
            let list = ring.replicas(key, n).unwrap();
            prop_assert_eq!(list.len(), n.min(nodes.len()));
            prop_assert_eq!(list[0], ring.locate(key).unwrap());
            let distinct: BTreeSet<&str> = list.iter().copied().collect();
            prop_assert_eq!(distinct.len(), list.len());
            let zones: BTreeSet<String> = list.iter().map(|name| {
                let node = ring.node(name).unwrap();
                node.zone.clone().unwrap_or_else(|| format!("node:{}", node.name))
            }).collect();
            prop_assert_eq!(zones.len(), list.len().min(all_zones.len()), "list {:?}", list);
        }
    }

    #[test]
    fn replicas_follow_the_documented_clockwise_walk(nodes in node_set(), zoned: bool, vnodes in 1u32..32, n in 1usize..12, wide: bool) {
        let nodes: Vec<NodeSpec> = nodes.into_iter().map(|s| if zoned { s } else { NodeSpec { zone: None, ..s } }).collect();
        let ring = Ring::with_nodes(config(vnodes, wide), nodes).unwrap();
        let mut into = Vec::new();
        for key in keys().iter().take(40) {
            let expected = walk_by_hand(&ring, ring.key_position(key), n);
            let names: Vec<&str> = expected.iter().map(|&i| ring.nodes()[i].name.as_str()).collect();
            prop_assert_eq!(ring.replicas(key, n).unwrap(), names);
            ring.replicas_into(ring.key_position(key), n, &mut into).unwrap();
            prop_assert_eq!(&into, &expected);
        }
    }

    #[test]
    fn shares_sum_exactly_to_the_ring(nodes in node_set(), vnodes in 1u32..200, wide: bool) {
        let ring = Ring::with_nodes(config(vnodes, wide), nodes).unwrap();
        let shares = analysis::shares(&ring);
        prop_assert_eq!(shares.iter().sum::<u128>(), ring.config().bits.size());
    }

    #[test]
    fn the_exact_moved_fraction_matches_a_key_sample(nodes in node_set(), vnodes in 1u32..64, join: bool) {
        prop_assume!(nodes.len() > 1);
        let before = Ring::with_nodes(config(vnodes, false), nodes.clone()).unwrap();
        let mut after = before.clone();
        if join { after.add("joiner").unwrap(); } else { after.remove(&nodes[0].name).unwrap(); }
        let exact = migration::between(&before, &after).unwrap().moved_fraction;
        let sample = migration::KeySample::generated("k", 20_000);
        let sampled = migration::sample_between(&before, &after, &sample, 0.0).unwrap().moved_fraction;
        // Five standard errors of a binomial proportion, plus a hair for p near 0.
        let tolerance = 5.0 * (exact * (1.0 - exact) / 20_000.0).sqrt() + 1e-3;
        prop_assert!((exact - sampled).abs() <= tolerance, "exact {exact} sampled {sampled}");
    }
}

/// "n1251#0" and "n58370#0" have the same XXH32 hash (0xb4f8a1dc), found by a search over
/// Python's xxhash, so with one vnode each these two nodes collide on the ring.
#[test]
fn colliding_points_go_to_the_smaller_name_and_survive_removal() {
    let config = Config { hash: Hash::Xxh32, bits: RingBits::B32, vnodes: 1 };
    let collision = 0xb4f8_a1dc;
    for order in [["n1251", "n58370", "other"], ["n58370", "other", "n1251"]] {
        let mut ring = Ring::with_nodes(config.clone(), order).unwrap();
        assert_eq!(ring.point_count(), 3, "both colliding points are kept");
        let owner = ring.owner_of(collision).unwrap();
        assert_eq!(ring.nodes()[owner].name, "n1251", "ties go to the name that sorts first");
        ring.remove("n1251").unwrap();
        let owner = ring.owner_of(collision).unwrap();
        assert_eq!(ring.nodes()[owner].name, "n58370", "the other point takes over");
        assert_eq!(ring.point_count(), 2);
        ring.add("n1251").unwrap();
        assert_eq!(ring.nodes()[ring.owner_of(collision).unwrap()].name, "n1251");
    }
}
