//! Key samples: the keys a page draws and moves, given or generated as `"{prefix}{i}"`.

use crate::decimal::thousands;

/// Keys to move between ring states: given, or generated as `"{prefix}{i}"`.
#[derive(Clone, Debug, PartialEq)]
pub struct KeySample {
    pub keys: Vec<String>,
}

/// Calls `f(i, key)` for the keys `"{prefix}0"` .. `"{prefix}{count-1}"`, with no
/// allocation per key (a page may ask for 100,000 of them per frame change).
///
/// The keys are written 64 at a time, then visited: hashing a key
/// right after writing it reads bytes still on their way to the cache (a store-forwarding
/// stall), which cost more than the hash itself. The number is counted up in place, digit
/// by digit, rather than formatted anew for each key, and a key of up to 32 bytes is
/// copied as one fixed-size block: in wasm, formatting and variable-length copies (a call
/// each) were half of a batch lookup's time.
pub fn for_each_generated(prefix: &str, count: usize, f: impl FnMut(usize, &[u8])) {
    for_each_generated_in(prefix, 0..count, f);
}

/// [`for_each_generated`] for the keys numbered `range` only.
pub fn for_each_generated_in(prefix: &str, range: std::ops::Range<usize>, mut f: impl FnMut(usize, &[u8])) {
    let count = range.end;
    let mut current = format!("{prefix}{}", range.start).into_bytes();
    let mut ends = [0usize; GENERATED_CHUNK];
    let mut slots = [[0u8; SLOT]; GENERATED_CHUNK];
    let mut text = Vec::new();
    let mut first = range.start;
    while first < count {
        let n = (count - first).min(GENERATED_CHUNK);
        // A chunk's numbers gain at most one digit (it spans fewer than 90 numbers).
        let short = current.len() < SLOT;
        if short {
            let mut block = [0u8; SLOT];
            block[..current.len()].copy_from_slice(&current);
            let mut len = current.len();
            for (slot, end) in slots[..n].iter_mut().zip(&mut ends) {
                *slot = block;
                *end = len;
                len = count_up(&mut block, prefix.len(), len);
            }
            current.clear();
            current.extend_from_slice(&block[..len]);
        } else {
            text.clear();
            for end in &mut ends[..n] {
                text.extend_from_slice(&current);
                *end = text.len();
                let len = current.len();
                current.push(b'0');
                let grown = count_up(&mut current, prefix.len(), len);
                current.truncate(grown);
            }
        }
        // One call site for `f`, so that the compiler inlines it (in wasm it did not, with two).
        let mut start = 0;
        for (j, &end) in ends[..n].iter().enumerate() {
            let key = if short { &slots[j][..end] } else { &text[start..end] };
            start = end;
            f(first + j, key);
        }
        first += n;
    }
}

/// Keys up to this many bytes are copied as one block.
const SLOT: usize = 32;

/// Adds one to the decimal number in `key[digits_from..len]`, and says its new length
/// (`len + 1` when all its digits were nines; `key` has room for one more byte).
fn count_up(key: &mut [u8], digits_from: usize, len: usize) -> usize {
    for digit in key[digits_from..len].iter_mut().rev() {
        if *digit == b'9' {
            *digit = b'0';
        } else {
            *digit += 1;
            return len;
        }
    }
    // All nines: a 1 in front of as many zeros.
    key[digits_from] = b'1';
    key[len] = b'0';
    len + 1
}

/// Keys [`for_each_generated`] writes before visiting them.
const GENERATED_CHUNK: usize = 64;

impl KeySample {
    /// The keys `"{prefix}0"` .. `"{prefix}{count-1}"`.
    pub fn generated(prefix: &str, count: usize) -> KeySample {
        KeySample { keys: (0..count).map(|i| format!("{prefix}{i}")).collect() }
    }
}

/// Most distinct keys in a key list a user gives (pasted or loaded).
pub const MAX_KEY_LIST_KEYS: usize = 1_000_000;
/// Most bytes of key-list text.
pub const MAX_KEY_LIST_BYTES: usize = 64 * 1024 * 1024;
/// Longest key in a key list, in bytes.
pub const MAX_LIST_KEY_LEN: usize = 1024;

/// A user's keys, each with a traffic weight (its request count).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KeyList {
    /// The distinct keys, in the order they first appear.
    pub keys: Vec<String>,
    /// `counts[i]` is how often `keys[i]` is requested: the sum of its counts (CSV) or the
    /// number of lines that name it (one key per line).
    pub counts: Vec<u64>,
    /// How the lines were read: `key,count` (CSV) or one key a line.
    pub csv: bool,
}

impl KeyList {
    /// How the text was read, in words: the format and what it came to.
    pub fn read_as(&self) -> String {
        let keys = thousands(self.keys.len() as u64);
        let requests = thousands(self.total_count());
        if self.csv {
            format!("Read as key,count lines: {keys} distinct keys, {requests} requests.")
        } else {
            format!("Read one key a line: {keys} distinct keys, {requests} lines.")
        }
    }

    /// All requests, the sum of the counts.
    pub fn total_count(&self) -> u128 {
        self.counts.iter().map(|&c| u128::from(c)).sum()
    }

    /// Checks what [`parse_key_list`] guarantees, for a list built by hand: one count a key,
    /// at most [`MAX_KEY_LIST_KEYS`] keys of at most [`MAX_LIST_KEY_LEN`] bytes, no key twice.
    pub fn check(&self) -> Result<(), crate::Error> {
        use crate::Error;
        use std::collections::hash_map::Entry;
        if self.keys.len() != self.counts.len() {
            let (keys, counts) = (self.keys.len(), self.counts.len());
            return Err(Error::mismatch(
                "counts",
                format!("a key list needs one count a key ({keys} keys, {counts} counts)"),
            ));
        }
        crate::limits::check("keys in a key list", self.keys.len() as u64, MAX_KEY_LIST_KEYS as u64)?;
        if let Some(long) = self.keys.iter().find(|k| k.len() > MAX_LIST_KEY_LEN) {
            return crate::limits::check("a key's bytes in a key list", long.len() as u64, MAX_LIST_KEY_LEN as u64);
        }
        // Repeats by each key's XXH3, as the builder finds them; the rare different keys of
        // one hash go to an ordered set.
        let mut by_hash = nohash_hasher::IntMap::<u64, u32>::default();
        let mut collided = std::collections::BTreeSet::new();
        for (i, key) in self.keys.iter().enumerate() {
            let repeated = match by_hash.entry(twox_hash::XxHash3_64::oneshot(key.as_bytes())) {
                Entry::Vacant(slot) => {
                    slot.insert(i as u32);
                    false
                }
                Entry::Occupied(first) => self.keys[*first.get() as usize] == *key || !collided.insert(key.as_str()),
            };
            if repeated {
                return Err(Error::DuplicateKey(key.clone()));
            }
        }
        Ok(())
    }
}

/// Reads a list of keys: one key per line, or CSV lines `key,count`.
///
/// - The text is CSV when its first non-blank line is the header `key,count` or is itself
///   a `key,count` line (a quoted key, or a count after the last comma); then every line
///   must be `key,count`. Otherwise every line is one key, exactly as written (a trailing
///   `\r` dropped), commas and quotes included.
/// - CSV keys may be quoted (`"a,b"`, a doubled `""` is one quote); counts are whole
///   numbers ≥ 0 and weigh the key's traffic.
/// - Blank lines (only spaces or tabs) are skipped. A key given twice is one key: its
///   counts add up (a log of requests, one key a line, gives each key its request count).
///
/// Errors name the line (1-based); nothing is returned partially. Caps:
/// [`MAX_KEY_LIST_BYTES`] of text, [`MAX_KEY_LIST_KEYS`] distinct keys, keys of at most
/// [`MAX_LIST_KEY_LEN`] bytes.
///
/// ```
/// use ringlab::keys::parse_key_list;
/// let list = parse_key_list("key,count\nuser:1,10\n\"a,b\",3\nuser:1,5\n")?;
/// assert_eq!(list.keys, ["user:1", "a,b"]);
/// assert_eq!(list.counts, [15, 3]);
/// let plain = parse_key_list("x\ny\n\nx\n")?;
/// assert_eq!((plain.keys.len(), plain.counts[0]), (2, 2));
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn parse_key_list(text: &str) -> Result<KeyList, crate::Error> {
    parse_capped(text, MAX_KEY_LIST_KEYS, |key| twox_hash::XxHash3_64::oneshot(key.as_bytes()))
}

/// [`parse_key_list`] with a cap on distinct keys and the hash that finds repeats as
/// parameters (tests force collisions with a poor hash, and the cap with a small one).
fn parse_capped(text: &str, max_keys: usize, hash_of: impl Fn(&str) -> u64) -> Result<KeyList, crate::Error> {
    let mut builder = KeyListBuilder::with_cap(max_keys);
    builder.push_with(text, &hash_of)?;
    Ok(builder.finish())
}

/// A key list read piece by piece (each piece whole lines, in order), so that a page can
/// read a million keys in several short tasks; the same rules and caps as [`parse_key_list`],
/// and line numbers count from the first piece.
///
/// ```
/// use ringlab::keys::{parse_key_list, KeyListBuilder};
/// let mut b = KeyListBuilder::new();
/// b.push("key,count\nuser:1,10")?;
/// b.push("user:2,1\nuser:1,5")?;
/// assert_eq!(b.finish(), parse_key_list("key,count\nuser:1,10\nuser:2,1\nuser:1,5")?);
/// # Ok::<(), ringlab::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct KeyListBuilder {
    /// CSV or one key a line, decided by the first non-blank line.
    csv: Option<bool>,
    /// Lines read so far (for 1-based line numbers across pieces).
    lines: usize,
    bytes: usize,
    max_keys: usize,
    // Distinct keys in order of first appearance; repeats add to the first one's count.
    // Repeats are found by each key's XXH3 hash (fixed, seed 0); the rare keys whose hash
    // another key already has go to a second, ordered map.
    by_hash: nohash_hasher::IntMap<u64, u32>,
    collided: std::collections::BTreeMap<String, u32>,
    keys: Vec<String>,
    counts: Vec<u64>,
}

impl KeyListBuilder {
    pub fn new() -> KeyListBuilder {
        KeyListBuilder::with_cap(MAX_KEY_LIST_KEYS)
    }

    fn with_cap(max_keys: usize) -> KeyListBuilder {
        KeyListBuilder { max_keys, ..KeyListBuilder::default() }
    }

    /// Reads the next piece: whole lines, without the newline that ends its last line. On
    /// error the builder is to be dropped (nothing partial is kept).
    pub fn push(&mut self, text: &str) -> Result<(), crate::Error> {
        self.push_with(text, &|key: &str| twox_hash::XxHash3_64::oneshot(key.as_bytes()))
    }

    fn push_with(&mut self, text: &str, hash_of: &dyn Fn(&str) -> u64) -> Result<(), crate::Error> {
        use crate::Error;
        use std::collections::hash_map::Entry;
        self.bytes += text.len();
        if self.bytes > MAX_KEY_LIST_BYTES {
            return Err(Error::TooLarge {
                what: "a key list (bytes)".into(),
                max: MAX_KEY_LIST_BYTES as u64,
                got: self.bytes as u64,
            });
        }
        let first_line = self.lines;
        let room = text.bytes().filter(|&b| b == b'\n').count() + 1;
        self.lines += room;
        self.by_hash.reserve(room.min(self.max_keys));
        let lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).enumerate();
        let mut data = lines.filter(|(_, l)| !l.trim_matches([' ', '\t']).is_empty()).peekable();
        if self.csv.is_none() {
            self.csv = match data.peek() {
                Some((_, first)) if first.trim().eq_ignore_ascii_case("key,count") => {
                    data.next();
                    Some(true)
                }
                Some((_, first)) => Some(csv_line(first).is_ok()),
                None => None,
            };
        }
        let csv = self.csv == Some(true);
        for (i, line) in data {
            let number = first_line + i + 1;
            let (key, count) = if csv {
                csv_line(line).map_err(|message| Error::Parse { line: number, message })?
            } else {
                if let Some(message) = ambiguous(line) {
                    return Err(Error::Parse { line: number, message });
                }
                (std::borrow::Cow::Borrowed(line), 1)
            };
            if key.is_empty() {
                return Err(Error::Parse { line: number, message: "the key is empty".into() });
            }
            if key.len() > MAX_LIST_KEY_LEN {
                return Err(Error::Parse {
                    line: number,
                    message: format!("the key has {} bytes; keys are at most {MAX_LIST_KEY_LEN}", key.len()),
                });
            }
            let hash = hash_of(&key);
            let known = match self.by_hash.get(&hash) {
                Some(&at) if self.keys[at as usize] == key => Some(at),
                Some(_) => self.collided.get(key.as_ref()).copied(),
                None => None,
            };
            if let Some(at) = known {
                self.counts[at as usize] = self.counts[at as usize].saturating_add(count);
                continue;
            }
            if self.keys.len() == self.max_keys {
                return Err(Error::TooLarge {
                    what: format!("a key list (distinct keys; line {number} is one more)"),
                    max: self.max_keys as u64,
                    got: self.max_keys as u64 + 1,
                });
            }
            let at = self.keys.len() as u32;
            match self.by_hash.entry(hash) {
                Entry::Vacant(slot) => {
                    slot.insert(at);
                }
                // The first key keeps the hash; this one is found by name.
                Entry::Occupied(_) => {
                    self.collided.insert(key.clone().into_owned(), at);
                }
            }
            self.keys.push(key.into_owned());
            self.counts.push(count);
        }
        Ok(())
    }

    /// The list read so far.
    pub fn finish(self) -> KeyList {
        KeyList { keys: self.keys, counts: self.counts, csv: self.csv == Some(true) }
    }
}

/// One CSV line `key,count`: the key quoted (`""` inside is one `"`) or bare (everything
/// before the last comma), the count a whole number.
fn csv_line(line: &str) -> Result<(std::borrow::Cow<'_, str>, u64), String> {
    use std::borrow::Cow;
    let (key, rest): (Cow<'_, str>, &str) = if let Some(quoted) = line.strip_prefix('"') {
        // Most quoted keys hold no doubled quote: borrow them.
        if let Some(end) = quoted.find('"').filter(|&e| !quoted[e + 1..].starts_with('"')) {
            let rest = quoted[end + 1..]
                .strip_prefix(',')
                .ok_or_else(|| "expected a comma and a count after the quoted key".to_string())?;
            return count_of(rest).map(|count| (Cow::Borrowed(&quoted[..end]), count));
        }
        let mut key = String::new();
        let mut chars = quoted.char_indices();
        let end = loop {
            match chars.next() {
                None => return Err("a quoted key has no closing quote".into()),
                Some((i, '"')) => {
                    if quoted[i + 1..].starts_with('"') {
                        key.push('"');
                        chars.next();
                    } else {
                        break i + 1;
                    }
                }
                Some((_, c)) => key.push(c),
            }
        };
        let rest = quoted[end..]
            .strip_prefix(',')
            .ok_or_else(|| "expected a comma and a count after the quoted key".to_string())?;
        (Cow::Owned(key), rest)
    } else {
        let (key, count) =
            line.rsplit_once(',').ok_or_else(|| "expected `key,count` (no comma on this line)".to_string())?;
        (Cow::Borrowed(key), count)
    };
    count_of(rest).map(|count| (key, count))
}

/// Why a line of a one-key-a-line list is ambiguous, if it is: it ends in a comma and
/// something number-like that is not a whole count (`a,-5`, `a,1e308`, `a,2.5`), so it may
/// be meant as `key,count` with a bad count, or as one key. Refused rather than guessed.
fn ambiguous(line: &str) -> Option<String> {
    let (key, tail) = line.rsplit_once(',')?;
    let tail = tail.trim();
    // A decimal has a digit and only digits, signs, a point and an exponent's `e`.
    crate::decimal::is_decimal(tail).then(|| {
        format!(
            "{line:?} could be the key {key:?} with the count {tail}, but a count is a whole number ≥ 0; \
             write a whole count (and `key,count` as the first line), or leave the comma out"
        )
    })
}

/// A CSV count: a whole number ≥ 0.
fn count_of(rest: &str) -> Result<u64, String> {
    let count = rest.trim();
    if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("the count must be a whole number ≥ 0 (got {count:?})"));
    }
    count.parse().map_err(|_| format!("the count {count} is too large"))
}

#[cfg(test)]
mod tests {

    #[test]
    fn pieces_read_as_the_whole_text_and_errors_count_lines_from_the_start() {
        let lines: Vec<String> = (0..1000).map(|i| format!("user:{},{}", i % 700, i % 5)).collect();
        let whole = parse_key_list(&format!("key,count\n{}", lines.join("\n"))).unwrap();
        let mut b = KeyListBuilder::new();
        b.push("key,count").unwrap();
        for piece in lines.chunks(137) {
            b.push(&piece.join("\n")).unwrap();
        }
        assert_eq!(b.finish(), whole);
        // A bad line in the third piece names its line in the whole text.
        let mut b = KeyListBuilder::new();
        b.push("a,1\nb,2").unwrap();
        b.push("c,3").unwrap();
        let e = b.push("d,4\ne,x").unwrap_err();
        assert_eq!(e.to_string(), parse_key_list("a,1\nb,2\nc,3\nd,4\ne,x").unwrap_err().to_string());
        assert!(e.to_string().starts_with("line 5:"), "{e}");
    }

    use super::*;

    #[test]
    fn generated_keys_are_the_prefix_and_the_number_across_chunks() {
        for (prefix, count) in [
            ("user:", 0),
            ("", 1),
            ("k", GENERATED_CHUNK - 1),
            ("k", GENERATED_CHUNK),
            ("é:", 3 * GENERATED_CHUNK + 5),
            ("", 10_001),
            ("a-prefix-of-thirty-bytes-long:", 1_001),
            ("p".repeat(64).as_str(), 120),
        ] {
            let mut seen = Vec::new();
            for_each_generated(prefix, count, |i, key| seen.push((i, key.to_vec())));
            let expected: Vec<(usize, Vec<u8>)> =
                (0..count).map(|i| (i, format!("{prefix}{i}").into_bytes())).collect();
            assert_eq!(seen, expected, "{prefix:?} × {count}");
        }
    }

    #[test]
    fn csv_and_plain_lists() {
        let list = parse_key_list("\"say \"\"hi\"\"\",2\r\nplain,key,7\n\n  \nplain,key,1\n").unwrap();
        assert_eq!(list.keys, ["say \"hi\"", "plain,key"]);
        assert_eq!(list.counts, [2, 8]);
        // Not CSV: the first line has no count, so every line is a key as written...
        let list = parse_key_list("a,b\n\"q\"\nc,d3\n").unwrap();
        assert_eq!(list.keys, ["a,b", "\"q\"", "c,d3"]);
        assert_eq!(list.counts, [1, 1, 1]);
        // ...except one that reads as well as `key,count`: which was meant is not guessed.
        assert!(parse_key_list("a,b\nc,3\n").unwrap_err().to_string().starts_with("line 2"));
        assert_eq!(parse_key_list("").unwrap(), KeyList::default());
        assert_eq!(parse_key_list("KEY,COUNT\n").unwrap(), KeyList { csv: true, ..KeyList::default() });
    }

    #[test]
    fn ambiguous_lines_are_refused_and_the_format_is_said() {
        for text in ["a,-5\nb", "a,1e308", "x\na,2.5"] {
            let e = super::parse_key_list(text).unwrap_err();
            assert_eq!(e.code(), "parse-error", "{text}: {e}");
            assert!(e.to_string().contains("could be the key"), "{text}: {e}");
        }
        assert!(super::parse_key_list("x\na,2.5").unwrap_err().to_string().starts_with("line 2"));
        // A comma before something that is not a number is part of the key.
        let plain = super::parse_key_list("a,b\nuser,x1\n").unwrap();
        assert_eq!((plain.keys.len(), plain.csv), (2, false));
        assert_eq!(plain.read_as(), "Read one key a line: 2 distinct keys, 2 lines.");
        let csv = super::parse_key_list("key,count\nu1,10\nu2,5\n").unwrap();
        assert_eq!(csv.read_as(), "Read as key,count lines: 2 distinct keys, 15 requests.");
        // In a CSV list a bad count is already an error naming the line.
        assert!(super::parse_key_list("u1,3\na,-5").unwrap_err().to_string().starts_with("line 2"));
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse_key_list("key,count\na,1\n\nb\n").unwrap_err();
        assert_eq!(
            err,
            crate::Error::Parse { line: 4, message: "expected `key,count` (no comma on this line)".into() }
        );
        let err = parse_key_list("a,1\nb,-2\n").unwrap_err();
        assert!(matches!(err, crate::Error::Parse { line: 2, .. }), "{err}");
        let err = parse_key_list("a,1\n\"b,1\n").unwrap_err();
        assert_eq!(err.to_string(), "line 2: a quoted key has no closing quote");
        let err = parse_key_list("a,1\n\"\",4\n").unwrap_err();
        assert_eq!(err.to_string(), "line 2: the key is empty");
        let long = "k".repeat(MAX_LIST_KEY_LEN + 1);
        let err = parse_key_list(&format!("ok\n{long}\n")).unwrap_err();
        assert!(matches!(err, crate::Error::Parse { line: 2, .. }));
        let err = parse_key_list("a,1\nb,99999999999999999999999\n").unwrap_err();
        assert!(err.to_string().contains("too large"), "{err}");
    }

    #[test]
    fn a_million_keys_fit_and_one_more_distinct_key_does_not() {
        let mut text = String::new();
        for_each_generated("k", MAX_KEY_LIST_KEYS, |_, key| {
            text.push_str(std::str::from_utf8(key).unwrap());
            text.push('\n');
        });
        let list = parse_key_list(&text).unwrap();
        assert_eq!(list.keys.len(), MAX_KEY_LIST_KEYS);
        assert_eq!(list.keys[123_456], "k123456");
        // The same rule with a cap of 3: repeats do not count, a 4th distinct key does.
        let err = parse_capped("a\nb\na\nc\nb\nd\n", 3, |k| k.len() as u64).unwrap_err();
        assert_eq!(err.to_string(), "a key list (distinct keys; line 6 is one more) is at most 3 (got 4)");
        let big = "x".repeat(MAX_KEY_LIST_BYTES + 1);
        assert_eq!(parse_key_list(&big).unwrap_err().code(), "too-large");
    }

    #[test]
    fn keys_whose_hashes_collide_stay_apart() {
        // Every key hashes to 0: repeats are found by name.
        let text = "x,1\ny,2\nx,3\nz,4\ny,5\n";
        let list = parse_capped(text, 10, |_| 0).unwrap();
        assert_eq!(list, parse_key_list(text).unwrap());
        assert_eq!(list.keys, ["x", "y", "z"]);
        assert_eq!(list.counts, [4, 7, 4]);
    }
}
