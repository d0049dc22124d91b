//! `cargo xtask`: ringlab's build tool.
//!
//! - `cargo xtask build`: each module of wasm-pack.toml (the engine, the chart drawing):
//!   release wasm build → wasm-bindgen → wasm-opt → `www/pkg/`; then the bundle below.
//! - `cargo xtask serve [--port N] [--csp] [--prefix /ringlab/]`: build, then serve `www/` on
//!   127.0.0.1 (`--csp` sends the Content-Security-Policy a deployment would).
//! - `cargo xtask package`: build, then write the npm package to `target/npm/`.
//! - `cargo xtask bundle`: after a build, the element as one folder and one zip to copy to a
//!   site, `www/bundle/ringlab-element-VERSION/` and `.zip` (the Pages workflow publishes them).
//! - `cargo xtask types`: writes the parts of `types/ringlab.d.ts` the catalog decides (the
//!   algorithm names, the options' fields of `RingOptions`, the config kinds), between its
//!   `// <generated …>` markers; a unit test fails while the checked-in file differs.
//! - `cargo xtask checks`: build, then only the checks stage of `test` (workflows, URLs,
//!   npm package, types, crate).
//! - `cargo xtask test`: native tests, wasm tests in headless Chromium and Firefox, page tests,
//!   the checks (workflows, URLs, npm package, types, crate), and the packed npm package in a
//!   fresh project (Node, tsc, Vite, webpack, the element from a CDN-style URL).
//! - `cargo xtask package-test`: build, then only that last stage.
//! - `cargo xtask fuzz [RUNS]`: build, then a long run of the random call sequences of
//!   `tests/e2e/fuzz.test.mjs` (default 20,000 sequences) in Chromium, with a summary.
//! - `cargo xtask bench [--against REF]`: criterion and throughput benchmarks, wasm in node and
//!   Chromium, the page (first ring, an embed's first picture, long tasks) and the downloads,
//!   printed as one table of figures, comparisons, goals and budgets, written to the report
//!   `BENCH.md` (README.md is never written); `--against main` measures that commit's site
//!   beside ours in the same run.
//!
//! Each command first installs what it needs and is missing (see `tools.rs`), and every step
//! prints its name; a failing step names itself and the command exits non-zero.

mod bench;
mod build;
mod bundle;
mod checks;
mod minify;
mod package;
mod serve;
mod settings;
mod step;
mod test;
mod tools;
mod types;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <build | serve [--port N] [--csp] [--prefix /PATH/] | package | bundle | types | checks | test | wasm-test | package-test | fuzz [RUNS] | bench [--against REF]>";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = step::project_root();
    if let Err(e) = std::env::set_current_dir(&root) {
        eprintln!("xtask: cannot enter {}: {e}", root.display());
        return ExitCode::FAILURE;
    }
    let result = match args.first().map(String::as_str) {
        Some("build") => build::run().map(drop),
        // `cargo xtask test`'s background build: the tools are checked already.
        Some("build-modules") => settings::load().and_then(|s| build::package(&s)).map(drop),
        Some("serve") => serve::run(&args[1..]),
        Some("package") => package::run(),
        Some("bundle") => bundle::run(),
        Some("types") => types::run(),
        Some("checks") => test::checks_only(),
        Some("test") => test::run(),
        Some("package-test") => test::package_only(),
        Some("wasm-test") => test::wasm_only(),
        Some("bench") => bench::run(&args[1..]),
        Some("fuzz") => test::fuzz(&args[1..]),
        _ => Err(step::Failure::new("arguments", USAGE)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("\nxtask: step '{}' failed: {}", failure.step, failure.message);
            ExitCode::FAILURE
        }
    }
}
