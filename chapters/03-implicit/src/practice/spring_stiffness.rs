// Practice `implicit/spring-stiffness`: the stiffness block of a spring, the piece
// the implicit step's matrix is assembled from.
//
// Read "Large steps for mass–spring systems" (book/src/03-implicit/mass-spring.md),
// the section "Spring Jacobians" and its derivation box. Then fill in the body and run
// `cargo run --release -- practice check implicit/spring-stiffness`.

use nalgebra::{Matrix3, Vector3};

/// The stiffness block ∂f_a/∂x_a of an undamped spring of stiffness `k_s` and rest
/// length `rest` between x_a and x_b: how the force on a, f_a = −k_s (L − r) u with
/// l = x_a − x_b, L = |l| and u = l/L, changes when x_a moves. The true derivative,
/// for a stretched and for a compressed spring alike (the implicit step's clamp is
/// not asked for here). x_a ≠ x_b.
pub fn spring_stiffness(
    x_a: &Vector3<f64>,
    x_b: &Vector3<f64>,
    k_s: f64,
    rest: f64,
) -> Matrix3<f64> {
    let _ = (x_a, x_b, k_s, rest);
    todo!("∂f_a/∂x_a of the spring")
}
