//! What a change costs a cache tier: items that lose their node, bytes to move or refetch,
//! and the extra misses per second right after the change, beside the same figures for
//! `hash % N`.
//!
//! **The model.** A change moves a fraction `f` of the key space to other nodes (a node
//! that fails loses its keys: its fraction is `f`). With `items` cached items spread like
//! the keys:
//!
//! - items moved (or invalidated) = `items × f`, rounded;
//! - bytes to transfer (or refetch from the backing store) = items moved × average size;
//! - each moved item misses once before its new node has it, so right after the change
//!   the tier takes `requests/s × t` extra misses per second, `t` being the fraction of
//!   *traffic* that moved (`f` when every key is as popular as any other; a key list or a
//!   Zipf sample gives its own `t`). The rate falls as the moved items come back; in all,
//!   at most `items moved` extra misses (one per moved item that is asked for again).
//!
//! ```
//! use ringlab::cost::{self, Workload};
//! let tier = Workload { items: 10_000_000, item_bytes: 1024.0, requests_per_sec: 50_000.0 };
//! // A ring of 10 nodes going to 11 moves about 1/11 of the keys; hash % N moves 10/11.
//! let c = cost::compare(&tier, 1.0 / 11.0, 1.0 / 11.0, cost::modulo_fraction(10, 11))?;
//! assert_eq!(c.placement.items_moved, 909_091);
//! assert_eq!(c.modulo.items_moved, 9_090_909);
//! # Ok::<(), ringlab::Error>(())
//! ```

use crate::algo::down::{self, DownKind};
use crate::algo::loads::list_moved;
use crate::algo::Cluster;
use crate::keys::{KeyList, KeySample};
use crate::Error;

/// A cache tier's size and load.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Workload {
    /// Cached items, all nodes together.
    pub items: u64,
    /// Average item size, in bytes.
    pub item_bytes: f64,
    /// Requests per second, all nodes together.
    pub requests_per_sec: f64,
}

impl Workload {
    /// Checks the figures: sizes and rates finite and not negative.
    pub fn validate(&self) -> Result<(), Error> {
        // Items travel to JavaScript as numbers: whole ones are exact up to 2^53.
        if self.items > 1 << 53 {
            return Err(Error::out_of_range(
                "items",
                self.items as f64,
                (0.0, 2f64.powi(53)),
                format!("the item count must be at most 2^53 (got {})", self.items),
            ));
        }
        let figures = [
            ("itemBytes", "the average item size", self.item_bytes),
            ("requestsPerSec", "the request rate", self.requests_per_sec),
        ];
        for (option, what, v) in figures {
            if !(v.is_finite() && v >= 0.0) {
                let words = format!("{what} must be a finite number ≥ 0 (got {v})");
                return Err(Error::out_of_range(option, v, (0.0, f64::INFINITY), words));
            }
        }
        Ok(())
    }
}

/// The cost of one change for one scheme.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeCost {
    /// The fraction of keys that changed node.
    pub moved_fraction: f64,
    /// Items that must move to (or be refetched by) their new node.
    pub items_moved: u64,
    /// Bytes to transfer: items moved × average size.
    pub bytes_moved: f64,
    /// Extra misses per second right after the change: request rate × moved traffic fraction.
    pub extra_misses_per_sec: f64,
}

/// A change's cost, beside what `hash % N` would cost for the same change of node count.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CostComparison {
    pub placement: ChangeCost,
    pub modulo: ChangeCost,
}

/// The cost of moving `moved_fraction` of the keys, `moved_traffic_fraction` of the traffic.
pub fn change_cost(workload: &Workload, moved_fraction: f64, moved_traffic_fraction: f64) -> Result<ChangeCost, Error> {
    workload.validate()?;
    for (what, f) in [("the moved fraction", moved_fraction), ("the moved traffic fraction", moved_traffic_fraction)] {
        if !(0.0..=1.0).contains(&f) {
            return Err(Error::out_of_range(what, f, (0.0, 1.0), format!("{what} must be between 0 and 1 (got {f})")));
        }
    }
    // u64 → f64 rounds above 2^53 items, far beyond any tier; the product is at most `items`.
    let items_moved = (workload.items as f64 * moved_fraction).round() as u64;
    Ok(ChangeCost {
        moved_fraction,
        items_moved,
        bytes_moved: items_moved as f64 * workload.item_bytes,
        extra_misses_per_sec: workload.requests_per_sec * moved_traffic_fraction,
    })
}

/// [`change_cost`] for the placement and for `hash % N` (whose keys and traffic move alike:
/// it moves keys regardless of their popularity).
pub fn compare(
    workload: &Workload,
    moved_fraction: f64,
    moved_traffic_fraction: f64,
    modulo_fraction: f64,
) -> Result<CostComparison, Error> {
    Ok(CostComparison {
        placement: change_cost(workload, moved_fraction, moved_traffic_fraction)?,
        modulo: change_cost(workload, modulo_fraction, modulo_fraction)?,
    })
}

/// The exact fraction of 64-bit hash values `h` with `h % before != h % after`: what
/// `hash % N` moves when the node count goes from `before` to `after` (a failed node makes
/// a `hash % N` client go from N to N − 1 servers). 0 when the count does not change.
///
/// ```
/// let f = ringlab::cost::modulo_fraction(10, 11);
/// assert!((f - 10.0 / 11.0).abs() < 1e-12);
/// ```
pub fn modulo_fraction(before: u64, after: u64) -> f64 {
    let size = 1u128 << 64;
    crate::migration::modulo_moved(before, after, size) as f64 / size as f64
}

/// The cost of going from `before` to `after` (any change, a node going down or up), with
/// `hash % N` for the same change in the number of healthy nodes.
///
/// The moved fraction is exact when both states have arcs (`migration::between`), plus, for
/// algorithms whose down nodes' keys are unavailable (Redis Cluster, jump, ...), the exact
/// share of the nodes that went down. Otherwise it is counted on `keys` (the user's key
/// list, whose counts also give the moved *traffic*), or on `key:0` .. `key:9999`.
///
/// ```
/// use ringlab::algo::{Algorithm, Cluster, Options};
/// use ringlab::cost::{self, Workload};
/// let before = Cluster::new(Options::new(Algorithm::RedisCluster), ["m1", "m2", "m3"])?;
/// let mut after = before.clone();
/// after.set_down("m1", true)?;
/// let tier = Workload { items: 1_000_000, item_bytes: 512.0, requests_per_sec: 20_000.0 };
/// let c = cost::of_change(&before, &after, &tier, None)?;
/// assert_eq!(c.lost_fraction, 5461.0 / 16384.0); // m1's slots: unavailable, not moved
/// assert_eq!(c.modulo.moved_fraction, cost::modulo_fraction(3, 2));
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn of_change(
    before: &Cluster,
    after: &Cluster,
    workload: &Workload,
    keys: Option<&KeyList>,
) -> Result<ChangeReport, Error> {
    let modulo = modulo_fraction(before.healthy_count() as u64, after.healthy_count() as u64);
    let newly_down: Vec<usize> = (0..after.nodes().len())
        .filter(|&i| after.is_down_at(i) && !before.is_down(&after.nodes()[i].name).unwrap_or(false))
        .collect();
    let unavailable_kind = down::rule(after.algorithm()).kind == DownKind::Unavailable;
    let exact = match (keys, before.arcs(), after.arcs()) {
        (None, Some(a), Some(b)) => {
            let moved = crate::migration::between(a, b)?.moved_fraction;
            let lost = if unavailable_kind {
                let shares = after.exact_shares().unwrap_or_default();
                newly_down.iter().map(|&i| shares.get(i).copied().unwrap_or(0.0)).sum()
            } else {
                0.0
            };
            Some((moved, lost))
        }
        _ => None,
    };
    let (moved, lost, traffic, exact) = match exact {
        Some((moved, lost)) => (moved, lost, moved + lost, true),
        None => {
            let generated;
            let list = match keys {
                Some(list) => list,
                None => {
                    generated = KeyList {
                        keys: KeySample::generated("key:", 10_000).keys,
                        counts: vec![1; 10_000],
                        csv: false,
                    };
                    &generated
                }
            };
            let m = list_moved(before, after, list)?;
            (m.moved_fraction, m.lost_fraction, m.moved_traffic_fraction + m.lost_traffic_fraction, false)
        }
    };
    Ok(ChangeReport {
        placement: change_cost(workload, (moved + lost).min(1.0), traffic.min(1.0))?,
        modulo: change_cost(workload, modulo, modulo)?,
        lost_fraction: lost,
        exact,
    })
}

/// [`of_change`]'s answer.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeReport {
    /// The placement's cost: keys moved plus keys lost (a down owner nothing replaces).
    pub placement: ChangeCost,
    /// `hash % N` going between the same numbers of healthy nodes.
    pub modulo: ChangeCost,
    /// The part of `placement.moved_fraction` that is lost, not moved.
    pub lost_fraction: f64,
    /// Whether the fractions are exact (arcs) or counted on keys.
    pub exact: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_workloads_are_refused() {
        let bad = Workload { items: 1, item_bytes: f64::NAN, requests_per_sec: 1.0 };
        assert_eq!(change_cost(&bad, 0.5, 0.5).unwrap_err().code(), "invalid-option");
        let ok = Workload { items: 1, item_bytes: 1.0, requests_per_sec: -1.0 };
        assert!(change_cost(&ok, 0.5, 0.5).is_err());
        let ok = Workload { items: 1, item_bytes: 1.0, requests_per_sec: 1.0 };
        assert!(change_cost(&ok, 1.5, 0.5).is_err());
        assert!(change_cost(&ok, 0.5, -0.1).is_err());
    }

    #[test]
    fn figures_follow_the_model() {
        let w = Workload { items: 1_000, item_bytes: 2_000.0, requests_per_sec: 300.0 };
        let c = change_cost(&w, 0.25, 0.5).unwrap();
        assert_eq!((c.items_moved, c.bytes_moved, c.extra_misses_per_sec), (250, 500_000.0, 150.0));
    }

    #[test]
    fn modulo_fraction_counts_hash_values() {
        // Brute force over a small hash space: the fraction is the same in every period of
        // lcm(n, m) values, so 2^64 (a multiple of neither) differs only by the last partial period.
        for (n, m) in [(10u64, 11u64), (5, 4), (3, 3), (8, 7)] {
            let brute = (0..(n * m * 50)).filter(|h| h % n != h % m).count() as f64 / (n * m * 50) as f64;
            assert!((modulo_fraction(n, m) - brute).abs() < 1e-15, "{n} -> {m}");
        }
    }
}
