//! The catalog: every algorithm's entry answers every question, its answers agree with what
//! the algorithm does, and nothing outside the algorithm's own file (and the catalog line)
//! names it. README's algorithm table and the `.d.ts` option types are checked against it.

use ringlab::algo::{catalog, Algorithm, Cluster, Leaving, OptionKind, Options, Scope, Weights};
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
    let reserved = ["ringlab", "a", "k", "r", "n", "z", "wi", "wb", "wr", "rs", "ids"];
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
        // tests/down_nodes.rs).
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

/// Whether `code` names `Algorithm::{variant}` as a whole identifier (`Algorithm::Jump`, not
/// the start of `Algorithm::JumpBack`).
fn names_variant(code: &str, variant: &str) -> bool {
    let path = format!("Algorithm::{variant}");
    code.match_indices(&path)
        .any(|(at, _)| !code[at + path.len()..].chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_'))
}

#[test]
fn outside_its_own_file_the_engine_names_an_algorithm_only_in_the_catalog() {
    // The catalog's lines (in src/algo/mod.rs) say which file is each algorithm's own:
    // `Jump => jump;`, `NginxHash => nginx::{HASH, BUILD_HASH};`.
    let catalog_path = root().join("src/algo/mod.rs");
    let catalog = std::fs::read_to_string(&catalog_path).unwrap();
    let list = catalog.split("catalog::catalog! {").nth(1).unwrap().split("\n}").next().unwrap();
    let mut own: BTreeMap<String, PathBuf> = BTreeMap::new();
    for line in list.lines().map(str::trim).filter(|l| l.contains("=>")) {
        let (variant, target) = line.split_once(" => ").unwrap();
        let variant = variant.trim_start_matches("core ");
        let module = target.trim_start_matches("mod ").split([':', ';']).next().unwrap();
        own.insert(variant.to_string(), root().join(format!("src/algo/{module}.rs")));
    }
    assert_eq!(own.len(), Algorithm::ALL.len(), "one catalog line per algorithm");
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    // Words that are not the algorithm: HAProxy's `ring` section keyword.
    let other_senses = [("src/import/haproxy.rs", "Ring")];
    let mut found = Vec::new();
    // The catalog's own module (its default and its baseline) is the catalog too.
    let catalog_module = root().join("src/algo/catalog.rs");
    for file in files.iter().filter(|f| **f != catalog_module) {
        let mut code = code(file);
        if *file == catalog_path {
            code = code.replace(list, "");
        }
        for (variant, home) in &own {
            let name = Algorithm::ALL.iter().find(|a| format!("{a:?}") == *variant).unwrap().name();
            let named = names_variant(&code, variant) || code.contains(&format!("\"{name}\""));
            let relative = file.strip_prefix(root()).unwrap().display().to_string();
            let other_sense =
                other_senses.contains(&(relative.as_str(), variant.as_str())) && !names_variant(&code, variant);
            if named && file != home && !other_sense {
                found.push(format!("{relative} names {variant}"));
            }
        }
    }
    assert!(found.is_empty(), "algorithms named outside their files and the catalog:\n{}", found.join("\n"));
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
