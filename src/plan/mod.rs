//! Planning a change: staged in steps, and sized.
//!
//! - [`stages`]: the states a change passes through when it is made in `k` steps: a node's
//!   weight ramped in `k` equal steps (weighted algorithms), Redis Cluster's moved slots in
//!   `k` batches (an algorithm whose layout gives slots to nodes), or one node at a time (the
//!   others, when several nodes change).
//! - [`plan`]: each step's moved keys, items, bytes and time under a bandwidth cap, their sum,
//!   and the same for doing it at once. The moved shares are exact over the arcs where the
//!   algorithm has them, else measured on a key sample.
//! - [`vnodes_for`] (in `sizing`): the vnodes a ring of N nodes needs for a target spread.
//!
//! ```
//! use ringlab::algo::{Algorithm, Cluster, Options};
//! use ringlab::plan::{self, PlanOptions};
//! let before = Cluster::new(Options::new(Algorithm::Ring), ["a", "b", "c"])?;
//! let mut after = before.clone();
//! after.add("d".into())?;
//! let p = plan::plan(&before, &after, &PlanOptions { steps: 4, ..PlanOptions::default() })?;
//! assert_eq!(p.steps.len(), 4);
//! assert!(p.total.moved >= p.at_once.moved - 1e-12, "staging never moves less");
//! # Ok::<(), ringlab::Error>(())
//! ```

mod sizing;

pub use sizing::{vnodes_for, Sizing, SizingDefault, SizingOptions, PRECISION};

use crate::algo::{Cluster, Layout, LayoutSpec};
use crate::migration::MovedTable;
use crate::{limits, Error, NodeSpec};

/// How a change is staged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Staging {
    /// Weights ramped in equal steps.
    Weights,
    /// Moved slots in batches.
    Slots,
    /// One node (or a group of nodes) at a time.
    Nodes,
    /// In one step: the algorithm has no weights and one node changes, or the settings differ.
    AtOnce,
}

/// The states of a change made in (at most) `steps` steps: `before`, each intermediate state,
/// `after`; with how it was staged and one label per step.
pub fn stages(before: &Cluster, after: &Cluster, steps: usize) -> Result<(Vec<Cluster>, Staging, Vec<String>), Error> {
    if steps == 0 {
        return Err(Error::out_of_range(
            "steps",
            0.0,
            (1.0, limits::MAX_PLAN_STEPS as f64),
            "a staged change has at least one step",
        ));
    }
    limits::check("steps of a staged change", steps as u64, limits::MAX_PLAN_STEPS as u64)?;
    let at_once = || Ok((vec![before.clone(), after.clone()], Staging::AtOnce, vec!["at once".to_string()]));
    if steps == 1 || before.options() != after.options() {
        return at_once();
    }
    let points = |c: &Cluster| c.arcs().map_or(c.nodes().len() as u64, |a| a.point_count() as u64);
    let per_state = points(before).max(points(after));
    limits::check(
        "points over the states of a staged change",
        per_state * (steps as u64 - 1),
        limits::MAX_STAGE_POINTS,
    )?;
    let entry = after.algorithm().entry();
    let staged = if let Some(spec) = entry.extras.layout.filter(|l| l.of_owners.is_some()) {
        slot_batches(before, after, steps, spec)
    } else if entry.weighted() {
        weight_ramp(before, after, steps)
    } else {
        node_by_node(before, after, steps)
    };
    match staged {
        // A step the algorithm refuses (a weight it does not take) leaves the change at once.
        Ok(Some((mut middle, staging, labels))) => {
            let mut states = vec![before.clone()];
            states.append(&mut middle);
            states.push(after.clone());
            Ok((states, staging, labels))
        }
        Ok(None) | Err(_) => at_once(),
    }
}

type Staged = Option<(Vec<Cluster>, Staging, Vec<String>)>;

/// Every node of either state, before's first, with after's weight where it has the node.
fn union(before: &Cluster, after: &Cluster) -> Vec<(NodeSpec, f64, f64)> {
    let weight_after =
        after.nodes().iter().map(|n| (n.name.as_str(), n.weight)).collect::<std::collections::BTreeMap<_, _>>();
    let mut out: Vec<(NodeSpec, f64, f64)> = before
        .nodes()
        .iter()
        .map(|n| (n.spec(), n.weight, weight_after.get(n.name.as_str()).copied().unwrap_or(0.0)))
        .collect();
    for n in after.nodes() {
        if !before.nodes().iter().any(|b| b.name == n.name) {
            out.push((n.spec(), 0.0, n.weight));
        }
    }
    out
}

fn weight_ramp(before: &Cluster, after: &Cluster, steps: usize) -> Result<Staged, Error> {
    let nodes = union(before, after);
    if nodes.iter().all(|(_, a, b)| a == b) {
        return Ok(None);
    }
    let mut middle = Vec::new();
    let mut labels = Vec::new();
    for j in 1..steps {
        let f = j as f64 / steps as f64;
        let specs: Vec<NodeSpec> = nodes
            .iter()
            .filter_map(|(spec, a, b)| {
                let w = a + (b - a) * f;
                (w > 0.0).then(|| NodeSpec { weight: w, ..spec.clone() })
            })
            .collect();
        middle.push(Cluster::new(before.options().clone(), specs)?);
        labels.push(format!("weights {}% of the way", crate::decimal::fixed(f * 100.0, 0)));
    }
    labels.push("weights 100% of the way".into());
    Ok(Some((middle, Staging::Weights, labels)))
}

fn slot_batches(before: &Cluster, after: &Cluster, steps: usize, spec: &LayoutSpec) -> Result<Staged, Error> {
    let (Some(a), Some(b), Some(of_owners)) = (before.arcs(), after.arcs(), spec.of_owners) else { return Ok(None) };
    let size = a.size();
    if size != b.size() || size > 1 << 16 {
        return Ok(None);
    }
    let nodes = union(before, after);
    let index = crate::node::index_by_name(nodes.iter().map(|n| n.0.name.as_str()).collect());
    let owner =
        |arcs: &dyn crate::analysis::Arcs, slot: u64| arcs.owner_of(slot).ok().map(|o| index[arcs.node_name(o)]);
    let old: Vec<Option<usize>> = (0..size as u64).map(|s| owner(a, s)).collect();
    let new: Vec<Option<usize>> = (0..size as u64).map(|s| owner(b, s)).collect();
    let moved: Vec<usize> = (0..size as usize).filter(|&s| old[s] != new[s] && new[s].is_some()).collect();
    if moved.len() < 2 {
        return Ok(None);
    }
    let specs: Vec<NodeSpec> =
        nodes.iter().map(|(spec, a, b)| NodeSpec { weight: if *b > 0.0 { *b } else { *a }, ..spec.clone() }).collect();
    let mut middle = Vec::new();
    let mut labels = Vec::new();
    let mut owners = old.clone();
    for j in 1..=steps.min(moved.len()) {
        let (from, to) = ((j - 1) * moved.len() / steps.min(moved.len()), j * moved.len() / steps.min(moved.len()));
        for &slot in &moved[from..to] {
            owners[slot] = new[slot];
        }
        labels.push(format!("slots {} to {} of {} moved", from + 1, to, moved.len()));
        if j < steps.min(moved.len()) {
            let layout = Layout::new(spec, of_owners(&owners, nodes.len()));
            middle.push(Cluster::with_layout(before.options().clone(), specs.clone(), &layout)?);
        }
    }
    Ok(Some((middle, Staging::Slots, labels)))
}

fn node_by_node(before: &Cluster, after: &Cluster, steps: usize) -> Result<Staged, Error> {
    let leaving: Vec<String> = before
        .nodes()
        .iter()
        .filter(|n| !after.nodes().iter().any(|a| a.name == n.name))
        .map(|n| n.name.clone())
        .collect();
    let joining: Vec<NodeSpec> =
        after.nodes().iter().filter(|n| !before.nodes().iter().any(|b| b.name == n.name)).map(|n| n.spec()).collect();
    let changes = leaving.len() + joining.len();
    if changes < 2 {
        return Ok(None);
    }
    let groups = steps.min(changes);
    let mut state = before.clone();
    let mut middle = Vec::new();
    let mut labels = Vec::new();
    let mut done = 0;
    for j in 1..=groups {
        let upto = j * changes / groups;
        let mut names = Vec::new();
        for c in done..upto {
            if c < leaving.len() {
                state.remove(&leaving[c])?;
                names.push(format!("{} leaves", leaving[c]));
            } else {
                let spec = joining[c - leaving.len()].clone();
                names.push(format!("{} joins", spec.name));
                state.add(spec)?;
            }
        }
        done = upto;
        labels.push(names.join(", "));
        if j < groups {
            middle.push(state.clone());
        }
    }
    Ok(Some((middle, Staging::Nodes, labels)))
}

/// What a plan counts.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanOptions {
    /// Steps to stage the change in (1 = at once).
    pub steps: usize,
    /// Items the cluster stores (keys with values).
    pub items: f64,
    /// Bytes per item.
    pub item_bytes: f64,
    /// The bandwidth the migration may use, bytes per second.
    pub bytes_per_sec: f64,
    /// Keys sampled where there are no arcs.
    pub sample_keys: usize,
}

impl Default for PlanOptions {
    fn default() -> PlanOptions {
        PlanOptions { steps: 4, items: 1e6, item_bytes: 1024.0, bytes_per_sec: 100e6, sample_keys: 10_000 }
    }
}

/// One step of a plan (or the total, or the change at once).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanStep {
    /// The share of keys this step moves.
    pub moved: f64,
    pub items: f64,
    pub bytes: f64,
    /// Bytes over the bandwidth cap.
    pub seconds: f64,
    /// What the step does, in words.
    pub label: String,
}

/// A staged change.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    pub steps: Vec<PlanStep>,
    /// The steps added up.
    pub total: PlanStep,
    /// The change made in one step.
    pub at_once: PlanStep,
    pub staging: Staging,
    /// Whether the shares are exact (arcs) or measured on [`keys`](Plan::keys).
    pub exact: bool,
    pub keys: Option<usize>,
}

/// Largest item count, item size or bandwidth a plan takes.
pub const MAX_PLAN_QUANTITY: f64 = 1e15;

/// The plan of the change from `before` to `after` in `options.steps` steps.
pub fn plan(before: &Cluster, after: &Cluster, options: &PlanOptions) -> Result<Plan, Error> {
    let fine = |x: f64| x.is_finite() && (0.0..=MAX_PLAN_QUANTITY).contains(&x);
    if !fine(options.items) || !fine(options.item_bytes) || !fine(options.bytes_per_sec) || options.bytes_per_sec <= 0.0
    {
        let option = if !fine(options.items) {
            "items"
        } else if !fine(options.item_bytes) {
            "itemBytes"
        } else {
            "bytesPerSec"
        };
        return Err(Error::invalid_option(
            option,
            "items and item bytes are ≥ 0 and the bandwidth above 0, each at most 1e15",
        ));
    }
    limits::check("keys in a plan's sample", options.sample_keys as u64, limits::MAX_ROLLOUT_KEYS as u64)?;
    let (states, staging, labels) = stages(before, after, options.steps)?;
    // Each step, and the change at once.
    let last = states.len() - 1;
    let table = MovedTable::of_pairs(&states, options.sample_keys, |a, b| b == a + 1 || (a, b) == (0, last))?;
    let step = |moved: f64, label: String| {
        let items = moved * options.items;
        let bytes = items * options.item_bytes;
        PlanStep { moved, items, bytes, seconds: bytes / options.bytes_per_sec, label }
    };
    let steps: Vec<PlanStep> =
        (1..states.len()).zip(labels).map(|(j, label)| step(table.get(j - 1, j).total(), label)).collect();
    let sum = |f: fn(&PlanStep) -> f64| steps.iter().map(f).sum::<f64>();
    let total = PlanStep {
        moved: sum(|s| s.moved),
        items: sum(|s| s.items),
        bytes: sum(|s| s.bytes),
        seconds: sum(|s| s.seconds),
        label: format!("{} steps", steps.len()),
    };
    let at_once = step(table.get(0, states.len() - 1).total(), "at once".into());
    Ok(Plan { steps, total, at_once, staging, exact: table.keys.is_none(), keys: table.keys })
}
