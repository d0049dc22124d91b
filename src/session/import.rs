//! Sessions from the user's own configuration text, through the one import door
//! ([`crate::import`]).

use super::{Session, State, Transition};
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

    /// Replaces the ring with the one a configuration text of `kind` describes, as one step
    /// of the history: [`undo`](Session::undo) goes back to the ring before the import. The
    /// user's keys, workload and comparison stay. On error nothing changes.
    pub fn import(&mut self, kind: &str, text: &str, options: &import::ImportOptions) -> Result<Transition, Error> {
        let label = import::kind(kind)?.label;
        let next = State::of_cluster(import::from_config(kind, text, options)?)?;
        let keys = self.cache_of(&next)?;
        let servers = next.nodes().len();
        let label = format!("Imported {servers} {} from your {label}", if servers == 1 { "server" } else { "servers" });
        let transition = self.told(&self.state, &next, label.clone());
        Ok(self.advance(next, keys, label, transition))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_readout_says_what_moved_between_servers_that_stayed() {
        use crate::session::Change;
        let detail = |t: &Transition| t.lines.detail.join(" ");
        // Envoy scales every host's points to its minimum ring size: a join redraws them all.
        let mut envoy = Session::from_config("envoy", import::CONFIG_KINDS[5].example).unwrap();
        let t = envoy.apply(Change::Add(crate::node::NodeSpec::new("10.0.0.4:8080"))).unwrap();
        let e = t.exact.as_ref().unwrap();
        assert!(e.between_stayed_fraction > 0.01, "{e:?}");
        // On a join, what is not the joiner's share went between servers that stayed.
        assert!((e.moved_fraction - e.ideal_fraction - e.between_stayed_fraction).abs() < 1e-12, "{e:?}");
        assert!(detail(&t).contains("moved between servers that stayed"), "{}", detail(&t));
        // A ring of fixed points moves nothing between the others: on a join, or a node down.
        let mut ring = Session::playground();
        for change in
            [Change::Add(crate::node::NodeSpec::new("node-6")), Change::SetDown { name: "node-2".into(), down: true }]
        {
            let t = ring.apply(change).unwrap();
            let e = t.exact.as_ref().unwrap();
            assert_eq!(e.between_stayed_fraction, 0.0, "{e:?}");
            assert!(e.moved_fraction > 0.0);
            assert!(!detail(&t).contains("between servers that stayed"), "{}", detail(&t));
        }
    }

    #[test]
    fn an_import_is_one_step_that_undo_takes_back() {
        let mut s = Session::playground();
        let before = s.link();
        let example = import::CONFIG_KINDS[2].example; // nginx
        let t = s.import("nginx", example, &import::ImportOptions::default()).unwrap();
        assert_eq!(t.lines.moved, "Imported 3 servers from your nginx upstream block.");
        let imported = Session::from_config("nginx", example).unwrap();
        assert_eq!(s.link(), imported.link());
        assert_eq!(s.scene().key_owners, imported.scene().key_owners);
        assert_eq!(s.history_labels().0, Some(t.label.as_str()));
        let undone = s.undo().unwrap().unwrap();
        // Rings of other servers: what was done, with no "every key moved".
        assert_eq!(undone.lines.moved, "Undid: Imported 3 servers from your nginx upstream block.");
        assert_eq!(undone.movers.count, 0);
        assert_eq!(s.link(), before);
        s.redo().unwrap().unwrap();
        assert_eq!(s.link(), imported.link());
        // A text refused changes nothing, history included.
        let e = s.import("nginx", "upstream x {\n    sever 10.0.0.1:80;\n}\n", &import::ImportOptions::default());
        assert!(e.is_err());
        assert_eq!(s.link(), imported.link());
        assert_eq!(s.history_labels(), (Some(t.label.as_str()), None));
    }

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
