//! Errors with kinds: each refusal comes back as the kind that names what was refused (the
//! option and its range, the node, the line), with the code and message it has always had;
//! and the codes are the `.d.ts`'s `ErrorCode`.

use ringlab::algo::{Algorithm, Cluster, OptionValue, Options};
use ringlab::session::Session;
use ringlab::{Error, NodeSpec};
use std::path::PathBuf;

fn cluster(algorithm: Algorithm, names: &[&str]) -> Cluster {
    Cluster::new(Options::new(algorithm), names.iter().map(|n| NodeSpec::new(*n))).unwrap()
}

#[test]
fn the_typescript_error_codes_are_the_engines() {
    let dts = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("types/ringlab.d.ts")).unwrap();
    let union = dts.split("export type ErrorCode =").nth(1).unwrap().split(';').next().unwrap();
    let mut typed: Vec<&str> = union.split('|').map(|c| c.trim().trim_matches('"')).filter(|c| !c.is_empty()).collect();
    let mut codes = Error::CODES.to_vec();
    typed.sort_unstable();
    codes.sort_unstable();
    assert_eq!(typed, codes, "ErrorCode in types/ringlab.d.ts against Error::CODES");
}

#[test]
fn a_bucket_hash_refuses_to_remove_all_but_its_last_bucket() {
    for algorithm in [Algorithm::Jump, Algorithm::JumpBack] {
        let mut c = cluster(algorithm, &["a", "b", "c"]);
        let err = c.remove("b").unwrap_err();
        match &err {
            Error::RemovalNotAllowed { node, last, .. } => assert_eq!((node.as_str(), last.as_str()), ("b", "c")),
            other => panic!("{}: {other:?}", algorithm.name()),
        }
        // Not an option: the algorithm cannot do it.
        assert_eq!(err.code(), "unsupported");
        assert!(err.to_string().contains("can only remove its last bucket (\"c\"); removing \"b\""), "{err}");
        c.remove("c").unwrap();
    }
}

#[test]
fn an_option_refused_names_the_option() {
    let mut options = Options::new(Algorithm::Ring);
    match options.set("vnode", OptionValue::Whole(3)).unwrap_err() {
        Error::UnknownOption { name, known } => {
            assert_eq!(name, "vnode");
            assert!(known.iter().any(|k| k == "vnodes"), "{known:?}");
        }
        other => panic!("{other:?}"),
    }
    match Algorithm::from_name("ketama-ish").unwrap_err() {
        Error::UnknownChoice { option, got, message } => {
            assert_eq!((option.as_str(), got.as_str()), ("algorithm", "ketama-ish"));
            assert!(message.starts_with("unknown algorithm \"ketama-ish\": choose one of ring, "), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let err = Options::new(Algorithm::MultiProbe).set("probes", OptionValue::Whole(0)).unwrap_err();
    match &err {
        Error::OptionOutOfRange { option, got, min, max, .. } => {
            assert_eq!((option.as_str(), *got, *min, *max), ("probes", 0.0, 1.0, 100.0));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(err.code(), "invalid-option");
    assert_eq!(err.to_string(), "invalid option: probes must be between 1 and 100 (got 0)");
    let err = options.set("tableSize", OptionValue::Flag(true)).unwrap_err();
    assert!(matches!(&err, Error::InvalidOption { option, .. } if option == "tableSize"), "{err:?}");
}

#[test]
fn a_node_the_system_refuses_is_named() {
    let err = Cluster::new(Options::new(Algorithm::Memjs), [NodeSpec::new("a,b")]).err().unwrap();
    assert!(matches!(&err, Error::NodeRefused { node, .. } if node == "a,b"), "{err:?}");
    assert_eq!(err.to_string(), r#"invalid option: "a,b": memjs splits its server list at ','"#);
    let err = Cluster::new(Options::new(Algorithm::NginxConsistent), [NodeSpec::new("a").weight(1.5)]).err().unwrap();
    assert!(matches!(err, Error::WeightRefused { weight, .. } if weight == 1.5), "{err:?}");
    assert_eq!(err.to_string(), "invalid option: nginx weights are whole numbers (got 1.5)");
    assert_eq!(err.code(), "invalid-option");
}

#[test]
fn a_link_refusal_quotes_the_options_own_words() {
    let err = Session::from_link("#ringlab=2&z=3").unwrap_err();
    match &err {
        Error::Link { reason } => assert_eq!(reason, "the Zipf exponent must be between 0 and 2 (got 3)"),
        other => panic!("{other:?}"),
    }
    assert_eq!(err.code(), "invalid-option");
    assert_eq!(
        err.to_string(),
        "invalid option: this link could not be read: the Zipf exponent must be between 0 and 2 (got 3)"
    );
}
