// The book's answer to `implicit/spring-stiffness`, as `pbm practice solution` prints
// it. The chapter's springs (`spring_jacobians` in chapter 2's `spring.rs`) compute the
// same block with the damping terms, in any dimension.

use nalgebra::{Matrix3, Vector3};

// ANCHOR: spring_stiffness
/// ∂f_a/∂x_a = −k_s [u uᵀ + (1 − r/L) P], P = I − u uᵀ: the full k_s along the
/// spring, the tension per unit length across it.
pub fn spring_stiffness(
    x_a: &Vector3<f64>,
    x_b: &Vector3<f64>,
    k_s: f64,
    rest: f64,
) -> Matrix3<f64> {
    let l = x_a - x_b;
    let length = l.norm();
    let u = l / length;
    let along = u * u.transpose();
    let across = Matrix3::identity() - along;
    -(along + across * (1.0 - rest / length)) * k_s
}
// ANCHOR_END: spring_stiffness
