//! The element's scripts as a writer's page downloads them: minified (terser, from
//! `xtask/package.json`'s lock) in the npm package and in the bundle, the two ways docs.html
//! gives to embed `<hash-ring>`. The site's own pages load `www/` as written, which stays the
//! readable source. Every embed downloads the element's JavaScript beside its wasm, and
//! minified it weighs about half what the readable source does.

use std::path::Path;
use std::process::Command;

/// What a page with `<hash-ring>` loads of JavaScript, beside the wasm: the element, what it
/// imports, and its module's wasm-bindgen glue.
/// (The iframe form and the charts' glue are minified in the bundle too: `bundle.rs`.)
pub const ELEMENT_SCRIPTS: [&str; 6] =
    ["hash-ring.js", "sequence.js", "ring-view.js", "host.js", "charts-module.js", "pkg/ringlab_element.js"];

/// Minifies `files` (paths under `dir`) in place; fails naming the file terser could not
/// read, or the one that lost a bundler's magic comment (`xtask/minify.mjs`).
pub fn in_place(dir: &Path, files: &[&str]) -> Result<String, String> {
    let before: u64 = files.iter().map(|f| size(&dir.join(f))).sum();
    let out = Command::new("node")
        .arg("xtask/minify.mjs")
        .args(files.iter().map(|f| dir.join(f)))
        .output()
        .map_err(|e| format!("could not start node xtask/minify.mjs: {e}"))?;
    if !out.status.success() {
        return Err(format!("minify: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    let after: u64 = files.iter().map(|f| size(&dir.join(f))).sum();
    Ok(format!("{} scripts minified: {before} -> {after} bytes", files.len()))
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}
