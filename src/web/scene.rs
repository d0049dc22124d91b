//! A [`Scene`](engine::Scene) as JS, for `Session.frame()`: its long arrays (up to the
//! caps' 500,000 points) as typed arrays, copied once rather than as an array of numbers.

use crate::session as engine;
use js_sys::{Array, Float64Array, Object, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;

pub(super) fn scene_object(scene: &engine::Scene) -> Result<JsValue, JsValue> {
    let out = Object::new();
    let set = |key: &str, value: &JsValue| Reflect::set(&out, &JsValue::from_str(key), value);
    set("points", &Float64Array::from(&scene.points[..]))?;
    set("pointOwners", &Uint32Array::from(&scene.point_owners[..]))?;
    set("keys", &Float64Array::from(scene.keys.as_slice()))?;
    set("keyOwners", &Uint32Array::from(scene.key_owners.as_slice()))?;
    set("colours", &Uint32Array::from(scene.colours.as_slice()))?;
    set("axis", &scene.axis.iter().map(|a| JsValue::from_str(a)).collect::<Array>())?;
    set("description", &JsValue::from_str(&scene.description))?;
    set("summary", &JsValue::from_str(&scene.summary))?;
    set("reading", &JsValue::from_str(&scene.reading))?;
    Ok(out.into())
}
