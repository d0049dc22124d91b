//! Exact load analysis: arc lengths, not samples.
//!
//! Point `i` owns the positions `(p[i-1], p[i]]`; the first point also owns the wrap-around
//! `(p[last], 2^bits - 1]` and `[0, p[0]]`. A node's share is the sum of its points' arcs, an
//! integer, and the shares of all nodes add up to exactly `2^bits`.

use crate::{Config, Error, Node, NodeSpec, Ring};

/// A placement made of points on a ring of `size` positions, where a position belongs to
/// the first point at or after it (wrapping): ringlab's [`Ring`], and the real systems that
/// work the same way. Exact shares and exact migrations work on any of them.
pub trait Arcs {
    /// How many positions the ring has (`2^32`, `2^64`, 16384 slots, ...).
    fn size(&self) -> u128;
    /// How keys become positions, e.g. `"ring/xxh3/32"`: two placements can be compared
    /// position by position only when this is the same.
    fn key_mapping(&self) -> String;
    /// The number of points.
    fn point_count(&self) -> usize;
    /// Point `i` in clockwise order: position and owning node's index.
    fn point(&self, i: usize) -> (u64, usize);
    /// The index of the node that owns `position`.
    fn owner_of(&self, position: u64) -> Result<usize, Error>;
    /// The nodes, indexed as the points' owners are.
    fn node_list(&self) -> &[Node];
    /// The name of node `index`.
    fn node_name(&self, index: usize) -> &str {
        &self.node_list()[index].name
    }
    /// The number of nodes.
    fn node_count(&self) -> usize {
        self.node_list().len()
    }
    /// The index of the first point at or after `position`, wrapping to 0 (binary search).
    fn successor(&self, position: u64) -> usize {
        let (mut lo, mut hi) = (0, self.point_count());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.point(mid).0 < position {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo == self.point_count() {
            0
        } else {
            lo
        }
    }
}

impl Arcs for Ring {
    fn size(&self) -> u128 {
        self.config().bits.size()
    }
    fn key_mapping(&self) -> String {
        let rules = self.rules();
        match rules.keys_as_default() {
            true => format!("ring/{}/{}", self.config().hash, self.config().bits.bits()),
            // Positions mean other keys under another position or lookup rule.
            false => format!(
                "ring/{}/{}/{}/{}",
                self.config().hash,
                self.config().bits.bits(),
                rules.position.name(),
                rules.lookup.name()
            ),
        }
    }
    fn point_count(&self) -> usize {
        Ring::point_count(self)
    }
    /// The point's position and the node that serves it (its owner, or the next healthy
    /// node clockwise while the owner is down).
    fn point(&self, i: usize) -> (u64, usize) {
        (Ring::point(self, i).0, self.serving_owner(i))
    }
    fn owner_of(&self, position: u64) -> Result<usize, Error> {
        Ring::owner_of(self, position)
    }
    fn node_list(&self) -> &[Node] {
        self.nodes()
    }
}

/// Each node's share of the ring, in positions, indexed like the nodes.
///
/// ```
/// use ringlab::{analysis, Config, Ring};
/// let ring = Ring::with_nodes(Config::default(), ["a", "b", "c"])?;
/// let shares = analysis::shares(&ring);
/// assert_eq!(shares.iter().sum::<u128>(), 1u128 << 32);
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn shares<A: Arcs + ?Sized>(ring: &A) -> Vec<u128> {
    let points = (0..ring.point_count()).map(|i| ring.point(i));
    shares_of(points, ring.node_count(), ring.size())
}

/// Shares of the points `(position, owner)` given in clockwise order, on a ring of `size`.
pub(crate) fn shares_of(points: impl Iterator<Item = (u64, usize)>, nodes: usize, size: u128) -> Vec<u128> {
    let mut shares = vec![0u128; nodes];
    let mut first: Option<(u64, usize)> = None;
    let mut prev = 0u64;
    for (pos, owner) in points {
        match first {
            None => first = Some((pos, owner)),
            Some(_) => shares[owner] += u128::from(pos - prev),
        }
        prev = pos;
    }
    if let Some((pos, owner)) = first {
        // [0, first] plus (last, top]: size - last + first.
        shares[owner] += size - u128::from(prev) + u128::from(pos);
    }
    shares
}

/// How evenly load per unit of weight is spread over the nodes.
///
/// Each node's *load* is its share divided by its ideal share (weight / total weight), so 1
/// is perfect. The statistics are over nodes, with the population standard deviation.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Spread {
    /// Relative standard deviation of load (std / mean).
    pub rsd: f64,
    /// The most loaded node's load over the mean.
    pub max_over_mean: f64,
    /// The least loaded node's load over the mean.
    pub min_over_mean: f64,
}

impl Spread {
    /// The spread of these shares, for nodes of these weights. `None` with no nodes.
    pub fn of(shares: &[u128], weights: &[f64]) -> Option<Spread> {
        if shares.is_empty() {
            return None;
        }
        let total_weight: f64 = weights.iter().sum();
        let total: u128 = shares.iter().sum();
        let loads: Vec<f64> =
            shares.iter().zip(weights).map(|(&s, &w)| (s as f64 / total as f64) / (w / total_weight)).collect();
        let direct = Spread::of_loads(&loads);
        if direct.rsd.is_finite() && direct.max_over_mean.is_finite() {
            return Some(direct);
        }
        // A weight near 1e-300 beside one near 1 (the node still has its one point) makes a
        // load, or its square, past f64: the statistics are scale-free, so take the loads
        // over the largest one, through logarithms.
        let logs: Vec<f64> =
            shares.iter().zip(weights).map(|(&s, &w)| (s as f64 / total as f64).ln() - w.ln()).collect();
        let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Some(Spread::of_loads(&logs.iter().map(|l| (l - top).exp()).collect::<Vec<_>>()))
    }

    fn of_loads(loads: &[f64]) -> Spread {
        let n = loads.len() as f64;
        let mean = loads.iter().sum::<f64>() / n;
        let var = loads.iter().map(|l| (l - mean) * (l - mean)).sum::<f64>() / n;
        let max = loads.iter().copied().fold(f64::MIN, f64::max);
        let min = loads.iter().copied().fold(f64::MAX, f64::min);
        Spread { rsd: var.sqrt() / mean, max_over_mean: max / mean, min_over_mean: min / mean }
    }
}

/// The spread of a ring's exact shares.
pub fn spread(ring: &Ring) -> Option<Spread> {
    let weights: Vec<f64> = ring.nodes().iter().map(|n| n.weight).collect();
    Spread::of(&shares(ring), &weights)
}

/// The expected relative standard deviation of load for `nodes` equal nodes with `vnodes`
/// points each on a random ring: `sqrt((N - 1) / (N·V + 1))`.
///
/// ```
/// let rsd = ringlab::analysis::theoretical_rsd(10, 100);
/// assert!((rsd - (9.0f64 / 1001.0).sqrt()).abs() < 1e-12);
/// ```
pub fn theoretical_rsd(nodes: u32, vnodes: u32) -> f64 {
    let (n, v) = (f64::from(nodes), f64::from(vnodes));
    ((n - 1.0) / (n * v + 1.0)).sqrt()
}

/// A reader's estimate of a count of sample keys (how many move, how many a node gets),
/// judged against the count the engine made: right within two binomial standard deviations
/// of that count, `2·√(n·p·(1 − p))` with `p = counted / sample`, and at least one key. An
/// estimate from the idea ("about 1/5 of them") is then right, as the sample itself varies
/// that much around its expectation; one from another idea (`hash % N`'s 80%) is not.
///
/// ```
/// use ringlab::analysis::judge_estimate;
/// let j = judge_estimate(200.0, 183, 1000); // a fifth of 1,000 keys, against 183 counted
/// assert!(j.right && j.tolerance == 25);
/// assert!(!judge_estimate(800.0, 183, 1000).right); // hash % N's answer
/// ```
pub fn judge_estimate(guess: f64, counted: usize, sample: usize) -> Judgement {
    let n = sample.max(counted).max(1) as f64;
    let p = counted as f64 / n;
    let tolerance = ((2.0 * (n * p * (1.0 - p)).sqrt()).ceil() as usize).max(1);
    let right = guess.is_finite() && (guess - counted as f64).abs() <= tolerance as f64;
    Judgement { right, counted, tolerance }
}

/// What [`judge_estimate`] decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Judgement {
    pub right: bool,
    /// The engine's count.
    pub counted: usize,
    /// How far from it an estimate may be, in keys.
    pub tolerance: usize,
}

/// One step of a [`vnode_sweep`].
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SweepStep {
    pub vnodes: u32,
    pub spread: Spread,
    /// [`theoretical_rsd`] for this many nodes and vnodes.
    pub theoretical_rsd: f64,
}

/// The exact spread of the ring these nodes make, for each vnode count in `vnodes`.
///
/// Point labels `"{name}#{i}"` make the ring for `v` vnodes a subset of the ring for any
/// larger `v`, so the points are hashed and sorted once, for the largest count.
///
/// ```
/// use ringlab::{analysis, Config, NodeSpec};
/// let nodes: Vec<NodeSpec> = (0..10).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
/// let sweep = analysis::vnode_sweep(&Config::default(), &nodes, &[1, 10, 100, 1000])?;
/// assert!(sweep[3].spread.rsd < sweep[0].spread.rsd);
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn vnode_sweep(config: &Config, nodes: &[NodeSpec], vnodes: &[u32]) -> Result<Vec<SweepStep>, Error> {
    let mut job = SweepJob::new(config, nodes, vnodes)?;
    while !job.step()? {}
    Ok(job.steps().map(<[SweepStep]>::to_vec).unwrap_or_default())
}

/// Points a [`SweepJob`] hashes per step.
pub const SWEEP_PIECE_POINTS: usize = 20_000;

/// [`vnode_sweep`] in pieces: each [`step`](SweepJob::step) hashes at most
/// [`SWEEP_PIECE_POINTS`] points of the widest ring, and a last one sorts them and measures
/// every vnode count, so a page can run a sweep of a large ring as several short tasks.
///
/// ```
/// use ringlab::{analysis, Config, NodeSpec, Ring};
/// let nodes: Vec<NodeSpec> = (0..50).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
/// // 50 nodes × 1,000 vnodes: 50,000 points, hashed in three pieces, then measured.
/// let mut job = analysis::SweepJob::new(&Config::default(), &nodes, &[10, 1000])?;
/// let mut steps = 1;
/// while !job.step()? {
///     steps += 1;
/// }
/// assert_eq!(steps, 4);
/// // The 10-vnode step measures the ring those nodes make at 10 vnodes.
/// let ring = Ring::with_nodes(Config { vnodes: 10, ..Config::default() }, nodes.iter().map(|n| n.name.as_str()))?;
/// assert_eq!(job.steps().unwrap()[0].spread, analysis::spread(&ring).unwrap());
/// # Ok::<(), ringlab::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct SweepJob {
    config: Config,
    nodes: Vec<NodeSpec>,
    vnodes: Vec<u32>,
    /// Hashes labels as the widest ring would (`None`: no vnode counts, nothing to do).
    hasher: Option<Ring>,
    /// Points of each node in the widest ring.
    counts: Vec<u32>,
    /// Each point of the widest ring with its vnode index, hashed once: (position, owner, vnode).
    points: Vec<(u64, u32, u32)>,
    /// The next point to hash: node, vnode.
    next: (usize, u32),
    steps: Option<Vec<SweepStep>>,
}

impl SweepJob {
    /// Checks everything [`vnode_sweep`] checks before hashing anything.
    pub fn new(config: &Config, nodes: &[NodeSpec], vnodes: &[u32]) -> Result<SweepJob, Error> {
        crate::limits::check("vnode counts in a sweep", vnodes.len() as u64, crate::limits::MAX_SWEEP_STEPS as u64)?;
        let mut job = SweepJob {
            config: config.clone(),
            nodes: nodes.to_vec(),
            vnodes: vnodes.to_vec(),
            hasher: None,
            counts: Vec::with_capacity(nodes.len()),
            points: Vec::new(),
            next: (0, 0),
            steps: None,
        };
        let Some(&most) = vnodes.iter().max() else {
            job.steps = Some(Vec::new());
            return Ok(job);
        };
        let widest = Config { vnodes: most, ..config.clone() };
        // Checks the config, names and point cap as building the widest ring would.
        job.hasher = Some(Ring::new(widest.clone())?);
        crate::node::check_names(&[], nodes)?;
        let mut total = 0u64;
        for node in nodes {
            crate::node::check_weight(node.weight)?;
            let points = widest.points_for(node.weight)?;
            total += u64::from(points);
            if total > crate::MAX_POINTS {
                return Err(Error::TooManyPoints { points: total });
            }
            job.counts.push(points);
        }
        job.points.reserve_exact(total as usize);
        Ok(job)
    }

    /// Hashes the next piece of points, or (once all are hashed) measures every vnode count;
    /// `true` when the sweep is done.
    pub fn step(&mut self) -> Result<bool, Error> {
        if self.steps.is_some() {
            return Ok(true);
        }
        let Some(hasher) = &self.hasher else { return Ok(true) };
        if self.next.0 < self.nodes.len() {
            let mut label = Vec::new();
            let mut budget = SWEEP_PIECE_POINTS;
            while budget > 0 && self.next.0 < self.nodes.len() {
                let (owner, i) = self.next;
                if i >= self.counts[owner] {
                    self.next = (owner + 1, 0);
                    continue;
                }
                label.clear();
                label.extend_from_slice(self.nodes[owner].name.as_bytes());
                label.push(b'#');
                label.extend_from_slice(itoa::Buffer::new().format(i).as_bytes());
                self.points.push((hasher.key_position(&label), owner as u32, i));
                self.next.1 += 1;
                budget -= 1;
            }
            // Nodes left with nothing to hash are skipped now, so the last piece is the one
            // that measures.
            while self.next.0 < self.nodes.len() && self.next.1 >= self.counts[self.next.0] {
                self.next = (self.next.0 + 1, 0);
            }
            return Ok(false);
        }
        self.steps = Some(self.measure()?);
        Ok(true)
    }

    /// The sweep's steps, once done.
    pub fn steps(&self) -> Option<&[SweepStep]> {
        self.steps.as_deref()
    }

    /// Sorts the hashed points and measures the ring of each vnode count.
    fn measure(&mut self) -> Result<Vec<SweepStep>, Error> {
        let (nodes, points, config) = (&self.nodes, &mut self.points, &self.config);
        // The ring's order: by position, then (on a collision) by name.
        points.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0).then_with(|| nodes[a.1 as usize].name.cmp(&nodes[b.1 as usize].name))
        });
        let weights: Vec<f64> = nodes.iter().map(|n| n.weight).collect();
        self.vnodes
            .iter()
            .map(|&v| {
                let step = Config { vnodes: v, ..config.clone() };
                step.validate()?;
                let limits = weights.iter().map(|&w| step.points_for(w)).collect::<Result<Vec<u32>, _>>()?;
                let kept = points
                    .iter()
                    .filter(|&&(_, owner, vnode)| vnode < limits[owner as usize])
                    .map(|&(pos, owner, _)| (pos, owner as usize));
                let shares = shares_of(kept, weights.len(), config.bits.size());
                let spread = Spread::of(&shares, &weights).ok_or(Error::EmptyRing)?;
                let theoretical_rsd = theoretical_rsd(weights.len() as u32, v);
                Ok(SweepStep { vnodes: v, spread, theoretical_rsd })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Hash, RingBits};

    #[test]
    fn one_node_owns_everything() {
        let ring = Ring::with_nodes(Config::default(), ["solo"]).unwrap();
        assert_eq!(shares(&ring), vec![1u128 << 32]);
        let s = spread(&ring).unwrap();
        assert_eq!((s.rsd, s.max_over_mean), (0.0, 1.0));
    }

    #[test]
    fn shares_match_a_brute_force_count_on_a_tiny_ring() {
        // The ring's own six points; each node's share is counted here from the gaps between
        // them (the first point also takes [0, first] and (last, 2^32 - 1]).
        let ring = Ring::with_nodes(Config { vnodes: 3, ..Config::default() }, ["a", "b"]).unwrap();
        let pts: Vec<(u64, usize)> = (0..ring.point_count()).map(|i| ring.point(i)).collect();
        let mut expected = [0u128; 2];
        for w in pts.windows(2) {
            expected[w[1].1] += u128::from(w[1].0 - w[0].0);
        }
        let (first, last) = (pts[0], pts[pts.len() - 1]);
        expected[first.1] += u128::from(first.0) + 1 + u128::from(u64::from(u32::MAX) - last.0);
        assert_eq!(shares(&ring), expected.to_vec());
    }

    #[test]
    fn sixty_four_bit_shares_sum_exactly() {
        let config = Config { hash: Hash::Murmur3, bits: RingBits::B64, vnodes: 50 };
        let ring = Ring::with_nodes(config, ["a", "b", "c", "d"]).unwrap();
        assert_eq!(shares(&ring).iter().sum::<u128>(), 1u128 << 64);
    }

    #[test]
    fn sweep_equals_rings_built_one_by_one() {
        let nodes = [NodeSpec::new("a"), NodeSpec::new("b").weight(2.5), NodeSpec::new("c")];
        let counts = [1, 3, 17, 100];
        let sweep = vnode_sweep(&Config::default(), &nodes, &counts).unwrap();
        for (step, &v) in sweep.iter().zip(&counts) {
            let ring = Ring::with_nodes(Config { vnodes: v, ..Config::default() }, nodes.clone()).unwrap();
            assert_eq!(step.spread, spread(&ring).unwrap(), "vnodes {v}");
        }
    }
}

#[cfg(test)]
mod spread_of_extreme_weights {
    use super::Spread;

    /// A node of weight 1e-300 beside one of weight 1 (each with its one point, half the
    /// ring) is 1e300 times over its fair share: the spread says so in finite numbers
    /// (it read "inf%" in the page). Two loads, 1e300·x and x: mean ≈ half the top, rsd 1.
    #[test]
    fn a_load_past_f64_still_gives_finite_statistics() {
        for tiny in [1e-300, 5e-324] {
            let s = Spread::of(&[1, 1], &[tiny, 1.0]).unwrap();
            assert!((s.rsd - 1.0).abs() < 1e-9, "{tiny:e}: {s:?}");
            assert!((s.max_over_mean - 2.0).abs() < 1e-9 && s.min_over_mean < 1e-200, "{tiny:e}: {s:?}");
        }
        // Ordinary weights keep the direct arithmetic.
        let s = Spread::of(&[3, 1], &[1.0, 1.0]).unwrap();
        assert_eq!((s.rsd, s.max_over_mean, s.min_over_mean), (0.5, 1.5, 0.5));
    }
}
