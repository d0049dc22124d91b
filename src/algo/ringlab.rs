//! ringlab's own ring ([`crate::Ring`]) as a catalog entry: `vnodes` points per unit of
//! weight at `hash("{name}#{i}")` on a circle of `2^bits` positions; a key belongs to the
//! first point at or after its hash, a collision to the smaller name.
//!
//! Its `label`, `position`, `lookup` and `ties` options describe the ring a tutorial or a
//! homegrown service wrote instead ([`crate::RingRules`]); [`PRESETS`] are five such rings,
//! each reproduced bit for bit from the code itself (`tests/real/tutorial_*`).

use super::about::KeySpace;
use super::entry::{Build, Building, Entry, Extras, Family, Leaving, OnDown, OnStale, Weights};
use super::explain::{hex, Chain, Step, StepKind, FIRST_AT_OR_AFTER, MAX_WALK_STEPS};
use super::options::{OptionKind, OptionSpec, OptionValue, Scope, BITS, HASH, VNODES};
use super::{down, Algorithm, Options, Placement};
use crate::analysis::Arcs;
use crate::{Error, Label, Lookup, Node, NodeSpec, Position, Ring, RingBuild, RingRules, Ties};

/// The algorithm of this file's entry, for code that draws this ring alone (the element's
/// figure, `session::figure`).
pub const RING: Algorithm = Algorithm::Ring;

pub(crate) const ENTRY: Entry = Entry {
    name: "ring",
    label: "ringlab's ring",
    family: Family::Ringlab,
    source: "ringlab's own ring: points at hash(\"name#i\"), first point at or after the key, ties to the smaller name",
    options: &[&HASH, &BITS, &VNODES, &LABEL, &POSITION, &LOOKUP, &TIES],
    weights: Weights::Any,
    arcs: true,
    replicas: true,
    key_space: |o| key_space(&o.config, &rules(o).unwrap_or_default()),
    describe,
    on_down: OnDown::Skip(
        "A key of a down node goes to the next healthy node clockwise; the preference list skips down nodes and \
         takes the next healthy distinct (zone-aware) node, as Dynamo-style stores do. No other key moves.",
    ),
    on_stale: OnStale::ClientSide(
        "A client that has not seen the change still hashes with its old ring: a moved key goes to its old owner, where a read misses (or finds a value the new owner has since replaced) and a write leaves a second copy.",
    ),
    leaving: Leaving::Any,
    extras: Extras::NONE,
};

/// How [`ENTRY`] is built: in steps, as a ring at the caps (500,000 points) takes a while.
pub(crate) const BUILD: Build =
    Build::Staged(|o, nodes, _| Ok(Box::new(Ring::building(o.config.clone(), rules(o)?, nodes)?)));

impl Building for RingBuild {
    fn step(&mut self, budget: usize) -> Result<bool, Error> {
        Ok(RingBuild::step(self, budget))
    }
    fn finish(self: Box<Self>) -> Result<Box<dyn Placement>, Error> {
        Ok(Box::new(RingBuild::finish(*self)))
    }
}

/// The ring's rules from its options.
pub(crate) fn rules(options: &Options) -> Result<RingRules, Error> {
    let text = |spec: &OptionSpec| (spec.get)(options).map(|v| v.name().to_string()).unwrap_or_default();
    Ok(RingRules {
        label: Label::parse(&text(&LABEL))?,
        position: Position::from_name(&text(&POSITION))?,
        lookup: Lookup::from_name(&text(&LOOKUP))?,
        ties: Ties::from_name(&text(&TIES))?,
    })
}

/// The key space of a ring of `config` with `rules`: its hash values, or signed longs.
pub(crate) fn key_space(config: &crate::Config, rules: &RingRules) -> KeySpace {
    match rules.position {
        Position::First8BeSigned => KeySpace::Signed { bits: 64 },
        _ => KeySpace::Hash { bits: config.bits.bits() },
    }
}

fn describe(o: &Options) -> String {
    described(&o.config, &rules(o).unwrap_or_default())
}

/// The circle of a ring of `config` with `rules` in words, with each rule that differs from
/// ringlab's.
pub(crate) fn described(config: &crate::Config, rules: &RingRules) -> String {
    let mut differs = Vec::new();
    if rules.position != Position::First4Le {
        differs.push(format!("positions {}", position_words(rules.position)));
    }
    if rules.lookup == Lookup::After {
        differs.push("a key on a point belongs to the next one".to_string());
    }
    match rules.ties {
        Ties::SmallerName => {}
        Ties::LaterAdded => differs.push("equal positions go to the later node; removing either deletes it".into()),
        Ties::EarlierAdded => {
            differs.push("equal positions stay with the earlier node; removing either deletes it".into())
        }
    }
    // Written out rather than `join`ed: the figure's module has no other `join` of `String`s.
    let mut tail = String::new();
    for rule in &differs {
        tail.push_str(if tail.is_empty() { " Unlike ringlab's: " } else { "; " });
        tail.push_str(rule);
    }
    if !tail.is_empty() {
        tail.push('.');
    }
    format!(
        "ringlab's ring: {} points per unit of weight at {}(\"{}\") on a circle of {}; a key belongs to \
         the first point clockwise from its hash.{tail}",
        config.vnodes,
        config.hash,
        rules.label.plain(),
        key_space(config, rules).words()
    )
}

/// What a position rule reads, in words.
pub(crate) fn position_words(position: Position) -> &'static str {
    match position {
        Position::First4Le => "the hash's low 32 bits (digest bytes 0..4 little-endian)",
        Position::First4Be => "digest bytes 0..4 big-endian",
        Position::Last4Be => "the last 4 digest bytes big-endian (int(hexdigest, 16) % 2**32)",
        Position::First8Le => "digest bytes 0..8 little-endian",
        Position::First8Be => "digest bytes 0..8 big-endian",
        Position::First8BeSigned => "digest bytes 0..8 as a signed big-endian long, ordered from −2⁶³",
    }
}

/// A text option of the ring, kept in [`Options::params`].
fn param_text(o: &Options, name: &'static str, default: &str) -> Option<OptionValue> {
    Some(o.params.get(name).cloned().unwrap_or_else(|| OptionValue::Text(default.to_string())))
}

/// The point label template.
pub(crate) const LABEL: OptionSpec = OptionSpec {
    name: "label",
    kind: OptionKind::Text { max_len: crate::limits::MAX_LABEL_TEMPLATE_LEN, default: Label::DEFAULT },
    help: "the point label template: {name} is the node's name, {i} the point's number (from 0)",
    scope: Scope::Everywhere,
    link: "lt",
    refused: None,
    get: |o| param_text(o, "label", Label::DEFAULT),
    set: |o, v| {
        Label::parse(v.name())?;
        o.params.insert("label", v);
        Ok(())
    },
};

/// How a digest becomes a position.
pub(crate) const POSITION: OptionSpec = OptionSpec {
    name: "position",
    kind: OptionKind::Choice { choices: Position::names, default: Some("first4-le") },
    help: "how a digest becomes a position: first4-le is the hash's low bits (first8-le on 64 bits); the others \
           read md5 or sha256 digest bytes, big-endian, the first or the last",
    scope: Scope::Everywhere,
    link: "ps",
    refused: None,
    get: |o| param_text(o, "position", "first4-le"),
    set: |o, v| {
        o.params.insert("position", v);
        Ok(())
    },
};

/// Whether a key on a point belongs to it.
pub(crate) const LOOKUP: OptionSpec = OptionSpec {
    name: "lookup",
    kind: OptionKind::Choice { choices: Lookup::names, default: Some("at-or-after") },
    help: "which point a key belongs to: the first at or after its position (>=), or the first after it (>)",
    scope: Scope::Everywhere,
    link: "lu",
    refused: None,
    get: |o| param_text(o, "lookup", "at-or-after"),
    set: |o, v| {
        o.params.insert("lookup", v);
        Ok(())
    },
};

/// Who holds a position two nodes share.
pub(crate) const TIES: OptionSpec = OptionSpec {
    name: "ties",
    kind: OptionKind::Choice { choices: Ties::names, default: Some("smaller-name") },
    help: "who holds a position two nodes share: the smaller name (both kept), or a map's later or earlier put \
           (removing either node deletes it)",
    scope: Scope::Everywhere,
    link: "ti",
    refused: None,
    get: |o| param_text(o, "ties", "smaller-name"),
    set: |o, v| {
        o.params.insert("ties", v);
        Ok(())
    },
};

impl super::Cluster {
    /// The ringlab [`Ring`] inside, for the `ring` algorithm: what only the ring offers
    /// (its key positions, a vnode sweep).
    pub fn as_ring(&self) -> Option<&Ring> {
        self.placement()
    }
}

impl Placement for Ring {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Ring
    }
    fn nodes(&self) -> &[Node] {
        Ring::nodes(self)
    }
    fn add(&mut self, spec: NodeSpec) -> Result<(), Error> {
        self.add_node(spec)
    }
    fn remove(&mut self, name: &str) -> Result<(), Error> {
        Ring::remove(self, name).map(drop)
    }
    fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        Ring::locate_index(self, key)
    }
    fn key_fraction(&self, key: &[u8]) -> f64 {
        self.key_position(key) as f64 / self.config().bits.size() as f64
    }
    fn arcs(&self) -> Option<&dyn Arcs> {
        let all_down = !self.is_empty() && (0..Ring::nodes(self).len()).all(|i| self.is_down_at(i));
        (!all_down).then_some(self as &dyn Arcs)
    }
    fn memory_bytes(&self) -> usize {
        Ring::memory_bytes(self)
    }
    fn preference_list(&self, key: &[u8], n: usize) -> Option<Result<Vec<usize>, Error>> {
        let mut list = Vec::new();
        Some(self.replicas_into(self.key_position(key), n, &mut list).map(|()| list))
    }
    fn point_label(&self, point: usize) -> Option<String> {
        Ring::point_label(self, point)
    }
    /// Exact on 64-bit rings, where a fraction of the circle cannot hold the key's position.
    fn walk_start(&self, key: &[u8]) -> Option<Result<usize, Error>> {
        Some(self.point_of(self.key_position(key)))
    }
    /// On the fast path, without a dynamic call per lookup.
    fn locate_generated(&self, prefix: &str, count: usize, f: &mut dyn FnMut(usize, Result<usize, Error>)) {
        Ring::locate_generated(self, prefix, count, f);
    }
    /// In place: the node keeps its place and its points' labels.
    fn set_weight_at(&mut self, index: usize, weight: f64) -> Option<Result<(), Error>> {
        let name = Ring::nodes(self).get(index)?.name.clone();
        Some(self.set_weight(&name, weight))
    }
    /// Skip: keys of a down node go to the next healthy node clockwise (see [`down::rule`]).
    fn set_down(&mut self, index: usize, down: bool) -> Result<(), Error> {
        down::check_index(Ring::nodes(self), index)?;
        self.set_down_at(index, down);
        Ok(())
    }
    fn is_down(&self, index: usize) -> bool {
        self.is_down_at(index)
    }
    fn describe_key(&self, key: &[u8]) -> String {
        let width = self.config().bits.bits() as usize / 4;
        let position = self.hash_position(key);
        match self.rules().position {
            // Java's `long`: the signed value the code compares.
            Position::First8BeSigned => format!("{} {}", self.config().hash, (position ^ (1 << 63)) as i64),
            _ => format!("{} 0x{position:0width$x}", self.config().hash),
        }
    }
    fn explain_key(&self, key: &[u8], chain: &mut Chain) -> Option<usize> {
        let (config, rules) = (self.config(), self.rules());
        let bits = config.bits.bits();
        chain.bytes("the bytes hashed: the whole key", key);
        let size = config.bits.size() as f64;
        let hashed = self.hash_position(key);
        match rules.position {
            Position::First4Le | Position::First8Le => {
                let hash = config.hash.hash(key);
                chain.push(Step::new(
                    StepKind::Hash,
                    format!("{} of the key", config.hash),
                    hex(hash, config.hash.bits()),
                ));
                let label = format!("its low {bits} bits: the key's position");
                chain.push(Step::new(StepKind::Position, label, hex(hashed, bits)).at_fraction(hashed as f64 / size));
            }
            other => {
                let label = format!("{} of the key, digest read {}: the key's position", config.hash, other.name());
                chain.push(Step::new(StepKind::Position, label, hex(hashed, bits)).at_fraction(hashed as f64 / size));
            }
        }
        let position = self.key_position(key);
        if position != hashed {
            let label = "looked up from the next position (the first point strictly after it)";
            chain.push(Step::new(StepKind::Position, label, hex(position, bits)).at_fraction(position as f64 / size));
        }
        let i = self.point_of(position).ok()?;
        let (at, owner) = self.point(i);
        chain.push(Step::point(FIRST_AT_OR_AFTER, i, self.point_count(), at, bits, owner));
        if let Some(name) = self.point_label(i) {
            let label = format!("its label: {} hashed there", rules.label.text());
            chain.push(Step::new(StepKind::Label, label, name).at_fraction(at as f64 / size).at_node(owner));
        }
        Some(owner)
    }
    /// Walks clockwise from the key's point past the points of down nodes to the first point
    /// whose node is up (what [`Ring::serving_owner`] stores), naming the first few.
    fn explain_down(&self, key: &[u8], chain: &mut Chain) -> bool {
        let Ok(start) = self.point_of(self.key_position(key)) else { return false };
        let (count, bits) = (self.point_count(), self.config().bits.bits());
        let size = self.config().bits.size() as f64;
        let mut passed = 0usize;
        for k in 1..count {
            let i = (start + k) % count;
            let (at, owner) = self.point(i);
            let name = &Ring::nodes(self)[owner].name;
            let place = |what: &str| format!("point {i} at {} ({what})", hex(at, bits));
            if !self.is_down_at(owner) {
                if passed > MAX_WALK_STEPS {
                    let label = format!("… and {} more points of down nodes", passed - MAX_WALK_STEPS);
                    chain.push(Step::new(StepKind::Down, label, ""));
                }
                let label = self.point_label(i).unwrap_or_else(|| name.clone());
                let step = Step::new(StepKind::Point, "the next point whose node is up", place(&label));
                chain.push(step.at_fraction(at as f64 / size).at_node(owner));
                return true;
            }
            passed += 1;
            if passed <= MAX_WALK_STEPS {
                let step = Step::new(StepKind::Down, format!("next point: {name} is down, walk on"), place(name));
                chain.push(step.at_fraction(at as f64 / size).at_node(owner));
            }
        }
        false
    }
    fn boxed_clone(&self) -> Box<dyn Placement> {
        Box::new(self.clone())
    }
}

/// A ring from a tutorial or homegrown code, as a share link: the page's "Your own ring".
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Preset {
    /// Named by what it is: "Go `hash/fnv`".
    pub name: &'static str,
    /// The code it reproduces, in a line.
    pub code: &'static str,
    /// Which detail, unlike ringlab's ring, moves which keys.
    pub differs: &'static str,
    /// The share link that opens it (with a few nodes).
    pub link: &'static str,
}

/// The five rings of issue 29's table, each reproduced bit for bit from the code itself
/// (tests/real/fixtures/tutorial_*.json).
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "Go `hash/fnv`",
        code: "fnv.New32a() of \"node#i\", a sorted []uint32, sort.Search for the first >= the key, a map[uint32]string",
        differs: "Only the equal positions: a later node's put overwrites the map entry (ringlab keeps both and \
                  serves the smaller name), and removing either node deletes the position. Every other key \
                  goes where ringlab's FNV-1a ring puts it.",
        link: "#ringlab=2&a=ring&h=fnv1a32&b=32&v=50&k=2000&r=2&ti=later-added&n=cache-a&n=cache-b&n=cache-c",
    },
    Preset {
        name: "Python `md5` + `bisect`",
        code: "int(hashlib.md5(label).hexdigest(), 16) % 2**32 of \"node#i\", bisect.bisect on a sorted list, a dict",
        differs: "The position is the last 4 digest bytes read big-endian (ringlab's md5 reads the first 4, \
                  little-endian): every point and key lands elsewhere. bisect.bisect is bisect_right, so a key \
                  exactly on a point belongs to the next point. A later add overwrites an equal position.",
        link: "#ringlab=2&a=ring&h=md5&b=32&v=100&k=2000&r=2&ps=last4-be&lu=after&ti=later-added&n=cache-a&n=cache-b&n=cache-c",
    },
    Preset {
        name: "Go `crypto/sha256`, weighted",
        code: "sha256.Sum256 of \"node#i\" for i < replicas × weight, binary.BigEndian.Uint32(sum[:4]), sort.Search, a map",
        differs: "The position is digest bytes 0..4 big-endian (ringlab's sha256 reads them little-endian): \
                  every point and key lands elsewhere. A later add overwrites an equal position, and a removal \
                  deletes every position of the node's labels, also one the other node holds.",
        link: "#ringlab=2&a=ring&h=sha256&b=32&v=100&k=2000&r=2&ps=first4-be&ti=later-added&n=cache-a&n=cache-b*2&n=cache-c",
    },
    Preset {
        name: "Python simulation, `sha256`",
        code: "int(hashlib.sha256(f\"node-{id}#vnode-{v}\").hexdigest(), 16) % 2**32, bisect_left, a dict",
        differs: "Labels node-{id}#vnode-{v} and the last 4 digest bytes big-endian: every point and key lands \
                  elsewhere than on ringlab's sha256 ring. Lookups are first >=, as ringlab's.",
        link: "#ringlab=2&a=ring&h=sha256&b=32&v=150&k=2000&r=2&lt=node-%7Bname%7D%23vnode-%7Bi%7D&ps=last4-be&ti=later-added&n=1&n=2&n=3",
    },
    Preset {
        name: "Java `TreeMap<Long, String>`",
        code: "the first 8 MD5 bytes of \"node#i\" as a signed big-endian long, ceilingEntry else firstEntry, put and remove",
        differs: "A 64-bit position from digest bytes 0..8 big-endian (ringlab's md5 reads them little-endian), \
                  ordered as signed longs: the circle starts at −2⁶³, which only turns it, so the owners are \
                  those of first8-be. put overwrites and remove deletes an equal position.",
        link: "#ringlab=2&a=ring&h=md5&b=64&v=160&k=2000&r=2&ps=first8-be-signed&ti=later-added&n=cache-a&n=cache-b&n=cache-c",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The description names each rule that differs from ringlab's, in order.
    #[test]
    fn descriptions_name_the_rules_that_differ() {
        let config = crate::Config { hash: crate::Hash::Md5, ..crate::Config::default() };
        let ringlab = described(&config, &RingRules::default());
        assert!(ringlab.starts_with("ringlab's ring: "), "{ringlab}");
        assert!(ringlab.contains(" at md5(\"name#i\") on a circle of "), "{ringlab}");
        assert!(ringlab.ends_with("a key belongs to the first point clockwise from its hash."), "{ringlab}");
        let rules = RingRules {
            label: Label::parse("{i}-{name}").unwrap(),
            position: Position::First8Be,
            lookup: Lookup::After,
            ties: Ties::LaterAdded,
        };
        let other = described(&crate::Config { bits: crate::RingBits::B64, ..config }, &rules);
        assert!(other.contains("(\"i-name\")"), "{other}");
        assert!(
            other.ends_with(
                "clockwise from its hash. Unlike ringlab's: positions digest bytes 0..8 big-endian; a key on a \
                 point belongs to the next one; equal positions go to the later node; removing either deletes it."
            ),
            "{other}"
        );
    }
}
