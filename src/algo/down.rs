//! A node goes down (it is not removed): what each real system's client does with the keys
//! that node owns, so that a down node shows exactly what production would do, and nothing
//! made up.
//!
//! Three behaviours, by [`DownKind`]:
//!
//! - **Skip**: a key of a down node goes to the next healthy node in the algorithm's own
//!   order (clockwise on a ring, next highest score for rendezvous); every other key stays.
//!   ringlab's ring and Dynamo-style stores, Cassandra replicas, rendezvous, multi-probe.
//! - **Rebuild**: the client rebuilds its structure from the healthy nodes, as if the down
//!   node were removed: libmemcached with `MEMCACHED_BEHAVIOR_AUTO_EJECT_HOSTS`, Maglev,
//!   HAProxy, bounded-load. Some keys of healthy nodes can move too (see each text).
//! - **Unavailable**: the real client has no way to skip a node: the down node's keys have no
//!   owner until someone acts ([`locate`](super::Cluster::locate) answers
//!   [`Error::Unavailable`] saying what): Redis Cluster until a replica is promoted, jump and
//!   `hash % N` until the caller remaps, libketama until its server list is edited, groupcache
//!   (the asking process loads the value itself).
//!
//! [`rule`] says it in words for each algorithm; the sources are cited there and in
//! `tests/real/README.md`.

use super::{Algorithm, Placement};
use crate::analysis::Arcs;
use crate::{Error, Node, NodeSpec};

/// What a real client does with the keys of a down node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DownKind {
    /// Its keys go to the next healthy node; no other key moves.
    Skip,
    /// The structure is rebuilt from the healthy nodes; a few other keys can move too.
    Rebuild,
    /// Its keys have no owner until an operator or the caller acts.
    Unavailable,
}

/// How an algorithm's real clients treat a down node, in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DownRule {
    pub kind: DownKind,
    /// One or two sentences for people, naming the real behaviour and its source.
    pub text: &'static str,
}

/// The rule for `algorithm`.
///
/// ```
/// use ringlab::algo::{down, Algorithm};
/// assert_eq!(down::rule(Algorithm::RedisCluster).kind, down::DownKind::Unavailable);
/// assert_eq!(down::rule(Algorithm::Ring).kind, down::DownKind::Skip);
/// ```
pub fn rule(algorithm: Algorithm) -> DownRule {
    use DownKind::*;
    let (kind, text) = match algorithm {
        Algorithm::Ring => (Skip, "A key of a down node goes to the next healthy node clockwise; the preference list skips down nodes and takes the next healthy distinct (zone-aware) node, as Dynamo-style stores do. No other key moves."),
        Algorithm::BoundedLoad => (Rebuild, "Placement is redone over the healthy nodes, with the capacity ⌈(1 + ε)·keys / healthy nodes⌉: the down node's keys take the next healthy node with room, and the higher load can push a few other keys along the ring."),
        Algorithm::Libketama => (Unavailable, "libketama has no health check: ketama_get_server() still returns the down server, and the caller's request to it fails. libketama re-reads its server list when the file changes (ketama_roll), so the fix is to delete the line: a removal."),
        Algorithm::LibmemcachedWeighted | Algorithm::LibmemcachedKetama => (Rebuild, "With MEMCACHED_BEHAVIOR_AUTO_EJECT_HOSTS, libmemcached marks a server dead after server_failure_limit failures and rebuilds the continuum from the live servers only (update_continuum skips servers whose next_retry is in the future); point counts are recomputed over the live servers and weights. Without auto-eject, requests for its keys fail."),
        Algorithm::RedisCluster => (Unavailable, "The failed master's slots are unavailable until one of its replicas is promoted (after cluster-node-timeout); with the default cluster-require-full-coverage yes, the whole cluster refuses queries (CLUSTERDOWN) meanwhile. Other slots never move."),
        Algorithm::Cassandra => (Skip, "The token owner stays the owner (nothing moves until the node is removed). With replication factor ≥ 2 a read at CL=ONE is served by a live replica; ringlab shows the next live node clockwise, a replica under SimpleStrategy (the coordinator's snitch may pick another live replica). With RF = 1 the key is unavailable."),
        Algorithm::Groupcache => (Unavailable, "groupcache has no failover: the fetch from the down peer fails and the process that was asked loads the value itself (Group.load falls back to getLocally), so the key has no single owner until HTTPPool.Set() is called without the peer."),
        Algorithm::Jump => (Unavailable, "Jump hash cannot skip a bucket: the down bucket's keys are unavailable until the caller remaps them (the paper: jump hash suits data storage with replicated buckets, not servers that come and go); removing a bucket other than the last renumbers the rest."),
        Algorithm::Modulo => (Unavailable, "hash % N has no skip: the down node's keys fail until the client drops it from its list, which changes N and moves almost every key."),
        Algorithm::Rendezvous => (Skip, "A key of a down node goes to the node with the next highest score for that key; no other key moves."),
        Algorithm::Maglev => (Rebuild, "Maglev health-checks its backends and regenerates the lookup table from the healthy ones (NSDI 2016, §3.4): the down backend's entries go to the others, and a few entries of healthy backends change too (Maglev trades a little disruption for even load)."),
        Algorithm::MultiProbe => (Skip, "The down node's points are ignored: each probe finds the nearest healthy point, so only the down node's keys move."),
        Algorithm::NginxConsistent => (Skip, "A server marked down keeps its points; a key that reaches one of them tries the next point, up to 21 points in all, then nginx balances the key round robin."),
        Algorithm::NginxHash => (Skip, "A key whose server is down is rehashed (the Cache::Memcached loop), up to 21 tries, then nginx balances it round robin; the down server keeps its weight in the total."),
        Algorithm::HaproxyConsistent | Algorithm::HaproxyMapBased => (Rebuild, "A disabled server leaves HAProxy's tree or map: the structure is rebuilt from the servers that are up."),
    };
    DownRule { kind, text }
}

/// The error for a key whose owner `name` is down, with the algorithm's reason.
pub(crate) fn unavailable(algorithm: Algorithm, name: &str) -> Error {
    let why = match algorithm {
        Algorithm::RedisCluster => "its slot belongs to a failed master and no replica has been promoted",
        Algorithm::Libketama => "libketama has no health check and still picks it; remove it from the server list",
        Algorithm::Groupcache => "groupcache has no failover: the asking process loads the value itself",
        Algorithm::Jump => "jump hash cannot skip a bucket; the caller must remap",
        Algorithm::Modulo => "hash % N cannot skip a node; the client must drop it, changing N",
        _ => "its node is down",
    };
    Error::Unavailable(format!("the key's owner {name:?} is down: {why}"))
}

/// The error when every node is down.
pub(crate) fn all_down() -> Error {
    Error::Unavailable("every node is down: no node can serve a key".into())
}

/// Checks `index` names a node, for `set_down`.
pub(crate) fn check_index(nodes: &[Node], index: usize) -> Result<(), Error> {
    if index < nodes.len() {
        Ok(())
    } else {
        Err(Error::InvalidOption(format!("no node number {index} (there are {})", nodes.len())))
    }
}

/// The names of the down nodes, kept by name so adds and removes need no bookkeeping.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct DownSet(std::collections::BTreeSet<String>);

impl DownSet {
    pub(crate) fn set(&mut self, nodes: &[Node], index: usize, down: bool) -> Result<(), Error> {
        check_index(nodes, index)?;
        let name = &nodes[index].name;
        if down {
            self.0.insert(name.clone());
        } else {
            self.0.remove(name);
        }
        Ok(())
    }
    pub(crate) fn contains(&self, nodes: &[Node], index: usize) -> bool {
        !self.0.is_empty() && nodes.get(index).is_some_and(|n| self.0.contains(&n.name))
    }
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Forgets a removed node.
    pub(crate) fn forget(&mut self, name: &str) {
        self.0.remove(name);
    }
    /// The specs of the nodes that are up, and each one's index among all nodes.
    pub(crate) fn live(&self, nodes: &[Node]) -> (Vec<NodeSpec>, Vec<usize>) {
        nodes.iter().enumerate().filter(|(_, n)| !self.0.contains(&n.name)).map(|(i, n)| (n.spec(), i)).unzip()
    }
}

/// A placement rebuilt from the healthy nodes only, answering with indices among all nodes:
/// the state of a "Rebuild" algorithm while some node is down.
#[derive(Debug)]
pub(crate) struct Rebuilt {
    live: Box<dyn Placement>,
    /// `to_full[i]`: the index among all nodes of the live placement's node `i`.
    to_full: Vec<usize>,
    nodes: Vec<Node>,
}

impl Clone for Rebuilt {
    fn clone(&self) -> Rebuilt {
        Rebuilt { live: self.live.boxed_clone(), to_full: self.to_full.clone(), nodes: self.nodes.clone() }
    }
}

impl Rebuilt {
    /// The placement `make` builds from the healthy nodes. `None` when no node is down, and
    /// when every node is: callers answer [`all_down`] then.
    pub(crate) fn build(
        nodes: &[Node],
        down: &DownSet,
        make: impl FnOnce(Vec<NodeSpec>) -> Result<Box<dyn Placement>, Error>,
    ) -> Result<Option<Rebuilt>, Error> {
        if down.is_empty() {
            return Ok(None);
        }
        let (specs, to_full) = down.live(nodes);
        if specs.is_empty() {
            return Ok(None);
        }
        Ok(Some(Rebuilt { live: make(specs)?, to_full, nodes: nodes.to_vec() }))
    }

    pub(crate) fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        self.live.locate_index(key).map(|i| self.to_full[i])
    }

    pub(crate) fn arcs(&self) -> Option<&dyn Arcs> {
        self.live.arcs().map(|_| self as &dyn Arcs)
    }

    pub(crate) fn memory_bytes(&self) -> usize {
        self.live.memory_bytes() + self.to_full.capacity() * 8
    }
}

impl Arcs for Rebuilt {
    fn size(&self) -> u128 {
        self.live.arcs().map_or(0, |a| a.size())
    }
    fn key_mapping(&self) -> String {
        self.live.arcs().map_or_else(String::new, |a| a.key_mapping())
    }
    fn point_count(&self) -> usize {
        self.live.arcs().map_or(0, |a| a.point_count())
    }
    fn point(&self, i: usize) -> (u64, usize) {
        let (pos, owner) = self.live.arcs().expect("offered only with arcs").point(i);
        (pos, self.to_full[owner])
    }
    fn owner_of(&self, position: u64) -> Result<usize, Error> {
        let arcs = self.live.arcs().ok_or_else(|| Error::Unsupported("no exact arcs".into()))?;
        arcs.owner_of(position).map(|o| self.to_full[o])
    }
    fn node_list(&self) -> &[Node] {
        &self.nodes
    }
}
