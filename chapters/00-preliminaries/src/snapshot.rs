//! Rounding for snapshots: floats are kept to a fixed number of significant digits so
//! that a snapshot does not change with the last bits of a platform's libm. The same
//! rounding writes numbers for people, in tables and error messages.

#[cfg(feature = "book")]
use serde_json::Value;

// ANCHOR: round_sig
/// Rounds `x` to `digits` significant decimal digits. Zero and non-finite values are
/// returned as they are.
pub fn round_sig(x: f64, digits: u32) -> f64 {
    if x == 0.0 || !x.is_finite() || digits == 0 {
        return x;
    }
    // Formatting in scientific notation and parsing back rounds in decimal, exactly
    // as a reader would; scaling by powers of ten would add binary rounding errors of
    // its own.
    let text = format!("{:.*e}", (digits - 1) as usize, x);
    text.parse().unwrap_or(x)
}
// ANCHOR_END: round_sig

/// `x` as a person reads it: six significant digits, in scientific notation when it
/// is very small or very large (`0.0021`, `4.12`, `1e-12`, `3.5e9`).
pub fn short(x: f64) -> String {
    let x = round_sig(x, 6);
    if x != 0.0 && x.is_finite() && (x.abs() < 1e-3 || x.abs() >= 1e7) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// Returns a copy of `value` with every float rounded by [`round_sig`]. Integers,
/// strings and booleans are unchanged.
#[cfg(feature = "book")]
pub fn round_json(value: &Value, digits: u32) -> Value {
    match value {
        Value::Number(n) if n.is_f64() => n
            .as_f64()
            .and_then(|x| serde_json::Number::from_f64(round_sig(x, digits)))
            .map(Value::Number)
            .unwrap_or(Value::Null),
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| round_json(v, digits)).collect())
        }
        Value::Object(map) => Value::Object(
            map.iter().map(|(k, v)| (k.clone(), round_json(v, digits))).collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_significant_digits() {
        assert_eq!(round_sig(0.123456789, 4), 0.1235);
        assert_eq!(round_sig(-98765.4321, 3), -98800.0);
        assert_eq!(round_sig(1.0000000001e-12, 6), 1e-12);
        assert_eq!(round_sig(0.0, 6), 0.0);
        assert!(round_sig(f64::NAN, 6).is_nan());
    }

    #[test]
    fn short_numbers_for_people() {
        assert_eq!(short(0.0020999999), "0.0021");
        assert_eq!(short(4.12), "4.12");
        assert_eq!(short(1e-12), "1e-12");
        assert_eq!(short(3.5e9), "3.5e9");
        assert_eq!(short(0.0), "0");
        assert_eq!(short(f64::INFINITY), "inf");
    }

    #[cfg(feature = "book")]
    #[test]
    fn rounds_nested_json_and_leaves_other_values() {
        use serde_json::json;
        let v =
            json!({"a": 1.23456, "b": [2.74828, 3], "c": {"d": "text", "e": true}});
        let r = round_json(&v, 3);
        assert_eq!(
            r,
            json!({"a": 1.23, "b": [2.75, 3], "c": {"d": "text", "e": true}})
        );
    }
}
