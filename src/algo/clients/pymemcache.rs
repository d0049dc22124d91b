//! pymemcache 3.5 `HashClient` (what Django's `PyMemcacheCache` uses), with its default
//! `RendezvousHash` (`pymemcache/client/rendezvous.py`): every server scores a key with
//! `murmur3_32("{server}-{key}")` and the highest score wins; an equal score goes to the
//! larger name (`max(str(node), str(winner))`). The server is named `"{host}:{port}"`
//! (`HashClient._make_client_key` of `normalize_server_spec`: the port defaults to 11211,
//! `[v6]` loses its brackets, `unix:/path` is the path). pymemcache's murmur3 is written over
//! a Python string: each character counts with its code point's low byte, and the length is
//! the number of characters (`pymemcache/client/murmur3.py`).

use super::about::KeySpace;
use super::entry::{recipe, Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Recipe, Weights};
use super::explain::{hex, Chain, Step, StepKind, Top};
use super::members::{placement_basics, weight_rule, Members};
use super::Algorithm;
use super::Placement;
use crate::{Error, Node, NodeSpec};

pub(crate) const ENTRY: Entry = Entry {
    name: "pymemcache",
    label: "pymemcache HashClient (Django)",
    family: Family::Client,
    source: "pymemcache 3.5.2 client/hash.py (HashClient), client/rendezvous.py, client/murmur3.py, client/base.py",
    options: &[],
    weights: Weights::One,
    arcs: false,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |_| {
        "pymemcache's HashClient: rendezvous hashing, each server scoring a key with murmur3_32(\"host:port-key\"); \
         the highest score wins. No ring: a key is drawn at its own score."
            .to_string()
    },
    on_down: OnDown::Skip(
        "After retry_attempts (2) failures HashClient marks a server dead and removes it from the hasher for \
         dead_timeout (60 s): its keys go to the next highest score; no other key moves.",
    ),
    on_stale: OnStale::ClientSide(
        "Each Django process has its own HashClient: one with the old server list picks the old highest score, so moved keys go to their old server, where reads miss or find stale values and writes leave two copies.",
    ),
    leaving: Leaving::Any,
    extras: Extras { recipe: Some(&RECIPE), ..Extras::NONE },
};

/// How it picks a server, step by step.
const RECIPE: Recipe = Recipe {
    server_label: "\"host:port\" (port 11211 when none is written), hashed with each key",
    points: "none: every server scores every key (rendezvous)",
    key_hash: "murmur3_32 of \"server-key\", over Python characters",
    pick: "the highest score; a tie to the larger name",
    order: recipe::ORDER_FREE,
};
pub(crate) const BUILD: Build = Build::Whole(|_, nodes, _| Ok(Box::new(Pymemcache::new(nodes)?)));

#[derive(Clone, Debug)]
pub(crate) struct Pymemcache {
    members: Members,
    /// Each server's name as the hasher knows it (`host:port`).
    keys: Vec<String>,
}

impl Pymemcache {
    fn new(nodes: Vec<NodeSpec>) -> Result<Pymemcache, Error> {
        let mut p = Pymemcache { members: Members::new(nodes, 1, check)?, keys: Vec::new() };
        p.renamed();
        Ok(p)
    }

    fn renamed(&mut self) {
        self.keys = self.members.nodes.iter().map(|n| client_key(&n.name).unwrap_or_default()).collect();
    }

    /// The winner among the live servers.
    fn winner(&self, key: &[u8]) -> Option<usize> {
        // `scored(name, key)`'s low bytes, in one buffer for every server: the key's part is
        // written once, and no text is formatted per server.
        let mut tail = vec![b'-'];
        low_bytes(&String::from_utf8_lossy(key), &mut tail);
        let mut text = Vec::new();
        let mut best: Option<(u32, usize)> = None;
        for (i, name) in self.keys.iter().enumerate() {
            if self.members.is_down(i) {
                continue;
            }
            text.clear();
            low_bytes(name, &mut text);
            text.extend_from_slice(&tail);
            let score = (murmur3_bytes(&text), i);
            if best.is_none_or(|b| self.beats(score, b)) {
                best = Some(score);
            }
        }
        best.map(|(_, i)| i)
    }

    /// Whether score `a` (of server `a.1`) beats `b`: higher, and on a tie the later name
    /// (pymemcache keeps the first winner unless a name compares greater).
    fn beats(&self, a: (u32, usize), b: (u32, usize)) -> bool {
        a.0 > b.0 || (a.0 == b.0 && self.keys[a.1].chars().cmp(self.keys[b.1].chars()).is_gt())
    }
}

/// The text pymemcache's rendezvous hashes for a server: `"{server}-{key}"`.
fn scored(server: &str, key: &str) -> String {
    format!("{server}-{key}")
}

fn check(spec: &NodeSpec) -> Result<(), Error> {
    weight_rule(Algorithm::Pymemcache)(spec)?;
    client_key(&spec.name).map(drop)
}

/// `_make_client_key(normalize_server_spec(server))`.
fn client_key(server: &str) -> Result<String, Error> {
    if let Some(path) = server.strip_prefix("unix:") {
        return Ok(path.to_string());
    }
    if server.starts_with('/') {
        return Ok(server.to_string());
    }
    let (host, port) = match server.rsplit_once(':') {
        Some((host, port)) if !server.ends_with(']') => (
            host,
            python_int(port).ok_or_else(|| {
                Error::node_refused(
                    server,
                    format!("{server:?}: pymemcache reads the part after the last ':' as the port (int())"),
                )
            })?,
        ),
        _ => (server, 11211),
    };
    let host = if host.starts_with('[') { host.trim_matches(|c| c == '[' || c == ']') } else { host };
    Ok(format!("{host}:{port}"))
}

/// Python's `int(text)`: surrounding whitespace, a sign, digits with single '_' between them.
fn python_int(text: &str) -> Option<i64> {
    let t = text.trim();
    let (negative, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if digits.is_empty() || digits.starts_with('_') || digits.ends_with('_') || digits.contains("__") {
        return None;
    }
    let plain: String = digits.chars().filter(|&c| c != '_').collect();
    if !plain.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value: i64 = plain.parse().ok()?;
    Some(if negative { -value } else { value })
}

/// pymemcache's `murmur3_32(data, seed=0)` over a Python string: MurmurHash3 x86_32 of each
/// character's code point `& 0xff`, with the character count as the length.
fn murmur3_chars(text: &str) -> u32 {
    let mut bytes = Vec::new();
    low_bytes(text, &mut bytes);
    murmur3_bytes(&bytes)
}

/// Each character's code point `& 0xff`, appended to `out`: the bytes pymemcache hashes.
fn low_bytes(text: &str, out: &mut Vec<u8>) {
    match text.is_ascii() {
        true => out.extend_from_slice(text.as_bytes()),
        false => out.extend(text.chars().map(|c| (u32::from(c) & 0xff) as u8)),
    }
}

fn murmur3_bytes(bytes: &[u8]) -> u32 {
    murmur3::murmur3_32(&mut &bytes[..], 0).unwrap_or(0)
}

impl Placement for Pymemcache {
    placement_basics!(Algorithm::Pymemcache, 1, renamed);

    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        if self.members.nodes.is_empty() {
            return Err(Error::EmptyRing);
        }
        self.winner(key).ok_or_else(super::down::all_down)
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        f64::from(murmur3_chars(&String::from_utf8_lossy(key))) / 4_294_967_296.0
    }
    /// Every server's score (down ones too: the candidate), the highest named, the winner last.
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        let text = String::from_utf8_lossy(key);
        let mut top = Top::new();
        for (i, name) in self.keys.iter().enumerate() {
            top.offer((murmur3_chars(&scored(name, &text)), i), |&a, &b| self.beats(a, b));
        }
        let (best, more) = top.into_parts();
        let &(_, winner) = best.first()?;
        let label = "the text hashed for each server: host:port, '-', the key (here the winner's)";
        chain.push(Step::new(StepKind::Bytes, label, format!("{:?}", scored(&self.keys[winner], &text))));
        for &(score, i) in &best {
            let down = if self.members.is_down(i) { " (down)" } else { "" };
            let label = format!("{}{down}: murmur3_32 of its text (each character & 0xff)", self.keys[i]);
            chain.push(Step::new(StepKind::Hash, label, hex(u64::from(score), 32)).at_node(i));
        }
        if more > 0 {
            chain.push(Step::new(StepKind::Hash, format!("… and {more} more servers, lower scores"), "not named"));
        }
        let name = self.members.nodes[winner].name.clone();
        chain.push(Step::new(StepKind::Candidate, "the highest score wins", name).at_node(winner));
        Some(winner)
    }
    fn describe_key(&self, key: &[u8]) -> String {
        match self.winner(key) {
            Some(i) => format!(
                "murmur3 score 0x{:08x} for {:?}, the highest",
                murmur3_chars(&scored(&self.keys[i], &String::from_utf8_lossy(key))),
                self.keys[i]
            ),
            None => "no live server".to_string(),
        }
    }
    fn memory_bytes(&self) -> usize {
        self.members.memory_bytes() + self.keys.iter().map(|k| k.capacity()).sum::<usize>()
    }
    fn lookup_cost(&self) -> u64 {
        2 + self.keys.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn servers_are_named_as_hashclient_names_them() {
        assert_eq!(client_key("cache").unwrap(), "cache:11211");
        assert_eq!(client_key("cache:011212").unwrap(), "cache:11212");
        assert_eq!(client_key("[::1]:11211").unwrap(), "::1:11211");
        assert_eq!(client_key("[::1]").unwrap(), "::1:11211");
        assert_eq!(client_key("unix:/tmp/m.sock").unwrap(), "/tmp/m.sock");
        assert!(client_key("cache:port").is_err());
    }
}
