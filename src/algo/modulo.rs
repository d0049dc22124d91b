//! `hash % N`: the baseline. Node `i` (in the order added) takes the keys whose hash value
//! is `i` mod N; removing a node shifts every node after it.

use super::{index_of, new_node, new_nodes, unit_weight, Algorithm, Placement};
use crate::{Error, Hash, Node, NodeSpec};

#[derive(Clone, Debug)]
pub(crate) struct Modulo {
    hash: Hash,
    nodes: Vec<Node>,
}

impl Modulo {
    pub(crate) fn new(hash: Hash, nodes: Vec<NodeSpec>) -> Result<Modulo, Error> {
        Ok(Modulo { hash, nodes: new_nodes(nodes, 1, |spec| unit_weight(Algorithm::Modulo, spec.weight))? })
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
        Ok(())
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        if self.nodes.is_empty() {
            return Err(Error::EmptyRing);
        }
        Ok((self.hash.hash(key) % self.nodes.len() as u64) as usize)
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
