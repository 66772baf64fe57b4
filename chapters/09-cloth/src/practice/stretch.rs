// Practice `cloth/stretch`: a cloth triangle's stretch condition and its gradient.
//
// Read "Cloth" (book/src/09-cloth/cloth.md), the sections "One triangle's map" and
// "Stretch and shear". Then fill in the body and run
// `cargo run --release -- practice check cloth/stretch`.

use nalgebra::Vector3;
use pbm_cloth::triangle::RestTriangle;
use pbm_prelim::PbmError;

/// The stretch condition of `triangle` at its corners' positions `x` (three of them,
/// in the order of `triangle.corners`), written as the chapter's conditions write
/// theirs: the two rows
///
/// C = √A (|w_u| − 1, |w_v| − 1)
///
/// into `c`, and the gradients ∂C_r/∂x_k into `j`, row by row: `j[k]` = ∂C₀/∂x_k and
/// `j[3 + k]` = ∂C₁/∂x_k. Here w_u = Σ_k a_u[k] x_k and w_v = Σ_k a_v[k] x_k
/// (`triangle.a_u`, `triangle.a_v`, or `triangle.map(x)`), and A is `triangle.area`.
/// A thread collapsed to a point (|w_u| = 0 or |w_v| = 0) has no direction: return
/// `PbmError::degenerate("cloth stretch", "…")` for it, never NaN.
pub fn stretch_condition(
    triangle: &RestTriangle,
    x: &[Vector3<f64>],
    c: &mut [f64],
    j: &mut [Vector3<f64>],
) -> Result<(), PbmError> {
    let _ = (triangle, x, c, j);
    todo!("the stretch condition and its gradient")
}
