//! Jump consistent hash (Lamping & Veach 2014): buckets `0..n`, no state but the count.
//!
//! Keys are first hashed to u64 with XXH3-64. Node `i` (in the order added) is bucket `i`.
//! Jump hash can only grow or shrink at the end: removing any node but the last would
//! renumber every bucket after it, so it is refused with an explanation.

use super::buckets::{counted_entry, remove_last};
use super::entry::{Build, Entry};
use super::explain::{hex, Chain, Step, StepKind};
use super::members::{placement_basics, weight_rule, Members};
use super::{Algorithm, Placement};
use crate::{Error, Hash, Node, NodeSpec};

pub(crate) const ENTRY: Entry = counted_entry! {
    name: "jump",
    label: "Jump hash",
    who: "jump hash",
    source: "Lamping & Veach 2014, the paper's loop",
    shape: "buckets 0..N−1 and no ring",
    down: "Jump hash cannot skip a bucket: the down bucket's keys are unavailable until the caller remaps them \
           (the paper: jump hash suits data storage with replicated buckets, not servers that come and go)",
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build = Build::Whole(|_, nodes, _| Ok(Box::new(Jump::new(nodes)?)));

/// The paper's loop, exactly: a 64-bit LCG and double arithmetic.
///
/// ```
/// use ringlab::algo::papers::jump::jump_hash;
/// assert_eq!(jump_hash(0, 1), 0);
/// assert!(jump_hash(0xdead_beef, 100) < 100);
/// ```
pub fn jump_hash(mut key: u64, buckets: u32) -> u32 {
    let (mut b, mut j) = (-1i64, 0i64);
    while j < i64::from(buckets) {
        b = j;
        key = key.wrapping_mul(2_862_933_555_777_941_757).wrapping_add(1);
        j = ((b + 1) as f64 * ((1u64 << 31) as f64 / ((key >> 33) + 1) as f64)) as i64;
    }
    b.max(0) as u32
}

#[derive(Clone, Debug)]
pub(crate) struct Jump {
    /// Down nodes' keys are unavailable (no skip).
    members: Members,
}

impl Jump {
    pub(crate) fn new(nodes: Vec<NodeSpec>) -> Result<Jump, Error> {
        Ok(Jump { members: Members::new(nodes, 1, weight_rule(Algorithm::Jump))? })
    }

    /// Nothing depends on the bucket list but the list.
    fn unchanged(&mut self) {}
}

impl Placement for Jump {
    placement_basics!(Algorithm::Jump, 1, unchanged, no_remove);

    fn remove(&mut self, name: &str) -> Result<(), Error> {
        remove_last(&mut self.members, "jump hash", name)
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        if self.members.nodes.is_empty() {
            return Err(Error::EmptyRing);
        }
        let owner = jump_hash(Hash::Xxh3.hash(key), self.members.nodes.len() as u32) as usize;
        self.members.serving(Algorithm::Jump, owner)
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        super::fraction64(Hash::Xxh3.hash(key))
    }
    fn describe_key(&self, key: &[u8]) -> String {
        let h = Hash::Xxh3.hash(key);
        format!("xxh3 0x{h:016x}, bucket {}", jump_hash(h, self.members.nodes.len().max(1) as u32))
    }
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        chain.bytes("the bytes hashed: the whole key", key);
        let h = Hash::Xxh3.hash(key);
        chain.push(Step::new(StepKind::Hash, "xxh3 of the key", hex(h, 64)).at_fraction(super::fraction64(h)));
        let n = self.members.nodes.len() as u32;
        let bucket = jump_hash(h, n);
        let label = format!("jump hash of it into {n} buckets (the last jump below {n})");
        chain.push(Step::new(StepKind::Bucket, label, bucket.to_string()).at_node(bucket as usize));
        Some(bucket as usize)
    }
    fn memory_bytes(&self) -> usize {
        self.members.memory_bytes()
    }
}
