//! The JavaScript binding: converts between JS and the plain-Rust engine, nothing else.
//!
//! - Arguments arrive as `JsValue` and are checked here (a number where a string belongs, a
//!   negative or fractional count) so that no input can trap inside the generated glue.
//! - Errors leave as JS `Error`s with the engine's message and a stable `code` property
//!   (`"duplicate-node"`, `"too-large"`, `"invalid-argument"`, ...).
//! - Objects leave with camelCase fields, long arrays as typed arrays.
//! - Every export's body is one [`crate::work::call`]: what its engine work charges to the
//!   work meter adds up over the call, to one budget per cost (`tests/native/work.rs` finds
//!   an export without it).
//!
//! One file per exported group. With the `element` feature (the `<hash-ring>` element's
//! module): `session` (the `Session` methods the element uses) and `lists` (names, colours,
//! theme). With `engine` (which includes `element`; the page's, the tour's and the npm
//! package's module): `playground` (the rest of `Session`: links, opening in steps, history,
//! weights, the user's keys, workloads, hit-testing, comparisons, configs), `ring` (the
//! library's `Ring`), `functions` (free functions) and `rollout`. With `charts` (the charts'
//! module, fetched on a first chart): `charts` (`drawChart`), handed the data
//! `session.chartData` computed in the other module.

// The argument readers below serve every module; each module uses some of them.
#![cfg_attr(not(feature = "engine"), allow(dead_code))]

#[cfg(feature = "element")]
mod args;
#[cfg(feature = "charts")]
mod canvas;
#[cfg(feature = "charts")]
mod charts;
#[cfg(feature = "element")]
pub mod freed;
#[cfg(feature = "engine")]
mod functions;
#[cfg(feature = "element")]
mod lists;
#[cfg(feature = "engine")]
mod playground;
#[cfg(feature = "engine")]
mod ring;
#[cfg(feature = "engine")]
mod rollout;
#[cfg(feature = "element")]
mod scene;
#[cfg(feature = "element")]
mod session;

#[cfg(feature = "charts")]
pub use charts::{chart_svg, draw_chart};
#[cfg(feature = "engine")]
pub use functions::*;
#[cfg(feature = "element")]
pub use lists::*;
#[cfg(feature = "engine")]
pub use ring::Ring;
#[cfg(feature = "engine")]
pub use rollout::vnodes_for;
#[cfg(feature = "element")]
pub use session::Session;

use crate::Error;
use js_sys::Reflect;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// A JS `Error` carrying the engine error's message (its quotes of the caller's text cut
/// short: [`Error::brief`]) and its code: every code the binding throws is one
/// [`Error::code`] gives.
pub(crate) fn error(e: Error) -> JsValue {
    let err = js_sys::Error::new(&e.brief());
    // Setting a property on a fresh Error object cannot fail.
    let _ = Reflect::set(&err, &JsValue::from_str("code"), &JsValue::from_str(e.code()));
    err.into()
}

/// An argument of the wrong type or range ([`Error::InvalidArgument`]).
pub(crate) fn bad_argument(message: String) -> JsValue {
    error(Error::InvalidArgument(message))
}

pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| error(Error::Internal(e.to_string())))
}

/// A string argument (lone surrogates are replaced, as `TextEncoder` does).
pub(crate) fn string(value: &JsValue, what: &str) -> Result<String, JsValue> {
    value.as_string().ok_or_else(|| bad_argument(format!("{what} must be a string (got {})", type_name(value))))
}

/// A finite number argument.
pub(crate) fn number(value: &JsValue, what: &str) -> Result<f64, JsValue> {
    match value.as_f64() {
        Some(x) if x.is_finite() => Ok(x),
        _ => Err(bad_argument(format!("{what} must be a finite number (got {})", describe(value)))),
    }
}

/// A whole number argument in `0..=max`.
pub(crate) fn count(value: &JsValue, what: &str, max: usize) -> Result<usize, JsValue> {
    let x = number(value, what)?;
    if x < 0.0 || x.fract() != 0.0 {
        return Err(bad_argument(format!("{what} must be a whole number ≥ 0 (got {x})")));
    }
    if x > max as f64 {
        return Err(error(Error::TooLarge { what: what.to_string(), max: max as u64, got: x as u64 }));
    }
    Ok(x as usize)
}

/// A whole number ≥ 0 from an options field (`{vnodes: 64}`), up to 2^53 (the caller's range
/// check says what the field allows).
pub(crate) fn whole(x: f64, what: &str) -> Result<u64, Error> {
    if x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x <= 2f64.powi(53) {
        Ok(x as u64)
    } else {
        Err(Error::invalid_option(what, format!("{what} must be a whole number (got {x})")))
    }
}

/// [`whole`] as a count: a number past `usize` (on wasm32, 2^32 and up) becomes `usize::MAX`,
/// for the caller's cap to refuse, never its low bits (`2^32 + 1` is not 1).
pub(crate) fn whole_count(x: f64, what: &str) -> Result<usize, Error> {
    whole(x, what).map(|v| usize::try_from(v).unwrap_or(usize::MAX))
}

/// A boolean argument; `undefined` is `false`.
pub(crate) fn flag(value: &JsValue, what: &str) -> Result<bool, JsValue> {
    if value.is_undefined() {
        return Ok(false);
    }
    value.as_bool().ok_or_else(|| bad_argument(format!("{what} must be true or false (got {})", type_name(value))))
}

/// What a value is, in a user's words: `typeof`, except that arrays and `null` (both
/// `"object"` to `typeof`) say what they are.
fn type_name(value: &JsValue) -> String {
    if js_sys::Array::is_array(value) {
        return "an array".into();
    }
    if value.is_null() {
        return "null".into();
    }
    value.js_typeof().as_string().unwrap_or_else(|| "unknown".into())
}

fn describe(value: &JsValue) -> String {
    match value.as_f64() {
        Some(x) => x.to_string(),
        None => type_name(value),
    }
}

/// A copy of an object argument made by `structuredClone`, which reads each property once
/// and refuses what is not plain data (a Proxy, a function, a symbol). Reading a caller's
/// object directly would run its getters and Proxy traps inside our call: one that throws
/// unwinds through the wasm frames, which leaves the object borrowed for good and, repeated,
/// corrupts the module's stack. Here it is caught and answered with a coded error.
/// Primitives come back as they are.
pub(crate) fn plain(value: &JsValue, what: &str) -> Result<JsValue, JsValue> {
    if !value.is_object() {
        return Ok(value.clone());
    }
    let refused = |why: JsValue| {
        let why = why.dyn_ref::<js_sys::Error>().and_then(|e| e.message().as_string()).unwrap_or_default();
        bad_argument(format!("{what} must be plain data (numbers, strings, arrays, objects): {why}"))
    };
    let clone: js_sys::Function =
        Reflect::get(&js_sys::global(), &JsValue::from_str("structuredClone")).map_err(refused)?.unchecked_into();
    clone.call1(&JsValue::UNDEFINED, value).map_err(refused)
}

/// An array argument (a copy, see [`plain`]) of at most `max` items.
pub(crate) fn list(value: &JsValue, what: &str, max: usize) -> Result<js_sys::Array, JsValue> {
    let copy = plain(value, what)?;
    let array = copy
        .dyn_into::<js_sys::Array>()
        .map_err(|v| bad_argument(format!("{what} must be an array (got {})", type_name(&v))))?;
    if array.length() as usize > max {
        return Err(error(Error::TooLarge { what: what.to_string(), max: max as u64, got: array.length().into() }));
    }
    Ok(array)
}

/// An array of strings (a copy, see [`plain`]) of at most `max` items and
/// [`MAX_KEY_LIST_CHARS`](crate::limits::MAX_KEY_LIST_CHARS) characters together, counted
/// before any is converted.
pub(crate) fn strings(value: &JsValue, what: &str, max: usize) -> Result<Vec<String>, JsValue> {
    let array = list(value, what, max)?;
    let mut chars = 0u64;
    for item in array.iter() {
        let text = item
            .dyn_ref::<js_sys::JsString>()
            .ok_or_else(|| bad_argument(format!("{what} must be an array of strings")))?;
        chars += u64::from(text.length());
    }
    let max_chars = crate::limits::MAX_KEY_LIST_CHARS as u64;
    crate::limits::check(&format!("the characters of all the {what}"), chars, max_chars).map_err(error)?;
    serde_wasm_bindgen::from_value(array.into())
        .map_err(|_| bad_argument(format!("{what} must be an array of strings")))
}

/// A plain options object, as a copy ([`plain`]), after refusing names outside `known` (a
/// typo like `{vnode: 10}` would otherwise pass silently) and array or map fields of more than
/// [`limits::MAX_NODES`](crate::limits::MAX_NODES) items, before any is converted. `None` for
/// `undefined` or `null`.
pub(crate) fn fields(value: &JsValue, known: &[&str]) -> Result<Option<js_sys::Object>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    let value = plain(value, "options")?;
    // `typeof`, not `instanceof`: a copy may come from another realm (Firefox's WebDriver).
    if !value.is_object() || js_sys::Array::is_array(&value) {
        return Err(bad_argument(format!("options must be an object (got {})", type_name(&value))));
    }
    let object: js_sys::Object = value.unchecked_into();
    for key in js_sys::Object::keys(&object).iter().filter_map(|k| k.as_string()) {
        if !known.contains(&key.as_str()) {
            let known = known.iter().map(|k| k.to_string()).collect();
            return Err(error(Error::UnknownOption { name: key, known }));
        }
        let field = Reflect::get(&object, &JsValue::from_str(&key)).unwrap_or(JsValue::UNDEFINED);
        let items = match field.dyn_ref::<js_sys::Array>() {
            Some(array) => array.length() as usize,
            None if field.is_object() => {
                js_sys::Object::keys(field.unchecked_ref::<js_sys::Object>()).length() as usize
            }
            None => 0,
        };
        if items > crate::limits::MAX_NODES {
            let max = crate::limits::MAX_NODES as u64;
            return Err(error(Error::TooLarge { what: format!("the {key} option's items"), max, got: items as u64 }));
        }
    }
    Ok(Some(object))
}

/// A plain options object's fields as `T` ([`fields`] first: unknown names refused).
pub(crate) fn options<T: for<'de> serde::Deserialize<'de> + Default>(
    value: &JsValue,
    known: &[&str],
) -> Result<T, JsValue> {
    let Some(object) = fields(value, known)? else { return Ok(T::default()) };
    serde_wasm_bindgen::from_value(object.into()).map_err(|e| error(Error::invalid_option("options", e.to_string())))
}

/// Field `name` of an object from [`fields`], or `None` when it is absent or `undefined`.
pub(crate) fn field(object: &js_sys::Object, name: &str) -> Option<JsValue> {
    Reflect::get(object, &JsValue::from_str(name)).ok().filter(|v| !v.is_undefined())
}

/// A JS value as the value of option `spec` (of its type and range: [`OptionSpec::check`]).
///
/// [`OptionSpec::check`]: crate::algo::OptionSpec::check
pub(crate) fn option_value(
    spec: &crate::algo::OptionSpec,
    value: &JsValue,
) -> Result<crate::algo::OptionValue, JsValue> {
    use crate::algo::{OptionKind, OptionValue};
    let name = spec.name;
    let wrong =
        |what: &str| error(Error::invalid_option(name, format!("{name} must be {what} (got {})", describe(value))));
    let value = match spec.kind {
        OptionKind::Whole { .. } | OptionKind::OneOf { .. } => {
            let x = value.as_f64().ok_or_else(|| wrong("a whole number"))?;
            OptionValue::Whole(whole(x, name).map_err(error)?)
        }
        OptionKind::Number { .. } => OptionValue::Number(value.as_f64().ok_or_else(|| wrong("a number"))?),
        OptionKind::Flag { .. } => OptionValue::Flag(value.as_bool().ok_or_else(|| wrong("true or false"))?),
        OptionKind::Choice { .. } | OptionKind::Text { .. } => {
            OptionValue::Text(value.as_string().ok_or_else(|| wrong("a string"))?)
        }
        OptionKind::Tokens { line, read } => {
            let lines: std::collections::BTreeMap<String, String> = serde_wasm_bindgen::from_value(value.clone())
                .map_err(|_| wrong(&format!("an object of {line} lines (strings) by node name")))?;
            let mut tokens = std::collections::BTreeMap::new();
            for (node, text) in lines {
                tokens.insert(node, read(&text).map_err(error)?);
            }
            OptionValue::Tokens(tokens)
        }
    };
    spec.check(value).map_err(error)
}

/// `fromConfig(kind, text, options)`'s arguments: the kind's name, the text, and the kind's
/// choices (`{algorithm}` for a memcached list, `{section}` for a text of several sections).
pub(crate) fn import_args(
    kind: &JsValue,
    text: &JsValue,
    options: &JsValue,
) -> Result<(String, String, crate::import::ImportOptions), JsValue> {
    let kind = string(kind, "the config kind")?;
    let text = string(text, "the config text")?;
    let mut parsed = crate::import::ImportOptions::default();
    if let Some(object) = fields(options, &["algorithm", "pool", "cluster", "section"])? {
        if let Some(algorithm) = field(&object, "algorithm") {
            let name = string(&algorithm, "the algorithm")?;
            parsed.algorithm = Some(crate::algo::Algorithm::from_name(&name).map_err(error)?);
        }
        if let Some(pool) = field(&object, "pool") {
            parsed.pool = Some(string(&pool, "the pool")?);
        }
        if let Some(cluster) = field(&object, "cluster") {
            parsed.cluster = Some(string(&cluster, "the cluster")?);
        }
        if let Some(section) = field(&object, "section") {
            parsed.section = Some(string(&section, "the section")?);
        }
    }
    Ok((kind, text, parsed))
}

/// Logs a Rust panic's message to the console before the module stops, so a bug that still
/// traps says where it was; and guards the module's classes against calls on freed objects
/// ([`freed`]).
#[wasm_bindgen(start)]
pub fn start() {
    crate::work::call(|| {
        std::panic::set_hook(Box::new(|info| {
            web_sys::console::error_1(&JsValue::from_str(&format!("ringlab panicked: {info}")));
        }));
        #[cfg(feature = "element")]
        freed::guard();
    })
}
