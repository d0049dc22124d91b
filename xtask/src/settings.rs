//! `wasm-pack.toml`: the one place for the wasm build's settings.

use crate::step::Failure;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub build: Build,
    #[serde(rename = "wasm-opt")]
    pub wasm_opt: WasmOpt,
    pub serve: Serve,
    pub test: Test,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Build {
    pub package: String,
    pub profile: String,
    pub out_dir: String,
    pub out_name: String,
    pub target: String,
    /// Cargo features of the package, for the wasm build and the tests.
    #[serde(default)]
    pub features: Vec<String>,
}

impl Build {
    /// `--features a,b` (nothing when there are none).
    pub fn feature_args(&self) -> Vec<String> {
        if self.features.is_empty() {
            Vec::new()
        } else {
            // Named by package, so the flag also holds when other packages are selected.
            let named: Vec<String> = self.features.iter().map(|f| format!("{}/{f}", self.package)).collect();
            vec!["--features".into(), named.join(",")]
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WasmOpt {
    pub flags: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Serve {
    pub host: String,
    pub port: u16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Test {
    pub browsers: Vec<String>,
}

pub fn load() -> Result<Settings, Failure> {
    let step = "read wasm-pack.toml";
    let text = std::fs::read_to_string("wasm-pack.toml").map_err(|e| Failure::new(step, e.to_string()))?;
    toml::from_str(&text).map_err(|e| Failure::new(step, e.to_string()))
}
