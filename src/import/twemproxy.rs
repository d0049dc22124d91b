//! One pool of a twemproxy `nutcracker.yml`: its `distribution:`, `hash:`, `hash_tag:` and
//! `servers:` (`host:port:weight [name]`, or `/path/to/socket:weight [name]`), read as
//! nutcracker 0.5.0 reads them (`conf_add_server`, `conf_set_hash`, `conf_set_hashtag`).
//! Nodes are named by the server's `name` when the line has one, else `host:port`; the
//! placement forms twemproxy's own names from them (`host` alone on port 11211).
//! A file of several pools needs the [`ImportOptions::pool`](super::ImportOptions::pool)
//! naming one. `distribution: random` is refused: it has no fixed owner.
//!
//! ```
//! use ringlab::import::{from_config, ImportOptions};
//! let yml = "alpha:\n  listen: 127.0.0.1:22121\n  hash: fnv1a_64\n  distribution: ketama\n  servers:\n   - 10.0.0.1:11211:1\n   - 10.0.0.2:11211:1 cache-b\n";
//! let pool = from_config("twemproxy", yml, &ImportOptions::default())?;
//! let names: Vec<&str> = pool.nodes().iter().map(|n| n.name.as_str()).collect();
//! assert_eq!(names, ["10.0.0.1:11211", "cache-b"]);
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::yaml::{self, Node};
use super::{check_server_count, on_line, parse_error, ConfigKind, ImportOptions, LineStatus, Lines};
use crate::algo::balancers::twemproxy::{pool, server_name, TwemHash, DEFAULT_KETAMA_PORT};
use crate::algo::Cluster;
use crate::{Error, NodeSpec};
use std::borrow::Cow;

pub(crate) const KIND: ConfigKind = ConfigKind {
    kind: "twemproxy",
    label: "twemproxy pool (nutcracker.yml)",
    example: "cache:\n  listen: 127.0.0.1:22121\n  hash: fnv1a_64\n  distribution: ketama\n  hash_tag: \"{}\"\n  servers:\n   - 10.0.0.1:11211:1\n   - 10.0.0.2:11211:2\n   - 10.0.0.3:11212:1 cache-c\n",
    read: read_yml,
    options: super::any_options,
    sections: nutcracker_pools,
};

/// Pool directives nutcracker knows that do not change which server a key goes to.
const OTHER_DIRECTIVES: [&str; 14] = [
    "listen",
    "client_connections",
    "timeout",
    "backlog",
    "preconnect",
    "redis",
    "redis_auth",
    "redis_db",
    "server_connections",
    "auto_eject_hosts",
    "server_retry_timeout",
    "server_failure_limit",
    "tcpkeepalive",
    "reuseport",
];

/// The pool `options.pool` names (or the only one) of a `nutcracker.yml`, or a pool's body
/// alone (its directives, without the pool's name line).
pub fn from_nutcracker_yml(text: &str, options: &ImportOptions) -> Result<Cluster, Error> {
    read_yml(text, options, &mut Lines::ignore())
}

fn read_yml(text: &str, options: &ImportOptions, notes: &mut Lines) -> Result<Cluster, Error> {
    super::check_size(text)?;
    let doc = yaml::parse(text, notes)?;
    let top = doc.map("a nutcracker.yml")?;
    if top.is_empty() {
        return Err(parse_error(1, "no pool: a nutcracker.yml names pools, each with its servers:"));
    }
    if doc.get("servers").is_some() {
        return read_pool(&doc, notes);
    }
    let (name, body) = match options.pool.as_ref().or(options.section.as_ref()) {
        Some(wanted) => top
            .iter()
            .find(|(name, _)| name == wanted)
            .ok_or_else(|| parse_error(1, format!("no pool named {wanted:?} (the pools: {})", pool_names(top))))?,
        None if top.len() == 1 => &top[0],
        None => {
            return Err(parse_error(
                top[1].1.line,
                format!("{} pools ({}): choose one with the pool option", top.len(), pool_names(top)),
            ))
        }
    };
    notes.section(name);
    notes.read(body.line, "the pool read");
    for (other, pool) in top.iter().filter(|(other, _)| other != name) {
        yaml::note_tree(pool, notes, LineStatus::PassedOver, format!("in pool {other}, not the one read").into());
    }
    read_pool(body, notes)
}

/// The pools of a `nutcracker.yml` (empty for a pool's body alone).
pub fn nutcracker_pools(text: &str) -> Result<Vec<String>, Error> {
    let doc = yaml::parse(text, &mut Lines::ignore())?;
    let top = doc.map("a nutcracker.yml")?;
    if doc.get("servers").is_some() {
        return Ok(Vec::new());
    }
    Ok(top.iter().map(|(name, _)| name.clone()).collect())
}

fn pool_names(top: &[(String, Node)]) -> String {
    top.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
}

fn read_pool(body: &Node, notes: &mut Lines) -> Result<Cluster, Error> {
    let entries = body.map("a pool")?;
    let mut modula = false;
    let mut hash = TwemHash::DEFAULT;
    let mut tag: Option<[u8; 2]> = None;
    let mut servers: Option<&Node> = None;
    let mut dist_line = body.line;
    for (key, value) in entries {
        let line = value.line;
        match key.as_str() {
            "distribution" => {
                dist_line = line;
                modula = match value.text("distribution")? {
                    "ketama" => {
                        notes.read(line, "ketama: 160 points per server on a ring");
                        false
                    }
                    "modula" => {
                        notes.read(line, "modula: the hash modulo the total weight");
                        true
                    }
                    "random" => {
                        return Err(parse_error(
                            line,
                            "distribution: random has no fixed owner: twemproxy sends each request to a random \
                             server (random_dispatch), so no placement can say where a key goes",
                        ))
                    }
                    other => {
                        return Err(parse_error(
                            line,
                            format!("unknown distribution {other:?}: ketama, modula or random"),
                        ))
                    }
                }
            }
            "hash" => {
                hash = TwemHash::from_name(value.text("hash")?).map_err(|e| on_line(line, e))?;
                notes.read(line, "the hash function of keys");
            }
            "hash_tag" => {
                let text = value.text("hash_tag")?;
                tag = Some(<[u8; 2]>::try_from(text.as_bytes()).map_err(|_| {
                    parse_error(line, format!("hash_tag {text:?} is not two characters (nutcracker's words: not a valid hash tag string with two characters)"))
                })?);
                notes.read(line, "the hash tag: only the part of a key between them is hashed");
            }
            "servers" => servers = Some(value),
            other if OTHER_DIRECTIVES.contains(&other) => {
                value.text(other)?;
                let why: Cow<'static, str> = format!("`{other}`: does not change which server a key goes to").into();
                yaml::note_tree(value, notes, LineStatus::PassedOver, why.clone());
            }
            other => return Err(parse_error(line, format!("unknown directive {other:?} in a pool"))),
        }
    }
    let Some(servers) = servers else {
        return Err(parse_error(body.line, "the pool has no servers: list (nutcracker: has no servers)"));
    };
    let mut specs: Vec<NodeSpec> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    notes.read(servers.line, "the pool's servers");
    for item in servers.seq("servers")? {
        let line = item.line;
        let spec = server(item.text("a server")?).map_err(|why| parse_error(line, why))?;
        if let Some(before) = specs.iter().position(|s| server_name(&s.name) == server_name(&spec.name)) {
            return Err(parse_error(
                line,
                format!(
                    "a second server named {:?} (line {}): nutcracker refuses servers with the same name",
                    server_name(&spec.name),
                    lines[before]
                ),
            ));
        }
        notes.read(
            line,
            if spec.weight == 1.0 { "a server".to_string() } else { format!("a server of weight {}", spec.weight) },
        );
        specs.push(spec);
        lines.push(line);
        check_server_count(specs.len(), line)?;
    }
    if specs.is_empty() {
        return Err(parse_error(servers.line, "the pool has no servers"));
    }
    pool(modula, hash, tag, specs).map_err(|e| on_line(dist_line, e))
}

/// `host:port:weight [name]` or `/path:weight [name]`, split from the end as
/// `conf_add_server` splits it: the node is named `name`, else `host:port` (`/path:` for a
/// socket, whose name in nutcracker ends at the `:` before its weight).
fn server(text: &str) -> Result<NodeSpec, String> {
    let (address, name) = match text.rsplit_once(' ') {
        Some((address, name)) => (address, Some(name)),
        None => (text, None),
    };
    let (rest, weight) = address.rsplit_once(':').ok_or_else(|| format!("{text:?} is not host:port:weight [name]"))?;
    let weight = number(weight).ok_or_else(|| format!("{text:?} has an invalid weight"))?;
    if weight == 0 {
        return Err(format!("{text:?} has a zero weight"));
    }
    let node = if address.starts_with('/') {
        format!("{rest}:")
    } else {
        let (host, port) = rest.rsplit_once(':').ok_or_else(|| format!("{text:?} is not host:port:weight [name]"))?;
        match number(port) {
            Some(p) if (1..=65_535).contains(&p) && !host.is_empty() => format!("{host}:{p}"),
            _ => return Err(format!("{text:?} has an invalid port")),
        }
    };
    let node = match name {
        Some("") => return Err(format!("{text:?} has an empty name after its space")),
        Some(name) => {
            if server_name(name) != name {
                return Err(format!(
                    "the name {name:?} reads as an address on port {DEFAULT_KETAMA_PORT} in ringlab: give the server \
                     another name"
                ));
            }
            name.to_string()
        }
        None => node,
    };
    if weight > u64::from(i32::MAX as u32) {
        return Err(format!("{text:?}: the weight is past nutcracker's int"));
    }
    Ok(NodeSpec::new(node).weight(weight as f64))
}

/// `nc_atoi`: digits only.
fn number(text: &str) -> Option<u64> {
    (!text.is_empty() && text.len() <= 10 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}
