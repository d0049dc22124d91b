//! Sessions from the user's own configuration text: which kinds of text the playground reads,
//! with an example of each for the page's placeholder.

use super::Session;
use crate::Error;
use serde::Serialize;

/// A kind of configuration text the playground reads.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ConfigKind {
    /// What `Session::from_config` takes.
    pub kind: &'static str,
    /// What to call it in a picker.
    pub label: &'static str,
    /// A small valid example.
    pub example: &'static str,
}

/// Every kind, in the order a picker lists them.
pub const CONFIG_KINDS: [ConfigKind; 4] = [
    ConfigKind {
        kind: "redis",
        label: "redis-cli cluster nodes",
        example: "07c37dfeb235213a872192d90877d0cd55635b91 10.0.0.1:6379@16379 myself,master - 0 1426238317239 1 connected 0-5460\n\
e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 10.0.0.2:6379@16379 master - 0 1426238316232 2 connected 5461-10922\n\
67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1 10.0.0.3:6379@16379 master,fail - 1426238316232 1426238314232 3 disconnected 10923-16383\n\
292f8b365bb7edb5e285caf0b7e6ddc7265d2f4f 10.0.0.4:6379@16379 slave 07c37dfeb235213a872192d90877d0cd55635b91 0 1426238317741 1 connected\n",
    },
    ConfigKind {
        kind: "memcached",
        label: "memcached server list (libmemcached)",
        example: "# host:port [weight], as libmemcached and twemproxy list servers\n10.0.0.1:11211\n10.0.0.2:11211 2\n10.0.0.3:11211\n",
    },
    ConfigKind {
        kind: "nginx",
        label: "nginx upstream block",
        example: "upstream cache {\n    hash $request_uri consistent;\n    server 10.0.0.1:11211;\n    server 10.0.0.2:11211 weight=2;\n    server 10.0.0.3:11211 down;\n}\n",
    },
    ConfigKind {
        kind: "haproxy",
        label: "HAProxy backend section",
        example: "backend cache\n    balance hdr(X-Key)\n    hash-type consistent sdbm avalanche\n    server c1 10.0.0.1:11211\n    server c2 10.0.0.2:11211 weight 2\n    server c3 10.0.0.3:11211 disabled\n",
    },
];

impl Session {
    /// The session of a configuration text of `kind` (see [`CONFIG_KINDS`]); errors name the
    /// line, and nothing partial is built.
    pub fn from_config(kind: &str, text: &str) -> Result<Session, Error> {
        let cluster = match kind {
            "nginx" => crate::algo::from_nginx_upstream(text)?,
            "haproxy" => crate::algo::from_haproxy_backend(text)?,
            "redis" => crate::algo::import::from_redis_cluster_nodes(text)?,
            "memcached" => crate::algo::import::from_memcached_servers(text, crate::algo::Algorithm::LibmemcachedWeighted)?,
            other => {
                let kinds: Vec<&str> = CONFIG_KINDS.iter().map(|k| k.kind).collect();
                return Err(Error::InvalidOption(format!("unknown config kind {other:?}: choose {}", kinds.join(" or "))));
            }
        };
        Session::from_cluster(cluster)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_opens_with_three_servers_and_its_down_marks() {
        for kind in CONFIG_KINDS {
            let s = Session::from_config(kind.kind, kind.example).unwrap_or_else(|e| panic!("{}: {e}", kind.kind));
            assert_eq!(s.nodes().len(), 3, "{}", kind.kind);
            // nginx's `down`, HAProxy's `disabled`, Redis's `fail` flag: the third is down.
            let down = kind.kind != "memcached";
            assert_eq!(s.node_rows()[2].down, down, "{}", kind.kind);
            assert!(!s.node_rows()[0].down);
        }
        let redis = Session::from_config("redis", CONFIG_KINDS[0].example).unwrap();
        // The failed master's slots (10923-16383) have no owner: 5,461 of 16,384.
        let rows = redis.node_rows();
        assert_eq!(rows[2].name, "10.0.0.3:6379");
        let lost = redis.scene().key_owners.iter().filter(|&&o| o == super::super::NO_OWNER).count();
        let in_failed = (0..2000).filter(|k| crate::algo::redis::key_slot(format!("key:{k}").as_bytes()) >= 10923).count();
        assert_eq!(lost, in_failed);
        let memcached = Session::from_config("memcached", CONFIG_KINDS[1].example).unwrap();
        assert_eq!(memcached.node_rows()[1].weight, 2.0);
        assert_eq!(memcached.settings().algorithm, crate::algo::Algorithm::LibmemcachedWeighted);
    }

    #[test]
    fn bad_text_names_its_line() {
        let e = Session::from_config("nginx", "upstream x {\n    hash $k consistent;\n    server ;\n}\n").unwrap_err();
        assert_eq!(e.code(), "parse-error", "{e}");
        assert!(e.to_string().starts_with("line 3"), "{e}");
        assert_eq!(Session::from_config("toml", "").unwrap_err().code(), "invalid-option");
    }
}
