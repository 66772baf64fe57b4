// Practice `cloth/hessian`: the Hessian of a condition's energy.
//
// Read "Draping Cloth with Large Steps" (book/src/09-cloth/drape.md), the section
// "From a condition to a force and a Hessian". Then fill in the body and run
// `cargo run --release -- practice check cloth/hessian`.

use nalgebra::{DMatrix, Vector3};

/// The Hessian of E = ½ k |C|² for a condition of `c.len()` rows on n particles:
///
/// ∇²E = k (Jᵀ J + Σ_r C_r ∇²C_r),
///
/// a 3n × 3n matrix whose entry (3a + p, 3b + q) is ∂²E/∂x_a,p ∂x_b,q. The condition
/// is given as the chapter's conditions give it: its values `c`, its gradients `j`
/// row by row (`j[r * n + a]` = ∂C_r/∂x_a, so n = j.len() / c.len()), and
/// `second[r]` = ∇²C_r, 3n × 3n in the same order.
pub fn condition_hessian(
    c: &[f64],
    j: &[Vector3<f64>],
    second: &[DMatrix<f64>],
    k: f64,
) -> DMatrix<f64> {
    let _ = (c, j, second, k);
    todo!("k (JᵀJ + Σ C_r ∇²C_r)")
}
