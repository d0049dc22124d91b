//! A HAProxy `backend` section, as pasted by the user: `balance`, `hash-type`, `server` lines
//! with `weight`, `id`, `disabled`. Only what changes the choice of server is modelled;
//! parameters that do not (health checks, `mode`, ...) are accepted and ignored. Anything
//! else, and anything malformed, is an [`Error::Parse`] naming the 1-based line, and nothing
//! is built.
//!
//! ```
//! use ringlab::import::haproxy::from_haproxy_backend;
//! let haproxy = from_haproxy_backend("backend app\n  balance hdr(X-User)\n  hash-type consistent\n  server web1 10.0.0.1:80\n  server web2 10.0.0.2:80 id 7")?;
//! assert!(["web1", "web2"].contains(&haproxy.locate("alice")?));
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::{check_server_count, on_line, parse_error, ConfigKind};
use crate::algo::balancers::haproxy::{HaproxyFunction, HaproxyHash, ServerExtra, MAX_ID, MAX_WEIGHT};
use crate::algo::Cluster;
use crate::{Error, NodeSpec};

pub(crate) const KIND: ConfigKind = ConfigKind {
    kind: "haproxy",
    label: "HAProxy backend section",
    example: "backend cache\n    balance hdr(X-Key)\n    hash-type consistent sdbm avalanche\n    server c1 10.0.0.1:11211\n    server c2 10.0.0.2:11211 weight 2\n    server c3 10.0.0.3:11211 disabled\n",
    read: |text, options| from_haproxy_cfg(text, options.section.as_deref()),
    sections: haproxy_backends,
};

/// Server keywords that take no argument and do not change the choice.
const HAPROXY_FLAGS: [&str; 20] = [
    "check",
    "no-check",
    "enabled",
    "ssl",
    "no-ssl",
    "check-ssl",
    "no-check-ssl",
    "send-proxy",
    "no-send-proxy",
    "send-proxy-v2",
    "send-proxy-v2-ssl",
    "send-proxy-v2-ssl-cn",
    "agent-check",
    "no-agent-check",
    "non-stick",
    "stick",
    "tfo",
    "no-tfo",
    "allow-0rtt",
    "check-send-proxy",
];
/// Server keywords that take one argument and do not change the choice.
const HAPROXY_WITH_ARGUMENT: [&str; 36] = [
    "inter",
    "ws",
    "fastinter",
    "downinter",
    "rise",
    "fall",
    "maxconn",
    "minconn",
    "maxqueue",
    "cookie",
    "port",
    "addr",
    "slowstart",
    "on-error",
    "on-marked-down",
    "on-marked-up",
    "error-limit",
    "verify",
    "verifyhost",
    "sni",
    "ca-file",
    "crt",
    "alpn",
    "proto",
    "resolvers",
    "resolve-prefer",
    "init-addr",
    "source",
    "pool-max-conn",
    "pool-purge-delay",
    "max-reuse",
    "agent-port",
    "agent-inter",
    "agent-send",
    "check-sni",
    "observe",
];
/// Section keywords (HAProxy 2.6's, `REGISTER_CONFIG_SECTION` and `cfgparse.c`): one backend
/// section is pasted, and any other section is refused.
const HAPROXY_SECTIONS: [&str; 15] = [
    "global",
    "defaults",
    "frontend",
    "backend",
    "listen",
    "peers",
    "resolvers",
    "userlist",
    "cache",
    "ring",
    "program",
    "http-errors",
    "mailers",
    "fcgi-app",
    "log-forward",
];
/// Backend keywords that change the choice in ways not modelled.
const HAPROXY_UNSUPPORTED: [&str; 4] = ["server-template", "use-server", "stick", "dynamic-cookie-key"];

/// The sections of a text: (keyword, name, the lines from its keyword line to the next
/// section's, 0-based).
fn haproxy_sections(text: &str) -> Vec<(&str, &str, std::ops::Range<usize>)> {
    let mut out: Vec<(&str, &str, std::ops::Range<usize>)> = Vec::new();
    let count = text.lines().count();
    for (n, raw) in text.lines().enumerate() {
        let mut words = raw.split('#').next().unwrap_or_default().split_whitespace();
        if let Some(keyword) = words.next().filter(|k| HAPROXY_SECTIONS.contains(k)) {
            if let Some(last) = out.last_mut() {
                last.2.end = n;
            }
            out.push((keyword, words.next().unwrap_or(""), n..count));
        }
    }
    out
}

/// The names of the `backend` and `listen` sections of a text (a whole `haproxy.cfg`, or one
/// section), in order.
pub fn haproxy_backends(text: &str) -> Result<Vec<String>, Error> {
    super::check_size(text)?;
    let sections = haproxy_sections(text);
    Ok(sections.iter().filter(|(k, _, _)| matches!(*k, "backend" | "listen")).map(|(_, n, _)| n.to_string()).collect())
}

/// A placement from one backend section, or from a whole `haproxy.cfg`: the `backend` (or
/// `listen`) section called `section`, or the only one (a text with several names them and
/// asks which). Line numbers in errors are the whole text's.
pub fn from_haproxy_cfg(text: &str, section: Option<&str>) -> Result<Cluster, Error> {
    super::check_size(text)?;
    let sections = haproxy_sections(text);
    if sections.len() <= 1 && section.is_none() {
        return from_haproxy_backend(text);
    }
    let backends: Vec<_> = sections.iter().filter(|(k, _, _)| matches!(*k, "backend" | "listen")).collect();
    let names = || backends.iter().map(|(_, n, _)| *n).collect::<Vec<_>>().join(", ");
    let (_, _, lines) = match section {
        Some(wanted) => backends
            .iter()
            .find(|(_, name, _)| *name == wanted)
            .ok_or_else(|| parse_error(1, format!("no backend named {wanted:?} (the backends: {})", names())))?,
        None if backends.len() == 1 => backends[0],
        None if backends.is_empty() => {
            return Err(parse_error(
                1,
                "no `backend` or `listen` section in this text: its servers are what ringlab reads",
            ))
        }
        None => {
            let line = backends[1].2.start + 1;
            return Err(parse_error(line, format!("{} backends ({}): choose one", backends.len(), names())));
        }
    };
    // The chosen section alone, on its own lines: errors keep the whole text's line numbers.
    let masked: Vec<&str> = text.lines().enumerate().map(|(n, l)| if lines.contains(&n) { l } else { "" }).collect();
    from_haproxy_backend(&masked.join("\n"))
}

/// A placement from a HAProxy `backend` (or `listen`) section: `balance` (a key hash:
/// `hdr(name)`, `url_param`, `uri`, `hash`), `hash-type` with its function and `avalanche`,
/// and `server NAME ADDRESS` lines with `weight`, `id` and `disabled`. Nodes are the server
/// names, so `locate(key)` answers those; the key is the bytes HAProxy hashes (the header's
/// value, the parameter's value, ...). Without a `hash-type` line HAProxy is map-based.
///
/// Caps: [`MAX_CONFIG_BYTES`](super::MAX_CONFIG_BYTES) of text, [`MAX_CONFIG_SERVERS`](super::MAX_CONFIG_SERVERS) servers.
pub fn from_haproxy_backend(text: &str) -> Result<Cluster, Error> {
    super::check_size(text)?;
    let mut seen_section = false;
    let mut balance_line: Option<usize> = None;
    let mut consistent = false;
    let mut hash: Option<HaproxyHash> = None;
    let mut hash_line = 0;
    let mut specs: Vec<NodeSpec> = Vec::new();
    let mut extra: Vec<ServerExtra> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    let mut mode_tcp = None;
    let mut layer7 = false;
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        // HAProxy starts a comment at any unquoted `#`.
        let content = raw.split('#').next().unwrap_or_default();
        let words: Vec<&str> = content.split_whitespace().collect();
        let Some(&keyword) = words.first() else { continue };
        if !HAPROXY_SECTIONS.contains(&keyword) && HAPROXY_SECTIONS.contains(&keyword.to_ascii_lowercase().as_str()) {
            return Err(parse_error(line, format!("HAProxy's keywords are lower case: `{keyword}` is not a section")));
        }
        if HAPROXY_SECTIONS.contains(&keyword) {
            if seen_section || !specs.is_empty() || balance_line.is_some() {
                return Err(parse_error(line, "paste one backend section only"));
            }
            if !matches!(keyword, "backend" | "listen") {
                return Err(parse_error(line, format!("a `{keyword}` section: paste a `backend` section")));
            }
            seen_section = true;
            continue;
        }
        match keyword {
            "balance" => {
                match words.get(1).copied() {
                    Some(m) if m.starts_with("hdr(") && m.ends_with(')') && m.len() > 5 && words.len() == 2 => layer7 = true,
                    Some("url_param") if words.len() == 3 => layer7 = true,
                    Some("uri") if words.len() == 2 || (words.len() == 3 && words[2] == "whole") => layer7 = true,
                    Some("hash") if words.len() >= 3 => {}
                    Some(m @ ("roundrobin" | "static-rr" | "leastconn" | "first" | "random" | "source")) => {
                        return Err(parse_error(line, format!("`balance {m}` does not hash a key: use hdr(), url_param, uri or hash")))
                    }
                    Some(_) => return Err(parse_error(line, "unsupported `balance`: use hdr(NAME), url_param NAME, uri [whole] or hash EXPR (without options)")),
                    None => return Err(parse_error(line, "`balance` needs a method")),
                }
                balance_line = Some(line);
            }
            "hash-type" => {
                // cfgparse-listen.c: `hash-type {map-based|consistent} [<function> [avalanche]]`.
                consistent = match words.get(1).copied() {
                    Some("consistent") => true,
                    Some("map-based") => false,
                    _ => return Err(parse_error(line, "`hash-type` only supports `consistent` and `map-based`")),
                };
                hash = match (words.get(2), words.get(3), words.len()) {
                    (None, _, _) => None,
                    (Some(f), None, 3) => Some(HaproxyHash { function: haproxy_function(f, line)?, avalanche: false }),
                    (Some(f), Some(&"avalanche"), 4) => {
                        Some(HaproxyHash { function: haproxy_function(f, line)?, avalanche: true })
                    }
                    _ => return Err(parse_error(line, "`hash-type` only supports `avalanche` as a modifier")),
                };
                hash_line = line;
            }
            "hash-balance-factor" if words.get(1).is_none_or(|f| *f != "0") => {
                return Err(parse_error(line, "`hash-balance-factor` (bounded loads) is not modelled"));
            }
            "server" => {
                let (Some(name), Some(address)) = (words.get(1), words.get(2)) else {
                    return Err(parse_error(line, "`server` needs a name and an address"));
                };
                // A plain port past 65535 (ranges, offsets and variables are left to HAProxy).
                if let Some((_, port)) = address.rsplit_once(':') {
                    if !port.is_empty()
                        && port.bytes().all(|b| b.is_ascii_digit())
                        && port.parse::<u32>().map_or(true, |p| p > 65_535)
                    {
                        return Err(parse_error(line, format!("invalid port {port:?}: HAProxy takes 1 to 65535")));
                    }
                }
                let (spec, server) = haproxy_server(name, &words[3..], line)?;
                if specs.iter().any(|s| s.name == spec.name) {
                    return Err(parse_error(line, format!("server {name} is listed twice")));
                }
                if let Some(id) = server.id {
                    if extra.iter().any(|e| e.id == Some(id)) {
                        return Err(parse_error(line, format!("custom id {id} is already used")));
                    }
                }
                specs.push(spec);
                extra.push(server);
                lines.push(line);
                check_server_count(specs.len(), line)?;
            }
            "default-server" => {
                let (spec, server) = haproxy_server("default-server", &words[1..], line)?;
                if spec.weight != 1.0 || server != ServerExtra::default() || words.contains(&"weight") {
                    return Err(parse_error(line, "`default-server` with `weight`, `id` or `disabled` is not modelled: put them on the server lines"));
                }
            }
            // `mode tcp`: HAProxy cannot read a Layer 7 key, warns and balances round robin.
            "mode" if words.get(1) == Some(&"tcp") => mode_tcp = Some(line),
            // The backend itself: every request gets a 503.
            "disabled" if words.len() == 1 => {
                return Err(parse_error(line, "this backend is `disabled`: HAProxy answers 503 to every request"))
            }
            k if HAPROXY_UNSUPPORTED.contains(&k) => {
                return Err(parse_error(line, format!("`{k}` changes which server is picked in ways not modelled")))
            }
            _ => {} // mode, option, timeout, http-request, ...: the choice does not depend on them
        }
    }
    let last_line = text.lines().count().max(1);
    let Some(balance_line) = balance_line else {
        return Err(parse_error(1, "no `balance` line: HAProxy would balance round robin"));
    };
    if let Some(line) = mode_tcp.filter(|_| layer7) {
        return Err(parse_error(
            line,
            "`mode tcp` with a Layer 7 `balance`: HAProxy cannot read the key and balances round robin",
        ));
    }
    if specs.is_empty() {
        return Err(parse_error(last_line, "no `server` lines"));
    }
    crate::algo::balancers::haproxy::backend(consistent, hash, specs, extra).map_err(|e| {
        let line = match &e {
            Error::OptionOutOfRange { option, .. } | Error::InvalidOption { option, .. } if option == "id" => {
                lines.first().copied().unwrap_or(balance_line)
            }
            _ => hash_line.max(balance_line),
        };
        on_line(line, e)
    })
}

fn haproxy_function(name: &str, line: usize) -> Result<HaproxyFunction, Error> {
    HaproxyFunction::from_name(name)
        .map_err(|_| parse_error(line, "`hash-type` only supports the sdbm, djb2, crc32 and wt6 hash functions"))
}

fn haproxy_server(name: &str, params: &[&str], line: usize) -> Result<(NodeSpec, ServerExtra), Error> {
    let mut weight = 1u32;
    let mut server = ServerExtra::default();
    let mut i = 0;
    while i < params.len() {
        let keyword = params[i];
        let argument = params.get(i + 1).copied();
        match keyword {
            "weight" => {
                let w: u32 = argument.and_then(|a| a.parse().ok()).filter(|&w| w <= MAX_WEIGHT).ok_or_else(|| {
                    parse_error(line, format!("`weight` takes a whole number from 0 to {MAX_WEIGHT}"))
                })?;
                if w == 0 {
                    return Err(parse_error(line, "weight 0 (a draining server) is not modelled"));
                }
                weight = w;
                i += 2;
            }
            "id" => {
                let id: u32 = argument
                    .and_then(|a| a.parse().ok())
                    .filter(|&id| id > 0)
                    .ok_or_else(|| parse_error(line, "`id` takes a whole number above 0"))?;
                if id > MAX_ID {
                    return Err(parse_error(line, format!("ids above {MAX_ID} overflow HAProxy's point numbers")));
                }
                server.id = Some(id);
                i += 2;
            }
            "disabled" => {
                server.disabled = true;
                i += 1;
            }
            "enabled" => {
                server.disabled = false;
                i += 1;
            }
            "backup" => return Err(parse_error(line, "`backup` servers are not modelled")),
            k if HAPROXY_FLAGS.contains(&k) => i += 1,
            k if HAPROXY_WITH_ARGUMENT.contains(&k) => {
                if argument.is_none() {
                    return Err(parse_error(line, format!("`{k}` expects an argument")));
                }
                i += 2;
            }
            other => return Err(parse_error(line, format!("unknown server keyword {other:?}"))),
        }
    }
    Ok((NodeSpec::new(name).weight(f64::from(weight)), server))
}
