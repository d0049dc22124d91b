//! Errors: every bad input gets one of these, with a message meant for the person who typed it,
//! and the ring is left exactly as it was.

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
}
