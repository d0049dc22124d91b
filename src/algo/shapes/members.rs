//! The node list most algorithms keep: the nodes in the order they were added and the ones
//! marked down, with the checks every change makes. `placement_basics!` writes the
//! `Placement` methods that only read or change this list.

use super::down::DownSet;
use super::{index_of, new_node, new_nodes, Algorithm};
use crate::decimal::shortest;
use crate::{Error, Node, NodeSpec};

#[derive(Clone, Debug, Default)]
pub(crate) struct Members {
    pub(crate) nodes: Vec<Node>,
    pub(crate) down: DownSet,
}

impl Members {
    /// The nodes of `specs`, each with `points` points, after `check` and the common checks.
    pub(crate) fn new(
        specs: Vec<NodeSpec>,
        points: u32,
        check: impl Fn(&NodeSpec) -> Result<(), Error>,
    ) -> Result<Members, Error> {
        Ok(Members { nodes: new_nodes(specs, points, check)?, down: DownSet::default() })
    }

    /// Appends a node; on error nothing changes.
    pub(crate) fn push(
        &mut self,
        spec: NodeSpec,
        points: u32,
        check: impl Fn(&NodeSpec) -> Result<(), Error>,
    ) -> Result<(), Error> {
        check(&spec)?;
        let node = new_node(&self.nodes, spec, points)?;
        self.nodes.push(node);
        Ok(())
    }

    /// Removes the named node (and its down mark); its former index.
    pub(crate) fn take(&mut self, name: &str) -> Result<usize, Error> {
        let index = index_of(&self.nodes, name)?;
        self.nodes.remove(index);
        self.down.forget(name);
        Ok(index)
    }

    pub(crate) fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
        self.down.set(&self.nodes, index, down)
    }

    pub(crate) fn is_down(&self, index: usize) -> bool {
        self.down.contains(&self.nodes, index)
    }

    /// `owner`, or `unavailable` when it is down and `algorithm` cannot skip it.
    pub(crate) fn serving(&self, algorithm: Algorithm, owner: usize) -> Result<usize, Error> {
        if self.is_down(owner) {
            return Err(super::down::unavailable(algorithm, &self.nodes[owner].name));
        }
        Ok(owner)
    }

    pub(crate) fn memory_bytes(&self) -> usize {
        self.nodes.iter().map(Node::memory_bytes).sum()
    }
}

/// `system`'s refusal of a weight it cannot hold: a fraction (its weights are whole numbers),
/// or a number past its `max`, where it has one.
pub(crate) fn whole_weight(system: &str, max: Option<u32>, weight: f64) -> Result<(), Error> {
    if weight.fract() == 0.0 && max.is_none_or(|max| weight <= f64::from(max)) {
        return Ok(());
    }
    let range = max.map_or(String::new(), |max| format!(" from 1 to {max}"));
    Err(Error::weight_refused(weight, format!("{system} weights are whole numbers{range} (got {})", shortest(weight))))
}

/// The weights `algorithm`'s entry takes ([`Weights`](super::Weights)).
pub(crate) fn weight_rule(algorithm: Algorithm) -> impl Fn(&NodeSpec) -> Result<(), Error> {
    move |spec| algorithm.entry().weights.check(algorithm, spec.weight)
}

/// The `Placement` methods of an algorithm whose state keeps its nodes in a `members` field:
/// its name, the nodes, adding (with `$points` points a node), removing and marking down, each
/// followed by `self.$changed()` (to rebuild what depends on the nodes), and cloning.
/// `no_remove` leaves `remove` to the algorithm.
macro_rules! placement_basics {
    ($algorithm:expr, $points:expr, $changed:ident) => {
        placement_basics!($algorithm, $points, $changed, no_remove);
        fn remove(&mut self, name: &str) -> Result<(), Error> {
            self.members.take(name)?;
            self.$changed();
            Ok(())
        }
    };
    ($algorithm:expr, $points:expr, $changed:ident, no_remove) => {
        fn algorithm(&self) -> Algorithm {
            $algorithm
        }
        fn nodes(&self) -> &[Node] {
            &self.members.nodes
        }
        fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
            self.members.push(spec, $points, super::members::weight_rule($algorithm))?;
            self.$changed();
            Ok(())
        }
        fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
            self.members.set_down(index, down)?;
            self.$changed();
            Ok(())
        }
        fn is_down(&self, index: usize) -> bool {
            self.members.is_down(index)
        }
        fn boxed_clone(&self) -> Box<dyn Placement> {
            Box::new(self.clone())
        }
    };
}
pub(crate) use placement_basics;
