//! `cargo xtask types`: the parts of `types/ringlab.d.ts` the catalog decides, written from it.
//!
//! The rest of the `.d.ts` is written by hand (wasm-bindgen types every argument as `any`); what
//! the catalog already says (which algorithms there are, each option's name, type, default,
//! range and help, the config kinds, the families) is written into it between marker comments:
//!
//! ```text
//! // <generated from the catalog by cargo xtask types: NAME>
//! …
//! // </generated>
//! ```
//!
//! Each block is written whole from the catalog ([`block`]); everything outside the blocks is
//! kept as it is. The checked-in file is the generated one: a unit test fails when it is not
//! (`cargo test -p xtask`, in `cargo xtask test`'s native stage).

use crate::step::Failure;
use ringlab::algo::{Algorithm, Family, OptionKind, OptionSpec, Scope};
use std::fmt::Write as _;
use std::path::Path;

/// The file, from the workspace root.
pub const PATH: &str = "types/ringlab.d.ts";

/// How a generated block starts (then its name and `>`), and how it ends.
const OPEN: &str = "// <generated from the catalog by cargo xtask types: ";
const CLOSE: &str = "// </generated>";

/// Doc comments are wrapped to this width.
const WIDTH: usize = 100;

/// A `.d.ts` one line may hold a union of at most this many characters; a longer one gets a
/// line per member.
const ONE_LINE: usize = 120;

/// Options whose type has a name of its own in the `.d.ts` (used beyond `RingOptions`), and
/// what that name's doc comment says.
const NAMED_TYPES: [(&str, &str, &str); 4] = [
    ("hash", "HashName", "Every hash function `hashes()` lists; the byte rule of each is in src/hash.rs."),
    ("bits", "RingBits", "Bits of ringlab's ring positions."),
    ("haproxyHash", "HaproxyHashName", "HAProxy's `hash-type` functions."),
    (
        "twemproxyHash",
        "TwemproxyHashName",
        "twemproxy's `hash:` functions (`crc32` is its 15-bit value, `crc32a` the full CRC-32).",
    ),
];

/// `cargo xtask types`: rewrites the generated blocks of [`PATH`] from the catalog.
pub fn run() -> Result<(), Failure> {
    let fail = |why: String| Failure::new("types", why);
    let path = Path::new(PATH);
    let old = std::fs::read_to_string(path).map_err(|e| fail(format!("{PATH}: {e}")))?;
    let new = generate(&old).map_err(fail)?;
    if new == old {
        println!("{PATH} is up to date with the catalog");
    } else {
        std::fs::write(path, &new).map_err(|e| fail(format!("{PATH}: {e}")))?;
        println!("wrote {PATH} from the catalog");
    }
    Ok(())
}

/// `dts` with every generated block rewritten from the catalog; an error when a block is
/// unknown, unclosed or missing.
pub fn generate(dts: &str) -> Result<String, String> {
    let mut out = String::with_capacity(dts.len());
    let mut seen: Vec<&str> = Vec::new();
    let mut lines = dts.split_inclusive('\n');
    while let Some(line) = lines.next() {
        out.push_str(line);
        let Some(rest) = line.trim().strip_prefix(OPEN) else { continue };
        let name = rest.strip_suffix('>').ok_or_else(|| format!("{PATH}: a block's opening {line:?} lacks its '>'"))?;
        if seen.contains(&name) {
            return Err(format!("{PATH}: the block {name:?} appears twice"));
        }
        seen.push(name);
        let indent = &line[..line.len() - line.trim_start().len()];
        let body = block(name)?;
        for body_line in body.lines() {
            if !body_line.is_empty() {
                out.push_str(indent);
            }
            out.push_str(body_line);
            out.push('\n');
        }
        let close = lines
            .by_ref()
            .find(|l| l.trim() == CLOSE || l.trim().starts_with(OPEN))
            .filter(|l| l.trim() == CLOSE)
            .ok_or_else(|| format!("{PATH}: the block {name:?} is not closed by {CLOSE:?}"))?;
        out.push_str(close);
    }
    for name in BLOCKS {
        if !seen.contains(&name) {
            return Err(format!("{PATH} lacks the generated block {name:?} ({OPEN}{name}>)"));
        }
    }
    Ok(out)
}

/// The blocks, in the file's order.
const BLOCKS: [&str; 2] = ["names", "RingOptions"];

/// The text of the block called `name`, unindented.
fn block(name: &str) -> Result<String, String> {
    match name {
        "names" => names(),
        "RingOptions" => Ok(ring_options()),
        _ => Err(format!("{PATH}: no generated block is called {name:?} (there are {})", BLOCKS.join(", "))),
    }
}

/// Every option of every algorithm, once each, in catalog order (the ring's `hash`, `bits`
/// and `vnodes` first), with the algorithms that list it.
fn options() -> Vec<(&'static OptionSpec, Vec<Algorithm>)> {
    let mut out: Vec<(&'static OptionSpec, Vec<Algorithm>)> = Vec::new();
    for algorithm in Algorithm::ALL {
        for &spec in algorithm.entry().options {
            match out.iter_mut().find(|(o, _)| o.name == spec.name) {
                Some((_, readers)) => readers.push(algorithm),
                None => out.push((spec, vec![algorithm])),
            }
        }
    }
    out
}

/// The named types: the algorithms, their families, the config kinds, and the options' types
/// that the rest of the file uses by name.
fn names() -> Result<String, String> {
    let mut out = String::new();
    let algorithms: Vec<(String, &str)> = Algorithm::ALL.iter().map(|a| (quoted(a.name()), a.entry().label)).collect();
    alias(
        &mut out,
        "Every placement algorithm `algorithms()` lists, in the catalog's order.",
        "AlgorithmName",
        &algorithms,
    );

    let families: Vec<(String, &str)> = Family::ALL.iter().map(|f| (quoted(&serialized(f)), f.label())).collect();
    alias(
        &mut out,
        "An algorithm's family (`AlgorithmInfo.family`), the groups the catalog is listed in.",
        "FamilyName",
        &families,
    );

    let kinds: Vec<(String, &str)> = ringlab::import::CONFIG_KINDS.iter().map(|k| (quoted(k.kind), k.label)).collect();
    alias(
        &mut out,
        "The kinds of configuration text `configKinds()` lists (`ConfigKind.kind`).",
        "ConfigKindName",
        &kinds,
    );

    let memcached: Vec<(String, &str)> =
        ringlab::import::memcached::algorithms().map(|a| (quoted(a.name()), a.entry().label)).collect();
    alias(
        &mut out,
        "The algorithms that place a memcached server list (`ImportOptions.algorithm`).",
        "MemcachedAlgorithmName",
        &memcached,
    );

    let options = options();
    for (option, name, doc) in NAMED_TYPES {
        let (spec, _) = options
            .iter()
            .find(|(o, _)| o.name == option)
            .ok_or_else(|| format!("no algorithm has the option {option:?}, which xtask/src/types.rs calls {name}"))?;
        let members: Vec<(String, &str)> = spec.kind.typescript().split(" | ").map(|m| (m.to_string(), "")).collect();
        alias(&mut out, doc, name, &members);
    }

    let library: Vec<(String, &str)> =
        options.iter().filter(|(o, _)| o.scope == Scope::Library).map(|(o, _)| (quoted(o.name), "")).collect();
    alias(
        &mut out,
        "The options only `new Ring` takes (a caller's own data): sessions, their links and the page take none of them.",
        "LibraryOptionName",
        &library,
    );
    out.truncate(out.trim_end().len());
    out.push('\n');
    Ok(out)
}

/// `RingOptions`' fields that the catalog declares: the algorithm, and every algorithm's
/// options, each with its type and, in its doc comment, who reads it, its help, default and
/// range.
fn ring_options() -> String {
    let mut out = String::new();
    doc(&mut out, &format!("Default `{}`.", quoted(ringlab::algo::DEFAULT.name())));
    out.push_str("algorithm?: AlgorithmName;\n");
    for (spec, readers) in options() {
        let readers: Vec<String> = readers.iter().map(|a| format!("`{}`", a.name())).collect();
        let mut text = format!("{}: {}", readers.join(", "), spec.help);
        if !text.ends_with(['.', '…']) {
            text.push('.');
        }
        if let Some(default) = default(&spec.kind) {
            write!(text, " Default {default}.").unwrap();
        }
        if let Some(range) = range(&spec.kind) {
            write!(text, " {range}.").unwrap();
        }
        if spec.scope == Scope::Library {
            text.push_str(" Only `new Ring` takes it.");
        }
        doc(&mut out, &text);
        let ty = NAMED_TYPES
            .iter()
            .find(|(option, ..)| *option == spec.name)
            .map_or_else(|| spec.kind.typescript(), |(_, name, _)| name.to_string());
        writeln!(out, "{}?: {ty};", spec.name).unwrap();
    }
    out
}

/// An option's default as the `.d.ts` would write it, if it has one.
fn default(kind: &OptionKind) -> Option<String> {
    Some(match *kind {
        OptionKind::Whole { default, .. } | OptionKind::OneOf { default, .. } => grouped(default),
        OptionKind::Number { default, .. } => default.to_string(),
        OptionKind::Flag { default } => default.to_string(),
        OptionKind::Choice { default, .. } => format!("`{}`", quoted(default?)),
        OptionKind::Text { default, .. } => format!("`{}`", quoted(default)),
        OptionKind::Tokens { .. } => return None,
    })
}

/// The values an option takes, where its type does not say it all.
fn range(kind: &OptionKind) -> Option<String> {
    match *kind {
        OptionKind::Whole { min, max, .. } => Some(format!("From {} to {}", grouped(min), grouped(max))),
        OptionKind::Number { min, max, .. } if max < f64::MAX => Some(format!("From {min} to {max}")),
        OptionKind::Number { min, .. } => Some(format!("At least {min}")),
        OptionKind::Text { max_len, .. } => Some(format!("At most {} bytes", grouped(max_len as u64))),
        OptionKind::OneOf { .. } | OptionKind::Flag { .. } | OptionKind::Choice { .. } | OptionKind::Tokens { .. } => {
            None
        }
    }
}

/// `export type NAME = …;` with its doc comment: on one line when it fits and no member has
/// a doc of its own, else a member per line, each after its doc.
fn alias(out: &mut String, text: &str, name: &str, members: &[(String, &str)]) {
    doc(out, text);
    let line =
        format!("export type {name} = {};", members.iter().map(|(m, _)| m.as_str()).collect::<Vec<_>>().join(" | "));
    if line.len() <= ONE_LINE && members.iter().all(|(_, d)| d.is_empty()) {
        out.push_str(&line);
    } else {
        write!(out, "export type {name} =").unwrap();
        for (member, text) in members {
            out.push('\n');
            if !text.is_empty() {
                writeln!(out, "  /** {} */", comment_safe(text)).unwrap();
            }
            write!(out, "  | {member}").unwrap();
        }
        out.push(';');
    }
    out.push_str("\n\n");
}

/// A `/** … */` doc comment of `text`, wrapped to [`WIDTH`] columns (of an indent of two).
fn doc(out: &mut String, text: &str) {
    let text = comment_safe(text);
    if text.len() + 9 <= WIDTH {
        writeln!(out, "/** {text} */").unwrap();
        return;
    }
    let mut line = String::from("/**");
    for word in text.split(' ') {
        if line.len() + 1 + word.len() > WIDTH - 2 && line.len() > 3 {
            writeln!(out, "{line}").unwrap();
            line = String::from(" *");
        }
        line.push(' ');
        line.push_str(word);
    }
    writeln!(out, "{line} */").unwrap();
}

/// `text` with nothing that would end a comment early.
fn comment_safe(text: &str) -> String {
    text.replace("*/", "*\\/")
}

/// `"text"`, as a TypeScript string literal.
fn quoted(text: &str) -> String {
    serde_json::to_string(text).expect("a string serializes")
}

/// A value's JSON string (a kebab-case enum's name).
fn serialized<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value).ok().and_then(|v| v.as_str().map(str::to_string)).expect("serializes as a string")
}

/// `n` with thousands separators from 10,000 up (1024, 65537, 8,388,608).
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    if digits.len() <= 4 {
        return digits;
    }
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checked_in_types_are_the_catalogs() {
        let dts = std::fs::read_to_string(crate::step::project_root().join(PATH)).unwrap();
        let generated = generate(&dts).unwrap();
        let stale: Vec<(usize, &str, &str)> = dts
            .lines()
            .zip(generated.lines())
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, (a, b))| (i + 1, a, b))
            .take(5)
            .collect();
        assert!(
            dts == generated,
            "{PATH} is stale: run `cargo xtask types` and commit it. First differing lines (line, file, generated): {stale:#?}"
        );
    }

    #[test]
    fn a_stale_block_is_rewritten_and_the_rest_kept() {
        let dts = std::fs::read_to_string(crate::step::project_root().join(PATH)).unwrap();
        let edited = dts.replacen("  | \"ring\"\n", "  | \"ring\"\n  | \"not-in-the-catalog\"\n", 1);
        assert_ne!(edited, dts, "the test's edit applies");
        assert_eq!(generate(&edited).unwrap(), generate(&dts).unwrap());
        let outside = dts.replacen("export interface NodeSpec {", "export interface NodeSpec { // kept", 1);
        assert!(generate(&outside).unwrap().contains("export interface NodeSpec { // kept"));
    }

    #[test]
    fn blocks_must_be_known_closed_and_present() {
        let unknown = format!("{OPEN}nope>\n{CLOSE}\n");
        assert!(generate(&unknown).unwrap_err().contains("no generated block is called \"nope\""));
        let unclosed = format!("{OPEN}names>\nexport type X = 1;\n");
        assert!(generate(&unclosed).unwrap_err().contains("is not closed"));
        let missing = format!("{OPEN}names>\n{CLOSE}\n");
        assert!(generate(&missing).unwrap_err().contains("lacks the generated block \"RingOptions\""));
    }

    #[test]
    fn numbers_are_grouped_from_ten_thousand() {
        assert_eq!(
            [grouped(1024), grouped(65537), grouped(8_388_608), grouped(0)],
            ["1024", "65,537", "8,388,608", "0"]
        );
    }

    #[test]
    fn docs_wrap_and_stay_comments() {
        let mut out = String::new();
        doc(&mut out, &format!("{} a */ b", "word ".repeat(40)));
        assert!(out.lines().all(|l| l.len() <= WIDTH - 2 + 3), "{out}");
        assert_eq!(out.matches("*/").count(), 1, "{out}");
    }
}
