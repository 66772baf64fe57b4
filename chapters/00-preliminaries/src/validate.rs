//! The checks every constructor makes before it accepts a number: a mass must be
//! positive, a damping coefficient non-negative, a coefficient of restitution or
//! friction in [0, 1], and everything finite. Each returns the value it checked, so a
//! constructor reads `mass: positive("particle", "mass", mass)?`, and each error
//! names the thing, the quantity, the value and what is allowed.

use crate::error::PbmError;

fn check(
    what: &'static str,
    name: &str,
    value: f64,
    ok: bool,
    allowed: &str,
) -> Result<f64, PbmError> {
    if ok {
        Ok(value)
    } else {
        Err(PbmError::invalid(
            what,
            format!("{name} = {value}; it must be {allowed}"),
        ))
    }
}

/// `value` if it is finite.
pub fn finite(what: &'static str, name: &str, value: f64) -> Result<f64, PbmError> {
    check(what, name, value, value.is_finite(), "finite")
}

/// `value` if it is positive and finite (a mass, a length, a step size).
pub fn positive(what: &'static str, name: &str, value: f64) -> Result<f64, PbmError> {
    check(what, name, value, value > 0.0 && value.is_finite(), "positive and finite")
}

/// `value` if it is non-negative and finite (a stiffness, a damping coefficient, a
/// rest length).
pub fn non_negative(
    what: &'static str,
    name: &str,
    value: f64,
) -> Result<f64, PbmError> {
    check(
        what,
        name,
        value,
        value >= 0.0 && value.is_finite(),
        "non-negative and finite",
    )
}

/// `value` if it lies in [0, 1] (a coefficient of restitution or of friction).
pub fn unit_interval(
    what: &'static str,
    name: &str,
    value: f64,
) -> Result<f64, PbmError> {
    check(what, name, value, (0.0..=1.0).contains(&value), "in [0, 1]")
}

/// Ok if every number is finite (the coordinates of a position or a velocity).
pub fn all_finite(
    what: &'static str,
    name: &str,
    values: impl IntoIterator<Item = f64>,
) -> Result<(), PbmError> {
    match values.into_iter().find(|v| !v.is_finite()) {
        None => Ok(()),
        Some(v) => Err(PbmError::invalid(
            what,
            format!(
                "{name} has the non-finite entry {v}; every entry must be finite"
            ),
        )),
    }
}

/// Ok if every index in `ids` names one of `count` items: `owner` (a force, a
/// constraint) names `kind`s (particles, bodies) by index, and is checked when it
/// joins a system.
pub fn indices(
    owner: &str,
    kind: &'static str,
    ids: &[usize],
    count: usize,
) -> Result<(), PbmError> {
    match ids.iter().find(|&&i| i >= count) {
        None => Ok(()),
        Some(i) => Err(PbmError::invalid(
            kind,
            format!("{owner} names {kind} {i}, but the system has {count}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_check_accepts_its_range_and_names_what_it_refuses() {
        assert_eq!(positive("particle", "mass", 2.0).ok(), Some(2.0));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let err = positive("particle", "mass", bad).unwrap_err().to_string();
            assert!(err.starts_with("invalid particle: mass = "), "{err}");
            assert!(err.ends_with("it must be positive and finite"), "{err}");
        }
        assert_eq!(non_negative("spring", "k_d", 0.0).ok(), Some(0.0));
        assert!(non_negative("spring", "k_d", -1e-300).is_err());
        assert!(non_negative("spring", "k_d", f64::INFINITY).is_err());
        assert_eq!(unit_interval("bounce", "restitution", 1.0).ok(), Some(1.0));
        assert_eq!(unit_interval("bounce", "restitution", 0.0).ok(), Some(0.0));
        for bad in [1.0000001, -0.1, f64::NAN] {
            let err = unit_interval("bounce", "restitution", bad).unwrap_err();
            assert!(err.to_string().contains("in [0, 1]"), "{err}");
        }
        assert!(finite("plane", "offset", -3.0).is_ok());
        assert!(finite("plane", "offset", f64::NEG_INFINITY).is_err());
        assert!(all_finite("particle", "position", [1.0, 2.0]).is_ok());
        let err = all_finite("particle", "position", [1.0, f64::NAN]).unwrap_err();
        assert!(
            err.to_string().contains("position has the non-finite entry NaN"),
            "{err}"
        );
        assert!(indices("spring", "particle", &[0, 2], 3).is_ok());
        let err = indices("spring", "particle", &[0, 3], 3).unwrap_err().to_string();
        assert_eq!(
            err,
            "invalid particle: spring names particle 3, but the system has 3"
        );
    }
}
