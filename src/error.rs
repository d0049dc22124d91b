//! Errors: every refusal is one [`Error`], whose kind says what was refused and whose
//! message says it to the person who typed it; the state is left exactly as it was. The
//! kinds, their codes and their messages are described on [`Error`].

/// Most virtual nodes per node (the `vnodes` option). One of the [`limits`](crate::limits),
/// kept here, where [`Error::InvalidVnodes`] quotes it, so that the errors name no module
/// above them.
pub const MAX_VNODES: u32 = 10_000;
/// Most points on one ring, all nodes together (one of the [`limits`](crate::limits), quoted
/// by [`Error::TooManyPoints`]).
pub const MAX_POINTS: u64 = 500_000;

/// What was refused, with typed fields for programs and a message for people.
///
/// Three things describe an error, each for its own reader:
///
/// - **The kind** (the variant), for Rust callers to `match` on. Its fields name what was
///   refused, typed: the option and its allowed range ([`Error::OptionOutOfRange`]), the node
///   ([`Error::NodeRefused`]), the line ([`Error::Parse`]). The enum is `#[non_exhaustive]`:
///   new kinds come as the engine refuses new things, so a `match` ends with `_`.
/// - **The code** ([`Error::code`]), for programs in any language: a stable string such as
///   `"duplicate-node"`; in JS, the `code` property of the thrown `Error`. Several kinds may
///   share one code (every way an option's value is refused is `invalid-option`). The codes
///   are minted in one place, [`Error::code`], and listed in [`Error::CODES`]; the JS binding
///   takes every code it throws from there.
/// - **The message** (`Display`), for people: what was refused and, where it helps, what
///   would be taken instead. It quotes the caller's own text, which may be long:
///   [`Error::brief`] cuts it for showing. Programs branch on kinds and codes, never on messages.
///
/// The kinds, by what they refuse:
///
/// | what | kinds | codes |
/// |---|---|---|
/// | the ring | [`EmptyRing`], [`InvalidVnodes`], [`TooManyPoints`], [`UnknownHash`], [`InvalidBits`], [`HashTooNarrow`] | one each |
/// | a node, by every algorithm's rules | [`DuplicateNode`], [`UnknownNode`] and [`NoNodeNumber`], [`EmptyName`], [`NameTooLong`], [`InvalidWeight`] and [`WeightNotDecimal`] | one each (`unknown-node`, `invalid-weight` shared) |
/// | a node a real system's rules refuse | [`NodeRefused`], [`WeightRefused`] | `invalid-option` |
/// | a node that may not leave | [`RemovalNotAllowed`] | `unsupported` |
/// | an option's value | [`UnknownOption`], [`UnknownChoice`], [`OptionOutOfRange`], [`InvalidOption`] | `invalid-option` |
/// | a call's inputs | [`TooLarge`] (over a cap), [`TooFew`], [`Mismatch`], [`DuplicateKey`] | `too-large`, `invalid-option` |
/// | a JS argument of the wrong type | [`InvalidArgument`] | `invalid-argument` |
/// | a JS object whose `free()` was called | [`Freed`] | `freed` |
/// | text | [`Parse`] (a config, a list, with its line), [`Link`] (a share link) | `parse-error`, `invalid-option` |
/// | a question the state cannot answer | [`Unsupported`], [`Unavailable`] | one each |
/// | a chart | [`ChartTooSmall`], [`Chart`] | `invalid-option` |
/// | a bug in ringlab | [`Internal`] | `internal` |
///
/// Every error coded `invalid-option` says so first: its message starts `invalid option: `.
/// (The refusals of a node, of a call's inputs, of a link and of a chart were all options'
/// refusals once, and keep that code and that start.)
///
/// [`EmptyRing`]: Error::EmptyRing
/// [`DuplicateNode`]: Error::DuplicateNode
/// [`UnknownNode`]: Error::UnknownNode
/// [`NoNodeNumber`]: Error::NoNodeNumber
/// [`EmptyName`]: Error::EmptyName
/// [`NameTooLong`]: Error::NameTooLong
/// [`InvalidWeight`]: Error::InvalidWeight
/// [`WeightNotDecimal`]: Error::WeightNotDecimal
/// [`InvalidVnodes`]: Error::InvalidVnodes
/// [`TooManyPoints`]: Error::TooManyPoints
/// [`UnknownHash`]: Error::UnknownHash
/// [`InvalidBits`]: Error::InvalidBits
/// [`HashTooNarrow`]: Error::HashTooNarrow
/// [`NodeRefused`]: Error::NodeRefused
/// [`WeightRefused`]: Error::WeightRefused
/// [`RemovalNotAllowed`]: Error::RemovalNotAllowed
/// [`UnknownOption`]: Error::UnknownOption
/// [`UnknownChoice`]: Error::UnknownChoice
/// [`OptionOutOfRange`]: Error::OptionOutOfRange
/// [`InvalidOption`]: Error::InvalidOption
/// [`TooLarge`]: Error::TooLarge
/// [`TooFew`]: Error::TooFew
/// [`Mismatch`]: Error::Mismatch
/// [`DuplicateKey`]: Error::DuplicateKey
/// [`InvalidArgument`]: Error::InvalidArgument
/// [`Freed`]: Error::Freed
/// [`Parse`]: Error::Parse
/// [`Link`]: Error::Link
/// [`Unsupported`]: Error::Unsupported
/// [`Unavailable`]: Error::Unavailable
/// [`ChartTooSmall`]: Error::ChartTooSmall
/// [`Chart`]: Error::Chart
/// [`Internal`]: Error::Internal
///
/// ```
/// use ringlab::algo::{Algorithm, Cluster, Options};
/// use ringlab::{Error, NodeSpec};
///
/// let mut jump = Cluster::new(Options::new(Algorithm::Jump), ["a", "b", "c"].map(NodeSpec::new))?;
/// match jump.remove("a") {
///     Err(Error::RemovalNotAllowed { node, last, .. }) => assert_eq!((node.as_str(), last.as_str()), ("a", "c")),
///     other => panic!("jump hash removes only its last bucket: {other:?}"),
/// }
/// let err = jump.remove("a").unwrap_err();
/// assert_eq!(err.code(), "unsupported");
/// assert!(err.to_string().starts_with("jump hash can only remove its last bucket"));
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    // The ring and its nodes.
    /// A lookup on a ring with no node.
    #[error("the ring is empty: add a node before looking up keys")]
    EmptyRing,
    /// A node added under a name the ring already has.
    #[error("a node named {0:?} is already on the ring")]
    DuplicateNode(String),
    /// A node named that is not on the ring.
    #[error("there is no node named {0:?} on the ring")]
    UnknownNode(String),
    /// A node by its number (its place in the order the nodes were added) past the last one,
    /// as a placement's `set_down` is asked for it; code `unknown-node`.
    #[error("no node number {index} (there are {nodes})")]
    NoNodeNumber { index: usize, nodes: usize },
    /// A node without a name.
    #[error("a node needs a name (it was empty)")]
    EmptyName,
    /// A node name over the cap on names' bytes.
    #[error("node names are at most {max} bytes (this one has {len})")]
    NameTooLong { len: usize, max: usize },
    /// A weight that is not a positive, finite number: the rule of every algorithm (each
    /// system's own rules are [`Error::WeightRefused`]).
    #[error("weight must be a positive, finite number (got {})", crate::decimal::shortest(*.0))]
    InvalidWeight(f64),
    /// A weight written as text that is not a decimal number (`"0x10"`, `"inf"`); its code is
    /// `invalid-weight` too.
    #[error("a weight is a decimal number such as 2 or 0.5 (got {0:?})")]
    WeightNotDecimal(String),
    /// A vnode count outside `1..=MAX_VNODES`.
    #[error("vnodes must be between 1 and {MAX_VNODES} (got {0})")]
    InvalidVnodes(u64),
    /// A ring that would hold more points than a browser tab can keep responsive.
    #[error("that would put {points} points on the ring; the limit is {MAX_POINTS} to keep a browser tab responsive")]
    TooManyPoints { points: u64 },
    /// A hash name that is none of ringlab's hashes.
    #[error("unknown hash {0:?}: choose one of xxh3, xxh64, xxh32, fnv1a32, fnv1a64, md5, sha256, murmur3, crc32")]
    UnknownHash(String),
    /// Ring bits other than 32 or 64.
    #[error("ring bits must be 32 or 64 (got {0})")]
    InvalidBits(u64),
    /// A 32-bit hash asked to fill a 64-bit ring.
    #[error("hash {hash} gives 32-bit values, too few for a 64-bit ring: choose a 64-bit hash")]
    HashTooNarrow { hash: &'static str },

    // What a real system's rules refuse of a node, in the system's own words.
    /// A node the system cannot take as given: its name or address in a form the real client
    /// does not read (`"a:b:c"` for a client that wants `host:port`), a weight written twice,
    /// tokens or slot ranges that collide. `node` is its name.
    #[error("invalid option: {message}")]
    NodeRefused { node: String, message: String },
    /// A weight the system cannot hold: a fraction where it keeps whole numbers, a number past
    /// its range or its integer type, any weight but 1 where it has none.
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

    // Options: every way an option's value is refused (code `invalid-option`).
    /// An option no algorithm or call declares (a typo like `{vnode: 10}`), with the names
    /// that are known.
    #[error("invalid option: unknown option {name:?} (known: {})", .known.join(", "))]
    UnknownOption { name: String, known: Vec<String> },
    /// A name that is none of an option's choices: an algorithm, a system's hash function, a
    /// chart, a config kind. `option` is the option (or what is being chosen), `got` the name
    /// given; the message lists the choices.
    #[error("invalid option: {message}")]
    UnknownChoice { option: String, got: String, message: String },
    /// A number outside an option's range, which is `min` to `max`: `got` may be NaN, and
    /// whether an end itself is allowed (`ε ≥ 0`, a rate above 0) the message says. A value
    /// over the range's cap is [`Error::TooLarge`] instead, where the option has one.
    #[error("invalid option: {message}")]
    OptionOutOfRange { option: String, got: f64, min: f64, max: f64, message: String },
    /// Any other value an option refuses: of the wrong type, against a rule of its own (a
    /// prime table size, a label template with `{name}` and `{i}`), or one that needs
    /// another option set. The message says what the option takes.
    #[error("invalid option: {message}")]
    InvalidOption { option: String, message: String },

    // A call's inputs.
    /// An input over one of the documented caps (`what` names the input).
    #[error("{what} is at most {max} (got {got})")]
    TooLarge { what: String, max: u64, got: u64 },
    /// Fewer of something than a call needs: two nodes to compare, one key to sample.
    #[error("invalid option: {message}")]
    TooFew { what: String, min: usize, got: usize, message: String },
    /// Inputs that must agree and do not: per-node lists of another length than the nodes,
    /// counts that do not add up, two states that must go together.
    #[error("invalid option: {message}")]
    Mismatch { what: String, message: String },
    /// A key given twice in a key list.
    #[error("invalid option: the key list holds {0:?} twice")]
    DuplicateKey(String),
    /// A JS argument of the wrong type or range (a number where a string belongs, a
    /// negative count, an object that is not plain data): only the binding refuses these.
    #[error("{0}")]
    InvalidArgument(String),
    /// A call on a JS object (a `Ring`, a `Session`, an opening: `class`) whose `free()` was
    /// called, or with one as an argument. Only the binding refuses these, in JavaScript before
    /// the call enters wasm (`src/web/freed.rs`), so that no number of them can harm the module.
    #[error("this {class} was freed (its free() was called): make a new one")]
    Freed { class: &'static str },

    // Text.
    /// Text that could not be read (a config, a node list, a key file), with its 1-based line.
    #[error("line {line}: {message}")]
    Parse { line: usize, message: String },
    /// A share link that could not be read, and why.
    #[error("invalid option: this link could not be read: {reason}")]
    Link { reason: String },

    // Questions the current state cannot answer.
    /// A call the current algorithm or state cannot answer, and why (e.g. exact arcs of an
    /// algorithm that has none).
    #[error("{0}")]
    Unsupported(String),
    /// A key that has no owner right now because a node is down, and why (what the real
    /// system answers: e.g. Redis Cluster's slots of a failed master until a replica is
    /// promoted, or jump hash, which cannot skip a bucket).
    #[error("{0}")]
    Unavailable(String),
    // Charts.
    /// A drawing area smaller than the chart's layout needs, in device pixels.
    #[error(
        "invalid option: chart: the drawing area is {width}×{height} px, this chart needs at least {min_width}×{min_height}"
    )]
    ChartTooSmall { width: u32, height: u32, min_width: u32, min_height: u32 },
    /// A chart that cannot be drawn, and why: nothing to draw, a colour that is not
    /// `#rrggbb`, a failure of the drawing backend.
    #[error("invalid option: chart: {0}")]
    Chart(String),

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
        "freed",
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
            Error::UnknownOption { .. }
            | Error::UnknownChoice { .. }
            | Error::OptionOutOfRange { .. }
            | Error::InvalidOption { .. } => "invalid-option",
            // Options' refusals once, and coded so still.
            Error::NodeRefused { .. }
            | Error::WeightRefused { .. }
            | Error::TooFew { .. }
            | Error::Mismatch { .. }
            | Error::DuplicateKey(_)
            | Error::Link { .. }
            | Error::ChartTooSmall { .. }
            | Error::Chart(_) => "invalid-option",
            Error::TooLarge { .. } => "too-large",
            Error::InvalidArgument(_) => "invalid-argument",
            Error::Parse { .. } => "parse-error",
            Error::RemovalNotAllowed { .. } | Error::Unsupported(_) => "unsupported",
            Error::Unavailable(_) => "unavailable",
            Error::Freed { .. } => "freed",
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

    /// [`Error::InvalidOption`]: `option`'s value refused, in `message`'s words.
    pub(crate) fn invalid_option(option: impl Into<String>, message: impl Into<String>) -> Error {
        Error::InvalidOption { option: option.into(), message: message.into() }
    }

    /// [`Error::UnknownChoice`]: `got` is none of `option`'s choices, in `message`'s words.
    pub(crate) fn unknown_choice(
        option: impl Into<String>,
        got: impl Into<String>,
        message: impl Into<String>,
    ) -> Error {
        Error::UnknownChoice { option: option.into(), got: got.into(), message: message.into() }
    }

    /// [`Error::OptionOutOfRange`]: `got` outside `option`'s `min` to `max`, in `message`'s
    /// words.
    pub(crate) fn out_of_range(
        option: impl Into<String>,
        got: f64,
        (min, max): (f64, f64),
        message: impl Into<String>,
    ) -> Error {
        Error::OptionOutOfRange { option: option.into(), got, min, max, message: message.into() }
    }

    /// [`Error::NodeRefused`]: the system refuses node `node`, in `message`'s words.
    pub(crate) fn node_refused(node: impl Into<String>, message: impl Into<String>) -> Error {
        Error::NodeRefused { node: node.into(), message: message.into() }
    }

    /// [`Error::WeightRefused`]: the system refuses `weight`, in `message`'s words.
    pub(crate) fn weight_refused(weight: f64, message: impl Into<String>) -> Error {
        Error::WeightRefused { weight, message: message.into() }
    }

    /// [`Error::TooFew`]: `got` of `what` where at least `min` are needed, in `message`'s words.
    pub(crate) fn too_few(what: impl Into<String>, min: usize, got: usize, message: impl Into<String>) -> Error {
        Error::TooFew { what: what.into(), min, got, message: message.into() }
    }

    /// [`Error::Mismatch`]: `what` does not agree with the rest, in `message`'s words.
    pub(crate) fn mismatch(what: impl Into<String>, message: impl Into<String>) -> Error {
        Error::Mismatch { what: what.into(), message: message.into() }
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

    /// One error of each kind, with the code and message it must have.
    fn one_of_each() -> Vec<(Error, &'static str, &'static str)> {
        let s = String::from;
        vec![
            (Error::EmptyRing, "empty-ring", "the ring is empty: add a node before looking up keys"),
            (Error::DuplicateNode(s("a")), "duplicate-node", r#"a node named "a" is already on the ring"#),
            (Error::UnknownNode(s("a")), "unknown-node", r#"there is no node named "a" on the ring"#),
            (Error::NoNodeNumber { index: 3, nodes: 2 }, "unknown-node", "no node number 3 (there are 2)"),
            (Error::EmptyName, "empty-name", "a node needs a name (it was empty)"),
            (Error::NameTooLong { len: 9, max: 8 }, "name-too-long", "node names are at most 8 bytes (this one has 9)"),
            (Error::InvalidWeight(-1.5), "invalid-weight", "weight must be a positive, finite number (got -1.5)"),
            (
                Error::WeightNotDecimal(s("0x1")),
                "invalid-weight",
                r#"a weight is a decimal number such as 2 or 0.5 (got "0x1")"#,
            ),
            (Error::InvalidVnodes(0), "invalid-vnodes", "vnodes must be between 1 and 10000 (got 0)"),
            (
                Error::TooManyPoints { points: 600_000 },
                "too-many-points",
                "that would put 600000 points on the ring; the limit is 500000 to keep a browser tab responsive",
            ),
            (
                Error::UnknownHash(s("md6")),
                "unknown-hash",
                "unknown hash \"md6\": choose one of xxh3, xxh64, xxh32, fnv1a32, fnv1a64, md5, sha256, murmur3, crc32",
            ),
            (Error::InvalidBits(48), "invalid-bits", "ring bits must be 32 or 64 (got 48)"),
            (
                Error::HashTooNarrow { hash: "crc32" },
                "hash-too-narrow",
                "hash crc32 gives 32-bit values, too few for a 64-bit ring: choose a 64-bit hash",
            ),
            (Error::node_refused("a,b", "the words"), "invalid-option", "invalid option: the words"),
            (Error::weight_refused(1.5, "the words"), "invalid-option", "invalid option: the words"),
            (
                Error::RemovalNotAllowed { algorithm: s("jump hash"), node: s("a"), last: s("c") },
                "unsupported",
                r#"jump hash can only remove its last bucket ("c"); removing "a" would renumber every bucket after it"#,
            ),
            (
                Error::UnknownOption { name: s("vnode"), known: vec![s("hash"), s("vnodes")] },
                "invalid-option",
                r#"invalid option: unknown option "vnode" (known: hash, vnodes)"#,
            ),
            (Error::unknown_choice("chart", "pie", "the words"), "invalid-option", "invalid option: the words"),
            (
                Error::out_of_range("probes", 0.0, (1.0, 100.0), "the words"),
                "invalid-option",
                "invalid option: the words",
            ),
            (Error::invalid_option("hashTag", "the words"), "invalid-option", "invalid option: the words"),
            (Error::TooLarge { what: s("the keys"), max: 5, got: 6 }, "too-large", "the keys is at most 5 (got 6)"),
            (Error::too_few("nodes", 2, 1, "the words"), "invalid-option", "invalid option: the words"),
            (Error::mismatch("counts", "the words"), "invalid-option", "invalid option: the words"),
            (Error::DuplicateKey(s("k")), "invalid-option", r#"invalid option: the key list holds "k" twice"#),
            (Error::InvalidArgument(s("the words")), "invalid-argument", "the words"),
            (Error::Parse { line: 3, message: s("the words") }, "parse-error", "line 3: the words"),
            (
                Error::Link { reason: s("the words") },
                "invalid-option",
                "invalid option: this link could not be read: the words",
            ),
            (Error::Unsupported(s("the words")), "unsupported", "the words"),
            (Error::Unavailable(s("the words")), "unavailable", "the words"),
            (
                Error::ChartTooSmall { width: 10, height: 20, min_width: 30, min_height: 40 },
                "invalid-option",
                "invalid option: chart: the drawing area is 10×20 px, this chart needs at least 30×40",
            ),
            (Error::Chart(s("the words")), "invalid-option", "invalid option: chart: the words"),
            (Error::Internal(s("the words")), "internal", "the words"),
            (Error::Freed { class: "Ring" }, "freed", "this Ring was freed (its free() was called): make a new one"),
        ]
    }

    #[test]
    fn every_kind_has_its_code_and_its_message() {
        for (error, code, message) in one_of_each() {
            assert_eq!(error.code(), code, "{error:?}");
            assert_eq!(error.to_string(), message, "{error:?}");
        }
    }

    /// Each kind's number: a new kind fails to compile here until [`one_of_each`] has it.
    fn kind_number(error: &Error) -> usize {
        match error {
            Error::EmptyRing => 0,
            Error::DuplicateNode(_) => 1,
            Error::UnknownNode(_) => 2,
            Error::NoNodeNumber { .. } => 3,
            Error::EmptyName => 4,
            Error::NameTooLong { .. } => 5,
            Error::InvalidWeight(_) => 6,
            Error::WeightNotDecimal(_) => 7,
            Error::InvalidVnodes(_) => 8,
            Error::TooManyPoints { .. } => 9,
            Error::UnknownHash(_) => 10,
            Error::InvalidBits(_) => 11,
            Error::HashTooNarrow { .. } => 12,
            Error::NodeRefused { .. } => 13,
            Error::WeightRefused { .. } => 14,
            Error::RemovalNotAllowed { .. } => 15,
            Error::UnknownOption { .. } => 16,
            Error::UnknownChoice { .. } => 17,
            Error::OptionOutOfRange { .. } => 18,
            Error::InvalidOption { .. } => 19,
            Error::TooLarge { .. } => 20,
            Error::TooFew { .. } => 21,
            Error::Mismatch { .. } => 22,
            Error::DuplicateKey(_) => 23,
            Error::InvalidArgument(_) => 24,
            Error::Parse { .. } => 25,
            Error::Link { .. } => 26,
            Error::Unsupported(_) => 27,
            Error::Unavailable(_) => 28,
            Error::ChartTooSmall { .. } => 29,
            Error::Chart(_) => 30,
            Error::Internal(_) => 31,
            Error::Freed { .. } => 32,
        }
    }

    #[test]
    fn one_of_each_is_one_of_each() {
        let numbers: Vec<usize> = one_of_each().iter().map(|(e, _, _)| kind_number(e)).collect();
        assert_eq!(numbers, (0..numbers.len()).collect::<Vec<_>>());
        assert_eq!(numbers.len(), 33);
    }

    #[test]
    fn the_codes_are_the_kinds_codes_each_once() {
        let mut given: Vec<&str> = one_of_each().iter().map(|(e, _, _)| e.code()).collect();
        given.sort_unstable();
        given.dedup();
        let mut listed = Error::CODES.to_vec();
        listed.sort_unstable();
        assert_eq!(listed.len(), Error::CODES.len(), "a code listed twice");
        listed.dedup();
        assert_eq!(given, listed);
    }

    #[test]
    fn an_invalid_option_says_so_first_and_a_link_can_quote_it() {
        for (error, _, _) in one_of_each() {
            let words = error.option_words();
            if error.code() == "invalid-option" {
                let message = error.to_string();
                assert_eq!(Some(&message[INVALID_OPTION.len()..]), words.as_deref(), "{error:?}");
            } else {
                assert_eq!(words, None, "{error:?}");
            }
        }
    }

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
