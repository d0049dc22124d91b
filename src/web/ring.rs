//! `Ring`: any placement algorithm, as a library object (`new Ring({algorithm, nodes})`).

use super::args::{AddOptions, NodeArg};
use super::{bad_argument, count, error, number, string, to_js};
use crate::algo::{Algorithm, Cluster, Options};
use crate::keys::KeySample;
use crate::limits;
use crate::{analysis, migration, Error, NodeSpec};
use js_sys::Uint32Array;
use wasm_bindgen::prelude::*;

/// `new Ring({...})`'s fields, every one optional: `algorithm`, `nodes`, and every
/// algorithm's options by name (the catalog's [`OptionSpec`](crate::algo::OptionSpec)s).
pub(crate) struct RingArgs {
    pub(crate) options: Options,
    pub(crate) nodes: Vec<NodeSpec>,
}

/// The names `new Ring` takes.
pub(crate) fn ring_fields() -> Vec<&'static str> {
    let mut known = vec!["algorithm", "nodes"];
    known.extend(crate::algo::catalog::all_options().iter().map(|o| o.name));
    known
}

/// Reads `new Ring`'s argument: the algorithm first, then each option in catalog order (so
/// one that goes with another, `haproxyAvalanche` with `haproxyHash`, sees it set).
pub(crate) fn ring_args(value: &JsValue) -> Result<RingArgs, JsValue> {
    let Some(object) = super::fields(value, &ring_fields())? else {
        return Ok(RingArgs { options: Options::new(crate::algo::DEFAULT), nodes: Vec::new() });
    };
    let algorithm = match super::field(&object, "algorithm") {
        Some(name) => Algorithm::from_name(&string(&name, "algorithm")?).map_err(error)?,
        None => crate::algo::DEFAULT,
    };
    let mut options = Options::new(algorithm);
    for spec in crate::algo::catalog::all_options() {
        if let Some(value) = super::field(&object, spec.name) {
            let value = super::option_value(spec, &value)?;
            options.set(spec.name, value).map_err(error)?;
        }
    }
    let nodes = match super::field(&object, "nodes") {
        Some(nodes) => {
            let nodes: Vec<NodeArg> = serde_wasm_bindgen::from_value(nodes).map_err(|_| {
                error(Error::invalid_option(
                    "nodes",
                    "nodes is an array; each node is a name or {name, weight, zone}, with a string name, a number \
                     weight and a string zone",
                ))
            })?;
            nodes.into_iter().map(NodeSpec::from).collect()
        }
        None => Vec::new(),
    };
    Ok(RingArgs { options, nodes })
}

/// `explain`'s `{replicas}` (0 when omitted).
fn explain_replicas(options: &JsValue) -> Result<usize, JsValue> {
    #[derive(serde::Deserialize, Default)]
    struct ExplainOptions {
        replicas: Option<f64>,
    }
    let o: ExplainOptions = super::options(options, &["replicas"])?;
    let replicas = super::whole(o.replicas.unwrap_or(0.0), "replicas").map_err(error)?;
    limits::check("replicas", replicas, limits::MAX_NODES as u64).map_err(error)?;
    Ok(replicas as usize)
}

/// A consistent-hash ring, or any other placement algorithm (`algorithm` option).
#[wasm_bindgen]
pub struct Ring {
    inner: Cluster,
}

impl Ring {
    pub(crate) fn from_cluster(inner: Cluster) -> Ring {
        Ring { inner }
    }

    /// The placement inside.
    pub(crate) fn cluster(&self) -> &Cluster {
        &self.inner
    }
}

#[wasm_bindgen]
impl Ring {
    /// `new Ring({algorithm: "ring", hash: "xxh3", bits: 32, vnodes: 160, nodes: ["a", {name: "b", weight: 2}]})`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Ring, JsValue> {
        crate::work::call(|| {
            let args = ring_args(&options)?;
            Ok(Ring { inner: Cluster::new(args.options, args.nodes).map_err(error)? })
        })
    }

    /// The placement a configuration text describes: `Ring.fromConfig(kind, text, {algorithm})`
    /// with `kind` one of `configKinds()` (`redis`, `memcached`, `nginx`, `haproxy`); `locate`
    /// answers the server as the text names it. Errors name the line.
    #[wasm_bindgen(js_name = fromConfig)]
    pub fn from_config(kind: JsValue, text: JsValue, options: JsValue) -> Result<Ring, JsValue> {
        crate::work::call(|| {
            let (kind, text, options) = super::import_args(&kind, &text, &options)?;
            Ok(Ring { inner: crate::import::from_config(&kind, &text, &options).map_err(error)? })
        })
    }

    /// `Ring.fromConfig("nginx", text)`: an `upstream { ... }` block.
    #[wasm_bindgen(js_name = fromNginxUpstream)]
    pub fn from_nginx_upstream(text: JsValue) -> Result<Ring, JsValue> {
        crate::work::call(|| Ring::from_config("nginx".into(), text, JsValue::UNDEFINED))
    }

    /// `Ring.fromConfig("haproxy", text)`: a `backend` section.
    #[wasm_bindgen(js_name = fromHaproxyBackend)]
    pub fn from_haproxy_backend(text: JsValue) -> Result<Ring, JsValue> {
        crate::work::call(|| Ring::from_config("haproxy".into(), text, JsValue::UNDEFINED))
    }

    /// `Ring.fromConfig("redis", text)`: `redis-cli cluster nodes`.
    #[wasm_bindgen(js_name = fromRedisClusterNodes)]
    pub fn from_redis_cluster_nodes(text: JsValue) -> Result<Ring, JsValue> {
        crate::work::call(|| Ring::from_config("redis".into(), text, JsValue::UNDEFINED))
    }

    /// `Ring.fromConfig("memcached", text, {algorithm})`: a memcached server list.
    #[wasm_bindgen(js_name = fromMemcachedServers)]
    pub fn from_memcached_servers(text: JsValue, algorithm: JsValue) -> Result<Ring, JsValue> {
        crate::work::call(|| {
            let options = js_sys::Object::new();
            if !algorithm.is_undefined() {
                js_sys::Reflect::set(&options, &"algorithm".into(), &algorithm)?;
            }
            Ring::from_config("memcached".into(), text, options.into())
        })
    }

    /// What this algorithm's real clients do with a down node: `{kind, text}`.
    #[wasm_bindgen(js_name = downRule)]
    pub fn down_rule(&self) -> Result<JsValue, JsValue> {
        crate::work::call(|| to_js(&crate::algo::down::rule(self.inner.algorithm())))
    }

    /// Marks a node down (`true`) or up: it stays, and lookups fail over as the real system
    /// does (an `unsupported` error where the algorithm has no such notion).
    #[wasm_bindgen(js_name = setDown)]
    pub fn set_down(&mut self, name: JsValue, down: JsValue) -> Result<(), JsValue> {
        crate::work::call(|| {
            let name = string(&name, "the node name")?;
            let down = super::flag(&down, "down")?;
            self.inner.set_down(&name, down).map_err(error)
        })
    }

    /// `setDown(name, true)`.
    #[wasm_bindgen(js_name = markDown)]
    pub fn mark_down(&mut self, name: JsValue) -> Result<(), JsValue> {
        crate::work::call(|| self.set_down(name, JsValue::TRUE))
    }

    /// `setDown(name, false)`.
    #[wasm_bindgen(js_name = markUp)]
    pub fn mark_up(&mut self, name: JsValue) -> Result<(), JsValue> {
        crate::work::call(|| self.set_down(name, JsValue::FALSE))
    }

    /// Whether the node is marked down.
    #[wasm_bindgen(js_name = isDown)]
    pub fn is_down(&self, name: JsValue) -> Result<bool, JsValue> {
        crate::work::call(|| self.inner.is_down(&string(&name, "the node name")?).map_err(error))
    }

    /// The algorithm's name.
    #[wasm_bindgen(getter)]
    pub fn algorithm(&self) -> String {
        crate::work::call(|| self.inner.algorithm().name().to_string())
    }

    /// A copy (to keep a "before" state).
    #[wasm_bindgen(js_name = clone)]
    pub fn duplicate(&self) -> Ring {
        crate::work::call(|| Ring { inner: self.inner.clone() })
    }

    /// `add(name, {weight, zone})`.
    pub fn add(&mut self, name: JsValue, options: JsValue) -> Result<(), JsValue> {
        crate::work::call(|| {
            let name = string(&name, "the node name")?;
            let o: AddOptions = super::options(&options, &["weight", "zone"])?;
            if self.inner.nodes().len() >= crate::limits::MAX_NODES {
                let max = crate::limits::MAX_NODES as u64;
                return Err(error(Error::TooLarge { what: "nodes".into(), max, got: max + 1 }));
            }
            self.inner.add(NodeSpec { name, weight: o.weight.unwrap_or(1.0), zone: o.zone }).map_err(error)
        })
    }

    /// Removes the named node.
    pub fn remove(&mut self, name: JsValue) -> Result<(), JsValue> {
        crate::work::call(|| self.inner.remove(&string(&name, "the node name")?).map_err(error))
    }

    /// Changes a node's weight.
    #[wasm_bindgen(js_name = setWeight)]
    pub fn set_weight(&mut self, name: JsValue, weight: JsValue) -> Result<(), JsValue> {
        crate::work::call(|| {
            let name = string(&name, "the node name")?;
            let weight = weight.as_f64().ok_or_else(|| bad_argument("the weight must be a number".into()))?;
            self.inner.set_weight(&name, weight).map_err(error)
        })
    }

    /// The name of the node that owns `key`.
    pub fn locate(&self, key: JsValue) -> Result<String, JsValue> {
        crate::work::call(|| self.inner.locate(string(&key, "the key")?).map(str::to_string).map_err(error))
    }

    /// The preference list of `n` distinct nodes for `key` (where the algorithm has one).
    pub fn replicas(&self, key: JsValue, n: JsValue) -> Result<Vec<String>, JsValue> {
        crate::work::call(|| {
            let key = string(&key, "the key")?;
            let n = count(&n, "the replica count", crate::limits::MAX_NODES)?;
            let list = self.inner.preference_list(key, n).ok_or_else(|| {
                error(Error::Unsupported(format!(
                    "replicas: {} has no preference lists",
                    self.inner.algorithm().name()
                )))
            })?;
            let nodes = self.inner.nodes();
            Ok(list.map_err(error)?.into_iter().map(|i| nodes[i].name.clone()).collect())
        })
    }

    /// "Explain this key": `explain(key, {replicas})` → `{key, algorithm, steps: [{kind,
    /// label, value, at: {fraction, node, nodes}}], owner, ownerIndex, replicas, error}`:
    /// every value the algorithm computes on the way to the owner `locate` answers (or the
    /// `error` code it gives), and the preference list of `replicas` (ringlab's ring).
    pub fn explain(&self, key: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let key = string(&key, "the key")?;
            let replicas = explain_replicas(&options)?;
            to_js(&self.inner.explain(key, replicas).map_err(error)?)
        })
    }

    /// One key's chains on two placements, side by side: `{a, b, partsAt, agree, reasons}`,
    /// `partsAt` the index of the first step that differs (`null`: none).
    #[wasm_bindgen(js_name = explainPair)]
    pub fn explain_pair(a: &Ring, b: &Ring, key: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let key = string(&key, "the key")?;
            let replicas = explain_replicas(&options)?;
            to_js(&crate::algo::explain::pair(&a.inner, &b.inner, key, replicas).map_err(error)?)
        })
    }

    /// `[{name, weight, zone, points, share, down}]`, in the order nodes were added; `share`
    /// is exact, or `null` where shares can only be sampled.
    pub fn nodes(&self) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            #[derive(serde::Serialize)]
            struct View<'a> {
                name: &'a str,
                weight: f64,
                zone: Option<&'a str>,
                points: u32,
                share: Option<f64>,
                down: bool,
            }
            let shares = self.inner.exact_shares();
            let views: Vec<View> = self
                .inner
                .nodes()
                .iter()
                .enumerate()
                .map(|(i, n)| View {
                    name: &n.name,
                    weight: n.weight,
                    zone: n.zone.as_deref(),
                    points: n.points,
                    share: shares.as_ref().map(|s| s[i]),
                    down: self.inner.is_down_at(i),
                })
                .collect();
            to_js(&views)
        })
    }

    /// Points on the circle (0 for algorithms that are not rings of points).
    #[wasm_bindgen(getter, js_name = pointCount)]
    pub fn point_count(&self) -> usize {
        crate::work::call(|| self.inner.arcs().map_or(0, |a| a.point_count()))
    }

    #[wasm_bindgen(getter)]
    pub fn hash(&self) -> String {
        crate::work::call(|| self.inner.options().config.hash.name().to_string())
    }

    #[wasm_bindgen(getter)]
    pub fn bits(&self) -> u32 {
        crate::work::call(|| self.inner.options().config.bits.bits())
    }

    #[wasm_bindgen(getter)]
    pub fn vnodes(&self) -> u32 {
        crate::work::call(|| self.inner.options().config.vnodes)
    }

    /// Heap bytes it holds.
    #[wasm_bindgen(getter, js_name = memoryBytes)]
    pub fn memory_bytes(&self) -> usize {
        crate::work::call(|| self.inner.memory_bytes())
    }

    /// The owners (indices into `nodes()`) of the keys `"{prefix}0" .. "{prefix}{count-1}"`;
    /// `0xFFFFFFFF` (the scene's `NO_OWNER`) for a key `locate` answers unavailable.
    #[wasm_bindgen(js_name = keyOwners)]
    pub fn key_owners(&self, prefix: JsValue, count: JsValue) -> Result<Uint32Array, JsValue> {
        crate::work::call(|| {
            let prefix = string(&prefix, "the key prefix")?;
            let count = super::count(&count, "the key count", limits::MAX_SAMPLE_KEYS)?;
            let owners = self.inner.key_owners(&prefix, count).map_err(error)?;
            Ok(Uint32Array::from(owners.as_slice()))
        })
    }

    /// `key`'s position as a hexadecimal string (ringlab's ring; exact on 64-bit rings).
    #[wasm_bindgen(js_name = keyPosition)]
    pub fn key_position(&self, key: JsValue) -> Result<String, JsValue> {
        crate::work::call(|| {
            let key = string(&key, "the key")?;
            let ring = self.inner.as_ring().ok_or_else(|| {
                error(Error::Unsupported("keyPosition: only ringlab's ring has one position per key".into()))
            })?;
            let width = ring.config().bits.bits() as usize / 4;
            Ok(format!("0x{:0width$x}", ring.key_position(key)))
        })
    }

    /// How `key` is placed, in the algorithm's terms: `"xxh3 0x1a2b3c4d"`, `"slot 12739"`.
    #[wasm_bindgen(js_name = describeKey)]
    pub fn describe_key(&self, key: JsValue) -> Result<String, JsValue> {
        crate::work::call(|| Ok(self.inner.describe_key(string(&key, "the key")?)))
    }

    /// `{rsd, maxOverMean, minOverMean}` from exact shares, or `null` when empty or sampled
    /// only: the same answer as `Session.spread()`.
    pub fn spread(&self) -> Result<JsValue, JsValue> {
        crate::work::call(|| to_js(&self.inner.spread()))
    }

    /// `[{vnodes, spread, theoreticalRsd}]` for each count, with these nodes and hash.
    #[wasm_bindgen(js_name = vnodeSweep)]
    pub fn vnode_sweep(&self, counts: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let counts = super::list(&counts, "sweep steps", limits::MAX_SWEEP_STEPS)?;
            let counts: Vec<f64> = serde_wasm_bindgen::from_value(counts.into())
                .map_err(|_| bad_argument("the vnode counts must be an array of numbers".into()))?;
            let counts: Vec<u32> = counts
                .into_iter()
                .map(|c| {
                    if c.fract() == 0.0 && (1.0..=f64::from(crate::MAX_VNODES)).contains(&c) {
                        Ok(c as u32)
                    } else {
                        Err(Error::InvalidVnodes(c.max(0.0) as u64))
                    }
                })
                .collect::<Result<_, _>>()
                .map_err(error)?;
            let ring = self
                .inner
                .as_ring()
                .ok_or_else(|| error(Error::Unsupported("vnodeSweep: ringlab's ring only".into())))?;
            let nodes: Vec<NodeSpec> = ring.nodes().iter().map(crate::Node::spec).collect();
            to_js(&analysis::vnode_sweep(ring.config(), &nodes, &counts).map_err(error)?)
        })
    }

    /// The exact migration from `before` to `after` (both rings of points mapping keys the
    /// same way): `{arcs: [{start, end, from, to}], moved, movedFraction, idealFraction,
    /// betweenStayedFraction, moduloFraction}`; positions are decimal strings (they can pass 2^53).
    pub fn diff(before: &Ring, after: &Ring) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let not_exact =
                || error(Error::Unsupported(format!("{} has no exact arcs: use diffSample", before.algorithm())));
            let (a, b) = (before.inner.arcs().ok_or_else(not_exact)?, after.inner.arcs().ok_or_else(not_exact)?);
            let m = migration::between(a, b).map_err(error)?;
            if m.arcs.len() > limits::MAX_MIGRATION_ARCS {
                let (max, got) = (limits::MAX_MIGRATION_ARCS as u64, m.arcs.len() as u64);
                return Err(error(Error::TooLarge { what: "moved arcs in a diff".into(), max, got }));
            }
            #[derive(serde::Serialize)]
            #[serde(rename_all = "camelCase")]
            struct Arc {
                start: String,
                end: String,
                from: String,
                to: String,
            }
            #[derive(serde::Serialize)]
            #[serde(rename_all = "camelCase")]
            struct Diff {
                arcs: Vec<Arc>,
                moved: String,
                moved_fraction: f64,
                ideal_fraction: f64,
                between_stayed_fraction: f64,
                modulo_fraction: f64,
            }
            to_js(&Diff {
                arcs: m
                    .arcs
                    .into_iter()
                    .map(|a| Arc { start: a.start.to_string(), end: a.end.to_string(), from: a.from, to: a.to })
                    .collect(),
                moved: m.moved.to_string(),
                moved_fraction: m.moved_fraction,
                ideal_fraction: m.ideal_fraction,
                between_stayed_fraction: m.between_stayed_fraction,
                modulo_fraction: m.modulo_fraction,
            })
        })
    }

    /// Moved keys on `"{prefix}0" .. "{prefix}{count-1}"`:
    /// `{keys, movedKeys, movedFraction, movedTrafficFraction, zipfS}`.
    #[wasm_bindgen(js_name = diffSample)]
    pub fn diff_sample(
        before: &Ring,
        after: &Ring,
        prefix: JsValue,
        count: JsValue,
        zipf_s: JsValue,
    ) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let prefix = string(&prefix, "the key prefix")?;
            let count = super::count(&count, "the key count", limits::MAX_SAMPLE_KEYS)?;
            limits::check_generated(&prefix, count).map_err(error)?;
            before.inner.check_lookups(2 * count).map_err(error)?;
            after.inner.check_lookups(2 * count).map_err(error)?;
            let s = if zipf_s.is_undefined() { 0.0 } else { number(&zipf_s, "the Zipf exponent")? };
            to_js(&migration::generated_between(&before.inner, &after.inner, &prefix, count, s).map_err(error)?)
        })
    }

    /// As `diffSample`, on the given keys (most popular first for the traffic figure).
    #[wasm_bindgen(js_name = diffKeys)]
    pub fn diff_keys(before: &Ring, after: &Ring, keys: JsValue, zipf_s: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let keys = super::strings(&keys, "keys", limits::MAX_KEY_LIST)?;
            limits::check_keys("keys", &keys, limits::MAX_KEY_LIST).map_err(error)?;
            before.inner.check_lookups(2 * keys.len()).map_err(error)?;
            after.inner.check_lookups(2 * keys.len()).map_err(error)?;
            let s = if zipf_s.is_undefined() { 0.0 } else { number(&zipf_s, "the Zipf exponent")? };
            let m = migration::sample_between(&before.inner, &after.inner, &KeySample { keys }, s).map_err(error)?;
            to_js(&m)
        })
    }

    /// How far `a` and `b`, two placements of one pool, agree:
    /// `{disagree, exact, keys, pairs: [{a, b, share}], reasons: [{step, a, b}]}`. `keys`
    /// omitted: the whole key space, exactly, where both are circles of points that hash keys
    /// alike, else 10,000 generated keys `key:0` ..; a count: that many generated keys; an
    /// array of strings: those keys. At most 65,000 keys.
    pub fn agreement(a: &Ring, b: &Ring, keys: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            use crate::algo::agreement::{self, Keys};
            let keys = if keys.is_undefined() || keys.is_null() {
                Keys::Exact { prefix: "key:".into(), count: agreement::DEFAULT_KEYS }
            } else if keys.as_f64().is_some() {
                Keys::Generated {
                    prefix: "key:".into(),
                    count: count(&keys, "the key count", limits::MAX_SAMPLE_KEYS)?,
                }
            } else {
                let list = super::strings(&keys, "keys", limits::MAX_KEY_LIST)?;
                limits::check_keys("keys", &list, limits::MAX_KEY_LIST).map_err(error)?;
                Keys::List(list)
            };
            to_js(&agreement::agreement(&a.inner, &b.inner, &keys).map_err(error)?)
        })
    }
}
