//! Dantzig's principal pivoting in the form Baraff (1994) gives it: every index
//! driven into complementarity one at a time, each by changing its force while
//! keeping every index already settled settled.

use super::factor::{ClampedFactor, direction};
use super::least_norm::nearest;
use super::problem::{Bounds, Checked, LcpSolution, Set, check, check_bounds, scale};
use nalgebra::{DMatrix, DVector};
use pbm_prelim::PbmError;

/// What stops a step.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Limit {
    /// Index i's acceleration reaches zero: it becomes clamped.
    Acceleration(usize),
    /// Index i's force reaches its lower bound.
    Lower(usize),
    /// Index i's force reaches its upper bound.
    Upper(usize),
}

// ANCHOR: solve
/// Solves the LCP by principal pivoting. Starting from f = 0 (a = b), every contact
/// with aᵢ < 0 is driven: its force grows (and the clamped forces adjust) until its
/// acceleration reaches zero, while any clamped force that would go negative is
/// freed and any free acceleration that would go negative is clamped on the way.
/// Converges for the matrices contact produces (symmetric positive semidefinite)
/// and for P-matrices; a problem with no solution says so.
pub fn solve(a: &DMatrix<f64>, b: &DVector<f64>) -> Result<LcpSolution, PbmError> {
    solve_bounded(a, b, &Bounds::contacts(b.len()))
}
// ANCHOR_END: solve

// ANCHOR: solve_bounded
/// The same pivoting with bounds lo ≤ f ≤ hi: each unknown ends clamped (between its
/// bounds, aᵢ = 0), at its lower bound with aᵢ ≥ 0, or at its upper bound with
/// aᵢ ≤ 0. With the bounds [0, ∞) this is [`solve`]; (−∞, ∞) makes a row bilateral;
/// [−μ fₙ, μ fₙ] makes it a friction force.
pub fn solve_bounded(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &Bounds,
) -> Result<LcpSolution, PbmError> {
    let solution = solve_basis(a, b, bounds)?;
    Ok(nearest(a, b, bounds, solution, &DVector::zeros(b.len())))
}

/// The pivoting's own answer, before [`nearest`]: with dependent rows, the
/// forces of whichever basis of the active rows the pivoting clamped.
pub fn solve_basis(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &Bounds,
) -> Result<LcpSolution, PbmError> {
    check(a, b)?;
    check_bounds(bounds, b.len())?;
    let finite =
        |s: &LcpSolution| s.f.iter().chain(s.a.iter()).all(|x| x.is_finite());
    match pivot(a, b, bounds) {
        // Exact ties between redundant contacts can make the pivoting cycle; near
        // ties, pivot on a clamped set that is singular to rounding, so that the
        // forces overflow (a redundant problem of 29 rows did, after 7,586 pivots).
        Err(PbmError::Degenerate { why, .. }) if why.contains("cycling") => {
            regularized(a, b, bounds)
        }
        Ok(solution) if !finite(&solution) => regularized(a, b, bounds),
        other => other,
    }
}

// ANCHOR_END: solve_bounded

/// The pivoting on A plus a diagonal of 1e-10 of A's scale, which breaks every tie
/// (the matrix becomes definite) and changes each acceleration by that much times
/// its force; an error if even that overflows.
fn regularized(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &Bounds,
) -> Result<LcpSolution, PbmError> {
    let mut definite = a.clone();
    let delta = 1e-10 * a.amax();
    for i in 0..b.len() {
        definite[(i, i)] += delta;
    }
    let solution = pivot(&definite, b, bounds)?;
    if solution.f.iter().chain(solution.a.iter()).all(|x| x.is_finite()) {
        Ok(solution)
    } else {
        Err(PbmError::Degenerate {
            what: "LCP",
            why: "the pivoting's forces overflowed even with the ties broken".into(),
        })
    }
}

/// The pivoting itself, on checked input, from f = 0.
fn pivot(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &Bounds,
) -> Result<LcpSolution, PbmError> {
    let n = b.len();
    let f = DVector::zeros(n);
    let acc = b.clone();
    let mut sets = vec![Set::Pending; n];
    // Roundoff: an acceleration this close to zero counts as zero.
    let tol = 1e-12 * scale(a, b);
    // f = 0 already satisfies index i if it sits on a bound with a of the right
    // sign, or if both bounds are zero (nothing may act there).
    let satisfied = |i: usize, acc: &DVector<f64>| {
        let (lo, hi) = (bounds.lo[i], bounds.hi[i]);
        lo == hi || (lo == 0.0 && acc[i] >= -tol) || (hi == 0.0 && acc[i] <= tol)
    };
    for (i, set) in sets.iter_mut().enumerate() {
        if bounds.lo[i] == 0.0 && satisfied(i, &acc) {
            *set = Set::Lower;
        } else if satisfied(i, &acc) {
            *set = Set::Upper;
        }
    }
    drive(a, b, bounds, (f, acc), sets, (None, None)).map(|(solution, _)| solution)
}

/// Whether A equals its transpose to roundoff.
pub(super) fn is_symmetric(a: &DMatrix<f64>) -> bool {
    let tol = 1e-12 * a.amax();
    (0..a.nrows()).all(|i| (0..i).all(|j| (a[(i, j)] - a[(j, i)]).abs() <= tol))
}

/// The state of the pivoting: forces, accelerations, which set each index is in,
/// the factor of the clamped rows' A_CC (kept up to date while it can be) and the
/// pivots made.
struct Pivoting<'a> {
    a: &'a DMatrix<f64>,
    bounds: &'a Bounds,
    f: DVector<f64>,
    acc: DVector<f64>,
    sets: Vec<Set>,
    factor: Option<ClampedFactor>,
    pivots: usize,
    /// Roundoff: an acceleration this close to zero counts as zero.
    tol: f64,
    /// The size of the problem's numbers, [`scale`].
    scale: f64,
}

// ANCHOR: drive
/// Drives every pending index into complementarity, one at a time, keeping the
/// others complementary: from f = 0 in [`pivot`], from a guessed partition in
/// [`solve_warm_pivoting`], which hands over its factor of that partition's A_CC
/// (`factor`) rather than have it built again, and the scale of an A it built and
/// checked itself (`known`). Returns the factor of the clamped set it ends with, if
/// it kept one.
pub(super) fn drive(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &Bounds,
    (f, acc): (DVector<f64>, DVector<f64>),
    sets: Vec<Set>,
    (factor, known): (Option<ClampedFactor>, Option<&Checked>),
) -> Result<(LcpSolution, Option<ClampedFactor>), PbmError> {
    let factor = match factor {
        Some(factor) => Some(factor),
        None if known.is_some() || is_symmetric(a) => ClampedFactor::new(a, &sets),
        None => None,
    };
    let scale = known.map_or_else(|| scale(a, b), |k| k.scale);
    let tol = 1e-12 * scale;
    let mut p = Pivoting { a, bounds, f, acc, sets, factor, pivots: 0, tol, scale };
    // Pending unknowns with |a| ≤ tol between their bounds are satisfied as they
    // are; the rest must be driven.
    let needs_drive =
        |i: usize, p: &Pivoting| p.sets[i] == Set::Pending && p.acc[i].abs() > tol;
    while let Some(d) = (0..b.len()).find(|&i| needs_drive(i, &p)) {
        p.drive_index(d)?;
    }
    // Every index is now clamped (a = 0, f within bounds), held at a bound with a of
    // the right sign, or untouched between its bounds with a = 0.
    let clamped = p.sets.iter().map(|&s| s == Set::Clamped).collect();
    let Pivoting { f, acc, pivots, factor, .. } = p;
    Ok((LcpSolution { f, a: acc, pivots, clamped }, factor))
}
// ANCHOR_END: drive

impl Pivoting<'_> {
    // ANCHOR: drive_clamp
    /// Clamps i (a_i = 0 held from now on), unless its row depends on the clamped
    /// ones: then a_i is theirs, zero already, and i stays out of the clamped set
    /// with its force where it is. Clamped, it would make A_CC singular, and the
    /// next directions solved with that matrix would be roundoff blown up to forces
    /// of 10⁷ that cancel out.
    fn clamp(&mut self, i: usize) {
        if self.factor.as_mut().is_none_or(|fa| fa.push(self.a, i)) {
            self.sets[i] = Set::Clamped;
        } else {
            self.sets[i] = Set::Pending;
        }
    }
    // ANCHOR_END: drive_clamp

    // ANCHOR: drive_index
    /// Drives index d until its acceleration reaches zero or its force a bound,
    /// pivoting whatever index stops each step into its new set.
    fn drive_index(&mut self, d: usize) -> Result<(), PbmError> {
        let sigma = if self.acc[d] < 0.0 { 1.0 } else { -1.0 };
        loop {
            let (df, da) = match &self.factor {
                Some(fa) => fa.direction(self.a, d, sigma),
                None => direction(self.a, &self.sets, d, sigma)?,
            };
            let (s, limit) = self.max_step((&df, &da), d);
            if !s.is_finite() {
                return self.unmoved(d, &df, &da);
            }
            self.f += s * &df;
            self.acc += s * &da;
            self.pivots += 1;
            let n = self.sets.len();
            if self.pivots > 50 * (n + 1) * (n + 1) {
                let why =
                    format!("no solution after {} pivots (cycling?)", self.pivots);
                return Err(PbmError::degenerate("contact forces", why));
            }
            // d is done when its acceleration reaches zero or its force a bound: as
            // the limiting index, or at the same step as another (redundant contacts
            // tie exactly, and roundoff may name the other one).
            if self.pivot(limit) == d {
                return Ok(());
            }
            if self.acc[d].abs() <= self.tol {
                self.acc[d] = 0.0;
                self.clamp(d);
                return Ok(());
            }
        }
    }
    // ANCHOR_END: drive_index

    // ANCHOR: drive_unmoved
    /// A direction along which nothing stops the step. If it leaves a_d still, d
    /// depends on the clamped contacts (a redundant one): no force moves its
    /// acceleration, which is theirs, zero but for roundoff, and d is clamped. A
    /// problem with no solution has a direction that moves a_d the wrong way.
    fn unmoved(
        &mut self,
        d: usize,
        df: &DVector<f64>,
        da: &DVector<f64>,
    ) -> Result<(), PbmError> {
        if da[d].abs() <= 1e-8 * self.scale * df.amax() {
            self.acc[d] = 0.0;
            self.clamp(d);
            return Ok(());
        }
        let why = format!(
            "contact {d}'s acceleration cannot be brought to zero by any force: the \
             problem has no solution"
        );
        Err(PbmError::degenerate("contact forces", why))
    }
    // ANCHOR_END: drive_unmoved

    // ANCHOR: max_step
    /// The largest step s along (Δf, Δa) before something breaks: a_d reaching zero
    /// or f_d a bound (d is done), a clamped force reaching a bound (it is held
    /// there), or a held index's acceleration reaching zero (it must be clamped).
    fn max_step(
        &self,
        (df, da): (&DVector<f64>, &DVector<f64>),
        d: usize,
    ) -> (f64, Limit) {
        let (f, acc, sets, bounds) = (&self.f, &self.acc, &self.sets, self.bounds);
        let mut best = (f64::INFINITY, Limit::Acceleration(d));
        // A held row whose Δa is zero but for roundoff (a redundant one) never limits.
        let moves = 1e-10 * da.amax().max(df.amax());
        let mut consider = |s: f64, limit: Limit| {
            if s < best.0 {
                best = (s.max(0.0), limit);
            }
        };
        if acc[d] * da[d] < 0.0 {
            consider(-acc[d] / da[d], Limit::Acceleration(d));
        }
        for i in 0..sets.len() {
            if sets[i] == Set::Clamped || i == d {
                match df[i] {
                    x if x < 0.0 => {
                        consider((bounds.lo[i] - f[i]) / x, Limit::Lower(i))
                    }
                    x if x > 0.0 => {
                        consider((bounds.hi[i] - f[i]) / x, Limit::Upper(i))
                    }
                    _ => {}
                }
            }
            if self.turns_to_zero(i, da[i], moves) {
                consider(-acc[i] / da[i], Limit::Acceleration(i));
            }
        }
        best
    }
    // ANCHOR_END: max_step

    /// Whether index i, held at a bound, has its acceleration driven towards zero
    /// (by more than `moves`, roundoff) by a change Δaᵢ = `da`.
    fn turns_to_zero(&self, i: usize, da: f64, moves: f64) -> bool {
        match self.sets[i] {
            Set::Lower => da < -moves,
            Set::Upper => da > moves,
            _ => false,
        }
    }

    // ANCHOR: drive_pivot
    /// Moves the index that stopped a step to its new set: clamped when its
    /// acceleration reached zero, held at the bound its force reached otherwise (out
    /// of the factor, if it was clamped). Returns the index.
    fn pivot(&mut self, limit: Limit) -> usize {
        match limit {
            Limit::Acceleration(j) => {
                self.acc[j] = 0.0;
                self.clamp(j);
                j
            }
            Limit::Lower(j) | Limit::Upper(j) => {
                let lower = matches!(limit, Limit::Lower(_));
                let bounds = self.bounds;
                self.f[j] = if lower { bounds.lo[j] } else { bounds.hi[j] };
                if self.sets[j] == Set::Clamped
                    && let Some(fa) = &mut self.factor
                {
                    fa.remove(j);
                }
                self.sets[j] = if lower { Set::Lower } else { Set::Upper };
                j
            }
        }
    }
    // ANCHOR_END: drive_pivot
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lcp::problem::enumerate;

    #[test]
    fn a_redundant_problem_whose_forces_overflowed_is_solved() {
        // The fuzz test's `lcp-random --set kind=redundant --set seed=49114 --set
        // n_max=40`: the pivoting on this problem of 29 rows ran 7,586 pivots and
        // returned infinite forces, which the exercise reported as a non-finite
        // residual. Now an overflow is pivoted again with the ties broken.
        let (a, b) = crate::lcp::random_problem(
            crate::lcp::Kind::Redundant,
            29,
            49114 + 29_000 + 1,
        );
        let solution = solve(&a, &b).unwrap();
        assert!(solution.f.iter().all(|f| f.is_finite()));
        let residual = solution.residual(scale(&a, &b));
        assert!(residual < 1e-6, "{residual:e}");
    }

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
}
