//! Charts, drawn with plotters on any backend (an HTML canvas in the page, SVG natively).
//!
//! One module per chart. Each has a `data` function (plain numbers from the engine, no
//! drawing) whose result is a [`Chart`]: with the `charts` feature, `draw` lays it out on any
//! plotters backend, and [`Chart::csv`] gives the same numbers as text (header row with units). Nothing here reads a clock, spawns a thread,
//! draws random numbers or iterates a hash map, so a chart is the same natively and in wasm.
//!
//! A chart's way to the page, in order: its data and drawing here; a playground's chart of
//! its current state, computed a piece per task (`session/charts.rs`); the binding that draws
//! it on a canvas in the charts' own wasm module (`web/charts.rs`, text measured by the canvas
//! in `web/canvas.rs`); the page's chart views (`www/charts.js`), which fetch that module on a
//! first chart (`www/charts-module.js`).
//!
//! ```
//! # #[cfg(feature = "charts")] {
//! use plotters::prelude::*;
//! use ringlab::{charts::{self, Chart}, Config, NodeSpec};
//!
//! let nodes: Vec<NodeSpec> = (1..=5).map(|i| NodeSpec::new(format!("node-{i}"))).collect();
//! let data = charts::spread::data(&Config::default(), &nodes, 160, 12, false)?;
//! let mut svg = String::new();
//! {
//!     let area = SVGBackend::with_string(&mut svg, (640, 400)).into_drawing_area();
//!     charts::draw(&area, &data, &charts::Theme::light())?;
//! }
//! assert!(svg.contains("Spread vs vnodes"));
//! assert!(data.csv().starts_with("vnodes_per_node,"));
//! # }
//! # Ok::<(), ringlab::Error>(())
//! ```

/// Implements [`Chart`] for a chart module's data type from the module's `render` and `csv`
/// functions: the type, its minimum size in CSS pixels, the field that is empty when there is
/// nothing to draw, and the words for that.
macro_rules! chart {
    ($data:ty, $min:expr, $field:ident, $empty:literal) => {
        impl $crate::charts::Chart for $data {
            const MIN_SIZE: (u32, u32) = $min;

            fn empty(&self) -> Option<&'static str> {
                self.$field.is_empty().then_some($empty)
            }

            #[cfg(feature = "charts")]
            fn render<DB: DrawingBackend>(
                &self,
                area: &DrawingArea<DB, Shift>,
                theme: &Theme,
            ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
                render(area, self, theme)
            }

            fn csv(&self) -> String {
                csv(self)
            }
        }
    };
}

pub mod algorithms;
pub mod moves;
pub mod shares;
pub mod spread;
#[cfg(feature = "charts")]
pub mod text;

#[cfg(feature = "charts")]
use crate::theme::{self, Colours, PALETTE};
#[cfg(feature = "charts")]
use crate::Error;
#[cfg(feature = "charts")]
use plot::*;

/// What each chart's drawing code takes from plotters, in one place.
#[cfg(feature = "charts")]
mod plot {
    pub(super) use plotters::coord::Shift;
    pub(super) use plotters::drawing::DrawingAreaErrorKind;
    pub(super) use plotters::prelude::*;
    pub(super) use plotters::style::text_anchor::{HPos, Pos, VPos};
}
#[cfg(feature = "charts")]
use plotters::style::{FontFamily, FontStyle};

#[cfg(feature = "charts")]
/// The colour of node colour slot `i` ([`PALETTE`]`[i % 16]`).
pub fn node_color(i: usize) -> RGBColor {
    colour(PALETTE[i % PALETTE.len()])
}

#[cfg(feature = "charts")]
/// Parses `#rrggbb` (the page's CSS colours), e.g. to build a [`Theme`] from CSS variables.
pub fn parse_color(hex: &str) -> Result<RGBColor, Error> {
    theme::rgb(hex.trim())
        .map(|[r, g, b]| RGBColor(r, g, b))
        .ok_or_else(|| Error::Chart(format!("colour {hex:?} is not #rrggbb")))
}

#[cfg(feature = "charts")]
/// One of [`crate::theme`]'s colours, all of which are `#rrggbb` (a test checks it).
fn colour(hex: &str) -> RGBColor {
    let [r, g, b] = theme::rgb(hex).unwrap_or([0, 0, 0]);
    RGBColor(r, g, b)
}

/// One chart's data: it knows its minimum size, how to draw itself and its CSV.
pub trait Chart {
    /// The smallest area, in CSS pixels, its layout fits in.
    const MIN_SIZE: (u32, u32);
    /// Why there is nothing to draw, if there is nothing.
    fn empty(&self) -> Option<&'static str>;
    /// Draws on `area` (already filled with the background).
    #[cfg(feature = "charts")]
    fn render<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>;
    /// The same numbers as CSV text, header row with units; text fields are made safe for
    /// spreadsheets (see `csv_field`).
    fn csv(&self) -> String;
}

#[cfg(feature = "charts")]
/// Draws `chart` on `area` (its whole size), in `theme`'s colours and scale; refuses an
/// area smaller than the chart's minimum and data with nothing to draw.
pub fn draw<DB: DrawingBackend, C: Chart>(
    area: &DrawingArea<DB, Shift>,
    chart: &C,
    theme: &Theme,
) -> Result<(), Error> {
    check_area(area, theme, C::MIN_SIZE)?;
    if let Some(why) = chart.empty() {
        return Err(Error::Chart(why.to_string()));
    }
    area.fill(&theme.background).map_err(chart_error)?;
    chart.render(area, theme).map_err(chart_error)
}

#[cfg(feature = "charts")]
/// Colours and pixel scale of a chart, to match the page's light or dark theme.
///
/// `scale` multiplies every font size, line width, margin and marker: draw on a canvas whose
/// backing store is CSS size × `devicePixelRatio` and pass that ratio here.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Theme {
    pub background: RGBColor,
    pub foreground: RGBColor,
    /// Secondary text, axes, reference curves.
    pub muted: RGBColor,
    pub grid: RGBColor,
    /// The main data series (this algorithm, this hash).
    pub primary: RGBColor,
    /// The contrasting series (max/mean, `hash % N`).
    pub secondary: RGBColor,
    /// Device pixels per CSS pixel.
    pub scale: f64,
}

#[cfg(feature = "charts")]
impl Theme {
    pub fn light() -> Theme {
        Theme::from_colours(&theme::LIGHT)
    }

    pub fn dark() -> Theme {
        Theme::from_colours(&theme::DARK)
    }

    fn from_colours(c: &Colours) -> Theme {
        Theme {
            background: colour(c.bg),
            foreground: colour(c.fg),
            muted: colour(c.muted),
            grid: colour(c.line),
            primary: colour(c.primary),
            secondary: colour(c.secondary),
            scale: 1.0,
        }
    }

    /// The same theme at `scale` device pixels per CSS pixel (clamped to 0.5..=8; a
    /// non-finite scale counts as 1).
    pub fn scaled(self, scale: f64) -> Theme {
        Theme { scale: if scale.is_finite() { scale.clamp(0.5, 8.0) } else { 1.0 }, ..self }
    }

    /// `css_px` CSS pixels in device pixels, at least 1.
    pub(crate) fn px(&self, css_px: f64) -> u32 {
        let s = if self.scale.is_finite() && self.scale > 0.0 { self.scale } else { 1.0 };
        (css_px * s).round().max(1.0) as u32
    }

    fn font(&self, css_px: f64, color: RGBColor) -> TextStyle<'static> {
        let font = FontDesc::new(FontFamily::SansSerif, f64::from(self.px(css_px)), FontStyle::Normal);
        TextStyle { color: color.to_backend_color(), ..TextStyle::from(font) }
    }

    /// Chart titles: 16 CSS px.
    pub(crate) fn title_font(&self) -> TextStyle<'static> {
        self.font(16.0, self.foreground)
    }
    /// Panel titles in multi-panel charts: 14 CSS px.
    pub(crate) fn panel_font(&self) -> TextStyle<'static> {
        self.font(14.0, self.foreground)
    }
    /// Axis descriptions: 13 CSS px.
    pub(crate) fn axis_font(&self) -> TextStyle<'static> {
        self.font(13.0, self.foreground)
    }
    /// Tick labels, legends, notes: 12 CSS px.
    pub(crate) fn small_font(&self) -> TextStyle<'static> {
        self.font(12.0, self.muted)
    }
    pub(crate) fn legend_font(&self) -> TextStyle<'static> {
        self.font(12.0, self.foreground)
    }

    /// A line `css_px` wide.
    pub(crate) fn line(&self, color: RGBColor, css_px: f64) -> ShapeStyle {
        color.stroke_width(self.px(css_px))
    }
}

#[cfg(feature = "charts")]
/// A plotters failure as the crate's error (a panic would abort the wasm page instead).
fn chart_error<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> Error {
    Error::Chart(e.to_string())
}

#[cfg(feature = "charts")]
/// Refuses areas too small to lay a chart out in (plotters would draw a garbled chart).
fn check_area<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
    min_css: (u32, u32),
) -> Result<(), Error> {
    let (w, h) = area.dim_in_pixel();
    let (min_w, min_h) = (theme.px(f64::from(min_css.0)), theme.px(f64::from(min_css.1)));
    if w < min_w || h < min_h {
        return Err(Error::ChartTooSmall { width: w, height: h, min_width: min_w, min_height: min_h });
    }
    Ok(())
}

#[cfg(feature = "charts")]
/// How a legend entry shows its series.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Swatch {
    Line(ShapeStyle),
    Dashed(ShapeStyle),
    /// A filled box: bars, bands.
    Fill(ShapeStyle),
    /// A dot: sampled markers.
    Dot(ShapeStyle),
}

#[cfg(feature = "charts")]
/// The title (and a smaller subtitle) on top of `area`; returns the area below them.
pub(crate) fn titled<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    subtitle: &str,
    theme: &Theme,
) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut body = area.titled(title, theme.title_font())?;
    // The subtitle in as many lines as the width needs: a narrow chart wraps it rather than
    // clipping it.
    let width = area.dim_in_pixel().0.saturating_sub(theme.px(16.0));
    let mut line = String::new();
    for word in subtitle.split(' ').filter(|w| !w.is_empty()) {
        let longer = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if !line.is_empty() && area.estimate_text_size(&longer, &theme.small_font())?.0 > width {
            body = body.titled(&line, theme.small_font())?;
            line = word.to_string();
        } else {
            line = longer;
        }
    }
    if line.is_empty() {
        return Ok(body);
    }
    body.titled(&line, theme.small_font())
}

#[cfg(feature = "charts")]
/// Draws a legend along the bottom of `area`, in as many rows as the labels need, and
/// returns the area above it. Outside the plot, it can never hide data.
pub(crate) fn legend_below<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[(String, Swatch)],
    theme: &Theme,
) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
    let font = theme.legend_font();
    let (width, height) = area.dim_in_pixel();
    let (margin, swatch, gap, spacing) =
        (theme.px(12.0) as i32, theme.px(18.0) as i32, theme.px(6.0) as i32, theme.px(18.0) as i32);
    let row_height = theme.px(20.0) as i32;
    let mut placed = Vec::with_capacity(items.len());
    let (mut x, mut row) = (margin, 0);
    for (label, _) in items {
        let (text_w, _) = area.estimate_text_size(label, &font)?;
        let item_w = swatch + gap + text_w as i32;
        if x > margin && x + item_w > width as i32 - margin {
            (x, row) = (margin, row + 1);
        }
        placed.push((x, row));
        x += item_w + spacing;
    }
    let legend_h = if items.is_empty() { 0 } else { (row + 1) * row_height + theme.px(6.0) as i32 };
    let (chart, legend) = area.split_vertically((height as i32 - legend_h).max(0));
    let text_style = font.pos(Pos::new(HPos::Left, VPos::Center));
    for ((label, kind), (x, row)) in items.iter().zip(placed) {
        let y = row * row_height + row_height / 2;
        let (x0, x1) = (x, x + swatch);
        match *kind {
            Swatch::Line(style) => legend.draw(&PathElement::new(vec![(x0, y), (x1, y)], style))?,
            Swatch::Dashed(style) => {
                let third = swatch / 3;
                legend.draw(&PathElement::new(vec![(x0, y), (x0 + third, y)], style))?;
                legend.draw(&PathElement::new(vec![(x1 - third, y), (x1, y)], style))?;
            }
            Swatch::Fill(style) => {
                let half = theme.px(6.0) as i32;
                legend.draw(&Rectangle::new([(x0, y - half), (x1, y + half)], style))?;
            }
            Swatch::Dot(style) => legend.draw(&Circle::new((x0 + swatch / 2, y), theme.px(4.0), style))?,
        }
        legend.draw_text(label, &text_style, (x1 + gap, y))?;
    }
    Ok(chart)
}

/// One CSV text field (a node name), quoted when it holds a comma, quote or line break. A
/// field a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a
/// carriage return) gets a leading `'`, which spreadsheets show as text (OWASP's advice).
pub(crate) fn csv_field(s: &str) -> String {
    let formula = s.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let s = if formula { format!("'{s}") } else { s.to_string() };
    if formula || s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

#[cfg(feature = "charts")]
/// A tick label: the fewest decimals (up to 4) that show `v` exactly enough.
pub(crate) fn tick(v: f64) -> String {
    for decimals in 0..4 {
        let text = format!("{v:.decimals$}");
        if text.parse::<f64>().is_ok_and(|p| (p - v).abs() <= 1e-9 * v.abs().max(1e-12)) {
            return text;
        }
    }
    format!("{v:.4}")
}

#[cfg(feature = "charts")]
/// Ticks for a log axis over `lo..hi` (both > 0): labelled 1-2-5 per decade when at most
/// `max_labels` fit, else 1-3, else powers of ten; grid lines at every multiple 1..9.
pub(crate) fn log_ticks(lo: f64, hi: f64, max_labels: usize) -> (Vec<f64>, Vec<f64>) {
    let at = |mantissas: &[u32]| -> Vec<f64> {
        let (first, last) = (libm::floor(libm::log10(lo)) as i32, libm::ceil(libm::log10(hi)) as i32);
        (first..=last)
            .flat_map(|d| mantissas.iter().map(move |&m| f64::from(m) * libm::pow(10.0, f64::from(d))))
            .filter(|v| *v >= lo * (1.0 - 1e-9) && *v <= hi * (1.0 + 1e-9))
            .collect()
    };
    let light = at(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for mantissas in [&[1, 2, 5][..], &[1, 3], &[1]] {
        let bold = at(mantissas);
        if bold.len() <= max_labels.max(2) {
            return (bold, light);
        }
    }
    (at(&[1]), light)
}

#[cfg(feature = "charts")]
/// A finite axis range around `values` (plotters loops or draws nothing on NaN or empty ranges).
pub(crate) fn span(values: impl IntoIterator<Item = f64>, fallback: (f64, f64)) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.into_iter().filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return fallback;
    }
    if hi - lo <= f64::EPSILON * hi.abs().max(1.0) {
        // A flat series still needs a range with some height.
        let pad = if hi == 0.0 { 1.0 } else { hi.abs() * 0.1 };
        return (lo - pad, hi + pad);
    }
    (lo, hi)
}

#[cfg(all(test, feature = "charts"))]
pub(crate) mod test_support {
    use super::Theme;
    use crate::Error;
    use plotters::coord::Shift;
    use plotters::prelude::*;

    /// Renders with `draw` into an SVG string of `size` pixels.
    pub fn svg(
        size: (u32, u32),
        draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), Error>,
    ) -> Result<String, Error> {
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, size).into_drawing_area();
            draw(&area)?;
        }
        Ok(out)
    }

    /// Whether the SVG has a text element reading exactly `text` (plotters writes
    /// `<text ...>\n{escaped}\n</text>`).
    pub fn has_text(svg: &str, text: &str) -> bool {
        let escaped = text
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
            .replace('\'', "&apos;");
        svg.contains(&format!(">\n{escaped}\n</text>"))
    }

    pub fn themes() -> [Theme; 3] {
        [Theme::light(), Theme::dark(), Theme::dark().scaled(2.0)]
    }

    /// A colour as plotters writes it in SVG (`#RRGGBB`).
    pub fn hex(c: RGBColor) -> String {
        format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
    }

    /// One element of a chart's SVG, in document (drawing) order.
    #[derive(Clone, Debug)]
    pub struct Element {
        /// Its position in the document: later elements are drawn on top.
        pub index: usize,
        pub tag: String,
        pub attrs: Vec<(String, String)>,
        /// Its text, trimmed (plotters puts a text element's text on a line of its own).
        pub text: String,
    }

    impl Element {
        pub fn attr(&self, name: &str) -> Option<&str> {
            self.attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
        }

        /// A numeric attribute (NaN when missing or not a number).
        pub fn num(&self, name: &str) -> f64 {
            self.attr(name).and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
        }

        /// A polyline's or polygon's vertices.
        pub fn points(&self) -> Vec<(f64, f64)> {
            let pairs = self.attr("points").unwrap_or("").split_whitespace();
            pairs
                .filter_map(|p| p.split_once(','))
                .map(|(x, y)| (x.parse().unwrap_or(f64::NAN), y.parse().unwrap_or(f64::NAN)))
                .collect()
        }
    }

    /// Every element of an SVG document, parsed as XML (so escaping is undone exactly once).
    pub fn elements(svg: &str) -> Vec<Element> {
        let doc = roxmltree::Document::parse(svg).expect("plotters writes well-formed SVG");
        doc.descendants()
            .filter(|n| n.is_element())
            .enumerate()
            .map(|(index, n)| Element {
                index,
                tag: n.tag_name().name().to_string(),
                attrs: n.attributes().map(|a| (a.name().to_string(), a.value().to_string())).collect(),
                text: n.text().unwrap_or("").trim().to_string(),
            })
            .collect()
    }

    /// The polylines stroked in `colour`, `width` pixels wide, at or after `from` in the document.
    pub fn polylines(elements: &[Element], colour: RGBColor, width: u32, from: usize) -> Vec<&Element> {
        let (colour, width) = (hex(colour), width.to_string());
        elements
            .iter()
            .filter(|e| e.index >= from && e.tag == "polyline")
            .filter(|e| e.attr("stroke") == Some(&colour) && e.attr("stroke-width") == Some(&width))
            .collect()
    }

    /// One axis, read from its tick labels as drawn: each label's value and its pixel
    /// position along the axis (plotters centres an x label on its tick and puts a y label's
    /// middle on its tick).
    #[derive(Clone, Debug)]
    pub struct Axis {
        /// (value, pixel), by increasing pixel.
        pub ticks: Vec<(f64, f64)>,
        /// Document index of its last label.
        pub index: usize,
    }

    impl Axis {
        /// The pixel of `value`, interpolated between the outermost ticks, on a linear or a
        /// log scale; panics unless every tick agrees with that scale within a pixel.
        pub fn px(&self, value: f64, log: bool) -> f64 {
            let f = |v: f64| if log { v.ln() } else { v };
            let ((v0, p0), (v1, p1)) = (self.ticks[0], self.ticks[self.ticks.len() - 1]);
            let at = |v: f64| p0 + (f(v) - f(v0)) / (f(v1) - f(v0)) * (p1 - p0);
            for &(v, p) in &self.ticks {
                assert!(
                    (at(v) - p).abs() <= 1.0,
                    "tick {v} at {p} px is off the {} scale: {:?}",
                    if log { "log" } else { "linear" },
                    self.ticks
                );
            }
            at(value)
        }
    }

    /// A tick label's value: a number, optionally with a k, M or G suffix.
    pub fn label_value(text: &str) -> Option<f64> {
        let (digits, scale) = match text.chars().last()? {
            'k' => (&text[..text.len() - 1], 1e3),
            'M' => (&text[..text.len() - 1], 1e6),
            'G' => (&text[..text.len() - 1], 1e9),
            _ => (text, 1.0),
        };
        digits.parse::<f64>().ok().filter(|v| v.is_finite()).map(|v| v * scale)
    }

    /// The plots' x axes and y axes, each read from its numeric tick labels: x labels are
    /// centred below their tick (`text-anchor="middle"`, `dy="0.76em"`), y labels end left of
    /// it (`text-anchor="end"`, `dy="0.5ex"`). Labels on one line are split into axes where
    /// the drawing moves on (side-by-side panels share a line). By document order.
    pub fn axes(elements: &[Element]) -> (Vec<Axis>, Vec<Axis>) {
        // (document index, value, pixel along the axis)
        type Tick = (usize, f64, f64);
        let labels = |anchor: &str, dy: &str| -> Vec<(usize, f64, f64, f64)> {
            elements
                .iter()
                .filter(|e| e.tag == "text" && e.attr("transform").is_none())
                .filter(|e| e.attr("text-anchor") == Some(anchor) && e.attr("dy") == Some(dy))
                .filter_map(|e| label_value(&e.text).map(|v| (e.index, v, e.num("x"), e.num("y"))))
                .collect()
        };
        // Groups labels sharing the `across` coordinate; within a group, one axis's labels
        // are drawn one after another (each with its tick mark), so a run ends where the
        // document skips ahead or the values stop increasing in the reading direction.
        let runs = |labels: Vec<(usize, f64, f64, f64)>, x_axis: bool| -> Vec<Axis> {
            let mut groups: Vec<(f64, Vec<Tick>)> = Vec::new();
            for (index, value, x, y) in labels {
                let (along, across) = if x_axis { (x, y) } else { (y, x) };
                match groups.iter_mut().find(|(a, _)| *a == across) {
                    Some((_, g)) => g.push((index, value, along)),
                    None => groups.push((across, vec![(index, value, along)])),
                }
            }
            let mut runs: Vec<Vec<Tick>> = Vec::new();
            for (_, group) in groups {
                let mut run: Vec<Tick> = Vec::new();
                for label in group {
                    // x values grow rightwards; y values grow upwards, i.e. shrink down the page.
                    let restart = run.last().is_some_and(|l| {
                        let onward = if x_axis { label.2 > l.2 } else { label.2 < l.2 };
                        label.0 > l.0 + 4 || label.1 <= l.1 || !onward
                    });
                    if restart {
                        runs.push(std::mem::take(&mut run));
                    }
                    run.push(label);
                }
                runs.push(run);
            }
            let mut axes: Vec<Axis> = runs
                .into_iter()
                .filter(|r| r.len() >= 2)
                .map(|mut r| {
                    r.sort_by(|a, b| a.2.total_cmp(&b.2));
                    Axis {
                        index: r.iter().map(|l| l.0).max().unwrap_or(0),
                        ticks: r.iter().map(|l| (l.1, l.2)).collect(),
                    }
                })
                .collect();
            axes.sort_by_key(|a| a.index);
            axes
        };
        (runs(labels("middle", "0.76em"), true), runs(labels("end", "0.5ex"), false))
    }

    /// The largest distance from any of `points` to the path through `path`.
    pub fn distance_to_path(points: &[(f64, f64)], path: &[(f64, f64)]) -> f64 {
        let to_segment = |(px, py): (f64, f64), (ax, ay): (f64, f64), (bx, by): (f64, f64)| {
            let (dx, dy) = (bx - ax, by - ay);
            let len2 = dx * dx + dy * dy;
            let t = if len2 == 0.0 { 0.0 } else { (((px - ax) * dx + (py - ay) * dy) / len2).clamp(0.0, 1.0) };
            ((px - ax - t * dx).powi(2) + (py - ay - t * dy).powi(2)).sqrt()
        };
        points
            .iter()
            .map(|&p| path.windows(2).map(|w| to_segment(p, w[0], w[1])).fold(f64::INFINITY, f64::min))
            .fold(0.0, f64::max)
    }

    /// Asserts that one polyline in `candidates` has exactly the vertices `expected` (in
    /// pixels), each within `tolerance` pixels.
    pub fn assert_polyline(candidates: &[&Element], expected: &[(f64, f64)], tolerance: f64, what: &str) {
        let fits = |e: &&&Element| {
            let got = e.points();
            got.len() == expected.len()
                && got
                    .iter()
                    .zip(expected)
                    .all(|(g, x)| (g.0 - x.0).abs() <= tolerance && (g.1 - x.1).abs() <= tolerance)
        };
        assert!(
            candidates.iter().any(|e| fits(&e)),
            "{what}: no line through {expected:?}; candidates: {:?}",
            candidates.iter().map(|e| e.points()).collect::<Vec<_>>()
        );
    }

    /// Asserts that the dashes in `dashes` all lie on the path through `expected` (within
    /// `tolerance` px) and run along it from its first vertex to within `reach` px of its last.
    pub fn assert_dashed(dashes: &[&Element], expected: &[(f64, f64)], tolerance: f64, reach: f64, what: &str) {
        assert!(!dashes.is_empty(), "{what}: no dashes drawn");
        let points: Vec<(f64, f64)> = dashes.iter().flat_map(|e| e.points()).collect();
        let off = distance_to_path(&points, expected);
        assert!(off <= tolerance, "{what}: a dash is {off:.1} px off the path {expected:?}");
        let near = |target: (f64, f64)| {
            points
                .iter()
                .map(|p| ((p.0 - target.0).powi(2) + (p.1 - target.1).powi(2)).sqrt())
                .fold(f64::INFINITY, f64::min)
        };
        assert!(near(expected[0]) <= tolerance, "{what}: the dashes do not start at {:?}", expected[0]);
        let end = expected[expected.len() - 1];
        assert!(near(end) <= reach, "{what}: the dashes stop {:.1} px short of {end:?}", near(end));
    }
}

#[cfg(all(test, feature = "charts"))]
mod tests {
    use super::*;

    #[test]
    fn palette_parses_to_the_listed_colours() {
        assert_eq!(node_color(0), RGBColor(0xE6, 0x9F, 0x00));
        assert_eq!(node_color(15), RGBColor(0x88, 0x22, 0x55));
        assert_eq!(node_color(16), node_color(0), "wraps around");
        for (i, hex) in PALETTE.iter().enumerate() {
            let c = node_color(i);
            assert_eq!(format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2), *hex);
        }
    }

    #[test]
    fn colours_parse_or_fail_politely() {
        assert_eq!(parse_color(" #c9c9d3 ").unwrap(), Theme::light().grid);
        for bad in ["", "c9c9d3", "#c9c9d", "#c9c9dz", "#c9c9d3ff"] {
            assert!(parse_color(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn themes_have_the_page_colours_and_scale_sizes() {
        let (light, dark) = (Theme::light(), Theme::dark());
        assert_eq!(light.background, RGBColor(255, 255, 255));
        assert_eq!(light.foreground, RGBColor(0x1b, 0x1b, 0x1f));
        assert_eq!(dark.background, RGBColor(0x12, 0x12, 0x16));
        assert_eq!(dark.grid, RGBColor(0x3a, 0x3a, 0x46));
        assert_eq!(light.px(13.0), 13);
        assert_eq!(light.scaled(2.0).px(13.0), 26);
        assert_eq!(light.scaled(f64::NAN).scale, 1.0);
        assert_eq!(light.scaled(100.0).scale, 8.0);
    }

    #[test]
    fn csv_fields_are_quoted_only_when_needed() {
        assert_eq!(csv_field("node-1"), "node-1");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }

    #[test]
    fn csv_fields_never_run_as_spreadsheet_formulas() {
        assert_eq!(csv_field("=HYPERLINK(\"http://x\",\"y\")"), "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
        for risky in ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"] {
            let field = csv_field(risky);
            assert!(field.starts_with("\"'"), "{risky:?} -> {field:?}");
        }
        assert_eq!(csv_field("node-1"), "node-1", "a dash inside a name is harmless");
    }

    #[test]
    fn ticks_show_few_decimals() {
        assert_eq!(tick(10.0), "10");
        assert_eq!(tick(0.5), "0.5");
        assert_eq!(tick(0.02), "0.02");
        assert_eq!(tick(1000.0), "1000");
    }

    #[test]
    fn log_ticks_thin_out_to_fit() {
        let (bold, light) = log_ticks(1.0, 1000.0, 12);
        assert_eq!(bold, vec![1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0]);
        assert_eq!(light.len(), 28);
        assert_eq!(log_ticks(1.0, 1000.0, 5).0, vec![1.0, 10.0, 100.0, 1000.0]);
        assert_eq!(log_ticks(3.0, 40.0, 8).0, vec![5.0, 10.0, 20.0]);
    }

    #[test]
    fn every_chart_draws_or_refuses_politely_at_any_size_and_scale() {
        use crate::algo::{Algorithm, Cluster, Options};
        use crate::keys::KeySample;
        use crate::{Config, NodeSpec};
        let nodes: Vec<NodeSpec> = (1..=40).map(|i| NodeSpec::new(format!("node-with-a-long-name-{i}"))).collect();
        let sample = KeySample::generated("k", 500);
        let spread = spread::data(&Config::default(), &nodes, 160, 30, true).unwrap();
        let cluster = Cluster::new(Options::new(Algorithm::Ring), nodes.clone()).unwrap();
        let shares = shares::data(&cluster, &sample).unwrap();
        let moves = moves::data(&Options::new(Algorithm::Ring), 2..=10, &KeySample { keys: vec![] }).unwrap();
        let algos =
            algorithms::data(&Options::new(Algorithm::Ring), &nodes[..5], &sample, &Algorithm::ALL, &[]).unwrap();
        let (mut drawn, mut refused) = (0, 0);
        for theme in [Theme::light(), Theme::dark().scaled(2.5)] {
            for (w, h) in (200..1400).step_by(151).flat_map(|w| (150..1000).step_by(127).map(move |h| (w, h))) {
                let size = (theme.px(f64::from(w)), theme.px(f64::from(h)));
                for result in [
                    test_support::svg(size, |a| draw(a, &spread, &theme)),
                    test_support::svg(size, |a| draw(a, &shares, &theme)),
                    test_support::svg(size, |a| draw(a, &moves, &theme)),
                    test_support::svg(size, |a| draw(a, &algos, &theme)),
                ] {
                    match result {
                        Ok(_) => drawn += 1,
                        Err(e) => {
                            assert!(e.to_string().contains("the drawing area is"), "{size:?}: {e}");
                            refused += 1;
                        }
                    }
                }
            }
        }
        assert!(drawn > 0 && refused > 0, "{drawn} drawn, {refused} refused");
    }

    #[test]
    fn spans_are_finite_and_never_flat() {
        assert_eq!(span([1.0, f64::NAN, 3.0], (0.0, 1.0)), (1.0, 3.0));
        assert_eq!(span([], (0.0, 1.0)), (0.0, 1.0));
        let (lo, hi) = span([2.0, 2.0], (0.0, 1.0));
        assert!(lo < 2.0 && hi > 2.0);
    }
}
