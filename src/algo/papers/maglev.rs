//! Maglev hashing (Eisenbud et al., NSDI 2016): a lookup table of prime size `M` that nodes
//! fill in turns, each taking the next free entry of its own permutation
//! `(offset + j·skip) mod M`. Nodes take turns in name order, so the table does not depend
//! on the order they were added. A key goes to `table[hash(key) mod M]`.
//!
//! A down backend: Maglev health-checks its backends and regenerates the table from the
//! healthy ones (NSDI 2016, §3.4), so a down node's entries go to the others and a few
//! entries of healthy nodes change too.

use super::about::{thousands, KeySpace};
use super::down::Rebuilt;
use super::entry::{Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Weights};
use super::explain::{hex, Chain, Step, StepKind};
use super::members::{placement_basics, weight_rule, Members};
use super::options::{OptionKind, OptionSpec, Scope, HASH};
use super::{Algorithm, Placement};
use crate::analysis::Arcs;
use crate::{Error, Hash, Node, NodeSpec};

pub(crate) const ENTRY: Entry = Entry {
    name: "maglev",
    label: "Maglev",
    family: Family::Paper,
    source: "Eisenbud et al., NSDI 2016, §3.4: the population loop over a prime table",
    options: &[&HASH, &TABLE_SIZE],
    weights: Weights::One,
    arcs: true,
    replicas: false,
    key_space: |o| KeySpace::Table { size: TABLE_SIZE.whole(o) },
    describe: |o| {
        format!(
            "Maglev: a {}-entry table that nodes fill in turns ({} offsets and skips); the circle shows the table.",
            thousands(TABLE_SIZE.whole(o)),
            o.config.hash
        )
    },
    on_down: OnDown::Rebuild(
        "Maglev health-checks its backends and regenerates the lookup table from the healthy ones (NSDI 2016, \
         §3.4): the down backend's entries go to the others, and a few entries of healthy backends change too \
         (Maglev trades a little disruption for even load).",
    ),
    on_stale: OnStale::Proxy(
        "Each Maglev machine builds its own table from the backend set it has heard of; until it does, it sends moved entries to their old backends (connection tracking keeps existing flows there on purpose).",
    ),
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build =
    Build::Whole(|o, nodes, _| Ok(Box::new(Maglev::new(o.config.hash, TABLE_SIZE.whole(o), nodes)?)));

/// The lookup table's size `M`, a prime.
pub(crate) const TABLE_SIZE: OptionSpec = OptionSpec {
    name: "tableSize",
    kind: OptionKind::Whole { min: 2, max: MAX_TABLE, default: 65537 },
    help: "the lookup table's size M, a prime (the paper uses 65,537)",
    scope: Scope::Everywhere,
    link: "ts",
    refused: None,
    get: |o| TABLE_SIZE.kept(o),
    set: |o, v| {
        TABLE_SIZE.keep(o, v);
        Ok(())
    },
};

/// Largest table size accepted (see [`limits`](crate::limits)).
pub const MAX_TABLE: u64 = crate::limits::MAX_MAGLEV_TABLE;

#[derive(Clone, Debug)]
pub(crate) struct Maglev {
    hash: Hash,
    size: u64,
    members: Members,
    table: Vec<u32>,
    /// While a backend is down: the table of the healthy ones.
    live: Option<Box<Rebuilt>>,
}

impl Maglev {
    /// Charges its table to the work meter first ([`Cost::Cells`](crate::work::Cost::Cells)).
    pub(crate) fn new(hash: Hash, size: u64, nodes: Vec<NodeSpec>) -> Result<Maglev, Error> {
        crate::limits::check("the Maglev table size", size, MAX_TABLE)?;
        if !nodes.is_empty() {
            crate::work::charge(crate::work::Cost::Cells, size)?;
        }
        Maglev::unmetered(hash, size, nodes)
    }

    /// [`new`](Maglev::new) without the charge: the healthy backends' table, which a change
    /// charges with its own ([`change_cells`](Placement::change_cells)).
    fn unmetered(hash: Hash, size: u64, nodes: Vec<NodeSpec>) -> Result<Maglev, Error> {
        if size < 2 || !is_prime(size) {
            return Err(Error::invalid_option(
                "tableSize",
                format!("the Maglev table size must be a prime from 2 to {MAX_TABLE} (got {size})"),
            ));
        }
        let members = Members::new(nodes, 0, weight_rule(Algorithm::Maglev))?;
        let mut m = Maglev { hash, size, members, table: Vec::new(), live: None };
        m.populate();
        Ok(m)
    }

    fn salted(&self, name: &str, salt: &[u8]) -> u64 {
        let mut bytes = name.as_bytes().to_vec();
        bytes.push(0xFF);
        bytes.extend_from_slice(salt);
        self.hash.hash(&bytes)
    }

    /// The paper's population loop.
    fn populate(&mut self) {
        let m = self.size;
        // By name (names are distinct): the names sorted, then found.
        let names: Vec<&str> = self.members.nodes.iter().map(|n| n.name.as_str()).collect();
        let index = crate::node::index_by_name(names.clone());
        let mut sorted = names;
        sorted.sort_unstable();
        let order: Vec<usize> = sorted.iter().map(|n| index[n]).collect();
        let perms: Vec<(u64, u64)> = order
            .iter()
            .map(|&i| {
                let name = &self.members.nodes[i].name;
                (self.salted(name, b"offset") % m, self.salted(name, b"skip") % (m - 1) + 1)
            })
            .collect();
        self.table = vec![u32::MAX; if self.members.nodes.is_empty() { 0 } else { m as usize }];
        if self.members.nodes.is_empty() {
            return;
        }
        let mut next = vec![0u64; order.len()];
        let mut filled = 0u64;
        'fill: loop {
            for (turn, &node) in order.iter().enumerate() {
                let (offset, skip) = perms[turn];
                let mut c = ((u128::from(offset) + u128::from(next[turn]) * u128::from(skip)) % u128::from(m)) as usize;
                while self.table[c] != u32::MAX {
                    next[turn] += 1;
                    c = ((u128::from(offset) + u128::from(next[turn]) * u128::from(skip)) % u128::from(m)) as usize;
                }
                self.table[c] = node as u32;
                next[turn] += 1;
                filled += 1;
                if filled == m {
                    break 'fill;
                }
            }
        }
        let mut counts = vec![0u32; self.members.nodes.len()];
        for &t in &self.table {
            counts[t as usize] += 1;
        }
        for (node, count) in self.members.nodes.iter_mut().zip(counts) {
            node.points = count;
        }
    }

    /// The table, and while a backend is down the healthy backends' table.
    fn rebuild(&mut self) {
        self.populate();
        self.refresh_live();
    }

    fn refresh_live(&mut self) {
        let (hash, size) = (self.hash, self.size);
        self.live = Rebuilt::build(&self.members.nodes, &self.members.down, |specs| {
            Maglev::unmetered(hash, size, specs).map(|m| Box::new(m) as Box<dyn Placement>)
        })
        // Not `expect`: its message would print the error's `Debug`, and with it core's
        // float writer, into every module with Maglev.
        .unwrap_or_else(|_| unreachable!("a subset of valid backends is valid"))
        .map(Box::new);
    }

    fn entry(&self, key: &[u8]) -> u64 {
        self.hash.hash(key) % self.size
    }
}

pub(crate) fn is_prime(n: u64) -> bool {
    n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| !n.is_multiple_of(d))
}

impl Placement for Maglev {
    placement_basics!(Algorithm::Maglev, 0, rebuild);

    /// The table, and the healthy backends' too while a backend is down.
    fn change_cells(&self) -> u64 {
        if self.members.down.is_empty() {
            self.size
        } else {
            2 * self.size
        }
    }

    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        if !self.members.down.is_empty() && !self.members.nodes.is_empty() {
            return self.live.as_ref().map_or_else(|| Err(super::down::all_down()), |l| l.locate_index(key));
        }
        self.table.get(self.entry(key) as usize).map(|&t| t as usize).ok_or(Error::EmptyRing)
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        (self.entry(key) as f64 + 0.5) / self.size as f64
    }
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        chain.bytes("the bytes hashed: the whole key", key);
        let h = self.hash.hash(key);
        chain.push(Step::new(StepKind::Hash, format!("{} of the key", self.hash), hex(h, self.hash.bits())));
        let entry = self.entry(key);
        let owner = *self.table.get(entry as usize)? as usize;
        let label = format!("its entry in the lookup table of {} (the hash mod {})", self.size, self.size);
        let value = format!("entry {entry}");
        chain.push(Step::new(StepKind::Entry, label, value).at_fraction(self.key_fraction(key)).at_node(owner));
        Some(owner)
    }
    fn arcs(&self) -> Option<&dyn Arcs> {
        match &self.live {
            Some(live) => live.arcs(),
            None if !self.members.down.is_empty() && !self.members.nodes.is_empty() => None,
            None => Some(self),
        }
    }
    fn memory_bytes(&self) -> usize {
        self.live.as_ref().map_or(0, |l| l.memory_bytes())
            + self.table.capacity() * 4
            + self.members.nodes.iter().map(Node::memory_bytes).sum::<usize>()
    }
}

/// The table as a ring of `M` positions, one point per entry.
impl Arcs for Maglev {
    fn size(&self) -> u128 {
        u128::from(self.size)
    }
    fn key_mapping(&self) -> String {
        format!("maglev/{}/{}", self.hash, self.size)
    }
    fn point_count(&self) -> usize {
        self.table.len()
    }
    fn point(&self, i: usize) -> (u64, usize) {
        (i as u64, self.table[i] as usize)
    }
    fn owner_of(&self, position: u64) -> Result<usize, Error> {
        self.table.get(position as usize).map(|&t| t as usize).ok_or(Error::EmptyRing)
    }
    fn node_list(&self) -> &[Node] {
        &self.members.nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_filled_and_nearly_even() {
        let nodes: Vec<NodeSpec> = (0..7).map(|i| NodeSpec::new(format!("backend-{i}"))).collect();
        let m = Maglev::new(Hash::Xxh3, 65537, nodes).unwrap();
        let counts: Vec<u32> = m.members.nodes.iter().map(|n| n.points).collect();
        assert_eq!(counts.iter().sum::<u32>(), 65537);
        // Maglev's turns give every node ⌊M/N⌋ or ⌈M/N⌉ entries.
        assert!(counts.iter().all(|&c| c == 65537 / 7 || c == 65537 / 7 + 1), "{counts:?}");
    }

    #[test]
    fn table_size_must_be_prime() {
        assert!(Maglev::new(Hash::Xxh3, 65536, vec![]).is_err());
        assert!(is_prime(65537) && !is_prime(1) && is_prime(2));
    }
}
