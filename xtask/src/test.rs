//! `cargo xtask test`: every test, stage by stage, with a count per stage.
//!
//! 0. lint: `cargo fmt --check` (`rustfmt.toml`) and `cargo clippy -D warnings` on every
//!    target: natively (all targets, the charts too), the wasm binding, and the binding as
//!    the element's and the charts' modules build it;
//! 1. native: `cargo test` of ringlab (unit, doc and the integration tests, one binary of
//!    modules in `tests/native/`) and of xtask (the dev server's bounds), and the examples;
//! 2. wasm: `tests/web/`, one wasm-bindgen test binary (the JS binding, and every
//!    real-system fixture with the native tests' comparisons), built once and run in every
//!    browser of `wasm-pack.toml` at the same time;
//! 3. page: the release build of `wasm-pack.toml`'s modules (`cargo xtask build`, run in
//!    the background at a lower priority from the start, in its own target directory), then
//!    `node --test tests/e2e/*.test.mjs` (two files at a time, and the one that times calls
//!    alone, last), playwright-core driving Debian's Chromium against the built `www/`
//!    served on 127.0.0.1 at a free port under `/ringlab/`, as GitHub Pages serves a project
//!    site (`RINGLAB_URL`), and again with the deployment's Content-Security-Policy
//!    (`RINGLAB_CSP_URL`);
//! 4. checks: the workflows (actionlint), relative URLs, the npm package and its types (npm
//!    pack, tsc), the crate as published and its docs (`checks.rs`);
//! 5. package: the npm package as a user gets it, `npm pack`ed and installed into a fresh
//!    project in a temporary folder (`tests/package/app/`), then `node --test
//!    tests/package/package.test.mjs`: Node, tsc --strict at ES2020 and ES2022, a Vite and a
//!    webpack build opened in Chromium, the element from a CDN-style URL, and from the
//!    bundle folder of `cargo xtask bundle`.

use crate::checks;
use crate::serve::{self, Server};
use crate::settings::{self, Settings};
use crate::step::{self, announce, Failure};
use crate::{build, tools};
use crate::{bundle, package};
use std::process::Command;
use std::time::Instant;

/// Tests run and failed in one stage.
struct Tally {
    stage: String,
    passed: u64,
    failed: u64,
    seconds: f64,
}

pub fn run() -> Result<(), Failure> {
    let all = Instant::now();
    tools::announce_checks();
    tools::for_test()?;
    let settings = settings::load()?;
    let features = settings.build.feature_args();
    // The release modules the page tests load build in another process meanwhile, at a lower
    // priority: their link-time optimisation is one long single-threaded job a module, and
    // lint's checks of one crate at a time and the browser tests leave a core idle. (At the
    // same priority, on a clean clone, the two cold builds of the dependencies fought: lint
    // took 480 s against about 215 s.)
    let release = ReleaseBuild::start()?;
    let mut tallies = vec![lint()?];
    tallies.push(native(&features)?);
    tallies.extend(wasm(&settings.test.browsers, &features)?);
    release.finish()?;
    bundle::write()?; // docs.html links it, as `cargo xtask build` writes it
    tallies.push(page(&build::built(&settings)?)?);
    tallies.push(checks_stage(&settings)?);
    tallies.push(package_stage(&settings)?);

    println!("\n==> summary");
    for t in &tallies {
        println!("    {:<24} {:>4} passed, {} failed  ({:.1}s)", t.stage, t.passed, t.failed, t.seconds);
    }
    let passed: u64 = tallies.iter().map(|t| t.passed).sum();
    let failed: u64 = tallies.iter().map(|t| t.failed).sum();
    println!("    all stages in {:.1}s", step::secs(all));
    println!("{passed} passed, {failed} failed");
    if failed > 0 || tallies.iter().any(|t| t.passed == 0) {
        return Err(Failure::new("summary", "some tests failed or a stage ran none"));
    }
    Ok(())
}

/// `cargo xtask checks`: the build's tools and build, then the checks stage alone.
pub fn checks_only() -> Result<(), Failure> {
    tools::announce_checks();
    tools::for_build()?;
    let settings = settings::load()?;
    build::package(&settings)?;
    let tally = checks_stage(&settings)?;
    println!("{} passed, {} failed", tally.passed, tally.failed);
    Ok(())
}

/// `cargo xtask wasm-test`: the wasm-bindgen tests alone, in every browser at once.
pub fn wasm_only() -> Result<(), Failure> {
    tools::announce_checks();
    tools::for_test()?;
    let settings = settings::load()?;
    let tallies = wasm(&settings.test.browsers, &settings.build.feature_args())?;
    let (passed, failed) = tallies.iter().fold((0, 0), |(p, f), t| (p + t.passed, f + t.failed));
    println!("{passed} passed, {failed} failed");
    Ok(())
}

/// `cargo xtask package-test`: the package stage's tools and the build, then that stage alone.
pub fn package_only() -> Result<(), Failure> {
    tools::announce_checks();
    tools::for_package_test()?;
    let settings = settings::load()?;
    build::package(&settings)?;
    let tally = package_stage(&settings)?;
    println!("{} passed, {} failed", tally.passed, tally.failed);
    Ok(())
}

/// The packed package in a fresh project: each use a user has for it, one test each.
fn package_stage(settings: &Settings) -> Result<Tally, Failure> {
    let name = "package (Node, types, Vite, webpack, CDN)";
    announce(name);
    let start = Instant::now();
    let app = package::install_fresh(settings)?;
    let (bundle, _) = bundle::write()?;
    let bundle = std::env::current_dir().map_err(|e| Failure::new(name, e.to_string()))?.join(bundle);
    let mut cmd = Command::new("node");
    cmd.args(["--test", "--test-concurrency=1", "--test-timeout=180000", "--test-reporter=spec"])
        .arg("tests/package/package.test.mjs")
        .env("RINGLAB_APP", &app)
        .env("RINGLAB_BUNDLE", &bundle)
        .env("RINGLAB_CHROMIUM", tools::CHROMIUM);
    let (lines, ok) = step::run_capturing(name, &mut cmd)?;
    tally(name, &lines, start, ok, node_counts)
}

/// Formatting and lints, each command one check: a failing one names itself.
fn lint() -> Result<Tally, Failure> {
    let name = "lint (rustfmt, clippy)";
    announce(name);
    let start = Instant::now();
    let deny = ["--", "-D", "warnings"];
    let wasm = ["--target", "wasm32-unknown-unknown"];
    let commands: Vec<(&str, Vec<&str>)> = vec![
        ("cargo fmt --check", vec!["fmt", "--all", "--", "--check"]),
        ("clippy, native", [&["clippy", "--workspace", "--all-targets", "--features", "charts"][..], &deny].concat()),
        (
            // The wasm stage's targets: the library and the wasm-bindgen tests (the unit tests
            // use proptest, which is native only).
            "clippy, wasm",
            [&["clippy", "--package", "ringlab", "--lib", "--features", "charts"][..], &wasm_test_args(), &wasm, &deny]
                .concat(),
        ),
        ("clippy, the element's module", lib_for_wasm("element")),
        ("clippy, the charts' module", lib_for_wasm("charts")),
    ];
    let mut passed = 0;
    for (what, args) in commands {
        let status = step::cargo()
            .args(&args)
            .status()
            .map_err(|e| Failure::new(name, format!("could not start cargo {}: {e}", args.join(" "))))?;
        if !status.success() {
            return Err(Failure::new(name, format!("{what} failed: cargo {}", args.join(" "))));
        }
        println!("    {what}: ok");
        passed += 1;
    }
    Ok(Tally { stage: name.to_string(), passed, failed: 0, seconds: step::secs(start) })
}

/// Clippy on the library for wasm with `features` alone (one of the wasm-pack.toml modules).
fn lib_for_wasm(features: &'static str) -> Vec<&'static str> {
    let lib = ["clippy", "--package", "ringlab", "--lib", "--no-default-features", "--features", features];
    [&lib[..], &["--target", "wasm32-unknown-unknown", "--", "-D", "warnings"]].concat()
}

fn native(features: &[String]) -> Result<Tally, Failure> {
    let name = "native tests (cargo test)";
    announce(name);
    let start = Instant::now();
    let (mut lines, ok) = step::run_capturing(
        name,
        step::cargo().args(["test", "--package", "ringlab", "--package", "xtask"]).args(features),
    )?;
    let examples = examples(features)?;
    lines.push(format!("test result: ok. {examples} passed; 0 failed (the examples, run)"));
    tally(name, &lines, start, ok, rust_counts)
}

/// Runs each of `examples/` (built by `cargo test` above) on a small input and checks what
/// it wrote: the studies README shows must keep working. The number that passed.
fn examples(features: &[String]) -> Result<u64, Failure> {
    let name = "examples";
    let fail = |what: &str, why: String| Failure::new(name, format!("{what}: {why}"));
    let run = |what: &str, args: &[&str]| -> Result<String, Failure> {
        let out = step::cargo()
            .args(["run", "--quiet", "--package", "ringlab"])
            .args(features)
            .args(["--example", what, "--"])
            .args(args)
            .output()
            .map_err(|e| fail(what, e.to_string()))?;
        if !out.status.success() {
            return Err(fail(what, String::from_utf8_lossy(&out.stderr).into_owned()));
        }
        println!("    example {what}: ok");
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    std::fs::create_dir_all("target/examples-run").map_err(|e| fail("compare", e.to_string()))?;
    let keys: String = (0..2000).map(|i| format!("session:{i}\n")).collect();
    std::fs::write("target/examples-run/keys.txt", keys).map_err(|e| fail("compare", e.to_string()))?;
    let csv = run("compare", &["target/examples-run/keys.txt", "6"])?;
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    let named =
        ringlab::algo::Algorithm::ALL.iter().all(|a| rows.iter().any(|r| r.starts_with(&format!("{},", a.name()))));
    if rows.len() != ringlab::algo::Algorithm::ALL.len() || !named {
        return Err(fail("compare", format!("expected one row per algorithm, got:\n{csv}")));
    }
    let svg_path = "target/examples-run/sweep.svg";
    let table = run("sweep", &["5", svg_path])?;
    let svg = std::fs::read_to_string(svg_path).map_err(|e| fail("sweep", e.to_string()))?;
    if !svg.contains("Spread vs vnodes") || !table.starts_with("vnodes_per_node,") {
        return Err(fail("sweep", "no chart title in the SVG or no CSV on stdout".into()));
    }
    let plan = run("plan", &["redis"])?;
    if plan.lines().filter(|l| l.contains("total (at once")).count() != 4 {
        return Err(fail("plan", format!("expected a total for 1..4 steps, got:\n{plan}")));
    }
    Ok(3)
}

/// The wasm-bindgen test binaries (`tests/web/`): the lint and wasm stages name the same.
const WASM_TESTS: [&str; 1] = ["web"];

/// `--test web`.
fn wasm_test_args() -> Vec<&'static str> {
    WASM_TESTS.iter().flat_map(|t| ["--test", t]).collect()
}

/// The wasm-bindgen tests, built once, then run in every browser of `wasm-pack.toml` at the
/// same time: each runner mostly waits on its browser, so two take little longer than one.
fn wasm(browsers: &[String], features: &[String]) -> Result<Vec<Tally>, Failure> {
    let name = "wasm tests: build";
    announce(name);
    let start = Instant::now();
    let out = step::cargo()
        .args(["test", "--no-run", "--package", "ringlab", "--target", "wasm32-unknown-unknown"])
        .args(wasm_test_args())
        // No line tables in wasm: the browsers' traces do not read them, and without them the
        // test module is a third smaller (33 MB → 22 MB), so a busy machine loads it sooner within
        // chromedriver's 30 s wait on the renderer.
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .args(features)
        .args(["--message-format", "json-render-diagnostics"])
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| Failure::new(name, format!("could not start cargo: {e}")))?;
    if !out.status.success() {
        return Err(Failure::new(name, "the wasm tests did not build (see above)"));
    }
    let executables = test_executables(&String::from_utf8_lossy(&out.stdout));
    if executables.len() != WASM_TESTS.len() {
        return Err(Failure::new(
            name,
            format!("expected {} test files, cargo built {executables:?}", WASM_TESTS.len()),
        ));
    }
    println!("    built {} test files in {:.1}s", executables.len(), step::secs(start));
    let runs: Vec<_> = browsers
        .iter()
        .map(|browser| {
            let (browser, executables) = (browser.clone(), executables.clone());
            std::thread::spawn(move || run_in_browser(&browser, &executables))
        })
        .collect();
    let mut tallies = Vec::new();
    let mut failed = None;
    for run in runs {
        let (tally, lines) = run.join().map_err(|_| Failure::new(name, "a browser's runner thread panicked"))?;
        // Each browser's output in one piece, as it would have come alone.
        lines.iter().for_each(|l| println!("{l}"));
        match tally {
            Ok(t) => {
                println!("    {}: {} passed, {} failed in {:.1}s", t.stage, t.passed, t.failed, t.seconds);
                tallies.push(t);
            }
            Err(e) => failed = failed.or(Some(e)),
        }
    }
    failed.map_or(Ok(tallies), Err)
}

/// The test executables (`.wasm`) in cargo's `--message-format json` output.
fn test_executables(json_lines: &str) -> Vec<String> {
    json_lines
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["profile"]["test"] == true)
        .filter_map(|m| m["executable"].as_str().map(String::from))
        .collect()
}

/// Runs each test file in `browser` with wasm-bindgen's runner, in turn; the stage's tally and
/// its output.
fn run_in_browser(browser: &str, executables: &[String]) -> (Result<Tally, Failure>, Vec<String>) {
    let name = format!("wasm tests in {browser}");
    let start = Instant::now();
    let mut lines = vec![String::new(), format!("==> {name}")];
    let mut ok = true;
    for exe in executables {
        let mut cmd = Command::new("wasm-bindgen-test-runner");
        cmd.arg(exe);
        // The runner gives a test file 20 s to load and finish by default; the real-system
        // fixtures take about 10 s in Firefox on an idle machine, so a busy one needs more.
        cmd.env("WASM_BINDGEN_TEST_TIMEOUT", "180");
        // The runner picks the first driver variable it finds: set exactly one.
        for var in ["CHROMEDRIVER", "GECKODRIVER", "SAFARIDRIVER", "MSEDGEDRIVER"] {
            cmd.env_remove(var);
        }
        match browser {
            "chrome" => {
                cmd.env("CHROMEDRIVER", tools::CHROMEDRIVER);
            }
            "firefox" => match tools::geckodriver_path() {
                Some(driver) => {
                    cmd.env("GECKODRIVER", driver);
                }
                None => return (Err(Failure::new(&name, "geckodriver not found")), lines),
            },
            other => return (Err(Failure::new(&name, format!("unknown browser {other:?} in wasm-pack.toml"))), lines),
        }
        let file =
            std::path::Path::new(exe).file_name().map_or_else(|| exe.clone(), |f| f.to_string_lossy().into_owned());
        lines.push(format!("     Running {file} in {browser}"));
        match cmd.output() {
            Ok(out) => {
                lines.extend(String::from_utf8_lossy(&out.stdout).lines().map(String::from));
                lines.extend(String::from_utf8_lossy(&out.stderr).lines().map(String::from));
                ok &= out.status.success();
            }
            Err(e) => {
                return (Err(Failure::new(&name, format!("could not start wasm-bindgen-test-runner: {e}"))), lines)
            }
        }
    }
    // A stray argument is a test-name filter: every file would report "no tests to run!" and
    // the stage would pass having run nothing.
    if lines.iter().any(|l| l.contains("no tests to run")) {
        return (Err(Failure::new(&name, "a test file ran no tests (is an argument a filter by mistake?)")), lines);
    }
    let (passed, failed) = rust_counts(&lines);
    let seconds = step::secs(start);
    let tally = if ok && failed == 0 {
        Ok(Tally { stage: name.clone(), passed, failed, seconds })
    } else {
        Err(Failure::new(&name, format!("{failed} failed (see above)")))
    };
    (tally, lines)
}

/// `cargo xtask build-modules` (the build without its tool check) running in the background,
/// its output kept in a log printed when it finishes.
struct ReleaseBuild {
    child: std::process::Child,
    log: std::path::PathBuf,
    start: Instant,
}

impl ReleaseBuild {
    const NAME: &'static str = "release build of the page's modules (in the background)";

    fn start() -> Result<ReleaseBuild, Failure> {
        let fail = |e: std::io::Error| Failure::new(Self::NAME, e.to_string());
        std::fs::create_dir_all("target").map_err(fail)?;
        let log = std::path::PathBuf::from("target/xtask-release-build.log");
        let out = std::fs::File::create(&log).map_err(fail)?;
        let err = out.try_clone().map_err(fail)?;
        let exe = std::env::current_exe().map_err(fail)?;
        // `nice` (coreutils): the tests in the foreground come first.
        let child = Command::new("nice")
            .args(["-n", "10"])
            .arg(exe)
            .arg("build-modules")
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(fail)?;
        println!("\n==> {} started; its output goes to {}", Self::NAME, log.display());
        Ok(ReleaseBuild { child, log, start: Instant::now() })
    }

    fn finish(mut self) -> Result<(), Failure> {
        announce(Self::NAME);
        let status = self.child.wait().map_err(|e| Failure::new(Self::NAME, e.to_string()))?;
        print!("{}", std::fs::read_to_string(&self.log).unwrap_or_default());
        println!("    {}: done {:.1}s after it started", Self::NAME, step::secs(self.start));
        if !status.success() {
            return Err(Failure::new(Self::NAME, format!("exited with {status} (see above)")));
        }
        Ok(())
    }
}

impl Drop for ReleaseBuild {
    /// A stage failed before the build was waited for: stop it rather than leave it writing.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn page(built: &build::Built) -> Result<Tally, Failure> {
    let name = "page tests (node --test, Chromium)";
    announce(name);
    let start = Instant::now();
    let pages = serve::Options { prefix: serve::normal_prefix(PAGES_PREFIX), ..serve::Options::default() };
    let server = Server::start_with("127.0.0.1", 0, pages.clone())?;
    println!("    serving www/ at {} (as GitHub Pages serves a project site)", server.url);
    // The same files with the Content-Security-Policy a deployment would send.
    let csp_server = Server::start_with("127.0.0.1", 0, serve::Options { csp: true, ..pages })?;
    let mut files: Vec<String> = std::fs::read_dir("tests/e2e")
        .map_err(|e| Failure::new(name, e.to_string()))?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.ends_with(".test.mjs"))
        .map(|f| format!("tests/e2e/{f}"))
        .collect();
    files.sort();
    // The files that time calls or tasks run alone, after the others: beside another file's
    // Chromium, their calls took twice as long as on a quiet machine.
    let (timed, others): (Vec<String>, Vec<String>) =
        files.into_iter().partition(|f| TIMED_FILES.iter().any(|t| f.ends_with(t)));
    let node = |files: &[String], concurrency: u32| {
        let mut cmd = Command::new("node");
        cmd.arg("--test")
            .arg(format!("--test-concurrency={concurrency}"))
            // A test that waits for what never comes fails after this long, instead of holding
            // the suite up to CI's limit (the slowest passing one takes about 5 s here).
            .arg("--test-timeout=180000")
            .arg("--test-reporter=spec")
            .args(files)
            .env("RINGLAB_URL", &server.url)
            .env("RINGLAB_CSP_URL", &csp_server.url)
            .env("RINGLAB_CHROMIUM", tools::CHROMIUM)
            .env("RINGLAB_SCREENSHOTS", "target/screenshots")
            .env("RINGLAB_WASM_BYTES", built.main().raw_bytes.to_string());
        cmd
    };
    // Two files at a time: much of a page test is waiting (for animations, downloads,
    // Chromium's start), so two overlap well on two cores; more starve each other. (The
    // suite of 103 took 415 s so against 500 s one at a time, on a machine busy with a
    // build besides.)
    let (lines, ok) = step::run_capturing(name, &mut node(&others, 2))?;
    let (timed_lines, timed_ok) = step::run_capturing(name, &mut node(&timed, 1))?;
    let ((passed, failed), (timed_passed, timed_failed)) = (node_counts(&lines), node_counts(&timed_lines));
    let both = |_: &[String]| (passed + timed_passed, failed + timed_failed);
    tally(name, &[], start, ok && timed_ok && timed_passed > 0, both)
}

/// The page test files that time what they run: the fuzz stage's calls at the caps, and the
/// tasks of a link opened at the caps.
const TIMED_FILES: [&str; 2] = ["fuzz.test.mjs", "open-tasks.test.mjs"];

/// `cargo xtask fuzz [RUNS]`: the page tests' random call sequences at length (the test
/// suite runs a short bounded run of the same file).
pub fn fuzz(args: &[String]) -> Result<(), Failure> {
    let runs: u64 = match args.first() {
        None => 20_000,
        Some(n) => {
            n.parse().map_err(|_| Failure::new("arguments", format!("fuzz takes a number of runs, got {n:?}")))?
        }
    };
    tools::announce_checks();
    tools::for_test()?;
    let settings = settings::load()?;
    build::package(&settings)?;
    let name = format!("fuzz: {runs} random call sequences in Chromium");
    announce(&name);
    let start = Instant::now();
    let server = Server::start_with("127.0.0.1", 0, serve::Options::default())?;
    let mut cmd = Command::new("node");
    cmd.args(["--test", "--test-reporter=spec", "tests/e2e/fuzz.test.mjs"])
        .env("RINGLAB_URL", &server.url)
        .env("RINGLAB_CHROMIUM", tools::CHROMIUM)
        .env("RINGLAB_FUZZ_RUNS", runs.to_string())
        // The calls at the caps take longer each: one for every ten sequences.
        .env("RINGLAB_FUZZ_CAP_RUNS", (runs / 10).max(45).to_string());
    let (lines, ok) = step::run_capturing(&name, &mut cmd)?;
    if let Some(summary) = lines.iter().find(|l| l.contains("fuzz:")) {
        println!("    {}", summary.trim_start_matches(['#', ' ', '\\']));
    }
    // The slowest call per export at the caps: the table's heading and rows.
    for line in lines.iter().skip_while(|l| !l.contains("the slowest call per export")).take_while(|l| l.contains('#'))
    {
        println!("    {}", line.trim_start_matches(['#', ' ']));
    }
    println!("    {:.1}s", step::secs(start));
    if ok {
        Ok(())
    } else {
        Err(Failure::new(&name, "a sequence failed (see the counterexample above)"))
    }
}

/// The path GitHub Pages serves a project site under (`https://OWNER.github.io/ringlab/`).
const PAGES_PREFIX: &str = "/ringlab/";

fn checks_stage(settings: &Settings) -> Result<Tally, Failure> {
    let name = "checks (workflows, URLs, npm, types, crate)";
    announce(name);
    let start = Instant::now();
    let (passed, failed) = checks::run(settings);
    let seconds = step::secs(start);
    println!("    {name}: {passed} passed, {failed} failed in {seconds:.1}s");
    if failed > 0 {
        return Err(Failure::new(name, format!("{failed} failed (see above)")));
    }
    Ok(Tally { stage: name.to_string(), passed, failed, seconds })
}

fn tally(
    stage: &str,
    lines: &[String],
    start: Instant,
    ok: bool,
    counts: impl FnOnce(&[String]) -> (u64, u64),
) -> Result<Tally, Failure> {
    let (passed, failed) = counts(lines);
    let seconds = step::secs(start);
    println!("    {stage}: {passed} passed, {failed} failed in {seconds:.1}s");
    if !ok || failed > 0 {
        return Err(Failure::new(stage, format!("{failed} failed (see above)")));
    }
    Ok(Tally { stage: stage.to_string(), passed, failed, seconds })
}

/// Sums libtest's `test result: ok. N passed; M failed; ...` lines.
fn rust_counts(lines: &[String]) -> (u64, u64) {
    let mut sum = (0, 0);
    for line in lines.iter().filter(|l| l.starts_with("test result:")) {
        sum.0 += number_before(line, " passed");
        sum.1 += number_before(line, " failed");
    }
    sum
}

/// Reads node's `ℹ pass N` / `ℹ fail N` summary lines.
fn node_counts(lines: &[String]) -> (u64, u64) {
    let find = |word: &str| {
        // The summary comes last: read from the end.
        lines
            .iter()
            .rev()
            .filter_map(|l| l.trim_start_matches(|c: char| !c.is_ascii_alphabetic()).strip_prefix(word))
            .find_map(|rest| rest.trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    (find("pass "), find("fail "))
}

fn number_before(line: &str, word: &str) -> u64 {
    line.find(word).and_then(|end| line[..end].rsplit(|c: char| !c.is_ascii_digit()).next()?.parse().ok()).unwrap_or(0)
}
