//! Errors: every bad input gets one of these, with a message meant for the person who typed it,
//! and the state is left exactly as it was.
//!
//! Each error has a stable [`code`](Error::code) (`"duplicate-node"`, `"too-large"`, ...) that
//! callers branch on, and a message (`Display`) meant for people; in JS the code is the
//! `Error`'s `code` property and the message its `message`. [`Error::code`] is the one place
//! codes are minted: the binding's own refusals are kinds of [`Error`] too.

use crate::ring::{MAX_POINTS, MAX_VNODES};

/// What went wrong. `Display` gives the message shown to users (in JS, the `Error`'s message).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    #[error("the ring is empty: add a node before looking up keys")]
    EmptyRing,
    #[error("a node named {0:?} is already on the ring")]
    DuplicateNode(String),
    #[error("there is no node named {0:?} on the ring")]
    UnknownNode(String),
    /// A node by its number (its place in the order the nodes were added) past the last one,
    /// as a placement's `set_down` is asked for it; code `unknown-node`.
    #[error("no node number {index} (there are {nodes})")]
    NoNodeNumber { index: usize, nodes: usize },
    #[error("a node needs a name (it was empty)")]
    EmptyName,
    #[error("node names are at most {max} bytes (this one has {len})")]
    NameTooLong { len: usize, max: usize },
    #[error("weight must be a positive, finite number (got {})", crate::decimal::shortest(*.0))]
    InvalidWeight(f64),
    /// A weight written as text that is not a decimal number (`"0x10"`, `"inf"`); its code is
    /// `invalid-weight` too.
    #[error("a weight is a decimal number such as 2 or 0.5 (got {0:?})")]
    WeightNotDecimal(String),
    #[error("vnodes must be between 1 and {MAX_VNODES} (got {0})")]
    InvalidVnodes(u64),
    #[error("that would put {points} points on the ring; the limit is {MAX_POINTS} to keep a browser tab responsive")]
    TooManyPoints { points: u64 },
    #[error("unknown hash {0:?}: choose one of xxh3, xxh64, xxh32, fnv1a32, fnv1a64, md5, sha256, murmur3, crc32")]
    UnknownHash(String),
    #[error("ring bits must be 32 or 64 (got {0})")]
    InvalidBits(u64),
    #[error("hash {hash} gives 32-bit values, too few for a 64-bit ring: choose a 64-bit hash")]
    HashTooNarrow { hash: &'static str },
    #[error("invalid option: {0}")]
    InvalidOption(String),
    /// A node the system cannot take as given: its name or address in a form the real client
    /// does not read (`"a:b:c"` for a client that wants `host:port`), a weight written twice,
    /// tokens or slot ranges that collide. `node` is its name. Code `invalid-option`.
    #[error("invalid option: {message}")]
    NodeRefused { node: String, message: String },
    /// A weight the system cannot hold: a fraction where it keeps whole numbers, a number past
    /// its range or its integer type, any weight but 1 where it has none. Code
    /// `invalid-option`.
    #[error("invalid option: {message}")]
    WeightRefused { weight: f64, message: String },
    /// A node that may not leave: a bucket hash (jump and its kin) numbers its buckets, so
    /// only the last one can go; removing another would renumber every bucket after it.
    /// `algorithm` names the algorithm in words, `last` the node that may leave. Code
    /// `unsupported`.
    #[error(
        "{algorithm} can only remove its last bucket ({last:?}); removing {node:?} would renumber every bucket after it"
    )]
    RemovalNotAllowed { algorithm: String, node: String, last: String },
    /// An input over one of the documented caps (`what` names the input).
    #[error("{what} is at most {max} (got {got})")]
    TooLarge { what: String, max: u64, got: u64 },
    /// Fewer of something than a call needs: two nodes to compare, one key to sample. Code
    /// `invalid-option`.
    #[error("invalid option: {message}")]
    TooFew { what: String, min: usize, got: usize, message: String },
    /// Inputs that must agree and do not: per-node lists of another length than the nodes,
    /// counts that do not add up, two states that must go together. Code `invalid-option`.
    #[error("invalid option: {message}")]
    Mismatch { what: String, message: String },
    /// A key given twice in a key list. Code `invalid-option`.
    #[error("invalid option: the key list holds {0:?} twice")]
    DuplicateKey(String),
    /// Text that could not be read (a config, a node list, a key file), with its 1-based line.
    #[error("line {line}: {message}")]
    Parse { line: usize, message: String },
    /// A share link that could not be read, and why. Code `invalid-option`.
    #[error("invalid option: this link could not be read: {reason}")]
    Link { reason: String },
    /// A call the current algorithm or state cannot answer, and why (e.g. exact arcs of an
    /// algorithm that has none).
    #[error("{0}")]
    Unsupported(String),
    /// A key that has no owner right now because a node is down, and why (what the real
    /// system answers: e.g. Redis Cluster's slots of a failed master until a replica is
    /// promoted, or jump hash, which cannot skip a bucket).
    #[error("{0}")]
    Unavailable(String),
    /// A part of the engine this build leaves out, named: the `<hash-ring>` element's first
    /// module has ringlab's own ring and its charts only (see the `catalog` feature). The
    /// full build has everything; the element loads it when it meets this error.
    #[error("{0} is not in this build of the engine (the full build has it)")]
    NotBuiltIn(String),
    /// A drawing area smaller than the chart's layout needs, in device pixels. Code
    /// `invalid-option`.
    #[error(
        "invalid option: chart: the drawing area is {width}×{height} px, this chart needs at least {min_width}×{min_height}"
    )]
    ChartTooSmall { width: u32, height: u32, min_width: u32, min_height: u32 },
    /// A chart that cannot be drawn, and why: nothing to draw, a colour that is not
    /// `#rrggbb`, a failure of the drawing backend. Code `invalid-option`.
    #[error("invalid option: chart: {0}")]
    Chart(String),
    /// A JS argument of the wrong type or range (a number where a string belongs, a
    /// negative count, an object that is not plain data): only the binding refuses these.
    #[error("{0}")]
    InvalidArgument(String),
    /// A bug in ringlab: something that cannot fail did (the `<hash-ring>` element restarts
    /// its engine on this code).
    #[error("{0}")]
    Internal(String),
}

impl Error {
    /// Every code [`code`](Error::code) gives, each once: what a program may branch on (the
    /// `.d.ts`'s `ErrorCode`).
    pub const CODES: &'static [&'static str] = &[
        "empty-ring",
        "duplicate-node",
        "unknown-node",
        "empty-name",
        "name-too-long",
        "invalid-weight",
        "invalid-vnodes",
        "too-many-points",
        "unknown-hash",
        "invalid-bits",
        "hash-too-narrow",
        "invalid-option",
        "too-large",
        "parse-error",
        "unsupported",
        "invalid-argument",
        "internal",
        "unavailable",
        "not-built-in",
    ];

    /// The stable code of this kind of error, for programs to branch on: the one place codes
    /// are minted (the JS binding's too).
    ///
    /// ```
    /// assert_eq!(ringlab::Error::EmptyRing.code(), "empty-ring");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            Error::EmptyRing => "empty-ring",
            Error::DuplicateNode(_) => "duplicate-node",
            Error::UnknownNode(_) | Error::NoNodeNumber { .. } => "unknown-node",
            Error::EmptyName => "empty-name",
            Error::NameTooLong { .. } => "name-too-long",
            Error::InvalidWeight(_) | Error::WeightNotDecimal(_) => "invalid-weight",
            Error::InvalidVnodes(_) => "invalid-vnodes",
            Error::TooManyPoints { .. } => "too-many-points",
            Error::UnknownHash(_) => "unknown-hash",
            Error::InvalidBits(_) => "invalid-bits",
            Error::HashTooNarrow { .. } => "hash-too-narrow",
            Error::InvalidOption(_) | Error::NodeRefused { .. } | Error::WeightRefused { .. } => "invalid-option",
            Error::TooFew { .. }
            | Error::Mismatch { .. }
            | Error::DuplicateKey(_)
            | Error::Link { .. }
            | Error::ChartTooSmall { .. }
            | Error::Chart(_) => "invalid-option",
            Error::TooLarge { .. } => "too-large",
            Error::Parse { .. } => "parse-error",
            Error::RemovalNotAllowed { .. } | Error::Unsupported(_) => "unsupported",
            Error::Unavailable(_) => "unavailable",
            Error::NotBuiltIn(_) => "not-built-in",
            Error::InvalidArgument(_) => "invalid-argument",
            Error::Internal(_) => "internal",
        }
    }

    /// The message, for showing to people: as `Display` writes it, but a quote of the
    /// caller's own text of more than 80 characters is cut to them (with its length), and
    /// the whole to 2,000. A name from a stranger's link may be a megabyte long.
    ///
    /// ```
    /// let e = ringlab::Error::UnknownNode("n".repeat(1 << 20));
    /// let brief = e.brief();
    /// assert!(brief.starts_with(r#"there is no node named "nnnn"#));
    /// assert!(brief.ends_with(r#"n…" (1,048,576 characters) on the ring"#));
    /// assert_eq!(ringlab::Error::EmptyName.brief(), ringlab::Error::EmptyName.to_string());
    /// ```
    pub fn brief(&self) -> String {
        brief(&self.to_string()).into_owned()
    }

    /// For an error coded `invalid-option`, its message after `invalid option: ` (a link's
    /// reader says them after its own words); `None` for the other codes.
    pub(crate) fn option_words(&self) -> Option<String> {
        if self.code() != "invalid-option" {
            return None;
        }
        let message = self.to_string();
        Some(message.strip_prefix(INVALID_OPTION).map_or_else(|| message.clone(), str::to_string))
    }

    /// [`Error::TooFew`]: `got` of `what` where at least `min` are needed, in `message`'s words.
    pub(crate) fn too_few(what: impl Into<String>, min: usize, got: usize, message: impl Into<String>) -> Error {
        Error::TooFew { what: what.into(), min, got, message: message.into() }
    }

    /// [`Error::Mismatch`]: `what` does not agree with the rest, in `message`'s words.
    pub(crate) fn mismatch(what: impl Into<String>, message: impl Into<String>) -> Error {
        Error::Mismatch { what: what.into(), message: message.into() }
    }

    /// [`Error::NodeRefused`]: the system refuses node `node`, in `message`'s words.
    pub(crate) fn node_refused(node: impl Into<String>, message: impl Into<String>) -> Error {
        Error::NodeRefused { node: node.into(), message: message.into() }
    }

    /// [`Error::WeightRefused`]: the system refuses `weight`, in `message`'s words.
    pub(crate) fn weight_refused(weight: f64, message: impl Into<String>) -> Error {
        Error::WeightRefused { weight, message: message.into() }
    }
}

/// How every message of an error coded `invalid-option` starts.
const INVALID_OPTION: &str = "invalid option: ";

/// Most characters of the user's own text that a message repeats back inside quotes; past
/// it the quote is cut, with an ellipsis and its full length.
pub(crate) const MAX_QUOTED_CHARS: usize = 80;
/// Most characters of a whole message, after its quotes are cut.
pub(crate) const MAX_MESSAGE_CHARS: usize = 2_000;

/// `message` with every quoted text (as `{:?}` writes it: `"…"`, with backslash escapes) of
/// more than [`MAX_QUOTED_CHARS`] cut to that many, and the whole cut to
/// [`MAX_MESSAGE_CHARS`]. A message names what it refuses (`unknown algorithm "…"`), and
/// that text may come from a stranger's link or attribute: a name of a megabyte must not
/// come back as a message of a megabyte, to be laid out in a page. (Every message of the
/// binding passes through it: [`Error::brief`].)
pub(crate) fn brief(message: &str) -> std::borrow::Cow<'_, str> {
    let long_quote = |rest: &str| quoted_len(rest) > MAX_QUOTED_CHARS;
    let needs_cut = message.chars().count() > MAX_MESSAGE_CHARS
        || message.match_indices('"').any(|(at, _)| long_quote(&message[at + 1..]));
    if !needs_cut {
        return message.into();
    }
    let mut out = String::new();
    let mut rest = message;
    while let Some(at) = rest.find('"') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let (body, closed) = quote_body(rest);
        let chars = body.chars().count();
        if chars > MAX_QUOTED_CHARS {
            out.extend(body.chars().take(MAX_QUOTED_CHARS));
            out.push('…');
            if closed {
                out.push('"');
            }
            out.push_str(&format!(" ({} characters)", crate::keys::thousands(chars as u64)));
        } else {
            out.push_str(body);
            if closed {
                out.push('"');
            }
        }
        rest = &rest[body.len() + usize::from(closed)..];
    }
    out.push_str(rest);
    if out.chars().count() > MAX_MESSAGE_CHARS {
        let cut: String = out.chars().take(MAX_MESSAGE_CHARS).collect();
        out = cut + "…";
    }
    out.into()
}

/// The text of a quote that starts `rest` (just after its opening `"`), up to its closing
/// quote, and whether there was one (an unclosed quote runs to the end).
fn quote_body(rest: &str) -> (&str, bool) {
    let mut escaped = false;
    for (i, c) in rest.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return (&rest[..i], true),
            _ => {}
        }
    }
    (rest, false)
}

fn quoted_len(rest: &str) -> usize {
    quote_body(rest).0.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_message_is_left_as_it_is() {
        let m = "unknown hash \"md6\": choose one of xxh3, md5";
        assert!(matches!(brief(m), std::borrow::Cow::Borrowed(_)));
        assert_eq!(brief(m), m);
        // Quotes of exactly the limit stay whole; escapes inside a quote do not end it.
        let at_limit = format!("a {:?} b", "y".repeat(MAX_QUOTED_CHARS));
        assert_eq!(brief(&at_limit), at_limit);
        let escaped = r#"name "a\"b" and "c""#;
        assert_eq!(brief(escaped), escaped);
    }

    #[test]
    fn every_long_quote_is_cut_and_says_its_length() {
        let a = "a".repeat(100);
        let b = "é".repeat(81);
        let m = format!("between {a:?} and {b:?}, nothing");
        let want = format!(
            "between \"{}…\" (100 characters) and \"{}…\" (81 characters), nothing",
            "a".repeat(80),
            "é".repeat(80)
        );
        assert_eq!(brief(&m), want);
        // A quote that never closes is cut too.
        let open = format!("line 1: \"{}", "z".repeat(500));
        assert_eq!(brief(&open), format!("line 1: \"{}… (500 characters)", "z".repeat(80)));
    }

    #[test]
    fn a_long_message_without_quotes_is_cut_whole() {
        let m = "w ".repeat(5_000);
        let cut = brief(&m);
        assert_eq!(cut.chars().count(), MAX_MESSAGE_CHARS + 1);
        assert!(cut.ends_with('…'));
    }

    #[test]
    fn an_error_naming_a_huge_input_says_it_briefly() {
        let huge = "n".repeat(1 << 20);
        let e = Error::UnknownNode(huge);
        let shown = e.brief();
        assert!(shown.len() < 200, "{}", shown.len());
        assert!(shown.starts_with("there is no node named \"nnnn"), "{shown}");
        assert!(shown.ends_with("…\" (1,048,576 characters) on the ring"), "{shown}");
    }
}
