//! The workloads of the production appendix, set up once for the benchmarks: the same
//! problem handed to the book's code and to the crate a production simulator would
//! use, and the checks that both solved it before either is timed.
//!
//! `cargo bench -p pbm-bench` times them (`benches/production.rs`, beside parry's
//! broad phase in `benches/versus_parry.rs` and rapier's stack in
//! `benches/versus_rapier.rs`); `cargo run --release -- bench-tables` turns the
//! results into the appendix's tables.

use faer::prelude::Solve as _; // the trait of `solve_in_place`
use faer::sparse::linalg::solvers::{Llt, SymbolicLlt};
use faer::sparse::{Argsort, Pair, SparseColMat, SymbolicSparseColMat, Triplet};
use faer::{Mat, Side};
use ode_solvers::dop_shared::OutputType;
use ode_solvers::dopri5::Dopri5;
use ode_solvers::rk4::Rk4;
use ode_solvers::{DVector, System, Vector4};
use pbm_constraints::block_matrix::{BlockMatrix, MatrixBlock};
use pbm_implicit::block_sparse::BlockSparse;
use pbm_implicit::mass_spring::MassSpring;
use pbm_implicit::multigrid::Multigrid;
use pbm_implicit::sheet::{Solve, sheet};
use pbm_ode::adaptive::{Controller, EmbeddedPair, integrate_adaptive};
use pbm_ode::convergence::{ADAPTIVE_FIRST_STEP, AdaptiveMethod, adaptive_orbit};
use pbm_ode::fixed::{FixedPair, integrate_fixed};
use pbm_ode::scenes::{KEPLER_PERIOD, kepler_derivative, kepler_initial_state};
use pbm_ode::system::{VectorField, state_of};
use pbm_ode::tableau::DORMAND_PRINCE;
use pbm_particles::particle::Motion;
use pbm_prelim::PbmError;

pub use pbm_prelim::registry::criterion_file;

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

/// The same `steps` RK4 steps as a production code writes them: four stages on
/// buffers allocated once before the loop, and only the last state kept. The final
/// state.
pub fn ring_rk4_by_hand(n: usize, h: f64, steps: usize) -> Vec<f64> {
    let mut x = nalgebra::DVector::from_vec(ring_start(n));
    // The state each stage is evaluated at, and the four stage derivatives.
    let mut at = x.clone();
    let (mut k1, mut k2) = (x.clone(), x.clone());
    let (mut k3, mut k4) = (x.clone(), x.clone());
    for _ in 0..steps {
        ring_derivative(x.as_slice(), k1.as_mut_slice());
        at.copy_from(&x);
        at.axpy(0.5 * h, &k1, 1.0);
        ring_derivative(at.as_slice(), k2.as_mut_slice());
        at.copy_from(&x);
        at.axpy(0.5 * h, &k2, 1.0);
        ring_derivative(at.as_slice(), k3.as_mut_slice());
        at.copy_from(&x);
        at.axpy(h, &k3, 1.0);
        ring_derivative(at.as_slice(), k4.as_mut_slice());
        // x += h (k1 + 2 k2 + 2 k3 + k4) / 6, in place.
        x.axpy(h / 6.0, &k1, 1.0);
        x.axpy(h / 3.0, &k2, 1.0);
        x.axpy(h / 3.0, &k3, 1.0);
        x.axpy(h / 6.0, &k4, 1.0);
    }
    x.as_slice().to_vec()
}

/// The step size of chapter 3's sheet exercise (a frame at 30 per second).
pub const SHEET_STEP: f64 = 1.0 / 30.0;

/// The stiffness of chapter 3's sheet exercise (N/m).
pub const SHEET_STIFFNESS: f64 = 1000.0;

/// One backward Euler step of chapter 3's n × n sheet, taken as the `implicit/sheet`
/// exercise takes it ([`Solve::FRAME`]).
pub struct SheetStep {
    /// The step's matrix A = M − h ∂f/∂v − h² ∂f/∂x.
    pub matrix: BlockSparse<3>,
    /// The step's right-hand side b = h (f₀ + h (∂f/∂x) v₀).
    pub rhs: Vec<f64>,
    /// The Δv of the step before: where the simulation starts CG.
    pub previous: Vec<f64>,
    /// The multigrid hierarchy as the simulation keeps it: built for its first
    /// step's matrix, and refilled for every step since.
    pub hierarchy: Multigrid<3>,
    /// The Δv the chapter's own step then took, to ten digits: what A Δv = b must
    /// give if A and b are the step's.
    pub taken: Vec<f64>,
}

/// The sheet's step after `frames` frames of falling from rest, run as the exercise
/// runs it: multigrid CG to three digits, each step from the last step's Δv.
pub fn sheet_step(n: usize, frames: usize) -> Result<SheetStep, PbmError> {
    let mut model = sheet(n, SHEET_STIFFNESS)?;
    model.cg_tolerance = Solve::FRAME.tolerance;
    model.warm_start = Solve::FRAME.warm_start;
    model.preconditioner = Solve::FRAME.preconditioner;
    model.system.accumulate_forces()?;
    let (first, _) = model.system_matrices(SHEET_STEP, None)?;
    let hierarchy = Multigrid::new(&first)?;
    let mut previous = vec![0.0; 3 * n * n];
    for _ in 0..frames {
        previous = velocity_change(&mut model)?;
    }
    model.system.accumulate_forces()?;
    let (matrix, dfdx_v0) = model.system_matrices(SHEET_STEP, None)?;
    let rhs = right_hand_side(&model, &dfdx_v0);
    model.cg_tolerance = Solve::TIGHT.tolerance;
    let taken = velocity_change(&mut model)?;
    Ok(SheetStep { matrix, rhs, previous, hierarchy, taken })
}

/// Every particle's velocity, one after another.
fn velocities(model: &MassSpring<3>) -> Vec<f64> {
    model.system.particles.iter().flat_map(|p| p.v.iter().copied()).collect()
}

/// Takes one backward Euler step of the sheet; returns the Δv it made.
fn velocity_change(model: &mut MassSpring<3>) -> Result<Vec<f64>, PbmError> {
    let before = velocities(model);
    model.backward_euler_step(SHEET_STEP)?;
    let after = velocities(model);
    Ok(after.iter().zip(&before).map(|(a, b)| a - b).collect())
}

/// b = h (f₀ + h (∂f/∂x) v₀) with the forces last accumulated, zero for the nailed
/// particles (their rows of A are the identity, so their Δv is zero). The chapter's
/// step keeps its own b private; [`SheetStep::taken`] checks that this one is it.
fn right_hand_side(model: &MassSpring<3>, dfdx_v0: &[f64]) -> Vec<f64> {
    let h = SHEET_STEP;
    let mut b = vec![0.0; dfdx_v0.len()];
    for (i, p) in model.system.particles.iter().enumerate() {
        if matches!(p.motion, Motion::Free) {
            for k in 0..3 {
                b[3 * i + k] = h * (p.f[k] + h * dfdx_v0[3 * i + k]);
            }
        }
    }
    b
}

/// The entries of J W Jᵀ, formed from J's blocks without a dense J. The constraints
/// on one particle are coupled through it and no other way: each pair of them (a
/// constraint with itself included) adds a diag(w) bᵀ over the particle's columns.
/// Both triangles; a place two particles share comes twice, and faer's assembly
/// sums it.
pub fn jwjt_entries(j: &BlockMatrix, w: &[f64]) -> Vec<(usize, usize, f64)> {
    let mut by_particle: Vec<&MatrixBlock> = j.blocks.iter().collect();
    by_particle.sort_by_key(|block| block.col);
    let mut entries = Vec::new();
    for shared in by_particle.chunk_by(|a, b| a.col == b.col) {
        for a in shared {
            for b in shared {
                add_coupling(a, b, w, &mut entries);
            }
        }
    }
    entries
}

/// a diag(w) bᵀ, for two blocks over the same particle's columns, as entries.
fn add_coupling(
    a: &MatrixBlock,
    b: &MatrixBlock,
    w: &[f64],
    entries: &mut Vec<(usize, usize, f64)>,
) {
    let weights = &w[a.col..a.col + a.cols];
    for r in 0..a.rows {
        let a_row = &a.data[r * a.cols..(r + 1) * a.cols];
        for s in 0..b.rows {
            let b_row = &b.data[s * b.cols..(s + 1) * b.cols];
            let value = a_row
                .iter()
                .zip(b_row)
                .zip(weights)
                .map(|((x, y), weight)| x * weight * y)
                .sum();
            entries.push((a.row + r, b.row + s, value));
        }
    }
}

/// A sparse matrix's places in faer's form, kept with the order its entries land
/// in, so that a new matrix with the same places is filled without sorting again:
/// what a simulator keeps while its constraints stay.
pub struct FaerPattern {
    places: SymbolicSparseColMat<usize>,
    order: Argsort<usize>,
}

impl FaerPattern {
    /// The places of `entries` (as [`to_faer`] takes them) in a `size` × `size`
    /// matrix.
    pub fn new(
        size: usize,
        entries: &[(usize, usize, f64)],
    ) -> Result<Self, PbmError> {
        let pairs: Vec<Pair<usize, usize>> =
            entries.iter().map(|&(row, col, _)| Pair { row, col }).collect();
        let (places, order) =
            SymbolicSparseColMat::try_new_from_indices(size, size, &pairs)
                .map_err(|e| PbmError::invalid("faer pattern", format!("{e:?}")))?;
        Ok(FaerPattern { places, order })
    }

    /// The matrix of `entries`, which must name the places the pattern was made
    /// from, in the same order.
    pub fn fill(
        &self,
        entries: &[(usize, usize, f64)],
    ) -> Result<SparseColMat<usize, f64>, PbmError> {
        let values: Vec<f64> = entries.iter().map(|&(_, _, value)| value).collect();
        SparseColMat::new_from_argsort(self.places.clone(), &self.order, &values)
            .map_err(|e| PbmError::invalid("faer matrix", format!("{e:?}")))
    }
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
