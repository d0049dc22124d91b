//! Do two clients of one pool agree? The share of keys that two placements of the same servers
//! send to different servers, which server pairs they split, and why.
//!
//! A frequent incident with consistent hashing is not a bad ring but two clients that disagree
//! about the same pool: a Python and a Ruby service sharing memcached, a client upgrade that
//! remaps, twemproxy beside libmemcached. Every key they disagree on is a miss (and a second
//! copy) for one of them.
//!
//! - **Exact**, over the whole key space, where both placements are circles of points that
//!   hash keys the same way ([`Arcs::key_mapping`](crate::analysis::Arcs::key_mapping)): the two point lists are walked together
//!   and every run of positions whose owners differ is counted ([`migration::between`]).
//! - **On keys** otherwise, or when keys are given: each key is placed by both.
//!
//! Servers are matched by name, as each client answers them (the names the pool was written
//! with). The reasons are the steps of each entry's [`Recipe`] that read differently, plus
//! differences of key space and of options, as the entries state them.
//!
//! ```
//! use ringlab::algo::{agreement, Algorithm, Cluster, Options};
//! use ringlab::NodeSpec;
//! let pool: Vec<NodeSpec> = ["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"].map(NodeSpec::new).into();
//! let dalli = Cluster::new(Options::new(Algorithm::Dalli), pool.clone())?;
//! let pymemcache = Cluster::new(Options::new(Algorithm::Pymemcache), pool)?;
//! let a = agreement::agreement(&dalli, &pymemcache, &agreement::Keys::Generated { prefix: "user:".into(), count: 3000 })?;
//! assert!(a.disagree > 0.5, "two unrelated hashes agree on about a third of the keys");
//! assert!(a.reasons.iter().any(|r| r.step == "key hash"));
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::entry::Recipe;
use super::Cluster;
use crate::work::{self, Cost};
use crate::{limits, migration, Error};
use serde::Serialize;
use std::collections::BTreeMap;

/// Which keys to compare on.
#[derive(Clone, Debug)]
pub enum Keys {
    /// The whole key space exactly where both placements allow it, else these generated keys.
    Exact { prefix: String, count: usize },
    /// `"{prefix}0"` .. `"{prefix}{count - 1}"`.
    Generated { prefix: String, count: usize },
    /// The given keys.
    List(Vec<String>),
}

/// How far two placements of one pool agree.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Agreement {
    /// The share of keys (or of the key space) placed on different servers.
    pub disagree: f64,
    /// Whether `disagree` is over the whole key space, exactly.
    pub exact: bool,
    /// The keys compared (0 when exact).
    pub keys: usize,
    /// The server pairs they split, largest share first: `a` answers `a`, `b` answers `b`.
    pub pairs: Vec<Pair>,
    /// Why they differ, as the entries state it (empty when nothing differs).
    pub reasons: Vec<Reason>,
}

/// A share of keys that `a` sends to one server and `b` to another.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pair {
    pub a: String,
    pub b: String,
    pub share: f64,
}

/// One step the two placements take differently.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reason {
    /// The step: one of [`Recipe::STEPS`], `"algorithm"`, `"key space"` or `"option"`.
    pub step: String,
    /// How `a` takes it.
    pub a: String,
    /// How `b` takes it.
    pub b: String,
}

/// The generated keys an agreement is measured on where it cannot be exact and no keys are
/// given (`key:0` .. `key:9999`).
pub const DEFAULT_KEYS: usize = 10_000;

/// What hashing a byte of a key costs a placement, for the work meter: MD5's (the cache
/// clients' hash), the costliest a client hashes keys with.
const KEY_HASH_WORK: u64 = 4;

/// What a key is answered with when its server is down and the client has no other
/// (the error's words are not a server's name).
const UNAVAILABLE: &str = "(unavailable)";

/// How far `a` and `b`, two placements of the same servers, agree on `keys`.
///
/// Work is capped at [`limits::MAX_COMPARE_WORK`] lookups by each placement; an exact answer
/// walks both point lists once. Errors: a key set over the cap (`too-large`), a placement
/// whose lookups fail other than by a down server.
pub fn agreement(a: &Cluster, b: &Cluster, keys: &Keys) -> Result<Agreement, Error> {
    let reasons = reasons(a, b);
    if let Keys::Exact { .. } = keys {
        if let Some(found) = exact(a, b)? {
            return Ok(Agreement { reasons, ..found });
        }
    }
    let count = match keys {
        Keys::Exact { count, .. } | Keys::Generated { count, .. } => *count,
        Keys::List(list) => list.len(),
    };
    limits::check("keys to compare two placements on", count as u64, limits::MAX_COMPARE_WORK)?;
    a.check_lookups(count)?;
    b.check_lookups(count)?;
    if let Keys::List(list) = keys {
        // Each key is hashed by both placements, by a client's hash as costly as MD5 at worst.
        let bytes = list.iter().map(|k| k.len() as u64).fold(0, u64::saturating_add);
        work::charge(Cost::HashedBytes, work::hashed(2, bytes, KEY_HASH_WORK))?;
    }
    let mut tally = Tally::default();
    match keys {
        Keys::Exact { prefix, count } | Keys::Generated { prefix, count } => {
            let mut failed = None;
            migration::for_each_generated(prefix, *count, |_, key| {
                if failed.is_none() {
                    if let Err(e) = tally.key(a, b, key) {
                        failed = Some(e);
                    }
                }
            });
            if let Some(e) = failed {
                return Err(e);
            }
        }
        Keys::List(list) => {
            for key in list {
                tally.key(a, b, key.as_bytes())?;
            }
        }
    }
    Ok(tally.finish(count, reasons))
}

/// The exact answer, where both are circles of points with the same key mapping.
fn exact(a: &Cluster, b: &Cluster) -> Result<Option<Agreement>, Error> {
    let (Some(arcs_a), Some(arcs_b)) = (a.arcs(), b.arcs()) else { return Ok(None) };
    if arcs_a.key_mapping() != arcs_b.key_mapping() || arcs_a.size() != arcs_b.size() {
        return Ok(None);
    }
    let m = migration::between(arcs_a, arcs_b)?;
    let size = arcs_a.size() as f64;
    let mut split: BTreeMap<(String, String), u128> = BTreeMap::new();
    for arc in &m.arcs {
        *split.entry((arc.from.clone(), arc.to.clone())).or_default() += u128::from(arc.end - arc.start) + 1;
    }
    let pairs = sorted_pairs(split.into_iter().map(|((a, b), n)| (a, b, n as f64 / size)));
    Ok(Some(Agreement { disagree: m.moved_fraction, exact: true, keys: 0, pairs, reasons: Vec::new() }))
}

/// The share of [`exact`], counted without listing the arcs: all a matrix cell reads.
fn exact_share(a: &Cluster, b: &Cluster) -> Result<Option<f64>, Error> {
    let (Some(arcs_a), Some(arcs_b)) = (a.arcs(), b.arcs()) else { return Ok(None) };
    if arcs_a.key_mapping() != arcs_b.key_mapping() || arcs_a.size() != arcs_b.size() {
        return Ok(None);
    }
    Ok(Some(migration::exact_moved(arcs_a, arcs_b)?.total()))
}

/// Disagreements counted key by key.
#[derive(Default)]
struct Tally {
    split: BTreeMap<(String, String), usize>,
    disagree: usize,
}

impl Tally {
    fn key(&mut self, a: &Cluster, b: &Cluster, key: &[u8]) -> Result<(), Error> {
        let (x, y) = (answer(a, key)?, answer(b, key)?);
        if x != y {
            self.disagree += 1;
            *self.split.entry((x.to_string(), y.to_string())).or_default() += 1;
        }
        Ok(())
    }

    fn finish(self, count: usize, reasons: Vec<Reason>) -> Agreement {
        let of = |n: usize| if count == 0 { 0.0 } else { n as f64 / count as f64 };
        let pairs = sorted_pairs(self.split.into_iter().map(|((a, b), n)| (a, b, of(n))));
        Agreement { disagree: of(self.disagree), exact: false, keys: count, pairs, reasons }
    }
}

/// The server `cluster` answers for `key`, or [`UNAVAILABLE`] where its server is down.
fn answer<'a>(cluster: &'a Cluster, key: &[u8]) -> Result<&'a str, Error> {
    match cluster.locate(key) {
        Ok(name) => Ok(name),
        Err(Error::Unavailable(_)) => Ok(UNAVAILABLE),
        Err(e) => Err(e),
    }
}

fn sorted_pairs(pairs: impl Iterator<Item = (String, String, f64)>) -> Vec<Pair> {
    sort_pairs(pairs.map(|(a, b, share)| Pair { a, b, share }).collect())
}

// Not generic: the sort is instantiated once, whatever the callers' iterators.
fn sort_pairs(mut out: Vec<Pair>) -> Vec<Pair> {
    // Largest first; equal shares by name, so the order is the same everywhere.
    out.sort_by(|x, y| y.share.total_cmp(&x.share).then_with(|| (&x.a, &x.b).cmp(&(&y.a, &y.b))));
    out
}

/// The steps `a` and `b` take differently, as their entries state them.
pub fn reasons(a: &Cluster, b: &Cluster) -> Vec<Reason> {
    let (ea, eb) = (a.algorithm().entry(), b.algorithm().entry());
    let reason = |step: &str, x: String, y: String| Reason { step: step.to_string(), a: x, b: y };
    let mut out = Vec::new();
    match (ea.extras.recipe, eb.extras.recipe) {
        (Some(ra), Some(rb)) => {
            out.extend(recipe_differences(ra, rb).map(|(step, x, y)| reason(step, x.into(), y.into())))
        }
        _ if ea.name != eb.name => out.push(reason("algorithm", a.describe(), b.describe())),
        _ => {}
    }
    let (ka, kb) = (a.key_space().words(), b.key_space().words());
    if ka != kb {
        out.push(reason("key space", ka, kb));
    }
    if ea.name == eb.name {
        for spec in ea.options {
            let (x, y) = ((spec.get)(a.options()), (spec.get)(b.options()));
            if x != y {
                let words = |v: Option<super::OptionValue>| v.map_or_else(|| "not set".to_string(), |v| v.text());
                out.push(reason(
                    "option",
                    format!("{} {}", spec.name, words(x)),
                    format!("{} {}", spec.name, words(y)),
                ));
            }
        }
        // Settings every algorithm's description states (the ring's hash, size and vnodes).
        let (da, db) = (a.describe(), b.describe());
        if out.is_empty() && da != db {
            out.push(reason("settings", da, db));
        }
    }
    out
}

/// Every pair of `algorithms` placing the same pool: who accepts it, and how far each two agree.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Matrix {
    /// The algorithms that accept the pool, in the order asked.
    pub algorithms: Vec<&'static str>,
    /// `disagree[i][j]`: the share of keys algorithms `i` and `j` place apart.
    pub disagree: Vec<Vec<f64>>,
    /// `exact[i][j]`: whether that share is over the whole key space.
    pub exact: Vec<Vec<bool>>,
    /// The keys compared where a share is not exact.
    pub keys: usize,
    /// The algorithms that refuse the pool, with their error's words and code.
    pub refused: Vec<Refused>,
    /// Each accepting algorithm's label, in [`algorithms`](Matrix::algorithms)' order.
    pub labels: Vec<&'static str>,
    /// The compatible groups: two or more algorithms that send every key to the same server,
    /// over the whole key space where every share between them is exact, else on every key
    /// compared; each algorithm in at most one, in the matrix's order.
    pub groups: Vec<Group>,
    /// Two algorithms to compare first: the first asked, and the first after it that sends
    /// some key elsewhere (none when fewer than two accept the pool).
    pub pair: Option<[&'static str; 2]>,
}

/// Algorithms that agree on every key.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Group {
    pub algorithms: Vec<&'static str>,
    /// Over the whole key space, not only on the keys compared.
    pub exact: bool,
    /// "Every key to the same server: libketama (last.fm); spymemcached, ketama (Java)."
    pub text: String,
}

/// An algorithm that cannot place the pool.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Refused {
    pub algorithm: &'static str,
    pub error: String,
    pub code: &'static str,
}

/// How far every two of `algorithms` agree on `nodes`, each made with `base`'s settings (its
/// algorithm replaced): exact where a pair allows it, else on the generated keys. Work is
/// capped at [`limits::MAX_COMPARE_WORK`] algorithm × key lookups.
pub fn matrix(
    base: &super::Options,
    nodes: &[crate::NodeSpec],
    algorithms: &[super::Algorithm],
    prefix: &str,
    count: usize,
) -> Result<Matrix, Error> {
    super::check_distinct(algorithms)?;
    let work = (algorithms.len() as u64).saturating_mul(count as u64);
    limits::check("algorithms × keys to compare for agreement", work, limits::MAX_COMPARE_WORK)?;
    limits::check_generated(prefix, count)?;
    let mut made: Vec<Cluster> = Vec::new();
    let mut refused = Vec::new();
    for &algorithm in algorithms {
        let built = Cluster::new(super::Options { algorithm, ..base.clone() }, nodes.to_vec())
            .and_then(|c| c.check_lookups(count).map(|()| c));
        match built {
            Ok(c) => made.push(c),
            Err(e) => refused.push(Refused { algorithm: algorithm.name(), error: e.to_string(), code: e.code() }),
        }
    }
    // Each placement's answers, once, as indices into one list of names.
    let mut names: Vec<String> = Vec::new();
    let mut owners: Vec<Vec<u32>> = Vec::with_capacity(made.len());
    for c in &made {
        let mut row = Vec::with_capacity(count);
        let mut failed = None;
        migration::for_each_generated(prefix, count, |_, key| match answer(c, key) {
            Ok(name) => {
                let i = names.iter().position(|n| n == name).unwrap_or_else(|| {
                    names.push(name.to_string());
                    names.len() - 1
                });
                row.push(i as u32);
            }
            Err(e) => failed = failed.take().or(Some(e)),
        });
        if let Some(e) = failed {
            return Err(e);
        }
        owners.push(row);
    }
    let n = made.len();
    let mut disagree = vec![vec![0.0; n]; n];
    let mut exact_cells = vec![vec![true; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            let (share, is_exact) = match exact_share(&made[i], &made[j])? {
                Some(share) => (share, true),
                None => {
                    let apart = owners[i].iter().zip(&owners[j]).filter(|(x, y)| x != y).count();
                    (if count == 0 { 0.0 } else { apart as f64 / count as f64 }, false)
                }
            };
            disagree[i][j] = share;
            disagree[j][i] = share;
            exact_cells[i][j] = is_exact;
            exact_cells[j][i] = is_exact;
        }
    }
    let groups = groups(&made, &disagree, &exact_cells, count);
    let pair = (n > 0).then(|| (1..n).find(|&j| disagree[0][j] > 0.0)).flatten();
    Ok(Matrix {
        algorithms: made.iter().map(|c| c.algorithm().name()).collect(),
        labels: made.iter().map(|c| c.algorithm().entry().label).collect(),
        pair: pair.map(|j| [made[0].algorithm().name(), made[j].algorithm().name()]),
        groups,
        disagree,
        exact: exact_cells,
        keys: count,
        refused,
    })
}

/// The matrix's compatible groups: each algorithm with those after it that it agrees with
/// on every key (agreement on every key is an equivalence: the same server for each key).
fn groups(made: &[Cluster], disagree: &[Vec<f64>], exact: &[Vec<bool>], keys: usize) -> Vec<Group> {
    let mut placed = vec![false; made.len()];
    let mut out = Vec::new();
    for i in 0..made.len() {
        if placed[i] {
            continue;
        }
        let members: Vec<usize> = (i..made.len()).filter(|&j| j == i || disagree[i][j] == 0.0).collect();
        if members.len() < 2 {
            continue;
        }
        for &j in &members {
            placed[j] = true;
        }
        let all_exact = members.iter().all(|&a| members.iter().all(|&b| exact[a][b]));
        let labels: Vec<&str> = members.iter().map(|&j| made[j].algorithm().entry().label).collect();
        let of = if all_exact {
            "Every key".to_string()
        } else {
            format!("Each of {} keys", crate::decimal::thousands(keys as u64))
        };
        out.push(Group {
            algorithms: members.iter().map(|&j| made[j].algorithm().name()).collect(),
            exact: all_exact,
            // Semicolons: labels have commas of their own.
            text: format!("{of} to the same server: {}.", labels.join("; ")),
        });
    }
    out
}

fn recipe_differences<'r>(
    a: &'r Recipe,
    b: &'r Recipe,
) -> impl Iterator<Item = (&'static str, &'static str, &'static str)> + 'r {
    a.steps().into_iter().zip(b.steps()).filter(|((_, x), (_, y))| x != y).map(|((step, x), (_, y))| (step, x, y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::{Algorithm, Options};
    use crate::NodeSpec;

    fn pool(names: &[&str]) -> Vec<NodeSpec> {
        names.iter().map(|n| NodeSpec::new(*n)).collect()
    }

    fn cluster(algorithm: Algorithm, nodes: &[&str]) -> Cluster {
        Cluster::new(Options::new(algorithm), pool(nodes)).unwrap()
    }

    const POOL: [&str; 3] = ["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"];

    #[test]
    fn a_placement_agrees_with_itself_exactly_and_gives_no_reasons() {
        let a = cluster(Algorithm::Libketama, &POOL);
        let got = agreement(&a, &a.clone(), &Keys::Exact { prefix: "k".into(), count: 10 }).unwrap();
        assert_eq!((got.disagree, got.exact, got.pairs.len(), got.reasons.len()), (0.0, true, 0, 0));
    }

    #[test]
    fn exact_where_the_key_mapping_is_the_same_and_close_to_the_keys() {
        // A ring with vnodes 40 and 160 hashes keys the same way: exact.
        let mut o = Options::new(Algorithm::Ring);
        o.config.vnodes = 40;
        let a = Cluster::new(o.clone(), pool(&POOL)).unwrap();
        o.config.vnodes = 160;
        let b = Cluster::new(o, pool(&POOL)).unwrap();
        let exact = agreement(&a, &b, &Keys::Exact { prefix: "k".into(), count: 0 }).unwrap();
        assert!(exact.exact && exact.disagree > 0.0 && exact.disagree < 1.0);
        let total: f64 = exact.pairs.iter().map(|p| p.share).sum();
        assert!((total - exact.disagree).abs() < 1e-12, "the pairs make up the whole disagreement");
        assert!(exact.pairs.iter().all(|p| p.a != p.b));
        let sampled = agreement(&a, &b, &Keys::Generated { prefix: "k".into(), count: 20_000 }).unwrap();
        assert!(!sampled.exact);
        assert!((sampled.disagree - exact.disagree).abs() < 0.02, "{} vs {}", sampled.disagree, exact.disagree);
        assert_eq!(exact.reasons.len(), 1, "the vnodes option: {:?}", exact.reasons);
        assert_eq!(exact.reasons[0].step, "option");
    }

    #[test]
    fn the_sample_counts_each_key_placed_apart() {
        let a = cluster(Algorithm::Memjs, &POOL);
        let b = cluster(Algorithm::SpymemcachedNative, &POOL);
        let keys: Vec<String> = (0..500).map(|i| format!("user:{i}")).collect();
        let got = agreement(&a, &b, &Keys::List(keys.clone())).unwrap();
        let apart = keys.iter().filter(|k| a.locate(k).unwrap() != b.locate(k).unwrap()).count();
        assert_eq!(got.disagree, apart as f64 / 500.0);
        assert_eq!(got.keys, 500);
        let steps: Vec<&str> = got.reasons.iter().map(|r| r.step.as_str()).collect();
        assert_eq!(steps, ["key hash", "key space"], "both are hash % n over the list: the hash and its width differ");
    }

    #[test]
    fn clients_that_hash_keys_alike_compare_exactly_and_the_sample_agrees() {
        // libketama and spymemcached's ketama: both MD5's first word, 160 points of "ip:port-i".
        for (a, b) in [
            (Algorithm::Libketama, Algorithm::SpymemcachedKetama),
            (Algorithm::Libketama, Algorithm::LibmemcachedWeighted),
            (Algorithm::NpmHashring, Algorithm::LibmemcachedKetama),
        ] {
            let (x, y) = (cluster(a, &POOL), cluster(b, &POOL));
            let exact = agreement(&x, &y, &Keys::Exact { prefix: "k".into(), count: 0 }).unwrap();
            assert!(exact.exact, "{a:?} {b:?}");
            let keys: Vec<String> = (0..20_000).map(|i| format!("user:{i}")).collect();
            let apart = keys.iter().filter(|k| x.locate(k).unwrap() != y.locate(k).unwrap()).count();
            let sampled = apart as f64 / keys.len() as f64;
            assert!((sampled - exact.disagree).abs() < 0.015, "{a:?} {b:?}: {sampled} vs {}", exact.disagree);
        }
    }

    #[test]
    fn too_many_keys_are_refused() {
        let a = cluster(Algorithm::Dalli, &POOL);
        let n = limits::MAX_COMPARE_WORK as usize + 1;
        let e = agreement(&a, &a, &Keys::Generated { prefix: "k".into(), count: n }).unwrap_err();
        assert_eq!(e.code(), "too-large");
    }
}
