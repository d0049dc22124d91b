//! Cassandra's Murmur3Partitioner token.
//!
//! MurmurHash3 x64_128 with seed 0, keeping the first half `h1` as a signed 64-bit token, as
//! `org.apache.cassandra.utils.MurmurHash.hash3_x64_128` computes it. Its one quirk, which no
//! crate reproduces: tail bytes are read as Java's *signed* bytes, so a tail byte ≥ 0x80 is
//! sign-extended before it is shifted into place. `Murmur3Partitioner.getToken` then maps the
//! empty key to the minimum token `i64::MIN`, and a hash of `i64::MIN` to `i64::MAX`.
//!
//! ```
//! use ringlab::algo::stores::cassandra::token;
//! assert_eq!(token(b""), i64::MIN);
//! ```

use super::about::KeySpace;
use super::continuum::{check_count, Continuum, Explicit, Lookup, Rules, Tie};
use super::entry::{Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Weights};
use super::options::{OptionKind, OptionSpec, OptionValue, Options, Scope};
use super::Algorithm;
use crate::{limits, Error};
use std::collections::BTreeMap;

pub(crate) const ENTRY: Entry = Entry {
    name: "cassandra",
    label: "Cassandra",
    family: Family::Store,
    source:
        "cassandra-driver's Murmur3 (Murmur3Partitioner.getToken); a token belongs to the range (previous token, token]",
    options: &[&NUM_TOKENS, &TOKENS],
    weights: Weights::Any,
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Tokens,
    describe: |o| {
        format!(
            "Cassandra: {} tokens per node at ringlab's own token choice (Murmur3 of \"name#i\"); a key's Murmur3 \
             token belongs to the range (previous token, token]. The circle shows {}.",
            NUM_TOKENS.whole_u32(o),
            (ENTRY.key_space)(o).words()
        )
    },
    on_down: OnDown::Skip(
        "The token owner stays the owner (nothing moves until the node is removed). With replication factor ≥ 2 a \
         read at CL=ONE is served by a live replica; ringlab shows the next live node clockwise, a replica under \
         SimpleStrategy (the coordinator's snitch may pick another live replica). With RF = 1 the key is \
         unavailable.",
    ),
    on_stale: OnStale::Coordinator(
        "A driver with an old token map picks a coordinator that no longer owns the key's token; that node forwards the request to the replicas (an extra hop), so a stale map costs latency, never an error.",
    ),
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build = Build::Staged(|o, nodes, _| Ok(Box::new(Continuum::building(&RULES, o, nodes)?)));

/// Tokens per node of weight 1 (`num_tokens` in cassandra.yaml).
pub(crate) const NUM_TOKENS: OptionSpec = OptionSpec {
    name: "numTokens",
    kind: OptionKind::Whole { min: 1, max: limits::MAX_NUM_TOKENS as u64, default: 16 },
    help: "tokens per node of weight 1 (num_tokens; Cassandra 4's default is 16)",
    scope: Scope::Everywhere,
    link: "nt",
    refused: None,
    get: |o| NUM_TOKENS.kept(o),
    set: |o, v| {
        NUM_TOKENS.keep(o, v);
        Ok(())
    },
};

/// Nodes' own tokens, as their `initial_token` lines.
pub(crate) const TOKENS: OptionSpec = OptionSpec {
    name: "tokens",
    kind: OptionKind::Tokens { line: "initial_token", read: parse_initial_token },
    help: "each listed node's tokens, as its initial_token line (a real layout, from nodetool ring)",
    scope: Scope::Library,
    link: "",
    refused: None,
    get: |o| (!tokens(o).is_empty()).then(|| OptionValue::Tokens(tokens(o).clone())),
    set: |o, v| {
        // No tokens are not kept, so that equal settings are equal options.
        match v {
            OptionValue::Tokens(tokens) if !tokens.is_empty() => {
                o.params.insert(TOKENS.name, OptionValue::Tokens(tokens))
            }
            _ => o.params.remove(TOKENS.name),
        };
        Ok(())
    },
};

/// The nodes' own tokens by node name ([`TOKENS`]; none where it is unset): a node listed
/// there owns exactly these tokens, so a real cluster's layout (`nodetool ring`) is
/// reproduced. Read at creation and at every later `add`; other nodes get `numTokens` tokens
/// at `token("{name}#{i}")`.
fn tokens(o: &Options) -> &BTreeMap<String, Vec<i64>> {
    static NONE: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    match o.params.get(TOKENS.name) {
        Some(OptionValue::Tokens(tokens)) => tokens,
        _ => &NONE,
    }
}

static RULES: Rules = Rules {
    algorithm: Algorithm::Cassandra,
    bits: 64,
    tie: Tie::SmallerName,
    lookup_cost: 8,
    per_node: |o| {
        let num_tokens = NUM_TOKENS.whole_u32(o);
        check_count("Cassandra num_tokens", num_tokens, limits::MAX_NUM_TOKENS)?;
        Ok(num_tokens)
    },
    check: |spec, num_tokens| {
        crate::node::check_weight(spec.weight)?;
        let tokens = (spec.weight * f64::from(num_tokens)).round();
        limits::check("Cassandra tokens for one node", tokens as u64, limits::MAX_CONTINUUM_POINTS)
    },
    point_counts: |nodes, num_tokens| {
        nodes
            .iter()
            .map(|node| {
                let tokens = (node.weight * f64::from(num_tokens)).round().max(1.0);
                tokens.min(limits::MAX_CONTINUUM_POINTS as f64) as u32
            })
            .collect()
    },
    push_points: |name, count, idx, out| {
        out.extend((0..count).map(|i| (position(token(format!("{name}#{i}").as_bytes())), idx)));
    },
    key_position: |key| position(token(key)),
    point_label: Some(|name, k| format!("{name}#{k}")),
    describe_key: |key, _| format!("token {}", token(key)),
    lookup: Lookup::AtOrAfter,
    weighted_switch: None,
    switch_starts_off: |_| false,
    written_weight: |_| Ok(None),
    explicit: Some(Explicit {
        tokens,
        position,
        collision: |at, a, b| {
            let token = token_at(at);
            Error::node_refused(
                b,
                format!("token {token} is given twice ({a:?} and {b:?}): Cassandra refuses a token collision"),
            )
        },
    }),
    check_total: |_| Ok(()),
};

/// Most tokens in one `initial_token` list.
pub const MAX_INITIAL_TOKENS: usize = 65_536;

/// Parses a node's `initial_token` setting from `cassandra.yaml`: Murmur3 tokens (signed
/// 64-bit decimals) separated by commas, spaces allowed. Give the results by node name as the
/// `tokens` option ([`OptionValue::Tokens`]) to place those nodes exactly there.
///
/// ```
/// use ringlab::algo::stores::cassandra::parse_initial_token;
/// assert_eq!(parse_initial_token("-9223372036854775808, 0")?, vec![i64::MIN, 0]);
/// assert_eq!(parse_initial_token("12, x").unwrap_err().code(), "parse-error");
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn parse_initial_token(text: &str) -> Result<Vec<i64>, Error> {
    let items: Vec<&str> = text.split(',').map(str::trim).collect();
    if items.len() > MAX_INITIAL_TOKENS {
        return Err(Error::TooLarge {
            what: "an initial_token list".into(),
            max: MAX_INITIAL_TOKENS as u64,
            got: items.len() as u64,
        });
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.parse::<i64>().map_err(|_| Error::Parse {
                line: 1,
                message: format!(
                    "token {} ({item:?}) is not a Murmur3 token: a whole number from {} to {}",
                    i + 1,
                    i64::MIN,
                    i64::MAX
                ),
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

/// The token at `position` ([`position`]'s inverse).
fn token_at(position: u64) -> i64 {
    (position ^ (1 << 63)) as i64
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
        for token in [i64::MIN, -1, 0, 1, i64::MAX] {
            assert_eq!(token_at(position(token)), token);
        }
    }
}
