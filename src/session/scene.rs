//! What the circle shows and what is under the pointer: points, keys, axis labels and words,
//! the node rows, what the user may do next, hit tests and follow-a-key.

use super::transition::{percent, thousands};
use super::Session;
use crate::analysis;
use serde::Serialize;
use std::sync::Arc;

/// Everything a view needs to draw the circle. Fractions are of the circle, 0 at the top,
/// clockwise; owners are indices into [`Session::nodes`]; `colours[i]` is node `i`'s colour
/// slot ([`crate::theme::PALETTE`]`[slot % 16]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// The points, shared with the state (a frame at the caps does not copy 500,000).
    pub points: Arc<[f64]>,
    pub point_owners: Arc<[u32]>,
    pub keys: Vec<f64>,
    pub key_owners: Vec<u32>,
    pub colours: Vec<u32>,
    /// Labels at the top, right, bottom and left, in the algorithm's own key space.
    pub axis: [String; 4],
    /// What the circle shows, with the actual parameters.
    pub description: String,
    /// The state in one sentence: nodes, points, balance.
    pub summary: String,
    /// How to read the picture, in plain words for this algorithm (arcs or none).
    pub reading: String,
}

/// One row of the node table.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeRow {
    pub name: String,
    pub weight: f64,
    pub zone: Option<String>,
    /// Points on the circle (0 where the algorithm has none).
    pub points: u32,
    /// Exact share of the key space, where it can be computed without sampling.
    pub share: Option<f64>,
    /// Sample keys it owns.
    pub keys: usize,
    /// Its share of the requests (the sample's Zipf popularity).
    pub traffic: f64,
    /// The share in words: `"20.00%"`, or `"sampled"` where shares are not exact.
    pub share_text: String,
    /// The traffic share in words: `"12.3%"`.
    pub traffic_text: String,
    /// What a legend shows for it: `"node-1 20.0%"`, or `"node-1 412 keys"` where shares are
    /// not exact; with a zone `"node-1 (zone a) 20.0%"`; with popular keys (Zipf s > 0) also
    /// `" · 31.2% of requests"`.
    pub legend: String,
    pub colour: u32,
    /// Why it may not leave, if it may not (jump hash: only the last bucket).
    pub removal_rule: Option<String>,
    /// Marked down: it stays, but lookups fail over (or its keys are unavailable).
    pub down: bool,
}

/// What the user may do and see with the current algorithm and history.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Capabilities {
    /// Changes get exact moved arcs (else the sample only).
    pub exact_arcs: bool,
    /// Node shares are exact (else sampled).
    pub exact_shares: bool,
    /// Keys have a preference list of distinct nodes.
    pub replicas: bool,
    /// Weights change the placement.
    pub weights: bool,
    /// The hash and vnodes settings change the placement.
    pub hash: bool,
    pub vnodes: bool,
    /// How the algorithm hashes a key when the hash setting does not apply, in its recipe's
    /// words ("CRC-32 of the key, or of its {tag}") or as its own ("Redis Cluster's own
    /// hash"): what a hash menu shows instead.
    pub own_hash: Option<String>,
    pub undo: Option<String>,
    pub redo: Option<String>,
}

impl Capabilities {
    /// What `algorithm` lets the user do, its placement having exact arcs and exact shares
    /// or not, with nothing to undo or redo (a first frame's).
    pub(crate) fn of(algorithm: crate::algo::Algorithm, exact_arcs: bool, exact_shares: bool) -> Capabilities {
        Capabilities {
            exact_arcs,
            exact_shares,
            replicas: algorithm.has_replicas(),
            weights: algorithm.weighted(),
            hash: algorithm.uses_hash(),
            vnodes: algorithm.uses_vnodes(),
            own_hash: (!algorithm.uses_hash()).then(|| {
                let entry = algorithm.entry();
                entry.extras.recipe.map_or_else(|| format!("{}'s own hash", entry.label), |r| r.key_hash.to_string())
            }),
            undo: None,
            redo: None,
        }
    }
}

/// The arc under the pointer.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArcHit {
    /// First and last position, as decimal strings (exact on 64-bit rings too).
    pub start: String,
    pub end: String,
    pub start_fraction: f64,
    pub end_fraction: f64,
    /// The owner's index in the node list, and name.
    pub node: u32,
    pub owner: String,
    /// The point's label, `"name#i"`, on ringlab's ring.
    pub label: Option<String>,
    pub text: String,
}

/// The sample key under the pointer.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyHit {
    pub index: u32,
    pub key: String,
    /// Its owner's index in the node list, and name.
    pub node: u32,
    pub owner: String,
    pub text: String,
}

/// Where a key lands and how its owner is found.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Follow {
    pub key: String,
    /// How the key is placed, in the algorithm's terms ("xxh3 0x…", "slot 12739").
    pub description: String,
    pub fraction: f64,
    pub owner: String,
    /// The clockwise walk's stops: the owning point, then the first point of each further
    /// replica (ringlab's ring); the owner alone elsewhere.
    pub walk: Vec<Stop>,
    /// The nodes the walk passes before its last stop without taking them (a zone that
    /// already has a copy, or a node that is down): the first point of each, in walk order.
    pub skipped: Vec<Stop>,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stop {
    pub name: String,
    pub fraction: f64,
    pub colour: u32,
}

/// How to read the picture: what the band, the dots and the marks after a change are, for
/// an algorithm with `arcs` or without, and the user's `own_keys` or the sample.
pub(super) fn reading(arcs: bool, own_keys: bool) -> String {
    let keys = if own_keys { "your keys" } else { "sample keys (key:0, key:1, …)" };
    if arcs {
        format!(
            "Each coloured arc of the ring is the part of the key space one node owns; the dots inside \
             are {keys}, coloured by their owner. After a change, the stretches marked just outside \
             the ring changed owner, and the keys in them light up as they move."
        )
    } else {
        format!(
            "This algorithm has no arcs to draw: each dot is one of the {keys} at its hash, coloured by \
             its owner. After a change, the keys that changed owner light up as they move."
        )
    }
}

/// What the first sentences of a summary say: the nodes, the algorithm, its points and
/// hash, and the balance.
pub(super) struct SummaryFacts {
    pub nodes: usize,
    pub algorithm: &'static str,
    /// Nodes not marked down.
    pub serving: usize,
    /// Points on the circle, where the algorithm has them.
    pub points: Option<usize>,
    /// The hash it applies, and the ring's size where vnodes place points on one.
    pub hash: Option<(crate::Hash, Option<crate::RingBits>)>,
    pub spread: Option<analysis::Spread>,
}

impl SummaryFacts {
    /// The summary up to the balance (popularity and unavailable keys follow).
    pub fn summary(&self) -> String {
        if self.nodes == 0 {
            return "The ring is empty: add a node.".into();
        }
        let mut text = format!("{} nodes, {}", self.nodes, self.algorithm);
        let down = self.nodes - self.serving;
        if down > 0 {
            text.push_str(&format!(" ({down} down)"));
        }
        if let Some(points) = self.points {
            text.push_str(&format!(", {} points", thousands(points)));
        }
        if let Some((hash, bits)) = self.hash {
            text.push_str(&format!(" ({hash}"));
            if let Some(bits) = bits {
                text.push_str(&format!(", {}-bit ring", bits.bits()));
            }
            text.push(')');
        }
        // Balance is over the nodes that serve: a down node carries nothing and is no sign
        // of imbalance among the others.
        let serving = self.serving;
        let over = if down > 0 { format!(" of the {serving} serving nodes") } else { String::new() };
        match self.spread {
            Some(s) => text.push_str(&format!(
                ". The busiest{over} carries {}× its fair share; load varies by {} (relative std dev).",
                crate::decimal::fixed(s.max_over_mean, 2),
                percent(s.rsd, 1)
            )),
            None if serving == 0 => text.push_str(". Every node is down: no key has an owner."),
            None => text.push_str(". Its shares can only be sampled: see the key counts."),
        }
        text
    }
}

/// Each node's sample keys and share of the requests, from the keys' `owners` and `traffic`.
pub(super) fn tally(owners: &[u32], traffic: &[f64], nodes: usize) -> (Vec<usize>, Vec<f64>) {
    let mut keys = vec![0usize; nodes];
    let mut requests = vec![0f64; nodes];
    for (k, &o) in owners.iter().enumerate().filter(|(_, &o)| o != super::NO_OWNER) {
        keys[o as usize] += 1;
        requests[o as usize] += traffic[k];
    }
    (keys, requests)
}

impl NodeRow {
    /// Node `n`'s row: its exact `share` (if known), sample `keys`, share of the requests
    /// under popularity `zipf`, and colour slot; it may leave and is up.
    pub(super) fn of(
        n: &crate::Node,
        share: Option<f64>,
        keys: usize,
        (traffic, zipf): (f64, f64),
        colour: u32,
    ) -> NodeRow {
        let name = match &n.zone {
            Some(zone) => format!("{} (zone {zone})", n.name),
            None => n.name.clone(),
        };
        let mut legend = match share {
            Some(s) => format!("{name} {}", percent(s, 1)),
            None => format!("{name} {} keys", thousands(keys)),
        };
        // With popular keys, what a node serves is no longer what it holds.
        if zipf > 0.0 {
            legend.push_str(&format!(" · {} of requests", percent(traffic, 1)));
        }
        NodeRow {
            name: n.name.clone(),
            weight: n.weight,
            zone: n.zone.clone(),
            points: n.points,
            share,
            keys,
            traffic,
            share_text: share.map_or_else(|| "sampled".to_string(), |s| percent(s, 2)),
            traffic_text: percent(traffic, 1),
            legend,
            colour,
            removal_rule: None,
            down: false,
        }
    }
}

impl Session {
    /// What the circle shows now.
    pub fn scene(&self) -> Scene {
        let cluster = self.cluster();
        let (points, point_owners) = match cluster.circle_points() {
            Some(circle) => (circle.fractions, circle.owners),
            None => (Arc::from([]), Arc::from([])),
        };
        Scene {
            points,
            point_owners,
            keys: self.keys.positions.clone(),
            key_owners: self.keys.owners.clone(),
            colours: self.state.colours.clone(),
            axis: cluster.key_space().axis_labels(),
            description: cluster.describe(),
            summary: self.summary(),
            reading: self.reading(),
        }
    }

    /// How to read the picture: what the band, the dots and the marks after a change are.
    fn reading(&self) -> String {
        reading(self.cluster().arcs().is_some(), self.key_list.is_some())
    }

    fn summary(&self) -> String {
        let cluster = self.cluster();
        let algorithm = cluster.algorithm();
        let mut text = SummaryFacts {
            nodes: cluster.nodes().len(),
            algorithm: algorithm.name(),
            serving: cluster.healthy_count(),
            points: cluster.arcs().map(|a| a.point_count()),
            hash: cluster.options().applied_hash().map(|h| (h, algorithm.uses_vnodes().then(|| self.settings().bits))),
            spread: self.spread(),
        }
        .summary();
        if cluster.nodes().is_empty() {
            return text;
        }
        let serving = cluster.healthy_count();
        if self.settings().zipf > 0.0 {
            let rows = self.node_rows();
            if let Some(hot) = rows.iter().filter(|r| !r.down).max_by(|a, b| a.traffic.total_cmp(&b.traffic)) {
                let fair = 1.0 / serving.max(1) as f64;
                text.push_str(&format!(
                    " With Zipf s = {}, the hottest node, {}, serves {} of the requests ({:.2}× its fair share).",
                    self.settings().zipf,
                    hot.name,
                    percent(hot.traffic, 1),
                    hot.traffic / fair
                ));
                if let Some((refined, words)) = self.settings().algorithm.entry().extras.refines {
                    if let Some(hottest) = self.hottest_on(refined) {
                        text.push_str(&format!(
                            " On {words} (no load bound) the hottest node would serve {}.",
                            percent(hottest, 1)
                        ));
                    }
                }
            }
        }
        let unavailable = self.keys.owners.iter().filter(|&&o| o == super::NO_OWNER).count();
        if unavailable > 0 {
            text.push_str(&format!(
                " {} of {} sample keys have no owner while nodes are down.",
                thousands(unavailable),
                thousands(self.keys.owners.len())
            ));
        }
        text
    }

    /// The hottest node's share of requests if the same nodes were placed by `algorithm`
    /// (the one the current algorithm refines): what bounded-load's cap changes.
    fn hottest_on(&self, algorithm: crate::algo::Algorithm) -> Option<f64> {
        let settings = super::Settings { algorithm, ..self.settings().clone() };
        let specs = self.nodes().iter().map(crate::Node::spec);
        let ring = crate::algo::Cluster::new(settings.options(), specs).ok()?;
        let mut traffic = vec![0f64; ring.nodes().len()];
        ring.locate_generated(super::KEY_PREFIX, self.keys.traffic.len(), |k, owner| {
            if let Ok(o) = owner {
                traffic[o] += self.keys.traffic[k];
            }
        });
        traffic.into_iter().reduce(f64::max)
    }

    /// The spread of load over nodes from exact shares, or `None` when they can only be
    /// sampled or there are no nodes ([`Cluster::spread`](crate::algo::Cluster::spread): the
    /// same answer as the library's `Ring`).
    pub fn spread(&self) -> Option<analysis::Spread> {
        self.cluster().spread()
    }

    /// The node table's rows, in the order nodes were added.
    pub fn node_rows(&self) -> Vec<NodeRow> {
        let cluster = self.cluster();
        let shares = cluster.exact_shares();
        let (keys, traffic) = tally(&self.keys.owners, &self.keys.traffic, cluster.nodes().len());
        let count = cluster.nodes().len();
        let zipf = self.settings().zipf;
        cluster
            .nodes()
            .iter()
            .enumerate()
            .map(|(i, n)| NodeRow {
                removal_rule: cluster.algorithm().removal_rule(i, count),
                down: cluster.is_down_at(i),
                ..NodeRow::of(n, shares.as_ref().map(|s| s[i]), keys[i], (traffic[i], zipf), self.state.colours[i])
            })
            .collect()
    }

    /// What the user may do next.
    pub fn capabilities(&self) -> Capabilities {
        let cluster = self.cluster();
        let (undo, redo) = self.history_labels();
        Capabilities {
            undo: undo.map(str::to_string),
            redo: redo.map(str::to_string),
            ..Capabilities::of(cluster.algorithm(), cluster.arcs().is_some(), cluster.exact_shares().is_some())
        }
    }

    /// The arc at `fraction` of the circle, or `None` where the algorithm has no arcs.
    pub fn arc_at(&self, fraction: f64) -> Option<ArcHit> {
        let cluster = self.cluster();
        let a = cluster.arcs().filter(|a| a.point_count() > 0)?;
        let size = a.size();
        let f = if fraction.is_finite() { fraction.clamp(0.0, 1.0) } else { 0.0 };
        let position = ((f * size as f64) as u128).min(size - 1) as u64;
        let i = a.successor(position);
        let n = a.point_count();
        let start = if i == 0 { (u128::from(a.point(n - 1).0) + 1) % size } else { u128::from(a.point(i - 1).0) + 1 };
        let (end, node) = a.point(i);
        let owner = a.node_name(node).to_string();
        let label = cluster.point_label(i);
        // A down node's point: its arc is served by the next node up.
        let text = match &label {
            Some(l) if !l.starts_with(&format!("{owner}#")) => {
                format!("{owner} serves {start}–{end}: the arc of point {l}, whose node is down")
            }
            Some(l) => format!("{owner} owns {start}–{end} (point {l})"),
            None => format!("{owner} owns {start}–{end}"),
        };
        Some(ArcHit {
            start: start.to_string(),
            end: end.to_string(),
            start_fraction: start as f64 / size as f64,
            end_fraction: (u128::from(end) + 1) as f64 / size as f64,
            node: node as u32,
            owner,
            label,
            text,
        })
    }

    /// The sample key drawn nearest `fraction`, within `tolerance` (a fraction of the circle).
    pub fn key_near(&self, fraction: f64, tolerance: f64) -> Option<KeyHit> {
        if !(fraction.is_finite() && tolerance.is_finite()) {
            return None;
        }
        let distance = |f: f64| {
            let d = (f - fraction).abs();
            d.min(1.0 - d)
        };
        let (index, _) = self
            .keys
            .positions
            .iter()
            .enumerate()
            .map(|(i, &f)| (i, distance(f)))
            .filter(|&(_, d)| d <= tolerance)
            .min_by(|a, b| a.1.total_cmp(&b.1))?;
        let key = self.key_name(index)?;
        let follow = self.follow(&key).ok()?;
        let mut text = format!("{key}: {}, owner {}", follow.description, follow.owner);
        if follow.walk.len() > 1 {
            let names: Vec<&str> = follow.walk.iter().map(|s| s.name.as_str()).collect();
            text.push_str(&format!(", replicas {}", names.join(", ")));
        }
        let node = self.nodes().iter().position(|n| n.name == follow.owner)? as u32;
        Some(KeyHit { index: index as u32, key, node, owner: follow.owner, text })
    }

    /// Where `key` lands and the walk to its owner (and replicas, per the settings). A key
    /// is at most [`MAX_KEY_LEN`](crate::limits::MAX_KEY_LEN) bytes.
    pub fn follow(&self, key: &str) -> Result<Follow, crate::Error> {
        crate::limits::check("a key (bytes)", key.len() as u64, crate::limits::MAX_KEY_LEN as u64)?;
        let cluster = self.cluster();
        let owner_index = cluster.locate_index(key)?;
        let owner = cluster.nodes()[owner_index].name.clone();
        let fraction = cluster.key_fraction(key);
        let colour = |i: usize| self.state.colours[i];
        let mut walk = Vec::new();
        let mut skipped = Vec::new();
        let mut skipped_nodes = Vec::new();
        let wanted: Vec<usize> = match cluster.preference_list(key, self.settings().replicas) {
            Some(list) => list?,
            None => vec![owner_index],
        };
        match cluster.arcs().filter(|a| a.point_count() > 0) {
            Some(a) => {
                let size = a.size() as f64;
                let start = match cluster.walk_start(key) {
                    // Exact where the placement knows better than the fraction (which cannot
                    // hold 64 bits).
                    Some(start) => start?,
                    None => a.successor(((fraction * size) as u128).min(a.size() - 1) as u64),
                };
                let count = a.point_count();
                let mut last = 0;
                for &node in &wanted {
                    if let Some(s) = (0..count).find(|&s| a.point((start + s) % count).1 == node) {
                        let i = (start + s) % count;
                        last = last.max(s);
                        let name = a.node_name(node).to_string();
                        walk.push(Stop { name, fraction: a.point(i).0 as f64 / size, colour: colour(node) });
                    }
                }
                if wanted.len() > 1 {
                    for i in (0..last).map(|s| (start + s) % count) {
                        let node = a.point(i).1;
                        if !wanted.contains(&node) && !skipped_nodes.contains(&node) {
                            skipped_nodes.push(node);
                            let name = a.node_name(node).to_string();
                            skipped.push(Stop { name, fraction: a.point(i).0 as f64 / size, colour: colour(node) });
                        }
                    }
                }
            }
            None => walk.push(Stop { name: owner.clone(), fraction, colour: colour(owner_index) }),
        }
        let description = cluster.describe_key(key);
        let mut text = format!("{key} → {description} → owner {owner}.");
        let nodes = cluster.nodes();
        let zoned = |i: usize| match &nodes[i].zone {
            Some(zone) => format!("{} (zone {zone})", nodes[i].name),
            None => nodes[i].name.clone(),
        };
        if wanted.len() > 1 {
            let names: Vec<String> = wanted.iter().map(|&i| zoned(i)).collect();
            text.push_str(&format!(" Preference list ({} replicas): {}.", self.settings().replicas, names.join(", ")));
        }
        if !skipped_nodes.is_empty() {
            let why = |i: usize| match &nodes[i].zone {
                _ if cluster.is_down_at(i) => format!("{}, down", nodes[i].name),
                Some(zone) => format!("{}, whose zone {zone} already has a copy", nodes[i].name),
                None => nodes[i].name.clone(),
            };
            let passed: Vec<String> = skipped_nodes.iter().map(|&i| why(i)).collect();
            text.push_str(&format!(" The walk passes over {}.", passed.join("; ")));
        }
        Ok(Follow { key: key.to_string(), description, fraction, owner, walk, skipped, text })
    }
}
