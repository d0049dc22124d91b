//! The catalog: every algorithm's entry answers every question, its answers agree with what
//! the algorithm does, and nothing outside the algorithm's own file (and the catalog line)
//! names it. README's algorithm table and the `.d.ts` option types are checked against it.

use ringlab::algo::{catalog, Algorithm, Cluster, Layout, Leaving, OptionKind, Options, Scope, Weights};
use ringlab::{Hash, NodeSpec};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn names(n: usize) -> Vec<NodeSpec> {
    (1..=n).map(|i| NodeSpec::new(format!("10.0.0.{i}:11211"))).collect()
}

#[test]
fn names_options_and_links_are_unique_and_defaults_are_the_specs() {
    let mut seen = BTreeSet::new();
    for a in Algorithm::ALL {
        assert!(seen.insert(a.name()), "{} twice", a.name());
        assert_eq!(Algorithm::from_name(a.name()).unwrap(), a);
        assert!(!a.entry().label.is_empty() && !a.entry().source.is_empty(), "{}", a.name());
    }
    // One spec per name: two entries that share an option share its declaration.
    let mut by_name: BTreeMap<&str, *const ringlab::algo::OptionSpec> = BTreeMap::new();
    for a in Algorithm::ALL {
        for &spec in a.entry().options {
            let before = by_name.insert(spec.name, spec as *const _);
            assert!(before.is_none_or(|p| std::ptr::eq(p, spec)), "two options named {}", spec.name);
            assert!(!spec.help.is_empty(), "{} has no help", spec.name);
            assert_eq!(
                spec.scope == Scope::Everywhere,
                !spec.link.is_empty(),
                "{}: a link field iff everywhere",
                spec.name
            );
        }
    }
    // Link fields never collide with each other or with the link's own fields.
    let mut reserved = vec!["ringlab", "a", "k", "r", "n", "z", "wi", "wb", "wr"];
    reserved.extend(Algorithm::ALL.iter().filter_map(|a| a.entry().extras.layout).map(|l| l.key));
    let mut links = BTreeSet::new();
    for spec in catalog::all_options().into_iter().filter(|s| !s.link.is_empty()) {
        assert!(links.insert(spec.link), "link field {} twice", spec.link);
        assert!(!reserved.contains(&spec.link), "{} takes the link's own field {}", spec.name, spec.link);
    }
    // Options::new gives each option its spec's default.
    for a in Algorithm::ALL {
        let o = Options::new(a);
        for spec in catalog::all_options() {
            assert_eq!((spec.get)(&o), spec.kind.default_value(), "{}: {}", a.name(), spec.name);
        }
    }
}

#[test]
fn every_option_refuses_the_wrong_type_and_out_of_range() {
    use ringlab::algo::OptionValue;
    for spec in catalog::all_options() {
        let mut o = Options::new(Algorithm::Ring);
        let wrong = match spec.kind {
            OptionKind::Flag { .. } => OptionValue::Whole(1),
            _ => OptionValue::Flag(true),
        };
        let before = o.clone();
        assert!(o.set(spec.name, wrong).is_err(), "{}", spec.name);
        assert_eq!(o, before, "{}: a refused value changes nothing", spec.name);
        if let OptionKind::Whole { min, max, .. } = spec.kind {
            assert!(o.set(spec.name, OptionValue::Whole(max + 1)).is_err(), "{} above {max}", spec.name);
            if min > 0 {
                assert!(o.set(spec.name, OptionValue::Whole(min - 1)).is_err(), "{} below {min}", spec.name);
            }
            o.set(spec.name, OptionValue::Whole(min)).unwrap();
            assert_eq!(o.get(spec.name), Some(OptionValue::Whole(min)), "{}", spec.name);
        }
    }
    assert_eq!(Options::new(Algorithm::Ring).set("vnode", OptionValue::Whole(3)).unwrap_err().code(), "invalid-option");
}

/// Whether some of 2,000 keys change owner between two clusters of the same nodes.
fn differ(a: &Cluster, b: &Cluster) -> bool {
    (0..2000).any(|k| {
        let key = format!("key:{k}");
        a.locate(&key).ok() != b.locate(&key).ok()
    })
}

#[test]
fn each_entrys_facts_are_what_its_algorithm_does() {
    for a in Algorithm::ALL {
        let e = a.entry();
        let base = Cluster::new(Options::new(a), names(5)).unwrap_or_else(|err| panic!("{}: {err}", a.name()));
        assert_eq!(base.algorithm(), a);
        assert_eq!(base.arcs().is_some(), e.arcs, "{}: arcs", a.name());
        assert_eq!(base.as_ring().is_some(), e.replicas, "{}: replicas (preference lists)", a.name());
        assert_eq!(base.preference_list("key:1", 2).is_some(), e.replicas, "{}: preference lists", a.name());
        let text = base.describe();
        assert!(text.ends_with('.') && text.len() > 30, "{}: {text}", a.name());
        assert!(!base.key_space().words().is_empty());

        // Weights: a node of weight 2 joins exactly where weights count (libketama and
        // libmemcached take whole weights, rendezvous within its range), and takes more keys
        // than one of weight 1 would (Redis Cluster: its rebalance gives it more slots).
        let four = Cluster::new(Options::new(a), names(4)).unwrap();
        let (mut light, mut heavy) = (four.clone(), four.clone());
        light.add(NodeSpec::new("10.0.0.5:11211")).unwrap();
        let joined = heavy.add(NodeSpec::new("10.0.0.5:11211").weight(2.0));
        assert_eq!(joined.is_ok(), !matches!(e.weights, Weights::One), "{}: weights", a.name());
        if joined.is_ok() {
            assert!(differ(&light, &heavy), "{}: a weight of 2 moves some key", a.name());
        }

        // The hash and vnodes settings change the placement exactly where the entry says.
        let mut other = Options::new(a);
        other.config.hash = Hash::Md5;
        let rehashed = Cluster::new(other, names(5)).unwrap();
        assert_eq!(differ(&base, &rehashed), e.uses_hash(), "{}: hash", a.name());
        let mut other = Options::new(a);
        other.config.vnodes = 7;
        let fewer = Cluster::new(other, names(5)).unwrap();
        assert_eq!(differ(&base, &fewer), e.uses_vnodes(), "{}: vnodes", a.name());

        // Who may leave: the first node, only where any may.
        let mut first_gone = base.clone();
        let left = first_gone.remove("10.0.0.1:11211");
        assert_eq!(left.is_ok(), matches!(e.leaving, Leaving::Any), "{}: leaving", a.name());
        let mut last_gone = base.clone();
        last_gone.remove(&base.nodes()[e.leaving.leaver(5)].name).unwrap();

        // The down rule's kind is what marking a node down does (checked at length in
        // tests/native/down_nodes.rs).
        let mut down = base.clone();
        let owner = base.locate("key:1").unwrap().to_string();
        if down.set_down(&owner, true).is_ok() {
            let unavailable = down.locate("key:1").is_err_and(|err| err.code() == "unavailable");
            let rule = down.down_rule();
            assert_eq!(
                unavailable,
                rule.kind == ringlab::algo::down::DownKind::Unavailable,
                "{}: down rule {:?}",
                a.name(),
                rule.kind
            );
        }
    }
}

/// The source of `path` up to its test module (`#[cfg(test)]`, `#[cfg(all(test, …))]`),
/// without comments.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let lines = text.lines().take_while(|l| !(l.starts_with("#[cfg(") && l.contains("test")));
    lines.map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("tests.rs") {
            out.push(path);
        }
    }
}

/// Whether `code` has `word` as a whole identifier path (`Algorithm::Jump`, not the start of
/// `Algorithm::JumpBack`; `nginx::HASH`, not `my_nginx::HASH`).
fn names_path(code: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(word).any(|(at, _)| {
        !code[..at].chars().next_back().is_some_and(ident) && !code[at + word.len()..].chars().next().is_some_and(ident)
    })
}

/// One line of the catalog (in src/algo/mod.rs): `Jump => papers::jump;` is `Algorithm::Jump`
/// in `src/algo/papers/jump.rs`, described by `jump::ENTRY` and built by `jump::BUILD`;
/// `NginxHash => balancers::nginx [HASH, BUILD_HASH];` is `Algorithm::NginxHash` in
/// `src/algo/balancers/nginx.rs`, described by `nginx::HASH` and built by `nginx::BUILD_HASH`.
struct Line {
    variant: String,
    file: PathBuf,
    entry: String,
    build: String,
}

/// The catalog's list, as written, and its lines.
fn catalog_lines() -> (String, Vec<Line>) {
    let text = std::fs::read_to_string(root().join("src/algo/mod.rs")).unwrap();
    let list = text.split("catalog::catalog! {").nth(1).unwrap().split("\n}").next().unwrap().to_string();
    let mut lines = Vec::new();
    for line in list.lines().map(str::trim).filter(|l| l.contains("=>")) {
        let (variant, target) = line.split_once(" => ").unwrap();
        let variant = variant.split_whitespace().last().unwrap().to_string();
        let target = target.trim_end_matches(';');
        let (path, entry, build) = match target.split_once(" [") {
            Some((path, names)) => {
                let (entry, build) = names.trim_end_matches(']').split_once(", ").unwrap();
                (path, entry, build)
            }
            None => (target, "ENTRY", "BUILD"),
        };
        let module = path.rsplit("::").next().unwrap();
        lines.push(Line {
            variant,
            file: root().join(format!("src/algo/{}.rs", path.replace("::", "/"))),
            entry: format!("{module}::{entry}"),
            build: format!("{module}::{build}"),
        });
    }
    (list, lines)
}

/// What names `algorithm` in code: its variant (`Algorithm::RedisCluster`), its name as a
/// string (`"redis-cluster"`), the entry and build its catalog line names (`redis::ENTRY`), and
/// its own words as strings: its options' names and link fields, and its layout's link field.
/// An option that algorithms of other files list too (`hash`, `vnodes`, Maglev's `tableSize`
/// that Envoy's Maglev reads) is shared, not its own.
fn naming_words(algorithm: Algorithm, line: &Line, lines: &[Line]) -> (Vec<String>, Vec<String>) {
    let file_of = |a: &Algorithm| &lines[Algorithm::ALL.iter().position(|b| b == a).unwrap()].file;
    let entry = algorithm.entry();
    let paths = vec![format!("Algorithm::{}", line.variant), line.entry.clone(), line.build.clone()];
    let mut strings = vec![entry.name.to_string()];
    for spec in entry.options {
        let users: BTreeSet<&PathBuf> = Algorithm::ALL
            .iter()
            .filter(|a| a.entry().options.iter().any(|o| o.name == spec.name))
            .map(file_of)
            .collect();
        if users.len() == 1 {
            strings.push(spec.name.to_string());
            strings.extend((!spec.link.is_empty()).then(|| spec.link.to_string()));
        }
    }
    strings.extend(entry.extras.layout.map(|l| l.key.to_string()));
    (paths, strings.into_iter().map(|s| format!("\"{s}\"")).collect())
}

/// The files under src/ whose code (comments and tests aside) names each algorithm.
fn files_naming_each_algorithm() -> Vec<(Algorithm, Vec<String>)> {
    let (list, lines) = catalog_lines();
    assert_eq!(lines.len(), Algorithm::ALL.len(), "one catalog line per algorithm");
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    files.sort();
    let catalog = root().join("src/algo/mod.rs");
    // Words in another sense than the algorithm's: HAProxy's `ring` section keyword; a
    // preference list's length (a session's `replicas`, not groupcache's option); the type of
    // an option that takes tokens (not Cassandra's `tokens`); the lookup time metric (not
    // the ring's `lookup` rule).
    let other_senses = [
        ("src/import/haproxy.rs", "\"ring\""),
        ("src/algo/analyses/explain.rs", "\"replicas\""),
        ("src/session/link.rs", "\"replicas\""),
        ("src/web/ring.rs", "\"replicas\""),
        ("src/web/session.rs", "\"replicas\""),
        ("src/session/mod.rs", "\"replicas\""),
        // The ring entry wraps `crate::Ring`, whose own rules check its `label` template and
        // its `position` rule.
        ("src/ring_rules.rs", "\"label\""),
        ("src/ring_rules.rs", "\"position\""),
        ("src/algo/catalog/options.rs", "\"tokens\""),
        ("src/algo/analyses/metrics.rs", "\"lookup\""),
    ];
    let mut out = Vec::new();
    for (algorithm, line) in Algorithm::ALL.into_iter().zip(&lines) {
        assert_eq!(format!("{algorithm:?}"), line.variant, "the catalog's lines are Algorithm::ALL's order");
        let (paths, strings) = naming_words(algorithm, line, &lines);
        let mut naming = Vec::new();
        for file in &files {
            let relative = file.strip_prefix(root()).unwrap().display().to_string();
            let mut code = code(file);
            if *file == catalog {
                code = code.replace(&list, "");
                naming.push("src/algo/mod.rs (its catalog line)".to_string());
            }
            let named = paths.iter().any(|p| names_path(&code, p))
                || strings
                    .iter()
                    .any(|s| code.contains(s.as_str()) && !other_senses.contains(&(relative.as_str(), s.as_str())));
            if named {
                naming.push(relative);
            }
        }
        out.push((algorithm, naming));
    }
    out
}

/// "A new algorithm is one file and one catalog line": each algorithm is named in its own
/// file and on its catalog line, and nowhere else. The generic engine (the catalog machinery,
/// options, layouts, links, plans, sessions, the binding) asks the entry instead: what only
/// one system needs (its options, its layout, its state) is declared in its file.
///
/// A system's module may still be used for what it computes: another system built on its
/// pieces (Envoy's Maglev on Maglev's table), the reader of its config text (src/import/), or
/// the binding's function exporting its hash (`keySlot`); none of those names the algorithm
/// (see the next test for the engine's own files).
#[test]
fn each_algorithm_is_named_in_its_own_file_and_its_catalog_line_only() {
    let mut wrong = Vec::new();
    for (algorithm, naming) in files_naming_each_algorithm() {
        let (_, lines) = catalog_lines();
        let own =
            lines[Algorithm::ALL.iter().position(|a| *a == algorithm).unwrap()].file.strip_prefix(root()).unwrap();
        let expected = vec![own.display().to_string(), "src/algo/mod.rs (its catalog line)".to_string()];
        let mut sorted = naming.clone();
        sorted.sort();
        let mut expected_sorted = expected.clone();
        expected_sorted.sort();
        println!("{}: {}", algorithm.name(), naming.join(", "));
        if sorted != expected_sorted {
            wrong.push(format!(
                "{} is named in {} (expected {})",
                algorithm.name(),
                naming.join(", "),
                expected.join(", ")
            ));
        }
    }
    assert!(wrong.is_empty(), "algorithms named outside their own file and catalog line:\n{}", wrong.join("\n"));
}

/// The generic options and layout carry only what every algorithm has: an algorithm's own
/// options live in `params` (through its specs), its layout in a key and one text a node
/// (through its `LayoutSpec`). A field added for one system fails to compile here.
#[test]
fn the_generic_options_and_layout_hold_no_systems_fields() {
    let Options { algorithm: _, config: _, params: _ } = Options::new(Algorithm::Ring);
    let Layout { key: _, parts: _ } = Layout::default();
}

/// The engine's own files (everything but the systems' files in src/algo/, the config
/// readers in src/import/ and the binding in src/web/) reach into no system's module: they
/// go through the catalog and the entries.
#[test]
fn the_engine_reaches_into_no_systems_module() {
    let (_, lines) = catalog_lines();
    let systems: BTreeSet<PathBuf> = lines.iter().map(|l| l.file.clone()).collect();
    let modules: BTreeSet<String> =
        systems.iter().map(|f| f.file_stem().unwrap().to_string_lossy().into_owned()).collect();
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut found = Vec::new();
    for file in files.iter().filter(|f| !systems.contains(*f)) {
        let relative = file.strip_prefix(root()).unwrap().display().to_string();
        if relative.starts_with("src/import/") || relative.starts_with("src/web/") {
            continue;
        }
        let code = code(file);
        let in_algo = relative.starts_with("src/algo/");
        for module in &modules {
            let reached = names_path(&code, &format!("algo::{module}"))
                || (in_algo
                    && (names_path(&code, &format!("super::{module}")) || code.contains(&format!("use {module}::"))))
                || (relative == "src/algo/mod.rs" && code.contains(&format!("pub use {module}::")));
            if reached {
                found.push(format!("{relative} reaches into {module}"));
            }
        }
    }
    assert!(found.is_empty(), "the engine reaches into systems' modules:\n{}", found.join("\n"));
}

/// README's algorithm table, as the catalog writes it.
fn readme_table() -> String {
    let mut out = String::from(
        "| algorithm | what it is | kind | weights | its options (default) | a node down |\n|---|---|---|---|---|---|\n",
    );
    for a in Algorithm::ALL {
        let e = a.entry();
        let weights = match e.weights {
            Weights::Any => "yes",
            Weights::One => "no",
            Weights::Checked(_) => "yes, within a range",
        };
        let options: Vec<String> = e
            .options
            .iter()
            .map(|o| match o.kind.default_value() {
                Some(ringlab::algo::OptionValue::Flag(v)) => format!("`{}` ({v})", o.name),
                Some(v) => format!("`{}` ({})", o.name, v.text()),
                None => format!("`{}`", o.name),
            })
            .collect();
        let options = if options.is_empty() { "–".to_string() } else { options.join(", ") };
        let down = serde_json::to_value(e.on_down.rule().kind).unwrap();
        out.push_str(&format!(
            "| `{}` | {} | {} | {weights} | {options} | {} |\n",
            e.name,
            e.label,
            e.family.label(),
            down.as_str().unwrap()
        ));
    }
    out
}

#[test]
fn readme_lists_every_algorithm_as_the_catalog_does() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let table = readme
        .split("<!-- algorithms:start -->\n")
        .nth(1)
        .and_then(|rest| rest.split("<!-- algorithms:end -->").next())
        .expect("README.md has an algorithm table between <!-- algorithms:start --> and <!-- algorithms:end -->");
    let expected = readme_table();
    assert_eq!(table, expected, "README's algorithm table is out of date; the catalog's:\n{expected}");
}

/// The `.d.ts`'s `export type X = …;` aliases.
fn type_aliases(dts: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for part in dts.split("export type ").skip(1) {
        let (name, rest) = part.split_once('=').unwrap();
        let body = rest.split(';').next().unwrap();
        let body: Vec<&str> =
            body.split('|').map(|t| t.split("/*").next().unwrap().trim()).filter(|t| !t.is_empty()).collect();
        out.insert(name.trim().to_string(), body.join(" | "));
    }
    out
}

#[test]
fn the_typescript_ring_options_are_the_catalogs() {
    let dts = std::fs::read_to_string(root().join("types/ringlab.d.ts")).unwrap();
    let aliases = type_aliases(&dts);
    let names: Vec<String> = Algorithm::ALL.iter().map(|a| format!("\"{}\"", a.name())).collect();
    assert_eq!(aliases["AlgorithmName"], names.join(" | "), "AlgorithmName");
    let body = dts.split("export interface RingOptions {").nth(1).unwrap().split("\n}").next().unwrap();
    let mut fields: BTreeMap<String, String> = BTreeMap::new();
    for line in body.lines().map(str::trim).filter(|l| !l.starts_with('/') && !l.starts_with('*')) {
        if let Some((name, ty)) = line.split_once("?:") {
            let ty = ty.trim().trim_end_matches(';').trim().to_string();
            fields.insert(name.trim().to_string(), aliases.get(&ty).cloned().unwrap_or(ty));
        }
    }
    for spec in catalog::all_options() {
        let ty = fields.remove(spec.name).unwrap_or_else(|| panic!("RingOptions lacks {}", spec.name));
        assert_eq!(ty, spec.kind.typescript(), "RingOptions.{}", spec.name);
    }
    fields.remove("algorithm");
    fields.remove("nodes");
    assert!(fields.is_empty(), "RingOptions has fields no algorithm declares: {fields:?}");
}

/// tests/README.md's table of defining properties: every catalog entry has a row (its name in
/// backticks in the first column), and every test a row names (`file.rs::name`, or `::name`
/// after one) is a function of that file under tests/native/ (a name ending in `…` is a prefix).
#[test]
fn the_tests_readme_names_a_test_of_every_entrys_defining_property() {
    let text = std::fs::read_to_string(root().join("tests/README.md")).unwrap();
    let table: Vec<&str> = text
        .split("| algorithm | defining property (and bound) | checked by |\n|---|---|---|\n")
        .nth(1)
        .expect("tests/README.md has the table of defining properties")
        .lines()
        .take_while(|l| l.starts_with('|'))
        .collect();
    let cells = |row: &str| row.split(" | ").map(|c| c.trim_matches(['|', ' ']).to_string()).collect::<Vec<_>>();
    let named: BTreeSet<String> = table
        .iter()
        .flat_map(|row| cells(row)[0].split('`').skip(1).step_by(2).map(String::from).collect::<Vec<_>>())
        .collect();
    let missing: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).filter(|n| !named.contains(*n)).collect();
    assert!(missing.is_empty(), "catalog entries with no row in tests/README.md's table: {missing:?}");
    for row in &table {
        let checked = cells(row).last().cloned().unwrap_or_default();
        let mut file = None;
        for code in checked.split('`').skip(1).step_by(2) {
            let Some((path, name)) = code.split_once("::") else { continue };
            if !path.is_empty() {
                file = Some(path.to_string());
            }
            let file = file.clone().unwrap_or_else(|| panic!("{code:?} names no file in {row}"));
            let source = std::fs::read_to_string(root().join("tests/native").join(&file))
                .unwrap_or_else(|e| panic!("tests/README.md names {file}, not in tests/native/: {e}"));
            for name in name.split('/').map(|n| n.trim_matches('`')) {
                let prefix = name.trim_end_matches('…');
                let found = if prefix.len() < name.len() {
                    source.contains(&format!("fn {prefix}"))
                } else {
                    source.contains(&format!("fn {name}("))
                };
                assert!(found, "tests/README.md names {file}::{name}, which is not a test there");
            }
        }
    }
}
