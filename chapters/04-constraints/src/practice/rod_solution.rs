// The book's answer to `constraints/rod`, as `pbm practice solution` prints it. The
// chapter's `Rod` (`constraint.rs`) writes the same formulas into chapter 2's
// `Condition` interface.

use nalgebra::Vector2;

// ANCHOR: rod
/// The rod: C = ½(d·d − L²), J = [dᵀ, −dᵀ], J̇ = [ḋᵀ, −ḋᵀ], d = x_a − x_b.
pub fn rod(
    (x_a, v_a): (&Vector2<f64>, &Vector2<f64>),
    (x_b, v_b): (&Vector2<f64>, &Vector2<f64>),
    length: f64,
) -> (f64, [Vector2<f64>; 2], [Vector2<f64>; 2]) {
    let d = x_a - x_b;
    let d_dot = v_a - v_b;
    let c = 0.5 * (d.dot(&d) - length * length);
    (c, [d, -d], [d_dot, -d_dot])
}
// ANCHOR_END: rod
