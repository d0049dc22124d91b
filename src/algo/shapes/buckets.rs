//! What the bucket-based hashes share: a key is hashed once to a `u64`, and a function of that
//! value and the hash's state picks a *bucket*; a node is a bucket. Two kinds:
//!
//! - [`Counted`]: the bucket is a function of the key and the bucket count alone (jump-like:
//!   JumpBackHash, FlipHash, BinomialHash, PowerCH). Buckets are `0..n`, node `i` (in the
//!   order added) is bucket `i`, and only the last bucket can leave: taking out any other
//!   would renumber the ones after it. A down bucket's keys are unavailable, as with jump.
//! - [`Stateful`]: the hash keeps state that remembers removals (AnchorHash, DxHash,
//!   MementoHash), so any bucket can leave and the others' keys stay. An [`Engine`] is that
//!   state: the paper's `ADDBUCKET`, `REMOVEBUCKET` and `GETBUCKET`. Nodes created together
//!   take buckets `0..n`; a node that joins later takes the bucket the engine hands out (the
//!   last one removed, where there is one). A down node's bucket is removed from a copy of
//!   the engine (the papers' treatment of a failed resource), so only its keys move, and up
//!   again is the state before.
//!
//! Every one hashes a key the same way, fixed: [`key_hash`], XXH3-64 (seed 0) of the key's
//! bytes, the `u64` the papers take as the key. Where a paper rehashes the key with a seed
//! (a bucket, a level), ringlab uses [`rehash`]: XXH3-64 of the key hash's 8 little-endian
//! bytes with that seed.
//!
//! The counted hashes also say the same things (a down bucket cannot be skipped, only the
//! last bucket leaves, a stale client sends keys to their old bucket): [`counted_entry!`]
//! writes their entries around each one's own words.

use super::about::KeySpace;
use super::entry::OnStale;
use super::explain::{hex, Chain, Step, StepKind, MAX_WALK_STEPS};
use super::members::{weight_rule, Members};
use super::options::{OptionKind, OptionSpec, OptionValue, Options, Scope};
use super::{index_of, Algorithm, Placement};
use crate::{Error, Node, NodeSpec};

/// What a bucket hash's rule notes on its way to the bucket, for "explain this key": each
/// bucket it tries, with what the try is. The rules are generic over it: lookups pass `()`,
/// which notes nothing (compiled away), so the one rule serves both.
pub(crate) trait Note {
    fn note(&mut self, what: &'static str, bucket: u64);
}

impl Note for () {
    #[inline(always)]
    fn note(&mut self, _: &'static str, _: u64) {}
}

/// The notes of one walk, the first [`MAX_WALK_STEPS`] kept and the rest counted.
#[derive(Default)]
pub(crate) struct Walk {
    notes: Vec<(&'static str, u64)>,
    more: usize,
}

impl Note for Walk {
    fn note(&mut self, what: &'static str, value: u64) {
        if self.notes.len() < MAX_WALK_STEPS {
            self.notes.push((what, value));
        } else {
            self.more += 1;
        }
    }
}

impl Walk {
    /// The notes as bucket steps; `node_of` names the node of a bucket, `None` for a bucket
    /// that has none (`none` says why: beyond the count, removed).
    fn push(self, chain: &mut Chain, node_of: impl Fn(u64) -> Option<usize>, none: &str) {
        for (what, value) in self.notes {
            chain.push(match node_of(value) {
                Some(node) => Step::new(StepKind::Bucket, what, value.to_string()).at_node(node),
                None => Step::new(StepKind::Bucket, what, format!("{value} ({none})")),
            });
        }
        if self.more > 0 {
            chain.push(Step::new(StepKind::Bucket, format!("… and {} more tries", self.more), "not named"));
        }
    }
}

/// The bytes and the key hash every bucket hash starts from.
fn explain_hash(key: &[u8], chain: &mut Chain, fraction: impl Fn(u64) -> f64) -> u64 {
    chain.bytes("the bytes hashed: the whole key", key);
    let h = key_hash(key);
    chain.push(
        Step::new(StepKind::Hash, "xxh3 of the key (seed 0): the key as a u64", hex(h, 64)).at_fraction(fraction(h)),
    );
    h
}

/// A key as the bucket hashes take it: XXH3-64 (seed 0) of its bytes.
#[inline]
pub(crate) fn key_hash(key: &[u8]) -> u64 {
    twox_hash::XxHash3_64::oneshot(key)
}

/// The key hash `hash` rehashed with `seed`: XXH3-64 of its 8 little-endian bytes, seeded.
#[inline]
pub(crate) fn rehash(hash: u64, seed: u64) -> u64 {
    twox_hash::XxHash3_64::oneshot_with_seed(seed, &hash.to_le_bytes())
}

/// SplitMix64 (Steele, Lea & Flood 2014, Vigna's constants): the pseudo-random sequence a key
/// seeds, as hash4j's `splitMix64_V1`: the state steps by the golden gamma, then is mixed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    #[inline]
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// `x` scaled onto `0..n` by Lemire's multiply-shift: `⌊x·n / 2⁶⁴⌋`.
#[inline]
pub(crate) fn scaled(x: u64, n: u32) -> u32 {
    ((u128::from(x) * u128::from(n)) >> 64) as u32
}

/// Where a bucket hash without a ring of buckets draws a key: at its 64-bit key hash.
pub(crate) fn key_hash_space(_: &Options) -> KeySpace {
    KeySpace::Hash { bits: 64 }
}

/// What a client that has not seen a change gets from a counted hash ([`Counted`]).
pub(crate) const COUNT_STALE: OnStale = OnStale::ClientSide(
    "A client with the old bucket count sends moved keys to their old bucket: reads miss or find stale values, writes leave two copies.",
);

/// What a client that has not seen a change gets from a hash whose state is its removals in
/// order (AnchorHash, MementoHash).
pub(crate) const REMOVALS_STALE: OnStale = OnStale::ClientSide(
    "A client that has not applied the change yet (each must apply the same removals in the same order) sends \
     the moved keys to their old bucket: reads miss or find stale values, writes leave two copies.",
);

/// The entry of a counted bucket hash (a function of the key hash and the count: jump hash
/// and [`Counted`]'s): everything they are and say alike, around each one's own words.
/// `shape` follows the label in its one-line description; `down` is its sentence on a down
/// bucket, to which the renumbering clause is added; `who` names it in its refusals (its
/// label when not given); `source` is followed by the key hash.
macro_rules! counted_entry {
    (
        name: $name:literal,
        label: $label:literal,
        source: $source:literal,
        shape: $shape:literal,
        down: $down:literal $(,)?
    ) => {
        $crate::algo::shapes::buckets::counted_entry! {
            name: $name, label: $label, who: $label, source: $source, shape: $shape, down: $down
        }
    };
    (
        name: $name:literal,
        label: $label:literal,
        who: $who:literal,
        source: $source:literal,
        shape: $shape:literal,
        down: $down:literal $(,)?
    ) => {
        $crate::algo::entry::Entry {
            name: $name,
            label: $label,
            family: $crate::algo::entry::Family::Paper,
            source: concat!($source, "; keys hashed to u64 with XXH3-64"),
            options: &[],
            weights: $crate::algo::entry::Weights::One,
            arcs: false,
            replicas: false,
            key_space: $crate::algo::shapes::buckets::key_hash_space,
            describe: |o| {
                format!(
                    concat!(
                        $label,
                        ": ",
                        $shape,
                        "; only the last bucket can leave. Keys are drawn at their XXH3 hash ({})."
                    ),
                    $crate::algo::shapes::buckets::key_hash_space(o).words()
                )
            },
            on_down: $crate::algo::entry::OnDown::Unavailable {
                text: concat!($down, "; removing a bucket other than the last renumbers the rest."),
                why: concat!($who, " cannot skip a bucket; the caller must remap"),
            },
            on_stale: $crate::algo::shapes::buckets::COUNT_STALE,
            leaving: $crate::algo::entry::Leaving::LastOnly(concat!(
                $who,
                " can only remove the last bucket: the others would renumber"
            )),
            extras: $crate::algo::entry::Extras::NONE,
        }
    };
}
pub(crate) use counted_entry;

/// Takes the named node out of a counted hash's `members`, if it is the last: any other
/// would renumber the buckets after it (`who` names the hash in the refusal).
pub(crate) fn remove_last(members: &mut Members, who: &str, name: &str) -> Result<(), Error> {
    let idx = index_of(&members.nodes, name)?;
    let last = members.nodes.len() - 1;
    if idx != last {
        return Err(Error::RemovalNotAllowed {
            algorithm: who.to_string(),
            node: name.to_string(),
            last: members.nodes[last].name.clone(),
        });
    }
    members.take(name).map(drop)
}

/// The capacity of AnchorHash and DxHash: the most buckets (nodes) the structure holds, fixed
/// when it is made.
pub(crate) const CAPACITY: OptionSpec = OptionSpec {
    name: "capacity",
    kind: OptionKind::Whole { min: 1, max: crate::limits::MAX_NODES as u64, default: DEFAULT_CAPACITY },
    help: "AnchorHash's and DxHash's capacity: the most nodes (buckets) they hold, fixed when made",
    scope: Scope::Everywhere,
    link: "ca",
    refused: None,
    get: |o| Some(OptionSpec::param(o, "capacity").unwrap_or(OptionValue::Whole(DEFAULT_CAPACITY))),
    set: |o, v| {
        o.params.insert("capacity", v);
        Ok(())
    },
};

/// The capacity when none is set: room for a playground's growth without slowing a lookup
/// much (AnchorHash's lookups grow with `ln(capacity / nodes)`, DxHash's with the ratio).
pub(crate) const DEFAULT_CAPACITY: u64 = 256;

/// The capacity an options set gives.
pub(crate) fn capacity(options: &Options) -> u32 {
    (CAPACITY.get)(options).map_or(DEFAULT_CAPACITY, |v| v.whole()) as u32
}

/// The error for a node beyond the capacity.
pub(crate) fn full(algorithm: Algorithm, capacity: u32) -> Error {
    over_capacity(algorithm, capacity, u64::from(capacity) + 1)
}

/// `working` buckets made at once, within the capacity.
pub(crate) fn check_capacity(algorithm: Algorithm, capacity: u32, working: u32) -> Result<(), Error> {
    if working > capacity {
        return Err(over_capacity(algorithm, capacity, u64::from(working)));
    }
    Ok(())
}

fn over_capacity(algorithm: Algorithm, capacity: u32, got: u64) -> Error {
    Error::TooLarge {
        what: format!("nodes in {} (its capacity option)", algorithm.entry().label),
        max: u64::from(capacity),
        got,
    }
}

// ---------------------------------------------------------------------------------------
// Counted: buckets 0..n, only the last leaves.

/// A bucket hash that is a function of the key hash and the bucket count: node `i` is bucket
/// `i`, only the last leaves, and a down bucket's keys are unavailable.
#[derive(Clone, Debug)]
pub(crate) struct Counted {
    algorithm: Algorithm,
    members: Members,
    /// The bucket of a key hash among `n ≥ 1` buckets.
    rule: fn(u64, u32) -> u32,
    /// The same rule, noting each try (for "explain this key").
    traced: fn(u64, u32, &mut Walk) -> u32,
}

impl Counted {
    pub(crate) fn new(
        algorithm: Algorithm,
        nodes: Vec<NodeSpec>,
        rule: fn(u64, u32) -> u32,
        traced: fn(u64, u32, &mut Walk) -> u32,
    ) -> Result<Counted, Error> {
        Ok(Counted { algorithm, members: Members::new(nodes, 1, weight_rule(algorithm))?, rule, traced })
    }
}

impl Placement for Counted {
    fn algorithm(&self) -> Algorithm {
        self.algorithm
    }
    fn nodes(&self) -> &[Node] {
        &self.members.nodes
    }
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        self.members.push(spec, 1, weight_rule(self.algorithm))
    }
    fn remove(&mut self, name: &str) -> Result<(), Error> {
        remove_last(&mut self.members, self.algorithm.name(), name)
    }
    fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
        self.members.set_down(index, down)
    }
    fn is_down(&self, index: usize) -> bool {
        self.members.is_down(index)
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        if self.members.nodes.is_empty() {
            return Err(Error::EmptyRing);
        }
        let owner = (self.rule)(key_hash(key), self.members.nodes.len() as u32) as usize;
        self.members.serving(self.algorithm, owner)
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        super::fraction64(key_hash(key))
    }
    fn describe_key(&self, key: &[u8]) -> String {
        let h = key_hash(key);
        format!("xxh3 0x{h:016x}, bucket {}", (self.rule)(h, self.members.nodes.len().max(1) as u32))
    }
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        let h = explain_hash(key, chain, super::fraction64);
        let n = self.members.nodes.len() as u32;
        let mut walk = Walk::default();
        let bucket = (self.traced)(h, n, &mut walk);
        walk.push(chain, |b| (b < u64::from(n)).then_some(b as usize), &format!("not one of the {n}"));
        let label = format!("its bucket among {n} (node i is bucket i)");
        chain.push(Step::new(StepKind::Bucket, label, bucket.to_string()).at_node(bucket as usize));
        Some(bucket as usize)
    }
    fn memory_bytes(&self) -> usize {
        self.members.memory_bytes()
    }
    fn lookup_cost(&self) -> u64 {
        2
    }
    fn boxed_clone(&self) -> Box<dyn Placement> {
        Box::new(self.clone())
    }
}

// ---------------------------------------------------------------------------------------
// Stateful: an engine that remembers removals, any bucket may leave.

/// A bucket hash's state, as its paper defines the operations.
pub(crate) trait Engine: Clone + std::fmt::Debug + 'static {
    /// The paper's `ADDBUCKET`: the bucket a new node takes; an error when full.
    fn add_bucket(&mut self) -> Result<u32, Error>;
    /// The paper's `REMOVEBUCKET`, for a working bucket.
    fn remove_bucket(&mut self, bucket: u32);
    /// The paper's `GETBUCKET` of a key hash: a working bucket (there is at least one).
    fn bucket(&self, hash: u64) -> u32 {
        self.traced(hash, &mut ())
    }
    /// The same, noting each bucket it tries (for "explain this key").
    fn traced(&self, hash: u64, note: &mut impl Note) -> u32;
    /// Bucket ids are below this.
    fn span(&self) -> u32;
    /// Where a key hash is drawn, as a fraction of the circle.
    fn fraction(&self, hash: u64) -> f64;
    fn memory_bytes(&self) -> usize;
    /// The work of one lookup (see [`Placement::lookup_cost`]), for `working` buckets.
    fn lookup_cost(&self, working: u32) -> u64;
}

/// The nodes of a bucket hash that remembers removals, each with its bucket.
#[derive(Clone, Debug)]
pub(crate) struct Stateful<E: Engine> {
    algorithm: Algorithm,
    members: Members,
    /// Node `i`'s bucket.
    buckets: Vec<u32>,
    /// The node of each bucket ([`NONE`] when none).
    owners: Vec<u32>,
    engine: E,
    /// While some node is down: the engine with the down nodes' buckets removed (in node
    /// order). `None` when none is down, and when all are.
    live: Option<E>,
}

const NONE: u32 = u32::MAX;

impl<E: Engine> Stateful<E> {
    /// The nodes created together on `engine` (made for `nodes.len()` working buckets), node
    /// `i` on bucket `i`.
    pub(crate) fn new(algorithm: Algorithm, nodes: Vec<NodeSpec>, engine: E) -> Result<Stateful<E>, Error> {
        let members = Members::new(nodes, 1, weight_rule(algorithm))?;
        let buckets = (0..members.nodes.len() as u32).collect();
        let mut s = Stateful { algorithm, members, buckets, owners: Vec::new(), engine, live: None };
        s.changed();
        Ok(s)
    }

    fn changed(&mut self) {
        self.owners = vec![NONE; self.engine.span() as usize];
        for (i, &b) in self.buckets.iter().enumerate() {
            self.owners[b as usize] = i as u32;
        }
        self.live = None;
        if !self.members.down.is_empty() && (0..self.buckets.len()).any(|i| !self.members.is_down(i)) {
            let mut live = self.engine.clone();
            for (i, &b) in self.buckets.iter().enumerate() {
                if self.members.is_down(i) {
                    live.remove_bucket(b);
                }
            }
            self.live = Some(live);
        }
    }

    /// The engine lookups use now, or why none answers.
    fn serving(&self) -> Result<&E, Error> {
        if self.members.nodes.is_empty() {
            return Err(Error::EmptyRing);
        }
        match (&self.live, self.members.down.is_empty()) {
            (_, true) => Ok(&self.engine),
            (Some(live), false) => Ok(live),
            (None, false) => Err(super::down::all_down()),
        }
    }
}

impl<E: Engine> Stateful<E> {
    /// `engine`'s walk from the key hash `h` to its bucket and that bucket's node.
    fn explain_walk(&self, engine: &E, h: u64, chain: &mut Chain) -> Option<usize> {
        let mut walk = Walk::default();
        let bucket = engine.traced(h, &mut walk);
        let node_of = |b: u64| self.owners.get(b as usize).filter(|&&o| o != NONE).map(|&o| o as usize);
        walk.push(chain, node_of, "no node: removed or unused");
        let owner = node_of(u64::from(bucket));
        let step = Step::new(StepKind::Bucket, "the working bucket it ends in", bucket.to_string());
        chain.push(match owner {
            Some(o) => step.at_node(o),
            None => step,
        });
        owner
    }
}

impl<E: Engine> Placement for Stateful<E> {
    fn algorithm(&self) -> Algorithm {
        self.algorithm
    }
    fn nodes(&self) -> &[Node] {
        &self.members.nodes
    }
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        let mut engine = self.engine.clone();
        let bucket = engine.add_bucket()?;
        self.members.push(spec, 1, weight_rule(self.algorithm))?;
        self.engine = engine;
        self.buckets.push(bucket);
        self.changed();
        Ok(())
    }
    fn remove(&mut self, name: &str) -> Result<(), Error> {
        let index = self.members.take(name)?;
        let bucket = self.buckets.remove(index);
        self.engine.remove_bucket(bucket);
        self.changed();
        Ok(())
    }
    fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
        self.members.set_down(index, down)?;
        self.changed();
        Ok(())
    }
    fn is_down(&self, index: usize) -> bool {
        self.members.is_down(index)
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        let bucket = self.serving()?.bucket(key_hash(key));
        match self.owners.get(bucket as usize) {
            Some(&owner) if owner != NONE => Ok(owner as usize),
            _ => Err(Error::Unsupported(format!("{}: bucket {bucket} has no node", self.algorithm.name()))),
        }
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        self.engine.fraction(key_hash(key))
    }
    fn describe_key(&self, key: &[u8]) -> String {
        let h = key_hash(key);
        match self.serving() {
            Ok(engine) => format!("xxh3 0x{h:016x}, bucket {}", engine.bucket(h)),
            Err(_) => format!("xxh3 0x{h:016x}"),
        }
    }
    /// The walk on the state with every node (down ones included): the candidate.
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        let h = explain_hash(key, chain, |h| self.engine.fraction(h));
        self.explain_walk(&self.engine, h, chain)
    }
    /// A down candidate: the walk again on the copy of the state without the down nodes'
    /// buckets, which lookups use.
    fn explain_down(&self, key: &[u8], chain: &mut Chain) -> bool {
        let Some(live) = &self.live else { return false };
        let down = (0..self.buckets.len()).filter(|&i| self.members.is_down(i)).count();
        let rule = format!("the state with the {down} down nodes' buckets removed (the paper's REMOVEBUCKET)");
        chain.push(Step::new(StepKind::Down, "the walk again, on a copy of the state", rule));
        self.explain_walk(live, key_hash(key), chain).is_some()
    }
    fn memory_bytes(&self) -> usize {
        self.members.memory_bytes()
            + self.engine.memory_bytes()
            + self.live.as_ref().map_or(0, Engine::memory_bytes)
            + (self.buckets.capacity() + self.owners.capacity()) * 4
    }
    fn lookup_cost(&self) -> u64 {
        self.engine.lookup_cost(self.buckets.len().max(1) as u32)
    }
    fn boxed_clone(&self) -> Box<dyn Placement> {
        Box::new(self.clone())
    }
}
