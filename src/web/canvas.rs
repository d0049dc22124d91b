//! plotters backends that measure text without plotters' web font code: a canvas that
//! measures with its own `measureText`, and an SVG sized from a font's advance widths.
//!
//! plotters' web font code measures text by adding a `<span>` with a `style` attribute to the
//! page: a strict Content-Security-Policy (`style-src 'self'`) blocks that attribute, so the
//! span is measured unstyled and chart labels are laid out wrong (and a violation is
//! reported); in Node there is no page at all, and it panics. A canvas knows its fonts and
//! needs no DOM; an SVG has no font until it is viewed ([`crate::charts::text`]). Everything
//! else is the inner backend's.

use plotters::prelude::SVGBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind, FontStyle,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// How a backend's text is measured: `(width, height)` in its pixels.
pub(crate) trait MeasureText {
    fn measure(&self, text: &str, family: &str, size: f64, style: FontStyle) -> (u32, u32);
}

/// `inner`, with its text measured by `measure`.
pub(crate) struct Measured<B, M> {
    inner: B,
    measure: M,
}

/// A canvas's own `measureText`, in the font the canvas backend draws with (`{size}px`); the
/// height is the font's line box (1.2 × its size, as a browser lays out `line-height: normal`).
pub(crate) struct CanvasText(CanvasRenderingContext2d);

impl MeasureText for CanvasText {
    fn measure(&self, text: &str, family: &str, size: f64, style: FontStyle) -> (u32, u32) {
        let slant = match style {
            FontStyle::Normal => "",
            FontStyle::Oblique => "oblique ",
            FontStyle::Italic => "italic ",
            FontStyle::Bold => "bold ",
        };
        self.0.set_font(&format!("{slant}{size}px {family}"));
        let width = self.0.measure_text(text).map(|m| m.width()).unwrap_or(0.0);
        (width.ceil().max(0.0) as u32, (size * 1.2).ceil() as u32)
    }
}

/// Helvetica's advance widths at the size plotters' SVG backend writes (`font-size` is the
/// style's size over 1.24), with the same line box as the canvas.
pub(crate) struct SvgText;

impl MeasureText for SvgText {
    fn measure(&self, text: &str, _family: &str, size: f64, _style: FontStyle) -> (u32, u32) {
        let em = size / 1.24;
        (crate::charts::text::sans_width(text, em).ceil() as u32, (em * 1.2).ceil() as u32)
    }
}

pub(crate) type MeasuringCanvas = Measured<CanvasBackend, CanvasText>;

impl MeasuringCanvas {
    pub(crate) fn new(canvas: HtmlCanvasElement) -> Option<MeasuringCanvas> {
        let context = canvas.get_context("2d").ok()??.dyn_into::<CanvasRenderingContext2d>().ok()?;
        Some(Measured { inner: CanvasBackend::with_canvas_object(canvas)?, measure: CanvasText(context) })
    }
}

pub(crate) type MeasuredSvg<'a> = Measured<SVGBackend<'a>, SvgText>;

impl<'a> MeasuredSvg<'a> {
    /// An SVG of `size` pixels written into `out`.
    pub(crate) fn with_string(out: &'a mut String, size: (u32, u32)) -> MeasuredSvg<'a> {
        Measured { inner: SVGBackend::with_string(out, size), measure: SvgText }
    }
}

impl<B: DrawingBackend, M: MeasureText> DrawingBackend for Measured<B, M> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.present()
    }
    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.fill_polygon(vert, style)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_text(text, style, pos)
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        Ok(self.measure.measure(text, style.family().as_str(), style.size(), style.style()))
    }
}
