//! The details in which hand-written rings differ: how a point is labelled, how a digest
//! becomes a position, whether a key on a point belongs to it, and who holds a position two
//! nodes share. [`RingRules::default`] is ringlab's own ring; the other values reproduce the
//! rings of tutorials and homegrown code (`tests/real/` runs five of them). Every ring has
//! a size, [`RingBits`]: a hash value's position is its low 32 or 64 bits.
//!
//! | rule | default | others |
//! |---|---|---|
//! | [`Label`] | `{name}#{i}` | any text with `{name}` and `{i}` (`node-{name}#vnode-{i}`) |
//! | [`Position`] | `first4-le` (on a 64-bit ring `first8-le`): the hash value's low bits | `first4-be`, `last4-be`, `first8-be`, `first8-be-signed`: digest bytes of `md5` or `sha256` |
//! | [`Lookup`] | `at-or-after` (Go's `sort.Search`, Java's `ceilingEntry`) | `after` (Python's `bisect.bisect`, which is `bisect_right`) |
//! | [`Ties`] | `smaller-name`: both points kept, the smaller name serves | `later-added` / `earlier-added`: one map entry per position |
//!
//! **Map ties.** Code that keeps its circle in a map (`map[uint32]string`, a dict, a
//! `TreeMap`) has one owner per position. With `later-added`, a later put overwrites: the
//! earlier node's point is gone, not hidden. With `earlier-added`, a put onto a taken position
//! is dropped. Either way, removing a node deletes the positions of all its labels,
//! whoever holds them: removing the loser of a collision also takes the winner's point
//! (`delete(m, hash)`, `del ring[h]`, `TreeMap.remove`).

use crate::{Error, Hash};

/// The ring's size: 32 bits (`[0, 2^32 - 1]`) or 64 bits (`[0, 2^64 - 1]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RingBits {
    #[default]
    B32,
    B64,
}

impl RingBits {
    /// Parses `32` or `64`.
    pub fn from_bits(bits: u64) -> Result<RingBits, Error> {
        match bits {
            32 => Ok(RingBits::B32),
            64 => Ok(RingBits::B64),
            other => Err(Error::InvalidBits(other)),
        }
    }

    /// 32 or 64.
    pub fn bits(self) -> u32 {
        match self {
            RingBits::B32 => 32,
            RingBits::B64 => 64,
        }
    }

    /// The number of positions on the ring, `2^bits`.
    pub fn size(self) -> u128 {
        1u128 << self.bits()
    }

    /// The position of a hash value: its low `bits` bits.
    #[inline]
    pub fn position(self, hash: u64) -> u64 {
        match self {
            RingBits::B32 => hash & u64::from(u32::MAX),
            RingBits::B64 => hash,
        }
    }
}

/// Longest label template, in bytes.
pub const MAX_LABEL_TEMPLATE_LEN: usize = crate::limits::MAX_LABEL_TEMPLATE_LEN;

/// How a hand-written ring differs from ringlab's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RingRules {
    pub label: Label,
    pub position: Position,
    pub lookup: Lookup,
    pub ties: Ties,
}

impl RingRules {
    /// Whether keys are hashed and looked up as ringlab's ring does (labels and ties may differ).
    pub fn keys_as_default(&self) -> bool {
        matches!(self.position, Position::First4Le | Position::First8Le) && self.lookup == Lookup::AtOrAfter
    }

    /// Checks that the position rule fits the ring's size and hash.
    pub fn check(&self, hash: Hash, bits: RingBits) -> Result<(), Error> {
        let name = self.position.name();
        let (width, digest) = match self.position {
            Position::First4Le => return Ok(()),
            Position::First8Le => (64, false),
            Position::First4Be | Position::Last4Be => (32, true),
            Position::First8Be | Position::First8BeSigned => (64, true),
        };
        if width != bits.bits() {
            return Err(Error::invalid_option(
                "position",
                format!("position {name} makes a {width}-bit position: it needs bits {width} (got {})", bits.bits()),
            ));
        }
        if digest && hash.digest(b"").is_none() {
            let words = format!(
                "position {name} reads a digest's bytes: it needs hash md5 or sha256 ({hash}'s value is its \
                 position: use first4-le or first8-le)"
            );
            return Err(Error::invalid_option("position", words));
        }
        if bits.bits() > hash.bits() {
            return Err(Error::HashTooNarrow { hash: hash.name() });
        }
        Ok(())
    }

    /// The position of `bytes` (a label or a key) before the lookup rule.
    #[inline]
    pub fn position(&self, hash: Hash, bits: RingBits, bytes: &[u8]) -> u64 {
        match self.position {
            Position::First4Le | Position::First8Le => bits.position(hash.hash(bytes)),
            other => {
                let digest = hash.digest(bytes).unwrap_or([0; 32]);
                let len = if hash == Hash::Md5 { 16 } else { 32 };
                let be4 = |at: usize| u64::from(u32::from_be_bytes(digest[at..at + 4].try_into().expect("4 bytes")));
                let be8 = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
                match other {
                    Position::First4Be => be4(0),
                    Position::Last4Be => be4(len - 4),
                    Position::First8Be => be8,
                    // Java's `long` read as unsigned, turned half a circle: signed order from −2^63.
                    _ => be8 ^ (1 << 63),
                }
            }
        }
    }

    /// A key's position on the circle: where [`Lookup::AtOrAfter`] finds its owner.
    #[inline]
    pub fn key_position(&self, hash: Hash, bits: RingBits, key: &[u8]) -> u64 {
        let position = self.position(hash, bits, key);
        match self.lookup {
            Lookup::AtOrAfter => position,
            // The first point > p is the first point ≥ p + 1; past the top it wraps to 0.
            Lookup::After => bits.position(position.wrapping_add(1)),
        }
    }
}

/// A point label template: text with `{name}` (the node's name) and `{i}` (the point's
/// number, from 0), each at least once; no other braces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    text: String,
    parts: Vec<Part>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Text(String),
    Name,
    Index,
}

impl Default for Label {
    fn default() -> Label {
        Label { text: Label::DEFAULT.into(), parts: vec![Part::Name, Part::Text("#".into()), Part::Index] }
    }
}

impl Label {
    /// ringlab's labels.
    pub const DEFAULT: &'static str = "{name}#{i}";

    /// Reads a template, refusing one over [`MAX_LABEL_TEMPLATE_LEN`] bytes, without `{name}` or
    /// `{i}`, or with another brace.
    ///
    /// ```
    /// use ringlab::Label;
    /// assert_eq!(Label::parse("node-{name}#vnode-{i}")?.expand("3", 7), "node-3#vnode-7");
    /// assert_eq!(Label::parse("{name}").unwrap_err().code(), "invalid-option");
    /// # Ok::<(), ringlab::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<Label, Error> {
        crate::limits::check("a label template's bytes", text.len() as u64, MAX_LABEL_TEMPLATE_LEN as u64)?;
        let bad = |why: &str| Error::invalid_option("label", format!("label {text:?} {why}"));
        let mut parts = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let brace = rest.find(['{', '}']).unwrap_or(rest.len());
            if brace > 0 {
                parts.push(Part::Text(rest[..brace].to_string()));
            }
            rest = &rest[brace..];
            if let Some(after) = rest.strip_prefix("{name}") {
                parts.push(Part::Name);
                rest = after;
            } else if let Some(after) = rest.strip_prefix("{i}") {
                parts.push(Part::Index);
                rest = after;
            } else if !rest.is_empty() {
                return Err(bad("has a brace that is not part of {name} or {i}"));
            }
        }
        if !parts.contains(&Part::Name) {
            return Err(bad("needs {name}: without it every node's points are the same"));
        }
        if !parts.contains(&Part::Index) {
            return Err(bad("needs {i}: without it all of a node's points are one"));
        }
        Ok(Label { text: text.to_string(), parts })
    }

    /// The template as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The template with its placeholders as plain words, as descriptions quote it:
    /// `{name}#{i}` reads `name#i`.
    pub fn plain(&self) -> String {
        let mut out = String::new();
        for part in &self.parts {
            out.push_str(match part {
                Part::Text(t) => t,
                Part::Name => "name",
                Part::Index => "i",
            });
        }
        out
    }

    /// Writes the label of point `i` of node `name` into `buf` (cleared first).
    #[inline]
    pub fn write(&self, name: &str, i: u32, buf: &mut Vec<u8>) {
        buf.clear();
        for part in &self.parts {
            match part {
                Part::Text(t) => buf.extend_from_slice(t.as_bytes()),
                Part::Name => buf.extend_from_slice(name.as_bytes()),
                Part::Index => buf.extend_from_slice(itoa::Buffer::new().format(i).as_bytes()),
            }
        }
    }

    /// The bytes of the longest of the first `points` labels of a node whose name is
    /// `name_len` bytes long: what hashing them costs, a label at a time.
    pub fn longest(&self, name_len: usize, points: u32) -> u64 {
        let digits = itoa::Buffer::new().format(points.saturating_sub(1)).len();
        let len = |part: &Part| match part {
            Part::Text(t) => t.len(),
            Part::Name => name_len,
            Part::Index => digits,
        };
        self.parts.iter().map(len).sum::<usize>() as u64
    }

    /// The label of point `i` of node `name`.
    pub fn expand(&self, name: &str, i: u32) -> String {
        let mut buf = Vec::new();
        self.write(name, i, &mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    }
}

macro_rules! named {
    ($(#[$doc:meta])* $ty:ident { $($(#[$vdoc:meta])* $variant:ident = $name:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub enum $ty {
            #[default]
            $($(#[$vdoc])* $variant,)*
        }

        impl $ty {
            /// Every value, the default first.
            pub const ALL: &'static [$ty] = &[$($ty::$variant,)*];

            /// Its name in options and links.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)*
                }
            }

            /// Every name, the default first.
            pub fn names() -> Vec<&'static str> {
                Self::ALL.iter().map(|v| v.name()).collect()
            }

            /// The value called `name`.
            pub fn from_name(name: &str) -> Result<$ty, Error> {
                Self::ALL.iter().copied().find(|v| v.name() == name).ok_or_else(|| {
                    Error::unknown_choice(
                        stringify!($ty).to_ascii_lowercase(),
                        name,
                        format!(
                            concat!("unknown ", stringify!($ty), " {:?}: choose one of {}"),
                            name,
                            Self::names().join(", ")
                        ),
                    )
                })
            }
        }
    };
}

named! {
    /// How a label's or key's digest becomes a position.
    Position {
        /// The hash value's low 32 bits (on a 64-bit ring, all 64: `first8-le`); for `md5` and
        /// `sha256`, digest bytes 0..4 (0..8) little-endian, libketama's rule.
        First4Le = "first4-le",
        /// Digest bytes 0..4 big-endian (`binary.BigEndian.Uint32(sum[:4])`).
        First4Be = "first4-be",
        /// The last 4 digest bytes big-endian: `int(hexdigest, 16) % 2**32`.
        Last4Be = "last4-be",
        /// Digest bytes 0..8 little-endian (the 64-bit ring's default).
        First8Le = "first8-le",
        /// Digest bytes 0..8 big-endian, unsigned.
        First8Be = "first8-be",
        /// Digest bytes 0..8 as a signed big-endian `long`, the circle ordered as signed
        /// longs (Java's `TreeMap<Long, _>`): the owners of `first8-be`, drawn from −2⁶³.
        First8BeSigned = "first8-be-signed",
    }
}

named! {
    /// Which point a key's position belongs to.
    Lookup {
        /// The first point at or after it, wrapping (`sort.Search` for `>=`, `ceilingEntry`).
        AtOrAfter = "at-or-after",
        /// The first point strictly after it, wrapping (`bisect.bisect`, `higherEntry`).
        After = "after",
    }
}

named! {
    /// Who holds a position two nodes' points share.
    Ties {
        /// Both points kept; the node whose name sorts first serves; removing it hands the
        /// position to the other.
        SmallerName = "smaller-name",
        /// One entry a position, the later put overwrites; a removal deletes the position.
        LaterAdded = "later-added",
        /// One entry a position, the first put stays; a removal deletes the position.
        EarlierAdded = "earlier-added",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule for a 32-bit ring (see [`Hash`](enum@Hash)): `md5` positions are digest
    /// bytes 0..4 read little-endian (libketama's `ketama_hashi`). MD5("") = d41d8cd9...: 0xd98c1dd4.
    #[test]
    fn md5_on_a_32_bit_ring_is_the_first_four_digest_bytes_little_endian() {
        assert_eq!(RingBits::B32.position(Hash::Md5.hash(b"")), 0xd98c_1dd4);
        assert_eq!(RingBits::B64.position(Hash::Md5.hash(b"")), 0x04b2_008f_d98c_1dd4);
    }

    #[test]
    fn templates_expand_and_refuse_what_they_cannot_mean() {
        assert_eq!(Label::default(), Label::parse("{name}#{i}").unwrap());
        assert_eq!(Label::parse("{i}{name}").unwrap().expand("a", 12), "12a");
        assert_eq!(Label::default().plain(), "name#i");
        assert_eq!(Label::parse("node-{name}-{i}:{name}").unwrap().plain(), "node-name-i:name");
        for bad in ["{name}", "{i}", "{name}#{j}", "{name}{i}}", "{{name}{i}", ""] {
            assert_eq!(Label::parse(bad).unwrap_err().code(), "invalid-option", "{bad:?}");
        }
        let long = format!("{{name}}{{i}}{}", "x".repeat(MAX_LABEL_TEMPLATE_LEN));
        assert_eq!(Label::parse(&long).unwrap_err().code(), "too-large");
    }

    /// Digest bytes read by hand from published digests: MD5("") = d41d8cd9 8f00b204
    /// e9800998 ecf8427e; SHA-256("abc") = ba7816bf 8f01cfea … f20015ad.
    #[test]
    fn positions_read_the_bytes_they_name() {
        let at = |position, hash, bits, bytes: &[u8]| {
            RingRules { position, ..RingRules::default() }.position(hash, bits, bytes)
        };
        let (b32, b64) = (RingBits::B32, RingBits::B64);
        assert_eq!(at(Position::First4Le, Hash::Md5, b32, b""), 0xd98c_1dd4);
        assert_eq!(at(Position::First4Be, Hash::Md5, b32, b""), 0xd41d_8cd9);
        assert_eq!(at(Position::Last4Be, Hash::Md5, b32, b""), 0xecf8_427e);
        assert_eq!(at(Position::First8Le, Hash::Md5, b64, b""), 0x04b2_008f_d98c_1dd4);
        assert_eq!(at(Position::First8Be, Hash::Md5, b64, b""), 0xd41d_8cd9_8f00_b204);
        assert_eq!(at(Position::First8BeSigned, Hash::Md5, b64, b""), 0x541d_8cd9_8f00_b204);
        assert_eq!(at(Position::First4Be, Hash::Sha256, b32, b"abc"), 0xba78_16bf);
        assert_eq!(at(Position::Last4Be, Hash::Sha256, b32, b"abc"), 0xf200_15ad);
    }

    #[test]
    fn after_is_at_or_after_the_next_position() {
        let rules = RingRules { lookup: Lookup::After, ..RingRules::default() };
        let p = RingRules::default().position(Hash::Fnv1a32, RingBits::B32, b"k");
        assert_eq!(rules.key_position(Hash::Fnv1a32, RingBits::B32, b"k"), (p + 1) & 0xffff_ffff);
    }

    #[test]
    fn positions_that_do_not_fit_are_refused() {
        let with = |position| RingRules { position, ..RingRules::default() };
        assert!(with(Position::First4Le).check(Hash::Xxh3, RingBits::B64).is_ok());
        assert!(with(Position::First8Le).check(Hash::Xxh3, RingBits::B64).is_ok());
        assert!(with(Position::First8Be).check(Hash::Md5, RingBits::B64).is_ok());
        assert!(with(Position::First8Le).check(Hash::Md5, RingBits::B32).is_err());
        assert!(with(Position::Last4Be).check(Hash::Sha256, RingBits::B64).is_err());
        assert!(with(Position::First4Be).check(Hash::Fnv1a32, RingBits::B32).is_err());
        assert_eq!(Position::from_name("middle").unwrap_err().code(), "invalid-option");
        assert_eq!(Ties::names(), ["smaller-name", "later-added", "earlier-added"]);
    }
}
