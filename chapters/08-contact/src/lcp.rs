//! The linear complementarity problem of contact forces: given a square matrix A and
//! a vector b, find f with
//!
//! a = A f + b,   f ≥ 0,   a ≥ 0,   fᵢ aᵢ = 0 for every i.
//!
//! Each row is a contact: fᵢ is the force pushing the bodies apart, aᵢ their
//! relative normal acceleration. Either the bodies separate (aᵢ > 0) and no force
//! acts, or they stay in contact (aᵢ = 0) and the force is whatever keeps them so.
//! The solver is Dantzig's principal pivoting method in the form Baraff (1994) gives
//! it: contacts are brought into complementarity one at a time, each by increasing its
//! force while keeping every contact already settled settled.

use nalgebra::{DMatrix, DVector};
use pbm_prelim::PbmError;

/// A solution, and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct LcpSolution {
    /// The forces f.
    pub f: DVector<f64>,
    /// The accelerations a = A f + b.
    pub a: DVector<f64>,
    /// Pivots: moves of one index between the clamped and the free set.
    pub pivots: usize,
}

impl LcpSolution {
    /// How far the solution is from complementarity: the largest of −fᵢ, −aᵢ and
    /// |fᵢ aᵢ|, relative to the size of the problem's numbers.
    pub fn residual(&self, scale: f64) -> f64 {
        let s = scale.max(f64::MIN_POSITIVE);
        self.f
            .iter()
            .zip(self.a.iter())
            .map(|(&f, &a)| (-f / s).max(-a / s).max((f * a).abs() / (s * s)))
            .fold(0.0, f64::max)
    }
}

/// A scale for the residual: the largest entry of b, or of A times that.
pub fn scale(a: &DMatrix<f64>, b: &DVector<f64>) -> f64 {
    b.amax().max(a.amax()).max(1e-300)
}

fn check(a: &DMatrix<f64>, b: &DVector<f64>) -> Result<(), PbmError> {
    let n = b.len();
    if a.nrows() != n || a.ncols() != n {
        let why = format!("A is {}×{} but b has {n} entries", a.nrows(), a.ncols());
        return Err(PbmError::invalid("contact problem", why));
    }
    if a.iter().chain(b.iter()).any(|x| !x.is_finite()) {
        return Err(PbmError::invalid(
            "contact problem",
            "A or b has a non-finite entry",
        ));
    }
    Ok(())
}

/// Where each index stands during the pivoting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Set {
    /// aᵢ = 0 is held and fᵢ ≥ 0 is free to change: a contact that stays closed.
    Clamped,
    /// fᵢ = 0 is held and aᵢ ≥ 0 may change: a contact that may separate.
    Free,
    /// Not yet brought into complementarity.
    Pending,
}

// ANCHOR: direction
/// The direction in which to change f as index d is driven: Δf_d = 1, the clamped
/// forces change so that their accelerations stay at zero (A_CC Δf_C = −A_Cd), the
/// free forces stay at zero. Returns Δf and Δa = A Δf.
fn direction(
    a: &DMatrix<f64>,
    sets: &[Set],
    d: usize,
) -> Result<(DVector<f64>, DVector<f64>), PbmError> {
    let n = sets.len();
    let clamped: Vec<usize> = (0..n).filter(|&i| sets[i] == Set::Clamped).collect();
    let mut df = DVector::zeros(n);
    df[d] = 1.0;
    if !clamped.is_empty() {
        let k = clamped.len();
        let acc = DMatrix::from_fn(k, k, |r, c| a[(clamped[r], clamped[c])]);
        let rhs = DVector::from_fn(k, |r, _| -a[(clamped[r], d)]);
        let x = acc.lu().solve(&rhs).ok_or_else(|| {
            let why = format!(
                "the {k} clamped contacts' matrix A_CC is singular while driving \
                 contact {d}"
            );
            PbmError::degenerate("contact forces", why)
        })?;
        for (r, &i) in clamped.iter().enumerate() {
            df[i] = x[r];
        }
    }
    let da = a * &df;
    Ok((df, da))
}
// ANCHOR_END: direction

// ANCHOR: max_step
/// The largest step s along (Δf, Δa) before something would break: a_d reaching
/// zero (d is done), a clamped force reaching zero (it must become free), or a free
/// acceleration reaching zero (it must become clamped). Returns s and the index that
/// limits it.
fn max_step(
    f: &DVector<f64>,
    acc: &DVector<f64>,
    df: &DVector<f64>,
    da: &DVector<f64>,
    sets: &[Set],
    d: usize,
) -> (f64, usize) {
    let mut best = (f64::INFINITY, d);
    if da[d] > 0.0 {
        best = (-acc[d] / da[d], d);
    }
    for i in 0..sets.len() {
        let s = match sets[i] {
            Set::Clamped if df[i] < 0.0 => -f[i] / df[i],
            Set::Free if da[i] < 0.0 => -acc[i] / da[i],
            _ => continue,
        };
        if s < best.0 {
            best = (s, i);
        }
    }
    best
}
// ANCHOR_END: max_step

// ANCHOR: solve
/// Solves the LCP by principal pivoting. Starting from f = 0 (a = b), every contact
/// with aᵢ < 0 is driven: its force grows (and the clamped forces adjust) until its
/// acceleration reaches zero, while any clamped force that would go negative is
/// freed and any free acceleration that would go negative is clamped on the way.
/// Converges for the matrices contact produces (symmetric positive semidefinite)
/// and for P-matrices; a problem with no solution says so.
pub fn solve(a: &DMatrix<f64>, b: &DVector<f64>) -> Result<LcpSolution, PbmError> {
    check(a, b)?;
    let n = b.len();
    let mut f = DVector::zeros(n);
    let mut acc = b.clone();
    let mut sets = vec![Set::Pending; n];
    let mut pivots = 0;
    // Roundoff: an acceleration this close to zero counts as zero.
    let tol = 1e-12 * scale(a, b);
    for i in 0..n {
        if acc[i] >= -tol {
            sets[i] = Set::Free;
        }
    }
    while let Some(d) = (0..n).find(|&i| sets[i] == Set::Pending && acc[i] < -tol) {
        loop {
            let (df, da) = direction(a, &sets, d)?;
            let (s, j) = max_step(&f, &acc, &df, &da, &sets, d);
            if !s.is_finite() {
                let why = format!(
                    "contact {d}'s acceleration cannot be brought to zero by any \
                     force: the problem has no solution"
                );
                return Err(PbmError::degenerate("contact forces", why));
            }
            f += s * &df;
            acc += s * &da;
            pivots += 1;
            if pivots > 50 * (n + 1) * (n + 1) {
                let why = format!("no solution after {pivots} pivots (cycling?)");
                return Err(PbmError::degenerate("contact forces", why));
            }
            match sets[j] {
                Set::Clamped => {
                    f[j] = 0.0;
                    sets[j] = Set::Free;
                }
                Set::Free => {
                    acc[j] = 0.0;
                    sets[j] = Set::Clamped;
                }
                Set::Pending => {}
            }
            // d is done when its acceleration reaches zero: as the limiting index,
            // or at the same step as another (redundant contacts tie exactly, and
            // roundoff may name the other one).
            if j == d || acc[d] >= -tol {
                acc[d] = 0.0;
                sets[d] = Set::Clamped;
                break;
            }
        }
    }
    // Every index is now free with a ≥ 0 or clamped with a = 0 and f ≥ 0.
    Ok(LcpSolution { f, a: acc, pivots })
}
// ANCHOR_END: solve

// ANCHOR: warm
/// Baraff's (1995) warm start: guess that the contacts clamped last step are the
/// clamped ones now, solve A_CC f_C = −b_C for them with the others at zero, and
/// accept if the result is complementary (f_C ≥ 0, a ≥ 0 elsewhere). In a scene
/// at rest the guess is almost always right and costs one linear solve; otherwise
/// fall back to pivoting from scratch. Returns the solution and whether the guess
/// held.
pub fn solve_warm(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    clamped: &[bool],
) -> Result<(LcpSolution, bool), PbmError> {
    check(a, b)?;
    let n = b.len();
    let set: Vec<usize> = (0..n).filter(|&i| clamped.get(i) == Some(&true)).collect();
    let tol = 1e-10 * scale(a, b);
    let mut f = DVector::zeros(n);
    let solved = if set.is_empty() {
        true
    } else {
        let k = set.len();
        let acc = DMatrix::from_fn(k, k, |r, c| a[(set[r], set[c])]);
        let rhs = DVector::from_fn(k, |r, _| -b[set[r]]);
        match acc.lu().solve(&rhs) {
            Some(x) => {
                for (r, &i) in set.iter().enumerate() {
                    f[i] = x[r];
                }
                true
            }
            None => false,
        }
    };
    if solved {
        let acc = a * &f + b;
        if f.iter().all(|&x| x >= -tol) && acc.iter().all(|&x| x >= -tol) {
            let f = f.map(|x| x.max(0.0));
            let mut acc = acc;
            for &i in &set {
                acc[i] = 0.0;
            }
            return Ok((LcpSolution { f, a: acc, pivots: 0 }, true));
        }
    }
    Ok((solve(a, b)?, false))
}
// ANCHOR_END: warm

/// Every solution by enumeration: for each subset S of indices, solve A_SS f_S = −b_S
/// and keep it if f_S ≥ 0 and a ≥ 0 elsewhere. 2ⁿ subsets: a check for small n only.
pub fn enumerate(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    tol: f64,
) -> Result<Vec<DVector<f64>>, PbmError> {
    check(a, b)?;
    let n = b.len();
    if n > 20 {
        let why = format!("{n} unknowns: 2^{n} subsets is too many to enumerate");
        return Err(PbmError::invalid("enumeration", why));
    }
    let mut found = Vec::new();
    for mask in 0u32..(1 << n) {
        let set: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
        let mut f = DVector::zeros(n);
        if !set.is_empty() {
            let k = set.len();
            let ass = DMatrix::from_fn(k, k, |r, c| a[(set[r], set[c])]);
            let rhs = DVector::from_fn(k, |r, _| -b[set[r]]);
            let Some(x) = ass.lu().solve(&rhs) else { continue };
            for (r, &i) in set.iter().enumerate() {
                f[i] = x[r];
            }
        }
        let acc = a * &f + b;
        if f.iter().all(|&x| x >= -tol) && acc.iter().all(|&x| x >= -tol) {
            found.push(f);
        }
    }
    Ok(found)
}

/// Kinds of random test problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A = M Mᵀ + I/10: symmetric positive definite, one solution.
    Definite,
    /// The same plus a skew-symmetric part: positive definite but not symmetric, a
    /// P-matrix, still one solution.
    Unsymmetric,
    /// A = J Jᵀ with J of n rows and n/2 columns, b = J w: positive semidefinite and
    /// singular, as redundant contacts make it. Many f, one a.
    Redundant,
}

/// A random problem of `kind` and size `n`, the same for the same `seed`; entries of
/// M, J, w and b uniform in [−1, 1).
pub fn random_problem(
    kind: Kind,
    n: usize,
    seed: u64,
) -> (DMatrix<f64>, DVector<f64>) {
    use pbm_prelim::sampling::sample;
    let base = seed.wrapping_mul(1_000_003).wrapping_mul(4096);
    let mut k = 0u64;
    let mut next = || {
        k += 1;
        sample(base.wrapping_add(k))
    };
    match kind {
        Kind::Definite | Kind::Unsymmetric => {
            let m = DMatrix::from_fn(n, n, |_, _| next());
            let mut a = &m * m.transpose() + DMatrix::identity(n, n) * 0.1;
            if kind == Kind::Unsymmetric {
                let s = DMatrix::from_fn(n, n, |_, _| next());
                a += &s - s.transpose();
            }
            let b = DVector::from_fn(n, |_, _| next());
            (a, b)
        }
        Kind::Redundant => {
            let cols = (n / 2).max(1);
            let j = DMatrix::from_fn(n, cols, |_, _| next());
            let w = DVector::from_fn(cols, |_, _| next());
            (&j * j.transpose(), &j * w)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_contact_pushes_exactly_hard_enough() {
        // A block on the floor: a = 2 f − 9.81 (A = 1/m with m = 0.5).
        let sol = solve(
            &DMatrix::from_element(1, 1, 2.0),
            &DVector::from_element(1, -9.81),
        )
        .unwrap();
        assert!((sol.f[0] - 4.905).abs() < 1e-12 && sol.a[0] == 0.0);
        // Lifting off: b > 0 needs no force.
        let sol =
            solve(&DMatrix::from_element(1, 1, 2.0), &DVector::from_element(1, 1.0))
                .unwrap();
        assert_eq!((sol.f[0], sol.pivots), (0.0, 0));
    }

    #[test]
    fn a_problem_without_a_solution_says_so() {
        // a = −f − 1 can never be made non-negative with f ≥ 0.
        let e = solve(
            &DMatrix::from_element(1, 1, -1.0),
            &DVector::from_element(1, -1.0),
        )
        .unwrap_err();
        assert!(e.to_string().contains("no solution"), "{e}");
        let e = solve(&DMatrix::zeros(2, 3), &DVector::zeros(2)).unwrap_err();
        assert!(e.to_string().contains("2×3"), "{e}");
        let e = solve(&DMatrix::from_element(1, 1, f64::NAN), &DVector::zeros(1))
            .unwrap_err();
        assert!(e.to_string().contains("non-finite"), "{e}");
    }

    #[test]
    fn a_clamped_force_that_would_pull_is_released() {
        // Two coupled contacts: contact 0 is settled first with f₀ = 1; driving
        // contact 1 then pushes contact 0 apart, so its force drops to zero and it is
        // freed. The answer: f = (0, 3), a = (1.7, 0).
        let a = DMatrix::from_row_slice(2, 2, &[1.0, 0.9, 0.9, 1.0]);
        let b = DVector::from_vec(vec![-1.0, -3.0]);
        let sol = solve(&a, &b).unwrap();
        assert!(
            (sol.f[0]).abs() < 1e-12 && (sol.f[1] - 3.0).abs() < 1e-12,
            "{}",
            sol.f
        );
        assert!((sol.a[0] - 1.7).abs() < 1e-12 && sol.pivots == 3, "{sol:?}");
        let all = enumerate(&a, &b, 1e-12).unwrap();
        assert_eq!(all.len(), 1);
        assert!((&sol.f - &all[0]).amax() < 1e-12, "{} vs {}", sol.f, all[0]);
        assert!(sol.residual(scale(&a, &b)) < 1e-12);
    }

    #[test]
    fn a_warm_start_from_the_right_set_costs_no_pivots() {
        let (a, b) = random_problem(Kind::Definite, 10, 4);
        let cold = solve(&a, &b).unwrap();
        let clamped: Vec<bool> = cold.f.iter().map(|&x| x > 0.0).collect();
        // The next step's problem: b moved a little.
        let b2 = &b + DVector::from_fn(10, |i, _| 1e-4 * (i as f64 - 4.5));
        let (warm, held) = solve_warm(&a, &b2, &clamped).unwrap();
        assert!(held && warm.pivots == 0);
        let again = solve(&a, &b2).unwrap();
        assert!((&warm.f - &again.f).amax() < 1e-10);
        // A wrong guess falls back to pivoting and still gets the answer.
        let wrong = vec![true; 10];
        let (fallback, held) = solve_warm(&a, &b2, &wrong).unwrap();
        assert!(!held && (&fallback.f - &again.f).amax() < 1e-10);
    }
}
