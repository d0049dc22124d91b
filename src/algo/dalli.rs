//! Ruby's Dalli 3.0 (Rails' `:mem_cache_store`), `Dalli::Ring` (`lib/dalli/ring.rb`):
//! `⌊servers · 160 · weight / total weight⌋` points per server (`entry_count_for`, a Float
//! division), each at the first 8 hex digits of the SHA-1 of `"{host}:{port}:{i}"`
//! (`build_continuum`); a key goes to the last point at or before its CRC-32 (`Zlib.crc32`),
//! wrapping to the last point (`server_for_hash_key`). Servers are written as Dalli reads
//! them, `host[:port[:weight]]` (`protocol/server_config_parser.rb`): the port defaults to
//! 11211 and the weight to 1; a key longer than 250 characters is hashed as Dalli shortens it
//! (`key_manager.rb`).

use super::about::KeySpace;
use super::continuum::{be_word0, crc32, Continuum, Lookup, Rules, Tie};
use super::entry::{recipe, Recipe, Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Weights};
use super::libmemcached::check_memcached_weight;
use super::Algorithm;
use crate::{Error, Node};
use md5::Digest as _;

pub(crate) const ENTRY: Entry = Entry {
    name: "dalli",
    label: "Dalli (Ruby, Rails)",
    family: Family::Client,
    source: "Dalli 3.0.6 ring.rb (build_continuum, server_for_hash_key), server_config_parser.rb, key_manager.rb",
    options: &[],
    weights: Weights::Checked(|w| check_memcached_weight(Algorithm::Dalli, w)),
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| {
        format!(
            "Dalli: 160 SHA-1 points per server (scaled by weight) at \"host:port:i\", on {}; a key goes to the \
             last point at or before its CRC-32 (each arc is drawn at its end).",
            (ENTRY.key_space)(o).words()
        )
    },
    on_down: OnDown::Unavailable {
        text: "With failover (the default), Dalli re-hashes a key whose server is down, \"#{try}#{key}\" up to 20 \
               times (ring.rb server_from_continuum), and raises 'No server available' if every try is down; \
               ringlab does not reproduce that failover: the key is shown without its server.",
        why: "Dalli would re-hash it to another server (failover), which ringlab does not reproduce",
    },
    on_stale: OnStale::ClientSide(
        "Each Rails process builds its own Dalli ring from its server list: until it is restarted with the new list, it sends moved keys to their old servers, where reads miss or find stale values and writes leave two copies.",
    ),
    leaving: Leaving::Any,
    extras: Extras { recipe: Some(&RECIPE), ..Extras::NONE },
};

/// How it picks a server, step by step.
const RECIPE: Recipe = Recipe {
    server_label: "\"host:port:i\" (port 11211 when none is written)",
    points: "⌊servers · 160 · weight / total⌋, one per SHA-1 digest (its first 8 hex digits)",
    key_hash: "CRC-32 of the key (a key over 250 characters shortened with its MD5 first)",
    pick: recipe::LAST_AT_OR_BEFORE,
    order: recipe::ORDER_TIES,
};
pub(crate) const BUILD: Build = Build::Staged(|o, nodes, _| Ok(Box::new(Continuum::building(&RULES, o, nodes)?)));

static RULES: Rules = Rules {
    algorithm: Algorithm::Dalli,
    bits: 32,
    // The last of equal points wins, and `continuum.sort_by(&:value)` is not stable: which
    // comes last is up to Ruby's sort. ringlab gives it to the later server, as a stable sort
    // would (a ring of five servers has a tie about once in 7,000).
    tie: Tie::LaterAdded,
    lookup_cost: 12,
    per_node: |_| Ok(0),
    check: |spec, _| {
        ENTRY.weights.check(Algorithm::Dalli, spec.weight)?;
        server(&spec.name).map(drop)
    },
    point_counts,
    push_points: |name, count, idx, out| {
        let label = server(name).map_or_else(|_| name.to_string(), |s| s.name);
        out.extend((0..count).map(|i| (be_word0(&sha1::Sha1::digest(format!("{label}:{i}").as_bytes())), idx)));
    },
    key_position: |key| crc32(&ring_key(key)),
    point_label: Some(|name, k| format!("{}:{k}", server(name).map_or_else(|_| name.to_string(), |s| s.name))),
    describe_key: |key, position| {
        if ring_key(key) == key {
            format!("crc32 0x{position:08x}")
        } else {
            format!("crc32 0x{position:08x} of the key Dalli shortens it to")
        }
    },
    lookup: Lookup::AtOrBefore,
    weighted_switch: None,
    switch_starts_off: |_| false,
    written_weight: |name| Ok(server(name)?.weight),
    explicit: None,
    check_total: |_| Ok(()),
};

/// ring.rb `entry_count_for`: `((servers * 160 * weight) / Float(total_weight)).floor`.
fn point_counts(nodes: &[Node], _: u32) -> Vec<u32> {
    let n = nodes.len() as f64;
    let total: f64 = nodes.iter().map(|node| node.weight).sum();
    nodes.iter().map(|node| ((n * 160.0 * node.weight) / total).floor() as u32).collect()
}

/// A server as Dalli reads it: its name on the ring and the weight written, if any.
#[derive(Debug, PartialEq)]
pub(crate) struct Server {
    /// `"host:port"`, or a unix socket's path (`Dalli::Protocol::Binary#name`).
    pub(crate) name: String,
    pub(crate) weight: Option<f64>,
}

/// server_config_parser.rb: `\A(\[([\h:]+)\]|[^:]+)(?::(\d+))?(?::(\d+))?\z`, numbers by
/// Ruby's `Integer()` (a leading 0 is octal); a host starting with '/' is a unix socket whose
/// only number is its weight.
pub(crate) fn server(text: &str) -> Result<Server, Error> {
    let bad = || Error::InvalidOption(format!("Dalli cannot parse the server {text:?} (host[:port[:weight]])"));
    if text.starts_with("memcached://") {
        return Err(Error::InvalidOption(format!(
            "{text:?}: write a memcached:// server as host:port (its user and password do not change the ring)"
        )));
    }
    let (host, rest) = if let Some(inner) = text.strip_prefix('[') {
        let end = inner.find(']').ok_or_else(bad)?;
        let host = &inner[..end];
        if host.is_empty() || !host.chars().all(|c| c.is_ascii_hexdigit() || c == ':') {
            return Err(bad());
        }
        (host, &inner[end + 1..])
    } else {
        let end = text.find(':').unwrap_or(text.len());
        (&text[..end], &text[end..])
    };
    if host.is_empty() {
        return Err(bad());
    }
    let mut numbers = Vec::new();
    let mut rest = rest;
    while let Some(after) = rest.strip_prefix(':') {
        let end = after.find(':').unwrap_or(after.len());
        let digits = &after[..end];
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || numbers.len() == 2 {
            return Err(bad());
        }
        numbers.push(ruby_integer(digits).ok_or_else(bad)?);
        rest = &after[end..];
    }
    if !rest.is_empty() {
        return Err(bad());
    }
    if host.starts_with('/') {
        if numbers.len() > 1 {
            return Err(bad());
        }
        return Ok(Server { name: host.to_string(), weight: numbers.first().map(|&w| w as f64) });
    }
    let port = numbers.first().copied().unwrap_or(11211);
    Ok(Server { name: format!("{host}:{port}"), weight: numbers.get(1).map(|&w| w as f64) })
}

/// Ruby's `Integer("digits")`: decimal, or octal after a leading 0 (`"011211"` is 4745; `"08"`
/// is an error).
fn ruby_integer(digits: &str) -> Option<u64> {
    match digits.strip_prefix('0') {
        Some(octal) if !octal.is_empty() => u64::from_str_radix(octal, 8).ok(),
        _ => digits.parse().ok(),
    }
}

/// The key Dalli hashes (key_manager.rb `validate_key`, without a namespace): a key of more
/// than 250 characters becomes its first 212 characters, `":md5:"` and its MD5 in hex.
fn ring_key(key: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let chars: Vec<(usize, char)> = match std::str::from_utf8(key) {
        Ok(text) => text.char_indices().collect(),
        // A binary string: one character a byte.
        Err(_) => key.iter().enumerate().map(|(i, &b)| (i, char::from(b))).collect(),
    };
    if chars.len() <= 250 {
        return key.into();
    }
    let mut short = key[..chars[212].0].to_vec();
    short.extend_from_slice(b":md5:");
    for byte in md5::Md5::digest(key) {
        short.extend_from_slice(format!("{byte:02x}").as_bytes());
    }
    short.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn servers_are_read_as_dalli_reads_them() {
        let s = |t: &str| server(t).map(|s| (s.name, s.weight));
        assert_eq!(s("cache").unwrap(), ("cache:11211".into(), None));
        assert_eq!(s("cache:11212:3").unwrap(), ("cache:11212".into(), Some(3.0)));
        assert_eq!(s("cache:011211").unwrap(), ("cache:4745".into(), None));
        assert_eq!(s("[::1]:11211:2").unwrap(), ("::1:11211".into(), Some(2.0)));
        assert_eq!(s("/tmp/m.sock:2").unwrap(), ("/tmp/m.sock".into(), Some(2.0)));
        for bad in ["cache:08", "cache:", "cache:1:2:3", "[]:1", "/tmp/s:1:2", ":11211", "a b:x"] {
            assert!(server(bad).is_err(), "{bad}");
        }
    }
}
