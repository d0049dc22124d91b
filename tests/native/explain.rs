//! "Explain this key": the chain ends where `locate` and `replicas` answer, on every algorithm
//! with nodes up and down, and its steps are the algorithm's own values: hashes from an
//! independent implementation (twox-hash, md-5) and the real programs' recorded hashes,
//! points and slots (tests/real/fixtures).

use crate::every_entry::{names, options};
use ringlab::algo::explain::{self, Explanation, StepKind};
use ringlab::algo::papers::bounded;
use ringlab::algo::{Algorithm, Cluster, OptionValue, Options};
use ringlab::keys::KeySample;
use ringlab::NodeSpec;
use serde_json::Value;

const KETAMA_PUBLISHED: &str = include_str!("../real/fixtures/ketama_published.json");
const REDIS: &str = include_str!("../real/fixtures/redis_cluster.json");

fn keys() -> Vec<String> {
    (0..300).map(|i| format!("user:{i}")).chain(["", "{tag}x", "caf\u{e9}", "a\tb"].map(String::from)).collect()
}

fn step(chain: &Explanation, kind: StepKind) -> &str {
    match chain.steps.iter().find(|s| s.kind == kind) {
        Some(s) => &s.value,
        None => panic!("no {kind:?} step in {chain:#?}"),
    }
}

/// The chain's owner is `locate`'s (or the same error), its last step says so, and on
/// ringlab's ring its replicas are `replicas`'.
fn check_chains(cluster: &Cluster, what: &str) -> usize {
    let mut checked = 0;
    for key in keys() {
        let chain = cluster.explain(&key, 3).unwrap();
        let last = chain.steps.last().expect("a chain has steps");
        match cluster.locate(&key) {
            Ok(owner) => {
                assert_eq!(chain.owner.as_deref(), Some(owner), "{what} {key:?}");
                assert_eq!(chain.owner_index, Some(cluster.locate_index(&key).unwrap()), "{what} {key:?}");
                assert_eq!(chain.error, None);
                let owner_step = chain.steps.iter().rfind(|s| s.kind == StepKind::Owner).unwrap();
                assert_eq!(owner_step.value, owner, "{what} {key:?}");
                assert_eq!(owner_step.at.node, chain.owner_index);
            }
            Err(e) => {
                assert_eq!(chain.owner, None, "{what} {key:?}");
                assert_eq!(chain.error, Some(e.code()), "{what} {key:?}");
                assert_eq!(last.kind, StepKind::Unavailable);
                assert_eq!(last.value, e.to_string());
            }
        }
        match cluster.as_ring() {
            Some(ring) if chain.owner.is_some() => {
                let expected: Vec<String> = ring.replicas(&key, 3).unwrap().iter().map(|s| s.to_string()).collect();
                assert_eq!(chain.replicas.as_ref(), Some(&expected), "{what} {key:?}");
                assert_eq!(last.kind, StepKind::Replicas);
            }
            _ => assert_eq!(chain.replicas, None, "{what} {key:?}"),
        }
        for s in &chain.steps {
            assert!(s.at.fraction.is_none_or(|f| (0.0..1.0).contains(&f)), "{what} {key:?} {s:?}");
            assert!(s.at.node.is_none_or(|n| n < cluster.nodes().len()), "{what} {key:?} {s:?}");
        }
        checked += 1;
    }
    checked
}

#[test]
fn every_algorithm_s_chain_ends_at_locate_and_replicas_with_nodes_up_and_down() {
    let mut checked = 0;
    for algorithm in Algorithm::ALL {
        let names = names(5);
        let mut cluster = Cluster::new(options(algorithm), names.iter().map(|s| s.as_str())).unwrap();
        checked += check_chains(&cluster, algorithm.name());
        // One down, two down, all down (where the algorithm has down nodes).
        for down in [&[1usize][..], &[0, 3], &[0, 1, 2, 3, 4]] {
            let mut marked = cluster.clone();
            if down.iter().all(|&d| marked.set_down(&names[d], true).is_ok()) {
                checked += check_chains(&marked, &format!("{} down {down:?}", algorithm.name()));
            }
        }
        // No nodes: explained as the empty-ring error, not a panic.
        for name in names.iter().rev() {
            if cluster.remove(name).is_err() {
                break;
            }
        }
        if cluster.nodes().is_empty() {
            checked += check_chains(&cluster, &format!("{} empty", algorithm.name()));
        }
    }
    // 39 algorithms, at least 3 states each, 304 keys.
    assert!(checked > Algorithm::ALL.len() * 3 * 304, "checked {checked} chains");
}

#[test]
fn a_key_over_the_cap_is_refused() {
    let cluster = Cluster::new(options(Algorithm::Ring), ["a", "b"]).unwrap();
    let key = "k".repeat(ringlab::limits::MAX_KEY_LEN + 1);
    assert_eq!(cluster.explain(&key, 0).unwrap_err().code(), "too-large");
    assert!(cluster.explain("k".repeat(ringlab::limits::MAX_KEY_LEN), 0).is_ok());
}

/// ringlab's ring: the hash is XXH3 of the key's bytes (twox-hash, not the code under test),
/// the position its low 32 bits, the point the first at or after it in the ring's own points,
/// and the label the one that hashes to the point.
#[test]
fn ring_steps_are_the_hash_the_position_the_point_and_its_label() {
    let cluster = Cluster::new(options(Algorithm::Ring), names(4).iter().map(|s| s.as_str())).unwrap();
    let ring = cluster.as_ring().unwrap();
    for key in keys() {
        let chain = cluster.explain(&key, 0).unwrap();
        let hash = twox_hash::XxHash3_64::oneshot(key.as_bytes());
        assert_eq!(step(&chain, StepKind::Hash), format!("0x{hash:016x}"));
        let position = hash & 0xffff_ffff;
        assert_eq!(step(&chain, StepKind::Position), format!("0x{position:08x}"));
        let points: Vec<(u64, usize)> = (0..ring.point_count()).map(|i| ring.point(i)).collect();
        let i = points.iter().position(|p| p.0 >= position).unwrap_or(0);
        assert_eq!(step(&chain, StepKind::Point), format!("point {i} of {} at 0x{:08x}", points.len(), points[i].0));
        let label = step(&chain, StepKind::Label);
        let (name, v) = label.rsplit_once('#').unwrap();
        assert_eq!(name, ring.nodes()[points[i].1].name);
        let hashed = twox_hash::XxHash3_64::oneshot(label.as_bytes()) & 0xffff_ffff;
        assert_eq!(hashed, points[i].0, "{label} (vnode {v}) hashes to its point");
        assert_eq!(chain.owner.as_deref(), Some(name));
    }
}

/// A down owner on ringlab's ring: the walk names each point passed, each of a down node,
/// and stops at the first point of an up node, which serves.
#[test]
fn ring_walk_passes_only_down_nodes_points() {
    let names = names(4);
    let mut cluster = Cluster::new(options(Algorithm::Ring), names.iter().map(|s| s.as_str())).unwrap();
    cluster.set_down(&names[0], true).unwrap();
    cluster.set_down(&names[2], true).unwrap();
    let mut walked = 0;
    for key in keys() {
        let chain = cluster.explain(&key, 2).unwrap();
        let Some(c) = chain.steps.iter().position(|s| s.kind == StepKind::Candidate) else { continue };
        walked += 1;
        let down_node = chain.steps[c].at.node.unwrap();
        assert!(cluster.is_down_at(down_node));
        let after = &chain.steps[c + 1..];
        let stop = after.iter().position(|s| s.kind == StepKind::Point).unwrap();
        assert!(after[..stop]
            .iter()
            .all(|s| s.kind == StepKind::Down && s.at.node.is_none_or(|n| cluster.is_down_at(n))));
        assert_eq!(after[stop].at.node, chain.owner_index);
        assert!(!cluster.is_down_at(chain.owner_index.unwrap()));
    }
    assert!(walked > 100, "about half the keys had a down owner: {walked}");
}

fn md5_word0(bytes: &[u8]) -> u64 {
    use md5::Digest;
    let d = md5::Md5::digest(bytes);
    u64::from(u32::from_le_bytes([d[0], d[1], d[2], d[3]]))
}

/// libketama: the position and the point are the ones the published ketama vectors record
/// (`ketama_hashi` and the point found, from libketama's own tests and MediaWiki's), and the
/// label's MD5 word is the point.
#[test]
fn libketama_steps_are_the_published_hashes_and_points() {
    let f: Value = serde_json::from_str(KETAMA_PUBLISHED).unwrap();
    let mut checked = 0;
    for vector in f["vectors"].as_array().unwrap() {
        let servers: Vec<NodeSpec> = vector["servers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|sv| NodeSpec::new(sv["name"].as_str().unwrap()).weight(sv["weight"].as_f64().unwrap()))
            .collect();
        let cluster = Cluster::new(Options::new(Algorithm::Libketama), servers).unwrap();
        for k in vector["keys"].as_array().unwrap() {
            let key = k["key"].as_str().unwrap();
            let chain = cluster.explain(key, 0).unwrap();
            let (hash, point) = (k["hash"].as_u64().unwrap(), k["point"].as_u64().unwrap());
            assert!(step(&chain, StepKind::Position).ends_with(&format!("md5 0x{hash:08x}")), "{key:?} {chain:#?}");
            assert!(step(&chain, StepKind::Point).ends_with(&format!("at 0x{point:08x}")), "{key:?}");
            assert_eq!(chain.owner.as_deref(), k["server"].as_str());
            // "10.0.1.1:11211-37 (MD5 word 2)": that word of MD5("10.0.1.1:11211-37") is the point.
            let label = step(&chain, StepKind::Label);
            let (text, word) = label.split_once(" (MD5 word ").unwrap();
            let word: usize = word.trim_end_matches(')').parse().unwrap();
            assert!(text.starts_with(k["server"].as_str().unwrap()));
            use md5::Digest;
            let d = md5::Md5::digest(text.as_bytes());
            let value = u32::from_le_bytes(d[4 * word..4 * word + 4].try_into().unwrap());
            assert_eq!(u64::from(value), point, "{label}");
            checked += 1;
        }
    }
    assert!(checked >= 10, "checked {checked}");
    // And MD5's first word of the key (md-5 directly) is the position for any key.
    let cluster = Cluster::new(Options::new(Algorithm::Libketama), names(3).iter().map(|s| s.as_str())).unwrap();
    for key in keys() {
        let chain = cluster.explain(&key, 0).unwrap();
        assert!(step(&chain, StepKind::Position).ends_with(&format!("0x{:08x}", md5_word0(key.as_bytes()))));
    }
}

/// Redis Cluster: the slot step is what `CLUSTER KEYSLOT` answered, hash tags included, and
/// the bytes step names the tag.
#[test]
fn redis_slot_steps_are_what_redis_answered() {
    let f: Value = serde_json::from_str(REDIS).unwrap();
    let cluster = Cluster::new(Options::new(Algorithm::RedisCluster), names(3).iter().map(|s| s.as_str())).unwrap();
    let slots = f["keyslots"].as_array().unwrap();
    for k in slots {
        let key = k["key"].as_str().unwrap();
        let chain = cluster.explain(key, 0).unwrap();
        assert_eq!(step(&chain, StepKind::Slot), k["slot"].as_u64().unwrap().to_string(), "{key:?}");
    }
    assert!(slots.len() > 3000);
    let chain = cluster.explain("{user1000}.following", 0).unwrap();
    assert_eq!(step(&chain, StepKind::Bytes), "\"user1000\" (8 bytes)");
    // The spec's CRC16 check value: CRC16("123456789") = 0x31C3, slot 12739.
    let chain = cluster.explain("123456789", 0).unwrap();
    assert_eq!(step(&chain, StepKind::Hash), "0x31c3 = 12739");
}

/// jump hash: the bucket step is the jump of XXH3 (twox-hash) into the bucket count, by the
/// paper's loop written here.
#[test]
fn jump_steps_are_xxh3_and_the_paper_s_jump() {
    fn jump(mut key: u64, buckets: i64) -> i64 {
        let (mut b, mut j) = (-1i64, 0i64);
        while j < buckets {
            b = j;
            key = key.wrapping_mul(2862933555777941757).wrapping_add(1);
            j = ((b + 1) as f64 * ((1u64 << 31) as f64 / ((key >> 33) + 1) as f64)) as i64;
        }
        b
    }
    let cluster = Cluster::new(Options::new(Algorithm::Jump), names(7).iter().map(|s| s.as_str())).unwrap();
    for key in keys() {
        let chain = cluster.explain(&key, 0).unwrap();
        let h = twox_hash::XxHash3_64::oneshot(key.as_bytes());
        assert_eq!(step(&chain, StepKind::Hash), format!("0x{h:016x}"));
        assert_eq!(step(&chain, StepKind::Bucket), jump(h, 7).to_string());
    }
}

/// Two clients of one pool: the chains part at the first step whose value differs, and agree
/// to the end on a placement compared with itself.
#[test]
fn pairs_part_at_the_first_differing_step() {
    let names = names(4);
    let a = Cluster::new(Options::new(Algorithm::Libketama), names.iter().map(|s| s.as_str())).unwrap();
    let b = Cluster::new(Options::new(Algorithm::LibmemcachedWeighted), names.iter().map(|s| s.as_str())).unwrap();
    // spymemcached's ketama labels and counts points as libketama does for 4 servers of weight 1.
    let spy = Cluster::new(Options::new(Algorithm::SpymemcachedKetama), names.iter().map(|s| s.as_str())).unwrap();
    let c = Cluster::new(Options::new(Algorithm::Groupcache), names.iter().map(|s| s.as_str())).unwrap();
    for key in keys() {
        let same = explain::pair(&a, &a, &key, 0).unwrap();
        assert_eq!((same.parts_at, same.agree), (None, true));
        let twins = explain::pair(&a, &spy, &key, 0).unwrap();
        assert_eq!((twins.parts_at, twins.agree), (None, true), "{key:?}");
        let p = explain::pair(&a, &b, &key, 0).unwrap();
        let at = p.parts_at.expect("other labels give other points");
        assert!(at > 0, "both hash the key's bytes the same way first");
        for i in 0..at {
            assert_eq!((p.a.steps[i].kind, &p.a.steps[i].value), (p.b.steps[i].kind, &p.b.steps[i].value));
        }
        assert_eq!(p.agree, p.a.owner == p.b.owner);
        let q = explain::pair(&a, &c, &key, 0).unwrap();
        assert_eq!(q.parts_at, Some(1), "MD5 and CRC-32 part at the key's position");
    }
}

/// Every algorithm explains in its own terms: no chain is the generic default (a single
/// "where the key lands" position before the engine's own steps), and with 5 nodes every
/// algorithm shows a step of its structure (a hash, slot, bucket, entry or point).
#[test]
fn no_algorithm_explains_with_only_the_generic_position() {
    let own = [StepKind::Hash, StepKind::Slot, StepKind::Bucket, StepKind::Entry, StepKind::Point];
    let engine = [StepKind::Candidate, StepKind::Down, StepKind::Owner, StepKind::Replicas, StepKind::Unavailable];
    let mut generic = Vec::new();
    let mut chains = 0;
    for algorithm in Algorithm::ALL {
        for n in [1, 5] {
            let cluster = Cluster::new(options(algorithm), names(n).iter().map(|s| s.as_str())).unwrap();
            let mut shows_own = false;
            for key in keys() {
                let chain = cluster.explain(&key, 0).unwrap();
                let steps: Vec<_> = chain.steps.iter().filter(|s| !engine.contains(&s.kind)).collect();
                if steps.len() == 1 && steps[0].kind == StepKind::Position && steps[0].label == "where the key lands" {
                    generic.push(format!("{} ({n} nodes)", algorithm.name()));
                    break;
                }
                shows_own |= chain.steps.iter().any(|s| own.contains(&s.kind));
                chains += 1;
            }
            if n == 5 && !shows_own {
                generic.push(format!("{} (5 nodes, no step of its own)", algorithm.name()));
            }
        }
    }
    assert!(chains > 0);
    assert!(generic.is_empty(), "explained only by where the key lands: {generic:?}");
}

fn xxh3(bytes: &[u8]) -> u64 {
    twox_hash::XxHash3_64::oneshot(bytes)
}

/// The values of the chain's steps of `kind`, in order.
fn values(chain: &Explanation, kind: StepKind) -> Vec<&str> {
    chain.steps.iter().filter(|s| s.kind == kind).map(|s| s.value.as_str()).collect()
}

/// The jump-like bucket hashes: the hash is XXH3 of the key (twox-hash), the last bucket step
/// is the published function of it (the file's own, tested against the authors' vectors),
/// points at that node, and every named try is a bucket the rule could reach.
#[test]
fn counted_bucket_hashes_explain_the_hash_the_tries_and_the_bucket() {
    use ringlab::algo::papers::{binomial, flip, jumpback, power};
    type Rule = fn(u64, u32) -> u32;
    let rules: [(Algorithm, Rule); 4] = [
        (Algorithm::JumpBack, jumpback::jump_back_hash),
        (Algorithm::Flip, flip::flip_hash),
        (Algorithm::Binomial, binomial::binomial_hash),
        (Algorithm::Power, power::power_hash),
    ];
    let mut checked = 0;
    for (algorithm, rule) in rules {
        for n in [1u32, 2, 7, 33, 100] {
            let cluster = Cluster::new(options(algorithm), names(n as usize).iter().map(|s| s.as_str())).unwrap();
            let mut tried = 0;
            for key in keys() {
                let chain = cluster.explain(&key, 0).unwrap();
                let h = xxh3(key.as_bytes());
                assert_eq!(step(&chain, StepKind::Hash), format!("0x{h:016x}"), "{algorithm:?} {key:?}");
                let buckets = values(&chain, StepKind::Bucket);
                assert_eq!(buckets.last().unwrap(), &rule(h, n).to_string(), "{algorithm:?} {n} {key:?}");
                let last = chain.steps.iter().rfind(|s| s.kind == StepKind::Bucket).unwrap();
                assert_eq!(last.at.node, Some(rule(h, n) as usize));
                assert!(buckets.len() <= explain::MAX_WALK_STEPS + 2, "{chain:#?}");
                let enclosing = u64::from(n.next_power_of_two());
                for b in &buckets[..buckets.len() - 1] {
                    if let Ok(b) = b.split(' ').next().unwrap().parse::<u64>() {
                        assert!(b < enclosing.max(1), "{algorithm:?} {n} {key:?}: {b}");
                        assert_eq!(b < u64::from(n), !buckets.contains(&format!("{b} (not one of the {n})").as_str()));
                    }
                }
                tried += buckets.len() - 1;
                checked += 1;
            }
            assert!(n == 1 || tried > 0, "{algorithm:?} {n}: the tries are named");
        }
    }
    assert_eq!(checked, 4 * 5 * keys().len());
}

/// SplitMix64's next value from `state` (Vigna's constants), written here.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The paper's jump hash loop, written here.
fn jump(mut key: u64, buckets: i64) -> i64 {
    let (mut b, mut j) = (-1i64, 0i64);
    while j < buckets {
        b = j;
        key = key.wrapping_mul(2862933555777941757).wrapping_add(1);
        j = ((b + 1) as f64 * ((1u64 << 31) as f64 / ((key >> 33) + 1) as f64)) as i64;
    }
    b
}

/// AnchorHash, DxHash and MementoHash: the first bucket tried is the papers' first step,
/// computed here (AnchorHash: the hash mod the capacity; DxHash: the first SplitMix64 value
/// scaled onto the capacity; MementoHash: jump hash), the last is the bucket
/// `anchor::bucket`/`dx::bucket` answer on a fresh state, and after a removal every chain
/// still ends at `locate`'s node, the removed bucket's keys naming their rehash.
#[test]
fn stateful_bucket_hashes_explain_the_first_bucket_and_the_rehashes() {
    let capacity = 64u32;
    let mut checked = 0;
    for algorithm in [Algorithm::Anchor, Algorithm::Dx, Algorithm::Memento] {
        let mut o = options(algorithm);
        o.set("capacity", ringlab::algo::OptionValue::Whole(u64::from(capacity))).unwrap();
        let names = names(10);
        let mut cluster = Cluster::new(o, names.iter().map(|s| s.as_str())).unwrap();
        for key in keys() {
            let chain = cluster.explain(&key, 0).unwrap();
            let h = xxh3(key.as_bytes());
            assert_eq!(step(&chain, StepKind::Hash), format!("0x{h:016x}"));
            let buckets = values(&chain, StepKind::Bucket);
            let first: u64 = buckets[0].split(' ').next().unwrap().parse().unwrap();
            let last = *buckets.last().unwrap();
            match algorithm {
                Algorithm::Anchor => {
                    assert_eq!(first, h % u64::from(capacity));
                    assert_eq!(last, ringlab::algo::papers::anchor::bucket(key.as_bytes(), capacity, 10).to_string());
                }
                Algorithm::Dx => {
                    let mut s = h;
                    assert_eq!(first, ((u128::from(splitmix(&mut s)) * u128::from(capacity)) >> 64) as u64);
                    assert_eq!(last, ringlab::algo::papers::dx::bucket(key.as_bytes(), capacity, 10).to_string());
                }
                _ => {
                    assert_eq!(first as i64, jump(h, 10));
                    assert_eq!(buckets.len(), 2, "no removal: jump hash's bucket is the bucket");
                }
            }
            assert_eq!(chain.owner.as_deref(), Some(names[last.parse::<usize>().unwrap()].as_str()));
            checked += 1;
        }
        // A removal in the middle: its keys rehash (more than one try), to a working bucket.
        cluster.remove(&names[4]).unwrap();
        let mut rehashed = 0;
        for key in keys() {
            let chain = cluster.explain(&key, 0).unwrap();
            let buckets = values(&chain, StepKind::Bucket);
            let last = chain.steps.iter().rfind(|s| s.kind == StepKind::Bucket).unwrap();
            assert_eq!(last.at.node, chain.owner_index, "{algorithm:?} {key:?}");
            if buckets[0].starts_with("4 ") {
                assert!(buckets.len() > 2 || algorithm == Algorithm::Dx, "{chain:#?}");
                rehashed += 1;
            }
            checked += 1;
        }
        assert!(rehashed > 0 || algorithm != Algorithm::Memento, "{algorithm:?}");
    }
    assert_eq!(checked, 3 * 2 * keys().len());
}

/// Rendezvous: each named node's hash is XXH3 of its name, 0xff and the key (twox-hash), the
/// named scores are the highest `−w / ln u` computed here, in order, the rest counted, and
/// the highest wins.
#[test]
fn rendezvous_names_the_highest_scores_computed_here() {
    let names = names(20);
    let specs = names.iter().enumerate().map(|(i, n)| NodeSpec::new(n.as_str()).weight(1.0 + (i % 4) as f64));
    let cluster = Cluster::new(options(Algorithm::Rendezvous), specs).unwrap();
    for key in keys() {
        let chain = cluster.explain(&key, 0).unwrap();
        let mut scored: Vec<(f64, usize, u64)> = (0..names.len())
            .map(|i| {
                let bytes = [names[i].as_bytes(), &[0xff], key.as_bytes()].concat();
                let h = xxh3(&bytes);
                let u = ((h >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
                (-(1.0 + (i % 4) as f64) / u.ln(), i, h)
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        let hashes: Vec<_> = chain.steps.iter().filter(|s| s.kind == StepKind::Hash).collect();
        assert_eq!(hashes.len(), explain::MAX_SCORE_STEPS + 1, "8 named, then the count");
        for (s, &(_, i, h)) in hashes[..explain::MAX_SCORE_STEPS].iter().zip(&scored) {
            assert_eq!(s.at.node, Some(i), "{key:?}");
            assert!(s.value.starts_with(&format!("0x{h:016x} ")), "{key:?} {s:?}");
        }
        assert!(hashes[8].label.contains("12 more"));
        assert_eq!(step(&chain, StepKind::Candidate), names[scored[0].1]);
        assert_eq!(chain.owner.as_deref(), Some(names[scored[0].1].as_str()));
        assert!(step(&chain, StepKind::Bytes).starts_with(&format!("{:?} + 0xff + ", names[scored[0].1])));
    }
}

/// pymemcache: the winner is the server pymemcache 3.5.2 answered (the recorded fixture), and
/// each named score is MurmurHash3 (the murmur3 crate) of "host:port-key", characters & 0xff.
#[test]
fn pymemcache_scores_are_murmur3_and_the_winner_is_pymemcache_s() {
    let f: Value = serde_json::from_str(include_str!("../real/fixtures/pymemcache.json")).unwrap();
    let keys: Vec<&str> = f["keys"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect();
    let mut checked = 0;
    for case in f["cases"].as_array().unwrap() {
        let nodes: Vec<&str> = case["nodes"].as_array().unwrap().iter().map(|n| n[0].as_str().unwrap()).collect();
        let hashed: Vec<&str> = case["hasher_nodes"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
        let cluster = Cluster::new(Options::new(Algorithm::Pymemcache), nodes.iter().copied()).unwrap();
        for (key, owner) in keys.iter().zip(case["owners"].as_array().unwrap()) {
            let Ok(chain) = cluster.explain(key, 0) else { continue };
            let owner = owner.as_u64().unwrap() as usize;
            assert_eq!(step(&chain, StepKind::Candidate), nodes[owner], "{key:?}");
            for s in chain.steps.iter().filter(|s| s.kind == StepKind::Hash && s.at.node.is_some()) {
                let text: Vec<u8> =
                    format!("{}-{key}", hashed[s.at.node.unwrap()]).chars().map(|c| (c as u32 & 0xff) as u8).collect();
                let h = murmur3::murmur3_32(&mut text.as_slice(), 0).unwrap();
                assert_eq!(s.value, format!("0x{h:08x}"), "{key:?}");
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "checked {checked}");
}

/// Multi-probe: each named probe is XXH3 of the key with its seed (twox-hash), its point the
/// next node hash clockwise (XXH3 of each name, sorted here), and the closest of all 21 probes
/// wins.
#[test]
fn multi_probe_names_each_probe_s_point_and_the_closest() {
    let names = names(6);
    let cluster = Cluster::new(options(Algorithm::MultiProbe), names.iter().map(|s| s.as_str())).unwrap();
    let mut points: Vec<(u64, usize)> = names.iter().enumerate().map(|(i, n)| (xxh3(n.as_bytes()), i)).collect();
    points.sort();
    for key in keys() {
        let chain = cluster.explain(&key, 0).unwrap();
        let probes: Vec<(u64, u64, usize, usize)> = (0..21u64)
            .map(|seed| {
                let h = twox_hash::XxHash3_64::oneshot_with_seed(seed, key.as_bytes());
                let p = points.iter().position(|p| p.0 >= h).unwrap_or(0);
                (points[p].0.wrapping_sub(h), h, p, points[p].1)
            })
            .collect();
        let named: Vec<_> = chain.steps.iter().filter(|s| s.kind == StepKind::Hash).collect();
        assert_eq!(named.len(), explain::MAX_WALK_STEPS + 1);
        for (s, &(d, h, p, owner)) in named[..explain::MAX_WALK_STEPS].iter().zip(&probes) {
            assert_eq!(s.value, format!("0x{h:016x} → point {p} ({}), distance 0x{d:016x}", names[owner]));
        }
        let best = probes.iter().min_by(|a, b| a.0.cmp(&b.0).then(names[a.3].cmp(&names[b.3]))).unwrap();
        assert!(step(&chain, StepKind::Point).starts_with(&format!("point {} of 6 ", best.2)), "{key:?}");
        assert_eq!(chain.owner.as_deref(), Some(names[best.3].as_str()));
    }
}

/// Bounded loads: the capacity is ⌈(1 + ε)·keys / nodes⌉ computed here, the walk starts at
/// the ring's point, every node it passes is full (its load, counted here by locating the
/// whole key set, is the capacity) and it ends at the owner.
#[test]
fn bounded_load_walks_past_full_nodes_to_the_owner() {
    let mut o = options(Algorithm::BoundedLoad);
    o.set("epsilon", OptionValue::Number(0.0)).unwrap();
    let names = names(5);
    let cluster = Cluster::new(o.clone(), names.iter().map(|s| s.as_str())).unwrap();
    let set: Vec<String> = (0..400).map(|i| format!("k{i}")).collect();
    assert_eq!(bounded::keys(&o).keys, set);
    let mut load = [0usize; 5];
    for k in &set {
        load[cluster.locate_index(k).unwrap()] += 1;
    }
    let capacity = 400usize.div_ceil(5);
    let (mut walked, mut checked) = (0, 0);
    for key in set.iter().cloned().chain(keys()) {
        let chain = cluster.explain(&key, 0).unwrap();
        let loads: Vec<_> = chain.steps.iter().filter(|s| s.kind == StepKind::Load).collect();
        assert_eq!(loads[0].value, format!("⌈1 × 400 / 5⌉ = {capacity} keys"));
        let point = step(&chain, StepKind::Point);
        let first: usize = point.strip_prefix("point ").unwrap().split(' ').next().unwrap().parse().unwrap();
        let (last, passed) = loads[1..].split_last().unwrap();
        let mut more = 0;
        for (k, s) in passed.iter().enumerate() {
            if let Some(n) = s.label.strip_prefix("… and ") {
                more = n.split(' ').next().unwrap().parse().unwrap();
                continue;
            }
            assert!(s.value.starts_with(&format!("point {} at ", (first + k) % 200)), "{key:?} {s:?}");
            let node = s.at.node.unwrap();
            assert!(s.value.ends_with(&format!("{} ({} of {capacity} keys)", names[node], load[node])));
            assert_eq!(load[node], capacity, "a passed node is full: {key:?}");
            walked += 1;
        }
        let named = passed.len() - usize::from(more > 0);
        assert!(last.value.starts_with(&format!("point {} at ", (first + named + more) % 200)), "{key:?} {last:?}");
        assert_eq!(loads.last().unwrap().at.node, chain.owner_index);
        checked += 1;
    }
    assert!(walked > 50, "walked past {walked} full points");
    assert_eq!(checked, 400 + keys().len());
}

/// CRC-32 (ISO-HDLC, zlib's), bit by bit, written here.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// nginx 1.22 (tests/real/fixtures/nginx.json, every case): the hash is CRC-32 of the key
/// (written here); `consistent`: the point is the first at or after it among each server's
/// 160 × weight chained CRC-32 points (made here from `host \0 port prev`), its label hashes to
/// it; plain `hash`: the first try is `(CRC-32 >> 16) & 0x7fff` mod the total weight; and the
/// chain ends at the server real nginx answered, or says round robin where nginx went round
/// robin.
#[test]
fn nginx_steps_are_crc32_and_end_at_the_server_nginx_answered() {
    let f: Value = serde_json::from_str(include_str!("../real/fixtures/nginx.json")).unwrap();
    let keys: Vec<&str> = f["keys"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect();
    let mut checked = 0;
    for case in f["cases"].as_array().unwrap() {
        let cluster = ringlab::import::nginx::from_nginx_upstream(case["config"].as_str().unwrap()).unwrap();
        let servers: Vec<&str> = case["servers"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        let consistent = cluster.algorithm() == Algorithm::NginxConsistent;
        let mut points: Vec<(u32, usize)> = Vec::new();
        for (i, node) in cluster.nodes().iter().enumerate() {
            let (host, port) = match node.name.strip_prefix("unix:") {
                Some(path) => (path, ""),
                None => node.name.rsplit_once(':').unwrap(),
            };
            let mut prev = 0u32;
            for _ in 0..160 * node.weight as usize {
                prev = crc32(&[host.as_bytes(), &[0], port.as_bytes(), &prev.to_le_bytes()].concat());
                points.push((prev, i));
            }
        }
        points.sort_by_key(|p| p.0);
        points.dedup_by_key(|p| p.0);
        let fallback: Vec<&str> = case["fallback"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect();
        let answers = case["answers"].as_array().unwrap().iter().zip(&keys).map(|(a, k)| (*k, a.as_u64().unwrap()));
        let extra = case["extra"].as_array().unwrap().iter().map(|e| (e[0].as_str().unwrap(), e[1].as_u64().unwrap()));
        for (key, answer) in answers.chain(extra) {
            let chain = cluster.explain(key, 0).unwrap();
            let crc = crc32(key.as_bytes());
            if consistent {
                assert_eq!(step(&chain, StepKind::Hash), format!("0x{crc:08x}"), "{key:?}");
                let p = points.iter().position(|p| p.0 >= crc).unwrap_or(0);
                let point = chain.steps.iter().find(|s| s.kind == StepKind::Point).unwrap();
                assert_eq!(point.value, format!("point {p} of {} at 0x{:08x}", points.len(), points[p].0));
                assert_eq!(point.at.node, Some(points[p].1));
                assert!(step(&chain, StepKind::Label).ends_with(&format!(" of {}", servers[points[p].1])));
            } else {
                let first = (crc >> 16) & 0x7fff;
                assert_eq!(step(&chain, StepKind::Hash), first.to_string(), "{key:?}");
                let total: f64 = cluster.nodes().iter().map(|n| n.weight).sum();
                let bucket = step(&chain, StepKind::Bucket);
                assert!(bucket.starts_with(&format!("{first} % {total} = {} → ", u64::from(first) % total as u64)));
            }
            if fallback.contains(&key) {
                assert_eq!(chain.error, Some("unsupported"), "{key:?}");
                let last_down = chain.steps.iter().rfind(|s| s.kind == StepKind::Down).unwrap();
                assert!(last_down.value.contains("round robin"), "{chain:#?}");
            } else {
                let answer = servers[answer as usize];
                assert_eq!(chain.owner.as_deref(), Some(answer), "{} {key:?}", case["name"]);
                // The last try named (a point or a weight's server) is the server nginx answered.
                let tried = chain.steps.iter().rfind(|s| matches!(s.kind, StepKind::Point | StepKind::Bucket)).unwrap();
                assert!(tried.value.ends_with(answer) || tried.at.node == chain.owner_index, "{chain:#?}");
            }
            checked += 1;
        }
    }
    assert!(checked > 5000, "checked {checked}");
}

/// Bob Jenkins' integer hash with HAProxy's final multiply (intops.h), written here.
fn full_hash(mut a: u32) -> u32 {
    a = a.wrapping_add(0x7ed5_5d16).wrapping_add(a << 12);
    a = (a ^ 0xc761_c23c) ^ (a >> 19);
    a = a.wrapping_add(0x1656_67b1).wrapping_add(a << 5);
    a = a.wrapping_add(0xd3a2_646c) ^ (a << 9);
    a = a.wrapping_add(0xfd70_46c5).wrapping_add(a << 3);
    a = (a ^ 0xb55a_4f09) ^ (a >> 16);
    a.wrapping_mul(3_221_225_473)
}

/// HAProxy 2.6 (tests/real/fixtures/haproxy.json, every case): the hash is sdbm, djb2 or
/// crc32 of the key (written here; wt6 is not rewritten), then full_hash with avalanche;
/// consistent: the two points around it are the usable servers' `16 × weight` points at
/// `full_hash(id × 4096 + i)` with the ids HAProxy reported (puids), the closer (the one
/// before on a tie) labelled with its id; map-based: the entry is the hash mod the reduced
/// weights' sum; and every chain ends at the server HAProxy answered.
#[test]
fn haproxy_steps_are_its_hash_its_points_and_end_at_the_server_haproxy_answered() {
    use ringlab::algo::balancers::haproxy::{HaproxyFunction, HaproxyHash};
    let f: Value = serde_json::from_str(include_str!("../real/fixtures/haproxy.json")).unwrap();
    let keys: Vec<&str> = f["keys"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect();
    let (mut checked, mut ties) = (0, 0);
    for case in f["cases"].as_array().unwrap() {
        let cluster = ringlab::import::haproxy::from_haproxy_backend(case["config"].as_str().unwrap()).unwrap();
        let consistent = cluster.algorithm() == Algorithm::HaproxyConsistent;
        let servers: Vec<&str> = case["servers"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        let puids: Vec<u32> = case["puids"].as_array().unwrap().iter().map(|p| p.as_u64().unwrap() as u32).collect();
        let usable: Vec<usize> = (0..servers.len()).filter(|&i| !cluster.is_down(servers[i]).unwrap()).collect();
        let weight = |i: usize| cluster.nodes()[i].weight as u32;
        let mut points: Vec<(u32, usize)> = Vec::new();
        for &i in &usable {
            points.extend((0..16 * weight(i)).map(|j| (full_hash(puids[i] * 4096 + j), i)));
        }
        points.sort_by_key(|p| p.0);
        points.dedup_by_key(|p| p.0);
        let gcd = (0..servers.len()).map(weight).reduce(|mut g, mut w| {
            while w != 0 {
                (g, w) = (w, g % w);
            }
            g
        });
        let table: u32 = usable.iter().map(|&i| weight(i) / gcd.unwrap()).sum();
        let hash = HaproxyHash::of(cluster.options());
        let (function, avalanche) = hash.map_or((HaproxyFunction::Sdbm, consistent), |h| (h.function, h.avalanche));
        let answers = case["answers"].as_array().unwrap().iter().zip(&keys).map(|(a, k)| (*k, a.as_u64().unwrap()));
        let extra = case["extra"].as_array().unwrap().iter().map(|e| (e[0].as_str().unwrap(), e[1].as_u64().unwrap()));
        for (key, answer) in answers.chain(extra) {
            let chain = cluster.explain(key, 0).unwrap();
            let b = key.as_bytes();
            let raw = match function {
                HaproxyFunction::Sdbm => {
                    b.iter().fold(0u32, |h, &c| u32::from(c).wrapping_add(h << 6).wrapping_add(h << 16).wrapping_sub(h))
                }
                HaproxyFunction::Djb2 => b.iter().fold(5381u32, |h, &c| h.wrapping_mul(33).wrapping_add(u32::from(c))),
                HaproxyFunction::Crc32 => crc32(b),
                HaproxyFunction::Wt6 => step(&chain, StepKind::Hash).parse::<Hex>().unwrap().0,
            };
            let h = if avalanche { full_hash(raw) } else { raw };
            let hashes = values(&chain, StepKind::Hash);
            assert_eq!(hashes, if avalanche { vec![hx(raw), hx(h)] } else { vec![hx(raw)] }, "{key:?}");
            if consistent {
                let next = points.iter().position(|p| p.0 >= h).unwrap_or(0);
                let prev = (next + points.len() - 1) % points.len();
                let (dp, dn) = (h.wrapping_sub(points[prev].0), points[next].0.wrapping_sub(h));
                let shown = values(&chain, StepKind::Point);
                assert_eq!(
                    shown[0],
                    format!("point {prev} of {} at {}, distance {dp}", points.len(), hx(points[prev].0))
                );
                assert_eq!(
                    shown[1],
                    format!("point {next} of {} at {}, distance {dn}", points.len(), hx(points[next].0))
                );
                let chosen = if dp <= dn { prev } else { next };
                ties += usize::from(dp == dn || dp == 0 || dn == 0);
                let owner = points[chosen].1;
                let id = puids[owner];
                let i = (0..4096).find(|&j| full_hash(id * 4096 + j) == points[chosen].0).unwrap();
                let label = format!("full_hash({id} × 4096 + {i}): {}'s point {i} (server id {id})", servers[owner]);
                assert_eq!(step(&chain, StepKind::Label), label, "{key:?}");
            } else {
                assert_eq!(step(&chain, StepKind::Entry), format!("{h} % {table} = {}", h % table), "{key:?}");
            }
            assert_eq!(chain.owner.as_deref(), Some(servers[answer as usize]), "{} {key:?}", case["name"]);
            checked += 1;
        }
    }
    assert!(checked > 8000 && ties > 0, "checked {checked}, {ties} on or between two points");
}

fn hx(x: u32) -> String {
    format!("0x{x:08x}")
}

/// A hexadecimal step value, read back.
struct Hex(u32);
impl std::str::FromStr for Hex {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Hex, Self::Err> {
        u32::from_str_radix(s.trim_start_matches("0x"), 16).map(Hex)
    }
}

/// twemproxy 0.5.0 (tests/real/fixtures/twemproxy.json, every case): the hash is the pool's
/// function of the key (md5, crc32a, crc32 and fnv1a_64 written here, the others read back);
/// ketama with equal weights: the point is the first at or after it among 160 MD5 points a
/// server (made here from "name-i"), and its label's MD5 word is the point; modula: the entry
/// is the hash mod Σ weight, in a table of servers sorted by name length then bytes (made
/// here); every chain ends at the server twemproxy stored the key on.
#[test]
fn twemproxy_steps_are_its_hash_its_points_or_entries_and_end_where_twemproxy_stored() {
    let f: Value = serde_json::from_str(include_str!("../real/fixtures/twemproxy.json")).unwrap();
    let keys: Vec<&str> = f["keys"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect();
    let (mut checked, mut points_checked) = (0, 0);
    for case in f["cases"].as_array().unwrap() {
        let config = case["config"].as_str().unwrap();
        let cluster = ringlab::import::from_config("twemproxy", config, &Default::default()).unwrap();
        let servers: Vec<&str> = case["servers"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        let name = |i: usize| servers[i].strip_suffix(":11211").unwrap_or(servers[i]);
        let weights: Vec<u64> = cluster.nodes().iter().map(|n| n.weight as u64).collect();
        let hash_name = config.lines().find_map(|l| l.trim().strip_prefix("hash: ")).unwrap_or("fnv1a_64");
        let tagged = config.contains("hash_tag");
        let modula = cluster.algorithm() == Algorithm::TwemproxyModula;
        let mut points: Vec<(u32, usize)> = Vec::new();
        if !modula && weights.iter().all(|&w| w == weights[0]) {
            for i in 0..servers.len() {
                for l in 0..40 {
                    let d = {
                        use md5::Digest;
                        md5::Md5::digest(format!("{}-{l}", name(i)).as_bytes())
                    };
                    points.extend((0..4).map(|w| (u32::from_le_bytes(d[4 * w..4 * w + 4].try_into().unwrap()), i)));
                }
            }
            points.sort_by_key(|p| p.0);
        }
        let mut by_name: Vec<usize> = (0..servers.len()).collect();
        by_name.sort_by_key(|&i| (name(i).len(), name(i).as_bytes().to_vec()));
        let table: Vec<usize> = by_name.iter().flat_map(|&i| std::iter::repeat_n(i, weights[i] as usize)).collect();
        for (key, answer) in keys.iter().zip(case["answers"].as_array().unwrap()) {
            let chain = cluster.explain(key, 0).unwrap();
            let answer = servers[answer.as_u64().unwrap() as usize];
            assert_eq!(chain.owner.as_deref(), Some(answer), "{} {key:?}", case["name"]);
            checked += 1;
            if servers.len() == 1 {
                assert_eq!(step(&chain, StepKind::Candidate), answer);
                continue;
            }
            let b = key.as_bytes();
            let h: u32 = match hash_name {
                _ if tagged => step(&chain, StepKind::Hash).parse::<Hex>().unwrap().0,
                "md5" => md5_word0(b) as u32,
                "crc32a" => crc32(b),
                "crc32" => (crc32(b) >> 16) & 0x7fff,
                "fnv1a_64" => b.iter().fold(0x8422_2325u32, |h, &c| (h ^ (c as i8 as u32)).wrapping_mul(0x0000_01b3)),
                _ => step(&chain, StepKind::Hash).parse::<Hex>().unwrap().0,
            };
            assert_eq!(step(&chain, StepKind::Hash), hx(h), "{} {key:?}", case["name"]);
            if modula {
                let e = h as usize % table.len();
                assert_eq!(step(&chain, StepKind::Entry), format!("{h} % {} = {e}", table.len()));
                assert_eq!(servers[table[e]], answer, "{} {key:?}", case["name"]);
            } else if !points.is_empty() {
                let p = points.iter().position(|p| p.0 >= h).unwrap_or(0);
                assert_eq!(
                    step(&chain, StepKind::Point),
                    format!("point {p} of {} at {}", points.len(), hx(points[p].0))
                );
                let label = step(&chain, StepKind::Label);
                let (text, word) = label.split_once(" (MD5 word ").unwrap();
                let word: usize = word.trim_end_matches(')').parse().unwrap();
                use md5::Digest;
                let d = md5::Md5::digest(text.as_bytes());
                assert_eq!(u32::from_le_bytes(d[4 * word..4 * word + 4].try_into().unwrap()), points[p].0, "{label}");
                assert!(text.starts_with(name(points[p].1)));
                points_checked += 1;
            }
        }
    }
    assert!(checked > 2000 && points_checked > 1000, "checked {checked}, {points_checked} points");
}

/// Envoy 1.40 (tests/real/fixtures/envoy.json, every case): the request's hash is xxHash64 of
/// the header's value (twox-hash); RING_HASH: the point is the first of the ring's points at or
/// after it, and (XX_HASH) its label "host_i" hashes to that point; MAGLEV: the entry is the
/// hash mod the table size; every chain ends at the host Envoy sent the request to.
#[test]
fn envoy_steps_are_xxhash64_the_ring_or_table_and_end_at_the_host_envoy_chose() {
    let f: Value = serde_json::from_str(include_str!("../real/fixtures/envoy.json")).unwrap();
    let keys: Vec<&str> = f["keys"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect();
    let (mut checked, mut labels) = (0, 0);
    for case in f["cases"].as_array().unwrap() {
        let config = case["config"].as_str().unwrap();
        let cluster = ringlab::import::from_config("envoy", config, &Default::default()).unwrap();
        let servers: Vec<&str> = case["servers"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        let xx = !config.contains("MURMUR_HASH_2");
        for (key, answer) in keys.iter().zip(case["answers"].as_array().unwrap()) {
            let chain = cluster.explain(key, 0).unwrap();
            let h = twox_hash::XxHash64::oneshot(0, key.as_bytes());
            assert_eq!(step(&chain, StepKind::Hash), format!("0x{h:016x}"), "{key:?}");
            if cluster.algorithm() == Algorithm::EnvoyRingHash {
                let arcs = cluster.arcs().unwrap();
                let n = arcs.point_count();
                let p = (0..n).find(|&i| arcs.point(i).0 >= h).unwrap_or(0);
                let at = arcs.point(p).0;
                assert_eq!(step(&chain, StepKind::Point), format!("point {p} of {n} at 0x{at:016x}"), "{key:?}");
                let label = step(&chain, StepKind::Label);
                if xx {
                    assert_eq!(twox_hash::XxHash64::oneshot(0, label.as_bytes()), at, "{label}");
                    labels += 1;
                }
            } else {
                let Some(OptionValue::Whole(size)) = cluster.options().get("tableSize") else { unreachable!() };
                assert_eq!(step(&chain, StepKind::Entry), format!("{h} % {size} = {}", h % size));
            }
            let answer = servers[answer.as_u64().unwrap() as usize];
            assert_eq!(chain.owner.as_deref(), Some(answer), "{} {key:?}", case["name"]);
            checked += 1;
        }
    }
    assert!(checked > 1000 && labels > 500, "checked {checked}, {labels} labels");
}

/// Edge states every algorithm explains without a panic, ending where `locate` ends: one node
/// (up, then down), and one node far heavier than the others (the heaviest weight each
/// accepts of a few).
#[test]
fn one_node_all_down_and_heavy_weights_are_explained() {
    let mut checked = 0;
    for algorithm in Algorithm::ALL {
        let mut one = Cluster::new(options(algorithm), ["solo:11211"]).unwrap();
        checked += check_chains(&one, &format!("{} one node", algorithm.name()));
        if one.set_down("solo:11211", true).is_ok() {
            checked += check_chains(&one, &format!("{} one node down", algorithm.name()));
        }
        for w in [1e9, 1e6, 256.0, 64.0, 2.0] {
            let specs =
                [NodeSpec::new("a:11211").weight(w), NodeSpec::new("b:11211"), NodeSpec::new("c:11211").weight(3.0)];
            if let Ok(heavy) = Cluster::new(options(algorithm), specs) {
                checked += check_chains(&heavy, &format!("{} weight {w}", algorithm.name()));
                break;
            }
        }
    }
    assert!(checked >= Algorithm::ALL.len() * 2 * keys().len(), "checked {checked}");
}

/// Bounded loads with an empty key set and every node down: no owner (all down), explained,
/// not a panic (locate indexed an empty walk before).
#[test]
fn bounded_load_with_no_keys_and_every_node_down_has_no_owner() {
    let mut o = options(Algorithm::BoundedLoad);
    o.set_keys(&KeySample::generated("k", 0));
    let mut cluster = Cluster::new(o, ["a", "b"]).unwrap();
    assert!(check_chains(&cluster, "bounded-load, no keys") > 0);
    cluster.set_down("a", true).unwrap();
    assert!(check_chains(&cluster, "bounded-load, no keys, one down") > 0);
    cluster.set_down("b", true).unwrap();
    assert_eq!(cluster.locate("x").unwrap_err().code(), "unavailable");
    assert_eq!(cluster.explain("x", 0).unwrap().error, Some("unavailable"));
    assert!(check_chains(&cluster, "bounded-load, no keys, all down") > 0);
}
