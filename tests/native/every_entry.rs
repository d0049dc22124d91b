//! What the tests that run on every catalog entry build each entry with: options every entry
//! accepts (the ones only some entries read are set too, at sizes that keep the tests quick)
//! and server names every entry accepts.

use ringlab::algo::{Algorithm, OptionValue, Options};
use ringlab::keys::KeySample;
use ringlab::Config;

/// `algorithm` with 40 vnodes, a Maglev table of 1,009, 400 sample keys `k0 ..` and 20
/// replicas where the entry reads them.
pub fn options(algorithm: Algorithm) -> Options {
    let mut options = Options::new(algorithm);
    options.config = Config { vnodes: 40, ..Config::default() };
    options.set("tableSize", OptionValue::Whole(1009)).unwrap();
    options.set_keys(&KeySample::generated("k", 400));
    options.set("replicas", OptionValue::Whole(20)).unwrap();
    options
}

/// `n` servers named as memcached clients name them: `10.0.0.i:11211`.
pub fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("10.0.0.{i}:11211")).collect()
}
