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


