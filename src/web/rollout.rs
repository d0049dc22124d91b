//! `Ring.propagate`, `Ring.compareRollouts`, `Ring.plan` and `vnodesFor`: stale rings while a
//! change spreads, and planning the change ([`rollout`](crate::rollout), [`plan`](crate::plan)).

use super::ring::Ring;
use super::{error, options, to_js, whole, whole_count};
use crate::plan::{self, PlanOptions, SizingOptions};
use crate::rollout::{self, Lag, Rollout, Strategy, System, Traffic};
use crate::Error;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

/// A `{kind, ...}` argument (a lag, a traffic, a strategy), read flat: every kind's fields in
/// one struct, then checked by kind. An internally tagged enum would say the same, but its
/// derive buffers the whole object first (serde's `Content`), which compiles to many times
/// the code of reading it flat.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", expecting = "an object {kind, ...}")]
struct Kinded {
    kind: String,
    ms: Option<f64>,
    mean_ms: Option<f64>,
    seed: Option<f64>,
    every_ms: Option<f64>,
    s: Option<f64>,
    steps: Option<f64>,
}

impl Kinded {
    /// Field `name` (`value`), which kind `self.kind` of `what` needs.
    fn needs(&self, what: &str, name: &str, value: Option<f64>) -> Result<f64, Error> {
        value.ok_or_else(|| Error::invalid_option(name, format!("{what} {:?} needs {name} (a number)", self.kind)))
    }

    fn unknown(&self, what: &str, kinds: &str) -> Error {
        Error::unknown_choice(what, &self.kind, format!("unknown {what} kind {:?}: it is {kinds}", self.kind))
    }

    fn lag(&self) -> Result<Lag, Error> {
        let what = "the lag";
        Ok(match self.kind.as_str() {
            "fixed" => Lag::Fixed { ms: self.needs(what, "ms", self.ms)? },
            "even" => Lag::Even { ms: self.needs(what, "ms", self.ms)? },
            "exponential" => Lag::Exponential {
                mean_ms: self.needs(what, "meanMs", self.mean_ms)?,
                seed: self.seed.map_or(Ok(0), |s| whole(s, "the seed"))?,
            },
            "poll" => Lag::Poll { every_ms: self.needs(what, "everyMs", self.every_ms)? },
            "on-redirect" => Lag::OnRedirect,
            _ => return Err(self.unknown("lag", "fixed, even, exponential, poll or on-redirect")),
        })
    }

    fn traffic(&self) -> Result<Traffic, Error> {
        Ok(match self.kind.as_str() {
            "even" => Traffic::Even,
            "zipf" => Traffic::Zipf { s: self.needs("the traffic", "s", self.s)? },
            _ => return Err(self.unknown("traffic", "even or zipf")),
        })
    }

    fn strategy(&self) -> Result<Strategy, Error> {
        let what = "the strategy";
        Ok(match self.kind.as_str() {
            "all-at-once" => Strategy::AllAtOnce,
            "as-given" => Strategy::AsGiven,
            "poll" => Strategy::Poll { every_ms: self.needs(what, "everyMs", self.every_ms)? },
            "on-redirect" => Strategy::OnRedirect,
            "drain-first" => Strategy::DrainFirst,
            "ramp" => {
                let steps = whole(self.needs(what, "steps", self.steps)?, "a ramp's steps")?;
                crate::limits::check("a ramp's steps", steps, crate::limits::MAX_PLAN_STEPS as u64)?;
                Strategy::Ramp { steps: steps as usize, every_ms: self.needs(what, "everyMs", self.every_ms)? }
            }
            _ => return Err(self.unknown("strategy", "all-at-once, as-given, poll, on-redirect, drain-first or ramp")),
        })
    }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct PropagateArgs {
    clients: Option<f64>,
    lag: Option<Kinded>,
    traffic: Option<Kinded>,
    system: Option<String>,
    duration_ms: Option<f64>,
    step_ms: Option<f64>,
    requests_per_sec: Option<f64>,
    write_share: Option<f64>,
    refresh_on_redirect: Option<bool>,
    drain: Option<bool>,
    sample_keys: Option<f64>,
}

const PROPAGATE_FIELDS: &[&str] = &[
    "clients",
    "lag",
    "traffic",
    "system",
    "durationMs",
    "stepMs",
    "requestsPerSec",
    "writeShare",
    "refreshOnRedirect",
    "drain",
    "sampleKeys",
];

fn rollout_options(value: &JsValue) -> Result<Rollout, JsValue> {
    let args: PropagateArgs = options(value, PROPAGATE_FIELDS)?;
    let d = Rollout::default();
    Ok(Rollout {
        clients: args.clients.map_or(Ok(d.clients), |c| whole_count(c, "clients")).map_err(error)?,
        lag: args.lag.map_or(Ok(d.lag), |l| l.lag()).map_err(error)?,
        traffic: args.traffic.map_or(Ok(Traffic::Even), |t| t.traffic()).map_err(error)?,
        system: args.system.map(|s| System::from_name(&s)).transpose().map_err(error)?,
        duration_ms: args.duration_ms.unwrap_or(d.duration_ms),
        step_ms: args.step_ms.unwrap_or(d.step_ms),
        requests_per_sec: args.requests_per_sec.unwrap_or(d.requests_per_sec),
        write_share: args.write_share.unwrap_or(d.write_share),
        refresh_on_redirect: args.refresh_on_redirect,
        drain: args.drain.unwrap_or(false),
        sample_keys: args.sample_keys.map_or(Ok(d.sample_keys), |k| whole_count(k, "sampleKeys")).map_err(error)?,
    })
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct PlanArgs {
    steps: Option<f64>,
    items: Option<f64>,
    item_bytes: Option<f64>,
    bytes_per_sec: Option<f64>,
    sample_keys: Option<f64>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct SizingArgs {
    nodes: Option<f64>,
    max_over_mean: Option<f64>,
    after_losing: Option<bool>,
    items: Option<f64>,
    item_bytes: Option<f64>,
}

#[wasm_bindgen]
impl Ring {
    /// The change from `before` to `after` as it spreads over `clients` clients:
    /// `{times, misrouted, hops, misses, staleReads, inconsistentWrites, staleTraffic,
    /// convergedAtMs, converged, convergedShort, adoptedAtMs, series, moved, totals, exact, keys,
    /// system, rule, counters, epochs}`.
    pub fn propagate(before: &Ring, after: &Ring, options: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let options = rollout_options(&options)?;
            to_js(&rollout::propagate(before.cluster(), after.cluster(), &options).map_err(error)?)
        })
    }

    /// The same change under each strategy (`[{kind: "all-at-once"}, {kind: "poll", everyMs},
    /// {kind: "on-redirect"}, {kind: "drain-first"}, {kind: "ramp", steps, everyMs},
    /// {kind: "as-given"}]`), the other settings from `options`: `[{label, timeline}]`.
    #[wasm_bindgen(js_name = compareRollouts)]
    pub fn compare_rollouts(
        before: &Ring,
        after: &Ring,
        options: JsValue,
        strategies: JsValue,
    ) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let base = rollout_options(&options)?;
            let list = super::list(&strategies, "strategies", crate::limits::MAX_STRATEGIES)?;
            let parsed: Vec<Kinded> = serde_wasm_bindgen::from_value(list.into()).map_err(|e| {
                error(Error::invalid_option(
                    "strategies",
                    format!(
                "each strategy is {{kind}}: all-at-once, as-given, poll (everyMs), on-redirect, drain-first or ramp \
                 (steps, everyMs) ({e})"
            ),
                ))
            })?;
            let strategies =
                parsed.iter().map(Kinded::strategy).collect::<Result<Vec<Strategy>, Error>>().map_err(error)?;
            to_js(&rollout::compare(before.cluster(), after.cluster(), &base, &strategies).map_err(error)?)
        })
    }

    /// The change in `steps` steps (weights, slot batches or node by node):
    /// `{steps: [{moved, items, bytes, seconds, label}], total, atOnce, staging, exact, keys}`.
    pub fn plan(before: &Ring, after: &Ring, options: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let args: PlanArgs =
                super::options(&options, &["steps", "items", "itemBytes", "bytesPerSec", "sampleKeys"])?;
            let d = PlanOptions::default();
            let steps = args.steps.map_or(Ok(d.steps as u64), |s| whole(s, "steps")).map_err(error)?;
            crate::limits::check("steps of a staged change", steps, crate::limits::MAX_PLAN_STEPS as u64)
                .map_err(error)?;
            let sample_keys =
                args.sample_keys.map_or(Ok(d.sample_keys as u64), |k| whole(k, "sampleKeys")).map_err(error)?;
            let options = PlanOptions {
                steps: steps as usize,
                items: args.items.unwrap_or(d.items),
                item_bytes: args.item_bytes.unwrap_or(d.item_bytes),
                bytes_per_sec: args.bytes_per_sec.unwrap_or(d.bytes_per_sec),
                sample_keys: sample_keys.min(u64::from(u32::MAX)) as usize,
            };
            to_js(&plan::plan(before.cluster(), after.cluster(), &options).map_err(error)?)
        })
    }
}

/// The vnodes per node a ringlab ring of `nodes` equal nodes needs so that the busiest node
/// stays within `maxOverMean` of its share (optionally after losing the worst node):
/// `{vnodes, maxOverMean, afterLosing, estimate, bytesPerNode, ringBytes, defaults}`.
#[wasm_bindgen(js_name = vnodesFor)]
pub fn vnodes_for(options: JsValue) -> Result<JsValue, JsValue> {
    crate::work::call(|| {
        let args: SizingArgs =
            super::options(&options, &["nodes", "maxOverMean", "afterLosing", "items", "itemBytes"])?;
        let d = SizingOptions::default();
        let nodes = args.nodes.map_or(Ok(d.nodes as u64), |n| whole(n, "nodes")).map_err(error)?;
        crate::limits::check("nodes in a sizing", nodes, crate::limits::MAX_SIZING_NODES as u64).map_err(error)?;
        let options = SizingOptions {
            nodes: nodes as usize,
            max_over_mean: args.max_over_mean.unwrap_or(d.max_over_mean),
            after_losing: args.after_losing.unwrap_or(false),
            items: args.items.unwrap_or(d.items),
            item_bytes: args.item_bytes.unwrap_or(d.item_bytes),
            ..d
        };
        to_js(&plan::vnodes_for(&options).map_err(error)?)
    })
}
