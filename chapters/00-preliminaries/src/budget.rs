//! A work budget: an exercise promises to finish in a few seconds, so before it runs it
//! estimates its cost from its parameters (steps times particles, pairs, grid cells)
//! and refuses, naming the parameters to change, a run that would take much longer.
//! The limits are counted in the exercise's own units and were measured so that a
//! run at the limit takes at most about five seconds on one core of the book's machine
//! (`cargo test --test fuzz` checks that every admitted run finishes in time).

use crate::error::PbmError;

// ANCHOR: within
/// Ok if `work` (in `unit`s) is at most `limit`; otherwise the one-line refusal
/// that says what to `change`. A non-finite estimate (a step of 1e-300 s) is over
/// any limit.
///
/// ```
/// # use pbm_prelim::budget::within;
/// assert!(within(1e6, 1e7, "particle-steps", "lower t_end").is_ok());
/// let e = within(3e9, 1e7, "particle-steps", "lower t_end or raise h").unwrap_err();
/// assert!(e.to_string().contains("3e9 particle-steps"), "{e}");
/// ```
pub fn within(
    work: f64,
    limit: f64,
    unit: &'static str,
    change: &'static str,
) -> Result<(), PbmError> {
    if work <= limit {
        Ok(())
    } else {
        Err(PbmError::TooMuchWork { work, unit, limit, change })
    }
}
// ANCHOR_END: within

/// What `steps` means in every joint limit's words, as `pbm list` prints it: the
/// count [`steps`] returns.
pub const STEPS_MEANS: &str =
    "steps = t_end / h rounded up to whole steps, and at least one";

/// The whole steps of length `h` a run of `t_end` takes: rounded up, and at least one
/// (a run takes a step even when `t_end` is shorter than it), as a float (so a tiny `h`
/// gives a huge number rather than an overflow). Every joint limit that counts steps
/// counts these, and its words call them `steps` ([`STEPS_MEANS`]).
pub fn steps(t_end: f64, h: f64) -> f64 {
    let whole = (t_end / h).ceil();
    // Not `max`, which would turn a NaN (no estimate at all) into one step.
    if whole < 1.0 { 1.0 } else { whole }
}

/// The common case: a run of `t_end / h` steps, at most `limit` of them, refused
/// with "lower t_end or raise h".
pub fn steps_within(t_end: f64, h: f64, limit: f64) -> Result<(), PbmError> {
    within(steps(t_end, h), limit, "steps", "lower t_end or raise h")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Fault;

    #[test]
    fn steps_are_whole_and_at_least_one_as_the_limits_words_say() {
        assert_eq!(steps(1.0, 0.3), 4.0);
        assert_eq!(steps(0.9, 0.3), 3.0);
        assert_eq!(steps(0.1, 1.0), 1.0);
        assert_eq!(steps(0.0, 0.1), 1.0);
        assert!(steps(f64::INFINITY, f64::INFINITY).is_nan());
        assert!(within(steps(f64::NAN, 1.0), 1e9, "steps", "").is_err());
        assert!(
            STEPS_MEANS.contains("rounded up")
                && STEPS_MEANS.contains("at least one")
        );
    }

    #[test]
    fn work_over_the_limit_is_the_readers_to_change() {
        assert!(within(1e7, 1e7, "steps", "lower t_end").is_ok());
        let e = within(steps(1e4, 1e-300), 1e7, "steps", "lower t_end or raise h")
            .unwrap_err();
        assert_eq!(e.fault(), Fault::Input);
        assert_eq!(
            e.to_string(),
            "this run would never finish: it needs over 1e15 steps, against the 1e7 \
             that finish in a few seconds; lower t_end or raise h"
        );
        assert!(within(f64::NAN, 1e7, "steps", "x").is_err());
        assert!(within(f64::INFINITY, 1e7, "steps", "x").is_err());
    }
}
