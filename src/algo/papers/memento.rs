//! MementoHash (Coluzzi, Brocco, Antonucci & Leidi, "MementoHash: A Stateful, Minimal Memory,
//! Best Performing Consistent Hash Algorithm", IEEE/ACM ToN 2024, arXiv:2306.09783): jump
//! hash over a *b-array* of `n` buckets, plus a memory (the replacement set) of the buckets
//! removed out of order, so that any bucket can leave and no capacity is fixed.
//!
//! The rules (the paper's lookup, removal and restore pseudo-code; the same in the SUPSI
//! suite's `consistenthash/memento/MementoEngine.java` and `Memento.java`, and the C++ suite's
//! `memento/mementoengine.h`):
//!
//! - **Lookup**: `b ← JumpHash(k, n)`. While `b` was removed, its entry holds `r`, the
//!   working-set size right after it left: rehash into `0..r` (`b ← h_b(k) mod r`), then
//!   follow replacements (`b ← r'`) while the bucket hit left after that (`r' ≥ r`).
//! - **Removal** (any bucket): the last bucket, with nothing remembered, shrinks the b-array
//!   as jump hash does; any other is remembered as `(b, r = w − 1, the previous last
//!   removed)`. Only `b`'s keys move.
//! - **Re-add**: a new node takes the last removed bucket and forgets its entry (the previous
//!   one becomes the last removed), which restores every key it had; with nothing remembered
//!   it is bucket `n` and the b-array grows, as jump hash grows.
//!
//! State: 12 bytes per remembered removal (in a map keyed by bucket), none otherwise.
//! Keys: `key_hash` (XXH3-64) is jump hash's key; `h_b(k)` is `rehash``(hash(k), b)`.
//! The b-array's size changes with every join, so the circle draws keys at their 64-bit
//! hash, as for jump.
//!
//! A down node's bucket is removed from a copy of the state (the paper's treatment of a
//! failure): its keys rehash to working buckets, no other key moves, and up again is exactly
//! the state before.

use super::buckets::{key_hash_space, rehash, Engine, Note, Stateful, REMOVALS_STALE};
use super::entry::{Build, Entry, Extras, Family, Leaving, OnDown, Weights};
use super::jump::jump_hash;
use super::Algorithm;
use crate::Error;
use nohash_hasher::IntMap;

pub(crate) const ENTRY: Entry = Entry {
    name: "memento",
    label: "MementoHash",
    family: Family::Paper,
    source: "Coluzzi et al., IEEE/ACM ToN 2024 (arXiv:2306.09783): jump hash plus a replacement set; keys hashed to \
             u64 with XXH3-64",
    options: &[],
    weights: Weights::One,
    arcs: false,
    replicas: false,
    key_space: key_hash_space,
    describe: |o| {
        format!(
            "MementoHash: jump hash over the buckets, plus a memory of the ones removed out of order, whose keys \
             rehash into the buckets left. Any node can leave, there is no capacity, and re-adding restores the \
             placement. Keys are drawn at their XXH3 hash ({}).",
            key_hash_space(o).words()
        )
    },
    on_down: OnDown::Skip(
        "MementoHash handles a failed node as a removal (remembered in its replacement set): the down node's keys \
         rehash into the remaining buckets, every other key stays, and restoring it returns every key exactly.",
    ),
    on_stale: REMOVALS_STALE,
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build = Build::Whole(|_, nodes, _| {
    let memento = Memento::new(nodes.len() as u32);
    Ok(Box::new(Stateful::new(Algorithm::Memento, nodes, memento)?))
});

/// The paper's state: the b-array's size, the last removed bucket and the replacement set.
#[derive(Clone, Debug)]
pub(crate) struct Memento {
    /// `n`: buckets `0..n`, some of them removed.
    size: u32,
    /// The last removed bucket (`n` when none is remembered).
    last_removed: u32,
    /// Removed bucket → (the working-set size right after it left, the bucket removed before it).
    removed: IntMap<u32, (u32, u32)>,
}

impl Memento {
    pub(crate) fn new(working: u32) -> Memento {
        Memento { size: working, last_removed: working, removed: IntMap::default() }
    }

    fn replacer(&self, b: u32) -> Option<u32> {
        self.removed.get(&b).map(|&(r, _)| r)
    }

    fn working(&self) -> u32 {
        self.size - self.removed.len() as u32
    }
}

impl Engine for Memento {
    fn add_bucket(&mut self) -> Result<u32, Error> {
        crate::limits::check_nodes(self.working() as usize + 1)?;
        let b = self.last_removed;
        self.last_removed = match self.removed.remove(&b) {
            Some((_, previous)) => previous,
            None => b + 1,
        };
        self.size = self.size.max(b + 1);
        Ok(b)
    }

    fn remove_bucket(&mut self, b: u32) {
        if self.removed.is_empty() && b + 1 == self.size {
            self.size = b;
            self.last_removed = b;
            return;
        }
        let after = self.working() - 1;
        self.removed.insert(b, (after, self.last_removed));
        self.last_removed = b;
    }

    fn traced(&self, hash: u64, note: &mut impl Note) -> u32 {
        let mut b = jump_hash(hash, self.size);
        note.note("jump hash of it into the b-array's buckets", u64::from(b));
        let mut replaced = self.replacer(b);
        while let Some(r) = replaced {
            b = (rehash(hash, u64::from(b)) % u64::from(r)) as u32;
            note.note("removed: rehashed into the working set it left", u64::from(b));
            replaced = self.replacer(b);
            while let Some(later) = replaced.filter(|&r2| r2 >= r) {
                b = later;
                note.note("that one left after: its replacement", u64::from(b));
                replaced = self.replacer(b);
            }
        }
        b
    }

    fn span(&self) -> u32 {
        self.size
    }

    fn fraction(&self, hash: u64) -> f64 {
        super::fraction64(hash)
    }

    fn memory_bytes(&self) -> usize {
        // A hashbrown table: its entries and one control byte each.
        self.removed.capacity() * (std::mem::size_of::<(u32, (u32, u32))>() + 1)
    }

    /// Jump hash's `ln n` steps, then the rehashes through the removed buckets.
    fn lookup_cost(&self, working: u32) -> u64 {
        let steps = 1.0 + (f64::from(self.size.max(1)) / f64::from(working.max(1))).ln();
        3 + (steps * steps / 8.0).ceil() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_removals_it_is_jump_hash() {
        let m = Memento::new(37);
        assert!((0..5000u64).all(|h| m.bucket(h) == jump_hash(h, 37)));
    }

    #[test]
    fn the_last_bucket_leaves_as_in_jump_and_others_are_remembered() {
        let mut m = Memento::new(10);
        m.remove_bucket(9);
        assert_eq!((m.size, m.removed.len()), (9, 0));
        m.remove_bucket(4);
        m.remove_bucket(6);
        assert_eq!((m.size, m.working(), m.removed.len()), (9, 7, 2));
        assert!((0..5000u64).all(|h| ![4, 6, 9].contains(&m.bucket(h))));
        assert_eq!(m.add_bucket().unwrap(), 6);
        assert_eq!(m.add_bucket().unwrap(), 4);
        assert_eq!(m.add_bucket().unwrap(), 9);
        assert!((0..5000u64).all(|h| m.bucket(h) == jump_hash(h, 10)));
    }
}
