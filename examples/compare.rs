//! Compare every algorithm of the catalog on your own keys, as CSV.
//!
//! `cargo run --release --example compare -- [KEYFILE] [NODES] > algorithms.csv`
//!
//! KEYFILE holds one key a line, at most 60,000 (without it: 10,000 keys `user:0` ..); NODES is the node count
//! (default 10, named `node-0` ..). One row an algorithm: how evenly its nodes share the keys
//! (the busiest over the mean, and the relative standard deviation), what a node joining and
//! the last one leaving move against the least any scheme must move, the keys that move
//! between nodes that did not change (0 for a monotone scheme), and its memory per node. An
//! algorithm that refuses the nodes (more than its capacity, say) writes its error instead.

use ringlab::algo::metrics::{self, MetricsSettings};
use ringlab::algo::{Algorithm, Options};
use ringlab::keys::KeySample;
use ringlab::NodeSpec;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("compare: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sample = match args.first().filter(|a| a.as_str() != "-") {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            KeySample { keys: text.lines().filter(|l| !l.is_empty()).map(str::to_string).collect() }
        }
        None => KeySample::generated("user:", 10_000),
    };
    let count: usize = match args.get(1) {
        Some(n) => n.parse().map_err(|_| format!("NODES is a number, got {n:?}"))?,
        None => 10,
    };
    let nodes: Vec<NodeSpec> = (0..count).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
    let settings = MetricsSettings::default();
    let base = Options::new(Algorithm::ALL[0]);
    // One algorithm a call: the engine caps a call's work at 60,000 keys × algorithms.
    let rows = Algorithm::ALL.iter().map(|&a| (a, metrics::report(&base, a, &nodes, &sample, &settings)));

    println!("algorithm,exact,max_over_mean,rsd,add_moved,add_ideal,add_moved_between_others,remove_moved,remove_ideal,remove_moved_between_others,bytes_per_node,error");
    for (algorithm, row) in rows {
        match row {
            Ok(m) => {
                let removal = m.removal.as_ref().map(|r| r.change);
                let cell = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:.6}"));
                println!(
                    "{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{},{},{},{:.1},{}",
                    algorithm.name(),
                    m.exact_balance && m.exact_moves,
                    m.balance.max_over_mean,
                    m.balance.rsd,
                    m.add.moved,
                    m.add.ideal,
                    m.add.moved_between_others,
                    cell(removal.map(|c| c.moved)),
                    cell(removal.map(|c| c.ideal)),
                    cell(removal.map(|c| c.moved_between_others)),
                    m.bytes_per_node,
                    csv_text(m.removal_refused.as_deref().unwrap_or("")),
                );
            }
            Err(e) => println!("{},,,,,,,,,,,{}", algorithm.name(), csv_text(&e.to_string())),
        }
    }
    Ok(())
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
fn csv_text(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}
