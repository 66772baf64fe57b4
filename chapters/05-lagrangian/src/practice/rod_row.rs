// Practice `lagrangian/rod-row`: the row of a rod between a parametric bead and a
// free particle.
//
// Read "Lagrangian Dynamics" (book/src/05-lagrangian/index.md), the section "A
// hybrid, worked". Then fill in the body and run
// `cargo run --release -- practice check lagrangian/rod-row`.

use nalgebra::Vector2;
use pbm_lagrangian::parametric::ParametricModel;

/// A bead on a wire (`bead`, one coordinate θ: q(θ) = `bead.positions(&[theta])`,
/// J = `bead.jacobian(&[theta])`, a 2 × 1 matrix, J̇ = `bead.jacobian_dot(&[theta],
/// &[theta_dot])`) is joined to a free particle at `x`, moving at `x_dot`, by a rod
/// C = ½ (|d|² − L²) with d = q(θ) − x. The velocities are s = (θ̇, ẋ, ẏ). Return the
/// rod's row of G = ∂Ċ/∂s and the product Ġ s:
///
///   G = (dᵀJ, −d_x, −d_y),   Ġ s = ḋ·ḋ + d·J̇ θ̇,   with ḋ = J θ̇ − ẋ.
///
/// Mind the θ̇s: `jacobian_dot` already holds one (J̇ = c″ θ̇ on a wire c), and the
/// term d·J̇ θ̇ multiplies by it once more.
pub fn rod_row(
    bead: &dyn ParametricModel,
    theta: f64,
    theta_dot: f64,
    x: &Vector2<f64>,
    x_dot: &Vector2<f64>,
) -> ([f64; 3], f64) {
    let _ = (bead, theta, theta_dot, x, x_dot);
    todo!("G = (dᵀJ, −dᵀ) and Ġ s = ḋ·ḋ + d·J̇ θ̇")
}
