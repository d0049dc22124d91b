//! What moves when a ring changes: exactly (arcs) and on a key sample, between two states
//! ([`between`], [`sample_between`]) or between every pair of a sequence of them
//! ([`MovedTable`]: a staged change's steps, a rollout's epochs).

use crate::analysis::{self, Arcs};
pub use crate::keys::{for_each_generated, KeySample};
use crate::{Error, Node, Ring};
use std::collections::BTreeMap;

/// A run of positions `start..=end` whose owner changed.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MovedArc {
    pub start: u64,
    pub end: u64,
    pub from: String,
    pub to: String,
}

/// The exact difference between two states of a placement with the same key mapping.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Migration {
    /// The arcs whose owner changed, in clockwise order from 0 (the wrap-around is split at 0).
    pub arcs: Vec<MovedArc>,
    /// How many positions changed owner.
    pub moved: u128,
    /// `moved / size`.
    pub moved_fraction: f64,
    /// The least any scheme could move to reach the new shares:
    /// the sum over nodes of `max(0, share after - share before)`, as a fraction.
    /// On a join this is the new node's share; on a leave, the leaver's.
    pub ideal_fraction: f64,
    /// What moved from one node to another that are both in each state: none on a ring of
    /// fixed points, all of the excess over the ideal where a change redraws every node's
    /// points (Envoy's ring scaled to its minimum size, Maglev's table).
    pub between_stayed_fraction: f64,
    /// What `hash % N` would move going from the old to the new node count (nodes
    /// appended or dropped at the end of the list), exactly over the ring's hash values.
    pub modulo_fraction: f64,
}

/// The exact migration from `before` to `after`.
///
/// ```
/// use ringlab::{migration, Config, Ring};
/// let before = Ring::with_nodes(Config::default(), ["a", "b", "c"])?;
/// let mut after = before.clone();
/// after.add("d")?;
/// let m = migration::between(&before, &after)?;
/// assert!(m.arcs.iter().all(|arc| arc.to == "d"), "a join moves keys only onto the new node");
/// assert_eq!(m.moved_fraction, m.ideal_fraction);
/// assert!(m.modulo_fraction > 0.7);
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn between<A: Arcs + ?Sized, B: Arcs + ?Sized>(before: &A, after: &B) -> Result<Migration, Error> {
    if before.key_mapping() != after.key_mapping() || before.size() != after.size() {
        let words = format!(
            "exact migration needs both states to map keys the same way ({} vs {})",
            before.key_mapping(),
            after.key_mapping()
        );
        return Err(Error::mismatch("the two states", words));
    }
    if before.point_count() == 0 || after.point_count() == 0 {
        return Err(Error::EmptyRing);
    }
    let size = before.size();
    let same = same_nodes(before.node_list(), after.node_list());
    let was = same_nodes(after.node_list(), before.node_list());
    // A node "stayed" if it owns positions in both states (one marked down owns none after):
    // known only once the walk has passed every position, so moves between two nodes in
    // both lists are kept until then.
    let (mut owned_before, mut owned_after) = (vec![false; before.node_count()], vec![false; after.node_count()]);
    let mut between_kept: Vec<(usize, usize, u128)> = Vec::new();
    let mut arcs: Vec<MovedArc> = Vec::new();
    let mut moved = 0u128;
    walk(before, after, |start, end, from, to| {
        owned_before[from] = true;
        owned_after[to] = true;
        if same[from] == Some(to) {
            return;
        }
        moved += u128::from(end - start) + 1;
        if let (Some(j), Some(i)) = (same[from], was[to]) {
            between_kept.push((j, i, u128::from(end - start) + 1));
        }
        let (from, to) = (before.node_name(from), after.node_name(to));
        match arcs.last_mut() {
            Some(last) if last.end.checked_add(1) == Some(start) && last.from == from && last.to == to => {
                last.end = end;
            }
            _ => arcs.push(MovedArc { start, end, from: from.to_string(), to: to.to_string() }),
        }
    });
    let between_stayed: u128 =
        between_kept.iter().filter(|&&(j, i, _)| owned_after[j] && owned_before[i]).map(|&(_, _, n)| n).sum();
    let modulo = modulo_moved(before.node_count() as u64, after.node_count() as u64, size);
    let fraction = |x: u128| x as f64 / size as f64;
    Ok(Migration {
        arcs,
        moved,
        moved_fraction: fraction(moved),
        ideal_fraction: fraction(ideal_moved(before, after)),
        between_stayed_fraction: fraction(between_stayed),
        modulo_fraction: fraction(modulo),
    })
}

/// Owners are compared by name, once: `before`'s node `i` is `after`'s node `same[i]`.
/// (Of the node lists, not generic over the states: a map collected once in the engine.)
fn same_nodes(before: &[Node], after: &[Node]) -> Vec<Option<usize>> {
    let after_index = crate::node::index_by_name(after.iter().map(|n| n.name.as_str()).collect());
    before.iter().map(|n| after_index.get(n.name.as_str()).copied()).collect()
}

/// Walks both point lists together, calling `visit(start, end, from, to)` for each run of
/// positions `start..=end` between two consecutive boundaries (points of either state),
/// clockwise from 0 to the top of the circle: each such position has, in each state, the
/// owner of that state's first point at or after the upper boundary (`from` in `before`,
/// `to` in `after`), wrapping to the first point past the last. Both states have points and
/// one size.
fn walk<A: Arcs + ?Sized, B: Arcs + ?Sized>(before: &A, after: &B, mut visit: impl FnMut(u64, u64, usize, usize)) {
    let top = before.size() - 1;
    let (na, nb) = (before.point_count(), after.point_count());
    let (mut ia, mut ib) = (0, 0);
    let mut previous: Option<u64> = None;
    while ia < na || ib < nb {
        let at = match (ia < na, ib < nb) {
            (true, true) => before.point(ia).0.min(after.point(ib).0),
            (true, false) => before.point(ia).0,
            _ => after.point(ib).0,
        };
        let from = before.point(if ia < na { ia } else { 0 }).1;
        let to = after.point(if ib < nb { ib } else { 0 }).1;
        visit(previous.map_or(0, |p| p + 1), at, from, to);
        while ia < na && before.point(ia).0 == at {
            ia += 1;
        }
        while ib < nb && after.point(ib).0 == at {
            ib += 1;
        }
        previous = Some(at);
    }
    if let Some(last) = previous.filter(|&p| u128::from(p) < top) {
        visit(last + 1, top as u64, before.point(0).1, after.point(0).1);
    }
}

/// Sum over nodes of `max(0, share after - share before)`, in positions.
fn ideal_moved<A: Arcs + ?Sized, B: Arcs + ?Sized>(before: &A, after: &B) -> u128 {
    let old = analysis::shares(before);
    let old_index = |name: &str| (0..before.node_count()).find(|&i| before.node_name(i) == name);
    analysis::shares(after)
        .into_iter()
        .enumerate()
        .map(|(i, new)| new.saturating_sub(old_index(after.node_name(i)).map_or(0, |j| old[j])))
        .sum()
}

/// How many of the hash values `0..size` have `h % n != h % m`.
///
/// `h % n == h % m` exactly when `h mod lcm(n, m) < min(n, m)`, so each period of
/// `lcm(n, m)` values keeps `min(n, m)` of them.
pub fn modulo_moved(n: u64, m: u64, size: u128) -> u128 {
    if n == 0 || m == 0 {
        return size;
    }
    let (n, m) = (u128::from(n), u128::from(m));
    let lcm = n / gcd(n, m) * m;
    let keep_per_period = n.min(m);
    let kept = size / lcm * keep_per_period + (size % lcm).min(keep_per_period);
    size - kept
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// What moved on a key sample.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SampleMigration {
    pub keys: usize,
    pub moved_keys: usize,
    /// `moved_keys / keys`.
    pub moved_fraction: f64,
    /// The fraction of *traffic* that moved when key `i` (0-based, in sample order) is
    /// requested with Zipf popularity `1 / (i + 1)^s`.
    pub moved_traffic_fraction: f64,
    /// The Zipf exponent `s` used for `moved_traffic_fraction`.
    pub zipf_s: f64,
}

/// Anything that names the node owning a key: a [`Ring`] or any [`Cluster`](crate::algo::Cluster).
pub trait Locate {
    fn locate_key(&self, key: &[u8]) -> Result<&str, Error>;
}

impl Locate for Ring {
    fn locate_key(&self, key: &[u8]) -> Result<&str, Error> {
        self.locate(key)
    }
}

/// The keys of `sample` that changed owner from `before` to `after`. Popularity uses the
/// `libm` crate's `pow`, so the traffic figure is the same natively and in wasm.
pub fn sample_between<A: Locate + ?Sized, B: Locate + ?Sized>(
    before: &A,
    after: &B,
    sample: &KeySample,
    zipf_s: f64,
) -> Result<SampleMigration, Error> {
    let mut tally = Tally::new(zipf_s)?;
    for (rank, key) in sample.keys.iter().enumerate() {
        tally.add(rank, before.locate_key(key.as_bytes())? != after.locate_key(key.as_bytes())?);
    }
    Ok(tally.finish())
}

/// [`sample_between`] on the keys `"{prefix}0"` .. `"{prefix}{count-1}"`, without building them.
pub fn generated_between<A: Locate + ?Sized, B: Locate + ?Sized>(
    before: &A,
    after: &B,
    prefix: &str,
    count: usize,
    zipf_s: f64,
) -> Result<SampleMigration, Error> {
    let mut tally = Tally::new(zipf_s)?;
    let mut failed = None;
    for_each_generated(prefix, count, |rank, key| match (before.locate_key(key), after.locate_key(key)) {
        (Ok(a), Ok(b)) => tally.add(rank, a != b),
        (Err(e), _) | (_, Err(e)) => failed = Some(e),
    });
    failed.map_or_else(|| Ok(tally.finish()), Err)
}

/// Moved keys and moved traffic, key by key.
struct Tally {
    zipf_s: f64,
    keys: usize,
    moved_keys: usize,
    traffic: f64,
    moved_traffic: f64,
}

impl Tally {
    fn new(zipf_s: f64) -> Result<Tally, Error> {
        if !(zipf_s.is_finite() && zipf_s >= 0.0) {
            let words = format!("the Zipf exponent must be ≥ 0 (got {zipf_s})");
            return Err(Error::out_of_range("zipf", zipf_s, (0.0, f64::INFINITY), words));
        }
        Ok(Tally { zipf_s, keys: 0, moved_keys: 0, traffic: 0.0, moved_traffic: 0.0 })
    }

    fn add(&mut self, rank: usize, moved: bool) {
        // The common exponents exactly and cheaply; any other through libm's pow.
        let popularity = match self.zipf_s {
            0.0 => 1.0,
            1.0 => 1.0 / (rank + 1) as f64,
            s => libm::pow((rank + 1) as f64, -s),
        };
        self.keys += 1;
        self.traffic += popularity;
        if moved {
            self.moved_keys += 1;
            self.moved_traffic += popularity;
        }
    }

    fn finish(self) -> SampleMigration {
        let keys = self.keys;
        SampleMigration {
            keys,
            moved_keys: self.moved_keys,
            moved_fraction: if keys == 0 { 0.0 } else { self.moved_keys as f64 / keys as f64 },
            moved_traffic_fraction: if keys == 0 { 0.0 } else { self.moved_traffic / self.traffic },
            zipf_s: self.zipf_s,
        }
    }
}

/// The share of keys whose owner differs between two states.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moved {
    /// Moved keys whose old owner is still a node of the newer state.
    pub alive: f64,
    /// Moved keys whose old owner has left.
    pub gone: f64,
}

impl Moved {
    /// All moved keys.
    pub fn total(self) -> f64 {
        self.alive + self.gone
    }
}

/// The prefix of the generated sample keys (`"rollout:0"`, ...) where there are no arcs.
pub const SAMPLE_PREFIX: &str = "rollout:";

/// A state a [`MovedTable`] compares: exactly over its arcs where it has them, else by its
/// owners of generated keys. Every [`Cluster`](crate::algo::Cluster) is one.
pub trait State {
    /// Its exact point structure, where it is a circle of points.
    fn arcs(&self) -> Option<&dyn Arcs>;
    /// Its nodes, in order.
    fn nodes(&self) -> &[Node];
    /// Checks that `lookups` key lookups on it stay within their cap.
    fn check_lookups(&self, lookups: usize) -> Result<(), Error>;
    /// The owner (an index into [`nodes`](State::nodes)) of each of the keys `"{prefix}0"` ..
    /// `"{prefix}{count-1}"`, given to `f` with the key's number.
    fn locate_generated(&self, prefix: &str, count: usize, f: impl FnMut(usize, Result<usize, Error>));
}

/// [`Moved`] between every pair of epochs `a < b`.
#[derive(Clone, Debug, PartialEq)]
pub struct MovedTable {
    epochs: usize,
    table: Vec<Moved>,
    /// `None`: exact over the arcs; `Some(n)`: measured on the sample keys `rollout:0..n`.
    pub keys: Option<usize>,
}

impl MovedTable {
    /// Between every pair of `states` (epoch 0 first), exactly where all of them have arcs
    /// with one key mapping, else on `sample_keys` generated keys.
    pub fn of<S: State>(states: &[S], sample_keys: usize) -> Result<MovedTable, Error> {
        MovedTable::of_pairs(states, sample_keys, |_, _| true)
    }

    /// [`of`](MovedTable::of), computing exactly only the pairs `(a, b)` that `wanted` names
    /// (a staged plan reads each step and the change at once: 17 pairs of 136 at 16 steps);
    /// [`get`](MovedTable::get) answers only those. The walks are charged to the work meter
    /// first, as the points they step past.
    pub fn of_pairs<S: State>(
        states: &[S],
        sample_keys: usize,
        wanted: impl Fn(usize, usize) -> bool,
    ) -> Result<MovedTable, Error> {
        let n = states.len();
        let mut table = vec![Moved::default(); n * n];
        let arcs: Option<Vec<&dyn Arcs>> = states.iter().map(S::arcs).collect();
        let exact = arcs.filter(|a| a.windows(2).all(|w| w[0].key_mapping() == w[1].key_mapping()));
        let pairs: Vec<(usize, usize)> =
            (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).filter(|&(a, b)| wanted(a, b)).collect();
        let keys = match exact {
            Some(arcs) => {
                let walked = pairs.iter().map(|&(a, b)| (arcs[a].point_count() + arcs[b].point_count()) as u64);
                crate::work::charge(crate::work::Cost::Probes, walked.fold(0, u64::saturating_add))?;
                let listed: Vec<Listed> = arcs.iter().map(|&a| Listed::of(a)).collect();
                for &(a, b) in &pairs {
                    table[a * n + b] = moved(&listed[a], &listed[b])?;
                }
                None
            }
            None => {
                sample_moved(states, sample_keys, n, &mut table)?;
                Some(sample_keys)
            }
        };
        Ok(MovedTable { epochs: n, table, keys })
    }

    /// From epoch `a` (a stale client's) to epoch `b` (the current one); nothing when `a >= b`.
    pub fn get(&self, a: usize, b: usize) -> Moved {
        if a >= b {
            return Moved::default();
        }
        self.table[a * self.epochs + b]
    }
}

/// The exact moved share between two states of one key mapping: the walk of [`between`],
/// counting instead of listing the arcs.
pub fn exact_moved(before: &dyn Arcs, after: &dyn Arcs) -> Result<Moved, Error> {
    moved(&Listed::of(before), &Listed::of(after))
}

fn moved(before: &Listed, after: &Listed) -> Result<Moved, Error> {
    if before.key_mapping() != after.key_mapping() || before.size() != after.size() {
        return Err(Error::mismatch("the two states", "the two states map keys differently"));
    }
    if before.point_count() == 0 || after.point_count() == 0 {
        return Err(Error::EmptyRing);
    }
    let same = same_nodes(before.node_list(), after.node_list());
    let (mut alive, mut gone) = (0u128, 0u128);
    walk(before, after, |start, end, from, to| {
        let len = u128::from(end - start) + 1;
        match same[from] {
            Some(j) if j == to => {}
            Some(_) => alive += len,
            None => gone += len,
        }
    });
    let size = before.size();
    let share = |x: u128| x as f64 / size as f64;
    Ok(Moved { alive: share(alive), gone: share(gone) })
}

/// A state's points read once into a list, for a table that walks each state in many
/// pairs: the walks then read a list, where each point of a ring was three calls through
/// `dyn Arcs` (80% of a comparison of rollouts).
struct Listed<'a> {
    source: &'a dyn Arcs,
    points: Vec<(u64, usize)>,
}

impl<'a> Listed<'a> {
    fn of(source: &'a dyn Arcs) -> Listed<'a> {
        Listed { source, points: (0..source.point_count()).map(|i| source.point(i)).collect() }
    }
}

impl Arcs for Listed<'_> {
    fn size(&self) -> u128 {
        self.source.size()
    }
    fn key_mapping(&self) -> String {
        self.source.key_mapping()
    }
    fn point_count(&self) -> usize {
        self.points.len()
    }
    fn point(&self, i: usize) -> (u64, usize) {
        self.points[i]
    }
    fn owner_of(&self, position: u64) -> Result<usize, Error> {
        self.source.owner_of(position)
    }
    fn node_list(&self) -> &[Node] {
        self.source.node_list()
    }
}

/// No owner: the key's node is down and nothing serves it.
const NOBODY: u32 = u32::MAX;

fn sample_moved<S: State>(states: &[S], keys: usize, n: usize, table: &mut [Moved]) -> Result<(), Error> {
    if keys == 0 {
        return Err(Error::too_few("keys", 1, 0, "a key sample needs at least one key"));
    }
    for state in states {
        state.check_lookups(keys.saturating_mul(n))?;
    }
    // Owners by name, so that node indexes of different states compare.
    let mut ids: BTreeMap<&str, u32> = BTreeMap::new();
    for state in states {
        for node in state.nodes() {
            let next = ids.len() as u32;
            ids.entry(node.name.as_str()).or_insert(next);
        }
    }
    let owners: Vec<Vec<u32>> = states
        .iter()
        .map(|state| {
            let names: Vec<u32> = state.nodes().iter().map(|node| ids[node.name.as_str()]).collect();
            let mut out = vec![NOBODY; keys];
            state.locate_generated(SAMPLE_PREFIX, keys, |i, owner| {
                out[i] = owner.map_or(NOBODY, |o| names[o]);
            });
            out
        })
        .collect();
    let members: Vec<Vec<bool>> = states
        .iter()
        .map(|state| {
            let mut member = vec![false; ids.len()];
            for node in state.nodes() {
                member[ids[node.name.as_str()] as usize] = true;
            }
            member
        })
        .collect();
    for a in 0..n {
        for b in a + 1..n {
            let (mut alive, mut gone) = (0usize, 0usize);
            for (&from, &to) in owners[a].iter().zip(&owners[b]) {
                if from == to {
                    continue;
                }
                if from != NOBODY && members[b][from as usize] {
                    alive += 1;
                } else {
                    gone += 1;
                }
            }
            table[a * n + b] = Moved { alive: alive as f64 / keys as f64, gone: gone as f64 / keys as f64 };
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    #[test]
    fn modulo_matches_brute_force() {
        for (n, m) in [(10, 11), (3, 2), (7, 7), (1, 5), (12, 8)] {
            let size = 5_000u128;
            let brute = (0..size).filter(|h| h % n != h % m).count() as u128;
            assert_eq!(modulo_moved(n as u64, m as u64, size), brute, "{n} -> {m}");
        }
        // 10 -> 11 nodes: 10 of every 110 values stay: 90.9% move.
        let f = modulo_moved(10, 11, 1 << 32) as f64 / (1u64 << 32) as f64;
        assert!((f - 100.0 / 110.0).abs() < 1e-6);
    }

    #[test]
    fn leave_moves_only_the_leavers_arcs() {
        let before = Ring::with_nodes(Config::default(), ["a", "b", "c", "d"]).unwrap();
        let mut after = before.clone();
        after.remove("c").unwrap();
        let m = between(&before, &after).unwrap();
        assert!(m.arcs.iter().all(|a| a.from == "c" && a.to != "c"));
        let c_share = analysis::shares(&before)[2];
        assert_eq!(m.moved, c_share);
        assert_eq!(m.moved_fraction, m.ideal_fraction);
        let total: u128 = m.arcs.iter().map(|a| u128::from(a.end - a.start) + 1).sum();
        assert_eq!(total, m.moved);
    }

    #[test]
    fn identical_rings_move_nothing() {
        let ring = Ring::with_nodes(Config::default(), ["a", "b"]).unwrap();
        let m = between(&ring, &ring.clone()).unwrap();
        assert_eq!((m.moved, m.arcs.len(), m.modulo_fraction), (0, 0, 0.0));
    }
}
