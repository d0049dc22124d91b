//! Placement algorithms, selectable by name: ringlab's own ring, the real systems reproduced
//! bit for bit (libketama, libmemcached, Redis Cluster, Cassandra, groupcache, jump, nginx's
//! and HAProxy's hash balancing), and
//! the other published algorithms for comparison (rendezvous, Maglev, multi-probe,
//! bounded-load, modulo).
//!
//! Every algorithm is a [`Placement`]: nodes in the order they were added, `add`/`remove` as
//! changes applied to that state, and `locate`. The point-based ones also expose their
//! [`Arcs`], so their shares and migrations are exact.
//!
//! ```
//! use ringlab::algo::{Algorithm, Cluster, Options};
//! let mut memcached = Cluster::new(Options::new(Algorithm::LibmemcachedWeighted), ["10.0.1.1:11211", "10.0.1.2:11211"])?;
//! let owner = memcached.locate("user:42")?.to_string();
//! memcached.add("10.0.1.3:11211".into())?;
//! # Ok::<(), ringlab::Error>(())
//! ```

// The catalog and the machinery each entry is made of (`catalog/`); what several systems
// share (`shapes/`); the systems, by family (`ringlab.rs`, `clients/`, `stores/`,
// `balancers/`, `papers/`, `modulo.rs`); and the analyses of algorithms (`analyses/`).
#[macro_use]
pub mod catalog;
pub mod analyses;
pub mod balancers;
pub mod clients;
pub mod modulo;
pub mod papers;
pub mod ringlab;
mod shapes;
pub mod stores;

pub use analyses::{agreement, compare, explain, loads, metrics};
pub use catalog::{about, down, entry, options};
use shapes::{buckets, continuum, hash_mod, lines, members};

use crate::analysis::Arcs;
pub(crate) use crate::node::{check_name, check_names, check_weight};
use crate::{Error, Node, NodeSpec};
pub use entry::{Build, Building, Entry, Extras, Family, LayoutSpec, Leaving, OnDown, ServerList, Weights, WholeBuild};
pub use options::{OptionKind, OptionSpec, OptionValue, Options, Scope};
use std::sync::{Arc, OnceLock};

// The catalog: one line per algorithm, each naming its file (see `catalog/mod.rs`).
catalog::catalog! {
    core Ring => ringlab;
    Libketama => clients::libketama;
    LibmemcachedWeighted => clients::libmemcached [WEIGHTED, BUILD_WEIGHTED];
    LibmemcachedKetama => clients::libmemcached [KETAMA, BUILD_KETAMA];
    RedisCluster => stores::redis;
    Cassandra => stores::cassandra;
    Groupcache => clients::groupcache;
    Jump => papers::jump;
    Rendezvous => papers::rendezvous;
    Maglev => papers::maglev;
    MultiProbe => papers::multiprobe;
    BoundedLoad => papers::bounded;
    baseline Modulo => modulo;
    NginxConsistent => balancers::nginx [CONSISTENT, BUILD_CONSISTENT];
    NginxHash => balancers::nginx [HASH, BUILD_HASH];
    HaproxyConsistent => balancers::haproxy [CONSISTENT, BUILD_CONSISTENT];
    HaproxyMapBased => balancers::haproxy [MAP_BASED, BUILD_MAP_BASED];
    TwemproxyKetama => balancers::twemproxy [KETAMA, BUILD_KETAMA];
    TwemproxyModula => balancers::twemproxy [MODULA, BUILD_MODULA];
    EnvoyRingHash => balancers::envoy [RING_HASH, BUILD_RING_HASH];
    EnvoyMaglev => balancers::envoy [MAGLEV, BUILD_MAGLEV];
    Anchor => papers::anchor;
    Dx => papers::dx;
    Memento => papers::memento;
    JumpBack => papers::jumpback;
    Flip => papers::flip;
    Binomial => papers::binomial;
    Power => papers::power;
    Pymemcache => clients::pymemcache;
    PythonMemcached => clients::python_memcached;
    Uhashring => clients::uhashring [META, BUILD_META];
    UhashringKetama => clients::uhashring [KETAMA, BUILD_KETAMA];
    Dalli => clients::dalli;
    RedisRb4 => clients::redis_rb [V4, BUILD_V4];
    RedisRb5 => clients::redis_rb [V5, BUILD_V5];
    SpymemcachedKetama => clients::spymemcached [KETAMA, BUILD_KETAMA];
    SpymemcachedNative => clients::spymemcached [NATIVE, BUILD_NATIVE];
    NpmHashring => clients::npm_hashring;
    Memjs => clients::memjs;
}

/// What a placement holds beyond its options and nodes, which neither determines: its
/// entry's own arrangement of the nodes ([`LayoutSpec`]), one text a node. A share link
/// carries it and a change of settings keeps it; a build reads the layout its entry declares
/// and ignores any other.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// The [`LayoutSpec::key`] of the entry whose placement wrote it; empty for no layout.
    pub key: &'static str,
    /// One text a node, in node order, as that entry writes them.
    pub parts: Vec<String>,
}

impl Layout {
    /// The layout `spec` describes, of these texts (one a node).
    pub fn new(spec: &LayoutSpec, parts: Vec<String>) -> Layout {
        Layout { key: spec.key, parts }
    }

    /// Its texts, if it is a layout of `spec`'s.
    pub fn parts_for(&self, spec: &LayoutSpec) -> Option<&[String]> {
        (!self.key.is_empty() && self.key == spec.key).then_some(self.parts.as_slice())
    }
}

/// Any placement as [`Any`](std::any::Any), so that the file that defines one can reach its
/// own type behind a [`Cluster`] ([`Cluster::placement`]) for what only that type offers.
pub trait AsAny {
    fn as_any(&self) -> &dyn std::any::Any;
}

impl<T: std::any::Any> AsAny for T {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// An algorithm's state: its nodes and how it places keys.
pub trait Placement: AsAny {
    fn algorithm(&self) -> Algorithm;
    /// The nodes, in the order they were added.
    fn nodes(&self) -> &[Node];
    /// Adds a node (a change applied to the current state). On error nothing changes.
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error>;
    /// Removes a node. On error nothing changes.
    fn remove(&mut self, name: &str) -> Result<(), Error>;
    /// The index of the node that owns `key`.
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error>;
    /// Where `key` sits on a drawing of the circle, as a fraction in `[0, 1)`.
    fn key_fraction(&self, key: &[u8]) -> f64;
    /// The exact point structure, for placements that are rings of points.
    fn arcs(&self) -> Option<&dyn Arcs> {
        None
    }
    /// Each node's exact share of all keys, when it can be computed without sampling.
    fn exact_shares(&self) -> Option<Vec<f64>> {
        let arcs = self.arcs()?;
        let size = arcs.size() as f64;
        Some(crate::analysis::shares(arcs).into_iter().map(|s| s as f64 / size).collect())
    }
    /// Whether [`exact_shares`](Placement::exact_shares) is the default's answer (its arcs'
    /// shares over the ring's size), so that shares counted from its arcs in steps (as a
    /// link opened in steps counts them) need not be counted again. A placement that
    /// overrides `exact_shares` answers `false`.
    fn exact_shares_are_arcs(&self) -> bool {
        true
    }
    /// Heap bytes the placement holds.
    fn memory_bytes(&self) -> usize;
    /// The work of one lookup, in units of about 0.1 µs native (measured by
    /// `examples/caps.rs`): 4 for a hash and a binary search.
    fn lookup_cost(&self) -> u64 {
        4
    }
    /// The table cells a change of it fills ([`Cost::Cells`](crate::work::Cost::Cells)):
    /// Maglev refills its whole table on every change; most placements have no table.
    fn change_cells(&self) -> u64 {
        0
    }
    /// The preference list of `n` distinct nodes for `key` (node indices, the owner first),
    /// where the algorithm has one (its entry's `replicas`).
    fn preference_list(&self, key: &[u8], n: usize) -> Option<Result<Vec<usize>, Error>> {
        let _ = (key, n);
        None
    }
    /// The label of point `point` of its [`arcs`](Placement::arcs) (`node#3`), where its
    /// points have labels a reader would recognise.
    fn point_label(&self, point: usize) -> Option<String> {
        let _ = point;
        None
    }
    /// The point of its [`arcs`](Placement::arcs) where `key`'s walk starts, exactly, where
    /// the key's position is finer than [`key_fraction`](Placement::key_fraction) holds
    /// (`None`: the point at the key's fraction).
    fn walk_start(&self, key: &[u8]) -> Option<Result<usize, Error>> {
        let _ = key;
        None
    }
    /// [`locate_index`](Placement::locate_index) of each of the keys `"{prefix}0" ..
    /// "{prefix}{count-1}"`, given to `f` with the key's number (a placement may do it
    /// faster than key by key).
    fn locate_generated(&self, prefix: &str, count: usize, f: &mut dyn FnMut(usize, Result<usize, Error>)) {
        crate::keys::for_each_generated(prefix, count, |i, key| f(i, self.locate_index(key)));
    }
    /// Its entry's layout ([`Extras::layout`]), one text a node, where it holds one worth
    /// carrying (`None`: its options and nodes alone rebuild it).
    fn layout(&self) -> Option<Vec<String>> {
        None
    }
    /// How the key is placed, in the algorithm's own terms.
    fn describe_key(&self, key: &[u8]) -> String {
        format!("at {} of the circle", crate::decimal::fixed(self.key_fraction(key), 6))
    }
    /// The steps from `key` to the node this algorithm's own structure picks, in its terms
    /// (the bytes hashed, the hash, the point, slot, bucket or entry, its label), computed by
    /// the functions its lookup uses; answers that node, before down nodes are accounted for
    /// ([`Cluster::explain`] adds the rest), or `None` where the steps name none. Called only
    /// with nodes. Every algorithm writes its own: there is no generic default.
    fn explain_key(&self, key: &[u8], chain: &mut explain::Chain) -> Option<usize>;
    /// The walk past down nodes from where [`explain_key`](Placement::explain_key) stopped,
    /// where the algorithm walks (ringlab's ring names each point it passes); `false`: none,
    /// and [`Cluster::explain`] states the algorithm's down rule instead.
    fn explain_down(&self, key: &[u8], chain: &mut explain::Chain) -> bool {
        let _ = (key, chain);
        false
    }
    fn boxed_clone(&self) -> Box<dyn Placement>;
    /// Marks node `index` down (it stays a node: nginx's `down`, HAProxy's `disabled`, a
    /// failed server) or up again, as the real system's client treats it
    /// ([`down::rule`]). Up again gives exactly the state before. On error nothing changes.
    fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
        let _ = (index, down);
        Err(Error::Unsupported(format!("{} has no down servers: remove the node instead", self.algorithm().name())))
    }
    /// Changes node `index`'s weight where it stands: for systems whose config line keeps its
    /// place (order decides ids and walks), or that reweigh in place. `None`: not offered,
    /// so [`Cluster::set_weight`] removes and re-adds the node.
    fn set_weight_at(&mut self, index: usize, weight: f64) -> Option<Result<(), Error>> {
        let _ = (index, weight);
        None
    }
    /// Whether node `index` is marked down.
    fn is_down(&self, index: usize) -> bool {
        let _ = index;
        false
    }
}

/// A placement in a debug print: its algorithm and nodes. Written here rather than required
/// of every placement (`Placement: Debug`): each `dyn Placement`'s vtable would then carry
/// its type's `Debug`, which pulls core's float formatting (node weights) into every wasm
/// module, for prints no module makes.
impl std::fmt::Debug for dyn Placement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Placement").field("algorithm", &self.algorithm().name()).field("nodes", &self.nodes()).finish()
    }
}

/// The owner index of a key that has none ([`Cluster::key_owner`]): what a lookup answers
/// as an error (every node down, a failed Redis master's slot, a jump bucket that cannot be
/// skipped). One sentinel for every batch of owners: `Ring.keyOwners`, a session's scene
/// (`www/ring-view.js` draws it muted) and its moves.
pub const NO_OWNER: u32 = u32::MAX;

/// Any algorithm's state, behind one type.
#[derive(Debug)]
pub struct Cluster {
    inner: Box<dyn Placement>,
    /// The options it was made with (shared by clones: a bounded-load key set can be large).
    options: Arc<Options>,
    /// Each node's exact share and the spread of load, computed once per state: every change
    /// clears them.
    shares: OnceLock<Shares>,
    /// The points as a view draws them, computed once per state (shared by clones).
    circle: OnceLock<Option<CirclePoints>>,
}

/// A circle's points as fractions of the circle (0 at the top, clockwise) with their owners'
/// indices, in circle order: what a view draws.
#[derive(Clone, Debug, PartialEq)]
pub struct CirclePoints {
    pub fractions: Arc<[f64]>,
    pub owners: Arc<[u32]>,
}

impl CirclePoints {
    /// The points of `arcs` as a view draws them.
    pub fn of(arcs: &dyn Arcs) -> CirclePoints {
        let size = arcs.size() as f64;
        let (fractions, owners): (Vec<f64>, Vec<u32>) =
            (0..arcs.point_count()).map(|i| (arcs.point(i).0 as f64 / size, arcs.point(i).1 as u32)).unzip();
        CirclePoints { fractions: fractions.into(), owners: owners.into() }
    }
}

/// A pass over a cluster's points in pieces ([`Cluster::walk_points`]): the next point, and
/// the shares and circle points counted so far.
#[derive(Debug, Default)]
pub(crate) struct PointWalk {
    next: usize,
    shares: Vec<u128>,
    first: Option<(u64, usize)>,
    prev: u64,
    fractions: Vec<f64>,
    owners: Vec<u32>,
}

/// What [`Cluster::exact_shares`] and [`Cluster::spread`] answer, for one state.
#[derive(Clone, Debug)]
pub(crate) struct Shares {
    pub fractions: Option<Vec<f64>>,
    pub spread: Option<crate::analysis::Spread>,
}

impl Shares {
    /// The exact shares of `placement`'s nodes and the spread over those that serve.
    pub(crate) fn of<P: Placement + ?Sized>(placement: &P) -> Shares {
        Shares::with(placement, placement.arcs().map(crate::analysis::shares))
    }

    /// [`Shares::of`], given its arcs' shares (`analysis::shares` of its arcs, where it has
    /// arcs) already counted.
    fn with<P: Placement + ?Sized>(placement: &P, arc_shares: Option<Vec<u128>>) -> Shares {
        let nodes = placement.nodes();
        let serving: Vec<usize> = (0..nodes.len()).filter(|&i| !placement.is_down(i)).collect();
        let weights: Vec<f64> = serving.iter().map(|&i| nodes[i].weight).collect();
        // The default exact shares are the arcs' over the ring's size: not counted again.
        let fractions = match (&arc_shares, placement.arcs()) {
            (Some(shares), Some(arcs)) if placement.exact_shares_are_arcs() => {
                let size = arcs.size() as f64;
                Some(shares.iter().map(|&s| s as f64 / size).collect())
            }
            _ => placement.exact_shares(),
        };
        let of_serving = |shares: &[u128]| -> Vec<u128> { serving.iter().map(|&i| shares[i]).collect() };
        let spread = match arc_shares {
            Some(shares) => crate::analysis::Spread::of(&of_serving(&shares), &weights),
            // Exact fractions (modulo, bounded-load), in parts of 2^53.
            None => fractions.as_ref().and_then(|shares| {
                let scaled: Vec<u128> = shares.iter().map(|s| (s * (1u64 << 53) as f64) as u128).collect();
                crate::analysis::Spread::of(&of_serving(&scaled), &weights)
            }),
        };
        Shares { fractions, spread }
    }
}

impl Clone for Cluster {
    fn clone(&self) -> Cluster {
        Cluster {
            inner: self.inner.boxed_clone(),
            options: Arc::clone(&self.options),
            shares: self.shares.clone(),
            circle: self.circle.clone(),
        }
    }
}

impl PointWalk {
    /// The points walked so far.
    #[cfg(test)]
    pub(crate) fn walked(&self) -> usize {
        self.next
    }
}

impl Cluster {
    /// The algorithm's state after creating it with `nodes`, in order.
    pub fn new<I>(options: Options, nodes: I) -> Result<Cluster, Error>
    where
        I: IntoIterator,
        I::Item: Into<NodeSpec>,
    {
        Cluster::with_layout(options, nodes.into_iter().map(Into::into).collect(), &Layout::default())
    }

    /// The options it was made with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The positions its circle shows.
    pub fn key_space(&self) -> about::KeySpace {
        self.options.key_space()
    }

    /// One line on what its circle shows, with the actual parameters.
    pub fn describe(&self) -> String {
        self.options.describe()
    }

    pub(crate) fn from_placement(inner: Box<dyn Placement>, options: Options) -> Cluster {
        Cluster { inner, options: Arc::new(options), shares: OnceLock::new(), circle: OnceLock::new() }
    }

    /// `change` applied to the placement; the shares are computed afresh after it.
    fn changed(&mut self, change: impl FnOnce(&mut Box<dyn Placement>) -> Result<(), Error>) -> Result<(), Error> {
        crate::work::charge(crate::work::Cost::Cells, self.change_cells())?;
        let result = change(&mut self.inner);
        self.shares = OnceLock::new();
        self.circle = OnceLock::new();
        result
    }

    pub fn algorithm(&self) -> Algorithm {
        self.inner.algorithm()
    }

    /// Marks the node down (it is not removed) or up again, as the real system treats a
    /// failed node ([`down_rule`](Cluster::down_rule) says how): skipped, rebuilt around, or
    /// its keys [`Error::Unavailable`]. Up again gives exactly the state before. On error
    /// nothing changes.
    pub fn set_down(&mut self, name: &str, down: bool) -> Result<(), Error> {
        let idx = index_of(self.nodes(), name)?;
        // A first node down adds the healthy nodes' table to what a change fills.
        crate::work::charge(crate::work::Cost::Cells, self.change_cells())?;
        self.changed(|inner| inner.set_down(idx, down))
    }

    /// What this algorithm's real clients do with a down node's keys, in words.
    pub fn down_rule(&self) -> down::DownRule {
        self.algorithm().entry().on_down.rule()
    }

    /// Whether the node is marked down.
    pub fn is_down(&self, name: &str) -> Result<bool, Error> {
        Ok(self.inner.is_down(index_of(self.nodes(), name)?))
    }

    /// Whether node `index` (of [`nodes`](Cluster::nodes)) is marked down.
    pub fn is_down_at(&self, index: usize) -> bool {
        self.inner.is_down(index)
    }

    /// How many nodes are up.
    pub fn healthy_count(&self) -> usize {
        (0..self.nodes().len()).filter(|&i| !self.inner.is_down(i)).count()
    }

    pub fn nodes(&self) -> &[Node] {
        self.inner.nodes()
    }

    pub fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        self.changed(|inner| inner.add(spec))
    }

    pub fn remove(&mut self, name: &str) -> Result<(), Error> {
        self.changed(|inner| inner.remove(name))
    }

    /// Changes a node's weight: in place where the placement reweighs in place
    /// ([`Placement::set_weight_at`]); elsewhere the node leaves and joins again with the new
    /// weight (which is what a real client would have to do).
    pub fn set_weight(&mut self, name: &str, weight: f64) -> Result<(), Error> {
        let idx = index_of(self.nodes(), name)?;
        let mut in_place = None;
        self.changed(|inner| {
            in_place = inner.set_weight_at(idx, weight);
            Ok(())
        })?;
        if let Some(result) = in_place {
            return result;
        }
        let mut spec = self.nodes()[idx].spec();
        spec.weight = weight;
        let mut changed = self.clone();
        changed.remove(name)?;
        changed.add(spec)?;
        *self = changed;
        Ok(())
    }

    /// How the key is placed, in the algorithm's own terms (a hash, a slot, a token).
    pub fn describe_key(&self, key: impl AsRef<[u8]>) -> String {
        self.inner.describe_key(key.as_ref())
    }

    /// The name of the node that owns `key`.
    pub fn locate(&self, key: impl AsRef<[u8]>) -> Result<&str, Error> {
        let idx = self.inner.locate_index(key.as_ref())?;
        Ok(&self.inner.nodes()[idx].name)
    }

    /// The index in [`nodes`](Cluster::nodes) of the node that owns `key`.
    pub fn locate_index(&self, key: impl AsRef<[u8]>) -> Result<usize, Error> {
        self.inner.locate_index(key.as_ref())
    }

    /// [`locate_index`](Cluster::locate_index) of each of the keys `"{prefix}0" ..
    /// "{prefix}{count-1}"` (see [`keys::for_each_generated`](crate::keys::for_each_generated)),
    /// given to `f` with the key's number ([`Placement::locate_generated`]).
    pub fn locate_generated(&self, prefix: &str, count: usize, mut f: impl FnMut(usize, Result<usize, Error>)) {
        self.inner.locate_generated(prefix, count, &mut f);
    }

    /// The index of `key`'s owner as a batch of owners holds it: [`locate_index`]'s answer,
    /// or [`NO_OWNER`] where it answers an error (so that a batch never names a node that
    /// `locate` says cannot serve the key).
    ///
    /// [`locate_index`]: Cluster::locate_index
    pub fn key_owner(&self, key: impl AsRef<[u8]>) -> u32 {
        owner_or_none(self.locate_index(key))
    }

    /// [`key_owner`](Cluster::key_owner) of each of the keys `"{prefix}0" ..
    /// "{prefix}{count-1}"`, after the caps on generated keys and on lookups. A ring with no
    /// node refuses a lookup as [`locate`](Cluster::locate) does ([`Error::EmptyRing`]),
    /// unless there is none to make.
    ///
    /// ```
    /// use ringlab::algo::{Algorithm, Cluster, Options, NO_OWNER};
    /// let mut c = Cluster::new(Options::new(Algorithm::Ring), ["a", "b"])?;
    /// assert_eq!(c.key_owners("key:", 3)?.len(), 3);
    /// c.set_down("a", true)?;
    /// c.set_down("b", true)?;
    /// assert_eq!(c.key_owners("key:", 3)?, [NO_OWNER; 3]);
    /// assert_eq!(c.locate("key:0").unwrap_err().code(), "unavailable");
    /// # Ok::<(), ringlab::Error>(())
    /// ```
    pub fn key_owners(&self, prefix: &str, count: usize) -> Result<Vec<u32>, Error> {
        crate::limits::check_generated(prefix, count)?;
        self.check_lookups(count)?;
        if self.nodes().is_empty() && count > 0 {
            return Err(Error::EmptyRing);
        }
        let mut owners = Vec::with_capacity(count);
        self.locate_generated(prefix, count, |_, owner| owners.push(owner_or_none(owner)));
        Ok(owners)
    }

    /// The preference list of `n` distinct nodes for `key` (node indices, the owner first),
    /// where the algorithm has one ([`Entry::replicas`]).
    pub fn preference_list(&self, key: impl AsRef<[u8]>, n: usize) -> Option<Result<Vec<usize>, Error>> {
        self.inner.preference_list(key.as_ref(), n)
    }

    /// The label of point `point` of its [`arcs`](Cluster::arcs), where its points have
    /// labels ([`Placement::point_label`]).
    pub fn point_label(&self, point: usize) -> Option<String> {
        self.inner.point_label(point)
    }

    /// The point of its [`arcs`](Cluster::arcs) where `key`'s walk starts, where it is exact
    /// beyond the key's fraction ([`Placement::walk_start`]).
    pub fn walk_start(&self, key: impl AsRef<[u8]>) -> Option<Result<usize, Error>> {
        self.inner.walk_start(key.as_ref())
    }

    /// The placement inside, if it is a `T`: for the file that defines `T`, to offer what
    /// only `T` has.
    pub fn placement<T: Placement + 'static>(&self) -> Option<&T> {
        (*self.inner).as_any().downcast_ref()
    }

    pub fn key_fraction(&self, key: impl AsRef<[u8]>) -> f64 {
        self.inner.key_fraction(key.as_ref())
    }

    pub fn arcs(&self) -> Option<&dyn Arcs> {
        self.inner.arcs()
    }

    /// The points as a view draws them (`None` where there are no arcs), computed once per
    /// state.
    pub fn circle_points(&self) -> Option<CirclePoints> {
        let circle = self.circle.get_or_init(|| self.arcs().map(CirclePoints::of));
        circle.clone()
    }

    /// Up to `budget` more points of the one pass over its points that [`spread`] and
    /// [`circle_points`] each make, for a caller that must not block for the whole pass (a
    /// link opened in steps); answers whether the pass is done, and then both are kept as if
    /// asked for, to the bit. Without arcs, the first call asks for both.
    ///
    /// [`spread`]: Cluster::spread
    /// [`circle_points`]: Cluster::circle_points
    pub(crate) fn walk_points(&self, walk: &mut PointWalk, budget: usize) -> bool {
        let Some(arcs) = self.arcs() else {
            self.shares();
            self.circle_points();
            return true;
        };
        let count = arcs.point_count();
        if walk.shares.is_empty() {
            walk.shares = vec![0; arcs.node_count()];
            walk.fractions.reserve_exact(count);
            walk.owners.reserve_exact(count);
        }
        let size = arcs.size();
        let end = count.min(walk.next.saturating_add(budget.max(1)));
        // `analysis::shares_of` and `CirclePoints::of`, a piece at a time.
        for i in walk.next..end {
            let (pos, owner) = arcs.point(i);
            match walk.first {
                None => walk.first = Some((pos, owner)),
                Some(_) => walk.shares[owner] += u128::from(pos - walk.prev),
            }
            walk.prev = pos;
            walk.fractions.push(pos as f64 / size as f64);
            walk.owners.push(owner as u32);
        }
        walk.next = end;
        if end < count {
            return false;
        }
        let mut shares = std::mem::take(&mut walk.shares);
        if let Some((pos, owner)) = walk.first {
            shares[owner] += size - u128::from(walk.prev) + u128::from(pos);
        }
        let circle = CirclePoints {
            fractions: std::mem::take(&mut walk.fractions).into(),
            owners: std::mem::take(&mut walk.owners).into(),
        };
        let _ = self.shares.set(Shares::with(self.inner.as_ref(), Some(shares)));
        let _ = self.circle.set(Some(circle));
        true
    }

    /// Drops [`circle_points`](Cluster::circle_points) until it is asked for again.
    pub(crate) fn forget_circle_points(&mut self) {
        self.circle = OnceLock::new();
    }

    /// Each node's exact share of all keys, when it can be computed without sampling
    /// (computed once per state).
    pub fn exact_shares(&self) -> Option<Vec<f64>> {
        self.shares().fractions.clone()
    }

    /// The spread of load over the serving nodes (a node marked down serves nothing: it is
    /// left out, not counted as a node with no load) from their exact shares (integer arc
    /// lengths where there are arcs, exact fractions otherwise), or `None` when they can only
    /// be sampled or no node serves. One answer for `Ring` and `Session`, computed once per
    /// state.
    pub fn spread(&self) -> Option<crate::analysis::Spread> {
        self.shares().spread
    }

    fn shares(&self) -> &Shares {
        self.shares.get_or_init(|| Shares::of(self.inner.as_ref()))
    }

    pub fn memory_bytes(&self) -> usize {
        let circle = self.circle.get().and_then(Option::as_ref).map_or(0, |c| c.fractions.len() * 12);
        self.inner.memory_bytes() + circle
    }

    /// The table cells one change of it fills, charged to the work meter before each change
    /// ([`Cost::Cells`](crate::work::Cost::Cells)); 0 where there is no table.
    pub fn change_cells(&self) -> u64 {
        self.inner.change_cells()
    }

    /// The work of one lookup (see [`limits::MAX_LOOKUP_WORK`](crate::limits::MAX_LOOKUP_WORK)).
    pub fn lookup_cost(&self) -> u64 {
        self.inner.lookup_cost()
    }

    /// Checks that `lookups` key lookups on this state (a sample on two states counts twice)
    /// stay within [`limits::MAX_LOOKUP_WORK`](crate::limits::MAX_LOOKUP_WORK).
    pub fn check_lookups(&self, lookups: usize) -> Result<(), Error> {
        let what = || format!("key lookups on {} with these settings", self.algorithm().name());
        self.check_work(lookups, crate::limits::MAX_LOOKUP_WORK, what)
    }

    /// Checks that a session's key sample of `keys` keys placed on this state stays within
    /// [`limits::MAX_SAMPLE_WORK`](crate::limits::MAX_SAMPLE_WORK).
    pub fn check_sample(&self, keys: usize) -> Result<(), Error> {
        let what = || format!("the sample's keys on {} with {} nodes", self.algorithm().name(), self.nodes().len());
        self.check_work(keys, crate::limits::MAX_SAMPLE_WORK, what)
    }

    fn check_work(&self, lookups: usize, max_work: u64, what: impl Fn() -> String) -> Result<(), Error> {
        let work = (lookups as u64).saturating_mul(self.lookup_cost());
        if work > max_work {
            let max = max_work / self.lookup_cost();
            return Err(Error::TooLarge { what: what(), max, got: lookups as u64 });
        }
        Ok(())
    }

    /// What this placement holds beyond its options and nodes (see [`Layout`]).
    pub fn layout(&self) -> Layout {
        match (self.algorithm().entry().extras.layout, self.inner.layout()) {
            (Some(spec), Some(parts)) => Layout::new(spec, parts),
            _ => Layout::default(),
        }
    }

    /// [`Cluster::new`], with `layout` where it is the layout `options.algorithm`'s entry
    /// declares ([`Extras::layout`]; any other is ignored): a cluster as a share link describes
    /// it, or as it was before a change of settings.
    pub fn with_layout(options: Options, nodes: Vec<NodeSpec>, layout: &Layout) -> Result<Cluster, Error> {
        Cluster::building(options, nodes, layout)?.finish()
    }

    /// [`Cluster::with_layout`] in steps of bounded work ([`ClusterBuild::step`]), for a
    /// caller that must not block for the whole build. An algorithm whose entry builds in
    /// one call ([`Build::Whole`]) is built by the first step.
    pub fn building(options: Options, nodes: Vec<NodeSpec>, layout: &Layout) -> Result<ClusterBuild, Error> {
        let per_node = |what: &str, count: Option<usize>| match count {
            Some(count) if count != nodes.len() => {
                Err(Error::mismatch(what, format!("{what} for {count} nodes, but there are {}", nodes.len())))
            }
            _ => Ok(()),
        };
        if let Some(spec) = options.algorithm.entry().extras.layout {
            per_node(spec.what, layout.parts_for(spec).map(<[String]>::len))?;
        }
        let pending = match options.algorithm.build() {
            Build::Whole(build) => Pending::Whole { build, nodes, layout: layout.clone() },
            Build::Staged(build) => Pending::Staged(build(&options, nodes, layout)?),
        };
        Ok(ClusterBuild { options, pending })
    }
}

/// A cluster being built in steps ([`Cluster::building`]).
#[derive(Debug)]
pub struct ClusterBuild {
    options: Options,
    pending: Pending,
}

#[derive(Debug)]
enum Pending {
    Staged(Box<dyn Building>),
    /// Built by the next step.
    Whole {
        build: WholeBuild,
        nodes: Vec<NodeSpec>,
        layout: Layout,
    },
    Built(Box<dyn Placement>),
}

impl ClusterBuild {
    /// About `budget` units of the build's work (see [`Building::step`]); answers whether the
    /// cluster is built. After a failed step, call it no more (the opening that drives it
    /// keeps the error).
    pub fn step(&mut self, budget: usize) -> Result<bool, Error> {
        match &mut self.pending {
            Pending::Staged(building) => building.step(budget),
            Pending::Whole { build, nodes, layout } => {
                self.pending = Pending::Built(build(&self.options, nodes.clone(), layout)?);
                Ok(true)
            }
            Pending::Built(_) => Ok(true),
        }
    }

    /// The cluster, after whatever steps are left.
    pub fn finish(self) -> Result<Cluster, Error> {
        let inner = match self.pending {
            Pending::Staged(building) => building.finish()?,
            Pending::Whole { build, nodes, layout } => build(&self.options, nodes, &layout)?,
            Pending::Built(inner) => inner,
        };
        Ok(Cluster::from_placement(inner, self.options))
    }
}

impl crate::migration::Locate for Cluster {
    fn locate_key(&self, key: &[u8]) -> Result<&str, Error> {
        self.locate(key)
    }
}

impl crate::migration::State for Cluster {
    fn arcs(&self) -> Option<&dyn Arcs> {
        Cluster::arcs(self)
    }
    fn nodes(&self) -> &[Node] {
        Cluster::nodes(self)
    }
    fn check_lookups(&self, lookups: usize) -> Result<(), Error> {
        Cluster::check_lookups(self, lookups)
    }
    fn locate_generated(&self, prefix: &str, count: usize, f: impl FnMut(usize, Result<usize, Error>)) {
        Cluster::locate_generated(self, prefix, count, f)
    }
}

/// A lookup's answer as an owner index: [`NO_OWNER`] for an error.
fn owner_or_none(owner: Result<usize, Error>) -> u32 {
    owner.map_or(NO_OWNER, |o| o as u32)
}

/// Nodes from specs, after the common checks and `check` on each, with `points` each.
pub(crate) fn new_nodes(
    specs: Vec<NodeSpec>,
    points: u32,
    check: impl Fn(&NodeSpec) -> Result<(), Error>,
) -> Result<Vec<Node>, Error> {
    check_names(&[], &specs)?;
    specs
        .into_iter()
        .map(|spec| {
            check(&spec)?;
            check_weight(spec.weight)?;
            Ok(node_of(spec, points))
        })
        .collect()
}

/// A node from a spec, after the common checks (including the cap on nodes).
pub(crate) fn new_node(nodes: &[Node], spec: NodeSpec, points: u32) -> Result<Node, Error> {
    crate::limits::check_nodes(nodes.len() + 1)?;
    check_name(nodes, &spec.name)?;
    crate::limits::check_zone(spec.zone.as_deref())?;
    check_weight(spec.weight)?;
    Ok(node_of(spec, points))
}

/// A node of a spec whose name and zone [`check_names`](crate::node::check_names) passed
/// with the others' (one check of a whole list: `new_node` in a loop is quadratic).
pub(crate) fn node_of(spec: NodeSpec, points: u32) -> Node {
    Node { name: spec.name, weight: spec.weight, zone: spec.zone, points }
}

/// The index of the node named `name`.
pub(crate) fn index_of(nodes: &[Node], name: &str) -> Result<usize, Error> {
    nodes.iter().position(|n| n.name == name).ok_or_else(|| Error::UnknownNode(name.to_string()))
}

/// The nodes as specs, to rebuild a state from scratch.
pub(crate) fn specs(nodes: &[Node]) -> Vec<NodeSpec> {
    nodes.iter().map(Node::spec).collect()
}

/// `x / 2^64` for drawing.
pub(crate) fn fraction64(x: u64) -> f64 {
    x as f64 / 18_446_744_073_709_551_616.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shares kept once per state, counted from the arcs in one pass where a placement
    /// says its exact shares are its arcs', are what its own `exact_shares` answers, to the
    /// bit, for every algorithm, with a node down and without.
    #[test]
    fn kept_shares_are_each_placement_s_own() {
        for algorithm in Algorithm::ALL {
            let mut cluster =
                Cluster::new(Options::new(algorithm), (1..=5).map(|i| NodeSpec::new(format!("node-{i}")))).unwrap();
            for down in [false, true] {
                if down && cluster.set_down("node-2", true).is_err() {
                    continue;
                }
                let shares = Shares::of(cluster.inner.as_ref());
                assert_eq!(shares.fractions, cluster.inner.exact_shares(), "{algorithm:?}, down {down}");
                let walked = Cluster::from_placement(cluster.inner.boxed_clone(), cluster.options().clone());
                let mut walk = PointWalk::default();
                while !walked.walk_points(&mut walk, 37) {}
                assert_eq!(walked.exact_shares(), cluster.inner.exact_shares(), "{algorithm:?}, down {down}");
                assert_eq!(walked.spread(), shares.spread, "{algorithm:?}, down {down}");
                assert_eq!(walked.circle_points(), cluster.arcs().map(CirclePoints::of), "{algorithm:?}");
            }
        }
    }
}
