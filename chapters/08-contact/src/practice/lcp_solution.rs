// The book's answer to `contact/lcp`, as `pbm practice solution` prints it: Dantzig's
// pivoting as `dantzig.rs` writes it, without the trace. (The simulation's solver,
// `lcp.rs`, adds bounds, factor updates and warm starts.)

use nalgebra::{DMatrix, DVector};
use pbm_prelim::PbmError;

// ANCHOR: contact_forces
/// f ≥ 0 with a = A f + b ≥ 0 and fᵢ aᵢ = 0, for A symmetric positive definite.
pub fn contact_forces(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
) -> Result<DVector<f64>, PbmError> {
    let (n, tol) = (b.len(), 1e-12 * b.amax().max(a.amax()));
    let (mut f, mut acc): (DVector<f64>, _) = (DVector::zeros(n), b.clone());
    let (mut clamped, mut free) = (vec![false; n], vec![false; n]);
    // Drive each contact d that accelerates into interpenetration.
    while let Some(d) = (0..n).find(|&i| !clamped[i] && !free[i] && acc[i] < -tol) {
        loop {
            // Δf_d = 1 and A_CC Δf_C = −A_Cd keep the clamped accelerations at zero.
            let c: Vec<usize> = (0..n).filter(|&i| clamped[i]).collect();
            let singular =
                || PbmError::degenerate("contact forces", "A_CC is singular");
            let a_cc = a.select_rows(&c).select_columns(&c).cholesky();
            let x = a_cc.ok_or_else(singular)?.solve(&-a.select_rows(&c).column(d));
            let mut df = DVector::zeros(n);
            df[d] = 1.0;
            c.iter().zip(x.iter()).for_each(|(&i, &x)| df[i] = x);
            let da = a * &df;
            // The largest step before a_d, a clamped force or a free acceleration
            // reaches zero; j is the index that stops it.
            let (mut s, mut j) = (-acc[d] / da[d], d);
            for i in 0..n {
                let stop = if clamped[i] && df[i] < 0.0 {
                    -f[i] / df[i]
                } else if free[i] && da[i] < 0.0 {
                    -acc[i] / da[i]
                } else {
                    continue;
                };
                if stop < s {
                    (s, j) = (stop, i);
                }
            }
            (f, acc) = (f + df * s, acc + da * s);
            // j changes sides; d is done when it is the one that stopped the step.
            (clamped[j], free[j]) = (!clamped[j] || j == d, clamped[j] && j != d);
            if j == d {
                break;
            }
        }
    }
    Ok(f)
}
// ANCHOR_END: contact_forces
