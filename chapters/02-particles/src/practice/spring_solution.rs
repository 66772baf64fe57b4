// The book's answer to `particles/spring`, as `pbm practice solution
// particles/spring` prints it: the chapter's `spring_force` (spring.rs), which
// serves any dimension, written for the stub's vectors in the plane.

use nalgebra::Vector2;
use pbm_prelim::PbmError;

// ANCHOR: spring_force
/// f_a = −[k_s(|l| − r) + k_d (l̇·l)/|l|] l/|l| with l = x_a − x_b; an error where
/// the ends coincide and l has no direction.
pub fn spring_force(
    (x_a, v_a): (&Vector2<f64>, &Vector2<f64>),
    (x_b, v_b): (&Vector2<f64>, &Vector2<f64>),
    (k_s, k_d, rest): (f64, f64, f64),
) -> Result<Vector2<f64>, PbmError> {
    let l = x_a - x_b;
    let length = l.norm();
    if length == 0.0 || !length.is_finite() {
        let why = "its two ends coincide: no direction";
        return Err(PbmError::degenerate("spring", why));
    }
    let l_dot = v_a - v_b;
    let magnitude = k_s * (length - rest) + k_d * l_dot.dot(&l) / length;
    Ok(-(l / length) * magnitude)
}
// ANCHOR_END: spring_force
