//! Java's spymemcached 2.12.3, its two node locators:
//!
//! - `spymemcached-ketama` (`KetamaConnectionFactory`: `KetamaNodeLocator`, `KETAMA_HASH`):
//!   160 points per server, four a label: the MD5 of `"{ip}:{port}-{i}"` (the
//!   `InetSocketAddress` written without its leading '/', `KetamaNodeKeyFormatter` format
//!   `SPYMEMCACHED`), its little-endian words; a key goes to the first point at or after its
//!   MD5's first word (`getNodeForKey`: `tailMap`), wrapping; a later server's equal point
//!   replaces the earlier one in the `TreeMap`. With weights (the factory's weights map, here
//!   any weight > 1) the points per server are libmemcached's single-precision formula
//!   (`setKetamaNodes`).
//! - `spymemcached-native` (`DefaultConnectionFactory`, the default: `ArrayModNodeLocator`,
//!   `NATIVE_HASH`): Java's `String.hashCode()` of the key (UTF-16 code units) as an unsigned
//!   32-bit number, modulo the number of servers.
//!
//! Servers are written as `AddrUtil.getAddresses` reads them: `ip:port` (the port is
//! required). A host name's label holds the address it resolves to, so ringlab takes any
//! other name as the label itself: write `cache1/10.0.0.1:11211`.

use super::about::KeySpace;
use super::continuum::{ketama_counts, md5_quad_label, md5_word, push_md5_quads, Continuum, Lookup, Rules, Share, Tie};
use super::entry::{recipe, Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Recipe, Weights};
use super::hash_mod::{self, Buckets};
use super::libmemcached::check_memcached_weight;
use super::Algorithm;
use crate::Error;

const STALE: OnStale = OnStale::ClientSide(
    "Each JVM's MemcachedClient has its own server list: until it is rebuilt with the new list, it sends moved keys to their old servers, where reads miss or find stale values and writes leave two copies.",
);

pub(crate) const KETAMA: Entry = Entry {
    name: "spymemcached-ketama",
    label: "spymemcached, ketama (Java)",
    family: Family::Client,
    source: "spymemcached 2.12.3 KetamaNodeLocator (setKetamaNodes, getNodeForKey), KetamaNodeKeyFormatter, AddrUtil",
    options: &[],
    weights: Weights::Checked(|w| check_memcached_weight(Algorithm::SpymemcachedKetama, w)),
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| {
        format!(
            "spymemcached's ketama locator: 160 MD5 points per server at \"ip:port-i\" (by libmemcached's float \
             formula when weighted), on {}.",
            (KETAMA.key_space)(o).words()
        )
    },
    on_down: OnDown::Unavailable {
        text: "With FailureMode.Redistribute (the default), spymemcached tries up to 7 re-hashed points \
               (KetamaIterator) for an active server and otherwise queues the operation on the down one; ringlab \
               does not reproduce that failover: the key is shown without its server.",
        why: "spymemcached would try re-hashed points (Redistribute), which ringlab does not reproduce",
    },
    on_stale: STALE,
    leaving: Leaving::Any,
    extras: Extras { recipe: Some(&RECIPE_KETAMA), ..Extras::NONE },
};

/// How KETAMA picks a server, step by step.
const RECIPE_KETAMA: Recipe = Recipe {
    server_label: "\"ip:port-i\", the resolved address",
    points: "160 per server (with weights libmemcached's formula), four per MD5 digest",
    key_hash: recipe::MD5_WORD0,
    pick: recipe::FIRST_AT_OR_AFTER,
    order: recipe::ORDER_TIES,
};
pub(crate) const BUILD_KETAMA: Build =
    Build::Staged(|o, nodes, _| Ok(Box::new(Continuum::building(&KETAMA_RULES, o, nodes)?)));

pub(crate) const NATIVE: Entry = Entry {
    name: "spymemcached-native",
    label: "spymemcached, default (Java)",
    family: Family::Client,
    source: "spymemcached 2.12.3 ArrayModNodeLocator (getServerForKey, NodeIterator), DefaultHashAlgorithm.NATIVE_HASH",
    options: &[],
    weights: Weights::One,
    arcs: false,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |_| {
        "spymemcached's default locator: Java's String.hashCode() of the key (as an unsigned 32-bit number) modulo \
         the number of servers."
            .to_string()
    },
    on_down: OnDown::Skip(
        "With FailureMode.Redistribute (the default), an operation for an inactive server goes to the next active \
         server in list order (ArrayModNodeLocator.getSequence); no other key moves.",
    ),
    on_stale: STALE,
    leaving: Leaving::Any,
    extras: Extras { recipe: Some(&RECIPE_NATIVE), ..Extras::NONE },
};

/// How NATIVE picks a server, step by step.
const RECIPE_NATIVE: Recipe = Recipe {
    server_label: recipe::NO_LABEL,
    points: "a bucket per server (no weights)",
    key_hash: "Java's String.hashCode() of the key, unsigned",
    pick: "bucket hash % servers",
    order: recipe::ORDER_MODULO,
};
pub(crate) const BUILD_NATIVE: Build = Build::Whole(|_, nodes, _| Ok(Box::new(Buckets::new(&NATIVE_RULES, nodes)?)));

static KETAMA_RULES: Rules = Rules {
    algorithm: Algorithm::SpymemcachedKetama,
    bits: 32,
    tie: Tie::LaterAdded,
    lookup_cost: 12,
    per_node: |_| Ok(0),
    check: |spec, _| KETAMA.weights.check(Algorithm::SpymemcachedKetama, spec.weight),
    point_counts: |nodes, _| vec![160; nodes.len()],
    push_points: |name, count, idx, out| push_md5_quads(&label(name), count, idx, out),
    key_position: |key| md5_word(key, 0),
    point_label: Some(|name, k| md5_quad_label(&label(name), k)),
    describe_key: |_, position| format!("md5 0x{position:08x}"),
    lookup: Lookup::AtOrAfter,
    weighted_switch: Some(&WEIGHTED_RULES),
    switch_starts_off: |_| false,
    written_weight: |_| Ok(None),
    explicit: None,
    check_total: |_| Ok(()),
};

/// setKetamaNodes, weighted: `(int) Math.floor((float) (percent * (float) 160 / 4 *
/// (float) nodeCount + 0.0000000001)) * 4`, the weights and their sum Java ints, the 1e-10
/// added in double and lost in the cast back to float.
static WEIGHTED_RULES: Rules = Rules {
    point_counts: |nodes, _| ketama_counts(nodes, Share::FloatPlusDouble { java_ints: true }),
    weighted_switch: None,
    ..KETAMA_RULES
};

/// The server's ketama label: `InetSocketAddress.toString()` of an IPv4 address, `"/ip:port"`
/// without its '/'; the port as `Integer.parseInt` reads it. Any other name is taken as the
/// label itself, so a host name is written as spymemcached labels it, with the address it
/// resolves to: `cache1/10.0.0.1:11211`.
fn label(name: &str) -> String {
    ip_label(name).unwrap_or_else(|_| name.to_string())
}

fn ip_label(name: &str) -> Result<String, Error> {
    let (host, port) = host_port(name)?;
    let octets: Vec<&str> = host.split('.').collect();
    let canonical = octets.len() == 4
        && octets.iter().all(|o| !o.is_empty() && o.len() <= 3 && o.bytes().all(|b| b.is_ascii_digit()))
        && octets.iter().all(|o| o.parse::<u16>().is_ok_and(|v| v <= 255) && (o.len() == 1 || !o.starts_with('0')));
    if !canonical {
        let words = format!(
            "{name:?}: ringlab takes spymemcached-ketama servers as IPv4 addresses (ip:port): a host name's label is \
             \"name/ip:port\", with the address it resolves to"
        );
        return Err(Error::node_refused(name, words));
    }
    Ok(format!("{host}:{port}"))
}

/// AddrUtil.getAddresses: `host:port` split at the last ':', the port by `Integer.parseInt`
/// (a sign and leading zeros allowed), 0 to 65535 (`InetSocketAddress`).
fn host_port(name: &str) -> Result<(&str, u32), Error> {
    let refused = || Error::node_refused(name, format!("spymemcached reads a server as host:port (got {name:?})"));
    let colon = name.rfind(':').filter(|&i| i >= 1).ok_or_else(refused)?;
    let digits = &name[colon + 1..];
    let digits = digits.strip_prefix('+').unwrap_or(digits);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(refused());
    }
    let port: u64 = digits.trim_start_matches('0').parse().unwrap_or(0);
    if port > 65535 {
        return Err(refused());
    }
    Ok((&name[..colon], port as u32))
}

/// Java's `String.hashCode()` over the key's UTF-16 code units, as `NATIVE_HASH` truncates
/// it: `& 0xffffffffL`.
pub(crate) fn java_hash_code(key: &[u8]) -> u32 {
    String::from_utf8_lossy(key).encode_utf16().fold(0u32, |h, unit| h.wrapping_mul(31).wrapping_add(u32::from(unit)))
}

static NATIVE_RULES: hash_mod::Rules = hash_mod::Rules {
    algorithm: Algorithm::SpymemcachedNative,
    hash: |key| u64::from(java_hash_code(key)),
    max_hash: u32::MAX as u64,
    common: 1,
    special: &[],
    buckets: |_| 1,
    // The names do not change the placement.
    check: |_| Ok(()),
    next_in_list: true,
    describe_hash: "String.hashCode()",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_hash_codes() {
        assert_eq!(label("10.0.0.1:011211"), "10.0.0.1:11211");
        assert_eq!(label("cache1/10.0.0.1:11211"), "cache1/10.0.0.1:11211");
        assert!(
            ip_label("cache:11211").is_err() && ip_label("10.0.0.01:11211").is_err() && host_port("10.0.0.1").is_err()
        );
        // "Aa" and "BB" share a hash code, as every Java programmer learns.
        assert_eq!(java_hash_code(b"Aa"), java_hash_code(b"BB"));
        assert_eq!(java_hash_code("€".as_bytes()), 0x20ac);
    }
}
