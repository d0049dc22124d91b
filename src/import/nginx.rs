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

use super::{check_server_count, on_line, parse_error, ConfigKind, LineStatus, Lines};
use crate::algo::Cluster;
use crate::{Error, NodeSpec};
use std::borrow::Cow;

pub(crate) const KIND: ConfigKind = ConfigKind {
    kind: "nginx",
    label: "nginx upstream block",
    example: "upstream cache {\n    hash $request_uri consistent;\n    server 10.0.0.1:11211;\n    server 10.0.0.2:11211 weight=2;\n    server 10.0.0.3:11211 down;\n}\n",
    read: |text, options, lines| read_conf(text, options.section.as_deref(), lines),
    options: super::any_options,
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
/// and `#` comments to the end of the line. Each token comes with its line. Comments are
/// noted as passed over.
fn nginx_tokens(text: &str, notes: &mut Lines) -> Result<Vec<(Token, usize)>, Error> {
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
                notes.pass(line, "a comment");
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
                    if line > start {
                        // A value over several lines: its directive's note covers it, if any.
                        notes.pass(line, "the rest of a quoted value");
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
    let tokens = nginx_tokens(text, &mut Lines::ignore())?;
    from_tokens(&tokens, text.lines().count().max(1), &mut Lines::ignore())
}

/// A placement from an upstream block, or from a whole `nginx.conf`: the `upstream` block
/// called `section`, or the only one, or the only one that hashes requests (a text with
/// several that hash names them and asks which).
/// Line numbers in errors are the whole text's.
pub fn from_nginx_conf(text: &str, section: Option<&str>) -> Result<Cluster, Error> {
    read_conf(text, section, &mut Lines::ignore())
}

fn read_conf(text: &str, section: Option<&str>, notes: &mut Lines) -> Result<Cluster, Error> {
    super::check_size(text)?;
    let tokens = nginx_tokens(text, notes)?;
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
        if let Some((name, _)) = blocks.first() {
            notes.section(name);
        }
        return from_tokens(&tokens, text.lines().count().max(1), notes);
    }
    let names = || blocks.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ");
    let (name, range) = match section {
        Some(wanted) => blocks
            .iter()
            .find(|(name, _)| name == wanted)
            .ok_or_else(|| parse_error(1, format!("no upstream named {wanted:?} (the upstreams: {})", names())))?,
        None if blocks.len() == 1 => &blocks[0],
        None => {
            // A whole nginx.conf has upstreams of every method; the one a hash places is the one meant.
            let hashing: Vec<_> = blocks.iter().filter(|(_, range)| hashes(&tokens[range.clone()])).collect();
            match hashing[..] {
                [one] => one,
                [] => {
                    let line = tokens[blocks[1].1.start].1;
                    return Err(parse_error(
                        line,
                        format!(
                            "{} upstream blocks ({}), and none with a `hash` line: ringlab reads an upstream \
                             that hashes requests",
                            blocks.len(),
                            names()
                        ),
                    ));
                }
                _ => {
                    let line = tokens[hashing[1].1.start].1;
                    let hashing: Vec<&str> = hashing.iter().map(|(n, _)| n.as_str()).collect();
                    return Err(parse_error(
                        line,
                        format!(
                            "{} upstream blocks hash requests ({}): choose one (the upstreams: {})",
                            hashing.len(),
                            hashing.join(", "),
                            names()
                        ),
                    ));
                }
            }
        }
    };
    notes.section(name);
    if notes.keeping() {
        pass_outside(&tokens, &blocks, range, notes);
    }
    from_tokens(&tokens[range.clone()], tokens[range.end - 1].1, notes)
}

/// Whether an `upstream NAME { ... }` block's tokens hold a `hash` directive of its own
/// (not one inside a nested block).
fn hashes(block: &[(Token, usize)]) -> bool {
    let mut depth = 0usize;
    let mut at_start = true;
    for (token, _) in block {
        match token {
            Token::Open => (depth, at_start) = (depth + 1, true),
            Token::Close => (depth, at_start) = (depth.saturating_sub(1), true),
            Token::Semicolon => at_start = true,
            Token::Word(w) if at_start && depth == 1 && w == "hash" => return true,
            Token::Word(_) => at_start = false,
        }
    }
    false
}

/// Notes the tokens outside the block read as passed over: the other upstream blocks, and
/// the rest of the `nginx.conf` (`http`, `server`, `location`...).
fn pass_outside(
    tokens: &[(Token, usize)],
    blocks: &[(String, std::ops::Range<usize>)],
    read: &std::ops::Range<usize>,
    notes: &mut Lines,
) {
    let mut next_block = blocks.iter().peekable();
    let mut i = 0;
    while i < tokens.len() {
        match next_block.peek() {
            Some((_, range)) if range.start == i => {
                if range != read {
                    let (first, last) = (tokens[range.start].1, tokens[range.end - 1].1);
                    let why: Cow<'static, str> =
                        format!("in upstream {}, not the one read", next_block.peek().map_or("", |b| b.0.as_str()))
                            .into();
                    notes.span(first, last, LineStatus::PassedOver, why.clone());
                }
                i = range.end;
                next_block.next();
            }
            _ => {
                notes.pass(tokens[i].1, "outside the upstream block read");
                i += 1;
            }
        }
    }
}

/// The names of the `upstream` blocks of a text (an `nginx.conf`, or one block), in order.
pub fn nginx_upstreams(text: &str) -> Result<Vec<String>, Error> {
    super::check_size(text)?;
    Ok(upstream_blocks(&nginx_tokens(text, &mut Lines::ignore())?)?.into_iter().map(|(name, _)| name).collect())
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
fn from_tokens(tokens: &[(Token, usize)], last_line: usize, notes: &mut Lines) -> Result<Cluster, Error> {
    // Each directive's words, with its first line and the line of its `;`.
    let mut statements: Vec<(Vec<String>, usize, usize)> = Vec::new();
    let mut i = 0;
    let mut wrapped = false;
    if matches!(tokens.first(), Some((Token::Word(w), _)) if w == "upstream") {
        let line = tokens[0].1;
        match (tokens.get(1), tokens.get(2)) {
            (Some((Token::Word(_), _)), Some((Token::Open, open))) => {
                let why = Cow::Borrowed("opens the upstream block read");
                notes.span(line, *open, LineStatus::Read, why.clone());
                i = 3;
            }
            _ => return Err(parse_error(line, "expected `upstream NAME {`")),
        }
        wrapped = true;
    }
    let mut current: Vec<String> = Vec::new();
    let mut start = 0;
    // The closing `}`'s line, noted after the directives it closes.
    let mut closed: Option<usize> = None;
    while i < tokens.len() {
        let (token, line) = (&tokens[i].0, tokens[i].1);
        if closed.is_some() {
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
            Token::Semicolon => statements.push((std::mem::take(&mut current), start, line)),
            Token::Open => return Err(parse_error(line, "unexpected `{`: only upstream's own directives belong here")),
            Token::Close if wrapped && current.is_empty() => closed = Some(line),
            Token::Close if wrapped => return Err(parse_error(start, "missing `;` at the end of this directive")),
            Token::Close => return Err(parse_error(line, "unexpected `}`")),
        }
        i += 1;
    }
    if !current.is_empty() {
        return Err(parse_error(start, "missing `;` at the end of this directive"));
    }
    if wrapped && closed.is_none() {
        return Err(parse_error(last_line, "the upstream block is not closed with `}`"));
    }

    let mut consistent: Option<(bool, usize)> = None;
    let mut specs: Vec<NodeSpec> = Vec::new();
    let mut down: Vec<bool> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    for (words, line, end) in &statements {
        let (line, end) = (*line, *end);
        let mut note = |status, why: Cow<'static, str>| notes.span(line, end, status, why.clone());
        match words[0].as_str() {
            "hash" => {
                if consistent.is_some() {
                    return Err(parse_error(line, "a second `hash` line"));
                }
                consistent = Some(match &words[1..] {
                    [key] => {
                        note(LineStatus::Read, format!("the hash of {key}, without `consistent`: modulo").into());
                        (false, line)
                    }
                    [key, c] if c == "consistent" => {
                        note(LineStatus::Read, format!("the hash of {key}, consistent: ketama points").into());
                        (true, line)
                    }
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
                    note(LineStatus::PassedOver, "a backup server: the hash never picks it".into());
                    continue;
                }
                if specs.iter().any(|s| &s.name == address) {
                    return Err(parse_error(line, format!("server {address} is listed twice")));
                }
                note(
                    LineStatus::Read,
                    match (weight, is_down) {
                        (1, false) => "a server".into(),
                        (1, true) => "a server, down".into(),
                        (w, false) => format!("a server of weight {w}").into(),
                        (w, true) => format!("a server of weight {w}, down").into(),
                    },
                );
                specs.push(NodeSpec::new(address.clone()).weight(weight as f64));
                down.push(is_down);
                lines.push(line);
                check_server_count(specs.len(), line)?;
            }
            other if NGINX_IGNORED.contains(&other) => note(
                LineStatus::PassedOver,
                format!("`{other}`: connections to the servers, not which one is picked").into(),
            ),
            other if NGINX_OTHER_METHODS.contains(&other) => {
                return Err(parse_error(
                    line,
                    format!("`{other}` balancing is not modelled: use `hash $key [consistent];`"),
                ))
            }
            other => return Err(parse_error(line, format!("unknown directive {other:?} in an upstream block"))),
        }
    }
    if let Some(line) = closed {
        notes.read(line, "closes the upstream block read");
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
        let tokens = nginx_tokens("a \"b c\" # d;\n;{}", &mut Lines::ignore()).unwrap();
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
