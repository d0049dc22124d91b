//! Errors: every bad input gets one of these, with a message meant for the person who typed it,
//! and the state is left exactly as it was.
//!
//! Each error has a stable [`code`](Error::code) (`"duplicate-node"`, `"too-large"`, ...) that
//! callers branch on, and a message (`Display`) meant for people; in JS the code is the
//! `Error`'s `code` property and the message its `message`.

/// Most virtual nodes per node (the `vnodes` option). One of the [`limits`](crate::limits),
/// kept here, where [`Error::InvalidVnodes`] quotes it, so that the errors name no module
/// above them.
pub const MAX_VNODES: u32 = 10_000;
/// Most points on one ring, all nodes together (one of the [`limits`](crate::limits), quoted
/// by [`Error::TooManyPoints`]).
pub const MAX_POINTS: u64 = 500_000;

/// What went wrong. `Display` gives the message shown to users (in JS, the `Error`'s message).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    #[error("the ring is empty: add a node before looking up keys")]
    EmptyRing,
    #[error("a node named {0:?} is already on the ring")]
    DuplicateNode(String),
    #[error("there is no node named {0:?} on the ring")]
    UnknownNode(String),
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
    /// An input over one of the documented caps (`what` names the input).
    #[error("{what} is at most {max} (got {got})")]
    TooLarge { what: String, max: u64, got: u64 },
    /// Text that could not be read (a config, a node list, a key file), with its 1-based line.
    #[error("line {line}: {message}")]
    Parse { line: usize, message: String },
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
}

impl Error {
    /// The stable code of this kind of error, for programs to branch on.
    ///
    /// ```
    /// assert_eq!(ringlab::Error::EmptyRing.code(), "empty-ring");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            Error::EmptyRing => "empty-ring",
            Error::DuplicateNode(_) => "duplicate-node",
            Error::UnknownNode(_) => "unknown-node",
            Error::EmptyName => "empty-name",
            Error::NameTooLong { .. } => "name-too-long",
            Error::InvalidWeight(_) | Error::WeightNotDecimal(_) => "invalid-weight",
            Error::InvalidVnodes(_) => "invalid-vnodes",
            Error::TooManyPoints { .. } => "too-many-points",
            Error::UnknownHash(_) => "unknown-hash",
            Error::InvalidBits(_) => "invalid-bits",
            Error::HashTooNarrow { .. } => "hash-too-narrow",
            Error::InvalidOption(_) => "invalid-option",
            Error::TooLarge { .. } => "too-large",
            Error::Parse { .. } => "parse-error",
            Error::Unsupported(_) => "unsupported",
            Error::Unavailable(_) => "unavailable",
            Error::NotBuiltIn(_) => "not-built-in",
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
}

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
            out.push_str(&format!(" ({} characters)", crate::decimal::thousands(chars as u64)));
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
