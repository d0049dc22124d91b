//! The native integration tests, in one test binary: one link instead of one per file, and
//! one pool of test threads for all of them, so a file with one long test does not leave the
//! other core idle. Each module is one concern; tests/README.md says which checks what.

mod algorithms;
mod answers;
mod bucket_hashes;
mod caps;
mod cassandra_tokens;
mod catalog;
mod change_cost;
mod down_nodes;
mod errors;
mod every_entry;
mod explain;
mod import_check;
mod import_lines;
mod layers;
mod lookup_paths;
mod memcached_import;
mod metrics;
mod migration_exact;
mod properties;
mod real_clients;
mod real_lb;
mod real_proxies;
mod real_systems;
mod real_tutorial;
mod redis_cluster_nodes;
mod ring_rules;
mod rollout;
mod state_machine;
mod text_imports;
mod vectors;
mod work;
