//! # ringlab
//!
//! Consistent hashing you can see, measure and trust: an exact hash-ring engine.
//!
//! A [`Ring`] places each node at many points ("virtual nodes") on a circle of `2^32` or
//! `2^64` positions, using a fixed [`Hash`](enum@Hash) function over explicit bytes. A key belongs to the
//! first point at or after its own hash, clockwise. Because everything is integer arithmetic
//! over fixed algorithms, the same inputs give the same mapping natively, in WebAssembly and in
//! every browser.
//!
//! ```
//! use ringlab::{Config, Hash, Ring, RingBits};
//!
//! let config = Config { hash: Hash::Xxh3, bits: RingBits::B32, vnodes: 64 };
//! let mut ring = Ring::new(config)?;
//! ring.add("10.0.1.1:11211")?;
//! ring.add("10.0.1.2:11211")?;
//! println!("user:42 lives on {}", ring.locate("user:42")?);
//! # Ok::<(), ringlab::Error>(())
//! ```
//!
//! The crate builds and tests natively. The [`session`] module is the playground's model (state,
//! changes, undo, what to draw); the `web` module (compiled only for `wasm32`) is a thin
//! binding that exposes the engine and the session to JavaScript. The [`charts`]' data needs
//! no feature; the `charts` feature adds drawing them (plotters).
//!
//! Every algorithm beyond ringlab's own ring is in the `catalog` feature, on by default.
//! A build without it (the `<hash-ring>` element's first wasm module) answers requests for
//! them with a `not-built-in` [`Error`]; the features of the families of algorithms
//! (`clients`, `stores`, `balancers`, `papers`, `baseline`: the element's figure modules)
//! each bring back one family ([`algo::Algorithm::built_in`]).
// Without the catalog, the algorithms it leaves out are still compiled, only never made.
#![cfg_attr(not(feature = "catalog"), allow(dead_code, unused_imports, unused_variables))]

pub mod algo;
pub mod analysis;
mod btree;
pub mod charts;
pub mod cost;
pub mod decimal;
mod error;
mod hash;
pub mod import;
pub mod keys;
pub mod limits;
pub mod migration;
mod node;
mod order;
pub mod plan;
mod points;
mod replicas;
mod ring;
mod ring_rules;
pub mod rollout;
pub mod session;
pub mod theme;

#[cfg(target_arch = "wasm32")]
pub mod web;

// The wasm modules built for size (the element's two and the charts', without `page`)
// allocate with talc, not Rust's default dlmalloc: 2.2 KB gzip smaller each (about 1.3%).
// The engine and the page's first module, built for speed, keep dlmalloc: there talc's fast
// path, inlined at each call, made the engine 3.4 KB bigger. Only with the binding's
// features (a module of ours), so a Rust user's own wasm build keeps its choice of allocator.
#[cfg(all(
    target_arch = "wasm32",
    not(target_feature = "atomics"),
    not(feature = "page"),
    any(feature = "element", feature = "figure", feature = "charts")
))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

pub use error::Error;
pub use hash::Hash;
pub use node::{Node, NodeSpec};
pub use replicas::Replicas;
pub use ring::{Config, Ring, RingBuild, MAX_NAME_LEN, MAX_POINTS, MAX_VNODES};
pub use ring_rules::{Label, Lookup, Position, RingBits, RingRules, Ties, MAX_LABEL_TEMPLATE_LEN};
