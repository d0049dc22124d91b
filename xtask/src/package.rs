//! `cargo xtask package`: the npm package, ready for `npm publish`, in `target/npm/`.
//!
//! The built modules (the engine: `pkg/ringlab.js` and `pkg/ringlab_bg.wasm`; the element's
//! smaller builds: `pkg/ringlab_element.js` and `pkg/ringlab_element_bg.wasm`, ringlab's ring
//! alone, and `pkg/ringlab_element_full.js` and `pkg/ringlab_element_full_bg.wasm`, with
//! `pkg/builds.js` saying which algorithms the first has; the chart
//! drawing: `pkg/ringlab_charts.js` and `pkg/ringlab_charts_bg.wasm`) with the hand-written
//! types (`types/ringlab.d.ts`, `types/ringlab_charts.d.ts`), the `<hash-ring>` element with
//! what it imports (as in `www/`, so its relative imports hold), the README (its links into
//! the repository made absolute), both license files, and a `package.json` whose version
//! is Cargo.toml's.

use crate::settings::{self, Settings};
use crate::step::{announce, Failure};
use crate::{build, tools};
use serde_json::json;
use std::path::{Path, PathBuf};

/// Where the package is written.
pub const DIR: &str = "target/npm";

const STEP: &str = "npm package";

/// Every file of the package: (path in the package, source in the repository). `None`: the
/// build's output (the `pkg/` files) or written here (`package.json`).
const FILES: [(&str, Option<&str>); 20] = [
    ("package.json", None),
    ("README.md", Some("README.md")),
    ("LICENSE-MIT", Some("LICENSE-MIT")),
    ("LICENSE-APACHE", Some("LICENSE-APACHE")),
    ("pkg/ringlab.js", None),
    ("pkg/ringlab_bg.wasm", None),
    ("pkg/ringlab.d.ts", Some("types/ringlab.d.ts")),
    ("pkg/ringlab_element.js", None),
    ("pkg/ringlab_element_bg.wasm", None),
    ("pkg/ringlab_element_full.js", None),
    ("pkg/ringlab_element_full_bg.wasm", None),
    ("pkg/builds.js", None),
    ("pkg/ringlab_charts.js", None),
    ("pkg/ringlab_charts_bg.wasm", None),
    ("pkg/ringlab_charts.d.ts", Some("types/ringlab_charts.d.ts")),
    ("hash-ring.js", Some("www/hash-ring.js")),
    ("hash-ring.d.ts", Some("types/hash-ring.d.ts")),
    ("ring-view.js", Some("www/ring-view.js")),
    ("host.js", Some("www/host.js")),
    ("charts-module.js", Some("www/charts-module.js")),
];

/// `cargo xtask package`: build, then write the package.
pub fn run() -> Result<(), Failure> {
    tools::announce_checks();
    tools::for_build()?;
    let settings = settings::load()?;
    build::package(&settings)?;
    let dir = write(&settings)?;
    println!("\nnpm package: {}  (npm publish {0})", dir.display());
    Ok(())
}

/// Writes the package from an existing build of `www/pkg/`.
pub fn write(settings: &Settings) -> Result<PathBuf, Failure> {
    announce(STEP);
    let fail = |e: String| Failure::new(STEP, e);
    let dir = PathBuf::from(DIR);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| fail(format!("{}: {e}", dir.display())))?;
    }
    std::fs::create_dir_all(dir.join("pkg")).map_err(|e| fail(e.to_string()))?;
    let built = PathBuf::from(&settings.build.out_dir);
    for (to, from) in FILES {
        let from = match (to, from) {
            ("package.json", _) => continue,
            (_, Some(from)) => PathBuf::from(from),
            // The build's output: the modules' `.js` and `_bg.wasm`, named as in wasm-pack.toml.
            (_, None) => built.join(to.trim_start_matches("pkg/")),
        };
        std::fs::copy(&from, dir.join(to))
            .map_err(|e| fail(format!("copy {}: {e} (run cargo xtask build first)", from.display())))?;
    }
    check_imports(&dir)?;
    absolute_readme_links(&dir.join("README.md"))?;
    let manifest = package_json()?;
    let text = serde_json::to_string_pretty(&manifest).map_err(|e| fail(e.to_string()))? + "\n";
    std::fs::write(dir.join("package.json"), text).map_err(|e| fail(e.to_string()))?;
    println!("    {}: {} files", dir.display(), FILES.len());
    Ok(dir)
}

/// The files `npm pack` must list: exactly [`FILES`].
pub fn intended_files() -> Vec<&'static str> {
    FILES.iter().map(|(to, _)| *to).collect()
}

fn package_json() -> Result<serde_json::Value, Failure> {
    let text = std::fs::read_to_string("Cargo.toml").map_err(|e| Failure::new(STEP, e.to_string()))?;
    let cargo: toml::Value = text.parse().map_err(|e: toml::de::Error| Failure::new(STEP, e.to_string()))?;
    let field = |key: &str| {
        cargo.get("package").and_then(|p| p.get(key)).cloned().unwrap_or(toml::Value::String(String::new()))
    };
    let text = |key: &str| field(key).as_str().unwrap_or_default().to_string();
    let keywords: Vec<String> =
        field("keywords").as_array().into_iter().flatten().filter_map(|k| k.as_str().map(String::from)).collect();
    let files: Vec<&str> = FILES.iter().map(|(to, _)| *to).filter(|f| *f != "package.json").collect();
    Ok(json!({
        "name": "ringlab",
        "version": text("version"),
        "description": text("description"),
        "license": text("license"),
        "repository": { "type": "git", "url": format!("git+{}.git", text("repository")) },
        "homepage": text("repository"),
        "keywords": keywords,
        "type": "module",
        "main": "./pkg/ringlab.js",
        "types": "./pkg/ringlab.d.ts",
        "exports": {
            ".": { "types": "./pkg/ringlab.d.ts", "default": "./pkg/ringlab.js" },
            "./hash-ring": { "types": "./hash-ring.d.ts", "default": "./hash-ring.js" },
            "./ringlab_bg.wasm": "./pkg/ringlab_bg.wasm",
            // The chart drawing: a module of its own, which the page fetches when it first
            // shows a chart.
            "./charts": { "types": "./pkg/ringlab_charts.d.ts", "default": "./pkg/ringlab_charts.js" },
            "./ringlab_charts_bg.wasm": "./pkg/ringlab_charts_bg.wasm",
            "./package.json": "./package.json"
        },
        "files": files,
        // Importing the API does nothing by itself; importing the element defines <hash-ring>.
        "sideEffects": ["./hash-ring.js"]
    }))
}

/// The README's repository-relative links (the screenshot) point into the repository, since
/// the package does not hold those files.
fn absolute_readme_links(readme: &Path) -> Result<(), Failure> {
    let fail = |e: String| Failure::new(STEP, e);
    let repository = cargo_field("repository")?;
    let text = std::fs::read_to_string(readme).map_err(|e| fail(e.to_string()))?;
    let text = text.replace("](www/", &format!("]({repository}/raw/HEAD/www/"));
    std::fs::write(readme, text).map_err(|e| fail(e.to_string()))
}

fn cargo_field(key: &str) -> Result<String, Failure> {
    let text = std::fs::read_to_string("Cargo.toml").map_err(|e| Failure::new(STEP, e.to_string()))?;
    let cargo: toml::Value = text.parse().map_err(|e: toml::de::Error| Failure::new(STEP, e.to_string()))?;
    cargo
        .get("package")
        .and_then(|p| p.get(key))
        .and_then(|v| v.as_str())
        .map(String::from)
        .ok_or_else(|| Failure::new(STEP, format!("Cargo.toml has no package.{key}")))
}

/// Every relative import in the package's JS names a file in the package.
fn check_imports(dir: &Path) -> Result<(), Failure> {
    for (file, _) in FILES.iter().filter(|(f, _)| f.ends_with(".js")) {
        let path = dir.join(file);
        let source = std::fs::read_to_string(&path).map_err(|e| Failure::new(STEP, e.to_string()))?;
        for import in relative_imports(&source) {
            let target = path.parent().unwrap_or(dir).join(&import);
            if !target.is_file() {
                return Err(Failure::new(STEP, format!("{file} imports {import:?}, which the package does not have")));
            }
        }
    }
    Ok(())
}

/// The `"./x"` / `"../x"` of `from "…"` and `import("…")` (wasm-bindgen's glue and the page's
/// modules use only these forms).
fn relative_imports(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for marker in ["from \"", "from '", "import(\"", "import('", "import \"", "import '"] {
        for (at, _) in source.match_indices(marker) {
            let rest = &source[at + marker.len()..];
            let quote = marker.chars().last().unwrap_or('"');
            if let Some(end) = rest.find(quote) {
                let spec = &rest[..end];
                if spec.starts_with("./") || spec.starts_with("../") {
                    found.push(spec.to_string());
                }
            }
        }
    }
    found
}
