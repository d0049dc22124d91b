//! How wide a chart's text is where nothing can measure it: an SVG drawn in Node or a script,
//! with no canvas and no page.
//!
//! On a canvas the charts measure their labels with the canvas's own `measureText`
//! (`src/web/canvas.rs`). An SVG is laid out before any viewer picks its font, so its label
//! areas are sized from the advance widths of DejaVu Sans 2.37 (its `hmtx` table over its
//! 2,048 units an em, in thousandths of an em): the default sans-serif on Linux, and the
//! widest of the common ones (Arial, Helvetica and Liberation Sans are about 14% narrower), so
//! that a label is never clipped wherever the SVG is viewed. A character outside ASCII counts
//! as a digit, and one of the wide scripts (CJK, from U+2E80) as a whole em.

/// The advance widths of ASCII 32 (space) to 126 (`~`), in thousandths of an em.
const DEJAVU_SANS: [u16; 95] = [
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, // ' ' to '/'
    636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, // '0' to '?'
    1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, // '@' to 'O'
    603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, // 'P' to '_'
    500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, // '`' to 'o'
    635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838, // 'p' to '~'
];

/// A digit's width: what a character outside ASCII counts as.
const OTHER: u16 = 636;
/// An ideograph's or a kana's width.
const WIDE: u16 = 1000;

/// The width of `text` set in a sans-serif font of `em` pixels, in pixels.
pub fn sans_width(text: &str, em: f64) -> f64 {
    let thousandths: u32 = text
        .chars()
        .map(|c| match c {
            ' '..='~' => u32::from(DEJAVU_SANS[c as usize - 32]),
            c if c.is_control() => 0,
            '\u{2e80}'.. => u32::from(WIDE),
            _ => u32::from(OTHER),
        })
        .sum();
    f64::from(thousandths) * em / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_dejavu_sans() {
        // DejaVuSans.ttf's hmtx over 2,048 units: "i" 569, "m" 1995, "W" 2025, "0" 1303,
        // space 651.
        assert_eq!(sans_width("i", 1000.0), 278.0);
        assert_eq!(sans_width("m", 1000.0), 974.0);
        assert_eq!(sans_width("W", 1000.0), 989.0);
        assert_eq!(sans_width("0 0", 1000.0), 636.0 + 318.0 + 636.0);
        assert_eq!(sans_width("~", 1000.0), 838.0);
        // "libmemcached-weighted" at 1,000 px: 12,333 px as Chromium's canvas measures it in
        // DejaVu Sans, within the rounding of 21 widths.
        assert!((sans_width("libmemcached-weighted", 1000.0) - 12333.0).abs() <= 11.0);
    }

    #[test]
    fn text_outside_ascii_counts_as_digits_wide_scripts_as_ems_and_controls_as_nothing() {
        assert_eq!(sans_width("×", 1000.0), 636.0);
        assert_eq!(sans_width("ノード", 10.0), 30.0);
        assert_eq!(sans_width("a\u{7}\n", 1000.0), 613.0);
        assert_eq!(sans_width("", 12.0), 0.0);
    }
}
