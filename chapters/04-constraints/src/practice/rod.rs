// Practice `constraints/rod`: the rod's constraint function, its Jacobian and J̇.
//
// Read "Systems of constraints: Tinkertoys" (book/src/04-constraints/tinkertoys.md),
// the section "Constraint objects". Then fill in the body and run
// `cargo run --release -- practice check constraints/rod`.

use nalgebra::Vector2;

/// A rigid rod of length L between particles a and b, with d = x_a − x_b:
/// C = ½(d·d − L²), and from Ċ = d·ḋ the Jacobian's two blocks J = [dᵀ, −dᵀ]
/// (∂C/∂x_a and ∂C/∂x_b) and J̇ = [ḋᵀ, −ḋᵀ] with ḋ = v_a − v_b.
/// Returns (C, [∂C/∂x_a, ∂C/∂x_b], [J̇_a, J̇_b]).
pub fn rod(
    (x_a, v_a): (&Vector2<f64>, &Vector2<f64>),
    (x_b, v_b): (&Vector2<f64>, &Vector2<f64>),
    length: f64,
) -> (f64, [Vector2<f64>; 2], [Vector2<f64>; 2]) {
    let _ = (x_a, v_a, x_b, v_b, length);
    todo!("C, J and J̇ of the rod")
}
