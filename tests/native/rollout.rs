//! Stale rings while a change spreads (`rollout`) and staged changes (`plan`), checked against
//! first principles: a brute-force simulation slot by slot and client by client, counts from
//! `migration::between`, and rings rebuilt here to check a sizing's answer.

use proptest::prelude::*;
use ringlab::algo::{Algorithm, Cluster, Options};
use ringlab::plan::{self, PlanOptions, SizingOptions, Staging};
use ringlab::rollout::{self, Lag, Rollout, Strategy, System, Traffic};
use ringlab::{analysis, migration, Config, NodeSpec, Ring};

fn cluster(algorithm: Algorithm, names: &[&str]) -> Cluster {
    Cluster::new(Options::new(algorithm), names.iter().copied()).unwrap()
}

fn joined(before: &Cluster, name: &str) -> Cluster {
    let mut after = before.clone();
    after.add(NodeSpec::new(name)).unwrap();
    after
}

fn left(before: &Cluster, name: &str) -> Cluster {
    let mut after = before.clone();
    after.remove(name).unwrap();
    after
}

const FIVE: [&str; 5] = ["10.0.0.1:6379", "10.0.0.2:6379", "10.0.0.3:6379", "10.0.0.4:6379", "10.0.0.5:6379"];

#[test]
fn with_every_client_current_nothing_is_misrouted() {
    for algorithm in
        [Algorithm::Ring, Algorithm::RedisCluster, Algorithm::Jump, Algorithm::Cassandra, Algorithm::Maglev]
    {
        let before = cluster(algorithm, &FIVE);
        let after = joined(&before, "10.0.0.6:6379");
        let options = Rollout { clients: 50, lag: Lag::Fixed { ms: 0.0 }, ..Rollout::default() };
        let t = rollout::propagate(&before, &after, &options).unwrap();
        assert!(t.moved > 0.0, "{algorithm:?}");
        for series in [&t.misrouted, &t.hops, &t.misses, &t.stale_reads, &t.inconsistent_writes, &t.stale_traffic] {
            assert!(series.iter().all(|&x| x == 0.0), "{algorithm:?}");
        }
        assert_eq!(t.converged_at_ms, Some(0.0));
        assert_eq!(t.totals.misrouted, 0.0);
    }
}

#[test]
fn k_of_c_stale_clients_misroute_the_moved_share_times_k_over_c() {
    for algorithm in [Algorithm::Ring, Algorithm::Libketama, Algorithm::RedisCluster, Algorithm::Rendezvous] {
        let before = cluster(algorithm, &FIVE);
        for after in [joined(&before, "10.0.0.6:6379"), left(&before, "10.0.0.3:6379")] {
            let c = 8;
            // Client i adopts at 100·(i+1) ms: at 100k + 50 ms, C - k - 1 ... are stale.
            let options = Rollout {
                clients: c,
                lag: Lag::Even { ms: 800.0 },
                duration_ms: 1000.0,
                step_ms: 50.0,
                refresh_on_redirect: Some(false),
                ..Rollout::default()
            };
            let t = rollout::propagate(&before, &after, &options).unwrap();
            for (i, &time) in t.times.iter().enumerate() {
                let stale = (0..c).filter(|&j| 100.0 * (j + 1) as f64 > time).count();
                let want = t.moved * stale as f64 / c as f64;
                assert!((t.misrouted[i] - want).abs() < 1e-12, "{algorithm:?} at {time}: {} vs {want}", t.misrouted[i]);
            }
            assert_eq!(t.converged_at_ms, Some(800.0));
            // The integral: each client misroutes the moved share until it adopts.
            let want: f64 = (0..c).map(|j| 100.0 * (j + 1) as f64).sum::<f64>() / c as f64 * t.moved * 10.0;
            assert!((t.totals.misrouted - want).abs() < 1e-6 * want.max(1.0), "{} vs {want}", t.totals.misrouted);
            assert_eq!(t.exact, algorithm != Algorithm::Rendezvous);
        }
    }
}

#[test]
fn exact_moved_shares_are_migration_between_counts() {
    let before = cluster(Algorithm::Ring, &FIVE);
    for after in [joined(&before, "x"), left(&before, "10.0.0.2:6379")] {
        let m = migration::between(before.arcs().unwrap(), after.arcs().unwrap()).unwrap();
        let moved = migration::exact_moved(before.arcs().unwrap(), after.arcs().unwrap()).unwrap();
        assert_eq!(moved.total(), m.moved_fraction);
        // A join's moved keys leave nodes that stay; a leave's leave the node that is gone.
        let gone: u128 = m
            .arcs
            .iter()
            .filter(|a| !after.nodes().iter().any(|n| n.name == a.from))
            .map(|a| u128::from(a.end - a.start) + 1)
            .sum();
        assert_eq!(moved.gone, gone as f64 / 2f64.powi(32));
    }
}

/// Brute force: every Redis slot, every client, at every time, with each client's epoch
/// found here from the lag's definition; the slot owners from `Arcs::owner_of` of each state.
fn brute_force(
    states: &[Cluster],
    published: &[f64],
    adopt: impl Fn(usize, usize) -> f64,
    clients: usize,
    times: &[f64],
    system: System,
    writes: f64,
) -> Vec<[f64; 5]> {
    // Owners by name id, each state's slot table read through `Arcs::owner_of`.
    let mut names: Vec<String> = Vec::new();
    let mut id = |name: &str| match names.iter().position(|n| n == name) {
        Some(i) => i,
        None => {
            names.push(name.to_string());
            names.len() - 1
        }
    };
    let owners: Vec<Vec<usize>> = states
        .iter()
        .map(|s| {
            let arcs = s.arcs().unwrap();
            (0..16384).map(|slot| id(arcs.node_name(arcs.owner_of(slot).unwrap()))).collect()
        })
        .collect();
    let members: Vec<Vec<usize>> = states.iter().map(|s| s.nodes().iter().map(|n| id(&n.name)).collect()).collect();
    times
        .iter()
        .map(|&t| {
            let current = published.iter().filter(|&&p| p <= t).count();
            let mut row = [0.0; 5];
            for i in 0..clients {
                let held = (1..=published.len()).filter(|&e| adopt(i, e) <= t).max().unwrap_or(0);
                for (&old, &new) in owners[held].iter().zip(&owners[current]) {
                    if old == new {
                        continue;
                    }
                    let alive = members[current].contains(&old);
                    let share = 1.0 / 16384.0 / clients as f64;
                    row[0] += share;
                    match system {
                        System::Redirect => {
                            row[1] += share;
                            if !alive {
                                row[2] += share;
                            }
                        }
                        System::Coordinator => row[1] += share,
                        System::ClientSide | System::Proxy => {
                            if alive {
                                row[3] += share * (1.0 - writes);
                                row[4] += share * writes;
                            } else {
                                row[2] += share;
                            }
                        }
                    }
                }
            }
            row
        })
        .collect()
}

#[test]
fn a_slot_by_slot_simulation_equals_the_exact_timeline() {
    let before = cluster(Algorithm::RedisCluster, &FIVE);
    let middle = joined(&before, "10.0.0.6:6379");
    let after = left(&middle, "10.0.0.2:6379");
    let states = [before, middle, after];
    let published = [0.0, 300.0];
    let clients = 6;
    for system in [System::Redirect, System::ClientSide, System::Coordinator] {
        for lag in
            [Lag::Even { ms: 500.0 }, Lag::Poll { every_ms: 250.0 }, Lag::Exponential { mean_ms: 200.0, seed: 9 }]
        {
            let options = Rollout {
                clients,
                lag,
                system: Some(system),
                duration_ms: 1000.0,
                step_ms: 77.0,
                refresh_on_redirect: Some(false),
                write_share: 0.25,
                ..Rollout::default()
            };
            let t = rollout::propagate_epochs(&states, &published, &options).unwrap();
            // The adoption times from each shape's definition, written out here (the
            // exponential draws are the engine's own: checked for their relations below).
            let adopt = |i: usize, e: usize| -> f64 {
                let p = published[e - 1];
                match lag {
                    Lag::Even { ms } => p + ms * (i + 1) as f64 / clients as f64,
                    Lag::Poll { every_ms } => {
                        let phase = every_ms * (i + 1) as f64 / clients as f64;
                        let mut at = phase;
                        while at < p {
                            at += every_ms;
                        }
                        at
                    }
                    _ => f64::NAN,
                }
            };
            if matches!(lag, Lag::Exponential { .. }) {
                // Every client's epoch is recovered from stale_traffic: instead check the
                // convergence and that the counters keep their system's relations.
                for i in 0..t.times.len() {
                    assert!(t.misrouted[i] <= t.stale_traffic[i] + 1e-12);
                    match system {
                        System::Redirect => assert_eq!(t.hops[i], t.misrouted[i]),
                        System::Coordinator => assert_eq!(t.misses[i], 0.0),
                        _ => assert!(
                            (t.stale_reads[i] + t.inconsistent_writes[i] + t.misses[i] - t.misrouted[i]).abs() < 1e-12
                        ),
                    }
                }
                assert!(t.converged_at_ms.is_some());
                continue;
            }
            let brute = brute_force(&states, &published, adopt, clients, &t.times, system, 0.25);
            for (k, row) in brute.iter().enumerate() {
                let got = [t.misrouted[k], t.hops[k], t.misses[k], t.stale_reads[k], t.inconsistent_writes[k]];
                for c in 0..5 {
                    assert!(
                        (got[c] - row[c]).abs() < 1e-9,
                        "{system:?} {lag:?} at {}: counter {c}: {} vs {}",
                        t.times[k],
                        got[c],
                        row[c]
                    );
                }
            }
        }
    }
}

#[test]
fn refresh_on_redirect_never_makes_things_worse() {
    let before = cluster(Algorithm::RedisCluster, &FIVE);
    for after in [joined(&before, "10.0.0.6:6379"), left(&before, "10.0.0.4:6379")] {
        for lag in [
            Lag::Even { ms: 2000.0 },
            Lag::Poll { every_ms: 1500.0 },
            Lag::Exponential { mean_ms: 700.0, seed: 3 },
            Lag::Fixed { ms: 1200.0 },
        ] {
            for traffic in [Traffic::Even, Traffic::Zipf { s: 1.2 }] {
                let base = Rollout {
                    clients: 40,
                    lag,
                    traffic,
                    duration_ms: 3000.0,
                    step_ms: 20.0,
                    requests_per_sec: 2000.0,
                    ..Rollout::default()
                };
                let without =
                    rollout::propagate(&before, &after, &Rollout { refresh_on_redirect: Some(false), ..base.clone() })
                        .unwrap();
                let with =
                    rollout::propagate(&before, &after, &Rollout { refresh_on_redirect: Some(true), ..base.clone() })
                        .unwrap();
                for i in 0..with.times.len() {
                    assert!(with.misrouted[i] <= without.misrouted[i] + 1e-12, "{lag:?} at {}", with.times[i]);
                }
                assert!(with.totals.misrouted < without.totals.misrouted);
                assert!(with.converged_at_ms.unwrap() <= without.converged_at_ms.unwrap());
            }
        }
    }
}

#[test]
fn refresh_on_redirect_comes_at_the_first_misrouted_request() {
    // One client, all the traffic, 1000 requests a second: its first misrouted request comes
    // after 1 / (1 per ms × moved) ms.
    let before = cluster(Algorithm::RedisCluster, &FIVE);
    let after = joined(&before, "10.0.0.6:6379");
    let options = Rollout { clients: 1, lag: Lag::OnRedirect, requests_per_sec: 1000.0, ..Rollout::default() };
    let t = rollout::propagate(&before, &after, &options).unwrap();
    let want = 1.0 / t.moved;
    assert!((t.converged_at_ms.unwrap() - want).abs() < 1e-9);
    // Only a redirecting system tells a client: memcached clients never learn.
    let memcached = cluster(Algorithm::Libketama, &FIVE);
    let t = rollout::propagate(&memcached, &joined(&memcached, "x"), &options).unwrap();
    assert_eq!(t.converged_at_ms, None);
    assert!(t.misrouted.iter().all(|&m| (m - t.moved).abs() < 1e-15));
}

#[test]
fn each_system_takes_its_rule_from_its_entry() {
    let cases = [
        (Algorithm::RedisCluster, "redirect"),
        (Algorithm::Libketama, "client-side"),
        (Algorithm::EnvoyRingHash, "proxy"),
        (Algorithm::Cassandra, "coordinator"),
    ];
    for (algorithm, kind) in cases {
        let names = ["10.0.0.1:80", "10.0.0.2:80", "10.0.0.3:80"];
        let before = cluster(algorithm, &names);
        let after = left(&before, "10.0.0.2:80");
        let options = Rollout { refresh_on_redirect: Some(false), ..Rollout::default() };
        let t = rollout::propagate(&before, &after, &options).unwrap();
        assert_eq!(t.system, kind);
        assert_eq!(t.rule, algorithm.entry().on_stale.text());
        let mid = t.times.iter().position(|&x| x == 500.0).unwrap();
        match kind {
            "redirect" => {
                assert!(
                    t.hops[mid] > 0.0 && t.misses[mid] == t.misrouted[mid],
                    "a leave: every misrouted key's owner is gone"
                );
            }
            "coordinator" => assert!(t.hops[mid] == t.misrouted[mid] && t.misses[mid] == 0.0),
            // libketama and Envoy rescale every server's points by its share of the total
            // weight, so a leave moves some keys between servers that stay: stale reads.
            _ => {
                let sum = t.misses[mid] + t.stale_reads[mid] + t.inconsistent_writes[mid];
                assert!(t.misses[mid] > 0.0 && (sum - t.misrouted[mid]).abs() < 1e-12 && t.hops[mid] == 0.0);
            }
        }
    }
}

#[test]
fn drain_first_turns_misses_into_stale_reads() {
    let before = cluster(Algorithm::Libketama, &FIVE);
    let after = left(&before, "10.0.0.3:6379");
    let compared = rollout::compare(
        &before,
        &after,
        &Rollout::default(),
        &[Strategy::AsGiven, Strategy::DrainFirst, Strategy::AllAtOnce],
    )
    .unwrap();
    let (given, drained, once) = (&compared[0].timeline, &compared[1].timeline, &compared[2].timeline);
    assert!(given.totals.misses > 0.0 && drained.totals.misses == 0.0);
    assert!((drained.totals.stale_reads + drained.totals.inconsistent_writes - given.totals.misses).abs() < 1e-6);
    assert_eq!(given.totals.misrouted, drained.totals.misrouted);
    assert_eq!(once.totals.misrouted, 0.0);
}

#[test]
fn a_ramp_publishes_one_epoch_a_step() {
    let before = cluster(Algorithm::Ring, &FIVE);
    let after = joined(&before, "x");
    let base = Rollout {
        clients: 10,
        lag: Lag::Fixed { ms: 100.0 },
        duration_ms: 1000.0,
        step_ms: 10.0,
        ..Rollout::default()
    };
    let compared =
        rollout::compare(&before, &after, &base, &[Strategy::Ramp { steps: 4, every_ms: 200.0 }, Strategy::AsGiven])
            .unwrap();
    let ramp = &compared[0].timeline;
    assert_eq!(ramp.epochs, vec![0.0, 200.0, 400.0, 600.0]);
    assert_eq!(ramp.converged_at_ms, Some(700.0));
    // Each step's stale window moves only that step's keys: less at any instant than the
    // whole change.
    let whole = &compared[1].timeline;
    let peak = ramp.misrouted.iter().copied().fold(0.0, f64::max);
    assert!(peak < whole.misrouted[5]);
    assert!((ramp.moved - whole.moved).abs() < 1e-12, "the same change in the end");
}

#[test]
fn past_convergence_nothing_is_stale() {
    let before = cluster(Algorithm::Ring, &FIVE);
    let after = joined(&before, "x");
    for lag in [
        Lag::Fixed { ms: 300.0 },
        Lag::Even { ms: 900.0 },
        Lag::Exponential { mean_ms: 100.0, seed: 1 },
        Lag::Poll { every_ms: 400.0 },
    ] {
        let options = Rollout { clients: 30, lag, duration_ms: 5000.0, step_ms: 25.0, ..Rollout::default() };
        let t = rollout::propagate(&before, &after, &options).unwrap();
        let done = t.converged_at_ms.unwrap();
        assert!(done > 0.0);
        for (i, &time) in t.times.iter().enumerate() {
            if time >= done {
                assert_eq!(t.stale_traffic[i], 0.0, "{lag:?}");
            } else if time < done {
                assert!(t.stale_traffic[i] > 0.0, "{lag:?} at {time}: the last client is still stale");
            }
        }
    }
}

#[test]
fn caps_refuse_with_too_large() {
    let before = cluster(Algorithm::Ring, &FIVE);
    let after = joined(&before, "x");
    let code = |options: Rollout| rollout::propagate(&before, &after, &options).unwrap_err().code();
    assert_eq!(code(Rollout { clients: 10_001, ..Rollout::default() }), "too-large");
    // Too many times in the timeline: the step is too small for the duration (below).
    assert_eq!(code(Rollout { duration_ms: 100_000.0, step_ms: 1.0, ..Rollout::default() }), "invalid-option");
    assert_eq!(code(Rollout { clients: 0, ..Rollout::default() }), "invalid-option");
    assert_eq!(code(Rollout { step_ms: 0.0, ..Rollout::default() }), "invalid-option");
    assert_eq!(code(Rollout { lag: Lag::Fixed { ms: f64::NAN }, ..Rollout::default() }), "invalid-option");
    assert_eq!(code(Rollout { write_share: 1.5, ..Rollout::default() }), "invalid-option");
    assert_eq!(code(Rollout { traffic: Traffic::Zipf { s: 11.0 }, ..Rollout::default() }), "invalid-option");
    let plan = |steps| {
        plan::plan(&before, &after, &PlanOptions { steps, ..PlanOptions::default() }).map(|_| ()).unwrap_err().code()
    };
    assert_eq!(plan(17), "too-large");
    assert_eq!(plan(0), "invalid-option");
    let strategies = [Strategy::AllAtOnce; 9];
    assert_eq!(rollout::compare(&before, &after, &Rollout::default(), &strategies).unwrap_err().code(), "too-large");
    let sizing = plan::vnodes_for(&SizingOptions { nodes: 201, ..SizingOptions::default() }).unwrap_err();
    assert_eq!(sizing.code(), "too-large");
}

/// A step so small that `duration / step` passes the timeline's cap, or is not even a
/// number an integer holds (1e-300 ms: 2e303 times; the smallest float: infinitely many), is
/// refused on `stepMs` with its range at this duration, by `propagate` and `compare` alike;
/// never a timeline of no times.
#[test]
fn a_step_too_small_for_the_duration_is_refused_on_step_ms() {
    let before = cluster(Algorithm::Ring, &FIVE);
    let after = joined(&before, "x");
    // At the default 2 s, the step is above 2000 / 2001 ms (2,001 times at most).
    for step_ms in [1e-300, f64::from_bits(1), 1e-9, 0.5, 0.9995] {
        let options = Rollout { step_ms, ..Rollout::default() };
        let errors = [
            rollout::propagate(&before, &after, &options).unwrap_err(),
            rollout::compare(&before, &after, &options, &[Strategy::AllAtOnce]).unwrap_err(),
        ];
        for err in errors {
            match &err {
                ringlab::Error::OptionOutOfRange { option, got, min, max, .. } => {
                    assert_eq!((option.as_str(), *got, *max), ("stepMs", step_ms, 86_400_000.0), "{err}");
                    assert_eq!(*min, 2000.0 / 2001.0);
                }
                other => panic!("step {step_ms}: {other:?}"),
            }
            assert_eq!(err.code(), "invalid-option");
            assert!(err.to_string().contains("stepMs must be above 0.99950024987506"), "{err}");
        }
    }
    // Just above the end, the most times there are.
    for step_ms in [1.0, 0.999_9] {
        let t = rollout::propagate(&before, &after, &Rollout { step_ms, ..Rollout::default() }).unwrap();
        assert_eq!(t.times.len(), 2001, "{step_ms}");
    }
}

/// A sizing's target just above 1 makes the vnode estimate `2·ln N / (target − 1)²` pass
/// every integer: refused on `maxOverMean` with the range it has for these nodes, never an
/// estimate cut to `u32::MAX`.
#[test]
fn a_sizing_target_too_near_one_is_refused_not_cut() {
    let min = 1.0 + (2.0 * 10f64.ln() / f64::from(u32::MAX)).sqrt();
    for target in [1.000_001, 1.0 + 1e-12, 1.0 + f64::EPSILON] {
        let err = plan::vnodes_for(&SizingOptions { nodes: 10, max_over_mean: target, ..SizingOptions::default() })
            .unwrap_err();
        match &err {
            ringlab::Error::OptionOutOfRange { option, got, min: at_least, max, .. } => {
                assert_eq!((option.as_str(), *got, *max), ("maxOverMean", target, 10.0));
                assert!((at_least - min).abs() < 1e-12, "{at_least}");
            }
            other => panic!("{target}: {other:?}"),
        }
        assert_eq!(err.code(), "invalid-option");
    }
    let sizing = plan::vnodes_for(&SizingOptions { nodes: 10, max_over_mean: 1.001, ..SizingOptions::default() });
    let estimate = sizing.unwrap().estimate;
    assert!(estimate.abs_diff(4_605_171) <= 1, "{estimate}");
}

#[test]
fn redis_slots_move_in_batches_that_add_up() {
    let before = cluster(Algorithm::RedisCluster, &FIVE);
    let after = joined(&before, "10.0.0.6:6379");
    let p = plan::plan(
        &before,
        &after,
        &PlanOptions { steps: 4, items: 16384.0, item_bytes: 100.0, bytes_per_sec: 1000.0, ..PlanOptions::default() },
    )
    .unwrap();
    assert_eq!(p.staging, Staging::Slots);
    assert_eq!(p.steps.len(), 4);
    assert!(p.exact);
    // Disjoint batches of the moved slots: the total is what the change at once moves.
    assert!((p.total.moved - p.at_once.moved).abs() < 1e-12);
    let moved_slots = p.at_once.moved * 16384.0;
    assert_eq!(moved_slots.round(), moved_slots);
    for s in &p.steps {
        let slots = s.moved * 16384.0;
        assert!((slots - moved_slots / 4.0).abs() <= 1.0, "{slots} of {moved_slots}");
        assert!((s.seconds - slots * 100.0 / 1000.0).abs() < 1e-6);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn a_staged_plan_moves_at_least_the_change_at_once(steps in 1usize..8, weight in 0.5f64..4.0, join: bool, vnodes in 4u32..64) {
        let mut options = Options::new(Algorithm::Ring);
        options.config.vnodes = vnodes;
        let before = Cluster::new(options, FIVE).unwrap();
        let after = if join {
            let mut a = before.clone();
            a.add(NodeSpec { weight, ..NodeSpec::new("x") }).unwrap();
            a
        } else {
            let mut a = before.clone();
            a.set_weight("10.0.0.2:6379", weight).unwrap();
            a
        };
        let p = plan::plan(&before, &after, &PlanOptions { steps, ..PlanOptions::default() }).unwrap();
        prop_assert!(p.total.moved + 1e-12 >= p.at_once.moved);
        let sum: f64 = p.steps.iter().map(|s| s.bytes).sum();
        prop_assert!((sum - p.total.bytes).abs() <= 1e-9 * sum.max(1.0));
        prop_assert_eq!(p.steps.len(), if steps == 1 || weight == 1.0 && !join { 1 } else { steps });
    }

    #[test]
    fn a_timeline_is_bounded_by_the_moved_share(clients in 1usize..60, ms in 0.0f64..2000.0, s in 0.0f64..2.0, seed: u64, kind in 0u8..4) {
        let before = cluster(Algorithm::Ring, &FIVE);
        let after = joined(&before, "x");
        let lag = match kind { 0 => Lag::Fixed { ms }, 1 => Lag::Even { ms }, 2 => Lag::Exponential { mean_ms: ms + 1.0, seed }, _ => Lag::Poll { every_ms: ms + 1.0 } };
        let options = Rollout { clients, lag, traffic: Traffic::Zipf { s }, duration_ms: 3000.0, step_ms: 30.0, ..Rollout::default() };
        let t = rollout::propagate(&before, &after, &options).unwrap();
        for i in 0..t.times.len() {
            prop_assert!(t.misrouted[i] <= t.moved + 1e-12);
            prop_assert!((t.misrouted[i] - t.moved * t.stale_traffic[i]).abs() < 1e-12, "a single change: moved × stale traffic");
        }
        prop_assert!(t.misrouted.windows(2).all(|w| w[1] <= w[0] + 1e-15), "one change only ever converges");
    }
}

/// The sizing measures each count on one list of points hashed once; the rings it answers
/// for are the rings built at that count, collisions included: 200 nodes × 1,600 points on
/// a 32-bit MD5 ring put several pairs of points on one position, where the smaller name
/// serves.
#[test]
fn the_sizing_measures_the_rings_built_at_each_count_collisions_included() {
    let config = Config { hash: ringlab::Hash::Md5, ..Config::default() };
    let nodes = 200;
    let s = plan::vnodes_for(&SizingOptions {
        nodes,
        max_over_mean: 1.08,
        config: config.clone(),
        ..SizingOptions::default()
    })
    .unwrap();
    let names: Vec<String> = (0..nodes).map(|i| format!("node-{i}")).collect();
    let busiest = |vnodes: u32| {
        let ring = Ring::with_nodes(Config { vnodes, ..config.clone() }, names.iter().map(String::as_str)).unwrap();
        let collisions = (1..ring.point_count()).filter(|&i| ring.point(i).0 == ring.point(i - 1).0).count();
        let shares = analysis::shares(&ring);
        (*shares.iter().max().unwrap() as f64 / (2f64.powi(32) / nodes as f64), collisions)
    };
    let v = s.vnodes.unwrap();
    let (worst, collisions) = busiest(v);
    assert!(collisions > 0, "the ring of {v} vnodes has no collision to test");
    assert_eq!(worst, s.max_over_mean);
    for d in &s.defaults {
        assert_eq!(busiest(d.vnodes).0, d.max_over_mean, "{}", d.system);
    }
    let ring = Ring::with_nodes(Config { vnodes: v, ..config }, names.iter().map(String::as_str)).unwrap();
    assert_eq!(s.ring_bytes, ring.memory_bytes());
}

#[test]
fn the_sizing_answer_meets_its_target_on_exact_shares() {
    for (nodes, target, losing) in [(10, 1.25, false), (5, 1.3, true), (20, 1.5, false)] {
        let s = plan::vnodes_for(&SizingOptions {
            nodes,
            max_over_mean: target,
            after_losing: losing,
            ..SizingOptions::default()
        })
        .unwrap();
        let v = s.vnodes.unwrap();
        let names: Vec<String> = (0..nodes).map(|i| format!("node-{i}")).collect();
        let config = Config { vnodes: v, ..Config::default() };
        let ring = Ring::with_nodes(config, names.iter().map(String::as_str)).unwrap();
        let shares = analysis::shares(&ring);
        let mean = 2f64.powi(32) / nodes as f64;
        let worst = *shares.iter().max().unwrap() as f64 / mean;
        assert!(worst <= target, "{nodes} nodes, {v} vnodes: {worst}");
        assert!((worst - s.max_over_mean).abs() < 1e-12);
        if losing {
            // Every loss, rebuilt here.
            let mut lost_worst: f64 = 0.0;
            for gone in &names {
                let mut r = ring.clone();
                r.remove(gone).unwrap();
                let shares = analysis::shares(&r);
                let mean = 2f64.powi(32) / (nodes - 1) as f64;
                lost_worst = lost_worst.max(*shares.iter().max().unwrap() as f64 / mean);
            }
            assert!((lost_worst - s.after_losing.unwrap()).abs() < 1e-9, "{lost_worst} vs {:?}", s.after_losing);
            assert!(lost_worst <= target);
        }
        if v > 1 {
            // One fewer does not meet it (the search's last miss is just below).
            let below = plan::vnodes_for(&SizingOptions {
                nodes,
                max_over_mean: s.max_over_mean.max(s.after_losing.unwrap_or(0.0)),
                after_losing: losing,
                ..SizingOptions::default()
            })
            .unwrap();
            assert!(below.vnodes.unwrap() <= v);
        }
        assert_eq!(s.defaults.len(), 4);
    }
}

#[test]
fn the_timeline_says_in_words_when_clients_switch_and_names_its_series() {
    // 4 clients spread evenly over 1 s: each adopts at its quarter, and the sentence says when
    // the last does.
    let before = cluster(Algorithm::RedisCluster, &FIVE);
    let after = joined(&before, "10.0.0.6:6379");
    let options =
        Rollout { clients: 4, lag: Lag::Even { ms: 1000.0 }, refresh_on_redirect: Some(false), ..Rollout::default() };
    let t = rollout::propagate(&before, &after, &options).unwrap();
    assert_eq!(t.adopted_at_ms, vec![Some(250.0), Some(500.0), Some(750.0), Some(1000.0)]);
    assert_eq!(t.converged, "Every client uses the new ring 1 s after the change.");
    assert_eq!(t.converged_short, "1 s");
    // A redirect costs one hop per misrouted request: the two lines are one, and the legend
    // says so; a join reaches no node that has left, and nothing is read stale.
    let notes: Vec<(&str, &str)> = t.series.iter().map(|s| (s.key, s.note.as_str())).collect();
    assert_eq!(
        notes,
        vec![
            ("misrouted", ""),
            ("hops", "the same values as misrouted requests: one line"),
            ("misses", "zero throughout"),
            ("staleReads", "zero throughout"),
            ("inconsistentWrites", "zero throughout"),
        ]
    );
    // Past the duration, said so.
    let late = Rollout { duration_ms: 500.0, ..options.clone() };
    let t = rollout::propagate(&before, &after, &late).unwrap();
    assert_eq!(t.converged, "Every client uses the new ring 1 s after the change, later than the 500 ms shown.");
    // Memcached clients that wait for a redirect never get one: a sentence, not "never" alone.
    let memcached = cluster(Algorithm::Libketama, &FIVE);
    let waiting = Rollout { lag: Lag::OnRedirect, ..options };
    let t = rollout::propagate(&memcached, &joined(&memcached, "x"), &waiting).unwrap();
    assert_eq!(t.adopted_at_ms, vec![None; 4]);
    assert_eq!(
        t.converged,
        "Some clients never use the new ring, within the duration or after: they switch only when a server \
         redirects them, and a client-side system sends no redirects."
    );
    assert_eq!(t.converged_short, "not every client");
}
