//! `cargo xtask build`: each module of wasm-pack.toml, release wasm build → wasm-bindgen →
//! wasm-opt → `www/pkg/`.

use crate::settings::{self, Settings};
use crate::step::{self, Failure};
use crate::tools;
use std::io::Write;
use std::path::PathBuf;
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

pub fn run() -> Result<Built, Failure> {
    tools::announce_checks();
    tools::for_build()?;
    package(&settings::load()?)
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
