//! The catalog: one line per algorithm (the list is at the top of `src/algo/mod.rs`), each
//! naming the algorithm's own file and the [`Entry`] and the build it holds;
//! and the machinery every entry is made of: its options ([`options`]), the words and scales
//! its circle is drawn with ([`about`]), what it does with a node down ([`down`]), and the
//! entry itself ([`entry`]).
//!
//! That list is the only place outside an algorithm's file that names it: the
//! [`Algorithm`] enum, [`Algorithm::ALL`] and the lookups by name are made from it, and every
//! question about an algorithm goes to its entry. Adding an algorithm is a file declaring
//! `ENTRY` and `BUILD` in its family's folder, and one line in the list
//! (`Jump => papers::jump;`, with `pub mod jump;` in `papers/mod.rs`).
//!
//! ```
//! use ringlab::algo::Algorithm;
//! assert_eq!(Algorithm::from_name("maglev")?.entry().label, "Maglev");
//! assert_eq!(Algorithm::ALL.len(), Algorithm::ALL.iter().filter(|a| a.entry().name == a.name()).count());
//! # Ok::<(), ringlab::Error>(())
//! ```

pub mod about;
pub mod down;
pub mod entry;
pub mod options;

// The machinery's files name `algo`'s items as `super::…`, as files of `algo` itself.
use super::*;
pub use options::{all_options, option_named};

/// Makes the catalog from its lines (the list is in `algo/mod.rs`):
///
/// - `Jump => papers::jump;` names the module `algo::papers::jump` (the file
///   `src/algo/papers/jump.rs`), whose `ENTRY` and `BUILD` describe and build
///   `Algorithm::Jump`;
/// - `NginxConsistent => balancers::nginx [CONSISTENT, BUILD_CONSISTENT];` names a module
///   that holds two algorithms, and this one's entry and build in it.
///
/// The first line, marked `core`, is the default algorithm ([`DEFAULT`](super::DEFAULT));
/// the line marked `baseline` is what every change is compared with
/// ([`BASELINE`](super::BASELINE)).
macro_rules! catalog {
    (core $($lines:tt)*) => {
        $crate::algo::catalog::catalog!(@line [] [] $($lines)*);
    };
    (@line [$($out:tt)*] [] baseline $variant:ident => $($rest:tt)*) => {
        $crate::algo::catalog::catalog!(@line [$($out)*] [$variant] $variant => $($rest)*);
    };
    (@line [$($out:tt)*] [$($base:ident)?] $variant:ident => $($module:ident)::+ ; $($rest:tt)*) => {
        $crate::algo::catalog::catalog!(@line [$($out)* $variant { $($module)::+ } ENTRY BUILD,] [$($base)?] $($rest)*);
    };
    (@line [$($out:tt)*] [$($base:ident)?] $variant:ident => $($module:ident)::+ [$entry:ident, $build:ident]; $($rest:tt)*) => {
        $crate::algo::catalog::catalog!(@line [$($out)* $variant { $($module)::+ } $entry $build,] [$($base)?] $($rest)*);
    };
    (@line [$core:ident { $($cm:ident)::+ } $ce:ident $cb:ident, $($variant:ident { $($module:ident)::+ } $entry:ident $build:ident,)*] [$baseline:ident]) => {
        /// The algorithm a new ring, session or `new Ring({})` uses: ringlab's own ring, the
        /// catalog's `core` line.
        pub const DEFAULT: Algorithm = Algorithm::$core;

        /// `hash % N`: what every change is compared with ("hash % N would have moved 80%"),
        /// the catalog's `baseline` line.
        pub const BASELINE: Algorithm = Algorithm::$baseline;

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

            /// Everything about this algorithm.
            pub fn entry(self) -> &'static Entry {
                match self {
                    Algorithm::$core => &$($cm)::+::$ce,
                    $(Algorithm::$variant => &$($module)::+::$entry,)*
                }
            }

            /// How this algorithm's placement is built.
            pub(crate) fn build(self) -> $crate::algo::entry::Build {
                match self {
                    Algorithm::$core => $($cm)::+::$cb,
                    $(Algorithm::$variant => $($module)::+::$build,)*
                }
            }
        }
    };
}
pub(crate) use catalog;

impl Default for Algorithm {
    fn default() -> Algorithm {
        super::DEFAULT
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
            Error::unknown_choice(
                "algorithm",
                name,
                format!("unknown algorithm {name:?}: choose one of {}", known.join(", ")),
            )
        })
    }

    /// Its family of systems (the groups the catalog is listed in).
    pub fn family(self) -> Family {
        self.entry().family
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
