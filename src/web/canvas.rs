//! The one plotters backend the charts module draws on: a canvas that measures text with its
//! own `measureText`, or an SVG sized from a font's advance widths. One type, so the charts'
//! drawing code is compiled once for both (a second backend type compiled all of it twice).
//!
//! plotters' web font code measures text by adding a `<span>` with a `style` attribute to the
//! page: a strict Content-Security-Policy (`style-src 'self'`) blocks that attribute, so the
//! span is measured unstyled and chart labels are laid out wrong (and a violation is
//! reported); in Node there is no page at all, and it panics. A canvas knows its fonts and
//! needs no DOM; an SVG has no font until it is viewed ([`crate::charts::text`]). Everything
//! else is plotters' canvas or SVG backend's.

use plotters::prelude::SVGBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind, FontStyle,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// A chart's drawing surface.
pub(crate) enum Surface<'a> {
    Canvas(CanvasBackend, CanvasRenderingContext2d),
    Svg(SVGBackend<'a>),
}

impl<'a> Surface<'a> {
    /// The canvas's surface, if it has a 2D context.
    pub(crate) fn canvas(canvas: HtmlCanvasElement) -> Option<Surface<'a>> {
        let context = canvas.get_context("2d").ok()??.dyn_into::<CanvasRenderingContext2d>().ok()?;
        Some(Surface::Canvas(CanvasBackend::with_canvas_object(canvas)?, context))
    }

    /// An SVG of `size` pixels written into `out`.
    pub(crate) fn svg(out: &'a mut String, size: (u32, u32)) -> Surface<'a> {
        Surface::Svg(SVGBackend::with_string(out, size))
    }
}

/// Either backend's error, as its message.
#[derive(Debug)]
pub(crate) struct SurfaceError(String);

impl std::fmt::Display for SurfaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SurfaceError {}

fn lift<E: std::error::Error + Send + Sync>(e: DrawingErrorKind<E>) -> DrawingErrorKind<SurfaceError> {
    match e {
        DrawingErrorKind::DrawingError(e) => DrawingErrorKind::DrawingError(SurfaceError(e.to_string())),
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    }
}

/// Calls the same method on whichever backend the surface is.
macro_rules! each {
    ($self:ident, $b:ident => $call:expr) => {
        match $self {
            Surface::Canvas($b, _) => $call.map_err(lift),
            Surface::Svg($b) => $call.map_err(lift),
        }
    };
}

type Drawn = Result<(), DrawingErrorKind<SurfaceError>>;

impl DrawingBackend for Surface<'_> {
    type ErrorType = SurfaceError;

    fn get_size(&self) -> (u32, u32) {
        match self {
            Surface::Canvas(b, _) => b.get_size(),
            Surface::Svg(b) => b.get_size(),
        }
    }
    fn ensure_prepared(&mut self) -> Drawn {
        each!(self, b => b.ensure_prepared())
    }
    fn present(&mut self) -> Drawn {
        each!(self, b => b.present())
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn {
        each!(self, b => b.draw_pixel(point, color))
    }
    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Drawn {
        each!(self, b => b.draw_line(from, to, style))
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn {
        each!(self, b => b.draw_rect(upper_left, bottom_right, style, fill))
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, path: I, style: &S) -> Drawn {
        each!(self, b => b.draw_path(path, style))
    }
    fn draw_circle<S: BackendStyle>(&mut self, center: BackendCoord, radius: u32, style: &S, fill: bool) -> Drawn {
        each!(self, b => b.draw_circle(center, radius, style, fill))
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, vert: I, style: &S) -> Drawn {
        each!(self, b => b.fill_polygon(vert, style))
    }
    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, pos: BackendCoord) -> Drawn {
        each!(self, b => b.draw_text(text, style, pos))
    }

    /// On a canvas, the text's width from `measureText` in the font the canvas backend draws
    /// with (`{size}px`). In an SVG, DejaVu Sans's advance widths at the size plotters' SVG
    /// backend writes (`font-size` is the style's size over 1.24). The height is the font's
    /// line box (1.2 × its size, as a browser lays out `line-height: normal`).
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<SurfaceError>> {
        let (size, family) = (style.size(), style.family());
        match self {
            Surface::Canvas(_, context) => {
                let slant = match style.style() {
                    FontStyle::Normal => "",
                    FontStyle::Oblique => "oblique ",
                    FontStyle::Italic => "italic ",
                    FontStyle::Bold => "bold ",
                };
                context.set_font(&format!("{slant}{size}px {}", family.as_str()));
                let width = context.measure_text(text).map(|m| m.width()).unwrap_or(0.0);
                Ok((width.ceil().max(0.0) as u32, (size * 1.2).ceil() as u32))
            }
            Surface::Svg(_) => {
                let em = size / 1.24;
                Ok((crate::charts::text::sans_width(text, em).ceil() as u32, (em * 1.2).ceil() as u32))
            }
        }
    }
}
