//! AnchorHash (Mendelson, Vargaftik, Barabash, Lorenz, Keslassy & Orda, "AnchorHash: A
//! Scalable Consistent Hash", IEEE/ACM ToN 2021, arXiv:1812.09674): a fixed *anchor* of `a`
//! buckets (the `capacity` option), of which the working ones serve keys.
//!
//! The rules, from the paper's Algorithm 3 (the implementation with arrays `A`, `K`, `W`, `L`
//! and the stack `R`; the same in the SUPSI suite's `consistenthash/anchor/AnchorEngine.java`
//! and the C++ suite's `anchor/AnchorHashQre.cpp`):
//!
//! - **Lookup** (`GETBUCKET`): `b ← hash(k) mod a`; while `b` is removed (`A[b] > 0`, the
//!   working-set size right after `b` left), rehash into that smaller working set:
//!   `h ← h_b(k) mod A[b]`, then follow `h ← K[h]` while `h` left before `b` did
//!   (`A[h] ≥ A[b]`); `b ← h`.
//! - **Removal** (`REMOVEBUCKET(b)`, any working bucket): push `b` on `R`, `N ← N − 1`,
//!   `A[b] ← N`, and the last working bucket `W[N]` takes `b`'s place in `W` (`K[b] ← W[N]`).
//!   Only `b`'s keys move, each to a bucket of the working set as it was then.
//! - **Re-add** (`ADDBUCKET`): pop the last removed bucket from `R` and undo its removal: the
//!   state is the one before that removal, so every key returns (the paper's LIFO property).
//!   A new node therefore takes the last removed bucket, and the next unused one when none
//!   was removed; beyond the capacity it is refused.
//!
//! State: four `u32` arrays of `a` entries and the stack: `16·a` bytes plus `4` per removal,
//! whatever the working set. Keys: `key_hash` (XXH3-64) as `hash(k)`; `h_b(k)` is
//! `rehash``(hash(k), b)`. The circle shows the `a` buckets, each key drawn in the bucket
//! it tries first (`hash(k) mod a`).
//!
//! A down node's bucket is removed from a copy of the state (the paper treats a failed
//! resource as a removal): its keys go to the buckets their rehashes reach, no other key
//! moves, and up again is exactly the state before.

use super::about::{thousands, KeySpace};
use super::buckets::{
    capacity, check_capacity, full, key_hash, rehash, Engine, Note, Stateful, CAPACITY, REMOVALS_STALE,
};
use super::entry::{Build, Entry, Extras, Family, Leaving, OnDown, Weights};
use super::Algorithm;
use crate::Error;

pub(crate) const ENTRY: Entry = Entry {
    name: "anchor",
    label: "AnchorHash",
    family: Family::Paper,
    source: "Mendelson et al., IEEE/ACM ToN 2021 (arXiv:1812.09674), Algorithm 3; keys hashed to u64 with XXH3-64",
    options: &[&CAPACITY],
    weights: Weights::One,
    arcs: false,
    replicas: false,
    key_space: |o| KeySpace::Buckets { count: capacity(o) },
    describe: |o| {
        format!(
            "AnchorHash: an anchor of {} buckets, the working ones serving keys; a key drawn in the bucket it tries \
             first rehashes into the working set as it was when that bucket left. Any node can leave; re-adding \
             restores the placement.",
            thousands(u64::from(capacity(o)))
        )
    },
    on_down: OnDown::Skip(
        "AnchorHash treats a failed resource as a removal (the paper's REMOVEBUCKET): the down node's keys rehash \
         into the working set without it, every other key stays, and bringing it back (ADDBUCKET) restores the \
         placement exactly.",
    ),
    on_stale: REMOVALS_STALE,
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build = Build::Whole(|o, nodes, _| {
    let anchor = Anchor::new(capacity(o), nodes.len() as u32)?;
    Ok(Box::new(Stateful::new(Algorithm::Anchor, nodes, anchor)?))
});

/// The paper's state (Algorithm 3), for `a` buckets.
#[derive(Clone, Debug)]
pub(crate) struct Anchor {
    /// `A[b]`: 0 while `b` works, else the working-set size right after it was removed.
    removed_at: Vec<u32>,
    /// `K[b]`: the bucket that took removed `b`'s place in `W`.
    successor: Vec<u32>,
    /// `W`: the working buckets in their first `N` entries.
    working: Vec<u32>,
    /// `L[b]`: where `b` last stood in `W`.
    position: Vec<u32>,
    /// `R`: the removed buckets, the last removed on top.
    removed: Vec<u32>,
    /// `N`: how many buckets work.
    size: u32,
}

impl Anchor {
    /// `INITANCHOR(a, w)`: buckets `0..w` work; `w..a` count as removed, `w` on top.
    pub(crate) fn new(capacity: u32, working: u32) -> Result<Anchor, Error> {
        check_capacity(Algorithm::Anchor, capacity, working)?;
        let identity: Vec<u32> = (0..capacity).collect();
        let removed_at = (0..capacity).map(|b| if b < working { 0 } else { b }).collect();
        Ok(Anchor {
            removed_at,
            successor: identity.clone(),
            working: identity.clone(),
            position: identity,
            removed: (working..capacity).rev().collect(),
            size: working,
        })
    }

    fn capacity(&self) -> u32 {
        self.removed_at.len() as u32
    }

    /// `GETBUCKET` with the first bucket and the rehash given: the paper's loop, whatever
    /// the hash (the tests compare it with another implementation's hashing).
    /// Each bucket it tries is noted.
    pub(crate) fn bucket_with(
        &self,
        first: u32,
        mut rehash_into: impl FnMut(u32, u32) -> u32,
        note: &mut impl Note,
    ) -> u32 {
        let mut b = first;
        note.note("the hash mod the anchor's size: the first bucket", u64::from(b));
        while self.removed_at[b as usize] > 0 {
            let a_b = self.removed_at[b as usize];
            let mut h = rehash_into(b, a_b);
            note.note("removed: rehashed into the working set it left", u64::from(h));
            while self.removed_at[h as usize] >= a_b {
                h = self.successor[h as usize];
                note.note("that one left before: the bucket that took its place", u64::from(h));
            }
            b = h;
        }
        b
    }
}

impl Engine for Anchor {
    fn add_bucket(&mut self) -> Result<u32, Error> {
        let b = self.removed.pop().ok_or_else(|| full(Algorithm::Anchor, self.capacity()))?;
        let n = self.size as usize;
        self.removed_at[b as usize] = 0;
        self.position[self.working[n] as usize] = self.size;
        self.working[self.position[b as usize] as usize] = b;
        self.successor[b as usize] = b;
        self.size += 1;
        Ok(b)
    }

    fn remove_bucket(&mut self, b: u32) {
        self.removed.push(b);
        self.size -= 1;
        let n = self.size as usize;
        let last = self.working[n];
        self.removed_at[b as usize] = self.size;
        self.working[self.position[b as usize] as usize] = last;
        self.successor[b as usize] = last;
        self.position[last as usize] = self.position[b as usize];
    }

    fn traced(&self, hash: u64, note: &mut impl Note) -> u32 {
        let a = u64::from(self.capacity());
        self.bucket_with((hash % a) as u32, |b, a_b| (rehash(hash, u64::from(b)) % u64::from(a_b)) as u32, note)
    }

    fn span(&self) -> u32 {
        self.capacity()
    }

    fn fraction(&self, hash: u64) -> f64 {
        let a = u64::from(self.capacity().max(1));
        ((hash % a) as f64 + super::fraction64(hash)) / a as f64
    }

    fn memory_bytes(&self) -> usize {
        4 * (self.removed_at.capacity()
            + self.successor.capacity()
            + self.working.capacity()
            + self.position.capacity()
            + self.removed.capacity())
    }

    /// The paper's bound on a lookup's rehashes, `(1 + ln(a/w))²` at most on average, each a
    /// few ns.
    fn lookup_cost(&self, working: u32) -> u64 {
        let steps = 1.0 + (f64::from(self.capacity()) / f64::from(working.max(1))).ln();
        2 + (steps * steps / 8.0).ceil() as u64
    }
}

/// AnchorHash's bucket of `key` for a fresh anchor of `capacity` buckets with `working` of
/// them in use (for tests and the docs).
///
/// ```
/// use ringlab::algo::papers::anchor::bucket;
/// assert!(bucket(b"user:42", 64, 10) < 10);
/// ```
pub fn bucket(key: &[u8], capacity: u32, working: u32) -> u32 {
    Anchor::new(capacity, working.clamp(1, capacity.max(1))).map_or(0, |a| a.bucket(key_hash(key)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hasher};

    /// Hands the crate a key hash as it is: the `u64` it is given is what it hashes.
    #[derive(Clone, Default)]
    struct AsIs;
    #[derive(Default)]
    struct AsIsHasher(u64);
    impl Hasher for AsIsHasher {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, _: &[u8]) {
            unreachable!("only u64 keys are written")
        }
        fn write_u64(&mut self, v: u64) {
            self.0 = v;
        }
    }
    impl BuildHasher for AsIs {
        type Hasher = AsIsHasher;
        fn build_hasher(&self) -> AsIsHasher {
            AsIsHasher::default()
        }
    }

    /// The crate's hashing (anchorhash 0.2.2, default features): the key hash cut to 32 bits,
    /// Lemire's multiply-shift for `mod`, and FNV-1a 64 keyed with the key for `h_b`.
    fn crate_bucket(anchor: &Anchor, hash: u64) -> u32 {
        let k = hash as u32;
        let range = |v: u32, n: u32| ((u64::from(v) * u64::from(n)) >> 32) as u32;
        let fnv = |b: u32| {
            // FNV-1a 64 from the key as its state, over b's 4 native-endian bytes.
            let mut h = u64::from(k);
            for byte in b.to_ne_bytes() {
                h ^= u64::from(byte);
                h = h.wrapping_mul(0x100_0000_01b3);
            }
            h as u32
        };
        anchor.bucket_with(range(k, anchor.capacity()), |b, a_b| range(fnv(b), a_b), &mut ())
    }

    /// The same add and remove steps on ringlab's state and on the `anchorhash` crate's give
    /// the same bucket for every key, when ringlab's loop is given the crate's hashing: the
    /// two implement the same Algorithm 3. They differ only in the hashing: the crate cuts the
    /// key hash to 32 bits, replaces `mod` by multiply-shift and rehashes with FNV-1a (or
    /// CRC32C with its `simd` feature), holds at most 65,535 buckets, and hashes keys with
    /// Rust's `RandomState` by default (random per process, so two processes disagree).
    #[test]
    fn the_state_machine_is_the_anchorhash_crates_key_for_key() {
        let capacity = 40u16;
        let mut ours = Anchor::new(u32::from(capacity), 0).unwrap();
        let mut theirs: anchorhash::AnchorHash<u64, u32, AsIs> =
            anchorhash::Builder::with_hasher(AsIs).with_resources(Vec::<u32>::new()).build(capacity);
        let keys: Vec<u64> = (0..3000u32).map(|i| key_hash(format!("key:{i}").as_bytes())).collect();
        let mut working: Vec<u32> = Vec::new();
        // Adds, then removals in an order that is neither FIFO nor LIFO, re-adds, more removals.
        let steps: Vec<Option<usize>> = [vec![None; 25], vec![Some(3), Some(10), Some(0), Some(7)], vec![None; 3]]
            .into_iter()
            .flatten()
            .chain([Some(5), Some(1), None, Some(12), Some(2), None, None])
            .collect();
        let mut compared = 0;
        for step in steps {
            match step {
                None => {
                    let b = ours.add_bucket().unwrap();
                    theirs.add_resource(b).unwrap();
                    working.push(b);
                }
                Some(i) => {
                    let b = working.remove(i % working.len());
                    ours.remove_bucket(b);
                    theirs.remove_resource(&b).unwrap();
                }
            }
            for &k in &keys {
                assert_eq!(Some(&crate_bucket(&ours, k)), theirs.get_resource(k), "key hash {k:#x}");
                compared += 1;
            }
        }
        assert!(compared > 100_000);
    }

    #[test]
    fn capacity_is_a_limit() {
        let mut a = Anchor::new(3, 3).unwrap();
        assert_eq!(a.add_bucket().unwrap_err().code(), "too-large");
        a.remove_bucket(1);
        assert_eq!(a.add_bucket().unwrap(), 1);
        assert!(Anchor::new(2, 3).is_err());
    }
}
