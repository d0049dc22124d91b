//! `drawChart(canvas, chart, {dark, dpr})`: draws a chart's data, as the engine module's
//! `session.chartData(kind, opts)` returned it (`{kind, data}`), with plotters on a canvas;
//! returns `{csv, table}` (`table` for the algorithms chart: `{caption, headers, rows}`, else
//! `null`), or `{height}` when the chart needs its canvas that many CSS pixels high at its
//! width (the algorithms chart: one row per algorithm, panels stacked on a narrow screen). It is the charts module's one export: the page fetches that module only when it
//! first shows a chart.

use super::canvas::MeasuringCanvas;
use super::{bad_argument, error, options, to_js};
use crate::charts::{self, algorithms, Chart, Theme};
use crate::session::SessionChart;
use crate::Error;
use plotters::prelude::IntoDrawingArea;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct DrawOptions {
    dark: Option<bool>,
    dpr: Option<f64>,
}

#[derive(Serialize)]
struct Drawn {
    csv: String,
    table: Option<algorithms::Table>,
}

/// Draws `chart` (`{kind, data}` from `session.chartData`) on `canvas`, whose backing store
/// the caller sized to its CSS size × `dpr`.
#[wasm_bindgen(js_name = drawChart)]
pub fn draw_chart(canvas: JsValue, chart: JsValue, opts: JsValue) -> Result<JsValue, JsValue> {
    let canvas: web_sys::HtmlCanvasElement =
        canvas.dyn_into().map_err(|_| bad_argument("drawChart needs a <canvas> element".into()))?;
    if !chart.is_object() {
        return Err(bad_argument("drawChart needs a chart: what session.chartData(kind) returned".into()));
    }
    let chart: SessionChart = serde_wasm_bindgen::from_value(super::plain(&chart, "the chart")?)
        .map_err(|e| error(Error::InvalidOption(format!("that is not a chart from session.chartData: {e}"))))?;
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
    let area = MeasuringCanvas::new(canvas)
        .ok_or_else(|| bad_argument("that canvas has no 2D context".into()))?
        .into_drawing_area();
    let drawn = match &chart {
        SessionChart::Spread(d) => draw(&area, d, &theme, None),
        SessionChart::Shares(d) => draw(&area, d, &theme, None),
        SessionChart::Moves(d) => draw(&area, d, &theme, None),
        SessionChart::Algorithms(d) => draw(&area, d, &theme, Some(algorithms::table(d))),
    }?;
    to_js(&drawn)
}

fn draw<C: Chart>(
    area: &plotters::prelude::DrawingArea<MeasuringCanvas, plotters::coord::Shift>,
    chart: &C,
    theme: &Theme,
    table: Option<algorithms::Table>,
) -> Result<Drawn, JsValue> {
    charts::draw(area, chart, theme).map_err(error)?;
    Ok(Drawn { csv: chart.csv(), table })
}
