//! The bead on a wire by hand ("Constrained Dynamics", section 2): one particle, one
//! scalar constraint, and λ in closed form. The general solver must reproduce these
//! numbers.

use nalgebra::Vector2;

// ANCHOR: bead_lambda
/// Equation 7: for C = ½(x·x − 1), the multiplier of the constraint force f̂ = λ x
/// that makes the acceleration legal, λ = (−f·x − m ẋ·ẋ) / (x·x).
pub fn bead_lambda(
    mass: f64,
    x: Vector2<f64>,
    v: Vector2<f64>,
    f: Vector2<f64>,
) -> f64 {
    (-f.dot(&x) - mass * v.dot(&v)) / x.dot(&x)
}

/// Equation 8: at rest the constraint force is the projection that removes the normal
/// part of f, f̂ = −(f·x)/(x·x) x.
pub fn force_at_rest(x: Vector2<f64>, f: Vector2<f64>) -> Vector2<f64> {
    x * (-f.dot(&x) / x.dot(&x))
}
// ANCHOR_END: bead_lambda

// ANCHOR: slides_lambda
/// The slides' template for C = |x| − r, with N = ∂C/∂x = x/|x| and Ṅ = ∂Ċ/∂x: λ = −m
/// (Ṅ·ẋ)/(N·N) − (N·f)/(N·N), constraint force λ N. The applied force f appears here,
/// not its time derivative ḟ (see the errata box).
pub fn slides_constraint_force(
    mass: f64,
    x: Vector2<f64>,
    v: Vector2<f64>,
    f: Vector2<f64>,
) -> Vector2<f64> {
    let len = x.norm();
    let n = x / len;
    let n_dot = (v - x * (x.dot(&v) / x.dot(&x))) / len;
    let lambda = -mass * n_dot.dot(&v) / n.dot(&n) - n.dot(&f) / n.dot(&n);
    n * lambda
}
// ANCHOR_END: slides_lambda
