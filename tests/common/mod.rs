//! The shared test vectors (tests/vectors/ring_vectors.json, written by make_vectors.py from
//! Python's own hash implementations), read by the native and the wasm tests alike.
#![allow(dead_code)]

use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
pub struct Vectors {
    pub cases: Vec<Case>,
    pub rendezvous: RendezvousCase,
}

/// Weighted rendezvous owners, from Python's own xxhash and `math.log`.
#[derive(Deserialize)]
pub struct RendezvousCase {
    pub hash: String,
    pub nodes: Vec<VectorNode>,
    pub keys: Vec<OwnedKey>,
}

#[derive(Deserialize)]
pub struct OwnedKey {
    pub key: String,
    pub owner: String,
}

#[derive(Deserialize)]
pub struct Case {
    pub hash: String,
    pub bits: u64,
    pub vnodes: u32,
    pub nodes: Vec<VectorNode>,
    pub points: usize,
    pub shares: BTreeMap<String, String>,
    pub keys: Vec<VectorKey>,
}

#[derive(Deserialize, serde::Serialize)]
pub struct VectorNode {
    pub name: String,
    pub weight: f64,
}

#[derive(Deserialize)]
pub struct VectorKey {
    pub key: String,
    pub position: String,
    pub owner: String,
}

pub fn vectors() -> Vectors {
    serde_json::from_str(include_str!("../vectors/ring_vectors.json")).expect("ring_vectors.json parses")
}

/// `0x…` as a number.
pub fn hex(text: &str) -> u64 {
    u64::from_str_radix(text.trim_start_matches("0x"), 16).expect("hex position")
}
