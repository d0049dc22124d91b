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
//! a binary search. The arrays end with `WINDOW` padding entries (positions above every
//! key, the first's owned by the first point's owner), so a window never runs off the end
//! and a key past the last point wraps to the first owner with no branch. On a 32-bit ring
//! padding entry `j` is owned by point `j`'s owner (round the ring), so the owners of the
//! `WINDOW` points from any point are one read (replica lists).
//!
//! The 32-bit lookups (`owner_at_32`, `successor_32`) read without bounds checks: the
//! index has exactly `2^k` entries for the top `k` bits of a 32-bit position, each at most
//! `len`, and `len + WINDOW` words follow. `set` builds exactly that, and the proptest
//! below compares every lookup with a linear scan.
//!
//! Why not answer the owner straight from the index when a bucket holds no point? Within
//! 4 bytes of index per point, only 13–37% of buckets are empty, and the branch choosing
//! between "direct" and "search" would mispredict on a large share of lookups, each
//! misprediction costing more than the few compares it saves.

use std::ops::ControlFlow;

/// Points compared per lookup before the slow path.
const WINDOW: usize = 4;

/// The sorted points, and a bucket index over the top bits of the position.
///
/// Plain fields, no enum: a 32-bit ring's lookup reads `words` and `index` with no
/// dispatch on the ring's width (see [`Points::owner_at_32`]).
#[derive(Clone, Debug)]
pub(crate) struct Points {
    /// The points, then `WINDOW` padding entries above every key: on rings of at most 32
    /// bits `position << 32 | owner` (the padding's owners those of the first points, round
    /// the ring), on wider rings the positions alone.
    words: Vec<u64>,
    /// On wider rings, the owners (and `WINDOW` padding entries, the first point's owner);
    /// empty on rings of at most 32 bits.
    owners: Vec<u32>,
    len: usize,
    /// `index[j]` is the first point whose position's top `k` bits are ≥ `j` (`2^k` entries).
    index: Vec<u32>,
    index_shift: u32,
    space_bits: u32,
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

    pub(crate) fn entries(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        (0..self.len()).map(|i| (self.position(i), self.owner(i)))
    }

    pub(crate) fn set(&mut self, entries: &[(u64, u32)]) {
        let len = entries.len();
        self.len = len;
        let first_owner = entries.first().map_or(0, |e| e.1);
        self.words.clear();
        self.words.reserve_exact(len + WINDOW);
        self.owners.clear();
        if self.packed() {
            self.words.extend(entries.iter().map(|&(p, o)| (p << 32) | u64::from(o)));
            // Padding word `j` is owned by point `j`'s owner (round the ring): a lookup
            // past the last point answers the first's, and a window of owners from any
            // point wraps (`first_distinct_few_32`).
            let wrapped = |j: usize| entries.get(j % len.max(1)).map_or(0, |e| e.1);
            self.words.extend((0..WINDOW).map(|j| (u64::from(u32::MAX) << 32) | u64::from(wrapped(j))));
            self.owners.shrink_to_fit();
        } else {
            self.words.extend(entries.iter().map(|e| e.0));
            self.words.resize(len + WINDOW, u64::MAX);
            self.owners.reserve_exact(len + WINDOW);
            self.owners.extend(entries.iter().map(|e| e.1));
            self.owners.resize(len + WINDOW, first_owner);
        }
        // 2^k ≤ len buckets: 1 to 2 points per bucket, at most 4 bytes of index per point.
        let floor_log2 = (usize::BITS - 1).saturating_sub(len.leading_zeros());
        let index_bits = floor_log2.clamp(1, 24).min(self.space_bits);
        self.index_shift = self.space_bits - index_bits;
        let buckets = 1usize << index_bits;
        self.index.clear();
        self.index.reserve_exact(buckets);
        let mut i = 0;
        for bucket in 0..buckets as u64 {
            while i < len && (entries[i].0 >> self.index_shift) < bucket {
                i += 1;
            }
            self.index.push(i as u32);
        }
        // What `find_32` relies on (with `words.len() == len + WINDOW`).
        debug_assert!(self.index.iter().all(|&lo| lo as usize <= len));
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
        // SAFETY: the caller's contract.
        unsafe { self.find_32(position) }.1 as u32
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
        // SAFETY: as in `find_32`.
        let lo = unsafe { *self.index.get_unchecked((position >> self.index_shift) as usize) } as usize;
        // Only the index is wanted: a count of the 4 words below the key (4 reads at once,
        // no select for the compiler to turn back into branches).
        // SAFETY: as in `find_32`.
        let w = unsafe { &*self.words.as_ptr().add(lo).cast::<[u64; WINDOW]>() };
        let below = count_below(w, u64::from(position) << 32);
        let found = if below < WINDOW { lo + below } else { self.search(lo + WINDOW, u64::from(position)) };
        if found >= self.len {
            0
        } else {
            found
        }
    }

    /// The first point at or after `position` (`len` past the last point), and its word.
    ///
    /// # Safety
    ///
    /// As [`owner_at_32`](Points::owner_at_32).
    #[inline(always)]
    unsafe fn find_32(&self, position: u32) -> (usize, u64) {
        debug_assert!(self.is_space_32());
        debug_assert_eq!(self.index.len(), 1 << (32 - self.index_shift));
        debug_assert_eq!(self.words.len(), self.len + WINDOW);
        // SAFETY: on a 32-bit space `set` makes `2^(32 - index_shift)` buckets, so any
        // 32-bit position shifted right by `index_shift` is a bucket.
        let lo = unsafe { *self.index.get_unchecked((position >> self.index_shift) as usize) } as usize;
        // A branch-free binary search of the 4 words from `lo` (read at once): the second
        // picks a half, the half's first picks the word. The words are sorted, so the
        // answer is that word unless all 4 lie below the key.
        // SAFETY: `set` writes bucket starts of at most `len`, and `len + WINDOW` words.
        let w = unsafe { &*self.words.as_ptr().add(lo).cast::<[u64; WINDOW]>() };
        let key = u64::from(position) << 32;
        let upper = w[1] < key;
        let (first, second) = std::hint::select_unpredictable(upper, (w[2], w[3]), (w[0], w[1]));
        let past_first = first < key;
        let found = std::hint::select_unpredictable(past_first, second, first);
        if found >= key {
            (lo + 2 * usize::from(upper) + usize::from(past_first), found)
        } else {
            // All 4 below the key: a crowded bucket.
            let i = self.search(lo + WINDOW, u64::from(position));
            (i, self.words[i])
        }
    }

    /// [`first_distinct_owners`](Points::first_distinct_owners) on a ring of at most 32 bits,
    /// for `want ≤ 4`, with (most of the time) no branch but one: a walk one point at a
    /// time mispredicts its "seen it?" branches about 1.5 times a list on 10 nodes, costing
    /// more than the rest of the list.
    ///
    /// Reads the 4 points from `start` at once (the padding repeats the first points'
    /// owners, so they wrap round the ring), finds which are new with 6 independent
    /// compares, and picks the new ones in order with selects (no stores at a computed
    /// slot, which later reads would wait on). On 10 evenly spread nodes, 4 points hold 3
    /// distinct owners for 94% of keys; the others take the point-by-point walk.
    #[inline(always)]
    pub(crate) fn first_distinct_few_32(&self, start: usize, want: usize, chosen: &mut [u32; 4]) -> usize {
        debug_assert!(self.packed() && want <= 4 && start < self.len.max(1));
        let w = window(&self.words, start);
        let o = w.map(|word| word as u32);
        let new = [o[1] != o[0], (o[2] != o[0]) & (o[2] != o[1]), (o[3] != o[0]) & (o[3] != o[1]) & (o[3] != o[2])];
        let count = 1 + new.iter().map(|&n| usize::from(n)).sum::<usize>();
        if count >= want {
            // The k-th new owner, by which are new (for lists of up to `count`):
            // the 2nd is o1 if new, else o2 if new, else o3; the 3rd is o2 if o1 and o2 are
            // both new, else o3; the 4th is o3.
            let pick = std::hint::select_unpredictable;
            let second = pick(new[0], o[1], pick(new[1], o[2], o[3]));
            let third = pick(new[0] & new[1], o[2], o[3]);
            *chosen = [o[0], second, third, o[3]];
            return want;
        }
        self.first_distinct_owners(start, want, chosen)
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
            let index_bytes = points.memory_bytes() - (n + WINDOW) * 8;
            assert!(index_bytes <= 4 * n.max(2), "{n} points: {index_bytes} bytes of index");
        }
    }
}
