//! `Figure`: the `<hash-ring>` element's smallest module draws an embed before anyone touches
//! it ([`session::figure`](crate::session::figure)). It takes what `new Session(options)`
//! takes and gives the same `frame()`'s `scene`, `nodes`, `settings` and `nextNodeName`; every
//! other call, and any input it does not draw itself, is a `not-built-in` error: the element
//! then moves to a module with the whole `Session`, which draws the same picture (or says
//! what is wrong with the input) and goes on from there.
//!
//! Options are read without serde, and nothing here formats a float: the module carries
//! neither.

use super::{decimal, own_coded};
use crate::algo::Algorithm;
use crate::session::{self as engine, Settings};
use crate::{Hash, RingBits};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;

fn not_built_in(what: &str) -> JsValue {
    own_coded(&format!("{what} is not in this build of the engine (the full build has it)"), "not-built-in")
}

/// The figure of a `<hash-ring>` before any change.
#[wasm_bindgen]
pub struct Figure {
    inner: engine::Figure,
    settings: Settings,
    next_node_name: String,
}

/// A whole number in `0..=u32::MAX` from a JS number.
fn whole(value: &JsValue) -> Option<u32> {
    let x = value.as_f64()?;
    (x >= 0.0 && x.fract() == 0.0 && x <= f64::from(u32::MAX)).then_some(x as u32)
}

/// The item of `all` called `name`.
fn named<T: Copy>(all: &[T], name: &str, name_of: fn(T) -> &'static str) -> Option<T> {
    all.iter().copied().find(|&item| name_of(item) == name)
}

/// The settings and node list of `new Session(options)` as the element passes them (a node
/// list in text, numbers and names), or `None` for anything else.
fn read(options: &JsValue) -> Option<(Settings, String)> {
    if !options.is_object() || Array::is_array(options) {
        return None;
    }
    let object: &Object = options.unchecked_ref();
    let mut settings = Settings::default();
    let mut nodes = None;
    for key in Object::keys(object).iter() {
        let key = key.as_string()?;
        let value = Reflect::get(object, &JsValue::from_str(&key)).ok()?;
        if value.is_undefined() {
            continue;
        }
        match key.as_str() {
            "nodes" => nodes = Some(value.as_string()?),
            // Looked up without `from_name`, whose refusals (which the session words) would
            // bring their formatting into this module.
            "algorithm" => settings.algorithm = named(&Algorithm::ALL, &value.as_string()?, |a| a.name())?,
            "hash" => settings.hash = named(&Hash::ALL, &value.as_string()?, |h| h.name())?,
            "bits" => settings.bits = RingBits::from_bits(whole(&value)?.into()).ok()?,
            "vnodes" => settings.vnodes = whole(&value)?,
            "keys" => settings.keys = whole(&value)? as usize,
            "replicas" => settings.replicas = whole(&value)? as usize,
            "zipf" => settings.zipf = value.as_f64().filter(|&z| z == 0.0)?,
            _ => return None,
        }
    }
    Some((settings, nodes.unwrap_or_default()))
}

#[wasm_bindgen]
impl Figure {
    /// `new Figure({nodes: "a, b*2", hash, bits, vnodes, keys, replicas})`: the figure, or
    /// `not-built-in` for whatever it leaves to `Session`. `new Figure()`: the playground's
    /// five nodes, as `new Session()`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Figure, JsValue> {
        let refused = || not_built_in("this figure");
        let (settings, list) = if options.is_undefined() || options.is_null() {
            (Settings::default(), engine::PLAYGROUND_NODES.to_string())
        } else {
            read(&options).ok_or_else(refused)?
        };
        let nodes = engine::parse_node_list_with(&list, decimal).map_err(|_| refused())?;
        let next_node_name = engine::next_node_name(nodes.iter().map(|n| n.name.as_str()));
        // Whatever the figure refuses, the session draws or explains: no error text here.
        let inner = engine::figure(&settings, nodes).map_err(|_| refused())?;
        Ok(Figure { inner, settings, next_node_name })
    }

    /// `{scene, nodes, capabilities, settings, nextNodeName}`, as `Session.frame()` gives them. Asked for
    /// a followed key or a chart, `not-built-in`.
    pub fn frame(&self, options: JsValue) -> Result<JsValue, JsValue> {
        let asks = options.is_object() && Object::keys(options.unchecked_ref::<Object>()).length() > 0;
        if asks || !(options.is_undefined() || options.is_null() || options.is_object()) {
            return Err(not_built_in("a frame with a followed key or a chart"));
        }
        let out = Object::new();
        let set = |key: &str, value: &JsValue| Reflect::set(&out, &JsValue::from_str(key), value);
        set("scene", &super::scene::scene_object(&self.inner.scene)?)?;
        set("nodes", &self.inner.nodes.iter().map(node_row).collect::<Array>())?;
        set("capabilities", &self.capabilities_object())?;
        set("settings", &self.settings_object())?;
        set("nextNodeName", &JsValue::from_str(&self.next_node_name))?;
        Ok(out.into())
    }

    /// Changes, walks and chains are the session's: `not-built-in`.
    pub fn add(&self) -> Result<(), JsValue> {
        Err(not_built_in("adding a node"))
    }
    pub fn remove(&self) -> Result<(), JsValue> {
        Err(not_built_in("removing a node"))
    }
    #[wasm_bindgen(js_name = setDown)]
    pub fn set_down(&self) -> Result<(), JsValue> {
        Err(not_built_in("marking a node down"))
    }
    pub fn follow(&self) -> Result<(), JsValue> {
        Err(not_built_in("following a key"))
    }
    pub fn explain(&self) -> Result<(), JsValue> {
        Err(not_built_in("explaining a key"))
    }

    /// What the user may do next, as `Session.frame().capabilities` gives it.
    fn capabilities_object(&self) -> JsValue {
        let c = &self.inner.capabilities;
        let out = Object::new();
        let set = |key: &str, value: JsValue| drop(Reflect::set(&out, &JsValue::from_str(key), &value));
        set("exactArcs", c.exact_arcs.into());
        set("exactShares", c.exact_shares.into());
        set("replicas", c.replicas.into());
        set("weights", c.weights.into());
        set("hash", c.hash.into());
        set("vnodes", c.vnodes.into());
        set("undo", text_or_null(&c.undo));
        set("redo", text_or_null(&c.redo));
        out.into()
    }

    /// The settings as `Session.frame().settings` shows them.
    fn settings_object(&self) -> JsValue {
        let s = &self.settings;
        let out = Object::new();
        let set = |key: &str, value: JsValue| drop(Reflect::set(&out, &JsValue::from_str(key), &value));
        set("algorithm", JsValue::from_str(s.algorithm.name()));
        set("hash", JsValue::from_str(s.hash.name()));
        set("bits", s.bits.bits().into());
        set("vnodes", s.vnodes.into());
        set("keys", (s.keys as f64).into());
        set("replicas", (s.replicas as f64).into());
        set("zipf", s.zipf.into());
        let options = Object::new();
        for (name, value) in &self.inner.options {
            drop(Reflect::set(&options, &JsValue::from_str(name), &option_value(value)));
        }
        set("options", options.into());
        out.into()
    }
}

fn option_value(value: &crate::algo::options::serde_json_value::Value) -> JsValue {
    use crate::algo::options::serde_json_value::Value;
    match value {
        Value::Number(x) => (*x).into(),
        Value::Flag(b) => (*b).into(),
        Value::Text(t) => JsValue::from_str(t),
        Value::Null => JsValue::NULL,
    }
}

/// A text, or `null` for none.
fn text_or_null(text: &Option<String>) -> JsValue {
    text.as_deref().map_or(JsValue::NULL, JsValue::from_str)
}

/// A node row as `Session.frame().nodes` gives it.
fn node_row(row: &engine::NodeRow) -> JsValue {
    let out = Object::new();
    let set = |key: &str, value: JsValue| drop(Reflect::set(&out, &JsValue::from_str(key), &value));
    set("name", JsValue::from_str(&row.name));
    set("weight", row.weight.into());
    set("zone", text_or_null(&row.zone));
    set("points", row.points.into());
    set("share", row.share.map_or(JsValue::NULL, JsValue::from));
    set("keys", (row.keys as f64).into());
    set("traffic", row.traffic.into());
    set("shareText", JsValue::from_str(&row.share_text));
    set("trafficText", JsValue::from_str(&row.traffic_text));
    set("legend", JsValue::from_str(&row.legend));
    set("colour", row.colour.into());
    set("removalRule", text_or_null(&row.removal_rule));
    set("down", row.down.into());
    out.into()
}
