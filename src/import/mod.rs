//! Your own cluster: placements read from the text real systems print or read, through one
//! door. Each kind of text is a [`ConfigKind`] in [`CONFIG_KINDS`], its parser in a file of
//! its own:
//!
//! - `redis`: `redis-cli cluster nodes` ([`redis`]);
//! - `memcached`: a memcached server list, or libketama's server file ([`memcached`]);
//! - `nginx`: an nginx `upstream` block ([`nginx`]);
//! - `haproxy`: a HAProxy `backend` section ([`haproxy`]);
//! - `twemproxy`: one pool of a `nutcracker.yml` ([`twemproxy`]);
//! - `envoy`: one Envoy cluster with its `load_assignment`, alone, as a `clusters:` item, or
//!   in a whole bootstrap file ([`envoy`]).
//!
//! [`from_config`] reads any of them, and [`sections`] lists what a text offers: the door
//! every text comes in by. [`check`] reads the same way and says what became of every
//! non-blank line: read, passed over (and why), or refused ([`Lines`]). Every text is at most [`MAX_CONFIG_BYTES`] long and holds no
//! control character but tab, CR and LF (checked at the door, for every kind, before a
//! reader sees it); malformed text gets [`Error::Parse`] naming the 1-based line and what is
//! wrong, and nothing partial is built. A reader reads every line: a line it does not know
//! that could change the placement is refused, never skipped. `locate` answers the server
//! as the text names it.
//!
//! ```
//! use ringlab::import::{from_config, ImportOptions};
//! let nginx = from_config("nginx", "upstream u {\n  hash $uri consistent;\n  server 10.0.0.1:80;\n}\n", &ImportOptions::default())?;
//! assert_eq!(nginx.locate("/a")?, "10.0.0.1:80");
//! let e = from_config("nginx", "upstream u {\n  hash $uri consistent;\n  server ;\n}\n", &ImportOptions::default()).unwrap_err();
//! assert_eq!((e.code(), e.to_string().starts_with("line 3")), ("parse-error", true));
//! # Ok::<(), ringlab::Error>(())
//! ```

pub mod envoy;
pub mod haproxy;
mod lines;
pub mod memcached;
pub mod nginx;
pub mod redis;
pub mod twemproxy;
mod yaml;

use crate::algo::{Algorithm, Cluster};
use crate::Error;
pub use lines::{LineNote, LineStatus, Lines};
use serde::Serialize;

/// Longest config text read, in bytes (a `CLUSTER NODES` of 16,384 masters with replicas and
/// fragmented slot lists fits well within it).
pub const MAX_CONFIG_BYTES: usize = crate::limits::MAX_CONFIG_BYTES;
/// Most `server` lines in one load balancer's config.
pub const MAX_CONFIG_SERVERS: usize = crate::limits::MAX_CONFIG_SERVERS;

/// A kind of configuration text.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ConfigKind {
    /// What [`from_config`] takes.
    pub kind: &'static str,
    /// What to call it in a picker.
    pub label: &'static str,
    /// A small valid example.
    pub example: &'static str,
    /// Reads a text of this kind (at most [`MAX_CONFIG_BYTES`], checked before), noting
    /// what it does with each line in the [`Lines`] it is given.
    #[serde(skip)]
    pub read: fn(&str, &ImportOptions, &mut Lines) -> Result<Cluster, Error>,
    /// Refuses options this kind cannot take, before any text is read (a memcached list's
    /// algorithm that reads no server list).
    #[serde(skip)]
    pub options: fn(&ImportOptions) -> Result<(), Error>,
    /// The sections of a text a user may choose from (a whole `nginx.conf`'s upstreams, a
    /// `haproxy.cfg`'s backends, a `nutcracker.yml`'s pools, Envoy's clusters), in order;
    /// empty for kinds that have none. [`ImportOptions::section`] picks one.
    #[serde(skip)]
    pub sections: fn(&str) -> Result<Vec<String>, Error>,
}

/// Choices a kind of text leaves open.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportOptions {
    /// `memcached`: the algorithm that places the servers (one whose entry reads server
    /// lists; by default the first that reads libmemcached's).
    pub algorithm: Option<Algorithm>,
    /// `twemproxy`: the pool to read when the `nutcracker.yml` has several.
    pub pool: Option<String>,
    /// `envoy`: the cluster to read when the text has several (`clusters:`); without it, the
    /// only one that hashes requests (`RING_HASH` or `MAGLEV`).
    pub cluster: Option<String>,
    /// The section to read when the text has several (see [`ConfigKind::sections`]): an
    /// nginx `upstream`, a HAProxy `backend`/`listen`, or (as `pool`/`cluster`) a twemproxy
    /// pool or an Envoy cluster.
    pub section: Option<String>,
}

/// Every kind, in the order a picker lists them.
pub const CONFIG_KINDS: [ConfigKind; 6] =
    [redis::KIND, memcached::KIND, nginx::KIND, haproxy::KIND, twemproxy::KIND, envoy::KIND];

/// The kind called `kind`.
pub fn kind(kind: &str) -> Result<&'static ConfigKind, Error> {
    CONFIG_KINDS.iter().find(|k| k.kind == kind).ok_or_else(|| {
        let kinds: Vec<&str> = CONFIG_KINDS.iter().map(|k| k.kind).collect();
        Error::unknown_choice("kind", kind, format!("unknown config kind {kind:?}: choose one of {}", kinds.join(", ")))
    })
}

/// The placement a configuration text of `kind` describes; errors name the line, and
/// nothing partial is built.
pub fn from_config(kind: &str, text: &str, options: &ImportOptions) -> Result<Cluster, Error> {
    let kind = self::kind(kind)?;
    check_text(text)?;
    if text.trim().is_empty() {
        return Err(parse_error(1, format!("the text is empty: paste a {} or load the example", kind.label)));
    }
    (kind.options)(options)?;
    (kind.read)(text, options, &mut Lines::ignore())
}

/// What [`check`] found in a text: every non-blank line with what became of it, and the
/// placement read, or the error the text was refused with.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigCheck {
    /// The kind read as.
    pub kind: &'static str,
    /// Every non-blank line the reader reached, in order (blank lines are not listed): all
    /// of them when the text is read; when it is refused, those it went through before it
    /// refused (some may lie past the refused line: a check of the whole, such as Redis's
    /// slot ranges, comes after every line is read) and the refused line itself
    /// ([`LineStatus::Refused`], its `why` the error's words).
    pub lines: Vec<LineNote>,
    /// How many lines are read, and how many passed over.
    pub read: usize,
    pub passed_over: usize,
    /// The counts in words, for a page to show as they are.
    pub summary: String,
    /// The placement read, if the text is.
    pub placement: Option<PlacementSummary>,
    /// Why the text is refused, if it is.
    pub error: Option<CheckError>,
}

/// The placement a text describes, in brief.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlacementSummary {
    /// The algorithm's catalog name (`nginx-consistent`, `redis-cluster`...).
    pub algorithm: &'static str,
    /// The section read, when the text offers several (an upstream, a backend, a pool, a
    /// cluster).
    pub section: Option<String>,
    /// How many servers it places, and how many of them are down.
    pub servers: usize,
    pub down: usize,
}

/// A text's refusal, as a thrown error would carry it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckError {
    /// [`Error::code`].
    pub code: &'static str,
    /// The error's message (`line 3: …` for a line's).
    pub message: String,
    /// The 1-based line refused, if one is.
    pub line: Option<usize>,
}

/// Reads a text of `kind` as [`from_config`] does, and reports every line: read, passed over
/// (and why), or refused. A text that [`from_config`] refuses is not an error here but the
/// report's `error`, with the lines read before it; the error is only for the arguments:
/// an unknown kind, options the kind cannot take, a text over [`MAX_CONFIG_BYTES`].
pub fn check(kind: &str, text: &str, options: &ImportOptions) -> Result<ConfigCheck, Error> {
    let config = self::kind(kind)?;
    check_size(text)?;
    (config.options)(options)?;
    let mut lines = Lines::keep(text);
    let read = check_text(text).and_then(|()| {
        if text.trim().is_empty() {
            return Err(parse_error(1, format!("the text is empty: paste a {} or load the example", config.label)));
        }
        (config.read)(text, options, &mut lines)
    });
    let section = lines.section_read().map(str::to_string);
    let (placement, error) = match read {
        Ok(cluster) => {
            let down = (0..cluster.nodes().len()).filter(|&i| cluster.is_down_at(i)).count();
            let servers = cluster.nodes().len();
            (Some(PlacementSummary { algorithm: cluster.algorithm().name(), section, servers, down }), None)
        }
        Err(error) => {
            let line = match &error {
                Error::Parse { line, message } => {
                    lines.note(*line, LineStatus::Refused, message.clone());
                    Some(*line)
                }
                _ => None,
            };
            (None, Some(CheckError { code: error.code(), message: error.to_string(), line }))
        }
    };
    let lines = lines.into_notes();
    let count = |status| lines.iter().filter(|n| n.status == status).count();
    let (read, passed_over) = (count(LineStatus::Read), count(LineStatus::PassedOver));
    let plural = |n: usize| if n == 1 { "line" } else { "lines" };
    let mut summary = format!("{read} {} read, {passed_over} passed over", plural(read));
    if let Some(CheckError { line: Some(line), .. }) = &error {
        summary.push_str(&format!(", refused at line {line}"));
    }
    Ok(ConfigCheck { kind: config.kind, lines, read, passed_over, summary, placement, error })
}

/// The sections a text of `kind` offers to choose from ([`ConfigKind::sections`]).
pub fn sections(kind: &str, text: &str) -> Result<Vec<String>, Error> {
    let kind = self::kind(kind)?;
    check_text(text)?;
    (kind.sections)(text)
}

/// What the door checks of every text, whatever its kind: its size, and that it holds no
/// control character (below U+0020 but tab, CR and LF, or U+007F). No config these kinds
/// come from has one; a NUL or an escape sequence in pasted text is a copy from a terminal
/// or a binary file, and each reader would read it otherwise (a word, the end of a line, a
/// part of a name).
fn check_text(text: &str) -> Result<(), Error> {
    check_size(text)?;
    let Some(at) = text.find(|c: char| (c < ' ' && !matches!(c, '\t' | '\r' | '\n')) || c == '\u{7f}') else {
        return Ok(());
    };
    let before = &text[..at];
    let line = 1 + before.bytes().filter(|&b| b == b'\n').count();
    let column = 1 + before.rfind('\n').map_or(before, |nl| &before[nl + 1..]).chars().count();
    let code = text[at..].chars().next().map_or(0, u32::from);
    Err(parse_error(
        line,
        format!(
            "a control character (U+{code:04X}) at column {column}: config text holds none but tabs and line ends \
             (was it copied from a terminal or a binary file?)"
        ),
    ))
}

/// Any options (the kinds that take none of their own, or only a section).
pub(crate) fn any_options(_: &ImportOptions) -> Result<(), Error> {
    Ok(())
}

/// No sections to choose from (a kind that reads one list).
pub(crate) fn no_sections(_: &str) -> Result<Vec<String>, Error> {
    Ok(Vec::new())
}

/// Texts over [`MAX_CONFIG_BYTES`] are refused before they are read.
pub(crate) fn check_size(text: &str) -> Result<(), Error> {
    crate::limits::check("config text (bytes)", text.len() as u64, MAX_CONFIG_BYTES as u64)
}

pub(crate) fn parse_error(line: usize, message: impl Into<String>) -> Error {
    Error::Parse { line, message: message.into() }
}

/// At most [`MAX_CONFIG_SERVERS`] `server` lines.
pub(crate) fn check_server_count(count: usize, line: usize) -> Result<(), Error> {
    if count > MAX_CONFIG_SERVERS {
        return Err(parse_error(line, format!("at most {MAX_CONFIG_SERVERS} server lines are read")));
    }
    Ok(())
}

/// An error from building the placement, put on the line of the server it concerns.
pub(crate) fn on_line(line: usize, error: Error) -> Error {
    match error {
        Error::Parse { .. } => error,
        other => parse_error(line, other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NGINX_CONF: &str = "user nginx;\nevents { worker_connections 1024; }\nhttp {\n    upstream api {\n        hash $request_uri consistent;\n        server 10.0.0.1:80;\n        server 10.0.0.2:80;\n    }\n    upstream static {\n        hash $uri;\n        server 10.0.1.1:80 weight=2;\n        server 10.0.1.2:80;\n        server 10.0.1.3:80 down;\n    }\n    server {\n        listen 80;\n        location / { proxy_pass http://api; }\n    }\n}\n";

    #[test]
    fn a_whole_nginx_conf_opens_on_the_upstream_that_hashes() {
        // As nginx.conf files are: a plain upstream first, the hashed one after it.
        let conf = "http {\n    upstream app {\n        least_conn;\n        server 10.0.2.1:80;\n    }\n    \
                    upstream cache {\n        hash $request_uri consistent;\n        server 10.0.0.1:80;\n        \
                    server 10.0.0.2:80;\n        server 10.0.0.3:80;\n    }\n    server {\n        location / { \
                    proxy_pass http://app; }\n    }\n}\n";
        let cache = from_config("nginx", conf, &ImportOptions::default()).unwrap();
        assert_eq!(
            cache.nodes().iter().map(|n| n.name.as_str()).collect::<Vec<_>>(),
            ["10.0.0.1:80", "10.0.0.2:80", "10.0.0.3:80"]
        );
        let report = check("nginx", conf, &ImportOptions::default()).unwrap();
        assert_eq!(report.placement.unwrap().section.as_deref(), Some("cache"));
        assert!(
            report.lines.iter().any(|l| l.line == 3 && l.why.contains("in upstream app, not the one read")),
            "{:?}",
            report.lines
        );
        // None that hashes: the error says so and names them.
        let plain =
            "upstream a {\n    server 10.0.0.1:80;\n}\nupstream b {\n    least_conn;\n    server 10.0.0.2:80;\n}\n";
        let e = from_config("nginx", plain, &ImportOptions::default()).unwrap_err();
        assert!(e.to_string().contains("2 upstream blocks (a, b), and none with a `hash` line"), "{e}");
    }

    #[test]
    fn a_whole_nginx_conf_offers_its_upstreams() {
        assert_eq!(sections("nginx", NGINX_CONF).unwrap(), ["api", "static"]);
        let e = from_config("nginx", NGINX_CONF, &ImportOptions::default()).unwrap_err();
        assert!(e.to_string().starts_with("line 9: 2 upstream blocks hash requests (api, static): choose one"), "{e}");
        let pick = |name: &str| ImportOptions { section: Some(name.into()), ..ImportOptions::default() };
        let api = from_config("nginx", NGINX_CONF, &pick("api")).unwrap();
        assert_eq!(api.nodes().len(), 2);
        let stat = from_config("nginx", NGINX_CONF, &pick("static")).unwrap();
        assert_eq!((stat.nodes().len(), stat.nodes()[0].weight, stat.is_down_at(2)), (3, 2.0, true));
        // The same block pasted alone reads the same.
        let alone = "upstream static {\n        hash $uri;\n        server 10.0.1.1:80 weight=2;\n        server 10.0.1.2:80;\n        server 10.0.1.3:80 down;\n    }\n";
        let one = from_config("nginx", alone, &ImportOptions::default()).unwrap();
        for k in 0..200 {
            assert_eq!(one.locate(format!("/k{k}")).unwrap(), stat.locate(format!("/k{k}")).unwrap());
        }
        assert!(from_config("nginx", NGINX_CONF, &pick("nope"))
            .unwrap_err()
            .to_string()
            .contains("the upstreams: api, static"));
        // Errors inside a block keep the whole text's line numbers.
        let bad = NGINX_CONF.replace("server 10.0.1.2:80;", "server ;");
        assert!(from_config("nginx", &bad, &pick("static")).unwrap_err().to_string().starts_with("line 12"));
        let none = "http {\n    server { listen 80; }\n}\n";
        assert!(from_config("nginx", none, &ImportOptions::default())
            .unwrap_err()
            .to_string()
            .contains("no `upstream"));
    }

    const HAPROXY_CFG: &str = "global\n    maxconn 100\ndefaults\n    mode http\nfrontend fe\n    bind :80\n    default_backend cache\nbackend web\n    balance uri\n    hash-type consistent\n    server w1 10.0.0.1:80\n    server w2 10.0.0.2:80\nbackend cache\n    balance hdr(X-Key)\n    server c1 10.0.1.1:80\n    server c2 10.0.1.2:80 weight 2\n    server c3 10.0.1.3:80\n";

    #[test]
    fn a_whole_haproxy_cfg_offers_its_backends() {
        assert_eq!(sections("haproxy", HAPROXY_CFG).unwrap(), ["web", "cache"]);
        let e = from_config("haproxy", HAPROXY_CFG, &ImportOptions::default()).unwrap_err();
        assert!(e.to_string().starts_with("line 13: 2 backends hash requests (web, cache): choose one"), "{e}");
        // A backend of another method beside one that hashes (its `balance` inherited from the
        // defaults before it, as HAProxy reads it): the one that hashes is read.
        let mixed = HAPROXY_CFG
            .replace("defaults\n    mode http\n", "defaults\n    mode http\n    balance roundrobin\n")
            .replace("backend web\n    balance uri\n", "backend web\n");
        let read = check("haproxy", &mixed, &ImportOptions::default()).unwrap();
        assert_eq!(read.placement.as_ref().and_then(|p| p.section.as_deref()), Some("cache"), "{:?}", read.error);
        let inherited = mixed
            .replace("backend cache\n    balance hdr(X-Key)\n", "defaults\n    balance hdr(X-Key)\nbackend cache\n");
        let read = check("haproxy", &inherited, &ImportOptions::default()).unwrap();
        assert_eq!(read.placement.as_ref().and_then(|p| p.section.as_deref()), Some("cache"), "{:?}", read.error);
        let neither = mixed.replace("    balance hdr(X-Key)\n", "    balance leastconn\n");
        let e = from_config("haproxy", &neither, &ImportOptions::default()).unwrap_err();
        assert!(e.to_string().contains("2 backends (web, cache), and none with a `balance` that hashes"), "{e}");
        let pick = |name: &str| ImportOptions { section: Some(name.into()), ..ImportOptions::default() };
        assert_eq!(from_config("haproxy", HAPROXY_CFG, &pick("web")).unwrap().nodes().len(), 2);
        let cache = from_config("haproxy", HAPROXY_CFG, &pick("cache")).unwrap();
        assert_eq!((cache.nodes().len(), cache.nodes()[1].weight), (3, 2.0));
        let bad = HAPROXY_CFG.replace("server c2 10.0.1.2:80 weight 2", "server c2 10.0.1.2:80 weight x");
        assert!(from_config("haproxy", &bad, &pick("cache")).unwrap_err().to_string().starts_with("line 16"));
        // One section alone has nothing to choose; the examples neither.
        assert_eq!(sections("haproxy", haproxy::KIND.example).unwrap().len(), 1);
        assert!(sections("redis", redis::KIND.example).unwrap().is_empty());
    }

    #[test]
    fn an_empty_text_says_so() {
        for kind in CONFIG_KINDS {
            let e = from_config(kind.kind, " \n", &ImportOptions::default()).unwrap_err();
            assert!(e.to_string().contains("the text is empty"), "{}: {e}", kind.kind);
        }
    }
}
