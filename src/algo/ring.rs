//! ringlab's own ring ([`crate::Ring`]) as a catalog entry: `vnodes` points per unit of
//! weight at `hash("{name}#{i}")` on a circle of `2^bits` positions; a key belongs to the
//! first point at or after its hash, a collision to the smaller name.

use super::about::KeySpace;
use super::entry::{Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Weights};
use super::options::{BITS, HASH, VNODES};
use super::{down, Algorithm, Layout, Options, Placement};
use crate::analysis::Arcs;
use crate::{Error, Node, NodeSpec, Ring};

pub(crate) const ENTRY: Entry = Entry {
    name: "ring",
    label: "ringlab's ring",
    family: Family::Ringlab,
    source: "ringlab's own ring: points at hash(\"name#i\"), first point at or after the key, ties to the smaller name",
    options: &[&HASH, &BITS, &VNODES],
    weights: Weights::Any,
    arcs: true,
    replicas: true,
    key_space: |o| KeySpace::Hash { bits: o.config.bits.bits() },
    describe: |o| {
        format!(
            "ringlab's ring: {} points per unit of weight at {}(\"name#i\") on a circle of {}; a key belongs to \
             the first point clockwise from its hash.",
            o.config.vnodes,
            o.config.hash,
            KeySpace::Hash { bits: o.config.bits.bits() }.words()
        )
    },
    on_down: OnDown::Skip(
        "A key of a down node goes to the next healthy node clockwise; the preference list skips down nodes and \
         takes the next healthy distinct (zone-aware) node, as Dynamo-style stores do. No other key moves.",
    ),
    on_stale: OnStale::ClientSide(
        "A client that has not seen the change still hashes with its old ring: a moved key goes to its old owner, where a read misses (or finds a value the new owner has since replaced) and a write leaves a second copy.",
    ),
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build = build;

fn build(options: &Options, nodes: Vec<NodeSpec>, _: &Layout) -> Result<Box<dyn Placement>, Error> {
    Ok(Box::new(Ring::with_nodes(options.config.clone(), nodes)?))
}

impl Placement for Ring {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Ring
    }
    fn nodes(&self) -> &[Node] {
        Ring::nodes(self)
    }
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        self.add_node(spec)
    }
    fn remove(&mut self, name: &str) -> Result<(), Error> {
        Ring::remove(self, name).map(drop)
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        Ring::locate_index(self, key)
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        self.key_position(key) as f64 / self.config().bits.size() as f64
    }
    fn arcs(&self) -> Option<&dyn Arcs> {
        let all_down = !self.is_empty() && (0..Ring::nodes(self).len()).all(|i| self.is_down_at(i));
        (!all_down).then_some(self as &dyn Arcs)
    }
    fn memory_bytes(&self) -> usize {
        Ring::memory_bytes(self)
    }
    fn as_ring(&self) -> Option<&Ring> {
        Some(self)
    }
    fn as_ring_mut(&mut self) -> Option<&mut Ring> {
        Some(self)
    }
    /// Skip: keys of a down node go to the next healthy node clockwise (see [`down::rule`]).
    fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
        down::check_index(Ring::nodes(self), index)?;
        self.set_down_at(index, down);
        Ok(())
    }
    fn is_down(&self, index: usize) -> bool {
        self.is_down_at(index)
    }
    fn describe_key(&self, key: &[u8]) -> String {
        let width = self.config().bits.bits() as usize / 4;
        format!("{} 0x{:0width$x}", self.config().hash, self.key_position(key))
    }
    fn boxed_clone(&self) -> Box<dyn Placement> {
        Box::new(self.clone())
    }
}
