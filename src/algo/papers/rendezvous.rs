//! Rendezvous (highest random weight) hashing, with weights.
//!
//! Each node scores a key with `-weight / ln(u)`, where `u` in (0, 1) comes from the hash of
//! the node's name, a 0xFF byte (never in UTF-8) and the key; the highest score wins, and
//! equal scores go to the name that sorts first. `ln` is the `libm` crate's, pure Rust over
//! IEEE arithmetic, so the score is bit-identical natively and in every browser: platform
//! `ln` implementations may differ in the last bit, which would flip rare close contests.

use super::about::KeySpace;
use super::entry::{Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Weights};
use super::explain::{bytes_text, hex, number, Chain, Step, StepKind, Top};
use super::members::{placement_basics, weight_rule, Members};
use super::options::HASH;
use super::{Algorithm, Placement};
use crate::decimal::{shortest, shortest_exp};
use crate::{Error, Hash, Node, NodeSpec};

pub(crate) const ENTRY: Entry = Entry {
    name: "rendezvous",
    label: "Rendezvous (HRW)",
    family: Family::Paper,
    source: "Thaler & Ravishankar 1998, weighted by -w/ln(u) (Schindelhauer & Schomaker)",
    options: &[&HASH],
    weights: Weights::Checked(check_weight),
    arcs: false,
    replicas: false,
    key_space: |o| KeySpace::Hash { bits: o.config.hash.bits() },
    describe: |o| {
        format!(
            "Rendezvous: every node scores every key with {} and the highest score wins. No ring: keys are drawn \
             at their hash ({}).",
            o.config.hash,
            (ENTRY.key_space)(o).words()
        )
    },
    on_down: OnDown::Skip(
        "A key of a down node goes to the node with the next highest score for that key; no other key moves.",
    ),
    on_stale: OnStale::ClientSide(
        "A client with the old node list picks the old highest score: moved keys go to their old owner, where reads miss or find stale values and writes leave two copies.",
    ),
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build = Build::Whole(|o, nodes, _| Ok(Box::new(Rendezvous::new(o.config.hash, nodes)?)));

/// The weights whose scores stay normal numbers for every `u` (`-ln u` is from about 2^-53
/// to 45): past them a score overflows to infinity or loses its digits to zero, every node
/// ties, and the first name wins every key.
pub(crate) const WEIGHTS: std::ops::RangeInclusive<f64> = 1e-300..=1e290;

pub(crate) fn check_weight(weight: f64) -> Result<(), Error> {
    crate::node::check_weight(weight)?;
    if WEIGHTS.contains(&weight) {
        Ok(())
    } else {
        Err(Error::weight_refused(
            weight,
            format!(
                "rendezvous weights are from {} to {}: past them scores overflow or vanish and ties decide (got {})",
                shortest_exp(*WEIGHTS.start()),
                shortest_exp(*WEIGHTS.end()),
                shortest_exp(weight)
            ),
        ))
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Rendezvous {
    hash: Hash,
    /// Down nodes are skipped: a key goes to the healthy node with the highest score.
    members: Members,
}

impl Rendezvous {
    pub(crate) fn new(hash: Hash, nodes: Vec<NodeSpec>) -> Result<Rendezvous, Error> {
        Ok(Rendezvous { hash, members: Members::new(nodes, 1, weight_rule(Algorithm::Rendezvous))? })
    }

    /// Scores need nothing but the node list.
    fn unchanged(&mut self) {}

    /// The node's score for the key, `−weight / ln u`, with the hash and `u` in (0, 1) it
    /// comes from: the hash of `name`, 0xFF, `key`, using all the bits the hash has.
    fn score(&self, name: &str, weight: f64, key: &[u8], buf: &mut Vec<u8>) -> (u64, f64, f64) {
        buf.clear();
        buf.extend_from_slice(name.as_bytes());
        buf.push(0xFF);
        buf.extend_from_slice(key);
        let h = self.hash.hash(buf);
        let u = if self.hash.bits() == 64 {
            ((h >> 11) as f64 + 0.5) / (1u64 << 53) as f64
        } else {
            (h as f64 + 0.5) / (1u64 << 32) as f64
        };
        (h, u, -weight / libm::log(u))
    }

    /// Whether score `a` (of node `a.1`) beats `b`: higher, and on a tie the smaller name.
    fn beats(&self, a: (f64, usize), b: (f64, usize)) -> bool {
        a.0 > b.0 || (a.0 == b.0 && self.members.nodes[a.1].name < self.members.nodes[b.1].name)
    }
}

impl Placement for Rendezvous {
    placement_basics!(Algorithm::Rendezvous, 1, unchanged);

    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        let mut buf = Vec::with_capacity(64 + key.len());
        let mut best: Option<(f64, usize)> = None;
        for (i, node) in self.members.nodes.iter().enumerate() {
            if self.members.is_down(i) {
                continue;
            }
            let score = (self.score(&node.name, node.weight, key, &mut buf).2, i);
            if best.is_none_or(|b| self.beats(score, b)) {
                best = Some(score);
            }
        }
        best.map(|(_, i)| i).ok_or_else(|| {
            if self.members.nodes.is_empty() {
                Error::EmptyRing
            } else {
                super::down::all_down()
            }
        })
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        let h = self.hash.hash(key);
        h as f64 / 2f64.powi(self.hash.bits() as i32)
    }
    /// Every node's score (down ones too: the candidate), the highest named, the winner last.
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        let mut buf = Vec::with_capacity(64 + key.len());
        let mut top = Top::new();
        for (i, node) in self.members.nodes.iter().enumerate() {
            let (h, u, score) = self.score(&node.name, node.weight, key, &mut buf);
            top.offer((score, i, h, u), |a, b| self.beats((a.0, a.1), (b.0, b.1)));
        }
        let (best, more) = top.into_parts();
        let &(_, winner, ..) = best.first()?;
        let name = &self.members.nodes[winner].name;
        let label = "the bytes hashed for each node: its name, 0xff, the key (here the winner's)";
        chain.push(Step::new(StepKind::Bytes, label, format!("{name:?} + 0xff + {}", bytes_text(key))));
        for &(score, i, h, u) in &best {
            let node = &self.members.nodes[i];
            let down = if self.members.is_down(i) { " (down)" } else { "" };
            let (name, weight) = (&node.name, node.weight);
            let weight = shortest(weight);
            let label = format!("{name}{down}: {} → u → score −weight/ln u (weight {weight})", self.hash);
            let value = format!("{} → u {} → score {}", hex(h, self.hash.bits()), number(u), number(score));
            chain.push(Step::new(StepKind::Hash, label, value).at_node(i));
        }
        if more > 0 {
            chain.push(Step::new(StepKind::Hash, format!("… and {more} more nodes, lower scores"), "not named"));
        }
        chain.push(Step::new(StepKind::Candidate, "the highest score wins", name.clone()).at_node(winner));
        Some(winner)
    }
    fn memory_bytes(&self) -> usize {
        self.members.memory_bytes()
    }
    fn lookup_cost(&self) -> u64 {
        2 * self.members.nodes.len().max(1) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::{Cluster, Options};

    /// Equal weights split the keys evenly at both ends of the range; past it they are
    /// refused (there every score is ∞ or 0 and the first name took 59% of the keys).
    #[test]
    fn extreme_equal_weights_still_split_evenly_and_past_them_are_refused() {
        for w in [*WEIGHTS.start(), 1.0, *WEIGHTS.end()] {
            let c = Cluster::new(
                Options::new(Algorithm::Rendezvous),
                [NodeSpec::new("a").weight(w), NodeSpec::new("b").weight(w)],
            )
            .unwrap();
            let a = (0..20_000).filter(|i| c.locate(format!("key:{i}")).unwrap() == "a").count();
            assert!((9_500..=10_500).contains(&a), "weight {w:e}: a has {a} of 20,000");
        }
        for w in [1e308, f64::MAX, 5e-324, 1e-310] {
            let e = Cluster::new(Options::new(Algorithm::Rendezvous), [NodeSpec::new("a").weight(w)]).unwrap_err();
            assert!(e.to_string().contains("rendezvous weights are from 1e-300 to 1e290"), "{e}");
            let mut c = Cluster::new(Options::new(Algorithm::Rendezvous), ["a", "b"]).unwrap();
            assert_eq!(c.set_weight("a", w).unwrap_err().code(), "invalid-option");
            assert_eq!(c.nodes()[0].weight, 1.0);
        }
    }
}
