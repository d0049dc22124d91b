//! last.fm's libketama: 160 MD5 points per server scaled by weight, by its float formula;
//! labels `"{host:port}-{k}"`, four points a digest; the earlier server wins a tie
//! (`ketama.c`: `ketama_create_continuum`, glibc's stable `qsort`).

use super::about::KeySpace;
use super::continuum::{ketama_counts, md5_quad_label, md5_word, push_md5_quads, Continuum, Lookup, Rules, Share, Tie};
use super::entry::{recipe, Build, Entry, Extras, Family, Leaving, OnDown, OnStale, Recipe, ServerList, Weights};
use super::libmemcached::check_memcached_weight;
use super::Algorithm;
use crate::{Error, NodeSpec};

pub(crate) const ENTRY: Entry = Entry {
    name: "libketama",
    label: "libketama (last.fm)",
    family: Family::Client,
    source: "libketama's C code (ketama.c): points per server, labels, positions, tie order, key hash",
    options: &[],
    weights: Weights::Any,
    arcs: true,
    replicas: false,
    key_space: |_| KeySpace::Hash { bits: 32 },
    describe: |o| {
        format!(
            "last.fm's libketama: 160 MD5 points per server (scaled by weight), labels \"host:port-i\", on {}; at \
             most {LIBKETAMA_MAX_POINTS} points (its shared-memory segment).",
            (ENTRY.key_space)(o).words()
        )
    },
    on_down: OnDown::Unavailable {
        text: "libketama has no health check: ketama_get_server() still returns the down server, and the caller's \
               request to it fails. libketama re-reads its server list when the file changes (ketama_roll), so the \
               fix is to delete the line: a removal.",
        why: "libketama has no health check and still picks it; remove it from the server list",
    },
    on_stale: OnStale::ClientSide(
        "libketama re-reads its server file when it changes (ketama_roll): until a client does, it sends moved keys to their old servers, where reads miss or find stale values and writes leave two copies.",
    ),
    leaving: Leaving::Any,
    extras: Extras { server_list: Some(ServerList::Libketama), recipe: Some(&RECIPE), ..Extras::NONE },
};

/// How it picks a server, step by step.
const RECIPE: Recipe = Recipe {
    server_label: "\"host:port-i\" as written",
    points: "160 per server scaled by weight (its float formula), four per MD5 digest",
    key_hash: recipe::MD5_WORD0,
    pick: recipe::FIRST_AT_OR_AFTER,
    order: recipe::ORDER_TIES,
};

/// How [`ENTRY`] is built.
pub(crate) const BUILD: Build = Build::Staged(|o, nodes, _| Ok(Box::new(Continuum::building(&RULES, o, nodes)?)));

/// libketama keeps a server's address in `char ip[22]`.
const LIBKETAMA_MAX_NAME: usize = 21;
/// libketama copies its continuum into one SysV shared-memory segment of `MC_SHMSIZE` =
/// 524288 bytes (ketama.h): an int and a time_t padded to 36 bytes, then 28-byte `mcs`
/// entries (ketama.c `ketama_create_continuum`). More points write past the segment.
pub(crate) const LIBKETAMA_MAX_POINTS: u64 = (524_288 - 36) / 28;

pub(crate) static RULES: Rules = Rules {
    algorithm: Algorithm::Libketama,
    bits: 32,
    tie: Tie::EarlierAdded,
    lookup_cost: 12,
    per_node: |_| Ok(0),
    check,
    // ketama.c: the share in float, the product in double, floorf (Share::FloatThenDouble).
    point_counts: |nodes, _| ketama_counts(nodes, Share::FloatThenDouble),
    // ketama.c: "%s-%d" of the server's address and k, four points per digest.
    push_points: push_md5_quads,
    key_position: |key| md5_word(key, 0),
    point_label: Some(md5_quad_label),
    describe_key: |_, position| format!("md5 0x{position:08x}"),
    lookup: Lookup::AtOrAfter,
    weighted_switch: None,
    switch_starts_off: |_| false,
    written_weight: |_| Ok(None),
    explicit: None,
    check_total: |total| {
        if total > LIBKETAMA_MAX_POINTS {
            return Err(Error::TooLarge {
                what: format!(
                    "a libketama continuum (its shared-memory segment, MC_SHMSIZE = 524288 bytes, holds \
                     {LIBKETAMA_MAX_POINTS} points; the real library writes past it and crashes or corrupts memory): points"
                ),
                max: LIBKETAMA_MAX_POINTS,
                got: total,
            });
        }
        Ok(())
    },
};

fn check(spec: &NodeSpec, _: u32) -> Result<(), Error> {
    crate::node::check_weight(spec.weight)?;
    if spec.name.len() > LIBKETAMA_MAX_NAME {
        return Err(Error::node_refused(
            &spec.name,
            format!(
                "libketama server addresses are at most {LIBKETAMA_MAX_NAME} bytes ({:?} has {})",
                spec.name,
                spec.name.len()
            ),
        ));
    }
    check_memcached_weight(Algorithm::Libketama, spec.weight)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Node;

    #[test]
    fn counts_use_double_precision() {
        // 25 equal servers: 0.04 * 160 / 4 * 25 = 40 in double, so 40 labels, 160 points
        // (libmemcached's single precision gives 156).
        let nodes: Vec<Node> =
            (0..25).map(|i| Node { name: format!("s{i}"), weight: 1.0, zone: None, points: 0 }).collect();
        assert!(ketama_counts(&nodes, Share::FloatThenDouble).iter().all(|&c| c == 160));
    }
}
