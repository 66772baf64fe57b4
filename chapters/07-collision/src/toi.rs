//! The time of collision: given two polygons apart at the start of a step and
//! interpenetrating at its end, the instant at which they come within ε of touching.

use crate::polygon::{ConvexPolygon, separation};
use pbm_prelim::PbmError;

/// What a collision-time search found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CollisionTime {
    /// The time found: the polygons' separation there lies in [−ε, ε].
    pub t: f64,
    /// Their separation at `t`.
    pub separation: f64,
    /// Times at which the polygons were placed and tested.
    pub evaluations: usize,
}

// ANCHOR: collision_time
/// Finds a time in [t0, t1] at which the polygons `at(t)` are within ε of touching,
/// when they are apart by more than ε at t0 and interpenetrate by more than ε at
/// t1. Each iteration takes the secant estimate from the separations at the ends of
/// the bracket (exact for motion along a line at constant speed), unless it would
/// land in the outer tenth of the bracket, where it bisects instead; the bracket
/// always keeps a separated end and an interpenetrating end, so the search cannot
/// leave it.
pub fn collision_time(
    at: impl Fn(f64) -> (ConvexPolygon, ConvexPolygon),
    (t0, t1): (f64, f64),
    epsilon: f64,
) -> Result<CollisionTime, PbmError> {
    let gap = |t: f64| {
        let (a, b) = at(t);
        separation(&a, &b).0
    };
    let (mut lo, mut hi) = ((t0, gap(t0)), (t1, gap(t1)));
    if !(lo.1 > epsilon && hi.1 < -epsilon) {
        let why = format!(
            "separation {} at the start and {} at the end: the search needs a gap \
             above ε = {epsilon} and a depth below −ε",
            lo.1, hi.1
        );
        return Err(PbmError::invalid("collision time", why));
    }
    for evaluations in 3..=100 {
        let secant = lo.0 + (hi.0 - lo.0) * lo.1 / (lo.1 - hi.1);
        let width = hi.0 - lo.0;
        let t = if (secant - lo.0).min(hi.0 - secant) > 0.1 * width {
            secant
        } else {
            0.5 * (lo.0 + hi.0)
        };
        let d = gap(t);
        if d.abs() <= epsilon {
            return Ok(CollisionTime { t, separation: d, evaluations });
        }
        if d > 0.0 { lo = (t, d) } else { hi = (t, d) }
    }
    let why =
        format!("no time within ε = {epsilon} found between {} and {}", lo.0, hi.0);
    Err(PbmError::degenerate("collision time", why))
}
// ANCHOR_END: collision_time

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector2;

    fn rect(cx: f64, cy: f64) -> ConvexPolygon {
        ConvexPolygon::rectangle(Vector2::new(cx, cy), Vector2::new(0.5, 0.5))
            .unwrap()
    }

    #[test]
    fn a_box_falling_at_constant_speed_meets_the_floor_at_gap_over_speed() {
        // Floor top at y = 0; the box's bottom starts 0.3 above it, falling at 2 /s.
        let floor =
            ConvexPolygon::rectangle(Vector2::new(0.0, -1.0), Vector2::new(5.0, 1.0))
                .unwrap();
        let at = |t: f64| (floor.clone(), rect(0.1, 0.8 - 2.0 * t));
        let found = collision_time(at, (0.0, 0.5), 1e-6).unwrap();
        assert!((found.t - 0.15).abs() <= 1e-6 / 2.0, "{found:?}");
        // A straight constant-speed approach: the first secant is exact.
        assert_eq!(found.evaluations, 3);
    }

    #[test]
    fn a_spinning_box_is_found_within_epsilon() {
        let floor =
            ConvexPolygon::rectangle(Vector2::new(0.0, -1.0), Vector2::new(5.0, 1.0))
                .unwrap();
        let square = rect(0.0, 0.0);
        let at = |t: f64| {
            (floor.clone(), square.placed(Vector2::new(0.0, 1.0 - t), 3.0 * t))
        };
        let found = collision_time(at, (0.0, 1.0), 1e-4).unwrap();
        assert!(found.separation.abs() <= 1e-4, "{found:?}");
        // Before the time found, the box was clear of the floor all along.
        for k in 0..100 {
            let t = found.t * k as f64 / 100.0;
            let (a, b) = at(t);
            assert!(separation(&a, &b).0 > -1e-4, "t = {t}");
        }
    }

    #[test]
    fn a_search_without_a_bracket_says_so() {
        let at = |t: f64| (rect(0.0, 0.0), rect(3.0 - t, 0.0));
        let e = collision_time(at, (0.0, 0.5), 1e-6).unwrap_err();
        assert!(e.to_string().contains("needs a gap"), "{e}");
    }
}
