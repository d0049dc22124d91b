//! "Share per node": each node's share of the keys, exact where the algorithm allows,
//! against its ideal (its weight over the total), in the node's ring colour.

use super::csv_field;
#[cfg(feature = "charts")]
use super::plot::*;
#[cfg(feature = "charts")]
use super::{legend_below, node_color, span, tick, titled, Swatch, Theme};
use crate::algo::Cluster;
use crate::keys::KeySample;
use crate::Error;
use std::borrow::Cow;

/// One node's bar.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeShare {
    pub name: String,
    pub weight: f64,
    /// The bar: the exact share when the algorithm has one, else the sampled share.
    pub share: f64,
    /// Keys of the sample the node owns, and their fraction (`None` without a sample).
    pub sampled_keys: Option<usize>,
    pub sampled_share: Option<f64>,
    /// `weight / total weight`.
    pub ideal: f64,
}

/// Everything the chart draws.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SharesData {
    pub algorithm: Cow<'static, str>,
    /// Whether the bars are exact shares (of the hash space, or bounded-load's key set).
    pub exact: bool,
    pub sample_keys: usize,
    /// In the cluster's node order, which is the ring's colour order.
    pub nodes: Vec<NodeShare>,
}

/// Each node's share of `cluster`'s keys: exact from [`Cluster::exact_shares`] when it has
/// them, else counted on `sample`; the sample's counts are kept beside exact shares too
/// (pass an empty sample to skip them).
///
/// ```
/// use ringlab::algo::{Algorithm, Cluster, Options};
/// use ringlab::{charts::shares, migration::KeySample};
/// let cluster = Cluster::new(Options::new(Algorithm::Ring), ["a", "b", "c"])?;
/// let data = shares::data(&cluster, &KeySample::generated("key:", 3000))?;
/// assert!(data.exact);
/// let total: f64 = data.nodes.iter().map(|n| n.share).sum();
/// assert!((total - 1.0).abs() < 1e-12);
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn data(cluster: &Cluster, sample: &KeySample) -> Result<SharesData, Error> {
    let nodes = cluster.nodes();
    if nodes.is_empty() {
        return Err(Error::EmptyRing);
    }
    let counts = if sample.keys.is_empty() {
        None
    } else {
        let mut counts = vec![0usize; nodes.len()];
        for key in &sample.keys {
            counts[cluster.locate_index(key)?] += 1;
        }
        Some(counts)
    };
    from_counts(cluster, sample.keys.len(), counts)
}

/// [`data`] from keys already counted: `counts[i]` of the `keys` sample keys are node `i`'s
/// (`None`: no sample). A caller that has located the sample (the session has) saves doing
/// it again.
pub fn from_counts(cluster: &Cluster, keys: usize, counts: Option<Vec<usize>>) -> Result<SharesData, Error> {
    let nodes = cluster.nodes();
    if nodes.is_empty() {
        return Err(Error::EmptyRing);
    }
    if counts.as_ref().is_some_and(|c| c.len() != nodes.len() || c.iter().sum::<usize>() != keys) {
        return Err(Error::mismatch("counts", "the counts must be one per node and add up to the keys"));
    }
    let exact = cluster.exact_shares();
    let sampled = |i: usize| counts.as_ref().map(|c| c[i] as f64 / keys as f64);
    let total_weight: f64 = nodes.iter().map(|n| n.weight).sum();
    let shares = nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let share = match (exact.as_ref().and_then(|e| e.get(i)), sampled(i)) {
                (Some(&exact), _) => exact,
                (None, Some(s)) => s,
                (None, None) => {
                    return Err(Error::Unsupported(format!(
                        "{} has no exact shares: give a key sample to count",
                        cluster.algorithm().name()
                    )))
                }
            };
            Ok(NodeShare {
                name: node.name.clone(),
                weight: node.weight,
                share,
                sampled_keys: counts.as_ref().map(|c| c[i]),
                sampled_share: sampled(i),
                ideal: node.weight / total_weight,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(SharesData {
        algorithm: cluster.algorithm().name().into(),
        exact: exact.is_some(),
        sample_keys: keys,
        nodes: shares,
    })
}

pub const TITLE: &str = "Share per node";
pub const X_LABEL: &str = "node (bar colour as on the ring)";
pub const Y_LABEL: &str = "share of keys (%)";

#[cfg(feature = "charts")]
/// Legend labels, also used by the tests.
fn labels(data: &SharesData) -> [String; 3] {
    [
        if data.exact { "exact share".to_string() } else { format!("share of {} sampled keys", data.sample_keys) },
        "ideal: weight / total weight".to_string(),
        format!("share of {} sampled keys", data.sample_keys),
    ]
}

/// Names longer than this are cut (with "…") under the bars; the CSV keeps them whole.
#[cfg(feature = "charts")]
const NAME_CHARS: usize = 14;

#[cfg(feature = "charts")]
fn short(name: &str) -> String {
    if name.chars().count() <= NAME_CHARS {
        name.to_string()
    } else {
        name.chars().take(NAME_CHARS - 1).chain(std::iter::once('…')).collect()
    }
}

// Draws the chart on `area` (its whole size), in `theme`'s colours and scale.
chart!(SharesData, (280, 220), nodes, "the share data has no nodes");

#[cfg(feature = "charts")]
fn render<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &SharesData,
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let basis = if data.exact { "exact shares".to_string() } else { format!("{} sampled keys", data.sample_keys) };
    let subtitle = format!("{} · {} nodes · {basis}", data.algorithm, data.nodes.len());
    let body = titled(area, TITLE, &subtitle, theme)?;

    let [bar_label, ideal_label, sample_label] = labels(data);
    let ideal_line = theme.line(theme.foreground, 2.0);
    let dot = theme.foreground.mix(0.85).filled();
    let mut legend =
        vec![(bar_label, Swatch::Fill(theme.muted.mix(0.8).filled())), (ideal_label, Swatch::Line(ideal_line))];
    let show_sample = data.exact && data.nodes.iter().any(|n| n.sampled_share.is_some());
    if show_sample {
        legend.push((sample_label, Swatch::Dot(dot)));
    }
    let plot = legend_below(&body, &legend, theme)?;

    let n = data.nodes.len();
    let pct = |x: f64| x * 100.0;
    let values = data.nodes.iter().flat_map(|s| [pct(s.share), pct(s.ideal), pct(s.sampled_share.unwrap_or(0.0))]);
    let (_, y_hi) = span(values.chain([0.0]), (0.0, 100.0));
    let names: Vec<String> = data.nodes.iter().map(|s| short(&s.name)).collect();
    // Label every node when the names fit side by side, else every k-th (plotters picks a
    // round step; ticks between nodes get no label).
    let y_area = theme.px(56.0);
    let widest = names
        .iter()
        .map(|s| plot.estimate_text_size(s, &theme.small_font()).map(|d| d.0))
        .try_fold(0u32, |m, w| w.map(|w| m.max(w)))?;
    let room = plot.dim_in_pixel().0.saturating_sub(y_area + theme.px(24.0)).max(1);
    let fit = (room / (widest + theme.px(10.0))).max(1) as usize;

    let mut chart = ChartBuilder::on(&plot)
        .margin(theme.px(10.0))
        .margin_right(theme.px(14.0))
        .x_label_area_size(theme.px(44.0))
        .y_label_area_size(y_area)
        .build_cartesian_2d(-0.5..n as f64 - 0.5, 0.0..y_hi * 1.15)?;
    let label_of = |v: &f64| {
        let i = v.round();
        if (v - i).abs() < 1e-6 && i >= 0.0 {
            names.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .x_desc(X_LABEL)
        .y_desc(Y_LABEL)
        .x_labels(n.min(fit))
        .x_label_formatter(&label_of)
        .y_label_formatter(&|v| tick(*v))
        .disable_x_mesh()
        .y_max_light_lines(1)
        .axis_desc_style(theme.axis_font())
        .label_style(theme.small_font())
        .axis_style(theme.line(theme.muted, 1.0))
        .bold_line_style(theme.line(theme.grid, 1.0))
        .light_line_style(theme.grid.mix(0.3))
        .draw()?;

    let bars = data.nodes.iter().enumerate().map(|(i, s)| {
        let x = i as f64;
        Rectangle::new([(x - 0.38, 0.0), (x + 0.38, pct(s.share))], node_color(i).filled())
    });
    chart.draw_series(bars)?;
    let ideals = data.nodes.iter().enumerate().map(|(i, s)| {
        let x = i as f64;
        PathElement::new(vec![(x - 0.46, pct(s.ideal)), (x + 0.46, pct(s.ideal))], ideal_line)
    });
    chart.draw_series(ideals)?;
    if show_sample {
        let radius = theme.px(3.5);
        let dots = data
            .nodes
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.sampled_share.map(|f| Circle::new((i as f64, pct(f)), radius, dot)));
        chart.draw_series(dots)?;
    }
    // Values above the bars, when the bars are wide enough to carry them.
    let bar_px = room / n as u32;
    if bar_px >= theme.px(34.0) {
        let style = theme.small_font().pos(Pos::new(HPos::Center, VPos::Bottom));
        let top = |s: &NodeShare| pct(s.share.max(s.ideal).max(s.sampled_share.unwrap_or(0.0)));
        let values =
            data.nodes.iter().enumerate().map(|(i, s)| {
                Text::new(format!("{:.1}", pct(s.share)), (i as f64, top(s) + y_hi * 0.02), style.clone())
            });
        chart.draw_series(values)?;
    }
    area.present()
}

/// The data as CSV: a header row with units, then one row per node, in node order.
fn csv(data: &SharesData) -> String {
    let mut out =
        String::from("node,weight,share_percent,exact,ideal_share_percent,sampled_keys,sampled_share_percent\n");
    for s in &data.nodes {
        out.push_str(&format!(
            "{},{},{:.6},{},{:.6},{},{}\n",
            csv_field(&s.name),
            s.weight,
            s.share * 100.0,
            if data.exact { "yes" } else { "no" },
            s.ideal * 100.0,
            s.sampled_keys.map_or(String::new(), |k| k.to_string()),
            s.sampled_share.map_or(String::new(), |f| format!("{:.6}", f * 100.0)),
        ));
    }
    out
}

#[cfg(all(test, feature = "charts"))]
mod tests {
    use super::*;
    use crate::algo::{Algorithm, Options};
    use crate::charts::draw;
    use crate::charts::test_support::{has_text, svg, themes};
    use crate::{analysis, Config, NodeSpec, Ring};

    fn cluster(algorithm: Algorithm, nodes: &[NodeSpec]) -> Cluster {
        Cluster::new(Options::new(algorithm), nodes.iter().cloned()).unwrap()
    }

    fn weighted() -> Vec<NodeSpec> {
        vec![NodeSpec::new("a"), NodeSpec::new("b").weight(2.0), NodeSpec::new("c"), NodeSpec::new("d").weight(0.5)]
    }

    #[test]
    fn ring_shares_are_the_exact_arcs_and_sum_to_one() {
        let nodes = weighted();
        let data = data(&cluster(Algorithm::Ring, &nodes), &KeySample::generated("k", 2000)).unwrap();
        let ring = Ring::with_nodes(Config::default(), nodes.clone()).unwrap();
        let arcs = analysis::shares(&ring);
        assert!(data.exact);
        for (s, arc) in data.nodes.iter().zip(&arcs) {
            assert_eq!(s.share, *arc as f64 / 2f64.powi(32), "{}", s.name);
        }
        assert!((data.nodes.iter().map(|s| s.share).sum::<f64>() - 1.0).abs() < 1e-12);
        let ideals: Vec<f64> = data.nodes.iter().map(|s| s.ideal).collect();
        assert_eq!(ideals, vec![1.0 / 4.5, 2.0 / 4.5, 1.0 / 4.5, 0.5 / 4.5]);
        assert_eq!(data.nodes.iter().map(|s| s.sampled_keys.unwrap()).sum::<usize>(), 2000);
    }

    #[test]
    fn without_exact_shares_the_bars_count_the_sample() {
        let nodes: Vec<NodeSpec> = (1..=5).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
        let c = cluster(Algorithm::Rendezvous, &nodes);
        assert!(c.exact_shares().is_none(), "the test needs an algorithm without exact shares");
        let sample = KeySample::generated("user:", 5000);
        let data = data(&c, &sample).unwrap();
        assert!(!data.exact);
        let mut counts = [0usize; 5];
        for key in &sample.keys {
            let owner = c.locate(key).unwrap();
            counts[nodes.iter().position(|n| n.name == owner).unwrap()] += 1;
        }
        for (s, count) in data.nodes.iter().zip(counts) {
            assert_eq!(s.share, count as f64 / 5000.0);
        }
        assert!((data.nodes.iter().map(|s| s.share).sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(super::data(&c, &KeySample { keys: vec![] }).is_err(), "nothing to count");
    }

    #[test]
    fn an_empty_sample_skips_the_markers_of_exact_algorithms() {
        let data = data(&cluster(Algorithm::Ring, &weighted()), &KeySample { keys: vec![] }).unwrap();
        assert!(data.nodes.iter().all(|s| s.sampled_share.is_none() && s.sampled_keys.is_none()));
        let out = svg((640, 400), |a| draw(a, &data, &Theme::light())).unwrap();
        assert!(!out.contains("sampled keys"));
        assert!(csv(&data).lines().nth(1).unwrap().ends_with(",,"));
    }

    #[test]
    fn svg_has_title_axis_labels_legend_names_and_ring_colours() {
        let data = data(&cluster(Algorithm::Ring, &weighted()), &KeySample::generated("k", 1000)).unwrap();
        for theme in themes() {
            let out = svg((theme.px(720.0), theme.px(400.0)), |a| draw(a, &data, &theme)).unwrap();
            for text in [TITLE, X_LABEL, Y_LABEL].into_iter().map(String::from).chain(labels(&data)) {
                assert!(has_text(&out, &text), "missing {text:?}");
            }
            for name in ["a", "b", "c", "d"] {
                assert!(has_text(&out, name), "missing node {name}");
            }
            for hex in &crate::charts::PALETTE[..4] {
                assert!(out.contains(&format!("fill=\"{hex}\"")), "bar colour {hex}");
            }
            assert!(!out.contains(&format!("fill=\"{}\"", crate::charts::PALETTE[4])), "only four bars");
        }
    }

    #[test]
    fn each_bar_ideal_and_sample_dot_is_drawn_where_its_share_says_in_every_theme() {
        use crate::charts::test_support::{assert_polyline, axes, elements, hex, polylines};
        let data = data(&cluster(Algorithm::Ring, &weighted()), &KeySample::generated("k", 1000)).unwrap();
        for theme in themes() {
            let out = svg((theme.px(720.0), theme.px(400.0)), |a| draw(a, &data, &theme)).unwrap();
            let els = elements(&out);
            let (_, ys) = axes(&els);
            assert_eq!(ys.len(), 1, "one y axis: {ys:?}");
            let y = |share: f64| ys[0].px(share * 100.0, false);
            for (i, node) in data.nodes.iter().enumerate() {
                // The bar's centre is under its node's name label, its foot at 0%, its top at the share.
                let label = els
                    .iter()
                    .find(|e| e.tag == "text" && e.text == node.name && e.attr("dy") == Some("0.76em"))
                    .unwrap_or_else(|| panic!("no label for {}", node.name));
                let centre = label.num("x");
                let bar = els
                    .iter()
                    .find(|e| e.tag == "rect" && e.attr("fill") == Some(&hex(crate::charts::node_color(i))))
                    .unwrap_or_else(|| panic!("no bar for {}", node.name));
                let (left, top, w, h) = (bar.num("x"), bar.num("y"), bar.num("width"), bar.num("height"));
                assert!(
                    (left + w / 2.0 - centre).abs() <= 1.5,
                    "{}: bar centred at {} not {centre}",
                    node.name,
                    left + w / 2.0
                );
                assert!(
                    (top - y(node.share)).abs() <= 1.5,
                    "{}: bar top at {top}, share says {}",
                    node.name,
                    y(node.share)
                );
                assert!((top + h - y(0.0)).abs() <= 1.5, "{}: bar foot at {}, 0% is at {}", node.name, top + h, y(0.0));
                // The ideal: a level line across the bar; the sample share: a dot on the centre line.
                let ideal = polylines(&els, theme.foreground, theme.px(2.0), ys[0].index);
                let half = (w / 2.0) * 0.46 / 0.38;
                let at = y(node.ideal);
                assert_polyline(
                    &ideal,
                    &[(centre - half, at), (centre + half, at)],
                    1.5,
                    &format!("{}'s ideal", node.name),
                );
                let sampled = y(node.sampled_share.unwrap());
                let dot = els.iter().any(|e| {
                    e.tag == "circle"
                        && e.attr("fill") == Some(&hex(theme.foreground))
                        && (e.num("cx") - centre).abs() <= 1.5
                        && (e.num("cy") - sampled).abs() <= 1.5
                });
                assert!(dot, "{}: no sample dot at ({centre}, {sampled})", node.name);
            }
        }
    }

    #[test]
    fn many_nodes_thin_the_labels_and_long_names_are_cut() {
        let name = |i: usize| format!("node-{i:03}-cache.example");
        let nodes: Vec<NodeSpec> = (0..120).map(|i| NodeSpec::new(name(i))).collect();
        let data = data(&cluster(Algorithm::Ring, &nodes), &KeySample { keys: vec![] }).unwrap();
        let out = svg((800, 400), |a| draw(a, &data, &Theme::light())).unwrap();
        let shown = (0..120).filter(|&i| has_text(&out, &short(&name(i)))).count();
        assert!((2..40).contains(&shown), "{shown} labels");
        assert!(has_text(&out, "node-000-cach…"));
        assert!(!out.contains("node-000-cache.example"));
    }

    #[test]
    fn one_node_and_tiny_areas_do_not_panic() {
        let data = data(&cluster(Algorithm::Ring, &[NodeSpec::new("solo")]), &KeySample { keys: vec![] }).unwrap();
        assert_eq!(data.nodes[0].share, 1.0);
        svg((280, 220), |a| draw(a, &data, &Theme::dark())).unwrap();
        assert!(svg((279, 500), |a| draw(a, &data, &Theme::dark())).is_err());
    }

    #[test]
    fn csv_has_a_header_with_units_and_a_row_per_node() {
        let nodes = [NodeSpec::new("a,1"), NodeSpec::new("b")];
        let data = data(&cluster(Algorithm::Jump, &nodes), &KeySample::generated("k", 100)).unwrap();
        let text = csv(&data);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].contains("share_percent") && lines[0].contains("sampled_keys"));
        assert!(lines[1].starts_with("\"a,1\",1,"), "{}", lines[1]);
        let keys: usize = lines[1..].iter().map(|l| l.rsplit(',').nth(1).unwrap().parse::<usize>().unwrap()).sum();
        assert_eq!(keys, 100);
    }
}
