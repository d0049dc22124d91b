//! `cargo xtask build`: release wasm build → wasm-bindgen → wasm-opt → `www/pkg/`.

use crate::settings::{self, Settings};
use crate::step::{self, Failure};
use crate::tools;
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

/// What the build wrote.
pub struct Built {
    pub wasm: PathBuf,
    pub raw_bytes: u64,
    pub gzip_bytes: u64,
}

pub fn run() -> Result<Built, Failure> {
    tools::announce_checks();
    tools::for_build()?;
    package(&settings::load()?)
}

/// Builds the package, assuming the tools are present.
pub fn package(settings: &Settings) -> Result<Built, Failure> {
    let b = &settings.build;
    step::run(
        "cargo build (wasm32, release)",
        step::cargo().args([
            "build",
            "--lib",
            "--package",
            &b.package,
            "--target",
            "wasm32-unknown-unknown",
            "--profile",
            &b.profile,
        ])
        .args(b.feature_args()),
    )?;
    let compiled = compiled_wasm(settings);
    step::run(
        "wasm-bindgen",
        Command::new("wasm-bindgen").args([
            "--target",
            &b.target,
            "--out-dir",
            &b.out_dir,
            "--out-name",
            &b.out_name,
            "--no-typescript",
        ])
        .arg(&compiled),
    )?;
    let wasm = PathBuf::from(&b.out_dir).join(format!("{}_bg.wasm", b.out_name));
    step::run(
        "wasm-opt",
        Command::new(tools::wasm_opt()).args(&settings.wasm_opt.flags).arg(&wasm).arg("-o").arg(&wasm),
    )?;
    // The page's colours come from the engine's theme: one source for the page, the embed
    // and the charts.
    let css = PathBuf::from(&b.out_dir).join("theme.css");
    std::fs::write(&css, ringlab::theme::css(ringlab::theme::Scope::Page))
        .map_err(|e| Failure::new("write theme.css", e.to_string()))?;
    let bytes = std::fs::read(&wasm).map_err(|e| Failure::new("measure wasm", e.to_string()))?;
    let built = Built { raw_bytes: bytes.len() as u64, gzip_bytes: gzip_len(&bytes), wasm };
    println!(
        "    {}: {} bytes raw, {} bytes gzip (level 9)",
        built.wasm.display(),
        built.raw_bytes,
        built.gzip_bytes
    );
    Ok(built)
}

/// The wasm file cargo compiled (under `CARGO_TARGET_DIR` when it is set).
pub fn compiled_wasm(settings: &Settings) -> PathBuf {
    let b = &settings.build;
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from);
    let profile_dir = if b.profile == "dev" { "debug" } else { &b.profile };
    target.join("wasm32-unknown-unknown").join(profile_dir).join(format!("{}.wasm", b.package.replace('-', "_")))
}

fn gzip_len(bytes: &[u8]) -> u64 {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(bytes);
    encoder.finish().map(|v| v.len() as u64).unwrap_or(0)
}
