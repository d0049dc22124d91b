//! What a change moved: exact arcs where the algorithm has them, the sample keys that changed
//! owner (the ones to animate), the ideal and the `hash % N` baseline, and one sentence.

use super::{KeyCache, Session, State, KEY_PREFIX, NO_OWNER};
use crate::algo::{Algorithm, Cluster, Options};
use crate::keys::for_each_generated;
use crate::migration::{self, SampleMigration};
use serde::Serialize;

/// Keys animated one by one; more would cost frames, not insight.
pub const MAX_ANIMATED: usize = 5_000;
/// Moved arcs listed for drawing; beyond this they are merged into one span per
/// 1/`MAX_DRAWN_ARCS` of the circle (the totals stay exact).
pub const MAX_DRAWN_ARCS: usize = 4_096;

/// The result of a change, undo or redo.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Transition {
    /// "Added node-6", "Undid: Removed node-2", ...
    pub label: String,
    /// The readout: the label, what moved, and how that compares.
    pub text: String,
    /// Exact moves, when both states are rings of points mapping keys the same way.
    pub exact: Option<ExactMoves>,
    /// Moves on the sample keys (`None` when either state has no nodes).
    pub sample: Option<SampleMigration>,
    /// The sample keys that changed owner, to animate (at most [`MAX_ANIMATED`]).
    pub movers: Movers,
}

/// Exact moves between two states with arcs.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExactMoves {
    pub arcs: Vec<MovedSpan>,
    /// Whether `arcs` were merged for drawing (there were more than [`MAX_DRAWN_ARCS`]).
    pub arcs_merged: bool,
    /// Positions that changed owner, as a decimal string (it can pass 2^53).
    pub moved: String,
    pub moved_fraction: f64,
    pub ideal_fraction: f64,
    pub modulo_fraction: f64,
}

/// A run of positions that changed owner: exact bounds as decimal strings, fractions of the
/// circle for drawing (`end_fraction` is just past the last position).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MovedSpan {
    pub start: String,
    pub end: String,
    pub start_fraction: f64,
    pub end_fraction: f64,
    pub from: String,
    pub to: String,
}

/// Sample keys that changed owner: key index, position (fraction of the circle, after the
/// change) and the colour slots of the old and new owner ([`NO_OWNER`] for none: the key is
/// unavailable on that side).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Movers {
    pub index: Vec<u32>,
    pub position: Vec<f64>,
    pub from: Vec<u32>,
    pub to: Vec<u32>,
    /// How many keys moved in all (the lists stop at [`MAX_ANIMATED`]).
    pub count: usize,
    /// The moved keys' share of the traffic.
    #[serde(skip)]
    traffic: f64,
}

impl Movers {
    /// Keys whose owner's name differs between `before` and `after`, given each state's
    /// owner indices.
    fn between(before: &State, from: &[u32], after: &State, to: &[u32], keys: &KeyCache) -> Movers {
        let positions = &keys.positions;
        // before's node i is after's node same[i] (or none): compare integers per key. A key
        // with no owner (NO_OWNER) on either side moved unless it has none on both.
        let same: Vec<Option<u32>> = before
            .nodes()
            .iter()
            .map(|n| after.nodes().iter().position(|m| m.name == n.name).map(|i| i as u32))
            .collect();
        let colour = |state: &State, o: u32| state.colours.get(o as usize).copied().unwrap_or(NO_OWNER);
        let mut movers = Movers::default();
        for (k, (&a, &b)) in from.iter().zip(to).enumerate() {
            let stays = match (a, b) {
                (NO_OWNER, NO_OWNER) => true,
                (NO_OWNER, _) | (_, NO_OWNER) => false,
                _ => same[a as usize] == Some(b),
            };
            if stays {
                continue;
            }
            movers.count += 1;
            movers.traffic += keys.traffic[k];
            if movers.index.len() < MAX_ANIMATED {
                movers.index.push(k as u32);
                movers.position.push(positions[k]);
                movers.from.push(colour(before, a));
                movers.to.push(colour(after, b));
            }
        }
        movers
    }
}

impl Session {
    /// The transition from one state (with its key cache) to another.
    pub(super) fn transition(
        &self,
        before: &State,
        before_keys: &KeyCache,
        after: &State,
        after_keys: &KeyCache,
        label: String,
    ) -> Transition {
        if before.nodes().is_empty() || after.nodes().is_empty() || before.settings.keys != after.settings.keys {
            let text = format!("{label}.");
            return Transition { label, text, exact: None, sample: None, movers: Movers::default() };
        }
        let movers =
            Movers::between(before, &before_keys.owners, after, &after_keys.owners, after_keys);
        let sample = sample_figures(&movers, after.settings.keys, after.settings.zipf);
        let n = after.settings.keys;
        let mut text = format!(
            "{label}: moved {} of {} keys ({})",
            thousands(movers.count),
            thousands(n),
            percent(movers.count as f64 / n.max(1) as f64, 1)
        );
        if after.settings.zipf > 0.0 {
            text.push_str(&format!(", {} of the requests", percent(sample.moved_traffic_fraction, 1)));
        }
        let mut exact = exact_moves(&before.cluster, &after.cluster);
        if let (Some(e), Some(a)) = (exact.as_mut(), after.cluster.arcs()) {
            // hash % N over the servers that answer: a failure takes one out of N.
            let size = a.size();
            e.modulo_fraction = migration::modulo_moved(live(before), live(after), size) as f64 / size as f64;
        }
        match &exact {
            Some(e) => text.push_str(&format!(
                "; exactly {} of the key space — ideal {} — hash % N would have moved {}.",
                percent(e.moved_fraction, 2),
                percent(e.ideal_fraction, 2),
                percent(e.modulo_fraction, 1)
            )),
            None if before.cluster.key_space() != after.cluster.key_space()
                || before.settings.algorithm != after.settings.algorithm
                || before.cluster.options().applied_hash() != after.cluster.options().applied_hash() =>
            {
                text.push_str(" (the two map keys differently, so only the sample compares them).")
            }
            None => text.push_str(" (this algorithm's moves can only be sampled)."),
        }
        let mut movers = movers;
        if self.compare_modulo {
            let modulo = modulo_movers(before, after, after_keys);
            text.push_str(&format!(
                " Replayed under hash % N (the highlighted keys): {} keys would move.",
                thousands(modulo.count)
            ));
            movers = modulo;
        }
        Transition { label, text, exact, sample: Some(sample), movers }
    }
}

/// The nodes not marked down.
fn live(state: &State) -> u64 {
    state.nodes().iter().filter(|n| !state.cluster.is_down(&n.name).unwrap_or(false)).count() as u64
}

/// Moved keys and moved traffic (Zipf popularity `s` over the sample's order) from the movers.
fn sample_figures(movers: &Movers, keys: usize, zipf_s: f64) -> SampleMigration {
    SampleMigration {
        keys,
        moved_keys: movers.count,
        moved_fraction: movers.count as f64 / keys.max(1) as f64,
        moved_traffic_fraction: movers.traffic.clamp(0.0, 1.0),
        zipf_s,
    }
}

/// Exact moves, when both placements have arcs over the same key mapping.
fn exact_moves(before: &Cluster, after: &Cluster) -> Option<ExactMoves> {
    let (a, b) = (before.arcs()?, after.arcs()?);
    let m = migration::between(a, b).ok()?;
    let size = a.size();
    let fraction = |x: u128| x as f64 / size as f64;
    let arcs_merged = m.arcs.len() > MAX_DRAWN_ARCS;
    let arcs = if arcs_merged {
        merged_spans(&m.arcs, size)
    } else {
        m.arcs
            .iter()
            .map(|arc| MovedSpan {
                start: arc.start.to_string(),
                end: arc.end.to_string(),
                start_fraction: fraction(u128::from(arc.start)),
                end_fraction: fraction(u128::from(arc.end) + 1),
                from: arc.from.clone(),
                to: arc.to.clone(),
            })
            .collect()
    };
    Some(ExactMoves {
        arcs,
        arcs_merged,
        moved: m.moved.to_string(),
        moved_fraction: m.moved_fraction,
        ideal_fraction: m.ideal_fraction,
        modulo_fraction: m.modulo_fraction,
    })
}

/// One span per 1/[`MAX_DRAWN_ARCS`] of the circle that holds any moved position.
fn merged_spans(arcs: &[migration::MovedArc], size: u128) -> Vec<MovedSpan> {
    let bins = MAX_DRAWN_ARCS as u128;
    let mut spans: Vec<MovedSpan> = Vec::new();
    let mut last_bin = None;
    for arc in arcs {
        let (first, last) = (u128::from(arc.start) * bins / size, u128::from(arc.end) * bins / size);
        for bin in first..=last {
            if last_bin == Some(bin) {
                continue;
            }
            last_bin = Some(bin);
            let (start, end) = (bin * size / bins, ((bin + 1) * size / bins).saturating_sub(1));
            spans.push(MovedSpan {
                start: start.to_string(),
                end: end.to_string(),
                start_fraction: bin as f64 / bins as f64,
                end_fraction: (bin + 1) as f64 / bins as f64,
                from: arc.from.clone(),
                to: arc.to.clone(),
            });
        }
    }
    spans
}

/// The same change under `hash % N` (same hash, same node names), on the sample keys.
fn modulo_movers(before: &State, after: &State, keys: &KeyCache) -> Movers {
    let owners = |state: &State| -> Vec<u32> {
        let mut options = Options::new(Algorithm::Modulo);
        options.config.hash = state.settings.hash;
        let names = state.nodes().iter().map(|n| crate::NodeSpec::new(n.name.clone()));
        let Ok(modulo) = Cluster::new(options, names) else { return vec![0; state.settings.keys] };
        let mut out = Vec::with_capacity(state.settings.keys);
        for_each_generated(KEY_PREFIX, state.settings.keys, |_, key| {
            out.push(modulo.locate_index(key).map_or(0, |o| o as u32));
        });
        out
    };
    Movers::between(before, &owners(before), after, &owners(after), keys)
}

/// `x` as a percentage with `digits` decimals.
pub(crate) fn percent(x: f64, digits: usize) -> String {
    format!("{:.digits$}%", x * 100.0)
}

/// `n` with thousands separators.
pub(crate) fn thousands(n: usize) -> String {
    crate::algo::about::thousands(n as u64)
}
