//! The figure an embed shows before anyone touches it: ringlab's own ring under the given
//! settings, drawn with the sample keys, exactly as [`Session::frame`](super::Session::frame)
//! draws it, without the session (its history, the algorithm catalog's dispatch, the
//! options' maps, what moves on a change).
//!
//! It is what the `<hash-ring>` element's smallest wasm module computes: most readers only
//! look, and this is all they need. Anything else — another algorithm, its own options, a
//! hash its module leaves out ([`Hash::built_in`](crate::Hash::built_in)), popular keys, an
//! input the session would refuse — is [`Error::NotBuiltIn`]: the element then asks a
//! session, which draws it or says precisely what is wrong.
//!
//! ```
//! use ringlab::session::{figure, FrameOptions, Session, Settings};
//! let nodes = ["a", "b", "c"].map(ringlab::NodeSpec::new);
//! let f = figure(&Settings::default(), nodes.to_vec())?;
//! let s = Session::new(Settings::default(), nodes)?;
//! assert_eq!(f.scene, s.frame(&FrameOptions::default()).scene);
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::scene::{reading, tally, Capabilities, NodeRow, Scene, SummaryFacts};
use super::{own_options, uniform_traffic, Settings, KEY_PREFIX, MAX_FOLLOW_REPLICAS, MAX_KEYS, MAX_SESSION_NODES};
use crate::algo::options::serde_json_value::Value;
use crate::algo::{Algorithm, CirclePoints, Placement, Shares};
use crate::{Error, NodeSpec, Ring, RingRules};
use std::sync::Arc;

/// The algorithms [`figure`] draws: ringlab's ring.
pub const FIGURE_ALGORITHMS: [Algorithm; 1] = [crate::algo::ring::RING];

/// What an embed draws and reports before any change: the circle, the node rows, what the
/// user may do next and the algorithm's own options with their values (by name, as
/// [`SettingsView::options`](super::SettingsView) lists them).
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub scene: Scene,
    pub nodes: Vec<NodeRow>,
    pub capabilities: Capabilities,
    pub options: Vec<(&'static str, Value)>,
}

/// The figure of `nodes` on ringlab's ring under `settings`: [`Session::new`]'s frame, or
/// [`Error::NotBuiltIn`] for whatever needs the session (see the module's docs).
///
/// [`Session::new`]: super::Session::new
pub fn figure(settings: &Settings, nodes: Vec<NodeSpec>) -> Result<Figure, Error> {
    let not_here = || Error::NotBuiltIn("anything but ringlab's ring with its defaults, unchanged".into());
    let plain = FIGURE_ALGORITHMS.contains(&settings.algorithm)
        && settings.options.is_empty()
        && settings.zipf == 0.0
        && (1..=MAX_FOLLOW_REPLICAS).contains(&settings.replicas)
        && settings.keys <= MAX_KEYS
        && nodes.len() <= MAX_SESSION_NODES
        && settings.hash.built_in()
        && settings.config().validate().is_ok();
    if !plain {
        return Err(not_here());
    }
    let (config, rules) = (settings.config(), RingRules::default());
    let ring = Ring::with_rules(config.clone(), rules.clone(), nodes).map_err(|_| not_here())?;
    let count = ring.nodes().len();
    let (positions, owners, traffic) = if count == 0 {
        Default::default()
    } else {
        let work = (settings.keys as u64).saturating_mul(Placement::lookup_cost(&ring));
        if work > crate::limits::MAX_SAMPLE_WORK {
            return Err(not_here());
        }
        let (mut positions, mut owners) = (Vec::with_capacity(settings.keys), Vec::with_capacity(settings.keys));
        crate::keys::for_each_generated_in(KEY_PREFIX, 0..settings.keys, |_, key| {
            positions.push(Placement::key_fraction(&ring, key));
            owners.push(ring.locate_index(key).map_or(super::NO_OWNER, |o| o as u32));
        });
        (positions, owners, uniform_traffic(settings.keys))
    };
    let arcs = Placement::arcs(&ring);
    let circle = arcs.map(CirclePoints::of);
    let (points, point_owners) = circle.map_or((Arc::from([]), Arc::from([])), |c| (c.fractions, c.owners));
    let shares = Shares::of(&ring);
    let algorithm = crate::algo::ring::RING;
    let summary = SummaryFacts {
        nodes: count,
        algorithm: algorithm.name(),
        serving: count,
        points: arcs.map(|a| a.point_count()),
        hash: algorithm.uses_hash().then_some((settings.hash, algorithm.uses_vnodes().then_some(settings.bits))),
        spread: shares.spread,
    }
    .summary();
    let (keys, requests) = tally(&owners, &traffic, count);
    let nodes = (ring.nodes().iter().enumerate())
        .map(|(i, n)| NodeRow {
            removal_rule: algorithm.removal_rule(i, count),
            ..NodeRow::of(n, shares.fractions.as_ref().map(|s| s[i]), keys[i], (requests[i], 0.0), i as u32)
        })
        .collect();
    let scene = Scene {
        points,
        point_owners,
        keys: positions,
        key_owners: owners,
        colours: (0..count as u32).collect(),
        axis: crate::algo::ring::key_space(&config, &rules).axis_labels(),
        description: crate::algo::ring::described(&config, &rules),
        summary,
        reading: reading(true, false),
    };
    let capabilities = Capabilities {
        exact_arcs: arcs.is_some(),
        exact_shares: shares.fractions.is_some(),
        replicas: algorithm.has_replicas(),
        weights: algorithm.weighted(),
        hash: algorithm.uses_hash(),
        vnodes: algorithm.uses_vnodes(),
        undo: None,
        redo: None,
    };
    let mut options: Vec<(&'static str, Value)> = own_options(algorithm)
        .map(|spec| (spec.name, spec.kind.default_value().map_or(Value::Null, |v| v.json())))
        .collect();
    options.sort_by_key(|&(name, _)| name);
    Ok(Figure { scene, nodes, capabilities, options })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{FrameOptions, Session};
    use crate::Hash;
    use proptest::prelude::*;

    fn names(count: usize) -> Vec<NodeSpec> {
        (0..count).map(|i| NodeSpec::new(format!("n{i}"))).collect()
    }

    /// Settings across what an embed's attributes set: hashes, ring sizes, vnodes, sample
    /// sizes, replicas, and now and then something only a session draws.
    fn settings() -> impl Strategy<Value = Settings> {
        let hash = prop::sample::select(Hash::ALL.to_vec());
        let bits = prop::sample::select(vec![crate::RingBits::B32, crate::RingBits::B64]);
        (hash, bits, 0u32..=80, 0usize..=3000, 0usize..=6, prop::bool::weighted(0.1), prop::bool::weighted(0.1))
            .prop_map(|(hash, bits, vnodes, keys, replicas, zipf, other)| Settings {
                algorithm: if other { Algorithm::Modulo } else { crate::algo::ring::RING },
                hash,
                bits,
                vnodes,
                keys,
                replicas,
                zipf: if zipf { 0.5 } else { 0.0 },
                ..Settings::default()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The figure is the session's frame, and it refuses no plain ring the session
        /// draws.
        #[test]
        fn the_figure_is_the_sessions_frame(settings in settings(), count in 0usize..12, weights in prop::collection::vec(0.0f64..4.0, 12)) {
            let nodes: Vec<NodeSpec> = names(count).into_iter().zip(&weights).map(|(n, &w)| n.weight(w)).collect();
            let session = Session::new(settings.clone(), nodes.clone());
            let figure = figure(&settings, nodes);
            let plain = FIGURE_ALGORITHMS.contains(&settings.algorithm) && settings.zipf == 0.0;
            match (session, figure) {
                (Ok(session), Ok(figure)) => {
                    let frame = session.frame(&FrameOptions::default());
                    prop_assert_eq!(&figure.scene, &frame.scene);
                    prop_assert_eq!(&figure.nodes, &frame.nodes);
                    prop_assert_eq!(&figure.capabilities, &frame.capabilities);
                    let options: Vec<(&str, Value)> = frame.settings.options.into_iter().collect();
                    prop_assert_eq!(figure.options, options);
                }
                (Ok(_), Err(e)) => {
                    prop_assert!(!plain, "a plain ring the session draws was refused: {}", e);
                    prop_assert_eq!(e.code(), "not-built-in");
                }
                (Err(_), Ok(_)) => prop_assert!(false, "the figure drew what the session refuses"),
                (Err(_), Err(e)) => prop_assert_eq!(e.code(), "not-built-in"),
            }
        }
    }

    #[test]
    fn the_figure_leaves_the_rest_to_the_session() {
        let refused = |settings: Settings, nodes: Vec<NodeSpec>| figure(&settings, nodes).unwrap_err().code();
        let ring = Settings::default();
        let other = Settings { algorithm: Algorithm::Jump, ..ring.clone() };
        assert_eq!(refused(other, names(3)), "not-built-in");
        let popular = Settings { zipf: 1.0, ..ring.clone() };
        assert_eq!(refused(popular, names(3)), "not-built-in");
        let mut own = ring.clone();
        own.options.insert("ties", crate::algo::OptionValue::Text("later-added".into()));
        assert_eq!(refused(own, names(3)), "not-built-in");
        let crowded = names(MAX_SESSION_NODES + 1);
        assert_eq!(refused(ring.clone(), crowded), "not-built-in");
        assert_eq!(refused(ring.clone(), vec![NodeSpec::new("a"), NodeSpec::new("a")]), "not-built-in");
        let many = Settings { keys: MAX_KEYS + 1, ..ring };
        assert_eq!(refused(many, names(3)), "not-built-in");
    }

    #[test]
    fn an_empty_figure_asks_for_a_node() {
        let f = figure(&Settings::default(), Vec::new()).unwrap();
        assert_eq!(f.scene.summary, "The ring is empty: add a node.");
        assert!(f.scene.keys.is_empty() && f.scene.points.is_empty() && f.nodes.is_empty());
    }
}
