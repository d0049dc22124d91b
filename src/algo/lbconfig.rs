//! Placements read from a load balancer's own config: an nginx `upstream` block or a HAProxy
//! `backend` section, as pasted by the user. Only what changes the choice of server is
//! modelled (the hash line, weights, `down`/`disabled`, HAProxy ids); parameters that do
//! not (timeouts, health checks, `max_fails`, `mode`, ...) are accepted and ignored.
//! Anything else, and anything malformed, is an [`Error::Parse`] naming the 1-based line,
//! and nothing is built.
//!
//! ```
//! use ringlab::algo::{from_haproxy_backend, from_nginx_upstream};
//! let nginx = from_nginx_upstream("upstream app {\n  hash $request_uri consistent;\n  server 10.0.0.1:80 weight=2;\n  server 10.0.0.2:80 down;\n}")?;
//! assert_eq!(nginx.locate("/index.html")?, "10.0.0.1:80");
//! let haproxy = from_haproxy_backend("backend app\n  balance hdr(X-User)\n  hash-type consistent\n  server web1 10.0.0.1:80\n  server web2 10.0.0.2:80 id 7")?;
//! assert!(["web1", "web2"].contains(&haproxy.locate("alice")?));
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::haproxy::{Haproxy, HaproxyFunction, HaproxyHash, ServerExtra, MAX_ID, MAX_WEIGHT};
use super::nginx::Nginx;
use super::{Algorithm, Cluster, Options, Placement};
use crate::{Error, NodeSpec};

/// Longest config text accepted, in bytes.
pub const MAX_CONFIG_BYTES: usize = 64 * 1024;
/// Most `server` lines in one config.
pub const MAX_CONFIG_SERVERS: usize = 512;

fn parse_error(line: usize, message: impl Into<String>) -> Error {
    Error::Parse { line, message: message.into() }
}

fn check_size(text: &str) -> Result<(), Error> {
    if text.len() > MAX_CONFIG_BYTES {
        return Err(Error::TooLarge {
            what: "config text (bytes)".into(),
            max: MAX_CONFIG_BYTES as u64,
            got: text.len() as u64,
        });
    }
    Ok(())
}

fn check_server_count(count: usize, line: usize) -> Result<(), Error> {
    if count > MAX_CONFIG_SERVERS {
        return Err(parse_error(line, format!("at most {MAX_CONFIG_SERVERS} server lines are read")));
    }
    Ok(())
}

/// An error from building the placement, put on the line of the server it concerns.
fn on_line(line: usize, error: Error) -> Error {
    match error {
        Error::Parse { .. } => error,
        other => parse_error(line, other.to_string()),
    }
}

// ------------------------------------------------------------------------------ nginx

#[derive(Debug, PartialEq)]
enum Token {
    Word(String),
    Semicolon,
    Open,
    Close,
}

/// nginx's config lexis: words (quotes allowed, `\` escapes inside them), `;`, `{`, `}`,
/// and `#` comments to the end of the line. Each token comes with its line.
fn nginx_tokens(text: &str) -> Result<Vec<(Token, usize)>, Error> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    let mut line = 1;
    while let Some(&c) = chars.peek() {
        match c {
            '\n' => {
                line += 1;
                chars.next();
            }
            c if c.is_whitespace() => {
                chars.next();
            }
            '#' => {
                while chars.peek().is_some_and(|&c| c != '\n') {
                    chars.next();
                }
            }
            ';' | '{' | '}' => {
                chars.next();
                let token = match c {
                    ';' => Token::Semicolon,
                    '{' => Token::Open,
                    _ => Token::Close,
                };
                out.push((token, line));
            }
            '"' | '\'' => {
                let (quote, start) = (c, line);
                chars.next();
                let mut word = String::new();
                loop {
                    match chars.next() {
                        None => return Err(parse_error(start, "a quoted string is not closed")),
                        Some(q) if q == quote => break,
                        Some('\\') => {
                            if let Some(e) = chars.next() {
                                line += usize::from(e == '\n');
                                word.push(e);
                            }
                        }
                        Some(other) => {
                            line += usize::from(other == '\n');
                            word.push(other);
                        }
                    }
                }
                out.push((Token::Word(word), start));
            }
            _ => {
                let mut word = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() || matches!(c, ';' | '{' | '}' | '"' | '\'') {
                        break;
                    }
                    word.push(c);
                    chars.next();
                }
                out.push((Token::Word(word), line));
            }
        }
    }
    Ok(out)
}

/// Directives inside `upstream` that do not change which server a hash picks.
const NGINX_IGNORED: [&str; 5] = ["keepalive", "keepalive_requests", "keepalive_time", "keepalive_timeout", "zone"];
/// Balancing methods other than `hash`.
const NGINX_OTHER_METHODS: [&str; 6] = ["ip_hash", "least_conn", "random", "least_time", "sticky", "queue"];

/// A placement from the text of an nginx `upstream name { ... }` block (or just its body):
/// `hash $key [consistent];` and `server` lines. Nodes are the servers' address texts as
/// written, so `locate(key)` answers those; the key is the value of the hash expression.
///
/// Caps: [`MAX_CONFIG_BYTES`] of text, [`MAX_CONFIG_SERVERS`] servers. One address per
/// `server` line is assumed (a host name that resolves to several addresses makes several
/// peers in nginx), and two lines with the same address are refused.
pub fn from_nginx_upstream(text: &str) -> Result<Cluster, Error> {
    check_size(text)?;
    let tokens = nginx_tokens(text)?;
    let mut statements: Vec<(Vec<String>, usize)> = Vec::new();
    let mut i = 0;
    let last_line = text.lines().count().max(1);
    let mut wrapped = false;
    if matches!(tokens.first(), Some((Token::Word(w), _)) if w == "upstream") {
        let line = tokens[0].1;
        match (tokens.get(1), tokens.get(2)) {
            (Some((Token::Word(_), _)), Some((Token::Open, _))) => i = 3,
            _ => return Err(parse_error(line, "expected `upstream NAME {`")),
        }
        wrapped = true;
    }
    let mut current: Vec<String> = Vec::new();
    let mut start = 0;
    let mut closed = false;
    while i < tokens.len() {
        let (token, line) = (&tokens[i].0, tokens[i].1);
        if closed {
            return Err(parse_error(line, "text after the end of the upstream block"));
        }
        match token {
            Token::Word(w) => {
                if current.is_empty() {
                    start = line;
                }
                current.push(w.clone());
            }
            Token::Semicolon if current.is_empty() => return Err(parse_error(line, "unexpected `;`")),
            Token::Semicolon => statements.push((std::mem::take(&mut current), start)),
            Token::Open => return Err(parse_error(line, "unexpected `{`: only upstream's own directives belong here")),
            Token::Close if wrapped && current.is_empty() => closed = true,
            Token::Close if wrapped => return Err(parse_error(start, "missing `;` at the end of this directive")),
            Token::Close => return Err(parse_error(line, "unexpected `}`")),
        }
        i += 1;
    }
    if !current.is_empty() {
        return Err(parse_error(start, "missing `;` at the end of this directive"));
    }
    if wrapped && !closed {
        return Err(parse_error(last_line, "the upstream block is not closed with `}`"));
    }

    let mut consistent: Option<(bool, usize)> = None;
    let mut specs: Vec<NodeSpec> = Vec::new();
    let mut down: Vec<bool> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    for (words, line) in &statements {
        let line = *line;
        match words[0].as_str() {
            "hash" => {
                if consistent.is_some() {
                    return Err(parse_error(line, "a second `hash` line"));
                }
                consistent = Some(match &words[1..] {
                    [_key] => (false, line),
                    [_key, c] if c == "consistent" => (true, line),
                    [_key, other] => {
                        return Err(parse_error(
                            line,
                            format!("`hash` takes only `consistent` after the key (got {other:?})"),
                        ))
                    }
                    _ => return Err(parse_error(line, "`hash` needs a key, e.g. `hash $request_uri consistent;`")),
                });
            }
            "server" => {
                let Some(address) = words.get(1) else {
                    return Err(parse_error(line, "`server` needs an address"));
                };
                nginx_address(address).map_err(|why| parse_error(line, format!("invalid address {address:?}: {why}")))?;
                if words[2..].iter().any(|p| p == "backup") {
                    // `hash` turns `backup` off for the servers after it; the ones before stay
                    // backups, which the hash never picks.
                    if consistent.is_some() {
                        return Err(parse_error(line, "`backup` after `hash`: nginx refuses it (\"invalid parameter\")"));
                    }
                    continue;
                }
                let mut weight = 1u64;
                let mut is_down = false;
                for param in &words[2..] {
                    let (name, value) = param.split_once('=').unwrap_or((param, ""));
                    match name {
                        "weight" => {
                            weight = nginx_number(value).filter(|&w| w > 0).ok_or_else(|| {
                                parse_error(line, format!("invalid weight {value:?}: a whole number from 1"))
                            })?;
                        }
                        "down" if value.is_empty() && !param.contains('=') => is_down = true,
                        "max_fails" | "max_conns" if nginx_number(value).is_some() => {}
                        // `ngx_parse_time`: digits and units (`1m30s`, `10`).
                        "fail_timeout"
                            if value.starts_with(|c: char| c.is_ascii_digit())
                                && value.chars().all(|c| c.is_ascii_digit() || "yMwdhms".contains(c)) => {}
                        _ => return Err(parse_error(line, format!("unsupported server parameter {param:?}"))),
                    }
                }
                if specs.iter().any(|s| &s.name == address) {
                    return Err(parse_error(line, format!("server {address} is listed twice")));
                }
                specs.push(NodeSpec::new(address.clone()).weight(weight as f64));
                down.push(is_down);
                lines.push(line);
                check_server_count(specs.len(), line)?;
            }
            other if NGINX_IGNORED.contains(&other) => {}
            other if NGINX_OTHER_METHODS.contains(&other) => {
                return Err(parse_error(
                    line,
                    format!("`{other}` balancing is not modelled: use `hash $key [consistent];`"),
                ))
            }
            other => return Err(parse_error(line, format!("unknown directive {other:?} in an upstream block"))),
        }
    }
    let Some((consistent, hash_line)) = consistent else {
        return Err(parse_error(1, "no `hash $key [consistent];` line: nginx would balance round robin"));
    };
    if specs.is_empty() {
        return Err(parse_error(last_line, "no `server` lines"));
    }
    let mut nginx = Nginx::new(consistent, specs).map_err(|e| on_line(hash_line, e))?;
    for (idx, &is_down) in down.iter().enumerate() {
        if is_down {
            nginx.set_down(idx, true).map_err(|e| on_line(lines[idx], e))?;
        }
    }
    let algorithm = if consistent { Algorithm::NginxConsistent } else { Algorithm::NginxHash };
    Ok(Cluster::from_placement(Box::new(nginx), Options::new(algorithm)))
}

/// A number as `ngx_atoi` reads it: digits only (no sign).
fn nginx_number(text: &str) -> Option<u64> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.parse().ok()).flatten()
}

/// What `ngx_parse_url` takes for a `server` line: `unix:PATH`, `[IPv6]` or a host name or
/// IPv4 address, each with an optional `:port` from 1 to 65535.
fn nginx_address(address: &str) -> Result<(), &'static str> {
    if address.len() >= 5 && address.as_bytes()[..5].eq_ignore_ascii_case(b"unix:") {
        return if address.len() > 5 { Ok(()) } else { Err("no socket path after `unix:`") };
    }
    let (host, port) = match address.strip_prefix('[') {
        Some(rest) => {
            let (inside, after) = rest.split_once(']').ok_or("an IPv6 address needs its closing `]`")?;
            if inside.is_empty() || !inside.chars().all(|c| c.is_ascii_hexdigit() || ":.%".contains(c) || c.is_ascii_alphanumeric()) {
                return Err("not an IPv6 address between the brackets");
            }
            match after {
                "" => ("v6", None),
                _ => ("v6", Some(after.strip_prefix(':').ok_or("text after the `]` that is not a `:port`")?)),
            }
        }
        None => match address.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (address, None),
        },
    };
    if host.is_empty() || !host.chars().all(|c| c.is_ascii_alphanumeric() || ".-_".contains(c)) {
        return Err("not a host name or address (a URL scheme, a path or a stray character?)");
    }
    match port.map(|p| nginx_number(p).filter(|n| (1..=65_535).contains(n))) {
        Some(None) => Err("the port must be a number from 1 to 65535"),
        _ => Ok(()),
    }
}

// ---------------------------------------------------------------------------- HAProxy

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

/// A placement from a HAProxy `backend` (or `listen`) section: `balance` (a key hash:
/// `hdr(name)`, `url_param`, `uri`, `hash`), `hash-type` with its function and `avalanche`,
/// and `server NAME ADDRESS` lines with `weight`, `id` and `disabled`. Nodes are the server
/// names, so `locate(key)` answers those; the key is the bytes HAProxy hashes (the header's
/// value, the parameter's value, ...). Without a `hash-type` line HAProxy is map-based.
///
/// Caps: [`MAX_CONFIG_BYTES`] of text, [`MAX_CONFIG_SERVERS`] servers.
pub fn from_haproxy_backend(text: &str) -> Result<Cluster, Error> {
    check_size(text)?;
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
                    if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) && port.parse::<u32>().map_or(true, |p| p > 65_535) {
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
        return Err(parse_error(line, "`mode tcp` with a Layer 7 `balance`: HAProxy cannot read the key and balances round robin"));
    }
    if specs.is_empty() {
        return Err(parse_error(last_line, "no `server` lines"));
    }
    let haproxy = Haproxy::with_extra(consistent, hash, specs, extra).map_err(|e| {
        let line = match &e {
            Error::InvalidOption(m) if m.contains("id") => lines.first().copied().unwrap_or(balance_line),
            _ => hash_line.max(balance_line),
        };
        on_line(line, e)
    })?;
    let mut options = Options::new(if consistent { Algorithm::HaproxyConsistent } else { Algorithm::HaproxyMapBased });
    options.haproxy_hash = hash;
    Ok(Cluster::from_placement(Box::new(haproxy), options))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nginx_tokens_keep_lines_and_quotes() {
        let tokens = nginx_tokens("a \"b c\" # d;\n;{}").unwrap();
        assert_eq!(
            tokens,
            vec![
                (Token::Word("a".into()), 1),
                (Token::Word("b c".into()), 1),
                (Token::Semicolon, 2),
                (Token::Open, 2),
                (Token::Close, 2)
            ]
        );
    }
}
