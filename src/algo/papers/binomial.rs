//! BinomialHash (Coluzzi, Brocco, Antonucci & Leidi, "BinomialHash: A Constant Time, Minimal
//! Memory Consistent Hash Algorithm", arXiv:2406.19836, 2024): buckets seen as the levels of
//! a binary tree (bucket `b ≥ 2` on level `⌊log₂ b⌋`), a key placed in constant time with
//! jump hash's guarantees.
//!
//! The rules (the paper's pseudo-code, as its authors wrote it in the SUPSI suite,
//! `consistenthash/binomial/BinomialEngine.java`):
//!
//! - The *enclosing tree* holds `2^r ≥ n` buckets (filter `2^r − 1`), the *minor tree* half of
//!   them. A key's position in the enclosing tree (its low bits) is moved to a random place
//!   on the same level (`relocateWithinLevel`), so every bucket of a level is as likely.
//! - A position below `n` is the bucket. Otherwise up to 4 rehashes of the key try again:
//!   one in the minor tree stops the search, one in `[2^(r−1), n)` is the bucket. Failing
//!   that, the key's position in the minor tree, relocated, which is always a bucket.
//! - Rehashes are the authors' LCG step: `h ← 2862933555777941757·v + 1`, `(h²·seed) >> 32`.
//!
//! The filters are functions of `n` (the reference engine also carries them across adds and
//! removals, with the same buckets: at a power of two the two filter choices agree).
//!
//! Like jump hash, a counted bucket hash (what they share is in `shapes/buckets.rs`): growing
//! `n → n + 1` moves keys only into bucket `n`.

use super::buckets::{counted_entry, Counted};
use super::buckets::{Note, Walk};
use super::entry::{Build, Entry};
use super::Algorithm;

pub(crate) const ENTRY: Entry = counted_entry! {
    name: "binomial",
    label: "BinomialHash",
    source: "Coluzzi et al., arXiv:2406.19836 (2024), the authors' engine (SUPSI suite)",
    shape: "buckets 0..N−1 as the levels of a binary tree; a key's place on its level is randomised, in constant \
            time",
    down: "BinomialHash, like jump hash, cannot skip a bucket: the down bucket's keys are unavailable until the \
           caller remaps them",
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build =
    Build::Whole(|_, nodes, _| Ok(Box::new(Counted::new(Algorithm::Binomial, nodes, binomial_hash, traced::<Walk>)?)));

/// The authors' rehash: one step of jump hash's LCG, squared, times the seed, high half.
#[inline]
fn rehash(value: u64, seed: u32) -> u64 {
    let h = value.wrapping_mul(2_862_933_555_777_941_757).wrapping_add(1);
    h.wrapping_mul(h).wrapping_mul(u64::from(seed)) >> 32
}

/// A random position on the level of `bucket` (buckets 0 and 1 are the root).
#[inline]
fn relocate(bucket: u32, hash: u64) -> u32 {
    if bucket < 2 {
        return bucket;
    }
    let level = 1u32 << bucket.ilog2();
    level + (rehash(hash, level - 1) as u32 & (level - 1))
}

/// Rehashes tried before the minor tree.
const RETRIES: usize = 4;

/// The bucket in `0..n` of a 64-bit key (0 for `n ≤ 1`).
///
/// ```
/// use ringlab::algo::papers::binomial::binomial_hash;
/// let b = binomial_hash(0x0123_4567_89ab_cdef, 10);
/// assert!(b < 10);
/// assert!([b, 10].contains(&binomial_hash(0x0123_4567_89ab_cdef, 11)));
/// ```
pub fn binomial_hash(hash: u64, n: u32) -> u32 {
    traced(hash, n, &mut ())
}

/// [`binomial_hash`], noting each bucket it tries.
pub(crate) fn traced<N: Note>(hash: u64, n: u32, note: &mut N) -> u32 {
    if n < 2 {
        return 0;
    }
    let enclosing = n.next_power_of_two() - 1;
    let minor = enclosing >> 1;
    let bucket = relocate(hash as u32 & enclosing, hash);
    note.note("in the enclosing tree, relocated on its level", u64::from(bucket));
    if bucket < n {
        return bucket;
    }
    let mut h = hash;
    for _ in 0..RETRIES {
        h = rehash(h, enclosing);
        let bucket = relocate(h as u32 & enclosing, h);
        note.note("past the count: rehashed, relocated on its level", u64::from(bucket));
        if bucket <= minor {
            break;
        }
        if bucket < n {
            return bucket;
        }
    }
    let bucket = relocate(hash as u32 & minor, hash);
    note.note("in the minor tree, relocated on its level", u64::from(bucket));
    bucket
}
