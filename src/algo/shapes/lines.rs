//! A load balancer's `server` lines (nginx's `upstream`, HAProxy's `backend`): the nodes in
//! the order written, each with what else its line says, and a structure made from all of
//! them. The balancer rebuilds that structure whole from its lines on a reload, so every
//! change here is the lines edited, then rebuilt: a line appended, taken out or given another
//! `weight` where it stands (the order, which decides ids and walks, stays).

use super::members::whole_weight;
use super::{check_names, check_weight, index_of, node_of, specs};
use crate::{Error, Node, NodeSpec};

/// A placement made from server lines and rebuilt whole from them on every change.
pub(crate) trait Lines {
    /// What a line says besides its node (nginx's `down`, HAProxy's `id` and `disabled`); a
    /// line added later says the default.
    type Extra: Clone + Default;

    /// The lines: the nodes, and what else each says.
    fn lines(&self) -> (&[Node], &[Self::Extra]);

    /// Makes the state for these lines, or leaves everything as it was on error.
    fn rebuild(&mut self, specs: Vec<NodeSpec>, extra: Vec<Self::Extra>) -> Result<(), Error>;

    /// The lines as specs, to edit and rebuild from.
    fn edited(&self) -> (Vec<NodeSpec>, Vec<Self::Extra>) {
        let (nodes, extra) = self.lines();
        (specs(nodes), extra.to_vec())
    }

    /// A line appended.
    fn add_line(&mut self, spec: NodeSpec) -> Result<(), Error> {
        let (mut specs, mut extra) = self.edited();
        specs.push(spec);
        extra.push(Self::Extra::default());
        self.rebuild(specs, extra)
    }

    /// The named node's line taken out.
    fn remove_line(&mut self, name: &str) -> Result<(), Error> {
        let index = index_of(self.lines().0, name)?;
        let (mut specs, mut extra) = self.edited();
        specs.remove(index);
        extra.remove(index);
        self.rebuild(specs, extra)
    }

    /// Line `index`'s weight changed where it stands; `None` past the last line.
    fn reweigh_line(&mut self, index: usize, weight: f64) -> Option<Result<(), Error>> {
        let (mut specs, extra) = self.edited();
        specs.get_mut(index)?.weight = weight;
        Some(self.rebuild(specs, extra))
    }
}

/// The nodes of server lines, after the common checks and `system`'s own on weights (whole
/// numbers, up to `max` where it has one), each with `points(weight)` points.
pub(crate) fn line_nodes(
    specs: Vec<NodeSpec>,
    system: &str,
    max: Option<u32>,
    points: impl Fn(f64) -> u32,
) -> Result<Vec<Node>, Error> {
    check_names(&[], &specs)?;
    let mut nodes = Vec::with_capacity(specs.len());
    for spec in specs {
        check_weight(spec.weight)?;
        whole_weight(system, max, spec.weight)?;
        let points = points(spec.weight);
        nodes.push(node_of(spec, points));
    }
    Ok(nodes)
}
