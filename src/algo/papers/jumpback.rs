//! JumpBackHash (Ertl, "JumpBackHash: Say Goodbye to the Modulo Operation to Distribute Keys
//! Uniformly to Buckets", Software: Practice and Experience 2025, arXiv:2403.18682): jump
//! hash's distribution and monotonicity in constant expected time, by walking *back* from the
//! largest bucket instead of jumping forward from bucket 0.
//!
//! The rule (the paper's algorithm, in the form hash4j ships and the SUPSI suite benchmarks,
//! `consistenthash/jumpback/JumpBackEngine.java`): the bucket ranges `[2^m, 2^(m+1))` are
//! visited from the top one that `n − 1` reaches down; for each, the key's pseudo-random
//! values decide whether it has a bucket there, and which: the first draw's bits (one per
//! range, so that a range is entered with the probability jump hash gives it) and a candidate
//! `2^m + (draw mod 2^m)`. A candidate at or above `n` draws again from `[0, 2^(m+1))`: a
//! value below `2^m` sends the key on to the next range down, one below `n` is its bucket.
//! Bucket 0 takes what no range kept. The draws are SplitMix64 seeded with the key hash
//! (hash4j's `splitMix64_V1`); each 64-bit value gives two 32-bit draws.
//!
//! Like jump hash, a counted bucket hash (what they share is in `shapes/buckets.rs`): growing
//! `n → n + 1` moves keys only into bucket `n` (about `1/(n+1)` of them).

use super::buckets::{counted_entry, Counted, SplitMix64};
use super::buckets::{Note, Walk};
use super::entry::{Build, Entry};
use super::Algorithm;

pub(crate) const ENTRY: Entry = counted_entry! {
    name: "jump-back",
    label: "JumpBackHash",
    source: "Ertl, arXiv:2403.18682 (2024), as hash4j ships it (SplitMix64 draws)",
    shape: "buckets 0..N−1 and no ring, jump hash's placement rule walked back from the top in constant time",
    down: "JumpBackHash, like jump hash, cannot skip a bucket: the down bucket's keys are unavailable until the \
           caller remaps them (or replicates buckets)",
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build =
    Build::Whole(|_, nodes, _| Ok(Box::new(Counted::new(Algorithm::JumpBack, nodes, jump_back_hash, traced::<Walk>)?)));

/// The bucket in `0..n` of a 64-bit key (`n ≥ 1`; 0 for `n ≤ 1`).
///
/// ```
/// use ringlab::algo::papers::jumpback::jump_back_hash;
/// assert_eq!(jump_back_hash(12345, 1), 0);
/// let b = jump_back_hash(12345, 10);
/// assert!(b < 10);
/// // Growing to 11 buckets moves a key only into bucket 10.
/// assert!([b, 10].contains(&jump_back_hash(12345, 11)));
/// ```
pub fn jump_back_hash(key: u64, n: u32) -> u32 {
    traced(key, n, &mut ())
}

/// [`jump_back_hash`], noting each candidate bucket it tries.
pub(crate) fn traced<N: Note>(key: u64, n: u32, note: &mut N) -> u32 {
    if n <= 1 {
        return 0;
    }
    let mut draws = SplitMix64(key);
    let first = draws.next_u64();
    // One bit per range [2^m, 2^(m+1)) below n: set where the key may have a bucket.
    let mut ranges = ((first ^ (first >> 32)) as u32) & (u32::MAX >> (n - 1).leading_zeros());
    while ranges != 0 {
        let low = 1u32 << (31 - ranges.leading_zeros());
        let span = (u64::from(low) << 1) - 1;
        // Alternate halves of the first draw for the candidate, by the ranges left.
        let half = if ranges.count_ones() % 2 == 1 { (first >> 32) as u32 } else { first as u32 };
        let mut candidate = low + (half & (low - 1));
        note.note("the highest range left: its candidate from the first draw", u64::from(candidate));
        'range: loop {
            if candidate < n {
                return candidate;
            }
            let draw = draws.next_u64();
            for part in [draw, draw >> 32] {
                candidate = (part & span) as u32;
                note.note("at or past the count: a new draw in the range", u64::from(candidate));
                if candidate < low {
                    break 'range;
                }
                if candidate < n {
                    return candidate;
                }
            }
        }
        ranges ^= low;
    }
    0
}
