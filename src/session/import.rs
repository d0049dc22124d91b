//! Sessions from the user's own configuration text, through the one import door
//! ([`crate::import`]).

use super::Session;
use crate::import;
use crate::Error;

impl Session {
    /// The session of a configuration text of `kind` (see [`import::CONFIG_KINDS`]); errors
    /// name the line, and nothing partial is built.
    pub fn from_config(kind: &str, text: &str) -> Result<Session, Error> {
        Session::from_config_with(kind, text, &import::ImportOptions::default())
    }

    /// [`from_config`](Session::from_config), with the kind's choices ([`import::ImportOptions`]).
    pub fn from_config_with(kind: &str, text: &str, options: &import::ImportOptions) -> Result<Session, Error> {
        Session::from_cluster(import::from_config(kind, text, options)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_opens_with_three_servers_and_its_down_marks() {
        for kind in import::CONFIG_KINDS {
            let s = Session::from_config(kind.kind, kind.example).unwrap_or_else(|e| panic!("{}: {e}", kind.kind));
            assert_eq!(s.nodes().len(), 3, "{}", kind.kind);
            // nginx's `down`, HAProxy's `disabled`, Redis's `fail` flag: the third is down (a
            // memcached list, a twemproxy pool and an Envoy cluster list no down servers).
            let down = !matches!(kind.kind, "memcached" | "twemproxy" | "envoy");
            assert_eq!(s.node_rows()[2].down, down, "{}", kind.kind);
            assert!(!s.node_rows()[0].down);
        }
        let redis = Session::from_config("redis", import::CONFIG_KINDS[0].example).unwrap();
        // The failed master's slots (10923-16383) have no owner: 5,461 of 16,384.
        let rows = redis.node_rows();
        assert_eq!(rows[2].name, "10.0.0.3:6379");
        let lost = redis.scene().key_owners.iter().filter(|&&o| o == super::super::NO_OWNER).count();
        let in_failed =
            (0..2000).filter(|k| crate::algo::stores::redis::key_slot(format!("key:{k}").as_bytes()) >= 10923).count();
        assert_eq!(lost, in_failed);
        let memcached = Session::from_config("memcached", import::CONFIG_KINDS[1].example).unwrap();
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
