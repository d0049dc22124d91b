//! A HAProxy `backend` section, as pasted by the user: `balance`, `hash-type`, `server` lines
//! with `weight`, `id`, `disabled`. Only what changes the choice of server is modelled;
//! keywords known not to (timeouts, `option`, `mode`, health checks, logging, ...: HAProxy
//! 2.x's proxy keywords) are accepted and ignored. Any other line, a
//! keyword ringlab does not know (a typo such as `sever` included: HAProxy refuses it too),
//! and anything malformed, is an [`Error::Parse`] naming the 1-based line, and nothing is
//! built.
//!
//! ```
//! use ringlab::import::haproxy::from_haproxy_backend;
//! let haproxy = from_haproxy_backend("backend app\n  balance hdr(X-User)\n  hash-type consistent\n  server web1 10.0.0.1:80\n  server web2 10.0.0.2:80 id 7")?;
//! assert!(["web1", "web2"].contains(&haproxy.locate("alice")?));
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::{check_server_count, on_line, parse_error, ConfigKind, Lines};
use crate::algo::balancers::haproxy::{HaproxyFunction, HaproxyHash, ServerExtra, MAX_ID, MAX_WEIGHT};
use crate::algo::Cluster;
use crate::{Error, NodeSpec};

pub(crate) const KIND: ConfigKind = ConfigKind {
    kind: "haproxy",
    label: "HAProxy backend section",
    example: "backend cache\n    balance hdr(X-Key)\n    hash-type consistent sdbm avalanche\n    server c1 10.0.0.1:11211\n    server c2 10.0.0.2:11211 weight 2\n    server c3 10.0.0.3:11211 disabled\n",
    read: |text, options, lines| read_cfg(text, options.section.as_deref(), lines),
    options: super::any_options,
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
/// Backend keywords that change the choice in ways not modelled: servers from elsewhere,
/// persistence (a stick table or an RDP cookie sends a client back to its server whatever
/// the hash says; `cookie` is refused in its own words), connections sent past the servers,
/// or to another backend (`default_backend` too, outside a `defaults` section).
/// `load-server-state-from-file` is not among them: the state it loads is what the runtime
/// API changed, which no config text says either.
const HAPROXY_UNSUPPORTED: [&str; 9] = [
    "server-template",
    "use-server",
    "stick",
    "dynamic-cookie-key",
    "persist",
    "dispatch",
    "transparent",
    "use_backend",
    "default_backend",
];
/// The keywords of a `backend` or `listen` section (HAProxy 2.x's and 3.x's proxy keywords
/// matrix, `configuration.txt` §4.1) that do not change which server a key's hash picks: what
/// happens before (`http-request`, `acl`, `bind`, `tcp-request`), after (`http-response`,
/// `retries`, `compression`) or beside it (timeouts, health checks, logs, stats, limits).
/// The placement keywords are read by name; the refused ones are in `HAPROXY_UNSUPPORTED`.
/// Anything else is refused as unknown.
const HAPROXY_NEUTRAL: &[&str] = &[
    "acl",
    "backlog",
    "be-unpublished",
    "bind",
    "capture",
    "clitcpka-cnt",
    "clitcpka-idle",
    "clitcpka-intvl",
    "compression",
    "crt",
    "declare",
    "description",
    "email-alert",
    "enabled",
    "errorfile",
    "errorfiles",
    "errorloc",
    "errorloc302",
    "errorloc303",
    "error-log-format",
    "external-check",
    "filter",
    "filter-sequence",
    "force-be-switch",
    "force-persist",
    "fullconn",
    "guid",
    "http-after-response",
    "http-check",
    "http-error",
    "http-request",
    "http-response",
    "http-reuse",
    "http-send-name-header",
    "id",
    "ignore-persist",
    "log",
    "log-format",
    "log-format-sd",
    "log-steps",
    "log-tag",
    "max-keep-alive-queue",
    "maxconn",
    "mode",
    "monitor",
    "monitor-uri",
    "option",
    "quic-initial",
    "rate-limit",
    "redirect",
    "retries",
    "retry-on",
    "server-state-file-name",
    "load-server-state-from-file",
    "source",
    "srvtcpka-cnt",
    "srvtcpka-idle",
    "srvtcpka-intvl",
    "stats",
    "stick-table",
    "tcp-check",
    "tcp-request",
    "tcp-response",
    "timeout",
    "unique-id-format",
    "unique-id-header",
    "use-fcgi-app",
    "max-session-srv-conns",
];
/// The keywords a typo most likely meant: the ones that place servers.
const HAPROXY_PLACEMENT: [&str; 6] =
    ["server", "balance", "hash-type", "default-server", "hash-balance-factor", "hash-preserve-affinity"];

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

type Section<'a> = (&'a str, &'a str, std::ops::Range<usize>);

/// What the section on `lines` inherits: the `defaults` section its `from` names, else the
/// last one before it (HAProxy 2.x; `balance`, `hash-type`, `default-server`, `mode` and the
/// rest apply to the backends after it as if written in them).
fn defaults_of<'s, 'a>(
    sections: &'s [Section<'a>],
    text: &[&str],
    lines: &std::ops::Range<usize>,
) -> Result<Option<&'s Section<'a>>, Error> {
    let header: Vec<&str> = text
        .get(lines.start)
        .map_or_else(Vec::new, |l| l.split('#').next().unwrap_or_default().split_whitespace().collect());
    let before = |s: &&Section| s.0 == "defaults" && s.2.start < lines.start;
    Ok(match header.get(2..) {
        Some(["from", wanted]) => {
            Some(sections.iter().rev().find(|s| before(s) && s.1 == *wanted).ok_or_else(|| {
                parse_error(lines.start + 1, format!("no `defaults` section named {wanted:?} before this section"))
            })?)
        }
        _ => sections.iter().rev().find(before),
    })
}

/// Whether the last `balance` line on `lines` hashes a key (`None` without one): the methods
/// [`from_haproxy_backend`] reads.
fn balance_hashes(text: &[&str], lines: &std::ops::Range<usize>) -> Option<bool> {
    let balance = text[lines.clone()]
        .iter()
        .filter_map(|l| {
            let mut words = l.split('#').next().unwrap_or_default().split_whitespace();
            (words.next() == Some("balance")).then(|| words.next().unwrap_or_default())
        })
        .next_back()?;
    Some(balance.starts_with("hdr(") || matches!(balance, "url_param" | "uri" | "hash"))
}

/// A placement from one backend section, or from a whole `haproxy.cfg`: the `backend` (or
/// `listen`) section called `section`, or the only one (a text with several names them and
/// asks which). Line numbers in errors are the whole text's.
pub fn from_haproxy_cfg(text: &str, section: Option<&str>) -> Result<Cluster, Error> {
    read_cfg(text, section, &mut Lines::ignore())
}

fn read_cfg(text: &str, section: Option<&str>, notes: &mut Lines) -> Result<Cluster, Error> {
    super::check_size(text)?;
    let sections = haproxy_sections(text);
    if sections.len() <= 1 && section.is_none() {
        return read_backend(text, false, notes);
    }
    // A keyword before the first section belongs to none: HAProxy refuses it.
    let first = sections.first().map_or(0, |(_, _, r)| r.start);
    if let Some(n) = text.lines().take(first).position(|l| !l.split('#').next().unwrap_or_default().trim().is_empty()) {
        return Err(parse_error(
            n + 1,
            "a line before the first section: HAProxy reads keywords only inside a section",
        ));
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
            // A whole haproxy.cfg has backends of every method; the one a hash places is the one meant.
            let all: Vec<&str> = text.lines().collect();
            let mut hashing = Vec::new();
            for backend in &backends {
                let inherited = defaults_of(&sections, &all, &backend.2)?;
                let balance = |range: &std::ops::Range<usize>| balance_hashes(&all, range);
                if balance(&backend.2).or_else(|| inherited.and_then(|d| balance(&d.2))).unwrap_or(false) {
                    hashing.push(*backend);
                }
            }
            match hashing[..] {
                [one] => one,
                [] => {
                    let line = backends[1].2.start + 1;
                    return Err(parse_error(
                        line,
                        format!(
                            "{} backends ({}), and none with a `balance` that hashes: ringlab reads a backend \
                             that hashes requests",
                            backends.len(),
                            names()
                        ),
                    ));
                }
                _ => {
                    let line = hashing[1].2.start + 1;
                    let hashing: Vec<&str> = hashing.iter().map(|(_, n, _)| *n).collect();
                    return Err(parse_error(
                        line,
                        format!(
                            "{} backends hash requests ({}): choose one (the backends: {})",
                            hashing.len(),
                            hashing.join(", "),
                            names()
                        ),
                    ));
                }
            }
        }
    };
    let defaults = defaults_of(&sections, &text.lines().take(lines.start + 1).collect::<Vec<_>>(), lines)?;
    let inherited = defaults.map_or(0..0, |(_, _, r)| r.clone());
    if notes.keeping() {
        for (keyword, name, range) in &sections {
            if *range == *lines || *range == inherited {
                continue;
            }
            let why = match *keyword {
                "defaults" => "in a `defaults` section this backend does not inherit".to_string(),
                k if name.is_empty() => format!("in the {k} section, not the backend read"),
                k => format!("in {k} {name}, not the backend read"),
            };
            for n in range.clone() {
                notes.pass(n + 1, why.clone());
            }
        }
    }
    // The chosen section (and its defaults) alone, on their own lines: errors keep the whole
    // text's line numbers.
    let masked: Vec<&str> = text
        .lines()
        .enumerate()
        .map(|(n, l)| if lines.contains(&n) || inherited.contains(&n) { l } else { "" })
        .collect();
    read_backend(&masked.join("\n"), defaults.is_some(), notes)
}

/// A placement from a HAProxy `backend` (or `listen`) section: `balance` (a key hash:
/// `hdr(name)`, `url_param`, `uri`, `hash`), `hash-type` with its function and `avalanche`,
/// and `server NAME ADDRESS` lines with `weight`, `id` and `disabled`. Nodes are the server
/// names, so `locate(key)` answers those; the key is the bytes HAProxy hashes (the header's
/// value, the parameter's value, ...). Without a `hash-type` line HAProxy is map-based.
///
/// Every other line is read too: a keyword known not to change the choice is skipped, any
/// other is refused with its line.
///
/// Caps: [`MAX_CONFIG_BYTES`](super::MAX_CONFIG_BYTES) of text, [`MAX_CONFIG_SERVERS`](super::MAX_CONFIG_SERVERS) servers.
pub fn from_haproxy_backend(text: &str) -> Result<Cluster, Error> {
    super::check_size(text)?;
    read_backend(text, false, &mut Lines::ignore())
}

/// A backend section, after one `defaults` section it inherits from when `inherit`.
fn read_backend(text: &str, inherit: bool, notes: &mut Lines) -> Result<Cluster, Error> {
    let mut seen_section = false;
    let mut in_defaults = false;
    let mut default_backend: Option<usize> = None;
    let mut balance_line: Option<usize> = None;
    let mut consistent = false;
    let mut hash: Option<HaproxyHash> = None;
    let mut hash_line = 0;
    let mut specs: Vec<NodeSpec> = Vec::new();
    let mut extra: Vec<ServerExtra> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    let mut mode_tcp = None;
    let mut layer7 = false;
    // An inherited `balance` that hashes nothing: refused unless the backend has its own.
    let mut plain_balance: Option<Error> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        // HAProxy starts a comment at any unquoted `#`.
        let content = raw.split('#').next().unwrap_or_default();
        let words: Vec<&str> = content.split_whitespace().collect();
        let Some(&keyword) = words.first() else {
            notes.pass(line, "a comment");
            continue;
        };
        if !HAPROXY_SECTIONS.contains(&keyword) && HAPROXY_SECTIONS.contains(&keyword.to_ascii_lowercase().as_str()) {
            return Err(parse_error(line, format!("HAProxy's keywords are lower case: `{keyword}` is not a section")));
        }
        if HAPROXY_SECTIONS.contains(&keyword) {
            if keyword == "defaults" && inherit && !seen_section && !in_defaults {
                notes.read(line, "the defaults this backend inherits");
                in_defaults = true;
                continue;
            }
            if seen_section || !specs.is_empty() || (balance_line.is_some() && !in_defaults) {
                return Err(parse_error(line, "paste one backend section only"));
            }
            if !matches!(keyword, "backend" | "listen") {
                return Err(parse_error(line, format!("a `{keyword}` section: paste a `backend` section")));
            }
            // A `listen` section is a frontend too: a `default_backend` it inherits sends
            // every request to that backend instead of its own servers.
            if let Some(at) = default_backend.filter(|_| keyword == "listen") {
                return Err(parse_error(
                    at,
                    "`default_backend` in the `defaults` of a `listen` section sends its requests to another \
                     backend: not modelled",
                ));
            }
            in_defaults = false;
            seen_section = true;
            notes.read(line, format!("the {keyword} section read"));
            notes.section(words.get(1).copied().unwrap_or_default());
            continue;
        }
        match keyword {
            "balance" => {
                // A later `balance` (the backend's own after its defaults') replaces an earlier one.
                (layer7, plain_balance) = (false, None);
                match words.get(1).copied() {
                    Some(m) if m.starts_with("hdr(") && m.ends_with(')') && m.len() > 5 && words.len() == 2 => layer7 = true,
                    Some("url_param") if words.len() == 3 => layer7 = true,
                    Some("uri") if words.len() == 2 || (words.len() == 3 && words[2] == "whole") => layer7 = true,
                    Some("hash") if words.len() == 3 => {}
                    Some(m @ ("roundrobin" | "static-rr" | "leastconn" | "first" | "random" | "source")) => {
                        let error =
                            parse_error(line, format!("`balance {m}` does not hash a key: use hdr(), url_param, uri or hash"));
                        if !in_defaults {
                            return Err(error);
                        }
                        plain_balance = Some(error);
                    }
                    Some(_) => return Err(parse_error(line, "unsupported `balance`: use hdr(NAME), url_param NAME, uri [whole] or hash EXPR (without options)")),
                    None => return Err(parse_error(line, "`balance` needs a method")),
                }
                balance_line = Some(line);
                notes.read(line, "the key hashed");
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
                notes.read(
                    line,
                    if consistent { "consistent hashing, and its hash" } else { "map-based hashing, and its hash" },
                );
            }
            "hash-balance-factor" if words.get(1).is_none_or(|f| *f != "0") => {
                return Err(parse_error(line, "`hash-balance-factor` (bounded loads) is not modelled"));
            }
            "hash-balance-factor" => notes.pass(line, "hash-balance-factor 0: no bound on loads"),
            "server" if in_defaults => {
                return Err(parse_error(line, "a `server` line in a `defaults` section: HAProxy refuses it"))
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
                let weight = if spec.weight == 1.0 { String::new() } else { format!(" of weight {}", spec.weight) };
                notes.read(line, format!("a server{weight}{}", if server.disabled { ", disabled" } else { "" }));
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
                notes.pass(line, "default-server: no weight, id or disabled, nothing that places servers");
            }
            // `mode tcp`: HAProxy cannot read a Layer 7 key, warns and balances round robin.
            // The last `mode` counts (a backend's own over its defaults').
            "mode" => {
                mode_tcp = (words.get(1) == Some(&"tcp")).then_some(line);
                notes.pass(line, "`mode`: the key is read as long as the balance can read it");
            }
            // The backend itself: every request gets a 503.
            "disabled" if words.len() == 1 => {
                return Err(parse_error(line, "this backend is `disabled`: HAProxy answers 503 to every request"))
            }
            "disabled" => return Err(parse_error(line, "`disabled` takes no argument")),
            // HAProxy 3.x: a saturated server's keys go on along the ring (`always`, the
            // default, keeps them).
            "hash-preserve-affinity" if words[1..] != ["always"] => {
                return Err(parse_error(
                    line,
                    "`hash-preserve-affinity` other than `always` moves a key off a full server, by the load at \
                     that moment: not modelled",
                ))
            }
            "hash-preserve-affinity" => notes.pass(line, "hash-preserve-affinity always: keys stay on their server"),
            // Only frontends (and `listen` sections, checked at their header) use it.
            "default_backend" if in_defaults => {
                notes.pass(line, "default_backend: for frontends, not this backend");
                default_backend = Some(line);
            }
            "cookie" => {
                return Err(parse_error(
                    line,
                    "`cookie` persistence sends a client with the cookie to its server whatever the hash picks: \
                     not modelled (without the line ringlab shows where the hash sends each key)",
                ))
            }
            k if HAPROXY_UNSUPPORTED.contains(&k) => {
                return Err(parse_error(line, format!("`{k}` changes which server is picked in ways not modelled")))
            }
            // HAProxy's prefixes: `no option ...`, `default option ...`, `no log`.
            "no" | "default" if words.get(1).is_some_and(|w| HAPROXY_NEUTRAL.contains(w)) => {
                notes.pass(line, format!("`{keyword} {}`: does not change which server is picked", words[1]))
            }
            // timeout, option, http-request, log, ...: the choice does not depend on them.
            k if HAPROXY_NEUTRAL.contains(&k) => {
                notes.pass(line, format!("`{k}`: does not change which server is picked"))
            }
            k => return Err(unknown_keyword(k, line)),
        }
    }
    let last_line = text.lines().count().max(1);
    if let Some(error) = plain_balance {
        return Err(error);
    }
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

/// A keyword ringlab does not know, refused on its line, with the placement keyword it may
/// be a typo of.
fn unknown_keyword(keyword: &str, line: usize) -> Error {
    let lower = keyword.to_ascii_lowercase();
    let hint = HAPROXY_PLACEMENT
        .iter()
        .find(|k| edit_distance(&lower, k) <= 2)
        .map_or_else(String::new, |k| format!(" (`{k}`?)"));
    parse_error(
        line,
        format!(
            "unknown keyword {keyword:?}{hint} in a backend section: ringlab skips no line it does not know, as it \
             could change which server is picked (HAProxy refuses unknown keywords too)"
        ),
    )
}

/// Levenshtein's distance between two texts, byte by byte.
fn edit_distance(a: &str, b: &str) -> usize {
    let b = b.as_bytes();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.as_bytes().iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &y) in b.iter().enumerate() {
            let next = (diagonal + usize::from(x != y)).min(row[j] + 1).min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
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
            // HAProxy 3.x: the server's points from its id (the default) or its address.
            "hash-key" if argument == Some("id") => i += 2,
            "hash-key" => {
                return Err(parse_error(
                    line,
                    "`hash-key` other than `id` (the default) places the points by the server's address: not modelled",
                ))
            }
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
