//! Consistent hashing with bounded loads (Mirrokni, Thorup & Zadimoghaddam 2018), over
//! ringlab's ring: keys of a given set are placed in order, each on the first node clockwise
//! from its hash that has fewer than `⌈(1 + ε)·keys / nodes⌉` keys. It places a *key set*,
//! so its loads are exact for that set; a key outside the set goes where it would land next.
//!
//! A down node takes no keys: placement is redone over the healthy nodes, with the capacity
//! computed over them (as HAProxy's `hash-balance-factor` treats a server that is down).

use super::about::{thousands, KeySpace};
use super::entry::{Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Weights};
use super::explain::{hex, Chain, Step, StepKind, MAX_WALK_STEPS};
use super::options::{OptionKind, OptionSpec, OptionValue, Scope, BITS, HASH, VNODES};
use super::{Algorithm, Options, Placement};
use crate::analysis::Arcs;
use crate::keys::KeySample;
use crate::{limits, Error, Node, NodeSpec, Ring};
use std::collections::BTreeMap;
use std::sync::Arc;

pub(crate) const ENTRY: Entry = Entry {
    name: "bounded-load",
    label: "Bounded loads",
    family: Family::Paper,
    source: "Mirrokni, Thorup & Zadimoghaddam 2018, over ringlab's ring",
    options: &[&HASH, &BITS, &VNODES, &EPSILON, &KEY_PREFIX, &KEY_COUNT],
    weights: Weights::Any,
    arcs: false,
    replicas: false,
    key_space: |o| KeySpace::Hash { bits: o.config.bits.bits() },
    describe: |o| {
        format!(
            "Bounded loads: the ring ({} points per node, {}), but no node takes more than ⌈{}× the mean⌉ of the {} \
             keys it places.",
            o.config.vnodes,
            o.config.hash,
            crate::decimal::shortest(1.0 + EPSILON.number(o)),
            thousands(key_count(o) as u64)
        )
    },
    on_down: OnDown::Rebuild(
        "Placement is redone over the healthy nodes, with the capacity ⌈(1 + ε)·keys / healthy nodes⌉: the down \
         node's keys take the next healthy node with room, and the higher load can push a few other keys along \
         the ring.",
    ),
    on_stale: OnStale::ClientSide(
        "A client with the old ring and loads places keys as before the change: moved keys go to their old owner, where reads miss or find stale values and writes leave two copies.",
    ),
    leaving: Leaving::Any,
    extras: Extras { places_keys: Some(set_keys), refines: Some((crate::algo::DEFAULT, "the plain ring")), ..Extras::NONE },
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build = Build::Whole(|o, nodes, _| Ok(Box::new(BoundedLoad::new(o, nodes)?)));

/// ε: each node takes at most ⌈(1 + ε)·keys / nodes⌉ keys.
pub(crate) const EPSILON: OptionSpec = OptionSpec {
    name: "epsilon",
    kind: OptionKind::Number { min: 0.0, max: f64::MAX, default: 0.25 },
    help: "ε: no node takes more than ⌈(1 + ε)·keys / nodes⌉ of the keys",
    scope: Scope::Everywhere,
    link: "ep",
    refused: None,
    get: |o| EPSILON.kept(o),
    set: |o, v| {
        EPSILON.keep(o, v);
        Ok(())
    },
};

/// The key set is `"{keyPrefix}0" .. "{keyPrefix}{keyCount-1}"` (a session places its own sample).
pub(crate) const KEY_PREFIX: OptionSpec = OptionSpec {
    name: "keyPrefix",
    kind: OptionKind::Text { max_len: crate::limits::MAX_KEY_PREFIX_LEN, default: "key:" },
    help: "the key set's prefix: keys keyPrefix0, keyPrefix1, …",
    scope: Scope::Library,
    link: "",
    refused: None,
    get: |o| Some(o.params.get("keyPrefix").cloned().unwrap_or(OptionValue::Text("key:".into()))),
    set: |o, v| {
        o.params.insert("keyPrefix", v);
        o.params.remove(KEYS);
        Ok(())
    },
};

/// How many keys the set has.
pub(crate) const KEY_COUNT: OptionSpec = OptionSpec {
    name: "keyCount",
    kind: OptionKind::Whole { min: 0, max: MAX_KEYS as u64, default: 10_000 },
    help: "how many keys the set has",
    scope: Scope::Library,
    link: "",
    refused: None,
    get: |o| Some(o.params.get("keyCount").cloned().unwrap_or(OptionValue::Whole(10_000))),
    set: |o, v| {
        o.params.insert("keyCount", v);
        o.params.remove(KEYS);
        Ok(())
    },
};

/// Where [`Options::params`] keeps a key set given to place ([`Options::set_keys`]), which replaces
/// the one of `keyPrefix` and `keyCount` until either is set.
const KEYS: &str = "keys";

/// The key set `options` place: the one given ([`Options::set_keys`]), else `keyPrefix` and
/// `keyCount`'s.
pub fn keys(o: &Options) -> Arc<KeySample> {
    match o.params.get(KEYS) {
        Some(OptionValue::Keys(keys)) => Arc::clone(keys),
        _ => Arc::new(generated(o)),
    }
}

/// Gives `options` a key set to place (a session's sample, a comparison's keys).
fn set_keys(o: &mut Options, keys: KeySample) {
    // The set `keyPrefix` and `keyCount` make is not kept, so that equal settings are equal
    // options.
    if keys.keys.len() == key_count_of_options(o) && keys == generated(o) {
        o.params.remove(KEYS);
    } else {
        o.params.insert(KEYS, OptionValue::Keys(Arc::new(keys)));
    }
}

/// How many keys `options` place, without making them.
fn key_count(o: &Options) -> usize {
    match o.params.get(KEYS) {
        Some(OptionValue::Keys(keys)) => keys.keys.len(),
        _ => key_count_of_options(o),
    }
}

/// `keyCount`.
fn key_count_of_options(o: &Options) -> usize {
    o.params.get("keyCount").map_or(10_000, |v| v.whole() as usize)
}

/// The key set of the `keyPrefix` and `keyCount` options.
fn generated(o: &Options) -> KeySample {
    let prefix = o.params.get("keyPrefix").map_or("key:".to_string(), |v| v.name().to_string());
    KeySample::generated(&prefix, key_count_of_options(o))
}

/// Largest key set, to keep a change fast in a browser.
pub const MAX_KEYS: usize = limits::MAX_BOUNDED_KEYS;

/// A key may walk past every point, so the ring's points are capped too.
fn check_points(ring: &Ring) -> Result<(), Error> {
    limits::check("points on a bounded-load ring", ring.point_count() as u64, limits::MAX_BOUNDED_POINTS)
}

#[derive(Clone, Debug)]
pub(crate) struct BoundedLoad {
    ring: Ring,
    epsilon: f64,
    keys: Arc<KeySample>,
    /// Each key's node, in key-set order.
    assignment: Vec<u32>,
    loads: Vec<u32>,
    /// For each point, the first point at or after it whose node has room (`point_count` if none).
    open_next: Vec<u32>,
    index: BTreeMap<String, usize>,
}

impl BoundedLoad {
    pub(crate) fn new(options: &Options, nodes: Vec<NodeSpec>) -> Result<BoundedLoad, Error> {
        let epsilon = EPSILON.number(options);
        if !(epsilon.is_finite() && epsilon >= 0.0) {
            return Err(Error::out_of_range(
                "epsilon",
                epsilon,
                (0.0, f64::INFINITY),
                format!("ε must be ≥ 0 (got {})", crate::decimal::shortest(epsilon)),
            ));
        }
        let key_set = keys(options);
        limits::check_keys("keys bounded-load places", &key_set.keys, MAX_KEYS)?;
        let ring = Ring::with_nodes(options.config.clone(), nodes)?;
        check_points(&ring)?;
        let index = key_set.keys.iter().enumerate().map(|(i, k)| (k.clone(), i)).collect();
        let mut b = BoundedLoad {
            ring,
            epsilon,
            keys: key_set,
            assignment: Vec::new(),
            loads: Vec::new(),
            open_next: Vec::new(),
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

    /// Places the key set in order. Points of full nodes are skipped with a union-find
    /// ("next open point at or after i"), so placing costs O((points + keys)·α), however
    /// the keys cluster.
    fn place(&mut self) {
        let n = self.ring.point_count();
        self.loads = vec![0; self.ring.nodes().len()];
        self.assignment.clear();
        self.open_next.clear();
        if self.ring.is_empty() || (0..self.ring.nodes().len()).all(|i| self.ring.is_down_at(i)) {
            return;
        }
        let capacity = self.capacity().max(1);
        let mut points_of: Vec<Vec<u32>> = vec![Vec::new(); self.loads.len()];
        for i in 0..n {
            points_of[self.ring.point(i).1].push(i as u32);
        }
        // parent[i] leads to the first open point at or after i; n is "none up to the top".
        // A down node's points are closed from the start.
        let mut parent: Vec<u32> = (0..=n as u32).collect();
        for (node, points) in points_of.iter().enumerate() {
            if self.ring.is_down_at(node) {
                for &p in points {
                    parent[p as usize] = p + 1;
                }
            }
        }
        for key in &self.keys.keys {
            let start = self.ring.point_of(self.ring.key_position(key)).unwrap_or(0);
            let mut open = find(&mut parent, start);
            if open == n {
                open = find(&mut parent, 0);
            }
            let node = if open == n { self.ring.point(start).1 } else { self.ring.point(open).1 };
            self.loads[node] += 1;
            self.assignment.push(node as u32);
            if self.loads[node] == capacity {
                for &p in &points_of[node] {
                    parent[p as usize] = p + 1;
                }
            }
        }
        // The same, flattened, for keys outside the set.
        self.open_next = vec![n as u32; n + 1];
        for i in (0..n).rev() {
            let node = self.ring.point(i).1;
            let open = self.loads[node] < capacity && !self.ring.is_down_at(node);
            self.open_next[i] = if open { i as u32 } else { self.open_next[i + 1] };
        }
    }

    /// Whether some node is up, so keys have a place: [`place`](BoundedLoad::place) leaves
    /// no walk otherwise (an empty key set included).
    fn placed(&self) -> bool {
        !self.open_next.is_empty()
    }

    /// The key's index in the placed set, if it is one of them.
    fn known(&self, key: &[u8]) -> Option<usize> {
        std::str::from_utf8(key).ok().and_then(|k| self.index.get(k)).copied()
    }

    /// The key's node (with nodes, some up): a key of the set where it was placed, another
    /// where it would land next.
    fn owner(&self, key: &[u8]) -> usize {
        match self.known(key) {
            Some(i) => self.assignment[i] as usize,
            None => self.walk(self.ring.key_position(key)),
        }
    }

    /// The first node clockwise from `position` with room after placing the key set.
    fn walk(&self, position: u64) -> usize {
        let n = self.ring.point_count();
        let start = self.ring.point_of(position).unwrap_or(0);
        let mut open = self.open_next[start] as usize;
        if open == n {
            open = self.open_next[0] as usize;
        }
        self.ring.point(if open == n { start } else { open }).1
    }
}

/// The root of `i`, halving the path on the way.
fn find(parent: &mut [u32], mut i: usize) -> usize {
    while parent[i] as usize != i {
        let up = parent[parent[i] as usize];
        parent[i] = up;
        i = up as usize;
    }
    i
}

impl Placement for BoundedLoad {
    fn algorithm(&self) -> Algorithm {
        Algorithm::BoundedLoad
    }
    fn nodes(&self) -> &[Node] {
        self.ring.nodes()
    }
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        let mut ring = self.ring.clone();
        ring.add_node(spec)?;
        check_points(&ring)?;
        self.ring = ring;
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
        if !self.placed() {
            return Err(super::down::all_down());
        }
        Ok(self.owner(key))
    }
    /// The ring's steps to the key's point, then the capacity and the walk past full (and
    /// down) nodes to the first with room: the owner, so the engine adds nothing after.
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        let first = Placement::explain_key(&self.ring, key, chain)?;
        if !self.placed() {
            return Some(first);
        }
        let (capacity, keys) = (self.capacity().max(1), self.keys.keys.len());
        let up = (0..self.ring.nodes().len()).filter(|&i| !self.ring.is_down_at(i)).count();
        let value = format!("⌈{} × {keys} / {up}⌉ = {capacity} keys", crate::decimal::shortest(1.0 + self.epsilon));
        chain.push(Step::new(StepKind::Load, "each node's capacity: ⌈(1 + ε) × keys / healthy nodes⌉", value));
        let owner = self.owner(key);
        let (count, bits) = (self.ring.point_count(), self.ring.config().bits.bits());
        let size = self.ring.size() as f64;
        let start = self.ring.point_of(self.ring.key_position(key)).unwrap_or(0);
        let load = |node: usize| format!("{} ({} of {capacity} keys)", self.ring.nodes()[node].name, self.loads[node]);
        let mut passed = 0;
        for k in 0..count {
            let i = (start + k) % count;
            let (at, node) = self.ring.point(i);
            let place = format!("point {i} at {}: {}", hex(at, bits), load(node));
            if node == owner {
                if passed > MAX_WALK_STEPS {
                    let label = format!("… and {} more points of full nodes", passed - MAX_WALK_STEPS);
                    chain.push(Step::new(StepKind::Load, label, "not named"));
                }
                let label = match self.known(key) {
                    Some(n) => format!("key {n} of the placed set: the first node with room when its turn came"),
                    None => "the first node with room, after placing the key set".to_string(),
                };
                chain.push(Step::new(StepKind::Load, label, place).at_fraction(at as f64 / size).at_node(node));
                break;
            }
            passed += 1;
            if passed <= MAX_WALK_STEPS {
                let why = if self.ring.is_down_at(node) { "down" } else { "full" };
                let step = Step::new(StepKind::Load, format!("next point: its node is {why}, walk on"), place);
                chain.push(step.at_fraction(at as f64 / size).at_node(node));
            }
        }
        Some(owner)
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        self.ring.key_position(key) as f64 / self.ring.size() as f64
    }
    fn exact_shares_are_arcs(&self) -> bool {
        false
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
            + self.open_next.capacity() * 4
            + self.keys.keys.iter().map(|k| 2 * k.capacity() + 48).sum::<usize>()
    }
    fn lookup_cost(&self) -> u64 {
        6
    }
    fn boxed_clone(&self) -> Box<dyn Placement> {
        Box::new(self.clone())
    }
}
