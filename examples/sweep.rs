//! The vnode sweep as an SVG chart: how evenly N nodes share a ring as each gets more points,
//! exactly from the arcs, beside the theory √((N−1)/(N·V+1)) and the range over five hashes.
//!
//! `cargo run --release --example sweep --features charts -- [NODES] [OUT.svg]`
//! (default 10 nodes, `sweep.svg`). Prints the sweep's table as CSV too.

use plotters::prelude::*;
use ringlab::charts::{self, spread, Chart};
use ringlab::{Config, NodeSpec};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("sweep: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = match args.first() {
        Some(n) => n.parse().map_err(|_| format!("NODES is a number, got {n:?}"))?,
        None => 10,
    };
    let out = args.get(1).map_or("sweep.svg", String::as_str);
    let nodes: Vec<NodeSpec> = (0..count).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
    // 160 vnodes (libketama's count) marked; 16 steps; the band over five hashes.
    let data = spread::data(&Config::default(), &nodes, 160, 16, true).map_err(|e| e.to_string())?;
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (800, 480)).into_drawing_area();
        charts::draw(&area, &data, &charts::Theme::light()).map_err(|e| e.to_string())?;
    }
    std::fs::write(out, &svg).map_err(|e| format!("{out}: {e}"))?;
    print!("{}", data.csv());
    eprintln!("sweep: wrote {out} ({} bytes)", svg.len());
    Ok(())
}
