//! Envoy's `RING_HASH` and `MAGLEV` load balancers (Envoy 1.40), bit for bit, with a request
//! hash from a header hash policy (`xxHash64` of the header's value, seed 0). The same ring
//! is what Istio's `consistentHash` and Consul's `ring_hash` configure in Envoy; gRPC's
//! `ring_hash` policy follows the same design (xxHash64 points `"{address}_{i}"`, the same
//! scaling), but only Envoy itself is checked here. The rules are cited from Envoy's
//! source in `tests/real/README.md` (§11); `tests/native/real_proxies.rs` checks them against the
//! real Envoy.
//!
//! - **Host keys.** A host is hashed by its address `ip:port` (or its `hostname` with
//!   `use_hostname_for_hashing`, or its `envoy.lb` `hash_key` metadata): the node's name.
//! - **Weights** (`normalizeHostWeights`): each host's weight over the sum, in doubles.
//! - **Ring** (`RingHashLoadBalancer::Ring::Ring`): `scale = min(⌈min_w · minimum_ring_size⌉
//!   / min_w, maximum_ring_size)`; walking the hosts in order, running sums decide how many
//!   points each gets (`target += scale · w`, one point while `current < target`), point `i`
//!   being `xxHash64("{key}_{i}")` (or `MURMUR_HASH_2`: libstdc++'s 64-bit murmur, seed
//!   `0xc70f6907`). A request goes to the first point at or after its hash, wrapping
//!   (`chooseHost`, ketama's search).
//! - **Maglev** (`MaglevTable::constructMaglevTableInternal`): hosts sorted by key; offset
//!   `xxHash64(key) % M`, skip `xxHash64(key, seed 1) % (M − 1) + 1`; in rounds `1, 2, …` a host
//!   takes its next free entry when `round · w ≥ its target`, the target then growing by the
//!   largest weight; a request goes to `table[hash % M]`.
//!
//! A host that fails its health check leaves the healthy set, and the ring or table is
//! rebuilt from the healthy hosts (`ThreadAwareLoadBalancerBase::refresh`).

use super::about::{thousands, KeySpace};
use super::down::Rebuilt;
use super::entry::{Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Weights};
use super::explain::{hex, Chain, Step, StepKind, FIRST_AT_OR_AFTER};
use super::members::Members;
use super::options::{OptionKind, OptionSpec, OptionValue, Options, Scope};
use super::{Algorithm, Placement};
use crate::algo::papers::maglev::TABLE_SIZE;
use crate::analysis::Arcs;
use crate::order::{self, Tie};
use crate::points::Points;
use crate::{limits, Error, Node, NodeSpec};
use twox_hash::XxHash64;

const DOWN: OnDown = OnDown::Rebuild(
    "A host that fails Envoy's active health check (or is ejected by outlier detection) leaves the healthy set, \
     and the ring or Maglev table is rebuilt from the healthy hosts (ThreadAwareLoadBalancerBase::refresh). Not \
     modelled: below healthy_panic_threshold (50% healthy) Envoy panics and builds from all hosts again.",
);

const STALE: OnStale = OnStale::Proxy(
    "Each Envoy rebuilds its ring or table when its endpoints change (EDS, DNS, a config push); until one has, it sends moved keys to their old host.",
);

pub(crate) const RING_HASH: Entry = Entry {
    name: "envoy-ring-hash",
    label: "Envoy, RING_HASH",
    family: Family::Balancer,
    source: concat!(
        "Envoy 1.40 ring_hash_lb.cc (Ring::Ring, chooseHost), thread_aware_lb_impl.cc (normalizeHostWeights), a header \
         hash policy (xxHash64 of the value)",
        "; the same ring Istio (consistentHash) and Consul (ring_hash) configure in Envoy, and gRPC's ring_hash \
         policy's design (xxHash64 \"address_i\" points, the same scaling; its default maximum is 4,096; gRPC itself \
         not checked)"
    ),
    options: &[&ENVOY_HASH, &MINIMUM_RING_SIZE, &MAXIMUM_RING_SIZE],
    weights: Weights::Checked(check_weight),
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 64 },
    describe: |o| {
        format!(
            "Envoy RING_HASH: points \"host_i\" hashed with {} for each host by weight, scaled so the lightest \
             host has a whole number of points (at least {} points, at most {}); a request's xxHash64 goes to the \
             next point ({}).",
            hash_of(o).name(),
            thousands(whole(o, MINIMUM_RING_SIZE.name, DEFAULT_MIN_RING)),
            thousands(whole(o, MAXIMUM_RING_SIZE.name, DEFAULT_MAX_RING)),
            (RING_HASH.key_space)(o).words()
        )
    },
    on_down: DOWN,
    on_stale: STALE,
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`RING_HASH`] is built.
pub(crate) const BUILD_RING_HASH: Build = Build::Whole(|o, nodes, _| Ok(Box::new(Envoy::new(Kind::ring(o)?, nodes)?)));

pub(crate) const MAGLEV: Entry = Entry {
    name: "envoy-maglev",
    label: "Envoy, MAGLEV",
    family: Family::Balancer,
    source: concat!(
        "Envoy 1.40 maglev_lb.cc (constructMaglevTableInternal, the weighted fill, chooseHost), a header hash policy \
         (xxHash64 of the value)",
        "; the same table Istio (consistentHash maglev) configures in Envoy"
    ),
    options: &[&TABLE_SIZE],
    weights: Weights::Checked(check_weight),
    arcs: true,
    replicas: false,
    key_space: |o| KeySpace::Table { size: TABLE_SIZE.whole(o) },
    describe: |o| {
        format!(
            "Envoy MAGLEV: a {}-entry table that hosts sorted by key fill in rounds by weight (xxHash64 offsets \
             and skips); a request's xxHash64 modulo the size picks the entry.",
            thousands(TABLE_SIZE.whole(o))
        )
    },
    on_down: DOWN,
    on_stale: STALE,
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`MAGLEV`] is built.
pub(crate) const BUILD_MAGLEV: Build = Build::Whole(|o, nodes, _| Ok(Box::new(Envoy::new(Kind::maglev(o)?, nodes)?)));

/// `RingHashLbConfig.hash_function`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RingHashFunction {
    XxHash,
    MurmurHash2,
}

impl RingHashFunction {
    pub const ALL: [RingHashFunction; 2] = [RingHashFunction::XxHash, RingHashFunction::MurmurHash2];

    /// As Envoy's config spells it.
    pub fn name(self) -> &'static str {
        match self {
            RingHashFunction::XxHash => "XX_HASH",
            RingHashFunction::MurmurHash2 => "MURMUR_HASH_2",
        }
    }

    pub fn from_name(name: &str) -> Result<RingHashFunction, Error> {
        RingHashFunction::ALL.into_iter().find(|f| f.name() == name).ok_or_else(|| {
            Error::unknown_choice(
                "ringHashFunction",
                name,
                format!("unknown ring hash function {name:?}: choose XX_HASH or MURMUR_HASH_2"),
            )
        })
    }

    fn hash(self, bytes: &[u8]) -> u64 {
        match self {
            RingHashFunction::XxHash => XxHash64::oneshot(0, bytes),
            RingHashFunction::MurmurHash2 => murmur_hash2_64(bytes, MURMUR_SEED),
        }
    }
}

/// `MurmurHash::STD_HASH_SEED`.
const MURMUR_SEED: u64 = 0xc70f_6907;

/// `MurmurHash::murmurHash2_64` (source/common/common/hash.cc, from libstdc++'s
/// `_Hash_bytes`): not MurmurHash64A, whose tail and finish differ.
fn murmur_hash2_64(key: &[u8], seed: u64) -> u64 {
    const MUL: u64 = 0xc6a4_a793_5bd1_e995;
    let shift_mix = |v: u64| v ^ (v >> 47);
    let mut hash = seed ^ (key.len() as u64).wrapping_mul(MUL);
    let mut chunks = key.chunks_exact(8);
    for chunk in &mut chunks {
        let data =
            shift_mix(u64::from_le_bytes(chunk.try_into().expect("8 bytes")).wrapping_mul(MUL)).wrapping_mul(MUL);
        hash ^= data;
        hash = hash.wrapping_mul(MUL);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let data = rest.iter().rev().fold(0u64, |d, &b| (d << 8) + u64::from(b));
        hash ^= data;
        hash = hash.wrapping_mul(MUL);
    }
    hash = shift_mix(hash).wrapping_mul(MUL);
    shift_mix(hash)
}

fn function_names() -> Vec<&'static str> {
    RingHashFunction::ALL.iter().map(|f| f.name()).collect()
}

/// `ring_hash_lb_config.hash_function`.
pub(crate) const ENVOY_HASH: OptionSpec = OptionSpec {
    name: "ringHashFunction",
    kind: OptionKind::Choice { choices: function_names, default: Some("XX_HASH") },
    help:
        "ring_hash_lb_config's hash_function for the ring's points (requests are hashed by the hash policy, xxHash64)",
    scope: Scope::Everywhere,
    link: "rf",
    refused: None,
    get: |o| Some(OptionSpec::param(o, "ringHashFunction").unwrap_or(OptionValue::Text("XX_HASH".into()))),
    set: |o, v| {
        RingHashFunction::from_name(v.name())?;
        o.params.insert("ringHashFunction", v);
        Ok(())
    },
};

const DEFAULT_MIN_RING: u64 = 1024;
const DEFAULT_MAX_RING: u64 = 1024 * 1024 * 8;

/// `minimum_ring_size`.
pub(crate) const MINIMUM_RING_SIZE: OptionSpec = OptionSpec {
    name: "minimumRingSize",
    kind: OptionKind::Whole { min: 1, max: DEFAULT_MAX_RING, default: DEFAULT_MIN_RING },
    help: "ring_hash_lb_config's minimum_ring_size: the lightest host's points are scaled to at least this (not 0: \
           Envoy takes 0 but then builds an empty ring and fails every request, ring_hash_lb.cc; refused alike in \
           an import, an option and a link)",
    scope: Scope::Everywhere,
    link: "rn",
    refused: None,
    get: |o| Some(OptionSpec::param(o, "minimumRingSize").unwrap_or(OptionValue::Whole(DEFAULT_MIN_RING))),
    set: |o, v| {
        o.params.insert("minimumRingSize", v);
        Ok(())
    },
};

/// `maximum_ring_size`.
pub(crate) const MAXIMUM_RING_SIZE: OptionSpec = OptionSpec {
    name: "maximumRingSize",
    kind: OptionKind::Whole { min: 1, max: DEFAULT_MAX_RING, default: DEFAULT_MAX_RING },
    help: "ring_hash_lb_config's maximum_ring_size: the cap on the scaled number of points",
    scope: Scope::Everywhere,
    link: "rx",
    refused: None,
    get: |o| Some(OptionSpec::param(o, "maximumRingSize").unwrap_or(OptionValue::Whole(DEFAULT_MAX_RING))),
    set: |o, v| {
        o.params.insert("maximumRingSize", v);
        Ok(())
    },
};

fn whole(o: &Options, name: &str, default: u64) -> u64 {
    o.params.get(name).map_or(default, OptionValue::whole)
}

fn hash_of(o: &Options) -> RingHashFunction {
    o.params
        .get(ENVOY_HASH.name)
        .and_then(|v| RingHashFunction::from_name(v.name()).ok())
        .unwrap_or(RingHashFunction::XxHash)
}

/// Envoy's `load_balancing_weight`: a whole number from 1 (a `uint32`).
fn check_weight(weight: f64) -> Result<(), Error> {
    if weight.fract() != 0.0 || weight > f64::from(u32::MAX) {
        return Err(Error::weight_refused(
            weight,
            format!(
                "Envoy's load_balancing_weight is a whole number from 1 to {} (got {})",
                u32::MAX,
                crate::decimal::shortest(weight)
            ),
        ));
    }
    Ok(())
}

/// The request hash of a header hash policy: `xxHash64` of the header's value.
pub fn request_hash(key: &[u8]) -> u64 {
    XxHash64::oneshot(0, key)
}

/// Which table, with its settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    Ring { function: RingHashFunction, min: u64, max: u64 },
    Maglev { size: u64 },
}

impl Kind {
    pub(crate) fn ring(o: &Options) -> Result<Kind, Error> {
        let (min, max) =
            (whole(o, MINIMUM_RING_SIZE.name, DEFAULT_MIN_RING), whole(o, MAXIMUM_RING_SIZE.name, DEFAULT_MAX_RING));
        let kind = Kind::Ring { function: hash_of(o), min, max };
        kind.check()?;
        Ok(kind)
    }

    pub(crate) fn maglev(o: &Options) -> Result<Kind, Error> {
        let kind = Kind::Maglev { size: TABLE_SIZE.whole(o) };
        kind.check()?;
        Ok(kind)
    }

    /// What Envoy refuses of these settings, ringlab's cap on the table, and the ring sizes'
    /// ranges: the options' own checks, so that whatever builds a ring (an option, a link,
    /// an import) takes exactly the sizes the others take. A minimum of 0 is refused: Envoy
    /// takes it, but its ring is then empty (`scale = ⌈min_w · 0⌉ / min_w = 0`, no point) and
    /// `chooseHost` answers no host for every request (`ring_hash_lb.cc`).
    fn check(self) -> Result<(), Error> {
        if let Kind::Ring { min, max, .. } = self {
            MINIMUM_RING_SIZE.check(OptionValue::Whole(min))?;
            MAXIMUM_RING_SIZE.check(OptionValue::Whole(max))?;
        }
        match self {
            Kind::Ring { min, max, .. } if min > max => {
                // Envoy's own words (RingHashLoadBalancer's constructor).
                Err(Error::invalid_option(
                    "minimumRingSize",
                    format!("ring hash: minimum_ring_size ({min}) > maximum_ring_size ({max})"),
                ))
            }
            Kind::Ring { .. } => Ok(()),
            Kind::Maglev { size } => {
                limits::check("the Maglev table size", size, crate::algo::papers::maglev::MAX_TABLE)?;
                if !crate::algo::papers::maglev::is_prime(size) {
                    // Envoy: "The table size of maglev must be prime number".
                    return Err(Error::invalid_option(
                        "tableSize",
                        format!("the Maglev table size must be a prime number (got {size})"),
                    ));
                }
                Ok(())
            }
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Envoy {
    kind: Kind,
    members: Members,
    /// RING_HASH: the ring, owners by node index.
    points: Points,
    /// MAGLEV: each entry's node index.
    table: Vec<u32>,
    /// While a host is down: the healthy hosts' ring or table.
    live: Option<Box<Rebuilt>>,
}

impl Envoy {
    pub(crate) fn new(kind: Kind, nodes: Vec<NodeSpec>) -> Result<Envoy, Error> {
        kind.check()?;
        let algorithm = Envoy::algorithm_of(kind);
        let members = Members::new(nodes, 0, super::members::weight_rule(algorithm))?;
        let mut envoy = Envoy { kind, members, points: Points::new(64), table: Vec::new(), live: None };
        // Its table, filled here; a change's refill is charged by the change (`change_cells`).
        crate::work::charge(crate::work::Cost::Cells, envoy.change_cells())?;
        envoy.build()?;
        Ok(envoy)
    }

    fn algorithm_of(kind: Kind) -> Algorithm {
        match kind {
            Kind::Ring { .. } => Algorithm::EnvoyRingHash,
            Kind::Maglev { .. } => Algorithm::EnvoyMaglev,
        }
    }

    /// Each host's weight over the sum (`normalizeHostWeights`), and the smallest and largest.
    fn normalized(&self) -> Result<(Vec<f64>, f64, f64), Error> {
        let sum: f64 = self.members.nodes.iter().map(|n| n.weight).sum();
        if sum > f64::from(u32::MAX) {
            return Err(Error::TooLarge {
                what: "Envoy's total weight".into(),
                max: u64::from(u32::MAX),
                got: sum as u64,
            });
        }
        let weights: Vec<f64> = self.members.nodes.iter().map(|n| n.weight * 1.0 / sum).collect();
        let min = weights.iter().copied().fold(1.0, f64::min);
        let max = weights.iter().copied().fold(0.0, f64::max);
        Ok((weights, min, max))
    }

    fn build(&mut self) -> Result<(), Error> {
        self.live = None;
        let (weights, min_w, max_w) = self.normalized()?;
        match self.kind {
            Kind::Ring { function, min, max } => {
                self.points = Points::new(64);
                if self.members.nodes.is_empty() {
                    return Ok(());
                }
                let scale = ((min_w * min as f64).ceil() / min_w).min(max as f64);
                if scale.ceil() > limits::MAX_POINTS as f64 {
                    return Err(Error::TooManyPoints { points: scale.ceil() as u64 });
                }
                let mut entries: Vec<(u64, u32)> = Vec::with_capacity(scale.ceil() as usize + 1);
                let (mut current, mut target) = (0.0f64, 0.0f64);
                let mut counts = vec![0u32; weights.len()];
                for (idx, (node, &w)) in self.members.nodes.iter().zip(&weights).enumerate() {
                    target += scale * w;
                    let mut label = HostLabel::new(&node.name);
                    let mut i = 0u64;
                    while current < target {
                        entries.push((function.hash(label.at(i)), idx as u32));
                        i += 1;
                        current += 1.0;
                    }
                    counts[idx] = i as u32;
                }
                // std::sort: equal 64-bit hashes of two different labels do not happen in practice.
                order::sort_points(&mut entries, Tie::Earlier);
                self.points.set(&entries);
                for (node, count) in self.members.nodes.iter_mut().zip(counts) {
                    node.points = count;
                }
            }
            Kind::Maglev { size } => {
                // Envoy's loop: about M × (the heaviest share) rounds over every host.
                let work = size as f64 * max_w * self.members.nodes.len() as f64;
                limits::check(
                    "steps of Envoy's Maglev fill (table size × heaviest share × hosts)",
                    work as u64,
                    limits::MAX_MAGLEV_FILL_WORK,
                )?;
                self.table = maglev_table(&self.members.nodes, &weights, max_w, size);
                let mut counts = vec![0u32; self.members.nodes.len()];
                for &t in &self.table {
                    counts[t as usize] += 1;
                }
                for (node, count) in self.members.nodes.iter_mut().zip(counts) {
                    node.points = count;
                }
            }
        }
        self.refresh_live()
    }

    fn refresh_live(&mut self) -> Result<(), Error> {
        let kind = self.kind;
        self.live = Rebuilt::build(&self.members.nodes, &self.members.down, |specs| {
            Envoy::new(kind, specs).map(|e| Box::new(e) as Box<dyn Placement>)
        })?
        .map(Box::new);
        Ok(())
    }

    fn some_down(&self) -> bool {
        !self.members.down.is_empty() && !self.members.nodes.is_empty()
    }

    fn owner(&self, hash: u64) -> Result<usize, Error> {
        match self.kind {
            Kind::Ring { .. } if self.points.is_empty() => Err(Error::EmptyRing),
            Kind::Ring { .. } => Ok(self.points.owner_at(hash) as usize),
            Kind::Maglev { size } => {
                self.table.get((hash % size) as usize).map(|&t| t as usize).ok_or(Error::EmptyRing)
            }
        }
    }
}

/// A ring point's label, `"{host}_{i}"`, built in one buffer.
struct HostLabel {
    bytes: Vec<u8>,
    base: usize,
}

impl HostLabel {
    fn new(host: &str) -> HostLabel {
        let mut bytes = Vec::with_capacity(host.len() + 21);
        bytes.extend_from_slice(host.as_bytes());
        bytes.push(b'_');
        HostLabel { base: bytes.len(), bytes }
    }

    fn at(&mut self, i: u64) -> &[u8] {
        self.bytes.truncate(self.base);
        self.bytes.extend_from_slice(itoa::Buffer::new().format(i).as_bytes());
        &self.bytes
    }
}

/// Envoy's weighted Maglev fill (`OriginalMaglevTable::constructImplementationInternals`).
fn maglev_table(nodes: &[Node], weights: &[f64], max_w: f64, size: u64) -> Vec<u32> {
    if nodes.is_empty() {
        return Vec::new();
    }
    // Sorted by key (a `str` orders by bytes), through the engine's one point sort.
    let mut sorted: Vec<(u64, u32)> = (0..nodes.len()).map(|i| (0, i as u32)).collect();
    order::sort_points(&mut sorted, Tie::Name(&|i| nodes[i as usize].name.as_str()));
    let order: Vec<usize> = sorted.into_iter().map(|(_, i)| i as usize).collect();
    struct Build {
        node: u32,
        offset: u64,
        skip: u64,
        weight: f64,
        target: f64,
        next: u64,
    }
    let mut entries: Vec<Build> = order
        .iter()
        .map(|&i| {
            let key = nodes[i].name.as_bytes();
            Build {
                node: i as u32,
                offset: XxHash64::oneshot(0, key) % size,
                skip: XxHash64::oneshot(1, key) % (size - 1) + 1,
                weight: weights[i],
                target: 0.0,
                next: 0,
            }
        })
        .collect();
    let mut table = vec![u32::MAX; size as usize];
    let mut filled = 0u64;
    let mut iteration = 1u32;
    let permutation =
        |e: &Build| ((u128::from(e.offset) + u128::from(e.skip) * u128::from(e.next)) % u128::from(size)) as usize;
    while filled < size {
        for e in entries.iter_mut() {
            if filled >= size {
                break;
            }
            if f64::from(iteration) * e.weight < e.target {
                continue;
            }
            e.target += max_w;
            let mut c = permutation(e);
            while table[c] != u32::MAX {
                e.next += 1;
                c = permutation(e);
            }
            table[c] = e.node;
            e.next += 1;
            filled += 1;
        }
        iteration += 1;
    }
    table
}

impl Placement for Envoy {
    fn algorithm(&self) -> Algorithm {
        Envoy::algorithm_of(self.kind)
    }
    fn nodes(&self) -> &[Node] {
        &self.members.nodes
    }
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        let mut changed = self.clone();
        changed.members.push(spec, 0, super::members::weight_rule(self.algorithm()))?;
        changed.build()?;
        *self = changed;
        Ok(())
    }
    fn remove(&mut self, name: &str) -> Result<(), Error> {
        let mut changed = self.clone();
        changed.members.take(name)?;
        changed.build()?;
        *self = changed;
        Ok(())
    }
    fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
        let mut changed = self.clone();
        changed.members.set_down(index, down)?;
        changed.refresh_live()?;
        *self = changed;
        Ok(())
    }
    fn is_down(&self, index: usize) -> bool {
        self.members.is_down(index)
    }
    fn boxed_clone(&self) -> Box<dyn Placement> {
        Box::new(self.clone())
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        if self.some_down() {
            return self.live.as_ref().map_or_else(|| Err(super::down::all_down()), |l| l.locate_index(key));
        }
        self.owner(request_hash(key))
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        match self.kind {
            Kind::Ring { .. } => super::fraction64(request_hash(key)),
            Kind::Maglev { size } => ((request_hash(key) % size) as f64 + 0.5) / size as f64,
        }
    }
    fn describe_key(&self, key: &[u8]) -> String {
        let hash = request_hash(key);
        match self.kind {
            Kind::Ring { .. } => format!("xxHash64 0x{hash:016x}"),
            Kind::Maglev { size } => format!("xxHash64 0x{hash:016x}, entry {} of {size}", hash % size),
        }
    }
    /// On every host's ring or table (the candidate: down hosts leave a rebuilt one).
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        chain.bytes("the bytes hashed: the header's value (a header hash policy), as is", key);
        let hash = request_hash(key);
        let step = Step::new(StepKind::Hash, "xxHash64 of it (seed 0): the request's hash", hex(hash, 64));
        match self.kind {
            Kind::Ring { function, .. } => {
                chain.push(step.at_fraction(super::fraction64(hash)));
                if self.points.is_empty() {
                    return None;
                }
                let i = self.points.successor(hash);
                let (at, owner) = self.points.point(i);
                chain.push(Step::point(FIRST_AT_OR_AFTER, i, self.points.len(), at, 64, owner));
                let node = &self.members.nodes[owner];
                let mut host = HostLabel::new(&node.name);
                if let Some(k) = (0..u64::from(node.points)).find(|&k| function.hash(host.at(k)) == at) {
                    let label = format!("its label: {} of \"host_i\" put the point there", function.name());
                    let text = format!("{}_{k}", node.name);
                    let step = Step::new(StepKind::Label, label, text).at_fraction(super::fraction64(at));
                    chain.push(step.at_node(owner));
                }
                Some(owner)
            }
            Kind::Maglev { size } => {
                chain.push(step);
                let entry = hash % size;
                let owner = *self.table.get(entry as usize)? as usize;
                let label = format!("its entry: the hash mod the table size {size} (filled by hosts, by weight)");
                let value = format!("{hash} % {size} = {entry}");
                chain.push(Step::new(StepKind::Entry, label, value).at_fraction(self.key_fraction(key)).at_node(owner));
                Some(owner)
            }
        }
    }
    fn arcs(&self) -> Option<&dyn Arcs> {
        match &self.live {
            Some(live) => live.arcs(),
            None if self.some_down() => None,
            None if self.members.nodes.is_empty() => None,
            None => Some(self),
        }
    }
    fn memory_bytes(&self) -> usize {
        self.points.memory_bytes()
            + self.table.capacity() * 4
            + self.live.as_ref().map_or(0, |l| l.memory_bytes())
            + self.members.memory_bytes()
    }
    /// Every change refills the whole table, as Maglev's does.
    fn change_cells(&self) -> u64 {
        match self.kind {
            Kind::Maglev { size } => size,
            Kind::Ring { .. } => 0,
        }
    }
    fn lookup_cost(&self) -> u64 {
        6
    }
}

impl Arcs for Envoy {
    fn size(&self) -> u128 {
        match self.kind {
            Kind::Ring { .. } => 1u128 << 64,
            Kind::Maglev { size } => u128::from(size),
        }
    }
    fn key_mapping(&self) -> String {
        match self.kind {
            Kind::Ring { .. } => "envoy/xxhash64".into(),
            Kind::Maglev { size } => format!("envoy-maglev/{size}"),
        }
    }
    fn point_count(&self) -> usize {
        match self.kind {
            Kind::Ring { .. } => self.points.len(),
            Kind::Maglev { .. } => self.table.len(),
        }
    }
    fn point(&self, i: usize) -> (u64, usize) {
        match self.kind {
            Kind::Ring { .. } => self.points.point(i),
            Kind::Maglev { .. } => (i as u64, self.table[i] as usize),
        }
    }
    fn owner_of(&self, position: u64) -> Result<usize, Error> {
        match self.kind {
            Kind::Ring { .. } => self.owner(position),
            Kind::Maglev { .. } => self.table.get(position as usize).map(|&t| t as usize).ok_or(Error::EmptyRing),
        }
    }
    fn node_list(&self) -> &[Node] {
        &self.members.nodes
    }
}

/// A cluster as Envoy's config describes it: RING_HASH or MAGLEV with their settings, hosts in
/// `load_assignment` order, each named by the key Envoy hashes it by.
pub(crate) fn cluster(kind: Kind, hosts: Vec<NodeSpec>) -> Result<super::Cluster, Error> {
    let mut options = Options::new(Envoy::algorithm_of(kind));
    match kind {
        Kind::Ring { function, min, max } => {
            options.params.insert(ENVOY_HASH.name, OptionValue::Text(function.name().into()));
            options.params.insert(MINIMUM_RING_SIZE.name, OptionValue::Whole(min));
            options.params.insert(MAXIMUM_RING_SIZE.name, OptionValue::Whole(max));
        }
        Kind::Maglev { size } => TABLE_SIZE.keep(&mut options, OptionValue::Whole(size)),
    }
    let placement = Envoy::new(kind, hosts)?;
    Ok(super::Cluster::from_placement(Box::new(placement), options))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_scaling_gives_the_lightest_host_whole_points() {
        // Three equal hosts: min_w = 1/3, ⌈1024/3⌉ = 342, scale = 1026: 342 points each.
        let specs = vec![NodeSpec::new("a:1"), NodeSpec::new("b:1"), NodeSpec::new("c:1")];
        let kind = Kind::Ring { function: RingHashFunction::XxHash, min: 1024, max: DEFAULT_MAX_RING };
        let e = Envoy::new(kind, specs).unwrap();
        assert!(e.members.nodes.iter().all(|n| n.points == 342), "{:?}", e.members.nodes);
        // A small maximum caps it: 6 points over 4 hosts (8 wanted) gives 2, 1, 2, 1, the running
        // sums of Envoy's own comment in Ring::Ring.
        let specs: Vec<NodeSpec> = (0..4).map(|i| NodeSpec::new(format!("h{i}:1"))).collect();
        let e = Envoy::new(Kind::Ring { function: RingHashFunction::XxHash, min: 6, max: 6 }, specs).unwrap();
        let counts: Vec<u32> = e.members.nodes.iter().map(|n| n.points).collect();
        assert_eq!(counts, [2, 1, 2, 1]);
    }

    /// Envoy's `Ring::chooseHost` search (libketama's), written out: the index it picks.
    fn envoys_search(ring: &[u64], h: u64) -> usize {
        let (mut lowp, mut highp) = (0i64, ring.len() as i64);
        loop {
            let midp = (lowp + highp) / 2;
            if midp == ring.len() as i64 {
                return 0;
            }
            let midval = ring[midp as usize];
            let midval1 = if midp == 0 { 0 } else { ring[midp as usize - 1] };
            if h <= midval && h > midval1 {
                return midp as usize;
            }
            if midval < h {
                lowp = midp + 1;
            } else {
                highp = midp - 1;
            }
            if lowp > highp {
                return 0;
            }
        }
    }

    #[test]
    fn chooses_as_envoys_search_does() {
        // Rings of 1..300 points (small values, so hashes repeat), each point its own owner:
        // the owner ringlab finds is the point Envoy's loop stops at, or one of equal hash.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for len in 1..300usize {
            let mut ring: Vec<u64> = (0..len).map(|_| next() % 1000).collect();
            ring.sort_unstable();
            let entries: Vec<(u64, u32)> = ring.iter().enumerate().map(|(i, &p)| (p, i as u32)).collect();
            let mut points = Points::new(64);
            points.set(&entries);
            for _ in 0..200 {
                let h = next() % 1100;
                let envoy = envoys_search(&ring, h);
                let ours = points.owner_at(h) as usize;
                assert_eq!(ring[ours], ring[envoy], "len {len} hash {h}");
                // Of equal hashes both take the first (std::sort leaves their order open).
                assert!(ours == 0 || ring[ours - 1] < ring[ours] || ring[ours] < h, "len {len} hash {h}");
            }
        }
    }

    #[test]
    fn maglev_weights_fill_in_proportion() {
        let specs = vec![NodeSpec::new("a:1"), NodeSpec::new("b:1").weight(3.0)];
        let e = Envoy::new(Kind::Maglev { size: 65537 }, specs).unwrap();
        let (a, b) = (e.members.nodes[0].points, e.members.nodes[1].points);
        assert_eq!(a + b, 65537);
        assert!((f64::from(b) / f64::from(a) - 3.0).abs() < 0.01, "{a} {b}");
    }
}
