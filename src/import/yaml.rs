//! The YAML that `nutcracker.yml` files and Envoy cluster configs are written in: block
//! mappings and sequences by indentation (a sequence may sit at its key's indentation), plain,
//! single- and double-quoted scalars, one-line flow collections (`[a, b]`, `{}`), and `#`
//! comments. Every node keeps its 1-based line (a block value its key's), so a config's
//! errors name the line.
//!
//! Why not a YAML crate: the configs use this subset only, a full YAML parser would add to
//! the wasm download what these few hundred lines do, and the crates' trees lose the line of
//! each value. What YAML has beyond the subset (anchors and aliases, tags, block scalars,
//! several documents, complex keys, multi-line plain scalars) is refused with an error naming
//! its line, never guessed. Duplicate keys are refused (nutcracker refuses a duplicate
//! directive; protobuf's JSON reader a duplicate field).

use super::{parse_error, LineStatus, Lines};
use crate::Error;
use std::borrow::Cow;
use std::collections::HashSet;

/// Deepest nesting read (blocks and flow collections together).
const MAX_DEPTH: usize = 64;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    /// `key:` with nothing after it (YAML's null), or `~`/`null`.
    Null,
    Scalar(String),
    Seq(Vec<Node>),
    /// Keys in order, each with its line.
    Map(Vec<(String, Node)>),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    pub(crate) line: usize,
    pub(crate) value: Value,
}

impl Node {
    /// The entries of a mapping (`what` names it in the error otherwise).
    pub(crate) fn map(&self, what: &str) -> Result<&[(String, Node)], Error> {
        match &self.value {
            Value::Map(entries) => Ok(entries),
            Value::Null => Ok(&[]),
            _ => Err(parse_error(self.line, format!("{what} must be a mapping (key: value lines)"))),
        }
    }

    /// The items of a sequence.
    pub(crate) fn seq(&self, what: &str) -> Result<&[Node], Error> {
        match &self.value {
            Value::Seq(items) => Ok(items),
            Value::Null => Ok(&[]),
            _ => Err(parse_error(self.line, format!("{what} must be a list (- item lines)"))),
        }
    }

    /// A scalar's text.
    pub(crate) fn text(&self, what: &str) -> Result<&str, Error> {
        match &self.value {
            Value::Scalar(s) => Ok(s),
            _ => Err(parse_error(self.line, format!("{what} must be a single value"))),
        }
    }

    /// The value of `key` in a mapping, if present.
    pub(crate) fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

struct Line {
    number: usize,
    indent: usize,
    content: String,
}

/// Every line of `node`'s tree (its own, its keys', its items') gets one note: what a reader
/// leaves unread (another pool, a field that places nothing) is passed over as a whole.
pub(crate) fn note_tree(node: &Node, notes: &mut Lines, status: LineStatus, why: Cow<'static, str>) {
    if !notes.keeping() {
        return;
    }
    notes.note(node.line, status, why.clone());
    match &node.value {
        Value::Seq(items) => items.iter().for_each(|item| note_tree(item, notes, status, why.clone())),
        Value::Map(entries) => entries.iter().for_each(|(_, value)| note_tree(value, notes, status, why.clone())),
        Value::Null | Value::Scalar(_) => {}
    }
}

/// Reads the text as one YAML document; comment lines and the document's start are noted
/// as passed over.
pub(crate) fn parse(text: &str, notes: &mut Lines) -> Result<Node, Error> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let body = strip_comment(raw);
        let trimmed = body.trim_end();
        let content = trimmed.trim_start_matches(' ');
        if content.is_empty() {
            notes.pass(number, "a comment");
            continue;
        }
        if content.starts_with('\t') {
            return Err(parse_error(number, "a tab in the indentation: YAML indents with spaces"));
        }
        if number == 1 && content == "---" || content.starts_with("%YAML") {
            notes.pass(number, "the YAML document's start");
            continue;
        }
        if content == "---" || content == "..." {
            return Err(parse_error(number, "a second YAML document: one document is read"));
        }
        lines.push(Line { number, indent: trimmed.len() - content.len(), content: content.to_string() });
    }
    let mut parser = Parser { lines, pos: 0 };
    if parser.lines.is_empty() {
        return Ok(Node { line: 1, value: Value::Null });
    }
    let indent = parser.lines[0].indent;
    let node = parser.block(indent, 0)?;
    if let Some(line) = parser.lines.get(parser.pos) {
        return Err(parse_error(line.number, "this line's indentation does not fit the lines above it"));
    }
    Ok(node)
}

/// The line without its comment: a `#` at its start or after a blank, outside quotes.
fn strip_comment(raw: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut previous = ' ';
    for (i, c) in raw.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some('"') if c == '\\' => {}
            Some(_) => {}
            None if c == '#' && (previous == ' ' || previous == '\t') => return &raw[..i],
            None if (c == '"' || c == '\'') && (previous == ' ' || previous == '-' || previous == ':' || i == 0) => {
                quote = Some(c)
            }
            None => {}
        }
        previous = c;
    }
    raw
}

struct Parser {
    lines: Vec<Line>,
    pos: usize,
}

impl Parser {
    fn block(&mut self, indent: usize, depth: usize) -> Result<Node, Error> {
        let line = &self.lines[self.pos];
        if depth > MAX_DEPTH {
            return Err(parse_error(line.number, format!("nested more than {MAX_DEPTH} levels deep")));
        }
        if is_item(&line.content) {
            return self.sequence(indent, depth);
        }
        if split_key(&line.content, line.number)?.is_some() {
            return self.mapping(indent, depth);
        }
        let (number, content) = (line.number, line.content.clone());
        self.pos += 1;
        if let Some(next) = self.lines.get(self.pos) {
            if next.indent > indent {
                return Err(parse_error(next.number, "a value spread over several lines: write it on one line"));
            }
        }
        scalar_or_flow(&content, number, depth)
    }

    fn sequence(&mut self, indent: usize, depth: usize) -> Result<Node, Error> {
        let first = self.lines[self.pos].number;
        let mut items = Vec::new();
        while let Some(line) = self.lines.get(self.pos) {
            if line.indent != indent || !is_item(&line.content) {
                if line.indent > indent {
                    return Err(parse_error(line.number, "this line's indentation does not fit the list above it"));
                }
                break;
            }
            let number = line.number;
            let rest = line.content[1..].to_string();
            let after = rest.trim_start_matches(' ');
            if after.is_empty() {
                self.pos += 1;
                match self.lines.get(self.pos) {
                    // A bare `-`'s item is on its line (its keys keep theirs).
                    Some(next) if next.indent > indent => {
                        let child = next.indent;
                        items.push(Node { line: number, ..self.block(child, depth + 1)? });
                    }
                    _ => items.push(Node { line: number, value: Value::Null }),
                }
            } else {
                // `- key: value` opens a mapping whose keys sit where `key` starts.
                let child = indent + 1 + (rest.len() - after.len());
                self.lines[self.pos] = Line { number, indent: child, content: after.to_string() };
                items.push(self.block(child, depth + 1)?);
            }
        }
        Ok(Node { line: first, value: Value::Seq(items) })
    }

    fn mapping(&mut self, indent: usize, depth: usize) -> Result<Node, Error> {
        let first = self.lines[self.pos].number;
        let mut entries: Vec<(String, Node)> = Vec::new();
        // The keys so far, for a duplicate's refusal in one look-up (not a scan of the
        // keys before it: a text of 100,000 keys would take tens of seconds).
        let mut seen: HashSet<String> = HashSet::new();
        while let Some(line) = self.lines.get(self.pos) {
            if line.indent != indent || is_item(&line.content) {
                if line.indent > indent {
                    return Err(parse_error(line.number, "this line's indentation does not fit the lines above it"));
                }
                break;
            }
            let number = line.number;
            let Some((key, value)) = split_key(&line.content, number)? else {
                return Err(parse_error(number, "expected `key: value` like the lines above it"));
            };
            if !seen.insert(key.clone()) {
                return Err(parse_error(number, format!("{key:?} is given twice")));
            }
            self.pos += 1;
            let node = if value.is_empty() {
                match self.lines.get(self.pos) {
                    // A block value's line is its key's.
                    Some(next) if next.indent > indent => {
                        let child = next.indent;
                        Node { line: number, ..self.block(child, depth + 1)? }
                    }
                    Some(next) if next.indent == indent && is_item(&next.content) => {
                        Node { line: number, ..self.sequence(indent, depth + 1)? }
                    }
                    _ => Node { line: number, value: Value::Null },
                }
            } else {
                let node = scalar_or_flow(&value, number, depth + 1)?;
                if let Some(next) = self.lines.get(self.pos) {
                    if next.indent > indent {
                        return Err(parse_error(
                            next.number,
                            format!("{key:?} has a value on its line and more lines under it"),
                        ));
                    }
                }
                node
            };
            entries.push((key, node));
        }
        Ok(Node { line: first, value: Value::Map(entries) })
    }
}

fn is_item(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

/// `key: value` split at the first `: ` (or a final `:`) outside quotes and flow brackets.
fn split_key(content: &str, number: usize) -> Result<Option<(String, String)>, Error> {
    if content.starts_with('[') || content.starts_with('{') {
        return Ok(None);
    }
    if content.starts_with("? ") {
        return Err(parse_error(number, "a complex `? key` is not read: write `key: value`"));
    }
    let bytes = content.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(b'"') if c == b'\\' => i += 1,
            Some(_) => {}
            None if (c == b'"' || c == b'\'') && i == 0 => quote = Some(c),
            None if c == b':' && (i + 1 == bytes.len() || bytes[i + 1] == b' ') => {
                let raw_key = content[..i].trim_end();
                let key = match scalar(raw_key, number)? {
                    Value::Scalar(k) => k,
                    _ => return Err(parse_error(number, "an empty key")),
                };
                if raw_key.is_empty() {
                    return Err(parse_error(number, "an empty key"));
                }
                return Ok(Some((key, content[i + 1..].trim().to_string())));
            }
            None => {}
        }
        i += 1;
    }
    Ok(None)
}

fn scalar_or_flow(text: &str, number: usize, depth: usize) -> Result<Node, Error> {
    if text.starts_with('[') || text.starts_with('{') {
        let mut flow = Flow { bytes: text.as_bytes(), text, pos: 0, number };
        let node = flow.value(depth)?;
        flow.blanks();
        if flow.pos != text.len() {
            return Err(parse_error(number, "text after the end of a [ ] or { } collection"));
        }
        return Ok(node);
    }
    Ok(Node { line: number, value: scalar(text, number)? })
}

/// A plain or quoted scalar.
fn scalar(text: &str, number: usize) -> Result<Value, Error> {
    let text = text.trim();
    let first = text.chars().next().unwrap_or(' ');
    match first {
        '"' => return double_quoted(text, number).map(Value::Scalar),
        '\'' => {
            let inner = text
                .strip_prefix('\'')
                .and_then(|t| t.strip_suffix('\''))
                .filter(|_| text.len() >= 2)
                .ok_or_else(|| parse_error(number, "a '-quoted value is not closed on its line"))?;
            if inner.replace("''", "").contains('\'') {
                return Err(parse_error(number, "text after a '-quoted value"));
            }
            return Ok(Value::Scalar(inner.replace("''", "'")));
        }
        '&' | '*' | '!' => {
            return Err(parse_error(
                number,
                "YAML anchors, aliases and tags (&, *, !) are not read: write the value out",
            ))
        }
        '|' | '>' => {
            return Err(parse_error(number, "a block scalar (| or >) is not read: write the value on one line"))
        }
        '@' | '`' | '%' => {
            return Err(parse_error(number, format!("a plain value cannot start with {first:?}: quote it")))
        }
        _ => {}
    }
    if text.is_empty() || text == "~" || text == "null" || text == "Null" || text == "NULL" {
        return Ok(Value::Null);
    }
    Ok(Value::Scalar(text.to_string()))
}

fn double_quoted(text: &str, number: usize) -> Result<String, Error> {
    let mut out = String::new();
    let mut chars = text[1..].chars();
    loop {
        match chars.next() {
            None => return Err(parse_error(number, "a \"-quoted value is not closed on its line")),
            Some('"') => break,
            Some('\\') => {
                let c = chars.next().ok_or_else(|| parse_error(number, "a \\ at the end of a quoted value"))?;
                out.push(match c {
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    '0' => '\0',
                    '"' | '\\' | '/' | ' ' => c,
                    'x' | 'u' | 'U' => {
                        let len = match c {
                            'x' => 2,
                            'u' => 4,
                            _ => 8,
                        };
                        let hex: String = chars.by_ref().take(len).collect();
                        u32::from_str_radix(&hex, 16)
                            .ok()
                            .filter(|_| hex.len() == len)
                            .and_then(char::from_u32)
                            .ok_or_else(|| parse_error(number, format!("a bad \\{c} escape in a quoted value")))?
                    }
                    other => return Err(parse_error(number, format!("an unknown escape \\{other} in a quoted value"))),
                });
            }
            Some(c) => out.push(c),
        }
    }
    if !chars.as_str().trim().is_empty() {
        return Err(parse_error(number, "text after a \"-quoted value"));
    }
    Ok(out)
}

/// A one-line flow collection: `[a, "b", {c: d}]`, `{}`.
struct Flow<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
    number: usize,
}

impl Flow<'_> {
    fn blanks(&mut self) {
        while self.bytes.get(self.pos) == Some(&b' ') {
            self.pos += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, Error> {
        let number = self.number;
        if depth > MAX_DEPTH {
            return Err(parse_error(number, format!("nested more than {MAX_DEPTH} levels deep")));
        }
        self.blanks();
        match self.bytes.get(self.pos) {
            Some(b'[') => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.blanks();
                    if self.bytes.get(self.pos) == Some(&b']') {
                        self.pos += 1;
                        break;
                    }
                    items.push(self.value(depth + 1)?);
                    self.blanks();
                    match self.bytes.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {}
                        _ => return Err(parse_error(number, "expected `,` or `]` in a [ ] list")),
                    }
                }
                Ok(Node { line: number, value: Value::Seq(items) })
            }
            Some(b'{') => {
                self.pos += 1;
                let mut entries: Vec<(String, Node)> = Vec::new();
                let mut seen: HashSet<String> = HashSet::new();
                loop {
                    self.blanks();
                    if self.bytes.get(self.pos) == Some(&b'}') {
                        self.pos += 1;
                        break;
                    }
                    let key = match self.value(depth + 1)?.value {
                        Value::Scalar(k) => k,
                        _ => return Err(parse_error(number, "a { } mapping's key must be a single value")),
                    };
                    self.blanks();
                    if self.bytes.get(self.pos) != Some(&b':') {
                        return Err(parse_error(number, "expected `:` after a key in a { } mapping"));
                    }
                    self.pos += 1;
                    let value = self.value(depth + 1)?;
                    if !seen.insert(key.clone()) {
                        return Err(parse_error(number, format!("{key:?} is given twice")));
                    }
                    entries.push((key, value));
                    self.blanks();
                    match self.bytes.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {}
                        _ => return Err(parse_error(number, "expected `,` or `}` in a { } mapping")),
                    }
                }
                Ok(Node { line: number, value: Value::Map(entries) })
            }
            Some(b'"') | Some(b'\'') => {
                let quote = self.bytes[self.pos];
                let start = self.pos;
                self.pos += 1;
                while let Some(&c) = self.bytes.get(self.pos) {
                    self.pos += 1;
                    if c == b'\\' && quote == b'"' {
                        self.pos += 1;
                    } else if c == quote {
                        if quote == b'\'' && self.bytes.get(self.pos) == Some(&b'\'') {
                            self.pos += 1;
                            continue;
                        }
                        break;
                    }
                }
                let end = self.pos.min(self.text.len());
                let piece = self.text.get(start..end).ok_or_else(|| parse_error(number, "a bad quoted value"))?;
                Ok(Node { line: number, value: scalar(piece, number)? })
            }
            _ => {
                let start = self.pos;
                while let Some(&c) = self.bytes.get(self.pos) {
                    if matches!(c, b',' | b']' | b'}') || (c == b':' && self.bytes.get(self.pos + 1) == Some(&b' ')) {
                        break;
                    }
                    self.pos += 1;
                }
                let piece = self.text.get(start..self.pos).ok_or_else(|| parse_error(number, "a bad value"))?;
                if piece.trim().is_empty() {
                    return Err(parse_error(number, "an empty item in a [ ] or { } collection"));
                }
                Ok(Node { line: number, value: scalar(piece, number)? })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_sequences_and_lines() {
        let doc = parse(
            "a: 1\nb:\n  - x\n  - y: 2\n    z: '3'\nc:\n- \"q\\tr\" # comment\nd: [1, {e: f}]\ne: {}\n",
            &mut Lines::ignore(),
        )
        .unwrap();
        assert_eq!(doc.get("a").unwrap().text("a").unwrap(), "1");
        let b = doc.get("b").unwrap().seq("b").unwrap();
        assert_eq!(b[1].get("z").unwrap().text("z").unwrap(), "3");
        assert_eq!(b[1].get("z").unwrap().line, 5);
        assert_eq!(doc.get("c").unwrap().seq("c").unwrap()[0].text("c").unwrap(), "q\tr");
        assert_eq!(doc.get("d").unwrap().seq("d").unwrap().len(), 2);
        assert_eq!(doc.get("e").unwrap().map("e").unwrap().len(), 0);
    }

    #[test]
    fn what_is_beyond_the_subset_names_its_line() {
        for (text, line) in [
            ("a: &x 1\n", 1),
            ("a: 1\nb: |\n  text\n", 2),
            ("a: 1\na: 2\n", 2),
            ("a: 1\n  b: 2\n", 2),
            ("a:\n\t- x\n", 2),
            ("a: [1, 2\n", 1),
            ("a: \"open\n", 1),
        ] {
            match parse(text, &mut Lines::ignore()) {
                Err(Error::Parse { line: l, .. }) => assert_eq!(l, line, "{text:?}"),
                other => panic!("{text:?}: {other:?}"),
            }
        }
    }
}
