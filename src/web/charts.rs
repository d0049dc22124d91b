//! `session.drawChart(canvas, kind, {dark, dpr, band, lookupNs})`: one of the session's
//! charts drawn by plotters on a canvas; returns `{csv, table}` (`table` for the algorithms
//! chart: `{caption, headers, rows}`, else `null`). `session.prepareChart(kind, {band})`
//! computes one piece of a chart's data per call (`true` when complete), so a page can
//! spread a chart's work over several short tasks before `drawChart` only draws.

use super::canvas::MeasuringCanvas;
use super::session::Session;
use super::{bad_argument, error, options, to_js};
use crate::charts::{self, algorithms, Chart, Theme};
use crate::session::SessionChart;
use plotters::prelude::IntoDrawingArea;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct DrawOptions {
    dark: Option<bool>,
    dpr: Option<f64>,
    band: Option<bool>,
    lookup_ns: Option<Vec<f64>>,
}

#[derive(Serialize)]
struct Drawn {
    csv: String,
    table: Option<algorithms::Table>,
}

#[wasm_bindgen]
impl Session {
    /// Draws chart `kind` (`spread`, `shares`, `moves`, `algorithms`) on `canvas`, whose
    /// backing store the caller sized to its CSS size × `dpr`.
    #[wasm_bindgen(js_name = drawChart)]
    pub fn draw_chart(&self, canvas: JsValue, kind: JsValue, opts: JsValue) -> Result<JsValue, JsValue> {
        let canvas: web_sys::HtmlCanvasElement =
            canvas.dyn_into().map_err(|_| bad_argument("drawChart needs a <canvas> element".into()))?;
        let kind = super::string(&kind, "the chart kind")?;
        let o: DrawOptions = options(&opts, &["dark", "dpr", "band", "lookupNs"])?;
        let theme = if o.dark.unwrap_or(false) { Theme::dark() } else { Theme::light() };
        let theme = theme.scaled(o.dpr.unwrap_or(1.0));
        let lookup: Vec<Option<f64>> =
            o.lookup_ns.unwrap_or_default().into_iter().map(|x| Some(x).filter(|x| x.is_finite())).collect();
        let chart = self.inner.chart(&kind, o.band.unwrap_or(false), &lookup).map_err(error)?;
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
}

#[wasm_bindgen]
impl Session {
    /// One piece of chart `kind`'s data for the current state (one hash's sweep, one
    /// cluster size, one algorithm's row), kept for `drawChart`: `true` once complete. Any
    /// change to the session drops what was prepared.
    #[wasm_bindgen(js_name = prepareChart)]
    pub fn prepare_chart(&mut self, kind: JsValue, opts: JsValue) -> Result<bool, JsValue> {
        let kind = super::string(&kind, "the chart kind")?;
        let o: DrawOptions = options(&opts, &["band"])?;
        self.inner.prepare_chart(&kind, o.band.unwrap_or(false)).map_err(error)
    }
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
