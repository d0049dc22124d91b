//! Argument shapes both `Ring` and `Session` read.

use crate::NodeSpec;
use serde::Deserialize;

/// A node given as `"name"` or `{name, weight, zone}`.
pub(crate) enum NodeArg {
    Name(String),
    Spec { name: String, weight: Option<f64>, zone: Option<String> },
}

/// `{name, weight, zone}`.
#[derive(Deserialize)]
struct Spec {
    name: String,
    weight: Option<f64>,
    zone: Option<String>,
}

/// By the value's type, a string or an object. (serde's `untagged` would say the same, but it
/// buffers each value first and tries each form in turn: more code in every module.)
impl<'de> Deserialize<'de> for NodeArg {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<NodeArg, D::Error> {
        struct Either;
        impl<'de> serde::de::Visitor<'de> for Either {
            type Value = NodeArg;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a name or {name, weight, zone}")
            }
            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<NodeArg, E> {
                Ok(NodeArg::Name(name.to_string()))
            }
            fn visit_string<E: serde::de::Error>(self, name: String) -> Result<NodeArg, E> {
                Ok(NodeArg::Name(name))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<NodeArg, A::Error> {
                let Spec { name, weight, zone } = Spec::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(NodeArg::Spec { name, weight, zone })
            }
        }
        deserializer.deserialize_any(Either)
    }
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
