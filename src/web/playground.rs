//! The `Session` methods only the playground page uses (links, the state in parts, history,
//! weights, the user's keys, workloads, configuration texts, hit-testing, charts), beside
//! the element's in `session.rs`: in the engine's module, not the element's.

use super::ring::Ring;
use super::scene::scene_object;
use super::session::{transition, Session};
use super::{error, flag, number, options, string, to_js};
use crate::algo::{Algorithm, Cluster};
use crate::session::{self as engine, Change, Settings};
use crate::{Error, Node, NodeSpec};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

/// Reading and writing the state whole (links), and its parts one at a time: the page's.
/// The element needs none of them: each `frame` carries the parts, and after a trap it
/// replays its own changes (`hash-ring.js`), so its modules carry no link reader.
#[wasm_bindgen]
impl Session {
    /// The session a share link's fragment describes.
    #[wasm_bindgen(js_name = fromLink)]
    pub fn from_link(link: JsValue) -> Result<Session, JsValue> {
        crate::work::call(|| {
            Ok(Session { inner: engine::Session::from_link(&string(&link, "the link")?).map_err(error)? })
        })
    }

    /// The share link's fragment for the current state (`#ringlab=2&...`).
    pub fn link(&self) -> String {
        crate::work::call(|| self.inner.link())
    }

    /// The key followed in the link this session was opened from, or `null`.
    #[wasm_bindgen(js_name = linkedKey)]
    pub fn linked_key(&self) -> Option<String> {
        crate::work::call(|| self.inner.linked_key().map(str::to_string))
    }

    /// `{algorithm, hash, bits, vnodes, keys, replicas, zipf, options}`.
    pub fn settings(&self) -> Result<JsValue, JsValue> {
        crate::work::call(|| to_js(&self.inner.settings().view()))
    }

    /// What to draw: `{points, pointOwners, keys, keyOwners, colours}` as typed arrays, and
    /// `{axis, description, summary, reading}`.
    pub fn scene(&self) -> Result<JsValue, JsValue> {
        crate::work::call(|| scene_object(&self.inner.scene()))
    }

    /// `[{name, weight, zone, points, share, keys, traffic, colour, removalRule, down}]`.
    pub fn nodes(&self) -> Result<JsValue, JsValue> {
        crate::work::call(|| to_js(&self.inner.node_rows()))
    }

    /// A free name for a new node: `node-N` with the smallest N not taken.
    #[wasm_bindgen(js_name = nextNodeName)]
    pub fn next_node_name(&self) -> String {
        crate::work::call(|| self.inner.next_node_name())
    }
}

/// `prepareChart` / `chartData` options.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(super) struct ChartArg {
    pub(super) band: Option<bool>,
    lookup_ns: Option<Vec<f64>>,
    panel: Option<u32>,
}

#[wasm_bindgen]
impl Session {
    /// Chart `kind`'s data (`spread`, `shares`, `moves`, `algorithms`) as `{kind, data}`, for
    /// the charts module's `drawChart`: `band` adds the spread chart's five-hash band,
    /// `lookupNs[i]` is the measured lookup time of `algorithms()[i]` for the algorithms chart,
    /// and `panel` picks one of its five panels (a phone's one at a time).
    #[wasm_bindgen(js_name = chartData)]
    pub fn chart_data(&self, kind: JsValue, opts: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let kind = string(&kind, "the chart kind")?;
            let o: ChartArg = options(&opts, &["band", "lookupNs", "panel"])?;
            let lookup: Vec<Option<f64>> = o.lookup_ns.unwrap_or_default().into_iter().map(Some).collect();
            let chart = self.inner.chart(&kind, o.band.unwrap_or(false), &lookup).map_err(error)?;
            to_js(&chart.showing(o.panel.map(|p| p as usize)).map_err(error)?)
        })
    }
}

#[wasm_bindgen]
impl Session {
    /// The session of a configuration text: `Session.fromConfig(kind, text, {algorithm})`, the
    /// same door as `Ring.fromConfig` (see `configKinds()`); errors name the line.
    #[wasm_bindgen(js_name = fromConfig)]
    pub fn from_config(kind: JsValue, text: JsValue, options: JsValue) -> Result<Session, JsValue> {
        crate::work::call(|| {
            let (kind, text, options) = super::import_args(&kind, &text, &options)?;
            Ok(Session { inner: engine::Session::from_config_with(&kind, &text, &options).map_err(error)? })
        })
    }

    /// `Session.opening(link)`: the session a share link describes, opened in steps of
    /// bounded work (see [`Opening`]), so that a link at the caps does not block the page.
    /// A link that cannot be read fails here, as `fromLink` does.
    pub fn opening(link: JsValue) -> Result<Opening, JsValue> {
        crate::work::call(|| Ok(Opening::new(engine::Session::opening(&string(&link, "the link")?).map_err(error)?)))
    }

    /// Changes a node's weight; returns the transition.
    #[wasm_bindgen(js_name = setWeight)]
    pub fn set_weight(&mut self, name: JsValue, weight: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let name = string(&name, "the node name")?;
            let weight = weight.as_f64().ok_or_else(|| super::bad_argument("the weight must be a number".into()))?;
            transition(&self.inner.apply(Change::SetWeight { name, weight }).map_err(error)?)
        })
    }

    /// Sets the tier's size and load, `{items, itemBytes, requestsPerSec}`, or `null` to stop
    /// reporting costs; every later transition's `cost` and text say what a change costs.
    #[wasm_bindgen(js_name = setWorkload)]
    pub fn set_workload(&mut self, workload: JsValue) -> Result<(), JsValue> {
        crate::work::call(|| {
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
                    return Err(error(Error::out_of_range(
                        "items",
                        items,
                        (0.0, 2f64.powi(53)),
                        format!("items must be a whole number ≥ 0 (got {items})"),
                    )));
                }
                Some(crate::cost::Workload {
                    items: items as u64,
                    item_bytes: a.item_bytes.unwrap_or(0.0),
                    requests_per_sec: a.requests_per_sec.unwrap_or(0.0),
                })
            };
            self.inner.set_workload(w).map_err(error)
        })
    }

    /// The workload, or `null`.
    pub fn workload(&self) -> Result<JsValue, JsValue> {
        crate::work::call(|| to_js(&self.inner.workload()))
    }

    /// Uses the user's own keys (one per line, or CSV `key,count`; errors name the line), or
    /// `null` to go back to `key:0 ..`: `{keys, requests, text}` (`text`: how the lines were read).
    #[wasm_bindgen(js_name = useKeys)]
    pub fn use_keys(&mut self, text: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            if text.is_null() || text.is_undefined() {
                self.inner.use_key_list(None).map_err(error)?;
                return Ok(JsValue::NULL);
            }
            let list = crate::keys::parse_key_list(&string(&text, "the key list")?).map_err(error)?;
            let summary = KeysSummary::of(&list);
            self.inner.use_key_list(Some(list)).map_err(error)?;
            to_js(&summary)
        })
    }

    /// Starts reading a key list in pieces: `beginKeys()`, `pushKeys(lines)`…, `endKeys()`
    /// (a page reads a million keys in several short tasks this way).
    #[wasm_bindgen(js_name = beginKeys)]
    pub fn begin_keys(&mut self) {
        crate::work::call(|| {
            self.inner.begin_keys();
        })
    }

    /// The next piece of the key list: whole lines, without the newline after the last.
    #[wasm_bindgen(js_name = pushKeys)]
    pub fn push_keys(&mut self, text: JsValue) -> Result<(), JsValue> {
        crate::work::call(|| self.inner.push_keys(&string(&text, "the key list")?).map_err(error))
    }

    /// Uses the key list read since `beginKeys()`: `{keys, requests, text}`.
    #[wasm_bindgen(js_name = endKeys)]
    pub fn end_keys(&mut self) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let list = self.inner.end_keys().map_err(error)?;
            to_js(&KeysSummary::of(list))
        })
    }

    /// What the current algorithm's real clients do with a down node: `{kind, text}` with
    /// `kind` one of `skip`, `rebuild`, `unavailable`.
    #[wasm_bindgen(js_name = downRule)]
    pub fn down_rule(&self) -> Result<JsValue, JsValue> {
        crate::work::call(|| to_js(&crate::algo::down::rule(self.inner.settings().algorithm)))
    }

    /// `setDown(name, true)`.
    #[wasm_bindgen(js_name = markDown)]
    pub fn mark_down(&mut self, name: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| self.set_down(name, JsValue::TRUE))
    }

    /// `setDown(name, false)`.
    #[wasm_bindgen(js_name = markUp)]
    pub fn mark_up(&mut self, name: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| self.set_down(name, JsValue::FALSE))
    }

    /// New settings (any of `{algorithm, hash, bits, vnodes, keys, replicas}`) for the same
    /// nodes; returns the transition.
    pub fn configure(&mut self, settings: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let next = match super::fields(&settings, &super::session::settings_fields())? {
                Some(object) => super::session::configured(self.inner.settings(), &object)?,
                None => self.inner.settings().clone(),
            };
            transition(&self.inner.apply(Change::Configure(next)).map_err(error)?)
        })
    }

    /// `session.importConfig(kind, text, options)`: the ring of a configuration text (the
    /// same door as `fromConfig`) in place of this one, as one step that `undo` takes back.
    #[wasm_bindgen(js_name = importConfig)]
    pub fn import_config(&mut self, kind: JsValue, text: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let (kind, text, options) = super::import_args(&kind, &text, &options)?;
            transition(&self.inner.import(&kind, &text, &options).map_err(error)?)
        })
    }

    /// Undoes the last change: its transition, or `null` with nothing to undo.
    pub fn undo(&mut self) -> Result<JsValue, JsValue> {
        crate::work::call(|| self.inner.undo().map_err(error)?.map_or(Ok(JsValue::NULL), |t| transition(&t)))
    }

    /// Redoes the last undone change, or `null`.
    pub fn redo(&mut self) -> Result<JsValue, JsValue> {
        crate::work::call(|| self.inner.redo().map_err(error)?.map_or(Ok(JsValue::NULL), |t| transition(&t)))
    }

    /// Whether transitions also replay the change under `hash % N`.
    #[wasm_bindgen(js_name = setCompareModulo)]
    pub fn set_compare_modulo(&mut self, on: JsValue) -> Result<(), JsValue> {
        crate::work::call(|| {
            self.inner.set_compare_modulo(flag(&on, "compareModulo")?);
            Ok(())
        })
    }

    /// The last change described again, or `null`.
    #[wasm_bindgen(js_name = lastChange)]
    pub fn last_change(&self) -> Result<JsValue, JsValue> {
        crate::work::call(|| self.inner.last_change().map_err(error)?.map_or(Ok(JsValue::NULL), |t| transition(&t)))
    }

    /// `{exactArcs, exactShares, replicas, weights, hash, vnodes, undo, redo}`.
    pub fn capabilities(&self) -> Result<JsValue, JsValue> {
        crate::work::call(|| to_js(&self.inner.capabilities()))
    }

    /// `{rsd, maxOverMean, minOverMean}` from exact shares, or `null`.
    pub fn spread(&self) -> Result<JsValue, JsValue> {
        crate::work::call(|| to_js(&self.inner.spread()))
    }

    /// The arc at `fraction` of the circle (0 = top, clockwise), or `null`.
    #[wasm_bindgen(js_name = arcAt)]
    pub fn arc_at(&self, fraction: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| to_js(&self.inner.arc_at(number(&fraction, "the fraction")?)))
    }

    /// The sample key drawn nearest `fraction`, within `tolerance`, or `null`.
    #[wasm_bindgen(js_name = keyNear)]
    pub fn key_near(&self, fraction: JsValue, tolerance: JsValue) -> Result<JsValue, JsValue> {
        crate::work::call(|| {
            let (f, t) = (number(&fraction, "the fraction")?, number(&tolerance, "the tolerance")?);
            to_js(&self.inner.key_near(f, t))
        })
    }

    /// This session's nodes under `algorithm` (the other settings kept), as a `Ring`: to time
    /// lookups of every algorithm on the same nodes.
    #[wasm_bindgen(js_name = ringFor)]
    pub fn ring_for(&self, algorithm: JsValue) -> Result<Ring, JsValue> {
        crate::work::call(|| {
            let algorithm = Algorithm::from_name(&string(&algorithm, "the algorithm")?).map_err(error)?;
            let settings = Settings { algorithm, ..self.inner.settings().clone() };
            let nodes = self.inner.nodes().iter().map(|n| NodeSpec::new(n.name.clone()));
            let weighted = self.inner.nodes().iter().map(Node::spec);
            // Weightless algorithms take the names alone.
            let cluster =
                Cluster::new(settings.options(), weighted).or_else(|_| Cluster::new(settings.options(), nodes));
            Ok(Ring::from_cluster(cluster.map_err(error)?))
        })
    }

    /// One piece of chart `kind`'s data for the current state (one hash's sweep, one
    /// cluster size, one algorithm's row), kept for `chartData`: `true` once complete. Any
    /// change to the session drops what was prepared.
    #[wasm_bindgen(js_name = prepareChart)]
    pub fn prepare_chart(&mut self, kind: JsValue, opts: JsValue) -> Result<bool, JsValue> {
        crate::work::call(|| {
            let kind = string(&kind, "the chart kind")?;
            let o: ChartArg = options(&opts, &["band"])?;
            self.inner.prepare_chart(&kind, o.band.unwrap_or(false)).map_err(error)
        })
    }
}

/// What `useKeys` and `endKeys` answer: the list's size, and how its lines were read.
#[derive(Serialize)]
struct KeysSummary {
    keys: usize,
    requests: f64,
    text: String,
}

impl KeysSummary {
    fn of(list: &crate::keys::KeyList) -> KeysSummary {
        KeysSummary { keys: list.keys.len(), requests: list.total_count() as f64, text: list.read_as() }
    }
}

/// A share link being opened: `step()` until it answers `true`, then `session()`. Each step
/// is at most `OPEN_STEP_WORK` units of work (about 2 ms natively); the page runs steps until
/// its task has taken its slice of a frame, so no task of a link at the caps is long.
#[wasm_bindgen]
pub struct Opening {
    /// `Ok(None)`: the session was given; `Err`: the opening failed, and says so again.
    inner: Result<Option<engine::Opening>, Error>,
}

#[wasm_bindgen]
impl Opening {
    /// One step; `true` when the session is ready. A failed step (a setting the link's
    /// nodes cannot take, found as they are built) throws the same coded error each time.
    pub fn step(&mut self) -> Result<bool, JsValue> {
        crate::work::call(|| self.opening()?.step().map_err(error))
    }

    /// The session, after whatever steps are left; the opening is spent. If it failed, this
    /// and every later call throw its error.
    pub fn session(&mut self) -> Result<Session, JsValue> {
        crate::work::call(|| {
            self.opening()?;
            let Ok(Some(opening)) = std::mem::replace(&mut self.inner, Ok(None)) else {
                return Err(spent()); // (just checked: never)
            };
            opening.finish().map(|inner| Session { inner }).map_err(|e| {
                self.inner = Err(e.clone());
                error(e)
            })
        })
    }
}

impl Opening {
    fn new(opening: engine::Opening) -> Opening {
        Opening { inner: Ok(Some(opening)) }
    }

    /// An opening that has given its session (what [`guard`](super::freed::guard) makes to
    /// reach the class).
    pub(super) fn given() -> Opening {
        Opening { inner: Ok(None) }
    }

    /// The opening, or why a spent or failed one gives nothing more.
    fn opening(&mut self) -> Result<&mut engine::Opening, JsValue> {
        match &mut self.inner {
            Ok(Some(opening)) => Ok(opening),
            Ok(None) => Err(spent()),
            Err(e) => Err(error(e.clone())),
        }
    }
}

fn spent() -> JsValue {
    super::bad_argument("this opening has already given its session".into())
}
