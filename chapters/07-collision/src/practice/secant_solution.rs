// The book's answer to `collision/collision-time`, as `pbm practice solution
// collision/collision-time` prints it. The chapter's own `collision_time` in `toi.rs`
// measures the gap of two polygons and can also bisect; this is the same search on a
// gap given as a function.

use pbm_prelim::PbmError;

// ANCHOR: collision_time
/// A time in [t0, t1] with |gap(t)| ≤ ε, by Baraff's secant estimate inside a bracket
/// that keeps a separated end and an interpenetrating end, bisecting where the
/// estimate would land in the outer tenth of the bracket.
pub fn collision_time(
    gap: &mut dyn FnMut(f64) -> f64,
    (t0, t1): (f64, f64),
    epsilon: f64,
) -> Result<f64, PbmError> {
    let (mut lo, mut hi) = ((t0, gap(t0)), (t1, gap(t1)));
    if !(lo.1 > epsilon && hi.1 < -epsilon) {
        let why = format!("gap {} at t0 and {} at t1 do not straddle ±ε", lo.1, hi.1);
        return Err(PbmError::invalid("collision time", why));
    }
    for _ in 0..200 {
        let width = hi.0 - lo.0;
        let secant = lo.0 + width * lo.1 / (lo.1 - hi.1);
        let t = if (secant - lo.0).min(hi.0 - secant) > 0.1 * width {
            secant
        } else {
            0.5 * (lo.0 + hi.0)
        };
        let d = gap(t);
        if d.abs() <= epsilon {
            return Ok(t);
        }
        if d > 0.0 { lo = (t, d) } else { hi = (t, d) }
    }
    let why = format!("no time within ε = {epsilon} in 200 trials");
    Err(PbmError::degenerate("collision time", why))
}
// ANCHOR_END: collision_time
