//! The cache clients, each reproduced bit for bit: libketama, libmemcached, groupcache,
//! pymemcache, python-memcached, uhashring, Dalli, redis-rb, spymemcached, npm `hashring`,
//! memjs. Each file is one client's entries (`Family::Client`).

// The algorithms' files name the catalog's machinery and shapes as `super::…`, as
// files of `algo` itself.
use super::*;

pub mod dalli;
pub mod groupcache;
pub mod libketama;
pub mod libmemcached;
pub mod memjs;
pub mod npm_hashring;
pub mod pymemcache;
pub mod python_memcached;
pub mod redis_rb;
pub mod spymemcached;
pub mod uhashring;
