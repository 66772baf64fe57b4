//! Checking derivatives by finite differences. Every analytic Jacobian in the book
//! (spring forces, constraint functions, parametrisations, cloth energies) is tested
//! the same way: perturb one input at a time by ±ε and compare the central difference
//! with the formula. Central differences are accurate to O(ε²); rounding adds about
//! 10⁻¹⁶/ε, so ε = 10⁻⁶ leaves an error near 10⁻¹⁰ relative to the function's size.

/// The step the book's checks use: truncation error about 10⁻¹², rounding about
/// 10⁻¹⁰.
pub const EPSILON: f64 = 1e-6;

// ANCHOR: central_jacobian
/// The central-difference Jacobian of f: ℝⁿ → ℝᵐ at `x`, as an m × n matrix stored
/// row by row: entry (i, k) is (f_i(x + ε e_k) − f_i(x − ε e_k)) / 2ε. `f` writes its
/// m values into its second argument and may fail.
pub fn central_jacobian<E>(
    mut f: impl FnMut(&[f64], &mut [f64]) -> Result<(), E>,
    x: &[f64],
    m: usize,
    eps: f64,
) -> Result<Vec<f64>, E> {
    let n = x.len();
    let mut jacobian = vec![0.0; m * n];
    let (mut probe, mut plus, mut minus) = (x.to_vec(), vec![0.0; m], vec![0.0; m]);
    for k in 0..n {
        probe[k] = x[k] + eps;
        f(&probe, &mut plus)?;
        probe[k] = x[k] - eps;
        f(&probe, &mut minus)?;
        probe[k] = x[k];
        for i in 0..m {
            jacobian[i * n + k] = (plus[i] - minus[i]) / (2.0 * eps);
        }
    }
    Ok(jacobian)
}
// ANCHOR_END: central_jacobian

/// The central-difference derivative of a path: (g(ε) − g(−ε)) / 2ε, entry by entry.
/// With g(s) = J(x + s v) this is J̇ along the velocity v.
pub fn central_derivative<E>(
    mut g: impl FnMut(f64, &mut [f64]) -> Result<(), E>,
    m: usize,
    eps: f64,
) -> Result<Vec<f64>, E> {
    let (mut plus, mut minus) = (vec![0.0; m], vec![0.0; m]);
    g(eps, &mut plus)?;
    g(-eps, &mut minus)?;
    Ok(plus.iter().zip(&minus).map(|(p, q)| (p - q) / (2.0 * eps)).collect())
}

/// The largest entry-wise difference between an analytic and a numerical derivative,
/// relative to `1 + max |analytic|`: absolute for small entries, relative for large
/// ones.
pub fn max_relative_error(analytic: &[f64], numerical: &[f64]) -> f64 {
    let scale = 1.0 + analytic.iter().fold(0.0_f64, |m, a| m.max(a.abs()));
    analytic
        .iter()
        .zip(numerical)
        .map(|(a, n)| (a - n).abs() / scale)
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;

    #[test]
    fn recovers_the_jacobian_of_a_known_map() {
        // f(x, y) = (x² y, sin x + y³): J = [[2xy, x²], [cos x, 3y²]].
        let f = |v: &[f64], out: &mut [f64]| -> Result<(), Infallible> {
            out[0] = v[0] * v[0] * v[1];
            out[1] = v[0].sin() + v[1].powi(3);
            Ok(())
        };
        let (x, y) = (0.7, -1.3);
        let Ok(fd) = central_jacobian(f, &[x, y], 2, EPSILON);
        let exact = [2.0 * x * y, x * x, x.cos(), 3.0 * y * y];
        assert!(max_relative_error(&exact, &fd) < 1e-9, "{fd:?}");
        // A wrong entry is caught: the check can fail.
        let wrong = [2.0 * x * y, x * x, -x.cos(), 3.0 * y * y];
        assert!(max_relative_error(&wrong, &fd) > 0.1);
    }

    #[test]
    fn derivative_along_a_path() {
        // g(s) = (e^{2s}, s³): g'(0) = (2, 0).
        let Ok(d) = central_derivative(
            |s, out: &mut [f64]| -> Result<(), Infallible> {
                out[0] = (2.0 * s).exp();
                out[1] = s.powi(3);
                Ok(())
            },
            2,
            EPSILON,
        );
        assert!(max_relative_error(&[2.0, 0.0], &d) < 1e-9, "{d:?}");
    }

    #[test]
    fn failures_of_the_function_are_passed_on() {
        let err = central_jacobian(|_, _| Err("no"), &[1.0], 1, EPSILON);
        assert_eq!(err, Err("no"));
    }
}
