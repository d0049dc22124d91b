//! Rollout strategies side by side: the same change, spread in different ways.

use super::{propagate_epochs, Lag, Rollout, Timeline};
use crate::algo::Cluster;
use crate::{limits, Error};

/// A way to roll a change out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Strategy {
    /// Every client switches at the change (lag 0).
    AllAtOnce,
    /// The settings' own lag, as given.
    AsGiven,
    /// Clients poll for the new ring every `every_ms`, and do not refresh on a redirect.
    Poll { every_ms: f64 },
    /// Clients learn of the change only from a redirect.
    OnRedirect,
    /// The settings' lag, with leaving nodes kept serving until every client has switched.
    DrainFirst,
    /// The change in `steps` weight steps (or slot batches), one every `every_ms`, each
    /// spreading with the settings' lag.
    Ramp { steps: usize, every_ms: f64 },
}

impl Strategy {
    /// In words, for a legend.
    pub fn label(self) -> String {
        match self {
            Strategy::AllAtOnce => "all at once".into(),
            Strategy::AsGiven => "as set".into(),
            Strategy::Poll { every_ms } => format!("poll every {every_ms} ms"),
            Strategy::OnRedirect => "refresh on redirect only".into(),
            Strategy::DrainFirst => "drain first, then switch".into(),
            Strategy::Ramp { steps, every_ms } => format!("{steps} steps, one every {every_ms} ms"),
        }
    }
}

/// One strategy's timeline.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Compared {
    pub label: String,
    pub timeline: Timeline,
}

/// Each strategy's timeline for the change from `before` to `after`, with `base`'s other
/// settings.
pub fn compare(
    before: &Cluster,
    after: &Cluster,
    base: &Rollout,
    strategies: &[Strategy],
) -> Result<Vec<Compared>, Error> {
    limits::check("strategies compared", strategies.len() as u64, limits::MAX_STRATEGIES as u64)?;
    super::check(base)?;
    let times = super::timeline_times(base)?;
    let work = times.saturating_mul(base.clients as u64).saturating_mul(strategies.len() as u64);
    limits::check("clients × times × strategies", work, 2 * limits::MAX_ROLLOUT_WORK)?;
    crate::work::call(|| {
        afford_tables(before, after, strategies)?;
        timelines(before, after, base, strategies)
    })
}

/// Refuses, before any table is walked, strategies whose exact moved tables would together
/// walk more points than a call may: a ramp of `s` steps compares every pair of its `s + 1`
/// states, each of at most the larger state's points (a bound: each table charges what it
/// walks as it goes).
fn afford_tables(before: &Cluster, after: &Cluster, strategies: &[Strategy]) -> Result<(), Error> {
    let (Some(a), Some(b)) = (before.arcs(), after.arcs()) else { return Ok(()) };
    let (pair, larger) = ((a.point_count() + b.point_count()) as u64, a.point_count().max(b.point_count()) as u64);
    let walks = strategies.iter().map(|s| match *s {
        Strategy::Ramp { steps, .. } if steps > 1 => (steps as u64 * (steps as u64 + 1)).saturating_mul(larger),
        _ => pair,
    });
    crate::work::afford(crate::work::Cost::Probes, walks.fold(0, u64::saturating_add))
}

fn timelines(
    before: &Cluster,
    after: &Cluster,
    base: &Rollout,
    strategies: &[Strategy],
) -> Result<Vec<Compared>, Error> {
    let pair = [before.clone(), after.clone()];
    strategies
        .iter()
        .map(|&strategy| {
            let mut options = base.clone();
            let timeline = match strategy {
                Strategy::AllAtOnce => {
                    options.lag = Lag::Fixed { ms: 0.0 };
                    propagate_epochs(&pair, &[0.0], &options)?
                }
                Strategy::AsGiven => propagate_epochs(&pair, &[0.0], &options)?,
                Strategy::Poll { every_ms } => {
                    options.lag = Lag::Poll { every_ms };
                    options.refresh_on_redirect = Some(false);
                    propagate_epochs(&pair, &[0.0], &options)?
                }
                Strategy::OnRedirect => {
                    options.lag = Lag::OnRedirect;
                    propagate_epochs(&pair, &[0.0], &options)?
                }
                Strategy::DrainFirst => {
                    options.drain = true;
                    propagate_epochs(&pair, &[0.0], &options)?
                }
                Strategy::Ramp { steps, every_ms } => {
                    if !(every_ms.is_finite() && (0.0..=limits::MAX_ROLLOUT_MS).contains(&every_ms)) {
                        return Err(Error::out_of_range(
                            "everyMs",
                            every_ms,
                            (0.0, limits::MAX_ROLLOUT_MS),
                            "a ramp's interval is milliseconds ≥ 0, at most a day",
                        ));
                    }
                    let (states, _, _) = crate::plan::stages(before, after, steps)?;
                    let published: Vec<f64> = (0..states.len() - 1).map(|j| j as f64 * every_ms).collect();
                    propagate_epochs(&states, &published, &options)?
                }
            };
            Ok(Compared { label: strategy.label(), timeline })
        })
        .collect()
}
