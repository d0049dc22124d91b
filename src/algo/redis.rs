//! Redis Cluster: 16384 slots, `CRC16-XMODEM(key) mod 16384` with hash tags, and masters
//! owning slot ranges that change as `redis-cli --cluster` moves them.
//!
//! - Creation splits the slots as `redis-cli --cluster create` does (`clusterManagerCommandCreate`).
//! - `add` is `add-node` then `rebalance --cluster-use-empty-masters`; `remove` first drains the
//!   node with `rebalance --cluster-weight <node>=0`, then `del-node`
//!   (`clusterManagerCommandRebalance`, `clusterManagerComputeReshardTable`). Node weights are
//!   rebalance weights. redis-cli walks masters in its own node order (the entry node, then
//!   `CLUSTER NODES` order, which follows random node ids); ringlab uses the order the nodes
//!   were added, which decides only ±1-slot tie-breaks.
//!
//! ```
//! use ringlab::algo::redis::key_slot;
//! assert_eq!(key_slot(b"123456789"), 0x31C3 % 16384);
//! assert_eq!(key_slot(b"{user1000}.following"), key_slot(b"{user1000}.followers"));
//! ```

use super::{check_weight, index_of, new_node, Algorithm, Placement};
use crate::analysis::Arcs;
use crate::{Error, Node, NodeSpec};

/// The number of slots.
pub const SLOTS: usize = 16384;
const CRC16: crc::Crc<u16> = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
/// redis-cli's default `--cluster-threshold`, in percent.
const THRESHOLD: f32 = 2.0;
/// No owner (only before the first node exists).
const NOBODY: u16 = u16::MAX;

/// The slot of `key`, with the hash-tag rule: if the key has a `{` and a later `}` with at
/// least one byte between them, only those bytes are hashed.
pub fn key_slot(key: &[u8]) -> u16 {
    let tagged = key.iter().position(|&b| b == b'{').and_then(|open| {
        let close = key[open + 1..].iter().position(|&b| b == b'}')?;
        (close > 0).then(|| &key[open + 1..open + 1 + close])
    });
    CRC16.checksum(tagged.unwrap_or(key)) & (SLOTS as u16 - 1)
}

#[derive(Clone, Debug)]
pub struct Slots {
    nodes: Vec<Node>,
    /// The owner of each slot, an index into `nodes`.
    owner: Vec<u16>,
    /// The last slot of each run of slots with one owner: the ring's points.
    run_ends: Vec<u16>,
}

impl Slots {
    /// `redis-cli --cluster create` with these masters, in this order.
    pub fn create(specs: Vec<NodeSpec>) -> Result<Slots, Error> {
        let mut slots = Slots { nodes: Vec::new(), owner: vec![NOBODY; SLOTS], run_ends: Vec::new() };
        for spec in specs {
            check_weight(spec.weight)?;
            let node = new_node(&slots.nodes, spec, 0)?;
            slots.nodes.push(node);
        }
        if slots.nodes.len() > SLOTS {
            return Err(Error::InvalidOption(format!("Redis Cluster has {SLOTS} slots: at most {SLOTS} masters")));
        }
        let n = slots.nodes.len();
        // Float arithmetic, as redis-cli's create: slots_per_node and cursor are floats.
        let per_node = SLOTS as f32 / n as f32;
        let (mut first, mut cursor) = (0i64, 0f32);
        for i in 0..n {
            let mut last = f64::from(cursor + per_node - 1.0).round() as i64;
            if last > SLOTS as i64 || i == n - 1 {
                last = SLOTS as i64 - 1;
            }
            last = last.max(first);
            for slot in first..=last {
                slots.owner[slot as usize] = i as u16;
            }
            first = last + 1;
            cursor += per_node;
        }
        slots.refresh();
        Ok(slots)
    }

    /// The ranges `[first, last]` each node owns, in slot order.
    pub fn ranges(&self) -> Vec<Vec<(u16, u16)>> {
        let mut out = vec![Vec::new(); self.nodes.len()];
        let mut start = 0usize;
        for &end in &self.run_ends {
            out[self.owner[end as usize] as usize].push((start as u16, end));
            start = end as usize + 1;
        }
        out
    }

    fn refresh(&mut self) {
        self.run_ends = (0..SLOTS)
            .filter(|&s| s == SLOTS - 1 || self.owner[s] != self.owner[s + 1])
            .filter(|&s| self.owner[s] != NOBODY)
            .map(|s| s as u16)
            .collect();
        for (i, node) in self.nodes.iter_mut().enumerate() {
            node.points = self.owner.iter().filter(|&&o| usize::from(o) == i).count() as u32;
        }
    }

    /// `add`, with redis-cli walking the masters in `cli_order` (indices in the order the nodes
    /// were added, the new node being the last index; a real redis-cli's order follows the
    /// random node ids, and decides only ±1-slot tie-breaks). On error nothing changes.
    pub fn add_in_cli_order(&mut self, spec: NodeSpec, cli_order: &[usize]) -> Result<(), Error> {
        if !is_permutation(cli_order, self.nodes.len() + 1) {
            return Err(Error::InvalidOption("the redis-cli order must list every master once, the new one included".into()));
        }
        if self.nodes.is_empty() {
            *self = Slots::create(vec![spec])?;
            return Ok(());
        }
        check_weight(spec.weight)?;
        let node = new_node(&self.nodes, spec, 0)?;
        if self.nodes.len() >= SLOTS {
            return Err(Error::InvalidOption(format!("Redis Cluster has {SLOTS} slots: at most {SLOTS} masters")));
        }
        self.nodes.push(node);
        let weights = self.weights();
        self.rebalance(&weights, cli_order);
        Ok(())
    }

    /// `remove`, with redis-cli walking the masters in `cli_order` (indices in the order the
    /// nodes were added; a real redis-cli's order follows the random node ids).
    pub fn remove_in_cli_order(&mut self, name: &str, cli_order: &[usize]) -> Result<(), Error> {
        let idx = index_of(&self.nodes, name)?;
        if !is_permutation(cli_order, self.nodes.len()) {
            return Err(Error::InvalidOption("the redis-cli order must list every master once".into()));
        }
        if self.nodes.len() == 1 {
            *self = Slots::create(Vec::new())?;
            return Ok(());
        }
        let mut weights = self.weights();
        weights[idx] = 0.0;
        self.rebalance(&weights, cli_order);
        self.nodes.remove(idx);
        for o in self.owner.iter_mut().filter(|o| **o != NOBODY && usize::from(**o) > idx) {
            *o -= 1;
        }
        self.refresh();
        Ok(())
    }

    /// redis-cli's rebalance over all masters with these weights (`--cluster-use-empty-masters`),
    /// visiting masters in `order`.
    fn rebalance(&mut self, weights: &[f32], order: &[usize]) {
        let total_weight: f32 = weights.iter().sum();
        let mut counts = vec![0i64; self.nodes.len()];
        for &o in self.owner.iter().filter(|&&o| o != NOBODY) {
            counts[usize::from(o)] += 1;
        }
        let mut balance = vec![0i64; counts.len()];
        let mut over_threshold = false;
        for &i in order {
            let count = counts[i];
            let expected = ((SLOTS as f32 / total_weight) * weights[i]) as i64;
            balance[i] = count - expected;
            over_threshold |= if count > 0 {
                (100.0 - 100.0 * expected as f64 / count as f64).abs() as f32 > THRESHOLD
            } else {
                expected > 1
            };
        }
        if !over_threshold {
            return;
        }
        // Rounding can leave the balances summing above 0: nodes that receive take one more.
        let mut total: i64 = balance.iter().sum();
        while total > 0 {
            for &i in order {
                if balance[i] <= 0 && total > 0 {
                    balance[i] -= 1;
                    total -= 1;
                }
            }
        }
        // glibc's qsort is a stable merge sort here: ties keep node order.
        let mut order = order.to_vec();
        order.sort_by_key(|&i| balance[i]);
        let (mut dst, mut src) = (0usize, order.len().saturating_sub(1));
        while dst < src {
            let (d, s) = (order[dst], order[src]);
            let moving = balance[d].abs().min(balance[s].abs());
            if moving > 0 {
                // The source gives its lowest-numbered slots.
                let mut left = moving;
                for slot in 0..SLOTS {
                    if left == 0 {
                        break;
                    }
                    if usize::from(self.owner[slot]) == s {
                        self.owner[slot] = d as u16;
                        left -= 1;
                    }
                }
            }
            balance[d] += moving;
            balance[s] -= moving;
            if balance[d] == 0 {
                dst += 1;
            }
            if balance[s] == 0 {
                src -= 1;
            }
        }
        self.refresh();
    }

    fn weights(&self) -> Vec<f32> {
        self.nodes.iter().map(|n| n.weight as f32).collect()
    }
}

fn is_permutation(order: &[usize], n: usize) -> bool {
    let mut seen = vec![false; n];
    order.len() == n && order.iter().all(|&i| i < n && !std::mem::replace(&mut seen[i], true))
}

impl Placement for Slots {
    fn algorithm(&self) -> Algorithm {
        Algorithm::RedisCluster
    }
    fn nodes(&self) -> &[Node] {
        &self.nodes
    }
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        let order: Vec<usize> = (0..=self.nodes.len()).collect();
        self.add_in_cli_order(spec, &order)
    }
    fn remove(&mut self, name: &str) -> Result<(), Error> {
        let order: Vec<usize> = (0..self.nodes.len()).collect();
        self.remove_in_cli_order(name, &order)
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        match self.owner[usize::from(key_slot(key))] {
            NOBODY => Err(Error::EmptyRing),
            o => Ok(usize::from(o)),
        }
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        (f64::from(key_slot(key)) + 0.5) / SLOTS as f64
    }
    fn describe_key(&self, key: &[u8]) -> String {
        format!("slot {}", key_slot(key))
    }
    fn arcs(&self) -> Option<&dyn Arcs> {
        Some(self)
    }
    fn memory_bytes(&self) -> usize {
        self.owner.capacity() * 2
            + self.run_ends.capacity() * 2
            + self.nodes.iter().map(Node::memory_bytes).sum::<usize>()
    }
    fn boxed_clone(&self) -> Box<dyn Placement> {
        Box::new(self.clone())
    }
}

/// The slot table as a ring of 16384 positions: each run of slots ends in a point.
impl Arcs for Slots {
    fn size(&self) -> u128 {
        SLOTS as u128
    }
    fn key_mapping(&self) -> String {
        "redis-cluster".into()
    }
    fn point_count(&self) -> usize {
        self.run_ends.len()
    }
    fn point(&self, i: usize) -> (u64, usize) {
        let end = self.run_ends[i];
        (u64::from(end), usize::from(self.owner[usize::from(end)]))
    }
    fn owner_of(&self, position: u64) -> Result<usize, Error> {
        match self.owner.get(position as usize) {
            Some(&o) if o != NOBODY => Ok(usize::from(o)),
            _ => Err(Error::EmptyRing),
        }
    }
    fn node_list(&self) -> &[Node] {
        &self.nodes
    }
}
