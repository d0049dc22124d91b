//! Memcached server lists: libmemcached's (`host:port` or `host:port weight` lines, as
//! libmemcached and twemproxy list them), or libketama's server file, read exactly as
//! libketama reads it ([`parse_libketama_servers`]). Which algorithm places the servers is
//! the kind's `algorithm` option: any entry that reads server lists
//! ([`Extras::server_list`](crate::algo::Extras::server_list)), by default the first one that
//! reads libmemcached's.
//!
//! ```
//! use ringlab::algo::Algorithm;
//! use ringlab::import::memcached::from_memcached_servers;
//! let list = "# cache tier\n10.0.1.1:11211 600\n10.0.1.2:11211\t300\n";
//! let ketama = from_memcached_servers(list, Algorithm::Libketama)?;
//! assert_eq!(ketama.nodes()[0].weight, 600.0);
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::{parse_error, ConfigKind, Lines};
use crate::algo::{Algorithm, Cluster, Options, ServerList};
use crate::{Error, NodeSpec};
use std::collections::BTreeMap;

pub(crate) const KIND: ConfigKind = ConfigKind {
    kind: "memcached",
    label: "memcached server list (libmemcached)",
    example: "# host:port [weight], as libmemcached and twemproxy list servers\n10.0.0.1:11211\n10.0.0.2:11211 2\n10.0.0.3:11211\n",
    read: |text, options, lines| read(text, options.algorithm.unwrap_or_else(default_algorithm), lines),
    options: |options| options.algorithm.map_or(Ok(()), |a| server_list(a).map(|_| ())),
    sections: super::no_sections,
};

/// The algorithms that read server lists.
pub fn algorithms() -> impl Iterator<Item = Algorithm> {
    Algorithm::ALL.into_iter().filter(|a| a.entry().extras.server_list.is_some())
}

/// The first catalog entry that reads libmemcached's server lists.
fn default_algorithm() -> Algorithm {
    algorithms().find(|a| a.entry().extras.server_list == Some(ServerList::Libmemcached)).unwrap_or_default()
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
    parse_list(text, &mut Lines::ignore())
}

fn parse_list(text: &str, notes: &mut Lines) -> Result<Vec<MemcachedServer>, Error> {
    super::check_size(text)?;
    let mut servers: Vec<MemcachedServer> = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or_default().trim();
        let content = content.strip_prefix("- ").map_or(content, str::trim);
        if content.is_empty() {
            notes.pass(line, "a comment");
            continue;
        }
        if content.contains(',') {
            // libmemcached's own `memcached_servers_parse` splits at commas; read here, `a,b`
            // would be one server named "a,b".
            return Err(parse_error(
                line,
                "one server a line: put each of the comma-separated servers on its own line",
            ));
        }
        let fields: Vec<&str> = content.split_whitespace().collect();
        let (address, weight) = match fields.as_slice() {
            [address] => colon_weight(address).map_err(|why| parse_error(line, why))?,
            [address, weight] => match colon_weight(address).map_err(|why| parse_error(line, why))? {
                (_, Some(_)) => return Err(parse_error(line, "two weights: one after a `:` and one after a space")),
                (address, None) => (address, Some(*weight)),
            },
            _ => {
                return Err(parse_error(
                    line,
                    format!(
                    "expected `host:port` or `host:port weight`, found {} fields (twemproxy server names are not read)",
                    fields.len()
                ),
                ))
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
        notes.read(line, server_note(weight));
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
        _ => Err(format!(
            "{address:?} has more `:` than `host:port:weight` (write an IPv6 address in brackets: [::1]:11211)"
        )),
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
    parse_libketama(text, &mut Lines::ignore())
}

fn parse_libketama(text: &str, notes: &mut Lines) -> Result<Vec<MemcachedServer>, Error> {
    super::check_size(text)?;
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
            notes.pass(
                this_line,
                if piece.first() == Some(&b'#') { "a comment" } else { "one character: libketama skips it" },
            );
            continue;
        }
        let mut tokens = piece.split(|&b| b == b' ' || b == b'\t').filter(|t| !t.is_empty());
        let fail = |why: String| parse_error(this_line, format!("{why}: libketama refuses the whole file"));
        let Some(address) = tokens.next() else {
            return Err(parse_error(
                this_line,
                "a line of only spaces and tabs: libketama crashes on it (strtok finds no token)",
            ));
        };
        let Some(weight) = tokens.next() else {
            return Err(fail(format!(
                "no weight after {:?} (\"Unable to find delimiter\")",
                String::from_utf8_lossy(address)
            )));
        };
        // strncpy(mem, tok, strlen(tok) - 1): the last character is dropped.
        let kept = &weight[..weight.len() - 1];
        let shown = String::from_utf8_lossy(weight);
        let memory = match strtol(kept) {
            None => {
                return Err(fail(format!(
                    "the weight {shown:?} read without its last character is not a number (\"Invalid memory value\")"
                )))
            }
            Some(0) => return Err(fail(format!("the weight {shown:?} read without its last character is 0"))),
            Some(m) if m < 0 => {
                return Err(parse_error(
                    this_line,
                    format!("the weight {shown:?} is negative: libketama takes it as a huge unsigned number"),
                ))
            }
            Some(m) => m,
        };
        let weight = u32::try_from(memory).map_err(|_| {
            parse_error(this_line, format!("the weight {shown:?} is over {} (ringlab's largest weight here)", u32::MAX))
        })?;
        let address = String::from_utf8_lossy(address).into_owned();
        add_server(&mut servers, &mut seen, MemcachedServer { line: this_line, address, weight })?;
        notes.read(this_line, server_note(weight));
    }
    if servers.is_empty() {
        return Err(parse_error(1, "no server in the file (libketama: \"No valid server definitions\")"));
    }
    Ok(servers)
}

fn server_note(weight: u32) -> std::borrow::Cow<'static, str> {
    match weight {
        1 => "a server".into(),
        w => format!("a server of weight {w}").into(),
    }
}

/// Adds a server read from line `server.line` of a list, refusing an address listed before and
/// one server past the node cap.
fn add_server(
    servers: &mut Vec<MemcachedServer>,
    seen: &mut BTreeMap<String, usize>,
    server: MemcachedServer,
) -> Result<(), Error> {
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

/// A placement from a memcached server list, servers in the order listed, by `algorithm`:
/// read as that algorithm's entry reads lists ([`ServerList`]: libketama's server file, or a
/// libmemcached server list).
pub fn from_memcached_servers(text: &str, algorithm: Algorithm) -> Result<Cluster, Error> {
    read(text, algorithm, &mut Lines::ignore())
}

/// How `algorithm` reads server lists, or its refusal as the kind's option.
fn server_list(algorithm: Algorithm) -> Result<ServerList, Error> {
    algorithm.entry().extras.server_list.ok_or_else(|| {
        let names: Vec<&str> = algorithms().map(|a| a.name()).collect();
        Error::invalid_option(
            "algorithm",
            format!("a memcached server list is for {} (not {})", names.join(", "), algorithm.name()),
        )
    })
}

fn read(text: &str, algorithm: Algorithm, notes: &mut Lines) -> Result<Cluster, Error> {
    let servers = match server_list(algorithm)? {
        ServerList::Libketama => parse_libketama(text, notes)?,
        ServerList::Libmemcached => parse_list(text, notes)?,
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
    use crate::algo::Algorithm;

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
                Err(Error::Parse { line: l, message }) => {
                    assert!(l == line && message.contains(words), "{text:?}: {l} {message}")
                }
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
