//! `Session`: the playground's model for the page and the embed.

use super::ring::{AddOptions, Ring};
use super::{error, flag, number, options, string, to_js, whole};
use crate::algo::{Algorithm, Cluster};
use crate::session::{self as engine, Change, Settings, Transition};
use crate::{Error, Hash, Node, NodeSpec, RingBits};
use js_sys::{Float64Array, Object, Reflect, Uint32Array};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

/// `configure({...})`'s fields, every one optional.
#[derive(Deserialize, Default)]
struct SettingsArg {
    algorithm: Option<String>,
    hash: Option<String>,
    bits: Option<f64>,
    vnodes: Option<f64>,
    keys: Option<f64>,
    replicas: Option<f64>,
    zipf: Option<f64>,
}

const SETTINGS: [&str; 7] = ["algorithm", "hash", "bits", "vnodes", "keys", "replicas", "zipf"];

#[derive(Serialize)]
struct SettingsView {
    algorithm: &'static str,
    hash: &'static str,
    bits: u32,
    vnodes: u32,
    keys: usize,
    replicas: usize,
    zipf: f64,
}

fn merged(current: &Settings, arg: SettingsArg) -> Result<Settings, Error> {
    let mut s = current.clone();
    if let Some(a) = arg.algorithm {
        s.algorithm = Algorithm::from_name(&a)?;
    }
    if let Some(h) = arg.hash {
        s.hash = Hash::from_name(&h)?;
    }
    if let Some(b) = arg.bits {
        s.bits = RingBits::from_bits(whole(b, "bits")?)?;
    }
    if let Some(v) = arg.vnodes {
        let v = whole(v, "vnodes")?;
        s.vnodes = u32::try_from(v).map_err(|_| Error::InvalidVnodes(v))?;
    }
    if let Some(k) = arg.keys {
        s.keys = usize::try_from(whole(k, "keys")?).unwrap_or(usize::MAX);
    }
    if let Some(r) = arg.replicas {
        s.replicas = usize::try_from(whole(r, "replicas")?).unwrap_or(usize::MAX);
    }
    if let Some(z) = arg.zipf {
        s.zipf = z;
    }
    Ok(s)
}

/// The page's (and each embed's) state: nodes, settings, history and key sample.
#[wasm_bindgen]
pub struct Session {
    pub(crate) inner: engine::Session,
}

fn transition(t: &Transition) -> Result<JsValue, JsValue> {
    to_js(t)
}

#[wasm_bindgen]
impl Session {
    /// `new Session()`: the playground's five nodes; `new Session({nodes, algorithm, hash,
    /// bits, vnodes, keys, replicas})` for others.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Session, JsValue> {
        if options.is_undefined() || options.is_null() {
            return Ok(Session { inner: engine::Session::playground() });
        }
        #[derive(Deserialize, Default)]
        struct Arg {
            #[serde(default)]
            nodes: Vec<super::ring::NodeArg>,
            #[serde(flatten)]
            settings: SettingsArg,
        }
        let mut known = SETTINGS.to_vec();
        known.push("nodes");
        let arg: Arg = super::options(&options, &known)?;
        if arg.nodes.len() > engine::MAX_NODES {
            let (max, got) = (engine::MAX_NODES as u64, arg.nodes.len() as u64);
            return Err(error(Error::TooLarge { what: "nodes".into(), max, got }));
        }
        let settings = merged(&Settings::default(), arg.settings).map_err(error)?;
        let nodes = arg.nodes.into_iter().map(NodeSpec::from);
        Ok(Session { inner: engine::Session::new(settings, nodes).map_err(error)? })
    }

    /// The session a share link's fragment describes.
    #[wasm_bindgen(js_name = fromLink)]
    pub fn from_link(link: JsValue) -> Result<Session, JsValue> {
        Ok(Session { inner: engine::Session::from_link(&string(&link, "the link")?).map_err(error)? })
    }

    /// The session of a configuration text: `Session.fromConfig("nginx" | "haproxy", text)`
    /// (see `configKinds()`); errors name the line.
    #[wasm_bindgen(js_name = fromConfig)]
    pub fn from_config(kind: JsValue, text: JsValue) -> Result<Session, JsValue> {
        let kind = string(&kind, "the config kind")?;
        let text = string(&text, "the config text")?;
        Ok(Session { inner: engine::Session::from_config(&kind, &text).map_err(error)? })
    }

    /// The share link's fragment for the current state (`#ringlab=2&...`).
    pub fn link(&self) -> String {
        self.inner.link()
    }

    /// `{algorithm, hash, bits, vnodes, keys, replicas, zipf}`.
    pub fn settings(&self) -> Result<JsValue, JsValue> {
        let s = self.inner.settings();
        to_js(&SettingsView {
            algorithm: s.algorithm.name(),
            hash: s.hash.name(),
            bits: s.bits.bits(),
            vnodes: s.vnodes,
            keys: s.keys,
            replicas: s.replicas,
            zipf: s.zipf,
        })
    }

    /// Adds a node: `add(name, {weight, zone})`; returns the transition.
    pub fn add(&mut self, name: JsValue, opts: JsValue) -> Result<JsValue, JsValue> {
        let name = string(&name, "the node name")?;
        let o: AddOptions = options(&opts, &["weight", "zone"])?;
        let spec = NodeSpec { name, weight: o.weight.unwrap_or(1.0), zone: o.zone };
        transition(&self.inner.apply(Change::Add(spec)).map_err(error)?)
    }

    /// Removes a node; returns the transition.
    pub fn remove(&mut self, name: JsValue) -> Result<JsValue, JsValue> {
        let name = string(&name, "the node name")?;
        transition(&self.inner.apply(Change::Remove(name)).map_err(error)?)
    }

    /// Changes a node's weight; returns the transition.
    #[wasm_bindgen(js_name = setWeight)]
    pub fn set_weight(&mut self, name: JsValue, weight: JsValue) -> Result<JsValue, JsValue> {
        let name = string(&name, "the node name")?;
        let weight = weight.as_f64().ok_or_else(|| super::bad_argument("the weight must be a number".into()))?;
        transition(&self.inner.apply(Change::SetWeight { name, weight }).map_err(error)?)
    }

    /// Sets the tier's size and load, `{items, itemBytes, requestsPerSec}`, or `null` to stop
    /// reporting costs; every later transition's `cost` and text say what a change costs.
    #[wasm_bindgen(js_name = setWorkload)]
    pub fn set_workload(&mut self, workload: JsValue) -> Result<(), JsValue> {
        let w = if workload.is_null() || workload.is_undefined() {
            None
        } else {
            #[derive(Deserialize, Default)]
            #[serde(rename_all = "camelCase")]
            struct Arg {
                items: Option<f64>,
                item_bytes: Option<f64>,
                requests_per_sec: Option<f64>,
            }
            let a: Arg = options(&workload, &["items", "itemBytes", "requestsPerSec"])?;
            let items = a.items.unwrap_or(0.0);
            if !(items.is_finite() && items >= 0.0 && items.fract() == 0.0 && items <= 2f64.powi(53)) {
                return Err(error(Error::InvalidOption(format!("items must be a whole number ≥ 0 (got {items})"))));
            }
            Some(crate::cost::Workload {
                items: items as u64,
                item_bytes: a.item_bytes.unwrap_or(0.0),
                requests_per_sec: a.requests_per_sec.unwrap_or(0.0),
            })
        };
        self.inner.set_workload(w).map_err(error)
    }

    /// The workload, or `null`.
    pub fn workload(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.workload())
    }

    /// Uses the user's own keys (one per line, or CSV `key,count`; errors name the line), or
    /// `null` to go back to `key:0 ..`: `{keys, requests}`.
    #[wasm_bindgen(js_name = useKeys)]
    pub fn use_keys(&mut self, text: JsValue) -> Result<JsValue, JsValue> {
        if text.is_null() || text.is_undefined() {
            self.inner.use_key_list(None);
            return Ok(JsValue::NULL);
        }
        let list = crate::keys::parse_key_list(&string(&text, "the key list")?).map_err(error)?;
        #[derive(Serialize)]
        struct Summary {
            keys: usize,
            requests: f64,
        }
        let summary = Summary { keys: list.keys.len(), requests: list.total_count() as f64 };
        self.inner.use_key_list(Some(list));
        to_js(&summary)
    }

    /// Starts reading a key list in pieces: `beginKeys()`, `pushKeys(lines)`…, `endKeys()`
    /// (a page reads a million keys in several short tasks this way).
    #[wasm_bindgen(js_name = beginKeys)]
    pub fn begin_keys(&mut self) {
        self.inner.begin_keys();
    }

    /// The next piece of the key list: whole lines, without the newline after the last.
    #[wasm_bindgen(js_name = pushKeys)]
    pub fn push_keys(&mut self, text: JsValue) -> Result<(), JsValue> {
        self.inner.push_keys(&string(&text, "the key list")?).map_err(error)
    }

    /// Uses the key list read since `beginKeys()`: `{keys, requests}`.
    #[wasm_bindgen(js_name = endKeys)]
    pub fn end_keys(&mut self) -> Result<JsValue, JsValue> {
        #[derive(Serialize)]
        struct Summary {
            keys: usize,
            requests: f64,
        }
        let list = self.inner.end_keys().map_err(error)?;
        to_js(&Summary { keys: list.keys.len(), requests: list.total_count() as f64 })
    }

    /// What the current algorithm's real clients do with a down node: `{kind, text}` with
    /// `kind` one of `skip`, `rebuild`, `unavailable`.
    #[wasm_bindgen(js_name = downRule)]
    pub fn down_rule(&self) -> Result<JsValue, JsValue> {
        to_js(&crate::algo::down::rule(self.inner.settings().algorithm))
    }

    /// Marks a node down (`true`) or up again; returns the transition (the keys that fail
    /// over, or go back).
    #[wasm_bindgen(js_name = setDown)]
    pub fn set_down(&mut self, name: JsValue, down: JsValue) -> Result<JsValue, JsValue> {
        let name = string(&name, "the node name")?;
        let down = flag(&down, "down")?;
        transition(&self.inner.apply(Change::SetDown { name, down }).map_err(error)?)
    }

    /// `setDown(name, true)`.
    #[wasm_bindgen(js_name = markDown)]
    pub fn mark_down(&mut self, name: JsValue) -> Result<JsValue, JsValue> {
        self.set_down(name, JsValue::TRUE)
    }

    /// `setDown(name, false)`.
    #[wasm_bindgen(js_name = markUp)]
    pub fn mark_up(&mut self, name: JsValue) -> Result<JsValue, JsValue> {
        self.set_down(name, JsValue::FALSE)
    }

    /// New settings (any of `{algorithm, hash, bits, vnodes, keys, replicas}`) for the same
    /// nodes; returns the transition.
    pub fn configure(&mut self, settings: JsValue) -> Result<JsValue, JsValue> {
        let arg: SettingsArg = options(&settings, &SETTINGS)?;
        let next = merged(self.inner.settings(), arg).map_err(error)?;
        transition(&self.inner.apply(Change::Configure(next)).map_err(error)?)
    }

    /// Undoes the last change: its transition, or `null` with nothing to undo.
    pub fn undo(&mut self) -> Result<JsValue, JsValue> {
        self.inner.undo().map_or(Ok(JsValue::NULL), |t| transition(&t))
    }

    /// Redoes the last undone change, or `null`.
    pub fn redo(&mut self) -> Result<JsValue, JsValue> {
        self.inner.redo().map_or(Ok(JsValue::NULL), |t| transition(&t))
    }

    /// Whether transitions also replay the change under `hash % N`.
    #[wasm_bindgen(js_name = setCompareModulo)]
    pub fn set_compare_modulo(&mut self, on: JsValue) -> Result<(), JsValue> {
        self.inner.set_compare_modulo(flag(&on, "compareModulo")?);
        Ok(())
    }

    /// The last change described again, or `null`.
    #[wasm_bindgen(js_name = lastChange)]
    pub fn last_change(&self) -> Result<JsValue, JsValue> {
        self.inner.last_change().map_or(Ok(JsValue::NULL), |t| transition(&t))
    }

    /// What to draw: `{points, pointOwners, keys, keyOwners, colours}` as typed arrays, and
    /// `{axis, description, summary}`.
    pub fn scene(&self) -> Result<JsValue, JsValue> {
        let scene = self.inner.scene();
        let out = Object::new();
        let set = |key: &str, value: &JsValue| Reflect::set(&out, &JsValue::from_str(key), value);
        set("points", &Float64Array::from(scene.points.as_slice()))?;
        set("pointOwners", &Uint32Array::from(scene.point_owners.as_slice()))?;
        set("keys", &Float64Array::from(scene.keys.as_slice()))?;
        set("keyOwners", &Uint32Array::from(scene.key_owners.as_slice()))?;
        set("colours", &Uint32Array::from(scene.colours.as_slice()))?;
        set("axis", &to_js(&scene.axis)?)?;
        set("description", &JsValue::from_str(&scene.description))?;
        set("summary", &JsValue::from_str(&scene.summary))?;
        Ok(out.into())
    }

    /// `[{name, weight, zone, points, share, keys, traffic, colour, removalRule, down}]`.
    pub fn nodes(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.node_rows())
    }

    /// `{exactArcs, exactShares, replicas, weights, hash, vnodes, undo, redo}`.
    pub fn capabilities(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.capabilities())
    }

    /// `{rsd, maxOverMean, minOverMean}` from exact shares, or `null`.
    pub fn spread(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.spread())
    }

    /// The arc at `fraction` of the circle (0 = top, clockwise), or `null`.
    #[wasm_bindgen(js_name = arcAt)]
    pub fn arc_at(&self, fraction: JsValue) -> Result<JsValue, JsValue> {
        to_js(&self.inner.arc_at(number(&fraction, "the fraction")?))
    }

    /// The sample key drawn nearest `fraction`, within `tolerance`, or `null`.
    #[wasm_bindgen(js_name = keyNear)]
    pub fn key_near(&self, fraction: JsValue, tolerance: JsValue) -> Result<JsValue, JsValue> {
        let (f, t) = (number(&fraction, "the fraction")?, number(&tolerance, "the tolerance")?);
        to_js(&self.inner.key_near(f, t))
    }

    /// Where `key` lands and the walk to its owner: `{key, description, fraction, owner, walk, text}`.
    pub fn follow(&self, key: JsValue) -> Result<JsValue, JsValue> {
        let key = string(&key, "the key")?;
        if key.len() > crate::limits::MAX_KEY_LEN {
            let (max, got) = (crate::limits::MAX_KEY_LEN as u64, key.len() as u64);
            return Err(error(Error::TooLarge { what: "a key (bytes)".into(), max, got }));
        }
        to_js(&self.inner.follow(&key).map_err(error)?)
    }

    /// A free name for a new node: `node-N` with the smallest N not taken.
    #[wasm_bindgen(js_name = nextNodeName)]
    pub fn next_node_name(&self) -> String {
        let taken = |name: &str| self.inner.nodes().iter().any(|n| n.name == name);
        (1..).map(|i| format!("node-{i}")).find(|n| !taken(n)).unwrap_or_default()
    }

    /// This session's nodes under `algorithm` (the other settings kept), as a `Ring`: to time
    /// lookups of every algorithm on the same nodes.
    #[wasm_bindgen(js_name = ringFor)]
    pub fn ring_for(&self, algorithm: JsValue) -> Result<Ring, JsValue> {
        let algorithm = Algorithm::from_name(&string(&algorithm, "the algorithm")?).map_err(error)?;
        let settings = Settings { algorithm, ..self.inner.settings().clone() };
        let nodes = self.inner.nodes().iter().map(|n| NodeSpec::new(n.name.clone()));
        let weighted = self.inner.nodes().iter().map(Node::spec);
        // Weightless algorithms take the names alone.
        let cluster = Cluster::new(settings.options(), weighted).or_else(|_| Cluster::new(settings.options(), nodes));
        Ok(Ring::from_cluster(cluster.map_err(error)?))
    }
}

/// `prepareChart` / `chartData` options.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct ChartArg {
    band: Option<bool>,
    lookup_ns: Option<Vec<f64>>,
}

#[wasm_bindgen]
impl Session {
    /// One piece of chart `kind`'s data for the current state (one hash's sweep, one
    /// cluster size, one algorithm's row), kept for `chartData`: `true` once complete. Any
    /// change to the session drops what was prepared.
    #[wasm_bindgen(js_name = prepareChart)]
    pub fn prepare_chart(&mut self, kind: JsValue, opts: JsValue) -> Result<bool, JsValue> {
        let kind = string(&kind, "the chart kind")?;
        let o: ChartArg = options(&opts, &["band"])?;
        self.inner.prepare_chart(&kind, o.band.unwrap_or(false)).map_err(error)
    }

    /// Chart `kind`'s data (`spread`, `shares`, `moves`, `algorithms`) as `{kind, data}`, for
    /// the charts module's `drawChart`: `band` adds the spread chart's five-hash band,
    /// `lookupNs[i]` is the measured lookup time of `algorithms()[i]` for the algorithms chart.
    #[wasm_bindgen(js_name = chartData)]
    pub fn chart_data(&self, kind: JsValue, opts: JsValue) -> Result<JsValue, JsValue> {
        let kind = string(&kind, "the chart kind")?;
        let o: ChartArg = options(&opts, &["band", "lookupNs"])?;
        let lookup: Vec<Option<f64>> =
            o.lookup_ns.unwrap_or_default().into_iter().map(|x| Some(x).filter(|x| x.is_finite())).collect();
        to_js(&self.inner.chart(&kind, o.band.unwrap_or(false), &lookup).map_err(error)?)
    }
}
