//! The playground's "do two clients agree?": this pool placed by the session's algorithm and by
//! another, in the engine's words ([`crate::algo::agreement`] computes the figures).

use super::transition::{exact_moves, percent, thousands, MovedSpan};
use super::Session;
use crate::algo::agreement::{self, Agreement, Keys, Matrix};
use crate::algo::explain;
use crate::algo::{Algorithm, Cluster, Family, Options};
use crate::{Error, NodeSpec};
use serde::Serialize;

/// Two placements of the session's pool, side by side.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgreementView {
    /// The session's algorithm and the other, by name and label.
    pub algorithm: &'static str,
    pub label: &'static str,
    pub with: &'static str,
    pub with_label: &'static str,
    #[serde(flatten)]
    pub agreement: Agreement,
    /// The headline: "Dalli and pymemcache send 66.5% of 10,000 keys to different servers."
    pub text: String,
    /// Each placement's answer for the key asked about, if any.
    pub key: Option<KeyAnswers>,
    /// Where on the session's circle the two send keys apart (`from` is the first's server,
    /// `to` the second's): the exact arcs, when both are circles hashing keys as the
    /// session's ring does; else empty (`onRing` says which).
    pub apart: Vec<MovedSpan>,
    /// Whether `apart` is drawn on the session's circle: false where the two do not place
    /// keys on it (a bucket algorithm, another key space), and nothing can be drawn there.
    pub on_ring: bool,
    /// What the ring shows of the split, in a sentence (empty when they agree).
    pub ring_text: &'static str,
}

/// Where each of the two sends one key.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeyAnswers {
    pub key: String,
    pub a: String,
    pub b: String,
    pub agree: bool,
}

impl Session {
    /// The session's pool placed by `from` (by default the session's algorithm) and by `with`
    /// (the session's settings, its algorithm replaced; down marks are not carried): how far
    /// the two agree, why, and where each sends `key`. Exact where both are circles of points
    /// hashing keys alike, else on [`agreement::DEFAULT_KEYS`] generated keys.
    pub fn agreement(
        &self,
        with: Algorithm,
        key: Option<&str>,
        from: Option<Algorithm>,
    ) -> Result<AgreementView, Error> {
        let from = from.unwrap_or(self.settings().algorithm);
        let (a, b) = (self.pool_placement(from)?, self.pool_placement(with)?);
        let keys = Keys::Exact { prefix: "key:".into(), count: agreement::DEFAULT_KEYS };
        let found = agreement::agreement(&a, &b, &keys)?;
        let key = key
            .map(|k| -> Result<KeyAnswers, Error> {
                crate::limits::check_keys("the key", &[k.to_string()], 1)?;
                let answer = |c: &Cluster| c.locate(k).map_or_else(|e| format!("({e})"), str::to_string);
                let (x, y) = (answer(&a), answer(&b));
                Ok(KeyAnswers { key: k.to_string(), agree: x == y, a: x, b: y })
            })
            .transpose()?;
        // The arcs apart, on the session's own circle: only where it is the two's key space.
        let mapping = |c: &Cluster| c.arcs().map(|x| x.key_mapping());
        let on_ring = found.exact && mapping(self.cluster()).is_some() && mapping(self.cluster()) == mapping(&a);
        let apart = if on_ring { exact_moves(&a, &b).map(|m| m.arcs).unwrap_or_default() } else { Vec::new() };
        let (ea, eb) = (a.algorithm().entry(), b.algorithm().entry());
        let of = if found.exact { "the key space".to_string() } else { format!("{} keys", thousands(found.keys)) };
        let text = if found.disagree == 0.0 {
            format!("{} and {} send every key of {of} to the same server.", ea.label, eb.label)
        } else {
            format!(
                "{} and {} send {} of {of} to different servers: each of those is a miss, and a second copy, for one of them.",
                ea.label,
                eb.label,
                percent(found.disagree, 1)
            )
        };
        Ok(AgreementView {
            algorithm: ea.name,
            label: ea.label,
            with: eb.name,
            with_label: eb.label,
            agreement: found,
            text,
            key,
            ring_text: match (on_ring, apart.is_empty()) {
                (true, false) => "On the ring, the dashed arcs inside the circle are the keys they send apart.",
                (true, true) => "",
                (false, _) => "These two do not place keys on this ring's circle, so their split is not drawn on it.",
            },
            apart,
            on_ring,
        })
    }

    /// "Explain this key" on this pool placed by the session's algorithm and by `with` (as
    /// [`agreement`](Session::agreement) places them: down marks not carried), side by side,
    /// with the first step where the chains part; replicas as the session asks.
    pub fn explain_pair(&self, with: Algorithm, key: &str) -> Result<explain::Pair, Error> {
        let (a, b) = (self.pool_placement(self.settings().algorithm)?, self.pool_placement(with)?);
        explain::pair(&a, &b, key, self.settings().replicas)
    }

    /// How far every cache client of the catalog agrees with every other on the session's
    /// pool (those that refuse its names listed apart), on as many generated keys as the
    /// comparison's cap allows, up to [`agreement::DEFAULT_KEYS`]. The session's algorithm
    /// comes first when it is a client, so the pair the matrix suggests starts from it.
    pub fn agreement_matrix(&self) -> Result<Matrix, Error> {
        let own = self.settings().algorithm;
        let mut clients: Vec<Algorithm> =
            Algorithm::ALL.into_iter().filter(|a| a.entry().family == Family::Client).collect();
        if let Some(i) = clients.iter().position(|&a| a == own) {
            clients[..=i].rotate_right(1);
        }
        let count = agreement::DEFAULT_KEYS.min(crate::limits::MAX_COMPARE_WORK as usize / clients.len().max(1));
        agreement::matrix(&self.pool_options(self.settings().algorithm), &self.pool(), &clients, "key:", count)
    }

    fn pool(&self) -> Vec<NodeSpec> {
        self.nodes().iter().map(crate::Node::spec).collect()
    }

    fn pool_options(&self, algorithm: Algorithm) -> Options {
        Options { algorithm, ..self.cluster().options().clone() }
    }

    fn pool_placement(&self, algorithm: Algorithm) -> Result<Cluster, Error> {
        Cluster::new(self.pool_options(algorithm), self.pool())
    }
}
