//! Freed objects: a call on a `Ring`, a `Session` or an opening after its `free()` answers
//! the coded [`Error::Freed`], thrown in JavaScript before anything enters wasm.
//!
//! Why in JavaScript: wasm-bindgen's glue hands a method its object's pointer, `0` once the
//! object is freed, and the export refuses a null pointer by throwing from inside wasm
//! ("null pointer passed to rust", no code). That throw unwinds the wasm frames without
//! restoring the module's shadow stack pointer, so each such call leaks its frame's stack,
//! and some 20,000 caught calls leave the module dead for the page. wasm-bindgen 0.2.130 only
//! checks the pointer in JavaScript under `--debug` (an uncoded "Attempt to use a moved
//! value"), and has no hook before an export; so when the module starts, [`guard`] wraps each
//! class's methods, getters and static functions, once, in the few lines of JavaScript below:
//! a call on a freed object, or with a freed object of these classes as an argument, throws
//! the class's coded error; `free()` on a freed object does nothing. The codes and messages
//! come from [`Error`], as every code the binding throws does.
//!
//! wasm-bindgen writes this JavaScript to a snippet file beside the glue, which imports it;
//! `cargo xtask build` puts it into the glue (`xtask/src/build.rs`, `inline_snippets`) so that
//! each module stays one script and one wasm file. The wasm-bindgen tests load it as a
//! snippet.

use crate::Error;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
export function guardFreed(classes) {
  const guarded = classes.map(([sample, code, message]) => {
    const proto = Object.getPrototypeOf(sample);
    return { proto, type: proto.constructor, refuse: () => Object.assign(new Error(message), { code }) };
  });
  const live = (object) => typeof object === "object" && object !== null && object.__wbg_ptr !== 0 && object.__wbg_ptr !== undefined;
  const checkArguments = (args) => {
    for (const arg of args) {
      for (const g of guarded) {
        if (arg instanceof g.type && !live(arg)) throw g.refuse();
      }
    }
  };
  const wrapAll = (target, wrap, skip) => {
    for (const key of Reflect.ownKeys(target)) {
      if (skip.includes(key)) continue;
      const d = Object.getOwnPropertyDescriptor(target, key);
      if (typeof d.value === "function") d.value = wrap(d.value, key);
      else if (d.get || d.set) {
        if (d.get) d.get = wrap(d.get, key);
        if (d.set) d.set = wrap(d.set, key);
      } else continue;
      Object.defineProperty(target, key, d);
    }
  };
  const mark = Symbol.for("ringlab.guarded");
  for (const g of guarded) {
    if (Object.prototype.hasOwnProperty.call(g.proto, mark)) continue;
    Object.defineProperty(g.proto, mark, { value: true });
    wrapAll(g.proto, (f, key) => {
      if (key === "free" || key === Symbol.dispose) {
        return function () { if (live(this)) return f.apply(this, arguments); };
      }
      return function () {
        if (!live(this)) throw g.refuse();
        checkArguments(arguments);
        return f.apply(this, arguments);
      };
    }, ["constructor", "__destroy_into_raw"]);
    wrapAll(g.type, (f) => function () {
      checkArguments(arguments);
      return f.apply(this, arguments);
    }, ["length", "name", "prototype", "__wrap", "__unwrap"]);
  }
}
"#)]
extern "C" {
    /// Wraps the methods of each `[sample, code, message]`'s class (see the module's docs).
    #[wasm_bindgen(catch, js_name = guardFreed)]
    fn guard_freed(classes: &js_sys::Array) -> Result<(), JsValue>;
}

/// Guards the classes of this module (see the module's docs). Each class is reached through
/// an instance made here and freed again; guarding twice changes nothing. The module's start
/// calls it; the wasm-bindgen test runner does not run a start, so its tests call it.
pub fn guard() {
    let mut samples: Vec<(JsValue, &'static str)> = Vec::new();
    #[cfg(feature = "engine")]
    {
        let options = crate::algo::Options::new(crate::algo::DEFAULT);
        if let Ok(cluster) = crate::algo::Cluster::new(options, Vec::<crate::NodeSpec>::new()) {
            samples.push((super::Ring::from_cluster(cluster).into(), "Ring"));
        }
        samples.push((super::playground::Opening::given().into(), "opening"));
    }
    let empty = crate::session::Session::new(crate::session::Settings::default(), Vec::<crate::NodeSpec>::new());
    if let Ok(inner) = empty {
        samples.push((super::Session { inner }.into(), "Session"));
    }
    let classes: js_sys::Array = samples
        .iter()
        .map(|(sample, class)| {
            let error = Error::Freed { class };
            js_sys::Array::of3(sample, &JsValue::from_str(error.code()), &JsValue::from_str(&error.brief()))
        })
        .collect();
    // A failure would be a bug here: said, and the module starts unguarded rather than not.
    if let Err(e) = guard_freed(&classes) {
        web_sys::console::error_2(&JsValue::from_str("ringlab: could not guard against freed objects:"), &e);
    }
    // Each sample by its own free(), guarded now.
    for (sample, _) in &samples {
        let free = js_sys::Reflect::get(sample, &JsValue::from_str("free")).unwrap_or(JsValue::UNDEFINED);
        if let Some(free) = free.dyn_ref::<js_sys::Function>() {
            let _ = free.call0(sample);
        }
    }
}
