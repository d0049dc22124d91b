//! What several systems share, each filled in by their own files: a continuum of points
//! (libketama and its kin), a bucket hash (jump and its kin), `hash % n` over a server list,
//! the node list most placements keep, and a load balancer's server lines rebuilt whole.

// Their files name the catalog's machinery as `super::…`, as files of `algo` itself.
use super::*;

pub mod buckets;
pub mod continuum;
pub mod hash_mod;
pub mod lines;
pub mod members;
