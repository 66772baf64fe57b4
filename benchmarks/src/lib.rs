//! The workloads of the production appendix, set up once for the benchmarks: the same
//! problem handed to the book's code and to the crate a production simulator would
//! use, and the checks that both solved it before either is timed.
//!
//! `cargo bench -p pbm-bench` times them (`benches/production.rs`, beside parry's
//! broad phase in `benches/versus_parry.rs` and rapier's stack in
//! `benches/versus_rapier.rs`); `cargo run --release -- bench-tables` turns the
//! results into the appendix's tables.

use faer::prelude::Solve;
use faer::sparse::linalg::solvers::{Llt, SymbolicLlt};
use faer::sparse::{SparseColMat, Triplet};
use faer::{Mat, Side};
use ode_solvers::dop_shared::OutputType;
use ode_solvers::dopri5::Dopri5;
use ode_solvers::rk4::Rk4;
use ode_solvers::{DVector, System, Vector4};
use pbm_ode::adaptive::{Controller, EmbeddedPair, integrate_adaptive};
use pbm_ode::convergence::{ADAPTIVE_FIRST_STEP, AdaptiveMethod, adaptive_orbit};
use pbm_ode::fixed::{FixedPair, integrate_fixed};
use pbm_ode::scenes::{KEPLER_PERIOD, kepler_derivative, kepler_initial_state};
use pbm_ode::system::{VectorField, state_of};
use pbm_ode::tableau::DORMAND_PRINCE;
use pbm_prelim::PbmError;

/// The adaptive runs' problems: one period of the Kepler orbit at these
/// eccentricities, started at perihelion.
pub const ECCENTRICITIES: [f64; 2] = [0.5, 0.9];

/// The global error both adaptive solvers are tuned to reach after one period.
pub const TARGET_ERROR: f64 = 1e-8;

/// The Kepler orbit as ode_solvers sees it, through chapter 1's own derivative.
pub struct Kepler;

impl System<f64, Vector4<f64>> for Kepler {
    fn system(&self, t: f64, y: &Vector4<f64>, dy: &mut Vector4<f64>) {
        kepler_derivative(t, y.as_slice(), dy.as_mut_slice());
    }
}

/// Euclidean distance between two states.
fn distance(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
}

/// One period with chapter 1's Dormand–Prince at absolute tolerance `tol`, as a
/// reader would call it on one system: the field named by its function (not a
/// pointer to it) and the pair by its type, so the compiler writes the integrator
/// for this system alone. Returns (derivative evaluations, global error).
pub fn kepler_ours(e: f64, tol: f64) -> Result<(usize, f64), PbmError> {
    let start = kepler_initial_state(e)?;
    let mut orbit = VectorField::new(&start, 0.0, kepler_derivative)?;
    let mut pair = EmbeddedPair::new(DORMAND_PRINCE)?;
    let control = Controller::new(tol)?;
    let span = (ADAPTIVE_FIRST_STEP, KEPLER_PERIOD);
    let run = integrate_adaptive(&mut orbit, &mut pair, &control, span)?;
    Ok((run.evaluations, distance(&state_of(&orbit), &start)))
}

/// The same run on a state whose size the compiler knows (chapter 1's
/// [`pbm_ode::fixed`]): the same steps, stages and controller on `[f64; 4]`.
pub fn kepler_ours_fixed(e: f64, tol: f64) -> Result<(usize, f64), PbmError> {
    let start = kepler_initial_state(e)?;
    let pair = FixedPair::<7>::new(&DORMAND_PRINCE)?;
    let control = Controller::new(tol)?;
    let field = |t: f64, x: &[f64; 4], d: &mut [f64; 4]| kepler_derivative(t, x, d);
    let span = (ADAPTIVE_FIRST_STEP, KEPLER_PERIOD);
    let run = integrate_fixed(&pair, field, &control, (start, 0.0), span)?;
    Ok((run.evaluations, distance(&run.x, &start)))
}

/// The same run as the chapter's exercise makes it, for any method chosen at run
/// time: the stepper behind `dyn ErrorEstimatingStep`, the field's derivative behind
/// a function pointer.
pub fn kepler_ours_dyn(e: f64, tol: f64) -> Result<(usize, f64), PbmError> {
    let (run, error) = adaptive_orbit(AdaptiveMethod::DormandPrince, e, tol)?;
    Ok((run.evaluations, error))
}

/// One period with ode_solvers' Dopri5 at relative and absolute tolerance `tol`:
/// (derivative evaluations, global error).
pub fn kepler_ode_solvers(e: f64, tol: f64) -> Result<(usize, f64), PbmError> {
    let start = kepler_initial_state(e)?;
    let y0 = Vector4::from_column_slice(&start);
    let mut solver =
        Dopri5::new(Kepler, 0.0, KEPLER_PERIOD, KEPLER_PERIOD, y0, tol, tol);
    // Every accepted step is recorded; the last is the state at the end.
    solver.set_output(OutputType::Sparse);
    let stats = solver
        .integrate()
        .map_err(|e| PbmError::degenerate("ode_solvers' Dopri5", format!("{e:?}")))?;
    let end = solver.y_out().last().copied().unwrap_or(y0);
    Ok((stats.num_eval as usize, distance(end.as_slice(), &start)))
}

/// What one adaptive solver needed to reach the target error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tuned {
    /// The tolerance it was given.
    pub tolerance: f64,
    /// Derivative evaluations for one period.
    pub evaluations: usize,
    /// The global error it reached.
    pub error: f64,
}

/// The loosest tolerance, on a grid of eight per decade from 1e-2 to 1e-14, at which
/// `run` (evaluations and error for a tolerance) reaches `target`.
pub fn tune(
    target: f64,
    run: impl Fn(f64) -> Result<(usize, f64), PbmError>,
) -> Result<Tuned, PbmError> {
    for k in 16..=112 {
        let tolerance = 10f64.powf(-f64::from(k) / 8.0);
        let (evaluations, error) = run(tolerance)?;
        if error <= target {
            return Ok(Tuned { tolerance, evaluations, error });
        }
    }
    Err(PbmError::invalid("tune", format!("no tolerance reaches {target:e}")))
}

/// Masses on a ring of springs, the large system of the RK4 throughput test: state
/// (x_1 … x_n, v_1 … v_n), unit masses and springs, x_i'' = x_{i−1} − 2 x_i + x_{i+1}.
pub fn ring_derivative(x: &[f64], xdot: &mut [f64]) {
    let n = x.len() / 2;
    let (pos, vel) = x.split_at(n);
    let (dpos, dvel) = xdot.split_at_mut(n);
    dpos.copy_from_slice(vel);
    for i in 0..n {
        let (left, right) = (pos[(i + n - 1) % n], pos[(i + 1) % n]);
        dvel[i] = left - 2.0 * pos[i] + right;
    }
}

/// The ring's starting state: one mass pulled out by 1.
pub fn ring_start(n: usize) -> Vec<f64> {
    let mut x = vec![0.0; 2 * n];
    x[0] = 1.0;
    x
}

/// The ring as ode_solvers sees it.
pub struct Ring;

impl System<f64, DVector<f64>> for Ring {
    fn system(&self, _t: f64, y: &DVector<f64>, dy: &mut DVector<f64>) {
        ring_derivative(y.as_slice(), dy.as_mut_slice());
    }
}

/// `steps` RK4 steps of size `h` on the ring with ode_solvers: the final state.
pub fn ring_ode_solvers(
    n: usize,
    h: f64,
    steps: usize,
) -> Result<Vec<f64>, PbmError> {
    let y0 = DVector::from_vec(ring_start(n));
    let mut solver = Rk4::new(Ring, 0.0, y0, h * steps as f64, h);
    solver
        .integrate()
        .map_err(|e| PbmError::degenerate("ode_solvers' Rk4", format!("{e:?}")))?;
    Ok(solver.y_out().last().map(|y| y.as_slice().to_vec()).unwrap_or_default())
}

/// A symmetric positive definite matrix, given by its entries, in faer's form.
pub fn to_faer(
    size: usize,
    entries: &[(usize, usize, f64)],
) -> Result<SparseColMat<usize, f64>, PbmError> {
    let triplets: Vec<Triplet<usize, usize, f64>> =
        entries.iter().map(|&(r, c, v)| Triplet { row: r, col: c, val: v }).collect();
    SparseColMat::try_new_from_triplets(size, size, &triplets)
        .map_err(|e| PbmError::invalid("faer matrix", format!("{e:?}")))
}

/// The ordering and elimination structure of `a`'s Cholesky factor: what a simulator
/// computes once and reuses while the pattern stays.
pub fn faer_symbolic(
    a: &SparseColMat<usize, f64>,
) -> Result<SymbolicLlt<usize>, PbmError> {
    SymbolicLlt::try_new(a.symbolic(), Side::Lower)
        .map_err(|e| PbmError::degenerate("faer", format!("{e:?}")))
}

/// Solves a x = b with faer's sparse Cholesky factorization: from scratch, or the
/// numeric factorization alone on a `symbolic` one computed before.
pub fn faer_solve(
    a: &SparseColMat<usize, f64>,
    symbolic: Option<&SymbolicLlt<usize>>,
    b: &[f64],
) -> Result<Vec<f64>, PbmError> {
    let symbolic = match symbolic {
        Some(s) => s.clone(),
        None => faer_symbolic(a)?,
    };
    let llt = Llt::try_new_with_symbolic(symbolic, a.as_ref(), Side::Lower)
        .map_err(|e| PbmError::degenerate("faer", format!("{e:?}")))?;
    let mut x = Mat::from_fn(b.len(), 1, |i, _| b[i]);
    llt.solve_in_place(x.as_mut());
    Ok((0..b.len()).map(|i| x[(i, 0)]).collect())
}

/// ‖x − y‖ / ‖y‖.
pub fn relative_difference(x: &[f64], y: &[f64]) -> f64 {
    distance(x, y)
        / y.iter().map(|v| v * v).sum::<f64>().sqrt().max(f64::MIN_POSITIVE)
}
