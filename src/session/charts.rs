//! The charts of the session's current state: which data each chart plots, decided here so
//! a view only says which chart and how large.

use super::{Session, KEY_PREFIX};
use crate::algo::Algorithm;
use crate::charts::{algorithms, moves, shares, spread};
use crate::keys::KeySample;
use crate::{Error, Node, NodeSpec};

/// Sample keys the moves and algorithms charts count on: they build many placements, so
/// they take at most this many of the session's keys.
pub const CHART_KEYS: usize = 2_000;
/// Points the moves chart's largest placement may have (its node count follows from it).
const MOVES_POINT_BUDGET: f64 = 80_000.0;

/// One of the session's charts, with its data.
#[derive(Clone, Debug)]
pub enum SessionChart {
    Spread(spread::SpreadData),
    Shares(shares::SharesData),
    Moves(moves::MovesData),
    Algorithms(algorithms::AlgorithmsData),
}

impl Session {
    /// The data of chart `kind` (`spread`, `shares`, `moves`, `algorithms`). `band` adds the
    /// five-hash band to the spread chart; `lookup_ns[i]` is the measured lookup cost of
    /// `Algorithm::ALL[i]` for the algorithms chart.
    pub fn chart(&self, kind: &str, band: bool, lookup_ns: &[Option<f64>]) -> Result<SessionChart, Error> {
        let specs: Vec<NodeSpec> = self.nodes().iter().map(Node::spec).collect();
        let options = self.cluster().options();
        let sample = KeySample::generated(KEY_PREFIX, self.settings().keys.min(CHART_KEYS));
        match kind {
            "spread" => {
                let config = &options.config;
                Ok(SessionChart::Spread(spread::data(config, &specs, config.vnodes, 24, band)?))
            }
            "shares" => {
                let all = KeySample::generated(KEY_PREFIX, self.settings().keys);
                Ok(SessionChart::Shares(shares::data(self.cluster(), &all)?))
            }
            "moves" => {
                // Rings of N·vnodes points for each N: keep the largest within the budget.
                let max = if self.cluster().arcs().is_some() && options.algorithm.uses_vnodes() {
                    (MOVES_POINT_BUDGET / f64::from(options.config.vnodes)).sqrt().round().clamp(8.0, 48.0) as u32
                } else {
                    24
                };
                Ok(SessionChart::Moves(moves::data(options, 2..=max, &sample)?))
            }
            "algorithms" => {
                let base = crate::algo::Options { keys: sample.clone(), ..options.clone() };
                let data = algorithms::data(&base, &specs, &sample, &Algorithm::ALL, lookup_ns)?;
                Ok(SessionChart::Algorithms(data))
            }
            other => Err(Error::InvalidOption(format!(
                "unknown chart {other:?}: choose spread, shares, moves or algorithms"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chart_has_data_for_the_playground() {
        let s = Session::playground();
        for kind in ["spread", "shares", "moves", "algorithms"] {
            assert!(s.chart(kind, false, &[]).is_ok(), "{kind}");
        }
        assert_eq!(s.chart("pie", false, &[]).unwrap_err().code(), "invalid-option");
    }

    #[test]
    fn the_moves_chart_keeps_its_largest_ring_within_budget() {
        let mut s = Session::playground();
        s.apply(super::super::Change::Configure(super::super::Settings { vnodes: 1000, ..s.settings().clone() }))
            .unwrap();
        let SessionChart::Moves(data) = s.chart("moves", false, &[]).unwrap() else { panic!("moves") };
        assert_eq!(data.steps.last().unwrap().nodes, 9, "sqrt(80000 / 1000) = 8.9 → 9 nodes");
    }
}
