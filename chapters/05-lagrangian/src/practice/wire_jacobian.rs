// Practice `lagrangian/wire-jacobian`: J and J̇ of a bead on any wire c(θ).
//
// Read "Lagrangian Dynamics" (book/src/05-lagrangian/index.md), the section "Any
// wire you can draw". Then fill in the body and run
// `cargo run --release -- practice check lagrangian/wire-jacobian`.

use nalgebra::Vector2;

/// For a bead at q = c(θ) on a wire given only as the function `curve` (θ ↦ c(θ)),
/// moving at θ̇: the Jacobian J = c′(θ) and its rate J̇ = c″(θ) θ̇, returned as
/// (J, J̇). You have c alone, so take its derivatives by central differences:
/// c′ ≈ (c(θ + h) − c(θ − h)) / 2h, c″ ≈ (c(θ + h) − 2 c(θ) + c(θ − h)) / h², with
/// a step h that balances truncation against rounding.
pub fn wire_jacobian(
    curve: &dyn Fn(f64) -> Vector2<f64>,
    theta: f64,
    theta_dot: f64,
) -> (Vector2<f64>, Vector2<f64>) {
    let _ = (curve, theta, theta_dot);
    todo!("J = c′(θ) and J̇ = c″(θ) θ̇")
}
