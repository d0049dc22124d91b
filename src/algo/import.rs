//! Your own cluster: placements built from the text real systems print or read.
//!
//! - [`from_redis_cluster_nodes`]: the output of `redis-cli cluster nodes` (`CLUSTER NODES`)
//!   becomes a Redis Cluster placement with exactly those slot ranges, masters named
//!   `ip:port`; failed masters are down, so their slots are unavailable.
//! - [`from_memcached_servers`]: a memcached server list (`host:port` or `host:port weight`
//!   lines, as libmemcached and twemproxy list them) for libmemcached, or libketama's server
//!   file, read exactly as libketama reads it ([`parse_libketama_servers`]).
//!
//! Malformed text gets [`Error::Parse`] naming the line and what is wrong; nothing partial
//! is built. The text is at most [`MAX_IMPORT_BYTES`] long.
//!
//! ```
//! use ringlab::algo::import::from_redis_cluster_nodes;
//! let text = "\
//! 07c37dfeb235213a872192d90877d0cd55635b91 127.0.0.1:30004@31004 slave e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 0 1426238317239 4 connected
//! 67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1 127.0.0.1:30002@31002 master - 0 1426238316232 2 connected 5461-10922
//! 292f8b365bb7edb5e285caf0b7e6ddc7265d2f4f 127.0.0.1:30003@31003 master - 0 1426238318243 3 connected 10923-16383
//! e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 127.0.0.1:30001@31001 myself,master - 0 0 1 connected 0-5460
//! ";
//! let cluster = from_redis_cluster_nodes(text)?;
//! assert_eq!(cluster.nodes().len(), 3, "replicas own no slots");
//! assert_eq!(cluster.locate("foo")?, "127.0.0.1:30003"); // slot 12182
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::redis::{Slots, SLOTS};
use super::{Algorithm, Cluster, Options, Placement};
use crate::{Error, NodeSpec};
use std::collections::BTreeMap;

/// Most bytes of pasted cluster or server-list text (16384 masters with replicas and
/// fragmented slot lists fit well within it).
pub const MAX_IMPORT_BYTES: usize = 8 * 1024 * 1024;

/// One line of `CLUSTER NODES`.
#[derive(Clone, Debug, PartialEq)]
pub struct RedisNode {
    /// The 1-based line it came from.
    pub line: usize,
    /// The 40-character node id.
    pub id: String,
    /// `ip:port` (the name ringlab gives it); the node id when the address is empty.
    pub address: String,
    /// The announced hostname after the comma, if any.
    pub hostname: Option<String>,
    pub flags: Vec<String>,
    /// The master's id, for a replica.
    pub master_id: Option<String>,
    /// `connected` or `disconnected`.
    pub link_state: String,
    /// Slot ranges `[first, last]` it serves (masters only).
    pub slots: Vec<(u16, u16)>,
    /// `[slot->-target]`: slots this node is migrating away (it still serves them).
    pub migrating: Vec<(u16, String)>,
    /// `[slot-<-source]`: slots this node is importing (their source still serves them).
    pub importing: Vec<(u16, String)>,
}

impl RedisNode {
    pub fn has_flag(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }
    /// A master (not a replica, not a handshake in progress).
    pub fn is_master(&self) -> bool {
        self.has_flag("master") && !self.has_flag("handshake")
    }
    /// Flagged `fail` (agreed by the cluster) or `fail?` (suspected by the node that answered).
    pub fn is_failed(&self) -> bool {
        self.has_flag("fail") || self.has_flag("fail?")
    }
}

/// The flags `CLUSTER NODES` prints (`clusterGenNodeDescription` in Redis's `cluster.c`).
const REDIS_FLAGS: [&str; 9] = ["myself", "master", "slave", "fail?", "fail", "handshake", "noaddr", "nofailover", "noflags"];

fn check_size(text: &str) -> Result<(), Error> {
    crate::limits::check("pasted text (bytes)", text.len() as u64, MAX_IMPORT_BYTES as u64)
}

fn parse_error(line: usize, message: impl Into<String>) -> Error {
    Error::Parse { line, message: message.into() }
}

fn is_node_id(s: &str) -> bool {
    s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Reads `CLUSTER NODES` text, line by line (blank lines skipped).
///
/// Each line is `<id> <ip:port@cport[,hostname]> <flags> <master-id or -> <ping-sent>
/// <pong-recv> <config-epoch> <link-state> <slot>...`, a slot being `N`, `N-M`,
/// `[N->-id]` (migrating) or `[N-<-id]` (importing). Errors name the line.
pub fn parse_redis_cluster_nodes(text: &str) -> Result<Vec<RedisNode>, Error> {
    check_size(text)?;
    let mut nodes = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = raw.split_whitespace().collect();
        if fields.len() < 8 {
            return Err(parse_error(line, format!(
                "expected at least 8 fields (id, address, flags, master, ping-sent, pong-recv, config-epoch, link-state), found {}",
                fields.len()
            )));
        }
        let id = fields[0];
        if !is_node_id(id) {
            return Err(parse_error(line, format!("{id:?} is not a node id (40 hexadecimal characters)")));
        }
        let (address, hostname) = parse_address(fields[1]).map_err(|m| parse_error(line, m))?;
        let flags: Vec<String> = fields[2].split(',').map(str::to_string).collect();
        if let Some(bad) = flags.iter().find(|f| !REDIS_FLAGS.contains(&f.as_str())) {
            return Err(parse_error(line, format!("unknown flag {bad:?} (flags are {})", REDIS_FLAGS.join(", "))));
        }
        let master_id = match fields[3] {
            "-" => None,
            m if is_node_id(m) => Some(m.to_string()),
            m => return Err(parse_error(line, format!("the master field {m:?} is neither - nor a node id"))),
        };
        for (what, value) in [("ping-sent", fields[4]), ("pong-recv", fields[5]), ("config-epoch", fields[6])] {
            if value.parse::<u64>().is_err() {
                return Err(parse_error(line, format!("{what} must be a whole number (got {value:?})")));
            }
        }
        let link_state = fields[7];
        if link_state != "connected" && link_state != "disconnected" {
            return Err(parse_error(line, format!("the link state must be connected or disconnected (got {link_state:?})")));
        }
        let mut node = RedisNode {
            line,
            id: id.to_string(),
            address: if address.is_empty() { id.to_string() } else { address },
            hostname,
            flags,
            master_id,
            link_state: link_state.to_string(),
            slots: Vec::new(),
            migrating: Vec::new(),
            importing: Vec::new(),
        };
        for token in &fields[8..] {
            parse_slot_token(token, &mut node).map_err(|m| parse_error(line, m))?;
        }
        if node.has_flag("slave") && !node.slots.is_empty() {
            return Err(parse_error(line, "a replica (slave) lists slots: replicas own no slots"));
        }
        nodes.push(node);
    }
    Ok(nodes)
}

/// `ip:port@cport[,hostname[,aux=value...]]` → (`ip:port`, hostname). Redis before 4.0
/// printed `ip:port` alone.
fn parse_address(field: &str) -> Result<(String, Option<String>), String> {
    let mut parts = field.split(',');
    let main = parts.next().unwrap_or_default();
    let hostname = parts.next().filter(|h| !h.is_empty() && !h.contains('=')).map(str::to_string);
    let (ip_port, cport) = match main.split_once('@') {
        Some((a, c)) => (a, Some(c)),
        None => (main, None),
    };
    let (ip, port) = ip_port.rsplit_once(':').ok_or_else(|| format!("the address {field:?} has no :port"))?;
    port.parse::<u16>().map_err(|_| format!("the port in {field:?} must be a number from 0 to 65535"))?;
    if let Some(c) = cport {
        c.parse::<u16>().map_err(|_| format!("the cluster bus port in {field:?} must be a number from 0 to 65535"))?;
    }
    // `noaddr` nodes print an empty ip (":0@0"): they are named by their id.
    Ok((if ip.is_empty() { String::new() } else { ip_port.to_string() }, hostname))
}

fn parse_slot(s: &str) -> Result<u16, String> {
    match s.parse::<u16>() {
        Ok(n) if usize::from(n) < SLOTS => Ok(n),
        _ => Err(format!("{s:?} is not a slot (0 to {})", SLOTS - 1)),
    }
}

fn parse_slot_token(token: &str, node: &mut RedisNode) -> Result<(), String> {
    if let Some(inner) = token.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        // Redis 3.0 on prints `->-` and `-<-`; Redis 2.x printed `->` and `<-`.
        let (slot, id, migrating) = if let Some((slot, id)) = inner.split_once("->-").or_else(|| inner.split_once("->")) {
            (slot, id, true)
        } else if let Some((slot, id)) = inner.split_once("-<-").or_else(|| inner.split_once("<-")) {
            (slot, id, false)
        } else {
            return Err(format!("{token:?} is neither [slot->-id] (migrating) nor [slot-<-id] (importing)"));
        };
        let slot = parse_slot(slot)?;
        if !is_node_id(id) {
            return Err(format!("{token:?}: {id:?} is not a node id"));
        }
        let list = if migrating { &mut node.migrating } else { &mut node.importing };
        list.push((slot, id.to_string()));
        return Ok(());
    }
    let (first, last) = match token.split_once('-') {
        Some((a, b)) => (parse_slot(a)?, parse_slot(b)?),
        None => {
            let s = parse_slot(token)?;
            (s, s)
        }
    };
    if first > last {
        return Err(format!("the slot range {token:?} ends before it starts"));
    }
    node.slots.push((first, last));
    Ok(())
}

/// A Redis Cluster placement from `CLUSTER NODES` text: one node per master, named
/// `ip:port` (the node id for a master with no address), in the order of the text, owning
/// exactly its slot ranges. Replicas own no slots and are not nodes. A slot being migrated
/// still belongs to its source (the `[slot->-id]` / `[slot-<-id]` markers change no owner:
/// the source serves the slot until `CLUSTER SETSLOT <slot> NODE` ends the move). Masters
/// flagged `fail` or `fail?` are down: their slots are unavailable. Slots no master lists
/// are unavailable too. The other slots are answered as a cluster with
/// `cluster-require-full-coverage no` answers them; with Redis's default (`yes`) a cluster
/// with an unserved slot refuses every key (`CLUSTERDOWN`) until the slot is served again.
///
/// Errors name the line: malformed fields, a slot claimed twice, two nodes with one id or
/// one address, no master at all.
pub fn from_redis_cluster_nodes(text: &str) -> Result<Cluster, Error> {
    let nodes = parse_redis_cluster_nodes(text)?;
    let mut ids: BTreeMap<&str, usize> = BTreeMap::new();
    let mut names: BTreeMap<&str, usize> = BTreeMap::new();
    let mut claimed: Vec<Option<usize>> = vec![None; SLOTS];
    for node in &nodes {
        if let Some(other) = ids.insert(&node.id, node.line) {
            return Err(parse_error(node.line, format!("node id {} is already on line {other}", node.id)));
        }
        if !node.is_master() {
            continue;
        }
        if let Some(other) = names.insert(&node.address, node.line) {
            return Err(parse_error(node.line, format!("master {} is already on line {other}", node.address)));
        }
        for &(first, last) in &node.slots {
            for slot in first..=last {
                if let Some(other) = claimed[usize::from(slot)].replace(node.line) {
                    return Err(parse_error(node.line, format!("slot {slot} is also served by the master on line {other}")));
                }
            }
        }
    }
    let masters: Vec<&RedisNode> = nodes.iter().filter(|n| n.is_master()).collect();
    if masters.is_empty() {
        return Err(parse_error(nodes.first().map_or(1, |n| n.line), "no master in the text: CLUSTER NODES lists at least one"));
    }
    let mut slots = Slots::from_ranges(masters.iter().map(|m| (NodeSpec::new(m.address.clone()), m.slots.clone())).collect())
        .map_err(|e| parse_error(masters[0].line, e.to_string()))?;
    for (i, master) in masters.iter().enumerate() {
        if master.is_failed() {
            slots.set_down(i, true)?;
        }
    }
    Ok(Cluster::from_placement(Box::new(slots), Options::new(Algorithm::RedisCluster)))
}

/// One server of a memcached server list.
#[derive(Clone, Debug, PartialEq)]
pub struct MemcachedServer {
    pub line: usize,
    /// `host:port` as written.
    pub address: String,
    pub weight: u32,
}

/// Reads a memcached server list for libmemcached: one server a line, `host:port` (or a bare
/// `host`, or a unix socket's `/path`), `host:port weight` (tab or spaces) or
/// `host:port:weight` (twemproxy's `servers:` entries, with or without the leading `- `).
/// Blank lines and `#` comments are skipped. Weights are whole numbers ≥ 1 (default 1).
/// Errors name the line. libketama's server file has stricter rules:
/// [`parse_libketama_servers`].
///
/// This is ringlab's list, one server a line: a line is what one `memcached_server_add_*`
/// call adds. libmemcached's own `memcached_servers_parse` reads a comma-separated string
/// instead, where the host ends at the first `:` and a weight comes only after a space or a
/// second `:`; so items it would read otherwise are refused here (a comma, an IPv6 address
/// without brackets, a `:weight` and a space weight together). Two spellings are ringlab's
/// own: a weight after a tab, and a weight after a host with no port or a socket path
/// (that parser would take `cache-a 2` as one host name; the server those calls add with
/// weight 2 is what is meant).
pub fn parse_memcached_servers(text: &str) -> Result<Vec<MemcachedServer>, Error> {
    check_size(text)?;
    let mut servers: Vec<MemcachedServer> = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or_default().trim();
        let content = content.strip_prefix("- ").map_or(content, str::trim);
        if content.is_empty() {
            continue;
        }
        if content.contains(',') {
            // libmemcached's own `memcached_servers_parse` splits at commas; read here, `a,b`
            // would be one server named "a,b".
            return Err(parse_error(line, "one server a line: put each of the comma-separated servers on its own line"));
        }
        let fields: Vec<&str> = content.split_whitespace().collect();
        let (address, weight) = match fields.as_slice() {
            [address] => colon_weight(address).map_err(|why| parse_error(line, why))?,
            [address, weight] => match colon_weight(address).map_err(|why| parse_error(line, why))? {
                (_, Some(_)) => return Err(parse_error(line, "two weights: one after a `:` and one after a space")),
                (address, None) => (address, Some(*weight)),
            },
            _ => {
                return Err(parse_error(line, format!(
                    "expected `host:port` or `host:port weight`, found {} fields (twemproxy server names are not read)",
                    fields.len()
                )))
            }
        };
        // A bare host is allowed: libmemcached gives it port 11211, libketama hashes the
        // address as written.
        if let Some((host, port)) = address.rsplit_once(':') {
            if host.is_empty() {
                return Err(parse_error(line, format!("{address:?} has no host")));
            }
            if port.parse::<u16>().is_err() {
                return Err(parse_error(line, format!("the port in {address:?} must be a number from 0 to 65535")));
            }
        }
        let weight = match weight {
            None => 1,
            Some(w) => match w.parse::<u32>() {
                Ok(w) if w >= 1 => w,
                _ => return Err(parse_error(line, format!("the weight must be a whole number ≥ 1 (got {w:?})"))),
            },
        };
        add_server(&mut servers, &mut seen, MemcachedServer { line, address: address.to_string(), weight })?;
    }
    if servers.is_empty() {
        return Err(parse_error(1, "no server in the list"));
    }
    Ok(servers)
}

/// `host:port` and its `:weight`, as `memcached_servers_parse` splits an item: the host ends
/// at the first `:` (after the `]` of an IPv6 address). A third `:` outside brackets is an
/// unbracketed IPv6 address, which libmemcached cuts at its first `:`: refused.
fn colon_weight(address: &str) -> Result<(&str, Option<&str>), String> {
    let host_end = match address.strip_prefix('[') {
        Some(rest) => rest.find(']').map(|at| at + 2).ok_or("an IPv6 address needs its closing `]`")?,
        None => 0,
    };
    let fields: Vec<&str> = address[host_end..].split(':').collect();
    match fields.len() {
        1 | 2 => Ok((address, None)),
        3 => {
            let (address, weight) = address.rsplit_once(':').expect("three fields");
            Ok((address, Some(weight)))
        }
        _ => Err(format!("{address:?} has more `:` than `host:port:weight` (write an IPv6 address in brackets: [::1]:11211)")),
    }
}

/// The longest line libketama reads at once: `fgets(sline, 127, fi)` (ketama.c
/// `read_server_definitions`); the rest of a longer line is read as the next line.
const LIBKETAMA_LINE: usize = 126;

/// Reads libketama's server file exactly as libketama does (RJ/ketama `ketama.c`,
/// `read_server_definitions` and `read_server_line`), or refuses it where libketama refuses
/// it, naming the line:
///
/// - a line is `address<spaces or tabs>weight`; a line starting with `#`, an empty line and
///   a last line of one character are skipped; a `#` anywhere else is no comment;
/// - the weight token loses its **last character** (libketama expects it to be the `\n`),
///   then is read by `strtol`: so `600` on a last line without a newline is 60, and
///   `600 # box` or `600 ` (a trailing comment or space) is 60 too; `600\r\n` stays 600;
/// - a line without a weight (even blank but for spaces), a weight that is 0 or not a
///   number refuse the whole file;
/// - lines over 126 bytes are read in pieces of 126, each piece a line.
///
/// Weights above 4294967295 and negative ones (libketama takes them as huge unsigned
/// values) are refused too.
pub fn parse_libketama_servers(text: &str) -> Result<Vec<MemcachedServer>, Error> {
    check_size(text)?;
    let mut servers: Vec<MemcachedServer> = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut rest = text.as_bytes();
    let mut line = 1;
    while !rest.is_empty() {
        let take = rest.iter().position(|&b| b == b'\n').map_or(rest.len(), |i| i + 1).min(LIBKETAMA_LINE);
        let (piece, after) = rest.split_at(take);
        rest = after;
        let this_line = line;
        line += piece.iter().filter(|&&b| b == b'\n').count();
        // C strings: a NUL ends the line.
        let piece = &piece[..piece.iter().position(|&b| b == 0).unwrap_or(piece.len())];
        if piece.len() < 2 || piece[0] == b'#' {
            continue;
        }
        let mut tokens = piece.split(|&b| b == b' ' || b == b'\t').filter(|t| !t.is_empty());
        let fail = |why: String| parse_error(this_line, format!("{why}: libketama refuses the whole file"));
        let Some(address) = tokens.next() else {
            return Err(parse_error(this_line, "a line of only spaces and tabs: libketama crashes on it (strtok finds no token)"));
        };
        let Some(weight) = tokens.next() else {
            return Err(fail(format!("no weight after {:?} (\"Unable to find delimiter\")", String::from_utf8_lossy(address))));
        };
        // strncpy(mem, tok, strlen(tok) - 1): the last character is dropped.
        let kept = &weight[..weight.len() - 1];
        let shown = String::from_utf8_lossy(weight);
        let memory = match strtol(kept) {
            None => return Err(fail(format!("the weight {shown:?} read without its last character is not a number (\"Invalid memory value\")"))),
            Some(0) => return Err(fail(format!("the weight {shown:?} read without its last character is 0"))),
            Some(m) if m < 0 => {
                return Err(parse_error(this_line, format!("the weight {shown:?} is negative: libketama takes it as a huge unsigned number")))
            }
            Some(m) => m,
        };
        let weight = u32::try_from(memory).map_err(|_| {
            parse_error(this_line, format!("the weight {shown:?} is over {} (ringlab's largest weight here)", u32::MAX))
        })?;
        let address = String::from_utf8_lossy(address).into_owned();
        add_server(&mut servers, &mut seen, MemcachedServer { line: this_line, address, weight })?;
    }
    if servers.is_empty() {
        return Err(parse_error(1, "no server in the file (libketama: \"No valid server definitions\")"));
    }
    Ok(servers)
}

/// Adds a server read from line `server.line` of a list, refusing an address listed before and
/// one server past the node cap.
fn add_server(servers: &mut Vec<MemcachedServer>, seen: &mut BTreeMap<String, usize>, server: MemcachedServer) -> Result<(), Error> {
    if let Some(other) = seen.insert(server.address.clone(), server.line) {
        return Err(parse_error(server.line, format!("{} is already listed on line {other}", server.address)));
    }
    crate::limits::check_nodes(servers.len() + 1)?;
    servers.push(server);
    Ok(())
}

/// C's `strtol(s, &end, 10)` where only `end == s` (no digits) and overflow fail.
fn strtol(s: &[u8]) -> Option<i64> {
    let mut i = s.iter().take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')).count();
    let negative = match s.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let digits: Vec<u8> = s[i..].iter().take_while(|b| b.is_ascii_digit()).copied().collect();
    if digits.is_empty() {
        return None;
    }
    let magnitude: i128 = digits.iter().try_fold(0i128, |acc, &d| {
        let v = acc * 10 + i128::from(d - b'0');
        (v <= i128::from(i64::MAX) + 1).then_some(v)
    })?;
    let value = if negative { -magnitude } else { magnitude };
    i64::try_from(value).ok()
}

/// A libketama or libmemcached placement from a memcached server list, servers in the
/// order listed: for libketama its server file ([`parse_libketama_servers`]), for
/// libmemcached a server list ([`parse_memcached_servers`]).
///
/// ```
/// use ringlab::algo::{import::from_memcached_servers, Algorithm};
/// let list = "# cache tier\n10.0.1.1:11211 600\n10.0.1.2:11211\t300\n";
/// let ketama = from_memcached_servers(list, Algorithm::Libketama)?;
/// assert_eq!(ketama.nodes()[0].weight, 600.0);
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn from_memcached_servers(text: &str, algorithm: Algorithm) -> Result<Cluster, Error> {
    if !matches!(algorithm, Algorithm::Libketama | Algorithm::LibmemcachedWeighted | Algorithm::LibmemcachedKetama) {
        return Err(Error::InvalidOption(format!(
            "a memcached server list is for libketama, libmemcached-weighted or libmemcached-ketama (not {})",
            algorithm.name()
        )));
    }
    let servers = if algorithm == Algorithm::Libketama {
        parse_libketama_servers(text)?
    } else {
        parse_memcached_servers(text)?
    };
    let spec = |s: &MemcachedServer| NodeSpec::new(s.address.clone()).weight(f64::from(s.weight));
    let build = |n: usize| Cluster::new(Options::new(algorithm), servers[..n].iter().map(spec));
    match build(servers.len()) {
        // Past a cap of the whole list (points, servers): no one line is at fault.
        Err(e @ (Error::TooLarge { .. } | Error::TooManyPoints { .. })) => Err(e),
        // What the algorithm refuses of a server (a libketama address over 21 bytes, a name
        // given twice...), named by its line: the last line of the shortest list that is
        // refused. Halving finds it in a few builds (one build a line took seconds).
        Err(mut refused) => {
            let (mut good, mut bad) = (0, servers.len());
            while bad - good > 1 {
                let mid = good + (bad - good) / 2;
                match build(mid) {
                    Ok(_) => good = mid,
                    Err(e) => (bad, refused) = (mid, e),
                }
            }
            Err(parse_error(servers[bad - 1].line, refused.to_string()))
        }
        built => built,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID_A: &str = "e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca";
    const ID_B: &str = "67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1";

    #[test]
    fn malformed_lines_are_named() {
        let cases = [
            (format!("{ID_A} 127.0.0.1:1@2 master - 0 0 1 connected 0-16383\nxyz"), 2, "at least 8 fields"),
            (format!("{ID_A} 127.0.0.1:1@2 master - 0 0 1 connected 0-16384"), 1, "is not a slot"),
            (format!("{ID_A} 127.0.0.1:1@2 master - 0 0 1 connected 9-3"), 1, "ends before it starts"),
            (format!("{ID_A} 127.0.0.1@2 master - 0 0 1 connected 0"), 1, "no :port"),
            (format!("{ID_A} 127.0.0.1:1@2 boss - 0 0 1 connected 0"), 1, "unknown flag"),
            (format!("{ID_A} 127.0.0.1:1@2 master - 0 0 1 linked 0"), 1, "link state"),
            (format!("{ID_A} 127.0.0.1:1@2 master - 0 0 1 connected [5->-xyz]"), 1, "not a node id"),
            (format!("{ID_A} 127.0.0.1:1@2 master - 0 0 1 connected 0-10\n{ID_B} 127.0.0.1:2@3 master - 0 0 1 connected 10"), 2, "slot 10 is also served by the master on line 1"),
            (format!("{ID_A} 127.0.0.1:1@2 master - 0 0 1 connected 0\n\n{ID_A} 127.0.0.1:2@3 master - 0 0 1 connected 1"), 3, "already on line 1"),
            (format!("{ID_A} 127.0.0.1:1@2 slave {ID_B} 0 0 1 connected 1"), 1, "replicas own no slots"),
            (format!("{ID_A} 127.0.0.1:1@2 slave {ID_B} 0 0 1 connected"), 1, "no master"),
        ];
        for (text, line, words) in cases {
            match from_redis_cluster_nodes(&text) {
                Err(Error::Parse { line: l, message }) => {
                    assert_eq!(l, line, "{message}");
                    assert!(message.contains(words), "{message:?} should say {words:?}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn uncovered_slots_are_unavailable_and_noaddr_masters_are_named_by_id() {
        let text = format!("{ID_A} :0@0 master,noaddr - 0 0 1 disconnected\n{ID_B} 10.0.0.2:6379@16379,cache-2 myself,master - 0 0 2 connected 0-99 200\n");
        let nodes = parse_redis_cluster_nodes(&text).unwrap();
        assert_eq!(nodes[1].hostname.as_deref(), Some("cache-2"));
        let marked = format!("{ID_B} 10.0.0.2:6379@16379,,shard-id=abc myself,master - 0 0 2 connected 0-99 [7->-{ID_A}] [8-<-{ID_A}] [9->{ID_A}]");
        let node = &parse_redis_cluster_nodes(&marked).unwrap()[0];
        assert_eq!((node.hostname.as_ref(), node.slots.as_slice()), (None, &[(0, 99)][..]));
        assert_eq!(node.migrating, [(7, ID_A.to_string()), (9, ID_A.to_string())]);
        assert_eq!(node.importing, [(8, ID_A.to_string())]);
        let cluster = from_redis_cluster_nodes(&text).unwrap();
        let names: Vec<&str> = cluster.nodes().iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, [ID_A, "10.0.0.2:6379"]);
        let slot_100_key = (0..).map(|i| format!("k{i}")).find(|k| super::super::redis::key_slot(k.as_bytes()) == 100).unwrap();
        assert_eq!(cluster.locate(&slot_100_key).unwrap_err().code(), "unavailable");
        assert_eq!(cluster.exact_shares().unwrap(), vec![0.0, 101.0 / 16384.0]);
    }

    #[test]
    fn memcached_lists_in_three_spellings() {
        let list = "10.0.0.1:11211\n  - 10.0.0.2:11212:3   # twemproxy\n10.0.0.3:11211\t2\n\n# done\n[::1]:11212:5\n";
        let servers = parse_memcached_servers(list).unwrap();
        let got: Vec<(&str, u32, usize)> = servers.iter().map(|s| (s.address.as_str(), s.weight, s.line)).collect();
        assert_eq!(
            got,
            [("10.0.0.1:11211", 1, 1), ("10.0.0.2:11212", 3, 2), ("10.0.0.3:11211", 2, 3), ("[::1]:11212", 5, 6)]
        );
        let bad = [
            ("a:1\nb:x\n", 2, "port"),
            ("a:1\na:1 2\n", 2, "already listed on line 1"),
            ("a:1 0\n", 1, "weight"),
            ("a:1 2 name\n", 1, "fields"),
            // Where libmemcached's parser reads these otherwise (found against the library).
            ("a,b\n", 1, "one server a line"),
            ("a:11211:2:3\n", 1, "more `:`"),
            ("::1:11211\n", 1, "in brackets"),
            ("a:11211:2 3\n", 1, "two weights"),
            ("[::1:11211\n", 1, "closing `]`"),
            (":11211\n", 1, "no host"),
            ("# nothing\n", 1, "no server"),
        ];
        for (text, line, words) in bad {
            match parse_memcached_servers(text) {
                Err(Error::Parse { line: l, message }) => assert!(l == line && message.contains(words), "{text:?}: {l} {message}"),
                other => panic!("{text:?}: {other:?}"),
            }
        }
        let long = "a-very-long-memcached-host.example:11211\n";
        let err = from_memcached_servers(long, Algorithm::Libketama).unwrap_err();
        assert!(matches!(err, Error::Parse { line: 1, .. }), "{err}");
        assert!(from_memcached_servers(long, Algorithm::LibmemcachedKetama).is_ok());
        assert_eq!(from_memcached_servers("a:1", Algorithm::Ring).unwrap_err().code(), "invalid-option");
    }
}
