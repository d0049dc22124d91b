//! FlipHash (Masson & Lee, "FlipHash: A Constant-Time Consistent Range-Hashing Algorithm",
//! arXiv:2402.17549, 2024): a key hashed onto `0..n` uniformly and monotonically in constant
//! time, by flipping bits of a power-of-two hash.
//!
//! The rules (the paper's `FlipHash_pow2` and `FlipHash`, as its authors' crate `fliphash`
//! computes them, `src/lib.rs`; the SUPSI suite's `consistenthash/flip/FlipEngine.java` does
//! the same with its own hash):
//!
//! - For `2^r` buckets: take the key hash's low `r` bits `x`; if `x > 0`, flip the bits below
//!   its highest one with a hash of the key seeded by that bit's index. Each range
//!   `[2^j, 2^(j+1))` keeps its keys when `r` grows.
//! - For `2^(r−1) < n ≤ 2^r`: the `2^r` answer if it is below `n`; else up to 64 draws of `r`
//!   bits (seeded by the range and the draw's index): a draw in the lower half ends the
//!   search, one in `[2^(r−1), n)` is the bucket. Without one, the `2^(r−1)` answer.
//!
//! The seeded hash is the one the authors' crate uses for integer keys (`fliphash_64`: two
//! multiply-xorshift rounds, Evensen's moremur constants, with the seed's parts as odd
//! multipliers), so ringlab's buckets are the crate's for the same key hash; the key hash is
//! XXH3-64 of the key's bytes.
//!
//! Like jump hash, a counted bucket hash (what they share is in `shapes/buckets.rs`): growing
//! `n → n + 1` moves keys only into bucket `n`.

use super::buckets::{counted_entry, Counted};
use super::buckets::{Note, Walk};
use super::entry::{Build, Entry};
use super::Algorithm;

pub(crate) const ENTRY: Entry = counted_entry! {
    name: "flip",
    label: "FlipHash",
    source: "Masson & Lee, arXiv:2402.17549 (2024), with the authors' integer hash (crate fliphash 0.1)",
    shape: "buckets 0..N−1 and no ring; a key's power-of-two hash has bits flipped so that it stays put as N grows, \
            in constant time",
    down: "FlipHash is a range hash: it cannot skip a bucket, so the down bucket's keys are unavailable until the \
           caller remaps them",
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build =
    Build::Whole(|_, nodes, _| Ok(Box::new(Counted::new(Algorithm::Flip, nodes, flip_hash, traced::<Walk>)?)));

/// Draws before falling back to the lower power of two (the authors' choice).
const MAX_DRAWS: u32 = 64;

/// The key's hash seeded by a bit length and a draw's index.
#[inline]
fn seeded(key: u64, bits: u32, draw: u32) -> u64 {
    let mut k = key.wrapping_mul(2 * u64::from(bits) + 1);
    k = (k ^ (k >> 27)).wrapping_mul(0x3c79_ac49_2ba7_b653);
    k = k.wrapping_mul(2 * u64::from(draw) + 1);
    k = (k ^ (k >> 33)).wrapping_mul(0x1c69_b3f7_4ac4_ae35);
    k ^ (k >> 27)
}

/// FlipHash onto `0..=mask` (`mask + 1` a power of two), from the key's first hash.
#[inline]
fn pow2(key: u64, first: u64, mask: u64) -> u64 {
    match first & mask {
        0 => 0,
        x => {
            let top = x.ilog2();
            x ^ (seeded(key, top, 0) & ((1 << top) - 1))
        }
    }
}

/// The bucket in `0..n` of a 64-bit key (0 for `n ≤ 1`).
///
/// ```
/// use ringlab::algo::papers::flip::flip_hash;
/// let b = flip_hash(10427592028180905159, 18);
/// assert!(b < 18);
/// assert!([b, 18].contains(&flip_hash(10427592028180905159, 19)));
/// ```
pub fn flip_hash(key: u64, n: u32) -> u32 {
    traced(key, n, &mut ())
}

/// [`flip_hash`], noting each bucket it tries.
pub(crate) fn traced<N: Note>(key: u64, n: u32, note: &mut N) -> u32 {
    if n <= 1 {
        return 0;
    }
    let end = u64::from(n - 1);
    let mask = u64::MAX >> end.leading_zeros();
    let first = seeded(key, 0, 0);
    let x = pow2(key, first, mask);
    note.note("FlipHash onto the enclosing power of two", x);
    if x <= end {
        return x as u32;
    }
    for draw in 1..=MAX_DRAWS {
        let d = seeded(key, end.ilog2(), draw) & mask;
        note.note("past the count: a redraw (kept if in the upper half)", d);
        if d <= mask >> 1 {
            break;
        }
        if d <= end {
            return d as u32;
        }
    }
    let lower = pow2(key, first, mask >> 1);
    note.note("FlipHash onto the lower power of two", lower);
    lower as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Key for key, ringlab's FlipHash is the authors' crate's `fliphash_64` (same hash, same
    /// loop): over 2,000 key hashes and every bucket count up to 300, and some large ones.
    #[test]
    fn every_bucket_is_the_fliphash_crates() {
        let mut compared = 0;
        for i in 0..2000u64 {
            let key = crate::algo::buckets::key_hash(format!("key:{i}").as_bytes());
            for n in (1..=300u32).chain([1000, 4096, 4097, 10_000, 16_384]) {
                assert_eq!(
                    u64::from(flip_hash(key, n)),
                    fliphash::fliphash_64(key, ..=u64::from(n - 1)),
                    "{key:#x} {n}"
                );
                compared += 1;
            }
        }
        assert_eq!(compared, 2000 * 305);
    }
}
