//! Options: the settings an algorithm is made with, each declared once, by the algorithm that
//! reads it, as an [`OptionSpec`] (its name, type, default, range and one line of help).
//!
//! The JS binding, the share link, the page's controls and the TypeScript types all read these
//! declarations instead of listing options themselves: `new Ring({tableSize: 251})` is
//! converted by the spec named `tableSize`, a link carries it in the spec's `link` field, and
//! the page draws a number field for it with the spec's range and help.
//!
//! ```
//! use ringlab::algo::{Algorithm, OptionValue, Options};
//! let mut options = Options::new(Algorithm::Maglev);
//! options.set("tableSize", OptionValue::Whole(251))?;
//! assert_eq!(options.get("tableSize"), Some(OptionValue::Whole(251)));
//! assert_eq!(options.set("tableSize", OptionValue::Flag(true)).unwrap_err().code(), "invalid-option");
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::Algorithm;
use crate::decimal::shortest;
use crate::keys::KeySample;
use crate::{Config, Error, Hash, RingBits};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Settings for [`Cluster::new`](super::Cluster::new): the algorithm, the shared `hash`,
/// `bits` and `vnodes`, and every algorithm's own options by name ([`params`](Options::params)).
/// [`Options::set`] and [`Options::get`] reach every option by its name.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub algorithm: Algorithm,
    /// Hash, ring size and vnodes for `ring` and `bounded-load`; the hash for `rendezvous`,
    /// `maglev` and `modulo`.
    pub config: Config,
    /// Each algorithm's own options, by name, where they are set (each spec's `get` answers
    /// its default otherwise): the algorithm in use reads its own, and keeps the others for
    /// a switch back.
    pub params: BTreeMap<&'static str, OptionValue>,
}

impl Options {
    /// `algorithm` with every option at its default.
    pub fn new(algorithm: Algorithm) -> Options {
        let mut options = Options { algorithm, config: Config::default(), params: BTreeMap::new() };
        // Each option's default is its spec's.
        for spec in all_options() {
            if let Some(value) = spec.kind.default_value() {
                if (spec.get)(&options).as_ref() != Some(&value) {
                    // Every default is within its own range.
                    let _ = (spec.set)(&mut options, value);
                }
            }
        }
        options
    }

    /// Sets the option called `name` (as JS and links name it: `tableSize`, `numTokens`), after
    /// checking the value's type and range. Any algorithm's option may be set; the algorithm
    /// in use reads its own. On error nothing changes.
    pub fn set(&mut self, name: &str, value: OptionValue) -> Result<(), Error> {
        let spec = option_named(name)?;
        let value = spec.check(value)?;
        let mut next = self.clone();
        (spec.set)(&mut next, value)?;
        *self = next;
        Ok(())
    }

    /// The value of the option called `name`, or `None` when it is unset (an option without
    /// a default, such as `haproxyHash`) or unknown.
    pub fn get(&self, name: &str) -> Option<OptionValue> {
        option_named(name).ok().and_then(|spec| (spec.get)(self))
    }

    /// Gives `keys` as the key set to place to every algorithm that places a given one
    /// ([`Extras::places_keys`](super::Extras::places_keys)): a comparison's sample.
    pub fn set_keys(&mut self, keys: &KeySample) {
        for set_keys in Algorithm::ALL.iter().filter_map(|a| a.entry().extras.places_keys) {
            set_keys(self, keys.clone());
        }
    }

    /// The hash this algorithm's settings actually use, if the `hash` setting applies.
    pub fn applied_hash(&self) -> Option<Hash> {
        self.algorithm.uses_hash().then_some(self.config.hash)
    }
}

/// An option's value.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionValue {
    /// A whole number ([`OptionKind::Whole`], [`OptionKind::OneOf`]).
    Whole(u64),
    /// A number ([`OptionKind::Number`]).
    Number(f64),
    /// On or off ([`OptionKind::Flag`]).
    Flag(bool),
    /// A name from a list ([`OptionKind::Choice`]).
    Text(String),
    /// Tokens by node name ([`OptionKind::Tokens`]).
    Tokens(BTreeMap<String, Vec<i64>>),
    /// A key set, which an algorithm that places a given one keeps in
    /// [`Options::params`] ([`Extras::places_keys`](super::Extras::places_keys)); no option
    /// takes it.
    Keys(Arc<KeySample>),
}

impl OptionValue {
    /// The value as the option's `kind` shows it in words and links: `251`, `0.25`, `1`,
    /// `sdbm`.
    pub fn text(&self) -> String {
        match self {
            OptionValue::Whole(v) => v.to_string(),
            OptionValue::Number(v) => v.to_string(),
            OptionValue::Flag(v) => u8::from(*v).to_string(),
            OptionValue::Text(t) => t.clone(),
            OptionValue::Tokens(t) => format!("{} nodes' tokens", t.len()),
            OptionValue::Keys(k) => format!("{} keys", k.keys.len()),
        }
    }

    pub(crate) fn whole(&self) -> u64 {
        match self {
            OptionValue::Whole(v) => *v,
            _ => 0,
        }
    }

    pub(crate) fn number(&self) -> f64 {
        match self {
            OptionValue::Number(v) => *v,
            OptionValue::Whole(v) => *v as f64,
            _ => f64::NAN,
        }
    }

    pub(crate) fn flag(&self) -> bool {
        matches!(self, OptionValue::Flag(true))
    }

    pub(crate) fn name(&self) -> &str {
        match self {
            OptionValue::Text(t) => t,
            _ => "",
        }
    }
}

/// What values an option takes.
#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    /// A whole number from `min` to `max`.
    Whole { min: u64, max: u64, default: u64 },
    /// One of a few whole numbers (`bits`: 32 or 64).
    OneOf { values: &'static [u64], default: u64 },
    /// A finite number from `min` to `max`.
    Number { min: f64, max: f64, default: f64 },
    /// On or off.
    Flag { default: bool },
    /// One name of `choices()`; `default: None` leaves it unset.
    Choice { choices: fn() -> Vec<&'static str>, default: Option<&'static str> },
    /// Text of at most `max_len` bytes.
    Text { max_len: usize, default: &'static str },
    /// Whole numbers (tokens) by node name, each node's given as one line of text (JS gives
    /// an object of lines by node name): what its system calls that line (`initial_token`),
    /// and how it reads one.
    Tokens { line: &'static str, read: fn(&str) -> Result<Vec<i64>, Error> },
}

impl OptionKind {
    /// The value an option takes when nobody sets it, if any.
    pub fn default_value(&self) -> Option<OptionValue> {
        match *self {
            OptionKind::Whole { default, .. } | OptionKind::OneOf { default, .. } => Some(OptionValue::Whole(default)),
            OptionKind::Number { default, .. } => Some(OptionValue::Number(default)),
            OptionKind::Flag { default } => Some(OptionValue::Flag(default)),
            OptionKind::Choice { default, .. } => default.map(|d| OptionValue::Text(d.to_string())),
            OptionKind::Text { default, .. } => Some(OptionValue::Text(default.to_string())),
            OptionKind::Tokens { .. } => None,
        }
    }

    /// The option's type in the `.d.ts` (`RingOptions`): what the TypeScript types are checked
    /// against.
    pub fn typescript(&self) -> String {
        match self {
            OptionKind::Whole { .. } | OptionKind::Number { .. } => "number".into(),
            OptionKind::OneOf { values, .. } => values.iter().map(u64::to_string).collect::<Vec<_>>().join(" | "),
            OptionKind::Flag { .. } => "boolean".into(),
            OptionKind::Choice { choices, .. } => {
                choices().iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(" | ")
            }
            OptionKind::Text { .. } => "string".into(),
            OptionKind::Tokens { .. } => "Record<string, string>".into(),
        }
    }
}

/// Where an option is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// Everywhere: `new Ring`, a session's settings, its share link and the page's controls.
    Everywhere,
    /// Only `new Ring` (a Rust or JS caller's own data, such as Cassandra's real tokens, or a
    /// key set the session fills with its own sample).
    Library,
}

/// One option, declared by the algorithm that reads it.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// Its name in JS, links and the page: camelCase (`tableSize`).
    pub name: &'static str,
    pub kind: OptionKind,
    /// One line of help, for the page and README.
    pub help: &'static str,
    pub scope: Scope,
    /// Its field in a share link (`ts=251`); empty for library-only options.
    pub link: &'static str,
    /// Reads it (`None`: unset).
    pub get: fn(&Options) -> Option<OptionValue>,
    /// The error for a value of the right type out of its range or list, where the engine
    /// has its own kind for it (`vnodes`: `invalid-vnodes`, `hash`: `unknown-hash`); `None`:
    /// below a range is `invalid-option`, above it `too-large`, off a list `invalid-option`.
    pub refused: Option<fn(&OptionValue) -> Error>,
    /// Writes a value [`check`](OptionSpec::check) passed; may refuse what depends on other
    /// options (`haproxyAvalanche` needs `haproxyHash`).
    pub set: fn(&mut Options, OptionValue) -> Result<(), Error>,
}

impl OptionSpec {
    /// `value` if it is of this option's type and within its range. Below the range is an
    /// `invalid-option`; above it a `too-large` (every maximum is a cap).
    pub fn check(&self, value: OptionValue) -> Result<OptionValue, Error> {
        let name = self.name;
        let wrong = |what: &str| Error::invalid_option(name, format!("{name} must be {what}"));
        match (&self.kind, value) {
            (OptionKind::Whole { min, max, .. }, OptionValue::Whole(v)) => {
                if let (Some(refused), true) = (self.refused, v < *min || v > *max) {
                    return Err(refused(&OptionValue::Whole(v)));
                }
                if v < *min {
                    return Err(Error::out_of_range(
                        name,
                        v as f64,
                        (*min as f64, *max as f64),
                        format!("{name} must be between {min} and {max} (got {v})"),
                    ));
                }
                crate::limits::check(name, v, *max)?;
                Ok(OptionValue::Whole(v))
            }
            (OptionKind::OneOf { values, .. }, OptionValue::Whole(v)) if values.contains(&v) => {
                Ok(OptionValue::Whole(v))
            }
            (OptionKind::OneOf { .. }, value @ OptionValue::Whole(_)) if self.refused.is_some() => {
                Err(self.refused.map_or_else(|| wrong("listed"), |refused| refused(&value)))
            }
            (OptionKind::OneOf { values, .. }, _) => {
                let list: Vec<String> = values.iter().map(u64::to_string).collect();
                Err(wrong(&format!("one of {}", list.join(" or "))))
            }
            (OptionKind::Number { min, max, .. }, value @ (OptionValue::Number(_) | OptionValue::Whole(_))) => {
                let v = value.number();
                if !(v.is_finite() && v >= *min) {
                    let words = format!(
                        "{name} must be a number from {} to {} (got {})",
                        shortest(*min),
                        shortest(*max),
                        shortest(v)
                    );
                    return Err(Error::out_of_range(name, v, (*min, *max), words));
                }
                if v > *max {
                    return Err(Error::TooLarge { what: name.to_string(), max: *max as u64, got: v as u64 });
                }
                Ok(OptionValue::Number(v))
            }
            (OptionKind::Flag { .. }, OptionValue::Flag(v)) => Ok(OptionValue::Flag(v)),
            (OptionKind::Choice { choices, .. }, OptionValue::Text(t)) => {
                let choices = choices();
                if choices.contains(&t.as_str()) {
                    Ok(OptionValue::Text(t))
                } else if let Some(refused) = self.refused {
                    Err(refused(&OptionValue::Text(t)))
                } else {
                    Err(Error::unknown_choice(
                        name,
                        &t,
                        format!("unknown {name} {t:?}: choose one of {}", choices.join(", ")),
                    ))
                }
            }
            (OptionKind::Text { max_len, .. }, OptionValue::Text(t)) => {
                crate::limits::check(&format!("{name}'s bytes"), t.len() as u64, *max_len as u64)?;
                Ok(OptionValue::Text(t))
            }
            (OptionKind::Tokens { .. }, OptionValue::Tokens(t)) => {
                crate::limits::check("nodes with tokens", t.len() as u64, crate::limits::MAX_NODES as u64)?;
                Ok(OptionValue::Tokens(t))
            }
            (OptionKind::Whole { .. }, _) => Err(wrong("a whole number")),
            (OptionKind::Number { .. }, _) => Err(wrong("a number")),
            (OptionKind::Flag { .. }, _) => Err(wrong("true or false")),
            (OptionKind::Choice { choices, .. }, _) => Err(wrong(&format!("one of {}", choices().join(", ")))),
            (OptionKind::Text { .. }, _) => Err(wrong("a string")),
            (OptionKind::Tokens { line, .. }, _) => Err(wrong(&format!("an object of {line} lines by node name"))),
        }
    }

    /// Reads an option kept in [`Options::params`].
    pub fn param(options: &Options, name: &str) -> Option<OptionValue> {
        options.params.get(name).cloned()
    }

    /// This option's value in [`Options::params`], or its default where it is not there:
    /// the `get` of an option kept there.
    pub fn kept(&self, options: &Options) -> Option<OptionValue> {
        options.params.get(self.name).cloned().or_else(|| self.kind.default_value())
    }

    /// Keeps `value` as this option's in [`Options::params`]: the `set` of an option kept
    /// there. Its default is not kept, so that equal settings are equal options.
    pub fn keep(&self, options: &mut Options, value: OptionValue) {
        if Some(&value) == self.kind.default_value().as_ref() {
            options.params.remove(self.name);
        } else {
            options.params.insert(self.name, value);
        }
    }

    /// A whole-number option's value ([`kept`](OptionSpec::kept)), saturated to `u32`.
    pub fn whole_u32(&self, options: &Options) -> u32 {
        u32::try_from(self.whole(options)).unwrap_or(u32::MAX)
    }

    /// A whole-number option's value ([`kept`](OptionSpec::kept)).
    pub fn whole(&self, options: &Options) -> u64 {
        options
            .params
            .get(self.name)
            .map_or_else(|| self.kind.default_value().map_or(0, |v| v.whole()), OptionValue::whole)
    }

    /// A number option's value ([`kept`](OptionSpec::kept)).
    pub fn number(&self, options: &Options) -> f64 {
        options
            .params
            .get(self.name)
            .map_or_else(|| self.kind.default_value().map_or(f64::NAN, |v| v.number()), OptionValue::number)
    }
}

/// Every option of every algorithm, once each (by name), in catalog order: the ring's
/// `hash`, `bits` and `vnodes` first.
pub fn all_options() -> Vec<&'static OptionSpec> {
    let mut out: Vec<&'static OptionSpec> = Vec::new();
    for algorithm in Algorithm::ALL {
        for &spec in algorithm.entry().options {
            if !out.iter().any(|o| o.name == spec.name) {
                out.push(spec);
            }
        }
    }
    out
}

/// The option called `name`.
pub fn option_named(name: &str) -> Result<&'static OptionSpec, Error> {
    all_options().into_iter().find(|o| o.name == name).ok_or_else(|| {
        let known = all_options().iter().map(|o| o.name.to_string()).collect();
        Error::UnknownOption { name: name.to_string(), known }
    })
}

fn hash_names() -> Vec<&'static str> {
    Hash::ALL.iter().map(|h| h.name()).collect()
}

/// The hash for points and keys (`ring`, `bounded-load`), or for scores, table offsets and
/// residues (`rendezvous`, `maglev`, `modulo`).
pub const HASH: OptionSpec = OptionSpec {
    name: "hash",
    kind: OptionKind::Choice { choices: hash_names, default: Some("xxh3") },
    help: "the hash function, over explicit bytes (src/hash.rs gives each one's byte rule)",
    scope: Scope::Everywhere,
    link: "h",
    refused: Some(|v| Error::UnknownHash(v.name().to_string())),
    get: |o| Some(OptionValue::Text(o.config.hash.name().to_string())),
    set: |o, v| {
        o.config.hash = Hash::from_name(v.name())?;
        Ok(())
    },
};

/// The circle's size: `2^32` or `2^64` positions.
pub const BITS: OptionSpec = OptionSpec {
    name: "bits",
    kind: OptionKind::OneOf { values: &[32, 64], default: 32 },
    help: "the circle's size: 2^32 or 2^64 positions",
    scope: Scope::Everywhere,
    link: "b",
    refused: Some(|v| Error::InvalidBits(v.whole())),
    get: |o| Some(OptionValue::Whole(u64::from(o.config.bits.bits()))),
    set: |o, v| {
        o.config.bits = RingBits::from_bits(v.whole())?;
        Ok(())
    },
};

/// Points per unit of weight.
pub const VNODES: OptionSpec = OptionSpec {
    name: "vnodes",
    kind: OptionKind::Whole { min: 1, max: crate::limits::MAX_VNODES as u64, default: 160 },
    help: "points (virtual nodes) per unit of weight",
    scope: Scope::Everywhere,
    link: "v",
    refused: Some(|v| Error::InvalidVnodes(v.whole())),
    get: |o| Some(OptionValue::Whole(u64::from(o.config.vnodes))),
    set: |o, v| {
        o.config.vnodes = v.whole() as u32;
        Ok(())
    },
};

/// An option as the page and `catalog()` show it: what a control needs.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OptionView {
    pub name: &'static str,
    /// `whole`, `one-of`, `number`, `flag`, `choice`, `text` or `tokens`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Its default, as JSON (`null`: unset).
    pub default: serde_json_value::Value,
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// The values a `one-of` or `choice` option takes.
    pub choices: Vec<serde_json_value::Value>,
    pub help: &'static str,
    pub scope: Scope,
}

/// The few JSON values an option view holds, without a JSON crate in the engine.
pub mod serde_json_value {
    /// A JSON number, string or boolean, or null.
    #[derive(Clone, Debug, PartialEq, serde::Serialize)]
    #[serde(untagged)]
    pub enum Value {
        Null,
        Number(f64),
        Text(String),
        Flag(bool),
    }
}

impl OptionValue {
    /// As JSON (tokens and keys are not shown: `null`).
    pub fn json(&self) -> serde_json_value::Value {
        use serde_json_value::Value;
        match self {
            OptionValue::Whole(v) => Value::Number(*v as f64),
            OptionValue::Number(v) => Value::Number(*v),
            OptionValue::Flag(v) => Value::Flag(*v),
            OptionValue::Text(t) => Value::Text(t.clone()),
            OptionValue::Tokens(_) | OptionValue::Keys(_) => Value::Null,
        }
    }
}

impl OptionSpec {
    /// What a control for it needs.
    pub fn view(&self) -> OptionView {
        use serde_json_value::Value;
        let (kind, min, max, choices) = match self.kind {
            OptionKind::Whole { min, max, .. } => ("whole", Some(min as f64), Some(max as f64), Vec::new()),
            OptionKind::OneOf { values, .. } => {
                ("one-of", None, None, values.iter().map(|&v| Value::Number(v as f64)).collect())
            }
            OptionKind::Number { min, max, .. } => {
                ("number", Some(min), Some(max).filter(|m| *m < f64::MAX), Vec::new())
            }
            OptionKind::Flag { .. } => ("flag", None, None, Vec::new()),
            OptionKind::Choice { choices, .. } => {
                ("choice", None, None, choices().into_iter().map(|c| Value::Text(c.to_string())).collect())
            }
            OptionKind::Text { max_len, .. } => ("text", None, Some(max_len as f64), Vec::new()),
            OptionKind::Tokens { .. } => ("tokens", None, None, Vec::new()),
        };
        OptionView {
            name: self.name,
            kind,
            default: self.kind.default_value().map_or(Value::Null, |v| v.json()),
            min,
            max,
            choices,
            help: self.help,
            scope: self.scope,
        }
    }
}
