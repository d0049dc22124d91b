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
//! Each algorithm's entry says it in words ([`OnDown`], read by [`rule`]); the
//! sources are cited there and in `tests/real/README.md`.

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

/// What its real clients do with a down node's keys: the kind, and in words (one or two
/// sentences naming the real behaviour and its source).
#[derive(Clone, Copy, Debug)]
pub enum OnDown {
    /// Its keys go to the next healthy node; no other key moves.
    Skip(&'static str),
    /// The structure is rebuilt from the healthy nodes; a few other keys can move too.
    Rebuild(&'static str),
    /// Its keys have no owner until someone acts; `why` ends the error a lookup answers.
    Unavailable { text: &'static str, why: &'static str },
}

impl OnDown {
    /// The rule as the page and the JS API show it.
    pub fn rule(self) -> DownRule {
        match self {
            OnDown::Skip(text) => DownRule { kind: DownKind::Skip, text },
            OnDown::Rebuild(text) => DownRule { kind: DownKind::Rebuild, text },
            OnDown::Unavailable { text, .. } => DownRule { kind: DownKind::Unavailable, text },
        }
    }
}

/// The rule for `algorithm`: its entry's [`on_down`](super::Entry::on_down), as the page shows it.
///
/// ```
/// use ringlab::algo::{down, Algorithm};
/// assert_eq!(down::rule(Algorithm::RedisCluster).kind, down::DownKind::Unavailable);
/// assert_eq!(down::rule(Algorithm::Ring).kind, down::DownKind::Skip);
/// ```
pub fn rule(algorithm: Algorithm) -> DownRule {
    algorithm.entry().on_down.rule()
}

/// The error for a key whose owner `name` is down, with the algorithm's reason.
pub(crate) fn unavailable(algorithm: Algorithm, name: &str) -> Error {
    let why = match algorithm.entry().on_down {
        OnDown::Unavailable { why, .. } => why,
        OnDown::Skip(_) | OnDown::Rebuild(_) => "its node is down",
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
        Err(Error::NoNodeNumber { index, nodes: nodes.len() })
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
