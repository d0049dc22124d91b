//! twemproxy (nutcracker 0.5.0): a pool's `ketama` and `modula` distributions with each of its
//! twelve key hashes, server names, weights and `hash_tag`, bit for bit. The rules are cited
//! from twemproxy's source in `tests/real/README.md` (§10), and `tests/native/real_proxies.rs`
//! checks them against the real nutcracker.
//!
//! - **Server order.** twemproxy sorts a pool's servers by their *name* (shorter names
//!   first, then byte order: `conf_validate_server` sorts with `conf_server_name_cmp`), and
//!   that order is the servers' index. So `modula` picks by the sorted order, not the order
//!   of the `servers:` list.
//! - **Names.** A server's name is its `name` when the line has one, else `host:port`, or
//!   just `host` when the port is 11211 (`conf_add_server`, libmemcached's rule). Here a node
//!   named `host:port` is an unnamed server; any other node name is a server's `name`.
//! - **ketama** (`ketama_update`): `⌊pct · 160 / 4 · n + 1e-10⌋ · 4` points per server in
//!   single precision (`pct` its share of the total weight), four from each MD5 of
//!   `"{name}-{i}"`; a key goes to the first point at or after its hash, wrapping
//!   (`ketama_dispatch`). Points are MD5 whatever the `hash:`; only the key's hash changes.
//! - **modula** (`modula_update`, `modula_dispatch`): a table of `Σ weight` entries, each
//!   server `weight` of them in sorted order; a key goes to entry `hash % Σ weight`.
//! - **Keys.** With `hash_tag: "{}"`, the part between the first `{` and the next `}` is
//!   hashed when it is not empty (`server_pool_idx`); an empty key hashes to 0, and a pool of
//!   one server skips hashing (`server_pool_hash`).
//! - **The hashes** (`src/hashkit/`) keep their C quirks: `char` is signed on amd64, so bytes
//!   ≥ 0x80 are sign-extended in `one_at_a_time`, the four FNVs and `hsieh`'s 3-byte tail;
//!   `fnv1_64` is 64-bit FNV-1 truncated to its low 32 bits and `fnv1a_64` is FNV-1a computed
//!   in 32 bits with the 64-bit constants truncated; `crc32` is libmemcached's 15-bit value
//!   `(~crc >> 16) & 0x7fff` (`crc32a` is the full CRC-32); `crc16` keeps the bits its
//!   32-bit accumulator shifts past 16.
//!
//! A down server: with the default `auto_eject_hosts: false`, twemproxy keeps forwarding to
//! it and the request fails; its keys are unavailable here.
//!
//! ```
//! use ringlab::algo::{Algorithm, Cluster, OptionValue, Options};
//! let mut options = Options::new(Algorithm::TwemproxyModula);
//! options.set("twemproxyHash", OptionValue::Text("crc32".into()))?;
//! let pool = Cluster::new(options, ["10.0.0.2:11211", "10.0.0.1:11211"])?;
//! println!("{}", pool.describe_key("user:42"));
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::about::KeySpace;
use super::continuum::{ketama_counts, le_word, md5_quad_label, push_md5_quads, Share};
use super::entry::{Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Weights};
use super::explain::{hex, Chain, Step, StepKind, FIRST_AT_OR_AFTER};
use super::members::{whole_weight, Members};
use super::options::{OptionKind, OptionSpec, OptionValue, Scope};
use super::{Algorithm, Options, Placement};
use crate::analysis::Arcs;
use crate::order::{self, Tie};
use crate::points::Points;
use crate::{Error, Node, NodeSpec};
use md5::Digest as _;

const DOWN: OnDown = OnDown::Unavailable {
    text: "With twemproxy's default auto_eject_hosts: false, a server that stops answering stays in the pool: \
           requests for its keys fail until it is back. (With auto_eject_hosts: true, twemproxy ejects it after \
           server_failure_limit failures and rebuilds the distribution from the live servers: a removal.)",
    why: "twemproxy (auto_eject_hosts: false) still sends its keys there",
};

const STALE: OnStale = OnStale::Proxy(
    "Each twemproxy instance reads its pool from nutcracker.yml at start-up; until one is restarted with the new list, it sends moved keys to their old servers.",
);

pub(crate) const KETAMA: Entry = Entry {
    name: "twemproxy-ketama",
    label: "twemproxy, ketama",
    family: Family::Balancer,
    source: "twemproxy 0.5.0 (nc_ketama.c ketama_update and ketama_dispatch, nc_conf.c server names and order, \
             hashkit/*.c each hash with its quirks)",
    options: &[&TWEMPROXY_HASH, &HASH_TAG],
    weights: Weights::Checked(check_weight),
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| describe(false, o),
    on_down: DOWN,
    on_stale: STALE,
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`KETAMA`] is built.
pub(crate) const BUILD_KETAMA: Build = Build::Whole(|o, nodes, _| Ok(Box::new(Twemproxy::new(false, o, nodes)?)));

pub(crate) const MODULA: Entry = Entry {
    name: "twemproxy-modula",
    label: "twemproxy, modula",
    family: Family::Balancer,
    source: "twemproxy 0.5.0 (nc_modula.c modula_update and modula_dispatch, nc_conf.c server names and order, \
             hashkit/*.c each hash with its quirks)",
    options: &[&TWEMPROXY_HASH, &HASH_TAG],
    weights: Weights::Checked(check_weight),
    arcs: false,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| describe(true, o),
    on_down: DOWN,
    on_stale: STALE,
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`MODULA`] is built.
pub(crate) const BUILD_MODULA: Build = Build::Whole(|o, nodes, _| Ok(Box::new(Twemproxy::new(true, o, nodes)?)));

fn describe(modula: bool, o: &Options) -> String {
    let hash = TwemHash::of(o);
    let tag = hash_tag(o).map_or(String::new(), |t| format!(", keys hashed inside their {} hash tag", show_tag(t)));
    let how = if modula {
        "a table of Σ weight entries, each server `weight` of them in name order; a key's hash picks entry hash % Σ \
         weight"
    } else {
        "160 MD5 points per server scaled by weight (labels \"name-i\"; an unnamed server is named host:port, or \
         host on port 11211); a key goes to the next point"
    };
    let warning = match (modula, hash) {
        (false, TwemHash::Crc32) => {
            " Beware: twemproxy's crc32 is 15 bits (0 to 32767), so on the 2³² circle every key lands before \
             nearly every point: the server owning the circle's first point takes all keys (unless a point falls \
             below 32768)."
        }
        _ => "",
    };
    format!(
        "twemproxy `distribution: {}`, `hash: {}`: {how}{tag}.{warning}",
        if modula { "modula" } else { "ketama" },
        hash.name()
    )
}

fn show_tag(tag: [u8; 2]) -> String {
    String::from_utf8_lossy(&tag).into_owned()
}

/// twemproxy's `hash:` functions (`hash_type_t`, `src/hashkit/nc_hashkit.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TwemHash {
    OneAtATime,
    Md5,
    Crc16,
    Crc32,
    Crc32a,
    Fnv1Of64,
    Fnv1aOf64,
    Fnv1Of32,
    Fnv1aOf32,
    Hsieh,
    Murmur,
    Jenkins,
}

impl TwemHash {
    /// In twemproxy's order (`HASH_CODEC`).
    pub const ALL: [TwemHash; 12] = [
        TwemHash::OneAtATime,
        TwemHash::Md5,
        TwemHash::Crc16,
        TwemHash::Crc32,
        TwemHash::Crc32a,
        TwemHash::Fnv1Of64,
        TwemHash::Fnv1aOf64,
        TwemHash::Fnv1Of32,
        TwemHash::Fnv1aOf32,
        TwemHash::Hsieh,
        TwemHash::Murmur,
        TwemHash::Jenkins,
    ];

    /// twemproxy's default (`CONF_DEFAULT_HASH`).
    pub const DEFAULT: TwemHash = TwemHash::Fnv1aOf64;

    /// Its name in `nutcracker.yml`.
    pub fn name(self) -> &'static str {
        match self {
            TwemHash::OneAtATime => "one_at_a_time",
            TwemHash::Md5 => "md5",
            TwemHash::Crc16 => "crc16",
            TwemHash::Crc32 => "crc32",
            TwemHash::Crc32a => "crc32a",
            TwemHash::Fnv1Of64 => "fnv1_64",
            TwemHash::Fnv1aOf64 => "fnv1a_64",
            TwemHash::Fnv1Of32 => "fnv1_32",
            TwemHash::Fnv1aOf32 => "fnv1a_32",
            TwemHash::Hsieh => "hsieh",
            TwemHash::Murmur => "murmur",
            TwemHash::Jenkins => "jenkins",
        }
    }

    /// The hash called `name`.
    pub fn from_name(name: &str) -> Result<TwemHash, Error> {
        TwemHash::ALL.into_iter().find(|h| h.name() == name).ok_or_else(|| {
            Error::unknown_choice(
                "twemproxyHash",
                name,
                format!("unknown twemproxy hash {name:?}: choose one of {}", hash_names().join(", ")),
            )
        })
    }

    fn of(options: &Options) -> TwemHash {
        options
            .params
            .get(TWEMPROXY_HASH.name)
            .and_then(|v| TwemHash::from_name(v.name()).ok())
            .unwrap_or(TwemHash::DEFAULT)
    }

    /// The key's hash, as twemproxy computes it.
    pub fn hash(self, key: &[u8]) -> u32 {
        match self {
            TwemHash::OneAtATime => one_at_a_time(key),
            TwemHash::Md5 => le_word(&md5::Md5::digest(key), 0),
            TwemHash::Crc16 => crc16(key),
            TwemHash::Crc32 => (CRC32.checksum(key) >> 16) & 0x7fff,
            TwemHash::Crc32a => CRC32.checksum(key),
            TwemHash::Fnv1Of64 => fnv1_64(key),
            TwemHash::Fnv1aOf64 => fnv1a_64(key),
            TwemHash::Fnv1Of32 => fnv1_32(key),
            TwemHash::Fnv1aOf32 => fnv1a_32(key),
            TwemHash::Hsieh => hsieh(key),
            TwemHash::Murmur => murmur(key),
            TwemHash::Jenkins => jenkins(key),
        }
    }
}

fn hash_names() -> Vec<&'static str> {
    TwemHash::ALL.iter().map(|h| h.name()).collect()
}

/// The pool's `hash:`.
pub(crate) const TWEMPROXY_HASH: OptionSpec = OptionSpec {
    name: "twemproxyHash",
    kind: OptionKind::Choice { choices: hash_names, default: Some("fnv1a_64") },
    help: "the pool's hash: function for keys (twemproxy's default fnv1a_64; crc32 is its 15-bit value)",
    scope: Scope::Everywhere,
    link: "th",
    refused: None,
    get: |o| Some(OptionSpec::param(o, "twemproxyHash").unwrap_or(OptionValue::Text(TwemHash::DEFAULT.name().into()))),
    set: |o, v| {
        TwemHash::from_name(v.name())?;
        o.params.insert("twemproxyHash", v);
        Ok(())
    },
};

/// The pool's `hash_tag:`, two characters (empty: none).
pub(crate) const HASH_TAG: OptionSpec = OptionSpec {
    name: "hashTag",
    kind: OptionKind::Text { max_len: 2, default: "" },
    help: "the pool's hash_tag: two characters, e.g. {} (empty: the whole key is hashed)",
    scope: Scope::Everywhere,
    link: "ht",
    refused: None,
    get: |o| Some(OptionSpec::param(o, "hashTag").unwrap_or(OptionValue::Text(String::new()))),
    set: |o, v| {
        if !matches!(v.name().len(), 0 | 2) {
            return Err(Error::invalid_option(
                "hashTag",
                format!("hashTag must be two characters (bytes), e.g. \"{{}}\", or empty (got {:?})", v.name()),
            ));
        }
        o.params.insert("hashTag", v);
        Ok(())
    },
};

fn hash_tag(options: &Options) -> Option<[u8; 2]> {
    let tag = options.params.get(HASH_TAG.name)?;
    <[u8; 2]>::try_from(tag.name().as_bytes()).ok()
}

/// twemproxy's weights: whole numbers from 1 that fit its `int` (`nc_atoi`).
fn check_weight(weight: f64) -> Result<(), Error> {
    whole_weight("twemproxy", Some(i32::MAX as u32), weight)
}

const CRC32: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);
/// The port twemproxy leaves out of a server's name (`CONF_DEFAULT_KETAMA_PORT`).
pub const DEFAULT_KETAMA_PORT: u16 = 11211;

/// A byte as C's signed `char` widened to 32 bits: bytes ≥ 0x80 are sign-extended.
fn signed(b: u8) -> u32 {
    b as i8 as i32 as u32
}

fn one_at_a_time(key: &[u8]) -> u32 {
    let mut value = 0u32;
    for &b in key {
        value = value.wrapping_add(signed(b));
        value = value.wrapping_add(value << 10);
        value ^= value >> 6;
    }
    value = value.wrapping_add(value << 3);
    value ^= value >> 11;
    value.wrapping_add(value << 15)
}

/// CRC-16/XMODEM's table (polynomial 0x1021).
const CRC16_TABLE: [u16; 256] = {
    let mut table = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        let mut crc = (i as u16) << 8;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 0x8000 != 0 { (crc << 1) ^ 0x1021 } else { crc << 1 };
            bit += 1;
        }
        table[i] = crc;
        i += 1;
    }
    table
};

/// `hash_crc16`: the accumulator is 32 bits and never masked, so the bits shifted past 16
/// stay in the answer.
fn crc16(key: &[u8]) -> u32 {
    key.iter().fold(0u32, |crc, &b| (crc << 8) ^ u32::from(CRC16_TABLE[((crc >> 8) ^ u32::from(b)) as usize & 0xff]))
}

const FNV_64_INIT: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_64_PRIME: u64 = 0x0000_0100_0000_01b3;
const FNV_32_INIT: u32 = 2_166_136_261;
const FNV_32_PRIME: u32 = 16_777_619;

/// 64-bit FNV-1, its low 32 bits.
fn fnv1_64(key: &[u8]) -> u32 {
    let hash = key.iter().fold(FNV_64_INIT, |h, &b| h.wrapping_mul(FNV_64_PRIME) ^ (b as i8 as i64 as u64));
    hash as u32
}

/// FNV-1a in 32 bits with the 64-bit offset basis and prime truncated to 32 bits.
fn fnv1a_64(key: &[u8]) -> u32 {
    key.iter().fold(FNV_64_INIT as u32, |h, &b| (h ^ signed(b)).wrapping_mul(FNV_64_PRIME as u32))
}

fn fnv1_32(key: &[u8]) -> u32 {
    key.iter().fold(FNV_32_INIT, |h, &b| h.wrapping_mul(FNV_32_PRIME) ^ signed(b))
}

fn fnv1a_32(key: &[u8]) -> u32 {
    key.iter().fold(FNV_32_INIT, |h, &b| (h ^ signed(b)).wrapping_mul(FNV_32_PRIME))
}

fn hsieh(key: &[u8]) -> u32 {
    if key.is_empty() {
        return 0;
    }
    let get16 = |d: &[u8]| u32::from(d[0]) | (u32::from(d[1]) << 8);
    let mut hash = 0u32;
    let mut chunks = key.chunks_exact(4);
    for chunk in &mut chunks {
        hash = hash.wrapping_add(get16(chunk));
        let tmp = (get16(&chunk[2..]) << 11) ^ hash;
        hash = (hash << 16) ^ tmp;
        hash = hash.wrapping_add(hash >> 11);
    }
    let rest = chunks.remainder();
    match rest.len() {
        3 => {
            hash = hash.wrapping_add(get16(rest));
            hash ^= hash << 16;
            // `(uint32_t)key[2] << 18` of a signed char.
            hash ^= signed(rest[2]) << 18;
            hash = hash.wrapping_add(hash >> 11);
        }
        2 => {
            hash = hash.wrapping_add(get16(rest));
            hash ^= hash << 11;
            hash = hash.wrapping_add(hash >> 17);
        }
        1 => {
            hash = hash.wrapping_add(u32::from(rest[0]));
            hash ^= hash << 10;
            hash = hash.wrapping_add(hash >> 1);
        }
        _ => {}
    }
    hash ^= hash << 3;
    hash = hash.wrapping_add(hash >> 5);
    hash ^= hash << 4;
    hash = hash.wrapping_add(hash >> 17);
    hash ^= hash << 25;
    hash.wrapping_add(hash >> 6)
}

/// MurmurHash2 (32-bit) with twemproxy's seed `0xdeadbeef × length`.
fn murmur(key: &[u8]) -> u32 {
    const M: u32 = 0x5bd1_e995;
    let length = key.len() as u32;
    let mut h = 0xdead_beef_u32.wrapping_mul(length) ^ length;
    let mut chunks = key.chunks_exact(4);
    for chunk in &mut chunks {
        let mut k = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        k = k.wrapping_mul(M);
        k ^= k >> 24;
        k = k.wrapping_mul(M);
        h = h.wrapping_mul(M) ^ k;
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        for (i, &b) in rest.iter().enumerate().rev() {
            h ^= u32::from(b) << (8 * i);
        }
        h = h.wrapping_mul(M);
    }
    h ^= h >> 13;
    h = h.wrapping_mul(M);
    h ^ (h >> 15)
}

/// Bob Jenkins' lookup3 `hashlittle` with initval 13 (its three read paths agree on a
/// little-endian machine; this is the byte path).
fn jenkins(key: &[u8]) -> u32 {
    let rot = |x: u32, k: u32| x.rotate_left(k);
    let init = 0xdead_beef_u32.wrapping_add(key.len() as u32).wrapping_add(13);
    let (mut a, mut b, mut c) = (init, init, init);
    let word = |bytes: &[u8]| bytes.iter().enumerate().fold(0u32, |w, (i, &x)| w | (u32::from(x) << (8 * i)));
    let mut rest = key;
    while rest.len() > 12 {
        a = a.wrapping_add(word(&rest[0..4]));
        b = b.wrapping_add(word(&rest[4..8]));
        c = c.wrapping_add(word(&rest[8..12]));
        // mix(a, b, c)
        a = a.wrapping_sub(c);
        a ^= rot(c, 4);
        c = c.wrapping_add(b);
        b = b.wrapping_sub(a);
        b ^= rot(a, 6);
        a = a.wrapping_add(c);
        c = c.wrapping_sub(b);
        c ^= rot(b, 8);
        b = b.wrapping_add(a);
        a = a.wrapping_sub(c);
        a ^= rot(c, 16);
        c = c.wrapping_add(b);
        b = b.wrapping_sub(a);
        b ^= rot(a, 19);
        a = a.wrapping_add(c);
        c = c.wrapping_sub(b);
        c ^= rot(b, 4);
        b = b.wrapping_add(a);
        rest = &rest[12..];
    }
    if rest.is_empty() {
        return c;
    }
    a = a.wrapping_add(word(&rest[..rest.len().min(4)]));
    if rest.len() > 4 {
        b = b.wrapping_add(word(&rest[4..rest.len().min(8)]));
    }
    if rest.len() > 8 {
        c = c.wrapping_add(word(&rest[8..]));
    }
    // final(a, b, c)
    c ^= b;
    c = c.wrapping_sub(rot(b, 14));
    a ^= c;
    a = a.wrapping_sub(rot(c, 11));
    b ^= a;
    b = b.wrapping_sub(rot(a, 25));
    c ^= b;
    c = c.wrapping_sub(rot(b, 16));
    a ^= c;
    a = a.wrapping_sub(rot(c, 4));
    b ^= a;
    b = b.wrapping_sub(rot(a, 14));
    c ^= b;
    c.wrapping_sub(rot(b, 24))
}

/// A server's name as twemproxy forms it for a node name: the node name itself when it is a
/// server `name` (anything but `host:port`), else `host:port`, or `host` on port 11211.
pub fn server_name(node: &str) -> &str {
    match node.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() && port.parse::<u16>() == Ok(DEFAULT_KETAMA_PORT) => host,
        _ => node,
    }
}

/// The key twemproxy hashes: the text inside the hash tag when there is some.
fn tagged(tag: Option<[u8; 2]>, key: &[u8]) -> &[u8] {
    let Some([open, close]) = tag else { return key };
    let Some(start) = key.iter().position(|&b| b == open) else { return key };
    match key[start + 1..].iter().position(|&b| b == close) {
        Some(len) if len > 0 => &key[start + 1..start + 1 + len],
        _ => key,
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Twemproxy {
    modula: bool,
    hash: TwemHash,
    tag: Option<[u8; 2]>,
    members: Members,
    /// ketama: the continuum, owners by node index.
    points: Points,
    /// modula: the node index of each run of entries in name order, and where each run ends.
    runs: Vec<(u32, u64)>,
}

impl Twemproxy {
    pub(crate) fn new(modula: bool, options: &Options, nodes: Vec<NodeSpec>) -> Result<Twemproxy, Error> {
        let algorithm = if modula { Algorithm::TwemproxyModula } else { Algorithm::TwemproxyKetama };
        let members = Members::new(nodes, 0, super::members::weight_rule(algorithm))?;
        let mut pool = Twemproxy {
            modula,
            hash: TwemHash::of(options),
            tag: hash_tag(options),
            members,
            points: Points::new(32),
            runs: Vec::new(),
        };
        pool.check()?;
        pool.check_points()?;
        pool.build();
        Ok(pool)
    }

    fn which(&self) -> Algorithm {
        if self.modula {
            Algorithm::TwemproxyModula
        } else {
            Algorithm::TwemproxyKetama
        }
    }

    /// What twemproxy's configuration check refuses: two servers of one name
    /// (`conf_validate_server`) and a total weight past its `uint32_t`.
    fn check(&self) -> Result<(), Error> {
        let nodes = &self.members.nodes;
        let order = self.sorted();
        if let Some(w) = order.windows(2).find(|w| server_name(&nodes[w[0]].name) == server_name(&nodes[w[1]].name)) {
            let words = format!(
                "two servers are named {:?} (an unnamed server on port 11211 is named by its host): twemproxy \
                 refuses servers with the same name",
                server_name(&nodes[w[0]].name)
            );
            return Err(Error::node_refused(&nodes[w[1]].name, words));
        }
        let total: f64 = nodes.iter().map(|n| n.weight).sum();
        if total > f64::from(u32::MAX) {
            return Err(Error::TooLarge {
                what: "twemproxy's total weight".into(),
                max: u64::from(u32::MAX),
                got: total as u64,
            });
        }
        Ok(())
    }

    /// The node indices in twemproxy's server order: by name, shorter names first. (Through
    /// the engine's one point sort: a name prefixed with its length in fixed-width digits
    /// sorts by length, then bytes.)
    fn sorted(&self) -> Vec<usize> {
        let nodes = &self.members.nodes;
        let keys: Vec<String> = nodes
            .iter()
            .map(|n| {
                let name = server_name(&n.name);
                format!("{:010}{name}", name.len())
            })
            .collect();
        let mut entries: Vec<(u64, u32)> = (0..nodes.len()).map(|i| (0, i as u32)).collect();
        order::sort_points(&mut entries, Tie::Name(&|i| keys[i as usize].as_str()));
        entries.into_iter().map(|(_, i)| i as usize).collect()
    }

    /// ketama's points for these servers stay within the continuum cap (160 a server of
    /// equal weight: about 1,875 servers).
    fn check_points(&self) -> Result<(), Error> {
        if self.modula {
            return Ok(());
        }
        let points = 160 * self.members.nodes.len() as u64;
        crate::limits::check("points on the continuum", points, crate::limits::MAX_CONTINUUM_POINTS)
    }

    fn build(&mut self) {
        let order = self.sorted();
        let nodes = &self.members.nodes;
        if self.modula {
            let mut end = 0u64;
            self.runs = order
                .iter()
                .map(|&i| {
                    end += nodes[i].weight as u64;
                    (i as u32, end)
                })
                .collect();
            for node in &mut self.members.nodes {
                node.points = node.weight as u32;
            }
            return;
        }
        // ketama_update: the float product, plus a double 1e-10, back to float, floorf, × 4.
        let counts = ketama_counts(nodes, Share::FloatPlusDouble { java_ints: false });
        let mut entries: Vec<(u64, u32)> = Vec::new();
        for (rank, &i) in order.iter().enumerate() {
            // Four points from each MD5 of "{name}-{label}", as libketama places them.
            push_md5_quads(server_name(&nodes[i].name), counts[i], rank as u32, &mut entries);
        }
        // glibc's qsort is a merge sort here: of equal values the earlier server (by name) comes
        // first, and ketama_dispatch takes the first at or after the hash.
        order::sort_points(&mut entries, Tie::Earlier);
        for entry in &mut entries {
            entry.1 = order[entry.1 as usize] as u32;
        }
        self.points.set(&entries);
        for (node, count) in self.members.nodes.iter_mut().zip(counts) {
            node.points = count;
        }
    }

    /// ketama: the label (`name-i`) and MD5 word whose value is `owner`'s point at
    /// `position`, by hashing the owner's labels again (they are not stored).
    fn point_label(&self, owner: usize, position: u64) -> Option<String> {
        let node = self.members.nodes.get(owner)?;
        let name = server_name(&node.name);
        let mut points = Vec::with_capacity(node.points as usize);
        push_md5_quads(name, node.points, owner as u32, &mut points);
        let k = points.iter().position(|p| p.0 == position)?;
        Some(md5_quad_label(name, k as u32))
    }
    fn key_hash(&self, key: &[u8]) -> u32 {
        let key = tagged(self.tag, key);
        if key.is_empty() {
            0
        } else {
            self.hash.hash(key)
        }
    }

    fn owner(&self, key: &[u8]) -> Result<usize, Error> {
        match self.members.nodes.len() {
            0 => return Err(Error::EmptyRing),
            1 => return Ok(0),
            _ => {}
        }
        let hash = self.key_hash(key);
        if self.modula {
            let total = self.runs.last().map_or(1, |r| r.1);
            let entry = u64::from(hash) % total;
            let run = self.runs.partition_point(|r| r.1 <= entry);
            return Ok(self.runs[run].0 as usize);
        }
        if self.points.is_empty() {
            return Err(Error::EmptyRing);
        }
        Ok(self.points.owner_at(u64::from(hash)) as usize)
    }
}

impl Placement for Twemproxy {
    fn algorithm(&self) -> Algorithm {
        self.which()
    }
    fn nodes(&self) -> &[Node] {
        &self.members.nodes
    }
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        let mut changed = self.clone();
        changed.members.push(spec, 0, super::members::weight_rule(self.which()))?;
        changed.check()?;
        changed.check_points()?;
        changed.build();
        *self = changed;
        Ok(())
    }
    fn remove(&mut self, name: &str) -> Result<(), Error> {
        self.members.take(name)?;
        self.build();
        Ok(())
    }
    fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
        self.members.set_down(index, down)
    }
    fn is_down(&self, index: usize) -> bool {
        self.members.is_down(index)
    }
    fn boxed_clone(&self) -> Box<dyn Placement> {
        Box::new(self.clone())
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        let owner = self.owner(key)?;
        self.members.serving(self.which(), owner)
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        f64::from(self.key_hash(key)) / 4_294_967_296.0
    }
    fn describe_key(&self, key: &[u8]) -> String {
        let hash = self.key_hash(key);
        let tagged = tagged(self.tag, key);
        let inside = if tagged.len() != key.len() {
            format!(" of the tag's {:?}", String::from_utf8_lossy(tagged))
        } else {
            String::new()
        };
        if self.modula {
            let total = self.runs.last().map_or(1, |r| r.1);
            format!("{} 0x{hash:08x}{inside}, entry {} of {total}", self.hash.name(), u64::from(hash) % total)
        } else {
            format!("{} 0x{hash:08x}{inside}", self.hash.name())
        }
    }
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        let inside = tagged(self.tag, key);
        if inside.len() == key.len() {
            chain.bytes("the bytes hashed: the whole key", key);
        } else {
            let tag = self.tag.map_or(String::new(), show_tag);
            chain.bytes(&format!("the bytes hashed: inside the key's hash tag {tag}"), inside);
        }
        if self.members.nodes.len() == 1 {
            let label = "one server: twemproxy sends every key there without hashing";
            chain.push(Step::new(StepKind::Candidate, label, &self.members.nodes[0].name).at_node(0));
            return Some(0);
        }
        let hash = self.key_hash(key);
        let label = if inside.is_empty() {
            "an empty key: twemproxy's hash is 0 (not computed)".to_string()
        } else {
            format!("{} of them", self.hash.name())
        };
        chain.push(Step::new(StepKind::Hash, label, hex(u64::from(hash), 32)).at_fraction(self.key_fraction(key)));
        if self.modula {
            let total = self.runs.last().map_or(1, |r| r.1);
            let entry = u64::from(hash) % total;
            let owner = self.owner(key).ok()?;
            let label = format!("its entry: the hash mod Σ weight {total} (servers in name order, by weight)");
            chain.push(Step::new(StepKind::Entry, label, format!("{hash} % {total} = {entry}")).at_node(owner));
            return Some(owner);
        }
        if self.points.is_empty() {
            return None;
        }
        let i = self.points.successor(u64::from(hash));
        let (at, owner) = self.points.point(i);
        chain.push(Step::point(FIRST_AT_OR_AFTER, i, self.points.len(), at, 32, owner));
        let fraction = at as f64 / 4_294_967_296.0;
        if let Some(text) = self.point_label(owner, at) {
            let label = "its label: what was MD5-hashed to put the point there";
            chain.push(Step::new(StepKind::Label, label, text).at_fraction(fraction).at_node(owner));
        }
        Some(owner)
    }
    fn arcs(&self) -> Option<&dyn Arcs> {
        (!self.modula && !self.points.is_empty()).then_some(self as &dyn Arcs)
    }
    fn memory_bytes(&self) -> usize {
        self.points.memory_bytes() + self.runs.capacity() * 16 + self.members.memory_bytes()
    }
    fn lookup_cost(&self) -> u64 {
        12
    }
}

impl Arcs for Twemproxy {
    fn size(&self) -> u128 {
        1u128 << 32
    }
    fn key_mapping(&self) -> String {
        format!("twemproxy/{}/{}", self.hash.name(), self.tag.map_or(String::new(), show_tag))
    }
    fn point_count(&self) -> usize {
        self.points.len()
    }
    fn point(&self, i: usize) -> (u64, usize) {
        self.points.point(i)
    }
    fn owner_of(&self, position: u64) -> Result<usize, Error> {
        self.points.owner_of(position).ok_or(Error::EmptyRing)
    }
    fn node_list(&self) -> &[Node] {
        &self.members.nodes
    }
}

/// A pool as `nutcracker.yml` describes it: its distribution, `hash:`, `hash_tag:` and servers
/// (node names: the server's `name`, else `host:port`).
pub(crate) fn pool(
    modula: bool,
    hash: TwemHash,
    tag: Option<[u8; 2]>,
    servers: Vec<NodeSpec>,
) -> Result<super::Cluster, Error> {
    let mut options = Options::new(if modula { Algorithm::TwemproxyModula } else { Algorithm::TwemproxyKetama });
    options.params.insert(TWEMPROXY_HASH.name, OptionValue::Text(hash.name().into()));
    if let Some(tag) = tag {
        options.params.insert(HASH_TAG.name, OptionValue::Text(String::from_utf8_lossy(&tag).into_owned()));
    }
    let placement = Twemproxy::new(modula, &options, servers)?;
    Ok(super::Cluster::from_placement(Box::new(placement), options))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Independent values: each hash's published test vectors, or the C code's arithmetic by hand.
    #[test]
    fn hashes_match_known_values() {
        // FNV-1a 32 of "a" (the FNV reference): 0xe40c292c; FNV-1 32: 0x050c5d7e.
        assert_eq!(fnv1a_32(b"a"), 0xe40c_292c);
        assert_eq!(fnv1_32(b"a"), 0x050c_5d7e);
        // FNV-1 64 of "a" is 0xaf63bd4c8601b7be: its low 32 bits.
        assert_eq!(fnv1_64(b"a"), 0x8601_b7be);
        // CRC-16/XMODEM of "123456789" is 0x31c3; the 32-bit accumulator keeps more bits.
        assert_eq!(crc16(b"123456789") & 0xffff, 0x31c3);
        // CRC-32 of "123456789" is 0xcbf43926; twemproxy's crc32 keeps bits 16..31 of it, less the top.
        assert_eq!(TwemHash::Crc32a.hash(b"123456789"), 0xcbf4_3926);
        assert_eq!(TwemHash::Crc32.hash(b"123456789"), 0xcbf4 & 0x7fff);
        // lookup3's hashlittle("", 0) is 0xdeadbeef; with initval 13 and no bytes it is c untouched.
        assert_eq!(jenkins(b""), 0xdead_beef_u32.wrapping_add(13));
        // Sign extension: 0xff reads as 0xffffffff.
        assert_eq!(fnv1a_32(&[0xff]), (FNV_32_INIT ^ 0xffff_ffff).wrapping_mul(FNV_32_PRIME));
    }

    #[test]
    fn names_drop_only_the_default_port() {
        assert_eq!(server_name("10.0.0.1:11211"), "10.0.0.1");
        assert_eq!(server_name("10.0.0.1:11212"), "10.0.0.1:11212");
        assert_eq!(server_name("cache-a"), "cache-a");
    }

    #[test]
    fn hash_tags_pick_the_inside() {
        assert_eq!(tagged(Some(*b"{}"), b"user:{42}:x"), b"42");
        assert_eq!(tagged(Some(*b"{}"), b"user:{}:x"), b"user:{}:x");
        assert_eq!(tagged(Some(*b"{}"), b"user:{42"), b"user:{42");
        assert_eq!(tagged(None, b"a{b}"), b"a{b}");
    }
}
