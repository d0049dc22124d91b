//! Cassandra's Murmur3Partitioner token.
//!
//! MurmurHash3 x64_128 with seed 0, keeping the first half `h1` as a signed 64-bit token, as
//! `org.apache.cassandra.utils.MurmurHash.hash3_x64_128` computes it. Its one quirk, which no
//! crate reproduces: tail bytes are read as Java's *signed* bytes, so a tail byte ≥ 0x80 is
//! sign-extended before it is shifted into place. `Murmur3Partitioner.getToken` then maps the
//! empty key to the minimum token `i64::MIN`, and a hash of `i64::MIN` to `i64::MAX`.
//!
//! ```
//! use ringlab::algo::cassandra::token;
//! assert_eq!(token(b""), i64::MIN);
//! ```

use crate::Error;

/// Most tokens in one `initial_token` list.
pub const MAX_INITIAL_TOKENS: usize = 65_536;

/// Parses a node's `initial_token` setting from `cassandra.yaml`: Murmur3 tokens (signed
/// 64-bit decimals) separated by commas, spaces allowed. Give the result to
/// [`Options::tokens`](crate::algo::Options::tokens) to place the node exactly there.
///
/// ```
/// use ringlab::algo::cassandra::parse_initial_token;
/// assert_eq!(parse_initial_token("-9223372036854775808, 0")?, vec![i64::MIN, 0]);
/// assert_eq!(parse_initial_token("12, x").unwrap_err().code(), "parse-error");
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn parse_initial_token(text: &str) -> Result<Vec<i64>, Error> {
    let items: Vec<&str> = text.split(',').map(str::trim).collect();
    if items.len() > MAX_INITIAL_TOKENS {
        return Err(Error::TooLarge { what: "an initial_token list".into(), max: MAX_INITIAL_TOKENS as u64, got: items.len() as u64 });
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.parse::<i64>().map_err(|_| Error::Parse {
                line: 1,
                message: format!("token {} ({item:?}) is not a Murmur3 token: a whole number from {} to {}", i + 1, i64::MIN, i64::MAX),
            })
        })
        .collect()
}

const C1: u64 = 0x87c3_7b91_1142_53d5;
const C2: u64 = 0x4cf5_ad43_2745_937f;

/// The token Cassandra's Murmur3Partitioner gives `key`.
pub fn token(key: &[u8]) -> i64 {
    if key.is_empty() {
        return i64::MIN;
    }
    match murmur3_h1(key) {
        i64::MIN => i64::MAX,
        h => h,
    }
}

/// The token's place on an unsigned 64-bit ring: flipping the sign bit keeps the order.
pub fn position(token: i64) -> u64 {
    (token as u64) ^ (1 << 63)
}

/// Cassandra's `hash3_x64_128(key, 0, len, 0)[0]`.
pub fn murmur3_h1(key: &[u8]) -> i64 {
    let (mut h1, mut h2) = (0u64, 0u64);
    let blocks = key.chunks_exact(16);
    let tail = blocks.remainder();
    for block in blocks {
        let (lo, hi) = block.split_at(8);
        let k1 = u64::from_le_bytes(lo.try_into().expect("8 bytes"));
        let k2 = u64::from_le_bytes(hi.try_into().expect("8 bytes"));
        h1 ^= mix_k1(k1);
        h1 = h1.rotate_left(27).wrapping_add(h2).wrapping_mul(5).wrapping_add(0x52dc_e729);
        h2 ^= mix_k2(k2);
        h2 = h2.rotate_left(31).wrapping_add(h1).wrapping_mul(5).wrapping_add(0x3849_5ab5);
    }
    let (mut k1, mut k2) = (0u64, 0u64);
    for (i, &byte) in tail.iter().enumerate() {
        // The quirk: (long) of a signed Java byte.
        let extended = byte as i8 as i64 as u64;
        if i < 8 {
            k1 ^= extended << (8 * i);
        } else {
            k2 ^= extended << (8 * (i - 8));
        }
    }
    if tail.len() > 8 {
        h2 ^= mix_k2(k2);
    }
    if !tail.is_empty() {
        h1 ^= mix_k1(k1);
    }
    let len = key.len() as u64;
    h1 ^= len;
    h2 ^= len;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix(h1);
    h2 = fmix(h2);
    h1.wrapping_add(h2) as i64
}

fn mix_k1(k1: u64) -> u64 {
    k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2)
}

fn mix_k2(k2: u64) -> u64 {
    k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1)
}

fn fmix(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_keys_match_standard_murmur3() {
        // Without tail bytes ≥ 0x80 the variant is plain MurmurHash3 x64_128's h1.
        for key in ["hello", "user:42", "0123456789abcdefXYZ"] {
            assert_eq!(murmur3_h1(key.as_bytes()) as u64, crate::Hash::Murmur3.hash(key.as_bytes()), "{key}");
        }
    }

    #[test]
    fn positions_keep_token_order() {
        assert_eq!(position(i64::MIN), 0);
        assert_eq!(position(-1), (1 << 63) - 1);
        assert_eq!(position(0), 1 << 63);
        assert_eq!(position(i64::MAX), u64::MAX);
    }
}
