//! Every algorithm side by side on the same nodes and keys: balance, what a join and a leave
//! move (against the ideal), and memory. Lookup cost is measured by the caller (natively with
//! criterion, in a browser with `performance.now()`), since wasm has no clock of its own.

use super::{Algorithm, Cluster, Options};
use crate::keys::KeySample;
use crate::migration::sample_between;
use crate::{limits, Error, NodeSpec};
use std::borrow::Cow;

/// One algorithm's figures: exact over the whole key space where its placement has arcs
/// (balance from the exact shares, moves from the exact migrations), else counted on the key
/// sample, with a margin of two standard errors.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub algorithm: Cow<'static, str>,
    /// The busiest node's load over the mean, per unit of weight (1 is perfect).
    pub max_over_mean: f64,
    /// Whether `max_over_mean` is exact (else counted on the sample).
    #[serde(default)]
    pub exact_balance: bool,
    /// Two standard errors of `max_over_mean` (0 where exact).
    #[serde(default)]
    pub max_over_mean_margin: f64,
    /// Whether the moves are exact (else counted on the sample).
    #[serde(default)]
    pub exact_moves: bool,
    /// Two standard errors of each move (0 where exact).
    #[serde(default)]
    pub moved_on_join_margin: f64,
    #[serde(default)]
    pub moved_on_leave_margin: f64,
    /// Keys moved when a node `joiner` joins, and the ideal (its fair share).
    pub moved_on_join: f64,
    pub ideal_join: f64,
    /// Keys moved when `left` leaves, and the ideal (its fair share).
    pub moved_on_leave: f64,
    pub ideal_leave: f64,
    /// The node that left: the middle one, or the last where only the last may leave (its
    /// entry's [`Leaving`](super::Leaving)).
    pub left: String,
    pub memory_bytes: usize,
}

/// The node name used for the join.
pub const JOINER: &str = "joiner";
const LOOKUPS_PER_KEY: usize = 5;

/// Figures for each algorithm in `algorithms` that accepts these nodes; an algorithm that
/// refuses them (weights where it has none, a bad name) reports the error instead.
pub fn compare(
    base: &Options,
    nodes: &[NodeSpec],
    sample: &KeySample,
    algorithms: &[Algorithm],
) -> Vec<(Algorithm, Result<Report, Error>)> {
    // Over a cap, every row says so and nothing runs.
    if let Err(e) = super::check_distinct(algorithms).and_then(|()| check_work(nodes, sample, algorithms)) {
        return algorithms.iter().map(|&a| (a, Err(e.clone()))).collect();
    }
    algorithms.iter().map(|&a| (a, report(base, a, nodes, sample))).collect()
}

/// The caps on one comparison (see [`limits`]).
pub fn check_work(nodes: &[NodeSpec], sample: &KeySample, algorithms: &[Algorithm]) -> Result<(), Error> {
    limits::check("nodes to compare", nodes.len() as u64, limits::MAX_COMPARE_NODES as u64)?;
    limits::check_keys("keys to compare on", &sample.keys, limits::MAX_SAMPLE_KEYS)?;
    let work = sample.keys.len() as u64 * algorithms.len() as u64;
    limits::check("algorithms × keys to compare", work, limits::MAX_COMPARE_WORK)
}

/// One algorithm's row of [`compare`], on its own: a page can run one per frame.
pub fn report(base: &Options, algorithm: Algorithm, nodes: &[NodeSpec], sample: &KeySample) -> Result<Report, Error> {
    if nodes.len() < 2 {
        return Err(Error::too_few("nodes", 2, nodes.len(), "comparing needs at least two nodes"));
    }
    check_work(nodes, sample, &[algorithm])?;
    let options = Options { algorithm, ..base.clone() };
    let cluster = Cluster::new(options, nodes.iter().cloned())?;
    // Every key is looked up five times: loads, then before and after a join and a leave.
    cluster.check_lookups(sample.keys.len().saturating_mul(LOOKUPS_PER_KEY))?;

    let n = sample.keys.len().max(1) as f64;
    let spread = cluster.spread();
    let exact_balance = spread.is_some();
    let (max_over_mean, max_over_mean_margin) = match spread {
        Some(exact) => (exact.max_over_mean, 0.0),
        None => {
            let mut loads = vec![0u64; nodes.len()];
            for key in &sample.keys {
                loads[cluster.locate_index(key)?] += 1;
            }
            let mean = n / nodes.len() as f64;
            let busiest = loads.iter().copied().max().unwrap_or(0) as f64;
            // The busiest count is about Poisson: ± 2√c keys.
            (busiest / mean, 2.0 * busiest.sqrt() / mean)
        }
    };
    // A fraction p of the sample's keys is binomial.
    let margin = |p: f64| 2.0 * (p * (1.0 - p) / n).sqrt();
    let exact = |a: &Cluster, b: &Cluster| match (a.arcs(), b.arcs()) {
        (Some(x), Some(y)) => crate::migration::exact_moved(x, y).ok().map(|m| m.total()),
        _ => None,
    };

    let total_weight: f64 = nodes.iter().map(|n| n.weight).sum();
    let mut joined = cluster.clone();
    joined.add(NodeSpec::new(JOINER))?;
    let join = exact(&cluster, &joined);
    let moved_on_join = match join {
        Some(f) => f,
        None => sample_between(&cluster, &joined, sample, 0.0)?.moved_fraction,
    };

    let leaver = algorithm.entry().leaving.leaver(nodes.len());
    let mut left = cluster.clone();
    left.remove(&nodes[leaver].name)?;
    let leave = exact(&cluster, &left);
    let moved_on_leave = match leave {
        Some(f) => f,
        None => sample_between(&cluster, &left, sample, 0.0)?.moved_fraction,
    };
    let exact_moves = join.is_some() && leave.is_some();

    Ok(Report {
        algorithm: algorithm.name().into(),
        max_over_mean,
        exact_balance,
        max_over_mean_margin,
        exact_moves,
        moved_on_join_margin: if join.is_some() { 0.0 } else { margin(moved_on_join) },
        moved_on_leave_margin: if leave.is_some() { 0.0 } else { margin(moved_on_leave) },
        moved_on_join,
        ideal_join: 1.0 / (total_weight + 1.0),
        moved_on_leave,
        ideal_leave: nodes[leaver].weight / total_weight,
        left: nodes[leaver].name.clone(),
        memory_bytes: cluster.memory_bytes(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consistent_algorithms_move_little_and_modulo_moves_most() {
        let nodes: Vec<NodeSpec> = (0..10).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
        // As many keys as every algorithm together may take (the comparison's cap).
        let sample = KeySample::generated("key:", limits::MAX_COMPARE_WORK as usize / Algorithm::ALL.len());
        let mut base = Options::new(Algorithm::Ring);
        base.set_keys(&sample);
        for (algorithm, report) in compare(&base, &nodes, &sample, &Algorithm::ALL) {
            let r = report.unwrap_or_else(|e| panic!("{}: {e}", algorithm.name()));
            let modulo =
                [Algorithm::Modulo, Algorithm::PythonMemcached, Algorithm::Memjs, Algorithm::SpymemcachedNative];
            if modulo.contains(&algorithm) {
                assert!(r.moved_on_join > 0.85, "{}: modulo moves ~10/11 on a join: {}", r.algorithm, r.moved_on_join);
            } else if matches!(
                algorithm,
                Algorithm::NginxHash | Algorithm::HaproxyMapBased | Algorithm::TwemproxyModula
            ) {
                // Hash mod total weight (through a rehash loop or a table): not consistent.
                assert!(r.moved_on_join > 0.5, "{}: {}", r.algorithm, r.moved_on_join);
            } else if algorithm != Algorithm::BoundedLoad {
                // Everything else moves about the joiner's fair share (1/11 ≈ 9%).
                assert!(r.moved_on_join < 0.2, "{}: {}", r.algorithm, r.moved_on_join);
            }
            // Bounded-load's cap is ⌈1.25·K/N⌉ on this very key set: max/mean ≤ 1.25. The
            // others are only roughly balanced; 2 is far above any of them here, but for
            // twemproxy's modula: its default hash, FNV-1a 64 truncated to 32 bits, taken mod N
            // on keys that differ in their last bytes, loads them unevenly (as the real one does),
            // and its ketama too, whose points spread well but whose keys' hashes cluster.
            let most = match algorithm {
                Algorithm::BoundedLoad => 1.25,
                Algorithm::TwemproxyModula | Algorithm::TwemproxyKetama => 3.0,
                _ => 2.0,
            };
            assert!(r.max_over_mean <= most, "{}: max/mean {}", r.algorithm, r.max_over_mean);
        }
    }
}
