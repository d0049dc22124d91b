//! A real cluster's config in, a migration plan out: what taking its last serving server out costs,
//! staged in 1 to 4 steps of weight (or Redis slot batches), in keys, bytes and time.
//!
//! `cargo run --release --example plan -- [KIND] [CONFIG] [ITEMS] [ITEM_BYTES] [BYTES_PER_SEC]`
//!
//! KIND is one of ringlab's config kinds (`redis`, `memcached`, `nginx`, `haproxy`,
//! `twemproxy`, `envoy`; default `nginx`); CONFIG a file of that kind (default: the kind's own
//! example). Defaults: 10 million items of 2 KB, moved at 100 MB/s.

use ringlab::import::{self, ImportOptions};
use ringlab::plan::{self, PlanOptions};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("plan: {message}");
            ExitCode::FAILURE
        }
    }
}

fn number(args: &[String], i: usize, default: f64, what: &str) -> Result<f64, String> {
    args.get(i).map_or(Ok(default), |a| a.parse().map_err(|_| format!("{what} is a number, got {a:?}")))
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = args.first().map_or("nginx", String::as_str);
    let text = match args.get(1) {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?,
        None => import::kind(kind).map_err(|e| e.to_string())?.example.to_string(),
    };
    let before = import::from_config(kind, &text, &ImportOptions::default()).map_err(|e| e.to_string())?;
    // The last server that serves (one marked down already moves nothing when it goes).
    let serving = (0..before.nodes().len()).filter(|&i| !before.is_down_at(i)).last();
    let leaving = before.nodes()[serving.ok_or("the config has no serving servers")?].name.clone();
    let mut after = before.clone();
    after.remove(&leaving).map_err(|e| e.to_string())?;

    let items = number(&args, 2, 1e7, "ITEMS")?;
    let item_bytes = number(&args, 3, 2048.0, "ITEM_BYTES")?;
    let bytes_per_sec = number(&args, 4, 100e6, "BYTES_PER_SEC")?;
    println!(
        "{} servers ({}), {} leaves; {items} items of {item_bytes} bytes at {:.0} MB/s",
        before.nodes().len(),
        before.algorithm().name(),
        leaving,
        bytes_per_sec / 1e6
    );
    println!("{:>5}  {:>8}  {:>12}  {:>10}  {:>8}  step", "steps", "moved %", "items", "GB", "seconds");
    for steps in 1..=4 {
        let options = PlanOptions { steps, items, item_bytes, bytes_per_sec, ..PlanOptions::default() };
        let p = plan::plan(&before, &after, &options).map_err(|e| e.to_string())?;
        for s in &p.steps {
            println!(
                "{steps:>5}  {:>8.3}  {:>12.0}  {:>10.3}  {:>8.1}  {}",
                s.moved * 100.0,
                s.items,
                s.bytes / 1e9,
                s.seconds,
                s.label
            );
        }
        let t = &p.total;
        println!(
            "{steps:>5}  {:>8.3}  {:>12.0}  {:>10.3}  {:>8.1}  total (at once: {:.3}%){}",
            t.moved * 100.0,
            t.items,
            t.bytes / 1e9,
            t.seconds,
            p.at_once.moved * 100.0,
            if p.exact { "" } else { " on a key sample" }
        );
    }
    Ok(())
}
