//! Coulomb friction in the contact solve. A tangential force f_t may act at a
//! contact as long as it stays inside the friction cone |f_t| ≤ μ fₙ; we linearise
//! the cone into the pyramid |f_t1| ≤ μ fₙ, |f_t2| ≤ μ fₙ along two tangents, so
//! that each tangential force is an unknown with bounds: clamped strictly inside
//! them (sticking), or held at a bound (slipping, the force as large as Coulomb
//! allows and opposing the motion).
//!
//! Every unknown is a *row*: it pushes the bodies apart along one direction at a
//! point, and its condition watches their relative acceleration along the same
//! direction.

use crate::lcp::{
    Bounds, Checked, ClampedFactor, LcpSolution, solve_bounded,
    solve_warm_pivoting_with,
};
use crate::rows::{
    BodyState, Role, Row, row_bounds, row_matrix, row_spans, twist_levers,
};
use nalgebra::{DMatrix, DVector};
use pbm_prelim::PbmError;

/// The bounds of every row for normal forces `f` (only the normal rows' entries are
/// read).
fn bounds_for(rows: &[Row], mu: f64, f: &DVector<f64>) -> Bounds {
    let levers = twist_levers(rows);
    let mut bounds = Bounds::contacts(rows.len());
    for (i, row) in rows.iter().enumerate() {
        (bounds.lo[i], bounds.hi[i]) =
            row_bounds(row.role, f.as_slice(), (mu, &levers));
    }
    bounds
}

/// The bounds of rows without friction: normal rows [0, ∞), bilateral rows (−∞, ∞)
/// and tangent rows [0, 0]. The impulse and displacement solves use them.
pub fn frictionless_bounds(rows: &[Row]) -> Bounds {
    bounds_for(rows, 0.0, &DVector::zeros(rows.len()))
}

// ANCHOR: coulomb_mismatch
/// How far the forces `f`, solved with friction `bounds`, are from obeying Coulomb's
/// law with their own normal forces, relative to the largest force: a friction
/// force beyond μ fₙ, or one held at its bound when the bound is not μ fₙ (it could
/// have been larger, or must be smaller). Friction inside its bounds does not care
/// what they are, so a load that redundant contacts share may be split one way or
/// another without mismatch.
pub fn coulomb_mismatch(
    rows: &[Row],
    mu: f64,
    bounds: &Bounds,
    f: &DVector<f64>,
    tol: f64,
) -> f64 {
    let largest = f.amax().max(tol);
    let mut worst: f64 = 0.0;
    for (i, row) in rows.iter().enumerate() {
        let Role::Tangent { normal } = row.role else { continue };
        let limit = mu * f[normal].max(0.0);
        let bound = bounds.hi[i];
        let held = f[i].abs() >= bound - 1e-12 * largest;
        let off = if held { (bound - limit).abs() } else { f[i].abs() - limit };
        worst = worst.max(off);
    }
    worst / largest
}
// ANCHOR_END: coulomb_mismatch

/// The answer of a friction solve and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct FrictionSolution {
    /// Every row's unknown and acceleration (with the pivots of all rounds).
    pub solution: LcpSolution,
    /// Bounded solves made (each bounds update is one).
    pub rounds: usize,
    /// Whether the first round's warm start held.
    pub warm: bool,
    /// How far the answer is from Coulomb's law ([`coulomb_mismatch`]): at most
    /// [`SETTLED`] when the rounds settled, at most [`UNSETTLED`] when they did not
    /// (see [`solve_friction`]).
    pub mismatch: f64,
    /// Whether the solve was answered through the factor kept from the last one,
    /// with no factoring ([`solve_friction_kept`]).
    pub reused: bool,
}

/// The rounds stop when no normal force changes by more than this, relative to
/// the largest force.
pub const SETTLED: f64 = 1e-6;

/// The largest mismatch accepted from rounds that did not settle.
pub const UNSETTLED: f64 = 0.05;

/// Rounds of bounds updates before the solve settles for the best of them.
pub const ROUNDS: usize = 30;

/// The diagonal added to A, relative to its largest diagonal entry.
pub const REGULARIZATION: f64 = 1e-9;

// ANCHOR: solve_friction
/// Solves for contact, bilateral and friction forces together. The friction bounds
/// ±μ fₙ depend on the normal forces being solved for, so the solve is repeated
/// with the bounds from the last round's normal forces until those stop changing
/// (each round warm-started from the last). The first round starts from `previous`
/// (last step's answer) if given, else from the normal forces alone.
pub fn solve_friction(
    bodies: &[BodyState],
    rows: &[Row],
    b: &DVector<f64>,
    mu: f64,
    previous: Option<&LcpSolution>,
) -> Result<FrictionSolution, PbmError> {
    solve_friction_kept(bodies, rows, b, mu, (previous, None)).map(|(sol, _)| sol)
}
// ANCHOR_END: solve_friction

/// [`solve_friction`] with the factor of A_CC the last solve ended with, `kept`
/// (aged: built for that solve's A). While the bodies move little, the new A_CC is
/// solved through it by iterative refinement, and nothing is factored; the answer
/// is checked against every condition as a fresh one would be. Returns the factor
/// this solve ended with, for the next.
pub(crate) fn solve_friction_kept(
    bodies: &[BodyState],
    rows: &[Row],
    b: &DVector<f64>,
    mu: f64,
    (previous, kept): (Option<&LcpSolution>, Option<ClampedFactor>),
) -> Result<(FrictionSolution, Option<ClampedFactor>), PbmError> {
    if !(mu >= 0.0 && mu.is_finite()) {
        let why = format!("{mu}: it must be finite and not negative");
        return Err(PbmError::invalid("coefficient of friction", why));
    }
    let a = regularised(bodies, rows);
    let sol = match previous {
        Some(p) if p.f.len() == rows.len() => p.clone(),
        _ => {
            solve_bounded(&a, b, &bounds_for(rows, 0.0, &DVector::zeros(rows.len())))?
        }
    };
    let pivots = sol.pivots * usize::from(previous.is_none());
    let known = Checked::contact_matrix(&a, b, row_spans(bodies, rows))?;
    let problem = (&a, b, rows, mu, 1e-10 * known.scale);
    let mut rounds = Rounds::new(problem, sol, (pivots, known));
    rounds.kept = kept.filter(|_| previous.is_some());
    for round in 1..=ROUNDS {
        if let Some(settled) = rounds.round(round, previous.is_some())? {
            return Ok((settled, rounds.kept));
        }
    }
    rounds.unsettled().map(|sol| (sol, None))
}

/// A diagonal of [`REGULARIZATION`] times A's largest: redundant contacts (four
/// corners on a face) make A singular, and the pivoting then leans on roundoff to
/// break exact ties, which can cycle. A diagonal this small makes A definite, picks
/// among the equal answers the one with the smallest forces, and changes every
/// acceleration by less than 1e-9 of A's scale times the force.
fn regularised(bodies: &[BodyState], rows: &[Row]) -> DMatrix<f64> {
    let mut a = row_matrix(bodies, rows);
    let delta = REGULARIZATION * a.diagonal().amax();
    for i in 0..rows.len() {
        a[(i, i)] += delta;
    }
    a
}

/// The state of the rounds. The bounds are read from `guide`, a guess at the normal
/// forces; each round measures how far the solve's normal forces land from it,
/// d = f(guide) − guide. Taking guide + d is the plain iteration, which creeps when
/// the answer responds to the bounds in the same direction (d shrinks by a ratio λ
/// near 1) and flips for ever when it responds against them (λ = −1, which
/// redundant contacts sharing a load do). Estimating λ from the last two rounds and
/// stepping guide + d / (1 − λ) lands on the fixed point of that straight-line
/// model; a fixed point of either iteration is the same answer.
struct Rounds<'a> {
    /// A, b, the rows, μ and the tolerance of the mismatch.
    problem: (&'a DMatrix<f64>, &'a DVector<f64>, &'a [Row], f64, f64),
    /// The normal rows' indices.
    normal: Vec<usize>,
    guide: DVector<f64>,
    /// The last round's answer, which warm-starts the next.
    sol: LcpSolution,
    /// The last round's d and the step factor it was taken with.
    last: Option<(DVector<f64>, f64)>,
    /// The round closest to Coulomb's law so far.
    best: Option<FrictionSolution>,
    /// The factor of the clamped set the last round ended with: the next round has
    /// the same A and a nearly equal set, and brings it up to date a row at a time.
    kept: Option<ClampedFactor>,
    pivots: usize,
    warm: bool,
    /// Whether the first round went through the kept factor.
    reused: bool,
    /// A, checked once for all the rounds.
    known: Checked,
}

impl<'a> Rounds<'a> {
    /// Rounds from `sol`, with the guide at its normal forces.
    fn new(
        problem: (&'a DMatrix<f64>, &'a DVector<f64>, &'a [Row], f64, f64),
        sol: LcpSolution,
        (pivots, known): (usize, Checked),
    ) -> Self {
        let rows = problem.2;
        let normal =
            (0..rows.len()).filter(|&i| rows[i].role == Role::Normal).collect();
        let guide = sol.f.clone();
        let (last, best, kept, warm) = (None, None, None, false);
        let reused = false;
        Rounds {
            problem,
            normal,
            guide,
            sol,
            last,
            best,
            kept,
            pivots,
            warm,
            reused,
            known,
        }
    }

    // ANCHOR: friction_round
    /// One round: the bounds from the guide, a solve warm-started from the last
    /// round, and the answer if it obeys Coulomb's law with its own normal forces
    /// (the regularised A is still ill-conditioned, so "obeys" means to 1e-6);
    /// otherwise the guide moves on and `None`.
    fn round(
        &mut self,
        round: usize,
        had_previous: bool,
    ) -> Result<Option<FrictionSolution>, PbmError> {
        let (a, b, rows, mu, tol) = self.problem;
        let bounds = bounds_for(rows, mu, &self.guide);
        let kept = (self.kept.take(), Some(&self.known));
        let (mut next, held, factor) =
            solve_warm_pivoting_with(a, b, &bounds, &self.sol, kept)?;
        self.reused |= round == 1 && factor.as_ref().is_some_and(|f| f.is_aged());
        self.kept = factor;
        self.pivots += next.pivots;
        next.pivots = self.pivots;
        self.warm |= round == 1 && held && had_previous;
        let guide = &self.guide;
        let d = DVector::from_iterator(
            self.normal.len(),
            self.normal.iter().map(|&i| next.f[i] - guide[i]),
        );
        self.sol = next;
        let mismatch = coulomb_mismatch(rows, mu, &bounds, &self.sol.f, tol);
        let (warm, reused, solution) = (self.warm, self.reused, self.sol.clone());
        let answer =
            FrictionSolution { solution, rounds: round, warm, mismatch, reused };
        if mismatch <= SETTLED {
            return Ok(Some(answer));
        }
        if self.best.as_ref().is_none_or(|b| mismatch < b.mismatch) {
            self.best = Some(answer);
        }
        self.extrapolate(d);
        Ok(None)
    }
    // ANCHOR_END: friction_round

    // ANCHOR: friction_extrapolate
    /// Moves the guide by d / (1 − λ), with λ, the ratio by which d changes per unit
    /// step, estimated from the last two rounds (and clamped, so that one odd round
    /// cannot throw the guide far).
    fn extrapolate(&mut self, d: DVector<f64>) {
        let omega = match &self.last {
            Some((before, omega)) if before.norm_squared() > 0.0 => {
                let ratio = d.dot(before) / before.norm_squared();
                let lambda = (1.0 + (ratio - 1.0) / omega).clamp(-1e3, 0.9);
                1.0 / (1.0 - lambda)
            }
            _ => 1.0,
        };
        for (k, &i) in self.normal.iter().enumerate() {
            self.guide[i] += omega * d[k];
        }
        self.last = Some((d, omega));
    }
    // ANCHOR_END: friction_extrapolate

    // ANCHOR: friction_unsettled
    /// After the last round without settling: the best round, if it is within
    /// [`UNSETTLED`] (5 %) of Coulomb's law, else an error saying how far it is.
    fn unsettled(self) -> Result<FrictionSolution, PbmError> {
        match self.best {
            Some(best) if best.mismatch <= UNSETTLED => {
                Ok(FrictionSolution { rounds: ROUNDS, warm: self.warm, ..best })
            }
            best => {
                let worst = best.map_or(f64::INFINITY, |b| b.mismatch);
                let why = format!(
                    "the friction bounds did not settle in {ROUNDS} rounds (the best \
                     is {:.1} % of the largest force from Coulomb's law)",
                    100.0 * worst
                );
                Err(PbmError::degenerate("friction forces", why))
            }
        }
    }
    // ANCHOR_END: friction_unsettled
}

#[cfg(test)]
mod tests {
    use super::*;

    type V3 = nalgebra::Vector3<f64>;
    use crate::rows::{push_square_face, unit_cube};

    /// A unit cube of 1 kg resting on the ground on its four bottom corners, pushed
    /// sideways by `push` (N) at its centre; gravity 10 m/s².
    fn pushed_cube(push: f64, mu: f64) -> FrictionSolution {
        let body = unit_cube(V3::new(0.0, 0.5, 0.0), V3::zeros(), V3::zeros());
        let bodies = [body, BodyState::fixed(V3::zeros())];
        let mut rows = Vec::new();
        push_square_face(&mut rows, (0, 1), 0.0, true);
        // Gravity closes every normal row; the push accelerates the centre along x,
        // a_x = push (per kg), with no spin yet.
        let b: Vec<f64> = rows
            .iter()
            .map(|row| match row.role {
                Role::Normal => -10.0,
                _ if row.along == V3::x() => push,
                _ => 0.0,
            })
            .collect();
        solve_friction(&bodies, &rows, &DVector::from_vec(b), mu, None).unwrap()
    }

    #[test]
    fn friction_holds_below_mu_m_g_and_slips_above() {
        let mu = 0.5;
        // 4.9 N < μ m g = 5 N: every tangential acceleration is zero (to the
        // regularisation, 1e-9 of A's scale times the force).
        let held = pushed_cube(4.9, mu);
        let a = &held.solution.a;
        assert!((0..12).all(|i| a[i].abs() < 1e-7), "{a}");
        let friction: f64 = (0..4).map(|k| held.solution.f[3 * k + 1]).sum();
        assert!((friction + 4.9).abs() < 1e-7, "{friction}");
        // 5.1 N > 5 N: friction saturates at μ fₙ and the cube accelerates.
        let slips = pushed_cube(5.1, mu);
        let f = &slips.solution.f;
        let normal: f64 = (0..4).map(|k| f[3 * k]).sum();
        let friction: f64 = (0..4).map(|k| f[3 * k + 1]).sum();
        assert!((friction + mu * normal).abs() < 1e-7, "{friction} vs {normal}");
        assert!(slips.solution.a[1] > 0.05, "{}", slips.solution.a);
    }

    #[test]
    fn negative_friction_is_an_error() {
        let bodies = [BodyState::fixed(V3::zeros())];
        let e =
            solve_friction(&bodies, &[], &DVector::zeros(0), -0.1, None).unwrap_err();
        assert!(e.to_string().contains("not negative"), "{e}");
    }
}
