//! Nodes: what a placement is made of. A [`NodeSpec`] is what to add (a name, a weight, a
//! zone); a [`Node`] is what a placement holds (the same, with its point count). The checks
//! every placement makes on new nodes live here too, beside the types, so that the engine's
//! lower modules need not reach up into `algo`.

use crate::Error;

/// A node to add: a name, a weight (default 1) and an optional zone (for replica placement).
#[derive(Clone, Debug, PartialEq)]
pub struct NodeSpec {
    pub name: String,
    pub weight: f64,
    pub zone: Option<String>,
}

impl NodeSpec {
    /// A node of weight 1 with no zone.
    pub fn new(name: impl Into<String>) -> NodeSpec {
        NodeSpec { name: name.into(), weight: 1.0, zone: None }
    }

    /// Sets the weight.
    pub fn weight(mut self, weight: f64) -> NodeSpec {
        self.weight = weight;
        self
    }

    /// Sets the zone.
    pub fn zone(mut self, zone: impl Into<String>) -> NodeSpec {
        self.zone = Some(zone.into());
        self
    }
}

impl From<&str> for NodeSpec {
    fn from(name: &str) -> NodeSpec {
        NodeSpec::new(name)
    }
}

/// A node on the ring.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub name: String,
    pub weight: f64,
    pub zone: Option<String>,
    /// How many points the node has on the ring.
    pub points: u32,
}

impl Node {
    /// The bytes this node takes: the struct and its strings.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Node>() + self.name.capacity() + self.zone.as_ref().map_or(0, String::capacity)
    }

    /// What it takes to add this node to another ring.
    pub fn spec(&self) -> NodeSpec {
        NodeSpec { name: self.name.clone(), weight: self.weight, zone: self.zone.clone() }
    }
}

// The checks every placement makes on new nodes.

/// Checks a list of new nodes: how many, their names (empty, too long, repeated, already on
/// the ring), in O(n log n).
pub(crate) fn check_names(existing: &[Node], specs: &[NodeSpec]) -> Result<(), Error> {
    crate::limits::check_nodes(existing.len() + specs.len())?;
    let mut seen = existing.iter().map(|n| n.name.as_str()).collect::<std::collections::BTreeSet<_>>();
    for spec in specs {
        check_name(&[], &spec.name)?;
        crate::limits::check_zone(spec.zone.as_deref())?;
        if !seen.insert(&spec.name) {
            return Err(Error::DuplicateNode(spec.name.clone()));
        }
    }
    Ok(())
}

/// Checks a new node's name against the existing ones.
pub(crate) fn check_name(nodes: &[Node], name: &str) -> Result<(), Error> {
    if name.is_empty() {
        return Err(Error::EmptyName);
    }
    if name.len() > crate::MAX_NAME_LEN {
        return Err(Error::NameTooLong { len: name.len(), max: crate::MAX_NAME_LEN });
    }
    if nodes.iter().any(|n| n.name == name) {
        return Err(Error::DuplicateNode(name.to_string()));
    }
    Ok(())
}

/// Checks a weight is positive and finite.
pub(crate) fn check_weight(weight: f64) -> Result<(), Error> {
    if weight.is_finite() && weight > 0.0 {
        Ok(())
    } else {
        Err(Error::InvalidWeight(weight))
    }
}

/// Each name's position in `names`. Not generic: the map's sort is instantiated once for
/// every caller (one per iterator type otherwise).
pub(crate) fn index_by_name(names: Vec<&str>) -> std::collections::BTreeMap<&str, usize> {
    names.into_iter().enumerate().map(|(i, n)| (n, i)).collect()
}
