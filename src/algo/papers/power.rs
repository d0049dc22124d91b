//! PowerCH, power consistent hashing (Leu, "Power Consistent Hashing", arXiv:2307.12448, 2023;
//! in the SUPSI suite): jump hash's guarantees in constant expected time, from two functions
//! over the power of two `m ≥ n`.
//!
//! The rules (the paper's Algorithm-f, §VI.A, and Algorithm-g, §VI.B, as the C++ suite's
//! `power/powerengine.h` and the SUPSI suite's `consistenthash/power/PowerEngine.java` cite
//! them):
//!
//! - `f(k, m)`: the key hash's low `log₂ m` bits; 0 stays 0; otherwise, with `2^j` their
//!   highest bit, a pseudo-random bucket of `[2^j, 2^(j+1))` chosen by `k` and `j`
//!   (`rehash``(k, j)` here).
//! - `g(k, n, s)`: jump hash's forward jumps started at `s`: `x ← s`, then repeatedly
//!   `r ← min{j : U > (x+1)/(j+1)} = ⌊(x+1)/U⌋` with `U` uniform in `(0, 1]`, `x ← r` while
//!   `r < n`. `U` comes from jump hash's LCG seeded with the key hash (the SUPSI engine's
//!   choice; the paper asks only that it be determined by the key).
//! - The bucket: `f(k, m)` if below `n`; else `g(k, n, m/2 − 1)` if above `m/2 − 1`; else
//!   `f(k, m/2)`.
//!
//! Like jump hash, a counted bucket hash (what they share is in `shapes/buckets.rs`): growing
//! `n → n + 1` moves keys only into bucket `n`.

use super::buckets::{counted_entry, rehash, Counted};
use super::buckets::{Note, Walk};
use super::entry::{Build, Entry};
use super::Algorithm;

pub(crate) const ENTRY: Entry = counted_entry! {
    name: "power",
    label: "PowerCH",
    source: "Leu, arXiv:2307.12448 (2023), Algorithms f and g (§VI)",
    shape: "buckets 0..N−1 and no ring; jump hash's placement reached through the power of two above N, in constant \
            expected time",
    down: "PowerCH, like jump hash, cannot skip a bucket: the down bucket's keys are unavailable until the caller \
           remaps them",
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build =
    Build::Whole(|_, nodes, _| Ok(Box::new(Counted::new(Algorithm::Power, nodes, power_hash, traced::<Walk>)?)));

/// Algorithm-f: a bucket of `0..=mask` (`mask + 1` a power of two).
#[inline]
fn f(hash: u64, mask: u32) -> u32 {
    let bits = hash as u32 & mask;
    if bits == 0 {
        return 0;
    }
    let j = bits.ilog2();
    let low = 1u32 << j;
    low + (rehash(hash, u64::from(j)) as u32 & (low - 1))
}

/// Algorithm-g: jump hash's jumps from `start`, below `n`.
#[inline]
fn g(hash: u64, n: u32, start: u32) -> u32 {
    let mut state = hash;
    let mut x = start;
    loop {
        state = state.wrapping_mul(2_862_933_555_777_941_757).wrapping_add(1);
        let u = ((state >> 33) + 1) as f64 / 2_147_483_648.0;
        let next = (f64::from(x) + 1.0) / u;
        if next < f64::from(n) {
            x = next as u32;
        } else {
            return x;
        }
    }
}

/// The bucket in `0..n` of a 64-bit key (0 for `n ≤ 1`).
///
/// ```
/// use ringlab::algo::papers::power::power_hash;
/// let b = power_hash(0xfeed_beef, 10);
/// assert!(b < 10);
/// assert!([b, 10].contains(&power_hash(0xfeed_beef, 11)));
/// ```
pub fn power_hash(hash: u64, n: u32) -> u32 {
    traced(hash, n, &mut ())
}

/// [`power_hash`], noting each bucket it tries.
pub(crate) fn traced<N: Note>(hash: u64, n: u32, note: &mut N) -> u32 {
    if n < 2 {
        return 0;
    }
    let m = n.next_power_of_two();
    let r1 = f(hash, m - 1);
    note.note("algorithm f over the enclosing power of two", u64::from(r1));
    if r1 < n {
        return r1;
    }
    let half = (m >> 1) - 1;
    let r2 = g(hash, n, half);
    note.note("past the count: algorithm g's jumps from the half", u64::from(r2));
    if r2 > half {
        return r2;
    }
    let r3 = f(hash, half);
    note.note("algorithm f over the lower half", u64::from(r3));
    r3
}
