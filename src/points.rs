//! Sorted points on a ring and constant-time successor lookups: the storage every
//! point-based placement (ringlab's ring, ketama, groupcache, Cassandra tokens, Redis slots,
//! a Maglev table) shares.
//!
//! **Layout.** On a ring of at most 32 bits, each point is one `u64`: its position in the
//! high half and its owner in the low half, sorted. Comparing such a word with
//! `key_position << 32` compares the positions, and the owner comes in the same cache line
//! as the position that matched (no second array to read). Wider rings keep positions
//! (`u64`) and owners (`u32`) in two arrays. Both have a bucket index over the top `k` bits
//! of a position, with `2^k ≤ points` buckets (1 to 2 points per bucket, at most 4 bytes of
//! index per point: 8 to 12 bytes a point on a 32-bit ring).
//!
//! A lookup is one index read, then a branch-free count of how many of the next
//! [`WINDOW`] points lie below the key (on a 32-bit ring, a two-step branch-free binary
//! search of them). The points are sorted and the bucket starts at or after every point
//! below it, so that count is the answer whenever fewer than `WINDOW` points of the bucket
//! lie below the key: all but a few percent of lookups; the rest take one more window, then
//! a binary search. The arrays end with [`PAD`] (21) padding entries (positions above every
//! key, the first's owned by the first point's owner), so a window never runs off the end
//! and a key past the last point wraps to the first owner with no branch. On a 32-bit ring
//! padding entry `j` is owned by point `j`'s owner (round the ring), so the owners up to
//! [`PAD`] points on from any point are there without wrapping (replica lists, with the
//! run bytes of [`Points::replica_runs`]).
//!
//! The 32-bit lookups (`owner_at_32`, `successor_32`) read the index and the window
//! without bounds checks: the index has exactly `2^k` entries for the top `k` bits of a
//! 32-bit position, each at most `len`, and `len + PAD` words follow. `set` builds exactly
//! that, and the proptest below compares every lookup with a linear scan.
//!
//! Why not answer the owner straight from the index when a bucket holds no point? Within
//! 4 bytes of index per point, only 13–37% of buckets are empty, and the branch choosing
//! between "direct" and "search" would mispredict on a large share of lookups, each
//! misprediction costing more than the few compares it saves.

use std::ops::ControlFlow;

/// Points compared per lookup before the slow path.
const WINDOW: usize = 4;
/// Padding entries after the points: a lookup window, and the farthest point a replica
/// list reads from any point ([`RUN_REACH`]).
const PAD: usize = 21;
/// How far a [`Points::replica_runs`] byte points for sure: `3 + 7 + 7` points (and 20
/// at most, for a field saying "farther").
pub(crate) const RUN_REACH: usize = 17;

/// Packs the offsets of the 2nd, 3rd and 4th distinct owners (as many as were found within
/// [`RUN_REACH`]) into a [`Points::replica_runs`] byte.
fn encode_run(offsets: &[usize]) -> u8 {
    let (mut byte, mut previous, mut shift, mut known) = (0u8, 0, 0, true);
    for (k, width) in [2u32, 3, 3].into_iter().enumerate() {
        let farther = (1usize << width) - 1;
        let gap = match offsets.get(k) {
            Some(&offset) if known && offset - previous <= farther => offset - previous - 1,
            _ => farther,
        };
        known = gap != farther;
        previous = offsets.get(k).copied().unwrap_or(previous);
        byte |= (gap as u8) << shift;
        shift += width;
    }
    byte
}

/// The offsets `[0, a, b, c]` a [`Points::replica_runs`] byte gives, and how many of the
/// first owners they reach for sure (1 to 4).
#[inline(always)]
pub(crate) fn decode_run(byte: u8) -> ([usize; 4], usize) {
    // One read of a 1 KB table instead of a dozen operations: lookups are short enough that
    // this shows.
    let [a, b, c, known] = RUN_TABLE[usize::from(byte)];
    ([0, usize::from(a), usize::from(b), usize::from(c)], usize::from(known))
}

/// [`decode_run`] of every byte: `[a, b, c, known]`.
static RUN_TABLE: [[u8; 4]; 256] = {
    let mut table = [[0u8; 4]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (fa, fb, fc) = (byte & 3, byte >> 2 & 7, byte >> 5);
        let a = fa + 1;
        let b = a + fb + 1;
        let c = b + fc + 1;
        let known = 1 + (fa != 3) as usize + (fb != 7) as usize + (fc != 7) as usize;
        table[byte] = [a as u8, b as u8, c as u8, known as u8];
        byte += 1;
    }
    table
};

/// The sorted points, and a bucket index over the top bits of the position.
///
/// Plain fields, no enum: a 32-bit ring's lookup reads `words` and `index` with no
/// dispatch on the ring's width (see [`Points::owner_at_32`]).
#[derive(Clone, Debug)]
pub(crate) struct Points {
    /// The points, then `PAD` padding entries above every key: on rings of at most 32
    /// bits `position << 32 | owner` (the padding's owners those of the first points, round
    /// the ring), on wider rings the positions alone.
    words: Vec<u64>,
    /// On wider rings, the owners (and `PAD` padding entries, the first point's owner);
    /// empty on rings of at most 32 bits.
    owners: Vec<u32>,
    len: usize,
    /// `index[j]` is the first point whose position's top `k` bits are ≥ `j` (`2^k` entries).
    index: Vec<u32>,
    index_shift: u32,
    space_bits: u32,
}

/// Where [`Points::fill`] is: the points copied so far, and the point the index has reached.
#[derive(Clone, Debug, Default)]
pub(crate) struct Filling {
    started: bool,
    copied: usize,
    indexed: usize,
}

impl Points {
    /// No points, on a ring whose positions are below `2^space_bits` (at most 64).
    pub(crate) fn new(space_bits: u32) -> Points {
        let mut points =
            Points { words: Vec::new(), owners: Vec::new(), len: 0, index: Vec::new(), index_shift: 0, space_bits };
        points.set(&[]);
        points
    }

    /// Whether each word holds a position and its owner (rings of at most 32 bits).
    #[inline(always)]
    fn packed(&self) -> bool {
        self.space_bits <= 32
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn memory_bytes(&self) -> usize {
        self.words.capacity() * 8 + self.owners.capacity() * 4 + self.index.capacity() * 4
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The position of point `i` (`i < len`).
    #[inline]
    pub(crate) fn position(&self, i: usize) -> u64 {
        assert!(i < self.len, "point {i} of {}", self.len);
        if self.packed() {
            self.words[i] >> 32
        } else {
            self.words[i]
        }
    }

    /// The owner of point `i` (`i < len`; at `len`, the first point's owner).
    #[inline]
    pub(crate) fn owner(&self, i: usize) -> u32 {
        if self.packed() {
            self.words[i] as u32
        } else {
            self.owners[i]
        }
    }

    /// Point `i` as [`Arcs::point`](crate::analysis::Arcs::point) answers it: its position
    /// and its owner's index.
    pub(crate) fn point(&self, i: usize) -> (u64, usize) {
        (self.position(i), self.owner(i) as usize)
    }

    /// The owner of `position` as [`Arcs::owner_of`](crate::analysis::Arcs::owner_of)
    /// answers it: the first point's at or after it, wrapping; `None` on an empty ring.
    pub(crate) fn owner_of(&self, position: u64) -> Option<usize> {
        (!self.is_empty()).then(|| self.owner_at(position) as usize)
    }

    pub(crate) fn entries(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        (0..self.len()).map(|i| (self.position(i), self.owner(i)))
    }

    pub(crate) fn set(&mut self, entries: &[(u64, u32)]) {
        self.fill(entries, &mut Filling::default(), usize::MAX);
    }

    /// [`set`](Points::set) a piece at a time, for a caller that must not block for the
    /// whole of it (a ring built in steps): up to about `budget` points copied or index
    /// buckets filled a call, resumed from `filling`, with the same `entries` each call.
    /// Answers whether the points are set; they are then exactly `set`'s.
    pub(crate) fn fill(&mut self, entries: &[(u64, u32)], filling: &mut Filling, budget: usize) -> bool {
        let len = entries.len();
        let mut left = budget.max(1);
        if !filling.started {
            filling.started = true;
            self.len = len;
            self.words.clear();
            self.words.reserve_exact(len + PAD);
            self.owners.clear();
            if !self.packed() {
                self.owners.reserve_exact(len + PAD);
            }
            // 2^k ≤ len buckets: 1 to 2 points per bucket, at most 4 bytes of index per point.
            let floor_log2 = (usize::BITS - 1).saturating_sub(len.leading_zeros());
            let index_bits = floor_log2.clamp(1, 24).min(self.space_bits);
            self.index_shift = self.space_bits - index_bits;
            self.index.clear();
            self.index.reserve_exact(1 << index_bits);
        }
        if filling.copied < len {
            let piece = &entries[filling.copied..len.min(filling.copied.saturating_add(left))];
            if self.packed() {
                self.words.extend(piece.iter().map(|&(p, o)| (p << 32) | u64::from(o)));
            } else {
                self.words.extend(piece.iter().map(|e| e.0));
                self.owners.extend(piece.iter().map(|e| e.1));
            }
            filling.copied += piece.len();
            left -= piece.len();
            if filling.copied < len || left == 0 {
                return false;
            }
        }
        if self.words.len() == len {
            if self.packed() {
                // Padding word `j` is owned by point `j`'s owner (round the ring): a lookup
                // past the last point answers the first's, and a window of owners from any
                // point wraps (`owners_at`).
                let wrapped = |j: usize| entries.get(j % len.max(1)).map_or(0, |e| e.1);
                self.words.extend((0..PAD).map(|j| (u64::from(u32::MAX) << 32) | u64::from(wrapped(j))));
                self.owners.shrink_to_fit();
            } else {
                let first_owner = entries.first().map_or(0, |e| e.1);
                self.words.resize(len + PAD, u64::MAX);
                self.owners.resize(len + PAD, first_owner);
            }
        }
        let buckets = 1usize << (self.space_bits - self.index_shift);
        let mut i = filling.indexed;
        while self.index.len() < buckets && left > 0 {
            let bucket = self.index.len() as u64;
            let from = i;
            while i < len && (entries[i].0 >> self.index_shift) < bucket {
                i += 1;
            }
            self.index.push(i as u32);
            left = left.saturating_sub(1 + (i - from));
        }
        filling.indexed = i;
        // What `owner_at_32` relies on (with `words.len() == len + PAD`).
        debug_assert!(self.index.len() < buckets || self.index.iter().all(|&lo| lo as usize <= len));
        self.index.len() == buckets
    }

    /// The first point whose position is in `position`'s bucket or later; `len` (the
    /// padding) above the ring's space.
    #[inline(always)]
    fn bucket_start(&self, position: u64) -> usize {
        match self.index.get((position >> self.index_shift) as usize) {
            Some(&lo) => lo as usize,
            None => self.len,
        }
    }

    /// The first point at or after `position`, wrapping to 0. The ring must not be empty.
    #[inline]
    pub(crate) fn successor(&self, position: u64) -> usize {
        let lo = self.bucket_start(position);
        let key = if self.packed() { position << 32 } else { position };
        let below = count_below(window(&self.words, lo), key);
        let found = if below < WINDOW { lo + below } else { self.search(lo + WINDOW, position) };
        if found >= self.len {
            0
        } else {
            found
        }
    }

    /// The owner of the first point at or after `position`, wrapping. (An empty ring
    /// answers 0.) Always inlined: it is the whole of a lookup after the hash.
    #[inline(always)]
    pub(crate) fn owner_at(&self, position: u64) -> u32 {
        if self.packed() {
            // Above a 32-bit space, `bucket_start` is the padding, which no key is above.
            let lo = self.bucket_start(position);
            let window = window(&self.words, lo);
            match window.get(count_below(window, position << 32)) {
                Some(&word) => word as u32,
                None => self.owner(self.search(lo + WINDOW, position)),
            }
        } else {
            let lo = self.bucket_start(position);
            let below = count_below(window(&self.words, lo), position);
            self.owners[if below < WINDOW { lo + below } else { self.search(lo + WINDOW, position) }]
        }
    }

    /// [`owner_at`](Points::owner_at) on a 32-bit ring, for a 32-bit position: no dispatch
    /// on the width and no bounds checks (the hot path of `Ring::locate`).
    ///
    /// # Safety
    ///
    /// The points were made by `Points::new(32)` (see [`is_space_32`](Points::is_space_32)).
    #[inline(always)]
    pub(crate) unsafe fn owner_at_32(&self, position: u32) -> u32 {
        debug_assert!(self.is_space_32());
        debug_assert_eq!(self.index.len(), 1 << (32 - self.index_shift));
        debug_assert_eq!(self.words.len(), self.len + PAD);
        // SAFETY: on a 32-bit space `set` makes `2^(32 - index_shift)` buckets, so any
        // 32-bit position shifted right by `index_shift` is a bucket.
        let lo = unsafe { *self.index.get_unchecked((position >> self.index_shift) as usize) } as usize;
        // A branch-free binary search of the 4 words from `lo`: the second picks a half,
        // the half's first picks the word. The words are sorted, so the answer is that
        // word unless all 4 lie below the key.
        // The 4 reads are volatile so that they stay 4 reads, issued at once: otherwise the
        // compiler reads `w[0]` or `w[2]` at an address chosen by the first compare, one
        // more read in the lookup's chain of dependent reads.
        // SAFETY: `set` writes bucket starts of at most `len`, and `len + PAD` words.
        let w: [u64; WINDOW] = std::array::from_fn(|k| unsafe { self.words.as_ptr().add(lo + k).read_volatile() });
        let key = u64::from(position) << 32;
        let upper = w[1] < key;
        let (first, second) = std::hint::select_unpredictable(upper, (w[2], w[3]), (w[0], w[1]));
        let found = std::hint::select_unpredictable(first < key, second, first);
        if found >= key {
            found as u32
        } else {
            // All 4 below the key: a crowded bucket.
            self.owner(self.search(lo + WINDOW, u64::from(position)))
        }
    }

    /// [`successor`](Points::successor) on a 32-bit ring, for a 32-bit position. The ring must
    /// not be empty.
    ///
    /// # Safety
    ///
    /// As [`owner_at_32`](Points::owner_at_32).
    #[inline(always)]
    pub(crate) unsafe fn successor_32(&self, position: u32) -> usize {
        debug_assert!(self.is_space_32());
        // SAFETY: as in `owner_at_32`.
        let lo = unsafe { *self.index.get_unchecked((position >> self.index_shift) as usize) } as usize;
        // Only the index is wanted: a count of the 4 words below the key (4 reads at once,
        // no select for the compiler to turn back into branches).
        // SAFETY: as in `owner_at_32`.
        let w = unsafe { &*self.words.as_ptr().add(lo).cast::<[u64; WINDOW]>() };
        let below = count_below(w, u64::from(position) << 32);
        let found = if below < WINDOW { lo + below } else { self.search(lo + WINDOW, u64::from(position)) };
        if found >= self.len {
            0
        } else {
            found
        }
    }

    /// For each point, where the next 3 distinct owners clockwise are: the offsets `a < b <
    /// c` of the first points whose owner differs from all before it, packed in a byte as
    /// `a - 1` (2 bits), `b - a - 1` (3 bits) and `c - b - 1` (3 bits); a field at its
    /// maximum means "farther" (and so do the fields after it). With these a short replica
    /// list is 4 reads at known places, no comparing ([`owners_at`](Points::owners_at)).
    /// Empty on wider rings. One byte a point; at most [`RUN_REACH`] steps a point to build.
    pub(crate) fn replica_runs(&self) -> Vec<u8> {
        if !self.packed() || self.len == 0 {
            return Vec::new();
        }
        // The padding repeats the first points' owners, so `i + step` needs no wrapping.
        let owner = |i: usize| self.words[i] as u32;
        (0..self.len)
            .map(|i| {
                let mut found = [owner(i); 4];
                let mut offsets = [0usize; 4];
                let mut count = 1;
                for step in 1..=RUN_REACH {
                    if count == 4 {
                        break;
                    }
                    let o = owner(i + step);
                    if !found[..count].contains(&o) {
                        found[count] = o;
                        offsets[count] = step;
                        count += 1;
                    }
                }
                encode_run(&offsets[1..count])
            })
            .collect()
    }

    /// The owners of points `start + offsets[k]` (round the ring), `start < len`, offsets
    /// from a [`replica_runs`](Points::replica_runs) byte (so below [`PAD`]).
    #[inline(always)]
    pub(crate) fn owners_at(&self, start: usize, offsets: [usize; 4]) -> [u32; 4] {
        let from: &[u64; PAD] = self.words[start..start + PAD].try_into().expect("PAD words from a point");
        offsets.map(|k| from[k] as u32)
    }

    /// Whether the points are on a 32-bit ring, the contract of [`owner_at_32`](Points::owner_at_32).
    pub(crate) fn is_space_32(&self) -> bool {
        self.space_bits == 32
    }

    /// Calls `visit` with the owner of each point from `start` on, clockwise, once around the
    /// ring, until it breaks.
    #[inline]
    pub(crate) fn walk_owners(&self, start: usize, visit: impl FnMut(u32) -> ControlFlow<()>) {
        let len = self.len;
        let _ = if self.packed() {
            let words = &self.words;
            words[start..len].iter().chain(&words[..start]).map(|&w| w as u32).try_for_each(visit)
        } else {
            self.owners[start..len].iter().chain(&self.owners[..start]).copied().try_for_each(visit)
        };
    }

    /// Writes the first `want` distinct owners clockwise from point `start` into `chosen`
    /// (at most its length), and says how many (fewer only if the ring has fewer owners).
    #[inline]
    pub(crate) fn first_distinct_owners(&self, start: usize, want: usize, chosen: &mut [u32]) -> usize {
        if self.packed() {
            first_distinct(&self.words[..self.len], start, want, chosen, |&w| w as u32)
        } else {
            first_distinct(&self.owners[..self.len], start, want, chosen, |&o| o)
        }
    }

    /// The rare slow path (a crowded bucket): from point `from`, one more window, then a
    /// binary search. May answer `len` (past the last point).
    #[cold]
    #[inline(never)]
    fn search(&self, from: usize, position: u64) -> usize {
        let key = if self.packed() { position << 32 } else { position };
        crowded(&self.words, from, self.len, key)
    }
}

/// The `WINDOW` entries from `lo` (the padding keeps them in bounds for every `lo ≤ len`).
#[inline(always)]
fn window(sorted: &[u64], lo: usize) -> &[u64; WINDOW] {
    let window = sorted.get(lo..lo + WINDOW).expect("the points end with WINDOW entries of padding");
    window.try_into().expect("a range of WINDOW entries")
}

/// How many of `window` are below `x`: a fixed-size count with no branch.
#[inline(always)]
fn count_below(window: &[u64; WINDOW], x: u64) -> usize {
    window.iter().map(|&p| u32::from(p < x)).sum::<u32>() as usize
}

/// Writes the first `want` distinct owners of `points`, clockwise from `start`, into
/// `chosen`, and says how many.
#[inline(always)]
fn first_distinct<T>(points: &[T], start: usize, want: usize, chosen: &mut [u32], owner: impl Fn(&T) -> u32) -> usize {
    let want = want.min(chosen.len());
    let mut count = 0;
    let mut i = start;
    for _ in 0..points.len() {
        if count >= want {
            break;
        }
        let owner = owner(&points[i]);
        // Write it, then keep it only if new. (Comparing with all N slots at once would
        // read back the slot just written with a wider load: a store-forwarding stall.)
        let seen = chosen[..count].contains(&owner);
        chosen[count] = owner;
        count += usize::from(!seen);
        i += 1;
        if i == points.len() {
            i = 0;
        }
    }
    count
}

/// The first of `sorted[from..len]` at or after `x`, when more than a window may be below it.
fn crowded(sorted: &[u64], from: usize, len: usize, x: u64) -> usize {
    match count_below(window(sorted, from), x) {
        below if below < WINDOW => from + below,
        _ => from + WINDOW + sorted[from + WINDOW..len].partition_point(|&p| p < x),
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The first point at or after `probe`, by a plain linear scan (0 past the last point).
    fn expected(sorted: &[u64], probe: u64) -> usize {
        sorted.iter().position(|&p| p >= probe).unwrap_or(0)
    }

    /// Sorted points in a `bits`-bit space: spread out, or crowded into a narrow range
    /// (many collisions and buckets far over the window), with 0 and the top sometimes in.
    fn point_set() -> impl Strategy<Value = (u32, Vec<u64>)> {
        (prop_oneof![Just(32u32), Just(64u32), Just(14u32)], 0u64..4, 1usize..300, any::<[bool; 2]>())
            .prop_flat_map(|(bits, crowd, n, ends)| {
                let max = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
                // crowd 0: anywhere; 1: within 64 positions of a random base; 2: 3 values; 3: near the top.
                let values = prop::collection::vec(any::<u64>(), n);
                (Just(bits), Just(max), Just(crowd), values, any::<u64>(), Just(ends))
            })
            .prop_map(|(bits, max, crowd, values, base, ends)| {
                let mut points: Vec<u64> = values
                    .into_iter()
                    .map(|v| match crowd {
                        0 => v & max,
                        1 => (base & max).saturating_add(v % 64).min(max),
                        2 => [0, max / 2, max][(v % 3) as usize],
                        _ => max - (v % 100).min(max),
                    })
                    .collect();
                if ends[0] {
                    points.push(0);
                }
                if ends[1] {
                    points.push(max);
                }
                points.sort_unstable();
                (bits, points)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Filled a piece at a time, whatever the pieces, the points are `set`'s, word for
        /// word, and no call does more than its budget (and one bucket's points).
        #[test]
        fn points_filled_in_pieces_are_set_s((bits, sorted) in point_set(), budget in 1usize..40) {
            let entries: Vec<(u64, u32)> = sorted.iter().enumerate().map(|(i, &p)| (p, i as u32 * 3)).collect();
            let mut whole = Points::new(bits);
            whole.set(&entries);
            let mut pieces = Points::new(bits);
            let mut filling = Filling::default();
            let mut calls = 1;
            while !pieces.fill(&entries, &mut filling, budget) {
                calls += 1;
            }
            prop_assert_eq!(
                (&pieces.words, &pieces.owners, pieces.len, &pieces.index, pieces.index_shift),
                (&whole.words, &whole.owners, whole.len, &whole.index, whole.index_shift)
            );
            let work = entries.len() + whole.index.len();
            prop_assert!(calls >= work / budget, "{} calls for {} points and buckets by {}", calls, work, budget);
        }

        #[test]
        fn lookups_match_a_linear_scan((bits, sorted) in point_set(), extra in prop::collection::vec(any::<u64>(), 50)) {
            let max = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
            let entries: Vec<(u64, u32)> = sorted.iter().enumerate().map(|(i, &p)| (p, i as u32 * 7 + 1)).collect();
            let mut points = Points::new(bits);
            points.set(&entries);
            prop_assert_eq!(points.len(), sorted.len());
            prop_assert!(points.entries().eq(entries.iter().copied()));
            let near = sorted.iter().flat_map(|&p| [p.wrapping_sub(1) & max, p, p.saturating_add(1) & max]);
            let probes = extra.iter().map(|&v| v & max).chain([0, max, max / 2]).chain(near);
            for probe in probes {
                let i = expected(&sorted, probe);
                prop_assert_eq!(points.successor(probe), i, "probe {}", probe);
                prop_assert_eq!(points.owner_at(probe), entries[i].1, "probe {}", probe);
                if bits == 32 {
                    // SAFETY: a 32-bit space, the function's contract.
                    prop_assert_eq!(unsafe { points.owner_at_32(probe as u32) }, entries[i].1, "probe {}", probe);
                }
            }
            // Past the ring's space (a caller's u64 on a narrow ring): the first point.
            if bits < 64 {
                prop_assert_eq!(points.successor(u64::MAX), 0);
                prop_assert_eq!(points.owner_at(max + 1), entries[0].1);
            }
        }
    }

    /// The first `want` distinct owners clockwise from `start`, by a plain walk.
    fn distinct_from(owners: &[u32], start: usize, want: usize) -> Vec<u32> {
        let mut found = Vec::new();
        for k in 0..owners.len() {
            let o = owners[(start + k) % owners.len()];
            if found.len() < want && !found.contains(&o) {
                found.push(o);
            }
        }
        found
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Owners drawn from few nodes (long runs of one owner, rings with fewer than 4
        /// owners) or many; rings of 1 point up.
        #[test]
        fn replica_runs_point_at_the_next_distinct_owners(
            nodes in prop_oneof![1u32..4, 4u32..40],
            raw in prop::collection::vec((any::<u32>(), any::<u32>()), 1..200),
        ) {
            let mut entries: Vec<(u64, u32)> = raw.iter().map(|&(p, o)| (u64::from(p), o % nodes)).collect();
            entries.sort_unstable();
            let owners: Vec<u32> = entries.iter().map(|e| e.1).collect();
            let mut points = Points::new(32);
            points.set(&entries);
            let runs = points.replica_runs();
            prop_assert_eq!(runs.len(), owners.len());
            for (start, &run) in runs.iter().enumerate() {
                let (offsets, known) = decode_run(run);
                let expected = distinct_from(&owners, start, 4);
                // What the byte claims is exactly the walk's answer.
                let got = points.owners_at(start, offsets);
                prop_assert!(known <= expected.len(), "start {}: {} known of {:?}", start, known, expected);
                prop_assert_eq!(&got[..known], &expected[..known], "start {}", start);
                // And it claims every owner within its reach: the next one, if any, lies
                // farther past the last known one than its field can say.
                if let Some(&next) = expected.get(known) {
                    let steps = (1..owners.len()).find(|&k| owners[(start + k) % owners.len()] == next).unwrap();
                    prop_assert!(steps - offsets[known - 1] > [3, 7, 7][known - 1], "start {}: next distinct {} steps away", start, steps);
                }
            }
        }
    }

    /// On 10 evenly spread nodes (the bench's ring), 3 replicas are within a run byte's
    /// reach from almost every point.
    #[test]
    fn replica_runs_reach_three_owners_on_a_ten_node_ring() {
        let mut entries: Vec<(u64, u32)> =
            (0..1600u64).map(|i| ((i * 2_654_435_761) % (1 << 32), (i % 10) as u32)).collect();
        entries.sort_unstable();
        let mut points = Points::new(32);
        points.set(&entries);
        let runs = points.replica_runs();
        let three = runs.iter().filter(|&&r| decode_run(r).1 >= 3).count();
        assert!(three * 1000 >= runs.len() * 995, "{three} of {}", runs.len());
    }

    #[test]
    fn an_empty_set_has_no_points_but_a_valid_index() {
        for bits in [32, 64] {
            let points = Points::new(bits);
            assert!(points.is_empty());
            assert_eq!(points.entries().count(), 0);
            // `Ring::locate` relies on this: owner 0 of no nodes is its empty-ring check.
            for position in [0, 12_345, u64::from(u32::MAX), u64::MAX] {
                assert_eq!(points.owner_at(position), 0);
            }
        }
    }

    #[test]
    fn the_index_costs_at_most_four_bytes_a_point() {
        for n in [1usize, 2, 3, 1000, 1024, 1025, 100_000] {
            let entries: Vec<(u64, u32)> = (0..n as u64).map(|i| (i * 4099, 0)).collect();
            let mut points = Points::new(32);
            points.set(&entries);
            let index_bytes = points.memory_bytes() - (n + PAD) * 8;
            assert!(index_bytes <= 4 * n.max(2), "{n} points: {index_bytes} bytes of index");
        }
    }
}
