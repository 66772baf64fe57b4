// Practice `contact/lcp`: contact forces from the linear complementarity problem.
//
// Read "Resting contact" (book/src/08-contact/resting.md), the three conditions and
// the section "Solving the LCP by pivoting". Then fill in the body and run
// `cargo run --release -- practice check contact/lcp`.

use nalgebra::{DMatrix, DVector};
use pbm_prelim::PbmError;

/// The contact forces f for a symmetric positive definite A (n ≤ 4 in the check) and
/// a vector b: with a = A f + b,
///
/// fᵢ ≥ 0,   aᵢ ≥ 0,   fᵢ aᵢ = 0   for every i.
///
/// Any method will do: Dantzig's pivoting as the page gives it, or trying the sets
/// of clamped contacts (aᵢ = 0) one after another. Return an error only if you find
/// no f.
pub fn contact_forces(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
) -> Result<DVector<f64>, PbmError> {
    let _ = (a, b);
    todo!("forces that push, never pull, and only where the contact would close")
}
