//! Errors: every bad input gets one of these, with a message meant for the person who typed it,
//! and the state is left exactly as it was.
//!
//! Each error has a stable [`code`](Error::code) (`"duplicate-node"`, `"too-large"`, ...) that
//! callers branch on, and a message (`Display`) meant for people; in JS the code is the
//! `Error`'s `code` property and the message its `message`.

use crate::ring::{MAX_POINTS, MAX_VNODES};

/// What went wrong. `Display` gives the message shown to users (in JS, the `Error`'s message).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    #[error("the ring is empty: add a node before looking up keys")]
    EmptyRing,
    #[error("a node named {0:?} is already on the ring")]
    DuplicateNode(String),
    #[error("there is no node named {0:?} on the ring")]
    UnknownNode(String),
    #[error("a node needs a name (it was empty)")]
    EmptyName,
    #[error("node names are at most {max} bytes (this one has {len})")]
    NameTooLong { len: usize, max: usize },
    #[error("weight must be a positive, finite number (got {0})")]
    InvalidWeight(f64),
    #[error("vnodes must be between 1 and {MAX_VNODES} (got {0})")]
    InvalidVnodes(u64),
    #[error("that would put {points} points on the ring; the limit is {MAX_POINTS} to keep a browser tab responsive")]
    TooManyPoints { points: u64 },
    #[error("unknown hash {0:?}: choose one of xxh3, xxh64, xxh32, fnv1a32, fnv1a64, md5, sha256, murmur3, crc32")]
    UnknownHash(String),
    #[error("ring bits must be 32 or 64 (got {0})")]
    InvalidBits(u64),
    #[error("hash {hash} gives 32-bit values, too few for a 64-bit ring: choose a 64-bit hash")]
    HashTooNarrow { hash: &'static str },
    #[error("invalid option: {0}")]
    InvalidOption(String),
    /// An input over one of the documented caps (`what` names the input).
    #[error("{what} is at most {max} (got {got})")]
    TooLarge { what: String, max: u64, got: u64 },
    /// Text that could not be read (a config, a node list, a key file), with its 1-based line.
    #[error("line {line}: {message}")]
    Parse { line: usize, message: String },
    /// A call the current algorithm or state cannot answer, and why (e.g. exact arcs of an
    /// algorithm that has none).
    #[error("{0}")]
    Unsupported(String),
    /// A key that has no owner right now because a node is down, and why (what the real
    /// system answers: e.g. Redis Cluster's slots of a failed master until a replica is
    /// promoted, or jump hash, which cannot skip a bucket).
    #[error("{0}")]
    Unavailable(String),
    /// A part of the engine this build leaves out, named: the `<hash-ring>` element's first
    /// module has ringlab's own ring and its charts only (see the `catalog` feature). The
    /// full build has everything; the element loads it when it meets this error.
    #[error("{0} is not in this build of the engine (the full build has it)")]
    NotBuiltIn(String),
}

impl Error {
    /// The stable code of this kind of error, for programs to branch on.
    ///
    /// ```
    /// assert_eq!(ringlab::Error::EmptyRing.code(), "empty-ring");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            Error::EmptyRing => "empty-ring",
            Error::DuplicateNode(_) => "duplicate-node",
            Error::UnknownNode(_) => "unknown-node",
            Error::EmptyName => "empty-name",
            Error::NameTooLong { .. } => "name-too-long",
            Error::InvalidWeight(_) => "invalid-weight",
            Error::InvalidVnodes(_) => "invalid-vnodes",
            Error::TooManyPoints { .. } => "too-many-points",
            Error::UnknownHash(_) => "unknown-hash",
            Error::InvalidBits(_) => "invalid-bits",
            Error::HashTooNarrow { .. } => "hash-too-narrow",
            Error::InvalidOption(_) => "invalid-option",
            Error::TooLarge { .. } => "too-large",
            Error::Parse { .. } => "parse-error",
            Error::Unsupported(_) => "unsupported",
            Error::Unavailable(_) => "unavailable",
            Error::NotBuiltIn(_) => "not-built-in",
        }
    }
}
