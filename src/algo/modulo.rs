//! `hash % N`: the baseline. Node `i` (in the order added) takes the keys whose hash value
//! is `i` mod N; removing a node shifts every node after it.

use super::about::KeySpace;
use super::entry::{Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Weights};
use super::explain::{Chain, Step, StepKind};
use super::members::{placement_basics, weight_rule, Members};
use super::options::HASH;
use super::{Algorithm, Placement};
use crate::{Error, Hash, Node, NodeSpec};

pub(crate) const ENTRY: Entry = Entry {
    name: "modulo",
    label: "hash % N",
    family: Family::Baseline,
    source: "the baseline: node i takes the keys whose hash is i mod N",
    options: &[&HASH],
    weights: Weights::One,
    arcs: false,
    replicas: false,
    key_space: |o| KeySpace::Hash { bits: o.config.hash.bits() },
    describe: |o| {
        format!(
            "hash % N with {}: the baseline; nearly every key moves when N changes ({}).",
            o.config.hash,
            (ENTRY.key_space)(o).words()
        )
    },
    on_down: OnDown::Unavailable {
        text: "hash % N has no skip: the down node's keys fail until the client drops it from its list, which \
               changes N and moves almost every key.",
        why: "hash % N cannot skip a node; the client must drop it, changing N",
    },
    on_stale: OnStale::ClientSide(
        "A client with the old N sends almost every key to its old node: reads miss or find stale values, writes leave two copies.",
    ),
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build = Build::Whole(|o, nodes, _| Ok(Box::new(Modulo::new(o.config.hash, nodes)?)));

#[derive(Clone, Debug)]
pub(crate) struct Modulo {
    hash: Hash,
    /// Down nodes' keys are unavailable (no skip).
    members: Members,
}

impl Modulo {
    pub(crate) fn new(hash: Hash, nodes: Vec<NodeSpec>) -> Result<Modulo, Error> {
        Ok(Modulo { hash, members: Members::new(nodes, 1, weight_rule(Algorithm::Modulo))? })
    }
}

impl Placement for Modulo {
    placement_basics!(Algorithm::Modulo, 1, unchanged);

    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        if self.members.nodes.is_empty() {
            return Err(Error::EmptyRing);
        }
        let owner = (self.hash.hash(key) % self.members.nodes.len() as u64) as usize;
        self.members.serving(Algorithm::Modulo, owner)
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        self.hash.hash(key) as f64 / 2f64.powi(self.hash.bits() as i32)
    }
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        chain.bytes("the bytes hashed: the whole key", key);
        let h = self.hash.hash(key);
        let hashed = Step::new(StepKind::Hash, format!("{} of the key", self.hash), h.to_string());
        chain.push(hashed.at_fraction(self.key_fraction(key)));
        let n = self.members.nodes.len() as u64;
        let owner = (h % n) as usize;
        chain.push(
            Step::new(StepKind::Bucket, format!("the hash mod {n} nodes"), format!("{h} % {n} = {owner}"))
                .at_node(owner),
        );
        Some(owner)
    }
    fn exact_shares_are_arcs(&self) -> bool {
        false
    }
    /// Exact: of the `2^bits` hash values, `⌊(2^bits - 1 - i) / N⌋ + 1` are `i` mod N.
    fn exact_shares(&self) -> Option<Vec<f64>> {
        let size = 1u128 << self.hash.bits();
        let n = self.members.nodes.len() as u128;
        Some((0..n).map(|i| ((size - 1 - i) / n + 1) as f64 / size as f64).collect())
    }
    fn memory_bytes(&self) -> usize {
        self.members.memory_bytes()
    }
    fn lookup_cost(&self) -> u64 {
        2
    }
}

impl Modulo {
    /// Nothing depends on the node list but the list.
    fn unchanged(&mut self) {}
}
