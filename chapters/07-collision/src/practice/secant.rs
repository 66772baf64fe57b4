// Practice `collision/collision-time`: Baraff's secant search for the time of
// collision.
//
// Read "The time of collision, and tunnelling"
// (book/src/07-collision/collision-time.md), the section "Searching a bracket".
// Then fill in the body and run
// `cargo run --release -- practice check collision/collision-time`.

use pbm_prelim::PbmError;

/// A time t in [t0, t1] at which the bodies are within ε of touching, |gap(t)| ≤ ε,
/// where `gap(t)` is their separation at time t: positive apart, negative
/// interpenetrating.
///
/// - The bracket must straddle the band: gap(t0) > ε and gap(t1) < −ε; otherwise
///   return `PbmError::invalid`.
/// - Keep a bracket (t_lo, d_lo), (t_hi, d_hi), apart at t_lo and interpenetrating at
///   t_hi. Each trial time is the secant estimate
///   t_lo + (t_hi − t_lo) d_lo / (d_lo − d_hi), unless it lands in the outer tenth of
///   the bracket at either end; then it is the midpoint.
/// - Stop when |d| ≤ ε at the trial; otherwise the trial replaces the end whose gap
///   has the same sign.
/// - After 200 trials give up with `PbmError::degenerate`.
pub fn collision_time(
    gap: &mut dyn FnMut(f64) -> f64,
    (t0, t1): (f64, f64),
    epsilon: f64,
) -> Result<f64, PbmError> {
    let _ = (gap, t0, t1, epsilon);
    todo!("a time within ε of touching, by the secant estimate inside a bracket")
}
