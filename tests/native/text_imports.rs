//! Pasted text never panics a parser, and a key list written as CSV reads back exactly.

use proptest::prelude::*;
use ringlab::algo::Algorithm;
use ringlab::import::memcached::from_memcached_servers;
use ringlab::import::redis::from_redis_cluster_nodes;
use ringlab::keys::parse_key_list;

const REAL: &str = include_str!("../real/fixtures/redis_cluster_nodes.json");

fn real_text() -> String {
    let f: serde_json::Value = serde_json::from_str(REAL).unwrap();
    f["scenarios"][1]["source_cluster_nodes"].as_str().unwrap().to_string()
}

/// CSV quoting as a spreadsheet writes it: quotes doubled, the key quoted.
fn csv_key(key: &str) -> String {
    format!("\"{}\"", key.replace('"', "\"\""))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn junk_is_an_error_or_a_placement_never_a_panic(text in "[ -~\n\t,:@\\[\\]<>-]{0,300}") {
        let _ = from_redis_cluster_nodes(&text);
        let _ = from_memcached_servers(&text, Algorithm::LibmemcachedWeighted);
        let _ = parse_key_list(&text);
    }

    #[test]
    fn damaged_real_text_is_an_error_or_a_placement(cut in 0usize..2000, byte in 0u8..128) {
        let mut text = real_text().into_bytes();
        let at = cut % text.len();
        text[at] = byte;
        if let Ok(text) = String::from_utf8(text) {
            if let Err(e) = from_redis_cluster_nodes(&text) {
                prop_assert!(matches!(e.code(), "parse-error" | "invalid-option"), "{e}");
            }
        }
    }

    #[test]
    fn csv_key_lists_read_back(entries in prop::collection::vec(("[a-z\",' ]{1,6}", 0u64..1000), 1..40)) {
        let mut text = String::from("key,count\n");
        for (key, count) in &entries {
            text.push_str(&format!("{},{count}\n", csv_key(key)));
        }
        let list = parse_key_list(&text).unwrap();
        // Expected, merged by hand: first appearance order, counts summed.
        let mut keys: Vec<String> = Vec::new();
        let mut counts: Vec<u64> = Vec::new();
        for (key, count) in &entries {
            match keys.iter().position(|k| k == key) {
                Some(i) => counts[i] += count,
                None => {
                    keys.push(key.clone());
                    counts.push(*count);
                }
            }
        }
        prop_assert_eq!(list.keys, keys);
        prop_assert_eq!(list.counts, counts);
    }
}
