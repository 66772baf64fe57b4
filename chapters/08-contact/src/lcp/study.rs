//! The studies the exercises and tests run on random problems: how large the forces
//! come out where rows depend on each other, and what warm starts save.

use super::pivoting::{solve_basis, solve_bounded};
use super::problem::{Bounds, Kind, Rows, dependent_problem, random_problem, scale};
use super::warm::solve_warm_pivoting;
use nalgebra::{DMatrix, DVector};
use pbm_prelim::PbmError;

/// How large the forces come out on problems with dependent rows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DependentStudy {
    /// Problems solved.
    pub problems: usize,
    /// The largest complementarity residual of [`solve_bounded`], relative to
    /// [`scale`].
    pub max_residual: f64,
    /// The largest ratio of [`solve_bounded`]'s largest force to the least-norm
    /// forces' largest.
    pub max_force_ratio: f64,
    /// The same for the pivoting's basis forces alone ([`solve_basis`]).
    pub basis_max_force_ratio: f64,
}

/// Solves [`dependent_problem`]s of sizes 3 to 40 with rank deficits 1 to 5, every
/// kind of rows, `seeds` seeds each, and compares each answer's largest force with
/// the least-norm forces that give the same accelerations from the same active rows
/// (zero acceleration), found by a dense SVD least-squares with the forces' signs
/// left free: no solution has smaller forces.
pub fn dependent_rows_study(seeds: u64) -> Result<DependentStudy, PbmError> {
    let mut study = DependentStudy {
        problems: 0,
        max_residual: 0.0,
        max_force_ratio: 0.0,
        basis_max_force_ratio: 0.0,
    };
    let kinds = [Rows::Unilateral, Rows::Bilateral, Rows::Mixed];
    for seed in 0..seeds {
        for (kind, &rows) in kinds.iter().enumerate() {
            for deficit in 1..=5u64 {
                let m =
                    3 + ((seed * 7 + kind as u64 * 13 + deficit * 5) % 38) as usize;
                let deficit = deficit as usize;
                if deficit >= m {
                    continue;
                }
                let (a, b, bounds) = dependent_problem(m, deficit, rows, seed);
                let s = scale(&a, &b);
                let sol = solve_bounded(&a, &b, &bounds)?;
                let basis = solve_basis(&a, &b, &bounds)?;
                let least = least_norm_force(&a, &b, &sol.a, s);
                study.problems += 1;
                study.max_residual =
                    study.max_residual.max(sol.bounded_residual(&bounds, s));
                study.max_force_ratio =
                    study.max_force_ratio.max(sol.f.amax() / least);
                study.basis_max_force_ratio =
                    study.basis_max_force_ratio.max(basis.f.amax() / least);
            }
        }
    }
    Ok(study)
}

/// The largest of the least-norm forces on the rows whose acceleration `acc` is
/// zero that give the accelerations `acc` (a tiny floor where none is needed).
fn least_norm_force(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    acc: &DVector<f64>,
    s: f64,
) -> f64 {
    let m = b.len();
    let active: Vec<usize> = (0..m).filter(|&i| acc[i].abs() <= 1e-9 * s).collect();
    let floor = 1e-12 * s;
    if active.is_empty() {
        return floor;
    }
    let columns = DMatrix::from_fn(m, active.len(), |r, c| a[(r, active[c])]);
    let mut target = acc - b;
    for &i in &active {
        target[i] = -b[i];
    }
    match columns.svd(true, true).solve(&target, 1e-10 * s) {
        Ok(x) => x.amax().max(floor),
        Err(_) => floor,
    }
}

/// What warm-starting the pivoting saves: `problems` definite problems of 12
/// unknowns with mixed bounds (contacts, bilateral rows, friction-like boxes), the
/// same for the same `seed`, each solved cold, then moved (b changes) enough that
/// most old partitions are wrong, and solved again both ways.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarmStartStudy {
    /// Pivots of the second solves started from the first solve's partition.
    pub warm_pivots: usize,
    /// Pivots of the same solves started from f = 0.
    pub cold_pivots: usize,
    /// How many of the guessed partitions were wrong (needed a pivot).
    pub wrong_guesses: usize,
    /// Whether every warm answer equals the cold one (a definite A has one).
    pub same_answers: bool,
}

/// Runs the [`WarmStartStudy`].
pub fn warm_start_study(
    problems: u64,
    seed: u64,
) -> Result<WarmStartStudy, PbmError> {
    let n = 12;
    let bounds = Bounds {
        lo: (0..n).map(|i| [0.0, f64::NEG_INFINITY, -0.3][i % 3]).collect(),
        hi: (0..n).map(|i| [f64::INFINITY, f64::INFINITY, 0.3][i % 3]).collect(),
    };
    let mut study = WarmStartStudy {
        warm_pivots: 0,
        cold_pivots: 0,
        wrong_guesses: 0,
        same_answers: true,
    };
    for k in seed..seed + problems {
        let (a, b) = random_problem(Kind::Definite, n, k);
        let before = solve_bounded(&a, &b, &bounds)?;
        let moved = &b
            + DVector::from_fn(n, |i, _| {
                0.2 * ((i * 7 + k as usize) % 5) as f64 - 0.4
            });
        let cold = solve_bounded(&a, &moved, &bounds)?;
        let (warm, held) = solve_warm_pivoting(&a, &moved, &bounds, &before)?;
        study.same_answers &= (&warm.f - &cold.f).amax() < 1e-9
            && warm.bounded_residual(&bounds, scale(&a, &moved)) < 1e-9
            && held == (warm.pivots == 0);
        study.wrong_guesses += usize::from(!held);
        study.warm_pivots += warm.pivots;
        study.cold_pivots += cold.pivots;
    }
    Ok(study)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pivoting_on_from_a_near_guess_is_cheaper_and_lands_on_the_same_answer() {
        // Both ways must find the one solution a definite A has; the moves must break
        // most guesses, and pivoting on from them must still cost far less.
        let study = warm_start_study(40, 0).unwrap();
        assert!(study.same_answers, "{study:?}");
        assert!(study.wrong_guesses >= 15, "{study:?}");
        assert!(5 * study.warm_pivots < study.cold_pivots, "{study:?}");
    }
}
