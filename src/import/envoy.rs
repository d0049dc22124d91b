//! One Envoy cluster (YAML, as in `static_resources.clusters`): `lb_policy: RING_HASH` or
//! `MAGLEV`, `ring_hash_lb_config`, `maglev_lb_config`, `common_lb_config`'s
//! `consistent_hashing_lb_config.use_hostname_for_hashing`, and `load_assignment`'s endpoints
//! with their addresses, hostnames, `envoy.lb` `hash_key` metadata and
//! `load_balancing_weight`s. Each host is named by the key Envoy hashes it by (its `ip:port`,
//! its hostname, or its `hash_key`), and `locate` answers that. Errors name the line.
//!
//! A cluster may come alone, as an item of a `clusters:` list as it stands (`- name: cache`,
//! at any indentation), in a `clusters:` list, or in a whole bootstrap file
//! (`static_resources: clusters:`). Of several clusters, the one
//! [`ImportOptions::cluster`](super::ImportOptions::cluster) names is read, else the one
//! that hashes requests (`RING_HASH` or `MAGLEV`) when exactly one does; otherwise the error
//! names the clusters found. Refused, with the
//! reason: `hash_balance_factor` (bounded loads decided by the requests in flight), locality
//! weighting, priorities other than 0, health statuses other than healthy, and cluster types
//! whose hosts come from DNS at run time.
//!
//! ```
//! use ringlab::import::{from_config, ImportOptions};
//! let yaml = "name: web\nlb_policy: MAGLEV\nload_assignment:\n  cluster_name: web\n  endpoints:\n  - lb_endpoints:\n    - endpoint:\n        address:\n          socket_address: { address: 10.0.0.1, port_value: 80 }\n    - endpoint:\n        address:\n          socket_address: { address: 10.0.0.2, port_value: 80 }\n";
//! let web = from_config("envoy", yaml, &ImportOptions::default())?;
//! assert_eq!(web.nodes()[1].name, "10.0.0.2:80");
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::yaml::{self, Node, Value};
use super::{check_server_count, on_line, parse_error, ConfigKind, ImportOptions, LineStatus, Lines};
use crate::algo::balancers::envoy::{cluster, Kind, RingHashFunction};
use crate::algo::Cluster;
use crate::{Error, NodeSpec};
use std::borrow::Cow;

pub(crate) const KIND: ConfigKind = ConfigKind {
    kind: "envoy",
    label: "Envoy cluster (RING_HASH or MAGLEV)",
    example: "name: cache\nconnect_timeout: 1s\ntype: STATIC\nlb_policy: RING_HASH\nring_hash_lb_config:\n  minimum_ring_size: 1024\n  hash_function: XX_HASH\nload_assignment:\n  cluster_name: cache\n  endpoints:\n  - lb_endpoints:\n    - endpoint:\n        address:\n          socket_address: { address: 10.0.0.1, port_value: 8080 }\n    - endpoint:\n        address:\n          socket_address: { address: 10.0.0.2, port_value: 8080 }\n      load_balancing_weight: 2\n    - endpoint:\n        address:\n          socket_address: { address: 10.0.0.3, port_value: 8080 }\n",
    read: read_envoy,
    options: super::any_options,
    sections: envoy_clusters,
};

/// The `Cluster` fields Envoy knows that do not change which host a hash picks.
const OTHER_FIELDS: [&str; 48] = [
    "name",
    "alt_stat_name",
    "type",
    "eds_cluster_config",
    "connect_timeout",
    "per_connection_buffer_limit_bytes",
    "health_checks",
    "max_requests_per_connection",
    "circuit_breakers",
    "upstream_http_protocol_options",
    "common_http_protocol_options",
    "http_protocol_options",
    "http2_protocol_options",
    "typed_extension_protocol_options",
    "dns_refresh_rate",
    "dns_failure_refresh_rate",
    "respect_dns_ttl",
    "dns_lookup_family",
    "dns_resolvers",
    "use_tcp_for_dns_lookups",
    "dns_resolution_config",
    "typed_dns_resolver_config",
    "wait_for_warm_on_init",
    "outlier_detection",
    "cleanup_interval",
    "upstream_bind_config",
    "original_dst_lb_config",
    "least_request_lb_config",
    "round_robin_lb_config",
    "transport_socket",
    "transport_socket_matches",
    "metadata",
    "protocol_selection",
    "upstream_connection_options",
    "close_connections_on_host_health_failure",
    "ignore_health_on_host_removal",
    "filters",
    "lrs_server",
    "track_timeout_budgets",
    "upstream_config",
    "track_cluster_stats",
    "preconnect_policy",
    "connection_pool_per_downstream_connection",
    "dns_jitter",
    "lrs_report_endpoint_metrics",
    "upstream_connection_pool_options",
    "lb_subset_config",
    "load_balancing_policy",
];

/// The cluster `options.cluster` names of the text, or its only one, or the only one of its
/// clusters that hashes requests.
pub fn from_envoy_cluster(text: &str, options: &ImportOptions) -> Result<Cluster, Error> {
    read_envoy(text, options, &mut Lines::ignore())
}

/// A tree that places nothing, passed over with its key named.
fn pass(node: &Node, key: &str, notes: &mut Lines) {
    if notes.keeping() {
        let why: Cow<'static, str> = format!("`{key}`: does not change which host a hash picks").into();
        yaml::note_tree(node, notes, LineStatus::PassedOver, why.clone());
    }
}

fn read_envoy(text: &str, options: &ImportOptions, notes: &mut Lines) -> Result<Cluster, Error> {
    super::check_size(text)?;
    let doc = yaml::parse(text, notes)?;
    let Some(list) = cluster_list(&doc)? else {
        return read_cluster(&doc, notes);
    };
    let clusters = list.seq("clusters")?;
    let chosen = match options.cluster.as_ref().or(options.section.as_ref()) {
        Some(wanted) => clusters.iter().find(|c| name_of(c) == *wanted).ok_or_else(|| {
            parse_error(list.line, format!("no cluster named {wanted:?} (the clusters: {})", names(clusters)))
        })?,
        None if clusters.len() == 1 => &clusters[0],
        None if clusters.is_empty() => return Err(parse_error(list.line, "no clusters")),
        None => {
            // A whole bootstrap file lists every upstream; the one a hash places is the one meant.
            let hashing: Vec<&Node> = clusters.iter().filter(|c| hashes(c)).collect();
            match hashing[..] {
                [one] => one,
                [] => {
                    return Err(parse_error(
                        list.line,
                        format!(
                            "{} clusters ({}), and none with lb_policy RING_HASH or MAGLEV: ringlab reads a \
                             cluster that hashes requests",
                            clusters.len(),
                            names(clusters)
                        ),
                    ))
                }
                _ => {
                    return Err(parse_error(
                        list.line,
                        format!(
                            "{} clusters hash requests ({}): choose one with the cluster option (the clusters: {})",
                            hashing.len(),
                            hashing.iter().map(|c| name_of(c)).collect::<Vec<_>>().join(", "),
                            names(clusters)
                        ),
                    ))
                }
            }
        }
    };
    if notes.keeping() {
        note_around(&doc, list, chosen, notes);
    }
    read_cluster(chosen, notes)
}

/// What is around the cluster read: the keys that lead to its list are read, the rest of
/// a bootstrap file (listeners, admin...) and the other clusters passed over.
fn note_around(doc: &Node, list: &Node, chosen: &Node, notes: &mut Lines) {
    let around = |node: &Node, notes: &mut Lines| {
        for (key, value) in node.map("").unwrap_or_default() {
            match key.as_str() {
                "static_resources" | "clusters" => notes.read(value.line, "where the clusters are"),
                other => pass(value, other, notes),
            }
        }
    };
    around(doc, notes);
    if let Some(resources) = doc.get("static_resources") {
        around(resources, notes);
    }
    notes.section(&name_of(chosen));
    for other in list.seq("clusters").unwrap_or_default() {
        if !std::ptr::eq(other, chosen) {
            let why: Cow<'static, str> = format!("in cluster {}, not the one read", name_of(other)).into();
            yaml::note_tree(other, notes, LineStatus::PassedOver, why.clone());
        }
    }
}

/// The names of a text's clusters, when it lists them (`clusters:`, or items `- name: …`);
/// empty for one cluster alone.
pub fn envoy_clusters(text: &str) -> Result<Vec<String>, Error> {
    let doc = yaml::parse(text, &mut Lines::ignore())?;
    let list = cluster_list(&doc)?;
    Ok(list.map(|l| l.seq("clusters")).transpose()?.map_or_else(Vec::new, |c| c.iter().map(name_of).collect()))
}

/// The text's list of clusters, if it has one: the text itself when it is a list (items of
/// a `clusters:` list pasted as they stand), the `clusters:` under `static_resources:`, or
/// at the top. `None` for one cluster alone.
fn cluster_list(doc: &Node) -> Result<Option<&Node>, Error> {
    if let Value::Seq(_) = doc.value {
        return Ok(Some(doc));
    }
    doc.map("an Envoy cluster")?;
    Ok(match doc.get("static_resources") {
        Some(resources) => {
            resources.map("static_resources")?;
            Some(resources.get("clusters").ok_or_else(|| {
                parse_error(resources.line, "no `clusters:` under static_resources: the cluster is read from there")
            })?)
        }
        None => doc.get("clusters"),
    })
}

/// Whether a cluster's `lb_policy` hashes requests.
fn hashes(cluster: &Node) -> bool {
    cluster.get("lb_policy").and_then(|p| p.text("lb_policy").ok()).is_some_and(|p| matches!(p, "RING_HASH" | "MAGLEV"))
}

fn name_of(c: &Node) -> String {
    c.get("name").and_then(|n| n.text("name").ok()).unwrap_or("").to_string()
}

fn names(clusters: &[Node]) -> String {
    clusters.iter().map(name_of).collect::<Vec<_>>().join(", ")
}

/// A field's entries, each key checked against `known`.
fn fields<'a>(node: &'a Node, what: &str, known: &[&str]) -> Result<&'a [(String, Node)], Error> {
    let entries = node.map(what)?;
    for (key, value) in entries {
        if !known.contains(&key.as_str()) {
            return Err(parse_error(
                value.line,
                format!("unknown field {key:?} in {what} (Envoy refuses unknown fields)"),
            ));
        }
    }
    Ok(entries)
}

/// A protobuf integer, bare or as a wrapper's `{value: N}`.
fn whole(node: &Node, what: &str) -> Result<u64, Error> {
    let text = match node.get("value") {
        Some(inner) => inner.text(what)?,
        None => node.text(what)?,
    };
    text.parse::<u64>().map_err(|_| parse_error(node.line, format!("{what} must be a whole number (got {text:?})")))
}

fn flag(node: &Node, what: &str) -> Result<bool, Error> {
    match node.text(what)? {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(parse_error(node.line, format!("{what} must be true or false (got {other:?})"))),
    }
}

fn read_cluster(doc: &Node, notes: &mut Lines) -> Result<Cluster, Error> {
    let mut policy: Option<(&str, usize)> = None;
    let mut ring = (RingHashFunction::XxHash, 1024u64, 8_388_608u64);
    let mut table = 65_537u64;
    let mut use_hostname = false;
    let mut assignment: Option<&Node> = None;
    // The cluster's type: whether DNS names its hosts, and its line.
    let mut dns: Option<(bool, usize)> = None;
    // Where a setting the build may refuse is (a table size, a ring size), else lb_policy's line.
    let mut settings_line: Option<usize> = None;
    for (key, value) in doc.map("an Envoy cluster")? {
        let line = value.line;
        let why: Cow<'static, str> = match key.as_str() {
            "ring_hash_lb_config" => "the ring's size and hash".into(),
            "maglev_lb_config" => "the Maglev table's size".into(),
            _ => "".into(),
        };
        match key.as_str() {
            "lb_policy" => {
                policy = Some((value.text("lb_policy")?, line));
                notes.read(line, "the balancing policy");
            }
            "ring_hash_lb_config" => {
                for (k, v) in
                    fields(value, "ring_hash_lb_config", &["minimum_ring_size", "maximum_ring_size", "hash_function"])?
                {
                    match k.as_str() {
                        "minimum_ring_size" => {
                            settings_line = Some(v.line);
                            ring.1 = ring_size(v, "minimum_ring_size")?;
                            if ring.1 == 0 {
                                // Envoy takes it, and its ring is then empty: every request fails.
                                return Err(parse_error(
                                    v.line,
                                    "minimum_ring_size must be from 1 to 8388608 (got 0): with 0 Envoy builds an \
                                     empty ring and every request fails",
                                ));
                            }
                        }
                        "maximum_ring_size" => ring.2 = ring_size(v, "maximum_ring_size")?,
                        _ => {
                            ring.0 =
                                RingHashFunction::from_name(v.text("hash_function")?).map_err(|e| on_line(v.line, e))?
                        }
                    }
                }
                yaml::note_tree(value, notes, LineStatus::Read, why.clone());
            }
            "maglev_lb_config" => {
                for (_, v) in fields(value, "maglev_lb_config", &["table_size"])? {
                    settings_line = Some(v.line);
                    table = whole(v, "table_size")?;
                    if table > 5_000_011 {
                        return Err(parse_error(v.line, "table_size is at most 5000011 (Envoy's own limit)"));
                    }
                }
                yaml::note_tree(value, notes, LineStatus::Read, why.clone());
            }
            "common_lb_config" => {
                let known = [
                    "consistent_hashing_lb_config",
                    "healthy_panic_threshold",
                    "update_merge_window",
                    "ignore_new_hosts_until_first_hc",
                    "close_connections_on_host_set_change",
                    "zone_aware_lb_config",
                    "locality_weighted_lb_config",
                    "override_host_status",
                ];
                for (k, v) in fields(value, "common_lb_config", &known)? {
                    match k.as_str() {
                        "locality_weighted_lb_config" => {
                            return Err(parse_error(
                                v.line,
                                "locality_weighted_lb_config is not modelled: ringlab builds one ring over all hosts",
                            ))
                        }
                        "consistent_hashing_lb_config" => {
                            for (ck, cv) in fields(
                                v,
                                "consistent_hashing_lb_config",
                                &["use_hostname_for_hashing", "hash_balance_factor"],
                            )? {
                                if ck == "use_hostname_for_hashing" {
                                    use_hostname = flag(cv, "use_hostname_for_hashing")?;
                                    notes.read(line, "load-balancing settings: how hosts are hashed");
                                    notes.read(v.line, "how hosts are hashed");
                                    notes.read(cv.line, "whether hosts are hashed by their hostname");
                                } else if whole(cv, "hash_balance_factor")? > 0 {
                                    return Err(parse_error(
                                        cv.line,
                                        "hash_balance_factor is not modelled: with it Envoy moves a request off a host \
                                         by the requests in flight at that moment (bounded loads), which no placement \
                                         can know; without requests in flight the answer is the plain ring's",
                                    ));
                                } else {
                                    yaml::note_tree(
                                        cv,
                                        notes,
                                        LineStatus::PassedOver,
                                        "hash_balance_factor 0: no bound on loads".into(),
                                    );
                                }
                            }
                            pass(v, k, notes);
                        }
                        other => pass(v, other, notes),
                    }
                }
                notes.pass(line, "load-balancing settings that do not change which host a hash picks");
            }
            "load_assignment" => {
                notes.read(line, "the cluster's hosts");
                assignment = Some(value);
            }
            "type" => {
                let kind = value.text("type")?;
                if !matches!(kind, "STATIC" | "EDS" | "STRICT_DNS" | "LOGICAL_DNS") {
                    return Err(parse_error(
                        line,
                        format!("type {kind}: its hosts come from the connection at run time; ringlab reads STATIC and DNS clusters"),
                    ));
                }
                dns = Some((kind != "STATIC" && kind != "EDS", line));
                notes.read(line, "the cluster type: where its hosts' addresses come from");
            }
            "cluster_type" => {
                return Err(parse_error(line, "a custom cluster_type is not read: ringlab reads STATIC clusters"))
            }
            "load_balancing_policy" => return Err(parse_error(
                line,
                "load_balancing_policy (typed extensions) is not read: write lb_policy with ring_hash_lb_config or \
                     maglev_lb_config",
            )),
            "name" => notes.read(line, "the cluster's name"),
            other if OTHER_FIELDS.contains(&other) => pass(value, other, notes),
            other => {
                return Err(parse_error(
                    line,
                    format!("unknown cluster field {other:?} (Envoy refuses unknown fields)"),
                ))
            }
        }
    }
    let kind = match policy {
        Some(("RING_HASH", line)) => {
            if ring.1 > ring.2 {
                return Err(parse_error(
                    line,
                    format!("ring hash: minimum_ring_size ({}) > maximum_ring_size ({})", ring.1, ring.2),
                ));
            }
            Kind::Ring { function: ring.0, min: ring.1, max: ring.2 }
        }
        Some(("MAGLEV", _)) => Kind::Maglev { size: table },
        Some((other, line)) => {
            return Err(parse_error(
                line,
                format!("lb_policy {other} does not hash requests: ringlab reads RING_HASH and MAGLEV"),
            ))
        }
        None => {
            return Err(parse_error(doc.line, "no lb_policy: Envoy would balance ROUND_ROBIN, which no hash decides"))
        }
    };
    let Some(assignment) = assignment else {
        return Err(parse_error(doc.line, "no load_assignment: the cluster's endpoints are read from it"));
    };
    let dns_cluster = dns.is_some_and(|d| d.0);
    if use_hostname && !dns_cluster {
        // Envoy's own refusal: a STATIC cluster's hosts have no DNS hostname.
        return Err(parse_error(
            dns.map_or(doc.line, |d| d.1),
            "Cannot use hostname for consistent hashing loadbalancing for cluster of type: 'envoy.cluster.static' \
             (Envoy's words: use_hostname_for_hashing needs a STRICT_DNS or LOGICAL_DNS cluster)",
        ));
    }
    let hosts = endpoints(assignment, use_hostname, dns_cluster, notes)?;
    let line = settings_line.or(policy.map(|p| p.1)).unwrap_or(doc.line);
    cluster(kind, hosts).map_err(|e| on_line(line, e))
}

fn ring_size(node: &Node, what: &str) -> Result<u64, Error> {
    let size = whole(node, what)?;
    if size > 8_388_608 {
        return Err(parse_error(node.line, format!("{what} is at most 8388608 (Envoy's own limit)")));
    }
    Ok(size)
}

/// The hosts of `load_assignment`, in order, each named by its hash key.
fn endpoints(assignment: &Node, use_hostname: bool, dns: bool, notes: &mut Lines) -> Result<Vec<NodeSpec>, Error> {
    let mut hosts: Vec<NodeSpec> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    let mut endpoints_list: &[Node] = &[];
    for (k, v) in fields(assignment, "load_assignment", &["cluster_name", "endpoints", "named_endpoints", "policy"])? {
        match k.as_str() {
            "endpoints" => {
                endpoints_list = v.seq("endpoints")?;
                notes.read(v.line, "the hosts, by locality");
            }
            "named_endpoints" => return Err(parse_error(v.line, "named_endpoints are not read: list the endpoints")),
            other => pass(v, other, notes),
        }
    }
    for locality in endpoints_list {
        let mut lb_endpoints: &[Node] = &[];
        let known = [
            "locality",
            "lb_endpoints",
            "load_balancing_weight",
            "priority",
            "proximity",
            "metadata",
            "leds_cluster_locality_config",
        ];
        for (k, v) in fields(locality, "an endpoints item", &known)? {
            match k.as_str() {
                "lb_endpoints" => {
                    lb_endpoints = v.seq("lb_endpoints")?;
                    notes.read(v.line, "a locality's hosts");
                }
                "priority" if whole(v, "priority")? != 0 => {
                    return Err(parse_error(
                        v.line,
                        "a priority other than 0 is a failover tier Envoy uses only when priority 0 is unhealthy: not \
                         modelled",
                    ))
                }
                "leds_cluster_locality_config" => {
                    return Err(parse_error(v.line, "LEDS endpoints come at run time: list the endpoints"))
                }
                "priority" => notes.pass(v.line, "priority 0: the tier a hash places keys on"),
                other => pass(v, other, notes),
            }
        }
        for item in lb_endpoints {
            notes.read(item.line, "a host");
            let (name, weight) = lb_endpoint(item, use_hostname, dns, notes)?;
            if let Some(before) = hosts.iter().position(|h| h.name == name) {
                return Err(parse_error(
                    item.line,
                    format!(
                        "a second host hashed by {name:?} (line {}): ringlab keeps one host per key",
                        lines[before]
                    ),
                ));
            }
            hosts.push(NodeSpec::new(name).weight(weight as f64));
            lines.push(item.line);
            check_server_count(hosts.len(), item.line)?;
        }
    }
    if hosts.is_empty() {
        return Err(parse_error(assignment.line, "no lb_endpoints in load_assignment"));
    }
    let total: u64 = hosts.iter().map(|h| h.weight as u64).sum();
    if total > u64::from(u32::MAX) {
        return Err(parse_error(assignment.line, "the weights add up past 4294967295 (Envoy refuses it)"));
    }
    Ok(hosts)
}

/// One `lb_endpoints` item: the key Envoy hashes it by, and its weight.
fn lb_endpoint(item: &Node, use_hostname: bool, dns: bool, notes: &mut Lines) -> Result<(String, u64), Error> {
    let known = ["endpoint", "load_balancing_weight", "health_status", "metadata", "endpoint_name"];
    let mut weight = 1u64;
    let mut address: Option<(Option<String>, String)> = None;
    let mut hostname: Option<String> = None;
    let mut hash_key: Option<String> = None;
    for (k, v) in fields(item, "an lb_endpoints item", &known)? {
        match k.as_str() {
            "load_balancing_weight" => {
                weight = whole(v, "load_balancing_weight")?;
                if weight == 0 || weight > u64::from(u32::MAX) {
                    return Err(parse_error(v.line, "load_balancing_weight must be from 1 to 4294967295"));
                }
                yaml::note_tree(v, notes, LineStatus::Read, "the host's weight".into());
            }
            "health_status" => match v.text("health_status")? {
                "HEALTHY" | "UNKNOWN" => notes.pass(v.line, "a healthy host is placed as any other"),
                other => {
                    return Err(parse_error(
                        v.line,
                        format!(
                            "health_status {other} is not read: list healthy hosts, and mark hosts down in ringlab"
                        ),
                    ))
                }
            },
            "metadata" => {
                hash_key = metadata_hash_key(v)?;
                match hash_key {
                    Some(_) => yaml::note_tree(v, notes, LineStatus::Read, "the host's hash_key".into()),
                    None => pass(v, "metadata", notes),
                }
            }
            "endpoint" => {
                let known = ["address", "hostname", "health_check_config", "additional_addresses"];
                notes.read(v.line, "the host's endpoint");
                for (ek, ev) in fields(v, "endpoint", &known)? {
                    match ek.as_str() {
                        "address" => {
                            address = Some(socket_address(ev, use_hostname && dns)?);
                            yaml::note_tree(ev, notes, LineStatus::Read, "the host's address".into());
                        }
                        "hostname" => {
                            hostname = Some(ev.text("hostname")?.to_string());
                            if use_hostname {
                                notes.read(ev.line, "the host's hostname, which it is hashed by");
                            } else {
                                notes.pass(ev.line, "a hostname: hosts are hashed by address here");
                            }
                        }
                        other => pass(ev, other, notes),
                    }
                }
            }
            other => pass(v, other, notes),
        }
    }
    let Some(address) = address else {
        return Err(parse_error(item.line, "an endpoint without an address"));
    };
    // A DNS cluster's host is named by the endpoint's hostname, else the name it resolves.
    let (address, dns_name) = address;
    let key = match (hash_key, use_hostname, hostname) {
        (Some(key), _, _) if !key.is_empty() => key,
        (_, true, Some(host)) if !host.is_empty() => host,
        (_, true, _) => dns_name,
        _ => address.ok_or_else(|| {
            parse_error(
                item.line,
                "a DNS name resolves at run time: hash by hostname (use_hostname_for_hashing) or give an IP address",
            )
        })?,
    };
    Ok((key, weight))
}

/// `metadata.filter_metadata["envoy.lb"].hash_key`, which replaces the host's key.
fn metadata_hash_key(metadata: &Node) -> Result<Option<String>, Error> {
    let Some(filter) = metadata.get("filter_metadata") else { return Ok(None) };
    let Some(lb) = filter.get("envoy.lb") else { return Ok(None) };
    match lb.get("hash_key") {
        Some(key) => match &key.value {
            Value::Scalar(text) => Ok(Some(text.clone())),
            _ => Err(parse_error(key.line, "hash_key must be a string")),
        },
        None => Ok(None),
    }
}

/// `address.socket_address`: `ip:port` as Envoy writes the address (`[v6]:port`), `None` for a
/// DNS name where `names` allows one; and the address text itself.
fn socket_address(address: &Node, names: bool) -> Result<(Option<String>, String), Error> {
    let Some(socket) = address.get("socket_address") else {
        return Err(parse_error(address.line, "only socket_address addresses are read (a pipe has no port to hash)"));
    };
    let known = [
        "address",
        "port_value",
        "protocol",
        "named_port",
        "resolver_name",
        "ipv4_compat",
        "network_namespace_filepath",
    ];
    let mut ip: Option<(String, usize)> = None;
    let mut port: Option<u64> = None;
    for (k, v) in fields(socket, "socket_address", &known)? {
        match k.as_str() {
            "address" => ip = Some((v.text("address")?.to_string(), v.line)),
            "port_value" => port = Some(whole(v, "port_value")?),
            "named_port" => return Err(parse_error(v.line, "named_port is not read: give port_value")),
            "resolver_name" => return Err(parse_error(v.line, "a custom resolver_name is not read")),
            _ => {}
        }
    }
    let (Some((ip, line)), Some(port)) = (ip, port) else {
        return Err(parse_error(socket.line, "socket_address needs address and port_value"));
    };
    if port > 65_535 {
        return Err(parse_error(line, format!("port_value {port} is past 65535")));
    }
    match ip.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(v4)) => Ok((Some(format!("{v4}:{port}")), ip)),
        Ok(std::net::IpAddr::V6(v6)) => Ok((Some(format!("[{v6}]:{port}")), ip)),
        Err(_) if names && !ip.is_empty() => Ok((None, ip)),
        Err(_) => Err(parse_error(
            line,
            format!(
                "{ip:?} is not an IP address: hosts are hashed by ip:port (a DNS name needs use_hostname_for_hashing)"
            ),
        )),
    }
}
