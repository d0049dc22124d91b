//! The figure an embed shows before anyone touches it: an algorithm at its defaults under the
//! given settings, drawn with the sample keys, exactly as
//! [`Session::frame`](super::Session::frame) draws it, without the session (its history, the
//! options' maps, what moves on a change). Ringlab's own ring is drawn without the catalog's
//! dispatch; the other algorithms only where the build has them (the catalog, or their family).
//!
//! It is what the `<hash-ring>` element's smallest wasm module computes (built without the
//! catalog: ringlab's ring alone): most readers only look, and this is all they need.
//! Anything else — an algorithm the build leaves out, its own options, a hash its module
//! leaves out ([`Hash::built_in`](crate::Hash::built_in)), popular keys, an input the session
//! would refuse — is [`Error::NotBuiltIn`]: the element then asks a session, which draws it
//! or says precisely what is wrong.
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
use crate::algo::ring::RING;
use crate::algo::{Algorithm, CirclePoints, Family, Placement, Shares};
use crate::{Error, NodeSpec, Ring, RingRules};
use std::sync::Arc;

/// The algorithms [`figure`] draws in a figure module built with the features of `families`
/// (the element's `figure` module has none: ringlab's ring alone): ringlab's ring and every
/// algorithm of those families, in catalog order. A build with `catalog` draws them all.
/// `cargo xtask build` writes each module's list beside it, for the element to pick its
/// first module.
pub fn figure_algorithms(families: &[Family]) -> Vec<Algorithm> {
    Algorithm::ALL.into_iter().filter(|a| *a == RING || families.contains(&a.family())).collect()
}

/// The hashes [`figure`] draws with in a figure module built with the features of
/// `families`: the figure of ringlab's ring alone leaves the digests out
/// ([`Hash::in_figure`](crate::Hash::in_figure)); a family's module has them all (its clients
/// hash with MD5).
pub fn figure_hashes(families: &[Family]) -> Vec<crate::Hash> {
    let families_too = families.iter().any(|f| f.feature().is_some());
    crate::Hash::ALL.into_iter().filter(|h| families_too || h.in_figure()).collect()
}

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

/// The figure of `nodes` under `settings`: [`Session::new`]'s frame, or
/// [`Error::NotBuiltIn`] for whatever needs the session (see the module's docs).
///
/// [`Session::new`]: super::Session::new
pub fn figure(settings: &Settings, nodes: Vec<NodeSpec>) -> Result<Figure, Error> {
    let not_here = || Error::NotBuiltIn("anything but an algorithm of this build with its defaults, unchanged".into());
    let plain = settings.algorithm.built_in()
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
    if settings.algorithm == RING {
        // Ringlab's own ring without the catalog's dispatch: the default embed's module is
        // the smaller for it.
        let (config, rules) = (settings.config(), RingRules::default());
        let ring = Ring::with_rules(config.clone(), rules.clone(), nodes).map_err(|_| not_here())?;
        let words = Words {
            axis: crate::algo::ring::key_space(&config, &rules).axis_labels(),
            description: crate::algo::ring::described(&config, &rules),
            hash: Some(settings.hash),
        };
        return drawn(&ring, settings, words).ok_or_else(not_here);
    }
    #[cfg(any(feature = "catalog", feature = "family"))]
    {
        settings.validate().map_err(|_| not_here())?;
        let cluster = crate::algo::Cluster::new(settings.options(), nodes).map_err(|_| not_here())?;
        let words = Words {
            axis: cluster.key_space().axis_labels(),
            description: cluster.describe(),
            hash: cluster.options().applied_hash(),
        };
        drawn(cluster.placement(), settings, words).ok_or_else(not_here)
    }
    #[cfg(not(any(feature = "catalog", feature = "family")))]
    Err(not_here())
}

/// What a figure says about its placement beside the picture.
struct Words {
    axis: [String; 4],
    description: String,
    /// The hash the placement applies to the `hash` setting, if it does.
    hash: Option<crate::Hash>,
}

/// The frame of `placement`, made under `settings`, with the sample keys; `None` when the
/// sample is over the session's cap of work.
fn drawn<P: Placement + ?Sized>(placement: &P, settings: &Settings, words: Words) -> Option<Figure> {
    let count = placement.nodes().len();
    let (positions, owners, traffic) = if count == 0 {
        Default::default()
    } else {
        let work = (settings.keys as u64).saturating_mul(placement.lookup_cost());
        if work > crate::limits::MAX_SAMPLE_WORK {
            return None;
        }
        let (mut positions, mut owners) = (Vec::with_capacity(settings.keys), Vec::with_capacity(settings.keys));
        crate::keys::for_each_generated_in(KEY_PREFIX, 0..settings.keys, |_, key| {
            positions.push(placement.key_fraction(key));
            owners.push(placement.locate_index(key).map_or(super::NO_OWNER, |o| o as u32));
        });
        (positions, owners, uniform_traffic(settings.keys))
    };
    let arcs = placement.arcs();
    let circle = arcs.map(CirclePoints::of);
    let (points, point_owners) = circle.map_or((Arc::from([]), Arc::from([])), |c| (c.fractions, c.owners));
    let shares = Shares::of(placement);
    let algorithm = settings.algorithm;
    let summary = SummaryFacts {
        nodes: count,
        algorithm: algorithm.name(),
        serving: count,
        points: arcs.map(|a| a.point_count()),
        hash: words.hash.map(|h| (h, algorithm.uses_vnodes().then_some(settings.bits))),
        spread: shares.spread,
    }
    .summary();
    let (keys, requests) = tally(&owners, &traffic, count);
    let nodes = (placement.nodes().iter().enumerate())
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
        axis: words.axis,
        description: words.description,
        summary,
        reading: reading(arcs.is_some(), false),
    };
    let capabilities = Capabilities::of(algorithm, arcs.is_some(), shares.fractions.is_some());
    let mut options: Vec<(&'static str, Value)> = own_options(algorithm)
        .map(|spec| (spec.name, spec.kind.default_value().map_or(Value::Null, |v| v.json())))
        .collect();
    options.sort_by_key(|&(name, _)| name);
    Some(Figure { scene, nodes, capabilities, options })
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
        let (vnodes, keys, replicas, zipf, other) =
            (0u32..=80, 0usize..=3000, 0usize..=6, prop::bool::weighted(0.1), prop::bool::weighted(0.4));
        let algorithm = prop::sample::select(Algorithm::ALL.to_vec());
        (hash, bits, vnodes, keys, replicas, zipf, (other, algorithm)).prop_map(
            |(hash, bits, vnodes, keys, replicas, zipf, (other, algorithm))| Settings {
                algorithm: if other { algorithm } else { RING },
                hash,
                bits,
                vnodes,
                keys,
                replicas,
                zipf: if zipf { 0.5 } else { 0.0 },
                ..Settings::default()
            },
        )
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
            let plain = settings.algorithm.built_in() && settings.zipf == 0.0;
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

    /// What `cargo xtask build` writes beside each figure module: the figure of ringlab's
    /// ring alone, without the digests; a family's module, the ring and that family, every
    /// hash (the memcached clients hash with MD5).
    #[test]
    fn each_figure_module_draws_ringlabs_ring_and_its_families() {
        let names =
            |families: &[Family]| -> Vec<&str> { figure_algorithms(families).iter().map(|a| a.name()).collect() };
        assert_eq!(names(&[]), ["ring"]);
        assert_eq!(
            names(&[Family::Client]),
            [
                "ring",
                "libketama",
                "libmemcached-weighted",
                "libmemcached-ketama",
                "groupcache",
                "pymemcache",
                "python-memcached",
                "uhashring",
                "uhashring-ketama",
                "dalli",
                "redis-rb-4",
                "redis-rb-5",
                "spymemcached-ketama",
                "spymemcached-native",
                "npm-hashring",
                "memjs",
            ]
        );
        assert_eq!(names(&[Family::Store, Family::Baseline]), ["ring", "redis-cluster", "cassandra", "modulo"]);
        let hashes = |families: &[Family]| -> Vec<&str> { figure_hashes(families).iter().map(|h| h.name()).collect() };
        assert!(!hashes(&[]).contains(&"md5") && !hashes(&[]).contains(&"sha256"));
        assert_eq!(hashes(&[]).len(), crate::Hash::ALL.len() - 2);
        assert_eq!(hashes(&[Family::Client]).len(), crate::Hash::ALL.len());
    }

    /// With the catalog, every algorithm at its defaults is drawn as the session draws it,
    /// on pools of every size up to a dozen, weighted where the algorithm takes weights.
    #[cfg(feature = "catalog")]
    #[test]
    fn every_algorithm_is_drawn_as_the_session_draws_it() {
        for algorithm in Algorithm::ALL {
            for count in [0, 1, 2, 5, 12] {
                let weighted = algorithm.weighted();
                let nodes: Vec<NodeSpec> = names(count)
                    .into_iter()
                    .enumerate()
                    .map(|(i, n)| if weighted { n.weight(1.0 + (i % 3) as f64) } else { n })
                    .collect();
                let settings = Settings { algorithm, keys: 500, ..Settings::default() };
                let session = Session::new(settings.clone(), nodes.clone());
                let figure = figure(&settings, nodes);
                match (session, figure) {
                    (Ok(session), Ok(figure)) => {
                        let frame = session.frame(&FrameOptions::default());
                        assert_eq!(figure.scene, frame.scene, "{algorithm:?} with {count} nodes");
                        assert_eq!(figure.nodes, frame.nodes, "{algorithm:?} with {count} nodes");
                        assert_eq!(figure.capabilities, frame.capabilities, "{algorithm:?} with {count} nodes");
                        let options: Vec<(&str, Value)> = frame.settings.options.into_iter().collect();
                        assert_eq!(figure.options, options, "{algorithm:?} with {count} nodes");
                    }
                    (Err(_), Err(e)) => assert_eq!(e.code(), "not-built-in"),
                    (session, figure) => panic!("{algorithm:?} with {count} nodes: {session:?} / {figure:?}"),
                }
            }
        }
        // Its own options are the session's to read.
        let mut own = Settings { algorithm: Algorithm::BoundedLoad, ..Settings::default() };
        own.options.insert("epsilon", crate::algo::OptionValue::Number(0.5));
        assert_eq!(figure(&own, names(3)).unwrap_err().code(), "not-built-in");
    }

    #[test]
    fn an_empty_figure_asks_for_a_node() {
        let f = figure(&Settings::default(), Vec::new()).unwrap();
        assert_eq!(f.scene.summary, "The ring is empty: add a node.");
        assert!(f.scene.keys.is_empty() && f.scene.points.is_empty() && f.nodes.is_empty());
    }
}
