//! The colours of the page, the embed and the charts, in one place.
//!
//! Node `i` is drawn in [`PALETTE`]`[colour % 16]`, where the colour slot is the session's
//! (stable while the node stays). The page's CSS custom properties are generated from
//! [`LIGHT`] and [`DARK`] by [`css`] at build time (`www/pkg/theme.css`), the embed asks the
//! binding for the same text, and the charts build their plotters theme from them.
//!
//! ```
//! let css = ringlab::theme::css(ringlab::theme::Scope::Page);
//! assert!(css.contains("--bg: #ffffff;") && css.contains("--node-0: #E69F00;"));
//! ```

/// Node colours: Okabe–Ito, then Paul Tol's muted scheme, distinguishable with common
/// colour-vision deficiencies.
pub const PALETTE: [&str; 16] = [
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999", "#332288", "#88CCEE",
    "#44AA99", "#117733", "#DDCC77", "#CC6677", "#AA4499", "#882255",
];

/// One theme's colours, as `#rrggbb`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Colours {
    pub bg: &'static str,
    pub fg: &'static str,
    /// Secondary text, axes, reference curves.
    pub muted: &'static str,
    pub panel: &'static str,
    /// Borders and grid lines.
    pub line: &'static str,
    pub accent: &'static str,
    pub error: &'static str,
    /// The marks beside moved arcs.
    pub moved: &'static str,
    /// A chart's main series and its contrasting one.
    pub primary: &'static str,
    pub secondary: &'static str,
}

pub const LIGHT: Colours = Colours {
    bg: "#ffffff",
    fg: "#1b1b1f",
    muted: "#545461",
    panel: "#f4f4f7",
    line: "#c9c9d3",
    accent: "#0b57d0",
    error: "#b3261e",
    moved: "#1b1b1f",
    primary: "#0072B2",
    secondary: "#D55E00",
};

pub const DARK: Colours = Colours {
    bg: "#121216",
    fg: "#ececf1",
    muted: "#b4b4c0",
    panel: "#1d1d24",
    line: "#3a3a46",
    accent: "#8ab4f8",
    error: "#ffb4ab",
    moved: "#ffffff",
    // The lighter Okabe–Ito blue and orange keep their contrast on a dark background.
    primary: "#56B4E9",
    secondary: "#E69F00",
};

impl Colours {
    fn pairs(&self) -> [(&'static str, &'static str); 10] {
        [
            ("bg", self.bg),
            ("fg", self.fg),
            ("muted", self.muted),
            ("panel", self.panel),
            ("line", self.line),
            ("accent", self.accent),
            ("error", self.error),
            ("moved", self.moved),
            ("primary", self.primary),
            ("secondary", self.secondary),
        ]
    }
}

/// Where the CSS of [`css`] applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The page: `:root`, forced with `<html data-theme="dark|light">`.
    Page,
    /// The `<hash-ring>` element's shadow root: `:host`, forced with its `theme` attribute,
    /// or with the custom state `dark` / `light` its script sets under `theme="auto"`.
    Element,
}

/// The colours as CSS custom properties: light by default, dark under
/// `prefers-color-scheme: dark`, and either one when forced (see [`Scope`]).
pub fn css(scope: Scope) -> String {
    let (selector, forced): (&str, fn(&str) -> String) = match scope {
        Scope::Page => (":root", |t: &str| format!(":root[data-theme=\"{t}\"]")),
        Scope::Element => (":host", |t: &str| format!(":host([theme=\"{t}\"])")),
    };
    let block = |colours: &Colours| {
        let mut out = String::new();
        for (name, value) in colours.pairs() {
            out.push_str(&format!("  --{name}: {value};\n"));
        }
        out
    };
    let mut nodes = String::new();
    for (i, colour) in PALETTE.iter().enumerate() {
        nodes.push_str(&format!("  --node-{i}: {colour};\n"));
    }
    let light = block(&LIGHT);
    let dark = block(&DARK);
    // With `theme="auto"` the element resolves its host page's own toggles (`html.dark`,
    // `[data-theme]`, mdBook's classes) in JS and shows the result as a custom state.
    let resolved = match scope {
        Scope::Page => String::new(),
        Scope::Element => format!(
            ":host(:state(dark)) {{\n  color-scheme: dark;\n{dark}}}\n\
             :host(:state(light)) {{\n  color-scheme: light;\n{light}}}\n"
        ),
    };
    let css = format!(
        "/* Generated from src/theme.rs: edit the colours there. */\n\
         {selector} {{\n  color-scheme: light dark;\n{light}{nodes}}}\n\
         @media (prefers-color-scheme: dark) {{\n{selector} {{\n{dark}}}\n}}\n\
         {} {{\n  color-scheme: dark;\n{dark}}}\n\
         {} {{\n  color-scheme: light;\n{light}}}\n",
        forced("dark"),
        forced("light")
    );
    css + &resolved
}

/// `#rrggbb` as bytes (the palette and themes above are all of this form).
pub const fn rgb(hex: &str) -> Option<[u8; 3]> {
    let b = hex.as_bytes();
    if b.len() != 7 || b[0] != b'#' {
        return None;
    }
    let mut rgb = [0u8; 3];
    let mut i = 0;
    while i < 3 {
        let (Some(hi), Some(lo)) = (hex_digit(b[1 + 2 * i]), hex_digit(b[2 + 2 * i])) else {
            return None;
        };
        rgb[i] = hi * 16 + lo;
        i += 1;
    }
    Some(rgb)
}

const fn hex_digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_colour_is_rrggbb() {
        for colours in [LIGHT, DARK] {
            for (name, value) in colours.pairs() {
                assert!(rgb(value).is_some(), "{name}: {value}");
            }
        }
        assert!(PALETTE.iter().all(|c| rgb(c).is_some()));
        assert_eq!(rgb("#0b57D0"), Some([0x0b, 0x57, 0xd0]));
        for bad in ["", "0b57d0", "#0b57d", "#0b57dz", "#0b57d0ff"] {
            assert_eq!(rgb(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn css_has_both_themes_and_the_palette() {
        let css = css(Scope::Element);
        assert!(css.contains(":host {\n  color-scheme: light dark;\n  --bg: #ffffff;"));
        assert!(css.contains("@media (prefers-color-scheme: dark) {\n:host {\n  --bg: #121216;"));
        assert!(css.contains(":host([theme=\"light\"]) {\n  color-scheme: light;\n  --bg: #ffffff;"));
        assert!(
            super::css(Scope::Page).contains(":root[data-theme=\"dark\"] {\n  color-scheme: dark;\n  --bg: #121216;")
        );
        assert_eq!(css.matches("--node-").count(), 16);
        assert!(css.contains(":host(:state(dark)) {\n  color-scheme: dark;\n  --bg: #121216;"));
        assert!(css.contains(":host(:state(light)) {\n  color-scheme: light;\n  --bg: #ffffff;"));
        assert_eq!(css.matches("--bg:").count(), 6);
        assert_eq!(super::css(Scope::Page).matches("--bg:").count(), 4);
    }

    /// Text on the background reaches WCAG AA (4.5:1) in both themes.
    #[test]
    fn text_colours_have_contrast() {
        fn luminance(hex: &str) -> f64 {
            let [r, g, b] = rgb(hex).unwrap().map(|c| {
                let c = f64::from(c) / 255.0;
                if c <= 0.03928 {
                    c / 12.92
                } else {
                    ((c + 0.055) / 1.055).powf(2.4)
                }
            });
            0.2126 * r + 0.7152 * g + 0.0722 * b
        }
        let ratio = |a: &str, b: &str| {
            let (x, y) = (luminance(a), luminance(b));
            (x.max(y) + 0.05) / (x.min(y) + 0.05)
        };
        for c in [LIGHT, DARK] {
            for text in [c.fg, c.muted, c.accent, c.error] {
                assert!(ratio(text, c.bg) >= 4.5, "{text} on {}: {:.2}", c.bg, ratio(text, c.bg));
            }
        }
    }
}
