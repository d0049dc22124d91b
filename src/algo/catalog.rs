//! The catalog: one line per algorithm (the list is at the top of `src/algo/mod.rs`), each
//! declaring the algorithm's own file and naming the [`Entry`](super::Entry) and the build it holds.
//!
//! That list is the only place outside an algorithm's file that names it: the
//! [`Algorithm`] enum, [`Algorithm::ALL`] and the lookups by name are made from it, and every
//! question about an algorithm goes to its entry. Adding an algorithm is a file declaring
//! `ENTRY` and `BUILD`, and one line in the list (`Jump => jump;`).
//!
//! ```
//! use ringlab::algo::Algorithm;
//! assert_eq!(Algorithm::from_name("maglev")?.entry().label, "Maglev");
//! assert_eq!(Algorithm::ALL.len(), Algorithm::ALL.iter().filter(|a| a.entry().name == a.name()).count());
//! # Ok::<(), ringlab::Error>(())
//! ```

pub use super::options::{all_options, option_named};
use super::{Algorithm, Family};
use crate::Error;

/// Makes the catalog from its lines (the list is in `algo/mod.rs`, so that each line also
/// declares its algorithm's module there):
///
/// - `Jump => jump;` declares `mod jump` (the file `src/algo/jump.rs`), whose `ENTRY` and
///   `BUILD` describe and build `Algorithm::Jump`;
/// - `NginxConsistent => mod nginx::{CONSISTENT, BUILD_CONSISTENT};` declares a module that
///   holds two algorithms, naming this one's entry and build;
/// - `NginxHash => nginx::{HASH, BUILD_HASH};` names the other, in a module declared above.
///
/// The first line, marked `core`, is the algorithm every build makes (see `DEFAULT`).
macro_rules! catalog {
    (core $($lines:tt)*) => {
        $crate::algo::catalog::catalog!(@line [] [] $($lines)*);
    };
    (@line [$($mods:ident)*] [$($out:tt)*] $variant:ident => $module:ident; $($rest:tt)*) => {
        $crate::algo::catalog::catalog!(@line [$($mods)* $module] [$($out)* $variant $module ENTRY BUILD,] $($rest)*);
    };
    (@line [$($mods:ident)*] [$($out:tt)*] $variant:ident => mod $module:ident::{$entry:ident, $build:ident}; $($rest:tt)*) => {
        $crate::algo::catalog::catalog!(@line [$($mods)* $module] [$($out)* $variant $module $entry $build,] $($rest)*);
    };
    (@line [$($mods:ident)*] [$($out:tt)*] $variant:ident => $module:ident::{$entry:ident, $build:ident}; $($rest:tt)*) => {
        $crate::algo::catalog::catalog!(@line [$($mods)*] [$($out)* $variant $module $entry $build,] $($rest)*);
    };
    (@line [$($mods:ident)*] [$core:ident $cm:ident $ce:ident $cb:ident, $($variant:ident $module:ident $entry:ident $build:ident,)*]) => {
        $(pub mod $mods;)*

        /// The placement algorithms, by their option names (see [`Algorithm::name`]): one per
        /// line of the [catalog](catalog), each described by its [`Entry`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Algorithm {
            $core,
            $($variant,)*
        }

        impl Algorithm {
            /// Every algorithm, in the catalog's order.
            pub const ALL: [Algorithm; [stringify!($core), $(stringify!($variant)),*].len()] =
                [Algorithm::$core, $(Algorithm::$variant),*];

            /// Everything about this algorithm. In a build that leaves it out (see
            /// [`Algorithm::built_in`]) its entry holds its name, label and family only, so its
            /// words and code stay out of that module.
            pub fn entry(self) -> &'static Entry {
                match self {
                    Algorithm::$core => &$cm::$ce,
                    $(Algorithm::$variant => {
                        // Constants: the branch left out is not compiled into the module.
                        const BUILT: bool = $crate::algo::catalog::family_built($module::$entry.family);
                        const NAMED: Entry = Entry::not_built_in($module::$entry.name, $module::$entry.label, $module::$entry.family);
                        const DRAWN: Entry = $module::$entry.drawn_only();
                        if !BUILT { &NAMED } else if $crate::algo::entry::DRAWN_ONLY { &DRAWN } else { &$module::$entry }
                    })*
                }
            }

            /// Its family, known to the compiler (for [`Algorithm::built_in`]).
            pub const fn family(self) -> Family {
                match self {
                    Algorithm::$core => $cm::$ce.family,
                    $(Algorithm::$variant => $module::$entry.family,)*
                }
            }

            /// How this algorithm's placement is built (kept apart from its entry, so a module
            /// that only reads entries, such as the charts', does not carry every algorithm's
            /// code).
            pub(crate) fn build(self) -> $crate::algo::entry::Build {
                match self {
                    Algorithm::$core => $cm::$cb,
                    $(Algorithm::$variant => {
                        const BUILT: bool = $crate::algo::catalog::family_built($module::$entry.family);
                        if BUILT { $module::$build } else { $crate::algo::entry::NOT_BUILT_IN }
                    })*
                }
            }
        }
    };
}
pub(crate) use catalog;

/// The algorithm a new ring, session or `new Ring({})` uses: ringlab's own ring, the
/// catalog's `core` line, the only one a build without the `catalog` feature makes.
pub const DEFAULT: Algorithm = Algorithm::Ring;

/// Whether this build makes the algorithms of `family` (see [`Algorithm::built_in`]).
pub const fn family_built(family: Family) -> bool {
    cfg!(feature = "catalog")
        || match family {
            Family::Ringlab => true,
            Family::Client => cfg!(feature = "clients"),
            Family::Store => cfg!(feature = "stores"),
            Family::Balancer => cfg!(feature = "balancers"),
            Family::Paper => cfg!(feature = "papers"),
            Family::Baseline => cfg!(feature = "baseline"),
        }
}

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

    /// Whether only a build with the `catalog` feature (or this algorithm's family's) makes
    /// this algorithm: every one but [`DEFAULT`]. The element's first wasm module is built
    /// without them, and `cargo xtask build` writes the others' names beside it, so the
    /// element fetches the full build at once for them.
    pub fn needs_catalog(self) -> bool {
        self != DEFAULT
    }

    /// Whether this build makes the algorithm: with the `catalog` feature every one does;
    /// without it, ringlab's ring and the families whose features are on (`clients`,
    /// `stores`, `balancers`, `papers`, `baseline`: the element's figure modules).
    pub const fn built_in(self) -> bool {
        family_built(self.family())
    }

    /// `Err(NotBuiltIn)` for an algorithm this build of the engine leaves out (its entry holds
    /// its name only): ask before reading its options or its layout.
    pub fn available(self) -> Result<Algorithm, Error> {
        if !self.built_in() {
            return Err(Error::NotBuiltIn(format!("the {} algorithm", self.name())));
        }
        Ok(self)
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
