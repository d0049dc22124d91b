//! Sorted points on a ring and constant-time successor lookups: the storage every
//! point-based placement (ringlab's ring, ketama, groupcache, Cassandra tokens, Redis slots,
//! a Maglev table) shares.

/// The sorted points: positions (u32 on a 32-bit ring, to keep a point small), owners,
/// and a bucket index over the top bits of the position for constant-time lookups.
#[derive(Clone, Debug)]
pub(crate) struct Points {
    positions: Positions,
    pub(crate) owners: Vec<u32>,
    /// `index[j]` is the first point whose position's top `index_bits` bits are ≥ `j`;
    /// it has `2^index_bits + 1` entries, the last being the point count.
    index: Vec<u32>,
    index_shift: u32,
    space_bits: u32,
}

#[derive(Clone, Debug)]
enum Positions {
    B32(Vec<u32>),
    B64(Vec<u64>),
}

impl Points {
    /// No points, on a ring whose positions are below `2^space_bits` (at most 64).
    pub(crate) fn new(space_bits: u32) -> Points {
        let positions = if space_bits <= 32 { Positions::B32(Vec::new()) } else { Positions::B64(Vec::new()) };
        Points { positions, owners: Vec::new(), index: vec![0, 0], index_shift: space_bits.saturating_sub(1), space_bits }
    }

    pub(crate) fn len(&self) -> usize {
        self.owners.len()
    }

    pub(crate) fn memory_bytes(&self) -> usize {
        let positions = match &self.positions {
            Positions::B32(p) => p.capacity() * 4,
            Positions::B64(p) => p.capacity() * 8,
        };
        positions + self.owners.capacity() * 4 + self.index.capacity() * 4
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.owners.is_empty()
    }

    #[inline]
    pub(crate) fn position(&self, i: usize) -> u64 {
        match &self.positions {
            Positions::B32(p) => u64::from(p[i]),
            Positions::B64(p) => p[i],
        }
    }

    pub(crate) fn entries(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        (0..self.len()).map(|i| (self.position(i), self.owners[i]))
    }

    pub(crate) fn set(&mut self, entries: &[(u64, u32)]) {
        self.owners = entries.iter().map(|e| e.1).collect();
        match &mut self.positions {
            Positions::B32(p) => *p = entries.iter().map(|e| e.0 as u32).collect(),
            Positions::B64(p) => *p = entries.iter().map(|e| e.0).collect(),
        }
        // Two to four points per bucket (1 to 2 bytes of index per point): a lookup is a
        // bucket read and a short scan.
        let index_bits = (usize::BITS - entries.len().leading_zeros()).saturating_sub(2).clamp(1, 24).min(self.space_bits);
        self.index_shift = self.space_bits - index_bits;
        let buckets = 1usize << index_bits;
        self.index.clear();
        self.index.reserve(buckets + 1);
        let mut i = 0;
        for bucket in 0..buckets as u64 {
            while i < entries.len() && (entries[i].0 >> self.index_shift) < bucket {
                i += 1;
            }
            self.index.push(i as u32);
        }
        self.index.push(entries.len() as u32);
    }

    /// The first point at or after `position`, wrapping to 0. The ring must not be empty.
    #[inline]
    pub(crate) fn successor(&self, position: u64) -> usize {
        let bucket = (position >> self.index_shift) as usize;
        let (Some(&lo), Some(&hi)) = (self.index.get(bucket), self.index.get(bucket + 1)) else {
            return 0; // past the top of the ring: wrap to the first point
        };
        let (lo, hi) = (lo as usize, hi as usize);
        let found = match &self.positions {
            // In a bucket of a ring of at most 32 bits, the position fits in 32 bits:
            // compare as u32 (twice the lanes).
            Positions::B32(p) => first_at_or_after(p, lo, hi, position as u32),
            Positions::B64(p) => first_at_or_after(p, lo, hi, position),
        };
        if found == self.len() {
            0
        } else {
            found
        }
    }
}

/// The first index in `lo..hi` of `sorted` whose position is `≥ position` (`hi` if none).
///
/// Buckets hold about three points, and how many a lookup passes is random, so a loop that
/// stops early mispredicts a branch on most lookups. Instead, count the points below
/// `position` in a fixed window of eight from `lo`: the points are sorted and every point
/// past the bucket is above `position`, so the count is the answer whenever the bucket fits
/// in the window. Rare larger buckets, and the last few points, use a binary search.
#[inline]
fn first_at_or_after<P: Copy + Ord>(sorted: &[P], lo: usize, hi: usize, position: P) -> usize {
    const WINDOW: usize = 8;
    match sorted.get(lo..lo + WINDOW) {
        Some(window) if hi - lo <= WINDOW => lo + window.iter().map(|&x| usize::from(x < position)).sum::<usize>(),
        _ => lo + sorted[lo..hi].partition_point(|&x| x < position),
    }
}

