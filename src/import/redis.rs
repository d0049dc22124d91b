//! `redis-cli cluster nodes` (`CLUSTER NODES`): a Redis Cluster placement with exactly those
//! slot ranges, masters named `ip:port`; failed masters are down, so their slots are
//! unavailable.
//!
//! ```
//! use ringlab::import::redis::from_redis_cluster_nodes;
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

use super::{parse_error, ConfigKind, Lines};
use crate::algo::stores::redis::SLOTS;
use crate::algo::Cluster;
use crate::{Error, NodeSpec};
use std::collections::BTreeMap;

pub(crate) const KIND: ConfigKind = ConfigKind {
    kind: "redis",
    label: "redis-cli cluster nodes",
    example: "07c37dfeb235213a872192d90877d0cd55635b91 10.0.0.1:6379@16379 myself,master - 0 1426238317239 1 connected 0-5460\n\
e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 10.0.0.2:6379@16379 master - 0 1426238316232 2 connected 5461-10922\n\
67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1 10.0.0.3:6379@16379 master,fail - 1426238316232 1426238314232 3 disconnected 10923-16383\n\
292f8b365bb7edb5e285caf0b7e6ddc7265d2f4f 10.0.0.4:6379@16379 slave 07c37dfeb235213a872192d90877d0cd55635b91 0 1426238317741 1 connected\n",
    read: |text, _, lines| read(text, lines),
    options: super::any_options,
    sections: super::no_sections,
};

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
const REDIS_FLAGS: [&str; 9] =
    ["myself", "master", "slave", "fail?", "fail", "handshake", "noaddr", "nofailover", "noflags"];

fn is_node_id(s: &str) -> bool {
    s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Reads `CLUSTER NODES` text, line by line (blank lines skipped).
///
/// Each line is `<id> <ip:port@cport[,hostname]> <flags> <master-id or -> <ping-sent>
/// <pong-recv> <config-epoch> <link-state> <slot>...`, a slot being `N`, `N-M`,
/// `[N->-id]` (migrating) or `[N-<-id]` (importing). Errors name the line.
pub fn parse_redis_cluster_nodes(text: &str) -> Result<Vec<RedisNode>, Error> {
    parse_nodes(text, &mut Lines::ignore())
}

/// [`parse_redis_cluster_nodes`], noting each line: a master's is read (it owns its slots,
/// or serves none, or is down), a replica's and a handshake's are passed over.
fn parse_nodes(text: &str, notes: &mut Lines) -> Result<Vec<RedisNode>, Error> {
    super::check_size(text)?;
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
            return Err(parse_error(
                line,
                format!("the link state must be connected or disconnected (got {link_state:?})"),
            ));
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
        if notes.keeping() {
            note(&node, notes);
        }
        nodes.push(node);
    }
    Ok(nodes)
}

fn note(node: &RedisNode, notes: &mut Lines) {
    let line = node.line;
    if !node.is_master() {
        let why = if node.has_flag("handshake") {
            "a node in handshake: it serves no slots yet"
        } else {
            "a replica: it serves no slots while its master is up"
        };
        return notes.pass(line, why);
    }
    let slots: usize = node.slots.iter().map(|&(a, b)| usize::from(b - a) + 1).sum();
    let s = if slots == 1 { "" } else { "s" };
    notes.read(
        line,
        match (slots, node.is_failed()) {
            (0, _) => "a master serving no slots".to_string(),
            (n, true) => format!("a failed master: {n} slot{s} unavailable"),
            (n, false) => format!("a master serving {n} slot{s}"),
        },
    );
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
        let (slot, id, migrating) = if let Some((slot, id)) = inner.split_once("->-").or_else(|| inner.split_once("->"))
        {
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
    read(text, &mut Lines::ignore())
}

fn read(text: &str, notes: &mut Lines) -> Result<Cluster, Error> {
    let nodes = parse_nodes(text, notes)?;
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
                    return Err(parse_error(
                        node.line,
                        format!("slot {slot} is also served by the master on line {other}"),
                    ));
                }
            }
        }
    }
    let masters: Vec<&RedisNode> = nodes.iter().filter(|n| n.is_master()).collect();
    if masters.is_empty() {
        return Err(parse_error(
            nodes.first().map_or(1, |n| n.line),
            "no master in the text: CLUSTER NODES lists at least one",
        ));
    }
    let layout = masters.iter().map(|m| (NodeSpec::new(m.address.clone()), m.slots.clone(), m.is_failed())).collect();
    crate::algo::stores::redis::cluster_of(layout).map_err(|e| parse_error(masters[0].line, e.to_string()))
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
        let slot_100_key =
            (0..).map(|i| format!("k{i}")).find(|k| crate::algo::stores::redis::key_slot(k.as_bytes()) == 100).unwrap();
        assert_eq!(cluster.locate(&slot_100_key).unwrap_err().code(), "unavailable");
        assert_eq!(cluster.exact_shares().unwrap(), vec![0.0, 101.0 / 16384.0]);
    }
}
