//! The order of points at the same position: each system breaks a tie its own way (the
//! owner added earlier, the one added later, the smaller name), and a ring opened in steps
//! sorts its points in bounded pieces ([`StagedSort`]).
//!
//! Other sorts by a number go through [`stable_order`], the points' own `(u64, u32)` sort:
//! every element type and comparison sorted is one more copy of std's sort in the wasm
//! module, a few kilobytes each.

/// The permutation that sorts `keys` stably (equal keys keep their order).
pub(crate) fn stable_order(keys: &[u64]) -> Vec<usize> {
    let mut pairs: Vec<(u64, u32)> = keys.iter().enumerate().map(|(i, &k)| (k, i as u32)).collect();
    pairs.sort_unstable();
    pairs.into_iter().map(|(_, i)| i as usize).collect()
}

/// A key whose order is `f64::total_cmp`'s.
pub(crate) fn f64_key(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

/// A key whose order is `i64`'s.
pub(crate) fn i64_key(x: i64) -> u64 {
    (x as u64) ^ 1 << 63
}

/// Sorts `values` as `sort_by(f64::total_cmp)` would.
pub(crate) fn sort_f64(values: &mut Vec<f64>) {
    let keys: Vec<u64> = values.iter().map(|&v| f64_key(v)).collect();
    *values = stable_order(&keys).into_iter().map(|i| values[i]).collect();
}

/// How points at the same position are ordered.
pub(crate) enum Tie<'a> {
    /// The lower owner index first: the owner added earlier.
    Earlier,
    /// The higher owner index first: the owner added later.
    Later,
    /// By the owners' names, in byte order (the owners' names are distinct).
    Name(&'a dyn Fn(u32) -> &'a str),
}

/// Sorts `(position, owner)` pairs by position, then by `tie`.
pub(crate) fn sort_points(entries: &mut [(u64, u32)], tie: Tie<'_>) {
    entries.sort_unstable();
    order_ties(entries, tie);
}

/// Reorders the runs of equal positions in pairs sorted by `(position, owner)` by `tie`.
pub(crate) fn order_ties(entries: &mut [(u64, u32)], tie: Tie<'_>) {
    order_ties_from(entries, tie, 0, usize::MAX);
}

/// [`order_ties`] a piece at a time: the runs that start from `start` until about `most`
/// entries are passed (a run is never cut); answers where the next piece starts
/// (`entries.len()` when done).
pub(crate) fn order_ties_from(entries: &mut [(u64, u32)], tie: Tie<'_>, start: usize, most: usize) -> usize {
    if matches!(tie, Tie::Earlier) {
        return entries.len();
    }
    let stop = start.saturating_add(most.max(1)).min(entries.len());
    let mut start = start;
    while start < stop {
        let position = entries[start].0;
        let mut end = start + 1;
        while end < entries.len() && entries[end].0 == position {
            end += 1;
        }
        let run = &mut entries[start..end];
        if run.len() > 1 {
            match &tie {
                Tie::Earlier => {}
                Tie::Later => run.reverse(),
                Tie::Name(name) => run.sort_unstable_by(|a, b| name(a.1).cmp(name(b.1)).then(a.1.cmp(&b.1))),
            }
        }
        start = end;
    }
    start
}

/// `(position, owner)` pairs sorted in pieces of bounded work, so that a page can sort half a
/// million between frames: runs sorted in place, then merged pairwise, each piece at most a
/// budget of pairs. The order is the plain `(position, owner)` order, a total order, so the
/// answer is `sort_unstable`'s whatever the pieces were.
#[derive(Clone, Debug)]
pub(crate) struct StagedSort {
    entries: Vec<(u64, u32)>,
    /// Where a merge pass writes (empty until the first merge).
    scratch: Vec<(u64, u32)>,
    /// The length of the sorted runs (0 before the first step fixes it).
    run: usize,
    /// While runs are being sorted: the entries before this are sorted runs.
    cut: usize,
    /// The merge in progress: the pair of runs from `start`, read at `left` and `right`,
    /// written at `out`.
    start: usize,
    left: usize,
    right: usize,
    out: usize,
}

impl StagedSort {
    pub(crate) fn new(entries: Vec<(u64, u32)>) -> StagedSort {
        StagedSort { entries, scratch: Vec::new(), run: 0, cut: 0, start: 0, left: 0, right: 0, out: 0 }
    }

    /// Whether the entries are sorted.
    pub(crate) fn is_done(&self) -> bool {
        self.run >= self.entries.len() && self.cut >= self.entries.len()
    }

    /// Sorts one run of `budget` pairs, or merges up to `budget` pairs (at least one of
    /// either while not done). With a budget of at least the length, one `sort_unstable`.
    pub(crate) fn step(&mut self, budget: usize) {
        let n = self.entries.len();
        if self.run == 0 {
            self.run = budget.clamp(1, n.max(1));
        }
        if self.cut < n {
            let end = (self.cut + self.run).min(n);
            self.entries[self.cut..end].sort_unstable();
            self.cut = end;
            if self.cut == n {
                self.begin_pass();
            }
            return;
        }
        let mut budget = budget.max(1);
        while budget > 0 && self.run < n {
            let mid = (self.start + self.run).min(n);
            let end = (self.start + 2 * self.run).min(n);
            let moves = budget.min(end - self.out);
            for _ in 0..moves {
                let from_left =
                    self.right >= end || (self.left < mid && self.entries[self.left] <= self.entries[self.right]);
                let from = if from_left { &mut self.left } else { &mut self.right };
                self.scratch[self.out] = self.entries[*from];
                *from += 1;
                self.out += 1;
            }
            budget -= moves;
            if self.out == end {
                self.start = end;
                if end == n {
                    std::mem::swap(&mut self.entries, &mut self.scratch);
                    self.run *= 2;
                    self.start = 0;
                }
                self.begin_pair();
            }
        }
    }

    fn begin_pass(&mut self) {
        if self.run < self.entries.len() {
            self.scratch = vec![(0, 0); self.entries.len()];
        }
        self.start = 0;
        self.begin_pair();
    }

    fn begin_pair(&mut self) {
        self.left = self.start;
        self.right = (self.start + self.run).min(self.entries.len());
        self.out = self.start;
    }

    /// The sorted entries (call when [`is_done`](StagedSort::is_done)).
    pub(crate) fn into_sorted(self) -> Vec<(u64, u32)> {
        debug_assert!(self.is_done());
        self.entries
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn keyed_orders_are_the_comparisons_orders() {
        let floats = [3.5, -0.0, 0.0, f64::NEG_INFINITY, -2.25, 1e-300, -1e300, f64::INFINITY, 3.5, f64::NAN];
        let mut ours = floats.to_vec();
        sort_f64(&mut ours);
        let mut std = floats.to_vec();
        std.sort_by(f64::total_cmp);
        let bits = |v: &[f64]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&ours), bits(&std));
        let ints = [5i64, -3, i64::MIN, 0, 5, i64::MAX, -3, 7];
        let order = stable_order(&ints.map(i64_key));
        let mut std: Vec<usize> = (0..ints.len()).collect();
        std.sort_by_key(|&i| ints[i]);
        assert_eq!(order, std, "stable: equal keys keep their order");
    }
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Sorted in pieces of any size, the pairs come out as one plain sort has them.
        #[test]
        fn a_staged_sort_is_a_plain_sort(raw in prop::collection::vec((0u64..40, 0u32..4), 0..300), budget in 1usize..70) {
            let mut expected = raw.clone();
            expected.sort_unstable();
            let mut staged = StagedSort::new(raw);
            let mut steps = 0;
            while !staged.is_done() {
                staged.step(budget);
                steps += 1;
                prop_assert!(steps <= 1 + expected.len() * 12, "it ends");
            }
            prop_assert_eq!(staged.into_sorted(), expected);
        }

        /// Each rule against the plain comparison it stands for (with few distinct positions,
        /// so that runs of equal positions are common).
        #[test]
        fn each_tie_rule_matches_its_comparison(raw in prop::collection::vec((0u64..6, 0u32..8), 0..60)) {
            let names = ["h", "c", "a", "g", "b", "f", "e", "d"];
            let name = |o: u32| names[o as usize];
            let mut expected = raw.clone();
            expected.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
            let mut got = raw.clone();
            sort_points(&mut got, Tie::Earlier);
            prop_assert_eq!(&got, &expected);

            expected.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
            let mut got = raw.clone();
            sort_points(&mut got, Tie::Later);
            prop_assert_eq!(&got, &expected);

            expected.sort_by(|a, b| a.0.cmp(&b.0).then(name(a.1).cmp(name(b.1))));
            let mut got = raw.clone();
            sort_points(&mut got, Tie::Name(&name));
            prop_assert_eq!(&got, &expected);
        }
    }
}
