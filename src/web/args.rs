//! Argument shapes both `Ring` and `Session` read.

use crate::NodeSpec;
use serde::Deserialize;

/// A node given as `"name"` or `{name, weight, zone}`.
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum NodeArg {
    Name(String),
    Spec { name: String, weight: Option<f64>, zone: Option<String> },
}

impl From<NodeArg> for NodeSpec {
    fn from(arg: NodeArg) -> NodeSpec {
        match arg {
            NodeArg::Name(name) => NodeSpec::new(name),
            NodeArg::Spec { name, weight, zone } => NodeSpec { name, weight: weight.unwrap_or(1.0), zone },
        }
    }
}

/// `add(name, {weight, zone})`'s options.
#[derive(Deserialize, Default)]
pub(crate) struct AddOptions {
    pub(crate) weight: Option<f64>,
    pub(crate) zone: Option<String>,
}
