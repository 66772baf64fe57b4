// Practice `cloth/thread-weights`: the weights of a triangle's map from its pattern.
//
// Read "Cloth" (book/src/09-cloth/cloth.md), the section "One triangle's map". Then
// fill in the body and run
// `cargo run --release -- practice check cloth/thread-weights`.

use pbm_prelim::PbmError;

/// The weights and area of the cloth triangle whose corners i, j, k sit at `pattern`
/// = [p_i, p_j, p_k] in the flat pattern, (u, v) in metres of material.
///
/// Inside the triangle the map from the pattern to the world is affine, and its two
/// thread vectors are fixed combinations of the corners' world positions:
///
/// w_u = (Δv₂ Δx₁ − Δv₁ Δx₂)/d,   w_v = (Δu₁ Δx₂ − Δu₂ Δx₁)/d,
///
/// with pattern edges (Δu₁, Δv₁) = p_j − p_i, (Δu₂, Δv₂) = p_k − p_i, world edges
/// Δx₁ = x_j − x_i, Δx₂ = x_k − x_i and d = Δu₁ Δv₂ − Δu₂ Δv₁. Return
/// (a_u, a_v, area) such that w_u = Σ_c a_u[c] x_c and w_v = Σ_c a_v[c] x_c for any
/// world positions [x_i, x_j, x_k], and the pattern area (positive, whichever way
/// round the corners run). A pattern whose corners lie on a line (|d| ≤ 1e-12 times
/// the longer of the two edges squared) has no map: return
/// `PbmError::invalid("cloth triangle", "…")` for it.
pub fn thread_weights(
    pattern: [[f64; 2]; 3],
) -> Result<([f64; 3], [f64; 3], f64), PbmError> {
    let _ = pattern;
    todo!("the corners' weights in w_u and w_v, and the area")
}
