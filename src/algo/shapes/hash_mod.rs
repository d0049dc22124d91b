//! Clients that pick a server by `hash(key) % buckets`, where the bucket list is the servers
//! in order, each repeated by its weight where the client takes weights: python-memcached,
//! memjs and spymemcached's default `ArrayModNodeLocator`. Each declares its [`Rules`] in its
//! own file (hash, hash range, weights, what a down server means).

use super::down;
use super::entry::OnStale;
use super::explain::{Chain, Step, StepKind};
use super::members::Members;
use super::{Algorithm, Placement};
use crate::{Error, Node, NodeSpec};

/// What a process with an old server list gets from `hash % buckets` (python-memcached,
/// memjs).
pub(crate) const STALE: OnStale = OnStale::ClientSide(
    "Each process has its own server list: one with the old list sends nearly every key to another server, where reads miss and writes leave copies that disagree.",
);

/// One client's bucket rules.
#[derive(Debug)]
pub(crate) struct Rules {
    pub(crate) algorithm: Algorithm,
    /// The key's hash, from 0 to `max_hash`.
    pub(crate) hash: fn(&[u8]) -> u64,
    /// The largest hash value (the key space's size is `max_hash + 1`).
    pub(crate) max_hash: u64,
    /// How many values of the underlying uniform hash give each hash value, for the exact
    /// shares: `common` for all but the `special` ones (value, count).
    pub(crate) common: u64,
    pub(crate) special: &'static [(u64, u64)],
    /// Buckets per server of this weight (python-memcached: the weight; others: 1).
    pub(crate) buckets: fn(f64) -> u64,
    /// What the client accepts as a server (after the weight check).
    pub(crate) check: fn(&NodeSpec) -> Result<(), Error>,
    /// A down server's keys go to the next live server in list order (spymemcached's
    /// `FailureMode.Redistribute` over `ArrayModNodeLocator.getSequence`); else they are
    /// unavailable.
    pub(crate) next_in_list: bool,
    pub(crate) describe_hash: &'static str,
}

#[derive(Clone, Debug)]
pub(crate) struct Buckets {
    rules: &'static Rules,
    members: Members,
    /// Each bucket's server.
    buckets: Vec<u32>,
}

impl Buckets {
    pub(crate) fn new(rules: &'static Rules, nodes: Vec<NodeSpec>) -> Result<Buckets, Error> {
        let members = Members::new(nodes, 1, |spec| check(rules, spec))?;
        let mut buckets = Buckets { rules, members, buckets: Vec::new() };
        buckets.rebuild()?;
        Ok(buckets)
    }

    fn rebuild(&mut self) -> Result<(), Error> {
        let counts: Vec<u64> = self.members.nodes.iter().map(|n| (self.rules.buckets)(n.weight)).collect();
        let total: u64 = counts.iter().sum();
        crate::limits::check("buckets (servers repeated by weight)", total, crate::limits::MAX_CONTINUUM_POINTS)?;
        self.buckets =
            counts.iter().enumerate().flat_map(|(i, &c)| std::iter::repeat_n(i as u32, c as usize)).collect();
        for (node, &count) in self.members.nodes.iter_mut().zip(&counts) {
            node.points = count as u32;
        }
        Ok(())
    }

    fn primary(&self, key: &[u8]) -> usize {
        let hash = (self.rules.hash)(key);
        self.buckets[(hash % self.buckets.len() as u64) as usize] as usize
    }
}

fn check(rules: &Rules, spec: &NodeSpec) -> Result<(), Error> {
    rules.algorithm.entry().weights.check(rules.algorithm, spec.weight)?;
    (rules.check)(spec)
}

impl Placement for Buckets {
    fn algorithm(&self) -> Algorithm {
        self.rules.algorithm
    }
    fn nodes(&self) -> &[Node] {
        &self.members.nodes
    }
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        let mut changed = self.clone();
        let rules = self.rules;
        changed.members.push(spec, 1, |spec| check(rules, spec))?;
        changed.rebuild()?;
        *self = changed;
        Ok(())
    }
    fn remove(&mut self, name: &str) -> Result<(), Error> {
        let mut changed = self.clone();
        changed.members.take(name)?;
        changed.rebuild()?;
        *self = changed;
        Ok(())
    }
    fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
        self.members.set_down(index, down)
    }
    fn is_down(&self, index: usize) -> bool {
        self.members.is_down(index)
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        if self.buckets.is_empty() {
            return Err(Error::EmptyRing);
        }
        let owner = self.primary(key);
        if !self.rules.next_in_list || !self.members.is_down(owner) {
            return self.members.serving(self.rules.algorithm, owner);
        }
        let n = self.members.nodes.len();
        (1..n).map(|step| (owner + step) % n).find(|&i| !self.members.is_down(i)).ok_or_else(down::all_down)
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        ((self.rules.hash)(key) as f64 / (self.rules.max_hash as f64 + 1.0)).min(1.0 - f64::EPSILON)
    }
    fn describe_key(&self, key: &[u8]) -> String {
        let hash = (self.rules.hash)(key);
        format!(
            "{} {hash} % {} buckets = {}",
            self.rules.describe_hash,
            self.buckets.len(),
            hash % self.buckets.len().max(1) as u64
        )
    }
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        chain.bytes("the bytes hashed: the whole key", key);
        if self.buckets.is_empty() {
            return None;
        }
        let hash = (self.rules.hash)(key);
        let hashed = Step::new(StepKind::Hash, format!("{} of the key", self.rules.describe_hash), hash.to_string());
        chain.push(hashed.at_fraction(self.key_fraction(key)));
        let (n, bucket) = (self.buckets.len(), hash % self.buckets.len() as u64);
        let owner = self.buckets[bucket as usize] as usize;
        let label = format!("the hash mod {n} buckets (servers repeated by weight, in order)");
        chain.push(Step::new(StepKind::Bucket, label, format!("{hash} % {n} = {bucket}")).at_node(owner));
        Some(owner)
    }
    fn exact_shares_are_arcs(&self) -> bool {
        false
    }
    /// Exact over the whole hash range: bucket `b` takes the hash values `≡ b` mod the
    /// bucket count, each counted by its preimages.
    fn exact_shares(&self) -> Option<Vec<f64>> {
        let b = self.buckets.len() as u64;
        if b == 0 {
            return None;
        }
        let max = self.rules.max_hash;
        let mut per_bucket: Vec<i128> = (0..b)
            .map(|r| if r <= max { i128::from((max - r) / b + 1) * i128::from(self.rules.common) } else { 0 })
            .collect();
        for &(value, count) in self.rules.special {
            per_bucket[(value % b) as usize] += i128::from(count) - i128::from(self.rules.common);
        }
        let total: i128 = per_bucket.iter().sum();
        let mut shares = vec![0.0; self.members.nodes.len()];
        for (bucket, &owner) in self.buckets.iter().enumerate() {
            shares[owner as usize] += per_bucket[bucket] as f64 / total as f64;
        }
        Some(shares)
    }
    fn memory_bytes(&self) -> usize {
        self.members.memory_bytes() + self.buckets.capacity() * 4
    }
    fn lookup_cost(&self) -> u64 {
        3
    }
    fn boxed_clone(&self) -> Box<dyn Placement> {
        Box::new(self.clone())
    }
}
