//! A plotters canvas backend that measures text with the canvas's own `measureText`.
//!
//! plotters' web font code measures text by adding a `<span>` with a `style` attribute to the
//! page: a strict Content-Security-Policy (`style-src 'self'`) blocks that attribute, so the
//! span is measured unstyled and chart labels are laid out wrong (and a violation is
//! reported). The canvas knows its fonts and needs no DOM: everything else is the plotters
//! canvas backend's.

use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind, FontStyle,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

type Error = <CanvasBackend as DrawingBackend>::ErrorType;

pub(crate) struct MeasuringCanvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
}

impl MeasuringCanvas {
    pub(crate) fn new(canvas: HtmlCanvasElement) -> Option<MeasuringCanvas> {
        let context = canvas.get_context("2d").ok()??.dyn_into::<CanvasRenderingContext2d>().ok()?;
        Some(MeasuringCanvas { inner: CanvasBackend::with_canvas_object(canvas)?, context })
    }
}

impl DrawingBackend for MeasuringCanvas {
    type ErrorType = Error;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.fill_polygon(vert, style)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_text(text, style, pos)
    }

    /// The text's width from `measureText` in the font `draw_text` uses; its height is the
    /// font's line box (1.2 × its size, as a browser lays out `line-height: normal`).
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Error>> {
        let slant = match style.style() {
            FontStyle::Normal => "",
            FontStyle::Oblique => "oblique ",
            FontStyle::Italic => "italic ",
            FontStyle::Bold => "bold ",
        };
        self.context.set_font(&format!("{slant}{}px {}", style.size(), style.family().as_str()));
        let width = self.context.measure_text(text).map(|m| m.width()).unwrap_or(0.0);
        Ok((width.ceil().max(0.0) as u32, (style.size() * 1.2).ceil() as u32))
    }
}
