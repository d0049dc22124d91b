//! DxHash (Dong & Wang, "DxHash: A Scalable Consistent Hash Based on the Pseudo-Random
//! Sequence", arXiv:2107.07930, 2021): an array of `a` buckets (the `capacity` option, the
//! paper's NSArray) with an active bit each; a key walks its own pseudo-random sequence of
//! buckets and takes the first active one.
//!
//! The rules (the paper's lookup, removal and addition; the same in the SUPSI suite's
//! `consistenthash/dx/DxEngine.java` and the C++ suite's `dx/dxEngine.h`):
//!
//! - **Lookup**: the key seeds a pseudo-random sequence over `0..a`; the first active bucket
//!   in it owns the key. Here the sequence is `SplitMix64` seeded with the key hash, each
//!   value scaled onto `0..a` by multiply-shift (the reference code uses `java.util.Random`,
//!   and `pcg32`, so the buckets differ, not the rule). The reference walks without end;
//!   ringlab stops after `8·a` values (a chance of about `e^(−8·w)` with `w` working buckets)
//!   and takes the first active bucket after the last one tried, which keeps every change
//!   minimal.
//! - **Removal** (any bucket): clear its bit and push it on the removed stack. Lookups depend
//!   only on which bits are set, so the order of removals changes nothing (the paper calls
//!   DxHash stateless for removals), and only the removed bucket's keys move.
//! - **Re-add**: a new node takes the last removed bucket (the stack's top), else the next
//!   unused one; setting a bit back restores every key that bucket had. The paper doubles
//!   the array when it is full (its Scale operation, which moves about half the keys); ringlab
//!   refuses a node beyond the capacity instead, as the SUPSI suite does.
//!
//! State: one bit per bucket and 4 bytes per removal. Keys: `key_hash` (XXH3-64) seeds the
//! sequence. The circle shows the `a` buckets, each key drawn where its sequence starts.
//!
//! A down node's bit is cleared in a copy of the state: its keys walk on to the next active
//! bucket of their sequence, no other key moves, and up again is the state before.

use super::about::{thousands, KeySpace};
use super::buckets::{capacity, check_capacity, full, key_hash, scaled, Engine, Note, SplitMix64, Stateful, CAPACITY};
use super::entry::{Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Weights};
use super::Algorithm;
use crate::Error;

pub(crate) const ENTRY: Entry = Entry {
    name: "dx",
    label: "DxHash",
    family: Family::Paper,
    source: "Dong & Wang, arXiv:2107.07930 (2021): a pseudo-random walk over the NSArray; keys hashed to u64 with \
             XXH3-64, the walk by SplitMix64",
    options: &[&CAPACITY],
    weights: Weights::One,
    arcs: false,
    replicas: false,
    key_space: |o| KeySpace::Buckets { count: capacity(o) },
    describe: |o| {
        format!(
            "DxHash: {} buckets with an active bit each; a key walks its own pseudo-random sequence of buckets and \
             takes the first active one. Any node can leave; re-adding restores the placement.",
            thousands(u64::from(capacity(o)))
        )
    },
    on_down: OnDown::Skip(
        "DxHash marks a failed node inactive in its array (the paper's removal): the down node's keys walk on to \
         the next active bucket of their own sequence, every other key stays, and reactivating it restores the \
         placement exactly.",
    ),
    on_stale: OnStale::ClientSide(
        "A client with the old active set sends moved keys to their old bucket: reads miss or find stale values, \
         writes leave two copies. Removals commute here, so clients agree once they have seen the same set.",
    ),
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build = Build::Whole(|o, nodes, _| {
    let dx = Dx::new(capacity(o), nodes.len() as u32)?;
    Ok(Box::new(Stateful::new(Algorithm::Dx, nodes, dx)?))
});

/// The paper's state: the active bits of `a` buckets and the removed stack.
#[derive(Clone, Debug)]
pub(crate) struct Dx {
    capacity: u32,
    /// Bit `b` set: bucket `b` is active.
    active: Vec<u64>,
    /// The removed buckets, the last removed on top.
    removed: Vec<u32>,
    /// How many buckets are active.
    size: u32,
}

/// Values of a key's sequence tried before the scan.
const PROBES_PER_BUCKET: u64 = 8;

impl Dx {
    /// Buckets `0..working` active, of `capacity`.
    pub(crate) fn new(capacity: u32, working: u32) -> Result<Dx, Error> {
        check_capacity(Algorithm::Dx, capacity, working)?;
        let mut dx = Dx { capacity, active: vec![0; capacity.div_ceil(64) as usize], removed: Vec::new(), size: 0 };
        for b in 0..working {
            dx.set(b, true);
        }
        dx.size = working;
        Ok(dx)
    }

    #[inline]
    fn is_active(&self, b: u32) -> bool {
        self.active[(b / 64) as usize] & (1 << (b % 64)) != 0
    }

    fn set(&mut self, b: u32, on: bool) {
        let word = &mut self.active[(b / 64) as usize];
        if on {
            *word |= 1 << (b % 64);
        } else {
            *word &= !(1 << (b % 64));
        }
    }
}

impl Engine for Dx {
    fn add_bucket(&mut self) -> Result<u32, Error> {
        let b = match self.removed.pop() {
            Some(b) => b,
            None if self.size < self.capacity => self.size,
            None => return Err(full(Algorithm::Dx, self.capacity)),
        };
        self.set(b, true);
        self.size += 1;
        Ok(b)
    }

    fn remove_bucket(&mut self, b: u32) {
        self.set(b, false);
        self.removed.push(b);
        self.size -= 1;
    }

    fn traced(&self, hash: u64, note: &mut impl Note) -> u32 {
        let mut sequence = SplitMix64(hash);
        let mut b = 0;
        for _ in 0..PROBES_PER_BUCKET * u64::from(self.capacity) {
            b = scaled(sequence.next_u64(), self.capacity);
            note.note("the key's next pseudo-random bucket", u64::from(b));
            if self.is_active(b) {
                return b;
            }
        }
        let found = (1..=self.capacity).map(|step| (b + step) % self.capacity).find(|&c| self.is_active(c));
        note.note("none active in the sequence: the next active bucket after the last", u64::from(found.unwrap_or(b)));
        found.unwrap_or(b)
    }

    fn span(&self) -> u32 {
        self.capacity
    }

    fn fraction(&self, hash: u64) -> f64 {
        super::fraction64(SplitMix64(hash).next_u64())
    }

    fn memory_bytes(&self) -> usize {
        8 * self.active.capacity() + 4 * self.removed.capacity()
    }

    /// `a / w` values on average, each a few ns.
    fn lookup_cost(&self, working: u32) -> u64 {
        2 + u64::from(self.capacity) / (32 * u64::from(working.max(1)))
    }
}

/// DxHash's bucket of `key` for a fresh array of `capacity` buckets with `0..working` active.
///
/// ```
/// use ringlab::algo::papers::dx::bucket;
/// assert!(bucket(b"user:42", 64, 10) < 10);
/// ```
pub fn bucket(key: &[u8], capacity: u32, working: u32) -> u32 {
    Dx::new(capacity, working.clamp(1, capacity.max(1))).map_or(0, |d| d.bucket(key_hash(key)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_active_bucket_of_the_sequence_owns_the_key() {
        let mut dx = Dx::new(16, 16).unwrap();
        for b in [3, 9, 0, 15] {
            dx.remove_bucket(b);
        }
        for i in 0..2000u64 {
            let mut sequence = SplitMix64(i);
            let expected =
                std::iter::repeat_with(|| scaled(sequence.next_u64(), 16)).find(|b| ![3, 9, 0, 15].contains(b));
            assert_eq!(Some(dx.bucket(i)), expected);
        }
        assert_eq!(dx.add_bucket().unwrap(), 15, "the last removed comes back first");
    }

    #[test]
    fn a_lone_bucket_is_found_even_past_the_probes() {
        let mut dx = Dx::new(200, 200).unwrap();
        for b in (0..200).filter(|&b| b != 137) {
            dx.remove_bucket(b);
        }
        assert!((0..5000u64).all(|h| dx.bucket(h) == 137));
    }
}
