//! Key samples: the keys a page draws and moves, given or generated as `"{prefix}{i}"`.

/// Keys to move between ring states: given, or generated as `"{prefix}{i}"`.
#[derive(Clone, Debug, PartialEq)]
pub struct KeySample {
    pub keys: Vec<String>,
}

/// Calls `f(i, key)` for the keys `"{prefix}0"` .. `"{prefix}{count-1}"`, writing each into
/// one buffer: no allocation per key (a page may ask for 100,000 of them per frame change).
pub fn for_each_generated(prefix: &str, count: usize, mut f: impl FnMut(usize, &[u8])) {
    let mut key = prefix.as_bytes().to_vec();
    let mut digits = itoa::Buffer::new();
    for i in 0..count {
        key.truncate(prefix.len());
        key.extend_from_slice(digits.format(i).as_bytes());
        f(i, &key);
    }
}

impl KeySample {
    /// The keys `"{prefix}0"` .. `"{prefix}{count-1}"`.
    pub fn generated(prefix: &str, count: usize) -> KeySample {
        KeySample { keys: (0..count).map(|i| format!("{prefix}{i}")).collect() }
    }
}


/// The most keys one call generates or takes (a sample, a key list).
pub const MAX_SAMPLE_KEYS: usize = 1_000_000;
/// The longest prefix of generated keys, in bytes.
pub const MAX_PREFIX_BYTES: usize = 1_024;

/// Checks a generated sample's prefix and count against the caps.
pub fn check_generated(prefix: &str, count: usize) -> Result<(), crate::Error> {
    if prefix.len() > MAX_PREFIX_BYTES {
        return Err(crate::Error::TooLarge {
            what: "a key prefix (bytes)".into(),
            max: MAX_PREFIX_BYTES as u64,
            got: prefix.len() as u64,
        });
    }
    if count > MAX_SAMPLE_KEYS {
        return Err(crate::Error::TooLarge { what: "a key sample".into(), max: MAX_SAMPLE_KEYS as u64, got: count as u64 });
    }
    Ok(())
}
