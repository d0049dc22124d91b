//! Decimal numbers in text that strangers wrote (node weights in lists and links, a link's
//! settings, ports), read so that the wasm modules can leave Rust's float reader out: its
//! tables and code are about 15 KB gzip, and JavaScript's reader is already there. And
//! doubles written with a fixed number of decimals ([`fixed`]), exactly as Rust writes them,
//! without Rust's float writer.

/// How a decimal's value is read: [`rust`] natively; the wasm binding passes JavaScript's
/// own reader, which gives the same correctly rounded double for every decimal and leaves
/// Rust's out of the module.
pub type Reader = fn(&str) -> Option<f64>;

/// Rust's reader.
pub fn rust(text: &str) -> Option<f64> {
    text.parse().ok()
}

/// The value of `text` if it is a decimal ([`is_decimal`]), read by `reader`.
pub fn read(text: &str, reader: Reader) -> Option<f64> {
    Some(text).filter(|t| is_decimal(t)).and_then(reader)
}

/// Whether `text` is a decimal number as both Rust's and JavaScript's readers take it: an
/// optional sign, digits with at most one point (at least one digit), an optional exponent
/// (`e` or `E`, an optional sign, digits). Not `inf` or `NaN` (Rust's words), `0x10` or
/// `Infinity` (JavaScript's), nor spaces or `_`.
pub fn is_decimal(text: &str) -> bool {
    Decimal::of(text).is_some()
}

/// `n` with thousands separators: "1,234,567" (here, below the errors, so that every
/// layer can use it). Written by the integer's own `Display`: going through `u128` put its
/// formatting into modules that format no `u128`.
pub(crate) fn thousands<N: Into<u128> + std::fmt::Display>(n: N) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A decimal's parts: its sign, its digits without leading zeros (in two runs, before and
/// after the point as written), and where its point falls among them.
struct Decimal<'a> {
    negative: bool,
    digits: [&'a [u8]; 2],
    point: i64,
}

impl<'a> Decimal<'a> {
    fn of(text: &'a str) -> Option<Decimal<'a>> {
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        let negative = text.starts_with('-');
        let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
        let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
            Some(e) => (&unsigned[..e], Some(&unsigned[e + 1..])),
            None => (unsigned, None),
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if !(all_digits(whole) && all_digits(fraction)) || whole.len() + fraction.len() == 0 {
            return None;
        }
        let exponent = match exponent {
            None => 0,
            Some(e) => {
                let magnitude = e.strip_prefix(['+', '-']).unwrap_or(e);
                if magnitude.is_empty() || !all_digits(magnitude) {
                    return None;
                }
                // Past ±10^15 the point is beyond any number's digits: saturate.
                let value = magnitude.bytes().fold(0i64, |v, b| (v * 10 + i64::from(b - b'0')).min(1 << 50));
                if e.starts_with('-') {
                    -value
                } else {
                    value
                }
            }
        };
        // Leading zeros moved out, so that the point counts significant digits.
        let (whole, fraction) = (whole.trim_start_matches('0'), fraction);
        let (digits, point) = if whole.is_empty() {
            let significant = fraction.trim_start_matches('0');
            ([significant.as_bytes(), b""], -((fraction.len() - significant.len()) as i64))
        } else {
            ([whole.as_bytes(), fraction.as_bytes()], whole.len() as i64)
        };
        Some(Decimal { negative, digits, point: point + exponent })
    }

    fn is_zero(&self) -> bool {
        self.digits.iter().all(|d| d.iter().all(|&b| b == b'0'))
    }

    /// The digits from the `i`-th on, then zeros without end.
    fn digit(&self, i: i64) -> u8 {
        let mut i = i;
        for part in &self.digits {
            if i < part.len() as i64 {
                return part[i as usize];
            }
            i -= part.len() as i64;
        }
        b'0'
    }
}

/// Whether JavaScript's `+text` is exactly 11,211 (memcached's default port), reading `text`
/// as JavaScript does: spaces around it dropped, `0x`, `0o` and `0b` integers, decimals
/// rounded to the nearest double. A decimal is that double when it lies within half a unit
/// in the last place of it, 2^-40, ties included (11,211's last bit is even).
pub(crate) fn js_number_is_11211(text: &str) -> bool {
    let t = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    for (prefix, radix) in [("0x", 16), ("0X", 16), ("0o", 8), ("0O", 8), ("0b", 2), ("0B", 2)] {
        if let Some(digits) = t.strip_prefix(prefix) {
            return !digits.starts_with('+') && u64::from_str_radix(digits, radix) == Ok(11211);
        }
    }
    let Some(d) = Decimal::of(t) else { return false };
    if d.negative || d.is_zero() || d.point != 5 {
        return false;
    }
    // 2^-40 and 1 - 2^-40, written out in full: the fraction's digits after the point.
    const HALF_ULP: &[u8] = b"0000000000009094947017729282379150390625";
    const ONE_LESS_HALF_ULP: &[u8] = b"9999999999990905052982270717620849609375";
    let whole: Vec<u8> = (0..5).map(|i| d.digit(i)).collect();
    // The fraction against a bound, digit by digit: past both, the bound's digits are zeros.
    let fraction_cmp = |bound: &[u8]| {
        let ends = d.digits.iter().map(|p| p.len() as i64).sum::<i64>().max(5 + bound.len() as i64);
        (5..ends)
            .map(|i| d.digit(i).cmp(bound.get((i - 5) as usize).unwrap_or(&b'0')))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    };
    match &whole[..] {
        b"11211" => fraction_cmp(HALF_ULP).is_le(),
        b"11210" => fraction_cmp(ONE_LESS_HALF_ULP).is_ge(),
        _ => false,
    }
}

/// `x` with `digits` decimals: exactly `format!("{x:.digits$}")`, for every double and every
/// `digits`, so that the wasm modules can leave out Rust's float writer (Grisu with Dragon as
/// its fallback, about 16 KB of code and tables).
///
/// A double is an integer times a power of two, so its decimal expansion ends: `m·2^e` when
/// `e ≥ 0`, else `m·5^k / 10^k` with `k = -e`. Its digits come from that integer, and the
/// expansion is rounded at `digits` places as Rust rounds it: to the nearest, ties (the
/// digits left over exactly `5000…`) to the even digit (`0.125` → `0.12`, `2.5` → `2`).
/// The sign stays on whatever rounds to zero (`-0.0`, `-0.04` → `-0.0`); not on NaN.
pub fn fixed(x: f64, digits: usize) -> String {
    // Plain loops over bytes: iterator adapters and `Vec::splice` brought in more code than
    // this function is.
    if let Some(whole) = without_digits(x) {
        return whole.into();
    }
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    let bits = x.to_bits();
    let (biased, fraction) = ((bits >> 52 & 0x7ff) as i32, bits & ((1 << 52) - 1));
    // `x = m·2^e`, subnormals (biased exponent 0) without the implicit bit.
    let (mut m, mut e) = if biased == 0 { (fraction, -1074) } else { (fraction | 1 << 52, biased - 1075) };
    // Whole twos out of `m`: fewer fives to multiply by, fewer digits to write.
    if m == 0 {
        e = 0;
    } else {
        let twos = m.trailing_zeros();
        m >>= twos;
        e += twos as i32;
    }
    let (factor, times, point) = if e >= 0 { (2u64, e as u32, 0) } else { (5, e.unsigned_abs(), -e as usize) };
    // The integer `m·2^e` or `m·5^k` in base 10^9, least significant limb first, multiplied
    // by up to 13 factors at a time (5^13 < 2^31: a limb times it, plus the carry, fits in
    // 64 bits).
    const BASE: u64 = 1_000_000_000;
    let mut limbs = vec![m % BASE, m / BASE];
    let mut left = times;
    while left > 0 {
        let n = left.min(13);
        left -= n;
        let by = factor.pow(n);
        let mut carry = 0;
        for limb in limbs.iter_mut() {
            let v = *limb * by + carry;
            (*limb, carry) = (v % BASE, v / BASE);
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
    }
    // Its decimal digits, most significant first, the point `point` places from the end,
    // after a zero (where a carry through nines ends) and enough zeros for a digit before
    // the point.
    let mut all = vec![b'0'; 1 + point.saturating_sub(9 * limbs.len())];
    for &limb in limbs.iter().rev() {
        let (mut nine, mut l) = ([0; 9], limb);
        for d in nine.iter_mut().rev() {
            *d = b'0' + (l % 10) as u8;
            l /= 10;
        }
        all.extend_from_slice(&nine);
    }
    // Cut after `digits` places (or all of them) and rounded: up past half, and at half
    // exactly (a 5, then zeros) to the even digit.
    let kept = all.len() - point + digits.min(point);
    let up = match all.get(kept) {
        Some(&d) => {
            d > b'5' || d == b'5' && (all[kept + 1..].iter().any(|&d| d > b'0') || (all[kept - 1] - b'0') % 2 == 1)
        }
        None => false,
    };
    all.truncate(kept);
    if up {
        let mut i = kept - 1;
        while all[i] == b'9' {
            all[i] = b'0';
            i -= 1;
        }
        all[i] += 1;
    }
    let whole = kept - digits.min(point);
    let mut first = 0;
    while first + 1 < whole && all[first] == b'0' {
        first += 1;
    }
    for (i, &d) in all.iter().enumerate().skip(first) {
        if i == whole {
            out.push('.');
        }
        out.push(char::from(d));
    }
    if digits > point {
        if point == 0 {
            out.push('.');
        }
        for _ in point..digits {
            out.push('0');
        }
    }
    out
}

/// `x` as `format!("{x}")` writes it: the shortest decimal that reads back as `x`, without an
/// exponent (`0.00000015`, `100000000000000000000`, `-0`, `NaN`, `inf`). For the words of
/// refusals and explanations (a weight, a range's bounds).
///
/// In the wasm modules that only draw (the element's figures: `figure` without `element`) it
/// is [`ryu_shortest`], which leaves core's float writer out of them; everywhere else Rust's
/// own.
pub fn shortest(x: f64) -> String {
    if crate::algo::entry::DRAWN_ONLY {
        ryu_shortest(x)
    } else {
        x.to_string()
    }
}

/// `x` as `format!("{x:e}")` writes it (`1e-300`, `1.5e0`), as [`shortest`] chooses its writer.
pub fn shortest_exp(x: f64) -> String {
    if crate::algo::entry::DRAWN_ONLY {
        ryu_shortest_exp(x)
    } else {
        format!("{x:e}")
    }
}

/// `x` as `format!("{x}")` writes it, by Ryū's shortest digits (the `ryu` crate) placed as
/// Rust places them. Where two shortest decimals are equally close to `x`, the two may pick
/// different last digits (the tests bound that to the last digit); both read back as `x`.
pub fn ryu_shortest(x: f64) -> String {
    ryu_written(x, |out, digits, point| {
        if point <= 0 {
            out.push_str("0.");
            (0..-point).for_each(|_| out.push('0'));
            digits.iter().for_each(|&d| out.push(char::from(d)));
        } else {
            for (i, &d) in digits.iter().enumerate() {
                if i as i64 == point {
                    out.push('.');
                }
                out.push(char::from(d));
            }
            (digits.len() as i64..point).for_each(|_| out.push('0'));
        }
    })
}

/// `x` as `format!("{x:e}")` writes it, by Ryū's shortest digits (as [`ryu_shortest`]).
pub fn ryu_shortest_exp(x: f64) -> String {
    ryu_written(x, |out, digits, point| {
        out.push(char::from(digits[0]));
        if digits.len() > 1 {
            out.push('.');
            digits[1..].iter().for_each(|&d| out.push(char::from(d)));
        }
        out.push('e');
        out.push_str(itoa::Buffer::new().format(point - 1));
    })
}

/// The whole text of a double without digits, as Rust writes it: `NaN`, `inf`, `-inf`.
fn without_digits(x: f64) -> Option<&'static str> {
    match x {
        _ if x.is_nan() => Some("NaN"),
        f64::INFINITY => Some("inf"),
        f64::NEG_INFINITY => Some("-inf"),
        _ => None,
    }
}

/// `x`'s sign, `NaN` and `inf` as Rust writes them, and otherwise Ryū's shortest digits of
/// `|x|` (no leading or trailing zeros, at least one digit) and where the point falls among
/// them, written by `place`. Zero is the digit 0 with the point after it.
fn ryu_written(x: f64, place: impl Fn(&mut String, &[u8], i64)) -> String {
    if let Some(whole) = without_digits(x) {
        return whole.into();
    }
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    let mut buffer = ryu::Buffer::new();
    let text = buffer.format_finite(x.abs());
    // Ryū writes `d.ddd`, `d.ddde-7` or `de20`: its digits, and where the point goes in them.
    let (mantissa, exponent) = match text.split_once('e') {
        Some((m, e)) => (m, e.parse::<i64>().unwrap_or(0)),
        None => (text, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits: Vec<u8> = whole.bytes().chain(fraction.bytes()).collect();
    let mut point = whole.len() as i64 + exponent;
    while digits.len() > 1 && digits[0] == b'0' {
        digits.remove(0);
        point -= 1;
    }
    while digits.len() > 1 && digits[digits.len() - 1] == b'0' {
        digits.pop();
    }
    if digits == [b'0'] {
        point = 1;
    }
    place(&mut out, &digits, point);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// JavaScript's `+text === 11211`, by Rust's own reader (correctly rounded, as JavaScript's
    /// is: exactly so up to 20 significant digits, and in V8, which runs npm's `hashring`,
    /// beyond) for the decimals, and by hand for the rest.
    fn reference(text: &str) -> bool {
        let t = text.trim();
        if t.is_empty() || t.contains(['x', 'X', 'o', 'O', 'b', 'B']) {
            return false;
        }
        is_decimal(t) && t.parse::<f64>() == Ok(11211.0)
    }

    #[test]
    fn the_default_port_as_javascript_reads_it() {
        let yes = [
            "11211",
            " 11211 ",
            "+11211",
            "011211",
            "11211.",
            "11211.000",
            "1.1211e4",
            "1.1211E+4",
            "112110e-1",
            "0.0011211e7",
            ".11211e5",
            "11211e0000000000000000000000000000",
            // Within half a unit in the last place, the ties included.
            "11211.0000000000009094947017729282379150390625",
            "11211.00000000000090949470177292823791503906249999",
            "11210.9999999999990905052982270717620849609375",
            "11210.99999999999909050529822707176208496093750001",
            "11211.0000000000001",
        ];
        let no = [
            "",
            "0",
            "-11211",
            "11212",
            "11210",
            "1121",
            "112110",
            "11211.00000000000090949470177292823791503906250001",
            "11210.99999999999909050529822707176208496093749999",
            "11211.000000000002",
            "1e99999999999999999999999",
            "11211e-99999999999999999999999",
            "11211a",
            "11 211",
            "Infinity",
            "1_1211",
            "0x2bcc",
        ];
        for text in yes {
            assert!(js_number_is_11211(text), "{text:?}");
        }
        for text in no {
            assert!(!js_number_is_11211(text), "{text:?}");
        }
        for text in yes.iter().chain(&no).filter(|t| !t.contains('e')) {
            assert_eq!(js_number_is_11211(text), reference(text), "{text:?}");
        }
        for (text, yes) in [
            ("0x2bcb", true),
            ("0X2BCB", true),
            ("0o25713", true),
            ("0b10101111001011", true),
            ("0x+2bcb", false),
            ("0x", false),
        ] {
            assert_eq!(js_number_is_11211(text), yes, "{text:?}");
        }
    }

    #[test]
    fn fixed_digits_as_rust_writes_them() {
        let cases: [(f64, usize, &str); 26] = [
            // Ties go to the even digit, in the binary value's own expansion.
            (0.5, 0, "0"),
            (1.5, 0, "2"),
            (2.5, 0, "2"),
            (-0.5, 0, "-0"),
            (0.25, 1, "0.2"),
            (0.75, 1, "0.8"),
            (0.125, 2, "0.12"),
            (0.375, 2, "0.38"),
            // Not ties: the doubles nearest these lie below them, or above (a carry through
            // every digit).
            (0.995, 2, "0.99"),
            (1.005, 2, "1.00"),
            (99.995, 2, "100.00"),
            (9.9996, 3, "10.000"),
            (0.0, 3, "0.000"),
            (-0.0, 0, "-0"),
            (-0.0, 2, "-0.00"),
            (-0.04, 1, "-0.0"),
            (f64::NAN, 2, "NaN"),
            (-f64::NAN, 0, "NaN"),
            (f64::INFINITY, 3, "inf"),
            (f64::NEG_INFINITY, 0, "-inf"),
            (5e-324, 17, "0.00000000000000000"),
            (1e15 + 0.3, 1, "1000000000000000.2"),
            (0.1, 20, "0.10000000000000000555"),
            (123.456, 6, "123.456000"),
            (1e21, 0, "1000000000000000000000"),
            (f64::MAX, 0, "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368"),
        ];
        for (x, digits, want) in cases {
            assert_eq!(fixed(x, digits), want, "{x:e} to {digits}");
            assert_eq!(fixed(x, digits), format!("{x:.digits$}"), "{x:e} to {digits}");
        }
        for digits in [0, 2, 17, 30] {
            assert_eq!(fixed(1e300, digits), format!("{:.digits$}", 1e300));
        }
        // Every digit of the smallest double, and past them.
        for digits in [323, 324, 1074, 1075, 1200] {
            assert_eq!(fixed(5e-324, digits), format!("{:.digits$}", 5e-324), "{digits}");
        }
    }

    #[test]
    fn every_decimal_near_the_port_agrees_with_a_correct_reader() {
        // Random digits right at the edges, half a unit in the last place (2^-40) above
        // 11,211 and below it, where only every digit decides, written plainly and scaled.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let length = 1 + next() % 40;
            let tail: String = (0..length).map(|_| char::from(b'0' + (next() % 10) as u8)).collect();
            let edge = [
                "11211.000000000000909494701772928",
                "11210.999999999999090505298227071",
                "11211.0000000000009",
                "11210.9999999999990",
            ];
            let plain = format!("{}{tail}", edge[(next() % 4) as usize]);
            let scaled = format!("0.{}e5", plain.replace('.', ""));
            for text in [plain, scaled] {
                assert_eq!(js_number_is_11211(&text), reference(&text), "{text}");
            }
        }
    }

    #[test]
    fn ryu_shortest_writes_as_rust_does() {
        for x in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.5,
            1.5,
            2.25,
            100.0,
            11211.0,
            1e20,
            1.5e-7,
            123.456,
            1e-300,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            0.3,
            2.0 / 3.0,
            1e15,
            1e16,
            1e21,
            1e22,
            9007199254740993.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            assert_eq!(ryu_shortest(x), format!("{x}"), "{x:e}");
            assert_eq!(ryu_shortest_exp(x), format!("{x:e}"), "{x:e}");
        }
        assert_eq!((shortest(0.1), shortest_exp(1e-300)), ("0.1".to_string(), "1e-300".to_string()));
    }

    /// Rust's own writer is the reference: any bit pattern, short decimals, ties.
    #[cfg(not(target_arch = "wasm32"))]
    mod ryu_shortest_as_rust_writes {
        use super::{ryu_shortest, ryu_shortest_exp};
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(4000))]

            /// Reads back as `x`, as long as Rust's, and the same but for the last digit of a
            /// tie between two equally close shortest decimals.
            #[test]
            fn as_format_writes_it(bits in any::<u64>(), n in -1_000_000i64..1_000_000, k in 0i32..12) {
                for x in [f64::from_bits(bits), n as f64 / 10f64.powi(k)] {
                    let (ours, rust) = (ryu_shortest(x), format!("{x}"));
                    if x.is_nan() {
                        prop_assert_eq!(ours, rust);
                        continue;
                    }
                    prop_assert_eq!(ours.parse::<f64>().map(f64::to_bits), Ok(x.to_bits()), "{} for {}", ours, rust);
                    prop_assert_eq!(ours.len(), rust.len(), "{} for {}", ours, rust);
                    let last = |t: &str| t.trim_end_matches('0').len().saturating_sub(1);
                    prop_assert_eq!(&ours[..last(&ours)], &rust[..last(&rust)], "{} for {}", ours, rust);
                    // The same digits, and the same exponent, with `{:e}`.
                    let (ours, rust) = (ryu_shortest_exp(x), format!("{x:e}"));
                    prop_assert_eq!(ours.parse::<f64>().map(f64::to_bits), Ok(x.to_bits()), "{} for {}", ours, rust);
                    let (ours_digits, ours_exp) = ours.split_once('e').unwrap_or_default();
                    let (rust_digits, rust_exp) = rust.split_once('e').unwrap_or_default();
                    prop_assert_eq!((ours_digits.len(), ours_exp), (rust_digits.len(), rust_exp), "{} for {}", ours, rust);
                    let n = ours_digits.len().saturating_sub(1);
                    prop_assert_eq!(&ours_digits[..n], &rust_digits[..n], "{} for {}", ours, rust);
                }
            }
        }
    }

    /// Rust's own writer is the reference: any bit pattern, short decimals, ties.
    #[cfg(not(target_arch = "wasm32"))]
    mod fixed_as_rust_writes {
        use super::fixed;
        use proptest::prelude::*;

        /// Values pages show (short decimals, eighths, thousandths) and any double at all.
        fn doubles() -> impl Strategy<Value = f64> {
            prop_oneof![
                any::<u64>().prop_map(f64::from_bits),
                (-1_000_000i64..1_000_000, 0i32..8).prop_map(|(n, k)| n as f64 / 10f64.powi(k)),
                any::<i32>().prop_map(|n| f64::from(n) / 8.0),
                (-100_000i32..100_000).prop_map(|n| f64::from(n) / 1000.0),
                (-1_000_000i64..1_000_000, 0i32..80).prop_map(|(n, j)| n as f64 / 2f64.powi(j)),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(4000))]

            #[test]
            fn as_format_writes_it(x in doubles(), digits in 0usize..=17) {
                prop_assert_eq!(fixed(x, digits), format!("{x:.digits$}"));
            }

            /// An odd multiple of 2^-j ends in a 5 at the j-th place: one place fewer is a tie.
            #[test]
            fn ties_as_format_writes_them(n in -1_000_000i64..1_000_000, j in 1i32..=18) {
                let x = (2 * n + 1) as f64 / 2f64.powi(j);
                let digits = (j - 1) as usize;
                prop_assert_eq!(fixed(x, digits), format!("{x:.digits$}"));
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(300))]

            /// Past 17 places too, up to every digit of the smallest doubles.
            #[test]
            fn many_places_as_format_writes_them(x in doubles(), digits in 18usize..1200) {
                prop_assert_eq!(fixed(x, digits), format!("{x:.digits$}"));
            }
        }
    }
}
