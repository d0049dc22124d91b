//! What differs between two epochs' placements: the share of keys whose owner changed, split
//! by whether the old owner is still a node of the newer epoch ("alive") or has left
//! ("gone"). Exact over the arcs where both states are circles of points that map keys the
//! same way; otherwise on a generated key sample (said so in [`MovedTable::keys`]).

use crate::algo::Cluster;
use crate::analysis::Arcs;
use crate::Error;
use std::collections::BTreeMap;

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
    pub fn of(states: &[Cluster], sample_keys: usize) -> Result<MovedTable, Error> {
        let n = states.len();
        let mut table = vec![Moved::default(); n * n];
        let arcs: Option<Vec<&dyn Arcs>> = states.iter().map(Cluster::arcs).collect();
        let exact = arcs.filter(|a| a.windows(2).all(|w| w[0].key_mapping() == w[1].key_mapping()));
        let keys = match exact {
            Some(arcs) => {
                for a in 0..n {
                    for b in a + 1..n {
                        table[a * n + b] = exact_moved(arcs[a], arcs[b])?;
                    }
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

/// The exact moved share between two states of one key mapping: both point lists walked
/// together (as [`migration::between`](crate::migration::between) does), counting instead of
/// listing the arcs.
pub fn exact_moved(before: &dyn Arcs, after: &dyn Arcs) -> Result<Moved, Error> {
    if before.key_mapping() != after.key_mapping() || before.size() != after.size() {
        return Err(Error::mismatch("the two states", "the two states map keys differently"));
    }
    if before.point_count() == 0 || after.point_count() == 0 {
        return Err(Error::EmptyRing);
    }
    let index = crate::btree::map((0..after.node_count()).map(|i| (after.node_name(i), i)));
    let same: Vec<Option<usize>> = (0..before.node_count()).map(|i| index.get(before.node_name(i)).copied()).collect();
    let (mut alive, mut gone) = (0u128, 0u128);
    let mut record = |start: u64, end: u64, from: usize, to: usize| {
        let len = u128::from(end - start) + 1;
        match same[from] {
            Some(j) if j == to => {}
            Some(_) => alive += len,
            None => gone += len,
        }
    };
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
        record(previous.map_or(0, |p| p + 1), at, from, to);
        while ia < na && before.point(ia).0 == at {
            ia += 1;
        }
        while ib < nb && after.point(ib).0 == at {
            ib += 1;
        }
        previous = Some(at);
    }
    let size = before.size();
    if let Some(last) = previous.filter(|&p| u128::from(p) < size - 1) {
        record(last + 1, (size - 1) as u64, before.point(0).1, after.point(0).1);
    }
    let share = |x: u128| x as f64 / size as f64;
    Ok(Moved { alive: share(alive), gone: share(gone) })
}

/// No owner: the key's node is down and nothing serves it.
const NOBODY: u32 = u32::MAX;

fn sample_moved(states: &[Cluster], keys: usize, n: usize, table: &mut [Moved]) -> Result<(), Error> {
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
