// The book's answer to `particles/condition-force`, as `pbm practice solution
// particles/condition-force` prints it: the chapter's `soft_forces` (condition.rs)
// with Ċ = J v computed as `Evaluation::evaluate` does.

use nalgebra::Vector2;

// ANCHOR: condition_forces
/// f_k = Σ_r (−k_s C_r − k_d Ċ_r) ∂C_r/∂x_k with Ċ_r = Σ_k ∂C_r/∂x_k · v_k.
pub fn condition_forces(
    c: &[f64],
    j: &[Vector2<f64>],
    v: &[Vector2<f64>],
    (k_s, k_d): (f64, f64),
) -> Vec<Vector2<f64>> {
    let n = v.len();
    let mut forces = vec![Vector2::zeros(); n];
    for (r, c_r) in c.iter().enumerate() {
        let row = &j[r * n..(r + 1) * n];
        let c_dot: f64 = row.iter().zip(v).map(|(g, v)| g.dot(v)).sum();
        let scale = -k_s * c_r - k_d * c_dot;
        for (f, g) in forces.iter_mut().zip(row) {
            *f += g * scale;
        }
    }
    forces
}
// ANCHOR_END: condition_forces
