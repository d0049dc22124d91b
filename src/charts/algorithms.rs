//! "Algorithms compared": small multiples over [`compare`](crate::algo::compare::compare)'s
//! reports (balance, what a join and a leave move, memory) and a lookup cost the caller
//! measured (wasm has no clock). Also the same numbers as a table model and as CSV.

use super::csv_field;
#[cfg(feature = "charts")]
use super::plot::*;
#[cfg(feature = "charts")]
use super::{legend_below, tick, titled, Swatch, Theme};
use crate::algo::compare::{self, Report};
use crate::algo::{Algorithm, Options};
use crate::keys::KeySample;
use crate::{Error, NodeSpec};
use std::borrow::Cow;

/// One algorithm's figures, or why it has none.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AlgorithmRow {
    pub algorithm: Cow<'static, str>,
    /// The report, or the error's message (e.g. weights given to an algorithm without them).
    pub report: Result<Report, String>,
    /// Nanoseconds per lookup, measured by the caller; `None` when not measured.
    pub lookup_ns: Option<f64>,
}

/// Everything the chart and the table show.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AlgorithmsData {
    pub nodes: usize,
    pub sample_keys: usize,
    /// In the order the algorithms were asked for.
    pub rows: Vec<AlgorithmRow>,
    /// Only this one of [`PANELS`] (a phone shows them one at a time), or all of them.
    #[serde(default)]
    pub panel: Option<usize>,
}

impl AlgorithmsData {
    /// The chart with only panel `panel` of [`PANELS`] (`None`: all five).
    pub fn showing(mut self, panel: Option<usize>) -> Result<AlgorithmsData, Error> {
        if let Some(p) = panel.filter(|&p| p >= PANELS.len()) {
            let last = (PANELS.len() - 1) as f64;
            return Err(Error::out_of_range(
                "panel",
                p as f64,
                (0.0, last),
                format!("panel {p}: the panels are 0 to {last}"),
            ));
        }
        self.panel = panel;
        Ok(self)
    }
}

/// The rows of [`compare::compare`] (computed as [`AlgorithmsJob`] does), each report paired
/// with `lookup_ns[i]` (the caller's measurement for `algorithms[i]`, kept if
/// [`measured`](crate::algo::metrics::measured)). An algorithm that refuses these nodes gets a row with the error's message.
///
/// ```
/// use ringlab::algo::{Algorithm, Options};
/// use ringlab::{charts::algorithms, migration::KeySample, NodeSpec};
/// let nodes: Vec<NodeSpec> = (1..=6).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
/// let sample = KeySample::generated("key:", 2000);
/// let which = [Algorithm::Ring, Algorithm::Jump, Algorithm::Modulo];
/// let data = algorithms::data(&Options::new(Algorithm::Ring), &nodes, &sample, &which, &[Some(25.0)])?;
/// assert_eq!(data.rows[0].lookup_ns, Some(25.0));
/// assert_eq!(data.rows[1].lookup_ns, None);
/// let modulo = data.rows[2].report.as_ref().unwrap();
/// assert!(modulo.moved_on_join > 0.7);
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn data(
    base: &Options,
    nodes: &[NodeSpec],
    sample: &KeySample,
    algorithms: &[Algorithm],
    lookup_ns: &[Option<f64>],
) -> Result<AlgorithmsData, Error> {
    let mut job = AlgorithmsJob::new(base, nodes, sample, algorithms)?;
    while !job.step() {}
    Ok(job.data(lookup_ns))
}

/// [`data`] one algorithm at a time: each [`step`](AlgorithmsJob::step) computes one row
/// ([`compare::report`]), so a page can spread the comparison over several short tasks.
///
/// ```
/// use ringlab::algo::{compare, Algorithm, Options};
/// use ringlab::{charts::algorithms, migration::KeySample, NodeSpec};
/// let nodes: Vec<NodeSpec> = (1..=6).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
/// let sample = KeySample::generated("key:", 500);
/// let which = [Algorithm::Ring, Algorithm::Jump];
/// let mut job = algorithms::AlgorithmsJob::new(&Options::new(Algorithm::Ring), &nodes, &sample, &which)?;
/// assert!(!job.step(), "one row of two");
/// assert_eq!(job.data(&[]).rows.len(), 1);
/// assert!(job.step(), "both rows");
/// let jump = compare::report(&Options::new(Algorithm::Ring), Algorithm::Jump, &nodes, &sample);
/// assert_eq!(job.data(&[]).rows[1].report, jump.map_err(|e| e.to_string()));
/// # Ok::<(), ringlab::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct AlgorithmsJob {
    base: Options,
    nodes: Vec<NodeSpec>,
    sample: KeySample,
    algorithms: Vec<Algorithm>,
    /// Over the comparison's caps: every row says so (as [`compare::compare`] does).
    refused: Option<Error>,
    reports: Vec<(Algorithm, Result<Report, Error>)>,
}

impl AlgorithmsJob {
    pub fn new(
        base: &Options,
        nodes: &[NodeSpec],
        sample: &KeySample,
        algorithms: &[Algorithm],
    ) -> Result<AlgorithmsJob, Error> {
        if nodes.len() < 2 {
            return Err(Error::too_few("nodes", 2, nodes.len(), "comparing needs at least two nodes"));
        }
        if algorithms.is_empty() || sample.keys.is_empty() {
            let (what, got) = if algorithms.is_empty() { ("algorithms", algorithms.len()) } else { ("keys", 0) };
            return Err(Error::too_few(what, 1, got, "comparing needs at least one algorithm and one key"));
        }
        Ok(AlgorithmsJob {
            base: base.clone(),
            nodes: nodes.to_vec(),
            sample: sample.clone(),
            algorithms: algorithms.to_vec(),
            refused: compare::check_work(nodes, sample, algorithms).err(),
            reports: Vec::with_capacity(algorithms.len()),
        })
    }

    /// Computes the next row (every row at once when the caps refuse them all); `true`
    /// when every row is in.
    pub fn step(&mut self) -> bool {
        while let Some(&algorithm) = self.algorithms.get(self.reports.len()) {
            let report = match &self.refused {
                Some(e) => Err(e.clone()),
                None => compare::report(&self.base, algorithm, &self.nodes, &self.sample),
            };
            self.reports.push((algorithm, report));
            if self.refused.is_none() {
                break;
            }
        }
        self.is_done()
    }

    pub fn is_done(&self) -> bool {
        self.reports.len() == self.algorithms.len()
    }

    /// The chart's data from the rows computed so far (all of them once
    /// [`is_done`](AlgorithmsJob::is_done)), each paired with `lookup_ns[i]`.
    pub fn data(&self, lookup_ns: &[Option<f64>]) -> AlgorithmsData {
        from_reports(self.reports.clone(), lookup_ns, self.nodes.len(), self.sample.keys.len())
    }
}

/// The same from reports the caller already has.
pub fn from_reports(
    reports: Vec<(Algorithm, Result<Report, Error>)>,
    lookup_ns: &[Option<f64>],
    nodes: usize,
    sample_keys: usize,
) -> AlgorithmsData {
    let rows = reports
        .into_iter()
        .enumerate()
        .map(|(i, (algorithm, report))| AlgorithmRow {
            algorithm: algorithm.name().into(),
            report: report.map_err(|e| e.to_string()),
            lookup_ns: crate::algo::metrics::measured(lookup_ns.get(i).copied().flatten()),
        })
        .collect();
    AlgorithmsData { nodes, sample_keys, rows, panel: None }
}

/// The figures as a table for screen readers and copying: headers with units, one row of
/// strings per algorithm ("n/a" where there is no figure, the error in the last column).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Table {
    pub caption: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// The chart's panels' titles, in order (what [`AlgorithmsData::panel`] picks).
    pub panels: Vec<String>,
}

const NA: &str = "n/a";

pub fn table(data: &AlgorithmsData) -> Table {
    let headers = [
        "Algorithm",
        "Balance: max/mean load (×)",
        "Moved on join (%)",
        "Ideal on join (%)",
        "Moved on leave (%)",
        "Ideal on leave (%)",
        "Node that left",
        "Memory (bytes)",
        "Lookup (ns)",
        "Note",
    ];
    let rows = data
        .rows
        .iter()
        .map(|row| {
            let lookup = row.lookup_ns.map_or(NA.to_string(), |ns| format!("{ns:.1}"));
            let mut cells = vec![row.algorithm.to_string()];
            match &row.report {
                Ok(r) => cells.extend([
                    with_margin(r.max_over_mean, r.max_over_mean_margin, 3),
                    with_margin(r.moved_on_join * 100.0, r.moved_on_join_margin * 100.0, 2),
                    format!("{:.2}", r.ideal_join * 100.0),
                    with_margin(r.moved_on_leave * 100.0, r.moved_on_leave_margin * 100.0, 2),
                    format!("{:.2}", r.ideal_leave * 100.0),
                    r.left.clone(),
                    r.memory_bytes.to_string(),
                    lookup,
                    String::new(),
                ]),
                Err(e) => {
                    cells.extend(std::iter::repeat_n(NA.to_string(), 7));
                    cells.extend([lookup, e.clone()]);
                }
            }
            cells
        })
        .collect();
    Table {
        caption: format!(
            "{} algorithms on {} nodes: exact where a placement has arcs, else counted on {} sampled keys \
             (± two standard errors)",
            data.rows.len(),
            data.nodes,
            data.sample_keys
        ),
        headers: headers.map(String::from).to_vec(),
        rows,
        panels: PANELS.iter().map(|p| p.0.to_string()).collect(),
    }
}

/// `value` with `decimals` places, and its margin where it has one: "1.227 ± 0.170".
fn with_margin(value: f64, margin: f64, decimals: usize) -> String {
    if margin > 0.0 {
        format!("{value:.decimals$} ± {margin:.decimals$}")
    } else {
        format!("{value:.decimals$}")
    }
}

/// The data as CSV: a header row with units, then one row per algorithm, full precision
/// (empty fields where there is no figure).
fn csv(data: &AlgorithmsData) -> String {
    // Each sampled figure beside its margin (0 where exact), so a reader can tell a difference
    // from the sample's noise as the chart does.
    let mut out = String::from(
        "algorithm,max_over_mean_ratio,max_over_mean_margin,balance_exact,moved_on_join_percent,\
         moved_on_join_margin_percent,ideal_join_percent,moved_on_leave_percent,moved_on_leave_margin_percent,\
         ideal_leave_percent,moves_exact,left_node,memory_bytes,lookup_ns_per_lookup,error\n",
    );
    for row in &data.rows {
        let lookup = row.lookup_ns.map_or(String::new(), |ns| ns.to_string());
        let figures = match &row.report {
            Ok(r) => format!(
                "{:.6},{:.6},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{},{},{},{},",
                r.max_over_mean,
                r.max_over_mean_margin,
                r.exact_balance,
                r.moved_on_join * 100.0,
                r.moved_on_join_margin * 100.0,
                r.ideal_join * 100.0,
                r.moved_on_leave * 100.0,
                r.moved_on_leave_margin * 100.0,
                r.ideal_leave * 100.0,
                r.exact_moves,
                csv_field(&r.left),
                r.memory_bytes,
                lookup
            ),
            Err(e) => format!(",,,,,,,,,,,,{lookup},{}", csv_field(e)),
        };
        out.push_str(&format!("{},{figures}\n", row.algorithm));
    }
    out
}

pub const TITLE: &str = "Algorithms compared";

/// A margin's whisker: thinner than the ideal's tick, so the two read apart.
#[cfg(feature = "charts")]
const WHISKER_PX: f64 = 1.0;

#[cfg(feature = "charts")]
/// One small multiple: a bar per algorithm from `base` to its value, an optional ideal tick.
struct Panel {
    title: &'static str,
    x_desc: &'static str,
    /// Per row, in drawing units (log10 bytes for memory).
    values: Vec<Option<f64>>,
    /// Per row, the sample's margin around the value (0 where it is exact): a whisker.
    margins: Vec<f64>,
    ideals: Vec<Option<f64>>,
    base: f64,
    /// Whole decades on the axis (values are log10 bytes).
    log: bool,
}

/// The panels' titles and axis descriptions, also used by the tests.
pub const PANELS: [(&str, &str); 5] = [
    ("Balance", "max/mean load (×, 1 = even)"),
    ("Moved on join", "keys moved (%)"),
    ("Moved on leave", "keys moved (%)"),
    ("Memory", "bytes (log scale)"),
    ("Lookup cost", "ns per lookup"),
];

#[cfg(feature = "charts")]
fn panels(data: &AlgorithmsData) -> Vec<Panel> {
    let figure = |f: fn(&Report) -> f64| -> Vec<Option<f64>> {
        data.rows.iter().map(|r| r.report.as_ref().ok().map(f)).collect()
    };
    let none = vec![None; data.rows.len()];
    let exact = vec![0.0; data.rows.len()];
    let margin =
        |f: fn(&Report) -> f64| -> Vec<f64> { data.rows.iter().map(|r| r.report.as_ref().map_or(0.0, f)).collect() };
    let spec = |i: usize, values, margins, ideals, base, log| Panel {
        title: PANELS[i].0,
        x_desc: PANELS[i].1,
        values,
        margins,
        ideals,
        base,
        log,
    };
    vec![
        spec(0, figure(|r| r.max_over_mean), margin(|r| r.max_over_mean_margin), none.clone(), 1.0, false),
        spec(
            1,
            figure(|r| r.moved_on_join * 100.0),
            margin(|r| r.moved_on_join_margin * 100.0),
            figure(|r| r.ideal_join * 100.0),
            0.0,
            false,
        ),
        spec(
            2,
            figure(|r| r.moved_on_leave * 100.0),
            margin(|r| r.moved_on_leave_margin * 100.0),
            figure(|r| r.ideal_leave * 100.0),
            0.0,
            false,
        ),
        spec(3, figure(|r| libm::log10(r.memory_bytes.max(1) as f64)), exact.clone(), none.clone(), 0.0, true),
        spec(4, data.rows.iter().map(|r| r.lookup_ns).collect(), exact, none, 0.0, false),
    ]
}

#[cfg(feature = "charts")]
/// `log10(bytes)` as a label: powers of ten only ("1k", "10M").
fn bytes_tick(log10: f64) -> String {
    if log10.fract() != 0.0 || log10 < 0.0 {
        return String::new();
    }
    match log10 as u32 {
        e @ 0..=2 => 10u32.pow(e).to_string(),
        e @ 3..=5 => format!("{}k", 10u32.pow(e - 3)),
        e @ 6..=8 => format!("{}M", 10u32.pow(e - 6)),
        e => format!("{}G", 10u64.pow(e.saturating_sub(9).min(18))),
    }
}

/// " (jump: the last)": the algorithms among the rows that can lose only their last node,
/// by their entries.
#[cfg(feature = "charts")]
fn last_only_words(data: &AlgorithmsData) -> String {
    let names: Vec<&str> = data
        .rows
        .iter()
        .filter(|row| {
            Algorithm::from_name(&row.algorithm)
                .is_ok_and(|a| matches!(a.entry().leaving, crate::algo::Leaving::LastOnly(_)))
        })
        .map(|row| row.algorithm.as_ref())
        .collect();
    if names.is_empty() {
        String::new()
    } else {
        format!(" ({}: the last)", names.join(", "))
    }
}

#[cfg(feature = "charts")]
impl AlgorithmsData {
    /// The height, in CSS pixels, the chart needs at `width` CSS pixels so that every
    /// algorithm's name shows in every panel (about 15 px a row): the page sizes the canvas
    /// from it, since the panels stack on a narrow screen.
    pub fn height_for(&self, width: f64) -> f64 {
        // 12 px type is at most about 7 px a character.
        let longest = self.rows.iter().map(|r| r.algorithm.chars().count()).max().unwrap_or(0) as f64;
        let names_w = longest * 7.0 + 14.0;
        let cols = ((width - names_w) / 150.0).floor().clamp(1.0, 5.0);
        let panel_rows = if self.panel.is_some() { 1.0 } else { (PANELS.len() as f64 / cols).ceil() };
        let panel_h = self.rows.len() as f64 * 15.0 + 100.0;
        // The title, the subtitle's lines (about 110 characters) and the legend's rows.
        let subtitle_lines = (110.0 * 6.5 / (width - 16.0).max(100.0)).ceil();
        let legend_rows = if width < 460.0 {
            3.0
        } else if width < 740.0 {
            2.0
        } else {
            1.0
        };
        // Never below the chart's least height (a phone's one panel of few rows).
        (24.0 + subtitle_lines * 17.0 + panel_rows * panel_h + legend_rows * 20.0 + 12.0).max(320.0)
    }
}

/// Legend labels, also used by the tests.
#[cfg(feature = "charts")]
fn labels() -> [String; 3] {
    [
        "measured".to_string(),
        "ideal: fair share of the node that joins or leaves".to_string(),
        "± margin of a sampled figure".to_string(),
    ]
}

// Draws the small multiples on `area` (its whole size): five panels in as many columns as
// fit, algorithm names on the left of each row.
chart!(AlgorithmsData, (320, 320), rows, "the comparison has no algorithms");

#[cfg(feature = "charts")]
fn render<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &AlgorithmsData,
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let subtitle = format!(
        "{} nodes · exact where there are arcs, else {} sampled keys · \"{}\" joins; the middle node leaves{} · n/a: no figure",
        data.nodes,
        data.sample_keys,
        compare::JOINER,
        last_only_words(data)
    );
    let body = titled(area, TITLE, &subtitle, theme)?;
    let bar = theme.primary.mix(0.85).filled();
    let ideal = theme.line(theme.foreground, 2.0);
    let [bar_label, ideal_label, margin_label] = labels();
    let whisker = theme.line(theme.foreground, WHISKER_PX);
    let grid = legend_below(
        &body,
        &[(bar_label, Swatch::Fill(bar)), (ideal_label, Swatch::Line(ideal)), (margin_label, Swatch::Line(whisker))],
        theme,
    )?;

    let names_w = data
        .rows
        .iter()
        .map(|r| grid.estimate_text_size(&r.algorithm, &theme.small_font()).map(|d| d.0))
        .try_fold(0u32, |m, w| w.map(|w| m.max(w)))?
        + theme.px(14.0);
    let (w, _) = grid.dim_in_pixel();
    let all = panels(data);
    let shown: Vec<&Panel> = match data.panel {
        Some(p) => all.get(p).into_iter().collect(),
        None => all.iter().collect(),
    };
    let cols = ((w.saturating_sub(names_w) / theme.px(150.0)) as usize).clamp(1, shown.len().max(1));
    let rows = shown.len().div_ceil(cols);
    let panel_w = w.saturating_sub(names_w) / cols as u32;
    let x_breaks: Vec<i32> = (1..cols).map(|c| (names_w + panel_w * c as u32) as i32).collect();
    let h = grid.dim_in_pixel().1;
    let y_breaks: Vec<i32> = (1..rows).map(|r| (h * r as u32 / rows as u32) as i32).collect();
    let cells = grid.split_by_breakpoints(x_breaks, y_breaks);
    for (i, (panel, cell)) in shown.into_iter().zip(&cells).enumerate() {
        let names = if i % cols == 0 { names_w } else { 0 };
        draw_panel(cell, data, panel, names, bar, ideal, theme)?;
    }
    area.present()
}

#[cfg(feature = "charts")]
#[allow(clippy::too_many_arguments)]
fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &AlgorithmsData,
    panel: &Panel,
    names_w: u32,
    bar: ShapeStyle,
    ideal: ShapeStyle,
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let n = data.rows.len();
    let reach = panel.values.iter().zip(&panel.margins).map(|(v, m)| v.map(|v| v + m));
    let known = panel.values.iter().chain(&panel.ideals).flatten().copied().chain(reach.flatten());
    let (lo, hi) = if panel.log {
        // Whole decades, so every label is a power of ten; bars start at the lowest.
        let (lo, hi) = super::span(known, (panel.base, panel.base + 1.0));
        (lo.floor(), hi.ceil().max(lo.floor() + 1.0))
    } else {
        let (lo, hi) = super::span(known.chain([panel.base]), (panel.base, panel.base + 1.0));
        (lo.min(panel.base), hi + (hi - lo) * 0.08)
    };
    let start = if panel.log { lo } else { panel.base.max(lo) };
    // Row i at y = n - 1 - i: the first algorithm on top.
    let y = |i: usize| (n - 1 - i) as f64;
    let plot_h = area.dim_in_pixel().1.saturating_sub(theme.px(90.0));
    let mut chart = ChartBuilder::on(area)
        .caption(panel.title, theme.panel_font())
        .margin(theme.px(6.0))
        .margin_right(theme.px(14.0))
        .x_label_area_size(theme.px(40.0))
        .y_label_area_size(names_w)
        .build_cartesian_2d(lo..hi, -0.5..n as f64 - 0.5)?;
    let name_of = |v: &f64| {
        let i = v.round();
        let row = n as f64 - 1.0 - i;
        if (v - i).abs() < 1e-6 && row >= 0.0 && i >= 0.0 {
            data.rows[row as usize].algorithm.to_string()
        } else {
            String::new()
        }
    };
    let decades = (hi - lo).round() as usize;
    let x_format = |v: &f64| if panel.log { bytes_tick(*v) } else { tick(*v) };
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(panel.x_desc)
        .x_labels(if panel.log { decades + 1 } else { 4 })
        .y_labels(n.min((plot_h / theme.px(13.0)).max(1) as usize))
        .x_label_formatter(&x_format)
        .y_label_formatter(&name_of)
        .disable_y_mesh()
        .max_light_lines(1)
        .axis_desc_style(theme.axis_font())
        .label_style(theme.small_font())
        .axis_style(theme.line(theme.muted, 1.0))
        .bold_line_style(theme.line(theme.grid, 1.0))
        .light_line_style(theme.grid.mix(0.3));
    if names_w == 0 {
        mesh.y_label_formatter(&|_| String::new());
    }
    mesh.draw()?;

    let bars = panel
        .values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| Rectangle::new([(start, y(i) - 0.34), (v, y(i) + 0.34)], bar)));
    chart.draw_series(bars)?;
    let ticks = panel
        .ideals
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| PathElement::new(vec![(v, y(i) - 0.46), (v, y(i) + 0.46)], ideal)));
    chart.draw_series(ticks)?;
    // A sampled figure's margin: a whisker with end caps, so a difference within it reads as noise.
    let whisker = theme.line(theme.foreground, WHISKER_PX);
    let whiskers = panel.values.iter().zip(&panel.margins).enumerate().filter_map(|(i, (v, m))| {
        let v = (*v)?;
        (*m > 0.0).then(|| {
            let (a, b) = ((v - m).max(lo), v + m);
            [
                PathElement::new(vec![(a, y(i)), (b, y(i))], whisker),
                PathElement::new(vec![(a, y(i) - 0.2), (a, y(i) + 0.2)], whisker),
                PathElement::new(vec![(b, y(i) - 0.2), (b, y(i) + 0.2)], whisker),
            ]
        })
    });
    chart.draw_series(whiskers.flatten())?;
    let na = theme.small_font().pos(Pos::new(HPos::Left, VPos::Center));
    let missing = panel.values.iter().enumerate().filter(|(_, v)| v.is_none());
    let na_at = start + (hi - lo) * 0.02;
    chart.draw_series(missing.map(|(i, _)| Text::new(NA, (na_at, y(i)), na.clone())))?;
    Ok(())
}

#[cfg(all(test, feature = "charts"))]
mod tests {
    use super::*;
    use crate::algo::Cluster;
    use crate::charts::draw;
    use crate::charts::test_support::{has_text, svg, themes};

    fn nodes(n: usize) -> Vec<NodeSpec> {
        (1..=n).map(|i| NodeSpec::new(format!("node-{i}"))).collect()
    }

    /// As many keys as a comparison of every algorithm may take (its cap).
    fn sample() -> KeySample {
        KeySample::generated("key:", crate::limits::MAX_COMPARE_WORK as usize / Algorithm::ALL.len())
    }

    fn some_algorithms() -> [Algorithm; 5] {
        [Algorithm::Ring, Algorithm::Jump, Algorithm::Maglev, Algorithm::RedisCluster, Algorithm::Modulo]
    }

    #[test]
    fn figures_match_an_independent_count() {
        let (nodes, sample) = (nodes(8), sample());
        let data = data(&Options::new(Algorithm::Ring), &nodes, &sample, &some_algorithms(), &[]).unwrap();
        for (row, algorithm) in data.rows.iter().zip(some_algorithms()) {
            assert_eq!(row.algorithm, algorithm.name());
            let r = row.report.as_ref().unwrap();
            // Balance and join counted here, on clusters built here.
            let before = Cluster::new(Options::new(algorithm), nodes.clone()).unwrap();
            let mut counts = vec![0usize; nodes.len()];
            for k in &sample.keys {
                counts[before.locate_index(k).unwrap()] += 1;
            }
            let counted = *counts.iter().max().unwrap() as f64 / (sample.keys.len() as f64 / 8.0);
            // Exact where the placement has exact shares (the playground's figure), else
            // counted, with a margin of two standard errors of the busiest count.
            match before.spread() {
                Some(exact) => {
                    assert!(r.exact_balance && r.max_over_mean_margin == 0.0, "{}", row.algorithm);
                    assert_eq!(r.max_over_mean, exact.max_over_mean, "{}", row.algorithm);
                    assert!((r.max_over_mean - counted).abs() < 0.2, "{}: the count agrees roughly", row.algorithm);
                }
                None => {
                    assert!((r.max_over_mean - counted).abs() < 1e-12, "{}", row.algorithm);
                    assert!(r.max_over_mean_margin > 0.0, "{}", row.algorithm);
                }
            }
            let mut after = before.clone();
            after.add(NodeSpec::new(compare::JOINER)).unwrap();
            let moved = sample.keys.iter().filter(|k| before.locate(k).unwrap() != after.locate(k).unwrap()).count();
            let moved = moved as f64 / sample.keys.len() as f64;
            if r.exact_moves {
                let exact = crate::migration::exact_moved(before.arcs().unwrap(), after.arcs().unwrap()).unwrap();
                assert_eq!(r.moved_on_join, exact.total(), "{}", row.algorithm);
                assert!((r.moved_on_join - moved).abs() < 0.03, "{}: the count agrees roughly", row.algorithm);
            } else {
                assert_eq!(r.moved_on_join, moved, "{}", row.algorithm);
            }
            assert_eq!(r.ideal_join, 1.0 / 9.0);
        }
    }

    #[test]
    fn lookup_costs_are_matched_by_position_and_bad_ones_dropped() {
        let lookup = [Some(12.5), None, Some(f64::NAN), Some(-1.0)];
        let data = data(&Options::new(Algorithm::Ring), &nodes(4), &sample(), &some_algorithms(), &lookup).unwrap();
        let got: Vec<Option<f64>> = data.rows.iter().map(|r| r.lookup_ns).collect();
        assert_eq!(got, vec![Some(12.5), None, None, None, None]);
        let t = table(&data);
        assert_eq!(t.rows[0][8], "12.5");
        assert!(t.rows[1..].iter().all(|r| r[8] == "n/a"));
    }

    #[test]
    fn refused_nodes_give_an_error_row_not_a_failure() {
        let weighted = vec![NodeSpec::new("a"), NodeSpec::new("b").weight(2.0), NodeSpec::new("c")];
        let data = data(&Options::new(Algorithm::Ring), &weighted, &sample(), &[Algorithm::Ring, Algorithm::Jump], &[])
            .unwrap();
        assert!(data.rows[0].report.is_ok());
        let error = data.rows[1].report.as_ref().unwrap_err();
        assert!(error.contains("no weights"), "{error}");
        let t = table(&data);
        assert_eq!(t.rows[1][1], "n/a");
        assert_eq!(t.rows[1][9], *error);
        let text = csv(&data);
        assert!(text.lines().nth(2).unwrap().starts_with("jump,,,,,,,,,"));
        let out = svg((1000, 420), |a| draw(a, &data, &Theme::light())).unwrap();
        // Jump has no figure in any of the five panels; nobody measured ring's lookup cost.
        assert_eq!(out.matches(">\nn/a\n<").count(), 5 + 1);
    }

    #[test]
    fn too_few_nodes_or_nothing_to_compare_is_an_error() {
        let o = Options::new(Algorithm::Ring);
        assert!(data(&o, &nodes(1), &sample(), &[Algorithm::Ring], &[]).is_err());
        assert!(data(&o, &nodes(3), &sample(), &[], &[]).is_err());
        assert!(data(&o, &nodes(3), &KeySample { keys: vec![] }, &[Algorithm::Ring], &[]).is_err());
    }

    #[test]
    fn table_and_csv_carry_the_same_numbers() {
        let data =
            data(&Options::new(Algorithm::Ring), &nodes(5), &sample(), &some_algorithms(), &[Some(30.0)]).unwrap();
        let t = table(&data);
        assert_eq!(t.headers.len(), 10);
        assert!(t.rows.iter().all(|r| r.len() == t.headers.len()));
        let text = csv(&data);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + data.rows.len());
        assert!(lines[0].contains("_percent") && lines[0].contains("memory_bytes") && lines[0].contains("lookup_ns"));
        for ((line, cells), row) in lines[1..].iter().zip(&t.rows).zip(&data.rows) {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), 15, "{line}");
            assert_eq!(fields[0], cells[0]);
            let r = row.report.as_ref().unwrap();
            let join: f64 = fields[4].parse().unwrap();
            assert!((join - r.moved_on_join * 100.0).abs() < 1e-6);
            let shown: f64 = cells[2].split(" ± ").next().unwrap().parse().unwrap();
            assert!((join - shown).abs() <= 0.005 + 1e-9);
            assert_eq!(cells[2].contains(" ± "), !r.exact_moves, "{}", cells[2]);
            // The margins the table shows after "±", and whether each figure is exact.
            let join_margin: f64 = fields[5].parse().unwrap();
            assert_eq!(join_margin > 0.0, !r.exact_moves, "{line}");
            if let Some(m) = cells[2].split(" ± ").nth(1) {
                assert!((join_margin - m.parse::<f64>().unwrap()).abs() <= 0.005 + 1e-9, "{line} vs {}", cells[2]);
            }
            assert_eq!(fields[3], r.exact_balance.to_string());
            assert_eq!(fields[10], r.exact_moves.to_string());
            assert_eq!(fields[2].parse::<f64>().unwrap() > 0.0, !r.exact_balance, "{line}");
            assert_eq!(fields[12], r.memory_bytes.to_string());
        }
    }

    #[test]
    fn svg_has_title_panels_legend_and_every_name_in_every_theme() {
        let data = data(
            &Options::new(Algorithm::Ring),
            &nodes(6),
            &sample(),
            &Algorithm::ALL,
            &[Some(20.0); Algorithm::ALL.len()],
        )
        .unwrap();
        for row in &data.rows {
            assert!(row.report.is_ok(), "{}: {:?}", row.algorithm, row.report);
        }
        // Every one of the catalog's names needs a row of 13 px, beside the title and legend.
        let tall = 200.0 + 14.0 * Algorithm::ALL.len() as f64;
        for theme in themes() {
            let out = svg((theme.px(1100.0), theme.px(tall)), |a| draw(a, &data, &theme)).unwrap();
            let texts = PANELS.iter().flat_map(|(t, d)| [*t, *d]).chain([TITLE]).map(String::from);
            for text in texts.chain(labels()) {
                assert!(has_text(&out, &text), "missing {text:?}");
            }
            for algorithm in Algorithm::ALL {
                assert!(has_text(&out, algorithm.name()), "missing {}", algorithm.name());
            }
            assert!(!out.contains(">\nn/a\n<"), "every figure is there");
        }
    }

    #[test]
    fn each_bar_and_ideal_tick_is_drawn_where_its_figure_says_in_every_theme() {
        use crate::charts::test_support::{axes, elements, hex, polylines, Element};
        let algorithms = some_algorithms();
        let lookups: Vec<Option<f64>> = (1..=algorithms.len()).map(|i| Some(15.0 * i as f64)).collect();
        let data = data(&Options::new(Algorithm::Ring), &nodes(6), &sample(), &algorithms, &lookups).unwrap();
        let reports: Vec<&Report> = data.rows.iter().map(|r| r.report.as_ref().unwrap()).collect();
        // Per panel: each row's figure, its ideal, where its bars start, and whether its axis is log.
        let figure = |f: fn(&Report) -> f64| reports.iter().map(|r| f(r)).collect::<Vec<f64>>();
        let panels: [(Vec<f64>, Option<Vec<f64>>, bool); 5] = [
            (figure(|r| r.max_over_mean), None, false),
            (figure(|r| r.moved_on_join * 100.0), Some(figure(|r| r.ideal_join * 100.0)), false),
            (figure(|r| r.moved_on_leave * 100.0), Some(figure(|r| r.ideal_leave * 100.0)), false),
            (figure(|r| r.memory_bytes as f64), None, true),
            (lookups.iter().map(|l| l.unwrap()).collect(), None, false),
        ];
        for theme in themes() {
            let out = svg((theme.px(1100.0), theme.px(460.0)), |a| draw(a, &data, &theme)).unwrap();
            let els = elements(&out);
            let (xs, _) = axes(&els);
            assert_eq!(xs.len(), 5, "five panels side by side: {xs:?}");
            // Each row's centre line: where its name is written left of the first panel.
            let row_y: Vec<f64> = data
                .rows
                .iter()
                .map(|r| {
                    let name = els
                        .iter()
                        .find(|e| e.tag == "text" && e.text == r.algorithm && e.attr("text-anchor") == Some("end"));
                    name.unwrap_or_else(|| panic!("no row label {}", r.algorithm)).num("y")
                })
                .collect();
            for (k, (values, ideals, log)) in panels.iter().enumerate() {
                let x = &xs[k];
                let to = xs.get(k + 1).map_or(usize::MAX, |n| n.index);
                let in_panel = |e: &&Element| e.index > x.index && e.index < to;
                let bars: Vec<&Element> = els
                    .iter()
                    .filter(|e| e.tag == "rect" && e.attr("fill") == Some(&hex(theme.primary)))
                    .filter(in_panel)
                    .collect();
                assert_eq!(bars.len(), values.len(), "panel {k}: a bar per algorithm");
                // Bars start together: at the figure's floor (1× balance, 0 %, 0 ns) or, on
                // the log axis, at the decade below the smallest.
                let floor = match k {
                    0 => 1.0,
                    3 => 10f64.powf(values.iter().map(|v| v.log10().floor()).fold(f64::INFINITY, f64::min)),
                    _ => 0.0,
                };
                for (i, &value) in values.iter().enumerate() {
                    let bar = bars
                        .iter()
                        .find(|b| (b.num("y") + b.num("height") / 2.0 - row_y[i]).abs() <= 1.5)
                        .unwrap_or_else(|| panic!("panel {k}: no bar on {}'s row", data.rows[i].algorithm));
                    let (left, right) = (bar.num("x"), bar.num("x") + bar.num("width"));
                    assert!(
                        (left - x.px(floor, *log)).abs() <= 1.5,
                        "panel {k}, {}: bar starts at {left}",
                        data.rows[i].algorithm
                    );
                    let end = x.px(value, *log);
                    assert!(
                        (right - end).abs() <= 1.5,
                        "panel {k}, {}: bar ends at {right}, its figure {value} at {end}",
                        data.rows[i].algorithm
                    );
                }
                if let Some(ideals) = ideals {
                    let ticks: Vec<Vec<(f64, f64)>> = polylines(&els, theme.foreground, theme.px(2.0), x.index)
                        .into_iter()
                        .filter(in_panel)
                        .map(|e| e.points())
                        .collect();
                    for (i, &ideal) in ideals.iter().enumerate() {
                        let at = x.px(ideal, false);
                        let drawn = ticks.iter().any(|t| {
                            t.len() == 2
                                && t.iter().all(|p| (p.0 - at).abs() <= 1.5)
                                && ((t[0].1 + t[1].1) / 2.0 - row_y[i]).abs() <= 1.5
                        });
                        assert!(drawn, "panel {k}, {}: no ideal tick at {at}", data.rows[i].algorithm);
                    }
                }
            }
        }
    }

    #[test]
    fn a_phone_shows_one_panel_at_a_time_and_sampled_figures_carry_whiskers() {
        let data = data(&Options::new(Algorithm::Ring), &nodes(5), &sample(), &some_algorithms(), &[]).unwrap();
        let one = data.clone().showing(Some(1)).unwrap();
        assert!(one.height_for(374.0) * 3.0 < data.height_for(374.0), "one panel of five stacked");
        let drawn = svg((374, one.height_for(374.0) as u32), |a| draw(a, &one, &Theme::light())).unwrap();
        assert!(has_text(&drawn, PANELS[1].0) && !has_text(&drawn, PANELS[0].0), "only the panel picked");
        assert_eq!(drawn.matches(">\nmaglev\n<").count(), 1);
        assert_eq!(data.clone().showing(Some(PANELS.len())).unwrap_err().code(), "invalid-option");
        assert_eq!(table(&data).panels, PANELS.map(|p| p.0.to_string()));
        // Jump's moves are counted on keys (no arcs): its bar has a whisker, drawn in the
        // legend's own words; a ring's exact figure has none.
        let jump = data.rows.iter().find(|r| r.algorithm == "jump").unwrap().report.as_ref().unwrap();
        let ring = data.rows.iter().find(|r| r.algorithm == "ring").unwrap().report.as_ref().unwrap();
        assert!(jump.moved_on_join_margin > 0.0 && ring.moved_on_join_margin == 0.0);
        let theme = Theme::light();
        let all = svg((1200, data.height_for(1200.0) as u32), |a| draw(a, &data, &theme)).unwrap();
        assert!(has_text(&all, &labels()[2]));
        // Three strokes a sampled figure (the line and two caps): the same data with every
        // margin 0 draws that many fewer.
        let mut exact = data.clone();
        let mut sampled = 0;
        for row in &mut exact.rows {
            if let Ok(r) = &mut row.report {
                for m in [&mut r.max_over_mean_margin, &mut r.moved_on_join_margin, &mut r.moved_on_leave_margin] {
                    sampled += usize::from(*m > 0.0);
                    *m = 0.0;
                }
            }
        }
        let strokes = |svg: &str| {
            let els = crate::charts::test_support::elements(svg);
            crate::charts::test_support::polylines(&els, theme.foreground, theme.px(WHISKER_PX), 0).len()
        };
        let none = svg((1200, data.height_for(1200.0) as u32), |a| draw(a, &exact, &theme)).unwrap();
        assert!(sampled >= 2, "{sampled}");
        assert_eq!(strokes(&all) - strokes(&none), 3 * sampled);
    }

    #[test]
    fn columns_follow_the_width() {
        let data = data(&Options::new(Algorithm::Ring), &nodes(4), &sample(), &some_algorithms(), &[]).unwrap();
        let names = |size| svg(size, |a| draw(a, &data, &Theme::light())).unwrap().matches(">\nmaglev\n<").count();
        assert_eq!(names((1200, 400)), 1, "one row of five panels");
        assert_eq!(names((330, 1400)), 5, "one panel per row");
        assert!(svg((300, 300), |a| draw(a, &data, &Theme::light())).is_err());
    }

    #[test]
    fn every_name_shows_at_the_height_it_asks_for() {
        let all: Vec<Algorithm> = Algorithm::ALL.to_vec();
        let data = data(&Options::new(Algorithm::Ring), &nodes(4), &sample(), &all, &[]).unwrap();
        let longest = data.rows.iter().max_by_key(|r| r.algorithm.len()).unwrap().algorithm.to_string();
        for width in [360.0, 768.0, 1100.0] {
            let h = data.height_for(width);
            let text = svg((width as u32, h as u32), |a| draw(a, &data, &Theme::light())).unwrap();
            for row in &data.rows {
                let shown = text.matches(&format!(">\n{}\n<", row.algorithm)).count();
                assert!(shown >= 1, "{} missing at {width}×{h}", row.algorithm);
            }
            assert!(has_text(&text, &longest), "{longest} at {width}");
        }
        assert!(data.height_for(360.0) > data.height_for(1100.0), "panels stack on a narrow screen");
    }

    #[test]
    fn byte_ticks_are_powers_of_ten() {
        assert_eq!(bytes_tick(0.0), "1");
        assert_eq!(bytes_tick(3.0), "1k");
        assert_eq!(bytes_tick(7.0), "10M");
        assert_eq!(bytes_tick(2.5), "");
    }
}
