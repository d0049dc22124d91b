//! An nginx `upstream` block, as pasted by the user: the `hash $key [consistent];` line,
//! `server` lines with `weight=` and `down`. Only what changes the choice of server is
//! modelled; parameters that do not (timeouts, `max_fails`, ...) are accepted and ignored.
//! Anything else, and anything malformed, is an [`Error::Parse`] naming the 1-based line,
//! and nothing is built.
//!
//! ```
//! use ringlab::import::nginx::from_nginx_upstream;
//! let nginx = from_nginx_upstream("upstream app {\n  hash $request_uri consistent;\n  server 10.0.0.1:80 weight=2;\n  server 10.0.0.2:80 down;\n}")?;
//! assert_eq!(nginx.locate("/index.html")?, "10.0.0.1:80");
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::{check_server_count, on_line, parse_error, ConfigKind};
use crate::algo::Cluster;
use crate::{Error, NodeSpec};

pub(crate) const KIND: ConfigKind = ConfigKind {
    kind: "nginx",
    label: "nginx upstream block",
    example: "upstream cache {\n    hash $request_uri consistent;\n    server 10.0.0.1:11211;\n    server 10.0.0.2:11211 weight=2;\n    server 10.0.0.3:11211 down;\n}\n",
    read: |text, options| from_nginx_conf(text, options.section.as_deref()),
    sections: nginx_upstreams,
};

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
/// Caps: [`MAX_CONFIG_BYTES`](super::MAX_CONFIG_BYTES) of text, [`MAX_CONFIG_SERVERS`](super::MAX_CONFIG_SERVERS) servers. One address per
/// `server` line is assumed (a host name that resolves to several addresses makes several
/// peers in nginx), and two lines with the same address are refused.
pub fn from_nginx_upstream(text: &str) -> Result<Cluster, Error> {
    super::check_size(text)?;
    let tokens = nginx_tokens(text)?;
    from_tokens(&tokens, text.lines().count().max(1))
}

/// A placement from an upstream block, or from a whole `nginx.conf`: the `upstream` block
/// called `section`, or the only one (a text with several names them and asks which).
/// Line numbers in errors are the whole text's.
pub fn from_nginx_conf(text: &str, section: Option<&str>) -> Result<Cluster, Error> {
    super::check_size(text)?;
    let tokens = nginx_tokens(text)?;
    let blocks = upstream_blocks(&tokens)?;
    let whole = blocks.len() == 1 && blocks[0].1 == (0..tokens.len());
    if blocks.is_empty() && tokens.iter().any(|(t, _)| *t == Token::Open) {
        let line = tokens.iter().find(|(t, _)| *t == Token::Open).map_or(1, |(_, l)| *l);
        return Err(parse_error(
            line,
            "no `upstream NAME { ... }` block in this text: its servers are what ringlab reads",
        ));
    }
    if blocks.is_empty() || (whole && section.is_none()) {
        return from_tokens(&tokens, text.lines().count().max(1));
    }
    let names = || blocks.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ");
    let (_, range) = match section {
        Some(wanted) => blocks
            .iter()
            .find(|(name, _)| name == wanted)
            .ok_or_else(|| parse_error(1, format!("no upstream named {wanted:?} (the upstreams: {})", names())))?,
        None if blocks.len() == 1 => &blocks[0],
        None => {
            let line = tokens[blocks[1].1.start].1;
            return Err(parse_error(line, format!("{} upstream blocks ({}): choose one", blocks.len(), names())));
        }
    };
    from_tokens(&tokens[range.clone()], tokens[range.end - 1].1)
}

/// The names of the `upstream` blocks of a text (an `nginx.conf`, or one block), in order.
pub fn nginx_upstreams(text: &str) -> Result<Vec<String>, Error> {
    super::check_size(text)?;
    Ok(upstream_blocks(&nginx_tokens(text)?)?.into_iter().map(|(name, _)| name).collect())
}

/// Every `upstream NAME { ... }` block at any depth (nginx allows them in `http` and
/// `stream`), with its tokens' range, `upstream` to its closing `}`.
fn upstream_blocks(tokens: &[(Token, usize)]) -> Result<Vec<(String, std::ops::Range<usize>)>, Error> {
    let mut blocks = Vec::new();
    let mut i = 0;
    // Only at the start of a directive: `upstream` can be a value elsewhere (`set $x upstream;`).
    let mut at_start = true;
    while i < tokens.len() {
        match (&tokens[i].0, tokens.get(i + 1).map(|t| &t.0), tokens.get(i + 2).map(|t| &t.0)) {
            (Token::Word(w), Some(Token::Word(name)), Some(Token::Open)) if at_start && w == "upstream" => {
                let mut depth = 0usize;
                let end = (i + 2..tokens.len()).find(|&j| {
                    match tokens[j].0 {
                        Token::Open => depth += 1,
                        Token::Close => depth -= 1,
                        _ => {}
                    }
                    depth == 0
                });
                let Some(end) = end else {
                    return Err(parse_error(
                        tokens[i].1,
                        format!("the upstream block {name:?} is not closed with `}}`"),
                    ));
                };
                blocks.push((name.clone(), i..end + 1));
                i = end + 1;
                at_start = true;
                continue;
            }
            (Token::Word(_), _, _) => at_start = false,
            _ => at_start = true,
        }
        i += 1;
    }
    Ok(blocks)
}

/// A placement from an upstream block's tokens (or its body's); `last_line` is where an
/// unclosed block is reported.
fn from_tokens(tokens: &[(Token, usize)], last_line: usize) -> Result<Cluster, Error> {
    let mut statements: Vec<(Vec<String>, usize)> = Vec::new();
    let mut i = 0;
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
                nginx_address(address)
                    .map_err(|why| parse_error(line, format!("invalid address {address:?}: {why}")))?;
                let backup = words[2..].iter().any(|p| p == "backup");
                if backup && consistent.is_some() {
                    return Err(parse_error(line, "`backup` after `hash`: nginx refuses it (\"invalid parameter\")"));
                }
                let mut weight = 1u64;
                let mut is_down = false;
                // Every parameter is read, a backup's too (nginx refuses a line with an unknown one).
                for param in &words[2..] {
                    let (name, value) = param.split_once('=').unwrap_or((param, ""));
                    match name {
                        "backup" if !param.contains('=') => {}
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
                if backup {
                    // `hash` turns `backup` off for the servers after it; the ones before stay
                    // backups, which the hash never picks.
                    continue;
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
    let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let mut nginx = crate::algo::balancers::nginx::upstream(consistent, specs).map_err(|e| on_line(hash_line, e))?;
    for (idx, &is_down) in down.iter().enumerate() {
        if is_down {
            nginx.set_down(&names[idx], true).map_err(|e| on_line(lines[idx], e))?;
        }
    }
    Ok(nginx)
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
            if inside.is_empty()
                || !inside.chars().all(|c| c.is_ascii_hexdigit() || ":.%".contains(c) || c.is_ascii_alphanumeric())
            {
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
