//! "What a change moves": the fraction of keys that change owner when a node joins or leaves,
//! as the cluster grows, for this algorithm, the ideal, and `hash % N`.

use super::csv_field;
#[cfg(feature = "charts")]
use super::plot::*;
#[cfg(feature = "charts")]
use super::{legend_below, tick, Swatch, Theme};
use crate::algo::{Cluster, Options};
use crate::migration::{self, KeySample};
use crate::{Error, NodeSpec};
use std::borrow::Cow;
use std::ops::RangeInclusive;

/// The largest cluster the chart sweeps to.
pub const MAX_MOVES_NODES: u32 = 256;

/// What one change moved, as fractions of all keys.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Moved {
    /// This algorithm: exact (arcs) or on the key sample, see [`MovesData::exact`].
    pub moved: f64,
    /// The fair share of the node that joins or leaves: the least any scheme must move.
    pub ideal: f64,
    /// `hash % N` going to `hash % (N ± 1)`, exactly over all hash values.
    pub modulo: f64,
}

/// The changes from a cluster of `nodes` nodes.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveStep {
    /// N, the node count before the change.
    pub nodes: u32,
    /// `node-{N+1}` joins.
    pub join: Moved,
    /// `leaver` leaves.
    pub leave: Moved,
    pub leaver: String,
}

/// Everything the chart draws.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MovesData {
    pub algorithm: Cow<'static, str>,
    /// Which node leaves: "the middle" or, where only the last may leave, "the last".
    pub leaver: Cow<'static, str>,
    /// Whether `moved` is exact (the algorithm has arcs) or counted on the key sample.
    pub exact: bool,
    pub sample_keys: usize,
    /// By increasing N.
    pub steps: Vec<MoveStep>,
}

/// The name of node `i` (1-based).
pub fn node_name(i: u32) -> String {
    format!("node-{i}")
}

/// For each N in `nodes` (at least 2, at most [`MAX_MOVES_NODES`]): what `node-{N+1}` joining and
/// one node leaving move, with nodes `node-1`..`node-N` of weight 1.
///
/// The cluster grows one join at a time from `node-1`..`node-{start}`, as a real one would
/// (for Redis Cluster the slots are rebalanced on each join rather than created anew). The
/// middle node leaves (`node-{N/2+1}`), or the last where the algorithm's entry lets only the
/// last leave ([`Leaving`](crate::algo::Leaving)).
/// Moves are exact where the algorithm has arcs, else counted on `sample`: then the cost is
/// about `2 × keys × (last − first + 1)` lookups, and rendezvous and multi-probe lookups cost
/// O(N) hashes each, so keep the sample small (a few thousand keys) for them in a browser.
///
/// ```
/// use ringlab::algo::{Algorithm, Options};
/// use ringlab::{charts::moves, migration::KeySample};
/// let data = moves::data(&Options::new(Algorithm::Ring), 2..=64, &KeySample { keys: vec![] })?;
/// assert!(data.exact);
/// let at_10 = &data.steps[8];
/// assert_eq!(at_10.nodes, 10);
/// assert!((at_10.join.modulo - 100.0 / 110.0).abs() < 1e-6, "hash % N moves 10/11 of the keys");
/// assert!(at_10.join.moved < 0.2, "the ring moves about a fair share, 1/11");
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn data(options: &Options, nodes: RangeInclusive<u32>, sample: &KeySample) -> Result<MovesData, Error> {
    let mut job = MovesJob::new(options, nodes, sample)?;
    while !job.step()? {}
    Ok(job.data())
}

/// [`data`] one cluster size at a time: each [`step`](MovesJob::step) is one N (a join and
/// a leave from the cluster of N nodes), so a page can spread the chart over short tasks.
///
/// ```
/// use ringlab::algo::{Algorithm, Options};
/// use ringlab::charts::moves;
/// use ringlab::migration::KeySample;
/// let sample = KeySample::generated("key:", 100);
/// let mut job = moves::MovesJob::new(&Options::new(Algorithm::Jump), 2..=4, &sample)?;
/// assert!(!job.step()? && !job.step()? && job.step()?, "N = 2, 3, 4");
/// let steps = job.data().steps;
/// assert_eq!(steps.iter().map(|s| s.nodes).collect::<Vec<_>>(), [2, 3, 4]);
/// assert_eq!(steps[1].leaver, "node-3", "jump: the last bucket leaves");
/// # Ok::<(), ringlab::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct MovesJob {
    options: Options,
    sample: KeySample,
    /// The cluster of `next` nodes, grown one join at a time.
    cluster: Cluster,
    exact: bool,
    /// Sampled owners of `cluster`: it is the "after" of one join and the "before" of the
    /// next join and leave, so each state is looked up once.
    owners: Vec<u32>,
    next: u32,
    last: u32,
    steps: Vec<MoveStep>,
}

impl MovesJob {
    pub fn new(options: &Options, nodes: RangeInclusive<u32>, sample: &KeySample) -> Result<MovesJob, Error> {
        let (first, last) = (*nodes.start(), *nodes.end());
        if first < 2 || first > last || last > MAX_MOVES_NODES {
            return Err(Error::invalid_option(
                "nodes",
                format!("the moves chart needs 2 ≤ first ≤ last ≤ {MAX_MOVES_NODES} nodes (got {first}..={last})"),
            ));
        }
        let cluster = Cluster::new(options.clone(), (1..=first).map(|i| NodeSpec::new(node_name(i))))?;
        let exact = cluster.arcs().is_some();
        if !exact && sample.keys.is_empty() {
            return Err(Error::Unsupported(format!(
                "{} has no exact arcs: give a key sample to count moves on",
                options.algorithm.name()
            )));
        }
        let owners = if exact { Vec::new() } else { owner_ids(&cluster, sample)? };
        Ok(MovesJob {
            options: options.clone(),
            sample: sample.clone(),
            cluster,
            exact,
            owners,
            next: first,
            last,
            steps: Vec::with_capacity((last - first + 1) as usize),
        })
    }

    /// The join and the leave from the next cluster size; `true` when every size is done.
    pub fn step(&mut self) -> Result<bool, Error> {
        if self.is_done() {
            return Ok(true);
        }
        let n = self.next;
        // The values `hash % N` is taken of: those of the configured hash.
        let hash_values = 1u128 << self.options.config.hash.bits();
        let modulo = |from: u32, to: u32| {
            migration::modulo_moved(u64::from(from), u64::from(to), hash_values) as f64 / hash_values as f64
        };
        // Nodes are node-1 .. node-N: the leaver's index among them, plus one.
        let leaver_index = self.options.algorithm.entry().leaving.leaver(n as usize) as u32 + 1;
        let leaver = node_name(leaver_index);
        let mut left = self.cluster.clone();
        left.remove(&leaver)?;
        let mut joined = self.cluster.clone();
        joined.add(NodeSpec::new(node_name(n + 1)))?;
        if !self.exact {
            // The sample on both: at DxHash's capacity a lookup probes thousands of buckets.
            let cost = joined.lookup_cost() + left.lookup_cost();
            crate::work::charge(crate::work::Cost::Lookups, (self.sample.keys.len() as u64).saturating_mul(cost))?;
        }
        let (join_moved, leave_moved) = if self.exact {
            (exact_moved(&self.cluster, &joined)?, exact_moved(&self.cluster, &left)?)
        } else {
            let joined_owners = owner_ids(&joined, &self.sample)?;
            let moved =
                (changed(&self.owners, &joined_owners), changed(&self.owners, &owner_ids(&left, &self.sample)?));
            self.owners = joined_owners;
            moved
        };
        let nf = f64::from(n);
        self.steps.push(MoveStep {
            nodes: n,
            join: Moved { moved: join_moved, ideal: 1.0 / (nf + 1.0), modulo: modulo(n, n + 1) },
            leave: Moved { moved: leave_moved, ideal: 1.0 / nf, modulo: modulo(n, n - 1) },
            leaver,
        });
        self.cluster = joined;
        self.next += 1;
        Ok(self.is_done())
    }

    pub fn is_done(&self) -> bool {
        self.next > self.last
    }

    /// The chart's data: the sizes done so far (every one once [`is_done`](MovesJob::is_done)).
    pub fn data(&self) -> MovesData {
        MovesData {
            algorithm: self.options.algorithm.name().into(),
            leaver: self.options.algorithm.entry().leaving.leaver_words().into(),
            exact: self.exact,
            sample_keys: self.sample.keys.len(),
            steps: self.steps.clone(),
        }
    }
}

/// The exact fraction of positions that change owner.
fn exact_moved(before: &Cluster, after: &Cluster) -> Result<f64, Error> {
    match (before.arcs(), after.arcs()) {
        (Some(b), Some(a)) => Ok(migration::between(b, a)?.moved_fraction),
        _ => Err(Error::Unsupported("exact moves need arcs on both sides".into())),
    }
}

/// The owner of each sample key, as the `i` of its `node-{i}` (indices shift on a leave;
/// names do not).
fn owner_ids(cluster: &Cluster, sample: &KeySample) -> Result<Vec<u32>, Error> {
    let ids: Vec<u32> = cluster
        .nodes()
        .iter()
        .map(|n| n.name.strip_prefix("node-").and_then(|i| i.parse().ok()).unwrap_or(u32::MAX))
        .collect();
    sample.keys.iter().map(|k| Ok(ids[cluster.locate_index(k)?])).collect()
}

/// The fraction of keys whose owner differs (what `migration::sample_between` reports,
/// without looking each state up twice).
fn changed(before: &[u32], after: &[u32]) -> f64 {
    let moved = before.iter().zip(after).filter(|(b, a)| b != a).count();
    moved as f64 / before.len().max(1) as f64
}

pub const TITLE: &str = "What a change moves";
pub const JOIN_TITLE: &str = "A node joins: N → N+1";
pub const X_LABEL: &str = "nodes before the change, N (count)";
pub const Y_LABEL: &str = "keys moved (% of all keys)";

#[cfg(feature = "charts")]
fn leave_title(data: &MovesData) -> String {
    format!("A node leaves: N → N−1 ({} node)", data.leaver)
}

#[cfg(feature = "charts")]
/// Legend labels, also used by the tests.
fn labels(data: &MovesData) -> [String; 3] {
    let basis = if data.exact { "exact".to_string() } else { format!("{} sampled keys", data.sample_keys) };
    [
        format!("{} ({basis})", data.algorithm),
        "ideal: the fair share of the node that joins or leaves".to_string(),
        "hash % N (exact)".to_string(),
    ]
}

// Draws the chart on `area` (its whole size): join and leave side by side, or stacked when
// the area is narrow.
chart!(MovesData, (300, 300), steps, "the moves data has no steps");

#[cfg(feature = "charts")]
fn render<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &MovesData,
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let body = area.titled(TITLE, theme.title_font())?;
    let [algo_label, ideal_label, modulo_label] = labels(data);
    let styles = Styles {
        algorithm: theme.line(theme.primary, 2.0),
        ideal: theme.line(theme.muted, 1.5),
        modulo: theme.line(theme.secondary, 2.0),
    };
    let legend = [
        (algo_label, Swatch::Line(styles.algorithm)),
        (ideal_label, Swatch::Dashed(styles.ideal)),
        (modulo_label, Swatch::Line(styles.modulo)),
    ];
    let panels = legend_below(&body, &legend, theme)?;
    let (w, h) = panels.dim_in_pixel();
    let side_by_side = w >= theme.px(560.0) && w * 10 >= h * 12;
    let (join_area, leave_area) =
        if side_by_side { panels.split_horizontally(w / 2) } else { panels.split_vertically(h / 2) };
    panel(&join_area, data, |s| s.join, JOIN_TITLE, &styles, theme)?;
    panel(&leave_area, data, |s| s.leave, &leave_title(data), &styles, theme)?;
    area.present()
}

#[cfg(feature = "charts")]
struct Styles {
    algorithm: ShapeStyle,
    ideal: ShapeStyle,
    modulo: ShapeStyle,
}

#[cfg(feature = "charts")]
fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &MovesData,
    pick: impl Fn(&MoveStep) -> Moved,
    title: &str,
    styles: &Styles,
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let (first, last) = (data.steps[0].nodes, data.steps[data.steps.len() - 1].nodes);
    // A single N still needs an x range with some width.
    let (x_lo, x_hi) = (
        f64::from(first) - 0.5 * f64::from(u8::from(first == last)),
        f64::from(last) + 0.5 * f64::from(u8::from(first == last)),
    );
    let mut chart = ChartBuilder::on(area)
        .caption(title, theme.panel_font())
        .margin(theme.px(8.0))
        .margin_right(theme.px(16.0))
        .x_label_area_size(theme.px(40.0))
        .y_label_area_size(theme.px(52.0))
        .build_cartesian_2d(x_lo..x_hi, 0.0..100.0)?;
    let (plot_w, _) = area.dim_in_pixel();
    chart
        .configure_mesh()
        .x_desc(X_LABEL)
        .y_desc(Y_LABEL)
        .x_labels(((plot_w / theme.px(44.0)) as usize).clamp(2, 12))
        .y_labels(6)
        .x_label_formatter(&|v| if v.fract() == 0.0 { tick(*v) } else { String::new() })
        .y_label_formatter(&|v| tick(*v))
        .axis_desc_style(theme.axis_font())
        .label_style(theme.small_font())
        .axis_style(theme.line(theme.muted, 1.0))
        .bold_line_style(theme.line(theme.grid, 1.0))
        .light_line_style(theme.grid.mix(0.3))
        .max_light_lines(1)
        .draw()?;
    let series = |f: &dyn Fn(Moved) -> f64| -> Vec<(f64, f64)> {
        data.steps.iter().map(|s| (f64::from(s.nodes), f(pick(s)) * 100.0)).collect()
    };
    chart.draw_series(LineSeries::new(series(&|m| m.modulo), styles.modulo))?;
    // Dots only while they stay apart; beyond that the line alone reads better.
    let dots = if data.steps.len() <= 24 { theme.px(2.5) } else { 0 };
    chart.draw_series(LineSeries::new(series(&|m| m.moved), styles.algorithm).point_size(dots))?;
    // The ideal goes on top: a consistent algorithm's line runs right along it.
    chart.draw_series(DashedLineSeries::new(series(&|m| m.ideal), theme.px(6.0), theme.px(4.0), styles.ideal))?;
    Ok(())
}

/// The data as CSV: a header row with units, then one row per N.
fn csv(data: &MovesData) -> String {
    let mut out = String::from(
        "nodes_before,join_moved_percent,join_ideal_percent,join_modulo_percent,\
         leaving_node,leave_moved_percent,leave_ideal_percent,leave_modulo_percent,algorithm,exact\n",
    );
    for s in &data.steps {
        let m = |x: f64| format!("{:.6}", x * 100.0);
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{}\n",
            s.nodes,
            m(s.join.moved),
            m(s.join.ideal),
            m(s.join.modulo),
            csv_field(&s.leaver),
            m(s.leave.moved),
            m(s.leave.ideal),
            m(s.leave.modulo),
            data.algorithm,
            if data.exact { "yes" } else { "no" },
        ));
    }
    out
}

#[cfg(all(test, feature = "charts"))]
mod tests {
    use super::*;
    use crate::algo::Algorithm;
    use crate::charts::draw;
    use crate::charts::test_support::{has_text, svg, themes, Element};
    use crate::{analysis, Config, Ring};

    fn no_sample() -> KeySample {
        KeySample { keys: vec![] }
    }

    fn ring(n: u32) -> Ring {
        Ring::with_nodes(Config::default(), (1..=n).map(node_name).map(NodeSpec::new)).unwrap()
    }

    #[test]
    fn ring_moves_exactly_the_joiners_and_the_leavers_arcs() {
        let data = data(&Options::new(Algorithm::Ring), 2..=12, &no_sample()).unwrap();
        assert!(data.exact);
        let size = 2f64.powi(32);
        for s in &data.steps {
            let n = s.nodes;
            // Rings built from scratch, shares counted by analysis: independent of migration.
            let joiner_share = analysis::shares(&ring(n + 1))[n as usize] as f64 / size;
            assert_eq!(s.join.moved, joiner_share, "join at {n}");
            // ... which is the least any scheme could move to reach the new shares.
            assert_eq!(s.join.moved, migration::between(&ring(n), &ring(n + 1)).unwrap().ideal_fraction);
            let leaver = (n / 2 + 1) as usize;
            assert_eq!(s.leaver, node_name(leaver as u32));
            let leaver_share = analysis::shares(&ring(n))[leaver - 1] as f64 / size;
            assert_eq!(s.leave.moved, leaver_share, "leave at {n}");
            assert_eq!(s.join.ideal, 1.0 / f64::from(n + 1));
            assert_eq!(s.leave.ideal, 1.0 / f64::from(n));
            // 160 vnodes keep each node within a few tens of percent of its fair share.
            assert!((s.join.moved / s.join.ideal - 1.0).abs() < 0.35, "{n}: {}", s.join.moved);
        }
    }

    #[test]
    fn modulo_reference_is_exact() {
        let data = data(&Options::new(Algorithm::Ring), 9..=11, &no_sample()).unwrap();
        let at = |n: u32| data.steps.iter().find(|s| s.nodes == n).unwrap();
        // 10 -> 11: of every 110 consecutive hashes, 10 keep their owner.
        assert!((at(10).join.modulo - 100.0 / 110.0).abs() < 1e-9);
        assert!((at(11).leave.modulo - 100.0 / 110.0).abs() < 1e-9);
        // 9 -> 10 and 10 -> 9 move the same keys.
        assert_eq!(at(9).join.modulo, at(10).leave.modulo);
    }

    #[test]
    fn jump_loses_its_last_node_and_is_counted_on_the_sample() {
        let sample = KeySample::generated("key:", 4000);
        let data = data(&Options::new(Algorithm::Jump), 3..=6, &sample).unwrap();
        assert!(!data.exact);
        for s in &data.steps {
            assert_eq!(s.leaver, node_name(s.nodes));
            // Count by hand on clusters built from scratch.
            let build = |n: u32| {
                Cluster::new(Options::new(Algorithm::Jump), (1..=n).map(node_name).map(NodeSpec::new)).unwrap()
            };
            let (before, after) = (build(s.nodes), build(s.nodes + 1));
            let changed = sample.keys.iter().filter(|k| before.locate(k).unwrap() != after.locate(k).unwrap()).count();
            assert_eq!(s.join.moved, changed as f64 / 4000.0);
            let by_engine = migration::sample_between(&before, &after, &sample, 0.0).unwrap();
            assert_eq!(s.join.moved, by_engine.moved_fraction);
            // Jump moves only onto the new node: about 1/(N+1) of the keys.
            assert!((s.join.moved - s.join.ideal).abs() < 0.03);
        }
    }

    #[test]
    fn modulo_algorithm_on_a_sample_agrees_with_the_exact_reference() {
        let sample = KeySample::generated("key:", 5000);
        let data = data(&Options::new(Algorithm::Modulo), 10..=10, &sample).unwrap();
        let s = &data.steps[0];
        assert!((s.join.moved - s.join.modulo).abs() < 0.02, "{} vs {}", s.join.moved, s.join.modulo);
    }

    #[test]
    fn bad_ranges_and_missing_samples_are_errors() {
        let ring = Options::new(Algorithm::Ring);
        assert!(data(&ring, 1..=5, &no_sample()).is_err());
        assert!(data(&ring, RangeInclusive::new(6, 5), &no_sample()).is_err());
        assert!(data(&ring, 2..=MAX_MOVES_NODES + 1, &no_sample()).is_err());
        assert!(data(&Options::new(Algorithm::Rendezvous), 2..=4, &no_sample()).is_err());
    }

    #[test]
    fn svg_has_titles_axis_labels_and_legend_in_every_theme_and_layout() {
        let data = data(&Options::new(Algorithm::Ring), 2..=20, &no_sample()).unwrap();
        for theme in themes() {
            for (w, h) in [(900.0, 380.0), (420.0, 640.0)] {
                let out = svg((theme.px(w), theme.px(h)), |a| draw(a, &data, &theme)).unwrap();
                let texts = [TITLE, JOIN_TITLE, &leave_title(&data), X_LABEL, Y_LABEL].map(String::from);
                for text in texts.into_iter().chain(labels(&data)) {
                    assert!(has_text(&out, &text), "missing {text:?}");
                }
                assert_eq!(out.matches(&format!(">\n{X_LABEL}\n<")).count(), 2, "two panels");
            }
        }
        let jump = super::data(&Options::new(Algorithm::Jump), 2..=3, &KeySample::generated("k", 100)).unwrap();
        let out = svg((800, 400), |a| draw(a, &jump, &Theme::light())).unwrap();
        assert!(has_text(&out, "A node leaves: N → N−1 (the last node)"));
        assert!(has_text(&out, "jump (100 sampled keys)"));
    }

    #[test]
    fn every_series_of_both_panels_is_drawn_where_its_data_says_in_every_theme_and_layout() {
        use crate::charts::test_support::{assert_dashed, assert_polyline, axes, elements, polylines};
        let data = data(&Options::new(Algorithm::Ring), 2..=20, &no_sample()).unwrap();
        for theme in themes() {
            for (w, h) in [(900.0, 380.0), (420.0, 640.0)] {
                let out = svg((theme.px(w), theme.px(h)), |a| draw(a, &data, &theme)).unwrap();
                let els = elements(&out);
                let (xs, ys) = axes(&els);
                assert_eq!((xs.len(), ys.len()), (2, 2), "two panels at {w}×{h}: {xs:?} {ys:?}");
                // Panel k's axes are drawn together, then its series, then panel k+1.
                for (k, pick) in [|s: &MoveStep| s.join, |s: &MoveStep| s.leave].into_iter().enumerate() {
                    let (x, y) = (&xs[k], &ys[k]);
                    let (from, to) =
                        (x.index.max(y.index), xs.get(k + 1).map_or(usize::MAX, |n| n.index.min(ys[k + 1].index)));
                    fn before(mut v: Vec<&Element>, to: usize) -> Vec<&Element> {
                        v.retain(|e| e.index < to);
                        v
                    }
                    let within = |v| before(v, to);
                    let series = |f: fn(Moved) -> f64| -> Vec<(f64, f64)> {
                        data.steps
                            .iter()
                            .map(|s| (x.px(f64::from(s.nodes), false), y.px(f(pick(s)) * 100.0, false)))
                            .collect()
                    };
                    let width = theme.px(2.0);
                    let panel = if k == 0 { "join" } else { "leave" };
                    let algorithm = within(polylines(&els, theme.primary, width, from));
                    assert_polyline(&algorithm, &series(|m| m.moved), 1.5, &format!("{panel}: ring"));
                    let modulo = within(polylines(&els, theme.secondary, width, from));
                    assert_polyline(&modulo, &series(|m| m.modulo), 1.5, &format!("{panel}: hash % N"));
                    let ideal = within(polylines(&els, theme.muted, theme.px(1.5), from));
                    assert_dashed(
                        &ideal,
                        &series(|m| m.ideal),
                        1.5,
                        f64::from(theme.px(10.0)),
                        &format!("{panel}: ideal"),
                    );
                }
            }
        }
    }

    #[test]
    fn a_single_step_and_small_areas_do_not_panic() {
        let data = data(&Options::new(Algorithm::Ring), 5..=5, &no_sample()).unwrap();
        svg((300, 300), |a| draw(a, &data, &Theme::light())).unwrap();
        assert!(svg((299, 300), |a| draw(a, &data, &Theme::light())).is_err());
    }

    #[test]
    fn csv_has_a_header_with_units_and_a_row_per_n() {
        let data = data(&Options::new(Algorithm::Ring), 2..=64, &no_sample()).unwrap();
        let text = csv(&data);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + 63);
        assert!(lines[0].starts_with("nodes_before,join_moved_percent"));
        assert!(lines[9].starts_with("10,"), "row for N = 10: {}", lines[9]);
        let modulo: f64 = lines[9].split(',').nth(3).unwrap().parse().unwrap();
        assert!((modulo - 100.0 * 100.0 / 110.0).abs() < 1e-5);
    }
}
