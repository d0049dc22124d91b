//! `cargo xtask bundle`: the `<hash-ring>` element as one folder a writer copies to a site, for
//! sites with no build of their own: `www/bundle/ringlab-element-VERSION/` (the element, the
//! modules it imports, its wasm builds and the iframe form with its CSS, both licenses; the
//! scripts minified, `minify.rs`), and
//! the same folder as `www/bundle/ringlab-element-VERSION.zip`, from the build in `www/pkg/`
//! (`cargo xtask build` first; the bundle does not build again). The Pages workflow runs both,
//! so the site serves the bundle at a versioned path (docs.html says how to use it). The
//! element's own styles are inside `hash-ring.js`: it needs no stylesheet.

use crate::minify::ELEMENT_SCRIPTS;
use crate::package::relative_imports;
use crate::step::{announce, Failure};
use crate::tools;
use std::io::Write;
use std::path::{Path, PathBuf};

const STEP: &str = "element bundle";

/// Every file of the bundle, as in `www/` (so the relative imports and URLs hold): the
/// element's scripts (`minify::ELEMENT_SCRIPTS`), then these.
const OTHER_FILES: [&str; 9] = [
    "pkg/ringlab_element_bg.wasm",
    "pkg/ringlab_charts.js",
    "pkg/ringlab_charts_bg.wasm",
    // The iframe form, for platforms that strip scripts.
    "embed.html",
    "embed.js",
    "embed.css",
    "pkg/theme.css",
    "../LICENSE-MIT",
    "../LICENSE-APACHE",
];

fn files() -> impl Iterator<Item = &'static str> {
    ELEMENT_SCRIPTS.into_iter().chain(OTHER_FILES)
}

/// `cargo xtask bundle`: the bundle from the existing build.
pub fn run() -> Result<(), Failure> {
    tools::announce_checks();
    tools::for_build()?; // terser, from the build tools' lock
    let (dir, zip) = write()?;
    println!("\nbundle: {} and {}", dir.display(), zip.display());
    Ok(())
}

/// Writes the bundle from an existing build of `www/pkg/`: its folder and its zip.
pub fn write() -> Result<(PathBuf, PathBuf), Failure> {
    announce(STEP);
    let fail = |e: String| Failure::new(STEP, e);
    let version = crate::package::cargo_field("version")?;
    let name = format!("ringlab-element-{version}");
    let root = Path::new("www/bundle");
    if root.exists() {
        std::fs::remove_dir_all(root).map_err(|e| fail(format!("{}: {e}", root.display())))?;
    }
    let dir = root.join(&name);
    std::fs::create_dir_all(dir.join("pkg")).map_err(|e| fail(e.to_string()))?;
    for file in files() {
        let from = Path::new("www").join(file);
        let to = dir.join(file.trim_start_matches("../"));
        std::fs::copy(&from, &to)
            .map_err(|e| fail(format!("copy {}: {e} (run cargo xtask build first)", from.display())))?;
    }
    // Minified as the package's are, with the iframe form's script and the charts' glue.
    let mut scripts = ELEMENT_SCRIPTS.to_vec();
    scripts.extend(["pkg/ringlab_charts.js", "embed.js"]);
    println!("    {}", crate::minify::in_place(&dir, &scripts).map_err(fail)?);
    // Every relative import of its scripts names a file of the bundle.
    for file in files().filter(|f| f.ends_with(".js")) {
        let path = dir.join(file);
        let source = std::fs::read_to_string(&path).map_err(|e| fail(e.to_string()))?;
        for import in relative_imports(&source) {
            if !path.parent().unwrap_or(&dir).join(&import).is_file() {
                return Err(fail(format!("{file} imports {import:?}, which the bundle does not have")));
            }
        }
    }
    let zip = root.join(format!("{name}.zip"));
    write_zip(&dir, &name, &zip).map_err(|e| fail(format!("{}: {e}", zip.display())))?;
    let bytes = std::fs::metadata(&zip).map(|m| m.len()).unwrap_or(0);
    println!("    {}: {} files; {}: {bytes} bytes", dir.display(), files().count(), zip.display());
    Ok((dir, zip))
}

/// The folder as a zip whose entries sit under `name/` (unzipped, it is the folder again).
fn write_zip(dir: &Path, name: &str, to: &Path) -> std::io::Result<()> {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(to)?);
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for file in files() {
        let file = file.trim_start_matches("../");
        zip.start_file(format!("{name}/{file}"), options)?;
        zip.write_all(&std::fs::read(dir.join(file))?)?;
    }
    zip.finish()?;
    Ok(())
}
