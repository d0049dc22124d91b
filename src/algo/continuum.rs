//! The real systems that are rings of points: libketama, libmemcached (weighted and plain
//! ketama), Go groupcache and Cassandra tokens. Each differs in how it labels and counts
//! points, hashes keys and breaks ties; the lookup (first point at or after the key's hash,
//! wrapping) is the same. The rules are cited from each system's source in
//! `tests/real/README.md`, and `tests/real_systems.rs` checks them against the real code.
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
use super::{cassandra, check_weight, index_of, new_nodes, specs, unit_weight, Algorithm, Options, Placement};
use crate::analysis::Arcs;
use crate::order;
use crate::points::Points;
use crate::{limits, Error, Node, NodeSpec};
use md5::Digest as _;
use std::collections::BTreeMap;

const CRC32: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);
/// libketama keeps a server's address in `char ip[22]`.
const LIBKETAMA_MAX_NAME: usize = 21;
/// libketama copies its continuum into one SysV shared-memory segment of `MC_SHMSIZE` =
/// 524288 bytes (ketama.h): an int and a time_t padded to 36 bytes, then 28-byte `mcs`
/// entries (ketama.c `ketama_create_continuum`). More points write past the segment.
const LIBKETAMA_MAX_POINTS: u64 = (524_288 - 36) / 28;
const MEMCACHED_DEFAULT_PORT: u16 = 11211;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Libketama,
    LibmemcachedWeighted,
    LibmemcachedKetama,
    Groupcache { replicas: u32 },
    Cassandra { num_tokens: u32 },
}

/// Which of two points at the same position owns it.
#[derive(Clone, Copy, PartialEq)]
enum Tie {
    /// libketama (glibc's stable qsort) and libmemcached (`continuum_item_cmp`).
    EarlierAdded,
    /// groupcache: the later `Add` overwrites the point's entry in its map.
    LaterAdded,
    /// ringlab's rule, for Cassandra: only for generated tokens (a collision of two 64-bit
    /// hashes); explicit tokens that collide are refused, as Cassandra refuses them.
    SmallerName,
}

#[derive(Clone, Debug)]
pub(crate) struct Continuum {
    kind: Kind,
    nodes: Vec<Node>,
    points: Points,
    /// Cassandra's explicit tokens by node name (`Options::tokens`).
    tokens: BTreeMap<String, Vec<i64>>,
    down: DownSet,
    /// While a node is down (libmemcached, Cassandra): the continuum of the live nodes.
    live: Option<Box<Rebuilt>>,
    /// libmemcached-ketama switched to weighted ketama: adding a server of weight > 1 sets
    /// the flag (hosts.cc `server_add`, `memcached_server_push`), and nothing clears it, so
    /// the live continuum keeps the full list's.
    weighted: bool,
}

impl Continuum {
    pub(crate) fn new(options: &Options, nodes: Vec<NodeSpec>) -> Result<Continuum, Error> {
        let kind = match options.algorithm {
            Algorithm::Libketama => Kind::Libketama,
            Algorithm::LibmemcachedWeighted => Kind::LibmemcachedWeighted,
            Algorithm::LibmemcachedKetama => Kind::LibmemcachedKetama,
            Algorithm::Groupcache => {
                check_count("groupcache replicas", options.replicas, limits::MAX_REPLICAS)?;
                Kind::Groupcache { replicas: options.replicas }
            }
            Algorithm::Cassandra => {
                check_count("Cassandra num_tokens", options.num_tokens, limits::MAX_NUM_TOKENS)?;
                Kind::Cassandra { num_tokens: options.num_tokens }
            }
            other => unreachable!("{} is not a continuum", other.name()),
        };
        let tokens = if matches!(kind, Kind::Cassandra { .. }) { options.tokens.clone() } else { BTreeMap::new() };
        let mut continuum = Continuum {
            kind,
            nodes: Vec::new(),
            points: Points::new(kind.space_bits()),
            tokens,
            down: DownSet::default(),
            live: None,
            weighted: false,
        };
        continuum.rebuild(nodes)?;
        Ok(continuum)
    }

    /// Makes the continuum for `specs`, or leaves everything as it was on error.
    fn rebuild(&mut self, specs: Vec<NodeSpec>) -> Result<(), Error> {
        self.rebuild_with(specs, None)
    }

    /// `weighted`: libmemcached-ketama's switch, else decided by `specs`' weights.
    fn rebuild_with(&mut self, specs: Vec<NodeSpec>, weighted: Option<bool>) -> Result<(), Error> {
        let kind = self.kind;
        let mut nodes = new_nodes(specs, 0, |spec| kind.check(spec))?;
        let weighted =
            kind == Kind::LibmemcachedKetama && weighted.unwrap_or_else(|| nodes.iter().any(|n| n.weight > 1.0));
        let points_kind = if weighted { Kind::LibmemcachedWeighted } else { kind };
        let mut counts = points_kind.point_counts(&nodes)?;
        for (node, count) in nodes.iter().zip(counts.iter_mut()) {
            if let Some(tokens) = self.tokens.get(&node.name) {
                *count = explicit_count(node, tokens)?;
            }
        }
        let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
        limits::check("points on the continuum", total, limits::MAX_CONTINUUM_POINTS)?;
        if kind == Kind::Libketama && total > LIBKETAMA_MAX_POINTS {
            return Err(Error::TooLarge {
                what: format!(
                    "a libketama continuum (its shared-memory segment, MC_SHMSIZE = 524288 bytes, holds \
                     {LIBKETAMA_MAX_POINTS} points; the real library writes past it and crashes or corrupts memory): points"
                ),
                max: LIBKETAMA_MAX_POINTS,
                got: total,
            });
        }
        let mut entries: Vec<(u64, u32)> = Vec::with_capacity(total as usize);
        for (idx, (node, &count)) in nodes.iter_mut().zip(&counts).enumerate() {
            node.points = count;
            match self.tokens.get(&node.name) {
                Some(tokens) => entries.extend(tokens.iter().map(|&t| (cassandra::position(t), idx as u32))),
                None => points_kind.push_points(&node.name, count, idx as u32, &mut entries),
            }
        }
        let name = |owner: u32| nodes[owner as usize].name.as_str();
        order::sort_points(
            &mut entries,
            match self.kind.tie() {
                Tie::EarlierAdded => order::Tie::Earlier,
                Tie::LaterAdded => order::Tie::Later,
                Tie::SmallerName => order::Tie::Name(&name),
            },
        );
        if !self.tokens.is_empty() {
            refuse_shared_tokens(&entries, &nodes)?;
        }
        self.points.set(&entries);
        self.nodes = nodes;
        self.weighted = weighted;
        Ok(())
    }

    /// Whether the real client skips a down node (else its keys are unavailable).
    fn skips_down(&self) -> bool {
        !matches!(self.kind, Kind::Libketama | Kind::Groupcache { .. })
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
        match self.kind {
            Kind::Libketama | Kind::LibmemcachedWeighted | Kind::LibmemcachedKetama => {
                // libmemcached skips hashing with one server; the answer is the same.
                md5_word(key, 0)
            }
            Kind::Groupcache { .. } => u64::from(CRC32.checksum(key)),
            Kind::Cassandra { .. } => cassandra::position(cassandra::token(key)),
        }
    }
}

impl Kind {
    fn space_bits(self) -> u32 {
        match self {
            Kind::Cassandra { .. } => 64,
            _ => 32,
        }
    }

    fn tie(self) -> Tie {
        match self {
            Kind::Libketama | Kind::LibmemcachedWeighted | Kind::LibmemcachedKetama => Tie::EarlierAdded,
            Kind::Groupcache { .. } => Tie::LaterAdded,
            Kind::Cassandra { .. } => Tie::SmallerName,
        }
    }

    fn algorithm(self) -> Algorithm {
        match self {
            Kind::Libketama => Algorithm::Libketama,
            Kind::LibmemcachedWeighted => Algorithm::LibmemcachedWeighted,
            Kind::LibmemcachedKetama => Algorithm::LibmemcachedKetama,
            Kind::Groupcache { .. } => Algorithm::Groupcache,
            Kind::Cassandra { .. } => Algorithm::Cassandra,
        }
    }

    /// What the real system accepts as a node.
    fn check(self, spec: &NodeSpec) -> Result<(), Error> {
        check_weight(spec.weight)?;
        match self {
            Kind::Libketama if spec.name.len() > LIBKETAMA_MAX_NAME => Err(Error::InvalidOption(format!(
                "libketama server addresses are at most {LIBKETAMA_MAX_NAME} bytes ({:?} has {})",
                spec.name,
                spec.name.len()
            ))),
            // libmemcached-ketama too: its uint32 weights switch it to weighted ketama above 1.
            Kind::Libketama | Kind::LibmemcachedWeighted | Kind::LibmemcachedKetama if spec.weight.fract() != 0.0 => {
                Err(Error::InvalidOption(format!(
                    "{} weights are whole numbers (got {})",
                    self.algorithm().name(),
                    spec.weight
                )))
            }
            Kind::Libketama | Kind::LibmemcachedWeighted | Kind::LibmemcachedKetama
                if spec.weight > f64::from(u32::MAX) =>
            {
                Err(Error::InvalidOption(format!(
                    "{} weights are whole numbers up to {} (libmemcached keeps a weight in a uint32_t; got {})",
                    self.algorithm().name(),
                    u32::MAX,
                    spec.weight
                )))
            }
            Kind::Cassandra { num_tokens } => {
                let tokens = (spec.weight * f64::from(num_tokens)).round();
                limits::check("Cassandra tokens for one node", tokens as u64, limits::MAX_CONTINUUM_POINTS)
            }
            Kind::LibmemcachedWeighted | Kind::LibmemcachedKetama => host_port(&spec.name).map(drop),
            Kind::Groupcache { .. } => unit_weight(Algorithm::Groupcache, spec.weight),
            _ => Ok(()),
        }
    }

    /// Points per node, by each system's own arithmetic.
    fn point_counts(self, nodes: &[Node]) -> Result<Vec<u32>, Error> {
        let n = nodes.len();
        let total: f64 = nodes.iter().map(|node| node.weight).sum();
        Ok(match self {
            // ketama.c: pct = (float)mem / (float)total; ks = floorf(pct * 40.0 * (float)n),
            // where 40.0 makes the product a double, then floorf takes it back to float.
            Kind::Libketama => nodes
                .iter()
                .map(|node| {
                    let pct = node.weight as f32 / total as f32;
                    let ks = ((f64::from(pct) * 40.0 * f64::from(n as f32)) as f32).floor();
                    ks as u32 * 4
                })
                .collect(),
            // hosts.cc: every step in float, plus 1e-10F, floor, then × 4.
            Kind::LibmemcachedWeighted => nodes
                .iter()
                .map(|node| {
                    let pct = node.weight as f32 / total as f32;
                    let labels = (pct * 160.0 / 4.0 * n as f32 + 0.000_000_000_1f32).floor();
                    labels as u32 * 4
                })
                .collect(),
            Kind::LibmemcachedKetama => vec![100; n],
            Kind::Groupcache { replicas } => vec![replicas; n],
            Kind::Cassandra { num_tokens } => nodes
                .iter()
                .map(|node| {
                    let tokens = (node.weight * f64::from(num_tokens)).round().max(1.0);
                    tokens.min(limits::MAX_CONTINUUM_POINTS as f64) as u32
                })
                .collect(),
        })
    }

    fn push_points(self, name: &str, count: u32, idx: u32, out: &mut Vec<(u64, u32)>) {
        match self {
            Kind::Libketama => {
                for k in 0..count / 4 {
                    let digest = md5::Md5::digest(format!("{name}-{k}").as_bytes());
                    out.extend((0..4).map(|h| (u64::from(le_word(&digest, h)), idx)));
                }
            }
            Kind::LibmemcachedWeighted => {
                let prefix = memcached_label_prefix(name);
                for i in 0..count / 4 {
                    let digest = md5::Md5::digest(format!("{prefix}-{i}").as_bytes());
                    out.extend((0..4).map(|h| (u64::from(le_word(&digest, h)), idx)));
                }
            }
            Kind::LibmemcachedKetama => {
                let prefix = memcached_label_prefix(name);
                out.extend((0..count).map(|i| (md5_word(format!("{prefix}-{i}").as_bytes(), 0), idx)));
            }
            Kind::Groupcache { .. } => {
                out.extend((0..count).map(|i| (u64::from(CRC32.checksum(format!("{i}{name}").as_bytes())), idx)));
            }
            Kind::Cassandra { .. } => {
                out.extend(
                    (0..count).map(|i| (cassandra::position(cassandra::token(format!("{name}#{i}").as_bytes())), idx)),
                );
            }
        }
    }
}

/// A node's explicit Cassandra tokens: at least one, each node's weight 1 (the tokens alone
/// decide what it owns).
fn explicit_count(node: &Node, tokens: &[i64]) -> Result<u32, Error> {
    if tokens.is_empty() {
        return Err(Error::InvalidOption(format!("{:?}: an explicit token list needs at least one token", node.name)));
    }
    if node.weight != 1.0 {
        return Err(Error::InvalidOption(format!(
            "{:?} has explicit tokens, which decide its share: its weight must be 1 (got {})",
            node.name, node.weight
        )));
    }
    u32::try_from(tokens.len()).map_err(|_| Error::TooManyPoints { points: tokens.len() as u64 })
}

/// Cassandra refuses two nodes (or one node twice) on one token.
fn refuse_shared_tokens(sorted: &[(u64, u32)], nodes: &[Node]) -> Result<(), Error> {
    match sorted.windows(2).find(|w| w[0].0 == w[1].0) {
        None => Ok(()),
        Some(w) => Err(Error::InvalidOption(format!(
            "token {} is given twice ({:?} and {:?}): Cassandra refuses a token collision",
            (w[0].0 ^ (1 << 63)) as i64,
            nodes[w[0].1 as usize].name,
            nodes[w[1].1 as usize].name
        ))),
    }
}

/// A count option from 1 to `max`.
fn check_count(what: &str, got: u32, max: u32) -> Result<(), Error> {
    if got == 0 {
        return Err(Error::InvalidOption(format!("{what} must be at least 1")));
    }
    limits::check(what, u64::from(got), u64::from(max))
}

/// The little-endian u32 at byte offset `4 * word` of a digest.
fn le_word(digest: &[u8], word: usize) -> u32 {
    u32::from_le_bytes(digest[4 * word..4 * word + 4].try_into().expect("4 bytes"))
}

fn md5_word(bytes: &[u8], word: usize) -> u64 {
    u64::from(le_word(&md5::Md5::digest(bytes), word))
}

/// `host:port` as libmemcached stores it: no port or port 0 is 11211
/// (`memcached_server_add_with_weight`); a unix socket, a host starting with '/', is port 0
/// whatever port follows (`memcached_server_add_unix_socket`; server_list.cc
/// `memcached_server_list_append_with_weight`).
fn host_port(name: &str) -> Result<(&str, u16), Error> {
    let (host, port) = match name.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() => (
            host,
            port.parse().map_err(|_| {
                Error::InvalidOption(format!("{name:?}: the port after ':' must be a number from 0 to 65535"))
            })?,
        ),
        _ => (name, MEMCACHED_DEFAULT_PORT),
    };
    Ok(match port {
        _ if host.starts_with('/') => (host, 0),
        0 => (host, MEMCACHED_DEFAULT_PORT),
        port => (host, port),
    })
}

/// libmemcached's point label without the `-i` (hosts.cc `update_continuum`): `host` on
/// port 11211, else `host:port` (`/path:0` for a unix socket).
fn memcached_label_prefix(name: &str) -> String {
    match host_port(name) {
        Ok((host, MEMCACHED_DEFAULT_PORT)) => host.to_string(),
        Ok((host, port)) => format!("{host}:{port}"),
        Err(_) => name.to_string(),
    }
}

impl Placement for Continuum {
    fn algorithm(&self) -> Algorithm {
        self.kind.algorithm()
    }
    fn nodes(&self) -> &[Node] {
        &self.nodes
    }
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        let mut all = specs(&self.nodes);
        all.push(spec);
        let mut changed = self.clone();
        changed.rebuild(all)?;
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
                return Err(down::unavailable(self.kind.algorithm(), &self.nodes[owner].name));
            }
            return Ok(owner);
        }
        Ok(self.points.owner_at(self.key_position(key)) as usize)
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        self.key_position(key) as f64 / self.size() as f64
    }
    fn describe_key(&self, key: &[u8]) -> String {
        match self.kind {
            Kind::Cassandra { .. } => format!("token {}", cassandra::token(key)),
            Kind::Groupcache { .. } => format!("crc32 0x{:08x}", self.key_position(key)),
            _ => format!("md5 0x{:08x}", self.key_position(key)),
        }
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
        match self.kind {
            Kind::Libketama | Kind::LibmemcachedWeighted | Kind::LibmemcachedKetama => 12,
            Kind::Groupcache { .. } | Kind::Cassandra { .. } => 8,
        }
    }
    fn boxed_clone(&self) -> Box<dyn Placement> {
        Box::new(self.clone())
    }
}

impl Arcs for Continuum {
    fn size(&self) -> u128 {
        1u128 << self.kind.space_bits()
    }
    fn key_mapping(&self) -> String {
        self.kind.algorithm().name().to_string()
    }
    fn point_count(&self) -> usize {
        self.points.len()
    }
    fn point(&self, i: usize) -> (u64, usize) {
        (self.points.position(i), self.points.owner(i) as usize)
    }
    fn owner_of(&self, position: u64) -> Result<usize, Error> {
        if self.points.is_empty() {
            return Err(Error::EmptyRing);
        }
        Ok(self.points.owner_at(position) as usize)
    }
    fn node_list(&self) -> &[Node] {
        &self.nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memcached_labels_drop_the_default_port() {
        assert_eq!(memcached_label_prefix("10.0.1.1:11211"), "10.0.1.1");
        assert_eq!(memcached_label_prefix("10.0.1.1"), "10.0.1.1");
        assert_eq!(memcached_label_prefix("10.0.1.2:11212"), "10.0.1.2:11212");
        assert!(host_port("cache:port").is_err());
        assert_eq!(memcached_label_prefix("10.0.1.1:0"), "10.0.1.1");
        assert_eq!(memcached_label_prefix("/tmp/a.sock"), "/tmp/a.sock:0");
        assert_eq!(memcached_label_prefix("/tmp/a.sock:11212"), "/tmp/a.sock:0");
    }

    #[test]
    fn libmemcached_weighted_counts_use_single_precision() {
        // 25 equal servers: 0.04f * 160 / 4 * 25 = 39.99999 in float, so 39 labels, 156 points.
        let nodes: Vec<Node> =
            (0..25).map(|i| Node { name: format!("s{i}"), weight: 1.0, zone: None, points: 0 }).collect();
        assert!(Kind::LibmemcachedWeighted.point_counts(&nodes).unwrap().iter().all(|&c| c == 156));
        assert!(Kind::Libketama.point_counts(&nodes).unwrap().iter().all(|&c| c == 160));
    }
}
