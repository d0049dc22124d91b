//! The real systems that are rings of points: libketama, libmemcached (weighted and plain
//! ketama), Go groupcache and Cassandra tokens. Each differs in how it labels and counts
//! points, hashes keys and breaks ties; the lookup (first point at or after the key's hash,
//! wrapping) is the same. The rules are cited from each system's source in
//! `tests/real/README.md`, and `tests/native/real_systems.rs` checks them against the real code.
//!
//! Point counts depend on all nodes' weights (libketama, libmemcached), so every change
//! rebuilds the continuum from the node list, as the real clients do.
//!
//! A down node ([`down::rule`](super::down::rule) says it in words):
//! - libmemcached (auto-eject): the continuum is rebuilt from the live servers, point counts
//!   recomputed over their number and weights (`update_continuum` in `hosts.cc` skips servers
//!   whose `next_retry` is in the future and counts only live ones in `live_servers` and
//!   `total_weight`);
//! - Cassandra: the next live node clockwise serves (a replica for RF ≥ 2): the live nodes'
//!   tokens, which do not depend on each other;
//! - libketama and groupcache have no failover: the down node's keys are unavailable.

use super::down::{self, DownSet, Rebuilt};
use super::entry::Building;
use super::explain::{hex, Chain, Step, StepKind, FIRST_AT_OR_AFTER};
use super::{index_of, new_nodes, specs, Algorithm, Options, Placement};
use crate::analysis::Arcs;
use crate::decimal::shortest;
use crate::order::{self, StagedSort};
use crate::points::Points;
use crate::{limits, Error, Node, NodeSpec};
use md5::Digest as _;
use std::collections::BTreeMap;

/// One real system's continuum, declared in that system's own file (`libketama.rs`,
/// `libmemcached.rs`, `groupcache.rs`, `cassandra.rs`): how it counts, labels and hashes
/// points, hashes keys and breaks ties.
#[derive(Debug)]
pub(crate) struct Rules {
    pub(crate) algorithm: Algorithm,
    /// The circle: `2^bits` positions.
    pub(crate) bits: u32,
    pub(crate) tie: Tie,
    /// The work of one lookup (see [`Placement::lookup_cost`]).
    pub(crate) lookup_cost: u64,
    /// The count option each node's points follow (groupcache's replicas, Cassandra's
    /// `num_tokens`), read and range-checked from the options; 0 where there is none.
    pub(crate) per_node: fn(&Options) -> Result<u32, Error>,
    /// What the real system accepts as a node (after the common checks), given `per_node`.
    pub(crate) check: fn(&NodeSpec, u32) -> Result<(), Error>,
    /// Points per node, by the system's own arithmetic, given `per_node`.
    pub(crate) point_counts: fn(&[Node], u32) -> Vec<u32>,
    /// Appends node `idx`'s `count` points, named `name`.
    pub(crate) push_points: fn(&str, u32, u32, &mut Vec<(u64, u32)>),
    pub(crate) key_position: fn(&[u8]) -> u64,
    /// The label that put a node's `k`-th pushed point there (in `push_points`' order), where
    /// the system hashes labels into points; `None` where it does not (explicit tokens).
    pub(crate) point_label: Option<fn(&str, u32) -> String>,
    /// How a key is placed, in the system's terms, given its position.
    pub(crate) describe_key: fn(&[u8], u64) -> String,
    /// Which point owns a key's position (every system here wraps round the circle).
    pub(crate) lookup: Lookup,
    /// libmemcached's ketama mode: a server of weight > 1 switches it to these points.
    pub(crate) weighted_switch: Option<&'static Rules>,
    /// Whether the switch starts off whatever the weights (the distribution was set after the
    /// servers were added: libmemcached's `ketamaWeighted: false`); only a later `add` of a
    /// server of weight > 1 turns it on.
    pub(crate) switch_starts_off: fn(&Options) -> bool,
    /// A weight the node's name carries (Dalli's `host:port:weight`), which becomes its
    /// weight; `None` where names carry none.
    pub(crate) written_weight: fn(&str) -> Result<Option<f64>, Error>,
    /// Where nodes may carry their own tokens instead of generated points (Cassandra's
    /// `initial_token`): how the system reads and places them; `None` where none may.
    pub(crate) explicit: Option<Explicit>,
    /// A cap of the system's own on the points of a whole continuum (libketama's
    /// shared-memory segment).
    pub(crate) check_total: fn(u64) -> Result<(), Error>,
}

/// Nodes' own tokens, where a system takes them, as its file declares them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Explicit {
    /// Each listed node's tokens, by node name, from the options.
    pub(crate) tokens: fn(&Options) -> &BTreeMap<String, Vec<i64>>,
    /// A token's position on the circle.
    pub(crate) position: fn(i64) -> u64,
    /// The refusal of a position given twice, with the two nodes' names (one node's, twice).
    pub(crate) collision: fn(u64, &str, &str) -> Error,
}

/// Which of two points at the same position owns it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Tie {
    /// libketama (glibc's stable qsort) and libmemcached (`continuum_item_cmp`).
    EarlierAdded,
    /// groupcache: the later `Add` overwrites the point's entry in its map.
    LaterAdded,
    /// ringlab's rule, for Cassandra: only for generated tokens (a collision of two 64-bit
    /// hashes); explicit tokens that collide are refused, as Cassandra refuses them.
    SmallerName,
}

/// Which point owns a key: the key's position is compared with the points' positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Lookup {
    /// The first point at or after it (libketama, libmemcached, most clients).
    AtOrAfter,
    /// The first point strictly after it (Python's `bisect` right of an equal point: uhashring).
    After,
    /// The last point at or before it, wrapping to the last point (Ruby's Dalli, redis-rb).
    AtOrBefore,
}

/// Points for the `AtOrAfter` search that answer `lookup`'s owner for every position:
/// sorted `entries` (ties ordered by the rules) become one point per distinct position, the
/// run's first owning it, then each is moved to where its arc ends: `After` owns
/// `[p, next)`'s successor arc `[prev, p)`, so its point sits at `p - 1`; `AtOrBefore` owns
/// `[p, next)`, so it sits at `next - 1`. Shares and migrations computed from these points
/// are the real lookup's, exactly; a drawing shows each point at its arc's end.
fn arc_end_points(entries: &mut Vec<(u64, u32)>, lookup: Lookup, bits: u32) {
    if lookup == Lookup::AtOrAfter || entries.is_empty() {
        return;
    }
    entries.dedup_by_key(|e| e.0);
    let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let before = |p: u64| p.wrapping_sub(1) & mask;
    match lookup {
        Lookup::AtOrAfter => {}
        Lookup::After => entries.iter_mut().for_each(|e| e.0 = before(e.0)),
        Lookup::AtOrBefore => {
            let first = entries[0].0;
            let n = entries.len();
            for i in 0..n {
                let next = if i + 1 < n { entries[i + 1].0 } else { first };
                entries[i].0 = before(next);
            }
        }
    }
    entries.sort_unstable();
}

#[derive(Clone, Debug)]
pub(crate) struct Continuum {
    rules: &'static Rules,
    /// The rules' count option (`Rules::per_node`).
    per_node: u32,
    nodes: Vec<Node>,
    points: Points,
    /// Nodes' own tokens, placed: their positions by node name (where the rules take them).
    explicit: BTreeMap<String, Vec<u64>>,
    down: DownSet,
    /// While a node is down (libmemcached, Cassandra): the continuum of the live nodes.
    live: Option<Box<Rebuilt>>,
    /// The rules' weighted switch is on: adding a server of weight > 1 sets it (libmemcached
    /// hosts.cc `server_add`, `memcached_server_push`), and nothing clears it, so the live
    /// continuum keeps the full list's.
    weighted: bool,
    /// The rules' `switch_starts_off`, read from the options.
    starts_off: bool,
}

impl Continuum {
    /// `rules`' continuum of no nodes, with `options`' count and tokens.
    fn empty(rules: &'static Rules, options: &Options) -> Result<Continuum, Error> {
        let per_node = (rules.per_node)(options)?;
        let explicit = match rules.explicit {
            Some(explicit) => (explicit.tokens)(options)
                .iter()
                .map(|(name, tokens)| (name.clone(), tokens.iter().map(|&t| (explicit.position)(t)).collect()))
                .collect(),
            None => BTreeMap::new(),
        };
        Ok(Continuum {
            rules,
            per_node,
            nodes: Vec::new(),
            points: Points::new(rules.bits),
            explicit,
            down: DownSet::default(),
            live: None,
            weighted: false,
            starts_off: (rules.switch_starts_off)(options),
        })
    }

    /// Makes the continuum for `specs`, or leaves everything as it was on error.
    fn rebuild(&mut self, specs: Vec<NodeSpec>) -> Result<(), Error> {
        self.rebuild_with(specs, None)
    }

    /// `weighted`: the weighted switch as it stands, else decided by `specs`' weights.
    fn rebuild_with(&mut self, specs: Vec<NodeSpec>, weighted: Option<bool>) -> Result<(), Error> {
        let mut build = self.rebuilding(specs, weighted)?;
        while !build.step(usize::MAX)? {}
        let built = build.continuum;
        (self.nodes, self.points, self.weighted) = (built.nodes, built.points, built.weighted);
        Ok(())
    }

    /// The checks of [`rebuild_with`](Continuum::rebuild_with), and its work to do in steps.
    fn rebuilding(&self, specs: Vec<NodeSpec>, weighted: Option<bool>) -> Result<ContinuumBuild, Error> {
        let (rules, per_node) = (self.rules, self.per_node);
        let specs = specs.into_iter().map(|spec| with_written_weight(rules, spec)).collect::<Result<Vec<_>, _>>()?;
        let mut nodes = new_nodes(specs, 0, |spec| (rules.check)(spec, per_node))?;
        let starts_off = self.starts_off;
        let switch = rules
            .weighted_switch
            .filter(|_| weighted.unwrap_or_else(|| !starts_off && nodes.iter().any(|n| n.weight > 1.0)));
        let points_rules = switch.unwrap_or(rules);
        let mut counts = (points_rules.point_counts)(&nodes, per_node);
        for (node, count) in nodes.iter().zip(counts.iter_mut()) {
            if let Some(positions) = self.explicit.get(&node.name) {
                *count = explicit_count(node, positions)?;
            }
        }
        let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
        limits::check("points on the continuum", total, limits::MAX_CONTINUUM_POINTS)?;
        (rules.check_total)(total)?;
        // Every change rebuilds the whole continuum: an MD5 or SHA-1 digest and a sort per
        // point, about four of Maglev's cells' time each (0.3–0.5 µs natively).
        crate::work::charge(crate::work::Cost::Cells, total.saturating_mul(CONTINUUM_POINT_CELLS))?;
        for (node, &count) in nodes.iter_mut().zip(&counts) {
            node.points = count;
        }
        let continuum = Continuum {
            nodes,
            points: Points::new(rules.bits),
            explicit: self.explicit.clone(),
            down: DownSet::default(),
            live: None,
            weighted: switch.is_some(),
            ..*self
        };
        let entries = Vec::with_capacity(total as usize);
        Ok(ContinuumBuild { continuum, points_rules, stage: Stage::Points { entries, next: 0 } })
    }

    /// Whether the real client skips a down node (else its keys are unavailable): its
    /// entry's down rule.
    fn skips_down(&self) -> bool {
        !matches!(self.rules.algorithm.entry().on_down, super::OnDown::Unavailable { .. })
    }

    /// The live continuum for the current down set.
    fn refresh_live(&mut self) -> Result<(), Error> {
        self.live = None;
        if !self.skips_down() {
            return Ok(());
        }
        let template = Continuum { nodes: Vec::new(), down: DownSet::default(), live: None, ..self.clone() };
        let weighted = self.weighted;
        self.live = Rebuilt::build(&self.nodes, &self.down, |specs| {
            let mut live = template;
            live.rebuild_with(specs, Some(weighted))?;
            Ok(Box::new(live) as Box<dyn Placement>)
        })?
        .map(Box::new);
        Ok(())
    }

    fn all_down(&self) -> bool {
        !self.nodes.is_empty() && (0..self.nodes.len()).all(|i| self.down.contains(&self.nodes, i))
    }

    fn key_position(&self, key: &[u8]) -> u64 {
        (self.rules.key_position)(key)
    }
}

/// What one point of a continuum weighs in the work meter's [`Cells`](crate::work::Cost::Cells).
const CONTINUUM_POINT_CELLS: u64 = 4;

/// A continuum being built in steps ([`Continuum::building`]): the points of a budget of
/// them a step (a node's at a time), sorted in pieces, then checked and indexed. Whatever the
/// steps, it is the continuum a rebuild in one call makes.
#[derive(Debug)]
pub(crate) struct ContinuumBuild {
    /// The checked nodes with their point counts; the points are set last.
    continuum: Continuum,
    /// The rules that place the points (the weighted switch's, when it is on).
    points_rules: &'static Rules,
    stage: Stage,
}

#[derive(Debug)]
enum Stage {
    Points { entries: Vec<(u64, u32)>, next: usize },
    Sort(StagedSort),
    Done,
}

impl Continuum {
    /// `rules`' continuum of `nodes`, with `options`' count and tokens, built in steps of
    /// bounded work.
    pub(crate) fn building(
        rules: &'static Rules,
        options: &Options,
        nodes: Vec<NodeSpec>,
    ) -> Result<ContinuumBuild, Error> {
        Continuum::empty(rules, options)?.rebuilding(nodes, None)
    }
}

impl ContinuumBuild {
    /// Places the points of nodes until `budget` points are placed (at least one node's),
    /// sorts or merges up to `budget` of them, or checks and indexes them all. Answers
    /// whether the continuum is built; an error (two nodes claiming one token) ends it.
    fn step(&mut self, budget: usize) -> Result<bool, Error> {
        let c = &mut self.continuum;
        match &mut self.stage {
            Stage::Points { entries, next } => {
                let start = entries.len();
                while *next < c.nodes.len() && entries.len() - start < budget.max(1) {
                    let (idx, node) = (*next, &c.nodes[*next]);
                    match c.explicit.get(&node.name) {
                        Some(positions) => entries.extend(positions.iter().map(|&p| (p, idx as u32))),
                        None => (self.points_rules.push_points)(&node.name, node.points, idx as u32, entries),
                    }
                    *next += 1;
                }
                if *next == c.nodes.len() {
                    self.stage = Stage::Sort(StagedSort::new(std::mem::take(entries)));
                }
            }
            Stage::Sort(sort) => {
                sort.step(budget);
                if sort.is_done() {
                    let Stage::Sort(sort) = std::mem::replace(&mut self.stage, Stage::Done) else { unreachable!() };
                    let mut entries = sort.into_sorted();
                    let name = |owner: u32| c.nodes[owner as usize].name.as_str();
                    order::order_ties(
                        &mut entries,
                        match c.rules.tie {
                            Tie::EarlierAdded => order::Tie::Earlier,
                            Tie::LaterAdded => order::Tie::Later,
                            Tie::SmallerName => order::Tie::Name(&name),
                        },
                    );
                    if let Some(explicit) = c.rules.explicit.filter(|_| !c.explicit.is_empty()) {
                        refuse_shared_positions(&entries, &c.nodes, &explicit)?;
                    }
                    arc_end_points(&mut entries, c.rules.lookup, c.rules.bits);
                    c.points.set(&entries);
                }
            }
            Stage::Done => {}
        }
        Ok(matches!(self.stage, Stage::Done))
    }
}

impl Building for ContinuumBuild {
    fn step(&mut self, budget: usize) -> Result<bool, Error> {
        ContinuumBuild::step(self, budget)
    }
    fn finish(mut self: Box<Self>) -> Result<Box<dyn Placement>, Error> {
        while !self.step(usize::MAX)? {}
        Ok(Box::new(self.continuum))
    }
}

/// `spec` with the weight its name carries (Dalli's `host:port:weight`), if any: given twice,
/// the two must agree.
fn with_written_weight(rules: &Rules, mut spec: NodeSpec) -> Result<NodeSpec, Error> {
    if let Some(written) = (rules.written_weight)(&spec.name)? {
        if spec.weight != 1.0 && spec.weight != written {
            let words = format!(
                "{:?} carries weight {} in its name but was given weight {}: give it once",
                spec.name,
                shortest(written),
                shortest(spec.weight)
            );
            return Err(Error::node_refused(&spec.name, words));
        }
        spec.weight = written;
    }
    Ok(spec)
}

/// A node's explicit tokens: at least one, each node's weight 1 (the tokens alone decide
/// what it owns).
fn explicit_count(node: &Node, tokens: &[u64]) -> Result<u32, Error> {
    if tokens.is_empty() {
        let words = format!("{:?}: an explicit token list needs at least one token", node.name);
        return Err(Error::node_refused(&node.name, words));
    }
    if node.weight != 1.0 {
        let words = format!(
            "{:?} has explicit tokens, which decide its share: its weight must be 1 (got {})",
            node.name,
            shortest(node.weight)
        );
        return Err(Error::node_refused(&node.name, words));
    }
    u32::try_from(tokens.len()).map_err(|_| Error::TooManyPoints { points: tokens.len() as u64 })
}

/// Where nodes carry their own tokens, two points on one position (two nodes', or one
/// node's twice) are refused, as the system refuses a token collision.
fn refuse_shared_positions(sorted: &[(u64, u32)], nodes: &[Node], explicit: &Explicit) -> Result<(), Error> {
    match sorted.windows(2).find(|w| w[0].0 == w[1].0) {
        None => Ok(()),
        Some(w) => Err((explicit.collision)(w[0].0, &nodes[w[0].1 as usize].name, &nodes[w[1].1 as usize].name)),
    }
}

/// A count option from 1 to `max`.
pub(crate) fn check_count(what: &str, got: u32, max: u32) -> Result<(), Error> {
    if got == 0 {
        return Err(Error::out_of_range(what, 0.0, (1.0, f64::from(max)), format!("{what} must be at least 1")));
    }
    limits::check(what, u64::from(got), u64::from(max))
}

/// The little-endian u32 at byte offset `4 * word` of a digest.
pub(crate) fn le_word(digest: &[u8], word: usize) -> u32 {
    u32::from_le_bytes(digest[4 * word..4 * word + 4].try_into().expect("4 bytes"))
}

/// MD5 of `bytes`, its little-endian word `word`.
pub(crate) fn md5_word(bytes: &[u8], word: usize) -> u64 {
    u64::from(le_word(&md5::Md5::digest(bytes), word))
}

/// zlib's CRC-32 of `bytes` (Ruby's `Zlib.crc32`, Python's `binascii.crc32`).
pub(crate) fn crc32(bytes: &[u8]) -> u64 {
    u64::from(crate::hash::CRC32.checksum(bytes))
}

/// The big-endian u32 of a digest's first four bytes (Ruby's `unpack1("L>")`, the first 8 hex
/// digits of a hex digest).
pub(crate) fn be_word0(digest: &[u8]) -> u64 {
    u64::from(u32::from_be_bytes(digest[..4].try_into().expect("4 bytes")))
}

/// The label of a node's `k`-th [`push_md5_quads`] point: `"{prefix}-{k / 4}"`, word `k % 4`.
pub(crate) fn md5_quad_label(prefix: &str, k: u32) -> String {
    format!("{prefix}-{} (MD5 word {})", k / 4, k % 4)
}

/// Points from MD5 digests of labels, four points a digest (libketama, weighted ketama):
/// `count / 4` labels `"{prefix}-{i}"`.
pub(crate) fn push_md5_quads(prefix: &str, count: u32, idx: u32, out: &mut Vec<(u64, u32)>) {
    for i in 0..count / 4 {
        let digest = md5::Md5::digest(format!("{prefix}-{i}").as_bytes());
        out.extend((0..4).map(|h| (u64::from(le_word(&digest, h)), idx)));
    }
}

/// How a ketama client turns a server's share of the total weight into labels, four points
/// each: `⌊weight / total · 40 · servers⌋`, so 160 points a server when all weigh the same.
/// The formula is one; the arithmetic is each client's own and is kept exactly, since the
/// roundings differ (25 equal servers: libmemcached's float gives 39 labels, libketama's
/// double 40).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Share {
    /// libketama (ketama.c): `pct = (float) mem / (float) total; ks = floorf(pct * 40.0 *
    /// (float) n)`: the share in float, the product in double (40.0 is a double), floorf
    /// back in float.
    FloatThenDouble,
    /// libmemcached (hosts.cc `update_continuum`): every step in float, `floorf(pct * 160 / 4 *
    /// n + 1e-10F)`.
    Float,
    /// twemproxy (`ketama_update`) and spymemcached's weighted ketama: the float product plus a
    /// double 1e-10 (lost in the cast back to float), floorf. `java_ints`: the weights and
    /// their sum are Java `int`s first (spymemcached).
    FloatPlusDouble { java_ints: bool },
    /// npm hashring (`continuum`): `Math.floor(weight / total * 40 * n)`, left to right in
    /// doubles.
    Double,
    /// uhashring (ring_ketama.py `_hashi_weight_generator`): `(40 * n * weight) // total` in
    /// Python integers.
    Integer,
}

/// Each node's points by its share of the total weight, in `share`'s arithmetic: four a
/// label.
pub(crate) fn ketama_counts(nodes: &[Node], share: Share) -> Vec<u32> {
    let n = nodes.len();
    let total: f64 = nodes.iter().map(|node| node.weight).sum();
    let whole_total: u128 = match share {
        Share::Integer => nodes.iter().map(|node| node.weight as u128).sum(),
        _ => 0,
    };
    let labels = |weight: f64| -> u64 {
        match share {
            Share::FloatThenDouble => {
                let pct = weight as f32 / total as f32;
                ((f64::from(pct) * 40.0 * f64::from(n as f32)) as f32).floor() as u64
            }
            Share::Float => {
                let pct = weight as f32 / total as f32;
                (pct * 160.0 / 4.0 * n as f32 + 0.000_000_000_1f32).floor() as u64
            }
            Share::FloatPlusDouble { java_ints } => {
                let (weight, total) =
                    if java_ints { (weight as i32 as f32, total as i32 as f32) } else { (weight as f32, total as f32) };
                let pct = weight / total;
                ((f64::from(pct * 160.0 / 4.0 * n as f32) + 0.000_000_000_1) as f32).floor() as u64
            }
            Share::Double => (weight / total * 40.0 * n as f64).floor() as u64,
            Share::Integer => (40 * n as u128 * weight as u128 / whole_total.max(1)) as u64,
        }
    };
    // A share is at most the whole, so labels stay far below the cap (40 a server).
    nodes.iter().map(|node| labels(node.weight).min(u64::from(u32::MAX / 4)) as u32 * 4).collect()
}

impl Placement for Continuum {
    fn algorithm(&self) -> Algorithm {
        self.rules.algorithm
    }
    fn nodes(&self) -> &[Node] {
        &self.nodes
    }
    /// An added server of weight > 1 turns the weighted switch on, whenever it comes
    /// (libmemcached hosts.cc `server_add`, once the distribution is consistent).
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        let heavy = with_written_weight(self.rules, spec.clone())?.weight > 1.0;
        let weighted = self.weighted || heavy;
        let mut all = specs(&self.nodes);
        all.push(spec);
        let mut changed = self.clone();
        changed.rebuild_with(all, Some(weighted))?;
        changed.refresh_live()?;
        *self = changed;
        Ok(())
    }
    fn remove(&mut self, name: &str) -> Result<(), Error> {
        let idx = index_of(&self.nodes, name)?;
        let mut all = specs(&self.nodes);
        all.remove(idx);
        let mut changed = self.clone();
        changed.rebuild(all)?;
        changed.down.forget(name);
        changed.refresh_live()?;
        *self = changed;
        Ok(())
    }
    fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
        let mut changed = self.clone();
        changed.down.set(&self.nodes, index, down)?;
        changed.refresh_live()?;
        *self = changed;
        Ok(())
    }
    fn is_down(&self, index: usize) -> bool {
        self.down.contains(&self.nodes, index)
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        if self.points.is_empty() {
            return Err(Error::EmptyRing);
        }
        if !self.down.is_empty() {
            if let Some(live) = &self.live {
                return live.locate_index(key);
            }
            let owner = self.points.owner_at(self.key_position(key)) as usize;
            if self.skips_down() {
                return Err(down::all_down());
            }
            if self.down.contains(&self.nodes, owner) {
                return Err(down::unavailable(self.rules.algorithm, &self.nodes[owner].name));
            }
            return Ok(owner);
        }
        Ok(self.points.owner_at(self.key_position(key)) as usize)
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        self.key_position(key) as f64 / self.size() as f64
    }
    fn describe_key(&self, key: &[u8]) -> String {
        (self.rules.describe_key)(key, self.key_position(key))
    }
    /// While a node is down: the live continuum (libmemcached, Cassandra), or the full one
    /// whose down node's arcs are unavailable (libketama, groupcache).
    fn arcs(&self) -> Option<&dyn Arcs> {
        match &self.live {
            Some(live) => live.arcs(),
            None if self.skips_down() && self.all_down() => None,
            None => Some(self),
        }
    }
    fn memory_bytes(&self) -> usize {
        self.points.memory_bytes()
            + self.live.as_ref().map_or(0, |l| l.memory_bytes())
            + self.nodes.iter().map(Node::memory_bytes).sum::<usize>()
    }
    fn lookup_cost(&self) -> u64 {
        self.rules.lookup_cost
    }
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        let bits = self.rules.bits;
        let size = self.size() as f64;
        chain.bytes("the key", key);
        let position = self.key_position(key);
        let label = format!("the key's hash, as {} reads it: its position", self.rules.algorithm.entry().label);
        // The system's own words ("md5 0x…", "token …"), with the position where they omit it.
        let (described, at) = ((self.rules.describe_key)(key, position), hex(position, bits));
        let value = if described.contains(&at) { described } else { format!("{described} = {at}") };
        chain.push(Step::new(StepKind::Position, label, value).at_fraction(position as f64 / size));
        let i = self.points.successor(position);
        let (at, owner) = self.points.point(i);
        let label = match self.rules.lookup {
            Lookup::AtOrAfter => FIRST_AT_OR_AFTER,
            Lookup::After => "the first point strictly after it: the arc it falls in ends here",
            Lookup::AtOrBefore => "the last point at or before it: the arc it falls in ends here",
        };
        chain.push(Step::point(label, i, self.points.len(), at, bits, owner));
        if let Some(text) = self.label_of(at, owner) {
            let step = Step::new(StepKind::Label, "its label: what was hashed to put the point there", text);
            chain.push(step.at_fraction(at as f64 / size).at_node(owner));
        }
        Some(owner)
    }
    fn boxed_clone(&self) -> Box<dyn Placement> {
        Box::new(self.clone())
    }
}

impl Continuum {
    /// The label of the point at `position` held by `owner`, found by pushing the owner's
    /// points again (labels are not stored): where points sit where their labels hash
    /// (first-at-or-after lookups, no explicit tokens) and the rules name labels.
    fn label_of(&self, position: u64, owner: usize) -> Option<String> {
        let label = self.rules.point_label?;
        let node = self.nodes.get(owner)?;
        if self.rules.lookup != Lookup::AtOrAfter || self.explicit.contains_key(&node.name) {
            return None;
        }
        let points_rules = match (self.weighted, self.rules.weighted_switch) {
            (true, Some(switch)) => switch,
            _ => self.rules,
        };
        let mut entries = Vec::with_capacity(node.points as usize);
        (points_rules.push_points)(&node.name, node.points, owner as u32, &mut entries);
        let k = entries.iter().position(|e| e.0 == position)?;
        Some(label(&node.name, k as u32))
    }
}

impl Arcs for Continuum {
    fn size(&self) -> u128 {
        1u128 << self.rules.bits
    }
    fn key_mapping(&self) -> String {
        // Clients whose recipes hash keys in the same words (libketama, libmemcached,
        // spymemcached's ketama, npm hashring: MD5's first word) place a key at the same
        // position, so their circles compare arc by arc; the others only with themselves.
        match self.rules.algorithm.entry().extras.recipe {
            Some(recipe) => format!("{} on 2^{}", recipe.key_hash, self.rules.bits),
            None => self.rules.algorithm.name().to_string(),
        }
    }
    fn point_count(&self) -> usize {
        self.points.len()
    }
    fn point(&self, i: usize) -> (u64, usize) {
        self.points.point(i)
    }
    fn owner_of(&self, position: u64) -> Result<usize, Error> {
        self.points.owner_of(position).ok_or(Error::EmptyRing)
    }
    fn node_list(&self) -> &[Node] {
        &self.nodes
    }
}
