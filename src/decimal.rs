//! Decimal numbers in text that strangers wrote (node weights in lists and links, a link's
//! settings, ports): one grammar that both Rust's and JavaScript's readers take the same way,
//! so that a link or list means the same number natively and in every browser. And the
//! float text the engine's words use, in one place.

/// The value of `text` if it is a decimal ([`is_decimal`]): the correctly rounded double,
/// as JavaScript's `Number(text)` reads it too.
pub fn read(text: &str) -> Option<f64> {
    Some(text).filter(|t| is_decimal(t)).and_then(|t| t.parse().ok())
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

/// `x` with `digits` decimals, as `format!("{x:.digits$}")` writes it (ties to even; the sign
/// kept on what rounds to zero).
pub fn fixed(x: f64, digits: usize) -> String {
    format!("{x:.digits$}")
}

/// `x` as `format!("{x}")` writes it: the shortest decimal that reads back as `x`, without an
/// exponent (`0.00000015`, `100000000000000000000`, `-0`, `NaN`, `inf`). For the words of
/// refusals and explanations (a weight, a range's bounds).
pub fn shortest(x: f64) -> String {
    x.to_string()
}

/// `x` as `format!("{x:e}")` writes it (`1e-300`, `1.5e0`).
pub fn shortest_exp(x: f64) -> String {
    format!("{x:e}")
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
}
