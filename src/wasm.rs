//! The JavaScript binding: a thin layer over the plain-Rust engine.
//!
//! Options come in as plain objects (serde-wasm-bindgen); errors go out as JS `Error`s whose
//! message is the engine's [`Error`] text. Nothing here hashes or does geometry itself.

use crate::algo::{self, Algorithm, Cluster, Options};
use crate::{analysis, migration, Config, Error, Hash, NodeSpec, RingBits};
use js_sys::{Float64Array, Uint32Array};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn js_err(e: Error) -> JsError {
    JsError::new(&e.to_string())
}

fn bad_option(e: serde_wasm_bindgen::Error) -> JsError {
    let text = e.to_string();
    // serde's words for a node that is neither form say nothing to a user.
    let text = if text.contains("untagged enum NodeArg") {
        "each node is a name or {name, weight, zone}, with a string name, a number weight and a string zone".to_string()
    } else {
        text
    };
    js_err(Error::InvalidOption(text))
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// `new Ring({algorithm, hash, bits, vnodes, nodes, numTokens, replicas, tableSize, probes,
/// epsilon, keyPrefix, keyCount})`: every field optional.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct RingOptions {
    algorithm: Option<String>,
    hash: Option<String>,
    bits: Option<u64>,
    vnodes: Option<u64>,
    #[serde(default)]
    nodes: Vec<NodeArg>,
    num_tokens: Option<u32>,
    replicas: Option<u32>,
    table_size: Option<u64>,
    probes: Option<u32>,
    epsilon: Option<f64>,
    key_prefix: Option<String>,
    key_count: Option<usize>,
}

const RING_OPTIONS: [&str; 12] = [
    "algorithm", "hash", "bits", "vnodes", "nodes", "numTokens", "replicas", "tableSize", "probes", "epsilon",
    "keyPrefix", "keyCount",
];

/// A node given as `"name"` or `{name, weight, zone}`.
#[derive(Deserialize)]
#[serde(untagged)]
enum NodeArg {
    Name(String),
    Spec { name: String, weight: Option<f64>, zone: Option<String> },
}

impl From<NodeArg> for NodeSpec {
    fn from(arg: NodeArg) -> NodeSpec {
        match arg {
            NodeArg::Name(name) => NodeSpec::new(name),
            NodeArg::Spec { name, weight, zone } => NodeSpec { name, weight: weight.unwrap_or(1.0), zone },
        }
    }
}

/// `add(name, {weight, zone})`.
#[derive(Deserialize, Default)]
struct AddOptions {
    weight: Option<f64>,
    zone: Option<String>,
}

#[derive(Serialize)]
struct NodeView<'a> {
    name: &'a str,
    weight: f64,
    zone: Option<&'a str>,
    points: u32,
    /// Exact fraction of the hash space.
    share: Option<f64>,
}

fn parse_options(options: &RingOptions) -> Result<Options, Error> {
    let algorithm = options.algorithm.as_deref().map_or(Ok(Algorithm::Ring), Algorithm::from_name)?;
    let mut o = Options::new(algorithm);
    o.config = parse_config(options)?;
    o.num_tokens = options.num_tokens.unwrap_or(o.num_tokens);
    o.replicas = options.replicas.unwrap_or(o.replicas);
    o.table_size = options.table_size.unwrap_or(o.table_size);
    o.probes = options.probes.unwrap_or(o.probes);
    o.epsilon = options.epsilon.unwrap_or(o.epsilon);
    if options.key_prefix.is_some() || options.key_count.is_some() {
        let count = options.key_count.unwrap_or(10_000);
        if count > 200_000 {
            return Err(Error::InvalidOption(format!("keyCount is at most 200000 (got {count})")));
        }
        o.keys = migration::KeySample::generated(options.key_prefix.as_deref().unwrap_or("key:"), count);
    }
    if o.num_tokens == 0 || o.num_tokens > crate::MAX_VNODES || o.replicas == 0 || o.replicas > crate::MAX_VNODES {
        return Err(Error::InvalidOption(format!("numTokens and replicas must be between 1 and {}", crate::MAX_VNODES)));
    }
    Ok(o)
}

fn parse_config(options: &RingOptions) -> Result<Config, Error> {
    let mut config = Config::default();
    if let Some(hash) = &options.hash {
        config.hash = Hash::from_name(hash)?;
    }
    if let Some(bits) = options.bits {
        config.bits = RingBits::from_bits(bits)?;
    }
    if let Some(vnodes) = options.vnodes {
        config.vnodes = u32::try_from(vnodes).map_err(|_| Error::InvalidVnodes(vnodes))?;
    }
    Ok(config)
}

/// Parses an optional options object whose keys must be among `known` (serde-wasm-bindgen
/// reads only the fields it knows, so a typo like `{vnode: 10}` would pass silently).
fn optional<T: for<'de> Deserialize<'de> + Default>(value: JsValue, known: &[&str]) -> Result<T, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    if let Some(object) = value.dyn_ref::<js_sys::Object>() {
        for key in js_sys::Object::keys(object).iter().filter_map(|k| k.as_string()) {
            if !known.contains(&key.as_str()) {
                let list = known.join(", ");
                return Err(js_err(Error::InvalidOption(format!("unknown option {key:?} (known: {list})"))));
            }
        }
    }
    serde_wasm_bindgen::from_value(value).map_err(bad_option)
}

/// A consistent-hash ring, or any other placement algorithm (`algorithm` option).
#[wasm_bindgen]
pub struct Ring {
    inner: Cluster,
    /// The options the ring was made with, for `clone` and the getters.
    options: Options,
}

impl Ring {
    fn config(&self) -> &Config {
        &self.options.config
    }

    /// ringlab's own ring, for the calls only it supports.
    fn ring(&self, what: &str) -> Result<&crate::Ring, JsError> {
        self.inner.as_ring().ok_or_else(|| {
            js_err(Error::InvalidOption(format!(
                "{what} is available with the \"ring\" algorithm (this is \"{}\")",
                self.inner.algorithm().name()
            )))
        })
    }
}

#[wasm_bindgen]
impl Ring {
    /// `new Ring({algorithm: "ring", hash: "xxh3", bits: 32, vnodes: 160, nodes: ["a", {name: "b", weight: 2}]})`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Ring, JsError> {
        let options: RingOptions = optional(options, &RING_OPTIONS)?;
        let parsed = parse_options(&options).map_err(js_err)?;
        let nodes = options.nodes.into_iter().map(NodeSpec::from);
        let inner = Cluster::new(parsed.clone(), nodes).map_err(js_err)?;
        Ok(Ring { inner, options: parsed })
    }

    /// The algorithm's name.
    #[wasm_bindgen(getter)]
    pub fn algorithm(&self) -> String {
        self.inner.algorithm().name().to_string()
    }

    /// A copy of this ring (to keep a "before" state).
    #[wasm_bindgen(js_name = clone)]
    pub fn duplicate(&self) -> Ring {
        Ring { inner: self.inner.clone(), options: self.options.clone() }
    }

    /// `add(name, {weight, zone})`.
    pub fn add(&mut self, name: String, options: JsValue) -> Result<(), JsError> {
        let options: AddOptions = optional(options, &["weight", "zone"])?;
        let spec = NodeSpec { name, weight: options.weight.unwrap_or(1.0), zone: options.zone };
        self.inner.add(spec).map_err(js_err)
    }

    /// Removes the named node.
    pub fn remove(&mut self, name: &str) -> Result<(), JsError> {
        self.inner.remove(name).map_err(js_err)
    }

    /// Changes a node's weight.
    #[wasm_bindgen(js_name = setWeight)]
    pub fn set_weight(&mut self, name: &str, weight: f64) -> Result<(), JsError> {
        self.inner.set_weight(name, weight).map_err(js_err)
    }

    /// The name of the node that owns `key`.
    pub fn locate(&self, key: &str) -> Result<String, JsError> {
        self.inner.locate(key).map(str::to_string).map_err(js_err)
    }

    /// The preference list of `n` distinct nodes for `key` (the `ring` algorithm).
    pub fn replicas(&self, key: &str, n: usize) -> Result<Vec<String>, JsError> {
        let list = self.ring("replicas")?.replicas(key, n).map_err(js_err)?;
        Ok(list.into_iter().map(str::to_string).collect())
    }

    /// `[{name, weight, zone, points, share}]`, in the order nodes were added. `share` is the
    /// exact fraction of keys, or `null` for algorithms whose shares can only be sampled
    /// (jump, rendezvous, multi-probe).
    pub fn nodes(&self) -> Result<JsValue, JsError> {
        let shares = self.inner.exact_shares();
        let views: Vec<NodeView> = self
            .inner
            .nodes()
            .iter()
            .enumerate()
            .map(|(i, n)| NodeView {
                name: &n.name,
                weight: n.weight,
                zone: n.zone.as_deref(),
                points: n.points,
                share: shares.as_ref().map(|s| s[i]),
            })
            .collect();
        to_js(&views)
    }

    /// The number of points on the ring (0 for algorithms that are not rings of points).
    #[wasm_bindgen(getter, js_name = pointCount)]
    pub fn point_count(&self) -> usize {
        self.inner.arcs().map_or(0, |a| a.point_count())
    }

    /// The hash function's name (the `hash` option).
    #[wasm_bindgen(getter)]
    pub fn hash(&self) -> String {
        self.config().hash.name().to_string()
    }

    /// The ring size in bits (32 or 64; the `bits` option).
    #[wasm_bindgen(getter)]
    pub fn bits(&self) -> u32 {
        self.config().bits.bits()
    }

    /// Virtual nodes per unit of weight (the `vnodes` option).
    #[wasm_bindgen(getter)]
    pub fn vnodes(&self) -> u32 {
        self.config().vnodes
    }

    /// Each point's position as a fraction of the ring (0 = top, clockwise), for drawing.
    #[wasm_bindgen(js_name = pointFractions)]
    pub fn point_fractions(&self) -> Float64Array {
        let fractions: Vec<f64> = self.inner.arcs().map_or_else(Vec::new, |a| {
            let size = a.size() as f64;
            (0..a.point_count()).map(|i| a.point(i).0 as f64 / size).collect()
        });
        Float64Array::from(fractions.as_slice())
    }

    /// Each point's owner, as an index into `nodes()`.
    #[wasm_bindgen(js_name = pointOwners)]
    pub fn point_owners(&self) -> Uint32Array {
        let owners: Vec<u32> =
            self.inner.arcs().map_or_else(Vec::new, |a| (0..a.point_count()).map(|i| a.point(i).1 as u32).collect());
        Uint32Array::from(owners.as_slice())
    }

    /// The positions of the keys `"{prefix}0" .. "{prefix}{count-1}"` as fractions of the circle.
    #[wasm_bindgen(js_name = keyFractions)]
    pub fn key_fractions(&self, prefix: &str, count: usize) -> Float64Array {
        let mut fractions = Vec::with_capacity(count);
        migration::for_each_generated(prefix, count, |_, key| fractions.push(self.inner.key_fraction(key)));
        Float64Array::from(fractions.as_slice())
    }

    /// The owners (indices into `nodes()`) of the keys `"{prefix}0" .. "{prefix}{count-1}"`.
    #[wasm_bindgen(js_name = keyOwners)]
    pub fn key_owners(&self, prefix: &str, count: usize) -> Result<Uint32Array, JsError> {
        if self.inner.nodes().is_empty() && count > 0 {
            return Err(js_err(Error::EmptyRing));
        }
        let mut owners = Vec::with_capacity(count);
        // Not empty, so every lookup succeeds.
        migration::for_each_generated(prefix, count, |_, key| {
            owners.push(self.inner.locate_index(key).map_or(0, |o| o as u32))
        });
        Ok(Uint32Array::from(owners.as_slice()))
    }

    /// What is at `fraction` of the circle (0 = top, clockwise), for hovering:
    /// `{start, end, startFraction, endFraction, owner, label}` (positions as decimal strings;
    /// `label` is the point's `"name#i"` on ringlab's ring), or `null` without arcs.
    #[wasm_bindgen(js_name = arcAt)]
    pub fn arc_at(&self, fraction: f64) -> Result<JsValue, JsError> {
        let Some(a) = self.inner.arcs().filter(|a| a.point_count() > 0) else {
            return Ok(JsValue::NULL);
        };
        let size = a.size();
        let position = ((fraction.clamp(0.0, 1.0) * size as f64) as u128).min(size - 1) as u64;
        let i = point_index(a, position);
        let n = a.point_count();
        let start = if i == 0 { (a.point(n - 1).0 as u128 + 1) % size } else { u128::from(a.point(i - 1).0) + 1 };
        let (end, owner) = a.point(i);
        let label = self.inner.as_ring().and_then(|r| r.point_label(i));
        let view = ArcAt {
            start: start.to_string(),
            end: end.to_string(),
            start_fraction: start as f64 / size as f64,
            end_fraction: (u128::from(end) + 1) as f64 / size as f64,
            owner: a.node_name(owner).to_string(),
            label,
        };
        to_js(&view)
    }

    /// The index of the sample key `"{prefix}{i}"` drawn nearest `fraction`, within
    /// `tolerance` (a fraction of the circle), or `undefined`.
    #[wasm_bindgen(js_name = keyNear)]
    pub fn key_near(&self, prefix: &str, count: usize, fraction: f64, tolerance: f64) -> Option<u32> {
        let distance = |f: f64| {
            let d = (f - fraction).abs();
            d.min(1.0 - d)
        };
        let mut best: Option<(usize, f64)> = None;
        migration::for_each_generated(prefix, count, |i, key| {
            let d = distance(self.inner.key_fraction(key));
            if d <= tolerance && best.is_none_or(|(_, b)| d < b) {
                best = Some((i, d));
            }
        });
        best.map(|(i, _)| i as u32)
    }

    /// Where `key` lands and how the owner is found, for the "follow a key" view:
    /// `{key, description, fraction, owner, walk: [{name, fraction}]}`. `walk` is the
    /// clockwise walk's stops: the owning point, then (ring algorithm, `n > 1`) the first
    /// point of each further replica.
    pub fn follow(&self, key: &str, n: usize) -> Result<JsValue, JsError> {
        let owner = self.inner.locate(key).map_err(js_err)?.to_string();
        let fraction = self.inner.key_fraction(key);
        let mut walk = Vec::new();
        if let Some(a) = self.inner.arcs().filter(|a| a.point_count() > 0) {
            let size = a.size() as f64;
            let position = (fraction * size) as u64;
            let wanted: Vec<usize> = match self.inner.as_ring() {
                Some(ring) => {
                    let mut list = Vec::new();
                    ring.replicas_into(ring.key_position(key), n.max(1), &mut list).map_err(js_err)?;
                    list
                }
                None => vec![self.inner.locate_index(key).map_err(js_err)?],
            };
            // Exact on ringlab's ring (a fraction cannot hold 64 bits); the drawing's own
            // precision elsewhere.
            let start = match self.inner.as_ring() {
                Some(ring) => ring.point_of(ring.key_position(key)).map_err(js_err)?,
                None => point_index(a, position.min((a.size() - 1) as u64)),
            };
            let count = a.point_count();
            for &node in &wanted {
                if let Some(i) = (0..count).map(|s| (start + s) % count).find(|&i| a.point(i).1 == node) {
                    walk.push(Stop { name: a.node_name(node).to_string(), fraction: a.point(i).0 as f64 / size });
                }
            }
        } else {
            walk.push(Stop { name: owner.clone(), fraction });
        }
        to_js(&Follow { key: key.to_string(), description: self.inner.describe_key(key), fraction, owner, walk })
    }

    /// The position of `key` as a hexadecimal string (exact on 64-bit rings too; the `ring`
    /// algorithm).
    #[wasm_bindgen(js_name = keyPosition)]
    pub fn key_position(&self, key: &str) -> Result<String, JsError> {
        let ring = self.ring("keyPosition")?;
        let width = ring.config().bits.bits() as usize / 4;
        Ok(format!("0x{:0width$x}", ring.key_position(key)))
    }

    /// How `key` is placed, in the algorithm's own terms: `"xxh3 0x1a2b3c4d"`, `"slot 12739"`,
    /// `"token -4069959284402364209"`.
    #[wasm_bindgen(js_name = describeKey)]
    pub fn describe_key(&self, key: &str) -> String {
        self.inner.describe_key(key)
    }

    /// The spread of load over nodes: `{rsd, max_over_mean, min_over_mean}`, from exact shares;
    /// `null` when empty or when the algorithm's shares can only be sampled.
    pub fn spread(&self) -> Result<JsValue, JsError> {
        let weights: Vec<f64> = self.inner.nodes().iter().map(|n| n.weight).collect();
        let spread = match self.inner.arcs() {
            // Integer arc lengths where there are arcs: the same figure as natively.
            Some(arcs) => analysis::Spread::of(&analysis::shares(arcs), &weights),
            // Exact fractions otherwise (modulo, bounded-load), in parts of 2^53.
            None => self.inner.exact_shares().and_then(|shares| {
                let scaled: Vec<u128> = shares.iter().map(|s| (s * (1u64 << 53) as f64) as u128).collect();
                analysis::Spread::of(&scaled, &weights)
            }),
        };
        to_js(&spread)
    }

    /// The exact spread for each vnode count in `counts`, with this ring's nodes and hash:
    /// `[{vnodes, spread: {rsd, max_over_mean, min_over_mean}, theoretical_rsd}]`.
    #[wasm_bindgen(js_name = vnodeSweep)]
    pub fn vnode_sweep(&self, counts: Vec<u32>) -> Result<JsValue, JsError> {
        let ring = self.ring("vnodeSweep")?;
        let nodes: Vec<NodeSpec> = ring.nodes().iter().map(crate::Node::spec).collect();
        let sweep = analysis::vnode_sweep(ring.config(), &nodes, &counts).map_err(js_err)?;
        to_js(&sweep)
    }

    /// Heap bytes the ring holds.
    #[wasm_bindgen(getter, js_name = memoryBytes)]
    pub fn memory_bytes(&self) -> usize {
        self.inner.memory_bytes()
    }

    /// The exact migration from `before` to `after` (same algorithm and key mapping, and an
    /// algorithm made of points):
    /// `{arcs: [{start, end, start_fraction, end_fraction, from, to}], moved, moved_fraction, ideal_fraction, modulo_fraction}`.
    /// `start`, `end` and `moved` are decimal strings (they can exceed 2^53).
    pub fn diff(before: &Ring, after: &Ring) -> Result<JsValue, JsError> {
        let not_exact = || {
            js_err(Error::InvalidOption(format!(
                "{} has no exact arcs: use diffSample",
                before.inner.algorithm().name()
            )))
        };
        let (a, b) = (before.inner.arcs().ok_or_else(not_exact)?, after.inner.arcs().ok_or_else(not_exact)?);
        let m = migration::between(a, b).map_err(js_err)?;
        to_js(&MigrationView::new(m, a.size()))
    }

    /// Moved keys on the sample `"{prefix}0" .. "{prefix}{count-1}"`:
    /// `{keys, moved_keys, moved_fraction, moved_traffic_fraction, zipf_s}`.
    #[wasm_bindgen(js_name = diffSample)]
    pub fn diff_sample(before: &Ring, after: &Ring, prefix: &str, count: usize, zipf_s: f64) -> Result<JsValue, JsError> {
        let m = migration::generated_between(&before.inner, &after.inner, prefix, count, zipf_s).map_err(js_err)?;
        to_js(&m)
    }

    /// As `diffSample`, on the given keys (most popular first for the Zipf traffic figure).
    #[wasm_bindgen(js_name = diffKeys)]
    pub fn diff_keys(before: &Ring, after: &Ring, keys: Vec<String>, zipf_s: f64) -> Result<JsValue, JsError> {
        Ring::diff_of(before, after, migration::KeySample { keys }, zipf_s)
    }

    fn diff_of(before: &Ring, after: &Ring, sample: migration::KeySample, zipf_s: f64) -> Result<JsValue, JsError> {
        let m = migration::sample_between(&before.inner, &after.inner, &sample, zipf_s).map_err(js_err)?;
        to_js(&m)
    }
}

/// The first point at or after `position` (wrapping), by binary search over the arcs.
fn point_index(a: &dyn analysis::Arcs, position: u64) -> usize {
    let (mut lo, mut hi) = (0, a.point_count());
    while lo < hi {
        let mid = (lo + hi) / 2;
        if a.point(mid).0 < position {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if lo == a.point_count() {
        0
    } else {
        lo
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArcAt {
    start: String,
    end: String,
    start_fraction: f64,
    end_fraction: f64,
    owner: String,
    label: Option<String>,
}

#[derive(Serialize)]
struct Stop {
    name: String,
    fraction: f64,
}

#[derive(Serialize)]
struct Follow {
    key: String,
    description: String,
    fraction: f64,
    owner: String,
    walk: Vec<Stop>,
}

#[derive(Serialize)]
struct MigrationView {
    arcs: Vec<ArcView>,
    moved: String,
    moved_fraction: f64,
    ideal_fraction: f64,
    modulo_fraction: f64,
}

#[derive(Serialize)]
struct ArcView {
    start: String,
    end: String,
    /// `start / size` and `(end + 1) / size`, for drawing.
    start_fraction: f64,
    end_fraction: f64,
    from: String,
    to: String,
}

impl MigrationView {
    fn new(m: migration::Migration, size: u128) -> MigrationView {
        let fraction = |x: u128| x as f64 / size as f64;
        MigrationView {
            arcs: m
                .arcs
                .into_iter()
                .map(|a| ArcView {
                    start: a.start.to_string(),
                    end: a.end.to_string(),
                    start_fraction: fraction(u128::from(a.start)),
                    end_fraction: fraction(u128::from(a.end) + 1),
                    from: a.from,
                    to: a.to,
                })
                .collect(),
            moved: m.moved.to_string(),
            moved_fraction: m.moved_fraction,
            ideal_fraction: m.ideal_fraction,
            modulo_fraction: m.modulo_fraction,
        }
    }
}

/// The expected relative standard deviation of load for `nodes` equal nodes with `vnodes`
/// points each: `sqrt((N - 1) / (N·V + 1))`.
#[wasm_bindgen(js_name = theoreticalRsd)]
pub fn theoretical_rsd(nodes: u32, vnodes: u32) -> f64 {
    analysis::theoretical_rsd(nodes, vnodes)
}

/// The algorithms' names, for a picker.
#[wasm_bindgen]
pub fn algorithms() -> Vec<String> {
    Algorithm::ALL.iter().map(|a| a.name().to_string()).collect()
}

/// The Redis Cluster slot of `key` (CRC16-XMODEM mod 16384, with hash tags).
#[wasm_bindgen(js_name = redisKeySlot)]
pub fn redis_key_slot(key: &str) -> u16 {
    algo::redis::key_slot(key.as_bytes())
}

/// Cassandra's Murmur3Partitioner token of `key`, as a BigInt.
#[wasm_bindgen(js_name = cassandraToken)]
pub fn cassandra_token(key: &str) -> i64 {
    algo::cassandra::token(key.as_bytes())
}

/// Jump consistent hash: the bucket in `0..buckets` of a 64-bit `key` (a BigInt).
#[wasm_bindgen(js_name = jumpHash)]
pub fn jump_hash(key: u64, buckets: u32) -> Result<u32, JsError> {
    if buckets == 0 {
        return Err(js_err(Error::InvalidOption("jumpHash needs at least one bucket".into())));
    }
    Ok(algo::jump::jump_hash(key, buckets))
}

/// Every algorithm on the same nodes and keys `"{prefix}0" ..`:
/// `[{algorithm, max_over_mean, moved_on_join, ideal_join, moved_on_leave, ideal_leave, left, memory_bytes} | {algorithm, error}]`.
/// `options` takes the same fields as `new Ring` (its `nodes` are the nodes compared).
#[wasm_bindgen(js_name = compareAlgorithms)]
pub fn compare_algorithms(options: JsValue, prefix: &str, count: usize) -> Result<JsValue, JsError> {
    let options: RingOptions = optional(options, &RING_OPTIONS)?;
    let base = parse_options(&options).map_err(js_err)?;
    let nodes: Vec<NodeSpec> = options.nodes.into_iter().map(NodeSpec::from).collect();
    let sample = migration::KeySample::generated(prefix, count);
    #[derive(Serialize)]
    #[serde(untagged)]
    enum Row {
        Ok(algo::compare::Report),
        Err { algorithm: &'static str, error: String },
    }
    let rows: Vec<Row> = algo::compare::compare(&base, &nodes, &sample, &Algorithm::ALL)
        .into_iter()
        .map(|(a, r)| match r {
            Ok(report) => Row::Ok(report),
            Err(e) => Row::Err { algorithm: a.name(), error: e.to_string() },
        })
        .collect();
    to_js(&rows)
}

// ---- charts: drawn by src/charts on the page's canvases ---------------------------------
//
// The caller sizes each canvas's backing store to its CSS size × devicePixelRatio and passes
// that ratio as `dpr`; each function redraws the whole canvas and returns the chart's data
// as CSV text (for "download CSV").

fn chart_theme(dark: bool, dpr: f64) -> crate::charts::Theme {
    let theme = if dark { crate::charts::Theme::dark() } else { crate::charts::Theme::light() };
    theme.scaled(dpr)
}

fn chart_area(
    canvas: web_sys::HtmlCanvasElement,
) -> Result<plotters::prelude::DrawingArea<plotters_canvas::CanvasBackend, plotters::coord::Shift>, JsError> {
    use plotters::prelude::IntoDrawingArea;
    plotters_canvas::CanvasBackend::with_canvas_object(canvas)
        .map(IntoDrawingArea::into_drawing_area)
        .ok_or_else(|| JsError::new("chart: that canvas has no 2D context"))
}

fn specs(ring: &Ring) -> Vec<NodeSpec> {
    ring.inner.nodes().iter().map(crate::Node::spec).collect()
}

/// Spread vs vnodes (log scale) for this ring's nodes and hash, with the theoretical curve,
/// the ring's own vnode setting marked, and with `band` the range over several hashes.
#[wasm_bindgen(js_name = drawSpreadChart)]
pub fn draw_spread_chart(
    canvas: web_sys::HtmlCanvasElement,
    ring: &Ring,
    dark: bool,
    dpr: f64,
    band: bool,
) -> Result<String, JsError> {
    let config = ring.config();
    let data = crate::charts::spread::data(config, &specs(ring), config.vnodes, 24, band).map_err(js_err)?;
    crate::charts::spread::draw(&chart_area(canvas)?, &data, &chart_theme(dark, dpr)).map_err(js_err)?;
    Ok(crate::charts::spread::csv(&data))
}

/// Each node's exact share (sampled where the algorithm has no exact shares), the sample's
/// key counts, and the ideal share.
#[wasm_bindgen(js_name = drawSharesChart)]
pub fn draw_shares_chart(
    canvas: web_sys::HtmlCanvasElement,
    ring: &Ring,
    key_count: usize,
    dark: bool,
    dpr: f64,
) -> Result<String, JsError> {
    let sample = migration::KeySample::generated("key:", key_count);
    let data = crate::charts::shares::data(&ring.inner, &sample).map_err(js_err)?;
    crate::charts::shares::draw(&chart_area(canvas)?, &data, &chart_theme(dark, dpr)).map_err(js_err)?;
    Ok(crate::charts::shares::csv(&data))
}

/// What a join and a leave move with this ring's algorithm, against the ideal and `hash % N`,
/// for N = 2 ..= `max_nodes`.
#[wasm_bindgen(js_name = drawMovesChart)]
pub fn draw_moves_chart(
    canvas: web_sys::HtmlCanvasElement,
    ring: &Ring,
    max_nodes: u32,
    key_count: usize,
    dark: bool,
    dpr: f64,
) -> Result<String, JsError> {
    let sample = migration::KeySample::generated("key:", key_count);
    let data = crate::charts::moves::data(&ring.options, 2..=max_nodes.max(2), &sample).map_err(js_err)?;
    crate::charts::moves::draw(&chart_area(canvas)?, &data, &chart_theme(dark, dpr)).map_err(js_err)?;
    Ok(crate::charts::moves::csv(&data))
}

/// Every algorithm on this ring's nodes: balance, moves on join and leave, memory, and the
/// lookup cost the page measured (`lookup_ns[i]` for `algorithms()[i]`; NaN for none).
/// Returns `{csv, table: {caption, headers, rows}}`.
#[wasm_bindgen(js_name = drawAlgorithmsChart)]
pub fn draw_algorithms_chart(
    canvas: web_sys::HtmlCanvasElement,
    ring: &Ring,
    key_count: usize,
    lookup_ns: Vec<f64>,
    dark: bool,
    dpr: f64,
) -> Result<JsValue, JsError> {
    let sample = migration::KeySample::generated("key:", key_count);
    let lookup: Vec<Option<f64>> =
        Algorithm::ALL.iter().enumerate().map(|(i, _)| lookup_ns.get(i).copied().filter(|x| x.is_finite())).collect();
    let base = Options { keys: sample.clone(), ..ring.options.clone() };
    let data = crate::charts::algorithms::data(&base, &specs(ring), &sample, &Algorithm::ALL, &lookup).map_err(js_err)?;
    crate::charts::algorithms::draw(&chart_area(canvas)?, &data, &chart_theme(dark, dpr)).map_err(js_err)?;
    #[derive(Serialize)]
    struct Out {
        csv: String,
        table: crate::charts::algorithms::Table,
    }
    to_js(&Out { csv: crate::charts::algorithms::csv(&data), table: crate::charts::algorithms::table(&data) })
}
