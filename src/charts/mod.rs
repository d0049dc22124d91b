//! Charts, drawn with plotters on any backend (an HTML canvas in the page, SVG natively).
