//! Go groupcache's `consistenthash.Map`: `replicas` CRC-32 points per node at the hash of
//! `"{i}{name}"`; a key's CRC-32 goes to the first point at or after it; a later `Add`
//! overwrites an equal point (groupcache `consistenthash.go`).

use super::about::KeySpace;
use super::continuum::{check_count, Continuum, Lookup, Rules, Tie};
use super::entry::{Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Weights};
use super::options::{OptionKind, OptionSpec, Scope};
use super::Algorithm;

pub(crate) const ENTRY: Entry = Entry {
    name: "groupcache",
    label: "Go groupcache",
    family: Family::Client,
    source: "groupcache consistenthash.go (consistenthash.Map)",
    options: &[&REPLICAS],
    weights: Weights::One,
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| {
        format!(
            "Go groupcache: {} CRC32 points per node at the hash of \"i\" + name, on {}.",
            REPLICAS.whole_u32(o),
            (ENTRY.key_space)(o).words()
        )
    },
    on_down: OnDown::Unavailable {
        text: "groupcache has no failover: the fetch from the down peer fails and the process that was asked loads \
               the value itself (Group.load falls back to getLocally), so the key has no single owner until \
               HTTPPool.Set() is called without the peer.",
        why: "groupcache has no failover: the asking process loads the value itself",
    },
    on_stale: OnStale::ClientSide(
        "Each groupcache peer has its own peer list (HTTPPool.Set): until it is updated, a peer asks the old owner, which loads the value itself; the value is cached twice and can disagree until it expires.",
    ),
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build = Build::Staged(|o, nodes, _| Ok(Box::new(Continuum::building(&RULES, o, nodes)?)));

/// Points per node (`consistenthash.New(replicas, nil)`).
pub(crate) const REPLICAS: OptionSpec = OptionSpec {
    name: "replicas",
    kind: OptionKind::Whole { min: 1, max: crate::limits::MAX_GROUPCACHE_REPLICAS as u64, default: 50 },
    help: "points per node (groupcache's HTTPPool uses 50)",
    scope: Scope::Everywhere,
    link: "gr",
    refused: None,
    get: |o| REPLICAS.kept(o),
    set: |o, v| {
        REPLICAS.keep(o, v);
        Ok(())
    },
};

const CRC32: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

static RULES: Rules = Rules {
    algorithm: Algorithm::Groupcache,
    bits: 32,
    tie: Tie::LaterAdded,
    lookup_cost: 8,
    per_node: |o| {
        let replicas = REPLICAS.whole_u32(o);
        check_count("groupcache replicas", replicas, crate::limits::MAX_GROUPCACHE_REPLICAS)?;
        Ok(replicas)
    },
    check: |spec, _| ENTRY.weights.check(Algorithm::Groupcache, spec.weight),
    point_counts: |nodes, replicas| vec![replicas; nodes.len()],
    push_points: |name, count, idx, out| {
        out.extend((0..count).map(|i| (u64::from(CRC32.checksum(format!("{i}{name}").as_bytes())), idx)));
    },
    key_position: |key| u64::from(CRC32.checksum(key)),
    point_label: Some(|name, k| format!("{k}{name}")),
    describe_key: |_, position| format!("crc32 0x{position:08x}"),
    lookup: Lookup::AtOrAfter,
    weighted_switch: None,
    switch_starts_off: |_| false,
    written_weight: |_| Ok(None),
    explicit: None,
    check_total: |_| Ok(()),
};
