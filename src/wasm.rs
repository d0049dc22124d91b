//! The JavaScript binding: a thin layer over the plain-Rust engine.
//!
//! Options come in as plain objects (serde-wasm-bindgen); errors go out as JS `Error`s whose
//! message is the engine's [`Error`] text. Nothing here hashes or does geometry itself.

use crate::{analysis, migration, Config, Error, Hash, NodeSpec, RingBits};
use js_sys::{Float64Array, Uint32Array};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn js_err(e: Error) -> JsError {
    JsError::new(&e.to_string())
}

fn bad_option(e: serde_wasm_bindgen::Error) -> JsError {
    js_err(Error::InvalidOption(e.to_string()))
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// `new Ring({hash, bits, vnodes, nodes})`: every field optional.
#[derive(Deserialize, Default)]
struct RingOptions {
    hash: Option<String>,
    bits: Option<u64>,
    vnodes: Option<u64>,
    #[serde(default)]
    nodes: Vec<NodeArg>,
}

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
    share: f64,
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

/// A consistent-hash ring.
#[wasm_bindgen]
pub struct Ring {
    inner: crate::Ring,
}

#[wasm_bindgen]
impl Ring {
    /// `new Ring({hash: "xxh3", bits: 32, vnodes: 160, nodes: ["a", {name: "b", weight: 2}]})`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Ring, JsError> {
        let options: RingOptions = optional(options, &["hash", "bits", "vnodes", "nodes"])?;
        let config = parse_config(&options).map_err(js_err)?;
        let nodes = options.nodes.into_iter().map(NodeSpec::from);
        let inner = crate::Ring::with_nodes(config, nodes).map_err(js_err)?;
        Ok(Ring { inner })
    }

    /// A copy of this ring (to keep a "before" state).
    #[wasm_bindgen(js_name = clone)]
    pub fn duplicate(&self) -> Ring {
        Ring { inner: self.inner.clone() }
    }

    /// `add(name, {weight, zone})`.
    pub fn add(&mut self, name: String, options: JsValue) -> Result<(), JsError> {
        let options: AddOptions = optional(options, &["weight", "zone"])?;
        let spec = NodeSpec { name, weight: options.weight.unwrap_or(1.0), zone: options.zone };
        self.inner.add_node(spec).map_err(js_err)
    }

    /// Removes the named node.
    pub fn remove(&mut self, name: &str) -> Result<(), JsError> {
        self.inner.remove(name).map(drop).map_err(js_err)
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

    /// The preference list of `n` distinct nodes for `key`.
    pub fn replicas(&self, key: &str, n: usize) -> Result<Vec<String>, JsError> {
        let list = self.inner.replicas(key, n).map_err(js_err)?;
        Ok(list.into_iter().map(str::to_string).collect())
    }

    /// `[{name, weight, zone, points, share}]`, in the order nodes were added.
    pub fn nodes(&self) -> Result<JsValue, JsError> {
        let shares = analysis::shares(&self.inner);
        let size = self.inner.config().bits.size() as f64;
        let views: Vec<NodeView> = self
            .inner
            .nodes()
            .iter()
            .zip(shares)
            .map(|(n, s)| NodeView {
                name: &n.name,
                weight: n.weight,
                zone: n.zone.as_deref(),
                points: n.points,
                share: s as f64 / size,
            })
            .collect();
        to_js(&views)
    }

    /// The number of points (virtual nodes) on the ring.
    #[wasm_bindgen(getter, js_name = pointCount)]
    pub fn point_count(&self) -> usize {
        self.inner.point_count()
    }

    /// The hash function's name.
    #[wasm_bindgen(getter)]
    pub fn hash(&self) -> String {
        self.inner.config().hash.name().to_string()
    }

    /// The ring size in bits (32 or 64).
    #[wasm_bindgen(getter)]
    pub fn bits(&self) -> u32 {
        self.inner.config().bits.bits()
    }

    /// Virtual nodes per unit of weight.
    #[wasm_bindgen(getter)]
    pub fn vnodes(&self) -> u32 {
        self.inner.config().vnodes
    }

    /// Each point's position as a fraction of the ring (0 = top, clockwise), for drawing.
    #[wasm_bindgen(js_name = pointFractions)]
    pub fn point_fractions(&self) -> Float64Array {
        let size = self.inner.config().bits.size() as f64;
        let fractions: Vec<f64> =
            (0..self.inner.point_count()).map(|i| self.inner.point(i).0 as f64 / size).collect();
        Float64Array::from(fractions.as_slice())
    }

    /// Each point's owner, as an index into `nodes()`.
    #[wasm_bindgen(js_name = pointOwners)]
    pub fn point_owners(&self) -> Uint32Array {
        let owners: Vec<u32> = (0..self.inner.point_count()).map(|i| self.inner.point(i).1 as u32).collect();
        Uint32Array::from(owners.as_slice())
    }

    /// The positions of the keys `"{prefix}0" .. "{prefix}{count-1}"` as fractions of the ring.
    #[wasm_bindgen(js_name = keyFractions)]
    pub fn key_fractions(&self, prefix: &str, count: usize) -> Float64Array {
        let size = self.inner.config().bits.size() as f64;
        let sample = migration::KeySample::generated(prefix, count);
        let fractions: Vec<f64> = sample.keys.iter().map(|k| self.inner.key_position(k) as f64 / size).collect();
        Float64Array::from(fractions.as_slice())
    }

    /// The owners (indices into `nodes()`) of the keys `"{prefix}0" .. "{prefix}{count-1}"`.
    #[wasm_bindgen(js_name = keyOwners)]
    pub fn key_owners(&self, prefix: &str, count: usize) -> Result<Uint32Array, JsError> {
        let sample = migration::KeySample::generated(prefix, count);
        let owners = sample
            .keys
            .iter()
            .map(|k| self.inner.owner_of(self.inner.key_position(k)).map(|o| o as u32))
            .collect::<Result<Vec<u32>, Error>>()
            .map_err(js_err)?;
        Ok(Uint32Array::from(owners.as_slice()))
    }

    /// The position of `key` as a hexadecimal string (exact on 64-bit rings too).
    #[wasm_bindgen(js_name = keyPosition)]
    pub fn key_position(&self, key: &str) -> String {
        let width = self.inner.config().bits.bits() as usize / 4;
        format!("0x{:0width$x}", self.inner.key_position(key))
    }

    /// The spread of load over nodes: `{rsd, max_over_mean, min_over_mean}` or `null` when empty.
    pub fn spread(&self) -> Result<JsValue, JsError> {
        to_js(&analysis::spread(&self.inner))
    }

    /// The exact spread for each vnode count in `counts`, with this ring's nodes and hash:
    /// `[{vnodes, spread: {rsd, max_over_mean, min_over_mean}, theoretical_rsd}]`.
    #[wasm_bindgen(js_name = vnodeSweep)]
    pub fn vnode_sweep(&self, counts: Vec<u32>) -> Result<JsValue, JsError> {
        let nodes: Vec<NodeSpec> = self.inner.nodes().iter().map(crate::Node::spec).collect();
        let sweep = analysis::vnode_sweep(self.inner.config(), &nodes, &counts).map_err(js_err)?;
        to_js(&sweep)
    }

    /// Heap bytes the ring holds.
    #[wasm_bindgen(getter, js_name = memoryBytes)]
    pub fn memory_bytes(&self) -> usize {
        self.inner.memory_bytes()
    }

    /// The exact migration from `before` to `after`:
    /// `{arcs: [{start, end, from, to}], moved, moved_fraction, ideal_fraction, modulo_fraction}`.
    /// `start`, `end` and `moved` are decimal strings (they can exceed 2^53).
    pub fn diff(before: &Ring, after: &Ring) -> Result<JsValue, JsError> {
        let m = migration::between(&before.inner, &after.inner).map_err(js_err)?;
        to_js(&MigrationView::from(m))
    }

    /// Moved keys on the sample `"{prefix}0" .. "{prefix}{count-1}"`:
    /// `{keys, moved_keys, moved_fraction, moved_traffic_fraction, zipf_s}`.
    #[wasm_bindgen(js_name = diffSample)]
    pub fn diff_sample(before: &Ring, after: &Ring, prefix: &str, count: usize, zipf_s: f64) -> Result<JsValue, JsError> {
        Ring::diff_of(before, after, migration::KeySample::generated(prefix, count), zipf_s)
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
    from: String,
    to: String,
}

impl From<migration::Migration> for MigrationView {
    fn from(m: migration::Migration) -> MigrationView {
        MigrationView {
            arcs: m
                .arcs
                .into_iter()
                .map(|a| ArcView { start: a.start.to_string(), end: a.end.to_string(), from: a.from, to: a.to })
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
