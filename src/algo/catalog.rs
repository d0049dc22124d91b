//! The catalog: one line per algorithm, naming its [`Entry`] in the algorithm's own file.
//!
//! This list is the only place outside an algorithm's file that names it: the
//! [`Algorithm`] enum, [`Algorithm::ALL`] and the lookups by name are made from it, and every
//! question about an algorithm goes to its entry. Adding an algorithm is a file declaring
//! `ENTRY` and one line here.
//!
//! ```
//! use ringlab::algo::Algorithm;
//! assert_eq!(Algorithm::from_name("maglev")?.entry().label, "Maglev");
//! assert_eq!(Algorithm::ALL.len(), Algorithm::ALL.iter().filter(|a| a.entry().name == a.name()).count());
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::entry::Entry;
use super::options::OptionSpec;
use crate::Error;

macro_rules! catalog {
    ($($variant:ident => $entry:path,)*) => {
        /// The placement algorithms, by their option names (see [`Algorithm::name`]): one per
        /// line of the [catalog](self), each described by its [`Entry`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Algorithm {
            $(#[allow(missing_docs)] $variant,)*
        }

        impl Algorithm {
            /// Every algorithm, in the catalog's order.
            pub const ALL: [Algorithm; [$(stringify!($variant)),*].len()] = [$(Algorithm::$variant),*];

            /// Everything about this algorithm.
            pub fn entry(self) -> &'static Entry {
                match self {
                    $(Algorithm::$variant => &$entry,)*
                }
            }
        }
    };
}

catalog! {
    Ring => super::ring::ENTRY,
    Libketama => super::libketama::ENTRY,
    LibmemcachedWeighted => super::libmemcached::WEIGHTED,
    LibmemcachedKetama => super::libmemcached::KETAMA,
    RedisCluster => super::redis::ENTRY,
    Cassandra => super::cassandra::ENTRY,
    Groupcache => super::groupcache::ENTRY,
    Jump => super::jump::ENTRY,
    Rendezvous => super::rendezvous::ENTRY,
    Maglev => super::maglev::ENTRY,
    MultiProbe => super::multiprobe::ENTRY,
    BoundedLoad => super::bounded::ENTRY,
    Modulo => super::modulo::ENTRY,
    NginxConsistent => super::nginx::CONSISTENT,
    NginxHash => super::nginx::HASH,
    HaproxyConsistent => super::haproxy::CONSISTENT,
    HaproxyMapBased => super::haproxy::MAP_BASED,
    Pymemcache => super::pymemcache::ENTRY,
    PythonMemcached => super::python_memcached::ENTRY,
    Uhashring => super::uhashring::META,
    UhashringKetama => super::uhashring::KETAMA,
    Dalli => super::dalli::ENTRY,
    RedisRb4 => super::redis_rb::V4,
    RedisRb5 => super::redis_rb::V5,
    SpymemcachedKetama => super::spymemcached::KETAMA,
    SpymemcachedNative => super::spymemcached::NATIVE,
    NpmHashring => super::npm_hashring::ENTRY,
    Memjs => super::memjs::ENTRY,
}

/// The algorithm a new ring, session or `new Ring({})` uses: ringlab's own ring. The only
/// one a build without the `catalog` feature makes.
pub const DEFAULT: Algorithm = Algorithm::Ring;

/// `hash % N`: what every change is compared with ("hash % N would have moved 80%").
pub const BASELINE: Algorithm = Algorithm::Modulo;

impl Default for Algorithm {
    fn default() -> Algorithm {
        DEFAULT
    }
}

impl Algorithm {
    /// Its option name: `ring`, `libketama`, `nginx-consistent`.
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// The algorithm called `name`.
    pub fn from_name(name: &str) -> Result<Algorithm, Error> {
        Algorithm::ALL.into_iter().find(|a| a.name() == name).ok_or_else(|| {
            let known: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
            Error::InvalidOption(format!("unknown algorithm {name:?}: choose one of {}", known.join(", ")))
        })
    }

    /// Whether only a build with the `catalog` feature makes this algorithm: every one but
    /// [`DEFAULT`]. The element's first wasm module is built without it, and `cargo xtask
    /// build` writes the others' names beside it, so the element fetches the full build at
    /// once for them.
    pub fn needs_catalog(self) -> bool {
        self != DEFAULT
    }

    /// Whether node weights change the placement (otherwise only weight 1 is accepted).
    pub fn weighted(self) -> bool {
        self.entry().weighted()
    }

    /// Whether the `hash` setting changes the placement.
    pub fn uses_hash(self) -> bool {
        self.entry().uses_hash()
    }

    /// Whether the `vnodes` setting changes the placement.
    pub fn uses_vnodes(self) -> bool {
        self.entry().uses_vnodes()
    }

    /// Whether a key has a preference list of distinct nodes (replicas) here.
    pub fn has_replicas(self) -> bool {
        self.entry().replicas
    }

    /// Why node `index` of `count` cannot leave, if it cannot.
    pub fn removal_rule(self, index: usize, count: usize) -> Option<String> {
        self.entry().leaving.refusal(index, count).map(str::to_string)
    }
}

/// Every option of every algorithm, once each (by name), in catalog order: the ring's
/// `hash`, `bits` and `vnodes` first.
pub fn all_options() -> Vec<&'static OptionSpec> {
    let mut out: Vec<&'static OptionSpec> = Vec::new();
    for algorithm in Algorithm::ALL {
        for &spec in algorithm.entry().options {
            if !out.iter().any(|o| o.name == spec.name) {
                out.push(spec);
            }
        }
    }
    out
}

/// The option called `name`.
pub fn option_named(name: &str) -> Result<&'static OptionSpec, Error> {
    all_options().into_iter().find(|o| o.name == name).ok_or_else(|| {
        let known: Vec<&str> = all_options().iter().map(|o| o.name).collect();
        Error::InvalidOption(format!("unknown option {name:?} (known: {})", known.join(", ")))
    })
}
