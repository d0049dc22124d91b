//! `hash % N`: the baseline. Node `i` (in the order added) takes the keys whose hash value
//! is `i` mod N; removing a node shifts every node after it.

use super::down::{self, DownSet};
use super::{index_of, new_node, unit_weight, new_nodes, Algorithm, Placement};
use crate::{Error, Hash, Node, NodeSpec};

#[derive(Clone, Debug)]
pub(crate) struct Modulo {
    hash: Hash,
    nodes: Vec<Node>,
    /// Down nodes: their keys are unavailable (no skip).
    down: DownSet,
}

impl Modulo {
    pub(crate) fn new(hash: Hash, nodes: Vec<NodeSpec>) -> Result<Modulo, Error> {
        Ok(Modulo { hash, nodes: new_nodes(nodes, 1, |spec| unit_weight(Algorithm::Modulo, spec.weight))?, down: DownSet::default() })
    }
}

impl Placement for Modulo {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Modulo
    }
    fn nodes(&self) -> &[Node] {
        &self.nodes
    }
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        unit_weight(Algorithm::Modulo, spec.weight)?;
        let node = new_node(&self.nodes, spec, 1)?;
        self.nodes.push(node);
        Ok(())
    }
    fn remove(&mut self, name: &str) -> Result<(), Error> {
        let idx = index_of(&self.nodes, name)?;
        self.nodes.remove(idx);
        self.down.forget(name);
        Ok(())
    }
    fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
        self.down.set(&self.nodes, index, down)
    }
    fn is_down(&self, index: usize) -> bool {
        self.down.contains(&self.nodes, index)
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        if self.nodes.is_empty() {
            return Err(Error::EmptyRing);
        }
        let owner = (self.hash.hash(key) % self.nodes.len() as u64) as usize;
        if self.down.contains(&self.nodes, owner) {
            return Err(down::unavailable(Algorithm::Modulo, &self.nodes[owner].name));
        }
        Ok(owner)
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        self.hash.hash(key) as f64 / 2f64.powi(self.hash.bits() as i32)
    }
    /// Exact: of the `2^bits` hash values, `⌊(2^bits - 1 - i) / N⌋ + 1` are `i` mod N.
    fn exact_shares(&self) -> Option<Vec<f64>> {
        let size = 1u128 << self.hash.bits();
        let n = self.nodes.len() as u128;
        Some((0..n).map(|i| ((size - 1 - i) / n + 1) as f64 / size as f64).collect())
    }
    fn memory_bytes(&self) -> usize {
        self.nodes.iter().map(Node::memory_bytes).sum()
    }
    fn lookup_cost(&self) -> u64 {
        2
    }
    fn boxed_clone(&self) -> Box<dyn Placement> {
        Box::new(self.clone())
    }
}
