//! Ruby's redis-rb `Redis::Distributed` (`lib/redis/distributed.rb`, `lib/redis/hash_ring.rb`):
//! 160 points per node at the hash of `"{node.id}:{i}"`; a key (or its `{tag}`, `key_tag`)
//! goes to the last point at or before its CRC-32, wrapping to the last point
//! (`binary_search`); a later node's equal point overwrites an earlier one in `@ring`.
//!
//! - 4.x (4.8.0): points at `Zlib.crc32`; a node's id is `"{scheme}://{host}:{port}/{db}"`
//!   (`Redis::Client#id`).
//! - 5.x (5.4.1, over redis-client 0.30): points at the first four bytes of the MD5,
//!   big-endian (`server_hash_for`, `unpack1("L>")`); a node's id is redis-client's
//!   `server_url`: `"redis://{host}:{port}"`, `/{db}` only when db is not 0, an IPv6 host in
//!   brackets (`RedisClient::Config#server_url`).
//!
//! Nodes are written as the URLs given to `Redis::Distributed.new`: `redis://host[:port][/db]`,
//! `rediss://…`, `unix:///path`; the port defaults to 6379. `host:port` is ringlab's shorthand
//! for `redis://host:port`.

use super::about::KeySpace;
use super::continuum::{be_word0, crc32, Continuum, Lookup, Rules, Tie};
use super::entry::{recipe, Recipe, Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Weights};
use super::Algorithm;
use crate::{Error, NodeSpec};
use md5::Digest as _;

const DOWN: OnDown = OnDown::Unavailable {
    text: "Redis::Distributed has no failover: a command for a key of the down node raises the connection error \
           until the node is back or removed from the ring (remove_node).",
    why: "Redis::Distributed has no failover; remove the node from the ring",
};

const STALE: OnStale = OnStale::ClientSide(
    "Each process builds its own Redis::Distributed ring: until it has the new node list, it reads and writes moved keys on their old node, where reads miss or find stale values and writes leave two copies.",
);

pub(crate) const V4: Entry = Entry {
    name: "redis-rb-4",
    label: "redis-rb 4 Redis::Distributed",
    family: Family::Client,
    source: "redis-rb 4.8.0 hash_ring.rb (add_node, get_node_pos, binary_search), distributed.rb, client.rb (id)",
    options: &[],
    weights: Weights::One,
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| {
        format!(
            "redis-rb 4's Redis::Distributed: 160 CRC-32 points per node at \"redis://host:port/db:i\", on {}; a key \
             (or its {{tag}}) goes to the last point at or before its CRC-32 (each arc is drawn at its end).",
            (V4.key_space)(o).words()
        )
    },
    on_down: DOWN,
    on_stale: STALE,
    leaving: Leaving::Any,
    extras: Extras { recipe: Some(&RECIPE_V4), ..Extras::NONE },
};

/// How V4 picks a server, step by step.
const RECIPE_V4: Recipe = Recipe {
    server_label: "\"redis://host:port/db:i\" (the client's id)",
    points: "160 per server, one per CRC-32 (no weights)",
    key_hash: "CRC-32 of the key, or of its {tag}",
    pick: recipe::LAST_AT_OR_BEFORE,
    order: recipe::ORDER_TIES,
};
pub(crate) const BUILD_V4: Build = Build::Staged(|o, nodes, _| Ok(Box::new(Continuum::building(&V4_RULES, o, nodes)?)));

pub(crate) const V5: Entry = Entry {
    name: "redis-rb-5",
    label: "redis-rb 5 Redis::Distributed",
    family: Family::Client,
    source:
        "redis-rb 5.4.1 hash_ring.rb (server_hash_for: MD5), distributed.rb; redis-client 0.30 config.rb (server_url)",
    options: &[],
    weights: Weights::One,
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| {
        format!(
            "redis-rb 5's Redis::Distributed: 160 MD5 points per node at \"redis://host:port:i\", on {}; a key (or \
             its {{tag}}) goes to the last point at or before its CRC-32 (each arc is drawn at its end).",
            (V5.key_space)(o).words()
        )
    },
    on_down: DOWN,
    on_stale: STALE,
    leaving: Leaving::Any,
    extras: Extras { recipe: Some(&RECIPE_V5), ..Extras::NONE },
};

/// How V5 picks a server, step by step.
const RECIPE_V5: Recipe = Recipe {
    server_label: "\"redis://host:port:i\", \"/db\" only when not 0 (redis-client's server_url)",
    points: "160 per server, one per MD5 digest, its first 4 bytes big-endian (no weights)",
    key_hash: "CRC-32 of the key, or of its {tag}",
    pick: recipe::LAST_AT_OR_BEFORE,
    order: recipe::ORDER_TIES,
};
pub(crate) const BUILD_V5: Build = Build::Staged(|o, nodes, _| Ok(Box::new(Continuum::building(&V5_RULES, o, nodes)?)));

static V4_RULES: Rules = Rules {
    algorithm: Algorithm::RedisRb4,
    bits: 32,
    tie: Tie::LaterAdded,
    lookup_cost: 12,
    per_node: |_| Ok(0),
    check: |spec, _| check(Algorithm::RedisRb4, spec),
    point_counts: |nodes, _| vec![160; nodes.len()],
    push_points: |name, count, idx, out| {
        let id = node(name).map_or_else(|_| name.to_string(), |n| n.id_v4());
        out.extend((0..count).map(|i| (crc32(format!("{id}:{i}").as_bytes()), idx)));
    },
    key_position: |key| crc32(hashed_part(key)),
    point_label: None,
    describe_key: |key, position| match hashed_part(key).len() == key.len() {
        true => format!("crc32 0x{position:08x}"),
        false => format!("crc32 0x{position:08x} of its tag {:?}", String::from_utf8_lossy(hashed_part(key))),
    },
    lookup: Lookup::AtOrBefore,
    weighted_switch: None,
    switch_starts_off: |_| false,
    written_weight: |_| Ok(None),
    explicit: None,
    check_total: |_| Ok(()),
};

static V5_RULES: Rules = Rules {
    algorithm: Algorithm::RedisRb5,
    check: |spec, _| check(Algorithm::RedisRb5, spec),
    push_points: |name, count, idx, out| {
        let id = node(name).map_or_else(|_| name.to_string(), |n| n.id_v5());
        out.extend((0..count).map(|i| (be_word0(&md5::Md5::digest(format!("{id}:{i}").as_bytes())), idx)));
    },
    ..V4_RULES
};

fn check(algorithm: Algorithm, spec: &NodeSpec) -> Result<(), Error> {
    algorithm.entry().weights.check(algorithm, spec.weight)?;
    let node = node(&spec.name)?;
    if algorithm == Algorithm::RedisRb5 {
        node.db_v5()?;
    }
    Ok(())
}

/// What of a key is hashed: its tag, the shortest text between a `{` at the start of a line
/// and the next `}` (`/^\{(.+?)\}/`: Ruby's `^` is any line's start and `.` no newline), else
/// the whole key.
fn hashed_part(key: &[u8]) -> &[u8] {
    let starts = std::iter::once(0).chain(key.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i + 1));
    for start in starts {
        if key.get(start) != Some(&b'{') {
            continue;
        }
        let body = &key[start + 1..];
        let newline = body.iter().position(|&b| b == b'\n').unwrap_or(body.len());
        // `.+?`: at least one character before the `}`.
        if let Some(end) = body[..newline].iter().skip(1).position(|&b| b == b'}') {
            return &body[..end + 1];
        }
    }
    key
}

/// A node's URL, as redis-rb reads it (`Redis::Client#_parse_options` in 4.x, redis-client's
/// `URLConfig` in 5.x).
#[derive(Debug, PartialEq)]
struct Node<'a> {
    scheme: &'a str,
    /// The host without IPv6 brackets, or a unix socket's path.
    host: &'a str,
    port: u32,
    /// The path after the host's `/` (4.x reads it with `to_i`, 5.x with `Integer()`).
    db: &'a str,
}

fn node(name: &str) -> Result<Node<'_>, Error> {
    let bad = |why: &str| Error::InvalidOption(format!("{name:?}: {why} (write redis://host:port[/db])"));
    let (scheme, rest) = match name.split_once("://") {
        Some((scheme @ ("redis" | "rediss" | "unix"), rest)) => (scheme, rest),
        Some((scheme, _)) => {
            return Err(bad(&format!("redis-rb takes redis://, rediss:// or unix:// URLs, not {scheme}://")))
        }
        None => ("redis", name),
    };
    if scheme == "unix" {
        if !rest.starts_with('/') || rest.len() < 2 {
            return Err(bad("a unix:// URL needs a socket path"));
        }
        return Ok(Node { scheme, host: rest, port: 0, db: "" });
    }
    let rest = rest.rsplit_once('@').map_or(rest, |(_, after)| after);
    let (authority, db) = match rest.find(['/', '?', '#']) {
        Some(i) if rest.as_bytes()[i] == b'/' => (&rest[..i], &rest[i + 1..]),
        Some(_) => return Err(bad("query and fragment parts are not read by ringlab")),
        None => (rest, ""),
    };
    if db.contains(['?', '#', '/']) {
        return Err(bad("the path after the host is a database number"));
    }
    let (host, port) = if let Some(inner) = authority.strip_prefix('[') {
        let end = inner.find(']').ok_or_else(|| bad("an IPv6 host needs its ']'"))?;
        (&inner[..end], inner[end + 1..].strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    let bracketed = authority.starts_with('[');
    if host.is_empty() || host.contains([' ', '[', ']']) || (!bracketed && host.contains(':')) {
        return Err(bad("no valid host"));
    }
    let port = match port {
        None | Some("") => 6379,
        Some(digits) if digits.bytes().all(|b| b.is_ascii_digit()) && digits.len() <= 9 => {
            digits.parse().map_err(|_| bad("the port is a number"))?
        }
        Some(_) => return Err(bad("the port is a number")),
    };
    Ok(Node { scheme, host, port, db })
}

impl Node<'_> {
    /// 4.x `Redis::Client#id`: `"#{scheme}://#{location}/#{db}"`, the db read by `to_i`.
    fn id_v4(&self) -> String {
        if self.scheme == "unix" {
            return format!("unix://{}/0", self.host);
        }
        let digits = self.db.bytes().take_while(u8::is_ascii_digit).count();
        let db: u64 = self.db[..digits].parse().unwrap_or(0);
        format!("{}://{}:{}/{db}", self.scheme, self.host, self.port)
    }

    /// 5.x: redis-client's `Integer(db_path)`: decimal, or octal after a leading 0.
    fn db_v5(&self) -> Result<u64, Error> {
        let db = self.db;
        let parsed = match db.strip_prefix('0') {
            _ if db.is_empty() => Some(0),
            Some(octal) if !octal.is_empty() => u64::from_str_radix(octal, 8).ok(),
            _ if db.bytes().all(|b| b.is_ascii_digit()) => db.parse().ok(),
            _ => None,
        };
        parsed.ok_or_else(|| Error::InvalidOption(format!("redis-rb 5 refuses the database {db:?} (Integer())")))
    }

    /// 5.x redis-client `server_url`.
    fn id_v5(&self) -> String {
        let db = self.db_v5().unwrap_or(0);
        if self.scheme == "unix" {
            return format!("unix://{}", self.host);
        }
        let host = if self.host.matches(':').count() >= 2 { format!("[{}]", self.host) } else { self.host.to_string() };
        let s = if self.scheme == "rediss" { "s" } else { "" };
        match db {
            0 => format!("redis{s}://{host}:{}", self.port),
            db => format!("redis{s}://{host}:{}/{db}", self.port),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_the_clients() {
        let n = |t| node(t).unwrap();
        assert_eq!(n("redis://10.0.0.1:6380/2").id_v4(), "redis://10.0.0.1:6380/2");
        assert_eq!(n("redis://10.0.0.1:6380/2").id_v5(), "redis://10.0.0.1:6380/2");
        assert_eq!(n("redis://cache").id_v4(), "redis://cache:6379/0");
        assert_eq!(n("redis://cache").id_v5(), "redis://cache:6379");
        assert_eq!(n("cache:7000").id_v5(), "redis://cache:7000");
        assert_eq!(n("redis://[::1]:7000/010").id_v4(), "redis://::1:7000/10");
        assert_eq!(n("redis://[::1]:7000/010").id_v5(), "redis://[::1]:7000/8");
        assert_eq!(n("rediss://u:p@h:1").id_v4(), "rediss://h:1/0");
        assert!(node("http://h").is_err() && node("redis://:1").is_err() && node("redis://h:x").is_err());
    }

    #[test]
    fn tags_follow_rubys_regexp() {
        assert_eq!(hashed_part(b"{user1}:a"), b"user1");
        assert_eq!(hashed_part(b"x{user1}"), b"x{user1}");
        assert_eq!(hashed_part(b"{}x}"), b"}x");
        assert_eq!(hashed_part(b"{}"), b"{}");
        assert_eq!(hashed_part(b"a\n{b}c"), b"b");
        assert_eq!(hashed_part(b"{a\nb}"), b"{a\nb}");
    }
}
