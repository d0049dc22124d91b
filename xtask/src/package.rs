//! `cargo xtask package`: the npm package, ready for `npm publish`, in `target/npm/`.
//!
//! The three built modules (the engine: `pkg/ringlab.js` and `pkg/ringlab_bg.wasm`; the
//! element's: `pkg/ringlab_element.js` and `pkg/ringlab_element_bg.wasm`; the chart drawing:
//! `pkg/ringlab_charts.js` and `pkg/ringlab_charts_bg.wasm`) with the hand-written
//! types (`types/ringlab.d.ts`, `types/ringlab_charts.d.ts`, and `types/disposable.d.ts`, which
//! the first references), Node's entries of the two library modules (`pkg/ringlab.node.js`,
//! `pkg/ringlab_charts.node.js`, written here), the `<hash-ring>` element with
//! what it imports (as in `www/`, so its relative imports hold; minified with its builds'
//! glue, `minify.rs`), the README (its links into
//! the repository made absolute), both license files, and a `package.json` whose version
//! is Cargo.toml's.

use crate::settings::{self, Settings};
use crate::step::{self, announce, Failure};
use crate::{build, tools};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the package is written.
pub const DIR: &str = "target/npm";

const STEP: &str = "npm package";

/// Every file of the package: (path in the package, source in the repository). `None`: the
/// build's output (the `pkg/` files) or written here (`package.json`, the Node entries).
const FILES: [(&str, Option<&str>); 22] = [
    ("package.json", None),
    ("README.md", Some("README.md")),
    ("LICENSE-MIT", Some("LICENSE-MIT")),
    ("LICENSE-APACHE", Some("LICENSE-APACHE")),
    ("pkg/ringlab.js", None),
    ("pkg/ringlab_bg.wasm", None),
    ("pkg/ringlab.d.ts", Some("types/ringlab.d.ts")),
    ("pkg/disposable.d.ts", Some("types/disposable.d.ts")),
    ("pkg/ringlab.node.js", None),
    ("pkg/ringlab_element.js", None),
    ("pkg/ringlab_element_bg.wasm", None),
    ("pkg/ringlab_charts.js", None),
    ("pkg/ringlab_charts_bg.wasm", None),
    ("pkg/ringlab_charts.d.ts", Some("types/ringlab_charts.d.ts")),
    ("pkg/ringlab_charts.node.js", None),
    ("hash-ring.js", Some("www/hash-ring.js")),
    ("hash-ring.d.ts", Some("types/hash-ring.d.ts")),
    ("ring-view.js", Some("www/ring-view.js")),
    ("host.js", Some("www/host.js")),
    ("charts-module.js", Some("www/charts-module.js")),
    ("sequence.js", Some("www/sequence.js")),
    ("sequence.d.ts", Some("types/sequence.d.ts")),
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
            (_, None) if to.ends_with(".node.js") => {
                let module = to.trim_start_matches("pkg/").trim_end_matches(".node.js");
                std::fs::write(dir.join(to), node_entry(module)).map_err(|e| fail(e.to_string()))?;
                continue;
            }
            (_, Some(from)) => PathBuf::from(from),
            // The build's output: the modules' `.js` and `_bg.wasm`, named as in wasm-pack.toml.
            (_, None) => built.join(to.trim_start_matches("pkg/")),
        };
        std::fs::copy(&from, dir.join(to))
            .map_err(|e| fail(format!("copy {}: {e} (run cargo xtask build first)", from.display())))?;
    }
    // What a writer's page loads for the element, minified; the library's modules
    // (`pkg/ringlab.js`, `pkg/ringlab_charts.js`) stay as wasm-bindgen wrote them.
    println!("    {}", crate::minify::in_place(&dir, &crate::minify::ELEMENT_SCRIPTS).map_err(fail)?);
    check_imports(&dir)?;
    absolute_readme_links(&dir.join("README.md"))?;
    let manifest = package_json()?;
    let text = serde_json::to_string_pretty(&manifest).map_err(|e| fail(e.to_string()))? + "\n";
    std::fs::write(dir.join("package.json"), text).map_err(|e| fail(e.to_string()))?;
    println!("    {}: {} files", dir.display(), FILES.len());
    Ok(dir)
}

/// Where the package stage makes its fresh project: outside the repository, so nothing there
/// resolves to the repository's files.
fn fresh_dir() -> PathBuf {
    std::env::temp_dir().join("ringlab-package-test")
}

/// Writes the package, packs it (`npm pack`), and installs the tarball into a fresh copy of
/// `tests/package/app/` in a temporary folder; returns that project's folder.
pub fn install_fresh(settings: &Settings) -> Result<PathBuf, Failure> {
    let name = "install the packed package into a fresh project";
    let fail = |e: String| Failure::new(name, e);
    let dir = write(settings)?;
    announce(name);
    let root = fresh_dir();
    if root.exists() {
        std::fs::remove_dir_all(&root).map_err(|e| fail(format!("{}: {e}", root.display())))?;
    }
    std::fs::create_dir_all(&root).map_err(|e| fail(e.to_string()))?;
    let out = Command::new("npm")
        .args(["pack", "--ignore-scripts", "--pack-destination"])
        .arg(&root)
        .current_dir(&dir)
        .output()
        .map_err(|e| fail(format!("npm pack: {e}")))?;
    if !out.status.success() {
        return Err(fail(format!("npm pack: {}", String::from_utf8_lossy(&out.stderr))));
    }
    let tarball = String::from_utf8_lossy(&out.stdout).lines().last().unwrap_or_default().trim().to_string();
    let app = root.join("app");
    copy_dir(Path::new("tests/package/app"), &app).map_err(|e| fail(format!("copy tests/package/app: {e}")))?;
    // The tarball has no dependencies: nothing is fetched.
    step::run(
        &format!("npm install {tarball}"),
        Command::new("npm")
            .args(["install", "--offline", "--no-audit", "--no-fund", "--no-package-lock"])
            .arg(root.join(&tarball))
            .current_dir(&app),
    )?;
    println!("    {}: {tarball} installed", app.display());
    Ok(app)
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
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
            // Node reads the wasm from the package (its fetch cannot load a file: URL);
            // browsers and bundlers take the module that finds it by `new URL(…,
            // import.meta.url)`.
            ".": { "types": "./pkg/ringlab.d.ts", "node": "./pkg/ringlab.node.js", "default": "./pkg/ringlab.js" },
            "./hash-ring": { "types": "./hash-ring.d.ts", "default": "./hash-ring.js" },
            // Scripted sequences for the element (a post's story: join, leave, follow).
            "./sequence": { "types": "./sequence.d.ts", "default": "./sequence.js" },
            "./ringlab_bg.wasm": "./pkg/ringlab_bg.wasm",
            // The chart drawing: a module of its own, which the page fetches when it first
            // shows a chart.
            "./charts": {
                "types": "./pkg/ringlab_charts.d.ts",
                "node": "./pkg/ringlab_charts.node.js",
                "default": "./pkg/ringlab_charts.js"
            },
            "./ringlab_charts_bg.wasm": "./pkg/ringlab_charts_bg.wasm",
            "./package.json": "./package.json"
        },
        "files": files,
        // Importing the API does nothing by itself; importing the element defines <hash-ring>.
        "sideEffects": ["./hash-ring.js"]
    }))
}

/// `pkg/{module}.node.js`, the module's entry in Node (package.json's `node` condition): the
/// browser's module, whose `init()` with no argument fetches `{module}_bg.wasm` by URL, which
/// Node's `fetch` refuses for a `file:` URL. This one reads those bytes from the package's
/// folder and hands them to the same `init`; anything passed to `init` goes through as given.
fn node_entry(module: &str) -> String {
    NODE_ENTRY.replace("MODULE", module)
}

const NODE_ENTRY: &str = r#"// Written by `cargo xtask package`: MODULE.js for Node, whose fetch cannot load the wasm by
// a file: URL. init() with no argument reads it from this folder instead.
import { readFile } from "node:fs/promises";
import init from "./MODULE.js";

export * from "./MODULE.js";

export default async function initNode(module_or_path) {
  if (module_or_path === undefined) {
    module_or_path = { module_or_path: await readFile(new URL("./MODULE_bg.wasm", import.meta.url)) };
  }
  return init(module_or_path);
}
"#;

/// The README's repository-relative links (the screenshots, BENCH.md) point into the
/// repository, since the package does not hold those files.
fn absolute_readme_links(readme: &Path) -> Result<(), Failure> {
    let fail = |e: String| Failure::new(STEP, e);
    let repository = cargo_field("repository")?;
    let text = std::fs::read_to_string(readme).map_err(|e| fail(e.to_string()))?;
    std::fs::write(readme, absolute_links(&text, &repository)).map_err(|e| fail(e.to_string()))
}

/// Each Markdown link `](path)` to a file of the repository made absolute: the site's files
/// (`www/`, the images) to their raw bytes, any other to its page. Links with a scheme and
/// anchors stay as written.
fn absolute_links(text: &str, repository: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        let (before, link) = rest.split_at(at + 2);
        out.push_str(before);
        let kept = link.starts_with('#') || link.split(['/', ')']).next().is_some_and(|first| first.contains(':'));
        if !kept {
            let kind = if link.starts_with("www/") { "raw" } else { "blob" };
            out.push_str(&format!("{repository}/{kind}/HEAD/"));
        }
        rest = link;
    }
    out.push_str(rest);
    out
}

pub(crate) fn cargo_field(key: &str) -> Result<String, Failure> {
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
pub(crate) fn relative_imports(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    // Written by hand (`from "./x.js"`) or minified (`from"./x.js"`).
    for marker in [
        "from \"",
        "from '",
        "from\"",
        "from'",
        "import(\"",
        "import('",
        "import \"",
        "import '",
        "import\"",
        "import'",
    ] {
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

#[cfg(test)]
mod tests {
    use super::{absolute_links, relative_imports};

    #[test]
    fn the_readmes_links_into_the_repository_are_made_absolute() {
        let repo = "https://github.com/ringlab/ringlab";
        let text = "![shot](www/assets/screenshot.png) [BENCH.md](BENCH.md), [rules](tests/real/README.md) \
                    [Package](#package) [CDN](https://cdn.jsdelivr.net/npm/ringlab) [mail](mailto:a@b)";
        assert_eq!(
            absolute_links(text, repo),
            "![shot](https://github.com/ringlab/ringlab/raw/HEAD/www/assets/screenshot.png) \
             [BENCH.md](https://github.com/ringlab/ringlab/blob/HEAD/BENCH.md), \
             [rules](https://github.com/ringlab/ringlab/blob/HEAD/tests/real/README.md) \
             [Package](#package) [CDN](https://cdn.jsdelivr.net/npm/ringlab) [mail](mailto:a@b)"
        );
        assert_eq!(absolute_links("no links, ring.locate(key)", repo), "no links, ring.locate(key)");
    }

    #[test]
    fn reads_relative_imports_as_written_and_minified() {
        let written = "import { RingView } from \"./ring-view.js\";\nimport x from 'left-pad';\nconst b = import(\"./pkg/other.js\");";
        assert_eq!(relative_imports(written), ["./ring-view.js", "./pkg/other.js"]);
        let minified = "import{RingView as e}from\"./ring-view.js\";import\"./hash-ring.js\";import(\"../x.js\")";
        let mut found = relative_imports(minified);
        found.sort();
        assert_eq!(found, ["../x.js", "./hash-ring.js", "./ring-view.js"]);
    }
}
