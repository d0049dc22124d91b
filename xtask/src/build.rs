//! `cargo xtask build`: each module of wasm-pack.toml, release wasm build → wasm-bindgen →
//! wasm-opt → `www/pkg/`; then the element's bundle (`www/bundle/`).

use crate::settings::{self, Settings};
use crate::step::{self, Failure};
use crate::tools;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the build wrote: each module, the engine's first.
pub struct Built {
    pub modules: Vec<BuiltModule>,
}

/// One module's `.wasm` in the output directory, and its size.
pub struct BuiltModule {
    pub wasm: PathBuf,
    pub raw_bytes: u64,
    pub gzip_bytes: u64,
}

impl Built {
    /// The module the page loads at once (the engine's): what the size budget is about.
    pub fn main(&self) -> &BuiltModule {
        &self.modules[0]
    }
}

/// The modules, then the element's bundle from them (`www/bundle/`, which docs.html links),
/// so that a served or deployed build has both.
pub fn run() -> Result<Built, Failure> {
    tools::announce_checks();
    tools::for_build()?;
    let built = package(&settings::load()?)?;
    crate::bundle::write()?;
    Ok(built)
}

/// Builds the package's modules, assuming the tools are present. Each module is its own
/// cargo build (its features) → wasm-bindgen → wasm-opt: cargo writes every build of the
/// package to the same file, so wasm-bindgen reads it before the next build, and a copy is
/// kept for the type checks ([`compiled_wasm`]).
pub fn package(settings: &Settings) -> Result<Built, Failure> {
    let b = &settings.build;
    let mut modules = Vec::new();
    for module in &b.modules {
        step::run(
            &format!("cargo build (wasm32, {}): {}", module.profile(b), module.out_name),
            step::cargo()
                .args([
                    "build",
                    "--lib",
                    "--package",
                    &b.package,
                    "--target",
                    "wasm32-unknown-unknown",
                    "--profile",
                    module.profile(b),
                ])
                .args(b.module_args(module))
                .env("CARGO_TARGET_DIR", build_dir()),
        )?;
        let compiled = compiled_wasm(settings, &module.out_name);
        if let Some(dir) = compiled.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| Failure::new("keep the compiled wasm", format!("{}: {e}", dir.display())))?;
        }
        std::fs::copy(cargo_output(settings, module.profile(b)), &compiled)
            .map_err(|e| Failure::new("keep the compiled wasm", format!("{}: {e}", compiled.display())))?;
        step::run(
            &format!("wasm-bindgen: {}", module.out_name),
            Command::new("wasm-bindgen")
                .args([
                    "--target",
                    &b.target,
                    "--out-dir",
                    &b.out_dir,
                    "--out-name",
                    &module.out_name,
                    "--no-typescript",
                ])
                .arg(&compiled),
        )?;
        inline_snippets(Path::new(&b.out_dir), &module.out_name)
            .map_err(|e| Failure::new(&format!("inline snippets: {}", module.out_name), e))?;
        let wasm = PathBuf::from(&b.out_dir).join(format!("{}_bg.wasm", module.out_name));
        let then = !module.wasm_opt_then.is_empty();
        step::run(
            &format!("wasm-opt: {}", module.out_name),
            Command::new(tools::wasm_opt())
                .args(&settings.wasm_opt.flags)
                .args(&module.wasm_opt_flags)
                .args(then.then_some("-g"))
                .arg(&wasm)
                .arg("-o")
                .arg(&wasm),
        )?;
        if then {
            step::run(
                &format!("wasm-opt, second run: {}", module.out_name),
                Command::new(tools::wasm_opt())
                    .args(&settings.wasm_opt.flags)
                    .args(&module.wasm_opt_then)
                    .arg(&wasm)
                    .arg("-o")
                    .arg(&wasm),
            )?;
        }
        modules.push(measure(wasm)?);
    }
    // The page's colours come from the engine's theme: one source for the page, the embed
    // and the charts.
    let css = PathBuf::from(&b.out_dir).join("theme.css");
    std::fs::write(&css, ringlab::theme::css(ringlab::theme::Scope::Page))
        .map_err(|e| Failure::new("write theme.css", e.to_string()))?;
    for m in &modules {
        println!("    {}: {} bytes raw, {} bytes gzip (level 9)", m.wasm.display(), m.raw_bytes, m.gzip_bytes);
    }
    Ok(Built { modules })
}

/// Puts the JavaScript snippets wasm-bindgen wrote beside module `out_name`'s glue into the
/// glue, where the glue imported them, and removes the `snippets/` folder they were in. The
/// crate's one snippet is the guard against calls on freed objects (`src/web/freed.rs`, an
/// `inline_js`); inlined, each module stays one script and one wasm file, as the npm package,
/// the element's bundle and the minifier list them, and no page fetches one more file.
fn inline_snippets(out_dir: &Path, out_name: &str) -> Result<(), String> {
    let path = out_dir.join(format!("{out_name}.js"));
    let glue = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let inlined = with_snippets_inlined(&glue, |snippet| {
        let file = out_dir.join(snippet);
        std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))
    })?;
    if inlined != glue {
        std::fs::write(&path, inlined).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let snippets = out_dir.join("snippets");
    if snippets.exists() {
        std::fs::remove_dir_all(&snippets).map_err(|e| format!("{}: {e}", snippets.display()))?;
    }
    Ok(())
}

/// `glue` with each of wasm-bindgen's imports of a snippet (`import { a, b as c } from
/// './snippets/…';`, one line) replaced by the snippet's text, which `read` gives for its path:
/// its exports made declarations of the glue's own, and `const c = b;` for an item renamed. A
/// snippet that imports, or exports in another form, is refused by name.
fn with_snippets_inlined(glue: &str, read: impl Fn(&str) -> Result<String, String>) -> Result<String, String> {
    let mut out = String::with_capacity(glue.len());
    for line in glue.split_inclusive('\n') {
        let Some((items, path)) = snippet_import(line.trim_end()) else {
            out.push_str(line);
            continue;
        };
        let snippet = read(path)?;
        for text in snippet.lines() {
            if text.starts_with("import ") || text.starts_with("import{") {
                return Err(format!("{path} imports, so it cannot be inlined: {text}"));
            }
            let local = match text.strip_prefix("export ") {
                Some(rest)
                    if ["function ", "async function ", "const ", "let ", "class "]
                        .iter()
                        .any(|d| rest.starts_with(d)) =>
                {
                    rest
                }
                Some(_) => return Err(format!("{path} exports in a form that cannot be inlined: {text}")),
                None => text,
            };
            out.push_str(local);
            out.push('\n');
        }
        for item in items.split(',') {
            if let Some((name, alias)) = item.split_once(" as ") {
                out.push_str(&format!("const {} = {};\n", alias.trim(), name.trim()));
            }
        }
    }
    Ok(out)
}

/// The items and the path of a line `import { … } from './snippets/…';`.
fn snippet_import(line: &str) -> Option<(&str, &str)> {
    let (items, from) = line.strip_prefix("import { ")?.split_once(" } from '")?;
    let path = from.strip_suffix("';")?;
    path.starts_with("./snippets/").then_some((items, path))
}

/// The modules a finished build wrote to the output directory (built by another process).
pub fn built(settings: &Settings) -> Result<Built, Failure> {
    let b = &settings.build;
    let modules = b
        .modules
        .iter()
        .map(|m| measure(PathBuf::from(&b.out_dir).join(format!("{}_bg.wasm", m.out_name))))
        .collect::<Result<_, _>>()?;
    Ok(Built { modules })
}

fn measure(wasm: PathBuf) -> Result<BuiltModule, Failure> {
    let bytes = std::fs::read(&wasm).map_err(|e| Failure::new("measure wasm", format!("{}: {e}", wasm.display())))?;
    Ok(BuiltModule { raw_bytes: bytes.len() as u64, gzip_bytes: gzip_len(&bytes), wasm })
}

/// The target directory (`CARGO_TARGET_DIR` when it is set).
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from)
}

/// Where the release modules are compiled: a target directory of their own, so that
/// `cargo xtask test` builds them while the native and wasm tests use the main one (cargo
/// locks a target directory for one build at a time).
fn build_dir() -> PathBuf {
    target_dir().join("pkg-build")
}

/// The wasm file cargo compiles with `profile`, whichever features (the same path for every
/// module of that profile).
fn cargo_output(settings: &Settings, profile: &str) -> PathBuf {
    let b = &settings.build;
    let profile_dir = if profile == "dev" { "debug" } else { profile };
    build_dir().join("wasm32-unknown-unknown").join(profile_dir).join(format!("{}.wasm", b.package.replace('-', "_")))
}

/// Module `out_name`'s wasm as cargo compiled it (before wasm-bindgen), kept by [`package`].
pub fn compiled_wasm(settings: &Settings, out_name: &str) -> PathBuf {
    cargo_output(settings, &settings.build.profile).with_file_name(format!("{out_name}.module.wasm"))
}

fn gzip_len(bytes: &[u8]) -> u64 {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(bytes);
    encoder.finish().map(|v| v.len() as u64).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GLUE: &str = "import { guardFreed } from './snippets/ringlab-0123/inline0.js';\nimport { a as b } from './snippets/ringlab-0123/inline1.js';\nimport { x } from './elsewhere.js';\n\nfunction __wbg_get_imports() { guardFreed(b); }\n";

    fn read(path: &str) -> Result<String, String> {
        match path {
            "./snippets/ringlab-0123/inline0.js" => {
                Ok("\nexport function guardFreed(classes) {\n  return classes;\n}\n".into())
            }
            "./snippets/ringlab-0123/inline1.js" => Ok("export const a = 1;\n".into()),
            other => Err(format!("no {other}")),
        }
    }

    #[test]
    fn snippets_are_inlined_where_the_glue_imported_them() {
        let out = with_snippets_inlined(GLUE, read).unwrap();
        assert_eq!(
            out,
            "\nfunction guardFreed(classes) {\n  return classes;\n}\nconst a = 1;\nconst b = a;\nimport { x } from './elsewhere.js';\n\nfunction __wbg_get_imports() { guardFreed(b); }\n"
        );
        // Glue without snippets is left as it is.
        let plain = "import { x } from './elsewhere.js';\nlet y = 1;\n";
        assert_eq!(with_snippets_inlined(plain, read).unwrap(), plain);
    }

    #[test]
    fn a_snippet_that_cannot_be_inlined_is_refused_by_name() {
        let glue = "import { f } from './snippets/s/inline0.js';\n";
        let imports = with_snippets_inlined(glue, |_| Ok("import { g } from './g.js';\n".into())).unwrap_err();
        assert!(imports.starts_with("./snippets/s/inline0.js imports"), "{imports}");
        let default = with_snippets_inlined(glue, |_| Ok("export default function f() {}\n".into())).unwrap_err();
        assert!(default.contains("exports in a form"), "{default}");
        let missing = with_snippets_inlined(glue, |p| Err(format!("no {p}"))).unwrap_err();
        assert_eq!(missing, "no ./snippets/s/inline0.js");
    }

    #[test]
    fn the_crates_snippet_inlines() {
        // The guard's JavaScript as src/web/freed.rs writes it: exports only a function.
        let source = std::fs::read_to_string(crate::step::project_root().join("src/web/freed.rs")).unwrap();
        let snippet = source.split("inline_js = r#\"").nth(1).unwrap().split("\"#)]").next().unwrap().to_string();
        let glue = "import { guardFreed } from './snippets/ringlab-0/inline0.js';\n";
        let out = with_snippets_inlined(glue, |_| Ok(snippet.clone())).unwrap();
        assert!(out.contains("\nfunction guardFreed(classes) {"), "{out}");
        assert!(!out.contains("export ") && !out.contains("import "), "{out}");
    }
}
