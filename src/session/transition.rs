//! What a change moved: exact arcs where the algorithm has them, the sample keys that changed
//! owner (the ones to animate), the ideal and the `hash % N` baseline, and one sentence.

use super::{KeyCache, Session, State, KEY_PREFIX, NO_OWNER};
use crate::algo::{Cluster, Options};
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
    /// The readout in one paragraph: [`lines`](Transition::lines) in the order they show.
    pub text: String,
    /// The readout in short lines, for a reader at a glance.
    pub lines: ReadoutLines,
    /// Exact moves, when both states are rings of points mapping keys the same way.
    pub exact: Option<ExactMoves>,
    /// Moves on the sample keys (`None` when either state has no nodes).
    pub sample: Option<SampleMigration>,
    /// The sample keys that changed owner, to animate (at most 5,000, `MAX_ANIMATED`); keys that
    /// lost their owner (a down node nothing replaces) are among them, going to no owner.
    pub movers: Movers,
    /// How many sample keys lost their owner.
    pub lost: usize,
    /// What the change costs the tier (items, bytes, misses) beside `hash % N`, when the
    /// session has a workload.
    pub cost: Option<crate::cost::ChangeReport>,
}

/// The readout of a change as a page shows it: three short lines, the rest a tap away.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadoutLines {
    /// What moved: "Added node-6: moved 274 of 2,000 keys (13.7%); exactly 13.98% of the
    /// key space."
    pub moved: String,
    /// What it costs the tier, with a workload: "Cost: 1,234 items (1.2 MB), 56 extra
    /// misses/s until warm."
    pub cost: Option<String>,
    /// What `hash % N` would have done, when the serving count changed (or was compared).
    pub modulo: Option<String>,
    /// The rest, each a sentence: the least any placement could move, the down rule, the
    /// workload the cost is for.
    pub detail: Vec<String>,
}

impl ReadoutLines {
    fn text(&self) -> String {
        let mut parts = vec![self.moved.as_str()];
        parts.extend(self.cost.as_deref());
        parts.extend(self.modulo.as_deref());
        parts.extend(self.detail.iter().map(String::as_str));
        parts.join(" ")
    }
}

/// Exact moves between two states with arcs.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExactMoves {
    pub arcs: Vec<MovedSpan>,
    /// Whether `arcs` were merged for drawing (there were more than 4,096, `MAX_DRAWN_ARCS`).
    pub arcs_merged: bool,
    /// Positions that changed owner, as a decimal string (it can pass 2^53).
    pub moved: String,
    pub moved_fraction: f64,
    pub ideal_fraction: f64,
    /// [`migration::Migration::between_stayed_fraction`].
    pub between_stayed_fraction: f64,
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
    /// How many keys moved in all (the lists stop at 5,000, `MAX_ANIMATED`).
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
    /// A transition that only says what was done, with no keys compared: a ring replaced by
    /// another of other servers (an import), where "moved" would compare unrelated names.
    pub(super) fn told(&self, before: &State, after: &State, label: String) -> Transition {
        let lines = ReadoutLines { moved: format!("{label}."), ..ReadoutLines::default() };
        let text = lines.text();
        let cost = self.cost_of(before, after);
        Transition { label, text, lines, exact: None, sample: None, movers: Movers::default(), lost: 0, cost }
    }

    /// The transition from one state (with its key cache) to another.
    pub(super) fn transition(
        &self,
        before: &State,
        before_keys: &KeyCache,
        after: &State,
        after_keys: &KeyCache,
        label: String,
    ) -> Transition {
        if before.nodes().is_empty() || after.nodes().is_empty() || before_keys.owners.len() != after_keys.owners.len()
        {
            return self.told(before, after, label);
        }
        // Two rings of other servers (an import, and its undo): every key "moves", and that says nothing.
        let names = crate::node::index_by_name(before.nodes().iter().map(|n| n.name.as_str()).collect());
        if !after.nodes().iter().any(|n| names.contains_key(n.name.as_str())) {
            return self.told(before, after, label);
        }
        let cost = self.cost_of(before, after);
        let movers = Movers::between(before, &before_keys.owners, after, &after_keys.owners, after_keys);
        let n = after_keys.owners.len();
        let lost = after_keys
            .owners
            .iter()
            .zip(&before_keys.owners)
            .filter(|&(&a, &b)| a == NO_OWNER && b != NO_OWNER)
            .count();
        let weighted = self.key_list.is_some() || after.settings.zipf > 0.0;
        let sample = sample_figures(&movers, n, if self.key_list.is_some() { 0.0 } else { after.settings.zipf });
        let moved = movers.count - lost;
        let mut text = format!(
            "{label}: moved {} of {} keys ({})",
            thousands(moved),
            thousands(n),
            percent(moved as f64 / n.max(1) as f64, 1)
        );
        if weighted {
            text.push_str(&format!(", {} of the requests", percent(sample.moved_traffic_fraction, 1)));
        }
        if lost > 0 {
            text.push_str(&format!("; {} keys lost their owner", thousands(lost)));
        }
        let mut exact = exact_moves(&before.cluster, &after.cluster);
        if let (Some(e), Some(a)) = (exact.as_mut(), after.cluster.arcs()) {
            // hash % N over the servers that answer: a failure takes one out of N.
            let size = a.size();
            e.modulo_fraction = migration::modulo_moved(
                before.cluster.healthy_count() as u64,
                after.cluster.healthy_count() as u64,
                size,
            ) as f64
                / size as f64;
        }
        // hash % N is a baseline for a change in how many servers answer: a change of
        // vnodes, hash or weights keeps N, so the comparison would say nothing.
        let serving_changed = before.cluster.healthy_count() != after.cluster.healthy_count();
        let mut lines = ReadoutLines::default();
        match &exact {
            Some(e) => {
                text.push_str(&format!("; exactly {} of the key space.", percent(e.moved_fraction, 2)));
                if serving_changed {
                    lines.modulo = Some(format!("hash % N would have moved {}.", percent(e.modulo_fraction, 1)));
                    let mut ideal =
                        format!("The least any placement could have moved: {} (ideal).", percent(e.ideal_fraction, 2));
                    // Where the excess is, exactly: keys handed between servers that took no part.
                    if e.between_stayed_fraction > 0.0 {
                        ideal.push_str(&format!(
                            " The other {} moved between servers that stayed: this change redrew their points too.",
                            percent(e.between_stayed_fraction, 2)
                        ));
                    }
                    lines.detail.push(ideal);
                }
            }
            None if before.cluster.key_space() != after.cluster.key_space()
                || before.settings.algorithm != after.settings.algorithm
                || before.cluster.options().applied_hash() != after.cluster.options().applied_hash() =>
            {
                text.push_str(" (the two map keys differently, so only the sample compares them).")
            }
            None => text.push_str(" (this algorithm's moves can only be sampled)."),
        }
        lines.moved = text;
        // A node going down: what the real client does, in words.
        let newly_down = after
            .nodes()
            .iter()
            .enumerate()
            .any(|(i, n)| after.cluster.is_down_at(i) && !before.cluster.is_down(&n.name).unwrap_or(false));
        if newly_down {
            lines.detail.push(crate::algo::down::rule(after.settings.algorithm).text.to_string());
        }
        if let (Some(c), Some(w)) = (&cost, &self.workload) {
            let (placement, modulo) = cost_words(c);
            lines.cost = Some(format!("Cost: {placement}."));
            lines.modulo = Some(match lines.modulo.take() {
                Some(m) => format!("{}: {modulo}.", m.trim_end_matches('.')),
                None => format!("Under hash % N: {modulo}."),
            });
            lines.detail.push(format!(
                "The cost is for {} items of {} at {} requests/s.",
                thousands(w.items as usize),
                bytes(w.item_bytes),
                thousands(w.requests_per_sec.round() as usize)
            ));
        }
        let mut movers = movers;
        if self.compare_modulo && serving_changed {
            let modulo = modulo_movers(before, after, after_keys, self.key_list.as_deref());
            let replayed =
                format!("Replayed under hash % N (the highlighted keys): {} keys would move.", thousands(modulo.count));
            lines.modulo = Some(match lines.modulo.take() {
                Some(m) => format!("{m} {replayed}"),
                None => replayed,
            });
            movers = modulo;
        } else if self.compare_modulo {
            lines.modulo = Some("Under hash % N nothing would move: the same servers answer.".into());
        }
        let text = lines.text();
        Transition { label, text, lines, exact, sample: Some(sample), movers, lost, cost }
    }

    /// What the change costs the tier, when the session has a workload.
    fn cost_of(&self, before: &State, after: &State) -> Option<crate::cost::ChangeReport> {
        let workload = self.workload.as_ref()?;
        if before.nodes().is_empty() || after.nodes().is_empty() {
            return None;
        }
        crate::cost::of_change(&before.cluster, &after.cluster, workload, self.key_list.as_deref()).ok()
    }
}

/// A change's cost in words, and `hash % N`'s.
fn cost_words(c: &crate::cost::ChangeReport) -> (String, String) {
    let one = |k: &crate::cost::ChangeCost| {
        format!(
            "{} items ({}), {} extra misses/s until warm",
            thousands(k.items_moved as usize),
            bytes(k.bytes_moved),
            thousands(k.extra_misses_per_sec.round() as usize)
        )
    };
    (one(&c.placement), one(&c.modulo))
}

/// Bytes in the largest unit that keeps a number ≥ 1: "1.0 KB", "9.1 GB".
pub(crate) fn bytes(b: f64) -> String {
    const UNITS: [&str; 6] = ["B", "KB", "MB", "GB", "TB", "PB"];
    let mut v = b;
    let mut unit = 0;
    while v >= 1000.0 && unit + 1 < UNITS.len() {
        v /= 1000.0;
        unit += 1;
    }
    let digits = if unit == 0 { 0 } else { 1 };
    format!("{} {}", crate::decimal::fixed(v, digits), UNITS[unit])
}

/// Moved keys and moved traffic (Zipf popularity `s` over the sample's order) from the movers.
/// `zipf_s` is 0 when the traffic comes from a key list's counts.
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
pub(super) fn exact_moves(before: &Cluster, after: &Cluster) -> Option<ExactMoves> {
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
        between_stayed_fraction: m.between_stayed_fraction,
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

/// The same change under `hash % N` over the nodes that answer (same hash, same names, a
/// down node left out as a `hash % N` client drops a failed server), on the sample keys.
fn modulo_movers(before: &State, after: &State, keys: &KeyCache, list: Option<&crate::keys::KeyList>) -> Movers {
    let owners = |state: &State| -> Vec<u32> {
        let live: Vec<usize> = (0..state.nodes().len()).filter(|&i| !state.cluster.is_down_at(i)).collect();
        let mut options = Options::new(crate::algo::BASELINE);
        options.config.hash = state.settings.hash;
        let names = live.iter().map(|&i| crate::NodeSpec::new(state.nodes()[i].name.clone()));
        let Ok(modulo) = Cluster::new(options, names) else { return vec![NO_OWNER; keys.owners.len()] };
        let mut out = Vec::with_capacity(keys.owners.len());
        // Owners as indices into the state's own node list.
        let mut locate = |key: &[u8]| out.push(modulo.locate_index(key).map_or(NO_OWNER, |o| live[o] as u32));
        match list {
            Some(l) => l.keys.iter().for_each(|k| locate(k.as_bytes())),
            None => for_each_generated(KEY_PREFIX, keys.owners.len(), |_, key| locate(key)),
        }
        out
    };
    Movers::between(before, &owners(before), after, &owners(after), keys)
}

/// `x` as a percentage with `digits` decimals.
pub(crate) fn percent(x: f64, digits: usize) -> String {
    crate::decimal::fixed(x * 100.0, digits) + "%"
}

/// `n` with thousands separators.
pub(crate) fn thousands(n: usize) -> String {
    crate::algo::about::thousands(n as u64)
}
