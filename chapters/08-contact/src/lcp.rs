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
    /// Which unknowns ended clamped (aᵢ = 0 held): the guess a warm start reuses.
    pub clamped: Vec<bool>,
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
    /// aᵢ = 0 is held and fᵢ may change (between its bounds): a contact that stays
    /// closed, or a bilateral row, or a sticking friction force.
    Clamped,
    /// fᵢ is held at its lower bound and aᵢ ≥ 0 may change: a contact that may
    /// separate (the bound is 0).
    Lower,
    /// fᵢ is held at its upper bound and aᵢ ≤ 0 may change: friction at the edge of
    /// its cone, slipping.
    Upper,
    /// Not yet brought into complementarity.
    Pending,
}

/// Bounds lo ≤ f ≤ hi on each unknown, with lo ≤ 0 ≤ hi. A contact force has
/// [0, ∞); a bilateral (hinge, pin) force (−∞, ∞); a friction force [−μ fₙ, μ fₙ].
#[derive(Debug, Clone, PartialEq)]
pub struct Bounds {
    /// Lower bounds (≤ 0, may be −∞).
    pub lo: Vec<f64>,
    /// Upper bounds (≥ 0, may be +∞).
    pub hi: Vec<f64>,
}

impl Bounds {
    /// n contacts: every force in [0, ∞), the plain LCP.
    pub fn contacts(n: usize) -> Self {
        Bounds { lo: vec![0.0; n], hi: vec![f64::INFINITY; n] }
    }

    /// How far (f, a) is from the conditions on unknown i, relative to s: f outside
    /// its bounds, or a > 0 with f above its lower bound (that force should
    /// shrink), or a < 0 with f below its upper bound (it should grow). An infinite
    /// bound makes the wrong sign of a a violation by itself.
    fn violation(&self, i: usize, f: f64, a: f64, s: f64) -> f64 {
        let (lo, hi) = (self.lo[i], self.hi[i]);
        let outside = (lo - f).max(f - hi).max(0.0) / s;
        let gap = |bound: f64| {
            if bound.is_finite() { (f - bound).abs() / s } else { 1.0 }
        };
        let wrong_sign = if a > 0.0 { a / s * gap(lo) } else { -a / s * gap(hi) };
        outside.max(wrong_sign)
    }
}

impl LcpSolution {
    /// The residual of a bounded problem, as [`LcpSolution::residual`] is for the
    /// bounds [0, ∞): the largest violation of lo ≤ f ≤ hi, of a ≤ 0 where f is above
    /// lo, and of a ≥ 0 where f is below hi (zero at an exact solution).
    pub fn bounded_residual(&self, bounds: &Bounds, scale: f64) -> f64 {
        let s = scale.max(f64::MIN_POSITIVE);
        (0..self.f.len())
            .map(|i| bounds.violation(i, self.f[i], self.a[i], s))
            .fold(0.0, f64::max)
    }
}

fn check_bounds(bounds: &Bounds, n: usize) -> Result<(), PbmError> {
    if bounds.lo.len() != n || bounds.hi.len() != n {
        let why = format!(
            "{} lower and {} upper bounds for {n} unknowns",
            bounds.lo.len(),
            bounds.hi.len()
        );
        return Err(PbmError::invalid("contact problem", why));
    }
    let bad = (0..n).find(|&i| {
        let (lo, hi) = (bounds.lo[i], bounds.hi[i]);
        lo.is_nan() || hi.is_nan() || lo > 0.0 || hi < 0.0
    });
    if let Some(i) = bad {
        let why = format!(
            "unknown {i} has bounds [{}, {}]: they must satisfy lo ≤ 0 ≤ hi",
            bounds.lo[i], bounds.hi[i]
        );
        return Err(PbmError::invalid("contact problem", why));
    }
    Ok(())
}

// ANCHOR: direction
/// The direction in which to change f as index d is driven: Δf_d = σ (±1, the way
/// that brings a_d towards zero), the clamped forces change so that their
/// accelerations stay at zero (A_CC Δf_C = −σ A_Cd), the others stay where they are.
/// Returns Δf and Δa = A Δf.
fn direction(
    a: &DMatrix<f64>,
    sets: &[Set],
    d: usize,
    sigma: f64,
) -> Result<(DVector<f64>, DVector<f64>), PbmError> {
    let n = sets.len();
    let clamped: Vec<usize> = (0..n).filter(|&i| sets[i] == Set::Clamped).collect();
    let mut df = DVector::zeros(n);
    df[d] = sigma;
    if !clamped.is_empty() {
        let k = clamped.len();
        let acc = DMatrix::from_fn(k, k, |r, c| a[(clamped[r], clamped[c])]);
        let rhs = DVector::from_fn(k, |r, _| -sigma * a[(clamped[r], d)]);
        // Redundant contacts make A_CC (nearly) singular, and LU then blows roundoff
        // up: unless U's pivots are sound, take the least change (pseudo-inverse).
        let lu = acc.clone().lu();
        let pivots = lu.u().diagonal().map(f64::abs);
        let solid = pivots.min() > 1e-9 * pivots.max();
        let x = match lu.solve(&rhs) {
            Some(x) if solid && x.iter().all(|v| v.is_finite()) => x,
            _ => acc.svd(true, true).solve(&rhs, 1e-12 * a.amax()).map_err(|_| {
                let why = format!(
                    "the {k} clamped contacts' matrix A_CC is singular while \
                     driving contact {d}"
                );
                PbmError::degenerate("contact forces", why)
            })?,
        };
        for (r, &i) in clamped.iter().enumerate() {
            df[i] = x[r];
        }
    }
    let da = a * &df;
    Ok((df, da))
}
// ANCHOR_END: direction

// ANCHOR: factor
/// The clamped rows' matrix A_CC, factored as L Lᵀ (Cholesky) and kept up to date
/// as the pivoting moves one index at a time into or out of the clamped set: adding
/// a row costs one triangular solve, removing one a rank-one update of the rows
/// below it, O(k²) each where factoring afresh at every pivot costs O(k³). Only for
/// a symmetric A whose A_CC stays definite (contact matrices, and every matrix the
/// friction solve regularises); [`direction`] does the work otherwise.
pub(crate) struct ClampedFactor {
    /// The clamped indices, in the order of L's rows.
    order: Vec<usize>,
    /// L's rows: row r has r + 1 entries.
    l: Vec<Vec<f64>>,
    /// Where each row of L starts: its entries before this column are zero. A row
    /// of A_CC that is zero up to some column stays zero there in L (the envelope
    /// of a Cholesky factor is the matrix's), so a banded A_CC costs its band, not
    /// its size.
    start: Vec<usize>,
    /// Built for an earlier A (an earlier solve's, whose bodies have since moved a
    /// little): no longer A_CC's factor, only a preconditioner for it, used by
    /// [`ClampedFactor::refine`] and nowhere else.
    stale: bool,
}

// ANCHOR_END: factor

impl ClampedFactor {
    /// Factors A_CC for the clamped indices of `sets`; None if it is not definite.
    fn new(a: &DMatrix<f64>, sets: &[Set]) -> Option<Self> {
        let (order, l, start) = (Vec::new(), Vec::new(), Vec::new());
        let mut factor = ClampedFactor { order, l, start, stale: false };
        for i in (0..sets.len()).filter(|&i| sets[i] == Set::Clamped) {
            if !factor.push(a, i) {
                return None;
            }
        }
        Some(factor)
    }

    // ANCHOR: factor_push
    /// Adds index i as the last row: L's new row l solves L l = A_Ci, and its
    /// diagonal is √(A_ii − l·l). False (and nothing added) if that is not
    /// clearly positive: A_CC would be singular, a redundant contact.
    fn push(&mut self, a: &DMatrix<f64>, i: usize) -> bool {
        let k = self.order.len();
        let start = self.order.iter().position(|&j| a[(i, j)] != 0.0).unwrap_or(k);
        let mut row: Vec<f64> = vec![0.0; k];
        for r in start..k {
            let from = start.max(self.start[r]);
            let dot: f64 = row[from..r]
                .iter()
                .zip(&self.l[r][from..r])
                .map(|(x, y)| x * y)
                .sum();
            row[r] = (a[(i, self.order[r])] - dot) / self.l[r][r];
        }
        let pivot = a[(i, i)] - row[start..].iter().map(|x| x * x).sum::<f64>();
        if !(pivot > 1e-13 * a[(i, i)].abs() && pivot.is_finite()) {
            return false;
        }
        row.push(pivot.sqrt());
        self.l.push(row);
        self.order.push(i);
        self.start.push(start);
        true
    }

    // ANCHOR_END: factor_push
    // ANCHOR: factor_remove
    /// Removes index i: its row goes, and the rows below lose their entry x in its
    /// column, which the rank-one update L̃ L̃ᵀ = L Lᵀ + x xᵀ of the block below
    /// puts back.
    fn remove(&mut self, i: usize) {
        let Some(p) = self.order.iter().position(|&j| j == i) else { return };
        self.order.remove(p);
        self.l.remove(p);
        self.start.remove(p);
        // Rows below that started after column p start one column earlier now; the
        // update below fills no column before a row's start.
        for start in self.start[p..].iter_mut().filter(|s| **s > p) {
            *start -= 1;
        }
        let m = self.l.len();
        let mut x: Vec<f64> = (p..m).map(|r| self.l[r].remove(p)).collect();
        for j in 0..m - p {
            let jj = p + j;
            let diagonal = self.l[jj][jj];
            let r = diagonal.hypot(x[j]);
            let (c, s) = (r / diagonal, x[j] / diagonal);
            self.l[jj][jj] = r;
            let below = self.l[jj + 1..].iter_mut().zip(&mut x[j + 1..]);
            for (row, x) in below {
                row[jj] = (row[jj] + s * *x) / c;
                *x = c * *x - s * row[jj];
            }
        }
    }

    // ANCHOR_END: factor_remove
    // ANCHOR: factor_solve
    /// Solves A_CC x = rhs by L y = rhs, then Lᵀ x = y a row of L at a time (x_c is
    /// final once the rows below are done); rhs and x in the factor's row order.
    fn solve(&self, mut x: Vec<f64>) -> Vec<f64> {
        let k = self.order.len();
        for r in 0..k {
            let (from, row) = (self.start[r], &self.l[r]);
            let dot: f64 =
                row[from..r].iter().zip(&x[from..r]).map(|(l, x)| l * x).sum();
            x[r] = (x[r] - dot) / row[r];
        }
        for c in (0..k).rev() {
            let (from, row) = (self.start[c], &self.l[c]);
            x[c] /= row[c];
            let xc = x[c];
            for (x, l) in x[from..c].iter_mut().zip(&row[from..c]) {
                *x -= l * xc;
            }
        }
        x
    }

    /// [`direction`] through the factor: A_CC Δf_C = −σ A_Cd by two triangular
    /// solves, and Δa = A Δf from the columns that move.
    fn direction(
        &self,
        a: &DMatrix<f64>,
        d: usize,
        sigma: f64,
    ) -> (DVector<f64>, DVector<f64>) {
        let x = self.solve(self.order.iter().map(|&i| -sigma * a[(i, d)]).collect());
        let n = a.nrows();
        let mut df = DVector::zeros(n);
        df[d] = sigma;
        let mut da = a.column(d) * sigma;
        for (r, &i) in self.order.iter().enumerate() {
            df[i] = x[r];
            da.axpy(x[r], &a.column(i), 1.0);
        }
        (df, da)
    }
    // ANCHOR_END: factor_solve

    // ANCHOR: factor_refine
    /// Solves A_CC x = rhs (in the factor's row order) for an A close to the one the
    /// factor was built from, by iterative refinement: x ← x + (L Lᵀ)⁻¹ (rhs − A_CC x).
    /// Each round costs a product with A_CC and two triangular solves, O(k²), where a
    /// new factor costs O(k³); the error shrinks each round by the factor
    /// ‖I − (L Lᵀ)⁻¹ A_CC‖, small while the bodies have moved little since the
    /// factor was built. `None` if the residual is not below `goal` after
    /// [`REFINEMENTS`] rounds: the matrix changed too much, and the caller refactors.
    fn refine(
        &self,
        (a, known): (&DMatrix<f64>, Option<&Checked>),
        rhs: &[f64],
        goal: f64,
    ) -> Option<Vec<f64>> {
        let mut x = vec![0.0; self.order.len()];
        let mut full = DVector::zeros(a.nrows());
        let mut residual = rhs.to_vec();
        for _ in 0..REFINEMENTS {
            let dx = self.solve(residual);
            x.iter_mut().zip(&dx).for_each(|(x, d)| *x += d);
            for (&i, &x) in self.order.iter().zip(&x) {
                full[i] = x;
            }
            let ax = product(a, &full, known);
            residual = self.order.iter().zip(rhs).map(|(&i, r)| r - ax[i]).collect();
            let worst = residual.iter().fold(0.0_f64, |m, r| m.max(r.abs()));
            if worst <= goal {
                return Some(x);
            }
            if !worst.is_finite() {
                return None;
            }
        }
        None
    }
    // ANCHOR_END: factor_refine

    /// Marks the factor as built for an earlier A: from now on only
    /// [`ClampedFactor::refine`] may use it.
    pub(crate) fn age(&mut self) {
        self.stale = true;
    }

    /// Whether the factor was built for an earlier A.
    pub(crate) fn is_aged(&self) -> bool {
        self.stale
    }
}

/// Rounds of iterative refinement through a kept factor before it is rebuilt.
pub const REFINEMENTS: usize = 4;

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
    match pivot(a, b, bounds) {
        Err(PbmError::Degenerate { why, .. }) if why.contains("cycling") => {
            // Exact ties between redundant contacts can make the pivoting cycle.
            // A diagonal of 1e-10 of A's scale breaks every tie (the matrix becomes
            // definite) and changes each acceleration by that much times its force.
            let mut definite = a.clone();
            let delta = 1e-10 * a.amax();
            for i in 0..b.len() {
                definite[(i, i)] += delta;
            }
            pivot(&definite, b, bounds)
        }
        other => other,
    }
}
// ANCHOR_END: solve_bounded

// ANCHOR: least_norm
/// With dependent rows many forces give the same accelerations, and the pivoting
/// returns one of them: the forces of a basis of the active rows, which can be
/// enormous where that basis is nearly dependent too, cancelling to the right
/// accelerations. The active rows Z (a = 0, force free to move) must keep
/// A_ZZ f_Z = −(b_Z + A_ZN f_N); among those forces this takes the one nearest
/// `reference` (zero for the least-norm forces; the last answer for Baraff's rule).
/// The pivoting's answer stands if no such forces meet the bounds and equations.
fn nearest(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &Bounds,
    solution: LcpSolution,
    reference: &DVector<f64>,
) -> LcpSolution {
    let s = scale(a, b);
    let z: Vec<usize> = (0..b.len())
        .filter(|&i| solution.a[i].abs() <= 1e-10 * s && bounds.lo[i] < bounds.hi[i])
        .collect();
    let clamped = solution.clamped.iter().filter(|&&c| c).count();
    if z.len() <= clamped {
        return solution; // a basis of independent rows: its forces are the only ones
    }
    let mut f = solution.f.clone();
    for &i in &z {
        f[i] = 0.0;
    }
    let total = a * &f + b;
    let rhs = DVector::from_fn(z.len(), |r, _| -total[z[r]]);
    let Some(f) = nearest_on(a, bounds, (&z, &rhs), f, (reference, s)) else {
        return solution;
    };
    let acc = a * &f + b;
    let moved = LcpSolution { f, a: acc, ..solution.clone() };
    let worst = solution.bounded_residual(bounds, s).max(1e-10);
    if moved.bounded_residual(bounds, s) <= worst { moved } else { solution }
}
// ANCHOR_END: least_norm

// ANCHOR: nearest_on
/// The forces on rows `z` nearest `reference` with A_ZZ f_Z = `rhs` (others fixed):
/// f_Z = r_Z + A_ZZ⁺ (rhs − A_ZZ r_Z). A force below its lower bound is held there,
/// the furthest first, and the rest solved again; None if nothing meets the bounds.
fn nearest_on(
    a: &DMatrix<f64>,
    bounds: &Bounds,
    (z, rhs): (&[usize], &DVector<f64>),
    mut f: DVector<f64>,
    (reference, s): (&DVector<f64>, f64),
) -> Option<DVector<f64>> {
    let (mut free, tol) = (z.to_vec(), 1e-10 * s);
    while !free.is_empty() {
        let held: Vec<usize> =
            z.iter().copied().filter(|i| !free.contains(i)).collect();
        let mut want = rhs.clone();
        for (r, &i) in z.iter().enumerate() {
            want[r] -= held.iter().map(|&j| a[(i, j)] * bounds.lo[j]).sum::<f64>();
        }
        let azk = DMatrix::from_fn(z.len(), free.len(), |r, c| a[(z[r], free[c])]);
        let r_free = DVector::from_fn(free.len(), |c, _| reference[free[c]]);
        let step = azk.clone().svd(true, true).solve(&(&want - &azk * &r_free), tol);
        let x = r_free + step.ok()?;
        let over = (0..free.len()).any(|c| x[c] > bounds.hi[free[c]] + tol);
        if over || (&azk * &x - &want).amax() > tol {
            return None; // above a bound, or the held forces left rhs unreachable
        }
        if let Some(c) = furthest_below(&x, &free, bounds, tol) {
            free.remove(c);
            continue;
        }
        held.iter().for_each(|&j| f[j] = bounds.lo[j]);
        for (c, &i) in free.iter().enumerate() {
            f[i] = x[c].clamp(bounds.lo[i], bounds.hi[i]);
        }
        return Some(f);
    }
    None
}
// ANCHOR_END: nearest_on

/// Which of the forces `x` on the rows `free` lies furthest below its lower bound
/// (by more than `tol`), if any.
fn furthest_below(
    x: &DVector<f64>,
    free: &[usize],
    bounds: &Bounds,
    tol: f64,
) -> Option<usize> {
    (0..free.len())
        .map(|c| (c, x[c] - bounds.lo[free[c]]))
        .filter(|&(_, gap)| gap < -tol)
        .min_by(|p, q| p.1.total_cmp(&q.1))
        .map(|(c, _)| c)
}

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
// ANCHOR_END: least_norm

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
fn is_symmetric(a: &DMatrix<f64>) -> bool {
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
fn drive(
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

/// What a caller that built A itself knows of it, so that the solves it makes (the
/// friction rounds make several per A) need not check it again: A is square, finite
/// and symmetric, and `scale` is [`scale`] of A and b.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Checked {
    /// [`scale`] of A and b.
    pub(crate) scale: f64,
    /// For each column j of A, the first and last row of its nonzero entries (and by
    /// symmetry row j's columns). Rows of contacts that share no body do not
    /// interact, so with contacts listed body pair by body pair (a stack from the
    /// bottom up) A is banded, and products with it need only these spans.
    spans: Vec<(usize, usize)>,
}

impl Checked {
    /// Checks a contact matrix A (J M⁻¹ Jᵀ plus a diagonal, assembled symmetric:
    /// [`crate::rows::row_matrix`] writes each entry and its mirror from one number)
    /// and b once, given the `spans` of A's columns that the rows' bodies give
    /// ([`crate::rows::row_spans`]). An entry of J or M⁻¹ that is not finite makes
    /// the diagonal entry of its row not finite, so the diagonal and b are what is
    /// checked. A's largest entry is on its diagonal, as in every positive
    /// semidefinite matrix (|Aᵢⱼ| ≤ √(Aᵢᵢ Aⱼⱼ)), so the scale reads the diagonal.
    pub(crate) fn contact_matrix(
        a: &DMatrix<f64>,
        b: &DVector<f64>,
        spans: Vec<(usize, usize)>,
    ) -> Result<Self, PbmError> {
        let n = b.len();
        let diagonal = a.diagonal();
        let sized = a.nrows() == n && a.ncols() == n && spans.len() == n;
        if !sized || diagonal.iter().chain(b.iter()).any(|x| !x.is_finite()) {
            check(a, b)?; // says what is wrong
            let why = format!("{} column spans for {n} unknowns", spans.len());
            return Err(PbmError::invalid("contact problem", why));
        }
        let scale = b.amax().max(diagonal.amax()).max(1e-300);
        Ok(Checked { scale, spans })
    }

    /// A x, reading each column only over its span and skipping zero entries of x.
    fn product(&self, a: &DMatrix<f64>, x: &DVector<f64>) -> DVector<f64> {
        let n = x.len();
        let mut y = DVector::zeros(n);
        for (j, &xj) in x.iter().enumerate().filter(|(_, x)| **x != 0.0) {
            let (first, last) = self.spans[j];
            let column = &a.as_slice()[j * n + first..=j * n + last];
            for (y, a) in y.as_mut_slice()[first..=last].iter_mut().zip(column) {
                *y += a * xj;
            }
        }
        y
    }
}

/// A x, through the spans of a checked A when there are some.
fn product(
    a: &DMatrix<f64>,
    x: &DVector<f64>,
    known: Option<&Checked>,
) -> DVector<f64> {
    match known {
        Some(k) => k.product(a, x),
        None => a * x,
    }
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

/// Which rows a [`dependent_problem`] has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rows {
    /// Every row a contact, [0, ∞).
    Unilateral,
    /// Every row a joint, (−∞, ∞).
    Bilateral,
    /// Every other row a joint.
    Mixed,
}

/// A random contact problem with dependent rows: A = J W Jᵀ of `m` rows and rank
/// m − `deficit` (J = R S with R of m × r and S of r × (r + 3) random, W a positive
/// diagonal), and a b built from a known solution: joint rows and about half the
/// contact rows active (a = 0, with a random force, positive for a contact), the
/// other contacts separating (f = 0, a > 0). The same for the same `seed`.
pub fn dependent_problem(
    m: usize,
    deficit: usize,
    rows: Rows,
    seed: u64,
) -> (DMatrix<f64>, DVector<f64>, Bounds) {
    use pbm_prelim::sampling::sample;
    let mut k = seed.wrapping_mul(0x2545_f491_4f6c_dd1d);
    let mut next = || {
        k += 1;
        sample(k)
    };
    let r = m.saturating_sub(deficit).max(1);
    let j = DMatrix::from_fn(m, r, |_, _| next())
        * DMatrix::from_fn(r, r + 3, |_, _| next());
    let w = DVector::from_fn(r + 3, |_, _| 0.1 + (next() + 1.0) * 2.0);
    let a = &j * DMatrix::from_diagonal(&w) * j.transpose();
    let joint = |i: usize| match rows {
        Rows::Unilateral => false,
        Rows::Bilateral => true,
        Rows::Mixed => (i as u64 + seed).is_multiple_of(2),
    };
    let bounds = Bounds {
        lo: (0..m).map(|i| if joint(i) { f64::NEG_INFINITY } else { 0.0 }).collect(),
        hi: vec![f64::INFINITY; m],
    };
    let (mut f, mut acc) = (DVector::zeros(m), DVector::zeros(m));
    for i in 0..m {
        match next() {
            u if joint(i) || u > 0.0 => f[i] = u,
            u => acc[i] = -u,
        }
    }
    let b = &acc - &a * &f;
    (a, b, bounds)
}

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

    /// Moves index i into the clamped set and the factor, or out of both.
    fn toggle(
        (factor, sets): (&mut ClampedFactor, &mut [Set]),
        a: &DMatrix<f64>,
        i: usize,
    ) {
        if sets[i] == Set::Clamped {
            sets[i] = Set::Lower;
            factor.remove(i);
        } else {
            sets[i] = Set::Clamped;
            assert!(factor.push(a, i));
        }
    }

    #[test]
    fn the_followed_factor_solves_as_a_fresh_dense_solve_does() {
        // Indices join and leave the clamped set in a scrambled order; after every
        // change the followed factor's direction must equal the dense one.
        let n = 14;
        let (a, _) = random_problem(Kind::Definite, n, 7);
        let mut sets = vec![Set::Lower; n];
        let mut factor = ClampedFactor::new(&a, &sets).unwrap();
        let moves = [3, 8, 1, 12, 3, 5, 0, 8, 9, 13, 1, 2, 6, 12, 10, 0];
        for (step, &i) in moves.iter().enumerate() {
            toggle((&mut factor, &mut sets), &a, i);
            let d = (0..n).find(|&j| sets[j] != Set::Clamped).unwrap();
            let (df, da) = factor.direction(&a, d, -1.0);
            let (df_dense, da_dense) = direction(&a, &sets, d, -1.0).unwrap();
            assert!(
                (&df - &df_dense).amax() < 1e-10 * df_dense.amax(),
                "step {step}"
            );
            assert!(
                (&da - &da_dense).amax() < 1e-10 * da_dense.amax(),
                "step {step}"
            );
        }
        // A row dependent on the clamped ones is refused, and nothing changes.
        let j = DMatrix::from_fn(n, 3, |r, c| ((r * 3 + c) % 5) as f64 - 2.0);
        let singular = &j * j.transpose();
        let mut factor = ClampedFactor::new(&singular, &vec![Set::Lower; n]).unwrap();
        let accepted = (0..n).filter(|&i| factor.push(&singular, i)).count();
        assert_eq!(accepted, 3, "rank 3");
    }

    /// A banded definite matrix: J Jᵀ + I with J's rows touching three neighbouring
    /// columns, as contact rows touch their bodies.
    fn banded(n: usize, seed: u64) -> DMatrix<f64> {
        let banded = |r: usize, c: usize| c >= r && c < r + 3;
        let j = DMatrix::from_fn(n, n, |r, c| match banded(r, c) {
            true => {
                0.5 * pbm_prelim::sampling::sample(seed * 10_007 + (r * n + c) as u64)
            }
            false => 0.0,
        });
        &j * j.transpose() + DMatrix::identity(n, n)
    }

    #[test]
    fn the_envelope_factor_of_a_banded_matrix_solves_as_a_dense_solve_does() {
        let n = 16;
        let a = banded(n, 3);
        let mut sets = vec![Set::Lower; n];
        let mut factor = ClampedFactor::new(&a, &sets).unwrap();
        let moves = [0, 1, 2, 5, 6, 7, 9, 15, 1, 14, 8, 6, 3, 4, 12, 0, 11];
        for (step, &i) in moves.iter().enumerate() {
            toggle((&mut factor, &mut sets), &a, i);
            // L's entries before each row's start are zero, and L Lᵀ is A_CC.
            let k = factor.order.len();
            for r in 0..k {
                assert!(factor.l[r][..factor.start[r]].iter().all(|&x| x == 0.0));
                for c in 0..=r {
                    let llt: f64 =
                        (0..=c).map(|m| factor.l[r][m] * factor.l[c][m]).sum();
                    let (i, j) = (factor.order[r], factor.order[c]);
                    assert!(
                        (llt - a[(i, j)]).abs() < 1e-12,
                        "step {step}: ({r}, {c})"
                    );
                }
            }
            let d = (0..n).find(|&j| sets[j] != Set::Clamped).unwrap();
            let (df, _) = factor.direction(&a, d, 1.0);
            let (df_dense, _) = direction(&a, &sets, d, 1.0).unwrap();
            assert!((&df - &df_dense).amax() < 1e-12, "step {step}");
        }
        // Rows after a banded row's band start late: the factor skips their zeros.
        let all = ClampedFactor::new(&a, &vec![Set::Clamped; n]).unwrap();
        assert!(all.start.iter().enumerate().all(|(r, &s)| s + 2 >= r && s <= r));
    }

    #[test]
    fn an_aged_factor_refines_a_nearby_matrix_and_refuses_a_far_one() {
        let n = 12;
        let a = banded(n, 5);
        let factor = ClampedFactor::new(&a, &vec![Set::Clamped; n]).unwrap();
        let rhs: Vec<f64> = (0..n).map(|i| (i as f64).sin()).collect();
        let nudged = |by: f64| {
            let mut moved = a.clone();
            for i in 0..n - 1 {
                moved[(i, i + 1)] += by;
                moved[(i + 1, i)] += by;
            }
            moved
        };
        // Bodies that moved a little: the answer is the new matrix's, to the goal.
        let near = nudged(1e-6);
        let x = factor.refine((&near, None), &rhs, 1e-12).unwrap();
        let exact = near.clone().lu().solve(&DVector::from_vec(rhs.clone())).unwrap();
        assert!((DVector::from_vec(x) - exact).amax() < 1e-11);
        // Moved too far: no answer, and the caller refactors.
        assert!(factor.refine((&nudged(0.8), None), &rhs, 1e-12).is_none());
    }

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
