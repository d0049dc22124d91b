//! The playground's model: one object that owns the current placement and its settings, the
//! undo/redo history and the key sample, takes [`Change`]s and answers what to draw.
//!
//! Every view (the page, the `<hash-ring>` embed, a test) drives a [`Session`]: it applies a
//! change and gets a [`Transition`] (exactly what moved), then asks for a [`Scene`] (what the
//! circle shows), the node rows, the [`Capabilities`] (what the user may do next), hit tests
//! and follow-a-key. Nothing above it hashes, measures or knows an algorithm by name.
//!
//! ```
//! use ringlab::session::{Change, Session, Settings};
//! use ringlab::NodeSpec;
//!
//! let mut session = Session::new(Settings::default(), ["a", "b", "c"].map(NodeSpec::new))?;
//! let t = session.apply(Change::Add(NodeSpec::new("d")))?;
//! assert!(t.text.starts_with("Added d: moved"));
//! let exact = t.exact.as_ref().unwrap();
//! assert!(exact.arcs.iter().all(|arc| arc.to == "d"), "a join moves keys only onto the joiner");
//! session.undo().unwrap();
//! assert_eq!(session.nodes().len(), 3);
//! # Ok::<(), ringlab::Error>(())
//! ```

mod agreement;
mod charts;
mod frame;
mod import;
pub mod link;
mod scene;
mod transition;

pub use crate::import::{ConfigKind, CONFIG_KINDS};
pub use agreement::{AgreementView, KeyAnswers};
pub use charts::{SessionChart, CHART_KEYS};
pub use frame::{next_node_name, Frame, FrameError, FrameOptions, OptionControl, SettingsView};
pub use scene::{ArcHit, Capabilities, Follow, KeyHit, NodeRow, Scene, Stop};
pub use transition::{ExactMoves, MovedSpan, Movers, Transition};

use crate::algo::{Algorithm, Cluster, ClusterBuild, Layout, OptionSpec, OptionValue, Options, PointWalk, Scope};
use crate::cost::Workload;
use crate::keys::{for_each_generated_in, KeyList, KeySample};
use crate::{Config, Error, Hash, Node, NodeSpec, RingBits};
use std::collections::BTreeMap;
use std::collections::VecDeque;
use std::sync::Arc;

/// The prefix of the sample keys: `key:0`, `key:1`, ...
pub const KEY_PREFIX: &str = "key:";
/// The most sample keys a session draws and moves.
pub const MAX_KEYS: usize = crate::limits::MAX_SAMPLE_KEYS;
/// The largest Zipf exponent of the key popularity.
pub const MAX_ZIPF: f64 = 2.0;
/// Undo steps kept, and the most memory they may hold together; older steps are dropped.
pub use crate::limits::{MAX_FOLLOW_REPLICAS, MAX_SESSION_NODES};
pub use crate::limits::{MAX_UNDO_BYTES as MAX_HISTORY_BYTES, MAX_UNDO_STEPS as MAX_HISTORY};

/// What the user chose, apart from the nodes.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub algorithm: Algorithm,
    pub hash: Hash,
    pub bits: RingBits,
    /// Points per unit of weight (the `ring` and `bounded-load` algorithms).
    pub vnodes: u32,
    /// Sample keys drawn and moved.
    pub keys: usize,
    /// The preference list's length when following a key.
    pub replicas: usize,
    /// Popularity of the sample keys: key `k` is requested in proportion to `1 / (k + 1)^zipf`
    /// (0 = uniform, up to [`MAX_ZIPF`]).
    pub zipf: f64,
    /// The algorithm's own options by name (`tableSize`, `haproxyHash`; the ones its entry
    /// offers [`Scope::Everywhere`](crate::algo::Scope) beyond `hash`, `bits` and `vnodes`),
    /// where they differ from their defaults. Values of another algorithm's options are kept
    /// (switching back finds them) but not used.
    pub options: BTreeMap<&'static str, OptionValue>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            algorithm: crate::algo::DEFAULT,
            hash: Hash::Xxh3,
            bits: RingBits::B32,
            vnodes: 32,
            keys: 2000,
            replicas: 2,
            zipf: 0.0,
            options: BTreeMap::new(),
        }
    }
}

impl Settings {
    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), Error> {
        self.config().validate()?;
        if self.keys > MAX_KEYS {
            return Err(Error::TooLarge { what: "the key sample".into(), max: MAX_KEYS as u64, got: self.keys as u64 });
        }
        if !(self.zipf.is_finite() && (0.0..=MAX_ZIPF).contains(&self.zipf)) {
            return Err(Error::out_of_range(
                "zipf",
                self.zipf,
                (0.0, MAX_ZIPF),
                format!(
                    "the Zipf exponent must be between 0 and {} (got {})",
                    crate::decimal::shortest(MAX_ZIPF),
                    crate::decimal::shortest(self.zipf)
                ),
            ));
        }
        if !(1..=MAX_FOLLOW_REPLICAS).contains(&self.replicas) {
            return Err(Error::out_of_range(
                "replicas",
                self.replicas as f64,
                (1.0, MAX_FOLLOW_REPLICAS as f64),
                format!("replicas must be between 1 and {MAX_FOLLOW_REPLICAS} (got {})", self.replicas),
            ));
        }
        self.try_options().map(drop)
    }

    fn config(&self) -> Config {
        Config { hash: self.hash, bits: self.bits, vnodes: self.vnodes }
    }

    /// The algorithm's options: these settings, the algorithm's defaults for the rest, and
    /// the sample keys as the key set of an algorithm that places one (bounded loads).
    /// Settings that [`validate`](Settings::validate) refuses give their valid part.
    pub fn options(&self) -> Options {
        self.try_options().unwrap_or_else(|_| {
            let mut options = Options::new(self.algorithm);
            options.config = self.config();
            options
        })
    }

    fn try_options(&self) -> Result<Options, Error> {
        let mut options = Options::new(self.algorithm);
        options.config = self.config();
        for spec in own_options(self.algorithm) {
            if let Some(value) = self.options.get(spec.name) {
                options.set(spec.name, value.clone())?;
            }
        }
        if let Some(set_keys) = self.algorithm.entry().extras.places_keys {
            set_keys(&mut options, KeySample::generated(KEY_PREFIX, self.keys));
        }
        Ok(options)
    }

    /// The settings a placement was made with (an imported one, say), with the page's
    /// defaults for the sample.
    pub fn of(options: &Options) -> Settings {
        let own = own_options(options.algorithm).filter_map(|spec| {
            let value = (spec.get)(options)?;
            (Some(&value) != spec.kind.default_value().as_ref()).then_some((spec.name, value))
        });
        Settings {
            algorithm: options.algorithm,
            hash: options.config.hash,
            bits: options.config.bits,
            vnodes: options.config.vnodes,
            options: own.collect::<std::collections::BTreeMap<_, _>>(),
            ..Settings::default()
        }
    }

    /// The current algorithm's own option `name`: its value, or its default.
    pub fn option(&self, name: &str) -> Option<OptionValue> {
        let spec = own_options(self.algorithm).find(|s| s.name == name)?;
        self.options.get(spec.name).cloned().or_else(|| spec.kind.default_value())
    }
}

/// The options of `algorithm` a session offers beyond its own fields (`hash`, `bits`,
/// `vnodes`): the entry's options of [`Scope::Everywhere`](crate::algo::Scope).
pub fn own_options(algorithm: Algorithm) -> impl Iterator<Item = &'static OptionSpec> {
    const FIELDS: [&str; 3] = ["hash", "bits", "vnodes"];
    algorithm.entry().options.iter().copied().filter(|s| s.scope == Scope::Everywhere && !FIELDS.contains(&s.name))
}

/// The longest node list text [`parse_node_list`] reads, in bytes: the session's node cap of
/// names at their longest, with weights.
pub const MAX_NODE_LIST_BYTES: usize = MAX_SESSION_NODES * (crate::limits::MAX_NAME_LEN + 32);

/// A node list as a writer types it (the `<hash-ring>` element's `nodes` attribute):
/// `"cache-a, cache-b*2, cache-c@eu-1"`, names separated by commas (spaces around them
/// dropped), a weight after the last `*`, and a zone after the last `@` (last of all, as in
/// a share link). Names are text as written (no escapes); an empty item is skipped. A
/// weight is a decimal number (`2`, `0.5`, `.5`, `1e-3`); anything else (`x`, `0x10`,
/// `inf`) is an `invalid-weight` error.
///
/// ```
/// use ringlab::session::parse_node_list;
/// let nodes = parse_node_list(" a, b*2 ,, c*0.5@eu, d@us")?;
/// let got: Vec<(&str, f64, Option<&str>)> =
///     nodes.iter().map(|n| (n.name.as_str(), n.weight, n.zone.as_deref())).collect();
/// assert_eq!(got, [("a", 1.0, None), ("b", 2.0, None), ("c", 0.5, Some("eu")), ("d", 1.0, Some("us"))]);
/// assert_eq!(parse_node_list("a*x").unwrap_err().code(), "invalid-weight");
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn parse_node_list(text: &str) -> Result<Vec<NodeSpec>, Error> {
    crate::limits::check("a node list's bytes", text.len() as u64, MAX_NODE_LIST_BYTES as u64)?;
    let items: Vec<&str> = text.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    crate::limits::check("nodes", items.len() as u64, MAX_SESSION_NODES as u64)?;
    items
        .into_iter()
        .map(|item| {
            let (item, zone) = match item.rfind('@').filter(|&at| at > 0) {
                Some(at) => (item[..at].trim_end(), Some(item[at + 1..].trim()).filter(|z| !z.is_empty())),
                None => (item, None),
            };
            let spec = match item.rfind('*').filter(|&star| star > 0) {
                Some(star) => {
                    let weight = item[star + 1..].trim();
                    let value = crate::decimal::read(weight);
                    let value = value.ok_or_else(|| Error::WeightNotDecimal(weight.to_string()))?;
                    NodeSpec::new(item[..star].trim()).weight(value)
                }
                None => NodeSpec::new(item),
            };
            Ok(match zone {
                Some(zone) => spec.zone(zone),
                None => spec,
            })
        })
        .collect()
}

/// A change to the session's state.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    Add(NodeSpec),
    Remove(String),
    SetWeight {
        name: String,
        weight: f64,
    },
    /// Marks a node down (it stays, lookups fail over as the real system does) or up again.
    SetDown {
        name: String,
        down: bool,
    },
    /// New settings for the same nodes (the placement is made anew).
    Configure(Settings),
}

/// One state the user can return to.
#[derive(Clone, Debug)]
struct State {
    settings: Settings,
    cluster: Cluster,
    /// Each node's colour slot, kept while the node stays so its colour does not jump.
    colours: Vec<u32>,
}

impl State {
    /// The state of an existing placement (an imported config): at most
    /// [`MAX_SESSION_NODES`] nodes, as links hold.
    fn of_cluster(cluster: Cluster) -> Result<State, Error> {
        let nodes = cluster.nodes().len();
        crate::limits::check("nodes in a session", nodes as u64, MAX_SESSION_NODES as u64)?;
        let settings = Settings::of(cluster.options());
        Ok(State { settings, cluster, colours: (0..nodes as u32).collect() })
    }

    fn new(settings: Settings, nodes: Vec<NodeSpec>) -> Result<State, Error> {
        State::with_layout(settings, nodes, &Layout::default())
    }

    /// [`State::new`], with what `layout` holds for the algorithm (see [`Layout`]).
    fn with_layout(settings: Settings, nodes: Vec<NodeSpec>, layout: &Layout) -> Result<State, Error> {
        let build = State::building(&settings, nodes, layout)?;
        Ok(State::of(settings, build.finish()?))
    }

    /// The checks of [`State::with_layout`], and its cluster to build in steps.
    fn building(settings: &Settings, nodes: Vec<NodeSpec>, layout: &Layout) -> Result<ClusterBuild, Error> {
        settings.validate()?;
        if nodes.len() > MAX_SESSION_NODES {
            return Err(Error::TooLarge {
                what: "nodes".into(),
                max: MAX_SESSION_NODES as u64,
                got: nodes.len() as u64,
            });
        }
        Cluster::building(settings.options(), nodes, layout)
    }

    /// A new state: each node's colour is its index.
    fn of(settings: Settings, cluster: Cluster) -> State {
        let colours = (0..cluster.nodes().len() as u32).collect();
        State { settings, cluster, colours }
    }

    fn nodes(&self) -> &[Node] {
        self.cluster.nodes()
    }

    fn memory_bytes(&self) -> usize {
        self.cluster.memory_bytes() + self.colours.len() * 4
    }

    /// The state after `change`, and its label; `self` is untouched, so a failed change
    /// changes nothing.
    fn after(&self, change: &Change) -> Result<(State, String), Error> {
        let mut next = self.clone();
        let label = match change {
            Change::Add(spec) => {
                if self.nodes().len() >= MAX_SESSION_NODES {
                    return Err(Error::TooLarge {
                        what: "nodes".into(),
                        max: MAX_SESSION_NODES as u64,
                        got: self.nodes().len() as u64 + 1,
                    });
                }
                next.cluster.add(spec.clone())?;
                next.colours.push(lowest_free(&self.colours));
                format!("Added {}", spec.name)
            }
            Change::Remove(name) => {
                let index = crate::algo::index_of(self.nodes(), name)?;
                next.cluster.remove(name)?;
                next.colours.remove(index);
                format!("Removed {name}")
            }
            Change::SetWeight { name, weight } => {
                next.cluster.set_weight(name, *weight)?;
                // A leave-and-join moves the node to the end of the list: keep its colour.
                let colour = self.colours[crate::algo::index_of(self.nodes(), name)?];
                next.colours = next
                    .nodes()
                    .iter()
                    .map(|n| if n.name == *name { colour } else { self.colour_of(&n.name).unwrap_or(colour) })
                    .collect();
                format!("Set {name}'s weight to {weight}")
            }
            Change::SetDown { name, down } => {
                next.cluster.set_down(name, *down)?;
                format!("Marked {name} {}", if *down { "down" } else { "up" })
            }
            Change::Configure(settings) => {
                let specs = self.nodes().iter().map(Node::spec).collect();
                // The placement's layout is the cluster's own state (an import, a
                // rebalance), which no setting changes: it stays.
                next = State::with_layout(settings.clone(), specs, &self.cluster.layout())?;
                next.colours.clone_from(&self.colours);
                // Down nodes stay down in the new placement.
                for name in self.down_nodes() {
                    next.cluster.set_down(&name, true)?;
                }
                configure_label(&self.settings, settings)
            }
        };
        Ok((next, label))
    }

    fn down_nodes(&self) -> Vec<String> {
        let nodes = self.nodes().iter().enumerate();
        nodes.filter(|&(i, _)| self.cluster.is_down_at(i)).map(|(_, n)| n.name.clone()).collect()
    }

    fn colour_of(&self, name: &str) -> Option<u32> {
        self.nodes().iter().position(|n| n.name == name).map(|i| self.colours[i])
    }
}

/// The smallest colour slot no node has.
fn lowest_free(taken: &[u32]) -> u32 {
    (0..).find(|c| !taken.contains(c)).unwrap_or(0)
}

fn configure_label(old: &Settings, new: &Settings) -> String {
    if old.algorithm != new.algorithm {
        format!("Switched to {}", new.algorithm.name())
    } else if old.hash != new.hash {
        format!("Hash {}", new.hash.name())
    } else if old.bits != new.bits {
        format!("{}-bit ring", new.bits.bits())
    } else if old.vnodes != new.vnodes {
        format!("{} vnodes per node", new.vnodes)
    } else if old.keys != new.keys {
        format!("{} sample keys", new.keys)
    } else if old.zipf != new.zipf {
        format!("Key popularity Zipf s = {}", new.zipf)
    } else if old.replicas != new.replicas {
        format!("{} replicas", new.replicas)
    } else if let Some(spec) = own_options(new.algorithm).find(|s| old.option(s.name) != new.option(s.name)) {
        format!("{} {}", spec.name, new.option(spec.name).map_or_else(|| "unset".to_string(), |v| v.text()))
    } else {
        "Same settings".to_string()
    }
}

/// A past or undone state, with the label of the change that left it.
#[derive(Clone, Debug)]
struct Step {
    state: State,
    label: String,
}

impl Step {
    /// A state for the history, without the points it kept only for drawing (6 MB at the
    /// caps; undo lays them out again).
    fn new(mut state: State, label: String) -> Step {
        state.cluster.forget_circle_points();
        Step { state, label }
    }
}

/// The owner of a key that has none while a node is down (e.g. a failed Redis master's slot):
/// the engine's one sentinel, which `Ring.keyOwners` answers too.
pub use crate::algo::NO_OWNER;

/// The sample keys' positions, owners ([`NO_OWNER`] for unavailable keys) and share of the
/// traffic on the current state.
#[derive(Clone, Debug, Default)]
struct KeyCache {
    positions: Vec<f64>,
    owners: Vec<u32>,
    /// Each key's share of the requests (they add up to 1).
    traffic: Vec<f64>,
}

/// Key `k`'s share of requests under Zipf popularity `1 / (k + 1)^s`, for `count` keys. `libm`'s
/// `pow` gives the same bits natively and in wasm.
fn zipf_traffic(count: usize, s: f64) -> Vec<f64> {
    if s == 0.0 {
        return uniform_traffic(count);
    }
    let raw: Vec<f64> = (0..count).map(|k| libm::pow((k + 1) as f64, -s)).collect();
    let total: f64 = raw.iter().sum();
    raw.into_iter().map(|w| w / total).collect()
}

/// Every key equally popular (Zipf s = 0), as [`zipf_traffic`] weighs them: 1 / `count` of
/// the requests each.
fn uniform_traffic(count: usize) -> Vec<f64> {
    vec![1.0 / count as f64; count]
}

impl KeyCache {
    /// The sample on `cluster`: the user's key list when there is one (its counts weigh the
    /// traffic), else `key:0 ..` with the settings' count and Zipf popularity.
    /// Refused past [`MAX_SAMPLE_WORK`](crate::limits::MAX_SAMPLE_WORK).
    fn of(cluster: &Cluster, settings: &Settings, list: Option<&KeyList>) -> Result<KeyCache, Error> {
        let mut cache = KeyCache::unplaced(cluster, settings, list)?;
        match list {
            Some(l) if !cluster.nodes().is_empty() => l.keys.iter().for_each(|k| cache.place(cluster, k.as_bytes())),
            Some(_) => {}
            None => _ = cache.place_generated(cluster, usize::MAX),
        }
        Ok(cache)
    }

    /// The sample's traffic, and none of its keys placed yet (after the same check as
    /// [`KeyCache::of`]).
    fn unplaced(cluster: &Cluster, settings: &Settings, list: Option<&KeyList>) -> Result<KeyCache, Error> {
        if cluster.nodes().is_empty() {
            return Ok(KeyCache::default());
        }
        let count = list.map_or(settings.keys, |l| l.keys.len());
        cluster.check_sample(count)?;
        let traffic = match list {
            Some(l) => {
                let total = l.total_count().max(1) as f64;
                l.counts.iter().map(|&c| c as f64 / total).collect()
            }
            None => zipf_traffic(count, settings.zipf),
        };
        Ok(KeyCache { positions: Vec::with_capacity(count), owners: Vec::with_capacity(count), traffic })
    }

    fn place(&mut self, cluster: &Cluster, key: &[u8]) {
        self.positions.push(cluster.key_fraction(key));
        // Not empty: a lookup fails only for a key with no owner while a node is down.
        self.owners.push(cluster.key_owner(key));
    }

    /// Places up to `most` more of the generated keys (`key:0 ..`); answers whether all are.
    fn place_generated(&mut self, cluster: &Cluster, most: usize) -> bool {
        let (from, count) = (self.positions.len(), self.traffic.len());
        let to = count.min(from.saturating_add(most.max(1)));
        for_each_generated_in(KEY_PREFIX, from..to, |_, key| self.place(cluster, key));
        to == count
    }
}

/// A session being opened from a share link in steps ([`Session::opening`]): the cluster
/// built, its down marks set, the sample placed, its shares counted and its points laid out
/// for drawing, each step at most
/// [`OPEN_STEP_WORK`](crate::limits::OPEN_STEP_WORK) units of work (points hashed or sorted,
/// or key lookups by their cost). Whatever the steps, the session is `from_link`'s.
#[derive(Debug)]
pub struct Opening {
    /// Until the cluster is built.
    settings: Option<Settings>,
    /// The nodes to mark down, the last first.
    down: Vec<String>,
    workload: Option<Workload>,
    /// The key the link follows.
    follow: Option<String>,
    stage: Stage,
}

#[derive(Debug)]
enum Stage {
    Build(ClusterBuild),
    Down(State),
    Keys(State, KeyCache),
    /// The exact shares and the points as the first frame draws them: one pass over the
    /// points, in pieces.
    Points(Box<Session>, PointWalk),
    Ready(Box<Session>),
    /// After a step failed: the opening answers that error again.
    Failed(Error),
}

impl Opening {
    /// One step of the opening; answers whether the session is ready
    /// ([`finish`](Opening::finish) then costs nothing). A failed step fails the opening.
    pub fn step(&mut self) -> Result<bool, Error> {
        self.step_by(crate::limits::OPEN_STEP_WORK)
    }

    fn step_by(&mut self, budget: usize) -> Result<bool, Error> {
        let stage = std::mem::replace(
            &mut self.stage,
            Stage::Failed(Error::Unsupported("an opening that stopped midway".into())),
        );
        self.stage = match self.advance(stage, budget) {
            Ok(stage) => stage,
            Err(e) => Stage::Failed(e),
        };
        match &self.stage {
            Stage::Failed(e) => Err(e.clone()),
            stage => Ok(matches!(stage, Stage::Ready(_))),
        }
    }

    fn advance(&mut self, stage: Stage, budget: usize) -> Result<Stage, Error> {
        Ok(match stage {
            Stage::Build(mut build) => {
                if !build.step(budget)? {
                    return Ok(Stage::Build(build));
                }
                let settings = self.settings.take().expect("the settings wait for the cluster");
                self.down.reverse();
                Stage::Down(State::of(settings, build.finish()?))
            }
            // One node a step: marking one down is a pass over the points.
            Stage::Down(mut state) => match self.down.pop() {
                Some(name) => {
                    state.cluster.set_down(&name, true)?;
                    Stage::Down(state)
                }
                // The sample is placed once, on the state with its down marks.
                None => {
                    let keys = KeyCache::unplaced(&state.cluster, &state.settings, None)?;
                    Stage::Keys(state, keys)
                }
            },
            Stage::Keys(state, mut keys) => {
                let lookups = budget / state.cluster.lookup_cost().max(1) as usize;
                if !keys.place_generated(&state.cluster, lookups) {
                    return Ok(Stage::Keys(state, keys));
                }
                let mut session = Session::with_keys(state, keys);
                session.workload = self.workload.take();
                session.linked_key = self.follow.take();
                Stage::Points(Box::new(session), PointWalk::default())
            }
            // Counted once per state and kept: the first frame does not count them.
            Stage::Points(session, mut walk) => {
                let most = budget.saturating_mul(crate::limits::OPEN_WALK_PER_WORK);
                match session.cluster().walk_points(&mut walk, most) {
                    true => Stage::Ready(session),
                    false => Stage::Points(session, walk),
                }
            }
            ready @ (Stage::Ready(_) | Stage::Failed(_)) => ready,
        })
    }

    /// The points walked so far, while the shares are counted and the circle laid out.
    #[cfg(test)]
    fn walked(&self) -> Option<usize> {
        match &self.stage {
            Stage::Points(_, walk) => Some(walk.walked()),
            _ => None,
        }
    }

    /// The session, after whatever steps are left (taken whole: one sort of the points
    /// rather than runs merged).
    pub fn finish(mut self) -> Result<Session, Error> {
        while !self.step_by(usize::MAX)? {}
        match self.stage {
            Stage::Ready(session) => Ok(*session),
            _ => unreachable!("a step answered ready"),
        }
    }
}

/// An undo or redo refused because the keys in use are too many for that state.
fn cannot(verb: &str, e: Error) -> Error {
    match e {
        Error::TooLarge { what, max, got } => {
            Error::TooLarge { what: format!("cannot {verb} with these keys: {what}"), max, got }
        }
        e => e,
    }
}

/// The playground's state, history and key sample. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Session {
    state: State,
    past: VecDeque<Step>,
    future: Vec<Step>,
    keys: KeyCache,
    /// The user's own keys, used instead of `key:0 ..` when given (not part of undo, nor of
    /// links: they stay on the user's machine).
    key_list: Option<Arc<KeyList>>,
    /// A key list being read piece by piece (`begin_keys` .. `end_keys`).
    pending_keys: Option<crate::keys::KeyListBuilder>,
    /// The tier's size and load, for what a change costs (`None`: not reported).
    workload: Option<Workload>,
    /// Whether transitions also show the change under `hash % N`.
    compare_modulo: bool,
    /// The key the link this session was opened from follows (not part of undo).
    linked_key: Option<String>,
    /// Chart data being computed in pieces for the current state.
    charts: charts::ChartJobs,
}

/// The playground's default nodes, as a node list ([`parse_node_list`]): those of
/// [`Session::playground`].
pub const PLAYGROUND_NODES: &str = "node-1, node-2, node-3, node-4, node-5";

/// [`PLAYGROUND_NODES`], each of weight 1 in no zone.
pub fn playground_nodes() -> Vec<NodeSpec> {
    PLAYGROUND_NODES.split(',').map(|name| NodeSpec::new(name.trim())).collect()
}

impl Session {
    /// A session with `nodes` under `settings`.
    pub fn new<I>(settings: Settings, nodes: I) -> Result<Session, Error>
    where
        I: IntoIterator,
        I::Item: Into<NodeSpec>,
    {
        Session::of_state(State::new(settings, nodes.into_iter().map(Into::into).collect())?)
    }

    /// A session at `state`, with no history and the generated sample.
    fn of_state(state: State) -> Result<Session, Error> {
        let keys = KeyCache::of(&state.cluster, &state.settings, None)?;
        Ok(Session::with_keys(state, keys))
    }

    /// A session at `state` with its sample placed, and no history.
    fn with_keys(state: State, keys: KeyCache) -> Session {
        Session {
            state,
            past: VecDeque::new(),
            future: Vec::new(),
            keys,
            key_list: None,
            pending_keys: None,
            workload: None,
            compare_modulo: false,
            linked_key: None,
            charts: charts::ChartJobs::default(),
        }
    }

    /// A session around an existing placement (an imported config), with the page's sample.
    /// A session holds at most [`MAX_SESSION_NODES`] nodes, as its links do.
    pub fn from_cluster(cluster: Cluster) -> Result<Session, Error> {
        Session::of_state(State::of_cluster(cluster)?)
    }

    /// The session a share link describes (see [`link`]).
    pub fn from_link(text: &str) -> Result<Session, Error> {
        Session::opening(text)?.finish()
    }

    /// [`Session::from_link`] in steps of bounded work ([`Opening::step`]), so that a page
    /// opening a link at the caps never blocks for the whole build.
    pub fn opening(text: &str) -> Result<Opening, Error> {
        let link::Decoded { settings, nodes, down, workload, layout, follow } = link::decode_with_down(text)?;
        let build = State::building(&settings, nodes, &layout)?;
        Ok(Opening { settings: Some(settings), down, workload, follow, stage: Stage::Build(build) })
    }

    /// The share link of the current state; [`from_link`](Session::from_link) reopens it.
    pub fn link(&self) -> String {
        self.link_following(None)
    }

    /// [`link`](Session::link), following `key` ([`linked_key`](Session::linked_key) when
    /// reopened): a key over [`MAX_KEY_LEN`](crate::limits::MAX_KEY_LEN) bytes is left out,
    /// as the page cannot follow it either.
    pub fn link_following(&self, key: Option<&str>) -> String {
        let specs: Vec<NodeSpec> = self.nodes().iter().map(Node::spec).collect();
        let mut out = link::encode_with_down(
            self.settings(),
            &specs,
            &self.state.down_nodes(),
            self.workload.as_ref(),
            &self.cluster().layout(),
        );
        if let Some(key) = key.filter(|k| k.len() <= crate::limits::MAX_KEY_LEN) {
            link::push_follow(&mut out, key);
        }
        out
    }

    /// The key followed in the link this session was opened from, if it follows one.
    pub fn linked_key(&self) -> Option<&str> {
        self.linked_key.as_deref()
    }

    /// The page's first state: five nodes on ringlab's ring.
    pub fn playground() -> Session {
        // The defaults are within every range.
        Session::new(Settings::default(), playground_nodes())
            .unwrap_or_else(|_| unreachable!("the default session is valid"))
    }

    pub fn settings(&self) -> &Settings {
        &self.state.settings
    }

    pub fn cluster(&self) -> &Cluster {
        &self.state.cluster
    }

    pub fn nodes(&self) -> &[Node] {
        self.state.nodes()
    }

    /// Applies `change`: the new state and exactly what moved. On error nothing changes.
    pub fn apply(&mut self, change: Change) -> Result<Transition, Error> {
        let (next, label) = self.state.after(&change)?;
        let keys = self.cache_of(&next)?;
        let transition = self.transition(&self.state, &self.keys, &next, &keys, label.clone());
        Ok(self.advance(next, keys, label, transition))
    }

    /// Moves to `next` as one step of the history, labelled `label`.
    fn advance(&mut self, next: State, keys: KeyCache, label: String, transition: Transition) -> Transition {
        let before = std::mem::replace(&mut self.state, next);
        self.keys = keys;
        self.charts = charts::ChartJobs::default();
        self.future.clear();
        self.past.push_back(Step::new(before, label));
        self.trim_history();
        transition
    }

    /// The sample on a state: the key list or the generated keys.
    fn cache_of(&self, state: &State) -> Result<KeyCache, Error> {
        KeyCache::of(&state.cluster, &state.settings, self.key_list.as_deref())
    }

    /// Uses the user's own keys (`None`: back to `key:0 ..`): ownership, per-node counts and
    /// traffic, and what each change moves are then counted on them. A list that fails
    /// [`KeyList::check`], or too large for this state's algorithm
    /// ([`MAX_SAMPLE_WORK`](crate::limits::MAX_SAMPLE_WORK)), is refused and nothing changes.
    pub fn use_key_list(&mut self, list: Option<KeyList>) -> Result<(), Error> {
        if let Some(list) = &list {
            list.check()?;
        }
        self.use_checked_list(list)
    }

    /// [`use_key_list`](Session::use_key_list) of a list known to pass `KeyList::check`.
    fn use_checked_list(&mut self, list: Option<KeyList>) -> Result<(), Error> {
        let keys = KeyCache::of(&self.state.cluster, &self.state.settings, list.as_ref())?;
        self.key_list = list.map(Arc::new);
        self.keys = keys;
        Ok(())
    }

    /// Starts reading a key list piece by piece (a million keys in several short calls).
    pub fn begin_keys(&mut self) {
        self.pending_keys = Some(crate::keys::KeyListBuilder::new());
    }

    /// Reads the next piece (whole lines) of the key list begun with `begin_keys`. On error
    /// the pending list is dropped and the keys in use stay as they were.
    pub fn push_keys(&mut self, text: &str) -> Result<(), Error> {
        let builder = self
            .pending_keys
            .as_mut()
            .ok_or_else(|| Error::Unsupported("no key list is being read: call begin_keys first".into()))?;
        builder.push(text).inspect_err(|_| self.pending_keys = None)
    }

    /// Uses the key list read since `begin_keys`.
    pub fn end_keys(&mut self) -> Result<&KeyList, Error> {
        let builder = self
            .pending_keys
            .take()
            .ok_or_else(|| Error::Unsupported("no key list is being read: call begin_keys first".into()))?;
        // The builder's rules are `KeyList::check`'s.
        self.use_checked_list(Some(builder.finish()))?;
        self.key_list().ok_or_else(|| Error::Unsupported("the key list was not kept".into()))
    }

    /// The user's key list, if one is in use.
    pub fn key_list(&self) -> Option<&KeyList> {
        self.key_list.as_deref()
    }

    /// The name of sample key `index` (from the key list, or `key:{index}`).
    pub fn key_name(&self, index: usize) -> Option<String> {
        match &self.key_list {
            Some(l) => l.keys.get(index).cloned(),
            None => (index < self.keys.owners.len()).then(|| format!("{KEY_PREFIX}{index}")),
        }
    }

    /// Sets the tier's size and load (`None`: costs are not reported). Every later transition
    /// reports what the change costs in items, bytes and misses, beside `hash % N`.
    pub fn set_workload(&mut self, workload: Option<Workload>) -> Result<(), Error> {
        if let Some(w) = &workload {
            w.validate()?;
        }
        self.workload = workload;
        Ok(())
    }

    pub fn workload(&self) -> Option<&Workload> {
        self.workload.as_ref()
    }

    /// Goes back one step: what moved on the way back, or `None` with nothing to undo.
    /// An error (the key sample too large for that state, after a key list was loaded) changes
    /// nothing.
    pub fn undo(&mut self) -> Result<Option<Transition>, Error> {
        let Some(step) = self.past.back() else { return Ok(None) };
        let keys = self.cache_of(&step.state).map_err(|e| cannot("undo", e))?;
        let step = self.past.pop_back().unwrap_or_else(|| unreachable!("looked at just above"));
        Ok(Some(self.restore(step, keys, "Undid", true)))
    }

    /// Goes forward one undone step, or `None` with nothing to redo. On error, as
    /// [`undo`](Session::undo).
    pub fn redo(&mut self) -> Result<Option<Transition>, Error> {
        let Some(step) = self.future.last() else { return Ok(None) };
        let keys = self.cache_of(&step.state).map_err(|e| cannot("redo", e))?;
        let step = self.future.pop().unwrap_or_else(|| unreachable!("looked at just above"));
        Ok(Some(self.restore(step, keys, "Redid", false)))
    }

    fn restore(&mut self, step: Step, keys: KeyCache, verb: &str, undoing: bool) -> Transition {
        let transition =
            self.transition(&self.state, &self.keys, &step.state, &keys, format!("{verb}: {}", step.label));
        let current = std::mem::replace(&mut self.state, step.state);
        self.keys = keys;
        self.charts = charts::ChartJobs::default();
        let back = Step::new(current, step.label);
        if undoing {
            self.future.push(back);
        } else {
            self.past.push_back(back);
        }
        transition
    }

    /// The label of the step [`undo`](Session::undo) would take back, and of the one
    /// [`redo`](Session::redo) would replay.
    pub fn history_labels(&self) -> (Option<&str>, Option<&str>) {
        (self.past.back().map(|s| s.label.as_str()), self.future.last().map(|s| s.label.as_str()))
    }

    /// Drops the oldest steps beyond [`MAX_HISTORY`] steps or [`MAX_HISTORY_BYTES`] bytes.
    fn trim_history(&mut self) {
        let mut bytes: usize = self.past.iter().map(|s| s.state.memory_bytes()).sum();
        while self.past.len() > MAX_HISTORY || (bytes > MAX_HISTORY_BYTES && !self.past.is_empty()) {
            if let Some(old) = self.past.pop_front() {
                bytes -= old.state.memory_bytes();
            }
        }
    }

    /// Whether transitions also replay the change under `hash % N` (its movers are drawn).
    pub fn set_compare_modulo(&mut self, on: bool) {
        self.compare_modulo = on;
    }

    /// The last change described again (e.g. after switching the `hash % N` comparison),
    /// or `None` with no change to describe.
    pub fn last_change(&self) -> Result<Option<Transition>, Error> {
        let Some(step) = self.past.back() else { return Ok(None) };
        let keys = self.cache_of(&step.state)?;
        Ok(Some(self.transition(&step.state, &keys, &self.state, &self.keys, format!("{} (replayed)", step.label))))
    }

    /// The bytes the session holds: its state and its history.
    pub fn memory_bytes(&self) -> usize {
        let steps = self.past.iter().chain(&self.future).map(|s| s.state.memory_bytes()).sum::<usize>();
        self.state.memory_bytes() + steps + self.keys.positions.len() * 12
    }
}

#[cfg(test)]
mod tests;
