//! Sorted points on a ring and constant-time successor lookups: the storage every
//! point-based placement (ringlab's ring, ketama, groupcache, Cassandra tokens, Redis slots,
//! a Maglev table) shares.
//!
//! **Layout.** Positions and owners are two sorted arrays, plus a bucket index over the top
//! `k` bits of a position, with `2^k ≤ points` buckets (1 to 2 points per bucket, at most
//! 4 bytes of index per point). A lookup is one hash, one index read, then one branch-free
//! count of how many of the next [`WINDOW`] positions are below the key: the points are
//! sorted and the bucket starts at or after every point below the bucket, so that count is
//! the answer whenever fewer than `WINDOW` points of the bucket lie below the key (all but a
//! tiny fraction of lookups); the rest finish with a binary search. The arrays end with
//! `WINDOW` padding entries (positions above every key; owners copying the first point's),
//! so a window never runs off the end and a key past the last point wraps to the first
//! owner with no branch.
//!
//! Why not answer the owner straight from the index when a bucket holds no point? With at
//! most 4 bytes of index per point, only 13–37% of buckets are empty, and the branch that
//! picks between "direct" and "search" would mispredict on a large share of lookups, each
//! costing more than the few compares it saves.

/// Positions compared per lookup before falling back to a binary search.
const WINDOW: usize = 8;

/// On 32-bit rings positions are stored with the sign bit flipped, as `i32`: the order is
/// the same, and a signed compare is what SSE2 has (no flip per lookup).
const FLIP: u32 = 0x8000_0000;

/// The sorted points: positions (u32 on a 32-bit ring, to keep a point small), owners,
/// and a bucket index over the top bits of the position for constant-time lookups.
#[derive(Clone, Debug)]
pub(crate) struct Points {
    positions: Positions,
    /// The owners, then `WINDOW` copies of the first point's owner.
    owners: Vec<u32>,
    len: usize,
    /// `index[j]` is the first point whose position's top `k` bits are ≥ `j` (`2^k` entries).
    index: Vec<u32>,
    index_shift: u32,
    space_bits: u32,
}

/// The positions, then `WINDOW` entries above every position.
#[derive(Clone, Debug)]
enum Positions {
    B32(Vec<i32>),
    B64(Vec<u64>),
}

impl Points {
    /// No points, on a ring whose positions are below `2^space_bits` (at most 64).
    pub(crate) fn new(space_bits: u32) -> Points {
        let positions = if space_bits <= 32 { Positions::B32(Vec::new()) } else { Positions::B64(Vec::new()) };
        let mut points =
            Points { positions, owners: Vec::new(), len: 0, index: Vec::new(), index_shift: 0, space_bits };
        points.set(&[]);
        points
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn memory_bytes(&self) -> usize {
        let positions = match &self.positions {
            Positions::B32(p) => p.capacity() * 4,
            Positions::B64(p) => p.capacity() * 8,
        };
        positions + self.owners.capacity() * 4 + self.index.capacity() * 4
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub(crate) fn position(&self, i: usize) -> u64 {
        assert!(i < self.len, "point {i} of {}", self.len);
        match &self.positions {
            Positions::B32(p) => u64::from(p[i] as u32 ^ FLIP),
            Positions::B64(p) => p[i],
        }
    }

    /// The owners of the points, in order.
    #[inline]
    pub(crate) fn owners(&self) -> &[u32] {
        &self.owners[..self.len]
    }

    pub(crate) fn entries(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        (0..self.len()).map(|i| (self.position(i), self.owners[i]))
    }

    pub(crate) fn set(&mut self, entries: &[(u64, u32)]) {
        let len = entries.len();
        self.len = len;
        let first_owner = entries.first().map_or(0, |e| e.1);
        self.owners.clear();
        self.owners.reserve_exact(len + WINDOW);
        self.owners.extend(entries.iter().map(|e| e.1));
        self.owners.resize(len + WINDOW, first_owner);
        match &mut self.positions {
            Positions::B32(p) => {
                p.clear();
                p.reserve_exact(len + WINDOW);
                p.extend(entries.iter().map(|e| (e.0 as u32 ^ FLIP) as i32));
                p.resize(len + WINDOW, i32::MAX);
            }
            Positions::B64(p) => {
                p.clear();
                p.reserve_exact(len + WINDOW);
                p.extend(entries.iter().map(|e| e.0));
                p.resize(len + WINDOW, u64::MAX);
            }
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
    }

    /// The index of the first point at or after `position`, or `len..len + WINDOW` (the
    /// padding) when it is past the last point.
    #[inline(always)]
    fn scan(&self, position: u64) -> usize {
        let Some(&lo) = self.index.get((position >> self.index_shift) as usize) else {
            return self.len; // above the ring's space: wrap to the first point
        };
        let lo = lo as usize;
        let below = match &self.positions {
            // Within the ring's space, a 32-bit ring's position fits in 32 bits.
            Positions::B32(p) => count_below(&p[lo..lo + WINDOW], (position as u32 ^ FLIP) as i32),
            Positions::B64(p) => count_below(&p[lo..lo + WINDOW], position),
        };
        if below < WINDOW {
            lo + below
        } else {
            self.search(lo + WINDOW, position)
        }
    }

    /// The rare slow path: binary search from point `from` to the end.
    #[cold]
    #[inline(never)]
    fn search(&self, from: usize, position: u64) -> usize {
        from + match &self.positions {
            Positions::B32(p) => p[from..self.len].partition_point(|&x| x < (position as u32 ^ FLIP) as i32),
            Positions::B64(p) => p[from..self.len].partition_point(|&x| x < position),
        }
    }

    /// The first point at or after `position`, wrapping to 0. The ring must not be empty.
    #[inline]
    pub(crate) fn successor(&self, position: u64) -> usize {
        let found = self.scan(position);
        if found >= self.len {
            0
        } else {
            found
        }
    }

    /// The owner of the first point at or after `position`, wrapping. The ring must not be
    /// empty (an empty ring answers 0).
    #[inline]
    pub(crate) fn owner_at(&self, position: u64) -> u32 {
        self.owners[self.scan(position)]
    }
}

/// How many of `window` are below `x`: a fixed-size count the compiler turns into a few
/// vector compares, with no branch.
#[inline(always)]
fn count_below<P: Copy + Ord>(window: &[P], x: P) -> usize {
    window.iter().map(|&p| usize::from(p < x)).sum()
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
        let points = Points::new(32);
        assert!(points.is_empty());
        assert_eq!(points.owners(), &[] as &[u32]);
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
