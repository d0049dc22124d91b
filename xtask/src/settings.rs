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
    pub target: String,
    /// Cargo features of the package for the tests, on top of its default ones.
    #[serde(default)]
    pub test_features: Vec<String>,
    /// The wasm modules the page loads, each a build of the package; the first is the one
    /// the page (and the tests' size budget) loads at once.
    #[serde(rename = "module")]
    pub modules: Vec<Module>,
}

/// One wasm module: `{out-dir}/{out-name}.js` and `{out-name}_bg.wasm`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Module {
    pub out_name: String,
    #[serde(default)]
    pub features: Vec<String>,
    #[serde(default = "yes")]
    pub default_features: bool,
    /// The cargo profile this module is compiled with (`[build]`'s `profile` when unset).
    #[serde(default)]
    pub profile: Option<String>,
    /// wasm-opt flags for this module, after `[wasm-opt]`'s.
    #[serde(default)]
    pub wasm_opt_flags: Vec<String>,
    /// A second wasm-opt run on the first one's output, with these flags after `[wasm-opt]`'s
    /// (none when empty). The first run then keeps the function names (`-g`), so that this
    /// one's name patterns (`--no-inline=*::*`) can match; this one drops them.
    #[serde(default)]
    pub wasm_opt_then: Vec<String>,
}

impl Module {
    /// This module's cargo profile.
    pub fn profile<'a>(&'a self, build: &'a Build) -> &'a str {
        self.profile.as_deref().unwrap_or(&build.profile)
    }
}

fn yes() -> bool {
    true
}

/// `--features p/a,p/b` (nothing when there are none), named by package so the flag also
/// holds when other packages are selected.
fn features(package: &str, features: &[String]) -> Vec<String> {
    if features.is_empty() {
        Vec::new()
    } else {
        let named: Vec<String> = features.iter().map(|f| format!("{package}/{f}")).collect();
        vec!["--features".into(), named.join(",")]
    }
}

impl Build {
    /// The tests' feature flags.
    pub fn feature_args(&self) -> Vec<String> {
        features(&self.package, &self.test_features)
    }

    /// `module`'s feature flags for cargo build.
    pub fn module_args(&self, module: &Module) -> Vec<String> {
        let mut args = features(&self.package, &module.features);
        if !module.default_features {
            args.push("--no-default-features".into());
        }
        args
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
    let settings: Settings = toml::from_str(&text).map_err(|e| Failure::new(step, e.to_string()))?;
    if settings.build.modules.is_empty() {
        return Err(Failure::new(step, "[[build.module]]: at least one module"));
    }
    Ok(settings)
}
