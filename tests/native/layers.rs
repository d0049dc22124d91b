//! The modules import downwards only, so no circle between them can creep back in: every
//! module under `src/` (a file or a folder) has a rank in [`LAYERS`], and its code (comments
//! and doc comments aside) names no module ranked above it, through `crate::…`, `super::…`
//! or a name the crate root re-exports (`crate::Error` is `error`'s). Inside a folder, its
//! files and subfolders name each other without a circle (the folder's `mod.rs` is its top).
//!
//! The check reads the sources as text: it drops comments, strings and characters, finds each
//! `use` tree and each path from `crate`, `$crate` or `super`, and follows `pub use`
//! re-exports to the module that defines the name.

use std::collections::{BTreeMap, BTreeSet};

/// Every module under `src/`, lowest first: a module may name the modules before it.
const LAYERS: &[&str] = &[
    // Plain helpers, naming nothing of the crate.
    "order",
    "points",
    "replicas",
    "decimal",
    // What every layer speaks: errors, caps, the work meter, hashes, keys, nodes.
    "error",
    "limits",
    "work",
    "hash",
    "keys",
    "node",
    // ringlab's own ring, and exact analysis of rings of points.
    "ring_rules",
    "ring",
    "analysis",
    "migration",
    // Every algorithm, and the config readers that build them.
    "algo",
    "import",
    // Analyses over the algorithms: cost, staged changes, rollouts.
    "cost",
    "plan",
    "rollout",
    // Charts' data.
    "theme",
    "charts",
    // The playground's model.
    "session",
    // The binding to JavaScript, on top.
    "web",
];

/// Names of a module ranked above it that a module's code still makes, each until a change
/// under way removes it: `(module, named, why)`. An entry no longer met fails the test, so
/// the list only shrinks.
const PENDING: &[(&str, &str, &str)] = &[];

#[test]
fn every_module_under_src_has_a_rank() {
    let mut on_disk = BTreeSet::new();
    for entry in std::fs::read_dir(src()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        if path.is_dir() || (path.extension().is_some_and(|e| e == "rs") && name != "lib") {
            on_disk.insert(name);
        }
    }
    let listed: BTreeSet<String> = LAYERS.iter().map(|m| m.to_string()).collect();
    assert_eq!(listed.len(), LAYERS.len(), "a module is listed twice in LAYERS");
    let unranked: Vec<&String> = on_disk.difference(&listed).collect();
    let gone: Vec<&String> = listed.difference(&on_disk).collect();
    assert!(unranked.is_empty(), "modules under src/ with no rank in LAYERS (tests/native/layers.rs): {unranked:?}");
    assert!(gone.is_empty(), "LAYERS lists modules that src/ no longer has: {gone:?}");
}

#[test]
fn no_module_names_one_ranked_above_it() {
    let crate_ = Crate::read(&src());
    let rank = |module: &str| LAYERS.iter().position(|m| *m == module);
    let mut upward = Vec::new();
    let mut pending_met = BTreeSet::new();
    for name in crate_.names() {
        let (Some(from), Some(to)) = (name.from.first(), name.to.first()) else { continue };
        // A module with no rank (the first test names it) names nothing above it.
        if from == to || rank(to).is_none() || rank(to) <= rank(from) {
            continue;
        }
        match PENDING.iter().find(|(m, named, _)| m == from && named == to) {
            Some(pending) => {
                pending_met.insert(*pending);
            }
            None => upward.push(format!("{}:{}: {from} names {to}, ranked above it", name.file, name.line)),
        }
    }
    assert!(upward.is_empty(), "modules naming a module ranked above them (LAYERS):\n{}", upward.join("\n"));
    for pending in PENDING {
        assert!(pending_met.contains(pending), "{pending:?} no longer holds: drop it from PENDING");
    }
}

#[test]
fn the_files_of_a_folder_name_each_other_without_a_circle() {
    let crate_ = Crate::read(&src());
    let circles = circles(&crate_.names());
    assert!(circles.is_empty(), "circles between the files of a folder:\n{}", circles.join("\n"));
}

#[test]
fn only_the_binding_names_wasm_bindgen() {
    let crate_ = Crate::read(&src());
    for (module, file) in &crate_.files {
        if module.first().is_some_and(|m| m != "web") {
            assert!(!file.code.contains("wasm_bindgen"), "{} names wasm_bindgen", file.path);
        }
    }
}

/// The check itself, on a crate of six files: it sees names through `use` trees, paths in
/// code, `super` (also from a test module), `$crate` and the crate root's re-exports, and
/// none in comments or strings.
#[test]
fn the_check_sees_names_and_circles_and_nothing_in_comments_or_strings() {
    let crate_ = Crate::of(&[
        ("lib.rs", "mod low; mod high; mod folder; pub use high::High;"),
        ("low.rs", "// crate::high\n/// [`x`](crate::high)\nconst S: &str = \"crate::high\"; fn f() -> crate::High { todo!() }"),
        ("high.rs", "pub struct High; use crate::{low, folder::a::{self, A}};"),
        ("folder/mod.rs", "mod a; mod b;"),
        ("folder/a.rs", "pub struct A; fn f() { super::b::g(); let c = '\"'; }"),
        (
            "folder/b.rs",
            "pub fn g() {}\n#[cfg(test)]\nmod tests { use super::super::a::A; }\nmacro_rules! m { () => { $crate::low::f } }",
        ),
    ]);
    let names: BTreeSet<(String, String, usize)> =
        crate_.names().into_iter().map(|n| (n.from.join("::"), n.to.join("::"), n.line)).collect();
    let expected = [
        ("low", "high", 3),
        ("high", "low", 1),
        ("high", "folder::a", 1),
        ("folder::a", "folder::b", 1),
        ("folder::b", "folder::a", 3),
        ("folder::b", "low", 4),
    ];
    let expected: BTreeSet<(String, String, usize)> =
        expected.iter().map(|&(a, b, line)| (a.to_string(), b.to_string(), line)).collect();
    assert_eq!(names, expected);
    // `high` and `low` name each other too: the ranks forbid that, not this check.
    let circles = circles(&crate_.names());
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert!(circles[0].starts_with("folder: a → b → a ("), "{}", circles[0]);
}

fn src() -> String {
    format!("{}/src", env!("CARGO_MANIFEST_DIR"))
}

/// The crate's source files, by module path (`src/algo/ringlab.rs` is `["algo", "ring"]`, a
/// folder's `mod.rs` the folder's, `lib.rs` the root `[]`).
struct Crate {
    files: BTreeMap<Vec<String>, File>,
}

struct File {
    path: String,
    /// The source without comments, strings and characters (their lines kept).
    code: String,
}

/// `from`'s code at `file:line` names a path that leads into module `to`.
#[derive(Debug)]
struct Name {
    from: Vec<String>,
    to: Vec<String>,
    file: String,
    line: usize,
}

impl Crate {
    fn read(src: &str) -> Crate {
        let mut sources = Vec::new();
        let mut dirs = vec![std::path::PathBuf::from(src)];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let relative = path.strip_prefix(src).unwrap().to_str().unwrap().replace('\\', "/");
                    sources.push((relative, std::fs::read_to_string(&path).unwrap()));
                }
            }
        }
        let sources: Vec<(&str, &str)> = sources.iter().map(|(p, s)| (p.as_str(), s.as_str())).collect();
        Crate::of(&sources)
    }

    /// From `(path under src/, source)` pairs.
    fn of(sources: &[(&str, &str)]) -> Crate {
        let mut files = BTreeMap::new();
        for &(path, source) in sources {
            let mut module: Vec<String> = path.trim_end_matches(".rs").split('/').map(str::to_string).collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                module.pop();
            }
            files.insert(module, File { path: format!("src/{path}"), code: strip(source) });
        }
        Crate { files }
    }

    /// Every module path each file's code names (a file naming its own module is left out).
    fn names(&self) -> Vec<Name> {
        let mut out = Vec::new();
        for (module, file) in &self.files {
            for (path, inline, line) in paths(&file.code) {
                let base: Vec<String> = module.iter().chain(&inline).cloned().collect();
                let to = self.resolve(&base, &path, 0);
                if !to.starts_with(module) {
                    out.push(Name { from: module.clone(), to, file: file.path.clone(), line });
                }
            }
        }
        out
    }

    /// The module (a file) that defines what `path` names, read from module `base`: its
    /// modules followed, then the `pub use` that re-exports the next name, if any.
    fn resolve(&self, base: &[String], path: &[String], depth: usize) -> Vec<String> {
        let mut at: Vec<String> = base.to_vec();
        let mut rest = path;
        if rest.first().is_some_and(|s| s == "crate") {
            at.clear();
            rest = &rest[1..];
        }
        while rest.first().is_some_and(|s| s == "super") {
            at.pop();
            rest = &rest[1..];
        }
        if rest.first().is_some_and(|s| s == "self") {
            rest = &rest[1..];
        }
        for (i, segment) in rest.iter().enumerate() {
            let mut next = at.clone();
            next.push(segment.clone());
            if self.files.contains_key(&next) {
                at = next;
                continue;
            }
            // Not a module: an item of `at`, or one it re-exports from elsewhere.
            if let Some(target) = self.files.get(&at).and_then(|f| reexport(&f.code, segment)) {
                let leads_on = target.first().is_some_and(|s| {
                    matches!(s.as_str(), "crate" | "super" | "self")
                        || self.files.contains_key(&[&at[..], std::slice::from_ref(s)].concat())
                });
                if leads_on && depth < 8 {
                    let mut target = target;
                    target.extend(rest[i + 1..].iter().cloned());
                    return self.resolve(&at, &target, depth + 1);
                }
            }
            break;
        }
        at
    }
}

/// The path a `pub use` of `code` gives the name `name` (`pub use x::{a, b as name}`).
fn reexport(code: &str, name: &str) -> Option<Vec<String>> {
    let mut found = None;
    for (start, end) in uses(code) {
        let head = code[..start - "use".len()].trim_end();
        if !(head.ends_with("pub") || head.ends_with(')')) {
            continue;
        }
        for (path, alias) in use_tree(&code[start..end]) {
            if alias == name {
                found = Some(path);
            }
        }
    }
    found
}

/// The spans of `use` trees in `code` (after `use `, before `;`).
fn uses(code: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("use") {
        let before = code[..at].chars().next_back();
        let after = code[at + 3..].chars().next();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') || !after.is_some_and(char::is_whitespace) {
            continue;
        }
        if let Some(end) = code[at..].find(';') {
            out.push((at + 3, at + end));
        }
    }
    out
}

/// A `use` tree's paths, each with the name it brings in (`a::{b, c as d, self}`: `a::b` as
/// `b`, `a::c` as `d`, `a` as `a`); globs are left out.
fn use_tree(tree: &str) -> Vec<(Vec<String>, String)> {
    fn walk(prefix: &[String], tree: &str, out: &mut Vec<(Vec<String>, String)>) {
        let tree = tree.trim();
        if tree.is_empty() || tree == "*" {
            return;
        }
        if let Some(open) = tree.find('{') {
            let mut prefix = prefix.to_vec();
            prefix.extend(segments(&tree[..open]));
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let (mut depth, mut from) = (0, 0);
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        walk(&prefix, &inner[from..i], out);
                        from = i + 1;
                    }
                    _ => {}
                }
            }
            walk(&prefix, &inner[from..], out);
            return;
        }
        let (path, alias) = match tree.split_once(" as ") {
            Some((path, alias)) => (path, Some(alias.trim())),
            None => (tree, None),
        };
        let mut full = prefix.to_vec();
        full.extend(segments(path));
        if full.last().is_some_and(|s| s == "self") {
            full.pop();
        }
        if let Some(last) = full.last().cloned() {
            out.push((full, alias.unwrap_or(&last).to_string()));
        }
    }
    let mut out = Vec::new();
    walk(&[], &tree.split_whitespace().collect::<Vec<_>>().join(" "), &mut out);
    out
}

fn segments(path: &str) -> Vec<String> {
    path.split("::").map(|s| s.trim().trim_start_matches('$').to_string()).filter(|s| !s.is_empty()).collect()
}

/// Every path in `code` that starts at `crate`, `$crate` or `super` (in a `use` tree or in
/// code), with the inline modules it sits in (`mod tests { … }`) and its line.
fn paths(code: &str) -> Vec<(Vec<String>, Vec<String>, usize)> {
    let inline = inline_modules(code);
    let line = |at: usize| code[..at].matches('\n').count() + 1;
    let mut out = Vec::new();
    for (start, end) in uses(code) {
        for (path, _) in use_tree(&code[start..end]) {
            if path.first().is_some_and(|s| s == "crate" || s == "super") {
                out.push((path, inline(start), line(start)));
            }
        }
    }
    for word in ["crate", "super"] {
        for (at, _) in code.match_indices(word) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let path = path_at(&code[at..]);
            if path.len() > 1 {
                out.push((path, inline(at), line(at)));
            }
        }
    }
    out
}

/// The path `text` starts with: identifiers joined by `::` (`crate::algo::Cluster::new` of
/// `crate::algo::Cluster::new(…)`; `crate` of `crate::{…}`).
fn path_at(mut text: &str) -> Vec<String> {
    let mut path = Vec::new();
    loop {
        let len = text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(text.len());
        if len == 0 {
            break;
        }
        path.push(text[..len].to_string());
        match text[len..].strip_prefix("::") {
            Some(rest) => text = rest,
            None => break,
        }
    }
    path
}

/// For each place in `code`, the inline modules (`mod name { … }`) it is in, outermost first.
fn inline_modules(code: &str) -> impl Fn(usize) -> Vec<String> + '_ {
    let mut spans: Vec<(usize, usize, String)> = Vec::new();
    let mut open: Vec<Option<(usize, String)>> = Vec::new();
    for (i, c) in code.char_indices() {
        match c {
            '{' => {
                let head: Vec<&str> = code[..i].split_whitespace().rev().take(2).collect();
                let module = (head.len() == 2 && head[1] == "mod").then(|| (i, head[0].to_string()));
                open.push(module);
            }
            '}' => {
                if let Some(Some((start, name))) = open.pop() {
                    spans.push((start, i, name));
                }
            }
            _ => {}
        }
    }
    spans.sort();
    move |at| spans.iter().filter(|(s, e, _)| *s < at && at < *e).map(|(_, _, name)| name.clone()).collect()
}

/// `source` without comments, strings and characters: each becomes a space (or `""`), its
/// line breaks kept, so that what is left is code and its lines are the source's.
pub(crate) fn strip(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let blank = |out: &mut String, text: &[char]| {
        out.push(' ');
        out.extend(text.iter().filter(|&&c| c == '\n'));
    };
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while i < chars.len() {
        let rest = &chars[i..];
        let after_ident = i > 0 && ident(chars[i - 1]);
        if rest.starts_with(&['/', '/']) {
            let end = rest.iter().position(|&c| c == '\n').unwrap_or(rest.len());
            i += end;
        } else if rest.starts_with(&['/', '*']) {
            let (mut depth, mut j) = (0, 0);
            loop {
                if rest[j..].starts_with(&['/', '*']) {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with(&['*', '/']) {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, &rest[..j]);
            i += j;
        } else if !after_ident && raw_string(rest).is_some() {
            let (open, hashes) = raw_string(rest).unwrap();
            let close: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let end = (open..rest.len()).find(|&j| rest[j..].starts_with(&close)).unwrap() + close.len();
            out.push_str("\"\"");
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == '"' {
            let mut j = 1;
            while rest[j] != '"' {
                j += if rest[j] == '\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            blank(&mut out, &rest[..=j]);
            i += j + 1;
        } else if rest[0] == '\'' && rest.get(1) == Some(&'\\') {
            // An escape: `'\n'`, `'\''`, `'\\'`, `'\u{…}'`.
            let end = if rest.get(2) == Some(&'u') { rest.iter().position(|&c| c == '}').unwrap() + 1 } else { 3 };
            out.push_str("' '");
            i += end + 1;
        } else if rest[0] == '\'' && rest.get(2) == Some(&'\'') {
            out.push_str("' '");
            i += 3;
        } else {
            out.push(rest[0]);
            i += 1;
        }
    }
    out
}

/// Where a raw string (`r"…"`, `r#"…"#`, `br"…"`) opens: the index after its `"`, and its `#`s.
fn raw_string(rest: &[char]) -> Option<(usize, usize)> {
    let skip = usize::from(rest.first() == Some(&'b'));
    if rest.get(skip) != Some(&'r') {
        return None;
    }
    let hashes = rest[skip + 1..].iter().take_while(|&&c| c == '#').count();
    (rest.get(skip + 1 + hashes) == Some(&'"')).then_some((skip + 2 + hashes, hashes))
}

/// Each folder's circles: its files and subfolders naming each other in a ring
/// (`folder: a → b → a`, with where each names the next).
fn circles(names: &[Name]) -> Vec<String> {
    // Edges between children of one folder: `folder/a` names something in `folder/b`.
    let mut edges: BTreeMap<(Vec<String>, String), BTreeMap<String, String>> = BTreeMap::new();
    for name in names {
        let shared = name.from.iter().zip(&name.to).take_while(|(a, b)| a == b).count();
        let (Some(from), Some(to)) = (name.from.get(shared), name.to.get(shared)) else { continue };
        let folder = name.from[..shared].to_vec();
        let at = format!("{}:{}", name.file, name.line);
        edges.entry((folder, from.clone())).or_default().entry(to.clone()).or_insert(at);
    }
    let mut out = Vec::new();
    let mut reported = BTreeSet::new();
    for (folder, start) in edges.keys().filter(|(folder, _)| !folder.is_empty()) {
        // Depth-first from each child, back to it.
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((at, trail)) = stack.pop() {
            let Some(next) = edges.get(&(folder.clone(), at.clone())) else { continue };
            for to in next.keys() {
                if to == start {
                    let mut ring = trail.clone();
                    let key: BTreeSet<String> = ring.iter().cloned().collect();
                    if reported.insert((folder.clone(), key)) {
                        let wheres: Vec<String> = ring
                            .iter()
                            .zip(ring.iter().skip(1).chain(std::iter::once(start)))
                            .map(|(a, b)| edges[&(folder.clone(), a.clone())][b].clone())
                            .collect();
                        ring.push(start.clone());
                        out.push(format!("{}: {} ({})", folder.join("/"), ring.join(" → "), wheres.join(", ")));
                    }
                } else if seen.insert(to.clone()) {
                    let mut trail = trail.clone();
                    trail.push(to.clone());
                    stack.push((to.clone(), trail));
                }
            }
        }
    }
    out
}
