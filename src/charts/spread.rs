//! "Spread vs vnodes": how evenly load spreads as each node gets more points, computed
//! exactly from arc lengths, beside the theory and (optionally) the range over several hashes.

use super::csv_field;
#[cfg(feature = "charts")]
use super::plot::*;
#[cfg(feature = "charts")]
use super::{legend_below, log_ticks, span, tick, titled, Swatch, Theme};
use crate::analysis::{self, SweepStep};
use crate::{Config, Error, Hash, NodeSpec};

/// The hashes of the variance band: well-mixing functions place the same labels
/// independently, like different seeds of one hash. All are 64-bit, so they fit either ring
/// size. FNV-1a is left out: on labels that differ in a character or two its low bits are
/// biased, a systematic error (8 nodes, 1000 vnodes: 25% RSD against 3%), not seed variance.
pub const BAND_HASHES: [Hash; 5] = [Hash::Xxh3, Hash::Xxh64, Hash::Murmur3, Hash::Md5, Hash::Sha256];
/// The right end of the vnode axis (further when the current setting is higher).
pub const MAX_SWEPT_VNODES: u32 = 1000;
/// Most points on one swept ring. Beyond it the sweep stops early: each extra hash of the
/// band sweeps again, and the page has to stay responsive.
pub const MAX_SWEEP_POINTS: u64 = 200_000;

/// The exact spread at one vnode count.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpreadPoint {
    pub vnodes: u32,
    /// Relative standard deviation of load (std / mean), for the configured hash.
    pub rsd: f64,
    /// The busiest node's load over the mean.
    pub max_over_mean: f64,
    /// `sqrt((N - 1) / (N·V + 1))`, for equal nodes on a random ring.
    pub theoretical_rsd: f64,
    /// Min and max over [`SpreadData::band_hashes`], when asked for.
    pub band: Option<Band>,
}

/// The range of the spread over several hash functions, at one vnode count.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Band {
    pub rsd_min: f64,
    pub rsd_max: f64,
    pub max_over_mean_min: f64,
    pub max_over_mean_max: f64,
}

/// Everything the chart draws.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpreadData {
    pub nodes: usize,
    #[serde(serialize_with = "hash_name", deserialize_with = "hash_from_name")]
    pub hash: Hash,
    pub ring_bits: u32,
    /// The vnode setting in use, marked on the chart (and always one of the points).
    pub current_vnodes: u32,
    /// The hashes the band spans ([`BAND_HASHES`]); empty without a band.
    #[serde(serialize_with = "hash_names", deserialize_with = "hashes_from_names")]
    pub band_hashes: Vec<Hash>,
    /// By increasing vnode count.
    pub points: Vec<SpreadPoint>,
}

fn hash_name<S: serde::Serializer>(h: &Hash, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(h.name())
}

fn hash_names<S: serde::Serializer>(hs: &[Hash], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(hs.iter().map(|h| h.name()))
}

fn hash_from_name<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Hash, D::Error> {
    let name = <String as serde::Deserialize>::deserialize(d)?;
    Hash::from_name(&name).map_err(serde::de::Error::custom)
}

fn hashes_from_names<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Hash>, D::Error> {
    let names = <Vec<String> as serde::Deserialize>::deserialize(d)?;
    names.iter().map(|n| Hash::from_name(n).map_err(serde::de::Error::custom)).collect()
}

/// `steps` vnode counts spaced evenly on a log scale over `1..=max`, rounded and deduplicated
/// (so there may be fewer). Uses `libm` so the counts are the same natively and in wasm.
///
/// ```
/// let counts = ringlab::charts::spread::log_spaced(7, 1000);
/// assert_eq!(counts, vec![1, 3, 10, 32, 100, 316, 1000]);
/// ```
pub fn log_spaced(steps: usize, max: u32) -> Vec<u32> {
    let max = max.max(1);
    let steps = steps.max(2);
    let top = libm::log10(f64::from(max));
    let mut counts: Vec<u32> = (0..steps)
        .map(|i| libm::round(libm::pow(10.0, top * i as f64 / (steps - 1) as f64)) as u32)
        .map(|v| v.clamp(1, max))
        .collect();
    counts.dedup();
    counts
}

/// The exact spread of the ring `nodes` make with `config.hash` and `config.bits`, at
/// `steps` log-spaced vnode counts from 1 to 1000 plus `current_vnodes` (`config.vnodes`
/// is ignored). With `band`, also the min..max over [`BAND_HASHES`] (whatever the configured
/// hash: a poorly mixing one then shows up outside the band).
///
/// Counts whose ring would exceed [`MAX_SWEEP_POINTS`] points are left out.
///
/// ```
/// use ringlab::{charts::spread, Config, NodeSpec};
/// let nodes: Vec<NodeSpec> = (1..=8).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
/// let data = spread::data(&Config::default(), &nodes, 160, 16, true)?;
/// let first = &data.points[0];
/// let last = data.points.last().unwrap();
/// assert_eq!((first.vnodes, last.vnodes), (1, 1000));
/// assert!(last.rsd < first.rsd, "more vnodes, more even");
/// assert!(data.points.iter().any(|p| p.vnodes == 160));
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn data(
    config: &Config,
    nodes: &[NodeSpec],
    current_vnodes: u32,
    steps: usize,
    band: bool,
) -> Result<SpreadData, Error> {
    let mut job = SpreadJob::new(config, nodes, current_vnodes, steps, band)?;
    while !job.step()? {}
    job.data().ok_or_else(|| Error::Internal("the spread sweep did not finish".into()))
}

/// [`data`] in pieces: each [`step`](SpreadJob::step) is one piece of a sweep (see
/// [`analysis::SweepJob`]) of the configured hash, then of each of the band's, so a page can
/// spread the band's five extra sweeps over short tasks.
///
/// ```
/// use ringlab::{charts::spread, Config, NodeSpec};
/// let nodes: Vec<NodeSpec> = ["a", "b", "c"].into_iter().map(NodeSpec::new).collect();
/// let mut job = spread::SpreadJob::new(&Config::default(), &nodes, 100, 12, true)?;
/// let mut steps = 1;
/// while !job.step()? {
///     assert!(job.data().is_none(), "nothing before every sweep is done");
///     steps += 1;
/// }
/// // 3,000 points per sweep: hashed in one piece, measured in another; six hashes.
/// assert_eq!(steps, 2 * (1 + spread::BAND_HASHES.len()));
/// assert!(job.data().unwrap().points.iter().all(|p| p.band.is_some()));
/// # Ok::<(), ringlab::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct SpreadJob {
    config: Config,
    nodes: Vec<NodeSpec>,
    current_vnodes: u32,
    /// The vnode counts swept (within [`MAX_SWEEP_POINTS`]).
    kept: Vec<u32>,
    band_hashes: Vec<Hash>,
    main: Option<Vec<SweepStep>>,
    bands: Vec<Option<Band>>,
    /// Band hashes swept so far.
    swept: usize,
    /// The sweep under way (the configured hash's, then each band hash's).
    sweep: Option<analysis::SweepJob>,
}

impl SpreadJob {
    pub fn new(
        config: &Config,
        nodes: &[NodeSpec],
        current_vnodes: u32,
        steps: usize,
        band: bool,
    ) -> Result<SpreadJob, Error> {
        if nodes.len() < 2 {
            return Err(Error::too_few("nodes", 2, nodes.len(), "the spread chart needs at least two nodes"));
        }
        Config { vnodes: current_vnodes, ..config.clone() }.validate()?;
        let mut counts = log_spaced(steps.clamp(2, 200), MAX_SWEPT_VNODES);
        counts.push(current_vnodes);
        counts.sort_unstable();
        counts.dedup();
        let mut kept = Vec::with_capacity(counts.len());
        for v in counts {
            if ring_points(config, nodes, v)? <= MAX_SWEEP_POINTS {
                kept.push(v);
            }
        }
        if kept.is_empty() {
            return Err(Error::invalid_option(
                "nodes",
                format!("the spread chart sweeps at most {MAX_SWEEP_POINTS} points per ring: too many nodes"),
            ));
        }
        Ok(SpreadJob {
            config: config.clone(),
            nodes: nodes.to_vec(),
            current_vnodes,
            bands: vec![None; kept.len()],
            kept,
            band_hashes: if band { BAND_HASHES.to_vec() } else { Vec::new() },
            main: None,
            swept: 0,
            sweep: None,
        })
    }

    /// The next piece of a sweep (see [`analysis::SweepJob`]): the configured hash's, then
    /// each band hash's; `true` when every sweep is done.
    pub fn step(&mut self) -> Result<bool, Error> {
        if self.is_done() {
            return Ok(true);
        }
        let hash = if self.main.is_none() { self.config.hash } else { self.band_hashes[self.swept] };
        let sweep = match &mut self.sweep {
            Some(sweep) => sweep,
            None => self.sweep.insert(analysis::SweepJob::new(
                &Config { hash, ..self.config.clone() },
                &self.nodes,
                &self.kept,
            )?),
        };
        if !sweep.step()? {
            return Ok(false);
        }
        let steps = sweep.steps().map(<[SweepStep]>::to_vec).unwrap_or_default();
        self.sweep = None;
        if self.main.is_none() {
            self.main = Some(steps);
        } else {
            for (slot, step) in self.bands.iter_mut().zip(&steps) {
                *slot = Some(widen(*slot, step));
            }
            self.swept += 1;
        }
        Ok(self.is_done())
    }

    pub fn is_done(&self) -> bool {
        self.main.is_some() && self.swept == self.band_hashes.len()
    }

    /// The chart's data, once every sweep is done.
    pub fn data(&self) -> Option<SpreadData> {
        let main = self.main.as_ref().filter(|_| self.is_done())?;
        let points = main
            .iter()
            .zip(&self.bands)
            .map(|(step, band)| SpreadPoint {
                vnodes: step.vnodes,
                rsd: step.spread.rsd,
                max_over_mean: step.spread.max_over_mean,
                theoretical_rsd: step.theoretical_rsd,
                band: *band,
            })
            .collect();
        Some(SpreadData {
            nodes: self.nodes.len(),
            hash: self.config.hash,
            ring_bits: self.config.bits.bits(),
            current_vnodes: self.current_vnodes,
            band_hashes: self.band_hashes.clone(),
            points,
        })
    }
}

/// How many points the ring of `nodes` has at `vnodes` per unit of weight.
fn ring_points(config: &Config, nodes: &[NodeSpec], vnodes: u32) -> Result<u64, Error> {
    let step = Config { vnodes, ..config.clone() };
    nodes.iter().try_fold(0u64, |sum, n| Ok(sum + u64::from(step.points_for(n.weight)?)))
}

fn widen(band: Option<Band>, step: &SweepStep) -> Band {
    let (rsd, max) = (step.spread.rsd, step.spread.max_over_mean);
    match band {
        None => Band { rsd_min: rsd, rsd_max: rsd, max_over_mean_min: max, max_over_mean_max: max },
        Some(b) => Band {
            rsd_min: b.rsd_min.min(rsd),
            rsd_max: b.rsd_max.max(rsd),
            max_over_mean_min: b.max_over_mean_min.min(max),
            max_over_mean_max: b.max_over_mean_max.max(max),
        },
    }
}

pub const TITLE: &str = "Spread vs vnodes";
pub const X_LABEL: &str = "vnodes per node (count, log scale)";
pub const Y_LABEL: &str = "deviation from mean load (%, log scale)";

#[cfg(feature = "charts")]
/// Legend labels, also used by the tests.
fn labels(data: &SpreadData) -> [String; 5] {
    [
        format!("load RSD, std/mean ({})", data.hash.name()),
        format!("busiest node, max/mean − 1 ({})", data.hash.name()),
        "theory √((N−1)/(N·V+1))".to_string(),
        format!("range over {} hashes", data.band_hashes.len()),
        format!("current: {} vnodes", data.current_vnodes),
    ]
}

// Draws the chart on `area` (its whole size), in `theme`'s colours and scale.
chart!(SpreadData, (280, 220), points, "the spread data has no points");

#[cfg(feature = "charts")]
fn render<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &SpreadData,
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let subtitle = format!("{} nodes · {} · {}-bit ring · exact shares", data.nodes, data.hash.name(), data.ring_bits);
    let body = titled(area, TITLE, &subtitle, theme)?;

    // Percentages on a log axis: keep every plotted value above a small floor.
    const FLOOR: f64 = 0.01;
    let pct = |x: f64| (x * 100.0).max(FLOOR);
    let at = |p: &SpreadPoint| f64::from(p.vnodes);
    let rsd: Vec<(f64, f64)> = data.points.iter().map(|p| (at(p), pct(p.rsd))).collect();
    let max: Vec<(f64, f64)> = data.points.iter().map(|p| (at(p), pct(p.max_over_mean - 1.0))).collect();
    let theory: Vec<(f64, f64)> = data.points.iter().map(|p| (at(p), pct(p.theoretical_rsd))).collect();
    let bands: Vec<(f64, Band)> = data.points.iter().filter_map(|p| p.band.map(|b| (at(p), b))).collect();
    let band_ys = bands.iter().flat_map(|(_, b)| {
        [pct(b.rsd_min), pct(b.rsd_max), pct(b.max_over_mean_min - 1.0), pct(b.max_over_mean_max - 1.0)]
    });
    let (y_lo, y_hi) = span(rsd.iter().chain(&max).chain(&theory).map(|p| p.1).chain(band_ys), (FLOOR, 100.0));
    let (y_lo, y_hi) = ((y_lo * 0.8).max(FLOOR), y_hi * 1.25);
    let x_hi = f64::from(MAX_SWEPT_VNODES.max(data.current_vnodes)).max(rsd.last().map_or(1.0, |p| p.0));

    let [rsd_label, max_label, theory_label, band_label, current_label] = labels(data);
    let (rsd_line, max_line) = (theme.line(theme.primary, 2.0), theme.line(theme.secondary, 2.0));
    let (theory_line, now_line) = (theme.line(theme.muted, 1.5), theme.line(theme.foreground, 1.0));
    let band_fill = theme.primary.mix(0.22).filled();
    let mut legend = vec![
        (rsd_label, Swatch::Line(rsd_line)),
        (max_label, Swatch::Line(max_line)),
        (theory_label, Swatch::Dashed(theory_line)),
    ];
    if !bands.is_empty() {
        legend.push((band_label, Swatch::Fill(band_fill)));
    }
    legend.push((current_label, Swatch::Line(now_line)));
    let plot = legend_below(&body, &legend, theme)?;

    let (plot_w, plot_h) = plot.dim_in_pixel();
    let (x_ticks, x_grid) = log_ticks(1.0, x_hi, (plot_w / theme.px(48.0)) as usize);
    let (y_ticks, y_grid) = log_ticks(y_lo, y_hi, (plot_h / theme.px(28.0)) as usize);
    let mut chart = ChartBuilder::on(&plot)
        .margin(theme.px(10.0))
        .margin_right(theme.px(18.0))
        .x_label_area_size(theme.px(44.0))
        .y_label_area_size(theme.px(60.0))
        .build_cartesian_2d(
            (1f64..x_hi).log_scale().with_key_points(x_ticks).with_light_points(x_grid),
            (y_lo..y_hi).log_scale().with_key_points(y_ticks).with_light_points(y_grid),
        )?;
    chart
        .configure_mesh()
        .x_desc(X_LABEL)
        .y_desc(Y_LABEL)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v))
        .axis_desc_style(theme.axis_font())
        .label_style(theme.small_font())
        .axis_style(theme.line(theme.muted, 1.0))
        .bold_line_style(theme.line(theme.grid, 1.0))
        .light_line_style(theme.grid.mix(0.35))
        .draw()?;

    if !bands.is_empty() {
        // Both bands: the RSD one in the RSD colour, the max/mean one fainter in its own.
        let band = |lo: &dyn Fn(&Band) -> f64, hi: &dyn Fn(&Band) -> f64| -> Vec<(f64, f64)> {
            let upper = bands.iter().map(|(x, b)| (*x, pct(hi(b))));
            upper.chain(bands.iter().rev().map(|(x, b)| (*x, pct(lo(b))))).collect()
        };
        let max_band = band(&|b| b.max_over_mean_min - 1.0, &|b| b.max_over_mean_max - 1.0);
        chart.draw_series(std::iter::once(Polygon::new(max_band, theme.secondary.mix(0.14).filled())))?;
        chart.draw_series(std::iter::once(Polygon::new(band(&|b| b.rsd_min, &|b| b.rsd_max), band_fill)))?;
    }
    chart.draw_series(DashedLineSeries::new(theory, theme.px(6.0), theme.px(4.0), theory_line))?;
    let marker = theme.px(2.5);
    chart.draw_series(LineSeries::new(max, max_line).point_size(marker))?;
    chart.draw_series(LineSeries::new(rsd, rsd_line).point_size(marker))?;
    let now = f64::from(data.current_vnodes);
    chart.draw_series(std::iter::once(PathElement::new(vec![(now, y_lo), (now, y_hi)], now_line)))?;
    area.present()
}

/// The data as CSV: a header row with units, then one row per vnode count.
/// Band columns are empty without a band.
fn csv(data: &SpreadData) -> String {
    let mut out = String::from(
        "vnodes_per_node,load_rsd_percent,max_over_mean_ratio,theory_rsd_percent,\
         band_rsd_min_percent,band_rsd_max_percent,band_max_over_mean_min_ratio,band_max_over_mean_max_ratio,\
         current,hash\n",
    );
    for p in &data.points {
        let band = p.band.map_or_else(
            || ",,,".to_string(),
            |b| {
                format!(
                    "{:.6},{:.6},{:.6},{:.6}",
                    b.rsd_min * 100.0,
                    b.rsd_max * 100.0,
                    b.max_over_mean_min,
                    b.max_over_mean_max
                )
            },
        );
        out.push_str(&format!(
            "{},{:.6},{:.6},{:.6},{},{},{}\n",
            p.vnodes,
            p.rsd * 100.0,
            p.max_over_mean,
            p.theoretical_rsd * 100.0,
            band,
            if p.vnodes == data.current_vnodes { "yes" } else { "no" },
            csv_field(data.hash.name()),
        ));
    }
    out
}

#[cfg(all(test, feature = "charts"))]
mod tests {
    use super::*;
    use crate::charts::draw;
    use crate::charts::test_support::{has_text, svg, themes};
    use crate::{Ring, RingBits};

    fn nodes(n: usize) -> Vec<NodeSpec> {
        (1..=n).map(|i| NodeSpec::new(format!("node-{i}"))).collect()
    }

    #[test]
    fn counts_are_log_spaced_integers_from_1_to_1000() {
        let counts = log_spaced(25, 1000);
        assert_eq!((counts[0], counts[counts.len() - 1]), (1, 1000));
        assert!(counts.windows(2).all(|w| w[0] < w[1]), "{counts:?}");
        // Past the rounding at the bottom, consecutive counts keep a steady ratio 10^(3/24).
        let ratio = 10f64.powf(3.0 / 24.0);
        for w in counts.windows(2).filter(|w| w[0] >= 20) {
            let r = f64::from(w[1]) / f64::from(w[0]);
            assert!((r - ratio).abs() < 0.05, "{w:?}");
        }
        assert_eq!(log_spaced(2, 1000), vec![1, 1000]);
    }

    #[test]
    fn each_point_equals_the_spread_of_a_ring_built_with_that_many_vnodes() {
        let nodes = [NodeSpec::new("a"), NodeSpec::new("b").weight(2.0), NodeSpec::new("c"), NodeSpec::new("d")];
        let config = Config::default();
        let data = data(&config, &nodes, 160, 9, false).unwrap();
        assert!(data.points.iter().any(|p| p.vnodes == 160), "the current setting is a point");
        for p in &data.points {
            let ring = Ring::with_nodes(Config { vnodes: p.vnodes, ..config.clone() }, nodes.clone()).unwrap();
            let s = analysis::spread(&ring).unwrap();
            assert_eq!((p.rsd, p.max_over_mean), (s.rsd, s.max_over_mean), "vnodes {}", p.vnodes);
            let (n, v) = (4.0, f64::from(p.vnodes));
            assert!((p.theoretical_rsd - ((n - 1.0) / (n * v + 1.0)).sqrt()).abs() < 1e-12);
            assert!(p.band.is_none());
        }
    }

    #[test]
    fn the_band_spans_the_rings_of_the_band_hashes() {
        let nodes = nodes(6);
        // crc32 is not a band hash: the band is the same five whatever the configured hash.
        let config = Config { hash: Hash::Crc32, bits: RingBits::B32, vnodes: 1 };
        let data = data(&config, &nodes, 50, 5, true).unwrap();
        assert_eq!(data.band_hashes, BAND_HASHES.to_vec());
        for p in &data.points {
            let rsds: Vec<f64> = BAND_HASHES
                .iter()
                .map(|&hash| {
                    let ring =
                        Ring::with_nodes(Config { hash, vnodes: p.vnodes, ..config.clone() }, nodes.clone()).unwrap();
                    analysis::spread(&ring).unwrap().rsd
                })
                .collect();
            let b = p.band.unwrap();
            assert_eq!(b.rsd_min, rsds.iter().copied().fold(f64::MAX, f64::min));
            assert_eq!(b.rsd_max, rsds.iter().copied().fold(f64::MIN, f64::max));
        }
        // Different hashes really differ: a band of zero width would be one ring drawn five times.
        assert!(data.points.iter().any(|p| p.band.unwrap().rsd_max > p.band.unwrap().rsd_min));

        // A band hash's own figures lie inside the band.
        let xxh3 = super::data(&Config::default(), &nodes, 50, 5, true).unwrap();
        for p in &xxh3.points {
            let b = p.band.unwrap();
            assert!(b.rsd_min <= p.rsd && p.rsd <= b.rsd_max);
            assert!(b.max_over_mean_min <= p.max_over_mean && p.max_over_mean <= b.max_over_mean_max);
        }
    }

    #[test]
    fn large_clusters_stop_the_sweep_at_the_point_budget() {
        let data = data(&Config::default(), &nodes(1000), 160, 10, false).unwrap();
        let swept: Vec<u32> = data.points.iter().map(|p| p.vnodes).collect();
        // 10 log-spaced counts 10^(3i/9) rounded: 1 2 5 10 22 46 100 215 464 1000, plus the
        // current 160; 1000 nodes × 215 vnodes is past the 200,000-point budget.
        assert_eq!(swept, vec![1, 2, 5, 10, 22, 46, 100, 160]);
    }

    #[test]
    fn every_series_is_drawn_where_its_data_says_in_every_theme() {
        use crate::charts::test_support::{assert_dashed, assert_polyline, axes, elements, hex, polylines};
        let data = data(&Config::default(), &nodes(5), 160, 12, true).unwrap();
        for theme in themes() {
            let out = svg((theme.px(720.0), theme.px(420.0)), |area| draw(area, &data, &theme)).unwrap();
            let els = elements(&out);
            let (xs, ys) = axes(&els);
            assert_eq!((xs.len(), ys.len()), (1, 1), "one plot: {xs:?} {ys:?}");
            let (x, y) = (&xs[0], &ys[0]);
            let after = x.index.max(y.index);
            // Both axes are log scales, read from their own tick labels.
            let at = |v: u32, fraction: f64| (x.px(f64::from(v), true), y.px(fraction * 100.0, true));
            let series = |f: &dyn Fn(&SpreadPoint) -> f64| -> Vec<(f64, f64)> {
                data.points.iter().map(|p| at(p.vnodes, f(p))).collect()
            };
            let width = theme.px(2.0);
            let rsd = series(&|p| p.rsd);
            assert_polyline(&polylines(&els, theme.primary, width, after), &rsd, 1.5, "RSD line");
            let max = series(&|p| p.max_over_mean - 1.0);
            assert_polyline(&polylines(&els, theme.secondary, width, after), &max, 1.5, "max/mean line");
            // A marker (a ring in the line's colour) on every point of both lines.
            for (line, colour) in [(&rsd, theme.primary), (&max, theme.secondary)] {
                for &(px, py) in line {
                    let marked = els.iter().any(|e| {
                        e.tag == "circle"
                            && e.attr("stroke") == Some(&hex(colour))
                            && (e.num("cx") - px).abs() <= 1.5
                            && (e.num("cy") - py).abs() <= 1.5
                    });
                    assert!(marked, "no marker at ({px}, {py})");
                }
            }
            let theory = series(&|p| p.theoretical_rsd);
            let dashes = polylines(&els, theme.muted, theme.px(1.5), after);
            assert_dashed(&dashes, &theory, 1.5, f64::from(theme.px(10.0)), "theory curve");
            // The current setting: a vertical line at 160 vnodes, across the plot.
            let now = polylines(&els, theme.foreground, theme.px(1.0), after);
            let vertical = now.iter().map(|e| e.points()).any(|p| {
                p.len() == 2
                    && p.iter().all(|q| (q.0 - x.px(160.0, true)).abs() <= 1.5)
                    && (p[0].1 - p[1].1).abs() > 100.0
            });
            assert!(vertical, "no line at the current setting");
            // The band: a polygon through each point's min and max over the band hashes.
            let band_fill = hex(theme.primary);
            let polygon = els
                .iter()
                .find(|e| e.tag == "polygon" && e.attr("fill") == Some(&band_fill))
                .expect("the RSD band")
                .points();
            let upper = data.points.iter().map(|p| at(p.vnodes, p.band.unwrap().rsd_max));
            let lower = data.points.iter().rev().map(|p| at(p.vnodes, p.band.unwrap().rsd_min));
            let expected: Vec<(f64, f64)> = upper.chain(lower).collect();
            assert_eq!(polygon.len(), expected.len());
            for (got, want) in polygon.iter().zip(&expected) {
                assert!(
                    (got.0 - want.0).abs() <= 1.5 && (got.1 - want.1).abs() <= 1.5,
                    "band vertex {got:?}, expected {want:?}"
                );
            }
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(data(&Config::default(), &nodes(1), 160, 10, false).is_err());
        assert!(data(&Config::default(), &nodes(3), 0, 10, false).is_err());
        let narrow = Config { hash: Hash::Crc32, bits: RingBits::B64, vnodes: 1 };
        assert!(data(&narrow, &nodes(3), 10, 10, false).is_err());
    }

    #[test]
    fn svg_has_title_axis_labels_and_legend_in_every_theme() {
        let data = data(&Config::default(), &nodes(5), 160, 12, true).unwrap();
        for theme in themes() {
            let (w, h) = (theme.px(720.0), theme.px(420.0));
            let out = svg((w, h), |area| draw(area, &data, &theme)).unwrap();
            for text in [TITLE, X_LABEL, Y_LABEL].into_iter().map(String::from).chain(labels(&data)) {
                assert!(has_text(&out, &text), "missing {text:?}");
            }
            let bg = theme.background;
            assert!(out.contains(&format!("fill=\"#{:02X}{:02X}{:02X}\"", bg.0, bg.1, bg.2)), "background");
            assert!(has_text(&out, "1000") && has_text(&out, "10"), "log ticks");
        }
    }

    #[test]
    fn without_a_band_there_is_no_band_legend() {
        let data = data(&Config::default(), &nodes(3), 40, 6, false).unwrap();
        let out = svg((640, 400), |area| draw(area, &data, &Theme::light())).unwrap();
        assert!(!out.contains("range over"));
        assert!(has_text(&out, "current: 40 vnodes"));
    }

    #[test]
    fn tiny_areas_are_refused_not_panicked_on() {
        let data = data(&Config::default(), &nodes(3), 40, 6, false).unwrap();
        assert!(svg((100, 60), |area| draw(area, &data, &Theme::light())).is_err());
        for size in [(280, 220), (281, 900), (2000, 221)] {
            svg(size, |area| draw(area, &data, &Theme::light())).unwrap();
        }
    }

    #[test]
    fn csv_has_a_header_with_units_and_a_row_per_point() {
        let data = data(&Config::default(), &nodes(4), 160, 8, true).unwrap();
        let text = csv(&data);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + data.points.len());
        assert!(lines[0].contains("percent") && lines[0].contains("ratio"));
        let columns = lines[0].split(',').count();
        assert!(lines.iter().all(|l| l.split(',').count() == columns));
        let current: Vec<&str> = lines.iter().filter(|l| l.contains(",yes,")).copied().collect();
        assert_eq!(current.len(), 1);
        assert!(current[0].starts_with("160,"));
        let p = &data.points[0];
        assert!(lines[1].starts_with(&format!("{},{:.6},", p.vnodes, p.rsd * 100.0)));
    }
}
