//! What each algorithm is, in its own terms: the key space its circle is drawn in (with
//! axis labels), a one-line description with the actual parameters, and what it can do
//! (exact arcs, replicas, weights, which settings apply, which nodes may leave).
//!
//! The page asks these questions instead of knowing algorithm names.
//!
//! ```
//! use ringlab::algo::{Algorithm, Options};
//! let redis = Options::new(Algorithm::RedisCluster);
//! assert_eq!(redis.key_space().axis_labels(), ["slot 0", "slot 4096", "slot 8192", "slot 12288"]);
//! assert!(!Algorithm::RedisCluster.uses_hash());
//! ```

use super::{Algorithm, Options};
use crate::Hash;

/// The positions a placement's circle shows, from the top, clockwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeySpace {
    /// Hash values `0 .. 2^bits` (rings and continuums; keys of hash-only algorithms).
    Hash { bits: u32 },
    /// Redis Cluster's slots `0 .. count`.
    Slots { count: u32 },
    /// Cassandra's signed Murmur3 tokens, `−2^63` at the top.
    Tokens,
    /// Maglev's lookup-table entries `0 .. size`.
    Table { size: u64 },
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
            KeySpace::Table { size } => quarters(size).map(|e| format!("entry {e}")),
        }
    }

    /// The space in words, e.g. "2^32 hash values".
    pub fn words(self) -> String {
        match self {
            KeySpace::Hash { bits } => format!("{} hash values", power(bits)),
            KeySpace::Slots { count } => format!("{} slots", thousands(u64::from(count))),
            KeySpace::Tokens => "Murmur3 tokens from −2⁶³ to 2⁶³".into(),
            KeySpace::Table { size } => format!("{} table entries", thousands(size)),
        }
    }
}

/// `2` with `exp` as a superscript: "2³²".
fn power(exp: u32) -> String {
    const SUPER: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let digits: String = exp.to_string().chars().map(|c| SUPER[c.to_digit(10).unwrap_or(0) as usize]).collect();
    format!("2{digits}")
}

/// The first position at or after each quarter of `0 .. n`.
fn quarters(n: u64) -> [u64; 4] {
    [0, 1, 2, 3].map(|q| (u128::from(n) * q as u128).div_ceil(4) as u64)
}

/// `65537` as "65,537".
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl Algorithm {
    /// Whether node weights change the placement (otherwise only weight 1 is accepted).
    /// libmemcached's plain ketama counts: a weight > 1 switches it to weighted ketama.
    pub fn weighted(self) -> bool {
        !matches!(
            self,
            Algorithm::Groupcache
                | Algorithm::Jump
                | Algorithm::Maglev
                | Algorithm::MultiProbe
                | Algorithm::Modulo
        )
    }

    /// Whether the `hash` setting changes the placement.
    pub fn uses_hash(self) -> bool {
        matches!(
            self,
            Algorithm::Ring | Algorithm::BoundedLoad | Algorithm::Rendezvous | Algorithm::Maglev | Algorithm::Modulo
        )
    }

    /// Whether the `vnodes` setting changes the placement.
    pub fn uses_vnodes(self) -> bool {
        matches!(self, Algorithm::Ring | Algorithm::BoundedLoad)
    }

    /// Whether a key has a preference list of distinct nodes (replicas) here.
    pub fn has_replicas(self) -> bool {
        self == Algorithm::Ring
    }

    /// Why node `index` of `count` cannot leave, if it cannot.
    pub fn removal_rule(self, index: usize, count: usize) -> Option<String> {
        (self == Algorithm::Jump && index + 1 != count)
            .then(|| "jump hash can only remove the last bucket: the others would renumber".to_string())
    }
}

impl Options {
    /// The positions this algorithm's circle shows.
    pub fn key_space(&self) -> KeySpace {
        match self.algorithm {
            Algorithm::Ring | Algorithm::BoundedLoad => KeySpace::Hash { bits: self.config.bits.bits() },
            Algorithm::Libketama
            | Algorithm::LibmemcachedWeighted
            | Algorithm::LibmemcachedKetama
            | Algorithm::Groupcache => KeySpace::Hash { bits: 32 },
            Algorithm::RedisCluster => KeySpace::Slots { count: super::redis::SLOTS as u32 },
            Algorithm::Cassandra => KeySpace::Tokens,
            Algorithm::Maglev => KeySpace::Table { size: self.table_size },
            // Keys drawn at their 64-bit XXH3 hash (jump's and multi-probe's key hash).
            Algorithm::Jump | Algorithm::MultiProbe => KeySpace::Hash { bits: 64 },
            Algorithm::Rendezvous | Algorithm::Modulo => KeySpace::Hash { bits: self.config.hash.bits() },
            // CRC32 of the key (nginx) and HAProxy's 32-bit key hashes.
            Algorithm::NginxConsistent
            | Algorithm::NginxHash
            | Algorithm::HaproxyConsistent
            | Algorithm::HaproxyMapBased => KeySpace::Hash { bits: 32 },
        }
    }

    /// One line on what the circle shows, with the actual parameters.
    pub fn describe(&self) -> String {
        let hash = self.config.hash;
        let space = self.key_space().words();
        match self.algorithm {
            Algorithm::Ring => format!(
                "ringlab's ring: {} points per unit of weight at {hash}(\"name#i\") on a circle of {space}; \
                 a key belongs to the first point clockwise from its hash.",
                self.config.vnodes
            ),
            Algorithm::Libketama => format!(
                "last.fm's libketama: 160 MD5 points per server (scaled by weight), labels \"host:port-i\", on {space}; \
                 at most 18723 points (its shared-memory segment)."
            ),
            Algorithm::LibmemcachedWeighted => format!(
                "libmemcached's weighted ketama: MD5 points per server by weight (the port left out of labels when \
                 it is 11211), on {space}."
            ),
            Algorithm::LibmemcachedKetama => {
                format!(
                    "libmemcached's ketama: 100 MD5 points per server on {space}; a server of weight > 1 switches \
                     libmemcached to weighted ketama."
                )
            }
            Algorithm::RedisCluster => format!(
                "Redis Cluster: {space} (CRC16 of the key or its {{tag}}); each master owns slot ranges, which \
                 redis-cli's rebalance moves."
            ),
            Algorithm::Cassandra => format!(
                "Cassandra: {} tokens per node at ringlab's own token choice (Murmur3 of \"name#i\"); a key's \
                 Murmur3 token belongs to the range (previous token, token]. The circle shows {space}.",
                self.num_tokens
            ),
            Algorithm::Groupcache => format!(
                "Go groupcache: {} CRC32 points per node at the hash of \"i\" + name, on {space}.",
                self.replicas
            ),
            Algorithm::Jump => format!(
                "Jump hash: buckets 0..N−1 and no ring; only the last bucket can leave. Keys are drawn at their \
                 XXH3 hash ({space})."
            ),
            Algorithm::Rendezvous => format!(
                "Rendezvous: every node scores every key with {hash} and the highest score wins. No ring: keys \
                 are drawn at their hash ({space})."
            ),
            Algorithm::Maglev => format!(
                "Maglev: a {}-entry table that nodes fill in turns ({hash} offsets and skips); the circle shows the \
                 table.",
                thousands(self.table_size)
            ),
            Algorithm::MultiProbe => format!(
                "Multi-probe: one XXH3 point per node and {} probes per key; the closest point after a probe wins \
                 ({space}).",
                self.probes
            ),
            Algorithm::BoundedLoad => format!(
                "Bounded loads: the ring ({} points per node, {hash}), but no node takes more than ⌈{}× the mean⌉ \
                 of the {} keys it places.",
                self.config.vnodes,
                1.0 + self.epsilon,
                thousands(self.keys.keys.len() as u64)
            ),
            Algorithm::Modulo => {
                format!("hash % N with {hash}: the baseline; nearly every key moves when N changes ({space}).")
            }
            Algorithm::NginxConsistent => format!(
                "nginx `hash $key consistent`: 160 CRC32 points per unit of weight from each server's address \
                 text; a key's CRC32 goes to the next point, skipping down servers ({space})."
            ),
            Algorithm::NginxHash => format!(
                "nginx `hash $key` (not consistent): CRC32 of the key modulo the total weight, rehashed while \
                 the pick is down ({space})."
            ),
            Algorithm::HaproxyConsistent => format!(
                "HAProxy `hash-type consistent`: points per server by weight from its numeric id, the key's \
                 hash ({}) goes to the nearest point ({space}).",
                self.haproxy_hash.map_or_else(|| "sdbm".to_string(), |h| format!("{h:?}"))
            ),
            Algorithm::HaproxyMapBased => format!(
                "HAProxy `hash-type map-based`: a table of servers by weight (reduced by their GCD), indexed by \
                 the key's hash modulo its size ({space})."
            ),
        }
    }

    /// The hash this algorithm's settings actually use, if the `hash` setting applies.
    pub fn applied_hash(&self) -> Option<Hash> {
        self.algorithm.uses_hash().then_some(self.config.hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, RingBits};

    #[test]
    fn powers_and_thousands_read_as_written() {
        assert_eq!(power(32), "2³²");
        assert_eq!(power(62), "2⁶²");
        assert_eq!(thousands(65537), "65,537");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000_000), "1,000,000");
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
            o.table_size = 251;
            o.probes = 9;
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
