//! What a picker or a drawing lists, for the page, the `<hash-ring>` element and its docs:
//! the algorithms' and hashes' names, the node colours, the element's theme.

use crate::algo::Algorithm;
use wasm_bindgen::prelude::*;

/// The algorithms' names, for a picker.
#[wasm_bindgen]
pub fn algorithms() -> Vec<String> {
    crate::work::call(|| Algorithm::ALL.iter().map(|a| a.name().to_string()).collect())
}

/// The hash functions' names, for a picker.
#[wasm_bindgen]
pub fn hashes() -> Vec<String> {
    crate::work::call(|| crate::Hash::ALL.iter().map(|h| h.name().to_string()).collect())
}

/// The node colours (`#rrggbb`); node colour slot `i` is `palette()[i % 16]`.
#[wasm_bindgen]
pub fn palette() -> Vec<String> {
    crate::work::call(|| crate::theme::PALETTE.iter().map(|c| c.to_string()).collect())
}

/// The theme's CSS custom properties for the `<hash-ring>` element's shadow root (`:host`).
#[wasm_bindgen(js_name = elementThemeCss)]
pub fn element_theme_css() -> String {
    crate::work::call(|| crate::theme::css(crate::theme::Scope::Element))
}
