//! Multi-probe consistent hashing (Appleton & O'Reilly 2015): one point per node, and each
//! key probed `k` times; the node whose point follows a probe most closely wins.
//!
//! Node points are XXH3-64 of the name; probe `i` is XXH3-64 of the key with seed `i`.
//! Equal distances go to the name that sorts first.
//!
//! A down node's point is ignored: each probe finds the nearest healthy point, so only the
//! down node's keys move (a probe's distance to other points does not change).

use super::about::KeySpace;
use super::down::Rebuilt;
use super::entry::{Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Weights};
use super::explain::{hex, Chain, Step, StepKind, MAX_WALK_STEPS};
use super::members::{placement_basics, weight_rule, Members};
use super::options::{OptionKind, OptionSpec, Scope};
use super::{Algorithm, Placement};
use crate::order::{self, Tie};
use crate::points::Points;
use crate::{Error, Node, NodeSpec};
use twox_hash::XxHash3_64;

pub(crate) const ENTRY: Entry = Entry {
    name: "multi-probe",
    label: "Multi-probe",
    family: Family::Paper,
    source: "Appleton & O'Reilly 2015: one point per node, k probes per key, the closest successor wins",
    options: &[&PROBES],
    weights: Weights::One,
    arcs: false,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 64 },
    describe: |o| {
        format!(
            "Multi-probe: one XXH3 point per node and {} probes per key; the closest point after a probe wins ({}).",
            PROBES.whole_u32(o),
            (ENTRY.key_space)(o).words()
        )
    },
    on_down: OnDown::Skip(
        "The down node's points are ignored: each probe finds the nearest healthy point, so only the down node's \
         keys move.",
    ),
    on_stale: OnStale::ClientSide(
        "A client with the old node list probes the old points: moved keys go to their old owner, where reads miss or find stale values and writes leave two copies.",
    ),
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build = Build::Whole(|o, nodes, _| Ok(Box::new(MultiProbe::new(PROBES.whole_u32(o), nodes)?)));

/// Probes per key.
pub(crate) const PROBES: OptionSpec = OptionSpec {
    name: "probes",
    kind: OptionKind::Whole { min: 1, max: MAX_PROBES as u64, default: 21 },
    help: "probes per key (the paper's 21 gives a peak-to-mean load of about 1.05)",
    scope: Scope::Everywhere,
    link: "pr",
    refused: None,
    get: |o| PROBES.kept(o),
    set: |o, v| {
        PROBES.keep(o, v);
        Ok(())
    },
};

/// Most probes per key (see [`limits`](crate::limits)).
pub const MAX_PROBES: u32 = crate::limits::MAX_PROBES;

#[derive(Clone, Debug)]
pub(crate) struct MultiProbe {
    probes: u32,
    members: Members,
    points: Points,
    /// While a node is down: the healthy nodes' points.
    live: Option<Box<Rebuilt>>,
}

impl MultiProbe {
    pub(crate) fn new(probes: u32, nodes: Vec<NodeSpec>) -> Result<MultiProbe, Error> {
        crate::limits::check("probes per key", u64::from(probes), u64::from(MAX_PROBES))?;
        if probes == 0 {
            return Err(Error::out_of_range(
                "probes",
                f64::from(probes),
                (1.0, f64::from(MAX_PROBES)),
                format!("probes must be between 1 and {MAX_PROBES} (got {probes})"),
            ));
        }
        let members = Members::new(nodes, 1, weight_rule(Algorithm::MultiProbe))?;
        let mut m = MultiProbe { probes, members, points: Points::new(64), live: None };
        m.rebuild();
        Ok(m)
    }

    fn rebuild(&mut self) {
        let nodes = &self.members.nodes;
        let mut entries: Vec<(u64, u32)> =
            nodes.iter().enumerate().map(|(i, n)| (XxHash3_64::oneshot(n.name.as_bytes()), i as u32)).collect();
        order::sort_points(&mut entries, Tie::Name(&|owner| nodes[owner as usize].name.as_str()));
        self.points.set(&entries);
        let probes = self.probes;
        self.live = Rebuilt::build(&self.members.nodes, &self.members.down, |specs| {
            MultiProbe::new(probes, specs).map(|m| Box::new(m) as Box<dyn Placement>)
        })
        // Not `expect`, as in maglev.rs: the error's `Debug` would come with it.
        .unwrap_or_else(|_| unreachable!("a subset of valid nodes is valid"))
        .map(Box::new);
    }
}

/// One probe of a key: its hash and the first point at or after it.
struct Probe {
    seed: u64,
    hash: u64,
    point: usize,
    distance: u64,
    owner: usize,
}

impl MultiProbe {
    /// Probe `seed` of `key`: XXH3 with that seed, the next point clockwise and how far.
    fn probe(&self, key: &[u8], seed: u64) -> Probe {
        let hash = XxHash3_64::oneshot_with_seed(seed, key);
        let point = self.points.successor(hash);
        let distance = self.points.position(point).wrapping_sub(hash);
        Probe { seed, hash, point, distance, owner: self.points.owner(point) as usize }
    }

    /// Whether probe `a` wins over `b`: a shorter distance, on a tie the smaller name.
    fn closer(&self, a: &Probe, b: &Probe) -> bool {
        let names = |p: &Probe| &self.members.nodes[p.owner].name;
        a.distance < b.distance || (a.distance == b.distance && names(a) < names(b))
    }
}

impl Placement for MultiProbe {
    placement_basics!(Algorithm::MultiProbe, 1, rebuild);

    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        if self.points.is_empty() {
            return Err(Error::EmptyRing);
        }
        if !self.members.down.is_empty() {
            return self.live.as_ref().map_or_else(|| Err(super::down::all_down()), |l| l.locate_index(key));
        }
        let mut best: Option<Probe> = None;
        for seed in 0..u64::from(self.probes) {
            let probe = self.probe(key, seed);
            if best.as_ref().is_none_or(|b| self.closer(&probe, b)) {
                best = Some(probe);
            }
        }
        best.map(|p| p.owner).ok_or(Error::EmptyRing)
    }
    /// Each probe (the first named, the rest counted), its nearest point clockwise and the
    /// distance, then the closest: on all the points (down nodes' too: the candidate).
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        chain.bytes("the bytes hashed: the whole key, once per probe seed", key);
        let mut best: Option<Probe> = None;
        for seed in 0..u64::from(self.probes) {
            let probe = self.probe(key, seed);
            if seed < MAX_WALK_STEPS as u64 {
                let label = format!("probe {seed}: xxh3 of the key with seed {seed}");
                let (hash, distance) = (hex(probe.hash, 64), hex(probe.distance, 64));
                let owner = &self.nodes()[probe.owner].name;
                let value = format!("{hash} → point {} ({owner}), distance {distance}", probe.point);
                let step = Step::new(StepKind::Hash, label, value).at_fraction(super::fraction64(probe.hash));
                chain.push(step.at_node(probe.owner));
            }
            if best.as_ref().is_none_or(|b| self.closer(&probe, b)) {
                best = Some(probe);
            }
        }
        let more = u64::from(self.probes).saturating_sub(MAX_WALK_STEPS as u64);
        if more > 0 {
            chain.push(Step::new(StepKind::Hash, format!("… and {more} more probes"), "not named"));
        }
        let best = best?;
        let at = self.points.position(best.point);
        let label = format!("the closest of the {} probes' points (probe {})", self.probes, best.seed);
        let (point, count, distance) = (best.point, self.points.len(), hex(best.distance, 64));
        let value = format!("point {point} of {count} at {}, distance {distance}", hex(at, 64));
        chain.push(Step::new(StepKind::Point, label, value).at_fraction(super::fraction64(at)).at_node(best.owner));
        Some(best.owner)
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        super::fraction64(XxHash3_64::oneshot_with_seed(0, key))
    }
    fn memory_bytes(&self) -> usize {
        self.points.memory_bytes() + self.members.nodes.iter().map(Node::memory_bytes).sum::<usize>()
    }
    fn lookup_cost(&self) -> u64 {
        u64::from(self.probes) / 3 + 1
    }
}
