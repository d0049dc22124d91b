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
pub const CONFIG_KINDS: [ConfigKind; 2] = [
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
            other => {
                let kinds: Vec<&str> = CONFIG_KINDS.iter().map(|k| k.kind).collect();
                return Err(Error::InvalidOption(format!("unknown config kind {other:?}: choose {}", kinds.join(" or "))));
            }
        };
        Ok(Session::from_cluster(cluster))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_opens_and_keeps_its_down_servers() {
        for kind in CONFIG_KINDS {
            let s = Session::from_config(kind.kind, kind.example).unwrap();
            assert_eq!(s.nodes().len(), 3, "{}", kind.kind);
            assert!(s.node_rows()[2].down, "{}: the third server is down in the example", kind.kind);
            assert!(!s.node_rows()[0].down);
        }
    }

    #[test]
    fn bad_text_names_its_line() {
        let e = Session::from_config("nginx", "upstream x {\n    hash $k consistent;\n    server ;\n}\n").unwrap_err();
        assert_eq!(e.code(), "parse-error", "{e}");
        assert!(e.to_string().starts_with("line 3"), "{e}");
        assert_eq!(Session::from_config("toml", "").unwrap_err().code(), "invalid-option");
    }
}
