// Practice `particles/condition-force`: the forces of a soft condition, the notes'
// recipe for turning a wish C = 0 into forces.
//
// Read "Forces and energy functions" (book/src/02-particles/forces.md), the section
// "Condition functions: forces designed from what the particles want". Then fill in
// the body and run `cargo run --release -- practice check particles/condition-force`.

use nalgebra::Vector2;

/// The forces on n particles of a condition C with m = `c.len()` rows, held by
/// stiffness k_s and damping k_d: f_k = Σ_r (−k_s C_r − k_d Ċ_r) ∂C_r/∂x_k, where
/// Ċ_r = Σ_k ∂C_r/∂x_k · v_k. `v` holds the n particles' velocities, and `j` the
/// m·n gradients row after row: `j[r * n + k]` is ∂C_r/∂x_k. Returns the n forces,
/// in the order of `v`.
pub fn condition_forces(
    c: &[f64],
    j: &[Vector2<f64>],
    v: &[Vector2<f64>],
    (k_s, k_d): (f64, f64),
) -> Vec<Vector2<f64>> {
    let _ = (c, j, v, k_s, k_d);
    todo!("the soft condition's forces")
}
