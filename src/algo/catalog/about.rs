//! The words and scales an algorithm's circle is drawn with: the key space (with axis
//! labels) and the description with the actual parameters, each answered by the algorithm's
//! [entry](super::Entry).
//!
//! The page asks these questions instead of knowing algorithm names.
//!
//! ```
//! use ringlab::algo::{Algorithm, Options};
//! let redis = Options::new(Algorithm::RedisCluster);
//! assert_eq!(redis.key_space().axis_labels(), ["slot 0", "slot 4096", "slot 8192", "slot 12288"]);
//! assert!(!Algorithm::RedisCluster.uses_hash());
//! ```

use super::Options;

/// The positions a placement's circle shows, from the top, clockwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeySpace {
    /// Hash values `0 .. 2^bits` (rings and continuums; keys of hash-only algorithms).
    Hash { bits: u32 },
    /// Redis Cluster's slots `0 .. count`.
    Slots { count: u32 },
    /// Cassandra's signed Murmur3 tokens, `−2^63` at the top.
    Tokens,
    /// Signed values of `bits` bits, `−2^(bits−1)` at the top (a circle ordered as Java's
    /// signed `long`s).
    Signed { bits: u32 },
    /// Maglev's lookup-table entries `0 .. size`.
    Table { size: u64 },
    /// Buckets `0 .. count` of a bucket-based hash with a fixed number of them (AnchorHash's
    /// and DxHash's capacity): a key is drawn in the bucket it tries first.
    Buckets { count: u32 },
}

impl KeySpace {
    /// Labels at the top, right, bottom and left of the circle (0, ¼, ½, ¾ of the space).
    pub fn axis_labels(self) -> [String; 4] {
        match self {
            KeySpace::Hash { bits } => {
                let quarter = power(bits.saturating_sub(2));
                ["0".into(), quarter.clone(), power(bits.saturating_sub(1)), format!("3·{quarter}")]
            }
            KeySpace::Slots { count } => quarters(u64::from(count)).map(|s| format!("slot {s}")),
            KeySpace::Tokens => ["−2⁶³".into(), "−2⁶²".into(), "0".into(), "2⁶²".into()],
            KeySpace::Signed { bits } => {
                let quarter = power(bits.saturating_sub(2));
                [format!("−{}", power(bits.saturating_sub(1))), format!("−{quarter}"), "0".into(), quarter]
            }
            KeySpace::Table { size } => quarters(size).map(|e| format!("entry {e}")),
            KeySpace::Buckets { count } => quarters(u64::from(count)).map(|b| format!("bucket {b}")),
        }
    }

    /// The space in words, e.g. "2^32 hash values".
    pub fn words(self) -> String {
        match self {
            KeySpace::Hash { bits } => format!("{} hash values", power(bits)),
            KeySpace::Slots { count } => format!("{} slots", thousands(u64::from(count))),
            KeySpace::Tokens => "Murmur3 tokens from −2⁶³ to 2⁶³".into(),
            KeySpace::Signed { bits } => format!("signed values from −{0} to {0}", power(bits.saturating_sub(1))),
            KeySpace::Table { size } => format!("{} table entries", thousands(size)),
            KeySpace::Buckets { count } => format!("{} buckets", thousands(u64::from(count))),
        }
    }
}

/// `2` with `exp` as a superscript: "2³²".
pub(crate) fn power(exp: u32) -> String {
    const SUPER: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let digits: String = exp.to_string().chars().map(|c| SUPER[c.to_digit(10).unwrap_or(0) as usize]).collect();
    format!("2{digits}")
}

/// The first position at or after each quarter of `0 .. n`.
fn quarters(n: u64) -> [u64; 4] {
    [0, 1, 2, 3].map(|q| (u128::from(n) * q as u128).div_ceil(4) as u64)
}

/// `65537` as "65,537", for any unsigned integer.
pub fn thousands<N: Into<u128> + std::fmt::Display>(n: N) -> String {
    crate::decimal::thousands(n)
}

impl Options {
    /// The positions this algorithm's circle shows (its entry's [`key_space`](super::Entry::key_space)).
    pub fn key_space(&self) -> KeySpace {
        (self.algorithm.entry().key_space)(self)
    }

    /// One line on what the circle shows, with the actual parameters (its entry's
    /// [`describe`](super::Entry::describe)).
    pub fn describe(&self) -> String {
        (self.algorithm.entry().describe)(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::{Algorithm, OptionValue};
    use crate::{Config, Hash, RingBits};

    #[test]
    fn powers_and_thousands_read_as_written() {
        assert_eq!(power(32), "2³²");
        assert_eq!(power(62), "2⁶²");
        assert_eq!(thousands(65537u32), "65,537");
        assert_eq!(thousands(0u64), "0");
        assert_eq!(thousands(999u64), "999");
        assert_eq!(thousands(1000u64), "1,000");
        assert_eq!(thousands(1_000_000u64), "1,000,000");
        assert_eq!(thousands(u128::MAX), "340,282,366,920,938,463,463,374,607,431,768,211,455");
    }

    #[test]
    fn quarters_are_the_first_positions_of_each_quarter() {
        assert_eq!(quarters(16384), [0, 4096, 8192, 12288]);
        // 65537 / 4 = 16384.25: the first whole entry at or after it is 16385.
        assert_eq!(quarters(65537), [0, 16385, 32769, 49153]);
    }

    #[test]
    fn every_algorithm_describes_itself_with_its_parameters() {
        for algorithm in Algorithm::ALL {
            let mut o = Options::new(algorithm);
            o.config = Config { vnodes: 77, ..o.config };
            o.set("tableSize", OptionValue::Whole(251)).unwrap();
            o.set("probes", OptionValue::Whole(9)).unwrap();
            let text = o.describe();
            assert!(text.ends_with('.'), "{algorithm:?}: {text}");
            let expect = match algorithm {
                Algorithm::Ring | Algorithm::BoundedLoad => Some("77 points"),
                Algorithm::Maglev => Some("251-entry"),
                Algorithm::MultiProbe => Some("9 probes"),
                Algorithm::Cassandra => Some("16 tokens"),
                Algorithm::Groupcache => Some("50 CRC32"),
                _ => None,
            };
            if let Some(expect) = expect {
                assert!(text.contains(expect), "{algorithm:?}: {text}");
            }
        }
    }

    #[test]
    fn a_64_bit_ring_is_labelled_in_2_to_the_64() {
        let mut o = Options::new(Algorithm::Ring);
        o.config = Config { hash: Hash::Xxh3, bits: RingBits::B64, vnodes: 10 };
        assert_eq!(o.key_space().axis_labels(), ["0", "2⁶²", "2⁶³", "3·2⁶²"]);
        assert!(o.describe().contains("2⁶⁴ hash values"));
    }
}
