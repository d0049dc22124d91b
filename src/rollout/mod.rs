//! While a change spreads: clients that still route with an old ring.
//!
//! A change makes a new *epoch*. Each of `C` clients (cache clients, proxies, drivers) adopts
//! it after a lag of a chosen [`Lag`] shape, and carries a share of the requests ([`Traffic`]).
//! Until it adopts, a client routes with its own epoch: a request for a key whose owner
//! changed goes to the old owner, and what that costs is the system's rule
//! ([`OnStale`], a field of each catalog entry): a `MOVED` hop (Redis
//! Cluster), a stale read or a write that leaves two copies disagreeing (client-side hashing,
//! a proxy tier), an extra hop through a coordinator (Cassandra).
//!
//! The model, and what is exact in it:
//! - Each request's key is uniform over the key space, so the share of a client's requests
//!   that are misrouted is the share of keys whose owner differs between its epoch and the
//!   current one. That share is exact over the arcs where the algorithm has them
//!   ([`MovedTable`]), measured on a key sample elsewhere ([`Timeline::keys`] says which).
//! - Clients' adoption times follow the lag shape deterministically (the exponential shape
//!   draws them from its seed), so the share misrouted at an instant is exactly
//!   `Σ over stale clients of traffic share × moved share` — evaluated at each time, and
//!   integrated exactly between events for [`Totals`], not sampled.
//! - Requests arrive evenly at each client's rate (`requests_per_sec × its share`): a client
//!   that refreshes on a redirect adopts the current epoch at its first misrouted request,
//!   which comes after `1 / (rate × moved share)` (fluid arrivals, no randomness).
//!
//! ```
//! use ringlab::algo::{Algorithm, Cluster, Options};
//! use ringlab::rollout::{self, Lag, Rollout};
//! let before = Cluster::new(Options::new(Algorithm::Ring), ["a", "b", "c"])?;
//! let mut after = before.clone();
//! after.add("d".into())?;
//! let options = Rollout { clients: 4, lag: Lag::Even { ms: 1000.0 }, ..Rollout::default() };
//! let t = rollout::propagate(&before, &after, &options)?;
//! // Between 750 ms and 1 s only the last of 4 clients is stale.
//! let i = t.times.iter().position(|&x| x == 800.0).unwrap();
//! assert!((t.misrouted[i] - t.moved / 4.0).abs() < 1e-12);
//! assert_eq!(t.converged_at_ms, Some(1000.0));
//! # Ok::<(), ringlab::Error>(())
//! ```

mod strategies;

pub use strategies::{compare, Compared, Strategy};

use crate::algo::entry::OnStale;
use crate::algo::Cluster;
use crate::limits;
use crate::migration::{Moved, MovedTable};
use crate::Error;

/// When each client adopts an epoch published at time `p` (milliseconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lag {
    /// Every client at `p + ms`.
    Fixed { ms: f64 },
    /// Client `i` of `C` at `p + ms·(i+1)/C`: spread evenly over a window.
    Even { ms: f64 },
    /// Each client after an exponential lag of mean `mean_ms`, drawn from `seed` (the same
    /// seed gives the same draws everywhere).
    Exponential { mean_ms: f64, seed: u64 },
    /// Client `i` polls at `every_ms·(i+1)/C + n·every_ms` and adopts at its first poll at or
    /// after `p`.
    Poll { every_ms: f64 },
    /// Only when told: at its first redirect (which only a redirecting system gives).
    OnRedirect,
}

/// How requests split over the clients.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Traffic {
    /// Every client the same share.
    Even,
    /// Client `i` a share proportional to `1/(i+1)^s`.
    Zipf { s: f64 },
}

/// What a stale client's misrouted request costs: the kinds of [`OnStale`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    ClientSide,
    Redirect,
    Proxy,
    Coordinator,
}

impl System {
    /// The kind of a catalog entry's stale rule.
    pub fn of(rule: OnStale) -> System {
        match rule {
            OnStale::ClientSide(_) => System::ClientSide,
            OnStale::Redirect(_) => System::Redirect,
            OnStale::Proxy(_) => System::Proxy,
            OnStale::Coordinator(_) => System::Coordinator,
        }
    }

    /// `client-side`, `redirect`, `proxy` or `coordinator`, as [`OnStale::kind`] names them.
    pub fn name(self) -> &'static str {
        match self {
            System::ClientSide => "client-side",
            System::Redirect => "redirect",
            System::Proxy => "proxy",
            System::Coordinator => "coordinator",
        }
    }

    pub fn from_name(name: &str) -> Result<System, Error> {
        [System::ClientSide, System::Redirect, System::Proxy, System::Coordinator]
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| {
                Error::unknown_choice(
                    "system",
                    name,
                    format!("unknown system {name:?}: choose one of client-side, redirect, proxy, coordinator"),
                )
            })
    }

    /// What each counter means for this kind of system, in words for the page.
    pub fn words(self) -> &'static str {
        match self {
            System::Redirect => {
                "A misrouted request reaches the old owner, which redirects it (MOVED): one extra hop. A request to \
                 an owner that has left fails (a miss here) and is retried elsewhere: also an extra hop."
            }
            System::ClientSide | System::Proxy => {
                "A misrouted read reaches the old owner, whose copy the current clients no longer update (a stale \
                 read); a misrouted write leaves two copies that disagree. A request to an owner that has left \
                 misses."
            }
            System::Coordinator => {
                "A misrouted request reaches a coordinator that does not own the key, which forwards it: one extra \
                 hop, never an error."
            }
        }
    }
}

/// The settings of one propagation.
#[derive(Clone, Debug, PartialEq)]
pub struct Rollout {
    /// How many clients route requests (at least 1, at most [`limits::MAX_ROLLOUT_CLIENTS`]).
    pub clients: usize,
    pub lag: Lag,
    pub traffic: Traffic,
    /// `None`: the after state's algorithm's own rule (its entry's `on_stale`).
    pub system: Option<System>,
    /// The timeline runs from 0 (the change) to `duration_ms`, one value every `step_ms`.
    pub duration_ms: f64,
    pub step_ms: f64,
    /// All clients' requests together, per second.
    pub requests_per_sec: f64,
    /// The share of requests that are writes (the rest are reads).
    pub write_share: f64,
    /// Whether a client adopts the current epoch at its first redirect. `None`: yes for a
    /// redirecting system (redis-py, Jedis and Lettuce refresh on `MOVED`), no elsewhere;
    /// always yes for [`Lag::OnRedirect`]. Only a redirecting system redirects.
    pub refresh_on_redirect: Option<bool>,
    /// Drain first: a node that leaves keeps serving until the last client has switched, so
    /// no request reaches a node that is gone.
    pub drain: bool,
    /// Keys sampled where there are no arcs.
    pub sample_keys: usize,
}

impl Default for Rollout {
    fn default() -> Rollout {
        Rollout {
            clients: 10,
            lag: Lag::Even { ms: 1000.0 },
            traffic: Traffic::Even,
            system: None,
            duration_ms: 2000.0,
            step_ms: 10.0,
            requests_per_sec: 10_000.0,
            write_share: 0.1,
            refresh_on_redirect: None,
            drain: false,
            sample_keys: 10_000,
        }
    }
}

/// Counts over the whole timeline (`0..=duration_ms`), in requests at `requests_per_sec`:
/// exact integrals of the shares between events.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    pub requests: f64,
    pub misrouted: f64,
    pub hops: f64,
    pub misses: f64,
    pub stale_reads: f64,
    pub inconsistent_writes: f64,
}

/// A propagation over time: one value per time, each a share of all requests at that instant.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Timeline {
    /// Milliseconds after the change: `0, step, 2·step, ..` up to the duration.
    pub times: Vec<f64>,
    /// Requests routed with a stale epoch to a node that does not own the key now.
    pub misrouted: Vec<f64>,
    /// Extra hops per request (redirects, coordinator forwards).
    pub hops: Vec<f64>,
    /// Requests that reach a node that has left.
    pub misses: Vec<f64>,
    /// Reads answered by an old owner.
    pub stale_reads: Vec<f64>,
    /// Writes to an old owner: two copies that disagree.
    pub inconsistent_writes: Vec<f64>,
    /// The share of requests coming from clients on a stale epoch (harmless or not).
    pub stale_traffic: Vec<f64>,
    /// When the last client adopts the last epoch, or `None` if some never does (it is
    /// exact, even past the duration).
    pub converged_at_ms: Option<f64>,
    /// When the last client adopts the last epoch, in a sentence for the page ("Every client
    /// uses the new ring 1 s after the change."; "Some clients never use the new ring: ...").
    pub converged: String,
    /// The same, short, for a table's cell ("1 s", "not every client").
    pub converged_short: String,
    /// When each client adopts the last epoch (`None`: never), in milliseconds after the
    /// change: client `i` routes with the new ring from then on.
    pub adopted_at_ms: Vec<Option<f64>>,
    /// The five counters in the order above, for a legend: each one's key (this struct's field,
    /// as JavaScript names it), its name, and a note when its line hides another.
    pub series: Vec<Series>,
    /// When each epoch after the first is published (`0` for a single change).
    pub epochs: Vec<f64>,
    /// The share of keys the whole change moves (first epoch to last).
    pub moved: f64,
    pub totals: Totals,
    /// Whether the moved shares are exact (arcs) or measured on [`keys`](Timeline::keys).
    pub exact: bool,
    /// The sample's size where not exact.
    pub keys: Option<usize>,
    /// The stale rule applied: `client-side`, `redirect`, `proxy`, `coordinator`.
    pub system: &'static str,
    /// The rule in words: the algorithm's entry's own, then what each counter means.
    pub rule: String,
    pub counters: &'static str,
}

/// One counter of a [`Timeline`], named for a legend.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Series {
    /// The timeline's field, as JavaScript names it: `misrouted`, `hops`, `misses`,
    /// `staleReads`, `inconsistentWrites`.
    pub key: &'static str,
    /// Its name: "Misrouted requests", ...
    pub label: &'static str,
    /// Empty, or why its line cannot be seen on its own: "the same values as misrouted
    /// requests (drawn on top)", "zero throughout".
    pub note: String,
}

/// Each series' key, name, and name within a sentence.
const SERIES: [(&str, &str, &str); 5] = [
    ("misrouted", "Misrouted requests", "misrouted requests"),
    ("hops", "Extra hops", "extra hops"),
    ("misses", "Misses", "misses"),
    ("staleReads", "Stale reads", "stale reads"),
    ("inconsistentWrites", "Inconsistent writes", "inconsistent writes"),
];

/// The legend of five series: a series equal to an earlier one says so (their lines overlap),
/// and one that stays 0 says that.
fn legend(columns: &[&Vec<f64>; 5]) -> Vec<Series> {
    (0..5)
        .map(|c| {
            let note = if columns[c].iter().all(|&x| x == 0.0) {
                "zero throughout".to_string()
            } else if let Some(e) = (0..c).find(|&e| columns[e] == columns[c]) {
                ["the same values as ", SERIES[e].2, ": one line"].concat()
            } else {
                String::new()
            };
            Series { key: SERIES[c].0, label: SERIES[c].1, note }
        })
        .collect()
}

/// Why some client never adopts the last epoch.
#[derive(Clone, Copy)]
enum Never {
    /// It waits for a redirect, and this kind of system sends none.
    NoRedirects(System),
    /// It switches only at a redirect, and none of its requests is redirected.
    NoRedirect,
}

/// A time after the change in words: "0.25 ms", "250 ms", "1.5 s".
pub fn time_words(ms: f64) -> String {
    let (x, unit) = match ms {
        ms if ms < 10.0 => ((ms * 100.0).round() / 100.0, " ms"),
        ms if ms < 1000.0 => (ms.round(), " ms"),
        ms => ((ms / 10.0).round() / 100.0, " s"),
    };
    crate::decimal::shortest(x) + unit
}

/// When every client uses the new ring, as a sentence and as a table's cell.
fn converged_words(at: Option<f64>, duration_ms: f64, never: Never) -> (String, String) {
    let Some(t) = at else {
        let why = match never {
            Never::NoRedirects(system) => {
                ["they switch only when a server redirects them, and a ", system.name(), " system sends no redirects"]
                    .concat()
            }
            Never::NoRedirect => "they switch only at a redirect, and none of their requests is redirected".into(),
        };
        let sentence = ["Some clients never use the new ring, within the duration or after: ", &why, "."].concat();
        return (sentence, "not every client".into());
    };
    let when = time_words(t);
    let late = match t <= duration_ms {
        true => String::new(),
        false => [", later than the ", &time_words(duration_ms), " shown"].concat(),
    };
    (["Every client uses the new ring ", &when, " after the change", &late, "."].concat(), when)
}

/// The propagation of the change from `before` to `after`.
pub fn propagate(before: &Cluster, after: &Cluster, options: &Rollout) -> Result<Timeline, Error> {
    propagate_epochs(&[before.clone(), after.clone()], &[0.0], options)
}

/// The propagation of a sequence of changes: `states[0]` is what every client holds before
/// 0; `states[e]` (e ≥ 1) is published at `published[e-1]` (non-decreasing, the first 0).
pub fn propagate_epochs(states: &[Cluster], published: &[f64], options: &Rollout) -> Result<Timeline, Error> {
    check(options)?;
    if states.len() < 2 || published.len() + 1 != states.len() {
        return Err(Error::mismatch("published", "a propagation needs a state before and one per published epoch"));
    }
    limits::check("epochs", published.len() as u64, limits::MAX_PLAN_STEPS as u64)?;
    if published[0] != 0.0 || published.windows(2).any(|w| w[0] > w[1]) || published.iter().any(|p| !p.is_finite()) {
        return Err(Error::invalid_option("published", "epochs are published in order, the first at 0"));
    }
    let last = states.last().expect("two states at least");
    let rule = last.algorithm().entry().on_stale;
    let system = options.system.unwrap_or(System::of(rule));
    let table = MovedTable::of(states, options.sample_keys)?;
    let refresh = system == System::Redirect
        && (options.lag == Lag::OnRedirect || options.refresh_on_redirect.unwrap_or(system == System::Redirect));
    let weights = traffic_shares(options.clients, options.traffic);
    let per_ms = options.requests_per_sec / 1000.0;
    let epochs = published.len();
    let current = |t: f64| published.iter().take_while(|&&p| p <= t).count();

    // Each client's epochs over time: (from when, which).
    let histories: Vec<Vec<(f64, usize)>> = (0..options.clients)
        .map(|i| history(i, options, published, &table, if refresh { weights[i] * per_ms } else { 0.0 }))
        .collect();
    let adopted_at_ms: Vec<Option<f64>> =
        histories.iter().map(|h| h.last().filter(|last| last.1 == epochs).map(|last| last.0.max(0.0))).collect();
    let converged_at_ms = adopted_at_ms.iter().try_fold(0.0f64, |latest, at| at.map(|at| latest.max(at)));

    let effects = |h: usize, e: usize| Effects::of(table.get(h, e), system, options.write_share, options.drain);
    let count = timeline_times(options)? as usize;
    crate::work::charge(crate::work::Cost::Probes, (count as u64).saturating_mul(options.clients as u64))?;
    let times: Vec<f64> = (0..count).map(|k| k as f64 * options.step_ms).collect();
    // The epoch published at each time, once for every client: asked per client and time, its
    // walk over the epochs made a ramp's timelines clients × times × epochs.
    let published_at: Vec<usize> = {
        let mut e = 0;
        times
            .iter()
            .map(|&t| {
                while e < epochs && published[e] <= t {
                    e += 1;
                }
                e
            })
            .collect()
    };
    let mut series = vec![[0.0; 6]; count];
    for (history, &w) in histories.iter().zip(&weights) {
        let mut at = 0;
        for (k, &t) in times.iter().enumerate() {
            while at + 1 < history.len() && history[at + 1].0 <= t {
                at += 1;
            }
            let e = published_at[k];
            let held = history[at].1;
            if held < e {
                let fx = effects(held, e);
                for (sum, x) in series[k].iter_mut().zip(fx.values()) {
                    *sum += w * x;
                }
                series[k][5] += w;
            }
        }
    }

    // Exact integrals: each client's (held, current) pair is constant between its own
    // changes and the publications.
    let mut totals = Totals { requests: per_ms * options.duration_ms, ..Totals::default() };
    for (history, &w) in histories.iter().zip(&weights) {
        let mut cuts: Vec<f64> = history.iter().map(|c| c.0).chain(published.iter().copied()).collect();
        cuts.push(options.duration_ms);
        cuts.retain(|&t| (0.0..=options.duration_ms).contains(&t));
        cuts.push(0.0);
        crate::order::sort_f64(&mut cuts);
        cuts.dedup();
        for pair in cuts.windows(2) {
            let (t0, t1) = (pair[0], pair[1]);
            let held = history.iter().take_while(|c| c.0 <= t0).last().map_or(0, |c| c.1);
            let e = current(t0);
            if held < e {
                let fx = effects(held, e).values();
                let scale = w * per_ms * (t1 - t0);
                totals.misrouted += scale * fx[0];
                totals.hops += scale * fx[1];
                totals.misses += scale * fx[2];
                totals.stale_reads += scale * fx[3];
                totals.inconsistent_writes += scale * fx[4];
            }
        }
    }

    let column = |c: usize| series.iter().map(|row| row[c]).collect::<Vec<f64>>();
    let columns: Vec<Vec<f64>> = (0..6).map(column).collect();
    let never = match (options.lag, system) {
        (Lag::OnRedirect, System::Redirect) => Never::NoRedirect,
        (Lag::OnRedirect, _) => Never::NoRedirects(system),
        _ => Never::NoRedirect,
    };
    let (converged, converged_short) = converged_words(converged_at_ms, options.duration_ms, never);
    let [misrouted, hops, misses, stale_reads, inconsistent_writes, stale_traffic]: [Vec<f64>; 6] =
        columns.try_into().expect("six columns");
    Ok(Timeline {
        series: legend(&[&misrouted, &hops, &misses, &stale_reads, &inconsistent_writes]),
        misrouted,
        hops,
        misses,
        stale_reads,
        inconsistent_writes,
        stale_traffic,
        times,
        converged_at_ms,
        converged,
        converged_short,
        adopted_at_ms,
        epochs: published.to_vec(),
        moved: table.get(0, epochs).total(),
        totals,
        exact: table.keys.is_none(),
        keys: table.keys,
        system: system.name(),
        rule: rule.text().to_string(),
        counters: system.words(),
    })
}

/// What one stale client's requests cost, as shares of its requests.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Effects {
    misrouted: f64,
    hops: f64,
    misses: f64,
    stale_reads: f64,
    inconsistent_writes: f64,
}

impl Effects {
    fn of(moved: Moved, system: System, write_share: f64, drain: bool) -> Effects {
        let (alive, gone) = if drain { (moved.total(), 0.0) } else { (moved.alive, moved.gone) };
        let misrouted = alive + gone;
        match system {
            System::Redirect => {
                Effects { misrouted, hops: misrouted, misses: gone, stale_reads: 0.0, inconsistent_writes: 0.0 }
            }
            System::Coordinator => {
                Effects { misrouted, hops: misrouted, misses: 0.0, stale_reads: 0.0, inconsistent_writes: 0.0 }
            }
            System::ClientSide | System::Proxy => Effects {
                misrouted,
                hops: 0.0,
                misses: gone,
                stale_reads: alive * (1.0 - write_share),
                inconsistent_writes: alive * write_share,
            },
        }
    }

    fn values(self) -> [f64; 5] {
        [self.misrouted, self.hops, self.misses, self.stale_reads, self.inconsistent_writes]
    }
}

/// Client `i`'s epochs over time, from `(-inf, 0)`: each entry is the time from which it
/// holds an epoch. `redirect_rate` is its requests per millisecond when it refreshes on a
/// redirect, else 0.
fn history(
    i: usize,
    options: &Rollout,
    published: &[f64],
    table: &MovedTable,
    redirect_rate: f64,
) -> Vec<(f64, usize)> {
    let epochs = published.len();
    // (time, epoch adopted then by the lag alone)
    let adoptions: Vec<(f64, usize)> =
        (1..=epochs).filter_map(|e| adoption(i, e, published[e - 1], options).map(|t| (t, e))).collect();
    let times: Vec<u64> = adoptions.iter().map(|a| crate::order::f64_key(a.0)).collect();
    let adoptions: Vec<(f64, usize)> = crate::order::stable_order(&times).into_iter().map(|i| adoptions[i]).collect();
    let mut events: Vec<f64> = adoptions.iter().map(|a| a.0).chain(published.iter().copied()).collect();
    crate::order::sort_f64(&mut events);
    events.dedup();
    let current = |t: f64| published.iter().take_while(|&&p| p <= t).count();

    let mut out = vec![(f64::NEG_INFINITY, 0usize)];
    let (mut held, mut t, mut count) = (0usize, 0.0f64, 0.0f64);
    let mut adopt = |at: f64, e: usize, held: &mut usize, count: &mut f64| {
        if e > *held {
            *held = e;
            *count = 0.0;
            out.push((at, e));
        }
    };
    for &next in &events {
        // Between t and next the current epoch is fixed: a redirect may come first.
        let e = current(t);
        if redirect_rate > 0.0 && held < e && next > t {
            let rate = redirect_rate * table.get(held, e).total();
            if rate > 0.0 {
                let at = t + (1.0 - count) / rate;
                if at < next {
                    adopt(at, e, &mut held, &mut count);
                } else {
                    count += rate * (next - t);
                }
            }
        }
        t = t.max(next);
        for &(_, e) in adoptions.iter().filter(|a| a.0 == next) {
            adopt(next, e, &mut held, &mut count);
        }
    }
    let e = epochs;
    if redirect_rate > 0.0 && held < e {
        let rate = redirect_rate * table.get(held, e).total();
        if rate > 0.0 {
            adopt(t + (1.0 - count) / rate, e, &mut held, &mut count);
        }
    }
    out
}

/// When client `i` adopts epoch `e` (published at `p`) by its lag alone.
fn adoption(i: usize, e: usize, p: f64, options: &Rollout) -> Option<f64> {
    let c = options.clients as f64;
    let position = (i + 1) as f64 / c;
    match options.lag {
        Lag::Fixed { ms } => Some(p + ms),
        Lag::Even { ms } => Some(p + ms * position),
        Lag::Exponential { mean_ms, seed } => {
            let u = unit(seed, i as u64, e as u64);
            Some(p - mean_ms * libm::log(1.0 - u))
        }
        Lag::Poll { every_ms } => {
            let phase = every_ms * position;
            let n = libm::ceil((p - phase) / every_ms).max(0.0);
            Some(phase + n * every_ms)
        }
        Lag::OnRedirect => None,
    }
}

/// A uniform draw in `[0, 1)` for client `i` and epoch `e`: SplitMix64 of the three.
fn unit(seed: u64, i: u64, e: u64) -> f64 {
    let mut z = seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ e.wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// Each client's share of the requests (they add up to 1).
pub fn traffic_shares(clients: usize, traffic: Traffic) -> Vec<f64> {
    let raw: Vec<f64> = (0..clients)
        .map(|i| match traffic {
            Traffic::Even => 1.0,
            Traffic::Zipf { s } => libm::pow((i + 1) as f64, -s),
        })
        .collect();
    let sum: f64 = raw.iter().sum();
    raw.into_iter().map(|x| x / sum).collect()
}

/// Most Zipf exponent for client traffic.
pub const MAX_ZIPF_S: f64 = 10.0;

/// How many times a timeline of these settings holds (`⌊duration / step⌋ + 1`), counted in
/// floats before it becomes an integer: a tiny step makes the quotient huge (or infinite),
/// which as an integer saturated and then overflowed to an empty timeline. Past
/// [`limits::MAX_ROLLOUT_TIMES`] the step is too small for the duration: refused on `stepMs`,
/// whose range at this duration is above `duration / MAX_ROLLOUT_TIMES` (that end excluded)
/// to a day. (The duration and the step are checked finite and above 0 first.)
fn timeline_times(options: &Rollout) -> Result<u64, Error> {
    let times = (options.duration_ms / options.step_ms).floor() + 1.0;
    let max = limits::MAX_ROLLOUT_TIMES as f64;
    if times > max {
        let min = options.duration_ms / max;
        // 1e-300, not three hundred digits.
        let got = match options.step_ms {
            x if x < 1e-6 => crate::decimal::shortest_exp(x),
            x => crate::decimal::shortest(x),
        };
        let words = format!(
            "stepMs must be above {} ms (durationMs / {max}: a timeline holds at most {max} times), at most {} \
             (got {got})",
            crate::decimal::shortest(min),
            crate::decimal::shortest(limits::MAX_ROLLOUT_MS),
        );
        return Err(Error::out_of_range("stepMs", options.step_ms, (min, limits::MAX_ROLLOUT_MS), words));
    }
    Ok(times as u64)
}

/// Checks a propagation's settings against their ranges and caps.
pub fn check(options: &Rollout) -> Result<(), Error> {
    let bad =
        |option: &str, got: f64, range: (f64, f64), what: &str| Err(Error::out_of_range(option, got, range, what));
    let day = (0.0, limits::MAX_ROLLOUT_MS);
    if options.clients == 0 {
        return bad(
            "clients",
            0.0,
            (1.0, limits::MAX_ROLLOUT_CLIENTS as f64),
            "a propagation needs at least one client",
        );
    }
    limits::check("clients", options.clients as u64, limits::MAX_ROLLOUT_CLIENTS as u64)?;
    let ms = |x: f64| x.is_finite() && (0.0..=limits::MAX_ROLLOUT_MS).contains(&x);
    if !ms(options.duration_ms) || !ms(options.step_ms) || options.step_ms <= 0.0 || options.duration_ms <= 0.0 {
        let (option, got) = match ms(options.duration_ms) && options.duration_ms > 0.0 {
            true => ("stepMs", options.step_ms),
            false => ("durationMs", options.duration_ms),
        };
        return bad(option, got, day, "the duration and the step are milliseconds above 0, at most a day (86,400,000)");
    }
    let times = timeline_times(options)?;
    let work = times.saturating_mul(options.clients as u64);
    limits::check("clients × times in a timeline", work, limits::MAX_ROLLOUT_WORK)?;
    match options.lag {
        Lag::Fixed { ms: x } | Lag::Even { ms: x } if !ms(x) => {
            return bad("lag", x, day, "a lag is milliseconds ≥ 0, at most a day")
        }
        Lag::Exponential { mean_ms, .. } if !ms(mean_ms) || mean_ms <= 0.0 => {
            return bad("lag", mean_ms, day, "an exponential lag's mean is milliseconds above 0, at most a day")
        }
        Lag::Poll { every_ms } if !ms(every_ms) || every_ms <= 0.0 => {
            return bad("lag", every_ms, day, "a polling interval is milliseconds above 0, at most a day")
        }
        _ => {}
    }
    if let Traffic::Zipf { s } = options.traffic {
        if !(s.is_finite() && (0.0..=MAX_ZIPF_S).contains(&s)) {
            return bad("traffic", s, (0.0, MAX_ZIPF_S), "the Zipf exponent is between 0 and 10");
        }
    }
    if !(options.requests_per_sec.is_finite()
        && options.requests_per_sec > 0.0
        && options.requests_per_sec <= limits::MAX_ROLLOUT_RATE)
    {
        let (got, range) = (options.requests_per_sec, (0.0, limits::MAX_ROLLOUT_RATE));
        return bad("requestsPerSec", got, range, "requests per second are above 0, at most 1e9");
    }
    if !(options.write_share.is_finite() && (0.0..=1.0).contains(&options.write_share)) {
        return bad("writeShare", options.write_share, (0.0, 1.0), "the write share is between 0 and 1");
    }
    limits::check("keys in a rollout's sample", options.sample_keys as u64, limits::MAX_ROLLOUT_KEYS as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_in_the_unit_interval_and_repeatable() {
        for i in 0..1000 {
            let u = unit(7, i, 1);
            assert!((0.0..1.0).contains(&u));
            assert_eq!(u, unit(7, i, 1));
        }
        assert_ne!(unit(7, 0, 1), unit(8, 0, 1));
    }

    #[test]
    fn polls_adopt_at_the_first_poll_at_or_after_publication() {
        let options = Rollout { clients: 4, lag: Lag::Poll { every_ms: 100.0 }, ..Rollout::default() };
        // Client 0 polls at 25, 125, 225...
        assert_eq!(adoption(0, 1, 0.0, &options), Some(25.0));
        assert_eq!(adoption(0, 1, 25.0, &options), Some(25.0));
        assert_eq!(adoption(0, 1, 26.0, &options), Some(125.0));
        assert_eq!(adoption(3, 1, 0.0, &options), Some(100.0));
    }

    #[test]
    fn zipf_shares_add_up_and_fall() {
        let w = traffic_shares(5, Traffic::Zipf { s: 1.0 });
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(w.windows(2).all(|p| p[0] > p[1]));
        assert!((w[0] / w[1] - 2.0).abs() < 1e-12);
    }
}
