//! A particle system with constraints ("Constrained Dynamics", sections 3 and 4). The
//! solver still sees one state vector; inside the derivative evaluation one step is
//! added between "accumulate forces" and "divide by mass": solve for the Lagrange
//! multipliers and add the constraint force Jᵀλ to the accumulators.

use crate::block_matrix::{BlockMatrix, MatrixBlock};
use crate::tree::TreeSolve;
use pbm_implicit::cg::{CgReport, LinearOperator, conjugate_gradient};
use pbm_ode::system::OdeSystem;
use pbm_particles::condition::{Condition, Evaluation};
use pbm_particles::particle::Force;
use pbm_particles::particle::{Motion, Particle, ParticleSystem, Vector};
use pbm_prelim::PbmError;
use pbm_prelim::validate::{indices, non_negative};
use std::cell::RefCell;

/// The gains of the drift feedback C̈ = −k_s C − k_d Ċ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Feedback {
    /// Spring gain (1/s²).
    pub k_s: f64,
    /// Damping gain (1/s).
    pub k_d: f64,
}

impl Feedback {
    /// No feedback: the solve asks only for C̈ = 0.
    pub const OFF: Feedback = Feedback { k_s: 0.0, k_d: 0.0 };
    /// The book's default: critically damped with a 0.1 s time constant, far slower
    /// than any step the chapter takes and far faster than drift accumulates.
    pub const DEFAULT: Feedback = Feedback { k_s: 100.0, k_d: 20.0 };

    /// Validated gains: both non-negative and finite.
    pub fn new(k_s: f64, k_d: f64) -> Result<Self, PbmError> {
        Ok(Feedback {
            k_s: non_negative("feedback", "k_s", k_s)?,
            k_d: non_negative("feedback", "k_d", k_d)?,
        })
    }
}

/// How the multipliers are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Multipliers {
    /// Conjugate gradients on the unformed J W Jᵀ: any constraints, redundant ones too.
    #[default]
    Cg,
    /// Baraff's direct solve on the tree of particles and constraints, in time linear in
    /// their number: constraints without loops only (see [`TreeSolve`]).
    Tree,
}

/// Counts of the constraint solves so far.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SolveStats {
    /// Derivative evaluations that solved for λ.
    pub solves: usize,
    /// CG iterations over all of them.
    pub iterations: usize,
    /// The most CG iterations one solve took.
    pub max_iterations: usize,
}

/// Particles, forces and constraints.
pub struct ConstrainedSystem<const D: usize> {
    /// The unconstrained particle system of chapter 2 (particles, forces, clock).
    pub particles: ParticleSystem<D>,
    constraints: Vec<Box<dyn Condition<D>>>,
    /// First row of each constraint in C.
    offsets: Vec<usize>,
    /// The global vectors and matrices of equation 11.
    c: Vec<f64>,
    c_dot: Vec<f64>,
    j: BlockMatrix,
    j_dot: BlockMatrix,
    /// The last multipliers and constraint forces Jᵀλ.
    lambda: Vec<f64>,
    constraint_force: Vec<f64>,
    /// Reused storage for evaluating one constraint.
    scratch: Evaluation<D>,
    /// Drift feedback gains.
    pub feedback: Feedback,
    /// Relative residual the CG solve must reach.
    pub tolerance: f64,
    /// Most CG iterations a solve may take; `None` for the default, 10 m + 100 for m
    /// rows.
    pub max_iterations: Option<usize>,
    /// How the multipliers are found.
    pub multipliers: Multipliers,
    /// The tree and its factors, built at the first tree solve after a constraint was
    /// added or a particle was nailed or let go.
    tree: Option<TreeSolve<D>>,
    stats: SolveStats,
}

impl<const D: usize> ConstrainedSystem<D> {
    /// Particles with no forces and no constraints yet, default feedback.
    pub fn new(particles: Vec<Particle<D>>) -> Self {
        let n = D * particles.len();
        ConstrainedSystem {
            particles: ParticleSystem::new(particles),
            constraints: Vec::new(),
            offsets: Vec::new(),
            c: Vec::new(),
            c_dot: Vec::new(),
            j: BlockMatrix::new(0, n),
            j_dot: BlockMatrix::new(0, n),
            lambda: Vec::new(),
            constraint_force: vec![0.0; n],
            scratch: Evaluation::default(),
            feedback: Feedback::DEFAULT,
            tolerance: 1e-12,
            max_iterations: None,
            multipliers: Multipliers::Cg,
            tree: None,
            stats: SolveStats::default(),
        }
    }

    /// Adds an applied force (gravity, a spring, a mouse).
    pub fn add_force(
        &mut self,
        force: impl Force<D> + 'static,
    ) -> Result<(), PbmError> {
        self.particles.add_force(force)
    }

    // ANCHOR: add_constraint
    /// Adds a constraint: checks the particles it names, reserves its rows of C and
    /// creates its blocks of J and J̇, one per particle, D columns wide at the
    /// particle's offset.
    pub fn add_constraint(
        &mut self,
        constraint: impl Condition<D> + 'static,
    ) -> Result<(), PbmError> {
        let ids = constraint.particles();
        indices(constraint.name(), "particle", ids, self.particles.particles.len())?;
        let x: Vec<Vector<D>> =
            ids.iter().map(|&i| self.particles.particles[i].x).collect();
        constraint.check(&x)?;
        // A constraint on nailed particles only can never be held: its row of
        // J W^½ is zero, so J W Jᵀ is singular however independent J's rows are.
        let nailed =
            |&i: &usize| matches!(self.particles.particles[i].motion, Motion::Fixed);
        if ids.iter().all(nailed) {
            return Err(PbmError::invalid(
                constraint.name(),
                format!(
                    "every particle it acts on ({ids:?}) is fixed, so no force can hold \
                     it: its row of J W Jᵀ would be zero"
                ),
            ));
        }
        let (row, rows) = (self.c.len(), constraint.rows());
        for &i in ids {
            self.j.blocks.push(MatrixBlock::zeros(row, D * i, rows, D));
            self.j_dot.blocks.push(MatrixBlock::zeros(row, D * i, rows, D));
        }
        self.offsets.push(row);
        self.c.resize(row + rows, 0.0);
        self.c_dot.resize(row + rows, 0.0);
        self.lambda.resize(row + rows, 0.0);
        self.j.n_rows = row + rows;
        self.j_dot.n_rows = row + rows;
        self.constraints.push(Box::new(constraint));
        self.tree = None;
        Ok(())
    }
    // ANCHOR_END: add_constraint

    // ANCHOR: evaluate_constraints
    /// Loops over the constraints, evaluating each (C, Ċ, J, J̇ at its particles) and
    /// copying the results into its slices of C and Ċ and its blocks of J and J̇:
    /// block k of a constraint holds ∂C_r/∂x_k for its rows r. A constraint's blocks
    /// are consecutive.
    pub fn evaluate_constraints(&mut self) -> Result<(), PbmError> {
        let eval = &mut self.scratch;
        let mut first_block = 0;
        for (constraint, &row) in self.constraints.iter().zip(&self.offsets) {
            eval.evaluate(constraint.as_ref(), &self.particles.particles, true)?;
            let (rows, n) = (constraint.rows(), constraint.particles().len());
            self.c[row..row + rows].copy_from_slice(&eval.c);
            self.c_dot[row..row + rows].copy_from_slice(&eval.c_dot);
            for k in 0..n {
                let (j, j_dot) = (
                    &mut self.j.blocks[first_block + k],
                    &mut self.j_dot.blocks[first_block + k],
                );
                for r in 0..rows {
                    j.row_mut(r).copy_from_slice(eval.j[r * n + k].as_slice());
                    j_dot
                        .row_mut(r)
                        .copy_from_slice(eval.j_dot[r * n + k].as_slice());
                }
            }
            first_block += n;
        }
        Ok(())
    }
    // ANCHOR_END: evaluate_constraints

    /// C at the current state (after [`Self::evaluate_constraints`] or a derivative).
    pub fn c(&self) -> &[f64] {
        &self.c
    }

    /// Ċ at the current state.
    pub fn c_dot(&self) -> &[f64] {
        &self.c_dot
    }

    /// The Jacobian J at the current state.
    pub fn jacobian(&self) -> &BlockMatrix {
        &self.j
    }

    /// J̇ at the current state.
    pub fn jacobian_dot(&self) -> &BlockMatrix {
        &self.j_dot
    }

    /// The multipliers λ found by the last derivative evaluation.
    pub fn lambda(&self) -> &[f64] {
        &self.lambda
    }

    /// The constraint force Jᵀλ of the last derivative evaluation, D numbers per
    /// particle.
    pub fn constraint_force(&self) -> &[f64] {
        &self.constraint_force
    }

    /// Solve counts so far.
    pub fn stats(&self) -> SolveStats {
        self.stats
    }

    /// Number of scalar constraints (the length of C).
    pub fn constraint_rows(&self) -> usize {
        self.c.len()
    }

    /// max |C_i| at the current state.
    pub fn max_abs_c(&mut self) -> Result<f64, PbmError> {
        self.evaluate_constraints()?;
        Ok(self.c.iter().fold(0.0, |m, c| m.max(c.abs())))
    }

    /// Kinetic plus potential energy of the particles and their conservative forces.
    pub fn energy(&self) -> f64 {
        self.particles.energy()
    }

    /// The inverse masses W, D numbers per particle (0 for nailed and scripted
    /// particles, which no force moves).
    pub fn inverse_masses(&self) -> Vec<f64> {
        self.inverse_masses_and_free_accelerations().0
    }

    /// The inverse masses W (0 for nailed and scripted particles, which no force
    /// moves) and the accelerations the particles would have without constraints.
    fn inverse_masses_and_free_accelerations(&self) -> (Vec<f64>, Vec<f64>) {
        let n = D * self.particles.particles.len();
        let (mut w, mut a0) = (vec![0.0; n], vec![0.0; n]);
        for (i, p) in self.particles.particles.iter().enumerate() {
            let a = match p.motion {
                Motion::Free => {
                    w[D * i..D * i + D].fill(1.0 / p.mass);
                    p.f / p.mass
                }
                Motion::Fixed => Vector::zeros(),
                Motion::Scripted(script) => script(self.particles.t).2,
            };
            a0[D * i..D * i + D].copy_from_slice(a.as_slice());
        }
        (w, a0)
    }

    // ANCHOR: assemble
    /// Equation 11 of the notes: J W Jᵀ λ = −J̇ q̇ − J W Q − k_s C − k_d Ċ. Here W Q
    /// is generalised to the unconstrained acceleration a₀ (W Q for free particles,
    /// the script's acceleration for scripted ones, zero for fixed ones). Returns W
    /// and the right-hand side, with C, Ċ, J and J̇ evaluated at the current state.
    /// Forces must have been accumulated.
    pub fn assemble(&mut self) -> Result<(Vec<f64>, Vec<f64>), PbmError> {
        self.evaluate_constraints()?;
        let (w, a0) = self.inverse_masses_and_free_accelerations();
        let q_dot: Vec<f64> = self
            .particles
            .particles
            .iter()
            .flat_map(|p| p.v.iter().copied())
            .collect();
        let m = self.c.len();
        let (mut rhs, mut j_a0) = (vec![0.0; m], vec![0.0; m]);
        self.j_dot.mul_vec(&q_dot, &mut rhs);
        self.j.mul_vec(&a0, &mut j_a0);
        let Feedback { k_s, k_d } = self.feedback;
        for i in 0..m {
            rhs[i] = -rhs[i] - j_a0[i] - k_s * self.c[i] - k_d * self.c_dot[i];
        }
        Ok((w, rhs))
    }
    // ANCHOR_END: assemble

    // ANCHOR: solve
    /// Assembles and solves equation 11 for λ, and returns the constraint force Jᵀλ.
    pub fn solve_constraint_forces(&mut self) -> Result<&[f64], PbmError> {
        let (w, rhs) = self.assemble()?;
        if !rhs.iter().map(|b| b * b).sum::<f64>().is_finite() {
            // Not the solver's fault: the state has blown up so far that ‖rhs‖
            // overflows.
            return Err(PbmError::degenerate(
                "constraint solve",
                "the right-hand side is no longer finite: the state has blown up",
            ));
        }
        self.check_rows_can_be_met(&w, &rhs)?;
        self.lambda.fill(0.0);
        let iterations = match self.multipliers {
            Multipliers::Cg => {
                let max_iterations = self
                    .max_iterations
                    .unwrap_or_else(|| default_iterations(rhs.len()));
                let limit = (self.tolerance, max_iterations);
                solve_multipliers(&self.j, &w, &rhs, &mut self.lambda, limit)?
                    .iterations
            }
            Multipliers::Tree => {
                let tree = match &mut self.tree {
                    Some(tree) if tree.fits(&w) => tree,
                    _ => self.tree.insert(TreeSolve::new(&self.j, &w)?),
                };
                tree.factor(&self.j, &w)?;
                tree.solve(&rhs, &mut self.lambda);
                0
            }
        };
        self.j.mul_transpose_vec(&self.lambda, &mut self.constraint_force);
        self.stats.solves += 1;
        self.stats.iterations += iterations;
        self.stats.max_iterations = self.stats.max_iterations.max(iterations);
        Ok(&self.constraint_force)
    }
    // ANCHOR_END: solve

    /// A row of J W Jᵀ that is zero (its constraint acts only on particles no force
    /// can move: fixed, or scripted) can be met only if its right-hand side is zero
    /// too. Otherwise the system has no solution, and the error names the row's
    /// constraint instead of letting CG fail on it.
    fn check_rows_can_be_met(&self, w: &[f64], rhs: &[f64]) -> Result<(), PbmError> {
        let mut diagonal = vec![0.0; rhs.len()];
        self.j.weighted_row_norms(w, &mut diagonal);
        let Some(row) = (0..rhs.len()).find(|&r| diagonal[r] == 0.0 && rhs[r] != 0.0)
        else {
            return Ok(());
        };
        let k = self.offsets.iter().rposition(|&first| first <= row).unwrap_or(0);
        Err(PbmError::degenerate(
            "constraint solve",
            format!(
                "the {} constraint (row {row}) acts on no particle a force can move, so \
                 its row of J W Jᵀ is zero, yet its right-hand side asks for {:.3}: no \
                 multiplier can meet it",
                self.constraints[k].name(),
                rhs[row]
            ),
        ))
    }
}

/// The CG iteration limit for m constraint rows: 10 m + 100, ten times what exact
/// arithmetic would need.
pub fn default_iterations(m: usize) -> usize {
    10 * m + 100
}

/// Solves J W Jᵀ λ = rhs by preconditioned CG on the unformed operator, from the λ
/// given, to relative residual `tolerance` in at most `max_iterations`.
pub fn solve_multipliers(
    j: &BlockMatrix,
    w: &[f64],
    rhs: &[f64],
    lambda: &mut [f64],
    (tolerance, max_iterations): (f64, usize),
) -> Result<CgReport, PbmError> {
    conjugate_gradient(&Jwjt::new(j, w), rhs, lambda, tolerance, max_iterations)
}

// ANCHOR: jwjt
/// The matrix J W Jᵀ, never formed: a product is Jᵀ, then W (element by element),
/// then J. Its diagonal, Σ_c J_ic² W_c, is the Jacobi preconditioner.
struct Jwjt<'a> {
    j: &'a BlockMatrix,
    w: &'a [f64],
    diagonal: Vec<f64>,
    scratch: RefCell<Vec<f64>>,
}

impl LinearOperator for Jwjt<'_> {
    fn dimension(&self) -> usize {
        self.j.n_rows
    }
    fn apply(&self, x: &[f64], y: &mut [f64]) {
        let mut jt_x = self.scratch.borrow_mut();
        self.j.mul_transpose_vec(x, &mut jt_x);
        for (v, w) in jt_x.iter_mut().zip(self.w) {
            *v *= w;
        }
        self.j.mul_vec(&jt_x, y);
    }
    fn precondition(&self, r: &[f64], z: &mut [f64]) {
        for ((z, r), d) in z.iter_mut().zip(r).zip(&self.diagonal) {
            *z = if *d > 0.0 { r / d } else { *r };
        }
    }
}
// ANCHOR_END: jwjt

impl<'a> Jwjt<'a> {
    fn new(j: &'a BlockMatrix, w: &'a [f64]) -> Self {
        let mut diagonal = vec![0.0; j.n_rows];
        j.weighted_row_norms(w, &mut diagonal);
        Jwjt { j, w, diagonal, scratch: RefCell::new(vec![0.0; j.n_cols]) }
    }
}

// ANCHOR: ode_system
impl<const D: usize> OdeSystem for ConstrainedSystem<D> {
    fn dimension(&self) -> usize {
        self.particles.dimension()
    }
    fn time(&self) -> f64 {
        self.particles.time()
    }
    fn gather_state(&self, x: &mut [f64]) {
        self.particles.gather_state(x);
    }
    fn scatter_state(&mut self, x: &[f64], t: f64) {
        self.particles.scatter_state(x, t);
    }
    /// The modified derivative loop: clear and accumulate forces, add the constraint
    /// forces, then divide by mass. A constraint solve that fails fails the
    /// derivative, and the solver names the step.
    fn derivative(&mut self, xdot: &mut [f64]) -> Result<(), PbmError> {
        self.particles.accumulate_forces()?;
        self.solve_constraint_forces()?;
        for (p, f) in
            self.particles.particles.iter_mut().zip(self.constraint_force.chunks(D))
        {
            if let Motion::Free = p.motion {
                p.f += Vector::<D>::from_column_slice(f);
            }
        }
        self.particles.write_derivative(xdot);
        Ok(())
    }
}
// ANCHOR_END: ode_system
