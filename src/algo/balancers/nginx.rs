//! nginx's `hash $key;` and `hash $key consistent;` (`ngx_http_upstream_hash_module`,
//! nginx 1.22), bit for bit. Nodes are `server` lines: the name is the address text as
//! written (`10.0.0.1:11211`, `unix:/run/app.sock`), the weight nginx's `weight=`.
//!
//! - `nginx-consistent`: each server gets `160 × weight` points, each the CRC-32 of
//!   `host \0 port` followed by the previous point's 4 bytes (little-endian), starting from 0.
//!   Points are sorted and points equal to an earlier one dropped. A key's point is the
//!   first at or after `CRC-32(key)`, wrapping.
//! - `nginx-hash`: the Cache::Memcached loop: `hash += (CRC-32([n] key) >> 16) & 0x7fff`
//!   (`n` the try number in decimal, omitted on the first try), then `hash % total weight`
//!   picks the server by walking cumulative weights.
//!
//! A server marked `down` keeps its points (and its weight in the total); a key that reaches
//! it tries the next point (consistent) or the next rehash, up to 21 tries in all. After
//! 21 tries nginx balances that key round robin, and an empty key or a single server is
//! always balanced round robin: no hash decides those, so `locate` answers them with an
//! [`Error::Unsupported`] (except a single server that is up, which round robin must pick).
//! The rules are cited from the source in `tests/real/README.md`.
//!
//! ```
//! use ringlab::algo::{Algorithm, Cluster, Options};
//! let mut nginx = Cluster::new(Options::new(Algorithm::NginxConsistent), ["10.0.0.1:80", "10.0.0.2:80", "10.0.0.3:80"])?;
//! let before = nginx.locate("user:42")?.to_string();
//! nginx.set_down(&before, true)?;
//! assert_ne!(nginx.locate("user:42")?, before);
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::about::KeySpace;
use super::entry::{Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Weights};
use super::explain::{hex, Chain, Step, StepKind, FIRST_AT_OR_AFTER, MAX_WALK_STEPS};
use super::lines::{line_nodes, Lines};
use super::{Algorithm, Placement};
use crate::analysis::Arcs;
use crate::order::{self, Tie};
use crate::points::Points;
use crate::{Error, Node, NodeSpec, MAX_POINTS};

pub(crate) const CONSISTENT: Entry = Entry {
    name: "nginx-consistent",
    label: "nginx, hash … consistent",
    family: Family::Balancer,
    source: "nginx 1.22 ngx_http_upstream_hash_module (ngx_http_upstream_init_chash_peer)",
    options: &[],
    weights: Weights::Any,
    arcs: true,
    replicas: false,
    // CRC32 of the key.
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| {
        format!(
            "nginx `hash $key consistent`: 160 CRC32 points per unit of weight from each server's address text; a \
             key's CRC32 goes to the next point, skipping down servers ({}).",
            (CONSISTENT.key_space)(o).words()
        )
    },
    on_down: OnDown::Skip(
        "A server marked down keeps its points; a key that reaches one of them tries the next point, up to 21 \
         points in all, then nginx balances the key round robin.",
    ),
    on_stale: OnStale::Proxy(
        "Each nginx worker and each nginx server rebuilds its points on reload; until one has, it sends moved keys to their old upstream server.",
    ),
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`CONSISTENT`] is built.
pub(crate) const BUILD_CONSISTENT: Build = Build::Whole(|_, nodes, _| Ok(Box::new(Nginx::new(true, nodes)?)));

pub(crate) const HASH: Entry = Entry {
    name: "nginx-hash",
    label: "nginx, hash (not consistent)",
    family: Family::Balancer,
    source: "nginx 1.22 ngx_http_upstream_hash_module (ngx_http_upstream_get_hash_peer: the Cache::Memcached loop)",
    options: &[],
    weights: Weights::Any,
    arcs: false,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| {
        format!(
            "nginx `hash $key` (not consistent): CRC32 of the key modulo the total weight, rehashed while the pick \
             is down ({}).",
            (HASH.key_space)(o).words()
        )
    },
    on_down: OnDown::Skip(
        "A key whose server is down is rehashed (the Cache::Memcached loop), up to 21 tries, then nginx balances it \
         round robin; the down server keeps its weight in the total.",
    ),
    on_stale: OnStale::Proxy(
        "Each nginx worker and each nginx server rebuilds its points on reload; until one has, it sends moved keys to their old upstream server.",
    ),
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`HASH`] is built.
pub(crate) const BUILD_HASH: Build = Build::Whole(|_, nodes, _| Ok(Box::new(Nginx::new(false, nodes)?)));

/// The placement of an `upstream` block: `hash $key consistent;` or plain `hash $key;`,
/// its servers in order (mark the `down` ones after).
pub(crate) fn upstream(consistent: bool, servers: Vec<NodeSpec>) -> Result<super::Cluster, Error> {
    let algorithm = if consistent { Algorithm::NginxConsistent } else { Algorithm::NginxHash };
    Ok(super::Cluster::from_placement(Box::new(Nginx::new(consistent, servers)?), super::Options::new(algorithm)))
}

const CRC32: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);
/// nginx gives up hashing after this many tries (`hp->tries > 20`).
pub const TRIES: usize = 21;
/// Points per unit of weight (`peer->weight * 160`).
const POINTS_PER_WEIGHT: u64 = 160;

#[derive(Clone, Debug)]
pub(crate) struct Nginx {
    consistent: bool,
    nodes: Vec<Node>,
    down: Vec<bool>,
    /// The deduplicated points (consistent only); owners are the servers the points were made for.
    points: Points,
    /// Each point's owner after skipping down servers, or `None` when some point's 21 tries
    /// all land on down servers (those keys go round robin, so no share is exact).
    effective: Option<Vec<u32>>,
    /// `nginx-hash`: where each server's run of weights ends (running sums), so a lookup
    /// finds the server nginx's walk over the peers finds, in `O(log servers)`.
    ends: Vec<u64>,
}

impl Nginx {
    pub(crate) fn new(consistent: bool, specs: Vec<NodeSpec>) -> Result<Nginx, Error> {
        let down = vec![false; specs.len()];
        let mut nginx = Nginx {
            consistent,
            nodes: Vec::new(),
            down: Vec::new(),
            points: Points::new(32),
            effective: None,
            ends: Vec::new(),
        };
        nginx.rebuild(specs, down)?;
        Ok(nginx)
    }
}

/// Server lines, each marked `down` or not.
impl Lines for Nginx {
    type Extra = bool;

    fn lines(&self) -> (&[Node], &[bool]) {
        (&self.nodes, &self.down)
    }

    fn rebuild(&mut self, specs: Vec<NodeSpec>, down: Vec<bool>) -> Result<(), Error> {
        let consistent = self.consistent;
        let nodes = line_nodes(specs, "nginx", None, |weight| {
            let points = if consistent { weight * POINTS_PER_WEIGHT as f64 } else { 0.0 };
            points.min(u32::MAX as f64) as u32
        })?;
        let total: f64 = nodes.iter().map(|n| n.weight).sum();
        if self.consistent && total * POINTS_PER_WEIGHT as f64 > MAX_POINTS as f64 {
            return Err(Error::TooManyPoints { points: (total * POINTS_PER_WEIGHT as f64) as u64 });
        }
        if !self.consistent && total > f64::from(u32::MAX) {
            return Err(Error::TooLarge {
                what: "nginx's total weight".into(),
                max: u64::from(u32::MAX),
                got: total as u64,
            });
        }
        let mut points = Points::new(32);
        if self.consistent {
            let mut entries: Vec<(u64, u32)> = Vec::new();
            for (idx, node) in nodes.iter().enumerate() {
                push_points(&node.name, node.points, idx as u32, &mut entries);
            }
            // glibc's qsort is a merge sort here (stable): of equal hashes the earlier
            // server's point comes first, and nginx keeps the first.
            order::sort_points(&mut entries, Tie::Earlier);
            entries.dedup_by_key(|e| e.0);
            points.set(&entries);
        }
        self.ends = nodes
            .iter()
            .scan(0u64, |end, n| {
                *end += n.weight as u64;
                Some(*end)
            })
            .collect();
        self.nodes = nodes;
        self.points = points;
        self.down = down;
        self.effective = self.effective_owners();
        Ok(())
    }
}

impl Nginx {
    fn effective_owners(&self) -> Option<Vec<u32>> {
        let only_up = self.only_up();
        (0..self.points.len()).map(|i| self.first_up_from(i).or(only_up).map(|idx| idx as u32)).collect()
    }

    /// The server nginx picks when a key's first point is `start`: the first of `TRIES`
    /// points, in order, whose server is not down.
    fn first_up_from(&self, start: usize) -> Option<usize> {
        self.tried_points(start).map(|i| self.points.owner(i) as usize).find(|&idx| !self.down[idx])
    }

    /// The points nginx tries for a key whose first point is `start`, in order.
    fn tried_points(&self, start: usize) -> impl Iterator<Item = usize> {
        let n = self.points.len();
        (0..TRIES).map(move |t| (start + t) % n)
    }

    /// `nginx-hash`'s tries for a key: each try's step, the running hash and the server it
    /// picks, in order.
    fn tries<'a>(&'a self, key: &'a [u8]) -> impl Iterator<Item = (u32, u32, usize)> + 'a {
        (0..TRIES).scan(0u32, move |hash, t| {
            let step = rehash_step(t, key);
            *hash = hash.wrapping_add(step);
            Some((step, *hash, self.by_weight(*hash)))
        })
    }

    fn total_weight(&self) -> u64 {
        self.ends.last().copied().unwrap_or(0)
    }

    /// The server index `hash` picks by walking cumulative weights (down servers included):
    /// the first whose run ends past `hash % total`. (Not empty: weights are at least 1.)
    fn by_weight(&self, hash: u32) -> usize {
        let w = u64::from(hash) % self.total_weight();
        self.ends.partition_point(|&end| end <= w)
    }

    /// nginx's round-robin fallback: with one server up it is that server's, whatever the
    /// key; with more, no hash decides.
    fn round_robin(&self, why: &str) -> Result<usize, Error> {
        self.only_up().ok_or_else(|| {
            Error::Unsupported(format!("nginx balances this key round robin ({why}), so no hash decides its server"))
        })
    }

    /// The one server not down, if exactly one is.
    fn only_up(&self) -> Option<usize> {
        let mut up = (0..self.down.len()).filter(|&i| !self.down[i]);
        up.next().filter(|_| up.next().is_none())
    }
}

/// The points of one server: CRC-32 of `host \0 port prev_hash`, where `host` and `port` are
/// the address text split as [`split_address`] splits it (all of it after `unix:`).
fn push_points(name: &str, count: u32, idx: u32, out: &mut Vec<(u64, u32)>) {
    let (host, port) = split_address(name);
    let mut base = CRC32.digest();
    base.update(host.as_bytes());
    base.update(&[0]);
    base.update(port.as_bytes());
    let mut prev = 0u32;
    for _ in 0..count {
        let mut digest = base.clone();
        digest.update(&prev.to_le_bytes());
        prev = digest.finalize();
        out.push((u64::from(prev), idx));
    }
}

fn split_address(name: &str) -> (&str, &str) {
    if name.len() >= 5 && name.as_bytes()[..5].eq_ignore_ascii_case(b"unix:") {
        return (&name[5..], "");
    }
    // `ngx_http_upstream_init_chash` reads digits back from the end: a `:` before them
    // starts the port; anything else means no port (`[::1]` is all host).
    let digits = name.bytes().rev().take_while(u8::is_ascii_digit).count();
    let at = name.len() - digits;
    match at.checked_sub(1) {
        Some(colon) if name.as_bytes()[colon] == b':' => (&name[..colon], &name[at..]),
        _ => (name, ""),
    }
}

/// The down tries past the first [`MAX_WALK_STEPS`], counted.
fn more_tries(passed: usize, chain: &mut Chain) {
    if passed > MAX_WALK_STEPS {
        let label = format!("… and {} more tries, each of a down server", passed - MAX_WALK_STEPS);
        chain.push(Step::new(StepKind::Down, label, "not named"));
    }
}

/// One try of `nginx-hash`: `(CRC-32([try] key) >> 16) & 0x7fff`.
fn rehash_step(try_number: usize, key: &[u8]) -> u32 {
    let mut digest = CRC32.digest();
    if try_number > 0 {
        digest.update(try_number.to_string().as_bytes());
    }
    digest.update(key);
    (digest.finalize() >> 16) & 0x7fff
}

impl Placement for Nginx {
    fn algorithm(&self) -> Algorithm {
        if self.consistent {
            Algorithm::NginxConsistent
        } else {
            Algorithm::NginxHash
        }
    }
    fn nodes(&self) -> &[Node] {
        &self.nodes
    }
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        self.add_line(spec)
    }
    fn remove(&mut self, name: &str) -> Result<(), Error> {
        self.remove_line(name)
    }
    fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
        if index >= self.nodes.len() {
            return Err(Error::NoNodeNumber { index, nodes: self.nodes.len() });
        }
        self.down[index] = down;
        self.effective = self.effective_owners();
        Ok(())
    }
    fn is_down(&self, index: usize) -> bool {
        self.down.get(index).copied().unwrap_or(false)
    }
    /// The `weight=` of a server line changed in place: the order stays.
    fn set_weight_at(&mut self, index: usize, weight: f64) -> Option<Result<(), Error>> {
        self.reweigh_line(index, weight)
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        match self.nodes.len() {
            0 => return Err(Error::EmptyRing),
            1 if self.down[0] => return Err(Error::Unsupported("the only server is down: nginx answers 502".into())),
            1 => return Ok(0), // `peers->single`: round robin, which has one choice
            _ if key.is_empty() => return self.round_robin("the key is empty"),
            _ => {}
        }
        if self.consistent {
            let start = self.start_point(key);
            return self.first_up_from(start).map_or_else(|| self.round_robin("21 points in a row are down"), Ok);
        }
        let up = self.tries(key).map(|(_, _, idx)| idx).find(|&idx| !self.down[idx]);
        up.map_or_else(|| self.round_robin("21 rehashes in a row picked down servers"), Ok)
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        if self.consistent {
            f64::from(CRC32.checksum(key)) / 4_294_967_296.0
        } else {
            f64::from(rehash_step(0, key)) / 32_768.0
        }
    }
    fn describe_key(&self, key: &[u8]) -> String {
        if self.consistent {
            format!("crc32 0x{:08x}", CRC32.checksum(key))
        } else {
            let first = rehash_step(0, key);
            let total = self.total_weight().max(1);
            format!("(crc32 >> 16) & 0x7fff = {first}, mod total weight {total} = {}", u64::from(first) % total)
        }
    }
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        chain.bytes("the bytes hashed: the value of the hash key ($key), as is", key);
        if self.nodes.len() == 1 {
            let label = "one server: nginx balances round robin, no hash";
            chain.push(Step::new(StepKind::Candidate, label, &self.nodes[0].name).at_node(0));
            return Some(0);
        }
        if key.is_empty() {
            chain.push(Step::new(StepKind::Position, "an empty key: nginx balances it round robin", "no hash"));
            return None;
        }
        if self.consistent {
            let crc = CRC32.checksum(key);
            let fraction = f64::from(crc) / 4_294_967_296.0;
            let step = Step::new(StepKind::Hash, "CRC-32 of the key: its position", hex(u64::from(crc), 32));
            chain.push(step.at_fraction(fraction));
            let i = self.start_point(key);
            let (at, owner) = self.points.point(i);
            chain.push(Step::point(FIRST_AT_OR_AFTER, i, self.points.len(), at, 32, owner));
            let fraction = at as f64 / 4_294_967_296.0;
            if let Some(text) = self.point_label(owner, at) {
                let label = "its label: CRC-32 of host, 0x00, port and the server's previous point (4 bytes, LE)";
                chain.push(Step::new(StepKind::Label, label, text).at_fraction(fraction).at_node(owner));
            }
            return Some(owner);
        }
        let (step, hash, idx) = self.tries(key).next()?;
        let label = "try 1: (CRC-32 of the key >> 16) & 0x7fff";
        chain.push(Step::new(StepKind::Hash, label, step.to_string()).at_fraction(f64::from(step) / 32_768.0));
        chain.push(self.weight_step(hash, idx));
        Some(idx)
    }
    /// The candidate is down: nginx tries the next points (consistent) or rehashes, 21
    /// tries in all, then balances round robin.
    fn explain_down(&self, key: &[u8], chain: &mut Chain) -> bool {
        if self.nodes.len() < 2 || key.is_empty() {
            return false;
        }
        let mut passed = 0;
        if self.consistent {
            for (t, i) in self.tried_points(self.start_point(key)).enumerate().skip(1) {
                let (at, owner) = self.points.point(i);
                let place = format!("point {i} at {}: {}", hex(at, 32), self.nodes[owner].name);
                let fraction = at as f64 / 4_294_967_296.0;
                if !self.down[owner] {
                    more_tries(passed, chain);
                    let label = format!("try {}: the next point, its server up", t + 1);
                    chain.push(Step::new(StepKind::Point, label, place).at_fraction(fraction).at_node(owner));
                    return true;
                }
                passed += 1;
                if passed <= MAX_WALK_STEPS {
                    let label = format!("try {}: the next point, its server down", t + 1);
                    chain.push(Step::new(StepKind::Down, label, place).at_fraction(fraction).at_node(owner));
                }
            }
        } else {
            for (t, (step, hash, idx)) in self.tries(key).enumerate().skip(1) {
                if !self.down[idx] {
                    more_tries(passed, chain);
                }
                if !self.down[idx] || passed < MAX_WALK_STEPS {
                    let label = format!("try {}: (CRC-32 of \"{t}\" and the key >> 16) & 0x7fff, added", t + 1);
                    chain.push(Step::new(StepKind::Hash, label, format!("{step}, sum {hash}")));
                    chain.push(self.weight_step(hash, idx));
                }
                if !self.down[idx] {
                    return true;
                }
                passed += 1;
            }
        }
        more_tries(passed, chain);
        let label = format!("{TRIES} tries reached down servers");
        chain.push(Step::new(StepKind::Down, label, "nginx balances the key round robin"));
        true
    }
    fn arcs(&self) -> Option<&dyn Arcs> {
        (self.consistent && self.effective.is_some() && !self.points.is_empty()).then_some(self as &dyn Arcs)
    }
    fn exact_shares_are_arcs(&self) -> bool {
        false
    }
    /// `nginx-hash` with every server up: of the 32768 first-try values, those `w` mod the
    /// total weight falls in each server's run of weights.
    fn exact_shares(&self) -> Option<Vec<f64>> {
        if self.consistent {
            let arcs = self.arcs()?;
            let size = arcs.size() as f64;
            return Some(crate::analysis::shares(arcs).into_iter().map(|s| s as f64 / size).collect());
        }
        if self.nodes.is_empty() || self.down.iter().any(|&d| d) {
            return None;
        }
        let mut counts = vec![0u64; self.nodes.len()];
        for h in 0..32_768u32 {
            counts[self.by_weight(h)] += 1;
        }
        Some(counts.into_iter().map(|c| c as f64 / 32_768.0).collect())
    }
    fn memory_bytes(&self) -> usize {
        self.points.memory_bytes()
            + self.effective.as_ref().map_or(0, |e| e.capacity() * 4)
            + self.ends.capacity() * 8
            + self.nodes.iter().map(Node::memory_bytes).sum::<usize>()
    }
    fn boxed_clone(&self) -> Box<dyn Placement> {
        Box::new(self.clone())
    }
}

impl Nginx {
    /// `nginx-hash`: the running hash mod the total weight, and the server it picks.
    fn weight_step(&self, hash: u32, idx: usize) -> Step {
        let total = self.total_weight();
        let down = if self.down[idx] { " (down)" } else { "" };
        let label = format!("the hash mod the total weight {total}: the server whose run of weights holds it");
        let value = format!("{hash} % {total} = {} → {}{down}", u64::from(hash) % total, self.nodes[idx].name);
        Step::new(StepKind::Bucket, label, value).at_node(idx)
    }

    /// What nginx hashed to put `owner`'s point at `position`: host, 0x00, port and the
    /// previous point, found by making the owner's points again (they are not stored).
    fn point_label(&self, owner: usize, position: u64) -> Option<String> {
        let node = self.nodes.get(owner)?;
        let mut points = Vec::with_capacity(node.points as usize);
        push_points(&node.name, node.points, owner as u32, &mut points);
        let k = points.iter().position(|p| p.0 == position)?;
        let previous = if k == 0 { 0 } else { points[k - 1].0 };
        let (host, port) = split_address(&node.name);
        Some(format!("{host:?} 0x00 {port:?} + {}: point {k} of {}", hex(previous, 32), node.name))
    }

    /// `ngx_http_upstream_find_chash_point`: the first point at or after the key's CRC-32,
    /// as an index that wraps to 0 past the last point.
    fn start_point(&self, key: &[u8]) -> usize {
        self.points.successor(u64::from(CRC32.checksum(key)))
    }
}

/// The points with each one's owner after skipping down servers: what a key landing on it
/// gets. Only offered when every point has such an owner.
impl Arcs for Nginx {
    fn size(&self) -> u128 {
        1 << 32
    }
    fn key_mapping(&self) -> String {
        "nginx-consistent/crc32".into()
    }
    fn point_count(&self) -> usize {
        self.points.len()
    }
    fn point(&self, i: usize) -> (u64, usize) {
        let owner = self.effective.as_ref().map_or(self.points.owner(i), |e| e[i]);
        (self.points.position(i), owner as usize)
    }
    fn owner_of(&self, position: u64) -> Result<usize, Error> {
        if self.points.is_empty() {
            return Err(Error::EmptyRing);
        }
        let i = self.points.successor(position);
        self.effective.as_ref().map(|e| e[i] as usize).ok_or_else(|| {
            Error::Unsupported("some keys go round robin (21 points in a row are down): no exact arcs".into())
        })
    }
    fn node_list(&self) -> &[Node] {
        &self.nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked by hand from `ngx_http_upstream_init_chash`'s loop: digits back from the end,
    /// then a `:` or no port at all.
    #[test]
    fn addresses_split_where_nginx_splits_them() {
        assert_eq!(split_address("10.0.0.1:80"), ("10.0.0.1", "80"));
        assert_eq!(split_address("[::1]:8080"), ("[::1]", "8080"));
        assert_eq!(split_address("backend"), ("backend", ""));
        assert_eq!(split_address("127.0.0.2"), ("127.0.0.2", ""));
        assert_eq!(split_address("UNIX:/run/a:b.sock"), ("/run/a:b.sock", ""));
        // No port: the last character is not a digit, so nothing is cut at the last `:`.
        assert_eq!(split_address("[::1]"), ("[::1]", ""));
        assert_eq!(split_address("[fe80::1%eth0]"), ("[fe80::1%eth0]", ""));
        assert_eq!(split_address("host:"), ("host", ""));
    }

    /// nginx's round-robin fallback has one choice when one server is up: that server, for
    /// every key (real nginx sent all 1,200 keys of such a config there).
    #[test]
    fn with_one_server_up_every_key_is_its() {
        for consistent in [false, true] {
            let specs: Vec<NodeSpec> = (1..=6).map(|i| NodeSpec::new(format!("127.0.0.1:3100{i}"))).collect();
            let mut n = Nginx::new(consistent, specs).unwrap();
            for i in [0, 1, 2, 4, 5] {
                n.set_down(i, true).unwrap();
            }
            assert!((0..2_000).all(|k| n.locate_index(format!("k{k}").as_bytes()).unwrap() == 3));
            assert!(n.locate_index(b"").unwrap() == 3, "an empty key goes round robin: to the one server up");
            // Two up: round robin has a choice again, and no hash makes it.
            n.set_down(5, false).unwrap();
            assert_eq!(n.locate_index(b"").unwrap_err().code(), "unsupported");
        }
    }

    #[test]
    fn points_chain_from_the_previous_hash() {
        // Independent: zlib's CRC-32 of the bytes spelled out.
        let mut out = Vec::new();
        push_points("10.0.0.1:80", 2, 0, &mut out);
        let first = CRC32.checksum(b"10.0.0.1\x0080\x00\x00\x00\x00");
        let mut second_input = b"10.0.0.1\x0080".to_vec();
        second_input.extend_from_slice(&first.to_le_bytes());
        assert_eq!(out, vec![(u64::from(first), 0), (u64::from(CRC32.checksum(&second_input)), 0)]);
    }
}
