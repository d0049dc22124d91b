//! The hash ring: nodes, their virtual-node points, and lookups.
//!
//! A ring of `b` bits is the integer range `[0, 2^b - 1]`, compared as unsigned integers.
//! Each node puts `max(1, round(weight × vnodes))` points on it, at the hash of the labels
//! `"{name}#0"`, `"{name}#1"`, ... A key belongs to the first point at or after the key's
//! hash, wrapping past the top to the first point.
//!
//! **Collisions.** Two points may land on the same position. Both are kept; among them the
//! point of the node whose name sorts first (byte order) owns the keys. Removing that node
//! hands the position to the next name. The rule depends only on names, never on the order
//! nodes were added, so two clients that add the same nodes in any order agree on every key.
//!
//! **Other rings.** [`RingRules`] describe a hand-written ring instead: another label
//! template, another way to read the digest, "first point after" lookups, and a map's ties
//! (one owner a position; a removal deletes it). The defaults are the rules above.
//!
//! **Speed.** The common ring (32 bits, XXH3, no node down) takes a fast path chosen once
//! per change, not per lookup: the hash inline, then the points' branch-free search with
//! no dispatch or bounds checks; a replica list of up to 4 (no zones) reads the owners at
//! offsets stored with each point. Every other ring takes the general path; both answer
//! alike (`tests/native/lookup_paths.rs`).

use crate::node::{check_names, check_weight};
use crate::order::StagedSort;
use crate::points::{decode_run, Filling, Points};
use crate::ring_rules::{RingBits, Ties};
use crate::work::Cost;
use crate::{Error, Hash, Node, NodeSpec, Replicas, RingRules};
use std::ops::ControlFlow;

/// Replica lists up to this long, on rings without zones, are gathered on the stack.
const FEW_REPLICAS: usize = 8;

pub use crate::limits::{MAX_NAME_LEN, MAX_POINTS, MAX_VNODES};

/// How a ring hashes and how many points each node gets.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The hash function for point labels and keys.
    pub hash: Hash,
    /// The ring's size.
    pub bits: RingBits,
    /// Points per node of weight 1.
    pub vnodes: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config { hash: Hash::Xxh3, bits: RingBits::B32, vnodes: 160 }
    }
}

impl Config {
    /// Checks the settings; [`Ring::new`] calls it.
    pub fn validate(&self) -> Result<(), Error> {
        if self.vnodes == 0 || self.vnodes > MAX_VNODES {
            return Err(Error::InvalidVnodes(u64::from(self.vnodes)));
        }
        if self.hash.bits() < self.bits.bits() {
            return Err(Error::HashTooNarrow { hash: self.hash.name() });
        }
        Ok(())
    }

    /// How many points a node of this weight gets: `max(1, round(weight × vnodes))`.
    pub fn points_for(&self, weight: f64) -> Result<u32, Error> {
        check_weight(weight)?;
        let points = (weight * f64::from(self.vnodes)).round().max(1.0);
        if points > MAX_POINTS as f64 {
            return Err(Error::TooManyPoints { points: points as u64 });
        }
        Ok(points as u32)
    }
}

/// A consistent-hash ring.
///
/// ```
/// use ringlab::{Config, Ring};
///
/// let mut ring = Ring::new(Config::default())?;
/// for name in ["cache-a", "cache-b", "cache-c"] {
///     ring.add(name)?;
/// }
/// let owner = ring.locate("user:42")?.to_string();
///
/// // Adding a node moves keys only onto the new node.
/// ring.add("cache-d")?;
/// let now = ring.locate("user:42")?;
/// assert!(now == owner || now == "cache-d");
/// # Ok::<(), ringlab::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Ring {
    config: Config,
    /// Labels, positions, lookups and ties (ringlab's own by default).
    rules: RingRules,
    nodes: Vec<Node>,
    points: Points,
    /// Whether any node has a zone (replicas then take the zone-aware walk).
    zoned: bool,
    /// Which nodes are down, indexed like `nodes`.
    down: Vec<bool>,
    down_count: usize,
    /// While some node is down and some is up: the same points, each owned by the first
    /// point's node at or after it that is up (what a key landing there gets).
    live: Option<Points>,
    /// Whether lookups take the fast path: a 32-bit ring of points, hashed by XXH3, with
    /// nodes and none down (the common case, decided once per change, not per lookup).
    fast: bool,
    /// On a 32-bit ring, where each point's next distinct owners are
    /// ([`Points::replica_runs`]): replica lists on the fast path.
    runs: Vec<u8>,
}

impl Ring {
    /// An empty ring.
    pub fn new(config: Config) -> Result<Ring, Error> {
        Ring::new_with_rules(config, RingRules::default())
    }

    /// An empty ring with these rules.
    pub fn new_with_rules(config: Config, rules: RingRules) -> Result<Ring, Error> {
        config.validate()?;
        rules.check(config.hash, config.bits)?;
        let points = Points::new(config.bits.bits());
        Ok(Ring {
            config,
            rules,
            nodes: Vec::new(),
            points,
            zoned: false,
            down: Vec::new(),
            down_count: 0,
            live: None,
            fast: false,
            runs: Vec::new(),
        })
    }

    /// A ring with these nodes, built in one pass (faster than adding them one by one).
    ///
    /// ```
    /// use ringlab::{Config, NodeSpec, Ring};
    /// let ring = Ring::with_nodes(Config::default(), [NodeSpec::new("a"), NodeSpec::new("b").weight(2.0)])?;
    /// assert_eq!(ring.nodes()[1].points, 2 * ring.nodes()[0].points);
    /// # Ok::<(), ringlab::Error>(())
    /// ```
    pub fn with_nodes<I>(config: Config, nodes: I) -> Result<Ring, Error>
    where
        I: IntoIterator,
        I::Item: Into<NodeSpec>,
    {
        Ring::with_rules(config, RingRules::default(), nodes)
    }

    /// A ring with these rules and nodes, the nodes added in order (which decides a map's
    /// ties, see [`RingRules`]).
    ///
    /// ```
    /// use ringlab::{Config, Hash, Label, Lookup, Position, Ring, RingRules};
    /// // Python's `int(md5(x).hexdigest(), 16) % 2**32` with `bisect.bisect`.
    /// let rules = RingRules { position: Position::Last4Be, lookup: Lookup::After, ..RingRules::default() };
    /// let config = Config { hash: Hash::Md5, vnodes: 3, ..Config::default() };
    /// let ring = Ring::with_rules(config, rules, ["a", "b"])?;
    /// assert_eq!(ring.point_label(0).unwrap().split('#').count(), 2);
    /// # Ok::<(), ringlab::Error>(())
    /// ```
    pub fn with_rules<I>(config: Config, rules: RingRules, nodes: I) -> Result<Ring, Error>
    where
        I: IntoIterator,
        I::Item: Into<NodeSpec>,
    {
        Ok(Ring::building(config, rules, nodes)?.finish())
    }

    /// [`Ring::with_rules`] in steps of bounded work ([`RingBuild::step`]), for a caller that
    /// must not block for the whole build (a page opening a link at the caps). The checks
    /// are made here, so building it cannot fail.
    pub fn building<I>(config: Config, rules: RingRules, nodes: I) -> Result<RingBuild, Error>
    where
        I: IntoIterator,
        I::Item: Into<NodeSpec>,
    {
        let mut ring = Ring::new_with_rules(config, rules)?;
        let specs: Vec<NodeSpec> = nodes.into_iter().map(Into::into).collect();
        check_names(&[], &specs)?;
        let mut total = 0u64;
        for spec in specs {
            let node = ring.check_spec(spec, total)?;
            total += u64::from(node.points);
            ring.nodes.push(node);
        }
        let work = ring.nodes.iter().map(|n| ring.hashing_work(&n.name, n.points)).fold(0, u64::saturating_add);
        crate::work::charge(Cost::HashedBytes, work)?;
        let hashing = Hashing { entries: Vec::with_capacity(total as usize), node: 0, vnode: 0, label: Vec::new() };
        Ok(RingBuild { ring, stage: Stage::Hash(hashing) })
    }

    /// The settings the ring was made with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The rules the ring was made with.
    pub fn rules(&self) -> &RingRules {
        &self.rules
    }

    /// The nodes, in the order they were added.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The node with this name.
    pub fn node(&self, name: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.name == name)
    }

    /// Whether the ring has no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The number of points (virtual nodes) on the ring.
    pub fn point_count(&self) -> usize {
        self.points.len()
    }

    /// Heap bytes the ring holds: points, their owners, the lookup index, the replica run
    /// bytes (one a point on a 32-bit XXH3 ring) and the nodes.
    pub fn memory_bytes(&self) -> usize {
        self.points.memory_bytes()
            + self.runs.capacity()
            + self.live.as_ref().map_or(0, Points::memory_bytes)
            + self.down.capacity()
            + self.nodes.iter().map(Node::memory_bytes).sum::<usize>()
    }

    /// Point `i` in clockwise order: its position and the index of its node in [`nodes`](Ring::nodes).
    pub fn point(&self, i: usize) -> (u64, usize) {
        self.points.point(i)
    }

    /// Adds a node of weight 1.
    pub fn add(&mut self, name: &str) -> Result<(), Error> {
        self.add_node(NodeSpec::new(name))
    }

    /// Adds a node. On error the ring is unchanged.
    pub fn add_node(&mut self, spec: NodeSpec) -> Result<(), Error> {
        let node = self.check_new(spec, self.points.len() as u64)?;
        crate::work::charge(Cost::HashedBytes, self.hashing_work(&node.name, node.points))?;
        let fresh = self.node_entries(&node.name, node.points, self.nodes.len() as u32);
        self.zoned |= node.zone.is_some();
        self.nodes.push(node);
        self.down.push(false);
        if self.rules.ties == Ties::SmallerName {
            self.merge_points(u32::MAX, fresh);
        } else {
            self.put_points(&[], fresh);
        }
        Ok(())
    }

    /// Removes a node and exactly its points. On error the ring is unchanged.
    pub fn remove(&mut self, name: &str) -> Result<Node, Error> {
        let idx = self.index_of(name)? as u32;
        // A map deletes the positions of the node's labels, whoever holds them.
        let deleted = match self.rules.ties {
            Ties::SmallerName => Vec::new(),
            _ => {
                let points = self.nodes[idx as usize].points;
                crate::work::charge(Cost::HashedBytes, self.hashing_work(name, points))?;
                self.node_entries(name, points, idx).into_iter().map(|e| e.0).collect()
            }
        };
        let entries: Vec<(u64, u32)> = self
            .points
            .entries()
            .filter(|&(pos, owner)| owner != idx && deleted.binary_search(&pos).is_err())
            .map(|(pos, owner)| (pos, if owner > idx { owner - 1 } else { owner }))
            .collect();
        self.points.set(&entries);
        let node = self.nodes.remove(idx as usize);
        self.down.remove(idx as usize);
        self.down_count = self.down.iter().filter(|&&d| d).count();
        self.zoned = self.nodes.iter().any(|n| n.zone.is_some());
        self.points_changed();
        Ok(node)
    }

    /// Changes a node's weight (and so its number of points). On error the ring is unchanged.
    pub fn set_weight(&mut self, name: &str, weight: f64) -> Result<(), Error> {
        let idx = self.index_of(name)?;
        let points = self.config.points_for(weight)?;
        // The points the node holds now: fewer than its labels where a map lost one to a collision.
        let held = self.points.entries().filter(|&(_, owner)| owner as usize == idx).count() as u64;
        let total = self.points.len() as u64 - held + u64::from(points);
        if total > MAX_POINTS {
            return Err(Error::TooManyPoints { points: total });
        }
        let hashing = self.hashing_work(name, points).saturating_add(self.hashing_work(name, self.nodes[idx].points));
        crate::work::charge(Cost::HashedBytes, hashing)?;
        let fresh = self.node_entries(name, points, idx as u32);
        let old = self.node_entries(name, self.nodes[idx].points, idx as u32);
        let node = &mut self.nodes[idx];
        node.weight = weight;
        node.points = points;
        if self.rules.ties == Ties::SmallerName {
            self.merge_points(idx as u32, fresh);
        } else {
            // A map: the old labels' positions deleted, then the new labels put.
            let deleted: Vec<u64> = old.into_iter().map(|e| e.0).collect();
            self.put_points(&deleted, fresh);
        }
        Ok(())
    }

    /// A node's points, sorted by position.
    fn node_entries(&self, name: &str, points: u32, idx: u32) -> Vec<(u64, u32)> {
        let mut label = Vec::new();
        let mut fresh: Vec<(u64, u32)> = (0..points).map(|i| (self.label_position(name, i, &mut label), idx)).collect();
        fresh.sort_unstable();
        fresh
    }

    /// A map's puts: deletes the positions in `deleted` (sorted), then puts `fresh` (sorted,
    /// one node's), overwriting (`later-added`) or keeping (`earlier-added`) a taken position.
    fn put_points(&mut self, deleted: &[u64], mut fresh: Vec<(u64, u32)>) {
        fresh.dedup_by_key(|e| e.0);
        let kept: Vec<(u64, u32)> =
            self.points.entries().filter(|&(pos, _)| deleted.binary_search(&pos).is_err()).collect();
        let taken = |pos: u64| kept.binary_search_by_key(&pos, |e| e.0).is_ok();
        let merged = match self.rules.ties {
            Ties::EarlierAdded => {
                fresh.retain(|e| !taken(e.0));
                merge(kept.iter().copied(), fresh, |a, b| a.0.cmp(&b.0))
            }
            _ => {
                let overwritten = |pos: u64| fresh.binary_search_by_key(&pos, |e| e.0).is_ok();
                let survivors: Vec<(u64, u32)> = kept.iter().copied().filter(|e| !overwritten(e.0)).collect();
                merge(survivors.into_iter(), fresh, |a, b| a.0.cmp(&b.0))
            }
        };
        self.points.set(&merged);
        self.points_changed();
    }

    /// Replaces the points of node `replaced` (none if out of range) with `fresh`, keeping the
    /// collision order of the module docs.
    fn merge_points(&mut self, replaced: u32, fresh: Vec<(u64, u32)>) {
        let nodes = &self.nodes;
        let kept = self.points.entries().filter(|&(_, owner)| owner != replaced);
        let merged = merge(kept, fresh, |a, b| by_position_then_name(nodes, a, b));
        self.points.set(&merged);
        self.points_changed();
    }

    /// Marks a node down (its keys go to the next healthy node clockwise, and replica lists
    /// skip it) or up again. The points stay, so up again is exactly the state before.
    ///
    /// ```
    /// use ringlab::{Config, Ring};
    /// let mut ring = Ring::with_nodes(Config::default(), ["a", "b", "c"])?;
    /// let owner = ring.locate("user:42")?.to_string();
    /// ring.set_down(&owner, true)?;
    /// assert_ne!(ring.locate("user:42")?, owner);
    /// ring.set_down(&owner, false)?;
    /// assert_eq!(ring.locate("user:42")?, owner);
    /// # Ok::<(), ringlab::Error>(())
    /// ```
    pub fn set_down(&mut self, name: &str, down: bool) -> Result<(), Error> {
        let idx = self.index_of(name)?;
        self.set_down_at(idx, down);
        Ok(())
    }

    pub(crate) fn set_down_at(&mut self, idx: usize, down: bool) {
        if self.down[idx] != down {
            self.down[idx] = down;
            self.down_count = if down { self.down_count + 1 } else { self.down_count - 1 };
            self.refresh_live();
        }
    }

    /// Whether node `idx` (an index into [`nodes`](Ring::nodes)) is down.
    pub fn is_down_at(&self, idx: usize) -> bool {
        self.down.get(idx).copied().unwrap_or(false)
    }

    /// The index of the node that serves point `i`: its owner, or while that owner is down,
    /// the owner of the first point after it whose node is up.
    pub fn serving_owner(&self, i: usize) -> usize {
        match &self.live {
            Some(live) => live.owner(i) as usize,
            None => self.points.owner(i) as usize,
        }
    }

    /// Rebuilds what follows from the points after they change.
    fn points_changed(&mut self) {
        self.runs = if self.config.hash == Hash::Xxh3 { self.points.replica_runs() } else { Vec::new() };
        self.refresh_live();
    }

    /// Rebuilds the serving owners after any change (nothing to keep when no node is down).
    fn refresh_live(&mut self) {
        self.fast = self.config.hash == Hash::Xxh3
            && self.rules.keys_as_default()
            && self.points.is_space_32()
            && self.down_count == 0
            && !self.points.is_empty()
            && !self.nodes.is_empty();
        let n = self.points.len();
        if self.down_count == 0 || self.down_count == self.nodes.len() || n == 0 {
            self.live = None;
            return;
        }
        // Walk twice round backwards so every point sees the next up point, wrapping.
        let mut serving = vec![0u32; n];
        let mut next_up: Option<u32> = None;
        for step in (0..2 * n).rev() {
            let i = step % n;
            let owner = self.points.owner(i);
            if !self.down[owner as usize] {
                next_up = Some(owner);
            }
            if step < n {
                serving[i] = next_up.expect("some node is up");
            }
        }
        let entries: Vec<(u64, u32)> = (0..n).map(|i| (self.points.position(i), serving[i])).collect();
        let mut live = Points::new(self.config.bits.bits());
        live.set(&entries);
        self.live = Some(live);
    }

    /// `Err(Unavailable)` when every node is down.
    #[cold]
    fn every_node_down(&self) -> Error {
        Error::Unavailable("every node is down: no node can serve a key".into())
    }

    /// The position of a key on this ring.
    #[inline(always)]
    pub fn key_position(&self, key: impl AsRef<[u8]>) -> u64 {
        self.rules.key_position(self.config.hash, self.config.bits, key.as_ref())
    }

    /// The position a key hashes to, before the lookup rule: [`key_position`](Ring::key_position)
    /// but for [`Lookup::After`](crate::Lookup::After), which looks from one position on.
    pub fn hash_position(&self, key: impl AsRef<[u8]>) -> u64 {
        self.rules.position(self.config.hash, self.config.bits, key.as_ref())
    }

    /// The index in [`nodes`](Ring::nodes) of the node that owns `position`.
    #[inline]
    pub fn owner_of(&self, position: u64) -> Result<usize, Error> {
        if let (true, Ok(position)) = (self.fast, u32::try_from(position)) {
            // SAFETY: `fast` holds only on a 32-bit ring, whose points are `Points::new(32)`.
            return Ok(unsafe { self.points.owner_at_32(position) } as usize);
        }
        self.owner_of_by_config(position)
    }

    /// [`owner_of`](Ring::owner_of) off the fast path.
    #[inline(never)]
    fn owner_of_by_config(&self, position: u64) -> Result<usize, Error> {
        let points = match &self.live {
            Some(live) => live,
            None if self.down_count > 0 && !self.nodes.is_empty() => return Err(self.every_node_down()),
            None => &self.points,
        };
        let owner = points.owner_at(position) as usize;
        // An empty ring has no nodes, and its points answer owner 0: one check covers both.
        if owner < self.nodes.len() {
            Ok(owner)
        } else {
            Err(Error::EmptyRing)
        }
    }

    /// The index of the point that owns `position` (first point at or after it, wrapping).
    pub fn point_of(&self, position: u64) -> Result<usize, Error> {
        if self.points.is_empty() {
            return Err(Error::EmptyRing);
        }
        Ok(self.points.successor(position))
    }

    /// The name of the node that owns `key`.
    #[inline]
    pub fn locate(&self, key: impl AsRef<[u8]>) -> Result<&str, Error> {
        let owner = self.locate_index(key)?;
        debug_assert!(owner < self.nodes.len());
        // SAFETY: `locate_by_config` answers a node's index. And every point's owner, and the
        // padding's (the first point's), is a node's index: `with_nodes`, `add_node` and
        // `set_weight` give points their node's index, `remove` drops the node's points and
        // renumbers the later ones (`fast` also means the ring has points). The tests in
        // `tests/native/lookup_paths.rs` check every path against a model after every change.
        Ok(unsafe { self.nodes.get_unchecked(owner) }.name.as_str())
    }

    /// The index (into [`nodes`](Ring::nodes)) of the node that owns `key`: `locate`
    /// without the name.
    #[inline]
    pub fn locate_index(&self, key: impl AsRef<[u8]>) -> Result<usize, Error> {
        if self.fast {
            // SAFETY: checked just above.
            Ok(unsafe { self.owner_on_fast_path(key.as_ref()) })
        } else {
            self.locate_by_config(key.as_ref())
        }
    }

    /// [`locate_index`](Ring::locate_index) of each of the keys `"{prefix}0" ..
    /// "{prefix}{count-1}"`, given to `f` with the key's number: the fast path is decided once
    /// for the batch.
    pub fn locate_generated(&self, prefix: &str, count: usize, mut f: impl FnMut(usize, Result<usize, Error>)) {
        if self.fast {
            // SAFETY: checked just above.
            crate::keys::for_each_generated(prefix, count, |i, key| f(i, Ok(unsafe { self.owner_on_fast_path(key) })))
        } else {
            crate::keys::for_each_generated(prefix, count, |i, key| f(i, self.locate_by_config(key)))
        }
    }

    /// The owner of `key` on the fast path.
    ///
    /// # Safety
    ///
    /// `self.fast` must hold.
    #[inline(always)]
    unsafe fn owner_on_fast_path(&self, key: &[u8]) -> usize {
        debug_assert!(self.fast);
        let position = Hash::Xxh3.hash(key) as u32;
        // SAFETY: `fast` holds only on a 32-bit ring, whose points are `Points::new(32)`.
        unsafe { self.points.owner_at_32(position) as usize }
    }

    /// The index of the node that owns `key`, off the fast path: any hash, width, or down
    /// nodes.
    #[inline(never)]
    fn locate_by_config(&self, key: &[u8]) -> Result<usize, Error> {
        if self.down_count > 0 {
            return self.owner_of(self.key_position(key));
        }
        let owner = self.points.owner_at(self.key_position(key)) as usize;
        // An empty ring has no nodes, and its points answer owner 0: one check covers both.
        if owner < self.nodes.len() {
            Ok(owner)
        } else {
            Err(Error::EmptyRing)
        }
    }

    /// The preference list for `key`: `n` distinct nodes, walking clockwise from the key.
    ///
    /// The first is always [`locate`](Ring::locate)'s answer. When nodes have zones, nodes in
    /// zones not yet on the list come first (in walk order), then the list fills up in walk
    /// order. Asking for more replicas than there are nodes returns every node once. Down
    /// nodes are skipped: the list takes the next healthy distinct node instead, as
    /// Dynamo-style stores do (it is empty when every node is down). Up to four names come
    /// back inline, without allocating (see [`Replicas`]).
    ///
    /// ```
    /// use ringlab::{Config, NodeSpec, Ring};
    /// let ring = Ring::with_nodes(Config::default(), [
    ///     NodeSpec::new("a1").zone("a"), NodeSpec::new("a2").zone("a"),
    ///     NodeSpec::new("b1").zone("b"), NodeSpec::new("c1").zone("c"),
    /// ])?;
    /// let list = ring.replicas("user:42", 3)?;
    /// assert_eq!(list[0], ring.locate("user:42")?);
    /// let mut zones: Vec<_> = list.iter().map(|n| ring.node(n).unwrap().zone.clone()).collect();
    /// zones.dedup();
    /// assert_eq!(zones.len(), 3, "three zones, three replicas: one per zone");
    /// # Ok::<(), ringlab::Error>(())
    /// ```
    pub fn replicas(&self, key: impl AsRef<[u8]>, n: usize) -> Result<Replicas<'_>, Error> {
        let want = n.min(self.nodes.len());
        if self.fast && !self.zoned && want <= 4 {
            // The common case (see `locate`).
            let position = Hash::Xxh3.hash(key.as_ref()) as u32;
            if let Some(owners) = self.owners_by_run(position, want) {
                // SAFETY: every point's owner is a node's index (see `locate`).
                let names = owners.map(|idx| unsafe { self.nodes.get_unchecked(idx as usize) }.name.as_str());
                return Ok(Replicas::inline(names, want));
            }
        }
        self.replicas_by_config(key.as_ref(), n)
    }

    /// On the fast path without zones, the first `want` (≤ 4) distinct owners clockwise from
    /// `position`, at the offsets the point's run byte gives, unless farther than it reaches.
    #[inline(always)]
    fn owners_by_run(&self, position: u32, want: usize) -> Option<[u32; 4]> {
        debug_assert!(self.fast && !self.zoned && want <= 4);
        // SAFETY: `fast` holds only on a 32-bit ring, whose points are `Points::new(32)`.
        let start = unsafe { self.points.successor_32(position) };
        let (offsets, known) = decode_run(self.runs[start]);
        (want <= known).then(|| self.points.owners_at(start, offsets))
    }

    /// [`replicas`](Ring::replicas) off the fast path.
    #[inline(never)]
    fn replicas_by_config(&self, key: &[u8], n: usize) -> Result<Replicas<'_>, Error> {
        let (mut few, mut many) = ([0; FEW_REPLICAS], Vec::new());
        let list = self.replica_list(self.key_position(key), n, &mut few, &mut many)?;
        Ok(list.iter().map(|&idx| self.nodes[idx as usize].name.as_str()).collect())
    }

    /// [`replicas`](Ring::replicas) for a position, as node indices written into `out`
    /// (cleared first): no allocation once `out` has room.
    #[inline]
    pub fn replicas_into(&self, position: u64, n: usize, out: &mut Vec<usize>) -> Result<(), Error> {
        out.clear();
        let want = n.min(self.nodes.len());
        if let (true, Ok(position)) = (self.fast && !self.zoned && want <= 4, u32::try_from(position)) {
            // As in `replicas`.
            if let Some(owners) = self.owners_by_run(position, want) {
                out.extend(owners[..want].iter().map(|&idx| idx as usize));
                return Ok(());
            }
        }
        self.replicas_into_by_config(position, n, out)
    }

    /// [`replicas_into`](Ring::replicas_into) off the fast path.
    #[inline(never)]
    fn replicas_into_by_config(&self, position: u64, n: usize, out: &mut Vec<usize>) -> Result<(), Error> {
        let (mut few, mut many) = ([0; FEW_REPLICAS], Vec::new());
        let list = self.replica_list(position, n, &mut few, &mut many)?;
        out.extend(list.iter().map(|&idx| idx as usize));
        Ok(())
    }

    /// The preference list for `position`, as node indices: in `few` for a short list on a
    /// ring without zones, else in `many`. (Written in place: returning the array by value
    /// would copy it with wide loads right after narrow stores, a store-forwarding stall.)
    #[inline]
    fn replica_list<'a>(
        &self,
        position: u64,
        n: usize,
        few: &'a mut [u32; FEW_REPLICAS],
        many: &'a mut Vec<u32>,
    ) -> Result<&'a [u32], Error> {
        if self.points.is_empty() {
            return Err(Error::EmptyRing);
        }
        let up = self.nodes.len() - self.down_count;
        let want = n.min(up);
        let start = self.points.successor(position);
        let down = &self.down;
        if !self.zoned && want <= FEW_REPLICAS && self.down_count == 0 {
            // The first `want` distinct owners clockwise, kept on the stack.
            let count = self.points.first_distinct_owners(start, want, few);
            return Ok(&few[..count]);
        }
        let chosen = many;
        chosen.reserve(want);
        // Nodes skipped only because their zone was already on the list, in walk order.
        let mut deferred: Vec<u32> = Vec::new();
        // What the list holds, looked up in constant time: a long list on a big ring walks
        // hundreds of thousands of points, each checked against the list so far.
        let mut seen = vec![false; self.nodes.len()];
        let mut zones: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
        self.points.walk_owners(start, |owner| {
            if chosen.len() == want || chosen.len() + deferred.len() == up {
                return ControlFlow::Break(());
            }
            let node = owner as usize;
            if !down[node] && !seen[node] {
                seen[node] = true;
                match self.nodes[node].zone.as_deref() {
                    Some(zone) if zones.contains(zone) => deferred.push(owner),
                    zone => {
                        zones.extend(zone);
                        chosen.push(owner);
                    }
                }
            }
            ControlFlow::Continue(())
        });
        let missing = want - chosen.len();
        chosen.extend(deferred.into_iter().take(missing));
        Ok(chosen)
    }

    /// The label of point `i` (`"{name}#{vnode}"` by default), found by re-hashing the owner's labels
    /// (labels are not stored, which keeps a point at 8–12 bytes).
    pub fn point_label(&self, i: usize) -> Option<String> {
        if i >= self.point_count() {
            return None;
        }
        let (pos, owner) = self.point(i);
        let node = &self.nodes[owner];
        let mut label = Vec::new();
        (0..node.points)
            .find(|&v| self.label_position(&node.name, v, &mut label) == pos)
            .map(|v| self.rules.label.expand(&node.name, v))
    }

    /// The index of the node with this name.
    pub fn index_of(&self, name: &str) -> Result<usize, Error> {
        self.nodes.iter().position(|n| n.name == name).ok_or_else(|| Error::UnknownNode(name.to_string()))
    }

    fn check_new(&self, spec: NodeSpec, points_before: u64) -> Result<Node, Error> {
        crate::limits::check_nodes(self.nodes.len() + 1)?;
        if self.nodes.iter().any(|n| n.name == spec.name) {
            return Err(Error::DuplicateNode(spec.name));
        }
        self.check_spec(spec, points_before)
    }

    /// The checks of a new node but its name's uniqueness.
    fn check_spec(&self, spec: NodeSpec, points_before: u64) -> Result<Node, Error> {
        crate::limits::check_zone(spec.zone.as_deref())?;
        if spec.name.is_empty() {
            return Err(Error::EmptyName);
        }
        if spec.name.len() > MAX_NAME_LEN {
            return Err(Error::NameTooLong { len: spec.name.len(), max: MAX_NAME_LEN });
        }
        let points = self.config.points_for(spec.weight)?;
        let total = points_before + u64::from(points);
        if total > MAX_POINTS {
            return Err(Error::TooManyPoints { points: total });
        }
        Ok(Node { name: spec.name, weight: spec.weight, zone: spec.zone, points })
    }

    /// What hashing one of the labels of node `name` costs a step of [`RingBuild::step`], in
    /// points of ringlab's default ring (a label of about 16 bytes under XXH3): at least 1.
    fn point_work(&self, name: &str, points: u32) -> usize {
        let bytes = self.rules.label.longest(name.len(), points) * self.config.hash.work_per_byte();
        bytes.div_ceil(16).max(1) as usize
    }

    /// What hashing the labels of `points` points of node `name` costs the work meter.
    pub(crate) fn hashing_work(&self, name: &str, points: u32) -> u64 {
        let longest = self.rules.label.longest(name.len(), points);
        crate::work::hashed(u64::from(points), longest, self.config.hash.work_per_byte())
    }

    pub(crate) fn label_position(&self, name: &str, vnode: u32, buf: &mut Vec<u8>) -> u64 {
        self.rules.label.write(name, vnode, buf);
        self.rules.position(self.config.hash, self.config.bits, buf)
    }
}

/// A ring being built in steps ([`Ring::building`]): its points hashed a budget at a time,
/// sorted in pieces, then indexed. Whatever the steps, the ring is [`Ring::with_rules`]'s.
#[derive(Debug)]
pub struct RingBuild {
    /// The checked nodes, and no points yet.
    ring: Ring,
    stage: Stage,
}

#[derive(Debug)]
enum Stage {
    Hash(Hashing),
    Sort(StagedSort),
    /// Sorted: the tie rule, from the entry given.
    Ties(Vec<(u64, u32)>, usize),
    /// In order: the points and their index.
    Index(Vec<(u64, u32)>, Filling),
    /// Indexed: what follows from the points (replica runs, serving owners).
    Follow,
    Done,
}

/// The points hashed so far, and the next node and vnode to hash.
#[derive(Debug)]
struct Hashing {
    entries: Vec<(u64, u32)>,
    node: usize,
    vnode: u32,
    label: Vec<u8>,
}

impl RingBuild {
    /// Does about `budget` points' work (at least one point's): hashes up to `budget`
    /// points (fewer where a label costs more to hash than a short one under XXH3: a point
    /// then counts as several), sorts or merges up to `budget` of them, or puts `budget` ×
    /// [`OPEN_WALK_PER_WORK`](crate::limits::OPEN_WALK_PER_WORK) of them in order and in the
    /// index (linear passes). Answers whether the ring is built.
    pub fn step(&mut self, budget: usize) -> bool {
        let RingBuild { ring, stage } = self;
        match stage {
            Stage::Hash(h) => {
                let mut left = budget.max(1);
                while left > 0 && h.node < ring.nodes.len() {
                    let points = ring.nodes[h.node].points;
                    // A point costs its label's bytes: a long label under SHA-256 is hundreds
                    // of short ones under XXH3.
                    let each = ring.point_work(&ring.nodes[h.node].name, points);
                    let fit = u32::try_from((left / each).max(1)).unwrap_or(u32::MAX);
                    let end = points.min(h.vnode.saturating_add(fit));
                    for i in h.vnode..end {
                        let position = ring.label_position(&ring.nodes[h.node].name, i, &mut h.label);
                        h.entries.push((position, h.node as u32));
                    }
                    left = left.saturating_sub(((end - h.vnode) as usize).saturating_mul(each));
                    h.vnode = end;
                    if h.vnode == points {
                        h.node += 1;
                        h.vnode = 0;
                    }
                }
                if h.node == ring.nodes.len() {
                    *stage = Stage::Sort(StagedSort::new(std::mem::take(&mut h.entries)));
                }
            }
            Stage::Sort(sort) => {
                sort.step(budget);
                if sort.is_done() {
                    let Stage::Sort(sort) = std::mem::replace(stage, Stage::Done) else { unreachable!() };
                    *stage = Stage::Ties(sort.into_sorted(), 0);
                }
            }
            // Passes over the points: a few of them per point of the budget.
            Stage::Ties(entries, next) => {
                let nodes = &ring.nodes;
                let tie = match ring.rules.ties {
                    Ties::SmallerName => crate::order::Tie::Name(&|owner| nodes[owner as usize].name.as_str()),
                    // Nodes are indexed in the order they were added: the first of a run holds it.
                    Ties::LaterAdded => crate::order::Tie::Later,
                    Ties::EarlierAdded => crate::order::Tie::Earlier,
                };
                let most = budget.saturating_mul(crate::limits::OPEN_WALK_PER_WORK);
                *next = crate::order::order_ties_from(entries, tie, *next, most);
                if *next == entries.len() {
                    if ring.rules.ties != Ties::SmallerName {
                        entries.dedup_by_key(|e| e.0);
                    }
                    *stage = Stage::Index(std::mem::take(entries), Filling::default());
                }
            }
            Stage::Index(entries, filling) => {
                if ring.points.fill(entries, filling, budget.saturating_mul(crate::limits::OPEN_WALK_PER_WORK)) {
                    ring.zoned = ring.nodes.iter().any(|n| n.zone.is_some());
                    ring.down = vec![false; ring.nodes.len()];
                    *stage = Stage::Follow;
                }
            }
            Stage::Follow => {
                ring.points_changed();
                *stage = Stage::Done;
            }
            Stage::Done => {}
        }
        matches!(self.stage, Stage::Done)
    }

    /// Whether the points are sorted and being put in order and indexed.
    #[cfg(test)]
    fn indexing(&self) -> bool {
        matches!(self.stage, Stage::Ties(..) | Stage::Index(..))
    }

    /// The ring, after whatever steps are left.
    pub fn finish(mut self) -> Ring {
        while !self.step(usize::MAX) {}
        self.ring
    }
}

/// The order of points: by position, then (on a collision) by node name.
fn by_position_then_name(nodes: &[Node], a: &(u64, u32), b: &(u64, u32)) -> std::cmp::Ordering {
    a.0.cmp(&b.0).then_with(|| nodes[a.1 as usize].name.cmp(&nodes[b.1 as usize].name))
}

/// Merges two sorted lists.
fn merge<T: Copy>(a: impl Iterator<Item = T>, b: Vec<T>, cmp: impl Fn(&T, &T) -> std::cmp::Ordering) -> Vec<T> {
    let mut out = Vec::with_capacity(b.len());
    let mut b = b.into_iter().peekable();
    for x in a {
        while let Some(y) = b.next_if(|y| cmp(y, &x).is_lt()) {
            out.push(y);
        }
        out.push(x);
    }
    out.extend(b);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(names: &[&str]) -> Ring {
        let mut ring = Ring::new(Config::default()).unwrap();
        for name in names {
            ring.add(name).unwrap();
        }
        ring
    }

    #[test]
    fn empty_ring_is_an_error() {
        let ring = ring(&[]);
        assert_eq!(ring.locate("k"), Err(Error::EmptyRing));
        assert_eq!(ring.replicas("k", 2), Err(Error::EmptyRing));
    }

    #[test]
    fn lookups_wrap_past_the_top() {
        let ring = ring(&["a", "b", "c"]);
        let last = ring.point_count() - 1;
        let (top, _) = ring.point(last);
        let (_, first_owner) = ring.point(0);
        // Positions above the last point belong to the first point.
        assert_eq!(ring.owner_of(top + 1).unwrap(), first_owner);
        assert_eq!(ring.owner_of(u64::from(u32::MAX)).unwrap(), first_owner);
        assert_eq!(ring.owner_of(u64::MAX).unwrap(), first_owner);
        // A position exactly on a point belongs to that point.
        let (pos, owner) = ring.point(last);
        assert_eq!(ring.owner_of(pos).unwrap(), owner);
        assert_eq!(ring.owner_of(0).unwrap(), first_owner);
    }

    #[test]
    fn successor_matches_a_linear_scan() {
        let ring = ring(&["a", "b", "c", "d", "e"]);
        let positions: Vec<u64> = (0..ring.point_count()).map(|i| ring.point(i).0).collect();
        assert!(positions.windows(2).all(|w| w[0] <= w[1]));
        for probe in (0..u64::from(u32::MAX)).step_by(9_999_991).chain(positions.iter().copied()) {
            let expected = positions.iter().position(|&p| p >= probe).unwrap_or(0);
            assert_eq!(ring.point_of(probe).unwrap(), expected, "probe {probe}");
        }
    }

    #[test]
    fn bad_nodes_leave_the_ring_unchanged() {
        let mut ring = ring(&["a"]);
        let before = format!("{:?}", ring);
        assert_eq!(ring.add("a"), Err(Error::DuplicateNode("a".into())));
        assert_eq!(ring.add(""), Err(Error::EmptyName));
        assert_eq!(ring.remove("zz"), Err(Error::UnknownNode("zz".into())));
        for w in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(matches!(ring.add_node(NodeSpec::new("b").weight(w)), Err(Error::InvalidWeight(_))));
            assert!(matches!(ring.set_weight("a", w), Err(Error::InvalidWeight(_))));
        }
        assert!(matches!(ring.add_node(NodeSpec::new("big").weight(1e9)), Err(Error::TooManyPoints { .. })));
        assert_eq!(format!("{:?}", ring), before);
    }

    #[test]
    fn weights_scale_points() {
        let mut ring = ring(&[]);
        ring.add_node(NodeSpec::new("one")).unwrap();
        ring.add_node(NodeSpec::new("two").weight(2.0)).unwrap();
        ring.add_node(NodeSpec::new("tiny").weight(1e-9)).unwrap();
        let points: Vec<u32> = ring.nodes().iter().map(|n| n.points).collect();
        assert_eq!(points, vec![160, 320, 1]);
        assert_eq!(ring.point_count(), 481);
    }

    #[test]
    fn set_weight_keeps_order_and_equals_a_fresh_build() {
        let mut ring = ring(&["a", "b", "c"]);
        ring.set_weight("b", 3.0).unwrap();
        let names: Vec<&str> = ring.nodes().iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        let fresh = Ring::with_nodes(
            Config::default(),
            [NodeSpec::new("a"), NodeSpec::new("b").weight(3.0), NodeSpec::new("c")],
        )
        .unwrap();
        for i in 0..2000 {
            let key = format!("k{i}");
            assert_eq!(ring.locate(&key), fresh.locate(&key));
        }
    }

    /// In steps of any budget, the build gives the ring that one call gives: the same points,
    /// owners and replica lists, on either width and with each tie rule.
    #[test]
    fn a_ring_built_in_steps_is_the_ring_built_at_once() {
        let nodes: Vec<NodeSpec> =
            (0..7).map(|i| NodeSpec::new(format!("n{i}")).weight(1.0 + f64::from(i) / 3.0)).collect();
        for ties in [Ties::SmallerName, Ties::LaterAdded, Ties::EarlierAdded] {
            for bits in [RingBits::B32, RingBits::B64] {
                let config = Config { hash: Hash::Xxh3, bits, vnodes: 37 };
                let rules = RingRules { ties, ..RingRules::default() };
                let whole = Ring::with_rules(config.clone(), rules.clone(), nodes.clone()).unwrap();
                let points: Vec<(u64, usize)> = (0..whole.point_count()).map(|i| whole.point(i)).collect();
                assert!(points.len() > 300);
                for budget in [1, 5, 36, 37, 38, 100, 1000] {
                    let mut build = Ring::building(config.clone(), rules.clone(), nodes.clone()).unwrap();
                    let mut steps = 1;
                    while !build.step(budget) {
                        steps += 1;
                    }
                    assert!(steps > points.len() / budget, "{steps} steps of {budget}");
                    let staged = build.finish();
                    assert_eq!(staged.nodes(), whole.nodes());
                    assert_eq!((0..staged.point_count()).map(|i| staged.point(i)).collect::<Vec<_>>(), points);
                    for i in 0..200 {
                        let key = format!("k{i}");
                        let replicas =
                            |r: &Ring| r.replicas(&key, 3).unwrap().iter().map(|s| s.to_string()).collect::<Vec<_>>();
                        assert_eq!(replicas(&staged), replicas(&whole), "{ties:?} {bits:?} {budget}");
                    }
                }
            }
        }
    }

    /// At the cap of 500,000 points, putting the sorted points in order and indexing them
    /// (passes over every point) is split as the hashing and sorting are: no step passes
    /// more than its budget's points (and one run or bucket).
    #[test]
    fn the_passes_over_the_sorted_points_are_split_into_steps() {
        let config = Config { vnodes: 1000, ..Config::default() };
        let nodes: Vec<NodeSpec> = (0..500).map(|i| NodeSpec::new(format!("n{i}"))).collect();
        let mut build = Ring::building(config.clone(), RingRules::default(), nodes.clone()).unwrap();
        let budget = crate::limits::OPEN_STEP_WORK;
        let mut indexing = 0;
        while !build.step(budget) {
            indexing += usize::from(build.indexing());
        }
        let most = budget * crate::limits::OPEN_WALK_PER_WORK;
        // The tie rule's pass, the points' copy and the index's: each point once in each.
        assert!(indexing >= 3 * 500_000 / most, "{indexing} steps of at most {most} points");
        let (staged, whole) = (build.finish(), Ring::with_nodes(config, nodes).unwrap());
        let points = |r: &Ring| (0..r.point_count()).map(|i| r.point(i)).collect::<Vec<_>>();
        assert_eq!(points(&staged), points(&whole));
        assert_eq!(staged.owner_of(0).unwrap(), whole.owner_of(0).unwrap());
        for i in 0..1000 {
            let key = format!("k{i}");
            assert_eq!(staged.locate(&key).unwrap(), whole.locate(&key).unwrap());
        }
    }

    #[test]
    fn a_build_that_is_refused_fails_before_any_step() {
        let too_many = (0..=MAX_POINTS / 10_000).map(|i| NodeSpec::new(format!("n{i}")));
        let config = Config { vnodes: 10_000, ..Config::default() };
        let err = Ring::building(config, RingRules::default(), too_many).unwrap_err();
        assert!(matches!(err, Error::TooManyPoints { .. }), "{err:?}");
    }

    #[test]
    fn point_labels_are_recovered() {
        let ring = ring(&["alpha", "beta"]);
        for i in 0..ring.point_count() {
            let label = ring.point_label(i).unwrap();
            let (pos, owner) = ring.point(i);
            assert!(label.starts_with(&format!("{}#", ring.nodes()[owner].name)));
            assert_eq!(ring.key_position(&label), pos);
        }
    }

    #[test]
    fn sixty_four_bit_ring_needs_a_wide_hash() {
        let narrow = Config { hash: Hash::Crc32, bits: RingBits::B64, vnodes: 10 };
        assert_eq!(Ring::new(narrow).unwrap_err(), Error::HashTooNarrow { hash: "crc32" });
        let wide = Config { hash: Hash::Murmur3, bits: RingBits::B64, vnodes: 10 };
        let mut ring = Ring::new(wide).unwrap();
        ring.add("a").unwrap();
        ring.add("b").unwrap();
        assert!(ring.point(ring.point_count() - 1).0 > u64::from(u32::MAX));
        assert!(ring.locate("x").is_ok());
    }
}
