//! `cargo xtask bench`: runs the benchmarks and prints one table of every figure beside its
//! comparison and its goal, with the date and the machine, and writes it to the report
//! [`REPORT`] (committed: each run rewrites it whole, so its history is git's). A partial
//! run (`RINGLAB_BENCH_ONLY`) writes `<target dir>/bench-report.md` instead, so the committed
//! report is always a whole run. README.md is never written: it quotes a few figures by hand.
//! A partial run takes only the parts it names: `criterion`, `throughput`, `meter` (each
//! export's slowest call at its caps, natively and in Chromium) and the parts of
//! `tests/e2e/bench.mjs` (`RINGLAB_BENCH_ONLY=meter` takes the meter's rows alone).
//!
//! `cargo xtask bench --against REF` (e.g. `main`) also measures the site of another commit in
//! the same run: REF is exported with `git archive` into `<target dir>/bench-against/`, built
//! and bundled there by its own `cargo xtask` (in `<target dir>/bench-against-target/`, kept
//! between runs), served on a second port, and `tests/e2e/bench.mjs` takes the page figures of
//! both sites, loads alternating where a median is taken. Its figure goes beside ours under
//! "compared with", the ratio ours over its; the budgets judge ours alone.
//!
//! Sources: criterion (`benches/ring.rs`, per-call figures; the "per call" group runs
//! [`PER_CALL_RUNS`] short times and each figure and ratio is the median over the runs) and the throughput loop
//! (`benches/throughput.rs`, 100,000 distinct keys, loops interleaved round by round, medians
//! of per-round ratios; instruction counts by valgrind when it is installed), then the wasm
//! and page figures of `tests/e2e/bench.mjs` (node and headless Chromium, against `www/pkg`
//! built by the same command and served on 127.0.0.1), all in one [`table::Table`].

pub mod table;

use crate::serve::{self, Server};
use crate::step::{self, Failure};
use crate::{build, settings, tools};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use table::{Goal, Row, Table};

/// Runs of criterion's "per call" group.
const PER_CALL_RUNS: usize = 5;
/// The report every whole run rewrites, at the repository's top.
pub const REPORT: &str = "BENCH.md";

// The budgets a reader's experience sets: a whole run that misses one, or cannot measure it,
// fails after writing the report. Other goals are shown, met or not, and fail nothing.
/// The playground's first ring, ms after navigation (median of 5 loads, loopback).
const FIRST_RING_MS: f64 = 300.0;
/// An embed's first picture, ms after it scrolls into view (median of 5 loads, loopback).
const EMBED_PICTURE_MS: f64 = 300.0;
/// Any interaction's longest main-thread task, ms: a reader feels a longer one as a stall.
const LONGEST_TASK_MS: f64 = 50.0;
/// The three wasm modules by file name, what each serves, and its download ceiling (KB,
/// gzip -9): ceilings that stop a module from growing unnoticed, not targets to build for.
const MODULE_CEILINGS: [(&str, &str, f64); 3] = [
    // Raised once, on purpose, for the rollout page's words, the tour's zones and the opening
    // in steps: what comes next makes its own room.
    ("ringlab_bg.wasm", "the engine: the page, the tour, the npm package", 610.0),
    ("ringlab_element_bg.wasm", "the `<hash-ring>` element, every algorithm", 320.0),
    ("ringlab_charts_bg.wasm", "the charts, fetched on the first one", 200.0),
];
/// The unit of a count of modules.
const COUNT: &str = "modules";

/// `cargo xtask bench`'s usage.
pub const USAGE: &str = "bench [--against REF]";

pub fn run(args: &[String]) -> Result<(), Failure> {
    let reference = against_ref(args)?;
    // The page figures need the build's tools, Chromium and playwright-core: checked (and
    // installed when missing) first, so a missing browser stops the run before the long part.
    tools::announce_checks();
    tools::for_bench()?;
    let target = target_dir();
    // The other site first: a failing build of it stops the run before the long part.
    let against = reference.map(|r| build_against(&r, &target)).transpose()?;
    let only: Option<Vec<String>> =
        std::env::var("RINGLAB_BENCH_ONLY").ok().map(|o| o.split(',').map(str::to_string).collect());
    let partial = only.is_some();
    // A partial run takes the Rust figures it names ("criterion", "throughput", "meter") and
    // the page parts of bench.mjs it names; a whole run takes everything.
    let wants = |part: &str| only.as_ref().is_none_or(|o| o.iter().any(|p| p == part));
    let page_parts = only.as_ref().is_none_or(|o| o.iter().any(|p| !["criterion", "throughput"].contains(&p.as_str())));
    let mut per_call: Vec<HashMap<&'static str, f64>> = Vec::new();
    let (mut big, mut loops) = (Vec::new(), HashMap::new());
    if wants("criterion") {
        (per_call, big) = criterion_rows(&target)?;
    }
    if wants("throughput") {
        loops = throughput()?;
    }
    let meter = if wants("meter") { meter_rows()? } else { HashMap::new() };
    let page = if page_parts { page_rows(against.as_ref(), wants("throughput"))? } else { HashMap::new() };

    let beside = against.as_ref().map(|a| format!("{} ({})", a.reference, a.commit));
    let mut table = Table { date: now_utc(), machine: machine(), against: beside, ..Table::default() };
    if !per_call.is_empty() {
        add_per_call_rows(&mut table, &per_call);
    }
    add_loop_rows(&mut table, &loops);
    add_algorithm_rows(&mut table, &loops);
    add_page_rows(&mut table, &loops, &page, against.as_ref().map(|a| a.reference.as_str()));
    add_meter_rows(&mut table, &meter, &page);
    add_module_rows(&mut table, &build::built(&settings::load()?)?);
    for (figure, ms) in big {
        table.rows.push(Row::reported(figure, ms, "ms", None));
    }
    table.notes.push(format!(
        "Ring: 10 nodes × 160 vnodes, XXH3, 32-bit; keys `user:{{i}}`. Per call: criterion, {PER_CALL_RUNS} runs, \
         each ratio the median of the runs' ratios. Loop: 100,000 distinct keys, {} rounds, each loop timed once \
         per round in turn; the ratio is the median of the rounds' ratios. Instructions: valgrind (callgrind), \
         a stable proxy on a shared machine. Memory: 500 nodes × 1,000 vnodes (the 500,000-point cap). \
         Algorithms: every catalog entry with its defaults on 10 nodes (`node-0` ..), `Cluster::locate_index` \
         over the same keys, each timed once per round for 11 rounds, the median; memory is the state's heap bytes.",
        loops.get("rounds").copied().unwrap_or(0.0)
    ));
    table.notes.push(PAGE_NOTE.into());
    table.notes.push(METER_NOTE.into());
    finish(table, &target, partial)
}

/// The criterion figures: the per-call group's runs, and the big ring's.
#[allow(clippy::type_complexity)]
fn criterion_rows(target: &Path) -> Result<(Vec<HashMap<&'static str, f64>>, Vec<(&'static str, f64)>), Failure> {
    let mut per_call = Vec::new();
    let others = "criterion: build, shares, sweep, hashring replicas";
    step::run(
        others,
        step::cargo().args([
            "bench",
            "-p",
            "ringlab",
            "--bench",
            "ring",
            "--",
            "^(500 nodes|vnode sweep|hashring 0.3)",
        ]),
    )?;
    for run in 0..PER_CALL_RUNS {
        // Short runs, repeated: the ratios compare figures taken seconds apart.
        let mut cargo = step::cargo();
        cargo.args(["bench", "-p", "ringlab", "--bench", "ring", "--", "^per call/"]);
        cargo.args(["--warm-up-time", "1", "--measurement-time", "2"]);
        let name = format!("criterion per call, run {} of {PER_CALL_RUNS}", run + 1);
        step::run(&name, &mut cargo)?;
        per_call.push(criterion_per_call(target).map_err(|e| Failure::new(&name, e))?);
    }
    let big = criterion_big_ring(target).map_err(|e| Failure::new(others, e))?;
    Ok((per_call, big))
}

/// The throughput loop's rows.
fn throughput() -> Result<HashMap<String, f64>, Failure> {
    let name = "throughput over 100,000 keys";
    let (lines, ok) =
        step::run_capturing(name, step::cargo().args(["bench", "-p", "ringlab", "--bench", "throughput"]))?;
    if !ok {
        return Err(Failure::new(name, "the throughput benchmark failed"));
    }
    Ok(throughput_rows(&lines))
}

/// `examples/meter.rs`: each export's slowest call at its caps, natively (`meter_<export>` rows).
fn meter_rows() -> Result<HashMap<String, f64>, Failure> {
    let name = "each export's slowest call at its caps, natively (examples/meter.rs)";
    let mut cargo = step::cargo();
    cargo.args(["run", "--release", "-p", "ringlab", "--example", "meter"]);
    let (lines, ok) = step::run_capturing(name, &mut cargo)?;
    if !ok {
        return Err(Failure::new(name, "the meter example failed"));
    }
    Ok(throughput_rows(&lines))
}

/// How the meter rows are taken.
const METER_NOTE: &str = "Caps: each export's slowest call at and near its caps and their products, natively \
    (`examples/meter.rs`: the calls an export makes, in one `work::call`, slowest of 3 runs; budget 250 ms; a step of \
    opening a link of 499 nodes × 1,000 SHA-256 vnodes and 100,000 keys, 8 ms, 16 ms in wasm) and in Chromium (a \
    fixed sample of the fuzz's calls at the caps, `tests/e2e/fuzz-core.mjs`, each built then timed alone; budget \
    1,000 ms). An answer `too-large` counts as an answer: the time is until the refusal.";

/// The meter's rows: natively (`meter_*`) and in Chromium (`meter_chromium_*`), each export's
/// slowest call against its budget.
fn add_meter_rows(table: &mut Table, native: &HashMap<String, f64>, page: &HashMap<String, f64>) {
    let mut rows: Vec<(&String, f64)> = native.iter().map(|(k, &v)| (k, v)).collect();
    rows.extend(page.iter().filter(|(k, _)| k.starts_with("meter_chromium_")).map(|(k, &v)| (k, v)));
    rows.sort_by(|a, b| a.0.cmp(b.0));
    for (key, ms) in rows {
        let (figure, at_most) = if let Some(export) = key.strip_prefix("meter_chromium_") {
            (format!("slowest call at its caps, Chromium: `{}`", export.replace('_', " ")), 1000.0)
        } else if key == "meter_opening_step" {
            ("slowest step opening a link at the caps, natively".to_string(), 8.0)
        } else if let Some(export) = key.strip_prefix("meter_") {
            (format!("slowest call at its caps, natively: `{}`", export.replace('_', " ")), 250.0)
        } else {
            continue;
        };
        table.rows.push(Row { goal: Goal::ValueAtMost(at_most), ..Row::reported(figure, ms, "ms", None) });
    }
}

/// Prints the table, writes the report and judges the budgets.
fn finish(mut table: Table, target: &Path, partial: bool) -> Result<(), Failure> {
    if partial {
        // A partial run judges only what it measured.
        table.rows.retain(|r| !r.value.is_nan());
    }

    let text = table.markdown();
    step::announce("benchmark table");
    println!("{text}");
    let report = report_path(target, partial);
    std::fs::write(&report, report_text(&text))
        .map_err(|e| Failure::new("write the report", format!("{}: {e}", report.display())))?;
    println!("    written to {}", report.display());
    let over = over_budget(&table);
    if !over.is_empty() {
        let report = report.display();
        return Err(Failure::new("budgets", format!("not met (the report is in {report}):\n  {}", over.join("\n  "))));
    }
    Ok(())
}

/// Builds `www/pkg` (the current code), serves `www/` on 127.0.0.1 (and the other site, when
/// there is one, on a second port) and runs `tests/e2e/bench.mjs`: its `row` lines.
fn page_rows(against: Option<&Against>, native: bool) -> Result<HashMap<String, f64>, Failure> {
    build::package(&settings::load()?)?;
    // The embed is measured as writers ship it: the bundle's folder (its scripts minified, as
    // the npm package's are), served beside the site.
    let (bundle, _) = crate::bundle::write()?;
    let bundle_path =
        format!("{}/", bundle.strip_prefix("www").unwrap_or(&bundle).display()).trim_start_matches('/').to_string();
    // The native rounds beside the wasm ones, where the throughput loop was built.
    let native = if native { Some(throughput_executable()?) } else { None };
    let server = Server::start_with("127.0.0.1", 0, serve::Options::default())?;
    let name = "wasm in node and Chromium, the page, downloads (tests/e2e/bench.mjs)";
    let mut node = Command::new("node");
    node.arg("tests/e2e/bench.mjs")
        .env("RINGLAB_URL", &server.url)
        .env("RINGLAB_CHROMIUM", tools::CHROMIUM)
        .env("RINGLAB_BUNDLE_PATH", &bundle_path);
    if let Some(native) = &native {
        node.env("RINGLAB_NATIVE_BENCH", native);
    }
    // Served until the xtask ends, as ours is.
    let _other = match against {
        Some(a) => {
            let options = serve::Options { root: a.root.clone(), ..serve::Options::default() };
            let other = Server::start_with("127.0.0.1", 0, options)?;
            node.env("RINGLAB_AGAINST_URL", &other.url).env("RINGLAB_AGAINST_BUNDLE_PATH", &a.bundle_path);
            Some(other)
        }
        None => None,
    };
    step::announce(name);
    let (lines, ok) = step::run_capturing(name, &mut node)?;
    if !ok {
        return Err(Failure::new(name, "the page benchmark failed (its message is above)"));
    }
    Ok(throughput_rows(&lines))
}

/// The site of another commit, built to be measured beside ours.
struct Against {
    /// The ref as given (`main`) and the commit it named when the run began.
    reference: String,
    commit: String,
    /// Its `www/`, and its bundle's folder under that (`bundle/ringlab-element-VERSION/`).
    root: PathBuf,
    bundle_path: String,
}

/// The ref of `--against REF`, if given; anything else is a usage error.
fn against_ref(args: &[String]) -> Result<Option<String>, Failure> {
    match args {
        [] => Ok(None),
        [flag, reference] if flag == "--against" && !reference.starts_with('-') => Ok(Some(reference.clone())),
        _ => Err(Failure::new("bench", format!("usage: cargo xtask {USAGE}"))),
    }
}

/// Exports `reference` into `<target>/bench-against/` (afresh: `git archive`, so nothing of
/// the working tree leaks in) and builds and bundles its site there with its own xtask, in a
/// target dir of its own that later runs reuse.
fn build_against(reference: &str, target: &Path) -> Result<Against, Failure> {
    let name = format!("the site at {reference}, to measure beside ours");
    step::announce(&name);
    let fail = |e: String| Failure::new(&name, e);
    let out = Command::new("git")
        .args(["rev-parse", "--short", &format!("{reference}^{{commit}}")])
        .output()
        .map_err(|e| fail(format!("git: {e}")))?;
    if !out.status.success() {
        return Err(fail(format!("git names no commit {reference:?}")));
    }
    let commit = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let target = std::path::absolute(target).map_err(|e| fail(e.to_string()))?;
    let dir = target.join("bench-against");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| fail(format!("{}: {e}", dir.display())))?;
    }
    std::fs::create_dir_all(&dir).map_err(|e| fail(format!("{}: {e}", dir.display())))?;
    let mut git = Command::new("git")
        .args(["archive", "--format=tar", &commit])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| fail(format!("git archive: {e}")))?;
    let tar = git.stdout.take().map(|out| Command::new("tar").arg("-x").arg("-C").arg(&dir).stdin(out).status());
    let exported = git.wait().is_ok_and(|s| s.success()) && tar.is_some_and(|t| t.is_ok_and(|s| s.success()));
    if !exported {
        return Err(fail(format!("could not export {commit} into {}", dir.display())));
    }
    println!("    {reference} ({commit}) exported to {}", dir.display());
    for command in ["build", "bundle"] {
        let mut cargo = step::cargo();
        cargo.args(["xtask", command]).current_dir(&dir).env("CARGO_TARGET_DIR", target.join("bench-against-target"));
        step::run(&format!("cargo xtask {command}, at {reference} ({commit})"), &mut cargo)?;
    }
    let root = dir.join("www");
    let bundle = std::fs::read_dir(root.join("bundle"))
        .map_err(|e| fail(format!("{}: {e}", root.join("bundle").display())))?
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .find(|name| name.starts_with("ringlab-element-") && root.join("bundle").join(name).is_dir())
        .ok_or_else(|| fail("its bundle wrote no ringlab-element-VERSION folder".into()))?;
    Ok(Against { reference: reference.into(), commit, root, bundle_path: format!("bundle/{bundle}/") })
}

/// The throughput benchmark's executable (already built by the throughput step), whose
/// `--key-owners-rounds` the page script interleaves with the wasm rounds.
fn throughput_executable() -> Result<PathBuf, Failure> {
    let name = "find the throughput benchmark's executable";
    let out = step::cargo()
        .args(["bench", "-p", "ringlab", "--bench", "throughput", "--no-run", "--message-format=json"])
        .output()
        .map_err(|e| Failure::new(name, e.to_string()))?;
    executable_named(&String::from_utf8_lossy(&out.stdout), "throughput")
        .ok_or_else(|| Failure::new(name, format!("cargo named no executable for it ({})", out.status)))
}

/// The executable of target `target` in cargo's `--message-format=json` output.
fn executable_named(messages: &str, target: &str) -> Option<PathBuf> {
    messages.lines().find_map(|line| {
        let message: serde_json::Value = serde_json::from_str(line).ok()?;
        (message["target"]["name"] == target).then_some(())?;
        message["executable"].as_str().map(PathBuf::from)
    })
}

/// How the wasm and page figures are taken.
const PAGE_NOTE: &str = "Wasm: `Ring.keyOwners(\"user:\", 100000)` on the same ring in node (`www/pkg` via \
    `initSync`) and in headless Chromium, and the same work natively (the same `Cluster::locate_generated` into a \
    list, in the throughput benchmark's process): 21 rounds of 4 calls each side after a warm-up, the three timed in \
    turn each round; the figures are medians, the ratio the median of the rounds' ratios. Page (headless Chromium, \
    1200 × 900, `www/` served on loopback): the playground's first ring, from navigation start to the ring drawn, \
    median of 5 loads of the default page (and of 3 over Chromium's emulated 80 ms / 20 Mbit/s link); an embed's \
    first picture, from the moment it is scrolled into view (it sits 10,000 px below the fold of a loaded page) to \
    its `ready` event, median of 5. Longest tasks, from a Chromium trace (every main-thread task, not only the Long \
    Tasks API's over 50 ms) while the interaction runs, the page settles and its animation plays: a node joins and \
    one leaves at 100 nodes × 256 vnodes × 100,000 keys, the longest over 3 changes each (the first pays for warming \
    up: readers meet it too); the first switch to another algorithm on the default page; each chart's longest task, \
    its data pieces' and its draw's as its status line reports them (whole ms), at 10 nodes × 1,000 vnodes, the \
    spread chart also with the five-hash band, median of 3 page loads; a share link of 500 nodes × 1,000 vnodes and \
    100,000 keys opened in a new tab, from navigation until the page is ready and settled, median of 3 loads. \
    Downloads: the bodies the browser fetched (1 KB = 1,000 bytes), gzip -9 by node's zlib: the playground's wasm at \
    load, the scripts and wasm it fetches on top for its charts and for its first switch, and every script, wasm and \
    stylesheet a minimal page of one `<hash-ring>` (and of three, of three algorithms) fetches until each is ready, \
    from the bundle's folder as writers ship it. Modules: each `.wasm` as built (wasm-opt'd), gzip -9; the three \
    modules' ceilings are budgets.";

/// The per-call ids of `benches/ring.rs` and the keys they go by here.
const PER_CALL: [(&str, &str); 6] = [
    ("hash", "hash alone"),
    ("locate", "locate"),
    ("owner_of", "owner_of"),
    ("hashring", "hashring get"),
    ("replicas", "replicas 3"),
    ("replicas_into", "replicas_into 3"),
];

/// Median nanoseconds of each per-call benchmark of the last criterion run.
fn criterion_per_call(target: &Path) -> Result<HashMap<&'static str, f64>, String> {
    PER_CALL.iter().map(|&(key, id)| Ok((key, criterion_median(target, "per call", id)?))).collect()
}

/// The median nanoseconds of criterion's last run of `group/id`.
fn criterion_median(target: &Path, group: &str, id: &str) -> Result<f64, String> {
    let path = target.join("criterion").join(group).join(id).join("new").join("estimates.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    json_number_after(&text, "\"median\"").ok_or_else(|| format!("{}: no median", path.display()))
}

/// The big ring's criterion figures (`benches/ring.rs`), in milliseconds, with their rows' words.
const BIG_RING: [(&str, &str, &str); 4] = [
    ("500 nodes x 1,000 vnodes (500k points)", "build", "build 500 nodes × 1,000 vnodes (500,000 points, the cap)"),
    (
        "500 nodes x 1,000 vnodes (500k points)",
        "add one node (1,000 points) to 499 of them",
        "add one node (1,000 points) to 499 × 1,000",
    ),
    ("500 nodes x 1,000 vnodes (500k points)", "exact shares", "exact shares of the 500,000-point ring"),
    ("vnode sweep", "30 steps, 10 nodes, 1..1000 vnodes", "vnode sweep, 30 steps, 10 nodes, 1..1,000 vnodes"),
];

fn criterion_big_ring(target: &Path) -> Result<Vec<(&'static str, f64)>, String> {
    BIG_RING.iter().map(|&(group, id, figure)| Ok((figure, criterion_median(target, group, id)? / 1e6))).collect()
}

/// The first `"point_estimate":` number after `key` in criterion's estimates.json.
fn json_number_after(text: &str, key: &str) -> Option<f64> {
    let rest = &text[text.find(key)?..];
    let rest = &rest[rest.find("\"point_estimate\":")? + "\"point_estimate\":".len()..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    rest[..end].trim().parse().ok()
}

/// `row <name> <value>` lines of the throughput benchmark.
fn throughput_rows(lines: &[String]) -> HashMap<String, f64> {
    lines
        .iter()
        .filter_map(|line| {
            let mut parts = line.split_whitespace();
            (parts.next()? == "row").then_some(())?;
            Some((parts.next()?.to_string(), parts.next()?.parse().ok()?))
        })
        .collect()
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn add_per_call_rows(table: &mut Table, runs: &[HashMap<&'static str, f64>]) {
    let value = |key: &str| median(runs.iter().map(|r| r[key]).collect());
    let ratio = |a: &str, b: &str| Some(median(runs.iter().map(|r| r[a] / r[b]).collect()));
    let (hash, locate, hashring) = (value("hash"), value("locate"), value("hashring"));
    table.rows.push(
        Row::cost("`locate`, per call (criterion)", locate, "ns", ("XXH3 of the key alone", hash), Some(1.5))
            .with_ratio(ratio("locate", "hash")),
    );
    table.rows.push(
        Row::speedup("`locate` vs `hashring` 0.3 `get`, per call", locate, "ns", ("`hashring` get", hashring), 5.0)
            .with_ratio(ratio("hashring", "locate")),
    );
    table.rows.push(
        Row::cost(
            "`owner_of` (lookup alone, hash precomputed), per call",
            value("owner_of"),
            "ns",
            ("XXH3 of the key alone", hash),
            None,
        )
        .with_ratio(ratio("owner_of", "hash")),
    );
    table.rows.push(
        Row::cost(
            "`replicas(key, 3)`, as returned, per call",
            value("replicas"),
            "ns",
            ("`locate`", locate),
            Some(3.0),
        )
        .with_ratio(ratio("replicas", "locate")),
    );
    table.rows.push(
        Row::cost(
            "`replicas_into(pos, 3)`, no allocation, per call",
            value("replicas_into"),
            "ns",
            ("`locate`", locate),
            None,
        )
        .with_ratio(ratio("replicas_into", "locate")),
    );
}

fn add_loop_rows(table: &mut Table, loops: &HashMap<String, f64>) {
    let get = |k: &str| loops.get(k).copied();
    if let (Some(hash), Some(locate)) = (get("loop_ns_hash"), get("loop_ns_locate")) {
        table.rows.push(
            Row::cost("`locate`, loop over 100,000 keys", locate, "ns", ("XXH3 alone, same loop", hash), Some(1.5))
                .with_ratio(get("loop_ratio_locate_over_hash")),
        );
        if let Some(big) = get("loop_ns_locate_1m") {
            table.rows.push(
                Row::cost(
                    "`locate` on a 500,000-point ring (500 × 1,000), loop",
                    big,
                    "ns",
                    ("XXH3 alone, same loop", hash),
                    None,
                )
                .with_ratio(get("loop_ratio_locate_1m_over_hash")),
            );
        }
        if let Some(hashring) = get("loop_ns_hashring") {
            table.rows.push(
                Row::speedup("`locate` vs `hashring` 0.3 `get`, loop", locate, "ns", ("`hashring` get", hashring), 5.0)
                    .with_ratio(get("loop_ratio_hashring_over_locate")),
            );
        }
        if let Some(replicas) = get("loop_ns_replicas") {
            table.rows.push(
                Row::cost("`replicas(key, 3)`, as returned, loop", replicas, "ns", ("`locate`", locate), Some(3.0))
                    .with_ratio(get("loop_ratio_replicas_over_locate")),
            );
        }
        if let Some(into) = get("loop_ns_replicas_into") {
            table.rows.push(
                Row::cost("`replicas_into(pos, 3)`, no allocation, loop", into, "ns", ("`locate`", locate), None)
                    .with_ratio(get("loop_ratio_replicas_into_over_locate")),
            );
        }
    }
    if let (Some(hash), Some(locate)) = (get("instructions_hash"), get("instructions_locate")) {
        table.rows.push(Row::cost(
            "`locate`, instructions per key (callgrind)",
            locate,
            "instr",
            ("XXH3 alone", hash),
            Some(1.5),
        ));
        if let Some(hashring) = get("instructions_hashring") {
            // Instructions miss mispredicted branches, where a binary search loses: no goal.
            let row = Row::speedup(
                "`locate` vs `hashring` `get`, instructions",
                locate,
                "instr",
                ("`hashring` get", hashring),
                5.0,
            );
            table.rows.push(Row { goal: Goal::None, ..row });
        }
        if let Some(replicas) = get("instructions_replicas") {
            table.rows.push(Row::cost(
                "`replicas(key, 3)`, instructions",
                replicas,
                "instr",
                ("`locate`", locate),
                Some(3.0),
            ));
        }
        if let Some(into) = get("instructions_replicas_into") {
            table.rows.push(Row::cost(
                "`replicas_into(pos, 3)`, instructions",
                into,
                "instr",
                ("`locate`", locate),
                None,
            ));
        }
    }
    if let Some(bytes) = get("bytes_per_point_1m") {
        table.rows.push(Row {
            figure: "memory, 500 nodes × 1,000 vnodes (500,000 points)".into(),
            value: bytes,
            unit: "B/point",
            comparison: None,
            ratio: None,
            goal: Goal::ValueAtMost(12.0),
        });
    }
}

/// One row per algorithm of the catalog, in its order: lookup time on 10 nodes beside the
/// plain ring's (`ring` is the catalog's first), its memory in the figure's words.
fn add_algorithm_rows(table: &mut Table, loops: &HashMap<String, f64>) {
    let mut algorithms: Vec<(&str, f64)> =
        loops.iter().filter_map(|(k, &v)| k.strip_prefix("algorithm_ns_").map(|rest| (rest, v))).collect();
    algorithms.sort_by(|a, b| a.0.cmp(b.0));
    let ring = algorithms.first().map_or(f64::NAN, |a| a.1);
    for (key, ns) in algorithms {
        let name = key.split_once('_').map_or(key, |(_, name)| name);
        let bytes = loops.get(&format!("algorithm_bytes_{key}")).copied().unwrap_or(f64::NAN);
        let figure = format!("`{name}`: lookup, 10 nodes (memory {bytes:.0} B, {:.0} B/node)", bytes / 10.0);
        table.rows.push(Row::cost(&figure, ns, "ns", ("`ring`", ring), None));
    }
}

/// The wasm and page rows; with `against` (the other site's ref), each page figure the script
/// took of both sites has the other's beside it, the ratio ours over its.
fn add_page_rows(table: &mut Table, loops: &HashMap<String, f64>, page: &HashMap<String, f64>, against: Option<&str>) {
    let get = |k: &str| page.get(k).copied();
    // `row` of figure `key`, with the other site's figure (times `scale`) beside it.
    let beside = |row: Row, key: &str, scale: f64| match (against, get(&format!("against_{key}"))) {
        (Some(reference), Some(theirs)) => Row {
            comparison: Some((format!("`{reference}`"), theirs * scale)),
            ratio: Some(row.value / (theirs * scale)),
            ..row
        },
        _ => row,
    };
    if let Some(native) = loops.get("loop_ns_key_owners").copied() {
        let locate = loops.get("loop_ns_locate").copied().unwrap_or(f64::NAN);
        let figure = "`keyOwners` natively (`locate_generated` into a list), loop";
        table.rows.push(
            Row::cost(figure, native, "ns", ("`locate`", locate), None)
                .with_ratio(loops.get("loop_ratio_key_owners_over_locate").copied()),
        );
    }
    // Side by side with the wasm rounds when the script ran them, else the loop's figure.
    let native = get("native_ns_key_owners").or_else(|| loops.get("loop_ns_key_owners").copied());
    for (runtime, figure) in [
        ("node", "wasm `keyOwners` in node, per key (100,000 keys)"),
        ("chromium", "wasm `keyOwners` in Chromium, per key (100,000 keys)"),
    ] {
        if let (Some(wasm), Some(native)) = (get(&format!("wasm_{runtime}_ns_key_owners")), native) {
            let ratio = get(&format!("ratio_wasm_{runtime}_over_native"));
            table
                .rows
                .push(Row::cost(figure, wasm, "ns", ("`keyOwners` natively", native), Some(2.0)).with_ratio(ratio));
        }
    }
    // The budgets: always a row, "not measured" when the script gave no figure.
    let budget = |key: &str, figure: &str, at_most: f64| {
        let row =
            Row { goal: Goal::Budget(at_most), ..Row::reported(figure, get(key).unwrap_or(f64::NAN), "ms", None) };
        beside(row, key, 1.0)
    };
    let task = |what: &str| format!("longest main-thread task, {what}");
    table.rows.push(budget(
        "page_first_ring_ms",
        "playground: first ring drawn after navigation (median of 5 loads)",
        FIRST_RING_MS,
    ));
    table.rows.push(budget(
        "embed_picture_ms",
        "embed: first picture after it scrolls into view (median of 5 loads)",
        EMBED_PICTURE_MS,
    ));
    for (key, what) in [
        ("page_join_longest_task_ms", "a node joins (100 nodes × 256 vnodes, 100,000 keys)"),
        ("page_leave_longest_task_ms", "a node leaves (100 nodes × 256 vnodes, 100,000 keys)"),
        ("page_switch_longest_task_ms", "the first switch to another algorithm (ring to jump)"),
    ] {
        table.rows.push(budget(key, &format!("playground: {}", task(what)), LONGEST_TASK_MS));
    }
    for (chart, name) in [
        ("spread", "the \"spread\" chart"),
        ("spread_band", "the \"spread\" chart with the five-hash band"),
        ("shares", "the \"shares\" chart"),
        ("moves", "the \"moves\" chart"),
        ("algorithms", "the \"algorithms\" chart"),
    ] {
        let figure = format!("playground: {} (data pieces, draw; 10 nodes × 1,000 vnodes)", task(name));
        table.rows.push(budget(&format!("chart_{chart}_ms"), &figure, LONGEST_TASK_MS));
    }
    // Figures with a goal, or for context.
    if let Some(ms) = get("page_caps_link_longest_task_ms") {
        let figure = format!("playground: {}", task("a link at the caps opened (500 × 1,000, 100,000 keys)"));
        let row = Row { goal: Goal::ValueAtMost(100.0), ..Row::reported(figure, ms, "ms", None) };
        table.rows.push(beside(row, "page_caps_link_longest_task_ms", 1.0));
    }
    let reported = [
        ("page_caps_link_ready_ms", "playground: that link opened, from navigation to the page ready", "ms"),
        ("page_first_switch_ms", "playground: the first switch, from the choice to its ring drawn", "ms"),
        (
            "page_first_ring_slow_ms",
            "playground: first ring drawn after navigation, over an emulated 80 ms / 20 Mbit/s link",
            "ms",
        ),
        ("page_embed_ready_slow_ms", "embed: a default one ready after navigation, over the same link", "ms"),
    ];
    for (key, figure, unit) in reported {
        if let Some(value) = get(key) {
            table.rows.push(beside(Row::reported(figure, value, unit, None), key, 1.0));
        }
    }
    let kb = |bytes: f64| bytes / 1000.0;
    for (key, figure) in [
        ("download_playground_wasm", "download: the playground's wasm at load, gzip -9"),
        (
            "download_playground_reach",
            "download: what a reader's first reach for the playground fetches on top, gzip -9",
        ),
        ("download_charts", "download: what the playground's first chart fetches on top, gzip -9"),
        ("download_switch", "download: what the playground's first switch of algorithm fetches on top, gzip -9"),
        ("download_embed", "download: a default embed in total (JS, wasm, CSS, as the bundle ships them), gzip -9"),
        ("download_embeds", "download: a page of three embeds (ring, libketama, jump) in total, gzip -9"),
    ] {
        if let Some(gzip) = get(&format!("{key}_gzip")) {
            let raw = get(&format!("{key}_raw")).map(|raw| ("raw".to_string(), kb(raw)));
            table.rows.push(beside(Row::reported(figure, kb(gzip), "KB", raw), &format!("{key}_gzip"), 0.001));
        }
    }
    for (key, figure, at_most) in [
        ("playground_wasm_modules", "playground: wasm modules fetched (load, first reach, a chart, a switch)", 2.0),
        ("download_embeds_wasm_modules", "embed: wasm modules a page of three embeds fetches", 1.0),
    ] {
        if let Some(count) = get(key) {
            let row = Row { goal: Goal::ValueAtMost(at_most), ..Row::reported(figure, count, COUNT, None) };
            table.rows.push(beside(row, key, 1.0));
        }
    }
}

/// One row a wasm module of `wasm-pack.toml`, as built: what each costs on its own. The three
/// modules of [`MODULE_CEILINGS`] are judged against their ceilings; one not built is a row
/// "not measured", over its budget.
fn add_module_rows(table: &mut Table, built: &build::Built) {
    let name_of =
        |m: &build::BuiltModule| m.wasm.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    for m in &built.modules {
        let name = name_of(m);
        let ceiling = MODULE_CEILINGS.iter().find(|(file, ..)| *file == name);
        let figure = match ceiling {
            Some((_, what, _)) => format!("module: `{name}` ({what}; wasm-opt'd), gzip -9"),
            None => format!("module: `{name}` (wasm-opt'd), gzip -9"),
        };
        let raw = ("raw".to_string(), m.raw_bytes as f64 / 1000.0);
        let row = Row::reported(figure, m.gzip_bytes as f64 / 1000.0, "KB", Some(raw));
        table.rows.push(match ceiling {
            Some(&(.., at_most)) => Row { goal: Goal::Budget(at_most), ..row },
            None => row,
        });
    }
    for (file, what, at_most) in MODULE_CEILINGS {
        if !built.modules.iter().any(|m| name_of(m) == file) {
            let figure = format!("module: `{file}` ({what}), gzip -9: not built");
            table.rows.push(Row { goal: Goal::Budget(at_most), ..Row::reported(figure, f64::NAN, "KB", None) });
        }
    }
}

/// Where cargo puts build output: `CARGO_TARGET_DIR`, else `target/`.
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from)
}

/// The CPU model (from /proc/cpuinfo), the cores this process may use, and the OS.
fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{model}, {cores} cores ({} {})", std::env::consts::ARCH, std::env::consts::OS)
}

/// The current UTC date and time, `YYYY-MM-DD HH:MM UTC`.
fn now_utc() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02} UTC", rest / 3600, rest % 3600 / 60)
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The budgets not met, each in a line: the figure, its value (or "not measured") and the budget.
fn over_budget(table: &Table) -> Vec<String> {
    table
        .over_budget()
        .iter()
        .map(|r| {
            let value =
                if r.value.is_nan() { "not measured".to_string() } else { format!("{:.1} {}", r.value, r.unit) };
            match r.goal {
                Goal::Budget(g) => format!("{}: {value} (budget {g} {})", r.figure, r.unit),
                _ => r.figure.clone(),
            }
        })
        .collect()
}

/// Where a run's report goes: [`REPORT`] for a whole run, the target dir for a partial one.
fn report_path(target: &Path, partial: bool) -> PathBuf {
    if partial {
        target.join("bench-report.md")
    } else {
        PathBuf::from(REPORT)
    }
}

/// The report: what it is and where its history lives, then the table (its first line the
/// run's date and machine).
fn report_text(table: &str) -> String {
    format!(
        "# Benchmark report\n\nWritten by `cargo xtask bench`; each whole run rewrites this file, so earlier runs \
         are in git's history. How each figure is taken is under the table; README's Performance quotes a few.\n\n\
         {table}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Measured figures by key, as the benchmarks hand them over.
    fn measured(pairs: &[(&str, f64)]) -> HashMap<String, f64> {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn dates_match_known_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        // 2000-03-01 is day 11,017; 2026-11-30 is day 20,787 (`date -d 2026-11-30 +%s` / 86400).
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(20_787), (2026, 11, 30));
    }

    #[test]
    fn a_whole_run_rewrites_the_report_and_never_the_readme() {
        let target = Path::new("target");
        assert_eq!(report_path(target, false), PathBuf::from("BENCH.md"));
        assert_eq!(report_path(target, true), target.join("bench-report.md"), "a partial run");
        let text = report_text("Measured 2026-12-07 10:00 UTC on test cpu.\n\n| figure |\n");
        assert!(text.starts_with("# Benchmark report\n"), "{text}");
        assert!(text.contains("git's history"), "{text}");
        assert!(text.ends_with("Measured 2026-12-07 10:00 UTC on test cpu.\n\n| figure |\n"), "{text}");
    }

    #[test]
    fn criterion_medians_and_throughput_rows_are_read() {
        let json = r#"{"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0},"point_estimate":1.5,"standard_error":0.1},"median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":3.0,"upper_bound":4.0},"point_estimate":3.25,"standard_error":0.2}}"#;
        assert_eq!(json_number_after(json, "\"median\""), Some(3.25));
        let lines = vec!["row loop_ns_hash 2.5".to_string(), "noise".to_string(), "row rounds 31".to_string()];
        let rows = throughput_rows(&lines);
        assert_eq!(rows["loop_ns_hash"], 2.5);
        assert_eq!(rows["rounds"], 31.0);
        assert_eq!(rows.len(), 2);
    }

    #[test]
    fn the_benchmark_executable_is_found_among_cargo_messages() {
        let messages = [
            r#"{"reason":"compiler-artifact","target":{"name":"ringlab","kind":["lib"]},"executable":null}"#,
            r#"{"reason":"compiler-artifact","target":{"name":"ring","kind":["bench"]},"executable":"/t/release/deps/ring-1"}"#,
            r#"{"reason":"compiler-artifact","target":{"name":"throughput","kind":["bench"]},"executable":"/t/release/deps/throughput-2"}"#,
            r#"{"reason":"build-finished","success":true}"#,
        ]
        .join("\n");
        assert_eq!(executable_named(&messages, "throughput"), Some(PathBuf::from("/t/release/deps/throughput-2")));
        assert_eq!(executable_named(&messages, "ringlab"), None);
        assert_eq!(executable_named("not json", "throughput"), None);
    }

    #[test]
    fn algorithm_rows_are_in_catalog_order_beside_the_ring() {
        let loops = measured(&[
            ("algorithm_ns_01_jump", 8.0),
            ("algorithm_bytes_01_jump", 400.0),
            ("algorithm_ns_00_ring", 20.0),
            ("algorithm_bytes_00_ring", 20_000.0),
            ("loop_ns_locate", 19.0),
        ]);
        let mut table = Table::default();
        add_algorithm_rows(&mut table, &loops);
        let figures: Vec<&str> = table.rows.iter().map(|r| r.figure.as_str()).collect();
        assert_eq!(
            figures,
            [
                "`ring`: lookup, 10 nodes (memory 20000 B, 2000 B/node)",
                "`jump`: lookup, 10 nodes (memory 400 B, 40 B/node)"
            ]
        );
        assert_eq!(table.rows[1].ratio, Some(0.4));
    }

    #[test]
    fn the_three_modules_are_held_to_their_ceilings() {
        let module = |name: &str, gzip: u64| build::BuiltModule {
            wasm: PathBuf::from("www/pkg").join(name),
            raw_bytes: gzip * 2,
            gzip_bytes: gzip,
        };
        let built = build::Built {
            modules: vec![
                module("ringlab_bg.wasm", 590_000),
                module("ringlab_element_bg.wasm", 330_000),
                module("ringlab_other_bg.wasm", 900_000),
            ],
        };
        let mut table = Table::default();
        add_module_rows(&mut table, &built);
        let rows: Vec<(&str, f64, Option<bool>)> =
            table.rows.iter().map(|r| (r.figure.as_str(), r.value, r.met())).collect();
        assert_eq!(rows.len(), 4);
        assert_eq!((rows[0].1, rows[0].2), (590.0, Some(true)), "the engine within 600 KB");
        assert_eq!((rows[1].1, rows[1].2), (330.0, Some(false)), "the element over 320 KB");
        assert_eq!((rows[2].1, rows[2].2), (900.0, None), "a module without a ceiling is reported");
        assert!(rows[3].0.starts_with("module: `ringlab_charts_bg.wasm`") && rows[3].0.ends_with("not built"));
        assert_eq!(rows[3].2, Some(false), "a ceiling's module not built fails the run");
        assert_eq!(table.rows[0].comparison, Some(("raw".to_string(), 1180.0)));
        let over = over_budget(&table);
        assert_eq!(over.len(), 2, "{over:?}");
        assert!(over[0].ends_with(": 330.0 KB (budget 320 KB)"), "{over:?}");
        assert!(over[1].ends_with(": not measured (budget 200 KB)"), "{over:?}");
    }

    #[test]
    fn page_rows_sit_beside_their_native_figure_and_budget() {
        let loops = measured(&[
            ("loop_ns_locate", 4.0),
            ("loop_ns_key_owners", 5.0),
            ("loop_ratio_key_owners_over_locate", 1.3),
        ]);
        let page = measured(&[
            ("wasm_node_ns_key_owners", 9.0),
            ("wasm_chromium_ns_key_owners", 11.0),
            ("page_first_ring_ms", 250.0),
            ("page_join_longest_task_ms", 60.0),
            ("page_caps_link_longest_task_ms", 99.0),
            ("page_caps_link_ready_ms", 2000.0),
            ("chart_moves_ms", 20.0),
            ("download_embed_gzip", 290_000.0),
            ("download_embed_raw", 700_000.0),
            ("download_embeds_wasm_modules", 3.0),
        ]);
        let mut table = Table::default();
        add_page_rows(&mut table, &loops, &page, None);
        let rows: Vec<(&str, Option<bool>)> = table.rows.iter().map(|r| (r.unit, r.met())).collect();
        // Native batch (no goal), wasm node 9/5 = 1.8 (met), Chromium 11/5 = 2.2 (not met);
        // then every budget, measured or not: first ring 250 ms (met), the embed's picture (not
        // measured), join 60 ms (over), leave and switch (not measured), the five charts (moves
        // at 20 ms met, the others not measured); the caps link's longest task 99 ms (goal 100)
        // and its time to ready (no goal), the embed's download (no goal), three embeds'
        // modules (3, goal 1). Nothing for the other figures the script did not give.
        let (budget_met, budget_unmet) = (("ms", Some(true)), ("ms", Some(false)));
        assert_eq!(
            rows,
            [
                ("ns", None),
                ("ns", Some(true)),
                ("ns", Some(false)),
                budget_met,
                budget_unmet,
                budget_unmet,
                budget_unmet,
                budget_unmet,
                budget_unmet,
                budget_unmet,
                budget_unmet,
                budget_met,
                budget_unmet,
                ("ms", Some(true)),
                ("ms", None),
                ("KB", None),
                ("modules", Some(false)),
            ]
        );
        assert_eq!(table.rows[0].ratio, Some(1.3), "the side-by-side ratio of the rounds");
        assert_eq!(table.rows[2].comparison, Some(("`keyOwners` natively".to_string(), 5.0)));
        assert!(table.rows[3].figure.starts_with("playground: first ring"), "{}", table.rows[3].figure);
        assert!(table.rows[4].figure.starts_with("embed: first picture"), "{}", table.rows[4].figure);
        assert!(table.rows[13].figure.contains("a link at the caps"), "{}", table.rows[13].figure);
        assert_eq!(table.rows[15].comparison, Some(("raw".to_string(), 700.0)));
        assert_eq!(table.rows[15].value, 290.0);
        let over = over_budget(&table);
        assert_eq!(over.len(), 8, "the join over its budget, and seven budgets not measured: {over:?}");
        assert!(over[1].contains("a node joins") && over[1].ends_with(": 60.0 ms (budget 50 ms)"), "{over:?}");
        assert!(!over.iter().any(|o| o.contains("a link at the caps")), "a goal, not a budget, fails nothing");

        // Rounds side by side: their native median and their ratio, not the loop's.
        let mut page = page;
        page.extend(measured(&[("native_ns_key_owners", 6.0), ("ratio_wasm_node_over_native", 1.4)]));
        let mut table = Table::default();
        add_page_rows(&mut table, &loops, &page, None);
        assert_eq!(table.rows[1].comparison, Some(("`keyOwners` natively".to_string(), 6.0)));
        assert_eq!(table.rows[1].ratio, Some(1.4));
        assert_eq!(table.rows[2].ratio, Some(11.0 / 6.0), "no ratio given: wasm ÷ native");
    }

    #[test]
    fn against_takes_one_ref() {
        let args = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(against_ref(&args(&[])).ok(), Some(None));
        assert_eq!(against_ref(&args(&["--against", "main"])).ok(), Some(Some("main".to_string())));
        for wrong in [&["--against"][..], &["main"], &["--against", "--csp"], &["--against", "main", "x"]] {
            let failure = against_ref(&args(wrong)).expect_err("a usage error");
            assert!(failure.message.contains("--against REF"), "{}", failure.message);
        }
    }

    #[test]
    fn the_other_sites_figures_sit_beside_ours() {
        let page = measured(&[
            ("page_first_ring_ms", 240.0),
            ("against_page_first_ring_ms", 320.0),
            ("page_join_longest_task_ms", 30.0),
            ("download_playground_wasm_gzip", 540_000.0),
            ("download_playground_wasm_raw", 1_300_000.0),
            ("against_download_playground_wasm_gzip", 65_000.0),
            ("playground_wasm_modules", 2.0),
            ("against_playground_wasm_modules", 4.0),
        ]);
        let mut table = Table::default();
        add_page_rows(&mut table, &HashMap::new(), &page, Some("main"));
        let row = |start: &str| table.rows.iter().find(|r| r.figure.starts_with(start)).unwrap();
        let first = row("playground: first ring");
        assert_eq!(first.comparison, Some(("`main`".to_string(), 320.0)));
        assert_eq!(first.ratio, Some(0.75));
        assert_eq!(first.met(), Some(true), "the budget judges ours");
        let join = row("playground: longest main-thread task, a node joins");
        assert_eq!((join.comparison.clone(), join.ratio), (None, None), "measured on ours alone");
        let download = row("download: the playground's wasm at load");
        assert_eq!(download.comparison, Some(("`main`".to_string(), 65.0)), "in KB, as ours");
        assert_eq!(row("playground: wasm modules").comparison, Some(("`main`".to_string(), 4.0)));

        // Without --against, the other site's figures (if any) are left out.
        let mut table = Table::default();
        add_page_rows(&mut table, &HashMap::new(), &page, None);
        let first = table.rows.iter().find(|r| r.figure.starts_with("playground: first ring")).unwrap();
        assert_eq!(first.comparison, None);
        let text = Table { against: Some("main (84be38e)".into()), ..table }.markdown();
        assert!(text.contains("Beside `main (84be38e)`:"), "{text}");
    }
}
