//! The metrics the consistent-hashing papers compare algorithms by (the SUPSI benchmark suite's
//! balance, resize balance, monotonicity and memory; AnchorHash's and MementoHash's
//! evaluations), for every algorithm of the catalog on the same nodes and keys:
//!
//! - **balance**: how evenly the keys spread over the nodes, per unit of weight: the busiest
//!   node's load over the mean (1 is perfect) and the relative standard deviation (RSD,
//!   population std / mean) — [`Spread`];
//! - **resize balance**: the same after a node joins, and after the removals;
//! - **disruption**: the fraction of keys that move when a node joins and when nodes leave,
//!   beside the ideal (the joiner's fair share; the leavers' fair shares);
//! - **monotonicity**: the fraction of keys that move *between nodes that did not change*
//!   (neither the joiner nor a leaver): 0 for a consistent hash, most keys for `hash % N`;
//! - **restore**: after the leavers rejoin (last out, first back), the fraction of keys not
//!   back on their first owner: 0 where re-adding restores the placement;
//! - **memory**: heap bytes, and per node.
//!
//! Removals follow an order ([`RemovalOrder`]): FIFO (the first node added leaves first),
//! LIFO (the last added first) or random (a shuffle seeded by [`MetricsSettings::seed`]). An
//! algorithm that can only lose its last node (jump-like ones) refuses the other orders, and
//! its row says so instead of giving removal figures.
//!
//! Exact where the algorithm allows: balance from exact shares (points on a circle, modulo's
//! residues, bounded-load's own key set), moves from exact migrations where both states are
//! points on the same circle; every other figure on the key sample. Lookup time is measured
//! by the caller (criterion natively, `performance.now()` in a browser: wasm has no clock)
//! and passed in, as for [`compare`](super::compare).
//!
//! ```
//! use ringlab::algo::metrics::{self, MetricsSettings, RemovalOrder};
//! use ringlab::algo::{Algorithm, Options};
//! use ringlab::{keys::KeySample, NodeSpec};
//! let nodes: Vec<NodeSpec> = (0..10).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
//! let sample = KeySample::generated("key:", 2000);
//! let settings = MetricsSettings { removal_order: RemovalOrder::Fifo, ..MetricsSettings::default() };
//! let anchor = metrics::report(&Options::new(Algorithm::Anchor), Algorithm::Anchor, &nodes, &sample, &settings)?;
//! let removal = anchor.removal.as_ref().expect("AnchorHash removes any node");
//! assert_eq!(removal.change.moved_between_others, 0.0, "only the leaver's keys move");
//! assert_eq!(removal.restore_moved, 0.0, "re-adding restores every key");
//! let jump = metrics::report(&Options::new(Algorithm::Jump), Algorithm::Jump, &nodes, &sample, &settings)?;
//! assert!(jump.removal.is_none() && jump.removal_refused.is_some(), "jump loses only its last bucket");
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::compare::JOINER;
use super::{Algorithm, Cluster, Options};
use crate::analysis::{self, Spread};
use crate::keys::KeySample;
use crate::migration;
use crate::{limits, Error, NodeSpec};
use std::borrow::Cow;
use std::collections::BTreeSet;

/// The order nodes leave in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RemovalOrder {
    /// The first node added leaves first.
    Fifo,
    /// The last node added leaves first: what every algorithm allows.
    #[default]
    Lifo,
    /// A shuffle of the nodes, seeded.
    Random,
}

impl RemovalOrder {
    pub const ALL: [RemovalOrder; 3] = [RemovalOrder::Fifo, RemovalOrder::Lifo, RemovalOrder::Random];

    /// `fifo`, `lifo` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            RemovalOrder::Fifo => "fifo",
            RemovalOrder::Lifo => "lifo",
            RemovalOrder::Random => "random",
        }
    }

    pub fn from_name(name: &str) -> Result<RemovalOrder, Error> {
        RemovalOrder::ALL.into_iter().find(|o| o.name() == name).ok_or_else(|| {
            Error::unknown_choice(
                "removalOrder",
                name,
                format!("unknown removal order {name:?}: choose one of fifo, lifo, random"),
            )
        })
    }
}

/// How the removals are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetricsSettings {
    pub removal_order: RemovalOrder,
    /// How many nodes leave, one after another (1 ..= [`limits::MAX_METRICS_REMOVALS`], and
    /// fewer than the nodes).
    pub removals: usize,
    /// The shuffle's seed for [`RemovalOrder::Random`].
    pub seed: u64,
}

impl Default for MetricsSettings {
    fn default() -> MetricsSettings {
        MetricsSettings { removal_order: RemovalOrder::Lifo, removals: 1, seed: 0 }
    }
}

/// What a change moved, as fractions of the keys (of the key space where exact).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    /// Keys that changed owner.
    pub moved: f64,
    /// The least any scheme must move: the fair share of the nodes that joined or left.
    pub ideal: f64,
    /// Keys that moved between two nodes that did not change (monotonicity: 0 is ideal).
    pub moved_between_others: f64,
}

/// The removals' figures.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Removal {
    /// `fifo`, `lifo` or `random`.
    pub order: &'static str,
    /// The nodes that left, in order.
    pub removed: Vec<String>,
    pub change: Change,
    /// Balance over the nodes that stayed.
    pub balance_after: Spread,
    /// After the leavers rejoin, last out first back: keys not on their first owner.
    pub restore_moved: f64,
}

/// One algorithm's metrics.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Metrics {
    pub algorithm: Cow<'static, str>,
    pub nodes: usize,
    pub sample_keys: usize,
    /// Whether balance is over the whole key space (exact shares) rather than the sample.
    pub exact_balance: bool,
    /// Whether moves are over the whole key space (exact migrations) rather than the sample.
    pub exact_moves: bool,
    pub balance: Spread,
    /// A node (`joiner`, weight 1) joins.
    pub add: Change,
    pub balance_after_add: Spread,
    /// The removals, or `None` where the algorithm refuses this order (`removal_refused` says why).
    pub removal: Option<Removal>,
    pub removal_refused: Option<String>,
    pub memory_bytes: usize,
    pub bytes_per_node: f64,
    /// Nanoseconds per lookup, as the caller measured it (`None`: not measured).
    pub lookup_ns: Option<f64>,
}

/// Lookups of each key per algorithm: its owner before, after the join, after the removals
/// and after the restore.
pub const LOOKUPS_PER_KEY: usize = 4;

/// The caps on one call (see [`limits`]): the nodes, the keys, `keys × algorithms`, and the
/// removals.
pub fn check_work(
    nodes: &[NodeSpec],
    sample: &KeySample,
    algorithms: usize,
    settings: &MetricsSettings,
) -> Result<(), Error> {
    limits::check("nodes to measure", nodes.len() as u64, limits::MAX_COMPARE_NODES as u64)?;
    limits::check_keys("keys to measure on", &sample.keys, limits::MAX_SAMPLE_KEYS)?;
    let work = sample.keys.len() as u64 * algorithms as u64;
    limits::check("algorithms × keys to measure", work, limits::MAX_METRICS_WORK)?;
    limits::check("removals", settings.removals as u64, limits::MAX_METRICS_REMOVALS as u64)?;
    if nodes.len() < 2 || sample.keys.is_empty() {
        let (what, min, got) = if nodes.len() < 2 { ("nodes", 2, nodes.len()) } else { ("keys", 1, 0) };
        return Err(Error::too_few(what, min, got, "metrics need at least two nodes and one key"));
    }
    if settings.removals == 0 || settings.removals >= nodes.len() {
        return Err(Error::out_of_range(
            "removals",
            settings.removals as f64,
            (1.0, (nodes.len() - 1) as f64),
            format!(
                "removals must be from 1 to one less than the nodes ({}), got {}",
                nodes.len() - 1,
                settings.removals
            ),
        ));
    }
    Ok(())
}

/// A caller's lookup time, if it is one: finite and above zero. Zero is a clock that did not
/// tick during the lookups (a browser's clock steps by 0.1 ms or more), not a time.
///
/// ```
/// use ringlab::algo::metrics::measured;
/// assert_eq!(measured(Some(12.5)), Some(12.5));
/// assert_eq!([Some(0.0), Some(-1.0), Some(f64::NAN), Some(f64::INFINITY), None].map(measured), [None; 5]);
/// ```
pub fn measured(lookup_ns: Option<f64>) -> Option<f64> {
    lookup_ns.filter(|ns| ns.is_finite() && *ns > 0.0)
}

/// The metrics of each of `algorithms` on the same nodes and keys, each paired with
/// `lookup_ns[i]` (kept if [`measured`]). An algorithm that refuses
/// the nodes (weights where it has none, more nodes than its capacity) reports the error.
/// Over a cap, every row says so and nothing runs.
pub fn metrics(
    base: &Options,
    nodes: &[NodeSpec],
    sample: &KeySample,
    algorithms: &[Algorithm],
    settings: &MetricsSettings,
    lookup_ns: &[Option<f64>],
) -> Vec<(Algorithm, Result<Metrics, Error>)> {
    if let Err(e) =
        super::check_distinct(algorithms).and_then(|()| check_work(nodes, sample, algorithms.len(), settings))
    {
        return algorithms.iter().map(|&a| (a, Err(e.clone()))).collect();
    }
    // One call of the work meter: the rows' work adds up.
    crate::work::call(|| {
        algorithms
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                let lookup = measured(lookup_ns.get(i).copied().flatten());
                (a, report(base, a, nodes, sample, settings).map(|m| Metrics { lookup_ns: lookup, ..m }))
            })
            .collect()
    })
}

/// One algorithm's metrics, on its own (a page can run one per frame).
pub fn report(
    base: &Options,
    algorithm: Algorithm,
    nodes: &[NodeSpec],
    sample: &KeySample,
    settings: &MetricsSettings,
) -> Result<Metrics, Error> {
    check_work(nodes, sample, 1, settings)?;
    let mut options = Options { algorithm, ..base.clone() };
    if let Some(set_keys) = algorithm.entry().extras.places_keys {
        set_keys(&mut options, sample.clone());
    }
    let cluster = Cluster::new(options, nodes.iter().cloned())?;
    cluster.check_lookups(sample.keys.len().saturating_mul(LOOKUPS_PER_KEY))?;
    // A join, the removals and their return, each a change: refused before the first where
    // the tables they refill are more than the call may fill.
    let changes = 1 + 2 * settings.removals as u64;
    crate::work::afford(crate::work::Cost::Cells, cluster.change_cells().saturating_mul(changes))?;
    let before = owners(&cluster, sample)?;
    let total_weight: f64 = nodes.iter().map(|n| n.weight).sum();

    let (balance, exact_balance) = spread_of(&cluster, &before);

    let mut joined = cluster.clone();
    joined.add(NodeSpec::new(JOINER))?;
    let joined_owners = owners(&joined, sample)?;
    let unchanged = nodes.iter().map(|n| n.name.as_str()).collect::<std::collections::BTreeSet<_>>();
    let (moved, between, exact_add) = moves(&cluster, &joined, &before, &joined_owners, &unchanged);
    let add = Change { moved, ideal: 1.0 / (total_weight + 1.0), moved_between_others: between };
    let (balance_after_add, _) = spread_of(&joined, &joined_owners);

    let order = removal_order(nodes.len(), settings);
    let mut left = cluster.clone();
    let mut refused = None;
    for &i in &order {
        if let Err(e) = left.remove(&nodes[i].name) {
            refused = Some(format!("{} {} removal: {e}", algorithm.name(), settings.removal_order.name()));
            break;
        }
    }
    let mut exact_moves = exact_add;
    let removal = match refused {
        Some(_) => None,
        None => {
            let left_owners = owners(&left, sample)?;
            let survivors = left.nodes().iter().map(|n| n.name.as_str()).collect::<std::collections::BTreeSet<_>>();
            let (moved, between, exact) = moves(&cluster, &left, &before, &left_owners, &survivors);
            let removed_weight: f64 = order.iter().map(|&i| nodes[i].weight).sum();
            let change = Change { moved, ideal: removed_weight / total_weight, moved_between_others: between };
            let (balance_after, _) = spread_of(&left, &left_owners);
            let mut restored = left.clone();
            for &i in order.iter().rev() {
                restored.add(nodes[i].clone())?;
            }
            let restored_owners = owners(&restored, sample)?;
            let (restore_moved, _, exact_restore) = moves(&cluster, &restored, &before, &restored_owners, &unchanged);
            exact_moves = exact_moves && exact && exact_restore;
            Some(Removal {
                order: settings.removal_order.name(),
                removed: order.iter().map(|&i| nodes[i].name.clone()).collect(),
                change,
                balance_after,
                restore_moved,
            })
        }
    };
    let memory_bytes = cluster.memory_bytes();
    Ok(Metrics {
        algorithm: algorithm.name().into(),
        nodes: nodes.len(),
        sample_keys: sample.keys.len(),
        exact_balance,
        exact_moves,
        balance,
        add,
        balance_after_add,
        removal,
        removal_refused: refused,
        memory_bytes,
        bytes_per_node: memory_bytes as f64 / nodes.len() as f64,
        lookup_ns: None,
    })
}

/// The indices of the nodes that leave, in order.
pub fn removal_order(count: usize, settings: &MetricsSettings) -> Vec<usize> {
    let k = settings.removals.min(count);
    match settings.removal_order {
        RemovalOrder::Fifo => (0..k).collect(),
        RemovalOrder::Lifo => (0..k).map(|i| count - 1 - i).collect(),
        RemovalOrder::Random => {
            // Fisher–Yates with SplitMix64, so the order is the same everywhere.
            let mut all: Vec<usize> = (0..count).collect();
            let mut rng = super::buckets::SplitMix64(settings.seed);
            for i in (1..count).rev() {
                let j = super::buckets::scaled(rng.next_u64(), i as u32 + 1) as usize;
                all.swap(i, j);
            }
            all.truncate(k);
            all
        }
    }
}

/// Each sample key's owner's name index, looked up once.
fn owners(cluster: &Cluster, sample: &KeySample) -> Result<Vec<u32>, Error> {
    sample.keys.iter().map(|k| cluster.locate_index(k).map(|i| i as u32)).collect()
}

/// The spread of load: exact shares where the cluster has them, else the sample's counts;
/// and whether it is exact.
fn spread_of(cluster: &Cluster, owners: &[u32]) -> (Spread, bool) {
    let weights: Vec<f64> = cluster.nodes().iter().map(|n| n.weight).collect();
    let exact = match cluster.arcs() {
        Some(arcs) => Some(analysis::shares(arcs)),
        // Fractions in parts of 2^53, as the session's spread takes them.
        None => cluster.exact_shares().map(|shares| shares.iter().map(|s| (s * (1u64 << 53) as f64) as u128).collect()),
    };
    let (shares, exact) = match exact {
        Some(shares) => (shares, true),
        None => {
            let mut counts = vec![0u128; weights.len()];
            for &o in owners {
                counts[o as usize] += 1;
            }
            (counts, false)
        }
    };
    let none = Spread { rsd: 0.0, max_over_mean: 0.0, min_over_mean: 0.0 };
    (Spread::of(&shares, &weights).unwrap_or(none), exact)
}

/// What moved from `before` to `after`: the moved fraction, the fraction that moved between
/// two nodes of `unchanged`, and whether both are exact (a migration over the key space).
fn moves(
    before: &Cluster,
    after: &Cluster,
    before_owners: &[u32],
    after_owners: &[u32],
    unchanged: &BTreeSet<&str>,
) -> (f64, f64, bool) {
    if let (Some(a), Some(b)) = (before.arcs(), after.arcs()) {
        if let Ok(m) = migration::between(a, b) {
            let size = a.size() as f64;
            let between: u128 = m
                .arcs
                .iter()
                .filter(|arc| unchanged.contains(arc.from.as_str()) && unchanged.contains(arc.to.as_str()))
                .map(|arc| u128::from(arc.end - arc.start) + 1)
                .sum();
            return (m.moved_fraction, between as f64 / size, true);
        }
    }
    let (mut moved, mut between) = (0usize, 0usize);
    for (&o, &w) in before_owners.iter().zip(after_owners) {
        let (from, to) = (&before.nodes()[o as usize].name, &after.nodes()[w as usize].name);
        if from != to {
            moved += 1;
            between += usize::from(unchanged.contains(from.as_str()) && unchanged.contains(to.as_str()));
        }
    }
    let keys = before_owners.len().max(1) as f64;
    (moved as f64 / keys, between as f64 / keys, false)
}

/// Which way a metric is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Better {
    /// The smallest value wins.
    Lower,
    /// The value nearest 1 wins (a ratio to the ideal: more is disruption, less is a node
    /// left short).
    NearestOne,
}

impl Better {
    /// How far `value` is from the best: the smaller, the better.
    pub fn score(self, value: f64) -> f64 {
        match self {
            Better::Lower => value,
            Better::NearestOne => (value - 1.0).abs(),
        }
    }

    /// "lower is better", "nearest 1 is best".
    pub fn words(self) -> &'static str {
        match self {
            Better::Lower => "lower is better",
            Better::NearestOne => "nearest 1 is best",
        }
    }
}

/// One metric as a column of the comparison: its words, its direction and where its figure is.
#[derive(Clone, Copy, Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Metric {
    /// A stable name: `balance`, `rsd`, `monotonicity-add`, ...
    pub key: &'static str,
    pub label: &'static str,
    /// The unit the figures are shown in (`×`, `%`, `ns`, `bytes`).
    pub unit: &'static str,
    /// What it means, in a sentence.
    pub description: &'static str,
    pub better: Better,
    /// The figure in the shown unit, or `None` where the row has none.
    #[serde(skip)]
    pub value: fn(&Metrics) -> Option<f64>,
    /// Decimals the figure is shown with.
    #[serde(skip)]
    pub decimals: usize,
}

impl Metric {
    /// `value` as shown in a cell: `decimals` places, the unit left to the header.
    pub fn format(&self, value: f64) -> String {
        crate::decimal::fixed(value, self.decimals)
    }

    /// `value` with its unit, as a sentence says it.
    pub fn with_unit(&self, value: f64) -> String {
        match self.unit {
            "%" | "×" => format!("{}{}", self.format(value), self.unit),
            unit => format!("{} {unit}", self.format(value)),
        }
    }
}

fn percent(f: f64) -> f64 {
    f * 100.0
}

/// The metrics the comparison shows, in its column order.
pub const METRICS: [Metric; 11] = [
    Metric {
        key: "balance",
        label: "Balance: max/mean",
        unit: "×",
        description: "The busiest node's load over the mean load, per unit of weight: 1 is perfectly even.",
        better: Better::Lower,
        value: |m| Some(m.balance.max_over_mean),
        decimals: 3,
    },
    Metric {
        key: "rsd",
        label: "Balance: RSD",
        unit: "%",
        description: "The relative standard deviation of the nodes' loads (standard deviation over the mean): \
                      0 is perfectly even.",
        better: Better::Lower,
        value: |m| Some(percent(m.balance.rsd)),
        decimals: 2,
    },
    Metric {
        key: "balance-after-add",
        label: "Resize balance: a join",
        unit: "×",
        description: "Balance (max/mean) once a node joins: whether the newcomer takes a fair share.",
        better: Better::Lower,
        value: |m| Some(m.balance_after_add.max_over_mean),
        decimals: 3,
    },
    Metric {
        key: "balance-after-removal",
        label: "Resize balance: the removal",
        unit: "×",
        description: "Balance (max/mean) over the nodes that stay once the removal is made: whether the \
                      leaver's keys spread evenly.",
        better: Better::Lower,
        value: |m| m.removal.as_ref().map(|r| r.balance_after.max_over_mean),
        decimals: 3,
    },
    Metric {
        key: "monotonicity-add",
        label: "Monotonicity: a join",
        unit: "%",
        description: "Keys that move between two nodes that did not change when a node joins: 0 for a \
                      consistent hash, most keys for hash % N.",
        better: Better::Lower,
        value: |m| Some(percent(m.add.moved_between_others)),
        decimals: 2,
    },
    Metric {
        key: "monotonicity-removal",
        label: "Monotonicity: the removal",
        unit: "%",
        description: "Keys that move between two nodes that stay when the removal is made: 0 when only the \
                      leaver's keys move.",
        better: Better::Lower,
        value: |m| m.removal.as_ref().map(|r| percent(r.change.moved_between_others)),
        decimals: 2,
    },
    Metric {
        key: "disruption-add",
        label: "Disruption: a join",
        unit: "×",
        description: "Keys moved by a join over the fewest any scheme must move (the joiner's fair share): 1 \
                      is minimal; more moves keys for nothing, less leaves the newcomer short.",
        better: Better::NearestOne,
        value: |m| Some(m.add.moved / m.add.ideal),
        decimals: 2,
    },
    Metric {
        key: "disruption-removal",
        label: "Disruption: the removal",
        unit: "×",
        description: "Keys moved by the removal over the leavers' fair share: 1 is minimal.",
        better: Better::NearestOne,
        value: |m| m.removal.as_ref().map(|r| r.change.moved / r.change.ideal),
        decimals: 2,
    },
    Metric {
        key: "restore",
        label: "Not restored",
        unit: "%",
        description: "Keys not back on their first owner once the leavers rejoin, last out first back: 0 \
                      where re-adding a node restores the placement.",
        better: Better::Lower,
        value: |m| m.removal.as_ref().map(|r| percent(r.restore_moved)),
        decimals: 2,
    },
    Metric {
        key: "lookup",
        label: "Lookup",
        unit: "ns",
        description: "Time to find one key's node, as the caller measured it (the page: rounds of 10,000 \
                      lookups for at least 5 ms, in this browser).",
        better: Better::Lower,
        value: |m| m.lookup_ns,
        decimals: 1,
    },
    Metric {
        key: "bytes-per-node",
        label: "Memory per node",
        unit: "bytes",
        description: "The placement's heap bytes (its points, tables or state) over the nodes.",
        better: Better::Lower,
        value: |m| Some(m.bytes_per_node),
        decimals: 0,
    },
];

/// Which algorithms are best at one metric.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Winner {
    /// The metric's [`key`](Metric::key).
    pub metric: &'static str,
    /// The best figure, in the metric's unit (`None`: no row has one).
    pub best: Option<f64>,
    /// Every algorithm whose figure is the best (ties included, and sampled figures within
    /// their margin of it), in the rows' order.
    pub algorithms: Vec<String>,
    /// "maglev wins with 1.002× (lower is better)."
    pub sentence: String,
}

/// Figures this close to the best tie with it: equal counts give equal floats, but a ratio
/// reached by two roads may differ in its last bits.
fn ties(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-9)
}

/// The margin of a row's figure for `metric`, in the metric's unit: two standard errors
/// where it was counted on the sample keys, 0 where it is exact (over the whole key space,
/// or not sampled at all: memory, or a lookup time the caller measured).
pub fn margin(metric: &Metric, m: &Metrics, value: f64) -> f64 {
    let n = m.sample_keys.max(1) as f64;
    // A fraction p of the keys: its count is binomial.
    let fraction = |p: f64| 2.0 * (p.clamp(0.0, 1.0) * (1.0 - p.clamp(0.0, 1.0)) / n).sqrt();
    let nodes = m.nodes.max(1) as f64;
    match metric.key {
        // The busiest node's count c ≈ r·n/N keys, Poisson: r within 2·√(r·N/n).
        "balance" | "balance-after-add" | "balance-after-removal" if !m.exact_balance => {
            2.0 * (value.max(0.0) * nodes / n).sqrt()
        }
        // Counting noise alone gives the loads an RSD of about √(N/n).
        "rsd" if !m.exact_balance => percent(2.0 * (nodes / n).sqrt()),
        "monotonicity-add" | "monotonicity-removal" | "restore" if !m.exact_moves => percent(fraction(value / 100.0)),
        "disruption-add" if !m.exact_moves => fraction(m.add.moved) / m.add.ideal,
        "disruption-removal" if !m.exact_moves => {
            m.removal.as_ref().map_or(0.0, |r| fraction(r.change.moved) / r.change.ideal)
        }
        _ => 0.0,
    }
}

/// The winner of each of [`METRICS`] among `rows` (rows with an error, or no figure for
/// the metric, take no part), by the metric's direction. A sampled figure is never crowned
/// over one within its margin: those tie, and the sentence says so.
pub fn winners(rows: &[(Algorithm, Result<Metrics, Error>)]) -> Vec<Winner> {
    METRICS
        .iter()
        .map(|metric| {
            let figures: Vec<(&str, f64, f64)> = rows
                .iter()
                .filter_map(|(a, r)| {
                    let m = r.as_ref().ok()?;
                    let v = (metric.value)(m)?;
                    Some((a.name(), v, margin(metric, m, v)))
                })
                .filter(|(_, v, _)| v.is_finite())
                .collect();
            let best =
                figures.iter().copied().min_by(|a, b| metric.better.score(a.1).total_cmp(&metric.better.score(b.1)));
            // A figure could be the best when its lowest plausible score is under every
            // figure's highest (the score ± the margin: exact figures have none).
            let ceiling = figures.iter().map(|&(_, v, m)| metric.better.score(v) + m).fold(f64::INFINITY, f64::min);
            let mut sampled = false;
            let algorithms: Vec<String> = match best {
                Some((_, b, _)) => figures
                    .iter()
                    .filter(|&&(_, v, m)| {
                        let (x, y) = (metric.better.score(v), metric.better.score(b));
                        let within = x - m <= ceiling;
                        sampled |= within && !ties(x, y);
                        ties(x, y) || within
                    })
                    .map(|&(name, _, _)| name.to_string())
                    .collect(),
                None => Vec::new(),
            };
            let best = best.map(|b| b.1);
            let sentence = match (best, algorithms.as_slice()) {
                (Some(b), [one]) => format!("{one} wins with {} ({}).", metric.with_unit(b), metric.better.words()),
                (Some(b), many) if sampled => format!(
                    "No clear winner: {} are within sampling error of the best, {} ({}): {}.",
                    many.len(),
                    metric.with_unit(b),
                    metric.better.words(),
                    and_list(many)
                ),
                (Some(b), many) => format!(
                    "{} tie with {} ({}): {}.",
                    many.len(),
                    metric.with_unit(b),
                    metric.better.words(),
                    and_list(many)
                ),
                (None, _) => "No algorithm has a figure here.".to_string(),
            };
            Winner { metric: metric.key, best, algorithms, sentence }
        })
        .collect()
}

/// "a, b and c".
fn and_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The comparison as the page shows it: a table of [`METRICS`] (figures as text, in each
/// metric's unit), the words for each metric and the winner of each.
#[derive(Clone, Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    /// "27 algorithms on 5 nodes and 2,000 sampled keys; FIFO: node-1 leaves, then rejoins."
    pub caption: String,
    /// The removal order, and its words.
    pub order: &'static str,
    pub order_words: &'static str,
    pub keys: usize,
    pub removals: usize,
    /// The table's column headers: "Algorithm", each metric's label and unit, "Note".
    pub headers: Vec<String>,
    /// The columns after the algorithm's name, in order.
    pub metrics: Vec<Metric>,
    pub rows: Vec<ComparisonRow>,
    /// One per metric, in the columns' order.
    pub winners: Vec<Winner>,
}

/// One algorithm's row: a cell per metric ("n/a" where it has no figure) and a note (why not).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ComparisonRow {
    pub algorithm: String,
    pub cells: Vec<String>,
    /// Per metric: whether this algorithm is among its winners.
    pub wins: Vec<bool>,
    pub note: String,
}

impl RemovalOrder {
    /// "FIFO: the first node added leaves first", ...
    pub fn words(self) -> &'static str {
        match self {
            RemovalOrder::Fifo => "FIFO: the first node added leaves first",
            RemovalOrder::Lifo => "LIFO: the last node added leaves first",
            RemovalOrder::Random => "random: a seeded shuffle picks who leaves",
        }
    }
}

/// The comparison of `rows` ([`metrics`]' answer for `settings`, on `keys` sampled keys).
pub fn comparison(rows: &[(Algorithm, Result<Metrics, Error>)], settings: &MetricsSettings, keys: usize) -> Comparison {
    let nodes = rows.iter().find_map(|(_, r)| r.as_ref().ok().map(|m| m.nodes)).unwrap_or(0);
    let removed = rows.iter().find_map(|(_, r)| r.as_ref().ok().and_then(|m| m.removal.as_ref()));
    let leaving = match removed {
        Some(r) if r.removed.len() == 1 => format!("{} leaves, then rejoins", r.removed[0]),
        Some(r) => format!("{} leave in that order, then rejoin", and_list(&r.removed)),
        None => "no algorithm could make the removal".to_string(),
    };
    let caption = format!(
        "{} algorithms on {nodes} nodes and {} sampled keys (a figure counted on them has its \
         margin, ± two standard errors; the others are exact); {}: {leaving}.",
        rows.len(),
        super::about::thousands(keys as u64),
        settings.removal_order.words(),
    );
    let winners = winners(rows);
    let table_rows = rows
        .iter()
        .map(|(a, r)| {
            let wins = winners.iter().map(|w| w.algorithms.iter().any(|n| n == a.name())).collect();
            match r {
                Ok(m) => ComparisonRow {
                    algorithm: a.name().to_string(),
                    cells: METRICS
                        .iter()
                        .map(|metric| {
                            (metric.value)(m).map_or(NA.to_string(), |v| {
                                let e = margin(metric, m, v);
                                if e > 0.0 {
                                    format!("{} ± {}", metric.format(v), metric.format(e))
                                } else {
                                    metric.format(v)
                                }
                            })
                        })
                        .collect(),
                    wins,
                    note: m.removal_refused.clone().unwrap_or_default(),
                },
                Err(e) => ComparisonRow {
                    algorithm: a.name().to_string(),
                    cells: vec![NA.to_string(); METRICS.len()],
                    wins,
                    note: e.to_string(),
                },
            }
        })
        .collect();
    let headers = std::iter::once("Algorithm".to_string())
        .chain(METRICS.iter().map(|m| format!("{} ({})", m.label, m.unit)))
        .chain(["Note".to_string()])
        .collect();
    Comparison {
        caption,
        order: settings.removal_order.name(),
        order_words: settings.removal_order.words(),
        keys,
        removals: settings.removals,
        headers,
        metrics: METRICS.to_vec(),
        rows: table_rows,
        winners,
    }
}

/// A cell without a figure.
pub const NA: &str = "n/a";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_pick_the_first_the_last_or_a_seeded_shuffle() {
        let s = |removal_order, removals, seed| MetricsSettings { removal_order, removals, seed };
        assert_eq!(removal_order(6, &s(RemovalOrder::Fifo, 2, 0)), [0, 1]);
        assert_eq!(removal_order(6, &s(RemovalOrder::Lifo, 3, 0)), [5, 4, 3]);
        let a = removal_order(50, &s(RemovalOrder::Random, 10, 7));
        assert_eq!(a, removal_order(50, &s(RemovalOrder::Random, 10, 7)), "seeded");
        assert_ne!(a, removal_order(50, &s(RemovalOrder::Random, 10, 8)));
        assert_eq!(a.iter().collect::<BTreeSet<_>>().len(), 10, "distinct nodes");
        assert_eq!(RemovalOrder::from_name("random").unwrap(), RemovalOrder::Random);
        assert_eq!(RemovalOrder::from_name("lru").unwrap_err().code(), "invalid-option");
    }
}
