//! Dantzig's pivoting for the plain LCP, as short as it can be written: the
//! algorithm of the resting-contact page, before [`crate::lcp`] adds bounds, factor
//! updates, warm starts and the care that redundant contacts need. For a symmetric
//! positive definite A; the tests hold it to [`crate::lcp::solve`].

use nalgebra::{DMatrix, DVector};
use pbm_prelim::PbmError;

/// f ≥ 0 with a = A f + b ≥ 0 and fᵢ aᵢ = 0, for A symmetric positive definite.
pub fn dantzig(a: &DMatrix<f64>, b: &DVector<f64>) -> Result<DVector<f64>, PbmError> {
    dantzig_traced(a, b, |_, _| ())
}

// ANCHOR: dantzig
/// [`dantzig`], showing `each` the forces f and accelerations a after every step. A
/// contact is clamped (aᵢ = 0), free (fᵢ = 0), or not yet driven: neither.
pub fn dantzig_traced(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    mut each: impl FnMut(&DVector<f64>, &DVector<f64>),
) -> Result<DVector<f64>, PbmError> {
    let (n, tol) = (b.len(), 1e-12 * b.amax().max(a.amax()));
    let (mut f, mut acc): (DVector<f64>, _) = (DVector::zeros(n), b.clone());
    let (mut clamped, mut free) = (vec![false; n], vec![false; n]);
    while let Some(d) = (0..n).find(|&i| !clamped[i] && !free[i] && acc[i] < -tol) {
        loop {
            // Direction: Δf_d = 1 and A_CC Δf_C = −A_Cd keep the clamped a at zero.
            let c: Vec<usize> = (0..n).filter(|&i| clamped[i]).collect();
            let a_cc = a.select_rows(&c).select_columns(&c).cholesky();
            let x = a_cc.ok_or_else(singular)?.solve(&-a.select_rows(&c).column(d));
            let mut df = DVector::zeros(n);
            df[d] = 1.0;
            c.iter().zip(x.iter()).for_each(|(&i, &x)| df[i] = x);
            let da = a * &df;
            // The largest step before a_d reaches zero, a clamped force reaches zero
            // or a free acceleration does; j is the index that stops it.
            let stops = (0..n).filter_map(|i| match () {
                _ if clamped[i] && df[i] < 0.0 => Some((-f[i] / df[i], i)),
                _ if free[i] && da[i] < 0.0 => Some((-acc[i] / da[i], i)),
                _ => None,
            });
            let first = |x: (f64, _), y: (f64, _)| if y.0 < x.0 { y } else { x };
            let (s, j) = stops.fold((-acc[d] / da[d], d), first);
            (f, acc) = (f + s * df, acc + s * da);
            each(&f, &acc);
            // j changes sides; d is done when it is the one that stopped the step.
            (clamped[j], free[j]) = (!clamped[j] || j == d, clamped[j] && j != d);
            if j == d {
                break;
            }
        }
    }
    Ok(f)
}
// ANCHOR_END: dantzig

fn singular() -> PbmError {
    PbmError::degenerate("Dantzig's pivoting", "A_CC is singular: A is not definite")
}
