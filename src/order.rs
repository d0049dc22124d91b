//! One sort for the point lists the placements build: by position, then a tie rule for
//! points at the same position.
//!
//! Why one function: every `sort_by` with its own closure is its own copy of the standard
//! sort in the wasm download (about 6 KB each). The common case is a plain sort of
//! `(position, owner)` pairs; the rarer tie rules reorder only the runs of equal positions.

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
    if matches!(tie, Tie::Earlier) {
        return;
    }
    let mut start = 0;
    while start < entries.len() {
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
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

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
