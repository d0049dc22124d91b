//! The charts of the session's current state: which data each chart plots, decided here so
//! a view only says which chart and how large.

use super::{Session, KEY_PREFIX, NO_OWNER};
use crate::algo::{metrics, Algorithm};
use crate::charts::{algorithms, moves, shares, spread};
use crate::keys::KeySample;
use crate::{Error, Node, NodeSpec};

/// Sample keys the moves and algorithms charts count on: they build many placements, so
/// they take at most this many of the session's keys.
pub const CHART_KEYS: usize = 2_000;
/// Points the moves chart's largest placement may have (its node count follows from it).
const MOVES_POINT_BUDGET: f64 = 80_000.0;

/// One of the session's charts, with its data: `{"kind": "spread", "data": {...}}` in JSON,
/// which is what the page hands from the engine's module to the charts' module.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", content = "data", rename_all = "lowercase", deny_unknown_fields)]
pub enum SessionChart {
    Spread(spread::SpreadData),
    Shares(shares::SharesData),
    Moves(moves::MovesData),
    Algorithms(algorithms::AlgorithmsData),
}

impl SessionChart {
    /// The algorithms chart with only its panel `panel` (a phone shows one at a time); the
    /// other charts are one panel each and refuse it.
    pub fn showing(self, panel: Option<usize>) -> Result<SessionChart, Error> {
        match (self, panel) {
            (chart, None) => Ok(chart),
            (SessionChart::Algorithms(d), p) => Ok(SessionChart::Algorithms(d.showing(p)?)),
            (_, Some(_)) => Err(Error::invalid_option("panel", "only the algorithms chart has panels")),
        }
    }
}

/// A chart's data being computed in pieces (see [`Session::prepare_chart`]).
#[derive(Clone, Debug)]
enum Job {
    Spread(Box<spread::SpreadJob>),
    Shares(shares::SharesData),
    Moves(moves::MovesJob),
    Algorithms(algorithms::AlgorithmsJob),
}

impl Job {
    /// One piece of work; `true` when the data is complete.
    fn step(&mut self) -> Result<bool, Error> {
        match self {
            Job::Spread(j) => j.step(),
            Job::Shares(_) => Ok(true),
            Job::Moves(j) => j.step(),
            Job::Algorithms(j) => Ok(j.step()),
        }
    }

    fn is_done(&self) -> bool {
        match self {
            Job::Spread(j) => j.is_done(),
            Job::Shares(_) => true,
            Job::Moves(j) => j.is_done(),
            Job::Algorithms(j) => j.is_done(),
        }
    }

    fn chart(&self, lookup_ns: &[Option<f64>]) -> Result<SessionChart, Error> {
        Ok(match self {
            Job::Spread(j) => SessionChart::Spread(j.data().ok_or_else(|| unfinished("spread"))?),
            Job::Shares(d) => SessionChart::Shares(d.clone()),
            Job::Moves(j) => SessionChart::Moves(j.data()),
            Job::Algorithms(j) => SessionChart::Algorithms(j.data(lookup_ns)),
        })
    }
}

fn unfinished(kind: &str) -> Error {
    Error::Unsupported(format!("the {kind} chart's data is not complete"))
}

/// The charts being prepared for the current state, by kind and band. Any change of state
/// drops them.
#[derive(Clone, Debug, Default)]
pub(super) struct ChartJobs(Vec<(&'static str, bool, Job)>);

impl ChartJobs {
    fn find(&self, kind: &str, band: bool) -> Option<usize> {
        self.0.iter().position(|(k, b, _)| *k == kind && *b == band)
    }
}

/// The chart kinds, as [`Session::chart`] names them.
const KINDS: [&str; 4] = ["spread", "shares", "moves", "algorithms"];

impl Session {
    /// The data of chart `kind` (`spread`, `shares`, `moves`, `algorithms`). `band` adds the
    /// five-hash band to the spread chart; `lookup_ns[i]` is the measured lookup cost of
    /// `Algorithm::ALL[i]` for the algorithms chart. Data [`prepare_chart`](Session::prepare_chart)
    /// completed for the current state is used as it is.
    pub fn chart(&self, kind: &str, band: bool, lookup_ns: &[Option<f64>]) -> Result<SessionChart, Error> {
        let (kind, band) = chart_key(kind, band)?;
        if let Some(i) = self.charts.find(kind, band).filter(|&i| self.charts.0[i].2.is_done()) {
            return self.charts.0[i].2.chart(lookup_ns);
        }
        let mut job = self.chart_job(kind, band)?;
        while !job.step()? {}
        job.chart(lookup_ns)
    }

    /// Computes one piece of chart `kind`'s data for the current state (one hash's sweep,
    /// one cluster size, one algorithm's row) and keeps it: `true` once the data is complete,
    /// when [`chart`](Session::chart) then only draws. A page calls it once per task, so no
    /// task computes a whole chart. The same errors as [`chart`](Session::chart).
    pub fn prepare_chart(&mut self, kind: &str, band: bool) -> Result<bool, Error> {
        let (kind, band) = chart_key(kind, band)?;
        let i = match self.charts.find(kind, band) {
            Some(i) => i,
            None => {
                let job = self.chart_job(kind, band)?;
                self.charts.0.push((kind, band, job));
                self.charts.0.len() - 1
            }
        };
        let done = self.charts.0[i].2.step();
        if done.is_err() {
            self.charts.0.remove(i);
        }
        done
    }

    /// A chart's job, with nothing computed yet beyond what it needs to start.
    fn chart_job(&self, kind: &str, band: bool) -> Result<Job, Error> {
        let specs: Vec<NodeSpec> = self.nodes().iter().map(Node::spec).collect();
        let options = self.cluster().options();
        let sample = || KeySample::generated(KEY_PREFIX, self.settings().keys.min(CHART_KEYS));
        match kind {
            "spread" => {
                let config = &options.config;
                Ok(Job::Spread(Box::new(spread::SpreadJob::new(config, &specs, config.vnodes, 24, band)?)))
            }
            "shares" => Ok(Job::Shares(self.shares_data()?)),
            "moves" => {
                // Rings of N·vnodes points for each N: keep the largest within the budget.
                let max = if self.cluster().arcs().is_some() && options.algorithm.uses_vnodes() {
                    (MOVES_POINT_BUDGET / f64::from(options.config.vnodes)).sqrt().round().clamp(8.0, 48.0) as u32
                } else {
                    24
                };
                Ok(Job::Moves(moves::MovesJob::new(options, 2..=max, &sample())?))
            }
            _ => {
                // Every algorithm on one sample: as many keys as the comparison's cap allows.
                let most = crate::limits::MAX_COMPARE_WORK as usize / Algorithm::ALL.len();
                let sample = KeySample::generated(KEY_PREFIX, self.settings().keys.min(CHART_KEYS).min(most));
                let mut base = options.clone();
                base.set_keys(&sample);
                Ok(Job::Algorithms(algorithms::AlgorithmsJob::new(&base, &specs, &sample, &Algorithm::ALL)?))
            }
        }
    }

    /// The papers' metrics of every algorithm on the session's nodes and settings, as the
    /// page's comparison ([`metrics::comparison`]): on as many of the session's sample keys
    /// as [`CHART_KEYS`] and the metrics' cap for every algorithm allow; `lookup_ns[i]` is
    /// the measured lookup time of `Algorithm::ALL[i]`.
    pub fn metrics(
        &self,
        settings: &metrics::MetricsSettings,
        lookup_ns: &[Option<f64>],
    ) -> Result<metrics::Comparison, Error> {
        let specs: Vec<NodeSpec> = self.nodes().iter().map(Node::spec).collect();
        let most = crate::limits::MAX_METRICS_WORK as usize / Algorithm::ALL.len();
        let sample = KeySample::generated(KEY_PREFIX, self.settings().keys.min(CHART_KEYS).min(most));
        metrics::check_work(&specs, &sample, Algorithm::ALL.len(), settings)?;
        let mut base = self.cluster().options().clone();
        base.set_keys(&sample);
        let rows = metrics::metrics(&base, &specs, &sample, &Algorithm::ALL, settings, lookup_ns);
        Ok(metrics::comparison(&rows, settings, sample.keys.len()))
    }

    /// The shares chart over the generated keys `key:0 ..` (as many as the settings say).
    /// Those are the session's own sample unless the user gave a key list, and their owners
    /// are then already known: counted from them instead of looked up again.
    fn shares_data(&self) -> Result<shares::SharesData, Error> {
        let keys = self.settings().keys;
        let owners = &self.keys.owners;
        let known = self.key_list.is_none() && keys > 0 && owners.len() == keys && !owners.contains(&NO_OWNER);
        if !known {
            return shares::data(self.cluster(), &KeySample::generated(KEY_PREFIX, keys));
        }
        let mut counts = vec![0usize; self.nodes().len()];
        for &o in owners {
            counts[o as usize] += 1;
        }
        shares::from_counts(self.cluster(), keys, Some(counts))
    }
}

/// `kind` as one of [`KINDS`], and whether the band applies (the spread chart's only).
fn chart_key(kind: &str, band: bool) -> Result<(&'static str, bool), Error> {
    let kind = KINDS.into_iter().find(|&k| k == kind).ok_or_else(|| {
        Error::unknown_choice(
            "chart",
            kind,
            format!("unknown chart {kind:?}: choose spread, shares, moves or algorithms"),
        )
    })?;
    Ok((kind, band && kind == "spread"))
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
    fn every_chart_survives_json_both_ways() {
        // The page hands a chart's data from the engine's module to the charts' module as a
        // plain object: what one serializes, the other reads back unchanged, Result rows and
        // hash names included.
        let mut s = Session::playground();
        s.apply(Change::Add(NodeSpec { weight: 2.0, ..NodeSpec::new("heavy") })).unwrap();
        let lookups = [Some(12.5), None, Some(f64::MAX)];
        let mut kinds = Vec::new();
        for (kind, band) in
            [("spread", false), ("spread", true), ("shares", false), ("moves", false), ("algorithms", false)]
        {
            let chart = s.chart(kind, band, &lookups).unwrap();
            let json = serde_json::to_value(&chart).unwrap();
            assert_eq!(json["kind"], kind);
            kinds.push(json["data"].as_object().unwrap().len());
            let back: SessionChart = serde_json::from_value(json).unwrap();
            assert_eq!(back, chart, "{kind} band={band}");
        }
        assert_eq!(kinds, [6, 6, 4, 5, 4], "each kind's fields");
        let SessionChart::Algorithms(algos) = s.chart("algorithms", false, &[]).unwrap() else { panic!() };
        assert!(
            algos.rows.iter().any(|r| r.report.is_err()) && algos.rows.iter().any(|r| r.report.is_ok()),
            "both row forms"
        );
        for junk in [r#"{}"#, r#"{"kind":"pie","data":{}}"#, r#"{"kind":"spread","data":{"nodes":3}}"#, r#"3"#] {
            assert!(serde_json::from_str::<SessionChart>(junk).is_err(), "{junk}");
        }
        let bad_hash =
            serde_json::to_string(&s.chart("spread", false, &[]).unwrap()).unwrap().replace("\"xxh3\"", "\"nope\"");
        assert!(serde_json::from_str::<SessionChart>(&bad_hash).is_err(), "an unknown hash name");
    }

    #[test]
    fn the_moves_chart_keeps_its_largest_ring_within_budget() {
        let mut s = Session::playground();
        s.apply(super::super::Change::Configure(super::super::Settings { vnodes: 1000, ..s.settings().clone() }))
            .unwrap();
        let SessionChart::Moves(data) = s.chart("moves", false, &[]).unwrap() else { panic!("moves") };
        assert_eq!(data.steps.last().unwrap().nodes, 9, "sqrt(80000 / 1000) = 8.9 → 9 nodes");
    }

    use super::super::{Change, Settings};
    use crate::keys::parse_key_list;

    /// Calls `prepare_chart` until it says the data is complete; how many calls it took.
    fn prepare(s: &mut Session, kind: &str, band: bool) -> usize {
        let mut calls = 1;
        while !s.prepare_chart(kind, band).unwrap() {
            calls += 1;
            assert!(calls < 1000, "{kind} never completes");
        }
        calls
    }

    #[test]
    fn a_prepared_chart_is_computed_in_pieces_and_draws_the_same_data() {
        let mut s = Session::playground();
        let lookups = [Some(12.0), None, Some(30.0)];
        let cases = [
            // 5 nodes × at most 1,000 vnodes: each hash's sweep is hashed in one piece, measured in another.
            ("spread", false, 2),
            ("spread", true, 2 * (1 + spread::BAND_HASHES.len())),
            ("shares", false, 1),
            ("moves", false, 47), // N = 2..=48: sqrt(80000 / 32 vnodes) = 50, clamped to 48
            ("algorithms", false, Algorithm::ALL.len()),
        ];
        for (kind, band, pieces) in cases {
            let fresh = s.clone().chart(kind, band, &lookups).unwrap();
            assert_eq!(prepare(&mut s, kind, band), pieces, "{kind} band={band}");
            assert_eq!(s.chart(kind, band, &lookups).unwrap(), fresh, "{kind} band={band}");
            assert!(s.prepare_chart(kind, band).unwrap(), "{kind}: complete stays complete");
        }
        // The lookup times are the caller's, given at drawing time.
        let SessionChart::Algorithms(data) = s.chart("algorithms", false, &[Some(7.0)]).unwrap() else { panic!() };
        assert_eq!((data.rows[0].lookup_ns, data.rows[1].lookup_ns), (Some(7.0), None));
    }

    #[test]
    fn a_change_drops_what_was_prepared() {
        let mut s = Session::playground();
        prepare(&mut s, "spread", false);
        prepare(&mut s, "algorithms", false);
        s.prepare_chart("moves", false).unwrap(); // half done
        s.apply(Change::Add(NodeSpec::new("node-6"))).unwrap();
        let SessionChart::Spread(spread) = s.chart("spread", false, &[]).unwrap() else { panic!() };
        assert_eq!(spread.nodes, 6);
        let SessionChart::Algorithms(algorithms) = s.chart("algorithms", false, &[]).unwrap() else { panic!() };
        assert_eq!(algorithms.nodes, 6);
        assert!(!s.prepare_chart("algorithms", false).unwrap(), "started again for the new state");
        s.undo().unwrap();
        let SessionChart::Algorithms(algorithms) = s.chart("algorithms", false, &[]).unwrap() else { panic!() };
        assert_eq!(algorithms.nodes, 5, "undo is a change of state too");
        let SessionChart::Moves(moves) = s.chart("moves", false, &[]).unwrap() else { panic!() };
        assert_eq!(moves.steps.len(), 47, "a half-prepared chart is computed whole");
        // The band is part of what was prepared.
        prepare(&mut s, "spread", false);
        let SessionChart::Spread(banded) = s.chart("spread", true, &[]).unwrap() else { panic!() };
        assert_eq!(banded.band_hashes.len(), spread::BAND_HASHES.len());
        assert_eq!(s.prepare_chart("pie", false).unwrap_err().code(), "invalid-option");
    }

    #[test]
    fn the_shares_chart_counts_the_generated_keys_whichever_sample_is_in_use() {
        let generated =
            |s: &Session| shares::data(s.cluster(), &KeySample::generated(KEY_PREFIX, s.settings().keys)).unwrap();
        let mut s = Session::playground();
        s.apply(Change::Configure(Settings { keys: 3_000, algorithm: Algorithm::Maglev, ..s.settings().clone() }))
            .unwrap();
        s.apply(Change::SetDown { name: "node-2".into(), down: true }).unwrap();
        let SessionChart::Shares(counted) = s.chart("shares", false, &[]).unwrap() else { panic!() };
        assert_eq!(counted, generated(&s));
        assert_eq!(counted.sample_keys, 3_000);
        assert_eq!(counted.nodes[1].sampled_keys, Some(0), "maglev skips a down backend");
        // With the user's keys in use, the chart still counts key:0 .. key:2999.
        s.use_key_list(Some(parse_key_list("a\nb\nc\n").unwrap())).unwrap();
        let SessionChart::Shares(listed) = s.chart("shares", false, &[]).unwrap() else { panic!() };
        assert_eq!(listed, generated(&s));
        assert_eq!(listed, counted);
    }
}
