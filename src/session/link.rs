//! Share links: the session's settings and nodes in a URL fragment, exactly.
//!
//! Version 2 (what [`encode`] writes):
//! `#ringlab=2&a=ring&h=xxh3&b=32&v=32&k=2000&r=2&n=node-1&n=cache%2Ab*2@eu%40west`
//! — one `n` per node, in order: the percent-encoded name, then `*weight` when it is not 1
//! (Rust's shortest round-trip decimal), then `@zone` (percent-encoded) when there is one,
//! then `!` when the node is marked down. HAProxy's hash function rides in `hh` (and `hv=1`
//! for `avalanche`); the tier's workload in `wi` (items), `wb` (bytes per item) and `wr`
//! (requests per second). The placement's [`Layout`], where its entry declares one
//! ([`LayoutSpec`]), under the layout's own key: each node's text in node order, separated
//! by `,` (`rs=0-5460,5461-10922,10923-16383`), so an imported or rebalanced layout reopens
//! as it was rather than as the nodes alone would build it. A user's own key list is never
//! in a link: it stays on their machine.
//! Every byte but `A–Z a–z 0–9 - . _ ~` is percent-encoded, so `* @ & = % , #` in names and
//! zones cannot be mistaken for separators, and a link decodes to exactly what was encoded.
//!
//! Version 1 (the first page's links, no `ringlab=`): `#a=ring&h=xxh3&v=32&k=2000&r=2&n=a,b*2@z`
//! is still read.
//!
//! ```
//! use ringlab::session::{link, Settings};
//! use ringlab::NodeSpec;
//! let nodes = vec![NodeSpec::new("a,b*c@d%e").weight(0.1).zone("eu west")];
//! let text = link::encode(&Settings::default(), &nodes);
//! assert_eq!(link::decode(&text)?, (Settings::default(), nodes));
//! # Ok::<(), ringlab::Error>(())
//! ```

use super::{Settings, MAX_SESSION_NODES};
use crate::algo::Layout;
use crate::algo::{Algorithm, LayoutSpec, OptionKind, OptionSpec, OptionValue};
use crate::cost::Workload;
use crate::{Error, Hash, NodeSpec, RingBits};
use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// The format [`encode`] writes.
pub const VERSION: u32 = 2;
/// The longest link text read.
pub const MAX_LINK_BYTES: usize = 512 * 1024;

/// Everything but RFC 3986's unreserved characters.
const ENCODE: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

fn enc(text: &str) -> String {
    utf8_percent_encode(text, ENCODE).to_string()
}

fn dec(text: &str, what: &str) -> Result<String, Error> {
    // `enc` writes every `%` as an escape; a bare one (which the decoder would keep as text)
    // means the link was cut or typed by hand.
    let bytes = text.as_bytes();
    let malformed = bytes
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'%' && !bytes.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)));
    if malformed {
        return Err(bad(format!("the link's {what} has a % that is not followed by two hex digits")));
    }
    percent_decode_str(text)
        .decode_utf8()
        .map(|s| s.into_owned())
        .map_err(|_| bad(format!("the link's {what} is not valid UTF-8 once decoded")))
}

fn bad(message: String) -> Error {
    Error::Link { reason: message }
}

/// The fragment (with its `#`) for `settings` and `nodes`.
pub fn encode(settings: &Settings, nodes: &[NodeSpec]) -> String {
    encode_with_down(settings, nodes, &[], None, &Layout::default())
}

/// The key of a link's algorithm (`a=libketama`), in every version.
pub const ALGORITHM_KEY: &str = "a";

/// [`encode`], with the names of the nodes marked down, the workload and the placement's
/// layout.
pub fn encode_with_down(
    settings: &Settings,
    nodes: &[NodeSpec],
    down: &[String],
    workload: Option<&Workload>,
    layout: &Layout,
) -> String {
    let mut out = format!(
        "#ringlab={VERSION}&{ALGORITHM_KEY}={}&h={}&b={}&v={}&k={}&r={}",
        settings.algorithm.name(),
        settings.hash.name(),
        settings.bits.bits(),
        settings.vnodes,
        settings.keys,
        settings.replicas
    );
    if settings.zipf != 0.0 {
        out.push_str(&format!("&z={}", settings.zipf));
    }
    if let Some(w) = workload {
        out.push_str(&format!("&wi={}&wb={}&wr={}", w.items, w.item_bytes, w.requests_per_sec));
    }
    for spec in super::own_options(settings.algorithm) {
        match settings.options.get(spec.name) {
            Some(value) if Some(value) != spec.kind.default_value().as_ref() => {
                out.push_str(&format!("&{}={}", spec.link, enc(&value.text())));
            }
            _ => {}
        }
    }
    for node in nodes {
        out.push_str("&n=");
        out.push_str(&enc(&node.name));
        if node.weight != 1.0 {
            out.push_str(&format!("*{}", node.weight));
        }
        if let Some(zone) = &node.zone {
            out.push('@');
            out.push_str(&enc(zone));
        }
        if down.contains(&node.name) {
            out.push('!');
        }
    }
    if !layout.key.is_empty() {
        let parts: Vec<String> = layout.parts.iter().map(|part| enc(part)).collect();
        out.push_str(&format!("&{}={}", layout.key, parts.join(",")));
    }
    out
}

/// Every entry's layout, once each (by key), in catalog order.
fn layouts() -> Vec<&'static LayoutSpec> {
    let mut out: Vec<&'static LayoutSpec> = Vec::new();
    for spec in Algorithm::ALL.iter().filter_map(|a| a.entry().extras.layout) {
        if !out.iter().any(|o| o.key == spec.key) {
            out.push(spec);
        }
    }
    out
}

/// A layout field's value: each node's text, checked by its spec.
fn layout_parts(spec: &LayoutSpec, raw: &str) -> Result<Vec<String>, Error> {
    raw.split(',').map(|part| (spec.check)(part).map(|()| part.to_string()).map_err(bad)).collect()
}

/// The settings and nodes in a link's fragment (with or without its `#`). The settings are
/// checked for range; the nodes are checked when a session is made of them.
pub fn decode(text: &str) -> Result<(Settings, Vec<NodeSpec>), Error> {
    decode_with_down(text).map(|d| (d.settings, d.nodes))
}

/// Everything a link holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded {
    pub settings: Settings,
    pub nodes: Vec<NodeSpec>,
    /// The names of the nodes marked down.
    pub down: Vec<String>,
    pub workload: Option<Workload>,
    /// The placement's own layout (its entry's [`LayoutSpec`]).
    pub layout: Layout,
    /// The key the link follows (`f`), at most [`MAX_KEY_LEN`](crate::limits::MAX_KEY_LEN) bytes.
    pub follow: Option<String>,
}

/// Appends the followed key's field to a link [`encode_with_down`] wrote.
pub fn push_follow(link: &mut String, key: &str) {
    link.push_str("&f=");
    link.push_str(&enc(key));
}

/// [`decode`], with the names of the nodes marked down.
/// The link's decimals (weights, the Zipf exponent, the workload's sizes, an algorithm's
/// real-valued options) must each be a decimal ([`is_decimal`](crate::decimal::is_decimal)).
pub fn decode_with_down(text: &str) -> Result<Decoded, Error> {
    if text.len() > MAX_LINK_BYTES {
        return Err(Error::TooLarge { what: "a link".into(), max: MAX_LINK_BYTES as u64, got: text.len() as u64 });
    }
    let text = text.strip_prefix('#').unwrap_or(text);
    let pairs: Vec<(&str, &str)> =
        text.split('&').filter(|p| !p.is_empty()).map(|p| p.split_once('=').unwrap_or((p, ""))).collect();
    // Every field but `n` appears once: a repeated one would have its last value win in
    // silence (a hand-edited or spliced link).
    let mut seen = std::collections::BTreeSet::new();
    for (key, _) in pairs.iter().filter(|(k, _)| *k != "n") {
        if !seen.insert(*key) {
            return Err(bad(format!("the field {:?} appears twice", dec(key, "field name")?)));
        }
    }
    let version = match pairs.iter().find(|(k, _)| *k == "ringlab") {
        None => 1,
        // Written as the writer writes it: no sign, no leading zero.
        Some((_, v)) => match v.parse::<u32>() {
            Ok(n) if n >= 1 && n.to_string() == *v => n,
            _ => return Err(bad(format!("unknown version {v:?}"))),
        },
    };
    if version > VERSION {
        return Err(bad(format!("it was made by a newer ringlab (format {version}; this page reads up to {VERSION})")));
    }
    let mut settings = Settings::default();
    let mut nodes = Vec::new();
    let mut down = Vec::new();
    let mut own: Vec<(&'static OptionSpec, OptionValue)> = Vec::new();
    let (mut items, mut item_bytes, mut rate) = (None, None, None);
    let mut given: Vec<Layout> = Vec::new();
    let mut follow = None;
    for (key, raw) in pairs {
        let value = || if version == 1 { dec(&raw.replace('+', " "), key) } else { dec(raw, key) };
        match key {
            "ringlab" => {}
            ALGORITHM_KEY => settings.algorithm = Algorithm::from_name(&value()?)?,
            "h" => settings.hash = Hash::from_name(&value()?)?,
            "b" => settings.bits = RingBits::from_bits(number(&value()?, "ring bits")?)?,
            "v" => {
                let v = number(&value()?, "vnodes")?;
                settings.vnodes = u32::try_from(v).map_err(|_| Error::InvalidVnodes(v))?;
            }
            // Saturated, not cast: a wasm `usize` is 32 bits, and a count past it must be
            // refused as natively, not wrapped into range.
            "k" => settings.keys = count(&value()?, "key count")?,
            "r" => settings.replicas = count(&value()?, "replicas")?,
            "n" if version == 1 => {
                for part in raw.split(',').filter(|p| !p.is_empty()) {
                    push(&mut nodes, node(part)?)?;
                }
            }
            "n" => {
                let (raw, is_down) = match raw.strip_suffix('!') {
                    Some(rest) => (rest, true),
                    None => (raw, false),
                };
                let spec = node(raw)?;
                if is_down {
                    down.push(spec.name.clone());
                }
                push(&mut nodes, spec)?;
            }
            "z" => {
                let z = value()?;
                settings.zipf =
                    crate::decimal::read(&z).ok_or_else(|| bad(format!("the Zipf exponent {z:?} is not a number")))?;
            }
            "wi" => items = Some(number(&value()?, "the item count")?),
            "wb" => item_bytes = Some(float(&value()?, "the item size")?),
            "wr" => rate = Some(float(&value()?, "the request rate")?),
            "f" if version > 1 => {
                let key = value()?;
                crate::limits::check("the followed key (bytes)", key.len() as u64, crate::limits::MAX_KEY_LEN as u64)?;
                follow = Some(key);
            }
            other => {
                if let Some(spec) = layouts().into_iter().find(|s| s.key == other) {
                    given.push(Layout::new(spec, layout_parts(spec, &value()?)?));
                    continue;
                }
                match crate::algo::catalog::all_options().into_iter().find(|s| s.link == other && !s.link.is_empty()) {
                    Some(spec) => own.push((spec, option_value(spec, &value()?)?)),
                    None => return Err(bad(format!("unknown field {:?}", dec(other, "field name")?))),
                }
            }
        }
    }
    // An algorithm's own options, once the algorithm is known.
    for (spec, value) in own {
        if !super::own_options(settings.algorithm).any(|s| s.name == spec.name) {
            let owners: Vec<&str> = Algorithm::ALL
                .iter()
                .filter(|a| super::own_options(**a).any(|s| s.name == spec.name))
                .map(|a| a.name())
                .collect();
            return Err(bad(format!("{} ({}) belongs to {} links only", spec.link, spec.name, owners.join(" and "))));
        }
        settings.options.insert(spec.name, value);
    }
    settings.validate().map_err(|e| e.option_words().map_or(e, bad))?;
    let workload = match (items, item_bytes, rate) {
        (None, None, None) => None,
        (Some(items), Some(item_bytes), Some(requests_per_sec)) => {
            let w = Workload { items, item_bytes, requests_per_sec };
            w.validate()?;
            Some(w)
        }
        _ => return Err(bad("a workload needs all of wi, wb and wr".into())),
    };
    // `key=` is both "one node, with an empty text" and "no nodes": the node count tells which.
    for layout in &mut given {
        if nodes.is_empty() && layout.parts.len() == 1 && layout.parts[0].is_empty() {
            layout.parts.clear();
        }
    }
    // `Cluster::with_layout` ignores a layout the algorithm does not keep; a link holding one
    // is wrong. (It checks that there is one text a node.)
    let kept = settings.algorithm.entry().extras.layout.map(|spec| spec.key);
    let mut layout = Layout::default();
    for spec in layouts() {
        let Some(found) = given.iter().find(|l| l.key == spec.key) else { continue };
        if kept != Some(spec.key) {
            let keepers: Vec<&str> = Algorithm::ALL
                .iter()
                .filter(|a| a.entry().extras.layout.is_some_and(|l| l.key == spec.key))
                .map(|a| a.name())
                .collect();
            return Err(bad(format!("{} ({}) belong to {} links only", spec.what, spec.key, keepers.join(" and "))));
        }
        layout = found.clone();
    }
    Ok(Decoded { settings, nodes, down, workload, layout, follow })
}

/// A link field's text as the value of option `spec`.
fn option_value(spec: &OptionSpec, text: &str) -> Result<OptionValue, Error> {
    let value = match spec.kind {
        OptionKind::Whole { .. } | OptionKind::OneOf { .. } => OptionValue::Whole(number(text, spec.link)?),
        OptionKind::Number { .. } => OptionValue::Number(float(text, spec.link)?),
        OptionKind::Flag { .. } => OptionValue::Flag(match text {
            "0" => false,
            "1" => true,
            other => return Err(bad(format!("{} must be 0 or 1 (got {other:?})", spec.link))),
        }),
        OptionKind::Choice { .. } | OptionKind::Text { .. } => OptionValue::Text(text.to_string()),
        OptionKind::Tokens { .. } => return Err(bad(format!("{} is not carried by links", spec.name))),
    };
    spec.check(value)
}

fn float(text: &str, what: &str) -> Result<f64, Error> {
    crate::decimal::read(text).ok_or_else(|| bad(format!("{what} must be a number (got {text:?})")))
}

fn push(nodes: &mut Vec<NodeSpec>, node: NodeSpec) -> Result<(), Error> {
    if nodes.len() >= MAX_SESSION_NODES {
        return Err(Error::TooLarge {
            what: "nodes in a link".into(),
            max: MAX_SESSION_NODES as u64,
            got: nodes.len() as u64 + 1,
        });
    }
    nodes.push(node);
    Ok(())
}

/// `name[*weight][@zone]`, split before decoding so encoded separators stay in the text.
fn node(raw: &str) -> Result<NodeSpec, Error> {
    let (head, zone) = match raw.split_once('@') {
        Some((head, zone)) => (head, Some(dec(zone, "zone")?)),
        None => (raw, None),
    };
    let (name, weight) = match head.split_once('*') {
        Some((name, w)) => {
            let weight = crate::decimal::read(w).ok_or_else(|| bad(format!("weight {w:?} is not a number")))?;
            (name, weight)
        }
        None => (head, 1.0),
    };
    Ok(NodeSpec { name: dec(name, "node name")?, weight, zone })
}

/// A count for a `usize` field: a value past `usize` (only possible on 32-bit targets, where
/// it is past every cap anyway) becomes `usize::MAX`, which the caps then refuse.
fn count(text: &str, what: &str) -> Result<usize, Error> {
    number(text, what).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

fn number(text: &str, what: &str) -> Result<u64, Error> {
    text.parse().map_err(|_| bad(format!("{what} must be a whole number (got {text:?})")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_carries_the_followed_key() {
        let s = crate::session::Session::playground();
        for key in ["user:42", "a&f=b", "é€😀 space", ""] {
            let link = s.link_following(Some(key));
            assert!(link.starts_with(&s.link()), "{link}");
            let opened = crate::session::Session::from_link(&link).unwrap();
            assert_eq!(opened.linked_key(), Some(key), "{link}");
            assert_eq!(opened.link_following(opened.linked_key()), link);
        }
        assert_eq!(crate::session::Session::from_link(&s.link()).unwrap().linked_key(), None);
        // A key the page could not follow is left out, and refused when written by hand.
        let long = "k".repeat(crate::limits::MAX_KEY_LEN + 1);
        assert_eq!(s.link_following(Some(&long)), s.link());
        let e = decode_with_down(&format!("{}&f={long}", s.link())).unwrap_err();
        assert_eq!(e.code(), "too-large", "{e}");
        assert!(decode_with_down(&format!("{}&f=a&f=b", s.link())).unwrap_err().to_string().contains("twice"));
    }

    #[test]
    fn awkward_names_round_trip() {
        let awkward =
            ["a,b", "x*y", "p@q", "100%", "%41", "a&b=c", "#hash", "plus+sign", "space here", "é€😀", "'\"<>"];
        let nodes: Vec<NodeSpec> = awkward
            .iter()
            .enumerate()
            .map(|(i, n)| NodeSpec::new(*n).weight(0.1 + i as f64).zone(format!("{n}-zone")))
            .collect();
        let settings = Settings {
            algorithm: Algorithm::Maglev,
            hash: Hash::Md5,
            keys: 100,
            replicas: 3,
            zipf: 1.3,
            ..Settings::default()
        };
        let text = encode(&settings, &nodes);
        assert!(text.is_ascii() && !text.contains(' '), "{text}");
        assert_eq!(decode(&text).unwrap(), (settings, nodes));
    }

    #[test]
    fn weights_round_trip_to_the_bit() {
        for w in [0.1, 1.0 / 3.0, 5e-324, 1e300, 2.5, f64::MAX] {
            let nodes = vec![NodeSpec::new("n").weight(w)];
            let (_, back) = decode(&encode(&Settings::default(), &nodes)).unwrap();
            assert_eq!(back[0].weight.to_bits(), w.to_bits(), "{w}");
        }
    }

    #[test]
    fn the_algorithm_is_under_its_key_in_every_version() {
        // The playground guesses a link's build from this one pair, before any wasm loads.
        let settings = Settings { algorithm: Algorithm::from_name("maglev").unwrap(), ..Settings::default() };
        let link = encode(&settings, &[NodeSpec::new("a")]);
        let pairs: Vec<&str> = link.trim_start_matches('#').split('&').collect();
        assert!(pairs.contains(&format!("{ALGORITHM_KEY}=maglev").as_str()), "{link}");
        let (v1, _) = decode(&format!("#{ALGORITHM_KEY}=ring&v=8&n=a")).unwrap();
        assert_eq!(v1.algorithm.name(), "ring");
    }

    #[test]
    fn version_1_links_still_open() {
        // What the first page wrote: URLSearchParams for the settings, then the nodes raw.
        let (settings, nodes) = decode("#a=ring&h=md5&v=64&k=1000&r=3&n=node-1,cache%20b*2@eu%2Dwest,c%2Cd").unwrap();
        assert_eq!(
            settings,
            Settings {
                algorithm: Algorithm::Ring,
                hash: Hash::Md5,
                vnodes: 64,
                keys: 1000,
                replicas: 3,
                ..Settings::default()
            }
        );
        assert_eq!(
            nodes,
            vec![NodeSpec::new("node-1"), NodeSpec::new("cache b").weight(2.0).zone("eu-west"), NodeSpec::new("c,d")]
        );
    }

    #[test]
    fn malformed_links_say_what_is_wrong() {
        let cases = [
            ("#ringlab=3&a=ring", "newer ringlab"),
            ("#ringlab=x", "unknown version"),
            ("#ringlab=2&a=nope", "unknown algorithm"),
            ("#ringlab=2&h=sha1", "unknown hash"),
            ("#ringlab=2&v=-1", "vnodes must be a whole number"),
            ("#ringlab=2&v=0", "vnodes must be between"),
            ("#ringlab=2&k=100001", "at most 100000"),
            ("#ringlab=2&r=0", "replicas must be between"),
            ("#ringlab=2&n=a*x", "weight \"x\" is not a number"),
            ("#ringlab=2&n=%FF", "not valid UTF-8"),
            ("#ringlab=2&zzz=1", "unknown field"),
            // Hand-edited or spliced links: each field once, values as the writer writes them.
            ("#ringlab=2&a=ring&a=maglev", "\"a\" appears twice"),
            ("#ringlab=2&ringlab=1&n=a", "\"ringlab\" appears twice"),
            ("#ringlab=0&n=a", "unknown version"),
            ("#ringlab=+2&n=a", "unknown version"),
            ("#ringlab=02&n=a", "unknown version"),
            ("#ringlab=2&a=haproxy-consistent&hh=sdbm&hv=7", "hv must be 0 or 1"),
            ("#ringlab=2&a=haproxy-consistent&hv=1", "needs hh"),
            ("#ringlab=2&n=%", "% that is not followed by two hex digits"),
            ("#ringlab=2&n=%zz", "% that is not followed"),
            ("#ringlab=2&n=a%4", "% that is not followed"),
            ("#ringlab=2&n=a@eu%2", "zone has a %"),
            ("#ringlab=2&wi=9007199254740993&wb=1&wr=1", "at most 2^53"),
        ];
        for (link, expect) in cases {
            let e = decode(link).expect_err(link);
            assert!(e.to_string().contains(expect), "{link}: {e}");
        }
        // Past a 32-bit `usize` (wasm's): refused as natively, never wrapped into range.
        assert_eq!(decode("#ringlab=2&k=4294969296").unwrap_err().code(), "too-large");
        assert_eq!(decode("#ringlab=2&k=4294967296").unwrap_err().code(), "too-large");
        assert!(decode("#ringlab=2&r=4294967298").unwrap_err().to_string().contains("replicas must be between"));
        let many = format!("#ringlab=2{}", "&n=a".repeat(MAX_SESSION_NODES + 1));
        assert_eq!(decode(&many).unwrap_err().code(), "too-large");
        assert_eq!(decode(&"x".repeat(MAX_LINK_BYTES + 1)).unwrap_err().code(), "too-large");
    }

    mod layouts {
        use super::*;
        use crate::algo::stores::redis;
        use crate::session::Session;
        use proptest::prelude::*;

        /// A slot table cut at random places, each run given to a random node (some maybe none).
        fn layout() -> impl Strategy<Value = (usize, Vec<Vec<(u16, u16)>>)> {
            (1usize..6, proptest::collection::btree_set(1u16..16_384, 0..40), proptest::collection::vec(0usize..6, 41))
                .prop_map(|(nodes, cuts, owners)| {
                    let mut ranges = vec![Vec::new(); nodes];
                    let mut first = 0u16;
                    for (k, end) in cuts.into_iter().chain([16_384]).enumerate() {
                        ranges[owners[k] % nodes].push((first, end - 1));
                        first = end;
                    }
                    (nodes, ranges)
                })
        }

        /// `rs=` with no nodes is an empty cluster's link (a Redis session whose last master
        /// was removed), not one node without slots.
        #[test]
        fn an_empty_redis_session_reopens() {
            let settings = Settings { algorithm: Algorithm::RedisCluster, ..Settings::default() };
            let empty = Session::new(settings.clone(), Vec::<NodeSpec>::new()).unwrap();
            let back = Session::from_link(&empty.link()).unwrap();
            assert_eq!((back.nodes().len(), back.link()), (0, empty.link()));
            let mut emptied = Session::new(settings, [NodeSpec::new("a")]).unwrap();
            emptied.apply(crate::session::Change::Remove("a".into())).unwrap();
            assert_eq!(Session::from_link(&emptied.link()).unwrap().link(), emptied.link());
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]

            /// Any slot layout survives a link: the same ranges by node, in slot order (runs
            /// of one owner merged, as Redis lists them).
            #[test]
            fn any_slot_layout_round_trips((count, ranges) in layout()) {
                let names: Vec<String> = (0..count).map(|i| format!("10.0.0.{i}:6379")).collect();
                let nodes: Vec<NodeSpec> = names.iter().map(NodeSpec::new).collect();
                let settings = Settings { algorithm: Algorithm::RedisCluster, ..Settings::default() };
                let layout = redis::layout_of(&ranges);
                let text = encode_with_down(&settings, &nodes, &[], None, &layout);
                let session = Session::from_link(&text).unwrap();
                let mut owner = vec![None; 16_384];
                for (node, list) in ranges.iter().enumerate() {
                    for &(a, b) in list {
                        owner[usize::from(a)..=usize::from(b)].fill(Some(node));
                    }
                }
                let back = redis::ranges_of(&session.cluster().layout()).unwrap();
                for (node, list) in back.iter().enumerate() {
                    for &(a, b) in list {
                        prop_assert!(owner[usize::from(a)..=usize::from(b)].iter().all(|&o| o == Some(node)));
                    }
                }
                let covered: usize = back.iter().flatten().map(|&(a, b)| usize::from(b - a) + 1).sum();
                prop_assert_eq!(covered, owner.iter().filter(|o| o.is_some()).count());
            }

            /// Whatever `rs` and `ids` hold, reading the link answers: a session or an
            /// `invalid-option` error, never a panic.
            #[test]
            fn hostile_layouts_are_refused_or_read(rs in "[0-9,.\\-]{0,40}", ids in "[0-9,]{0,20}", haproxy: bool) {
                let text = if haproxy {
                    format!("#ringlab=2&a=haproxy-consistent&n=a&n=b&n=c&ids={ids}")
                } else {
                    format!("#ringlab=2&a=redis-cluster&n=a&n=b&n=c&rs={rs}")
                };
                match Session::from_link(&text) {
                    Ok(s) => prop_assert_eq!(s.nodes().len(), 3),
                    Err(e) => prop_assert_eq!(e.code(), "invalid-option", "{}", e),
                }
            }
        }
    }
}
