//! One frame: everything a view redraws after a change, in one answer, computed from one
//! state (its shares once).
//!
//! A view applies a change (getting its [`Transition`](super::Transition), what moved) and then
//! asks for the [`Frame`]: the circle ([`Scene`]), the node rows, what the user may do next, the
//! settings and the algorithm's own options as controls, the next free node name, the down
//! rule, and the followed key's walk. Two calls, whatever the view shows. The share link is
//! [`Session::link`]'s: the JS binding adds it to a frame asked for with `link: true` (the
//! playground's), so that the element's modules, which write no links, carry no link encoder.
//!
//! ```
//! use ringlab::session::{FrameOptions, Session};
//! let mut s = Session::playground();
//! s.apply(ringlab::session::Change::Add(ringlab::NodeSpec::new("node-6")))?;
//! let frame = s.frame(&FrameOptions { follow: Some("user:42"), ..FrameOptions::default() });
//! assert_eq!(frame.nodes.len(), 6);
//! assert_eq!(frame.next_node_name, "node-7");
//! assert!(s.link().starts_with("#ringlab="));
//! assert!(frame.follow.as_ref().unwrap().text.starts_with("user:42 →"));
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::scene::{Capabilities, Follow, NodeRow, Scene};
use super::{own_options, Session, Settings};
use crate::algo::down::DownRule;
use crate::algo::options::{serde_json_value::Value, OptionView};
use serde::Serialize;
use std::collections::BTreeMap;

/// What a view redraws after a change.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Frame {
    /// The circle (the binding hands its long arrays over as typed arrays).
    #[serde(skip)]
    pub scene: Scene,
    pub nodes: Vec<NodeRow>,
    pub capabilities: Capabilities,
    pub settings: SettingsView,
    /// The current algorithm's own options, each with its value: what the controls show.
    pub options: Vec<OptionControl>,
    /// A free name for a new node, in the pool's own form ([`next_node_name`]).
    pub next_node_name: String,
    /// What this algorithm's real clients do with a down node.
    pub down_rule: DownRule,
    /// The followed key's walk, when a key was given and it has an owner.
    pub follow: Option<Follow>,
    /// Why the followed key has no walk (it is unavailable, say), when it has none.
    pub follow_error: Option<String>,
    /// The chart a view shows, when one was asked for: `{kind, data}` for the charts module.
    pub chart: Option<super::SessionChart>,
    /// Why that chart has no data, when it has none.
    pub chart_error: Option<FrameError>,
}

/// What a frame is asked to carry beyond the state.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameOptions<'a> {
    /// The key the view follows.
    pub follow: Option<&'a str>,
    /// The chart the view shows (`spread`, `shares`, `moves`, `algorithms`).
    pub chart: Option<&'a str>,
}

/// An error as a frame carries it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FrameError {
    pub code: &'static str,
    pub message: String,
}

/// The settings as views show them.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SettingsView {
    pub algorithm: &'static str,
    pub hash: &'static str,
    pub bits: u32,
    pub vnodes: u32,
    pub keys: usize,
    pub replicas: usize,
    pub zipf: f64,
    /// The current algorithm's own options, by name, each with its value or default.
    pub options: BTreeMap<&'static str, Value>,
}

/// An option with its current value, for a control.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OptionControl {
    #[serde(flatten)]
    pub option: OptionView,
    /// The value in use (its default when unset; `null` when unset without one).
    pub value: Value,
}

impl Settings {
    /// As views show them.
    pub fn view(&self) -> SettingsView {
        let options = own_options(self.algorithm)
            .map(|spec| (spec.name, self.option(spec.name).map_or(Value::Null, |v| v.json())))
            .collect::<std::collections::BTreeMap<_, _>>();
        SettingsView {
            algorithm: self.algorithm.name(),
            hash: self.hash.name(),
            bits: self.bits.bits(),
            vnodes: self.vnodes,
            keys: self.keys,
            replicas: self.replicas,
            zipf: self.zipf,
            options,
        }
    }

    /// The current algorithm's own options as controls.
    pub fn controls(&self) -> Vec<OptionControl> {
        own_options(self.algorithm)
            .map(|spec| OptionControl {
                option: spec.view(),
                value: self.option(spec.name).map_or(Value::Null, |v| v.json()),
            })
            .collect()
    }
}

impl Session {
    /// Everything a view redraws now, with the followed key's walk and the chart it shows.
    pub fn frame(&self, options: &FrameOptions) -> Frame {
        let (follow, follow_error) = match options.follow.map(|key| self.follow(key)) {
            Some(Ok(f)) => (Some(f), None),
            Some(Err(e)) => (None, Some(e.to_string())),
            None => (None, None),
        };
        let (chart, chart_error) = match options.chart.map(|kind| self.chart(kind, false, &[])) {
            Some(Ok(c)) => (Some(c), None),
            Some(Err(e)) => (None, Some(FrameError { code: e.code(), message: e.to_string() })),
            None => (None, None),
        };
        Frame {
            scene: self.scene(),
            nodes: self.node_rows(),
            capabilities: self.capabilities(),
            settings: self.settings().view(),
            options: self.settings().controls(),
            next_node_name: self.next_node_name(),
            down_rule: self.cluster().down_rule(),
            follow,
            follow_error,
            chart,
            chart_error,
        }
    }

    /// A free name for a new node: `node-N` with the smallest N not taken.
    pub fn next_node_name(&self) -> String {
        next_node_name(self.nodes().iter().map(|n| n.name.as_str()))
    }
}

/// A free name for a new node, in the form of the last one: its last number counted on
/// (`node-5` → `node-6`, `10.0.0.3:6379` → `10.0.0.4:6379`, an address's port kept), else
/// `node-N` with the smallest N not taken. An imported pool is given a member that looks
/// like its own.
///
/// ```
/// use ringlab::session::next_node_name;
/// assert_eq!(next_node_name(["10.0.0.1:6379", "10.0.0.2:6379"].into_iter()), "10.0.0.3:6379");
/// assert_eq!(next_node_name(["cache-07", "cache-08"].into_iter()), "cache-09");
/// assert_eq!(next_node_name(["a", "b"].into_iter()), "node-1");
/// ```
pub fn next_node_name<'a>(taken: impl Iterator<Item = &'a str>) -> String {
    let mut taken: Vec<&str> = taken.collect();
    let last = taken.last().copied();
    taken.sort_unstable();
    let free = |n: &String| taken.binary_search(&n.as_str()).is_err();
    if let Some(name) = last.and_then(|last| counted_on(last).find(free)) {
        return name;
    }
    (1..).map(|i| format!("node-{i}")).find(free).unwrap_or_default()
}

/// The names after `name` with its last number (before a `:port`) counted up, its zero
/// padding kept: a few hundred, and none past an IPv4 address's last octet.
fn counted_on(name: &str) -> impl Iterator<Item = String> + '_ {
    let host = match name.rsplit_once(':') {
        Some((host, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => name,
    };
    let end = host.bytes().rposition(|b| b.is_ascii_digit()).map_or(0, |i| i + 1);
    let start = host[..end].bytes().rposition(|b| !b.is_ascii_digit()).map_or(0, |i| i + 1);
    let digits = &host[start..end];
    let number: Option<u32> = if (1..=6).contains(&digits.len()) { digits.parse().ok() } else { None };
    let octet = host.split('.').count() == 4 && host.split('.').all(|p| p.parse::<u8>().is_ok());
    let top = match number {
        None => 0,
        Some(_) if octet => 255,
        Some(n) => n.saturating_add(512),
    };
    let width = digits.len();
    let first = number.map_or(1, |n| n + 1);
    (first..=top).map(move |n| format!("{}{n:0width$}{}", &name[..start], &name[end..]))
}
