//! `Session`: the playground's model for the page and the embed. This file has what the
//! `<hash-ring>` element uses (the `element` feature, its module's); `playground.rs` adds
//! what only the engine's module has (the page, the tour, the npm package).

use super::args::{AddOptions, NodeArg};
use super::{error, options, string, to_js, whole, whole_count};
use crate::algo::Algorithm;
use crate::session::{self as engine, Change, Settings, Transition};
use crate::{Error, Hash, NodeSpec, RingBits};
use js_sys::Reflect;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

/// `configure({...})`'s fields, every one optional.
#[derive(Deserialize, Default)]
pub(super) struct SettingsArg {
    algorithm: Option<String>,
    hash: Option<String>,
    bits: Option<f64>,
    vnodes: Option<f64>,
    keys: Option<f64>,
    replicas: Option<f64>,
    zipf: Option<f64>,
}

pub(super) const SETTINGS: [&str; 7] = ["algorithm", "hash", "bits", "vnodes", "keys", "replicas", "zipf"];

/// The names `configure` (and `new Session`, with `nodes`) takes: the settings, and every
/// algorithm's own options a session offers.
pub(super) fn settings_fields() -> Vec<&'static str> {
    let mut known = SETTINGS.to_vec();
    for algorithm in Algorithm::ALL {
        for spec in engine::own_options(algorithm) {
            if !known.contains(&spec.name) {
                known.push(spec.name);
            }
        }
    }
    known
}

/// `current` with the settings of a `configure` argument: the fields of `arg`, then the
/// algorithm's own options in `object` (each refused unless the algorithm offers it).
pub(super) fn configured(current: &Settings, object: &js_sys::Object) -> Result<Settings, JsValue> {
    let arg: SettingsArg = serde_wasm_bindgen::from_value(object.clone().into())
        .map_err(|e| super::error(Error::invalid_option("options", e.to_string())))?;
    let mut next = merged(current, arg).map_err(super::error)?;
    for name in settings_fields().into_iter().skip(SETTINGS.len()) {
        let Some(value) = super::field(object, name) else { continue };
        let Some(spec) = engine::own_options(next.algorithm).find(|s| s.name == name) else {
            let owners: Vec<&str> = Algorithm::ALL
                .iter()
                .filter(|a| engine::own_options(**a).any(|s| s.name == name))
                .map(|a| a.name())
                .collect();
            let message = format!("{name} is an option of {}, not of {}", owners.join(" and "), next.algorithm.name());
            return Err(super::error(Error::invalid_option(name, message)));
        };
        next.options.insert(spec.name, super::option_value(spec, &value)?);
    }
    Ok(next)
}

pub(super) fn merged(current: &Settings, arg: SettingsArg) -> Result<Settings, Error> {
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
        s.keys = whole_count(k, "keys")?;
    }
    if let Some(r) = arg.replicas {
        s.replicas = whole_count(r, "replicas")?;
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

pub(super) fn transition(t: &Transition) -> Result<JsValue, JsValue> {
    to_js(t)
}

#[wasm_bindgen]
impl Session {
    /// `new Session()`: the playground's five nodes; `new Session({nodes, algorithm, hash,
    /// bits, vnodes, keys, replicas})` for others.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Session, JsValue> {
        crate::work::call(|| {
            if options.is_undefined() || options.is_null() {
                return Ok(Session { inner: engine::Session::playground() });
            }
            let mut known = settings_fields();
            known.push("nodes");
            let Some(object) = super::fields(&options, &known)? else {
                return Ok(Session { inner: engine::Session::playground() });
            };
            // An array of names or {name, weight, zone}, or a writer's list "a, b*2".
            let nodes: Vec<NodeSpec> = match super::field(&object, "nodes") {
                Some(text) if text.is_string() => engine::parse_node_list(&string(&text, "nodes")?).map_err(error)?,
                Some(nodes) => {
                    let nodes: Vec<NodeArg> = serde_wasm_bindgen::from_value(nodes).map_err(|_| {
                        error(Error::invalid_option(
                        "nodes",
                        "nodes is a list \"a, b*2\" or an array; each node is a name or {name, weight, zone}, with \
                         a string name, a number weight and a string zone",
                    ))
                    })?;
                    nodes.into_iter().map(NodeSpec::from).collect()
                }
                None => Vec::new(),
            };
            let settings = configured(&Settings::default(), &object)?;
            Ok(Session { inner: engine::Session::new(settings, nodes).map_err(error)? })
        })
    }

    /// Everything a view redraws now, in one call: `{scene, nodes, capabilities, settings,
    /// options, link, nextNodeName, downRule, follow, followError, chart, chartError}`;
    /// `frame({follow: key, chart: kind, link: true})` adds the followed key's walk, a chart's
    /// data and the share link. (The element's module has no link writer: there `link` is
    /// an unknown option, and no frame carries one. The engine's has one.)
    pub fn frame(&self, options: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            const KNOWN: &[&str] =
                if cfg!(feature = "engine") { &["follow", "chart", "link"] } else { &["follow", "chart"] };
            let (mut follow, mut chart, mut link) = (None, None, false);
            if let Some(object) = super::fields(&options, KNOWN)? {
                follow = super::field(&object, "follow").map(|k| string(&k, "the followed key")).transpose()?;
                chart = super::field(&object, "chart").map(|k| string(&k, "the chart")).transpose()?;
                // Read only where the link writer is built: elsewhere `fields` refused it above.
                if cfg!(feature = "engine") {
                    link = super::field(&object, "link").map(|v| super::flag(&v, "link")).transpose()?.unwrap_or(false);
                }
            }
            let frame = self.inner.frame(&engine::FrameOptions { follow: follow.as_deref(), chart: chart.as_deref() });
            let out = to_js(&frame)?;
            Reflect::set(&out, &JsValue::from_str("scene"), &super::scene::scene_object(&frame.scene)?)?;
            // `link` stays false in the element's module, which has no use for the encoder.
            // The followed key rides in it, so the link reopens the walk too.
            let link =
                if link { JsValue::from_str(&self.inner.link_following(follow.as_deref())) } else { JsValue::NULL };
            Reflect::set(&out, &JsValue::from_str("link"), &link)?;
            Ok(out)
        })
    }

    /// This pool placed by two algorithms: `agreement(with, key?, from?)` (`from` by default
    /// the session's) → `{algorithm, label, with, withLabel, disagree, exact, keys, pairs,
    /// reasons, text, key}`, where `key` is `{key, a, b, agree}` (each placement's server)
    /// when a key is given.
    #[cfg(feature = "engine")]
    pub fn agreement(&self, with: JsValue, key: JsValue, from: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let algorithm = |v: &JsValue, what| Algorithm::from_name(&string(v, what)?).map_err(error);
            let with = algorithm(&with, "the other algorithm")?;
            let absent = |v: &JsValue| v.is_undefined() || v.is_null();
            let key = if absent(&key) { None } else { Some(string(&key, "the key")?) };
            let from = if absent(&from) { None } else { Some(algorithm(&from, "the first algorithm")?) };
            to_js(&self.inner.agreement(with, key.as_deref(), from).map_err(error)?)
        })
    }

    /// The chains of `key` on this pool placed by the session's algorithm and by `with`:
    /// `{a, b, partsAt, agree, reasons}`, each chain as `explain` gives it; `partsAt` is the
    /// index of the first step that differs (`null`: none).
    #[cfg(feature = "engine")]
    #[wasm_bindgen(js_name = explainPair)]
    pub fn explain_pair(&self, with: JsValue, key: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let with = Algorithm::from_name(&string(&with, "the other algorithm")?).map_err(error)?;
            to_js(&self.inner.explain_pair(with, &string(&key, "the key")?).map_err(error)?)
        })
    }

    /// "Explain this key" at the current state: `{key, algorithm, steps: [{kind, label,
    /// value, at: {fraction, node, nodes}}], owner, ownerIndex, replicas, error}`, the owner
    /// the one `locate` answers, the replicas the session's count (ringlab's ring).
    pub fn explain(&self, key: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let key = string(&key, "the key")?;
            to_js(&self.inner.cluster().explain(key, self.inner.settings().replicas).map_err(error)?)
        })
    }

    /// How far every cache client agrees with every other on this pool: as `agreementMatrix`.
    #[cfg(feature = "engine")]
    #[wasm_bindgen(js_name = agreementMatrix)]
    pub fn agreement_matrix(&self) -> Result<JsValue, JsValue> {
        crate::work::call(|| to_js(&self.inner.agreement_matrix().map_err(error)?))
    }

    /// The papers' metrics of every algorithm on this session's nodes and settings, as the
    /// playground's comparison: `metrics({removalOrder, removals, seed, lookupNs})` →
    /// `{caption, order, orderWords, keys, removals, metrics: [{key, label, unit, description,
    /// better}], rows: [{algorithm, cells, note}], winners: [{metric, best, algorithms,
    /// sentence}]}` (`lookupNs[i]`: the measured lookup time of `algorithms()[i]`). The same
    /// figures as `metrics(options, keys, settings)` on the session's first `keys` keys.
    #[cfg(feature = "engine")]
    pub fn metrics(&self, settings: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let m: super::functions::MetricsArgs =
                options(&settings, &["removalOrder", "removals", "seed", "lookupNs"])?;
            let lookup: Vec<Option<f64>> = m.lookup_ns.clone().unwrap_or_default().into_iter().map(Some).collect();
            to_js(&self.inner.metrics(&m.settings()?, &lookup).map_err(error)?)
        })
    }

    /// Adds a node: `add(name, {weight, zone})`; returns the transition.
    pub fn add(&mut self, name: JsValue, opts: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let name = string(&name, "the node name")?;
            let o: AddOptions = options(&opts, &["weight", "zone"])?;
            let spec = NodeSpec { name, weight: o.weight.unwrap_or(1.0), zone: o.zone };
            transition(&self.inner.apply(Change::Add(spec)).map_err(error)?)
        })
    }

    /// Removes a node; returns the transition.
    pub fn remove(&mut self, name: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let name = string(&name, "the node name")?;
            transition(&self.inner.apply(Change::Remove(name)).map_err(error)?)
        })
    }

    /// Marks a node down (`true`) or up again; returns the transition (the keys that fail
    /// over, or go back). The element's `down` attribute uses it too.
    #[wasm_bindgen(js_name = setDown)]
    pub fn set_down(&mut self, name: JsValue, down: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let name = string(&name, "the node name")?;
            let down = super::flag(&down, "down")?;
            transition(&self.inner.apply(Change::SetDown { name, down }).map_err(error)?)
        })
    }

    /// Where `key` lands and the walk to its owner: `{key, description, fraction, owner, walk, text}`.
    pub fn follow(&self, key: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| to_js(&self.inner.follow(&string(&key, "the key")?).map_err(error)?))
    }
}
