//! Hash functions: fixed algorithms over explicit bytes (the rule of each is on [`Hash`](enum@Hash)).

use crate::Error;

/// A named hash function. Parse one with [`Hash::from_name`]; [`Hash::Xxh3`] is the default.
///
/// Every function maps a byte string to a `u64` *hash value* by a rule stated here, so
/// that the same bytes give the same value natively, in WebAssembly and in every browser.
/// A ring of `b` bits uses the low `b` bits of that value (see [`crate::RingBits`]).
///
/// | name       | algorithm                          | hash value (u64)                                  |
/// |------------|------------------------------------|---------------------------------------------------|
/// | `xxh3`     | XXH3-64, seed 0 (twox-hash)        | the 64-bit result                                 |
/// | `xxh64`    | XXH64, seed 0 (twox-hash)          | the 64-bit result                                 |
/// | `xxh32`    | XXH32, seed 0 (twox-hash)          | the 32-bit result (32-bit rings only)             |
/// | `fnv1a32`  | FNV-1a 32                          | the 32-bit result (32-bit rings only)             |
/// | `fnv1a64`  | FNV-1a 64                          | the 64-bit result                                 |
/// | `md5`      | MD5 (md-5)                         | digest bytes 0..8, little-endian                  |
/// | `sha256`   | SHA-256 (sha2)                     | digest bytes 0..8, little-endian                  |
/// | `murmur3`  | MurmurHash3 x64_128, seed 0        | `h1`, the first 64-bit half (digest bytes 0..8, little-endian) |
/// | `crc32`    | CRC-32/ISO-HDLC (zlib's crc32)     | the 32-bit result (32-bit rings only)             |
///
/// On a 32-bit ring the low 32 bits are used, so `md5` positions are digest bytes 0..4
/// read little-endian: the rule libketama uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Hash {
    #[default]
    Xxh3,
    Xxh64,
    Xxh32,
    Fnv1a32,
    Fnv1a64,
    Md5,
    Sha256,
    Murmur3,
    Crc32,
}

pub(crate) const CRC32: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

impl Hash {
    /// Every hash function, in the order the docs list them.
    pub const ALL: [Hash; 9] = [
        Hash::Xxh3,
        Hash::Xxh64,
        Hash::Xxh32,
        Hash::Fnv1a32,
        Hash::Fnv1a64,
        Hash::Md5,
        Hash::Sha256,
        Hash::Murmur3,
        Hash::Crc32,
    ];

    /// The name used in options, URLs and the JS API.
    pub fn name(self) -> &'static str {
        match self {
            Hash::Xxh3 => "xxh3",
            Hash::Xxh64 => "xxh64",
            Hash::Xxh32 => "xxh32",
            Hash::Fnv1a32 => "fnv1a32",
            Hash::Fnv1a64 => "fnv1a64",
            Hash::Md5 => "md5",
            Hash::Sha256 => "sha256",
            Hash::Murmur3 => "murmur3",
            Hash::Crc32 => "crc32",
        }
    }

    /// Looks a hash function up by its [`name`](Hash::name).
    ///
    /// ```
    /// use ringlab::Hash;
    /// assert_eq!(Hash::from_name("md5").unwrap(), Hash::Md5);
    /// assert!(Hash::from_name("djb2").unwrap_err().to_string().contains("unknown hash"));
    /// ```
    pub fn from_name(name: &str) -> Result<Hash, Error> {
        Hash::ALL.into_iter().find(|h| h.name() == name).ok_or_else(|| Error::UnknownHash(name.to_string()))
    }

    /// How many bits of hash value the function produces (32 or 64).
    pub fn bits(self) -> u32 {
        match self {
            Hash::Xxh32 | Hash::Fnv1a32 | Hash::Crc32 => 32,
            _ => 64,
        }
    }

    /// What hashing one byte costs, in the units of the work meter's
    /// [`HashedBytes`](crate::work::Cost::HashedBytes): about how much longer a byte takes
    /// than with XXH3 on long inputs in wasm, where there is no SHA or AES instruction.
    pub fn work_per_byte(self) -> u64 {
        match self {
            Hash::Xxh3 | Hash::Xxh64 | Hash::Xxh32 | Hash::Crc32 | Hash::Murmur3 => 1,
            // A multiply per byte.
            Hash::Fnv1a32 | Hash::Fnv1a64 => 2,
            Hash::Md5 => 4,
            Hash::Sha256 => 8,
        }
    }

    /// The hash value of `bytes`, by its rule in the table on [`Hash`](enum@Hash).
    ///
    /// ```
    /// use ringlab::Hash;
    /// // FNV-1a 32 of "a" is 0xe40c292c (the published test vector).
    /// assert_eq!(Hash::Fnv1a32.hash(b"a"), 0xe40c_292c);
    /// ```
    #[inline]
    pub fn hash(self, bytes: &[u8]) -> u64 {
        // The default hash inline (a lookup costs little more than it); the others by call.
        match self {
            Hash::Xxh3 => twox_hash::XxHash3_64::oneshot(bytes),
            other => other.hash_by_call(bytes),
        }
    }

    #[inline(never)]
    fn hash_by_call(self, bytes: &[u8]) -> u64 {
        match self {
            Hash::Xxh3 => twox_hash::XxHash3_64::oneshot(bytes),
            Hash::Xxh64 => twox_hash::XxHash64::oneshot(0, bytes),
            Hash::Xxh32 => u64::from(twox_hash::XxHash32::oneshot(0, bytes)),
            Hash::Fnv1a32 => u64::from(const_fnv1a_hash::fnv1a_hash_32(bytes, None)),
            Hash::Fnv1a64 => const_fnv1a_hash::fnv1a_hash_64(bytes, None),
            Hash::Md5 | Hash::Sha256 => first_u64_le(&self.digest(bytes).unwrap_or_default()),
            Hash::Murmur3 => murmur3_h1(bytes),
            Hash::Crc32 => u64::from(CRC32.checksum(bytes)),
        }
    }

    /// The digest of `bytes`, zero-padded to 32 bytes, for the hashes that are digests (md5,
    /// sha256); `None` for the others.
    pub(crate) fn digest(self, bytes: &[u8]) -> Option<[u8; 32]> {
        use md5::Digest as _;
        let mut out = [0u8; 32];
        match self {
            Hash::Md5 => out[..16].copy_from_slice(&md5::Md5::digest(bytes)),
            Hash::Sha256 => out.copy_from_slice(&sha2::Sha256::digest(bytes)),
            _ => return None,
        }
        Some(out)
    }
}

impl std::fmt::Display for Hash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

fn first_u64_le(digest: &[u8]) -> u64 {
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(first)
}

/// MurmurHash3 x64_128's `h1`: the crate returns `h2 << 64 | h1`.
fn murmur3_h1(mut bytes: &[u8]) -> u64 {
    // Reading from a slice cannot fail.
    murmur3::murmur3_x64_128(&mut bytes, 0).map_or(0, |h| h as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> u64 {
        first_u64_le(bytes)
    }

    #[test]
    fn names_round_trip() {
        for h in Hash::ALL {
            assert_eq!(Hash::from_name(h.name()).unwrap(), h);
        }
        assert_eq!(Hash::default(), Hash::Xxh3);
    }

    // Published test vectors, typed in from their sources (not computed here).
    #[test]
    fn published_vectors() {
        // XXH3-64 and XXH64 of the empty input, seed 0 (xxHash's sanity tests).
        assert_eq!(Hash::Xxh3.hash(b""), 0x2D06_8005_38D3_94C2);
        assert_eq!(Hash::Xxh64.hash(b""), 0xEF46_DB37_51D8_E999);
        assert_eq!(Hash::Xxh32.hash(b""), 0x02CC_5D05);
        // FNV-1a (draft-eastlake-fnv test vectors).
        assert_eq!(Hash::Fnv1a32.hash(b"foobar"), 0xbf9c_f968);
        assert_eq!(Hash::Fnv1a64.hash(b"foobar"), 0x8594_4171_f739_67e8);
        // CRC-32 check value of "123456789".
        assert_eq!(Hash::Crc32.hash(b"123456789"), 0xCBF4_3926);
        // MD5("") = d41d8cd98f00b204e9800998ecf8427e; first 8 bytes little-endian.
        assert_eq!(Hash::Md5.hash(b""), hex(&[0xd4, 0x1d, 0x8c, 0xd9, 0x8f, 0x00, 0xb2, 0x04]));
        // SHA-256("abc") = ba7816bf8f01cfea...
        assert_eq!(Hash::Sha256.hash(b"abc"), hex(&[0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea]));
        // MurmurHash3_x64_128("hello", seed 0) = cbd8a7b341bd9b02 5b1e906a48ae1d19 (h1, h2).
        assert_eq!(Hash::Murmur3.hash(b"hello"), 0xcbd8_a7b3_41bd_9b02);
    }
}
