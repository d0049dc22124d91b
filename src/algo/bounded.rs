//! Consistent hashing with bounded loads (Mirrokni, Thorup & Zadimoghaddam 2018), over
//! ringlab's ring: keys of a given set are placed in order, each on the first node clockwise
//! from its hash that has fewer than `⌈(1 + ε)·keys / nodes⌉` keys. It places a *key set*,
//! so its loads are exact for that set; a key outside the set goes where it would land next.
//!
//! A down node takes no keys: placement is redone over the healthy nodes, with the capacity
//! computed over them (as HAProxy's `hash-balance-factor` treats a server that is down).

use super::{Algorithm, Options, Placement};
use crate::analysis::Arcs;
use crate::keys::KeySample;
use crate::{Error, Node, NodeSpec, Ring};
use std::collections::BTreeMap;

/// Largest key set, to keep a change fast in a browser.
pub const MAX_KEYS: usize = 200_000;

#[derive(Clone, Debug)]
pub(crate) struct BoundedLoad {
    ring: Ring,
    epsilon: f64,
    keys: KeySample,
    /// Each key's node, in key-set order.
    assignment: Vec<u32>,
    loads: Vec<u32>,
    index: BTreeMap<String, usize>,
}

impl BoundedLoad {
    pub(crate) fn new(options: &Options, nodes: Vec<NodeSpec>) -> Result<BoundedLoad, Error> {
        if !(options.epsilon.is_finite() && options.epsilon >= 0.0) {
            return Err(Error::InvalidOption(format!("ε must be ≥ 0 (got {})", options.epsilon)));
        }
        if options.keys.keys.len() > MAX_KEYS {
            return Err(Error::InvalidOption(format!("bounded-load places at most {MAX_KEYS} keys")));
        }
        let ring = Ring::with_nodes(options.config.clone(), nodes)?;
        let index = options.keys.keys.iter().enumerate().map(|(i, k)| (k.clone(), i)).collect();
        let mut b = BoundedLoad {
            ring,
            epsilon: options.epsilon,
            keys: options.keys.clone(),
            assignment: Vec::new(),
            loads: Vec::new(),
            index,
        };
        b.place();
        Ok(b)
    }

    /// `⌈(1 + ε)·keys / nodes⌉`.
    fn capacity(&self) -> u32 {
        let up = (0..self.ring.nodes().len()).filter(|&i| !self.ring.is_down_at(i)).count();
        let n = up.max(1) as f64;
        ((1.0 + self.epsilon) * self.keys.keys.len() as f64 / n).ceil() as u32
    }

    fn place(&mut self) {
        self.loads = vec![0; self.ring.nodes().len()];
        self.assignment.clear();
        if self.ring.is_empty() || (0..self.ring.nodes().len()).all(|i| self.ring.is_down_at(i)) {
            return;
        }
        let capacity = self.capacity().max(1);
        for key in &self.keys.keys {
            let node = walk(&self.ring, &self.loads, capacity, self.ring.key_position(key));
            self.loads[node] += 1;
            self.assignment.push(node as u32);
        }
    }
}

/// The first healthy node clockwise from `position` with room (some node is up).
fn walk(ring: &Ring, loads: &[u32], capacity: u32, position: u64) -> usize {
    let start = ring.point_of(position).unwrap_or(0);
    let n = ring.point_count();
    let healthy = (0..n).map(|step| ring.point((start + step) % n).1).filter(|&node| !ring.is_down_at(node));
    healthy.clone().find(|&node| loads[node] < capacity).or_else(|| healthy.clone().next()).unwrap_or(0)
}

impl Placement for BoundedLoad {
    fn algorithm(&self) -> Algorithm {
        Algorithm::BoundedLoad
    }
    fn nodes(&self) -> &[Node] {
        self.ring.nodes()
    }
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        self.ring.add_node(spec)?;
        self.place();
        Ok(())
    }
    fn remove(&mut self, name: &str) -> Result<(), Error> {
        self.ring.remove(name)?;
        self.place();
        Ok(())
    }
    fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
        super::down::check_index(self.ring.nodes(), index)?;
        self.ring.set_down_at(index, down);
        self.place();
        Ok(())
    }
    fn is_down(&self, index: usize) -> bool {
        self.ring.is_down_at(index)
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        if self.ring.is_empty() {
            return Err(Error::EmptyRing);
        }
        if self.assignment.is_empty() && !self.keys.keys.is_empty() {
            return Err(super::down::all_down());
        }
        let known = std::str::from_utf8(key).ok().and_then(|k| self.index.get(k));
        Ok(match known {
            Some(&i) => self.assignment[i] as usize,
            None => walk(&self.ring, &self.loads, self.capacity().max(1), self.ring.key_position(key)),
        })
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        self.ring.key_position(key) as f64 / self.ring.size() as f64
    }
    /// Exact for its key set: each node's load over the number of keys.
    fn exact_shares(&self) -> Option<Vec<f64>> {
        let total = self.keys.keys.len().max(1) as f64;
        Some(self.loads.iter().map(|&l| f64::from(l) / total).collect())
    }
    fn memory_bytes(&self) -> usize {
        self.ring.memory_bytes()
            + self.assignment.capacity() * 4
            + self.loads.capacity() * 4
            + self.keys.keys.iter().map(|k| 2 * k.capacity() + 48).sum::<usize>()
    }
    fn boxed_clone(&self) -> Box<dyn Placement> {
        Box::new(self.clone())
    }
}
