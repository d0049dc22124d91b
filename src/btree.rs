//! B-tree maps and sets built by insertion rather than `collect()`.
//!
//! `collect()` into a `BTreeMap` or `BTreeSet` first sorts the items with a stable sort
//! compiled anew for each item type: a few KB of wasm each, in every module that builds such
//! a map. Inserting the items one by one gives the same map or set (for a key that comes
//! twice, the last value, as `collect` keeps), also in O(n log n), with the tree's insert.

use std::collections::{BTreeMap, BTreeSet};

/// The map of `items`: `collect()`'s answer, without its sort.
pub(crate) fn map<K: Ord, V>(items: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    map.extend(items);
    map
}

/// The set of `items`: `collect()`'s answer, without its sort.
pub(crate) fn set<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut set = BTreeSet::new();
    set.extend(items);
    set
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// The same map and set as `collect()`, repeated keys included.
        #[test]
        fn the_same_as_collect(items in proptest::collection::vec((0u8..20, any::<u16>()), 0..60)) {
            prop_assert_eq!(super::map(items.iter().copied()), items.iter().copied().collect());
            prop_assert_eq!(super::set(items.iter().map(|p| p.0)), items.iter().map(|p| p.0).collect());
        }
    }
}
