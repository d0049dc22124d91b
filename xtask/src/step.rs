//! Steps: named, printed, timed, and failing with their name.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

/// A step that failed, and why.
#[derive(Debug)]
pub struct Failure {
    pub step: String,
    pub message: String,
}

impl Failure {
    pub fn new(step: &str, message: impl Into<String>) -> Failure {
        Failure { step: step.to_string(), message: message.into() }
    }
}

/// The workspace root (the parent of `xtask/`).
pub fn project_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(PathBuf::from).unwrap_or(manifest)
}

/// `cargo`, as the one that runs this xtask.
pub fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

/// Prints a step's heading.
pub fn announce(name: &str) {
    println!("\n==> {name}");
}

/// Runs a command as a named step; fails with its name if it does not succeed.
pub fn run(name: &str, command: &mut Command) -> Result<(), Failure> {
    announce(name);
    let start = Instant::now();
    let status = command.status().map_err(|e| Failure::new(name, format!("could not start {command:?}: {e}")))?;
    if !status.success() {
        return Err(Failure::new(name, format!("{command:?} exited with {status}")));
    }
    println!("    {name}: done in {:.1}s", start.elapsed().as_secs_f64());
    Ok(())
}

/// Runs a command, echoing its stdout line by line and returning those lines.
pub fn run_capturing(name: &str, command: &mut Command) -> Result<(Vec<String>, bool), Failure> {
    let mut child = command
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| Failure::new(name, format!("could not start {command:?}: {e}")))?;
    let mut lines = Vec::new();
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            println!("{line}");
            lines.push(line);
        }
    }
    let status = child.wait().map_err(|e| Failure::new(name, e.to_string()))?;
    Ok((lines, status.success()))
}

/// Whether a program answers `--version` (so it is on PATH).
pub fn version_of(program: &str) -> Option<String> {
    let out = Command::new(program).arg("--version").output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The full path of a program on PATH.
pub fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(program)).find(|p| p.is_file())
}

/// Seconds since `start`, for step reports.
pub fn secs(start: Instant) -> f64 {
    start.elapsed().as_secs_f64()
}
