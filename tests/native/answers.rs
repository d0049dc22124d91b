//! Answers that never contradict each other (issue #57): a batch of owners (`keyOwners`, a
//! session's scene) names no node where `locate` has none, and the preference list starts
//! where `locate` points; and an option an import accepts is what `configure` and the link
//! it writes accept, and the other way round (Envoy's `minimum_ring_size`).

use crate::every_entry::{names, options};
use ringlab::algo::{Algorithm, Cluster, OptionValue, Options, NO_OWNER};
use ringlab::import::{self, ImportOptions};
use ringlab::session::{Change, Session, Settings, KEY_PREFIX};
use ringlab::{Error, NodeSpec};

/// Every key of `key:0 ..` as `keyOwners` answers it, against `locate` and the preference
/// list key by key.
fn check_agreement(cluster: &Cluster, what: &str) {
    let owners = cluster.key_owners("key:", 300).unwrap();
    assert_eq!(owners.len(), 300);
    for (k, &owner) in owners.iter().enumerate() {
        let key = format!("key:{k}");
        match cluster.locate_index(&key) {
            Ok(i) => assert_eq!(owner, i as u32, "{what}: {key}"),
            Err(e) => assert_eq!(owner, NO_OWNER, "{what}: {key} has no owner ({e}) but keyOwners names one"),
        }
        if let Some(list) = cluster.preference_list(&key, 2) {
            match (cluster.locate_index(&key), list) {
                (Ok(i), Ok(list)) => assert_eq!(list.first(), Some(&i), "{what}: {key}'s replicas start elsewhere"),
                (Ok(i), Err(e)) => panic!("{what}: {key} is at {i} but its replicas are refused: {e}"),
                (Err(_), Ok(list)) => assert!(list.is_empty(), "{what}: {key} has no owner but replicas {list:?}"),
                (Err(_), Err(_)) => {}
            }
        }
    }
}

#[test]
fn key_owners_name_no_owner_where_locate_has_none() {
    for algorithm in Algorithm::ALL {
        let names = names(4);
        let mut cluster = Cluster::new(options(algorithm), names.iter().map(String::as_str)).unwrap();
        check_agreement(&cluster, &format!("{}, all up", algorithm.name()));
        if cluster.set_down(&names[1], true).is_err() {
            continue; // no down nodes in this algorithm
        }
        check_agreement(&cluster, &format!("{}, one down", algorithm.name()));
        for name in &names {
            cluster.set_down(name, true).unwrap();
        }
        check_agreement(&cluster, &format!("{}, all down", algorithm.name()));
        // Every node down: no key has an owner, in a batch as one by one.
        let owners = cluster.key_owners("key:", 100).unwrap();
        assert!(owners.iter().all(|&o| o == NO_OWNER), "{}: {owners:?}", algorithm.name());
    }
}

/// No node: a batch is refused as a lookup is (nothing to refuse when it asks for no key).
#[test]
fn an_empty_ring_refuses_a_batch_as_it_refuses_a_lookup() {
    for algorithm in Algorithm::ALL {
        let Ok(empty) = Cluster::new(options(algorithm), Vec::<NodeSpec>::new()) else { continue };
        assert_eq!(empty.key_owners("key:", 0).unwrap(), Vec::<u32>::new());
        assert_eq!(empty.key_owners("key:", 5).unwrap_err(), Error::EmptyRing);
        assert!(empty.locate("key:0").is_err(), "{}", algorithm.name());
    }
    let ring = Cluster::new(Options::new(Algorithm::Ring), Vec::<NodeSpec>::new()).unwrap();
    assert_eq!(ring.locate("key:0").unwrap_err(), Error::EmptyRing);
}

#[test]
fn the_scene_and_key_owners_are_one_answer() {
    for algorithm in Algorithm::ALL {
        let settings = Settings { algorithm, keys: 200, ..Settings::default() };
        let names = names(4);
        let Ok(mut session) = Session::new(settings, names.iter().map(String::as_str)) else { continue };
        for down in [1, 4] {
            for name in &names[..down] {
                if session.apply(Change::SetDown { name: name.clone(), down: true }).is_err() {
                    break;
                }
            }
            let scene = session.scene().key_owners;
            let owners = session.cluster().key_owners(KEY_PREFIX, scene.len()).unwrap();
            assert_eq!(scene, owners, "{}: {down} down", algorithm.name());
        }
    }
}

/// An Envoy cluster whose ring has `minimum_ring_size: {min}`.
fn envoy(min: u64) -> String {
    format!(
        "name: cache\ntype: STATIC\nlb_policy: RING_HASH\nring_hash_lb_config:\n  minimum_ring_size: {min}\n\
         load_assignment:\n  cluster_name: cache\n  endpoints:\n  - lb_endpoints:\n    - endpoint:\n        \
         address:\n          socket_address: {{ address: 10.0.0.1, port_value: 8080 }}\n    - endpoint:\n        \
         address:\n          socket_address: {{ address: 10.0.0.2, port_value: 8080 }}\n"
    )
}

/// A minimum ring size of 0 is Envoy's empty ring (every request fails): refused alike by the
/// import, by the option and by a link, each naming the option and its range; 1 is taken by
/// all three, and the imported ring's own link opens it again.
#[test]
fn an_envoy_minimum_ring_size_is_taken_or_refused_alike_everywhere() {
    let err = import::from_config("envoy", &envoy(0), &ImportOptions::default()).unwrap_err();
    assert_eq!(err.code(), "parse-error");
    match &err {
        Error::Parse { line, message } => {
            assert_eq!(*line, 5);
            assert!(message.starts_with("minimum_ring_size must be from 1 to 8388608 (got 0)"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert!(Session::from_config("envoy", &envoy(0)).is_err());
    let err = Options::new(Algorithm::EnvoyRingHash).set("minimumRingSize", OptionValue::Whole(0)).unwrap_err();
    match &err {
        Error::OptionOutOfRange { option, got, min, max, .. } => {
            assert_eq!((option.as_str(), *got, *min, *max), ("minimumRingSize", 0.0, 1.0, 8_388_608.0));
        }
        other => panic!("{other:?}"),
    }
    // Taken by all three: the import, its session's link, and the option.
    let imported = import::from_config("envoy", &envoy(1), &ImportOptions::default()).unwrap();
    assert!(imported.locate("user:1").is_ok());
    let session = Session::from_config("envoy", &envoy(1)).unwrap();
    let link = session.link();
    assert!(link.contains("rn=1"), "{link}");
    let reopened = Session::from_link(&link).unwrap();
    assert_eq!(reopened.link(), link);
    Options::new(Algorithm::EnvoyRingHash).set("minimumRingSize", OptionValue::Whole(1)).unwrap();
    // The link of a ring of minimum 0 (as the import once wrote it) is refused, naming it.
    let zero = link.replace("rn=1", "rn=0");
    let err = Session::from_link(&zero).unwrap_err();
    assert_eq!(err.code(), "invalid-option");
    assert!(err.to_string().contains("minimumRingSize must be between 1 and 8388608 (got 0)"), "{err}");
}
