//! "Explain this key": every value an algorithm computes on the way from a key to its owner,
//! in its own terms, as an ordered chain of [`Step`]s a figure can highlight.
//!
//! Each algorithm tells its part ([`Placement::explain_key`](super::Placement::explain_key);
//! there is no generic default): the bytes it hashes, the hash, the point, slot, bucket or
//! table entry and the label that owns it, using the same functions its lookup uses. Where
//! the algorithm's answer is a contest or a walk, its chain shows it: rendezvous-like scores
//! (the [`MAX_SCORE_STEPS`] highest, the rest counted), multi-probe's probes, a bucket hash's
//! tries and a proxy's retries past down servers (the first [`MAX_WALK_STEPS`], the rest
//! counted), bounded loads' capacity and the full nodes passed ([`StepKind::Load`]). The engine
//! adds the parts every algorithm shares: the walk past down nodes (where the algorithm walks,
//! it names what it passes; elsewhere the algorithm's down rule), the owner
//! [`locate`](super::Cluster::locate) answers and the replicas. So the chain's owner is
//! `locate`'s, by construction. Every explanation is O(nodes), or bounded by the caps of
//! [`limits`](crate::limits) (a label found by making one node's points again).
//!
//! ```
//! use ringlab::algo::{Algorithm, Cluster, Options};
//! let ketama = Cluster::new(Options::new(Algorithm::Libketama), ["10.0.0.1:11211", "10.0.0.2:11211"])?;
//! let chain = ketama.explain("user:42", 0)?;
//! assert_eq!(chain.owner.as_deref(), Some(ketama.locate("user:42")?));
//! assert!(chain.steps.iter().any(|s| s.value.starts_with("10.0.0.")), "the owning label, host:port-k");
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::Cluster;
use crate::Error;

/// What a step computes (the page styles and highlights by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepKind {
    /// The bytes the algorithm hashes (all of the key, or a part: Redis's hash tag).
    Bytes,
    /// A hash value.
    Hash,
    /// A position on the circle (or in the key space).
    Position,
    /// The point (vnode, token) that owns the position.
    Point,
    /// The point's label: what was hashed to put it there (`10.0.0.1:11211-37`).
    Label,
    /// A Redis Cluster hash slot.
    Slot,
    /// A bucket (jump hash, `hash % n`).
    Bucket,
    /// A lookup-table entry (Maglev).
    Entry,
    /// A node's load against its capacity (bounded loads): a full node passed over, the
    /// capacity itself, the first node with room.
    Load,
    /// The node the algorithm's structure picks, before down nodes.
    Candidate,
    /// A down node passed over, or the rule that replaces it.
    Down,
    /// The node that serves the key: [`Cluster::locate`]'s answer.
    Owner,
    /// The preference list: [`Ring::replicas`](crate::Ring::replicas)'s answer.
    Replicas,
    /// Why the key has no owner now (the error `locate` gives).
    Unavailable,
}

/// What a step points at on the figure: a place on the circle and/or a node.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct At {
    /// Where on a drawing of the circle, as a fraction in `[0, 1)`.
    pub fraction: Option<f64>,
    /// A node, by index into [`Cluster::nodes`].
    pub node: Option<usize>,
    /// Nodes, for a list (the replicas).
    pub nodes: Vec<usize>,
}

/// One computed value on the way from the key to its owner.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub kind: StepKind,
    /// What the value is, in words ("MD5 of the key, first word little-endian").
    pub label: String,
    /// The value, as the algorithm writes it ("0x1a2b3c4d", "slot 12739", "cache-a#37").
    pub value: String,
    pub at: At,
}

impl Step {
    pub fn new(kind: StepKind, label: impl Into<String>, value: impl Into<String>) -> Step {
        Step { kind, label: label.into(), value: value.into(), at: At::default() }
    }

    /// This step, drawn at `fraction` of the circle.
    pub fn at_fraction(mut self, fraction: f64) -> Step {
        self.at.fraction = fraction.is_finite().then_some(fraction.clamp(0.0, 1.0 - f64::EPSILON));
        self
    }

    /// This step, pointing at node `index`.
    pub fn at_node(mut self, index: usize) -> Step {
        self.at.node = Some(index);
        self
    }

    /// The point a key's position leads to on a circle of points (`label` says how): point
    /// `i` of `count`, at `at` of the circle's `2^bits` positions, held by node `owner`.
    pub(crate) fn point(label: &str, i: usize, count: usize, at: u64, bits: u32, owner: usize) -> Step {
        let value = format!("point {i} of {count} at {}", hex(at, bits));
        Step::new(StepKind::Point, label, value).at_fraction(at as f64 / 2f64.powi(bits as i32)).at_node(owner)
    }
}

/// How most circles find a key's point ([`Step::point`]'s label).
pub(crate) const FIRST_AT_OR_AFTER: &str = "the first point at or after it, clockwise (wrapping past the top)";

/// The chain for one key on one placement.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    pub key: String,
    pub algorithm: &'static str,
    pub steps: Vec<Step>,
    /// [`Cluster::locate`]'s answer; `None` when it has none (then `error` says why).
    pub owner: Option<String>,
    /// Its index into [`Cluster::nodes`].
    pub owner_index: Option<usize>,
    /// The replicas asked for (ringlab's ring only): [`Ring::replicas`](crate::Ring::replicas).
    pub replicas: Option<Vec<String>>,
    /// `locate`'s error code, when the key has no owner now (`unavailable`, `empty-ring`).
    pub error: Option<&'static str>,
}

/// Steps an algorithm appends (see [`Placement::explain_key`](super::Placement::explain_key)).
#[derive(Debug, Default)]
pub struct Chain {
    steps: Vec<Step>,
}

impl Chain {
    pub fn push(&mut self, step: Step) {
        self.steps.push(step);
    }

    /// The key's bytes as hashed: the text when it is printable, else hexadecimal.
    pub fn bytes(&mut self, label: &str, bytes: &[u8]) {
        self.push(Step::new(StepKind::Bytes, label, bytes_text(bytes)));
    }
}

/// Down points a walk names one by one before it sums up the rest (also: a bucket hash's
/// tries, a proxy's probes).
pub const MAX_WALK_STEPS: usize = 8;

/// Scores a chain names one by one, the highest first (rendezvous: every node scores every
/// key), before it counts the rest.
pub const MAX_SCORE_STEPS: usize = 8;

/// The best [`MAX_SCORE_STEPS`] of a stream, by the algorithm's own `beats` order; O(n) for
/// n offered.
pub(crate) struct Top<T> {
    best: Vec<T>,
    offered: usize,
}

impl<T> Top<T> {
    pub(crate) fn new() -> Top<T> {
        Top { best: Vec::with_capacity(MAX_SCORE_STEPS + 1), offered: 0 }
    }

    pub(crate) fn offer(&mut self, item: T, beats: impl Fn(&T, &T) -> bool) {
        self.offered += 1;
        let at = self.best.iter().position(|b| beats(&item, b)).unwrap_or(self.best.len());
        if at < MAX_SCORE_STEPS {
            self.best.insert(at, item);
            self.best.truncate(MAX_SCORE_STEPS);
        }
    }

    /// The best first, and how many were offered beyond them.
    pub(crate) fn into_parts(self) -> (Vec<T>, usize) {
        let more = self.offered - self.best.len();
        (self.best, more)
    }
}

/// A score as text: six decimals in the usual range, else scientific.
pub(crate) fn number(x: f64) -> String {
    if x == 0.0 || (1e-3..1e7).contains(&x.abs()) {
        crate::decimal::fixed(x, 6)
    } else {
        format!("{x:.6e}")
    }
}

/// `bytes` as text: `"user:42" (7 bytes)`, or hexadecimal when not printable UTF-8.
pub fn bytes_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) if !text.chars().any(char::is_control) => format!("{text:?} ({} bytes)", bytes.len()),
        _ => {
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            format!("0x{hex} ({} bytes)", bytes.len())
        }
    }
}

/// `x` as hexadecimal, `bits` wide.
pub fn hex(x: u64, bits: u32) -> String {
    let width = (bits as usize).div_ceil(4);
    format!("0x{x:0width$x}")
}

impl Cluster {
    /// The chain for `key`: the algorithm's steps, then the walk past down nodes, the owner
    /// (`locate`'s answer, or why there is none) and, for ringlab's ring with `replicas` > 0,
    /// the preference list. Errors only for a key over [`MAX_KEY_LEN`](crate::limits::MAX_KEY_LEN)
    /// bytes: a key without an owner now is explained, not refused.
    pub fn explain(&self, key: impl AsRef<[u8]>, replicas: usize) -> Result<Explanation, Error> {
        let key = key.as_ref();
        crate::limits::check("a key's bytes", key.len() as u64, crate::limits::MAX_KEY_LEN as u64)?;
        crate::limits::check("replicas", replicas as u64, crate::limits::MAX_NODES as u64)?;
        let mut chain = Chain::default();
        let candidate = if self.nodes().is_empty() { None } else { self.inner.explain_key(key, &mut chain) };
        let located = self.locate_index(key);
        let nodes = self.nodes();
        // The candidate is named only where down nodes make it other than the owner.
        let replaced = |c: usize| self.is_down_at(c) || located.as_ref().is_ok_and(|&o| o != c);
        if let Some(c) = candidate.filter(|&c| c < nodes.len() && replaced(c)) {
            // Named already where the algorithm's last step picks it (the highest score wins).
            let named = chain.steps.last().is_some_and(|s| s.kind == StepKind::Candidate && s.at.node == Some(c));
            if !named {
                chain.push(Step::new(StepKind::Candidate, "the node that owns it", nodes[c].name.clone()).at_node(c));
            }
            if self.is_down_at(c) {
                // ringlab's ring names the points it walks past; other algorithms state their rule.
                let walked = self.inner.explain_down(key, &mut chain);
                if !walked {
                    let rule = self.down_rule();
                    chain.push(Step::new(StepKind::Down, format!("{} is down", nodes[c].name), rule.text).at_node(c));
                }
            } else {
                // Down nodes elsewhere changed the structure itself (a rebuilt continuum).
                chain.push(Step::new(StepKind::Down, "rebuilt without the down nodes", self.down_rule().text));
            }
        }
        let (owner, owner_index, error) = match &located {
            Ok(o) => {
                chain.push(Step::new(StepKind::Owner, "served by", nodes[*o].name.clone()).at_node(*o));
                (Some(nodes[*o].name.clone()), Some(*o), None)
            }
            Err(e) => {
                chain.push(Step::new(StepKind::Unavailable, "no owner now", e.to_string()));
                (None, None, Some(e.code()))
            }
        };
        let list = if replicas > 0 && located.is_ok() {
            // A long list may walk past every point before it has `replicas` distinct nodes.
            crate::work::charge(crate::work::Cost::Probes, self.arcs().map_or(0, |a| a.point_count() as u64))?;
            self.preference_list(key, replicas)
        } else {
            None
        };
        let replicas = match list {
            Some(list) => {
                let indices = list?;
                let list: Vec<String> = indices.iter().map(|&i| nodes[i].name.clone()).collect();
                let mut step = Step::new(StepKind::Replicas, format!("preference list of {replicas}"), list.join(", "));
                step.at.nodes = indices;
                chain.push(step);
                Some(list)
            }
            None => None,
        };
        Ok(Explanation {
            key: String::from_utf8_lossy(key).into_owned(),
            algorithm: self.algorithm().name(),
            steps: chain.steps,
            owner,
            owner_index,
            replicas,
            error,
        })
    }
}

/// One key's chains on two placements, side by side.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pair {
    pub a: Explanation,
    pub b: Explanation,
    /// The first step (index into both chains) whose kind or value differs; `None` when the
    /// chains are the same (the owner included).
    pub parts_at: Option<usize>,
    /// Whether the two answer the same owner (or the same error).
    pub agree: bool,
    /// Why the two differ in general ([`agreement::reasons`](super::agreement::reasons)).
    pub reasons: Vec<super::agreement::Reason>,
}

/// [`Cluster::explain`] of `key` on `a` and on `b`, and where the chains part.
pub fn pair(a: &Cluster, b: &Cluster, key: impl AsRef<[u8]>, replicas: usize) -> Result<Pair, Error> {
    let (ea, eb) = (a.explain(key.as_ref(), replicas)?, b.explain(key.as_ref(), replicas)?);
    Ok(Pair {
        parts_at: parts_at(&ea.steps, &eb.steps),
        agree: ea.owner == eb.owner && ea.error == eb.error,
        reasons: super::agreement::reasons(a, b),
        a: ea,
        b: eb,
    })
}

/// The first index where the two chains' steps differ in kind or value (a chain that ends
/// first parts where it ends).
pub fn parts_at(a: &[Step], b: &[Step]) -> Option<usize> {
    let same = |x: &Step, y: &Step| x.kind == y.kind && x.value == y.value;
    match a.iter().zip(b).position(|(x, y)| !same(x, y)) {
        Some(i) => Some(i),
        None if a.len() != b.len() => Some(a.len().min(b.len())),
        None => None,
    }
}
