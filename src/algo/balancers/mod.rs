//! The load balancers' and proxies' hashes: nginx, HAProxy, twemproxy, Envoy
//! (`Family::Balancer`).

// The algorithms' files name the catalog's machinery and shapes as `super::…`, as
// files of `algo` itself.
use super::*;

pub mod envoy;
pub mod haproxy;
pub mod nginx;
pub mod twemproxy;
