//! Redis Cluster: 16384 slots, `CRC16-XMODEM(key) mod 16384` with hash tags, and masters
//! owning slot ranges that change as `redis-cli --cluster` moves them.
//!
//! - Creation splits the slots as `redis-cli --cluster create` does (`clusterManagerCommandCreate`),
//!   handing the ranges out in its IP-interleaved node order ([`create_order`]); unlike
//!   redis-cli, ringlab also creates clusters of fewer than 3 masters.
//! - `add` is `add-node` then `rebalance --cluster-use-empty-masters`; `remove` first drains the
//!   node with `rebalance --cluster-weight <node>=0`, then `del-node`
//!   (`clusterManagerCommandRebalance`, `clusterManagerComputeReshardTable`). Node weights are
//!   rebalance weights. redis-cli walks masters in its own node order (the entry node, then
//!   `CLUSTER NODES` order, which follows random node ids); ringlab uses the order the nodes
//!   were added, which decides only ±1-slot tie-breaks.
//! - Where redis-cli itself would go wrong, ringlab refuses in words and changes nothing:
//!   weights outside [`MIN_WEIGHT`]..=[`MAX_WEIGHT`] (redis-cli's float arithmetic overflows or
//!   divides by zero, and its rebalance can loop forever), master counts whose create split
//!   runs past slot 16383 ([`create_ranges`]), more than 16384 masters.
//! - A master marked down (`fail`) keeps its slots, which are unavailable until a replica
//!   is promoted: Redis Cluster never moves slots on a failure (`cluster.c`,
//!   `clusterHandleSlaveFailover`: only a replica of the failed master takes its slots).
//!   Keys there answer [`Error::Unavailable`]. A placement made from explicit ranges
//!   ([`Slots::from_ranges`], e.g. an imported `CLUSTER NODES`) may leave slots with no
//!   master; their keys are unavailable too.
//!
//! ```
//! use ringlab::algo::stores::redis::key_slot;
//! assert_eq!(key_slot(b"123456789"), 0x31C3 % 16384);
//! assert_eq!(key_slot(b"{user1000}.following"), key_slot(b"{user1000}.followers"));
//! ```

use super::about::KeySpace;
use super::down::{self, DownSet};
use super::entry::{Build, Entry, Extras, Family, LayoutSpec, Leaving, OnDown, OnStale, Weights};
use super::explain::{hex, Chain, Step, StepKind};
use super::{check_weight, index_of, new_node, new_nodes, Algorithm, Layout, Options, Placement};
use crate::analysis::Arcs;
use crate::{limits, Error, Node, NodeSpec};

pub(crate) const ENTRY: Entry = Entry {
    name: "redis-cluster",
    label: "Redis Cluster",
    family: Family::Store,
    source: "Redis 7.0 (cluster.c keyHashSlot) and redis-cli --cluster create, add-node, rebalance, del-node",
    options: &[],
    weights: Weights::Any,
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Slots { count: SLOTS as u32 },
    describe: |o| {
        format!(
            "Redis Cluster: {} (CRC16 of the key or its {{tag}}); each master owns slot ranges, which redis-cli's \
             rebalance moves.",
            (ENTRY.key_space)(o).words()
        )
    },
    on_down: OnDown::Unavailable {
        text: "The failed master's slots are unavailable until one of its replicas is promoted (after \
               cluster-node-timeout); with the default cluster-require-full-coverage yes, the whole cluster refuses \
               queries (CLUSTERDOWN) meanwhile. Other slots never move.",
        why: "its slot belongs to a failed master and no replica has been promoted",
    },
    on_stale: OnStale::Redirect(
        "A client with an old slot map sends the key to the old master, which answers -MOVED with the new owner (one extra hop); clients such as redis-py and Jedis refresh their map on a redirect. During a slot migration the old master answers -ASK for keys already moved, and the client retries with ASKING.",
    ),
    leaving: Leaving::Any,
    extras: Extras { layout: Some(&LAYOUT), ..Extras::NONE },
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build = Build::Whole(build);

/// A master as `CLUSTER NODES` lists it: its slot ranges, and whether it has failed.
pub(crate) type Master = (NodeSpec, Vec<(u16, u16)>, bool);

/// A cluster of masters with exactly these slot ranges, each marked down where failed (a
/// `CLUSTER NODES` text's).
pub(crate) fn cluster_of(masters: Vec<Master>) -> Result<super::Cluster, Error> {
    let failed: Vec<bool> = masters.iter().map(|m| m.2).collect();
    let mut slots = Slots::from_ranges(masters.into_iter().map(|(spec, ranges, _)| (spec, ranges)).collect())?;
    for (i, _) in failed.iter().enumerate().filter(|(_, &f)| f) {
        slots.set_down(i, true)?;
    }
    Ok(super::Cluster::from_placement(Box::new(slots), Options::new(Algorithm::RedisCluster)))
}

/// `--cluster create` of the nodes, or the slot ranges a link holds.
fn build(_: &Options, nodes: Vec<NodeSpec>, layout: &Layout) -> Result<Box<dyn Placement>, Error> {
    Ok(Box::new(match layout.parts_for(&LAYOUT) {
        Some(parts) => {
            let ranges: Vec<_> = parts
                .iter()
                .map(|p| read_ranges(p))
                .collect::<Result<_, _>>()
                .map_err(|e| Error::invalid_option(LAYOUT.key, e))?;
            Slots::from_ranges(nodes.into_iter().zip(ranges).collect())?
        }
        None => Slots::create(nodes)?,
    }))
}

/// Each master's slot ranges: an import's, or where a rebalance left them, which the nodes
/// alone do not give. A link carries them in `rs`, each master's ranges `first-last` (or one
/// slot) separated by `.`: `rs=0-5460,5461-10922,10923-16383`.
pub(crate) const LAYOUT: LayoutSpec = LayoutSpec {
    key: "rs",
    what: "slot ranges",
    check: |part| read_ranges(part).map(drop),
    of_owners: Some(|owners, nodes| {
        let mut ranges = vec![Vec::new(); nodes];
        let mut slot = 0;
        while slot < owners.len() {
            let run = owners[slot..].iter().take_while(|&&o| o == owners[slot]).count();
            if let Some(o) = owners[slot] {
                ranges[o].push((slot as u16, (slot + run - 1) as u16));
            }
            slot += run;
        }
        ranges.iter().map(|r| write_ranges(r)).collect()
    }),
};

/// The layout of these slot ranges, by master (what [`Cluster::with_layout`] takes).
///
/// [`Cluster::with_layout`]: super::Cluster::with_layout
pub fn layout_of(ranges: &[Vec<(u16, u16)>]) -> Layout {
    Layout::new(&LAYOUT, ranges.iter().map(|r| write_ranges(r)).collect())
}

/// The slot ranges by master a layout holds, if it is Redis Cluster's and reads.
pub fn ranges_of(layout: &Layout) -> Option<Vec<Vec<(u16, u16)>>> {
    layout.parts_for(&LAYOUT)?.iter().map(|part| read_ranges(part).ok()).collect()
}

/// One master's slot ranges as its layout writes them (a link's `rs`): `0-99.300`.
pub fn write_ranges(ranges: &[(u16, u16)]) -> String {
    let range = |&(first, last): &(u16, u16)| if first == last { first.to_string() } else { format!("{first}-{last}") };
    ranges.iter().map(range).collect::<Vec<_>>().join(".")
}

/// One master's slot ranges from [`write_ranges`]'s text; the error says what is wrong.
pub fn read_ranges(text: &str) -> Result<Vec<(u16, u16)>, String> {
    let slot = |text: &str| -> Result<u16, String> {
        text.parse::<u16>()
            .ok()
            .filter(|&s| usize::from(s) < SLOTS)
            .ok_or_else(|| format!("{text:?} is not a slot (0-16383)"))
    };
    text.split('.')
        .filter(|r| !r.is_empty())
        .map(|range| match range.split_once('-') {
            Some((first, last)) => Ok((slot(first)?, slot(last)?)),
            None => slot(range).map(|s| (s, s)),
        })
        .collect()
}

/// The number of slots.
pub const SLOTS: usize = 16384;
const CRC16: crc::Crc<u16> = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
/// redis-cli's default `--cluster-threshold`, in percent.
const THRESHOLD: f32 = 2.0;
/// No owner (only before the first node exists).
const NOBODY: u16 = u16::MAX;
/// The rebalance weights whose single-precision arithmetic stays finite and in range: redis-cli
/// keeps weights as `float` and computes `(float)16384 / total_weight * weight`.
pub const MIN_WEIGHT: f64 = 1e-30;
pub const MAX_WEIGHT: f64 = 1e30;

/// The slot of `key`, with the hash-tag rule: if the key has a `{` and a later `}` with at
/// least one byte between them, only those bytes are hashed.
pub fn key_slot(key: &[u8]) -> u16 {
    CRC16.checksum(hashed_part(key)) & (SLOTS as u16 - 1)
}

/// The bytes Redis hashes for a key's slot: the hash tag, the bytes between the first `{`
/// and the first `}` after it when there are some, else the whole key.
fn hashed_part(key: &[u8]) -> &[u8] {
    let tagged = key.iter().position(|&b| b == b'{').and_then(|open| {
        let close = key[open + 1..].iter().position(|&b| b == b'}')?;
        (close > 0).then(|| &key[open + 1..open + 1 + close])
    });
    tagged.unwrap_or(key)
}

/// The slot ranges `[first, last]` `redis-cli --cluster create` gives `masters` masters, in
/// its single-precision arithmetic (`slots_per_node` and `cursor` are floats, `last` is
/// `lround`ed).
///
/// For some counts (the smallest is 7,542) the float cursor drifts so far that a master's
/// range starts past slot 16383: redis-cli writes past its slot table and the master's
/// `CLUSTER ADDSLOTS` has no slot to send, so `create` fails. Those counts are refused.
///
/// ```
/// use ringlab::algo::stores::redis::create_ranges;
/// assert_eq!(create_ranges(3)?, vec![(0, 5460), (5461, 10922), (10923, 16383)]);
/// assert!(create_ranges(7542).is_err());
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn create_ranges(masters: usize) -> Result<Vec<(u16, u16)>, Error> {
    limits::check("Redis Cluster masters", masters as u64, SLOTS as u64)?;
    let per_node = SLOTS as f32 / masters as f32;
    let (mut first, mut cursor) = (0i64, 0f32);
    let mut out = Vec::with_capacity(masters);
    for i in 0..masters {
        let mut last = f64::from(cursor + per_node - 1.0).round() as i64;
        if last > SLOTS as i64 || i == masters - 1 {
            last = SLOTS as i64 - 1;
        }
        last = last.max(first);
        if last >= SLOTS as i64 {
            return Err(Error::Unsupported(format!(
                "redis-cli --cluster create cannot split the {SLOTS} slots over {masters} masters: \
                 its single-precision slot cursor runs past slot {} at master {}, which gets no slot, \
                 and create fails; start with fewer masters and add the rest",
                SLOTS - 1,
                i + 1
            )));
        }
        out.push((first as u16, last as u16));
        first = last + 1;
        cursor += per_node;
    }
    Ok(out)
}

/// The host redis-cli groups masters by, as text (no resolving): what precedes the last `:`
/// once a `@bus-port` is cut, so `::1:7000` is `::1` and `[::1]:7000` is `[::1]`. redis-cli
/// refuses a name with no `:`; here it is its own host, as if `node-1` were `node-1:<port>`.
fn create_host(name: &str) -> &str {
    let addr = name.rsplit_once('@').map_or(name, |(addr, _)| addr);
    addr.rsplit_once(':').map_or(name, |(host, _)| host)
}

/// The order in which `redis-cli --cluster create` gives the masters their slot ranges:
/// masters grouped by host in order of first appearance, then one from each group in turn
/// (its `interleaved` list). Indices into `names`.
///
/// ```
/// use ringlab::algo::stores::redis::create_order;
/// let names = ["127.0.0.1:31001", "127.0.0.1:31002", "127.0.0.2:31001", "127.0.0.2:31002"];
/// assert_eq!(create_order(&names), vec![0, 2, 1, 3]);
/// ```
pub fn create_order<S: AsRef<str>>(names: &[S]) -> Vec<usize> {
    // Groups in order of first appearance, found by host in a map (16,384 names, each its own
    // group, would be 134 million comparisons by a scan).
    let mut group_of: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    let mut groups: Vec<std::collections::VecDeque<usize>> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let next = groups.len();
        let g = *group_of.entry(create_host(name.as_ref())).or_insert(next);
        if g == next {
            groups.push(std::collections::VecDeque::new());
        }
        groups[g].push_back(i);
    }
    let mut order = Vec::with_capacity(names.len());
    while !groups.is_empty() {
        order.extend(groups.iter_mut().filter_map(|members| members.pop_front()));
        // An emptied group is dropped, so each round costs what it hands out.
        groups.retain(|members| !members.is_empty());
    }
    order
}

/// Checks a rebalance weight is in the range redis-cli's float arithmetic handles.
fn check_redis_weight(weight: f64) -> Result<(), Error> {
    check_weight(weight)?;
    if (MIN_WEIGHT..=MAX_WEIGHT).contains(&weight) {
        Ok(())
    } else {
        let words = format!(
            "Redis Cluster weights are from {} to {} (got {}): redis-cli keeps rebalance weights as 32-bit \
             floats and divides the {SLOTS} slots by their total, which leaves the range of a float outside it",
            crate::decimal::shortest_exp(MIN_WEIGHT),
            crate::decimal::shortest_exp(MAX_WEIGHT),
            crate::decimal::shortest(weight)
        );
        Err(Error::weight_refused(weight, words))
    }
}

#[derive(Clone, Debug)]
pub struct Slots {
    nodes: Vec<Node>,
    /// The owner of each slot, an index into `nodes`.
    owner: Vec<u16>,
    /// The last slot of each run of slots with one owner: the ring's points.
    run_ends: Vec<u16>,
    /// Failed masters: their slots are unavailable.
    down: DownSet,
}

impl Slots {
    /// `redis-cli --cluster create` with these masters, given in this order (the nodes keep
    /// it; the slot ranges follow [`create_order`]). Only creation interleaves: an `add` or
    /// `remove` rebalances.
    pub fn create(specs: Vec<NodeSpec>) -> Result<Slots, Error> {
        let nodes = new_nodes(specs, 0, |spec| check_redis_weight(spec.weight))?;
        let ranges = create_ranges(nodes.len())?;
        let order = create_order(&nodes.iter().map(|n| n.name.as_str()).collect::<Vec<_>>());
        let mut slots = Slots { nodes, owner: vec![NOBODY; SLOTS], run_ends: Vec::new(), down: DownSet::default() };
        for (&i, &(first, last)) in order.iter().zip(&ranges) {
            slots.owner[usize::from(first)..=usize::from(last)].fill(i as u16);
        }
        slots.refresh();
        Ok(slots)
    }

    /// Masters owning exactly these inclusive slot ranges `[first, last]` (none for a master
    /// with no slots), as a real cluster reports them. Slots nobody claims stay unserved.
    /// Errors: a slot past 16383, a range that ends before it starts, a slot claimed twice.
    ///
    /// ```
    /// use ringlab::algo::stores::redis::Slots;
    /// use ringlab::NodeSpec;
    /// let slots = Slots::from_ranges(vec![
    ///     (NodeSpec::new("10.0.0.1:6379"), vec![(0, 8191)]),
    ///     (NodeSpec::new("10.0.0.2:6379"), vec![(8192, 16383)]),
    /// ])?;
    /// assert_eq!(slots.ranges()[1], vec![(8192, 16383)]);
    /// # Ok::<(), ringlab::Error>(())
    /// ```
    pub fn from_ranges(masters: Vec<(NodeSpec, Vec<(u16, u16)>)>) -> Result<Slots, Error> {
        let (specs, ranges): (Vec<NodeSpec>, Vec<Vec<(u16, u16)>>) = masters.into_iter().unzip();
        let nodes = new_nodes(specs, 0, |spec| check_redis_weight(spec.weight))?;
        let mut owner = vec![NOBODY; SLOTS];
        for (i, list) in ranges.iter().enumerate() {
            for &(first, last) in list {
                if usize::from(last) >= SLOTS || first > last {
                    return Err(Error::node_refused(
                        &nodes[i].name,
                        format!("{:?}: slot range {first}-{last} is not within 0-{}", nodes[i].name, SLOTS - 1),
                    ));
                }
                for slot in usize::from(first)..=usize::from(last) {
                    if owner[slot] == i as u16 {
                        return Err(Error::node_refused(
                            &nodes[i].name,
                            format!("slot {slot} is in two of {:?}'s ranges", nodes[i].name),
                        ));
                    }
                    if owner[slot] != NOBODY {
                        return Err(Error::node_refused(
                            &nodes[i].name,
                            format!(
                                "slot {slot} is claimed by both {:?} and {:?}",
                                nodes[usize::from(owner[slot])].name,
                                nodes[i].name
                            ),
                        ));
                    }
                    owner[slot] = i as u16;
                }
            }
        }
        let mut slots = Slots { nodes, owner, run_ends: Vec::new(), down: DownSet::default() };
        slots.refresh();
        Ok(slots)
    }

    /// Whether some slot has no master.
    fn has_unserved(&self) -> bool {
        !self.nodes.is_empty() && self.owner.contains(&NOBODY)
    }

    /// The ranges `[first, last]` each node owns, in slot order (slots no master owns are in
    /// none).
    pub fn ranges(&self) -> Vec<Vec<(u16, u16)>> {
        let mut out = vec![Vec::new(); self.nodes.len()];
        let mut first = 0;
        while first < SLOTS {
            let owner = self.owner[first];
            let run = self.owner[first..].iter().take_while(|&&o| o == owner).count();
            if owner != NOBODY {
                out[usize::from(owner)].push((first as u16, (first + run - 1) as u16));
            }
            first += run;
        }
        out
    }

    fn refresh(&mut self) {
        self.run_ends = (0..SLOTS)
            .filter(|&s| s == SLOTS - 1 || self.owner[s] != self.owner[s + 1])
            .filter(|&s| self.owner[s] != NOBODY)
            .map(|s| s as u16)
            .collect();
        let counts = self.counts();
        for (node, count) in self.nodes.iter_mut().zip(counts) {
            node.points = count as u32;
        }
    }

    /// Slots per node.
    fn counts(&self) -> Vec<i64> {
        let mut counts = vec![0i64; self.nodes.len()];
        for &o in self.owner.iter().filter(|&&o| o != NOBODY) {
            counts[usize::from(o)] += 1;
        }
        counts
    }

    /// `add`, with redis-cli walking the masters in `cli_order` (indices in the order the nodes
    /// were added, the new node being the last index; a real redis-cli's order follows the
    /// random node ids, and decides only ±1-slot tie-breaks). On error nothing changes.
    pub fn add_in_cli_order(&mut self, spec: NodeSpec, cli_order: &[usize]) -> Result<(), Error> {
        if !is_permutation(cli_order, self.nodes.len() + 1) {
            return Err(Error::mismatch(
                "the redis-cli order",
                "the redis-cli order must list every master once, the new one included",
            ));
        }
        if self.nodes.is_empty() {
            *self = Slots::create(vec![spec])?;
            return Ok(());
        }
        check_redis_weight(spec.weight)?;
        limits::check_nodes(self.nodes.len() + 1)?;
        let node = new_node(&self.nodes, spec, 0)?;
        let mut added = self.clone();
        added.nodes.push(node);
        let weights = added.weights();
        added.rebalance(&weights, cli_order)?;
        added.refresh();
        *self = added;
        Ok(())
    }

    /// `remove`, with redis-cli walking the masters in `cli_order` (indices in the order the
    /// nodes were added; a real redis-cli's order follows the random node ids).
    pub fn remove_in_cli_order(&mut self, name: &str, cli_order: &[usize]) -> Result<(), Error> {
        let idx = index_of(&self.nodes, name)?;
        if !is_permutation(cli_order, self.nodes.len()) {
            return Err(Error::mismatch("the redis-cli order", "the redis-cli order must list every master once"));
        }
        if self.nodes.len() == 1 {
            *self = Slots::create(Vec::new())?;
            return Ok(());
        }
        let mut drained = self.clone();
        let mut weights = drained.weights();
        weights[idx] = 0.0;
        drained.rebalance(&weights, cli_order)?;
        if drained.counts()[idx] != 0 {
            // What `del-node` says of a master that still has slots.
            return Err(Error::Unsupported(format!(
                "[ERR] Node {name} is not empty! Reshard data away and try again. (the drain left it slots)"
            )));
        }
        drained.nodes.remove(idx);
        drained.down.forget(name);
        for o in drained.owner.iter_mut().filter(|o| **o != NOBODY && usize::from(**o) > idx) {
            *o -= 1;
        }
        drained.refresh();
        *self = drained;
        Ok(())
    }

    /// redis-cli's rebalance over all masters with these weights (`--cluster-use-empty-masters`),
    /// visiting masters in `order`. On error the slots may be half moved: callers work on a copy.
    fn rebalance(&mut self, weights: &[f32], order: &[usize]) -> Result<(), Error> {
        let total_weight: f32 = weights.iter().sum();
        let counts = self.counts();
        let mut balance = vec![0i64; counts.len()];
        let mut over_threshold = false;
        for &i in order {
            let count = counts[i];
            // In range: the weights are checked, so the quotient is finite and at most ~16384.
            let expected = ((SLOTS as f32 / total_weight) * weights[i]) as i64;
            balance[i] = count - expected;
            over_threshold |= if count > 0 {
                (100.0 - 100.0 * expected as f64 / count as f64).abs() as f32 > THRESHOLD
            } else {
                expected > 1
            };
        }
        if !over_threshold {
            return Ok(());
        }
        // Rounding can leave the balances summing above 0: nodes that receive take one more.
        // A pass that finds no receiver would repeat forever in redis-cli; refuse instead.
        let mut total: i64 = balance.iter().sum();
        while total > 0 {
            let before = total;
            for &i in order {
                if balance[i] <= 0 && total > 0 {
                    balance[i] -= 1;
                    total -= 1;
                }
            }
            if total == before {
                return Err(Error::Unsupported(
                    "redis-cli's rebalance would loop forever with these weights: no master can receive slots".into(),
                ));
            }
        }
        // Each node's slots, lowest first: a source gives its lowest-numbered slots.
        let mut owned: Vec<Vec<u16>> = counts.iter().map(|&c| Vec::with_capacity(c as usize)).collect();
        for (slot, &o) in self.owner.iter().enumerate().filter(|&(_, &o)| o != NOBODY) {
            owned[usize::from(o)].push(slot as u16);
        }
        let mut given = vec![0usize; owned.len()];
        // glibc's qsort is a stable merge sort here: ties keep node order.
        let keys: Vec<u64> = order.iter().map(|&i| crate::order::i64_key(balance[i])).collect();
        let order: Vec<usize> = crate::order::stable_order(&keys).into_iter().map(|k| order[k]).collect();
        let (mut dst, mut src) = (0usize, order.len().saturating_sub(1));
        // Ends: each pass moves an index or shrinks the source's positive balance.
        while dst < src {
            let (d, s) = (order[dst], order[src]);
            let moving = balance[d].unsigned_abs().min(balance[s].unsigned_abs()) as usize;
            if moving > 0 {
                let slots = owned[s].get(given[s]..given[s] + moving).ok_or_else(|| {
                    Error::Unsupported("*** Assertion failed: Reshard table != number of slots".into())
                })?;
                for &slot in slots {
                    self.owner[usize::from(slot)] = d as u16;
                }
                given[s] += moving;
            }
            balance[d] += moving as i64;
            balance[s] -= moving as i64;
            if balance[d] == 0 {
                dst += 1;
            }
            if balance[s] == 0 {
                src -= 1;
            }
        }
        self.refresh();
        Ok(())
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
    fn layout(&self) -> Option<Vec<String>> {
        Some(self.ranges().iter().map(|r| write_ranges(r)).collect())
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
    fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
        self.down.set(&self.nodes, index, down)
    }
    fn is_down(&self, index: usize) -> bool {
        self.down.contains(&self.nodes, index)
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        let slot = key_slot(key);
        match self.owner[usize::from(slot)] {
            NOBODY if self.nodes.is_empty() => Err(Error::EmptyRing),
            NOBODY => Err(Error::Unavailable(format!("slot {slot} is not served by any master"))),
            o if self.down.contains(&self.nodes, usize::from(o)) => {
                Err(down::unavailable(Algorithm::RedisCluster, &self.nodes[usize::from(o)].name))
            }
            o => Ok(usize::from(o)),
        }
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        (f64::from(key_slot(key)) + 0.5) / SLOTS as f64
    }
    fn describe_key(&self, key: &[u8]) -> String {
        format!("slot {}", key_slot(key))
    }
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        let part = hashed_part(key);
        let what = if part.len() == key.len() {
            "the bytes hashed: the whole key (no hash tag)"
        } else {
            "the bytes hashed: the key's hash tag, between { and }"
        };
        chain.bytes(what, part);
        let crc = CRC16.checksum(part);
        chain.push(Step::new(StepKind::Hash, "CRC16 (XMODEM) of them", format!("{} = {crc}", hex(u64::from(crc), 16))));
        let slot = key_slot(key);
        let fraction = self.key_fraction(key);
        chain.push(
            Step::new(StepKind::Slot, "its low 14 bits (mod 16384): the hash slot", slot.to_string())
                .at_fraction(fraction),
        );
        match self.owner[usize::from(slot)] {
            NOBODY => None,
            o => {
                let label = "the master that holds the slot";
                let step = Step::new(StepKind::Entry, label, self.nodes[usize::from(o)].name.clone());
                chain.push(step.at_fraction(fraction).at_node(usize::from(o)));
                Some(usize::from(o))
            }
        }
    }
    /// None while some slot has no master (a run of unserved slots is no arc).
    fn arcs(&self) -> Option<&dyn Arcs> {
        (!self.has_unserved()).then_some(self as &dyn Arcs)
    }
    fn exact_shares_are_arcs(&self) -> bool {
        false
    }
    /// Slots per master over 16384 (a failed master's slots stay its own, unavailable).
    fn exact_shares(&self) -> Option<Vec<f64>> {
        Some(self.counts().into_iter().map(|c| c as f64 / SLOTS as f64).collect())
    }
    fn memory_bytes(&self) -> usize {
        self.owner.capacity() * 2
            + self.run_ends.capacity() * 2
            + self.nodes.iter().map(Node::memory_bytes).sum::<usize>()
    }
    fn lookup_cost(&self) -> u64 {
        2
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

#[cfg(test)]
mod tests {
    use super::*;

    fn owners_in_range(slots: &Slots) -> bool {
        slots.owner.iter().all(|&o| usize::from(o) < slots.nodes.len())
    }

    #[test]
    fn ranges_give_back_the_slots_each_master_was_given_gaps_included() {
        let given = vec![vec![(0, 99), (300, 300)], vec![(200, 299), (301, 16000)], vec![]];
        let specs = ["a", "b", "c"].map(NodeSpec::new);
        let slots = Slots::from_ranges(specs.into_iter().zip(given.clone()).collect()).unwrap();
        // 100-199 and 16001-16383 have no master.
        assert_eq!(slots.ranges(), given);
        assert!(slots.has_unserved());
    }

    #[test]
    fn overlapping_ranges_name_whose_they_are() {
        let refusal = |given: Vec<Vec<(u16, u16)>>| {
            let specs = ["a", "b"].map(NodeSpec::new);
            Slots::from_ranges(specs.into_iter().zip(given).collect()).unwrap_err().to_string()
        };
        assert!(refusal(vec![vec![(5, 10), (0, 16383)], vec![]]).contains("slot 5 is in two of \"a\"'s ranges"));
        assert!(refusal(vec![vec![(0, 10)], vec![(10, 20)]]).contains("slot 10 is claimed by both \"a\" and \"b\""));
    }

    #[test]
    fn create_tiles_the_slot_table_or_refuses_for_every_master_count() {
        let mut refused = Vec::new();
        for n in (1..=SLOTS).filter(|n| n % 7 == 0 || *n < 200 || *n > SLOTS - 200 || (7540..7545).contains(n)) {
            match create_ranges(n) {
                Ok(ranges) => {
                    assert_eq!(ranges.len(), n);
                    assert_eq!(ranges[0].0, 0);
                    assert_eq!(ranges[n - 1].1 as usize, SLOTS - 1);
                    assert!(ranges.windows(2).all(|w| w[0].1 + 1 == w[1].0 && w[0].0 <= w[0].1), "n = {n}");
                }
                Err(e) => refused.push((n, e.code())),
            }
        }
        // 16384 / 7542 in float drifts past the table (checked against redis-cli's loop by hand).
        assert_eq!(refused.first(), Some(&(7542, "unsupported")));
        assert!(create_ranges(SLOTS).is_ok() && create_ranges(SLOTS + 1).is_err());
    }

    /// Confirmed with redis-cli 7.0.15: `user:2` (slot 6777) is 127.0.0.2:31001's.
    #[test]
    fn create_interleaves_masters_by_ip_and_add_does_not() {
        let names = ["127.0.0.1:31001", "127.0.0.1:31002", "127.0.0.2:31001", "127.0.0.2:31002"];
        let slots = Slots::create(names.map(NodeSpec::new).to_vec()).unwrap();
        let want = vec![vec![(0, 4095)], vec![(8192, 12287)], vec![(4096, 8191)], vec![(12288, 16383)]];
        assert_eq!(slots.ranges(), want);
        assert_eq!(key_slot(b"user:2"), 6777);
        assert_eq!(slots.locate_index(b"user:2").unwrap(), 2);

        let order = |names: &[&str]| create_order(names);
        // Uneven groups, and an IP that comes back after another.
        assert_eq!(order(&["a:1", "a:2", "a:3", "b:1"]), [0, 3, 1, 2]);
        assert_eq!(order(&["a:1", "b:1", "a:2", "c:1", "b:2", "a:3"]), [0, 1, 3, 2, 4, 5]);
        // The host is the text before the last ':' once '@bus' is cut; no resolving.
        assert_eq!(
            order(&["::1:7000", "::1:7001", "[::1]:7000", "127.0.0.1:7000@17000", "127.0.0.1:7001"]),
            [0, 2, 3, 1, 4]
        );
        assert_eq!(order(&["localhost:1", "localhost:2", "127.0.0.1:3"]), [0, 2, 1]);
        // A name with no ':' is its own host: the playground's names keep their order.
        assert_eq!(order(&["node-1", "node-2", "node-3"]), [0, 1, 2]);
        assert_eq!(order(&["node-1", "node-1:2", "node-2"]), [0, 2, 1]);

        // add-node + rebalance only moves slots to the new master.
        let mut added = slots.clone();
        added.add(NodeSpec::new("127.0.0.3:31001")).unwrap();
        for slot in 0..SLOTS {
            assert!(added.owner[slot] == slots.owner[slot] || added.owner[slot] == 4, "slot {slot}");
        }
    }

    #[test]
    fn extreme_weights_terminate_and_keep_owners_in_range() {
        let mut slots = Slots::create(vec![NodeSpec::new("a"), NodeSpec::new("b")]).unwrap();
        for (i, w) in [MIN_WEIGHT, MAX_WEIGHT, 1.0, MIN_WEIGHT, MAX_WEIGHT].into_iter().enumerate() {
            slots.add(NodeSpec::new(format!("n{i}")).weight(w)).unwrap();
            assert!(owners_in_range(&slots));
        }
        for name in ["n1", "a", "n4", "n0", "b", "n2"] {
            slots.remove(name).unwrap();
            assert!(owners_in_range(&slots), "after removing {name}");
            assert_eq!(slots.counts().iter().sum::<i64>(), SLOTS as i64);
        }
    }

    #[test]
    fn weights_a_float_cannot_hold_are_refused_in_words() {
        let mut slots = Slots::create(vec![NodeSpec::new("a")]).unwrap();
        // 3e38 twice overflows redis-cli's float total (this froze the tab before).
        let big = NodeSpec::new("b").weight(3e38);
        let err = slots.add(big).unwrap_err();
        assert!(err.to_string().contains("32-bit floats"), "{err}");
        assert!(slots.add(NodeSpec::new("c").weight(1e-300)).is_err());
        assert_eq!(slots.nodes().len(), 1);
    }
}
