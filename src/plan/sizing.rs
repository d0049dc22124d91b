//! Sizing a ring: the vnodes per node that keep the busiest node within a target of its
//! share, measured on the engine's own exact shares (arcs), with and without the worst
//! single node lost.

use crate::analysis;
use crate::work::Cost;
use crate::{limits, Config, Error, NodeSpec, Ring};

/// What to size.
#[derive(Clone, Debug, PartialEq)]
pub struct SizingOptions {
    /// Nodes on the ring, all of weight 1, named `node-0`, `node-1`, ...
    pub nodes: usize,
    /// The target: the busiest node's share over the mean share, above 1 (1.1 = 10% over).
    pub max_over_mean: f64,
    /// Also after losing the node whose loss is worst.
    pub after_losing: bool,
    /// The ring's hash and size (its `vnodes` is what is sized).
    pub config: Config,
    /// Items the cluster stores and their size, for the memory per node.
    pub items: f64,
    pub item_bytes: f64,
}

impl Default for SizingOptions {
    fn default() -> SizingOptions {
        SizingOptions {
            nodes: 10,
            max_over_mean: 1.1,
            after_losing: false,
            config: Config::default(),
            items: 1e6,
            item_bytes: 1024.0,
        }
    }
}

/// A real system's default vnodes, and the spread ringlab's ring reaches with as many.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SizingDefault {
    pub system: &'static str,
    pub vnodes: u32,
    /// The busiest node over the mean at that count (after losing the worst node, if asked).
    pub max_over_mean: f64,
    pub meets: bool,
}

/// The answer.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sizing {
    /// The fewest vnodes found that meet the target (to within [`PRECISION`]), or `None` if
    /// none within the point cap.
    pub vnodes: Option<u32>,
    /// The busiest node over the mean at that count, on all nodes.
    pub max_over_mean: f64,
    /// The same after losing the worst node (when asked).
    pub after_losing: Option<f64>,
    /// The normal approximation of each node's share (a sum of `V` exponential spacings, so
    /// relative deviation `1/√V`, and the busiest of N about `√(2 ln N)` deviations over):
    /// `V ≈ 2 ln N / (target − 1)²`. The measured answer is the engine's own.
    pub estimate: u32,
    /// The busiest node's bytes: items × bytes × its share.
    pub bytes_per_node: f64,
    /// The ring's own memory, which each client holds.
    pub ring_bytes: usize,
    /// Real systems' defaults, measured the same way on this ring.
    pub defaults: Vec<SizingDefault>,
}

/// Every candidate ring of one search, from one list of points: the ring of `v` vnodes per
/// node holds the labels `0..v` of each node, so each candidate is the points of the largest
/// hashed so far whose label index is under `v`, already in order. Labels are hashed once
/// each and sorted once (merged as the search asks for more), where building each
/// candidate's ring hashed and sorted them all again, about twenty times.
struct Candidates {
    /// An empty ring of the search's settings: its labels, positions and checks.
    ring: Ring,
    names: Vec<String>,
    /// The nodes in name order: a collision is served by the smaller name (the default
    /// [`Ties`](crate::ring_rules::Ties)), so points sort by position, then place in this.
    by_name: Vec<usize>,
    /// Labels hashed per node so far.
    hashed: u32,
    /// `(position, place << 24 | label index)` in the rings' order: the pair the ring's own
    /// points are, so one sort serves both.
    points: Vec<(u64, u32)>,
}

/// Bits of a point's label index in [`Candidates::points`].
const INDEX_BITS: u32 = 24;
const _: () = assert!(limits::MAX_VNODES < 1 << INDEX_BITS && limits::MAX_SIZING_NODES <= 1 << (32 - INDEX_BITS));

impl Candidates {
    fn new(options: &SizingOptions) -> Result<Candidates, Error> {
        let names: Vec<String> = (0..options.nodes).map(|i| format!("node-{i}")).collect();
        let ring = Ring::new(Config { vnodes: 1, ..options.config })?;
        // Each node's place by counting the names before it: at most 200² comparisons, and
        // no sort of its own in the engine's code.
        let mut by_name = vec![0; names.len()];
        for (node, name) in names.iter().enumerate() {
            by_name[names.iter().filter(|other| *other < name).count()] = node;
        }
        Ok(Candidates { ring, names, by_name, hashed: 0, points: Vec::new() })
    }

    /// The points of the ring of `vnodes` per node, `(position, owner)` in clockwise order.
    fn ring_of(&mut self, vnodes: u32, cap: u32) -> Result<Vec<(u64, usize)>, Error> {
        if vnodes > self.hashed {
            // Twice as many as hashed, as the search doubles: each label hashed once.
            self.hash_up_to(vnodes.max(self.hashed.saturating_mul(2)).min(cap).max(vnodes))?;
        }
        let mask = (1 << INDEX_BITS) - 1;
        Ok(self
            .points
            .iter()
            .filter(|p| p.1 & mask < vnodes)
            .map(|p| (p.0, self.by_name[(p.1 >> INDEX_BITS) as usize]))
            .collect())
    }

    fn hash_up_to(&mut self, vnodes: u32) -> Result<(), Error> {
        let work = self
            .names
            .iter()
            .map(|name| self.ring.hashing_work(name, vnodes).saturating_sub(self.ring.hashing_work(name, self.hashed)))
            .fold(0, u64::saturating_add);
        crate::work::charge(Cost::HashedBytes, work)?;
        let mut label = Vec::new();
        let mut fresh = Vec::with_capacity(self.names.len() * (vnodes - self.hashed) as usize);
        for (place, &node) in self.by_name.iter().enumerate() {
            for v in self.hashed..vnodes {
                let position = self.ring.label_position(&self.names[node], v, &mut label);
                fresh.push((position, (place as u32) << INDEX_BITS | v));
            }
        }
        fresh.sort_unstable();
        let old = std::mem::take(&mut self.points);
        self.points = Vec::with_capacity(old.len() + fresh.len());
        let mut fresh = fresh.into_iter().peekable();
        for p in old {
            while let Some(f) = fresh.next_if(|f| *f < p) {
                self.points.push(f);
            }
            self.points.push(p);
        }
        self.points.extend(fresh);
        self.hashed = vnodes;
        Ok(())
    }
}

/// The worst spread of a candidate ring: all nodes, and optionally after losing the worst one.
fn spread_of(options: &SizingOptions, points: &[(u64, usize)], size: u128) -> Result<(f64, Option<f64>), Error> {
    // Its points are walked once for the shares, and once more for the losses.
    let walks = if options.after_losing { 2 } else { 1 };
    crate::work::charge(Cost::Probes, points.len() as u64 * walks)?;
    let shares = analysis::shares_of(points.iter().copied(), options.nodes, size);
    let mean = size as f64 / options.nodes as f64;
    let all = shares.iter().copied().max().unwrap_or(0) as f64 / mean;
    let lost = if options.after_losing && options.nodes > 1 { Some(worst_loss(points, &shares, size)) } else { None };
    Ok((all, lost))
}

/// The busiest node over the mean after losing each node in turn, at its worst: a lost
/// node's arcs go to the owner of the next point that is not its own, so one walk over the
/// points gives every loss exactly.
fn worst_loss(points: &[(u64, usize)], shares: &[u128], top: u128) -> f64 {
    let n = shares.len();
    let count = points.len();
    let size = top as f64;
    // gained[lost * n + to]: positions `to` gains when `lost` leaves (a table: at most
    // MAX_SIZING_NODES² cells, and a map's insert per point took as long as the build).
    let mut gained = vec![0u128; n * n];
    for i in 0..count {
        let (at, owner) = points[i];
        let previous = if i == 0 { points[count - 1].0 } else { points[i - 1].0 };
        let arc =
            if i == 0 { u128::from(at) + 1 + (top - 1 - u128::from(previous)) } else { u128::from(at - previous) };
        let next = (1..count).map(|k| points[(i + k) % count].1).find(|&o| o != owner);
        if let Some(to) = next {
            gained[owner * n + to] += arc;
        }
    }
    // The two largest shares, for the nodes a loss leaves as they were.
    let first = (0..n).max_by_key(|&o| (shares[o], std::cmp::Reverse(o))).unwrap_or(0);
    let second = (0..n).filter(|&o| o != first).max_by_key(|&o| (shares[o], std::cmp::Reverse(o)));
    let mean = size / (n - 1) as f64;
    (0..n)
        .map(|lost| {
            let untouched = if lost == first { second.map_or(0, |o| shares[o]) } else { shares[first] };
            let row = &gained[lost * n..(lost + 1) * n];
            let grown =
                row.iter().enumerate().filter(|&(_, &g)| g > 0).map(|(to, &g)| shares[to] + g).max().unwrap_or(0);
            untouched.max(grown) as f64 / mean
        })
        .fold(0.0, f64::max)
}

/// The fewest vnodes per node that keep the busiest node within `max_over_mean` of the mean
/// (doubling, then halving the interval: each candidate measured on the exact shares), to
/// within [`PRECISION`], or `None` within the point cap.
///
/// Each candidate is a ring up to the point cap, read from one list of labels hashed once
/// (`Candidates`): doubling measures at most 13 (their points add up to twice the last
/// one's), halving at most 5 (it stops at a relative precision instead of walking to 1), the
/// real systems' defaults 4 more, and the answer's ring is built once for its memory. The
/// hashing and each walk are charged to the work meter, and the whole search is one call of
/// it ([`work::call`](crate::work::call)).
///
/// ```
/// use ringlab::plan::{vnodes_for, SizingOptions};
/// let s = vnodes_for(&SizingOptions { nodes: 10, max_over_mean: 1.2, ..SizingOptions::default() })?;
/// assert!(s.max_over_mean <= 1.2);
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn vnodes_for(options: &SizingOptions) -> Result<Sizing, Error> {
    crate::work::call(|| search(options))
}

/// How near the fewest the answer is: the halving stops once the last miss is within
/// `1 / PRECISION` of the answer (under 3%; at most 72 vnodes over at the cap of 2,500 for 200
/// nodes), which takes 5 builds where walking to 1 took 10.
pub const PRECISION: u32 = 32;

fn search(options: &SizingOptions) -> Result<Sizing, Error> {
    if options.nodes == 0 {
        return Err(Error::out_of_range(
            "nodes",
            0.0,
            (1.0, limits::MAX_SIZING_NODES as f64),
            "sizing needs at least one node",
        ));
    }
    limits::check("nodes in a sizing", options.nodes as u64, limits::MAX_SIZING_NODES as u64)?;
    if !(options.max_over_mean.is_finite() && options.max_over_mean > 1.0 && options.max_over_mean <= 10.0) {
        return Err(Error::out_of_range(
            "maxOverMean",
            options.max_over_mean,
            (1.0, 10.0),
            "the target (busiest over mean) is above 1, at most 10",
        ));
    }
    let fine = |x: f64| x.is_finite() && (0.0..=super::MAX_PLAN_QUANTITY).contains(&x);
    if !fine(options.items) || !fine(options.item_bytes) {
        let option = if fine(options.items) { "itemBytes" } else { "items" };
        return Err(Error::invalid_option(option, "items and item bytes are ≥ 0, at most 1e15"));
    }
    // The formula's estimate, a whole number of vnodes: a target just above 1 makes it pass
    // any integer (1 + 1e-9 gives 1e19 for ten nodes), so the target's range starts where the
    // estimate still fits a u32, never an estimate cut to one.
    let ln = libm::log(options.nodes.max(2) as f64);
    let estimate = libm::ceil(2.0 * ln / (options.max_over_mean - 1.0).powi(2));
    if estimate > f64::from(u32::MAX) {
        let min = 1.0 + libm::sqrt(2.0 * ln / f64::from(u32::MAX));
        return Err(Error::out_of_range(
            "maxOverMean",
            options.max_over_mean,
            (min, 10.0),
            format!(
                "the target (busiest over mean) must be above {} for {} nodes, at most 10: nearer 1, the estimate \
                 2·ln(nodes) / (target − 1)² passes 4294967295 vnodes (got {})",
                crate::decimal::shortest(min),
                options.nodes,
                crate::decimal::shortest(options.max_over_mean)
            ),
        ));
    }
    let estimate = estimate as u32;
    let cap = ((limits::MAX_POINTS / options.nodes as u64) as u32).min(limits::MAX_VNODES);
    let mut candidates = Candidates::new(options)?;
    let size = options.config.bits.size();
    let mut worst = |v: u32| -> Result<(f64, Option<f64>), Error> {
        let points = candidates.ring_of(v, cap)?;
        spread_of(options, &points, size)
    };
    let meets = |s: &(f64, Option<f64>)| s.0.max(s.1.unwrap_or(0.0)) <= options.max_over_mean;
    // Doubling, then bisection between the last miss and the first hit.
    let (mut miss, mut hit, mut at_cap) = (0u32, None, None);
    let mut v = 1u32;
    while v <= cap {
        let s = worst(v)?;
        if meets(&s) {
            hit = Some((v, s));
            break;
        }
        miss = v;
        if v == cap {
            at_cap = Some(s);
        }
        if v == cap {
            break;
        }
        v = (v * 2).min(cap);
    }
    if let Some((mut best, mut at)) = hit {
        while best - miss > (best / PRECISION).max(1) {
            let mid = miss + (best - miss) / 2;
            let s = worst(mid)?;
            if meets(&s) {
                (best, at) = (mid, s);
            } else {
                miss = mid;
            }
        }
        hit = Some((best, at));
    }
    let defaults = [
        ("libketama (160 points per server)", 160),
        ("Envoy ring_hash (minimum ring 1,024)", 1024u32.div_ceil(options.nodes as u32).max(1)),
        ("Cassandra 4.0 (num_tokens 16)", 16),
        ("groupcache (50 replicas)", 50),
    ]
    .into_iter()
    .filter(|&(_, v)| v <= cap)
    .map(|(system, v)| {
        let s = worst(v)?;
        Ok(SizingDefault { system, vnodes: v, max_over_mean: s.0.max(s.1.unwrap_or(0.0)), meets: meets(&s) })
    })
    .collect::<Result<Vec<_>, Error>>()?;
    let per_node = options.items * options.item_bytes / options.nodes as f64;
    let (vnodes, (all, lost)) = match (hit, at_cap) {
        (Some((v, s)), _) => (Some(v), s),
        (None, Some(s)) => (None, s),
        (None, None) => (None, worst(cap)?),
    };
    // The ring's own memory, as the ring answered is built.
    let specs: Vec<NodeSpec> = candidates.names.iter().map(|name| NodeSpec::new(name.as_str())).collect();
    let ring = Ring::with_nodes(Config { vnodes: vnodes.unwrap_or(cap), ..options.config }, specs)?;
    // Where the target is met, the busiest node after a loss holds its share of one node fewer.
    let busiest = match vnodes {
        Some(_) => all.max(lost.unwrap_or(0.0) * options.nodes as f64 / (options.nodes - 1).max(1) as f64),
        None => all,
    };
    Ok(Sizing {
        vnodes,
        max_over_mean: all,
        after_losing: lost,
        estimate,
        bytes_per_node: per_node * busiest,
        ring_bytes: ring.memory_bytes(),
        defaults,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each candidate is, point for point, the ring built at its count: on a 32-bit MD5 ring
    /// of 200 nodes, points collide, and the smaller name comes first as the ring orders it.
    #[test]
    fn each_candidate_is_the_ring_built_at_its_count() {
        let options = SizingOptions {
            nodes: 200,
            config: Config { hash: crate::Hash::Md5, ..Config::default() },
            ..SizingOptions::default()
        };
        let mut candidates = Candidates::new(&options).unwrap();
        let mut collided = 0;
        for vnodes in [1, 3, 2, 700, 1500, 1000] {
            let points = candidates.ring_of(vnodes, 1500).unwrap();
            let config = Config { vnodes, ..options.config.clone() };
            let ring = Ring::with_nodes(config, candidates.names.iter().map(String::as_str)).unwrap();
            let built: Vec<(u64, usize)> = (0..ring.point_count()).map(|i| ring.point(i)).collect();
            assert!(points == built, "{vnodes} vnodes");
            collided +=
                (1..built.len()).filter(|&i| built[i].0 == built[i - 1].0 && built[i].1 != built[i - 1].1).count();
        }
        assert!(collided > 0, "no two nodes collided: the order of a collision is not tested");
    }
}
