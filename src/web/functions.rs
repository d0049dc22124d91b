//! Free functions: the real systems' key functions, the comparison, and the configuration
//! kinds (the lists and the theme are in `lists.rs`).

use super::ring::ring_args;
use super::{bad_argument, count, error, string, to_js};
use crate::algo::{self, Algorithm};
use crate::analysis;
use crate::keys::KeySample;
use crate::limits;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The expected relative standard deviation of load for `nodes` equal nodes with `vnodes`
/// points each: `sqrt((N - 1) / (N·V + 1))`.
#[wasm_bindgen(js_name = theoreticalRsd)]
pub fn theoretical_rsd(nodes: JsValue, vnodes: JsValue) -> Result<f64, JsValue> {
    crate::work::call(|| {
        let n = count(&nodes, "nodes", u32::MAX as usize)? as u32;
        let v = count(&vnodes, "vnodes", u32::MAX as usize)? as u32;
        Ok(analysis::theoretical_rsd(n, v))
    })
}

/// Judges a reader's estimate of a count of sample keys against the engine's count:
/// `{right, counted, tolerance}` (see `analysis::judge_estimate`: two binomial standard
/// deviations).
#[wasm_bindgen(js_name = judgeEstimate)]
pub fn judge_estimate(guess: JsValue, counted: JsValue, sample: JsValue) -> Result<JsValue, JsValue> {
    crate::work::call(|| {
        let guess = super::number(&guess, "the estimate")?;
        let sample = count(&sample, "the sample's keys", limits::MAX_SAMPLE_KEYS)?;
        let counted = count(&counted, "the count", sample)?;
        to_js(&analysis::judge_estimate(guess, counted, sample))
    })
}

/// The Redis Cluster slot of `key` (CRC16-XMODEM mod 16384, with hash tags).
#[wasm_bindgen(js_name = redisKeySlot)]
pub fn redis_key_slot(key: JsValue) -> Result<u16, JsValue> {
    crate::work::call(|| Ok(algo::stores::redis::key_slot(string(&key, "the key")?.as_bytes())))
}

/// Cassandra's Murmur3Partitioner token of `key`, as a BigInt.
#[wasm_bindgen(js_name = cassandraToken)]
pub fn cassandra_token(key: JsValue) -> Result<i64, JsValue> {
    crate::work::call(|| Ok(algo::stores::cassandra::token(string(&key, "the key")?.as_bytes())))
}

/// Jump consistent hash: the bucket in `0..buckets` of a 64-bit `key` (a BigInt).
#[wasm_bindgen(js_name = jumpHash)]
pub fn jump_hash(key: JsValue, buckets: JsValue) -> Result<u32, JsValue> {
    crate::work::call(|| {
        let key = u64::try_from(key).map_err(|_| bad_argument("jumpHash's key must be a BigInt in 0..2^64".into()))?;
        let buckets = count(&buckets, "buckets", u32::MAX as usize)? as u32;
        if buckets == 0 {
            return Err(bad_argument("jumpHash needs at least one bucket".into()));
        }
        Ok(algo::papers::jump::jump_hash(key, buckets))
    })
}

/// Every algorithm on the same nodes and keys `"{prefix}0" ..`:
/// `[{algorithm, maxOverMean, movedOnJoin, idealJoin, movedOnLeave, idealLeave, left, memoryBytes} | {algorithm, error, code}]`.
/// `options` takes the same fields as `new Ring` (its `nodes` are the nodes compared).
#[wasm_bindgen(js_name = compareAlgorithms)]
pub fn compare_algorithms(options: JsValue, prefix: JsValue, count: JsValue) -> Result<JsValue, JsValue> {
    crate::work::call(|| {
        let args = ring_args(&options)?;
        let prefix = string(&prefix, "the key prefix")?;
        let count = super::count(&count, "the key count", limits::MAX_SAMPLE_KEYS)?;
        limits::check_generated(&prefix, count).map_err(error)?;
        let (base, nodes) = (args.options, args.nodes);
        let sample = KeySample::generated(&prefix, count);
        #[derive(Serialize)]
        #[serde(untagged)]
        enum Row {
            Ok(algo::compare::Report),
            Err { algorithm: &'static str, error: String, code: &'static str },
        }
        let rows: Vec<Row> = algo::compare::compare(&base, &nodes, &sample, &Algorithm::ALL)
            .into_iter()
            .map(|(a, r)| match r {
                Ok(report) => Row::Ok(report),
                Err(e) => Row::Err { algorithm: a.name(), error: e.to_string(), code: e.code() },
            })
            .collect();
        to_js(&rows)
    })
}

/// `agreementMatrix(options, keys, settings)`'s settings, every field optional.
#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct MatrixArgs {
    algorithms: Option<Vec<String>>,
}

/// How far every two cache clients agree on one pool: `{algorithms, disagree: [[share]],
/// exact: [[bool]], keys, refused: [{algorithm, error, code}]}`. `options` takes the same
/// fields as `new Ring` (its `nodes` are the pool); `keys` a count of generated keys `key:0`
/// .. for the pairs that cannot be exact (default: 65,000 / algorithms, at most 10,000); `settings.algorithms` the names to compare (default:
/// every cache client of the catalog). At most 65,000 algorithm × key lookups.
#[wasm_bindgen(js_name = agreementMatrix)]
pub fn agreement_matrix(options: JsValue, keys: JsValue, settings: JsValue) -> Result<JsValue, JsValue> {
    crate::work::call(|| {
        let args = ring_args(&options)?;
        let m: MatrixArgs = super::options(&settings, &["algorithms"])?;
        let algorithms = match m.algorithms {
            Some(names) => {
                limits::check("algorithms", names.len() as u64, Algorithm::ALL.len() as u64).map_err(error)?;
                names.iter().map(|n| Algorithm::from_name(n)).collect::<Result<Vec<_>, _>>().map_err(error)?
            }
            None => Algorithm::ALL.into_iter().filter(|a| a.entry().family == algo::Family::Client).collect(),
        };
        // By default as many keys as the cap allows for these algorithms, up to 10,000.
        let count = if keys.is_undefined() {
            algo::agreement::DEFAULT_KEYS.min(limits::MAX_COMPARE_WORK as usize / algorithms.len().max(1))
        } else {
            super::count(&keys, "the key count", limits::MAX_SAMPLE_KEYS)?
        };
        to_js(&algo::agreement::matrix(&args.options, &args.nodes, &algorithms, "key:", count).map_err(error)?)
    })
}

/// `metrics(options, keys, settings)`'s settings, every field optional.
#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(super) struct MetricsArgs {
    removal_order: Option<String>,
    removals: Option<f64>,
    seed: Option<f64>,
    algorithms: Option<Vec<String>>,
    pub(super) lookup_ns: Option<Vec<f64>>,
}

impl MetricsArgs {
    /// The removal order, removals and seed given, the defaults for the others.
    pub(super) fn settings(&self) -> Result<algo::metrics::MetricsSettings, JsValue> {
        let mut parsed = algo::metrics::MetricsSettings::default();
        if let Some(order) = &self.removal_order {
            parsed.removal_order = algo::metrics::RemovalOrder::from_name(order).map_err(error)?;
        }
        if let Some(removals) = self.removals {
            parsed.removals = super::whole(removals, "removals").map_err(error)?.min(usize::MAX as u64) as usize;
        }
        if let Some(seed) = self.seed {
            parsed.seed = super::whole(seed, "seed").map_err(error)?;
        }
        Ok(parsed)
    }
}

/// The papers' metrics (`algo::metrics`) of each algorithm on the same nodes and keys:
/// `options` as `new Ring` takes them (its `nodes` are measured); `keys` a count (the keys
/// `"key:0" ..`) or an array of keys; `settings` `{removalOrder: "fifo" | "lifo" | "random",
/// removals, seed, algorithms, lookupNs}`. One row per algorithm: its metrics, or
/// `{algorithm, error, code}`.
#[wasm_bindgen]
pub fn metrics(options: JsValue, keys: JsValue, settings: JsValue) -> Result<JsValue, JsValue> {
    crate::work::call(|| {
        let args = ring_args(&options)?;
        let sample = if keys.as_f64().is_some() {
            let count = super::count(&keys, "the key count", limits::MAX_SAMPLE_KEYS)?;
            KeySample::generated("key:", count)
        } else {
            KeySample { keys: super::strings(&keys, "keys", limits::MAX_SAMPLE_KEYS)? }
        };
        let known = ["removalOrder", "removals", "seed", "algorithms", "lookupNs"];
        let m: MetricsArgs = super::options(&settings, &known)?;
        let parsed = m.settings()?;
        let algorithms = match m.algorithms {
            Some(names) => {
                limits::check("algorithms", names.len() as u64, Algorithm::ALL.len() as u64).map_err(error)?;
                names.iter().map(|n| Algorithm::from_name(n)).collect::<Result<Vec<_>, _>>().map_err(error)?
            }
            None => Algorithm::ALL.to_vec(),
        };
        let lookup_ns: Vec<Option<f64>> = m.lookup_ns.unwrap_or_default().into_iter().map(Some).collect();
        #[derive(Serialize)]
        #[serde(untagged)]
        enum Row {
            Ok(algo::metrics::Metrics),
            Err { algorithm: &'static str, error: String, code: &'static str },
        }
        let rows: Vec<Row> =
            algo::metrics::metrics(&args.options, &args.nodes, &sample, &algorithms, &parsed, &lookup_ns)
                .into_iter()
                .map(|(a, r)| match r {
                    Ok(row) => Row::Ok(row),
                    Err(e) => Row::Err { algorithm: a.name(), error: e.to_string(), code: e.code() },
                })
                .collect();
        to_js(&rows)
    })
}

/// Everything about each algorithm, from its catalog entry: `[{name, label, family,
/// familyLabel, source, weighted, hash, vnodes, arcs, replicas, down, lastOnly, options}]`.
#[wasm_bindgen]
pub fn catalog() -> Result<JsValue, JsValue> {
    crate::work::call(|| {
        let entries: Vec<crate::algo::entry::EntryView> = Algorithm::ALL.iter().map(|a| a.entry().view()).collect();
        super::to_js(&entries)
    })
}

/// "Your own ring": the rings of tutorials and homegrown code as share links, `[{name, code,
/// differs, link}]` (each reproduced bit for bit from the code itself).
#[wasm_bindgen(js_name = ringPresets)]
pub fn ring_presets() -> Result<JsValue, JsValue> {
    crate::work::call(|| to_js(&crate::algo::ringlab::PRESETS))
}

/// The sections a configuration text offers to choose from (a whole `nginx.conf`'s
/// upstreams, a `haproxy.cfg`'s backends, ...): `configSections(kind, text)` → names, in
/// order; `fromConfig(kind, text, {section})` reads one.
#[wasm_bindgen(js_name = configSections)]
pub fn config_sections(kind: JsValue, text: JsValue) -> Result<Vec<String>, JsValue> {
    crate::work::call(|| {
        let kind = string(&kind, "the config kind")?;
        let text = string(&text, "the config text")?;
        crate::import::sections(&kind, &text).map_err(error)
    })
}

/// What reading a configuration text makes of each line: `checkConfig(kind, text,
/// options?)` → `{kind, lines: [{line, status, why}], read, passedOver, summary, placement,
/// error}`. A text `fromConfig` refuses is the answer's `error` (with its line), not a throw:
/// only the arguments throw (an unknown kind, a text that is no string or too long).
#[wasm_bindgen(js_name = checkConfig)]
pub fn check_config(kind: JsValue, text: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    crate::work::call(|| {
        let (kind, text, options) = super::import_args(&kind, &text, &options)?;
        to_js(&crate::import::check(&kind, &text, &options).map_err(error)?)
    })
}

/// The kinds of configuration text `Session.fromConfig` reads: `[{kind, label, example}]`.
#[wasm_bindgen(js_name = configKinds)]
pub fn config_kinds() -> Result<JsValue, JsValue> {
    crate::work::call(|| to_js(&crate::session::CONFIG_KINDS))
}
