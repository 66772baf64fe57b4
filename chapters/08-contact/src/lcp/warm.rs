//! Warm starts: last step's partition of the unknowns as the guess for this step's,
//! accepted when it holds (Baraff 1995), or pivoted on from when it nearly does.

use super::factor::ClampedFactor;
use super::least_norm::nearest;
use super::pivoting::{drive, is_symmetric, solve_basis};
use super::problem::{
    Bounds, Checked, LcpSolution, Set, check, check_bounds, product, scale,
};
use nalgebra::{DMatrix, DVector};
use pbm_prelim::PbmError;

/// Pivots afresh, then takes the forces nearest `previous` among those that give
/// the same accelerations: the warm starts' fallback, so that giving up a guess
/// does not give up Baraff's rule.
fn solve_near(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &Bounds,
    previous: &DVector<f64>,
) -> Result<LcpSolution, PbmError> {
    let basis = solve_basis(a, b, bounds)?;
    Ok(match previous.len() == b.len() {
        true => nearest(a, b, bounds, basis, previous),
        false => nearest(a, b, bounds, basis, &DVector::zeros(b.len())),
    })
}

/// Checks a warm start's problem; false if the previous solution has another size
/// (the contacts changed), and there is nothing to start from.
fn warm_input(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &Bounds,
    previous: &LcpSolution,
) -> Result<bool, PbmError> {
    check(a, b)?;
    warm_sizes(b, bounds, previous)
}

/// The bounds checked, and whether the previous solution has b's size.
fn warm_sizes(
    b: &DVector<f64>,
    bounds: &Bounds,
    previous: &LcpSolution,
) -> Result<bool, PbmError> {
    check_bounds(bounds, b.len())?;
    Ok(previous.f.len() == b.len())
}

// ANCHOR: warm
/// Baraff's (1995) warm start: guess that the unknowns clamped last step are the
/// clamped ones now (and the others sit at the same bounds), solve A_CC f_C = r for
/// them, and accept if the result is complementary. In a scene at rest the guess is
/// almost always right and costs one linear solve; otherwise fall back to pivoting
/// from scratch. Returns the solution and whether the guess held.
pub fn solve_warm(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &Bounds,
    previous: &LcpSolution,
) -> Result<(LcpSolution, bool), PbmError> {
    let n = b.len();
    if !warm_input(a, b, bounds, previous)? {
        return Ok((solve_near(a, b, bounds, &previous.f)?, false));
    }
    let tol = 1e-9 * scale(a, b);
    // Baraff's partition: every contact whose acceleration was zero, including
    // those that carried no force (with redundant contacts, which of them carry it
    // is a choice, and keeping them all lets the choice stay near the last one).
    let guess: Vec<bool> = (0..n)
        .map(|i| {
            previous.clamped[i]
                || (previous.a[i].abs() <= tol && bounds.lo[i] < bounds.hi[i])
        })
        .collect();
    let clamped: Vec<usize> = (0..n).filter(|&i| guess[i]).collect();
    let mut f = held_at_bounds(previous, bounds, &previous.clamped);
    let mut acc = match solve_guess(a, b, previous, &clamped, &mut f, tol) {
        Some(()) => a * &f + b,
        None => return Ok((solve_near(a, b, bounds, &previous.f)?, false)),
    };
    if !guess_holds(bounds, &guess, (&f, &acc), tol) {
        return Ok((solve_near(a, b, bounds, &previous.f)?, false));
    }
    for &i in &clamped {
        acc[i] = 0.0;
        f[i] = f[i].clamp(bounds.lo[i], bounds.hi[i]);
    }
    Ok((LcpSolution { f, a: acc, pivots: 0, clamped: guess }, true))
}
// ANCHOR_END: warm

/// The forces of a guess's held unknowns: each at the bound it sat at last time
/// (`previous`), or at zero if it carried none, the bound is infinite, or it is
/// `clamped` (its force is solved for).
fn held_at_bounds(
    previous: &LcpSolution,
    bounds: &Bounds,
    clamped: &[bool],
) -> DVector<f64> {
    DVector::from_fn(previous.f.len(), |i, _| {
        let last = previous.f[i];
        let bound = if last > 0.0 { bounds.hi[i] } else { bounds.lo[i] };
        if clamped[i] || last == 0.0 || !bound.is_finite() { 0.0 } else { bound }
    })
}

// ANCHOR: warm_solve
/// Solves A_CC f_C = −(A f + b)_C for the guessed clamped forces, the held ones in
/// `f` already. Redundant contacts make A_CC singular, and then f_C is not unique.
/// Baraff keeps it continuous in time by fixing the undetermined components at
/// their previous values; here f_C is the solution nearest the previous f_C', by
/// the pseudo-inverse: f_C = f_C' + A_CC⁺ (r − A_CC f_C'). `None` if that fails.
fn solve_guess(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    previous: &LcpSolution,
    clamped: &[usize],
    f: &mut DVector<f64>,
    tol: f64,
) -> Option<()> {
    if clamped.is_empty() {
        return Some(());
    }
    let k = clamped.len();
    let acc = DMatrix::from_fn(k, k, |r, c| a[(clamped[r], clamped[c])]);
    let rest = a * &*f + b;
    let rhs = DVector::from_fn(k, |r, _| -rest[clamped[r]]);
    let last = DVector::from_fn(k, |r, _| previous.f[clamped[r]]);
    let lu = acc.clone().lu();
    let pivots = lu.u().diagonal().map(f64::abs);
    let x = if pivots.min() > 1e-10 * pivots.max() {
        lu.solve(&rhs)?
    } else {
        let svd = acc.clone().svd(true, true);
        &last + svd.solve(&(&rhs - &acc * &last), tol).ok()?
    };
    for (r, &i) in clamped.iter().enumerate() {
        f[i] = x[r];
    }
    Some(())
}
// ANCHOR_END: warm_solve

// ANCHOR: warm_check
/// Whether a guess's answer satisfies every condition: the guessed clamped
/// accelerations zero with their forces inside the bounds, every held force at a
/// bound with its acceleration of the right sign.
fn guess_holds(
    bounds: &Bounds,
    guess: &[bool],
    (f, acc): (&DVector<f64>, &DVector<f64>),
    tol: f64,
) -> bool {
    (0..f.len()).all(|i| {
        let (lo, hi) = (bounds.lo[i], bounds.hi[i]);
        if guess[i] {
            acc[i].abs() <= tol && f[i] >= lo - tol && f[i] <= hi + tol
        } else if lo == hi {
            true
        } else if f[i] == lo {
            acc[i] >= -tol
        } else if f[i] == hi {
            acc[i] <= tol
        } else {
            acc[i].abs() <= tol
        }
    })
}
// ANCHOR_END: warm_check

// ANCHOR: warm_pivoting
/// The warm start that does not give up: when last step's partition is not quite
/// right (a friction force crossing into slipping, a contact letting go), it is still
/// nearly right, and pivoting on from it costs a few pivots where pivoting from
/// f = 0 costs one or more per unknown. The guessed clamped set C is solved with
/// the held unknowns at their bounds; a clamped force that lands outside its bounds
/// is moved to that bound and out of C, and C solved again, until every clamped
/// force is within bounds. Then C is complementary (a = 0 there) and so is every
/// held unknown whose acceleration has the right sign; the rest are driven one at a
/// time exactly as [`solve_bounded`] drives them. Returns the solution and whether
/// the guess held with no pivots.
pub fn solve_warm_pivoting(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &Bounds,
    previous: &LcpSolution,
) -> Result<(LcpSolution, bool), PbmError> {
    solve_warm_pivoting_with(a, b, bounds, previous, (None, None))
        .map(|(solution, held, _)| (solution, held))
}
// ANCHOR_END: warm_pivoting

// ANCHOR: warm_drive
/// [`solve_warm_pivoting`] from `kept`, the last call's factor of A_CC (for this A,
/// as when the friction rounds keep A and move bounds, or aged, for an earlier A),
/// and for an A the caller has `known` (checked), returning the factor it ends with.
pub(crate) fn solve_warm_pivoting_with(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &Bounds,
    previous: &LcpSolution,
    (kept, known): (Option<ClampedFactor>, Option<&Checked>),
) -> Result<(LcpSolution, bool, Option<ClampedFactor>), PbmError> {
    let sized = match known {
        Some(_) => warm_sizes(b, bounds, previous)?,
        None => warm_input(a, b, bounds, previous)?,
    };
    if !sized {
        return Ok((solve_near(a, b, bounds, &previous.f)?, false, None));
    }
    // The same guess and the same tolerance as [`solve_warm`]: where the guess
    // holds, the two give the same answer.
    let tol = 1e-9 * known.map_or_else(|| scale(a, b), |k| k.scale);
    let clamped: Vec<bool> = (0..b.len())
        .map(|i| {
            (previous.clamped[i] || previous.a[i].abs() <= tol)
                && bounds.lo[i] < bounds.hi[i]
        })
        .collect();
    let kept = match kept {
        Some(fa) if fa.stale => {
            let guess = (previous, clamped.as_slice());
            if let Some(sol) = through_kept((a, b, known), bounds, guess, &fa, tol) {
                return Ok((sol, true, Some(fa)));
            }
            None // an older matrix's factor: pivoting needs this one's
        }
        fresh => fresh,
    };
    pivot_on((a, b, bounds, known), (previous, clamped), kept, tol)
}
// ANCHOR_END: warm_drive

// ANCHOR: pivot_on
/// Pivots on from the guessed clamped set: repaired until its forces are within
/// their bounds, then every index that is not yet complementary driven.
fn pivot_on(
    (a, b, bounds, known): (&DMatrix<f64>, &DVector<f64>, &Bounds, Option<&Checked>),
    (previous, mut clamped): (&LcpSolution, Vec<bool>),
    kept: Option<ClampedFactor>,
    tol: f64,
) -> Result<(LcpSolution, bool, Option<ClampedFactor>), PbmError> {
    let mut f = held_at_bounds(previous, bounds, &clamped);
    let mut factor = guess_factor(a, kept, &clamped, known.is_some());
    if !repair(a, b, bounds, (&mut clamped, &mut f), &mut factor, tol) {
        return Ok((solve_near(a, b, bounds, &previous.f)?, false, None));
    }
    let (sets, acc) = sets_of(a, b, bounds, (&clamped, &mut f), tol);
    match drive(a, b, bounds, (f, acc), sets, (factor, known)) {
        Ok((sol, factor)) => {
            let held = sol.pivots == 0;
            Ok((sol, held, factor))
        }
        // Pivoting on from the guess can meet the same exact ties as from zero.
        Err(PbmError::Degenerate { .. }) => {
            Ok((solve_near(a, b, bounds, &previous.f)?, false, None))
        }
        Err(other) => Err(other),
    }
}
// ANCHOR_END: pivot_on

// ANCHOR: through_kept
/// The warm start through a factor kept from an earlier solve (an earlier A, its
/// bodies moved a little since): if the guessed clamped set is the factor's, solve
/// it by [`ClampedFactor::refine`] to well within the tolerance, and accept the
/// answer only if it satisfies every condition, exactly as a fresh factor's answer
/// must. `None` sends the caller to the fresh factor.
fn through_kept(
    (a, b, known): (&DMatrix<f64>, &DVector<f64>, Option<&Checked>),
    bounds: &Bounds,
    (previous, clamped): (&LcpSolution, &[bool]),
    kept: &ClampedFactor,
    tol: f64,
) -> Option<LcpSolution> {
    let count = clamped.iter().filter(|&&c| c).count();
    if count != kept.order.len() || !kept.order.iter().all(|&i| clamped[i]) {
        return None;
    }
    let mut f = held_at_bounds(previous, bounds, clamped);
    let rest = product(a, &f, known) + b;
    let rhs: Vec<f64> = kept.order.iter().map(|&i| -rest[i]).collect();
    let x = kept.refine((a, known), &rhs, 1e-3 * tol)?;
    for (&i, x) in kept.order.iter().zip(x) {
        f[i] = x;
    }
    let mut acc = product(a, &f, known) + b;
    if !guess_holds(bounds, clamped, (&f, &acc), tol) {
        return None;
    }
    for &i in &kept.order {
        acc[i] = 0.0;
        f[i] = f[i].clamp(bounds.lo[i], bounds.hi[i]);
    }
    let clamped = clamped.to_vec();
    Some(LcpSolution { f, a: acc, pivots: 0, clamped })
}
// ANCHOR_END: through_kept

/// A_CC of the guess, factored where A is symmetric and A_CC definite: the factor
/// `kept` from the last call brought to this guess a row at a time, or a new one.
fn guess_factor(
    a: &DMatrix<f64>,
    kept: Option<ClampedFactor>,
    clamped: &[bool],
    symmetric: bool,
) -> Option<ClampedFactor> {
    let n = clamped.len();
    let factor = kept.and_then(|mut fa| {
        let stale: Vec<usize> =
            fa.order.iter().copied().filter(|&i| !clamped[i]).collect();
        for i in stale {
            fa.remove(i);
        }
        let fresh: Vec<usize> =
            (0..n).filter(|&i| clamped[i] && !fa.order.contains(&i)).collect();
        fresh.into_iter().all(|i| fa.push(a, i)).then_some(fa)
    });
    if factor.is_none() && (symmetric || is_symmetric(a)) {
        let sets: Vec<Set> = (0..n)
            .map(|i| if clamped[i] { Set::Clamped } else { Set::Pending })
            .collect();
        return ClampedFactor::new(a, &sets);
    }
    factor
}

// ANCHOR: warm_repair
/// Solves the guessed clamped set with the held unknowns at their bounds, and moves
/// the clamped force furthest outside its bounds to that bound and out of the set
/// (and the factor), until none is outside. False if a solve fails.
fn repair(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &Bounds,
    (clamped, f): (&mut [bool], &mut DVector<f64>),
    factor: &mut Option<ClampedFactor>,
    tol: f64,
) -> bool {
    loop {
        let set: Vec<usize> = (0..f.len()).filter(|&i| clamped[i]).collect();
        if set.is_empty() {
            return true;
        }
        for &i in &set {
            f[i] = 0.0;
        }
        let rest = a * &*f + b;
        let Some(x) = solve_clamped(a, &rest, &set, factor.as_ref()) else {
            return false;
        };
        let Some((i, bound)) = furthest_outside(bounds, &x, f, tol) else {
            return true;
        };
        clamped[i] = false;
        f[i] = bound;
        if let Some(fa) = factor {
            fa.remove(i);
        }
    }
}
// ANCHOR_END: warm_repair

/// The clamped forces for the residual `rest` = A f + b of the held ones: each
/// clamped index with its force, in the order of the factor's rows (C in whatever
/// order it was built) or of `set`. `None` if the solve fails or is not finite.
fn solve_clamped(
    a: &DMatrix<f64>,
    rest: &DVector<f64>,
    set: &[usize],
    factor: Option<&ClampedFactor>,
) -> Option<Vec<(usize, f64)>> {
    let solved: Vec<(usize, f64)> = match factor {
        Some(fa) => {
            let x = fa.solve(fa.order.iter().map(|&i| -rest[i]).collect());
            fa.order.iter().copied().zip(x).collect()
        }
        None => {
            let k = set.len();
            let acc = DMatrix::from_fn(k, k, |r, c| a[(set[r], set[c])]);
            let rhs = DVector::from_fn(k, |r, _| -rest[set[r]]);
            let x = acc.lu().solve(&rhs)?;
            set.iter().copied().zip(x.iter().copied()).collect()
        }
    };
    solved.iter().all(|(_, v)| v.is_finite()).then_some(solved)
}

// ANCHOR: warm_leave
/// Writes the clamped forces `x` into `f`, and returns the one furthest outside its
/// bounds (by more than `tol`) with the bound it crossed, if any is.
fn furthest_outside(
    bounds: &Bounds,
    x: &[(usize, f64)],
    f: &mut DVector<f64>,
    tol: f64,
) -> Option<(usize, f64)> {
    let mut worst: Option<(usize, f64, f64)> = None;
    for &(i, xi) in x {
        f[i] = xi;
        let (lo, hi) = (bounds.lo[i], bounds.hi[i]);
        let (out, bound) = if xi < lo { (lo - xi, lo) } else { (xi - hi, hi) };
        if out > tol && worst.is_none_or(|w| out > w.1) {
            worst = Some((i, out, bound));
        }
    }
    worst.map(|(i, _, bound)| (i, bound))
}
// ANCHOR_END: warm_leave

/// The sets a repaired guess starts the pivoting from, and its accelerations: the
/// clamped ones (a set to zero, f clamped into its bounds), each held force on its
/// bound with a of the right sign, and the rest pending.
fn sets_of(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &Bounds,
    (clamped, f): (&[bool], &mut DVector<f64>),
    tol: f64,
) -> (Vec<Set>, DVector<f64>) {
    let mut acc = a * &*f + b;
    let sets: Vec<Set> = (0..f.len())
        .map(|i| {
            let (lo, hi) = (bounds.lo[i], bounds.hi[i]);
            if clamped[i] {
                Set::Clamped
            } else if lo == hi || (f[i] == lo && acc[i] >= -tol) {
                Set::Lower
            } else if f[i] == hi && acc[i] <= tol {
                Set::Upper
            } else {
                Set::Pending
            }
        })
        .collect();
    for i in (0..f.len()).filter(|&i| clamped[i]) {
        acc[i] = 0.0;
        f[i] = f[i].clamp(bounds.lo[i], bounds.hi[i]);
    }
    (sets, acc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lcp::pivoting::solve;
    use crate::lcp::problem::{Kind, random_problem};

    #[test]
    fn a_warm_start_from_the_right_set_costs_no_pivots() {
        let (a, b) = random_problem(Kind::Definite, 10, 4);
        let cold = solve(&a, &b).unwrap();
        // The next step's problem: b moved a little.
        let b2 = &b + DVector::from_fn(10, |i, _| 1e-4 * (i as f64 - 4.5));
        let bounds = Bounds::contacts(10);
        let (warm, held) = solve_warm(&a, &b2, &bounds, &cold).unwrap();
        assert!(held && warm.pivots == 0);
        let again = solve(&a, &b2).unwrap();
        assert!((&warm.f - &again.f).amax() < 1e-10);
        // A wrong guess falls back to pivoting and still gets the answer.
        let wrong = LcpSolution { clamped: vec![true; 10], ..cold };
        let (fallback, held) = solve_warm(&a, &b2, &bounds, &wrong).unwrap();
        assert!(!held && (&fallback.f - &again.f).amax() < 1e-10);
    }
}
