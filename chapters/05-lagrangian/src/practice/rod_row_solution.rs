// The book's answer to `lagrangian/rod-row`, as `pbm practice solution
// lagrangian/rod-row` prints it. The test `a_hybrid_bead_and_particle_match_the_all_
// constraint_model` (tests/physics.rs) writes the same row for the unit circle.

use nalgebra::Vector2;
use pbm_lagrangian::parametric::ParametricModel;

// ANCHOR: rod_row
/// C = ½ (|d|² − L²) with d = q(θ) − x: Ċ = d·(J θ̇ − ẋ) gives G = (dᵀJ, −dᵀ), and
/// differentiating again with the accelerations held at zero gives Ġ s = ḋ·ḋ +
/// d·J̇ θ̇.
pub fn rod_row(
    bead: &dyn ParametricModel,
    theta: f64,
    theta_dot: f64,
    x: &Vector2<f64>,
    x_dot: &Vector2<f64>,
) -> ([f64; 3], f64) {
    let q = bead.positions(&[theta]);
    let j = bead.jacobian(&[theta]);
    let j_dot = bead.jacobian_dot(&[theta], &[theta_dot]);
    let tangent = Vector2::new(j[(0, 0)], j[(1, 0)]);
    let turning = Vector2::new(j_dot[(0, 0)], j_dot[(1, 0)]) * theta_dot;
    let d = Vector2::new(q[0], q[1]) - x;
    let d_dot = tangent * theta_dot - x_dot;
    let row = [d.dot(&tangent), -d.x, -d.y];
    (row, d_dot.dot(&d_dot) + d.dot(&turning))
}
// ANCHOR_END: rod_row
