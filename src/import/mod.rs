//! Your own cluster: placements read from the text real systems print or read, through one
//! door. Each kind of text is a [`ConfigKind`] in [`CONFIG_KINDS`], its parser in a file of
//! its own:
//!
//! - `redis`: `redis-cli cluster nodes` ([`redis`]);
//! - `memcached`: a memcached server list, or libketama's server file ([`memcached`]);
//! - `nginx`: an nginx `upstream` block ([`nginx`]);
//! - `haproxy`: a HAProxy `backend` section ([`haproxy`]);
//! - `twemproxy`: one pool of a `nutcracker.yml` ([`twemproxy`]);
//! - `envoy`: one Envoy cluster with its `load_assignment` ([`envoy`]).
//!
//! [`from_config`] reads any of them. Every text is at most [`MAX_CONFIG_BYTES`] long;
//! malformed text gets [`Error::Parse`] naming the 1-based line and what is wrong, and
//! nothing partial is built. `locate` answers the server as the text names it.
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
pub mod memcached;
pub mod nginx;
pub mod redis;
pub mod twemproxy;
mod yaml;

use crate::algo::{Algorithm, Cluster};
use crate::Error;
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
    /// Reads a text of this kind (at most [`MAX_CONFIG_BYTES`], checked before).
    #[serde(skip)]
    pub read: fn(&str, &ImportOptions) -> Result<Cluster, Error>,
}

/// Choices a kind of text leaves open.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportOptions {
    /// `memcached`: the algorithm that places the servers (one whose entry reads server
    /// lists; by default the first that reads libmemcached's).
    pub algorithm: Option<Algorithm>,
    /// `twemproxy`: the pool to read when the `nutcracker.yml` has several.
    pub pool: Option<String>,
    /// `envoy`: the cluster to read when the text has several (`clusters:`).
    pub cluster: Option<String>,
}

/// Every kind, in the order a picker lists them.
pub const CONFIG_KINDS: [ConfigKind; 6] =
    [redis::KIND, memcached::KIND, nginx::KIND, haproxy::KIND, twemproxy::KIND, envoy::KIND];

/// The kind called `kind`.
pub fn kind(kind: &str) -> Result<&'static ConfigKind, Error> {
    CONFIG_KINDS.iter().find(|k| k.kind == kind).ok_or_else(|| {
        let kinds: Vec<&str> = CONFIG_KINDS.iter().map(|k| k.kind).collect();
        Error::InvalidOption(format!("unknown config kind {kind:?}: choose one of {}", kinds.join(", ")))
    })
}

/// The placement a configuration text of `kind` describes; errors name the line, and
/// nothing partial is built.
pub fn from_config(kind: &str, text: &str, options: &ImportOptions) -> Result<Cluster, Error> {
    let kind = self::kind(kind)?;
    check_size(text)?;
    (kind.read)(text, options)
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
