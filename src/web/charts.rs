//! The charts module's exports, each drawing a chart's data as the engine module's
//! `session.chartData(kind, opts)` returned it (`{kind, data}`), with plotters:
//!
//! - `drawChart(canvas, chart, {dark, dpr})` on a canvas; returns `{csv, table}` (`table` for
//!   the algorithms chart: `{caption, headers, rows}`, else `null`), or `{height}` when the
//!   chart needs its canvas that many CSS pixels high at its width (the algorithms chart: one
//!   row per algorithm, panels stacked on a narrow screen). The page fetches this module only
//!   when it first shows a chart.
//! - `chartSvg(chart, {width, height, dark})` as an SVG document, with no page (Node, a
//!   script): returns `{svg, csv, table}`.

use super::canvas::Surface;
use super::{bad_argument, error, options, to_js, whole};
use crate::charts::{self, algorithms, Chart, Theme};
use crate::session::SessionChart;
use crate::Error;
use plotters::prelude::IntoDrawingArea;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct DrawOptions {
    dark: Option<bool>,
    dpr: Option<f64>,
}

#[derive(Deserialize, Default)]
struct SvgOptions {
    width: Option<f64>,
    height: Option<f64>,
    dark: Option<bool>,
}

#[derive(Serialize)]
struct Drawn {
    csv: String,
    table: Option<algorithms::Table>,
}

#[derive(Serialize)]
struct DrawnSvg {
    svg: String,
    csv: String,
    table: Option<algorithms::Table>,
}

/// The default SVG size: the playground's chart box on a laptop.
const SVG_SIZE: (u32, u32) = (640, 400);

/// A chart argument: what `session.chartData` returned, `{kind, data}`. Read by its kind, then
/// its data as that kind's, not as serde's adjacently tagged enum: that derive keeps code to
/// buffer `data` in case it comes before `kind`.
fn chart_arg(chart: &JsValue, call: &str) -> Result<SessionChart, JsValue> {
    if !chart.is_object() {
        return Err(bad_argument(format!("{call} needs a chart: what session.chartData(kind) returned")));
    }
    let chart = super::plain(chart, "the chart")?;
    let not_a_chart = |why: String| bad_argument(format!("that is not a chart from session.chartData: {why}"));
    let object: &js_sys::Object = chart.unchecked_ref();
    if let Some(key) =
        js_sys::Object::keys(object).iter().filter_map(|k| k.as_string()).find(|k| k != "kind" && k != "data")
    {
        return Err(not_a_chart(format!("unknown field {key:?} (a chart has kind and data)")));
    }
    let data = super::field(object, "data").unwrap_or(JsValue::UNDEFINED);
    fn read<T: serde::de::DeserializeOwned>(data: JsValue) -> Result<T, String> {
        serde_wasm_bindgen::from_value(data).map_err(|e| e.to_string())
    }
    let chart = match super::field(object, "kind").and_then(|k| k.as_string()).as_deref() {
        Some("spread") => read(data).map(SessionChart::Spread),
        Some("shares") => read(data).map(SessionChart::Shares),
        Some("moves") => read(data).map(SessionChart::Moves),
        Some("algorithms") => read(data).map(SessionChart::Algorithms),
        Some(other) => Err(format!("unknown kind {other:?} (spread, shares, moves or algorithms)")),
        None => Err("its kind must be a string: spread, shares, moves or algorithms".into()),
    };
    chart.map_err(not_a_chart)
}

/// A side of the SVG in pixels: whole, and at most [`MAX_SVG_SIDE`](crate::limits::MAX_SVG_SIDE).
fn side(x: f64, what: &str) -> Result<u32, Error> {
    let x = whole(x, what)?;
    crate::limits::check(what, x, crate::limits::MAX_SVG_SIDE)?;
    Ok(x as u32)
}

/// `chart` (`{kind, data}` from `session.chartData`) as an SVG document of `width` × `height`
/// pixels (640 × 400 unless given; the algorithms chart is as tall as its rows need at that
/// width unless a height is given).
#[wasm_bindgen(js_name = chartSvg)]
pub fn chart_svg(chart: JsValue, opts: JsValue) -> Result<JsValue, JsValue> {
    crate::work::call(|| {
        let chart = chart_arg(&chart, "chartSvg")?;
        let o: SvgOptions = options(&opts, &["width", "height", "dark"])?;
        let width = o.width.map(|w| side(w, "the SVG width")).transpose().map_err(error)?.unwrap_or(SVG_SIZE.0);
        let height = match (o.height, &chart) {
            (Some(h), _) => side(h, "the SVG height").map_err(error)?,
            (None, SessionChart::Algorithms(d)) => {
                side(d.height_for(f64::from(width)).round(), "the SVG height the chart needs").map_err(error)?
            }
            (None, _) => SVG_SIZE.1,
        };
        let theme = if o.dark.unwrap_or(false) { Theme::dark() } else { Theme::light() };
        let mut svg = String::new();
        // The area writes the SVG out when it is dropped, at the end of this statement.
        let drawn = draw(&Surface::svg(&mut svg, (width, height)).into_drawing_area(), &chart, &theme)?;
        to_js(&DrawnSvg { svg, csv: drawn.csv, table: drawn.table })
    })
}

/// Draws `chart` (`{kind, data}` from `session.chartData`) on `canvas`, whose backing store
/// the caller sized to its CSS size × `dpr`.
#[wasm_bindgen(js_name = drawChart)]
pub fn draw_chart(canvas: JsValue, chart: JsValue, opts: JsValue) -> Result<JsValue, JsValue> {
    crate::work::call(|| {
        let canvas: web_sys::HtmlCanvasElement =
            canvas.dyn_into().map_err(|_| bad_argument("drawChart needs a <canvas> element".into()))?;
        let chart = chart_arg(&chart, "drawChart")?;
        let o: DrawOptions = options(&opts, &["dark", "dpr"])?;
        // A chart of many rows needs a height for its names at the canvas's width: when the box
        // has another, nothing is drawn and the answer is `{height}`, for the page to set and
        // draw again.
        if let SessionChart::Algorithms(d) = &chart {
            let (width, height) = (f64::from(canvas.client_width()), f64::from(canvas.client_height()));
            let wanted = d.height_for(width).round();
            if width > 0.0 && (wanted - height).abs() > 1.0 {
                #[derive(Serialize)]
                struct Resize {
                    height: f64,
                }
                return to_js(&Resize { height: wanted });
            }
        }
        let theme = if o.dark.unwrap_or(false) { Theme::dark() } else { Theme::light() };
        let theme = theme.scaled(o.dpr.unwrap_or(1.0));
        let area = Surface::canvas(canvas)
            .ok_or_else(|| bad_argument("that canvas has no 2D context".into()))?
            .into_drawing_area();
        let drawn = draw(&area, &chart, &theme)?;
        to_js(&drawn)
    })
}

/// Draws `chart` on `area`: its CSV, and the algorithms chart's table.
fn draw(
    area: &plotters::prelude::DrawingArea<Surface<'_>, plotters::coord::Shift>,
    chart: &SessionChart,
    theme: &Theme,
) -> Result<Drawn, JsValue> {
    let (csv, table) = match chart {
        SessionChart::Spread(d) => (drawn(area, d, theme)?, None),
        SessionChart::Shares(d) => (drawn(area, d, theme)?, None),
        SessionChart::Moves(d) => (drawn(area, d, theme)?, None),
        SessionChart::Algorithms(d) => (drawn(area, d, theme)?, Some(algorithms::table(d))),
    };
    Ok(Drawn { csv, table })
}

/// Draws one kind of chart; its CSV.
fn drawn<C: Chart>(
    area: &plotters::prelude::DrawingArea<Surface<'_>, plotters::coord::Shift>,
    chart: &C,
    theme: &Theme,
) -> Result<String, JsValue> {
    charts::draw(area, chart, theme).map_err(error)?;
    Ok(chart.csv())
}
