//! [`Replicas`]: the list [`Ring::replicas`](crate::Ring::replicas) returns.

use smallvec::SmallVec;
use std::fmt;
use std::ops::Deref;

/// How many names a [`Replicas`] holds without allocating: 3 replicas, the common count,
/// plus one.
const INLINE: usize = 4;

/// A preference list: distinct node names, the owner first. It derefs to `[&str]`, so it
/// indexes, iterates and compares like a slice; up to four names are held inline, so the
/// common lookups (`replicas(key, 3)`) do not allocate.
///
/// ```
/// use ringlab::{Config, Ring};
/// let ring = Ring::with_nodes(Config::default(), ["a", "b", "c"])?;
/// let list = ring.replicas("user:42", 2)?;
/// assert_eq!(list.len(), 2);
/// assert_eq!(list[0], ring.locate("user:42")?);
/// let owned: Vec<String> = list.iter().map(|n| n.to_string()).collect();
/// assert_ne!(owned[0], owned[1]);
/// # Ok::<(), ringlab::Error>(())
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Replicas<'a>(SmallVec<[&'a str; INLINE]>);

impl<'a> Replicas<'a> {
    /// The first `len` (at most 4) of `names`.
    #[inline(always)]
    pub(crate) fn inline(names: [&'a str; INLINE], len: usize) -> Self {
        debug_assert!(len <= INLINE);
        Replicas(SmallVec::from_buf_and_len(names, len.min(INLINE)))
    }

    /// The names as a `Vec`.
    pub fn into_vec(self) -> Vec<&'a str> {
        self.0.into_vec()
    }
}

impl<'a> FromIterator<&'a str> for Replicas<'a> {
    fn from_iter<I: IntoIterator<Item = &'a str>>(names: I) -> Self {
        Replicas(names.into_iter().collect())
    }
}

impl<'a> Deref for Replicas<'a> {
    type Target = [&'a str];
    fn deref(&self) -> &[&'a str] {
        &self.0
    }
}

impl<'a> IntoIterator for Replicas<'a> {
    type Item = &'a str;
    type IntoIter = smallvec::IntoIter<[&'a str; INLINE]>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'r, 'a> IntoIterator for &'r Replicas<'a> {
    type Item = &'r &'a str;
    type IntoIter = std::slice::Iter<'r, &'a str>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Debug for Replicas<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

impl<'a> From<Replicas<'a>> for Vec<&'a str> {
    fn from(list: Replicas<'a>) -> Self {
        list.into_vec()
    }
}

impl<'a, 'b> PartialEq<[&'b str]> for Replicas<'a> {
    fn eq(&self, other: &[&'b str]) -> bool {
        self.0.as_slice() == other
    }
}

impl<'a, 'b> PartialEq<Vec<&'b str>> for Replicas<'a> {
    fn eq(&self, other: &Vec<&'b str>) -> bool {
        self.0.as_slice() == other.as_slice()
    }
}

impl<'a, 'b, const N: usize> PartialEq<[&'b str; N]> for Replicas<'a> {
    fn eq(&self, other: &[&'b str; N]) -> bool {
        self.0.as_slice() == other.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_any_count_in_order_and_compares_as_a_slice() {
        for n in [0usize, 1, 3, 4, 5, 9] {
            let names: Vec<String> = (0..n).map(|i| format!("node-{i}")).collect();
            let list: Replicas = names.iter().map(String::as_str).collect();
            let expected: Vec<&str> = names.iter().map(String::as_str).collect();
            assert_eq!(list.len(), n);
            assert_eq!(list, expected);
            assert_eq!(&list[..], expected.as_slice());
            assert_eq!(list.iter().copied().collect::<Vec<_>>(), expected);
            assert_eq!(format!("{list:?}"), format!("{expected:?}"));
            assert_eq!(list.clone().into_vec(), expected);
            assert_eq!(list.into_iter().collect::<Vec<_>>(), expected);
        }
        let list: Replicas = ["a", "b"].into_iter().collect();
        assert_eq!(list, ["a", "b"]);
        assert_ne!(list, ["b", "a"]);
    }
}
