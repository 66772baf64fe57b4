//! The problem itself: a matrix A, a vector b and bounds on the unknowns, what a
//! solution is and how far a candidate is from one, what a caller that assembled A
//! already knows of it, and random instances for the tests and studies.

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

pub(super) fn check(a: &DMatrix<f64>, b: &DVector<f64>) -> Result<(), PbmError> {
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
pub(super) enum Set {
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

pub(super) fn check_bounds(bounds: &Bounds, n: usize) -> Result<(), PbmError> {
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
pub(super) fn product(
    a: &DMatrix<f64>,
    x: &DVector<f64>,
    known: Option<&Checked>,
) -> DVector<f64> {
    match known {
        Some(k) => k.product(a, x),
        None => a * x,
    }
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
