//! An algorithm's entry: everything the engine knows about one algorithm, declared in that
//! algorithm's own file (`ENTRY`), and listed once in the [catalog](super::catalog).
//!
//! Every question about an algorithm (what it supports, its options, its key space, its
//! words, what a down node means, which node may leave, which weights it takes, how it is
//! built) is answered by its entry, so a new algorithm is one new file and one catalog line.
//! The fields have no defaults: an entry that forgets one does not compile.
//!
//! ```
//! use ringlab::algo::{Algorithm, Leaving};
//! let jump = Algorithm::Jump.entry();
//! assert_eq!(jump.name, "jump");
//! assert!(matches!(jump.leaving, Leaving::LastOnly(_)));
//! assert_eq!(jump.leaving.leaver(5), 4, "jump hash can only lose its last bucket");
//! assert!(!Algorithm::Jump.weighted());
//! ```

use super::about::KeySpace;
use super::down::DownRule;
pub use super::down::OnDown;
use super::options::OptionSpec;
use super::{Algorithm, Layout, Options, Placement};
use crate::keys::KeySample;
use crate::{Error, NodeSpec};

/// How an entry builds its placement: from its options, the nodes in order (the "create"
/// moment) and a [`Layout`], where it is the one its entry declares (any other is ignored).
#[derive(Clone, Copy)]
pub enum Build {
    /// In one call.
    Whole(WholeBuild),
    /// In steps of bounded work (a build that can take long at the caps): the checks in the
    /// call, the work in the [`Building`]'s steps.
    Staged(StagedBuild),
}

/// [`Build::Whole`]'s function.
pub type WholeBuild = fn(&Options, Vec<NodeSpec>, &Layout) -> Result<Box<dyn Placement>, Error>;
/// [`Build::Staged`]'s function.
pub type StagedBuild = fn(&Options, Vec<NodeSpec>, &Layout) -> Result<Box<dyn Building>, Error>;

/// A placement being built in steps (see [`Build::Staged`]).
///
/// Not `Debug` itself: a supertrait would put every build's derived `Debug` (its nodes'
/// weights formatted as floats) into each wasm module that builds one, such as the element's
/// figures, which never print it.
pub trait Building {
    /// About `budget` units of work (points hashed or sorted, say), at least one; answers
    /// whether the placement is built. After an error the build is spent.
    fn step(&mut self, budget: usize) -> Result<bool, Error>;
    /// The placement, after whatever steps are left.
    fn finish(self: Box<Self>) -> Result<Box<dyn Placement>, Error>;
}

impl std::fmt::Debug for dyn Building {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Building")
    }
}

/// Everything about one algorithm.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Its option name: `ring`, `libketama`, `nginx-consistent`.
    pub name: &'static str,
    /// What a picker calls it: "libketama (last.fm)".
    pub label: &'static str,
    pub family: Family,
    /// What the engine reproduces, and from which source.
    pub source: &'static str,
    /// Its options, each declared where it is read (the shared `hash`, `bits` and `vnodes`
    /// included where they apply).
    pub options: &'static [&'static OptionSpec],
    pub weights: Weights,
    /// Whether its placement is a circle of points (exact arcs, shares and migrations).
    pub arcs: bool,
    /// Whether a key has a preference list of distinct nodes (replicas).
    pub replicas: bool,
    /// The positions its circle shows.
    pub key_space: fn(&Options) -> KeySpace,
    /// One line on what its circle shows, with the actual parameters.
    pub describe: fn(&Options) -> String,
    /// What its real clients do with a down node.
    pub on_down: OnDown,
    /// What a client that has not yet seen a change gets, in its real system.
    pub on_stale: OnStale,
    pub leaving: Leaving,
    /// What only a few algorithms have ([`Extras::NONE`] for the others).
    pub extras: Extras,
}

/// The facts only a few algorithms have.
#[derive(Clone, Copy, Debug)]
pub struct Extras {
    /// How it takes a key set to place, where it places a given one: a session gives it its
    /// sample, a comparison its keys.
    pub places_keys: Option<fn(&mut Options, KeySample)>,
    /// The algorithm this one bounds, whose hottest node the session's summary shows beside,
    /// and its name in that sentence (bounded loads over "the plain ring").
    pub refines: Option<(Algorithm, &'static str)>,
    /// Its placement's own arrangement of the nodes, which a share link carries and a change
    /// of settings keeps, if it has one.
    pub layout: Option<&'static LayoutSpec>,
    /// The memcached server list syntax its real client reads (`import::memcached`), if any.
    pub server_list: Option<ServerList>,
    /// How it turns a key and a server list into a server, step by step, for explaining why
    /// two clients of one pool disagree ([`agreement`](super::agreement)).
    pub recipe: Option<&'static Recipe>,
}

impl Extras {
    /// None of them.
    pub const NONE: Extras = Extras { places_keys: None, refines: None, layout: None, server_list: None, recipe: None };
}

/// The steps by which a client of a server pool picks a key's server, each in words. Two
/// clients whose step reads differently place keys differently for that reason: the words
/// are the explanation [`agreement`](super::agreement) gives, so clients that take a step
/// the same way share the same words (the constants below).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recipe {
    /// What of each server is hashed, or that none is (`hash % n`).
    pub server_label: &'static str,
    /// How many points each server gets, and how weights change that.
    pub points: &'static str,
    /// How a key becomes a number.
    pub key_hash: &'static str,
    /// Which point (or score, or bucket) answers.
    pub pick: &'static str,
    /// Whether the order of the server list matters.
    pub order: &'static str,
}

impl Recipe {
    /// The steps' names, in the order [`Recipe::steps`] gives them.
    pub const STEPS: [&'static str; 5] = ["server label", "points", "key hash", "pick", "server order"];

    /// The steps, by name.
    pub fn steps(&self) -> [(&'static str, &'static str); 5] {
        let values = [self.server_label, self.points, self.key_hash, self.pick, self.order];
        std::array::from_fn(|i| (Recipe::STEPS[i], values[i]))
    }
}

/// Words several recipes share (two clients that agree on a step say it the same way).
pub(crate) mod recipe {
    pub(crate) const MD5_WORD0: &str = "MD5 of the key, its first 4 bytes little-endian";
    pub(crate) const FIRST_AT_OR_AFTER: &str = "the first point at or after the key, wrapping";
    pub(crate) const LAST_AT_OR_BEFORE: &str = "the last point at or before the key, wrapping to the last";
    pub(crate) const FIRST_AFTER: &str = "the first point strictly after the key, wrapping";
    pub(crate) const ORDER_FREE: &str = "does not matter (points depend on the names only)";
    pub(crate) const ORDER_TIES: &str = "decides only ties of equal points";
    pub(crate) const ORDER_MODULO: &str = "decides everything: the list's positions are the buckets";
    pub(crate) const NO_LABEL: &str = "none: servers are not hashed, only counted";
    pub(crate) const LABEL_WITHOUT_DEFAULT_PORT: &str = "\"host-i\" when the port is 11211, else \"host:port-i\"";
}

/// A kind of algorithm, for grouping in pickers and tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// ringlab's own ring.
    Ringlab,
    /// A cache client library, reproduced bit for bit.
    Client,
    /// A data store's own placement, reproduced bit for bit.
    Store,
    /// A load balancer's hash, reproduced bit for bit.
    Balancer,
    /// A published algorithm, from its paper.
    Paper,
    /// `hash % N`, the baseline.
    Baseline,
}

impl Family {
    /// Every family, ringlab's own first.
    pub const ALL: [Family; 6] =
        [Family::Ringlab, Family::Client, Family::Store, Family::Balancer, Family::Paper, Family::Baseline];

    /// In words, for a picker's group.
    pub fn label(self) -> &'static str {
        match self {
            Family::Ringlab => "ringlab",
            Family::Client => "cache clients",
            Family::Store => "data stores",
            Family::Balancer => "load balancers",
            Family::Paper => "published algorithms",
            Family::Baseline => "baseline",
        }
    }
}

/// Which weights an algorithm takes.
#[derive(Clone, Copy, Debug)]
pub enum Weights {
    /// Any positive finite weight changes its share.
    Any,
    /// Only weight 1: the algorithm has no weights.
    One,
    /// Weights, within limits of its own (the check says which).
    Checked(fn(f64) -> Result<(), Error>),
}

impl Weights {
    /// Checks a new node's weight (after the common check that it is positive and finite).
    pub fn check(self, algorithm: Algorithm, weight: f64) -> Result<(), Error> {
        crate::node::check_weight(weight)?;
        match self {
            Weights::Any => Ok(()),
            Weights::One if weight == 1.0 => Ok(()),
            Weights::One => Err(Error::weight_refused(
                weight,
                format!("{} has no weights: every node has weight 1", algorithm.name()),
            )),
            Weights::Checked(check) => check(weight),
        }
    }
}

/// What a client with a stale ring (one that has not yet adopted a change) gets, in the
/// algorithm's real system, in words naming the behaviour and its source.
#[derive(Clone, Copy, Debug)]
pub enum OnStale {
    /// Client-side hashing (memcached clients, a library): a stale client sends a moved key
    /// to its old owner: a read misses there or returns a value the new owner has replaced,
    /// and a write leaves two copies that disagree.
    ClientSide(&'static str),
    /// The server redirects (Redis Cluster's `-MOVED`, `-ASK` during a migration): one extra
    /// hop; a client that refreshes on a redirect adopts the new map.
    Redirect(&'static str),
    /// A proxy tier (Envoy, nginx, HAProxy, Maglev): each proxy routes by its own copy; a
    /// stale proxy sends a moved key to the old backend.
    Proxy(&'static str),
    /// A coordinator routes (Cassandra): a stale driver picks a coordinator that does not own
    /// the key, which forwards it: an extra hop, never an error.
    Coordinator(&'static str),
}

impl OnStale {
    /// `client-side`, `redirect`, `proxy` or `coordinator`.
    pub fn kind(self) -> &'static str {
        match self {
            OnStale::ClientSide(_) => "client-side",
            OnStale::Redirect(_) => "redirect",
            OnStale::Proxy(_) => "proxy",
            OnStale::Coordinator(_) => "coordinator",
        }
    }

    /// In words.
    pub fn text(self) -> &'static str {
        match self {
            OnStale::ClientSide(t) | OnStale::Redirect(t) | OnStale::Proxy(t) | OnStale::Coordinator(t) => t,
        }
    }
}

/// Which nodes may leave.
#[derive(Clone, Copy, Debug)]
pub enum Leaving {
    /// Any node.
    Any,
    /// Only the last one added; the words say why.
    LastOnly(&'static str),
}

impl Leaving {
    /// Why node `index` of `count` cannot leave, if it cannot.
    pub fn refusal(self, index: usize, count: usize) -> Option<&'static str> {
        match self {
            Leaving::Any => None,
            Leaving::LastOnly(why) => (index + 1 != count).then_some(why),
        }
    }

    /// The node a comparison takes out of `count` (at least 1): the middle one, or the
    /// last where only the last may leave.
    pub fn leaver(self, count: usize) -> usize {
        match self {
            Leaving::Any => count / 2,
            Leaving::LastOnly(_) => count.saturating_sub(1),
        }
    }

    /// "the middle" or "the last", for a chart's subtitle.
    pub fn leaver_words(self) -> &'static str {
        match self {
            Leaving::Any => "the middle",
            Leaving::LastOnly(_) => "the last",
        }
    }
}

/// How a client reads a memcached server list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerList {
    /// libketama's server file: `host:port weight` a line, read as `ketama.c` reads it.
    Libketama,
    /// libmemcached's servers, one a line (`host:port [weight]`).
    Libmemcached,
}

/// A placement's own arrangement of its nodes, which neither its options nor its nodes
/// determine (an import's, or where a rebalance left it), declared by the entry whose
/// placement keeps one. The placement writes it one text a node
/// ([`Placement::layout`]); a [`Layout`] carries it through a share
/// link and a change of settings, and the entry's build reads it back.
#[derive(Clone, Copy, Debug)]
pub struct LayoutSpec {
    /// Its field in a share link: the nodes' texts in node order, separated by `,` (each is
    /// made of characters a link keeps as they are, never `,`).
    pub key: &'static str,
    /// What it is, in a refusal: `slot ranges`.
    pub what: &'static str,
    /// Checks one node's text as a link gives it; the error says what is wrong with it.
    pub check: fn(&str) -> Result<(), String>,
    /// For a layout that gives each position of a small key space to a node: the texts of
    /// the layout in which position `p` belongs to node `owners[p]` (of `nodes` nodes;
    /// `None`: to nobody). A change is then staged by moving positions in batches
    /// ([`plan::stages`](crate::plan::stages)).
    pub of_owners: Option<OfOwners>,
}

/// [`LayoutSpec::of_owners`]: the owner of each position (a node's index, `None`: nobody) and
/// the number of nodes, to each node's text.
pub type OfOwners = fn(owners: &[Option<usize>], nodes: usize) -> Vec<String>;

impl Entry {
    /// Whether the `hash` option changes the placement.
    pub fn uses_hash(&self) -> bool {
        self.uses(&super::options::HASH)
    }

    /// Whether the `vnodes` option changes the placement.
    pub fn uses_vnodes(&self) -> bool {
        self.uses(&super::options::VNODES)
    }

    /// Whether node weights change the placement (otherwise only weight 1 is accepted).
    pub fn weighted(&self) -> bool {
        !matches!(self.weights, Weights::One)
    }

    fn uses(&self, spec: &OptionSpec) -> bool {
        self.options.iter().any(|o| o.name == spec.name)
    }
}

/// An entry as the page and `catalog()` show it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EntryView {
    pub name: &'static str,
    pub label: &'static str,
    pub family: Family,
    pub family_label: &'static str,
    pub source: &'static str,
    pub weighted: bool,
    pub hash: bool,
    pub vnodes: bool,
    pub arcs: bool,
    pub replicas: bool,
    pub down: DownRule,
    /// What a stale client gets: `{kind, text}`.
    pub stale: StaleView,
    /// Why only the last node may leave, or `null` when any may.
    pub last_only: Option<&'static str>,
    pub options: Vec<super::options::OptionView>,
}

/// [`OnStale`] as `catalog()` shows it.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct StaleView {
    pub kind: &'static str,
    pub text: &'static str,
}

impl Entry {
    /// What the page and `catalog()` show of it.
    pub fn view(&self) -> EntryView {
        EntryView {
            name: self.name,
            label: self.label,
            family: self.family,
            family_label: self.family.label(),
            source: self.source,
            weighted: self.weighted(),
            hash: self.uses_hash(),
            vnodes: self.uses_vnodes(),
            arcs: self.arcs,
            replicas: self.replicas,
            down: self.on_down.rule(),
            stale: StaleView { kind: self.on_stale.kind(), text: self.on_stale.text() },
            last_only: match self.leaving {
                Leaving::Any => None,
                Leaving::LastOnly(why) => Some(why),
            },
            options: self.options.iter().map(|o| o.view()).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry names where its placement comes from.
    #[test]
    fn every_entry_names_its_source() {
        for algorithm in Algorithm::ALL {
            assert!(!algorithm.entry().source.is_empty(), "{algorithm:?}");
        }
    }
}
