//! The data stores' placements: Redis Cluster's slots and Cassandra's tokens
//! (`Family::Store`).

// The algorithms' files name the catalog's machinery and shapes as `super::…`, as
// files of `algo` itself.
use super::*;

pub mod cassandra;
pub mod redis;
