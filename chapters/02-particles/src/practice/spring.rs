// Practice `particles/spring`: the damped spring's force.
//
// Read "Forces and energy functions" (book/src/02-particles/forces.md), the section
// "A damped spring". Then fill in the body and run
// `cargo run --release -- practice check particles/spring`.

use nalgebra::Vector2;
use pbm_prelim::PbmError;

/// The force on particle a of a damped spring to particle b, with l = x_a − x_b:
/// f_a = −[k_s (|l| − r) + k_d (l̇·l)/|l|] l/|l|. The force on b is −f_a (the check
/// applies it). Ends that coincide give no direction: return an error for them,
/// `PbmError::degenerate("spring", "…")`, never NaN.
pub fn spring_force(
    (x_a, v_a): (&Vector2<f64>, &Vector2<f64>),
    (x_b, v_b): (&Vector2<f64>, &Vector2<f64>),
    (k_s, k_d, rest): (f64, f64, f64),
) -> Result<Vector2<f64>, PbmError> {
    let _ = (x_a, v_a, x_b, v_b, k_s, k_d, rest);
    todo!("the damped spring's force on a")
}
