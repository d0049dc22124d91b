//! The config readers' former paths, kept so Rust code written against them still builds:
//! they moved to [`crate::import`], the one door for every kind of configuration text.
//! (The one place the engine names the layer above it: only to point there.)

#![allow(deprecated)]

use super::Cluster;
use crate::Error;

/// Moved to [`crate::import::nginx::from_nginx_upstream`].
#[deprecated(note = "use ringlab::import::nginx::from_nginx_upstream, or import::from_config(\"nginx\", …)")]
pub fn from_nginx_upstream(text: &str) -> Result<Cluster, Error> {
    crate::import::nginx::from_nginx_upstream(text)
}

/// Moved to [`crate::import::haproxy::from_haproxy_backend`].
#[deprecated(note = "use ringlab::import::haproxy::from_haproxy_backend, or import::from_config(\"haproxy\", …)")]
pub fn from_haproxy_backend(text: &str) -> Result<Cluster, Error> {
    crate::import::haproxy::from_haproxy_backend(text)
}

/// Moved to [`crate::import::redis`] and [`crate::import::memcached`].
pub mod import {
    pub use crate::import::memcached::{
        from_memcached_servers, parse_libketama_servers, parse_memcached_servers, MemcachedServer,
    };
    pub use crate::import::redis::{from_redis_cluster_nodes, parse_redis_cluster_nodes, RedisNode};
    pub use crate::import::MAX_CONFIG_BYTES as MAX_IMPORT_BYTES;
}

/// Moved to [`crate::import::nginx`] and [`crate::import::haproxy`].
pub mod lbconfig {
    pub use super::{from_haproxy_backend, from_nginx_upstream};
    pub use crate::import::{MAX_CONFIG_BYTES, MAX_CONFIG_SERVERS};
}
