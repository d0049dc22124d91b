//! The exact migration (`migration::between`) checked position by position against an
//! independent computation: point lists built here from the hash crates directly (twox-hash,
//! md-5, crc, murmur3), sorted here with each system's tie rule, and a successor found here
//! by binary search, never through ringlab's lookup.
//!
//! For a change `before → after`, ownership in both states is constant between consecutive
//! points of either list. So checking every point position of both lists, each ±1, every
//! moved arc's ends ±1, 0 and the top, plus random positions, checks every position: at each,
//! "inside a moved arc" ⇔ "the owner differs", and the arc names the right `from` and `to`.
//! The moved total is recomputed here interval by interval. Redis's 16384 slots and Maglev's
//! table are enumerated exhaustively, and Redis's moved slots are compared with redis-cli's.

use md5::Digest as _;
use ringlab::algo::stores::redis;
use ringlab::algo::{Algorithm, Cluster, OptionValue, Options};
use ringlab::analysis::Arcs;
use ringlab::migration::{self, Migration};
use ringlab::{Config, Hash, NodeSpec, RingBits};
use twox_hash::XxHash3_64;

/// Sorted `(position, owner name)` points.
type Points = Vec<(u64, String)>;

/// The owner of `position`: the first point at or after it, wrapping to the first.
fn owner(points: &Points, position: u64) -> &str {
    let i = points.partition_point(|p| p.0 < position);
    &points[if i == points.len() { 0 } else { i }].1
}

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Checks `m` against the independent point lists on a ring whose top position is `top`,
/// and, at the same positions, the engine's own lookup (`Arcs::owner_of`) in both states.
#[track_caller]
fn check(before: &Points, after: &Points, top: u64, m: &Migration, engines: (&dyn Arcs, &dyn Arcs), what: &str) {
    // Arcs are in clockwise order, disjoint, and maximal.
    for w in m.arcs.windows(2) {
        assert!(w[0].end < w[1].start, "{what}: arcs overlap or are out of order");
        let joinable = w[0].end + 1 == w[1].start && w[0].from == w[1].from && w[0].to == w[1].to;
        assert!(!joinable, "{what}: two adjacent arcs of the same move");
    }
    let arc_at = |p: u64| {
        let i = m.arcs.partition_point(|a| a.end < p);
        m.arcs.get(i).filter(|a| a.start <= p)
    };
    let mut positions: Vec<u64> = vec![0, top];
    for &(p, _) in before.iter().chain(after) {
        positions.extend([p.saturating_sub(1), p, p.saturating_add(1).min(top)]);
    }
    for a in &m.arcs {
        positions.extend([a.start.saturating_sub(1), a.start, a.end, a.end.saturating_add(1).min(top)]);
    }
    let mut state = 0x2545_F491_4F6C_DD1D ^ top;
    positions.extend((0..20_000).map(|_| xorshift(&mut state) & top));
    for p in positions {
        let (from, to) = (owner(before, p), owner(after, p));
        let looked_up = |arcs: &dyn Arcs| arcs.node_name(arcs.owner_of(p).unwrap()).to_string();
        assert_eq!(
            (looked_up(engines.0), looked_up(engines.1)),
            (from.to_string(), to.to_string()),
            "{what}: lookup of {p}"
        );
        match arc_at(p) {
            Some(arc) => {
                assert_ne!(from, to, "{what}: position {p} is in a moved arc but keeps its owner {from}");
                assert_eq!((arc.from.as_str(), arc.to.as_str()), (from, to), "{what}: the arc at {p}");
            }
            None => assert_eq!(from, to, "{what}: position {p} changed owner but is in no moved arc"),
        }
    }
    // The moved total, interval by interval.
    let mut bounds: Vec<u64> = before.iter().chain(after).map(|p| p.0).chain([top]).collect();
    bounds.sort_unstable();
    bounds.dedup();
    let mut moved = 0u128;
    let mut start = 0u64;
    for b in bounds {
        if owner(before, b) != owner(after, b) {
            moved += u128::from(b - start) + 1;
        }
        start = b.wrapping_add(1);
    }
    assert_eq!(m.moved, moved, "{what}: moved total");
    let arcs_total: u128 = m.arcs.iter().map(|a| u128::from(a.end - a.start) + 1).sum();
    assert_eq!(arcs_total, moved, "{what}: arc lengths");
}

// ---------------------------------------------------------------------------------------
// Independent point lists.

/// ringlab's ring: `points` labels `"{name}#{i}"` per node, hashed by `hash`, keeping the
/// low `bits`; collisions go to the smaller name.
fn ring_points(nodes: &[(String, u32)], hash: fn(&[u8]) -> u64, bits: u32) -> Points {
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let mut points: Points = nodes
        .iter()
        .flat_map(|(name, count)| {
            (0..*count).map(move |i| (hash(format!("{name}#{i}").as_bytes()) & mask, name.clone()))
        })
        .collect();
    points.sort();
    points
}

fn xxh3(b: &[u8]) -> u64 {
    XxHash3_64::oneshot(b)
}

fn xxh32(b: &[u8]) -> u64 {
    u64::from(twox_hash::XxHash32::oneshot(0, b))
}

fn md5_le64(b: &[u8]) -> u64 {
    u64::from_le_bytes(md5::Md5::digest(b)[..8].try_into().unwrap())
}

fn murmur3_h1(mut b: &[u8]) -> u64 {
    murmur3::murmur3_x64_128(&mut b, 0).unwrap() as u64
}

fn le_word(digest: &[u8], w: usize) -> u64 {
    u64::from(u32::from_le_bytes(digest[4 * w..4 * w + 4].try_into().unwrap()))
}

/// Sorts `(position, added index, name)` by position, then by `tie` on the added index.
fn sorted(mut raw: Vec<(u64, usize, String)>, later_first: bool) -> Points {
    raw.sort_by(|a, b| a.0.cmp(&b.0).then(if later_first { b.1.cmp(&a.1) } else { a.1.cmp(&b.1) }));
    raw.into_iter().map(|(p, _, n)| (p, n)).collect()
}

/// The point list of a continuum system, rebuilt from its nodes (names, order and point
/// counts as the cluster reports them; the counts are checked against the real clients in
/// tests/native/real_systems.rs).
fn continuum_points(c: &Cluster) -> Points {
    let nodes = c.nodes();
    let mut raw = Vec::new();
    for (idx, node) in nodes.iter().enumerate() {
        let name = node.name.as_str();
        // libmemcached labels drop the default port.
        let host = name.strip_suffix(":11211").unwrap_or(name);
        match c.algorithm() {
            Algorithm::Libketama | Algorithm::LibmemcachedWeighted => {
                let label = if c.algorithm() == Algorithm::Libketama { name } else { host };
                for k in 0..node.points / 4 {
                    let d = md5::Md5::digest(format!("{label}-{k}").as_bytes());
                    raw.extend((0..4).map(|w| (le_word(&d, w), idx, node.name.clone())));
                }
            }
            Algorithm::LibmemcachedKetama => {
                raw.extend((0..node.points).map(|i| {
                    (le_word(&md5::Md5::digest(format!("{host}-{i}").as_bytes()), 0), idx, node.name.clone())
                }));
            }
            Algorithm::Groupcache => {
                let crc = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);
                raw.extend(
                    (0..node.points)
                        .map(|i| (u64::from(crc.checksum(format!("{i}{name}").as_bytes())), idx, node.name.clone())),
                );
            }
            Algorithm::Cassandra => {
                // ASCII labels: Cassandra's Murmur3 is the standard h1; the token's sign bit
                // flipped keeps token order on an unsigned ring.
                raw.extend(
                    (0..node.points)
                        .map(|i| (murmur3_h1(format!("{name}#{i}").as_bytes()) ^ (1 << 63), idx, node.name.clone())),
                );
            }
            other => panic!("{other:?} is not a continuum"),
        }
    }
    match c.algorithm() {
        Algorithm::Groupcache => sorted(raw, true),
        Algorithm::Cassandra => {
            let mut points: Points = raw.into_iter().map(|(p, _, n)| (p, n)).collect();
            points.sort();
            points
        }
        _ => sorted(raw, false),
    }
}

fn exact(before: &Cluster, after: &Cluster) -> Migration {
    migration::between(before.arcs().unwrap(), after.arcs().unwrap()).unwrap()
}

fn ring_cluster(hash: Hash, bits: RingBits, vnodes: u32, nodes: &[(&str, f64)]) -> Cluster {
    let mut options = Options::new(Algorithm::Ring);
    options.config = Config { hash, bits, vnodes };
    Cluster::new(options, nodes.iter().map(|(n, w)| NodeSpec::new(*n).weight(*w))).unwrap()
}

fn own_ring(c: &Cluster, hash: fn(&[u8]) -> u64) -> Points {
    let ring = c.as_ring().unwrap();
    let nodes: Vec<(String, u32)> = ring.nodes().iter().map(|n| (n.name.clone(), n.points)).collect();
    ring_points(&nodes, hash, ring.config().bits.bits())
}

// ---------------------------------------------------------------------------------------

/// ringlab's ring on 32 and 64 bits, with several hashes: joins, leaves, weight changes up
/// and down, and several changes at once.
#[test]
fn ring_migrations_match_position_by_position() {
    type HashFn = fn(&[u8]) -> u64;
    let cases: [(Hash, RingBits, HashFn); 4] = [
        (Hash::Xxh3, RingBits::B32, xxh3),
        (Hash::Xxh3, RingBits::B64, xxh3),
        (Hash::Md5, RingBits::B64, md5_le64),
        (Hash::Murmur3, RingBits::B64, murmur3_h1),
    ];
    for (hash, bits, f) in cases {
        let top = if bits == RingBits::B64 { u64::MAX } else { u64::from(u32::MAX) };
        let before = ring_cluster(hash, bits, 40, &[("a", 1.0), ("b", 2.0), ("c", 0.5), ("d", 1.0), ("e", 1.0)]);
        let own_before = own_ring(&before, f);
        type Change = fn(&mut Cluster);
        let changes: [(&str, Change); 6] = [
            ("join", |c| c.add(NodeSpec::new("f")).unwrap()),
            ("leave", |c| c.remove("c").unwrap()),
            ("weight up", |c| c.set_weight("a", 3.0).unwrap()),
            ("weight down", |c| c.set_weight("b", 0.25).unwrap()),
            ("join two, leave one, reweigh", |c| {
                c.add(NodeSpec::new("x").weight(1.5)).unwrap();
                c.add(NodeSpec::new("y")).unwrap();
                c.remove("d").unwrap();
                c.set_weight("e", 2.0).unwrap();
            }),
            ("everything replaced", |c| {
                for n in ["a", "b", "c", "d", "e"] {
                    c.remove(n).unwrap();
                    c.add(NodeSpec::new(format!("{n}2").as_str())).unwrap();
                }
            }),
        ];
        for (what, change) in changes {
            let mut after = before.clone();
            change(&mut after);
            let what = format!("{hash} {} {what}", bits.bits());
            check(
                &own_before,
                &own_ring(&after, f),
                top,
                &exact(&before, &after),
                (before.arcs().unwrap(), after.arcs().unwrap()),
                &what,
            );
        }
    }
}

/// "n1251#0" and "n58370#0" collide under XXH32 (see tests/native/properties.rs): with one vnode
/// each, the shared position belongs to "n1251" (smaller name) and passes to "n58370" when it
/// leaves; the migration must show exactly that, and nothing when "n58370" leaves.
#[test]
fn ring_migration_across_a_collision() {
    let c = ring_cluster(Hash::Xxh32, RingBits::B32, 1, &[("n58370", 1.0), ("other", 1.0), ("n1251", 1.0)]);
    let own = own_ring(&c, xxh32);
    assert_eq!(own.iter().filter(|p| p.0 == 0xb4f8_a1dc).count(), 2, "the two points collide");
    for leaver in ["n1251", "n58370", "other"] {
        let mut after = c.clone();
        after.remove(leaver).unwrap();
        let m = exact(&c, &after);
        check(
            &own,
            &own_ring(&after, xxh32),
            u64::from(u32::MAX),
            &m,
            (c.arcs().unwrap(), after.arcs().unwrap()),
            leaver,
        );
    }
    let mut after = c.clone();
    after.remove("n1251").unwrap();
    let arc = exact(&c, &after).arcs.into_iter().find(|a| a.start <= 0xb4f8_a1dc && 0xb4f8_a1dc <= a.end).unwrap();
    assert_eq!((arc.from.as_str(), arc.to.as_str(), arc.end), ("n1251", "n58370", 0xb4f8_a1dc));
}

/// libketama, libmemcached (weighted and ketama), groupcache and Cassandra (64-bit): joins,
/// leaves and weight changes, against point lists built here from each system's labels.
#[test]
fn continuum_migrations_match_position_by_position() {
    for algorithm in [
        Algorithm::Libketama,
        Algorithm::LibmemcachedWeighted,
        Algorithm::LibmemcachedKetama,
        Algorithm::Groupcache,
        Algorithm::Cassandra,
    ] {
        let top = if algorithm == Algorithm::Cassandra { u64::MAX } else { u64::from(u32::MAX) };
        let names: Vec<String> = (1..=6).map(|i| format!("10.0.0.{i}:11211")).collect();
        let before = Cluster::new(Options::new(algorithm), names.iter().map(|n| n.as_str())).unwrap();
        let own_before = continuum_points(&before);
        let arcs = before.arcs().unwrap();
        let engine: Points =
            (0..arcs.point_count()).map(|i| (arcs.point(i).0, arcs.node_name(arcs.point(i).1).to_string())).collect();
        assert_eq!(engine, own_before, "{algorithm:?}: the independent point list is the engine's");
        let mut changes: Vec<(&str, Cluster)> = Vec::new();
        let mut joined = before.clone();
        joined.add(NodeSpec::new("10.0.0.9:11211")).unwrap();
        changes.push(("join", joined));
        let mut left = before.clone();
        left.remove("10.0.0.3:11211").unwrap();
        changes.push(("leave", left));
        if matches!(algorithm, Algorithm::Libketama | Algorithm::LibmemcachedWeighted | Algorithm::Cassandra) {
            let mut heavier = before.clone();
            heavier.set_weight("10.0.0.2:11211", 3.0).unwrap();
            changes.push(("weight up", heavier));
        }
        for (what, after) in changes {
            let engines = (before.arcs().unwrap(), after.arcs().unwrap());
            check(
                &own_before,
                &continuum_points(&after),
                top,
                &exact(&before, &after),
                engines,
                &format!("{algorithm:?} {what}"),
            );
        }
    }
}

/// Slot owners, all 16384, from redis-cli's ranges (a list per master).
fn slot_owners(ranges: &[Vec<(u64, u64)>], names: &[String]) -> Vec<String> {
    let mut owners = vec![String::new(); redis::SLOTS];
    for (master, runs) in ranges.iter().enumerate() {
        for &(first, last) in runs {
            for slot in first..=last {
                owners[slot as usize] = names[master].clone();
            }
        }
    }
    owners
}

/// Redis Cluster, every slot enumerated: the exact migration of each fixture step against
/// slot owners read from redis-cli's own ranges (tests/real/fixtures/redis_cluster.json).
#[test]
fn redis_migrations_match_redis_cli_slot_by_slot() {
    let f: serde_json::Value = serde_json::from_str(include_str!("../real/fixtures/redis_cluster.json")).unwrap();
    let ranges = |v: &serde_json::Value| -> Vec<Vec<(u64, u64)>> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_array().unwrap().iter().map(|r| (r[0].as_u64().unwrap(), r[1].as_u64().unwrap())).collect())
            .collect()
    };
    for topology in f["topologies"].as_array().unwrap() {
        let n = topology["masters"].as_u64().unwrap() as usize;
        let mut names: Vec<String> = (0..n).map(|i| format!("127.0.0.1:{}", 30001 + i)).collect();
        let created = redis::Slots::create(names.iter().map(|n| NodeSpec::new(n.as_str())).collect()).unwrap();
        let mut added = created.clone();
        ringlab::algo::Placement::add(&mut added, NodeSpec::new("127.0.0.1:new")).unwrap();
        names.push("127.0.0.1:new".into());
        let before = slot_owners(&ranges(&topology["create"]), &names);
        let after = slot_owners(&ranges(&topology["after_add"]["ranges"]), &names);
        slot_by_slot(&before, &after, &migration::between(&created, &added).unwrap(), &format!("add to {n}"));

        if let Some(step) = topology.get("after_remove") {
            let gone = step["removed"].as_u64().unwrap() as usize;
            let order: Vec<usize> =
                step["cli_node_order"].as_array().unwrap().iter().map(|i| i.as_u64().unwrap() as usize).collect();
            let mut removed = added.clone();
            removed.remove_in_cli_order(&names[gone], &order).unwrap();
            let later = slot_owners(&ranges(&step["ranges"]), &names);
            slot_by_slot(
                &after,
                &later,
                &migration::between(&added, &removed).unwrap(),
                &format!("remove from {}", n + 1),
            );
        }
    }
}

#[track_caller]
fn slot_by_slot(before: &[String], after: &[String], m: &Migration, what: &str) {
    let mut moved = 0u128;
    for slot in 0..redis::SLOTS as u64 {
        let arc = m.arcs.iter().find(|a| a.start <= slot && slot <= a.end);
        let (b, a) = (&before[slot as usize], &after[slot as usize]);
        match arc {
            Some(arc) => {
                assert_eq!((&arc.from, &arc.to), (b, a), "{what}: slot {slot}");
                moved += 1;
            }
            None => assert_eq!(b, a, "{what}: slot {slot} moved but is in no arc"),
        }
    }
    assert_eq!(m.moved, moved, "{what}");
}

/// Maglev and Redis on random changes, every position enumerated: the migration against
/// each state's per-position owner (`Arcs::owner_of`, a table read, not the point walk that
/// `between` does).
#[test]
fn table_migrations_match_on_every_position() {
    for algorithm in [Algorithm::Maglev, Algorithm::RedisCluster] {
        let mut options = Options::new(algorithm);
        options.set("tableSize", OptionValue::Whole(4099)).unwrap();
        let names: Vec<String> = (0..7).map(|i| format!("n{i}")).collect();
        let before = Cluster::new(options, names.iter().map(|n| n.as_str())).unwrap();
        let mut after = before.clone();
        after.add(NodeSpec::new("n7")).unwrap();
        after.remove("n2").unwrap();
        let (a, b) = (before.arcs().unwrap(), after.arcs().unwrap());
        let owners = |arcs: &dyn Arcs| -> Vec<String> {
            (0..arcs.size() as u64).map(|p| arcs.node_name(arcs.owner_of(p).unwrap()).to_string()).collect()
        };
        let m = migration::between(a, b).unwrap();
        let (ob, oa) = (owners(a), owners(b));
        let mut moved = 0u128;
        for p in 0..a.size() as u64 {
            let arc = m.arcs.iter().find(|x| x.start <= p && p <= x.end);
            match arc {
                Some(arc) => {
                    assert_eq!((&arc.from, &arc.to), (&ob[p as usize], &oa[p as usize]), "{algorithm:?} {p}");
                    moved += 1;
                }
                None => assert_eq!(ob[p as usize], oa[p as usize], "{algorithm:?} {p}"),
            }
        }
        assert_eq!(m.moved, moved, "{algorithm:?}");
    }
}
