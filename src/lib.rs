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
//! The features pick what the wasm binding exports, and nothing else: `engine` (the default)
//! the whole API, `element` the `Session` the `<hash-ring>` element drives, `charts` the
//! chart drawing. Natively every algorithm, analysis and import is always there.

pub mod algo;
pub mod analysis;
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
pub mod work;

#[cfg(target_arch = "wasm32")]
pub mod web;

pub use error::Error;
pub use hash::Hash;
pub use node::{Node, NodeSpec};
pub use replicas::Replicas;
pub use ring::{Config, Ring, RingBuild, MAX_NAME_LEN, MAX_POINTS, MAX_VNODES};
pub use ring_rules::{Label, Lookup, Position, RingBits, RingRules, Ties, MAX_LABEL_TEMPLATE_LEN};
