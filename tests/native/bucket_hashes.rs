//! The bucket hashes' defining claims, from their papers, with proptest: minimal disruption on
//! a join and on every removal each one supports, balance within the binomial spread their
//! uniformity claims imply, and re-adding the last removed node restoring the placement
//! where the paper says it does (AnchorHash's and MementoHash's LIFO restore, DxHash's
//! set-only lookups). Owners come from `Cluster::locate`; what they are compared with is
//! worked out here from the previous states and the paper's claim, never from the engine.
//! JumpBackHash is also recomputed here from the paper's description, bit by bit.

use proptest::prelude::*;
use ringlab::algo::papers::binomial::binomial_hash;
use ringlab::algo::papers::flip::flip_hash;
use ringlab::algo::papers::jumpback::jump_back_hash;
use ringlab::algo::papers::power::power_hash;
use ringlab::algo::{Algorithm, Cluster, OptionValue, Options};
use std::collections::BTreeMap;
use twox_hash::XxHash3_64;

const STATEFUL: [Algorithm; 3] = [Algorithm::Anchor, Algorithm::Dx, Algorithm::Memento];

fn keys(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("key:{i}")).collect()
}

fn owners(c: &Cluster, keys: &[String]) -> Vec<String> {
    keys.iter().map(|k| c.locate(k).unwrap().to_string()).collect()
}

fn cluster(algorithm: Algorithm, names: &[String]) -> Cluster {
    let mut o = Options::new(algorithm);
    o.set("capacity", OptionValue::Whole(64)).unwrap();
    Cluster::new(o, names.iter().map(String::as_str)).unwrap()
}

/// Every count within `mean ± 5·√mean` (for `k` keys thrown uniformly at `n` buckets each
/// count is Binomial(k, 1/n); 5 σ fails about once in 3·10⁶ buckets).
#[track_caller]
fn uniform(counts: &[usize], what: &str) {
    let total: usize = counts.iter().sum();
    let mean = total as f64 / counts.len() as f64;
    let slack = 5.0 * mean.sqrt();
    for (b, &c) in counts.iter().enumerate() {
        assert!((c as f64 - mean).abs() <= slack, "{what}: bucket {b} has {c} keys, mean {mean:.1}");
    }
}

#[derive(Clone, Debug)]
enum Step {
    Add,
    /// Remove the node at this index (mod the node count).
    Remove(usize),
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(prop_oneof![1 => Just(Step::Add), 2 => (0usize..64).prop_map(Step::Remove)], 1..16)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// **AnchorHash, DxHash, MementoHash**: any node may leave. A join moves keys only onto
    /// the joiner, a removal only off the leaver (minimal disruption, each paper's main
    /// theorem); a node added right after removals takes the last removed one's place and
    /// every key returns to where it was before that removal (AnchorHash's ADDBUCKET undoes
    /// the last REMOVEBUCKET; MementoHash restores the last removed bucket; DxHash's lookup
    /// depends only on the active set and the add takes the last removed bucket).
    #[test]
    fn stateful_hashes_move_only_what_changed_and_restore_on_readd(n in 2usize..30, steps in steps()) {
        let keys = keys(1500);
        for algorithm in STATEFUL {
            let names: Vec<String> = (0..n).map(|i| format!("node-{i}")).collect();
            let mut c = cluster(algorithm, &names);
            let mut before = owners(&c, &keys);
            // The removals not yet undone: the name and the owners just before it left.
            let mut undo: Vec<(String, Vec<String>)> = Vec::new();
            let mut fresh = 0;
            for step in &steps {
                match step {
                    Step::Remove(i) if c.nodes().len() > 1 => {
                        let name = c.nodes()[i % c.nodes().len()].name.clone();
                        c.remove(&name).unwrap();
                        let after = owners(&c, &keys);
                        for (b, a) in before.iter().zip(&after) {
                            prop_assert!(b == a || *b == name, "{}: a key moved {b} → {a}, not off {name}", algorithm.name());
                            prop_assert!(*a != name);
                        }
                        undo.push((name, before));
                        before = after;
                    }
                    Step::Remove(_) => {}
                    Step::Add => {
                        let name = format!("new-{fresh}");
                        fresh += 1;
                        c.add(name.as_str().into()).unwrap();
                        let after = owners(&c, &keys);
                        for (b, a) in before.iter().zip(&after) {
                            prop_assert!(b == a || *a == name, "{}: a key moved {b} → {a}, not onto {name}", algorithm.name());
                        }
                        if let Some((gone, then)) = undo.pop() {
                            let rename = |owners: &[String]| -> Vec<String> {
                                owners.iter().map(|o| if *o == gone { name.clone() } else { o.clone() }).collect()
                            };
                            prop_assert_eq!(&after, &rename(&then), "{}: re-adding did not restore {}'s keys", algorithm.name(), gone);
                            // The joiner stands for the node it replaced in the older snapshots too.
                            for (_, older) in &mut undo {
                                *older = rename(older);
                            }
                        }
                        before = after;
                    }
                }
            }
        }
    }

    /// **DxHash** is stateless for removals (the paper): the same nodes removed in two orders
    /// give the same owner for every key.
    #[test]
    fn dx_lookups_depend_only_on_the_working_set(n in 4usize..40, seed in any::<u64>()) {
        let names: Vec<String> = (0..n).map(|i| format!("node-{i}")).collect();
        let gone: Vec<&String> = names.iter().enumerate().filter(|(i, _)| (seed >> (i % 64)) & 1 == 1).map(|(_, s)| s).take(n - 1).collect();
        let (mut forward, mut backward) = (cluster(Algorithm::Dx, &names), cluster(Algorithm::Dx, &names));
        for g in &gone {
            forward.remove(g).unwrap();
        }
        for g in gone.iter().rev() {
            backward.remove(g).unwrap();
        }
        let keys = keys(1000);
        prop_assert_eq!(owners(&forward, &keys), owners(&backward, &keys));
    }

    /// **JumpBackHash, FlipHash, BinomialHash, PowerCH** (and MementoHash without removals:
    /// jump hash): buckets `0..n`; growing to `n + 1` moves a key only into bucket `n`, the
    /// monotonicity each paper proves; shrinking back is the same function of `n`.
    #[test]
    fn counted_hashes_grow_only_into_the_new_bucket(n in 1u32..2000, seed in any::<u64>()) {
        for (name, f) in counted() {
            for i in 0..300u64 {
                let key = XxHash3_64::oneshot_with_seed(seed, &i.to_le_bytes());
                let (a, b) = (f(key, n), f(key, n + 1));
                prop_assert!(a < n.max(1) && b < n + 1, "{name}: {a} of {n}, {b} of {}", n + 1);
                prop_assert!(a == b || b == n, "{name}: key {key:#x} moved {a} → {b} growing {n} → {}", n + 1);
            }
        }
    }
}

/// A bucket hash of a key hash among `n` buckets.
type BucketRule = fn(u64, u32) -> u32;

fn counted() -> [(&'static str, BucketRule); 5] {
    [
        ("jump-back", jump_back_hash),
        ("flip", flip_hash),
        ("binomial", binomial_hash),
        ("power", power_hash),
        ("jump", ringlab::algo::papers::jump::jump_hash),
    ]
}

/// Each bucket hash spreads keys uniformly over its buckets (every paper's balance claim):
/// 60,000 keys, at bucket counts on and between powers of two, and AnchorHash's and DxHash's
/// working sets after removals, each count within 5 σ of the mean; a join takes about its
/// fair share `1/(n+1)`.
#[test]
fn every_bucket_hash_is_uniform() {
    let hashes: Vec<u64> = (0..60_000u64).map(|i| XxHash3_64::oneshot(format!("key:{i}").as_bytes())).collect();
    for (name, f) in counted() {
        for n in [2u32, 7, 10, 16, 17, 31, 100] {
            let mut counts = vec![0usize; n as usize];
            let mut moved = 0;
            for &h in &hashes {
                counts[f(h, n) as usize] += 1;
                moved += usize::from(f(h, n + 1) == n);
            }
            uniform(&counts, &format!("{name} with {n} buckets"));
            let ideal = hashes.len() as f64 / f64::from(n + 1);
            assert!(
                (moved as f64 - ideal).abs() <= 5.0 * ideal.sqrt(),
                "{name}: {moved} moved into bucket {n}, ideal {ideal:.0}"
            );
        }
    }
    let keys = keys(60_000);
    for algorithm in STATEFUL {
        let names: Vec<String> = (0..40).map(|i| format!("node-{i}")).collect();
        let mut c = cluster(algorithm, &names);
        for gone in ["node-3", "node-17", "node-0", "node-39", "node-22"] {
            c.remove(gone).unwrap();
        }
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for o in owners(&c, &keys) {
            *counts.entry(o).or_default() += 1;
        }
        assert_eq!(counts.len(), 35, "{}", algorithm.name());
        uniform(&counts.into_values().collect::<Vec<_>>(), algorithm.name());
    }
}

/// JumpBackHash recomputed from the paper's description, written out bit by bit: the ranges
/// `[2^m, 2^(m+1))` below `n` visited from the top, each entered when its bit of the first
/// draw's folded halves is set, its candidate from the half the parity of the remaining bits
/// picks, redrawn from `[0, 2^(m+1))` while at or above `n` (two 32-bit draws per SplitMix64
/// value), leaving the range on a draw below `2^m`.
fn jump_back_by_the_paper(key: u64, n: u32) -> u32 {
    if n <= 1 {
        return 0;
    }
    let mut state = key;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let v = next();
    let (low, high) = (v & 0xffff_ffff, v >> 32);
    let top = 31 - (n - 1).leading_zeros(); // the highest range index below n
    let entered: Vec<u32> = (0..=top).rev().filter(|m| ((low ^ high) >> m) & 1 == 1).collect();
    let mut queue: Vec<u64> = Vec::new();
    for (k, &m) in entered.iter().enumerate() {
        let remaining = entered.len() - k; // set bits from m down
        let half = if remaining % 2 == 1 { high } else { low };
        let base = 1u64 << m;
        let mut candidate = base + (half % base);
        loop {
            if candidate < u64::from(n) {
                return candidate as u32;
            }
            if queue.is_empty() {
                let w = next();
                queue = vec![w >> 32, w & 0xffff_ffff];
            }
            candidate = queue.pop().unwrap() % (2 * base);
            if candidate < base {
                queue.clear();
                break;
            }
        }
    }
    0
}

#[test]
fn jump_back_is_the_papers_walk_down_the_ranges() {
    for i in 0..20_000u64 {
        let key = XxHash3_64::oneshot(&i.to_le_bytes());
        for n in [1u32, 2, 3, 5, 8, 9, 100, 1000, 16_384] {
            assert_eq!(jump_back_hash(key, n), jump_back_by_the_paper(key, n), "{key:#x} {n}");
        }
    }
}
