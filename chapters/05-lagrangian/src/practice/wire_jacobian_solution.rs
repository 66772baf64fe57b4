// The book's answer to `lagrangian/wire-jacobian`, as `pbm practice solution` prints
// it. The chapter's `Curve` (`wire.rs`) writes c′ and c″ by hand; this is the same J
// and J̇ for a curve known only as a function.

use nalgebra::Vector2;

// ANCHOR: wire_jacobian
/// J = c′(θ) and J̇ = c″(θ) θ̇ by central differences of c. Rounding in c costs about
/// 10⁻¹⁶/h in c′ and 10⁻¹⁶/h² in c″, truncation h² in both: h = 10⁻⁵ and 10⁻⁴ balance
/// them.
pub fn wire_jacobian(
    curve: &dyn Fn(f64) -> Vector2<f64>,
    theta: f64,
    theta_dot: f64,
) -> (Vector2<f64>, Vector2<f64>) {
    let h = 1e-5;
    let tangent = (curve(theta + h) - curve(theta - h)) / (2.0 * h);
    let h = 1e-4;
    let second = (curve(theta + h) - curve(theta) * 2.0 + curve(theta - h)) / (h * h);
    (tangent, second * theta_dot)
}
// ANCHOR_END: wire_jacobian
